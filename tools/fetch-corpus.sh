#!/bin/sh
# fetch-corpus.sh [DIR] - the public shader repositories the conformance,
# render and load-time figures are measured on, each at the commit
# ../shared/reference/corpus.tsv pins (FXGL_SHARED names the shared folder
# when it is elsewhere), into DIR (default $FXGL_CORPUS, else
# /work/scratch/corpus), one folder per row named as its column 1
# (OWNER+NAME, with @BRANCH where one repository gives several rows), as
# tools/conformance.sh expects. The corpus stays outside this repository:
# nothing of it is ever committed here (their licences differ, and the
# figures only read them). Needs git and the network; a folder already
# present is left as it is. Exit status 2 when corpus.tsv is missing.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
list=${FXGL_SHARED:-$here/../shared}/reference/corpus.tsv
[ -f "$list" ] || { echo "fetch-corpus.sh: $list is missing (set FXGL_SHARED)" >&2; exit 2; }
command -v git >/dev/null 2>&1 || { echo "fetch-corpus.sh: git missing (Debian: apt-get install git)" >&2; exit 1; }
mkdir -p "$dir"
# name  branch  commit  date
grep -v '^#' "$list" | while IFS="$(printf '\t')" read -r name branch commit _; do
    [ -n "$name" ] || continue
    if [ -d "$dir/$name" ]; then
        echo "fetch-corpus.sh: $dir/$name present, kept"
        continue
    fi
    repo=${name%%@*}
    owner=${repo%%+*}
    repo=$owner/${repo#*+}
    # Into a temporary name first: an interrupted fetch never looks complete.
    tmp="$dir/.$name.tmp"
    rm -rf "$tmp"
    git init -q "$tmp"
    # A pinned commit: fetched by id (GitHub serves any reachable commit),
    # else the branch's tip when the server refuses.
    if ! git -C "$tmp" fetch -q --depth 1 "https://github.com/$repo.git" "$commit" 2>/dev/null; then
        echo "fetch-corpus.sh: $repo: commit $commit not served by id, taking $branch" >&2
        git -C "$tmp" fetch -q --depth 1 "https://github.com/$repo.git" "$branch"
    fi
    git -C "$tmp" -c advice.detachedHead=false checkout -q FETCH_HEAD
    rm -rf "$tmp/.git"
    mv "$tmp" "$dir/$name"
    echo "fetch-corpus.sh: $repo ($branch, $(echo "$commit" | cut -c1-12)) -> $dir/$name"
done
echo "fetch-corpus.sh: $(find "$dir" -iname '*.fx' | wc -l) .fx files in $dir"
