#!/bin/sh
# render-conformance.sh [CORPUS] - the runtime's conformance figure: every
# distinct effect of the public shader repositories (the reference's
# verdicts, ../shared/reference/reference_verdicts.tsv; see
# tools/conformance-common.sh) compiled by fxgl and run by the runtime through
# fxgl-render for three frames at 320x180, one process per effect. An effect
# passes when it compiles, every technique loads (status ready, none
# skipped), the frames raise no GL error and the process exits 0 within
# LIMIT seconds (default 60).
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
        (cd "$conf_corpus" && timeout -k 10 "$((limit + 1))" "$render" --api "$api" --frames 3 \
            --size 320x180 -I "$include" -I "$conf_slim" --textures "$textures" \
            --textures "$slim_textures" --output "$conf_tmp/out.png" --report "$conf_tmp/r.json" \
            "$fx") </dev/null >"$conf_tmp/out" 2>"$conf_tmp/err"
        rc=$?
        ms=$((($(date +%s%N) - start) / 1000000))
        printf '%s\t%s\t%s\n' "$ms" "$rc" "$fx" >>"$times"
        r=$conf_tmp/r.json
        why=
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            why="over the limit of $limit s (killed)"
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
        elif [ "$rc" -ne 0 ]; then
            why="failed run (exit $rc): $(grep -m1 . "$conf_tmp/err" | head -c 200)"
        elif [ "$ms" -gt $((limit * 1000)) ]; then
            why="took $ms ms, over the limit of $limit s"
        fi
        if [ -z "$why" ]; then
            printf '%s\tok\t%s\n' "$fx" "$(grep -m1 -i 'warning' "$conf_tmp/err" | tr '\t' ' ' | head -c 300)"
        else
            printf '%s\tfail\t%s\n' "$fx" "$(printf '%s' "$why" | tr '\t\n' '  ')"
        fi >>"$results"
    done <"$conf_tmp/files"
done
conf_report "$results" "runs ($api)" >"$conf_tmp/report"
status=$?
sed '$d' "$conf_tmp/report"
awk -F'\t' -v limit="$limit" '
    $2 > 128 && $2 != 137 { crash++ }
    $2 == 124 || $2 == 137 || $1 > limit * 1000 { slow++ }
    $1 > max { max = $1; which = $3 }
    { total += $1 }
    END {
        printf "crashes: %d; runs over %d s: %d; slowest: %.1f s (%s); all runs: %.0f s\n",
               crash, limit, slow, max / 1000, which, total / 1000
    }
' "$times"
tail -n 1 "$conf_tmp/report"
exit $status
