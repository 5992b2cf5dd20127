/*
 * helpers.c - what the GL tests' mains and fixtures share: the skip rule (no headless
 * context: exit 77 with the reason), running a check suite, and compiling a test effect
 * the way a host does (predefined macros of the back buffer, the context's GLSL target).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_test.h"

bool fxgl_test_egl_available(fxgl_api api) {
    char reason[256];
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = api}, reason,
                                                sizeof(reason));
    if (!probe) {
        printf("SKIP: no headless %s context: %s\n", api == FXGL_API_GLES ? "GLES" : "GL",
               reason);
        return false;
    }
    fxgl_test_egl_destroy(probe);
    return true;
}

int fxgl_test_run_suite(Suite *s) {
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed;
}

fxgl_effect *fxgl_test_compile(const char *path, const char *source, int width, int height,
                               bool es) {
    fxgl_environment env = {.width = width, .height = height,
                            .api = es ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL};
    fxgl_define defines[FXGL_PREDEFINED_MAX];
    char storage[FXGL_PREDEFINED_STORAGE];
    size_t nd = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
    fxgl_compile_desc cd = {
        .path = path, .source = source, .source_len = strlen(source), .defines = defines,
        .define_count = nd, .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
    };
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
    if (!fx) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    return fx;
}
