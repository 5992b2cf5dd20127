/*
 * fx_ast.h - tokens, the lexer, the syntax tree and the parser of the FX
 * compiler (lex.c, parse.c).
 *
 * The lexer reads preprocessed text (with `#line N "file"` markers and
 * passed-through `#pragma` lines) one token at a time; tokens point into the
 * text and are never copied. Names are interned in a per-compilation table,
 * so the parser and the checker compare fx_ident pointers, and keywords are
 * names that carry a token kind (Lua's reserved-word trick).
 *
 * The parser builds a tree without types: every node keeps the position of
 * its representative token, type syntax is an fx_typespec (an fx_type plus
 * the struct name still to resolve), and fields marked "checker" are left
 * zero for the type checker to fill in (resolved type and symbol). Nothing
 * here is freed singly: all of it lives in the fx_ctx arena.
 */
#ifndef FX_AST_H
#define FX_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fx_base.h"
#include "fx_type.h"

// --- diagnostics of lex.c and parse.c ---

// X(NAME, severity, id, format): one row per message the front end reports.
// Ids reuse the FXC-like codes of the reference where one applies.
#define FX_SYNTAX_DIAGS(X)                                                                      \
    X(INVALID_CHAR, ERROR, "X3000", "invalid character '%s' in source")                        \
    X(UNTERMINATED_STRING, ERROR, "L_UNTERMINATED_STRING", "unterminated string literal")      \
    X(UNTERMINATED_COMMENT, ERROR, "L_UNTERMINATED_COMMENT", "unterminated comment")           \
    X(BAD_NUMBER, ERROR, "L_BAD_NUMBER", "invalid numeric literal '%.*s'")                     \
    X(RESERVED, ERROR, "X3000", "'%.*s' is reserved")                                           \
    X(DOUBLE_LITERAL, WARNING, "L_DOUBLE_LITERAL",                                              \
      "double precision literal '%.*s' is truncated to float")                                 \
    X(DIRECTIVE, ERROR, "L_DIRECTIVE", "unexpected preprocessor directive '%.*s'")             \
    X(SYNTAX, ERROR, "X3000", "syntax error: unexpected %s")                                    \
    X(EXPECTED, ERROR, "X3000", "syntax error: unexpected %s, expected %s")                     \
    X(EXPECTED_CLOSE, ERROR, "X3000",                                                           \
      "syntax error: unexpected %s, expected '%s' (to close '%s' at line %d)")                 \
    X(MULTI_DIM_ARRAY, ERROR, "X3119", "arrays cannot be multi-dimensional")                   \
    X(MISSING_BODY, ERROR, "X3510", "'%s': function is missing an implementation")             \
    X(VECTOR_DIM, ERROR, "X3052", "vector dimension must be between 1 and 4")                  \
    X(MATRIX_DIM, ERROR, "X3053", "matrix dimensions must be between 1 and 4")                 \
    X(VECTOR_ELEM, ERROR, "X3122", "vector element type must be a scalar type")                \
    X(MATRIX_ELEM, ERROR, "X3123", "matrix element type must be a scalar type")                \
    X(OBJECT_ELEM, ERROR, "P_OBJECT_ELEMENT",                                                   \
      "element type of '%s' must be a numeric scalar or vector type")                          \
    X(UNKNOWN_ATTRIBUTE, WARNING, "X3554", "unknown attribute '%s'")                            \
    X(ATTRIBUTE_CONFLICT, ERROR, "X3524", "can't use '%s' and '%s' attributes together")       \
    X(ANNOTATION_TYPE, WARNING, "X4717", "type prefixes for annotations are deprecated and ignored")

typedef enum fx_syntax_diag {
#define FX_X(name, sev, id, fmt) FX_D_##name,
    FX_SYNTAX_DIAGS(FX_X)
#undef FX_X
    FX_D_COUNT,
} fx_syntax_diag;

FX_INTERNAL const char *fx_syntax_diag_id(fx_syntax_diag d);

typedef struct fx_loc fx_loc;
// Reports diagnostic d at loc with the table's format and the arguments.
FX_INTERNAL void fx_lex_report(fx_ctx *ctx, fx_syntax_diag d, const fx_loc *loc, ...);

// --- tokens ---

// Single-character punctuators are their own character ('(' , ';', ...), like
// Lua; everything else starts at 256. ORDER: fx_tok_spelling in lex.c.
#define FX_TOKENS(X)                                                                            \
    X(EOF, "end of file")                                                                       \
    X(IDENT, "identifier")                                                                      \
    X(INT, "integer literal")                                                                   \
    X(UINT, "unsigned integer literal")                                                         \
    X(FLOAT, "floating point literal")                                                          \
    X(BOOL, "boolean literal")                                                                  \
    X(STRING, "string literal")                                                                 \
    X(TYPE, "type")            /* every built-in type name; fx_ident.type says which */        \
    X(QUALIFIER, "qualifier")  /* fx_ident.quals says which */                                  \
    X(VECTOR, "vector")                                                                         \
    X(MATRIX, "matrix")                                                                         \
    X(NAMESPACE, "namespace")                                                                   \
    X(STRUCT, "struct")                                                                         \
    X(TECHNIQUE, "technique")                                                                   \
    X(PASS, "pass")                                                                             \
    X(IF, "if")                                                                                 \
    X(ELSE, "else")                                                                             \
    X(SWITCH, "switch")                                                                         \
    X(CASE, "case")                                                                             \
    X(DEFAULT, "default")                                                                       \
    X(FOR, "for")                                                                               \
    X(WHILE, "while")                                                                           \
    X(DO, "do")                                                                                 \
    X(BREAK, "break")                                                                           \
    X(CONTINUE, "continue")                                                                     \
    X(RETURN, "return")                                                                         \
    X(DISCARD, "discard")                                                                       \
    X(EQ, "==")                                                                                 \
    X(NE, "!=")                                                                                 \
    X(LE, "<=")                                                                                 \
    X(GE, ">=")                                                                                 \
    X(ANDAND, "&&")                                                                             \
    X(OROR, "||")                                                                               \
    X(SHL, "<<")                                                                                \
    X(SHR, ">>")                                                                                \
    X(INC, "++")                                                                                \
    X(DEC, "--")                                                                                \
    X(ADD_ASSIGN, "+=")                                                                         \
    X(SUB_ASSIGN, "-=")                                                                         \
    X(MUL_ASSIGN, "*=")                                                                         \
    X(DIV_ASSIGN, "/=")                                                                         \
    X(MOD_ASSIGN, "%=")                                                                         \
    X(AND_ASSIGN, "&=")                                                                         \
    X(OR_ASSIGN, "|=")                                                                          \
    X(XOR_ASSIGN, "^=")                                                                         \
    X(SHL_ASSIGN, "<<=")                                                                        \
    X(SHR_ASSIGN, ">>=")                                                                        \
    X(SCOPE, "::")                                                                              \
    X(ARROW, "->")                                                                              \
    X(ELLIPSIS, "...")

typedef enum fx_tok_kind {
    FX_TOK_FIRST_NAMED = 256,
#define FX_X(name, spelling) FX_TOK_##name,
    FX_TOKENS(FX_X)
#undef FX_X
    FX_TOK_COUNT,
} fx_tok_kind;

// Where a token came from, resolved: the file and line as #line markers say
// and the column in that line (1-based, bytes). Tokens and diagnostics carry
// one; tree nodes carry the 4-byte fx_pos below and resolve it when they
// report (fx_lex_loc).
struct fx_loc {
    const char *file;            // borrowed from the lexer (arena); "" when unknown
    int32_t line;                // 1-based
    int32_t col;                 // 1-based
};

// A node's position: the byte offset of its token in the lexer's text
// (the preprocessed source, alive as long as the tree). FX_POS_NONE: unknown.
typedef struct fx_pos {
    uint32_t off;
} fx_pos;

#define FX_POS_NONE ((fx_pos){UINT32_MAX})

// One entry of the lexer's line map: the line that starts at text offset
// `off` is line `line` of `file`. There is one after every #line marker and
// one every FX_LEX_MAP_STRIDE lines, so resolving a position scans at most
// that many lines.
typedef struct fx_line_mark {
    uint32_t off;
    int32_t line;
    const char *file;            // arena
} fx_line_mark;

#define FX_LEX_MAP_STRIDE 64

enum {
    FX_IDENT_STRUCT = 1 << 0,    // declared as a struct name somewhere (parser)
    FX_IDENT_RESERVED = 1 << 1,  // a reserved word, already reported
};

// An interned name. A keyword gets its token kind when first interned (lex.c).
typedef struct fx_ident {
    struct fx_ident *next;       // fx_lexer.idents hash chain
    uint32_t len;                // bytes in str
    uint32_t hash;               // FNV-1a of str
    uint16_t kind;               // FX_TOK_IDENT or the keyword's kind
    uint16_t flags;              // FX_IDENT_*
    uint16_t quals;              // FX_TOK_QUALIFIER: the FX_Q_* bit
    fx_type type;                // FX_TOK_TYPE: the type the name stands for
    void *sym;                   // checker: free for its symbol table (NULL from the parser)
    char str[];                  // the name, NUL-terminated, in the same allocation
} fx_ident;

typedef struct fx_token {
    int kind;                    // fx_tok_kind or a punctuator character
    uint32_t len;                // bytes of source text
    uint32_t offset;             // byte offset of text in the input
    const char *text;            // borrowed: the token's text in the input
    fx_loc loc;                  // position of the first byte
    fx_ident *ident;             // IDENT, TYPE, QUALIFIER, keywords: the interned name
    union {
        uint64_t ival;           // INT, UINT, BOOL (saturated at UINT64_MAX; the checker truncates)
        double fval;             // FLOAT
        struct {
            const char *str;     // STRING: escapes decoded, NUL-terminated (arena)
            uint32_t str_len;    // STRING: bytes in str
        };
    };
} fx_token;

// A passed-through `#pragma` line, kept for the code generator.
typedef struct fx_pragma {
    struct fx_pragma *next;      // fx_lexer.pragmas, in source order
    const char *text;            // borrowed: after "#pragma", up to the end of the line
    uint32_t len;                // bytes of text
    fx_loc loc;                  // position of the '#'
} fx_pragma;

typedef struct fx_lexer {
    fx_ctx *ctx;                 // borrowed
    const char *text;            // borrowed: the whole input
    const char *end;             // text + length
    const char *cur;             // next byte to read
    const char *line_start;      // first byte of the current line (for columns)
    const char *file;            // current file name (arena), from #line
    int32_t line;                // current line
    bool at_line_start;          // only blanks since the last newline (directives)
    fx_ident **idents;           // hash table (arena), ident_mask + 1 buckets
    uint32_t ident_mask;         // buckets - 1 (a power of two minus one)
    uint32_t ident_count;        // interned names
    fx_pragma *pragmas;          // #pragma lines seen so far
    fx_pragma **pragma_tail;     // where the next pragma is linked
    const char *first_file;      // the file before the first marker (arena)
    fx_line_mark *marks;         // line map (arena), in text order
    size_t mark_count;
    size_t mark_cap;
    uint32_t lines_since_mark;   // lines read since the last mark
    bool mark_pending;           // a #line marker was read: mark the next line
} fx_lexer;

// text need not be NUL-terminated. file is the name to report before the
// first #line marker (copied).
FX_INTERNAL void fx_lex_init(fx_lexer *lx, fx_ctx *ctx, const char *text, size_t len,
                             const char *file);
// Reads the next token; at the end it keeps returning FX_TOK_EOF.
FX_INTERNAL void fx_lex_next(fx_lexer *lx, fx_token *tok);
// The file, line and column of pos (a token's offset) in lx's text, from the
// line map: what the token at pos had as its loc. FX_POS_NONE gives {"", 0, 0}.
FX_INTERNAL fx_loc fx_lex_loc(const fx_lexer *lx, fx_pos pos);
// The interned name for s (keywords come back with their kind).
FX_INTERNAL fx_ident *fx_lex_intern(fx_lexer *lx, const char *s, size_t len);
// "identifier", "==", "(" ...: how messages name a token kind.
FX_INTERNAL const char *fx_tok_spelling(int kind, char buf[2]);

// --- syntax tree ---

typedef struct fx_expr fx_expr;
typedef struct fx_stmt fx_stmt;
typedef struct fx_var_decl fx_var_decl;
typedef struct fx_func_decl fx_func_decl;
typedef struct fx_decl fx_decl;

// The namespace part of a qualified name, allocated to its exact size.
typedef struct fx_name_scope {
    uint16_t count;              // entries in parts (0 for `::a`)
    bool rooted;                 // written with a leading '::' (search from the global scope)
    fx_ident *parts[];           // the namespace parts before the name, outermost first
} fx_name_scope;

// A possibly qualified name as written: `a`, `NS::a`, `::a`. 16 bytes: most
// names have no scope, which costs nothing but the NULL pointer.
typedef struct fx_name {
    fx_ident *ident;             // the last part (the name itself); NULL only in error nodes
    const fx_name_scope *scope;  // NULL for a plain name
} fx_name;

static inline unsigned fx_name_depth(const fx_name *n) {  // namespace parts before the name
    return n->scope ? n->scope->count : 0;
}

static inline bool fx_name_rooted(const fx_name *n) {
    return n->scope && n->scope->rooted;
}

static inline bool fx_name_qualified(const fx_name *n) {  // NS::a or ::a
    return n->scope != NULL;
}

// Type syntax. For built-in types type is complete (shape, object element
// type; sampler/storage/texture default to float4 elements). For a struct
// type type.base is FX_TYPE_STRUCT, type.strct NULL and name says which struct
// the checker must find. Qualifiers are in type.quals. Arrays belong to the
// declarator, not here.
typedef struct fx_typespec {
    fx_type type;                // as far as the syntax says
    fx_name name;                // struct types: the name to resolve; ident NULL otherwise
    fx_pos loc;                  // the first token of the type (after qualifiers)
} fx_typespec;

typedef enum fx_expr_kind {
    FX_EXPR_ERROR,               // a syntax error was reported here; nothing else is known
    FX_EXPR_INT,                 // value.ival; unsigned when FX_EXPR_UNSIGNED is set in flags
    FX_EXPR_FLOAT,               // value.fval
    FX_EXPR_BOOL,                // value.ival 0 or 1
    FX_EXPR_STRING,              // value.str/str_len (adjacent literals concatenated)
    FX_EXPR_NAME,                // name: a variable, constant, texture, function name...
    FX_EXPR_UNARY,               // op lhs: '-' '+' '!' '~' FX_TOK_INC FX_TOK_DEC (prefix)
    FX_EXPR_POSTFIX,             // lhs op: FX_TOK_INC FX_TOK_DEC
    FX_EXPR_BINARY,              // lhs op rhs (op: token kind, e.g. '+', FX_TOK_ANDAND)
    FX_EXPR_ASSIGN,              // lhs op rhs (op: '=' or FX_TOK_*_ASSIGN)
    FX_EXPR_TERNARY,             // cond ? lhs : rhs
    FX_EXPR_COMMA,               // lhs, rhs (value of rhs)
    FX_EXPR_CAST,                // (spec) lhs
    FX_EXPR_CONSTRUCT,           // spec(args): float4(...), vector<float,3>(...)
    FX_EXPR_CALL,                // name(args)
    FX_EXPR_INDEX,               // lhs[rhs]
    FX_EXPR_MEMBER,              // lhs.member: struct member or swizzle (checker decides)
    FX_EXPR_INIT_LIST,           // { args } (initializers only)
} fx_expr_kind;

enum {
    FX_EXPR_UNSIGNED = 1 << 0,   // FX_EXPR_INT: written with a u/U suffix
    FX_EXPR_PARENS = 1 << 1,     // written inside parentheses
};

// An expression node. Memory: nodes are the bulk of a compilation (one per
// 5-10 bytes of source), so each kind is allocated with only the fields it
// uses: the common part (kind to sym) and then its own, laid out in slots
// that kinds share through unions (fx_expr_size gives the bytes). Read only
// the fields of e->kind; code that walks any expression uses fx_expr_lhs,
// fx_expr_rhs, fx_expr_cond, fx_expr_args and fx_expr_sym, which are NULL
// for kinds without that field. A node never changes to a larger kind (the checker's
// INIT_LIST -> CONSTRUCT rewrite keeps the size).
struct fx_expr {
    uint8_t kind;                // fx_expr_kind
    uint8_t flags;               // FX_EXPR_*
    uint16_t op;                 // operator token kind (UNARY, POSTFIX, BINARY, ASSIGN)
    fx_pos loc;                  // operator, literal, name, '(' of a cast, '{' of a list
    fx_type type;                // checker: the expression's type
    fx_expr *next;               // next in an argument / initializer / attribute list
    // --- kind-specific slots, 8 bytes each, from FX_EXPR_COMMON_SIZE on ---
    union {
        struct {
            fx_expr *lhs;        // slot 0: UNARY POSTFIX BINARY ASSIGN COMMA CAST INDEX
                                 // MEMBER; TERNARY: the true value; INDEX, MEMBER: the object
            union {              // slot 1
                fx_expr *rhs;    // BINARY ASSIGN COMMA; INDEX: the index; TERNARY: false value
                fx_typespec *spec; // CAST, CONSTRUCT: the type written
                fx_ident *member;  // MEMBER: the member or swizzle name as written
            };
        };
        fx_name name;            // slots 0-1: NAME, CALL
        union {
            uint64_t ival;
            double fval;
            struct {
                const char *str; // arena, NUL-terminated
                uint32_t str_len;
            };
        } value;                 // slot 0 (STRING: 0-1): INT, FLOAT, BOOL, STRING
    };
    union {                      // slot 2
        fx_expr *cond;           // TERNARY: the condition
        void *sym;               // NAME, CALL, MEMBER: checker: the resolved declaration /
                                 // overload (fx_expr_sym reads it for any kind)
    };
    fx_expr *args;               // slot 3: CALL, CONSTRUCT, INIT_LIST: first argument
    uint32_t arg_count;          // CALL, CONSTRUCT, INIT_LIST: entries in args
};

#define FX_EXPR_COMMON_SIZE offsetof(fx_expr, lhs)

// Bytes a node of this kind occupies (at most sizeof(fx_expr)).
FX_INTERNAL size_t fx_expr_size(int kind);
// A new node of this kind from ctx's arena, zeroed, with kind and loc set.
FX_INTERNAL fx_expr *fx_expr_new(fx_ctx *ctx, int kind, fx_pos loc);

static inline bool fx_expr_has_lhs(int kind) {
    return kind == FX_EXPR_UNARY || kind == FX_EXPR_POSTFIX || kind == FX_EXPR_BINARY ||
           kind == FX_EXPR_ASSIGN || kind == FX_EXPR_TERNARY || kind == FX_EXPR_COMMA ||
           kind == FX_EXPR_CAST || kind == FX_EXPR_INDEX || kind == FX_EXPR_MEMBER;
}

static inline bool fx_expr_has_rhs(int kind) {
    return kind == FX_EXPR_BINARY || kind == FX_EXPR_ASSIGN || kind == FX_EXPR_TERNARY ||
           kind == FX_EXPR_COMMA || kind == FX_EXPR_INDEX;
}

static inline bool fx_expr_has_args(int kind) {
    return kind == FX_EXPR_CALL || kind == FX_EXPR_CONSTRUCT || kind == FX_EXPR_INIT_LIST;
}

// The operands of any expression (NULL where its kind has none), for walkers.
static inline fx_expr *fx_expr_lhs(const fx_expr *e) {
    return fx_expr_has_lhs(e->kind) ? e->lhs : NULL;
}

static inline fx_expr *fx_expr_rhs(const fx_expr *e) {
    return fx_expr_has_rhs(e->kind) ? e->rhs : NULL;
}

static inline fx_expr *fx_expr_cond(const fx_expr *e) {
    return e->kind == FX_EXPR_TERNARY ? e->cond : NULL;
}

static inline fx_expr *fx_expr_args(const fx_expr *e) {
    return fx_expr_has_args(e->kind) ? e->args : NULL;
}

static inline void *fx_expr_sym(const fx_expr *e) {  // NULL for kinds without a symbol
    return e->kind == FX_EXPR_NAME || e->kind == FX_EXPR_CALL || e->kind == FX_EXPR_MEMBER
               ? e->sym
               : NULL;
}

// `[name(args)]` before a function or a statement.
typedef struct fx_attribute {
    struct fx_attribute *next;   // next attribute of the same declaration/statement
    fx_pos loc;                  // the name
    fx_ident *name;
    fx_expr *args;               // NULL without parentheses
    uint32_t arg_count;
} fx_attribute;

// `name = value;` inside `< >` (annotations), a property block `{ }` of a
// texture/sampler/storage, or a pass (states).
typedef struct fx_state {
    struct fx_state *next;       // next in source order
    fx_pos loc;                  // the name
    uint32_t targ_count;         // entries in targs
    fx_ident *name;              // as written ("RenderTarget1", "Width", "ui_label")
    fx_expr *value;              // FX_EXPR_NAME for enum words like RGBA16F or CLAMP
    fx_typespec *spec;           // annotations only: the deprecated type prefix, else NULL
    fx_expr *targs;              // shader states only: `CS<8, 8, 1>` thread counts, else NULL
} fx_state;

// One declarator: a global or local variable, a texture/sampler/storage, a
// uniform, a struct member or a function parameter. Declarators of one
// declaration each get a copy of the typespec.
struct fx_var_decl {
    fx_var_decl *next;           // next declarator / member / parameter
    fx_ident *name;              // NULL only after a syntax error
    fx_pos loc;                  // the name
    fx_pos semantic_loc;         // the semantic's position
    fx_typespec spec;            // type and qualifiers as written
    fx_expr *array_size;         // `[N]`; NULL when not an array or unsized
    fx_ident *semantic;          // `: NAME` as written (case kept), or NULL
    fx_state *annotations;       // `< >`, or NULL
    fx_expr *init;               // `= value` (initializer or default argument), or NULL
    fx_state *props;             // property block entries, or NULL
    fx_type type;                // checker: resolved type (array_len set)
    void *sym;                   // checker
    bool is_array;               // written with brackets
    bool has_props;              // a `{ }` property block was written (even empty)
};

// Named fx_struct_decl because fx_type.strct points here.
struct fx_struct_decl {
    fx_pos loc;                  // the `struct` keyword
    fx_ident *name;              // NULL for an anonymous struct
    fx_var_decl *members;        // in order
    uint32_t member_count;
    void *sym;                   // checker
};

struct fx_func_decl {
    fx_pos loc;                  // the name
    fx_pos ret_semantic_loc;
    fx_ident *name;
    fx_attribute *attrs;         // `[shader("pixel")]`, `[numthreads(8, 8, 1)]`, or NULL
    fx_typespec ret;             // return type
    fx_var_decl *params;         // in order
    uint32_t param_count;
    fx_ident *ret_semantic;      // `: SV_Target`, or NULL
    fx_stmt *body;               // FX_STMT_BLOCK; NULL for a prototype (reported)
    void *sym;                   // checker
};

typedef struct fx_pass {
    struct fx_pass *next;        // next pass of the technique
    fx_pos loc;                  // the `pass` keyword
    fx_ident *name;              // NULL when unnamed
    fx_state *states;            // in order
} fx_pass;

typedef struct fx_technique {
    fx_pos loc;                  // the name
    fx_ident *name;
    fx_state *annotations;
    fx_pass *passes;
    uint32_t pass_count;
} fx_technique;

typedef enum fx_stmt_kind {
    FX_STMT_ERROR,               // a statement that did not parse
    FX_STMT_EMPTY,               // `;`
    FX_STMT_BLOCK,               // { body... }
    FX_STMT_EXPR,                // expr;
    FX_STMT_DECL,                // decls; (local variables)
    FX_STMT_IF,                  // if (expr) body [else els]
    FX_STMT_SWITCH,              // switch (expr) { body: FX_STMT_CASE list }
    FX_STMT_CASE,                // labels ':' body... (inside a switch only)
    FX_STMT_FOR,                 // for (init; expr; inc) body
    FX_STMT_WHILE,               // while (expr) body
    FX_STMT_DO,                  // do body while (expr);
    FX_STMT_BREAK,
    FX_STMT_CONTINUE,
    FX_STMT_RETURN,              // return [expr];
    FX_STMT_DISCARD,
} fx_stmt_kind;

// A statement. Like fx_expr, each kind is allocated only as far as its last
// field (fx_stmt_size): the fields are ordered so that the common kinds
// (EXPR, RETURN, DECL) need the fewest bytes. Read only the fields of
// s->kind; walkers use the fx_stmt_* accessors below.
struct fx_stmt {
    uint8_t kind;                // fx_stmt_kind
    bool has_default;            // FX_STMT_CASE: a `default:` label is among the labels
    fx_pos loc;                  // the keyword, the '{', or the first token
    fx_stmt *next;               // next statement of the block / case
    fx_attribute *attrs;         // `[unroll]`, `[branch]`..., or NULL
    fx_expr *expr;               // EXPR, RETURN; condition of IF/SWITCH/FOR/WHILE/DO;
                                 // CASE: the `case` values (linked by next)
    fx_var_decl *decls;          // DECL: the declarators
    fx_stmt *body;               // BLOCK/CASE: first statement; loops, IF: the body;
                                 // SWITCH: first CASE
    uint32_t count;              // BLOCK: statements in body; CASE: labels
    fx_stmt *els;                // IF: else branch, or NULL
    fx_stmt *init;               // FOR: DECL, EXPR or NULL
    fx_expr *inc;                // FOR: increment, or NULL
};

// Bytes a statement of this kind occupies (at most sizeof(fx_stmt)).
FX_INTERNAL size_t fx_stmt_size(int kind);

static inline fx_expr *fx_stmt_expr(const fx_stmt *s) {
    switch (s->kind) {
    case FX_STMT_EXPR: case FX_STMT_RETURN: case FX_STMT_IF: case FX_STMT_SWITCH:
    case FX_STMT_CASE: case FX_STMT_FOR: case FX_STMT_WHILE: case FX_STMT_DO:
        return s->expr;
    default:
        return NULL;
    }
}

static inline fx_stmt *fx_stmt_body(const fx_stmt *s) {
    switch (s->kind) {
    case FX_STMT_BLOCK: case FX_STMT_CASE: case FX_STMT_IF: case FX_STMT_SWITCH:
    case FX_STMT_FOR: case FX_STMT_WHILE: case FX_STMT_DO:
        return s->body;
    default:
        return NULL;
    }
}

static inline fx_var_decl *fx_stmt_decls(const fx_stmt *s) {
    return s->kind == FX_STMT_DECL ? s->decls : NULL;
}

static inline fx_stmt *fx_stmt_els(const fx_stmt *s) {
    return s->kind == FX_STMT_IF ? s->els : NULL;
}

static inline fx_stmt *fx_stmt_init(const fx_stmt *s) {
    return s->kind == FX_STMT_FOR ? s->init : NULL;
}

static inline fx_expr *fx_stmt_inc(const fx_stmt *s) {
    return s->kind == FX_STMT_FOR ? s->inc : NULL;
}

typedef enum fx_decl_kind {
    FX_DECL_NAMESPACE,           // ns_name { items }
    FX_DECL_STRUCT,              // strct
    FX_DECL_FUNC,                // func
    FX_DECL_VARS,                // vars: one declaration, one or more declarators
    FX_DECL_TECHNIQUE,           // tech
} fx_decl_kind;

// One top-level item (or one inside a namespace).
struct fx_decl {
    uint8_t kind;                // fx_decl_kind
    fx_pos loc;                  // first token
    fx_decl *next;               // next item of the file / namespace
    fx_ident *ns_name;           // NAMESPACE
    fx_decl *items;              // NAMESPACE: its items
    fx_struct_decl *strct;       // STRUCT
    fx_func_decl *func;          // FUNC
    fx_var_decl *vars;           // VARS
    fx_technique *tech;          // TECHNIQUE
};

typedef struct fx_ast {
    fx_decl *decls;              // top-level items in source order
    fx_pragma *pragmas;          // #pragma lines in source order
    fx_lexer *lexer;             // the name table: fx_lex_intern(ast->lexer, "Width", 5)
} fx_ast;

// --- parser ---

// Parses preprocessed text. Errors go to ctx (ctx->errors counts them); the
// tree is returned anyway, with FX_EXPR_ERROR/FX_STMT_ERROR where the syntax
// was wrong. Limits and the error cap call fx_fatal (ctx->fatal must be set).
FX_INTERNAL fx_ast *fx_parse(fx_ctx *ctx, const char *text, size_t len, const char *file);

// S-expression dumps for tests and `fxc`: `(+ a (* b c))`.
FX_INTERNAL void fx_ast_dump(const fx_ast *ast, FILE *out);
FX_INTERNAL void fx_expr_dump(const fx_expr *e, FILE *out);
FX_INTERNAL void fx_stmt_dump(const fx_stmt *s, FILE *out);
FX_INTERNAL void fx_typespec_dump(const fx_typespec *t, FILE *out);

#endif // FX_AST_H
