#!/bin/sh
# bench/perfmode.sh - GPU time of built-in effects with and without performance mode
# (preset values compiled in as constants). Run from the build directory:
#   sh ../bench/perfmode.sh [FRAMES] [WxH]
# On llvmpipe the "GPU" time is CPU rasterisation; on a GPU it is the timer-query time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
frames=${1:-120}
size=${2:-1280x720}
exec ./bench/perfmode --frames "$frames" --size "$size" --preset "$top/data/presets/default.ini" \
    "$top/data/shaders" fxgl_Vignette.fx fxgl_CAS.fx fxgl_Vibrance.fx fxgl_Tonemap.fx \
    fxgl_FXAA.fx fxgl_Bloom.fx
