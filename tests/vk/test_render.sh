#!/bin/sh
# test_render.sh - the Vulkan path gives the GL path's image: every shipped
# effect and tests/vk/data/*.fx (compute, storage, mips, stencil, a float
# source image) through
# fxgl-render (GL, llvmpipe) and fxgl-vkrender (Vulkan, lavapipe in CI),
# compared by PSNR (>= 40 dB); the graph's switches (no reordering, full
# barriers) give the same bytes as the default order.
# Skips (77) without Vulkan's loader at build time, a Vulkan driver or EGL.
set -u
. "$(dirname "$0")/vk_env.sh"
vk_need

# The input: the GL path's own copy of its test image (Passthrough changes nothing).
if ! "$gl" --size 160x90 --frames 1 --output "$tmp/in.png" -I "$shaders" \
        "$shaders/fxgl_Passthrough.fx" >/dev/null 2>"$tmp/in.err"; then
    grep -q "no EGL context" "$tmp/in.err" && { echo "SKIP: $(cat "$tmp/in.err")"; exit 77; }
    echo "FAIL: fxgl-render could not make the input"; cat "$tmp/in.err"; exit 1
fi

psnr() { # a.png b.png -> the PSNR figure ("inf" when equal)
    "$diff" "$1" "$2" | sed -n 's/^psnr=\([^	]*\).*/\1/p'
}
at_least_40() {
    [ "$1" = inf ] || awk -v p="$1" 'BEGIN { exit !(p >= 40) }'
}

changed=0
compared=0
for fx in "$shaders"/*.fx "$top"/tests/vk/data/*.fx; do
    name=$(basename "$fx" .fx)
    "$gl" --input "$tmp/in.png" --frames 2 --output "$tmp/gl_$name.png" -I "$shaders" \
        --textures "$build/data/textures" "$fx" \
        >/dev/null 2>"$tmp/gl_$name.err" ||
        { echo "FAIL: $name: fxgl-render failed"; cat "$tmp/gl_$name.err"; fail=1; continue; }
    "$vk" --input "$tmp/in.png" --frames 2 --output "$tmp/vk_$name.png" -I "$shaders" \
        --textures "$build/data/textures" --stats "$tmp/$name.csv" "$fx" 2>"$tmp/vk_$name.err"
    rc=$?
    if [ $rc -eq 3 ]; then
        echo "SKIP: $(tail -1 "$tmp/vk_$name.err")"
        exit 77
    fi
    [ $rc -eq 0 ] || { echo "FAIL: $name: fxgl-vkrender exited $rc"; cat "$tmp/vk_$name.err"; fail=1; continue; }
    p=$(psnr "$tmp/gl_$name.png" "$tmp/vk_$name.png")
    if at_least_40 "$p"; then
        echo "ok: $name: GL and Vulkan agree (PSNR $p dB)"
    else
        echo "FAIL: $name: GL and Vulkan differ (PSNR $p dB < 40)"
        fail=1
    fi
    compared=$((compared + 1))
    # Not vacuous: the effect changed the image.
    at_least_40 "$(psnr "$tmp/in.png" "$tmp/vk_$name.png")" || changed=$((changed + 1))
    # The graph never issues more barrier commands than one per pass would.
    awk -F, 'NR > 1 && $8 > $10 { bad = 1 } END { exit bad }' "$tmp/$name.csv" ||
        { echo "FAIL: $name: more barrier commands than the naive count"; cat "$tmp/$name.csv"; fail=1; }
    # The switches change the order and the barriers, never the result.
    for sw in --no-reorder --full-barriers; do
        "$vk" --input "$tmp/in.png" --frames 2 --output "$tmp/vk_${name}_$sw.png" $sw \
            -I "$shaders" --textures "$build/data/textures" "$fx" 2>/dev/null ||
            { echo "FAIL: $name: fxgl-vkrender $sw failed"; fail=1; continue; }
        [ "$(psnr "$tmp/vk_$name.png" "$tmp/vk_${name}_$sw.png")" = inf ] ||
            { echo "FAIL: $name: $sw changed the image"; fail=1; }
    done
done
[ "$compared" -ge 14 ] || { echo "FAIL: only $compared effects compared"; fail=1; }
[ "$changed" -ge 6 ] || { echo "FAIL: only $changed effects changed the image: the comparison is vacuous"; fail=1; }
echo "$compared effects compared, $changed of them change the image"
exit $fail
