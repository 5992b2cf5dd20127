/*
 * effects_ref.h - CPU references of the built-in effects' math (data/shaders),
 * written from each effect's documented formula, for the pixel tests.
 *
 * Images are float RGBA, top row first (the effects' D3D order), channels in
 * [0, 1]. A pixel (x, y) has texcoord ((x + 0.5) / w, (y + 0.5) / h), as
 * PostProcessVS interpolates it. Sampling follows GL rules: point sampling
 * picks the texel containing the coordinate; bilinear weights the four
 * nearest texel centres; CLAMP repeats the edge texel.
 */
#ifndef EFFECTS_REF_H
#define EFFECTS_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "fxgl_test.h"

typedef struct ref_image {
    int w;
    int h;
    float *px;                   // owned; w * h * 4 floats
} ref_image;

bool ref_image_alloc(ref_image *img, int w, int h);
void ref_image_free(ref_image *img);
bool ref_image_from_rgba8(ref_image *img, const fxgl_image *src);
// Rounds to 8 bits the way a UNORM8 render target stores a float.
bool ref_image_to_rgba8(const ref_image *img, fxgl_image *dst);
float *ref_at(const ref_image *img, int x, int y); // clamped to the image

// Point and bilinear samples at texcoord (u, v), CLAMP addressing.
void ref_sample_point(const ref_image *img, float u, float v, float out[4]);
void ref_sample_linear(const ref_image *img, float u, float v, float out[4]);

// The scene every test renders: gradients (banding and tone curves), hard
// diagonal and vertical edges (anti-aliasing, sharpening), saturated and dull
// patches (vibrance), bright spots on dark ground (bloom). Deterministic.
bool ref_scene(fxgl_image *img, int w, int h);

// --- the effects, each with its uniforms in declaration order ---

void ref_passthrough(const ref_image *in, ref_image *out);
void ref_cas(const ref_image *in, ref_image *out, float sharpness, float blend);
void ref_fxaa(const ref_image *in, ref_image *out, float edge_threshold, float edge_threshold_min,
              float span_max);
void ref_vibrance(const ref_image *in, ref_image *out, float saturation, float vibrance);

typedef struct ref_tonemap_params {
    float exposure;
    int op;                      // 0 none, 1 Reinhard, 2 ACES fit
    float white_point;
    float black_level;           // 0..255
    float white_level;           // 0..255
    float gamma;
    float contrast;
} ref_tonemap_params;
void ref_tonemap(const ref_image *in, ref_image *out, const ref_tonemap_params *p);

void ref_vignette(const ref_image *in, ref_image *out, float amount, float radius, float softness,
                  bool round);
void ref_grain(const ref_image *in, ref_image *out, float intensity, float midtones, uint32_t frame);
void ref_deband(const ref_image *in, ref_image *out, float threshold, int range, float dither);
// lut: the strip image (size*size x size), as fxgl-lutgen or a test wrote it.
void ref_lut(const ref_image *in, const ref_image *lut, int size, ref_image *out, float amount);
void ref_bloom(const ref_image *in, ref_image *out, float threshold, float intensity, float spread);
// depth: one channel in px[0] of each pixel; mode as fxgl_DepthView's combo;
// far_plane, upside_down and reversed as the RESHADE_DEPTH_* definitions.
void ref_depthview(const ref_image *color, const ref_image *depth, ref_image *out, int mode,
                   float far_plane, bool upside_down, bool reversed);

// fxgl_Noise.fxh
uint32_t ref_hash(uint32_t x);
uint32_t ref_hash3(uint32_t x, uint32_t y, uint32_t z);
float ref_unit(uint32_t h);

#endif // EFFECTS_REF_H
