#!/bin/sh
# Device call 2 (right after call 1, machine still warm): Xvfb + NVIDIA GLX, glmark2 old vs new.
set -u
D=build-fcdev
for f in $D/gl/*.deb; do dpkg -x "$f" /; done
ls /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1 >/dev/null 2>&1 || sh $D/wt/bench/h200_x11.sh --unpack $D/xa
LIBFXGL_OLD=$PWD/$D/xb/old/libfxgl.so CONFIGS="${CONFIGS:-none empty passthrough old-passthrough}" \
  SCENES="${SCENES:-build texture effect2d}" RUNS=${RUNS:-7} DURATION=${DURATION:-3} SIZE=1920x1080 \
  timeout 560 sh $D/wt/bench/h200_x11.sh $D/xb $OUT/ov
tar czf $OUT/glx.tgz -C $OUT ov
