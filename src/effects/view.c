/*
 * view.c - the preset's view of a compiled effect: the plain data src/preset reads values
 * and techniques into, made the same way for every host (the interposer, fxgl-render,
 * fxc preset) so that a preset means one thing everywhere.
 *
 * The view lists every uniform of the effect at its own index, so a value the preset
 * gives uniform k of the view is the value of the effect's uniform k: hosts hand it to
 * the back end by that index, never by name. Arrays are read and saved as the reference
 * does it: the components of their first element (the rest keep their initial values).
 * Strings have no numeric value and are left to the effect (nosave).
 */
#include <stdlib.h>
#include <string.h>

#include "fxgl_effects.h"

fxgl_preset_base_type fxgl_effect_view_type(fxgl_scalar scalar) {
    switch (scalar) {
    case FXGL_SCALAR_INT:
        return FXGL_PRESET_INT;
    case FXGL_SCALAR_UINT:
        return FXGL_PRESET_UINT;
    case FXGL_SCALAR_BOOL:
        return FXGL_PRESET_BOOL;
    default:
        return FXGL_PRESET_FLOAT;
    }
}

const char *fxgl_effect_view_name(const char *name) {
    const char *colon = strrchr(name, ':');
    return colon != NULL ? colon + 1 : name;
}

static const char *annotation_string(const fxgl_annotations *list, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(list, name);
    return a != NULL && a->value.scalar == FXGL_SCALAR_STRING ? a->value.string : NULL;
}

bool fxgl_effect_view(const fxgl_effect *effect, const char *file, fxgl_preset_effect *out) {
    *out = (fxgl_preset_effect){.file = file};
    out->uniforms = calloc(effect->uniform_count + 1, sizeof(*out->uniforms));
    out->techniques = calloc(effect->technique_count + 1, sizeof(*out->techniques));
    if (out->uniforms == NULL || out->techniques == NULL) {
        fxgl_effect_view_finish(out);
        return false;
    }
    for (size_t i = 0; i < effect->uniform_count; i++) {
        const fxgl_uniform *u = &effect->uniforms[i];
        fxgl_preset_uniform *p = &out->uniforms[i];
        bool string = u->scalar == FXGL_SCALAR_STRING;
        p->name = fxgl_effect_view_name(u->name);
        p->type = fxgl_effect_view_type(u->scalar);
        p->rows = string ? 1 : (unsigned)u->rows;
        p->cols = string ? 1 : (unsigned)u->cols;
        p->special = u->special != FXGL_SPECIAL_NONE;
        p->nosave = u->nosave || string;
        p->ui_type = annotation_string(&u->annotations, "ui_type");
        int components = string ? 0 : u->rows * u->cols;
        for (int c = 0; c < components && c < u->initializer.count &&
                        c < FXGL_PRESET_MAX_COMPONENTS;
             c++) {
            p->value[c].u = u->initializer.u[c]; // the same 32 bits in both unions
        }
    }
    out->uniform_count = effect->uniform_count;
    for (size_t i = 0; i < effect->technique_count; i++) {
        const fxgl_technique *t = &effect->techniques[i];
        out->techniques[i] = (fxgl_preset_technique){
            .name = t->name,
            .ui_label = t->label,
            .forced_on = t->enabled,
            .nosave = t->nosave,
            .hidden = t->hidden,
            .skip_in_screenshot = !t->enabled_in_screenshot,
            .timeout_ms = t->timeout_ms > 0 ? (uint32_t)t->timeout_ms : 0,
        };
    }
    out->technique_count = effect->technique_count;
    return true;
}

void fxgl_effect_view_finish(fxgl_preset_effect *view) {
    free(view->uniforms);
    free(view->techniques);
    *view = (fxgl_preset_effect){0};
}

bool fxgl_effect_view_value(const fxgl_uniform *uniform, const fxgl_preset_uniform *view,
                            fxgl_value *out) {
    if (uniform->special != FXGL_SPECIAL_NONE || uniform->scalar == FXGL_SCALAR_STRING) {
        return false; // the runtime's, or no numeric value
    }
    size_t rows = view->rows ? view->rows : 1, cols = view->cols ? view->cols : 1;
    size_t count = rows * cols < FXGL_PRESET_MAX_COMPONENTS ? rows * cols
                                                            : FXGL_PRESET_MAX_COMPONENTS;
    *out = (fxgl_value){.count = (int)count};
    out->scalar = view->type == FXGL_PRESET_FLOAT  ? FXGL_SCALAR_FLOAT
                  : view->type == FXGL_PRESET_INT  ? FXGL_SCALAR_INT
                  : view->type == FXGL_PRESET_UINT ? FXGL_SCALAR_UINT
                                                   : FXGL_SCALAR_BOOL;
    for (size_t c = 0; c < count; c++) {
        out->u[c] = view->value[c].u;
    }
    return true;
}
