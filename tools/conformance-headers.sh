#!/bin/sh
# conformance-headers.sh [CORPUS] - the conformance figure twice: with the
# original standard headers (tools/conformance.sh as is), and with fxgl's own
# data/shaders/ReShade.fxh and ReShadeUI.fxh in their place. For the second
# run the corpus is copied to a temporary directory without any
# ReShade.fxh/ReShadeUI.fxh (effects find headers beside themselves first,
# so ours must be the only ones), and data/shaders goes first in the include
# path. Nothing is written into the repository.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
[ -d "$corpus" ] || { echo "conformance-headers: no corpus at $corpus" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$corpus"/. "$tmp"/
find "$tmp" \( -iname 'ReShade.fxh' -o -iname 'ReShadeUI.fxh' \) -exec rm -f {} +
# conformance.sh still adds CORPUS/slim/Shaders; the copy keeps that layout.
orig=$(sh "$top/tools/conformance.sh" "$corpus" | tee "$tmp/original.txt" | tail -n 1)
ours=$(FXC_ARGS="${FXC_ARGS:-} -I $top/data/shaders" sh "$top/tools/conformance.sh" "$tmp" |
    tee "$tmp/fxgl.txt" | tail -n 1)
echo "original headers: $orig"
echo "fxgl headers:     $ours"
# Effects whose status differs between the two runs, with the first error.
sed "s|$tmp|$corpus|g" "$tmp/fxgl.txt" | sort >"$tmp/b"
sort "$tmp/original.txt" >"$tmp/a"
diff "$tmp/a" "$tmp/b" | sed -n 's/^[<>] //p' | grep -v '^conformance:' || true
