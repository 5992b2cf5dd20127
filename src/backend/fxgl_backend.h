/*
 * fxgl_backend.h - what both back ends (src/gl, src/vk) compute on the CPU
 * the same way, without any graphics API: where a `source=` image is and
 * its pixels, how a value lands in the uniform block, and the special
 * uniforms that depend on the clock (frametime, framecount, timer, random,
 * pingpong, date). One copy, so that the two paths give the same values by
 * construction rather than by keeping two copies in step.
 *
 * The sources are compiled into each back end's library (libfxgl_gl,
 * libfxgl_vk); nothing here keeps state between calls.
 */
#ifndef FXGL_BACKEND_H
#define FXGL_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"

// --- source images ---

// Finds source: absolute, next to the effect (effect_path may be NULL),
// then in each of dirs; the path in out. When it is nowhere, false, and
// out names the folders looked in, for the message.
bool fxgl_source_find(const char *effect_path, const char *const *dirs, size_t dir_count,
                      const char *source, char *out, size_t size);

// The image at path (PNG, JPEG, BMP, TGA; name, the effect's spelling,
// for the messages) resized to w x h, as channels
// components per texel (the first channels of RGBA), bytes or, with floats,
// floats in 0..1; rows top first. malloc'd; NULL with reason.
void *fxgl_source_pixels(const char *path, const char *name, int w, int h, int channels,
                         bool floats, char *reason, size_t reason_size);

// --- the uniform block ---

// The 32 bits of component i of v converted to the scalar type to, as the
// reference's typed setters convert (int <-> float, bool as 0/1).
uint32_t fxgl_uniform_bits(const fxgl_value *v, int i, fxgl_scalar to);

// The block offsets of the first components of a value of count components
// for u (std140 as laid out: matrices row-major, each row 16 bytes; array
// elements at their stride), at most 16; returns how many.
int fxgl_uniform_offsets(const fxgl_uniform *u, int count, uint32_t offsets[16]);

// A number of u's annotation name (its component index, the last one when
// it has fewer), def when absent or a string.
double fxgl_annotation_number(const fxgl_uniform *u, const char *name, int index, double def);

// --- mipmaps ---

// The main() of the mip filter both back ends run as a compute shader
// (8x8 groups): each texel of level n is the unweighted average of the 2x2
// texels of level n-1 (clamped at an odd edge), the reference's box filter.
// The caller declares `src` (a sampler2D), `lod` (an int, the level read)
// and `dst` (the level written, a writeonly image2D of the image's format).
extern const char fxgl_mip_filter_main[];

// --- special uniforms that depend on the clock ---

// What a special uniform's annotations say, read once.
typedef struct fxgl_special_params {
    int imin, imax;              // random
    float min, max;              // pingpong, mousewheel
    float step[2];               // pingpong (step[1] 0: a fixed step), mousewheel step[0]
    float smoothing;             // pingpong
} fxgl_special_params;

void fxgl_special_params_init(fxgl_special_params *p, const fxgl_uniform *u);

// The frame a clock special is computed for.
typedef struct fxgl_special_clock {
    double frame_ms;             // the last frame's duration
    uint64_t frame_count;
    double elapsed;              // seconds since the runtime started
    const int *date;             // year, month, day, seconds of the day; NULL: now
    uint32_t *rng;               // the runtime's xorshift32 state
} fxgl_special_clock;

// The value of u when its source is a clock one (frametime, framecount,
// timer, random, pingpong, date): true with *out; false for any other
// source. state is the special's own {value, direction} (pingpong). Draws
// from *c->rng in the reference's order: random once, pingpong once when
// its step is a range.
bool fxgl_special_clock_value(const fxgl_uniform *u, const fxgl_special_params *p,
                              float state[2], const fxgl_special_clock *c, fxgl_value *out);

// xorshift32: a private generator, so the host's rand() sequence is untouched.
uint32_t fxgl_xorshift32(uint32_t *state);

#endif // FXGL_BACKEND_H
