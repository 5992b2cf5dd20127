#!/bin/sh
# test_texcoord.sh - the fullscreen texcoord bit for bit: fxgl-render (GL and
# GLES, llvmpipe) gives what lavapipe's rasteriser gives through
# fxgl-vkrender (the reference's rasteriser: vkBasalt runs on it), at sizes
# where that value is not (k + 0.5) * (1 / size) rounded (docs/runtime.md,
# "Exact fullscreen varyings"). GL leaves the texcoord to llvmpipe's
# rasteriser with the first vertex provoking; GLES computes it in the pixel
# shader from gl_FragCoord and the gradient. The effect writes the 32 bits of
# one component as the four channels of each pixel.
# Skips (77) without Vulkan's loader at build time, a Vulkan driver or EGL.
set -u
. "$(dirname "$0")/vk_env.sh"
vk_need
fx="$top/tests/vk/data/texcoord/texcoord_bits.fx"

same() { # a.png b.png: identical pixels
    [ "$("$diff" "$1" "$2" | sed -n 's/^psnr=\([^	]*\).*/\1/p')" = inf ]
}

# 321x181 and 854x480: the reference's y is not (k + 0.5) * (1 / h) rounded on
# most rows; 333x197 and 23x19: x. 320x180: both are.
for size in 320x180 321x181 333x197 854x480 23x19; do
    # The input only sets the size (GL: --size with the test image).
    if ! "$gl" --size "$size" --frames 1 --output "$tmp/in.png" -I "$shaders" \
            "$shaders/fxgl_Passthrough.fx" >/dev/null 2>"$tmp/in.err"; then
        grep -q "no EGL context" "$tmp/in.err" && { echo "SKIP: $(cat "$tmp/in.err")"; exit 77; }
        echo "FAIL: fxgl-render could not make the input"; cat "$tmp/in.err"; exit 1
    fi
    for axis in 0 1; do
        "$vk" --input "$tmp/in.png" --frames 1 --output "$tmp/vk.png" -I "$shaders" \
            -D AXIS=$axis "$fx" >/dev/null 2>"$tmp/vk.err"
        rc=$?
        [ $rc -eq 3 ] && { echo "SKIP: $(tail -1 "$tmp/vk.err")"; exit 77; }
        [ $rc -eq 0 ] || { echo "FAIL: fxgl-vkrender exited $rc"; cat "$tmp/vk.err"; exit 1; }
        for api in gl gles; do
            "$gl" --api $api --input "$tmp/in.png" --frames 2 --output "$tmp/$api.png" \
                --report "$tmp/$api.json" --cache off -I "$shaders" -D AXIS=$axis \
                "$fx" >/dev/null 2>"$tmp/$api.err" ||
                { echo "FAIL: $size axis $axis: fxgl-render --api $api failed"; cat "$tmp/$api.err"; fail=1; continue; }
            if same "$tmp/$api.png" "$tmp/vk.png"; then
                echo "ok: $size axis $axis: $api gives the reference's texcoord"
            else
                echo "FAIL: $size axis $axis: $api's texcoord is not the reference's"
                "$diff" "$tmp/$api.png" "$tmp/vk.png"
                fail=1
            fi
            # Not vacuous: the pass had its texcoord proved exact.
            grep -q '"pass_exact_varyings": \[2\]' "$tmp/$api.json" ||
                { echo "FAIL: $size axis $axis: $api: the texcoord was not proved exact"; fail=1; }
        done
        # The image holds the texcoord, not the input: its first pixel's x or y is
        # 0.5 / size, a float whose top byte is not the input's.
        same "$tmp/in.png" "$tmp/vk.png" && { echo "FAIL: the effect did not run"; fail=1; }
    done
done
exit $fail
