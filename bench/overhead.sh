#!/bin/sh
# overhead.sh [OUTDIR] - what fxgl costs a real program (issue 9): glmark2
# scenes under Xvfb without fxgl, with fxgl preloaded running only the
# passthrough effect (fxgl_Passthrough: copy in, one pass, copy out, state
# capture/restore), and with the default preset (data/presets/default.ini).
# glmark2's own frame time per scene; the three configurations are
# interleaved per repetition (RUNS, default 3) so that they share the
# machine's load, and the median over repetitions is compared: ratio =
# median frame time with fxgl / without.
# Needs glmark2 (Debian: glmark2-x11) and Xvfb (xvfb); GLX, so on the GPU
# machine it runs under bench/h200_x11.sh (Xvfb + NVIDIA's GLX, XDISPLAY set).
# SIZE (800x600), SCENES, DURATION (seconds per scene, 3), LIBFXGL
# (default $BUILD/.libs/libfxgl.so, BUILD=b), GLMARK2 (glmark2).
# Writes OUTDIR (default bench/results)/overhead-<renderer>.csv and .png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
build=${BUILD:-$top/b}
lib=${LIBFXGL:-$build/.libs/libfxgl.so}
glmark2=${GLMARK2:-glmark2}
size=${SIZE:-800x600}
runs=${RUNS:-3}
duration=${DURATION:-3}
scenes=${SCENES:-build texture shading:shading=phong bump:bump-render=normals effect2d pulsar refract}
command -v "$glmark2" >/dev/null 2>&1 || { echo "overhead.sh: glmark2 missing (Debian: apt-get install glmark2-x11)" >&2; exit 1; }
# XDISPLAY: an X server already running (the GPU machine's, bench/h200_x11.sh); else
# each run gets its own Xvfb through xvfb-run.
if [ -z "${XDISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null 2>&1 || { echo "overhead.sh: xvfb-run missing (Debian: apt-get install xvfb)" >&2; exit 1; }
fi
[ -f "$lib" ] || { echo "overhead.sh: $lib not built" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'Techniques=fxgl_Passthrough@fxgl_Passthrough.fx\n' >"$tmp/passthrough.ini"
textures=$build/data/textures
[ -d "$textures" ] || textures=$top/data/shaders

bench_args=""
for s in $scenes; do
    bench_args="$bench_args -b $s:duration=$duration"
done
echo "config,run,scene,fps,frame_ms" >"$tmp/all.csv"
xrun() {
    if [ -n "${XDISPLAY:-}" ]; then
        DISPLAY=$XDISPLAY "$@"
    else
        xvfb-run -a -s "-screen 0 ${size}x24 -nolisten tcp" "$@"
    fi
}
run() { # config run
    case $1 in
    none) set -- "$1" "$2" env ;;
    passthrough) set -- "$1" "$2" env LD_PRELOAD="$lib" FXGL_PRESET="$tmp/passthrough.ini" ;;
    default) set -- "$1" "$2" env LD_PRELOAD="$lib" FXGL_PRESET="$top/data/presets/default.ini" ;;
    esac
    config=$1 r=$2
    shift 2
    # shellcheck disable=SC2086
    # fxgl logs to a file: on stderr its lines would split glmark2's result lines.
    FXGL_EFFECT_PATHS="$top/data/shaders" FXGL_TEXTURE_PATHS="$textures" FXGL_LOG=info \
    FXGL_LOG_FILE="$tmp/$config-$r.fxgl.log" \
        xrun "$@" "$glmark2" -s "$size" $bench_args >"$tmp/$config-$r.log" 2>&1 || true
    if [ "$config" != none ] && ! grep -q "loaded, on" "$tmp/$config-$r.fxgl.log" 2>/dev/null; then
        echo "overhead.sh: fxgl ran no effect in the $config run:" >&2
        head -5 "$tmp/$config-$r.fxgl.log" >&2 2>/dev/null || true
    fi
    sed -n 's/^\[\([^]]*\)\] \(.*\): FPS: \([0-9.]*\) FrameTime: \([0-9.]*\) ms.*/\1:\2,\3,\4/p' "$tmp/$config-$r.log" |
        sed 's/:duration=[0-9]*//; s/^\([^:,]*\):\([^,]*\),/\1 \2,/' |
        while IFS=, read -r scene fps ft; do echo "$config,$r,$scene,$fps,$ft"; done >>"$tmp/all.csv"
}
r=1
while [ "$r" -le "$runs" ]; do
    for c in none passthrough default; do
        run "$c" "$r"
    done
    r=$((r + 1))
done
renderer=$(sed -n 's/^ *GL_RENDERER: *//p' "$tmp/none-1.log" | head -1)
tag=$(printf '%s' "${renderer:-unknown}" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/overhead-$tag.csv"
awk -F, '
NR > 1 { k = $3 SUBSEP $1; v[k, ++n[k]] = $5; if (!($3 in seen)) { seen[$3] = 1; order[++ns] = $3 } }
function med(k,   i, j, t, a, c) {
    c = n[k]; for (i = 1; i <= c; i++) a[i] = v[k, i]
    for (i = 2; i <= c; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}
END {
    print "scene,none_ms,passthrough_ms,default_ms,passthrough_ratio,default_ratio,runs"
    for (i = 1; i <= ns; i++) {
        s = order[i]; a = med(s SUBSEP "none"); b = med(s SUBSEP "passthrough"); c = med(s SUBSEP "default")
        printf "%s,%.3f,%.3f,%.3f,%.3f,%.3f,%d\n", s, a, b, c, (a > 0 ? b / a : 0), (a > 0 ? c / a : 0), n[s SUBSEP "none"]
    }
}' "$tmp/all.csv" >"$tmp/summary.csv"
{ echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size ${duration}s per scene, $runs runs; ${renderer:-?}; load $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$tmp/summary.csv"; echo "# raw"; cat "$tmp/all.csv"; } >"$csv"
echo "overhead: glmark2 $size, ${renderer:-?}, $runs interleaved runs, medians of glmark2's frame time (ms)"
if command -v column >/dev/null 2>&1; then
    column -t -s, "$tmp/summary.csv" | sed 's/^/  /'
else
    sed 's/,/  /g; s/^/  /' "$tmp/summary.csv"
fi
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/overhead-$tag.png"
    awk -F, 'NR > 1 {print NR - 1, "\"" $1 "\"", $5, $6}' "$tmp/summary.csv" >"$tmp/bars.dat"
    gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced
set output '$png'
set title 'glmark2 frame time with fxgl / without (${renderer:-?}, $size)'
set style data histograms
set style histogram clustered
set style fill solid 0.6
set xtics rotate by -30 font ',8'
set grid ytics
set ylabel 'ratio'
plot '$tmp/bars.dat' using 3:xtic(2) title 'passthrough', '' using 4 title 'default preset'
GP
    echo "overhead: $csv, $png"
else
    echo "overhead: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
