/*
 * fx_base.h - what every stage of the FX compiler shares: the arena, the
 * compilation context with its fatal-error jump, named limits and the value
 * type used for FX types.
 *
 * Memory: one fx_arena per compilation. Every token, node, type and string
 * comes from it, zeroed, and is never freed singly; the arena goes when the
 * compilation returns. Out-of-memory, a hit limit and the error cap are fatal:
 * fx_fatal() longjmps to the one setjmp of the entry point that created the
 * context, which then frees the arena. No longjmp leaves src/fx.
 */
#ifndef FX_BASE_H
#define FX_BASE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"

#if defined(__GNUC__)
#define FX_INTERNAL __attribute__((visibility("hidden")))
#else
#define FX_INTERNAL
#endif

// --- limits (each reports "too many %s (limit is %d)") ---
#define FX_LIMIT_INCLUDE_DEPTH 64        // nested #include
#define FX_LIMIT_MACRO_DEPTH 256         // nested macro expansion
#define FX_LIMIT_EXPANSION 8000000       // tokens of all macro expansions of one compilation
#define FX_LIMIT_IF_DEPTH 256            // nested #if
#define FX_LIMIT_NESTING 256             // nested expressions/statements in the parser
#define FX_LIMIT_EXPR_DEPTH 20000        // levels of one expression tree (a+a+...: one per '+')
#define FX_LIMIT_ERRORS 20               // errors before the compilation gives up
#define FX_LIMIT_FILE_SIZE (64u << 20)   // one source file, bytes
#define FX_LIMIT_OUTPUT_SIZE (256u << 20) // preprocessed output, bytes
#define FX_LIMIT_ARENA_DEFAULT (1u << 30) // arena bytes unless the caller says otherwise
#define FX_LIMIT_TIME_MS 20000           // wall time of one compilation unless the caller says otherwise
// Stack reserved (address space only) for the thread every compilation runs
// on. The stages recurse along expression trees, which the checker keeps
// within FX_LIMIT_EXPR_DEPTH levels; a level costs under 1 KB in an
// optimised build and a few KB under ASan, so this leaves a wide margin.
#define FX_COMPILE_STACK (sizeof(void *) > 4 ? 512u << 20 : 96u << 20)

// --- arena ---

typedef struct fx_arena fx_arena;
typedef struct fx_ctx fx_ctx;

// limit 0 means FX_LIMIT_ARENA_DEFAULT. Returns NULL when out of memory.
FX_INTERNAL fx_arena *fx_arena_create(size_t limit);
FX_INTERNAL void fx_arena_destroy(fx_arena *arena);
// Zeroed memory aligned to 8 bytes (pointers, 64-bit integers, doubles: all
// the compiler stores; nothing needs 16). Returns NULL past the limit or when out
// of memory; fx_alloc below turns that into fx_fatal.
FX_INTERNAL void *fx_arena_alloc(fx_arena *arena, size_t size);
FX_INTERNAL size_t fx_arena_peak(const fx_arena *arena);   // bytes handed out, at most
FX_INTERNAL size_t fx_arena_used(const fx_arena *arena);   // bytes reserved from the system
FX_INTERNAL size_t fx_arena_limit(const fx_arena *arena);  // most bytes it may reserve

// A test build can make the Nth system allocation of any arena fail (0: never).
FX_INTERNAL void fx_arena_fail_after(unsigned long n);

// --- compilation context ---

struct fx_ctx {
    fx_arena *arena;             // borrowed; all stage memory
    fxgl_diags *diags;           // borrowed; where diagnostics go
    jmp_buf *fatal;              // where fx_fatal jumps; set by the entry point
    int error_limit;             // 0 means FX_LIMIT_ERRORS
    int errors;                  // errors reported through this context
    const char *path;            // the file compiled, for messages without a position; may be NULL
    uint64_t deadline_ns;        // fx_now_ns() past which fx_alloc gives up; 0: never
    unsigned time_limit_ms;      // what deadline_ns stands for, for the message
    unsigned allocs;             // fx_alloc calls, to look at the clock every so often
};

// Entry points look like this:
//   jmp_buf jb; fx_ctx ctx = { .arena = a, .diags = d, .fatal = &jb };
//   if (setjmp(jb)) { ...clean up, return failure... }
__attribute__((noreturn)) FX_INTERNAL void fx_fatal(fx_ctx *ctx);

FX_INTERNAL void *fx_alloc(fx_ctx *ctx, size_t size);                 // zeroed, fatal on failure
FX_INTERNAL char *fx_strndup(fx_ctx *ctx, const char *s, size_t len); // NUL-terminated copy
FX_INTERNAL char *fx_strdup(fx_ctx *ctx, const char *s);
FX_INTERNAL char *fx_sprintf(fx_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Grows *array (elements of elem_size) to hold at least need elements,
// doubling; copies into new arena memory. Fatal past limit elements.
FX_INTERNAL void fx_grow(fx_ctx *ctx, void **array, size_t *capacity, size_t need,
                         size_t elem_size, size_t limit, const char *what);

// Reports a diagnostic. Errors count towards the cap; reaching it adds
// "too many errors (limit is N)" and is fatal.
FX_INTERNAL void fx_error(fx_ctx *ctx, const char *id, const char *file, int line, int col,
                          const char *fmt, ...) __attribute__((format(printf, 6, 7)));
FX_INTERNAL void fx_warning(fx_ctx *ctx, const char *id, const char *file, int line, int col,
                            const char *fmt, ...) __attribute__((format(printf, 6, 7)));
// Same, with an include chain ("  included from ...\n" lines, may be NULL).
FX_INTERNAL void fx_report(fx_ctx *ctx, fxgl_diag_severity severity, const char *id,
                           const char *file, int line, int col, const char *include_chain,
                           const char *fmt, ...) __attribute__((format(printf, 8, 9)));
// Runs fn(arg) on a new thread with FX_COMPILE_STACK bytes of stack and waits
// for it, with every signal blocked there. Returns false when no such thread
// could be started.
FX_INTERNAL bool fx_run_on_compile_stack(void *(*fn)(void *), void *arg);
// The monotonic clock in nanoseconds.
FX_INTERNAL uint64_t fx_now_ns(void);

// Reports "too many WHAT (limit is LIMIT)" as an error and is fatal.
__attribute__((noreturn)) FX_INTERNAL void fx_limit(fx_ctx *ctx, const char *file, int line,
                                                    int col, const char *what, long limit);

// --- hashing ---

// FNV-1a 64-bit, the hash the reference's std::hash<std::string> uses on x64
// (so __APPLICATION__ and __FILE_STEM_HASH__ match it when truncated to 32 bits).
FX_INTERNAL uint64_t fx_hash_fnv1a64(const void *data, size_t len);

#endif // FX_BASE_H
