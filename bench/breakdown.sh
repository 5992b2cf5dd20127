#!/bin/sh
# breakdown.sh [OUTDIR] - where a frame of fxgl's runtime goes:
#   - back-buffer copy in + out: the floor's two flipped blits alone
#     (bench/sweep "copies" mode: GPU time);
#   - the runtime's fixed cost per frame beyond the floor (state capture,
#     defaults, restore, bookkeeping, timers): the runtime's intercept minus
#     the fragment floor's (least squares over 1,2,4,8 passes), GPU and CPU;
#   - state capture/restore alone: bench/state_cost (CPU, GL calls);
#   - uniform upload: a chain reading a `timer` uniform (uploaded every
#     frame) minus the same chain without it;
#   - per pass: the slopes of runtime and floor;
#   - per pass of a real chain: the runtime's own timer queries for the
#     default preset's effects (fxgl-render --report).
# Headless through EGL: FXGL_TEST_EGL_PLATFORM=device on the GPU machine.
# Binaries from $SWEEP, $STATE_COST, $RENDER (default: $BUILD/...; BUILD: see bench/setup.sh).
# SIZE (1920x1080), FRAMES (30). Writes OUTDIR (default bench/results)/
# breakdown-<renderer>.csv and .png and prints a table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build bench/sweep bench/state_cost fxgl-render
sweep=${SWEEP:-$build/bench/sweep}
state_cost=${STATE_COST:-$build/bench/state_cost}
render=${RENDER:-$build/fxgl-render}
size=${SIZE:-1920x1080}
frames=${FRAMES:-30}
for b in "$sweep" "$state_cost" "$render"; do
    [ -x "$b" ] || { echo "breakdown.sh: $b not built (make -C b bench/sweep bench/state_cost fxgl-render)" >&2; exit 1; }
done
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$sweep" --size "$size" --frames "$frames" --passes 1,2,4,8 \
    --modes runtime,runtime-lean,runtime-uniform,frag,copies >"$tmp/sweep.csv"
"$state_cost" 200 >"$tmp/state.txt" 2>&1 || true
textures=$build/data/textures
[ -d "$textures" ] || textures=$top/data/shaders
"$render" --preset "$top/data/presets/default.ini" -I "$top/data/shaders" --textures "$textures" \
    --size "$size" --frames "$frames" --report "$tmp/render.json" --output "$tmp/out.png" >/dev/null

renderer=$(awk -F, 'NR == 2 {print $15}' "$tmp/sweep.csv")
tag=$(printf '%s' "$renderer" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/breakdown-$tag.csv"

{
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size $frames frames; $renderer; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "item,gpu_ms,cpu_ms,gl_calls,source"
# least squares of gpu (and cpu) per mode; intercepts and slopes
awk -F, 'NR > 1 {
    m = $1; x = $4; n[m]++; sx[m] += x; sxx[m] += x * x; sy[m] += $6; sxy[m] += x * $6
    cy[m] += $14; cxy[m] += x * $14; calls[m, x] = $8; gpu[m, x] = $6; cpu[m, x] = $14
}
END {
    for (m in n) {
        if (n[m] < 2) continue
        d = n[m] * sxx[m] - sx[m] * sx[m]
        b[m] = (n[m] * sxy[m] - sx[m] * sy[m]) / d; a[m] = (sy[m] - b[m] * sx[m]) / n[m]
        cb[m] = (n[m] * cxy[m] - sx[m] * cy[m]) / d; ca[m] = (cy[m] - cb[m] * sx[m]) / n[m]
    }
    printf "copy in+out (2 blits),%.4f,,%d,sweep copies\n", gpu["copies", 0], calls["copies", 0]
    printf "runtime fixed per frame beyond floor (state capture/restore + bookkeeping + timers),%.4f,%.4f,%d,sweep intercepts runtime-frag\n", a["runtime"] - a["frag"], ca["runtime"], calls["runtime", 1] - (calls["runtime", 2] - calls["runtime", 1]) - 11
    printf "runtime-lean fixed per frame beyond floor (no timers or debug groups),%.4f,%.4f,%d,sweep intercepts lean-frag\n", a["runtime-lean"] - a["frag"], ca["runtime-lean"], calls["runtime-lean", 1] - (calls["runtime-lean", 2] - calls["runtime-lean", 1]) - 11
    printf "uniform upload (one float per frame; runtime-uniform - runtime at 8 passes),%.4f,%.4f,%d,sweep\n", gpu["runtime-uniform", 8] - gpu["runtime", 8], cpu["runtime-uniform", 8] - cpu["runtime", 8], calls["runtime-uniform", 8] - calls["runtime", 8]
    printf "per pass runtime (slope),%.4f,%.4f,%.1f,sweep slope\n", b["runtime"], cb["runtime"], (calls["runtime", 8] - calls["runtime", 4]) / 4
    printf "per pass runtime-lean (slope),%.4f,%.4f,%.1f,sweep slope\n", b["runtime-lean"], cb["runtime-lean"], (calls["runtime-lean", 8] - calls["runtime-lean", 4]) / 4
    printf "per pass hand-written floor (slope),%.4f,,3,sweep slope\n", b["frag"]
}' "$tmp/sweep.csv"
# state_cost: its GL 4.5 core default-descriptor row (median microseconds)
awk -F'|' '/GL 4.5 core/ && /16 units/ && !done {gsub(/ /, "", $4); gsub(/ /, "", $6); printf "state capture+defaults+restore alone (GL 4.5 core; 16 units 2D+3D; idle; state_cost),,%.4f,%s,bench/state_cost\n", $6 / 1000, $4; done = 1}' "$tmp/state.txt"
# the runtime's own timers, default preset
sed -n 's/.*"name": "\([^"]*\)".*"ran": true.*"cpu_ms": \([0-9.]*\), "gpu_ms": \([0-9.]*\), "pass_gpu_ms": \[\([^]]*\)\].*/\1 \2 \3 \4/p' "$tmp/render.json" |
while read -r name cpu gpu passes; do
    echo "default preset: $name (technique),$gpu,$cpu,,runtime timers"
    i=0
    for p in $(echo "$passes" | tr ',' ' '); do
        echo "default preset: $name pass $i,$p,,,runtime timers"
        i=$((i + 1))
    done
done
sed -n 's/.*"last_frame": {"gl_calls": \([0-9]*\), "pass_calls": \([0-9]*\), "state_calls": \([0-9]*\).*"uniform_bytes": \([0-9]*\), "copies": \([0-9]*\).*"cpu_ms": \([0-9.]*\)}.*/default preset frame (counts),,\6,\1,runtime stats: pass calls \2 state calls \3 uniform bytes \4 copies \5/p' "$tmp/render.json"
} >"$csv"

echo "breakdown: $renderer, $size, $frames frames per point (medians), load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F, 'NR > 2 {printf "  %-92s gpu %9s ms  cpu %9s ms  calls %6s\n", $1, $2, $3, $4}' "$csv"
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/breakdown-$tag.png"
    awk -F, 'NR > 2 && $2 != "" {n++; printf "%d \"%s\" %s\n", n, substr($1, 1, 40), $2}' "$csv" >"$tmp/bars.dat"
    gnuplot <<GP
set terminal pngcairo size 1100,700 noenhanced
set output '$png'
set title 'fxgl frame breakdown, GPU ms ($renderer, $size)'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -40 font ',8'
set grid ytics
set ylabel 'ms'
plot '$tmp/bars.dat' using 1:3:xtic(2) with boxes notitle
GP
    echo "breakdown: $csv, $png"
else
    echo "breakdown: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
