#!/bin/sh
# test_effect_set.sh - a preset's effects appear together, in their final order, in one
# frame: at start, and when the preset is rewritten on disk (a new set: another order and
# an effect the first did not have). tests/interpose/ip_set_app presents a flat colour
# every frame and reads every presented frame back (the window's pixels after each swap);
# the chain's links (tests/interpose/data/set) do not commute, so each frame tells which
# effects ran in which order. Every frame must be the untouched input or the first set
# whole, then the first set or the second whole, never a part or another order; the
# first set's preset also names an effect that does not compile, which is reported and
# left out without holding the others back. Frames are counted, never timed: on a loaded
# machine the compiles take longer and more frames show the previous set.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
app="$build/tests/interpose/ip_set_app"
[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
[ -x "$app" ] || { echo "FAIL: $app was not built"; exit 1; }
# The sanitizer build: its runtime first (test_asan_glmark2.sh says why).
preload="$lib"
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan" ] && preload="$asan:$lib"
tmp=$(mktemp -d /tmp/fxgl-set-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 320x240 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }
data="$src/tests/interpose/data/set"
mkdir -p "$tmp/home"
fail=0

run() { # log preset app-args...
    _log=$1 _preset=$2
    shift 2
    env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u FXGL_CONFIG -u FXGL_TEXTURE_PATHS \
        -u FXGL_LOG_FILE -u FXGL_KEYS HOME="$tmp/home" XDG_CONFIG_DIRS=/nonexistent-fxgl \
        LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0:intercept_tls_get_addr=0 \
        FXGL_LOG=info FXGL_PRESET="$_preset" FXGL_EFFECT_PATHS="$data" \
        timeout 300 "$app" "$@" >"$_log" 2>&1
}

# 1. At start: untouched frames, then swap, half, add (the broken one left out), whole.
cp "$data/a.ini" "$tmp/start.ini"
run "$tmp/start.log" "$tmp/start.ini" --chain-a swap,half,add --need 30
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: at start (exit $rc):"; cat "$tmp/start.log"; fail=1
else
    echo "at start: $(grep '^input' "$tmp/start.log") (frames of each)"
fi
grep -q 'effect .*SetBroken.fx skipped' "$tmp/start.log" ||
    { echo "FAIL: the broken effect was not reported:"; cat "$tmp/start.log"; fail=1; }

# 2. The preset rewritten while it runs: invert, add, half, swap replace the first set
# whole (Invert is compiled only now, so the first set shows until it is in).
cp "$data/a.ini" "$tmp/switch.ini"
run "$tmp/switch.log" "$tmp/switch.ini" --chain-a swap,half,add \
    --chain-b invert,add,half,swap --rewrite "$tmp/switch.ini" --with "$data/b.ini" --need 30
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: preset rewritten (exit $rc):"; cat "$tmp/switch.log"; fail=1
else
    echo "preset rewritten: $(grep '^input' "$tmp/switch.log") (frames of each)"
fi
exit $fail
