#!/bin/sh
# apitrace_check.sh [OUTDIR] - do fxgl's counters agree with apitrace?
# fxgl-render runs the default preset (data/presets/default.ini:
# fragment passes, a compute pass with barriers, copies, debug groups and
# timers) under `apitrace trace --api egl` for FRAMES frames; the last
# frame's counters from its report (fxgl_runtime_stats, what FXGL_STATS
# writes per frame) are compared with the calls apitrace recorded in that
# frame: the calls after fxgl-render's own per-frame blit (unflipped) of
# the last frame up to its glFinish.
#   gl_calls     = every call in the frame (`apitrace dump -v`: without -v
#                  apitrace hides glIs* queries)
#   draw_calls   = glDrawArrays*/glDrawElements*/glDrawRangeElements*/
#                  glMultiDraw* (not glDrawBuffer[s]);  dispatches = glDispatchCompute*;
#   barriers     = glMemoryBarrier*
#   framebuffer_binds, texture_binds = glBindFramebuffer and
#                  glBindTexture/glBindTextureUnit/glBindTextures from the
#                  copy in to the copy out (the runtime's own binds; the
#                  state module's capture and restore binds before and after
#                  are counted in state_calls instead, and reported apart)
#   state_calls  = calls outside that span, except the timer reads
# The preloaded library itself cannot be traced this way: it calls the
# driver's functions from the terminal GetProcAddress (docs/interpose.md),
# below apitrace's wrappers, by design; fxgl-render runs the same runtime
# and the same counters. Writes OUTDIR (default bench/results)/apitrace-check.txt.
# Needs apitrace (Debian: apitrace). RENDER (default $BUILD/fxgl-render).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build fxgl-render
render=${RENDER:-$build/fxgl-render}
frames=${FRAMES:-9}
size=${SIZE:-128x72}
command -v apitrace >/dev/null 2>&1 || { echo "apitrace_check.sh: apitrace missing (Debian: apt-get install apitrace)" >&2; exit 1; }
[ -x "$render" ] || { echo "apitrace_check.sh: $render not built" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
textures=$build/data/textures
[ -d "$textures" ] || textures=$top/data/shaders
apitrace trace --api egl -o "$tmp/t.trace" "$render" --preset "$top/data/presets/default.ini" \
    -I "$top/data/shaders" --textures "$textures" --size "$size" --frames "$frames" \
    --report "$tmp/r.json" --output "$tmp/o.png" >"$tmp/trace.log" 2>&1
apitrace dump -v --call-nos=no "$tmp/t.trace" 2>/dev/null | grep -E '^gl[A-Z]' >"$tmp/all.txt"
w=${size%x*}; h=${size#*x}
# The last frame: after the last unflipped blit (fxgl-render's scene copy), up to glFinish.
start=$(grep -n "^glBlitFramebuffer(srcX0 = 0, srcY0 = 0, srcX1 = $w, srcY1 = $h, dstX0 = 0, dstY0 = 0," "$tmp/all.txt" | tail -1 | cut -d: -f1)
end=$(grep -n '^glFinish' "$tmp/all.txt" | tail -1 | cut -d: -f1)
sed -n "$((start + 1)),$((end - 1))p" "$tmp/all.txt" | sed 's/(.*//' >"$tmp/frame.txt"
stat() { sed -n "s/.*\"last_frame\": {.*\"$1\": \([0-9]*\).*/\1/p" "$tmp/r.json"; }
rc=0
result=$(awk -v gl="$(stat gl_calls)" -v dr="$(stat draw_calls)" -v di="$(stat dispatches)" \
    -v ba="$(stat barriers)" -v fb="$(stat framebuffer_binds)" -v tb="$(stat texture_binds)" \
    -v sc="$(stat state_calls)" '
{ f[NR] = $1 }
$1 ~ /^glBlitFramebuffer$/ { if (!first) first = NR; last = NR }
END {
    n = NR
    # the copy in starts with the binds (and read buffer) just before its blit
    s = first; while (s > 1 && (f[s - 1] == "glBindFramebuffer" || f[s - 1] == "glReadBuffer")) s--
    # the timer reads of the runtime come just before the copy in
    t = s; while (t > 1 && f[t - 1] ~ /^glGetQueryObject/) t--
    for (i = 1; i <= n; i++) {
        c = f[i]
        if (c ~ /^glDraw(Arrays|Elements|RangeElements|MultiDraw)|^glMultiDraw/) draws++
        if (c ~ /^glDispatchCompute/) disp++
        if (c ~ /^glMemoryBarrier/) bar++
        inside = i >= s && i <= last
        if (c == "glBindFramebuffer") { if (inside) fbi++; else fbo++ }
        if (c == "glBindTexture" || c == "glBindTextureUnit" || c == "glBindTextures") { if (inside) tbi++; else tbo++ }
        if (i < t || i > last) st++
    }
    bad = 0
    printf "%-18s %8s %8s\n", "counter", "fxgl", "apitrace"
    printf "%-18s %8d %8d %s\n", "gl_calls", gl, n, gl == n ? "ok" : "DIFFERS"; bad += gl != n
    printf "%-18s %8d %8d %s\n", "draw_calls", dr, draws, dr == draws ? "ok" : "DIFFERS"; bad += dr != draws
    printf "%-18s %8d %8d %s\n", "dispatches", di, disp, di == disp ? "ok" : "DIFFERS"; bad += di != disp
    printf "%-18s %8d %8d %s\n", "barriers", ba, bar, ba == bar ? "ok" : "DIFFERS"; bad += ba != bar
    printf "%-18s %8d %8d %s\n", "framebuffer_binds", fb, fbi, fb == fbi ? "ok" : "DIFFERS"; bad += fb != fbi
    printf "%-18s %8d %8d %s\n", "texture_binds", tb, tbi, tb == tbi ? "ok" : "DIFFERS"; bad += tb != tbi
    printf "%-18s %8d %8d %s\n", "state_calls", sc, st, sc == st ? "ok" : "differs (the span is a heuristic: a runtime call next to the timer reads)"
    printf "state module binds outside the span (in state_calls): %d framebuffer, %d texture\n", fbo, tbo
    printf "verdict: %s\n", bad ? "MISMATCH" : "the counters agree with apitrace"
    exit bad
}' "$tmp/frame.txt") || rc=$?
report="$out/apitrace-check.txt"
{
    echo "apitrace check, $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n); apitrace $(dpkg-query -W -f '${Version}' apitrace 2>/dev/null || echo "?")"
    echo "fxgl-render default preset, $size, frame $frames of $frames; renderer: $(sed -n 's/.*"renderer": "\([^"]*\)".*/\1/p' "$tmp/r.json")"
    echo "$result"
} | tee "$report"
echo "apitrace_check: $report"
exit $rc
