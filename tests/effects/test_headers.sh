#!/bin/sh
# test_headers.sh - fxgl's own ReShade.fxh/ReShadeUI.fxh and every built-in
# effect compile with fxc: the effects as shipped, a fixture that uses every
# name the headers promise under each RESHADE_DEPTH_* variant, and (so that
# the test can fail) the same fixture without our headers must not compile.
set -u
top=${FXGL_TOP_SRCDIR:-$(dirname "$0")/../..}
build=${FXGL_TOP_BUILDDIR:-.}
fxc="$build/fxc"
if [ ! -x "$fxc" ]; then
    echo "SKIP: $fxc is not built (it joins the build with the preprocessor)"
    exit 77
fi
shaders="$top/data/shaders"
fixture="$top/tests/effects/data/header_names.fx"
fail=0

for fx in "$shaders"/fxgl_*.fx; do
    if ! "$fxc" check -q -I "$shaders" "$fx"; then
        echo "FAIL: $(basename "$fx") does not compile"
        fail=1
    fi
done

variant() { # variant NAME DEFINES...
    name=$1
    shift
    if ! "$fxc" check -q -I "$shaders" "$@" "$fixture"; then
        echo "FAIL: header names, $name"
        fail=1
    fi
}
variant defaults
variant "upside down, reversed, logarithmic" -D RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN=1 \
    -D RESHADE_DEPTH_INPUT_IS_REVERSED=1 -D RESHADE_DEPTH_INPUT_IS_LOGARITHMIC=1
variant "offsets and scales" -D RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET=2 \
    -D RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET=-3 -D RESHADE_DEPTH_INPUT_X_OFFSET=0.5 \
    -D RESHADE_DEPTH_INPUT_Y_OFFSET=-0.25 -D RESHADE_DEPTH_INPUT_X_SCALE=1.1 \
    -D RESHADE_DEPTH_INPUT_Y_SCALE=0.9 -D RESHADE_DEPTH_MULTIPLIER=0.5 \
    -D RESHADE_DEPTH_LINEARIZATION_FAR_PLANE=500
variant "GLSL ES 3.00" --api gles --api-version 3.0

# Without our include directory (and away from the source tree, so no
# relative lookup finds the headers) the fixture must fail.
tmp=$(mktemp -d)
cp "$fixture" "$tmp/"
if "$fxc" check -q "$tmp/header_names.fx" >/dev/null 2>&1; then
    echo "FAIL: header_names.fx compiled without any ReShade.fxh"
    fail=1
fi
rm -rf "$tmp"

[ $fail -eq 0 ] && echo "headers: ok"
exit $fail
