# src/effects/local.mk - compiling effects as configuration and preset ask, live reload
# (no GL); its tests live in tests/preset (included by Makefile.am).

noinst_LTLIBRARIES += libfxgl_effects.la
libfxgl_effects_la_SOURCES = \
	src/effects/fxgl_effects.h \
	src/effects/compiler.c \
	src/effects/fxgl_diskcache.h \
	src/effects/diskcache.c \
	src/effects/reload.c \
	src/effects/transition.c \
	src/effects/view.c \
	src/effects/set.c
libfxgl_effects_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/effects
# Not linked to libfxgl_fx/libfxgl_preset here: libfxgl.so gets those through libfxgl_gl
# and its own list, and a convenience library inside another one would put the same objects
# in twice. Programs list them after this library.
libfxgl_effects_la_LIBADD = -lpthread -ldl

# `fxc preset` (tools/fxc_preset.c) compiles through this module.
fxc_SOURCES += tools/fxc_preset.c tools/fxc_config.c
fxc_LDADD += libfxgl_effects.la libfxgl_preset.la libfxgl_fx.la

EFFECTS_TEST_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/src/effects $(EGL_CFLAGS) \
	-DPRESET_DATA_DIR='"$(abs_top_srcdir)/tests/preset/data"' \
	-DFXGL_SHADER_DIR='"$(abs_top_srcdir)/data/shaders"'

check_PROGRAMS += tests/preset/test_perfmode
tests_preset_test_perfmode_SOURCES = tests/preset/test_perfmode.c
tests_preset_test_perfmode_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_preset_test_perfmode_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD)

check_PROGRAMS += tests/preset/test_reload
tests_preset_test_reload_SOURCES = tests/preset/test_reload.c
tests_preset_test_reload_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_preset_test_reload_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(EGL_LIBS) -lpthread

EXTRA_DIST += src/effects/local.mk

TESTS += tests/preset/test_fxc_preset.sh tests/preset/test_render_perfmode.sh
EXTRA_DIST += tests/preset/test_fxc_preset.sh tests/preset/test_render_perfmode.sh

check_PROGRAMS += tests/effects/test_diskcache
tests_effects_test_diskcache_SOURCES = tests/effects/test_diskcache.c
tests_effects_test_diskcache_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_effects_test_diskcache_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) -ldl -lpthread

# The on-disk compile cache, through fxgl-render.
TESTS += tests/effects/test_cache.sh
EXTRA_DIST += tests/effects/test_cache.sh

# GPU time with and without performance mode (bench/perfmode.sh runs it with figures;
# as a check program it runs a short pass so that it keeps working).
check_PROGRAMS += bench/perfmode
bench_perfmode_SOURCES = bench/perfmode.c
bench_perfmode_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
bench_perfmode_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(EGL_LIBS)
EXTRA_DIST += bench/perfmode.sh

# The preset's view of a compiled effect, shared by every host.
check_PROGRAMS += tests/effects/test_view
tests_effects_test_view_SOURCES = tests/effects/test_view.c
tests_effects_test_view_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_effects_test_view_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) -ldl -lpthread

# The effect set over a recording back end (no GL).
check_PROGRAMS += tests/effects/test_set
tests_effects_test_set_SOURCES = tests/effects/test_set.c
tests_effects_test_set_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_effects_test_set_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) -ldl -lpthread

# A preset switch is read once, on the reload worker, and shared with the host.
check_PROGRAMS += tests/effects/test_switch
tests_effects_test_switch_SOURCES = tests/effects/test_switch.c
tests_effects_test_switch_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_effects_test_switch_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) -ldl -lpthread
# Specialised programs against the editable ones (src/gl/variant.c) over the built-in
# effects, a value shown the next frame, no compile on the frame thread after load.
check_PROGRAMS += tests/gl/test_variant
tests_gl_test_variant_SOURCES = tests/gl/test_variant.c
tests_gl_test_variant_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
tests_gl_test_variant_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) -lm -lpthread

# Specialised programs per effect: frame time editable / specialised, the switch frames
# (bench/variant_cost with arguments; in `make check` a short pass over one effect).
check_PROGRAMS += bench/variant_cost
bench_variant_cost_SOURCES = bench/variant_cost.c
bench_variant_cost_CPPFLAGS = $(EFFECTS_TEST_CPPFLAGS)
bench_variant_cost_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(EGL_LIBS)
