/*
 * test_pp.c - unit tests of the FX preprocessor (src/fx/pp.c).
 *
 * Each test preprocesses a small hand-written input (or files under
 * tests/fx/data/pp) and compares the output text, stated by hand, or the
 * exact diagnostics (id, line, column, message). Hash values were computed
 * separately (FNV-1a 64 in Python, low 32 bits).
 */
#include <check.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fx_ast.h"
#include "fx_pp.h"

#define DATA FX_TEST_DATA_DIR

typedef struct pp_fixture {
    fx_arena *arena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    fx_pp_result res;
    bool ok;
    bool fatal;
} pp_fixture;

static pp_fixture fx;

static void setup(void) {
    memset(&fx, 0, sizeof(fx));
    fx.arena = fx_arena_create(0);
    fxgl_diags_init(&fx.diags);
    fx.ctx = (fx_ctx){.arena = fx.arena, .diags = &fx.diags, .fatal = &fx.jb};
}

static void teardown(void) {
    fxgl_diags_finish(&fx.diags);
    fx_arena_destroy(fx.arena);
}

static bool run_desc(fx_pp_desc *desc) {
    fx.fatal = false;
    if (setjmp(fx.jb)) {
        fx.fatal = true;
        fx.ok = false;
        return false;
    }
    fx.ok = fx_pp_run(&fx.ctx, desc, &fx.res);
    return fx.ok;
}

static bool run_full(const char *path, const char *src, const char *const *incs, size_t ninc,
                     const fx_pp_define *defs, size_t ndef) {
    fx_pp_desc desc = {
        .path = path,
        .source = src,
        .source_len = src ? strlen(src) : 0,
        .include_paths = incs,
        .include_path_count = ninc,
        .defines = defs,
        .define_count = ndef,
    };
    return run_desc(&desc);
}

// In-memory source named t.fx.
static bool run(const char *src) {
    return run_full("t.fx", src, NULL, 0, NULL, 0);
}

// In-memory source that lives in the data directory (for includes).
static bool run_data(const char *src) {
    return run_full(DATA "/main.fx", src, NULL, 0, NULL, 0);
}

static void expect_text(const char *want) {
    ck_assert_ptr_nonnull(fx.res.text);
    ck_assert_str_eq(fx.res.text, want);
    ck_assert_uint_eq(fx.res.len, strlen(want));
}

static void expect_contains(const char *want) {
    ck_assert_ptr_nonnull(fx.res.text);
    ck_assert_msg(strstr(fx.res.text, want) != NULL, "'%s' not in output:\n%s", want,
                  fx.res.text);
}

static void expect_diag(size_t i, fxgl_diag_severity sev, const char *id, int line, int col,
                        const char *msg) {
    ck_assert_uint_gt(fx.diags.count, i);
    const fxgl_diag *d = &fx.diags.items[i];
    ck_assert_int_eq(d->severity, sev);
    ck_assert_str_eq(d->id, id);
    ck_assert_int_eq(d->line, line);
    ck_assert_int_eq(d->col, col);
    if (msg) {
        ck_assert_str_eq(d->message, msg);
    }
}

static void expect_error(size_t i, const char *id, int line, int col, const char *msg) {
    expect_diag(i, FXGL_DIAG_ERROR, id, line, col, msg);
}

// --- macros ---

START_TEST(test_object_macros) {
    ck_assert(run("#define A 1\n#define B A + A\nB A\n"));
    expect_text("#line 3 \"t.fx\"\n1 + 1 1\n");
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_function_macros) {
    ck_assert(run("#define F(x, y) ((x) * (y))\n"
                  "#define G(a) F(a, (1, 2))\n"
                  "G(f(3, 4)) F\n"
                  "F (1,2) F(\n"
                  "  5,\n"
                  "  6)\n"
                  "end\n"));
    // F without '(' stays; an invocation over lines sits on its first line.
    expect_text("#line 3 \"t.fx\"\n((f(3, 4)) * ((1, 2))) F\n((1) * (2)) ((5) * (6))\n\n\nend\n");
}
END_TEST

START_TEST(test_empty_and_zero_args) {
    ck_assert(run("#define Z() zero\n#define E(x) [x]\n#define T(a, b) a|b\nZ() E() T(,) T(1,)\n"));
    expect_text("#line 4 \"t.fx\"\nzero [] | 1|\n");
}
END_TEST

START_TEST(test_fuzz_empty_arguments) {
    // Fuzzer finding: arguments of an invocation with no tokens at all were
    // addressed through a null pointer (clang's UBSan).
    ck_assert(run("#define S(x) #x\n#define I(x) x\nS() I() I(I())\n"));
    expect_text("#line 3 \"t.fx\"\n\"\"\n");
}
END_TEST

START_TEST(test_stringize_and_paste) {
    ck_assert(run("#define S(x) #x\n"
                  "#define C(a, b) a##b\n"
                  "#define C3(a, b, c) a ## b ## c\n"
                  "S(a  \"q\\n\"  b) C(foo, bar) C3(1, 2, 3) C(, x) C(y, )\n"));
    expect_text("#line 4 \"t.fx\"\n\"a \\\"q\\\\n\\\" b\" foobar 123 x y\n");
}
END_TEST

START_TEST(test_paste_makes_macro_name) {
    ck_assert(run("#define AB done\n#define C(a, b) a##b\nC(A, B)\n"));
    expect_text("#line 3 \"t.fx\"\ndone\n");
}
END_TEST

START_TEST(test_lenient_paste) {
    // The reference pastes spellings: what does not make one token gives
    // the tokens the joined text spells.
    ck_assert(run("#define T(id) Tint##id##.rgb\n#define Q(x) \"a\"##x##\"b\"\nT(1) Q(y)\n"));
    expect_text("#line 3 \"t.fx\"\nTint1.rgb \"a\"y\"b\"\n");
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_object_macro_paste) {
    ck_assert(run("#define P x ## 1 ## y\nP\n"));
    expect_text("#line 2 \"t.fx\"\nx1y\n");
}
END_TEST

START_TEST(test_variadic) {
    ck_assert(run("#define V(fmt, ...) f(fmt, ## __VA_ARGS__)\n"
                  "#define W(...) g(__VA_ARGS__)\n"
                  "#define N(args...) h(args)\n"
                  "V(1) V(1, 2, 3) W() W(a, (b, c)) N(4, 5)\n"));
    expect_text("#line 4 \"t.fx\"\nf(1) f(1, 2, 3) g() g(a, (b, c)) h(4, 5)\n");
}
END_TEST

START_TEST(test_self_reference_hidden) {
    ck_assert(run("#define foo foo + 1\n"
                  "#define a b\n"
                  "#define b a\n"
                  "#define f(x) x*g\n"
                  "#define g(x) f(x)\n"
                  "foo a f(2)(9)\n"));
    // The C standard's example: f(2)(9) is 2*9*g.
    expect_text("#line 6 \"t.fx\"\nfoo + 1 a 2*9*g\n");
}
END_TEST

START_TEST(test_arguments_expanded_first) {
    ck_assert(run("#define ONE 1\n#define S(x) #x\n#define XS(x) S(x)\n#define ID(x) x\n"
                  "S(ONE) XS(ONE) ID(ID(ONE))\n"));
    expect_text("#line 5 \"t.fx\"\n\"ONE\" \"1\" 1\n");
}
END_TEST

START_TEST(test_identical_redefinition) {
    ck_assert(run("#define A(x) x + 1\n#define A(x) x + 1\n#define B 2\n#undef B\n#define B 3\nA(B)\n"));
    expect_text("#line 6 \"t.fx\"\n3 + 1\n");
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_different_redefinition) {
    ck_assert(!run("#define A 1\n\n  #define A 2\nA\n"));
    expect_error(0, "PP_REDEFINED", 3, 11,
                 "redefinition of macro 'A' (previous definition at t.fx(1))");
    ck_assert_uint_eq(fx.diags.count, 1);
    expect_text("#line 4 \"t.fx\"\n1\n");
}
END_TEST

START_TEST(test_predefined_macros) {
    const fx_pp_define defs[] = {
        {"BUFFER_WIDTH", "1920"},
        {"F(a, b)", "a - b"},
        {"EMPTY", NULL},
        {"BUFFER_RCP_WIDTH", "(1.0 / BUFFER_WIDTH)"},
    };
    ck_assert(run_full("t.fx",
                       "#if BUFFER_WIDTH > 1000\nF(BUFFER_WIDTH, 1) EMPTY BUFFER_RCP_WIDTH\n#endif\n"
                       "#define BUFFER_WIDTH 1920\n",
                       NULL, 0, defs, 4));
    expect_text("#line 2 \"t.fx\"\n1920 - 1 (1.0 / 1920)\n");
    ck_assert_uint_eq(fx.diags.count, 0);
    // A different value for a predefined macro is an error like any other.
    teardown();
    setup();
    ck_assert(!run_full("t.fx", "#define BUFFER_WIDTH 1\n", NULL, 0, defs, 1));
    expect_error(0, "PP_REDEFINED", 1, 9,
                 "redefinition of macro 'BUFFER_WIDTH' (previous definition at <predefined>(1))");
}
END_TEST

START_TEST(test_builtin_macros) {
    ck_assert(run_data("__LINE__\n__FILE_NAME__ __FILE_STEM__\n__FILE_NAME_HASH__ __FILE_STEM_HASH__\n"
                       "#if defined __LINE__ && __LINE__ == 4\nline5\n#endif\n__FILE__\n"));
    expect_text("#line 1 \"" DATA "/main.fx\"\n1\n\"main.fx\" \"main\"\n4019966124 3466068936\n\n"
                "line5\n\n\"" DATA "/main.fx\"\n");
}
END_TEST

START_TEST(test_macro_body_continuation) {
    ck_assert(run("#define M(a) a + \\\n  a \\\n  + 1\nM(x)\nnext\n"));
    expect_text("#line 4 \"t.fx\"\nx + x + 1\nnext\n");
}
END_TEST

START_TEST(test_comment_backslash_does_not_join) {
    // `// ... \` ends at the newline: the next line is code (the reference's
    // behaviour, which real effects rely on).
    ck_assert(run("// a comment \\\nkept\n/* block\n comment */ after\n"));
    expect_text("#line 2 \"t.fx\"\nkept\n\n            after\n");
}
END_TEST

START_TEST(test_crlf_line_endings) {
    // Effects written on Windows: \r\n everywhere, also after a continuation.
    ck_assert(run("#define M(a) a + \\\r\n  1\r\n#if M(1) == 2\r\nyes M(x)\r\n#endif\r\n"
                  "// c \\\r\nkept\r\n"));
    expect_text("#line 4 \"t.fx\"\nyes x + 1\n\n\nkept\n");
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_function_macro_before_directive) {
    // A function-like name followed by a directive line is not invoked.
    ck_assert(run("#define F(x) [x]\nF\n#define Y 1\n(Y)\n"));
    expect_text("#line 2 \"t.fx\"\nF\n\n(1)\n");
}
END_TEST

// --- conditionals ---

START_TEST(test_if_arithmetic) {
    ck_assert(run("#if 0x7fffffff + 1 < 0\nwrap\n#endif\n"
                  "#if 7 / 2 == 3 && -7 % 3 == -1 && (1 << 31) < 0 && 010 == 8\nints\n#endif\n"
                  "#if ~0 == -1 && !0 && (3 ^ 1) == 2 && (6 & 3 | 8) == 10 && -1 >> 1 == -1\nbits\n#endif\n"
                  "#if UNKNOWN == 0 && 2 > 1 ? 1 : 0\nternary\n#endif\n"
                  "#if 1 || 1 / 0\nshort\n#endif\n"));
    expect_contains("wrap\n");
    expect_contains("ints\n");
    expect_contains("bits\n");
    expect_contains("ternary\n");
    expect_contains("short\n");
}
END_TEST

START_TEST(test_if_chains) {
    ck_assert(run("#define TWO 2\n"
                  "#if TWO == 1\none\n#elif TWO == 2\ntwo\n#elif TWO == 2\nagain\n#else\nother\n#endif\n"
                  "#ifdef TWO\nd\n#else\nnd\n#endif\n"
                  "#ifndef TWO\nn\n#elif defined(TWO) && !defined THREE\ne\n#endif\n"
                  "#if 0\n#if 1\nnested\n#else\nnested_else\n#endif\n#elif 1\nafter\n#endif\n"));
    expect_text("#line 5 \"t.fx\"\ntwo\n\n\n\n\n\n\nd\n\n\n\n\n\n\ne\n#line 28\nafter\n");
}
END_TEST

START_TEST(test_skipped_text_is_lenient) {
    ck_assert(run("#if 0\nit's \"unterminated\n#error \"no\"\n#bogus\n/* #endif */\n#endif\nok\n"));
    expect_text("#line 7 \"t.fx\"\nok\n");
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_defined_from_macro) {
    // `defined` that a macro expands to is evaluated with its operand
    // unexpanded, as the reference evaluates it while expanding.
    ck_assert(!run("#define FOO 1\n#define D defined(FOO) && !defined BAR\n#if D\nyes\n#endif\n"
                   "#if defined(FOO\n#endif\n"));
    ck_assert_uint_eq(fx.diags.count, 1);
    expect_error(0, "PP_EXPRESSION", 6, 13, "expected ')' after the operand of 'defined'");
    expect_contains("yes\n");
}
END_TEST

START_TEST(test_exists) {
    ck_assert(run_data("#if exists \"exists_me.txt\" && exists(\"Sub\") && !exists \"missing.txt\"\nyes\n#endif\n"
                       "#if exists \"SUB/NESTED.FXH\"\nnocase\n#endif\n"
                       "#if exists \"./sub/../../PP/Exists_Me.txt\" && !exists \"sub/nested.fxh/x\"\ndots\n#endif\n"));
    expect_contains("yes\n");
    expect_contains("nocase\n");
    expect_contains("dots\n");
}
END_TEST

// After `exists`, names are expanded as macros until the file name appears
// (reference_rules_measured.md rule 11); the file is looked up next to the
// current one, then along the search directories.
START_TEST(test_exists_macro) {
    ck_assert(run_data("#define HERE \"exists_me.txt\"\n#define GONE \"missing.txt\"\n"
                       "#define INDIRECT HERE\n"
                       "#if exists HERE && !exists GONE && exists(INDIRECT)\nyes\n#endif\n"
                       "#if exists GONE\nwrong\n#elif exists INDIRECT\nelif\n#endif\n"));
    expect_contains("yes\n");
    expect_contains("elif\n");
    ck_assert_ptr_null(strstr(fx.res.text, "wrong"));
}
END_TEST

START_TEST(test_ifdef_names) {
    const fx_pp_define defs[] = {{"BUFFER_WIDTH", "1"}};
    ck_assert(run_full("t.fx",
                       "#define LOCAL 1\n#ifdef LOCAL\n#endif\n#ifndef USER_OPTION\n#endif\n"
                       "#ifdef BUFFER_WIDTH\n#endif\n#if defined(NOT_LISTED)\n#endif\n#ifdef USER_OPTION\n#endif\n",
                       NULL, 0, defs, 1));
    ck_assert_uint_eq(fx.res.ifdef_count, 2);
    ck_assert_str_eq(fx.res.ifdef_names[0], "USER_OPTION");
    ck_assert_str_eq(fx.res.ifdef_names[1], "BUFFER_WIDTH");
}
END_TEST

// --- includes ---

START_TEST(test_include_relative_and_markers) {
    ck_assert(run_data("before\n#include \"inc.fxh\"\nafter\n"));
    expect_text("#line 1 \"" DATA "/main.fx\"\nbefore\n#line 1 \"" DATA "/inc.fxh\"\n"
                "int inc_line = 1       ;\nint inc_name = \"inc.fxh\"    ;\n#line 3 \"" DATA "/main.fx\"\nafter\n");
    ck_assert_uint_eq(fx.res.included_count, 2);
    ck_assert_str_eq(fx.res.included_files[0], DATA "/main.fx");
    ck_assert_str_eq(fx.res.included_files[1], DATA "/inc.fxh");
}
END_TEST

START_TEST(test_include_ends_with_function_macro_name) {
    // The peek for '(' after the name leaves the included file: the name is
    // still placed in it.
    ck_assert(run_data("#include \"ends_with_name.fxh\"\nx\n"));
    expect_text("#line 2 \"" DATA "/ends_with_name.fxh\"\nlast F\n#line 2 \"" DATA "/main.fx\"\nx\n");
}
END_TEST

START_TEST(test_include_case_backslash_macro) {
    ck_assert(run_data("#define NAME \"sub\\\\nested.FXH\"\n#include NAME\n#include \"SUB\\nested.fxh\"\n"));
    expect_contains("nested_token\n");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_uint_eq(fx.res.included_count, 2); // read once, cached
}
END_TEST

START_TEST(test_include_search_paths) {
    const char *incs[] = {DATA "/search", DATA "/deep/**"};
    ck_assert(run_full(DATA "/main.fx", "#include \"only_in_search.fxh\"\n#include \"found.fxh\"\n",
                       incs, 2, NULL, 0));
    expect_contains("search_token\n");
    expect_contains("deep_token\n");
    ck_assert_str_eq(fx.res.included_files[2], DATA "/deep/deeper/found.fxh");
}
END_TEST

START_TEST(test_include_once_and_guard) {
    ck_assert(run_data("#include \"once.fxh\"\n#include \"once.fxh\"\n#include \"guard.fxh\"\n"
                       "#include \"guard.fxh\"\n#include \"bom.fxh\"\n"));
    const char *t = fx.res.text;
    const char *o = strstr(t, "once_token");
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_null(strstr(o + 1, "once_token"));
    const char *g = strstr(t, "guard_token");
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_null(strstr(g + 1, "guard_token"));
    expect_contains("\nbom_token\n");
}
END_TEST

START_TEST(test_include_errors) {
    ck_assert(!run_data("\n  #include \"nope.fxh\"\n#include <x.fxh>\n#include \"self.fxh\"\n"));
    expect_error(0, "PP_INCLUDE_NOT_FOUND", 2, 12, "could not find include file 'nope.fxh'");
    expect_error(1, "PP_INCLUDE", 3, 10, "#include expects a file name in quotes");
    // self.fxh includes itself: the error is in self.fxh, with the chain.
    expect_error(2, "PP_INCLUDE_RECURSIVE", 1, 10, "recursive #include of '" DATA "/self.fxh'");
    ck_assert_str_eq(fx.diags.items[2].file, DATA "/self.fxh");
    ck_assert_str_eq(fx.diags.items[2].include_chain, "  included from " DATA "/main.fx(4, 1)\n");
    ck_assert_uint_eq(fx.diags.count, 3);
}
END_TEST

START_TEST(test_include_chain_in_error) {
    ck_assert(!run_data("// x\n#include \"chain_a.fxh\"\n"));
    expect_error(0, "PP_ERROR", 3, 1, "in b");
    ck_assert_str_eq(fx.diags.items[0].file, DATA "/chain_b.fxh");
    ck_assert_str_eq(fx.diags.items[0].include_chain,
                     "  included from " DATA "/chain_a.fxh(2, 1)\n"
                     "  included from " DATA "/main.fx(2, 1)\n");
}
END_TEST

START_TEST(test_unterminated_if_in_include) {
    ck_assert(!run_data("#include \"unterminated_if.fxh\"\nafter\n"));
    expect_error(0, "PP_UNTERMINATED_IF", 1, 1, "unterminated #if");
    ck_assert_str_eq(fx.diags.items[0].file, DATA "/unterminated_if.fxh");
    expect_contains("open_token\n");
    expect_contains("after\n");
}
END_TEST

// --- pragmas, messages, #line ---

START_TEST(test_pragmas) {
    ck_assert(run("#pragma warning(disable : 3571)\n#pragma reshade skipoptimization\n"
                  "  #pragma message \"x\"\n#pragma once\nx\n"));
    ck_assert_uint_eq(fx.res.pragma_count, 2);
    ck_assert_str_eq(fx.res.pragmas[0], "warning(disable : 3571)");
    ck_assert_str_eq(fx.res.pragmas[1], "reshade skipoptimization");
    expect_text("#line 1 \"t.fx\"\n#pragma warning(disable : 3571)\n#pragma reshade skipoptimization\n\n\nx\n");
    expect_diag(0, FXGL_DIAG_WARNING, "PP_UNKNOWN_PRAGMA", 3, 11, "unknown pragma ignored");
    ck_assert_uint_eq(fx.diags.count, 1);
}
END_TEST

START_TEST(test_error_and_warning) {
    ck_assert(!run("#warning \"careful\\tnow\"\n #error \"stop\"\n#error stop\n#warning\n"));
    expect_diag(0, FXGL_DIAG_WARNING, "PP_WARNING", 1, 1, "careful\tnow");
    expect_error(1, "PP_ERROR", 2, 2, "stop");
    expect_error(2, "PP_MESSAGE", 3, 8, "#error expects a message in quotes");
    expect_error(3, "PP_MESSAGE", 4, 2, "#warning expects a message in quotes");
}
END_TEST

// A #line of the effect is checked and ignored: positions stay the real
// file's and line's (the reference names RadiantGI.fx(305, 1), not the
// #line's text).
START_TEST(test_line_directive) {
    ck_assert(run("a\n#line 100 \"other.fx\"\nb __LINE__ __FILE_NAME__\n#line 7\nc\n#warning \"e\"\n"));
    expect_text("#line 1 \"t.fx\"\na\n\nb 3 \"t.fx\"\n\nc\n");
    ck_assert_str_eq(fx.diags.items[0].file, "t.fx");
    ck_assert_int_eq(fx.diags.items[0].line, 6);
}
END_TEST

// --- negative tests ---

START_TEST(test_conditional_errors) {
    ck_assert(!run("#endif\n#else\n#if 1\n#else\n#else\n#endif\n#elif 1\n#if 1\n"));
    expect_error(0, "PP_CONDITIONAL", 1, 2, "#endif without #if");
    expect_error(1, "PP_CONDITIONAL", 2, 2, "#else without #if");
    expect_error(2, "PP_CONDITIONAL", 5, 2, "#else after #else");
    expect_error(3, "PP_CONDITIONAL", 7, 2, "#elif without #if");
    expect_error(4, "PP_UNTERMINATED_IF", 8, 1, "unterminated #if");
    ck_assert_uint_eq(fx.diags.count, 5);
}
END_TEST

START_TEST(test_expression_errors) {
    ck_assert(!run("#if 1 / 0\n#endif\n#if 1.5 > 1\n#endif\n#if (1\n#endif\n#if\n#endif\n"
                   "#if defined\n#endif\n#if 1 +\n#endif\n#if 2 3\n#endif\n"));
    expect_error(0, "PP_DIVIDE_BY_ZERO", 1, 7, "division by zero in preprocessor expression");
    expect_error(1, "PP_EXPRESSION", 3, 5, "invalid preprocessor expression: not an integer '1.5'");
    expect_error(2, "PP_EXPRESSION", 5, 6,
                 "invalid preprocessor expression: expected ')' before at end of line");
    expect_error(3, "PP_EXPRESSION", 7, 2, "#if with no expression");
    expect_error(4, "PP_EXPRESSION", 9, 5, "'defined' expects a macro name");
    expect_error(5, "PP_EXPRESSION", 11, 7,
                 "invalid preprocessor expression: expected a value at end of line");
    expect_error(6, "PP_EXPRESSION", 13, 7, "invalid preprocessor expression: unexpected '3'");
    ck_assert_uint_eq(fx.diags.count, 7);
}
END_TEST

START_TEST(test_macro_errors) {
    ck_assert(!run("#define F(a, b) a\nF(1)\nF(1, 2, 3)\n#define\n#define 3\n#define G(a,\n"
                   "#define H(x) ## x\nF(1,\n2\n"));
    expect_error(0, "PP_ARG_COUNT", 2, 1, "macro 'F' takes 2 arguments, 1 given");
    expect_error(1, "PP_ARG_COUNT", 3, 1, "macro 'F' takes 2 arguments, 3 given");
    expect_error(2, "PP_MACRO_NAME", 4, 2, "expected a macro name after #define");
    expect_error(3, "PP_MACRO_NAME", 5, 9, "expected a macro name after #define");
    expect_error(4, "PP_MACRO_PARAMS", 6, 12, "invalid macro parameter list");
    expect_error(5, "PP_PASTE_EDGE", 7, 14,
                 "'##' cannot appear at either end of a macro expansion");
    expect_error(6, "PP_UNTERMINATED_CALL", 8, 1, "unterminated argument list invoking macro 'F'");
    ck_assert_uint_eq(fx.diags.count, 7);
}
END_TEST

START_TEST(test_directive_errors) {
    ck_assert(!run("#line x\n#line 0\n#undef\n#ifdef\n#endif\n#define defined 1\n#pragma\n"
                   "#include \"nope.fxh\" extra\n#\n"));
    const char *line_msg = "#line expects a line number and an optional file name in quotes";
    expect_error(0, "PP_LINE", 1, 7, line_msg);
    expect_error(1, "PP_LINE", 2, 7, line_msg);
    expect_error(2, "PP_MACRO_NAME", 3, 2, "#undef expects a macro name");
    expect_error(3, "PP_MACRO_NAME", 4, 2, "#ifdef expects a macro name");
    expect_error(4, "PP_MACRO_NAME", 6, 9, "'defined' cannot be used as a macro name");
    expect_diag(5, FXGL_DIAG_WARNING, "PP_UNKNOWN_PRAGMA", 7, 1, "unknown pragma ignored");
    expect_diag(6, FXGL_DIAG_WARNING, "PP_EXTRA_TOKENS", 8, 21,
                "extra tokens after the #include file name");
    expect_error(7, "PP_INCLUDE_NOT_FOUND", 8, 10, "could not find include file 'nope.fxh'");
    ck_assert_uint_eq(fx.diags.count, 8); // the lone '#' on line 9 is nothing
}
END_TEST

START_TEST(test_lexical_errors) {
    ck_assert(!run("#bogus x\nx \"open\ny /* never closed\n"));
    expect_error(0, "PP_DIRECTIVE", 1, 2, "unknown preprocessor directive '#bogus'");
    expect_error(1, "PP_UNTERMINATED_STRING", 2, 3, "unterminated string literal");
    expect_error(2, "PP_UNTERMINATED_COMMENT", 3, 3, "unterminated comment");
    ck_assert_uint_eq(fx.diags.count, 3);
}
END_TEST

// --- limits and bad input ---

static char *build(size_t cap) {
    char *s = calloc(1, cap);
    ck_assert_ptr_nonnull(s);
    return s;
}

START_TEST(test_macro_recursion_limit) {
    // A chain of 300 object-like macros nests 300 expansions.
    char *s = build(300 * 32);
    size_t n = 0;
    for (int i = 0; i < 300; i++) {
        n += (size_t)sprintf(s + n, "#define M%d M%d\n", i, i + 1);
    }
    strcpy(s + n, "M0\n");
    ck_assert(!run(s));
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many nested macro expansions (limit is 256)");
    free(s);
}
END_TEST

START_TEST(test_nested_argument_limit) {
    char *s = build(64 * 1024);
    size_t n = (size_t)sprintf(s, "#define F(x) x\n");
    for (int i = 0; i < 5000; i++) {
        n += (size_t)sprintf(s + n, "F(");
    }
    for (int i = 0; i < 5000; i++) {
        s[n++] = ')';
    }
    s[n++] = '\n';
    ck_assert(!run(s));
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many nested macro expansions (limit is 256)");
    free(s);
}
END_TEST

START_TEST(test_if_nesting_limit) {
    char *s = build(300 * 8);
    size_t n = 0;
    for (int i = 0; i < 300; i++) {
        n += (size_t)sprintf(s + n, "#if 1\n");
    }
    ck_assert(!run(s));
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many nested #if (limit is 256)");
    free(s);
}
END_TEST

START_TEST(test_expression_nesting_limit) {
    char *s = build(200000);
    size_t n = (size_t)sprintf(s, "#if ");
    for (int i = 0; i < 100000; i++) {
        s[n++] = '(';
    }
    strcpy(s + n, "1\n#endif\n");
    ck_assert(!run(s));
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many nested operators in a preprocessor expression (limit is 256)");
    free(s);
}
END_TEST

START_TEST(test_exponential_macros_hit_output_limit) {
    char *s = build(64 * 64);
    size_t n = (size_t)sprintf(s, "#define X0 a b\n");
    for (int i = 1; i <= 40; i++) {
        n += (size_t)sprintf(s + n, "#define X%d X%d X%d\n", i, i - 1, i - 1);
    }
    strcpy(s + n, "X40\n");
    fx_pp_desc desc = {.path = "t.fx", .source = s, .source_len = strlen(s),
                       .output_limit = 1 << 20};
    ck_assert(!run_desc(&desc));
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many bytes of preprocessed output (limit is 1048576)");
    free(s);
}
END_TEST

START_TEST(test_huge_file) {
    // A sparse 100 MB file: refused by its size, before it is read.
    char path[] = "/tmp/fxgl_test_pp_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 100L << 20), 0);
    close(fd);
    ck_assert(!run_full(path, NULL, NULL, 0, NULL, 0));
    unlink(path);
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many bytes in a source file (limit is 67108864)");
}
END_TEST

START_TEST(test_binary_garbage) {
    // Every byte value, NULs included: preprocessing finishes and passes the
    // bytes on (the lexer reports them).
    char src[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof(src); i++) {
        x = x * 1103515245u + 12345u;
        src[i] = (char)(x >> 16);
    }
    fx_pp_desc desc = {.path = "t.fx", .source = src, .source_len = sizeof(src)};
    run_desc(&desc);
    ck_assert(!fx.fatal || fx.diags.count > 0);
    ck_assert_ptr_nonnull(fx.res.text);
}
END_TEST

START_TEST(test_missing_main_file) {
    ck_assert(!run_full(DATA "/does_not_exist.fx", NULL, NULL, 0, NULL, 0));
    ck_assert_uint_eq(fx.diags.count, 1);
    ck_assert_str_eq(fx.diags.items[0].id, "PP_FILE");
    ck_assert_str_eq(fx.diags.items[0].message,
                     "cannot open '" DATA "/does_not_exist.fx': No such file or directory");
}
END_TEST

// --- what the lexer sees ---

START_TEST(test_lexer_positions_match_source) {
    // Columns survive macro expansion before a token on the same line,
    // skipped groups and includes: the lexer reports source positions.
    ck_assert(run_data("#define LONG_NAME_MACRO x\n"
                       "#include \"inc.fxh\"\n"
                       "   LONG_NAME_MACRO    zzz\n"
                       "#if 0\n\n\n\n\n\n\n\n\n\n\n#endif\n"
                       "\t\tqqq\n"));
    fx_lexer lx;
    fx_lex_init(&lx, &fx.ctx, fx.res.text, fx.res.len, DATA "/main.fx");
    fx_token t;
    int found = 0;
    do {
        fx_lex_next(&lx, &t);
        if (t.kind == FX_TOK_IDENT && t.len == 3 && memcmp(t.text, "zzz", 3) == 0) {
            ck_assert_str_eq(t.loc.file, DATA "/main.fx");
            ck_assert_int_eq(t.loc.line, 3);
            ck_assert_int_eq(t.loc.col, 23);
            found++;
        }
        if (t.kind == FX_TOK_IDENT && t.len == 3 && memcmp(t.text, "qqq", 3) == 0) {
            ck_assert_int_eq(t.loc.line, 16);
            ck_assert_int_eq(t.loc.col, 3);
            found++;
        }
        if (t.kind == FX_TOK_IDENT && t.len == 8 && memcmp(t.text, "inc_name", 8) == 0) {
            ck_assert_str_eq(t.loc.file, DATA "/inc.fxh");
            ck_assert_int_eq(t.loc.line, 2);
            ck_assert_int_eq(t.loc.col, 5);
            found++;
        }
    } while (t.kind != FX_TOK_EOF);
    ck_assert_int_eq(found, 3);
}
END_TEST

// --- helpers for the predefined macros ---

START_TEST(test_application_hash_and_renderer) {
    ck_assert_uint_eq(fx_pp_application_hash("/usr/bin/glxgears"), 2305140282u);
    ck_assert_uint_eq(fx_pp_application_hash("C:\\Games\\glxgears.exe"), 2305140282u);
    ck_assert_uint_eq(fx_pp_renderer_gl(4, 5), 0x14500u);
    ck_assert_uint_eq(fx_pp_renderer_gl(3, 3), 0x13300u);
}
END_TEST

static Suite *pp_suite(void) {
    Suite *s = suite_create("pp");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    // A bound for a hang: the nesting-limit test takes seconds in the ASan build on a
    // loaded machine.
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_object_macros);
    tcase_add_test(tc, test_function_macros);
    tcase_add_test(tc, test_empty_and_zero_args);
    tcase_add_test(tc, test_fuzz_empty_arguments);
    tcase_add_test(tc, test_stringize_and_paste);
    tcase_add_test(tc, test_paste_makes_macro_name);
    tcase_add_test(tc, test_lenient_paste);
    tcase_add_test(tc, test_object_macro_paste);
    tcase_add_test(tc, test_variadic);
    tcase_add_test(tc, test_self_reference_hidden);
    tcase_add_test(tc, test_arguments_expanded_first);
    tcase_add_test(tc, test_identical_redefinition);
    tcase_add_test(tc, test_different_redefinition);
    tcase_add_test(tc, test_predefined_macros);
    tcase_add_test(tc, test_builtin_macros);
    tcase_add_test(tc, test_macro_body_continuation);
    tcase_add_test(tc, test_comment_backslash_does_not_join);
    tcase_add_test(tc, test_crlf_line_endings);
    tcase_add_test(tc, test_function_macro_before_directive);
    tcase_add_test(tc, test_if_arithmetic);
    tcase_add_test(tc, test_if_chains);
    tcase_add_test(tc, test_skipped_text_is_lenient);
    tcase_add_test(tc, test_defined_from_macro);
    tcase_add_test(tc, test_exists);
    tcase_add_test(tc, test_exists_macro);
    tcase_add_test(tc, test_ifdef_names);
    tcase_add_test(tc, test_include_relative_and_markers);
    tcase_add_test(tc, test_include_ends_with_function_macro_name);
    tcase_add_test(tc, test_include_case_backslash_macro);
    tcase_add_test(tc, test_include_search_paths);
    tcase_add_test(tc, test_include_once_and_guard);
    tcase_add_test(tc, test_include_errors);
    tcase_add_test(tc, test_include_chain_in_error);
    tcase_add_test(tc, test_unterminated_if_in_include);
    tcase_add_test(tc, test_pragmas);
    tcase_add_test(tc, test_error_and_warning);
    tcase_add_test(tc, test_line_directive);
    tcase_add_test(tc, test_conditional_errors);
    tcase_add_test(tc, test_expression_errors);
    tcase_add_test(tc, test_macro_errors);
    tcase_add_test(tc, test_directive_errors);
    tcase_add_test(tc, test_lexical_errors);
    tcase_add_test(tc, test_macro_recursion_limit);
    tcase_add_test(tc, test_nested_argument_limit);
    tcase_add_test(tc, test_if_nesting_limit);
    tcase_add_test(tc, test_expression_nesting_limit);
    tcase_add_test(tc, test_exponential_macros_hit_output_limit);
    tcase_add_test(tc, test_huge_file);
    tcase_add_test(tc, test_binary_garbage);
    tcase_add_test(tc, test_missing_main_file);
    tcase_add_test(tc, test_lexer_positions_match_source);
    tcase_add_test(tc, test_application_hash_and_renderer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(pp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
