#!/bin/sh
# test_exports.sh - the preloaded library exports only hook names and pulls
# in no C++ runtime (a game must never get a second libstdc++ from us).
set -u
build=${FXGL_TOP_BUILDDIR:-.}
lib="$build/.libs/libfxgl.so"
if [ ! -f "$lib" ]; then
    echo "FAIL: $lib was not built"
    exit 1
fi
if ! command -v nm >/dev/null 2>&1; then
    echo "SKIP: nm not found (apt-get install binutils)"
    exit 77
fi
# The hooks the interposer may export; anything else is a leak.
allowed='^(glXSwapBuffers|glXSwapBuffersMscOML|glXGetProcAddress|glXGetProcAddressARB|glXCreateContext|glXCreateNewContext|glXCreateContextAttribsARB|glXDestroyContext|glXCreatePbuffer|glXDestroyPbuffer|glXCreateWindow|glXDestroyWindow|XDestroyWindow|glXMakeCurrent|glXMakeContextCurrent|eglSwapBuffers|eglGetProcAddress|eglCreateContext|eglCreateWindowSurface|eglCreatePlatformWindowSurface|eglDestroyContext|eglDestroySurface|eglTerminate|eglMakeCurrent|eglGetDisplay|eglGetPlatformDisplay|dlsym|dlvsym|dlopen|__glx_Main|_init|_fini)$'
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sed 's/@.*//')
fail=0
for sym in $exported; do
    if ! printf '%s\n' "$sym" | grep -q -E "$allowed"; then
        echo "FAIL: libfxgl.so exports '$sym'"
        fail=1
    fi
done
if readelf -d "$lib" 2>/dev/null | grep -q 'libstdc++'; then
    echo "FAIL: libfxgl.so depends on libstdc++"
    fail=1
fi
[ $fail -eq 0 ] && echo "exports: ok ($(printf '%s\n' "$exported" | grep -c . || true) symbols)"
exit $fail
