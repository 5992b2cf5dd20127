/*
 * transition.c - the reference's timed preset transition: floats move linearly from the
 * old preset's values to the new one's over PresetTransitionDuration; ints and bools cannot
 * be blended and take the new value at once.
 */
#include "fxgl_effects.h"

bool fxgl_preset_transition_value(const fxgl_preset_transition *t, double now,
                                  fxgl_preset_value *out) {
    size_t count = t->count < FXGL_PRESET_MAX_COMPONENTS ? t->count
                                                         : FXGL_PRESET_MAX_COMPONENTS;
    double elapsed = now - t->start;
    bool running = t->duration > 0.0 && elapsed < t->duration;
    double k = !running ? 1.0 : elapsed <= 0.0 ? 0.0 : elapsed / t->duration;
    for (size_t i = 0; i < count; i++) {
        if (t->type == FXGL_PRESET_FLOAT && running) {
            // from + (to - from) * k in double: the end points are exact at k = 0 and 1.
            double a = t->from[i].f, b = t->to[i].f;
            out[i].f = (float)(a + (b - a) * k);
        } else {
            out[i] = t->to[i];
        }
    }
    return running;
}

void fxgl_preset_transition_begin(const fxgl_preset_uniform *from,
                                  const fxgl_preset_uniform *to, size_t count, double now,
                                  double duration, fxgl_preset_transition *out) {
    for (size_t i = 0; i < count; i++) {
        const fxgl_preset_uniform *u = &to[i];
        size_t rows = u->rows ? u->rows : 1, cols = u->cols ? u->cols : 1;
        fxgl_preset_transition *t = &out[i];
        *t = (fxgl_preset_transition){
            .start = now,
            .duration = duration,
            .count = rows * cols < FXGL_PRESET_MAX_COMPONENTS ? rows * cols
                                                              : FXGL_PRESET_MAX_COMPONENTS,
            .type = u->type,
        };
        bool keep = u->special || u->nosave;
        for (size_t k = 0; k < t->count; k++) {
            t->from[k] = from[i].value[k];
            t->to[k] = keep ? from[i].value[k] : u->value[k];
        }
    }
}
