# bench/local.mk - benchmark drivers and scripts (included by
# Makefile.am). The scripts are run by hand (one command each, see
# bench/RESULTS.md); the drivers are check programs so that `make check`
# runs them small and checks what they count.

# The pass-count sweep: runtime chains of N passes beside hand-written
# fragment and compute floors (bench/sweep.sh).
check_PROGRAMS += bench/sweep
bench_sweep_SOURCES = bench/sweep.c
bench_sweep_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
bench_sweep_LDADD = $(TEST_LDADD) $(EGL_LIBS)

# What the FBO depth provider's hooks add per call (the library's sources built in).
check_PROGRAMS += bench/depth_hooks
bench_depth_hooks_SOURCES = bench/depth_hooks.c $(libfxgl_la_SOURCES)
bench_depth_hooks_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) \
	$(EGL_CFLAGS) $(WAYLAND_CLIENT_CFLAGS) $(XKBCOMMON_CFLAGS) -DIP_TEST_NO_EXPORTS
bench_depth_hooks_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(AX_PTHREAD_LIBS) -ldl

EXTRA_DIST += bench/depth_cost.sh
EXTRA_DIST += bench/local.mk bench/setup.sh tools/fetch-corpus.sh bench/sweep.sh \
	bench/vs_vulkan.sh bench/vs_graph.sh bench/overhead.sh bench/breakdown.sh bench/loadtime.sh \
	bench/apitrace_check.sh bench/plot.sh bench/h200.sh bench/h200_x11.sh bench/RESULTS.md \
	bench/exact_texcoord.sh bench/preset_gpu.sh

# FXGL_STATS on a real program (src/interpose/stats.c).
TESTS += tests/interpose/test_stats.sh
EXTRA_DIST += tests/interpose/test_stats.sh
