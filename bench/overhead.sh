#!/bin/sh
# overhead.sh [OUTDIR] - what fxgl costs a real program: glmark2
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
# (default $BUILD/.libs/libfxgl.so; BUILD: see bench/setup.sh), GLMARK2 (glmark2).
# CONFIGS (default "none passthrough default") may add configurations that
# split what fxgl adds: disabled (preloaded, FXGL_DISABLE=1: the hooks
# alone), empty (preloaded, a preset enabling nothing: the per-swap path with
# no effect), noreload (passthrough, FXGL_RELOAD=0: no inotify thread),
# stats (passthrough with FXGL_STATS: fxgl's own effect CPU and GPU time per
# frame, medians printed, against the frame time it adds); old-CONFIG runs
# CONFIG with LIBFXGL_OLD instead (before/after a change, interleaved).
# Writes OUTDIR (default bench/results)/overhead-<renderer>.csv and .png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build .libs/libfxgl.so
lib=${LIBFXGL:-$build/.libs/libfxgl.so}
glmark2=${GLMARK2:-glmark2}
size=${SIZE:-800x600}
runs=${RUNS:-3}
duration=${DURATION:-3}
configs=${CONFIGS:-none passthrough default}
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
printf 'Techniques=\n' >"$tmp/empty.ini"
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
    # old-CONFIG: CONFIG with the library LIBFXGL_OLD (another build, say
    # the one before a change), interleaved with the others.
    l=$lib
    case $1 in old-*) l=${LIBFXGL_OLD:?overhead.sh: old-* configurations need LIBFXGL_OLD} ;; esac
    pass="LD_PRELOAD=$l FXGL_PRESET=$tmp/passthrough.ini"
    case ${1#old-} in
    none) set -- "$1" "$2" env ;;
    disabled) set -- "$1" "$2" env LD_PRELOAD="$l" FXGL_DISABLE=1 ;;
    empty) set -- "$1" "$2" env LD_PRELOAD="$l" FXGL_PRESET="$tmp/empty.ini" ;;
    passthrough) set -- "$1" "$2" env $pass ;;
    noreload) set -- "$1" "$2" env $pass FXGL_RELOAD=0 ;;
    stats) set -- "$1" "$2" env $pass FXGL_STATS="$tmp/stats-$2.csv" ;;
    default) set -- "$1" "$2" env LD_PRELOAD="$l" FXGL_PRESET="$top/data/presets/default.ini" ;;
    *) echo "overhead.sh: unknown configuration $1" >&2; exit 1 ;;
    esac
    config=$1 r=$2
    shift 2
    # shellcheck disable=SC2086
    # fxgl logs to a file: on stderr its lines would split glmark2's result lines.
    FXGL_EFFECT_PATHS="$top/data/shaders" FXGL_TEXTURE_PATHS="$textures" FXGL_LOG=info \
    FXGL_LOG_FILE="$tmp/$config-$r.fxgl.log" \
        xrun "$@" "$glmark2" -s "$size" $bench_args >"$tmp/$config-$r.log" 2>&1 || true
    case ${config#old-} in none|disabled|empty) ran=skip ;; *) ran=check ;; esac
    if [ "$ran" = check ] && ! grep -q "loaded, on" "$tmp/$config-$r.fxgl.log" 2>/dev/null; then
        echo "overhead.sh: fxgl ran no effect in the $config run:" >&2
        head -5 "$tmp/$config-$r.fxgl.log" >&2 2>/dev/null || true
    fi
    sed -n 's/^\[\([^]]*\)\] \(.*\): FPS: \([0-9.]*\) FrameTime: \([0-9.]*\) ms.*/\1:\2,\3,\4/p' "$tmp/$config-$r.log" |
        sed 's/:duration=[0-9]*//; s/^\([^:,]*\):\([^,]*\),/\1 \2,/' |
        while IFS=, read -r scene fps ft; do echo "$config,$r,$scene,$fps,$ft"; done >>"$tmp/all.csv"
}
r=1
while [ "$r" -le "$runs" ]; do
    for c in $configs; do
        run "$c" "$r"
    done
    r=$((r + 1))
done
renderer=$(sed -n 's/^ *GL_RENDERER: *//p' "$tmp/none-1.log" | head -1)
tag=$(printf '%s' "${renderer:-unknown}" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/overhead-$tag.csv"
awk -F, -v configs="$configs" '
NR > 1 { k = $3 SUBSEP $1; v[k, ++n[k]] = $5; if (!($3 in seen)) { seen[$3] = 1; order[++ns] = $3 } }
function med(k,   i, j, t, a, c) {
    c = n[k]; for (i = 1; i <= c; i++) a[i] = v[k, i]
    for (i = 2; i <= c; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return c ? (c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2) : 0
}
END {
    nc = split(configs, cfg, " ")
    printf "scene"; for (j = 1; j <= nc; j++) printf ",%s_ms", cfg[j]
    for (j = 1; j <= nc; j++) if (cfg[j] != "none") printf ",%s_ratio", cfg[j]
    print ",runs"
    for (i = 1; i <= ns; i++) {
        s = order[i]; a = med(s SUBSEP "none"); printf "%s", s
        for (j = 1; j <= nc; j++) printf ",%.3f", med(s SUBSEP cfg[j])
        for (j = 1; j <= nc; j++) if (cfg[j] != "none") printf ",%.3f", (a > 0 ? med(s SUBSEP cfg[j]) / a : 0)
        printf ",%d\n", n[s SUBSEP "none"]
    }
}' "$tmp/all.csv" >"$tmp/summary.csv"
# FXGL_STATS rows (any header line skipped): fxgl's own effect CPU and GPU
# time per frame, over every scene of every run, to set against the frame
# time the passthrough configuration adds.
statline=""
if ls "$tmp"/stats-*.csv >/dev/null 2>&1; then
    statline=$(cat "$tmp"/stats-*.csv | awk -F, '$1 ~ /^[0-9]+$/ { c[++n] = $3; g[n] = $4 }
    function med(a,   i, j, t, b) { for (i = 1; i <= n; i++) b[i] = a[i]
        for (i = 2; i <= n; i++) { t = b[i]; for (j = i - 1; j > 0 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
        return n ? b[int((n + 1) / 2)] : 0 }
    END { printf "stats (passthrough): median effect CPU %.3f ms, median effect GPU %.3f ms, %d frames", med(c), med(g), n }')
fi
{ echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size ${duration}s per scene, $runs runs; ${renderer:-?}; load $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$tmp/summary.csv"; [ -z "$statline" ] || echo "# $statline"; echo "# raw"; cat "$tmp/all.csv"; } >"$csv"
echo "overhead: glmark2 $size, ${renderer:-?}, $runs interleaved runs, medians of glmark2's frame time (ms)"
if command -v column >/dev/null 2>&1; then
    column -t -s, "$tmp/summary.csv" | sed 's/^/  /'
else
    sed 's/,/  /g; s/^/  /' "$tmp/summary.csv"
fi
[ -z "$statline" ] || echo "overhead: $statline"
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/overhead-$tag.png"
    nratio=0; plotcmd=""
    for c in $configs; do
        [ "$c" = none ] && continue
        nratio=$((nratio + 1))
        plotcmd="$plotcmd${plotcmd:+, }'$tmp/bars.dat' using $((nratio + 2)):xtic(2) title '$c'"
    done
    nconf=$(echo $configs | wc -w)
    awk -F, -v first=$((nconf + 2)) -v n=$nratio 'NR > 1 {
        printf "%d \"%s\"", NR - 1, $1; for (i = first; i < first + n; i++) printf " %s", $i; print "" }' \
        "$tmp/summary.csv" >"$tmp/bars.dat"
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
plot $plotcmd
GP
    echo "overhead: $csv, $png"
else
    echo "overhead: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
