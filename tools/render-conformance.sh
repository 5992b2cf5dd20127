#!/bin/sh
# render-conformance.sh [CORPUS] - the runtime's conformance figure: every
# distinct effect of the public shader repositories (the reference's
# verdicts, ../shared/reference/reference_verdicts.tsv; see
# tools/conformance-common.sh) compiled by fxgl and run by the runtime through
# fxgl-render for three frames at 320x180, one process per effect. An effect
# passes when it compiles, every technique loads (status ready, none
# skipped), the frames raise no GL error and the process exits 0 within
# LIMIT seconds (default 60) of wall-clock time, or of CPU time (user +
# system, all threads) with CLOCK=cpu, for a loaded machine where wall time
# says little. A run is killed after KILL seconds (default LIMIT + 1 with
# wall time, 600 with CPU time).
#
# API=gl (default, GL 4.5 core) or API=gles (GLES 3.2); the context comes
# from EGL (FXGL_TEST_EGL_PLATFORM=surfaceless for Mesa's llvmpipe). Include
# paths as tools/conformance.sh sets them; textures from the repository's
# Textures folder, then reshade-shaders@slim's.
#
# Prints `PASS path[: first warning]` or `FAIL path: reason` per effect; the
# effects the reference accepts and fxgl does not, and the reverse; crashes
# (a signal), runs over the limit, and the slowest run; then the totals, the
# last line `N passed, M failed` over the effects the reference accepts.
# Exit status 0 when all of those pass, 1 otherwise, 2 when it cannot run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
conf_here=$here
. "$here/tools/conformance-common.sh"
api=${API:-gl}
limit=${LIMIT:-60}
clock=${CLOCK:-wall}
if [ "$clock" = cpu ]; then kill_after=${KILL:-600}; else kill_after=${KILL:-$((limit + 1))}; fi
# Seconds of CPU time the shell's finished children used so far (`times`).
cpu_ms() {
    times >"$conf_tmp/times.txt"
    awk 'NR == 2 {
        t = 0
        for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
        printf "%d\n", t * 1000
    }' "$conf_tmp/times.txt"
}
render=${FXGL_RENDER:-}
if [ -z "$render" ]; then
    for c in "$here/build/fxgl-render" "$here/b/fxgl-render" "$(command -v fxgl-render 2>/dev/null)"; do
        [ -n "$c" ] && [ -x "$c" ] && { render=$c; break; }
    done
fi
[ -n "$render" ] && [ -x "$render" ] || { echo "render-conformance: fxgl-render not built (set FXGL_RENDER)" >&2; exit 2; }
case $render in /*) ;; *) render=$(pwd)/$render ;; esac
conf_setup render-conformance "${1:-${FXGL_CORPUS:-/work/scratch/corpus}}"
slim_textures=${conf_slim%/Shaders}/Textures

results=$conf_tmp/results
times=$conf_tmp/times
: >"$results"
: >"$times"
for name in $(conf_repos); do
    [ -d "$conf_corpus/$name" ] || continue
    include=$(conf_include "$name")
    textures="$conf_corpus/$name/Textures"
    [ -d "$textures" ] || textures=${include%/\*\*}
    conf_effects "$name" >"$conf_tmp/files"
    while IFS= read -r fx; do
        rm -f "$conf_tmp/r.json"
        start=$(date +%s%N)
        cpu_ms >"$conf_tmp/cpu"
        cpu_start=$(cat "$conf_tmp/cpu")
        (cd "$conf_corpus" && timeout -k 10 "$kill_after" "$render" --api "$api" --frames 3 \
            --size 320x180 -I "$include" -I "$conf_slim" --textures "$textures" \
            --textures "$slim_textures" --output "$conf_tmp/out.png" --report "$conf_tmp/r.json" \
            "$fx") </dev/null >"$conf_tmp/out" 2>"$conf_tmp/err"
        rc=$?
        wall=$((($(date +%s%N) - start) / 1000000))
        cpu_ms >"$conf_tmp/cpu"
        cpu=$(($(cat "$conf_tmp/cpu") - cpu_start))
        ms=$wall
        [ "$clock" = cpu ] && ms=$cpu
        printf '%s\t%s\t%s\t%s\t%s\n' "$ms" "$rc" "$fx" "$wall" "$cpu" >>"$times"
        r=$conf_tmp/r.json
        why=
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            why="killed after $kill_after s"
        elif [ "$rc" -gt 128 ]; then
            why="crash (signal $((rc - 128))): $(grep -m1 . "$conf_tmp/err" | head -c 200)"
        elif [ ! -s "$r" ]; then
            why="no report (exit $rc): $(head -c 200 "$conf_tmp/err" | tr '\n\t' '  ')"
        elif grep -q '"compiled": false' "$r"; then
            why="does not compile: $(grep -m1 'error' "$conf_tmp/err" | head -c 300)"
        elif ! grep -q '"status": "ready", "reason": ""' "$r"; then
            why="not loaded: $(sed -n 's/.*"status": "failed", "reason": "\(.*\)"}.*/\1/p' "$r" | head -n 1 | head -c 300)"
        elif grep -q '"status": "failed"' "$r"; then
            why="technique skipped: $(grep -m1 '"status": "failed"' "$r" | sed 's/.*"reason": "\(.*\)", "cpu_ms".*/\1/' | head -c 300)"
        elif ! grep -q '"gl_error": 0' "$r"; then
            why="GL error $(sed -n 's/.*"gl_error": \([0-9]*\).*/\1/p' "$r")"
        # Exit 1 also means "a texture was missing" or "no technique ran" (a file of
        # helpers only): the report's checks above are this figure's rules.
        elif [ "$rc" -gt 1 ]; then
            why="failed run (exit $rc): $(grep -m1 . "$conf_tmp/err" | head -c 200)"
        elif [ "$ms" -gt $((limit * 1000)) ]; then
            why="took $ms ms ($clock), over the limit of $limit s"
        fi
        if [ -z "$why" ]; then
            printf '%s\tok\t%s\n' "$fx" "$(grep -m1 -i 'warning' "$conf_tmp/err" | tr '\t' ' ' | head -c 300)"
        else
            printf '%s\tfail\t%s\n' "$fx" "$(printf '%s' "$why" | tr '\t\n' '  ')"
        fi >>"$results"
    done <"$conf_tmp/files"
done
conf_report "$results" "fxgl-render --api $api passes" >"$conf_tmp/report"
status=$?
sed '$d' "$conf_tmp/report"
awk -F'\t' -v limit="$limit" -v clock="$clock" '
    $2 > 128 && $2 != 137 { crash++ }
    $2 == 124 || $2 == 137 || $1 > limit * 1000 { slow++ }
    $4 > wmax { wmax = $4; wwhich = $3 }
    $5 > cmax { cmax = $5; cwhich = $3 }
    { wall += $4; cpu += $5 }
    END {
        printf "crashes: %d; runs over %d s (%s time): %d\n", crash, limit, clock, slow
        printf "slowest: %.1f s wall (%s), %.1f s CPU (%s); all runs: %.0f s wall, %.0f s CPU\n",
               wmax / 1000, wwhich, cmax / 1000, cwhich, wall / 1000, cpu / 1000
    }
' "$times"
tail -n 1 "$conf_tmp/report"
exit $status
