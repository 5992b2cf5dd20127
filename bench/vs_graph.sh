#!/bin/sh
# vs_graph.sh [OUTDIR] - fxgl's immediate GL path against the Vulkan render
# graph (src/vk) on identical effect chains: the same compiled modules, the
# same image, size and frame times, through fxgl-render (GL) and
# fxgl-vkrender (Vulkan) in four graph configurations:
#   vk            reorder on,  precise barriers (the graph as designed)
#   vk-noreorder  record order, precise barriers
#   vk-full       reorder on,  a full barrier at every barrier point
#   vk-naive      record order, full barriers
# Chains: "default" (the techniques data/presets/*.ini enables, in its
# order), "sweep-N" (a generated effect of N fullscreen passes ping-ponging
# two textures, N in PASSES, default 1 2 4 8 16 32) and, when FXGL_CORPUS
# points at the public repositories, "SMAA" and "MXAO" (crosire's).
# Per chain the configurations are interleaved within each of RUNS runs
# (default 3); each run is one process of FRAMES frames (default 30), the
# first WARMUP (5) dropped, its median taken; the table gives the median
# over runs. Columns: draws, dispatches, barrier commands (GL: glMemoryBarrier
# calls; Vulkan: vkCmdPipelineBarrier), barriers inside them, the naive
# per-command count, state binds (GL: framebuffer + texture binds; Vulkan:
# pipeline + descriptor set binds), CPU ms (GL: the runtime's frame call;
# Vulkan: specials + recording, without the wait) and GPU ms (timestamps
# around the frame, each frame waited for). Writes OUTDIR (default
# bench/results)/vs_graph-<device>.csv and, with gnuplot, a plot of the
# sweep's GPU ms. SIZE (640x360), BUILD as the other scripts; GL_COMPUTE
# (0) is FXGL_COMPUTE for the GL rows.
# vkBasalt: where a chain is expressible in vkBasalt (one technique per
# effect file: the built-ins of data/shaders, the sweep's one file, SMAA and
# MXAO), a "vkbasalt" row runs it on vkcube under Xvfb at the same size
# (Debian: vkbasalt, vulkan-tools, xvfb, and mesa-vulkan-drivers for Mesa's
# overlay layer, which counts draws and dispatches and times frames), chain
# on against chain off, each run once per configuration and run number.
# Its figures are effect figures (with - without): draws and dispatches
# (the overlay layer's per-frame counts), CPU ms (process CPU time per frame
# of vkcube, by the slope between VKB_LO (20) and VKB_HI (80) frames, so
# start-up and compiles drop out; on lavapipe this includes rasterising) and
# frame ms (the overlay's frame_timing, median of the VKB_HI run after
# WARMUP frames); "n/a" for what vkBasalt does not expose (barriers, binds,
# GPU timestamps) and for the PSNR (vkcube's scene, not the test image).
# VKBASALT=0 leaves the rows out; missing packages leave them out with a
# message.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build fxgl-render fxgl-vkrender tools/fxgl-imgdiff
[ -x "$build/fxgl-vkrender" ] || { echo "vs_graph.sh: $build/fxgl-vkrender not built (configure found no Vulkan: apt-get install libvulkan-dev)" >&2; exit 1; }
size=${SIZE:-640x360}
frames=${FRAMES:-30}
warm=${WARMUP:-5}
runs=${RUNS:-3}
passes=${PASSES:-1 2 4 8 16 32}
shaders=$top/data/shaders
textures=$build/data/textures
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The input: the test image of fxgl-render (Passthrough leaves it as it is).
"$build/fxgl-render" --size "$size" --frames 1 --output "$tmp/in.png" -I "$shaders" \
    "$shaders/fxgl_Passthrough.fx" >/dev/null 2>&1 ||
    { echo "vs_graph.sh: fxgl-render cannot run here (no EGL?)" >&2; exit 1; }
device=$("$build/fxgl-vkrender" --input "$tmp/in.png" --frames 1 2>&1 | sed -n 's/^fxgl-vkrender: device //p')
[ -n "$device" ] || { echo "vs_graph.sh: no Vulkan device (apt-get install mesa-vulkan-drivers)" >&2; exit 1; }
tag=$(printf '%s' "$device" | tr -c 'A-Za-z0-9.\n' '_')

# --- the chains ---
preset=$(ls "$top"/data/presets/*.ini | head -1)
default_fx=$(sed -n 's/^Techniques=//p' "$preset" | tr ',' '\n' | sed 's/.*@//' | awk '!seen[$0]++' |
    while read -r f; do printf '%s ' "$shaders/$f"; done)
sweep_fx() { # N -> file
    f=$tmp/sweep$1.fx
    {
        echo '#include "ReShade.fxh"'
        echo 'texture SwA { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };'
        echo 'texture SwB { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };'
        echo 'sampler sA { Texture = SwA; }; sampler sB { Texture = SwB; };'
        for s in BackBuffer A B; do
            src=ReShade::BackBuffer; [ "$s" = BackBuffer ] || src=s$s
            echo "float4 From$s(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target"
            echo "{ return tex2D($src, uv) * 0.998 + 0.001; }"
        done
        echo 'technique Sweep {'
        i=1; from=BackBuffer
        while [ "$i" -le "$1" ]; do
            if [ "$i" -eq "$1" ]; then to=""; next=""
            elif [ "$from" = A ]; then to="RenderTarget = SwB;"; next=B
            else to="RenderTarget = SwA;"; next=A; fi
            echo "    pass { VertexShader = PostProcessVS; PixelShader = From$from; $to }"
            from=$next; i=$((i + 1))
        done
        echo '}'
    } >"$f"
    printf '%s' "$f"
}
chains="default"
for n in $passes; do chains="$chains sweep-$n"; done
corpus_dir=""
if [ -n "${FXGL_CORPUS:-}" ]; then
    corpus_dir=$(find "$FXGL_CORPUS" -path '*crosire+reshade-shaders*' -name SMAA.fx 2>/dev/null | head -1)
    corpus_dir=${corpus_dir%/*}
    [ -n "$corpus_dir" ] && chains="$chains SMAA MXAO"
fi
files_of() {
    case $1 in
        default) printf '%s' "$default_fx" ;;
        sweep-*) sweep_fx "${1#sweep-}" ;;
        *) printf '%s' "$corpus_dir/$1.fx" ;;
    esac
}
includes_of() {
    case $1 in SMAA|MXAO) printf -- '-I %s --textures %s' "$corpus_dir" "$corpus_dir" ;;
        *) printf -- '-I %s --textures %s' "$shaders" "$textures" ;; esac
}

med() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# One run of one configuration: a line "draws dispatches bcalls barriers naive binds cpu gpu".
run_gl() { # chain run
    # The GL runtime may run pixel passes as compute (FXGL_COMPUTE=auto, its
    # default, measures each pass in its first frames): the comparison is of
    # the immediate fragment path with the graph's draws, so off unless
    # GL_COMPUTE says otherwise.
    # shellcheck disable=SC2046
    FXGL_COMPUTE=${GL_COMPUTE:-0} "$build/fxgl-render" --input "$tmp/in.png" --frames "$frames" --output "$tmp/gl-$1.png" \
        --report "$tmp/r.json" --timings "$tmp/t.csv" $(includes_of "$1") $(files_of "$1") \
        >"$tmp/gl.out" 2>"$tmp/gl.err" || { echo "nan nan nan nan nan nan nan nan"; return; }
    lf=$(grep -o '"last_frame": {[^}]*}' "$tmp/r.json")
    num() { printf '%s' "$lf" | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
    cpu=$(awk -F, -v w="$warm" '$2 == "cpu" && $1 >= w {print $5}' "$tmp/t.csv" | med)
    gpu=$(awk -F, -v w="$warm" '$2 == "frame" && $1 >= w {print $5}' "$tmp/t.csv" | med)
    passes_run=$(num passes_run)
    echo "$(num draw_calls) $(num dispatches) $(num barriers) $(num barriers) $passes_run" \
         "$(( $(num framebuffer_binds) + $(num texture_binds) ))" "$cpu" "$gpu"
}
run_vk() { # chain run switches...
    c=$1; shift
    # shellcheck disable=SC2046
    "$build/fxgl-vkrender" --input "$tmp/in.png" --frames "$frames" --output "$tmp/vk-$c$*.png" \
        --timestamps --stats "$tmp/s.csv" "$@" $(includes_of "$c") $(files_of "$c") \
        >/dev/null 2>"$tmp/vk.err" || { echo "nan nan nan nan nan nan nan nan"; return; }
    awk -F, -v w="$warm" 'NR > 1 && $1 >= w' "$tmp/s.csv" >"$tmp/s.rows"
    col() { cut -d, -f"$1" "$tmp/s.rows" | med; }
    echo "$(col 11) $(col 12) $(col 8) $(col 9) $(col 10) $(( $(col 13) + $(col 14) ))" \
         "$(col 19) $(col 20)"
}

# --- vkBasalt on vkcube (same chains where expressible, same size) ---
vkb=${VKBASALT:-1}
vkb_lo=${VKB_LO:-20}; vkb_hi=${VKB_HI:-80}
w=${size%x*}; h=${size#*x}
if [ "$vkb" = 1 ]; then
    missing=""
    command -v vkcube >/dev/null 2>&1 || missing="$missing vulkan-tools(vkcube)"
    command -v xvfb-run >/dev/null 2>&1 || missing="$missing xvfb"
    command -v perl >/dev/null 2>&1 || missing="$missing perl"
    ls /usr/share/vulkan/implicit_layer.d/ 2>/dev/null | grep -qi basalt || missing="$missing vkbasalt"
    [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_MESA_overlay.json ] ||
        missing="$missing mesa-vulkan-drivers(VK_LAYER_MESA_overlay)"
    if [ -n "$missing" ]; then
        echo "vs_graph.sh: no vkBasalt rows: missing Debian packages:$missing" >&2
        vkb=0
    fi
fi
# vkb_conf CHAIN: writes $tmp/vkb-CHAIN.conf, or fails when vkBasalt cannot
# express the chain (a file with other than one technique: vkBasalt runs one
# technique per effect file, and the GL and graph rows run them all).
vkb_conf() {
    files=$(files_of "$1")
    case $1 in SMAA|MXAO) inc=$corpus_dir ;; *) inc=$shaders ;; esac
    names=""
    : >"$tmp/vkb-$1.body"
    for f in $files; do
        [ "$(grep -c '^technique' "$f")" -eq 1 ] || return 1
        n=$(basename "$f" .fx | tr -c 'A-Za-z0-9_\n' '_')
        names="$names${names:+:}$n"
        echo "$n = $f" >>"$tmp/vkb-$1.body"
    done
    { echo "effects = $names"; cat "$tmp/vkb-$1.body"
      echo "reshadeTexturePath = $inc"; echo "reshadeIncludePath = $inc"; } >"$tmp/vkb-$1.conf"
}
# vkb_run CONF ON FRAMES TAG: vkcube under its own Xvfb; prints the CPU ms
# (user + system, every thread) of vkcube alone (perl's child; Xvfb is not
# one) and leaves the overlay layer's CSV in $tmp/vkb-TAG.csv.
vkb_run() {
    rm -f "$tmp/vkb-$4.csv"
    ENABLE_VKBASALT=$2 VKBASALT_CONFIG_FILE=$1 VK_INSTANCE_LAYERS=VK_LAYER_MESA_overlay \
    VK_LAYER_MESA_OVERLAY_CONFIG="output_file=$tmp/vkb-$4.csv,no_display,fps_sampling_period=1,frame_timing,draw,draw_indexed,draw_indirect,draw_indexed_indirect,dispatch,dispatch_indirect" \
        xvfb-run -a -s "-screen 0 $((w + 64))x$((h + 64))x24 -nolisten tcp" \
        perl -e 'open(STDOUT, ">>", shift) or die; open(STDERR, ">&", \*STDOUT); system(@ARGV) == 0 or exit 1; my @t = times; printf STDERR "cpu %.1f\n", ($t[2] + $t[3]) * 1000' \
        -- "$tmp/vkb-$4.log" timeout 600 vkcube --c "$3" --width "$w" --height "$h" 2>/dev/null || true
    sed -n 's/^cpu //p' "$tmp/vkb-$4.log" | tail -1
    : >"$tmp/vkb-$4.log"
}
# The overlay CSV: columns found by name; one row per 1 ms sampling period
# holds one frame's counts when frames take longer than that (see
# vs_vulkan.sh), so a frame's count is the most frequent row value.
vkb_count() { # tag columns...
    f=$tmp/vkb-$1.csv; shift
    [ -s "$f" ] || { echo nan; return; }
    awk -F', *' -v s="$warm" -v names="$*" 'NR == 1 {n = split(names, want, " "); for (i = 1; i <= NF; i++) for (k = 1; k <= n; k++) if ($i == want[k]) use[i] = 1; next}
        NR > 1 + s {t = 0; for (i in use) t += $i; print t}' "$f" |
        sort -n | uniq -c | sort -k1,1nr -k2,2n | awk 'NR == 1 {print $2} END {if (NR == 0) print "nan"}'
}
vkb_frame() { # tag -> median frame ms
    f=$tmp/vkb-$1.csv
    [ -s "$f" ] || { echo nan; return; }
    awk -F', *' -v s="$warm" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "frame_timing(us)") c = i; next} NR > 1 + s {print $c / 1000}' "$f" | med
}
# vkb_measure CONF ON TAG: "cpu_slope draws dispatches frame_ms"
vkb_measure() {
    a=$(vkb_run "$1" "$2" "$vkb_lo" "$3-lo"); b=$(vkb_run "$1" "$2" "$vkb_hi" "$3")
    echo "$(awk -v a="$a" -v b="$b" -v n=$((vkb_hi - vkb_lo)) 'BEGIN {if (a == "" || b == "") print "nan"; else printf "%.3f\n", (b - a) / n}')" \
         "$(vkb_count "$3" draw draw_indexed draw_indirect draw_indexed_indirect)" \
         "$(vkb_count "$3" dispatch dispatch_indirect)" "$(vkb_frame "$3")"
}
# One vkBasalt row of one chain and run: the effect figures against the
# run's chain-off baseline ($vkb_off); "draws disp bcmds barr naive binds cpu gpu" + frame.
run_vkb() { # chain run
    vkb_conf "$1" || { echo "n/a n/a n/a n/a n/a n/a n/a n/a n/a"; return; }
    set -- $(vkb_measure "$tmp/vkb-$1.conf" 1 "on-$1-$2") $vkb_off
    awk -v c="$1" -v d="$2" -v x="$3" -v f="$4" -v c0="$5" -v d0="$6" -v x0="$7" -v f0="$8" 'BEGIN {
        if (d == "nan" || d0 == "nan" || d - d0 <= 0) { print "nan nan n/a n/a n/a n/a nan n/a nan"; exit }
        printf "%d %d n/a n/a n/a n/a %.3f n/a %.3f\n", d - d0, x - x0, c - c0, f - f0 }'
}

csv=$out/vs_graph-$tag.csv
echo "chain,config,run,draws,dispatches,barrier_cmds,barriers,naive_barrier_cmds,binds,cpu_ms,gpu_ms,psnr_vs_gl,frame_ms" >"$csv"
configs="gl vk vk-noreorder vk-full vk-naive"
[ "$vkb" = 1 ] && configs="$configs vkbasalt"
# vkcube without the chain, once per run number (the baseline of every chain's row).
if [ "$vkb" = 1 ]; then
    printf 'effects = none\n' >"$tmp/vkb-off.conf"
    r=1
    while [ "$r" -le "$runs" ]; do
        vkb_measure "$tmp/vkb-off.conf" 0 "off-$r" >"$tmp/vkb-off-$r"
        r=$((r + 1))
    done
fi
for c in $chains; do
    r=1
    while [ "$r" -le "$runs" ]; do
        [ "$vkb" = 1 ] && vkb_off=$(cat "$tmp/vkb-off-$r")
        for cfg in $configs; do
            case $cfg in
                gl) line=$(run_gl "$c") ;;
                vk) line=$(run_vk "$c") ;;
                vk-noreorder) line=$(run_vk "$c" --no-reorder) ;;
                vk-full) line=$(run_vk "$c" --full-barriers) ;;
                vk-naive) line=$(run_vk "$c" --no-reorder --full-barriers) ;;
                vkbasalt) line=$(run_vkb "$c" "$r") ;;
            esac
            p=inf; frame=n/a
            case $cfg in
            vkbasalt)
                p=n/a; frame=${line##* }; line=${line% *} ;;
            vk*)
                p=$("$build/tools/fxgl-imgdiff" "$tmp/gl-$c.png" "$tmp"/vk-"$c"*.png 2>/dev/null |
                    sed -n 's/^psnr=\([^	]*\).*/\1/p' | head -1)
                rm -f "$tmp"/vk-"$c"*.png ;;
            esac
            echo "$c,$cfg,$r,$(echo "$line" | tr ' ' ','),${p:-nan},$frame" >>"$csv"
        done
        r=$((r + 1))
    done
done

echo "vs_graph: $device, GL: $(sed -n 's/.* on \(.*\); last frame.*/\1/p' "$tmp/gl.out" 2>/dev/null | head -1)" \
     "$size, $frames frames ($warm warm-up), $runs runs, medians -> $csv"
printf '%-10s %-13s %6s %6s %6s %6s %6s %6s %9s %9s %6s %9s\n' chain config draws disp bcmds barr naive binds cpu_ms gpu_ms psnr frame_ms
for c in $chains; do
    for cfg in $configs; do
        awk -F, -v c="$c" -v k="$cfg" '$1 == c && $2 == k' "$csv" >"$tmp/rows"
        # The median of a column; n/a where the configuration does not expose it.
        m() { if cut -d, -f"$1" "$tmp/rows" | grep -q 'n/a'; then echo n/a; else cut -d, -f"$1" "$tmp/rows" | med; fi; }
        ms() { v=$(m "$1"); case $v in n/a|nan) echo "$v" ;; *) printf '%.3f' "$v" ;; esac; }
        printf '%-10s %-13s %6s %6s %6s %6s %6s %6s %9s %9s %6s %9s\n' "$c" "$cfg" "$(m 4)" "$(m 5)" \
            "$(m 6)" "$(m 7)" "$(m 8)" "$(m 9)" "$(ms 10)" "$(ms 11)" "$(cut -d, -f12 "$tmp/rows" | head -1)" "$(ms 13)"
    done
done
if command -v gnuplot >/dev/null 2>&1; then
    for cfg in gl vk vk-noreorder vk-full vk-naive; do
        for n in $passes; do
            awk -F, -v c="sweep-$n" -v k="$cfg" '$1 == c && $2 == k {print $11}' "$csv" | med |
                sed "s/^/$n /"
        done >"$tmp/plot-$cfg.dat"
    done
    gnuplot <<GP
set terminal pngcairo size 800,500
set output "$out/vs_graph-$tag.png"
set title "GL immediate vs Vulkan graph: N fullscreen passes, $size ($device)"
set xlabel "passes"; set ylabel "GPU ms per frame (median)"; set logscale x 2; set key left top
plot "$tmp/plot-gl.dat" w lp t "GL (fxgl-render)", "$tmp/plot-vk.dat" w lp t "Vulkan graph", \
     "$tmp/plot-vk-noreorder.dat" w lp t "Vulkan, no reorder", "$tmp/plot-vk-full.dat" w lp t "Vulkan, full barriers", \
     "$tmp/plot-vk-naive.dat" w lp t "Vulkan, no reorder + full barriers"
GP
    echo "plot: $out/vs_graph-$tag.png"
fi
