#!/bin/sh
# test_share_group.sh - the contexts of one process share what can be shared
# (docs/interpose.md, "Contexts"). tests/interpose/ip_set_app runs a chain of our test
# effects (tests/interpose/data/set/c.ini: one reads an image) on a first context until it
# shows, then on a second context with a window of its own - through GLX (share list) and
# through EGL on the X11 display (share context, OpenGL ES 3):
#   - in the first one's share group: the second context compiles nothing (its effects
#     are the first one's compile), links no program and uploads no image (the group's),
#     and shows the same pixels (the chain, computed by the program);
#   - not shared: it still compiles nothing, but links its own programs and uploads its
#     own image;
#   - in the share group, the first context destroyed (while the second is current, and
#     while itself is current): the second goes on showing the chain - the objects the
#     first made live while a context of the group does.
# The counts are the library's per-context line at info level ("effects of this
# context: ..."). In the sanitizer build the library runs under ASan (its runtime
# preloaded first) and any AddressSanitizer report fails the test.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
src=${FXGL_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
lib="$build/.libs/libfxgl.so"
app="$build/tests/interpose/ip_set_app"
[ -f "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
[ -x "$app" ] || { echo "FAIL: $app was not built"; exit 1; }
preload="$lib"
asan=$(ldd "$lib" 2>/dev/null | awk '/libasan/ {print $3}')
[ -n "$asan" ] && preload="$asan:$lib"
tmp=$(mktemp -d /tmp/fxgl-share-XXXXXX)
. "$src/tests/harness/xvfb.sh"
trap 'xvfb_stop; rm -rf "$tmp"' EXIT
xvfb_start 320x240 "$tmp" || { echo "SKIP: $xvfb_why"; exit 77; }
data="$src/tests/interpose/data/set"
mkdir -p "$tmp/home"
fail=0
chain=swap,half,image,add

# FXGL_CACHE_DIR=off: programs from the on-disk cache's binaries would be neither linked
# nor shared (test_cache_startup.sh covers them); this test counts the group's sharing.
run() { # name app-args...
    _name=$1
    shift
    env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u FXGL_CONFIG -u FXGL_TEXTURE_PATHS \
        -u FXGL_LOG_FILE -u FXGL_KEYS HOME="$tmp/home" XDG_CONFIG_DIRS=/nonexistent-fxgl \
        LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0:intercept_tls_get_addr=0 \
        UBSAN_OPTIONS=print_stacktrace=1 FXGL_LOG=info FXGL_PRESET="$data/c.ini" \
        FXGL_EFFECT_PATHS="$data" FXGL_RELOAD=0 FXGL_CACHE_DIR=off \
        timeout 300 "$app" --chain-a "$chain" --need 10 "$@" >"$tmp/$_name.log" 2>&1
    _rc=$?
    if [ $_rc -ne 0 ] || grep -q 'ERROR: AddressSanitizer\|runtime error:' "$tmp/$_name.log"; then
        echo "FAIL: $_name (exit $_rc):"; cat "$tmp/$_name.log"; fail=1
        return 1
    fi
    return 0
}

# The Nth "effects of this context" line of a run, and a field of it.
counts() { # name N
    grep 'effects of this context:' "$tmp/$1.log" | sed -n "$2p"
}
expect() { # name N regex what
    if ! counts "$1" "$2" | grep -q "$3"; then
        echo "FAIL: $1, context $2: $4; the line is:"
        echo "  $(counts "$1" "$2")"
        fail=1
    fi
}

for api in glx egl; do
    if run "$api-shared" --api $api --second shared; then
        expect "$api-shared" 1 ' [1-9][0-9]* program(s) linked, 0 from the share group' \
            'the first context links its programs'
        expect "$api-shared" 1 '1 image(s) uploaded, 0 from the share group' \
            'the first context uploads its image'
        expect "$api-shared" 2 ': 0 front-end compile(s), 4 taken from another context' \
            'the second context compiles nothing'
        expect "$api-shared" 2 '; 0 program(s) linked, [1-9][0-9]* from the share group' \
            'the second context links nothing'
        expect "$api-shared" 2 '0 image(s) uploaded, 1 from the share group' \
            'the second context uploads nothing'
        echo "$api shared: $(grep '^second' "$tmp/$api-shared.log")"
    fi
    if run "$api-unshared" --api $api --second unshared; then
        expect "$api-unshared" 2 ': 0 front-end compile(s), 4 taken from another context' \
            'the unshared context still compiles nothing'
        expect "$api-unshared" 2 '; [1-9][0-9]* program(s) linked, 0 from the share group' \
            'the unshared context links its own programs'
        expect "$api-unshared" 2 '1 image(s) uploaded, 0 from the share group' \
            'the unshared context uploads its own image'
    fi
    for how in other current; do
        if run "$api-destroy-$how" --api $api --second shared --destroy-first "$how"; then
            echo "$api, first context destroyed ($how):" \
                "$(grep '^second' "$tmp/$api-destroy-$how.log")"
        fi
    done
done
exit $fail
