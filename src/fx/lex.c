/*
 * lex.c - the FX lexer: preprocessed text in, one token per call out.
 *
 * The input is what the preprocessor wrote: code, `#line N "file"` markers
 * (which switch the reported file and line), passed-through `#pragma` lines
 * (kept in a list for the code generator) and perhaps comments (skipped
 * anyway). Tokens point into the text; only string literals are decoded into
 * the arena. Names go through one hash table that is seeded with every
 * keyword, built-in type name and reserved word, so a single lookup tells
 * the parser what a word is (Lua's llex.c does the same with its reserved
 * strings). Character classes come from a const table: the scanning loops
 * are the hot path of the front end.
 *
 * Facts followed (reshade effect_lexer.cpp): vector types have no `float1`
 * spelling but `float2x1` means float2; `dword` is uint; `centroid` is
 * reserved; `true/false/TRUE/FALSE` are literals; a leading 0 means octal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fx_ast.h"

// --- diagnostics table ---

typedef struct syntax_diag_info {
    fxgl_diag_severity severity;
    const char *id;
    const char *fmt;
} syntax_diag_info;

static const syntax_diag_info syntax_diags[] = {
#define FX_X(name, sev, id, fmt) {FXGL_DIAG_##sev, id, fmt},
    FX_SYNTAX_DIAGS(FX_X)
#undef FX_X
};
_Static_assert(sizeof(syntax_diags) / sizeof(syntax_diags[0]) == FX_D_COUNT, "diag table");

const char *fx_syntax_diag_id(fx_syntax_diag d) {
    return syntax_diags[d].id;
}

void fx_lex_report(fx_ctx *ctx, fx_syntax_diag d, const fx_loc *loc, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, loc);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    vsnprintf(msg, sizeof(msg), syntax_diags[d].fmt, ap);
#pragma GCC diagnostic pop
    va_end(ap);
    fx_report(ctx, syntax_diags[d].severity, syntax_diags[d].id, loc->file, loc->line,
              loc->col, NULL, "%s", msg);
}

// --- token spellings ---

static const char *const tok_spellings[] = {
    "",
#define FX_X(name, spelling) spelling,
    FX_TOKENS(FX_X)
#undef FX_X
};
_Static_assert(sizeof(tok_spellings) / sizeof(tok_spellings[0]) ==
                   FX_TOK_COUNT - FX_TOK_FIRST_NAMED, "token spelling table");

const char *fx_tok_spelling(int kind, char buf[2]) {
    if (kind > FX_TOK_FIRST_NAMED && kind < FX_TOK_COUNT) {
        return tok_spellings[kind - FX_TOK_FIRST_NAMED];
    }
    buf[0] = (char)kind;
    buf[1] = '\0';
    return buf;
}

// --- character classes ---

enum {
    C_SPACE = 1,                 // blank other than newline
    C_IDENT = 2,                 // may start a name
    C_DIGIT = 4,
    C_HEX = 8,
};

#define D (C_DIGIT | C_HEX)
#define H (C_IDENT | C_HEX)
#define I C_IDENT
static const unsigned char char_class[256] = {
    ['\t'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE, ['\r'] = C_SPACE, [' '] = C_SPACE,
    ['0'] = D, ['1'] = D, ['2'] = D, ['3'] = D, ['4'] = D,
    ['5'] = D, ['6'] = D, ['7'] = D, ['8'] = D, ['9'] = D,
    ['A'] = H, ['B'] = H, ['C'] = H, ['D'] = H, ['E'] = H, ['F'] = H,
    ['a'] = H, ['b'] = H, ['c'] = H, ['d'] = H, ['e'] = H, ['f'] = H,
    ['G'] = I, ['H'] = I, ['I'] = I, ['J'] = I, ['K'] = I, ['L'] = I, ['M'] = I, ['N'] = I,
    ['O'] = I, ['P'] = I, ['Q'] = I, ['R'] = I, ['S'] = I, ['T'] = I, ['U'] = I, ['V'] = I,
    ['W'] = I, ['X'] = I, ['Y'] = I, ['Z'] = I,
    ['g'] = I, ['h'] = I, ['i'] = I, ['j'] = I, ['k'] = I, ['l'] = I, ['m'] = I, ['n'] = I,
    ['o'] = I, ['p'] = I, ['q'] = I, ['r'] = I, ['s'] = I, ['t'] = I, ['u'] = I, ['v'] = I,
    ['w'] = I, ['x'] = I, ['y'] = I, ['z'] = I, ['_'] = I,
};
#undef D
#undef H
#undef I

static bool is_ident_char(unsigned char c) {
    return (char_class[c] & (C_IDENT | C_DIGIT)) != 0;
}

// --- name table ---

#define FNV32_OFFSET 2166136261u
#define FNV32_PRIME 16777619u

static uint32_t hash_bytes(const char *s, size_t len) {
    uint32_t h = FNV32_OFFSET;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * FNV32_PRIME;
    }
    return h;
}

static void grow_table(fx_lexer *lx) {
    uint32_t old_size = lx->ident_mask + 1;
    uint32_t size = old_size * 2;
    fx_ident **buckets = fx_alloc(lx->ctx, size * sizeof(*buckets));
    for (uint32_t i = 0; i < old_size; i++) {
        fx_ident *id = lx->idents[i];
        while (id) {
            fx_ident *next = id->next;
            id->next = buckets[id->hash & (size - 1)];
            buckets[id->hash & (size - 1)] = id;
            id = next;
        }
    }
    lx->idents = buckets;
    lx->ident_mask = size - 1;
}

static void classify(fx_ident *id);

static fx_ident *intern_hashed(fx_lexer *lx, const char *s, size_t len, uint32_t h) {
    for (fx_ident *id = lx->idents[h & lx->ident_mask]; id; id = id->next) {
        if (id->hash == h && id->len == len && memcmp(id->str, s, len) == 0) {
            return id;
        }
    }
    if (len > UINT32_MAX / 2) {
        fx_limit(lx->ctx, lx->file, lx->line, 1, "characters in a name", UINT32_MAX / 2);
    }
    // The name's bytes follow the struct (str is a flexible array member).
    fx_ident *id = fx_alloc(lx->ctx, sizeof(*id) + len + 1);
    memcpy(id->str, s, len);
    id->len = (uint32_t)len;
    id->hash = h;
    id->kind = FX_TOK_IDENT;
    classify(id);
    id->next = lx->idents[h & lx->ident_mask];
    lx->idents[h & lx->ident_mask] = id;
    if (++lx->ident_count > lx->ident_mask) {
        grow_table(lx);
    }
    return id;
}

fx_ident *fx_lex_intern(fx_lexer *lx, const char *s, size_t len) {
    return intern_hashed(lx, s, len, hash_bytes(s, len));
}

// --- keywords ---

typedef struct keyword {
    const char *name;
    uint16_t kind;               // fx_tok_kind
    uint16_t quals;              // FX_TOK_QUALIFIER
    uint8_t base;                // FX_TOK_TYPE: fx_base_type
    uint8_t rows;
} keyword;

static const keyword keywords[] = {
    {"namespace", FX_TOK_NAMESPACE, 0, 0, 0},
    {"struct", FX_TOK_STRUCT, 0, 0, 0},
    {"technique", FX_TOK_TECHNIQUE, 0, 0, 0},
    {"pass", FX_TOK_PASS, 0, 0, 0},
    {"if", FX_TOK_IF, 0, 0, 0},
    {"else", FX_TOK_ELSE, 0, 0, 0},
    {"switch", FX_TOK_SWITCH, 0, 0, 0},
    {"case", FX_TOK_CASE, 0, 0, 0},
    {"default", FX_TOK_DEFAULT, 0, 0, 0},
    {"for", FX_TOK_FOR, 0, 0, 0},
    {"while", FX_TOK_WHILE, 0, 0, 0},
    {"do", FX_TOK_DO, 0, 0, 0},
    {"break", FX_TOK_BREAK, 0, 0, 0},
    {"continue", FX_TOK_CONTINUE, 0, 0, 0},
    {"return", FX_TOK_RETURN, 0, 0, 0},
    {"discard", FX_TOK_DISCARD, 0, 0, 0},
    {"true", FX_TOK_BOOL, 1, 0, 0},
    {"TRUE", FX_TOK_BOOL, 1, 0, 0},
    {"false", FX_TOK_BOOL, 0, 0, 0},
    {"FALSE", FX_TOK_BOOL, 0, 0, 0},
    {"vector", FX_TOK_VECTOR, 0, 0, 0},
    {"matrix", FX_TOK_MATRIX, 0, 0, 0},
    {"extern", FX_TOK_QUALIFIER, FX_Q_EXTERN, 0, 0},
    {"static", FX_TOK_QUALIFIER, FX_Q_STATIC, 0, 0},
    {"uniform", FX_TOK_QUALIFIER, FX_Q_UNIFORM, 0, 0},
    {"volatile", FX_TOK_QUALIFIER, FX_Q_VOLATILE, 0, 0},
    {"precise", FX_TOK_QUALIFIER, FX_Q_PRECISE, 0, 0},
    {"groupshared", FX_TOK_QUALIFIER, FX_Q_GROUPSHARED, 0, 0},
    {"in", FX_TOK_QUALIFIER, FX_Q_IN, 0, 0},
    {"out", FX_TOK_QUALIFIER, FX_Q_OUT, 0, 0},
    {"inout", FX_TOK_QUALIFIER, FX_Q_INOUT, 0, 0},
    {"const", FX_TOK_QUALIFIER, FX_Q_CONST, 0, 0},
    {"linear", FX_TOK_QUALIFIER, FX_Q_LINEAR, 0, 0},
    {"noperspective", FX_TOK_QUALIFIER, FX_Q_NOPERSPECTIVE, 0, 0},
    {"nointerpolation", FX_TOK_QUALIFIER, FX_Q_NOINTERPOLATION, 0, 0},
    {"void", FX_TOK_TYPE, 0, FX_TYPE_VOID, 0},
    {"string", FX_TOK_TYPE, 0, FX_TYPE_STRING, 0},
    {"texture", FX_TOK_TYPE, 0, FX_TYPE_TEXTURE2D, 0},
    {"texture1D", FX_TOK_TYPE, 0, FX_TYPE_TEXTURE1D, 0},
    {"texture2D", FX_TOK_TYPE, 0, FX_TYPE_TEXTURE2D, 0},
    {"texture3D", FX_TOK_TYPE, 0, FX_TYPE_TEXTURE3D, 0},
    {"sampler", FX_TOK_TYPE, 0, FX_TYPE_SAMPLER2D, 0},
    {"sampler1D", FX_TOK_TYPE, 0, FX_TYPE_SAMPLER1D, 0},
    {"sampler2D", FX_TOK_TYPE, 0, FX_TYPE_SAMPLER2D, 0},
    {"sampler3D", FX_TOK_TYPE, 0, FX_TYPE_SAMPLER3D, 0},
    {"storage", FX_TOK_TYPE, 0, FX_TYPE_STORAGE2D, 0},
    {"storage1D", FX_TOK_TYPE, 0, FX_TYPE_STORAGE1D, 0},
    {"storage2D", FX_TOK_TYPE, 0, FX_TYPE_STORAGE2D, 0},
    {"storage3D", FX_TOK_TYPE, 0, FX_TYPE_STORAGE3D, 0},
};

// Words the language keeps for itself (D3D object names, C++ words, half...).
static const char *const reserved_words[] = {
    "asm", "asm_fragment", "auto", "cast", "catch", "centroid", "char", "class",
    "column_major", "compile", "const_cast", "delete", "double", "dynamic_cast", "enum",
    "explicit", "external", "foreach", "friend", "globallycoherent", "goto", "inline",
    "interface", "long", "mutable", "new", "noinline", "operator", "packed", "packoffset",
    "private", "protected", "public", "register", "reinterpret_cast", "restrict", "row_major",
    "sample", "sampler1DArray", "sampler2DArray", "sampler2DMS", "sampler2DMSArray",
    "sampler_state", "samplerCube", "samplerCubeArray", "samplerCUBE", "samplerRect",
    "samplerRECT", "SamplerState", "shared", "short", "signed", "sizeof", "snorm",
    "static_cast", "template", "Texture1D", "Texture1DArray", "Texture2D", "Texture2DArray",
    "Texture2DMS", "Texture2DMSArray", "Texture3D", "textureCUBE", "TextureCube",
    "TextureCubeArray", "textureRECT", "this", "try", "typedef", "union", "unorm", "unsigned",
    "using", "virtual",
};

typedef struct type_family {
    const char *prefix;
    uint8_t base;                // fx_base_type; FX_TYPE_ERROR marks `half` (reserved)
    bool vec_x1;                 // `float2x1` spellings exist
} type_family;

static const type_family type_families[] = {
    {"bool", FX_TYPE_BOOL, true},
    {"int", FX_TYPE_INT, true},
    {"uint", FX_TYPE_UINT, true},
    {"dword", FX_TYPE_UINT, true},
    {"float", FX_TYPE_FLOAT, true},
    {"min16int", FX_TYPE_MIN16INT, false},
    {"min16uint", FX_TYPE_MIN16UINT, false},
    {"min16float", FX_TYPE_MIN16FLOAT, false},
    {"half", FX_TYPE_ERROR, true},
};

// A keyword, reserved word or built-in type name gets its meaning when it is
// first interned, from the tables above: only the words an effect uses cost
// memory (interning all ~260 up front cost ~20 KB per compilation).
static bool type_name(fx_ident *id) {
    const char *s = id->str;
    for (size_t i = 0; i < sizeof(type_families) / sizeof(type_families[0]); i++) {
        const type_family *f = &type_families[i];
        size_t pl = strlen(f->prefix);
        if (id->len < pl || memcmp(s, f->prefix, pl) != 0) {
            continue;
        }
        const char *r = s + pl;
        size_t rest = id->len - pl;
        int rows = 1, cols = 1;
        if (rest == 0) {
            // scalar
        } else if (rest == 1 && r[0] >= '2' && r[0] <= '4') {
            rows = r[0] - '0';
        } else if (rest == 3 && r[0] >= '2' && r[0] <= '4' && r[1] == 'x' &&
                   r[2] >= '1' && r[2] <= '4' && (r[2] != '1' || f->vec_x1)) {
            rows = r[0] - '0';
            cols = r[2] - '0';
        } else {
            continue;
        }
        if (f->base == FX_TYPE_ERROR) {
            id->flags |= FX_IDENT_RESERVED;
            return true;
        }
        id->kind = FX_TOK_TYPE;
        id->type.base = f->base;
        id->type.rows = (unsigned)rows;
        id->type.cols = (unsigned)cols;
        return true;
    }
    return false;
}

static void classify(fx_ident *id) {
    // Runs once per distinct name of a compilation, over ~160 words: the
    // first-byte test spares most strcmp calls (they were 10% of front-end
    // time on qUINT, perf).
    const char c0 = id->str[0];
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
        const keyword *k = &keywords[i];
        if (k->name[0] != c0 || strcmp(k->name, id->str) != 0) {
            continue;
        }
        id->kind = k->kind;
        id->quals = k->quals;
        if (k->kind == FX_TOK_TYPE) {
            id->type.base = k->base;
            id->type.rows = 1;
            id->type.cols = 1;
            if (k->base >= FX_TYPE_TEXTURE1D && k->base <= FX_TYPE_STORAGE3D) {
                id->type.elem_base = FX_TYPE_FLOAT;
                id->type.elem_rows = 4;
            }
        }
        return;
    }
    for (size_t i = 0; i < sizeof(reserved_words) / sizeof(reserved_words[0]); i++) {
        if (reserved_words[i][0] == c0 && strcmp(reserved_words[i], id->str) == 0) {
            id->flags |= FX_IDENT_RESERVED;
            return;
        }
    }
    type_name(id);
}

void fx_lex_init(fx_lexer *lx, fx_ctx *ctx, const char *text, size_t len, const char *file) {
    memset(lx, 0, sizeof(*lx));
    lx->ctx = ctx;
    if (len > FX_LIMIT_OUTPUT_SIZE) {
        fx_limit(ctx, file ? file : "", 0, 0, "bytes of preprocessed source",
                 (long)FX_LIMIT_OUTPUT_SIZE);
    }
    lx->text = text;
    lx->end = text + len;
    lx->cur = text;
    lx->line_start = text;
    lx->file = fx_strdup(ctx, file ? file : "");
    lx->first_file = lx->file;
    lx->line = 1;
    lx->at_line_start = true;
    // The line map's size, counted up front so that it is allocated once: a
    // mark per directive line (the #line markers) and one per stride.
    size_t lines = 0, directives = 0;
    for (const char *q = text, *nl; q < lx->end; q = nl + 1) {
        directives += *q == '#';
        lines++;
        nl = memchr(q, '\n', (size_t)(lx->end - q));
        if (!nl) {
            break;
        }
    }
    lx->mark_cap = directives + lines / FX_LEX_MAP_STRIDE + 1;
    lx->marks = fx_alloc(ctx, lx->mark_cap * sizeof(*lx->marks));
    lx->ident_mask = 255;        // grows by doubling; a typical effect has 100-500 names
    lx->idents = fx_alloc(ctx, (lx->ident_mask + 1) * sizeof(*lx->idents));
    lx->pragma_tail = &lx->pragmas;
}

// --- scanning helpers ---

static fx_loc loc_at(const fx_lexer *lx, const char *p) {
    return (fx_loc){
        .file = lx->file,
        .line = lx->line,
        .col = (int32_t)(p - lx->line_start) + 1,
    };
}

static void newline(fx_lexer *lx, const char *after) {
    lx->line++;
    lx->line_start = after;
    lx->at_line_start = true;
    if (lx->mark_pending || ++lx->lines_since_mark >= FX_LEX_MAP_STRIDE) {
        fx_grow(lx->ctx, (void **)&lx->marks, &lx->mark_cap, lx->mark_count + 1,
                sizeof(*lx->marks), UINT32_MAX, "lines");
        lx->marks[lx->mark_count++] = (fx_line_mark){
            .off = (uint32_t)(after - lx->text), .line = lx->line, .file = lx->file};
        lx->mark_pending = false;
        lx->lines_since_mark = 0;
    }
}

fx_loc fx_lex_loc(const fx_lexer *lx, fx_pos pos) {
    size_t len = (size_t)(lx->end - lx->text);
    if (pos.off == UINT32_MAX || pos.off > len) {
        return (fx_loc){.file = "", .line = 0, .col = 0};
    }
    // The last mark at or before pos.
    size_t lo = 0, hi = lx->mark_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (lx->marks[mid].off <= pos.off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    fx_loc loc = {.file = lx->first_file, .line = 1, .col = 1};
    uint32_t start = 0;
    if (lo > 0) {
        const fx_line_mark *m = &lx->marks[lo - 1];
        loc.file = m->file;
        loc.line = m->line;
        start = m->off;
    }
    const char *p = lx->text + start;
    const char *end = lx->text + pos.off;
    const char *nl;
    while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        loc.line++;
        p = nl + 1;
    }
    loc.col = (int32_t)(end - p) + 1;
    return loc;
}

static const char *line_end(const fx_lexer *lx, const char *p) {
    const char *nl = memchr(p, '\n', (size_t)(lx->end - p));
    return nl ? nl : lx->end;
}

static const char *skip_blanks(const fx_lexer *lx, const char *p) {
    while (p < lx->end && (char_class[(unsigned char)*p] & C_SPACE)) {
        p++;
    }
    return p;
}

// `#line N "file"`, `# N "file"` (cpp's short form) and `#pragma ...`. Any
// other directive is left over from a preprocessor bug or raw input.
static void directive(fx_lexer *lx, const char *hash) {
    const char *p = skip_blanks(lx, hash + 1);
    const char *word = p;
    while (p < lx->end && is_ident_char((unsigned char)*p)) {
        p++;
    }
    const char *eol = line_end(lx, p);
    size_t wlen = (size_t)(p - word);
    if (wlen == 6 && memcmp(word, "pragma", 6) == 0) {
        fx_pragma *pr = fx_alloc(lx->ctx, sizeof(*pr));
        const char *body = skip_blanks(lx, p);
        const char *stop = eol;
        while (stop > body && (char_class[(unsigned char)stop[-1]] & C_SPACE)) {
            stop--;
        }
        pr->text = body;
        pr->len = (uint32_t)(stop - body);
        pr->loc = loc_at(lx, hash);
        *lx->pragma_tail = pr;
        lx->pragma_tail = &pr->next;
        lx->cur = eol;
        return;
    }
    const char *num = NULL;
    if (wlen == 4 && memcmp(word, "line", 4) == 0) {
        num = skip_blanks(lx, p);
    } else if (wlen > 0 && (char_class[(unsigned char)*word] & C_DIGIT)) {
        num = word;
    }
    if (!num || num >= eol || !(char_class[(unsigned char)*num] & C_DIGIT)) {
        fx_loc loc = loc_at(lx, hash);
        fx_lex_report(lx->ctx, FX_D_DIRECTIVE, &loc, (int)(p - hash), hash);
        lx->cur = eol;
        return;
    }
    long n = 0;
    while (num < eol && (char_class[(unsigned char)*num] & C_DIGIT)) {
        if (n < 100000000) {
            n = n * 10 + (*num - '0');
        }
        num++;
    }
    const char *q = skip_blanks(lx, num);
    if (q < eol && *q == '"') {
        const char *name = q + 1;
        const char *close = name;
        while (close < eol && *close != '"') {
            close += (*close == '\\' && close + 1 < eol) ? 2 : 1;
        }
        size_t nlen = (size_t)(close - name);
        // Markers repeat the same name after every include; keep one copy.
        // The preprocessor escapes '\\' and '"' in the name: undo that.
        if (memchr(name, '\\', nlen)) {
            char *plain = fx_alloc(lx->ctx, nlen + 1);
            size_t k = 0;
            for (size_t i = 0; i < nlen; i++) {
                if (name[i] == '\\' && i + 1 < nlen) {
                    i++;
                }
                plain[k++] = name[i];
            }
            if (strlen(lx->file) != k || memcmp(lx->file, plain, k) != 0) {
                lx->file = plain;
            }
        } else if (strlen(lx->file) != nlen || memcmp(lx->file, name, nlen) != 0) {
            lx->file = fx_strndup(lx->ctx, name, nlen);
        }
    }
    // The marker names the line that follows it; the newline adds one.
    lx->line = (int32_t)n - 1;
    lx->mark_pending = true;
    lx->cur = eol;
}

// Skips blanks, newlines, comments and directive lines. Returns false at EOF.
static bool skip_space(fx_lexer *lx) {
    const char *p = lx->cur;
    for (;;) {
        while (p < lx->end && (char_class[(unsigned char)*p] & C_SPACE)) {
            p++;
        }
        if (p >= lx->end) {
            lx->cur = p;
            return false;
        }
        if (*p == '\n') {
            p++;
            newline(lx, p);
            continue;
        }
        if (*p == '/' && p + 1 < lx->end && p[1] == '/') {
            p = line_end(lx, p);
            continue;
        }
        if (*p == '/' && p + 1 < lx->end && p[1] == '*') {
            const char *start = p;
            p += 2;
            for (;;) {
                if (p + 1 >= lx->end) {
                    fx_loc loc = loc_at(lx, start);
                    fx_lex_report(lx->ctx, FX_D_UNTERMINATED_COMMENT, &loc);
                    lx->cur = lx->end;
                    return false;
                }
                if (p[0] == '*' && p[1] == '/') {
                    p += 2;
                    break;
                }
                if (*p == '\n') {
                    newline(lx, p + 1);
                    lx->at_line_start = false;
                }
                p++;
            }
            continue;
        }
        if (*p == '#' && lx->at_line_start) {
            directive(lx, p);
            p = lx->cur;
            continue;
        }
        lx->cur = p;
        return true;
    }
}

// --- literals ---

static double pow10_of(int e) {
    static const double exact[] = {
        1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    double r = 1.0;
    while (e > 22) {
        r *= 1e22;
        e -= 22;
    }
    return r * exact[e];
}

// Mantissa and exponent by hand: strtod would follow the host's LC_NUMERIC,
// and this runs inside other programs. Exact for up to 15 significant digits
// with exponents within 1e±22, which covers what shaders write.
static double decimal_value(const char *p, const char *end) {
    uint64_t m = 0;
    int exp10 = 0;
    bool after_dot = false;
    for (; p < end; p++) {
        if (*p == '.') {
            after_dot = true;
        } else if (char_class[(unsigned char)*p] & C_DIGIT) {
            if (m < 100000000000000000ull) {
                m = m * 10 + (uint64_t)(*p - '0');
                exp10 -= after_dot;
            } else {
                exp10 += !after_dot;
            }
        } else {
            break;
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool neg = *p == '-';
        if (*p == '-' || *p == '+') {
            p++;
        }
        int e = 0;
        for (; p < end && (char_class[(unsigned char)*p] & C_DIGIT); p++) {
            if (e < 10000) {
                e = e * 10 + (*p - '0');
            }
        }
        exp10 += neg ? -e : e;
    }
    if (m == 0) {
        return 0.0;
    }
    if (exp10 > 400) {
        exp10 = 400;
    } else if (exp10 < -400) {
        exp10 = -400;
    }
    if (exp10 < 0) {
        // Dividing by an exact power rounds once; two steps for tiny values.
        double v = (double)m;
        if (exp10 < -300) {
            v /= 1e100;
            exp10 += 100;
        }
        return v / pow10_of(-exp10);
    }
    return (double)m * pow10_of(exp10);
}

static void lex_number(fx_lexer *lx, fx_token *tok, const char *start) {
    const char *p = start;
    const char *end = lx->end;
    bool bad = false;
    tok->kind = FX_TOK_INT;
    if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        const char *digits = p;
        uint64_t v = 0;
        for (; p < end && (char_class[(unsigned char)*p] & C_HEX); p++) {
            unsigned d = (*p <= '9') ? (unsigned)(*p - '0') : (unsigned)((*p | 0x20) - 'a' + 10);
            v = (v > (UINT64_MAX >> 4)) ? UINT64_MAX : (v << 4) | d;
        }
        bad = (p == digits);
        tok->ival = v;
        if (p < end && (*p == 'u' || *p == 'U')) {
            tok->kind = FX_TOK_UINT;
            p++;
        }
    } else {
        bool is_float = false;
        while (p < end && (char_class[(unsigned char)*p] & C_DIGIT)) {
            p++;
        }
        const char *int_end = p;
        if (p < end && *p == '.') {
            is_float = true;
            p++;
            while (p < end && (char_class[(unsigned char)*p] & C_DIGIT)) {
                p++;
            }
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
            const char *q = p + 1;
            if (q < end && (*q == '+' || *q == '-')) {
                q++;
            }
            if (q < end && (char_class[(unsigned char)*q] & C_DIGIT)) {
                is_float = true;
                while (q < end && (char_class[(unsigned char)*q] & C_DIGIT)) {
                    q++;
                }
                p = q;
            }
        }
        const char *num_end = p;
        bool is_double = false;
        if (p < end && (*p == 'f' || *p == 'F' || *p == 'h' || *p == 'H')) {
            is_float = true;
            p++;
        } else if (p < end && (*p == 'l' || *p == 'L')) {
            is_float = true;
            is_double = true;
            p++;
        } else if (!is_float && p < end && (*p == 'u' || *p == 'U')) {
            tok->kind = FX_TOK_UINT;
            p++;
        }
        if (is_float) {
            tok->kind = FX_TOK_FLOAT;
            tok->fval = decimal_value(start, num_end);
        } else {
            bool octal = start[0] == '0' && int_end - start > 1;
            unsigned radix = octal ? 8 : 10;
            uint64_t v = 0;
            for (const char *q = start; q < int_end; q++) {
                unsigned d = (unsigned)(*q - '0');
                if (d >= radix) {
                    bad = true;
                }
                v = (v > (UINT64_MAX - d) / radix) ? UINT64_MAX : v * radix + d;
            }
            tok->ival = v;
        }
        if (is_double && !bad) {
            fx_lex_report(lx->ctx, FX_D_DOUBLE_LITERAL, &tok->loc, (int)(p - start), start);
        }
    }
    // `1abc`, `0x`, `09`: one bad token, not a number followed by a name.
    while (p < end && is_ident_char((unsigned char)*p)) {
        p++;
        bad = true;
    }
    tok->len = (uint32_t)(p - start);
    if (bad) {
        fx_lex_report(lx->ctx, FX_D_BAD_NUMBER, &tok->loc, (int)tok->len, start);
        tok->kind = FX_TOK_INT;
        tok->ival = 0;
    }
    lx->cur = p;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)(c | 0x20);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

// Decodes C escapes; a backslash before a newline continues the literal.
static void lex_string(fx_lexer *lx, fx_token *tok, const char *start) {
    const char *p = start + 1;
    const char *end = lx->end;
    bool closed = false;
    while (p < end) {
        if (*p == '"') {
            closed = true;
            break;
        }
        if (*p == '\n') {
            break;
        }
        if (*p == '\\' && p + 1 < end) {
            p += 2;
            continue;
        }
        p++;
    }
    if (!closed) {
        fx_lex_report(lx->ctx, FX_D_UNTERMINATED_STRING, &tok->loc);
    }
    const char *body_end = p;
    char *out = fx_alloc(lx->ctx, (size_t)(body_end - start));
    size_t n = 0;
    for (const char *q = start + 1; q < body_end;) {
        char c = *q++;
        if (c == '\r') {
            continue;
        }
        if (c != '\\' || q >= body_end) {
            out[n++] = c;
            continue;
        }
        c = *q++;
        switch (c) {
        case 'n': out[n++] = '\n'; break;
        case 't': out[n++] = '\t'; break;
        case 'r': out[n++] = '\r'; break;
        case 'a': out[n++] = '\a'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'v': out[n++] = '\v'; break;
        case '\n':
            newline(lx, q);
            lx->at_line_start = false;
            break;
        case 'x': {
            unsigned v = 0;
            bool any = false;
            while (q < body_end && hex_digit(*q) >= 0) {
                v = (v << 4) | (unsigned)hex_digit(*q++);
                any = true;
            }
            out[n++] = any ? (char)(v & 0xFF) : 'x';
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                unsigned v = (unsigned)(c - '0');
                for (int i = 0; i < 2 && q < body_end && *q >= '0' && *q <= '7'; i++) {
                    v = (v << 3) | (unsigned)(*q++ - '0');
                }
                out[n++] = (char)(v & 0xFF);
            } else {
                out[n++] = c; // \\ \" \' \? and unknown escapes stand for themselves
            }
            break;
        }
    }
    out[n] = '\0';
    tok->kind = FX_TOK_STRING;
    tok->str = out;
    tok->str_len = (uint32_t)n;
    lx->cur = closed ? body_end + 1 : body_end;
    tok->len = (uint32_t)(lx->cur - start);
}

// --- the token loop ---

// Longest match among the multi-character punctuators starting with c.
static int punctuator(const char *p, const char *end, uint32_t *len) {
    char c0 = p[0];
    char c1 = p + 1 < end ? p[1] : '\0';
    char c2 = p + 2 < end ? p[2] : '\0';
    *len = 2;
    switch (c0) {
    case '=': if (c1 == '=') return FX_TOK_EQ; break;
    case '!': if (c1 == '=') return FX_TOK_NE; break;
    case '<':
        if (c1 == '<') {
            if (c2 == '=') {
                *len = 3;
                return FX_TOK_SHL_ASSIGN;
            }
            return FX_TOK_SHL;
        }
        if (c1 == '=') return FX_TOK_LE;
        break;
    case '>':
        if (c1 == '>') {
            if (c2 == '=') {
                *len = 3;
                return FX_TOK_SHR_ASSIGN;
            }
            return FX_TOK_SHR;
        }
        if (c1 == '=') return FX_TOK_GE;
        break;
    case '&':
        if (c1 == '&') return FX_TOK_ANDAND;
        if (c1 == '=') return FX_TOK_AND_ASSIGN;
        break;
    case '|':
        if (c1 == '|') return FX_TOK_OROR;
        if (c1 == '=') return FX_TOK_OR_ASSIGN;
        break;
    case '+':
        if (c1 == '+') return FX_TOK_INC;
        if (c1 == '=') return FX_TOK_ADD_ASSIGN;
        break;
    case '-':
        if (c1 == '-') return FX_TOK_DEC;
        if (c1 == '=') return FX_TOK_SUB_ASSIGN;
        if (c1 == '>') return FX_TOK_ARROW;
        break;
    case '*': if (c1 == '=') return FX_TOK_MUL_ASSIGN; break;
    case '/': if (c1 == '=') return FX_TOK_DIV_ASSIGN; break;
    case '%': if (c1 == '=') return FX_TOK_MOD_ASSIGN; break;
    case '^': if (c1 == '=') return FX_TOK_XOR_ASSIGN; break;
    case ':': if (c1 == ':') return FX_TOK_SCOPE; break;
    case '.':
        if (c1 == '.' && c2 == '.') {
            *len = 3;
            return FX_TOK_ELLIPSIS;
        }
        break;
    }
    *len = 1;
    return 0;
}

void fx_lex_next(fx_lexer *lx, fx_token *tok) {
    for (;;) {
        memset(tok, 0, sizeof(*tok));
        if (!skip_space(lx)) {
            tok->kind = FX_TOK_EOF;
            tok->text = lx->end;
            tok->offset = (uint32_t)(lx->end - lx->text);
            tok->loc = loc_at(lx, lx->end);
            return;
        }
        const char *p = lx->cur;
        unsigned char c = (unsigned char)*p;
        lx->at_line_start = false;
        tok->text = p;
        tok->offset = (uint32_t)(p - lx->text);
        tok->loc = loc_at(lx, p);
        if (char_class[c] & C_IDENT) {
            uint32_t h = FNV32_OFFSET;
            const char *q = p;
            while (q < lx->end && is_ident_char((unsigned char)*q)) {
                h = (h ^ (unsigned char)*q) * FNV32_PRIME;
                q++;
            }
            fx_ident *id = intern_hashed(lx, p, (size_t)(q - p), h);
            tok->len = (uint32_t)(q - p);
            tok->ident = id;
            tok->kind = id->kind;
            if (id->kind == FX_TOK_BOOL) {
                tok->ival = id->quals;
            }
            if (id->flags & FX_IDENT_RESERVED) {
                // Reported here, then parsed as a plain name so one misuse
                // gives one error rather than a cascade.
                fx_lex_report(lx->ctx, FX_D_RESERVED, &tok->loc, (int)tok->len, p);
            }
            lx->cur = q;
            return;
        }
        if ((char_class[c] & C_DIGIT) ||
            (c == '.' && p + 1 < lx->end && (char_class[(unsigned char)p[1]] & C_DIGIT))) {
            lex_number(lx, tok, p);
            return;
        }
        if (c == '"') {
            lex_string(lx, tok, p);
            return;
        }
        uint32_t len;
        int kind = punctuator(p, lx->end, &len);
        if (kind) {
            tok->kind = kind;
            tok->len = len;
            lx->cur = p + len;
            return;
        }
        if (strchr("()[]{};,.:?<>=+-*/%&|^!~", c) && c != '\0') {
            tok->kind = c;
            tok->len = 1;
            lx->cur = p + 1;
            return;
        }
        // Report a run of stray bytes once, so binary garbage stays readable.
        char shown[8];
        if (c >= 0x20 && c < 0x7f) {
            snprintf(shown, sizeof(shown), "%c", c);
        } else {
            snprintf(shown, sizeof(shown), "\\x%02x", c);
        }
        fx_lex_report(lx->ctx, FX_D_INVALID_CHAR, &tok->loc, shown);
        const char *q = p + 1;
        while (q < lx->end && *q != '\n' && !(char_class[(unsigned char)*q] & C_SPACE) &&
               !(char_class[(unsigned char)*q] & (C_IDENT | C_DIGIT)) &&
               !strchr("()[]{};,.:?<>=+-*/%&|^!~\"", *q)) {
            q++;
        }
        lx->cur = q;
    }
}
