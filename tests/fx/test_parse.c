/*
 * test_parse.c - unit tests of the FX parser (src/fx/parse.c).
 *
 * One test per construct: a small hand-written effect, then the tree's shape
 * through the S-expression dump (operator precedence, associativity, casts
 * against parentheses) or through the structs, and negative tests with the
 * diagnostic id, line and column worked out by hand. The fixtures under
 * tests/fx/data/parse are whole effects written for these tests.
 */
#include <check.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"

#ifndef FX_TEST_DATA_DIR
#define FX_TEST_DATA_DIR "tests/fx/data/parse"
#endif

typedef struct parse_fixture {
    fx_arena *arena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    bool fatal;                  // fx_fatal was called
    char *dump;                  // last dump (malloc)
} parse_fixture;

static parse_fixture fx;

static void setup(void) {
    memset(&fx, 0, sizeof(fx));
    fx.arena = fx_arena_create(0);
    fxgl_diags_init(&fx.diags);
    fx.ctx = (fx_ctx){.arena = fx.arena, .diags = &fx.diags, .fatal = &fx.jb};
}

static void teardown(void) {
    free(fx.dump);
    fxgl_diags_finish(&fx.diags);
    fx_arena_destroy(fx.arena);
}

static fx_ast *parse_n(const char *src, size_t len) {
    if (setjmp(fx.jb)) {
        fx.fatal = true;
        return NULL;
    }
    return fx_parse(&fx.ctx, src, len, "t.fx");
}

static fx_ast *parse(const char *src) {
    return parse_n(src, strlen(src));
}

static const char *dump_ast(const fx_ast *ast) {
    free(fx.dump);
    size_t size;
    FILE *f = open_memstream(&fx.dump, &size);
    fx_ast_dump(ast, f);
    fclose(f);
    return fx.dump;
}

// The dump of the expression statement in `void f() { EXPR; }`.
static const char *expr(const char *e) {
    char src[1024];
    snprintf(src, sizeof(src), "void f() { %s; }", e);
    fx_ast *ast = parse(src);
    ck_assert_ptr_nonnull(ast);
    ck_assert_uint_eq(fx.diags.errors, 0);
    const fx_stmt *s = ast->decls->func->body->body;
    ck_assert_int_eq(s->kind, FX_STMT_EXPR);
    free(fx.dump);
    size_t size;
    FILE *f = open_memstream(&fx.dump, &size);
    fx_expr_dump(s->expr, f);
    fclose(f);
    return fx.dump;
}

static const fx_stmt *first_stmt(const char *body) {
    char src[2048];
    snprintf(src, sizeof(src), "void f() { %s }", body);
    fx_ast *ast = parse(src);
    ck_assert_ptr_nonnull(ast);
    return ast->decls->func->body->body;
}

static void assert_diag(size_t i, const char *id, int line, int col) {
    ck_assert_uint_gt(fx.diags.count, i);
    ck_assert_str_eq(fx.diags.items[i].id, id);
    ck_assert_int_eq(fx.diags.items[i].line, line);
    ck_assert_int_eq(fx.diags.items[i].col, col);
}

static char *read_fixture(const char *name, size_t *len) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", FX_TEST_DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

// --- expressions ---

START_TEST(test_precedence_mul_over_add) {
    ck_assert_str_eq(expr("a + b * c"), "(+ a (* b c))");
    ck_assert_str_eq(expr("a * b + c"), "(+ (* a b) c)");
    ck_assert_str_eq(expr("a % b / c"), "(/ (% a b) c)");
}
END_TEST

START_TEST(test_left_associativity) {
    ck_assert_str_eq(expr("a - b - c"), "(- (- a b) c)");
    ck_assert_str_eq(expr("a / b * c"), "(* (/ a b) c)");
    ck_assert_str_eq(expr("a << b >> c"), "(>> (<< a b) c)");
}
END_TEST

START_TEST(test_right_associativity) {
    ck_assert_str_eq(expr("a = b = c"), "(= a (= b c))");
    ck_assert_str_eq(expr("a += b -= c"), "(+= a (-= b c))");
    ck_assert_str_eq(expr("a ? b : c ? d : e"), "(? a b (? c d e))");
}
END_TEST

START_TEST(test_full_precedence_ladder) {
    ck_assert_str_eq(expr("a || b && c | d ^ e & f == g < h << i + j * k"),
                     "(|| a (&& b (| c (^ d (& e (== f (< g (<< h (+ i (* j k))))))))))");
    ck_assert_str_eq(expr("a * b + c << d < e == f & g ^ h | i && j || k"),
                     "(|| (&& (| (^ (& (== (< (<< (+ (* a b) c) d) e) f) g) h) i) j) k)");
    ck_assert_str_eq(expr("a != b >= c"), "(!= a (>= b c))");
    ck_assert_str_eq(expr("x = a > b ? a : b"), "(= x (? (> a b) a b))");
}
END_TEST

START_TEST(test_compound_assignments) {
    ck_assert_str_eq(expr("a *= b /= c %= d"), "(*= a (/= b (%= c d)))");
    ck_assert_str_eq(expr("a &= b |= c ^= d <<= e >>= f"),
                     "(&= a (|= b (^= c (<<= d (>>= e f)))))");
}
END_TEST

START_TEST(test_unary_and_postfix) {
    ck_assert_str_eq(expr("-a * b"), "(* (- a) b)");
    ck_assert_str_eq(expr("!~+a"), "(! (~ (+ a)))");
    ck_assert_str_eq(expr("++a + b--"), "(+ (++ a) (post-- b))");
    ck_assert_str_eq(expr("-a.x"), "(- (. a x))");
    ck_assert_str_eq(expr("- -a"), "(- (- a))");
    ck_assert_str_eq(expr("a++--"), "(post-- (post++ a))");
}
END_TEST

START_TEST(test_casts_versus_parentheses) {
    ck_assert_str_eq(expr("(float3)x"), "(cast float3 x)");
    ck_assert_str_eq(expr("(float3)(x)"), "(cast float3 x)");
    ck_assert_str_eq(expr("(x) + y"), "(+ x y)");
    ck_assert_str_eq(expr("(int)a + b"), "(+ (cast int a) b)");
    ck_assert_str_eq(expr("(int)-a"), "(cast int (- a))");
    ck_assert_str_eq(expr("(float2(1, 2) * 3).y"), "(. (* (ctor float2 1 2) 3) y)");
    ck_assert_str_eq(expr("(float)(int)x"), "(cast float (cast int x))");
    ck_assert_str_eq(expr("(vector<float, 2>)x"), "(cast float2 x)");
    fx_ast *ast = parse("void f() { (a + b) * c; }");
    const fx_expr *e = ast->decls->func->body->body->expr;
    ck_assert_int_eq(e->kind, FX_EXPR_BINARY);
    ck_assert_int_eq(e->lhs->kind, FX_EXPR_BINARY);
    ck_assert(e->lhs->flags & FX_EXPR_PARENS);
}
END_TEST

START_TEST(test_struct_cast) {
    fx_ast *ast = parse("struct S { float a; };\nvoid f() { (S)0; (T)0; }");
    ck_assert_uint_eq(fx.diags.errors, 1); // (T) is a parenthesised name, then an error
    const fx_expr *e = ast->decls->next->func->body->body->expr;
    ck_assert_int_eq(e->kind, FX_EXPR_CAST);
    ck_assert_int_eq(e->spec->type.base, FX_TYPE_STRUCT);
    ck_assert_str_eq(e->spec->name.ident->str, "S");
    assert_diag(0, "X3000", 2, 21);
}
END_TEST

START_TEST(test_constructors) {
    ck_assert_str_eq(expr("float4(c, 1)"), "(ctor float4 c 1)");
    ck_assert_str_eq(expr("float2x2(1, 0, 0, 1)"), "(ctor float2x2 1 0 0 1)");
    ck_assert_str_eq(expr("vector<int, 3>(1, 2, 3)"), "(ctor int3 1 2 3)");
    ck_assert_str_eq(expr("matrix<float, 2, 3>(0, 0, 0, 0, 0, 0)"),
                     "(ctor float2x3 0 0 0 0 0 0)");
    ck_assert_str_eq(expr("min16float3(0, 0, 0)"), "(ctor min16float3 0 0 0)");
    ck_assert_str_eq(expr("int(1 + 2 + 4 + 8)"), "(ctor int (+ (+ (+ 1 2) 4) 8))");
}
END_TEST

START_TEST(test_calls_and_namespaces) {
    ck_assert_str_eq(expr("ReShade::GetLinearizedDepth(uv)"),
                     "(call ReShade::GetLinearizedDepth uv)");
    ck_assert_str_eq(expr("::f()"), "(call ::f)");
    ck_assert_str_eq(expr("A::B::c + d"), "(+ A::B::c d)");
    ck_assert_str_eq(expr("lerp(a, b, saturate(t))"), "(call lerp a b (call saturate t))");
    fx_ast *ast = parse("void f() { A::B::g(1); }");
    const fx_expr *e = ast->decls->func->body->body->expr;
    ck_assert_int_eq(e->kind, FX_EXPR_CALL);
    ck_assert_uint_eq(fx_name_depth(&e->name), 2);
    ck_assert_str_eq(e->name.scope->parts[0]->str, "A");
    ck_assert_str_eq(e->name.ident->str, "g");
    ck_assert_uint_eq(e->arg_count, 1);
}
END_TEST

START_TEST(test_members_swizzles_indexing) {
    ck_assert_str_eq(expr("a.b[2].xyz"), "(. ([] (. a b) 2) xyz)");
    ck_assert_str_eq(expr("m._m00_m11 + m._11"), "(+ (. m _m00_m11) (. m _11))");
    ck_assert_str_eq(expr("tex2D(s, uv).rgba.r"), "(. (. (call tex2D s uv) rgba) r)");
    ck_assert_str_eq(expr("a[i][j]"), "([] ([] a i) j)");
    ck_assert_str_eq(expr("f.xxx"), "(. f xxx)");
}
END_TEST

START_TEST(test_comma_and_literals) {
    ck_assert_str_eq(expr("a = 1, b = 2u"), "(, (= a 1) (= b 2u))");
    ck_assert_str_eq(expr("x = 0.5 + 2.0f + 1e3"), "(= x (+ (+ 0.5 2.0) 1000.0))");
    ck_assert_str_eq(expr("x = \"a\" \"b\\n\""), "(= x \"ab\\x0a\")");
    ck_assert_str_eq(expr("x = true || FALSE"), "(= x (|| true false))");
    ck_assert_str_eq(expr("x = 0x10 + 010"), "(= x (+ 16 8))");
}
END_TEST

// Nodes keep only a text offset; the lexer's line map must give back the
// line, column and file of every statement across #line markers and past
// many map strides. Expected positions come from how the text is built.
START_TEST(test_positions_line_map) {
    enum { FIRST = 150, SECOND = 140 };
    char *src = malloc(8192);
    ck_assert_ptr_nonnull(src);
    size_t n = 0;
    n += (size_t)sprintf(src + n, "#line 10 \"a.fxh\"\nvoid f()\n{\n");
    for (int i = 0; i < FIRST; i++) {
        n += (size_t)sprintf(src + n, "%*sv = %d;\n", i % 7, "", i);
    }
    n += (size_t)sprintf(src + n, "#line 500 \"b.fx\"\n");
    for (int i = 0; i < SECOND; i++) {
        n += (size_t)sprintf(src + n, "  /* c\n */ w = %d;\n", i);
    }
    n += (size_t)sprintf(src + n, "}\n");
    fx_ast *ast = parse(src);
    ck_assert_ptr_nonnull(ast);
    ck_assert_int_eq(fx.ctx.errors, 0);
    const fx_stmt *s = ast->decls->func->body->body;
    for (int i = 0; i < FIRST; i++, s = s->next) {
        fx_loc l = fx_lex_loc(ast->lexer, s->expr->loc); // the '='
        ck_assert_str_eq(l.file, "a.fxh");
        ck_assert_int_eq(l.line, 12 + i);
        ck_assert_int_eq(l.col, i % 7 + 3);
    }
    for (int i = 0; i < SECOND; i++, s = s->next) {
        fx_loc l = fx_lex_loc(ast->lexer, s->expr->loc);
        ck_assert_str_eq(l.file, "b.fx");
        ck_assert_int_eq(l.line, 500 + 2 * i + 1); // the comment takes a line
        ck_assert_int_eq(l.col, 7);
    }
    ck_assert_ptr_null(s);
    free(src);
}
END_TEST

START_TEST(test_expression_positions) {
    fx_ast *ast = parse("void f()\n{\n    x = a +\n        b * c;\n}");
    const fx_expr *e = ast->decls->func->body->body->expr;
    const fx_lexer *lx = ast->lexer;
    ck_assert_int_eq(fx_lex_loc(lx, e->loc).line, 3); // '='
    ck_assert_int_eq(fx_lex_loc(lx, e->loc).col, 7);
    ck_assert_int_eq(fx_lex_loc(lx, e->rhs->loc).line, 3); // '+'
    ck_assert_int_eq(fx_lex_loc(lx, e->rhs->loc).col, 11);
    ck_assert_int_eq(fx_lex_loc(lx, e->rhs->rhs->loc).line, 4); // '*'
    ck_assert_int_eq(fx_lex_loc(lx, e->rhs->rhs->loc).col, 11);
    ck_assert_int_eq(fx_lex_loc(lx, e->rhs->rhs->lhs->loc).col, 9); // b
    ck_assert_str_eq(fx_lex_loc(lx, e->loc).file, "t.fx");
    ck_assert_int_eq(fx_lex_loc(lx, FX_POS_NONE).line, 0);
}
END_TEST

// --- declarations ---

START_TEST(test_namespaces) {
    fx_ast *ast = parse("namespace A { namespace B { float x; } float y; }\nnamespace C { }");
    ck_assert_uint_eq(fx.diags.errors, 0);
    const fx_decl *a = ast->decls;
    ck_assert_int_eq(a->kind, FX_DECL_NAMESPACE);
    ck_assert_str_eq(a->ns_name->str, "A");
    ck_assert_int_eq(a->items->kind, FX_DECL_NAMESPACE);
    ck_assert_str_eq(a->items->items->vars->name->str, "x");
    ck_assert_str_eq(a->items->next->vars->name->str, "y");
    ck_assert_ptr_null(a->next->items);
    ck_assert_str_eq(dump_ast(ast), "(namespace A\n  (namespace B\n    (vars (var float x)))\n"
                                    "  (vars (var float y)))\n(namespace C)\n");
}
END_TEST

START_TEST(test_struct_with_semantics) {
    fx_ast *ast = parse("struct V { float4 pos : SV_Position; float2 a, b[2] : TEXCOORD1; };\n"
                        "struct { int x; };");
    ck_assert_uint_eq(fx.diags.errors, 0);
    const fx_struct_decl *s = ast->decls->strct;
    ck_assert_str_eq(s->name->str, "V");
    ck_assert_uint_eq(s->member_count, 3);
    ck_assert_str_eq(s->members->semantic->str, "SV_Position");
    ck_assert_ptr_null(s->members->next->semantic);
    ck_assert(s->members->next->next->is_array);
    ck_assert_str_eq(s->members->next->next->semantic->str, "TEXCOORD1");
    ck_assert(s->name->flags & FX_IDENT_STRUCT);
    ck_assert_ptr_null(ast->decls->next->strct->name);
}
END_TEST

START_TEST(test_function_attributes_params_semantics) {
    fx_ast *ast = parse("[shader(\"pixel\")] [numthreads(8, 8, 1)]\n"
                        "float4 PS(float4 pos : SV_Position, in out float k, out float2 o,\n"
                        "          nointerpolation int n : TEXCOORD1, uniform float u,\n"
                        "          linear noperspective float l = 1.5) : SV_Target\n"
                        "{ return 0; }");
    ck_assert_uint_eq(fx.diags.count, 0);
    const fx_func_decl *f = ast->decls->func;
    ck_assert_str_eq(f->name->str, "PS");
    ck_assert_str_eq(f->attrs->name->str, "shader");
    ck_assert_int_eq(f->attrs->args->kind, FX_EXPR_STRING);
    ck_assert_str_eq(f->attrs->next->name->str, "numthreads");
    ck_assert_uint_eq(f->attrs->next->arg_count, 3);
    ck_assert_uint_eq(f->param_count, 6);
    const fx_var_decl *p = f->params;
    ck_assert_str_eq(p->semantic->str, "SV_Position");
    p = p->next;
    ck_assert_uint_eq(p->spec.type.quals, FX_Q_INOUT);
    p = p->next;
    ck_assert_uint_eq(p->spec.type.quals, FX_Q_OUT);
    ck_assert_int_eq(p->spec.type.rows, 2);
    p = p->next;
    ck_assert_uint_eq(p->spec.type.quals, FX_Q_NOINTERPOLATION);
    ck_assert_int_eq(p->spec.type.base, FX_TYPE_INT);
    p = p->next;
    ck_assert_uint_eq(p->spec.type.quals, FX_Q_UNIFORM);
    p = p->next;
    ck_assert_uint_eq(p->spec.type.quals, FX_Q_LINEAR | FX_Q_NOPERSPECTIVE);
    ck_assert_int_eq(p->init->kind, FX_EXPR_FLOAT);
    ck_assert_str_eq(f->ret_semantic->str, "SV_Target");
    ck_assert_int_eq(fx_lex_loc(ast->lexer, f->ret_semantic_loc).line, 4);
    ck_assert_int_eq(fx_lex_loc(ast->lexer, f->ret_semantic_loc).col, 49);
    ck_assert_int_eq(f->body->kind, FX_STMT_BLOCK);
}
END_TEST

START_TEST(test_struct_typed_function_and_params) {
    fx_ast *ast = parse("struct V { float4 p : SV_Position; };\n"
                        "V VS(uint id : SV_VertexID) { V o; o.p = 0; return o; }\n"
                        "float4 PS(V i) : SV_Target { return i.p; }");
    ck_assert_uint_eq(fx.diags.errors, 0);
    const fx_func_decl *vs = ast->decls->next->func;
    ck_assert_int_eq(vs->ret.type.base, FX_TYPE_STRUCT);
    ck_assert_str_eq(vs->ret.name.ident->str, "V");
    ck_assert_int_eq(vs->body->body->kind, FX_STMT_DECL);
    ck_assert_str_eq(vs->body->body->decls->spec.name.ident->str, "V");
    const fx_func_decl *ps = ast->decls->next->next->func;
    ck_assert_str_eq(ps->params->spec.name.ident->str, "V");
}
END_TEST

START_TEST(test_uniform_annotations) {
    fx_ast *ast = parse("uniform float S < ui_type = \"slider\"; ui_min = -1.0; ui_max = 1;\n"
                        "  ui_items = \"a\\0\" \"b\\0\"; custom = { 1, 2 };"
                        " hidden = true; > = 0.5;");
    ck_assert_uint_eq(fx.diags.count, 0);
    const fx_var_decl *v = ast->decls->vars;
    ck_assert_uint_eq(v->spec.type.quals, FX_Q_UNIFORM);
    ck_assert_str_eq(dump_ast(ast),
                     "(vars (var uniform float S (annotations (ui_type \"slider\") "
                     "(ui_min (- 1.0)) (ui_max 1) (ui_items \"a\\x00b\\x00\") "
                     "(custom ({} 1 2)) (hidden true)) = 0.5))\n");
    const fx_state *items = v->annotations->next->next->next;
    ck_assert_uint_eq(items->value->value.str_len, 4);
}
END_TEST

START_TEST(test_annotation_type_prefix_warns) {
    fx_ast *ast = parse("uniform int X <\n  string ui_label = \"x\"; >;");
    ck_assert_uint_eq(fx.diags.errors, 0);
    assert_diag(0, "X4717", 2, 3);
    ck_assert_int_eq(fx.diags.items[0].severity, FXGL_DIAG_WARNING);
    ck_assert_str_eq(ast->decls->vars->annotations->name->str, "ui_label");
    ck_assert_ptr_nonnull(ast->decls->vars->annotations->spec);
}
END_TEST

START_TEST(test_initializers) {
    fx_ast *ast = parse("static const float3 A = float3(1, 2, 3);\n"
                        "static const float B[] = { 1, 2, 3, };\n"
                        "static const float2 C[2] = { { 1, 2 }, float2(3, 4) };\n"
                        "float D = 1, E, F[3];");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_str_eq(dump_ast(ast),
                     "(vars (var static const float3 A = (ctor float3 1 2 3)))\n"
                     "(vars (var static const float B[] = ({} 1 2 3)))\n"
                     "(vars (var static const float2 C[2] = ({} ({} 1 2) (ctor float2 3 4))))\n"
                     "(vars (var float D = 1) (var float E) (var float F[3]))\n");
    const fx_var_decl *b = ast->decls->next->vars;
    ck_assert(b->is_array);
    ck_assert_ptr_null(b->array_size);
    ck_assert_uint_eq(b->init->arg_count, 3);
}
END_TEST

START_TEST(test_textures_samplers_storages) {
    fx_ast *ast = parse("texture2D T : COLOR;\n"
                        "texture3D L < source = \"lut.png\"; pooled = true; >\n"
                        "  { Width = BUFFER_WIDTH / 2; Height = 32; Depth = 32;\n"
                        "    Format = RGBA16F; };\n"
                        "sampler2D<int4> S { Texture = L; AddressU = CLAMP; MinFilter = LINEAR;\n"
                        "  MagFilter = linear; MipLODBias = -0.5; };\n"
                        "storage3D<uint> W { Texture = L; };\n"
                        "texture E { };");
    ck_assert_uint_eq(fx.diags.count, 0);
    const fx_decl *d = ast->decls;
    ck_assert_str_eq(d->vars->semantic->str, "COLOR");
    ck_assert(!d->vars->has_props);
    d = d->next;
    ck_assert_int_eq(d->vars->spec.type.base, FX_TYPE_TEXTURE3D);
    ck_assert_str_eq(d->vars->annotations->name->str, "source");
    ck_assert_str_eq(d->vars->props->name->str, "Width");
    ck_assert_str_eq(d->vars->props->next->next->next->value->name.ident->str, "RGBA16F");
    d = d->next;
    ck_assert_int_eq(d->vars->spec.type.elem_base, FX_TYPE_INT);
    ck_assert_int_eq(d->vars->spec.type.elem_rows, 4);
    ck_assert_str_eq(dump_ast(ast) + strlen("(vars (var texture2D<float4> T : COLOR))\n"),
                     "(vars (var texture3D<float4> L (annotations (source \"lut.png\") "
                     "(pooled true)) (props (Width (/ BUFFER_WIDTH 2)) (Height 32) (Depth 32) "
                     "(Format RGBA16F))))\n"
                     "(vars (var sampler2D<int4> S (props (Texture L) (AddressU CLAMP) "
                     "(MinFilter LINEAR) (MagFilter linear) (MipLODBias (- 0.5)))))\n"
                     "(vars (var storage3D<uint> W (props (Texture L))))\n"
                     "(vars (var texture2D<float4> E (props)))\n");
    ck_assert(ast->decls->next->next->next->next->vars->has_props);
}
END_TEST

START_TEST(test_techniques_and_passes) {
    fx_ast *ast = parse(
        "technique T < ui_tooltip = \"tip\"; toggle = 0x2E; >\n"
        "{\n"
        "    pass { VertexShader = PostProcessVS; PixelShader = NS::PS; }\n"
        "    pass P1 { ComputeShader = CS<8, 8, 1>; DispatchSizeX = BUFFER_WIDTH / 8;\n"
        "              DispatchSizeY = 2; }\n"
        "    pass P2 { RenderTarget0 = A; RenderTarget7 = B; RenderTargetWriteMask = int(1 + 2);\n"
        "              BlendEnable = TRUE; SrcBlend = SRCALPHA; StencilRef = 1; "
        "VertexCount = 3 * (4 + 1); }\n"
        "}\n"
        "technique U { pass { ComputeShader = CS2<uint2(64, 1).x, 1>; } }");
    ck_assert_uint_eq(fx.diags.count, 0);
    const fx_technique *t = ast->decls->tech;
    ck_assert_str_eq(t->name->str, "T");
    ck_assert_uint_eq(t->pass_count, 3);
    ck_assert_ptr_null(t->passes->name);
    ck_assert_str_eq(t->passes->next->name->str, "P1");
    const fx_state *cs = t->passes->next->states;
    ck_assert_uint_eq(cs->targ_count, 3);
    ck_assert_str_eq(dump_ast(ast),
                     "(technique T (annotations (ui_tooltip \"tip\") (toggle 46))\n"
                     "  (pass (states (VertexShader PostProcessVS) (PixelShader NS::PS)))\n"
                     "  (pass P1 (states (ComputeShader CS <8 8 1>) "
                     "(DispatchSizeX (/ BUFFER_WIDTH 8)) (DispatchSizeY 2)))\n"
                     "  (pass P2 (states (RenderTarget0 A) (RenderTarget7 B) "
                     "(RenderTargetWriteMask (ctor int (+ 1 2))) (BlendEnable true) "
                     "(SrcBlend SRCALPHA) (StencilRef 1) (VertexCount (* 3 (+ 4 1))))))\n"
                     "(technique U\n"
                     "  (pass (states (ComputeShader CS2 <(. (ctor uint2 64 1) x) 1>))))\n");
}
END_TEST

START_TEST(test_stray_semicolons_and_pragmas) {
    fx_ast *ast = parse("#pragma warning(disable : 3571)\n;;float x;;\n;");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_str_eq(dump_ast(ast),
                     "(pragma \"warning(disable : 3571)\")\n(vars (var float x))\n");
}
END_TEST

START_TEST(test_global_qualifiers) {
    fx_ast *ast = parse("static const int A = 1; groupshared uint G[64]; extern volatile float V;"
                        " precise float P;");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_uint_eq(ast->decls->vars->spec.type.quals, FX_Q_STATIC | FX_Q_CONST);
    ck_assert_uint_eq(ast->decls->next->vars->spec.type.quals, FX_Q_GROUPSHARED);
    ck_assert_uint_eq(ast->decls->next->next->vars->spec.type.quals,
                      FX_Q_EXTERN | FX_Q_VOLATILE);
    ck_assert_uint_eq(ast->decls->next->next->next->vars->spec.type.quals, FX_Q_PRECISE);
}
END_TEST

// --- statements ---

START_TEST(test_if_else) {
    const fx_stmt *s = first_stmt("if (a) b = 1; else if (c) { d(); } else discard;");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_int_eq(s->kind, FX_STMT_IF);
    ck_assert_int_eq(s->body->kind, FX_STMT_EXPR);
    ck_assert_int_eq(s->els->kind, FX_STMT_IF);
    ck_assert_int_eq(s->els->body->kind, FX_STMT_BLOCK);
    ck_assert_int_eq(s->els->els->kind, FX_STMT_DISCARD);
}
END_TEST

START_TEST(test_switch) {
    const fx_stmt *s = first_stmt("switch (m) { case 0: case 1 + 1: x = 1; break;\n"
                                  "default: case 3: { return; } }");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_int_eq(s->kind, FX_STMT_SWITCH);
    const fx_stmt *c = s->body;
    ck_assert_int_eq(c->kind, FX_STMT_CASE);
    ck_assert_uint_eq(c->count, 2);
    ck_assert(!c->has_default);
    ck_assert_int_eq(c->expr->next->kind, FX_EXPR_BINARY);
    ck_assert_int_eq(c->body->kind, FX_STMT_EXPR);
    ck_assert_int_eq(c->body->next->kind, FX_STMT_BREAK);
    c = c->next;
    ck_assert(c->has_default);
    ck_assert_uint_eq(c->count, 1);
    ck_assert_int_eq(c->body->kind, FX_STMT_BLOCK);
    ck_assert_ptr_null(c->next);
}
END_TEST

START_TEST(test_for_loops) {
    const fx_stmt *s = first_stmt("for (int i = 0, j = 1; i < 4; i++, j--) x += i;\n"
                                  "for (i = 0; ; ) break;\n"
                                  "for (;;) continue;");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_int_eq(s->kind, FX_STMT_FOR);
    ck_assert_int_eq(s->init->kind, FX_STMT_DECL);
    ck_assert_str_eq(s->init->decls->next->name->str, "j");
    ck_assert_int_eq(s->expr->kind, FX_EXPR_BINARY);
    ck_assert_int_eq(s->inc->kind, FX_EXPR_COMMA);
    s = s->next;
    ck_assert_int_eq(s->init->kind, FX_STMT_EXPR);
    ck_assert_ptr_null(s->expr);
    ck_assert_ptr_null(s->inc);
    ck_assert_int_eq(s->body->kind, FX_STMT_BREAK);
    s = s->next;
    ck_assert_ptr_null(s->init);
    ck_assert_int_eq(s->body->kind, FX_STMT_CONTINUE);
}
END_TEST

START_TEST(test_while_do_return) {
    const fx_stmt *s = first_stmt("while (i < 3) i++; do { i--; } while (i); return; return a, b;");
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_int_eq(s->kind, FX_STMT_WHILE);
    ck_assert_int_eq(s->next->kind, FX_STMT_DO);
    ck_assert_int_eq(s->next->expr->kind, FX_EXPR_NAME);
    ck_assert_ptr_null(s->next->next->expr);
    ck_assert_int_eq(s->next->next->next->expr->kind, FX_EXPR_COMMA);
}
END_TEST

START_TEST(test_local_declarations) {
    const fx_stmt *s = first_stmt("float a = 1, b[2] = { 1, 2 }, c; const int n = 3;\n"
                                  "NS::T t; S s; float4(1, 2, 3, 4); a b;");
    ck_assert_int_eq(s->kind, FX_STMT_DECL);
    ck_assert_str_eq(s->decls->next->name->str, "b");
    ck_assert(s->decls->next->is_array);
    ck_assert_str_eq(s->decls->next->next->name->str, "c");
    s = s->next;
    ck_assert_uint_eq(s->decls->spec.type.quals, FX_Q_CONST);
    s = s->next;
    ck_assert_int_eq(s->kind, FX_STMT_DECL);
    ck_assert_str_eq(s->decls->spec.name.scope->parts[0]->str, "NS");
    s = s->next;
    ck_assert_int_eq(s->kind, FX_STMT_DECL);
    s = s->next;
    ck_assert_int_eq(s->kind, FX_STMT_EXPR); // a constructor call, not a declaration
    ck_assert_int_eq(s->next->kind, FX_STMT_DECL); // `a b;` declares b of type a
    ck_assert_uint_eq(fx.diags.count, 0);
}
END_TEST

START_TEST(test_statement_attributes) {
    const fx_stmt *s = first_stmt("[unroll] for (;;) ; [unroll(4)] while (a) ;"
                                  "[loop] do ; while (a);"
                                  "[fastopt] for (;;) ; [flatten] if (a) ; [branch] if (a) ;"
                                  "[forcecase] switch (a) { default: break; }"
                                  "[call] switch (a) { }");
    ck_assert_uint_eq(fx.diags.count, 0);
    static const char *names[] = {"unroll", "unroll", "loop", "fastopt",
                                  "flatten", "branch", "forcecase", "call"};
    for (size_t i = 0; i < 8; i++, s = s->next) {
        ck_assert_ptr_nonnull(s->attrs);
        ck_assert_str_eq(s->attrs->name->str, names[i]);
    }
    s = first_stmt("[unroll(4)] for (;;) ;");
    ck_assert_uint_eq(s->attrs->arg_count, 1);
    ck_assert_uint_eq(s->attrs->args->value.ival, 4);
}
END_TEST

START_TEST(test_unknown_and_conflicting_attributes) {
    parse("void f() {\n  [unrol] for (;;) ;\n  [unroll] [loop] for (;;) ;\n"
          "  [branch][flatten] if (a) ; }");
    assert_diag(0, "X3554", 2, 4);
    ck_assert_int_eq(fx.diags.items[0].severity, FXGL_DIAG_WARNING);
    ck_assert_str_eq(fx.diags.items[0].message, "unknown attribute 'unrol'");
    assert_diag(1, "X3524", 3, 13);
    ck_assert_str_eq(fx.diags.items[1].message,
                     "can't use 'unroll' and 'loop' attributes together");
    assert_diag(2, "X3524", 4, 12);
    ck_assert_uint_eq(fx.diags.errors, 2);
}
END_TEST

START_TEST(test_fixture_full_effect) {
    size_t len;
    char *src = read_fixture("full_effect.fx", &len);
    fx_ast *ast = parse_n(src, len);
    ck_assert_ptr_nonnull(ast);
    for (size_t i = 0; i < fx.diags.count; i++) {
        fprintf(stderr, "%s(%d, %d): %s\n", fx.diags.items[i].file, fx.diags.items[i].line,
                fx.diags.items[i].col, fx.diags.items[i].message);
    }
    ck_assert_uint_eq(fx.diags.count, 0);
    int kinds[5] = {0};
    for (const fx_decl *d = ast->decls; d; d = d->next) {
        kinds[d->kind]++;
    }
    ck_assert_int_eq(kinds[FX_DECL_NAMESPACE], 1);
    ck_assert_int_eq(kinds[FX_DECL_STRUCT], 1);
    ck_assert_int_eq(kinds[FX_DECL_FUNC], 4);
    ck_assert_int_eq(kinds[FX_DECL_VARS], 9);
    ck_assert_int_eq(kinds[FX_DECL_TECHNIQUE], 1);
    ck_assert_str_eq(ast->pragmas->loc.file, "full_effect.fx");
    free(src);
}
END_TEST

START_TEST(test_fixture_statements) {
    size_t len;
    char *src = read_fixture("statements.fx", &len);
    fx_ast *ast = parse_n(src, len);
    ck_assert_uint_eq(fx.diags.count, 0);
    ck_assert_uint_eq(ast->decls->func->body->count, 7);
    free(src);
}
END_TEST

// --- errors ---

START_TEST(test_missing_semicolon) {
    parse("void f()\n{\n    float x = 1\n    x = 2;\n}");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3000", 4, 5);
    ck_assert_str_eq(fx.diags.items[0].message, "syntax error: unexpected 'x', expected ';'");
}
END_TEST

START_TEST(test_missing_brace_names_opener) {
    parse("void f()\n{\n    x = 1;\n\ntechnique T { }");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3000", 5, 1);
    ck_assert_str_eq(fx.diags.items[0].message,
                     "syntax error: unexpected 'technique', expected '}' (to close '{' at line 2)");
}
END_TEST

START_TEST(test_missing_paren_at_end) {
    parse("float x = (1 +\n 2;");
    ck_assert_uint_gt(fx.diags.errors, 0);
    assert_diag(0, "X3000", 2, 3);
    ck_assert_str_eq(fx.diags.items[0].message,
                     "syntax error: unexpected ';', expected ')' (to close '(' at line 1)");
}
END_TEST

START_TEST(test_unexpected_top_level) {
    fx_ast *ast = parse("float a;\n+ b;\n}\nfloat c;");
    ck_assert_uint_eq(fx.diags.errors, 2);
    assert_diag(0, "X3000", 2, 1);
    ck_assert_str_eq(fx.diags.items[0].message, "syntax error: unexpected '+'");
    assert_diag(1, "X3000", 3, 1);
    ck_assert_str_eq(ast->decls->next->vars->name->str, "c");
}
END_TEST

START_TEST(test_several_errors_recovered) {
    fx_ast *ast = parse("void f() { x = ; }\n"
                        "void g() { y = 1 2; z = 3; }\n"
                        "float h(float a { }\n"
                        "float ok;\n"
                        "technique T { pass { PixelShader = ; VertexShader = VS; } }");
    ck_assert_uint_eq(fx.diags.errors, 4);
    assert_diag(0, "X3000", 1, 16);
    ck_assert_str_eq(fx.diags.items[0].message,
                     "syntax error: unexpected ';', expected expression");
    assert_diag(1, "X3000", 2, 18);
    assert_diag(2, "X3000", 3, 17);
    assert_diag(3, "X3000", 5, 36);
    int vars = 0;
    const fx_technique *t = NULL;
    for (const fx_decl *d = ast->decls; d; d = d->next) {
        vars += d->kind == FX_DECL_VARS;
        if (d->kind == FX_DECL_TECHNIQUE) {
            t = d->tech;
        }
    }
    ck_assert_int_eq(vars, 1);
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->passes->states->name->str, "VertexShader"); // the good state is kept
}
END_TEST

START_TEST(test_multi_dimensional_array) {
    parse("float a[2][3];");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3119", 1, 11);
}
END_TEST

START_TEST(test_prototype_rejected) {
    parse("float4 PS(float2 uv : TEXCOORD) : SV_Target;\nfloat x;");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3510", 1, 8);
    ck_assert_str_eq(fx.diags.items[0].message, "'PS': function is missing an implementation");
}
END_TEST

START_TEST(test_vector_matrix_template_errors) {
    parse("vector<float, 5> a;\nmatrix<float, 2, 0> b;\nvector<float2, 2> c;\n"
          "sampler2D<float4x4> s { };");
    ck_assert_uint_eq(fx.diags.errors, 4);
    assert_diag(0, "X3052", 1, 15);
    assert_diag(1, "X3053", 2, 18);
    assert_diag(2, "X3122", 3, 8);
    assert_diag(3, "P_OBJECT_ELEMENT", 4, 11);
    ck_assert_str_eq(fx.diags.items[3].message,
                     "element type of 'sampler2D' must be a numeric scalar or vector type");
}
END_TEST

START_TEST(test_reserved_type_name) {
    fx_ast *ast = parse("half4 c;\nfloat x;");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3000", 1, 1);
    ck_assert_str_eq(fx.diags.items[0].message, "'half4' is reserved");
    ck_assert(ast->decls->vars->spec.name.ident->flags & FX_IDENT_RESERVED);
}
END_TEST

START_TEST(test_case_outside_label) {
    parse("void f() { switch (a) { x = 1; case 1: break; } }");
    ck_assert_uint_eq(fx.diags.errors, 1);
    assert_diag(0, "X3000", 1, 25);
    ck_assert_str_eq(fx.diags.items[0].message,
                     "syntax error: unexpected 'x', expected 'case' or 'default'");
}
END_TEST

START_TEST(test_error_cap_is_fatal) {
    char src[4096] = "";
    for (int i = 0; i < 40; i++) {
        strcat(src, "float = ;\n");
    }
    parse(src);
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].id, "TOO_MANY_ERRORS");
}
END_TEST

START_TEST(test_deep_nesting_limited) {
    size_t n = 100000;
    char *src = malloc(n * 2 + 64);
    strcpy(src, "float x = ");
    size_t len = strlen(src);
    memset(src + len, '(', n);
    len += n;
    memcpy(src + len, "1;", 3);
    parse(src);
    ck_assert(fx.fatal);
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].id, "LIMIT");
    ck_assert_str_eq(fx.diags.items[fx.diags.count - 1].message,
                     "too many nested expressions and statements (limit is 256)");
    // Blocks and unary chains are bounded the same way.
    strcpy(src, "void f() ");
    len = strlen(src);
    memset(src + len, '{', n);
    src[len + n] = '\0';
    teardown();
    setup();
    parse(src);
    ck_assert(fx.fatal);
    strcpy(src, "float y = ");
    len = strlen(src);
    memset(src + len, '-', n);
    memcpy(src + len + n, "1;", 3);
    teardown();
    setup();
    parse(src);
    ck_assert(fx.fatal);
    free(src);
}
END_TEST

START_TEST(test_garbage_never_crashes) {
    static const char alphabet[] = "(){}[];,.:<>=+-*/?\"'#\\ \n\tfloat x if for technique pass "
                                   "struct namespace 1.5 0x 09 \"str\\\" [unroll] < > ::";
    unsigned seed = 12345;
    for (int round = 0; round < 300; round++) {
        char src[600];
        size_t len = 0;
        for (; len < sizeof(src) - 1; len++) {
            seed = seed * 1103515245u + 12345u;
            if (round % 3 == 0) {
                src[len] = (char)(seed >> 16);  // raw bytes, NUL included
            } else {
                src[len] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
            }
        }
        teardown();
        setup();
        fx_ast *ast = parse_n(src, len);
        if (ast) {
            FILE *f = fopen("/dev/null", "w");
            fx_ast_dump(ast, f);
            fclose(f);
        }
    }
}
END_TEST

static Suite *parse_suite(void) {
    Suite *s = suite_create("parse");
    TCase *e = tcase_create("expressions");
    tcase_add_checked_fixture(e, setup, teardown);
    tcase_add_test(e, test_precedence_mul_over_add);
    tcase_add_test(e, test_left_associativity);
    tcase_add_test(e, test_right_associativity);
    tcase_add_test(e, test_full_precedence_ladder);
    tcase_add_test(e, test_compound_assignments);
    tcase_add_test(e, test_unary_and_postfix);
    tcase_add_test(e, test_casts_versus_parentheses);
    tcase_add_test(e, test_struct_cast);
    tcase_add_test(e, test_constructors);
    tcase_add_test(e, test_calls_and_namespaces);
    tcase_add_test(e, test_members_swizzles_indexing);
    tcase_add_test(e, test_comma_and_literals);
    tcase_add_test(e, test_expression_positions);
    tcase_add_test(e, test_positions_line_map);
    suite_add_tcase(s, e);

    TCase *d = tcase_create("declarations");
    tcase_add_checked_fixture(d, setup, teardown);
    tcase_add_test(d, test_namespaces);
    tcase_add_test(d, test_struct_with_semantics);
    tcase_add_test(d, test_function_attributes_params_semantics);
    tcase_add_test(d, test_struct_typed_function_and_params);
    tcase_add_test(d, test_uniform_annotations);
    tcase_add_test(d, test_annotation_type_prefix_warns);
    tcase_add_test(d, test_initializers);
    tcase_add_test(d, test_textures_samplers_storages);
    tcase_add_test(d, test_techniques_and_passes);
    tcase_add_test(d, test_stray_semicolons_and_pragmas);
    tcase_add_test(d, test_global_qualifiers);
    tcase_add_test(d, test_fixture_full_effect);
    suite_add_tcase(s, d);

    TCase *st = tcase_create("statements");
    tcase_add_checked_fixture(st, setup, teardown);
    tcase_add_test(st, test_if_else);
    tcase_add_test(st, test_switch);
    tcase_add_test(st, test_for_loops);
    tcase_add_test(st, test_while_do_return);
    tcase_add_test(st, test_local_declarations);
    tcase_add_test(st, test_statement_attributes);
    tcase_add_test(st, test_unknown_and_conflicting_attributes);
    tcase_add_test(st, test_fixture_statements);
    suite_add_tcase(s, st);

    TCase *er = tcase_create("errors");
    tcase_add_checked_fixture(er, setup, teardown);
    tcase_set_timeout(er, 60);
    tcase_add_test(er, test_missing_semicolon);
    tcase_add_test(er, test_missing_brace_names_opener);
    tcase_add_test(er, test_missing_paren_at_end);
    tcase_add_test(er, test_unexpected_top_level);
    tcase_add_test(er, test_several_errors_recovered);
    tcase_add_test(er, test_multi_dimensional_array);
    tcase_add_test(er, test_prototype_rejected);
    tcase_add_test(er, test_vector_matrix_template_errors);
    tcase_add_test(er, test_reserved_type_name);
    tcase_add_test(er, test_case_outside_label);
    tcase_add_test(er, test_error_cap_is_fatal);
    tcase_add_test(er, test_deep_nesting_limited);
    tcase_add_test(er, test_garbage_never_crashes);
    suite_add_tcase(s, er);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(parse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
