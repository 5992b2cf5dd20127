#!/bin/sh
# vk-conformance.sh [CORPUS] - the Vulkan path against the GL path over the
# public shader repositories: every distinct effect of the reference's
# verdicts (tools/conformance-common.sh) that fxgl-render runs cleanly on GL
# (exit 0: compiled, every technique ready, no GL error, 2 frames at
# SIZE, default 160x90, include and texture folders as
# tools/render-conformance.sh sets them) is run by fxgl-vkrender on the same
# input, and the two images are compared (PSNR, bar 40 dB).
#
# Prints per effect `AGREE path psnr`, `DIFFER path psnr` or `VKFAIL path:
# reason`, then the totals; the last line is `N agree, M differ, K fail on
# Vulkan, of G that render on GL`. Exit 0 when none differs or fails, 1
# otherwise, 2 when it cannot run. FXGL_RENDER, FXGL_VKRENDER, IMGDIFF name
# the programs (default: build/ or b/); REPOS limits the repositories (a
# grep -E pattern on their folder names), EFFECTS the effects (a grep -E
# pattern on their paths); LIMIT seconds per run (60).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
conf_here=$here
. "$here/tools/conformance-common.sh"
size=${SIZE:-160x90}
limit=${LIMIT:-60}
find_prog() { # name path-in-build
    for c in "$here/build/$2" "$here/b/$2"; do
        [ -x "$c" ] && { echo "$c"; return; }
    done
}
render=${FXGL_RENDER:-$(find_prog fxgl-render fxgl-render)}
vkrender=${FXGL_VKRENDER:-$(find_prog fxgl-vkrender fxgl-vkrender)}
imgdiff=${IMGDIFF:-$(find_prog fxgl-imgdiff tools/fxgl-imgdiff)}
for p in "$render" "$vkrender" "$imgdiff"; do
    [ -n "$p" ] && [ -x "$p" ] || { echo "vk-conformance: fxgl-render, fxgl-vkrender or fxgl-imgdiff not built" >&2; exit 2; }
done
conf_setup vk-conformance "${1:-${FXGL_CORPUS:-/work/scratch/corpus}}"
slim_textures=${conf_slim%/Shaders}/Textures
t=$conf_tmp
"$render" --size "$size" --frames 1 --output "$t/in.png" -I "$here/data/shaders" \
    "$here/data/shaders/fxgl_Passthrough.fx" >/dev/null 2>&1 ||
    { echo "vk-conformance: fxgl-render cannot run (no EGL?)" >&2; exit 2; }
gl_n=0; agree=0; differ=0; vkfail=0
for name in $(conf_repos | grep -E "${REPOS:-.}"); do
    [ -d "$conf_corpus/$name" ] || continue
    include=$(conf_include "$name")
    textures="$conf_corpus/$name/Textures"
    [ -d "$textures" ] || textures=${include%/\*\*}
    conf_effects "$name" | grep -E -- "${EFFECTS:-.}" >"$t/files"
    while IFS= read -r fx; do
        (cd "$conf_corpus" && timeout -k 5 "$limit" "$render" --frames 2 --input "$t/in.png" \
            -I "$include" -I "$conf_slim" --textures "$textures" --textures "$slim_textures" \
            --output "$t/gl.png" "$fx") </dev/null >/dev/null 2>&1 || continue
        gl_n=$((gl_n + 1))
        (cd "$conf_corpus" && timeout -k 5 "$limit" "$vkrender" --frames 2 --input "$t/in.png" \
            -I "$include" -I "$conf_slim" --textures "$textures" --textures "$slim_textures" \
            --output "$t/vk.png" "$fx") </dev/null >/dev/null 2>"$t/vk.err"
        rc=$?
        if [ $rc -ne 0 ]; then
            vkfail=$((vkfail + 1))
            echo "VKFAIL $fx: exit $rc: $(grep -v 'device' "$t/vk.err" | grep -m1 . | head -c 300)"
            continue
        fi
        p=$("$imgdiff" "$t/gl.png" "$t/vk.png" | sed -n 's/^psnr=\([^	]*\).*/\1/p')
        if [ "$p" = inf ] || awk -v p="$p" 'BEGIN { exit !(p >= 40) }'; then
            agree=$((agree + 1)); echo "AGREE $fx $p"
        else
            differ=$((differ + 1)); echo "DIFFER $fx $p"
        fi
    done <"$t/files"
done
echo "$agree agree, $differ differ, $vkfail fail on Vulkan, of $gl_n that render on GL"
[ $((differ + vkfail)) -eq 0 ]
