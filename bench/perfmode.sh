#!/bin/sh
# bench/perfmode.sh - GPU time of built-in effects with and without performance mode
# (preset values compiled in as constants). Run from the build directory:
#   sh ../bench/perfmode.sh [FRAMES] [WxH]            both versions alternating frame about
#                                                    frame in one context (bench/perfmode)
#   sh ../bench/perfmode.sh --render [FRAMES] [WxH]  through fxgl-render, one process per
#                                                    effect and mode, its report's gpu_ms
# On llvmpipe the "GPU" time is CPU rasterisation; on a GPU it is the timer-query time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
effects="fxgl_Vignette fxgl_CAS fxgl_Vibrance fxgl_Tonemap fxgl_FXAA fxgl_Bloom"
if [ "${1:-}" != "--render" ]; then
    frames=${1:-120}
    size=${2:-1280x720}
    files=
    for e in $effects; do files="$files $e.fx"; done
    # shellcheck disable=SC2086 # the list splits on purpose
    exec ./bench/perfmode --frames "$frames" --size "$size" \
        --preset "$top/data/presets/default.ini" "$top/data/shaders" $files
fi
frames=${2:-120}
size=${3:-1280x720}
tmp=$(mktemp -d /tmp/fxgl-perfmode-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The technique's gpu_ms in an fxgl-render report (one technique enabled).
gpu_ms() { sed -n 's/.*"ran": true.*"gpu_ms": \([0-9.]*\).*/\1/p' "$1" | head -n 1; }
printf '%-16s %10s %12s %8s\n' effect gpu_ms gpu_ms_perf ratio
for e in $effects; do
    # default.ini's values, with only this effect's technique enabled.
    sed "s/^Techniques=.*/Techniques=$e@$e.fx/" "$top/data/presets/default.ini" > "$tmp/p.ini"
    for mode in normal perf; do
        opt=
        [ $mode = perf ] && opt=--performance-mode
        # shellcheck disable=SC2086
        ./fxgl-render --frames "$frames" --size "$size" -I "$top/data/shaders" \
            --preset "$tmp/p.ini" $opt --output "$tmp/$mode.png" --report "$tmp/$mode.json" \
            "$top/data/shaders/$e.fx" >/dev/null 2>&1
    done
    a=$(gpu_ms "$tmp/normal.json")
    b=$(gpu_ms "$tmp/perf.json")
    awk -v e="$e" -v a="$a" -v b="$b" \
        'BEGIN { printf "%-16s %10.4f %12.4f %8.3f\n", e, a, b, (a > 0 ? b / a : 0) }'
done
