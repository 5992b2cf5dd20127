#!/bin/sh
# main-job.sh BUILD OUT - the main job: run a real GL program (fxgl-demo)
# under a private Xvfb twice, without and with fxgl preloaded and the
# default preset (data/presets/default.ini over the effects in data/shaders),
# and leave in OUT:
#   before.png, after.png        the presented frame (front buffer after the
#                                last swap) without and with fxgl
#   summary.txt                  frame times of both runs, what fxgl logged
#   stats-before.txt, stats-after.txt, fxgl.log
# then say where they are.
#
# Everything is taken from the source and build trees (nothing installed):
# the uninstalled wrapper is the generated tools/fxgl with FXGL_LIBRARY
# pointing at the build tree's library.
set -eu
build=${1:-build}
out=${2:-out}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
demo="$build/fxgl-demo"
wrapper="$build/tools/fxgl"
library="$build/.libs/libfxgl.so"
preset="$top/data/presets/default.ini"
frames=${FXGL_MAIN_FRAMES:-120}
size=${FXGL_MAIN_SIZE:-1280x720}
[ -x "$demo" ] || { echo "main-job: $demo not built" >&2; exit 1; }

# Each run gets its own Xvfb, whatever display the caller has
# (tests/harness/xvfb.sh: a display number no other server can take, ready
# before the program starts; xvfb-run -a picks one by lock files, which the
# -displayfd servers of a parallel make check do not write).
. "$top/tests/harness/xvfb.sh"
xdir=$(mktemp -d)
trap 'xvfb_stop; rm -rf "$xdir"' EXIT
run_x() {
    xvfb_start "$size" "$xdir" || { echo "main-job: $xvfb_why" >&2; return 1; }
    rc=0
    "$@" || rc=$?
    xvfb_stop
    return $rc
}

rm -f "$out/before.png" "$out/after.png" "$out/fxgl.log" "$out/stats-after.txt"
run_x "$demo" --frames "$frames" --size "$size" --presented "$out/before.png" \
    --stats "$out/stats-before.txt"

after="not run"
if [ -f "$wrapper" ] && [ -f "$library" ]; then
    # The preset's effects and the generated LUT come from the trees; the
    # log goes to a file so that the summary can quote it.
    if FXGL_LIBRARY="$library" \
        FXGL_EFFECT_PATHS="$top/data/shaders" \
        FXGL_TEXTURE_PATHS="$build/data/textures" \
        FXGL_LOG=info FXGL_LOG_FILE="$out/fxgl.log" \
        run_x sh "$wrapper" --preset "$preset" \
            "$demo" --frames "$frames" --size "$size" --presented "$out/after.png" \
            --stats "$out/stats-after.txt"; then
        if [ ! -f "$out/after.png" ]; then
            after="failed: no screenshot written"
        elif cmp -s "$out/before.png" "$out/after.png"; then
            after="ran, but the presented frame is unchanged: fxgl did not post-process (see fxgl.log)"
        else
            after="post-processed by fxgl with the default preset"
        fi
    else
        after="failed: the program exited with an error under fxgl (see fxgl.log)"
    fi
else
    after="not run: $wrapper or $library not built"
fi

{
    echo "fxgl main job, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "program: fxgl-demo $size, $frames frames, under Xvfb (llvmpipe unless a GPU is present)"
    echo "preset:  $preset"
    echo "effects: $(sed -n 's/^Techniques=//p' "$preset")"
    echo "after:   $after"
    echo
    echo "--- without fxgl"
    cat "$out/stats-before.txt"
    if [ -f "$out/stats-after.txt" ]; then
        echo
        echo "--- with fxgl"
        cat "$out/stats-after.txt"
        b=$(sed -n 's/^frame_time_median_ms: //p' "$out/stats-before.txt")
        a=$(sed -n 's/^frame_time_median_ms: //p' "$out/stats-after.txt")
        [ -n "$a" ] && [ -n "$b" ] &&
            awk -v a="$a" -v b="$b" 'BEGIN { printf "\nfxgl cost per frame (median): %.3f ms\n", a - b }'
    fi
    if [ -s "$out/fxgl.log" ]; then
        echo
        echo "--- fxgl.log (last 20 lines)"
        tail -n 20 "$out/fxgl.log"
    fi
} >"$out/summary.txt"

echo "main-job: before      $out/before.png"
[ -f "$out/after.png" ] && echo "main-job: after       $out/after.png"
echo "main-job: summary     $out/summary.txt"
cat "$out/summary.txt"
