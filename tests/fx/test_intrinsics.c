/*
 * test_intrinsics.c - the intrinsic table (src/fx/intrinsics.c): that every
 * intrinsic of the language is there with the overload counts worked out by
 * hand, that the table is well formed, and that calls resolve to the
 * overloads (and GLSL templates) HLSL and the reference compiler give them,
 * including the reference defects the table must not repeat.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fx_typesys.h"

static fx_type f(int n) {
    return fx_type_vector(FX_TYPE_FLOAT, n);
}

static fx_type i(int n) {
    return fx_type_vector(FX_TYPE_INT, n);
}

static fx_type u(int n) {
    return fx_type_vector(FX_TYPE_UINT, n);
}

static fx_type fm(int rows, int cols) {
    return fx_type_matrix(FX_TYPE_FLOAT, rows, cols);
}

static fx_type sampler(fx_base_type kind, fx_base_type elem, int rows) {
    return fx_type_object(kind, elem, rows);
}

#define name(t) fx_type_name((t), (char[FX_TYPE_NAME_SIZE]){ 0 }, FX_TYPE_NAME_SIZE)
#define ARGS(...) (const fx_type[]){ __VA_ARGS__ }, \
                  sizeof((const fx_type[]){ __VA_ARGS__ }) / sizeof(fx_type)

// Resolves a call that must resolve; fails the test otherwise.
static const fx_intrinsic *call(const char *fn, const fx_type *args, size_t n) {
    const fx_intrinsic_set *set = fx_intrinsic_lookup(fn);
    ck_assert_msg(set != NULL, "%s is not an intrinsic", fn);
    const fx_intrinsic *best = NULL;
    fx_type_select_status status = fx_intrinsic_select(set, args, n, &best);
    ck_assert_msg(status == FX_TYPE_SELECT_OK, "%s: status %d", fn, (int)status);
    return best;
}

static fx_type_select_status call_status(const char *fn, const fx_type *args, size_t n) {
    const fx_intrinsic *best;
    return fx_intrinsic_select(fx_intrinsic_lookup(fn), args, n, &best);
}

// --- the table as a whole ---

START_TEST(test_every_name_present) {
    static const char *const names[] = {
        "abs", "acos", "all", "any", "asfloat", "asin", "asint", "asuint", "atan", "atan2",
        "ceil", "clamp", "cos", "cosh", "countbits", "cross", "ddx", "ddx_coarse", "ddx_fine",
        "ddy", "ddy_coarse", "ddy_fine", "degrees", "determinant", "distance", "dot", "exp",
        "exp2", "f16tof32", "f32tof16", "faceforward", "firstbithigh", "firstbitlow", "floor",
        "frac", "frexp", "fwidth", "isinf", "isnan", "ldexp", "length", "lerp", "log", "log10",
        "log2", "mad", "max", "min", "modf", "mul", "normalize", "pow", "radians", "rcp",
        "reflect", "refract", "reversebits", "round", "rsqrt", "saturate", "sign", "sin",
        "sincos", "sinh", "smoothstep", "sqrt", "step", "tan", "tanh", "transpose", "trunc",
        "tex1D", "tex2D", "tex3D", "tex1Dlod", "tex2Dlod", "tex3Dlod", "tex1Dgrad", "tex2Dgrad",
        "tex3Dgrad", "tex1Dfetch", "tex2Dfetch", "tex3Dfetch", "tex2DgatherR", "tex2DgatherG",
        "tex2DgatherB", "tex2DgatherA", "tex1Dsize", "tex2Dsize", "tex3Dsize", "tex1Dstore",
        "tex2Dstore", "tex3Dstore", "barrier", "memoryBarrier", "groupMemoryBarrier",
        "atomicAdd", "atomicAnd", "atomicOr", "atomicXor", "atomicMin", "atomicMax",
        "atomicExchange", "atomicCompareExchange",
        "fmod", // the one extension name
    };
    size_t count = sizeof(names) / sizeof(names[0]);
    for (size_t k = 0; k < count; k++) {
        const fx_intrinsic_set *set = fx_intrinsic_lookup(names[k]);
        ck_assert_msg(set != NULL, "missing %s", names[k]);
        ck_assert_str_eq(set->name, names[k]);
    }
    ck_assert_uint_eq(fx_intrinsic_count(), count);
    ck_assert_uint_eq(count, 105);

    // Case-sensitive, and the compatibility macros are not intrinsics.
    ck_assert_ptr_null(fx_intrinsic_lookup("Tex2D"));
    ck_assert_ptr_null(fx_intrinsic_lookup("tex2Doffset"));
    ck_assert_ptr_null(fx_intrinsic_lookup("noise"));
    ck_assert_ptr_null(fx_intrinsic_lookup(""));
    ck_assert_ptr_null(fx_intrinsic_at(count));
}
END_TEST

START_TEST(test_overload_counts) {
    // 13 float shapes: scalar, 4 vectors... i.e. 1 + 3 vectors + 9 matrices.
    ck_assert_uint_eq(fx_intrinsic_lookup("sin")->count, 13);
    ck_assert_uint_eq(fx_intrinsic_lookup("abs")->count, 17);       // + int1..4
    ck_assert_uint_eq(fx_intrinsic_lookup("max")->count, 21);       // + int, uint
    ck_assert_uint_eq(fx_intrinsic_lookup("clamp")->count, 21);
    ck_assert_uint_eq(fx_intrinsic_lookup("lerp")->count, 13);
    ck_assert_uint_eq(fx_intrinsic_lookup("dot")->count, 4);
    ck_assert_uint_eq(fx_intrinsic_lookup("cross")->count, 1);
    ck_assert_uint_eq(fx_intrinsic_lookup("normalize")->count, 3);
    ck_assert_uint_eq(fx_intrinsic_lookup("transpose")->count, 9);
    ck_assert_uint_eq(fx_intrinsic_lookup("determinant")->count, 3);
    // mul per base (int, float): s*s 1, s*v and v*s 3+3, s*m and m*s 9+9,
    // v*m 9, m*v 9, m*m 27 = 70.
    ck_assert_uint_eq(fx_intrinsic_lookup("mul")->count, 140);
    // 12 element types (int, uint, float x 1..4 components), with/without offset.
    ck_assert_uint_eq(fx_intrinsic_lookup("tex2D")->count, 24);
    ck_assert_uint_eq(fx_intrinsic_lookup("tex3Dlod")->count, 24);
    ck_assert_uint_eq(fx_intrinsic_lookup("tex1Dgrad")->count, 24);
    // sampler, sampler with lod, storage.
    ck_assert_uint_eq(fx_intrinsic_lookup("tex2Dfetch")->count, 36);
    ck_assert_uint_eq(fx_intrinsic_lookup("tex3Dsize")->count, 36);
    ck_assert_uint_eq(fx_intrinsic_lookup("tex1Dstore")->count, 12);
    // plain, one offset, four offsets.
    ck_assert_uint_eq(fx_intrinsic_lookup("tex2DgatherB")->count, 36);
    // groupshared int/uint + storage 1D/2D/3D x int/uint.
    ck_assert_uint_eq(fx_intrinsic_lookup("atomicXor")->count, 8);
    ck_assert_uint_eq(fx_intrinsic_lookup("atomicCompareExchange")->count, 8);
    ck_assert_uint_eq(fx_intrinsic_lookup("barrier")->count, 1);
    // Summed by family: math 604 + other math 274 + textures 612 + compute 67.
    ck_assert_uint_eq(fx_intrinsic_overload_count(), 1557);
}
END_TEST

// Every placeholder names a parameter, or $R.
static bool template_ok(const fx_intrinsic *ov) {
    for (const char *p = ov->glsl; *p; p++) {
        if (*p != '$') {
            continue;
        }
        p++;
        if (*p == 'R') {
            continue;
        }
        if (*p < '0' || *p > '9' || *p - '0' >= ov->sig.count) {
            return false;
        }
    }
    return true;
}

START_TEST(test_table_well_formed) {
    size_t total = 0;
    for (size_t k = 0; k < fx_intrinsic_count(); k++) {
        const fx_intrinsic_set *set = fx_intrinsic_at(k);
        if (k > 0) {
            ck_assert_msg(strcmp(fx_intrinsic_at(k - 1)->name, set->name) < 0,
                          "%s is out of order", set->name);
        }
        ck_assert_ptr_eq(fx_intrinsic_lookup(set->name), set);
        ck_assert_uint_gt(set->count, 0);
        for (size_t j = 0; j < set->count; j++) {
            const fx_intrinsic *ov = &set->overloads[j];
            ck_assert_str_eq(ov->name, set->name);
            ck_assert_uint_le(ov->sig.count, FX_INTRINSIC_MAX_PARAMS);
            ck_assert_uint_eq(ov->sig.required, ov->sig.count);
            ck_assert_msg(template_ok(ov), "%s: bad template %s", ov->name, ov->glsl);
            ck_assert(ov->const_from == 0 || ov->const_from < ov->sig.count);
            for (int p = 0; p < ov->sig.count; p++) {
                fx_type t = ov->sig.params[p];
                ck_assert(fx_type_is_numeric(t) || fx_type_is_object(t));
                if (t.quals & FX_Q_OUT) {
                    ck_assert(ov->flags & FX_INTRINSIC_F_SIDE_EFFECTS);
                }
            }
            // No two overloads of a name take the same parameter types.
            for (size_t o = 0; o < j; o++) {
                const fx_intrinsic *other = &set->overloads[o];
                bool same = other->sig.count == ov->sig.count;
                for (int p = 0; same && p < ov->sig.count; p++) {
                    same = fx_type_equal(other->sig.params[p], ov->sig.params[p]);
                }
                ck_assert_msg(!same, "%s: overloads %zu and %zu collide", ov->name, o, j);
            }
        }
        total += set->count;
    }
    ck_assert_uint_eq(total, fx_intrinsic_overload_count());
}
END_TEST

// --- resolution of math calls ---

START_TEST(test_math_picks) {
    const fx_intrinsic *ov = call("abs", ARGS(i(1)));
    ck_assert_str_eq(name(ov->ret), "int");
    ck_assert_str_eq(ov->glsl, "abs($0)");
    ck_assert_str_eq(name(call("abs", ARGS(f(3)))->ret), "float3");

    // No lerp(float3, float3, float) in the set: s is broadcast to float3.
    ov = call("lerp", ARGS(f(3), f(3), f(1)));
    ck_assert_str_eq(name(ov->ret), "float3");
    ck_assert_str_eq(name(ov->sig.params[2]), "float3");
    ck_assert_str_eq(ov->glsl, "mix($0, $1, $2)");

    // max(0, x): float wins over int; max(int, uint) is uint (HLSL's usual
    // conversions), max(uint, uint) stays uint (an extension: the reference
    // has no uint max and goes to float).
    ck_assert_str_eq(name(call("max", ARGS(i(1), f(1)))->ret), "float");
    ck_assert_str_eq(name(call("max", ARGS(i(1), u(1)))->ret), "uint");
    ov = call("max", ARGS(u(2), u(2)));
    ck_assert_str_eq(name(ov->ret), "uint2");
    ck_assert(ov->flags & FX_INTRINSIC_F_EXTENSION);
    ck_assert_str_eq(name(call("clamp", ARGS(f(3), i(1), i(1)))->ret), "float3");
    ck_assert_str_eq(name(call("clamp", ARGS(i(2), i(1), i(1)))->ret), "int2");

    // dot has float forms only: int3 arguments convert, the result is float.
    ov = call("dot", ARGS(i(3), i(3)));
    ck_assert_str_eq(name(ov->ret), "float");
    ck_assert_str_eq(name(ov->sig.params[0]), "float3");
    ck_assert_str_eq(ov->glsl, "dot($0, $1)");
    ck_assert_str_eq(call("dot", ARGS(f(1), f(1)))->glsl, "($0 * $1)");

    ck_assert_str_eq(name(call("length", ARGS(f(3)))->ret), "float");
    ck_assert_str_eq(name(call("saturate", ARGS(i(1)))->ret), "float");
    ck_assert_str_eq(name(call("all", ARGS(f(3)))->sig.params[0]), "bool3");
    ck_assert_str_eq(call("any", ARGS(fx_type_scalar(FX_TYPE_BOOL)))->glsl, "$0");
    ck_assert_str_eq(name(call("isnan", ARGS(f(2)))->ret), "bool2");
    ck_assert_str_eq(name(call("transpose", ARGS(fm(2, 4)))->ret), "float4x2");
    ck_assert_str_eq(name(call("determinant", ARGS(fm(3, 3)))->ret), "float");
    // min16 arguments use the float forms.
    ck_assert_str_eq(name(call("sqrt", ARGS(fx_type_vector(FX_TYPE_MIN16FLOAT, 2)))->ret),
                     "float2");
}
END_TEST

START_TEST(test_math_templates) {
    ck_assert_str_eq(call("frac", ARGS(f(2)))->glsl, "fract($0)");
    ck_assert_str_eq(call("rsqrt", ARGS(f(1)))->glsl, "inversesqrt($0)");
    ck_assert_str_eq(call("rcp", ARGS(f(4)))->glsl, "(1.0 / $0)");
    ck_assert_str_eq(call("saturate", ARGS(f(3)))->glsl, "clamp($0, 0.0, 1.0)");
    ck_assert_str_eq(call("atan2", ARGS(f(1), f(1)))->glsl, "atan($0, $1)");
    ck_assert_str_eq(call("round", ARGS(f(1)))->glsl, "roundEven($0)");
    ck_assert_str_eq(call("mad", ARGS(f(2), f(2), f(2)))->glsl, "($0 * $1 + $2)");
    ck_assert_str_eq(call("fmod", ARGS(f(1), f(1)))->glsl, "($0 - $1 * trunc($0 / $1))");
    ck_assert(call("fmod", ARGS(f(1), f(1)))->flags & FX_INTRINSIC_F_EXTENSION);
    ck_assert_str_eq(call("ddx", ARGS(f(2)))->glsl, "dFdx($0)");
    ck_assert(call("ddx", ARGS(f(2)))->needs & FX_INTRINSIC_NEED_FRAGMENT);
    const fx_intrinsic *fine = call("ddy_fine", ARGS(f(1)));
    ck_assert_str_eq(fine->glsl, "dFdyFine($0)");
    ck_assert(fine->needs & FX_INTRINSIC_NEED_DERIV_CONTROL);
    ck_assert_str_eq(call("countbits", ARGS(u(3)))->glsl, "$R(bitCount($0))");
    ck_assert_str_eq(call("asfloat", ARGS(u(1)))->glsl, "uintBitsToFloat($0)");
    ck_assert_str_eq(call("asint", ARGS(f(2)))->glsl, "floatBitsToInt($0)");
    ck_assert_str_eq(call("f16tof32", ARGS(u(1)))->glsl, "unpackHalf2x16($0).x");
    ck_assert_str_eq(call("f32tof16", ARGS(f(2)))->glsl,
                     "uvec2(packHalf2x16(vec2($0.x, 0.0)), packHalf2x16(vec2($0.y, 0.0)))");

    // Matrix forms of component-wise functions: an extension, per column.
    const fx_intrinsic *ov = call("abs", ARGS(fm(3, 3)));
    ck_assert_str_eq(name(ov->ret), "float3x3");
    ck_assert(ov->flags & FX_INTRINSIC_F_PER_COLUMN);
    ck_assert(!(call("abs", ARGS(f(3)))->flags & FX_INTRINSIC_F_PER_COLUMN));
    ck_assert_int_eq(call_status("sin", ARGS(fx_type_matrix(FX_TYPE_FLOAT, 1, 3))),
                     FX_TYPE_SELECT_NONE);
}
END_TEST

START_TEST(test_defects_avoided) {
    // refract(i, n, eta) and faceforward(n, i, ng) pass every argument once,
    // in order (the reference passes the second argument twice).
    const fx_intrinsic *ov = call("refract", ARGS(f(3), f(3), f(1)));
    ck_assert_str_eq(ov->glsl, "refract($0, $1, $2)");
    ck_assert_str_eq(name(ov->sig.params[2]), "float");
    ck_assert_str_eq(call("faceforward", ARGS(f(3), f(3), f(3)))->glsl,
                     "faceforward($0, $1, $2)");
    // tex3Dlod and tex3Dgrad offsets are int3 (the reference declares int2).
    fx_type s3 = sampler(FX_TYPE_SAMPLER3D, FX_TYPE_FLOAT, 4);
    ov = call("tex3Dlod", ARGS(s3, f(4), i(3)));
    ck_assert_str_eq(name(ov->sig.params[2]), "int3");
    ck_assert_str_eq(ov->glsl, "textureLodOffset($0, $1.xyz, $1.w, $2)");
    ck_assert_uint_eq(ov->const_from, 2);
    ov = call("tex3Dgrad", ARGS(s3, f(3), f(3), f(3), i(3)));
    ck_assert_str_eq(name(ov->sig.params[4]), "int3");
    ck_assert_uint_eq(ov->const_from, 4);
    // An int2 offset on a 3D sampler no longer matches anything.
    ck_assert_int_eq(call_status("tex3Dlod", ARGS(s3, f(4), i(2))), FX_TYPE_SELECT_NONE);
}
END_TEST

START_TEST(test_out_params) {
    const fx_intrinsic *ov = call("sincos", ARGS(f(2), f(2), f(2)));
    ck_assert_uint_eq(ov->ret.base, FX_TYPE_VOID);
    ck_assert_uint_eq(ov->sig.params[0].quals & FX_Q_OUT, 0);
    ck_assert_uint_eq(ov->sig.params[1].quals & FX_Q_INOUT, FX_Q_OUT);
    ck_assert_uint_eq(ov->sig.params[2].quals & FX_Q_INOUT, FX_Q_OUT);
    ck_assert_str_eq(ov->glsl, "($1 = sin($0), $2 = cos($0))");
    ck_assert(ov->flags & FX_INTRINSIC_F_SIDE_EFFECTS);
    ov = call("modf", ARGS(f(1), f(1)));
    ck_assert(ov->sig.params[1].quals & FX_Q_OUT);
    ov = call("frexp", ARGS(f(3), i(3)));
    ck_assert_str_eq(name(ov->sig.params[1]), "int3");
    ck_assert(ov->sig.params[1].quals & FX_Q_OUT);
}
END_TEST

START_TEST(test_ambiguity) {
    // firstbithigh has int and uint forms; a float argument converts to
    // either with rank 12: ambiguous (X3067).
    ck_assert_int_eq(call_status("firstbithigh", ARGS(f(1))), FX_TYPE_SELECT_AMBIGUOUS);
    const fx_intrinsic *best = NULL;
    ck_assert_int_eq(fx_intrinsic_select(fx_intrinsic_lookup("firstbithigh"), ARGS(f(1)), &best),
                     FX_TYPE_SELECT_AMBIGUOUS);
    ck_assert_ptr_nonnull(best);
    // asfloat(float) is ambiguous in the reference (int or uint); the
    // identity form settles it.
    ck_assert_str_eq(call("asfloat", ARGS(f(1)))->glsl, "$0");
    // asint(uint) keeps the bits instead of converting through float.
    ck_assert_str_eq(call("asint", ARGS(u(2)))->glsl, "$R($0)");
    // Wrong arity or types: nothing viable.
    ck_assert_int_eq(call_status("dot", ARGS(f(3))), FX_TYPE_SELECT_NONE);
    ck_assert_int_eq(call_status("cross", ARGS(f(3), fm(3, 3))), FX_TYPE_SELECT_NONE);
    ck_assert_int_eq(fx_intrinsic_select(fx_intrinsic_lookup("cross"), ARGS(f(4), f(4)), &best),
                     FX_TYPE_SELECT_OK);  // float4 truncates to float3, as in HLSL (X3206)
}
END_TEST

// --- mul ---

START_TEST(test_mul) {
    const fx_intrinsic *ov = call("mul", ARGS(f(4), fm(4, 4)));
    ck_assert_str_eq(name(ov->ret), "float4");
    ck_assert_str_eq(ov->glsl, "($1 * $0)");
    ov = call("mul", ARGS(fm(3, 4), f(4)));
    ck_assert_str_eq(name(ov->ret), "float3");
    ck_assert_str_eq(ov->glsl, "($1 * $0)");
    ov = call("mul", ARGS(f(3), fm(3, 2)));
    ck_assert_str_eq(name(ov->ret), "float2");
    ov = call("mul", ARGS(fm(2, 3), fm(3, 4)));
    ck_assert_str_eq(name(ov->ret), "float2x4");
    ck_assert_str_eq(ov->glsl, "($1 * $0)");
    ov = call("mul", ARGS(f(1), f(3)));
    ck_assert_str_eq(name(ov->ret), "float3");
    ck_assert_str_eq(ov->glsl, "($0 * $1)");
    ov = call("mul", ARGS(fm(4, 4), f(1)));
    ck_assert_str_eq(name(ov->ret), "float4x4");
    ck_assert_str_eq(ov->glsl, "($0 * $1)");
    ov = call("mul", ARGS(f(1), f(1)));
    ck_assert_str_eq(name(ov->ret), "float");
    // int matrices are float matrices in GLSL.
    ov = call("mul", ARGS(i(2), fx_type_matrix(FX_TYPE_INT, 2, 2)));
    ck_assert_str_eq(name(ov->ret), "int2");
    ck_assert(ov->flags & FX_INTRINSIC_F_FLOAT_MATRIX);
    ck_assert(!(call("mul", ARGS(i(1), i(3)))->flags & FX_INTRINSIC_F_FLOAT_MATRIX));
    // An int vector with a float matrix goes to float.
    ck_assert_str_eq(name(call("mul", ARGS(i(4), fm(4, 4)))->ret), "float4");
    // Inner dimensions must agree.
    ck_assert_int_eq(call_status("mul", ARGS(fm(2, 3), fm(2, 3))), FX_TYPE_SELECT_NONE);
}
END_TEST

// --- textures and compute ---

START_TEST(test_texture_picks) {
    fx_type s = sampler(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4);
    const fx_intrinsic *ov = call("tex2D", ARGS(s, f(2)));
    ck_assert_str_eq(name(ov->ret), "float4");
    ck_assert_str_eq(ov->glsl, "texture($0, $1)");
    ov = call("tex2D", ARGS(s, f(2), i(2)));
    ck_assert_str_eq(ov->glsl, "textureOffset($0, $1, $2)");
    ck_assert_uint_eq(ov->const_from, 2);

    // T is the element type; scalar elements take .x of GLSL's vec4.
    ov = call("tex2D", ARGS(sampler(FX_TYPE_SAMPLER2D, FX_TYPE_UINT, 1), f(2)));
    ck_assert_str_eq(name(ov->ret), "uint");
    ck_assert_str_eq(ov->glsl, "texture($0, $1).x");
    ov = call("tex2D", ARGS(sampler(FX_TYPE_SAMPLER2D, FX_TYPE_INT, 4), f(2)));
    ck_assert_str_eq(name(ov->ret), "int4");
    ov = call("tex2Dlod", ARGS(sampler(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 2), f(4)));
    ck_assert_str_eq(name(ov->ret), "float2");
    ck_assert_str_eq(ov->glsl, "textureLod($0, $1.xy, $1.w).xy");
    ck_assert(ov->flags & FX_INTRINSIC_F_EXTENSION);
    ov = call("tex1Dlod", ARGS(sampler(FX_TYPE_SAMPLER1D, FX_TYPE_FLOAT, 4), f(4)));
    ck_assert_str_eq(ov->glsl, "textureLod($0, $1.x, $1.w)");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_1D);
    // A float2 texcoord fed to tex2Dlod is no float4: nothing viable.
    ck_assert_int_eq(call_status("tex2Dlod", ARGS(s, f(2))), FX_TYPE_SELECT_NONE);
    // Element types must match exactly.
    ck_assert_int_eq(call_status("tex2D", ARGS(sampler(FX_TYPE_SAMPLER3D, FX_TYPE_FLOAT, 4),
                                               f(2))), FX_TYPE_SELECT_NONE);

    ck_assert_str_eq(call("tex2Dgrad", ARGS(s, f(2), f(2), f(2)))->glsl,
                     "textureGrad($0, $1, $2, $3)");
    ov = call("tex2Dfetch", ARGS(s, i(2)));
    ck_assert_str_eq(ov->glsl, "texelFetch($0, $1, 0)");
    ck_assert_str_eq(call("tex2Dfetch", ARGS(s, i(2), i(1)))->glsl, "texelFetch($0, $1, $2)");
    // float coordinates convert to int2.
    ck_assert_str_eq(name(call("tex2Dfetch", ARGS(s, f(2)))->sig.params[1]), "int2");
    ov = call("tex2Dsize", ARGS(s));
    ck_assert_str_eq(name(ov->ret), "int2");
    ck_assert_str_eq(ov->glsl, "textureSize($0, 0)");
    ck_assert_str_eq(call("tex2Dsize", ARGS(s, i(1)))->glsl, "textureSize($0, $1)");
    ck_assert_str_eq(name(call("tex3Dsize", ARGS(sampler(FX_TYPE_SAMPLER3D, FX_TYPE_INT, 1)))->ret),
                     "int3");
    ck_assert_str_eq(name(call("tex1Dsize", ARGS(sampler(FX_TYPE_SAMPLER1D, FX_TYPE_INT, 1)))->ret),
                     "int");
}
END_TEST

START_TEST(test_gathers) {
    fx_type s = sampler(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4);
    const fx_intrinsic *ov = call("tex2DgatherG", ARGS(s, f(2)));
    ck_assert_str_eq(name(ov->ret), "float4");
    ck_assert_str_eq(ov->glsl, "textureGather($0, $1, 1)");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_GATHER);
    ck_assert(!(ov->flags & FX_INTRINSIC_F_EXTENSION));
    ov = call("tex2DgatherA", ARGS(s, f(2), i(2)));
    ck_assert_str_eq(ov->glsl, "textureGatherOffset($0, $1, $2, 3)");
    ov = call("tex2DgatherR", ARGS(s, f(2), i(2), i(2), i(2), i(2)));
    ck_assert_str_eq(ov->glsl, "textureGatherOffsets($0, $1, ivec2[4]($2, $3, $4, $5), 0)");
    ck_assert_uint_eq(ov->const_from, 2);
    ck_assert(ov->needs & FX_INTRINSIC_NEED_GATHER_OFFSETS);
    // Gathering a scalar float texture returns float4, an extension.
    ov = call("tex2DgatherR", ARGS(sampler(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 1), f(2)));
    ck_assert_str_eq(name(ov->ret), "float4");
    ck_assert(ov->flags & FX_INTRINSIC_F_EXTENSION);
    ck_assert_str_eq(name(call("tex2DgatherB", ARGS(sampler(FX_TYPE_SAMPLER2D, FX_TYPE_UINT, 1),
                                                    f(2)))->ret), "uint4");
}
END_TEST

START_TEST(test_storage) {
    fx_type st = sampler(FX_TYPE_STORAGE2D, FX_TYPE_FLOAT, 1);
    const fx_intrinsic *ov = call("tex2Dstore", ARGS(st, i(2), f(1)));
    ck_assert_uint_eq(ov->ret.base, FX_TYPE_VOID);
    ck_assert_str_eq(ov->glsl, "imageStore($0, $1, vec4($2))");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_COMPUTE);
    ck_assert(ov->flags & FX_INTRINSIC_F_SIDE_EFFECTS);
    ov = call("tex2Dstore", ARGS(sampler(FX_TYPE_STORAGE2D, FX_TYPE_UINT, 2), i(2), u(2)));
    ck_assert_str_eq(ov->glsl, "imageStore($0, $1, uvec4($2, 0, 0))");
    ov = call("tex3Dstore", ARGS(sampler(FX_TYPE_STORAGE3D, FX_TYPE_FLOAT, 4), i(3), f(4)));
    ck_assert_str_eq(ov->glsl, "imageStore($0, $1, $2)");
    // A float4 value into a storage of float truncates (X3206), as in HLSL.
    ck_assert_str_eq(name(call("tex2Dstore", ARGS(st, i(2), f(4)))->sig.params[2]), "float");

    ov = call("tex2Dfetch", ARGS(sampler(FX_TYPE_STORAGE2D, FX_TYPE_FLOAT, 4), i(2)));
    ck_assert_str_eq(ov->glsl, "imageLoad($0, $1)");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_IMAGE);
    ov = call("tex2Dsize", ARGS(st));
    ck_assert_str_eq(ov->glsl, "imageSize($0)");
    ck_assert_str_eq(name(ov->ret), "int2");
}
END_TEST

START_TEST(test_compute) {
    const fx_intrinsic *ov = call("barrier", NULL, 0);
    ck_assert_uint_eq(ov->sig.count, 0);
    ck_assert_str_eq(ov->glsl, "barrier()");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_COMPUTE);
    ck_assert_str_eq(call("groupMemoryBarrier", NULL, 0)->glsl, "groupMemoryBarrier()");
    ck_assert_int_eq(call_status("barrier", ARGS(i(1))), FX_TYPE_SELECT_NONE);

    // Groupshared atomics: inout groupshared destination.
    ov = call("atomicAdd", ARGS(i(1), i(1)));
    ck_assert_str_eq(name(ov->ret), "int");
    ck_assert_uint_eq(ov->sig.params[0].quals, FX_Q_INOUT | FX_Q_GROUPSHARED);
    ck_assert_str_eq(ov->glsl, "atomicAdd($0, $1)");
    ck_assert_str_eq(name(call("atomicMax", ARGS(u(1), u(1)))->ret), "uint");
    ov = call("atomicCompareExchange", ARGS(u(1), u(1), u(1)));
    ck_assert_str_eq(ov->glsl, "atomicCompSwap($0, $1, $2)");

    // Storage atomics.
    fx_type st = sampler(FX_TYPE_STORAGE2D, FX_TYPE_INT, 1);
    ov = call("atomicOr", ARGS(st, i(2), i(1)));
    ck_assert_str_eq(ov->glsl, "imageAtomicOr($0, $1, $2)");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_IMAGE_ATOMIC);
    ov = call("atomicCompareExchange", ARGS(st, i(2), i(1), i(1)));
    ck_assert_str_eq(ov->glsl, "imageAtomicCompSwap($0, $1, $2, $3)");
    ck_assert_uint_eq(ov->sig.count, 4);
    ov = call("atomicExchange", ARGS(sampler(FX_TYPE_STORAGE1D, FX_TYPE_UINT, 1), i(1), u(1)));
    ck_assert_str_eq(ov->glsl, "imageAtomicExchange($0, $1, $2)");
    ck_assert(ov->needs & FX_INTRINSIC_NEED_1D);
    // Atomics need a scalar integer element.
    ck_assert_int_eq(call_status("atomicAdd", ARGS(sampler(FX_TYPE_STORAGE2D, FX_TYPE_FLOAT, 1),
                                                   i(2), f(1))), FX_TYPE_SELECT_NONE);
}
END_TEST

static Suite *intrinsics_suite(void) {
    Suite *s = suite_create("intrinsics");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_every_name_present);
    tcase_add_test(table, test_overload_counts);
    tcase_add_test(table, test_table_well_formed);
    suite_add_tcase(s, table);
    TCase *math = tcase_create("math");
    tcase_add_test(math, test_math_picks);
    tcase_add_test(math, test_math_templates);
    tcase_add_test(math, test_defects_avoided);
    tcase_add_test(math, test_out_params);
    tcase_add_test(math, test_ambiguity);
    tcase_add_test(math, test_mul);
    suite_add_tcase(s, math);
    TCase *tex = tcase_create("textures");
    tcase_add_test(tex, test_texture_picks);
    tcase_add_test(tex, test_gathers);
    tcase_add_test(tex, test_storage);
    tcase_add_test(tex, test_compute);
    suite_add_tcase(s, tex);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(intrinsics_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
