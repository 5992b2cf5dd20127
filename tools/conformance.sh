#!/bin/sh
# conformance.sh [CORPUS] - the compatibility figure: fxc over every .fx of
# the public shader repositories, fetched beforehand into CORPUS (default
# $FXGL_CORPUS or /work/scratch/corpus), one sub-directory per repository
# (slim, legacy, sweetfx, quint, prod80). Nothing of the corpus is ever
# copied into this repository.
#
# Include paths per repository: the effect's own directory (always), the
# repository's Shaders tree, then the slim branch's Shaders, which holds the
# standard headers legacy effects expect. FXC_ARGS adds options (e.g.
# "--target gl450" to include code generation).
set -u
corpus=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
fxc=${FXC:-build/fxc}
[ -x "$fxc" ] || { echo "conformance: $fxc not built" >&2; exit 2; }
[ -d "$corpus" ] || { echo "conformance: no corpus at $corpus" >&2; exit 2; }
passed=0; failed=0
for repo in "$corpus"/*/; do
    repo=${repo%/}
    shaders="$repo/Shaders"
    [ -d "$shaders" ] || shaders="$repo"
    out=$("$fxc" conform -q ${FXC_ARGS:-} -I "$shaders/**" -I "$corpus/slim/Shaders" "$repo" 2>/dev/null)
    printf '%s\n' "$out" | grep -v '^conform:'
    p=$(printf '%s\n' "$out" | sed -n 's/^conform: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$out" | sed -n 's/^conform: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
done
echo "conformance: $passed passed, $failed failed"
