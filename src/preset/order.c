/*
 * order.c - the render order of techniques.
 *
 * Order has exactly two sources (the reference's rule): declaration order
 * within a file, and a list from the preset (TechniqueSorting, else ReShade.ini's
 * TechniqueSorting, else Techniques). Listed techniques come first, by the position of
 * their first matching entry (`Name@File.fx`, else a legacy bare `Name`).
 *
 * For the rest, the reference stable-sorts with a comparator that keeps declaration order
 * within a file and compares upper-cased labels across files. That comparator is not a
 * strict weak order (file A declaring "Zeta" before "Alpha" and file B with "Middle" give
 * Zeta < Alpha < Middle < Zeta), so its result depends on the sort's internals and on the
 * order effects finished compiling. We keep both promises with a well-defined rule: each
 * file's unlisted techniques stay a run in declaration order, and the runs are merged by
 * label (the smallest upper-cased head goes next; equal heads: the earlier effect). With
 * one technique per file, or files whose techniques are declared alphabetically, this is
 * exactly the reference's alphabetical order.
 */
#include "preset_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct order_item {
    fxgl_preset_technique_ref ref; // the technique
    size_t position;             // index of its list entry, SIZE_MAX when not listed
    size_t input;                // position in effect-major declaration order (stability)
    const char *label;           // borrowed: ui_label, else name
} order_item;

bool preset_order_unique_name(const char *name, const char *file, char *buf, size_t size) {
    int n = snprintf(buf, size, "%s@%s", name, file);
    return n >= 0 && (size_t)n < size;
}

static size_t find_entry(const char *const *list, size_t count, const char *text) {
    for (size_t i = 0; i < count; i++) {
        if (list[i] != NULL && strcmp(list[i], text) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static size_t list_position(const char *const *list, size_t count, const char *name,
                            const char *file) {
    size_t len = strlen(name) + strlen(file) + 2;
    char stack[256];
    char *unique = len <= sizeof(stack) ? stack : malloc(len);
    size_t position = SIZE_MAX;
    if (unique != NULL) {
        preset_order_unique_name(name, file, unique, len);
        position = find_entry(list, count, unique);
        if (unique != stack) {
            free(unique);
        }
    }
    return position != SIZE_MAX ? position : find_entry(list, count, name);
}

static int compare_position(const void *a, const void *b) {
    const order_item *x = a;
    const order_item *y = b;
    if (x->position != y->position) {
        return x->position < y->position ? -1 : 1;
    }
    return x->input < y->input ? -1 : x->input > y->input;
}

// The reference upper-cases with std::toupper in the "C" locale and compares bytes as
// unsigned char (std::char_traits<char>).
static int compare_label(const char *a, const char *b) {
    const unsigned char *x = (const unsigned char *)a;
    const unsigned char *y = (const unsigned char *)b;
    for (;; x++, y++) {
        int cx = *x >= 'a' && *x <= 'z' ? *x - 32 : *x;
        int cy = *y >= 'a' && *y <= 'z' ? *y - 32 : *y;
        if (cx != cy || *x == '\0') {
            return cx - cy;
        }
    }
}

// Merges the per-effect runs inside items[0..count) (grouped by effect, each group in
// declaration order) into out, by label.
static void merge_runs(const order_item *items, size_t count, size_t *cursor, size_t *limit,
                       fxgl_preset_technique_ref *out) {
    size_t groups = 0;
    for (size_t i = 0; i < count; i++) {
        if (i == 0 || items[i].ref.effect != items[i - 1].ref.effect) {
            cursor[groups] = i;
            if (groups != 0) {
                limit[groups - 1] = i;
            }
            groups++;
        }
    }
    if (groups != 0) {
        limit[groups - 1] = count;
    }
    for (size_t n = 0; n < count; n++) {
        size_t best = SIZE_MAX;
        for (size_t g = 0; g < groups; g++) {
            if (cursor[g] == limit[g]) {
                continue;
            }
            // Strictly smaller only: on equal labels the earlier effect (lower g) stays.
            if (best == SIZE_MAX ||
                compare_label(items[cursor[g]].label, items[cursor[best]].label) < 0) {
                best = g;
            }
        }
        out[n] = items[cursor[best]++].ref;
    }
}

size_t fxgl_preset_sort_techniques(const char *const *list, size_t list_count,
                                   const fxgl_preset_effect *effects, size_t effect_count,
                                   fxgl_preset_technique_ref *out) {
    size_t total = 0;
    for (size_t e = 0; e < effect_count; e++) {
        total += effects[e].technique_count;
    }
    if (total == 0) {
        return 0;
    }
    order_item *items = malloc(total * sizeof(*items));
    size_t *cursor = malloc(total * sizeof(*cursor));
    size_t *limit = malloc(total * sizeof(*limit));
    if (items == NULL || cursor == NULL || limit == NULL) {
        // Out of memory: declaration order, effect by effect, is still a valid order.
        size_t n = 0;
        for (size_t e = 0; e < effect_count; e++) {
            for (size_t t = 0; t < effects[e].technique_count; t++) {
                out[n++] = (fxgl_preset_technique_ref){(uint32_t)e, (uint32_t)t};
            }
        }
        free(items);
        free(cursor);
        free(limit);
        return n;
    }
    size_t n = 0;
    for (size_t e = 0; e < effect_count; e++) {
        for (size_t t = 0; t < effects[e].technique_count; t++) {
            const fxgl_preset_technique *tech = &effects[e].techniques[t];
            const char *label = tech->ui_label != NULL && tech->ui_label[0] != '\0'
                                    ? tech->ui_label
                                    : tech->name;
            items[n] = (order_item){
                .ref = {(uint32_t)e, (uint32_t)t},
                .position = list_position(list, list_count, tech->name,
                                          effects[e].file != NULL ? effects[e].file : ""),
                .input = n,
                .label = label != NULL ? label : "",
            };
            n++;
        }
    }
    qsort(items, total, sizeof(*items), compare_position);
    // Each run of one position is a tie: one bare entry naming several techniques, or
    // (SIZE_MAX) the unlisted ones.
    for (size_t start = 0; start < total;) {
        size_t end = start + 1;
        while (end < total && items[end].position == items[start].position) {
            end++;
        }
        merge_runs(items + start, end - start, cursor, limit, out + start);
        start = end;
    }
    free(items);
    free(cursor);
    free(limit);
    return total;
}
