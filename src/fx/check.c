/*
 * check.c - the type checker: names, types, conversions, overloads,
 * statement rules and constant folding (fx_check.h states what the typed
 * tree guarantees).
 *
 * Names. Every fx_ident carries (in its free `sym` field) a chain of
 * bindings, newest first, so a lookup never hashes. Block-scope bindings are
 * always newer than global ones (a function body only sees what was declared
 * before it), and leaving a block pops its bindings off the chains. Global
 * bindings remember their namespace: an unqualified name is searched in the
 * block scopes, then in the current namespace and outwards to the global
 * one; `A::b` looks for a namespace A from the current namespace outwards;
 * `::b` starts at the global namespace (reshade_reference.md §1.1).
 *
 * Types. One recursive walk gives each expression its type, like chibicc's
 * add_type, and wraps operands in FX_EXPR_CAST nodes where HLSL converts
 * implicitly, so the emitter never has to know a conversion rule. Ranks,
 * operator types and overload selection come from type.c; user overloads
 * are tried before the intrinsic table (user functions shadow intrinsics).
 *
 * Constants. fx_check_eval folds a typed expression into an fxgl_value with
 * HLSL's 32-bit integer and float arithmetic. Array sizes, case labels,
 * `static const` values, uniform initializers, property and state values
 * (module.c) all go through it.
 */
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fx_check.h"

#define ARRAY_MAX 65536          // largest array length (the reference's limit)
#define FOLD_ARRAY_MAX 4096      // constant arrays longer than this are not folded

typedef struct binding {
    struct binding *next;        // older binding of the same name (fx_ident.sym chain)
    struct binding *scope_next;  // checker.locals: the binding pushed before this one
    fx_symbol *sym;
    int depth;                   // 0: global; > 0: block depth
} binding;

typedef struct checker {
    fx_ctx *ctx;
    fx_program *prog;
    size_t global_cap;           // capacity of prog->globals
    size_t function_cap;
    size_t technique_cap;
    fx_check_ns *global_ns;
    fx_check_ns *ns;             // the namespace being checked
    int depth;                   // block depth (0 outside functions)
    binding *locals;             // block-scope bindings, newest first
    fx_symbol *func;             // the function whose body is checked, or NULL
    uint32_t func_mark;          // distinct per function body (use lists)
    int loops;                   // enclosing loops
    int breakables;              // enclosing loops and switches
    unsigned anon_count;         // anonymous structs so far
    int expr_depth;              // check_expr calls in progress (FX_LIMIT_EXPR_DEPTH)
    // Memory: swizzle and intrinsic symbols and the typespecs of inserted
    // casts are shared between the expressions that need equal ones (one
    // per expression cost about a third of the checker's memory). Direct
    // mapped: a collision only makes another copy.
    fx_symbol **shared_syms;     // SHARED_SLOTS entries (arena), or NULL before the first
    fx_typespec **shared_specs;  // SHARED_SLOTS entries (arena), or NULL before the first
} checker;

#define SHARED_SLOTS 128

// --- diagnostics ---

__attribute__((format(printf, 4, 5)))
static void error(checker *ck, fx_pos pos, const char *id, const char *fmt, ...) {
    fx_loc loc = fx_lex_loc(ck->prog->ast->lexer, pos);
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fx_error(ck->ctx, id, loc.file, loc.line, loc.col, "%s", buf);
}

__attribute__((format(printf, 4, 5)))
static void warning(checker *ck, fx_pos pos, const char *id, const char *fmt, ...) {
    fx_loc loc = fx_lex_loc(ck->prog->ast->lexer, pos);
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fx_warning(ck->ctx, id, loc.file, loc.line, loc.col, "%s", buf);
}

// A type's name for messages; struct types by their name.
static const char *tname(checker *ck, fx_type t) {
    char buf[FX_TYPE_NAME_SIZE];
    if (t.base == FX_TYPE_STRUCT && t.strct && t.strct->sym) {
        const fx_symbol *s = t.strct->sym;
        if (t.array_len) {
            return fx_sprintf(ck->ctx, "%s[%d]", s->unique, t.array_len > 0 ? t.array_len : 0);
        }
        return s->unique;
    }
    return fx_strdup(ck->ctx, fx_type_name(t, buf, sizeof(buf)));
}

static bool is_error(fx_type t) {
    return t.base == FX_TYPE_ERROR;
}

static fx_type plain(fx_type t) {
    t.quals = 0;
    return t;
}

// --- namespaces and symbols ---

static fx_check_ns *ns_child(checker *ck, fx_check_ns *ns, fx_ident *name, bool create) {
    for (fx_check_ns *c = ns->children; c; c = c->sibling) {
        if (c->name == name) {
            return c;
        }
    }
    if (!create) {
        return NULL;
    }
    fx_check_ns *c = fx_alloc(ck->ctx, sizeof(*c));
    c->parent = ns;
    c->name = name;
    c->prefix = fx_sprintf(ck->ctx, "%s%s::", ns->prefix, name->str);
    c->depth = ns->depth + 1;
    c->sibling = ns->children;
    ns->children = c;
    return c;
}

static fx_symbol *new_symbol(checker *ck, fx_sym_kind kind, fx_ident *name, fx_pos loc) {
    fx_symbol *s = fx_alloc(ck->ctx, sizeof(*s));
    s->kind = (uint8_t)kind;
    s->name = name;
    s->loc = loc;
    s->ns = ck->ns;
    s->index = -1;
    s->unique = name ? name->str : "";
    return s;
}

static uint32_t mix(uint32_t h, uint64_t v) {
    h ^= (uint32_t)(v ^ (v >> 32));
    return h * 16777619u;
}

// The shared symbol equal to *proto (a SWIZZLE or INTRINSIC symbol built on
// the stack): an earlier one, or an arena copy of proto.
static fx_symbol *shared_symbol(checker *ck, const fx_symbol *proto) {
    uint32_t h = mix(2166136261u, proto->kind);
    h = mix(h, (uint64_t)(uintptr_t)proto->name);
    h = mix(h, (uint64_t)(uintptr_t)proto->intrinsic);
    h = mix(h, proto->matrix_swizzle);
    h = mix(h, proto->swizzle_count);
    for (int i = 0; i < 4; i++) {
        h = mix(h, proto->swizzle[i]);
    }
    if (!ck->shared_syms) {
        ck->shared_syms = fx_alloc(ck->ctx, SHARED_SLOTS * sizeof(*ck->shared_syms));
    }
    fx_symbol **slot = &ck->shared_syms[h % SHARED_SLOTS];
    const fx_symbol *o = *slot;
    if (o && o->kind == proto->kind && o->name == proto->name &&
        o->intrinsic == proto->intrinsic && o->matrix_swizzle == proto->matrix_swizzle &&
        o->swizzle_count == proto->swizzle_count &&
        memcmp(o->swizzle, proto->swizzle, sizeof(o->swizzle)) == 0) {
        return *slot;
    }
    fx_symbol *s = fx_alloc(ck->ctx, sizeof(*s));
    *s = *proto;
    *slot = s;
    return s;
}

static void bind(checker *ck, fx_symbol *s) {
    if (!s->name) {
        return;
    }
    binding *b = fx_alloc(ck->ctx, sizeof(*b));
    b->sym = s;
    b->depth = ck->depth;
    b->next = s->name->sym;
    s->name->sym = b;
    if (ck->depth > 0) {
        b->scope_next = ck->locals;
        ck->locals = b;
    }
}

static void push_scope(checker *ck) {
    ck->depth++;
}

static void pop_scope(checker *ck) {
    while (ck->locals && ck->locals->depth == ck->depth) {
        binding *b = ck->locals;
        b->sym->name->sym = b->next;
        ck->locals = b->scope_next;
    }
    ck->depth--;
}

typedef enum look_kind {
    LOOK_VAR,                    // variables, constants, objects
    LOOK_FUNC,
    LOOK_TYPE,
} look_kind;

static bool matches(const fx_symbol *s, look_kind k) {
    switch (k) {
    case LOOK_FUNC:
        return s->kind == FX_SYM_FUNCTION;
    case LOOK_TYPE:
        return s->kind == FX_SYM_STRUCT;
    default:
        return s->kind != FX_SYM_FUNCTION && s->kind != FX_SYM_STRUCT;
    }
}

// Lookup follows the reference compiler (reference_rules_measured.md, rules
// 1, 5 and 10). A global declared in namespace A::B answers to `x` as an
// entry standing in A::B, to `B::x` standing in A and to `A::B::x` standing
// in the global namespace. An entry is visible from namespace C when it
// stands at a shallower depth than C or in C itself: whether its namespace
// encloses C is never asked, so `x` of A::B is visible from X::Y::Z but not
// from the sibling A::C. Among the visible entries locals come first, then
// the deepest, then the latest declared (bindings are newest first).

// Where the entry of global s for name n stands: s's namespace with n's
// qualification taken off its end, or NULL when the qualification is not
// a suffix of s's namespace path.
static const fx_check_ns *entry_ns(const fx_symbol *s, const fx_name *n) {
    const fx_check_ns *ns = s->ns;
    for (unsigned i = fx_name_depth(n); i-- > 0;) {
        if (!ns || ns->name != n->scope->parts[i]) {
            return NULL;
        }
        ns = ns->parent;
    }
    return ns;
}

static bool entry_visible(const checker *ck, const fx_check_ns *at, bool rooted) {
    if (rooted) {
        return at == ck->global_ns;
    }
    return at->depth < ck->ns->depth || at == ck->ns;
}

// The visible symbol of kind k that n names, or NULL; *at (when given) is
// where its entry stands (a local's: the current namespace).
static fx_symbol *find(checker *ck, const fx_name *n, look_kind k, const fx_check_ns **at) {
    fx_symbol *best = NULL;
    const fx_check_ns *best_at = NULL;
    bool qualified = fx_name_qualified(n), rooted = fx_name_rooted(n);
    for (binding *b = n->ident->sym; b; b = b->next) {
        if (!matches(b->sym, k)) {
            continue;
        }
        if (b->depth > 0) {
            if (qualified) {
                continue;
            }
            best = b->sym;
            best_at = ck->ns;
            break;
        }
        const fx_check_ns *e = entry_ns(b->sym, n);
        if (e && entry_visible(ck, e, rooted) && (!best || e->depth > best_at->depth)) {
            best = b->sym;
            best_at = e;
        }
    }
    if (at) {
        *at = best_at;
    }
    return best;
}

static fx_symbol *lookup(checker *ck, const fx_name *n, look_kind k) {
    return n->ident ? find(ck, n, k, NULL) : NULL;
}

// A named constant in the reference's sense: a numeric const with a folded
// value and fewer than 100 elements. The reference keeps no object for it,
// so the redefinition check does not see it (rule 9) and a call of its name
// still looks for functions (rule 1).
static bool named_constant(const fx_symbol *s) {
    bool constant = s->kind == FX_SYM_CONSTANT ||
                    (s->kind == FX_SYM_LOCAL && (s->type.quals & FX_Q_CONST));
    return constant && s->value && !fx_type_is_struct(s->type) &&
           (!fx_type_is_array(s->type) || s->type.array_len < 100);
}

// Every user overload a call of n considers, deepest entry first (then
// newest first). As in the reference, the name is first looked up as a
// value (variables win over functions); the overloads are then those whose
// entries stand no deeper than the entry found, in whichever namespace.
// *var is the variable found instead of a function, if any.
static size_t collect_functions(checker *ck, const fx_name *n, fx_symbol ***out, size_t *cap,
                                fx_symbol **var) {
    size_t count = 0;
    *var = NULL;
    if (!n->ident) {
        return 0;
    }
    const fx_check_ns *at = NULL;
    fx_symbol *v = find(ck, n, LOOK_VAR, &at);
    if (!v) {
        v = find(ck, n, LOOK_TYPE, &at);
    }
    if (v) {
        *var = named_constant(v) ? NULL : v;
    } else if (!find(ck, n, LOOK_FUNC, &at)) {
        return 0;
    }
    for (binding *b = n->ident->sym; b; b = b->next) {
        if (b->depth != 0 || b->sym->kind != FX_SYM_FUNCTION) {
            continue;
        }
        const fx_check_ns *e = entry_ns(b->sym, n);
        if (!e || e->depth > at->depth) {
            continue;
        }
        fx_grow(ck->ctx, (void **)out, cap, count + 1, sizeof(**out), 1u << 20, "overloads");
        size_t i = count++;
        for (; i > 0 && entry_ns((*out)[i - 1], n)->depth < e->depth; i--) {
            (*out)[i] = (*out)[i - 1];
        }
        (*out)[i] = b->sym;
    }
    return count;
}

// Records that the function being checked uses global s.
static void note_use(checker *ck, fx_symbol *s) {
    if (!ck->func || s->use_mark == ck->func_mark) {
        return;
    }
    switch (s->kind) {
    case FX_SYM_UNIFORM:
    case FX_SYM_GLOBAL:
    case FX_SYM_CONSTANT:
    case FX_SYM_TEXTURE:
    case FX_SYM_SAMPLER:
    case FX_SYM_STORAGE:
        break;
    default:
        return;
    }
    fx_check_func *fn = ck->func->fn;
    s->use_mark = ck->func_mark;
    fx_grow(ck->ctx, (void **)&fn->globals, &fn->global_cap, fn->global_count + 1,
            sizeof(*fn->globals), 1u << 24, "globals used by a function");
    fn->globals[fn->global_count++] = s;
}

static void note_call(checker *ck, fx_symbol *callee) {
    if (!ck->func || callee->use_mark == ck->func_mark) {
        return;
    }
    fx_check_func *fn = ck->func->fn;
    callee->use_mark = ck->func_mark;
    fx_grow(ck->ctx, (void **)&fn->callees, &fn->callee_cap, fn->callee_count + 1,
            sizeof(*fn->callees), 1u << 24, "functions called by a function");
    fn->callees[fn->callee_count++] = callee;
}

// --- types ---

static fx_type resolve_type(checker *ck, fx_typespec *spec) {
    fx_type t = spec->type;
    if (t.base == FX_TYPE_STRUCT) {
        fx_symbol *s = spec->name.ident ? lookup(ck, &spec->name, LOOK_TYPE) : NULL;
        if (!s) {
            if (spec->name.ident) {
                error(ck, spec->loc, "X3004", "undeclared identifier '%s'", spec->name.ident->str);
            }
            fx_type e = fx_type_error();
            e.quals = t.quals;
            return e;
        }
        t.strct = s->strct;
        t.rows = t.cols = 1;
        spec->type.strct = s->strct;
        return t;
    }
    if (t.base >= FX_TYPE_TEXTURE1D && t.base <= FX_TYPE_STORAGE3D) {
        uint16_t quals = t.quals;
        t = fx_type_object((fx_base_type)t.base, (fx_base_type)(t.elem_base ? t.elem_base : FX_TYPE_FLOAT),
                           t.elem_rows ? t.elem_rows : 4);
        t.quals = quals;
    }
    if (t.rows == 0) {
        t.rows = 1;
    }
    if (t.cols == 0) {
        t.cols = 1;
    }
    return t;
}

// The typespec of a cast or constructor the checker writes. Equal types share
// one (its loc is where the type was first needed); nothing writes to them.
static fx_typespec *make_spec(checker *ck, fx_type t, fx_pos loc) {
    t = plain(t);
    uint32_t h = mix(2166136261u, ((uint64_t)t.base << 8) | ((uint64_t)t.rows << 4) | t.cols);
    h = mix(h, ((uint64_t)t.elem_base << 8) | t.elem_rows);
    h = mix(h, (uint64_t)(uint32_t)t.array_len);
    h = mix(h, (uint64_t)(uintptr_t)t.strct);
    if (!ck->shared_specs) {
        ck->shared_specs = fx_alloc(ck->ctx, SHARED_SLOTS * sizeof(*ck->shared_specs));
    }
    fx_typespec **slot = &ck->shared_specs[h % SHARED_SLOTS];
    if (*slot && fx_type_equal((*slot)->type, t) && (*slot)->type.elem_base == t.elem_base &&
        (*slot)->type.elem_rows == t.elem_rows) {
        return *slot;
    }
    fx_typespec *spec = fx_alloc(ck->ctx, sizeof(*spec));
    spec->type = t;
    spec->loc = loc;
    *slot = spec;
    return spec;
}

// Wraps *slot in an implicit cast to `to` unless it already has that type.
static void insert_cast(checker *ck, fx_expr **slot, fx_type to) {
    fx_expr *e = *slot;
    fx_expr *c = fx_expr_new(ck->ctx, FX_EXPR_CAST, e->loc);
    c->flags = FX_EXPR_CHECK_IMPLICIT;
    c->spec = make_spec(ck, to, e->loc);
    c->lhs = e;
    c->type = plain(to);
    c->next = e->next;
    e->next = NULL;
    *slot = c;
}

// Implicit conversion of *slot to `to` (X3017 when impossible; X3206 when
// it truncates and warn is set). Returns false on X3017.
static bool coerce(checker *ck, fx_expr **slot, fx_type to, bool warn) {
    fx_expr *e = *slot;
    fx_type from = e->type;
    if (is_error(from) || is_error(to)) {
        return true;
    }
    if (fx_type_equal(from, to)) {
        return true;
    }
    fx_type_convert_status st = fx_type_convert(from, to);
    if (st == FX_TYPE_CONVERT_NONE) {
        error(ck, e->loc, "X3017", "cannot implicitly convert from '%s' to '%s'",
              tname(ck, from), tname(ck, to));
        e->type = fx_type_error();
        return false;
    }
    if (st == FX_TYPE_CONVERT_TRUNCATES && warn) {
        warning(ck, e->loc, "X3206", "implicit truncation of vector type");
    }
    insert_cast(ck, slot, to);
    return true;
}

// Explicit casts: HLSL allows more than the implicit rules.
static bool castable(fx_type from, fx_type to) {
    if (is_error(from) || is_error(to) || fx_type_equal(from, to)) {
        return true;
    }
    if (fx_type_is_array(from) || fx_type_is_array(to)) {
        return false;
    }
    if (to.base == FX_TYPE_STRUCT) {
        return fx_type_is_scalar(from);
    }
    if (!fx_type_is_numeric(from) || !fx_type_is_numeric(to)) {
        return false;
    }
    int fc = fx_type_components(from), tc = fx_type_components(to);
    if (fc == 1 || fc == tc) {
        return true;
    }
    if (fx_type_is_matrix(from) && fx_type_is_matrix(to)) {
        return to.rows <= from.rows && to.cols <= from.cols;
    }
    if (fx_type_is_matrix(from) || fx_type_is_matrix(to)) {
        return tc == 1;
    }
    return tc < fc;
}

// --- constant folding ---

static fxgl_scalar scalar_of(uint8_t base) {
    switch (base) {
    case FX_TYPE_BOOL:
        return FXGL_SCALAR_BOOL;
    case FX_TYPE_INT:
    case FX_TYPE_MIN16INT:
        return FXGL_SCALAR_INT;
    case FX_TYPE_UINT:
    case FX_TYPE_MIN16UINT:
        return FXGL_SCALAR_UINT;
    case FX_TYPE_STRING:
        return FXGL_SCALAR_STRING;
    default:
        return FXGL_SCALAR_FLOAT;
    }
}

static double comp_d(const fxgl_value *v, int i) {
    switch (v->scalar) {
    case FXGL_SCALAR_UINT:
        return v->u[i];
    case FXGL_SCALAR_FLOAT:
        return v->f[i];
    default:
        return v->i[i];
    }
}

static int32_t float_to_int(double d) {
    if (!(d == d)) {
        return 0;
    }
    if (d >= 2147483647.0) {
        return INT32_MAX;
    }
    if (d <= -2147483648.0) {
        return INT32_MIN;
    }
    return (int32_t)d;
}

static uint32_t float_to_uint(double d) {
    if (!(d == d) || d <= 0) {
        return d <= -1.0 ? (uint32_t)float_to_int(d) : 0;
    }
    if (d >= 4294967295.0) {
        return UINT32_MAX;
    }
    return (uint32_t)d;
}

// Component src of in, as kind `to`, into out[dst].
static void convert_comp(const fxgl_value *in, int src, fxgl_scalar to, fxgl_value *out, int dst) {
    switch (to) {
    case FXGL_SCALAR_BOOL:
        out->i[dst] = comp_d(in, src) != 0;
        break;
    case FXGL_SCALAR_INT:
        if (in->scalar == FXGL_SCALAR_FLOAT) {
            out->i[dst] = float_to_int(in->f[src]);
        } else {
            out->i[dst] = in->i[src]; // uint reinterprets, like a C cast
        }
        break;
    case FXGL_SCALAR_UINT:
        if (in->scalar == FXGL_SCALAR_FLOAT) {
            out->u[dst] = float_to_uint(in->f[src]);
        } else {
            out->u[dst] = in->u[src];
        }
        break;
    case FXGL_SCALAR_FLOAT:
        out->f[dst] = (float)comp_d(in, src);
        break;
    default:
        break;
    }
}

static void convert_shaped(const fxgl_value *in, fx_type from, fx_type to, fxgl_value *out) {
    fxgl_value r = {0};
    r.scalar = scalar_of(to.base);
    if (r.scalar == FXGL_SCALAR_STRING || in->scalar == FXGL_SCALAR_STRING) {
        *out = *in;
        return;
    }
    int n = fx_type_components(to);
    r.count = n;
    bool blocks = fx_type_is_matrix(from) && fx_type_is_matrix(to);
    for (int i = 0; i < n && i < 16; i++) {
        int src;
        if (in->count <= 1) {
            src = 0;
        } else if (blocks) {
            src = (i / to.cols) * from.cols + (i % to.cols);
        } else {
            src = i;
        }
        if (src >= in->count) {
            src = in->count - 1;
        }
        convert_comp(in, src, r.scalar, &r, i);
    }
    *out = r;
}

void fx_check_convert_value(const fxgl_value *in, fx_type to, fxgl_value *out) {
    fx_type from = fx_type_vector(FX_TYPE_FLOAT, in->count > 4 ? 4 : (in->count ? in->count : 1));
    convert_shaped(in, from, to, out);
}

static bool eval_binary(int op, const fxgl_value *a, const fxgl_value *b, fxgl_value *r) {
    int n = a->count > b->count ? a->count : b->count;
    fxgl_scalar k = a->scalar;
    bool compare = op == '<' || op == '>' || op == FX_TOK_LE || op == FX_TOK_GE ||
                   op == FX_TOK_EQ || op == FX_TOK_NE;
    r->scalar = compare ? FXGL_SCALAR_BOOL : k;
    r->count = n;
    for (int i = 0; i < n; i++) {
        int ia = a->count == 1 ? 0 : i, ib = b->count == 1 ? 0 : i;
        if (k == FXGL_SCALAR_FLOAT) {
            float x = a->f[ia], y = b->f[ib];
            switch (op) {
            case '+': r->f[i] = x + y; break;
            case '-': r->f[i] = x - y; break;
            case '*': r->f[i] = x * y; break;
            case '/': r->f[i] = x / y; break;
            case '%': r->f[i] = fmodf(x, y); break;
            case '<': r->i[i] = x < y; break;
            case '>': r->i[i] = x > y; break;
            case FX_TOK_LE: r->i[i] = x <= y; break;
            case FX_TOK_GE: r->i[i] = x >= y; break;
            case FX_TOK_EQ: r->i[i] = x == y; break;
            case FX_TOK_NE: r->i[i] = x != y; break;
            default: return false;
            }
            continue;
        }
        bool is_unsigned = k == FXGL_SCALAR_UINT;
        uint32_t x = a->u[ia], y = b->u[ib];
        int32_t sx = a->i[ia], sy = b->i[ib];
        switch (op) {
        case '+': r->u[i] = x + y; break;
        case '-': r->u[i] = x - y; break;
        case '*': r->u[i] = x * y; break;
        case '/':
        case '%':
            if (y == 0 || (!is_unsigned && sx == INT32_MIN && sy == -1)) {
                return false;
            }
            if (is_unsigned) {
                r->u[i] = op == '/' ? x / y : x % y;
            } else {
                r->i[i] = op == '/' ? sx / sy : sx % sy;
            }
            break;
        case '&': r->u[i] = x & y; break;
        case '|': r->u[i] = x | y; break;
        case '^': r->u[i] = x ^ y; break;
        case FX_TOK_SHL: r->u[i] = x << (y & 31); break;
        case FX_TOK_SHR:
            if (is_unsigned) {
                r->u[i] = x >> (y & 31);
            } else {
                r->i[i] = sx < 0 ? ~(~sx >> (y & 31)) : sx >> (y & 31);
            }
            break;
        case FX_TOK_ANDAND: r->i[i] = x && y; break;
        case FX_TOK_OROR: r->i[i] = x || y; break;
        case '<': r->i[i] = is_unsigned ? x < y : sx < sy; break;
        case '>': r->i[i] = is_unsigned ? x > y : sx > sy; break;
        case FX_TOK_LE: r->i[i] = is_unsigned ? x <= y : sx <= sy; break;
        case FX_TOK_GE: r->i[i] = is_unsigned ? x >= y : sx >= sy; break;
        case FX_TOK_EQ: r->i[i] = x == y; break;
        case FX_TOK_NE: r->i[i] = x != y; break;
        default: return false;
        }
    }
    return true;
}

typedef enum fold_fn {
    F_NONE, F_ABS, F_SIGN, F_FLOOR, F_CEIL, F_ROUND, F_TRUNC, F_FRAC, F_SATURATE, F_SQRT,
    F_RSQRT, F_EXP, F_EXP2, F_LOG, F_LOG2, F_SIN, F_COS, F_TAN, F_RCP, F_RADIANS, F_DEGREES,
    F_MIN, F_MAX, F_POW, F_STEP, F_FMOD, F_ATAN2, F_CLAMP, F_LERP, F_MAD, F_DOT, F_LENGTH,
} fold_fn;

static fold_fn fold_fn_of(const char *name) {
    static const struct {
        const char *name;
        fold_fn fn;
    } table[] = {
        {"abs", F_ABS}, {"sign", F_SIGN}, {"floor", F_FLOOR}, {"ceil", F_CEIL},
        {"round", F_ROUND}, {"trunc", F_TRUNC}, {"frac", F_FRAC}, {"saturate", F_SATURATE},
        {"sqrt", F_SQRT}, {"rsqrt", F_RSQRT}, {"exp", F_EXP}, {"exp2", F_EXP2}, {"log", F_LOG},
        {"log2", F_LOG2}, {"sin", F_SIN}, {"cos", F_COS}, {"tan", F_TAN}, {"rcp", F_RCP},
        {"radians", F_RADIANS}, {"degrees", F_DEGREES}, {"min", F_MIN}, {"max", F_MAX},
        {"pow", F_POW}, {"step", F_STEP}, {"fmod", F_FMOD}, {"atan2", F_ATAN2},
        {"clamp", F_CLAMP}, {"lerp", F_LERP}, {"mad", F_MAD}, {"dot", F_DOT},
        {"length", F_LENGTH},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (strcmp(table[i].name, name) == 0) {
            return table[i].fn;
        }
    }
    return F_NONE;
}

static double fold_component(fold_fn fn, double x, double y, double z) {
    switch (fn) {
    case F_ABS: return fabs(x);
    case F_SIGN: return x > 0 ? 1 : x < 0 ? -1 : 0;
    case F_FLOOR: return floor(x);
    case F_CEIL: return ceil(x);
    case F_ROUND: return nearbyint(x);
    case F_TRUNC: return trunc(x);
    case F_FRAC: return x - floor(x);
    case F_SATURATE: return x < 0 ? 0 : x > 1 ? 1 : x;
    case F_SQRT: return sqrt(x);
    case F_RSQRT: return 1.0 / sqrt(x);
    case F_EXP: return exp(x);
    case F_EXP2: return exp2(x);
    case F_LOG: return log(x);
    case F_LOG2: return log2(x);
    case F_SIN: return sin(x);
    case F_COS: return cos(x);
    case F_TAN: return tan(x);
    case F_RCP: return 1.0 / x;
    case F_RADIANS: return x * (3.14159265358979323846 / 180.0);
    case F_DEGREES: return x * (180.0 / 3.14159265358979323846);
    case F_MIN: return x < y ? x : y;
    case F_MAX: return x > y ? x : y;
    case F_POW: return pow(x, y);
    case F_STEP: return y >= x ? 1 : 0;
    case F_FMOD: return fmod(x, y);
    case F_ATAN2: return atan2(x, y);
    case F_CLAMP: return x < y ? y : x > z ? z : x;
    case F_LERP: return x + (y - x) * z;
    case F_MAD: return x * y + z;
    default: return 0;
    }
}

static bool eval_call(const fx_expr *e, fxgl_value *out) {
    const fx_symbol *s = e->sym;
    if (!s || s->kind != FX_SYM_INTRINSIC || e->arg_count < 1 || e->arg_count > 3) {
        return false;
    }
    fold_fn fn = fold_fn_of(s->intrinsic->name);
    if (fn == F_NONE) {
        return false;
    }
    fxgl_value a[3];
    const fx_expr *arg = e->args;
    for (uint32_t i = 0; i < e->arg_count; i++, arg = arg->next) {
        if (!arg || !fx_check_eval(arg, &a[i])) {
            return false;
        }
    }
    fxgl_value r = {0};
    r.scalar = scalar_of(e->type.base);
    if (fn == F_DOT || fn == F_LENGTH) {
        double sum = 0;
        const fxgl_value *b = fn == F_DOT ? &a[1] : &a[0];
        for (int i = 0; i < a[0].count; i++) {
            sum += comp_d(&a[0], i) * comp_d(b, i);
        }
        fxgl_value d = {.scalar = FXGL_SCALAR_FLOAT, .count = 1};
        d.f[0] = (float)(fn == F_LENGTH ? sqrt(sum) : sum);
        convert_shaped(&d, fx_type_scalar(FX_TYPE_FLOAT), e->type, out);
        return true;
    }
    r.count = fx_type_components(e->type);
    for (int i = 0; i < r.count && i < 16; i++) {
        double x = comp_d(&a[0], a[0].count == 1 ? 0 : i);
        double y = e->arg_count > 1 ? comp_d(&a[1], a[1].count == 1 ? 0 : i) : 0;
        double z = e->arg_count > 2 ? comp_d(&a[2], a[2].count == 1 ? 0 : i) : 0;
        double v = fold_component(fn, x, y, z);
        if (r.scalar == FXGL_SCALAR_FLOAT) {
            r.f[i] = (float)v;
        } else {
            if (r.scalar == FXGL_SCALAR_UINT) {
                r.u[i] = float_to_uint(v);
            } else {
                r.i[i] = float_to_int(v);
            }
        }
    }
    *out = r;
    return true;
}

bool fx_check_eval(const fx_expr *e, fxgl_value *out) {
    if (!e || is_error(e->type)) {
        return false;
    }
    fxgl_value a, b, c;
    memset(out, 0, sizeof(*out));
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_INT:
        out->scalar = e->type.base == FX_TYPE_UINT ? FXGL_SCALAR_UINT : FXGL_SCALAR_INT;
        out->count = 1;
        out->u[0] = (uint32_t)e->value.ival;
        return true;
    case FX_EXPR_FLOAT:
        out->scalar = FXGL_SCALAR_FLOAT;
        out->count = 1;
        out->f[0] = (float)e->value.fval;
        return true;
    case FX_EXPR_BOOL:
        out->scalar = FXGL_SCALAR_BOOL;
        out->count = 1;
        out->i[0] = e->value.ival != 0;
        return true;
    case FX_EXPR_STRING:
        out->scalar = FXGL_SCALAR_STRING;
        out->string = e->value.str;
        out->string_len = e->value.str_len;
        return true;
    case FX_EXPR_NAME: {
        const fx_symbol *s = e->sym;
        if (!s || !s->value || fx_type_is_array(s->type)) {
            return false;
        }
        *out = *s->value;
        return true;
    }
    case FX_EXPR_UNARY:
        if (!fx_check_eval(e->lhs, &a)) {
            return false;
        }
        *out = a;
        for (int i = 0; i < a.count; i++) {
            switch (e->op) {
            case '+':
                break;
            case '-':
                if (a.scalar == FXGL_SCALAR_FLOAT) {
                    out->f[i] = -a.f[i];
                } else {
                    out->u[i] = 0u - a.u[i];
                }
                break;
            case '!':
                out->scalar = FXGL_SCALAR_BOOL;
                out->i[i] = comp_d(&a, i) == 0;
                break;
            case '~':
                out->u[i] = ~a.u[i];
                break;
            default:
                return false;
            }
        }
        return true;
    case FX_EXPR_BINARY:
        return fx_check_eval(e->lhs, &a) && fx_check_eval(e->rhs, &b) &&
               eval_binary(e->op, &a, &b, out);
    case FX_EXPR_TERNARY:
        if (!fx_check_eval(e->cond, &c) || !fx_check_eval(e->lhs, &a) ||
            !fx_check_eval(e->rhs, &b)) {
            return false;
        }
        if (c.count <= 1) {
            *out = c.i[0] ? a : b;
            return true;
        }
        *out = a;
        for (int i = 0; i < a.count && i < c.count; i++) {
            out->u[i] = c.i[i] ? a.u[i] : b.u[i];
        }
        return true;
    case FX_EXPR_COMMA:
        return fx_check_eval(e->rhs, out);
    case FX_EXPR_CAST:
        if (e->type.base == FX_TYPE_STRUCT || !fx_check_eval(e->lhs, &a)) {
            return false;
        }
        convert_shaped(&a, e->lhs->type, e->type, out);
        return true;
    case FX_EXPR_CONSTRUCT: {
        int n = fx_type_components(e->type);
        out->scalar = scalar_of(e->type.base);
        out->count = n;
        int at = 0;
        for (const fx_expr *arg = e->args; arg; arg = arg->next) {
            if (!fx_check_eval(arg, &a)) {
                return false;
            }
            fxgl_value conv;
            convert_shaped(&a, arg->type, fx_type_with_base(arg->type, (fx_base_type)e->type.base),
                           &conv);
            for (int i = 0; i < conv.count && at < 16; i++) {
                out->u[at++] = conv.u[i];
            }
        }
        if (at == 1 && n > 1) {
            for (int i = 1; i < n; i++) {
                out->u[i] = out->u[0];
            }
        } else if (at != n) {
            return false;
        }
        return true;
    }
    case FX_EXPR_MEMBER: {
        const fx_symbol *s = e->sym;
        if (!s || s->kind != FX_SYM_SWIZZLE || !fx_check_eval(e->lhs, &a)) {
            return false;
        }
        out->scalar = a.scalar;
        out->count = s->swizzle_count;
        for (int i = 0; i < s->swizzle_count; i++) {
            int src = s->swizzle[i];
            if (s->matrix_swizzle) {
                src = (src / 4) * e->lhs->type.cols + src % 4;
            }
            if (src >= a.count) {
                src = a.count ? a.count - 1 : 0;
            }
            out->u[i] = a.u[src];
        }
        return true;
    }
    case FX_EXPR_INDEX: {
        if (!fx_check_eval(e->rhs, &b)) {
            return false;
        }
        int32_t idx = b.scalar == FXGL_SCALAR_FLOAT ? float_to_int(b.f[0]) : b.i[0];
        const fx_expr *l = e->lhs;
        if (fx_type_is_array(l->type)) {
            const fx_symbol *s = l->kind == FX_EXPR_NAME ? l->sym : NULL;
            if (!s || !s->value || idx < 0 || idx >= s->type.array_len) {
                return false;
            }
            *out = s->value[idx];
            return true;
        }
        if (!fx_check_eval(l, &a)) {
            return false;
        }
        if (fx_type_is_matrix(l->type)) {
            if (idx < 0 || idx >= l->type.rows) {
                return false;
            }
            out->scalar = a.scalar;
            out->count = l->type.cols;
            for (int i = 0; i < l->type.cols; i++) {
                out->u[i] = a.u[idx * l->type.cols + i];
            }
            return true;
        }
        if (idx < 0 || idx >= a.count) {
            return false;
        }
        out->scalar = a.scalar;
        out->count = 1;
        out->u[0] = a.u[idx];
        return true;
    }
    case FX_EXPR_CALL:
        return eval_call(e, out);
    default:
        return false;
    }
}

// --- expressions ---

static fx_type check_expr(checker *ck, fx_expr *e);
static fx_type check_brace_list(checker *ck, fx_expr *e);
static void init_value(checker *ck, fx_expr **slot, fx_type to);

static void set_error(fx_expr *e) {
    e->type = fx_type_error();
}

// Is e something that can be assigned to? why gets the reason when not.
static bool is_lvalue(const fx_expr *e, const char **why) {
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_NAME: {
        const fx_symbol *s = e->sym;
        if (!s) {
            return true; // already reported
        }
        if (s->kind == FX_SYM_UNIFORM) {
            *why = "uniform";
            return false;
        }
        if (s->kind == FX_SYM_TEXTURE || s->kind == FX_SYM_SAMPLER ||
            s->kind == FX_SYM_STORAGE) {
            *why = "object";
            return false;
        }
        if (s->kind == FX_SYM_CONSTANT || (s->type.quals & FX_Q_CONST)) {
            *why = "const";
            return false;
        }
        return true;
    }
    case FX_EXPR_MEMBER: {
        const fx_symbol *s = e->sym;
        if (s && s->kind == FX_SYM_SWIZZLE) {
            for (int i = 0; i < s->swizzle_count; i++) {
                for (int j = i + 1; j < s->swizzle_count; j++) {
                    if (s->swizzle[i] == s->swizzle[j]) {
                        *why = "swizzle";
                        return false;
                    }
                }
            }
        }
        return is_lvalue(e->lhs, why);
    }
    case FX_EXPR_INDEX:
        return is_lvalue(e->lhs, why);
    case FX_EXPR_ERROR:
        return true;
    case FX_EXPR_CAST:
        if (e->flags & FX_EXPR_CHECK_IMPLICIT) {
            return is_lvalue(e->lhs, why);
        }
        *why = "expression";
        return false;
    default:
        *why = "expression";
        return false;
    }
}

static void require_lvalue(checker *ck, const fx_expr *e) {
    const char *why = NULL;
    if (is_error(e->type) || is_lvalue(e, &why)) {
        return;
    }
    if (strcmp(why, "expression") == 0) {
        error(ck, e->loc, "X3025", "l-value required: expression is not assignable");
    } else if (strcmp(why, "swizzle") == 0) {
        error(ck, e->loc, "X3025", "l-value specifies a swizzle with repeated components");
    } else {
        error(ck, e->loc, "X3025", "l-value specifies const object");
    }
}

static fx_type check_name(checker *ck, fx_expr *e, bool silent) {
    fx_symbol *s = lookup(ck, &e->name, LOOK_VAR);
    if (!s) {
        if (!silent && e->name.ident) {
            if (lookup(ck, &e->name, LOOK_FUNC)) {
                error(ck, e->loc, "X3000", "'%s': function name used as a value",
                      e->name.ident->str);
            } else {
                error(ck, e->loc, "X3004", "undeclared identifier '%s'", e->name.ident->str);
            }
        }
        set_error(e);
        return e->type;
    }
    e->sym = s;
    e->type = s->type;
    note_use(ck, s);
    return e->type;
}

// Swizzles on vectors: one of the sets xyzw, rgba, stpq, not mixed. A
// scalar accepts x, r and s in any mix, as the reference's scalar branch
// checks only the letters.
static bool vector_swizzle(checker *ck, fx_expr *e, fx_type lt) {
    static const char *const sets[3] = {"xyzw", "rgba", "stpq"};
    const char *str = e->member->str;
    size_t len = e->member->len;
    if (len < 1 || len > 4) {
        return false;
    }
    bool scalar = fx_type_components(lt) == 1;
    fx_symbol proto = {.kind = FX_SYM_SWIZZLE, .name = e->member, .loc = e->loc,
                       .ns = ck->ns, .index = -1, .unique = e->member->str};
    fx_symbol *s = &proto;
    int set = -1;
    for (size_t i = 0; i < len; i++) {
        const char *p = NULL;
        int which = 0;
        while (which < 3 && (!str[i] || (p = strchr(sets[which], str[i])) == NULL)) {
            which++;
        }
        if (which == 3) {
            return false;
        }
        int idx = (int)(p - sets[which]);
        if ((!scalar && set >= 0 && set != which) || idx >= lt.rows) {
            return false;
        }
        set = which;
        s->swizzle[i] = (uint8_t)idx;
    }
    s->swizzle_count = (uint8_t)len;
    e->sym = shared_symbol(ck, s);
    e->type = fx_type_vector((fx_base_type)lt.base, (int)len);
    e->type.quals = lt.quals & FX_Q_CONST;
    return true;
}

// Matrix swizzles: `_m00` (zero-based) or `_11` (one-based), repeated.
static bool matrix_swizzle(checker *ck, fx_expr *e, fx_type lt) {
    const char *p = e->member->str;
    fx_symbol proto = {.kind = FX_SYM_SWIZZLE, .name = e->member, .loc = e->loc,
                       .ns = ck->ns, .index = -1, .unique = e->member->str,
                       .matrix_swizzle = true};
    fx_symbol *s = &proto;
    int n = 0;
    while (*p) {
        if (p[0] != '_' || n == 4) {
            return false;
        }
        int r, c;
        if (p[1] == 'm') {
            if (!isdigit((unsigned char)p[2]) || !isdigit((unsigned char)p[3])) {
                return false;
            }
            r = p[2] - '0';
            c = p[3] - '0';
            p += 4;
        } else {
            if (!isdigit((unsigned char)p[1]) || !isdigit((unsigned char)p[2])) {
                return false;
            }
            r = p[1] - '1';
            c = p[2] - '1';
            p += 3;
        }
        if (r < 0 || c < 0 || r >= lt.rows || c >= lt.cols) {
            return false;
        }
        s->swizzle[n++] = (uint8_t)(r * 4 + c);
    }
    if (n == 0) {
        return false;
    }
    s->swizzle_count = (uint8_t)n;
    e->sym = shared_symbol(ck, s);
    e->type = fx_type_vector((fx_base_type)lt.base, n);
    e->type.quals = lt.quals & FX_Q_CONST;
    return true;
}

static fx_type check_member(checker *ck, fx_expr *e) {
    fx_type lt = check_expr(ck, e->lhs);
    if (is_error(lt) || !e->member) {
        set_error(e);
        return e->type;
    }
    if (lt.base == FX_TYPE_STRUCT && !fx_type_is_array(lt) && lt.strct) {
        for (fx_var_decl *m = lt.strct->members; m; m = m->next) {
            if (m->name == e->member && m->sym) {
                e->sym = m->sym;
                e->type = m->type;
                e->type.quals |= lt.quals & FX_Q_CONST;
                return e->type;
            }
        }
    } else if (fx_type_is_numeric(lt) && !fx_type_is_array(lt)) {
        bool ok = fx_type_is_matrix(lt) ? matrix_swizzle(ck, e, lt) : vector_swizzle(ck, e, lt);
        if (ok) {
            return e->type;
        }
    }
    error(ck, e->loc, "X3018", "invalid subscript '%s'", e->member->str);
    set_error(e);
    return e->type;
}

static fx_type check_index(checker *ck, fx_expr *e) {
    fx_type lt = check_expr(ck, e->lhs);
    fx_type it = check_expr(ck, e->rhs);
    if (is_error(lt)) {
        set_error(e);
        return e->type;
    }
    if (!is_error(it)) {
        if (!fx_type_is_scalar(it)) {
            error(ck, e->rhs->loc, "X3120", "invalid type for index - index must be a scalar");
        } else if (!fx_type_is_integral(it) || fx_type_is_boolean(it)) {
            warning(ck, e->rhs->loc, "X3120", "ReShade rejects this: array index must be an "
                    "integer scalar (fxgl converts the %s to int)", tname(ck, it));
            coerce(ck, &e->rhs, fx_type_scalar(FX_TYPE_INT), false);
        }
    }
    fx_type r;
    int limit;
    if (fx_type_is_array(lt)) {
        r = fx_type_element(lt);
        limit = lt.array_len;
    } else if (fx_type_is_matrix(lt)) {
        r = fx_type_vector((fx_base_type)lt.base, lt.cols);
        limit = lt.rows;
    } else if (fx_type_is_vector(lt)) {
        r = fx_type_scalar((fx_base_type)lt.base);
        limit = lt.rows;
    } else {
        error(ck, e->loc, "X3121",
              "array, matrix, vector, or indexable object type expected in index expression");
        set_error(e);
        return e->type;
    }
    fxgl_value v;
    if (limit > 0 && fx_check_eval(e->rhs, &v)) {
        int64_t idx = v.scalar == FXGL_SCALAR_UINT ? (int64_t)v.u[0] : (int64_t)v.i[0];
        if (idx < 0 || idx >= limit) {
            error(ck, e->rhs->loc, "X3504", "array index out of bounds");
        }
    }
    r.quals = lt.quals & FX_Q_CONST;
    e->type = r;
    return r;
}

static fx_type check_unary(checker *ck, fx_expr *e) {
    fx_type t = check_expr(ck, e->lhs);
    if (is_error(t)) {
        set_error(e);
        return e->type;
    }
    if (!fx_type_is_numeric(t) || fx_type_is_array(t)) {
        error(ck, e->loc, "X3022", "scalar, vector, or matrix expected");
        set_error(e);
        return e->type;
    }
    t = plain(t);
    switch (e->op) {
    case '!':
        t = fx_type_with_base(t, FX_TYPE_BOOL);
        coerce(ck, &e->lhs, t, false);
        break;
    case '~':
        if (!fx_type_is_integral(t)) {
            error(ck, e->loc, "X3082", "int or unsigned int type required");
            set_error(e);
            return e->type;
        }
        /* fall through */
    case '-':
    case '+':
        if (fx_type_is_boolean(t)) {
            t = fx_type_with_base(t, FX_TYPE_INT);
            coerce(ck, &e->lhs, t, false);
        }
        break;
    default: // ++ --
        require_lvalue(ck, e->lhs);
        break;
    }
    e->type = t;
    return t;
}

static fx_type_op_class op_class(int op) {
    switch (op) {
    case '&':
    case '|':
    case '^':
    case FX_TOK_SHL:
    case FX_TOK_SHR:
    case FX_TOK_AND_ASSIGN:
    case FX_TOK_OR_ASSIGN:
    case FX_TOK_XOR_ASSIGN:
    case FX_TOK_SHL_ASSIGN:
    case FX_TOK_SHR_ASSIGN:
        return FX_TYPE_OP_BITWISE;
    case '<':
    case '>':
    case FX_TOK_LE:
    case FX_TOK_GE:
    case FX_TOK_EQ:
    case FX_TOK_NE:
        return FX_TYPE_OP_COMPARE;
    case FX_TOK_ANDAND:
    case FX_TOK_OROR:
        return FX_TYPE_OP_LOGICAL;
    default:
        return FX_TYPE_OP_ARITHMETIC;
    }
}

// Reports a failed fx_type_binary/merge; returns false when it is an error.
static bool op_status(checker *ck, fx_pos loc, fx_type_op_status st) {
    switch (st) {
    case FX_TYPE_OP_OK:
        return true;
    case FX_TYPE_OP_TRUNCATES:
        warning(ck, loc, "X3206", "implicit truncation of vector type");
        return true;
    case FX_TYPE_OP_NOT_NUMERIC:
        error(ck, loc, "X3022", "scalar, vector, or matrix expected");
        return false;
    case FX_TYPE_OP_NOT_INTEGRAL:
        error(ck, loc, "X3082", "int or unsigned int type required");
        return false;
    default:
        error(ck, loc, "X3020", "type mismatch");
        return false;
    }
}

// Operands of binary operators and `?:` values are cast to the merged
// type without a convertibility check, as the reference does: a scalar
// becomes a matrix there (`m * 2.0`), which no implicit conversion allows.
static void operand_cast(checker *ck, fx_expr **slot, fx_type to) {
    if (!is_error((*slot)->type) && !fx_type_equal((*slot)->type, to)) {
        insert_cast(ck, slot, to);
    }
}

// A shorter vector widened to `rows` components the reference's way, by
// repeating its last one (float3(1, 2, 3) into a float4 is (1, 2, 3, 3)):
// wraps *slot in the swizzle that does it (`.xyzz`).
static void widen(checker *ck, fx_expr **slot, int rows) {
    fx_expr *v = *slot;
    fx_symbol proto = {.kind = FX_SYM_SWIZZLE, .loc = v->loc, .ns = ck->ns, .index = -1};
    char letters[4];
    for (int i = 0; i < rows; i++) {
        int idx = i < v->type.rows ? i : v->type.rows - 1;
        proto.swizzle[i] = (uint8_t)idx;
        letters[i] = "xyzw"[idx];
    }
    proto.swizzle_count = (uint8_t)rows;
    fx_expr *m = fx_expr_new(ck->ctx, FX_EXPR_MEMBER, v->loc);
    m->flags = FX_EXPR_CHECK_IMPLICIT;
    m->member = fx_lex_intern(ck->prog->ast->lexer, letters, (size_t)rows);
    proto.name = m->member;
    proto.unique = m->member->str;
    m->sym = shared_symbol(ck, &proto);
    m->lhs = v;
    m->type = fx_type_vector((fx_base_type)v->type.base, rows);
    m->type.quals = v->type.quals & FX_Q_CONST;
    m->next = v->next;
    v->next = NULL;
    *slot = m;
}

static fx_type check_binary(checker *ck, fx_expr *e) {
    fx_type lt = check_expr(ck, e->lhs);
    fx_type rt = check_expr(ck, e->rhs);
    if (is_error(lt) || is_error(rt)) {
        set_error(e);
        return e->type;
    }
    fx_type operand, result;
    fx_type_op_status st = fx_type_binary(op_class(e->op), plain(lt), plain(rt), &operand,
                                          &result);
    if (!op_status(ck, e->loc, st)) {
        set_error(e);
        return e->type;
    }
    operand_cast(ck, &e->lhs, operand);
    operand_cast(ck, &e->rhs, operand);
    e->type = result;
    if ((lt.quals & FX_Q_CONST) && (rt.quals & FX_Q_CONST)) {
        e->type.quals |= FX_Q_CONST;
    }
    return e->type;
}

// Assignments follow the reference, not the initializer rules: the
// conversion is checked with the types swapped (target to value), so a
// shorter vector may be assigned to a longer one (widened by repeating its
// last component) and a longer one to a shorter is an error. The value is
// converted to the target's type before a compound operator applies, so
// `int i = 3; i *= 0.5;` multiplies by int(0.5) and gives 0.
static fx_type check_assign(checker *ck, fx_expr *e) {
    fx_type lt = check_expr(ck, e->lhs);
    if (e->op == '=' && e->rhs->kind == FX_EXPR_INIT_LIST && fx_type_is_array(lt)) {
        // `a = {...}`: the list must be as long as the array; its elements
        // convert to the array's element type as in an initializer.
        require_lvalue(ck, e->lhs);
        e->type = plain(lt);
        bool nested = false;
        for (fx_expr *a = e->rhs->args; a; a = a->next) {
            nested |= a->kind == FX_EXPR_INIT_LIST;
        }
        if (nested) {
            check_brace_list(ck, e->rhs); // X3119
            return e->type;
        }
        if (lt.array_len > 0 && e->rhs->arg_count != (uint32_t)lt.array_len) {
            error(ck, e->rhs->loc, "X3020", "cannot convert from an array of %u to '%s'",
                  e->rhs->arg_count, tname(ck, lt));
            check_brace_list(ck, e->rhs);
            return e->type;
        }
        init_value(ck, &e->rhs, plain(lt));
        return e->type;
    }
    fx_type rt = check_expr(ck, e->rhs);
    if (is_error(lt)) {
        set_error(e);
        return e->type;
    }
    require_lvalue(ck, e->lhs);
    fx_type target = plain(lt);
    e->type = target;
    if (is_error(rt)) {
        return e->type;
    }
    fx_type value = plain(rt);
    if (e->op != '=' && (!fx_type_is_numeric(target) || fx_type_is_array(target) ||
                         !fx_type_is_numeric(value) || fx_type_is_array(value))) {
        error(ck, e->loc, "X3022", "scalar, vector, or matrix expected");
        return e->type;
    }
    if (fx_type_rank(target, value) == 0) {
        error(ck, e->rhs->loc, "X3020", "cannot convert from '%s' to '%s'", tname(ck, value),
              tname(ck, target));
        return e->type;
    }
    if (op_class(e->op) == FX_TYPE_OP_BITWISE && !fx_type_is_integral(target)) {
        error(ck, e->loc, "X3082", "int or unsigned int type required");
        return e->type;
    }
    if (fx_type_is_numeric(target) && !fx_type_is_array(target) &&
        fx_type_components(value) > fx_type_components(target)) {
        warning(ck, e->rhs->loc, "X3206", "implicit truncation of vector type");
    }
    if (fx_type_is_vector(value) && fx_type_is_vector(target) && value.rows < target.rows) {
        widen(ck, &e->rhs, target.rows);
    }
    operand_cast(ck, &e->rhs, target);
    if (e->op != '=' && target.base == FX_TYPE_BOOL) {
        // Arithmetic on bool is done on int (the emitter converts back).
        insert_cast(ck, &e->rhs, fx_type_with_base(target, FX_TYPE_INT));
    }
    return e->type;
}

static fx_type check_ternary(checker *ck, fx_expr *e) {
    fx_type ct = check_expr(ck, e->cond);
    fx_type lt = check_expr(ck, e->lhs);
    fx_type rt = check_expr(ck, e->rhs);
    if (is_error(ct) || is_error(lt) || is_error(rt)) {
        set_error(e);
        return e->type;
    }
    fx_type result;
    if (!fx_type_is_numeric(lt) || !fx_type_is_numeric(rt) || fx_type_is_array(lt) ||
        fx_type_is_array(rt)) {
        if (!fx_type_equal(lt, rt)) {
            error(ck, e->loc, "X3020", "type mismatch between conditional values");
            set_error(e);
            return e->type;
        }
        result = plain(lt);
    } else if (!op_status(ck, e->loc, fx_type_merge(plain(lt), plain(rt), &result))) {
        set_error(e);
        return e->type;
    }
    if (!fx_type_is_numeric(ct) || fx_type_is_array(ct)) {
        error(ck, e->cond->loc, "X3022", "scalar, vector, or matrix expected");
    } else if (fx_type_is_scalar(ct)) {
        coerce(ck, &e->cond, fx_type_scalar(FX_TYPE_BOOL), false);
    } else {
        // A vector condition selects per component.
        coerce(ck, &e->cond, fx_type_with_base(result, FX_TYPE_BOOL), false);
    }
    operand_cast(ck, &e->lhs, result);
    operand_cast(ck, &e->rhs, result);
    e->type = result;
    return result;
}

static fx_type check_cast(checker *ck, fx_expr *e) {
    fx_type to = plain(resolve_type(ck, e->spec));
    fx_type from = check_expr(ck, e->lhs);
    e->type = to;
    if (is_error(to) || is_error(from)) {
        set_error(e);
        return e->type;
    }
    if (!castable(plain(from), to)) {
        error(ck, e->loc, "X3017", "cannot convert from '%s' to '%s'", tname(ck, from),
              tname(ck, to));
        set_error(e);
    }
    if (from.quals & FX_Q_CONST) {
        e->type.quals |= FX_Q_CONST;
    }
    return e->type;
}

// The arguments of a constructor of numeric type `to` are typed; check
// their components and convert each to `to`'s base.
static void construct_args(checker *ck, fx_expr *e, fx_type to) {
    int total = 0;
    bool bad = false, all_const = true;
    for (fx_expr *a = e->args; a; a = a->next) {
        if (is_error(a->type)) {
            bad = true;
            continue;
        }
        if (!fx_type_is_numeric(a->type) || fx_type_is_array(a->type)) {
            error(ck, a->loc, "X3017", "cannot convert from '%s' to '%s'", tname(ck, a->type),
                  tname(ck, to));
            bad = true;
            continue;
        }
        all_const &= (a->type.quals & FX_Q_CONST) != 0;
        total += fx_type_components(a->type);
    }
    e->type = to;
    if (bad) {
        return;
    }
    int need = fx_type_components(to);
    if (!(total == need || (e->arg_count == 1 && total == 1))) {
        error(ck, e->loc, "X3014", "incorrect number of arguments to numeric-type constructor");
        return;
    }
    for (fx_expr **slot = &e->args; *slot; slot = &(*slot)->next) {
        coerce(ck, slot, fx_type_with_base(plain((*slot)->type), (fx_base_type)to.base), false);
    }
    if (all_const) {
        e->type.quals |= FX_Q_CONST;
    }
}

static fx_type check_construct(checker *ck, fx_expr *e) {
    fx_type to = plain(resolve_type(ck, e->spec));
    for (fx_expr *a = e->args; a; a = a->next) {
        check_expr(ck, a);
    }
    if (is_error(to)) {
        set_error(e);
        return e->type;
    }
    if (!fx_type_is_numeric(to)) {
        error(ck, e->loc, "X3037", "constructors only defined for numeric base types");
        set_error(e);
        return e->type;
    }
    construct_args(ck, e, to);
    return e->type;
}

// Appends shallow copies of the default values of params[n..] to a call.
static void fill_defaults(checker *ck, fx_expr *e, fx_func_decl *f) {
    fx_expr **tail = &e->args;
    uint32_t n = 0;
    while (*tail) {
        tail = &(*tail)->next;
        n++;
    }
    uint32_t i = 0;
    for (fx_var_decl *p = f->params; p; p = p->next, i++) {
        if (i < n || !p->init) {
            continue;
        }
        size_t size = fx_expr_size(p->init->kind);
        fx_expr *copy = fx_alloc(ck->ctx, size);
        memcpy(copy, p->init, size);
        copy->next = NULL;
        *tail = copy;
        tail = &copy->next;
        e->arg_count++;
    }
}

static const char *arg_list(checker *ck, const fx_type *args, size_t n) {
    char *s = "";
    for (size_t i = 0; i < n; i++) {
        s = fx_sprintf(ck->ctx, "%s%s%s", s, i ? ", " : "", tname(ck, args[i]));
    }
    return s;
}

static fx_type check_call(checker *ck, fx_expr *e) {
    fx_type stack_args[16];
    fx_type *args = e->arg_count <= 16 ? stack_args
                                       : fx_alloc(ck->ctx, e->arg_count * sizeof(*args));
    bool any_error = false;
    size_t n = 0;
    for (fx_expr *a = e->args; a; a = a->next) {
        args[n] = plain(check_expr(ck, a));
        any_error |= is_error(args[n]);
        n++;
    }
    const char *name = e->name.ident ? e->name.ident->str : "";
    fx_symbol **cands = NULL;
    size_t cap = 0;
    fx_symbol *var = NULL;
    size_t count = collect_functions(ck, &e->name, &cands, &cap, &var);
    if (var && !any_error) {
        warning(ck, e->loc, "X3005", "ReShade rejects this: identifier '%s' represents a "
                "variable, not a function", name);
    }
    const fx_signature *params = NULL;
    fx_func_decl *user = NULL;
    if (count) {
        fx_signature stack_sigs[16];
        fx_signature *sigs = count <= 16 ? stack_sigs
                                         : fx_alloc(ck->ctx, count * sizeof(*sigs));
        for (size_t i = 0; i < count; i++) {
            sigs[i] = cands[i]->fn->sig;
        }
        size_t best = 0;
        fx_type_select_status st = fx_type_select(args, n, sigs, count, sizeof(*sigs), &best);
        if (st == FX_TYPE_SELECT_AMBIGUOUS) {
            // Equally good overloads are ambiguous only at the same namespace
            // depth; the deepest of them wins (cands is deepest first, so
            // best is in the deepest group that has one).
            int depth = entry_ns(cands[best], &e->name)->depth;
            size_t lo = best, hi = best + 1, group_best = 0;
            while (lo > 0 && entry_ns(cands[lo - 1], &e->name)->depth == depth) {
                lo--;
            }
            while (hi < count && entry_ns(cands[hi], &e->name)->depth == depth) {
                hi++;
            }
            if (fx_type_select(args, n, sigs + lo, hi - lo, sizeof(*sigs), &group_best) ==
                FX_TYPE_SELECT_OK) {
                st = FX_TYPE_SELECT_OK;
                best = lo + group_best;
            }
        }
        if (st != FX_TYPE_SELECT_NONE) {
            if (st == FX_TYPE_SELECT_AMBIGUOUS && !any_error) {
                error(ck, e->loc, "X3067", "'%s': ambiguous function call", name);
            }
            fx_symbol *s = cands[best];
            e->sym = s;
            e->type = plain(s->type);
            user = s->func;
            params = &s->fn->sig;
            note_call(ck, s);
        }
    }
    const fx_intrinsic_set *set = NULL;
    if (!params && !fx_name_qualified(&e->name)) {
        set = fx_intrinsic_lookup(name);
        if (set) {
            const fx_intrinsic *best = NULL;
            fx_type_select_status st = fx_intrinsic_select(set, args, n, &best);
            if (st != FX_TYPE_SELECT_NONE) {
                if (st == FX_TYPE_SELECT_AMBIGUOUS && !any_error) {
                    error(ck, e->loc, "X3067", "'%s': ambiguous intrinsic function call", name);
                }
                fx_symbol proto = {.kind = FX_SYM_INTRINSIC, .name = e->name.ident,
                                   .loc = e->loc, .ns = ck->ns, .index = -1,
                                   .intrinsic = best, .type = best->ret,
                                   .unique = best->name};
                e->sym = shared_symbol(ck, &proto);
                e->type = plain(best->ret);
                params = &best->sig;
                if (ck->func) {
                    if (best->needs & FX_INTRINSIC_NEED_FRAGMENT) {
                        ck->func->fn->uses_fragment_only = true;
                    }
                    if (best->needs & FX_INTRINSIC_NEED_COMPUTE) {
                        ck->func->fn->uses_compute_only = true;
                    }
                }
            }
        }
    }
    if (!params) {
        if (!any_error) {
            if (!count && !set) {
                error(ck, e->loc, "X3004", "undeclared identifier '%s'", name);
            } else {
                error(ck, e->loc, "X3013", "'%s': no matching %zu parameter %sfunction (%s)",
                      name, n, count ? "" : "intrinsic ", arg_list(ck, args, n));
            }
        }
        set_error(e);
        return e->type;
    }
    // Convert in arguments; out/inout ones must be lvalues.
    size_t i = 0;
    for (fx_expr **slot = &e->args; *slot; slot = &(*slot)->next, i++) {
        fx_type p = params->params[i];
        if (p.quals & FX_Q_OUT) {
            require_lvalue(ck, *slot);
            if (set && (p.quals & FX_Q_GROUPSHARED)) {
                // atomics on groupshared memory: nothing more to check here
            }
            continue;
        }
        // Texel offsets need not be constant (the reference checks none):
        // the emitter lowers a non-constant one.
        coerce(ck, slot, plain(p), true);
    }
    if (user && n < params->count) {
        fill_defaults(ck, e, user);
    }
    return e->type;
}

// A brace list outside an initializer: an array as long as the list, of
// the element types merged the way binary operators merge (`{1, 2.5}` is
// float[2], `{float3(...), 0}` float3[2]); every element is cast to it.
// Structs and objects must all be of one type; arrays cannot be elements.
static fx_type check_brace_list(checker *ck, fx_expr *e) {
    fx_type elem = fx_type_error();
    bool have = false, bad = false, all_const = true;
    for (fx_expr *a = e->args; a; a = a->next) {
        fx_type t = plain(check_expr(ck, a));
        all_const &= (a->type.quals & FX_Q_CONST) != 0;
        if (is_error(t) || bad) {
            bad = true;
            continue;
        }
        if (fx_type_is_array(t)) {
            error(ck, a->loc, "X3119", "arrays cannot be multi-dimensional");
            bad = true;
        } else if (!have) {
            elem = t;
            have = true;
        } else if (!fx_type_is_numeric(t) || !fx_type_is_numeric(elem)) {
            if (!fx_type_equal(t, elem)) {
                error(ck, a->loc, "X3017", "cannot convert from '%s' to '%s'", tname(ck, t),
                      tname(ck, elem));
                bad = true;
            }
        } else {
            fx_type merged;
            if (!op_status(ck, a->loc, fx_type_merge(elem, t, &merged))) {
                bad = true;
            }
            elem = merged;
        }
    }
    if (bad || !have) {
        if (!bad) {
            error(ck, e->loc, "X3000", "syntax error: empty initializer list");
        }
        set_error(e);
        return e->type;
    }
    for (fx_expr **a = &e->args; *a; a = &(*a)->next) {
        operand_cast(ck, a, elem);
    }
    e->type = fx_type_array(elem, (int32_t)e->arg_count);
    if (all_const) {
        e->type.quals |= FX_Q_CONST;
    }
    return e->type;
}

static fx_type check_expr_node(checker *ck, fx_expr *e);

// Every later stage (constant folding, the module, GLSL) recurses along the
// trees the checker accepted, so bounding their height here bounds them all:
// FX_COMPILE_STACK is sized for this limit.
static fx_type check_expr(checker *ck, fx_expr *e) {
    if (e && ++ck->expr_depth > FX_LIMIT_EXPR_DEPTH) {
        fx_loc loc = fx_lex_loc(ck->prog->ast->lexer, e->loc);
        fx_limit(ck->ctx, loc.file, loc.line, loc.col, "levels in one expression",
                 FX_LIMIT_EXPR_DEPTH);
    }
    fx_type t = check_expr_node(ck, e);
    ck->expr_depth -= e != NULL;
    return t;
}

static fx_type check_expr_node(checker *ck, fx_expr *e) {
    if (!e) {
        return fx_type_error();
    }
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_ERROR:
        set_error(e);
        break;
    case FX_EXPR_INT:
        e->type = fx_type_scalar((e->flags & FX_EXPR_UNSIGNED) ? FX_TYPE_UINT : FX_TYPE_INT);
        e->type.quals = FX_Q_CONST;
        break;
    case FX_EXPR_FLOAT:
        e->type = fx_type_scalar(FX_TYPE_FLOAT);
        e->type.quals = FX_Q_CONST;
        break;
    case FX_EXPR_BOOL:
        e->type = fx_type_scalar(FX_TYPE_BOOL);
        e->type.quals = FX_Q_CONST;
        break;
    case FX_EXPR_STRING:
        e->type = fx_type_scalar(FX_TYPE_STRING);
        e->type.quals = FX_Q_CONST;
        break;
    case FX_EXPR_NAME:
        check_name(ck, e, false);
        break;
    case FX_EXPR_UNARY:
    case FX_EXPR_POSTFIX:
        check_unary(ck, e);
        break;
    case FX_EXPR_BINARY:
        check_binary(ck, e);
        break;
    case FX_EXPR_ASSIGN:
        check_assign(ck, e);
        break;
    case FX_EXPR_TERNARY:
        check_ternary(ck, e);
        break;
    case FX_EXPR_COMMA:
        check_expr(ck, e->lhs);
        e->type = check_expr(ck, e->rhs);
        break;
    case FX_EXPR_CAST:
        check_cast(ck, e);
        break;
    case FX_EXPR_CONSTRUCT:
        check_construct(ck, e);
        break;
    case FX_EXPR_CALL:
        check_call(ck, e);
        break;
    case FX_EXPR_INDEX:
        check_index(ck, e);
        break;
    case FX_EXPR_MEMBER:
        check_member(ck, e);
        break;
    case FX_EXPR_INIT_LIST:
        check_brace_list(ck, e);
        break;
    default:
        set_error(e);
        break;
    }
    return e->type;
}

// --- initializers ---

// An array initializer whose entries are all plain expressions: types them
// and, when they are scalars for an array of vectors or matrices (`float2
// a[2] = {1, 2, 3, 4}`), regroups them into one constructor per element.
// Returns true when the entries were typed here.
static bool flat_entries(checker *ck, fx_expr *list, fx_type elem, int32_t len) {
    for (fx_expr *a = list->args; a; a = a->next) {
        if (a->kind == FX_EXPR_INIT_LIST) {
            return false;
        }
    }
    bool scalars = true;
    for (fx_expr *a = list->args; a; a = a->next) {
        check_expr(ck, a);
        scalars &= fx_type_is_scalar(a->type) || is_error(a->type);
    }
    int comps = fx_type_components(elem);
    bool fits = len > 0 ? (int64_t)list->arg_count == (int64_t)len * comps
                        : list->arg_count % (uint32_t)(comps ? comps : 1) == 0;
    if (comps <= 1 || !fx_type_is_numeric(elem) || !scalars || !fits ||
        (len > 0 && list->arg_count == (uint32_t)len)) {
        return true;
    }
    fx_expr head = {0};
    fx_expr *tail = &head;
    fx_expr *a = list->args;
    uint32_t groups = 0;
    while (a) {
        fx_expr *c = fx_expr_new(ck->ctx, FX_EXPR_CONSTRUCT, a->loc);
        c->spec = make_spec(ck, elem, a->loc);
        c->args = a;
        for (int i = 1; i < comps; i++) {
            a = a->next;
        }
        fx_expr *rest = a->next;
        a->next = NULL;
        c->arg_count = (uint32_t)comps;
        construct_args(ck, c, plain(elem));
        tail = tail->next = c;
        a = rest;
        groups++;
    }
    list->args = head.next;
    list->arg_count = groups;
    return true;
}

// Checks the initializer in *slot against `to`. For an unsized array `to`
// has array_len -1 and the list's type gets the length.
static void init_value(checker *ck, fx_expr **slot, fx_type to) {
    fx_expr *e = *slot;
    if (e->kind != FX_EXPR_INIT_LIST) {
        check_expr(ck, e);
        if (fx_type_is_array(to) && to.array_len < 0 && fx_type_is_array(e->type)) {
            to.array_len = e->type.array_len;
        }
        coerce(ck, slot, plain(to), true);
        return;
    }
    to = plain(to);
    e->type = to;
    if (is_error(to)) {
        for (fx_expr *a = e->args; a; a = a->next) {
            if (a->kind != FX_EXPR_INIT_LIST) {
                check_expr(ck, a);
            }
        }
        return;
    }
    if (fx_type_is_array(to)) {
        fx_type elem = fx_type_element(to);
        bool typed = flat_entries(ck, e, elem, to.array_len);
        if (to.array_len > 0 && e->arg_count != (uint32_t)to.array_len) {
            error(ck, e->loc, "X3017", "initializer has %u elements, the array %d",
                  e->arg_count, to.array_len);
            set_error(e);
            return;
        }
        for (fx_expr **a = &e->args; *a; a = &(*a)->next) {
            if (typed) {
                coerce(ck, a, elem, true);
            } else {
                init_value(ck, a, elem);
            }
        }
        if (to.array_len < 0) {
            e->type.array_len = (int32_t)e->arg_count;
        }
        return;
    }
    if (to.base == FX_TYPE_STRUCT && to.strct) {
        fx_var_decl *m = to.strct->members;
        fx_expr **a = &e->args;
        for (; *a && m; a = &(*a)->next, m = m->next) {
            init_value(ck, a, m->type);
        }
        if (*a || m) {
            error(ck, e->loc, "X3017", "initializer does not match the members of '%s'",
                  tname(ck, to));
        }
        return;
    }
    if (!fx_type_is_numeric(to)) {
        error(ck, e->loc, "X3017", "cannot initialize '%s' with an initializer list",
              tname(ck, to));
        set_error(e);
        return;
    }
    // `float4 v = {1, 2, 3, 4}` is a constructor.
    for (fx_expr *a = e->args; a; a = a->next) {
        if (a->kind == FX_EXPR_INIT_LIST) {
            error(ck, a->loc, "X3017", "nested initializer list for '%s'", tname(ck, to));
            set_error(e);
            return;
        }
        check_expr(ck, a);
    }
    e->kind = FX_EXPR_CONSTRUCT;
    e->spec = make_spec(ck, to, e->loc);
    construct_args(ck, e, to);
}

// Folds the value of a constant into an arena copy; NULL when not constant.
static const fxgl_value *fold_value(checker *ck, const fx_expr *e, fx_type t) {
    if (fx_type_is_array(t)) {
        if (t.array_len <= 0 || t.array_len > FOLD_ARRAY_MAX || e->kind != FX_EXPR_INIT_LIST) {
            return NULL;
        }
        fxgl_value *vals = fx_alloc(ck->ctx, (size_t)t.array_len * sizeof(*vals));
        const fx_expr *a = e->args;
        for (int32_t i = 0; i < t.array_len; i++, a = a->next) {
            if (!a || !fx_check_eval(a, &vals[i])) {
                return NULL;
            }
        }
        return vals;
    }
    if (!fx_type_is_numeric(t)) {
        return NULL;
    }
    fxgl_value v;
    if (!fx_check_eval(e, &v)) {
        return NULL;
    }
    fxgl_value *copy = fx_alloc(ck->ctx, sizeof(*copy));
    *copy = v;
    return copy;
}

// --- declarations ---

// The array length of v: 0 when not an array, -1 when unsized.
static int32_t array_length(checker *ck, fx_var_decl *v) {
    if (!v->is_array) {
        return 0;
    }
    if (!v->array_size) {
        return -1;
    }
    fx_type t = check_expr(ck, v->array_size);
    if (is_error(t)) {
        return 1;
    }
    fxgl_value val;
    if (!fx_type_is_scalar(t) || !fx_check_eval(v->array_size, &val)) {
        error(ck, v->array_size->loc, "X3058", "array dimensions must be literal scalar expressions");
        return 1;
    }
    double n = comp_d(&val, 0);
    if (val.scalar == FXGL_SCALAR_UINT) {
        n = val.u[0];
    }
    if (n < 1 || n > ARRAY_MAX) {
        error(ck, v->array_size->loc, "X3059", "array dimension must be between 1 and %d",
              ARRAY_MAX);
        return 1;
    }
    return (int32_t)n;
}

// The global a new global of that name in the current namespace clashes
// with, as the reference's redefinition check sees it: the newest variable
// or struct declared there, else the newest function, and none when that is
// a named constant (rule 9: constants may be declared again).
static fx_symbol *existing_global(checker *ck, fx_ident *name) {
    if (!name) {
        return NULL;
    }
    fx_symbol *func = NULL;
    for (binding *b = name->sym; b; b = b->next) {
        if (b->depth != 0 || b->sym->ns != ck->ns) {
            continue;
        }
        if (b->sym->kind != FX_SYM_FUNCTION) {
            return named_constant(b->sym) ? NULL : b->sym;
        }
        func = func ? func : b->sym;
    }
    return func;
}

// Two globals of one name in one namespace (a function named like a
// variable, a constant declared again) must not share a GLSL name. The one
// users never see is renamed: a static constant or global, else the
// function. s is the new declaration.
static void rename_shadowed(checker *ck, fx_symbol *s) {
    for (binding *b = s->name->sym; b; b = b->next) {
        fx_symbol *o = b->sym;
        if (b->depth != 0 || o->ns != ck->ns || o == s || o->kind == FX_SYM_FUNCTION ||
            o->kind == FX_SYM_STRUCT) {
            continue;
        }
        fx_symbol *hidden = o->kind == FX_SYM_CONSTANT || o->kind == FX_SYM_GLOBAL ? o
                            : s->kind == FX_SYM_FUNCTION ? s : NULL;
        if (hidden) {
            hidden->unique = fx_sprintf(ck->ctx, "%s%s_%u_", ck->ns->prefix, s->name->str,
                                        hidden->loc.off);
        }
    }
}

static fx_symbol *existing_local(checker *ck, fx_ident *name) {
    if (!name) {
        return NULL;
    }
    // The newest binding of this block, unless a named constant (rule 9).
    binding *b = name->sym;
    return b && b->depth == ck->depth && ck->depth > 0 && !named_constant(b->sym) ? b->sym
                                                                                 : NULL;
}

// Is the newest binding of name one of the current block?
static bool name_is_local(checker *ck, fx_ident *name) {
    binding *b = name ? name->sym : NULL;
    return b && ck->depth > 0 && b->depth == ck->depth;
}

static void redefinition(checker *ck, fx_pos loc, fx_ident *name) {
    error(ck, loc, "X3003", "redefinition of '%s'", name->str);
}

static void add_global(checker *ck, fx_symbol *s) {
    fx_program *p = ck->prog;
    fx_grow(ck->ctx, (void **)&p->globals, &ck->global_cap, p->global_count + 1,
            sizeof(*p->globals), 1u << 24, "global variables");
    p->globals[p->global_count++] = s;
}

// A pass naming a shader that has other overloads in its namespace takes
// the one a lookup finds (the deepest, then the latest declared); the
// reference refuses it (overloads in other namespaces do not count).
static void shader_overloads(checker *ck, const fx_expr *e) {
    const fx_symbol *f = e->sym;
    int count = 0;
    for (binding *b = e->name.ident->sym; b; b = b->next) {
        count += b->depth == 0 && b->sym->kind == FX_SYM_FUNCTION && b->sym->ns == f->ns;
    }
    if (count > 1) {
        fx_loc l = fx_lex_loc(ck->prog->ast->lexer, ((fx_symbol *)e->sym)->loc);
        warning(ck, e->loc, "X3067", "ReShade rejects this: ambiguous function call to '%s' "
                "(%d overloads; fxgl takes the one at line %d)", e->name.ident->str, count,
                l.line);
    }
}

// Values of states, properties and annotations: a bare name is looked up
// quietly (it may be an enum word such as CLAMP or RGBA16F, which module.c
// reads; such a name keeps sym NULL and the ERROR type).
static void check_state_values(checker *ck, fx_state *list, bool shader_states) {
    for (fx_state *s = list; s; s = s->next) {
        fx_expr *e = s->value;
        if (!e) {
            continue;
        }
        if (e->kind == FX_EXPR_NAME) {
            if (is_error(check_name(ck, e, true))) {
                fx_symbol *f = shader_states ? lookup(ck, &e->name, LOOK_FUNC) : NULL;
                if (f) {
                    e->sym = f;
                    e->type = plain(f->type);
                    shader_overloads(ck, e);
                }
            }
        } else if (e->kind == FX_EXPR_INIT_LIST) {
            for (fx_expr *a = e->args; a; a = a->next) {
                if (a->kind != FX_EXPR_INIT_LIST) {
                    check_expr(ck, a);
                }
            }
            e->type = fx_type_error();
        } else {
            check_expr(ck, e);
        }
        for (fx_expr *a = s->targs; a; a = a->next) {
            check_expr(ck, a);
        }
    }
}

// The first call in a global initializer: the reference allows none, not
// even of an intrinsic (X3005); fxgl folds or runs it.
static const fx_expr *first_call(const fx_expr *e) {
    if (!e || e->kind == FX_EXPR_CALL) {
        return e;
    }
    const fx_expr *c = first_call(fx_expr_cond(e));
    c = c ? c : first_call(fx_expr_lhs(e));
    c = c ? c : first_call(fx_expr_rhs(e));
    for (const fx_expr *a = fx_expr_args(e); a && !c; a = a->next) {
        c = first_call(a);
    }
    return c;
}

static void global_vars(checker *ck, fx_decl *d) {
    for (fx_var_decl *v = d->vars; v; v = v->next) {
        if (!v->name) {
            continue;
        }
        fx_type t = resolve_type(ck, &v->spec);
        uint16_t q = t.quals;
        int32_t len = array_length(ck, v);
        fx_sym_kind kind;
        if (fx_type_is_texture(t)) {
            kind = FX_SYM_TEXTURE;
        } else if (fx_type_is_sampler(t)) {
            kind = FX_SYM_SAMPLER;
        } else if (fx_type_is_storage(t)) {
            kind = FX_SYM_STORAGE;
        } else if ((q & FX_Q_STATIC) && (q & FX_Q_CONST)) {
            kind = FX_SYM_CONSTANT;
        } else if (q & (FX_Q_STATIC | FX_Q_GROUPSHARED)) {
            kind = FX_SYM_GLOBAL;
        } else {
            kind = FX_SYM_UNIFORM;
        }
        if (kind == FX_SYM_TEXTURE || kind == FX_SYM_SAMPLER || kind == FX_SYM_STORAGE) {
            if (len) {
                error(ck, v->loc, "X3000", "'%s': arrays of objects are not supported",
                      v->name->str);
                len = 0;
            }
            if (v->init) {
                error(ck, v->init->loc, "X3000", "'%s': objects cannot be initialized",
                      v->name->str);
                v->init = NULL;
            }
        }
        if (kind == FX_SYM_UNIFORM) {
            if (t.base == FX_TYPE_STRING || t.base == FX_TYPE_VOID) {
                error(ck, v->loc, "X3000", "'%s': invalid type for a uniform", v->name->str);
            }
            if (fx_type_is_struct(t)) {
                error(ck, v->loc, "X3000", "'%s': uniform structs are not supported",
                      v->name->str);
            }
            t.quals |= FX_Q_UNIFORM;
        }
        if (len) {
            t = fx_type_array(t, len);
        }
        fx_symbol *s = new_symbol(ck, kind, v->name, v->loc);
        s->unique = fx_sprintf(ck->ctx, "%s%s", ck->ns->prefix, v->name->str);
        s->var = v;
        s->implicit_uniform = kind == FX_SYM_UNIFORM && !(q & FX_Q_UNIFORM);
        if (s->implicit_uniform) {
            warning(ck, v->loc, "X5000",
                    "global variables are considered 'uniform' by default; declare '%s' "
                    "'static' for a private global", v->name->str);
        }
        if (v->init) {
            init_value(ck, &v->init, t);
            const fx_expr *call = first_call(v->init);
            if (call && !is_error(call->type)) {
                warning(ck, call->loc, "X3005", "ReShade rejects this: function call outside "
                        "of a function (in the initial value of '%s')", v->name->str);
            }
            if (t.array_len < 0) {
                t.array_len = fx_type_is_array(v->init->type) && v->init->type.array_len > 0
                                  ? v->init->type.array_len
                                  : 1;
            }
            if (kind == FX_SYM_CONSTANT) {
                s->value = fold_value(ck, v->init, t);
            } else if (kind == FX_SYM_UNIFORM && !is_error(v->init->type)) {
                fxgl_value val;
                bool constant = fx_type_is_array(t) ? fold_value(ck, v->init, t) != NULL
                                                    : fx_check_eval(v->init, &val);
                if (!constant) {
                    error(ck, v->init->loc, "X3011",
                          "'%s': initial value must be a literal expression", v->name->str);
                }
            }
        } else if (t.array_len < 0) {
            error(ck, v->loc, "X3074", "'%s': implicit array missing initial value",
                  v->name->str);
            t.array_len = 1;
        } else if (kind == FX_SYM_CONSTANT) {
            error(ck, v->loc, "X3012", "'%s': missing initial value", v->name->str);
        }
        if (kind == FX_SYM_CONSTANT) {
            t.quals |= FX_Q_CONST;
        }
        s->type = t;
        v->type = t;
        v->sym = s;
        check_state_values(ck, v->props, false);
        check_state_values(ck, v->annotations, false);
        fx_symbol *old = existing_global(ck, v->name);
        if (old) {
            redefinition(ck, v->loc, v->name);
        }
        rename_shadowed(ck, s);
        bind(ck, s);
        add_global(ck, s);
    }
}

static void struct_decl(checker *ck, fx_struct_decl *sd) {
    fx_ident *name = sd->name;
    fx_symbol *s = new_symbol(ck, FX_SYM_STRUCT, name, sd->loc);
    s->strct = sd;
    if (name) {
        s->unique = fx_sprintf(ck->ctx, "%s%s", ck->ns->prefix, name->str);
    } else {
        fx_loc l = fx_lex_loc(ck->prog->ast->lexer, sd->loc);
        s->unique = fx_sprintf(ck->ctx, "_anonymous_struct_%d_%d", l.line, l.col);
    }
    sd->sym = s;
    s->type = (fx_type){.base = FX_TYPE_STRUCT, .rows = 1, .cols = 1, .strct = sd};
    int index = 0;
    for (fx_var_decl *m = sd->members; m; m = m->next, index++) {
        fx_type t = resolve_type(ck, &m->spec);
        if (t.quals & (FX_Q_IN | FX_Q_OUT | FX_Q_CONST | FX_Q_EXTERN | FX_Q_STATIC |
                       FX_Q_UNIFORM | FX_Q_GROUPSHARED)) {
            error(ck, m->loc, "X3047", "'%s': struct members cannot be declared '%s'",
                  m->name ? m->name->str : "",
                  (t.quals & (FX_Q_IN | FX_Q_OUT)) ? "in/out" : "with that storage class");
        }
        if (fx_type_is_struct(t)) {
            error(ck, m->loc, "X3090", "nested struct members are not supported");
        } else if (fx_type_is_object(t) || t.base == FX_TYPE_VOID) {
            error(ck, m->loc, "X3000", "'%s': invalid struct member type",
                  m->name ? m->name->str : "");
        }
        int32_t len = array_length(ck, m);
        if (len < 0) {
            error(ck, m->loc, "X3072", "array dimensions of struct members must be explicit");
            len = 1;
        }
        if (len) {
            t = fx_type_array(t, len);
        }
        for (fx_var_decl *o = sd->members; o != m; o = o->next) {
            if (o->name && o->name == m->name) {
                redefinition(ck, m->loc, m->name);
            }
        }
        fx_symbol *ms = new_symbol(ck, FX_SYM_MEMBER, m->name, m->loc);
        ms->index = index;
        ms->var = m;
        ms->type = t;
        m->type = t;
        m->sym = ms;
    }
    if (!sd->members) {
        warning(ck, sd->loc, "X5001", "struct '%s' has no members", s->unique);
    }
    if (name) {
        fx_symbol *old = existing_global(ck, name);
        if (old) {
            redefinition(ck, sd->loc, name);
        }
        bind(ck, s);
    }
}

// --- statements ---

static void check_stmt(checker *ck, fx_stmt *s);

static void condition(checker *ck, fx_expr **slot, const char *what) {
    fx_type t = check_expr(ck, *slot);
    if (is_error(t)) {
        return;
    }
    if (!fx_type_is_scalar(t)) {
        error(ck, (*slot)->loc, "X3019", "%s conditional expressions must evaluate to a scalar",
              what);
        return;
    }
    coerce(ck, slot, fx_type_scalar(FX_TYPE_BOOL), false);
}

static void local_vars(checker *ck, fx_stmt *s) {
    for (fx_var_decl *v = s->decls; v; v = v->next) {
        if (!v->name) {
            continue;
        }
        fx_type t = resolve_type(ck, &v->spec);
        int32_t len = array_length(ck, v);
        if (fx_type_is_object(t)) {
            error(ck, v->loc, "X3000", "'%s': local variables cannot be of object type",
                  v->name->str);
        }
        if (t.base == FX_TYPE_VOID) {
            error(ck, v->loc, "X3000", "'%s': variables cannot be 'void'", v->name->str);
            t = fx_type_error();
        }
        if (t.quals & (FX_Q_UNIFORM | FX_Q_GROUPSHARED | FX_Q_EXTERN)) {
            error(ck, v->loc, "X3000", "'%s': local variables cannot be uniform, extern or "
                  "groupshared", v->name->str);
        }
        if (len) {
            t = fx_type_array(t, len);
        }
        fx_symbol *sym = new_symbol(ck, FX_SYM_LOCAL, v->name, v->loc);
        sym->var = v;
        if (v->init) {
            init_value(ck, &v->init, t);
            if (t.array_len < 0) {
                t.array_len = fx_type_is_array(v->init->type) && v->init->type.array_len > 0
                                  ? v->init->type.array_len
                                  : 1;
            }
            if (t.quals & FX_Q_CONST) {
                sym->value = fold_value(ck, v->init, t);
            }
        } else if (t.array_len < 0) {
            error(ck, v->loc, "X3074", "'%s': implicit array missing initial value",
                  v->name->str);
            t.array_len = 1;
        } else if ((t.quals & FX_Q_CONST)) {
            error(ck, v->loc, "X3012", "'%s': missing initial value", v->name->str);
        }
        sym->type = t;
        v->type = t;
        v->sym = sym;
        if (existing_local(ck, v->name)) {
            redefinition(ck, v->loc, v->name);
        } else if (name_is_local(ck, v->name)) {
            // A named constant declared again in its block: the old one
            // needs another GLSL name (its uses are folded anyway).
            fx_symbol *o = ((binding *)v->name->sym)->sym;
            o->unique = fx_sprintf(ck->ctx, "%s_%u_", v->name->str, o->loc.off);
        }
        bind(ck, sym);
    }
}

// Does a case body end in a jump (break, return, discard, continue)?
static bool ends_in_jump(const fx_stmt *s) {
    const fx_stmt *last = NULL;
    for (; s; s = s->next) {
        last = s;
    }
    if (!last) {
        return true; // empty: labels merge
    }
    switch (last->kind) {
    case FX_STMT_BREAK:
    case FX_STMT_RETURN:
    case FX_STMT_DISCARD:
    case FX_STMT_CONTINUE:
    case FX_STMT_ERROR:
        return true;
    case FX_STMT_BLOCK:
        return last->body ? ends_in_jump(last->body) : false;
    case FX_STMT_IF:
        return last->els && ends_in_jump(last->body) && ends_in_jump(last->els);
    default:
        return false;
    }
}

static void check_switch(checker *ck, fx_stmt *s) {
    fx_type t = check_expr(ck, s->expr);
    if (!is_error(t)) {
        if (!fx_type_is_scalar(t)) {
            error(ck, s->expr->loc, "X3019", "switch statement conditional expressions must "
                  "evaluate to a scalar");
        } else if (!fx_type_is_integral(t) || fx_type_is_boolean(t)) {
            coerce(ck, &s->expr, fx_type_scalar(FX_TYPE_INT), false);
        }
    }
    ck->breakables++;
    int64_t *labels = NULL;
    size_t label_count = 0, cap = 0;
    bool seen_default = false;
    push_scope(ck);
    for (fx_stmt *g = s->body; g; g = g->next) {
        if (g->kind != FX_STMT_CASE) {
            check_stmt(ck, g);
            continue;
        }
        if (g->has_default) {
            if (seen_default) {
                error(ck, g->loc, "X3532", "duplicate default label in switch statement");
            }
            seen_default = true;
        }
        for (fx_expr *l = g->expr; l; l = l->next) {
            fx_type lt = check_expr(ck, l);
            fxgl_value v;
            if (is_error(lt)) {
                continue;
            }
            if (!fx_type_is_scalar(lt) || !fx_type_is_integral(lt) || !fx_check_eval(l, &v)) {
                error(ck, l->loc, "X3020", "non-literal case expression");
                continue;
            }
            int64_t val = v.scalar == FXGL_SCALAR_UINT ? (int64_t)v.u[0] : (int64_t)v.i[0];
            for (size_t i = 0; i < label_count; i++) {
                if (labels[i] == val) {
                    error(ck, l->loc, "X3532", "duplicate case %lld in switch statement",
                          (long long)val);
                }
            }
            fx_grow(ck->ctx, (void **)&labels, &cap, label_count + 1, sizeof(*labels),
                    1u << 24, "case labels");
            labels[label_count++] = val;
        }
        for (fx_stmt *b = g->body; b; b = b->next) {
            check_stmt(ck, b);
        }
        // HLSL has no fall-through from a non-empty case into the next one.
        if (g->next && g->body && !ends_in_jump(g->body)) {
            error(ck, g->next->loc, "X3533",
                  "non-empty case statements must have break or return");
        }
    }
    pop_scope(ck);
    ck->breakables--;
}

static void check_stmt(checker *ck, fx_stmt *s) {
    if (!s) {
        return;
    }
    for (fx_attribute *a = s->attrs; a; a = a->next) {
        for (fx_expr *x = a->args; x; x = x->next) {
            check_expr(ck, x);
        }
    }
    switch ((fx_stmt_kind)s->kind) {
    case FX_STMT_ERROR:
    case FX_STMT_EMPTY:
    case FX_STMT_CASE:
        break;
    case FX_STMT_BLOCK:
        push_scope(ck);
        for (fx_stmt *b = s->body; b; b = b->next) {
            check_stmt(ck, b);
        }
        pop_scope(ck);
        break;
    case FX_STMT_EXPR:
        check_expr(ck, s->expr);
        break;
    case FX_STMT_DECL:
        local_vars(ck, s);
        break;
    case FX_STMT_IF:
        condition(ck, &s->expr, "if statement");
        push_scope(ck);
        check_stmt(ck, s->body);
        pop_scope(ck);
        push_scope(ck);
        check_stmt(ck, s->els);
        pop_scope(ck);
        break;
    case FX_STMT_SWITCH:
        check_switch(ck, s);
        break;
    case FX_STMT_FOR:
        push_scope(ck);
        check_stmt(ck, s->init);
        if (s->expr) {
            condition(ck, &s->expr, "for statement");
        }
        if (s->inc) {
            check_expr(ck, s->inc);
        }
        ck->loops++;
        ck->breakables++;
        push_scope(ck);
        check_stmt(ck, s->body);
        pop_scope(ck);
        ck->loops--;
        ck->breakables--;
        pop_scope(ck);
        break;
    case FX_STMT_WHILE:
    case FX_STMT_DO:
        if (s->kind == FX_STMT_WHILE && s->expr) {
            condition(ck, &s->expr, "while statement");
        }
        ck->loops++;
        ck->breakables++;
        push_scope(ck);
        check_stmt(ck, s->body);
        pop_scope(ck);
        ck->loops--;
        ck->breakables--;
        if (s->kind == FX_STMT_DO && s->expr) {
            condition(ck, &s->expr, "do-while statement");
        }
        break;
    case FX_STMT_BREAK:
        if (!ck->breakables) {
            error(ck, s->loc, "X3518", "break must be inside loop or switch");
        }
        break;
    case FX_STMT_CONTINUE:
        if (!ck->loops) {
            error(ck, s->loc, "X3519", "continue must be inside loop");
        }
        break;
    case FX_STMT_DISCARD:
        if (ck->func) {
            ck->func->fn->uses_discard = true;
        }
        break;
    case FX_STMT_RETURN: {
        fx_type rt = ck->func ? plain(ck->func->type) : fx_type_void();
        if (s->expr) {
            fx_type t = check_expr(ck, s->expr);
            if (fx_type_is_void(rt)) {
                if (!is_error(t)) {
                    error(ck, s->loc, "X3079", "void functions cannot return a value");
                }
            } else {
                coerce(ck, &s->expr, rt, true);
            }
        } else if (!fx_type_is_void(rt) && !is_error(rt)) {
            error(ck, s->loc, "X3080", "'%s': function must return a value",
                  ck->func ? ck->func->unique : "");
        }
        break;
    }
    default:
        break;
    }
}

// --- functions ---

static void function(checker *ck, fx_func_decl *f) {
    if (!f->name) {
        return;
    }
    fx_symbol *s = new_symbol(ck, FX_SYM_FUNCTION, f->name, f->loc);
    s->unique = fx_sprintf(ck->ctx, "%s%s", ck->ns->prefix, f->name->str);
    s->func = f;
    f->sym = s;
    fx_type ret = resolve_type(ck, &f->ret);
    if (ret.quals & ~(FX_Q_PRECISE)) {
        error(ck, f->ret.loc, "X3000", "'%s': function return types cannot have qualifiers",
              f->name->str);
    }
    if (fx_type_is_object(ret)) {
        error(ck, f->ret.loc, "X3000", "'%s': functions cannot return objects", f->name->str);
    }
    s->type = plain(ret);
    fx_check_func *fn = fx_alloc(ck->ctx, sizeof(*fn));
    s->fn = fn;
    fx_type *params = fx_alloc(ck->ctx, (f->param_count + 1) * sizeof(*params));
    uint16_t i = 0, required = 0;
    bool defaults = false;
    for (fx_var_decl *p = f->params; p; p = p->next, i++) {
        fx_type t = resolve_type(ck, &p->spec);
        int32_t len = array_length(ck, p);
        if (len < 0) {
            error(ck, p->loc, "X3072", "array dimensions of function parameters must be "
                  "explicit");
            len = 1;
        }
        if (len) {
            t = fx_type_array(t, len);
        }
        if ((t.quals & FX_Q_OUT) && fx_type_is_object(t)) {
            error(ck, p->loc, "X3000", "'%s': objects cannot be out parameters",
                  p->name ? p->name->str : "");
        }
        if (t.base == FX_TYPE_VOID) {
            error(ck, p->loc, "X3000", "parameters cannot be 'void'");
            t = fx_type_error();
        }
        if (p->init) {
            init_value(ck, &p->init, t);
            fxgl_value v;
            if (!fx_check_eval(p->init, &v) && !is_error(p->init->type)) {
                error(ck, p->init->loc, "X3011", "default value must be a literal expression");
            }
            defaults = true;
        } else {
            if (defaults) {
                error(ck, p->loc, "X3044", "'%s': missing default value for parameter '%s'",
                      f->name->str, p->name ? p->name->str : "");
            }
            required = (uint16_t)(i + 1);
        }
        params[i] = t;
        p->type = t;
    }
    fn->sig = (fx_signature){.params = params, .count = i, .required = required};
    // A second body for the same parameter types is a redefinition.
    for (binding *b = f->name->sym; b; b = b->next) {
        if (b->depth != 0 || b->sym->ns != ck->ns) {
            continue;
        }
        if (b->sym->kind != FX_SYM_FUNCTION) {
            // Functions skip the reference's redefinition check (rule 1):
            // one may take the name of an earlier variable or constant.
            continue;
        }
        const fx_signature *o = &b->sym->fn->sig;
        bool same = o->count == fn->sig.count;
        for (uint16_t k = 0; same && k < o->count; k++) {
            same = fx_type_equal(o->params[k], params[k]);
        }
        if (same) {
            error(ck, f->loc, "X3003", "redefinition of '%s': function already has a body",
                  f->name->str);
            break;
        }
    }
    for (fx_attribute *a = f->attrs; a; a = a->next) {
        for (fx_expr *x = a->args; x; x = x->next) {
            check_expr(ck, x);
        }
    }
    rename_shadowed(ck, s);
    bind(ck, s);
    fx_program *p = ck->prog;
    fx_grow(ck->ctx, (void **)&p->functions, &ck->function_cap, p->function_count + 1,
            sizeof(*p->functions), 1u << 24, "functions");
    p->functions[p->function_count++] = s;
    if (!f->body) {
        return;
    }
    ck->func = s;
    ck->func_mark++;
    push_scope(ck);
    for (fx_var_decl *prm = f->params; prm; prm = prm->next) {
        if (!prm->name) {
            continue;
        }
        fx_symbol *ps = new_symbol(ck, FX_SYM_PARAM, prm->name, prm->loc);
        ps->var = prm;
        ps->type = prm->type;
        prm->sym = ps;
        if (existing_local(ck, prm->name)) {
            redefinition(ck, prm->loc, prm->name);
        }
        bind(ck, ps);
    }
    check_stmt(ck, f->body);
    pop_scope(ck);
    ck->func = NULL;
}

// Reports recursion: GLSL forbids it and HLSL does too (X3500).
static void find_cycles(checker *ck, fx_symbol *f, size_t depth) {
    if (f->fn->mark == 2) {
        return;
    }
    if (f->fn->mark == 1) {
        error(ck, f->loc, "X3500", "'%s': recursive functions are not allowed", f->unique);
        return;
    }
    if (depth > 100000) {
        return;
    }
    f->fn->mark = 1;
    for (size_t i = 0; i < f->fn->callee_count; i++) {
        find_cycles(ck, f->fn->callees[i], depth + 1);
    }
    f->fn->mark = 2;
}

// --- top level ---

static void technique(checker *ck, fx_technique *t) {
    check_state_values(ck, t->annotations, false);
    for (fx_pass *p = t->passes; p; p = p->next) {
        check_state_values(ck, p->states, true);
    }
    fx_program *p = ck->prog;
    fx_grow(ck->ctx, (void **)&p->techniques, &ck->technique_cap, p->technique_count + 1,
            sizeof(*p->techniques), 1u << 20, "techniques");
    p->techniques[p->technique_count++] = t;
}

static void decls(checker *ck, fx_decl *d) {
    for (; d; d = d->next) {
        switch ((fx_decl_kind)d->kind) {
        case FX_DECL_NAMESPACE:
            if (d->ns_name) {
                fx_check_ns *outer = ck->ns;
                ck->ns = ns_child(ck, outer, d->ns_name, true);
                decls(ck, d->items);
                ck->ns = outer;
            }
            break;
        case FX_DECL_STRUCT:
            if (d->strct) {
                struct_decl(ck, d->strct);
            }
            break;
        case FX_DECL_FUNC:
            if (d->func) {
                function(ck, d->func);
            }
            break;
        case FX_DECL_VARS:
            global_vars(ck, d);
            break;
        case FX_DECL_TECHNIQUE:
            if (d->tech && d->tech->name) {
                technique(ck, d->tech);
            }
            break;
        }
    }
}

fx_program *fx_check(fx_ctx *ctx, fx_ast *ast) {
    checker ck = {.ctx = ctx};
    ck.prog = fx_alloc(ctx, sizeof(*ck.prog));
    ck.prog->ast = ast;
    ck.global_ns = fx_alloc(ctx, sizeof(*ck.global_ns));
    ck.global_ns->prefix = "";
    ck.ns = ck.global_ns;
    decls(&ck, ast->decls);
    for (size_t i = 0; i < ck.prog->function_count; i++) {
        find_cycles(&ck, ck.prog->functions[i], 0);
    }
    for (size_t i = 0; i < ck.prog->function_count; i++) {
        ck.prog->functions[i]->fn->mark = 0;
    }
    return ck.prog;
}

// --- queries ---

static void reach(fx_symbol *f, uint32_t mark, void (*visit)(void *, fx_symbol *), void *user) {
    if (!f->fn || f->fn->mark == mark) {
        return;
    }
    f->fn->mark = mark;
    visit(user, f);
    for (size_t i = 0; i < f->fn->callee_count; i++) {
        reach(f->fn->callees[i], mark, visit, user);
    }
}

void fx_check_reach(fx_symbol *entry, uint32_t mark, void (*visit)(void *, fx_symbol *),
                    void *user) {
    if (entry && entry->kind == FX_SYM_FUNCTION) {
        reach(entry, mark, visit, user);
    }
}

const char *fx_check_semantic(fx_ctx *ctx, const char *semantic) {
    size_t len = strlen(semantic);
    char *s = fx_alloc(ctx, len + 2);
    for (size_t i = 0; i < len; i++) {
        s[i] = (char)toupper((unsigned char)semantic[i]);
    }
    if (strncmp(s, "SV_", 3) == 0) {
        if (len > 3 && s[len - 1] == '0' && !isdigit((unsigned char)s[len - 2])) {
            s[len - 1] = '\0';
        }
    } else if (len && !isdigit((unsigned char)s[len - 1])) {
        s[len] = '0';
    }
    return s;
}
