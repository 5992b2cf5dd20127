#!/bin/sh
# refdiff.sh - pixel conformance against the reference path: every effect
# through fxgl (fxgl-render, GL) and through vkBasalt (a Vulkan layer running
# ReShade's own FX compiler, on a swapchain of tools/vkpresent.c), the same
# picture, compared per channel. See docs/conformance.md ("Pixels").
#
#   sh tools/refdiff.sh [OUTDIR]               the corpus (reference_verdicts.tsv's
#                                              accepted effects), default and
#                                              perturbed values
#   sh tools/refdiff.sh --files [--exact] [OUTDIR] EFFECT.fx...
#                                              given effects (the tests' own)
#
# Environment: FXGL_CORPUS (default /work/scratch/corpus), FXGL_SHARED (the
# shared folder with reference/; default ../shared beside the repository),
# ONLY=SUBSTRING (corpus paths containing it), VALUES=default|perturbed|both,
# FXGL_BUILD (a configured build tree; default build/, then b/; when none has
# the programs, this script configures and builds build/).
#
# Writes OUTDIR (default refdiff-out)/refdiff.tsv and OUTDIR/side/*.png, and
# prints the summary. Exit status 0 when it ran, 1 when a program failed to
# build or run, 77 when vkBasalt, a Vulkan driver, Xvfb or python3 is missing
# (with the Debian package to install).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

files=0
exact=
if [ "${1:-}" = --files ]; then
    files=1
    shift
    if [ "${1:-}" = --exact ]; then exact=--exact; shift; fi
fi
out=refdiff-out
case "${1:-}" in *.fx|'') ;; *) out=$1; shift ;; esac

skip() { echo "refdiff: SKIP: $*" >&2; exit 77; }
command -v python3 >/dev/null 2>&1 || skip "no python3 (apt-get install python3)"
command -v Xvfb >/dev/null 2>&1 || skip "no Xvfb (apt-get install xvfb)"
ls /usr/share/vulkan/implicit_layer.d/ 2>/dev/null | grep -qi basalt ||
    skip "no vkBasalt layer (apt-get install vkbasalt)"
ls /usr/share/vulkan/icd.d/ 2>/dev/null | grep -q . ||
    skip "no Vulkan driver (apt-get install mesa-vulkan-drivers)"

build=${FXGL_BUILD:-}
if [ -z "$build" ]; then
    for c in "$top/build" "$top/b"; do
        [ -x "$c/tools/fxgl-vkpresent" ] && { build=$c; break; }
    done
fi
if [ -z "$build" ]; then
    build=$top/build
    echo "refdiff: building in $build" >&2
    (cd "$top" && { [ -x configure ] || autoreconf -fi; }) >&2 &&
        mkdir -p "$build" && (cd "$build" && { [ -f Makefile ] || "$top/configure" -q; } &&
        make -j"$(nproc 2>/dev/null || echo 2)" >/dev/null) >&2 ||
        { echo "refdiff: the build failed (tools/bootstrap.sh test installs what it needs)" >&2; exit 1; }
fi
[ -x "$build/tools/fxgl-vkpresent" ] ||
    skip "$build/tools/fxgl-vkpresent not built: configure found no Vulkan (apt-get install libvulkan-dev)"
FXC=$build/fxc FXGL_RENDER=$build/fxgl-render VKPRESENT=$build/tools/fxgl-vkpresent \
    IMGDIFF=$build/tools/fxgl-imgdiff
export FXC FXGL_RENDER VKPRESENT IMGDIFF

# A private X server, big enough for the window; the GL side is EGL
# surfaceless (llvmpipe) and needs none. Mesa's software rasterisers on both
# sides: what CI has.
. "$top/tests/harness/xvfb.sh"
mkdir -p "$out"
xvfb_start 1024x768 "$out" || skip "$xvfb_why"
trap 'xvfb_stop' EXIT
trap 'exit 130' INT TERM
FXGL_TEST_EGL_PLATFORM=${FXGL_TEST_EGL_PLATFORM:-surfaceless}
export FXGL_TEST_EGL_PLATFORM

if [ "$files" = 1 ]; then
    python3 "$top/tools/refdiff.py" files $exact --values "${VALUES:-both}" --out "$out" "$@" ||
        exit 1
else
    python3 "$top/tools/refdiff.py" corpus --values "${VALUES:-both}" --out "$out" \
        --only "${ONLY:-}" ${FXGL_SHARED:+--shared "$FXGL_SHARED"} || exit 1
fi

# The summary: per value set, how many effects both paths ran, how many match.
awk -F'\t' 'NR > 1 {
        n[$2]++; s[$2 " " $3]++
        if ($3 == "match" || $3 == "differ" || $3 == "exact") ran[$2]++
        if ($3 == "match" || $3 == "exact") ok[$2]++
    }
    END {
        for (v in n) {
            printf "refdiff %s values: %d effects; both ran %d, match %d (%.1f %%);", v, n[v],
                ran[v], ok[v], ran[v] ? 100.0 * ok[v] / ran[v] : 0
            for (k in s) if (index(k, v " ") == 1) printf " %s %d", substr(k, length(v) + 2), s[k]
            printf "\n"
        }
    }' "$out/refdiff.tsv"
