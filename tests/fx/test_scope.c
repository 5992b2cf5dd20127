/*
 * test_scope.c - the reference compiler's rules for names, namespaces,
 * overloads and the front end's lenient cases (reference_rules_measured.md),
 * through parse and check (src/fx/check.c).
 *
 * Every expectation is worked out by hand from the rule as the reference
 * states it: which symbol a name resolves to, which overload a call picks,
 * what a constant folds to, and which diagnostic (id, line, column) comes
 * out where the reference refuses what fxgl still runs.
 */
#include <check.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"

typedef struct scope_fixture {
    fx_arena *arena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    fx_program *prog;
} scope_fixture;

static scope_fixture fx;

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

static fx_program *check_src(const char *src) {
    teardown();
    setup();
    if (setjmp(fx.jb)) {
        return NULL;
    }
    fx_ast *ast = fx_parse(&fx.ctx, src, strlen(src), "s.fx");
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

static void ok(const char *src) {
    fx_program *p = check_src(src);
    if (!p || fx.diags.errors) {
        print_diags();
    }
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq((int)fx.diags.errors, 0);
}

// The first diagnostic with that id, or NULL.
static const fxgl_diag *diag(fxgl_diag_severity sev, const char *id) {
    for (size_t i = 0; i < fx.diags.count; i++) {
        if (fx.diags.items[i].severity == sev && strcmp(fx.diags.items[i].id, id) == 0) {
            return &fx.diags.items[i];
        }
    }
    return NULL;
}

static void expect_error(const char *src, const char *id, int line, int col) {
    check_src(src);
    const fxgl_diag *d = diag(FXGL_DIAG_ERROR, id);
    if (!d || d->line != line || d->col != col) {
        print_diags();
    }
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->line, line);
    ck_assert_int_eq(d->col, col);
}

// src checks without errors and warns with id at line:col, the message
// naming the reference's refusal.
static void expect_lenient(const char *src, const char *id, int line, int col) {
    ok(src);
    const fxgl_diag *d = diag(FXGL_DIAG_WARNING, id);
    if (!d || d->line != line || d->col != col) {
        print_diags();
    }
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->line, line);
    ck_assert_int_eq(d->col, col);
    ck_assert_ptr_nonnull(strstr(d->message, "ReShade rejects this"));
}

// Checks src and builds its module (in an arena of its own, as compile.c
// does); NULL after errors.
static fxgl_effect *build(const char *src, fx_arena *earena) {
    if (!check_src(src) || fx.diags.errors) {
        return NULL;
    }
    fx_ctx ectx = {.arena = earena, .diags = &fx.diags, .fatal = &fx.jb};
    if (setjmp(fx.jb)) {
        return NULL;
    }
    return fx_module_build(&ectx, fx.prog);
}

static fx_symbol *function_at(const char *unique, int line) {
    for (size_t i = 0; i < fx.prog->function_count; i++) {
        fx_symbol *f = fx.prog->functions[i];
        fx_loc l = fx_lex_loc(fx.prog->ast->lexer, f->loc);
        if (strcmp(f->func->name->str, unique) == 0 && l.line == line) {
            return f;
        }
    }
    ck_abort_msg("no function %s at line %d", unique, line);
    return NULL;
}

// The value expression of the first statement (a return) of the function
// declared at that line.
static fx_expr *ret_at(const char *name, int line) {
    fx_stmt *s = function_at(name, line)->func->body->body;
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->kind, FX_STMT_RETURN);
    return s->expr;
}

static int line_of(const fx_symbol *s) {
    return fx_lex_loc(fx.prog->ast->lexer, s->loc).line;
}

static fxgl_value eval(const fx_expr *e) {
    fxgl_value v;
    ck_assert(fx_check_eval(e, &v));
    return v;
}

// --- rule 1: a function may take the name of an earlier variable ---

START_TEST(test_function_named_like_constant) {
    ok("static const float M = 2.0;\n"                  // 1
       "float M(float x) { return x * M; }\n"            // 2: M in the body is the constant
       "float f() { return M(3.0); }\n"                  // 3: a call looks among functions
       "float g() { return M; }\n"                       // 4: a value is the constant
       "uniform float U;\n"                              // 5
       "float U(float x) { return x + 1; }\n");          // 6: a uniform's name too
    fx_expr *call = ret_at("f", 3);
    ck_assert_int_eq(call->kind, FX_EXPR_CALL);
    ck_assert_ptr_eq(call->sym, function_at("M", 2));
    fx_expr *value = ret_at("g", 4);
    ck_assert_int_eq(((fx_symbol *)value->sym)->kind, FX_SYM_CONSTANT);
    ck_assert_int_eq(line_of(value->sym), 1);
    ck_assert(eval(value).f[0] == 2.0f);
    fx_expr *body = ret_at("M", 2)->rhs;
    ck_assert_int_eq(((fx_symbol *)body->sym)->kind, FX_SYM_CONSTANT);
    // The constant and the function no longer share a name for the emitter;
    // the uniform keeps its own (presets name it) and the function moves.
    const fx_symbol *constant = value->sym;
    ck_assert_str_ne(constant->unique, function_at("M", 2)->unique);
    ck_assert_str_ne(function_at("U", 6)->unique, "U");
    ck_assert_int_eq((int)fx.diags.warnings, 0);
    // The other order stays an error: the function is seen by the check.
    expect_error("float N(float x) { return x; }\nstatic const float N = 1.0;\n", "X3003", 2,
                 20);
    // Calling a variable's name: ReShade refuses; fxgl calls the function.
    expect_lenient("uniform float U;\nfloat U(float x) { return x; }\n"
                   "float f() { return U(1.0); }\n",
                   "X3005", 3, 20);
    ck_assert_ptr_eq(ret_at("f", 3)->sym, function_at("U", 2));
}
END_TEST

// --- rule 5: unqualified lookup by namespace depth ---

START_TEST(test_lookup_by_depth) {
    const char *decls = "namespace A { namespace B { static const int x = 1; } }\n"     // 1
                        "namespace P { static const int y = 5; }\n";                     // 2
    // Deeper than A::B (depth 3), enclosure not asked: x is visible.
    char src[1024];
    snprintf(src, sizeof(src), "%s%s", decls,
             "namespace X { namespace Y { namespace Z { int f() { return x; } } } }\n"
             "namespace A { namespace B { int g() { return x; } } }\n"    // same namespace
             "namespace Q { namespace R { int h() { return y + B::x; } } }\n");
    ok(src);
    ck_assert_int_eq(eval(ret_at("f", 3)).i[0], 1);
    ck_assert_int_eq(eval(ret_at("g", 4)).i[0], 1);
    // y stands at depth 1 < 2; `B::x` stands in A, depth 1 < 2.
    ck_assert_int_eq(eval(ret_at("h", 5)).i[0], 6);
    // A sibling at the same depth does not see it, nor does a shallower one.
    expect_error("namespace A { namespace B { static const int x = 1; } }\n"
                 "namespace A { namespace C { int g() { return x; } } }\n",
                 "X3004", 2, 46);
    expect_error("namespace P { static const int y = 5; }\n"
                 "namespace Q { int k() { return y; } }\n",
                 "X3004", 2, 32);
    expect_error("namespace A { namespace B { static const int x = 1; } }\n"
                 "int k() { return x; }\n",
                 "X3004", 2, 18);
    // Of two visible entries the deeper one wins, whatever encloses what.
    ok("static const int v = 1;\n"
       "namespace S { static const int v = 2; }\n"
       "namespace T { namespace U { int f() { return v; } } }\n");
    ck_assert_int_eq(eval(ret_at("f", 3)).i[0], 2);
}
END_TEST

// --- rule 9: a named constant may be declared again ---

START_TEST(test_constant_declared_again) {
    ok("static const float c = 1.0;\n"                   // 1
       "float f() { return c; }\n"                       // 2: the one declared so far
       "static const float c = 2.0;\n"                   // 3
       "float g() { return c; }\n"                       // 4: the latest
       "uniform float c;\n"                              // 5: even a uniform
       "float h() { return c; }\n");                     // 6
    ck_assert(eval(ret_at("f", 2)).f[0] == 1.0f);
    ck_assert(eval(ret_at("g", 4)).f[0] == 2.0f);
    const fx_symbol *u = ret_at("h", 6)->sym;
    ck_assert_int_eq(u->kind, FX_SYM_UNIFORM);
    ck_assert_str_eq(u->unique, "c");
    // Three globals, three names for the emitter.
    ck_assert_int_eq((int)fx.prog->global_count, 3);
    ck_assert_str_ne(fx.prog->globals[0]->unique, fx.prog->globals[1]->unique);
    ck_assert_str_ne(fx.prog->globals[0]->unique, "c");
    ck_assert_str_ne(fx.prog->globals[1]->unique, "c");
    // Not constants: a static, a constant without a literal value, and an
    // array of 100 elements (the reference keeps those as variables).
    expect_error("static float d = 1.0;\nstatic const float d = 2.0;\n", "X3003", 2, 20);
    expect_error("uniform float k;\nstatic const float e = k;\nstatic const float e = 1;\n",
                 "X3003", 3, 20);
    char big[1024] = "static const float a[100] = {0";
    for (int i = 1; i < 100; i++) {
        strcat(big, ",0");
    }
    strcat(big, "};\nstatic const float a = 1.0;\n");
    expect_error(big, "X3003", 2, 20);
    // In a block too; not a plain local.
    ok("float f() { const float k = 1; const float k = 2; return k; }\n");
    ck_assert(eval(function_at("f", 1)->func->body->body->next->next->expr).f[0] == 2.0f);
    expect_error("float f() { float k = 1; const float k = 2; return k; }\n", "X3003", 1, 38);
    // 99 elements are a named constant.
    strcpy(big, "static const float a[99] = {0");
    for (int i = 1; i < 99; i++) {
        strcat(big, ",0");
    }
    strcat(big, "};\nstatic const float a = 1.0;\n");
    ok(big);
}
END_TEST

// --- rule 10: overloads in a namespace shadow the global ones ---

START_TEST(test_deeper_overload_wins) {
    ok("float f(float x) { return 1; }\n"                          // 1
       "namespace N {\n"                                           // 2
       "  float f(float x) { return 2; }\n"                        // 3
       "  float g() { return f(1.0); }\n"                          // 4: equal: N::f, deeper
       "  float f2(int x) { return 3; }\n"                         // 5
       "  float h() { return f2(1.0); }\n"                         // 6
       "}\n"                                                       // 7
       "float f2(float x) { return 4; }\n"                         // 8
       "namespace N { float k() { return f2(1.0); } }\n");         // 9: global is exact
    ck_assert_ptr_eq(ret_at("g", 4)->sym, function_at("f", 3));
    ck_assert_ptr_eq(ret_at("h", 6)->sym, function_at("f2", 5));
    ck_assert_ptr_eq(ret_at("k", 9)->sym, function_at("f2", 8));
    // Equally good at the same depth stays ambiguous.
    expect_error("namespace N {\n  float f(int x) { return 1; }\n"
                 "  float f(uint x) { return 2; }\n  float g() { return f(1.5); }\n}\n",
                 "X3067", 4, 22);
    // The reference's overload set is every function no deeper than the one
    // its lookup found, in any namespace: from A, B::f(int) is a candidate
    // and the better match for an int.
    ok("namespace A { float f(float x) { return 1; } }\n"
       "namespace B { float f(int x) { return 2; } }\n"
       "namespace A { float g() { return f(1); } }\n");
    ck_assert_ptr_eq(ret_at("g", 3)->sym, function_at("f", 2));
}
END_TEST

// --- what the reference refuses and fxgl runs, with a warning ---

START_TEST(test_lenient_rules) {
    // An array index must be an integer scalar (X3120).
    expect_lenient("static const float w[3] = {1, 2, 3};\n"
                   "float f(float i) { return w[i]; }\n",
                   "X3120", 2, 29);
    // No call in a global initializer, not even of an intrinsic (X3005).
    expect_lenient("static const float s = 8;\n"
                   "static const int m = int(log(s) / log(2.0)) + 1;\n",
                   "X3005", 2, 26);
    // A pass naming a shader with overloads (X3067): the latest declared.
    expect_lenient("void VS(uint id : SV_VertexID, out float4 p : SV_Position) { p = 0; }\n"
                   "float4 PS(float x) : SV_Target { return x; }\n"
                   "float4 PS(float4 p : SV_Position) : SV_Target { return 1; }\n"
                   "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
                   "X3067", 4, 55);
    fx_pass *pass = fx.prog->techniques[0]->passes;
    const fx_state *ps = pass->states->next;
    ck_assert_int_eq(line_of(ps->value->sym), 3);
}
END_TEST

// --- rules 12 and 13: texture and sampler properties ---

START_TEST(test_property_words) {
    fx_arena *ea = fx_arena_create(0);
    // Any name of the shared table is its number in any property:
    // LINEAR 1, MIRROR 2, CLAMP 3, BORDER 4, case-insensitive.
    const fxgl_effect *e = build(
        "texture T { Width = clamp; Height = Border; MipLevels = LINEAR; Format = R16F; };\n"
        "texture U { Width = 8; MipLevels = Mirror; };\n"
        "sampler S { Texture = T; AddressU = LINEAR; AddressV = 4; MagFilter = POINT; "
        "MinFilter = ANISOTROPIC; };\n", ea);
    if (!e) {
        print_diags();
    }
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq((int)fx.diags.errors, 0);
    ck_assert_int_eq((int)e->texture_count, 2);
    ck_assert_int_eq(e->textures[0].width, 3);
    ck_assert_int_eq(e->textures[0].height, 4);
    ck_assert_int_eq(e->textures[0].levels, 1);
    ck_assert_int_eq(e->textures[0].format, FXGL_FORMAT_R16F);
    ck_assert_int_eq(e->textures[1].levels, 2);
    ck_assert_int_eq(e->samplers[0].address_u, FXGL_ADDRESS_WRAP);
    ck_assert_int_eq(e->samplers[0].address_v, FXGL_ADDRESS_BORDER);
    ck_assert_int_eq(e->samplers[0].mag_filter, FXGL_FILTER_POINT);
    ck_assert_int_eq(e->samplers[0].min_filter, FXGL_FILTER_ANISOTROPIC);
    fx_arena_destroy(ea);
}
END_TEST

START_TEST(test_sampler_state_in_texture) {
    fx_arena *ea = fx_arena_create(0);
    // Reported (X3004) at the property's name, ignored, and the effect loads.
    const fxgl_effect *e = build("texture T { Width = 2; AddressU = CLAMP; MinFilter = POINT; };\n"
                                 "sampler S { Texture = T; };\n", ea);
    if (!e) {
        print_diags();
    }
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq((int)fx.diags.errors, 0);
    const fxgl_diag *d = diag(FXGL_DIAG_WARNING, "X3004");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->line, 1);
    ck_assert_int_eq(d->col, 24);
    ck_assert_ptr_nonnull(strstr(d->message, "AddressU"));
    ck_assert_int_eq(e->textures[0].width, 2);
    ck_assert_int_eq(e->samplers[0].address_u, FXGL_ADDRESS_CLAMP);
    fx_arena_destroy(ea);
}
END_TEST

// --- X4568: interpolation qualifiers of a vertex/pixel pair ---

START_TEST(test_interpolation_mismatch) {
    fx_arena *ea = fx_arena_create(0);
    const fxgl_effect *e = build(
        "void VS(uint id : SV_VertexID, out float4 p : SV_Position,\n"
        "        out nointerpolation float k : TEXCOORD1, out float2 uv : TEXCOORD0) {\n"
        "    p = 0; k = 1; uv = 0; }\n"
        "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD0, float k : TEXCOORD1) : "
        "SV_Target { return k; }\n"
        "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n", ea);
    if (!e) {
        print_diags();
    }
    ck_assert_ptr_nonnull(e);
    const fxgl_diag *d = diag(FXGL_DIAG_WARNING, "X4568");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->line, 4);
    ck_assert_int_eq(d->col, 64);
    ck_assert_ptr_nonnull(strstr(d->message, "ReShade rejects this"));
    // The pixel shader's input now carries the vertex shader's qualifier;
    // uv matched already and is left alone.
    const fx_var_decl *k = function_at("PS", 4)->func->params->next->next;
    ck_assert_str_eq(k->name->str, "k");
    ck_assert(k->type.quals & FX_Q_NOINTERPOLATION);
    ck_assert(!(function_at("PS", 4)->func->params->next->type.quals & FX_Q_NOINTERPOLATION));
    ck_assert_int_eq((int)fx.diags.warnings, 1);
    fx_arena_destroy(ea);
}
END_TEST

static Suite *scope_suite(void) {
    Suite *s = suite_create("scope");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_function_named_like_constant);
    tcase_add_test(tc, test_lookup_by_depth);
    tcase_add_test(tc, test_constant_declared_again);
    tcase_add_test(tc, test_deeper_overload_wins);
    tcase_add_test(tc, test_lenient_rules);
    tcase_add_test(tc, test_property_words);
    tcase_add_test(tc, test_sampler_state_in_texture);
    tcase_add_test(tc, test_interpolation_mismatch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(scope_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
