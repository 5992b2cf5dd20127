#!/bin/sh
# test_gone_window.sh - a program that destroys its window and keeps
# presenting into it (tests/interpose/ip_glx_app --destroy-then-swap) must
# meet the same fate with fxgl preloaded, Invert.fx running, as without:
# - with an X error handler that reports and goes on (as SDL and GLFW
#   install), the same X errors in the same order and exit 0 - not an error
#   of fxgl's own requests, not a crash of the driver under fxgl's frame;
# - with Xlib's default handler, the same exit status and the same failed
#   request named.
# Both runs present three frames first, so the driver knows the window; the
# fxgl run presents until the effect shows before destroying it.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
app="$build/tests/interpose/ip_glx_app"
[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
[ -x "$app" ] || { echo "FAIL: $app was not built"; exit 1; }
if ldd "$lib" 2>/dev/null | grep -q libasan; then
    # See test_preload.c: an ASan-built library cannot be preloaded into a
    # program built without it.
    echo "SKIP: sanitizer build: the library is not preloaded here"
    exit 77
fi
tmp=$(mktemp -d /tmp/fxgl-gone-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 320x240 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }

with_fxgl() {
    env LD_PRELOAD="$lib" FXGL_TEST_EXPECT_INVERT=1 FXGL_LOG=info \
        FXGL_PRESET="$src/tests/interpose/data/invert.ini" \
        FXGL_EFFECT_PATHS="$src/tests/interpose/data" "$@"
}
fail=0

# 1. The program's own handler: every error reported, the program goes on.
timeout 120 "$app" --destroy-then-swap 20 --x-errors print >"$tmp/plain.out" 2>&1
plain=$?
with_fxgl timeout 120 "$app" --destroy-then-swap 20 --x-errors print >"$tmp/fxgl.out" 2>&1
with=$?
grep '^x-error' "$tmp/plain.out" >"$tmp/plain.errors"
grep '^x-error' "$tmp/fxgl.out" >"$tmp/fxgl.errors"
echo "own handler: exit $plain without fxgl, $with with; $(wc -l <"$tmp/plain.errors") and" \
     "$(wc -l <"$tmp/fxgl.errors") X errors"
if [ "$plain" -eq 77 ]; then
    cat "$tmp/plain.out"
    echo "SKIP: ip_glx_app skipped itself"
    exit 77
fi
[ "$plain" -eq 0 ] || { cat "$tmp/plain.out"; echo "FAIL: without fxgl: exit $plain"; fail=1; }
[ -s "$tmp/plain.errors" ] ||
    { cat "$tmp/plain.out"; echo "FAIL: no X error without fxgl: nothing is tested"; fail=1; }
grep -q 'technique Invert@Invert.fx loaded, on' "$tmp/fxgl.out" ||
    { cat "$tmp/fxgl.out"; echo "FAIL: Invert.fx did not run"; fail=1; }
[ "$with" -eq "$plain" ] || { cat "$tmp/fxgl.out"; echo "FAIL: with fxgl: exit $with"; fail=1; }
if ! cmp -s "$tmp/plain.errors" "$tmp/fxgl.errors"; then
    echo "FAIL: the X errors differ (without fxgl < > with fxgl):"
    diff "$tmp/plain.errors" "$tmp/fxgl.errors" | head -20
    fail=1
fi

# 2. Xlib's default handler: the program ends at the first error.
timeout 120 "$app" --destroy-then-swap 20 >"$tmp/plain.out" 2>&1
plain=$?
with_fxgl timeout 120 "$app" --destroy-then-swap 20 >"$tmp/fxgl.out" 2>&1
with=$?
a=$(grep 'opcode of failed request' "$tmp/plain.out")
b=$(grep 'opcode of failed request' "$tmp/fxgl.out")
echo "default handler: exit $plain without fxgl, $with with; failed request: $a"
[ "$with" -eq "$plain" ] || { cat "$tmp/fxgl.out"; echo "FAIL: with fxgl: exit $with"; fail=1; }
[ -n "$a" ] && [ "$a" = "$b" ] ||
    { cat "$tmp/plain.out" "$tmp/fxgl.out"; echo "FAIL: the failed requests differ"; fail=1; }

[ $fail -eq 0 ] && echo "gone window: ok"
exit $fail
