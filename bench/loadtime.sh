#!/bin/sh
# loadtime.sh [OUTDIR] - load time of the conformance corpus (issue 9): per
# effect, cold and warm,
#   compile_ms      wall time of `fxc glsl --target gl450` (fxgl's compiler:
#                   preprocess, parse, check, GLSL of every pass; process
#                   start included, ~1 ms)
#   first_frame_ms  the runtime's CPU time of the first frame in fxgl-render
#                   (GL objects: the driver compiles and links the GLSL,
#                   textures are created and loaded)
#   total_ms        wall time of the whole fxgl-render run (context, compile,
#                   1 frame, PNG written)
# Cold: a fresh, empty driver shader cache (MESA_SHADER_CACHE_DIR and
# __GL_SHADER_DISK_CACHE_PATH point at a new directory) and the first read
# of the files since the script started; warm: the same run again, cache
# filled, files in the page cache. The OS page cache is not dropped (that
# needs root and disturbs other users): "cold" files may already be cached.
# Corpus: $FXGL_CORPUS or /work/scratch/corpus, fetched there by
# tools/fetch-corpus.sh when it holds no .fx (read in place, never
# copied). LIMIT=N takes the first N effects. Headless (EGL); binaries from
# $FXC and $RENDER (default $BUILD/fxc, $BUILD/fxgl-render; BUILD: bench/setup.sh).
# Writes OUTDIR (default bench/results)/loadtime-<renderer>.csv and .png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/bench/results}
. "$top/bench/setup.sh"
bench_build fxc fxgl-render
fxc=${FXC:-$build/fxc}
render=${RENDER:-$build/fxgl-render}
corpus=${FXGL_CORPUS:-/work/scratch/corpus}
size=${SIZE:-1280x720}
limit=${LIMIT:-100000}
[ -x "$fxc" ] && [ -x "$render" ] || { echo "loadtime.sh: $fxc or $render not built" >&2; exit 1; }
if [ -z "$(find "$corpus" -iname '*.fx' 2>/dev/null | head -1)" ]; then
    echo "loadtime.sh: no corpus at $corpus: fetching it (tools/fetch-corpus.sh)" >&2
    sh "$top/tools/fetch-corpus.sh" "$corpus" >&2 || exit 1
fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms() { date +%s%N; }

# The standard headers, as tools/conformance.sh finds them.
std=
for d in "$corpus"/*slim*/Shaders "$corpus"/*/Shaders "$corpus"/*; do
    [ -f "$d/ReShade.fxh" ] && { std=$d; break; }
done
echo "repo,effect,run,compile_ok,compile_ms,render_ok,first_frame_ms,total_ms" >"$tmp/all.csv"
n=0
for repo in "$corpus"/*/; do
    repo=${repo%/}
    shaders="$repo/Shaders"
    [ -d "$shaders" ] || shaders="$repo"
    textures="$repo/Textures"
    [ -d "$textures" ] || textures="$shaders"
    find "$shaders" -iname '*.fx' | sort >"$tmp/list"
    while read -r fx; do
        [ "$n" -lt "$limit" ] || break
        n=$((n + 1))
        cache="$tmp/cache-$n"
        mkdir -p "$cache"
        for run in cold warm; do
            set -- -I "$shaders/**"
            [ -n "$std" ] && set -- "$@" -I "$std"
            t0=$(ms)
            if "$fxc" glsl --target gl450 "$@" "$fx" >/dev/null 2>&1; then cok=1; else cok=0; fi
            t1=$(ms)
            if MESA_SHADER_CACHE_DIR="$cache" __GL_SHADER_DISK_CACHE_PATH="$cache" \
                __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
                "$render" "$@" --textures "$textures" --size "$size" --frames 1 \
                --report "$tmp/r.json" --output "$tmp/o.png" "$fx" >/dev/null 2>&1; then rok=1; else rok=0; fi
            t2=$(ms)
            ff=$(sed -n 's/.*"cpu_ms_per_frame": \([0-9.]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            rm -f "$tmp/r.json"
            echo "$(basename "$repo"),${fx#"$repo"/},$run,$cok,$(( (t1 - t0) / 1000 ))e-3,$rok,${ff:-},$(( (t2 - t1) / 1000 ))e-3" >>"$tmp/all.csv"
        done
    done <"$tmp/list"
done
renderer=$("$render" --size 16x16 --frames 1 --output "$tmp/o.png" 2>&1 | sed -n 's/.* on \(.*\); last frame.*/\1/p' | head -1)
tag=$(printf '%s' "${renderer:-unknown}" | tr -c 'A-Za-z0-9.\n' '_' | cut -c1-40)
csv="$out/loadtime-$tag.csv"
{ echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $size; ${renderer:-?}; load $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$tmp/all.csv"; } >"$csv"

echo "loadtime: ${renderer:-?}, $size, $n effects from $corpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F, 'NR > 1 {
    k = $3; c[k]++; cok[k] += $4; rok[k] += $6
    if ($4) { cm[k, ++nc[k]] = $5 + 0 }
    if ($6 && $7 != "") { fm[k, ++nf[k]] = $7 + 0; tm[k, nf[k]] = $8 + 0 }
}
function med(a, k, n,   i, j, t, v) {
    if (n == 0) return 0
    for (i = 1; i <= n; i++) v[i] = a[k, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j > 0 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function mx(a, k, n,   i, m) { m = 0; for (i = 1; i <= n; i++) if (a[k, i] > m) m = a[k, i]; return m }
END {
    printf "  %-5s %8s %9s %9s %13s %13s %13s %13s\n", "run", "effects", "compiled", "rendered", "compile med", "compile max", "1st frame med", "1st frame max"
    for (r = 1; r <= 2; r++) {
        k = r == 1 ? "cold" : "warm"
        printf "  %-5s %8d %9d %9d %10.1f ms %10.1f ms %10.1f ms %10.1f ms   (whole run median %.0f ms)\n", k, c[k], cok[k], rok[k], med(cm, k, nc[k]), mx(cm, k, nc[k]), med(fm, k, nf[k]), mx(fm, k, nf[k]), med(tm, k, nf[k])
    }
}' "$tmp/all.csv"
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/loadtime-$tag.png"
    awk -F, 'NR > 1 && $3 == "cold" && $7 != "" {c[++n] = $7} NR > 1 && $3 == "warm" && $7 != "" {w[++m] = $7}
        END {for (i = 1; i <= n || i <= m; i++) print i, (i <= n ? c[i] : "NaN"), (i <= m ? w[i] : "NaN")}' "$tmp/all.csv" >"$tmp/ff.dat"
    gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced
set output '$png'
set title 'fxgl first-frame CPU time per corpus effect, cold vs warm (${renderer:-?}, $size)'
set xlabel 'effect (corpus order)'
set ylabel 'ms'
set logscale y
set grid
plot '$tmp/ff.dat' using 1:2 with points pt 7 title 'cold', '' using 1:3 with points pt 6 title 'warm'
GP
    echo "loadtime: $csv, $png"
else
    echo "loadtime: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
