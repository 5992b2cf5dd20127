#!/bin/sh
# depth_cost.sh BUILD [WxH] [RUNS] - what the FBO depth provider's tracking
# costs a real program: glmark2's `build` scene with an effect that binds
# DEPTH (tests/interpose/data/DepthShow.fx), with FXGL_DEPTH=fbo (every draw,
# bind, attachment and clear goes through fxgl's hooks and is counted) and
# without it (no hook handed out; DEPTH from the default framebuffer's copy,
# which is also what the provider picks here: glmark2 draws into the window).
# So the two differ by the tracking alone. RUNS pairs (default 7), the two
# configurations interleaved (off, on, off, on, ...) so load drifts hit both.
# Per run: the process's CPU time (user + system, /usr/bin/time) divided by
# the frames drawn (FPS x duration of both scenes); the table gives the median
# of each and their ratio. Writes bench/results/depth-cost-<WxH>-<renderer>.csv.
#
# On llvmpipe the rasterizer's CPU time is in the figure too, which hides a
# hook's nanoseconds; on a GPU the figure is the program's own CPU work.
set -eu
if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1920x1200x24 -nolisten tcp" sh "$0" "$@"
fi
build=${1:-build}
size=${2:-640x480}
runs=${3:-7}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
command -v glmark2 >/dev/null || { echo "depth_cost: glmark2 absent" >&2; exit 77; }
[ -x /usr/bin/time ] || { echo "depth_cost: /usr/bin/time absent (package time)" >&2; exit 77; }
make -C "$build" -s libfxgl.la tests/interpose/fxgl-uninstalled >/dev/null
fxgl="$build/tests/interpose/fxgl-uninstalled"
data="$top/tests/interpose/data"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d1=2
d2=6

# cpu_per_frame on|off: one glmark2 process; CPU ms per frame drawn.
cpu_per_frame() {
    depth=
    [ "$1" = on ] && depth=fbo
    FXGL_DEPTH=$depth FXGL_CONFIG=/dev/null FXGL_EFFECT_PATHS="$data" \
        /usr/bin/time -f 'cpu %U %S' -o "$tmp/time" \
        sh "$fxgl" --preset "$data/depthshow.ini" \
        glmark2 -s "$size" -b build:duration=$d1 -b build:duration=$d2 >"$tmp/out" 2>&1
    fps=$(sed -n 's/.*FPS: \([0-9.]*\) .*/\1/p' "$tmp/out" | tr '\n' ' ')
    awk -v fps="$fps" -v d1=$d1 -v d2=$d2 '/^cpu/ {
        split(fps, f, " "); frames = f[1] * d1 + f[2] * d2;
        if (frames > 0) printf "%.4f\n", ($2 + $3) * 1000 / frames }' "$tmp/time"
}

median() {
    sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

renderer=$(glmark2 -s 64x64 -b build:duration=0.1 2>/dev/null | sed -n 's/.*GL_RENDERER: *//p' |
    tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
mkdir -p "$top/bench/results"
csv="$top/bench/results/depth-cost-$size-${renderer:-unknown}.csv"
echo "run,config,cpu_ms_per_frame" >"$csv"
: >"$tmp/off"
: >"$tmp/on"
i=0
while [ $i -lt "$runs" ]; do
    for config in off on; do
        t=$(cpu_per_frame $config)
        [ -n "$t" ] && echo "$t" >>"$tmp/$config" && echo "$i,$config,$t" >>"$csv"
    done
    i=$((i + 1))
done
off=$(median <"$tmp/off")
on=$(median <"$tmp/on")
printf '%-24s %s\n' "tracking off (median)" "$off ms CPU/frame"
printf '%-24s %s\n' "tracking on (median)" "$on ms CPU/frame"
awk -v a="$on" -v b="$off" 'BEGIN {printf "%-24s %.3f (%+.1f%%)\n", "on / off", a / b, (a / b - 1) * 100}'
echo "wrote $csv"
