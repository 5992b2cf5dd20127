#!/bin/sh
# bench/overlay.sh - the editing overlay's cost per frame (docs/overlay.md, bench/RESULTS.md).
#
#   sh bench/overlay.sh [builddir] [frames]
#
# 1. bench/overlay_cost at 1920x1080 and 3840x2160 (SIZES="WxH ..." for others) on GL 4.5 and GLES 3.2 through
#    headless EGL: CPU and GPU per frame with the overlay never opened, closed, open.
# 2. The GL calls per frame, counted by apitrace (Debian: apitrace) on
#    `overlay_cost --trace`: the layer's frames with the overlay never opened, opened once
#    and closed, and open. Closed must issue exactly the calls of never opened.
# Set EGL_PLATFORM / __EGL_VENDOR_LIBRARY_FILENAMES to pick a driver.
set -eu
build=${1:-b}
frames=${2:-300}
bin=$build/bench/overlay_cost
[ -x "$bin" ] || { echo "bench/overlay.sh: $bin not built (make -C $build bench/overlay_cost)" >&2; exit 2; }
for size in ${SIZES:-1920x1080 3840x2160}; do
    "$bin" "$frames" "${size%x*}" "${size#*x}"
done
if ! command -v apitrace >/dev/null 2>&1; then
    echo "apitrace missing: GL calls not counted (apt-get install apitrace)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apitrace trace --api egl -o "$tmp/t.trace" "$bin" --trace 12 1920 1080 >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; exit 1; }
apitrace dump -v --call-nos=no "$tmp/t.trace" 2>/dev/null | grep -E '^gl[A-Z]' >"$tmp/all.txt"
# Frames end at glFinish, modes at glHint (overlay_cost.c --trace). The setup before the
# first mode and the first frame of the later ones are left out.
awk '
    BEGIN { skip = 1; mode = 0 }
    /^glHint/ { mode++; n = 0; skip = 1; next }
    /^glFinish/ { if (!skip) calls[mode] = calls[mode] " " n; skip = 0; n = 0; next }
    { n++ }
    END {
        split("never closed open", name, " ")
        for (m = 0; m < 3; m++) printf "GL calls per frame, overlay %-6s:%s\n", name[m + 1], calls[m]
    }' "$tmp/all.txt" | tee "$tmp/counts"
# Steady state: the last 8 frames of each (the runtime's first timer reads come later).
never=$(sed -n 's/.*never *://p' "$tmp/counts" | tr ' ' '\n' | grep . | tail -8 | tr '\n' ' ')
closed=$(sed -n 's/.*closed *://p' "$tmp/counts" | tr ' ' '\n' | grep . | tail -8 | tr '\n' ' ')
if [ "$never" = "$closed" ]; then
    echo "closed overlay: the same GL calls per frame as never opened (0 added): $closed"
else
    echo "closed overlay: GL calls differ from never opened" >&2
    exit 1
fi
