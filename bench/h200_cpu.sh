#!/bin/sh
# h200_cpu.sh - bench/vs_vulkan.sh --per-effect (fxgl's effect cost against
# vkBasalt's, process CPU time per frame on the CPU renderers: vkcube +
# vkBasalt on lavapipe, fxgl-demo + fxgl on llvmpipe) on the GPU machine's 16
# idle cores instead of the shared 2-core machine (bench/RESULTS.md §4). The
# GPU is not used: Mesa is forced for GLX (__GLX_VENDOR_LIBRARY_NAME=mesa) and
# lavapipe for Vulkan (VK_DRIVER_FILES).
#
# Here, once:  sh bench/h200_cpu.sh --pack DIR BUILD SHADERS
#   bench/h200_x11.sh --pack DIR BUILD with vkbasalt, vulkan-tools,
#   mesa-vulkan-drivers (lavapipe), libglfw3 (fxgl-demo) and mesa-utils-bin
#   (glxinfo) added, python3 left out; then DIR/c: fxgl/ (libfxgl.so,
#   libinih, textures: moved from DIR/b; fxgl-demo, stripped, from BUILD),
#   src/ (this tree's bench/*.sh and data/: the scripts that run there, so the
#   run does not depend on the checkout the device copies) and sweetfx/ (the
#   .fx and .fxh of SHADERS; never commit them). DIR/a and DIR/b as for
#   h200_x11.sh, each under one call's 64 MiB; DIR/c is small and travels in
#   every call. Prints each part's size.
# There:  sh DIR/c/src/bench/h200_cpu.sh --run DIR/c OUTDIR [UNPACK_DIR...]
#   unpacks UNPACK_DIRs (checked: only entries under /usr), starts Xvfb :7 (XDISP),
#   checks that vkcube renders on lavapipe with vkBasalt loaded (the layer's
#   log) and that fxgl-demo renders on llvmpipe with fxgl running the effect
#   (fxgl's log), then runs vs_vulkan.sh --per-effect with RUNS=1, again and
#   again (each run interleaves every configuration) while the next run still
#   fits in BUDGET seconds (default 500) from the start, or MAXRUNS (default 9)
#   runs; writes OUTDIR/cpu_summary.txt (environment, checks, the table of
#   medians), OUTDIR/cpu_runs.csv (every run's rows) and OUTDIR/cpu_logs.tar.gz.
#   EFFECTS, GL_MODES, SIZE, FRAMES_LO, FRAMES_HI pass through to vs_vulkan.sh
#   (defaults here: SweetFX's five, "default perf", 1280x720, 120, 320).
# Here or there:  sh bench/h200_cpu.sh --table CSV...
#   the table of medians over every run in the CSVs (several calls' runs).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

# The median table over the per-run rows (run,effect,side,slope_on,slope_off,effect_ms).
table() {
    awk -F, '$1 ~ /^[0-9]/ {k = $2 SUBSEP $3; n[k]++; v[k, n[k]] = $6; if (!($2 in se)) {se[$2] = 1; eo[++ne] = $2}
            if (!($3 in ss)) {ss[$3] = 1; so[++ns] = $3}; runs[$1 FS FILENAME] = 1}
        function med(k,   m, i, j, t, a) {m = n[k]; if (!m) return "nan"; for (i = 1; i <= m; i++) a[i] = v[k, i]
            for (i = 2; i <= m; i++) {t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t}
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2}
        END {
            for (r in runs) nr++
            printf "effect cost, process CPU ms per frame, median of %d runs (ratio: / vkbasalt)\n", nr
            printf "  %-14s %3s", "effect", "n"; for (s = 1; s <= ns; s++) printf " %12s%s", so[s], so[s] == "vkbasalt" ? "" : "    ratio"; print ""
            for (e = 1; e <= ne; e++) {
                printf "  %-14s %3d", eo[e], n[eo[e] SUBSEP "vkbasalt"]; vk = med(eo[e] SUBSEP "vkbasalt")
                for (s = 1; s <= ns; s++) {x = med(eo[e] SUBSEP so[s]); printf " %12.2f", x
                    if (so[s] != "vkbasalt") printf " %8.2f", vk != 0 ? x / vk : 0}
                print ""
            }
        }' "$@"
}

case "${1:-}" in
--pack)
    dst=$(mkdir -p "$2" && cd "$2" && pwd); build=$(cd "$3" && pwd); shaders=$(cd "$4" && pwd)
    PACK_EXTRA="vkbasalt vulkan-tools mesa-vulkan-drivers libglfw3 mesa-utils-bin libxrandr2 libxinerama1 libxcursor1 libxi6 libxext6 libxrender1 libx11-xcb1" \
    PACK_PRUNE='python3.*|libpython3.*' sh "$top/bench/h200_x11.sh" --pack "$dst" "$build"
    rm -rf "$dst/c" && mkdir -p "$dst/c/src/bench" "$dst/c/sweetfx"
    mv "$dst/b/fxgl" "$dst/c/fxgl"
    strip -o "$dst/c/fxgl/fxgl-demo" "$build/fxgl-demo"
    cp "$top"/bench/*.sh "$dst/c/src/bench/"
    cp -r "$top/data" "$dst/c/src/"
    cp "$shaders"/*.fx "$shaders"/*.fxh "$dst/c/sweetfx/" 2>/dev/null || cp "$shaders"/*.fx "$dst/c/sweetfx/"
    sh "$top/bench/h200_x11.sh" --check "$dst/a" "$dst/b"
    du -sb "$dst/a" "$dst/b" "$dst/c"
    exit 0
    ;;
--table)
    shift
    table "$@"
    exit 0
    ;;
--run)
    ;;
*)
    echo "usage: h200_cpu.sh --pack DIR BUILD SHADERS | --run DIR/c OUTDIR [UNPACK_DIR...] | --table CSV..." >&2
    exit 2
    ;;
esac

c=$(cd "$2" && pwd)
out=$(mkdir -p "$3" && cd "$3" && pwd)
shift 3
t0=$(date +%s)
for d in "$@"; do
    sh "$top/bench/h200_x11.sh" --unpack "$d"
done
# Xvfb writes its compiled keymaps here (x11-xkb-utils' one entry outside /usr).
mkdir -p /var/lib/xkb
work=$(mktemp -d)
log=$work/logs
mkdir -p "$log"
sum=$out/cpu_summary.txt
{
    echo "# h200_cpu.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -srm), $(nproc) cpus"
    grep -m1 'model name' /proc/cpuinfo || true
    echo "load: $(cat /proc/loadavg); LP_NUM_THREADS=${LP_NUM_THREADS:-unset (llvmpipe and lavapipe: one thread per cpu)}"
} >"$sum"

# One X server for the checks and every run (vs_vulkan.sh's VS_VULKAN_INNER:
# the programs run on the caller's display).
size=${SIZE:-1280x720}
w=${size%x*}; h=${size#*x}
dn=${XDISP:-7}
Xvfb :$dn -screen 0 $((w + 64))x$((h + 64))x24 -nolisten tcp >"$log/xvfb.log" 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true; rm -rf "$work"' EXIT
i=0
while [ ! -S /tmp/.X11-unix/X$dn ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
export DISPLAY=:$dn __GLX_VENDOR_LIBRARY_NAME=mesa
# lavapipe only: VK_DRIVER_FILES (loader 1.3.207 and later), VK_ICD_FILENAMES (older).
lvp=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -1)
[ -n "$lvp" ] || { echo "h200_cpu.sh: no lavapipe ICD under /usr/share/vulkan/icd.d" | tee -a "$sum" >&2; exit 1; }
export VK_DRIVER_FILES=$lvp VK_ICD_FILENAMES=$lvp
export LD_LIBRARY_PATH="$c/fxgl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# fxgl's build tree as vs_vulkan.sh reads it (fxgl-demo, .libs/libfxgl.so, data/textures).
bt=$work/build
mkdir -p "$bt/.libs"
cp "$c/fxgl/fxgl-demo" "$bt/"; cp "$c/fxgl/lib/libfxgl.so" "$bt/.libs/"
[ -d "$c/fxgl/data" ] && cp -r "$c/fxgl/data" "$bt/"

# The checks: both programs render on the CPU renderers, with the effect loaded.
fx=$work/fx
mkdir -p "$fx" && cp "$c"/sweetfx/* "$fx/"
# The built-ins too (EFFECTS may name fxgl_Passthrough, the fixed cost of a frame with an effect).
cp "$top"/data/shaders/*.fx "$top"/data/shaders/*.fxh "$fx/"
e1=$(set -- ${EFFECTS:-LumaSharpen}; echo "$1")
printf 'effects = %s\n%s = %s/%s.fx\nreshadeTexturePath = %s\nreshadeIncludePath = %s\n' "$e1" "$e1" "$fx" "$e1" "$fx" "$fx" >"$work/vk.conf"
printf 'Techniques=%s@%s.fx\n' "$e1" "$e1" >"$work/gl.ini"
{
    echo "## checks ($e1)"
    glxinfo -B 2>&1 | grep -E 'OpenGL renderer|OpenGL version' || echo "glxinfo: no GLX renderer"
    ENABLE_VKBASALT=1 VKBASALT_CONFIG_FILE="$work/vk.conf" VKBASALT_LOG_LEVEL=debug \
        timeout 120 vkcube --c 5 --width 320 --height 240 >"$log/check-vkcube.log" 2>&1 &&
        echo "vkcube exit 0" || echo "vkcube exit $?"
    grep -m1 -i 'selected gpu' "$log/check-vkcube.log" || true
    grep -i -E 'vkBasalt (info|debug): +(effects =|created ReshadeEffect|effect string count)' "$log/check-vkcube.log" || true
    FXGL_PRESET="$work/gl.ini" FXGL_EFFECT_PATHS="$fx" FXGL_LOG=info LD_PRELOAD="$bt/.libs/libfxgl.so" \
        timeout 120 "$bt/fxgl-demo" --frames 300 --size 320x240 >"$log/check-fxgl.log" 2>&1 &&
        echo "fxgl-demo exit 0" || echo "fxgl-demo exit $?"
    grep -m1 'first frame' "$log/check-fxgl.log" || true
    grep -m1 'loaded, on' "$log/check-fxgl.log" || true
} >>"$sum" 2>&1
ok=yes
grep -q -i 'selected gpu.*llvmpipe' "$log/check-vkcube.log" || ok=no
grep -q 'created ReshadeEffect' "$log/check-vkcube.log" || ok=no
grep -q "first frame.*llvmpipe" "$log/check-fxgl.log" || ok=no
grep -q 'loaded, on' "$log/check-fxgl.log" || ok=no
if [ "$ok" != yes ]; then
    echo "h200_cpu.sh: a check failed (lavapipe + vkBasalt, llvmpipe + fxgl): see cpu_logs.tar.gz" | tee -a "$sum" >&2
    tar czf "$out/cpu_logs.tar.gz" -C "$work" logs
    cat "$sum"
    exit 1
fi

# The runs, each one vs_vulkan.sh --per-effect with RUNS=1 (all configurations
# interleaved in it), while the next one fits in BUDGET.
budget=${BUDGET:-500}; maxruns=${MAXRUNS:-9}
export SHADERS=$fx EFFECTS="${EFFECTS:-LumaSharpen Vibrance Tonemap Vignette Curves}"
export GL_MODES="${GL_MODES:-default perf}" SIZE=$size FRAMES_LO=${FRAMES_LO:-120} FRAMES_HI=${FRAMES_HI:-320}
export VS_VULKAN_INNER=1 BUILD=$bt RUNS=1
echo "## runs: SHADERS=sweetfx EFFECTS=\"$EFFECTS\" GL_MODES=\"$GL_MODES\" SIZE=$SIZE FRAMES_LO=$FRAMES_LO FRAMES_HI=$FRAMES_HI BUDGET=$budget" >>"$sum"
: >"$out/cpu_runs.csv"
r=0; last=0
while [ "$r" -lt "$maxruns" ]; do
    now=$(date +%s)
    [ "$r" -gt 0 ] && [ $((now - t0 + last + last / 10)) -gt "$budget" ] && break
    r=$((r + 1))
    s=$(date +%s)
    sh "$top/bench/vs_vulkan.sh" --per-effect "$work/r$r" >"$log/run$r.txt" 2>&1 || { echo "run $r failed" >>"$sum"; tail -5 "$log/run$r.txt" >>"$sum"; break; }
    last=$(($(date +%s) - s))
    echo "run $r: ${last} s, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$sum"
    f=$(ls "$work/r$r"/vs_vulkan_per_effect-*.csv | head -1)
    [ "$r" -eq 1 ] && grep '^#' "$f" >>"$out/cpu_runs.csv"
    grep -v -e '^#' -e '^run,' "$f" | sed "s/^1,/$r,/" >>"$out/cpu_runs.csv"
done
cp -r "$work"/r* "$log/" 2>/dev/null || true
table "$out/cpu_runs.csv" >>"$sum"
echo "total: $(($(date +%s) - t0)) s" >>"$sum"
tar czf "$out/cpu_logs.tar.gz" -C "$work" logs
cat "$sum"
