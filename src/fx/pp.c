/*
 * pp.c - the FX preprocessor: source files in, one preprocessed text out
 * (the format is described in fx_pp.h).
 *
 * Shape: a stack of source files, each scanned by lex() into pp tokens; a
 * stack of expansion frames above it (cpplib's contexts): a macro's frame
 * keeps the macro disabled until the frame has been read to its end, which
 * is what hides a macro inside its own expansion; a name found while its
 * macro is disabled is painted and never expands again. Directives are
 * handled where file tokens are read (src_next), so they also work inside a
 * function-like macro's argument list. Groups under a false condition are
 * passed over by a character scanner (skip_group) that only looks for
 * conditional directives, so the game-profile headers with thousands of
 * `#elif __APPLICATION__ == ...` lines cost little.
 *
 * Behaviour follows the reference preprocessor (reshade_reference.md §1.11)
 * where real effects depend on it:
 *  - a backslash-newline is whitespace between tokens, not a line splice: a
 *    `// comment \` line does not swallow the next line (the corpus has an
 *    effect that only compiles this way), while #define bodies still go on;
 *  - `##` concatenates spellings and re-scans the result, so pastes that do
 *    not form one token (`Tint##id##.rgb`) give the tokens the text spells;
 *  - #include takes only "names", macro-expanded names included; `\` is a
 *    separator; a name that does not match exactly is looked up without
 *    regard to case, directory by directory, as on Windows;
 *  - #error and #warning take a string literal; unknown pragmas warn.
 *
 * Memory: everything is in the context's arena. Token arrays of expansion
 * frames go back to a free list by size class when the frame ends, so the
 * working set of macro expansion stays bounded by its depth, not by the
 * number of expansions.
 *
 * Output columns: a token read straight from a file is padded to its source
 * column, so the lexer's positions match the source; tokens of a macro
 * expansion are placed where the macro name was and follow it on one line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "fx_pp.h"

#define PP_MAX_BLANK_LINES 8          // more skipped lines than this get a #line marker
#define PP_MAX_EXPANSION_TOKENS (1u << 22) // tokens in one expansion result
#define PP_MAX_SEARCH_DIRS 4096       // directories below one `**` include path
#define PP_MAX_SEARCH_DEPTH 16        // levels below one `**` include path

// --- tokens ---

enum {
    T_EOF,                       // end of a file, a directive line or a pushed frame
    T_NL,
    T_IDENT,
    T_NUMBER,
    T_STRING,
    T_PUNCT,                     // operators and any other single byte
    T_PARAM,                     // macro body only: parameter number `param`
    T_PLACEMARKER,               // during substitution: an empty argument next to ##
    T_STOP,                      // a peek for '(' that met a directive line
};

enum {
    F_SPACE = 1,                 // whitespace or a comment before the token
    F_NOEXPAND = 2,              // a macro name met while that macro was disabled
    F_SRC = 4,                   // read straight from a file: line/col are its own
    F_BOL = 8,                   // first token of a line (directive detection)
    F_GLUED = 16,                // part of a paste's spelling: no space before it
};

typedef struct pp_tok {
    const char *text;            // spelling; not NUL-terminated
    uint32_t len;
    uint8_t kind;
    uint8_t flags;
    uint16_t param;              // T_PARAM: the parameter's index
    int32_t line;
    int32_t col;
} pp_tok;

typedef struct tokvec {
    pp_tok *v;
    uint32_t n;
    uint32_t cap;
} tokvec;

// --- macros ---

enum {
    B_NONE,
    B_LINE,
    B_FILE,
    B_FILE_NAME,
    B_FILE_STEM,
    B_FILE_NAME_HASH,
    B_FILE_STEM_HASH,
};

typedef struct pp_macro {
    struct pp_macro *next;       // hash chain
    const char *name;
    uint32_t name_len;
    uint32_t hash;
    pp_tok *body;
    uint32_t body_len;
    uint16_t nparams;
    uint8_t builtin;             // B_*
    bool function_like;
    bool variadic;
    bool disabled;               // its expansion frame is on the stack
    bool predefined;
    bool has_paste;              // the body has ## (function-like only; object-like is pasted once)
    const char **params;         // names, NUL-terminated
    const char *file;            // where defined (redefinition messages)
    int line;
} pp_macro;

typedef struct name_entry {
    struct name_entry *next;
    const char *name;
    uint32_t len;
    uint32_t hash;
} name_entry;

// --- files ---

typedef struct pp_file {
    struct pp_file *next;        // the cache
    const char *name;            // as shown in messages and markers
    const char *real;            // identity (realpath)
    const char *dir;             // for relative includes; "" = current directory
    char *text;                  // NUL-terminated, ends with '\n' unless empty
    size_t len;
    bool once;                   // #pragma once seen
    bool active;                 // on the include stack now
} pp_file;

typedef struct pp_src {
    struct pp_src *parent;
    pp_file *file;
    const char *name;            // reported name (#line may change it)
    const char *cur;
    const char *end;
    const char *line_start;
    int32_t line;
    bool bol;                    // next token starts a line
    int cond_base;               // conditional depth when the file was entered
    int inc_line, inc_col;       // where the parent included it
    const char *builtin_text[7]; // cached __FILE__ & co spellings, by B_*
} pp_src;

typedef struct pp_cond {
    bool taken;                  // a group of this #if chain was (or is) active
    bool in_else;
    const char *file;
    int32_t line, col;
} pp_cond;

typedef struct pp_frame {
    const pp_tok *toks;
    uint32_t pos, count;
    tokvec owned;                // returns to the pool when the frame ends
    pp_macro *macro;             // re-enabled when the frame ends
    int32_t line, col;           // the invocation: every token gets it
    bool keep_pos;               // directive-line and argument frames keep positions
} pp_frame;

typedef struct macro_args {
    tokvec toks;                 // every argument's tokens, one after the other
    uint32_t start[256 + 1];
    uint32_t count;
} macro_args;

// What one level of function-like expansion works in; kept per nesting
// level so that expanding does not allocate each time.
typedef struct expand_scratch {
    macro_args args;
    tokvec expanded[256];        // arguments after macro expansion, made when used
    bool have[256];
} expand_scratch;

typedef struct pp {
    fx_ctx *ctx;
    const fx_pp_desc *desc;
    pp_src *src;
    pp_file *files;
    int include_depth;

    pp_macro **macros;
    uint32_t macro_mask;
    uint32_t macro_count;

    pp_frame *frames;            // grown by push_frame up to FX_LIMIT_MACRO_DEPTH
    int nframes, frames_cap;
    pp_tok back;                 // one token pushed back by a peek
    bool has_back;

    pp_cond *conds;              // grown by push_cond up to FX_LIMIT_IF_DEPTH
    int nconds, conds_cap;

    pp_tok *pool[32];            // free token arrays by log2 capacity
    expand_scratch *scratch[FX_LIMIT_MACRO_DEPTH + 1];
    int scratch_depth;
    size_t expanded;             // tokens of all expansions so far (FX_LIMIT_EXPANSION)

    // Search directories: desc's include paths with `**` expanded.
    const char **dirs;
    size_t ndirs, dirs_cap;

    // Output.
    char *out;
    size_t out_len, out_cap, out_limit;
    const char *out_file;
    int32_t out_line;
    int32_t out_col;
    char out_last;               // last byte written on this line (0 at line start)
    int out_last_kind;           // the kind of the token that wrote it

    // Results.
    const char **included;
    size_t nincluded, included_cap;
    const char **pragmas;
    size_t npragmas, pragmas_cap;
    const char **ifdefs;
    size_t nifdefs, ifdefs_cap;
    name_entry **ifdef_seen;
    uint32_t ifdef_mask;
    struct dir_listing *listings; // directories read so far (include lookup)
    const char *tok_file;        // file of the token next_expanded returned, when the
                                 // file being read is no longer that one (NULL: it is)
} pp;

// --- small helpers ---

static bool is_ident_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(unsigned char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

static bool tok_is(const pp_tok *t, const char *s) {
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0 && t->kind != T_STRING;
}

static bool tok_punct(const pp_tok *t, char c) {
    return t->kind == T_PUNCT && t->len == 1 && t->text[0] == c;
}

static uint32_t hash_name(const char *s, size_t len) {
    return (uint32_t)fx_hash_fnv1a64(s, len);
}

static char *tok_str(pp *p, const pp_tok *t) {
    return fx_strndup(p->ctx, t->text, t->len);
}

// --- diagnostics ---

static const char *include_chain(pp *p) {
    if (!p->src || !p->src->parent) {
        return NULL;
    }
    size_t size = 1;
    for (pp_src *s = p->src; s->parent; s = s->parent) {
        size += strlen(s->parent->name) + 64;
    }
    char *chain = fx_alloc(p->ctx, size);
    size_t used = 0;
    for (pp_src *s = p->src; s->parent; s = s->parent) {
        used += (size_t)snprintf(chain + used, size - used, "  included from %s(%d, %d)\n",
                                 s->parent->name, s->inc_line, s->inc_col);
    }
    return chain;
}

static void report(pp *p, fxgl_diag_severity sev, const char *id, int line, int col,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void report(pp *p, fxgl_diag_severity sev, const char *id, int line, int col,
                   const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const char *file = p->src ? p->src->name : p->desc->path;
    fx_report(p->ctx, sev, id, file, line, col, include_chain(p), "%s", msg);
}

#define pp_error(p, id, t, ...) report(p, FXGL_DIAG_ERROR, id, (t)->line, (t)->col, __VA_ARGS__)
#define pp_warn(p, id, t, ...) report(p, FXGL_DIAG_WARNING, id, (t)->line, (t)->col, __VA_ARGS__)

// --- token arrays ---

static unsigned size_class(uint32_t cap) {
    unsigned k = 0;
    while ((1u << k) < cap) {
        k++;
    }
    return k;
}

static void tv_reserve(pp *p, tokvec *tv, uint32_t need) {
    if (need <= tv->cap) {
        return;
    }
    if (need > PP_MAX_EXPANSION_TOKENS) {
        fx_limit(p->ctx, p->src ? p->src->name : "", p->src ? p->src->line : 0, 0,
                 "tokens in one macro expansion", (long)PP_MAX_EXPANSION_TOKENS);
    }
    uint32_t cap = tv->cap ? tv->cap * 2 : 16;
    while (cap < need) {
        cap *= 2;
    }
    unsigned k = size_class(cap);
    pp_tok *v = p->pool[k];
    if (v) {
        p->pool[k] = *(pp_tok **)v;
    } else {
        v = fx_alloc(p->ctx, ((size_t)1 << k) * sizeof(pp_tok));
    }
    if (tv->n) {
        memcpy(v, tv->v, tv->n * sizeof(pp_tok));
    }
    if (tv->v) {
        unsigned old = size_class(tv->cap);
        *(pp_tok **)tv->v = p->pool[old];
        p->pool[old] = tv->v;
    }
    tv->v = v;
    tv->cap = 1u << k;
}

static void tv_push(pp *p, tokvec *tv, const pp_tok *t) {
    if (tv->n == tv->cap) {
        tv_reserve(p, tv, tv->n + 1);
    }
    tv->v[tv->n++] = *t;
}

static void tv_free(pp *p, tokvec *tv) {
    if (tv->v) {
        unsigned k = size_class(tv->cap);
        *(pp_tok **)tv->v = p->pool[k];
        p->pool[k] = tv->v;
    }
    *tv = (tokvec){0};
}

// --- scanning ---

static void lex_error_at(pp *p, pp_src *s, const char *at, const char *id, const char *msg) {
    report(p, FXGL_DIAG_ERROR, id, s->line, (int)(at - s->line_start) + 1, "%s", msg);
}

// The next pp token of s. Newlines are tokens; comments and backslash-newline
// are whitespace. Relies on the text being NUL-terminated past s->end.
static void lex(pp *p, pp_src *s, pp_tok *t) {
    const char *c = s->cur;
    const char *end = s->end;
    uint8_t flags = s->bol ? F_BOL : 0;
    for (;;) {
        if (c >= end) {
            break;
        }
        unsigned char ch = (unsigned char)*c;
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            c++;
            flags |= F_SPACE;
            continue;
        }
        if (ch == '\\' && (c[1] == '\n' || (c[1] == '\r' && c[2] == '\n'))) {
            c += c[1] == '\n' ? 2 : 3;
            s->line++;
            s->line_start = c;
            flags |= F_SPACE;
            continue;
        }
        if (ch == '/' && c[1] == '/') {
            // Ends at the newline even after a backslash (see the top).
            const char *nl = memchr(c, '\n', (size_t)(end - c));
            c = nl ? nl : end;
            flags |= F_SPACE;
            continue;
        }
        if (ch == '/' && c[1] == '*') {
            const char *start = c;
            int sline = s->line;
            const char *sls = s->line_start;
            c += 2;
            for (;;) {
                if (c >= end) {
                    s->cur = c;
                    report(p, FXGL_DIAG_ERROR, "PP_UNTERMINATED_COMMENT", sline,
                           (int)(start - sls) + 1, "unterminated comment");
                    break;
                }
                if (c[0] == '*' && c[1] == '/') {
                    c += 2;
                    break;
                }
                if (*c == '\n') {
                    s->line++;
                    s->line_start = c + 1;
                }
                c++;
            }
            flags |= F_SPACE;
            continue;
        }
        break;
    }
    t->text = c;
    t->line = s->line;
    t->col = (int32_t)(c - s->line_start) + 1;
    t->flags = flags | F_SRC;
    t->param = 0;
    if (c >= end) {
        t->kind = T_EOF;
        t->len = 0;
        s->cur = c;
        return;
    }
    unsigned char ch = (unsigned char)*c;
    const char *q = c + 1;
    if (ch == '\n') {
        t->kind = T_NL;
        s->line++;
        s->line_start = q;
        s->bol = true;
    } else if (is_ident_start(ch)) {
        while (is_ident_char((unsigned char)*q)) {
            q++;
        }
        t->kind = T_IDENT;
    } else if (is_digit(ch) || (ch == '.' && is_digit((unsigned char)c[1]))) {
        for (;;) {
            unsigned char d = (unsigned char)*q;
            if ((d == '+' || d == '-') && (q[-1] == 'e' || q[-1] == 'E')) {
                q++;
            } else if (is_ident_char(d) || d == '.') {
                q++;
            } else {
                break;
            }
        }
        t->kind = T_NUMBER;
    } else if (ch == '"') {
        t->kind = T_STRING;
        for (;;) {
            if (q >= end || *q == '\n') {
                s->cur = q;
                lex_error_at(p, s, c, "PP_UNTERMINATED_STRING", "unterminated string literal");
                break;
            }
            if (*q == '"') {
                q++;
                break;
            }
            if (*q == '\\' && q + 1 < end) {
                if (q[1] == '\n') {
                    s->line++;
                    s->line_start = q + 2;
                }
                q += 2;
                continue;
            }
            q++;
        }
    } else {
        t->kind = T_PUNCT;
        static const char *const three[] = {"...", "<<=", ">>="};
        static const char *const two[] = {"##", "::", "++", "--", "<<", ">>", "<=", ">=",
                                          "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
                                          "%=", "&=", "|=", "^=", "->"};
        size_t n = 1;
        for (size_t i = 0; i < 3 && n == 1; i++) {
            if (c[0] == three[i][0] && c[1] == three[i][1] && c[2] == three[i][2]) {
                n = 3;
            }
        }
        for (size_t i = 0; i < sizeof(two) / sizeof(two[0]) && n == 1; i++) {
            if (c[0] == two[i][0] && c[1] == two[i][1]) {
                n = 2;
            }
        }
        q = c + n;
        if (q > end) {
            q = end;
        }
    }
    if (ch != '\n') {
        s->bol = false;
    }
    t->len = (uint32_t)(q - c);
    s->cur = q;
}

// Reads the rest of a directive line, the newline included, into out (not
// the newline).
static void read_line(pp *p, tokvec *out) {
    pp_tok t;
    for (;;) {
        lex(p, p->src, &t);
        if (t.kind == T_NL || t.kind == T_EOF) {
            return;
        }
        if (out) {
            tv_push(p, out, &t);
        }
    }
}

// --- macro table ---

static pp_macro *macro_find(pp *p, const char *name, size_t len, uint32_t h) {
    for (pp_macro *m = p->macros[h & p->macro_mask]; m; m = m->next) {
        if (m->hash == h && m->name_len == len && memcmp(m->name, name, len) == 0) {
            return m;
        }
    }
    return NULL;
}

static pp_macro *macro_lookup(pp *p, const pp_tok *t) {
    return macro_find(p, t->text, t->len, hash_name(t->text, t->len));
}

static void macro_insert(pp *p, pp_macro *m) {
    if (p->macro_count >= p->macro_mask) {
        uint32_t mask = p->macro_mask * 2 + 1;
        pp_macro **table = fx_alloc(p->ctx, ((size_t)mask + 1) * sizeof(*table));
        for (uint32_t i = 0; i <= p->macro_mask; i++) {
            pp_macro *e = p->macros[i];
            while (e) {
                pp_macro *next = e->next;
                e->next = table[e->hash & mask];
                table[e->hash & mask] = e;
                e = next;
            }
        }
        p->macros = table;
        p->macro_mask = mask;
    }
    m->next = p->macros[m->hash & p->macro_mask];
    p->macros[m->hash & p->macro_mask] = m;
    p->macro_count++;
}

static void macro_remove(pp *p, pp_macro *m) {
    pp_macro **link = &p->macros[m->hash & p->macro_mask];
    while (*link && *link != m) {
        link = &(*link)->next;
    }
    if (*link) {
        *link = m->next;
        p->macro_count--;
    }
}

// --- output ---

static void out_reserve(pp *p, size_t extra) {
    if (p->out_len + extra + 1 <= p->out_cap) {
        return;
    }
    if (p->out_len + extra > p->out_limit) {
        fx_limit(p->ctx, p->src ? p->src->name : "", p->src ? p->src->line : 0, 0,
                 "bytes of preprocessed output", (long)p->out_limit);
    }
    // The first buffer fits the main file's text (set in fx_pp_run); more
    // text doubles it.
    size_t cap = p->out_cap ? p->out_cap * 2 : 4096;
    while (cap < p->out_len + extra + 1) {
        cap *= 2;
    }
    char *grown = fx_alloc(p->ctx, cap);
    if (p->out_len) {
        memcpy(grown, p->out, p->out_len);
    }
    p->out = grown;
    p->out_cap = cap;
}

static void out_write(pp *p, const char *s, size_t n) {
    out_reserve(p, n);
    memcpy(p->out + p->out_len, s, n);
    p->out_len += n;
}

static void out_newline(pp *p) {
    out_write(p, "\n", 1);
    p->out_line++;
    p->out_col = 1;
    p->out_last = 0;
}

// Moves the output to the start of or into the line `line` of `file`.
static void out_goto(pp *p, const char *file, int32_t line) {
    if (file != p->out_file) {
        if (p->out_col > 1) {
            out_newline(p);
        }
        size_t n = strlen(file);
        out_reserve(p, 2 * n + 32);
        p->out_len += (size_t)snprintf(p->out + p->out_len, 32, "#line %d \"", (int)line);
        for (size_t i = 0; i < n; i++) {
            if (file[i] == '\\' || file[i] == '"') {
                p->out[p->out_len++] = '\\';
            }
            p->out[p->out_len++] = file[i];
        }
        p->out[p->out_len++] = '"';
        p->out[p->out_len++] = '\n';
        p->out_file = file;
        p->out_line = line;
        p->out_col = 1;
        p->out_last = 0;
        return;
    }
    if (line == p->out_line) {
        return;
    }
    if (line > p->out_line && line - p->out_line <= PP_MAX_BLANK_LINES) {
        while (p->out_line < line) {
            out_newline(p);
        }
        return;
    }
    if (p->out_col > 1) {
        out_newline(p);
    }
    out_reserve(p, 32);
    p->out_len += (size_t)snprintf(p->out + p->out_len, 32, "#line %d\n", (int)line);
    p->out_line = line;
    p->out_col = 1;
    p->out_last = 0;
}

// Whether writing a token starting with `first` right after one of kind
// last_kind ending in `last` would scan differently from the two tokens.
static bool would_join(int last_kind, char last, char first) {
    if (!last) {
        return false;
    }
    unsigned char f = (unsigned char)first;
    if (last_kind == T_IDENT) {
        return is_ident_char(f);
    }
    if (last_kind == T_NUMBER) {
        return is_ident_char(f) || f == '.' ||
               ((last == 'e' || last == 'E') && (f == '+' || f == '-'));
    }
    if (last_kind != T_PUNCT) {
        return false;
    }
    if (last == '.') {
        return is_digit(f) || f == '.';
    }
    static const char pairs[][3] = {"##", "::", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                    "->", "//", "/*", "*/"};
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        if (pairs[i][0] == last && pairs[i][1] == first) {
            return true;
        }
    }
    return (unsigned char)last >= 0x80 || f >= 0x80;
}

static void emit(pp *p, const pp_tok *t) {
    out_goto(p, p->tok_file ? p->tok_file : p->src->name, t->line);
    if ((t->flags & F_SRC) && p->out_col < t->col) {
        int pad = t->col - p->out_col;
        out_reserve(p, (size_t)pad);
        memset(p->out + p->out_len, ' ', (size_t)pad);
        p->out_len += (size_t)pad;
        p->out_col = t->col;
    } else if (p->out_col > 1 && !(t->flags & F_GLUED) &&
               ((t->flags & F_SPACE) || would_join(p->out_last_kind, p->out_last, t->text[0]))) {
        out_write(p, " ", 1);
        p->out_col++;
    }
    out_write(p, t->text, t->len);
    p->out_last = t->text[t->len - 1];
    p->out_last_kind = t->kind;
    // A string literal continued over lines brings its newlines along.
    const char *nl = t->kind == T_STRING ? memchr(t->text, '\n', t->len) : NULL;
    if (!nl) {
        p->out_col += (int32_t)t->len;
        return;
    }
    const char *last_nl = nl;
    for (const char *c = nl; c < t->text + t->len; c++) {
        if (*c == '\n') {
            p->out_line++;
            last_nl = c;
        }
    }
    p->out_col = (int32_t)(t->text + t->len - last_nl);
}

// --- results ---

static void add_string(pp *p, const char ***list, size_t *count, size_t *cap, const char *s) {
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        const char **grown = fx_alloc(p->ctx, ncap * sizeof(*grown));
        if (*count) {
            memcpy(grown, *list, *count * sizeof(*grown));
        }
        *list = grown;
        *cap = ncap;
    }
    (*list)[(*count)++] = s;
}

static void note_ifdef(pp *p, const pp_tok *name) {
    uint32_t h = hash_name(name->text, name->len);
    for (name_entry *e = p->ifdef_seen[h & p->ifdef_mask]; e; e = e->next) {
        if (e->hash == h && e->len == name->len && memcmp(e->name, name->text, name->len) == 0) {
            return;
        }
    }
    name_entry *e = fx_alloc(p->ctx, sizeof(*e));
    e->name = tok_str(p, name);
    e->len = name->len;
    e->hash = h;
    e->next = p->ifdef_seen[h & p->ifdef_mask];
    p->ifdef_seen[h & p->ifdef_mask] = e;
    add_string(p, &p->ifdefs, &p->nifdefs, &p->ifdefs_cap, e->name);
}

// --- files and include lookup ---

static const char *join_path(pp *p, const char *dir, const char *name) {
    if (!dir || !dir[0] || name[0] == '/') {
        return fx_strdup(p->ctx, name);
    }
    size_t dl = strlen(dir);
    return fx_sprintf(p->ctx, "%s%s%s", dir, dir[dl - 1] == '/' ? "" : "/", name);
}

// One directory's entries, read once per run: include and `exists` lookups
// then cost no system calls, however many search directories `**` gave and
// however many names are missing (game-profile headers test dozens).
typedef struct dir_listing {
    struct dir_listing *next;
    const char *path;
    const char **names;
    uint8_t *types;              // DT_* of each entry (DT_UNKNOWN: ask stat)
    size_t count;
    bool readable;
} dir_listing;

static dir_listing *list_dir(pp *p, const char *path) {
    for (dir_listing *l = p->listings; l; l = l->next) {
        if (strcmp(l->path, path) == 0) {
            return l;
        }
    }
    dir_listing *l = fx_alloc(p->ctx, sizeof(*l));
    l->path = fx_strdup(p->ctx, path);
    l->next = p->listings;
    p->listings = l;
    DIR *d = opendir(path[0] ? path : ".");
    if (!d) {
        return l;
    }
    l->readable = true;
    size_t cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) {
            continue;
        }
        if (l->count == cap) {
            if (cap >= 65536) {
                break; // a directory this large is no include directory
            }
            size_t ncap = cap ? cap * 2 : 32;
            const char **names = fx_alloc(p->ctx, ncap * sizeof(*names));
            uint8_t *types = fx_alloc(p->ctx, ncap);
            if (l->count) {
                memcpy(names, l->names, l->count * sizeof(*names));
                memcpy(types, l->types, l->count);
            }
            l->names = names;
            l->types = types;
            cap = ncap;
        }
        l->types[l->count] = ent->d_type;
        l->names[l->count++] = fx_strdup(p->ctx, ent->d_name);
    }
    closedir(d);
    return l;
}

// The entry of dir named like name (len bytes): exactly if there is one,
// else ignoring case (the first in directory order). -1 when none.
static long find_entry(const dir_listing *l, const char *name, size_t len) {
    long nocase = -1;
    for (size_t i = 0; i < l->count; i++) {
        const char *e = l->names[i];
        if (strncasecmp(e, name, len) == 0 && e[len] == '\0') {
            if (strncmp(e, name, len) == 0) {
                return (long)i;
            }
            if (nocase < 0) {
                nocase = (long)i;
            }
        }
    }
    return nocase;
}

// Resolves name (with '/' separators) below dir the way Windows would:
// each component matched ignoring case. want_file: only a regular file
// (else a directory will do too). NULL when nothing matches.
static const char *resolve_in(pp *p, const char *dir, const char *name, bool want_file) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = fx_alloc(p->ctx, n);
    size_t len = 0;
    if (name[0] == '/') {
        path[len++] = '/';
    } else if (dir[0]) {
        len = strlen(dir);
        memcpy(path, dir, len);
    }
    path[len] = '\0';
    const char *c = name;
    int type = DT_DIR;
    while (*c) {
        while (*c == '/') {
            c++;
        }
        const char *e = c;
        while (*e && *e != '/') {
            e++;
        }
        size_t cl = (size_t)(e - c);
        if (cl == 0) {
            break;
        }
        dir_listing *l = list_dir(p, path);
        const char *entry;
        if ((cl == 1 && c[0] == '.') || (cl == 2 && c[0] == '.' && c[1] == '.')) {
            if (!l->readable) {
                return NULL;
            }
            entry = cl == 1 ? "." : "..";
            type = DT_DIR;
        } else {
            long i = find_entry(l, c, cl);
            if (i < 0) {
                return NULL;
            }
            entry = l->names[i];
            type = l->types[i];
        }
        if (len && path[len - 1] != '/') {
            path[len++] = '/';
        }
        memcpy(path + len, entry, strlen(entry) + 1);
        len += strlen(entry);
        c = e;
    }
    if (type == DT_UNKNOWN || type == DT_LNK) {
        struct stat st;
        if (stat(path, &st) != 0) {
            return NULL;
        }
        type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : DT_UNKNOWN;
    }
    if (want_file ? type != DT_REG : type != DT_REG && type != DT_DIR) {
        return NULL;
    }
    return path;
}

static void add_dir(pp *p, const char *dir) {
    if (p->ndirs == p->dirs_cap) {
        size_t cap = p->dirs_cap ? p->dirs_cap * 2 : 16;
        const char **grown = fx_alloc(p->ctx, cap * sizeof(*grown));
        if (p->ndirs) {
            memcpy(grown, p->dirs, p->ndirs * sizeof(*grown));
        }
        p->dirs = grown;
        p->dirs_cap = cap;
    }
    p->dirs[p->ndirs++] = dir;
}

static int compare_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// Adds every directory below dir (sorted, so lookups are reproducible).
static void add_subdirs(pp *p, const char *dir, int depth, size_t *budget) {
    if (depth > PP_MAX_SEARCH_DEPTH) {
        return;
    }
    dir_listing *l = list_dir(p, dir);
    const char **subs = fx_alloc(p->ctx, (l->count + 1) * sizeof(*subs));
    size_t count = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (l->names[i][0] == '.') {
            continue;
        }
        const char *sub = join_path(p, dir, l->names[i]);
        int type = l->types[i];
        if (type == DT_UNKNOWN || type == DT_LNK) {
            struct stat st;
            type = stat(sub, &st) == 0 && S_ISDIR(st.st_mode) ? DT_DIR : DT_UNKNOWN;
        }
        if (type == DT_DIR) {
            subs[count++] = sub;
        }
    }
    qsort(subs, count, sizeof(subs[0]), compare_str);
    for (size_t i = 0; i < count && *budget; i++) {
        (*budget)--;
        add_dir(p, subs[i]);
        add_subdirs(p, subs[i], depth + 1, budget);
    }
}

static void setup_search_dirs(pp *p) {
    for (size_t i = 0; i < p->desc->include_path_count; i++) {
        const char *ip = p->desc->include_paths[i];
        if (!ip) {
            continue;
        }
        char *dir = fx_strdup(p->ctx, ip);
        for (char *c = dir; *c; c++) {
            if (*c == '\\') {
                *c = '/';
            }
        }
        size_t n = strlen(dir);
        bool recursive = n >= 2 && strcmp(dir + n - 2, "**") == 0;
        if (recursive) {
            n -= 2;
            while (n > 1 && dir[n - 1] == '/') {
                n--;
            }
            dir[n] = '\0';
            if (n == 0) {
                dir = ".";
            }
        }
        add_dir(p, dir);
        if (recursive) {
            size_t budget = PP_MAX_SEARCH_DIRS;
            add_subdirs(p, dir, 0, &budget);
        }
    }
}

// Turns an include or exists name into a path: `\` separates.
static char *normalize_name(pp *p, const pp_tok *str) {
    char *name = fx_strndup(p->ctx, str->text + 1, str->len >= 2 ? str->len - 2 : 0);
    for (char *c = name; *c; c++) {
        if (*c == '\\') {
            *c = '/';
        }
    }
    return name;
}

// The including file's directory, then the search directories; the first
// that has the name (ignoring case) wins.
static const char *find_file(pp *p, const char *name, bool any_type) {
    const char *dir = p->src ? p->src->file->dir : "";
    const char *found = resolve_in(p, dir, name, !any_type);
    if (found || name[0] == '/') {
        return found;
    }
    for (size_t i = 0; i < p->ndirs && !found; i++) {
        found = resolve_in(p, p->dirs[i], name, !any_type);
    }
    return found;
}

static const char *dir_of(pp *p, const char *path) {
    const char *slash = strrchr(path, '/');
    const char *bslash = strrchr(path, '\\');
    if (bslash && (!slash || bslash > slash)) {
        slash = bslash;
    }
    if (!slash) {
        return "";
    }
    if (slash == path) {
        return "/";
    }
    return fx_strndup(p->ctx, path, (size_t)(slash - path));
}

// Copies text into the arena with what the scanner needs: the UTF-8 BOM
// gone, a final newline and a NUL after it.
static void set_text(pp *p, pp_file *f, const char *text, size_t len) {
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF) {
        text += 3;
        len -= 3;
    }
    f->text = fx_alloc(p->ctx, len + 3);
    memcpy(f->text, text, len);
    if (len && text[len - 1] != '\n') {
        f->text[len++] = '\n';
    }
    f->text[len] = '\0';
    f->len = len;
}

// set_text for a buffer already in the arena with 3 bytes to spare.
static void set_text_in_place(pp_file *f, char *text, size_t len) {
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF) {
        text += 3;
        len -= 3;
    }
    f->text = text;
    if (len && text[len - 1] != '\n') {
        text[len++] = '\n';
    }
    text[len] = '\0';
    f->len = len;
}

// Reads the file at path into a new cache entry; NULL (and a message at t)
// when it cannot be read.
static pp_file *load_file(pp *p, const char *path, const char *real, const pp_tok *t) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (t) {
            pp_error(p, "PP_FILE", t, "cannot open '%s': %s", path, strerror(errno));
        } else {
            report(p, FXGL_DIAG_ERROR, "PP_FILE", 0, 0, "cannot open '%s': %s", path,
                   strerror(errno));
        }
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(fp);
        report(p, FXGL_DIAG_ERROR, "PP_FILE", t ? t->line : 0, t ? t->col : 0,
               "cannot read '%s': not a regular file", path);
        return NULL;
    }
    if ((unsigned long long)st.st_size > FX_LIMIT_FILE_SIZE) {
        fclose(fp);
        fx_limit(p->ctx, path, 0, 0, "bytes in a source file", (long)FX_LIMIT_FILE_SIZE);
    }
    size_t size = (size_t)st.st_size;
    // Read straight into the arena, with room for the newline and NUL that
    // set_text adds; a fatal error below leaves fp to nobody, so close first.
    char *buf = fx_arena_alloc(p->ctx->arena, size + 3);
    if (!buf) {
        fclose(fp);
        fx_alloc(p->ctx, size + 3); // reports out of memory, fatal
    }
    size_t got = fread(buf, 1, size, fp);
    fclose(fp);
    pp_file *f = fx_alloc(p->ctx, sizeof(*f));
    f->name = fx_strdup(p->ctx, path);
    f->real = real;
    f->dir = dir_of(p, f->name);
    set_text_in_place(f, buf, got);
    f->next = p->files;
    p->files = f;
    add_string(p, &p->included, &p->nincluded, &p->included_cap, f->name);
    return f;
}

static const char *real_path(pp *p, const char *path) {
    char *r = realpath(path, NULL);
    if (!r) {
        return fx_strdup(p->ctx, path);
    }
    const char *copy = fx_strdup(p->ctx, r);
    free(r);
    return copy;
}

static void push_src(pp *p, pp_file *f, int inc_line, int inc_col) {
    pp_src *s = fx_alloc(p->ctx, sizeof(*s));
    s->parent = p->src;
    s->file = f;
    s->name = f->name;
    s->cur = f->text;
    s->end = f->text + f->len;
    s->line_start = f->text;
    s->line = 1;
    s->bol = true;
    s->cond_base = p->nconds;
    s->inc_line = inc_line;
    s->inc_col = inc_col;
    f->active = true;
    p->src = s;
    p->include_depth++;
}

// --- expansion frames ---

static void push_frame(pp *p, const pp_tok *toks, uint32_t count, tokvec owned, pp_macro *m,
                       const pp_tok *at, bool keep_pos) {
    if (p->nframes >= FX_LIMIT_MACRO_DEPTH) {
        fx_limit(p->ctx, p->src->name, at->line, at->col, "nested macro expansions",
                 FX_LIMIT_MACRO_DEPTH);
    }
    // Nesting is bounded above; this bounds the work of a macro that doubles
    // at every level, which stays shallow.
    p->expanded += count + 1;
    if (p->expanded > FX_LIMIT_EXPANSION) {
        fx_limit(p->ctx, p->src->name, at->line, at->col, "tokens from macro expansions",
                 FX_LIMIT_EXPANSION);
    }
    if (p->nframes == p->frames_cap) {
        // Small to start with: most effects nest a few expansions deep.
        int cap = p->frames_cap ? p->frames_cap * 2 : 16;
        pp_frame *grown = fx_alloc(p->ctx, (size_t)cap * sizeof(*grown));
        if (p->nframes) {
            memcpy(grown, p->frames, (size_t)p->nframes * sizeof(*grown));
        }
        p->frames = grown;
        p->frames_cap = cap;
    }
    pp_frame *f = &p->frames[p->nframes++];
    *f = (pp_frame){.toks = toks, .count = count, .owned = owned, .macro = m,
                    .line = at->line, .col = at->col, .keep_pos = keep_pos};
    if (m) {
        m->disabled = true;
    }
}

static void pop_frame(pp *p) {
    pp_frame *f = &p->frames[--p->nframes];
    if (f->macro) {
        f->macro->disabled = false;
    }
    tv_free(p, &f->owned);
}

static void src_next(pp *p, pp_tok *t, bool peek);

// The next token from the frames, or from the files when none is left.
static void next_raw(pp *p, pp_tok *t, bool peek) {
    if (p->has_back) {
        *t = p->back;
        p->has_back = false;
        return;
    }
    while (p->nframes) {
        pp_frame *f = &p->frames[p->nframes - 1];
        if (f->pos < f->count) {
            *t = f->toks[f->pos++];
            if (!f->keep_pos) {
                t->line = f->line;
                t->col = f->col;
                t->flags &= (uint8_t)~(F_SRC | F_BOL);
            }
            return;
        }
        if (f->count && f->toks[f->count - 1].kind == T_EOF) {
            // A frame that ends in a marker is popped by whoever pushed it.
            *t = f->toks[f->count - 1];
            return;
        }
        pop_frame(p);
    }
    src_next(p, t, peek);
}

static bool expand_macro(pp *p, pp_macro *m, const pp_tok *name);

// The next token with macros expanded.
static void next_expanded(pp *p, pp_tok *t) {
    p->tok_file = NULL;
    for (;;) {
        next_raw(p, t, false);
        if (t->kind != T_IDENT || (t->flags & F_NOEXPAND)) {
            return;
        }
        pp_macro *m = macro_lookup(p, t);
        if (!m) {
            return;
        }
        if (m->disabled) {
            t->flags |= F_NOEXPAND;
            return;
        }
        pp_src *before = p->src;
        if (!expand_macro(p, m, t)) {
            if (p->src != before) {
                // The peek for '(' left the file the name is in.
                p->tok_file = before->name;
            }
            return;
        }
    }
}

// Expands the tokens in (followed by a marker) completely into out.
static void expand_list(pp *p, const pp_tok *in, uint32_t n, tokvec *out) {
    tokvec buf = {0};
    tv_reserve(p, &buf, n + 1);
    if (n) {
        memcpy(buf.v, in, n * sizeof(pp_tok));
    }
    buf.v[n] = (pp_tok){.kind = T_EOF, .text = "", .line = n ? in[n - 1].line : 0};
    buf.n = n + 1;
    int depth = p->nframes;
    bool had_back = p->has_back;
    pp_tok saved_back = p->back;
    p->has_back = false;
    push_frame(p, buf.v, buf.n, buf, NULL, &buf.v[0], true);
    for (;;) {
        pp_tok t;
        next_expanded(p, &t);
        if (t.kind == T_EOF) {
            break;
        }
        tv_push(p, out, &t);
    }
    while (p->nframes > depth) {
        pop_frame(p);
    }
    p->has_back = had_back;
    p->back = saved_back;
}

// --- macro expansion ---

static const char *builtin_text(pp *p, int kind, const pp_tok *at) {
    pp_src *s = p->src;
    if (kind == B_LINE) {
        return fx_sprintf(p->ctx, "%d", (int)at->line);
    }
    if (s->builtin_text[kind]) {
        return s->builtin_text[kind];
    }
    const char *path = s->name;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem_len = dot ? (size_t)(dot - base) : strlen(base);
    const char *text = "";
    switch (kind) {
    case B_FILE: {
        size_t n = strlen(path);
        char *q = fx_alloc(p->ctx, 2 * n + 3);
        size_t k = 0;
        q[k++] = '"';
        for (size_t i = 0; i < n; i++) {
            if (path[i] == '\\' || path[i] == '"') {
                q[k++] = '\\';
            }
            q[k++] = path[i];
        }
        q[k++] = '"';
        text = q;
        break;
    }
    case B_FILE_NAME:
        text = fx_sprintf(p->ctx, "\"%s\"", base);
        break;
    case B_FILE_STEM:
        text = fx_sprintf(p->ctx, "\"%.*s\"", (int)stem_len, base);
        break;
    case B_FILE_NAME_HASH:
        text = fx_sprintf(p->ctx, "%u", (unsigned)(fx_hash_fnv1a64(base, strlen(base)) &
                                                   0xFFFFFFFFu));
        break;
    case B_FILE_STEM_HASH:
        text = fx_sprintf(p->ctx, "%u", (unsigned)(fx_hash_fnv1a64(base, stem_len) &
                                                   0xFFFFFFFFu));
        break;
    default:
        break;
    }
    s->builtin_text[kind] = text;
    return text;
}

// Scans text (NUL-terminated) into tokens, for pasted spellings.
static void relex(pp *p, const char *text, size_t len, tokvec *out, const pp_tok *at) {
    uint32_t first = out->n;
    pp_src s = {.file = p->src->file, .name = p->src->name, .cur = text, .end = text + len,
                .line_start = text, .line = at->line};
    pp_src *saved = p->src;
    s.parent = saved->parent;
    s.inc_line = saved->inc_line;
    s.inc_col = saved->inc_col;
    p->src = &s;
    for (;;) {
        pp_tok t;
        lex(p, &s, &t);
        if (t.kind == T_EOF) {
            break;
        }
        if (t.kind == T_NL) {
            continue;
        }
        t.line = at->line;
        t.col = at->col;
        t.flags &= (uint8_t)~(F_SRC | F_BOL | F_SPACE);
        if (out->n > first && !(t.flags & F_SPACE)) {
            t.flags |= F_GLUED;
        }
        tv_push(p, out, &t);
    }
    p->src = saved;
}

// Appends the paste of the last token of out and r (which may be a
// placemarker) to out. Pastes that do not make one token give the tokens
// their joined spelling makes (the reference's leniency).
static void paste(pp *p, tokvec *out, const pp_tok *r) {
    pp_tok *l = out->n ? &out->v[out->n - 1] : NULL;
    if (!l || l->kind == T_PLACEMARKER) {
        if (l) {
            out->n--;
        }
        tv_push(p, out, r);
        return;
    }
    if (r->kind == T_PLACEMARKER) {
        return;
    }
    pp_tok left = *l;
    out->n--;
    size_t len = (size_t)left.len + r->len;
    char *text = fx_alloc(p->ctx, len + 3);
    memcpy(text, left.text, left.len);
    memcpy(text + left.len, r->text, r->len);
    uint32_t first = out->n;
    relex(p, text, len, out, &left);
    if (out->n > first) {
        out->v[first].flags = (uint8_t)((out->v[first].flags & ~F_SPACE) | (left.flags & F_SPACE));
    }
}

static pp_tok stringize(pp *p, const pp_tok *arg, uint32_t n, const pp_tok *at) {
    size_t size = 3;
    for (uint32_t i = 0; i < n; i++) {
        size += 2 * (size_t)arg[i].len + 1;
    }
    char *s = fx_alloc(p->ctx, size);
    size_t k = 0;
    s[k++] = '"';
    for (uint32_t i = 0; i < n; i++) {
        if (i && (arg[i].flags & F_SPACE)) {
            s[k++] = ' ';
        }
        bool quote = arg[i].kind == T_STRING;
        for (uint32_t j = 0; j < arg[i].len; j++) {
            char c = arg[i].text[j];
            if (quote && (c == '"' || c == '\\')) {
                s[k++] = '\\';
            }
            s[k++] = c;
        }
    }
    s[k++] = '"';
    return (pp_tok){.text = s, .len = (uint32_t)k, .kind = T_STRING, .line = at->line,
                    .col = at->col};
}

// Argument k's first token; NULL when no argument has any (no arithmetic
// on a null pointer).
static const pp_tok *arg_toks(const macro_args *a, uint32_t k) {
    return a->toks.v ? a->toks.v + a->start[k] : NULL;
}

// Collects the arguments after the '(' of m's invocation. False (and a
// message) when the list does not end.
static bool collect_args(pp *p, pp_macro *m, const pp_tok *name, macro_args *a) {
    int depth = 0;
    a->count = 0;
    a->start[0] = 0;
    for (;;) {
        pp_tok t;
        next_raw(p, &t, false);
        if (t.kind == T_EOF) {
            if (p->nframes) {
                p->back = t;  // the marker of an enclosing list stays for its owner
                p->has_back = true;
            }
            pp_error(p, "PP_UNTERMINATED_CALL", name,
                     "unterminated argument list invoking macro '%.*s'", (int)name->len,
                     name->text);
            return false;
        }
        if (tok_punct(&t, '(')) {
            depth++;
        } else if (tok_punct(&t, ')')) {
            if (depth == 0) {
                break;
            }
            depth--;
        } else if (tok_punct(&t, ',') && depth == 0 &&
                   !(m->variadic && a->count + 1 >= m->nparams)) {
            if (a->count >= 255) {
                fx_limit(p->ctx, p->src->name, name->line, name->col, "macro arguments", 255);
            }
            a->start[++a->count] = a->toks.n;
            continue;
        }
        if (t.kind == T_IDENT && !(t.flags & F_NOEXPAND)) {
            // A name whose macro is disabled now stays unexpandable in the argument.
            pp_macro *dm = macro_lookup(p, &t);
            if (dm && dm->disabled) {
                t.flags |= F_NOEXPAND;
            }
        }
        tv_push(p, &a->toks, &t);
    }
    a->start[++a->count] = a->toks.n;
    uint32_t given = a->count;
    if (given == 1 && a->start[1] == 0 && m->nparams == 0) {
        given = 0;
    }
    bool ok = m->variadic ? given + 1 >= m->nparams : given == m->nparams;
    if (!ok) {
        pp_error(p, "PP_ARG_COUNT", name, "macro '%.*s' takes %u argument%s, %u given",
                 (int)name->len, name->text, (unsigned)m->nparams, m->nparams == 1 ? "" : "s",
                 (unsigned)given);
        return false;
    }
    // A missing variadic argument is an empty one.
    while (a->count < m->nparams) {
        a->start[a->count + 1] = a->toks.n;
        a->count++;
    }
    return true;
}

// Peeks for the '(' of a function-like invocation. Leaves the token for the
// next read unless it is the '('.
static bool peek_paren(pp *p) {
    pp_tok t;
    next_raw(p, &t, true);
    if (tok_punct(&t, '(')) {
        return true;
    }
    if (t.kind != T_STOP) {
        p->back = t;
        p->has_back = true;
    }
    return false;
}

// Pushes m's expansion at name. False when name stays as it is (a
// function-like macro without arguments, or an error).
static bool expand_macro(pp *p, pp_macro *m, const pp_tok *name) {
    if (m->builtin) {
        const char *text = builtin_text(p, m->builtin, name);
        tokvec v = {0};
        tv_push(p, &v, &(pp_tok){.text = text, .len = (uint32_t)strlen(text),
                                 .kind = m->builtin == B_LINE || m->builtin >= B_FILE_NAME_HASH
                                             ? T_NUMBER
                                             : T_STRING,
                                 .flags = name->flags & F_SPACE});
        push_frame(p, v.v, v.n, v, NULL, name, false);
        return true;
    }
    if (!m->function_like) {
        if (m->body_len && (name->flags & F_SPACE) != (m->body[0].flags & F_SPACE)) {
            // The first token takes the name's spacing; copy only then.
            tokvec v = {0};
            tv_reserve(p, &v, m->body_len);
            memcpy(v.v, m->body, m->body_len * sizeof(pp_tok));
            v.n = m->body_len;
            v.v[0].flags = (uint8_t)((v.v[0].flags & ~F_SPACE) | (name->flags & F_SPACE));
            push_frame(p, v.v, v.n, v, m, name, false);
        } else {
            push_frame(p, m->body, m->body_len, (tokvec){0}, m, name, false);
        }
        return true;
    }
    if (!peek_paren(p)) {
        return false;
    }
    if (p->scratch_depth >= FX_LIMIT_MACRO_DEPTH) {
        fx_limit(p->ctx, p->src->name, name->line, name->col, "nested macro expansions",
                 FX_LIMIT_MACRO_DEPTH);
    }
    expand_scratch *sc = p->scratch[p->scratch_depth];
    if (!sc) {
        sc = p->scratch[p->scratch_depth] = fx_alloc(p->ctx, sizeof(*sc));
    }
    p->scratch_depth++;
    macro_args *ap = &sc->args;
    ap->toks.n = 0;
    if (!collect_args(p, m, name, ap)) {
        p->scratch_depth--;
        return false;
    }
    macro_args a = *ap;          // the arrays stay in sc; this copy only reads
    tokvec *expanded = sc->expanded;
    bool *have = sc->have;
    memset(have, 0, sizeof(bool) * m->nparams);
    tokvec out = {0};
    const pp_tok *body = m->body;
    for (uint32_t i = 0; i < m->body_len; i++) {
        const pp_tok *bt = &body[i];
        bool next_paste = i + 1 < m->body_len && tok_is(&body[i + 1], "##") &&
                          body[i + 1].kind == T_PUNCT;
        if (bt->kind == T_PUNCT && tok_is(bt, "#") && i + 1 < m->body_len &&
            body[i + 1].kind == T_PARAM) {
            uint32_t k = body[i + 1].param;
            pp_tok s = stringize(p, arg_toks(&a, k), a.start[k + 1] - a.start[k], name);
            s.flags = bt->flags & F_SPACE;
            tv_push(p, &out, &s);
            i++;
            continue;
        }
        if (bt->kind == T_PUNCT && tok_is(bt, "##") && i + 1 < m->body_len) {
            const pp_tok *rt = &body[++i];
            if (rt->kind == T_PARAM) {
                uint32_t k = rt->param;
                uint32_t n = a.start[k + 1] - a.start[k];
                bool va = m->variadic && k + 1u == m->nparams;
                if (va && out.n && tok_punct(&out.v[out.n - 1], ',')) {
                    // , ## __VA_ARGS__: the comma goes when there are none.
                    if (n == 0) {
                        out.n--;
                    }
                    for (uint32_t j = 0; j < n; j++) {
                        tv_push(p, &out, &a.toks.v[a.start[k] + j]);
                    }
                    continue;
                }
                if (n == 0) {
                    paste(p, &out, &(pp_tok){.kind = T_PLACEMARKER, .text = ""});
                    continue;
                }
                paste(p, &out, &a.toks.v[a.start[k]]);
                for (uint32_t j = 1; j < n; j++) {
                    tv_push(p, &out, &a.toks.v[a.start[k] + j]);
                }
            } else if (tok_is(rt, "#") && rt->kind == T_PUNCT && i + 1 < m->body_len &&
                       body[i + 1].kind == T_PARAM) {
                uint32_t k = body[++i].param;
                pp_tok s = stringize(p, arg_toks(&a, k), a.start[k + 1] - a.start[k],
                                     name);
                paste(p, &out, &s);
            } else {
                paste(p, &out, rt);
            }
            continue;
        }
        if (bt->kind == T_PARAM) {
            uint32_t k = bt->param;
            uint32_t n = a.start[k + 1] - a.start[k];
            bool prev_paste = i > 0 && tok_is(&body[i - 1], "##") && body[i - 1].kind == T_PUNCT;
            if (next_paste || prev_paste) {
                if (n == 0) {
                    tv_push(p, &out, &(pp_tok){.kind = T_PLACEMARKER, .text = ""});
                }
                for (uint32_t j = 0; j < n; j++) {
                    pp_tok t = a.toks.v[a.start[k] + j];
                    if (j == 0) {
                        t.flags = (uint8_t)((t.flags & ~F_SPACE) | (bt->flags & F_SPACE));
                    }
                    tv_push(p, &out, &t);
                }
                continue;
            }
            if (!have[k]) {
                expanded[k].n = 0;
                expand_list(p, arg_toks(&a, k), n, &expanded[k]);
                have[k] = true;
            }
            for (uint32_t j = 0; j < expanded[k].n; j++) {
                pp_tok t = expanded[k].v[j];
                if (j == 0) {
                    t.flags = (uint8_t)((t.flags & ~F_SPACE) | (bt->flags & F_SPACE));
                }
                tv_push(p, &out, &t);
            }
            continue;
        }
        tv_push(p, &out, bt);
    }
    // Placemarkers have done their work.
    uint32_t w = 0;
    for (uint32_t i = 0; i < out.n; i++) {
        if (out.v[i].kind != T_PLACEMARKER) {
            out.v[w++] = out.v[i];
        }
    }
    out.n = w;
    if (out.n) {
        out.v[0].flags = (uint8_t)((out.v[0].flags & ~F_SPACE) | (name->flags & F_SPACE));
    }
    for (uint32_t k = 0; k < m->nparams; k++) {
        if (have[k]) {
            expanded[k].n = 0;   // the buffer stays for the next expansion at this level
        }
    }
    p->scratch_depth--;
    push_frame(p, out.v, out.n, out, m, name, false);
    return true;
}

// --- #define ---

static bool same_body(const pp_macro *a, const pp_macro *b) {
    if (a->function_like != b->function_like || a->variadic != b->variadic ||
        a->nparams != b->nparams || a->body_len != b->body_len) {
        return false;
    }
    for (uint32_t i = 0; i < a->nparams; i++) {
        if (strcmp(a->params[i], b->params[i]) != 0) {
            return false;
        }
    }
    for (uint32_t i = 0; i < a->body_len; i++) {
        const pp_tok *x = &a->body[i], *y = &b->body[i];
        if (x->kind != y->kind || x->len != y->len || memcmp(x->text, y->text, x->len) != 0 ||
            x->param != y->param || (i && (x->flags & F_SPACE) != (y->flags & F_SPACE))) {
            return false;
        }
    }
    return true;
}

// Parses a #define line (the tokens after `define`). predefined: from the
// caller, may replace an earlier predefined macro.
static void define_macro(pp *p, const pp_tok *line, uint32_t n, bool predefined,
                         const pp_tok *dir) {
    if (n == 0 || line[0].kind != T_IDENT) {
        const pp_tok *at = n ? &line[0] : dir;
        pp_error(p, "PP_MACRO_NAME", at, "expected a macro name after #define");
        return;
    }
    const pp_tok *name = &line[0];
    if (tok_is(name, "defined")) {
        pp_error(p, "PP_MACRO_NAME", name, "'defined' cannot be used as a macro name");
        return;
    }
    pp_macro *m = fx_alloc(p->ctx, sizeof(*m));
    m->name = tok_str(p, name);
    m->name_len = name->len;
    m->hash = hash_name(name->text, name->len);
    m->predefined = predefined;
    m->file = p->src->name;
    m->line = name->line;
    uint32_t i = 1;
    const char *params[256];
    if (n > 1 && tok_punct(&line[1], '(') && !(line[1].flags & F_SPACE)) {
        m->function_like = true;
        i = 2;
        bool closed = false;
        while (i < n) {
            const pp_tok *t = &line[i++];
            if (tok_punct(t, ')') && m->nparams == 0) {
                closed = true;
                break;
            }
            if (m->nparams >= 255) {
                fx_limit(p->ctx, p->src->name, t->line, t->col, "macro parameters", 255);
            }
            if (t->kind == T_PUNCT && tok_is(t, "...")) {
                m->variadic = true;
                params[m->nparams++] = "__VA_ARGS__";
            } else if (t->kind == T_IDENT) {
                params[m->nparams++] = tok_str(p, t);
                if (i < n && tok_is(&line[i], "...") && line[i].kind == T_PUNCT) {
                    m->variadic = true; // GNU named variadic parameter
                    i++;
                }
            } else {
                pp_error(p, "PP_MACRO_PARAMS", t, "invalid macro parameter list");
                return;
            }
            if (i < n && tok_punct(&line[i], ')')) {
                i++;
                closed = true;
                break;
            }
            if (i < n && tok_punct(&line[i], ',') && !m->variadic) {
                i++;
                continue;
            }
            pp_error(p, "PP_MACRO_PARAMS", i < n ? &line[i] : t, "invalid macro parameter list");
            return;
        }
        if (!closed) {
            pp_error(p, "PP_MACRO_PARAMS", &line[n - 1], "invalid macro parameter list");
            return;
        }
        m->params = fx_alloc(p->ctx, (m->nparams + 1u) * sizeof(*m->params));
        memcpy(m->params, params, m->nparams * sizeof(*m->params));
    }
    uint32_t blen = n - i;
    tokvec body = {0};
    if (blen) {
        // Body tokens are copied out of the frame pool into their own memory.
        body.v = fx_alloc(p->ctx, blen * sizeof(pp_tok));
        body.cap = blen;
    }
    for (uint32_t j = i; j < n; j++) {
        pp_tok t = line[j];
        t.flags &= (uint8_t)~(F_SRC | F_BOL);
        if (j == i) {
            t.flags &= (uint8_t)~F_SPACE;
        }
        if (m->function_like && t.kind == T_IDENT) {
            for (uint32_t k = 0; k < m->nparams; k++) {
                if (strlen(m->params[k]) == t.len && memcmp(m->params[k], t.text, t.len) == 0) {
                    t.kind = T_PARAM;
                    t.param = (uint16_t)k;
                    break;
                }
            }
        }
        if (t.kind == T_PUNCT && tok_is(&t, "##")) {
            m->has_paste = true;
        }
        body.v[body.n++] = t;
    }
    if (m->has_paste && body.n && (tok_is(&body.v[0], "##") || tok_is(&body.v[body.n - 1], "##"))) {
        const pp_tok *at = tok_is(&body.v[0], "##") ? &line[i] : &line[n - 1];
        pp_error(p, "PP_PASTE_EDGE", at, "'##' cannot appear at either end of a macro expansion");
        return;
    }
    if (!m->function_like && m->has_paste) {
        // An object-like body pastes the same way every time: do it now.
        tokvec pasted = {0};
        for (uint32_t j = 0; j < body.n; j++) {
            if (tok_is(&body.v[j], "##") && body.v[j].kind == T_PUNCT && j + 1 < body.n) {
                paste(p, &pasted, &body.v[++j]);
            } else {
                tv_push(p, &pasted, &body.v[j]);
            }
        }
        body.v = fx_alloc(p->ctx, (pasted.n ? pasted.n : 1) * sizeof(pp_tok));
        if (pasted.n) {
            memcpy(body.v, pasted.v, pasted.n * sizeof(pp_tok));
        }
        body.n = pasted.n;
        tv_free(p, &pasted);
        m->has_paste = false;
    }
    m->body = body.v;
    m->body_len = body.n;
    pp_macro *old = macro_find(p, m->name, m->name_len, m->hash);
    if (old) {
        if (old->builtin) {
            pp_error(p, "PP_REDEFINED", name, "cannot redefine built-in macro '%s'", m->name);
            return;
        }
        if (same_body(old, m)) {
            return;
        }
        if (!predefined) {
            pp_error(p, "PP_REDEFINED", name,
                     "redefinition of macro '%s' (previous definition at %s(%d))",
                     m->name, old->file, old->line);
            return;
        }
        macro_remove(p, old);
    }
    macro_insert(p, m);
}

// --- #if expressions ---

typedef struct expr {
    pp *p;
    const pp_tok *t;
    uint32_t n, i;
    int depth;                   // nested parentheses and unary operators
    int unevaluated;             // inside an operand that short-circuiting skips
    bool failed;
} expr;

static const pp_tok *ex_peek(expr *e) {
    return e->i < e->n ? &e->t[e->i] : NULL;
}

static void ex_fail(expr *e, const pp_tok *at, const char *what) {
    if (e->failed) {
        return;
    }
    e->failed = true;
    if (!at) {
        at = e->n ? &e->t[e->n - 1] : &(pp_tok){.line = e->p->src->line, .col = 1};
        pp_error(e->p, "PP_EXPRESSION", at, "invalid preprocessor expression: %s at end of line",
                 what);
        return;
    }
    pp_error(e->p, "PP_EXPRESSION", at, "invalid preprocessor expression: %s '%.*s'", what,
             (int)at->len, at->text);
}

static bool ex_accept(expr *e, const char *op) {
    const pp_tok *t = ex_peek(e);
    if (t && t->kind == T_PUNCT && tok_is(t, op)) {
        e->i++;
        return true;
    }
    return false;
}

static int64_t ex_number(expr *e, const pp_tok *t) {
    const char *s = t->text;
    const char *end = s + t->len;
    uint64_t v = 0;
    int base = 10;
    if (t->len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0') {
        base = 8;
    }
    const char *digits = s;
    while (s < end) {
        int d;
        char c = *s;
        if (c >= '0' && c <= '9') {
            d = c - '0';
        } else if (base == 16 && c >= 'a' && c <= 'f') {
            d = c - 'a' + 10;
        } else if (base == 16 && c >= 'A' && c <= 'F') {
            d = c - 'A' + 10;
        } else {
            break;
        }
        if (d >= base) {
            break;
        }
        v = (v * (uint64_t)base + (uint64_t)d) & 0xFFFFFFFFu;
        s++;
    }
    while (s < end && (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L')) {
        s++;
    }
    if (s != end || (base == 16 && s == digits)) {
        ex_fail(e, t, "not an integer");
        return 0;
    }
    return (int32_t)(uint32_t)v;
}

static int64_t ex_cond(expr *e);
static int64_t ex_unary_op(expr *e, const pp_tok *t);

static int64_t ex_unary(expr *e) {
    if (e->failed) {
        return 0;
    }
    const pp_tok *t = ex_peek(e);
    if (!t) {
        ex_fail(e, NULL, "expected a value");
        return 0;
    }
    e->i++;
    if (t->kind == T_NUMBER) {
        return ex_number(e, t);
    }
    if (++e->depth > FX_LIMIT_NESTING) {
        fx_limit(e->p->ctx, e->p->src->name, t->line, t->col,
                 "nested operators in a preprocessor expression", FX_LIMIT_NESTING);
    }
    int64_t v = ex_unary_op(e, t);
    e->depth--;
    return v;
}

static int64_t ex_unary_op(expr *e, const pp_tok *t) {
    if (t->kind == T_IDENT) {
        // Names that are not macros are 0, as in C; true/false are literals.
        if (tok_is(t, "true")) {
            return 1;
        }
        return 0;
    }
    if (t->kind == T_PUNCT && t->len == 1) {
        switch (t->text[0]) {
        case '(': {
            int64_t v = ex_cond(e);
            if (!ex_accept(e, ")")) {
                ex_fail(e, ex_peek(e), "expected ')' before");
            }
            return v;
        }
        case '-':
            return (int32_t)(0u - (uint32_t)ex_unary(e));
        case '+':
            return ex_unary(e);
        case '!':
            return !ex_unary(e);
        case '~':
            return (int32_t)~(uint32_t)ex_unary(e);
        default:
            break;
        }
    }
    ex_fail(e, t, "unexpected");
    return 0;
}

typedef struct binop {
    const char *op;
    int prec;
} binop;

static const binop binops[] = {
    {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9},  {"-", 9},  {"<<", 8}, {">>", 8},
    {"<", 7},  {">", 7},  {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5},
    {"^", 4},  {"|", 3},  {"&&", 2}, {"||", 1},
};

static const binop *ex_binop(expr *e) {
    const pp_tok *t = ex_peek(e);
    if (!t || t->kind != T_PUNCT) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(binops) / sizeof(binops[0]); i++) {
        if (tok_is(t, binops[i].op)) {
            return &binops[i];
        }
    }
    return NULL;
}

static int64_t ex_apply(expr *e, const pp_tok *at, const char *op, int64_t a, int64_t b) {
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (op[0]) {
    case '*':
        return (int32_t)(ua * ub);
    case '/':
    case '%':
        if (sb == 0) {
            if (!e->failed && !e->unevaluated) {
                e->failed = true;
                pp_error(e->p, "PP_DIVIDE_BY_ZERO", at,
                         "division by zero in preprocessor expression");
            }
            return 0;
        }
        if (sa == INT32_MIN && sb == -1) {
            return op[0] == '/' ? INT32_MIN : 0;
        }
        return op[0] == '/' ? sa / sb : sa % sb;
    case '+':
        return (int32_t)(ua + ub);
    case '-':
        return (int32_t)(ua - ub);
    case '<':
        if (op[1] == '<') {
            return (int32_t)(ua << (ub & 31));
        }
        return op[1] == '=' ? sa <= sb : sa < sb;
    case '>':
        if (op[1] == '>') {
            return sa >> (ub & 31);
        }
        return op[1] == '=' ? sa >= sb : sa > sb;
    case '=':
        return sa == sb;
    case '!':
        return sa != sb;
    case '&':
        return op[1] == '&' ? (sa && sb) : (int32_t)(ua & ub);
    case '^':
        return (int32_t)(ua ^ ub);
    case '|':
        return op[1] == '|' ? (sa || sb) : (int32_t)(ua | ub);
    default:
        return 0;
    }
}

static int64_t ex_binary(expr *e, int min_prec) {
    int64_t lhs = ex_unary(e);
    for (;;) {
        const binop *op = ex_binop(e);
        if (!op || op->prec < min_prec || e->failed) {
            return lhs;
        }
        const pp_tok *at = ex_peek(e);
        e->i++;
        // C's rule: the skipped operand of && and || may divide by zero.
        bool skip = (op->op[0] == '&' && op->op[1] == '&' && !lhs) ||
                    (op->op[0] == '|' && op->op[1] == '|' && lhs);
        e->unevaluated += skip;
        int64_t rhs = ex_binary(e, op->prec + 1);
        e->unevaluated -= skip;
        lhs = ex_apply(e, at, op->op, lhs, rhs);
    }
}

static int64_t ex_cond(expr *e) {
    int64_t c = ex_binary(e, 1);
    if (ex_accept(e, "?")) {
        e->unevaluated += !c;
        int64_t a = ex_cond(e);
        e->unevaluated -= !c;
        if (!ex_accept(e, ":")) {
            ex_fail(e, ex_peek(e), "expected ':' before");
        }
        e->unevaluated += !!c;
        int64_t b = ex_cond(e);
        e->unevaluated -= !!c;
        return c ? a : b;
    }
    return c;
}

// `exists "file"` or `exists("file")`: relative to the current file, then
// the search directories; directories count.
static bool eval_exists(pp *p, const pp_tok *name) {
    return find_file(p, normalize_name(p, name), true) != NULL;
}

// Reads the operand of `defined` unexpanded (the name itself, not what it
// stands for), or of `exists`, whose names are expanded as macros until the
// file name in quotes appears (`exists SHADER_FILE`, as the reference does).
// False after a message when it is malformed.
static bool if_operand(pp *p, const pp_tok *op, bool is_defined, bool *value) {
    pp_tok t;
    if (is_defined) {
        next_raw(p, &t, false);
    } else {
        next_expanded(p, &t);
    }
    bool paren = tok_punct(&t, '(');
    if (paren) {
        if (is_defined) {
            next_raw(p, &t, false);
        } else {
            next_expanded(p, &t);
        }
    }
    bool ok = is_defined ? t.kind == T_IDENT : t.kind == T_STRING;
    if (!ok && !is_defined && !paren) {
        // `exists` not followed by a file name: an ordinary name (0).
        p->back = t;
        p->has_back = true;
        *value = false;
        return true;
    }
    if (ok) {
        *value = is_defined ? macro_lookup(p, &t) != NULL : eval_exists(p, &t);
    }
    if (!ok) {
        pp_error(p, "PP_EXPRESSION", t.kind == T_EOF ? op : &t,
                 is_defined ? "'defined' expects a macro name"
                            : "'exists' expects a file name in quotes");
        return false;
    }
    if (paren) {
        pp_tok close;
        if (is_defined) {
            next_raw(p, &close, false);
        } else {
            next_expanded(p, &close);
        }
        if (!tok_punct(&close, ')')) {
            pp_error(p, "PP_EXPRESSION", close.kind == T_EOF ? &t : &close,
                     "expected ')' after the operand of '%s'", is_defined ? "defined" : "exists");
            return false;
        }
    }
    return true;
}

// Reads the condition of #if/#elif and evaluates it. `defined` and `exists`
// are taken as they come, also from a macro's expansion (as the reference
// evaluates them while it expands).
static bool eval_condition(pp *p, const pp_tok *directive) {
    tokvec raw = {0};
    read_line(p, &raw);
    tokvec buf = {0};
    tv_reserve(p, &buf, raw.n + 1);
    if (raw.n) {
        memcpy(buf.v, raw.v, raw.n * sizeof(pp_tok));
    }
    buf.v[raw.n] = (pp_tok){.kind = T_EOF, .text = "", .line = directive->line,
                            .col = directive->col};
    buf.n = raw.n + 1;
    tv_free(p, &raw);
    int depth = p->nframes;
    push_frame(p, buf.v, buf.n, buf, NULL, directive, true);
    tokvec expanded = {0};
    bool failed = false;
    for (;;) {
        pp_tok t;
        next_expanded(p, &t);
        if (t.kind == T_EOF) {
            break;
        }
        bool is_defined = t.kind == T_IDENT && tok_is(&t, "defined");
        bool is_exists = t.kind == T_IDENT && tok_is(&t, "exists");
        if (is_defined || is_exists) {
            bool value = false;
            if (!if_operand(p, &t, is_defined, &value)) {
                failed = true;
                break;
            }
            t.kind = T_NUMBER;
            t.text = value ? "1" : "0";
            t.len = 1;
        }
        tv_push(p, &expanded, &t);
    }
    while (p->nframes > depth) {
        pop_frame(p);
    }
    p->has_back = false;
    expr e = {.p = p, .t = expanded.v, .n = expanded.n, .failed = failed};
    int64_t v = 0;
    if (!failed && expanded.n == 0) {
        pp_error(p, "PP_EXPRESSION", directive, "#%.*s with no expression", (int)directive->len,
                 directive->text);
        e.failed = true;
    } else if (!failed) {
        v = ex_cond(&e);
        if (!e.failed && e.i < e.n) {
            ex_fail(&e, &e.t[e.i], "unexpected");
        }
    }
    tv_free(p, &expanded);
    return !e.failed && v != 0;
}

// --- conditionals ---

// Passes over a group whose condition is false: stops before the #elif,
// #else or #endif that belongs to it (or at the end of the file).
static void skip_group(pp *p) {
    pp_src *s = p->src;
    const char *c = s->cur;
    const char *end = s->end;
    int depth = 0;
    bool bol = s->bol;
    while (c < end) {
        if (bol) {
            const char *ls = c;
            while (c < end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' || *c == '\v')) {
                c++;
            }
            if (c < end && *c == '#') {
                c++;
                while (c < end && (*c == ' ' || *c == '\t')) {
                    c++;
                }
                const char *w = c;
                while (c < end && is_ident_char((unsigned char)*c)) {
                    c++;
                }
                size_t wl = (size_t)(c - w);
                if ((wl == 2 && memcmp(w, "if", 2) == 0) ||
                    (wl == 5 && memcmp(w, "ifdef", 5) == 0) ||
                    (wl == 6 && memcmp(w, "ifndef", 6) == 0)) {
                    depth++;
                } else if (wl == 5 && memcmp(w, "endif", 5) == 0) {
                    if (depth == 0) {
                        s->cur = ls;
                        s->bol = true;
                        return;
                    }
                    depth--;
                } else if (depth == 0 && ((wl == 4 && memcmp(w, "elif", 4) == 0) ||
                                          (wl == 4 && memcmp(w, "else", 4) == 0))) {
                    s->cur = ls;
                    s->bol = true;
                    return;
                }
            }
            bol = false;
            continue;
        }
        char ch = *c;
        if (ch == '\n') {
            c++;
            s->line++;
            s->line_start = c;
            bol = true;
        } else if (ch == '\\' && (c[1] == '\n' || (c[1] == '\r' && c[2] == '\n'))) {
            c += c[1] == '\n' ? 2 : 3;
            s->line++;
            s->line_start = c;
        } else if (ch == '/' && c[1] == '/') {
            const char *nl = memchr(c, '\n', (size_t)(end - c));
            c = nl ? nl : end;
        } else if (ch == '/' && c[1] == '*') {
            const char *start = c;
            int sline = s->line;
            const char *sls = s->line_start;
            c += 2;
            while (c < end && !(c[0] == '*' && c[1] == '/')) {
                if (*c == '\n') {
                    s->line++;
                    s->line_start = c + 1;
                }
                c++;
            }
            if (c >= end) {
                report(p, FXGL_DIAG_ERROR, "PP_UNTERMINATED_COMMENT", sline,
                       (int)(start - sls) + 1, "unterminated comment");
                break;
            }
            c += 2;
        } else if (ch == '"') {
            // Strings end at their quote or, leniently, at the line's end.
            c++;
            while (c < end && *c != '"' && *c != '\n') {
                if (*c == '\\' && c + 1 < end) {
                    if (c[1] == '\n') {
                        s->line++;
                        s->line_start = c + 2;
                    }
                    c++;
                }
                c++;
            }
            if (c < end && *c == '"') {
                c++;
            }
        } else {
            // Plain text: jump to the next byte that matters.
            c++;
            while (c < end && *c != '\n' && *c != '/' && *c != '"' && *c != '\\') {
                c++;
            }
        }
    }
    s->cur = end;
    s->bol = true;
}

static void push_cond(pp *p, const pp_tok *at, bool taken) {
    if (p->nconds >= FX_LIMIT_IF_DEPTH) {
        fx_limit(p->ctx, p->src->name, at->line, at->col, "nested #if", FX_LIMIT_IF_DEPTH);
    }
    if (p->nconds == p->conds_cap) {
        int cap = p->conds_cap ? p->conds_cap * 2 : 16;
        pp_cond *grown = fx_alloc(p->ctx, (size_t)cap * sizeof(*grown));
        if (p->nconds) {
            memcpy(grown, p->conds, (size_t)p->nconds * sizeof(*grown));
        }
        p->conds = grown;
        p->conds_cap = cap;
    }
    p->conds[p->nconds++] = (pp_cond){.taken = taken, .file = p->src->name, .line = at->line,
                                      .col = at->col};
    if (!taken) {
        skip_group(p);
    }
}

static bool check_cond(pp *p, const pp_tok *at) {
    if (p->nconds <= p->src->cond_base) {
        pp_error(p, "PP_CONDITIONAL", at, "#%.*s without #if", (int)at->len, at->text);
        return false;
    }
    return true;
}

// --- directives ---

static const char *line_text(pp *p, const tokvec *v) {
    size_t size = 1;
    for (uint32_t i = 0; i < v->n; i++) {
        size += v->v[i].len + 1;
    }
    char *s = fx_alloc(p->ctx, size);
    size_t k = 0;
    for (uint32_t i = 0; i < v->n; i++) {
        if (i && (v->v[i].flags & F_SPACE)) {
            s[k++] = ' ';
        }
        memcpy(s + k, v->v[i].text, v->v[i].len);
        k += v->v[i].len;
    }
    s[k] = '\0';
    return s;
}

// The text of a string literal token, escapes decoded (for #error messages).
static const char *string_value(pp *p, const pp_tok *t) {
    char *s = fx_alloc(p->ctx, t->len + 1);
    size_t k = 0;
    for (uint32_t i = 1; i + 1 < t->len; i++) {
        char c = t->text[i];
        if (c == '\\' && i + 2 < t->len) {
            char e = t->text[++i];
            switch (e) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case '\n':
                continue;
            default:
                c = e;
                break;
            }
        }
        s[k++] = c;
    }
    s[k] = '\0';
    return s;
}

static void do_include(pp *p, const pp_tok *hash) {
    tokvec raw = {0};
    read_line(p, &raw);
    tokvec v = {0};
    if (raw.n == 1 && raw.v[0].kind == T_STRING) {
        tv_push(p, &v, &raw.v[0]);
    } else {
        expand_list(p, raw.v, raw.n, &v);
    }
    if (v.n == 0 || v.v[0].kind != T_STRING || v.v[0].len < 2 ||
        v.v[0].text[v.v[0].len - 1] != '"') {
        const pp_tok *at = raw.n ? &raw.v[0] : hash;
        pp_error(p, "PP_INCLUDE", at, "#include expects a file name in quotes");
        return;
    }
    if (v.n > 1) {
        pp_warn(p, "PP_EXTRA_TOKENS", &v.v[1], "extra tokens after the #include file name");
    }
    pp_tok name_tok = v.v[0];
    const pp_tok *at = raw.n ? &raw.v[0] : hash;
    name_tok.line = at->line;
    name_tok.col = at->col;
    const char *name = normalize_name(p, &name_tok);
    const char *path = name[0] ? find_file(p, name, false) : NULL;
    if (!path) {
        pp_error(p, "PP_INCLUDE_NOT_FOUND", &name_tok, "could not find include file '%.*s'",
                 (int)name_tok.len - 2, name_tok.text + 1);
        return;
    }
    const char *real = real_path(p, path);
    pp_file *f = p->files;
    while (f && strcmp(f->real, real) != 0) {
        f = f->next;
    }
    if (f && f->active) {
        pp_error(p, "PP_INCLUDE_RECURSIVE", &name_tok, "recursive #include of '%s'", f->name);
        return;
    }
    if (f && f->once) {
        return;
    }
    if (p->include_depth >= FX_LIMIT_INCLUDE_DEPTH) {
        fx_limit(p->ctx, p->src->name, hash->line, hash->col, "nested #include",
                 FX_LIMIT_INCLUDE_DEPTH);
    }
    if (!f) {
        f = load_file(p, path, real, &name_tok);
        if (!f) {
            return;
        }
    }
    push_src(p, f, hash->line, hash->col);
}

static void do_pragma(pp *p, const pp_tok *hash) {
    tokvec v = {0};
    read_line(p, &v);
    if (v.n == 0) {
        pp_warn(p, "PP_UNKNOWN_PRAGMA", hash, "unknown pragma ignored");
        return;
    }
    if (tok_is(&v.v[0], "once") && v.v[0].kind == T_IDENT) {
        p->src->file->once = true;
    } else if ((tok_is(&v.v[0], "warning") || tok_is(&v.v[0], "reshade")) &&
               v.v[0].kind == T_IDENT) {
        const char *text = line_text(p, &v);
        add_string(p, &p->pragmas, &p->npragmas, &p->pragmas_cap, text);
        out_goto(p, p->src->name, hash->line);
        if (p->out_col > 1) {
            out_newline(p);
        }
        out_write(p, "#pragma ", 8);
        out_write(p, text, strlen(text));
        out_newline(p);
    } else {
        pp_warn(p, "PP_UNKNOWN_PRAGMA", &v.v[0], "unknown pragma ignored");
    }
    tv_free(p, &v);
}

static void do_line(pp *p, const pp_tok *hash) {
    tokvec v = {0};
    read_line(p, &v);
    tokvec e = {0};
    expand_list(p, v.v, v.n, &e);
    long n = 0;
    bool ok = e.n >= 1 && e.n <= 2 && e.v[0].kind == T_NUMBER;
    for (uint32_t i = 0; ok && i < e.v[0].len; i++) {
        ok = is_digit((unsigned char)e.v[0].text[i]);
        if (n < 100000000) {
            n = n * 10 + (e.v[0].text[i] - '0');
        }
    }
    if (ok && e.n == 2) {
        ok = e.v[1].kind == T_STRING;
    }
    if (!ok || n < 1) {
        pp_error(p, "PP_LINE", v.n ? &v.v[0] : hash,
                 "#line expects a line number and an optional file name in quotes");
        return;
    }
    // Checked, then ignored: diagnostics keep naming the real file and line,
    // as the reference's do (a #line in an effect would otherwise point every
    // later message at a file that does not exist).
}

static void do_message(pp *p, const pp_tok *hash, const pp_tok *dir, bool error) {
    tokvec v = {0};
    read_line(p, &v);
    if (v.n != 1 || v.v[0].kind != T_STRING) {
        pp_error(p, "PP_MESSAGE", v.n ? &v.v[0] : dir, "#%.*s expects a message in quotes",
                 (int)dir->len, dir->text);
        return;
    }
    report(p, error ? FXGL_DIAG_ERROR : FXGL_DIAG_WARNING, error ? "PP_ERROR" : "PP_WARNING",
           hash->line, hash->col, "%s", string_value(p, &v.v[0]));
}

static void do_ifdef(pp *p, const pp_tok *hash, const pp_tok *dir, bool want_defined) {
    tokvec v = {0};
    read_line(p, &v);
    if (v.n == 0 || v.v[0].kind != T_IDENT) {
        pp_error(p, "PP_MACRO_NAME", v.n ? &v.v[0] : dir, "#%.*s expects a macro name",
                 (int)dir->len, dir->text);
        push_cond(p, hash, false);
        return;
    }
    pp_macro *m = macro_lookup(p, &v.v[0]);
    if (!m || m->predefined) {
        note_ifdef(p, &v.v[0]);
    }
    push_cond(p, hash, (m != NULL) == want_defined);
    tv_free(p, &v);
}

static void directive(pp *p, const pp_tok *hash) {
    pp_tok dir;
    lex(p, p->src, &dir);
    if (dir.kind == T_NL || dir.kind == T_EOF) {
        return; // a lone '#'
    }
    if (dir.kind != T_IDENT) {
        if (dir.kind == T_NUMBER) {
            // cpp's `# 12 "file"` line marker.
            p->src->cur = dir.text;
            do_line(p, hash);
            return;
        }
        pp_error(p, "PP_DIRECTIVE", &dir, "unknown preprocessor directive '#%.*s'", (int)dir.len,
                 dir.text);
        read_line(p, NULL);
        return;
    }
    if (tok_is(&dir, "define")) {
        tokvec v = {0};
        read_line(p, &v);
        define_macro(p, v.v, v.n, false, &dir);
        tv_free(p, &v);
    } else if (tok_is(&dir, "undef")) {
        tokvec v = {0};
        read_line(p, &v);
        if (v.n == 0 || v.v[0].kind != T_IDENT) {
            pp_error(p, "PP_MACRO_NAME", v.n ? &v.v[0] : &dir, "#undef expects a macro name");
        } else {
            pp_macro *m = macro_lookup(p, &v.v[0]);
            if (m && !m->builtin) {
                macro_remove(p, m);
            }
        }
        tv_free(p, &v);
    } else if (tok_is(&dir, "if")) {
        push_cond(p, hash, eval_condition(p, &dir));
    } else if (tok_is(&dir, "ifdef")) {
        do_ifdef(p, hash, &dir, true);
    } else if (tok_is(&dir, "ifndef")) {
        do_ifdef(p, hash, &dir, false);
    } else if (tok_is(&dir, "elif")) {
        if (!check_cond(p, &dir)) {
            read_line(p, NULL);
            return;
        }
        pp_cond *c = &p->conds[p->nconds - 1];
        if (c->in_else) {
            pp_error(p, "PP_CONDITIONAL", &dir, "#elif after #else");
        }
        if (c->taken) {
            read_line(p, NULL);
            skip_group(p);
        } else if (eval_condition(p, &dir)) {
            c->taken = true;
        } else {
            skip_group(p);
        }
    } else if (tok_is(&dir, "else")) {
        read_line(p, NULL);
        if (!check_cond(p, &dir)) {
            return;
        }
        pp_cond *c = &p->conds[p->nconds - 1];
        if (c->in_else) {
            pp_error(p, "PP_CONDITIONAL", &dir, "#else after #else");
        }
        c->in_else = true;
        if (c->taken) {
            skip_group(p);
        } else {
            c->taken = true;
        }
    } else if (tok_is(&dir, "endif")) {
        read_line(p, NULL);
        if (check_cond(p, &dir)) {
            p->nconds--;
        }
    } else if (tok_is(&dir, "include")) {
        do_include(p, hash);
    } else if (tok_is(&dir, "pragma")) {
        do_pragma(p, hash);
    } else if (tok_is(&dir, "line")) {
        do_line(p, hash);
    } else if (tok_is(&dir, "error")) {
        do_message(p, hash, &dir, true);
    } else if (tok_is(&dir, "warning")) {
        do_message(p, hash, &dir, false);
    } else {
        pp_error(p, "PP_DIRECTIVE", &dir, "unknown preprocessor directive '#%.*s'", (int)dir.len,
                 dir.text);
        read_line(p, NULL);
    }
}

// Leaves an included file: its conditionals must be closed.
static void pop_src(pp *p) {
    pp_src *s = p->src;
    if (p->nconds > s->cond_base) {
        pp_cond *c = &p->conds[s->cond_base];
        report(p, FXGL_DIAG_ERROR, "PP_UNTERMINATED_IF", c->line, c->col,
               "unterminated #%s", "if");
        p->nconds = s->cond_base;
    }
    s->file->active = false;
    p->include_depth--;
    if (s->parent) {
        p->src = s->parent;
    }
}

// The next token of active text from the files. peek: a directive line
// ends the search with T_STOP instead of being handled (a function-like
// macro name before a directive is not an invocation).
static void src_next(pp *p, pp_tok *t, bool peek) {
    for (;;) {
        pp_src *s = p->src;
        const char *save_cur = s->cur, *save_ls = s->line_start;
        int32_t save_line = s->line;
        bool save_bol = s->bol;
        lex(p, s, t);
        if (t->kind == T_NL) {
            continue;
        }
        if (t->kind == T_EOF) {
            if (!s->parent) {
                return;
            }
            pop_src(p);
            continue;
        }
        if ((t->flags & F_BOL) && tok_punct(t, '#')) {
            if (peek) {
                s->cur = save_cur;
                s->line_start = save_ls;
                s->line = save_line;
                s->bol = save_bol;
                t->kind = T_STOP;
                return;
            }
            directive(p, t);
            continue;
        }
        return;
    }
}

// --- predefined macros ---

static void define_builtin(pp *p, const char *name, int kind) {
    pp_macro *m = fx_alloc(p->ctx, sizeof(*m));
    m->name = name;
    m->name_len = (uint32_t)strlen(name);
    m->hash = hash_name(name, m->name_len);
    m->builtin = (uint8_t)kind;
    m->predefined = true;
    m->file = "<built-in>";
    macro_insert(p, m);
}

static void define_predefined(pp *p, const fx_pp_define *d) {
    if (!d->name || !d->name[0]) {
        return;
    }
    const char *text = fx_sprintf(p->ctx, "%s %s\n", d->name, d->value ? d->value : "");
    pp_file *f = fx_alloc(p->ctx, sizeof(*f));
    f->name = "<predefined>";
    f->real = f->name;
    f->dir = "";
    set_text(p, f, text, strlen(text));
    pp_src s = {.file = f, .name = f->name, .cur = f->text, .end = f->text + f->len,
                .line_start = f->text, .line = 1};
    pp_src *saved = p->src;
    p->src = &s;
    tokvec v = {0};
    read_line(p, &v);
    define_macro(p, v.v, v.n, true, &(pp_tok){.line = 1, .col = 1});
    // The tokens point into f->text, which the arena keeps.
    tv_free(p, &v);
    p->src = saved;
}

// --- entry point ---

static bool pp_run(fx_ctx *ctx, const fx_pp_desc *desc, fx_pp_result *out) {
    pp *p = fx_alloc(ctx, sizeof(*p));
    p->ctx = ctx;
    p->desc = desc;
    p->macro_mask = 255;
    p->macros = fx_alloc(ctx, (p->macro_mask + 1) * sizeof(*p->macros));
    p->ifdef_mask = 255;
    p->ifdef_seen = fx_alloc(ctx, (p->ifdef_mask + 1) * sizeof(*p->ifdef_seen));
    p->out_limit = desc->output_limit ? desc->output_limit : FX_LIMIT_OUTPUT_SIZE;
    p->out_line = 1;
    p->out_col = 1;
    int errors_before = ctx->errors;
    const char *path = desc->path ? desc->path : "";

    static const struct {
        const char *name;
        int kind;
    } builtins[] = {
        {"__LINE__", B_LINE},
        {"__FILE__", B_FILE},
        {"__FILE_NAME__", B_FILE_NAME},
        {"__FILE_STEM__", B_FILE_STEM},
        {"__FILE_NAME_HASH__", B_FILE_NAME_HASH},
        {"__FILE_STEM_HASH__", B_FILE_STEM_HASH},
    };
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        define_builtin(p, builtins[i].name, builtins[i].kind);
    }
    for (size_t i = 0; i < desc->define_count; i++) {
        define_predefined(p, &desc->defines[i]);
    }
    setup_search_dirs(p);

    pp_file *main_file;
    if (desc->source) {
        if (desc->source_len > FX_LIMIT_FILE_SIZE) {
            fx_limit(ctx, path, 0, 0, "bytes in a source file", (long)FX_LIMIT_FILE_SIZE);
        }
        main_file = fx_alloc(ctx, sizeof(*main_file));
        main_file->name = fx_strdup(ctx, path);
        main_file->real = path[0] ? real_path(p, path) : main_file->name;
        main_file->dir = dir_of(p, main_file->name);
        set_text(p, main_file, desc->source, desc->source_len);
        main_file->next = p->files;
        p->files = main_file;
        add_string(p, &p->included, &p->nincluded, &p->included_cap, main_file->name);
    } else {
        main_file = load_file(p, path, real_path(p, path), NULL);
    }
    if (main_file) {
        out_reserve(p, main_file->len + main_file->len / 8 + 1024);
        push_src(p, main_file, 0, 0);
        for (;;) {
            pp_tok t;
            next_expanded(p, &t);
            if (t.kind == T_EOF) {
                break;
            }
            emit(p, &t);
        }
        pop_src(p);
        if (p->out_col > 1) {
            out_newline(p);
        }
    }
    out_reserve(p, 1);
    p->out[p->out_len] = '\0';
    out->text = p->out;
    out->len = p->out_len;
    out->included_files = p->included;
    out->included_count = p->nincluded;
    out->pragmas = p->pragmas;
    out->pragma_count = p->npragmas;
    out->ifdef_names = p->ifdefs;
    out->ifdef_count = p->nifdefs;
    return main_file && ctx->errors == errors_before;
}

static const char **copy_list(fx_ctx *ctx, const char **list, size_t count) {
    if (!count) {
        return NULL;
    }
    const char **copy = fx_alloc(ctx, count * sizeof(*copy));
    for (size_t i = 0; i < count; i++) {
        copy[i] = fx_strdup(ctx, list[i]);
    }
    return copy;
}

// The preprocessor's working memory (file texts, macros, expansion buffers)
// is dead once the text is out, so it lives in an arena of its own that goes
// before the parser starts: the compilation's peak is then the larger of
// the two phases, not their sum. Fatal errors inside are caught here to
// free that arena and passed on to the caller's jump.
bool fx_pp_run(fx_ctx *ctx, const fx_pp_desc *desc, fx_pp_result *out) {
    memset(out, 0, sizeof(*out));
    fx_arena *work = fx_arena_create(fx_arena_limit(ctx->arena));
    // The contexts are on the heap: they change between setjmp and longjmp.
    fx_ctx *w = work ? fx_arena_alloc(work, 2 * sizeof(fx_ctx)) : NULL;
    if (!w) {
        fx_arena_destroy(work);
        fxgl_diags_add(ctx->diags, FXGL_DIAG_ERROR, "OUT_OF_MEMORY", "", 0, 0, NULL,
                       "out of memory");
        ctx->errors++;
        fx_fatal(ctx);
    }
    fx_ctx *c = w + 1; // copies the results into the caller's arena
    jmp_buf jb;
    *w = *ctx;
    w->arena = work;
    w->fatal = &jb;
    *c = *ctx;
    c->fatal = &jb;
    if (setjmp(jb)) {
        ctx->errors = w->errors > c->errors ? w->errors : c->errors;
        fx_arena_destroy(work);
        fx_fatal(ctx);
    }
    fx_pp_result r = {0};
    bool ok = pp_run(w, desc, &r);
    c->errors = w->errors;
    out->text = fx_alloc(c, r.len + 1);
    memcpy(out->text, r.text, r.len + 1);
    out->len = r.len;
    out->included_files = copy_list(c, r.included_files, r.included_count);
    out->included_count = r.included_count;
    out->pragmas = copy_list(c, r.pragmas, r.pragma_count);
    out->pragma_count = r.pragma_count;
    out->ifdef_names = copy_list(c, r.ifdef_names, r.ifdef_count);
    out->ifdef_count = r.ifdef_count;
    out->work_peak = fx_arena_peak(work);
    ctx->errors = c->errors;
    fx_arena_destroy(work);
    return ok;
}

uint32_t fx_pp_application_hash(const char *exe_path) {
    const char *base = exe_path;
    for (const char *c = exe_path; *c; c++) {
        if (*c == '/' || *c == '\\') {
            base = c + 1;
        }
    }
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return (uint32_t)(fx_hash_fnv1a64(base, len) & 0xFFFFFFFFu);
}

uint32_t fx_pp_renderer_gl(int major, int minor) {
    return 0x10000u | ((uint32_t)major << 12) | ((uint32_t)minor << 8);
}
