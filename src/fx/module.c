/*
 * module.c - builds the effect module (fxgl_effect) from a checked program:
 * textures, samplers and storages with their properties, uniforms laid out
 * in std140 with their initial values, techniques and passes with every
 * state resolved to its default, and one shader per (entry point, stage).
 *
 * The rules are the reference's (reshade_reference.md §1.2-1.8): property
 * and state names are case-sensitive, enum words case-insensitive; numbers
 * use the reference's own enum numbering (which fxgl_fx.h's enums share);
 * sampler values are truncated to int like the reference stores them.
 * Shaders know which samplers and storages they reach by walking the call
 * graph from the entry function (fx_check_reach), which also drives the
 * pass validation (a render target sampled in its own pass, X3020).
 *
 * Everything the effect points to comes from the effect's own arena; the
 * program (in the compilation's arena) is only read, apart from each
 * global symbol's `index`.
 */
#include <ctype.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fx_check.h"

typedef struct builder {
    fx_ctx *ctx;                 // the effect's context: arena and diagnostics
    const fx_program *prog;
    fxgl_texture *textures;
    size_t texture_count, texture_cap;
    fxgl_sampler *samplers;
    size_t sampler_count, sampler_cap;
    fxgl_storage *storages;
    size_t storage_count, storage_cap;
    fxgl_uniform *uniforms;
    size_t uniform_count, uniform_cap;
    uint32_t uniform_offset;     // std140 bytes so far
    fxgl_technique *techniques;
    size_t technique_count, technique_cap;
    fxgl_shader *shaders;
    size_t shader_count, shader_cap;
    fx_symbol **shader_entries;  // the entry function of each shader
    size_t entry_cap;
    fx_symbol **texture_syms;    // texture index -> symbol (semantic lookups)
    size_t texture_sym_cap;
    uint32_t mark;               // fx_check_reach walks
} builder;

__attribute__((format(printf, 4, 5)))
static void error(builder *b, fx_pos pos, const char *id, const char *fmt, ...) {
    fx_loc loc = fx_lex_loc(b->prog->ast->lexer, pos);
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fx_error(b->ctx, id, loc.file, loc.line, loc.col, "%s", buf);
}

__attribute__((format(printf, 4, 5)))
static void warning(builder *b, fx_pos pos, const char *id, const char *fmt, ...) {
    fx_loc loc = fx_lex_loc(b->prog->ast->lexer, pos);
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fx_warning(b->ctx, id, loc.file, loc.line, loc.col, "%s", buf);
}

#define GROW(b, arr, count, cap, what)                                                         \
    fx_grow((b)->ctx, (void **)&(arr), &(cap), (count) + 1, sizeof(*(arr)), 1u << 20, what)

// --- formats (public) ---

static const struct {
    const char *name;
    int dxgi;
} format_info[FXGL_FORMAT_COUNT] = {
    [FXGL_FORMAT_UNKNOWN] = {"UNKNOWN", 0},  [FXGL_FORMAT_R8] = {"R8", 61},
    [FXGL_FORMAT_R16] = {"R16", 56},         [FXGL_FORMAT_R16F] = {"R16F", 54},
    [FXGL_FORMAT_R32I] = {"R32I", 43},       [FXGL_FORMAT_R32U] = {"R32U", 42},
    [FXGL_FORMAT_R32F] = {"R32F", 41},       [FXGL_FORMAT_RG8] = {"RG8", 49},
    [FXGL_FORMAT_RG16] = {"RG16", 35},       [FXGL_FORMAT_RG16F] = {"RG16F", 34},
    [FXGL_FORMAT_RG32F] = {"RG32F", 16},     [FXGL_FORMAT_RGBA8] = {"RGBA8", 28},
    [FXGL_FORMAT_RGBA16] = {"RGBA16", 11},   [FXGL_FORMAT_RGBA16F] = {"RGBA16F", 10},
    [FXGL_FORMAT_RGBA32I] = {"RGBA32I", 4},  [FXGL_FORMAT_RGBA32U] = {"RGBA32U", 3},
    [FXGL_FORMAT_RGBA32F] = {"RGBA32F", 2},  [FXGL_FORMAT_RGB10A2] = {"RGB10A2", 24},
    [FXGL_FORMAT_RG11B10F] = {"RG11B10F", 26},
};

const char *fxgl_format_name(fxgl_format format) {
    return (unsigned)format < FXGL_FORMAT_COUNT ? format_info[format].name : "UNKNOWN";
}

int fxgl_format_dxgi(fxgl_format format) {
    return (unsigned)format < FXGL_FORMAT_COUNT ? format_info[format].dxgi : 0;
}

int fxgl_format_channels(fxgl_format format) {
    switch (format) {
    case FXGL_FORMAT_UNKNOWN:
    case FXGL_FORMAT_COUNT:
        return 0;
    case FXGL_FORMAT_R8:
    case FXGL_FORMAT_R16:
    case FXGL_FORMAT_R16F:
    case FXGL_FORMAT_R32I:
    case FXGL_FORMAT_R32U:
    case FXGL_FORMAT_R32F:
        return 1;
    case FXGL_FORMAT_RG8:
    case FXGL_FORMAT_RG16:
    case FXGL_FORMAT_RG16F:
    case FXGL_FORMAT_RG32F:
        return 2;
    case FXGL_FORMAT_RG11B10F:
        return 3;
    default:
        return 4;
    }
}

fxgl_format fxgl_es_storage_format(fxgl_format format) {
    switch (format) {
    case FXGL_FORMAT_R32I:
    case FXGL_FORMAT_R32U:
    case FXGL_FORMAT_R32F:
    case FXGL_FORMAT_RGBA8:
    case FXGL_FORMAT_RGBA16F:
    case FXGL_FORMAT_RGBA32I:
    case FXGL_FORMAT_RGBA32U:
    case FXGL_FORMAT_RGBA32F:
        return format;
    case FXGL_FORMAT_R8:
    case FXGL_FORMAT_RG8:
        return FXGL_FORMAT_RGBA8;
    case FXGL_FORMAT_R16F:
    case FXGL_FORMAT_RG16F:
        return FXGL_FORMAT_RGBA16F;
    case FXGL_FORMAT_RG32F:
        return FXGL_FORMAT_RGBA32F;
    default:
        return FXGL_FORMAT_UNKNOWN;
    }
}

const fxgl_annotation *fxgl_annotation_find(const fxgl_annotations *list, const char *name) {
    for (size_t i = 0; list && i < list->count; i++) {
        if (strcmp(list->items[i].name, name) == 0) {
            return &list->items[i];
        }
    }
    return NULL;
}

// --- enum words (case-insensitive) ---

typedef struct enum_word {
    const char *name;
    int value;
} enum_word;

static const enum_word format_words[] = {
    {"R8", FXGL_FORMAT_R8}, {"R16", FXGL_FORMAT_R16}, {"R16F", FXGL_FORMAT_R16F},
    {"R32I", FXGL_FORMAT_R32I}, {"R32U", FXGL_FORMAT_R32U}, {"R32F", FXGL_FORMAT_R32F},
    {"RG8", FXGL_FORMAT_RG8}, {"R8G8", FXGL_FORMAT_RG8}, {"RG16", FXGL_FORMAT_RG16},
    {"R16G16", FXGL_FORMAT_RG16}, {"RG16F", FXGL_FORMAT_RG16F},
    {"R16G16F", FXGL_FORMAT_RG16F}, {"RG32F", FXGL_FORMAT_RG32F},
    {"R32G32F", FXGL_FORMAT_RG32F}, {"RGBA8", FXGL_FORMAT_RGBA8},
    {"R8G8B8A8", FXGL_FORMAT_RGBA8}, {"RGBA16", FXGL_FORMAT_RGBA16},
    {"R16G16B16A16", FXGL_FORMAT_RGBA16}, {"RGBA16F", FXGL_FORMAT_RGBA16F},
    {"R16G16B16A16F", FXGL_FORMAT_RGBA16F}, {"RGBA32I", FXGL_FORMAT_RGBA32I},
    {"R32G32B32A32I", FXGL_FORMAT_RGBA32I}, {"RGBA32U", FXGL_FORMAT_RGBA32U},
    {"R32G32B32A32U", FXGL_FORMAT_RGBA32U}, {"RGBA32F", FXGL_FORMAT_RGBA32F},
    {"R32G32B32A32F", FXGL_FORMAT_RGBA32F}, {"RGB10A2", FXGL_FORMAT_RGB10A2},
    {"R10G10B10A2", FXGL_FORMAT_RGB10A2}, {"RG11B10F", FXGL_FORMAT_RG11B10F},
    {"R11G11B10F", FXGL_FORMAT_RG11B10F}, {NULL, 0},
};

static const enum_word address_words[] = {
    {"CLAMP", FXGL_ADDRESS_CLAMP}, {"MIRROR", FXGL_ADDRESS_MIRROR},
    {"WRAP", FXGL_ADDRESS_WRAP}, {"REPEAT", FXGL_ADDRESS_WRAP},
    {"BORDER", FXGL_ADDRESS_BORDER}, {NULL, 0},
};

static const enum_word filter_words[] = {
    {"POINT", FXGL_FILTER_POINT}, {"NONE", FXGL_FILTER_POINT},
    {"LINEAR", FXGL_FILTER_LINEAR}, {"ANISOTROPIC", FXGL_FILTER_ANISOTROPIC}, {NULL, 0},
};

static const enum_word blend_op_words[] = {
    {"ADD", FXGL_BLEND_OP_ADD}, {"SUBTRACT", FXGL_BLEND_OP_SUBTRACT},
    {"REVSUBTRACT", FXGL_BLEND_OP_REVSUBTRACT}, {"MIN", FXGL_BLEND_OP_MIN},
    {"MAX", FXGL_BLEND_OP_MAX}, {NULL, 0},
};

static const enum_word blend_words[] = {
    {"ZERO", FXGL_BLEND_ZERO}, {"ONE", FXGL_BLEND_ONE}, {"SRCCOLOR", FXGL_BLEND_SRCCOLOR},
    {"INVSRCCOLOR", FXGL_BLEND_INVSRCCOLOR}, {"DESTCOLOR", FXGL_BLEND_DESTCOLOR},
    {"INVDESTCOLOR", FXGL_BLEND_INVDESTCOLOR}, {"SRCALPHA", FXGL_BLEND_SRCALPHA},
    {"INVSRCALPHA", FXGL_BLEND_INVSRCALPHA}, {"DESTALPHA", FXGL_BLEND_DESTALPHA},
    {"INVDESTALPHA", FXGL_BLEND_INVDESTALPHA}, {NULL, 0},
};

static const enum_word compare_words[] = {
    {"NEVER", FXGL_COMPARE_NEVER}, {"LESS", FXGL_COMPARE_LESS},
    {"EQUAL", FXGL_COMPARE_EQUAL}, {"LEQUAL", FXGL_COMPARE_LEQUAL},
    {"LESSEQUAL", FXGL_COMPARE_LEQUAL}, {"GREATER", FXGL_COMPARE_GREATER},
    {"NEQUAL", FXGL_COMPARE_NOTEQUAL}, {"NOTEQUAL", FXGL_COMPARE_NOTEQUAL},
    {"GEQUAL", FXGL_COMPARE_GEQUAL}, {"GREATEREQUAL", FXGL_COMPARE_GEQUAL},
    {"ALWAYS", FXGL_COMPARE_ALWAYS}, {NULL, 0},
};

static const enum_word stencil_words[] = {
    {"ZERO", FXGL_STENCIL_ZERO}, {"KEEP", FXGL_STENCIL_KEEP},
    {"REPLACE", FXGL_STENCIL_REPLACE}, {"INCRSAT", FXGL_STENCIL_INCRSAT},
    {"DECRSAT", FXGL_STENCIL_DECRSAT}, {"INVERT", FXGL_STENCIL_INVERT},
    {"INCR", FXGL_STENCIL_INCR}, {"DECR", FXGL_STENCIL_DECR}, {NULL, 0},
};

static const enum_word topology_words[] = {
    {"POINTLIST", FXGL_TOPOLOGY_POINTLIST}, {"POINTS", FXGL_TOPOLOGY_POINTLIST},
    {"LINELIST", FXGL_TOPOLOGY_LINELIST}, {"LINES", FXGL_TOPOLOGY_LINELIST},
    {"LINESTRIP", FXGL_TOPOLOGY_LINESTRIP}, {"TRIANGLELIST", FXGL_TOPOLOGY_TRIANGLELIST},
    {"TRIANGLES", FXGL_TOPOLOGY_TRIANGLELIST},
    {"TRIANGLESTRIP", FXGL_TOPOLOGY_TRIANGLESTRIP}, {NULL, 0},
};

static bool find_word(const enum_word *words, const char *name, int *value) {
    for (; words && words->name; words++) {
        if (strcasecmp(words->name, name) == 0) {
            *value = words->value;
            return true;
        }
    }
    return false;
}

// The integer a property or state value stands for: an enum word of
// `words` (when given) or a constant expression converted to int.
static bool int_value(builder *b, const fx_state *s, const enum_word *words, int64_t *out) {
    const fx_expr *e = s->value;
    if (!e) {
        return false;
    }
    int w;
    if (e->kind == FX_EXPR_NAME && !fx_name_qualified(&e->name) && e->name.ident &&
        find_word(words, e->name.ident->str, &w)) {
        *out = w;
        return true;
    }
    fxgl_value v;
    if (!fx_check_eval(e, &v) || v.count < 1 || v.scalar == FXGL_SCALAR_STRING) {
        if (e->kind == FX_EXPR_NAME && e->name.ident && !e->sym) {
            error(b, e->loc, "X3004", "invalid value '%s' for '%s'", e->name.ident->str,
                  s->name->str);
        } else {
            error(b, e->loc, "X3011", "value for '%s' must be a literal expression",
                  s->name->str);
        }
        return false;
    }
    switch (v.scalar) {
    case FXGL_SCALAR_FLOAT:
        *out = (int64_t)v.f[0];
        break;
    case FXGL_SCALAR_UINT:
        *out = v.u[0];
        break;
    default:
        *out = v.i[0];
        break;
    }
    return true;
}

// The value of a texture, sampler or storage property. As in the reference,
// a bare name is first looked up, case-insensitively, in the one table of
// filter, address and format names shared by every property, and its
// number used whatever the property (`MipLevels = LINEAR` is 1); formats
// number as the reference's texture_format (fxgl_format mirrors it).
static bool prop_value(builder *b, const fx_state *s, int64_t *out) {
    const fx_expr *e = s->value;
    int w;
    if (e && e->kind == FX_EXPR_NAME && !fx_name_qualified(&e->name) && e->name.ident &&
        (find_word(filter_words, e->name.ident->str, &w) ||
         find_word(address_words, e->name.ident->str, &w) ||
         find_word(format_words, e->name.ident->str, &w))) {
        *out = w;
        return true;
    }
    return int_value(b, s, NULL, out);
}

// A property the reference does not know for that object: it reports it
// and still loads the effect (a sampler state in a texture block, say).
static void unknown_property(builder *b, const fx_state *s, const char *what) {
    warning(b, s->loc, "X3004", "unrecognized property '%s' for a %s (ignored)", s->name->str,
            what);
}

static bool float_value(builder *b, const fx_state *s, float *out) {
    int64_t v;
    // The reference converts every sampler value to int before storing it.
    if (!prop_value(b, s, &v)) {
        return false;
    }
    *out = (float)v;
    return true;
}

// --- annotations ---

static fxgl_annotations annotations(builder *b, const fx_state *list) {
    size_t n = 0;
    for (const fx_state *s = list; s; s = s->next) {
        n++;
    }
    fxgl_annotations out = {0};
    if (!n) {
        return out;
    }
    fxgl_annotation *items = fx_alloc(b->ctx, n * sizeof(*items));
    size_t i = 0;
    for (const fx_state *s = list; s; s = s->next) {
        if (!s->name || !s->value) {
            continue;
        }
        fxgl_annotation *a = &items[i];
        a->name = fx_strdup(b->ctx, s->name->str);
        const fx_expr *e = s->value;
        fxgl_value v;
        if (e->kind == FX_EXPR_NAME && !e->sym && e->name.ident) {
            // An unquoted word: tolerated as the string it spells.
            a->value.scalar = FXGL_SCALAR_STRING;
            a->value.string = fx_strdup(b->ctx, e->name.ident->str);
            a->value.string_len = e->name.ident->len;
        } else if (e->kind == FX_EXPR_INIT_LIST) {
            a->value.scalar = FXGL_SCALAR_FLOAT;
            for (const fx_expr *x = e->args; x && a->value.count < 16; x = x->next) {
                if (fx_check_eval(x, &v) && v.scalar != FXGL_SCALAR_STRING) {
                    fxgl_value f;
                    fx_check_convert_value(&v, fx_type_scalar(FX_TYPE_FLOAT), &f);
                    a->value.f[a->value.count++] = f.f[0];
                }
            }
        } else if (fx_check_eval(e, &v)) {
            a->value = v;
            if (v.scalar == FXGL_SCALAR_STRING) {
                a->value.string = fx_strndup(b->ctx, v.string ? v.string : "", v.string_len);
            }
        } else {
            error(b, e->loc, "X3011", "annotation '%s' must be a literal expression",
                  s->name->str);
            continue;
        }
        i++;
    }
    out.items = items;
    out.count = i;
    return out;
}

static bool annotation_bool(const fxgl_annotations *list, const char *name, bool fallback) {
    const fxgl_annotation *a = fxgl_annotation_find(list, name);
    if (!a || a->value.count < 1) {
        return fallback;
    }
    if (a->value.scalar == FXGL_SCALAR_FLOAT) {
        return a->value.f[0] != 0;
    }
    return a->value.i[0] != 0;
}

static int annotation_int(const fxgl_annotations *list, const char *name, int fallback) {
    const fxgl_annotation *a = fxgl_annotation_find(list, name);
    if (!a || a->value.count < 1) {
        return fallback;
    }
    return a->value.scalar == FXGL_SCALAR_FLOAT ? (int)a->value.f[0] : a->value.i[0];
}

static const char *annotation_string(const fxgl_annotations *list, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(list, name);
    return a && a->value.scalar == FXGL_SCALAR_STRING ? a->value.string : NULL;
}

// --- textures, samplers, storages ---

static const char *upper(builder *b, const char *s) {
    char *u = fx_strdup(b->ctx, s);
    for (char *p = u; *p; p++) {
        *p = (char)toupper((unsigned char)*p);
    }
    return u;
}

static void texture(builder *b, fx_symbol *sym) {
    fx_var_decl *v = sym->var;
    GROW(b, b->textures, b->texture_count, b->texture_cap, "textures");
    fx_grow(b->ctx, (void **)&b->texture_syms, &b->texture_sym_cap, b->texture_count + 1,
            sizeof(*b->texture_syms), 1u << 20, "textures");
    sym->index = (int32_t)b->texture_count;
    b->texture_syms[b->texture_count] = sym;
    fxgl_texture *t = &b->textures[b->texture_count++];
    memset(t, 0, sizeof(*t));
    t->name = fx_strdup(b->ctx, sym->unique);
    fx_loc loc = fx_lex_loc(b->prog->ast->lexer, v->loc);
    t->file = fx_strdup(b->ctx, loc.file ? loc.file : "");
    t->line = loc.line;
    t->col = loc.col;
    t->dim = (fxgl_texture_dim)fx_type_object_dim(sym->type);
    t->width = t->height = t->depth = t->levels = 1;
    t->format = v->has_props ? FXGL_FORMAT_RGBA8 : FXGL_FORMAT_UNKNOWN;
    if (v->semantic) {
        // Semantic textures are references to runtime-provided textures.
        t->semantic = upper(b, v->semantic->str);
        t->format = FXGL_FORMAT_UNKNOWN;
        if (v->props) {
            warning(b, v->props->loc, "X3000",
                    "properties of texture '%s' with a semantic are ignored", sym->unique);
        }
        return;
    }
    t->annotations = annotations(b, v->annotations);
    const char *source = annotation_string(&t->annotations, "source");
    t->source = source;
    t->pooled = annotation_bool(&t->annotations, "pooled", false);
    for (const fx_state *s = v->props; s; s = s->next) {
        if (!s->name) {
            continue;
        }
        const char *n = s->name->str;
        int64_t val;
        int *dst = NULL;
        int limit = 65535;
        if (strcmp(n, "Width") == 0) {
            dst = &t->width;
            limit = 1 << 16;
        } else if (strcmp(n, "Height") == 0) {
            dst = &t->height;
            limit = 1 << 16;
        } else if (strcmp(n, "Depth") == 0) {
            dst = &t->depth;
        } else if (strcmp(n, "MipLevels") == 0) {
            dst = &t->levels;
        } else if (strcmp(n, "Format") == 0) {
            if (prop_value(b, s, &val)) {
                if (val > FXGL_FORMAT_UNKNOWN && val < FXGL_FORMAT_COUNT) {
                    t->format = (fxgl_format)val;
                } else {
                    error(b, s->value->loc, "X3004", "invalid texture format for '%s'",
                          sym->unique);
                }
            }
            continue;
        } else {
            unknown_property(b, s, "texture");
            continue;
        }
        if (!prop_value(b, s, &val)) {
            continue;
        }
        if (val < 0) {
            warning(b, s->value->loc, "X3571", "'%s' is negative", n);
        }
        if (val > limit) {
            error(b, s->value->loc, "X3004", "'%s' of %lld is out of range (at most %d)", n,
                  (long long)val, limit);
            val = limit;
        }
        *dst = val < 1 ? 1 : (int)val;
    }
    if (t->dim == FXGL_TEXTURE_1D) {
        t->height = 1;
    }
    if (t->dim != FXGL_TEXTURE_3D) {
        t->depth = 1;
    }
}

// The texture a `Texture = name` property names, or -1 (reported).
static int texture_ref(builder *b, const fx_state *s, const char *owner) {
    const fx_expr *e = s->value;
    const fx_symbol *ts = e ? fx_expr_sym(e) : NULL;
    if (!ts || ts->kind != FX_SYM_TEXTURE || ts->index < 0) {
        error(b, e ? e->loc : s->loc, "X3004", "'%s': 'Texture' must name a texture", owner);
        return -1;
    }
    return ts->index;
}

static fxgl_scalar elem_scalar(uint8_t base) {
    switch (base) {
    case FX_TYPE_INT:
    case FX_TYPE_MIN16INT:
    case FX_TYPE_BOOL:
        return FXGL_SCALAR_INT;
    case FX_TYPE_UINT:
    case FX_TYPE_MIN16UINT:
        return FXGL_SCALAR_UINT;
    default:
        return FXGL_SCALAR_FLOAT;
    }
}

static bool format_is_int(fxgl_format f) {
    return f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_RGBA32I;
}

static bool format_is_uint(fxgl_format f) {
    return f == FXGL_FORMAT_R32U || f == FXGL_FORMAT_RGBA32U;
}

// Integer samplers and storages need an integer texture of that kind; a
// texture with the default format takes it from the element type.
static void match_element(builder *b, fx_pos loc, fxgl_texture *t, fxgl_scalar el, int count,
                          const char *owner) {
    if (t->semantic) {
        return;
    }
    bool tex_int = format_is_int(t->format), tex_uint = format_is_uint(t->format);
    if (el == FXGL_SCALAR_FLOAT && !tex_int && !tex_uint) {
        if (t->format == FXGL_FORMAT_UNKNOWN) {
            return; // reported once for the texture
        }
        return;
    }
    if ((el == FXGL_SCALAR_INT && tex_int) || (el == FXGL_SCALAR_UINT && tex_uint)) {
        return;
    }
    if ((t->format == FXGL_FORMAT_RGBA8 || t->format == FXGL_FORMAT_UNKNOWN) &&
        el != FXGL_SCALAR_FLOAT) {
        // Default format: deduce the integer format from the element type.
        const fx_symbol *ts = b->texture_syms[t - b->textures];
        bool written = false;
        for (const fx_state *p = ts->var->props; p; p = p->next) {
            written |= p->name && strcmp(p->name->str, "Format") == 0;
        }
        if (!written) {
            t->format = el == FXGL_SCALAR_INT ? (count > 1 ? FXGL_FORMAT_RGBA32I : FXGL_FORMAT_R32I)
                                              : (count > 1 ? FXGL_FORMAT_RGBA32U : FXGL_FORMAT_R32U);
            return;
        }
    }
    error(b, loc, "X4582", "'%s': element type does not match the format of texture '%s'",
          owner, t->name);
}

static void sampler(builder *b, fx_symbol *sym) {
    fx_var_decl *v = sym->var;
    GROW(b, b->samplers, b->sampler_count, b->sampler_cap, "samplers");
    sym->index = (int32_t)b->sampler_count;
    fxgl_sampler *s = &b->samplers[b->sampler_count++];
    memset(s, 0, sizeof(*s));
    s->name = fx_strdup(b->ctx, sym->unique);
    s->texture = -1;
    s->element = elem_scalar(sym->type.elem_base);
    s->element_count = sym->type.elem_rows ? sym->type.elem_rows : 4;
    s->address_u = s->address_v = s->address_w = FXGL_ADDRESS_CLAMP;
    // Integer textures cannot be filtered.
    fxgl_filter f = s->element == FXGL_SCALAR_FLOAT ? FXGL_FILTER_LINEAR : FXGL_FILTER_POINT;
    s->min_filter = s->mag_filter = s->mip_filter = f;
    s->min_lod = -FLT_MAX;
    s->max_lod = FLT_MAX;
    fx_pos tex_loc = v->loc;
    for (const fx_state *p = v->props; p; p = p->next) {
        if (!p->name) {
            continue;
        }
        const char *n = p->name->str;
        int64_t val;
        if (strcmp(n, "Texture") == 0) {
            s->texture = texture_ref(b, p, sym->unique);
            tex_loc = p->loc;
        } else if (strcmp(n, "AddressU") == 0 || strcmp(n, "AddressV") == 0 ||
                   strcmp(n, "AddressW") == 0) {
            if (prop_value(b, p, &val)) {
                fxgl_address *dst = n[7] == 'U' ? &s->address_u
                                    : n[7] == 'V' ? &s->address_v : &s->address_w;
                if (val < 1 || val > 4) {
                    error(b, p->value->loc, "X3004", "invalid value for '%s'", n);
                } else {
                    *dst = (fxgl_address)val;
                }
            }
        } else if (strcmp(n, "MinFilter") == 0 || strcmp(n, "MagFilter") == 0 ||
                   strcmp(n, "MipFilter") == 0) {
            if (prop_value(b, p, &val)) {
                fxgl_filter *dst = n[1] == 'i' && n[2] == 'n' ? &s->min_filter
                                   : n[1] == 'a' ? &s->mag_filter : &s->mip_filter;
                // The reference keeps the low two bits and the anisotropy bit.
                *dst = (val & 0x40) ? FXGL_FILTER_ANISOTROPIC
                       : (val & 3) ? FXGL_FILTER_LINEAR : FXGL_FILTER_POINT;
            }
        } else if (strcmp(n, "MinLOD") == 0 || strcmp(n, "MaxMipLevel") == 0) {
            float_value(b, p, &s->min_lod);
        } else if (strcmp(n, "MaxLOD") == 0) {
            float_value(b, p, &s->max_lod);
        } else if (strcmp(n, "MipLODBias") == 0 || strcmp(n, "MipMapLodBias") == 0) {
            float_value(b, p, &s->lod_bias);
        } else if (strcmp(n, "SRGBTexture") == 0 || strcmp(n, "SRGBReadEnable") == 0) {
            if (prop_value(b, p, &val)) {
                s->srgb = val != 0;
            }
        } else {
            unknown_property(b, p, "sampler");
        }
    }
    if (s->texture < 0) {
        bool named = false;
        for (const fx_state *p = v->props; p; p = p->next) {
            named |= p->name && strcmp(p->name->str, "Texture") == 0;
        }
        if (!named) {
            error(b, v->loc, "X3012", "'%s': missing 'Texture' property", sym->unique);
        }
        return;
    }
    fxgl_texture *t = &b->textures[s->texture];
    if ((int)t->dim != fx_type_object_dim(sym->type)) {
        error(b, tex_loc, "X3521", "'%s': texture dimension does not match sampler dimension",
              sym->unique);
    }
    match_element(b, tex_loc, t, s->element, s->element_count, sym->unique);
    if (s->srgb) {
        if (!t->semantic && t->format != FXGL_FORMAT_RGBA8) {
            error(b, v->loc, "X4582", "'%s': SRGBTexture is only valid on RGBA8 textures",
                  sym->unique);
        }
        t->srgb_read = true;
    }
}

static void storage(builder *b, fx_symbol *sym) {
    fx_var_decl *v = sym->var;
    GROW(b, b->storages, b->storage_count, b->storage_cap, "storages");
    sym->index = (int32_t)b->storage_count;
    fxgl_storage *s = &b->storages[b->storage_count++];
    memset(s, 0, sizeof(*s));
    s->name = fx_strdup(b->ctx, sym->unique);
    s->texture = -1;
    s->element = elem_scalar(sym->type.elem_base);
    s->element_count = sym->type.elem_rows ? sym->type.elem_rows : 4;
    fx_pos tex_loc = v->loc;
    bool named = false;
    for (const fx_state *p = v->props; p; p = p->next) {
        if (!p->name) {
            continue;
        }
        const char *n = p->name->str;
        int64_t val;
        if (strcmp(n, "Texture") == 0) {
            named = true;
            s->texture = texture_ref(b, p, sym->unique);
            tex_loc = p->loc;
        } else if (strcmp(n, "MipLevel") == 0 || strcmp(n, "MipLOD") == 0) {
            if (prop_value(b, p, &val)) {
                s->level = val < 0 ? 0 : (int)(val > 65535 ? 65535 : val);
            }
        } else {
            unknown_property(b, p, "storage");
        }
    }
    if (s->texture < 0) {
        if (!named) {
            error(b, v->loc, "X3012", "'%s': missing 'Texture' property", sym->unique);
        }
        return;
    }
    fxgl_texture *t = &b->textures[s->texture];
    if ((int)t->dim != fx_type_object_dim(sym->type)) {
        error(b, tex_loc, "X3521", "'%s': texture dimension does not match storage dimension",
              sym->unique);
    }
    if (t->semantic) {
        error(b, tex_loc, "X3020", "'%s': textures with a semantic cannot be storage",
              sym->unique);
    }
    match_element(b, tex_loc, t, s->element, s->element_count, sym->unique);
    if (s->level > t->levels - 1) {
        s->level = t->levels - 1;
    }
    t->storage_access = true;
}

// --- uniforms ---

static const struct {
    const char *name;
    fxgl_special special;
} special_names[] = {
    {"frametime", FXGL_SPECIAL_FRAMETIME}, {"framecount", FXGL_SPECIAL_FRAMECOUNT},
    {"random", FXGL_SPECIAL_RANDOM}, {"pingpong", FXGL_SPECIAL_PINGPONG},
    {"date", FXGL_SPECIAL_DATE}, {"timer", FXGL_SPECIAL_TIMER}, {"key", FXGL_SPECIAL_KEY},
    {"mousepoint", FXGL_SPECIAL_MOUSEPOINT}, {"mousedelta", FXGL_SPECIAL_MOUSEDELTA},
    {"mousebutton", FXGL_SPECIAL_MOUSEBUTTON}, {"mousewheel", FXGL_SPECIAL_MOUSEWHEEL},
    {"overlay_open", FXGL_SPECIAL_OVERLAY_OPEN}, {"ui_open", FXGL_SPECIAL_OVERLAY_OPEN},
    {"overlay_active", FXGL_SPECIAL_OVERLAY_ACTIVE}, {"ui_active", FXGL_SPECIAL_OVERLAY_ACTIVE},
    {"overlay_hovered", FXGL_SPECIAL_OVERLAY_HOVERED},
    {"ui_hovered", FXGL_SPECIAL_OVERLAY_HOVERED}, {"screenshot", FXGL_SPECIAL_SCREENSHOT},
    {"bufready_depth", FXGL_SPECIAL_BUFREADY_DEPTH},
};

static fxgl_special special_of(const char *source) {
    for (size_t i = 0; i < sizeof(special_names) / sizeof(special_names[0]); i++) {
        if (strcmp(special_names[i].name, source) == 0) {
            return special_names[i].special;
        }
    }
    return FXGL_SPECIAL_UNKNOWN;
}

// Writes one element's value at data in block layout (matrix rows in
// 16-byte slots; bool as a 32-bit 0/1).
static void store_element(uint8_t *data, const fxgl_value *v, fx_type t) {
    int rows = t.rows ? t.rows : 1, cols = t.cols ? t.cols : 1;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int i = cols > 1 ? r * cols + c : r;
            size_t at = cols > 1 ? (size_t)r * 16 + (size_t)c * 4 : (size_t)r * 4;
            if (i < v->count) {
                memcpy(data + at, &v->u[i], 4);
            }
        }
    }
}

static void uniform(builder *b, fx_symbol *sym) {
    GROW(b, b->uniforms, b->uniform_count, b->uniform_cap, "uniforms");
    sym->index = (int32_t)b->uniform_count;
    fxgl_uniform *u = &b->uniforms[b->uniform_count++];
    memset(u, 0, sizeof(*u));
    fx_type t = sym->type;
    fx_type elem = fx_type_element(t);
    elem.quals = 0;
    u->name = fx_strdup(b->ctx, sym->unique);
    u->scalar = elem_scalar(t.base);
    if (t.base == FX_TYPE_BOOL) {
        u->scalar = FXGL_SCALAR_BOOL;
    } else if (t.base == FX_TYPE_STRING) {
        u->scalar = FXGL_SCALAR_STRING;
    }
    u->rows = t.rows ? t.rows : 1;
    u->cols = t.cols ? t.cols : 1;
    u->array_length = fx_type_is_array(t) ? t.array_len : 0;
    fx_type layout = t;
    layout.quals = 0;
    u->offset = fx_type_std140_place(&b->uniform_offset, layout);
    u->size = fx_type_std140_size(layout);
    u->annotations = annotations(b, sym->var->annotations);
    const char *source = annotation_string(&u->annotations, "source");
    u->special = source ? special_of(source) : FXGL_SPECIAL_NONE;
    u->nosave = annotation_bool(&u->annotations, "nosave", false) ||
                u->special != FXGL_SPECIAL_NONE;
    const fx_expr *init = sym->var->init;
    if (!init || !fx_type_is_numeric(elem)) {
        return;
    }
    u->has_initializer = true;
    uint8_t *data = fx_alloc(b->ctx, u->size ? u->size : 4);
    bool nonzero = false;
    int count = fx_type_is_array(t) ? t.array_len : 1;
    uint32_t stride = fx_type_is_array(t) ? (fx_type_std140_size(elem) + 15u) / 16u * 16u : 0;
    for (int i = 0; i < count; i++) {
        const fx_expr *e = init;
        if (fx_type_is_array(t)) {
            e = init->kind == FX_EXPR_INIT_LIST ? init->args : NULL;
            for (int k = 0; e && k < i; k++) {
                e = e->next;
            }
        }
        fxgl_value v;
        if (!e || !fx_check_eval(e, &v)) {
            continue; // reported by the checker
        }
        fxgl_value conv;
        fx_check_convert_value(&v, elem, &conv);
        if (conv.scalar == FXGL_SCALAR_BOOL) {
            for (int k = 0; k < conv.count; k++) {
                conv.i[k] = conv.i[k] != 0;
            }
        }
        if (i == 0) {
            u->initializer = conv;
        }
        for (int k = 0; k < conv.count; k++) {
            nonzero |= conv.u[k] != 0;
        }
        store_element(data + (size_t)i * stride, &conv, elem);
    }
    u->initial_data = nonzero ? data : NULL;
}

// --- shaders ---

typedef struct reach_state {
    builder *b;
    fxgl_binding *samplers;
    size_t sampler_count, sampler_cap;
    fxgl_binding *storages;
    size_t storage_count, storage_cap;
    bool uses_uniforms;
    bool fragment_only;
    bool compute_only;
} reach_state;

static void add_binding(builder *b, fxgl_binding **list, size_t *count, size_t *cap,
                        int object) {
    for (size_t i = 0; i < *count; i++) {
        if ((*list)[i].object == object) {
            return;
        }
    }
    fx_grow(b->ctx, (void **)list, cap, *count + 1, sizeof(**list), 1u << 16, "bindings");
    (*list)[*count] = (fxgl_binding){.object = object, .unit = (int)*count};
    ++*count;
}

static void visit_function(void *user, fx_symbol *f) {
    reach_state *rs = user;
    fx_check_func *fn = f->fn;
    rs->fragment_only |= fn->uses_fragment_only;
    rs->compute_only |= fn->uses_compute_only;
    for (size_t i = 0; i < fn->global_count; i++) {
        fx_symbol *g = fn->globals[i];
        if (g->index < 0) {
            continue;
        }
        if (g->kind == FX_SYM_SAMPLER) {
            add_binding(rs->b, &rs->samplers, &rs->sampler_count, &rs->sampler_cap, g->index);
        } else if (g->kind == FX_SYM_STORAGE) {
            add_binding(rs->b, &rs->storages, &rs->storage_count, &rs->storage_cap, g->index);
        } else if (g->kind == FX_SYM_UNIFORM) {
            rs->uses_uniforms = true;
        }
    }
}

// The shader for (entry, stage), created on first use.
static int shader_for(builder *b, fx_symbol *entry, fxgl_stage stage, fx_pos loc,
                      const int threads[3]) {
    for (size_t i = 0; i < b->shader_count; i++) {
        if (b->shader_entries[i] == entry && b->shaders[i].stage == stage &&
            (stage != FXGL_STAGE_COMPUTE || (b->shaders[i].threads[0] == threads[0] &&
                                             b->shaders[i].threads[1] == threads[1] &&
                                             b->shaders[i].threads[2] == threads[2]))) {
            return (int)i;
        }
    }
    GROW(b, b->shaders, b->shader_count, b->shader_cap, "shaders");
    fx_grow(b->ctx, (void **)&b->shader_entries, &b->entry_cap, b->shader_count + 1,
            sizeof(*b->shader_entries), 1u << 20, "shaders");
    reach_state rs = {.b = b};
    fx_check_reach(entry, ++b->mark, visit_function, &rs);
    fxgl_shader *sh = &b->shaders[b->shader_count];
    memset(sh, 0, sizeof(*sh));
    sh->entry = fx_strdup(b->ctx, entry->unique);
    sh->stage = stage;
    if (stage == FXGL_STAGE_COMPUTE) {
        memcpy(sh->threads, threads, sizeof(sh->threads));
    }
    sh->samplers = rs.samplers;
    sh->sampler_count = rs.sampler_count;
    sh->storages = rs.storages;
    sh->storage_count = rs.storage_count;
    sh->uses_uniforms = rs.uses_uniforms;
    sh->uniform_binding = rs.uses_uniforms ? 0 : -1;
    b->shader_entries[b->shader_count] = entry;
    if (stage != FXGL_STAGE_COMPUTE && rs.storage_count) {
        error(b, loc, "X3667", "'%s': storage objects can only be used in compute shaders",
              entry->unique);
    }
    if (stage != FXGL_STAGE_COMPUTE && rs.compute_only) {
        error(b, loc, "X3667", "'%s': uses intrinsics only available in compute shaders",
              entry->unique);
    }
    if (stage != FXGL_STAGE_PIXEL && rs.fragment_only) {
        error(b, loc, "X4532", "'%s': derivatives are only available in pixel shaders",
              entry->unique);
    }
    return (int)b->shader_count++;
}

// --- techniques and passes ---

typedef enum state_kind {
    ST_BOOL,
    ST_U8,
    ST_U32,
    ST_ENUM,
} state_kind;

// Indexed states: `Name` sets all 8 render targets, `Name0`..`Name7` one.
static bool indexed(const char *n, const char *base, int *index) {
    size_t len = strlen(base);
    if (strncmp(n, base, len) != 0) {
        return false;
    }
    if (n[len] == '\0') {
        *index = -1;
        return true;
    }
    if (n[len] >= '0' && n[len] <= '7' && n[len + 1] == '\0') {
        *index = n[len] - '0';
        return true;
    }
    return false;
}

static void set_blend(fxgl_pass *p, int index, size_t field, int value) {
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        if (index >= 0 && i != index) {
            continue;
        }
        uint8_t *base = (uint8_t *)&p->blend[i];
        if (field == offsetof(fxgl_target_blend, enable)) {
            p->blend[i].enable = value != 0;
        } else if (field == offsetof(fxgl_target_blend, write_mask)) {
            p->blend[i].write_mask = (uint8_t)(value & 0xF);
        } else {
            int v = value;
            memcpy(base + field, &v, sizeof(v));
        }
    }
}

static fx_symbol *shader_function(builder *b, const fx_state *s) {
    const fx_expr *e = s->value;
    fx_symbol *f = e ? fx_expr_sym(e) : NULL;
    if (!f || f->kind != FX_SYM_FUNCTION) {
        error(b, e ? e->loc : s->loc, "X3004", "'%s': undeclared shader function",
              e && e->kind == FX_EXPR_NAME && e->name.ident ? e->name.ident->str : "");
        return NULL;
    }
    if (!f->func || !f->func->body) {
        error(b, e->loc, "X3510", "'%s': function is missing an implementation", f->unique);
        return NULL;
    }
    return f;
}

// Thread counts: CS<x, y[, z]> first, then [numthreads(x, y, z)], else 1.
static void thread_counts(builder *b, const fx_state *s, const fx_symbol *f, int threads[3]) {
    threads[0] = threads[1] = threads[2] = 1;
    const fx_expr *list = s->targs;
    if (!list) {
        for (const fx_attribute *a = f->func->attrs; a; a = a->next) {
            if (a->name && strcmp(a->name->str, "numthreads") == 0) {
                list = a->args;
            }
        }
    }
    int i = 0;
    for (const fx_expr *x = list; x && i < 3; x = x->next, i++) {
        fxgl_value v;
        if (!fx_check_eval(x, &v) || v.count < 1 || v.scalar == FXGL_SCALAR_STRING) {
            error(b, x->loc, "X3011", "thread group size must be a literal expression");
            continue;
        }
        int64_t n = v.scalar == FXGL_SCALAR_FLOAT ? (int64_t)v.f[0]
                    : v.scalar == FXGL_SCALAR_UINT ? (int64_t)v.u[0] : v.i[0];
        if (n < 1 || n > 1024) {
            error(b, x->loc, "X3004", "thread group size %lld is out of range", (long long)n);
            n = 1;
        }
        threads[i] = (int)n;
    }
}

// --- varyings: interpolation qualifiers of a vertex/pixel shader pair ---

#define INTERP_QUALS (FX_Q_NOPERSPECTIVE | FX_Q_CENTROID | FX_Q_NOINTERPOLATION)

typedef struct varying {
    const char *semantic;        // canonical
    uint16_t quals;              // INTERP_QUALS of the value
    fx_type *type;               // where the qualifiers live (a parameter's or member's type)
    fx_pos loc;
    const char *name;
} varying;

// The floating-point values an entry point passes through varyings:
// `out` parameters and the return value of a vertex shader (out true), the
// inputs of a pixel shader (out false); struct members one by one.
static size_t varyings(builder *b, fx_func_decl *f, fx_type ret, bool out, varying *v,
                       size_t max) {
    size_t n = 0;
    for (fx_var_decl *p = f->params; p; p = p->next) {
        bool is_out = (p->type.quals & FX_Q_OUT) != 0;
        bool is_in = !is_out || (p->type.quals & FX_Q_IN);
        if (out ? !is_out : !is_in) {
            continue;
        }
        if (fx_type_is_struct(p->type) && !fx_type_is_array(p->type) && p->type.strct) {
            for (fx_var_decl *m = p->type.strct->members; m && n < max; m = m->next) {
                if (m->semantic && m->name) {
                    v[n++] = (varying){fx_check_semantic(b->ctx, m->semantic->str),
                                       (uint16_t)((p->type.quals | m->type.quals) & INTERP_QUALS),
                                       &m->type, m->loc, m->name->str};
                }
            }
        } else if (p->semantic && p->name && n < max) {
            v[n++] = (varying){fx_check_semantic(b->ctx, p->semantic->str),
                               (uint16_t)(p->type.quals & INTERP_QUALS), &p->type, p->loc,
                               p->name->str};
        }
    }
    if (out && fx_type_is_struct(ret) && !fx_type_is_array(ret) && ret.strct) {
        for (fx_var_decl *m = ret.strct->members; m && n < max; m = m->next) {
            if (m->semantic && m->name) {
                v[n++] = (varying){fx_check_semantic(b->ctx, m->semantic->str),
                                   (uint16_t)(m->type.quals & INTERP_QUALS), &m->type, m->loc,
                                   m->name->str};
            }
        }
    }
    return n;
}

// A pixel shader input whose interpolation qualifiers differ from those
// of the vertex shader output with its semantic: the reference refuses it
// (X4568), GLSL ES refuses to link it. fxgl gives the input the vertex
// shader's qualifiers (the pixel shader's code is generated afterwards)
// and warns.
static void match_interpolation(builder *b, fx_symbol *vs, fx_symbol *ps) {
    if (!vs->func || !ps->func) {
        return;
    }
    varying outs[64], ins[64];
    size_t no = varyings(b, vs->func, vs->type, true, outs, 64);
    size_t ni = varyings(b, ps->func, ps->type, false, ins, 64);
    for (size_t i = 0; i < ni; i++) {
        uint8_t base = ins[i].type->base;
        if (strncmp(ins[i].semantic, "SV_", 3) == 0 ||
            (base != FX_TYPE_FLOAT && base != FX_TYPE_MIN16FLOAT)) {
            continue;
        }
        for (size_t o = 0; o < no; o++) {
            if (strcmp(outs[o].semantic, ins[i].semantic) != 0 || outs[o].quals == ins[i].quals) {
                continue;
            }
            warning(b, ins[i].loc, "X4568", "ReShade rejects this: interpolation qualifiers "
                    "of '%s' (%s) differ from those of the vertex shader's output '%s' (fxgl "
                    "uses the vertex shader's)", ins[i].name, ins[i].semantic, outs[o].name);
            ins[i].type->quals = (uint16_t)((ins[i].type->quals & ~INTERP_QUALS) | outs[o].quals);
            break;
        }
    }
}

typedef struct pass_info {
    fx_symbol *vs, *ps, *cs;
    fx_pos vs_loc, ps_loc, cs_loc;
    int threads[3];
    bool dispatch_set[2];
} pass_info;

static void pass_state(builder *b, fxgl_pass *p, const fx_state *s, pass_info *pi) {
    const char *n = s->name->str;
    int idx;
    int64_t v;
    if (strcmp(n, "VertexShader") == 0) {
        pi->vs = shader_function(b, s);
        pi->vs_loc = s->loc;
    } else if (strcmp(n, "PixelShader") == 0) {
        pi->ps = shader_function(b, s);
        pi->ps_loc = s->loc;
    } else if (strcmp(n, "ComputeShader") == 0) {
        pi->cs = shader_function(b, s);
        pi->cs_loc = s->loc;
        if (pi->cs) {
            thread_counts(b, s, pi->cs, pi->threads);
        }
    } else if (indexed(n, "RenderTarget", &idx)) {
        const fx_expr *e = s->value;
        const fx_symbol *t = e ? fx_expr_sym(e) : NULL;
        if (!t || t->kind != FX_SYM_TEXTURE || t->index < 0) {
            error(b, e ? e->loc : s->loc, "X3004", "'%s' must name a texture", n);
            return;
        }
        fxgl_texture *tex = &b->textures[t->index];
        if (tex->semantic) {
            error(b, e->loc, "X3020", "'%s': textures with a semantic cannot be render targets",
                  tex->name);
            return;
        }
        if (tex->dim != FXGL_TEXTURE_2D) {
            error(b, e->loc, "X3020", "'%s': render targets must be 2D textures", tex->name);
            return;
        }
        p->render_targets[idx < 0 ? 0 : idx] = t->index;
    } else if (strcmp(n, "ClearRenderTargets") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->clear_render_targets = v != 0;
        }
    } else if (strcmp(n, "GenerateMipMaps") == 0 || strcmp(n, "GenerateMipmaps") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->generate_mipmaps = v != 0;
        }
    } else if (strcmp(n, "SRGBWriteEnable") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->srgb_write = v != 0;
        }
    } else if (indexed(n, "BlendEnable", &idx)) {
        if (int_value(b, s, NULL, &v)) {
            set_blend(p, idx, offsetof(fxgl_target_blend, enable), (int)v);
        }
    } else if (indexed(n, "BlendOpAlpha", &idx) || indexed(n, "BlendOp", &idx)) {
        bool alpha = strncmp(n, "BlendOpAlpha", 12) == 0;
        if (int_value(b, s, blend_op_words, &v)) {
            if (v < 1 || v > 5) {
                error(b, s->value->loc, "X3004", "invalid value for '%s'", n);
                return;
            }
            set_blend(p, idx, alpha ? offsetof(fxgl_target_blend, op_alpha)
                                    : offsetof(fxgl_target_blend, op), (int)v);
        }
    } else if (indexed(n, "SrcBlendAlpha", &idx) || indexed(n, "SrcBlend", &idx) ||
               indexed(n, "DestBlendAlpha", &idx) || indexed(n, "DestBlend", &idx)) {
        bool src = n[0] == 'S';
        bool alpha = strstr(n, "Alpha") != NULL;
        if (int_value(b, s, blend_words, &v)) {
            if (v < 0 || v > 9) {
                error(b, s->value->loc, "X3004", "invalid value for '%s'", n);
                return;
            }
            size_t field = src ? (alpha ? offsetof(fxgl_target_blend, src_alpha)
                                        : offsetof(fxgl_target_blend, src))
                               : (alpha ? offsetof(fxgl_target_blend, dst_alpha)
                                        : offsetof(fxgl_target_blend, dst));
            set_blend(p, idx, field, (int)v);
        }
    } else if (indexed(n, "RenderTargetWriteMask", &idx) || indexed(n, "ColorWriteMask", &idx)) {
        if (int_value(b, s, NULL, &v)) {
            set_blend(p, idx, offsetof(fxgl_target_blend, write_mask), (int)v);
        }
    } else if (strcmp(n, "StencilEnable") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->stencil_enable = v != 0;
        }
    } else if (strcmp(n, "StencilReadMask") == 0 || strcmp(n, "StencilMask") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->stencil_read_mask = (uint8_t)v;
        }
    } else if (strcmp(n, "StencilWriteMask") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->stencil_write_mask = (uint8_t)v;
        }
    } else if (strcmp(n, "StencilRef") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->stencil_ref = (uint8_t)v;
        }
    } else if (strcmp(n, "StencilFunc") == 0) {
        if (int_value(b, s, compare_words, &v)) {
            if (v < 0 || v > 7) {
                error(b, s->value->loc, "X3004", "invalid value for '%s'", n);
                return;
            }
            p->stencil_func = (fxgl_compare)v;
        }
    } else if (strcmp(n, "StencilPassOp") == 0 || strcmp(n, "StencilPass") == 0 ||
               strcmp(n, "StencilFailOp") == 0 || strcmp(n, "StencilFail") == 0 ||
               strcmp(n, "StencilDepthFailOp") == 0 || strcmp(n, "StencilZFail") == 0 ||
               strcmp(n, "StencilDepthFail") == 0) {
        if (int_value(b, s, stencil_words, &v)) {
            if (v < 0 || v > 7) {
                error(b, s->value->loc, "X3004", "invalid value for '%s'", n);
                return;
            }
            fxgl_stencil_op *dst = strstr(n, "Pass") ? &p->stencil_pass
                                   : (strstr(n, "Depth") || strstr(n, "ZFail"))
                                       ? &p->stencil_depth_fail
                                       : &p->stencil_fail;
            *dst = (fxgl_stencil_op)v;
        }
    } else if (strcmp(n, "PrimitiveTopology") == 0 || strcmp(n, "PrimitiveType") == 0) {
        if (int_value(b, s, topology_words, &v)) {
            if (v < 1 || v > 5) {
                error(b, s->value->loc, "X3004", "invalid value for '%s'", n);
                return;
            }
            p->topology = (fxgl_topology)v;
        }
    } else if (strcmp(n, "VertexCount") == 0) {
        if (int_value(b, s, NULL, &v)) {
            p->vertex_count = (uint32_t)v;
        }
    } else if (strcmp(n, "DispatchSizeX") == 0 || strcmp(n, "DispatchSizeY") == 0 ||
               strcmp(n, "DispatchSizeZ") == 0) {
        if (int_value(b, s, NULL, &v)) {
            int k = n[12] - 'X';
            p->dispatch[k] = (uint32_t)v;
            if (k < 2) {
                pi->dispatch_set[k] = true;
            }
        }
    } else {
        error(b, s->loc, "X3004", "unrecognized pass state '%s'", n);
    }
}

// Is texture index tex sampled by a shader?
static bool shader_samples(const builder *b, int shader, int tex) {
    if (shader < 0) {
        return false;
    }
    const fxgl_shader *sh = &b->shaders[shader];
    for (size_t i = 0; i < sh->sampler_count; i++) {
        if (b->samplers[sh->samplers[i].object].texture == tex) {
            return true;
        }
    }
    return false;
}

static void pass(builder *b, fxgl_pass *p, const fx_pass *src) {
    memset(p, 0, sizeof(*p));
    p->name = src->name ? fx_strdup(b->ctx, src->name->str) : NULL;
    p->vertex_shader = p->pixel_shader = p->compute_shader = -1;
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        p->render_targets[i] = -1;
        p->blend[i] = (fxgl_target_blend){
            .enable = false, .op = FXGL_BLEND_OP_ADD, .op_alpha = FXGL_BLEND_OP_ADD,
            .src = FXGL_BLEND_ONE, .dst = FXGL_BLEND_ZERO, .src_alpha = FXGL_BLEND_ONE,
            .dst_alpha = FXGL_BLEND_ZERO, .write_mask = 0xF,
        };
    }
    p->generate_mipmaps = true;
    p->stencil_read_mask = 0xFF;
    p->stencil_write_mask = 0xFF;
    p->stencil_func = FXGL_COMPARE_ALWAYS;
    p->stencil_pass = p->stencil_fail = p->stencil_depth_fail = FXGL_STENCIL_KEEP;
    p->topology = FXGL_TOPOLOGY_TRIANGLELIST;
    p->vertex_count = 3;
    p->dispatch[2] = 1;
    pass_info pi = {0};
    for (const fx_state *s = src->states; s; s = s->next) {
        if (s->name) {
            pass_state(b, p, s, &pi);
        }
    }
    if (pi.cs) {
        if (pi.vs || pi.ps) {
            warning(b, src->loc, "X3089", "pixel and vertex shaders are ignored in a pass with "
                    "a compute shader");
        }
        p->compute_shader = shader_for(b, pi.cs, FXGL_STAGE_COMPUTE, pi.cs_loc, pi.threads);
        if (!pi.dispatch_set[0] || !pi.dispatch_set[1]) {
            error(b, src->loc, "X3012", "compute pass is missing 'DispatchSizeX' or "
                  "'DispatchSizeY'");
        }
        return;
    }
    if (!pi.vs) {
        bool named = false;
        for (const fx_state *s = src->states; s; s = s->next) {
            named |= s->name && strcmp(s->name->str, "VertexShader") == 0;
        }
        if (!named) {
            error(b, src->loc, "X3012", "pass is missing 'VertexShader'");
        }
        return;
    }
    int none[3] = {0, 0, 0};
    p->vertex_shader = shader_for(b, pi.vs, FXGL_STAGE_VERTEX, pi.vs_loc, none);
    if (pi.ps) {
        match_interpolation(b, pi.vs, pi.ps);
        p->pixel_shader = shader_for(b, pi.ps, FXGL_STAGE_PIXEL, pi.ps_loc, none);
    }
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        int t = p->render_targets[i];
        if (t < 0) {
            continue;
        }
        p->render_target_count = i + 1;
        fxgl_texture *tex = &b->textures[t];
        tex->render_target = true;
        if (!p->viewport_width) {
            p->viewport_width = tex->width;
            p->viewport_height = tex->height;
        } else if (tex->width != p->viewport_width || tex->height != p->viewport_height) {
            error(b, src->loc, "X4545", "cannot use multiple render targets with different "
                  "texture dimensions");
        }
        if (p->srgb_write && tex->format != FXGL_FORMAT_RGBA8) {
            error(b, src->loc, "X4582", "SRGBWriteEnable is only valid with RGBA8 render "
                  "targets ('%s')", tex->name);
        }
        if (shader_samples(b, p->vertex_shader, t) || shader_samples(b, p->pixel_shader, t)) {
            // The reference reports it and loads the effect; the runtime
            // binds an empty texture there (what D3D11 does with a resource
            // bound for reading and writing), never a GL feedback loop.
            warning(b, src->loc, "X3020", "cannot sample from texture '%s' that is bound as "
                    "render target in the same pass (fxgl binds an empty texture there)", tex->name);
        }
        for (int j = 0; j < i; j++) {
            if (p->render_targets[j] == t) {
                error(b, src->loc, "X3020", "texture '%s' is bound as render target twice",
                      tex->name);
            }
        }
    }
}

static void technique(builder *b, const fx_technique *src) {
    for (size_t i = 0; i < b->technique_count; i++) {
        if (strcmp(b->techniques[i].name, src->name->str) == 0) {
            error(b, src->loc, "X3003", "redefinition of technique '%s'", src->name->str);
            return;
        }
    }
    GROW(b, b->techniques, b->technique_count, b->technique_cap, "techniques");
    fxgl_technique *t = &b->techniques[b->technique_count++];
    memset(t, 0, sizeof(*t));
    t->name = fx_strdup(b->ctx, src->name->str);
    t->annotations = annotations(b, src->annotations);
    t->label = annotation_string(&t->annotations, "ui_label");
    t->enabled = annotation_bool(&t->annotations, "enabled", false);
    t->hidden = annotation_bool(&t->annotations, "hidden", false);
    t->nosave = annotation_bool(&t->annotations, "nosave", false);
    t->enabled_in_screenshot = annotation_bool(&t->annotations, "enabled_in_screenshot", true);
    t->timeout_ms = annotation_int(&t->annotations, "timeout", 0);
    if (!src->pass_count) {
        return;
    }
    fxgl_pass *passes = fx_alloc(b->ctx, src->pass_count * sizeof(*passes));
    size_t n = 0;
    for (const fx_pass *p = src->passes; p && n < src->pass_count; p = p->next) {
        pass(b, &passes[n++], p);
    }
    t->passes = passes;
    t->pass_count = n;
}

fxgl_effect *fx_module_build(fx_ctx *ectx, const fx_program *prog) {
    builder bld = {.ctx = ectx, .prog = prog};
    builder *b = &bld;
    int errors = ectx->errors;
    for (size_t i = 0; i < prog->global_count; i++) {
        fx_symbol *s = prog->globals[i];
        switch (s->kind) {
        case FX_SYM_TEXTURE:
            texture(b, s);
            break;
        case FX_SYM_SAMPLER:
            sampler(b, s);
            break;
        case FX_SYM_STORAGE:
            storage(b, s);
            break;
        case FX_SYM_UNIFORM:
            uniform(b, s);
            break;
        default:
            break;
        }
    }
    // A texture needs a format unless the runtime provides it (a semantic);
    // one without a property block only gets one from an integer sampler.
    for (size_t i = 0; i < b->texture_count; i++) {
        if (!b->textures[i].semantic && b->textures[i].format == FXGL_FORMAT_UNKNOWN) {
            error(b, b->texture_syms[i]->loc, "X3012", "texture '%s' has neither a format nor "
                  "a semantic", b->textures[i].name);
        }
    }
    for (size_t i = 0; i < prog->technique_count; i++) {
        technique(b, prog->techniques[i]);
    }
    if (ectx->errors != errors) {
        return NULL;
    }
    fxgl_effect *fx = fx_alloc(ectx, sizeof(*fx));
    fx->textures = b->textures;
    fx->texture_count = b->texture_count;
    fx->samplers = b->samplers;
    fx->sampler_count = b->sampler_count;
    fx->storages = b->storages;
    fx->storage_count = b->storage_count;
    fx->uniforms = b->uniforms;
    fx->uniform_count = b->uniform_count;
    fx->uniform_block_size = fx_type_std140_block_size(b->uniform_offset);
    fx->techniques = b->techniques;
    fx->technique_count = b->technique_count;
    fx->shaders = b->shaders;
    fx->shader_count = b->shader_count;
    return fx;
}
