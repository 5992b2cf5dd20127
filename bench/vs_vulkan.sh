#!/bin/sh
# vs_vulkan.sh [OUTDIR]               the chain (below)
# vs_vulkan.sh --per-effect [OUTDIR]  the effect cost of each effect alone, as process CPU
#   time per frame (the renderers here are CPU ones, llvmpipe and lavapipe): each program
#   runs FRAMES_LO (40) and FRAMES_HI (240) frames and the slope (cpu_hi - cpu_lo) /
#   (FRAMES_HI - FRAMES_LO) is its CPU time per frame without start-up and compiles;
#   effect cost = slope with the effect - slope without. Sides: Vulkan (vkcube +
#   vkBasalt, which compiles uniforms as specialisation constants) and fxgl (fxgl-demo)
#   in each of GL_MODES (default "default nospec perf"): fxgl's default (specialised
#   programs, editable), FXGL_SPECIALISE=0 (the editable programs only: the default
#   before), FXGL_PERFORMANCE_MODE=1; also rgba8: FXGL_NATIVE_COPY=0 (the copy in as
#   an RGBA8 blit, as before docs/runtime.md "The copy in"); shaderexact:
#   FXGL_EXACT_RASTER=0 (exact texcoords computed in the pixel shader on llvmpipe too, as
#   before docs/runtime.md "Exact fullscreen varyings"). EFFECTS: names of NAME.fx
#   files in SHADERS or data/shaders (default: data/shaders and fxgl_Vibrance
#   fxgl_Tonemap fxgl_Vignette), each run alone
#   with its default values on both sides; SHADERS is copied beside data/shaders'
#   ReShade.fxh/ReShadeUI.fxh into one include directory (vkBasalt takes one). RUNS (3)
#   interleaved runs, medians. Prints per effect and side the median effect ms per frame
#   and fxgl / vkBasalt; writes OUTDIR/vs_vulkan_per_effect-<drivers>.csv.
#   The figures of bench/RESULTS.md §4 are SweetFX's effects:
#     SHADERS=<SweetFX>/Shaders/SweetFX EFFECTS="LumaSharpen Vibrance Tonemap Vignette
#     Curves" sh bench/vs_vulkan.sh --per-effect
#
# vs_vulkan.sh [OUTDIR] - fxgl's GL path against the Vulkan path:
# the same chain of eight built-in effects (data/shaders, default values on
# both sides) run
#   - by fxgl, preloaded into a GL program (fxgl-demo), and
#   - by vkBasalt (Debian: vkbasalt), a Vulkan layer, on a Vulkan program
#     (vkcube, Debian: vulkan-tools),
# both under Xvfb at the same size for the same number of frames, on
# whatever the drivers are (llvmpipe and lavapipe here).
# Per run and side: median frame time (swap to swap, warm-up frames
# dropped) with the chain and without it; effect time = with - without.
# Per frame effect draw calls: fxgl's own counters (FXGL_STATS); on the
# Vulkan side Mesa's overlay layer (VK_LAYER_MESA_overlay, in
# mesa-vulkan-drivers), enabled below vkBasalt with its HUD off, counts the
# draws and dispatches submitted each frame; effect draws = with - without
# (vkcube draws 1). The overlay also gives the Vulkan frame time
# (frame_timing), and FXGL_STATS gives fxgl's (frame_ms), both measured
# once per present. The four configurations are interleaved per run (RUNS,
# default 3); min/median/max over runs. The two programs differ (scene,
# API, WSI path, driver): only the differences with/without are compared,
# and even those include each path's copies and synchronisation, not just
# the effect's shaders.
# SIZE (1280x720), FRAMES (200), WARMUP (20), EFFECTS, BUILD (b), DEMO,
# LIBFXGL. Writes OUTDIR (default bench/results)/vs_vulkan-<drivers>.csv
# and .png and prints a table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
per_effect=no
if [ "${1:-}" = --per-effect ]; then
    per_effect=yes
    shift
fi
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build fxgl-demo .libs/libfxgl.so
demo=${DEMO:-$build/fxgl-demo}
lib=${LIBFXGL:-$build/.libs/libfxgl.so}
size=${SIZE:-1280x720}
frames=${FRAMES:-200}
warm=${WARMUP:-20}
runs=${RUNS:-3}
effects=${EFFECTS:-fxgl_Deband fxgl_FXAA fxgl_Tonemap fxgl_Vibrance fxgl_CAS fxgl_Bloom fxgl_Vignette fxgl_FilmGrain}
shaders=$top/data/shaders
w=${size%x*}; h=${size#*x}
missing=""
command -v vkcube >/dev/null 2>&1 || missing="$missing vulkan-tools(vkcube)"
command -v xvfb-run >/dev/null 2>&1 || missing="$missing xvfb"
ls /usr/share/vulkan/implicit_layer.d/ 2>/dev/null | grep -qi basalt || missing="$missing vkbasalt"
ls /usr/share/vulkan/explicit_layer.d/VkLayer_MESA_overlay.json >/dev/null 2>&1 || missing="$missing mesa-vulkan-drivers(VK_LAYER_MESA_overlay)"
[ -z "$missing" ] || { echo "vs_vulkan.sh: missing Debian packages:$missing" >&2; exit 1; }
[ -x "$demo" ] && [ -f "$lib" ] || { echo "vs_vulkan.sh: $demo or $lib not built" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# The chain, once for each side, in the same order.
list=""; techniques=""
for e in $effects; do
    list="$list${list:+:}$e"
    techniques="$techniques${techniques:+,}$e@$e.fx"
done
{
    echo "effects = $list"
    for e in $effects; do echo "$e = $shaders/$e.fx"; done
    echo "reshadeTexturePath = $shaders"
    echo "reshadeIncludePath = $shaders"
} >"$tmp/vkbasalt.conf"
printf 'Techniques=%s\n' "$techniques" >"$tmp/on.ini"
printf 'Techniques=\n' >"$tmp/off.ini"

x() { xvfb-run -a -s "-screen 0 $((w + 64))x$((h + 64))x24 -nolisten tcp" "$@"; }
vk() { # on|off run
    en=0; [ "$1" = on ] && en=1
    ENABLE_VKBASALT=$en VKBASALT_CONFIG_FILE="$tmp/vkbasalt.conf" \
    VK_INSTANCE_LAYERS=VK_LAYER_MESA_overlay \
    VK_LAYER_MESA_OVERLAY_CONFIG="output_file=$tmp/vk-$1-$2.csv,no_display,fps_sampling_period=1,frame_timing,draw,draw_indexed,draw_indirect,draw_indexed_indirect,dispatch,dispatch_indirect" \
        x timeout 600 vkcube --c "$((frames + 1))" --width "$w" --height "$h" >"$tmp/vk-$1-$2.log" 2>&1 || true
}
gl() { # on|off run
    FXGL_PRESET="$tmp/$1.ini" FXGL_EFFECT_PATHS="$shaders" FXGL_STATS="$tmp/gl-$1-$2.csv" FXGL_LOG=info \
    LD_PRELOAD="$lib" x timeout 600 "$demo" --frames "$frames" --size "$size" >"$tmp/gl-$1-$2.log" 2>&1 || true
}
med() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# overlay CSV: a header names the columns ("frame_timing(us)", "draw",
# "draw_indexed", "dispatch", ...), in the layer's own order: found by
# name. A row covers one sampling period (1 ms, the shortest the layer
# takes) and sums the counts of the frames presented in it: one frame when
# frames take longer than 1 ms (always the case here on lavapipe at these
# sizes), more when they are shorter. So the per-frame count is the most
# frequent row value (the mode), which is the one-frame rows' value as long
# as most rows hold one frame; the table also gives the share of rows that
# agree. Rows before WARMUP frames are dropped.
vk_rows() { # file columns... : per row, the named columns summed
    f=$1; shift
    awk -F', *' -v s="$warm" -v names="$*" 'NR == 1 {n = split(names, want, " "); for (i = 1; i <= NF; i++) for (k = 1; k <= n; k++) if ($i == want[k]) use[i] = 1; next}
        NR > 1 + s {t = 0; for (i in use) t += $i; print t}' "$f"
}
mode() { sort -n | uniq -c | sort -k1,1nr -k2,2n | awk 'NR == 1 {m = $2; c = $1} {t += $1} END {if (t) printf "%s %.0f\n", m, 100 * c / t; else print "nan 0"}'; }
vk_frame() { awk -F', *' -v s="$warm" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "frame_timing(us)") c = i; next} NR > 1 + s {print $c / 1000}' "$1" | med; }
vk_draws() { vk_rows "$1" draw draw_indexed draw_indirect draw_indexed_indirect | mode; }
vk_disp() { vk_rows "$1" dispatch dispatch_indirect | mode; }
gl_col() { awk -F, -v c="$2" -v s="$warm" 'NR > 1 + s && $1 !~ /^#/ {print $c}' "$1" | med; }

if [ "$per_effect" = yes ]; then
    src=${SHADERS:-$shaders}
    if [ -n "${SHADERS:-}" ]; then
        effects=${EFFECTS:-LumaSharpen Vibrance Tonemap Vignette Curves}
    else
        effects=${EFFECTS:-fxgl_Vibrance fxgl_Tonemap fxgl_Vignette}
    fi
    lo=${FRAMES_LO:-40}; hi=${FRAMES_HI:-240}
    modes=${GL_MODES:-default nospec perf}
    inc=$tmp/shaders
    mkdir -p "$inc"
    cp "$shaders/ReShade.fxh" "$shaders/ReShadeUI.fxh" "$inc/"
    for e in $effects; do
        from=$src
        [ -f "$from/$e.fx" ] || from=$shaders # the built-ins (fxgl_Passthrough) beside SHADERS
        [ -f "$from/$e.fx" ] || { echo "vs_vulkan.sh: no $src/$e.fx" >&2; exit 1; }
        cp "$from/$e.fx" "$inc/"
        # The technique of the same name, as the built-ins and SweetFX's are named.
        grep -q "^technique  *$e\b" "$inc/$e.fx" || { echo "vs_vulkan.sh: $e.fx has no technique $e" >&2; exit 1; }
        printf 'effects = %s\n%s = %s/%s.fx\nreshadeTexturePath = %s\nreshadeIncludePath = %s\n' \
            "$e" "$e" "$inc" "$e" "$inc" "$inc" >"$tmp/vk-$e.conf"
        printf 'Techniques=%s@%s.fx\n' "$e" "$e" >"$tmp/gl-$e.ini"
    done
    printf 'Techniques=\n' >"$tmp/gl-off.ini"
    # CPU time (ms) of one program run: user + system of the child, every thread.
    # The program's own output goes to the log, not into the figure.
    cpu() { perl -e 'open(my $o, ">&", \*STDOUT) or die; open(STDOUT, ">>", shift) or die; system(@ARGV) == 0 or exit 1; my @t = times; printf $o "%.1f\n", ($t[2] + $t[3]) * 1000' -- "$tmp/log" "$@"; }
    # side effect mode frames -> CPU ms (everything runs on the display of the caller)
    one() {
        if [ "$1" = vk ]; then
            en=1; conf="$tmp/vk-$2.conf"
            [ "$2" = off ] && { en=0; conf="$tmp/vk-$(set -- $effects; echo "$1").conf"; }
            cpu env ENABLE_VKBASALT=$en VKBASALT_CONFIG_FILE="$conf" \
                timeout 600 vkcube --c "$4" --width "$w" --height "$h" 2>>"$tmp/log"
        else
            case $3 in
            nospec) env="FXGL_SPECIALISE=0" ;;
            perf) env="FXGL_PERFORMANCE_MODE=1" ;;
            rgba8) env="FXGL_NATIVE_COPY=0" ;;
            shaderexact) env="FXGL_EXACT_RASTER=0" ;;
            *) env="FXGL_SPECIALISE=1" ;;
            esac
            cpu env $env FXGL_PRESET="$tmp/gl-$2.ini" FXGL_EFFECT_PATHS="$inc" FXGL_LOG=warn \
                LD_PRELOAD="$lib" timeout 600 "$demo" --frames "$4" --size "$size" 2>>"$tmp/log"
        fi
    }
    slope() { a=$(one "$@" "$lo"); b=$(one "$@" "$hi"); awk -v a="$a" -v b="$b" -v n=$((hi - lo)) 'BEGIN {printf "%.3f\n", (b - a) / n}'; }
    if [ -z "${VS_VULKAN_INNER:-}" ]; then
        # One Xvfb for the whole measurement: its own CPU time is not the programs'.
        VS_VULKAN_INNER=1 xvfb-run -a -s "-screen 0 $((w + 64))x$((h + 64))x24 -nolisten tcp" \
            sh "$0" --per-effect "$out"
        exit $?
    fi
    echo "run,effect,side,slope_on_ms,slope_off_ms,effect_ms" >"$tmp/pe.csv"
    r=1
    while [ "$r" -le "$runs" ]; do
        vo=$(slope vk off -); go=$(slope gl off default)
        for e in $effects; do
            v=$(slope vk "$e" -)
            echo "$r,$e,vkbasalt,$v,$vo,$(awk -v a="$v" -v b="$vo" 'BEGIN {printf "%.3f", a - b}')" >>"$tmp/pe.csv"
            for m in $modes; do
                g=$(slope gl "$e" "$m")
                echo "$r,$e,fxgl-$m,$g,$go,$(awk -v a="$g" -v b="$go" 'BEGIN {printf "%.3f", a - b}')" >>"$tmp/pe.csv"
            done
        done
        r=$((r + 1))
    done
    gldev=$(glxinfo -B 2>/dev/null | sed -n 's/.*OpenGL renderer string: //p' | head -1)
    tag=$(printf '%s' "${gldev:-gl}" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-30)
    csv="$out/vs_vulkan_per_effect-$tag.csv"
    {
        echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size, CPU time slope $lo->$hi frames, $runs runs, GL: ${gldev:-?}; load $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "# SHADERS=$src EFFECTS=$effects GL_MODES=$modes"
        cat "$tmp/pe.csv"
    } >"$csv"
    echo "vs_vulkan --per-effect: $size, process CPU ms per frame (slope $lo->$hi frames), median of $runs runs; GL ${gldev:-?}"
    printf '  %-14s %10s' effect vkbasalt
    for m in $modes; do printf ' %12s %8s' "fxgl-$m" ratio; done
    echo
    for e in $effects; do
        vk=$(awk -F, -v e="$e" '$2 == e && $3 == "vkbasalt" {print $6}' "$tmp/pe.csv" | med)
        printf '  %-14s %10.2f' "$e" "$vk"
        for m in $modes; do
            g=$(awk -F, -v e="$e" -v s="fxgl-$m" '$2 == e && $3 == s {print $6}' "$tmp/pe.csv" | med)
            printf ' %12.2f %8.2f' "$g" "$(awk -v a="$g" -v b="$vk" 'BEGIN {print b != 0 ? a / b : 0}')"
        done
        echo
    done
    echo "vs_vulkan --per-effect: $csv"
    exit 0
fi

echo "run,vk_off_ms,vk_on_ms,vk_effect_ms,vk_effect_draws,vk_rows_agreeing_pct_on/off,vk_effect_dispatches,gl_off_ms,gl_on_ms,gl_effect_ms,gl_effect_draws,gl_effect_dispatches,gl_effect_gpu_ms,ratio_gl_over_vk" >"$tmp/runs.csv"
r=1
while [ "$r" -le "$runs" ]; do
    vk off "$r"; gl off "$r"; vk on "$r"; gl on "$r"
    for f in vk-off vk-on gl-off gl-on; do
        [ -s "$tmp/$f-$r.csv" ] || { echo "vs_vulkan.sh: no statistics from the $f run $r:" >&2; tail -5 "$tmp/$f-$r.log" >&2; exit 1; }
    done
    grep -q "loaded, on" "$tmp/gl-on-$r.log" || { echo "vs_vulkan.sh: fxgl ran no effect" >&2; grep fxgl "$tmp/gl-on-$r.log" | head >&2; exit 1; }
    vo=$(vk_frame "$tmp/vk-off-$r.csv"); vn=$(vk_frame "$tmp/vk-on-$r.csv")
    set -- $(vk_draws "$tmp/vk-on-$r.csv") $(vk_draws "$tmp/vk-off-$r.csv")
    vd=$(awk -v a="$1" -v b="$3" 'BEGIN {print a - b}'); agree="$2/$4"
    set -- $(vk_disp "$tmp/vk-on-$r.csv") $(vk_disp "$tmp/vk-off-$r.csv")
    vx=$(awk -v a="$1" -v b="$3" 'BEGIN {print a - b}')
    go=$(gl_col "$tmp/gl-off-$r.csv" 2); gn=$(gl_col "$tmp/gl-on-$r.csv" 2)
    gd=$(gl_col "$tmp/gl-on-$r.csv" 5); gx=$(gl_col "$tmp/gl-on-$r.csv" 6); gg=$(gl_col "$tmp/gl-on-$r.csv" 4)
    awk -v r="$r" -v vo="$vo" -v vn="$vn" -v vd="$vd" -v ag="$agree" -v vx="$vx" -v go="$go" -v gn="$gn" -v gd="$gd" -v gx="$gx" -v gg="$gg" \
        'BEGIN {ve = vn - vo; ge = gn - go; printf "%d,%.3f,%.3f,%.3f,%s,%s,%s,%.3f,%.3f,%.3f,%d,%d,%.3f,%.3f\n", r, vo, vn, ve, vd, ag, vx, go, gn, ge, gd, gx, gg, ve != 0 ? ge / ve : 0}' >>"$tmp/runs.csv"
    r=$((r + 1))
done
vkdev=$(grep -m1 -i "Selected GPU" "$tmp/vk-off-1.log" | sed 's/.*: \([^,]*\),.*/\1/')
gldev=$(sed -n "s/.*first frame: .*, '\(.*\)', [0-9]*x[0-9]*/\1/p" "$tmp/gl-on-1.log" | head -1)
tag=$(printf '%s' "${gldev:-gl}" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-30)
csv="$out/vs_vulkan-$tag.csv"
{
    echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size, $frames frames ($warm warm-up dropped), GL: ${gldev:-?}, Vulkan: ${vkdev:-?}; load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# effects: $effects"
    cat "$tmp/runs.csv"
} >"$csv"
echo "vs_vulkan: $size, $frames frames, $runs interleaved runs; GL ${gldev:-?} (fxgl-demo + fxgl), Vulkan ${vkdev:-?} (vkcube + vkBasalt)"
echo "effects: $effects"
column -t -s, "$tmp/runs.csv" | sed 's/^/  /'
awk -F, 'NR > 1 {for (c = 2; c <= 14; c++) v[c, NR - 1] = $c; n = NR - 1; if (NR == 2) for (c = 2; c <= 14; c++) name[c] = h[c]} NR == 1 {for (c = 2; c <= 14; c++) h[c] = $c}
END {
    printf "  %-22s %10s %10s %10s\n", "over runs", "min", "median", "max"
    split("4 5 7 10 11 12 13 14", cols, " ")
    for (k = 1; k <= 8; k++) {
        c = cols[k]
        for (i = 1; i <= n; i++) a[i] = v[c, i]
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        printf "  %-22s %10.3f %10.3f %10.3f\n", name[c], a[1], n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[n]
    }
}' "$tmp/runs.csv"
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/vs_vulkan-$tag.png"
    gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output '$png'
set title 'effect time (frame time with chain - without), per run, $size'
set datafile separator ','
set style data histograms
set style histogram clustered
set style fill solid 0.6
set grid ytics
set ylabel 'ms per frame'
set xlabel 'run'
plot '$tmp/runs.csv' using 4:xtic(1) title 'Vulkan (vkBasalt, vkcube)', '' using 10 title 'GL (fxgl, fxgl-demo)'
GP
    echo "vs_vulkan: $csv, $png"
else
    echo "vs_vulkan: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
