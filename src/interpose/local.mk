# src/interpose/local.mk - the preloaded library and its tests (included by Makefile.am).

lib_LTLIBRARIES += libfxgl.la
libfxgl_la_SOURCES = \
	src/interpose/fxgl_interpose.h \
	src/interpose/log.c \
	src/interpose/version.c
libfxgl_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libfxgl_la_LIBADD = libfxgl_gl.la $(AX_PTHREAD_LIBS)
libfxgl_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared \
	-Wl,--version-script=$(top_srcdir)/src/interpose/exports.map -Wl,-z,defs
EXTRA_DIST += src/interpose/exports.map src/interpose/local.mk

