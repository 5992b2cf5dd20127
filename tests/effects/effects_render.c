/*
 * effects_render.c - the pixel tests' route into the runtime.
 *
 * The GL effect runtime (src/gl, issue 5) is being written in parallel; its
 * API is not in fxgl_gl.h yet. Until it is, every render reports
 * EFFECT_UNAVAILABLE with that reason and the pixel tests skip (exit 77),
 * while test_reference keeps the CPU references honest. Wiring the runtime
 * in is confined to this file.
 */
#include <stdio.h>

#include "effects_render.h"

effect_status effect_render(const effect_run *run, const fxgl_image *input, fxgl_image *output,
                            char *reason, size_t reason_size) {
    (void)run;
    (void)input;
    (void)output;
    snprintf(reason, reason_size,
             "the GL effect runtime (src/gl, issue 5) is not merged yet: nothing to render with");
    return EFFECT_UNAVAILABLE;
}
