/*
 * test_check.c - unit tests of the FX type checker (src/fx/check.c).
 *
 * Each test is a small hand-written effect fragment, parsed without the
 * preprocessor and checked. Positive tests look at the typed tree (types,
 * symbols, the implicit casts, folded constants); negative tests assert the
 * first error's id, line and column, all worked out by hand from the
 * source text.
 */
#include <check.h>
#include <float.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"

typedef struct check_fixture {
    fx_arena *arena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    bool fatal;
    fx_program *prog;
} check_fixture;

static check_fixture fx;

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

// Each call starts afresh: new arena, empty diagnostics.
static fx_program *check_src(const char *src) {
    teardown();
    setup();
    if (setjmp(fx.jb)) {
        fx.fatal = true;
        return NULL;
    }
    fx_ast *ast = fx_parse(&fx.ctx, src, strlen(src), "t.fx");
    fx.prog = fx_check(&fx.ctx, ast);
    return fx.prog;
}

static void print_diags(void) {
    for (size_t i = 0; i < fx.diags.count; i++) {
        char buf[512];
        fxgl_diag_format(&fx.diags.items[i], buf, sizeof(buf));
        fprintf(stderr, "  %s\n", buf);
    }
}

// Checks src and requires no errors (warnings allowed).
static fx_program *ok(const char *src) {
    fx_program *p = check_src(src);
    if (fx.diags.errors) {
        print_diags();
    }
    ck_assert_int_eq((int)fx.diags.errors, 0);
    ck_assert_ptr_nonnull(p);
    return p;
}

// The first diagnostic of the given severity.
static const fxgl_diag *first(fxgl_diag_severity sev) {
    for (size_t i = 0; i < fx.diags.count; i++) {
        if (fx.diags.items[i].severity == sev) {
            return &fx.diags.items[i];
        }
    }
    return NULL;
}

#define expect_error(src, id_, line_, col_)                                                     \
    do {                                                                                       \
        check_src(src);                                                                        \
        const fxgl_diag *d_ = first(FXGL_DIAG_ERROR);                                          \
        if (!d_) {                                                                             \
            ck_abort_msg("expected %s, got no error", id_);                                    \
        }                                                                                      \
        if (strcmp(d_->id, id_) != 0 || d_->line != (line_) || d_->col != (col_)) {            \
            print_diags();                                                                     \
        }                                                                                      \
        ck_assert_str_eq(d_->id, id_);                                                         \
        ck_assert_int_eq(d_->line, line_);                                                     \
        ck_assert_int_eq(d_->col, col_);                                                       \
    } while (0)

#define expect_warning(src, id_, line_, col_)                                                   \
    do {                                                                                       \
        ok(src);                                                                               \
        const fxgl_diag *d_ = first(FXGL_DIAG_WARNING);                                        \
        ck_assert_ptr_nonnull(d_);                                                             \
        ck_assert_str_eq(d_->id, id_);                                                         \
        ck_assert_int_eq(d_->line, line_);                                                     \
        ck_assert_int_eq(d_->col, col_);                                                       \
    } while (0)

static fx_symbol *function(const char *unique) {
    for (size_t i = 0; i < fx.prog->function_count; i++) {
        if (strcmp(fx.prog->functions[i]->unique, unique) == 0) {
            return fx.prog->functions[i];
        }
    }
    ck_abort_msg("no function %s", unique);
    return NULL;
}

static fx_symbol *global(const char *unique) {
    for (size_t i = 0; i < fx.prog->global_count; i++) {
        if (strcmp(fx.prog->globals[i]->unique, unique) == 0) {
            return fx.prog->globals[i];
        }
    }
    ck_abort_msg("no global %s", unique);
    return NULL;
}

// The n-th statement (0-based) of a function's body.
static fx_stmt *stmt(const char *func, int n) {
    fx_stmt *s = function(func)->func->body->body;
    while (n-- > 0 && s) {
        s = s->next;
    }
    ck_assert_ptr_nonnull(s);
    return s;
}

// The value expression of `return e;` as statement n.
static fx_expr *ret(const char *func, int n) {
    fx_stmt *s = stmt(func, n);
    ck_assert_int_eq(s->kind, FX_STMT_RETURN);
    return s->expr;
}

static fxgl_value eval(const fx_expr *e) {
    fxgl_value v;
    ck_assert(fx_check_eval(e, &v));
    return v;
}

static bool is_type(fx_type t, fx_base_type base, int rows, int cols) {
    return t.base == base && t.rows == rows && t.cols == cols && t.array_len == 0;
}

// --- names and namespaces ---

START_TEST(test_namespaces) {
    ok("static const int x = 3;\n"
       "namespace A {\n"
       "  static const int x = 1;\n"
       "  namespace B { static const int x = 2; int f() { return x; } }\n"
       "  int g() { return x + B::x; }\n"
       "}\n"
       "int h() { return A::B::x * 100 + ::x * 10 + A::x; }\n"
       "namespace A { int k() { return ::x; } }\n");
    ck_assert_int_eq(eval(ret("A::B::f", 0)).i[0], 2);
    ck_assert_int_eq(eval(ret("A::g", 0)).i[0], 3);
    ck_assert_int_eq(eval(ret("h", 0)).i[0], 231);
    ck_assert_int_eq(eval(ret("A::k", 0)).i[0], 3);
    ck_assert_str_eq(global("A::B::x")->unique, "A::B::x");
    fx_expr *e = ret("A::B::f", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_NAME);
    ck_assert_ptr_eq(e->sym, global("A::B::x"));
}
END_TEST

START_TEST(test_scopes_shadow) {
    ok("static const int v = 1;\n"
       "int f() { int v = 2; { int v = 3; } return v; }\n"
       "int g() { return v; }\n");
    fx_symbol *local = ((fx_expr *)ret("f", 2))->sym;
    ck_assert_int_eq(local->kind, FX_SYM_LOCAL);
    ck_assert_ptr_eq(ret("g", 0)->sym, global("v"));
}
END_TEST

START_TEST(test_undeclared) {
    expect_error("float f() {\n  return 1.0 + missing;\n}\n", "X3004", 2, 16);
    expect_error("float f() { return B::x; }\n", "X3004", 1, 20);
    expect_error("void f() { g(); }\n", "X3004", 1, 12);
}
END_TEST

START_TEST(test_redefinition) {
    expect_error("static float a = 1;\nstatic int a = 2;\n", "X3003", 2, 12);
    expect_error("void f() { float x; int x; }\n", "X3003", 1, 25);
    expect_error("float f(float a) { return a; }\nfloat f(float b) { return b; }\n", "X3003",
                 2, 7);
    // Overloads with other parameter types are fine; so is a name reused in
    // another namespace.
    ok("float f(float a) { return a; }\nfloat f(int b) { return b; }\n"
       "namespace N { static float a = 0; } static float a = 1;\n");
}
END_TEST

// --- types, conversions ---

START_TEST(test_implicit_casts) {
    ok("float f(int i) { return i; }\n"
       "float3 g(float3 v) { return v * 2; }\n"
       "bool h(float x) { return x > 1 && x < 2; }\n"
       "int k(uint a, int b) { return a + b; }\n");
    fx_expr *e = ret("f", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_CAST);
    ck_assert(e->flags & FX_EXPR_CHECK_IMPLICIT);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 1, 1));
    ck_assert(is_type(e->lhs->type, FX_TYPE_INT, 1, 1));

    e = ret("g", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_BINARY);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 3, 1));
    ck_assert_int_eq(e->rhs->kind, FX_EXPR_CAST); // 2 -> float3
    ck_assert(is_type(e->rhs->type, FX_TYPE_FLOAT, 3, 1));
    ck_assert_int_eq(e->rhs->lhs->kind, FX_EXPR_INT);

    e = ret("h", 0);
    ck_assert(is_type(e->type, FX_TYPE_BOOL, 1, 1));
    ck_assert_int_eq(e->lhs->kind, FX_EXPR_BINARY);
    ck_assert_int_eq(e->lhs->rhs->kind, FX_EXPR_CAST); // 1 -> float

    // int + uint is uint (the higher base), and the return converts back.
    e = ret("k", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_CAST);
    ck_assert(is_type(e->lhs->type, FX_TYPE_UINT, 1, 1));
    ck_assert_int_eq(e->lhs->rhs->kind, FX_EXPR_CAST);
}
END_TEST

START_TEST(test_constructor_args) {
    ok("float4 f(int2 a, float b) { return float4(a, b, 1); }\n");
    fx_expr *e = ret("f", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_CONSTRUCT);
    fx_expr *a = e->args;
    ck_assert_int_eq(a->kind, FX_EXPR_CAST);
    ck_assert(is_type(a->type, FX_TYPE_FLOAT, 2, 1));
    ck_assert_int_eq(a->next->kind, FX_EXPR_NAME);
    ck_assert_int_eq(a->next->next->kind, FX_EXPR_CAST); // 1 -> float
    expect_error("float4 f() {\n  return float4(1, 2, 3);\n}\n", "X3014", 2, 10);
}
END_TEST

START_TEST(test_truncation_warning) {
    expect_warning("float2 f(float4 v) {\n  return v;\n}\n", "X3206", 2, 10);
    expect_warning("float x = 1.0;\n", "X5000", 1, 7);
}
END_TEST

START_TEST(test_conversion_errors) {
    expect_error("struct S { float a; };\nfloat f(S s) { return s; }\n", "X3017", 2, 23);
    expect_error("float2 f(float2x2 m) {\n  return m;\n}\n", "X3017", 2, 10);
    expect_error("float f(float3 v) { return (float3x3)v; }\n", "X3017", 1, 28);
}
END_TEST

START_TEST(test_operators) {
    ok("int f(int a) { return ~a << 2 | 1; }\n"
       "int g(bool b) { return -b; }\n"
       "float h(float a, float b) { return a % b; }\n");
    ck_assert(is_type(ret("g", 0)->type, FX_TYPE_INT, 1, 1));
    ck_assert_int_eq(ret("g", 0)->lhs->kind, FX_EXPR_CAST);
    expect_error("float f(float a) {\n  return a & 1;\n}\n", "X3082", 2, 12);
    expect_error("float f(float3 a, float2x2 m) {\n  return a * m;\n}\n", "X3020", 2, 12);
}
END_TEST

START_TEST(test_ternary) {
    ok("float3 f(bool3 c, float3 a) { return c ? a : 0; }\n"
       "float g(float x) { return x ? 1 : 2.5; }\n");
    fx_expr *e = ret("f", 0);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 3, 1));
    ck_assert(is_type(e->cond->type, FX_TYPE_BOOL, 3, 1));
    ck_assert_int_eq(e->rhs->kind, FX_EXPR_CAST);
    e = ret("g", 0);
    ck_assert(is_type(e->cond->type, FX_TYPE_BOOL, 1, 1));
    ck_assert_int_eq(e->cond->kind, FX_EXPR_CAST);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 1, 1));
}
END_TEST

// --- the reference's expression rules (reference_rules_measured.md) ---

// The n-th expression statement's expression.
static fx_expr *expr_stmt(const char *func, int n) {
    fx_stmt *s = stmt(func, n);
    ck_assert_int_eq(s->kind, FX_STMT_EXPR);
    return s->expr;
}

// Rule 4: binary operators cast both operands to the merged type without a
// convertibility check: a scalar with a matrix gives the matrix.
START_TEST(test_rule4_scalar_matrix) {
    ok("float3x3 f(float3x3 m, float s) { return m * s; }\n"
       "float2x2 g(float2x2 m) { return 2 + m; }\n"
       "int2x3 h(int2x3 m, bool b) { return b - m; }\n"
       "float2x2 k(int2x2 m) { return m / 2.0; }\n"
       "float2x2 t(bool c, float2x2 m) { return c ? m : 1; }\n");
    fx_expr *e = ret("f", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_BINARY);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 3, 3));
    ck_assert_int_eq(e->rhs->kind, FX_EXPR_CAST);
    ck_assert(is_type(e->rhs->type, FX_TYPE_FLOAT, 3, 3));
    e = ret("g", 0);
    ck_assert(is_type(e->type, FX_TYPE_FLOAT, 2, 2));
    ck_assert(is_type(e->lhs->type, FX_TYPE_FLOAT, 2, 2)); // int 2 -> float2x2
    ck_assert_int_eq(eval(e->lhs).count, 4);
    ck_assert_int_eq(eval(e->lhs).f[3], 2.0f);
    ck_assert(is_type(ret("h", 0)->type, FX_TYPE_INT, 2, 3)); // bool and int: int
    // int2x2 / float: the higher base, float, with the larger shape.
    ck_assert(is_type(ret("k", 0)->type, FX_TYPE_FLOAT, 2, 2));
    ck_assert(is_type(ret("t", 0)->type, FX_TYPE_FLOAT, 2, 2));
    // Still no implicit conversion of a scalar to a matrix anywhere else.
    expect_error("void f() {\n  float2x2 m = 2.0;\n}\n", "X3017", 2, 16);
    expect_error("float2x2 f() {\n  return 1;\n}\n", "X3017", 2, 10);
    // A vector with a matrix is still a mismatch.
    expect_error("float f(float3 a, float2x2 m) {\n  return a * m;\n}\n", "X3020", 2, 12);
}
END_TEST

// Rule 2: assignments check target -> value, so a shorter vector widens by
// repeating its last component and a longer one is an error.
START_TEST(test_rule2_assignment_widens) {
    ok("float4 f(float3 c) { float4 v = 0; v = c; return v; }\n"
       "float4 g(float2 c) { float4 v = 1; v += c; return v; }\n"
       "float4 h() { float4 v; v = float3(1, 2, 3); return v; }\n"
       "float3 k(int2 c) { float3 v; v = c; return v; }\n"
       "float4 s(float c) { float4 v; v = c; return v; }\n"
       "float t(float4 c) { float x; x = c; return x; }\n");
    fx_expr *a = expr_stmt("f", 1);
    ck_assert(is_type(a->type, FX_TYPE_FLOAT, 4, 1));
    ck_assert_int_eq(a->rhs->kind, FX_EXPR_MEMBER); // c.xyzz
    ck_assert(a->rhs->flags & FX_EXPR_CHECK_IMPLICIT);
    fx_symbol *sw = a->rhs->sym;
    ck_assert_int_eq(sw->kind, FX_SYM_SWIZZLE);
    ck_assert_int_eq(sw->swizzle_count, 4);
    ck_assert_int_eq(sw->swizzle[0], 0);
    ck_assert_int_eq(sw->swizzle[1], 1);
    ck_assert_int_eq(sw->swizzle[2], 2);
    ck_assert_int_eq(sw->swizzle[3], 2);
    a = expr_stmt("g", 1); // c.xyyy
    sw = a->rhs->sym;
    ck_assert_int_eq(sw->swizzle[2], 1);
    ck_assert_int_eq(sw->swizzle[3], 1);
    // The value folds to (1, 2, 3, 3).
    fxgl_value v = eval(expr_stmt("h", 1)->rhs);
    ck_assert_int_eq(v.count, 4);
    ck_assert(v.f[0] == 1 && v.f[1] == 2 && v.f[2] == 3 && v.f[3] == 3);
    // int2 into float3: widened to int3 (x, y, y), then converted.
    a = expr_stmt("k", 1)->rhs;
    ck_assert_int_eq(a->kind, FX_EXPR_CAST);
    ck_assert(is_type(a->type, FX_TYPE_FLOAT, 3, 1));
    ck_assert_int_eq(a->lhs->kind, FX_EXPR_MEMBER);
    ck_assert(is_type(a->lhs->type, FX_TYPE_INT, 3, 1));
    // A scalar still broadcasts; a vector into a scalar truncates (warning).
    ck_assert(is_type(expr_stmt("s", 1)->rhs->type, FX_TYPE_FLOAT, 4, 1));
    ck_assert(is_type(expr_stmt("t", 1)->rhs->type, FX_TYPE_FLOAT, 1, 1));
    expect_warning("void f(float4 c) {\n  float x;\n  x = c;\n}\n", "X3206", 3, 7);
    // Narrowing assignment is the reference's error (X3020 at the value).
    expect_error("void f(float4 c) {\n  float3 v;\n  v = c;\n}\n", "X3020", 3, 7);
    expect_error("void f(float4 c) {\n  float3 v = 0;\n  v *= c;\n}\n", "X3020", 3, 8);
    expect_error("void f(float2x2 m) {\n  float4 v;\n  v = m;\n}\n", "X3020", 3, 7);
    expect_error("void f() {\n  float2x2 m;\n  m = 2;\n}\n", "X3020", 3, 7);
    // Initializers, returns and arguments keep the normal direction.
    expect_error("void f(float3 c) {\n  float4 v = c;\n}\n", "X3017", 2, 14);
    expect_error("float4 f(float3 c) {\n  return c;\n}\n", "X3017", 2, 10);
    expect_warning("float3 f(float4 c) {\n  return c;\n}\n", "X3206", 2, 10);
}
END_TEST

// The value of a compound assignment is converted to the target's type
// before the operator: int i = 3; i *= 0.5 multiplies by int(0.5) = 0.
START_TEST(test_compound_assignment_casts_value) {
    ok("int f() { int i = 3; i *= 0.5; return i; }\n"
       "int2 g(float2 x) { int2 i = 7; i /= x; return i; }\n"
       "bool h() { bool b = true; b += 2.5; return b; }\n");
    fx_expr *a = expr_stmt("f", 1);
    ck_assert(is_type(a->type, FX_TYPE_INT, 1, 1));
    ck_assert(is_type(a->rhs->type, FX_TYPE_INT, 1, 1));
    ck_assert_int_eq(eval(a->rhs).i[0], 0);
    a = expr_stmt("g", 1);
    ck_assert(is_type(a->rhs->type, FX_TYPE_INT, 2, 1));
    ck_assert(is_type(a->rhs->lhs->type, FX_TYPE_FLOAT, 2, 1));
    // bool: the value becomes bool, then int for the arithmetic.
    a = expr_stmt("h", 1);
    ck_assert(is_type(a->type, FX_TYPE_BOOL, 1, 1));
    ck_assert(is_type(a->rhs->type, FX_TYPE_INT, 1, 1));
    ck_assert(is_type(a->rhs->lhs->type, FX_TYPE_BOOL, 1, 1));
    expect_error("void f() {\n  float x = 1;\n  x &= 1;\n}\n", "X3082", 3, 5);
}
END_TEST

// Rule 3: a brace list is an expression anywhere: an array of the merged
// element type, as long as the list; assignment needs equal lengths.
START_TEST(test_rule3_brace_lists) {
    ok("float f(int i) { float a[3]; a = {1, 2.5, i,}; return a[i]; }\n"
       "float pick(float3 v[2], int i) { return v[i].z; }\n"
       "float g(float x) { return pick({float3(1, 2, 3), x}, 1); }\n"
       "struct S { float4 m[2]; };\n"
       "float h(S s) { s.m = {s.m[1], 1}; return s.m[1].x; }\n");
    fx_expr *a = expr_stmt("f", 1);
    ck_assert_int_eq(a->rhs->kind, FX_EXPR_INIT_LIST);
    ck_assert(a->rhs->type.base == FX_TYPE_FLOAT && a->rhs->type.array_len == 3);
    ck_assert_int_eq(a->rhs->arg_count, 3);
    ck_assert_int_eq(a->rhs->args->kind, FX_EXPR_CAST); // 1 -> float
    // In a call: float3[2], the scalar cast to float3.
    fx_expr *l = ret("g", 0)->args;
    ck_assert_int_eq(l->kind, FX_EXPR_INIT_LIST);
    ck_assert(is_type(fx_type_element(l->type), FX_TYPE_FLOAT, 3, 1));
    ck_assert_int_eq(l->type.array_len, 2);
    ck_assert(is_type(l->args->next->type, FX_TYPE_FLOAT, 3, 1));
    // Merging: the higher base; two vectors give the shorter.
    ok("void f(float2 a, int3 b) { float2 c[2]; c = {a, b}; }\n"
       "void g(float2 a, int3 b) { float2 c[2] = {a, a}; c[0] = dot({a, b}[1], a); }\n");
    fx_expr *call = expr_stmt("g", 1)->rhs; // float(dot(...)) broadcast to float2
    ck_assert_int_eq(call->kind, FX_EXPR_CAST);
    ck_assert_int_eq(call->lhs->kind, FX_EXPR_CALL);
    fx_expr *m = call->lhs->args->lhs; // {a, b}[1]: the list
    ck_assert_int_eq(m->kind, FX_EXPR_INIT_LIST);
    ck_assert(is_type(fx_type_element(m->type), FX_TYPE_FLOAT, 2, 1));
    expect_error("void f() {\n  float a[3];\n  a = {1, 2};\n}\n", "X3020", 3, 7);
    expect_error("void f() {\n  float a[2];\n  a = {1, {2}};\n}\n", "X3119", 3, 11);
    expect_error("void f() {\n  float a;\n  a = {1};\n}\n", "X3020", 3, 7);
}
END_TEST

// --- swizzles, members, indexing ---

START_TEST(test_swizzles) {
    ok("float3 f(float4 v) { return v.zyx; }\n"
       "float3 g(float s) { return s.xxx; }\n"
       "float2 h(float3x3 m) { return m._m01_m10; }\n"
       "float k(float2x2 m) { return m._12; }\n"
       "float4 c(float4 v) { return v.bgra; }\n");
    fx_expr *e = ret("f", 0);
    fx_symbol *s = e->sym;
    ck_assert_int_eq(s->kind, FX_SYM_SWIZZLE);
    ck_assert_int_eq(s->swizzle_count, 3);
    ck_assert_int_eq(s->swizzle[0], 2);
    ck_assert_int_eq(s->swizzle[1], 1);
    ck_assert_int_eq(s->swizzle[2], 0);
    ck_assert(is_type(ret("g", 0)->type, FX_TYPE_FLOAT, 3, 1));
    s = ret("h", 0)->sym;
    ck_assert(s->matrix_swizzle);
    ck_assert_int_eq(s->swizzle_count, 2);
    ck_assert_int_eq(s->swizzle[0], 1);     // row 0, column 1
    ck_assert_int_eq(s->swizzle[1], 4);     // row 1, column 0
    s = ret("k", 0)->sym;
    ck_assert_int_eq(s->swizzle[0], 1);     // _12: one-based row 1, column 2
    ck_assert_int_eq(((fx_symbol *)ret("c", 0)->sym)->swizzle[0], 2);
    expect_error("float f(float4 v) {\n  return v.xg;\n}\n", "X3018", 2, 11);
    expect_error("float f(float2 v) { return v.z; }\n", "X3018", 1, 29);
    expect_error("float f(float2x2 m) { return m._m22; }\n", "X3018", 1, 31);
}
END_TEST

// Rule 8: vectors take xyzw, rgba or stpq (one set); scalars x, r and s.
START_TEST(test_rule8_stpq_swizzles) {
    ok("float3 f(float4 v) { return v.qps; }\n"
       "float2 g(float s) { return s.sx; }\n"
       "float h(float2 v) { v.t = 1; return v.s; }\n");
    fx_symbol *s = ret("f", 0)->sym;
    ck_assert_int_eq(s->kind, FX_SYM_SWIZZLE);
    ck_assert_int_eq(s->swizzle_count, 3);
    ck_assert_int_eq(s->swizzle[0], 3);
    ck_assert_int_eq(s->swizzle[1], 2);
    ck_assert_int_eq(s->swizzle[2], 0);
    ck_assert(is_type(ret("g", 0)->type, FX_TYPE_FLOAT, 2, 1));
    ck_assert_int_eq(((fx_symbol *)expr_stmt("h", 0)->lhs->sym)->swizzle[0], 1);
    expect_error("float2 f(float4 v) {\n  return v.sy;\n}\n", "X3018", 2, 11);
    expect_error("float f(float2 v) { return v.p; }\n", "X3018", 1, 29);
    expect_error("float f(float x) { return x.t; }\n", "X3018", 1, 28);
}
END_TEST

START_TEST(test_members_and_index) {
    ok("struct S { float2 uv; float w[3]; };\n"
       "float f(S s, float4x4 m, float4 v) { return s.uv.y + s.w[2] + m[1].z + v[3]; }\n");
    fx_expr *sum = ret("f", 0);
    fx_expr *a = sum->lhs->lhs->lhs; // s.uv.y
    ck_assert_int_eq(a->kind, FX_EXPR_MEMBER);
    fx_expr *uv = a->lhs;
    ck_assert_int_eq(((fx_symbol *)uv->sym)->kind, FX_SYM_MEMBER);
    ck_assert_int_eq(((fx_symbol *)uv->sym)->index, 0);
    ck_assert(is_type(uv->type, FX_TYPE_FLOAT, 2, 1));
    fx_expr *m1 = sum->lhs->rhs->lhs; // m[1]
    ck_assert(is_type(m1->type, FX_TYPE_FLOAT, 4, 1));
    expect_error("static const float a[2] = {1, 2};\nfloat f() { return a[2]; }\n", "X3504",
                 2, 22);
    expect_error("float f(float x) { return x[0]; }\n", "X3121", 1, 28);
    expect_error("struct S { float a; };\nfloat f(S s) { return s.b; }\n", "X3018", 2, 24);
}
END_TEST

START_TEST(test_lvalues) {
    expect_error("uniform float u;\nvoid f() { u = 1; }\n", "X3025", 2, 12);
    expect_error("void f(float4 v) {\n  v.xx = 1;\n}\n", "X3025", 2, 4);
    expect_error("void g(out float x) { x = 1; }\nvoid f() { g(1.0); }\n", "X3025", 2, 14);
    expect_error("static const float k = 1;\nvoid f() { k += 1; }\n", "X3025", 2, 12);
    ok("void g(inout float x) { x *= 2; }\n"
       "void f(float4 v) { v.zy = 1; g(v.x); int i = 0; i += 0.5; }\n");
    // `int i; i += 0.5`: the value is converted to int first (fx_check.h).
    fx_stmt *s = stmt("f", 3);
    ck_assert(is_type(s->expr->type, FX_TYPE_INT, 1, 1));
    ck_assert(is_type(s->expr->rhs->type, FX_TYPE_INT, 1, 1));
}
END_TEST

// --- calls ---

START_TEST(test_user_shadows_intrinsic) {
    ok("float max(float a, float b) { return a; }\n"
       "float f(float x) { return max(1.0, x); }\n"
       "float g(float x) { return min(0, x); }\n"
       "float4 h(sampler s, float2 uv) { return tex2D(s, uv); }\n");
    fx_symbol *s = ret("f", 0)->sym;
    ck_assert_int_eq(s->kind, FX_SYM_FUNCTION);
    ck_assert_ptr_eq(s, function("max"));
    s = ret("g", 0)->sym;
    ck_assert_int_eq(s->kind, FX_SYM_INTRINSIC);
    ck_assert_str_eq(s->intrinsic->name, "min");
    ck_assert(is_type(ret("g", 0)->type, FX_TYPE_FLOAT, 1, 1));
    // min(0, x): the literal is converted to the float parameter.
    ck_assert_int_eq(ret("g", 0)->args->kind, FX_EXPR_CAST);
    s = ret("h", 0)->sym;
    ck_assert_str_eq(s->intrinsic->name, "tex2D");
    ck_assert_ptr_eq(function("f")->fn->callees[0], function("max"));
}
END_TEST

START_TEST(test_overload_errors) {
    expect_error("float f() {\n  return tex2D(1.0);\n}\n", "X3013", 2, 10);
    expect_error("void f(int a, float b) {}\nvoid f(float a, int b) {}\n"
                 "void g() { f(1, 1); }\n", "X3067", 3, 12);
    expect_error("float f(float2 a) { return a.x; }\nfloat g(float3x3 m) { return f(m); }\n",
                 "X3013", 2, 30);
}
END_TEST

START_TEST(test_default_arguments) {
    ok("float f(float a, float b = 2.0, int c = 3) { return a + b + c; }\n"
       "float g() { return f(1.0); }\n");
    fx_expr *call = ret("g", 0);
    ck_assert_int_eq(call->arg_count, 3);
    ck_assert_int_eq(call->args->next->kind, FX_EXPR_FLOAT);
    ck_assert_int_eq(eval(call->args->next->next).i[0], 3);
    expect_error("float f(float a = 1.0, float b) { return a; }\n", "X3044", 1, 30);
}
END_TEST

START_TEST(test_recursion) {
    expect_error("float f(float x);\n", "X3510", 1, 7);
    expect_error("float g(float x);\n", "X3510", 1, 7);
    check_src("float f(float x) { return x; }\n"
              "float h(float x) { return f(x); }\n");
    ck_assert_int_eq((int)fx.diags.errors, 0);
    // Mutual recursion needs a prototype, which the language lacks, so a
    // function can only recurse into itself.
    expect_error("float f(float x) {\n  return x > 0 ? f(x - 1) : 0;\n}\n", "X3500", 1, 7);
}
END_TEST

START_TEST(test_out_params_uncast) {
    ok("void g(out float2 a) { a = 0; }\n"
       "void f() { float2 v; g(v); float s, c; sincos(1.0, s, c); }\n");
    fx_stmt *s = stmt("f", 1);
    ck_assert_int_eq(s->expr->args->kind, FX_EXPR_NAME);
}
END_TEST

// The reference checks no constness of texel offsets (rule 6); the emitter
// lowers them. The argument is an ordinary int2 conversion.
START_TEST(test_offset_not_constant) {
    ok("sampler s;\nfloat4 f(float2 uv, int i) {\n  return tex2D(s, uv, int2(i, 0));\n}\n"
       "float4 g(float2 uv, float2 o) { return tex2Dlod(s, float4(uv, 0, 0), o); }\n");
    fx_expr *e = ret("f", 0);
    ck_assert_int_eq(e->kind, FX_EXPR_CALL);
    ck_assert_str_eq(((fx_symbol *)e->sym)->intrinsic->name, "tex2D");
    ck_assert(is_type(e->args->next->next->type, FX_TYPE_INT, 2, 1));
    e = ret("g", 0)->args->next->next; // float2 -> int2
    ck_assert_int_eq(e->kind, FX_EXPR_CAST);
    ck_assert(is_type(e->type, FX_TYPE_INT, 2, 1));
}
END_TEST

// --- statements ---

START_TEST(test_statement_rules) {
    expect_error("void f() {\n  break;\n}\n", "X3518", 2, 3);
    expect_error("void f(int i) { switch (i) { case 0: continue; } }\n", "X3519", 1, 38);
    expect_error("void f() {\n  return 1;\n}\n", "X3079", 2, 3);
    expect_error("float f() {\n  return;\n}\n", "X3080", 2, 3);
    expect_error("void f(float4 v) {\n  if (v) {}\n}\n", "X3019", 2, 7);
    ok("float f(int i) { for (int k = 0; k < 4; k++) { if (k == i) break; continue; }\n"
       "  while (i > 0) { i--; } do { i++; } while (i < 3); return i; }\n");
    // The loop variable is gone after the loop.
    expect_error("void f() { for (int k = 0; k < 4; k++) {} k = 1; }\n", "X3004", 1, 43);
}
END_TEST

START_TEST(test_switch) {
    ok("static const int TWO = 2;\n"
       "int f(int i) {\n"
       "  switch (i) {\n"
       "  case 0:\n"
       "  case 1: return 10;\n"
       "  case TWO: { i = 3; break; }\n"
       "  case 1 + 2: if (i) return 1; else return 2;\n"
       "  default: i = 5;\n"
       "  }\n"
       "  return i;\n"
       "}\n");
    expect_error("int f(int i) {\n  switch (i) {\n  case 0: i = 1;\n  case 1: return 2;\n  }\n"
                 "  return i;\n}\n", "X3533", 4, 3);
    expect_error("int f(int i, int j) {\n  switch (i) {\n  case j: return 1;\n  }\n"
                 "  return 0;\n}\n", "X3020", 3, 8);
    expect_error("int f(int i) {\n  switch (i) {\n  case 1: return 1;\n  case 1: return 2;\n"
                 "  }\n  return 0;\n}\n", "X3532", 4, 8);
    expect_error("int f(int i) {\n  switch (i) {\n  case 1.5: return 1;\n  }\n  return 0;\n}\n",
                 "X3020", 3, 8);
}
END_TEST

// --- constants ---

START_TEST(test_constant_folding) {
    ok("static const int N = 1920 / 2;\n"
       "static const float K = max(2.0, abs(-3.0));\n"
       "static const int T = int(2.7) + (int)-2.7;\n"
       "static const uint U = uint(-1) >> 28;\n"
       "static const int S = (7 > 3 ? 1 << 4 : 0) | 1;\n"
       "static const float4 V = float4(1, 2, 3, 4).wzyx;\n"
       "static const float W = V.x * 10 + V[3];\n"
       "static const float2 P = float2(1.0 / 1920, 1.0 / 1080);\n"
       "static const int M = 7 % 3 - (-7 / 2);\n"
       "static const float F = floor(2.5) + ceil(2.5) + frac(2.25) + clamp(5.0, 0.0, 1.0);\n"
       "static const bool B = !(1 == 2) && true;\n"
       "float a[N / 480];\n");
    ck_assert_int_eq(global("N")->value->i[0], 960);
    ck_assert(global("K")->value->f[0] == 3.0f);
    ck_assert_int_eq(global("T")->value->i[0], 0);
    ck_assert_uint_eq(global("U")->value->u[0], 15);
    ck_assert_int_eq(global("S")->value->i[0], 17);
    ck_assert(global("V")->value->f[0] == 4.0f && global("V")->value->f[3] == 1.0f);
    ck_assert(global("W")->value->f[0] == 41.0f);
    ck_assert(global("P")->value->f[1] == 1.0f / 1080);
    ck_assert_int_eq(global("M")->value->i[0], 4);
    ck_assert(global("F")->value->f[0] == 2.0f + 3.0f + 0.25f + 1.0f);
    ck_assert_int_eq(global("B")->value->i[0], 1);
    ck_assert_int_eq(global("a")->type.array_len, 2);
}
END_TEST

START_TEST(test_constant_arrays) {
    ok("static const float2 A[2] = {1, 2, 3, 4};\n"
       "static const int B[] = {5, 6, 7};\n"
       "static const float C = A[1].y + B[2];\n"
       "static const float3x3 I = float3x3(1, 0, 0, 0, 1, 0, 0, 0, 1);\n"
       "static const float D = I[1][1] + I._m22;\n");
    ck_assert_int_eq(global("A")->type.array_len, 2);
    ck_assert(global("A")->value[1].f[0] == 3.0f);
    ck_assert_int_eq(global("B")->type.array_len, 3);
    ck_assert(global("C")->value->f[0] == 11.0f);
    ck_assert(global("D")->value->f[0] == 2.0f);
    fx_expr *init = global("A")->var->init;
    ck_assert_int_eq(init->kind, FX_EXPR_INIT_LIST);
    ck_assert_int_eq(init->arg_count, 2);
    ck_assert_int_eq(init->args->kind, FX_EXPR_CONSTRUCT); // regrouped
}
END_TEST

START_TEST(test_array_sizes) {
    expect_error("uniform int n;\nfloat a[n];\n", "X3058", 2, 9);
    expect_error("float a[0];\n", "X3059", 1, 9);
    expect_error("void f() { float a[]; }\n", "X3074", 1, 18);
    ok("void f() { const int n = 4; float a[n * 2]; float b[] = {1, 2}; a[7] = b[1]; }\n");
}
END_TEST

START_TEST(test_uniform_initializer) {
    expect_error("static float s = 1;\nuniform float u = s;\n", "X3011", 2, 19);
    ok("uniform float3 c < ui_type = \"color\"; > = float3(1, 0.5, 0);\n"
       "uniform float2 p = {1, 2};\n");
    ck_assert(global("c")->type.quals & FX_Q_UNIFORM);
    ck_assert(!global("c")->implicit_uniform);
    ck_assert_int_eq(global("p")->var->init->kind, FX_EXPR_CONSTRUCT);
}
END_TEST

// --- structs ---

START_TEST(test_structs) {
    ok("struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD; };\n"
       "VSOut f() { VSOut o = { float4(0, 0, 0, 1), float2(0.5, 0.5) }; o.uv.x = 1;"
       " return o; }\n"
       "VSOut g() { VSOut o = (VSOut)0; return o; }\n");
    expect_error("struct A { float x; };\nstruct B { A a; };\n", "X3090", 2, 14);
    check_src("struct E { };\n");
    ck_assert_str_eq(first(FXGL_DIAG_WARNING)->id, "X5001");
}
END_TEST

// --- per-function uses and reachability ---

static void collect(void *user, fx_symbol *f) {
    int *count = user;
    (void)f;
    ++*count;
}

START_TEST(test_uses_and_reach) {
    ok("texture T { Width = 4; };\n"
       "sampler S { Texture = T; };\n"
       "uniform float u;\n"
       "static const float k = 2;\n"
       "float4 leaf(float2 uv) { return tex2D(S, uv) * u; }\n"
       "float4 mid(float2 uv) { return leaf(uv) + leaf(uv * k); }\n"
       "float4 top(float2 uv) { return mid(uv); }\n");
    fx_check_func *fn = function("leaf")->fn;
    ck_assert_int_eq((int)fn->global_count, 2);
    ck_assert_ptr_eq(fn->globals[0], global("S"));
    ck_assert_ptr_eq(fn->globals[1], global("u"));
    ck_assert_int_eq((int)function("mid")->fn->callee_count, 1);
    int count = 0;
    fx_check_reach(function("top"), 1, collect, &count);
    ck_assert_int_eq(count, 3);
}
END_TEST

START_TEST(test_state_names_quiet) {
    // Enum words in properties and states are not undeclared identifiers.
    ok("texture T { Format = RGBA16F; };\n"
       "sampler S { Texture = T; AddressU = Clamp; MagFilter = linear; };\n"
       "void VS(uint id : SV_VertexID, out float4 p : SV_Position) { p = 0; }\n"
       "technique X { pass { VertexShader = VS; SrcBlend = SRCALPHA; } }\n");
    fx_var_decl *v = global("S")->var;
    ck_assert_ptr_eq(v->props->value->sym, global("T"));
    ck_assert_ptr_null(v->props->next->value->sym);
    ck_assert_ptr_eq(fx.prog->techniques[0]->passes->states->value->sym, function("VS"));
}
END_TEST

START_TEST(test_semantics) {
    fx_ctx *c = &fx.ctx;
    if (setjmp(fx.jb)) {
        ck_abort_msg("fatal");
    }
    ck_assert_str_eq(fx_check_semantic(c, "sv_target0"), "SV_TARGET");
    ck_assert_str_eq(fx_check_semantic(c, "SV_Target1"), "SV_TARGET1");
    ck_assert_str_eq(fx_check_semantic(c, "SV_Target10"), "SV_TARGET10");
    ck_assert_str_eq(fx_check_semantic(c, "texcoord"), "TEXCOORD0");
    ck_assert_str_eq(fx_check_semantic(c, "TEXCOORD2"), "TEXCOORD2");
}
END_TEST

// --- robustness ---

START_TEST(test_survives_bad_trees) {
    static const char *const bad[] = {
        "float f( { return 1 +; }",
        "void f() { x.y.z[1](2) = ; int a[ = 3; }",
        "struct { float a; } ; float g(S s) { return s.a.b.c; }",
        "technique { pass { VertexShader = ; } }",
        "sampler s { Texture = ; }; float4 f() { return tex2D(s, ); }",
        "float f() { return (float3)(1, 2) + float4x4(1) * undefined(3); }",
        "void f() { switch (1) { case : default: default: } }",
        "namespace { float x; } namespace A { namespace { } }",
        "float f() { return {1, 2}; }",
        "static const int a[] = {}; float b[a[0]];",
        "float f(float x = y) { return f(); }",
        "int f(int i) { return i ? : 1; } int g() { return f(1, 2, 3, 4, 5); }",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        check_src(bad[i]);
        ck_assert_msg(fx.diags.errors > 0 || fx.fatal, "no error for %s", bad[i]);
    }
}
END_TEST

static Suite *check_suite(void) {
    Suite *s = suite_create("check");
    TCase *names = tcase_create("names");
    tcase_add_checked_fixture(names, setup, teardown);
    tcase_add_test(names, test_namespaces);
    tcase_add_test(names, test_scopes_shadow);
    tcase_add_test(names, test_undeclared);
    tcase_add_test(names, test_redefinition);
    tcase_add_test(names, test_state_names_quiet);
    suite_add_tcase(s, names);

    TCase *types = tcase_create("types");
    tcase_add_checked_fixture(types, setup, teardown);
    tcase_add_test(types, test_implicit_casts);
    tcase_add_test(types, test_constructor_args);
    tcase_add_test(types, test_truncation_warning);
    tcase_add_test(types, test_conversion_errors);
    tcase_add_test(types, test_operators);
    tcase_add_test(types, test_ternary);
    tcase_add_test(types, test_swizzles);
    tcase_add_test(types, test_rule4_scalar_matrix);
    tcase_add_test(types, test_rule2_assignment_widens);
    tcase_add_test(types, test_compound_assignment_casts_value);
    tcase_add_test(types, test_rule3_brace_lists);
    tcase_add_test(types, test_rule8_stpq_swizzles);
    tcase_add_test(types, test_members_and_index);
    tcase_add_test(types, test_lvalues);
    tcase_add_test(types, test_structs);
    suite_add_tcase(s, types);

    TCase *calls = tcase_create("calls");
    tcase_add_checked_fixture(calls, setup, teardown);
    tcase_add_test(calls, test_user_shadows_intrinsic);
    tcase_add_test(calls, test_overload_errors);
    tcase_add_test(calls, test_default_arguments);
    tcase_add_test(calls, test_recursion);
    tcase_add_test(calls, test_out_params_uncast);
    tcase_add_test(calls, test_offset_not_constant);
    tcase_add_test(calls, test_uses_and_reach);
    suite_add_tcase(s, calls);

    TCase *stmts = tcase_create("statements");
    tcase_add_checked_fixture(stmts, setup, teardown);
    tcase_add_test(stmts, test_statement_rules);
    tcase_add_test(stmts, test_switch);
    suite_add_tcase(s, stmts);

    TCase *consts = tcase_create("constants");
    tcase_add_checked_fixture(consts, setup, teardown);
    tcase_add_test(consts, test_constant_folding);
    tcase_add_test(consts, test_constant_arrays);
    tcase_add_test(consts, test_array_sizes);
    tcase_add_test(consts, test_uniform_initializer);
    tcase_add_test(consts, test_semantics);
    suite_add_tcase(s, consts);

    TCase *robust = tcase_create("robustness");
    tcase_add_checked_fixture(robust, setup, teardown);
    tcase_add_test(robust, test_survives_bad_trees);
    suite_add_tcase(s, robust);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(check_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
