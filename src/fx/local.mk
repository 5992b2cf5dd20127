# src/fx/local.mk - the FX compiler library, fxc and their tests (included by
# Makefile.am; TEST_CPPFLAGS and TEST_LDADD are defined there, and make
# expands them late, so the order of the include does not matter).

noinst_LTLIBRARIES += libfxgl_fx.la
libfxgl_fx_la_SOURCES = \
	src/fx/fxgl_fx.h \
	src/fx/fx_base.h \
	src/fx/fx_type.h \
	src/fx/fx_ast.h \
	src/fx/fx_typesys.h \
	src/fx/fx_check.h \
	src/fx/fx_pp.h \
	src/fx/fx_glsl.h \
	src/fx/arena.c \
	src/fx/diag.c \
	src/fx/lex.c \
	src/fx/parse.c \
	src/fx/type.c \
	src/fx/intrinsics.c \
	src/fx/check.c \
	src/fx/module.c \
	src/fx/glsl.c \
	src/fx/json.c \
	src/fx/serial.c \
	src/fx/pp.c \
	src/fx/compile.c \
	src/fx/predefined.c
libfxgl_fx_la_LIBADD = -lm
EXTRA_DIST += tools/conformance.sh bench/frontend.sh

# fxc: the offline compiler driver (check, preprocess, dump, conform).
bin_PROGRAMS += fxc
fxc_SOURCES = tools/fxc.c
fxc_LDADD = libfxgl_fx.la -lm

# --- tests ---

check_PROGRAMS += tests/fx/test_diag
tests_fx_test_diag_SOURCES = tests/fx/test_diag.c
tests_fx_test_diag_CPPFLAGS = $(TEST_CPPFLAGS)
tests_fx_test_diag_LDADD = libfxgl_fx.la $(TEST_LDADD)

check_PROGRAMS += tests/fx/test_lex
tests_fx_test_lex_SOURCES = tests/fx/test_lex.c
tests_fx_test_lex_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_lex_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_parse
tests_fx_test_parse_SOURCES = tests/fx/test_parse.c
tests_fx_test_parse_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_parse_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_type
tests_fx_test_type_SOURCES = tests/fx/test_type.c
tests_fx_test_type_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_type_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_intrinsics
tests_fx_test_intrinsics_SOURCES = tests/fx/test_intrinsics.c
tests_fx_test_intrinsics_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_intrinsics_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_check
tests_fx_test_check_SOURCES = tests/fx/test_check.c
tests_fx_test_check_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_check_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_scope
tests_fx_test_scope_SOURCES = tests/fx/test_scope.c
tests_fx_test_scope_CPPFLAGS = $(TEST_CPPFLAGS)
tests_fx_test_scope_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_module
tests_fx_test_module_SOURCES = tests/fx/test_module.c
tests_fx_test_module_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/parse"'
tests_fx_test_module_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_serial
tests_fx_test_serial_SOURCES = tests/fx/test_serial.c
tests_fx_test_serial_CPPFLAGS = $(TEST_CPPFLAGS) -DFXGL_SHADER_DIR='"$(abs_top_srcdir)/data/shaders"'
tests_fx_test_serial_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_pp
tests_fx_test_pp_SOURCES = tests/fx/test_pp.c
tests_fx_test_pp_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/pp"'
tests_fx_test_pp_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

check_PROGRAMS += tests/fx/test_memory
tests_fx_test_memory_SOURCES = tests/fx/test_memory.c
tests_fx_test_memory_CPPFLAGS = $(TEST_CPPFLAGS) -DFX_TEST_DATA_DIR='"$(abs_top_srcdir)/tests/fx/data/mem"'
tests_fx_test_memory_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm
EXTRA_DIST += tests/fx/data/mem/memory_budget.fx tests/fx/data/mem/memory_budget.fxh

# Compiles on several threads at once (the generator's process state).
check_PROGRAMS += tests/fx/test_threads
tests_fx_test_threads_SOURCES = tests/fx/test_threads.c
tests_fx_test_threads_CPPFLAGS = $(TEST_CPPFLAGS)
tests_fx_test_threads_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm -lpthread

TESTS += tests/fx/test_fxc.sh
EXTRA_DIST += tests/fx/test_fxc.sh

# Hostile effects (generated at run time) through fxc, fxgl-render and a
# preloaded host (tests/interpose/ip_glx_app under Xvfb).
TESTS += tests/fx/test_hostile.sh
EXTRA_DIST += tests/fx/test_hostile.sh

# --- fuzzing (not part of make check) ---
# `make fuzz` builds two libFuzzer targets with clang, ASan and UBSan straight
# from the sources (the library objects are not instrumented): the whole
# compiler (tests/fuzz/fuzz_frontend) and the preset reader and writer
# (tests/fuzz/fuzz_preset). Run each as
#   tests/fuzz/fuzz_frontend -max_total_time=600 CORPUS_DIR $(srcdir)/tests/fuzz/seeds
#   tests/fuzz/fuzz_preset -max_total_time=600 CORPUS_DIR $(srcdir)/tests/fuzz/preset_seeds
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -std=c11 -pthread -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
fuzz: tests/fuzz/fuzz_frontend tests/fuzz/fuzz_preset
tests/fuzz/fuzz_frontend: $(top_srcdir)/tests/fuzz/fuzz_frontend.c $(libfxgl_fx_la_SOURCES)
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -include $(top_builddir)/config.h -I$(top_builddir) -I$(top_srcdir)/src/fx \
		-DFUZZ_SEED_DIR='"$(abs_top_srcdir)/tests/fuzz/seeds"' -o $@ \
		$(top_srcdir)/tests/fuzz/fuzz_frontend.c \
		$$(for f in $(libfxgl_fx_la_SOURCES); do case $$f in *.c) echo $(top_srcdir)/$$f;; esac; done) -lm
tests/fuzz/fuzz_preset: $(top_srcdir)/tests/fuzz/fuzz_preset.c $(libfxgl_preset_la_SOURCES)
	@$(MKDIR_P) tests/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -include $(top_builddir)/config.h -I$(top_builddir) -I$(top_srcdir)/src/preset \
		$(INIH_CFLAGS) $(X11_CFLAGS) $(FXGL_DATADIR_CPPFLAGS) -o $@ \
		$(top_srcdir)/tests/fuzz/fuzz_preset.c \
		$$(for f in $(libfxgl_preset_la_SOURCES); do case $$f in *.c) echo $(top_srcdir)/$$f;; esac; done) \
		$(INIH_LIBS) -lm
CLEANFILES += tests/fuzz/fuzz_frontend tests/fuzz/fuzz_preset
EXTRA_DIST += tests/fuzz/fuzz_frontend.c tests/fuzz/seeds tests/fuzz/fuzz_preset.c \
	tests/fuzz/preset_seeds
.PHONY: fuzz

EXTRA_DIST += src/fx/local.mk

# glslang is static C++ in Debian: only this test links it (and the C++ runtime).
check_PROGRAMS += tests/fx/test_glsl
tests_fx_test_glsl_SOURCES = tests/fx/test_glsl.c tests/fx/glsl_util.c tests/fx/glsl_glslang.c \
	tests/fx/glsl_util.h
tests_fx_test_glsl_CPPFLAGS = $(TEST_CPPFLAGS) $(GLSLANG_CFLAGS)
tests_fx_test_glsl_LDADD = libfxgl_fx.la $(TEST_LDADD) $(GLSLANG_LIBS) -lm

# The semantic suite: generated code run on a headless context (llvmpipe in CI).
check_PROGRAMS += tests/gl/test_glsl_render
tests_gl_test_glsl_render_SOURCES = tests/gl/test_glsl_render.c tests/fx/glsl_util.c \
	tests/fx/glsl_util.h
tests_gl_test_glsl_render_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) -I$(top_srcdir)/tests/fx
tests_gl_test_glsl_render_LDADD = libfxgl_fx.la $(TEST_LDADD) -lm

# The conformance figure over $FXGL_CORPUS (skips without it): glslang and the
# driver accept the code generated for every effect the front end accepts.
check_PROGRAMS += tests/fx/test_glsl_conform
tests_fx_test_glsl_conform_SOURCES = tests/fx/test_glsl_conform.c tests/fx/glsl_glslang.c tests/fx/glsl_util.c \
	tests/fx/glsl_util.h
tests_fx_test_glsl_conform_CPPFLAGS = $(TEST_CPPFLAGS) $(EGL_CFLAGS) $(GLSLANG_CFLAGS)
tests_fx_test_glsl_conform_LDADD = libfxgl_fx.la $(TEST_LDADD) $(GLSLANG_LIBS) -lm

TESTS += tests/fx/test_fxc_glsl.sh
EXTRA_DIST += tests/fx/test_fxc_glsl.sh tests/fx/data/glsl/es_1d.fx
