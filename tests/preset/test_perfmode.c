/*
 * test_perfmode.c - compiling through src/effects: performance mode turns the preset's
 * values into GLSL constants (and leaves special uniforms in the block), definitions are
 * layered effect section > preset > global > built-ins, SkipLoadingDisabledEffects leaves
 * effects without an enabled technique out, saving is refused in performance mode, and
 * preset transitions blend floats only. Expected values are written out by hand.
 */
#include "fxgl_effects.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct diag_log {
    char text[8192];
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

static char root[] = "/tmp/fxgl-perf-XXXXXX";

static const char *at(const char *name) {
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", root, name);
    return p;
}

static void put_file(const char *name, const char *text) {
    FILE *f = fopen(at(name), "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    ck_assert(f != NULL);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

// Uniforms: three the preset sets, one special, one the preset leaves alone, and ones
// whose initializers show which definition layer won.
static const char effect_text[] =
    "texture BackBufferTex : COLOR;\n"
    "sampler BackBuffer { Texture = BackBufferTex; };\n"
    "uniform float Strength = 0.25;\n"
    "uniform int Mode = 1;\n"
    "uniform float3 Tint = float3(1.0, 0.5, 0.25);\n"
    "uniform float Untouched = 0.125;\n"
    "uniform float Timer < source = \"timer\"; >;\n"
    "uniform int SeenA = LAYER_A;\n"
    "uniform int SeenB = LAYER_B;\n"
    "uniform int SeenC = LAYER_C;\n"
    "uniform int SeenD = LAYER_D;\n"
    "uniform int SeenPerf = __RESHADE_PERFORMANCE_MODE__;\n"
    "void VS(in uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "    float4 c = tex2D(BackBuffer, uv);\n"
    "    if (Mode == 2) c.rgb *= Tint;\n"
    "    return c * Strength + Untouched + Timer * 0.0 + (SeenA + SeenB + SeenC + SeenD +\n"
    "           SeenPerf) * 0.0;\n"
    "}\n"
    "technique Test { pass { VertexShader = VS; PixelShader = PS; } }\n";

// LAYER_A is set by every layer (the section wins), LAYER_B by all but the section (the
// preset's global list wins), LAYER_C by the global layer and the built-ins (global wins),
// LAYER_D by the built-ins alone.
static const char preset_text[] =
    "PreprocessorDefinitions=LAYER_A=20,LAYER_B=21\n"
    "Techniques=Test@Perf.fx\n"
    "\n"
    "[Perf.fx]\n"
    "Mode=2\n"
    "PreprocessorDefinitions=LAYER_A=10\n"
    "Strength=0.750000\n"
    "Tint=0.100000,0.200000,0.300000\n"
    "\n";

static const fxgl_preset_define global_defs[] = {
    {"LAYER_A", "30"}, {"LAYER_B", "31"}, {"LAYER_C", "32"}};
static const fxgl_preset_define builtin_defs[] = {
    {"LAYER_A", "40"}, {"LAYER_B", "41"}, {"LAYER_C", "42"}, {"LAYER_D", "43"}};

static diag_log log_;

static fxgl_compiler *make(bool performance_mode, bool skip_disabled, const char *preset) {
    fxgl_compiler_desc desc = {
        .env = {.width = 64, .height = 32},
        .target = FXGL_GLSL_GL450,
        .defines = global_defs,
        .define_count = 3,
        .builtins = builtin_defs,
        .builtin_count = 4,
        .performance_mode = performance_mode,
        .skip_disabled = skip_disabled,
        .sink = {.fn = collect, .user = &log_},
    };
    fxgl_compiler *fx = fxgl_compiler_create(&desc);
    ck_assert(fx != NULL);
    ck_assert(fxgl_compiler_set_preset(fx, preset));
    return fx;
}

static fxgl_effect *compile(fxgl_compiler *fx) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_compiler_compile(fx, at("Perf.fx"), &diags);
    if (e == NULL) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    ck_assert(e != NULL);
    return e;
}

static const char *pixel_glsl(const fxgl_effect *e) {
    for (size_t i = 0; i < e->shader_count; i++) {
        if (e->shaders[i].stage == FXGL_STAGE_PIXEL) {
            ck_assert(e->shaders[i].glsl != NULL);
            return e->shaders[i].glsl;
        }
    }
    ck_abort_msg("no pixel shader");
    return NULL;
}

// The text of the uniform block ("uniform _Globals { ... };"), "" when there is none.
static void block_text(const char *glsl, char *out, size_t size) {
    const char *b = strstr(glsl, "uniform " FXGL_GLSL_UNIFORM_BLOCK);
    out[0] = '\0';
    if (b != NULL) {
        const char *end = strstr(b, "};");
        ck_assert(end != NULL);
        snprintf(out, size, "%.*s", (int)(end - b), b);
    }
}

// The numbers after "=" of the `const ... NAME = ...;` line that names name, read with
// strtod: the values the generated code holds as literals.
static int const_values(const char *glsl, const char *name, double *values, int max) {
    for (const char *line = glsl; line != NULL && *line; line = strchr(line, '\n')) {
        line += *line == '\n';
        const char *eol = strchr(line, '\n');
        size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);
        char text[512];
        snprintf(text, sizeof(text), "%.*s", (int)len, line);
        if (strncmp(text, "const ", 6) != 0 || strstr(text, name) == NULL) {
            continue;
        }
        char *p = strchr(text, '=');
        ck_assert(p != NULL);
        int n = 0;
        while (*p && n < max) {
            if ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')) {
                char *end;
                values[n++] = strtod(p, &end);
                p = end;
            } else {
                p++;
            }
        }
        return n;
    }
    return -1;
}

static const fxgl_uniform *uniform(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->uniform_count; i++) {
        const char *n = strrchr(e->uniforms[i].name, ':');
        if (strcmp(n != NULL ? n + 1 : e->uniforms[i].name, name) == 0) {
            return &e->uniforms[i];
        }
    }
    ck_abort_msg("no uniform %s", name);
    return NULL;
}

static void setup(void) {
    ck_assert(mkdtemp(root) != NULL);
    memset(&log_, 0, sizeof(log_));
    put_file("Perf.fx", effect_text);
    put_file("preset.ini", preset_text);
}

static void teardown(void) {
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    ck_assert(system(cmd) == 0);
    strcpy(root + strlen(root) - 6, "XXXXXX");
}

START_TEST(constants_in_generated_code) {
    fxgl_compiler *fx = make(true, false, at("preset.ini"));
    fxgl_effect *e = compile(fx);
    const char *glsl = pixel_glsl(e);
    char block[4096];
    block_text(glsl, block, sizeof(block));

    double v[16];
    // The preset's values, not the initializers, appear as literals.
    ck_assert_int_eq(const_values(glsl, "Strength", v, 16), 1);
    ck_assert(fabs(v[0] - 0.75) < 1e-6);
    ck_assert_int_eq(const_values(glsl, "Mode", v, 16), 1);
    ck_assert(v[0] == 2.0);
    ck_assert_int_eq(const_values(glsl, "Tint", v, 16), 4); // "vec3(...)": the 3 is a number
    ck_assert(v[0] == 3.0 && fabs(v[1] - 0.1) < 1e-6 && fabs(v[2] - 0.2) < 1e-6 &&
              fabs(v[3] - 0.3) < 1e-6);
    // Not in the preset: the initializer.
    ck_assert_int_eq(const_values(glsl, "Untouched", v, 16), 1);
    ck_assert(fabs(v[0] - 0.125) < 1e-6);
    // The constants left the block; the special uniform stayed.
    ck_assert_ptr_null(strstr(block, "Strength"));
    ck_assert_ptr_null(strstr(block, "Tint"));
    ck_assert_ptr_nonnull(strstr(block, "Timer"));
    ck_assert_int_eq(uniform(e, "SeenPerf")->initializer.i[0], 1);
    ck_assert(!fxgl_compiler_uniform_editable(fx, uniform(e, "Strength")));
    ck_assert(!fxgl_compiler_uniform_editable(fx, uniform(e, "Timer")));
    ck_assert_uint_eq(log_.count, 0);
    fxgl_effect_destroy(e);
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(normal_mode_keeps_uniforms) {
    fxgl_compiler *fx = make(false, false, at("preset.ini"));
    fxgl_effect *e = compile(fx);
    const char *glsl = pixel_glsl(e);
    char block[4096];
    block_text(glsl, block, sizeof(block));
    double v[16];
    ck_assert_int_eq(const_values(glsl, "Strength", v, 16), -1);
    ck_assert_ptr_nonnull(strstr(block, "Strength"));
    ck_assert_ptr_nonnull(strstr(block, "Tint"));
    ck_assert_int_eq(uniform(e, "SeenPerf")->initializer.i[0], 0);
    ck_assert(fxgl_compiler_uniform_editable(fx, uniform(e, "Strength")));
    fxgl_effect_destroy(e);
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(definition_layers) {
    fxgl_compiler *fx = make(false, false, at("preset.ini"));
    fxgl_effect *e = compile(fx);
    ck_assert_int_eq(uniform(e, "SeenA")->initializer.i[0], 10); // effect section
    ck_assert_int_eq(uniform(e, "SeenB")->initializer.i[0], 21); // preset
    ck_assert_int_eq(uniform(e, "SeenC")->initializer.i[0], 32); // global
    ck_assert_int_eq(uniform(e, "SeenD")->initializer.i[0], 43); // built-in
    fxgl_effect_destroy(e);

    // Without a preset the global layer is on top.
    ck_assert(fxgl_compiler_set_preset(fx, NULL));
    e = compile(fx);
    ck_assert_int_eq(uniform(e, "SeenA")->initializer.i[0], 30);
    ck_assert_int_eq(uniform(e, "SeenB")->initializer.i[0], 31);
    fxgl_effect_destroy(e);
    fxgl_compiler_destroy(fx);
}
END_TEST

// A layer's value for name in list, NULL when the name is not there.
static const char *define_value(const fxgl_preset_define_list *list, const char *name) {
    for (size_t i = 0; i < list->count; i++) {
        if (strcmp(list->items[i].name, name) == 0) {
            return list->items[i].value;
        }
    }
    return NULL;
}

// The editing overlay's layer: above the effect's section for its file alone, "" leaves
// a name undefined, kept when the same preset file is read again, dropped by another.
START_TEST(edited_definitions) {
    fxgl_compiler *fx = make(false, false, at("preset.ini"));
    const fxgl_preset_define edits[] = {{"LAYER_A", "50"}, {"LAYER_C", ""}};
    ck_assert(fxgl_compiler_edit_defines(fx, "Perf.fx", edits, 2));
    fxgl_preset_define_list list;
    ck_assert(fxgl_compiler_edited_defines(fx, "Perf.fx", &list));
    ck_assert_int_eq((int)list.count, 2);
    fxgl_preset_define_list_finish(&list);
    ck_assert(fxgl_compiler_defines(fx, "Perf.fx", &list));
    ck_assert_str_eq(define_value(&list, "LAYER_A"), "50");
    ck_assert_str_eq(define_value(&list, "LAYER_B"), "21");
    ck_assert_ptr_null(define_value(&list, "LAYER_C"));
    ck_assert_str_eq(define_value(&list, "LAYER_D"), "43");
    fxgl_preset_define_list_finish(&list);
    ck_assert(fxgl_compiler_defines(fx, "Other.fx", &list));
    ck_assert_str_eq(define_value(&list, "LAYER_A"), "20"); // the preset's global one
    ck_assert_str_eq(define_value(&list, "LAYER_C"), "32");
    fxgl_preset_define_list_finish(&list);

    // Compiled with it: the edit wins over the section (10).
    const fxgl_preset_define a_only[] = {{"LAYER_A", "50"}};
    ck_assert(fxgl_compiler_edit_defines(fx, "Perf.fx", a_only, 1));
    fxgl_effect *e = compile(fx);
    ck_assert_int_eq(uniform(e, "SeenA")->initializer.i[0], 50);
    ck_assert_int_eq(uniform(e, "SeenC")->initializer.i[0], 32);
    fxgl_effect_destroy(e);

    // The same file read again (a save's re-read) keeps the edit.
    ck_assert(fxgl_compiler_set_preset(fx, at("preset.ini")));
    e = compile(fx);
    ck_assert_int_eq(uniform(e, "SeenA")->initializer.i[0], 50);
    fxgl_effect_destroy(e);

    // Another preset drops it.
    put_file("other.ini", preset_text);
    ck_assert(fxgl_compiler_set_preset(fx, at("other.ini")));
    ck_assert(fxgl_compiler_edited_defines(fx, "Perf.fx", &list));
    ck_assert_int_eq((int)list.count, 0);
    fxgl_preset_define_list_finish(&list);
    e = compile(fx);
    ck_assert_int_eq(uniform(e, "SeenA")->initializer.i[0], 10);
    fxgl_effect_destroy(e);
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(skip_disabled_effects) {
    fxgl_compiler *fx = make(false, true, at("preset.ini"));
    ck_assert(fxgl_compiler_wanted(fx, "Perf.fx"));
    ck_assert(!fxgl_compiler_wanted(fx, "Other.fx"));
    fxgl_compiler_destroy(fx);
    fx = make(false, false, at("preset.ini"));
    ck_assert(fxgl_compiler_wanted(fx, "Other.fx")); // the setting is off
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(saving_refused_in_performance_mode) {
    fxgl_compiler *fx = make(true, false, at("preset.ini"));
    fxgl_preset *p = fxgl_preset_create(&(fxgl_preset_desc){
        .path = at("preset.ini"), .sink = {.fn = collect, .user = &log_}});
    ck_assert(fxgl_compiler_lock_preset(fx, p));
    ck_assert(fxgl_ini_set_string(fxgl_preset_ini(p), "Perf.fx", "Strength", "0.1"));
    ck_assert(!fxgl_preset_save(p, NULL));
    ck_assert_ptr_nonnull(strstr(log_.text, "not saved: performance mode is on"));
    ck_assert_str_eq(read_all(at("preset.ini")), preset_text); // untouched
    fxgl_preset_destroy(p);
    fxgl_compiler_destroy(fx);

    // Off: the same save goes through.
    fx = make(false, false, at("preset.ini"));
    p = fxgl_preset_create(&(fxgl_preset_desc){.path = at("preset.ini")});
    ck_assert(!fxgl_compiler_lock_preset(fx, p));
    ck_assert(fxgl_ini_set_string(fxgl_preset_ini(p), "Perf.fx", "Strength", "0.1"));
    ck_assert(fxgl_preset_save(p, NULL));
    ck_assert_ptr_nonnull(strstr(read_all(at("preset.ini")), "Strength=0.1\n"));
    fxgl_preset_destroy(p);
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(bad_values_warn_and_keep_defaults) {
    put_file("preset.ini", "Techniques=Test@Perf.fx\n"
                           "[Perf.fx]\n"
                           "Strength=abc\n"
                           "Tint=0.5\n");
    fxgl_compiler *fx = make(true, false, at("preset.ini"));
    fxgl_effect *e = compile(fx);
    const char *glsl = pixel_glsl(e);
    double v[16];
    ck_assert_int_eq(const_values(glsl, "Strength", v, 16), 1);
    ck_assert(fabs(v[0] - 0.25) < 1e-6); // not a number: the initializer
    ck_assert_int_eq(const_values(glsl, "Tint", v, 16), 4);
    ck_assert(fabs(v[1] - 0.5) < 1e-6 && fabs(v[2] - 0.5) < 1e-6 && fabs(v[3] - 0.25) < 1e-6);
    char want[600];
    snprintf(want, sizeof(want), "%s(3): warning: 'Strength': 'abc' is not a number",
             at("preset.ini"));
    ck_assert_msg(strstr(log_.text, want) != NULL, "%s", log_.text);
    snprintf(want, sizeof(want), "%s(4): warning: 'Tint' has 1 value, expected 3",
             at("preset.ini"));
    ck_assert_msg(strstr(log_.text, want) != NULL, "%s", log_.text);
    fxgl_effect_destroy(e);
    fxgl_compiler_destroy(fx);
}
END_TEST

START_TEST(transition_blends_floats_only) {
    fxgl_preset_transition t = {.start = 10.0, .duration = 1.0, .count = 2,
                                .type = FXGL_PRESET_FLOAT};
    t.from[0].f = 0.0f;
    t.to[0].f = 1.0f;
    t.from[1].f = 2.0f;
    t.to[1].f = -2.0f;
    fxgl_preset_value out[2];
    ck_assert(fxgl_preset_transition_value(&t, 10.0, out));
    ck_assert(out[0].f == 0.0f && out[1].f == 2.0f);
    ck_assert(fxgl_preset_transition_value(&t, 10.25, out));
    ck_assert(out[0].f == 0.25f && out[1].f == 1.0f);
    ck_assert(!fxgl_preset_transition_value(&t, 11.0, out));
    ck_assert(out[0].f == 1.0f && out[1].f == -2.0f);
    ck_assert(!fxgl_preset_transition_value(&t, 50.0, out));
    ck_assert(out[0].f == 1.0f);

    fxgl_preset_transition ti = {.start = 0.0, .duration = 1.0, .count = 1,
                                 .type = FXGL_PRESET_INT};
    ti.from[0].i = 3;
    ti.to[0].i = 7;
    ck_assert(fxgl_preset_transition_value(&ti, 0.5, out));
    ck_assert_int_eq(out[0].i, 7); // no blending of ints: the new value at once
    fxgl_preset_transition zero = t;
    zero.duration = 0.0;
    ck_assert(!fxgl_preset_transition_value(&zero, 10.0, out));
    ck_assert(out[0].f == 1.0f);
}
END_TEST

START_TEST(desc_from_config) {
    fxgl_config_path paths[2] = {{.path = "/a/shaders", .recursive = true},
                                 {.path = "/b", .recursive = false}};
    fxgl_preset_define defs[1] = {{"FROM_CONFIG", "7"}};
    fxgl_config config = {
        .effect_paths = paths,
        .effect_path_count = 2,
        .defines = {.items = defs, .count = 1},
        .performance_mode = true,
        .skip_disabled_effects = true,
    };
    fxgl_compiler_desc desc = {0};
    static char storage[4][4096];
    const char *list[4];
    fxgl_compiler_desc_from_config(&desc, &config, storage, list, 4);
    ck_assert_uint_eq(desc.include_path_count, 2);
    ck_assert_str_eq(desc.include_paths[0], "/a/shaders/**");
    ck_assert_str_eq(desc.include_paths[1], "/b");
    ck_assert_uint_eq(desc.define_count, 1);
    ck_assert_str_eq(desc.defines[0].name, "FROM_CONFIG");
    ck_assert(desc.performance_mode && desc.skip_disabled);
    // Room for one path only: the first one.
    fxgl_compiler_desc_from_config(&desc, &config, storage, list, 1);
    ck_assert_uint_eq(desc.include_path_count, 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("perfmode");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, constants_in_generated_code);
    tcase_add_test(tc, normal_mode_keeps_uniforms);
    tcase_add_test(tc, definition_layers);
    tcase_add_test(tc, edited_definitions);
    tcase_add_test(tc, skip_disabled_effects);
    tcase_add_test(tc, saving_refused_in_performance_mode);
    tcase_add_test(tc, bad_values_warn_and_keep_defaults);
    tcase_add_test(tc, transition_blends_floats_only);
    tcase_add_test(tc, desc_from_config);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
