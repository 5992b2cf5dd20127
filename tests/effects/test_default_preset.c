/*
 * test_default_preset.c - the default preset (data/presets/default.ini) against the
 * effects it names: every technique exists in its file, the enabled ones are
 * sorted, every built-in effect is listed, and every value names a uniform
 * of its effect and lies within that uniform's ui_min..ui_max. A typo in the
 * preset would otherwise be ignored silently at run time.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"
#include "fxgl_preset.h"

static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("FAIL: " __VA_ARGS__);                                                      \
            printf("\n");                                                                      \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

static fxgl_effect *compile(const char *file) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", FXGL_DATA_SHADERS, file);
    fxgl_environment env = {0};
    fxgl_define defines[FXGL_PREDEFINED_MAX];
    char storage[FXGL_PREDEFINED_STORAGE];
    size_t n = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
    const char *includes[] = {FXGL_DATA_SHADERS};
    fxgl_compile_desc desc = {.path = path, .include_paths = includes, .include_path_count = 1,
                              .defines = defines, .define_count = n, .target = FXGL_GLSL_NONE};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_effect_compile(&desc, &diags);
    fxgl_diags_print(&diags, stdout);
    fxgl_diags_finish(&diags);
    return e;
}

static bool has_technique(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->technique_count; i++) {
        if (strcmp(e->techniques[i].name, name) == 0) {
            return true;
        }
    }
    return false;
}

static bool in_list(const char *const *list, size_t n, const char *item) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(list[i], item) == 0) {
            return true;
        }
    }
    return false;
}

// "Name@File.fx": checks that File compiles and has technique Name.
static void check_ref(const char *ref, const char *key) {
    char name[256];
    const char *at = strchr(ref, '@');
    CHECK(at != NULL && (size_t)(at - ref) < sizeof(name), "%s entry '%s' is not Name@File.fx", key,
          ref);
    if (at == NULL || (size_t)(at - ref) >= sizeof(name)) {
        return;
    }
    memcpy(name, ref, (size_t)(at - ref));
    name[at - ref] = '\0';
    fxgl_effect *e = compile(at + 1);
    CHECK(e != NULL, "%s: %s does not compile", key, at + 1);
    if (e != NULL) {
        CHECK(has_technique(e, name), "%s: %s has no technique %s", key, at + 1, name);
        fxgl_effect_destroy(e);
    }
}

static double annotation_number(const fxgl_uniform *u, const char *name, double fallback) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    if (a == NULL || a->value.count < 1) {
        return fallback;
    }
    switch (a->value.scalar) {
    case FXGL_SCALAR_FLOAT:
        return a->value.f[0];
    case FXGL_SCALAR_UINT:
        return a->value.u[0];
    case FXGL_SCALAR_INT:
    case FXGL_SCALAR_BOOL:
        return a->value.i[0];
    default:
        return fallback;
    }
}

static void check_section(const fxgl_ini *ini, const char *section) {
    fxgl_effect *e = compile(section);
    CHECK(e != NULL, "[%s] does not compile", section);
    if (e == NULL) {
        return;
    }
    for (size_t k = 0; k < fxgl_ini_key_count(ini, section); k++) {
        const char *key = fxgl_ini_key_name(ini, section, k);
        const fxgl_uniform *u = NULL;
        for (size_t i = 0; i < e->uniform_count; i++) {
            if (strcmp(e->uniforms[i].name, key) == 0) {
                u = &e->uniforms[i];
            }
        }
        CHECK(u != NULL, "[%s] %s is not a uniform of the effect", section, key);
        if (u == NULL) {
            continue;
        }
        double v = strtod(fxgl_ini_get_string(ini, section, key, 0), NULL);
        double lo = annotation_number(u, "ui_min", -INFINITY);
        double hi = annotation_number(u, "ui_max", INFINITY);
        CHECK(v >= lo && v <= hi, "[%s] %s=%g outside %g..%g", section, key, v, lo, hi);
    }
    fxgl_effect_destroy(e);
}

int main(void) {
    const char *path = FXGL_DATA_PRESETS "/default.ini";
    fxgl_ini *ini = fxgl_ini_create();
    if (ini == NULL || fxgl_ini_load(ini, path, NULL) != FXGL_INI_OK) {
        printf("FAIL: cannot read %s\n", path);
        return 1;
    }
    size_t nenabled = 0, nsorted = 0;
    const char *const *enabled = fxgl_ini_get(ini, NULL, "Techniques", &nenabled);
    const char *const *sorted = fxgl_ini_get(ini, NULL, "TechniqueSorting", &nsorted);
    CHECK(enabled != NULL && nenabled > 0, "no Techniques");
    CHECK(sorted != NULL && nsorted >= nenabled, "TechniqueSorting shorter than Techniques");
    for (size_t i = 0; i < nenabled; i++) {
        check_ref(enabled[i], "Techniques");
        CHECK(in_list(sorted, nsorted, enabled[i]), "%s enabled but not in TechniqueSorting",
              enabled[i]);
    }
    for (size_t i = 0; i < nsorted; i++) {
        check_ref(sorted[i], "TechniqueSorting");
    }
    // Every built-in effect is listed (its technique is named after the file).
    DIR *dir = opendir(FXGL_DATA_SHADERS);
    CHECK(dir != NULL, "cannot list %s", FXGL_DATA_SHADERS);
    for (struct dirent *d; dir != NULL && (d = readdir(dir)) != NULL;) {
        size_t len = strlen(d->d_name);
        if (strncmp(d->d_name, "fxgl_", 5) != 0 || len < 4 || strcmp(d->d_name + len - 3, ".fx")) {
            continue;
        }
        char ref[600];
        snprintf(ref, sizeof(ref), "%.*s@%s", (int)(len - 3), d->d_name, d->d_name);
        CHECK(in_list(sorted, nsorted, ref), "%s missing from TechniqueSorting", ref);
    }
    if (dir != NULL) {
        closedir(dir);
    }
    for (size_t s = 0; s < fxgl_ini_section_count(ini); s++) {
        const char *section = fxgl_ini_section_name(ini, s);
        if (section != NULL && section[0] != '\0') {
            check_section(ini, section);
        }
    }
    fxgl_ini_destroy(ini);
    printf("%s: %zu enabled, %zu sorted, %d failures\n", path, nenabled, nsorted, failures);
    return failures == 0 ? 0 : 1;
}
