/*
 * effects_render.h - renders one built-in effect over an image through the
 * fxgl runtime on a headless context (EGL surfaceless on llvmpipe in CI),
 * for the pixel tests, the screenshots and the benchmark.
 */
#ifndef EFFECTS_RENDER_H
#define EFFECTS_RENDER_H

#include <stddef.h>

#include "fxgl_test.h"

typedef struct effect_run {
    const char *effect;          // file name under data/shaders ("fxgl_CAS.fx")
    const char *values;          // preset-section lines "Name=value\n...", NULL: the defaults
    const char *defines;         // preprocessor definitions "A=1,B=2", NULL: none
    const fxgl_image *depth;     // depth in the red channel (0..255 -> 0..1), NULL: none
    int frames;                  // frames to run (>= 1); the output is the last one
    double *gpu_ms;              // if set: the median GPU time of one frame of the effect
                                 // (timer query around the runtime's frame, first frame
                                 // excluded when frames > 1), NAN when unmeasured; this
                                 // includes the runtime's copies in and out
    const char *texture_dir;     // searched for `source=` images before the generated
                                 // textures (data/textures of the build tree); NULL: none
    bool gles;                   // a GLES 3.0 context and GLSL ES 3.00; else GL 4.5 core
    double *technique_ms;        // if set: the runtime's own GPU time of the effect's
                                 // technique (its moving average), 0 without timer queries
} effect_run;

typedef enum effect_status {
    EFFECT_RENDERED,
    EFFECT_FAILED,               // the runtime ran and reported an error (reason)
    EFFECT_UNAVAILABLE,          // no context or no runtime to render with (reason): skip
} effect_status;

effect_status effect_render(const effect_run *run, const fxgl_image *input, fxgl_image *output,
                            char *reason, size_t reason_size);

#endif // EFFECTS_RENDER_H
