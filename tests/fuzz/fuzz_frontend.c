/*
 * fuzz_frontend.c - libFuzzer target for the FX front end: the input is an
 * effect's text, run through the preprocessor, parser, checker and module
 * builder the way fxgl_effect_compile does, with the runtime's predefined
 * macros. Built by `make fuzz` with clang -fsanitize=fuzzer,address
 * (not part of make check); seeds are in tests/fuzz/seeds.
 *
 * The output limit is lowered to 4 MB so that exponential macros end in the
 * limit's diagnostic quickly instead of in a fuzzer timeout; a finding is
 * a crash, a sanitizer report, a hang or memory past the arena limit.
 *
 * FXGL_FUZZ_GLSL=gl450|es300|... in the environment also runs the GLSL
 * back end on what the front end accepted (the back end is another
 * module's; findings there go to its owner).
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"
#include "fx_glsl.h"
#include "fx_pp.h"

static fxgl_glsl_target glsl_target(void) {
    static const struct {
        const char *name;
        fxgl_glsl_target target;
    } targets[] = {
        {"gl430", FXGL_GLSL_GL430}, {"gl450", FXGL_GLSL_GL450}, {"es300", FXGL_GLSL_ES300},
        {"es310", FXGL_GLSL_ES310}, {"es320", FXGL_GLSL_ES320},
    };
    const char *want = getenv("FXGL_FUZZ_GLSL");
    for (size_t i = 0; want && i < sizeof(targets) / sizeof(targets[0]); i++) {
        if (strcmp(want, targets[i].name) == 0) {
            return targets[i].target;
        }
    }
    return FXGL_GLSL_NONE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fxgl_define defines[FXGL_PREDEFINED_MAX];
    static char storage[FXGL_PREDEFINED_STORAGE];
    static fx_pp_define pp_defines[FXGL_PREDEFINED_MAX + 32];
    static size_t define_count;
    if (!define_count) {
        size_t compat_count;
        const fx_pp_define *compat = fx_pp_compat_macros(&compat_count);
        for (size_t i = 0; i < compat_count && i < 32; i++) {
            pp_defines[define_count++] = compat[i];
        }
        fxgl_environment env = {0};
        size_t n = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
        for (size_t i = 0; i < n; i++) {
            pp_defines[define_count++] = (fx_pp_define){defines[i].name, defines[i].value};
        }
    }
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *arena = fx_arena_create(256u << 20);
    fx_arena *earena = fx_arena_create(256u << 20);
    if (!arena || !earena) {
        fx_arena_destroy(arena);
        fx_arena_destroy(earena);
        return 0;
    }
    jmp_buf jb;
    fx_ctx ctx = {.arena = arena, .diags = &diags, .fatal = &jb};
    fx_ctx ectx = {.arena = earena, .diags = &diags, .fatal = &jb};
    if (setjmp(jb) == 0) {
        // Includes resolve against the seeds' own directory only.
        static const char *const includes[] = {FUZZ_SEED_DIR};
        fx_pp_desc pd = {
            .path = FUZZ_SEED_DIR "/fuzz.fx",
            .source = (const char *)data,
            .source_len = size,
            .include_paths = includes,
            .include_path_count = 1,
            .defines = pp_defines,
            .define_count = define_count,
            .output_limit = 4u << 20,
        };
        fx_pp_result pr;
        if (fx_pp_run(&ctx, &pd, &pr) && ctx.errors == 0) {
            fx_ast *ast = fx_parse(&ctx, pr.text, pr.len, pd.path);
            fx_program *prog = ctx.errors == 0 ? fx_check(&ctx, ast) : NULL;
            if (prog && ctx.errors == 0) {
                fxgl_effect *fx = fx_module_build(&ectx, prog);
                static int target = -1;
                if (target < 0) {
                    target = (int)glsl_target();
                }
                if (fx && target != FXGL_GLSL_NONE) {
                    fx_glsl_options go = {.target = (fxgl_glsl_target)target};
                    fx_glsl_generate(&ctx, &ectx, prog, fx, &go);
                }
            }
        }
    }
    fx_arena_destroy(arena);
    fx_arena_destroy(earena);
    fxgl_diags_finish(&diags);
    return 0;
}
