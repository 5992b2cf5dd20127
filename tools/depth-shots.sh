#!/bin/sh
# depth-shots.sh - reproduce the depth screenshots of docs/depth/: real programs
# nobody here wrote, run under fxgl with fxgl_DepthView.fx (image left,
# linearised depth right), the screenshot taken through `fxgl ctl screenshot`
# once the program has drawn its scene.
#
#   sh tools/depth-shots.sh BUILD_DIR OUT_DIR [supertuxkart|glmark2|neverball]...
#
# Needs Xvfb and xdpyinfo (packages xvfb, x11-utils), and the packages of
# the programs shot: supertuxkart (Debian's supertuxkart), glmark2
# (glmark2-x11), neverball (neverball). Not a test: nothing here is in tools/bootstrap.sh. On
# llvmpipe supertuxkart takes minutes to load a track (about 2 on an idle
# 2-core machine at these settings); DEPTH_SHOT_TIMEOUT (seconds, default
# 1800) bounds each program. Writes OUT_DIR/NAME.png, NAME.depth.txt (the
# `fxgl ctl depth` listing at the shot) and NAME.fxgl.log.
#
# supertuxkart draws its scene into framebuffer objects (its deferred
# renderer) and presents a colour pass: the shot shows what FXGL_DEPTH's
# tracking chose. glmark2 draws into the window: the default framebuffer's.
set -u
build=${1:?usage: depth-shots.sh BUILD_DIR OUT_DIR [program]...}
out=${2:?usage: depth-shots.sh BUILD_DIR OUT_DIR [program]...}
shift 2
[ $# -gt 0 ] || set -- supertuxkart glmark2 neverball
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
timeout_s=${DEPTH_SHOT_TIMEOUT:-1800}
work=$(mktemp -d)
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT INT TERM

disp=:$(( ($$ % 400) + 500 ))
Xvfb "$disp" -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=$disp
# fxgl's control socket lives there (fxgl ctl -p PID).
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    export XDG_RUNTIME_DIR=$work/run
    mkdir -m 700 "$XDG_RUNTIME_DIR"
fi
i=0
while ! xdpyinfo >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 100 ] || { echo "Xvfb did not start" >&2; exit 1; }
    sleep 0.1
done

ctl() { "$build/fxgl-ctl" -p "$1" "$2" 2>&1; }

# shoot NAME KEY|none FAR_PLANE -- program args: run it under fxgl; poll
# `fxgl ctl depth` (no sleep is trusted: the program's frames are counted by
# listings) until the chosen candidate is of the kind KEY (texture, default),
# then wait a few more listings (the scene settles) and take the screenshot.
shoot() {
    name=$1; want=$2; far=$3; shift 3
    [ "$1" = -- ] && shift
    # The far plane the linearisation assumes: the program's own scale.
    printf 'PreprocessorDefinitions=RESHADE_DEPTH_LINEARIZATION_FAR_PLANE=%s\n%s\n%s\nMode=2\n' \
        "$far" 'Techniques=fxgl_DepthView@fxgl_DepthView.fx' '[fxgl_DepthView.fx]' >"$work/dv.ini"
    (cd "$work" && exec env FXGL_SCREENSHOT_DIR="$work/shots" FXGL_EFFECT_PATHS="$src/data/shaders" \
        "$build/tools/fxgl" --preset "$work/dv.ini" --log-file "$work/$name.fxgl.log" "$@" \
        >"$work/$name.out" 2>&1) &
    pid=$!
    mkdir -p "$work/shots"
    start=$(date +%s); seen=0
    while kill -0 $pid 2>/dev/null; do
        now=$(date +%s)
        [ $((now - start)) -lt "$timeout_s" ] || { echo "$name: timed out" >&2; break; }
        # the program's own pid: fxgl execs it
        d=$(ctl $pid depth)
        # the chosen row ("* N KEY ...") must be of the kind expected; none:
        # no row chosen (draws made through link-time symbols are not seen),
        # DEPTH is the window's
        rows=$(printf '%s\n' "$d" | tr '|' '\n')
        if [ "$want" = none ]; then
            case $rows in "depth: counting"*) printf '%s\n' "$rows" | grep -q '^ *\* ' ||
                seen=$((seen + 1)) ;;
            esac
        elif printf '%s\n' "$rows" | grep -q "^ *\* [0-9]* $want"; then
            seen=$((seen + 1))
        fi
        if [ $seen -ge 5 ]; then
            echo "$name: $d" | tr '|' '\n' >"$out/$name.depth.txt"
            ctl $pid screenshot >"$work/$name.shot" 2>&1
            # written at the program's next frame: polled, a minute at most
            f=
            for _ in $(seq 60); do
                f=$(ls -t "$work/shots"/*.png 2>/dev/null | head -1)
                [ -n "$f" ] && break
                sleep 1
            done
            [ -n "$f" ] && cp "$f" "$out/$name.png" && echo "$name: $out/$name.png"
            break
        fi
        sleep 2
    done
    kill $pid 2>/dev/null
    wait $pid 2>/dev/null
    cp "$work/$name.fxgl.log" "$out/$name.fxgl.log" 2>/dev/null
}

for p in "$@"; do
    case $p in
    supertuxkart)
        # Its own configuration, at the lowest settings, 320x240 (llvmpipe).
        cfg=$work/stk/config/supertuxkart/config-0.10
        mkdir -p "$cfg" "$work/stk/data" "$work/stk/cache"
        sed -e 's/^\( *\)\(real_\|prev_real_\|\)width="[0-9]*"/\1\2width="320"/' \
            -e 's/^\( *\)\(real_\|prev_real_\|\)height="[0-9]*"/\1\2height="240"/' \
            "$src/tools/depth-shots-stk.xml" >"$cfg/config.xml"
        LP_NUM_THREADS=${LP_NUM_THREADS:-2} XDG_CONFIG_HOME=$work/stk/config \
            XDG_DATA_HOME=$work/stk/data XDG_CACHE_HOME=$work/stk/cache \
            shoot supertuxkart texture "${STK_FAR:-100}" -- \
            /usr/games/supertuxkart --race-now --track=olivermath --numkarts=1 --laps=9 \
            --no-start-screen --screensize=320x240 --windowed
        ;;
    neverball)
        # Its own configuration (HOME), 480x360 in a window, no sound; a level
        # loaded directly. It draws into the window through libGL's link-time
        # symbols, which fxgl's hooks do not see: no candidate is chosen and
        # DEPTH is the window's depth.
        mkdir -p "$work/nb/.neverball"
        printf '%s\n' 'fullscreen 0' 'width 480' 'height 360' 'sound_volume 0' \
            'music_volume 0' >"$work/nb/.neverball/neverballrc"
        HOME=$work/nb shoot neverball none 300 -- \
            /usr/games/neverball -l map-easy/corners.sol
        ;;
    glmark2)
        shoot glmark2 default 4 -- \
            glmark2 -s 480x360 -b build:duration=60 --run-forever
        ;;
    *) echo "unknown program $p" >&2 ;;
    esac
done
