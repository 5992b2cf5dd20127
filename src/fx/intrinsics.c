/*
 * intrinsics.c - every intrinsic function of the FX language: its overloads
 * (parameter and return types, in/out qualifiers) and, per overload, the
 * GLSL template the emitter writes (fx_typesys.h describes the placeholders).
 *
 * The table is const data expanded by the macros below: a family macro (a
 * component-wise unary function, a sampling function, ...) is run over a
 * shape list (scalar and vectors, matrices, sampler element types), each
 * name gets its own array of overloads and the name table at the end lists
 * the arrays in strcmp order for a binary search.
 *
 * The overload set is the reference's (effect_symbol_table_intrinsics.inl,
 * read for which overloads exist), because overload resolution depends on
 * the whole set. Additions, flagged FX_INTRINSIC_F_EXTENSION, only make calls
 * work that the reference rejects or resolves to the wrong meaning: matrix
 * forms of component-wise functions, uint min/max, samplers and storages
 * with 2- and 3-component elements, fmod, mul(scalar, scalar), and the
 * bit casts asint/asuint/asfloat on every 32-bit type. Reference defects
 * avoided are noted at the entries.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fx_typesys.h"

_Static_assert(offsetof(fx_intrinsic, sig) == 0,
               "fx_type_select reads an fx_intrinsic as the fx_signature it starts with");

// --- type spellings: FLOAT, INT, UINT, BOOL name the base ---

#define TY(b, r, c) { .base = FX_TYPE_##b, .rows = (r), .cols = (c) }
#define VOID_T { .base = FX_TYPE_VOID }
#define SC(b) TY(b, 1, 1)
#define VEC(b, n) TY(b, n, 1)
#define OUT(b, n) { .base = FX_TYPE_##b, .rows = (n), .cols = 1, .quals = FX_Q_OUT }
#define SHARED(b) { .base = FX_TYPE_##b, .rows = 1, .cols = 1,                                     \
                    .quals = FX_Q_INOUT | FX_Q_GROUPSHARED }
#define OBJ(kind, eb, er) { .base = FX_TYPE_##kind, .rows = 1, .cols = 1,                          \
                            .elem_base = FX_TYPE_##eb, .elem_rows = (er) }
#define SAMPLER(d, eb, er) OBJ(SAMPLER##d##D, eb, er)
#define STORAGE(d, eb, er) OBJ(STORAGE##d##D, eb, er)

#define EXT FX_INTRINSIC_F_EXTENSION
#define SIDE FX_INTRINSIC_F_SIDE_EFFECTS
#define COLS (FX_INTRINSIC_F_PER_COLUMN | FX_INTRINSIC_F_EXTENSION)

// --- one overload ---

#define NPARAMS(...) ((uint16_t)(sizeof((const fx_type[]){ __VA_ARGS__ }) / sizeof(fx_type)))

// OV(function, return type, GLSL template, flags, needs, const_from, parameter types...)
#define OV(fn, ret_, glsl_, flags_, needs_, const_from_, ...)                                      \
    { .sig = { .params = (const fx_type[]){ __VA_ARGS__ }, .count = NPARAMS(__VA_ARGS__),          \
               .required = NPARAMS(__VA_ARGS__) },                                                 \
      .ret = ret_, .name = #fn, .glsl = glsl_, .flags = (flags_), .needs = (needs_),               \
      .const_from = (const_from_) },

#define OV0(fn, glsl_, needs_)                                                                     \
    { .sig = { .params = NULL, .count = 0, .required = 0 }, .ret = VOID_T,                         \
      .name = #fn, .glsl = glsl_, .needs = (needs_) },

// --- shape lists: X(shape..., rest) ---

#define EACH_VEC(X, ...) X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)
#define EACH_VEC2(X, ...) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)
// Matrices of 2..4 rows: GLSL has no matrix of one column (HLSL's 1xN).
#define EACH_MAT(X, ...)                                                                           \
    X(2, 2, __VA_ARGS__) X(2, 3, __VA_ARGS__) X(2, 4, __VA_ARGS__)                                 \
    X(3, 2, __VA_ARGS__) X(3, 3, __VA_ARGS__) X(3, 4, __VA_ARGS__)                                 \
    X(4, 2, __VA_ARGS__) X(4, 3, __VA_ARGS__) X(4, 4, __VA_ARGS__)
// Three loops over 2..4 for mul's matrix products (separate names so they nest).
#define FOR_A(X, ...) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)
#define FOR_B(X, ...) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)
#define FOR_C(X, ...) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)
// Sampler and storage element types.
#define EACH_ELEM(X, ...)                                                                          \
    X(INT, 1, __VA_ARGS__) X(INT, 2, __VA_ARGS__) X(INT, 3, __VA_ARGS__) X(INT, 4, __VA_ARGS__)    \
    X(UINT, 1, __VA_ARGS__) X(UINT, 2, __VA_ARGS__) X(UINT, 3, __VA_ARGS__)                        \
    X(UINT, 4, __VA_ARGS__)                                                                        \
    X(FLOAT, 1, __VA_ARGS__) X(FLOAT, 2, __VA_ARGS__) X(FLOAT, 3, __VA_ARGS__)                     \
    X(FLOAT, 4, __VA_ARGS__)

// --- component-wise families: every parameter and the result share one type ---

#define CW1_V(n, name, b, glsl, fl, nd) OV(name, VEC(b, n), glsl, fl, nd, 0, VEC(b, n))
#define CW1_M(r, c, name, b, glsl, fl, nd)                                                         \
    OV(name, TY(b, r, c), glsl, (fl) | COLS, nd, 0, TY(b, r, c))
#define CW2_V(n, name, b, glsl, fl, nd) OV(name, VEC(b, n), glsl, fl, nd, 0, VEC(b, n), VEC(b, n))
#define CW2_M(r, c, name, b, glsl, fl, nd)                                                         \
    OV(name, TY(b, r, c), glsl, (fl) | COLS, nd, 0, TY(b, r, c), TY(b, r, c))
#define CW3_V(n, name, b, glsl, fl, nd)                                                            \
    OV(name, VEC(b, n), glsl, fl, nd, 0, VEC(b, n), VEC(b, n), VEC(b, n))
#define CW3_M(r, c, name, b, glsl, fl, nd)                                                         \
    OV(name, TY(b, r, c), glsl, (fl) | COLS, nd, 0, TY(b, r, c), TY(b, r, c), TY(b, r, c))

// Scalar and vectors of base b, one to three parameters.
#define SV_UNARY(name, b, glsl, fl) EACH_VEC(CW1_V, name, b, glsl, fl, 0)
#define SV_BINARY(name, b, glsl, fl) EACH_VEC(CW2_V, name, b, glsl, fl, 0)
#define SV_TERNARY(name, b, glsl, fl) EACH_VEC(CW3_V, name, b, glsl, fl, 0)
// Float scalar, vectors and (an extension, emitted per column) matrices.
#define FL_UNARY_N(name, glsl, nd)                                                                 \
    EACH_VEC(CW1_V, name, FLOAT, glsl, 0, nd) EACH_MAT(CW1_M, name, FLOAT, glsl, 0, nd)
#define FL_UNARY(name, glsl) FL_UNARY_N(name, glsl, 0)
#define FL_BINARY(name, glsl, fl)                                                                  \
    EACH_VEC(CW2_V, name, FLOAT, glsl, fl, 0) EACH_MAT(CW2_M, name, FLOAT, glsl, fl, 0)
#define FL_TERNARY(name, glsl)                                                                     \
    EACH_VEC(CW3_V, name, FLOAT, glsl, 0, 0) EACH_MAT(CW3_M, name, FLOAT, glsl, 0, 0)

// --- the math set ---

static const fx_intrinsic ov_abs[] = { SV_UNARY(abs, INT, "abs($0)", 0) FL_UNARY(abs, "abs($0)") };
static const fx_intrinsic ov_acos[] = { FL_UNARY(acos, "acos($0)") };
static const fx_intrinsic ov_asin[] = { FL_UNARY(asin, "asin($0)") };
static const fx_intrinsic ov_atan[] = { FL_UNARY(atan, "atan($0)") };
// HLSL atan2(y, x) and GLSL atan(y, x) take y first.
static const fx_intrinsic ov_atan2[] = { FL_BINARY(atan2, "atan($0, $1)", 0) };
static const fx_intrinsic ov_ceil[] = { FL_UNARY(ceil, "ceil($0)") };
static const fx_intrinsic ov_cos[] = { FL_UNARY(cos, "cos($0)") };
static const fx_intrinsic ov_cosh[] = { FL_UNARY(cosh, "cosh($0)") };
static const fx_intrinsic ov_degrees[] = { FL_UNARY(degrees, "degrees($0)") };
static const fx_intrinsic ov_exp[] = { FL_UNARY(exp, "exp($0)") };
static const fx_intrinsic ov_exp2[] = { FL_UNARY(exp2, "exp2($0)") };
static const fx_intrinsic ov_floor[] = { FL_UNARY(floor, "floor($0)") };
static const fx_intrinsic ov_frac[] = { FL_UNARY(frac, "fract($0)") };
static const fx_intrinsic ov_log[] = { FL_UNARY(log, "log($0)") };
// log10(x) = log2(x) * log10(2); GLSL has no log10.
static const fx_intrinsic ov_log10[] = { FL_UNARY(log10, "(log2($0) * 0.30102999566398120)") };
static const fx_intrinsic ov_log2[] = { FL_UNARY(log2, "log2($0)") };
static const fx_intrinsic ov_radians[] = { FL_UNARY(radians, "radians($0)") };
static const fx_intrinsic ov_rcp[] = { FL_UNARY(rcp, "(1.0 / $0)") };
// D3D rounds halfway cases to even; GLSL round() leaves them to the driver.
static const fx_intrinsic ov_round[] = { FL_UNARY(round, "roundEven($0)") };
static const fx_intrinsic ov_rsqrt[] = { FL_UNARY(rsqrt, "inversesqrt($0)") };
static const fx_intrinsic ov_saturate[] = { FL_UNARY(saturate, "clamp($0, 0.0, 1.0)") };
// sign(float) returns float as in the reference (HLSL says int): effects
// divide by it and expect no integer division.
static const fx_intrinsic ov_sign[] = {
    SV_UNARY(sign, INT, "sign($0)", 0) FL_UNARY(sign, "sign($0)")
};
static const fx_intrinsic ov_sin[] = { FL_UNARY(sin, "sin($0)") };
static const fx_intrinsic ov_sinh[] = { FL_UNARY(sinh, "sinh($0)") };
static const fx_intrinsic ov_sqrt[] = { FL_UNARY(sqrt, "sqrt($0)") };
static const fx_intrinsic ov_tan[] = { FL_UNARY(tan, "tan($0)") };
static const fx_intrinsic ov_tanh[] = { FL_UNARY(tanh, "tanh($0)") };
static const fx_intrinsic ov_trunc[] = { FL_UNARY(trunc, "trunc($0)") };

#define FRAG FX_INTRINSIC_NEED_FRAGMENT
#define FINE (FX_INTRINSIC_NEED_FRAGMENT | FX_INTRINSIC_NEED_DERIV_CONTROL)
static const fx_intrinsic ov_ddx[] = { FL_UNARY_N(ddx, "dFdx($0)", FRAG) };
static const fx_intrinsic ov_ddx_coarse[] = { FL_UNARY_N(ddx_coarse, "dFdxCoarse($0)", FINE) };
static const fx_intrinsic ov_ddx_fine[] = { FL_UNARY_N(ddx_fine, "dFdxFine($0)", FINE) };
static const fx_intrinsic ov_ddy[] = { FL_UNARY_N(ddy, "dFdy($0)", FRAG) };
static const fx_intrinsic ov_ddy_coarse[] = { FL_UNARY_N(ddy_coarse, "dFdyCoarse($0)", FINE) };
static const fx_intrinsic ov_ddy_fine[] = { FL_UNARY_N(ddy_fine, "dFdyFine($0)", FINE) };
static const fx_intrinsic ov_fwidth[] = { FL_UNARY_N(fwidth, "fwidth($0)", FRAG) };

// HLSL fmod keeps the sign of x, like trunc, unlike GLSL mod (floor). Not in
// the reference's table: effects that call it usually define their own, and
// user functions shadow intrinsics.
static const fx_intrinsic ov_fmod[] = { FL_BINARY(fmod, "($0 - $1 * trunc($0 / $1))", EXT) };
static const fx_intrinsic ov_pow[] = { FL_BINARY(pow, "pow($0, $1)", 0) };
// HLSL step(y, x) and GLSL step(edge, x) agree on the order.
static const fx_intrinsic ov_step[] = { FL_BINARY(step, "step($0, $1)", 0) };
// uint min/max are an extension: without them the reference resolves
// max(uint, uint) to the float overload.
static const fx_intrinsic ov_max[] = {
    SV_BINARY(max, INT, "max($0, $1)", 0) SV_BINARY(max, UINT, "max($0, $1)", EXT)
    FL_BINARY(max, "max($0, $1)", 0)
};
static const fx_intrinsic ov_min[] = {
    SV_BINARY(min, INT, "min($0, $1)", 0) SV_BINARY(min, UINT, "min($0, $1)", EXT)
    FL_BINARY(min, "min($0, $1)", 0)
};

static const fx_intrinsic ov_clamp[] = {
    SV_TERNARY(clamp, INT, "clamp($0, $1, $2)", 0) SV_TERNARY(clamp, UINT, "clamp($0, $1, $2)", 0)
    FL_TERNARY(clamp, "clamp($0, $1, $2)")
};
static const fx_intrinsic ov_lerp[] = { FL_TERNARY(lerp, "mix($0, $1, $2)") };
// Not fma(): GLSL ES 3.0/3.1 lack it, and HLSL mad promises no fused rounding.
static const fx_intrinsic ov_mad[] = { FL_TERNARY(mad, "($0 * $1 + $2)") };
static const fx_intrinsic ov_smoothstep[] = { FL_TERNARY(smoothstep, "smoothstep($0, $1, $2)") };

// Not the reference's defect: its GLSL and HLSL faceforward(n, i, ng) pass i
// where ng belongs; GLSL faceforward(N, I, Nref) takes them in HLSL's order.
static const fx_intrinsic ov_faceforward[] = {
    EACH_VEC(CW3_V, faceforward, FLOAT, "faceforward($0, $1, $2)", 0, 0)
};

// GLSL's all/any/dot take vectors only; the scalar forms get their own template.
#define SCALAR_OR_1(scalar, vector) scalar
#define SCALAR_OR_2(scalar, vector) vector
#define SCALAR_OR_3(scalar, vector) vector
#define SCALAR_OR_4(scalar, vector) vector
#define BOOL_RED(n, name, glsl_vec)                                                                \
    OV(name, SC(BOOL), SCALAR_OR_##n("$0", glsl_vec), 0, 0, 0, VEC(BOOL, n))
static const fx_intrinsic ov_all[] = { EACH_VEC(BOOL_RED, all, "all($0)") };
static const fx_intrinsic ov_any[] = { EACH_VEC(BOOL_RED, any, "any($0)") };

#define FLOAT_TO_BOOL(n, name) OV(name, VEC(BOOL, n), #name "($0)", 0, 0, 0, VEC(FLOAT, n))
static const fx_intrinsic ov_isinf[] = { EACH_VEC(FLOAT_TO_BOOL, isinf) };
static const fx_intrinsic ov_isnan[] = { EACH_VEC(FLOAT_TO_BOOL, isnan) };

// sincos(x, out s, out c): the template assigns both outputs; x appears twice.
#define SINCOS(n, unused) OV(sincos, VOID_T, "($1 = sin($0), $2 = cos($0))", SIDE, 0, 0,           \
                             VEC(FLOAT, n), OUT(FLOAT, n), OUT(FLOAT, n))
static const fx_intrinsic ov_sincos[] = { EACH_VEC(SINCOS, 0) };
#define MODF(n, unused)                                                                            \
    OV(modf, VEC(FLOAT, n), "modf($0, $1)", SIDE, 0, 0, VEC(FLOAT, n), OUT(FLOAT, n))
static const fx_intrinsic ov_modf[] = { EACH_VEC(MODF, 0) };
// The exponent is int as in the reference (HLSL has float); GLSL agrees.
#define FREXP(n, unused)                                                                           \
    OV(frexp, VEC(FLOAT, n), "frexp($0, $1)", SIDE, 0, 0, VEC(FLOAT, n), OUT(INT, n))
static const fx_intrinsic ov_frexp[] = { EACH_VEC(FREXP, 0) };
#define LDEXP(n, unused)                                                                           \
    OV(ldexp, VEC(FLOAT, n), "ldexp($0, $1)", 0, 0, 0, VEC(FLOAT, n), VEC(INT, n))
static const fx_intrinsic ov_ldexp[] = { EACH_VEC(LDEXP, 0) };

// Bit casts. GLSL int(uint) and uint(int) keep the bits. The identity and
// int<->uint forms are extensions: the reference converts the value through
// float first (asint(uint) reinterprets float(u)), or finds asfloat(float)
// ambiguous between its int and uint forms.
#define CAST(n, name, rb, pb, glsl, fl) OV(name, VEC(rb, n), glsl, fl, 0, 0, VEC(pb, n))
static const fx_intrinsic ov_asfloat[] = {
    EACH_VEC(CAST, asfloat, FLOAT, INT, "intBitsToFloat($0)", 0)
    EACH_VEC(CAST, asfloat, FLOAT, UINT, "uintBitsToFloat($0)", 0)
    EACH_VEC(CAST, asfloat, FLOAT, FLOAT, "$0", EXT)
};
static const fx_intrinsic ov_asint[] = {
    EACH_VEC(CAST, asint, INT, FLOAT, "floatBitsToInt($0)", 0)
    EACH_VEC(CAST, asint, INT, UINT, "$R($0)", EXT)
    EACH_VEC(CAST, asint, INT, INT, "$0", EXT)
};
static const fx_intrinsic ov_asuint[] = {
    EACH_VEC(CAST, asuint, UINT, FLOAT, "floatBitsToUint($0)", 0)
    EACH_VEC(CAST, asuint, UINT, INT, "$R($0)", EXT)
    EACH_VEC(CAST, asuint, UINT, UINT, "$0", EXT)
};

// Bit counting: GLSL returns int, HLSL uint where the argument is uint.
static const fx_intrinsic ov_countbits[] = {
    EACH_VEC(CAST, countbits, UINT, UINT, "$R(bitCount($0))", 0)
};
static const fx_intrinsic ov_reversebits[] = {
    EACH_VEC(CAST, reversebits, UINT, UINT, "bitfieldReverse($0)", 0)
};
static const fx_intrinsic ov_firstbitlow[] = {
    EACH_VEC(CAST, firstbitlow, UINT, UINT, "$R(findLSB($0))", 0)
};
static const fx_intrinsic ov_firstbithigh[] = {
    EACH_VEC(CAST, firstbithigh, INT, INT, "findMSB($0)", 0)
    EACH_VEC(CAST, firstbithigh, UINT, UINT, "$R(findMSB($0))", 0)
};

// Half-precision packing works on pairs in GLSL: one component at a time.
static const fx_intrinsic ov_f16tof32[] = {
    OV(f16tof32, SC(FLOAT), "unpackHalf2x16($0).x", 0, 0, 0, SC(UINT))
    OV(f16tof32, VEC(FLOAT, 2), "vec2(unpackHalf2x16($0.x).x, unpackHalf2x16($0.y).x)", 0, 0, 0,
       VEC(UINT, 2))
    OV(f16tof32, VEC(FLOAT, 3),
       "vec3(unpackHalf2x16($0.x).x, unpackHalf2x16($0.y).x, unpackHalf2x16($0.z).x)", 0, 0, 0,
       VEC(UINT, 3))
    OV(f16tof32, VEC(FLOAT, 4),
       "vec4(unpackHalf2x16($0.x).x, unpackHalf2x16($0.y).x, unpackHalf2x16($0.z).x, "
       "unpackHalf2x16($0.w).x)", 0, 0, 0, VEC(UINT, 4))
};
#define HALF(c) "packHalf2x16(vec2($0" c ", 0.0))"
static const fx_intrinsic ov_f32tof16[] = {
    OV(f32tof16, SC(UINT), HALF(""), 0, 0, 0, SC(FLOAT))
    OV(f32tof16, VEC(UINT, 2), "uvec2(" HALF(".x") ", " HALF(".y") ")", 0, 0, 0, VEC(FLOAT, 2))
    OV(f32tof16, VEC(UINT, 3), "uvec3(" HALF(".x") ", " HALF(".y") ", " HALF(".z") ")", 0, 0, 0,
       VEC(FLOAT, 3))
    OV(f32tof16, VEC(UINT, 4),
       "uvec4(" HALF(".x") ", " HALF(".y") ", " HALF(".z") ", " HALF(".w") ")", 0, 0, 0,
       VEC(FLOAT, 4))
};
#undef HALF

// --- geometric and matrix functions ---

static const fx_intrinsic ov_cross[] = {
    OV(cross, VEC(FLOAT, 3), "cross($0, $1)", 0, 0, 0, VEC(FLOAT, 3), VEC(FLOAT, 3))
};
#define DOT(n, name, scalar, glsl_vec)                                                             \
    OV(name, SC(FLOAT), SCALAR_OR_##n(scalar, glsl_vec), 0, 0, 0, VEC(FLOAT, n), VEC(FLOAT, n))
static const fx_intrinsic ov_dot[] = { EACH_VEC(DOT, dot, "($0 * $1)", "dot($0, $1)") };
static const fx_intrinsic ov_distance[] = {
    EACH_VEC(DOT, distance, "abs($0 - $1)", "distance($0, $1)")
};
#define LENGTH(n, unused) OV(length, SC(FLOAT), "length($0)", 0, 0, 0, VEC(FLOAT, n))
static const fx_intrinsic ov_length[] = { EACH_VEC(LENGTH, 0) };
static const fx_intrinsic ov_normalize[] = {
    EACH_VEC2(CW1_V, normalize, FLOAT, "normalize($0)", 0, 0)
};
static const fx_intrinsic ov_reflect[] = {
    EACH_VEC2(CW2_V, reflect, FLOAT, "reflect($0, $1)", 0, 0)
};
// Not the reference's defect: its GLSL and HLSL refract(i, n, eta) pass n
// where eta belongs.
#define REFRACT(n, unused)                                                                         \
    OV(refract, VEC(FLOAT, n), "refract($0, $1, $2)", 0, 0, 0, VEC(FLOAT, n), VEC(FLOAT, n),       \
       SC(FLOAT))
static const fx_intrinsic ov_refract[] = { EACH_VEC2(REFRACT, 0) };
// The GLSL matrix is the transpose of the HLSL one, and transposing either
// representation gives the other's: GLSL transpose() is right as it is.
#define TRANSPOSE(r, c, unused)                                                                    \
    OV(transpose, TY(FLOAT, c, r), "transpose($0)", 0, 0, 0, TY(FLOAT, r, c))
static const fx_intrinsic ov_transpose[] = { EACH_MAT(TRANSPOSE, 0) };
// det(M) = det(transpose(M)).
static const fx_intrinsic ov_determinant[] = {
    OV(determinant, SC(FLOAT), "determinant($0)", 0, 0, 0, TY(FLOAT, 2, 2))
    OV(determinant, SC(FLOAT), "determinant($0)", 0, 0, 0, TY(FLOAT, 3, 3))
    OV(determinant, SC(FLOAT), "determinant($0)", 0, 0, 0, TY(FLOAT, 4, 4))
};

// mul(a, b) with HLSL row vectors on the left. GLSL matrices are stored
// transposed (GLSL column i is HLSL row i), so every product involving a
// vector and a matrix or two matrices swaps its operands: (b * a). Products
// with a scalar are component-wise either way. int matrices are float in GLSL.
#define MATI_INT FX_INTRINSIC_F_FLOAT_MATRIX
#define MATI_FLOAT 0
#define MUL_SV(n, b) OV(mul, VEC(b, n), "($0 * $1)", 0, 0, 0, SC(b), VEC(b, n))                    \
                     OV(mul, VEC(b, n), "($0 * $1)", 0, 0, 0, VEC(b, n), SC(b))
#define MUL_SM(r, c, b)                                                                            \
    OV(mul, TY(b, r, c), "($0 * $1)", MATI_##b, 0, 0, SC(b), TY(b, r, c))                          \
    OV(mul, TY(b, r, c), "($0 * $1)", MATI_##b, 0, 0, TY(b, r, c), SC(b))
#define MUL_VM(r, c, b) OV(mul, VEC(b, c), "($1 * $0)", MATI_##b, 0, 0, VEC(b, r), TY(b, r, c))
#define MUL_MV(r, c, b) OV(mul, VEC(b, r), "($1 * $0)", MATI_##b, 0, 0, TY(b, r, c), VEC(b, c))
#define MUL_MM3(c, k, r, b)                                                                        \
    OV(mul, TY(b, r, c), "($1 * $0)", MATI_##b, 0, 0, TY(b, r, k), TY(b, k, c))
#define MUL_MM2(k, r, b) FOR_C(MUL_MM3, k, r, b)
#define MUL_MM1(r, b) FOR_B(MUL_MM2, r, b)
#define MUL_ALL(b)                                                                                 \
    OV(mul, SC(b), "($0 * $1)", EXT, 0, 0, SC(b), SC(b))                                           \
    EACH_VEC2(MUL_SV, b) EACH_MAT(MUL_SM, b) EACH_MAT(MUL_VM, b)                                   \
    EACH_MAT(MUL_MV, b) FOR_A(MUL_MM1, b)
static const fx_intrinsic ov_mul[] = { MUL_ALL(INT) MUL_ALL(FLOAT) };

// --- textures: T is the sampler's element type ---

// The texel swizzle that turns GLSL's 4-component result into T.
#define SWZ_1 ".x"
#define SWZ_2 ".xy"
#define SWZ_3 ".xyz"
#define SWZ_4 ""
// The reference has no sampler element of 2 or 3 components in its table.
#define ELEMX_1 0
#define ELEMX_2 EXT
#define ELEMX_3 EXT
#define ELEMX_4 0
// The coordinates inside texNDlod's float4(uv, 0, lod).
#define LODC_1 "$1.x"
#define LODC_2 "$1.xy"
#define LODC_3 "$1.xyz"
#define NEED1_1 FX_INTRINSIC_NEED_1D
#define NEED1_2 0
#define NEED1_3 0

#define TEX(eb, er, name, d)                                                                       \
    OV(name, VEC(eb, er), "texture($0, $1)" SWZ_##er, ELEMX_##er, NEED1_##d, 0,                    \
       SAMPLER(d, eb, er), VEC(FLOAT, d))                                                          \
    OV(name, VEC(eb, er), "textureOffset($0, $1, $2)" SWZ_##er, ELEMX_##er, NEED1_##d, 2,          \
       SAMPLER(d, eb, er), VEC(FLOAT, d), VEC(INT, d))
// Not the reference's defect: its tex3Dlod and tex3Dgrad offsets are int2.
#define TEXLOD(eb, er, name, d)                                                                    \
    OV(name, VEC(eb, er), "textureLod($0, " LODC_##d ", $1.w)" SWZ_##er, ELEMX_##er,               \
       NEED1_##d, 0, SAMPLER(d, eb, er), VEC(FLOAT, 4))                                            \
    OV(name, VEC(eb, er), "textureLodOffset($0, " LODC_##d ", $1.w, $2)" SWZ_##er, ELEMX_##er,     \
       NEED1_##d, 2, SAMPLER(d, eb, er), VEC(FLOAT, 4), VEC(INT, d))
#define TEXGRAD(eb, er, name, d)                                                                   \
    OV(name, VEC(eb, er), "textureGrad($0, $1, $2, $3)" SWZ_##er, ELEMX_##er, NEED1_##d, 0,        \
       SAMPLER(d, eb, er), VEC(FLOAT, d), VEC(FLOAT, d), VEC(FLOAT, d))                            \
    OV(name, VEC(eb, er), "textureGradOffset($0, $1, $2, $3, $4)" SWZ_##er, ELEMX_##er,            \
       NEED1_##d, 4, SAMPLER(d, eb, er), VEC(FLOAT, d), VEC(FLOAT, d), VEC(FLOAT, d),              \
       VEC(INT, d))
#define TEXFETCH(eb, er, name, d)                                                                  \
    OV(name, VEC(eb, er), "texelFetch($0, $1, 0)" SWZ_##er, ELEMX_##er, NEED1_##d, 0,              \
       SAMPLER(d, eb, er), VEC(INT, d))                                                            \
    OV(name, VEC(eb, er), "texelFetch($0, $1, $2)" SWZ_##er, ELEMX_##er, NEED1_##d, 0,             \
       SAMPLER(d, eb, er), VEC(INT, d), SC(INT))                                                   \
    OV(name, VEC(eb, er), "imageLoad($0, $1)" SWZ_##er, ELEMX_##er,                                \
       NEED1_##d | FX_INTRINSIC_NEED_IMAGE, 0, STORAGE(d, eb, er), VEC(INT, d))
#define TEXSIZE(eb, er, name, d)                                                                   \
    OV(name, VEC(INT, d), "textureSize($0, 0)", ELEMX_##er, NEED1_##d, 0, SAMPLER(d, eb, er))      \
    OV(name, VEC(INT, d), "textureSize($0, $1)", ELEMX_##er, NEED1_##d, 0, SAMPLER(d, eb, er),     \
       SC(INT))                                                                                    \
    OV(name, VEC(INT, d), "imageSize($0)", ELEMX_##er, NEED1_##d | FX_INTRINSIC_NEED_IMAGE, 0,     \
       STORAGE(d, eb, er))
// imageStore takes four components; the rest of a shorter T is padding.
#define GVEC_INT "ivec4"
#define GVEC_UINT "uvec4"
#define GVEC_FLOAT "vec4"
#define STOREV_1(eb) GVEC_##eb "($2)"
#define STOREV_2(eb) GVEC_##eb "($2, 0, 0)"
#define STOREV_3(eb) GVEC_##eb "($2, 0)"
#define STOREV_4(eb) "$2"
#define TEXSTORE(eb, er, name, d)                                                                  \
    OV(name, VOID_T, "imageStore($0, $1, " STOREV_##er(eb) ")", ELEMX_##er | SIDE,                 \
       NEED1_##d | FX_INTRINSIC_NEED_COMPUTE, 0, STORAGE(d, eb, er), VEC(INT, d), VEC(eb, er))

static const fx_intrinsic ov_tex1D[] = { EACH_ELEM(TEX, tex1D, 1) };
static const fx_intrinsic ov_tex2D[] = { EACH_ELEM(TEX, tex2D, 2) };
static const fx_intrinsic ov_tex3D[] = { EACH_ELEM(TEX, tex3D, 3) };
static const fx_intrinsic ov_tex1Dlod[] = { EACH_ELEM(TEXLOD, tex1Dlod, 1) };
static const fx_intrinsic ov_tex2Dlod[] = { EACH_ELEM(TEXLOD, tex2Dlod, 2) };
static const fx_intrinsic ov_tex3Dlod[] = { EACH_ELEM(TEXLOD, tex3Dlod, 3) };
static const fx_intrinsic ov_tex1Dgrad[] = { EACH_ELEM(TEXGRAD, tex1Dgrad, 1) };
static const fx_intrinsic ov_tex2Dgrad[] = { EACH_ELEM(TEXGRAD, tex2Dgrad, 2) };
static const fx_intrinsic ov_tex3Dgrad[] = { EACH_ELEM(TEXGRAD, tex3Dgrad, 3) };
static const fx_intrinsic ov_tex1Dfetch[] = { EACH_ELEM(TEXFETCH, tex1Dfetch, 1) };
static const fx_intrinsic ov_tex2Dfetch[] = { EACH_ELEM(TEXFETCH, tex2Dfetch, 2) };
static const fx_intrinsic ov_tex3Dfetch[] = { EACH_ELEM(TEXFETCH, tex3Dfetch, 3) };
static const fx_intrinsic ov_tex1Dsize[] = { EACH_ELEM(TEXSIZE, tex1Dsize, 1) };
static const fx_intrinsic ov_tex2Dsize[] = { EACH_ELEM(TEXSIZE, tex2Dsize, 2) };
static const fx_intrinsic ov_tex3Dsize[] = { EACH_ELEM(TEXSIZE, tex3Dsize, 3) };
static const fx_intrinsic ov_tex1Dstore[] = { EACH_ELEM(TEXSTORE, tex1Dstore, 1) };
static const fx_intrinsic ov_tex2Dstore[] = { EACH_ELEM(TEXSTORE, tex2Dstore, 2) };
static const fx_intrinsic ov_tex3Dstore[] = { EACH_ELEM(TEXSTORE, tex3Dstore, 3) };

// Gathers return one component of four texels as a 4-vector of T's base.
// The reference accepts only sampler2D<float4>; gathering from <float> (a
// depth or R32F texture) and integer samplers is an extension.
#define GATHERX_FLOAT_4 0
#define GATHERX_FLOAT_1 EXT
#define GATHERX_FLOAT_2 EXT
#define GATHERX_FLOAT_3 EXT
#define GATHERX_INT_1 EXT
#define GATHERX_INT_2 EXT
#define GATHERX_INT_3 EXT
#define GATHERX_INT_4 EXT
#define GATHERX_UINT_1 EXT
#define GATHERX_UINT_2 EXT
#define GATHERX_UINT_3 EXT
#define GATHERX_UINT_4 EXT
#define GATHER_NEED FX_INTRINSIC_NEED_GATHER
#define GATHER(eb, er, name, comp)                                                                 \
    OV(name, VEC(eb, 4), "textureGather($0, $1, " comp ")", GATHERX_##eb##_##er, GATHER_NEED,      \
       0, SAMPLER(2, eb, er), VEC(FLOAT, 2))                                                       \
    OV(name, VEC(eb, 4), "textureGatherOffset($0, $1, $2, " comp ")", GATHERX_##eb##_##er,         \
       GATHER_NEED, 2, SAMPLER(2, eb, er), VEC(FLOAT, 2), VEC(INT, 2))                             \
    OV(name, VEC(eb, 4), "textureGatherOffsets($0, $1, ivec2[4]($2, $3, $4, $5), " comp ")",       \
       GATHERX_##eb##_##er, GATHER_NEED | FX_INTRINSIC_NEED_GATHER_OFFSETS, 2,                     \
       SAMPLER(2, eb, er), VEC(FLOAT, 2), VEC(INT, 2), VEC(INT, 2), VEC(INT, 2), VEC(INT, 2))
static const fx_intrinsic ov_tex2DgatherR[] = { EACH_ELEM(GATHER, tex2DgatherR, "0") };
static const fx_intrinsic ov_tex2DgatherG[] = { EACH_ELEM(GATHER, tex2DgatherG, "1") };
static const fx_intrinsic ov_tex2DgatherB[] = { EACH_ELEM(GATHER, tex2DgatherB, "2") };
static const fx_intrinsic ov_tex2DgatherA[] = { EACH_ELEM(GATHER, tex2DgatherA, "3") };

// --- compute: barriers and atomics ---

#define COMPUTE FX_INTRINSIC_NEED_COMPUTE
static const fx_intrinsic ov_barrier[] = { OV0(barrier, "barrier()", COMPUTE) };
static const fx_intrinsic ov_memoryBarrier[] = { OV0(memoryBarrier, "memoryBarrier()", COMPUTE) };
static const fx_intrinsic ov_groupMemoryBarrier[] = {
    OV0(groupMemoryBarrier, "groupMemoryBarrier()", COMPUTE)
};

// atomicOp(inout groupshared dest, value) and atomicOp(storage, coords, value);
// each returns the value dest had before. Storage atomics need a 32-bit
// scalar integer element (r32i/r32ui images).
#define IMAGE_ATOMIC (FX_INTRINSIC_NEED_COMPUTE | FX_INTRINSIC_NEED_IMAGE_ATOMIC)
#define ATOMIC_IMG(d, name, glsl, b)                                                               \
    OV(name, SC(b), "imageAtomic" glsl "($0, $1, $2)", SIDE, NEED1_##d | IMAGE_ATOMIC, 0,          \
       STORAGE(d, b, 1), VEC(INT, d), SC(b))
#define ATOMIC_IMG_CAS(d, name, b)                                                                 \
    OV(name, SC(b), "imageAtomicCompSwap($0, $1, $2, $3)", SIDE, NEED1_##d | IMAGE_ATOMIC, 0,      \
       STORAGE(d, b, 1), VEC(INT, d), SC(b), SC(b))
#define ATOMIC(name, glsl)                                                                         \
    OV(name, SC(INT), "atomic" glsl "($0, $1)", SIDE, COMPUTE, 0, SHARED(INT), SC(INT))            \
    OV(name, SC(UINT), "atomic" glsl "($0, $1)", SIDE, COMPUTE, 0, SHARED(UINT), SC(UINT))         \
    ATOMIC_IMG(1, name, glsl, INT) ATOMIC_IMG(2, name, glsl, INT)                                  \
    ATOMIC_IMG(3, name, glsl, INT) ATOMIC_IMG(1, name, glsl, UINT)                                 \
    ATOMIC_IMG(2, name, glsl, UINT) ATOMIC_IMG(3, name, glsl, UINT)
static const fx_intrinsic ov_atomicAdd[] = { ATOMIC(atomicAdd, "Add") };
static const fx_intrinsic ov_atomicAnd[] = { ATOMIC(atomicAnd, "And") };
static const fx_intrinsic ov_atomicOr[] = { ATOMIC(atomicOr, "Or") };
static const fx_intrinsic ov_atomicXor[] = { ATOMIC(atomicXor, "Xor") };
static const fx_intrinsic ov_atomicMin[] = { ATOMIC(atomicMin, "Min") };
static const fx_intrinsic ov_atomicMax[] = { ATOMIC(atomicMax, "Max") };
static const fx_intrinsic ov_atomicExchange[] = { ATOMIC(atomicExchange, "Exchange") };
static const fx_intrinsic ov_atomicCompareExchange[] = {
    OV(atomicCompareExchange, SC(INT), "atomicCompSwap($0, $1, $2)", SIDE, COMPUTE, 0,
       SHARED(INT), SC(INT), SC(INT))
    OV(atomicCompareExchange, SC(UINT), "atomicCompSwap($0, $1, $2)", SIDE, COMPUTE, 0,
       SHARED(UINT), SC(UINT), SC(UINT))
    ATOMIC_IMG_CAS(1, atomicCompareExchange, INT) ATOMIC_IMG_CAS(2, atomicCompareExchange, INT)
    ATOMIC_IMG_CAS(3, atomicCompareExchange, INT) ATOMIC_IMG_CAS(1, atomicCompareExchange, UINT)
    ATOMIC_IMG_CAS(2, atomicCompareExchange, UINT) ATOMIC_IMG_CAS(3, atomicCompareExchange, UINT)
};

// --- the name table, in strcmp order (a test checks) ---

#define SET(name) { #name, ov_##name, sizeof(ov_##name) / sizeof(ov_##name[0]) },
static const fx_intrinsic_set sets[] = {
    SET(abs) SET(acos) SET(all) SET(any) SET(asfloat) SET(asin) SET(asint) SET(asuint)
    SET(atan) SET(atan2) SET(atomicAdd) SET(atomicAnd) SET(atomicCompareExchange)
    SET(atomicExchange) SET(atomicMax) SET(atomicMin) SET(atomicOr) SET(atomicXor)
    SET(barrier) SET(ceil) SET(clamp) SET(cos) SET(cosh) SET(countbits) SET(cross)
    SET(ddx) SET(ddx_coarse) SET(ddx_fine) SET(ddy) SET(ddy_coarse) SET(ddy_fine)
    SET(degrees) SET(determinant) SET(distance) SET(dot) SET(exp) SET(exp2)
    SET(f16tof32) SET(f32tof16) SET(faceforward) SET(firstbithigh) SET(firstbitlow)
    SET(floor) SET(fmod) SET(frac) SET(frexp) SET(fwidth) SET(groupMemoryBarrier)
    SET(isinf) SET(isnan) SET(ldexp) SET(length) SET(lerp) SET(log) SET(log10) SET(log2)
    SET(mad) SET(max) SET(memoryBarrier) SET(min) SET(modf) SET(mul) SET(normalize)
    SET(pow) SET(radians) SET(rcp) SET(reflect) SET(refract) SET(reversebits) SET(round)
    SET(rsqrt) SET(saturate) SET(sign) SET(sin) SET(sincos) SET(sinh) SET(smoothstep)
    SET(sqrt) SET(step) SET(tan) SET(tanh)
    SET(tex1D) SET(tex1Dfetch) SET(tex1Dgrad) SET(tex1Dlod) SET(tex1Dsize) SET(tex1Dstore)
    SET(tex2D) SET(tex2Dfetch) SET(tex2DgatherA) SET(tex2DgatherB) SET(tex2DgatherG)
    SET(tex2DgatherR) SET(tex2Dgrad) SET(tex2Dlod) SET(tex2Dsize) SET(tex2Dstore)
    SET(tex3D) SET(tex3Dfetch) SET(tex3Dgrad) SET(tex3Dlod) SET(tex3Dsize) SET(tex3Dstore)
    SET(transpose) SET(trunc)
};
#undef SET

static int compare_set_name(const void *key, const void *elem) {
    return strcmp(key, ((const fx_intrinsic_set *)elem)->name);
}

const fx_intrinsic_set *fx_intrinsic_lookup(const char *name) {
    return bsearch(name, sets, sizeof(sets) / sizeof(sets[0]), sizeof(sets[0]),
                   compare_set_name);
}

size_t fx_intrinsic_count(void) {
    return sizeof(sets) / sizeof(sets[0]);
}

const fx_intrinsic_set *fx_intrinsic_at(size_t index) {
    return index < fx_intrinsic_count() ? &sets[index] : NULL;
}

size_t fx_intrinsic_overload_count(void) {
    size_t total = 0;
    for (size_t i = 0; i < fx_intrinsic_count(); i++) {
        total += sets[i].count;
    }
    return total;
}

fx_type_select_status fx_intrinsic_select(const fx_intrinsic_set *set, const fx_type *args,
                                          size_t arg_count, const fx_intrinsic **best) {
    size_t index = 0;
    fx_type_select_status status = fx_type_select(args, arg_count, set->overloads, set->count,
                                                  sizeof(fx_intrinsic), &index);
    *best = status == FX_TYPE_SELECT_NONE ? NULL : &set->overloads[index];
    return status;
}
