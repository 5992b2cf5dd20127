#!/bin/sh
# test_install.sh - `make install` into a temporary DESTDIR puts the library, the
# commands, the data and the manual pages in the usual places, and the INSTALLED fxgl
# command, with no configuration at all, applies effects from the installed data to a
# real GLX program under Xvfb.
#
# The program (tests/interpose/ip_glx_app) reads its presented window back with
# XGetImage and compares every pixel with the frame it drew: exactly (exit 0), or
# inverted with FXGL_TEST_EXPECT_INVERT=1. The inverting effect here is the user's own
# (in $XDG_DATA_HOME/fxgl/shaders, a default search path) and includes ReShade.fxh,
# which only the installed data provides; the preset is given by name and found in the
# user's presets directory. The installed default preset (no --preset, no
# configuration) must change the frame, so the program reports mismatches.
#
# DESTDIR moves the files, not the paths compiled in, so the command is pointed at
# its library and data with the overrides it documents: FXGL_LIBRARY, FXGL_DATA_DIR.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-..}
make=${FXGL_MAKE:-make}
for v in FXGL_LIBDIR FXGL_BINDIR FXGL_PKGDATADIR FXGL_MANDIR; do
    eval "[ -n \"\${$v:-}\" ]" || { echo "FAIL: $v not set (run through make check)"; exit 1; }
done
fail=0
tmp=$(mktemp -d)
. "$src/tests/harness/xvfb.sh"
cleanup() {
    xvfb_stop
    rm -rf "$tmp"
}
trap cleanup EXIT
dest=$tmp/root

# The sub-make must not join make check's job server, nor see its flags.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $make -C "$build" install DESTDIR="$dest" \
        > "$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: make install DESTDIR=$dest"
    exit 1
fi

lib=$dest$FXGL_LIBDIR/libfxgl.so
fxgl=$dest$FXGL_BINDIR/fxgl
data=$dest$FXGL_PKGDATADIR
for f in "$lib" "$fxgl" "$dest$FXGL_BINDIR/fxc" \
         "$data/shaders/ReShade.fxh" "$data/shaders/ReShadeUI.fxh" \
         "$data/shaders/fxgl_Passthrough.fx" "$data/shaders/fxgl_CAS.fx" \
         "$data/textures/fxgl_lut.png" "$data/presets/default.ini" \
         "$dest$FXGL_MANDIR/man1/fxgl.1" "$dest$FXGL_MANDIR/man1/fxc.1"; do
    [ -f "$f" ] || { echo "FAIL: not installed: ${f#"$dest"}"; fail=1; }
done
[ -x "$fxgl" ] || { echo "FAIL: ${fxgl#"$dest"} is not executable"; fail=1; }
# The command names the installed library and data, never the build tree.
grep -q "'$FXGL_LIBDIR/libfxgl.so'" "$fxgl" || { echo "FAIL: fxgl's library path"; fail=1; }
grep -q "'$FXGL_PKGDATADIR'" "$fxgl" || { echo "FAIL: fxgl's data path"; fail=1; }
if grep -q "$build\|$(cd "$build" && pwd)" "$fxgl"; then
    echo "FAIL: the installed fxgl names the build tree"
    fail=1
fi
[ $fail -eq 0 ] || exit 1

# Everything below runs with an empty home: no configuration, no user data but ours.
home=$tmp/home
mkdir -p "$home"
run_env() {
    env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CONFIG_DIRS -u FXGL_PRESET \
        -u FXGL_CONFIG -u FXGL_EFFECT_PATHS -u FXGL_TEXTURE_PATHS -u LD_PRELOAD \
        HOME="$home" FXGL_LIBRARY="$lib" FXGL_DATA_DIR="$data" FXGL_FXC="$dest$FXGL_BINDIR/fxc" \
        "$@"
}

out=$(run_env sh "$fxgl" --version)
case $out in "fxgl "[0-9]*.[0-9]*) ;; *) echo "FAIL: --version printed '$out'"; fail=1 ;; esac
run_env sh "$fxgl" --help | grep -q -- '--list-effects' || { echo "FAIL: --help"; fail=1; }
# --list-effects: the installed effects with their techniques (fxc compiles each
# against the installed headers).
run_env sh "$fxgl" --list-effects > "$tmp/list" 2>&1
for e in CAS FXAA Passthrough Vignette; do
    grep -qx "$data/shaders/fxgl_$e.fx: fxgl_$e" "$tmp/list" ||
        { echo "FAIL: --list-effects lacks fxgl_$e.fx: fxgl_$e"; cat "$tmp/list"; fail=1; }
done
if grep -q 'does not compile' "$tmp/list"; then
    echo "FAIL: an installed effect does not compile:"
    cat "$tmp/list"
    fail=1
fi
[ "$(wc -l < "$tmp/list")" -eq "$(ls "$data"/shaders/*.fx | wc -l)" ] ||
    { echo "FAIL: --list-effects lists $(wc -l < "$tmp/list") lines:"; cat "$tmp/list"; fail=1; }

app=$build/tests/interpose/ip_glx_app
if ldd "$lib" 2>/dev/null | grep -q libasan; then
    # See test_preload.c: an ASan-built library cannot be preloaded into a program
    # whose ASan runtime comes later.
    echo "note: sanitizer build: the installed library is not preloaded here"
    exit $fail
fi
[ -x "$app" ] || { echo "FAIL: $app not built"; exit 1; }
xvfb_start 320x240 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }

# Without fxgl the program must see its own frame (else nothing below means anything).
"$app" > "$tmp/plain.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$tmp/plain.log"; echo "SKIP: ip_glx_app skipped itself"; exit 77; }
[ $rc -eq 0 ] || { cat "$tmp/plain.log"; echo "FAIL: ip_glx_app without fxgl exited $rc"; exit 1; }

# 1. A user effect including the installed ReShade.fxh, a preset given by name.
mkdir -p "$home/.local/share/fxgl/shaders" "$home/.local/share/fxgl/presets"
cat > "$home/.local/share/fxgl/shaders/TestInvert.fx" <<'FX'
#include "ReShade.fxh"
float4 TestInvertPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return float4(1.0 - tex2D(ReShade::BackBuffer, uv).rgb, 1.0);
}
technique TestInvert { pass { VertexShader = PostProcessVS; PixelShader = TestInvertPS; } }
FX
printf 'Techniques=TestInvert@TestInvert.fx\n' > "$home/.local/share/fxgl/presets/invert.ini"
run_env FXGL_TEST_EXPECT_INVERT=1 sh "$fxgl" --preset invert "$app" > "$tmp/invert.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/invert.log"; echo "FAIL: --preset invert: exited $rc"; fail=1; }
rm -rf "$home/.local"

# 2. No preset, no configuration: the installed default preset runs and changes the
# frame (the program presents until its window is not its own frame), every technique
# of it compiled.
check_default() { # description, args...
    what=$1
    shift
    # Effects compile in the background: the program presents frames until
    # the window stops being its own frame (FXGL_TEST_EXPECT_CHANGE).
    run_env FXGL_LOG=debug FXGL_TEST_EXPECT_CHANGE=1 sh "$fxgl" "$@" "$app" \
        > "$tmp/default.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q 'the frame changed at frame' "$tmp/default.log"; then
        cat "$tmp/default.log"
        echo "FAIL: $what: want the frame changed, got exit $rc"
        fail=1
    fi
    if grep -q 'skipped\|not in the effect search\|cannot\|error' "$tmp/default.log"; then
        grep 'skipped\|not in the effect search\|cannot\|error' "$tmp/default.log"
        echo "FAIL: $what: the default preset did not load cleanly"
        fail=1
    fi
    grep -q "$data/presets/default.ini" "$tmp/default.log" ||
        { echo "FAIL: $what: the log does not name the installed default preset"; fail=1; }
}
check_default "no preset"
check_default "--preset default" --preset default

[ $fail -eq 0 ] && echo "install: layout, --version/--help/--list-effects, installed effects: ok"
exit $fail
