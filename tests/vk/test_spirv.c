/*
 * test_spirv.c - every shipped effect compiles to Vulkan-flavoured GLSL and
 * from there to SPIR-V through glslang (src/vk/spirv.c), and the module's
 * explicit bindings say what the code declares.
 *
 * No Vulkan driver is needed: SPIR-V is produced and checked by glslang.
 * tests/vk/data/bindings.fx has bindings and locations counted by hand.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_vk.h"

static fxgl_effect *compile(const char *path, fxgl_glsl_target target) {
    const char *paths[] = {FXGL_SHADER_DIR};
    fxgl_define defs[] = {{"BUFFER_WIDTH", "1280"}, {"BUFFER_HEIGHT", "720"},
                          {"BUFFER_RCP_WIDTH", "(1.0 / BUFFER_WIDTH)"},
                          {"BUFFER_RCP_HEIGHT", "(1.0 / BUFFER_HEIGHT)"},
                          {"__RESHADE__", "60501"}};
    fxgl_compile_desc cd = {.path = path, .include_paths = paths, .include_path_count = 1,
                            .defines = defs, .define_count = sizeof(defs) / sizeof(defs[0]),
                            .target = target};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_effect_compile(&cd, &diags);
    if (!e) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    return e;
}

static const fxgl_varying *find_varying(const fxgl_shader *sh, const char *name) {
    for (size_t i = 0; i < sh->varying_count; i++) {
        if (strcmp(sh->varyings[i].name, name) == 0) {
            return &sh->varyings[i];
        }
    }
    return NULL;
}

static size_t spirv_shaders;

// Every shader to SPIR-V; the layout the module states is the one the code has.
static void check_effect(const char *path) {
    fxgl_effect *e = compile(path, FXGL_GLSL_VK450);
    ck_assert_msg(e != NULL, "%s: does not compile for Vulkan", path);
    for (size_t i = 0; i < e->shader_count; i++) {
        const fxgl_shader *sh = &e->shaders[i];
        ck_assert_ptr_nonnull(sh->glsl);
        uint32_t *words;
        size_t count;
        char log[4096];
        bool ok = fxgl_vk_spirv(sh->glsl, sh->stage, NULL, &words, &count, log, sizeof(log));
        ck_assert_msg(ok, "%s: %s: %s\n%s", path, sh->entry, log, sh->glsl);
        ck_assert_uint_gt(count, 5);
        ck_assert_uint_eq(words[0], 0x07230203u); // SPIR-V's magic number
        free(words);
        // The exact-varying variant (a push constant) compiles too.
        if (sh->exact_varying_count) {
            ok = fxgl_vk_spirv(sh->glsl, sh->stage, "#define _gexact_view 1\n", &words, &count,
                               log, sizeof(log));
            ck_assert_msg(ok, "%s: %s (exact view): %s", path, sh->entry, log);
            free(words);
        }
        spirv_shaders++;
        for (size_t k = 0; k < sh->sampler_count; k++) {
            ck_assert_int_eq(sh->samplers[k].unit, FXGL_VK_SAMPLER_BINDING(sh->samplers[k].object));
            char decl[256];
            snprintf(decl, sizeof(decl), "layout(set = 0, binding = %d) uniform sampler",
                     sh->samplers[k].unit);
            ck_assert_msg(strstr(sh->glsl, decl), "%s: %s: no '%s'", path, sh->entry, decl);
        }
        for (size_t k = 0; k < sh->storage_count; k++) {
            ck_assert_int_eq(sh->storages[k].unit,
                             FXGL_VK_STORAGE_BINDING(e, sh->storages[k].object));
        }
        ck_assert_int_eq(sh->uniform_binding >= 0, strstr(sh->glsl, "uniform _Globals") != NULL);
        for (size_t k = 0; k < sh->varying_count; k++) {
            char decl[256];
            snprintf(decl, sizeof(decl), "layout(location = %d) %s%s vec4 %s;",
                     sh->varyings[k].location, sh->varyings[k].flat ? "flat " : "",
                     sh->stage == FXGL_STAGE_VERTEX ? "out" : "in", sh->varyings[k].name);
            if (!sh->varyings[k].flat) {
                ck_assert_msg(strstr(sh->glsl, decl), "%s: %s: no '%s'", path, sh->entry, decl);
            }
        }
    }
    // Within a pass, every pixel input is a vertex output at the same location.
    for (size_t t = 0; t < e->technique_count; t++) {
        for (size_t p = 0; p < e->techniques[t].pass_count; p++) {
            const fxgl_pass *pass = &e->techniques[t].passes[p];
            if (pass->pixel_shader < 0 || pass->vertex_shader < 0) {
                continue;
            }
            const fxgl_shader *vs = &e->shaders[pass->vertex_shader];
            const fxgl_shader *ps = &e->shaders[pass->pixel_shader];
            for (size_t k = 0; k < ps->varying_count; k++) {
                const fxgl_varying *out = find_varying(vs, ps->varyings[k].name);
                ck_assert_msg(out != NULL, "%s: %s reads %s, %s does not write it", path,
                              ps->entry, ps->varyings[k].name, vs->entry);
                ck_assert_int_eq(out->location, ps->varyings[k].location);
                ck_assert_int_eq(out->flat, ps->varyings[k].flat);
            }
        }
    }
    // The GL target describes the same varyings (its code just carries no locations).
    fxgl_effect *gl = compile(path, FXGL_GLSL_GL450);
    ck_assert_ptr_nonnull(gl);
    ck_assert_uint_eq(gl->shader_count, e->shader_count);
    for (size_t i = 0; i < e->shader_count; i++) {
        ck_assert_uint_eq(gl->shaders[i].varying_count, e->shaders[i].varying_count);
        for (size_t k = 0; k < e->shaders[i].varying_count; k++) {
            ck_assert_str_eq(gl->shaders[i].varyings[k].name, e->shaders[i].varyings[k].name);
            ck_assert_int_eq(gl->shaders[i].varyings[k].location,
                             e->shaders[i].varyings[k].location);
        }
        ck_assert(strstr(gl->shaders[i].glsl, "set = 0") == NULL);
        ck_assert(strstr(gl->shaders[i].glsl, "gl_VertexIndex") == NULL);
    }
    fxgl_effect_destroy(gl);
    fxgl_effect_destroy(e);
}

START_TEST(test_shipped_effects) {
    DIR *d = opendir(FXGL_SHADER_DIR);
    ck_assert_ptr_nonnull(d);
    size_t effects = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 3, ".fx") != 0) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", FXGL_SHADER_DIR, ent->d_name);
        check_effect(path);
        effects++;
    }
    closedir(d);
    ck_assert_uint_ge(effects, 11);
    ck_assert_uint_ge(spirv_shaders, 24);
}
END_TEST

static const fxgl_binding *binding_named(const fxgl_binding *list, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++) {
        if (list[i].name && strcmp(list[i].name, name) == 0) {
            return &list[i];
        }
    }
    return NULL;
}

START_TEST(test_hand_counted_layout) {
    check_effect(FXGL_VK_DATA_DIR "/bindings.fx");
    fxgl_effect *e = compile(FXGL_VK_DATA_DIR "/bindings.fx", FXGL_GLSL_VK450);
    ck_assert_ptr_nonnull(e);
    const fxgl_technique *t = &e->techniques[0];
    ck_assert_uint_eq(t->pass_count, 3);
    const fxgl_shader *cs = &e->shaders[t->passes[0].compute_shader];
    const fxgl_shader *vs = &e->shaders[t->passes[1].vertex_shader];
    const fxgl_shader *half = &e->shaders[t->passes[1].pixel_shader];
    const fxgl_shader *show = &e->shaders[t->passes[2].pixel_shader];

    ck_assert_uint_eq(cs->storage_count, 1);
    ck_assert_int_eq(cs->storages[0].unit, 5);
    ck_assert_int_eq(cs->uniform_binding, 0);
    ck_assert_uint_eq(cs->varying_count, 0);

    ck_assert_int_eq(vs->uniform_binding, -1);
    ck_assert_uint_eq(vs->varying_count, 3);
    ck_assert_str_eq(vs->varyings[0].name, "_v_TEXCOORD0");
    ck_assert_int_eq(vs->varyings[0].location, 0);
    ck_assert_str_eq(vs->varyings[1].name, "_v_TEXCOORD1");
    ck_assert_int_eq(vs->varyings[1].location, 1);
    ck_assert_str_eq(vs->varyings[2].name, "_v_TEXCOORD2");
    ck_assert_int_eq(vs->varyings[2].location, 2);
    ck_assert(vs->varyings[2].flat && !vs->varyings[0].flat);

    const fxgl_binding *grid = binding_named(half->samplers, half->sampler_count, "Grid");
    ck_assert_ptr_nonnull(grid);
    ck_assert_int_eq(grid->unit, 3);
    ck_assert_int_eq(half->uniform_binding, 0);
    const fxgl_binding *h = binding_named(show->samplers, show->sampler_count, "Half");
    const fxgl_binding *bb =
        binding_named(show->samplers, show->sampler_count, "ReShade_BackBuffer");
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(bb);
    ck_assert_int_eq(h->unit, 4);
    ck_assert_int_eq(bb->unit, 1);
    ck_assert_int_eq(show->uniform_binding, -1);
    ck_assert(strstr(vs->glsl, "gl_VertexIndex") != NULL);
    fxgl_effect_destroy(e);
}
END_TEST

static Suite *spirv_suite(void) {
    Suite *s = suite_create("spirv");
    TCase *tc = tcase_create("spirv");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_hand_counted_layout);
    tcase_add_test(tc, test_shipped_effects);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(spirv_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
