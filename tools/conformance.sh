#!/bin/sh
# conformance.sh [CORPUS] - the compatibility figure: fxc over every .fx of
# the public shader repositories, fetched beforehand into CORPUS (default
# $FXGL_CORPUS or /work/scratch/corpus), one sub-directory per repository.
# Nothing of the corpus is ever copied into this repository.
#
# Prints one line per effect, `PASS path` or `FAIL path: first error`, then
# `N passed, M failed`. Exit status 0 when nothing failed, 1 otherwise, 2
# when it cannot run.
#
# Include paths per repository, as ReShade would be set up for it: the
# effect's own directory (always, fxc does that), the repository's Shaders
# tree with all its subdirectories (ReShade's default `Shaders\**`), then,
# for a repository without its own ReShade.fxh, the Shaders directory of
# the repository that has the standard headers (reshade-shaders slim).
# The predefined macros are fxc's defaults, the runtime's
# (fxgl_predefined_macros). FXC_ARGS adds options (e.g. "--target gl450"
# once code generation is in, or "--api gles").
set -u
corpus=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
here=$(cd "$(dirname "$0")/.." && pwd)
fxc=${FXC:-}
if [ -z "$fxc" ]; then
    for c in "$here/build/fxc" "$here/b/fxc" "$here/fxc" "$(command -v fxc 2>/dev/null)"; do
        [ -n "$c" ] && [ -x "$c" ] && { fxc=$c; break; }
    done
fi
[ -n "$fxc" ] && [ -x "$fxc" ] || { echo "conformance: fxc not built (set FXC)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "conformance: no corpus at $corpus" >&2; exit 2; }

# The standard headers: the first repository whose Shaders has ReShade.fxh,
# preferring the slim branch of reshade-shaders.
std=
for d in "$corpus"/*slim*/Shaders "$corpus"/*/Shaders "$corpus"/*; do
    [ -f "$d/ReShade.fxh" ] && { std=$d; break; }
done

passed=0; failed=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
for repo in "$corpus"/*/; do
    repo=${repo%/}
    shaders="$repo/Shaders"
    [ -d "$shaders" ] || shaders="$repo"
    set -- -I "$shaders/**"
    if [ -n "$std" ] && ! find "$shaders" -iname ReShade.fxh | grep -q .; then
        set -- "$@" -I "$std"
    fi
    # shellcheck disable=SC2086
    "$fxc" conform -q ${FXC_ARGS:-} "$@" "$shaders" > "$tmp" 2>/dev/null
    grep -v '^conform:' "$tmp"
    p=$(sed -n 's/^conform: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp")
    f=$(sed -n 's/^conform: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp")
    if [ -z "$p" ]; then
        # fxc itself died: count every effect of the repository as failed.
        f=$(find "$shaders" -iname '*.fx' | wc -l)
        p=0
        echo "FAIL $shaders: fxc conform did not finish"
    fi
    passed=$((passed + p)); failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
