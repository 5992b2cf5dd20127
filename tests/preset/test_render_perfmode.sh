#!/bin/sh
# test_render_perfmode.sh - fxgl-render through src/effects: with performance mode the
# preset's values become constants, so the picture must be the same as with uniforms;
# a different value must still change it (the constants are the preset's, not the
# initializers); --skip-disabled leaves effects without an enabled technique uncompiled.
set -u
top=${FXGL_TOP_SRCDIR:?}
render=${FXGL_TOP_BUILDDIR:?}/fxgl-render
dir=$(mktemp -d /tmp/fxgl-renderperf-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # name, extra options...
    name=$1; shift
    "$render" --size 160x90 --frames 2 -I "$top/data/shaders" --output "$dir/$name.png" \
        --report "$dir/$name.json" "$@" > "$dir/$name.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "no EGL context" "$dir/$name.log"; then
        echo "SKIP: no EGL context: $(cat "$dir/$name.log")"; exit 77
    fi
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$dir/$name.log")"
}
cat > "$dir/a.ini" <<'INI'
Techniques=fxgl_Tonemap@fxgl_Tonemap.fx,fxgl_Vignette@fxgl_Vignette.fx

[fxgl_Vignette.fx]
Amount=0.900000
Radius=0.200000
INI
sed 's/Amount=0.900000/Amount=0.100000/' "$dir/a.ini" > "$dir/b.ini"

run normal --preset "$dir/a.ini"
run perf --preset "$dir/a.ini" --performance-mode
cmp -s "$dir/normal.png" "$dir/perf.png" || fail "performance mode changed the picture"
run perf_b --preset "$dir/b.ini" --performance-mode
cmp -s "$dir/perf.png" "$dir/perf_b.png" && fail "the preset's Amount did not reach the constants"
run normal_b --preset "$dir/b.ini"
cmp -s "$dir/normal_b.png" "$dir/perf_b.png" || fail "performance mode changed the picture (b)"

# Three effects named on the command line; the preset enables techniques of two.
sh_dir=$top/data/shaders
run skip --preset "$dir/a.ini" --skip-disabled "$sh_dir/fxgl_Tonemap.fx" "$sh_dir/fxgl_CAS.fx" \
    "$sh_dir/fxgl_Vignette.fx"
n=$(grep -c '"compiled": true' "$dir/skip.json")
[ "$n" -eq 2 ] || fail "--skip-disabled compiled $n effects, expected 2: $(cat "$dir/skip.json")"
grep -q 'SkipLoadingDisabledEffects' "$dir/skip.json" || fail "the report does not say why"
cmp -s "$dir/normal.png" "$dir/skip.png" || fail "skipping disabled effects changed the picture"
echo "PASS: fxgl-render performance mode and skip-disabled"
