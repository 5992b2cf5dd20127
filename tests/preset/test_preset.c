/*
 * test_preset.c - presets over described effects: apply and capture round trips of the
 * fixtures, enabling rules (legacy names, forced on), values (vectors, row-major matrices,
 * ints, bools, wrong counts, bad numbers), what is never saved, save refusals, and the
 * definition rules.
 */
#include "fxgl_preset.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PRESET_DATA_DIR
#define PRESET_DATA_DIR "tests/preset/data"
#endif

typedef struct diag_log {
    char text[8192];             // every diagnostic, one per line
    unsigned count;
} diag_log;

static void collect(void *user, const fxgl_preset_diag *diag) {
    diag_log *log = user;
    char line[600];
    fxgl_preset_diag_format(diag, line, sizeof(line));
    size_t len = strlen(log->text);
    snprintf(log->text + len, sizeof(log->text) - len, "%s\n", line);
    log->count++;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    ck_assert(fread(text, 1, (size_t)size, f) == (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

static fxgl_preset *from_text(const char *text, diag_log *log) {
    return fxgl_preset_create(&(fxgl_preset_desc){
        .text = text,
        .len = strlen(text),
        .sink = {collect, log},
    });
}

// --- the effects of the fixtures, as the runtime would describe them ---

typedef struct world {
    fxgl_preset_technique depth_tech[1];
    fxgl_preset_technique smaa_tech[1];
    fxgl_preset_technique deband_tech[1];
    fxgl_preset_technique lut_tech[1];
    fxgl_preset_uniform smaa_u[3];
    fxgl_preset_uniform deband_u[2];
    fxgl_preset_uniform lut_u[6];
    fxgl_preset_effect effects[4];
} world;

static void make_world(world *w) {
    *w = (world){0};
    w->depth_tech[0] = (fxgl_preset_technique){.name = "DisplayDepth"};
    w->smaa_tech[0] = (fxgl_preset_technique){.name = "SMAA"};
    w->deband_tech[0] = (fxgl_preset_technique){.name = "Deband"};
    w->lut_tech[0] = (fxgl_preset_technique){.name = "LUT"};
    w->smaa_u[0] = (fxgl_preset_uniform){.name = "EdgeDetectionThreshold", .rows = 1,
                                         .value = {{.f = 0.2f}}};
    w->smaa_u[1] = (fxgl_preset_uniform){.name = "CornerRounding", .type = FXGL_PRESET_INT,
                                         .rows = 1, .value = {{.i = 10}}};
    w->smaa_u[2] = (fxgl_preset_uniform){.name = "Transform", .rows = 2, .cols = 3};
    w->deband_u[0] = (fxgl_preset_uniform){.name = "Iterations", .type = FXGL_PRESET_INT};
    w->deband_u[1] = (fxgl_preset_uniform){.name = "Range"};
    w->lut_u[0] = (fxgl_preset_uniform){.name = "fLUT_AmountChroma", .rows = 1};
    w->lut_u[1] = (fxgl_preset_uniform){.name = "fLUT_AmountLuma", .rows = 1};
    w->lut_u[2] = (fxgl_preset_uniform){.name = "fLUT_Tint", .rows = 3};
    w->lut_u[3] = (fxgl_preset_uniform){.name = "UseGamma", .type = FXGL_PRESET_BOOL};
    w->lut_u[4] = (fxgl_preset_uniform){.name = "Timer", .type = FXGL_PRESET_UINT,
                                        .special = true, .value = {{.u = 1234}}};
    w->lut_u[5] = (fxgl_preset_uniform){.name = "Scratch", .nosave = true,
                                        .value = {{.f = 3.0f}}};
    w->effects[0] = (fxgl_preset_effect){"DisplayDepth.fx", NULL, 0, w->depth_tech, 1};
    w->effects[1] = (fxgl_preset_effect){"SMAA.fx", w->smaa_u, 3, w->smaa_tech, 1};
    w->effects[2] = (fxgl_preset_effect){"Deband.fx", w->deband_u, 2, w->deband_tech, 1};
    w->effects[3] = (fxgl_preset_effect){"LUT.fx", w->lut_u, 6, w->lut_tech, 1};
}

static char *apply_capture_write(fxgl_preset *p, world *w) {
    fxgl_preset_apply(p, w->effects, 4);
    fxgl_preset_technique_ref order[8];
    size_t n = fxgl_preset_order(p, NULL, 0, w->effects, 4, order);
    ck_assert_uint_eq(n, 4);
    ck_assert(fxgl_preset_capture(p, w->effects, 4, order, n));
    return fxgl_ini_write(fxgl_preset_ini(p), NULL);
}

START_TEST(test_reference_preset_round_trip_through_effects) {
    char *text = read_file(PRESET_DATA_DIR "/reference.ini");
    diag_log log = {0};
    fxgl_preset *p = from_text(text, &log);
    world w;
    make_world(&w);
    char *out = apply_capture_write(p, &w);
    ck_assert_str_eq(out, text);
    ck_assert_msg(log.count == 0, "%s", log.text);
    // What the preset said arrived in the effects.
    ck_assert(w.smaa_tech[0].enabled && w.lut_tech[0].enabled && !w.deband_tech[0].enabled);
    ck_assert_uint_eq(w.lut_tech[0].toggle_key.vk, 76);
    ck_assert(w.lut_tech[0].toggle_key.shift);
    ck_assert(w.smaa_u[0].value[0].f == 0.1f);
    ck_assert_int_eq(w.smaa_u[1].value[0].i, 25);
    ck_assert(w.smaa_u[2].value[2].f == 0.5f && w.smaa_u[2].value[5].f == -0.25f);
    ck_assert(w.lut_u[2].value[1].f == 0.9f);
    ck_assert_uint_eq(w.lut_u[3].value[0].u, 1);
    ck_assert_uint_eq(w.lut_u[3].toggle_key.vk, 71);
    ck_assert(w.lut_u[3].toggle_key.ctrl);
    ck_assert_uint_eq(w.lut_u[4].value[0].u, 1234); // special: untouched
    free(out);
    free(text);
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_messy_preset_saved_normalised) {
    char *text = read_file(PRESET_DATA_DIR "/messy.ini");
    char *expected = read_file(PRESET_DATA_DIR "/messy.saved.ini");
    diag_log log = {0};
    fxgl_preset *p = from_text(text, &log);
    world w;
    make_world(&w);
    // Only LUT and SMAA exist in this world; their uniforms as in the fixture.
    w.effects[0] = (fxgl_preset_effect){"LUT.fx", w.lut_u, 2, w.lut_tech, 1};
    w.lut_u[2] = w.lut_u[3]; // UseGamma third
    w.effects[0].uniform_count = 3;
    w.smaa_u[0].value[0].f = 0.2f;
    w.effects[1] = (fxgl_preset_effect){"SMAA.fx", w.smaa_u, 1, w.smaa_tech, 1};
    fxgl_preset_apply(p, w.effects, 2);
    fxgl_preset_technique_ref order[4];
    size_t n = fxgl_preset_order(p, NULL, 0, w.effects, 2, order);
    ck_assert(fxgl_preset_capture(p, w.effects, 2, order, n));
    char *out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    ck_assert_str_eq(out, expected);
    // Two values for a scalar, and a key without value, were reported with their lines.
    ck_assert_ptr_nonnull(strstr(log.text, "(8): warning: 'fLUT_AmountChroma' has 2 values"));
    ck_assert_ptr_nonnull(strstr(log.text, "(7): warning: 'UseGamma' has 0 values"));
    free(out);
    free(expected);
    free(text);
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_enabling_rules_legacy_and_forced) {
    diag_log log = {0};
    fxgl_preset *p = from_text("Techniques=Old,New@B.fx,Gone@B.fx,X@Missing.fx\n"
                               "KeyOld=65,0,0,1\n"
                               "KeyNew@B.fx=66,1,1,1\n"
                               "KeyNew=67,0,0,0\n",
                               &log);
    fxgl_preset_technique a[2] = {{.name = "Old"}, {.name = "Always", .forced_on = true}};
    fxgl_preset_technique b[2] = {{.name = "New"}, {.name = "Off", .enabled = true}};
    fxgl_preset_effect effects[2] = {{"A.fx", NULL, 0, a, 2}, {"B.fx", NULL, 0, b, 2}};
    ck_assert(!fxgl_preset_apply(p, effects, 2)); // incomplete: Gone and Missing.fx
    ck_assert(a[0].enabled && a[1].enabled && b[0].enabled && !b[1].enabled);
    ck_assert_uint_eq(a[0].toggle_key.vk, 65); // legacy Key<Name>
    ck_assert(a[0].toggle_key.alt);
    ck_assert_uint_eq(b[0].toggle_key.vk, 66); // Key<Name@File> wins over legacy
    ck_assert_ptr_nonnull(strstr(log.text, "<preset>(1): warning: preset uses unknown "
                                           "technique 'Gone@B.fx'"));
    ck_assert_ptr_nonnull(strstr(log.text, "effect file 'Missing.fx', which is not loaded"));
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_values_bad_input_keeps_defaults) {
    diag_log log = {0};
    fxgl_preset *p = from_text("Techniques=T@E.fx\n"
                               "[E.fx]\n"
                               "Color=0.5,abc\n"
                               "Count=-7\n"
                               "Flag=true\n"
                               "Mode=2\n"
                               "KeyMode=77,0,0,0\n"
                               "KeyFlag=zz\n"
                               "Big=1,2,3,4,5\n",
                               &log);
    fxgl_preset_technique t[1] = {{.name = "T"}};
    fxgl_preset_uniform u[5] = {
        {.name = "Color", .rows = 3, .value = {{.f = 9}, {.f = 8}, {.f = 7}}},
        {.name = "Count", .type = FXGL_PRESET_INT},
        {.name = "Flag", .type = FXGL_PRESET_BOOL},
        {.name = "Mode", .type = FXGL_PRESET_INT, .ui_type = "combo"},
        {.name = "Big", .type = FXGL_PRESET_UINT, .rows = 2},
    };
    fxgl_preset_effect e = {"E.fx", u, 5, t, 1};
    ck_assert(fxgl_preset_apply(p, &e, 1));
    ck_assert(u[0].value[0].f == 0.5f && u[0].value[1].f == 8 && u[0].value[2].f == 7);
    ck_assert_int_eq(u[1].value[0].i, -7);
    ck_assert_uint_eq(u[2].value[0].u, 1);
    ck_assert_uint_eq(u[3].toggle_key.vk, 77);
    ck_assert_uint_eq(u[2].toggle_key.vk, 0);
    ck_assert_uint_eq(u[4].value[1].u, 2);
    ck_assert_ptr_nonnull(strstr(log.text, "(3): warning: 'Color' has 2 values, expected 3"));
    ck_assert_ptr_nonnull(strstr(log.text, "(3): warning: 'Color': 'abc' is not a number"));
    ck_assert_ptr_nonnull(strstr(log.text, "(8): warning: 'KeyFlag' is not a key binding"));
    ck_assert_ptr_nonnull(strstr(log.text, "(9): warning: 'Big' has 5 values, expected 2"));
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_unknown_keys_warned_and_kept) {
    diag_log log = {0};
    fxgl_preset *p = from_text("Techniques=T@E.fx\n"
                               "[E.fx]\n"
                               "Strenght=0.5\n"
                               "Strength=0.25\n"
                               "KeyFlag=70,0,0,0\n"
                               "PreprocessorDefinitions=A=1\n"
                               "[Unloaded.fx]\n"
                               "Whatever=1\n",
                               &log);
    fxgl_preset_technique t[1] = {{.name = "T"}};
    fxgl_preset_uniform u[2] = {{.name = "Strength"}, {.name = "Flag", .type = FXGL_PRESET_BOOL}};
    fxgl_preset_effect e = {"E.fx", u, 2, t, 1};
    ck_assert(fxgl_preset_apply(p, &e, 1));
    ck_assert(u[0].value[0].f == 0.25f);
    ck_assert_uint_eq(u[1].toggle_key.vk, 70);
    // Only the typo is reported; the key binding, the definitions and the section of an
    // effect that is not loaded are known or not ours to judge.
    ck_assert_uint_eq(log.count, 1);
    ck_assert_ptr_nonnull(strstr(log.text, "(3): warning: 'Strenght' in [E.fx] is no variable "
                                           "of the effect: ignored, kept on save"));
    fxgl_preset_technique_ref order[1];
    size_t n = fxgl_preset_order(p, NULL, 0, &e, 1, order);
    ck_assert(fxgl_preset_capture(p, &e, 1, order, n));
    char *out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    ck_assert_ptr_nonnull(strstr(out, "Strenght=0.5\n"));
    ck_assert_ptr_nonnull(strstr(out, "[Unloaded.fx]\nWhatever=1\n"));
    free(out);
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_capture_skips_nosave_and_keeps_unknown) {
    diag_log log = {0};
    fxgl_preset *p = from_text("Custom=keep me\n"
                               "Techniques=A@E.fx\n"
                               "[E.fx]\n"
                               "Unknown=1,2\n"
                               "[Other.fx]\n"
                               "x=1\n",
                               &log);
    fxgl_preset_technique t[3] = {
        {.name = "A"}, {.name = "Secret", .nosave = true}, {.name = "B"}};
    fxgl_preset_uniform u[3] = {
        {.name = "v", .type = FXGL_PRESET_INT, .rows = 2, .value = {{.i = 1}, {.i = -2}}},
        {.name = "Time", .special = true},
        {.name = "Tmp", .nosave = true},
    };
    fxgl_preset_effect e = {"E.fx", u, 3, t, 3};
    fxgl_preset_apply(p, &e, 1);
    t[1].enabled = true;
    t[2].toggle_key = (fxgl_preset_key){.vk = 0x70};
    fxgl_preset_technique_ref order[3];
    size_t n = fxgl_preset_order(p, NULL, 0, &e, 1, order);
    ck_assert(fxgl_preset_capture(p, &e, 1, order, n));
    char *out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    // Techniques is a prefix of all techniques in order: no TechniqueSorting written.
    ck_assert_str_eq(out, "Custom=keep me\n"
                          "KeyB@E.fx=112,0,0,0\n"
                          "Techniques=A@E.fx\n"
                          "\n"
                          "[E.fx]\n"
                          "Unknown=1,2\n"
                          "v=1,-2\n"
                          "\n"
                          "[Other.fx]\n"
                          "x=1\n"
                          "\n");
    free(out);
    // Enabling B alone makes Techniques differ from the order: TechniqueSorting appears.
    t[0].enabled = false;
    t[2].enabled = true;
    t[2].toggle_key.vk = 0;
    ck_assert(fxgl_preset_capture(p, &e, 1, order, n));
    out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    ck_assert_ptr_nonnull(strstr(out, "Techniques=B@E.fx\nTechniqueSorting=A@E.fx,B@E.fx\n"));
    ck_assert_ptr_null(strstr(out, "KeyB@E.fx"));
    free(out);
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_capture_keeps_unloaded_entries) {
    // Missing.fx is not in the shader folder, Nope is no technique of E.fx, Legacy is a
    // bare name nothing has: a save must keep all three where they were.
    diag_log log = {0};
    fxgl_preset *p = from_text("Techniques=Gone@Missing.fx,A@E.fx,Nope@E.fx,Legacy,B@E.fx\n"
                               "TechniqueSorting=B@E.fx,Gone@Missing.fx,A@E.fx\n"
                               "KeyGone@Missing.fx=65,0,0,0\n"
                               "[Missing.fx]\n"
                               "Strength=0.5\n",
                               &log);
    fxgl_preset_technique t[2] = {{.name = "A"}, {.name = "B"}};
    fxgl_preset_effect e = {"E.fx", NULL, 0, t, 2};
    ck_assert(!fxgl_preset_apply(p, &e, 1)); // incomplete: warned about
    ck_assert_ptr_nonnull(strstr(log.text, "(1): warning: preset uses technique "
                                           "'Gone@Missing.fx' of effect file 'Missing.fx'"));
    ck_assert_ptr_nonnull(strstr(log.text, "(1): warning: preset uses unknown technique "
                                           "'Nope@E.fx'"));
    ck_assert(t[0].enabled && t[1].enabled);
    fxgl_preset_technique_ref order[2];
    size_t n = fxgl_preset_order(p, NULL, 0, &e, 1, order);
    ck_assert_uint_eq(n, 2);
    ck_assert(fxgl_preset_capture(p, &e, 1, order, n));
    char *out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    // Each kept entry goes after the nearest earlier entry still listed: Nope and Legacy
    // followed A in the old list, Gone was first. Unbound keys are not written.
    ck_assert_str_eq(out, "KeyGone@Missing.fx=65,0,0,0\n"
                          "Techniques=Gone@Missing.fx,B@E.fx,A@E.fx,Nope@E.fx,Legacy\n"
                          "TechniqueSorting=B@E.fx,Gone@Missing.fx,A@E.fx\n"
                          "\n"
                          "[Missing.fx]\n"
                          "Strength=0.5\n"
                          "\n");
    free(out);
    // Saving again changes nothing: the kept entries are not duplicated.
    ck_assert(fxgl_preset_capture(p, &e, 1, order, n));
    out = fxgl_ini_write(fxgl_preset_ini(p), NULL);
    ck_assert_ptr_nonnull(strstr(out, "Techniques=Gone@Missing.fx,B@E.fx,A@E.fx,Nope@E.fx,"
                                      "Legacy\n"));
    free(out);
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_save_refusals_and_success) {
    char dir[] = "/tmp/fxgl-preset-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof(path), "%s/Preset.ini", dir);
    FILE *f = fopen(path, "w");
    fputs("Techniques=A@E.fx\n", f);
    fclose(f);
    diag_log log = {0};
    fxgl_preset *p = fxgl_preset_create(&(fxgl_preset_desc){.path = path,
                                                            .sink = {collect, &log}});
    ck_assert(fxgl_preset_is_preset_path(path));
    fxgl_preset_lock(p, "performance mode is on: values are compile-time constants");
    ck_assert(!fxgl_preset_save(p, NULL));
    ck_assert_ptr_nonnull(strstr(log.text, "not saved: performance mode is on"));
    fxgl_preset_lock(p, NULL);
    ck_assert(fxgl_preset_save(p, NULL));
    ck_assert(fxgl_preset_save(p, NULL)); // its own write is not "changed on disk"
    // Someone else edits the file: saving must not overwrite that.
    f = fopen(path, "w");
    fputs("Techniques=B@E.fx\nExtra=1\n", f);
    fclose(f);
    ck_assert(!fxgl_preset_save(p, NULL));
    ck_assert_ptr_nonnull(strstr(log.text, "changed on disk"));
    char *text = read_file(path);
    ck_assert_str_eq(text, "Techniques=B@E.fx\nExtra=1\n");
    free(text);
    fxgl_preset_destroy(p);
    // A directory where the preset should be cannot be read: never saved over.
    char sub[300];
    snprintf(sub, sizeof(sub), "%s/Dir.ini", dir);
    mkdir(sub, 0755);
    p = fxgl_preset_create(&(fxgl_preset_desc){.path = sub, .sink = {collect, &log}});
    ck_assert(!fxgl_preset_save(p, NULL));
    fxgl_preset_destroy(p);
    ck_assert(!fxgl_preset_is_preset_path(sub));
    rmdir(sub);
    // Not a preset: no Techniques key, or the wrong extension.
    f = fopen(path, "w");
    fputs("[GENERAL]\nEffectSearchPaths=.\n", f);
    fclose(f);
    ck_assert(!fxgl_preset_is_preset_path(path));
    ck_assert(!fxgl_preset_is_preset_path("/tmp/x.fx"));
    snprintf(sub, sizeof(sub), "%s/New.ini", dir);
    ck_assert(fxgl_preset_is_preset_path(sub)); // a new preset
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_wants_effect) {
    fxgl_preset *p = from_text("Techniques=A@One.fx,B@Two.fx\n", NULL);
    ck_assert(fxgl_preset_wants_effect(p, "One.fx"));
    ck_assert(!fxgl_preset_wants_effect(p, "Three.fx"));
    ck_assert(!fxgl_preset_wants_effect(p, "One.f"));
    fxgl_preset_destroy(p);
    p = from_text("Techniques=A@One.fx,Legacy\n", NULL);
    ck_assert(fxgl_preset_wants_effect(p, "Three.fx"));
    fxgl_preset_destroy(p);
    p = from_text("Techniques=\n", NULL);
    ck_assert(fxgl_preset_wants_effect(p, "Three.fx"));
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_define_layering) {
    fxgl_preset *p = from_text("PreprocessorDefinitions=SHARED=preset,GLOBAL_ONLY,BUFFER_WIDTH=9\n"
                               "[E.fx]\n"
                               "PreprocessorDefinitions=SHARED=effect,=nameless,EMPTY=\n",
                               NULL);
    fxgl_preset_define config[] = {{"SHARED", "config"}, {"CONFIG_ONLY", "3"}};
    fxgl_preset_define builtins[] = {{"CONFIG_ONLY", "builtin"}, {"ADDON_DEPTH", "1"}};
    const char *reserved[] = {"BUFFER_WIDTH"};
    fxgl_preset_define_list out;
    ck_assert(fxgl_preset_resolve_defines(p, "E.fx", config, 2, builtins, 2, reserved, 1,
                                          &out));
    const char *expected[][2] = {{"SHARED", "effect"},     {"EMPTY", "1"},
                                 {"GLOBAL_ONLY", "1"},     {"CONFIG_ONLY", "3"},
                                 {"ADDON_DEPTH", "1"}};
    ck_assert_uint_eq(out.count, 5);
    for (size_t i = 0; i < 5; i++) {
        ck_assert_str_eq(out.items[i].name, expected[i][0]);
        ck_assert_str_eq(out.items[i].value, expected[i][1]);
    }
    fxgl_preset_define_list_finish(&out);
    // Another effect sees the preset's global layer first.
    ck_assert(fxgl_preset_resolve_defines(p, "F.fx", config, 2, NULL, 0, reserved, 1, &out));
    ck_assert_str_eq(out.items[0].value, "preset");
    fxgl_preset_define_list_finish(&out);
    fxgl_preset_define set[] = {{"A", "1"}, {"B", ""}};
    ck_assert(fxgl_preset_set_defines(p, "F.fx", set, 2));
    ck_assert_str_eq(fxgl_ini_get_string(fxgl_preset_ini(p), "F.fx", "PreprocessorDefinitions",
                                         1),
                     "B");
    ck_assert(fxgl_preset_set_defines(p, "F.fx", NULL, 0));
    ck_assert(!fxgl_ini_has(fxgl_preset_ini(p), "F.fx", "PreprocessorDefinitions"));
    fxgl_preset_destroy(p);
}
END_TEST

START_TEST(test_editable_defines_rule) {
    fxgl_preset_macro_test tests[] = {
        {"QUALITY_LEVEL", false, "2"},         // #ifndef then #define: offered
        {"USER_DEFINED_X", false, " 5 "},      // set by the user (predefined): offered, trimmed
        {"SOURCE_GUARD_A", true, "1"},         // defined by the file before the test: no
        {"SHORTNM", false, "1"},               // 7 characters: no
        {"_PRIVATE_SETTING", false, "1"},      // leading '_': no
        {"BUFFER_SOMETHING", false, "1"},      // BUFFER_: no
        {"RESHADE_DEPTH_LINEARIZATION", false, "1"}, // RESHADE_: no
        {"MY_INCLUDE_GUARD", false, "1"},      // INCLUDE_: no
        {"NEVER_DEFINED", false, NULL},        // undefined at the end / function-like: no
        {"AAA_FIRST_NAME", false, "0"},
        {"QUALITY_LEVEL", false, "2"},         // tested twice: once
    };
    fxgl_preset_define_list out;
    ck_assert(fxgl_preset_editable_defines(tests, sizeof(tests) / sizeof(tests[0]), &out));
    ck_assert_uint_eq(out.count, 3);
    ck_assert_str_eq(out.items[0].name, "AAA_FIRST_NAME");
    ck_assert_str_eq(out.items[1].name, "QUALITY_LEVEL");
    ck_assert_str_eq(out.items[2].name, "USER_DEFINED_X");
    ck_assert_str_eq(out.items[2].value, "5");
    fxgl_preset_define_list_finish(&out);
}
END_TEST

static Suite *preset_suite(void) {
    Suite *s = suite_create("preset");
    TCase *tc = tcase_create("preset");
    tcase_add_test(tc, test_reference_preset_round_trip_through_effects);
    tcase_add_test(tc, test_messy_preset_saved_normalised);
    tcase_add_test(tc, test_enabling_rules_legacy_and_forced);
    tcase_add_test(tc, test_values_bad_input_keeps_defaults);
    tcase_add_test(tc, test_unknown_keys_warned_and_kept);
    tcase_add_test(tc, test_capture_skips_nosave_and_keeps_unknown);
    tcase_add_test(tc, test_capture_keeps_unloaded_entries);
    tcase_add_test(tc, test_save_refusals_and_success);
    tcase_add_test(tc, test_wants_effect);
    suite_add_tcase(s, tc);
    TCase *defs = tcase_create("defines");
    tcase_add_test(defs, test_define_layering);
    tcase_add_test(defs, test_editable_defines_rule);
    suite_add_tcase(s, defs);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(preset_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
