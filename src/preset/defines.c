/*
 * defines.c - preprocessor definitions: parsing, layering, and which ones a user may edit.
 *
 * Definitions come as `NAME=VALUE` list elements (PreprocessorDefinitions in a preset's
 * [File.fx] section, its global section, and the configuration). The compiler takes the
 * first definition of a name (reference add_macro_definition), so layering is "first set
 * wins": effect section > preset > config > built-ins, and a valueless definition means 1.
 * The runtime's own macros (__RESHADE__, BUFFER_WIDTH, ...) are defined before all of these
 * in the reference, which makes a user definition of them a silent no-op; we drop them
 * here so the list that reaches the compiler is the list that takes effect.
 */
#include "preset_internal.h"

#include <stdlib.h>
#include <string.h>

void fxgl_preset_define_list_finish(fxgl_preset_define_list *list) {
    if (list == NULL) {
        return;
    }
    free(list->items);
    free(list->storage);
    *list = (fxgl_preset_define_list){0};
}

// Builds a list from (name, name_len, value, value_len) pieces in one allocation.
typedef struct define_piece {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
} define_piece;

static bool build_list(const define_piece *pieces, size_t count, fxgl_preset_define_list *out) {
    *out = (fxgl_preset_define_list){0};
    size_t bytes = 1;
    for (size_t i = 0; i < count; i++) {
        bytes += pieces[i].name_len + pieces[i].value_len + 2;
    }
    out->items = malloc((count + 1) * sizeof(*out->items));
    out->storage = malloc(bytes);
    if (out->items == NULL || out->storage == NULL) {
        fxgl_preset_define_list_finish(out);
        return false;
    }
    char *p = out->storage;
    for (size_t i = 0; i < count; i++) {
        char *name = p;
        memcpy(p, pieces[i].name, pieces[i].name_len);
        p += pieces[i].name_len;
        *p++ = '\0';
        char *value = p;
        memcpy(p, pieces[i].value, pieces[i].value_len);
        p += pieces[i].value_len;
        *p++ = '\0';
        out->items[i] = (fxgl_preset_define){.name = name, .value = value};
    }
    out->count = count;
    return true;
}

bool fxgl_preset_parse_defines(const char *const *elements, size_t count,
                               fxgl_preset_define_list *out) {
    define_piece *pieces = malloc((count + 1) * sizeof(*pieces));
    if (pieces == NULL) {
        *out = (fxgl_preset_define_list){0};
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        const char *element = elements[i];
        const char *eq = strchr(element, '=');
        size_t name_len = eq != NULL ? (size_t)(eq - element) : strlen(element);
        if (name_len == 0) {
            continue; // the reference skips definitions without a name
        }
        pieces[n++] = (define_piece){
            .name = element,
            .name_len = name_len,
            .value = eq != NULL ? eq + 1 : "",
            .value_len = eq != NULL ? strlen(eq + 1) : 0,
        };
    }
    bool ok = build_list(pieces, n, out);
    free(pieces);
    return ok;
}

static bool in_names(const char *const *names, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(names[i], name) == 0) {
            return true;
        }
    }
    return false;
}

static bool in_pieces(const define_piece *pieces, size_t count, const char *name) {
    size_t len = strlen(name);
    for (size_t i = 0; i < count; i++) {
        if (pieces[i].name_len == len && memcmp(pieces[i].name, name, len) == 0) {
            return true;
        }
    }
    return false;
}

bool fxgl_preset_layer_defines(const fxgl_preset_define *const *sets, const size_t *counts,
                               size_t set_count, const char *const *reserved,
                               size_t reserved_count, fxgl_preset_define_list *out) {
    size_t total = 0;
    for (size_t s = 0; s < set_count; s++) {
        total += counts[s];
    }
    define_piece *pieces = malloc((total + 1) * sizeof(*pieces));
    if (pieces == NULL) {
        *out = (fxgl_preset_define_list){0};
        return false;
    }
    size_t n = 0;
    for (size_t s = 0; s < set_count; s++) {
        for (size_t i = 0; i < counts[s]; i++) {
            const fxgl_preset_define *d = &sets[s][i];
            if (d->name == NULL || d->name[0] == '\0' || in_pieces(pieces, n, d->name) ||
                in_names(reserved, reserved_count, d->name)) {
                continue;
            }
            const char *value = d->value != NULL && d->value[0] != '\0' ? d->value : "1";
            pieces[n++] = (define_piece){
                .name = d->name,
                .name_len = strlen(d->name),
                .value = value,
                .value_len = strlen(value),
            };
        }
    }
    bool ok = build_list(pieces, n, out);
    free(pieces);
    return ok;
}

// The reference's filter (runtime.cpp, used-definition list): short names, names starting
// with '_', BUFFER_ or RESHADE_, and include guards are never offered for editing.
static bool editable_name(const char *name) {
    return strlen(name) >= 8 && name[0] != '_' && strncmp(name, "BUFFER_", 7) != 0 &&
           strncmp(name, "RESHADE_", 8) != 0 && strstr(name, "INCLUDE_") == NULL;
}

static int compare_define(const void *a, const void *b) {
    const fxgl_preset_define *x = a;
    const fxgl_preset_define *y = b;
    int c = strcmp(x->name, y->name);
    return c != 0 ? c : strcmp(x->value, y->value);
}

bool fxgl_preset_editable_defines(const fxgl_preset_macro_test *tests, size_t count,
                                  fxgl_preset_define_list *out) {
    define_piece *pieces = malloc((count + 1) * sizeof(*pieces));
    if (pieces == NULL) {
        *out = (fxgl_preset_define_list){0};
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        const fxgl_preset_macro_test *t = &tests[i];
        if (t->name == NULL || t->defined_by_source || t->final_value == NULL ||
            !editable_name(t->name) || in_pieces(pieces, n, t->name)) {
            continue;
        }
        // The reference trims the value it shows.
        const char *value = t->final_value;
        size_t len = strlen(value);
        while (len > 0 && (value[0] == ' ' || value[0] == '\t')) {
            value++;
            len--;
        }
        while (len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t')) {
            len--;
        }
        pieces[n++] = (define_piece){t->name, strlen(t->name), value, len};
    }
    bool ok = build_list(pieces, n, out);
    free(pieces);
    if (ok) {
        qsort(out->items, out->count, sizeof(*out->items), compare_define);
    }
    return ok;
}
