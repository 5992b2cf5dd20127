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
#   fe_ms           fxgl-render's front end for the effect (its report's
#                   compile_ms: preprocess .. GLSL, or the on-disk cache's
#                   lookup), fe_hits its cache hits (0 or 1)
#   shader_compiles glCompileShader calls of the runtime, binary_hits the
#                   programs it made from cached binaries (glProgramBinary)
# Three runs per effect:
#   cold         an empty driver shader cache (MESA_SHADER_CACHE_DIR and
#                __GL_SHADER_DISK_CACHE_PATH point at a new directory) and an
#                empty fxgl cache (fxgl-render --cache, a new directory);
#   warm_driver  the driver cache filled, fxgl's cache off (what a second start
#                got before fxgl had a cache);
#   warm         both filled: the front end is skipped (module from the cache)
#                and, where the driver offers binary formats, every program
#                comes from a binary (no shader compiled).
# The OS page cache is not dropped (that needs root and disturbs other users):
# "cold" files may already be cached.
# STARTUP=1 (or STARTUP_ONLY=1) adds the interposed start: fxgl-demo under Xvfb with
# libfxgl.so preloaded and every shipped effect on (a several-effect preset),
# time from process start to the first frame with effects (fxgl's "effects on
# screen" line), REPEAT times (default 5) per run kind, medians; STARTUP_SIZE
# (default 1280x720) the window.
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

# The interposed start (STARTUP=1): fxgl-demo with every shipped effect on, from process
# start to the first frame with effects. Runs: cold (both caches empty), warm_driver
# (driver cache filled, FXGL_CACHE_DIR=off), warm (both filled).
startup() {
    lib=$build/.libs/libfxgl.so
    demo=$build/fxgl-demo
    [ -f "$lib" ] && [ -x "$demo" ] || { echo "loadtime: startup: $lib or $demo not built" >&2; return 1; }
    . "$top/tests/harness/xvfb.sh"
    ssize=${STARTUP_SIZE:-1280x720}
    xvfb_start "$ssize" "$tmp" || { echo "loadtime: startup: $xvfb_why" >&2; return 1; }
    techniques=
    for f in "$top"/data/shaders/fxgl_*.fx; do
        name=$(basename "$f" .fx)
        techniques="$techniques${techniques:+,}$name@$name.fx"
    done
    printf 'Techniques=%s\n' "$techniques" >"$tmp/startup.ini"
    scsv="$out/startup-cache.csv"
    echo "run,repeat,on_screen_ms,effect_compiles_from_cache,effect_compiles_run,shader_compiles,binary_hits" >"$scsv"
    for i in $(seq "${REPEAT:-5}"); do
        rm -rf "$tmp/st-driver" "$tmp/st-fxgl"
        for run in cold warm_driver warm; do
            dir=$tmp/st-fxgl
            [ "$run" = warm_driver ] && dir=off
            # The demo draws a fixed number of frames and effects appear when their
            # compiles are done: too few frames end it before; then again, with more
            # (a cold run from empty caches again).
            for frames in 30 300 3000; do
                [ "$run" = cold ] && rm -rf "$tmp/st-driver" "$tmp/st-fxgl"
                LD_PRELOAD="$lib" FXGL_LOG=info FXGL_RELOAD=0 FXGL_PRESET="$tmp/startup.ini" \
                FXGL_EFFECT_PATHS="$top/data/shaders" FXGL_CACHE_DIR="$dir" \
                MESA_SHADER_CACHE_DIR="$tmp/st-driver" __GL_SHADER_DISK_CACHE_PATH="$tmp/st-driver" \
                __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
                    timeout 600 "$demo" --frames $frames --size "$ssize" >"$tmp/st.log" 2>&1
                grep -q 'effects on screen' "$tmp/st.log" && break
            done
            line=$(grep 'effects on screen' "$tmp/st.log" | head -1)
            [ -n "$line" ] || { echo "loadtime: startup $run: effects never on screen" >&2; continue; }
            echo "$line" | sed -n "s/.*on screen \([0-9]*\) ms.*/$run,$i,\1/p" | tr -d '\n' >>"$scsv"
            fc=$(echo "$line" | sed -n 's/.*compiles: \([0-9]*\) from the cache, \([0-9]*\) run.*/\1,\2/p')
            pc=$(echo "$line" | sed -n 's/.*programs: \([0-9]*\) shader compile(s), \([0-9]*\) from.*/\1,\2/p')
            echo ",${fc:-,},$pc" >>"$scsv"
        done
    done
    xvfb_stop
    echo "loadtime: interposed start, fxgl-demo $ssize, $(echo "$techniques" | tr ',' '\n' | wc -l) effects, ${REPEAT:-5} repeats ($scsv):"
    awk -F, 'NR > 1 { k = $1; v[k, ++n[k]] = $3; fc[k] = $4; fr[k] = $5; sc[k] = $6; bh[k] = $7 }
    function med(k,   i, j, t, a) {
        for (i = 1; i <= n[k]; i++) a[i] = v[k, i]
        for (i = 2; i <= n[k]; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n[k] % 2 ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2
    }
    END {
        for (r = 1; r <= 3; r++) {
            k = r == 1 ? "cold" : r == 2 ? "warm_driver" : "warm"
            if (n[k]) printf "  %-11s effects on screen after %6.0f ms (median of %d); last run: effect compiles %s from the cache, %s run; %s shader compiles, %s binaries\n", k, med(k), n[k], fc[k] == "" ? "-" : fc[k], fr[k] == "" ? "-" : fr[k], sc[k], bh[k]
        }
    }' "$scsv"
}
if [ "${STARTUP_ONLY:-0}" = 1 ]; then
    startup
    exit $?
fi

# The standard headers, as tools/conformance.sh finds them.
std=
for d in "$corpus"/*slim*/Shaders "$corpus"/*/Shaders "$corpus"/*; do
    [ -f "$d/ReShade.fxh" ] && { std=$d; break; }
done
echo "repo,effect,run,compile_ok,compile_ms,render_ok,first_frame_ms,total_ms,fe_ms,fe_hits,shader_compiles,binary_hits" >"$tmp/all.csv"
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
        mkdir -p "$cache/driver"
        for run in cold warm_driver warm; do
            fxgl_cache=$cache/fxgl
            [ "$run" = warm_driver ] && fxgl_cache=off
            set -- -I "$shaders/**"
            [ -n "$std" ] && set -- "$@" -I "$std"
            t0=$(ms)
            if "$fxc" glsl --target gl450 "$@" "$fx" >/dev/null 2>&1; then cok=1; else cok=0; fi
            t1=$(ms)
            if MESA_SHADER_CACHE_DIR="$cache/driver" __GL_SHADER_DISK_CACHE_PATH="$cache/driver" \
                __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
                "$render" "$@" --textures "$textures" --size "$size" --frames 1 --cache "$fxgl_cache" \
                --report "$tmp/r.json" --output "$tmp/o.png" "$fx" >/dev/null 2>&1; then rok=1; else rok=0; fi
            t2=$(ms)
            ff=$(sed -n 's/.*"cpu_ms_per_frame": \([0-9.]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            fe=$(sed -n 's/.*"compile_ms": \([0-9.]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            fh=$(sed -n 's/.*"compile_cache": {[^}]*"hits": \([0-9]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            sc=$(sed -n 's/.*"shader_compiles": \([0-9]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            bh=$(sed -n 's/.*"binary_hits": \([0-9]*\).*/\1/p' "$tmp/r.json" 2>/dev/null | head -1)
            rm -f "$tmp/r.json"
            echo "$(basename "$repo"),${fx#"$repo"/},$run,$cok,$(( (t1 - t0) / 1000 ))e-3,$rok,${ff:-},$(( (t2 - t1) / 1000 ))e-3,${fe:-},${fh:-0},${sc:-},${bh:-0}" >>"$tmp/all.csv"
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
    if ($6 && $7 != "") { fm[k, ++nf[k]] = $7 + 0; tm[k, nf[k]] = $8 + 0; fe[k, nf[k]] = $9 + 0 }
    hits[k] += $10; sc[k] += $11; bh[k] += $12
}
function med(a, k, n,   i, j, t, v) {
    if (n == 0) return 0
    for (i = 1; i <= n; i++) v[i] = a[k, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j > 0 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function mx(a, k, n,   i, m) { m = 0; for (i = 1; i <= n; i++) if (a[k, i] > m) m = a[k, i]; return m }
END {
    printf "  %-11s %7s %8s %8s %12s %12s %13s %13s %11s %8s %8s %8s\n", "run", "effects", "compiled", "rendered", "fxc med", "fxc max", "1st frame med", "1st frame max", "run med", "fe med", "fe hits", "shaders"
    for (r = 1; r <= 3; r++) {
        k = r == 1 ? "cold" : r == 2 ? "warm_driver" : "warm"
        printf "  %-11s %7d %8d %8d %9.1f ms %9.1f ms %10.1f ms %10.1f ms %8.0f ms %5.1f ms %8d %8d (binaries %d)\n", k, c[k], cok[k], rok[k], med(cm, k, nc[k]), mx(cm, k, nc[k]), med(fm, k, nf[k]), mx(fm, k, nf[k]), med(tm, k, nf[k]), med(fe, k, nf[k]), hits[k], sc[k], bh[k]
    }
}' "$tmp/all.csv"
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/loadtime-$tag.png"
    awk -F, 'NR > 1 && $3 == "cold" && $7 != "" {c[++n] = $7} NR > 1 && $3 == "warm" && $7 != "" {w[++m] = $7}
        NR > 1 && $3 == "warm_driver" && $7 != "" {d[++o] = $7}
        END {for (i = 1; i <= n || i <= m; i++) print i, (i <= n ? c[i] : "NaN"), (i <= m ? w[i] : "NaN"), (i <= o ? d[i] : "NaN")}' "$tmp/all.csv" >"$tmp/ff.dat"
    gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced
set output '$png'
set title 'fxgl first-frame CPU time per corpus effect, cold vs warm (${renderer:-?}, $size)'
set xlabel 'effect (corpus order)'
set ylabel 'ms'
set logscale y
set grid
plot '$tmp/ff.dat' using 1:2 with points pt 7 title 'cold', '' using 1:4 with points pt 4 title 'warm driver cache only', '' using 1:3 with points pt 6 title 'warm (fxgl cache + driver cache)'
GP
    echo "loadtime: $csv, $png"
else
    echo "loadtime: gnuplot absent (Debian: apt-get install gnuplot-nox), no plot; $csv"
fi
if [ "${STARTUP:-0}" = 1 ]; then
    startup
fi
