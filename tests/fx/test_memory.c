/*
 * test_memory.c - the front end's memory budget (docs/compiler.md, "Memory").
 *
 * Runs the measurement `fxc bench` makes (tools/fxc.c, bench_once) on an
 * effect written for this test (tests/fx/data/mem: about 34 KB of source with
 * its header, a typical mix of comments, uniforms, functions, loops and
 * techniques): preprocess, parse, check and build the module in one arena,
 * and take as the peak the larger of that arena's peak and the
 * preprocessor's own arena plus the compilation's arena when the
 * preprocessor returned (both are alive then). The peak must stay under 10
 * bytes per byte of source read. The input size is computed here from the
 * files themselves, not taken from the preprocessor.
 */
#include <check.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fx_ast.h"
#include "fx_check.h"
#include "fx_pp.h"

#ifndef FX_TEST_DATA_DIR
#error "FX_TEST_DATA_DIR must name tests/fx/data/mem"
#endif

#define BUDGET 10.0              // bytes of compiler memory per byte of source

static size_t file_size(const char *name) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", FX_TEST_DATA_DIR, name);
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    return (size_t)sb.st_size;
}

START_TEST(test_peak_per_input_byte) {
    size_t input = file_size("memory_budget.fx") + file_size("memory_budget.fxh");
    ck_assert_uint_gt(input, 20000); // the effect is the size the budget is about

    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *arena = fx_arena_create(0);
    ck_assert_ptr_nonnull(arena);
    jmp_buf jb;
    fx_ctx ctx = {.arena = arena, .diags = &diags, .fatal = &jb};
    size_t compat_count;
    const fx_pp_define *compat = fx_pp_compat_macros(&compat_count);
    fx_pp_desc desc = {
        .path = FX_TEST_DATA_DIR "/memory_budget.fx",
        .defines = compat,
        .define_count = compat_count,
    };
    fx_pp_result pr = {0};
    size_t after_pp = 0, after_parse = 0, after_check = 0;
    fxgl_effect *effect = NULL;
    if (setjmp(jb) == 0) {
        ck_assert(fx_pp_run(&ctx, &desc, &pr));
        after_pp = fx_arena_peak(arena);
        fx_ast *ast = fx_parse(&ctx, pr.text, pr.len, desc.path);
        after_parse = fx_arena_peak(arena);
        ck_assert_int_eq(ctx.errors, 0);
        fx_program *prog = fx_check(&ctx, ast);
        after_check = fx_arena_peak(arena);
        ck_assert_int_eq(ctx.errors, 0);
        effect = fx_module_build(&ctx, prog);
    } else {
        ck_abort_msg("fatal error in the front end");
    }
    // Everything compiled: the budget is not met by dropping work.
    ck_assert_ptr_nonnull(effect);
    ck_assert_uint_eq(effect->technique_count, 2);
    ck_assert_uint_eq(pr.included_count, 2);

    size_t peak = fx_arena_peak(arena);
    if (pr.work_peak + after_pp > peak) {
        peak = pr.work_peak + after_pp;
    }
    double ratio = (double)peak / (double)input;
    printf("test_memory: input %zu bytes, preprocessed %zu; preprocessor's arena %zu; "
           "compilation's arena after preprocess %zu, parse %zu, check %zu, module %zu; "
           "peak %zu = %.2fx\n",
           input, pr.len, pr.work_peak, after_pp, after_parse, after_check,
           fx_arena_peak(arena), peak, ratio);
    ck_assert_uint_le(after_pp, after_parse);
    ck_assert_uint_le(after_parse, after_check);
    ck_assert_msg(ratio < BUDGET, "front end peak %.2fx the input (budget %.0fx)", ratio,
                  BUDGET);
    fx_arena_destroy(arena);
    fxgl_diags_finish(&diags);
}
END_TEST

static Suite *memory_suite(void) {
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("budget");
    tcase_add_test(tc, test_peak_per_input_byte);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(memory_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
