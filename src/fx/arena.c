/*
 * arena.c - the compiler's bump allocator, its fatal-error exit and the
 * diagnostic reporting every stage uses.
 *
 * Blocks of at least 64 KiB are taken from the system and carved front to
 * back; a request larger than a block gets a block of its own. Nothing is
 * freed until the arena goes. Memory is zeroed (chibicc's calloc rule) so
 * nodes and tables start in their default state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fx_base.h"

#define ARENA_BLOCK_SIZE (64u * 1024u)

// Sanitizer builds give every request its own system block (see fx_arena_alloc).
#if defined(__SANITIZE_ADDRESS__)
#define FX_ARENA_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FX_ARENA_EXACT 1
#endif
#endif
#ifndef FX_ARENA_EXACT
#define FX_ARENA_EXACT 0
#endif
#define ARENA_ALIGN 8u  // nothing in the compiler needs more than a pointer or a double

typedef struct arena_block {
    struct arena_block *next;    // fx_arena.blocks
    size_t size;                 // usable bytes after the header
    size_t used;                 // bytes handed out from this block
} arena_block;

struct fx_arena {
    arena_block *blocks;         // owned; newest first
    size_t limit;                // most bytes the arena may reserve
    size_t reserved;             // bytes reserved from the system
    size_t handed;               // bytes handed out
};

static unsigned long fail_after;  // test hook: fail the Nth system allocation
static unsigned long fail_count;

void fx_arena_fail_after(unsigned long n) {
    fail_after = n;
    fail_count = 0;
}

static void *system_alloc(size_t size) {
    if (fail_after != 0 && ++fail_count >= fail_after) {
        return NULL;
    }
    return calloc(1, size);
}

fx_arena *fx_arena_create(size_t limit) {
    fx_arena *arena = system_alloc(sizeof(*arena));
    if (!arena) {
        return NULL;
    }
    arena->limit = limit ? limit : FX_LIMIT_ARENA_DEFAULT;
    return arena;
}

void fx_arena_destroy(fx_arena *arena) {
    if (!arena) {
        return;
    }
    arena_block *b = arena->blocks;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    free(arena);
}

static size_t header_size(void) {
    return (sizeof(arena_block) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

void *fx_arena_alloc(fx_arena *arena, size_t size) {
    if (size == 0) {
        size = 1;
    }
    if (size > arena->limit) {
        return NULL;
    }
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
#if FX_ARENA_EXACT
    {
        // One system block per request, so AddressSanitizer sees every
        // allocation's bounds: expression nodes are sized by kind
        // (fx_expr_size), and a read past a small node must not go unnoticed.
        if (arena->reserved + size > arena->limit) {
            return NULL;
        }
        arena_block *nb = system_alloc(header_size() + size);
        if (!nb) {
            return NULL;
        }
        nb->size = nb->used = size;
        nb->next = arena->blocks;
        arena->blocks = nb;
        arena->reserved += size;
        arena->handed += size;
        return (char *)nb + header_size();
    }
#endif
    arena_block *b = arena->blocks;
    if (!b || b->size - b->used < size) {
        size_t want = size > ARENA_BLOCK_SIZE ? size : ARENA_BLOCK_SIZE;
        if (arena->reserved + want > arena->limit) {
            return NULL;
        }
        arena_block *nb = system_alloc(header_size() + want);
        if (!nb) {
            return NULL;
        }
        nb->size = want;
        arena->reserved += want;
        if (b && size > ARENA_BLOCK_SIZE && b->size - b->used >= 256) {
            // A big one-off request: keep carving the partly used block.
            nb->next = b->next;
            b->next = nb;
            nb->used = size;
            arena->handed += size;
            return (char *)nb + header_size();
        }
        nb->next = b;
        arena->blocks = nb;
        b = nb;
    }
    void *p = (char *)b + header_size() + b->used;
    b->used += size;
    arena->handed += size;
    return p;
}

size_t fx_arena_peak(const fx_arena *arena) {
    return arena->handed;
}

size_t fx_arena_limit(const fx_arena *arena) {
    return arena->limit;
}

size_t fx_arena_used(const fx_arena *arena) {
    return arena->reserved;
}

// --- context ---

void fx_fatal(fx_ctx *ctx) {
    longjmp(*ctx->fatal, 1);
}

uint64_t fx_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Every stage allocates as it goes (tokens, expansions, nodes, text), so
// the allocator is where a runaway compilation is noticed; the clock is read
// once per 4096 allocations.
void *fx_alloc(fx_ctx *ctx, size_t size) {
    if (ctx->deadline_ns && (++ctx->allocs & 4095u) == 0 && fx_now_ns() > ctx->deadline_ns) {
        fxgl_diags_add(ctx->diags, FXGL_DIAG_ERROR, "TIME_LIMIT", ctx->path ? ctx->path : "", 0,
                       0, NULL, "gave up: the compilation took longer than %u ms (the time limit)",
                       ctx->time_limit_ms);
        ctx->errors++;
        fx_fatal(ctx);
    }
    void *p = fx_arena_alloc(ctx->arena, size);
    if (!p) {
        fxgl_diags_add(ctx->diags, FXGL_DIAG_ERROR, "OUT_OF_MEMORY", ctx->path ? ctx->path : "",
                       0, 0, NULL,
                       "gave up: out of memory (%zu bytes of compiler memory in use, the limit "
                       "is %zu)",
                       fx_arena_used(ctx->arena), fx_arena_limit(ctx->arena));
        ctx->errors++;
        fx_fatal(ctx);
    }
    return p;
}

char *fx_strndup(fx_ctx *ctx, const char *s, size_t len) {
    char *p = fx_alloc(ctx, len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *fx_strdup(fx_ctx *ctx, const char *s) {
    return fx_strndup(ctx, s, strlen(s));
}

char *fx_sprintf(fx_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = fx_alloc(ctx, (size_t)(n < 0 ? 0 : n) + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void fx_grow(fx_ctx *ctx, void **array, size_t *capacity, size_t need, size_t elem_size,
             size_t limit, const char *what) {
    if (need <= *capacity) {
        return;
    }
    if (need > limit) {
        fx_limit(ctx, "", 0, 0, what, (long)limit);
    }
    size_t cap = *capacity ? *capacity : 8;
    while (cap < need) {
        cap *= 2;
    }
    if (cap > limit) {
        cap = limit;
    }
    void *p = fx_alloc(ctx, cap * elem_size);
    if (*capacity) {
        memcpy(p, *array, *capacity * elem_size);
    }
    *array = p;
    *capacity = cap;
}

static void reportv(fx_ctx *ctx, fxgl_diag_severity severity, const char *id, const char *file,
                    int line, int col, const char *chain, const char *fmt, va_list ap) {
    if (!fxgl_diags_addv(ctx->diags, severity, id, file, line, col, chain, fmt, ap)) {
        fx_fatal(ctx);
    }
    if (severity != FXGL_DIAG_ERROR) {
        return;
    }
    int cap = ctx->error_limit ? ctx->error_limit : FX_LIMIT_ERRORS;
    if (++ctx->errors >= cap) {
        fxgl_diags_add(ctx->diags, FXGL_DIAG_ERROR, "TOO_MANY_ERRORS", file, line, col, NULL,
                       "too many errors (limit is %d)", cap);
        fx_fatal(ctx);
    }
}

void fx_report(fx_ctx *ctx, fxgl_diag_severity severity, const char *id, const char *file,
               int line, int col, const char *include_chain, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    reportv(ctx, severity, id, file, line, col, include_chain, fmt, ap);
    va_end(ap);
}

void fx_error(fx_ctx *ctx, const char *id, const char *file, int line, int col,
              const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    reportv(ctx, FXGL_DIAG_ERROR, id, file, line, col, NULL, fmt, ap);
    va_end(ap);
}

void fx_warning(fx_ctx *ctx, const char *id, const char *file, int line, int col,
                const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    reportv(ctx, FXGL_DIAG_WARNING, id, file, line, col, NULL, fmt, ap);
    va_end(ap);
}

void fx_limit(fx_ctx *ctx, const char *file, int line, int col, const char *what, long limit) {
    fxgl_diags_add(ctx->diags, FXGL_DIAG_ERROR, "LIMIT", file, line, col, NULL,
                   "too many %s (limit is %ld)", what, limit);
    ctx->errors++;
    fx_fatal(ctx);
}

uint64_t fx_hash_fnv1a64(const void *data, size_t len) {
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
