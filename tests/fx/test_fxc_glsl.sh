#!/bin/sh
# test_fxc_glsl.sh - `fxc glsl`: the generated code of tests/fx/data/fxc/one.fx
# (preprocessed, with an include) per pass and target, and a GLSL ES
# diagnostic naming the missing feature (tests/fx/data/glsl/es_1d.fx).
set -u
top=${FXGL_TEST_SRCDIR:-$(dirname "$0")/..}/fx/data
fxc=${FXGL_TOP_BUILDDIR:-.}/fxc
[ -x "$fxc" ] || { echo "SKIP: $fxc not built"; exit 77; }
fail=0
check() { # description, output, expected line
    if ! printf '%s\n' "$2" | grep -qxF -- "$3"; then
        echo "FAIL: $1: no line '$3' in:"
        printf '%s\n' "$2" | head -40 | sed 's/^/    /'
        fail=1
    fi
}
absent() { # description, output, line that must not be there
    if printf '%s\n' "$2" | grep -qF -- "$3"; then
        echo "FAIL: $1: unexpected '$3'"
        fail=1
    fi
}
out=$("$fxc" glsl --target gl450 --pass 1 "$top/fxc/one.fx" 2>&1) || { echo "FAIL: glsl one.fx: $out"; fail=1; }
check "gl450 pass 1" "$out" "// technique One, pass 1 (Up), vertex shader FullscreenVS"
check "gl450 pass 1" "$out" "// technique One, pass 1 (Up), pixel shader UpPS"
check "gl450 version" "$out" "#version 450"
check "gl450 flip" "$out" "    gl_Position.y = -gl_Position.y;"
check "gl450 sampler" "$out" "layout(binding = 0) uniform sampler2D HalfSamp;"
check "gl450 target" "$out" "layout(location = 0) out vec4 _gtarget0;"
absent "gl450 pass 1 only" "$out" "DownPS"
out=$("$fxc" glsl --target es300 --pass 0 "$top/fxc/one.fx" 2>&1) || { echo "FAIL: glsl es300: $out"; fail=1; }
check "es300 version" "$out" "#version 300 es"
check "es300 precision" "$out" "precision highp float;"
check "es300 block without binding" "$out" "layout(std140, column_major) uniform _Globals {"
check "es300 sampler without binding" "$out" "uniform sampler2D ColorSamp;"
out=$("$fxc" glsl --target es320 "$top/glsl/es_1d.fx" 2>&1) || { echo "FAIL: es_1d.fx for es320: $out"; fail=1; }
check "es320 1D as 2D" "$out" "layout(binding = 0) uniform sampler2D Samp1;"
check "es320 1D read" "$out" "    return texture(Samp1, vec2(uv.x, 0.5));"
out=$("$fxc" glsl --target gl430 "$top/glsl/es_1d.fx" 2>&1) || { echo "FAIL: es_1d.fx for gl430: $out"; fail=1; }
check "gl430 1D" "$out" "layout(binding = 0) uniform sampler1D Samp1;"
out=$("$fxc" glsl --target gl450 --pass 7 "$top/fxc/one.fx" 2>&1) && { echo "FAIL: --pass 7 accepted"; fail=1; }
check "bad pass" "$out" "fxc: there is no pass 7 (the effect has 2)"
[ "$fail" -eq 0 ] && echo "PASS: fxc glsl"
exit "$fail"
