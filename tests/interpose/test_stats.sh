#!/bin/sh
# test_stats.sh - FXGL_STATS (src/interpose/stats.c) on a real
# program: glmark2 under Xvfb with libfxgl.so preloaded and Invert.fx (one
# technique of one pass) on. The CSV must have the fixed columns and one
# GPU column for the technique and one for its pass, one row per frame with
# consecutive indices (none dropped), and the counts the effect's shape
# dictates: exactly 1 draw call and 0 dispatches per frame, at least one
# framebuffer and one texture bind, more GL calls than draws, a positive
# frame time after the first row, and an empty app_draw_calls column
# (counting is off by default). Enough frames run to fill the
# 16 KiB buffer more than once, so the writer thread's hand-over is exercised.
# Then FXGL_COUNT_APP_DRAWS=1 on fxgl-demo, which issues exactly one
# glDrawArrays per frame (tools/demo.c), reached through GLFW's
# glXGetProcAddress: app_draw_calls must be 1 in every row.
# Last, a preset that enables nothing: every frame still gets a row (frame
# time, no effect work), the baseline bench/vs_vulkan.sh compares with.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
glmark2=${GLMARK2:-/usr/bin/glmark2}
[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
[ -x "$glmark2" ] || { echo "SKIP: glmark2 absent (apt-get install glmark2-x11)"; exit 77; }
preload="$lib"
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan" ] && preload="$asan:$lib"

tmp=$(mktemp -d /tmp/fxgl-stats-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 640x480 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }

# glmark2 runs for a time, not a number of frames: on a loaded machine 5 s
# may give fewer than the 50 rows checked below, and then it runs again for
# longer (the rows are counted, never assumed from the machine's speed).
for seconds in ${FXGL_STATS_SECONDS:-5} 20 60; do
    rm -f "$tmp/stats.csv"
    LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
    FXGL_LOG=info FXGL_PRESET="$src/tests/interpose/data/invert.ini" \
    FXGL_EFFECT_PATHS="$src/tests/interpose/data" FXGL_STATS="$tmp/stats.csv" \
        timeout 120 "$glmark2" -s 64x48 -b "build:duration=$seconds" \
        >"$tmp/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] && [ "$(wc -l <"$tmp/stats.csv" 2>/dev/null || echo 0)" -le 50 ] || break
    echo "note: glmark2 for $seconds s gave fewer than 50 frames (a loaded machine): again, longer"
done
[ $rc -eq 0 ] || { echo "FAIL: glmark2 exited $rc"; cat "$tmp/log"; exit 1; }
grep -q 'technique Invert@Invert.fx loaded, on' "$tmp/log" ||
    { echo "FAIL: Invert.fx did not run"; cat "$tmp/log"; exit 1; }
[ -s "$tmp/stats.csv" ] || { echo "FAIL: no CSV written"; exit 1; }

awk -F, -v bytes="$(wc -c <"$tmp/stats.csv")" '
NR == 1 {
    want = "frame,frame_ms,effect_cpu_ms,effect_gpu_ms,draw_calls,dispatches,gl_calls," \
           "framebuffer_binds,texture_binds,barriers,app_draw_calls," \
           "gpu_ms:Invert@Invert.fx,gpu_ms:Invert@Invert.fx/p0"
    if ($0 != want) { print "FAIL: header is\n  " $0 "\nwant\n  " want; bad = 1 }
    next
}
/^#/ { print "FAIL: " $0; bad = 1; next }
{
    rows++
    if ($1 != NR - 2) { print "FAIL: row " NR " has frame " $1; bad = 1; exit }
    if (NF != 13) { print "FAIL: row " NR " has " NF " fields"; bad = 1; exit }
    if ($11 != "") { print "FAIL: frame " $1 ": app draws counted while off: " $11; bad = 1 }
    # The first frame creates the effect (its draws count too); all run it once.
    if ($5 != 1 || $6 != 0) { print "FAIL: frame " $1 ": draws " $5 ", dispatches " $6; bad = 1 }
    if ($8 < 1 || $9 < 1 || $7 <= $5) {
        print "FAIL: frame " $1 ": gl calls " $7 ", fb binds " $8 ", tex binds " $9; bad = 1
    }
    if ($1 > 0 && !($2 > 0)) { print "FAIL: frame " $1 ": frame time " $2; bad = 1 }
    if (!($3 > 0)) { print "FAIL: frame " $1 ": effect cpu time " $3; bad = 1 }
    if ($12 > 0) timed++
}
END {
    if (rows < 50) { print "FAIL: only " rows " rows"; bad = 1 }
    if (timed < rows / 2) { print "FAIL: GPU time in only " timed " of " rows " rows"; bad = 1 }
    printf "stats: %d rows (%d bytes, %s), GPU times in %d; ", rows, bytes, (bytes > 16384 ? "writer thread used" : "one buffer: writer thread not exercised"), timed
    if (bad) exit 1
    print "ok"
}' "$tmp/stats.csv" || { head -3 "$tmp/stats.csv"; exit 1; }

demo="$build/fxgl-demo"
if [ ! -x "$demo" ]; then
    echo "fxgl-demo not built (GLFW absent): FXGL_COUNT_APP_DRAWS not checked"
    exit 0
fi
# fxgl-demo presents once before its loop, then N frames. Effects compile
# in the background and the frames before they are ready pass through
# without a row, so there are at most N rows after the first one (which
# may be the pre-loop frame); each must show the host's one draw. The
# frames are drawn flat out: on a loaded machine (or the sanitizer build) 40
# may all come before the effect is ready, and then it runs again, longer.
for frames in 40 400 4000; do
    rm -f "$tmp/demo.csv"
    LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
    FXGL_LOG=info FXGL_PRESET="$src/tests/interpose/data/invert.ini" \
    FXGL_EFFECT_PATHS="$src/tests/interpose/data" FXGL_STATS="$tmp/demo.csv" FXGL_COUNT_APP_DRAWS=1 \
        timeout 120 "$demo" --frames $frames --size 64x48 >"$tmp/demo.log" 2>&1 ||
        { echo "FAIL: fxgl-demo failed"; cat "$tmp/demo.log"; exit 1; }
    [ "$(wc -l <"$tmp/demo.csv" 2>/dev/null || echo 0)" -le 2 ] || break
    echo "note: the effect was not ready within $frames frames of fxgl-demo (a loaded" \
        "machine): again, longer"
done
awk -F, -v frames=$frames 'NR > 2 {
    rows++
    if ($11 != 1) { print "FAIL: frame " $1 ": app_draw_calls " $11 ", want 1"; bad = 1 }
    if ($5 != 1) { print "FAIL: frame " $1 ": effect draws " $5 ", want 1"; bad = 1 }
}
END {
    if (rows < 1 || rows > frames) { print "FAIL: " rows " rows for " frames " frames"; bad = 1 }
    printf "app draws: %d rows, 1 host draw each; ", rows
    if (bad) exit 1
    print "ok"
}' "$tmp/demo.csv" || { head -3 "$tmp/demo.csv"; exit 1; }

printf 'Techniques=\n' >"$tmp/empty.ini"
LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
FXGL_LOG=info FXGL_PRESET="$tmp/empty.ini" \
FXGL_EFFECT_PATHS="$src/tests/interpose/data" FXGL_STATS="$tmp/empty.csv" \
    timeout 120 "$demo" --frames 40 --size 64x48 >"$tmp/empty.log" 2>&1 ||
    { echo "FAIL: fxgl-demo failed"; cat "$tmp/empty.log"; exit 1; }
# 40 frames and the pre-loop one: 41 rows, numbered from 0, no effect work.
awk -F, 'NR == 1 { if ($1 != "frame" || NF != 11) { print "FAIL: header " $0; bad = 1 }; next }
{
    rows++
    if ($1 != NR - 2) { print "FAIL: row " NR " has frame " $1; bad = 1; exit }
    if ($5 != 0 || $6 != 0 || $4 != 0) { print "FAIL: frame " $1 ": effect work " $4 "/" $5 "/" $6; bad = 1 }
    if ($1 > 0 && !($2 > 0)) { print "FAIL: frame " $1 ": frame time " $2; bad = 1 }
}
END {
    if (rows != 41) { print "FAIL: " rows " rows for 41 presented frames"; bad = 1 }
    printf "nothing enabled: %d rows with frame times; ", rows
    if (bad) exit 1
    print "ok"
}' "$tmp/empty.csv" || { head -3 "$tmp/empty.csv"; exit 1; }
