#!/bin/sh
# test_vkpresent.sh - the Vulkan presenter of tools/refdiff.sh must show a
# picture unchanged: without any layer, what it reads back from its window
# equals its input bit for bit in R, G and B - channel order included (the
# input has different values in each channel, so a swap shows). Otherwise
# every comparison with vkBasalt would measure the presenter, not fxgl.
# Skips (77) without Xvfb, a Vulkan driver or the presenter (configure found
# no Vulkan headers).
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
present="$build/tools/fxgl-vkpresent"
diff="$build/tools/fxgl-imgdiff"
[ -x "$diff" ] || { echo "FAIL: $diff was not built"; exit 1; }
[ -x "$present" ] || { echo "SKIP: $present not built (configure found no Vulkan: apt-get install libvulkan-dev)"; exit 77; }
ls /usr/share/vulkan/icd.d/ 2>/dev/null | grep -q . ||
    { echo "SKIP: no Vulkan driver (apt-get install mesa-vulkan-drivers)"; exit 77; }
tmp=$(mktemp -d /tmp/fxgl-vkpresent-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 640x480 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }
# Leaks of the Vulkan driver are not this test's subject.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
export ASAN_OPTIONS

"$diff" --make-input 320 180 "$tmp/in.png" || { echo "FAIL: no input picture"; exit 1; }
fail=0
for frames in 1 4; do
    # vkBasalt is an implicit layer: keep it off whatever the caller's
    # environment says.
    env -u ENABLE_VKBASALT DISABLE_VKBASALT=1 timeout 300 \
        "$present" --frames "$frames" "$tmp/in.png" "$tmp/out$frames.png" >"$tmp/log" 2>&1
    rc=$?
    if [ "$rc" -eq 77 ]; then
        echo "SKIP: $(tail -n 1 "$tmp/log")"
        exit 77
    fi
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: the presenter exited $rc ($frames frames):"
        cat "$tmp/log"
        fail=1
        continue
    fi
    r=$("$diff" "$tmp/in.png" "$tmp/out$frames.png")
    echo "$frames frame(s): $r"
    case "$r" in
        *"	max=0	"*"b_uniform=0"*) ;;
        *) echo "FAIL: the read-back differs from the input ($frames frames)"; fail=1 ;;
    esac
done
exit $fail
