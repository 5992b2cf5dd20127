#!/bin/sh
# render-conformance.sh [CORPUS] - the runtime's conformance figure: every
# .fx of the public shader repositories (fetched beforehand into CORPUS,
# default $FXGL_CORPUS or /work/scratch/corpus; nothing is copied into this
# repository) compiled by fxgl and run by the runtime through fxgl-render for
# three frames. An effect passes when it loads (status ready, no technique
# skipped) and the frames raise no GL error.
#
# API=gl (default, GL 4.5 core) or API=gles (GLES 3.2). Include paths as in
# tools/conformance.sh: the repository's Shaders tree, recursively, then the
# standard headers for a repository without its own ReShade.fxh; textures
# from the repository's Textures directory.
#
# Prints `PASS path` or `FAIL path: reason` per effect, then `N passed, M failed`.
set -u
corpus=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
api=${API:-gl}
here=$(cd "$(dirname "$0")/.." && pwd)
render=${FXGL_RENDER:-}
if [ -z "$render" ]; then
    for c in "$here/build/fxgl-render" "$here/b/fxgl-render" "$(command -v fxgl-render 2>/dev/null)"; do
        [ -n "$c" ] && [ -x "$c" ] && { render=$c; break; }
    done
fi
[ -n "$render" ] && [ -x "$render" ] || { echo "render-conformance: fxgl-render not built (set FXGL_RENDER)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "render-conformance: no corpus at $corpus" >&2; exit 2; }
std=
for d in "$corpus"/*slim*/Shaders "$corpus"/*/Shaders "$corpus"/*; do
    [ -f "$d/ReShade.fxh" ] && { std=$d; break; }
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
for repo in "$corpus"/*/; do
    repo=${repo%/}
    shaders="$repo/Shaders"
    [ -d "$shaders" ] || shaders="$repo"
    textures="$repo/Textures"
    [ -d "$textures" ] || textures="$shaders"
    extra=
    if [ -n "$std" ] && ! find "$shaders" -iname ReShade.fxh | grep -q .; then
        extra="-I $std"
    fi
    for fx in $(find "$shaders" -iname '*.fx' | sort); do
        # shellcheck disable=SC2086
        "$render" --api "$api" --frames 3 --size 320x180 -I "$shaders/**" $extra \
            --textures "$textures" --output "$tmp/out.png" --report "$tmp/r.json" "$fx" \
            >"$tmp/out" 2>"$tmp/err"
        rc=$?
        why=
        if [ ! -s "$tmp/r.json" ]; then
            why="no report (exit $rc): $(head -c 200 "$tmp/err" | tr '\n' ' ')"
        elif grep -q '"compiled": false' "$tmp/r.json"; then
            why="does not compile: $(grep -m1 'error' "$tmp/err" | head -c 200)"
        elif ! grep -q '"status": "ready", "reason": ""' "$tmp/r.json"; then
            why="not loaded: $(sed -n 's/.*"status": "failed", "reason": "\([^"]*\)".*/\1/p' "$tmp/r.json" | head -1 | head -c 200)"
        elif grep -q '"status": "failed"' "$tmp/r.json"; then
            why="technique skipped: $(grep -m1 '"status": "failed"' "$tmp/r.json" | sed 's/.*"reason": "\([^"]*\)".*/\1/' | head -c 200)"
        # Exit 1 also means "a texture was missing" or "no technique ran" (a file of
        # helpers only): the report's checks above are this figure's rules, not the status.
        elif ! grep -q '"gl_error": 0' "$tmp/r.json" || [ $rc -gt 1 ]; then
            why="GL error or failed run (exit $rc)"
        fi
        if [ -z "$why" ]; then
            echo "PASS $fx"
            passed=$((passed + 1))
        else
            echo "FAIL $fx: $why"
            failed=$((failed + 1))
        fi
        rm -f "$tmp/r.json"
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
