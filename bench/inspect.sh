#!/bin/sh
# bench/inspect.sh - the statistics overlay's cost per frame (docs/inspect.md).
#
#   sh bench/inspect.sh [builddir] [frames]
#
# Runs bench/inspect_cost (built by `make check` or `make bench/inspect_cost`)
# at 1280x720 and 1920x1080 on GL 4.5 and GLES 3.2 through headless EGL and
# prints its tables. Set EGL_PLATFORM / __EGL_VENDOR_LIBRARY_FILENAMES to pick
# a driver; on Mesa llvmpipe the GPU column is the software rasterizer's time.
set -eu
build=${1:-b}
frames=${2:-300}
bin=$build/bench/inspect_cost
[ -x "$bin" ] || { echo "bench/inspect.sh: $bin not built (make -C $build bench/inspect_cost)" >&2; exit 2; }
for size in "1280 720" "1920 1080"; do
    # shellcheck disable=SC2086
    "$bin" "$frames" $size
done
