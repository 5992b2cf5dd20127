#!/bin/sh
# effects.sh BUILD [WxH] - GPU time of every built-in effect at one size
# (default 1920x1080) on whatever driver the headless context gets (llvmpipe
# in CI, the GPU on the GPU machine; FXGL_TEST_EGL_PLATFORM=device forces the
# EGL device platform). Each effect runs FRAMES frames (default 60) over
# fxgl-demo's scene at that size with its default settings; fxgl-effect
# reports the median GPU time of one runtime frame (timer queries, first
# frame excluded; includes the runtime's copies in and out, which the
# passthrough row shows alone) and the runtime's own GPU time of the
# technique. Also records the machine's load average: on a shared CPU,
# llvmpipe figures scale with it. Writes bench/results/effects-<W>x<H>-<renderer>.csv and prints
# a table.
# Without an X server (no xvfb-run, or NO_X=1: the GPU machine, headless
# through EGL), the scene is fxgl-render's test image at that size instead
# of fxgl-demo's, and the renderer is the one fxgl-render reports. The
# binaries are only built when absent (prebuilt ones can be carried).
set -eu
build=${1:-build}
size=${2:-1920x1080}
frames=${FRAMES:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/tests/effects/fxgl-effect" ] && [ -x "$build/fxgl-render" ] ||
    make -C "$build" -s tests/effects/fxgl-effect fxgl-render >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${NO_X:-0}" = 1 ] || ! command -v xvfb-run >/dev/null 2>&1; then
    "$build/fxgl-render" --test-image --size "$size" --frames 1 --output "$tmp/scene.png" 2>&1 |
        sed -n 's/.* on \(.*\); last frame.*/renderer: \1/p' >"$tmp/stats.txt"
else
    [ -x "$build/fxgl-demo" ] || make -C "$build" -s fxgl-demo >/dev/null
    xvfb-run -a -s "-screen 0 ${size}x24 -nolisten tcp" \
        "$build/fxgl-demo" --frames 30 --size "$size" --screenshot "$tmp/scene.png" \
        --stats "$tmp/stats.txt"
fi
renderer=$(sed -n 's/^renderer: //p' "$tmp/stats.txt" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
mkdir -p "$top/bench/results"
csv="$top/bench/results/effects-$size-$renderer.csv"
echo "effect,width,height,frames,frame_gpu_ms_median,technique_gpu_ms" >"$csv"
for fx in "$top"/data/shaders/fxgl_*.fx; do
    name=$(basename "$fx")
    if ! t=$("$build/tests/effects/fxgl-effect" --time --frames "$frames" "$name" \
        "$tmp/scene.png" "$tmp/out.png"); then
        rc=$?
        [ $rc -eq 77 ] && { echo "bench/effects: cannot render yet" >&2; exit 77; }
        echo "bench/effects: $name failed" >&2
        continue
    fi
    ms=$(printf '%s\n' "$t" | sed -n 's/^gpu_ms: //p')
    tms=$(printf '%s\n' "$t" | sed -n 's/^technique_ms: //p')
    echo "$name,${size%x*},${size#*x},$frames,$ms,$tms" >>"$csv"
done
echo "renderer: $(sed -n 's/^renderer: //p' "$tmp/stats.txt"), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
column -t -s, "$csv"
echo "bench/effects: $csv"
