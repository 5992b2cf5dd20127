#!/bin/sh
# conformance.sh [CORPUS] - the compatibility figure: `fxc conform` over
# every distinct effect of the public shader repositories, compared with the
# reference compiler's verdicts (ReShade 6.5.1, ../shared/reference/
# reference_verdicts.tsv; tools/conformance-common.sh says where everything
# is). Nothing of the corpus is ever copied into this repository.
#
# Prints `PASS path[: first warning]` or `FAIL path: first error` per
# effect, paths relative to CORPUS; then "the reference accepts, fxgl does
# not" with each first error, "fxgl accepts, the reference does not" with the
# warning fxgl gave; then the totals, the last line `N passed, M failed` over
# the effects the reference accepts. Exit status 0 when fxgl accepts all of
# those, 1 otherwise, 2 when it cannot run (no fxc, no corpus, no verdicts).
#
# The setup is the verdicts' own: include paths the effect's folder (fxc
# always searches it first), the repository's Shaders folder with all its
# subfolders (the repository's folder alone when there is no Shaders), then
# reshade-shaders@slim's Shaders; __RENDERER__ of GL 4.3, 1920x1080.
# FXC_ARGS adds options (e.g. "--api gles").
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
conf_here=$here
. "$here/tools/conformance-common.sh"
fxc=${FXC:-}
if [ -z "$fxc" ]; then
    for c in "$here/build/fxc" "$here/b/fxc" "$here/fxc" "$(command -v fxc 2>/dev/null)"; do
        [ -n "$c" ] && [ -x "$c" ] && { fxc=$c; break; }
    done
fi
[ -n "$fxc" ] && [ -x "$fxc" ] || { echo "conformance: fxc not built (set FXC)" >&2; exit 2; }
case $fxc in /*) ;; *) fxc=$(pwd)/$fxc ;; esac
conf_setup conformance "${1:-${FXGL_CORPUS:-/work/scratch/corpus}}"

results=$conf_tmp/results
: >"$results"
for name in $(conf_repos); do
    [ -d "$conf_corpus/$name" ] || continue
    conf_effects "$name" >"$conf_tmp/files"
    [ -s "$conf_tmp/files" ] || continue
    # Relative paths, so that fxc prints them as the verdicts name them.
    # shellcheck disable=SC2086
    (cd "$conf_corpus" && tr '\n' '\0' <"$conf_tmp/files" |
        xargs -0 "$fxc" conform -q --api gl --api-version 4.3 --width 1920 --height 1080 \
            ${FXC_ARGS:-} -I "$(conf_include "$name")" -I "$conf_slim") \
        >"$conf_tmp/out" 2>/dev/null
    # `PASS path[: warning]` / `FAIL path: error` -> path, ok|fail, message. A
    # path is the shortest prefix that is one of the files asked for.
    awk -v OFS='\t' '
        FNR == NR { want[$0] = 1; next }
        /^(PASS|FAIL) / {
            rest = substr($0, 6); p = rest; m = ""
            if (!(p in want)) {
                for (i = 1; i < length(rest); i++) {
                    if (substr(rest, i, 2) == ": " && (substr(rest, 1, i - 1) in want)) {
                        p = substr(rest, 1, i - 1); m = substr(rest, i + 2); break
                    }
                }
            }
            if (p in want) print p, (substr($0, 1, 4) == "PASS" ? "ok" : "fail"), m
        }
    ' "$conf_tmp/files" "$conf_tmp/out" >>"$results"
done
# An effect with no line (fxc died on it or before it) is reported as not run.
conf_report "$results" "fxc check accepts"
