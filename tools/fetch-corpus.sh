#!/bin/sh
# fetch-corpus.sh [DIR] - the public shader repositories the conformance,
# render and load-time figures are measured on, shallow-cloned into DIR
# (default $FXGL_CORPUS, else /work/scratch/corpus), one sub-directory per
# repository as tools/conformance.sh expects. The corpus stays outside this
# repository: nothing of it is ever committed here (their licences differ,
# and the figures only read them). Needs git and the network; a repository
# already present is left as it is.
set -eu
dir=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
command -v git >/dev/null 2>&1 || { echo "fetch-corpus.sh: git missing (Debian: apt-get install git)" >&2; exit 1; }
mkdir -p "$dir"
# name  repository  branch ("" for the default one)
while read -r name repo branch; do
    [ -n "$name" ] || continue
    if [ -d "$dir/$name" ]; then
        echo "fetch-corpus.sh: $dir/$name present, kept"
        continue
    fi
    # Into a temporary name first: an interrupted clone never looks complete.
    rm -rf "$dir/.$name.tmp"
    git clone -q --depth 1 ${branch:+--branch "$branch"} "https://github.com/$repo.git" \
        "$dir/.$name.tmp"
    rm -rf "$dir/.$name.tmp/.git"
    mv "$dir/.$name.tmp" "$dir/$name"
    echo "fetch-corpus.sh: $repo${branch:+ ($branch)} -> $dir/$name"
done <<'LIST'
reshade-shaders-slim crosire/reshade-shaders slim
reshade-shaders-legacy crosire/reshade-shaders legacy
SweetFX CeeJayDK/SweetFX
qUINT martymcmodding/qUINT
prod80 prod80/prod80-ReShade-Repository
LIST
echo "fetch-corpus.sh: $(find "$dir" -iname '*.fx' | wc -l) .fx files in $dir"
