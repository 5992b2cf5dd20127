/*
 * test_lex.c - unit tests of the FX lexer (src/fx/lex.c).
 *
 * Each test lexes a small hand-written input and checks token kinds, values
 * and positions, or the exact diagnostic (id, line, column) stated by hand.
 */
#include <check.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"

typedef struct lex_fixture {
    fx_arena *arena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    fx_lexer lx;
} lex_fixture;

static lex_fixture fx;

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

static void start(const char *src) {
    fx_lex_init(&fx.lx, &fx.ctx, src, strlen(src), "t.fx");
}

static fx_token next(void) {
    fx_token t;
    fx_lex_next(&fx.lx, &t);
    return t;
}

static void assert_diag(size_t i, const char *id, int line, int col) {
    ck_assert_uint_gt(fx.diags.count, i);
    ck_assert_str_eq(fx.diags.items[i].id, id);
    ck_assert_int_eq(fx.diags.items[i].line, line);
    ck_assert_int_eq(fx.diags.items[i].col, col);
}

// Tree nodes keep only a token's text offset; fx_lex_loc must give back the
// position the lexer computed for the token itself, across #line markers,
// both marker forms, multi-line comments, string continuations, CRLF line
// ends, pragma lines and more lines than one map stride.
START_TEST(test_line_map_matches_tokens) {
    char *src = malloc(16384);
    ck_assert_ptr_nonnull(src);
    size_t n = 0;
    n += (size_t)sprintf(src + n, "a b\n/* one\ntwo */ c \"s\\\nt\" d\r\n#pragma x\n");
    for (int i = 0; i < 200; i++) {
        n += (size_t)sprintf(src + n, "%*sx%d + %d;%s\n", i % 5, "", i, i, i % 3 ? "" : " // c");
        if (i == 70) {
            n += (size_t)sprintf(src + n, "#line 1000 \"inc/b.fxh\"\n");
        }
        if (i == 150) {
            n += (size_t)sprintf(src + n, "# 7 \"c.fx\"\n\n\n");
        }
    }
    start(src);
    int tokens = 0;
    for (;;) {
        fx_token t = next();
        if (t.kind == FX_TOK_EOF) {
            break;
        }
        fx_loc l = fx_lex_loc(&fx.lx, (fx_pos){t.offset});
        ck_assert_str_eq(l.file, t.loc.file);
        ck_assert_int_eq(l.line, t.loc.line);
        ck_assert_int_eq(l.col, t.loc.col);
        tokens++;
    }
    ck_assert_int_eq(tokens, 5 + 200 * 4);
    ck_assert_uint_eq(fx.diags.count, 0);
    free(src);
}
END_TEST

START_TEST(test_type_keywords) {
    start("float3x2 float2x1 dword3 min16float4 bool uint4x4 vector matrix");
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_TYPE);
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_FLOAT);
    ck_assert_int_eq(t.ident->type.rows, 3);
    ck_assert_int_eq(t.ident->type.cols, 2);
    t = next(); // float2x1 is float2
    ck_assert_int_eq(t.ident->type.rows, 2);
    ck_assert_int_eq(t.ident->type.cols, 1);
    t = next();
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_UINT);
    ck_assert_int_eq(t.ident->type.rows, 3);
    t = next();
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_MIN16FLOAT);
    ck_assert_int_eq(t.ident->type.rows, 4);
    t = next();
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_BOOL);
    t = next();
    ck_assert_int_eq(t.ident->type.cols, 4);
    ck_assert_int_eq(next().kind, FX_TOK_VECTOR);
    ck_assert_int_eq(next().kind, FX_TOK_MATRIX);
    ck_assert_int_eq(next().kind, FX_TOK_EOF);
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_object_keywords) {
    start("texture sampler storage3D texture1D sampler3D string");
    fx_token t = next();
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_TEXTURE2D);
    t = next();
    ck_assert_int_eq(t.ident->type.base, FX_TYPE_SAMPLER2D);
    ck_assert_int_eq(t.ident->type.elem_base, FX_TYPE_FLOAT);
    ck_assert_int_eq(t.ident->type.elem_rows, 4);
    ck_assert_int_eq(next().ident->type.base, FX_TYPE_STORAGE3D);
    ck_assert_int_eq(next().ident->type.base, FX_TYPE_TEXTURE1D);
    ck_assert_int_eq(next().ident->type.base, FX_TYPE_SAMPLER3D);
    ck_assert_int_eq(next().ident->type.base, FX_TYPE_STRING);
}
END_TEST

START_TEST(test_statement_keywords_and_qualifiers) {
    static const int kinds[] = {
        FX_TOK_NAMESPACE, FX_TOK_STRUCT, FX_TOK_TECHNIQUE, FX_TOK_PASS, FX_TOK_IF,
        FX_TOK_ELSE, FX_TOK_SWITCH, FX_TOK_CASE, FX_TOK_DEFAULT, FX_TOK_FOR, FX_TOK_WHILE,
        FX_TOK_DO, FX_TOK_BREAK, FX_TOK_CONTINUE, FX_TOK_RETURN, FX_TOK_DISCARD,
    };
    start("namespace struct technique pass if else switch case default for while do break "
          "continue return discard");
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        ck_assert_int_eq(next().kind, kinds[i]);
    }
    start("inout nointerpolation groupshared");
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_QUALIFIER);
    ck_assert_int_eq(t.ident->quals, FX_Q_INOUT);
    ck_assert_int_eq(next().ident->quals, FX_Q_NOINTERPOLATION);
    ck_assert_int_eq(next().ident->quals, FX_Q_GROUPSHARED);
}
END_TEST

START_TEST(test_reserved_words) {
    start("half4 x;\n  double d; Texture2D");
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_IDENT); // reported, then parsed as a name
    assert_diag(0, "X3000", 1, 1);
    ck_assert_str_eq(fx.diags.items[0].message, "'half4' is reserved");
    next();
    next();
    next();
    assert_diag(1, "X3000", 2, 3);
    ck_assert_str_eq(fx.diags.items[1].message, "'double' is reserved");
    next();
    next();
    next();
    ck_assert_str_eq(fx.diags.items[2].message, "'Texture2D' is reserved");
    start("centroid row_major register typedef SamplerState");
    for (int i = 0; i < 5; i++) {
        next();
    }
    ck_assert_uint_eq(fx.diags.errors, 8);
}
END_TEST

START_TEST(test_identifiers_interned) {
    start("color Color color _x1 a::b");
    fx_token a = next(), b = next(), c = next();
    ck_assert_ptr_eq(a.ident, c.ident);
    ck_assert_ptr_ne(a.ident, b.ident);
    ck_assert_ptr_eq(a.ident, fx_lex_intern(&fx.lx, "color", 5));
    ck_assert_str_eq(next().ident->str, "_x1");
    ck_assert_int_eq(next().kind, FX_TOK_IDENT);
    ck_assert_int_eq(next().kind, FX_TOK_SCOPE);
    ck_assert_int_eq(next().kind, FX_TOK_IDENT);
}
END_TEST

START_TEST(test_integer_literals) {
    start("10 010 0x1F 0XffU 7u 0 4294967296");
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_INT);
    ck_assert_uint_eq(t.ival, 10);
    ck_assert_uint_eq(next().ival, 8); // octal
    ck_assert_uint_eq(next().ival, 31);
    t = next();
    ck_assert_int_eq(t.kind, FX_TOK_UINT);
    ck_assert_uint_eq(t.ival, 255);
    t = next();
    ck_assert_int_eq(t.kind, FX_TOK_UINT);
    ck_assert_uint_eq(t.ival, 7);
    ck_assert_uint_eq(next().ival, 0);
    ck_assert_uint_eq(next().ival, 4294967296ull); // the checker truncates
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_float_literals) {
    start("1.5 .5 1. 1e3 2.5e-2f 1f 3.0h 0.1");
    double want[] = {1.5, 0.5, 1.0, 1000.0, 0.025, 1.0, 3.0, 0.1};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        fx_token t = next();
        ck_assert_int_eq(t.kind, FX_TOK_FLOAT);
        ck_assert_double_eq(t.fval, want[i]);
    }
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_double_literal_warns) {
    start("x = 1.0L;");
    next();
    next();
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_FLOAT);
    ck_assert_double_eq(t.fval, 1.0);
    assert_diag(0, "L_DOUBLE_LITERAL", 1, 5);
    ck_assert_int_eq(fx.diags.items[0].severity, FXGL_DIAG_WARNING);
    ck_assert_str_eq(fx.diags.items[0].message,
                     "double precision literal '1.0L' is truncated to float");
}
END_TEST

START_TEST(test_bad_numbers) {
    start("09 0x 12abc 1");
    fx_token t = next();
    ck_assert_int_eq(t.len, 2);
    assert_diag(0, "L_BAD_NUMBER", 1, 1);
    ck_assert_str_eq(fx.diags.items[0].message, "invalid numeric literal '09'");
    next();
    assert_diag(1, "L_BAD_NUMBER", 1, 4);
    t = next();
    ck_assert_int_eq(t.len, 5);
    assert_diag(2, "L_BAD_NUMBER", 1, 7);
    ck_assert_uint_eq(next().ival, 1);
}
END_TEST

START_TEST(test_bool_literals) {
    start("true false TRUE FALSE True");
    ck_assert_uint_eq(next().ival, 1);
    ck_assert_uint_eq(next().ival, 0);
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_BOOL);
    ck_assert_uint_eq(t.ival, 1);
    ck_assert_int_eq(next().kind, FX_TOK_BOOL);
    ck_assert_int_eq(next().kind, FX_TOK_IDENT);
}
END_TEST

START_TEST(test_string_literals) {
    start("\"a\\n\\t\\x41\\101\\\"\\\\q\" \"a\\0b\"");
    fx_token t = next();
    ck_assert_int_eq(t.kind, FX_TOK_STRING);
    ck_assert_str_eq(t.str, "a\n\tAA\"\\q");
    ck_assert_uint_eq(t.len, 20);
    t = next();
    ck_assert_uint_eq(t.str_len, 3);
    ck_assert_int_eq(memcmp(t.str, "a\0b", 3), 0);
}
END_TEST

START_TEST(test_string_continuation_and_unterminated) {
    start("\"ab\\\ncd\" x\n\"open\ny");
    fx_token t = next();
    ck_assert_str_eq(t.str, "abcd");
    t = next();
    ck_assert_int_eq(t.loc.line, 2);
    ck_assert_int_eq(t.loc.col, 5);
    t = next();
    assert_diag(0, "L_UNTERMINATED_STRING", 3, 1);
    ck_assert_str_eq(t.str, "open");
    t = next();
    ck_assert_str_eq(t.ident->str, "y");
    ck_assert_int_eq(t.loc.line, 4);
}
END_TEST

START_TEST(test_operators) {
    static const int kinds[] = {
        FX_TOK_SHL_ASSIGN, FX_TOK_SHR_ASSIGN, FX_TOK_SCOPE, FX_TOK_INC, FX_TOK_DEC,
        FX_TOK_ANDAND, FX_TOK_OROR, FX_TOK_EQ, FX_TOK_NE, FX_TOK_LE, FX_TOK_GE,
        FX_TOK_ADD_ASSIGN, FX_TOK_SUB_ASSIGN, FX_TOK_MUL_ASSIGN, FX_TOK_DIV_ASSIGN,
        FX_TOK_MOD_ASSIGN, FX_TOK_AND_ASSIGN, FX_TOK_OR_ASSIGN, FX_TOK_XOR_ASSIGN,
        FX_TOK_SHL, FX_TOK_SHR, FX_TOK_ARROW, FX_TOK_ELLIPSIS,
        '(', ')', '[', ']', '{', '}', ';', ',', '.', ':', '?', '<', '>', '=', '+', '-', '*',
        '/', '%', '&', '|', '^', '!', '~', FX_TOK_EOF,
    };
    start("<<= >>= :: ++ -- && || == != <= >= += -= *= /= %= &= |= ^= << >> -> ...\n"
          "()[]{};,.:? < > = +-*/%&|^!~");
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        ck_assert_int_eq(next().kind, kinds[i]);
    }
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_attribute_brackets) {
    start("[unroll(4)] [numthreads(8, 8, 1)]");
    ck_assert_int_eq(next().kind, '[');
    ck_assert_str_eq(next().ident->str, "unroll");
    ck_assert_int_eq(next().kind, '(');
    ck_assert_uint_eq(next().ival, 4);
    ck_assert_int_eq(next().kind, ')');
    ck_assert_int_eq(next().kind, ']');
}
END_TEST

START_TEST(test_positions_and_line_markers) {
    start("a\n  b\n#line 40 \"inc/x.fxh\"\nc  d\n# 7 \"y.fx\"\ne\n#line 100\nf");
    fx_token t = next();
    ck_assert_int_eq(t.loc.line, 1);
    ck_assert_int_eq(t.loc.col, 1);
    ck_assert_str_eq(t.loc.file, "t.fx");
    t = next();
    ck_assert_int_eq(t.loc.line, 2);
    ck_assert_int_eq(t.loc.col, 3);
    ck_assert_uint_eq(t.offset, 4);
    t = next();
    ck_assert_str_eq(t.loc.file, "inc/x.fxh");
    ck_assert_int_eq(t.loc.line, 40);
    t = next();
    ck_assert_int_eq(t.loc.col, 4);
    t = next();
    ck_assert_str_eq(t.loc.file, "y.fx");
    ck_assert_int_eq(t.loc.line, 7);
    t = next();
    ck_assert_str_eq(t.loc.file, "y.fx"); // #line without a name keeps the file
    ck_assert_int_eq(t.loc.line, 100);
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_line_marker_escapes) {
    // The preprocessor writes '\' and '"' in names escaped.
    start("#line 3 \"C:\\\\fx\\\\a \\\"b\\\".fx\"\nx");
    fx_token t = next();
    ck_assert_str_eq(t.loc.file, "C:\\fx\\a \"b\".fx");
    ck_assert_int_eq(t.loc.line, 3);
}
END_TEST

START_TEST(test_pragmas_skipped_and_kept) {
    start("#pragma warning(disable : 3571)\nx\n  #pragma reshade skipoptimization  \ny");
    fx_token t = next();
    ck_assert_str_eq(t.ident->str, "x");
    ck_assert_int_eq(t.loc.line, 2);
    ck_assert_str_eq(next().ident->str, "y");
    fx_pragma *pr = fx.lx.pragmas;
    ck_assert_ptr_nonnull(pr);
    ck_assert_int_eq((int)pr->len, 23);
    ck_assert_int_eq(strncmp(pr->text, "warning(disable : 3571)", pr->len), 0);
    pr = pr->next;
    ck_assert_int_eq(strncmp(pr->text, "reshade skipoptimization", pr->len), 0);
    ck_assert_int_eq((int)pr->len, 24);
    ck_assert_int_eq(pr->loc.line, 3);
    ck_assert_int_eq(pr->loc.col, 3);
}
END_TEST

START_TEST(test_unknown_directive) {
    start("a\n#include \"x.fxh\"\nb # c");
    next();
    ck_assert_str_eq(next().ident->str, "b");
    assert_diag(0, "L_DIRECTIVE", 2, 1);
    ck_assert_str_eq(fx.diags.items[0].message, "unexpected preprocessor directive '#include'");
    next(); // '#' in the middle of a line is a stray character
    assert_diag(1, "X3000", 3, 3);
}
END_TEST

START_TEST(test_comments) {
    start("a // x\n/* y\n z */ b /* c");
    ck_assert_str_eq(next().ident->str, "a");
    fx_token t = next();
    ck_assert_str_eq(t.ident->str, "b");
    ck_assert_int_eq(t.loc.line, 3);
    ck_assert_int_eq(t.loc.col, 7);
    ck_assert_int_eq(next().kind, FX_TOK_EOF);
    assert_diag(0, "L_UNTERMINATED_COMMENT", 3, 9);
}
END_TEST

START_TEST(test_invalid_characters) {
    start("a @$ b\n\x01\xff c");
    next();
    ck_assert_str_eq(next().ident->str, "b");
    assert_diag(0, "X3000", 1, 3);
    ck_assert_str_eq(fx.diags.items[0].message, "invalid character '@' in source");
    ck_assert_str_eq(next().ident->str, "c");
    assert_diag(1, "X3000", 2, 1);
    ck_assert_str_eq(fx.diags.items[1].message, "invalid character '\\x01' in source");
    ck_assert_uint_eq(fx.diags.count, 2); // a run of stray bytes is one error
}
END_TEST

START_TEST(test_not_nul_terminated) {
    const char src[] = {'a', 'b', '1', '.', '5'};
    fx_lex_init(&fx.lx, &fx.ctx, src, 4, "t.fx"); // ends inside "1.5"
    fx_token t = next();
    ck_assert_str_eq(t.ident->str, "ab1");
    t = next();
    ck_assert_int_eq(t.kind, '.');
    ck_assert_int_eq(next().kind, FX_TOK_EOF);
}
END_TEST

static Suite *lex_suite(void) {
    Suite *s = suite_create("lex");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_type_keywords);
    tcase_add_test(tc, test_object_keywords);
    tcase_add_test(tc, test_statement_keywords_and_qualifiers);
    tcase_add_test(tc, test_reserved_words);
    tcase_add_test(tc, test_identifiers_interned);
    tcase_add_test(tc, test_integer_literals);
    tcase_add_test(tc, test_float_literals);
    tcase_add_test(tc, test_double_literal_warns);
    tcase_add_test(tc, test_bad_numbers);
    tcase_add_test(tc, test_bool_literals);
    tcase_add_test(tc, test_string_literals);
    tcase_add_test(tc, test_string_continuation_and_unterminated);
    tcase_add_test(tc, test_operators);
    tcase_add_test(tc, test_attribute_brackets);
    tcase_add_test(tc, test_positions_and_line_markers);
    tcase_add_test(tc, test_line_marker_escapes);
    tcase_add_test(tc, test_pragmas_skipped_and_kept);
    tcase_add_test(tc, test_unknown_directive);
    tcase_add_test(tc, test_comments);
    tcase_add_test(tc, test_invalid_characters);
    tcase_add_test(tc, test_not_nul_terminated);
    tcase_add_test(tc, test_line_map_matches_tokens);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(lex_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
