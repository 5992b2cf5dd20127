#!/bin/sh
# test_asan_glmark2.sh - at least 1,000 frames of glmark2 with the sanitizer
# build of libfxgl.so preloaded and Invert.fx running: no AddressSanitizer or
# UBSan error, no leak whose stack passes through fxgl, and glmark2's own
# exit status unchanged (LeakSanitizer's exit code is turned off so that the
# status is the program's; leaks are judged from the report instead).
#
# Only meaningful in the sanitizer build (--enable-sanitizers): elsewhere it
# skips. The ASan runtime goes first in LD_PRELOAD; its start-up looks
# functions up with dlsym(RTLD_NEXT) - ours - before its shadow memory
# exists, which is why that path in real.c/dlsym.c is IP_NO_ASAN.
# Leaks inside the GL driver (Mesa, LLVM; unloaded at exit, so reported
# from "<unknown module>") are not fxgl's and are not counted.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
glmark2=/usr/bin/glmark2
seconds=${FXGL_ASAN_SECONDS:-12}

[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
if [ -z "$asan" ]; then
    echo "SKIP: libfxgl.so is not the sanitizer build (configure --enable-sanitizers)"
    exit 77
fi
[ -x "$glmark2" ] || { echo "SKIP: glmark2 absent (apt-get install glmark2-x11)"; exit 77; }

tmp=$(mktemp -d /tmp/fxgl-asan-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 640x480 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }

# glmark2 alone: its own exit status.
"$glmark2" -s 200x150 -b "build:duration=1" >"$tmp/plain.log" 2>&1
want=$?

# The frames are counted, not assumed from the machine's speed: glmark2 runs
# for a fixed time, so on a loaded machine one run may fall short of 1,000
# frames; then it runs again, each run twice as long as the one before (up
# to 60 s), and each judged the same way, up to 6 runs (about 4 minutes).
fail=0
frames=0
runs=0
: >"$tmp/asan.log"
while [ "$frames" -lt 1000 ] && [ "$runs" -lt 6 ]; do
    runs=$((runs + 1))
    LD_PRELOAD="$asan:$lib" \
    ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 LSAN_OPTIONS=exitcode=0 UBSAN_OPTIONS=print_stacktrace=1 \
    FXGL_LOG=info FXGL_PRESET="$src/tests/interpose/data/invert.ini" \
    FXGL_EFFECT_PATHS="$src/tests/interpose/data" FXGL_STATS="$tmp/stats.csv" \
        timeout 120 "$glmark2" -s 200x150 -b "build:duration=$seconds" >"$tmp/run.log" 2>&1
    got=$?
    cat "$tmp/run.log" >>"$tmp/asan.log"
    # One CSV row per presented frame (after the header).
    n=$(( $(wc -l <"$tmp/stats.csv" 2>/dev/null || echo 1) - 1 ))
    [ "$n" -gt 0 ] || n=0
    frames=$((frames + n))
    seconds=$((seconds * 2))
    [ "$seconds" -le 60 ] || seconds=60
    fps=$(sed -n 's/.*FPS: \([0-9]*\).*/\1/p' "$tmp/run.log" | head -1)
    echo "glmark2 under ASan with fxgl, run $runs: exit $got (alone: $want), ${fps:-?} FPS, $n frames"
    grep -q 'fxgl: info: technique Invert@Invert.fx loaded, on' "$tmp/run.log" ||
        { echo "FAIL: fxgl did not run Invert.fx"; fail=1; }
    [ "$got" -eq "$want" ] || { echo "FAIL: exit status $got, glmark2 alone $want"; fail=1; }
    rm -f "$tmp/stats.csv"
done
echo "glmark2 under ASan with fxgl: $frames frames in $runs runs"
if [ "$frames" -lt 1000 ]; then
    echo "FAIL: only $frames frames in $runs runs (set FXGL_ASAN_SECONDS higher on a slow machine)"
    fail=1
fi
if grep -E 'ERROR: AddressSanitizer|runtime error:' "$tmp/asan.log" >/dev/null; then
    echo "FAIL: sanitizer errors:"
    grep -E -A12 'ERROR: AddressSanitizer|runtime error:' "$tmp/asan.log" | head -40
    fail=1
fi
# LeakSanitizer names a frame "libfxgl.so+0xOFF" when the nearest module
# below the address is ours, even past our last mapped byte: code of a
# driver mapped after us and unloaded at exit (Mesa's) then reads as fxgl's.
# Frames beyond libfxgl.so's mapped size are renamed before judging.
end=0
for seg in $(readelf -lW "$lib" | awk '$1 == "LOAD" {print $3 ":" $6}'); do
    e=$(( ${seg%%:*} + ${seg##*:} ))
    [ "$e" -gt "$end" ] && end=$e
done
while IFS= read -r line; do
    case $line in
    *libfxgl.so+0x*)
        off=${line##*libfxgl.so+}; off=${off%%)*}
        if [ "$end" -gt 0 ] && [ $((off)) -ge "$end" ]; then
            line=$(printf '%s' "$line" | sed 's/libfxgl\.so+/<unloaded module>+/')
        fi ;;
    esac
    printf '%s\n' "$line"
done <"$tmp/asan.log" >"$tmp/asan-judged.log"
# One leak report block per "Direct/Indirect leak" line; fxgl's are those
# whose stack names its sources or library.
leaks=$(awk '/(Direct|Indirect) leak/ {block = $0; next}
             block != "" && /^$/ {if (block ~ /libfxgl|src\/(interpose|gl|fx|preset)\//) print block; block = ""; next}
             block != "" {block = block "\n" $0}' "$tmp/asan-judged.log")
total=$(grep -c -E '(Direct|Indirect) leak' "$tmp/asan.log")
if [ -n "$leaks" ]; then
    echo "FAIL: leaks through fxgl:"
    printf '%s\n' "$leaks" | head -60
    fail=1
fi
echo "leak reports: $total in all, none through fxgl: $([ -z "$leaks" ] && echo yes || echo no)"
[ $fail -eq 0 ] && echo "asan glmark2: ok"
exit $fail
