#!/bin/sh
# bootstrap.sh - set up a fresh Debian 12 machine and run one job.
#
#   tools/bootstrap.sh demo   install what the build and the demo need (not the tests'
#                             programs), build, run the main job (screenshot + stats in
#                             out/), then say how to put fxgl on PATH
#   tools/bootstrap.sh test   install, build, pass the tests: a normal build, a
#                             sanitizer (ASan+UBSan) build, and make distcheck
#   tools/bootstrap.sh bench  install what bench/*.sh use as well (gnuplot,
#                             apitrace, vkBasalt, vkcube), build build/ with every
#                             bench program (the bench scripts run this themselves
#                             when they find no build tree)
#
# Packages come from Debian's archive only. Builds go to build/ and
# build-asan/ beside the sources, so a developer's own build dirs are untouched.
set -eu

job=${1:-}
case "$job" in
    demo|test|bench) ;;
    *) echo "usage: $0 demo|test|bench" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# What configure requires (it names the Debian package of anything missing).
BUILD_PACKAGES="autoconf automake libtool pkg-config make gcc binutils
    libegl-dev libgl-dev libgles-dev libx11-dev libglfw3-dev libinih-dev
    check libsubunit-dev libstb-dev glslang-dev python3-glad
    libglvnd-core-dev libxtst-dev libxcb1-dev
    libwayland-dev libxkbcommon-dev wayland-protocols"
# What the demo runs on: a private X server and Mesa's drivers.
# fonts-dejavu-core: the editing overlay's face (DejaVu Sans; without it the built-in one).
RUN_PACKAGES="xvfb xauth libegl1-mesa libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core"
# What only the tests drive: real programs, a compositor, Wine and MinGW for the
# Windows program, glslang's validator; vkBasalt, lavapipe and Vulkan's
# headers for the differential check against the reference path
# (tests/refdiff, tools/refdiff.sh) and the Vulkan path (tests/vk), whose
# barriers the validation layer checks (tests/vk/test_sync.sh); libx11-xcb1 (pulled in by Mesa's EGL too)
# for ip_egl_app's request count, which opens it at run time.
TEST_PACKAGES="git glslang-tools mesa-utils mangohud libsdl2-dev libx11-xcb1
    vkbasalt mesa-vulkan-drivers libvulkan-dev vulkan-validationlayers python3
    glmark2-x11 glmark2-es2-x11 glmark2-es2-wayland glmark2-wayland weston xkb-data
    wine64 gcc-mingw-w64-x86-64-win32"
PACKAGES="$BUILD_PACKAGES $RUN_PACKAGES"
[ "$job" = demo ] || PACKAGES="$PACKAGES $TEST_PACKAGES"
[ "$job" != bench ] || PACKAGES="$PACKAGES gnuplot-nox apitrace vkbasalt vulkan-tools
    mesa-vulkan-drivers time"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "bootstrap: installing$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

jobs=$(nproc 2>/dev/null || echo 2)
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi

build() { # build DIR CONFIGURE-ARGS...
    dir=$1; shift
    mkdir -p "$dir"
    if [ ! -f "$dir/Makefile" ]; then
        (cd "$dir" && "$top/configure" "$@")
    fi
    make -C "$dir" -j"$jobs"
}

# distcheck_failures - what a failed distcheck leaves to read: its own
# build tree stays behind, so print each failing test's log there (CI shows
# only this script's output, and a summary line names no test).
distcheck_failures() {
    for trs in $(find build/fxgl-*/_build -name '*.trs' 2>/dev/null); do
        grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$trs" || continue
        echo "--- distcheck: ${trs%.trs}.log (last 60 lines)"
        tail -60 "${trs%.trs}.log"
    done
}

case "$job" in
demo)
    build build --enable-werror
    sh tools/main-job.sh build out
    # The demo ran fxgl from the build tree; the command for one's own programs:
    if command -v fxgl >/dev/null 2>&1; then
        echo "bootstrap: fxgl is on PATH: $(command -v fxgl) (try: fxgl --preset default glxgears)"
    else
        echo "bootstrap: to put fxgl on PATH: sudo make -C build install (then: fxgl glxgears)"
    fi
    ;;
bench)
    build build --enable-werror
    make -C build -j"$jobs" bench/sweep bench/state_cost bench/depth_hooks fxgl-render fxc \
        fxgl-demo tests/effects/fxgl-effect
    ;;
test)
    status=0
    build build --enable-werror
    make -C build -j"$jobs" check || status=1
    build build-asan --enable-werror --enable-sanitizers
    make -C build-asan -j"$jobs" check || status=1
    if [ "${FXGL_SKIP_DISTCHECK:-0}" != 1 ]; then
        make -C build -j"$jobs" distcheck \
            DISTCHECK_CONFIGURE_FLAGS=--enable-werror >build/distcheck.out 2>&1 ||
            { tail -40 build/distcheck.out; distcheck_failures; echo "distcheck: FAILED"; status=1; }
        grep -A3 'archives ready for distribution' build/distcheck.out || true
    fi
    sh tools/test-summary.sh build build-asan
    exit $status
    ;;
esac
