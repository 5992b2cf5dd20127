# conformance-common.sh - sourced by tools/conformance.sh and
# tools/render-conformance.sh (not run on its own): where the corpus and the
# reference's verdicts are, the include setup per effect, and the report that
# compares fxgl's results with the reference's.
#
# The corpus: the repositories of ../shared/reference/corpus.tsv, one folder
# per row named as its column 1, under CORPUS (default $FXGL_CORPUS or
# /work/scratch/corpus; tools/fetch-corpus.sh fetches them). The verdicts:
# ../shared/reference/reference_verdicts.tsv, one row per DISTINCT effect
# (copies of one file in several repositories are counted once), its path
# relative to CORPUS, the reference's verdict (ok|fail) and its first error.
# FXGL_SHARED names the shared folder when it is not ../shared beside the
# repository. Nothing of the corpus is ever copied into this repository.

# conf_setup NAME CORPUS: sets conf_corpus, conf_list, conf_verdicts,
# conf_slim and conf_tmp (a temporary folder removed on exit), or exits 2
# saying what is missing.
conf_setup() {
    conf_name=$1
    conf_corpus=$2
    conf_shared=${FXGL_SHARED:-$conf_here/../shared}
    conf_list=$conf_shared/reference/corpus.tsv
    conf_verdicts=$conf_shared/reference/reference_verdicts.tsv
    for f in "$conf_list" "$conf_verdicts"; do
        if [ ! -f "$f" ]; then
            echo "$conf_name: $f is missing: the reference's verdicts live in the shared" \
                "folder beside the repository (set FXGL_SHARED to it); nothing to compare with" >&2
            exit 2
        fi
    done
    [ -d "$conf_corpus" ] || {
        echo "$conf_name: no corpus at $conf_corpus (tools/fetch-corpus.sh fetches it)" >&2
        exit 2
    }
    conf_corpus=$(cd "$conf_corpus" && pwd)
    conf_slim=$conf_corpus/$(grep -v '^#' "$conf_list" | cut -f1 | grep '@slim$' | head -n 1)/Shaders
    conf_tmp=$(mktemp -d) || exit 2
    trap 'rm -rf "$conf_tmp"' EXIT
    trap 'exit 130' INT TERM
    missing=0
    for name in $(grep -v '^#' "$conf_list" | cut -f1); do
        if [ ! -d "$conf_corpus/$name" ]; then
            echo "$conf_name: $conf_corpus/$name is missing; its effects count as failed" >&2
            missing=$((missing + 1))
        fi
    done
}

# conf_repos: the repository folder names of corpus.tsv, one a line.
conf_repos() {
    grep -v '^#' "$conf_list" | cut -f1
}

# conf_effects NAME: the verdicts' paths of one repository, one a line.
conf_effects() {
    grep -v '^#' "$conf_verdicts" | awk -F'\t' -v r="$1/" 'index($1, r) == 1 { print $1 }'
}

# conf_include NAME: the include path of a repository as the reference was
# run: its Shaders folder with every subfolder, or, when it has none, the
# repository's folder alone (not its subfolders: the verdicts show headers
# two folders down not found, e.g. stormshade's FXAA.fxh).
conf_include() {
    if [ -d "$conf_corpus/$1/Shaders" ]; then
        echo "$conf_corpus/$1/Shaders/**"
    else
        echo "$conf_corpus/$1"
    fi
}

# conf_report RESULTS WHAT: WHAT names fxgl's side ("fxc check accepts");
# RESULTS holds `path<TAB>ok|fail<TAB>message` for
# each effect fxgl was run on (message: the first error of a failure, the
# first warning of a pass). Prints one PASS/FAIL line per distinct effect, the
# two lists where fxgl and the reference disagree, and the totals; the last
# line is `N passed, M failed` over the effects the reference accepts.
# Returns 1 when one of those fails.
conf_report() {
    awk -F'\t' -v what="$2" '
        FNR == NR { got[$1] = $2; msg[$1] = $3; next }
        /^#/ { next }
        {
            n++; path[n] = $1; ref[n] = $2; refmsg[n] = $3
            if (!($1 in got)) { got[$1] = "fail"; msg[$1] = "not run (file missing?)" }
        }
        END {
            for (i = 1; i <= n; i++) {
                p = path[i]
                if (got[p] == "ok") {
                    print "PASS " p (msg[p] != "" ? ": " msg[p] : "")
                } else {
                    print "FAIL " p ": " msg[p]
                }
            }
            print ""
            c = 0
            for (i = 1; i <= n; i++) if (ref[i] == "ok" && got[path[i]] != "ok") c++
            print "== the reference accepts, fxgl does not (" c "):"
            for (i = 1; i <= n; i++) {
                p = path[i]
                if (ref[i] == "ok" && got[p] != "ok") print "  " p ": " msg[p]
            }
            c = 0
            for (i = 1; i <= n; i++) if (ref[i] != "ok" && got[path[i]] == "ok") c++
            print "== fxgl accepts, the reference does not (" c "):"
            for (i = 1; i <= n; i++) {
                p = path[i]
                if (ref[i] != "ok" && got[p] == "ok") {
                    print "  " p ": fxgl: " (msg[p] != "" ? msg[p] : "no warning") \
                          "; the reference: " refmsg[i]
                }
            }
            refok = 0; pass = 0; all = 0
            for (i = 1; i <= n; i++) {
                if (got[path[i]] == "ok") all++
                if (ref[i] == "ok") { refok++; if (got[path[i]] == "ok") pass++ }
            }
            print ""
            printf "%d distinct effects, the reference accepts %d; %s %d of those " \
                   "(%.1f %%), %d of all %d\n", n, refok, what, pass,
                   refok ? 100.0 * pass / refok : 0, all, n
            print pass " passed, " (refok - pass) " failed"
            exit refok != pass
        }
    ' "$1" "$conf_verdicts"
}
