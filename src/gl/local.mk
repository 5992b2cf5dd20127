# src/gl/local.mk - the GL runtime library and its tests (included by Makefile.am).

noinst_LTLIBRARIES += libfxgl_gl.la
libfxgl_gl_la_SOURCES = \
	src/gl/fxgl_gl.h \
	src/gl/dispatch.c \
	src/gl/gl_state.h \
	src/gl/state.c \
	src/gl/gl_runtime.h \
	src/gl/runtime.c \
	src/gl/replace.c \
	src/gl/effect_ops.c \
	src/gl/share.c \
	src/gl/prewarm.c \
	src/gl/variant.c \
	src/gl/progcache.c \
	src/gl/cache.c \
	src/gl/load.c \
	src/gl/gl_exact.h \
	src/gl/exact.c \
	src/gl/compute.c \
	src/gl/frame.c \
	src/gl/fbo_depth.c \
	src/gl/special.c \
	src/gl/image.c \
	src/gl/gl_inspect.h \
	src/gl/inspect.c \
	src/gl/dump.c \
	src/gl/visualise.c \
	src/gl/hud.c \
	src/gl/font.c \
	src/gl/fxgl_ui.h \
	src/gl/ui.c \
	src/gl/screenshot.c \
	src/backend/fxgl_backend.h \
	src/backend/backend.c
libfxgl_gl_la_CPPFLAGS = $(AM_CPPFLAGS) $(STB_CFLAGS)
libfxgl_gl_la_LIBADD = libfxgl_glad.la libfxgl_fx.la -lpthread -lm

check_PROGRAMS += tests/gl/test_state
tests_gl_test_state_SOURCES = tests/gl/test_state.c tests/gl/tfx.h
tests_gl_test_state_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_state_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/gl/test_runtime
tests_gl_test_runtime_SOURCES = tests/gl/test_runtime.c tests/gl/tfx.h
tests_gl_test_runtime_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_runtime_LDADD = $(TEST_LDADD) -lm -lpthread

# Exact fullscreen varyings: the analysis, and pixels against exact values.
check_PROGRAMS += tests/gl/test_exact
tests_gl_test_exact_SOURCES = tests/gl/test_exact.c
tests_gl_test_exact_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_exact_LDADD = $(TEST_LDADD) -lm

# Pixel passes as compute dispatches: the decision, and pixels against fragment passes.
check_PROGRAMS += tests/gl/test_compute
tests_gl_test_compute_SOURCES = tests/gl/test_compute.c
tests_gl_test_compute_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_compute_LDADD = $(TEST_LDADD) -lm

# The default framebuffer's depth for each kind of window visual (GLX, Xvfb).
check_PROGRAMS += tests/gl/test_depth_visual
tests_gl_test_depth_visual_SOURCES = tests/gl/test_depth_visual.c tests/gl/tfx.h
tests_gl_test_depth_visual_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS)
tests_gl_test_depth_visual_LDADD = $(TEST_LDADD) $(EGL_LIBS) $(GLX_LIBS) $(X11_LIBS) -lm

check_PROGRAMS += tests/gl/test_gles_emulation
tests_gl_test_gles_emulation_SOURCES = tests/gl/test_gles_emulation.c
tests_gl_test_gles_emulation_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_gles_emulation_LDADD = $(TEST_LDADD) -lm

# The editing overlay's renderer: rectangles, blend, a built-in glyph, the font fallback.
check_PROGRAMS += tests/gl/test_ui
tests_gl_test_ui_SOURCES = tests/gl/test_ui.c
tests_gl_test_ui_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_ui_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/gl/test_inspect
tests_gl_test_inspect_SOURCES = tests/gl/test_inspect.c tests/gl/tfx.h
tests_gl_test_inspect_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_inspect_LDADD = $(TEST_LDADD) -lm

EXTRA_DIST += src/gl/local.mk tests/gl/data

# The per-frame cost of state capture/restore against a context switch. As a
# check program it runs a short pass in `make check`; run it by hand with an
# iteration count for the figures in docs/state.md.
check_PROGRAMS += bench/state_cost
bench_state_cost_SOURCES = bench/state_cost.c
bench_state_cost_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
bench_state_cost_LDADD = $(TEST_LDADD) $(EGL_LIBS)

# What the statistics overlay costs per frame (docs/inspect.md); a short
# pass in `make check`, figures with bench/inspect.sh.
# The editing overlay's drawing, closed and open (bench/overlay.sh runs it at 1080p and
# counts its calls with apitrace); make check runs a short pass.
check_PROGRAMS += bench/overlay_cost
bench_overlay_cost_SOURCES = bench/overlay_cost.c
bench_overlay_cost_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) -I$(top_srcdir)/tests/gl
bench_overlay_cost_LDADD = $(TEST_LDADD) $(EGL_LIBS)
EXTRA_DIST += bench/overlay.sh

check_PROGRAMS += bench/inspect_cost
bench_inspect_cost_SOURCES = bench/inspect_cost.c
bench_inspect_cost_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) -I$(top_srcdir)/tests/gl
bench_inspect_cost_LDADD = $(TEST_LDADD) $(EGL_LIBS)
EXTRA_DIST += bench/inspect.sh

# fxgl-render: effects over an image on a headless EGL context, PNG + JSON report.
bin_PROGRAMS += fxgl-render
fxgl_render_SOURCES = tools/render.c tests/harness/headless_egl.c tests/harness/rgba_image.c \
	tests/harness/fxgl_test.h
fxgl_render_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/harness $(EGL_CFLAGS) \
	$(STB_CFLAGS) $(INIH_CFLAGS)
fxgl_render_LDADD = libfxgl_gl.la libfxgl_effects.la libfxgl_preset.la libfxgl_fx.la $(INIH_LIBS) $(EGL_LIBS) -lm

# The per-pass cost of the runtime against a hand-written loop (docs/runtime.md).
# `make check` runs a few frames and checks the bars; run it by hand with a
# frame count (and `gles`) for the figures.
check_PROGRAMS += bench/passes
bench_passes_SOURCES = bench/passes.c tests/gl/tfx.h
bench_passes_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) -I$(top_srcdir)/tests/gl
bench_passes_LDADD = $(TEST_LDADD) $(EGL_LIBS)

TESTS += tests/gl/test_render.sh
EXTRA_DIST += tests/gl/test_render.sh
EXTRA_DIST += tools/render-conformance.sh

# The inspection layer through fxgl-render: --dump, --overlay, --visualise.
TESTS += tests/gl/test_render_inspect.sh
EXTRA_DIST += tests/gl/test_render_inspect.sh

check_PROGRAMS += tests/gl/test_copy_in
tests_gl_test_copy_in_SOURCES = tests/gl/test_copy_in.c
tests_gl_test_copy_in_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS)
tests_gl_test_copy_in_LDADD = $(TEST_LDADD) -lm
