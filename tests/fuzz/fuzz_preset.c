/*
 * fuzz_preset.c - libFuzzer target for the preset reader and writer
 * (src/preset): the input is a preset's text. It is read, queried as the
 * runtime queries it (techniques, order, definitions), applied to a small
 * made-up effect with one uniform of every kind, captured back, written and
 * read again. (Written text need not read back to itself: the format
 * doubles commas inside elements, so a run of commas around empty elements
 * is ambiguous, in the reference too.) Built by `make fuzz`
 * with clang -fsanitize=fuzzer,address,undefined; seeds are in
 * tests/fuzz/preset_seeds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_preset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void effect_of(fxgl_preset_uniform *u, fxgl_preset_technique *t, fxgl_preset_effect *e) {
    static const struct {
        const char *name;
        fxgl_preset_base_type type;
        unsigned rows, cols;
        const char *ui_type;
    } shapes[] = {
        {"Gain", FXGL_PRESET_FLOAT, 1, 1, "slider"}, {"Tint", FXGL_PRESET_FLOAT, 4, 1, NULL},
        {"Steps", FXGL_PRESET_INT, 2, 1, "drag"},   {"Mask", FXGL_PRESET_UINT, 1, 1, NULL},
        {"Enabled", FXGL_PRESET_BOOL, 1, 1, NULL},  {"Transform", FXGL_PRESET_FLOAT, 4, 4, NULL},
        {"Mode", FXGL_PRESET_INT, 1, 1, "combo"},
    };
    for (size_t i = 0; i < 7; i++) {
        u[i] = (fxgl_preset_uniform){.name = shapes[i].name, .type = shapes[i].type,
                                     .rows = shapes[i].rows, .cols = shapes[i].cols,
                                     .ui_type = shapes[i].ui_type};
    }
    t[0] = (fxgl_preset_technique){.name = "Main", .ui_label = "Main pass"};
    t[1] = (fxgl_preset_technique){.name = "Second"};
    t[2] = (fxgl_preset_technique){.name = "Forced", .forced_on = true};
    *e = (fxgl_preset_effect){.file = "A.fx", .uniforms = u, .uniform_count = 7,
                              .techniques = t, .technique_count = 3};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fxgl_preset *p = fxgl_preset_create(&(fxgl_preset_desc){.text = (const char *)data,
                                                             .len = size});
    if (!p) {
        return 0;
    }
    size_t n;
    fxgl_preset_techniques(p, &n);
    fxgl_preset_technique_sorting(p, &n);
    fxgl_preset_wants_effect(p, "A.fx");
    fxgl_preset_define_list defs = {0};
    fxgl_preset_defines(p, NULL, &defs);
    fxgl_preset_define_list_finish(&defs);
    static const fxgl_preset_define builtins[] = {{"BUFFER_WIDTH", "640"}, {"SHARED", "0"}};
    static const char *const reserved[] = {"BUFFER_WIDTH"};
    fxgl_preset_resolve_defines(p, "A.fx", NULL, 0, builtins, 2, reserved, 1, &defs);
    fxgl_preset_define_list_finish(&defs);

    fxgl_preset_uniform u[7];
    fxgl_preset_technique t[3];
    fxgl_preset_effect e;
    effect_of(u, t, &e);
    fxgl_preset_apply(p, &e, 1);
    fxgl_preset_technique_ref order[3];
    size_t count = fxgl_preset_order(p, NULL, 0, &e, 1, order);
    if (count > 3) {
        abort();
    }
    fxgl_preset_capture(p, &e, 1, order, count);

    size_t len1 = 0, len2 = 0;
    char *text1 = fxgl_ini_write(fxgl_preset_ini(p), &len1);
    if (text1) {
        fxgl_ini *again = fxgl_ini_create();
        if (again && fxgl_ini_parse(again, text1, len1, "again", NULL)) {
            free(fxgl_ini_write(again, &len2));
        }
        fxgl_ini_destroy(again);
        free(text1);
    }
    fxgl_preset_destroy(p);
    return 0;
}
