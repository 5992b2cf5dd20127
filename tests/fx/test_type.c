/*
 * test_type.c - the FX type system (src/fx/type.c): constructors and names,
 * conversion ranks, operator result types, overload selection among user
 * function signatures, and the std140 layout of a uniform block.
 *
 * Every expected rank, pick and offset below is worked out by hand from the
 * rules in fx_typesys.h (the reference compiler's rank scale), not printed by
 * the code under test.
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

static fx_type b(int n) {
    return fx_type_vector(FX_TYPE_BOOL, n);
}

static fx_type fm(int rows, int cols) {
    return fx_type_matrix(FX_TYPE_FLOAT, rows, cols);
}

// The name in a buffer that lives as long as the enclosing block.
#define name(t) fx_type_name((t), (char[FX_TYPE_NAME_SIZE]){ 0 }, FX_TYPE_NAME_SIZE)

// --- constructors, predicates, names ---

START_TEST(test_predicates) {
    ck_assert(fx_type_is_scalar(f(1)));
    ck_assert(fx_type_is_vector(f(3)));
    ck_assert(!fx_type_is_scalar(f(3)));
    ck_assert(fx_type_is_matrix(fm(4, 4)));
    ck_assert(fx_type_is_matrix(fm(1, 4)));   // float1x4 is a matrix
    ck_assert(fx_type_is_vector(fm(4, 1)));   // float4x1 is float4
    ck_assert_int_eq(fx_type_components(fm(3, 4)), 12);
    ck_assert_int_eq(fx_type_components(f(1)), 1);
    ck_assert(fx_type_is_integral(b(1)));
    ck_assert(fx_type_is_integral(fx_type_scalar(FX_TYPE_MIN16UINT)));
    ck_assert(!fx_type_is_integral(f(1)));
    ck_assert(fx_type_is_floating(fx_type_scalar(FX_TYPE_MIN16FLOAT)));
    ck_assert(fx_type_is_signed(i(2)));
    ck_assert(!fx_type_is_signed(u(2)));

    fx_type s = fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4);
    ck_assert(fx_type_is_object(s));
    ck_assert(fx_type_is_sampler(s));
    ck_assert(!fx_type_is_numeric(s));
    ck_assert_int_eq(fx_type_components(s), 0);
    ck_assert_int_eq(fx_type_object_dim(s), 2);
    ck_assert_int_eq(fx_type_object_dim(fx_type_object(FX_TYPE_STORAGE3D, FX_TYPE_INT, 1)), 3);
    ck_assert(fx_type_is_texture(fx_type_object(FX_TYPE_TEXTURE1D, FX_TYPE_VOID, 0)));

    fx_type arr = fx_type_array(f(3), 4);
    ck_assert(fx_type_is_array(arr));
    ck_assert(!fx_type_is_vector(arr));
    ck_assert(fx_type_equal(fx_type_element(arr), f(3)));
    ck_assert(!fx_type_equal(arr, f(3)));
    ck_assert(fx_type_equal(fx_type_with_base(fm(3, 3), FX_TYPE_INT),
                            fx_type_matrix(FX_TYPE_INT, 3, 3)));
    ck_assert(fx_type_is_error(fx_type_error()));
    ck_assert(fx_type_is_void(fx_type_void()));
}
END_TEST

START_TEST(test_names) {
    ck_assert_str_eq(name(f(3)), "float3");
    ck_assert_str_eq(name(f(1)), "float");
    ck_assert_str_eq(name(fx_type_matrix(FX_TYPE_INT, 2, 2)), "int2x2");
    ck_assert_str_eq(name(fm(3, 4)), "float3x4");
    ck_assert_str_eq(name(fx_type_vector(FX_TYPE_MIN16FLOAT, 4)), "min16float4");
    ck_assert_str_eq(name(b(1)), "bool");
    ck_assert_str_eq(name(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_UINT, 1)), "sampler2D<uint>");
    ck_assert_str_eq(name(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4)),
                     "sampler2D<float4>");
    ck_assert_str_eq(name(fx_type_object(FX_TYPE_STORAGE3D, FX_TYPE_INT, 2)), "storage3D<int2>");
    // The element is stored the way the reference keeps it.
    ck_assert_str_eq(name(fx_type_object(FX_TYPE_SAMPLER1D, FX_TYPE_MIN16INT, 1)),
                     "sampler1D<int>");
    ck_assert_str_eq(name(fx_type_object(FX_TYPE_TEXTURE2D, FX_TYPE_VOID, 0)), "texture2D");
    ck_assert_str_eq(name(fx_type_array(f(3), 4)), "float3[4]");
    ck_assert_str_eq(name(fx_type_array(f(1), -1)), "float[]");
    ck_assert_str_eq(name(fx_type_void()), "void");
    ck_assert_str_eq(name(fx_type_error()), "<error>");
    ck_assert_str_eq(name((fx_type){ .base = FX_TYPE_STRING }), "string");

    char small[4];
    ck_assert_str_eq(fx_type_name(fm(4, 4), small, sizeof(small)), "flo");
}
END_TEST

// --- ranks and conversions ---

START_TEST(test_rank_base_types) {
    // Same shape: (base score * 4) * components.
    ck_assert_uint_eq(fx_type_rank(i(1), i(1)), 20);  // 5 * 4
    ck_assert_uint_eq(fx_type_rank(f(1), f(1)), 24);  // float ranks 6
    ck_assert_uint_eq(fx_type_rank(f(4), f(4)), 96);
    ck_assert_uint_eq(fx_type_rank(fx_type_scalar(FX_TYPE_MIN16FLOAT), f(1)), 24);
    ck_assert_uint_eq(fx_type_rank(fx_type_scalar(FX_TYPE_MIN16INT), i(1)), 20);
    ck_assert_uint_eq(fx_type_rank(b(1), b(1)), 20);
    ck_assert_uint_eq(fx_type_rank(b(1), f(1)), 16);  // from bool: 4
    ck_assert_uint_eq(fx_type_rank(b(1), i(1)), 16);
    ck_assert_uint_eq(fx_type_rank(i(1), b(1)), 12);  // to bool: 3
    ck_assert_uint_eq(fx_type_rank(f(1), b(1)), 12);
    // The question "int -> float or int -> uint?": the reference ranks the
    // promotion to float (4) above the change of sign (2), and signed ->
    // unsigned (2) above unsigned -> signed (1).
    ck_assert_uint_eq(fx_type_rank(i(1), f(1)), 16);
    ck_assert_uint_eq(fx_type_rank(i(1), u(1)), 8);
    ck_assert_uint_eq(fx_type_rank(u(1), i(1)), 4);
    ck_assert_uint_eq(fx_type_rank(u(1), f(1)), 16);
    ck_assert_uint_eq(fx_type_rank(f(1), i(1)), 12);  // demotion float -> int: 3
    ck_assert_uint_eq(fx_type_rank(f(1), u(1)), 12);
    ck_assert_uint_eq(fx_type_rank(i(3), f(3)), 48);
}
END_TEST

START_TEST(test_rank_shapes) {
    ck_assert_uint_eq(fx_type_rank(f(1), f(3)), 12);  // scalar -> vector halves: 24 / 2
    ck_assert_uint_eq(fx_type_rank(i(1), f(4)), 8);   // 16 / 2
    ck_assert_uint_eq(fx_type_rank(f(4), f(3)), 6);   // truncation quarters: 24 / 4
    ck_assert_uint_eq(fx_type_rank(f(4), f(1)), 6);   // vector -> scalar: 24 / 4
    ck_assert_uint_eq(fx_type_rank(i(4), f(2)), 4);   // 16 / 4
    ck_assert_uint_eq(fx_type_rank(f(2), f(4)), 0);   // no widening of vectors
    ck_assert_uint_eq(fx_type_rank(fm(4, 4), fm(4, 4)), 384);  // 24 * 16
    ck_assert_uint_eq(fx_type_rank(fx_type_matrix(FX_TYPE_INT, 3, 3), fm(3, 3)), 144);
    ck_assert_uint_eq(fx_type_rank(fm(4, 4), fm(3, 3)), 0);  // no matrix truncation
    ck_assert_uint_eq(fx_type_rank(f(1), fm(4, 4)), 0);      // no scalar -> matrix
    ck_assert_uint_eq(fx_type_rank(f(4), fm(2, 2)), 0);
    ck_assert_uint_eq(fx_type_rank(fm(2, 2), f(4)), 0);
    ck_assert_uint_eq(fx_type_rank(fm(1, 4), f(4)), 0);
}
END_TEST

START_TEST(test_rank_other_kinds) {
    fx_type s4 = fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4);
    fx_type s1 = fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 1);
    fx_type raw = { .base = FX_TYPE_SAMPLER2D, .elem_base = FX_TYPE_MIN16FLOAT, .elem_rows = 4 };
    ck_assert_uint_ne(fx_type_rank(s4, s4), 0);
    ck_assert_uint_ne(fx_type_rank(raw, s4), 0);      // min16 element normalised
    ck_assert_uint_eq(fx_type_rank(s1, s4), 0);
    ck_assert_uint_eq(fx_type_rank(s4, fx_type_object(FX_TYPE_SAMPLER3D, FX_TYPE_FLOAT, 4)), 0);
    ck_assert_uint_eq(fx_type_rank(s4, f(4)), 0);
    ck_assert_uint_eq(fx_type_rank(f(4), s4), 0);

    ck_assert_uint_ne(fx_type_rank(fx_type_array(f(1), 3), fx_type_array(f(1), 3)), 0);
    ck_assert_uint_ne(fx_type_rank(fx_type_array(f(1), 3), fx_type_array(f(1), -1)), 0);
    ck_assert_uint_eq(fx_type_rank(fx_type_array(f(1), 3), fx_type_array(f(1), 4)), 0);
    ck_assert_uint_eq(fx_type_rank(fx_type_array(i(1), 3), fx_type_array(f(1), 3)), 0);
    ck_assert_uint_eq(fx_type_rank(fx_type_array(f(1), 3), f(1)), 0);
    ck_assert_uint_eq(fx_type_rank(f(1), fx_type_array(f(1), 1)), 0);

    fx_struct_decl *one = (fx_struct_decl *)(uintptr_t)0x10; // never dereferenced
    fx_struct_decl *two = (fx_struct_decl *)(uintptr_t)0x20;
    fx_type s_one = { .base = FX_TYPE_STRUCT, .strct = one };
    fx_type s_two = { .base = FX_TYPE_STRUCT, .strct = two };
    ck_assert_uint_ne(fx_type_rank(s_one, s_one), 0);
    ck_assert_uint_eq(fx_type_rank(s_one, s_two), 0);
    ck_assert_uint_eq(fx_type_rank(s_one, f(1)), 0);

    // ERROR fits anything, in both directions, so one error does not cascade.
    ck_assert_uint_ne(fx_type_rank(fx_type_error(), f(3)), 0);
    ck_assert_uint_ne(fx_type_rank(s4, fx_type_error()), 0);
}
END_TEST

START_TEST(test_convert) {
    ck_assert_int_eq(fx_type_convert(f(4), f(3)), FX_TYPE_CONVERT_TRUNCATES);
    ck_assert_int_eq(fx_type_convert(f(3), f(1)), FX_TYPE_CONVERT_TRUNCATES);
    ck_assert_int_eq(fx_type_convert(f(1), f(3)), FX_TYPE_CONVERT_OK);
    ck_assert_int_eq(fx_type_convert(i(3), f(3)), FX_TYPE_CONVERT_OK);
    ck_assert_int_eq(fx_type_convert(f(2), f(4)), FX_TYPE_CONVERT_NONE);
    ck_assert_int_eq(fx_type_convert(f(1), fm(3, 3)), FX_TYPE_CONVERT_NONE);
    ck_assert_int_eq(fx_type_convert(fm(3, 3), fm(3, 3)), FX_TYPE_CONVERT_OK);
    ck_assert(fx_type_convertible(b(2), f(2)));
    ck_assert(!fx_type_convertible(f(1), fx_type_void()));
    ck_assert(fx_type_convertible(fx_type_void(), fx_type_void()));
}
END_TEST

// --- operators ---

START_TEST(test_merge) {
    fx_type r;
    ck_assert_int_eq(fx_type_merge(i(1), f(1), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "float");
    ck_assert_int_eq(fx_type_merge(f(3), f(1), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "float3");
    ck_assert_int_eq(fx_type_merge(i(1), f(3), &r), FX_TYPE_OP_OK);  // broadcast and promote
    ck_assert_str_eq(name(r), "float3");
    ck_assert_int_eq(fx_type_merge(f(4), f(2), &r), FX_TYPE_OP_TRUNCATES);
    ck_assert_str_eq(name(r), "float2");
    ck_assert_int_eq(fx_type_merge(fm(3, 3), f(1), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "float3x3");
    ck_assert_int_eq(fx_type_merge(fm(4, 4), fm(3, 3), &r), FX_TYPE_OP_TRUNCATES);
    ck_assert_str_eq(name(r), "float3x3");
    ck_assert_int_eq(fx_type_merge(f(4), fm(4, 4), &r), FX_TYPE_OP_MISMATCH);
    // Promotion order bool < min16int < int < min16uint < uint < min16float < float.
    ck_assert_int_eq(fx_type_merge(i(1), u(1), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "uint");
    ck_assert_int_eq(fx_type_merge(fx_type_scalar(FX_TYPE_MIN16INT), u(2), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "uint2");
    ck_assert_int_eq(fx_type_merge(fx_type_scalar(FX_TYPE_MIN16FLOAT), i(1), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "min16float");
    ck_assert_int_eq(fx_type_merge(b(2), b(2), &r), FX_TYPE_OP_OK);
    ck_assert_str_eq(name(r), "bool2");
    ck_assert_int_eq(fx_type_merge(fx_type_error(), f(2), &r), FX_TYPE_OP_OK);
    ck_assert(fx_type_is_error(r));
    ck_assert_int_eq(fx_type_merge(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4), f(1), &r),
                     FX_TYPE_OP_NOT_NUMERIC);
    ck_assert_int_eq(fx_type_merge(fx_type_array(f(1), 2), f(1), &r), FX_TYPE_OP_NOT_NUMERIC);

    fx_type precise = f(1);
    precise.quals = FX_Q_PRECISE | FX_Q_CONST;
    ck_assert_int_eq(fx_type_merge(precise, f(1), &r), FX_TYPE_OP_OK);
    ck_assert_uint_eq(r.quals, FX_Q_PRECISE);
}
END_TEST

START_TEST(test_binary) {
    fx_type operand, result;
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_ARITHMETIC, b(1), b(1), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(result), "int");            // bool arithmetic is int arithmetic
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_ARITHMETIC, i(3), f(1), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(result), "float3");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_BITWISE, f(1), i(1), &operand, &result),
                     FX_TYPE_OP_NOT_INTEGRAL);
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_BITWISE, u(2), i(1), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(result), "uint2");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_BITWISE, b(1), b(1), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(result), "int");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_COMPARE, i(3), f(3), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(operand), "float3");
    ck_assert_str_eq(name(result), "bool3");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_LOGICAL, f(2), i(2), &operand, &result),
                     FX_TYPE_OP_OK);
    ck_assert_str_eq(name(operand), "bool2");
    ck_assert_str_eq(name(result), "bool2");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_COMPARE, f(4), f(3), &operand, &result),
                     FX_TYPE_OP_TRUNCATES);
    ck_assert_str_eq(name(result), "bool3");
    ck_assert_int_eq(fx_type_binary(FX_TYPE_OP_ARITHMETIC, fx_type_void(), f(1), &operand,
                                    &result), FX_TYPE_OP_NOT_NUMERIC);
}
END_TEST

// --- overload selection ---

#define SIG(...) { .params = (const fx_type[]){ __VA_ARGS__ }, \
                   .count = sizeof((const fx_type[]){ __VA_ARGS__ }) / sizeof(fx_type), \
                   .required = sizeof((const fx_type[]){ __VA_ARGS__ }) / sizeof(fx_type) }

static fx_type_select_status pick(const fx_type *args, size_t n, const fx_signature *cands,
                                  size_t count, size_t *best) {
    *best = 99;
    return fx_type_select(args, n, cands, count, sizeof(fx_signature), best);
}

START_TEST(test_select_one_argument) {
    fx_type fi = i(1), ff = f(1), fu = u(1), fb = b(1);
    fx_signature int_or_float[] = { SIG(i(1)), SIG(f(1)) };
    size_t best;
    ck_assert_int_eq(pick(&fi, 1, int_or_float, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 0);                       // exact int
    ck_assert_int_eq(pick(&ff, 1, int_or_float, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);
    // uint -> float (16) beats uint -> int (4).
    ck_assert_int_eq(pick(&fu, 1, int_or_float, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);
    // bool -> int and bool -> float both rank 16: ambiguous, best is the first.
    ck_assert_int_eq(pick(&fb, 1, int_or_float, 2, &best), FX_TYPE_SELECT_AMBIGUOUS);
    ck_assert_uint_eq(best, 0);

    // int -> float (16) beats int -> uint (8).
    fx_signature uint_or_float[] = { SIG(u(1)), SIG(f(1)) };
    ck_assert_int_eq(pick(&fi, 1, uint_or_float, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);

    // A scalar prefers a scalar conversion (int -> float 16) over the
    // broadcast to a vector of its own type (int -> int3 10).
    fx_signature float_or_int3[] = { SIG(i(3)), SIG(f(1)) };
    ck_assert_int_eq(pick(&fi, 1, float_or_int3, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);

    // Truncation to the longest shorter vector: float4 -> float3 (6) and
    // float4 -> float2 (6) tie; exact float4 wins when present.
    fx_type f4 = f(4);
    fx_signature shorter[] = { SIG(f(3)), SIG(f(2)) };
    ck_assert_int_eq(pick(&f4, 1, shorter, 2, &best), FX_TYPE_SELECT_AMBIGUOUS);
    fx_signature with_exact[] = { SIG(f(3)), SIG(f(4)), SIG(f(2)) };
    ck_assert_int_eq(pick(&f4, 1, with_exact, 3, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);

    fx_signature none[] = { SIG(fm(2, 2)), SIG(f(4)) };
    ck_assert_int_eq(pick(&ff, 1, none, 1, &best), FX_TYPE_SELECT_NONE);
    ck_assert_int_eq(pick(&ff, 1, none, 0, &best), FX_TYPE_SELECT_NONE);
}
END_TEST

START_TEST(test_select_several_arguments) {
    size_t best;
    // max(0, x) with a float x, as user overloads m(int, int) and m(float, float):
    // sorted ranks int (20, 12) against float (24, 16): float wins. The
    // "no argument worse" rule would call this ambiguous.
    fx_type int_float[] = { i(1), f(1) };
    fx_signature m[] = { SIG(i(1), i(1)), SIG(f(1), f(1)) };
    ck_assert_int_eq(pick(int_float, 2, m, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);
    ck_assert_int_lt(fx_type_signature_compare(int_float, 2, &m[1], &m[0]), 0);
    ck_assert_int_gt(fx_type_signature_compare(int_float, 2, &m[0], &m[1]), 0);

    // f(int, float) and f(float, int) called with (int, int): both sort to
    // (20, 16) and the call is ambiguous.
    fx_type int_int[] = { i(1), i(1) };
    fx_signature crossed[] = { SIG(i(1), f(1)), SIG(f(1), i(1)) };
    ck_assert_int_eq(pick(int_int, 2, crossed, 2, &best), FX_TYPE_SELECT_AMBIGUOUS);
    ck_assert_uint_eq(best, 0);
    ck_assert_int_eq(fx_type_signature_compare(int_int, 2, &crossed[0], &crossed[1]), 0);
    // Adding the exact f(int, int) resolves it, wherever it is in the list.
    fx_signature resolved[] = { SIG(i(1), f(1)), SIG(f(1), i(1)), SIG(i(1), i(1)) };
    ck_assert_int_eq(pick(int_int, 2, resolved, 3, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 2);

    // A viable candidate beats one that is not.
    fx_type sampler_uv[] = { fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4), f(2) };
    fx_signature objects[] = {
        SIG(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_INT, 4), f(2)),
        SIG(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4), f(2)),
    };
    ck_assert_int_eq(pick(sampler_uv, 2, objects, 2, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 1);
    ck_assert_int_gt(fx_type_signature_compare(sampler_uv, 2, &objects[0], &objects[1]), 0);
    ck_assert(!fx_type_signature_viable(sampler_uv, 2, &objects[0]));
    ck_assert_int_eq(fx_type_signature_compare(sampler_uv, 2, &objects[0], &objects[0]), 0);
}
END_TEST

START_TEST(test_select_defaults_and_errors) {
    size_t best;
    // g(float a, float b = 1.0): one or two arguments.
    fx_signature g = SIG(f(1), f(1));
    g.required = 1;
    fx_type one[] = { f(1) };
    fx_type three[] = { f(1), f(1), f(1) };
    ck_assert_int_eq(pick(one, 1, &g, 1, &best), FX_TYPE_SELECT_OK);
    ck_assert_int_eq(pick(three, 2, &g, 1, &best), FX_TYPE_SELECT_OK);
    ck_assert_int_eq(pick(NULL, 0, &g, 1, &best), FX_TYPE_SELECT_NONE);
    ck_assert_int_eq(pick(three, 3, &g, 1, &best), FX_TYPE_SELECT_NONE);

    fx_signature nullary = { .params = NULL, .count = 0, .required = 0 };
    ck_assert_int_eq(pick(NULL, 0, &nullary, 1, &best), FX_TYPE_SELECT_OK);
    ck_assert_uint_eq(best, 0);
    ck_assert_int_eq(pick(one, 1, &nullary, 1, &best), FX_TYPE_SELECT_NONE);

    // An ERROR argument fits every candidate equally: the checker takes *best.
    fx_type bad = fx_type_error();
    fx_signature two[] = { SIG(i(1)), SIG(f(1)) };
    ck_assert_int_eq(pick(&bad, 1, two, 2, &best), FX_TYPE_SELECT_AMBIGUOUS);
    ck_assert_uint_eq(best, 0);

    // The stride lets a candidate carry more than its signature.
    struct user_function {
        fx_signature sig;
        const char *label;
    } funcs[] = { { SIG(i(1)), "int" }, { SIG(f(1)), "float" } };
    fx_type ff = f(1);
    ck_assert_int_eq(fx_type_select(&ff, 1, funcs, 2, sizeof(funcs[0]), &best),
                     FX_TYPE_SELECT_OK);
    ck_assert_str_eq(funcs[best].label, "float");
}
END_TEST

// --- std140 ---

START_TEST(test_std140_block) {
    // uniform float a; float3 b; float2 c; float4x4 d; float e[3]; int2 g;
    //   a @0   size 4                           -> 4
    //   b @16  (align 16) size 12               -> 28
    //   c @32  (align 8: 28 -> 32) size 8       -> 40
    //   d @48  (align 16) 4 rows * 16           -> 112
    //   e @112 (align 16) 3 * 16                -> 160
    //   g @160 (align 8) size 8                 -> 168, block 176
    uint32_t at = 0;
    ck_assert_uint_eq(fx_type_std140_place(&at, f(1)), 0);
    ck_assert_uint_eq(fx_type_std140_place(&at, f(3)), 16);
    ck_assert_uint_eq(fx_type_std140_place(&at, f(2)), 32);
    ck_assert_uint_eq(fx_type_std140_place(&at, fm(4, 4)), 48);
    ck_assert_uint_eq(fx_type_std140_place(&at, fx_type_array(f(1), 3)), 112);
    ck_assert_uint_eq(fx_type_std140_place(&at, i(2)), 160);
    ck_assert_uint_eq(at, 168);
    ck_assert_uint_eq(fx_type_std140_block_size(at), 176);
}
END_TEST

START_TEST(test_std140_rules) {
    // A scalar fills the tail of a float3.
    uint32_t at = 0;
    ck_assert_uint_eq(fx_type_std140_place(&at, f(3)), 0);
    ck_assert_uint_eq(fx_type_std140_place(&at, f(1)), 12);
    ck_assert_uint_eq(fx_type_std140_place(&at, b(1)), 16);   // bool is 4 bytes
    ck_assert_uint_eq(fx_type_std140_place(&at, f(4)), 32);
    ck_assert_uint_eq(fx_type_std140_block_size(at), 48);
    ck_assert_uint_eq(fx_type_std140_block_size(0), 0);

    ck_assert_uint_eq(fx_type_std140_align(f(1)), 4);
    ck_assert_uint_eq(fx_type_std140_align(f(2)), 8);
    ck_assert_uint_eq(fx_type_std140_align(f(3)), 16);
    ck_assert_uint_eq(fx_type_std140_align(fx_type_array(f(1), 2)), 16);
    ck_assert_uint_eq(fx_type_std140_size(f(3)), 12);
    ck_assert_uint_eq(fx_type_std140_size(fx_type_scalar(FX_TYPE_MIN16FLOAT)), 4);
    // Matrices: one 16-byte slot per HLSL row, whatever the columns.
    ck_assert_uint_eq(fx_type_std140_size(fm(3, 3)), 48);
    ck_assert_uint_eq(fx_type_std140_size(fm(2, 4)), 32);
    ck_assert_uint_eq(fx_type_std140_size(fm(4, 2)), 64);
    ck_assert_uint_eq(fx_type_std140_size(fx_type_matrix(FX_TYPE_INT, 2, 3)), 32);
    ck_assert_uint_eq(fx_type_std140_align(fm(2, 2)), 16);
    // Arrays round every element up to 16 bytes.
    ck_assert_uint_eq(fx_type_std140_size(fx_type_array(i(2), 2)), 32);
    ck_assert_uint_eq(fx_type_std140_size(fx_type_array(f(3), 2)), 32);
    ck_assert_uint_eq(fx_type_std140_size(fx_type_array(fm(4, 4), 2)), 128);
    ck_assert_uint_eq(fx_type_std140_size(fx_type_array(fm(3, 3), 2)), 96);
    // Nothing to lay out.
    ck_assert_uint_eq(fx_type_std140_size(fx_type_object(FX_TYPE_SAMPLER2D, FX_TYPE_FLOAT, 4)), 0);
    ck_assert_uint_eq(fx_type_std140_align((fx_type){ .base = FX_TYPE_STRUCT }), 0);

    // A matrix after a float starts on the next 16-byte boundary.
    at = 4;
    ck_assert_uint_eq(fx_type_std140_place(&at, fm(2, 2)), 16);
    ck_assert_uint_eq(at, 48);
}
END_TEST

static Suite *type_suite(void) {
    Suite *s = suite_create("type");
    TCase *basics = tcase_create("basics");
    tcase_add_test(basics, test_predicates);
    tcase_add_test(basics, test_names);
    suite_add_tcase(s, basics);
    TCase *ranks = tcase_create("ranks");
    tcase_add_test(ranks, test_rank_base_types);
    tcase_add_test(ranks, test_rank_shapes);
    tcase_add_test(ranks, test_rank_other_kinds);
    tcase_add_test(ranks, test_convert);
    suite_add_tcase(s, ranks);
    TCase *ops = tcase_create("operators");
    tcase_add_test(ops, test_merge);
    tcase_add_test(ops, test_binary);
    suite_add_tcase(s, ops);
    TCase *select = tcase_create("select");
    tcase_add_test(select, test_select_one_argument);
    tcase_add_test(select, test_select_several_arguments);
    tcase_add_test(select, test_select_defaults_and_errors);
    suite_add_tcase(s, select);
    TCase *layout = tcase_create("std140");
    tcase_add_test(layout, test_std140_block);
    tcase_add_test(layout, test_std140_rules);
    suite_add_tcase(s, layout);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(type_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
