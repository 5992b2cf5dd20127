#!/bin/sh
# test_cache_startup.sh - the on-disk compile cache in a real program: fxgl-demo under
# Xvfb with libfxgl.so preloaded and a preset of four shipped effects, started twice with
# one FXGL_CACHE_DIR. The line fxgl logs when the effects first reach the screen counts
# what happened: the cold start runs the front end for all four effects, the warm start
# for none (all four from the cache) and, where the driver offers program binaries
# (llvmpipe with Mesa's shader cache on), compiles no shader at all. Then
# FXGL_CACHE_DIR=off: everything is compiled and nothing is written.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
demo="$build/fxgl-demo"
[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
[ -x "$demo" ] || { echo "SKIP: fxgl-demo not built (GLFW absent)"; exit 77; }
preload="$lib"
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan" ] && preload="$asan:$lib"

tmp=$(mktemp -d /tmp/fxgl-cachestart-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 640x480 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

cat > "$tmp/p.ini" <<'EOF'
Techniques=fxgl_CAS@fxgl_CAS.fx,fxgl_Bloom@fxgl_Bloom.fx,fxgl_FilmGrain@fxgl_FilmGrain.fx,fxgl_Vignette@fxgl_Vignette.fx
EOF

# Runs the demo until its effects reached the screen (frames are drawn flat out: on a
# loaded machine the first frames may all come before the compiles are done, and then it
# runs again, longer). $1: log name, $2: cache folder ("off": none); a cold run starts
# from an empty folder each time.
start() {
    for frames in 200 2000 20000; do
        [ "$1" = cold ] && rm -rf "$2"
        LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 FXGL_LOG=info \
        FXGL_PRESET="$tmp/p.ini" FXGL_EFFECT_PATHS="$src/data/shaders" FXGL_RELOAD=0 \
        FXGL_CACHE_DIR="$2" MESA_SHADER_CACHE_DIR="$tmp/mesa" \
            timeout 300 "$demo" --frames $frames --size 160x90 >"$tmp/$1.log" 2>&1 ||
            fail "fxgl-demo failed: $(cat "$tmp/$1.log")"
        grep -q 'effects on screen' "$tmp/$1.log" && return
        echo "note: the effects were not on screen within $frames frames (a loaded machine):" \
            "again, longer"
    done
    fail "$1: the effects never reached the screen: $(cat "$tmp/$1.log")"
}
line() { grep 'effects on screen' "$tmp/$1.log" | head -1; }

start cold "$tmp/c"
line cold | grep -q 'effect compiles: 0 from the cache, 4 run' || fail "cold: $(line cold)"
[ "$(find "$tmp/c" -name 'm-*' | wc -l)" -eq 4 ] || fail "cold: $(ls -la "$tmp/c")"

start warm "$tmp/c"
line warm | grep -q 'effect compiles: 4 from the cache, 0 run' || fail "warm: $(line warm)"
if find "$tmp/c" -name 'p-*' | grep -q .; then
    line warm | grep -q 'programs: 0 shader compile(s), [1-9][0-9]* from cached binaries (0 refused)' ||
        fail "warm: shaders were compiled: $(line warm)"
else
    echo "note: no program binaries were stored (the driver offers no binary formats)"
fi

start off off
line off | grep -q 'effect compile cache off' || fail "off: $(line off)"
line off | grep -q 'programs: [1-9][0-9]* shader compile(s), 0 from cached binaries' ||
    fail "off: $(line off)"
[ -e "$tmp/off" ] && fail "FXGL_CACHE_DIR=off wrote a folder"
echo "PASS: $(line cold | sed 's/.*started; //') / $(line warm | sed 's/.*started; //')"
