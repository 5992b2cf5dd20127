#!/bin/sh
# test_first_hour.sh - what a player meets in the first hour, on an installed fxgl
# (make install DESTDIR=<tmp>) and a real GLX program (tests/interpose/ip_glx_app) under
# a private Xvfb.
#
# A game folder laid out as on Windows: ReShade.ini and the preset with CRLF line ends,
# `.\reshade-shaders\Shaders\**` and `.\reshade-shaders\Textures\**`, an SMAA-shaped
# effect in a sub-folder of the shaders with its two lookup images in a sub-folder of the
# textures, and a LUT effect with its curve in another. Both are our own test effects
# (tests/interpose/data/first_hour): the SMAA-shaped one keeps the frame only when both
# its images are found (else black), the LUT inverts it exactly (else black), so the
# chain is the frame inverted exactly when every texture was found. That is checked:
#   - through fxgl: the program compares every presented pixel with its own frame
#     inverted (FXGL_TEST_EXPECT_INVERT=1);
#   - through fxgl-render: its output is byte for byte that of the plain Invert.fx;
#   - through fxc preset: no warning, exit 0.
# The same folder with `Textures` written without `**` makes each tool say which
# texture is missing and where it looked, in those words, and exit non-zero.
# Then the messages a player sees at the default log level (which configuration and
# preset, a missing preset, a preset name that matches nothing), fxc check finding the
# installed ReShade.fxh without -I, a per-program configuration
# ($XDG_CONFIG_HOME/fxgl/<program>.conf) and the default effects key (Home) on the
# running program, pressed through XTest; a second context of the process reusing the
# first one's compile (counted in the log).
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-..}
make=${FXGL_MAKE:-make}
for v in FXGL_LIBDIR FXGL_BINDIR FXGL_PKGDATADIR; do
    eval "[ -n \"\${$v:-}\" ]" || { echo "FAIL: $v not set (run through make check)"; exit 1; }
done
fail=0
tmp=$(mktemp -d)
xvfb_pid=
cleanup() {
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
dest=$tmp/root
data_src=$src/tests/interpose/data

# The sub-make must not join make check's job server, nor see its flags.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $make -C "$build" install DESTDIR="$dest" \
        > "$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL: make install DESTDIR=$dest"
    exit 1
fi
lib=$dest$FXGL_LIBDIR/libfxgl.so
bin=$dest$FXGL_BINDIR
data=$dest$FXGL_PKGDATADIR
home=$tmp/home
mkdir -p "$home"
# An empty home, the installed files (DESTDIR moves them, FXGL_* says where).
run_env() {
    env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CONFIG_DIRS -u FXGL_PRESET \
        -u FXGL_CONFIG -u FXGL_EFFECT_PATHS -u FXGL_TEXTURE_PATHS -u FXGL_LOG -u LD_PRELOAD \
        -u FXGL_LOG_FILE -u FXGL_KEYS HOME="$home" XDG_CONFIG_DIRS=/nonexistent-fxgl \
        FXGL_LIBRARY="$lib" FXGL_DATA_DIR="$data" FXGL_FXC="$bin/fxc" \
        FXGL_CTL="$bin/fxgl-ctl" "$@"
}
same() { # what, want, got
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- want\n%s\n--- got\n%s\n' "$1" "$2" "$3"
        fail=1
    fi
}
has_line() { # what, line, file
    grep -qxF -- "$2" "$3" || { printf 'FAIL: %s: no line\n  %s\nin:\n' "$1" "$2"; cat "$3"; fail=1; }
}
crlf() { sed 's/$/\r/'; }

# --- the game folder, Windows-style ---
game=$tmp/game
rs=$game/reshade-shaders
mkdir -p "$rs/Shaders/SMAA" "$rs/Textures/luts" "$rs/Textures/smaa"
cp "$data_src/first_hour/Shaders/TestLUT.fx" "$rs/Shaders/"
cp "$data_src/first_hour/Shaders/SMAA/TestSMAA.fx" "$rs/Shaders/SMAA/"
cp "$data_src/first_hour/Textures/luts/strip_lut.png" "$rs/Textures/luts/"
cp "$data_src/first_hour/Textures/smaa/TestArea.png" "$data_src/first_hour/Textures/smaa/TestSearch.png" \
    "$rs/Textures/smaa/"
chmod -R u+w "$game" # distcheck's sources are read-only
crlf > "$game/ReShade.ini" <<'EOF'
[GENERAL]
EffectSearchPaths=.\reshade-shaders\Shaders\**
TextureSearchPaths=.\reshade-shaders\Textures\**
PresetPath=.\FirstHour.ini
EOF
crlf > "$game/FirstHour.ini" <<'EOF'
Techniques=TestSMAA@TestSMAA.fx,TestLUT@TestLUT.fx
TechniqueSorting=TestSMAA@TestSMAA.fx,TestLUT@TestLUT.fx
EOF
# The same textures written without `**`: only the top folder, where there are none.
mkdir -p "$tmp/flat"
crlf > "$tmp/flat/ReShade.ini" <<EOF
[GENERAL]
EffectSearchPaths=$game\\reshade-shaders\\Shaders\\**
TextureSearchPaths=$game\\reshade-shaders\\Textures
PresetPath=$game\\FirstHour.ini
EOF
app_src=$build/tests/interpose/ip_glx_app
[ -x "$app_src" ] || { echo "FAIL: $app_src not built"; exit 1; }
cp "$app_src" "$game/ip_glx_app" # the program, in its folder, as a game is

# --- fxc preset: the preset against the configuration's folders ---
run_env "$bin/fxc" preset "$game/FirstHour.ini" --config "$game/ReShade.ini" \
    > "$tmp/preset.out" 2> "$tmp/preset.err"
rc=$?
same "fxc preset: exit status" "0" "$rc"
same "fxc preset: stderr" "" "$(cat "$tmp/preset.err")"
has_line "fxc preset: order" "  1. TestSMAA@TestSMAA.fx" "$tmp/preset.out"
has_line "fxc preset: order" "  2. TestLUT@TestLUT.fx" "$tmp/preset.out"
run_env "$bin/fxc" preset "$game/FirstHour.ini" --config "$tmp/flat/ReShade.ini" \
    > "$tmp/preset.out" 2> "$tmp/preset.err"
rc=$?
same "fxc preset, textures without **: exit status" "1" "$rc"
same "fxc preset, textures without **: stderr" \
"$rs/Shaders/TestLUT.fx: warning: texture 'LutTex': source 'strip_lut.png' not found in: $rs/Shaders, $rs/Textures
$rs/Shaders/SMAA/TestSMAA.fx: warning: texture 'AreaTex': source 'TestArea.png' not found in: $rs/Shaders/SMAA, $rs/Textures
$rs/Shaders/SMAA/TestSMAA.fx: warning: texture 'SearchTex': source 'TestSearch.png' not found in: $rs/Shaders/SMAA, $rs/Textures
fxc preset: 3 warnings" "$(cat "$tmp/preset.err")"
run_env "$bin/fxc" preset "$tmp/Missing.ini" --shaders "$rs/Shaders/**" > /dev/null 2> "$tmp/preset.err"
rc=$?
same "fxc preset, missing preset: exit status" "2" "$rc"
same "fxc preset, missing preset: stderr" "$tmp/Missing.ini: error: the preset does not exist" \
    "$(cat "$tmp/preset.err")"

# --- fxc check without -I: the installed ReShade.fxh, and where it looked ---
printf '#include "ReShade.fxh"\n%s\n%s\n' \
    'float4 P(float4 p : SV_Position) : SV_Target { return 1; }' \
    'technique T { pass { VertexShader = PostProcessVS; PixelShader = P; } }' > "$tmp/Ordered.fx"
run_env "$bin/fxc" check "$tmp/Ordered.fx" > "$tmp/check.out" 2>&1
rc=$?
same "fxc check without -I (installed ReShade.fxh): exit status" "0" "$rc"
printf '#include "Nowhere.fxh"\n' > "$tmp/Missing.fx"
run_env "$bin/fxc" check "$tmp/Missing.fx" > "$tmp/check.out" 2>&1
rc=$?
same "fxc check, include missing: exit status" "1" "$rc"
has_line "fxc check, include missing: where it looked" \
    "fxc: note: no -I: includes were looked for next to the file, then in: $home/.local/share/fxgl/shaders/**, $data/shaders/**" \
    "$tmp/check.out"

# --- fxgl --list-effects and --print-config: the game's configuration ---
run_env sh "$bin/fxgl" --list-effects "$game/ip_glx_app" > "$tmp/list.out" 2>&1
rc=$?
same "fxgl --list-effects (game): exit status" "0" "$rc"
same "fxgl --list-effects (game)" "$rs/Shaders/TestLUT.fx: TestLUT
$rs/Shaders/SMAA/TestSMAA.fx: TestSMAA" "$(cat "$tmp/list.out")"
# --config names the file instead of the program: the same list (a first try).
run_env sh "$bin/fxgl" --config "$game/ReShade.ini" --list-effects > "$tmp/list.out" 2>&1
same "fxgl --config ReShade.ini --list-effects" "$rs/Shaders/TestLUT.fx: TestLUT
$rs/Shaders/SMAA/TestSMAA.fx: TestSMAA" "$(cat "$tmp/list.out")"
run_env sh "$bin/fxgl" --print-config "$game/ip_glx_app" > "$tmp/config.out" 2>&1
has_line "--print-config: program's file read" "  read      $game/ReShade.ini" "$tmp/config.out"
has_line "--print-config: per-program file looked for" \
    "  not found $home/.config/fxgl/ip_glx_app.conf" "$tmp/config.out"
has_line "--print-config: preset" \
    "preset: $game/FirstHour.ini (PresetPath in $game/ReShade.ini:4)" "$tmp/config.out"
has_line "--print-config: textures" "texture search paths: $rs/Textures/**" "$tmp/config.out"
has_line "--print-config: texture folders" "  3 folders searched, 3 of them exist" "$tmp/config.out"
grep -q '^keys: KeyEffects=Home,' "$tmp/config.out" ||
    { echo "FAIL: --print-config: the default effects key is not Home"; cat "$tmp/config.out"; fail=1; }

# --- fxgl-render: the chain is the frame inverted, as Invert.fx makes it ---
"$bin/fxgl-render" --frames 2 --output "$tmp/ref.png" "$data_src/Invert.fx" > /dev/null 2>&1
rc=$?
if [ $rc -ne 0 ] && "$bin/fxgl-render" --frames 1 --output "$tmp/x.png" 2>&1 | grep -q 'no EGL context'; then
    echo "note: no EGL context: fxgl-render checks skipped"
else
    same "fxgl-render Invert.fx: exit status" "0" "$rc"
    (cd "$game" && run_env "$bin/fxgl-render" --frames 2 --output "$tmp/chain.png" \
        --preset 'FirstHour.ini' -I '.\reshade-shaders\Shaders\**' \
        --textures '.\reshade-shaders\Textures\**') > "$tmp/render.out" 2> "$tmp/render.err"
    rc=$?
    same "fxgl-render, Windows layout: exit status" "0" "$rc"
    same "fxgl-render, Windows layout: stderr" "" "$(cat "$tmp/render.err")"
    cmp -s "$tmp/ref.png" "$tmp/chain.png" ||
        { echo "FAIL: fxgl-render: the chain's output is not the frame inverted"; fail=1; }
    (cd "$game" && run_env "$bin/fxgl-render" --frames 2 --output "$tmp/flat.png" \
        --preset 'FirstHour.ini' -I '.\reshade-shaders\Shaders\**' \
        --textures '.\reshade-shaders\Textures') > "$tmp/render.out" 2> "$tmp/render.err"
    rc=$?
    same "fxgl-render, textures without **: exit status" "1" "$rc"
    same "fxgl-render, textures without **: stderr" \
"fxgl-render: TestSMAA.fx: texture 'AreaTex': source 'TestArea.png' not found in: reshade-shaders/Shaders/SMAA, reshade-shaders/Textures
fxgl-render: TestSMAA.fx: texture 'SearchTex': source 'TestSearch.png' not found in: reshade-shaders/Shaders/SMAA, reshade-shaders/Textures
fxgl-render: TestLUT.fx: texture 'LutTex': source 'strip_lut.png' not found in: reshade-shaders/Shaders, reshade-shaders/Textures
fxgl-render: technique TestSMAA@TestSMAA.fx loaded, but texture 'AreaTex' (TestArea.png) missing, texture 'SearchTex' (TestSearch.png) missing
fxgl-render: technique TestLUT@TestLUT.fx loaded, but texture 'LutTex' (strip_lut.png) missing" \
        "$(cat "$tmp/render.err")"
    cmp -s "$tmp/ref.png" "$tmp/flat.png" &&
        { echo "FAIL: fxgl-render: the chain inverted the frame without its textures"; fail=1; }
fi

# --- a real program under Xvfb ---
xvfb=$(command -v Xvfb) || { echo "SKIP: no Xvfb (apt-get install xvfb)"; exit 77; }
if ldd "$lib" 2>/dev/null | grep -q libasan; then
    # See test_preload.c: an ASan-built library cannot be preloaded into a program
    # whose ASan runtime comes later.
    echo "note: sanitizer build: the installed library is not preloaded here"
    exit $fail
fi
"$xvfb" -displayfd 3 -noreset -screen 0 640x480x24 -nolisten tcp 3> "$tmp/display" \
    > "$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
i=0
while [ ! -s "$tmp/display" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$tmp/display" ] || { cat "$tmp/xvfb.log"; echo "SKIP: Xvfb did not start"; exit 77; }
DISPLAY=:$(cat "$tmp/display")
export DISPLAY
app=$game/ip_glx_app
"$app" > "$tmp/plain.log" 2>&1
rc=$?
[ $rc -eq 77 ] && { cat "$tmp/plain.log"; echo "SKIP: ip_glx_app skipped itself"; exit 77; }
[ $rc -eq 0 ] || { cat "$tmp/plain.log"; echo "FAIL: ip_glx_app without fxgl exited $rc"; exit 1; }

# The fxgl lines of a run's output (the program prints its own too).
fxgl_lines() { grep '^fxgl: ' "$1"; }

# 1. The game folder through the installed fxgl: every texture found, the frame
# inverted exactly; at the default level one line says what was used, nothing else.
run_env FXGL_TEST_EXPECT_INVERT=1 sh "$bin/fxgl" "$app" > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, Windows layout: exit status (the program checks every pixel)" "0" "$rc"
[ $rc -eq 0 ] || cat "$tmp/run.log"
same "fxgl, Windows layout: what fxgl said" \
    "fxgl: configuration $game/ReShade.ini; preset $game/FirstHour.ini (PresetPath in $game/ReShade.ini:4)" \
    "$(fxgl_lines "$tmp/run.log")"

# 1b. A screenshot (Print, pressed through XTest) is named after the preset PresetPath
# chose, not "nopreset". The program then expects frames without the effect and fails
# (Print does not turn it off): only the file is checked here.
mkdir -p "$tmp/shots"
run_env FXGL_SCREENSHOT_DIR="$tmp/shots" FXGL_TEST_EXPECT_INVERT=1 FXGL_TEST_TOGGLE_KEY=Print \
    sh "$bin/fxgl" "$app" --mode one --toggle-at 1 > "$tmp/run.log" 2>&1
shots=$(cd "$tmp/shots" && ls)
case $shots in
ip-glx-app_FirstHour_*.png) ;;
*) echo "FAIL: screenshot name: want ip-glx-app_FirstHour_<time>.png, got '$shots'"; fail=1 ;;
esac

# 2. Textures written without **: the program sees a black frame, not its frame
# inverted (exit 1), and fxgl says which textures and where it looked.
run_env FXGL_CONFIG="$tmp/flat/ReShade.ini" FXGL_TEST_EXPECT_INVERT=1 sh "$bin/fxgl" "$app" \
    > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, textures without **: exit status" "1" "$rc"
for line in \
    "fxgl: error: TestSMAA.fx: texture 'AreaTex': source 'TestArea.png' not found in: $rs/Shaders/SMAA, $rs/Textures" \
    "fxgl: error: TestLUT.fx: texture 'LutTex': source 'strip_lut.png' not found in: $rs/Shaders, $rs/Textures" \
    "fxgl: warn: technique TestSMAA@TestSMAA.fx loaded, on, but texture 'AreaTex' (TestArea.png) missing, texture 'SearchTex' (TestSearch.png) missing" \
    "fxgl: warn: technique TestLUT@TestLUT.fx loaded, on, but texture 'LutTex' (strip_lut.png) missing"; do
    has_line "fxgl, textures without **" "$line" "$tmp/run.log"
done

# 3. A preset file that does not exist, and a name that matches no preset: a warning
# naming what was looked for; the frames pass through (the program sees its own).
plain_app=$app_src # a folder without configuration
run_env sh "$bin/fxgl" --preset "$tmp/Missing.ini" "$plain_app" > "$tmp/run.log" 2>&1
rc=$?
same "fxgl --preset Missing.ini: exit status" "0" "$rc"
same "fxgl --preset Missing.ini: what fxgl said" \
"fxgl: warn: $tmp/Missing.ini: warning: the preset does not exist (named by FXGL_PRESET (fxgl --preset)): no effects run
fxgl: configuration none; preset $tmp/Missing.ini (FXGL_PRESET (fxgl --preset))" \
    "$(fxgl_lines "$tmp/run.log")"
run_env sh "$bin/fxgl" --preset Nope "$plain_app" > "$tmp/run.log" 2>&1
rc=$?
same "fxgl --preset Nope: exit status" "0" "$rc"
same "fxgl --preset Nope: what fxgl said" \
"fxgl: warn: FXGL_PRESET: warning: no preset named 'Nope' (looked for Nope.ini in $home/.local/share/fxgl/presets and $data/presets): no effects run
fxgl: configuration none; preset $data/presets/Nope.ini (FXGL_PRESET (fxgl --preset))" \
    "$(fxgl_lines "$tmp/run.log")"

# 4. A per-program configuration: $XDG_CONFIG_HOME/fxgl/ip_glx_app.conf names the
# inverting preset (its relative paths are relative to that folder); another program's
# file does nothing.
xdg=$tmp/xdg
mkdir -p "$xdg/fxgl/fx"
cp "$data_src/Invert.fx" "$xdg/fxgl/fx/"
crlf > "$xdg/fxgl/invert.ini" <<'EOF'
Techniques=Invert@Invert.fx
EOF
crlf > "$xdg/fxgl/ip_glx_app.conf" <<'EOF'
[GENERAL]
EffectSearchPaths=.\fx
PresetPath=.\invert.ini
EOF
run_env XDG_CONFIG_HOME="$xdg" FXGL_TEST_EXPECT_INVERT=1 sh "$bin/fxgl" "$plain_app" \
    > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, ip_glx_app.conf: exit status" "0" "$rc"
[ $rc -eq 0 ] || cat "$tmp/run.log"
same "fxgl, ip_glx_app.conf: what fxgl said" \
    "fxgl: configuration $xdg/fxgl/ip_glx_app.conf; preset $xdg/fxgl/invert.ini (PresetPath in $xdg/fxgl/ip_glx_app.conf:3)" \
    "$(fxgl_lines "$tmp/run.log")"
mv "$xdg/fxgl/ip_glx_app.conf" "$xdg/fxgl/other.conf"
run_env XDG_CONFIG_HOME="$xdg" FXGL_TEST_EXPECT_INVERT=1 sh "$bin/fxgl" "$plain_app" \
    > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, other.conf only: exit status (not inverted)" "1" "$rc"
mv "$xdg/fxgl/other.conf" "$xdg/fxgl/ip_glx_app.conf"

# 5. The default effects key: Home, held during frame 3's swap, turns the effects off
# from frame 3 on (the program expects inverted frames 0-2 only). KeyEffects of a
# configuration replaces it: bound to I, Home does nothing and the expectation fails.
# Home is also KeyOverlay's default, and the editing overlay takes a key both are bound
# to (test_overlay_app): here KeyOverlay is unbound, so Home is KeyEffects' alone.
printf '[INPUT]\r\nKeyOverlay=0,0,0,0\r\n' >> "$xdg/fxgl/ip_glx_app.conf"
run_env XDG_CONFIG_HOME="$xdg" FXGL_TEST_EXPECT_INVERT=1 FXGL_TEST_TOGGLE_KEY=Home \
    sh "$bin/fxgl" "$plain_app" --mode one --toggle-at 3 > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, Home pressed at frame 3: exit status" "0" "$rc"
[ $rc -eq 0 ] || cat "$tmp/run.log"
printf 'KeyEffects=73,0,0,0\r\n' >> "$xdg/fxgl/ip_glx_app.conf"
run_env XDG_CONFIG_HOME="$xdg" FXGL_TEST_EXPECT_INVERT=1 FXGL_TEST_TOGGLE_KEY=Home \
    sh "$bin/fxgl" "$plain_app" --mode one --toggle-at 3 > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, KeyEffects=I, Home pressed: exit status (still inverted)" "1" "$rc"
run_env XDG_CONFIG_HOME="$xdg" FXGL_TEST_EXPECT_INVERT=1 \
    sh "$bin/fxgl" "$plain_app" --mode one --toggle-at 3 > "$tmp/run.log" 2>&1
rc=$?
same "fxgl, KeyEffects=I, I pressed: exit status" "0" "$rc"

# 6. A second context of the process compiles nothing the first compiled for the same
# size and API: two windows of one size, two unshared contexts (one core profile), both
# inverted; the compile is reused once and counted. Windows of different sizes compile
# twice (BUFFER_WIDTH/HEIGHT are compiled in).
cp "$data_src/invert.ini" "$tmp/invert.ini"
reuse_line="fxgl: info: Invert.fx: reused the compile of another context (1 reuse in this process)"
run_env FXGL_LOG=info FXGL_TEST_EXPECT_INVERT=1 FXGL_EFFECT_PATHS="$data_src" \
    sh "$bin/fxgl" --preset "$tmp/invert.ini" "$plain_app" --mode two --size2 96x64 \
    > "$tmp/run.log" 2>&1
rc=$?
same "two contexts of one size: exit status" "0" "$rc"
[ $rc -eq 0 ] || cat "$tmp/run.log"
same "two contexts of one size: reuses" "$reuse_line" "$(grep 'reused the compile' "$tmp/run.log")"
has_line "two contexts of one size: the second compiles nothing" \
    "fxgl: info: compiling 0 effect file(s) on a worker thread (1 more compiled by another context), live reload on (FXGL_RELOAD=0 turns it off); frames pass through until they are ready" \
    "$tmp/run.log"
run_env FXGL_LOG=info FXGL_TEST_EXPECT_INVERT=1 FXGL_EFFECT_PATHS="$data_src" \
    sh "$bin/fxgl" --preset "$tmp/invert.ini" "$plain_app" --mode two --size2 80x48 \
    > "$tmp/run.log" 2>&1
rc=$?
same "two contexts of two sizes: exit status" "0" "$rc"
same "two contexts of two sizes: reuses" "" "$(grep 'reused the compile' "$tmp/run.log")"

[ $fail -eq 0 ] && echo "first hour: Windows layout through fxgl, fxgl-render and fxc preset; messages; per-program configuration; Home; a second context reuses the compile: ok"
exit $fail
