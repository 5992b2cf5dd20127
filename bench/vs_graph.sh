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
# sweep's GPU ms. SIZE (640x360), BUILD as the other scripts.
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
    # shellcheck disable=SC2046
    "$build/fxgl-render" --input "$tmp/in.png" --frames "$frames" --output "$tmp/gl-$1.png" \
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

csv=$out/vs_graph-$tag.csv
echo "chain,config,run,draws,dispatches,barrier_cmds,barriers,naive_barrier_cmds,binds,cpu_ms,gpu_ms,psnr_vs_gl" >"$csv"
for c in $chains; do
    r=1
    while [ "$r" -le "$runs" ]; do
        for cfg in gl vk vk-noreorder vk-full vk-naive; do
            case $cfg in
                gl) line=$(run_gl "$c") ;;
                vk) line=$(run_vk "$c") ;;
                vk-noreorder) line=$(run_vk "$c" --no-reorder) ;;
                vk-full) line=$(run_vk "$c" --full-barriers) ;;
                vk-naive) line=$(run_vk "$c" --no-reorder --full-barriers) ;;
            esac
            p=inf
            case $cfg in vk*)
                p=$("$build/tools/fxgl-imgdiff" "$tmp/gl-$c.png" "$tmp"/vk-"$c"*.png 2>/dev/null |
                    sed -n 's/^psnr=\([^	]*\).*/\1/p' | head -1)
                rm -f "$tmp"/vk-"$c"*.png ;;
            esac
            echo "$c,$cfg,$r,$(echo "$line" | tr ' ' ','),${p:-nan}" >>"$csv"
        done
        r=$((r + 1))
    done
done

echo "vs_graph: $device, GL: $(sed -n 's/.* on \(.*\); last frame.*/\1/p' "$tmp/gl.out" 2>/dev/null | head -1)" \
     "$size, $frames frames ($warm warm-up), $runs runs, medians -> $csv"
printf '%-10s %-13s %6s %6s %6s %6s %6s %6s %9s %9s %6s\n' chain config draws disp bcmds barr naive binds cpu_ms gpu_ms psnr
for c in $chains; do
    for cfg in gl vk vk-noreorder vk-full vk-naive; do
        awk -F, -v c="$c" -v k="$cfg" '$1 == c && $2 == k' "$csv" >"$tmp/rows"
        m() { cut -d, -f"$1" "$tmp/rows" | med; }
        printf '%-10s %-13s %6s %6s %6s %6s %6s %6s %9.3f %9.3f %6s\n' "$c" "$cfg" "$(m 4)" "$(m 5)" \
            "$(m 6)" "$(m 7)" "$(m 8)" "$(m 9)" "$(m 10)" "$(m 11)" "$(cut -d, -f12 "$tmp/rows" | head -1)"
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
