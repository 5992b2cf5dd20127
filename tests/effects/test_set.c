/*
 * test_set.c - the effect set (src/effects/set.c) over a back end that records what it is
 * asked: a preset's values arrive by uniform index, techniques are switched and ordered
 * with the back end's own indices, a switch with a duration blends floats, toggle keys
 * flip techniques, a refused replacement keeps the running version and is reported.
 *
 * Every expected figure is worked out by hand from the effect and preset texts below.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_effects.h"

// The fake back end: indices start at 10 so that a set that mixed up its own member
// indices with the back end's would be seen.
#define BASE 10

typedef struct recorder {
    int added;
    bool refuse_replace;
    fxgl_value values[4][8];     // [effect - BASE][uniform], the last value written
    int value_writes;
    bool enabled[4][4];
    fxgl_technique_ref order[16];
    size_t order_count;
    char last_report[512];
    int failures, notes;
} recorder;

static int rec_add(void *b, const fxgl_effect *effect, const char *file) {
    (void)effect, (void)file;
    recorder *r = b;
    return BASE + r->added++;
}

static bool rec_replace(void *b, size_t effect, const fxgl_effect *next, char *reason,
                        size_t size) {
    (void)effect, (void)next;
    recorder *r = b;
    snprintf(reason, size, "refused by the test");
    return !r->refuse_replace;
}

static bool rec_set_value(void *b, size_t effect, size_t uniform, const fxgl_value *v) {
    recorder *r = b;
    ck_assert_uint_ge(effect, BASE);
    r->values[effect - BASE][uniform] = *v;
    r->value_writes++;
    return true;
}

static bool rec_enable(void *b, size_t effect, size_t technique, bool on) {
    recorder *r = b;
    r->enabled[effect - BASE][technique] = on;
    return true;
}

static bool rec_order(void *b, const fxgl_technique_ref *order, size_t count) {
    recorder *r = b;
    ck_assert_uint_le(count, 16);
    memcpy(r->order, order, count * sizeof(*order));
    r->order_count = count;
    return true;
}

static const fxgl_effect_ops rec_ops = {rec_add, rec_replace, rec_set_value, rec_enable,
                                        rec_order};

static void on_report(void *user, fxgl_effect_set_level level, const char *message) {
    recorder *r = user;
    snprintf(r->last_report, sizeof(r->last_report), "%s", message);
    r->failures += level == FXGL_EFFECT_SET_FAILURE;
    r->notes += level == FXGL_EFFECT_SET_NOTE;
}

static const char first_text[] =
    "uniform float Timer < source = \"timer\"; >;\n"
    "uniform float Gain = 1.0;\n"
    "uniform int Mode = 2;\n"
    "float4 PS(float4 p : SV_Position) : SV_Target { return Gain * Mode + Timer; }\n"
    "void VS(in uint id : SV_VertexID, out float4 p : SV_Position)\n"
    "{ p = float4(id == 2 ? 3.0 : -1.0, id == 1 ? 3.0 : -1.0, 0.0, 1.0); }\n"
    "technique Zeta { pass { VertexShader = VS; PixelShader = PS; } }\n"
    "technique Alpha { pass { VertexShader = VS; PixelShader = PS; } }\n";

static const char second_text[] =
    "uniform float3 Tint = float3(0.0, 0.0, 0.0);\n"
    "float4 PS(float4 p : SV_Position) : SV_Target { return float4(Tint, 1.0); }\n"
    "void VS(in uint id : SV_VertexID, out float4 p : SV_Position)\n"
    "{ p = float4(id == 2 ? 3.0 : -1.0, id == 1 ? 3.0 : -1.0, 0.0, 1.0); }\n"
    "technique Middle { pass { VertexShader = VS; PixelShader = PS; } }\n";

static fxgl_effect *compile(const char *path, const char *text) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_compile_desc desc = {.path = path, .source = text, .source_len = strlen(text),
                              .target = FXGL_GLSL_NONE};
    fxgl_effect *e = fxgl_effect_compile(&desc, &diags);
    fxgl_diags_finish(&diags);
    ck_assert_ptr_nonnull(e);
    return e;
}

static fxgl_preset *preset_of(const char *text) {
    fxgl_preset *p = fxgl_preset_create(&(fxgl_preset_desc){.text = text, .len = strlen(text)});
    ck_assert_ptr_nonnull(p);
    return p;
}

static size_t index_of(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->uniform_count; i++) {
        if (strcmp(e->uniforms[i].name, name) == 0) {
            return i;
        }
    }
    ck_abort_msg("no uniform %s", name);
    return 0;
}

static bool key_a_fired(void *user, const fxgl_preset_key *key) {
    (void)user;
    return key->vk == 0x41 && !key->ctrl && !key->shift && !key->alt;
}

START_TEST(test_apply_blend_toggle) {
    recorder r = {0};
    fxgl_effect *first = compile("First.fx", first_text);
    fxgl_effect *second = compile("Second.fx", second_text);
    fxgl_effect_set *set = fxgl_effect_set_create(&(fxgl_effect_set_desc){
        .ops = &rec_ops, .backend = &r, .report = on_report, .user = &r});
    ck_assert_ptr_nonnull(set);
    ck_assert_int_eq(fxgl_effect_set_add(set, first, "First.fx"), 0);
    ck_assert_int_eq(fxgl_effect_set_add(set, second, "Second.fx"), 1);
    ck_assert_ptr_null(fxgl_effect_set_view(set, 0)); // nothing applied yet

    fxgl_preset *a = preset_of("Techniques=Middle@Second.fx,Zeta@First.fx\n"
                               "KeyAlpha@First.fx=65,0,0,0\n"
                               "[First.fx]\nGain=3.0\nMode=5\n"
                               "[Second.fx]\nTint=0.5,0.25,1.0\n");
    ck_assert(fxgl_effect_set_apply(set, a, 0.0, 0.0));
    size_t gain = index_of(first, "Gain"), mode = index_of(first, "Mode"),
           timer = index_of(first, "Timer"), tint = index_of(second, "Tint");
    // Values by index, with the back end's effect indices.
    ck_assert(r.values[0][gain].scalar == FXGL_SCALAR_FLOAT && r.values[0][gain].f[0] == 3.0f);
    ck_assert(r.values[0][mode].scalar == FXGL_SCALAR_INT && r.values[0][mode].i[0] == 5);
    ck_assert_int_eq(r.values[0][timer].count, 0); // special: never written
    ck_assert(r.values[1][tint].count == 3 && r.values[1][tint].f[1] == 0.25f);
    // Techniques: Zeta and Middle on, Alpha off; order Middle, Zeta (Techniques), then
    // Alpha (not listed) - all with back-end indices.
    ck_assert(r.enabled[0][0] && !r.enabled[0][1] && r.enabled[1][0]);
    ck_assert_uint_eq(r.order_count, 3);
    ck_assert(r.order[0].effect == BASE + 1 && r.order[0].technique == 0);
    ck_assert(r.order[1].effect == BASE && r.order[1].technique == 0);
    ck_assert(r.order[2].effect == BASE && r.order[2].technique == 1);
    ck_assert(!fxgl_effect_set_transitioning(set));

    // The toggle key of Alpha (65 = 'A').
    ck_assert(fxgl_effect_set_has_toggle_keys(set));
    ck_assert_uint_eq(fxgl_effect_set_toggle(set, key_a_fired, NULL), 1);
    ck_assert(r.enabled[0][1]);
    ck_assert_str_eq(r.last_report, "Alpha@First.fx on (toggle key)");
    ck_assert_int_eq(r.notes, 1);

    // A switch over 2 s: Gain 3 -> 1 (its initial value: preset b has none) moves
    // linearly, Mode (an int) takes b's value at once.
    fxgl_preset *b = preset_of("Techniques=Zeta@First.fx\n[First.fx]\nMode=7\n");
    ck_assert(fxgl_effect_set_apply(set, b, 10.0, 2.0));
    ck_assert(fxgl_effect_set_transitioning(set));
    ck_assert(r.values[0][gain].f[0] == 3.0f); // the first frame shows where it starts
    ck_assert_int_eq(r.values[0][mode].i[0], 7);
    ck_assert(fxgl_effect_set_step(set, 11.0));
    ck_assert(r.values[0][gain].f[0] == 2.0f);
    ck_assert(fxgl_effect_set_step(set, 11.5));
    ck_assert(r.values[0][gain].f[0] == 1.5f);
    ck_assert(!fxgl_effect_set_step(set, 12.0));
    ck_assert(r.values[0][gain].f[0] == 1.0f);
    int writes = r.value_writes;
    ck_assert(!fxgl_effect_set_step(set, 13.0)); // over: nothing more is written
    ck_assert_int_eq(r.value_writes, writes);
    ck_assert(!r.enabled[1][0]); // Middle is not in b

    // An overlay's edit, by index.
    fxgl_preset_value v[1] = {{.f = 0.75f}};
    ck_assert(fxgl_effect_set_value(set, 0, gain, v));
    ck_assert(r.values[0][gain].f[0] == 0.75f);
    ck_assert(fxgl_effect_set_view(set, 0)->uniforms[gain].value[0].f == 0.75f);

    // A refused replacement keeps the running version and says so.
    r.refuse_replace = true;
    ck_assert(!fxgl_effect_set_replace(set, 1, first));
    ck_assert_int_eq(r.failures, 1);
    ck_assert_str_eq(r.last_report, "reload of Second.fx failed, the running version stays: "
                                    "refused by the test");
    ck_assert_ptr_eq(fxgl_effect_set_effect(set, 1), second);
    ck_assert_ptr_nonnull(fxgl_effect_set_view(set, 1));

    fxgl_effect_set_destroy(set);
    fxgl_preset_destroy(a);
    fxgl_preset_destroy(b);
    fxgl_effect_destroy(first);
    fxgl_effect_destroy(second);
}
END_TEST

static Suite *set_suite(void) {
    Suite *s = suite_create("set");
    TCase *tc = tcase_create("set");
    tcase_add_test(tc, test_apply_blend_toggle);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(set_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
