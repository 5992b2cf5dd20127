#!/bin/sh
# preset_gpu.sh [OUTDIR] - the GPU time of a preset's frame (issue 18: the
# default preset's six effects at 1080p, before and after a change).
#
# fxgl-render runs PRESET (data/presets/default.ini) over its test image at
# SIZE (1920x1080) for FRAMES frames (60), each frame waited for (glFinish,
# fxgl-render --timings), and this prints the medians over the frames after
# the first WARM (10: loading, first draws):
#   - frame: the whole runtime frame, GL_TIMESTAMP queries around it (copy
#     in, state capture and restore, every pass, the copy out if any);
#   - each technique and each of its passes: the runtime's own timer queries;
#   - cpu: the wall time of the frame call on the CPU.
# On llvmpipe the timestamps are CPU clock, and a technique's figure is the
# time its commands took to be recorded and run where they were flushed, so
# only the frame row means the same as on a GPU there.
#
# Environment: RENDER (default $BUILD/fxgl-render; BUILD: see bench/setup.sh),
# PRESET, SIZE, FRAMES, WARM, EXTRA (more fxgl-render options, e.g.
# --performance-mode), API (gl, gl-compat, gles; default gl).
# Writes OUTDIR (default bench/results)/preset-gpu-<renderer>.csv
# (what,technique,pass,median_ms,frames) and prints a table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build fxgl-render
render=${RENDER:-$build/fxgl-render}
preset=${PRESET:-$top/data/presets/default.ini}
size=${SIZE:-1920x1080}
frames=${FRAMES:-60}
warm=${WARM:-10}
[ -x "$render" ] || { echo "preset_gpu.sh: $render not built (make -C b fxgl-render)" >&2; exit 1; }
[ "$frames" -gt "$warm" ] || { echo "preset_gpu.sh: FRAMES ($frames) must exceed WARM ($warm)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
textures=$build/data/textures
[ -d "$textures" ] || textures=$top/data/shaders
# shellcheck disable=SC2086 # EXTRA is a list of options
"$render" --preset "$preset" -I "$top/data/shaders" --textures "$textures" \
    --api "${API:-gl}" --size "$size" --frames "$frames" ${EXTRA:-} \
    --timings "$tmp/t.csv" --report "$tmp/r.json" --output "$tmp/out.png" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; echo "preset_gpu.sh: fxgl-render failed" >&2; exit 1; }
renderer=$(sed -n 's/.*"renderer": "\([^"]*\)".*/\1/p' "$tmp/r.json" | head -1)
tag=$(printf '%s' "$renderer" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/preset-gpu-$tag.csv"
# Medians per (what, technique, pass) over the frames from WARM on, in the
# order the rows first appear (the frame's order).
{
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size frames $warm..$((frames - 1)) $(basename "$preset") ${EXTRA:-}; $renderer; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "what,technique,pass,median_ms,frames"
awk -F, -v warm="$warm" 'NR > 1 && $1 >= warm {
    k = $2 "," $3 "," $4
    if (!(k in n)) order[++keys] = k
    v[k, ++n[k]] = $5
}
END {
    for (i = 1; i <= keys; i++) {
        k = order[i]; m = n[k]
        for (a = 1; a <= m; a++) s[a] = v[k, a]
        for (a = 2; a <= m; a++) {   # insertion sort: m is small
            x = s[a]; b = a - 1
            while (b >= 1 && s[b] > x) { s[b + 1] = s[b]; b-- }
            s[b + 1] = x
        }
        med = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
        printf "%s,%.4f,%d\n", k, med, m
    }
}' "$tmp/t.csv"
} >"$csv"
echo "preset_gpu: $renderer, $size, $(basename "$preset"), medians over frames $warm..$((frames - 1)) ${EXTRA:-}"
awk -F, 'NR > 2 {
    if ($1 == "technique") sum += $4
    label = $1 == "pass" ? "  " $2 " pass " $3 : $1 == "technique" ? $2 : $1
    printf "  %-60s %10.4f ms\n", label, $4
}
END { printf "  %-60s %10.4f ms\n", "sum of techniques", sum }' "$csv"
echo "  ($csv)"
