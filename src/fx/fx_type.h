/*
 * fx_type.h - FX types as small values, shared by the parser, the checker,
 * the intrinsic table and the code generators.
 *
 * A type is copied, not pointed to (the reference does the same): a base
 * kind, the shape (rows x cols; a vector is rows=N, cols=1; a scalar 1x1),
 * qualifiers, an optional array length and, for structs, the declaration.
 * Object types (texture, sampler, storage) carry their element type in
 * elem_base/elem_rows.
 */
#ifndef FX_TYPE_H
#define FX_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "fx_base.h"

typedef enum fx_base_type {
    FX_TYPE_VOID,
    FX_TYPE_BOOL,
    FX_TYPE_MIN16INT,            // min16int: int with a precision hint
    FX_TYPE_INT,
    FX_TYPE_MIN16UINT,
    FX_TYPE_UINT,
    FX_TYPE_MIN16FLOAT,
    FX_TYPE_FLOAT,
    FX_TYPE_STRING,              // annotations only
    FX_TYPE_STRUCT,
    FX_TYPE_TEXTURE1D,
    FX_TYPE_TEXTURE2D,
    FX_TYPE_TEXTURE3D,
    FX_TYPE_SAMPLER1D,
    FX_TYPE_SAMPLER2D,
    FX_TYPE_SAMPLER3D,
    FX_TYPE_STORAGE1D,
    FX_TYPE_STORAGE2D,
    FX_TYPE_STORAGE3D,
    FX_TYPE_ERROR,               // compatible with everything: stops cascades
} fx_base_type;

enum {
    FX_Q_EXTERN = 1 << 0,
    FX_Q_STATIC = 1 << 1,
    FX_Q_UNIFORM = 1 << 2,
    FX_Q_VOLATILE = 1 << 3,
    FX_Q_PRECISE = 1 << 4,
    FX_Q_GROUPSHARED = 1 << 5,
    FX_Q_IN = 1 << 6,
    FX_Q_OUT = 1 << 7,
    FX_Q_INOUT = FX_Q_IN | FX_Q_OUT,
    FX_Q_CONST = 1 << 8,
    FX_Q_LINEAR = 1 << 9,
    FX_Q_NOPERSPECTIVE = 1 << 10,
    FX_Q_CENTROID = 1 << 11,
    FX_Q_NOINTERPOLATION = 1 << 12,
};

typedef struct fx_struct_decl fx_struct_decl; // defined by the AST (fx_ast.h)

// 16 bytes: every expression node carries one, so the small fields are
// packed into one 32-bit word (docs/compiler.md, "Memory").
typedef struct fx_type {
    unsigned base : 5;           // fx_base_type
    unsigned rows : 3;           // components of a vector, rows of a matrix; 1 for scalars
    unsigned cols : 3;           // 1 for scalars and vectors, columns of a matrix
    unsigned elem_base : 5;      // object types: element scalar type (fx_base_type)
    unsigned elem_rows : 3;      // object types: element components (1..4)
    unsigned quals : 13;         // FX_Q_* bits
    int32_t array_len;           // 0: not an array; -1: unsized (taken from the initializer)
    fx_struct_decl *strct;       // FX_TYPE_STRUCT: borrowed declaration
} fx_type;

#endif // FX_TYPE_H
