/*
 * fx_typesys.h - the type system of the FX compiler (type.c) and the intrinsic
 * table (intrinsics.c): constructors, names, the conversion ranks behind
 * implicit conversions and overload resolution, operator result types, the
 * std140 layout of uniforms, and every intrinsic with its GLSL mapping.
 *
 * Nothing here allocates or keeps state: types are values (fx_type.h), the
 * intrinsic table is const data, and every function is pure, so the checker
 * and the GLSL emitter can call them from any thread.
 *
 * Overload resolution follows the reference compiler, not the textbook HLSL
 * rule: each argument gets a rank for each candidate (fx_type_rank), the
 * ranks of a candidate are sorted best first and candidates are compared
 * lexicographically on those sorted lists. The "no argument worse, one
 * better" rule would reject `max(0, x)` with a float x as ambiguous, and real
 * effects are full of such calls. User functions shadow intrinsics: the
 * checker resolves against the user overloads visible in scope first and
 * tries fx_intrinsic_select only when none is viable.
 */
#ifndef FX_TYPESYS_H
#define FX_TYPESYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fx_base.h"
#include "fx_type.h"

// --- type.c: constructors and predicates ---

#define FX_TYPE_MAX_CALL_ARGS 64         // arguments fx_type_select ranks; the parser limits calls
#define FX_TYPE_NAME_SIZE 48             // enough for any name fx_type_name writes

FX_INTERNAL fx_type fx_type_void(void);
FX_INTERNAL fx_type fx_type_error(void);
FX_INTERNAL fx_type fx_type_scalar(fx_base_type base);
FX_INTERNAL fx_type fx_type_vector(fx_base_type base, int n);              // n = 1 gives a scalar
// cols = 1 gives a vector, rows = cols = 1 a scalar.
FX_INTERNAL fx_type fx_type_matrix(fx_base_type base, int rows, int cols);
// Texture, sampler or storage. The element is normalised the way the reference
// stores it: min16 types become their 32-bit type, bool becomes int.
// Textures ignore the element.
FX_INTERNAL fx_type fx_type_object(fx_base_type base, fx_base_type elem_base, int elem_rows);
FX_INTERNAL fx_type fx_type_array(fx_type elem, int32_t len);              // len -1: unsized

FX_INTERNAL bool fx_type_is_void(fx_type t);
FX_INTERNAL bool fx_type_is_error(fx_type t);
FX_INTERNAL bool fx_type_is_numeric(fx_type t);  // bool, int, uint, float incl. min16, any shape
FX_INTERNAL bool fx_type_is_scalar(fx_type t);   // numeric 1x1, not an array
FX_INTERNAL bool fx_type_is_vector(fx_type t);   // numeric Nx1, N > 1, not an array
FX_INTERNAL bool fx_type_is_matrix(fx_type t);   // numeric RxC, C > 1 (so float1x2), not an array
FX_INTERNAL bool fx_type_is_array(fx_type t);
FX_INTERNAL bool fx_type_is_struct(fx_type t);
FX_INTERNAL bool fx_type_is_object(fx_type t);   // texture, sampler or storage
FX_INTERNAL bool fx_type_is_texture(fx_type t);
FX_INTERNAL bool fx_type_is_sampler(fx_type t);
FX_INTERNAL bool fx_type_is_storage(fx_type t);
FX_INTERNAL bool fx_type_is_boolean(fx_type t);  // numeric with base bool
FX_INTERNAL bool fx_type_is_integral(fx_type t); // numeric bool, int or uint (incl. min16)
FX_INTERNAL bool fx_type_is_floating(fx_type t); // numeric with base float or min16float
FX_INTERNAL bool fx_type_is_signed(fx_type t);   // int, min16int, float, min16float
FX_INTERNAL int fx_type_components(fx_type t);   // rows * cols of a numeric type, else 0
FX_INTERNAL int fx_type_object_dim(fx_type t);   // 1, 2 or 3 for objects, else 0
// Same type, ignoring qualifiers; arrays compare length, structs the declaration.
FX_INTERNAL bool fx_type_equal(fx_type a, fx_type b);
// The element type of an array (array_len 0); other types unchanged.
FX_INTERNAL fx_type fx_type_element(fx_type t);
// The same shape with another base: float3x3 with int gives int3x3.
FX_INTERNAL fx_type fx_type_with_base(fx_type t, fx_base_type base);

// HLSL spelling: "float3", "int2x2", "min16float4", "sampler2D<uint>",
// "storage2D<float4>", "float3[4]", "float[]", "<error>". Struct types print
// as "struct" (the name lives in the AST). Returns buf; always terminated.
FX_INTERNAL const char *fx_type_name(fx_type t, char *buf, size_t size);
FX_INTERNAL const char *fx_type_base_name(fx_base_type base);

// --- type.c: conversions and ranks ---

// How well a value of type `from` fits a parameter (or variable) of type
// `to`; 0 means not at all, larger is better. The scale is the reference's:
//   per base type pair (the bases' min16 variants count as the same type):
//     same type 5 (float 6: floating point ranks higher), from bool 4,
//     int/uint -> float 4, -> bool 3, float -> int/uint 3, int -> uint 2,
//     uint -> int 1;
//   times 4, then by shape: same shape times the component count,
//   scalar -> vector halved, vector -> scalar or a shorter vector quartered.
// Not convertible: matrices of other dimensions, scalars or vectors to
// matrices, a vector to a longer one, arrays to non-arrays (and back),
// arrays of other lengths (an unsized side matches any length) or element
// types, different structs, objects unless identical. ERROR converts to
// anything with the exact rank so that one bad argument does not cascade.
// Qualifiers are ignored: for out/inout parameters the checker also needs an
// lvalue argument and fx_type_rank(param, arg) != 0 for the copy back.
FX_INTERNAL unsigned fx_type_rank(fx_type from, fx_type to);

typedef enum fx_type_convert_status {
    FX_TYPE_CONVERT_NONE,        // not implicitly convertible (X3017/X3020)
    FX_TYPE_CONVERT_OK,          // exact or a silent conversion
    FX_TYPE_CONVERT_TRUNCATES,   // allowed with warning X3206 "implicit truncation of vector type"
} fx_type_convert_status;

// Implicit conversion for assignments, initializers, returns and arguments.
FX_INTERNAL fx_type_convert_status fx_type_convert(fx_type from, fx_type to);
FX_INTERNAL bool fx_type_convertible(fx_type from, fx_type to);

// --- type.c: operators ---

typedef enum fx_type_op_class {
    FX_TYPE_OP_ARITHMETIC,       // + - * / % and their assignments: bool operands become int
    FX_TYPE_OP_BITWISE,          // & | ^ << >>: integral operands only; bool becomes int
    FX_TYPE_OP_COMPARE,          // < <= > >= == !=: component-wise, the result is bool
    FX_TYPE_OP_LOGICAL,          // && ||: operands and result are bool, component-wise
} fx_type_op_class;

typedef enum fx_type_op_status {
    FX_TYPE_OP_OK,
    FX_TYPE_OP_TRUNCATES,        // valid; warn X3206 for the longer operand
    FX_TYPE_OP_NOT_NUMERIC,      // X3022 "scalar, vector, or matrix expected"
    FX_TYPE_OP_NOT_INTEGRAL,     // X3082 "int or unsigned int type required"
    FX_TYPE_OP_MISMATCH,         // X3020 a vector with a matrix (other than a scalar)
} fx_type_op_status;

// The common type of two operands (also used for `?:` values): the higher
// base in the order bool < min16int < int < min16uint < uint < min16float <
// float; a scalar broadcasts to the other shape; two vectors (or two
// matrices) truncate to the smaller, which is FX_TYPE_OP_TRUNCATES. ERROR on
// either side gives ERROR and OK.
FX_INTERNAL fx_type_op_status fx_type_merge(fx_type lhs, fx_type rhs, fx_type *result);
// A binary operator: *operand is what both sides are converted to before the
// operation, *result the type of the expression.
FX_INTERNAL fx_type_op_status fx_type_binary(fx_type_op_class op, fx_type lhs, fx_type rhs,
                                             fx_type *operand, fx_type *result);

// --- type.c: overload selection ---

// A candidate as overload selection sees it. User functions: the checker
// fills one per declaration (params borrowed from the AST); intrinsics embed
// one. A call with n arguments is considered when required <= n <= count.
typedef struct fx_signature {
    const fx_type *params;       // borrowed; count entries, quals carry in/out/inout
    uint16_t count;              // parameters
    uint16_t required;           // parameters without a default value
} fx_signature;

typedef enum fx_type_select_status {
    FX_TYPE_SELECT_OK,           // *best is the one best candidate
    FX_TYPE_SELECT_NONE,         // nothing viable (X3013 "no matching function overload")
    FX_TYPE_SELECT_AMBIGUOUS,    // several equally good (X3067); *best is the first of them
} fx_type_select_status;

// Compares two candidates for a call: < 0 when a is the better match, > 0
// when b is, 0 when they are equally good or both not viable. A candidate
// that is not viable always loses against one that is.
FX_INTERNAL int fx_type_signature_compare(const fx_type *args, size_t arg_count,
                                          const fx_signature *a, const fx_signature *b);
FX_INTERNAL bool fx_type_signature_viable(const fx_type *args, size_t arg_count,
                                          const fx_signature *sig);
// Picks the best of count candidates. Each candidate is an object of stride
// bytes that starts with an fx_signature (pass sizeof(fx_signature) for a
// plain array, sizeof(fx_intrinsic) for an intrinsic set). When an argument
// is ERROR the checker should take *best without reporting ambiguity.
FX_INTERNAL fx_type_select_status fx_type_select(const fx_type *args, size_t arg_count,
                                                 const void *candidates, size_t count,
                                                 size_t stride, size_t *best);

// --- type.c: std140 layout ---

// Uniform block layout as the reference runtime writes it and GLSL reads it
// with `layout(std140, column_major)`: scalars 4 bytes aligned 4 (bool and
// min16 types too), 2-vectors 8/8, 3-vectors 12 aligned 16, 4-vectors 16/16.
// A matrix RxC is stored in HLSL row-major order, each of its R rows in its
// own 16-byte slot: size R * 16, aligned 16 (the GLSL matRxC, transposed,
// reads those rows as its columns). Arrays align to 16 and round each element
// up to 16 bytes. Structs, strings and objects have no layout here (0).
FX_INTERNAL uint32_t fx_type_std140_align(fx_type t);
FX_INTERNAL uint32_t fx_type_std140_size(fx_type t);
// Places a member after *offset bytes: returns its offset and moves *offset
// past it. The block's total size is fx_type_std140_block_size(*offset).
FX_INTERNAL uint32_t fx_type_std140_place(uint32_t *offset, fx_type t);
FX_INTERNAL uint32_t fx_type_std140_block_size(uint32_t offset);

// --- intrinsics.c: the intrinsic table ---

#define FX_INTRINSIC_MAX_PARAMS 6        // tex2DgatherR(s, uv, o0, o1, o2, o3)

enum {
    // GLSL has only float matrices: convert every argument to the float type
    // of its shape, emit the template, convert the result to the return type
    // (mul with int matrices).
    FX_INTRINSIC_F_FLOAT_MATRIX = 1 << 0,
    // A matrix overload of a component-wise function GLSL lacks for matrices:
    // emit the template once per GLSL column i (each $n stands for arg n's
    // column [i]) and build the GLSL matrix from the results: `$R(t0, t1, ...)`.
    FX_INTRINSIC_F_PER_COLUMN = 1 << 1,
    // Accepted by fxgl, absent from the reference's table (a call the reference
    // rejects or resolves with the wrong meaning); the checker may warn.
    FX_INTRINSIC_F_EXTENSION = 1 << 2,
    // Writes through a parameter (out/inout, or a storage).
    FX_INTRINSIC_F_SIDE_EFFECTS = 1 << 3,
};

enum {
    FX_INTRINSIC_NEED_FRAGMENT = 1 << 0,       // derivatives: pixel shaders only
    FX_INTRINSIC_NEED_COMPUTE = 1 << 1,        // barriers, groupshared atomics, storage writes
    FX_INTRINSIC_NEED_IMAGE = 1 << 2,          // image load/size: GL 4.2, ES 3.1
    FX_INTRINSIC_NEED_IMAGE_ATOMIC = 1 << 3,   // GL 4.2, ES 3.2 (OES_shader_image_atomic on 3.1)
    FX_INTRINSIC_NEED_DERIV_CONTROL = 1 << 4,  // dFdxFine etc.: GL 4.5 or ARB_derivative_control
    FX_INTRINSIC_NEED_GATHER = 1 << 5,         // textureGather with a component: GL 4.0, ES 3.1
    FX_INTRINSIC_NEED_GATHER_OFFSETS = 1 << 6, // textureGatherOffsets: GL 4.0, ES 3.2
    FX_INTRINSIC_NEED_1D = 1 << 7,             // 1D samplers/images: not in GLSL ES
};

// One overload. `glsl` is the emission template: `$0`..`$5` stand for the
// arguments, already converted to the parameter types (a placeholder can
// appear more than once, then the emitter must pass a side-effect-free
// expression, e.g. the temporary it copies arguments into); `$R` is the GLSL
// spelling of the return type. Out/inout arguments are lvalues. Examples:
// "mix($0, $1, $2)", "($1 * $0)", "textureLod($0, $1.xy, $1.w).x".
//
// Parameter qualifiers the checker enforces: FX_Q_OUT (sincos, modf, frexp)
// needs an lvalue; FX_Q_INOUT | FX_Q_GROUPSHARED (the first parameter of the
// groupshared atomics) needs an lvalue in a groupshared variable. const_from
// marks texture offsets, which GLSL requires to be constant expressions.
typedef struct fx_intrinsic {
    fx_signature sig;            // parameters (FX_Q_OUT, FX_Q_INOUT, FX_Q_GROUPSHARED in quals)
    fx_type ret;                 // return type
    const char *name;            // the FX name, "tex2Dlod"
    const char *glsl;            // emission template, see above
    uint8_t flags;               // FX_INTRINSIC_F_*
    uint8_t needs;               // FX_INTRINSIC_NEED_*
    uint8_t const_from;          // first parameter that must be a compile-time constant; 0: none
} fx_intrinsic;

// All overloads of one name, contiguous.
typedef struct fx_intrinsic_set {
    const char *name;            // static
    const fx_intrinsic *overloads; // static; count entries
    size_t count;
} fx_intrinsic_set;

// NULL when name is not an intrinsic. Names are case-sensitive.
FX_INTERNAL const fx_intrinsic_set *fx_intrinsic_lookup(const char *name);
FX_INTERNAL size_t fx_intrinsic_count(void);              // names
FX_INTERNAL const fx_intrinsic_set *fx_intrinsic_at(size_t index); // sorted by name
FX_INTERNAL size_t fx_intrinsic_overload_count(void);     // all overloads of all names
// Overload selection within one set (non-NULL; see fx_type_select). *best is
// NULL only for FX_TYPE_SELECT_NONE.
FX_INTERNAL fx_type_select_status fx_intrinsic_select(const fx_intrinsic_set *set,
                                                      const fx_type *args, size_t arg_count,
                                                      const fx_intrinsic **best);

#endif // FX_TYPESYS_H
