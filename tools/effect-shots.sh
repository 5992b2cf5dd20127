#!/bin/sh
# effect-shots.sh BUILD [DIR] - a before/after screenshot of every built-in
# effect on fxgl-demo's scene, small PNGs for the docs (default docs/effects):
# DIR/scene.png is the frame without effects, DIR/<effect>.png the frame
# after the effect with the settings below (chosen to make each visible).
# Rendered by BUILD's fxgl-effect (the runtime on a headless context).
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$top/docs/effects}
size=${FXGL_SHOT_SIZE:-480x270}
make -C "$build" -s tests/effects/fxgl-effect fxgl-demo >/dev/null
mkdir -p "$dir"
xvfb-run -a -s "-screen 0 ${size}x24 -nolisten tcp" \
    "$build/fxgl-demo" --frames 30 --size "$size" --screenshot "$dir/scene.png" --stats /dev/null

status=0
while read -r effect values; do
    case "$effect" in ''|'#'*) continue ;; esac
    name=${effect%.fx}
    if "$build/tests/effects/fxgl-effect" --frames 3 --values "$values" \
        "$effect" "$dir/scene.png" "$dir/$name.png"; then
        echo "effect-shots: $dir/$name.png"
    else
        rc=$?
        [ $rc -eq 77 ] && { echo "effect-shots: cannot render yet" >&2; exit 77; }
        echo "effect-shots: $effect failed" >&2
        status=1
    fi
done <<'LIST'
fxgl_CAS.fx         Sharpness=1;Blend=1
fxgl_FXAA.fx        EdgeThreshold=0.125;EdgeThresholdMin=0.0312;SpanMax=8
fxgl_Vibrance.fx    Saturation=1;Vibrance=0.6
fxgl_Tonemap.fx     Exposure=0.3;Operator=2;BlackLevel=10;WhiteLevel=245;Gamma=1;Contrast=0.4
fxgl_Vignette.fx    Amount=0.6;Radius=0.35;Softness=0.6;Round=1
fxgl_FilmGrain.fx   Intensity=0.08;Midtones=0.6
fxgl_Deband.fx      Threshold=0.02;Range=16;Dither=1
fxgl_LUT.fx         Amount=1
fxgl_Bloom.fx       Threshold=0.6;Intensity=0.8;Spread=0.8
fxgl_DepthView.fx   Mode=2
fxgl_Passthrough.fx
LIST
exit $status
