#!/bin/sh
# main-job.sh BUILD OUT - the main job on the embedded default: run a real GL
# program (fxgl-demo) under a private Xvfb, leave a screenshot and a stats
# summary in OUT, and say where they are.
#
# fxgl's runtime and default preset plug in here as they land: the program
# is then run a second time with the library preloaded, for a before/after pair.
set -eu
build=${1:-build}
out=${2:-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
demo="$build/fxgl-demo"
[ -x "$demo" ] || { echo "main-job: $demo not built" >&2; exit 1; }

run_x() { # run a command under its own Xvfb, whatever display the caller has
    xvfb-run -a -s "-screen 0 1280x720x24 -nolisten tcp" "$@"
}

run_x "$demo" --frames 120 --size 1280x720 --screenshot "$out/before.png" \
    --stats "$out/stats-before.txt"

{
    echo "fxgl main job, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "program: fxgl-demo 1280x720, 120 frames, under Xvfb (llvmpipe unless a GPU is present)"
    echo "effects: none yet (the runtime and default preset are not built yet)"
    echo
    cat "$out/stats-before.txt"
} >"$out/summary.txt"

echo "main-job: screenshot  $out/before.png"
echo "main-job: summary     $out/summary.txt"
cat "$out/summary.txt"
