/*
 * test_diag.c - the arena and the diagnostics list every compiler stage uses:
 * zeroed allocation, limits, the fatal jump, the error cap and the format.
 */
#include <check.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "fx_base.h"

START_TEST(arena_zeroed_and_aligned) {
    fx_arena *a = fx_arena_create(0);
    ck_assert(a != NULL);
    for (int i = 1; i < 2000; i += 37) {
        unsigned char *p = fx_arena_alloc(a, (size_t)i);
        ck_assert(p != NULL);
        ck_assert_uint_eq((uintptr_t)p % 8, 0); // the arena's alignment (arena.c)
        for (int j = 0; j < i; j++) {
            ck_assert_int_eq(p[j], 0);
        }
        memset(p, 0xAB, (size_t)i);
    }
    // A request larger than a block gets its own.
    void *big = fx_arena_alloc(a, 1u << 20);
    ck_assert(big != NULL);
    ck_assert_uint_ge(fx_arena_peak(a), 1u << 20);
    fx_arena_destroy(a);
}
END_TEST

START_TEST(arena_limit) {
    fx_arena *a = fx_arena_create(100000);
    ck_assert(fx_arena_alloc(a, 50000) != NULL);
    ck_assert(fx_arena_alloc(a, 200000) == NULL);
    fx_arena_destroy(a);
    fx_arena_destroy(NULL);
}
END_TEST

START_TEST(fatal_on_exhaustion) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *a = fx_arena_create(70000);
    jmp_buf jb;
    fx_ctx ctx = {.arena = a, .diags = &diags, .fatal = &jb};
    volatile int reached = 0;
    if (setjmp(jb) == 0) {
        for (int i = 0; i < 100; i++) {
            fx_alloc(&ctx, 4096);
        }
        reached = 1;
    }
    ck_assert_int_eq(reached, 0);
    ck_assert_uint_eq(diags.errors, 1);
    ck_assert_str_eq(diags.items[0].id, "OUT_OF_MEMORY");
    fx_arena_destroy(a);
    fxgl_diags_finish(&diags);
}
END_TEST

// A 16384-term sum (about 100,000 allocations) compiled with budgets it
// cannot meet: the compilation gives up with the reason and the file.
static char *big_sum(void) {
    static const char head[] =
        "uniform float k = 1.0;\n"
        "float4 VS(uint id : SV_VertexID) : SV_Position "
        "{ return float4(id, 0, 0, 1); }\n"
        "float4 PS(float4 p : SV_Position) : SV_Target { return k";
    static const char tail[] = "; }\ntechnique T { pass { VertexShader = VS; PixelShader = PS; } }\n";
    char *src = malloc(sizeof(head) + 16384 * 4 + sizeof(tail));
    char *p = src + sprintf(src, "%s", head);
    for (int i = 1; i < 16384; i++) {
        p += sprintf(p, " + k");
    }
    strcpy(p, tail);
    return src;
}

START_TEST(compile_gives_up) {
    char *src = big_sum();
    fxgl_compile_desc cd = {.path = "big.fx", .source = src, .source_len = strlen(src),
                            .target = FXGL_GLSL_GL450, .time_limit_ms = 1};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    ck_assert_ptr_null(fxgl_effect_compile(&cd, &diags));
    ck_assert_uint_eq(diags.errors, 1);
    ck_assert_str_eq(diags.items[0].id, "TIME_LIMIT");
    ck_assert_str_eq(diags.items[0].file, "big.fx");
    ck_assert_str_eq(diags.items[0].message,
                     "gave up: the compilation took longer than 1 ms (the time limit)");
    fxgl_diags_finish(&diags);

    cd.time_limit_ms = 0;
    cd.memory_limit = 1u << 20;
    fxgl_diags_init(&diags);
    ck_assert_ptr_null(fxgl_effect_compile(&cd, &diags));
    ck_assert_uint_eq(diags.errors, 1);
    ck_assert_str_eq(diags.items[0].id, "OUT_OF_MEMORY");
    ck_assert_str_eq(diags.items[0].file, "big.fx");
    ck_assert_msg(strncmp(diags.items[0].message, "gave up: out of memory (", 24) == 0 &&
                      strstr(diags.items[0].message, " the limit is 1048576)") != NULL,
                  "%s", diags.items[0].message);
    fxgl_diags_finish(&diags);

    // Both budgets met: it compiles.
    cd.memory_limit = 0;
    fxgl_diags_init(&diags);
    fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
    ck_assert_msg(fx != NULL, "%s", diags.count ? diags.items[0].message : "");
    fxgl_effect_destroy(fx);
    fxgl_diags_finish(&diags);
    free(src);
}
END_TEST

START_TEST(error_cap_is_fatal) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *a = fx_arena_create(0);
    jmp_buf jb;
    fx_ctx ctx = {.arena = a, .diags = &diags, .fatal = &jb, .error_limit = 3};
    volatile int reported = 0;
    if (setjmp(jb) == 0) {
        for (int i = 0; i < 10; i++) {
            fx_error(&ctx, "X3000", "a.fx", i + 1, 2, "syntax error: unexpected '%c'", '}');
            reported++;
        }
    }
    // The third error reaches the cap: it is recorded, then the cap note, then the jump.
    ck_assert_int_eq(reported, 2);
    ck_assert_uint_eq(diags.count, 4);
    ck_assert_str_eq(diags.items[3].id, "TOO_MANY_ERRORS");
    ck_assert_str_eq(diags.items[3].message, "too many errors (limit is 3)");
    fx_arena_destroy(a);
    fxgl_diags_finish(&diags);
}
END_TEST

START_TEST(format) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    ck_assert(fxgl_diags_add(&diags, FXGL_DIAG_ERROR, "X3004", "shaders/a.fx", 12, 5,
                             "  included from main.fx(3)\n", "undeclared identifier '%s'", "foo"));
    ck_assert(fxgl_diags_add(&diags, FXGL_DIAG_WARNING, "X5000", "b.fx", 0, 0, NULL, "no line"));
    char buf[256];
    fxgl_diag_format(&diags.items[0], buf, sizeof(buf));
    ck_assert_str_eq(buf, "shaders/a.fx(12, 5): error: undeclared identifier 'foo'");
    fxgl_diag_format(&diags.items[1], buf, sizeof(buf));
    ck_assert_str_eq(buf, "b.fx: warning: no line");
    ck_assert_uint_eq(diags.errors, 1);
    ck_assert_uint_eq(diags.warnings, 1);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fxgl_diags_print(&diags, f);
    fclose(f);
    ck_assert_str_eq(out, "shaders/a.fx(12, 5): error: undeclared identifier 'foo'\n"
                          "  included from main.fx(3)\n"
                          "b.fx: warning: no line\n");
    free(out);
    fxgl_diags_finish(&diags);
}
END_TEST

START_TEST(fnv1a) {
    // Published FNV-1a 64-bit test vectors.
    ck_assert_uint_eq(fx_hash_fnv1a64("", 0), 0xcbf29ce484222325ull);
    ck_assert_uint_eq(fx_hash_fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
    ck_assert_uint_eq(fx_hash_fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}
END_TEST

int main(void) {
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, arena_zeroed_and_aligned);
    tcase_add_test(tc, arena_limit);
    tcase_add_test(tc, fatal_on_exhaustion);
    tcase_add_test(tc, error_cap_is_fatal);
    tcase_add_test(tc, compile_gives_up);
    tcase_add_test(tc, format);
    tcase_add_test(tc, fnv1a);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
