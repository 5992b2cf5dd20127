# vk_env.sh - sourced by the tests/vk scripts (after `set -u`): where the
# tools are, a scratch directory removed on exit, and vk_need, which exits 77
# (skip) without fxgl-vkrender or a Vulkan driver.
top=${FXGL_TOP_SRCDIR:-$(dirname "$0")/../..}
build=${FXGL_TOP_BUILDDIR:-.}
gl="$build/fxgl-render"
vk="$build/fxgl-vkrender"
fxc="$build/fxc"
diff="$build/tools/fxgl-imgdiff"
shaders="$top/data/shaders"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# LeakSanitizer (sanitizer builds) cannot name lavapipe's allocations: the loader unloads the
# driver before exit. test_sync.sh has the validation layer check fxgl's Vulkan objects.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"; export ASAN_OPTIONS

vk_need() {
    [ -x "$vk" ] || { echo "SKIP: fxgl-vkrender not built: configure found no Vulkan (apt-get install libvulkan-dev)"; exit 77; }
    ls /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null | grep -q json ||
        { echo "SKIP: no Vulkan driver (apt-get install mesa-vulkan-drivers)"; exit 77; }
}
