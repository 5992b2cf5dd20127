#!/bin/sh
# Device call 1: unpack loaders and the large X libraries, then EGL benches old vs new.
set -u
D=build-fcdev
for f in $D/gl/*.deb; do dpkg -x "$f" /; done
ldconfig
sh $D/wt/bench/h200_x11.sh --unpack $D/xa || echo "unpack a failed"
nvidia-smi -L
export FXGL_TEST_EGL_PLATFORM=device LD_LIBRARY_PATH=$PWD/$D/bin/lib
nv=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f $nv ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nv
B=$D/bin
mkdir -p $OUT/r
$B/bench/sweep --size 64x36 --frames 3 --passes 1 --modes runtime 2>&1 | tail -1
for r in 1 2 3; do
  for v in old new; do
    s=$B/bench/sweep; [ $v = old ] && s=$B/old/sweep
    timeout 120 $s --size 1920x1080 --frames 200 --passes 1,2,4,8 --modes runtime,frag,copies >$OUT/r/sweep-$v-$r.csv 2>&1 || echo "sweep $v $r failed"
  done
done
for v in new; do
  b=$B; [ $v = old ] && b=$B/old; mkdir -p $b/bench; [ $v = old ] && cp $B/old/sweep $B/old/state_cost $b/bench/ 2>/dev/null
  SWEEP=$b/bench/sweep STATE_COST=$b/bench/state_cost RENDER=$b/fxgl-render BUILD=$B SIZE=1920x1080 FRAMES=200 \
    timeout 200 sh $D/wt/bench/breakdown.sh $OUT/r/bd-$v >$OUT/r/breakdown-$v.txt 2>&1 || echo "breakdown $v failed"
done
echo "--- sweep runtime/copies/frag gpu_ms, passes=1"
grep -h -E '^(runtime|copies|frag),1920,1080,(0|1),' $OUT/r/sweep-*.csv | cut -d, -f1,4,6,7,8,14 | head -40
for v in new old; do echo "--- breakdown $v"; cat $OUT/r/breakdown-$v.txt | head -30; done
tar czf $OUT/egl.tgz -C $OUT r
