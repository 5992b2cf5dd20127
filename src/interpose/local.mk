# src/interpose/local.mk - the preloaded library, the fxgl command and their
# tests (included by Makefile.am).

lib_LTLIBRARIES += libfxgl.la
libfxgl_la_SOURCES = \
	src/interpose/fxgl_interpose.h \
	src/interpose/log.c \
	src/interpose/version.c \
	src/interpose/config.c \
	src/interpose/real.c \
	src/interpose/dlsym.c \
	src/interpose/glx.c \
	src/interpose/vendor.c \
	src/interpose/egl.c \
	src/interpose/context.c \
	src/interpose/input.c \
	src/interpose/effects.c \
	src/interpose/warm.c \
	src/interpose/frame.c \
	src/interpose/stats.c \
	src/interpose/draws.c \
	src/interpose/control.c
# GLX/EGL headers only: the library never links libGL/libEGL, it finds
# them at run time (real.c).
libfxgl_la_CPPFLAGS = $(AM_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) $(EGL_CFLAGS)
libfxgl_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libfxgl_la_LIBADD = libfxgl_gl.la libfxgl_preset.la libfxgl_effects.la $(AX_PTHREAD_LIBS) -ldl
libfxgl_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-Wl,--version-script=$(top_srcdir)/src/interpose/exports.map -Wl,-z,defs
EXTRA_DIST += src/interpose/exports.map src/interpose/local.mk

# --- the fxgl command ---
#
# One template, two products: tools/fxgl (installed; the library path is
# $(libdir)) and tests/interpose/fxgl-uninstalled (the build tree's library,
# for the tests and for running from the build directory).

bin_SCRIPTS = tools/fxgl
check_SCRIPTS = tests/interpose/fxgl-uninstalled
CLEANFILES += tools/fxgl tests/interpose/fxgl-uninstalled
EXTRA_DIST += tools/fxgl.in

fxgl_script_subst = sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g'

tools/fxgl: $(top_srcdir)/tools/fxgl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) tools && \
	$(fxgl_script_subst) -e 's|@FXGL_LIBRARY[@]|$(libdir)/libfxgl.so|g' \
		-e 's|@FXGL_FXC[@]|$(bindir)/fxc$(EXEEXT)|g' \
		-e 's|@FXGL_CTL[@]|$(bindir)/fxgl-ctl|g' \
		$(top_srcdir)/tools/fxgl.in > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

tests/interpose/fxgl-uninstalled: $(top_srcdir)/tools/fxgl.in Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/interpose && \
	$(fxgl_script_subst) -e 's|@FXGL_LIBRARY[@]|$(abs_top_builddir)/.libs/libfxgl.so|g' \
		-e 's|@FXGL_FXC[@]|$(abs_top_builddir)/fxc$(EXEEXT)|g' \
		-e 's|@FXGL_CTL[@]|$(abs_top_builddir)/fxgl-ctl|g' \
		$(top_srcdir)/tools/fxgl.in > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@

# --- the control client (fxgl ctl) ---

bin_PROGRAMS += fxgl-ctl
fxgl_ctl_SOURCES = tools/ctl.c

# --- tests ---
#
# The host programs link no part of fxgl except the GL loader (src/gl) for
# their own drawing; ip_glx_dlopen links no GL library at all.

IP_APP_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/interpose $(X11_CFLAGS)
# Not check_PROGRAMS: those all become tests of their own (Makefile.am),
# and these only mean something when test_preload runs them. They are
# built with test_preload.
ip_host_programs = tests/interpose/ip_glx_app$(EXEEXT) tests/interpose/ip_glx_dlopen$(EXEEXT) \
	tests/interpose/ip_egl_app$(EXEEXT)
if HAVE_SDL2
ip_host_programs += tests/interpose/ip_sdl_app$(EXEEXT)
endif
EXTRA_PROGRAMS = $(ip_host_programs) tests/interpose/ip_sdl_app
CLEANFILES += $(ip_host_programs)

tests_interpose_ip_glx_app_SOURCES = tests/interpose/ip_glx_app.c tests/interpose/ip_app.h
tests_interpose_ip_glx_app_CPPFLAGS = $(IP_APP_CPPFLAGS) $(GLX_CFLAGS)
tests_interpose_ip_glx_app_LDADD = libfxgl_gl.la $(GLX_LIBS) $(XTST_LIBS) $(X11_LIBS)

tests_interpose_ip_glx_dlopen_SOURCES = tests/interpose/ip_glx_app.c tests/interpose/ip_app.h
tests_interpose_ip_glx_dlopen_CPPFLAGS = $(IP_APP_CPPFLAGS) $(GLX_CFLAGS) -DIP_APP_DLOPEN
tests_interpose_ip_glx_dlopen_LDADD = libfxgl_gl.la $(XTST_LIBS) $(X11_LIBS) -ldl

tests_interpose_ip_egl_app_SOURCES = tests/interpose/ip_egl_app.c tests/interpose/ip_app.h
tests_interpose_ip_egl_app_CPPFLAGS = $(IP_APP_CPPFLAGS) $(EGL_CFLAGS)
tests_interpose_ip_egl_app_LDADD = libfxgl_gl.la $(EGL_LIBS) $(XTST_LIBS) $(X11_LIBS) -ldl

# A second interposer for the chaining tests (a module, loaded only by LD_PRELOAD).
check_LTLIBRARIES += tests/interpose/ip_shim.la
tests_interpose_ip_shim_la_SOURCES = tests/interpose/ip_shim.c
tests_interpose_ip_shim_la_CPPFLAGS = $(AM_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS)
tests_interpose_ip_shim_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_interpose_ip_shim_la_LIBADD = -ldl

tests_interpose_ip_sdl_app_SOURCES = tests/interpose/ip_sdl_app.c
tests_interpose_ip_sdl_app_CPPFLAGS = $(AM_CPPFLAGS) $(SDL2_CFLAGS)
tests_interpose_ip_sdl_app_LDADD = $(SDL2_LIBS)

# The Windows GL program of the Wine test (mingw-w64; the test skips without it).
EXTRA_DIST += tests/interpose/ip_wgl_app.c
if HAVE_MINGW
check_DATA = tests/interpose/ip_wgl_app.exe
CLEANFILES += tests/interpose/ip_wgl_app.exe
tests/interpose/ip_wgl_app.exe: $(top_srcdir)/tests/interpose/ip_wgl_app.c
	$(AM_V_GEN)$(MKDIR_P) tests/interpose && \
	$(MINGW_CC) -O2 -o $@ $(top_srcdir)/tests/interpose/ip_wgl_app.c -lopengl32 -lgdi32
endif
# The Wine prefix the test creates on its first run (about 40 s), then reuses.
clean-local: clean-wineprefix
clean-wineprefix:
	rm -rf tests/interpose/wineprefix
.PHONY: clean-wineprefix

check_PROGRAMS += tests/interpose/test_preload
tests_interpose_test_preload_SOURCES = tests/interpose/test_preload.c
tests_interpose_test_preload_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS)
tests_interpose_test_preload_LDADD = $(TEST_LDADD) $(X11_LIBS)
EXTRA_tests_interpose_test_preload_DEPENDENCIES = $(ip_host_programs)
if SANITIZERS
tests_interpose_test_preload_CPPFLAGS += -DFXGL_TEST_SANITIZERS=1
endif

# The same driver with only the Wine case (see test_preload.c's main).
check_PROGRAMS += tests/interpose/test_preload_wine
tests_interpose_test_preload_wine_SOURCES = tests/interpose/test_preload.c
tests_interpose_test_preload_wine_CPPFLAGS = $(tests_interpose_test_preload_CPPFLAGS) \
	-DIP_WINE_ONLY
tests_interpose_test_preload_wine_LDADD = $(tests_interpose_test_preload_LDADD)
EXTRA_tests_interpose_test_preload_wine_DEPENDENCIES = $(ip_host_programs)

# The library's sources built straight into a unit test, without the hook
# names (IP_TEST_NO_EXPORTS), so config and table logic run under ASan too.
check_PROGRAMS += tests/interpose/test_config
tests_interpose_test_config_SOURCES = tests/interpose/test_config.c $(libfxgl_la_SOURCES)
tests_interpose_test_config_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) \
	$(EGL_CFLAGS) -DIP_TEST_NO_EXPORTS
tests_interpose_test_config_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(AX_PTHREAD_LIBS) -ldl

# input.c against a private Xvfb, keys and pointer driven through XTest.
check_PROGRAMS += tests/interpose/test_input
tests_interpose_test_input_SOURCES = tests/interpose/test_input.c $(libfxgl_la_SOURCES)
tests_interpose_test_input_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) \
	$(EGL_CFLAGS) $(XTST_CFLAGS) -DIP_TEST_NO_EXPORTS
tests_interpose_test_input_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(XTST_LIBS) $(X11_LIBS) \
	$(AX_PTHREAD_LIBS) -ldl

# control.c: the socket (permissions, owner checks, SO_PEERCRED, never
# blocking), keys and SIGUSR1, and commands sent with fxgl-ctl taking effect
# on a headless EGL runtime within two frames.
check_PROGRAMS += tests/interpose/test_control
tests_interpose_test_control_SOURCES = tests/interpose/test_control.c $(libfxgl_la_SOURCES)
tests_interpose_test_control_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) \
	$(EGL_CFLAGS) -I$(top_srcdir)/tests/gl -DIP_TEST_NO_EXPORTS \
	-DFXGL_CTL_PATH='"$(abs_top_builddir)/fxgl-ctl"' \
	-DFXGL_SCRIPT_PATH='"$(abs_top_builddir)/tests/interpose/fxgl-uninstalled"'
tests_interpose_test_control_LDADD = libfxgl_effects.la libfxgl_preset.la $(TEST_LDADD) $(AX_PTHREAD_LIBS) -ldl
EXTRA_tests_interpose_test_control_DEPENDENCIES = fxgl-ctl$(EXEEXT) \
	tests/interpose/fxgl-uninstalled

# The same through the preloaded library on a real program: glxgears under
# Xvfb with Invert.fx, driven by `fxgl ctl` (skips without glxgears).
check_PROGRAMS += tests/interpose/test_inspect_app
tests_interpose_test_inspect_app_SOURCES = tests/interpose/test_inspect_app.c
tests_interpose_test_inspect_app_CPPFLAGS = $(TEST_CPPFLAGS) $(X11_CFLAGS) \
	-DFXGL_SCRIPT_PATH='"$(abs_top_builddir)/tests/interpose/fxgl-uninstalled"'
tests_interpose_test_inspect_app_LDADD = $(TEST_LDADD) $(X11_LIBS)
EXTRA_tests_interpose_test_inspect_app_DEPENDENCIES = fxgl-ctl$(EXEEXT) \
	tests/interpose/fxgl-uninstalled libfxgl.la
if SANITIZERS
tests_interpose_test_inspect_app_CPPFLAGS += -DFXGL_TEST_SANITIZERS=1
endif

EXTRA_DIST += tests/interpose/data/Invert.fx tests/interpose/data/Broken.fx \
	tests/interpose/data/invert.ini tests/interpose/data/broken.ini \
	tests/interpose/data/missing.ini tests/interpose/data/invert_key.ini \
	tests/interpose/data/NsInvert.fx tests/interpose/data/nsinvert.ini \
	tests/interpose/data/next_key.ini tests/interpose/data/cycle/a_invert.ini \
	tests/interpose/data/cycle/b_plain.ini tests/interpose/data/PerfMode.fx \
	tests/interpose/data/perfmode.ini tests/interpose/data/perf_key.ini \
	tests/interpose/data/blend/a_inverted.ini tests/interpose/data/blend/b_plain.ini \
	tests/interpose/data/blend_key.ini tests/interpose/data/blend0_key.ini \
	tests/interpose/data/SizeGreen.fx tests/interpose/data/sizegreen.ini

TESTS += tests/interpose/test_fxgl_cmd.sh tests/interpose/test_asan_glmark2.sh
EXTRA_DIST += tests/interpose/test_asan_glmark2.sh bench/interpose_overhead.sh
EXTRA_DIST += tests/interpose/test_fxgl_cmd.sh
# make install DESTDIR=<tmp>, then the installed fxgl on ip_glx_app (built for test_preload).
TESTS += tests/interpose/test_install.sh
EXTRA_DIST += tests/interpose/test_install.sh
tests/interpose/test_install.log: $(ip_host_programs)

# --- the 32-bit library: make lib32 ---
#
# lib32/libfxgl.so, built from the same sources with $(LIB32_CC) (gcc -m32;
# Debian: gcc-multilib, and libinih-dev:i386 for the presets' inih). Not a
# second configure: the library needs only libc, libdl, libpthread, libm and
# libinih, and config.h holds nothing arch-specific. The fxgl command (and
# fxgl-uninstalled) preloads lib32/libfxgl.so next to the 64-bit one when it
# exists: ld.so skips the one of the other class in each process.
LIB32_CC = $(CC) -m32
lib32_sources = $(libfxgl_la_SOURCES) $(libfxgl_gl_la_SOURCES) $(libfxgl_fx_la_SOURCES) \
	$(libfxgl_preset_la_SOURCES) $(libfxgl_effects_la_SOURCES)

# libfxgl.la first: it brings the generated glad sources.
lib32/libfxgl.so: libfxgl.la $(srcdir)/src/interpose/exports.map config.h
	$(AM_V_GEN)$(MKDIR_P) lib32 && srcs=glad/src/gl.c && \
	for f in $(lib32_sources); do \
		case $$f in *.c) srcs="$$srcs $(srcdir)/$$f" ;; esac; \
	done && \
	$(LIB32_CC) $(AX_FXGL_CFLAGS) $(WARN_CFLAGS) -O2 -g -fPIC -shared -fvisibility=hidden \
		$(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(X11_CFLAGS) $(GLX_CFLAGS) $(EGL_CFLAGS) $(INIH_CFLAGS) $(STB_CFLAGS) \
		$(FXGL_DATADIR_CPPFLAGS) -Wl,--version-script=$(srcdir)/src/interpose/exports.map -Wl,-z,defs \
		-o $@.tmp $$srcs -linih -lm -ldl -pthread && mv $@.tmp $@

lib32: lib32/libfxgl.so
.PHONY: lib32
CLEANFILES += lib32/libfxgl.so
