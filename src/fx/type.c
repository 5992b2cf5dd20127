/*
 * type.c - FX types: constructors, names, the conversion rank that drives
 * implicit conversions and overload resolution, operator result types and
 * the std140 layout of uniforms.
 *
 * The rank reproduces the reference compiler's scale (effect_symbol_table.cpp,
 * type::rank) so that the same call picks the same overload: a score per base
 * type pair, times four, then scaled by the shape conversion. Candidates are
 * compared on their argument ranks sorted best first, lexicographically; see
 * fx_typesys.h for why that and not the "dominates" rule of the HLSL textbook.
 * Everything here works on values and keeps no state.
 */
#include <stdio.h>
#include <string.h>

#include "fx_typesys.h"

// --- constructors and predicates ---

fx_type fx_type_void(void) {
    return (fx_type){ .base = FX_TYPE_VOID };
}

fx_type fx_type_error(void) {
    return (fx_type){ .base = FX_TYPE_ERROR, .rows = 1, .cols = 1 };
}

fx_type fx_type_scalar(fx_base_type base) {
    return (fx_type){ .base = (uint8_t)base, .rows = 1, .cols = 1 };
}

fx_type fx_type_vector(fx_base_type base, int n) {
    return (fx_type){ .base = (uint8_t)base, .rows = (uint8_t)n, .cols = 1 };
}

fx_type fx_type_matrix(fx_base_type base, int rows, int cols) {
    return (fx_type){ .base = (uint8_t)base, .rows = (uint8_t)rows, .cols = (uint8_t)cols };
}

// The reference keeps only int, uint and float element types on samplers and
// storages (it folds min16 and bool into them), so ranks compare those.
static uint8_t normalize_elem(uint8_t base) {
    switch (base) {
    case FX_TYPE_BOOL:
    case FX_TYPE_MIN16INT:
    case FX_TYPE_INT:
        return FX_TYPE_INT;
    case FX_TYPE_MIN16UINT:
    case FX_TYPE_UINT:
        return FX_TYPE_UINT;
    default:
        return FX_TYPE_FLOAT;
    }
}

static bool base_is_texture(uint8_t base) {
    return base >= FX_TYPE_TEXTURE1D && base <= FX_TYPE_TEXTURE3D;
}

static bool base_is_sampler(uint8_t base) {
    return base >= FX_TYPE_SAMPLER1D && base <= FX_TYPE_SAMPLER3D;
}

static bool base_is_storage(uint8_t base) {
    return base >= FX_TYPE_STORAGE1D && base <= FX_TYPE_STORAGE3D;
}

static bool base_is_numeric(uint8_t base) {
    return base >= FX_TYPE_BOOL && base <= FX_TYPE_FLOAT;
}

fx_type fx_type_object(fx_base_type base, fx_base_type elem_base, int elem_rows) {
    fx_type t = { .base = (uint8_t)base, .rows = 1, .cols = 1 };
    if (!base_is_texture(t.base)) {
        t.elem_base = normalize_elem((uint8_t)elem_base);
        t.elem_rows = (uint8_t)(elem_rows < 1 ? 1 : elem_rows > 4 ? 4 : elem_rows);
    }
    return t;
}

fx_type fx_type_array(fx_type elem, int32_t len) {
    elem.array_len = len;
    return elem;
}

bool fx_type_is_void(fx_type t) {
    return t.base == FX_TYPE_VOID;
}

bool fx_type_is_error(fx_type t) {
    return t.base == FX_TYPE_ERROR;
}

bool fx_type_is_numeric(fx_type t) {
    return base_is_numeric(t.base);
}

bool fx_type_is_array(fx_type t) {
    return t.array_len != 0;
}

bool fx_type_is_scalar(fx_type t) {
    return fx_type_is_numeric(t) && !fx_type_is_array(t) && t.rows == 1 && t.cols == 1;
}

bool fx_type_is_vector(fx_type t) {
    return fx_type_is_numeric(t) && !fx_type_is_array(t) && t.rows > 1 && t.cols == 1;
}

bool fx_type_is_matrix(fx_type t) {
    return fx_type_is_numeric(t) && !fx_type_is_array(t) && t.cols > 1;
}

bool fx_type_is_struct(fx_type t) {
    return t.base == FX_TYPE_STRUCT;
}

bool fx_type_is_texture(fx_type t) {
    return base_is_texture(t.base);
}

bool fx_type_is_sampler(fx_type t) {
    return base_is_sampler(t.base);
}

bool fx_type_is_storage(fx_type t) {
    return base_is_storage(t.base);
}

bool fx_type_is_object(fx_type t) {
    return base_is_texture(t.base) || base_is_sampler(t.base) || base_is_storage(t.base);
}

bool fx_type_is_boolean(fx_type t) {
    return t.base == FX_TYPE_BOOL;
}

bool fx_type_is_integral(fx_type t) {
    return t.base >= FX_TYPE_BOOL && t.base <= FX_TYPE_UINT;
}

bool fx_type_is_floating(fx_type t) {
    return t.base == FX_TYPE_MIN16FLOAT || t.base == FX_TYPE_FLOAT;
}

bool fx_type_is_signed(fx_type t) {
    return t.base == FX_TYPE_MIN16INT || t.base == FX_TYPE_INT || fx_type_is_floating(t);
}

int fx_type_components(fx_type t) {
    return fx_type_is_numeric(t) ? t.rows * t.cols : 0;
}

int fx_type_object_dim(fx_type t) {
    if (base_is_texture(t.base)) {
        return t.base - FX_TYPE_TEXTURE1D + 1;
    }
    if (base_is_sampler(t.base)) {
        return t.base - FX_TYPE_SAMPLER1D + 1;
    }
    if (base_is_storage(t.base)) {
        return t.base - FX_TYPE_STORAGE1D + 1;
    }
    return 0;
}

// Same type apart from the array length and qualifiers.
static bool same_element(fx_type a, fx_type b) {
    if (a.base != b.base) {
        return false;
    }
    if (a.base == FX_TYPE_STRUCT) {
        return a.strct == b.strct;
    }
    if (base_is_sampler(a.base) || base_is_storage(a.base)) {
        return normalize_elem(a.elem_base) == normalize_elem(b.elem_base) &&
               a.elem_rows == b.elem_rows;
    }
    if (base_is_numeric(a.base)) {
        return a.rows == b.rows && a.cols == b.cols;
    }
    return true;
}

bool fx_type_equal(fx_type a, fx_type b) {
    return a.array_len == b.array_len && same_element(a, b);
}

fx_type fx_type_element(fx_type t) {
    t.array_len = 0;
    return t;
}

fx_type fx_type_with_base(fx_type t, fx_base_type base) {
    t.base = (uint8_t)base;
    return t;
}

// --- names ---

const char *fx_type_base_name(fx_base_type base) {
    switch (base) {
    case FX_TYPE_VOID: return "void";
    case FX_TYPE_BOOL: return "bool";
    case FX_TYPE_MIN16INT: return "min16int";
    case FX_TYPE_INT: return "int";
    case FX_TYPE_MIN16UINT: return "min16uint";
    case FX_TYPE_UINT: return "uint";
    case FX_TYPE_MIN16FLOAT: return "min16float";
    case FX_TYPE_FLOAT: return "float";
    case FX_TYPE_STRING: return "string";
    case FX_TYPE_STRUCT: return "struct";
    case FX_TYPE_TEXTURE1D: return "texture1D";
    case FX_TYPE_TEXTURE2D: return "texture2D";
    case FX_TYPE_TEXTURE3D: return "texture3D";
    case FX_TYPE_SAMPLER1D: return "sampler1D";
    case FX_TYPE_SAMPLER2D: return "sampler2D";
    case FX_TYPE_SAMPLER3D: return "sampler3D";
    case FX_TYPE_STORAGE1D: return "storage1D";
    case FX_TYPE_STORAGE2D: return "storage2D";
    case FX_TYPE_STORAGE3D: return "storage3D";
    case FX_TYPE_ERROR: return "<error>";
    }
    return "<error>";
}

const char *fx_type_name(fx_type t, char *buf, size_t size) {
    if (size == 0) {
        return buf;
    }
    const char *base = fx_type_base_name((fx_base_type)t.base);
    int n;
    if (base_is_sampler(t.base) || base_is_storage(t.base)) {
        const char *elem = fx_type_base_name((fx_base_type)normalize_elem(t.elem_base));
        if (t.elem_rows > 1) {
            n = snprintf(buf, size, "%s<%s%d>", base, elem, t.elem_rows);
        } else {
            n = snprintf(buf, size, "%s<%s>", base, elem);
        }
    } else if (base_is_numeric(t.base) && t.cols > 1) {
        n = snprintf(buf, size, "%s%dx%d", base, t.rows, t.cols);
    } else if (base_is_numeric(t.base) && t.rows > 1) {
        n = snprintf(buf, size, "%s%d", base, t.rows);
    } else {
        n = snprintf(buf, size, "%s", base);
    }
    if (n >= 0 && (size_t)n < size && t.array_len != 0) {
        if (t.array_len < 0) {
            snprintf(buf + n, size - (size_t)n, "[]");
        } else {
            snprintf(buf + n, size - (size_t)n, "[%d]", (int)t.array_len);
        }
    }
    return buf;
}

// --- conversions and ranks ---

typedef enum base_class {
    CLASS_BOOL,
    CLASS_INT,
    CLASS_UINT,
    CLASS_FLOAT,
} base_class;

static base_class class_of(uint8_t base) {
    switch (base) {
    case FX_TYPE_BOOL:
        return CLASS_BOOL;
    case FX_TYPE_MIN16INT:
    case FX_TYPE_INT:
        return CLASS_INT;
    case FX_TYPE_MIN16UINT:
    case FX_TYPE_UINT:
        return CLASS_UINT;
    default:
        return CLASS_FLOAT;
    }
}

// The score of a base type conversion, before shape: the reference's rules,
// "floating point ranks higher than integer types; integer to floating point
// promotion ranks higher than floating point to integer; signed to unsigned
// ranks higher than unsigned to signed".
static unsigned base_rank(uint8_t from, uint8_t to) {
    base_class f = class_of(from);
    base_class t = class_of(to);
    if (f == t) {
        return f == CLASS_FLOAT ? 6 : 5;
    }
    if (f == CLASS_BOOL) {
        return 4;
    }
    if (t == CLASS_BOOL) {
        return 3;
    }
    if (t == CLASS_FLOAT) {
        return 4;
    }
    if (f == CLASS_FLOAT) {
        return 3;
    }
    return f == CLASS_INT ? 2 : 1;
}

// Rank of identical non-numeric types (structs, objects, arrays). Any
// constant does: every viable candidate gets the same one for that argument.
#define RANK_IDENTICAL 32u

unsigned fx_type_rank(fx_type from, fx_type to) {
    if (from.base == FX_TYPE_ERROR || to.base == FX_TYPE_ERROR) {
        return RANK_IDENTICAL;
    }
    if (fx_type_is_array(from) != fx_type_is_array(to)) {
        return 0;
    }
    if (fx_type_is_array(from)) {
        // Only the same element type: an element-wise array conversion has
        // no GLSL spelling (the reference accepts it and emits broken code).
        bool lengths_fit = from.array_len < 0 || to.array_len < 0 ||
                           from.array_len == to.array_len;
        return lengths_fit && same_element(from, to) ? RANK_IDENTICAL : 0;
    }
    if (!base_is_numeric(from.base) || !base_is_numeric(to.base)) {
        return same_element(from, to) ? RANK_IDENTICAL : 0;
    }
    if (fx_type_is_matrix(from) && (from.rows != to.rows || from.cols != to.cols)) {
        return 0;
    }
    unsigned rank = base_rank(from.base, to.base) << 2;
    if (fx_type_is_scalar(from) && fx_type_is_vector(to)) {
        return rank >> 1;
    }
    if (fx_type_is_vector(from) && (fx_type_is_scalar(to) ||
                                    (fx_type_is_vector(to) && from.rows > to.rows))) {
        return rank >> 2;
    }
    if (from.rows != to.rows || from.cols != to.cols) {
        return 0;
    }
    return rank * (unsigned)(from.rows * from.cols);
}

fx_type_convert_status fx_type_convert(fx_type from, fx_type to) {
    if (fx_type_rank(from, to) == 0) {
        return FX_TYPE_CONVERT_NONE;
    }
    if (fx_type_components(from) > fx_type_components(to) && fx_type_is_numeric(to) &&
        !fx_type_is_array(from)) {
        return FX_TYPE_CONVERT_TRUNCATES;
    }
    return FX_TYPE_CONVERT_OK;
}

bool fx_type_convertible(fx_type from, fx_type to) {
    return fx_type_rank(from, to) != 0;
}

// --- operators ---

fx_type_op_status fx_type_merge(fx_type lhs, fx_type rhs, fx_type *result) {
    if (lhs.base == FX_TYPE_ERROR || rhs.base == FX_TYPE_ERROR) {
        *result = fx_type_error();
        return FX_TYPE_OP_OK;
    }
    if (!base_is_numeric(lhs.base) || !base_is_numeric(rhs.base) || fx_type_is_array(lhs) ||
        fx_type_is_array(rhs)) {
        *result = fx_type_error();
        return FX_TYPE_OP_NOT_NUMERIC;
    }
    // The enum lists the numeric bases in promotion order.
    fx_type r = { .base = lhs.base > rhs.base ? lhs.base : rhs.base };
    r.quals = (uint16_t)((lhs.quals | rhs.quals) & FX_Q_PRECISE);
    fx_type_op_status status = FX_TYPE_OP_OK;
    if (fx_type_is_scalar(lhs) || fx_type_is_scalar(rhs)) {
        r.rows = lhs.rows > rhs.rows ? lhs.rows : rhs.rows;
        r.cols = lhs.cols > rhs.cols ? lhs.cols : rhs.cols;
    } else if (fx_type_is_matrix(lhs) != fx_type_is_matrix(rhs)) {
        *result = fx_type_error();
        return FX_TYPE_OP_MISMATCH;
    } else {
        r.rows = lhs.rows < rhs.rows ? lhs.rows : rhs.rows;
        r.cols = lhs.cols < rhs.cols ? lhs.cols : rhs.cols;
        if (lhs.rows != rhs.rows || lhs.cols != rhs.cols) {
            status = FX_TYPE_OP_TRUNCATES;
        }
    }
    *result = r;
    return status;
}

fx_type_op_status fx_type_binary(fx_type_op_class op, fx_type lhs, fx_type rhs,
                                 fx_type *operand, fx_type *result) {
    fx_type merged;
    fx_type_op_status status = fx_type_merge(lhs, rhs, &merged);
    if (status != FX_TYPE_OP_OK && status != FX_TYPE_OP_TRUNCATES) {
        *operand = *result = merged;
        return status;
    }
    if (merged.base == FX_TYPE_ERROR) {
        *operand = *result = merged;
        return status;
    }
    if (op == FX_TYPE_OP_BITWISE && (!fx_type_is_integral(lhs) || !fx_type_is_integral(rhs))) {
        *operand = *result = fx_type_error();
        return FX_TYPE_OP_NOT_INTEGRAL;
    }
    switch (op) {
    case FX_TYPE_OP_BITWISE:
    case FX_TYPE_OP_ARITHMETIC:
        // Arithmetic on bool treats the operands as int.
        if (merged.base == FX_TYPE_BOOL) {
            merged.base = FX_TYPE_INT;
        }
        *operand = *result = merged;
        break;
    case FX_TYPE_OP_COMPARE:
        *operand = merged;
        *result = fx_type_with_base(merged, FX_TYPE_BOOL);
        break;
    case FX_TYPE_OP_LOGICAL:
        *operand = *result = fx_type_with_base(merged, FX_TYPE_BOOL);
        break;
    }
    return status;
}

// --- overload selection ---

// Fills ranks (sorted best first) and says whether the candidate is viable.
static bool signature_ranks(const fx_type *args, size_t arg_count, const fx_signature *sig,
                            unsigned *ranks) {
    if (arg_count > FX_TYPE_MAX_CALL_ARGS || arg_count > sig->count ||
        arg_count < sig->required) {
        return false;
    }
    for (size_t i = 0; i < arg_count; i++) {
        unsigned r = fx_type_rank(args[i], sig->params[i]);
        if (r == 0) {
            return false;
        }
        // Insertion sort, descending: calls have a handful of arguments.
        size_t j = i;
        while (j > 0 && ranks[j - 1] < r) {
            ranks[j] = ranks[j - 1];
            j--;
        }
        ranks[j] = r;
    }
    return true;
}

static int compare_ranks(const unsigned *a, const unsigned *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return a[i] > b[i] ? -1 : 1;
        }
    }
    return 0;
}

bool fx_type_signature_viable(const fx_type *args, size_t arg_count, const fx_signature *sig) {
    unsigned ranks[FX_TYPE_MAX_CALL_ARGS];
    return signature_ranks(args, arg_count, sig, ranks);
}

int fx_type_signature_compare(const fx_type *args, size_t arg_count, const fx_signature *a,
                              const fx_signature *b) {
    unsigned ranks_a[FX_TYPE_MAX_CALL_ARGS];
    unsigned ranks_b[FX_TYPE_MAX_CALL_ARGS];
    bool viable_a = signature_ranks(args, arg_count, a, ranks_a);
    bool viable_b = signature_ranks(args, arg_count, b, ranks_b);
    if (!viable_a || !viable_b) {
        return (int)viable_b - (int)viable_a;
    }
    return compare_ranks(ranks_a, ranks_b, arg_count);
}

fx_type_select_status fx_type_select(const fx_type *args, size_t arg_count,
                                     const void *candidates, size_t count, size_t stride,
                                     size_t *best) {
    unsigned best_ranks[FX_TYPE_MAX_CALL_ARGS];
    unsigned ranks[FX_TYPE_MAX_CALL_ARGS];
    size_t ties = 0;
    const unsigned char *at = candidates;
    for (size_t i = 0; i < count; i++, at += stride) {
        const fx_signature *sig = (const fx_signature *)(const void *)at;
        if (!signature_ranks(args, arg_count, sig, ranks)) {
            continue;
        }
        // Sorted rank lists compare as a total preorder, so one pass that
        // keeps the best and counts its equals is enough.
        int c = ties == 0 ? -1 : compare_ranks(ranks, best_ranks, arg_count);
        if (c < 0) {
            memcpy(best_ranks, ranks, arg_count * sizeof(*ranks));
            *best = i;
            ties = 1;
        } else if (c == 0) {
            ties++;
        }
    }
    if (ties == 0) {
        return FX_TYPE_SELECT_NONE;
    }
    return ties == 1 ? FX_TYPE_SELECT_OK : FX_TYPE_SELECT_AMBIGUOUS;
}

// --- std140 layout ---

static uint32_t align_up(uint32_t value, uint32_t align) {
    return (value + align - 1) / align * align;
}

uint32_t fx_type_std140_align(fx_type t) {
    if (!base_is_numeric(t.base)) {
        return 0;
    }
    if (fx_type_is_array(t) || t.cols > 1) {
        return 16;
    }
    return t.rows == 1 ? 4 : t.rows == 2 ? 8 : 16;
}

uint32_t fx_type_std140_size(fx_type t) {
    if (!base_is_numeric(t.base)) {
        return 0;
    }
    // Each matrix row is one 16-byte slot, however many columns it has.
    uint32_t size = t.cols > 1 ? t.rows * 16u : t.rows * 4u;
    if (fx_type_is_array(t)) {
        size = t.array_len > 0 ? align_up(size, 16) * (uint32_t)t.array_len : 0;
    }
    return size;
}

uint32_t fx_type_std140_place(uint32_t *offset, fx_type t) {
    uint32_t align = fx_type_std140_align(t);
    uint32_t at = align ? align_up(*offset, align) : *offset;
    *offset = at + fx_type_std140_size(t);
    return at;
}

uint32_t fx_type_std140_block_size(uint32_t offset) {
    return align_up(offset, 16);
}
