/*
 * test_view.c - the preset's view of a compiled effect (src/effects/view.c), the one
 * every host (the interposer, fxgl-render, fxc preset) hands a preset: one view uniform
 * per uniform of the effect at the same index, arrays read and saved as their first
 * element (the reference's rule), special, nosave and string uniforms untouched.
 *
 * The expected values are the ones written into the preset text below, by hand.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_effects.h"

static const char effect_text[] =
    "uniform float Strength < ui_type = \"slider\"; > = 0.5;\n"
    "uniform float3 Tint = float3(1.0, 2.0, 3.0);\n"
    "uniform int Taps[3] = { 1, 2, 3 };\n"
    "uniform float Timer < source = \"timer\"; >;\n"
    "uniform float Kept < nosave = true; > = 7.0;\n"
    "namespace Ns { uniform bool Flag = false; }\n"
    "float4 PS(float4 p : SV_Position) : SV_Target\n"
    "{ return float4(Strength * Tint, Taps[1] + Timer + Kept + (Ns::Flag ? 1.0 : 0.0)); }\n"
    "void VS(in uint id : SV_VertexID, out float4 p : SV_Position)\n"
    "{ p = float4(id == 2 ? 3.0 : -1.0, id == 1 ? 3.0 : -1.0, 0.0, 1.0); }\n"
    "technique A { pass { VertexShader = VS; PixelShader = PS; } }\n"
    "technique B < enabled = true; > { pass { VertexShader = VS; PixelShader = PS; } }\n";

static const char preset_text[] = "Techniques=A@View.fx\n"
                                  "[View.fx]\n"
                                  "Strength=0.25\n"
                                  "Tint=4.0,5.0,6.0\n"
                                  "Taps=9\n"
                                  "Timer=11.0\n"
                                  "Kept=8.0\n"
                                  "Flag=1\n";

static fxgl_effect *compile(void) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_compile_desc desc = {.path = "View.fx", .source = effect_text,
                              .source_len = sizeof(effect_text) - 1,
                              .target = FXGL_GLSL_NONE};
    fxgl_effect *e = fxgl_effect_compile(&desc, &diags);
    for (size_t i = 0; e == NULL && i < diags.count; i++) {
        char buf[1200];
        fxgl_diag_format(&diags.items[i], buf, sizeof(buf));
        fprintf(stderr, "%s\n", buf);
    }
    fxgl_diags_finish(&diags);
    ck_assert_ptr_nonnull(e);
    return e;
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

START_TEST(test_view_by_index) {
    fxgl_effect *e = compile();
    fxgl_preset *preset =
        fxgl_preset_create(&(fxgl_preset_desc){.text = preset_text, .len = strlen(preset_text)});
    ck_assert_ptr_nonnull(preset);
    fxgl_preset_effect view;
    ck_assert(fxgl_effect_view(e, "View.fx", &view));
    // Every uniform, at its own index, under the name presets use.
    ck_assert_uint_eq(view.uniform_count, e->uniform_count);
    for (size_t i = 0; i < e->uniform_count; i++) {
        const char *name = e->uniforms[i].name, *colon = strrchr(name, ':');
        ck_assert_str_eq(view.uniforms[i].name, colon ? colon + 1 : name);
    }
    ck_assert_uint_eq(view.technique_count, 2);
    ck_assert(view.techniques[1].forced_on);
    ck_assert(fxgl_preset_apply(preset, &view, 1));
    ck_assert(view.techniques[0].enabled);

    size_t strength = index_of(e, "Strength"), tint = index_of(e, "Tint"),
           taps = index_of(e, "Taps"), timer = index_of(e, "Timer"), kept = index_of(e, "Kept"),
           flag = index_of(e, "Ns::Flag");
    ck_assert(view.uniforms[strength].value[0].f == 0.25f);
    ck_assert(view.uniforms[tint].value[0].f == 4.0f && view.uniforms[tint].value[2].f == 6.0f);
    ck_assert(view.uniforms[flag].value[0].u == 1);
    // An array: its first element, from the preset.
    ck_assert_uint_eq(view.uniforms[taps].rows * view.uniforms[taps].cols, 1);
    ck_assert_int_eq(view.uniforms[taps].value[0].i, 9);
    // nosave keeps its initial value; a special one is not the preset's.
    ck_assert(view.uniforms[kept].value[0].f == 7.0f);
    ck_assert(view.uniforms[timer].special);

    // What a host writes into the runtime, uniform by uniform.
    fxgl_value v;
    ck_assert(fxgl_effect_view_value(&e->uniforms[taps], &view.uniforms[taps], &v));
    ck_assert_int_eq(v.count, 1);
    ck_assert_int_eq(v.scalar, FXGL_SCALAR_INT);
    ck_assert_int_eq(v.i[0], 9);
    ck_assert(fxgl_effect_view_value(&e->uniforms[tint], &view.uniforms[tint], &v));
    ck_assert_int_eq(v.count, 3);
    ck_assert(v.scalar == FXGL_SCALAR_FLOAT && v.f[1] == 5.0f);
    ck_assert(!fxgl_effect_view_value(&e->uniforms[timer], &view.uniforms[timer], &v));

    // Saving writes the array's first element back, never the nosave or special ones.
    view.uniforms[taps].value[0].i = 4;
    fxgl_preset_technique_ref order[2] = {{0, 0}, {0, 1}};
    ck_assert(fxgl_preset_capture(preset, &view, 1, order, 2));
    fxgl_ini *ini = fxgl_preset_ini(preset);
    ck_assert_int_eq(fxgl_ini_get_int(ini, "View.fx", "Taps", 0), 4);
    ck_assert_str_eq(fxgl_ini_get_string(ini, "View.fx", "Kept", 0), "8.0"); // as read
    ck_assert(fxgl_ini_has(ini, "View.fx", "Strength"));

    fxgl_effect_view_finish(&view);
    ck_assert_ptr_null(view.uniforms);
    fxgl_preset_destroy(preset);
    fxgl_effect_destroy(e);
}
END_TEST

static Suite *view_suite(void) {
    Suite *s = suite_create("view");
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, test_view_by_index);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(view_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
