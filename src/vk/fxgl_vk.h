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

// --- the headless runtime (vk_runtime.c) ---
//
// One Vulkan 1.2 device, no window: an RGBA8 image stands in for the
// swapchain's (the back buffer). A frame copies the input pixels in, runs
// every technique of every added effect (effects in the order added,
// techniques in declaration order, passes by index) with the GL runtime's
// rules (COLOR refresh, special uniforms, clears, blends, masks, mips,
// storages, compute), copies the back buffer out and waits for it. Every
// command goes through the render graph (fxgl_graph.h), built at load.

typedef struct fxgl_vk_runtime fxgl_vk_runtime;

typedef struct fxgl_vk_desc {
    int width, height;           // the back buffer
    bool reorder;                // the graph's switches (fxgl_graph_options)
    bool full_barriers;
    bool timestamps;             // GPU timestamps around every pass and the frame
    const char *const *texture_dirs; // where `source` images are looked for after the
    size_t texture_dir_count;        // effect's own folder
    void (*log)(void *user, const char *message); // failures and notes, or NULL
    void *user;
} fxgl_vk_desc;

typedef struct fxgl_vk_stats {
    // the graph of the frame (fxgl_graph_counters)
    size_t nodes, edges, levels, batches, barrier_calls, barriers, naive_barrier_calls;
    // what the last frame recorded
    size_t draws, dispatches, pipeline_binds, descriptor_binds, copies, updates, mip_levels;
    size_t color_refreshes;
    double cpu_ms;               // the last frame's CPU work before submission (wall time)
    double gpu_ms;               // the last frame between its first and last timestamp, -1: none
} fxgl_vk_stats;

// NULL when no Vulkan 1.2 device with graphics and compute can be used;
// why says what was missing (no driver, no device, an error).
fxgl_vk_runtime *fxgl_vk_create(const fxgl_vk_desc *desc, char *why, size_t why_size);
void fxgl_vk_destroy(fxgl_vk_runtime *rt);
// The device's name ("llvmpipe (LLVM 15.0.6, 256 bits)").
const char *fxgl_vk_device_name(const fxgl_vk_runtime *rt);

// Loads an effect compiled for FXGL_GLSL_VK450 (borrowed; must outlive the
// runtime): images, samplers, SPIR-V, pipelines, descriptor sets. Returns
// its index, or -1 with why (the effect is then left out; others run).
int fxgl_vk_add_effect(fxgl_vk_runtime *rt, const fxgl_effect *fx, char *why, size_t why_size);
// A user uniform's value (not a special one); false when unknown.
bool fxgl_vk_set_uniform(fxgl_vk_runtime *rt, int effect, const char *name,
                         const fxgl_value *value);

// One frame: pixels in (width x height RGBA8, top row first), pixels out
// (may be the same buffer); time in seconds drives the special uniforms as
// in the GL runtime. False after a device error (why).
bool fxgl_vk_frame(fxgl_vk_runtime *rt, const uint8_t *in, uint8_t *out, double time,
                   char *why, size_t why_size);
const fxgl_vk_stats *fxgl_vk_stats_get(const fxgl_vk_runtime *rt);
// The last frame's GPU time of pass p of technique t of an effect (ms), -1
// when not measured.
double fxgl_vk_pass_gpu_ms(const fxgl_vk_runtime *rt, int effect, size_t technique, size_t pass);

#ifdef __cplusplus
}
#endif

#endif // FXGL_VK_H
