/*
 * glsl.c - the GLSL and GLSL ES code generator: one complete shader per
 * entry point (fxgl_shader.glsl) for desktop GL 4.3/4.5 and GLES 3.0-3.2.
 *
 * Each shader is written from the typed tree (fx_check.h, THE TYPED TREE)
 * in sections that are assembled at the end, because what a function body
 * needs (helpers, extensions) is only known after it was written:
 *   #version, extensions, precision | structs | uniform block | samplers,
 *   images | globals | prototypes | helpers | functions | main().
 * Only what the entry point reaches is written (fx_check_reach, plus the
 * globals that reached globals' initializers name).
 *
 * HLSL semantics and how they are kept:
 *  - Matrices: HLSL RxC is GLSL matRxC, the transpose (GLSL column i is HLSL
 *    row i), so m[i], constructors and the std140 rows agree; mul swaps its
 *    operands (the intrinsic templates do it); `*` between matrices is
 *    matrixCompMult. 1xN matrices are GLSL vecN. Every GLSL matrix is float.
 *  - Every implicit conversion is an explicit constructor; GLSL ES has no
 *    implicit conversions and no scalar swizzles (f.xxx becomes vec3(f)).
 *  - `%` on floats is HLSL fmod (x - y * trunc(x / y)); on signed integers
 *    a - b * (a / b), because GLSL leaves % of negative operands undefined.
 *  - `&&`, `||` and `?:` evaluate both sides in HLSL: when the side GLSL
 *    would skip has side effects, or the operands are vectors, they become
 *    helper functions, whose arguments GLSL evaluates left to right.
 *  - out/inout arguments whose type differs from the parameter's go through
 *    a per-call wrapper function that converts in and out (GLSL itself
 *    copies in and out like HLSL).
 *  - Intrinsic templates (intrinsics.c) that name an argument more than once
 *    get a wrapper function when that argument has side effects.
 *  - Constants fold to literals; inf, NaN and denormals are written as
 *    uintBitsToFloat of their bits, so no driver rounds or flushes them.
 *  - Functions with storage parameters are written once per combination of
 *    storages they are called with (GLSL image parameters cannot carry the
 *    format qualifier that loads and atomics need).
 *  - Names: "NS::x" becomes NS_x; names that start with '_', "gl_" or are a
 *    GLSL keyword or built-in get a prefix; "__" becomes "_x"; overloads get
 *    "_o<n>". What the generator invents starts with "_g" (varyings "_v_"),
 *    which no escaped name does.
 *  - The interface follows THE GLSL CONTRACT (fxgl_fx.h): varyings are
 *    4-vectors named by semantic, vertex stages end with the Y flip.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_glsl.h"

// --- growing text buffers (in the compilation's arena) ---

typedef struct buf {
    fx_ctx *ctx;
    char *data;
    size_t len, cap;
} buf;

static void bgrow(buf *b, size_t more) {
    if (b->len + more + 1 > b->cap) {
        fx_grow(b->ctx, (void **)&b->data, &b->cap, b->len + more + 1, 1,
                FX_LIMIT_OUTPUT_SIZE, "bytes of generated code");
    }
}

static void bputn(buf *b, const char *s, size_t n) {
    bgrow(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void bput(buf *b, const char *s) {
    bputn(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void bprintf(buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[256];
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < (int)sizeof(small)) {
        bputn(b, small, (size_t)n);
        return;
    }
    bgrow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static const char *bstr(const buf *b) {
    return b->data ? b->data : "";
}

static void indent(buf *b, int depth) {
    for (int i = 0; i < depth; i++) {
        bput(b, "    ");
    }
}

// --- the generator ---

typedef struct named {
    const void *key;
    const char *name;
} named;

// GLSL image parameters cannot carry the format qualifier imageLoad and
// atomics need, so a function with storage parameters is written once per
// combination of global storages it is called with, without those parameters.
#define FX_GLSL_MAX_SPEC_ARGS 8
typedef struct spec {
    const fx_symbol *func;
    named args[FX_GLSL_MAX_SPEC_ARGS]; // storage parameter -> the global's GLSL name
    size_t arg_count;
    const char *name;
} spec;

typedef struct gen {
    fx_ctx *ctx;                 // work arena and diagnostics
    fx_ctx *ectx;                // the effect's arena
    const fx_program *prog;
    fxgl_effect *fx;
    const fx_glsl_options *opt;
    bool es;
    bool vulkan;                 // Vulkan-flavoured GLSL 4.50 (see the contract in fxgl_fx.h)
    int version;                 // 430, 450, 300, 310, 320
    uint32_t mark;               // fx_check_reach walks

    // Per shader.
    fxgl_shader *sh;
    fxgl_stage stage;
    fx_pos entry_loc;
    const fx_symbol *entry;      // the entry function
    buf helpers;                 // helper and wrapper functions
    const char **helper_keys;    // helpers written, by key
    size_t helper_count, helper_cap;
    int counter;                 // generated names
    fx_symbol **funcs;           // reached user functions
    size_t func_count, func_cap;
    fx_symbol **globals;         // reached globals (any order; the declaration order is used)
    size_t global_count, global_cap;
    fx_symbol **pending;         // functions global initializers call
    size_t pending_count, pending_cap;
    named *statics;              // static locals -> hoisted global names
    size_t static_count, static_cap;
    struct spec *specs;          // functions specialized for their storage arguments
    size_t spec_count, spec_cap;
    const named *subst;          // while writing a specialization: storage parameter -> global
    size_t subst_count;
    buf static_decls;            // their declarations
    buf static_inits;            // constant initializers GLSL cannot take (start of main)
    bool need_deriv_control;
    bool need_ctrl_attrs;
    bool need_image_formats;     // GLSL ES: a storage format of GL_NV_image_formats
    // Per shader of the module: the varyings ("_v_TEXCOORD0") a vertex
    // shader writes, once it is generated (vertex shaders go first).
    const char *const **vs_outs;
    size_t *vs_out_counts;
    // Every varying of the effect, its index the location (fxgl_varying);
    // complete once the vertex shaders are generated.
    const char **locations;
    size_t location_count, location_cap;
    int errors;

    // Splitting deep expressions (see stmt_expr): while pre is set, an
    // expression FX_GLSL_SPLIT levels high becomes a temporary declared in it.
    buf *pre;                    // declarations to put before the statement, or NULL
    int pre_depth;               // their indentation
    int level;                   // expr() calls in progress
    int level_max;               // deepest level reached in the current subtree
    int unsplit;                 // expr() calls in progress where pre is NULL
    const fx_expr *unsplit_at;   // the innermost of them
    bool too_deep;               // FX_GLSL_MAX_NESTING was reported
    const fx_expr *guard[2];     // children of the node being written that are evaluated
                                 // conditionally or written to: never split out
} gen;

// Height of the expressions stmt_expr splits off into temporaries. GLSL
// compilers parse and lower expressions recursively: Mesa gives up at 10000
// nested parentheses, and a deep one could exhaust a game thread's stack.
#define FX_GLSL_SPLIT 64
// Where an expression cannot be split (it is evaluated repeatedly or only
// sometimes), deeper ones are an error: well below Mesa's 10000 parentheses,
// far above anything real (and the text of a chain grows with its square).
#define FX_GLSL_MAX_NESTING 2048

static void gerror(gen *g, fx_pos loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void gerror(gen *g, fx_pos pos, const char *fmt, ...) {
    fx_loc loc = fx_lex_loc(g->prog->ast->lexer, pos);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    g->errors++;
    fx_error(g->ctx, "G_UNSUPPORTED", loc.file, loc.line, loc.col, "%s", msg);
}

static const char *target_name(const gen *g) {
    if (g->vulkan) {
        return "Vulkan GLSL 4.50";
    }
    switch (g->version) {
    case 430:
        return "GLSL 4.30";
    case 450:
        return "GLSL 4.50";
    case 300:
        return "GLSL ES 3.00";
    case 310:
        return "GLSL ES 3.10";
    default:
        return "GLSL ES 3.20";
    }
}

static buf newbuf(gen *g) {
    return (buf){.ctx = g->ctx};
}

static const char *gname(gen *g, const char *what) {
    return fx_sprintf(g->ctx, "_g%s%d", what, ++g->counter);
}

// --- names ---

static const char *const reserved_words[] = {
    // keywords and reserved words of GLSL 4.60 and GLSL ES 3.20
    "active", "asm", "atomic_uint", "attribute", "bool", "break", "buffer", "bvec2", "bvec3",
    "bvec4", "case", "cast", "centroid", "class", "coherent", "common", "const", "continue",
    "default", "discard", "dmat2", "dmat2x2", "dmat2x3", "dmat2x4", "dmat3", "dmat3x2",
    "dmat3x3", "dmat3x4", "dmat4", "dmat4x2", "dmat4x3", "dmat4x4", "do", "double", "dvec2",
    "dvec3", "dvec4", "else", "enum", "extern", "external", "false", "filter", "fixed", "flat",
    "float", "for", "fvec2", "fvec3", "fvec4", "goto", "half", "highp", "hvec2", "hvec3", "hvec4",
    "if", "iimage1D", "iimage1DArray", "iimage2D", "iimage2DArray", "iimage2DMS",
    "iimage2DMSArray", "iimage2DRect", "iimage3D", "iimageBuffer", "iimageCube",
    "iimageCubeArray", "image1D", "image1DArray", "image2D", "image2DArray", "image2DMS",
    "image2DMSArray", "image2DRect", "image3D", "imageBuffer", "imageCube", "imageCubeArray",
    "in", "inline", "inout", "input", "int", "interface", "invariant", "isampler1D",
    "isampler1DArray", "isampler2D", "isampler2DArray", "isampler2DMS", "isampler2DMSArray",
    "isampler2DRect", "isampler3D", "isamplerBuffer", "isamplerCube", "isamplerCubeArray",
    "ivec2", "ivec3", "ivec4", "layout", "long", "lowp", "main", "mat2", "mat2x2", "mat2x3",
    "mat2x4", "mat3", "mat3x2", "mat3x3", "mat3x4", "mat4", "mat4x2", "mat4x3", "mat4x4",
    "mediump", "namespace", "noinline", "noperspective", "out", "output", "partition", "patch",
    "precise", "precision", "public", "readonly", "resource", "restrict", "return", "sample",
    "sampler1D", "sampler1DArray", "sampler1DArrayShadow", "sampler1DShadow", "sampler2D",
    "sampler2DArray", "sampler2DArrayShadow", "sampler2DMS", "sampler2DMSArray",
    "sampler2DRect", "sampler2DRectShadow", "sampler2DShadow", "sampler3D", "sampler3DRect",
    "samplerBuffer", "samplerCube", "samplerCubeArray", "samplerCubeArrayShadow",
    "samplerCubeShadow", "shared", "short", "sizeof", "smooth", "static", "struct",
    "subroutine", "superp", "switch", "template", "this", "true", "typedef", "uimage1D",
    "uimage1DArray", "uimage2D", "uimage2DArray", "uimage2DMS", "uimage2DMSArray",
    "uimage2DRect", "uimage3D", "uimageBuffer", "uimageCube", "uimageCubeArray", "uint",
    "uniform", "union", "unsigned", "usampler1D", "usampler1DArray", "usampler2D",
    "usampler2DArray", "usampler2DMS", "usampler2DMSArray", "usampler2DRect", "usampler3D",
    "usamplerBuffer", "usamplerCube", "usamplerCubeArray", "using", "uvec2", "uvec3", "uvec4",
    "varying", "vec2", "vec3", "vec4", "void", "volatile", "while", "writeonly",
    // built-in functions
    "abs", "acos", "acosh", "all", "any", "asin", "asinh", "atan", "atanh", "atomicAdd",
    "atomicAnd", "atomicCompSwap", "atomicCounter", "atomicCounterDecrement",
    "atomicCounterIncrement", "atomicExchange", "atomicMax", "atomicMin", "atomicOr",
    "atomicXor", "barrier", "bitCount", "bitfieldExtract", "bitfieldInsert", "bitfieldReverse",
    "ceil", "clamp", "cos", "cosh", "cross", "dFdx", "dFdxCoarse", "dFdxFine", "dFdy",
    "dFdyCoarse", "dFdyFine", "degrees", "determinant", "distance", "dot", "equal", "exp",
    "exp2", "faceforward", "findLSB", "findMSB", "floatBitsToInt", "floatBitsToUint", "floor",
    "fma", "fract", "frexp", "fwidth", "fwidthCoarse", "fwidthFine", "greaterThan",
    "greaterThanEqual", "groupMemoryBarrier", "imageAtomicAdd", "imageAtomicAnd",
    "imageAtomicCompSwap", "imageAtomicExchange", "imageAtomicMax", "imageAtomicMin",
    "imageAtomicOr", "imageAtomicXor", "imageLoad", "imageSamples", "imageSize", "imageStore",
    "imulExtended", "intBitsToFloat", "interpolateAtCentroid", "interpolateAtOffset",
    "interpolateAtSample", "inverse", "inversesqrt", "isinf", "isnan", "ldexp", "length",
    "lessThan", "lessThanEqual", "log", "log2", "matrixCompMult", "max", "memoryBarrier",
    "memoryBarrierAtomicCounter", "memoryBarrierBuffer", "memoryBarrierImage",
    "memoryBarrierShared", "min", "mix", "mod", "modf", "noise1", "noise2", "noise3", "noise4",
    "normalize", "not", "notEqual", "outerProduct", "packDouble2x32", "packHalf2x16",
    "packSnorm2x16", "packSnorm4x8", "packUnorm2x16", "packUnorm4x8", "pow", "radians",
    "reflect", "refract", "round", "roundEven", "sign", "sin", "sinh", "smoothstep", "sqrt",
    "step", "tan", "tanh", "texelFetch", "texelFetchOffset", "texture", "texture1D",
    "texture2D", "texture3D", "textureCube", "textureGather", "textureGatherOffset",
    "textureGatherOffsets", "textureGrad", "textureGradOffset", "textureLod",
    "textureLodOffset", "textureOffset", "textureProj", "textureProjGrad",
    "textureProjGradOffset", "textureProjLod", "textureProjLodOffset", "textureProjOffset",
    "textureQueryLevels", "textureQueryLod", "textureSamples", "textureSize", "transpose",
    "trunc", "uaddCarry", "uintBitsToFloat", "umulExtended", "unpackDouble2x32",
    "unpackHalf2x16", "unpackSnorm2x16", "unpackSnorm4x8", "unpackUnorm2x16", "unpackUnorm4x8",
    "usubBorrow",
};

static int compare_word(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// A sorted private copy keeps the table above readable. Compiles run on
// several threads at once (the reload worker, a prewarm context, each on a
// thread of its own), so the copy is sorted exactly once, under pthread_once:
// a plain flag would let a second thread search a half-sorted array.
static const char *sorted_words[sizeof(reserved_words) / sizeof(reserved_words[0])];
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static void sort_words(void) {
    memcpy(sorted_words, reserved_words, sizeof(sorted_words));
    qsort(sorted_words, sizeof(sorted_words) / sizeof(sorted_words[0]), sizeof(sorted_words[0]),
          compare_word);
}

static bool is_reserved(const char *s) {
    pthread_once(&sorted_once, sort_words); // fails only for an invalid control
    return bsearch(&s, sorted_words, sizeof(sorted_words) / sizeof(sorted_words[0]),
                   sizeof(sorted_words[0]), compare_word) != NULL;
}

// The GLSL spelling of an FX name ("NS::x", "filter", "_a", "gl_b", "a__b").
static const char *escape(gen *g, const char *name) {
    buf plain = newbuf(g);
    for (const char *p = name; *p; p++) {
        if (p[0] == ':' && p[1] == ':') {
            bput(&plain, "_");
            p++;
        } else {
            bputn(&plain, p, 1);
        }
    }
    const char *n = bstr(&plain);
    buf b = newbuf(g);
    if (n[0] == '_') {
        bput(&b, "_u");
    } else if (strncmp(n, "gl_", 3) == 0 || is_reserved(n)) {
        bput(&b, "_k");
    }
    bput(&b, n);
    // Names with "__" are reserved in GLSL.
    char *s = b.data;
    for (char *p; (p = strstr(s, "__")) != NULL;) {
        p[1] = 'x';
    }
    return s;
}

static const char *sym_name(gen *g, const fx_symbol *s) {
    if (s->kind == FX_SYM_LOCAL && (s->type.quals & FX_Q_STATIC)) {
        for (size_t i = 0; i < g->static_count; i++) {
            if (g->statics[i].key == s) {
                return g->statics[i].name;
            }
        }
    }
    for (size_t i = 0; s->kind == FX_SYM_PARAM && i < g->subst_count; i++) {
        if (g->subst[i].key == s) {
            return g->subst[i].name;
        }
    }
    switch (s->kind) {
    case FX_SYM_LOCAL:
        return escape(g, s->unique); // the name, unless the checker renamed a constant
    case FX_SYM_PARAM:
    case FX_SYM_MEMBER:
        return escape(g, s->name->str);
    case FX_SYM_FUNCTION: {
        // Overloads get their own names: HLSL types that GLSL spells alike
        // (min16float and float, int and float matrices) would collide.
        int index = 0, count = 0;
        for (size_t i = 0; i < g->prog->function_count; i++) {
            const fx_symbol *f = g->prog->functions[i];
            if (f->unique && strcmp(f->unique, s->unique) == 0) {
                index = f == s ? count : index;
                count++;
            }
        }
        const char *n = escape(g, s->unique);
        return count > 1 ? fx_sprintf(g->ctx, "%s_o%d", n, index) : n;
    }
    default:
        return escape(g, s->unique ? s->unique : s->name->str);
    }
}

// --- types ---

static bool is_float_base(uint8_t b) {
    return b == FX_TYPE_FLOAT || b == FX_TYPE_MIN16FLOAT;
}

static bool is_int_base(uint8_t b) {
    return b == FX_TYPE_INT || b == FX_TYPE_MIN16INT;
}

static bool is_uint_base(uint8_t b) {
    return b == FX_TYPE_UINT || b == FX_TYPE_MIN16UINT;
}

// A GLSL matrix (HLSL 1xN matrices are vectors).
static bool glsl_matrix(fx_type t) {
    return fx_type_is_matrix(t) && t.rows > 1;
}

static const char *vec_prefix(uint8_t base) {
    return is_float_base(base) ? "" : is_int_base(base) ? "i" : is_uint_base(base) ? "u" : "b";
}

static const char *scalar_name(uint8_t base) {
    return is_float_base(base) ? "float" : is_int_base(base) ? "int" : is_uint_base(base) ? "uint"
                                                                                        : "bool";
}

// GLSL ES has no 1D samplers or images: there a 1D texture is a 2D texture
// of height 1 (the runtime creates it so), read at row 0.
static const char *object_dim(const gen *g, uint8_t base) {
    switch (base) {
    case FX_TYPE_TEXTURE1D:
    case FX_TYPE_SAMPLER1D:
    case FX_TYPE_STORAGE1D:
        return g->es ? "2D" : "1D";
    case FX_TYPE_TEXTURE3D:
    case FX_TYPE_SAMPLER3D:
    case FX_TYPE_STORAGE3D:
        return "3D";
    default:
        return "2D";
    }
}

// The GLSL type of t without its array dimension.
static const char *type_name(gen *g, fx_type t) {
    t.array_len = 0;
    if (fx_type_is_struct(t)) {
        const fx_symbol *s = t.strct ? t.strct->sym : NULL;
        return s ? sym_name(g, s) : "_gerror";
    }
    if (fx_type_is_sampler(t)) {
        return fx_sprintf(g->ctx, "%ssampler%s", vec_prefix(t.elem_base),
                          object_dim(g, t.base));
    }
    if (fx_type_is_storage(t)) {
        return fx_sprintf(g->ctx, "%simage%s", vec_prefix(t.elem_base), object_dim(g, t.base));
    }
    if (fx_type_is_void(t)) {
        return "void";
    }
    if (fx_type_is_matrix(t)) {
        if (t.rows == 1) {
            return fx_sprintf(g->ctx, "vec%d", t.cols);
        }
        return t.rows == t.cols ? fx_sprintf(g->ctx, "mat%d", t.rows)
                                : fx_sprintf(g->ctx, "mat%dx%d", t.rows, t.cols);
    }
    if (t.rows > 1) {
        return fx_sprintf(g->ctx, "%svec%d", vec_prefix(t.base), t.rows);
    }
    return scalar_name(t.base);
}

// "T" or "T[N]": the spelling of a type where a type name stands alone.
static const char *full_type_name(gen *g, fx_type t) {
    const char *n = type_name(g, t);
    return t.array_len > 0 ? fx_sprintf(g->ctx, "%s[%d]", n, t.array_len) : n;
}

static bool is_min16(uint8_t b) {
    return b == FX_TYPE_MIN16FLOAT || b == FX_TYPE_MIN16INT || b == FX_TYPE_MIN16UINT;
}

// "T name" or "T name[N]"; min16 types are mediump in GLSL ES (the
// precision HLSL asks for; desktop GL ignores the qualifier anyway).
static void declarator(gen *g, buf *o, fx_type t, const char *name) {
    if (g->es && is_min16(t.base)) {
        bput(o, "mediump ");
    }
    bprintf(o, "%s %s", type_name(g, t), name);
    if (t.array_len > 0) {
        bprintf(o, "[%d]", t.array_len);
    }
}

static bool same_glsl_type(gen *g, fx_type a, fx_type b) {
    if (a.array_len != b.array_len) {
        return false;
    }
    return strcmp(type_name(g, a), type_name(g, b)) == 0;
}

// The float type of t's shape (int3 -> vec3).
static fx_type float_shape(fx_type t) {
    fx_type r = t;
    r.base = FX_TYPE_FLOAT;
    r.quals = 0;
    return r;
}

// --- constants ---

static void put_float(buf *o, float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    if (isinf(f) || isnan(f) || fpclassify(f) == FP_SUBNORMAL) {
        // No decimal spelling survives every compiler: write the bits.
        bprintf(o, "uintBitsToFloat(0x%08" PRIX32 "u)", bits);
        return;
    }
    if (f == 0.0f) {
        bput(o, signbit(f) ? "(-0.0)" : "0.0");
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof(tmp), "%.9g", (double)f);
    if (!strpbrk(tmp, ".e")) {
        strcat(tmp, ".0");
    } else if (strchr(tmp, 'e') && !strchr(tmp, '.')) {
        // "1e+10" is a float literal in GLSL, but be explicit.
        char *e = strchr(tmp, 'e');
        char rest[32];
        snprintf(rest, sizeof(rest), "%s", e);
        snprintf(e, sizeof(tmp) - (size_t)(e - tmp), ".0%s", rest);
    }
    if (f < 0) {
        bprintf(o, "(%s)", tmp);
    } else {
        bput(o, tmp);
    }
}

static void put_int(buf *o, int32_t v) {
    if (v == INT32_MIN) {
        bput(o, "(-2147483647 - 1)");
    } else if (v < 0) {
        bprintf(o, "(%" PRId32 ")", v);
    } else {
        bprintf(o, "%" PRId32, v);
    }
}

// One component of v, converted to base.
static void put_component(buf *o, const fxgl_value *v, int i, uint8_t base) {
    if (i >= v->count) {
        i = v->count > 0 ? v->count - 1 : 0;
    }
    double d;
    switch (v->scalar) {
    case FXGL_SCALAR_FLOAT:
        d = v->f[i];
        break;
    case FXGL_SCALAR_UINT:
        d = v->u[i];
        break;
    case FXGL_SCALAR_INT:
    case FXGL_SCALAR_BOOL:
        d = v->i[i];
        break;
    default:
        d = 0;
        break;
    }
    if (is_float_base(base)) {
        put_float(o, v->scalar == FXGL_SCALAR_FLOAT ? v->f[i] : (float)d);
    } else if (is_int_base(base)) {
        put_int(o, v->scalar == FXGL_SCALAR_FLOAT ? (int32_t)d : v->i[i]);
    } else if (is_uint_base(base)) {
        uint32_t u = v->scalar == FXGL_SCALAR_FLOAT ? (uint32_t)(int64_t)d : v->u[i];
        bprintf(o, "%" PRIu32 "u", u);
    } else {
        bool b = v->scalar == FXGL_SCALAR_FLOAT ? v->f[i] != 0.0f : v->u[i] != 0;
        bput(o, b ? "true" : "false");
    }
}

// A numeric value of type t (not an array) as a GLSL constant expression.
static void put_value(gen *g, buf *o, const fxgl_value *v, fx_type t) {
    int n = fx_type_components(t);
    if (n <= 1) {
        put_component(o, v, 0, t.base);
        return;
    }
    bprintf(o, "%s(", type_name(g, t));
    // fxgl_value is row-major; GLSL constructors fill columns, which are
    // HLSL rows: the order is the same.
    bool all_same = v->count == 1 && !glsl_matrix(t);
    for (int i = 0; i < (all_same ? 1 : n); i++) {
        if (i) {
            bput(o, ", ");
        }
        put_component(o, v, v->count == 1 ? 0 : i, glsl_matrix(t) ? FX_TYPE_FLOAT : t.base);
    }
    bput(o, ")");
}

static bool value_special(const fxgl_value *v) {
    if (v->scalar != FXGL_SCALAR_FLOAT) {
        return false;
    }
    for (int i = 0; i < v->count; i++) {
        if (!isfinite(v->f[i]) || fpclassify(v->f[i]) == FP_SUBNORMAL) {
            return true;
        }
    }
    return false;
}

// --- helper functions, written once per shader ---

// True when the helper `key` was not written yet (and now counts as written).
static bool helper_new(gen *g, const char *key) {
    for (size_t i = 0; i < g->helper_count; i++) {
        if (strcmp(g->helper_keys[i], key) == 0) {
            return false;
        }
    }
    fx_grow(g->ctx, (void **)&g->helper_keys, &g->helper_cap, g->helper_count + 1,
            sizeof(*g->helper_keys), 1u << 20, "helpers");
    g->helper_keys[g->helper_count++] = fx_strdup(g->ctx, key);
    return true;
}

// HLSL fmod for type t: x - y * trunc(x / y), per column for matrices.
static const char *helper_fmod(gen *g, fx_type t) {
    const char *tn = type_name(g, t);
    if (helper_new(g, fx_sprintf(g->ctx, "fmod %s", tn))) {
        if (glsl_matrix(t)) {
            bprintf(&g->helpers, "%s _gfmod(%s x, %s y) {\n    return %s(", tn, tn, tn, tn);
            for (int i = 0; i < t.rows; i++) {
                bprintf(&g->helpers, "%sx[%d] - y[%d] * trunc(x[%d] / y[%d])", i ? ", " : "", i,
                        i, i, i);
            }
            bput(&g->helpers, ");\n}\n");
        } else {
            bprintf(&g->helpers, "%s _gfmod(%s x, %s y) {\n    return x - y * trunc(x / y);\n}\n",
                    tn, tn, tn);
        }
    }
    return "_gfmod";
}

// Signed integer remainder with the sign of the dividend, like C and HLSL.
static const char *helper_imod(gen *g, fx_type t) {
    const char *tn = type_name(g, t);
    if (helper_new(g, fx_sprintf(g->ctx, "imod %s", tn))) {
        bprintf(&g->helpers, "%s _gimod(%s a, %s b) {\n    return a - b * (a / b);\n}\n", tn, tn,
                tn);
    }
    return "_gimod";
}

// Component-wise && or || of two bool vectors (or scalars), both evaluated.
static const char *helper_logic(gen *g, fx_type t, bool is_and) {
    const char *tn = type_name(g, t);
    const char *name = is_and ? "_gand" : "_gor";
    const char *op = is_and ? "&&" : "||";
    if (helper_new(g, fx_sprintf(g->ctx, "%s %s", name, tn))) {
        bprintf(&g->helpers, "%s %s(%s a, %s b) {\n    return ", tn, name, tn, tn);
        if (t.rows == 1 && t.cols == 1) {
            bprintf(&g->helpers, "a %s b", op);
        } else {
            bprintf(&g->helpers, "%s(", tn);
            for (int i = 0; i < t.rows; i++) {
                bprintf(&g->helpers, "%sa[%d] %s b[%d]", i ? ", " : "", i, op, i);
            }
            bput(&g->helpers, ")");
        }
        bput(&g->helpers, ";\n}\n");
    }
    return name;
}

// c ? a : b with both values evaluated; c is bool or a bool vector of t's shape.
static const char *helper_select(gen *g, fx_type cond, fx_type t) {
    const char *tn = full_type_name(g, t);
    const char *cn = type_name(g, cond);
    if (helper_new(g, fx_sprintf(g->ctx, "sel %s %s", cn, tn))) {
        bprintf(&g->helpers, "%s _gsel(%s c, %s a, %s b) {\n    return ", tn, cn, tn, tn);
        if (cond.rows == 1 && cond.cols == 1) {
            bput(&g->helpers, "c ? a : b");
        } else {
            bprintf(&g->helpers, "%s(", tn);
            for (int i = 0; i < cond.rows; i++) {
                bprintf(&g->helpers, "%sc[%d] ? a[%d] : b[%d]", i ? ", " : "", i, i, i);
            }
            bput(&g->helpers, ")");
        }
        bput(&g->helpers, ";\n}\n");
    }
    return "_gsel";
}

// A scalar broadcast to every element of a matrix (GLSL mat(x) is diagonal).
static const char *helper_splat(gen *g, fx_type t) {
    const char *tn = type_name(g, t);
    const char *name = fx_sprintf(g->ctx, "_gsplat%s", tn);
    if (helper_new(g, name)) {
        bprintf(&g->helpers, "%s %s(float x) {\n    return %s(", tn, name, tn);
        for (int i = 0; i < t.rows * t.cols; i++) {
            bput(&g->helpers, i ? ", x" : "x");
        }
        bput(&g->helpers, ");\n}\n");
    }
    return name;
}

// --- expressions ---

static void expr(gen *g, buf *o, const fx_expr *e);

// An int, uint or bool matrix uniform: GLSL has only float matrices, so the
// block holds its rows as integer vectors (the same std140 layout) and
// reads convert them.
static bool integer_matrix_uniform(const gen *g, const fx_symbol *s) {
    if (s->kind != FX_SYM_UNIFORM || !fx_type_is_matrix(s->type) ||
        fx_type_is_array(s->type) || is_float_base(s->type.base)) {
        return false;
    }
    if (g->opt->performance_mode && s->index >= 0 && (size_t)s->index < g->fx->uniform_count &&
        g->fx->uniforms[s->index].has_initializer &&
        g->fx->uniforms[s->index].special == FXGL_SPECIAL_NONE) {
        return false; // a constant of the GLSL (float) matrix type
    }
    return true;
}

// Does evaluating e change anything (so it must be evaluated exactly once)?
static bool side_effects(const fx_expr *e) {
    if (!e) {
        return false;
    }
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_ASSIGN:
    case FX_EXPR_POSTFIX:
        return true;
    case FX_EXPR_UNARY:
        if (e->op == FX_TOK_INC || e->op == FX_TOK_DEC) {
            return true;
        }
        break;
    case FX_EXPR_CALL: {
        const fx_symbol *s = e->sym;
        // User functions may write globals; intrinsics say so.
        if (!s || s->kind == FX_SYM_FUNCTION ||
            (s->intrinsic && (s->intrinsic->flags & FX_INTRINSIC_F_SIDE_EFFECTS))) {
            return true;
        }
        break;
    }
    default:
        break;
    }
    if (side_effects(fx_expr_cond(e))) {
        return true;
    }
    if (side_effects(fx_expr_lhs(e)) || side_effects(fx_expr_rhs(e))) {
        return true;
    }
    for (const fx_expr *a = fx_expr_args(e); a; a = a->next) {
        if (side_effects(a)) {
            return true;
        }
    }
    return false;
}

static const char *expr_str(gen *g, const fx_expr *e) {
    buf b = newbuf(g);
    expr(g, &b, e);
    return bstr(&b);
}

// text (of type from) converted to type to.
static void convert(gen *g, buf *o, fx_type from, fx_type to, const char *text) {
    if (same_glsl_type(g, from, to) || fx_type_is_array(to) || fx_type_is_struct(to) ||
        fx_type_is_object(to)) {
        bput(o, text);
        return;
    }
    if (glsl_matrix(to) && fx_type_components(from) == 1) {
        bprintf(o, "%s(float(%s))", helper_splat(g, to), text);
        return;
    }
    if (fx_type_components(to) == 1 && fx_type_components(from) > 1 && glsl_matrix(from)) {
        // GLSL has no scalar constructor from a matrix in every version.
        bprintf(o, "%s(%s[0][0])", type_name(g, to), text);
        return;
    }
    if (glsl_matrix(from) && !glsl_matrix(to) && fx_type_components(to) > 1) {
        // HLSL reinterprets row-major: GLSL columns in order are HLSL rows.
        bprintf(o, "%s(", type_name(g, to));
        int need = fx_type_components(to), have = 0;
        for (int c = 0; c < from.rows && have < need; c++) {
            int take = from.cols < need - have ? from.cols : need - have;
            static const char *const sw[] = {"", ".x", ".xy", ".xyz", ""};
            bprintf(o, "%s(%s)[%d]%s", c ? ", " : "", text, c, take == from.cols ? "" : sw[take]);
            have += take;
        }
        bput(o, ")");
        return;
    }
    bprintf(o, "%s(%s)", type_name(g, to), text);
}

static const char *convert_str(gen *g, fx_type from, fx_type to, const char *text) {
    buf b = newbuf(g);
    convert(g, &b, from, to, text);
    return bstr(&b);
}

static bool is_relational(int op) {
    return op == '<' || op == '>' || op == FX_TOK_LE || op == FX_TOK_GE;
}

// a op b for operands of type t (already converted), as HLSL computes it.
static void binop(gen *g, buf *o, int op, fx_type t, const char *a, const char *b,
                  bool rhs_side_effects) {
    bool vec = t.rows > 1 || t.cols > 1;
    switch (op) {
    case '*':
        if (glsl_matrix(t)) {
            bprintf(o, "matrixCompMult(%s, %s)", a, b);
            return;
        }
        break;
    case '%':
        if (is_float_base(t.base) || glsl_matrix(t)) {
            bprintf(o, "%s(%s, %s)", helper_fmod(g, float_shape(t)), a, b);
            return;
        }
        if (is_int_base(t.base)) {
            bprintf(o, "%s(%s, %s)", helper_imod(g, t), a, b);
            return;
        }
        break;
    case '<':
    case '>':
    case FX_TOK_LE:
    case FX_TOK_GE:
    case FX_TOK_EQ:
    case FX_TOK_NE: {
        if (is_relational(op) && t.base == FX_TYPE_BOOL) {
            // GLSL orders no bools.
            fx_type it = fx_type_with_base(t, FX_TYPE_INT);
            a = convert_str(g, t, it, a);
            b = convert_str(g, t, it, b);
        }
        if (glsl_matrix(t)) {
            gerror(g, g->entry_loc, "comparisons of matrices are not supported by %s",
                   target_name(g));
            bput(o, "false");
            return;
        }
        if (vec) {
            const char *fn = op == '<' ? "lessThan" : op == '>' ? "greaterThan"
                             : op == FX_TOK_LE ? "lessThanEqual"
                             : op == FX_TOK_GE ? "greaterThanEqual"
                             : op == FX_TOK_EQ ? "equal" : "notEqual";
            bprintf(o, "%s(%s, %s)", fn, a, b);
            return;
        }
        break;
    }
    case FX_TOK_ANDAND:
    case FX_TOK_OROR:
        if (vec || rhs_side_effects) {
            bprintf(o, "%s(%s, %s)", helper_logic(g, t, op == FX_TOK_ANDAND), a, b);
            return;
        }
        break;
    default:
        break;
    }
    char sp[3];
    bprintf(o, "(%s %s %s)", a, fx_tok_spelling(op, sp), b);
}

// The binary operator of a compound assignment.
static int assign_binop(int op) {
    switch (op) {
    case FX_TOK_ADD_ASSIGN:
        return '+';
    case FX_TOK_SUB_ASSIGN:
        return '-';
    case FX_TOK_MUL_ASSIGN:
        return '*';
    case FX_TOK_DIV_ASSIGN:
        return '/';
    case FX_TOK_MOD_ASSIGN:
        return '%';
    case FX_TOK_AND_ASSIGN:
        return '&';
    case FX_TOK_OR_ASSIGN:
        return '|';
    case FX_TOK_XOR_ASSIGN:
        return '^';
    case FX_TOK_SHL_ASSIGN:
        return FX_TOK_SHL;
    case FX_TOK_SHR_ASSIGN:
        return FX_TOK_SHR;
    default:
        return 0;
    }
}

static void swizzle(gen *g, buf *o, const fx_expr *e) {
    const fx_symbol *s = e->sym;
    fx_type lt = e->lhs->type;
    const char *base = expr_str(g, e->lhs);
    int n = s->swizzle_count;
    if (s->matrix_swizzle) {
        if (n > 1) {
            bprintf(o, "%s(", type_name(g, e->type));
        } else if (!is_float_base(e->type.base)) {
            bprintf(o, "%s(", scalar_name(e->type.base));
        }
        for (int i = 0; i < n; i++) {
            int r = s->swizzle[i] / 4, c = s->swizzle[i] % 4;
            if (i) {
                bput(o, ", ");
            }
            // GLSL column r is HLSL row r (not the reference's [col][row]).
            if (lt.rows == 1) {
                bprintf(o, "%s[%d]", base, c);
            } else {
                bprintf(o, "%s[%d][%d]", base, r, c);
            }
        }
        if (n > 1 || !is_float_base(e->type.base)) {
            bput(o, ")");
        }
        return;
    }
    if (fx_type_components(lt) == 1) {
        // No scalar swizzles in GLSL ES (and GLSL before 4.20).
        if (n == 1) {
            bput(o, base);
        } else {
            bprintf(o, "%s(%s)", type_name(g, e->type), base);
        }
        return;
    }
    bprintf(o, "%s.", base);
    for (int i = 0; i < n; i++) {
        bputn(o, &"xyzw"[s->swizzle[i] & 3], 1);
    }
}

// --- calls ---

static bool template_uses(const char *tmpl, const char *what) {
    return strstr(tmpl, what) != NULL;
}

// Checks the target has what an intrinsic needs; reports the missing feature.
static void check_needs(gen *g, const fx_expr *e, const fx_intrinsic *in) {
    const char *missing = NULL;
    if ((in->needs & FX_INTRINSIC_NEED_IMAGE) && g->version == 300) {
        missing = "storage (image) loads and sizes";
    } else if ((in->needs & FX_INTRINSIC_NEED_IMAGE_ATOMIC) && g->es && g->version < 320) {
        missing = "atomic operations on storage (image atomics)";
    } else if ((in->needs & FX_INTRINSIC_NEED_GATHER_OFFSETS) && g->es && g->version < 320) {
        missing = "texture gathers with four offsets (textureGatherOffsets)";
    } else if ((in->needs & FX_INTRINSIC_NEED_GATHER) && g->version == 300) {
        missing = "texture gathers (textureGather)";
    } else if (g->version == 300 &&
               (template_uses(in->glsl, "bitCount") || template_uses(in->glsl, "findLSB") ||
                template_uses(in->glsl, "findMSB") ||
                template_uses(in->glsl, "bitfieldReverse"))) {
        missing = "bit counting functions (countbits, firstbitlow, firstbithigh, reversebits)";
    } else if (g->version == 300 && template_uses(in->glsl, "frexp")) {
        missing = "frexp";
    } else if (g->version == 300 && (in->needs & FX_INTRINSIC_NEED_COMPUTE)) {
        missing = "compute shaders";
    }
    if (missing) {
        gerror(g, e->loc, "'%s' needs %s, which %s lacks", in->name, missing, target_name(g));
    }
    if (in->needs & FX_INTRINSIC_NEED_DERIV_CONTROL) {
        g->need_deriv_control = true;
    }
}

// Writes template tmpl with $0..$9 replaced by args[] and $R by ret.
static void expand(buf *o, const char *tmpl, const char *const *args, int nargs,
                   const char *ret) {
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '$' && p[1] == 'R') {
            bput(o, ret);
            p++;
        } else if (p[0] == '$' && isdigit((unsigned char)p[1]) && p[1] - '0' < nargs) {
            bput(o, args[p[1] - '0']);
            p++;
        } else {
            bputn(o, p, 1);
        }
    }
}

static int template_count(const char *tmpl, int arg) {
    int n = 0;
    for (const char *p = tmpl; (p = strchr(p, '$')) != NULL; p++) {
        n += p[1] == '0' + arg;
    }
    return n;
}

// The template applied to argument texts, with the matrix flags handled.
static void apply_template(gen *g, buf *o, const fx_intrinsic *in, const char *const *args,
                           int nargs, fx_type ret) {
    const char *rn = type_name(g, ret);
    if (in->flags & FX_INTRINSIC_F_PER_COLUMN) {
        // GLSL lacks the matrix form: one call per column, then the matrix.
        bprintf(o, "%s(", rn);
        for (int c = 0; c < ret.rows; c++) {
            const char *cols[FX_INTRINSIC_MAX_PARAMS];
            for (int i = 0; i < nargs; i++) {
                cols[i] = fx_sprintf(g->ctx, "%s[%d]", args[i], c);
            }
            if (c) {
                bput(o, ", ");
            }
            expand(o, in->glsl, cols, nargs, type_name(g, fx_type_vector(FX_TYPE_FLOAT,
                                                                       ret.cols)));
        }
        bput(o, ")");
        return;
    }
    if (in->flags & FX_INTRINSIC_F_FLOAT_MATRIX) {
        const char *fargs[FX_INTRINSIC_MAX_PARAMS];
        for (int i = 0; i < nargs; i++) {
            fx_type pt = in->sig.params[i];
            fargs[i] = convert_str(g, pt, float_shape(pt), args[i]);
        }
        buf t = newbuf(g);
        expand(&t, in->glsl, fargs, nargs, type_name(g, float_shape(ret)));
        convert(g, o, float_shape(ret), ret, bstr(&t));
        return;
    }
    expand(o, in->glsl, args, nargs, rn);
}

static bool is_global_object(const fx_expr *a) {
    const fx_symbol *s = fx_expr_sym(a);
    return a->kind == FX_EXPR_NAME && s &&
           (s->kind == FX_SYM_SAMPLER || s->kind == FX_SYM_STORAGE || s->kind == FX_SYM_TEXTURE);
}

// GLSL ES 3.00 lacks ldexp: x * 2^e is exact for the exponents that matter.
static const fx_intrinsic *es300_ldexp(const fx_intrinsic *in, fx_intrinsic *copy) {
    *copy = *in;
    switch (in->ret.rows) {
    case 1:
        copy->glsl = "($0 * exp2(float($1)))";
        break;
    case 2:
        copy->glsl = "($0 * exp2(vec2($1)))";
        break;
    case 3:
        copy->glsl = "($0 * exp2(vec3($1)))";
        break;
    default:
        copy->glsl = "($0 * exp2(vec4($1)))";
        break;
    }
    return copy;
}

static bool starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

// GLSL's textureOffset family needs constant offsets; the reference asks
// for none. A non-constant offset moves the coordinate instead, by
// offset / textureSize(s, 0): what the offset does on level 0. Gathers read
// level 0 only, so for them that is exact (textureGatherOffsets becomes
// four gathers, each giving its footprint's i0j0 texel, as GL defines it);
// for the other functions it is exact unless the texture has mip levels
// and a level above 0 is sampled, which is reported. Returns `in` when the
// offsets are constant, else `copy` with the rewritten template.
static const fx_intrinsic *lower_offsets(gen *g, const fx_expr *e, const fx_intrinsic *in,
                                         fx_intrinsic *copy) {
    bool constant = true;
    int i = 0;
    for (const fx_expr *a = e->args; a; a = a->next, i++) {
        fxgl_value v;
        if (i >= in->const_from && !fx_check_eval(a, &v)) {
            constant = false;
        }
    }
    if (constant) {
        return in;
    }
    int d = fx_type_object_dim(in->sig.params[0]);
    const char *ct = d == 1 ? "float" : d == 2 ? "vec2" : "vec3";
    const char *t = in->glsl;
    const char *swz = strrchr(t, ')') + 1; // the element swizzle after the call
    size_t tl = strlen(t);
#define SHIFT(coord, off)                                                                       \
    fx_sprintf(g->ctx, "(%s + %s(%s) / %s(textureSize($0, 0)))", coord, ct, off, ct)
    const char *out;
    bool exact = false;
    if (starts_with(t, "textureOffset(")) {
        out = fx_sprintf(g->ctx, "texture($0, %s)%s", SHIFT("$1", "$2"), swz);
    } else if (starts_with(t, "textureLodOffset(")) {
        const char *c = d == 1 ? "$1.x" : d == 2 ? "$1.xy" : "$1.xyz";
        out = fx_sprintf(g->ctx, "textureLod($0, %s, $1.w)%s", SHIFT(c, "$2"), swz);
    } else if (starts_with(t, "textureGradOffset(")) {
        out = fx_sprintf(g->ctx, "textureGrad($0, %s, $2, $3)%s", SHIFT("$1", "$4"), swz);
    } else if (starts_with(t, "textureGatherOffsets(") && tl > 2) {
        char comp = t[tl - 2];
        out = fx_sprintf(g->ctx, "%s(textureGather($0, %s, %c).w, textureGather($0, %s, %c).w, "
                                 "textureGather($0, %s, %c).w, textureGather($0, %s, %c).w)",
                         type_name(g, in->ret), SHIFT("$1", "$2"), comp, SHIFT("$1", "$3"), comp,
                         SHIFT("$1", "$4"), comp, SHIFT("$1", "$5"), comp);
        exact = true;
    } else if (starts_with(t, "textureGatherOffset(") && tl > 2) {
        out = fx_sprintf(g->ctx, "textureGather($0, %s, %c)", SHIFT("$1", "$2"), t[tl - 2]);
        exact = true;
    } else {
        return in;
    }
#undef SHIFT
    if (!exact) {
        const fx_symbol *s = fx_expr_sym(e->args);
        int levels = 0; // unknown: a sampler parameter
        if (s && is_global_object(e->args) && s->kind == FX_SYM_SAMPLER && s->index >= 0 &&
            (size_t)s->index < g->fx->sampler_count) {
            int tex = g->fx->samplers[s->index].texture;
            levels = tex >= 0 && (size_t)tex < g->fx->texture_count ? g->fx->textures[tex].levels
                                                                   : 0;
        }
        if (levels != 1) {
            fx_loc loc = fx_lex_loc(g->prog->ast->lexer, e->loc);
            fx_warning(g->ctx, "G_OFFSET", loc.file, loc.line, loc.col,
                       "'%s': the texel offset is not constant: it is applied in texels of mip "
                       "level 0%s", in->name, levels > 1 ? ", also when a higher level is sampled"
                                                      : " (exact unless the texture has mipmaps)");
        }
    }
    *copy = *in;
    copy->glsl = out;
    copy->const_from = 0;
    copy->needs &= (uint8_t)~FX_INTRINSIC_NEED_GATHER_OFFSETS; // four plain gathers
    return copy;
}

static bool es_image_format(fxgl_format f);
static const char *es_fallback_format(fxgl_format f);
static fxgl_format storage_texture_format(gen *g, const fx_expr *a);
static const char *storage_reader(gen *g, const fx_expr *a);

// A 1D texture intrinsic on GLSL ES, where 1D objects are 2D of height 1:
// the same call with the coordinate at row 0 (the texel centre, v = 0.5,
// for filtered reads; derivatives of v are 0), offsets and integer
// coordinates widened with 0, sizes narrowed to their width.
static const fx_intrinsic *es_1d(gen *g, const fx_intrinsic *in, fx_intrinsic *copy) {
    static const struct {
        const char *from, *to;
    } map[] = {
        {"texture($0, $1)", "texture($0, vec2($1, 0.5))"},
        {"textureOffset($0, $1, $2)", "textureOffset($0, vec2($1, 0.5), ivec2($2, 0))"},
        {"textureLod($0, $1.x, $1.w)", "textureLod($0, vec2($1.x, 0.5), $1.w)"},
        {"textureLodOffset($0, $1.x, $1.w, $2)",
         "textureLodOffset($0, vec2($1.x, 0.5), $1.w, ivec2($2, 0))"},
        {"textureGrad($0, $1, $2, $3)",
         "textureGrad($0, vec2($1, 0.5), vec2($2, 0.0), vec2($3, 0.0))"},
        {"textureGradOffset($0, $1, $2, $3, $4)",
         "textureGradOffset($0, vec2($1, 0.5), vec2($2, 0.0), vec2($3, 0.0), ivec2($4, 0))"},
        {"texelFetch($0, $1, ", "texelFetch($0, ivec2($1, 0), "},
        {"imageLoad($0, $1)", "imageLoad($0, ivec2($1, 0))"},
        {"imageStore($0, $1, ", "imageStore($0, ivec2($1, 0), "},
        {"textureSize($0, 0)", "textureSize($0, 0).x"},
        {"textureSize($0, $1)", "textureSize($0, $1).x"},
        {"imageSize($0)", "imageSize($0).x"},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        size_t n = strlen(map[i].from);
        if (strncmp(in->glsl, map[i].from, n) == 0) {
            *copy = *in;
            copy->glsl = fx_sprintf(g->ctx, "%s%s", map[i].to, in->glsl + n);
            return copy;
        }
    }
    const char *args = strstr(in->glsl, "($0, $1, ");
    if (strncmp(in->glsl, "imageAtomic", 11) == 0 && args) {
        *copy = *in;
        copy->glsl = fx_sprintf(g->ctx, "%.*s($0, ivec2($1, 0), %s", (int)(args - in->glsl),
                                in->glsl, args + 9);
        return copy;
    }
    return in; // not reached: every 1D intrinsic has a row above
}

static void intrinsic_call(gen *g, buf *o, const fx_expr *e, const fx_intrinsic *in) {
    fx_intrinsic copy;
    if (g->version == 300 && strcmp(in->name, "ldexp") == 0) {
        in = es300_ldexp(in, &copy);
    }
    if (g->es && (in->needs & FX_INTRINSIC_NEED_1D)) {
        in = es_1d(g, in, &copy);
    }
    if (g->es && strncmp(in->glsl, "imageLoad(", 10) == 0) {
        // A stand-in format's extra channels read as the real format's.
        fxgl_format f = storage_texture_format(g, e->args);
        int channels = fxgl_format_channels(f);
        if (!es_image_format(f) && es_fallback_format(f) && channels < 4) {
            const char *end = strchr(in->glsl, ')');
            if (in != &copy) {
                copy = *in;
            }
            copy.glsl = fx_sprintf(g->ctx, "_gload%d(%.*s)%s", channels,
                                   (int)(end - in->glsl + 1), in->glsl, end + 1);
            in = &copy;
        }
    }
    if (in->const_from) {
        in = lower_offsets(g, e, in, &copy);
    }
    check_needs(g, e, in);
    int n = (int)e->arg_count;
    const char *args[FX_INTRINSIC_MAX_PARAMS] = {0};
    bool wrap = false;
    int i = 0;
    for (const fx_expr *a = e->args; a && i < FX_INTRINSIC_MAX_PARAMS; a = a->next, i++) {
        args[i] = expr_str(g, a);
        int uses = template_count(in->glsl, i) *
                   ((in->flags & FX_INTRINSIC_F_PER_COLUMN) ? e->type.rows : 1);
        if (uses > 1 && side_effects(a)) {
            wrap = true;
        }
    }
    if (g->es && strstr(in->glsl, "imageLoad(") && e->args) {
        const char *reader = storage_reader(g, e->args);
        args[0] = reader ? reader : args[0];
    }
    if (!wrap) {
        apply_template(g, o, in, args, n, e->type);
        return;
    }
    // Evaluate every argument once: a wrapper function takes them as
    // parameters (global objects and constant offsets stay inline).
    const char *name = gname(g, "i");
    const char *pargs[FX_INTRINSIC_MAX_PARAMS];
    buf h = newbuf(g);
    bprintf(&h, "%s %s(", type_name(g, e->type), name);
    buf call = newbuf(g);
    bprintf(&call, "%s(", name);
    bool first = true;
    i = 0;
    for (const fx_expr *a = e->args; a && i < n; a = a->next, i++) {
        fx_type pt = in->sig.params[i];
        if (is_global_object(a) || (in->const_from && i >= in->const_from)) {
            pargs[i] = args[i];
            continue;
        }
        pargs[i] = fx_sprintf(g->ctx, "a%d", i);
        const char *q = (pt.quals & FX_Q_OUT) ? ((pt.quals & FX_Q_IN) ? "inout " : "out ") : "";
        fx_type at = fx_type_is_object(pt) ? a->type : pt;
        bprintf(&h, "%s%s%s a%d", first ? "" : ", ", q, type_name(g, at), i);
        bprintf(&call, "%s%s", first ? "" : ", ", args[i]);
        first = false;
    }
    bput(&h, ") {\n    ");
    if (!fx_type_is_void(e->type)) {
        bput(&h, "return ");
    }
    apply_template(g, &h, in, pargs, n, e->type);
    bput(&h, ";\n}\n");
    bput(&g->helpers, bstr(&h));
    bput(&call, ")");
    bput(o, bstr(&call));
}

static bool has_storage_params(const fx_symbol *f) {
    for (const fx_var_decl *p = f->func ? f->func->params : NULL; p; p = p->next) {
        if (fx_type_is_storage(p->type)) {
            return true;
        }
    }
    return false;
}

// The specialization of f for the storage arguments of call e.
static const char *specialize(gen *g, const fx_expr *e, const fx_symbol *f) {
    spec sp = {.func = f};
    const fx_var_decl *p = f->func->params;
    for (const fx_expr *a = e->args; a && p; a = a->next, p = p->next) {
        if (!fx_type_is_storage(p->type)) {
            continue;
        }
        if (a->kind != FX_EXPR_NAME || !a->sym || sp.arg_count == FX_GLSL_MAX_SPEC_ARGS) {
            gerror(g, a->loc, "storage arguments must name a storage");
            return sym_name(g, f);
        }
        sp.args[sp.arg_count++] = (named){p->sym, sym_name(g, a->sym)};
    }
    for (size_t i = 0; i < g->spec_count; i++) {
        const spec *o = &g->specs[i];
        bool same = o->func == f && o->arg_count == sp.arg_count;
        for (size_t k = 0; same && k < sp.arg_count; k++) {
            same = strcmp(o->args[k].name, sp.args[k].name) == 0;
        }
        if (same) {
            return o->name;
        }
    }
    sp.name = fx_sprintf(g->ctx, "%s_s%zu", sym_name(g, f), g->spec_count);
    fx_grow(g->ctx, (void **)&g->specs, &g->spec_cap, g->spec_count + 1, sizeof(*g->specs),
            1u << 16, "specializations");
    g->specs[g->spec_count++] = sp;
    return sp.name;
}

// A call of a user function.
static void user_call(gen *g, buf *o, const fx_expr *e, const fx_symbol *f) {
    const fx_func_decl *fd = f->func;
    bool specialized = has_storage_params(f);
    const char *fname = specialized ? specialize(g, e, f) : sym_name(g, f);
    bool wrap = false;
    const fx_var_decl *p = fd->params;
    for (const fx_expr *a = e->args; a && p; a = a->next, p = p->next) {
        if ((p->type.quals & FX_Q_OUT) && !same_glsl_type(g, a->type, p->type)) {
            wrap = true;
        }
    }
    if (!wrap) {
        bprintf(o, "%s(", fname);
        bool first = true;
        p = fd->params;
        for (const fx_expr *a = e->args; a; a = a->next, p = p ? p->next : NULL) {
            if (p && fx_type_is_storage(p->type)) {
                continue;
            }
            if (!first) {
                bput(o, ", ");
            }
            expr(g, o, a);
            first = false;
        }
        bput(o, ")");
        return;
    }
    // out/inout through temporaries of the parameter's type, converted both
    // ways, in a wrapper whose parameters have the arguments' types.
    const char *name = gname(g, "c");
    fx_type rt = f->type;
    buf h = newbuf(g), body = newbuf(g), back = newbuf(g), inner = newbuf(g);
    bprintf(&h, "%s %s(", full_type_name(g, rt), name);
    bprintf(&inner, "%s(", fname);
    int i = 0;
    p = fd->params;
    bool first = true;
    for (const fx_expr *a = e->args; a && p; a = a->next, p = p->next, i++) {
        if (fx_type_is_storage(p->type)) {
            continue; // the specialization names the global
        }
        const char *q = (p->type.quals & FX_Q_OUT)
                            ? ((p->type.quals & FX_Q_IN) ? "inout " : "out ")
                            : "";
        bool conv = (p->type.quals & FX_Q_OUT) && !same_glsl_type(g, a->type, p->type);
        fx_type at = conv ? a->type : p->type;
        if (!first) {
            bput(&h, ", ");
            bput(&inner, ", ");
        }
        first = false;
        bput(&h, q);
        declarator(g, &h, at, fx_sprintf(g->ctx, "a%d", i));
        if (conv) {
            bput(&body, "    ");
            declarator(g, &body, p->type, fx_sprintf(g->ctx, "t%d", i));
            if (p->type.quals & FX_Q_IN) {
                bprintf(&body, " = %s", convert_str(g, a->type, p->type,
                                                    fx_sprintf(g->ctx, "a%d", i)));
            }
            bput(&body, ";\n");
            bprintf(&back, "    a%d = %s;\n", i,
                    convert_str(g, p->type, a->type, fx_sprintf(g->ctx, "t%d", i)));
            bprintf(&inner, "t%d", i);
        } else {
            bprintf(&inner, "a%d", i);
        }
    }
    bput(&inner, ")");
    bprintf(&h, ") {\n%s", bstr(&body));
    if (fx_type_is_void(rt)) {
        bprintf(&h, "    %s;\n%s}\n", bstr(&inner), bstr(&back));
    } else {
        bput(&h, "    ");
        declarator(g, &h, rt, "r");
        bprintf(&h, " = %s;\n%s    return r;\n}\n", bstr(&inner), bstr(&back));
    }
    bput(&g->helpers, bstr(&h));
    bprintf(o, "%s(", name);
    first = true;
    p = fd->params;
    for (const fx_expr *a = e->args; a; a = a->next, p = p ? p->next : NULL) {
        if (p && fx_type_is_storage(p->type)) {
            continue;
        }
        if (!first) {
            bput(o, ", ");
        }
        expr(g, o, a);
        first = false;
    }
    bput(o, ")");
}

static bool foldable_type(fx_type t) {
    return fx_type_is_numeric(t) && !fx_type_is_array(t);
}

static void init_list(gen *g, buf *o, const fx_expr *e, fx_type t) {
    if (fx_type_is_array(t)) {
        fx_type el = fx_type_element(t);
        bprintf(o, "%s[%d](", type_name(g, el), t.array_len);
        int i = 0;
        for (const fx_expr *a = e->args; a; a = a->next, i++) {
            if (i) {
                bput(o, ", ");
            }
            if (a->kind == FX_EXPR_INIT_LIST) {
                init_list(g, o, a, el);
            } else {
                expr(g, o, a);
            }
        }
        bput(o, ")");
        return;
    }
    if (fx_type_is_struct(t) && t.strct) {
        bprintf(o, "%s(", type_name(g, t));
        const fx_var_decl *m = t.strct->members;
        for (const fx_expr *a = e->args; a; a = a->next) {
            if (a->kind == FX_EXPR_INIT_LIST && m) {
                init_list(g, o, a, m->type);
            } else {
                expr(g, o, a);
            }
            if (a->next) {
                bput(o, ", ");
            }
            m = m ? m->next : NULL;
        }
        bput(o, ")");
        return;
    }
    // Vectors and matrices were rewritten to constructors by the checker.
    if (e->args) {
        expr(g, o, e->args);
    }
}

static void expr_node(gen *g, buf *o, const fx_expr *e);

// A value stmt_expr may move into a temporary: a scalar, vector or matrix
// (declared with the GLSL type its text has). Members and elements qualify
// because what is written to (an assignment's left side) is never split,
// and a statement with out arguments is not split.
static bool splittable(const fx_expr *e) {
    if (!(fx_type_is_scalar(e->type) || fx_type_is_vector(e->type) ||
          (fx_type_is_matrix(e->type) && !fx_type_is_array(e->type)))) {
        return false;
    }
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_BINARY:
    case FX_EXPR_CAST:
    case FX_EXPR_CONSTRUCT:
    case FX_EXPR_COMMA:
    case FX_EXPR_MEMBER:
    case FX_EXPR_INDEX:
        return true;
    case FX_EXPR_UNARY:
        return e->op != FX_TOK_INC && e->op != FX_TOK_DEC;
    default:
        return false;
    }
}

static void expr(gen *g, buf *o, const fx_expr *e) {
    if (!e) {
        return;
    }
    if (!g->pre) {
        // Not splittable here: a GLSL compiler would meet all of it.
        if (g->unsplit >= FX_GLSL_MAX_NESTING) {
            if (!g->too_deep) { // once: its siblings are as deep
                g->too_deep = true;
                // At the parent: which child comes first is the C compiler's choice.
                gerror(g, g->unsplit_at->loc,
                       "expression nested more than %d levels deep where it cannot be split "
                       "(a loop condition, a global initializer, a branch of ?:, && or ||, "
                       "a statement with calls or side effects): split it into statements",
                       FX_GLSL_MAX_NESTING);
            }
            bput(o, "0");
            return;
        }
        const fx_expr *at = g->unsplit_at;
        g->unsplit++;
        g->unsplit_at = e;
        expr_node(g, o, e);
        g->unsplit_at = at;
        g->unsplit--;
        return;
    }
    buf *pre = g->pre;
    if (e == g->guard[0] || e == g->guard[1]) {
        g->pre = NULL; // evaluated only sometimes, or an lvalue: kept in place
    }
    const fx_expr *guard0 = g->guard[0], *guard1 = g->guard[1];
    bool logic = e->kind == FX_EXPR_BINARY && (e->op == FX_TOK_ANDAND || e->op == FX_TOK_OROR);
    g->guard[0] = g->guard[1] = NULL;
    if (logic) {
        g->guard[0] = e->rhs;
    } else if (e->kind == FX_EXPR_ASSIGN) {
        g->guard[0] = e->lhs;
    } else if (e->kind == FX_EXPR_TERNARY) {
        g->guard[0] = e->lhs;
        g->guard[1] = e->rhs;
    }
    int level = ++g->level, outer_max = g->level_max;
    g->level_max = level;
    size_t start = o->len;
    expr_node(g, o, e);
    if (g->pre && g->level_max - level >= FX_GLSL_SPLIT && splittable(e)) {
        const char *name = gname(g, "x");
        indent(g->pre, g->pre_depth);
        declarator(g, g->pre, e->type, name);
        bprintf(g->pre, " = %s;\n", o->data + start);
        o->len = start;
        bput(o, name);
        g->level_max = level;
    }
    if (g->level_max < outer_max) {
        g->level_max = outer_max;
    }
    g->level--;
    g->guard[0] = guard0;
    g->guard[1] = guard1;
    g->pre = pre;
}

static void expr_node(gen *g, buf *o, const fx_expr *e) {
    if (!e) {
        return;
    }
    if (((e->type.quals & FX_Q_CONST) || e->kind == FX_EXPR_CAST ||
         e->kind == FX_EXPR_CONSTRUCT) &&
        foldable_type(e->type) && e->kind != FX_EXPR_ASSIGN) {
        fxgl_value v;
        if (fx_check_eval(e, &v) && v.count > 0 && v.scalar != FXGL_SCALAR_STRING) {
            put_value(g, o, &v, e->type);
            return;
        }
    }
    const fx_symbol *s = fx_expr_sym(e);
    switch ((fx_expr_kind)e->kind) {
    case FX_EXPR_ERROR:
    case FX_EXPR_STRING:
        bput(o, "0");
        return;
    case FX_EXPR_INT:
    case FX_EXPR_FLOAT:
    case FX_EXPR_BOOL: {
        fxgl_value v;
        if (fx_check_eval(e, &v)) {
            put_value(g, o, &v, e->type);
        }
        return;
    }
    case FX_EXPR_NAME:
        if (s && integer_matrix_uniform(g, s)) {
            fx_type row = fx_type_vector(FX_TYPE_FLOAT, s->type.cols);
            const char *n = sym_name(g, s);
            bprintf(o, "%s(", type_name(g, s->type));
            for (int r = 0; r < s->type.rows; r++) {
                bprintf(o, "%s%s(%s[%d])", r ? ", " : "", type_name(g, row), n, r);
            }
            bput(o, ")");
            return;
        }
        bput(o, s ? sym_name(g, s) : "_gerror");
        return;
    case FX_EXPR_UNARY: {
        const char *a = expr_str(g, e->lhs);
        switch (e->op) {
        case '+':
            bput(o, a);
            return;
        case '!':
            if (fx_type_components(e->type) > 1) {
                bprintf(o, "not(%s)", a);
            } else {
                bprintf(o, "(!%s)", a);
            }
            return;
        case FX_TOK_INC:
            bprintf(o, "(++%s)", a);
            return;
        case FX_TOK_DEC:
            bprintf(o, "(--%s)", a);
            return;
        default:
            bprintf(o, "(%c%s)", (char)e->op, a);
            return;
        }
    }
    case FX_EXPR_POSTFIX:
        bprintf(o, "(%s%s)", expr_str(g, e->lhs), e->op == FX_TOK_INC ? "++" : "--");
        return;
    case FX_EXPR_BINARY:
        binop(g, o, e->op, e->lhs->type, expr_str(g, e->lhs), expr_str(g, e->rhs),
              side_effects(e->rhs));
        return;
    case FX_EXPR_ASSIGN: {
        const char *l = expr_str(g, e->lhs);
        const char *r = expr_str(g, e->rhs);
        const fx_symbol *ls = e->lhs->kind == FX_EXPR_MEMBER ? e->lhs->sym : NULL;
        if (ls && ls->kind == FX_SYM_SWIZZLE && ls->matrix_swizzle && ls->swizzle_count > 1) {
            // GLSL has no such lvalue: a helper writes the elements.
            fx_type lt = e->lhs->type, mt = e->lhs->lhs->type;
            const char *value = r;
            if (e->op != '=') {
                buf t = newbuf(g);
                binop(g, &t, assign_binop(e->op), e->rhs->type,
                      convert_str(g, lt, e->rhs->type, l), r, false);
                value = convert_str(g, e->rhs->type, lt, bstr(&t));
            }
            const char *name = gname(g, "msw");
            const char *vt = type_name(g, lt);
            bprintf(&g->helpers, "%s %s(inout %s m, %s v) {\n", vt, name, type_name(g, mt), vt);
            for (int i = 0; i < ls->swizzle_count; i++) {
                int row = ls->swizzle[i] / 4, col = ls->swizzle[i] % 4;
                if (mt.rows == 1) {
                    bprintf(&g->helpers, "    m[%d] = float(v[%d]);\n", col, i);
                } else {
                    bprintf(&g->helpers, "    m[%d][%d] = float(v[%d]);\n", row, col, i);
                }
            }
            bput(&g->helpers, "    return v;\n}\n");
            bprintf(o, "%s(%s, %s)", name, expr_str(g, e->lhs->lhs), value);
            return;
        }
        // A row or element of an int/bool matrix: GLSL holds it as float.
        const fx_expr *m = fx_expr_lhs(e->lhs); // INDEX and MEMBER have one
        bool int_row = e->lhs->kind == FX_EXPR_INDEX && glsl_matrix(m->type) &&
                       !fx_type_is_array(m->type) && !is_float_base(m->type.base);
        bool int_elem = ls && ls->kind == FX_SYM_SWIZZLE && ls->matrix_swizzle &&
                        ls->swizzle_count == 1 && glsl_matrix(m->type) &&
                        !is_float_base(m->type.base);
        if (int_row || int_elem) {
            fx_type lt = e->lhs->type;
            const char *raw = int_row ? fx_sprintf(g->ctx, "%s[%s]", expr_str(g, m),
                                                   expr_str(g, e->lhs->rhs))
                                      : fx_sprintf(g->ctx, "%s[%d][%d]", expr_str(g, m),
                                                   ls->swizzle[0] / 4, ls->swizzle[0] % 4);
            const char *value = r;
            if (e->op != '=') {
                buf t = newbuf(g);
                binop(g, &t, assign_binop(e->op), e->rhs->type,
                      convert_str(g, lt, e->rhs->type, l), r, false);
                value = convert_str(g, e->rhs->type, lt, bstr(&t));
            }
            bprintf(o, "(%s = %s)", raw, convert_str(g, lt, float_shape(lt), value));
            return;
        }
        if (e->op == '=') {
            bprintf(o, "(%s = %s)", l, r);
            return;
        }
        int op = assign_binop(e->op);
        fx_type lt = e->lhs->type, ot = e->rhs->type;
        bool special = (op == '*' && glsl_matrix(lt)) ||
                       (op == '%' && !is_uint_base(ot.base)) || !same_glsl_type(g, lt, ot) ||
                       lt.base == FX_TYPE_BOOL;
        if (!special) {
            char sp[3];
            bprintf(o, "(%s %s %s)", l, fx_tok_spelling(e->op, sp), r);
            return;
        }
        // The target is evaluated twice here; HLSL targets with side
        // effects (a[i++] *= m) are rare enough to accept that.
        buf t = newbuf(g);
        binop(g, &t, op, ot, convert_str(g, lt, ot, l), r, false);
        bprintf(o, "(%s = %s)", l, convert_str(g, ot, lt, bstr(&t)));
        return;
    }
    case FX_EXPR_TERNARY: {
        const char *c = expr_str(g, e->cond);
        const char *a = expr_str(g, e->lhs);
        const char *b = expr_str(g, e->rhs);
        fx_type ct = e->cond->type;
        if (fx_type_components(ct) == 1 && !side_effects(e->lhs) && !side_effects(e->rhs) &&
            !fx_type_is_array(e->type)) {
            bprintf(o, "(%s ? %s : %s)", c, a, b);
        } else {
            bprintf(o, "%s(%s, %s, %s)", helper_select(g, ct, e->type), c, a, b);
        }
        return;
    }
    case FX_EXPR_COMMA:
        bprintf(o, "(%s, %s)", expr_str(g, e->lhs), expr_str(g, e->rhs));
        return;
    case FX_EXPR_CAST:
        convert(g, o, e->lhs->type, e->type, expr_str(g, e->lhs));
        return;
    case FX_EXPR_CONSTRUCT: {
        if (glsl_matrix(e->type) && e->arg_count == 1 &&
            fx_type_components(e->args->type) == 1) {
            convert(g, o, e->args->type, e->type, expr_str(g, e->args));
            return;
        }
        if (e->arg_count == 1) {
            convert(g, o, e->args->type, e->type, expr_str(g, e->args));
            return;
        }
        bprintf(o, "%s(", type_name(g, e->type));
        for (const fx_expr *a = e->args; a; a = a->next) {
            if (glsl_matrix(a->type) && !glsl_matrix(e->type)) {
                // A matrix inside a vector constructor: its components in
                // HLSL row-major order.
                convert(g, o, a->type, fx_type_vector(FX_TYPE_FLOAT, fx_type_components(a->type)),
                        expr_str(g, a));
            } else {
                expr(g, o, a);
            }
            if (a->next) {
                bput(o, ", ");
            }
        }
        bput(o, ")");
        return;
    }
    case FX_EXPR_CALL:
        if (s && s->kind == FX_SYM_INTRINSIC && s->intrinsic) {
            intrinsic_call(g, o, e, s->intrinsic);
        } else if (s && s->kind == FX_SYM_FUNCTION && s->func) {
            user_call(g, o, e, s);
        } else {
            bput(o, "0");
        }
        return;
    case FX_EXPR_INDEX: {
        fx_type lt = e->lhs->type;
        const char *l = expr_str(g, e->lhs);
        if (fx_type_is_matrix(lt) && !fx_type_is_array(lt) && lt.rows == 1) {
            bput(o, l); // the one row of a 1xN matrix, a GLSL vector
            return;
        }
        buf t = newbuf(g);
        bprintf(&t, "%s[%s]", l, expr_str(g, e->rhs));
        if (glsl_matrix(lt) && !fx_type_is_array(lt) && !is_float_base(lt.base)) {
            convert(g, o, float_shape(e->type), e->type, bstr(&t));
        } else {
            bput(o, bstr(&t));
        }
        return;
    }
    case FX_EXPR_MEMBER:
        if (s && s->kind == FX_SYM_SWIZZLE) {
            swizzle(g, o, e);
        } else {
            bprintf(o, "%s.%s", expr_str(g, e->lhs), s ? sym_name(g, s) : "_gerror");
        }
        return;
    case FX_EXPR_INIT_LIST:
        init_list(g, o, e, e->type);
        return;
    }
}

// --- statements ---

static void stmt(gen *g, buf *o, const fx_stmt *s, int depth);

// A constant expression in the sense of GLSL global initializers.
static bool constant_init(const fx_expr *e) {
    if (e->kind == FX_EXPR_INIT_LIST) {
        for (const fx_expr *a = e->args; a; a = a->next) {
            if (!constant_init(a)) {
                return false;
            }
        }
        return true;
    }
    fxgl_value v;
    // uintBitsToFloat (inf, NaN, denormals) is no constant to every compiler.
    return (e->type.quals & FX_Q_CONST) && foldable_type(e->type) && fx_check_eval(e, &v) &&
           !value_special(&v);
}

// A constant whatever GLSL makes of it (lists: every entry).
static bool folds(const fx_expr *e) {
    if (e->kind == FX_EXPR_INIT_LIST) {
        for (const fx_expr *a = e->args; a; a = a->next) {
            if (!folds(a)) {
                return false;
            }
        }
        return true;
    }
    fxgl_value v;
    return (e->type.quals & FX_Q_CONST) && foldable_type(e->type) && fx_check_eval(e, &v);
}

// The text of e, an expression a statement evaluates once before anything
// else of it. When e changes nothing but (at its top) one variable, deep
// parts of it become temporaries declared in o at depth first, in the order
// they complete, which keeps the order of evaluation: `a+a+...+a` with
// 15,000 terms turns into a few hundred declarations of 64 terms each.
static const char *stmt_expr(gen *g, buf *o, const fx_expr *e, int depth) {
    const fx_expr *value = e && e->kind == FX_EXPR_ASSIGN && !side_effects(e->lhs) ? e->rhs : e;
    if (!e || side_effects(value)) {
        return expr_str(g, e);
    }
    buf pre = newbuf(g);
    buf *outer = g->pre;
    int outer_depth = g->pre_depth, outer_level = g->level, outer_max = g->level_max;
    const fx_expr *guard0 = g->guard[0], *guard1 = g->guard[1];
    g->pre = &pre;
    g->pre_depth = depth;
    g->level = g->level_max = 0;
    g->guard[0] = g->guard[1] = NULL;
    const char *text = expr_str(g, e);
    g->pre = outer;
    g->pre_depth = outer_depth;
    g->level = outer_level;
    g->level_max = outer_max;
    g->guard[0] = guard0;
    g->guard[1] = guard1;
    if (pre.len) {
        bputn(o, pre.data, pre.len);
    }
    return text;
}

// Arrays each invocation keeps for itself. Direct3D 11 allows 4096
// indexable registers (an element takes one, a matrix one per row); beyond
// that GLSL drivers take minutes and gigabytes (llvmpipe: a 65536-element
// float4x4 array ran past 5 minutes and 3.7 GB), on the game's thread.
#define FX_GLSL_MAX_PRIVATE_REGISTERS 4096

static void private_array(gen *g, fx_pos loc, fx_type t, const char *name) {
    if (!fx_type_is_array(t)) {
        return;
    }
    fx_type el = fx_type_element(t);
    long regs = (long)t.array_len * (fx_type_is_matrix(el) ? el.rows : 1);
    if (regs > FX_GLSL_MAX_PRIVATE_REGISTERS) {
        gerror(g, loc, "array '%s' needs %ld registers per invocation (limit is %d, as in "
               "Direct3D 11)", name, regs, FX_GLSL_MAX_PRIVATE_REGISTERS);
    }
}

static void zero_value(gen *g, buf *o, fx_type t);

// Whether zero_value can spell a zero of t: numbers, bools, and arrays and
// structs of them (not textures, samplers or storages).
static bool zeroable(fx_type t) {
    if (fx_type_is_array(t)) {
        return zeroable(fx_type_element(t));
    }
    if (fx_type_is_struct(t)) {
        if (!t.strct) {
            return false;
        }
        for (const fx_var_decl *m = t.strct->members; m; m = m->next) {
            if (!zeroable(m->type)) {
                return false;
            }
        }
        return true;
    }
    return t.base == FX_TYPE_BOOL || is_int_base(t.base) || is_uint_base(t.base) ||
           is_float_base(t.base);
}

static void local_decl(gen *g, buf *o, const fx_var_decl *v, int depth) {
    const fx_symbol *s = v->sym;
    if (!s) {
        return;
    }
    private_array(g, v->loc, v->type, v->name->str);
    if (v->type.quals & FX_Q_STATIC) {
        // Static locals live as long as the invocation: a global. A constant
        // initializer is the global's (set at the start of main() when GLSL
        // cannot spell it as a constant: inf, NaN); any other is stored
        // where the declaration is, each time it runs, as the reference
        // does (it may name locals and parameters, which main() cannot see).
        const char *name = fx_sprintf(g->ctx, "_gs%d_%s", ++g->counter, escape(g, v->name->str));
        fx_grow(g->ctx, (void **)&g->statics, &g->static_cap, g->static_count + 1,
                sizeof(*g->statics), 1u << 20, "static locals");
        g->statics[g->static_count++] = (named){s, name};
        declarator(g, &g->static_decls, v->type, name);
        if (v->init && constant_init(v->init)) {
            bprintf(&g->static_decls, " = %s", expr_str(g, v->init));
        } else if (v->init && folds(v->init)) {
            bprintf(&g->static_inits, "    %s = %s;\n", name, expr_str(g, v->init));
        } else if (v->init) {
            indent(o, depth);
            bprintf(o, "%s = %s;\n", name, expr_str(g, v->init));
        }
        bput(&g->static_decls, ";\n");
        return;
    }
    const char *init = v->init ? stmt_expr(g, o, v->init, depth) : NULL;
    indent(o, depth);
    declarator(g, o, v->type, sym_name(g, s));
    if (init) {
        bprintf(o, " = %s", init);
    } else if (zeroable(v->type)) {
        // A local without an initializer reads zero in the reference (its
        // SPIR-V back end zero-fills variables, and D3D's compilers give
        // zero too); GLSL leaves it undefined, and drivers differ: an effect
        // that only adds to a local array reads garbage (GaussianBlurCS came
        // out black on llvmpipe GL). Every target says it.
        bput(o, " = ");
        zero_value(g, o, v->type);
    }
    bput(o, ";\n");
}

static void block_body(gen *g, buf *o, const fx_stmt *s, int depth) {
    if (s && s->kind == FX_STMT_BLOCK) {
        for (const fx_stmt *c = s->body; c; c = c->next) {
            stmt(g, o, c, depth);
        }
    } else if (s) {
        stmt(g, o, s, depth);
    }
}

static void braced(gen *g, buf *o, const fx_stmt *s, int depth) {
    bput(o, "{\n");
    block_body(g, o, s, depth + 1);
    indent(o, depth);
    bput(o, "}");
}

// Control-flow attributes where the compiler knows them (GL_EXT_control_flow_attributes).
static void attributes(gen *g, buf *o, const fx_stmt *s, int depth) {
    const char *spell = NULL;
    for (const fx_attribute *a = s->attrs; a; a = a->next) {
        const char *n = a->name ? a->name->str : "";
        if (strcmp(n, "unroll") == 0) {
            spell = "[[unroll]]";
        } else if (strcmp(n, "loop") == 0 || strcmp(n, "fastopt") == 0) {
            spell = "[[dont_unroll]]";
        } else if (strcmp(n, "flatten") == 0) {
            spell = "[[flatten]]";
        } else if (strcmp(n, "branch") == 0 || strcmp(n, "call") == 0) {
            spell = "[[dont_flatten]]";
        }
    }
    if (spell) {
        g->need_ctrl_attrs = true;
        bprintf(o, "\n#if defined(GL_EXT_control_flow_attributes)\n");
        indent(o, depth);
        bprintf(o, "%s\n#endif\n", spell);
        indent(o, depth);
    }
}

static void case_label(gen *g, buf *o, const fx_expr *v, fx_type sel) {
    fxgl_value val;
    if (fx_check_eval(v, &val)) {
        bput(o, "case ");
        put_component(o, &val, 0, sel.base);
        bput(o, ":");
    } else {
        bprintf(o, "case %s:", expr_str(g, v));
    }
}

static void stmt(gen *g, buf *o, const fx_stmt *s, int depth) {
    if (!s) {
        return;
    }
    switch ((fx_stmt_kind)s->kind) {
    case FX_STMT_ERROR:
    case FX_STMT_EMPTY:
        return;
    case FX_STMT_BLOCK:
        indent(o, depth);
        braced(g, o, s, depth);
        bput(o, "\n");
        return;
    case FX_STMT_EXPR: {
        const char *x = stmt_expr(g, o, s->expr, depth);
        indent(o, depth);
        bprintf(o, "%s;\n", x);
        return;
    }
    case FX_STMT_DECL:
        for (const fx_var_decl *v = s->decls; v; v = v->next) {
            local_decl(g, o, v, depth);
        }
        return;
    case FX_STMT_IF: {
        const char *x = stmt_expr(g, o, s->expr, depth);
        indent(o, depth);
        attributes(g, o, s, depth);
        bprintf(o, "if (%s) ", x);
        braced(g, o, s->body, depth);
        if (s->els) {
            bput(o, " else ");
            braced(g, o, s->els, depth);
        }
        bput(o, "\n");
        return;
    }
    case FX_STMT_SWITCH: {
        indent(o, depth);
        attributes(g, o, s, depth);
        bprintf(o, "switch (%s) {\n", expr_str(g, s->expr));
        for (const fx_stmt *c = s->body; c; c = c->next) {
            indent(o, depth);
            for (const fx_expr *v = c->expr; v; v = v->next) {
                case_label(g, o, v, s->expr->type);
                bput(o, " ");
            }
            if (c->has_default) {
                bput(o, "default:");
            }
            bput(o, " {\n");
            for (const fx_stmt *b = c->body; b; b = b->next) {
                stmt(g, o, b, depth + 1);
            }
            indent(o, depth);
            // GLSL wants a statement after the last label.
            bput(o, c->next ? "}\n" : "} break;\n");
        }
        indent(o, depth);
        bput(o, "}\n");
        return;
    }
    case FX_STMT_CASE:
        return;
    case FX_STMT_FOR: {
        indent(o, depth);
        bput(o, "{\n");
        if (s->init) {
            stmt(g, o, s->init, depth + 1);
        }
        indent(o, depth + 1);
        attributes(g, o, s, depth + 1);
        bprintf(o, "for (; %s; %s) ", s->expr ? expr_str(g, s->expr) : "",
                s->inc ? expr_str(g, s->inc) : "");
        braced(g, o, s->body, depth + 1);
        bput(o, "\n");
        indent(o, depth);
        bput(o, "}\n");
        return;
    }
    case FX_STMT_WHILE:
        indent(o, depth);
        attributes(g, o, s, depth);
        bprintf(o, "while (%s) ", expr_str(g, s->expr));
        braced(g, o, s->body, depth);
        bput(o, "\n");
        return;
    case FX_STMT_DO:
        indent(o, depth);
        attributes(g, o, s, depth);
        bput(o, "do ");
        braced(g, o, s->body, depth);
        bprintf(o, " while (%s);\n", expr_str(g, s->expr));
        return;
    case FX_STMT_BREAK:
        indent(o, depth);
        bput(o, "break;\n");
        return;
    case FX_STMT_CONTINUE:
        indent(o, depth);
        bput(o, "continue;\n");
        return;
    case FX_STMT_RETURN:
        if (s->expr) {
            const char *x = stmt_expr(g, o, s->expr, depth);
            indent(o, depth);
            bprintf(o, "return %s;\n", x);
        } else {
            indent(o, depth);
            bput(o, "return;\n");
        }
        return;
    case FX_STMT_DISCARD:
        indent(o, depth);
        // Only pixel shaders discard (the reference defines it away elsewhere).
        bput(o, g->stage == FXGL_STAGE_PIXEL ? "discard;\n" : ";\n");
        return;
    }
}

// --- what an entry point reaches ---

static bool contains(fx_symbol *const *list, size_t n, const fx_symbol *s) {
    for (size_t i = 0; i < n; i++) {
        if (list[i] == s) {
            return true;
        }
    }
    return false;
}

static void add_global(gen *g, fx_symbol *s);

// Globals and functions an initializer names.
static void init_uses(gen *g, const fx_expr *e) {
    if (!e) {
        return;
    }
    fx_symbol *s = fx_expr_sym(e);
    if (s && e->kind == FX_EXPR_NAME &&
        (s->kind == FX_SYM_UNIFORM || s->kind == FX_SYM_GLOBAL || s->kind == FX_SYM_CONSTANT ||
         s->kind == FX_SYM_SAMPLER || s->kind == FX_SYM_STORAGE)) {
        add_global(g, s);
    }
    if (s && e->kind == FX_EXPR_CALL && s->kind == FX_SYM_FUNCTION &&
        !contains(g->pending, g->pending_count, s)) {
        fx_grow(g->ctx, (void **)&g->pending, &g->pending_cap, g->pending_count + 1,
                sizeof(*g->pending), 1u << 24, "functions");
        g->pending[g->pending_count++] = s;
    }
    init_uses(g, fx_expr_cond(e));
    init_uses(g, fx_expr_lhs(e));
    init_uses(g, fx_expr_rhs(e));
    for (const fx_expr *a = fx_expr_args(e); a; a = a->next) {
        init_uses(g, a);
    }
}

static void add_global(gen *g, fx_symbol *s) {
    if (contains(g->globals, g->global_count, s)) {
        return;
    }
    fx_grow(g->ctx, (void **)&g->globals, &g->global_cap, g->global_count + 1,
            sizeof(*g->globals), 1u << 24, "globals");
    g->globals[g->global_count++] = s;
    if (s->var && s->var->init && s->kind != FX_SYM_UNIFORM) {
        init_uses(g, s->var->init);
    }
}

static void visit_function(void *user, fx_symbol *f) {
    gen *g = user;
    if (contains(g->funcs, g->func_count, f)) {
        return;
    }
    fx_grow(g->ctx, (void **)&g->funcs, &g->func_cap, g->func_count + 1, sizeof(*g->funcs),
            1u << 24, "functions");
    g->funcs[g->func_count++] = f;
    for (size_t i = 0; i < f->fn->global_count; i++) {
        add_global(g, f->fn->globals[i]);
    }
}

// Storage usage of the reached code, per storage index: 1 read, 2 write, 4
// atomic. Storage parameters are followed into the functions they are
// passed to (map: parameter -> storage index).
typedef struct pmap {
    const void *param;
    int index;
} pmap;

typedef struct usage {
    uint8_t *flags;
    size_t count;
    const pmap *map;
    size_t map_count;
    int depth;
} usage;

static void scan_stmt(usage *u, const fx_stmt *s);

static int storage_index(const usage *u, const fx_expr *a) {
    const fx_symbol *s = a ? fx_expr_sym(a) : NULL;
    if (!s || a->kind != FX_EXPR_NAME) {
        return -1;
    }
    if (s->kind == FX_SYM_STORAGE) {
        return s->index;
    }
    for (size_t i = 0; s->kind == FX_SYM_PARAM && i < u->map_count; i++) {
        if (u->map[i].param == s) {
            return u->map[i].index;
        }
    }
    return -1;
}

static void scan_expr(usage *u, const fx_expr *e) {
    if (!e) {
        return;
    }
    const fx_symbol *s = fx_expr_sym(e);
    if (e->kind == FX_EXPR_CALL && s && s->kind == FX_SYM_INTRINSIC && s->intrinsic) {
        int idx = storage_index(u, e->args);
        const char *t = s->intrinsic->glsl;
        if (idx >= 0 && (size_t)idx < u->count) {
            u->flags[idx] |= strncmp(t, "imageLoad", 9) == 0    ? 1
                             : strncmp(t, "imageStore", 10) == 0 ? 2
                             : strncmp(t, "imageAtomic", 11) == 0 ? 7
                                                                 : 0;
        }
    }
    if (e->kind == FX_EXPR_CALL && s && s->kind == FX_SYM_FUNCTION && s->func && u->depth < 64) {
        pmap map[FX_GLSL_MAX_SPEC_ARGS];
        size_t n = 0;
        const fx_var_decl *p = s->func->params;
        for (const fx_expr *a = e->args; a && p; a = a->next, p = p->next) {
            int idx = fx_type_is_storage(p->type) ? storage_index(u, a) : -1;
            if (idx >= 0 && n < FX_GLSL_MAX_SPEC_ARGS) {
                map[n++] = (pmap){p->sym, idx};
            }
        }
        if (n) {
            usage inner = *u;
            inner.map = map;
            inner.map_count = n;
            inner.depth = u->depth + 1;
            scan_stmt(&inner, s->func->body);
        }
    }
    scan_expr(u, fx_expr_cond(e));
    scan_expr(u, fx_expr_lhs(e));
    scan_expr(u, fx_expr_rhs(e));
    for (const fx_expr *a = fx_expr_args(e); a; a = a->next) {
        scan_expr(u, a);
    }
}

static void scan_stmt(usage *u, const fx_stmt *s) {
    for (; s; s = s->next) {
        if (s->kind != FX_STMT_CASE) {
            scan_expr(u, fx_stmt_expr(s)); // case labels are constants
        }
        scan_expr(u, fx_stmt_inc(s));
        for (const fx_var_decl *v = fx_stmt_decls(s); v; v = v->next) {
            scan_expr(u, v->init);
        }
        scan_stmt(u, fx_stmt_init(s));
        scan_stmt(u, fx_stmt_body(s));
        scan_stmt(u, fx_stmt_els(s));
    }
}

// --- the entry point's inputs and outputs ---

typedef struct io {
    buf decls;                   // varyings and outputs
    buf cdecls;                  // pixel stage: the same in the compute form (_gcompute)
    const char *store;           // pixel stage: the compute form's imageStore of target 0
    buf reads;                   // main(): inputs into the parameters
    buf writes;                  // main(): outputs from the parameters
    const char **declared;       // names declared in decls
    size_t declared_count, declared_cap;
    const char **exact;          // pixel stage: varyings read under #ifdef _gx_<SEMANTIC>
    size_t exact_count, exact_cap;
    fxgl_varying *varyings;      // the stage's varyings (locations assigned at the end)
    size_t varying_count, varying_cap;
} io;

// The location of varying name: its index in the effect's list, appended
// when new (vertex shaders go first, so a pixel shader finds its inputs).
static int varying_location(gen *g, const char *name) {
    for (size_t i = 0; i < g->location_count; i++) {
        if (strcmp(g->locations[i], name) == 0) {
            return (int)i;
        }
    }
    fx_grow(g->ctx, (void **)&g->locations, &g->location_cap, g->location_count + 1,
            sizeof(*g->locations), 1u << 16, "varyings");
    g->locations[g->location_count] = fx_strdup(g->ctx, name);
    return (int)g->location_count++;
}

static bool declare_once(gen *g, io *x, const char *name) {
    for (size_t i = 0; i < x->declared_count; i++) {
        if (strcmp(x->declared[i], name) == 0) {
            return false;
        }
    }
    fx_grow(g->ctx, (void **)&x->declared, &x->declared_cap, x->declared_count + 1,
            sizeof(*x->declared), 1u << 20, "varyings");
    x->declared[x->declared_count++] = name;
    return true;
}

// A built-in variable for a semantic, with its GLSL type; NULL when none.
static const char *builtin(const gen *g, const char *sem, bool in, fx_type *type) {
    *type = fx_type_vector(FX_TYPE_FLOAT, 4);
    bool position = strcmp(sem, "SV_POSITION") == 0 || strcmp(sem, "POSITION0") == 0 ||
                    strcmp(sem, "VPOS0") == 0;
    switch (g->stage) {
    case FXGL_STAGE_VERTEX:
        if (in && strcmp(sem, "SV_VERTEXID") == 0) {
            *type = fx_type_scalar(FX_TYPE_INT);
            return g->vulkan ? "gl_VertexIndex" : "gl_VertexID";
        }
        if (in && strcmp(sem, "SV_INSTANCEID") == 0) {
            *type = fx_type_scalar(FX_TYPE_INT);
            return g->vulkan ? "gl_InstanceIndex" : "gl_InstanceID";
        }
        if (!in && position) {
            return "gl_Position";
        }
        if (!in && (strcmp(sem, "PSIZE0") == 0 || strcmp(sem, "SV_POINTSIZE") == 0)) {
            *type = fx_type_scalar(FX_TYPE_FLOAT);
            return "gl_PointSize";
        }
        return NULL;
    case FXGL_STAGE_PIXEL:
        if (in && position) {
            // D3D's SV_Position.w is the clip w; GL's gl_FragCoord.w is 1/w.
            // _fxgl_flip (header) is (1, height) while the runtime draws the
            // pass upside down into the program's framebuffer, else (0, 0).
            // _gfragcoord is gl_FragCoord, or the compute form's pixel centre.
            return "vec4(_gfragcoord.x, _fxgl_flip.x != 0.0 ? _fxgl_flip.y - _gfragcoord.y "
                   ": _gfragcoord.y, _gfragcoord.z, 1.0 / _gfragcoord.w)";
        }
        if (in && strcmp(sem, "SV_ISFRONTFACE") == 0) {
            *type = fx_type_scalar(FX_TYPE_BOOL);
            return "gl_FrontFacing";
        }
        if (in && strcmp(sem, "VFACE0") == 0) {
            *type = fx_type_scalar(FX_TYPE_FLOAT);
            return "(gl_FrontFacing ? 1.0 : -1.0)";
        }
        if (!in && (strcmp(sem, "SV_DEPTH") == 0 || strcmp(sem, "DEPTH0") == 0)) {
            *type = fx_type_scalar(FX_TYPE_FLOAT);
            return "gl_FragDepth";
        }
        return NULL;
    case FXGL_STAGE_COMPUTE:
        *type = fx_type_vector(FX_TYPE_UINT, 3);
        if (strcmp(sem, "SV_DISPATCHTHREADID") == 0) {
            return "gl_GlobalInvocationID";
        }
        if (strcmp(sem, "SV_GROUPTHREADID") == 0) {
            return "gl_LocalInvocationID";
        }
        if (strcmp(sem, "SV_GROUPID") == 0) {
            return "gl_WorkGroupID";
        }
        if (strcmp(sem, "SV_GROUPINDEX") == 0) {
            *type = fx_type_scalar(FX_TYPE_UINT);
            return "gl_LocalInvocationIndex";
        }
        return NULL;
    }
    return NULL;
}

// "TEXCOORD3" -> base "TEXCOORD", 3; "SV_TARGET" -> "SV_TARGET", 0.
static const char *split_semantic(gen *g, const char *sem, int *index) {
    size_t n = strlen(sem);
    while (n && isdigit((unsigned char)sem[n - 1])) {
        n--;
    }
    *index = sem[n] ? atoi(sem + n) : 0;
    return fx_strndup(g->ctx, sem, n);
}

// False when the pixel shader being generated runs only in passes whose
// vertex shader does not write varying name (true when any of them does,
// or when it is unknown).
static bool vertex_stages_write(const gen *g, const char *name) {
    if (!g->vs_outs) {
        return true;
    }
    ptrdiff_t self = g->sh - g->fx->shaders;
    bool paired = false;
    for (size_t t = 0; t < g->fx->technique_count; t++) {
        const fxgl_technique *tech = &g->fx->techniques[t];
        for (size_t p = 0; p < tech->pass_count; p++) {
            const fxgl_pass *pass = &tech->passes[p];
            if (pass->pixel_shader != self || pass->vertex_shader < 0 ||
                (size_t)pass->vertex_shader >= g->fx->shader_count) {
                continue;
            }
            paired = true;
            size_t vs = (size_t)pass->vertex_shader;
            for (size_t i = 0; i < g->vs_out_counts[vs]; i++) {
                if (strcmp(g->vs_outs[vs][i], name) == 0) {
                    return true;
                }
            }
        }
    }
    return !paired;
}

// One numeric value (scalar or vector, not a matrix) of the interface.
static void io_leaf(gen *g, io *x, fx_type t, const char *path, const char *base, int index,
                    uint16_t quals, bool in, bool out) {
    const char *sem = fx_sprintf(g->ctx, "%s%d", base, index);
    const char *canon = index == 0 && strncmp(base, "SV_", 3) == 0 ? base : sem;
    fx_type bt;
    for (int dir = 0; dir < 2; dir++) {
        bool is_in = dir == 0;
        if ((is_in && !in) || (!is_in && !out)) {
            continue;
        }
        const char *b = builtin(g, canon, is_in, &bt);
        if (!b && strcmp(canon, sem) != 0) {
            b = builtin(g, sem, is_in, &bt);
        }
        if (b) {
            if (is_in) {
                bprintf(&x->reads, "    %s = %s;\n", path, convert_str(g, bt, t, b));
            } else if (fx_type_is_vector(t) && t.rows < bt.rows) {
                // vec4(v2) is no GLSL: a short position gets z = 0, w = 1.
                static const char *const pad[] = {"", "", ", 0.0, 1.0", ", 1.0"};
                fx_type ft = float_shape(t);
                bprintf(&x->writes, "    %s = %s(%s%s);\n", b, type_name(g, bt),
                        convert_str(g, t, ft, path), pad[t.rows]);
            } else {
                bprintf(&x->writes, "    %s = %s;\n", b, convert_str(g, t, bt, path));
            }
            continue;
        }
        if (g->stage == FXGL_STAGE_PIXEL && !is_in &&
            (strcmp(base, "SV_TARGET") == 0 || strcmp(base, "COLOR") == 0)) {
            // Render target outputs; bool has no output type.
            fx_type ot = t.base == FX_TYPE_BOOL ? float_shape(t) : t;
            ot.quals = 0;
            const char *name = fx_sprintf(g->ctx, "_gtarget%d", index);
            if (index >= 0 && index < 8) {
                g->sh->target_components[index] = (uint8_t)fx_type_components(ot);
            }
            if (declare_once(g, x, name)) {
                bprintf(&x->decls, "layout(location = %d) out %s %s;\n", index,
                        type_name(g, ot), name);
                bprintf(&x->cdecls, "%s %s;\n", type_name(g, ot), name);
                if (index == 0) {
                    // The compute form stores target 0 into an image of the
                    // format the runtime defines _gcompute as; the components
                    // a shader does not write are zero (the runtime keeps such
                    // passes fragment where the target has those channels).
                    uint8_t ob = is_int_base(ot.base)    ? FX_TYPE_INT
                                 : is_uint_base(ot.base) ? FX_TYPE_UINT
                                                         : FX_TYPE_FLOAT;
                    const char *prefix = ob == FX_TYPE_INT    ? "i"
                                         : ob == FX_TYPE_UINT ? "u"
                                                              : "";
                    const char *zero = ob == FX_TYPE_FLOAT ? "0.0"
                                       : ob == FX_TYPE_INT ? "0"
                                                           : "0u";
                    bprintf(&x->cdecls,
                            "layout(binding = 0, _gcompute) writeonly uniform highp %simage2D "
                            "_gcs_target;\n",
                            prefix);
                    int n = fx_type_components(ot);
                    fx_type part = fx_type_vector(ob, n);
                    buf st = newbuf(g);
                    // A NaN stored into a normalized format (_gcs_unorm) is 0, as
                    // a fragment output becomes (D3D's rule; an image store's
                    // conversion of NaN is undefined, llvmpipe gives 1).
                    bprintf(&st, "    %svec4 _gcs_v = %svec4(%s", prefix, prefix,
                            convert_str(g, ot, part, name));
                    for (int k = n; k < 4; k++) {
                        bprintf(&st, ", %s", zero);
                    }
                    bput(&st, ");\n");
                    if (ob == FX_TYPE_FLOAT) {
                        bput(&st, "#ifdef _gcs_unorm\n"
                                  "    for (int _gcs_i = 0; _gcs_i < 4; _gcs_i++) {\n"
                                  "        _gcs_v[_gcs_i] = isnan(_gcs_v[_gcs_i]) ? 0.0 "
                                  ": _gcs_v[_gcs_i];\n"
                                  "    }\n"
                                  "#endif\n");
                    }
                    bput(&st, "    imageStore(_gcs_target, _gcs_p, _gcs_v);\n");
                    x->store = bstr(&st);
                }
            }
            bprintf(&x->writes, "    %s = %s;\n", name, convert_str(g, t, ot, path));
            continue;
        }
        bool varying = (g->stage == FXGL_STAGE_VERTEX && !is_in) ||
                       (g->stage == FXGL_STAGE_PIXEL && is_in);
        if (!varying) {
            if (is_in) {
                // No vertex attributes, and compute has no other inputs.
                bprintf(&x->reads, "    %s = %s;\n", path,
                        convert_str(g, fx_type_scalar(FX_TYPE_INT), t, "0"));
            }
            continue;
        }
        // Varyings are 4-vectors named by the semantic alone, so that any
        // vertex shader links with any pixel shader reading a prefix of it.
        uint8_t sb = is_int_base(t.base) ? FX_TYPE_INT : is_uint_base(t.base) ? FX_TYPE_UINT
                                                                              : FX_TYPE_FLOAT;
        fx_type slot = fx_type_vector(sb, 4);
        const char *name = fx_sprintf(g->ctx, "_v_%s", sem);
        bool written = !is_in || vertex_stages_write(g, name);
        if (!written) {
            // No vertex shader it runs with writes it: GL would refuse to
            // link; it reads zero (what D3D's unwritten registers give).
            if (declare_once(g, x, name)) {
                bprintf(&x->decls, "%s %s = %s(0);\n", type_name(g, slot), name,
                        type_name(g, slot));
                bprintf(&x->cdecls, "%s %s = %s(0);\n", type_name(g, slot), name,
                        type_name(g, slot));
            }
        } else if (declare_once(g, x, name)) {
            // The compute form has no interpolation: only an interpolated
            // float varying the runtime proved a function of the pixel
            // position (_gx_<SEMANTIC>, each component x, y or zero) exists
            // there; reading any other varying does not compile, which keeps
            // its pass fragment.
            if (is_in && sb == FX_TYPE_FLOAT && !(quals & FX_Q_NOINTERPOLATION)) {
                bprintf(&x->cdecls, "#ifdef _gx_%s\nhighp %s %s = %s(0.0);\n#endif\n", sem,
                        type_name(g, slot), name, type_name(g, slot));
            }
            const char *interp = "";
            if (sb != FX_TYPE_FLOAT || (quals & FX_Q_NOINTERPOLATION)) {
                interp = "flat ";
            } else if ((quals & FX_Q_NOPERSPECTIVE) && !g->es) {
                interp = "noperspective ";
            } else if (quals & FX_Q_CENTROID) {
                interp = "centroid ";
            }
            int location = varying_location(g, name);
            fx_grow(g->ctx, (void **)&x->varyings, &x->varying_cap, x->varying_count + 1,
                    sizeof(*x->varyings), 1u << 16, "varyings");
            x->varyings[x->varying_count++] = (fxgl_varying){
                .name = name, .location = location, .flat = interp[0] == 'f'};
            if (g->vulkan) {
                bprintf(&x->decls, "layout(location = %d) ", location);
            }
            bprintf(&x->decls, "%s%s %s %s;\n", interp, is_in ? "in" : "out",
                    type_name(g, slot), name);
        }
        int n = fx_type_components(t);
        fx_type part = fx_type_vector(sb, n);
        if (is_in) {
            static const char *const sw[] = {"", ".x", ".xy", ".xyz", ""};
            // An interpolated float varying may be replaced by its exact
            // value where the runtime proved it a function of the pixel
            // position (fxgl_shader.exact_varyings).
            bool exact = sb == FX_TYPE_FLOAT && !(quals & FX_Q_NOINTERPOLATION) &&
                         vertex_stages_write(g, name);
            if (exact) {
                bool listed = false;
                for (size_t i = 0; i < x->exact_count && !listed; i++) {
                    listed = strcmp(x->exact[i], name) == 0;
                }
                if (!listed) {
                    fx_grow(g->ctx, (void **)&x->exact, &x->exact_cap, x->exact_count + 1,
                            sizeof(*x->exact), 1u << 20, "varyings");
                    x->exact[x->exact_count++] = name;
                }
                bprintf(&x->reads, "#ifdef _gx_%s\n    %s = %s;\n#else\n", sem, path,
                        convert_str(g, part, t,
                                    fx_sprintf(g->ctx, "_gexact(%s, _gx_%s)%s", name, sem,
                                               sw[n])));
            }
            bprintf(&x->reads, "    %s = %s;\n", path,
                    convert_str(g, part, t, fx_sprintf(g->ctx, "%s%s", name, sw[n])));
            if (exact) {
                bput(&x->reads, "#endif\n");
            }
        } else {
            const char *zero = sb == FX_TYPE_FLOAT ? "0.0" : sb == FX_TYPE_INT ? "0" : "0u";
            bprintf(&x->writes, "    %s = %s(%s", name, type_name(g, slot),
                    convert_str(g, t, part, path));
            for (int i = n; i < 4; i++) {
                bprintf(&x->writes, ", %s", zero);
            }
            bput(&x->writes, ");\n");
        }
    }
}

// A parameter or return value, flattened: struct members, array elements
// and matrix rows each take their own semantic index.
static void io_value(gen *g, io *x, fx_type t, const char *path, const fx_ident *semantic,
                     int offset, uint16_t quals, bool in, bool out, fx_pos loc) {
    if (fx_type_is_struct(t) && !fx_type_is_array(t)) {
        if (!t.strct) {
            return;
        }
        for (const fx_var_decl *m = t.strct->members; m; m = m->next) {
            io_value(g, x, m->type, fx_sprintf(g->ctx, "%s.%s", path, escape(g, m->name->str)),
                     m->semantic, 0, quals | m->type.quals, in, out, m->loc);
        }
        return;
    }
    if (!semantic) {
        gerror(g, loc, "'%s': entry point parameter or return value without a semantic", path);
        return;
    }
    int index;
    const char *base = split_semantic(g, fx_check_semantic(g->ctx, semantic->str), &index);
    if (fx_type_is_array(t)) {
        fx_type el = fx_type_element(t);
        int step = glsl_matrix(el) ? el.rows : 1;
        for (int i = 0; i < t.array_len; i++) {
            io_value(g, x, el, fx_sprintf(g->ctx, "%s[%d]", path, i), semantic,
                     offset + i * step, quals, in, out, loc);
        }
        return;
    }
    if (glsl_matrix(t)) {
        fx_type row = fx_type_vector(FX_TYPE_FLOAT, t.cols);
        for (int r = 0; r < t.rows; r++) {
            io_leaf(g, x, row, fx_sprintf(g->ctx, "%s[%d]", path, r), base, index + offset + r,
                    quals, in, out);
        }
        return;
    }
    if (!fx_type_is_numeric(t)) {
        gerror(g, loc, "'%s': entry point values must be numeric", path);
        return;
    }
    io_leaf(g, x, t, path, base, index + offset, quals, in, out);
}

// --- declarations ---

static const char *storage_format(fxgl_format f) {
    switch (f) {
    case FXGL_FORMAT_R8:
        return "r8";
    case FXGL_FORMAT_R16:
        return "r16";
    case FXGL_FORMAT_R16F:
        return "r16f";
    case FXGL_FORMAT_R32I:
        return "r32i";
    case FXGL_FORMAT_R32U:
        return "r32ui";
    case FXGL_FORMAT_R32F:
        return "r32f";
    case FXGL_FORMAT_RG8:
        return "rg8";
    case FXGL_FORMAT_RG16:
        return "rg16";
    case FXGL_FORMAT_RG16F:
        return "rg16f";
    case FXGL_FORMAT_RG32F:
        return "rg32f";
    case FXGL_FORMAT_RGBA8:
        return "rgba8";
    case FXGL_FORMAT_RGBA16:
        return "rgba16";
    case FXGL_FORMAT_RGBA16F:
        return "rgba16f";
    case FXGL_FORMAT_RGBA32I:
        return "rgba32i";
    case FXGL_FORMAT_RGBA32U:
        return "rgba32ui";
    case FXGL_FORMAT_RGBA32F:
        return "rgba32f";
    case FXGL_FORMAT_RGB10A2:
        return "rgb10_a2";
    case FXGL_FORMAT_RG11B10F:
        // Not the reference's defect (an assertion): GLSL has the format.
        return "r11f_g11f_b10f";
    default:
        return NULL;
    }
}

static bool es_image_format(fxgl_format f) {
    return f != FXGL_FORMAT_UNKNOWN && fxgl_es_storage_format(f) == f;
}

// GLSL ES 3.1 stores only the formats above. GL_NV_image_formats adds the
// others; without it, the formats that a wider one holds exactly live in that
// one (the runtime allocates the texture so, with a texture swizzle giving
// the missing channels 0, 0, 1 to samplers), and loads give the missing
// channels those values too. The rest have no faithful stand-in: 16-bit
// UNORM and 10-bit channels would lose their clamping and rounding when
// rendered to. The runtime makes the same choice (fxgl_es_storage_format).
static const char *es_fallback_format(fxgl_format f) {
    switch (fxgl_es_storage_format(f)) {
    case FXGL_FORMAT_RGBA8:
        return "rgba8";
    case FXGL_FORMAT_RGBA16F:
        return "rgba16f";
    case FXGL_FORMAT_RGBA32F:
        return "rgba32f";
    default:
        return NULL;
    }
}

// The storage object behind a storage argument (a global storage, or a
// parameter of a specialization standing for one); -1 otherwise.
static int storage_object(gen *g, const fx_expr *a) {
    const fx_symbol *s = fx_expr_sym(a);
    if (s && s->kind == FX_SYM_PARAM) {
        const char *name = sym_name(g, s);
        s = NULL;
        for (size_t i = 0; i < g->prog->global_count; i++) {
            const fx_symbol *gs = g->prog->globals[i];
            if (gs->kind == FX_SYM_STORAGE && strcmp(sym_name(g, gs), name) == 0) {
                s = gs;
                break;
            }
        }
    }
    if (!s || s->kind != FX_SYM_STORAGE || s->index < 0 ||
        (size_t)s->index >= g->fx->storage_count) {
        return -1;
    }
    return s->index;
}

static fxgl_format storage_texture_format(gen *g, const fx_expr *a) {
    int i = storage_object(g, a);
    return i < 0 ? FXGL_FORMAT_UNKNOWN : g->fx->textures[g->fx->storages[i].texture].format;
}

// The read-only twin of a storage that the shader reads and writes in GLSL
// ES (storages() declares it), NULL when there is none.
static const char *storage_reader(gen *g, const fx_expr *a) {
    int obj = storage_object(g, a);
    for (size_t i = 0; obj >= 0 && i < g->sh->storage_count; i++) {
        const fxgl_binding *b = &g->sh->storages[i];
        if (b->object == obj && b->name && strncmp(b->name, "_gr", 3) == 0) {
            return b->name;
        }
    }
    return NULL;
}

static fx_symbol *object_symbol(gen *g, fx_sym_kind kind, int index) {
    for (size_t i = 0; i < g->prog->global_count; i++) {
        fx_symbol *s = g->prog->globals[i];
        if (s->kind == kind && s->index == index) {
            return s;
        }
    }
    return NULL;
}

static bool has_binding(const gen *g) {
    return !g->es || g->version >= 310;
}

// "set = 0, " where Vulkan wants descriptor sets named.
static const char *set_prefix(const gen *g) {
    return g->vulkan ? "set = 0, " : "";
}

static void samplers(gen *g, buf *o) {
    fxgl_binding *list = (fxgl_binding *)g->sh->samplers;
    for (size_t i = 0; i < g->sh->sampler_count; i++) {
        fx_symbol *s = object_symbol(g, FX_SYM_SAMPLER, list[i].object);
        if (!s) {
            continue;
        }
        const fxgl_sampler *sm = &g->fx->samplers[list[i].object];
        const char *name = sym_name(g, s);
        list[i].name = fx_strdup(g->ectx, name);
        if (g->es && g->version < 320 &&
            (sm->address_u == FXGL_ADDRESS_BORDER || sm->address_v == FXGL_ADDRESS_BORDER ||
             sm->address_w == FXGL_ADDRESS_BORDER)) {
            gerror(g, s->loc, "'%s': BORDER addressing (clamp to border) needs GLSL ES 3.20, "
                   "not %s", s->unique, target_name(g));
        }
        // Vertex stages declare no binding: a sampler both stages of a pass
        // use would get two different compact units, which does not link.
        // Vulkan has no binding by name: there every shader of the effect
        // uses the effect-wide binding of the sampler.
        if (g->vulkan) {
            list[i].unit = FXGL_VK_SAMPLER_BINDING(list[i].object);
            bprintf(o, "layout(set = 0, binding = %d) ", list[i].unit);
        } else if (has_binding(g) && g->stage != FXGL_STAGE_VERTEX) {
            bprintf(o, "layout(binding = %d) ", list[i].unit);
        }
        bprintf(o, "uniform %s %s;\n", type_name(g, s->type), name);
    }
}

// One image declaration (two where a storage is read and written in GLSL
// ES: see storages()).
static void image_decl(gen *g, buf *o, const fxgl_binding *b, const fxgl_binding *rd,
                       const char *fmt, const char *access, const char *type) {
    if (rd) {
        bprintf(o, "layout(binding = %d, %s) uniform coherent writeonly %s %s;\n", b->unit, fmt,
                type, b->name);
        bprintf(o, "layout(binding = %d, %s) uniform coherent readonly %s %s;\n", rd->unit, fmt,
                type, rd->name);
    } else {
        bprintf(o, "layout(%sbinding = %d, %s) uniform %s%s %s;\n", set_prefix(g), b->unit, fmt,
                access, type, b->name);
    }
}

static void storages(gen *g, buf *o, const usage *u) {
    fxgl_binding *list = (fxgl_binding *)g->sh->storages;
    size_t count = g->sh->storage_count;
    // GLSL ES lets only R32* images be read and written through one
    // variable: a storage that is both gets a second, read-only variable on
    // another image unit bound to the same texture (the runtime binds what
    // the list says). Both are coherent; unqualified by restrict, GLSL
    // treats them as aliases, so the invocation's order is kept.
    size_t split = 0;
    int next_unit = 0;
    for (size_t i = 0; i < count; i++) {
        next_unit = list[i].unit >= next_unit ? list[i].unit + 1 : next_unit;
        fxgl_format f = list[i].object >= 0 && (size_t)list[i].object < g->fx->storage_count
                            ? g->fx->textures[g->fx->storages[list[i].object].texture].format
                            : FXGL_FORMAT_UNKNOWN;
        uint8_t use = (size_t)list[i].object < u->count ? u->flags[list[i].object] : 0;
        bool r32 = f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_R32U || f == FXGL_FORMAT_R32F;
        split += g->es && !r32 && (use & 3) == 3 && !(use & 4);
    }
    if (split) {
        fxgl_binding *grown = fx_alloc(g->ectx, (count + split) * sizeof(*grown));
        memcpy(grown, list, count * sizeof(*grown));
        list = grown;
        g->sh->storages = grown;
    }
    size_t extra = count;
    for (size_t i = 0; i < count; i++) {
        fx_symbol *s = object_symbol(g, FX_SYM_STORAGE, list[i].object);
        if (!s) {
            continue;
        }
        const fxgl_storage *st = &g->fx->storages[list[i].object];
        fxgl_format f = g->fx->textures[st->texture].format;
        if (g->vulkan) {
            list[i].unit = FXGL_VK_STORAGE_BINDING(g->fx, list[i].object);
        }
        const char *fmt = storage_format(f);
        const char *name = sym_name(g, s);
        list[i].name = fx_strdup(g->ectx, name);
        uint8_t use = (size_t)list[i].object < u->count ? u->flags[list[i].object] : 0;
        bool r32 = f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_R32U || f == FXGL_FORMAT_R32F;
        if (!fmt) {
            gerror(g, s->loc, "'%s': the texture's format cannot be used for storage", s->unique);
            continue;
        }
        if ((use & 4) && f != FXGL_FORMAT_R32I && f != FXGL_FORMAT_R32U) {
            gerror(g, s->loc, "'%s': atomic operations need an R32I or R32U texture",
                   s->unique);
        }
        if (g->version == 300) {
            gerror(g, s->loc, "'%s': storage objects need compute shaders, which %s lacks",
                   s->unique, target_name(g));
        }
        const char *access = "";
        const fxgl_binding *rd = NULL;
        bool extended = g->es && !es_image_format(f);
        if (g->es && !r32) {
            if ((use & 3) == 3 && !(use & 4) && extra < count + split) {
                fxgl_binding *r = &list[extra++];
                *r = (fxgl_binding){.object = list[i].object, .unit = next_unit++,
                                    .name = fx_sprintf(g->ectx, "_gr%s", name)};
                rd = r;
            }
            access = (use & 1) ? "readonly " : "writeonly ";
        }
        const char *type = type_name(g, s->type);
        if (!extended) {
            image_decl(g, o, &list[i], rd, fmt, access, type);
            continue;
        }
        g->need_image_formats = true;
        const char *fallback = es_fallback_format(f);
        bput(o, "#ifdef _gimage_formats\n");
        image_decl(g, o, &list[i], rd, fmt, access, type);
        bput(o, "#else\n");
        if (fallback) {
            image_decl(g, o, &list[i], rd, fallback, access, type);
        } else {
            bprintf(o, "#error storage '%s': format %s needs GL_NV_image_formats\n", s->unique,
                    fmt);
        }
        bput(o, "#endif\n");
    }
    g->sh->storage_count = extra;
}

static uint32_t round_up(uint32_t v, uint32_t a) {
    return a ? (v + a - 1) / a * a : v;
}

// The uniform block (members at the module's offsets; padding where
// performance mode took a uniform out) and performance-mode constants.
static bool uniforms(gen *g, buf *o, buf *consts) {
    buf members = newbuf(g);
    uint32_t cur = 0;
    int pad = 0;
    bool any = false;
    for (size_t i = 0; i < g->prog->global_count; i++) {
        const fx_symbol *s = g->prog->globals[i];
        if (s->kind != FX_SYM_UNIFORM || s->index < 0 || (size_t)s->index >= g->fx->uniform_count) {
            continue;
        }
        const fxgl_uniform *u = &g->fx->uniforms[s->index];
        const char *name = sym_name(g, s);
        // Special uniforms (timers, keys) change every frame: they stay.
        if (g->opt->performance_mode && u->has_initializer && !fx_type_is_array(s->type) &&
            u->special == FXGL_SPECIAL_NONE) {
            fxgl_value v = u->initializer;
            if (g->opt->uniform_value) {
                fxgl_value w = v;
                if (g->opt->uniform_value(g->opt->user, u->name, &w)) {
                    v = w;
                }
            }
            bprintf(consts, "const %s %s = ", type_name(g, s->type), name);
            put_value(g, consts, &v, s->type);
            bput(consts, ";\n");
            continue;
        }
        uint32_t natural = round_up(cur, fx_type_std140_align(s->type));
        while (natural < u->offset) {
            bprintf(&members, "    float _gpad%d;\n", pad++);
            cur += 4;
            natural = round_up(cur, fx_type_std140_align(s->type));
        }
        bput(&members, "    ");
        if (integer_matrix_uniform(g, s)) {
            bprintf(&members, "%svec%d %s[%d];\n", is_int_base(s->type.base) ? "i" : "u",
                    s->type.cols, name, s->type.rows);
        } else {
            declarator(g, &members, s->type, name);
            bput(&members, ";\n");
        }
        cur = u->offset + fx_type_std140_size(s->type);
        any = true;
    }
    if (!any) {
        return false;
    }
    bprintf(o, "layout(std140, column_major%s%s) uniform %s {\n%s};\n",
            g->vulkan ? ", set = 0" : "", has_binding(g) ? ", binding = 0" : "",
            FXGL_GLSL_UNIFORM_BLOCK, bstr(&members));
    return true;
}

static void structs(gen *g, buf *o, const fx_decl *d) {
    for (; d; d = d->next) {
        if (d->kind == FX_DECL_NAMESPACE) {
            structs(g, o, d->items);
        } else if (d->kind == FX_DECL_STRUCT && d->strct && d->strct->sym) {
            bprintf(o, "struct %s {\n", sym_name(g, d->strct->sym));
            if (!d->strct->members) {
                bput(o, "    float _gdummy;\n"); // GLSL has no empty structs
            }
            for (const fx_var_decl *m = d->strct->members; m; m = m->next) {
                bput(o, "    ");
                declarator(g, o, m->type, escape(g, m->name->str));
                bput(o, ";\n");
            }
            bput(o, "};\n");
        }
    }
}

static void globals(gen *g, buf *o, buf *inits) {
    for (size_t i = 0; i < g->prog->global_count; i++) {
        fx_symbol *s = g->prog->globals[i];
        if (!contains(g->globals, g->global_count, s)) {
            continue;
        }
        const char *name = sym_name(g, s);
        const fx_expr *init = s->var ? s->var->init : NULL;
        if (s->kind == FX_SYM_CONSTANT && s->value) {
            // uintBitsToFloat is no constant expression to every compiler:
            // constants with inf, NaN or denormals are set at the start of main().
            int count = fx_type_is_array(s->type) ? s->type.array_len : 1;
            bool special = false;
            for (int k = 0; k < count; k++) {
                special |= value_special(&s->value[k]);
            }
            buf *b = o;
            if (special) {
                declarator(g, o, s->type, name);
                bput(o, ";\n");
                bprintf(inits, "    %s = ", name);
                o = inits;
            } else {
                bprintf(o, "const ");
                declarator(g, o, s->type, name);
                bput(o, " = ");
            }
            if (fx_type_is_array(s->type)) {
                fx_type el = fx_type_element(s->type);
                bprintf(o, "%s[%d](", type_name(g, el), s->type.array_len);
                for (int k = 0; k < s->type.array_len; k++) {
                    if (k) {
                        bput(o, ", ");
                    }
                    put_value(g, o, &s->value[k], el);
                }
                bput(o, ")");
            } else {
                put_value(g, o, s->value, s->type);
            }
            bput(o, ";\n");
            o = b;
        } else if (s->kind == FX_SYM_CONSTANT || s->kind == FX_SYM_GLOBAL) {
            bool shared = (s->type.quals & FX_Q_GROUPSHARED) != 0;
            if (shared && g->stage == FXGL_STAGE_COMPUTE) {
                bput(o, "shared ");
            } else if (s->var) {
                private_array(g, s->var->loc, s->type, s->var->name->str);
            }
            declarator(g, o, s->type, name);
            if (init && !shared) {
                if (constant_init(init)) {
                    bprintf(o, " = %s", expr_str(g, init));
                } else {
                    bprintf(inits, "    %s = %s;\n", name, expr_str(g, init));
                }
            }
            bput(o, ";\n");
        }
    }
}

// A zero of type t. The entry point's out parameters start as one, as
// they do in the reference's SPIR-V back end, which zero-fills variables:
// an effect that only adds to an out parameter relies on it.
static void zero_value(gen *g, buf *o, fx_type t) {
    if (fx_type_is_array(t)) {
        fx_type el = fx_type_element(t);
        bprintf(o, "%s[%d](", type_name(g, el), t.array_len);
        for (int i = 0; i < t.array_len; i++) {
            bput(o, i ? ", " : "");
            zero_value(g, o, el);
        }
        bput(o, ")");
    } else if (fx_type_is_struct(t) && t.strct) {
        bprintf(o, "%s(", type_name(g, t));
        for (const fx_var_decl *m = t.strct->members; m; m = m->next) {
            zero_value(g, o, m->type);
            bput(o, m->next ? ", " : "");
        }
        bput(o, ")");
    } else if (glsl_matrix(t) || is_float_base(t.base)) {
        bprintf(o, "%s(0.0)", type_name(g, t));
    } else if (t.base == FX_TYPE_BOOL) {
        bprintf(o, "%s(false)", type_name(g, t));
    } else if (is_uint_base(t.base)) {
        bprintf(o, "%s(0u)", type_name(g, t));
    } else {
        bprintf(o, "%s(0)", type_name(g, t));
    }
}

static void function_head(gen *g, buf *o, const fx_symbol *f, const char *name) {
    const fx_func_decl *fd = f->func;
    bprintf(o, "%s %s(", full_type_name(g, f->type), name ? name : sym_name(g, f));
    bool first = true;
    for (const fx_var_decl *p = fd->params; p; p = p->next) {
        uint16_t q = p->type.quals;
        if (fx_type_is_storage(p->type)) {
            continue; // specialized: the body names the global
        }
        if (!first) {
            bput(o, ", ");
        }
        first = false;
        // The entry point's out parameters are inout: main() passes them
        // zeroed (GLSL out parameters start undefined in the callee).
        if ((q & FX_Q_INOUT) == FX_Q_INOUT || ((q & FX_Q_OUT) && f == g->entry)) {
            bput(o, "inout ");
        } else if (q & FX_Q_OUT) {
            bput(o, "out ");
        }
        declarator(g, o, p->type, p->sym ? sym_name(g, p->sym) : escape(g, p->name->str));
    }
    bput(o, ")");
}

// --- one shader ---

// The entry function of shader sh: the symbol a pass state names.
static fx_symbol *entry_symbol(gen *g, const fxgl_shader *sh) {
    static const char *const states[] = {"VertexShader", "PixelShader", "ComputeShader"};
    for (size_t t = 0; t < g->prog->technique_count; t++) {
        for (const fx_pass *p = g->prog->techniques[t]->passes; p; p = p->next) {
            for (const fx_state *s = p->states; s; s = s->next) {
                if (!s->name || !s->value || strcmp(s->name->str, states[sh->stage]) != 0) {
                    continue;
                }
                fx_symbol *f = fx_expr_sym(s->value);
                if (f && f->kind == FX_SYM_FUNCTION && f->func && f->unique &&
                    strcmp(f->unique, sh->entry) == 0) {
                    return f;
                }
            }
        }
    }
    return NULL;
}

// The value of a fullscreen varying (fxgl_shader.exact_varyings) as a
// plane-equation rasteriser computes it in fp32 from the fullscreen
// triangle, whose vertex at the window origin has the value 0: the pixel
// centre (k + 0.5) times the gradient as the setup rounds it, 4h * (1 / 4wh)
// for x (the runtime's _fxgl_view.zw). Vulkan on lavapipe (the reference
// through vkBasalt) gives exactly this, bit for bit; GL interpolation on
// llvmpipe with the last vertex provoking, and GPUs, miss it by up to a few
// ulp (docs/runtime.md). One multiply: exact in
// any GLSL, nothing for a compiler to contract.
static const char exact_helpers[] =
    "highp vec4 _gexact(highp vec4 v, ivec4 m) {\n"
    "    highp vec2 e = vec2(_gfragcoord.x, _fxgl_flip.x != 0.0 ? _fxgl_flip.y - _gfragcoord.y\n"
    "                                                           : _gfragcoord.y) * _fxgl_view.zw;\n"
    "    for (int i = 0; i < 4; i++) {\n"
    "        v[i] = m[i] == 1 ? e.x : m[i] == 2 ? e.y : v[i];\n"
    "    }\n"
    "    return v;\n"
    "}\n"
    "#endif\n";

static void header(gen *g, buf *o) {
    if (g->es) {
        bprintf(o, "#version %d es\n", g->version);
    } else {
        bprintf(o, "#version %d\n", g->version);
    }
    if (g->need_ctrl_attrs) {
        // Unknown extensions only warn; the attributes are guarded.
        bput(o, "#extension GL_EXT_control_flow_attributes : enable\n");
    }
    if (g->need_deriv_control && g->version == 430) {
        bput(o, "#extension GL_ARB_derivative_control : enable\n");
    }
    if (g->need_deriv_control && g->version != 450) {
        // Fine and coarse derivatives are precision hints: plain ones do.
        bput(o, "#if !defined(GL_ARB_derivative_control)\n"
                "#define dFdxFine dFdx\n#define dFdyFine dFdy\n"
                "#define dFdxCoarse dFdx\n#define dFdyCoarse dFdy\n#endif\n");
    }
    if (g->need_image_formats) {
        // The runtime defines _gemulated_formats when it allocated
        // the textures in the stand-in formats (it follows the extension).
        bput(o, "#extension GL_NV_image_formats : enable\n"
                "#if defined(GL_NV_image_formats) && !defined(_gemulated_formats)\n"
                "#define _gimage_formats 1\n"
                "#define _gload1(v) (v)\n#define _gload2(v) (v)\n"
                "#else\n"
                "#define _gload1(v) vec4((v).x, 0.0, 0.0, 1.0)\n"
                "#define _gload2(v) vec4((v).xy, 0.0, 1.0)\n"
                "#endif\n");
    }
    if (g->es) {
        bput(o, "precision highp float;\nprecision highp int;\n"
                "precision highp sampler2D;\nprecision highp sampler3D;\n"
                "precision highp isampler2D;\nprecision highp isampler3D;\n"
                "precision highp usampler2D;\nprecision highp usampler3D;\n");
        if (g->version >= 310) {
            bput(o, "precision highp image2D;\nprecision highp image3D;\n"
                    "precision highp iimage2D;\nprecision highp iimage3D;\n"
                    "precision highp uimage2D;\nprecision highp uimage3D;\n");
        }
    }
    if (g->stage == FXGL_STAGE_PIXEL) {
        // Set by the runtime only where SV_Position is read (the linker drops
        // it elsewhere): see the pixel stage's position input.
        if (g->vulkan) {
            // Vulkan images are all top-down, gl_FragCoord's origin at the top.
            bput(o, "const highp vec2 _fxgl_flip = vec2(0.0);\n");
        } else {
            bput(o, "uniform highp vec2 _fxgl_flip;\n");
        }
        // The compute form (fxgl_shader.glsl): one invocation per pixel of
        // the viewport, its centre in place of gl_FragCoord.
        bput(o, "#ifdef _gcompute\n"
                "layout(local_size_x = 8, local_size_y = 8) in;\n"
                "highp vec4 _gfragcoord;\n"
                "#else\n"
                "#define _gfragcoord gl_FragCoord\n"
                "#endif\n");
        if (g->sh->exact_varying_count) {
            bput(o, "#ifdef _gexact_view\n");
            bput(o, g->vulkan ? "layout(push_constant) uniform _gpush { highp vec4 _fxgl_view; };\n"
                              : "uniform highp vec4 _fxgl_view;\n");
            bput(o, exact_helpers);
        }
    }
}

static const char *shader(gen *g, fxgl_shader *sh) {
    g->sh = sh;
    g->stage = sh->stage;
    g->helpers = newbuf(g);
    g->helper_count = 0;
    g->func_count = g->global_count = g->pending_count = g->static_count = g->spec_count = 0;
    g->static_decls = newbuf(g);
    g->static_inits = newbuf(g);
    g->need_deriv_control = g->need_ctrl_attrs = g->need_image_formats = false;
    fx_symbol *entry = entry_symbol(g, sh);
    if (!entry) {
        gerror(g, FX_POS_NONE, "'%s': entry point not found",
               sh->entry);
        return NULL;
    }
    const fx_func_decl *fd = entry->func;
    g->entry_loc = fd->loc;
    g->entry = entry;
    if (sh->stage == FXGL_STAGE_COMPUTE && g->version == 300) {
        gerror(g, fd->loc, "'%s': compute shaders are not available in %s", entry->unique,
               target_name(g));
        return NULL;
    }
    fx_check_reach(entry, ++g->mark, visit_function, g);
    for (size_t i = 0; i < g->pending_count; i++) {
        fx_check_reach(g->pending[i], ++g->mark, visit_function, g);
    }

    usage u = {.count = g->fx->storage_count};
    u.flags = fx_alloc(g->ctx, u.count + 1);
    for (size_t i = 0; i < g->func_count; i++) {
        if (g->funcs[i]->func) {
            scan_stmt(&u, g->funcs[i]->func->body);
        }
    }

    buf decls = newbuf(g), consts = newbuf(g), glob = newbuf(g), ginits = newbuf(g);
    buf protos = newbuf(g), funcs = newbuf(g), mainb = newbuf(g);
    structs(g, &decls, g->prog->ast->decls);
    // Global initializers may name uniforms the functions do not.
    bool uses_uniforms = sh->uses_uniforms;
    for (size_t i = 0; i < g->global_count; i++) {
        uses_uniforms |= g->globals[i]->kind == FX_SYM_UNIFORM;
    }
    sh->uniform_binding = -1;
    if (uses_uniforms && uniforms(g, &decls, &consts)) {
        sh->uniform_binding = 0;
    }
    samplers(g, &decls);
    storages(g, &decls, &u);
    globals(g, &glob, &ginits);
    for (size_t i = g->func_count; i-- > 0;) {
        const fx_symbol *f = g->funcs[i];
        if (has_storage_params(f)) {
            continue; // written per call below
        }
        function_head(g, &protos, f, NULL);
        bput(&protos, ";\n");
        function_head(g, &funcs, f, NULL);
        bput(&funcs, " ");
        buf body = newbuf(g);
        braced(g, &body, f->func->body, 0);
        bprintf(&funcs, "%s\n", bstr(&body));
    }
    // Specializations (their bodies may ask for more).
    for (size_t i = 0; i < g->spec_count; i++) {
        spec sp = g->specs[i];
        g->subst = sp.args;
        g->subst_count = sp.arg_count;
        function_head(g, &protos, sp.func, sp.name);
        bput(&protos, ";\n");
        function_head(g, &funcs, sp.func, sp.name);
        bput(&funcs, " ");
        buf body = newbuf(g);
        braced(g, &body, sp.func->func->body, 0);
        bprintf(&funcs, "%s\n", bstr(&body));
        g->subst = NULL;
        g->subst_count = 0;
    }

    // main(): parameters from inputs, the call, outputs from parameters.
    io x = {.decls = newbuf(g), .cdecls = newbuf(g), .reads = newbuf(g), .writes = newbuf(g)};
    buf locals = newbuf(g), call = newbuf(g);
    bprintf(&call, "%s(", sym_name(g, entry));
    int i = 0;
    for (const fx_var_decl *p = fd->params; p; p = p->next, i++) {
        const char *pn = fx_sprintf(g->ctx, "_gp%d", i);
        uint16_t q = p->type.quals;
        bool out = (q & FX_Q_OUT) != 0, in = !out || (q & FX_Q_IN);
        bput(&locals, "    ");
        fx_type pt = p->type;
        pt.quals = 0;
        declarator(g, &locals, pt, pn);
        if (!in) {
            bput(&locals, " = ");
            zero_value(g, &locals, pt);
        }
        bput(&locals, ";\n");
        if (q & FX_Q_UNIFORM) {
            gerror(g, p->loc, "'%s': uniform entry point parameters are not supported",
                   p->name->str);
        }
        io_value(g, &x, p->type, pn, p->semantic, 0, q, in, out, p->loc);
        bprintf(&call, "%s%s", i ? ", " : "", pn);
    }
    bput(&call, ")");
    if (!fx_type_is_void(entry->type)) {
        bput(&locals, "    ");
        declarator(g, &locals, entry->type, "_gret");
        bput(&locals, ";\n");
        io_value(g, &x, entry->type, "_gret", fd->ret_semantic, 0, 0, false, true, fd->loc);
    }
    if (sh->stage == FXGL_STAGE_COMPUTE) {
        bprintf(&mainb, "layout(local_size_x = %d, local_size_y = %d, local_size_z = %d) in;\n",
                sh->threads[0], sh->threads[1], sh->threads[2]);
    }
    bput(&mainb, "void main() {\n");
    if (sh->stage == FXGL_STAGE_PIXEL) {
        // The compute form: the pixel's centre, SV_Position's z and w as the
        // runtime proved them for the pass (_gexact_pos), invocations past
        // the viewport (_fxgl_view.xy) store nothing.
        bput(&mainb, "#ifdef _gcompute\n"
                     "    ivec2 _gcs_p = ivec2(gl_GlobalInvocationID.xy);\n"
                     "    if (_gcs_p.x >= int(_fxgl_view.x) || _gcs_p.y >= int(_fxgl_view.y)) {\n"
                     "        return;\n"
                     "    }\n"
                     "    _gfragcoord = vec4(vec2(_gcs_p) + 0.5, _gexact_pos);\n"
                     "#endif\n");
    }
    bprintf(&mainb, "%s%s%s%s", bstr(&ginits), bstr(&g->static_inits), bstr(&locals),
            bstr(&x.reads));
    bprintf(&mainb, "    %s%s;\n", fx_type_is_void(entry->type) ? "" : "_gret = ", bstr(&call));
    bput(&mainb, bstr(&x.writes));
    if (sh->stage == FXGL_STAGE_PIXEL && x.store) {
        bprintf(&mainb, "#ifdef _gcompute\n%s#endif\n", x.store);
    }
    if (sh->stage == FXGL_STAGE_VERTEX) {
        // Effect textures are top-down (D3D order; the runtime's copies in and out
        // flip): flip every vertex stage.
        bput(&mainb, "    gl_Position.y = -gl_Position.y;\n");
    }
    bput(&mainb, "}\n");

    if (sh->stage == FXGL_STAGE_PIXEL && x.exact_count) {
        const char **list = fx_alloc(g->ectx, x.exact_count * sizeof(*list));
        for (size_t k = 0; k < x.exact_count; k++) {
            list[k] = fx_strdup(g->ectx, x.exact[k]);
        }
        sh->exact_varyings = list;
        sh->exact_varying_count = x.exact_count;
    }
    sh->varyings = x.varying_count ? fx_alloc(g->ectx, x.varying_count * sizeof(*sh->varyings))
                                   : NULL;
    for (size_t k = 0; k < x.varying_count; k++) {
        fxgl_varying *v = (fxgl_varying *)&sh->varyings[k];
        *v = x.varyings[k];
        v->name = fx_strdup(g->ectx, v->name);
    }
    sh->varying_count = x.varying_count;
    if (sh->stage == FXGL_STAGE_VERTEX && g->vs_outs) {
        ptrdiff_t self = sh - g->fx->shaders;
        g->vs_outs[self] = x.declared;
        g->vs_out_counts[self] = x.declared_count;
    }
    buf all = newbuf(g);
    header(g, &all);
    bput(&all, bstr(&decls));
    bput(&all, bstr(&consts));
    if (sh->stage == FXGL_STAGE_PIXEL) {
        bprintf(&all, "#ifdef _gcompute\n%s#else\n%s#endif\n", bstr(&x.cdecls), bstr(&x.decls));
    } else {
        bput(&all, bstr(&x.decls));
    }
    bput(&all, bstr(&glob));
    bput(&all, bstr(&g->static_decls));
    bput(&all, bstr(&protos));
    bput(&all, bstr(&g->helpers));
    bput(&all, bstr(&funcs));
    bput(&all, bstr(&mainb));
    return fx_strdup(g->ectx, bstr(&all));
}

bool fx_glsl_generate(fx_ctx *ctx, fx_ctx *ectx, const fx_program *prog, fxgl_effect *fx,
                      const fx_glsl_options *opt) {
    gen g = {.ctx = ctx, .ectx = ectx, .prog = prog, .fx = fx, .opt = opt};
    switch (opt->target) {
    case FXGL_GLSL_GL430:
        g.version = 430;
        break;
    case FXGL_GLSL_GL450:
        g.version = 450;
        break;
    case FXGL_GLSL_ES300:
        g.version = 300;
        g.es = true;
        break;
    case FXGL_GLSL_ES310:
        g.version = 310;
        g.es = true;
        break;
    case FXGL_GLSL_ES320:
        g.version = 320;
        g.es = true;
        break;
    case FXGL_GLSL_VK450:
        g.version = 450;
        g.vulkan = true;
        break;
    default:
        return true;
    }
    // Marks must differ from every earlier walk over these functions.
    g.mark = 0x40000000u;
    fxgl_shader *shaders = (fxgl_shader *)fx->shaders;
    if (fx->shader_count) {
        g.vs_outs = fx_alloc(ctx, fx->shader_count * sizeof(*g.vs_outs));
        g.vs_out_counts = fx_alloc(ctx, fx->shader_count * sizeof(*g.vs_out_counts));
    }
    // Vertex shaders first: a pixel shader's inputs depend on what they write.
    for (int vertex = 1; vertex >= 0; vertex--) {
        for (size_t i = 0; i < fx->shader_count; i++) {
            if ((shaders[i].stage == FXGL_STAGE_VERTEX) != vertex) {
                continue;
            }
            int before = g.errors;
            const char *code = shader(&g, &shaders[i]);
            shaders[i].glsl = g.errors == before ? code : NULL;
        }
    }
    return g.errors == 0;
}
