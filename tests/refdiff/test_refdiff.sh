#!/bin/sh
# test_refdiff.sh - the differential check in small: the project's own test
# effects (tests/refdiff/effects: invert, channel swap, constant fill, two
# passes through a render target, a mip level of a render target) through
# fxgl (llvmpipe) and through vkBasalt (ReShade's compiler on lavapipe), at
# their default values and at perturbed ones, must be bit-identical. The
# effects are written so that every value is exact (point sampling at texel
# centres, k/255 colours, no rounding ties), so any difference is a bug on
# one side. Each reference picture must also differ from the input, and
# only ConstantFill may be one colour (a reference that drew nothing would
# otherwise "match" an fxgl that drew nothing).
# Skips (77) without vkBasalt, a Vulkan driver, Xvfb or Vulkan headers.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/fxgl-refdiff-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
export ASAN_OPTIONS

FXGL_BUILD=$build sh "$src/tools/refdiff.sh" --files --exact "$tmp/out" \
    "$src"/tests/refdiff/effects/*.fx >"$tmp/log" 2>&1
rc=$?
if [ "$rc" -eq 77 ]; then
    echo "SKIP: $(grep SKIP "$tmp/log" | tail -n 1)"
    exit 77
fi
cat "$tmp/log"
[ "$rc" -eq 0 ] || { echo "FAIL: tools/refdiff.sh exited $rc"; exit 1; }
awk -F'\t' '
    NR == 1 { next }
    $3 == "skip" && $8 == "no scalar uniform to perturb" { next }
    $3 != "exact" { print "FAIL: " $1 " (" $2 "): " $3 " " $8; bad = 1; next }
    $8 ~ /reference leaves the input unchanged/ { print "FAIL: " $1 " (" $2 "): unchanged"; bad = 1 }
    $8 ~ /reference is one colour/ && $1 != "ConstantFill.fx" { print "FAIL: " $1 " (" $2 "): one colour"; bad = 1 }
    { exact++ }
    END {
        # 5 effects at default values, 3 of them with uniforms to perturb.
        if (exact != 8) { print "FAIL: " exact " exact comparisons, expected 8"; bad = 1 }
        exit bad
    }' "$tmp/out/refdiff.tsv"
