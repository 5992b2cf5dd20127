#!/bin/sh
# interpose_overhead.sh BUILD [WxH] [RUNS] - what fxgl costs a real program:
# glmark2's `build` scene frame time without fxgl, with fxgl preloaded but
# nothing enabled (hooks only), with fxgl_Passthrough (the copy in and out
# plus one pass: the fixed cost of any effect chain) and with
# data/presets/default.ini (six effects). Each configuration runs RUNS times
# (default 5); the table gives the median frame time and its ratio to the
# run without fxgl. glmark2 runs the scene twice per process and only the
# second counts, so effect compilation on the first frame is not measured.
# Writes bench/results/interpose-overhead-<WxH>-<renderer>.csv.
#
# On llvmpipe the GPU work is CPU work on the same cores, so the ratios
# describe this machine, not a GPU; run it on an idle machine.
set -eu
if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1920x1200x24 -nolisten tcp" sh "$0" "$@"
fi
build=${1:-build}
size=${2:-640x480}
runs=${3:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
command -v glmark2 >/dev/null || { echo "interpose_overhead: glmark2 absent" >&2; exit 77; }
make -C "$build" -s libfxgl.la tests/interpose/fxgl-uninstalled >/dev/null
fxgl="$build/tests/interpose/fxgl-uninstalled"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# frame_time CONFIG: one glmark2 process, the second scene's FrameTime (ms).
frame_time() {
    set -- glmark2 -s "$size" -b build:duration=2 -b build:duration=5
    case $config in
    none) "$@" >"$tmp/out" 2>&1 ;;
    hooks) FXGL_PRESET= FXGL_CONFIG=/dev/null sh "$fxgl" "$@" >"$tmp/out" 2>&1 ;;
    passthrough)
        printf 'Techniques=fxgl_Passthrough@fxgl_Passthrough.fx\n' >"$tmp/pass.ini"
        FXGL_CONFIG=/dev/null FXGL_EFFECT_PATHS="$top/data/shaders" \
            sh "$fxgl" --preset "$tmp/pass.ini" "$@" >"$tmp/out" 2>&1 ;;
    default)
        FXGL_CONFIG=/dev/null FXGL_EFFECT_PATHS="$top/data/shaders" \
            sh "$fxgl" --preset "$top/data/presets/default.ini" "$@" >"$tmp/out" 2>&1 ;;
    esac
    sed -n 's/.*FrameTime: \([0-9.]*\) ms.*/\1/p' "$tmp/out" | sed -n 2p
}

median() {
    sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

renderer=$(glmark2 -s 64x64 -b build:duration=0.1 2>/dev/null | sed -n 's/.*GL_RENDERER: *//p' |
    tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
mkdir -p "$top/bench/results"
csv="$top/bench/results/interpose-overhead-$size-${renderer:-unknown}.csv"
echo "config,size,runs,frame_ms_median,ratio" >"$csv"
base=""
printf '%-12s %14s %8s\n' config "frame ms (med)" ratio
for config in none hooks passthrough default; do
    : >"$tmp/times"
    i=0
    while [ $i -lt "$runs" ]; do
        t=$(frame_time)
        [ -n "$t" ] && echo "$t" >>"$tmp/times"
        i=$((i + 1))
    done
    med=$(median <"$tmp/times")
    [ -n "$base" ] || base=$med
    ratio=$(awk -v a="$med" -v b="$base" 'BEGIN {printf "%.3f", a / b}')
    printf '%-12s %14s %8s\n' "$config" "$med" "$ratio"
    echo "$config,$size,$runs,$med,$ratio" >>"$csv"
done
echo "wrote $csv"
