/*
 * parse.c - recursive-descent parser from tokens to the FX syntax tree.
 *
 * One function per grammar rule, each headed by its rule in EBNF
 * ({} repetition, [] option, | alternatives, 'x' a token). Binary operators
 * go through one precedence table and one loop (Lua's subexpr), so HLSL's C
 * precedence can be checked in one place. The parser knows no types beyond
 * the syntax: it remembers which names were declared as structs (for casts
 * like `(S)x`), and otherwise tells declarations from expressions by shape
 * (`a b` can only start a declaration).
 *
 * Errors: the first problem in a construct is reported; the parser then stays
 * quiet until it resynchronises at a ';', a '}' or a top-level keyword, so
 * one mistake gives one message and later constructs are still checked.
 * Recursion is bounded by FX_LIMIT_NESTING (fatal through fx_limit).
 * Tokens are read on demand into a small look-ahead ring; nodes copy the
 * token position they need, so no token array is ever built.
 */
#include <stdio.h>
#include <string.h>

#include "fx_ast.h"

#define LOOKAHEAD 16             // tokens of look-ahead (a power of two)

typedef struct fx_parser {
    fx_ctx *ctx;                 // borrowed
    fx_lexer *lx;                // owned by the tree (arena)
    fx_token ring[LOOKAHEAD];    // look-ahead tokens, ring[first] is the current one
    unsigned first;              // index of the current token
    unsigned count;              // tokens in the ring
    fx_pos prev_loc;             // position of the last consumed token
    int depth;                   // current nesting (expressions, statements, namespaces)
    bool recovering;             // an error was reported; quiet until resynchronised
} fx_parser;

// --- tokens ---

// A token's position as tree nodes keep it.
static fx_pos tpos(const fx_token *t) {
    return (fx_pos){t->offset};
}

static const fx_token *peek(fx_parser *p, unsigned n) {
    while (p->count <= n) {
        fx_lex_next(p->lx, &p->ring[(p->first + p->count) % LOOKAHEAD]);
        p->count++;
    }
    return &p->ring[(p->first + n) % LOOKAHEAD];
}

static const fx_token *tok(fx_parser *p) {
    return peek(p, 0);
}

static bool at(fx_parser *p, int kind) {
    return tok(p)->kind == kind;
}

static void advance(fx_parser *p) {
    const fx_token *t = tok(p);
    p->prev_loc = tpos(t);
    if (t->kind == FX_TOK_EOF) {
        return; // EOF repeats forever
    }
    p->first = (p->first + 1) % LOOKAHEAD;
    p->count--;
}

static bool accept(fx_parser *p, int kind) {
    if (at(p, kind)) {
        advance(p);
        return true;
    }
    return false;
}

static fx_pos here(fx_parser *p) {
    return tpos(tok(p));
}

// --- diagnostics ---

static void describe(const fx_token *t, char *buf, size_t size) {
    if (t->kind == FX_TOK_EOF) {
        snprintf(buf, size, "end of file");
    } else {
        int n = t->len > 40 ? 40 : (int)t->len;
        snprintf(buf, size, "'%.*s%s'", n, t->text, t->len > 40 ? "..." : "");
    }
}

// Reports the current token as unexpected; `expected` may be NULL.
static void error_unexpected(fx_parser *p, const char *expected) {
    if (p->recovering) {
        return;
    }
    p->recovering = true;
    char desc[64];
    describe(tok(p), desc, sizeof(desc));
    if (expected) {
        fx_lex_report(p->ctx, FX_D_EXPECTED, &tok(p)->loc, desc, expected);
    } else {
        fx_lex_report(p->ctx, FX_D_SYNTAX, &tok(p)->loc, desc);
    }
}

static void report(fx_parser *p, fx_syntax_diag d, fx_pos pos, const char *arg) {
    fx_loc loc = fx_lex_loc(p->lx, pos);
    fx_lex_report(p->ctx, d, &loc, arg);
}

static bool expect(fx_parser *p, int kind) {
    if (accept(p, kind)) {
        p->recovering = false;
        return true;
    }
    char buf[2], quoted[16];
    snprintf(quoted, sizeof(quoted), "'%s'", fx_tok_spelling(kind, buf));
    error_unexpected(p, quoted);
    return false;
}

// Expects the token closing `open` (which was at open_loc), naming the opener
// when the two are on different lines.
static bool expect_close(fx_parser *p, int kind, int open, fx_pos open_pos) {
    fx_loc open_loc_ = fx_lex_loc(p->lx, open_pos);
    const fx_loc *open_loc = &open_loc_;
    if (accept(p, kind)) {
        p->recovering = false;
        return true;
    }
    if (open_loc->line == tok(p)->loc.line || p->recovering) {
        return expect(p, kind);
    }
    p->recovering = true;
    char desc[64], b1[2], b2[2];
    describe(tok(p), desc, sizeof(desc));
    fx_lex_report(p->ctx, FX_D_EXPECTED_CLOSE, &tok(p)->loc, desc, fx_tok_spelling(kind, b1),
                  fx_tok_spelling(open, b2), open_loc->line);
    return false;
}

static fx_ident *expect_ident(fx_parser *p) {
    if (at(p, FX_TOK_IDENT)) {
        fx_ident *id = tok(p)->ident;
        advance(p);
        p->recovering = false;
        return id;
    }
    error_unexpected(p, "identifier");
    return NULL;
}

static void enter(fx_parser *p) {
    if (++p->depth > FX_LIMIT_NESTING) {
        const fx_loc *l = &tok(p)->loc;
        fx_limit(p->ctx, l->file, l->line, l->col, "nested expressions and statements",
                 FX_LIMIT_NESTING);
    }
}

static void leave(fx_parser *p) {
    p->depth--;
}

static bool is_top_keyword(int kind) {
    return kind == FX_TOK_TECHNIQUE || kind == FX_TOK_NAMESPACE || kind == FX_TOK_STRUCT;
}

// Skips to a place where parsing can go on: after a ';' or a skipped
// '{...}' block, or before a '}' that closes an outer construct or a top-level
// keyword. Parentheses are tracked so a ';' inside `for (...)` does not stop it.
static void sync(fx_parser *p) {
    int braces = 0;
    int parens = 0;
    for (;;) {
        int k = tok(p)->kind;
        if (k == FX_TOK_EOF) {
            break;
        }
        if (braces == 0 && is_top_keyword(k)) {
            break;
        }
        if (k == '(' || k == '[') {
            parens++;
        } else if ((k == ')' || k == ']') && parens > 0) {
            parens--;
        } else if (k == '{') {
            braces++;
        } else if (k == '}') {
            if (braces == 0) {
                break;
            }
            advance(p);
            if (--braces == 0) {
                break;
            }
            continue;
        } else if (k == ';' && braces == 0 && parens == 0) {
            advance(p);
            break;
        }
        advance(p);
    }
    p->recovering = false;
}

// After an error inside (...) or [...]: skip to the matching closer (and eat
// it), but never past a ';' or a brace, which belong to the enclosing code.
static void skip_to_closer(fx_parser *p, int closer) {
    int depth = 0;
    for (;;) {
        int k = tok(p)->kind;
        if (k == FX_TOK_EOF || k == ';' || k == '{' || k == '}') {
            return;
        }
        if (k == '(' || k == '[') {
            depth++;
        } else if ((k == ')' || k == ']') && depth > 0) {
            depth--;
        } else if (k == closer && depth == 0) {
            advance(p);
            p->recovering = false;
            return;
        }
        advance(p);
    }
}

// --- node constructors ---

// Bytes of the common part plus the kind's slots (fx_ast.h).
size_t fx_expr_size(int kind) {
    switch ((fx_expr_kind)kind) {
    case FX_EXPR_ERROR:
        return FX_EXPR_COMMON_SIZE;
    case FX_EXPR_INT:
    case FX_EXPR_FLOAT:
    case FX_EXPR_BOOL:
    case FX_EXPR_UNARY:
    case FX_EXPR_POSTFIX:
        return offsetof(fx_expr, lhs) + sizeof(fx_expr *);
    case FX_EXPR_STRING:
    case FX_EXPR_BINARY:
    case FX_EXPR_ASSIGN:
    case FX_EXPR_COMMA:
    case FX_EXPR_CAST:
    case FX_EXPR_INDEX:
        return offsetof(fx_expr, cond);
    case FX_EXPR_NAME:
    case FX_EXPR_MEMBER:
    case FX_EXPR_TERNARY:
        return offsetof(fx_expr, args);
    case FX_EXPR_CONSTRUCT:
    case FX_EXPR_CALL:
    case FX_EXPR_INIT_LIST:
        break;
    }
    return sizeof(fx_expr);
}

fx_expr *fx_expr_new(fx_ctx *ctx, int kind, fx_pos loc) {
    fx_expr *e = fx_alloc(ctx, fx_expr_size(kind));
    e->kind = (uint8_t)kind;
    e->loc = loc;
    return e;
}

static fx_expr *new_expr(fx_parser *p, fx_expr_kind kind, fx_pos loc) {
    return fx_expr_new(p->ctx, kind, loc);
}

static fx_expr *new_binary(fx_parser *p, fx_expr_kind kind, int op, fx_expr *lhs, fx_expr *rhs,
                           fx_pos loc) {
    fx_expr *e = new_expr(p, kind, loc);
    e->op = (uint16_t)op;
    e->lhs = lhs;
    if (fx_expr_has_rhs(kind)) {
        e->rhs = rhs;
    }
    return e;
}

size_t fx_stmt_size(int kind) {
    switch ((fx_stmt_kind)kind) {
    case FX_STMT_EMPTY:
    case FX_STMT_BREAK:
    case FX_STMT_CONTINUE:
    case FX_STMT_DISCARD:
        return offsetof(fx_stmt, expr);
    case FX_STMT_EXPR:
    case FX_STMT_RETURN:
        return offsetof(fx_stmt, decls);
    case FX_STMT_DECL:
        return offsetof(fx_stmt, body);
    case FX_STMT_SWITCH:
    case FX_STMT_WHILE:
    case FX_STMT_DO:
        return offsetof(fx_stmt, count);
    case FX_STMT_BLOCK:
    case FX_STMT_CASE:
        return offsetof(fx_stmt, els);
    case FX_STMT_IF:
        return offsetof(fx_stmt, init);
    case FX_STMT_FOR:
    case FX_STMT_ERROR:
        break;
    }
    return sizeof(fx_stmt);
}

static fx_stmt *new_stmt(fx_parser *p, fx_stmt_kind kind, fx_pos loc) {
    fx_stmt *s = fx_alloc(p->ctx, fx_stmt_size(kind));
    s->kind = (uint8_t)kind;
    s->loc = loc;
    return s;
}

static fx_decl *new_decl(fx_parser *p, fx_decl_kind kind, fx_pos loc) {
    fx_decl *d = fx_alloc(p->ctx, sizeof(*d));
    d->kind = (uint8_t)kind;
    d->loc = loc;
    return d;
}

// --- names and types ---

// name = ['::'] IDENT {'::' IDENT}
static void qualified_name(fx_parser *p, fx_name *out) {
    memset(out, 0, sizeof(*out));
    bool rooted = accept(p, FX_TOK_SCOPE);
    out->ident = expect_ident(p);
    fx_ident *parts[256];
    unsigned count = 0;
    while (out->ident && at(p, FX_TOK_SCOPE) && peek(p, 1)->kind == FX_TOK_IDENT) {
        advance(p);
        if (count == 255) {
            fx_loc l = tok(p)->loc;
            fx_limit(p->ctx, l.file, l.line, l.col, "namespace levels in a name", 255);
        }
        parts[count++] = out->ident;
        out->ident = tok(p)->ident;
        advance(p);
    }
    if (rooted || count) {
        fx_name_scope *sc = fx_alloc(p->ctx, sizeof(*sc) + count * sizeof(sc->parts[0]));
        sc->count = (uint16_t)count;
        sc->rooted = rooted;
        memcpy(sc->parts, parts, count * sizeof(parts[0]));
        out->scope = sc;
    }
}

static bool is_type_keyword(int kind) {
    return kind == FX_TOK_TYPE || kind == FX_TOK_VECTOR || kind == FX_TOK_MATRIX;
}

static bool is_numeric_base(int base) {
    return base >= FX_TYPE_BOOL && base <= FX_TYPE_FLOAT;
}

// Reads an integer literal in 1..4 for vector<T,N> and matrix<T,R,C>.
static uint8_t dimension(fx_parser *p, fx_syntax_diag d) {
    const fx_token *t = tok(p);
    if (t->kind != FX_TOK_INT && t->kind != FX_TOK_UINT) {
        error_unexpected(p, "integer literal");
        return 1;
    }
    uint64_t v = t->ival;
    fx_pos loc = tpos(t);
    advance(p);
    if (v < 1 || v > 4) {
        if (!p->recovering) {
            report(p, d, loc, NULL);
        }
        return 1;
    }
    return (uint8_t)v;
}

// type_name = TYPE ['<' type_name '>'] | 'vector' ['<' type_name ',' INT '>']
//           | 'matrix' ['<' type_name ',' INT ',' INT '>'] | name
static void type_name(fx_parser *p, fx_typespec *out) {
    const fx_token *t = tok(p);
    out->loc = tpos(t);
    if (t->kind == FX_TOK_IDENT || t->kind == FX_TOK_SCOPE) {
        uint16_t quals = out->type.quals;
        qualified_name(p, &out->name);
        out->type = (fx_type){.base = FX_TYPE_STRUCT, .rows = 1, .cols = 1, .quals = quals};
        return;
    }
    if (t->kind == FX_TOK_VECTOR || t->kind == FX_TOK_MATRIX) {
        bool is_matrix = t->kind == FX_TOK_MATRIX;
        advance(p);
        out->type.base = FX_TYPE_FLOAT;
        out->type.rows = 4;
        out->type.cols = is_matrix ? 4 : 1;
        if (!accept(p, '<')) {
            return;
        }
        const fx_token *e = tok(p);
        if (e->kind != FX_TOK_TYPE || !is_numeric_base(e->ident->type.base) ||
            e->ident->type.rows != 1 || e->ident->type.cols != 1) {
            if (e->kind == FX_TOK_TYPE || e->kind == FX_TOK_VECTOR || e->kind == FX_TOK_MATRIX) {
                if (!p->recovering) {
                    report(p, is_matrix ? FX_D_MATRIX_ELEM : FX_D_VECTOR_ELEM, tpos(e), NULL);
                }
                advance(p);
            } else {
                error_unexpected(p, is_matrix ? "matrix element type" : "vector element type");
                return;
            }
        } else {
            out->type.base = e->ident->type.base;
            advance(p);
        }
        if (!expect(p, ',')) {
            return;
        }
        out->type.rows = dimension(p, is_matrix ? FX_D_MATRIX_DIM : FX_D_VECTOR_DIM);
        if (is_matrix) {
            if (!expect(p, ',')) {
                return;
            }
            out->type.cols = dimension(p, FX_D_MATRIX_DIM);
        }
        expect(p, '>');
        return;
    }
    if (t->kind != FX_TOK_TYPE) {
        error_unexpected(p, "type");
        out->type.base = FX_TYPE_ERROR;
        return;
    }
    uint16_t quals = out->type.quals;
    out->type = t->ident->type;
    out->type.quals = quals;
    const fx_ident *name = t->ident;
    advance(p);
    // Object types take an element type: sampler2D<int4>, storage<uint>.
    if (out->type.base >= FX_TYPE_TEXTURE1D && out->type.base <= FX_TYPE_STORAGE3D &&
        accept(p, '<')) {
        const fx_token *e = tok(p);
        if (e->kind == FX_TOK_TYPE && is_numeric_base(e->ident->type.base) &&
            e->ident->type.cols == 1) {
            out->type.elem_base = e->ident->type.base;
            out->type.elem_rows = e->ident->type.rows;
            advance(p);
        } else if (is_type_keyword(e->kind) || e->kind == FX_TOK_IDENT) {
            if (!p->recovering) {
                report(p, FX_D_OBJECT_ELEM, tpos(e), name->str);
            }
            fx_typespec skip = {0};
            type_name(p, &skip);
        } else {
            error_unexpected(p, "element type");
            return;
        }
        expect(p, '>');
    }
}

// type = {QUALIFIER} type_name
static void type_spec(fx_parser *p, fx_typespec *out) {
    memset(out, 0, sizeof(*out));
    while (at(p, FX_TOK_QUALIFIER)) {
        out->type.quals |= tok(p)->ident->quals;
        advance(p);
    }
    type_name(p, out);
}

// Does a declaration start here? Qualifiers and built-in types say so (unless
// a constructor call follows); `a b` and `A::B c` are declarations too.
static bool starts_declaration(fx_parser *p) {
    int k = tok(p)->kind;
    if (k == FX_TOK_QUALIFIER) {
        return true;
    }
    if (k == FX_TOK_TYPE) {
        return peek(p, 1)->kind != '(';
    }
    if (k == FX_TOK_VECTOR || k == FX_TOK_MATRIX) {
        // `vector<int, 3>(...)` is a constructor call: look past the '>'.
        unsigned n = 1;
        if (peek(p, 1)->kind == '<') {
            while (n + 1 < LOOKAHEAD && peek(p, n)->kind != '>' &&
                   peek(p, n)->kind != FX_TOK_EOF) {
                n++;
            }
            n++;
        }
        return n >= LOOKAHEAD || peek(p, n)->kind != '(';
    }
    if (k != FX_TOK_IDENT && k != FX_TOK_SCOPE) {
        return false;
    }
    unsigned n = (k == FX_TOK_SCOPE) ? 1 : 0;
    if (peek(p, n)->kind != FX_TOK_IDENT) {
        return false;
    }
    n++;
    while (n + 2 < LOOKAHEAD && peek(p, n)->kind == FX_TOK_SCOPE &&
           peek(p, n + 1)->kind == FX_TOK_IDENT) {
        n += 2;
    }
    return n + 1 < LOOKAHEAD && peek(p, n)->kind == FX_TOK_IDENT;
}

// --- expressions ---

static fx_expr *expression(fx_parser *p);
static fx_expr *assignment(fx_parser *p);
static fx_expr *initializer(fx_parser *p);
static fx_expr *assignment_from(fx_parser *p, fx_expr *lhs);
static fx_expr *expression_from(fx_parser *p, fx_expr *lhs);
static fx_expr *unary(fx_parser *p);
static fx_expr *postfix_from(fx_parser *p, fx_expr *e);
static fx_expr *binary(fx_parser *p, int limit);
static fx_expr *conditional(fx_parser *p);

// Binary operators, C/HLSL precedence: higher binds tighter; all left
// associative (left == right). ORDER: precedence climbing in binary_from.
typedef struct binop_priority {
    uint8_t left;
    uint8_t right;
} binop_priority;

static binop_priority binop(int kind) {
    switch (kind) {
    case FX_TOK_OROR: return (binop_priority){1, 1};
    case FX_TOK_ANDAND: return (binop_priority){2, 2};
    case '|': return (binop_priority){3, 3};
    case '^': return (binop_priority){4, 4};
    case '&': return (binop_priority){5, 5};
    case FX_TOK_EQ:
    case FX_TOK_NE: return (binop_priority){6, 6};
    case '<':
    case '>':
    case FX_TOK_LE:
    case FX_TOK_GE: return (binop_priority){7, 7};
    case FX_TOK_SHL:
    case FX_TOK_SHR: return (binop_priority){8, 8};
    case '+':
    case '-': return (binop_priority){9, 9};
    case '*':
    case '/':
    case '%': return (binop_priority){10, 10};
    default: return (binop_priority){0, 0};
    }
}

#define PRIO_RELATIONAL 7        // template arguments `CS<8, 8>` stop below this

static bool is_assign_op(int kind) {
    switch (kind) {
    case '=':
    case FX_TOK_ADD_ASSIGN:
    case FX_TOK_SUB_ASSIGN:
    case FX_TOK_MUL_ASSIGN:
    case FX_TOK_DIV_ASSIGN:
    case FX_TOK_MOD_ASSIGN:
    case FX_TOK_AND_ASSIGN:
    case FX_TOK_OR_ASSIGN:
    case FX_TOK_XOR_ASSIGN:
    case FX_TOK_SHL_ASSIGN:
    case FX_TOK_SHR_ASSIGN:
        return true;
    default:
        return false;
    }
}

static fx_expr *error_expr(fx_parser *p, const char *expected) {
    fx_expr *e = new_expr(p, FX_EXPR_ERROR, here(p));
    error_unexpected(p, expected);
    return e;
}

// args = [assignment {',' assignment}] ')'   (the '(' is already consumed)
static fx_expr *arguments(fx_parser *p, fx_pos open, uint32_t *count) {
    fx_expr head = {0};
    fx_expr *cur = &head;
    *count = 0;
    if (!at(p, ')')) {
        do {
            cur = cur->next = assignment(p);
            ++*count;
        } while (!p->recovering && accept(p, ','));
    }
    if (p->recovering) {
        skip_to_closer(p, ')');
    } else {
        expect_close(p, ')', '(', open);
    }
    return head.next;
}

// string = STRING {STRING}   (adjacent literals are one string)
static fx_expr *string_literal(fx_parser *p) {
    fx_expr *e = new_expr(p, FX_EXPR_STRING, here(p));
    e->value.str = tok(p)->str;
    e->value.str_len = tok(p)->str_len;
    advance(p);
    if (!at(p, FX_TOK_STRING)) {
        return e;
    }
    // Gather the pieces first and copy once: ui_items lists run to hundreds
    // of literals, and joining pairwise would leave quadratic garbage.
    const char **pieces = NULL;
    uint32_t *lens = NULL;
    size_t cap = 0, lcap = 0, n = 0;
    size_t total = e->value.str_len;
    fx_grow(p->ctx, (void **)&pieces, &cap, 1, sizeof(*pieces), UINT32_MAX, "string pieces");
    fx_grow(p->ctx, (void **)&lens, &lcap, 1, sizeof(*lens), UINT32_MAX, "string pieces");
    pieces[n] = e->value.str;
    lens[n++] = e->value.str_len;
    while (at(p, FX_TOK_STRING)) {
        const fx_token *t = tok(p);
        if (total + t->str_len > UINT32_MAX / 2) {
            fx_limit(p->ctx, t->loc.file, t->loc.line, t->loc.col, "bytes in a string",
                     UINT32_MAX / 2);
        }
        fx_grow(p->ctx, (void **)&pieces, &cap, n + 1, sizeof(*pieces), UINT32_MAX,
                "string pieces");
        fx_grow(p->ctx, (void **)&lens, &lcap, n + 1, sizeof(*lens), UINT32_MAX,
                "string pieces");
        pieces[n] = t->str;
        lens[n++] = t->str_len;
        total += t->str_len;
        advance(p);
    }
    char *joined = fx_alloc(p->ctx, total + 1);
    size_t at_byte = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(joined + at_byte, pieces[i], lens[i]);
        at_byte += lens[i];
    }
    e->value.str = joined;
    e->value.str_len = (uint32_t)total;
    return e;
}

// constructor = type_name '(' args
static fx_expr *constructor(fx_parser *p) {
    fx_expr *e = new_expr(p, FX_EXPR_CONSTRUCT, here(p));
    e->spec = fx_alloc(p->ctx, sizeof(*e->spec));
    type_name(p, e->spec);
    fx_pos open = here(p);
    if (!expect(p, '(')) {
        return e;
    }
    e->args = arguments(p, open, &e->arg_count);
    return e;
}

// paren = '(' type ')' unary | '(' expression ')'
// A built-in type after '(' is a cast unless a '(' follows it: then it is a
// constructor call starting a parenthesised expression, `(float2(a, b) * c)`.
static fx_expr *paren(fx_parser *p) {
    fx_pos open = here(p);
    advance(p);
    const fx_token *t = tok(p);
    bool type_cast = is_type_keyword(t->kind) && peek(p, 1)->kind != '(';
    bool struct_cast = t->kind == FX_TOK_IDENT && (t->ident->flags & FX_IDENT_STRUCT) &&
                       peek(p, 1)->kind == ')';
    if (type_cast || struct_cast) {
        fx_expr *e = new_expr(p, FX_EXPR_CAST, open);
        e->spec = fx_alloc(p->ctx, sizeof(*e->spec));
        type_name(p, e->spec);
        if (!expect_close(p, ')', '(', open)) {
            return e;
        }
        e->lhs = unary(p);
        return e;
    }
    fx_expr *e;
    if (is_type_keyword(t->kind)) {
        e = expression_from(p, postfix_from(p, constructor(p)));
    } else {
        e = expression(p);
    }
    if (p->recovering) {
        skip_to_closer(p, ')');
    } else {
        expect_close(p, ')', '(', open);
    }
    e->flags |= FX_EXPR_PARENS;
    return e;
}

// primary = INT | UINT | FLOAT | BOOL | string | name ['(' args] | constructor | paren
//         | initializer
static fx_expr *primary(fx_parser *p) {
    const fx_token *t = tok(p);
    fx_expr *e;
    switch (t->kind) {
    case FX_TOK_INT:
    case FX_TOK_UINT:
        e = new_expr(p, FX_EXPR_INT, tpos(t));
        e->value.ival = t->ival;
        e->flags = t->kind == FX_TOK_UINT ? FX_EXPR_UNSIGNED : 0;
        advance(p);
        return e;
    case FX_TOK_FLOAT:
        e = new_expr(p, FX_EXPR_FLOAT, tpos(t));
        e->value.fval = t->fval;
        advance(p);
        return e;
    case FX_TOK_BOOL:
        e = new_expr(p, FX_EXPR_BOOL, tpos(t));
        e->value.ival = t->ival;
        advance(p);
        return e;
    case FX_TOK_STRING:
        return string_literal(p);
    case FX_TOK_IDENT:
    case FX_TOK_SCOPE: {
        fx_pos loc = tpos(t);
        fx_name name;
        qualified_name(p, &name);
        if (at(p, '(')) {
            fx_pos open = here(p);
            advance(p);
            e = new_expr(p, FX_EXPR_CALL, loc);
            e->name = name;
            e->args = arguments(p, open, &e->arg_count);
        } else {
            e = new_expr(p, FX_EXPR_NAME, loc);
            e->name = name;
        }
        return e;
    }
    case FX_TOK_TYPE:
    case FX_TOK_VECTOR:
    case FX_TOK_MATRIX:
        return constructor(p);
    case '(':
        return paren(p);
    case '{':
        // A brace list is an expression anywhere, as in the reference: an
        // array, typed by the checker.
        return initializer(p);
    default:
        return error_expr(p, "expression");
    }
}

// postfix = primary {'[' expression ']' | '.' IDENT | '++' | '--'}
static fx_expr *postfix_from(fx_parser *p, fx_expr *e) {
    for (;;) {
        const fx_token *t = tok(p);
        if (t->kind == '[') {
            fx_pos open = tpos(t);
            advance(p);
            fx_expr *index = expression(p);
            e = new_binary(p, FX_EXPR_INDEX, 0, e, index, open);
            if (p->recovering) {
                skip_to_closer(p, ']');
            } else {
                expect_close(p, ']', '[', open);
            }
        } else if (t->kind == '.') {
            fx_pos dot = tpos(t);
            advance(p);
            fx_expr *m = new_expr(p, FX_EXPR_MEMBER, dot);
            m->lhs = e;
            m->member = expect_ident(p);
            e = m;
            if (!m->member) {
                return e;
            }
        } else if (t->kind == FX_TOK_INC || t->kind == FX_TOK_DEC) {
            e = new_binary(p, FX_EXPR_POSTFIX, t->kind, e, NULL, tpos(t));
            advance(p);
        } else {
            return e;
        }
    }
}

// unary = ('+' | '-' | '!' | '~' | '++' | '--') unary | postfix
static fx_expr *unary(fx_parser *p) {
    enter(p);
    const fx_token *t = tok(p);
    fx_expr *e;
    switch (t->kind) {
    case '+':
    case '-':
    case '!':
    case '~':
    case FX_TOK_INC:
    case FX_TOK_DEC: {
        int op = t->kind;
        fx_pos loc = tpos(t);
        advance(p);
        e = new_binary(p, FX_EXPR_UNARY, op, unary(p), NULL, loc);
        break;
    }
    default:
        e = postfix_from(p, primary(p));
        break;
    }
    leave(p);
    return e;
}

// binary = unary {BINOP binary}   (Lua's subexpr: only operators binding
// tighter than limit are taken here)
static fx_expr *binary_from(fx_parser *p, fx_expr *lhs, int limit) {
    for (;;) {
        const fx_token *t = tok(p);
        binop_priority pr = binop(t->kind);
        if (pr.left == 0 || pr.left <= limit || p->recovering) {
            return lhs;
        }
        int op = t->kind;
        fx_pos loc = tpos(t);
        advance(p);
        fx_expr *rhs = binary(p, pr.right);
        lhs = new_binary(p, FX_EXPR_BINARY, op, lhs, rhs, loc);
    }
}

static fx_expr *binary(fx_parser *p, int limit) {
    return binary_from(p, unary(p), limit);
}

// conditional = binary ['?' assignment ':' assignment]
static fx_expr *conditional_from(fx_parser *p, fx_expr *cond) {
    cond = binary_from(p, cond, 0);
    if (!at(p, '?') || p->recovering) {
        return cond;
    }
    fx_expr *e = new_expr(p, FX_EXPR_TERNARY, here(p));
    advance(p);
    enter(p); // `a ? b : c ? d : ...` recurses on the right
    e->cond = cond;
    e->lhs = assignment(p);
    if (expect(p, ':')) {
        e->rhs = assignment(p);
    } else {
        e->rhs = new_expr(p, FX_EXPR_ERROR, here(p));
    }
    leave(p);
    return e;
}

static fx_expr *conditional(fx_parser *p) {
    return conditional_from(p, unary(p));
}

// assignment = conditional [ASSIGNOP assignment]
static fx_expr *assignment_from(fx_parser *p, fx_expr *lhs) {
    lhs = conditional_from(p, lhs);
    const fx_token *t = tok(p);
    if (!is_assign_op(t->kind) || p->recovering) {
        return lhs;
    }
    int op = t->kind;
    fx_pos loc = tpos(t);
    advance(p);
    enter(p);
    fx_expr *rhs = assignment(p);
    leave(p);
    return new_binary(p, FX_EXPR_ASSIGN, op, lhs, rhs, loc);
}

static fx_expr *assignment(fx_parser *p) {
    return assignment_from(p, unary(p));
}

// expression = assignment {',' assignment}
static fx_expr *expression_from(fx_parser *p, fx_expr *lhs) {
    fx_expr *e = assignment_from(p, lhs);
    while (!p->recovering && at(p, ',')) {
        fx_pos loc = here(p);
        advance(p);
        e = new_binary(p, FX_EXPR_COMMA, ',', e, assignment(p), loc);
    }
    return e;
}

static fx_expr *expression(fx_parser *p) {
    return expression_from(p, unary(p));
}

// initializer = '{' [initializer {',' initializer} [',']] '}' | assignment
static fx_expr *initializer(fx_parser *p) {
    if (!at(p, '{')) {
        return assignment(p);
    }
    enter(p);
    fx_expr *list = new_expr(p, FX_EXPR_INIT_LIST, here(p));
    fx_pos open = here(p);
    advance(p);
    fx_expr head = {0};
    fx_expr *cur = &head;
    while (!at(p, '}') && !at(p, FX_TOK_EOF)) {
        cur = cur->next = initializer(p);
        list->arg_count++;
        if (p->recovering || !accept(p, ',')) {
            break;
        }
    }
    list->args = head.next;
    if (p->recovering) {
        // Skip the rest of this list, nested lists included.
        int depth = 0;
        while (!at(p, FX_TOK_EOF) && !at(p, ';')) {
            if (at(p, '{')) {
                depth++;
            } else if (at(p, '}') && depth-- == 0) {
                advance(p);
                break;
            }
            advance(p);
        }
        p->recovering = false;
    } else {
        expect_close(p, '}', '{', open);
    }
    leave(p);
    return list;
}

// --- annotations, attributes, states ---

// annotations = '<' {[type] IDENT '=' annotation_value ';'} '>'
// annotation_value = initializer
static fx_state *annotations(fx_parser *p) {
    if (!at(p, '<')) {
        return NULL;
    }
    fx_pos open = here(p);
    advance(p);
    fx_state head = {0};
    fx_state *cur = &head;
    while (!at(p, '>')) {
        int k = tok(p)->kind;
        if (k == FX_TOK_EOF || k == '{' || k == '}' || k == ';') {
            expect_close(p, '>', '<', open);
            break;
        }
        fx_state *a = fx_alloc(p->ctx, sizeof(*a));
        if (is_type_keyword(k) || (k == FX_TOK_IDENT && peek(p, 1)->kind == FX_TOK_IDENT)) {
            a->spec = fx_alloc(p->ctx, sizeof(*a->spec));
            fx_pos loc = here(p);
            type_spec(p, a->spec);
            report(p, FX_D_ANNOTATION_TYPE, loc, NULL);
        }
        a->loc = here(p);
        a->name = expect_ident(p);
        if (a->name && expect(p, '=')) {
            a->value = initializer(p);
            if (!p->recovering) {
                expect(p, ';');
            }
        }
        if (p->recovering) {
            // Skip to the end of this annotation (or of the whole list).
            while (!at(p, FX_TOK_EOF) && !at(p, '>') && !at(p, '{') && !at(p, '}')) {
                if (accept(p, ';')) {
                    break;
                }
                advance(p);
            }
            p->recovering = false;
            continue;
        }
        cur = cur->next = a;
    }
    accept(p, '>');
    return head.next;
}

typedef struct attr_info {
    const char *name;
    unsigned bit;                // for conflicts between statement attributes
} attr_info;

static const attr_info statement_attrs[] = {
    {"unroll", 1}, {"loop", 2}, {"fastopt", 2}, {"flatten", 4},
    {"branch", 8}, {"forcecase", 16}, {"call", 32},
};

static const attr_info function_attrs[] = {
    {"shader", 0}, {"numthreads", 0},
};

// attributes = {'[' IDENT ['(' args] ']'}
static fx_attribute *attributes(fx_parser *p, const attr_info *known, size_t known_count) {
    fx_attribute head = {0};
    fx_attribute *cur = &head;
    unsigned seen = 0;
    const char *seen_name[64] = {0};
    while (at(p, '[')) {
        fx_pos open = here(p);
        advance(p);
        fx_attribute *a = fx_alloc(p->ctx, sizeof(*a));
        a->loc = here(p);
        a->name = expect_ident(p);
        if (!a->name) {
            skip_to_closer(p, ']');
            continue;
        }
        if (at(p, '(')) {
            fx_pos paren_open = here(p);
            advance(p);
            a->args = arguments(p, paren_open, &a->arg_count);
        }
        expect_close(p, ']', '[', open);
        size_t i = 0;
        while (i < known_count && strcmp(known[i].name, a->name->str) != 0) {
            i++;
        }
        if (i == known_count) {
            report(p, FX_D_UNKNOWN_ATTRIBUTE, a->loc, a->name->str);
        } else if (known[i].bit) {
            unsigned bit = known[i].bit;
            // unroll/loop and flatten/branch contradict each other.
            unsigned rival = bit == 1 ? 2 : bit == 2 ? 1 : bit == 4 ? 8 : bit == 8 ? 4 : 0;
            if (rival && (seen & rival)) {
                fx_loc aloc = fx_lex_loc(p->lx, a->loc);
                fx_lex_report(p->ctx, FX_D_ATTRIBUTE_CONFLICT, &aloc, seen_name[rival],
                              a->name->str);
            }
            seen |= bit;
            seen_name[bit] = a->name->str;
        }
        cur = cur->next = a;
    }
    return head.next;
}

static bool is_shader_state(const fx_ident *name) {
    static const char *const names[] = {"VertexShader", "PixelShader", "ComputeShader"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strcmp(name->str, names[i]) == 0) {
            return true;
        }
    }
    // RenderTarget and RenderTarget0..7 name textures the same way.
    return strncmp(name->str, "RenderTarget", 12) == 0 &&
           (name->len == 12 || (name->len == 13 && name->str[12] >= '0' && name->str[12] <= '7'));
}

// state = IDENT '=' state_value ';'
// state_value = name ['<' binary ',' binary [',' binary] '>']   (shader, render target)
//             | initializer
static fx_state *state(fx_parser *p, bool pass_state) {
    fx_state *s = fx_alloc(p->ctx, sizeof(*s));
    s->loc = here(p);
    s->name = expect_ident(p);
    if (!s->name || !expect(p, '=')) {
        return s;
    }
    const fx_token *t = tok(p);
    if (pass_state && is_shader_state(s->name) &&
        (t->kind == FX_TOK_IDENT || t->kind == FX_TOK_SCOPE)) {
        s->value = new_expr(p, FX_EXPR_NAME, tpos(t));
        qualified_name(p, &s->value->name);
        if (accept(p, '<')) {
            fx_expr head = {0};
            fx_expr *cur = &head;
            do {
                cur = cur->next = binary(p, PRIO_RELATIONAL);
                s->targ_count++;
            } while (!p->recovering && accept(p, ','));
            expect(p, '>');
            s->targs = head.next;
        }
    } else if (t->kind == FX_TOK_QUALIFIER && peek(p, 1)->kind == ';') {
        // `MagFilter = linear;`: the qualifier keyword is meant as the enum word.
        s->value = new_expr(p, FX_EXPR_NAME, tpos(t));
        s->value->name.ident = t->ident;
        advance(p);
    } else {
        s->value = initializer(p);
    }
    if (!p->recovering) {
        expect(p, ';');
    }
    return s;
}

// states = '{' {state} '}'
static fx_state *states(fx_parser *p, bool pass_state) {
    fx_pos open = here(p);
    fx_state head = {0};
    fx_state *cur = &head;
    if (!expect(p, '{')) {
        return NULL;
    }
    while (!at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind) &&
           !at(p, FX_TOK_PASS)) {
        fx_state *s = state(p, pass_state);
        if (p->recovering) {
            sync(p);
            continue;
        }
        cur = cur->next = s;
    }
    expect_close(p, '}', '{', open);
    return head.next;
}

// --- declarations ---

static fx_stmt *block(fx_parser *p);
static fx_stmt *statement(fx_parser *p);

// array = '[' [expression] ']'
static void array_suffix(fx_parser *p, fx_var_decl *v) {
    if (!at(p, '[')) {
        return;
    }
    fx_pos open = here(p);
    advance(p);
    v->is_array = true;
    if (!at(p, ']')) {
        v->array_size = expression(p);
    }
    if (p->recovering) {
        skip_to_closer(p, ']');
    } else {
        expect_close(p, ']', '[', open);
    }
    if (at(p, '[')) {
        report(p, FX_D_MULTI_DIM_ARRAY, here(p), NULL);
        while (at(p, '[')) {
            advance(p);
            skip_to_closer(p, ']');
        }
    }
}

// semantic = ':' IDENT
static void semantic(fx_parser *p, fx_ident **out, fx_pos *loc) {
    if (accept(p, ':')) {
        *loc = here(p);
        *out = expect_ident(p);
    }
}

// declarator = IDENT [array] [semantic] [annotations] ['=' initializer | states]
static fx_var_decl *declarator(fx_parser *p, const fx_typespec *spec, bool global) {
    fx_var_decl *v = fx_alloc(p->ctx, sizeof(*v));
    v->spec = *spec;
    v->loc = here(p);
    v->name = expect_ident(p);
    if (!v->name) {
        return v;
    }
    array_suffix(p, v);
    semantic(p, &v->semantic, &v->semantic_loc);
    if (global) {
        v->annotations = annotations(p);
    }
    if (accept(p, '=')) {
        v->init = initializer(p);
    } else if (global && at(p, '{')) {
        v->has_props = true;
        v->props = states(p, false);
    }
    return v;
}

// declarators = declarator {',' declarator}
static fx_var_decl *declarators(fx_parser *p, const fx_typespec *spec, bool global) {
    fx_var_decl head = {0};
    fx_var_decl *cur = &head;
    do {
        cur = cur->next = declarator(p, spec, global);
    } while (!p->recovering && accept(p, ','));
    return head.next;
}

// struct_decl = 'struct' [IDENT] '{' {type declarator {',' declarator} ';'} '}' ';'
static fx_struct_decl *struct_decl(fx_parser *p) {
    fx_struct_decl *sd = fx_alloc(p->ctx, sizeof(*sd));
    sd->loc = here(p);
    advance(p);
    if (at(p, FX_TOK_IDENT)) {
        sd->name = tok(p)->ident;
        sd->name->flags |= FX_IDENT_STRUCT;
        advance(p);
    }
    fx_pos open = here(p);
    if (!expect(p, '{')) {
        return sd;
    }
    fx_var_decl head = {0};
    fx_var_decl *cur = &head;
    while (!at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind)) {
        fx_typespec spec;
        type_spec(p, &spec);
        if (!p->recovering) {
            do {
                fx_var_decl *m = fx_alloc(p->ctx, sizeof(*m));
                m->spec = spec;
                m->loc = here(p);
                m->name = expect_ident(p);
                if (!m->name) {
                    break;
                }
                array_suffix(p, m);
                semantic(p, &m->semantic, &m->semantic_loc);
                cur = cur->next = m;
                sd->member_count++;
            } while (!p->recovering && accept(p, ','));
        }
        if (!p->recovering) {
            expect(p, ';');
        }
        if (p->recovering) {
            sync(p);
        }
    }
    sd->members = head.next;
    if (expect_close(p, '}', '{', open)) {
        expect(p, ';');
    }
    return sd;
}

// param = type IDENT [array] [semantic] ['=' assignment]
static fx_var_decl *parameter(fx_parser *p) {
    fx_var_decl *v = fx_alloc(p->ctx, sizeof(*v));
    type_spec(p, &v->spec);
    v->loc = here(p);
    if (p->recovering) {
        return v;
    }
    v->name = expect_ident(p);
    if (!v->name) {
        return v;
    }
    array_suffix(p, v);
    semantic(p, &v->semantic, &v->semantic_loc);
    if (accept(p, '=')) {
        v->init = assignment(p);
    }
    return v;
}

// function = type IDENT '(' [param {',' param}] ')' [semantic] (block | ';')
static fx_func_decl *function(fx_parser *p, const fx_typespec *ret, fx_ident *name,
                              fx_pos name_loc, fx_attribute *attrs) {
    fx_func_decl *f = fx_alloc(p->ctx, sizeof(*f));
    f->loc = name_loc;
    f->name = name;
    f->ret = *ret;
    f->attrs = attrs;
    fx_pos open = here(p);
    advance(p); // '('
    fx_var_decl head = {0};
    fx_var_decl *cur = &head;
    if (!at(p, ')')) {
        do {
            cur = cur->next = parameter(p);
            f->param_count++;
        } while (!p->recovering && accept(p, ','));
    }
    f->params = head.next;
    if (p->recovering) {
        skip_to_closer(p, ')');
    } else {
        expect_close(p, ')', '(', open);
    }
    semantic(p, &f->ret_semantic, &f->ret_semantic_loc);
    if (at(p, ';')) {
        report(p, FX_D_MISSING_BODY, name_loc, name->str);
        advance(p);
        return f;
    }
    if (!at(p, '{')) {
        error_unexpected(p, "'{'");
        return f;
    }
    f->body = block(p);
    return f;
}

// --- techniques ---

// pass = 'pass' [IDENT] states
static fx_pass *pass(fx_parser *p) {
    fx_pass *ps = fx_alloc(p->ctx, sizeof(*ps));
    ps->loc = here(p);
    advance(p);
    if (at(p, FX_TOK_IDENT)) {
        ps->name = tok(p)->ident;
        advance(p);
    }
    ps->states = states(p, true);
    return ps;
}

// technique = 'technique' IDENT [annotations] '{' {pass} '}'
static fx_technique *technique(fx_parser *p) {
    fx_technique *t = fx_alloc(p->ctx, sizeof(*t));
    advance(p);
    t->loc = here(p);
    t->name = expect_ident(p);
    if (!t->name) {
        return t;
    }
    t->annotations = annotations(p);
    fx_pos open = here(p);
    if (!expect(p, '{')) {
        return t;
    }
    fx_pass head = {0};
    fx_pass *cur = &head;
    while (!at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind)) {
        if (!at(p, FX_TOK_PASS)) {
            error_unexpected(p, "'pass'");
            sync(p);
            continue;
        }
        cur = cur->next = pass(p);
        t->pass_count++;
        if (p->recovering) {
            sync(p);
        }
    }
    t->passes = head.next;
    expect_close(p, '}', '{', open);
    return t;
}

// --- statements ---

// block = '{' {statement} '}'
static fx_stmt *block(fx_parser *p) {
    fx_stmt *b = new_stmt(p, FX_STMT_BLOCK, here(p));
    fx_pos open = here(p);
    advance(p);
    fx_stmt head = {0};
    fx_stmt *cur = &head;
    while (!at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind)) {
        fx_stmt *s = statement(p);
        if (p->recovering) {
            sync(p);
        }
        cur = cur->next = s;
        b->count++;
    }
    b->body = head.next;
    expect_close(p, '}', '{', open);
    return b;
}

// condition = '(' expression ')'
static fx_expr *condition(fx_parser *p) {
    fx_pos open = here(p);
    if (!expect(p, '(')) {
        return new_expr(p, FX_EXPR_ERROR, here(p));
    }
    fx_expr *e = expression(p);
    if (p->recovering) {
        skip_to_closer(p, ')');
    } else {
        expect_close(p, ')', '(', open);
    }
    return e;
}

// declaration = type declarators
static fx_stmt *declaration(fx_parser *p) {
    fx_stmt *s = new_stmt(p, FX_STMT_DECL, here(p));
    fx_typespec spec;
    type_spec(p, &spec);
    if (!p->recovering) {
        s->decls = declarators(p, &spec, false);
    }
    return s;
}

// switch_body = '{' {case_group} '}'
// case_group = label {label} {statement}
// label = 'case' conditional ':' | 'default' ':'
static void switch_body(fx_parser *p, fx_stmt *sw) {
    fx_pos open = here(p);
    if (!expect(p, '{')) {
        return;
    }
    fx_stmt head = {0};
    fx_stmt *cur = &head;
    while (!at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind)) {
        if (!at(p, FX_TOK_CASE) && !at(p, FX_TOK_DEFAULT)) {
            error_unexpected(p, "'case' or 'default'");
            sync(p);
            continue;
        }
        fx_stmt *group = new_stmt(p, FX_STMT_CASE, here(p));
        fx_expr lhead = {0};
        fx_expr *lcur = &lhead;
        while (at(p, FX_TOK_CASE) || at(p, FX_TOK_DEFAULT)) {
            if (accept(p, FX_TOK_DEFAULT)) {
                group->has_default = true;
            } else {
                advance(p);
                lcur = lcur->next = conditional(p);
                group->count++;
            }
            if (!expect(p, ':')) {
                break;
            }
        }
        group->expr = lhead.next;
        fx_stmt shead = {0};
        fx_stmt *scur = &shead;
        while (!p->recovering && !at(p, FX_TOK_CASE) && !at(p, FX_TOK_DEFAULT) &&
               !at(p, '}') && !at(p, FX_TOK_EOF) && !is_top_keyword(tok(p)->kind)) {
            fx_stmt *s = statement(p);
            if (p->recovering) {
                sync(p);
            }
            scur = scur->next = s;
        }
        if (p->recovering) {
            sync(p);
        }
        group->body = shead.next;
        cur = cur->next = group;
    }
    sw->body = head.next;
    expect_close(p, '}', '{', open);
}

// statement = attributes (block | ';' | if_stmt | switch_stmt | for_stmt | while_stmt
//           | do_stmt | 'break' ';' | 'continue' ';' | 'return' [expression] ';'
//           | 'discard' ';' | declaration ';' | expression ';')
// if_stmt = 'if' condition statement ['else' statement]
// switch_stmt = 'switch' condition switch_body
// for_stmt = 'for' '(' [declaration | expression] ';' [expression] ';' [expression] ')'
//            statement
// while_stmt = 'while' condition statement
// do_stmt = 'do' statement 'while' condition ';'
static fx_stmt *statement(fx_parser *p) {
    enter(p);
    fx_attribute *attrs = attributes(p, statement_attrs,
                                     sizeof(statement_attrs) / sizeof(statement_attrs[0]));
    const fx_token *t = tok(p);
    fx_pos loc = tpos(t);
    fx_stmt *s;
    switch (t->kind) {
    case '{':
        s = block(p);
        break;
    case ';':
        s = new_stmt(p, FX_STMT_EMPTY, loc);
        advance(p);
        break;
    case FX_TOK_IF:
        s = new_stmt(p, FX_STMT_IF, loc);
        advance(p);
        s->expr = condition(p);
        s->body = statement(p);
        if (accept(p, FX_TOK_ELSE)) {
            s->els = statement(p);
        }
        break;
    case FX_TOK_SWITCH:
        s = new_stmt(p, FX_STMT_SWITCH, loc);
        advance(p);
        s->expr = condition(p);
        switch_body(p, s);
        break;
    case FX_TOK_FOR: {
        s = new_stmt(p, FX_STMT_FOR, loc);
        advance(p);
        fx_pos open = here(p);
        if (!expect(p, '(')) {
            break;
        }
        if (starts_declaration(p)) {
            s->init = declaration(p);
        } else if (!at(p, ';')) {
            s->init = new_stmt(p, FX_STMT_EXPR, here(p));
            s->init->expr = expression(p);
        }
        if (!expect(p, ';')) {
            break;
        }
        if (!at(p, ';')) {
            s->expr = expression(p);
        }
        if (!expect(p, ';')) {
            break;
        }
        if (!at(p, ')')) {
            s->inc = expression(p);
        }
        if (!expect_close(p, ')', '(', open)) {
            break;
        }
        s->body = statement(p);
        break;
    }
    case FX_TOK_WHILE:
        s = new_stmt(p, FX_STMT_WHILE, loc);
        advance(p);
        s->expr = condition(p);
        s->body = statement(p);
        break;
    case FX_TOK_DO:
        s = new_stmt(p, FX_STMT_DO, loc);
        advance(p);
        s->body = statement(p);
        if (expect(p, FX_TOK_WHILE)) {
            s->expr = condition(p);
            expect(p, ';');
        }
        break;
    case FX_TOK_BREAK:
    case FX_TOK_CONTINUE:
    case FX_TOK_DISCARD:
        s = new_stmt(p, t->kind == FX_TOK_BREAK      ? FX_STMT_BREAK
                        : t->kind == FX_TOK_CONTINUE ? FX_STMT_CONTINUE
                                                     : FX_STMT_DISCARD,
                     loc);
        advance(p);
        expect(p, ';');
        break;
    case FX_TOK_RETURN:
        s = new_stmt(p, FX_STMT_RETURN, loc);
        advance(p);
        if (!at(p, ';')) {
            s->expr = expression(p);
        }
        if (!p->recovering) {
            expect(p, ';');
        }
        break;
    default:
        if (starts_declaration(p)) {
            s = declaration(p);
        } else {
            s = new_stmt(p, FX_STMT_EXPR, loc);
            s->expr = expression(p);
        }
        if (!p->recovering) {
            expect(p, ';');
        }
        break;
    }
    s->attrs = attrs;
    leave(p);
    return s;
}

// --- top level ---

static fx_decl *top_items(fx_parser *p, bool in_namespace);

// top = namespace | struct_decl | technique | attributes type IDENT (function | declarators ';')
//     | ';'
// namespace = 'namespace' IDENT '{' {top} '}'
static fx_decl *top_item(fx_parser *p) {
    const fx_token *t = tok(p);
    fx_pos loc = tpos(t);
    switch (t->kind) {
    case FX_TOK_NAMESPACE: {
        fx_decl *d = new_decl(p, FX_DECL_NAMESPACE, loc);
        advance(p);
        d->ns_name = expect_ident(p);
        fx_pos open = here(p);
        if (!d->ns_name || !expect(p, '{')) {
            return d;
        }
        enter(p);
        d->items = top_items(p, true);
        leave(p);
        expect_close(p, '}', '{', open);
        return d;
    }
    case FX_TOK_STRUCT: {
        fx_decl *d = new_decl(p, FX_DECL_STRUCT, loc);
        d->strct = struct_decl(p);
        return d;
    }
    case FX_TOK_TECHNIQUE: {
        fx_decl *d = new_decl(p, FX_DECL_TECHNIQUE, loc);
        d->tech = technique(p);
        return d;
    }
    default:
        break;
    }
    fx_attribute *attrs = attributes(p, function_attrs,
                                     sizeof(function_attrs) / sizeof(function_attrs[0]));
    t = tok(p);
    if (!is_type_keyword(t->kind) && t->kind != FX_TOK_QUALIFIER && t->kind != FX_TOK_IDENT &&
        t->kind != FX_TOK_SCOPE) {
        error_unexpected(p, NULL);
        return NULL;
    }
    fx_typespec spec;
    type_spec(p, &spec);
    if (p->recovering) {
        return NULL;
    }
    if (at(p, FX_TOK_IDENT) && peek(p, 1)->kind == '(') {
        fx_decl *d = new_decl(p, FX_DECL_FUNC, loc);
        fx_pos name_loc = here(p);
        fx_ident *name = tok(p)->ident;
        advance(p);
        d->func = function(p, &spec, name, name_loc, attrs);
        return d;
    }
    fx_decl *d = new_decl(p, FX_DECL_VARS, loc);
    d->vars = declarators(p, &spec, true);
    if (!p->recovering) {
        expect(p, ';');
    }
    return d;
}

// items = {top}   (up to '}' inside a namespace, up to the end otherwise)
static fx_decl *top_items(fx_parser *p, bool in_namespace) {
    fx_decl head = {0};
    fx_decl *cur = &head;
    for (;;) {
        if (at(p, FX_TOK_EOF) || (in_namespace && at(p, '}'))) {
            break;
        }
        if (accept(p, ';')) {
            continue; // stray semicolons are allowed
        }
        if (at(p, '}')) {
            error_unexpected(p, NULL);
            advance(p);
            p->recovering = false;
            continue;
        }
        fx_decl *d = top_item(p);
        if (d) {
            cur = cur->next = d;
        }
        if (p->recovering) {
            sync(p);
        }
    }
    return head.next;
}

fx_ast *fx_parse(fx_ctx *ctx, const char *text, size_t len, const char *file) {
    fx_parser parser = {.ctx = ctx};
    fx_parser *p = &parser;
    fx_ast *ast = fx_alloc(ctx, sizeof(*ast));
    ast->lexer = fx_alloc(ctx, sizeof(*ast->lexer));
    fx_lex_init(ast->lexer, ctx, text, len, file);
    p->lx = ast->lexer;
    ast->decls = top_items(p, false);
    ast->pragmas = ast->lexer->pragmas;
    return ast;
}

// --- dump ---

static void dump_name(const fx_name *n, FILE *out) {
    if (fx_name_rooted(n)) {
        fputs("::", out);
    }
    for (unsigned i = 0; i < fx_name_depth(n); i++) {
        fprintf(out, "%s::", n->scope->parts[i]->str);
    }
    fputs(n->ident ? n->ident->str : "<error>", out);
}

static const char *base_name(int base) {
    switch (base) {
    case FX_TYPE_VOID: return "void";
    case FX_TYPE_BOOL: return "bool";
    case FX_TYPE_MIN16INT: return "min16int";
    case FX_TYPE_INT: return "int";
    case FX_TYPE_MIN16UINT: return "min16uint";
    case FX_TYPE_UINT: return "uint";
    case FX_TYPE_MIN16FLOAT: return "min16float";
    case FX_TYPE_FLOAT: return "float";
    case FX_TYPE_STRING: return "string";
    case FX_TYPE_TEXTURE1D: return "texture1D";
    case FX_TYPE_TEXTURE2D: return "texture2D";
    case FX_TYPE_TEXTURE3D: return "texture3D";
    case FX_TYPE_SAMPLER1D: return "sampler1D";
    case FX_TYPE_SAMPLER2D: return "sampler2D";
    case FX_TYPE_SAMPLER3D: return "sampler3D";
    case FX_TYPE_STORAGE1D: return "storage1D";
    case FX_TYPE_STORAGE2D: return "storage2D";
    case FX_TYPE_STORAGE3D: return "storage3D";
    default: return "<error>";
    }
}

static void dump_shape(int base, int rows, int cols, FILE *out) {
    fputs(base_name(base), out);
    if (cols > 1) {
        fprintf(out, "%dx%d", rows, cols);
    } else if (rows > 1) {
        fprintf(out, "%d", rows);
    }
}

static const char *const qual_names[] = {
    "extern", "static", "uniform", "volatile", "precise", "groupshared", "in", "out",
    "const", "linear", "noperspective", "centroid", "nointerpolation",
};

void fx_typespec_dump(const fx_typespec *t, FILE *out) {
    unsigned q = t->type.quals;
    if ((q & FX_Q_INOUT) == FX_Q_INOUT) {
        fputs("inout ", out);
        q &= ~(unsigned)FX_Q_INOUT;
    }
    for (unsigned i = 0; i < sizeof(qual_names) / sizeof(qual_names[0]); i++) {
        if (q & (1u << i)) {
            fprintf(out, "%s ", qual_names[i]);
        }
    }
    if (t->type.base == FX_TYPE_STRUCT) {
        dump_name(&t->name, out);
        return;
    }
    dump_shape(t->type.base, t->type.rows, t->type.cols, out);
    if (t->type.base >= FX_TYPE_TEXTURE1D && t->type.base <= FX_TYPE_STORAGE3D) {
        fputc('<', out);
        dump_shape(t->type.elem_base, t->type.elem_rows, 1, out);
        fputc('>', out);
    }
}

static void dump_string(const char *s, size_t len, FILE *out) {
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20 || c >= 0x7f) {
            fprintf(out, "\\x%02x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

static const char *op_name(int op, char buf[2]) {
    return fx_tok_spelling(op, buf);
}

static void dump_list(const fx_expr *e, FILE *out) {
    for (; e; e = e->next) {
        fputc(' ', out);
        fx_expr_dump(e, out);
    }
}

void fx_expr_dump(const fx_expr *e, FILE *out) {
    char buf[2];
    if (!e) {
        fputs("<null>", out);
        return;
    }
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_ERROR:
        fputs("<error>", out);
        break;
    case FX_EXPR_INT:
        fprintf(out, "%llu%s", (unsigned long long)e->value.ival,
                (e->flags & FX_EXPR_UNSIGNED) ? "u" : "");
        break;
    case FX_EXPR_FLOAT: {
        char num[40];
        snprintf(num, sizeof(num), "%.9g", e->value.fval);
        fputs(num, out);
        if (!strpbrk(num, ".en")) {
            fputs(".0", out); // keep floats visibly apart from integers
        }
        break;
    }
    case FX_EXPR_BOOL:
        fputs(e->value.ival ? "true" : "false", out);
        break;
    case FX_EXPR_STRING:
        dump_string(e->value.str, e->value.str_len, out);
        break;
    case FX_EXPR_NAME:
        dump_name(&e->name, out);
        break;
    case FX_EXPR_UNARY:
        fprintf(out, "(%s ", op_name(e->op, buf));
        fx_expr_dump(e->lhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_POSTFIX:
        fprintf(out, "(post%s ", op_name(e->op, buf));
        fx_expr_dump(e->lhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_BINARY:
    case FX_EXPR_ASSIGN:
    case FX_EXPR_COMMA:
        fprintf(out, "(%s ", op_name(e->op, buf));
        fx_expr_dump(e->lhs, out);
        fputc(' ', out);
        fx_expr_dump(e->rhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_TERNARY:
        fputs("(? ", out);
        fx_expr_dump(e->cond, out);
        fputc(' ', out);
        fx_expr_dump(e->lhs, out);
        fputc(' ', out);
        fx_expr_dump(e->rhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_CAST:
        fputs("(cast ", out);
        fx_typespec_dump(e->spec, out);
        fputc(' ', out);
        fx_expr_dump(e->lhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_CONSTRUCT:
        fputs("(ctor ", out);
        fx_typespec_dump(e->spec, out);
        dump_list(e->args, out);
        fputc(')', out);
        break;
    case FX_EXPR_CALL:
        fputs("(call ", out);
        dump_name(&e->name, out);
        dump_list(e->args, out);
        fputc(')', out);
        break;
    case FX_EXPR_INDEX:
        fputs("([] ", out);
        fx_expr_dump(e->lhs, out);
        fputc(' ', out);
        fx_expr_dump(e->rhs, out);
        fputc(')', out);
        break;
    case FX_EXPR_MEMBER:
        fputs("(. ", out);
        fx_expr_dump(e->lhs, out);
        fprintf(out, " %s)", e->member ? e->member->str : "<error>");
        break;
    case FX_EXPR_INIT_LIST:
        fputs("({}", out);
        dump_list(e->args, out);
        fputc(')', out);
        break;
    }
}

static void indent(int level, FILE *out) {
    fprintf(out, "\n%*s", level * 2, "");
}

static void dump_attrs(const fx_attribute *a, FILE *out) {
    for (; a; a = a->next) {
        fprintf(out, "[%s", a->name->str);
        if (a->args) {
            fputc('(', out);
            for (const fx_expr *e = a->args; e; e = e->next) {
                fx_expr_dump(e, out);
                if (e->next) {
                    fputc(' ', out);
                }
            }
            fputc(')', out);
        }
        fputs("] ", out);
    }
}

static void dump_states(const char *tag, const fx_state *s, FILE *out) {
    if (!s) {
        return;
    }
    fprintf(out, " (%s", tag);
    for (; s; s = s->next) {
        fprintf(out, " (%s ", s->name ? s->name->str : "<error>");
        fx_expr_dump(s->value, out);
        if (s->targs) {
            fputs(" <", out);
            for (const fx_expr *e = s->targs; e; e = e->next) {
                fx_expr_dump(e, out);
                if (e->next) {
                    fputc(' ', out);
                }
            }
            fputc('>', out);
        }
        fputc(')', out);
    }
    fputc(')', out);
}

static void dump_var(const fx_var_decl *v, FILE *out) {
    fputs("(var ", out);
    fx_typespec_dump(&v->spec, out);
    fprintf(out, " %s", v->name ? v->name->str : "<error>");
    if (v->is_array) {
        fputc('[', out);
        if (v->array_size) {
            fx_expr_dump(v->array_size, out);
        }
        fputc(']', out);
    }
    if (v->semantic) {
        fprintf(out, " : %s", v->semantic->str);
    }
    dump_states("annotations", v->annotations, out);
    if (v->init) {
        fputs(" = ", out);
        fx_expr_dump(v->init, out);
    }
    if (v->has_props) {
        fputs(" (props", out);
        for (const fx_state *s = v->props; s; s = s->next) {
            fprintf(out, " (%s ", s->name ? s->name->str : "<error>");
            fx_expr_dump(s->value, out);
            fputc(')', out);
        }
        fputc(')', out);
    }
    fputc(')', out);
}

static void dump_stmt(const fx_stmt *s, int level, FILE *out);

static void dump_body(const fx_stmt *s, int level, FILE *out) {
    for (; s; s = s->next) {
        indent(level, out);
        dump_stmt(s, level, out);
    }
}

static void dump_stmt(const fx_stmt *s, int level, FILE *out) {
    if (!s) {
        fputs("<null>", out);
        return;
    }
    dump_attrs(s->attrs, out);
    switch ((fx_stmt_kind)s->kind) {
    case FX_STMT_ERROR:
        fputs("<error>", out);
        break;
    case FX_STMT_EMPTY:
        fputs("(empty)", out);
        break;
    case FX_STMT_BLOCK:
        fputs("(block", out);
        dump_body(s->body, level + 1, out);
        fputc(')', out);
        break;
    case FX_STMT_EXPR:
        fx_expr_dump(s->expr, out);
        break;
    case FX_STMT_DECL:
        fputs("(decl", out);
        for (const fx_var_decl *v = s->decls; v; v = v->next) {
            fputc(' ', out);
            dump_var(v, out);
        }
        fputc(')', out);
        break;
    case FX_STMT_IF:
        fputs("(if ", out);
        fx_expr_dump(s->expr, out);
        indent(level + 1, out);
        dump_stmt(s->body, level + 1, out);
        if (s->els) {
            indent(level + 1, out);
            dump_stmt(s->els, level + 1, out);
        }
        fputc(')', out);
        break;
    case FX_STMT_SWITCH:
        fputs("(switch ", out);
        fx_expr_dump(s->expr, out);
        dump_body(s->body, level + 1, out);
        fputc(')', out);
        break;
    case FX_STMT_CASE:
        fputs("(case", out);
        dump_list(s->expr, out);
        if (s->has_default) {
            fputs(" default", out);
        }
        dump_body(s->body, level + 1, out);
        fputc(')', out);
        break;
    case FX_STMT_FOR:
        fputs("(for ", out);
        if (s->init) {
            dump_stmt(s->init, level, out);
        } else {
            fputs("()", out);
        }
        fputc(' ', out);
        if (s->expr) {
            fx_expr_dump(s->expr, out);
        } else {
            fputs("()", out);
        }
        fputc(' ', out);
        if (s->inc) {
            fx_expr_dump(s->inc, out);
        } else {
            fputs("()", out);
        }
        indent(level + 1, out);
        dump_stmt(s->body, level + 1, out);
        fputc(')', out);
        break;
    case FX_STMT_WHILE:
    case FX_STMT_DO:
        fputs(s->kind == FX_STMT_WHILE ? "(while " : "(do ", out);
        fx_expr_dump(s->expr, out);
        indent(level + 1, out);
        dump_stmt(s->body, level + 1, out);
        fputc(')', out);
        break;
    case FX_STMT_BREAK:
        fputs("(break)", out);
        break;
    case FX_STMT_CONTINUE:
        fputs("(continue)", out);
        break;
    case FX_STMT_DISCARD:
        fputs("(discard)", out);
        break;
    case FX_STMT_RETURN:
        fputs("(return", out);
        if (s->expr) {
            fputc(' ', out);
            fx_expr_dump(s->expr, out);
        }
        fputc(')', out);
        break;
    }
}

void fx_stmt_dump(const fx_stmt *s, FILE *out) {
    dump_stmt(s, 0, out);
}

static void dump_decls(const fx_decl *d, int level, FILE *out) {
    for (; d; d = d->next) {
        if (level > 0) {
            indent(level, out);
        }
        switch ((fx_decl_kind)d->kind) {
        case FX_DECL_NAMESPACE:
            fprintf(out, "(namespace %s", d->ns_name ? d->ns_name->str : "<error>");
            dump_decls(d->items, level + 1, out);
            fputc(')', out);
            break;
        case FX_DECL_STRUCT:
            fprintf(out, "(struct %s", d->strct->name ? d->strct->name->str : "<anonymous>");
            for (const fx_var_decl *m = d->strct->members; m; m = m->next) {
                fputc(' ', out);
                dump_var(m, out);
            }
            fputc(')', out);
            break;
        case FX_DECL_FUNC: {
            const fx_func_decl *f = d->func;
            fputs("(func ", out);
            dump_attrs(f->attrs, out);
            fx_typespec_dump(&f->ret, out);
            fprintf(out, " %s (", f->name->str);
            for (const fx_var_decl *v = f->params; v; v = v->next) {
                dump_var(v, out);
                if (v->next) {
                    fputc(' ', out);
                }
            }
            fputc(')', out);
            if (f->ret_semantic) {
                fprintf(out, " : %s", f->ret_semantic->str);
            }
            if (f->body) {
                indent(level + 1, out);
                dump_stmt(f->body, level + 1, out);
            }
            fputc(')', out);
            break;
        }
        case FX_DECL_VARS:
            fputs("(vars", out);
            for (const fx_var_decl *v = d->vars; v; v = v->next) {
                fputc(' ', out);
                dump_var(v, out);
            }
            fputc(')', out);
            break;
        case FX_DECL_TECHNIQUE: {
            const fx_technique *t = d->tech;
            fprintf(out, "(technique %s", t->name ? t->name->str : "<error>");
            dump_states("annotations", t->annotations, out);
            for (const fx_pass *ps = t->passes; ps; ps = ps->next) {
                indent(level + 1, out);
                fprintf(out, "(pass%s%s", ps->name ? " " : "", ps->name ? ps->name->str : "");
                dump_states("states", ps->states, out);
                fputc(')', out);
            }
            fputc(')', out);
            break;
        }
        }
        if (level == 0) {
            fputc('\n', out);
        }
    }
}

void fx_ast_dump(const fx_ast *ast, FILE *out) {
    for (const fx_pragma *pr = ast->pragmas; pr; pr = pr->next) {
        fprintf(out, "(pragma \"%.*s\")\n", (int)pr->len, pr->text);
    }
    dump_decls(ast->decls, 0, out);
}
