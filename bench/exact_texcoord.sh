#!/bin/sh
# exact_texcoord.sh [EFFECT.fx...] - what exact fullscreen varyings change
# (docs/runtime.md, "Exact fullscreen varyings"): each effect rendered by
# fxgl-render twice, with exact varyings (the default) and with
# --interpolated-varyings, every technique as fxgl-render runs them, 3 frames at SIZE (default 320x180) over the test image or
# INPUT=image.png. Per effect: the passes that compute varyings exactly,
# the pixels that differ between the two runs (any channel), the share of
# the image and the largest channel difference. An effect whose two runs with
# the same settings differ (time, random) is listed and left out.
#
# Effects are paths relative to CORPUS (default $FXGL_CORPUS or
# /work/scratch/corpus); without any, the corpus effects whose file names
# say CRT, scanline or retro-TV, from ../shared/reference/reference_verdicts.tsv
# (accepted ones). Include paths as tools/render-conformance.sh sets them.
# FXGL_RENDER: the fxgl-render to run (default b/fxgl-render). Needs
# python3 (only the standard library) to compare the PNGs.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=$(cd "${CORPUS:-${FXGL_CORPUS:-/work/scratch/corpus}}" && pwd) || exit 2
render=${FXGL_RENDER:-$here/b/fxgl-render}
size=${SIZE:-320x180}
verdicts=${FXGL_SHARED:-$here/../shared}/reference/reference_verdicts.tsv
[ -x "$render" ] || { echo "exact_texcoord: no fxgl-render at $render (set FXGL_RENDER)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
    [ -f "$verdicts" ] || { echo "exact_texcoord: $verdicts is missing; name the effects" >&2; exit 2; }
    grep -v '^#' "$verdicts" | awk -F'\t' '$2 == "ok" { print $1 }' |
        grep -iE '/[^/]*(crt|scanline|tv|pixie|lottes|vhs|ntsc|pal)[^/]*\.fx$' >"$tmp/list"
else
    for fx in "$@"; do echo "$fx"; done >"$tmp/list"
fi
slim=$corpus/crosire+reshade-shaders@slim/Shaders
input="--test-image"
[ -n "${INPUT:-}" ] && input="--input $INPUT"

cat >"$tmp/diff.py" <<'EOF'
import struct, sys, zlib
def load(path):
    data = open(path, 'rb').read()
    pos, chunks, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            ch = {6: 4, 2: 3, 0: 1, 4: 2}[ctype]
            assert depth == 8
        elif kind == b'IDAT':
            chunks += body
        pos += 12 + n
    raw = zlib.decompress(chunks)
    stride = w * ch
    rows, prev, i = [], bytearray(stride), 0
    for y in range(h):
        f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, ch, rows
w, h, ch, a = load(sys.argv[1])
_, _, _, b = load(sys.argv[2])
px, big = 0, 0
for y in range(h):
    for x in range(w):
        d = max(abs(a[y][x * ch + c] - b[y][x * ch + c]) for c in range(ch))
        if d:
            px += 1
            big = max(big, d)
print(px, w * h, big)
EOF

printf 'effect\texact_passes\tpixels_changed\tshare\tmax_diff\n'
total=0 changed=0 effects=0 touched=0 derived=0
while IFS= read -r fx; do
    repo=${fx%%/*}
    if [ -d "$corpus/$repo/Shaders" ]; then include="$corpus/$repo/Shaders/**"; else include="$corpus/$repo"; fi
    textures=$corpus/$repo/Textures
    [ -d "$textures" ] || textures=${include%/\*\*}
    for mode in exact interpolated again; do
        flag=
        [ $mode = interpolated ] && flag=--interpolated-varyings
        # shellcheck disable=SC2086
        (cd "$corpus" && timeout 600 "$render" --frames 3 --size "$size" $input $flag \
            -I "$include" -I "$slim" --textures "$textures" \
            --textures "${slim%/Shaders}/Textures" --output "$tmp/$mode.png" \
            --report "$tmp/$mode.json" "$fx") </dev/null >/dev/null 2>&1
    done
    if [ ! -s "$tmp/exact.png" ] || [ ! -s "$tmp/interpolated.png" ]; then
        printf '%s\t-\t-\t-\tdid not render\n' "$fx"
        continue
    fi
    passes=$(grep -o '"pass_exact_varyings": \[[0-9, ]*\]' "$tmp/exact.json" |
        grep -o '[0-9][0-9]*' | awk '$1 > 0 { n++ } END { print n + 0 }')
    # The same run twice must give the same pixels (time, random, frame
    # count): else the difference says nothing.
    if [ ! -s "$tmp/again.png" ] || ! cmp -s "$tmp/exact.png" "$tmp/again.png"; then
        set -- $(python3 "$tmp/diff.py" "$tmp/exact.png" "$tmp/again.png")
        printf '%s\t%s\t-\t-\tnot deterministic (%s pixels differ between two runs)\n' \
            "$fx" "$passes" "$1"
        rm -f "$tmp/exact.png" "$tmp/interpolated.png" "$tmp/again.png"
        continue
    fi
    set -- $(python3 "$tmp/diff.py" "$tmp/exact.png" "$tmp/interpolated.png")
    printf '%s\t%s\t%s\t%.2f%%\t%s\n' "$fx" "$passes" "$1" "$(echo "$1 $2" | awk '{ print 100 * $1 / $2 }')" "$3"
    effects=$((effects + 1))
    total=$((total + $2))
    changed=$((changed + $1))
    [ "$1" -gt 0 ] && touched=$((touched + 1))
    [ "$passes" -gt 0 ] && derived=$((derived + 1))
    rm -f "$tmp/exact.png" "$tmp/interpolated.png" "$tmp/again.png"
done <"$tmp/list"
printf '%d effects: %d with exact varyings in some pass, %d with changed pixels; %d of %d pixels changed\n' \
    "$effects" "$derived" "$touched" "$changed" "$total"
