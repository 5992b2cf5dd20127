#!/bin/sh
# test_sync.sh - the graph's barriers are enough: the Khronos validation
# layer, with its synchronization validation on, watches fxgl-vkrender run
# effects with mips, compute, storages, stencil and several techniques in
# one frame, in the three graph configurations, and must report nothing
# (no hazard, no invalid use, no Vulkan object left at exit). Without the
# barriers the same run reports read-after-write and write-after-read
# hazards (checked by hand: docs/vulkan.md).
# Skips (77) without fxgl-vkrender, a Vulkan driver or the layer
# (apt-get install vulkan-validationlayers).
set -u
top=${FXGL_TOP_SRCDIR:-$(dirname "$0")/../..}
build=${FXGL_TOP_BUILDDIR:-.}
vk="$build/fxgl-vkrender"
gl="$build/fxgl-render"
shaders="$top/data/shaders"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$vk" ] || { echo "SKIP: fxgl-vkrender not built: configure found no Vulkan (apt-get install libvulkan-dev)"; exit 77; }
ls /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null | grep -q json ||
    { echo "SKIP: no Vulkan driver (apt-get install mesa-vulkan-drivers)"; exit 77; }
ls /usr/share/vulkan/explicit_layer.d/ 2>/dev/null | grep -qi khronos_validation ||
    { echo "SKIP: no VK_LAYER_KHRONOS_validation (apt-get install vulkan-validationlayers)"; exit 77; }
"$gl" --size 96x54 --frames 1 --output "$tmp/in.png" -I "$shaders" "$shaders/fxgl_Passthrough.fx" \
    >/dev/null 2>"$tmp/in.err" || { echo "SKIP: no input image (fxgl-render: $(tail -1 "$tmp/in.err"))"; exit 77; }
fail=0
# LeakSanitizer (sanitizer builds) cannot name lavapipe's allocations: the loader unloads the
# driver before exit. The layer's object tracker checks fxgl's own Vulkan objects instead.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"; export ASAN_OPTIONS
for sw in "" --no-reorder --full-barriers; do
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
        "$vk" --input "$tmp/in.png" --frames 2 --timestamps $sw -I "$shaders" \
        --textures "$build/data/textures" "$shaders/fxgl_Bloom.fx" "$shaders/fxgl_FXAA.fx" \
        "$shaders/fxgl_LUT.fx" "$shaders/fxgl_Vignette.fx" "$top/tests/vk/data/bindings.fx" \
        "$top/tests/vk/data/stencil.fx" >"$tmp/out" 2>&1
    rc=$?
    # A layer that fails to load fails vkCreateInstance: exit 3, reported below.
    if [ $rc -ne 0 ] || grep -q "SYNC-\|VUID-\|Validation Error" "$tmp/out"; then
        echo "FAIL: fxgl-vkrender $sw (exit $rc):"
        grep -m 10 "SYNC-\|VUID-\|Validation Error\|fxgl-vkrender" "$tmp/out" | cut -c1-600
        fail=1
    else
        echo "ok: ${sw:-default order}: no hazard, no invalid use"
    fi
done
exit $fail
