#!/bin/sh
# test_fxgl_cmd.sh - the `fxgl` command (build-tree variant): options become
# FXGL_* variables, LD_PRELOAD gets the absolute library path first and only
# once, the program is exec'd with its arguments and its exit status kept.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
fxgl="$build/tests/interpose/fxgl-uninstalled"
lib="$build/.libs/libfxgl.so"
check() { # description, expected, actual
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: got '$3', want '$2'"
        fail=1
    fi
}
[ -f "$fxgl" ] || { echo "FAIL: $fxgl not built"; exit 1; }
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
lib=$(cd "${lib%/*}" && pwd)/libfxgl.so
fail=0

# The programs run here are shells printing their environment. They get a
# stand-in library (an empty file, which ld.so skips with a message on
# stderr), so the test also holds in the sanitizer build, where preloading
# the real ASan-built library into an uninstrumented shell aborts.
grep -q "'$lib'" "$fxgl" || { echo "FAIL: $fxgl does not default to $lib"; fail=1; }
stand_in_dir=$(mktemp -d)
trap 'rm -rf "$stand_in_dir"' EXIT
lib="$stand_in_dir/libfxgl.so"
: > "$lib"
FXGL_LIBRARY=$lib
export FXGL_LIBRARY
show() { sh "$fxgl" "$@" sh -c 'printf "%s|%s|%s|%s|%s\n" "${LD_PRELOAD:-}" \
    "${FXGL_PRESET:-}" "${FXGL_LOG:-}" "${FXGL_DLSYM:-}" "${FXGL_CONFIG:-}"' 2>/dev/null; }

out=$(env -u LD_PRELOAD sh "$fxgl" sh -c 'echo $LD_PRELOAD' 2>/dev/null)
check "LD_PRELOAD set" "$lib" "$out"
out=$(LD_PRELOAD=/x/other.so sh "$fxgl" sh -c 'echo $LD_PRELOAD' 2>/dev/null)
check "prepended to an existing LD_PRELOAD" "$lib:/x/other.so" "$out"
out=$(LD_PRELOAD="/x/other.so:$lib" sh "$fxgl" sh -c 'echo $LD_PRELOAD' 2>/dev/null)
check "never twice" "/x/other.so:$lib" "$out"
out=$(show --preset "/p/My Preset.ini" --log info --no-dlsym --config=/c.ini)
check "options to variables" "$lib|/p/My Preset.ini|info|0|/c.ini" "$out"
out=$(sh "$fxgl" sh -c 'exit 42' 2>/dev/null; echo $?)
check "exit status kept" "42" "$out"
out=$(sh "$fxgl" -- printf '%s,' a "b c" --preset 2>/dev/null; echo)
check "arguments passed unchanged" "a,b c,--preset," "$out"
out=$(sh "$fxgl" --version)
case $out in "fxgl "[0-9]*) ;; *) echo "FAIL: --version printed '$out'"; fail=1 ;; esac
sh "$fxgl" --help | grep -q -- '--preset PRESET' || { echo "FAIL: --help"; fail=1; }
sh "$fxgl" --bogus true 2>/dev/null; check "unknown option" "2" "$?"
sh "$fxgl" --log loud true 2>/dev/null; check "bad log level" "2" "$?"
sh "$fxgl" 2>/dev/null; check "no program" "2" "$?"
FXGL_LIBRARY=/nonexistent/libfxgl.so sh "$fxgl" true 2>/dev/null
check "missing library" "2" "$?"
dir=$(mktemp -d)
mkdir -p "$dir/sub" "$dir/other" && : > "$dir/a.fx" && : > "$dir/sub/b.fx"
: > "$dir/other/a.fx" && : > "$dir/other/c.fx"
# "dir/**" searches below, "dir" does not, and the first file of a name hides later
# ones (as the library loads them): fxc config lists them, with the library's code.
out=$(FXGL_EFFECT_PATHS="$dir/**:$dir/other" sh "$fxgl" --list-effects |
    sed "s|$dir/||" | tr '\n' ' ')
check "--list-effects" "a.fx: other/c.fx: sub/b.fx: " "$out"
out=$(FXGL_EFFECT_PATHS="$dir" sh "$fxgl" --list-effects | sed "s|$dir/||" | tr '\n' ' ')
check "--list-effects, not recursive" "a.fx: " "$out"
out=$(FXGL_FXC=/nonexistent/fxc sh "$fxgl" --list-effects 2>&1)
check "--list-effects without fxc" "fxgl: fxc not found: /nonexistent/fxc (set FXGL_FXC)" "$out"
# A program that does not exist: one clear line, the shell's status for "not found".
out=$(sh "$fxgl" nosuchprogram-fxgl 2>&1)
check "no such program" "127 fxgl: program not found: nosuchprogram-fxgl" "$? $out"
out=$(sh "$fxgl" "$dir/nothere" 2>&1)
check "no such file" "127 fxgl: program not found: $dir/nothere" "$? $out"
out=$(sh "$fxgl" "$dir/a.fx" 2>&1)
check "not executable" "126 fxgl: program not executable: $dir/a.fx" "$? $out"
# With the build's fxc: techniques, compiled against the same include path.
{
    echo '#include "inc.fxh"'
    echo 'technique One { pass { VertexShader = V; PixelShader = P; } }'
    echo 'technique Two { pass { VertexShader = V; PixelShader = P; } }'
} > "$dir/sub/b.fx"
printf 'void V(uint id : SV_VertexID, out float4 p : SV_Position) { p = 0; }\n%s\n' \
    'float4 P(float4 p : SV_Position) : SV_Target { return 1; }' > "$dir/inc.fxh"
printf 'technique Broken {' > "$dir/other/c.fx"
out=$(FXGL_EFFECT_PATHS="$dir/other:$dir/**" sh "$fxgl" --list-effects | sed "s|$dir/||" |
    tr '\n' ' ')
check "--list-effects with techniques" \
    "other/a.fx: other/c.fx: (does not compile; see: fxc check) sub/b.fx: One Two " "$out"
rm -rf "$dir"
[ $fail -eq 0 ] && echo "fxgl command: ok"
exit $fail
