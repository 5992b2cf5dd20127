#!/bin/sh
# test_fxc.sh - the fxc driver over the hand-written effects in
# tests/fx/data/fxc: check, preprocess, conform and stats, with the counts
# stated by hand from those files.
set -u
src=${FXGL_TEST_SRCDIR:-$(dirname "$0")/..}/fx/data/fxc
fxc=${FXGL_TOP_BUILDDIR:-.}/fxc
[ -x "$fxc" ] || { echo "SKIP: $fxc not built"; exit 77; }
fail=0
check() { # description, command output, expected line
    if ! printf '%s\n' "$2" | grep -qxF -- "$3"; then
        echo "FAIL: $1: no line '$3' in:"
        printf '%s\n' "$2" | sed 's/^/    /'
        fail=1
    fi
}
out=$("$fxc" check "$src/one.fx" "$src/two.fx" 2>&1) || { echo "FAIL: check one.fx two.fx: $out"; fail=1; }
out=$("$fxc" check "$src/Sub/broken.fx" 2>&1) && { echo "FAIL: broken.fx compiled"; fail=1; }
check "check broken.fx" "$out" "$src/Sub/broken.fx(4, 1): error: broken on purpose"
out=$("$fxc" check -D FXC_TEST_FIX "$src/Sub/broken.fx" 2>&1) || { echo "FAIL: -D did not fix broken.fx: $out"; fail=1; }
out=$("$fxc" preprocess --width 640 "$src/one.fx" 2>&1 | sed "s/  */ /g")  # columns are kept: squeeze
check "preprocess -D/--width" "$out" "texture HalfTex { Width = 640 / 2; Height = 1080 / 2; Format = RGBA16F; };"
check "preprocess marker" "$out" "#line 3 \"$src/Sub/Common.fxh\""
out=$("$fxc" conform "$src" 2>/dev/null)
check "conform" "$out" "FAIL $src/Sub/broken.fx: $src/Sub/broken.fx(4, 1): error: broken on purpose"
check "conform" "$out" "PASS $src/one.fx"
check "conform" "$out" "conform: 2 passed, 1 failed"
out=$("$fxc" stats "$src" 2>/dev/null | sed 's/  */ /g')
check "stats" "$out" "effects: 3 (2 compiled, 1 failed)"
check "stats" "$out" "techniques: 3"
check "stats" "$out" "passes: 4 (1.33 per technique, at most 2)"
check "stats" "$out" " 1 2"
check "stats" "$out" " 2 1"
check "stats" "$out" " PixelShader 4"
check "stats" "$out" " RenderTarget 1"
check "stats" "$out" " SRGBWriteEnable 1"
check "stats" "$out" " timer 1"
check "stats" "$out" " framecount 1"
check "stats" "$out" " COLOR 2"
check "stats" "$out" " RGBA16F 1"
check "stats" "$out" " Common.fxh 2"
[ "$fail" -eq 0 ] && echo "PASS: fxc check, preprocess, conform, stats"
exit "$fail"
