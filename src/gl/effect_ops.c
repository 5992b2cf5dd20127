/*
 * effect_ops.c - the GL runtime as the back end of an effect set (src/effects): the set
 * decides what runs and with which values, and reaches the runtime only through this
 * table, so a second back end serves the same set by filling in one of its own.
 */
#include "fxgl_effects.h"
#include "fxgl_gl.h"

static int add(void *backend, const fxgl_effect *effect, const char *file) {
    return fxgl_runtime_add_effect(backend, effect, file);
}

static bool replace(void *backend, size_t effect, const fxgl_effect *next, char *reason,
                    size_t reason_size) {
    return fxgl_runtime_replace_effect(backend, effect, next, reason, reason_size);
}

static bool set_value(void *backend, size_t effect, size_t uniform, const fxgl_value *value) {
    return fxgl_runtime_set_uniform_at(backend, effect, uniform, value);
}

static bool enable(void *backend, size_t effect, size_t technique, bool enabled) {
    return fxgl_runtime_set_enabled(backend, effect, technique, enabled);
}

static bool order(void *backend, const fxgl_technique_ref *refs, size_t count) {
    return fxgl_runtime_set_order(backend, refs, count);
}

static const fxgl_effect_ops runtime_ops = {add, replace, set_value, enable, order};

const fxgl_effect_ops *fxgl_runtime_effect_ops(void) {
    return &runtime_ops;
}
