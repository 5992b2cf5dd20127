#!/bin/sh
# h200.sh - the GL benchmarks on the GPU machine, headless through EGL (no
# X server), from prebuilt binaries carried there.
#
# Here, once:   sh bench/h200.sh --pack .benchbin BUILD
#   copies what the runs need from the build tree BUILD (bench/sweep,
#   bench/state_cost, fxgl-render, fxc, tests/effects/fxgl-effect,
#   tests/gl/test_compute, the generated textures, libinih, libsubunit) into .benchbin (add it to .git/info/exclude
#   and carry it), and records BUILD's source path (fxgl-effect has it
#   compiled in).
# There:        sh bench/h200.sh OUTDIR     (with .gl unpacked, see
#   /work/.library/device/README.md; BIN=.benchbin by default)
#   runs sweep.sh (FRAMES 200), breakdown.sh (1920x1080, FRAMES 200),
#   effects.sh (1920x1080, 60 frames) and state_cost, with
#   FXGL_TEST_EGL_PLATFORM=device, and leaves their text output, CSVs and
#   one tarball (h200.tgz) in OUTDIR. Plots: bench/plot.sh on the CSVs back
#   here (the GPU machine has no gnuplot).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --pack ]; then
    dst=$2; build=$(cd "$3" && pwd)
    mkdir -p "$dst/bench" "$dst/tests/effects" "$dst/tests/gl" "$dst/data" "$dst/lib"
    make -C "$build" -s bench/sweep bench/state_cost bench/overlay_cost fxgl-render fxc \
        tests/effects/fxgl-effect tests/gl/test_compute >/dev/null
    cp "$build/bench/sweep" "$build/bench/state_cost" "$build/bench/overlay_cost" "$dst/bench/"
    # The editing overlay's face, for bench/overlay_cost there (FXGL_FONT).
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$dst/data/" 2>/dev/null || true
    cp "$build/fxgl-render" "$build/fxc" "$dst/"
    # The Vulkan path's tool and the image comparison, for bench/vs_graph.sh
    # (BUILD=.benchbin there); fxgl-vkrender needs Vulkan's loader (.gl).
    if make -C "$build" -s fxgl-vkrender tools/fxgl-imgdiff >/dev/null 2>&1; then
        mkdir -p "$dst/tools"
        cp "$build/fxgl-vkrender" "$dst/"
        cp "$build/tools/fxgl-imgdiff" "$dst/tools/"
    fi
    cp "$build/tests/effects/fxgl-effect" "$dst/tests/effects/"
    # Compute passes against fragment passes, pixel for pixel, on the GPU's driver.
    cp "$build/tests/gl/test_compute" "$dst/tests/gl/"
    [ -d "$build/data/textures" ] && cp -r "$build/data/textures" "$dst/data/"
    for l in $(ldd "$build/fxgl-render" "$build/tests/gl/test_compute" |
               awk '/libinih|libsubunit/ {print $3}' | sort -u); do cp "$l" "$dst/lib/"; done
    (cd "$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")" && pwd) >"$dst/srcdir"
    du -sh "$dst"
    exit 0
fi
out=${1:-$top/bench/results}
bin=$(cd "${BIN:-$top/.benchbin}" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export FXGL_TEST_EGL_PLATFORM=${FXGL_TEST_EGL_PLATFORM:-device}
export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nv=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$nv" ] && [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$nv"
# fxgl-effect looks for data/shaders at the source path it was built from.
src=$(cat "$bin/srcdir" 2>/dev/null || true)
if [ -n "$src" ] && [ ! -d "$src/data/shaders" ]; then
    mkdir -p "$(dirname "$src")" && ln -sfn "$top" "$src"
fi
{ nvidia-smi -L 2>/dev/null || true; echo "cpus: $(nproc)"; uname -srm; date -u; } >"$out/env.txt"
"$bin/bench/sweep" --size 64x36 --frames 3 --passes 1,2 >"$out/smoke.txt" 2>&1 || true
sed -n '2p' "$out/smoke.txt"
SWEEP="$bin/bench/sweep" FRAMES=${FRAMES:-200} sh "$top/bench/sweep.sh" "$out" >"$out/sweep.txt" 2>&1 || true
tail -14 "$out/sweep.txt"
BUILD="$bin" SIZE=${SIZE:-1920x1080} FRAMES=${FRAMES:-200} sh "$top/bench/breakdown.sh" "$out" >"$out/breakdown.txt" 2>&1 || true
cat "$out/breakdown.txt"
# effects.sh writes into bench/results of the tree it runs from: copy back.
NO_X=1 FRAMES=60 sh "$top/bench/effects.sh" "$bin" ${SIZE:-1920x1080} >"$out/effects.txt" 2>&1 || true
cp "$top"/bench/results/effects-${SIZE:-1920x1080}-*NVIDIA* "$out/" 2>/dev/null || true
tail -14 "$out/effects.txt"
"$bin/bench/state_cost" 500 >"$out/state_cost.txt" 2>&1 || true
head -8 "$out/state_cost.txt"
tar czf "$out/h200.tgz" -C "$out" --exclude h200.tgz .
ls "$out"
