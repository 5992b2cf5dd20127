# src/gl/local.mk - the GL runtime library and its tests (included by Makefile.am).

noinst_LTLIBRARIES += libfxgl_gl.la
libfxgl_gl_la_SOURCES = \
	src/gl/fxgl_gl.h \
	src/gl/context.c
libfxgl_gl_la_LIBADD = libfxgl_glad.la libfxgl_fx.la

EXTRA_DIST += src/gl/local.mk
