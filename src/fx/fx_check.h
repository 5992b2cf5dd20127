/*
 * fx_check.h - the type checker (check.c) and the effect module builder
 * (module.c) of the FX compiler.
 *
 * fx_check walks the untyped tree fx_parse returned, like chibicc's add_type:
 * it resolves every name through a symbol table with namespaces and block
 * scopes, gives every expression its type, inserts the implicit conversions
 * as explicit cast nodes, picks overloads (user functions first, then the
 * intrinsic table), folds the constants the language needs at compile time
 * and records, per function, which globals and functions it uses. It reports
 * errors with FXC-like ids and survives any tree the parser returns after
 * errors: FX_EXPR_ERROR and unresolvable names get the ERROR type, which
 * converts to everything and silences follow-up errors.
 *
 * fx_module_build turns a checked program into the plain-data fxgl_effect.
 *
 * THE TYPED TREE: what the GLSL emitter may rely on once fx_check returned
 * with ctx->errors == 0 (after errors the tree is typed as far as possible
 * but carries ERROR types and must not be emitted):
 *
 *  - Every fx_expr reachable from a declaration, statement, state or
 *    annotation has `type` set; `type.quals` carries FX_Q_CONST for
 *    constants. No expression has the ERROR type (but see state values below).
 *  - `sym`, where set, is always an fx_symbol (below):
 *      FX_EXPR_NAME    the variable, parameter, constant, texture, sampler or
 *                      storage (FX_SYM_GLOBAL ... FX_SYM_PARAM).
 *      FX_EXPR_CALL    the callee: FX_SYM_FUNCTION (one user overload; its
 *                      `func` is the definition) or FX_SYM_INTRINSIC (its
 *                      `intrinsic` is the chosen fx_intrinsic overload, whose
 *                      `glsl` template the emitter expands).
 *      FX_EXPR_MEMBER  FX_SYM_MEMBER for a struct member (`index` in
 *                      declaration order, `var` the member declaration) or
 *                      FX_SYM_SWIZZLE for vector and matrix swizzles.
 *      others          NULL.
 *  - Swizzles: `x.zyx`, `c.rgba` and scalar swizzles `f.xxx` are FX_SYM_SWIZZLE
 *    with `swizzle[0..swizzle_count)` the component indices 0-3. Matrix
 *    swizzles `m._m01_m10`, `m._12` have `matrix_swizzle` set and each entry
 *    is row * 4 + column (zero-based, HLSL rows). The expression's type is the
 *    scalar or vector the swizzle yields.
 *  - Implicit conversions are explicit FX_EXPR_CAST nodes with
 *    FX_EXPR_CHECK_IMPLICIT in flags (written casts lack the flag); `type` is
 *    the target, `lhs` the operand, `spec->type` the target too. A cast
 *    follows HLSL: a scalar broadcasts to any shape, a longer vector keeps
 *    its first components, a matrix its top-left block, and equal component
 *    counts (float4 <-> float2x2) reinterpret row-major. Casts sit on: binary
 *    operands (both become the operator's operand type, see fx_type_binary,
 *    with no convertibility check: a scalar operand of a matrix becomes
 *    that matrix; the comparison result is bool of that shape), unary operands (bool
 *    becomes int for - + ~, any numeric becomes bool for !), the values of
 *    `?:` (both become the merged type; the condition becomes bool, scalar
 *    or of the values' shape), assignments (`=` and `op=`: the value
 *    becomes the target's type first, as in the reference, so `int i;
 *    i *= 0.5;` multiplies by int(0.5); a shorter vector value is widened
 *    by a swizzle node repeating its last component (an FX_EXPR_MEMBER
 *    with FX_EXPR_CHECK_IMPLICIT), `v4 = v3` is `v4 = v3.xyzz`; for a bool target of `op=` the value is then cast
 *    once more to int, the type the operator works in),
 *    initializers, return values, conditions of if/for/while/do (scalar
 *    bool), switch selectors (scalar int or uint), indices (int), arguments
 *    of `in` parameters (the parameter's type), constructor arguments (each
 *    keeps its shape and takes the constructed type's base: float4(int2, f)
 *    becomes float4(float2(int2), f)). Arguments of out/inout parameters
 *    are never wrapped: they are lvalues whose type may differ from the
 *    parameter's (fx_type_rank != 0 both ways); the emitter copies through a
 *    temporary when the types differ.
 *  - Calls: `args`/`arg_count` hold every parameter's argument: missing
 *    trailing arguments of user functions are filled in with (shallow copies
 *    of) the parameters' typed default values.
 *  - Brace lists outside initializers (`a = {1, 2}`, `f({x, y})`) are
 *    arrays of the merged element type (each entry cast to it) as long as
 *    the list; assigned to an array, they are typed like its initializer.
 *  - Initializer lists (FX_EXPR_INIT_LIST) have the declared type; for
 *    arrays each entry is one element (nested lists of structs/arrays
 *    stay lists); for a struct, one entry per member; for vectors and
 *    matrices the list is rewritten to an FX_EXPR_CONSTRUCT of that type.
 *    Unsized arrays get their length from the list (var->type.array_len).
 *  - Declarations: every fx_var_decl has `type` (array_len resolved) and
 *    `sym`; every fx_func_decl and fx_struct_decl has `sym`; struct typespecs
 *    have type.strct set.
 *  - State, property and annotation values (fx_state.value) are typed too,
 *    except a bare name that is no symbol: an enum word (CLAMP, RGBA16F,
 *    SRCALPHA) which keeps sym NULL and the ERROR type for module.c to read.
 *    Shader states (`PixelShader = PS`) get the overload a lookup finds:
 *    the deepest namespace, then the latest declared.
 *  - Static locals keep kind LOCAL with FX_Q_STATIC in type.quals.
 *  - `&&`, `||` and `?:` keep HLSL semantics: both sides are evaluated; the
 *    tree does not say otherwise.
 *  - Per function (fx_symbol.fn): the globals it names directly (uniforms,
 *    statics, constants, textures, samplers, storages; each once) and the
 *    user functions it calls directly (each overload once). fx_check_reach
 *    gives the transitive closure from an entry point. Recursion is rejected
 *    (X3500), so call graphs are acyclic.
 */
#ifndef FX_CHECK_H
#define FX_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fx_ast.h"
#include "fx_base.h"
#include "fx_type.h"
#include "fx_typesys.h"
#include "fxgl_fx.h"

// fx_expr.flags bit the checker adds (the parser uses the low bits).
#define FX_EXPR_CHECK_IMPLICIT (1 << 7) // an implicit conversion the checker inserted

typedef enum fx_sym_kind {
    FX_SYM_UNIFORM,              // uniform global (explicit or implicit), in the uniform block
    FX_SYM_GLOBAL,               // static or groupshared global: private to each invocation/group
    FX_SYM_CONSTANT,             // static const global, or const local with a known value
    FX_SYM_TEXTURE,
    FX_SYM_SAMPLER,
    FX_SYM_STORAGE,
    FX_SYM_LOCAL,                // local variable (incl. const locals without a known value)
    FX_SYM_PARAM,                // function parameter
    FX_SYM_FUNCTION,             // one user function overload
    FX_SYM_INTRINSIC,            // one intrinsic overload (shared by the calls that pick it)
    FX_SYM_STRUCT,
    FX_SYM_MEMBER,               // struct member
    FX_SYM_SWIZZLE,              // vector or matrix swizzle (shared by equal swizzles)
} fx_sym_kind;

typedef struct fx_symbol fx_symbol;
typedef struct fx_check_ns fx_check_ns;

// What a function body uses directly.
typedef struct fx_check_func {
    fx_symbol **globals;         // arena; globals named in the body, each once, first use first
    size_t global_count;
    size_t global_cap;
    fx_symbol **callees;         // arena; user overloads called, each once
    size_t callee_count;
    size_t callee_cap;
    fx_signature sig;            // the parameter types for overload selection
    bool uses_discard;           // has a discard statement
    bool uses_fragment_only;     // calls an intrinsic that needs a pixel shader (ddx, ...)
    bool uses_compute_only;      // calls an intrinsic that needs a compute shader (barrier, ...)
    uint32_t mark;               // fx_check_reach's visited mark
} fx_check_func;

struct fx_symbol {
    uint8_t kind;                // fx_sym_kind
    bool matrix_swizzle;         // SWIZZLE: entries are row * 4 + column
    uint8_t swizzle_count;       // SWIZZLE: components (1..4)
    uint8_t swizzle[4];          // SWIZZLE: component indices
    bool implicit_uniform;       // UNIFORM: declared without `uniform` (warning X5000)
    int32_t index;               // MEMBER: position; module.c: index into the effect's array
    fx_pos loc;                  // the declaration
    uint32_t use_mark;           // checker: dedups per-function use lists
    fx_ident *name;              // as declared
    const char *unique;          // globals, functions, structs: "NS::Sub::name"; else the name
    fx_check_ns *ns;             // the namespace it was declared in
    fx_type type;                // variables: their type; FUNCTION/INTRINSIC: the return type
    fx_var_decl *var;            // variables, parameters, members: the declaration
    fx_func_decl *func;          // FUNCTION: the definition
    fx_struct_decl *strct;       // STRUCT
    const fx_intrinsic *intrinsic; // INTRINSIC: the chosen overload
    const fxgl_value *value;     // CONSTANT and const LOCAL: the folded value (arrays:
                                 // array_len elements); NULL when not foldable (then emit
                                 // a global/local initialised with var->init)
    fx_check_func *fn;           // FUNCTION: what the body uses
};

// A namespace: the global one has name NULL and prefix "".
struct fx_check_ns {
    fx_check_ns *parent;
    fx_check_ns *children;       // first child
    fx_check_ns *sibling;        // next child of parent
    fx_ident *name;
    const char *prefix;          // "A::B::", "" for the global namespace
    int depth;                   // 0 for the global namespace, parent's + 1 otherwise
};

// The checked program: the tree plus declaration-ordered symbol lists.
typedef struct fx_program {
    fx_ast *ast;                 // borrowed, now typed
    fx_symbol **globals;         // every global variable and object, in declaration order
    size_t global_count;
    fx_symbol **functions;       // every user function overload, in declaration order
    size_t function_count;
    fx_technique **techniques;   // in declaration order
    size_t technique_count;
} fx_program;

// Types and resolves ast. Errors go to ctx (check ctx->errors); the program
// is returned anyway. Fatal only on limits and out-of-memory.
FX_INTERNAL fx_program *fx_check(fx_ctx *ctx, fx_ast *ast);

// Folds a typed constant expression: literals, constants, operators, casts,
// constructors, swizzles, indexing of constant arrays and the cheap
// intrinsics (min max abs floor ceil round trunc frac saturate clamp sqrt
// rsqrt pow exp exp2 log log2 sin cos lerp sign rcp step dot length). Vectors and
// matrices come out row-major in out->count components. False when e is not
// constant (nothing is reported).
FX_INTERNAL bool fx_check_eval(const fx_expr *e, fxgl_value *out);

// Converts a folded value to another numeric type the way an HLSL cast does.
FX_INTERNAL void fx_check_convert_value(const fxgl_value *in, fx_type to, fxgl_value *out);

// Calls visit for every user function reachable from entry (entry first,
// each once; callees before their callers is not guaranteed). mark must
// differ between walks (pass a counter).
FX_INTERNAL void fx_check_reach(fx_symbol *entry, uint32_t mark,
                                void (*visit)(void *user, fx_symbol *func), void *user);

// The canonical form of a semantic (reshade_reference.md §1.7): upper case;
// SV_ semantics lose a trailing 0, others get a 0 unless they end in a digit.
FX_INTERNAL const char *fx_check_semantic(fx_ctx *ctx, const char *semantic);

// --- module.c ---

// Builds the effect from a checked program with no errors. Everything the
// effect points to comes from ectx's arena (its own, surviving the
// compilation); diagnostics go to ectx too. Returns NULL after errors.
FX_INTERNAL fxgl_effect *fx_module_build(fx_ctx *ectx, const fx_program *prog);

#endif // FX_CHECK_H
