#!/bin/sh
# frontend.sh [CORPUS] - front-end speed and memory: preprocess + parse +
# check (+ module build) in MB/s of source read, over
#   1. every .fx of the public corpus (default $FXGL_CORPUS or
#      /work/scratch/corpus; include paths as tools/conformance.sh sets them),
#      each compiled REPEAT times (default 20);
#   2. a generated 3 MB header of 30,000 active #defines (the size of the
#      largest public game-profile header) included by a small effect;
#   3. a generated game-profile database: 3 MB of `#elif __APPLICATION__ ==`
#      blocks of #defines, all skipped but one.
# Time and peak RSS of one whole fxc process come from /usr/bin/time -v
# where it exists; the arena's peak per input byte from `fxc bench`.
# Nothing generated is kept: it goes to a temporary directory.
set -u
corpus=${1:-${FXGL_CORPUS:-/work/scratch/corpus}}
here=$(cd "$(dirname "$0")/.." && pwd)
fxc=${FXC:-}
if [ -z "$fxc" ]; then
    for c in "$here/build/fxc" "$here/b/fxc" "$here/fxc"; do
        [ -x "$c" ] && { fxc=$c; break; }
    done
fi
[ -n "$fxc" ] && [ -x "$fxc" ] || { echo "frontend: fxc not built (set FXC)" >&2; exit 2; }
repeat=${REPEAT:-20}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

timed() { # label, command...: wall time and peak RSS of one run
    label=$1; shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -v "$@" > /dev/null 2> "$tmp/time.txt"
        rc=$?
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
        echo "$label: exit $rc, wall $wall, peak RSS ${rss} kB"
    else
        start=$(date +%s.%N)
        "$@" > /dev/null 2>&1
        rc=$?
        end=$(date +%s.%N)
        echo "$label: exit $rc, wall $(echo "$end - $start" | bc) s"
    fi
}

echo "== 1. corpus ($corpus), each effect $repeat times"
if [ -d "$corpus" ]; then
    std=
    for d in "$corpus"/*slim*/Shaders "$corpus"/*/Shaders; do
        [ -f "$d/ReShade.fxh" ] && { std=$d; break; }
    done
    for repo in "$corpus"/*/; do
        repo=${repo%/}
        shaders="$repo/Shaders"
        [ -d "$shaders" ] || shaders="$repo"
        files=$(find "$shaders" -iname '*.fx' | sort)
        [ -n "$files" ] || continue
        # shellcheck disable=SC2086
        echo "-- $(basename "$repo")"
        "$fxc" bench -n "$repeat" -I "$shaders/**" ${std:+-I "$std"} $files
    done
else
    echo "(no corpus at $corpus: skipped)"
fi

echo "== 2. 3 MB header of 30,000 active #defines"
awk 'BEGIN {
    printf "// generated: 30,000 object-like macros, about 100 bytes each\n";
    for (i = 0; i < 30000; i++)
        printf "#define PROFILE_%05d_PARAMETER_VALUE (%d.%04d * BUFFER_WIDTH + 0x%08X) // entry %05d\n",
               i, i % 97, i % 10000, i * 2654435761 % 4294967296, i;
}' > "$tmp/defines.fxh"
cat > "$tmp/defines.fx" <<'EOF'
#include "defines.fxh"
#ifndef PROFILE_29999_PARAMETER_VALUE
#error "the last definition is missing"
#endif
static const float First = PROFILE_00000_PARAMETER_VALUE;
static const float Last = PROFILE_29999_PARAMETER_VALUE;
float4 PS(float4 p : SV_Position) : SV_Target { return First + Last; }
float4 VS(uint id : SV_VertexID) : SV_Position { return float4(id, 0, 0, 1); }
technique T { pass { VertexShader = VS; PixelShader = PS; } }
EOF
echo "header: $(wc -c < "$tmp/defines.fxh") bytes, $(grep -c '^#define' "$tmp/defines.fxh") #defines"
timed "fxc check" "$fxc" check "$tmp/defines.fx"
"$fxc" bench -n 5 "$tmp/defines.fx"

echo "== 3. game-profile database: 3 MB of #elif __APPLICATION__ blocks"
awk 'BEGIN {
    printf "// generated: one block of #defines per application hash\n#if 0\n";
    for (i = 0; i < 6000; i++) {
        printf "#elif __APPLICATION__ == 0x%08X // game %d\n", i * 2654435761 % 4294967296, i;
        for (j = 0; j < 5; j++)
            printf "    #define DB_SETTING_%d %d.%03d // setting %d of game %d, tuned for its depth buffer\n", j, j, i % 1000, j, i;
    }
    printf "#else\n";
    for (j = 0; j < 5; j++) printf "    #define DB_SETTING_%d 0.5\n", j;
    printf "#endif\n";
}' > "$tmp/profiles.fxh"
sed 's/defines.fxh/profiles.fxh/; s/PROFILE_29999_PARAMETER_VALUE/DB_SETTING_4/g; s/PROFILE_00000_PARAMETER_VALUE/DB_SETTING_0/' \
    "$tmp/defines.fx" > "$tmp/profiles.fx"
echo "header: $(wc -c < "$tmp/profiles.fxh") bytes, $(grep -c '#define' "$tmp/profiles.fxh") #defines"
timed "fxc check" "$fxc" check "$tmp/profiles.fx"
"$fxc" bench -n 5 "$tmp/profiles.fx"
