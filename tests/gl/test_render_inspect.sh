#!/bin/sh
# test_render_inspect.sh - the inspection layer through the
# headless renderer: fxgl-render --dump writes the dump (a compile error with
# its diagnostic, the technique that ran, the texture list), --overlay runs
# without a GL error, a bad --visualise name is refused with a message and
# exit status 2, a good one (COLOR, full-screen) runs. GL and GLES.
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
    "$render" --api "$api" --size 64x32 --frames 2 --output "$tmp/$api.png" \
        --report "$tmp/$api.json" --dump "$tmp/$api.dump" --overlay \
        "$data/Chain.fx" "$data/Broken.fx" >"$tmp/$api.out" 2>"$tmp/$api.err"
    rc=$?
    if grep -q "no EGL context" "$tmp/$api.err"; then
        echo "SKIP: $(cat "$tmp/$api.err")"
        exit 77
    fi
    # Broken.fx failed: what was asked did not all happen, so the status says so.
    [ $rc -eq 1 ] || { echo "FAIL: fxgl-render --api $api exited $rc, not 1"; cat "$tmp/$api.err"; fail=1; }
    check "$tmp/$api.dump" '^fxgl dump: frame 2, 64x32' "$api: dump header"
    check "$tmp/$api.dump" '^effect - Broken.fx: compile error$' "$api: Broken.fx as a compile error"
    check "$tmp/$api.dump" '^  diagnostic: .*Broken.fx.*undefined_name' "$api: its diagnostic"
    check "$tmp/$api.dump" '^effect 0 Chain.fx: loaded$' "$api: Chain.fx loaded"
    check "$tmp/$api.dump" '^  technique Chain: ran, gpu .* ms, cpu .* ms, 2 frames$' "$api: Chain ran"
    check "$tmp/$api.dump" '^    pass 0' "$api: pass lines"
    check "$tmp/$api.dump" '^overlay: on$' "$api: overlay on"
    check "$tmp/$api.json" '"gl_error": 0' "$api: no GL error with the overlay"
    ls "$tmp"/*.tmp >/dev/null 2>&1 && { echo "FAIL: a temporary dump file was left"; fail=1; }

    "$render" --api "$api" --size 64x32 --frames 1 --output "$tmp/bad.png" \
        --visualise Chain.fx:NoSuchTexture "$data/Chain.fx" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: a bad --visualise exited $rc, not 2"; fail=1; }
    check "$tmp/bad.err" "effect 'Chain.fx' has no texture named 'NoSuchTexture'" "$api: bad name named"
    [ -e "$tmp/bad.png" ] && { echo "FAIL: an image was written for a bad --visualise"; fail=1; }

    tex=$(sed -n 's/^  texture \([^:]*\): semantic COLOR$/\1/p' "$tmp/$api.dump" | head -n 1)
    [ -n "$tex" ] || { echo "FAIL: no COLOR texture in the dump"; fail=1; tex=none; }
    "$render" --api "$api" --size 64x32 --frames 1 --output "$tmp/vis.png" \
        --report "$tmp/vis.json" --visualise "Chain.fx:$tex@full" "$data/Chain.fx" \
        >"$tmp/vis.out" 2>"$tmp/vis.err"
    rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: --visualise Chain.fx:$tex@full exited $rc"; cat "$tmp/vis.err"; fail=1; }
    check "$tmp/vis.json" '"gl_error": 0' "$api: no GL error with a visualisation"
done
exit $fail
