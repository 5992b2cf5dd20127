#!/bin/sh
# h200_x11.sh - GLX programs on the GPU machine (the third of the GPU machine's scripts):
# that machine has no display and no package registry, but NVIDIA's GLX
# renders on the GPU into an Xvfb carried there, together with the Mesa
# software driver its own GLX extension needs to list visuals at all.
#
# What works (2026-12-02): Debian's packages unpacked into / there, as the
# device README does with .gl. A private tree under /tmp with LD_LIBRARY_PATH
# (this script's first version) gave an Xvfb with the GLX extension but no
# GLX visual for any client; the same packages at their own paths work.
#
# Here, once:   sh bench/h200_x11.sh --pack DIR BUILD
#   DIR/a: the three large libraries (libllvm15, libicu72, libz3-4);
#   DIR/b: Xvfb, Mesa's DRI drivers and GLX, glmark2 and what they need from
#   Debian beyond a base system (only packages whose every entry lies under
#   /usr travel as .deb; of the others, e.g. libunwind8 and sysvinit-utils,
#   only their files under /usr travel, in usr-only.tar.xz: dpkg -x of an
#   entry under /bin, /sbin or /lib turns the merged-/usr links there into
#   directories and the machine stops answering), glmark2's data without the scenes
#   overhead.sh does not run (glmark2-data-trimmed.tar.xz), and fxgl/:
#   libfxgl.so (stripped), libinih and the generated textures from BUILD.
#   Together they are over one call's 64 MiB, so they travel in two calls
#   made back to back (the machine keeps what was unpacked while warm, 30 s).
# There, call 1 (carry .gl, DIR/a):   sh bench/h200_x11.sh --unpack DIR/a
# There, call 2 (carry .gl, DIR/b):   sh bench/h200_x11.sh DIR/b OUTDIR
#   unpacks b, starts Xvfb :9 at 1920x1080, checks that glmark2 renders on
#   the GPU, and runs overhead.sh against that display (XDISPLAY) with
#   __GLX_VENDOR_LIBRARY_NAME=nvidia, 1920x1080, 3 interleaved runs.
# What these numbers include: NVIDIA's GLX on an Xvfb presents every frame by
# copying it into Xvfb's memory, so glmark2's frame time carries that copy.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# True when every entry of the package lies under /usr (or is "./" itself).
usr_only_deb() {
    ! dpkg-deb --fsys-tarfile "$1" | tar -t | grep -q -v -E '^\./(usr(/.*)?)?$'
}

# Refuses a pack with anything that would land outside /usr.
check_pack() {
    for d in "$@"; do
        for f in "$d"/*.deb; do
            [ -e "$f" ] || continue
            usr_only_deb "$f" || { echo "h200_x11.sh: $f has entries outside /usr" >&2; exit 1; }
        done
        for t in "$d"/*.tar.xz; do
            [ -e "$t" ] || continue
            if tar -tJf "$t" | grep -q -v -E '^(\./)?(usr(/.*)?)?$'; then
                echo "h200_x11.sh: $t has entries outside /usr" >&2
                exit 1
            fi
        done
    done
}

unpack() {
    for f in "$1"/*.deb; do
        [ -e "$f" ] && dpkg -x "$f" /
    done
    for t in "$1"/*.tar.xz; do
        [ -e "$t" ] && tar -xJf "$t" -C /
    done
    return 0
}

case "${1:-}" in
--pack)
    dst=$(mkdir -p "$2" && cd "$2" && pwd); build=$(cd "$3" && pwd)
    mkdir -p "$dst/a" "$dst/b/fxgl/lib"
    tmp=$(mktemp -d)
    # Everything xvfb, glmark2-x11, xkbcomp and the XKB data pull in, less
    # what any Debian or Ubuntu base system has (and must keep its own of).
    base='^(libc6|libc-bin|libgcc-s1|libstdc\+\+6|gcc-12-base|debconf|perl-base|dpkg|libcrypt1|libselinux1|libsystemd0|libelogind0|libaudit1|libaudit-common|libcap-ng0|libcap2|libgcrypt20|libgpg-error0|liblz4-1|liblzma5|libzstd1|zlib1g|libbz2-1.0|libpcre2-8-0|libmd0|libbsd0|libtinfo6|libffi8|libexpat1|libgl1|libglx0|libglvnd0|libopengl0|libegl1|libgles2|x11-common|lsb-base|init-system-helpers|sensible-utils|libice6|libsm6|libxaw7|libxmu6|libxpm4|libxt6|xserver-common|glmark2-data)$'
    pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
               --no-breaks --no-replaces --no-enhances xvfb glmark2-x11 x11-xkb-utils xkb-data |
           grep '^[a-z]' | grep -v ':' | sort -u | grep -v -E "$base")
    # PACK_EXTRA: more packages (bench/h200_cpu.sh: vkbasalt, vulkan-tools,
    # mesa-vulkan-drivers) with what they need, walked one level at a time so
    # that a branch can be cut: PACK_PRUNE (extended regex) names packages
    # left out together with everything only they pull in (mesa-vulkan-drivers
    # depends on python3 for one helper script; python3 is tens of MiB).
    if [ -n "${PACK_EXTRA:-}" ]; then
        prune="$base"; [ -n "${PACK_PRUNE:-}" ] && prune="^(${PACK_PRUNE})\$|$base"
        seen=" "; todo=$PACK_EXTRA
        while [ -n "$todo" ]; do
            next=""
            for p in $todo; do
                case "$seen" in *" $p "*) continue ;; esac
                printf '%s\n' "$p" | grep -q -E "$prune" && continue
                seen="$seen$p "
                next="$next $(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
                    --no-replaces --no-enhances "$p" | sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \([^<][^ :]*\).*/\2/p')"
            done
            todo=$next
        done
        pkgs=$(printf '%s\n' $pkgs $seen | sort -u)
    fi
    # shellcheck disable=SC2086
    (cd "$tmp" && apt-get download -oAPT::Architectures=amd64 $pkgs >/dev/null)
    rm -f "$tmp"/*_i386.deb
    # dpkg -x there replaces /bin, /sbin and /lib (links into /usr on a merged
    # system) with directories when a package has entries there, and the
    # machine stops answering: a package with any entry outside /usr travels
    # as the /usr part of its files alone (usr-only.tar.xz), or not at all
    # when that part is empty.
    mkdir -p "$tmp/u"
    for f in "$tmp"/*.deb; do
        if ! usr_only_deb "$f"; then
            n=$(dpkg-deb --fsys-tarfile "$f" | tar -t | grep -c -E '^\./usr/.*[^/]$' || true)
            if [ "$n" -gt 0 ]; then
                dpkg-deb --fsys-tarfile "$f" | tar -x -C "$tmp/u" ./usr
                echo "$(basename "$f"): outside /usr, only its /usr files travel ($n)"
            else
                echo "$(basename "$f"): nothing under /usr, left out"
            fi
            rm -f "$f"
        fi
    done
    tar cJf "$dst/b/usr-only.tar.xz" -C "$tmp/u" ./usr
    mv "$tmp"/libllvm15_* "$tmp"/libicu72_* "$tmp"/libz3-4_* "$dst/a/"
    mv "$tmp"/*.deb "$dst/b/"
    mkdir -p "$tmp/d/usr/share" && cp -r /usr/share/glmark2 "$tmp/d/usr/share/"
    rm -f "$tmp"/d/usr/share/glmark2/models/jellyfish.jobj \
        "$tmp"/d/usr/share/glmark2/textures/nasa*.png "$tmp"/d/usr/share/glmark2/textures/jellyfish256.png
    tar cJf "$dst/b/glmark2-data-trimmed.tar.xz" -C "$tmp/d" usr
    rm -rf "$tmp"
    strip -o "$dst/b/fxgl/lib/libfxgl.so" "$build/.libs/libfxgl.so"
    for l in $(ldd "$build/.libs/libfxgl.so" | awk '/libinih/ {print $3}'); do cp -L "$l" "$dst/b/fxgl/lib/"; done
    [ -d "$build/data/textures" ] && mkdir -p "$dst/b/fxgl/data" && cp -r "$build/data/textures" "$dst/b/fxgl/data/"
    check_pack "$dst/a" "$dst/b"
    du -sb "$dst/a" "$dst/b"
    exit 0
    ;;
--check)
    shift
    check_pack "$@"
    exit 0
    ;;
--unpack)
    check_pack "$2"
    unpack "$2"
    ldconfig
    exit 0
    ;;
esac
b=$(cd "$1" && pwd)
out=$(mkdir -p "${2:-$top/bench/results}" && cd "${2:-$top/bench/results}" && pwd)
check_pack "$b"
unpack "$b"
# Xvfb writes its compiled keymaps here (x11-xkb-utils' one entry outside /usr).
mkdir -p /var/lib/xkb
ldconfig
{ nvidia-smi -L 2>/dev/null || true; echo "cpus: $(nproc)"; uname -srm; date -u; } >"$out/env-x11.txt"
Xvfb :9 -screen 0 1920x1080x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true' EXIT
sleep 2
export __GLX_VENDOR_LIBRARY_NAME=nvidia LD_LIBRARY_PATH="$b/fxgl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DISPLAY=:9 glmark2 -s 320x240 -b build:duration=1 >"$out/glmark2-smoke.txt" 2>&1 || true
grep -E "GL_RENDERER|FPS" "$out/glmark2-smoke.txt" || { cat "$out/glmark2-smoke.txt" "$out/xvfb.log"; exit 1; }
mkdir -p /tmp/fxglbuild/.libs && cp "$b/fxgl/lib/libfxgl.so" /tmp/fxglbuild/.libs/
[ -d "$b/fxgl/data" ] && cp -r "$b/fxgl/data" /tmp/fxglbuild/
XDISPLAY=:9 BUILD=/tmp/fxglbuild SIZE=${SIZE:-1920x1080} RUNS=${RUNS:-3} DURATION=${DURATION:-3} \
    sh "$top/bench/overhead.sh" "$out" 2>&1 | tee "$out/overhead.txt"
