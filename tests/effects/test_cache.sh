#!/bin/sh
# test_cache.sh - the on-disk compile cache (src/effects/diskcache.c) through fxgl-render,
# counted by the report's "compile_cache" object:
#  - cold then warm with one folder: the warm run compiles nothing (every effect a hit,
#    and where the driver offers program binaries, no glCompileShader at all) and renders
#    the same picture as a run without any cache; binaries the driver refuses are
#    compiled again and replaced;
#  - changing an included header, a -D definition, or (performance mode) a preset value
#    misses, and the picture follows the change;
#  - a truncated, a foreign and a bit-flipped entry are ignored (a miss, counted stale)
#    and the picture is still right;
#  - four processes filling one empty folder at once leave only whole entries (a later
#    run hits every one) and no temporary file;
#  - a folder that cannot be created: one warning, the render still right;
#    --cache off (FXGL_CACHE_DIR=off): no cache.
set -u
top=${FXGL_TOP_SRCDIR:?}
render=${FXGL_TOP_BUILDDIR:?}/fxgl-render
dir=$(mktemp -d /tmp/fxgl-cache-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
shaders=$top/data/shaders
mkdir -p "$dir/fx"
# An effect of our own whose colour comes from an included header, so a change there
# must reach the picture.
cat > "$dir/fx/tint.fxh" <<'EOF'
#define TINT float3(0.25, 0.5, 0.75)
EOF
cat > "$dir/fx/Tint.fx" <<'EOF'
#include "ReShade.fxh"
#include "tint.fxh"
#ifndef TINT_SCALE
#define TINT_SCALE 1.0
#endif
float4 PS_Tint(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return float4(tex2D(ReShade::BackBuffer, uv).rgb * TINT * TINT_SCALE, 1.0);
}
technique Tint { pass { VertexShader = PostProcessVS; PixelShader = PS_Tint; } }
EOF
effects="$dir/fx/Tint.fx $shaders/fxgl_Vignette.fx $shaders/fxgl_Tonemap.fx"

run() { # name, options... (the effects follow)
    name=$1; shift
    # shellcheck disable=SC2086
    "$render" --size 96x54 --frames 1 -I "$shaders" -I "$dir/fx" --output "$dir/$name.png" \
        --report "$dir/$name.json" "$@" $effects > "$dir/$name.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "no EGL context" "$dir/$name.log"; then
        echo "SKIP: no EGL context: $(cat "$dir/$name.log")"; exit 77
    fi
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$dir/$name.log")"
}
count() { # name, field of compile_cache
    sed -n "s/.*\"compile_cache\": {[^}]*\"$2\": \([0-9a-z]*\).*/\1/p" "$dir/$1.json"
}
expect() { # name, hits, misses, stale
    h=$(count "$1" hits); m=$(count "$1" misses); s=$(count "$1" stale)
    [ "$h $m $s" = "$2 $3 $4" ] ||
        fail "$1: hits/misses/stale $h/$m/$s, expected $2/$3/$4 ($(grep compile_cache "$dir/$1.json"))"
}
same() { cmp -s "$dir/$1.png" "$dir/$2.png" || fail "$1 and $2 differ"; }
entries() { find "$dir/c" -type f -name 'm-*' | wc -l; }

# The reference pictures: no cache at all.
run plain --cache off
[ "$(count plain enabled)" = false ] || fail "--cache off left a cache on"
FXGL_CACHE_DIR="$dir/c" run plain_env_off --cache off
[ -e "$dir/c" ] && fail "--cache off wrote $dir/c"

# Cold, then warm: the front end runs three times, then never.
run cold --cache "$dir/c"
expect cold 0 3 0
[ "$(entries)" -eq 3 ] || fail "cold run left $(entries) entries, expected 3"
[ "$(stat -c %a "$dir/c")" = 700 ] || fail "the cache folder has mode $(stat -c %a "$dir/c")"
run warm --cache "$dir/c"
expect warm 3 0 0
same plain cold
same plain warm
FXGL_CACHE_DIR="$dir/c" run warm_env
expect warm_env 3 0 0

# Program binaries (glGetProgramBinary), where the driver offers them: llvmpipe does when
# Mesa's shader cache is on. Then the warm run compiles no shader at all.
gl() { sed -n "s/.*\"gl_programs\": {[^}]*\"$2\": \([0-9-]*\).*/\1/p" "$dir/$1.json"; }
if [ "$(gl warm binary_formats)" -gt 0 ]; then
    [ "$(gl cold binary_misses)" -gt 0 ] || fail "cold: no binary stored: $(grep gl_programs "$dir/cold.json")"
    [ "$(gl warm shader_compiles)" -eq 0 ] && [ "$(gl warm binary_misses)" -eq 0 ] &&
        [ "$(gl warm binary_hits)" -eq "$(gl cold binary_misses)" ] ||
        fail "warm: $(grep gl_programs "$dir/warm.json")"
    # Binaries the driver refuses (whole entries, their bytes garbage): compiled again,
    # counted, replaced; the picture is right.
    python3 - "$dir/c" <<'PY' || fail "cannot rewrite the binaries"
import os, struct, sys
def fnv(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return h
binaries = 0
for name in os.listdir(sys.argv[1]):
    if not name.startswith("p-"):
        continue
    path = os.path.join(sys.argv[1], name)
    data = bytearray(open(path, "rb").read())
    if data[40:44] == struct.pack("<I", 0x45584354):
        continue  # the exact-varying record beside a binary (progcache.c), not a binary
    binaries += 1
    payload = data[40:44] + bytes((i * 7) & 0xff for i in range(len(data) - 44))
    data[40:] = payload
    data[32:40] = struct.pack("<Q", fnv(payload))
    open(path, "wb").write(data)
open(os.path.join(sys.argv[1], "..", "binaries"), "w").write("%d\n" % binaries)
PY
    run refused --cache "$dir/c"
    expect refused 3 0 0
    n=$(cat "$dir/binaries")
    [ "$(gl refused binary_rejected)" -eq "$n" ] && [ "$(gl refused shader_compiles)" -gt 0 ] ||
        fail "refused: $(grep gl_programs "$dir/refused.json") ($n binaries)"
    same refused plain
    run refused_again --cache "$dir/c"
    [ "$(gl refused_again shader_compiles)" -eq 0 ] && [ "$(gl refused_again binary_rejected)" -eq 0 ] ||
        fail "refused binaries were not replaced: $(grep gl_programs "$dir/refused_again.json")"
    same refused_again plain
else
    echo "note: the driver offers no program binary formats (Mesa's shader cache off?): binaries untested"
fi

# An included header changes: that effect misses (its entry is there: stale), the others
# hit, the picture follows.
sed -i 's/0.25, 0.5, 0.75/0.75, 0.5, 0.25/' "$dir/fx/tint.fxh"
run header --cache "$dir/c"
expect header 2 1 1
run header_plain --cache off
same header header_plain
cmp -s "$dir/header.png" "$dir/plain.png" && fail "the header change did not reach the picture"
run header_warm --cache "$dir/c"
expect header_warm 3 0 0

# A definition changes: every effect misses (they all see it), then hits.
run define --cache "$dir/c" -D TINT_SCALE=0.5
expect define 0 3 0
run define_warm --cache "$dir/c" -D TINT_SCALE=0.5
expect define_warm 3 0 0
run define_plain --cache off -D TINT_SCALE=0.5
same define_warm define_plain
cmp -s "$dir/define.png" "$dir/header.png" && fail "the definition did not reach the picture"

# Damaged entries: truncated, foreign, one flipped byte. Each is a stale miss, then
# rewritten; the picture is right throughout.
for damage in truncate foreign flip; do
    for f in "$dir"/c/m-*; do
        case $damage in
        truncate) head -c "$(( $(stat -c %s "$f") / 2 ))" "$f" > "$f.t" && mv "$f.t" "$f" ;;
        foreign) head -c 4000 /dev/urandom > "$f" ;;
        flip) printf 'X' | dd of="$f" bs=1 seek=$(( $(stat -c %s "$f") - 100 )) conv=notrunc 2>/dev/null ;;
        esac
    done
    run "$damage" --cache "$dir/c"
    expect "$damage" 0 3 3
    same "$damage" header_plain
    run "${damage}_again" --cache "$dir/c"
    expect "${damage}_again" 3 0 0
done

# Performance mode: the preset's values are part of what a hit must match.
cat > "$dir/a.ini" <<'EOF'
Techniques=fxgl_Vignette@fxgl_Vignette.fx,Tint@Tint.fx,fxgl_Tonemap@fxgl_Tonemap.fx

[fxgl_Vignette.fx]
Amount=0.900000
EOF
sed 's/Amount=0.900000/Amount=0.200000/' "$dir/a.ini" > "$dir/b.ini"
run perf_a --cache "$dir/c" --preset "$dir/a.ini" --performance-mode
expect perf_a 0 3 0
run perf_a2 --cache "$dir/c" --preset "$dir/a.ini" --performance-mode
expect perf_a2 3 0 0
run perf_b --cache "$dir/c" --preset "$dir/b.ini" --performance-mode
# Only the Vignette module baked the changed value (its entry is under the same key).
expect perf_b 2 1 1
run perf_b_plain --cache off --preset "$dir/b.ini" --performance-mode
same perf_b perf_b_plain
cmp -s "$dir/perf_a.png" "$dir/perf_b.png" && fail "the preset value did not reach the picture"

# Four processes fill an empty folder at once: whole entries only, no temporary left.
rm -rf "$dir/c"
for i in 1 2 3 4; do
    "$render" --size 96x54 --frames 1 -I "$shaders" -I "$dir/fx" --output "$dir/par$i.png" \
        --report "$dir/par$i.json" --cache "$dir/c" $effects > "$dir/par$i.log" 2>&1 &
done
wait
for i in 1 2 3 4; do
    grep -q '"write_failures": 0' "$dir/par$i.json" || fail "process $i: $(cat "$dir/par$i.log")"
    same "par$i" header_plain
done
[ -z "$(find "$dir/c" -name '.tmp-*')" ] || fail "temporary files left: $(ls -a "$dir/c")"
run after_par --cache "$dir/c"
expect after_par 3 0 0

# A folder that cannot be created (a file is in the way): one warning, a right picture.
: > "$dir/file"
run unwritable --cache "$dir/file/cache"
[ "$(grep -c 'compile cache' "$dir/unwritable.log")" -eq 1 ] ||
    fail "expected one warning: $(cat "$dir/unwritable.log")"
grep -q '"write_failures": 1,' "$dir/unwritable.json" || fail "$(grep compile_cache "$dir/unwritable.json")"
same unwritable header_plain
echo "PASS: cold 3 misses, warm 3 hits; header, define, preset value miss; damage ignored"
