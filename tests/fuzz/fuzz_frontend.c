/*
 * fuzz_frontend.c - libFuzzer target for the whole FX compiler: the input is
 * an effect's text, compiled by fxgl_effect_compile (preprocessor, parser,
 * checker, module, GLSL) with the runtime's predefined macros, as the host
 * compiles it: on the compiler's own thread, with its limits. Built by
 * `make fuzz` with clang -fsanitize=fuzzer,address,undefined (not part of
 * make check); seeds are in tests/fuzz/seeds.
 *
 * The GLSL target is chosen by the input's length (every target is reached
 * and an input always reproduces with the same one);
 * FXGL_FUZZ_GLSL=all compiles each input for every target instead. The
 * output limit is lowered to 4 MB and the time limit to 2 s so that
 * exponential macros end in a diagnostic quickly instead of in a fuzzer
 * timeout; a finding is a crash, a sanitizer report, a hang or memory past
 * the arena limit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"

static const fxgl_glsl_target targets[] = {
    FXGL_GLSL_GL430, FXGL_GLSL_GL450, FXGL_GLSL_ES300, FXGL_GLSL_ES310, FXGL_GLSL_ES320,
    FXGL_GLSL_VK450,
};

#define TARGET_COUNT (sizeof(targets) / sizeof(targets[0]))

static void compile(const uint8_t *data, size_t size, fxgl_glsl_target target,
                    const fxgl_define *defines, size_t define_count) {
    // Includes resolve against the seeds' own directory only.
    static const char *const includes[] = {FUZZ_SEED_DIR};
    fxgl_compile_desc cd = {
        .path = FUZZ_SEED_DIR "/fuzz.fx",
        .source = (const char *)data,
        .source_len = size,
        .include_paths = includes,
        .include_path_count = 1,
        .defines = defines,
        .define_count = define_count,
        .target = target,
        .memory_limit = 256u << 20,
        .time_limit_ms = 2000,
        .output_limit = 4u << 20,
    };
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
    if (fx && diags.errors) {
        abort(); // an effect is only returned without errors
    }
    fxgl_effect_destroy(fx);
    fxgl_diags_finish(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fxgl_define defines[FXGL_PREDEFINED_MAX];
    static char storage[FXGL_PREDEFINED_STORAGE];
    static size_t define_count;
    static int all = -1;
    if (all < 0) {
        fxgl_environment env = {0};
        define_count = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
        const char *want = getenv("FXGL_FUZZ_GLSL");
        all = want && strcmp(want, "all") == 0;
    }
    if (all) {
        for (size_t i = 0; i < TARGET_COUNT; i++) {
            compile(data, size, targets[i], defines, define_count);
        }
    } else {
        compile(data, size, targets[size % TARGET_COUNT], defines, define_count);
    }
    return 0;
}
