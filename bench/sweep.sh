#!/bin/sh
# sweep.sh [OUTDIR] - the pass-count sweep: chains of 1..32
# trivial fullscreen copy passes through fxgl's compiler and runtime at
# 1280x720 and 1920x1080, beside hand-written GL doing the same copies (the
# fragment floor and the compute floor); the fixed cost per pass is the
# least-squares slope of median GPU time over the pass count.
#
# Runs headless through EGL (no X server): FXGL_TEST_EGL_PLATFORM=device
# picks the GPU's EGL device, surfaceless is llvmpipe. The driver binary is
# $SWEEP (default: $BUILD/bench/sweep; BUILD: see bench/setup.sh), so a prebuilt one
# can be carried to another machine. Other knobs: FRAMES (default 30),
# SIZES ("1280x720 1920x1080"), PASSES (1,2,4,8,16,32).
# Writes OUTDIR (default bench/results)/sweep-<renderer>.csv (medians per
# point), sweep-slopes-<renderer>.csv and sweep-<renderer>.png (gnuplot; the
# plot is skipped with a message when gnuplot is absent), prints a table,
# and says whether the runtime's slope is within 1.2x of the fragment floor.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
if [ -z "${SWEEP:-}" ]; then
    . "$top/bench/setup.sh"
    bench_build bench/sweep
fi
sweep=${SWEEP:-$build/bench/sweep}
frames=${FRAMES:-30}
sizes=${SIZES:-1280x720 1920x1080}
passes=${PASSES:-1,2,4,8,16,32}
[ -x "$sweep" ] || { echo "sweep.sh: $sweep not built (make -C b bench/sweep, or set SWEEP)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/all.csv"
for size in $sizes; do
    "$sweep" --size "$size" --frames "$frames" --passes "$passes" >"$tmp/one.csv"
    if [ ! -s "$tmp/all.csv" ]; then head -1 "$tmp/one.csv" >"$tmp/all.csv"; fi
    tail -n +2 "$tmp/one.csv" >>"$tmp/all.csv"
done
renderer=$(awk -F, 'NR == 2 {print $15}' "$tmp/all.csv" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/sweep-$renderer.csv"
slopes="$out/sweep-slopes-$renderer.csv"
{ echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) load $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$tmp/all.csv"; } >"$csv"

# Least squares per (size, mode): time = a + b * passes, for GPU and wall.
awk -F, 'NR > 1 && $1 !~ /^#/ {
    k = $2 "x" $3 "," $1
    if (!(k in n)) order[++keys] = k
    n[k]++; x = $4; sx[k] += x; sxx[k] += x * x
    sy[k] += $6; sxy[k] += x * $6; wy[k] += $7; wxy[k] += x * $7
    calls[k] = $8; draws[k] = $9; fb[k] = $11; tex[k] = $12; maxp[k] = x
}
END {
    print "size,mode,slope_gpu_ms,intercept_gpu_ms,slope_wall_ms,intercept_wall_ms,gl_calls_at_max,draws_at_max,fb_binds_at_max,tex_binds_at_max,max_passes"
    for (i = 1; i <= keys; i++) {
        k = order[i]; d = n[k] * sxx[k] - sx[k] * sx[k]
        b = (n[k] * sxy[k] - sx[k] * sy[k]) / d; a = (sy[k] - b * sx[k]) / n[k]
        wb = (n[k] * wxy[k] - sx[k] * wy[k]) / d; wa = (wy[k] - wb * sx[k]) / n[k]
        printf "%s,%.5f,%.5f,%.5f,%.5f,%d,%d,%d,%d,%d\n", k, b, a, wb, wa, calls[k], draws[k], fb[k], tex[k], maxp[k]
    }
}' "$tmp/all.csv" >"$slopes"

echo "sweep: $(awk -F, 'NR == 2 {print $15}' "$tmp/all.csv"), $frames frames per point (medians, modes interleaved), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "points (median ms per frame):"
awk -F, 'NR > 1 && $1 !~ /^#/ {printf "  %-9s %-13s N=%-3d gpu %9.4f  wall %9.4f  calls %4d fb %3d tex %3d\n", $2 "x" $3, $1, $4, $6, $7, $8, $11, $12}' "$tmp/all.csv"
echo "fixed cost per pass (least-squares slope):"
awk -F, 'NR > 1 {
    printf "  %-9s %-13s %8.4f ms/pass (gpu)  %8.4f ms/pass (wall)  intercept %8.4f ms\n", $1, $2, $3, $5, $4
    s[$1 "," $2] = $3; sizes[$1] = 1
}
END {
    for (z in sizes) {
        if ((z ",frag") in s && (z ",runtime") in s) {
            r = s[z ",runtime"] / s[z ",frag"]; l = s[z ",runtime-lean"] / s[z ",frag"]
            printf "  %-9s runtime/frag floor %.3f (lean %.3f)  compute floor/frag floor %.3f  bar 1.2: %s\n", z, r, l, s[z ",compute"] / s[z ",frag"], r <= 1.2 ? "met" : "MISSED"
        }
    }
}' "$slopes"

if command -v gnuplot >/dev/null 2>&1; then
    png="$out/sweep-$renderer.png"
    plots=""
    for size in $sizes; do
        w=${size%x*}; h=${size#*x}
        for mode in runtime runtime-lean frag compute; do
            awk -F, -v w="$w" -v h="$h" -v m="$mode" 'NR > 1 && $1 == m && $2 == w && $3 == h {print $4, $6}' \
                "$tmp/all.csv" >"$tmp/$mode-$size.dat"
            plots="$plots${plots:+, }'$tmp/$mode-$size.dat' using 1:2 with linespoints title '$mode $size'"
        done
    done
    gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output '$png'
set title 'fxgl pass sweep: median GPU time per frame ($renderer)'
set xlabel 'passes'
set ylabel 'ms'
set key left top
set grid
plot $plots
GP
    echo "sweep: $csv, $slopes, $png"
else
    echo "sweep: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv, $slopes"
fi
