/*
 * fxgl_vk.h - the Vulkan path over fxgl's effect modules (src/vk).
 *
 * Its own library (libfxgl_vk), linked into its tools and tests only, never
 * into the preloaded GL library: it needs Vulkan's loader and glslang (C++).
 * It consumes the module of FXGL_GLSL_VK450 (the contract in fxgl_fx.h) and
 * records every frame through the render graph of fxgl_graph.h.
 */
#ifndef FXGL_VK_H
#define FXGL_VK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"

#ifdef __cplusplus
extern "C" {
#endif

// Compiles one shader's Vulkan-flavoured GLSL to SPIR-V (Vulkan 1.2, SPIR-V
// 1.5). preamble: lines placed after #version (variant defines), or NULL.
// On success *words (malloc'd, the caller frees) holds *count 32-bit words
// and log any warnings; on failure log has glslang's messages. Any thread.
bool fxgl_vk_spirv(const char *glsl, fxgl_stage stage, const char *preamble, uint32_t **words,
                   size_t *count, char *log, size_t log_size);

#ifdef __cplusplus
}
#endif

#endif // FXGL_VK_H
