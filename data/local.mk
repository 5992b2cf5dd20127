# data/local.mk - standard headers, built-in effects and the default preset
# (included by Makefile.am).
#
# Installed layout under $(pkgdatadir) ($(datadir)/fxgl; compiled into the
# library as FXGL_DATADIR, see src/preset/config.c, and into tools/fxgl):
#   shaders/    ReShade.fxh, ReShadeUI.fxh, fxgl_Noise.fxh and the fxgl_*.fx effects
#   textures/   fxgl_lut.png, generated at build time by tools/fxgl-lutgen
#   presets/    default.ini

fxglshadersdir = $(pkgdatadir)/shaders
dist_fxglshaders_DATA = \
	data/shaders/ReShade.fxh \
	data/shaders/ReShadeUI.fxh \
	data/shaders/fxgl_Noise.fxh \
	data/shaders/fxgl_Bloom.fx \
	data/shaders/fxgl_CAS.fx \
	data/shaders/fxgl_Deband.fx \
	data/shaders/fxgl_DepthView.fx \
	data/shaders/fxgl_FXAA.fx \
	data/shaders/fxgl_FilmGrain.fx \
	data/shaders/fxgl_LUT.fx \
	data/shaders/fxgl_Passthrough.fx \
	data/shaders/fxgl_Tonemap.fx \
	data/shaders/fxgl_Vibrance.fx \
	data/shaders/fxgl_Vignette.fx

fxglpresetsdir = $(pkgdatadir)/presets
dist_fxglpresets_DATA = data/presets/default.ini

# The neutral LUT is generated, never committed: a PNG is a binary, and the
# generator documents exactly what it contains.
noinst_PROGRAMS += tools/fxgl-lutgen
tools_fxgl_lutgen_SOURCES = tools/lutgen.c
tools_fxgl_lutgen_CPPFLAGS = $(AM_CPPFLAGS) $(STB_CFLAGS)

fxgltexturesdir = $(pkgdatadir)/textures
nodist_fxgltextures_DATA = data/textures/fxgl_lut.png

data/textures/fxgl_lut.png: tools/fxgl-lutgen$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) data/textures && tools/fxgl-lutgen$(EXEEXT) --size 32 $@

CLEANFILES += data/textures/fxgl_lut.png

EXTRA_DIST += data/local.mk data/README.md

# --- tests: CPU references of the effects, and the pixel tests against them ---

check_PROGRAMS += tests/effects/test_reference
tests_effects_test_reference_SOURCES = tests/effects/test_reference.c \
	tests/effects/effects_ref.c tests/effects/effects_ref.h
tests_effects_test_reference_CPPFLAGS = $(TEST_CPPFLAGS)
tests_effects_test_reference_LDADD = $(TEST_LDADD) -lm

check_PROGRAMS += tests/effects/test_render
tests_effects_test_render_SOURCES = tests/effects/test_render.c \
	tests/effects/effects_ref.c tests/effects/effects_ref.h \
	tests/effects/effects_render.c tests/effects/effects_render.h
tests_effects_test_render_CPPFLAGS = $(TEST_CPPFLAGS) \
	-DFXGL_DATA_SHADERS='"$(abs_top_srcdir)/data/shaders"' \
	-DFXGL_DATA_TEXTURES='"$(abs_top_builddir)/data/textures"'
tests_effects_test_render_LDADD = $(TEST_LDADD) -lm

# fxgl-effect renders one effect over one PNG (screenshots, benchmark); built
# on demand: make tests/effects/fxgl-effect
EXTRA_PROGRAMS += tests/effects/fxgl-effect
tests_effects_fxgl_effect_SOURCES = tests/effects/effect_tool.c \
	tests/effects/effects_render.c tests/effects/effects_render.h
tests_effects_fxgl_effect_CPPFLAGS = $(TEST_CPPFLAGS) \
	-DFXGL_DATA_SHADERS='"$(abs_top_srcdir)/data/shaders"' \
	-DFXGL_DATA_TEXTURES='"$(abs_top_builddir)/data/textures"'
tests_effects_fxgl_effect_LDADD = $(TEST_LDADD) -lm
CLEANFILES += tests/effects/fxgl-effect$(EXEEXT)

EXTRA_DIST += tools/effect-shots.sh bench/effects.sh

TESTS += tests/effects/test_headers.sh
EXTRA_DIST += tests/effects/test_headers.sh tests/effects/data
EXTRA_DIST += tools/conformance-headers.sh

check_PROGRAMS += tests/effects/test_default_preset
tests_effects_test_default_preset_SOURCES = tests/effects/test_default_preset.c
tests_effects_test_default_preset_CPPFLAGS = $(TEST_CPPFLAGS) $(INIH_CFLAGS) \
	-DFXGL_DATA_SHADERS='"$(abs_top_srcdir)/data/shaders"' \
	-DFXGL_DATA_PRESETS='"$(abs_top_srcdir)/data/presets"'
tests_effects_test_default_preset_LDADD = libfxgl_preset.la libfxgl_fx.la $(TEST_LDADD) $(INIH_LIBS) -lm
