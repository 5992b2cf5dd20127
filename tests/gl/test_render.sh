#!/bin/sh
# test_render.sh - fxgl-render end to end: effects compiled by fxgl, run by
# the runtime on a headless EGL context (GL and GLES), PNG and JSON written;
# a broken effect is reported and skipped; the same PNG with the passes as
# compute dispatches (FXGL_COMPUTE=1); presets enable, disable and set values
# (their effects found through -I).
set -u
top=${FXGL_TOP_SRCDIR:-$(dirname "$0")/../..}
build=${FXGL_TOP_BUILDDIR:-.}
render="$build/fxgl-render"
data="$top/tests/gl/data"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # file pattern message
    if ! grep -q -- "$2" "$1"; then
        echo "FAIL: $3 ('$2' not in $1)"
        cat "$1"
        fail=1
    fi
}

for api in gl gles; do
    # Fragment passes (two draws); compute passes below.
    out=$(FXGL_COMPUTE=0 "$render" --api "$api" --size 32x16 --frames 2 --output "$tmp/$api.png" \
        --report "$tmp/$api.json" "$data/Chain.fx" "$data/Broken.fx" 2>"$tmp/$api.err")
    rc=$?
    if grep -q "no EGL context" "$tmp/$api.err"; then
        echo "SKIP: $(cat "$tmp/$api.err")"
        exit 77
    fi
    echo "$out"
    # Broken.fx failed: what was asked did not all happen, so the status says so.
    [ $rc -eq 1 ] || { echo "FAIL: fxgl-render --api $api exited $rc, not 1"; cat "$tmp/$api.err"; fail=1; }
    [ -s "$tmp/$api.png" ] || { echo "FAIL: no $api.png"; fail=1; }
    check "$tmp/$api.json" '"file": "[^"]*Chain.fx", "compiled": true, "status": "ready"' "$api: Chain.fx ready"
    check "$tmp/$api.json" '"file": "[^"]*Broken.fx", "compiled": false, "status": "failed", "reason": ".*undefined_name' "$api: Broken.fx reported"
    check "$tmp/$api.json" '"name": "Chain", "file": "Chain.fx", "enabled": true, "status": "ready", "ran": true, "frames_run": 2' "$api: Chain ran twice"
    check "$tmp/$api.json" '"draw_calls": 2' "$api: two draws"
    check "$tmp/$api.json" '"gl_error": 0' "$api: no GL error"
    check "$tmp/$api.err" 'Broken.fx does not compile' "$api: compile error printed"
    # Compute passes: the first as a dispatch, the last drawn straight into
    # the program's framebuffer (no image: fragment); the same PNG.
    FXGL_COMPUTE=1 "$render" --api "$api" --size 32x16 --frames 2 --output "$tmp/$api-cs.png" \
        --report "$tmp/$api-cs.json" "$data/Chain.fx" >/dev/null 2>"$tmp/$api-cs.err" ||
        { echo "FAIL: FXGL_COMPUTE=1 --api $api"; cat "$tmp/$api-cs.err"; fail=1; }
    check "$tmp/$api-cs.json" '"draw_calls": 1, "dispatches": 1' "$api: a dispatch and a draw"
    check "$tmp/$api-cs.json" '"compute_passes": 1' "$api: one pass as compute"
    check "$tmp/$api-cs.json" '"pass_compute": \["compute", "fragment"\]' "$api: compute, direct"
    cmp -s "$tmp/$api.png" "$tmp/$api-cs.png" ||
        { echo "FAIL: $api: compute passes give another PNG"; fail=1; }
done

# Presets: effects found by name in -I, technique switched off or on.
# Nothing ran: exit 1, and stderr says so.
"$render" --preset "$data/chain_off.ini" -I "$data" --size 8x8 --frames 1 --output "$tmp/off.png" \
    --report "$tmp/off.json" >/dev/null 2>"$tmp/off.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: preset off run exited $rc, not 1"; cat "$tmp/off.err"; fail=1; }
[ "$(cat "$tmp/off.err")" = "fxgl-render: no technique ran" ] ||
    { echo "FAIL: preset off run said:"; cat "$tmp/off.err"; fail=1; }
check "$tmp/off.json" '"name": "Chain", "file": "Chain.fx", "enabled": false, "status": "ready", "ran": false, "frames_run": 0, "reason": "disabled"' "preset disables Chain"
"$render" --preset "$data/chain_on.ini" -I "$data" --size 8x8 --frames 1 --output "$tmp/on.png" \
    --report "$tmp/on.json" >/dev/null 2>"$tmp/on.err" || { echo "FAIL: preset on run"; cat "$tmp/on.err"; fail=1; }
check "$tmp/on.json" '"name": "Chain", "file": "Chain.fx", "enabled": true, "status": "ready", "ran": true' "preset enables Chain"

exit $fail
