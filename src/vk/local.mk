# src/vk/local.mk - the Vulkan path over the effect modules: the render graph
# (pure C, no Vulkan), SPIR-V through glslang, the headless Vulkan runtime
# and its tool. Never linked into libfxgl.so (included by Makefile.am).

VK_CPPFLAGS = -I$(top_srcdir)/src/vk

# The graph: nodes, hazards, order and barriers; no Vulkan call, so its tests
# run everywhere.
noinst_LTLIBRARIES += libfxgl_vkgraph.la
libfxgl_vkgraph_la_SOURCES = src/vk/fxgl_graph.h src/vk/graph.c
libfxgl_vkgraph_la_CPPFLAGS = $(AM_CPPFLAGS) $(VK_CPPFLAGS)

# SPIR-V from the module's Vulkan-flavoured GLSL (glslang is static C++: the
# programs that link this library take GLSLANG_LIBS).
noinst_LTLIBRARIES += libfxgl_spirv.la
libfxgl_spirv_la_SOURCES = src/vk/fxgl_vk.h src/vk/spirv.c
libfxgl_spirv_la_CPPFLAGS = $(AM_CPPFLAGS) $(VK_CPPFLAGS) $(GLSLANG_CFLAGS)

check_PROGRAMS += tests/vk/test_spirv
tests_vk_test_spirv_SOURCES = tests/vk/test_spirv.c
tests_vk_test_spirv_CPPFLAGS = $(TEST_CPPFLAGS) $(VK_CPPFLAGS) \
	-DFXGL_SHADER_DIR='"$(abs_top_srcdir)/data/shaders"' \
	-DFXGL_VK_DATA_DIR='"$(abs_top_srcdir)/tests/vk/data"'
tests_vk_test_spirv_LDADD = libfxgl_spirv.la libfxgl_fx.la $(TEST_LDADD) $(GLSLANG_LIBS) -lpthread -lm

check_PROGRAMS += tests/vk/test_graph
tests_vk_test_graph_SOURCES = tests/vk/test_graph.c
tests_vk_test_graph_CPPFLAGS = $(TEST_CPPFLAGS) $(VK_CPPFLAGS)
tests_vk_test_graph_LDADD = libfxgl_vkgraph.la $(TEST_LDADD)

EXTRA_DIST += src/vk/local.mk tests/vk/data/bindings.fx tests/vk/data/stencil.fx \
	tests/vk/data/float_source.fx \
	tools/vk-conformance.sh

# The runtime and fxgl-vkrender need Vulkan's headers and loader (optional:
# without them the tool is not built and its test skips).
if HAVE_VULKAN
noinst_LTLIBRARIES += libfxgl_vk.la
# The back ends' shared CPU code (src/backend) is compiled into each back end.
libfxgl_vk_la_SOURCES = src/vk/fxgl_vk.h src/vk/vk_runtime.c src/backend/fxgl_backend.h \
	src/backend/backend.c
libfxgl_vk_la_CPPFLAGS = $(AM_CPPFLAGS) $(VK_CPPFLAGS) $(VULKAN_CFLAGS) $(STB_CFLAGS)

bin_PROGRAMS += fxgl-vkrender
fxgl_vkrender_SOURCES = tools/vkrender.c tests/harness/rgba_image.c tests/harness/fxgl_test.h
fxgl_vkrender_CPPFLAGS = $(AM_CPPFLAGS) $(VK_CPPFLAGS) -I$(top_srcdir)/tests/harness \
	$(STB_CFLAGS) $(VULKAN_CFLAGS)
fxgl_vkrender_LDADD = libfxgl_vk.la libfxgl_vkgraph.la libfxgl_spirv.la libfxgl_fx.la \
	$(VULKAN_LIBS) $(GLSLANG_LIBS) -lpthread -lm
endif

# GL and Vulkan give the same image (skips without Vulkan, a driver or EGL).
TESTS += tests/vk/test_render.sh
EXTRA_DIST += tests/vk/test_render.sh tests/vk/vk_env.sh

# The fullscreen texcoord bit for bit: GL and GLES give lavapipe's (skips without Vulkan).
TESTS += tests/vk/test_texcoord.sh
EXTRA_DIST += tests/vk/test_texcoord.sh tests/vk/data/texcoord/texcoord_bits.fx

# The graph's barriers under the validation layer's synchronization checks
# (skips without vulkan-validationlayers).
TESTS += tests/vk/test_sync.sh
EXTRA_DIST += tests/vk/test_sync.sh

# Locals without an initializer read zero on the Vulkan target (skips without Vulkan).
TESTS += tests/vk/test_locals.sh
EXTRA_DIST += tests/vk/test_locals.sh tests/vk/data/locals/zero_locals.fx \
	tests/vk/data/locals/expected.fx
