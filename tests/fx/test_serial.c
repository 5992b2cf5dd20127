/*
 * test_serial.c - the effect module as bytes and back (src/fx/serial.c), what the on-disk
 * compile cache stores.
 *
 * A round trip must give the same module: compared through the JSON dump (every field
 * fxc prints, GLSL included) and field by field where the dump rounds (floats of the
 * samplers, uniform initial data). Every truncation and a sweep of corrupted bytes must
 * give NULL or a consistent module, never a crash (the test runs under the sanitizers in
 * CI builds). FXGL_CORPUS=DIR adds every .fx below DIR (slow; for a manual sweep).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"

static char *json_of(const fxgl_effect *e) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert(fxgl_effect_write_json(e, f));
    fclose(f);
    return text;
}

static fxgl_effect *compile(const char *path, const char *include, fxgl_glsl_target target) {
    const char *paths[] = {include};
    fxgl_define defs[] = {{"BUFFER_WIDTH", "1280"}, {"BUFFER_HEIGHT", "720"},
                          {"BUFFER_RCP_WIDTH", "(1.0 / BUFFER_WIDTH)"},
                          {"BUFFER_RCP_HEIGHT", "(1.0 / BUFFER_HEIGHT)"},
                          {"__RESHADE__", "60501"}};
    fxgl_compile_desc cd = {.path = path, .include_paths = paths, .include_path_count = 1,
                            .defines = defs, .define_count = 5, .target = target};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_effect_compile(&cd, &diags);
    fxgl_diags_finish(&diags);
    return e;
}

// Field-by-field checks of what JSON prints rounded or not at all.
static void same_raw(const fxgl_effect *a, const fxgl_effect *b) {
    ck_assert_uint_eq(a->sampler_count, b->sampler_count);
    for (size_t i = 0; i < a->sampler_count; i++) {
        ck_assert(memcmp(&a->samplers[i].min_lod, &b->samplers[i].min_lod, 4) == 0);
        ck_assert(memcmp(&a->samplers[i].max_lod, &b->samplers[i].max_lod, 4) == 0);
        ck_assert(memcmp(&a->samplers[i].lod_bias, &b->samplers[i].lod_bias, 4) == 0);
    }
    ck_assert_uint_eq(a->uniform_count, b->uniform_count);
    for (size_t i = 0; i < a->uniform_count; i++) {
        const fxgl_uniform *x = &a->uniforms[i], *y = &b->uniforms[i];
        ck_assert_int_eq(x->initial_data != NULL, y->initial_data != NULL);
        if (x->initial_data) {
            ck_assert(memcmp(x->initial_data, y->initial_data, x->size) == 0);
        }
        ck_assert(memcmp(x->initializer.u, y->initializer.u, sizeof(x->initializer.u)) == 0);
    }
    ck_assert_uint_eq(a->shader_count, b->shader_count);
    for (size_t i = 0; i < a->shader_count; i++) {
        ck_assert_str_eq(a->shaders[i].glsl ? a->shaders[i].glsl : "",
                         b->shaders[i].glsl ? b->shaders[i].glsl : "");
        ck_assert(memcmp(a->shaders[i].target_components, b->shaders[i].target_components, 8) ==
                  0);
        // The fullscreen varyings a runtime may compute exactly: lost, a cached effect
        // would run interpolated varyings where a compiled one runs exact ones.
        ck_assert_uint_eq(a->shaders[i].exact_varying_count, b->shaders[i].exact_varying_count);
        for (size_t k = 0; k < a->shaders[i].exact_varying_count; k++) {
            ck_assert_str_eq(a->shaders[i].exact_varyings[k], b->shaders[i].exact_varyings[k]);
        }
        // The explicit bindings a second back end builds its layouts from.
        ck_assert_int_eq(a->shaders[i].uniform_binding, b->shaders[i].uniform_binding);
        ck_assert_uint_eq(a->shaders[i].varying_count, b->shaders[i].varying_count);
        for (size_t k = 0; k < a->shaders[i].varying_count; k++) {
            ck_assert_str_eq(a->shaders[i].varyings[k].name, b->shaders[i].varyings[k].name);
            ck_assert_int_eq(a->shaders[i].varyings[k].location,
                             b->shaders[i].varyings[k].location);
            ck_assert_int_eq(a->shaders[i].varyings[k].flat, b->shaders[i].varyings[k].flat);
        }
    }
    ck_assert_uint_eq(a->included_count, b->included_count);
    for (size_t i = 0; i < a->included_count; i++) {
        ck_assert_str_eq(a->included_files[i], b->included_files[i]);
    }
}

static size_t round_trips;

static void round_trip(const char *path, const char *include) {
    static const fxgl_glsl_target targets[] = {FXGL_GLSL_GL450, FXGL_GLSL_ES300};
    for (size_t t = 0; t < 2; t++) {
        fxgl_effect *e = compile(path, include, targets[t]);
        if (e == NULL) {
            continue; // effects that do not compile are not cached
        }
        size_t len = 0;
        void *bytes = fxgl_effect_serialize(e, &len);
        ck_assert_ptr_nonnull(bytes);
        fxgl_effect *back = fxgl_effect_deserialize(bytes, len);
        ck_assert_msg(back != NULL, "%s does not read back", path);
        char *j1 = json_of(e), *j2 = json_of(back);
        ck_assert_msg(strcmp(j1, j2) == 0, "%s: the module read back differs", path);
        same_raw(e, back);
        // Serialising the copy gives the same bytes.
        size_t len2 = 0;
        void *bytes2 = fxgl_effect_serialize(back, &len2);
        ck_assert_uint_eq(len, len2);
        ck_assert(memcmp(bytes, bytes2, len) == 0);
        free(j1);
        free(j2);
        free(bytes);
        free(bytes2);
        fxgl_effect_destroy(back);
        fxgl_effect_destroy(e);
        round_trips++;
    }
}

static void walk(const char *dir, const char *include, int depth) {
    DIR *d = opendir(dir);
    if (d == NULL || depth > 6) {
        if (d) {
            closedir(d);
        }
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        size_t n = strlen(de->d_name);
        if (de->d_type == DT_DIR) {
            walk(path, include ? include : path, depth + 1);
        } else if (n > 3 && strcasecmp(de->d_name + n - 3, ".fx") == 0) {
            round_trip(path, include ? include : dir);
        }
    }
    closedir(d);
}

START_TEST(test_shipped_effects) {
    round_trips = 0;
    walk(FXGL_SHADER_DIR, FXGL_SHADER_DIR, 0);
    // Every shipped effect compiles for both targets.
    ck_assert_uint_ge(round_trips, 2 * 10);
}
END_TEST

START_TEST(test_corpus) {
    const char *corpus = getenv("FXGL_CORPUS");
    if (corpus == NULL || corpus[0] == '\0') {
        return; // manual sweep only
    }
    round_trips = 0;
    walk(corpus, NULL, 0);
    printf("test_serial: %zu round trips over %s\n", round_trips, corpus);
}
END_TEST

static void *bytes_of(const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", FXGL_SHADER_DIR, name);
    fxgl_effect *e = compile(path, FXGL_SHADER_DIR, FXGL_GLSL_GL450);
    ck_assert_ptr_nonnull(e);
    void *bytes = fxgl_effect_serialize(e, len);
    fxgl_effect_destroy(e);
    return bytes;
}

START_TEST(test_truncated) {
    size_t len;
    unsigned char *bytes = bytes_of("fxgl_Vignette.fx", &len);
    for (size_t n = 0; n < len; n++) {
        ck_assert_msg(fxgl_effect_deserialize(bytes, n) == NULL, "%zu of %zu bytes read", n,
                      len);
    }
    // A byte too many is not the module either.
    unsigned char *more = malloc(len + 1);
    memcpy(more, bytes, len);
    more[len] = 0;
    ck_assert_ptr_null(fxgl_effect_deserialize(more, len + 1));
    free(more);
    free(bytes);
}
END_TEST

START_TEST(test_corrupted) {
    // The cache's checksum catches damage first; this is what stands behind it: a flipped
    // byte anywhere gives NULL or a module whose indices are all in range.
    size_t len;
    unsigned char *bytes = bytes_of("fxgl_Bloom.fx", &len);
    size_t nulls = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char saved = bytes[i];
        bytes[i] ^= (unsigned char)(0x5a + i);
        fxgl_effect *e = fxgl_effect_deserialize(bytes, len);
        nulls += e == NULL;
        fxgl_effect_destroy(e);
        bytes[i] = saved;
    }
    // Most flips land in counts and lengths: the reader notices.
    ck_assert_uint_gt(nulls, 0);
    unsigned char wrong_version[4] = {0xff, 0xff, 0xff, 0xff};
    memcpy(bytes, wrong_version, 4);
    ck_assert_ptr_null(fxgl_effect_deserialize(bytes, len));
    free(bytes);
}
END_TEST

static Suite *serial_suite(void) {
    Suite *s = suite_create("serial");
    TCase *tc = tcase_create("round trip");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_shipped_effects);
    tcase_add_test(tc, test_corpus);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_corrupted);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(serial_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
