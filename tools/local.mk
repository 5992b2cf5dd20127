# tools/local.mk - the differential tool against the reference path
# (tools/refdiff.sh, docs/conformance.md): the same picture through fxgl and
# through vkBasalt, compared. The presenter needs Vulkan's headers and loader
# and is built only where configure found them; the comparison program needs
# only stb.

noinst_PROGRAMS += tools/fxgl-imgdiff
tools_fxgl_imgdiff_SOURCES = tools/imgdiff.c
tools_fxgl_imgdiff_CPPFLAGS = $(AM_CPPFLAGS) $(STB_CFLAGS)
tools_fxgl_imgdiff_LDADD = -lm

if HAVE_VULKAN
noinst_PROGRAMS += tools/fxgl-vkpresent
tools_fxgl_vkpresent_SOURCES = tools/vkpresent.c
tools_fxgl_vkpresent_CPPFLAGS = $(AM_CPPFLAGS) $(STB_CFLAGS) $(VULKAN_CFLAGS) $(X11_CFLAGS)
tools_fxgl_vkpresent_LDADD = $(VULKAN_LIBS) $(X11_LIBS) -lm
endif

EXTRA_DIST += tools/refdiff.sh

TESTS += tests/refdiff/test_vkpresent.sh tests/refdiff/test_refdiff.sh
EXTRA_DIST += tests/refdiff/test_vkpresent.sh tests/refdiff/test_refdiff.sh tests/refdiff/effects \
	tools/refdiff.py
tests/refdiff/test_vkpresent.log: tools/fxgl-imgdiff
tests/refdiff/test_refdiff.log: tools/fxgl-imgdiff fxc fxgl-render
