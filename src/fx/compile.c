/*
 * compile.c - fxgl_effect_compile, the compiler's one entry point. Like
 * chibicc's cc1 it reads as the pipeline: preprocess, parse, check, build
 * the module, generate GLSL for the requested target.
 *
 * Memory: the stages work in one arena that is freed before returning; the
 * effect is built in a second arena that becomes the effect's own and goes
 * with fxgl_effect_destroy. Out-of-memory, limits, the time budget and the
 * error cap longjmp to the setjmp below (Lua's luaD_rawrunprotected), which
 * frees both.
 *
 * Stack: the stages recurse along expression trees, whose height only the
 * checker's FX_LIMIT_EXPR_DEPTH bounds; a legal 15,000-term sum needs more
 * stack than a game's thread may have. So every compilation runs on a
 * thread of its own whose reserved stack covers the limit.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"
#include "fx_glsl.h"
#include "fx_pp.h"

// Macros the reference runtime puts before every effect (runtime.cpp): old
// names of the offset and gather intrinsics that real effects still use.
static const fx_pp_define compat_macros[] = {
    {"tex2Doffset(s, coords, offset)", "tex2D(s, coords, offset)"},
    {"tex2Dlodoffset(s, coords, offset)", "tex2Dlod(s, coords, offset)"},
    {"tex2Dgather(s, t, c)", "tex2Dgather##c(s, t)"},
    {"tex2Dgatheroffset(s, t, o, c)", "tex2Dgather##c(s, t, o)"},
    {"tex2Dgather0", "tex2DgatherR"},
    {"tex2Dgather1", "tex2DgatherG"},
    {"tex2Dgather2", "tex2DgatherB"},
    {"tex2Dgather3", "tex2DgatherA"},
    {"tex2Dgather0offset", "tex2DgatherR"},
    {"tex2Dgather1offset", "tex2DgatherG"},
    {"tex2Dgather2offset", "tex2DgatherB"},
    {"tex2Dgather3offset", "tex2DgatherA"},
};

#define COMPAT_COUNT (sizeof(compat_macros) / sizeof(compat_macros[0]))

const fx_pp_define *fx_pp_compat_macros(size_t *count) {
    *count = COMPAT_COUNT;
    return compat_macros;
}

static const char *const *copy_strings(fx_ctx *ectx, const char *const *list, size_t count) {
    if (!count) {
        return NULL;
    }
    const char **out = fx_alloc(ectx, count * sizeof(*out));
    for (size_t i = 0; i < count; i++) {
        out[i] = fx_strdup(ectx, list[i] ? list[i] : "");
    }
    return out;
}

bool fx_run_on_compile_stack(void *(*fn)(void *), void *arg) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        return false;
    }
    pthread_t thread;
    sigset_t all, old;
    sigfillset(&all);
    // The thread inherits the mask: a host's signals stay on its own threads.
    pthread_sigmask(SIG_SETMASK, &all, &old);
    // Under strict overcommit a large stack can be refused: 64 MiB still
    // holds the deepest tree of an optimised build (about 12 MiB).
    bool ok = false;
    static const size_t sizes[] = {FX_COMPILE_STACK, 64u << 20};
    for (size_t i = 0; i < 2 && !ok; i++) {
        ok = pthread_attr_setstacksize(&attr, sizes[i]) == 0 &&
             pthread_create(&thread, &attr, fn, arg) == 0;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (ok) {
        pthread_join(thread, NULL);
    }
    return ok;
}

static fxgl_effect *compile_here(const fxgl_compile_desc *desc, fxgl_diags *diags) {
    fx_arena *arena = fx_arena_create(desc->memory_limit);
    fx_arena *earena = fx_arena_create(desc->memory_limit);
    if (!arena || !earena) {
        fx_arena_destroy(arena);
        fx_arena_destroy(earena);
        fxgl_diags_add(diags, FXGL_DIAG_ERROR, "OUT_OF_MEMORY", desc->path, 0, 0, NULL,
                       "out of memory");
        return NULL;
    }
    jmp_buf jb;
    unsigned ms = desc->time_limit_ms ? desc->time_limit_ms : FX_LIMIT_TIME_MS;
    uint64_t deadline = fx_now_ns() + (uint64_t)ms * 1000000u;
    fx_ctx ctx = {.arena = arena, .diags = diags, .fatal = &jb, .path = desc->path,
                  .deadline_ns = deadline, .time_limit_ms = ms};
    fx_ctx ectx = ctx;
    ectx.arena = earena;
    if (setjmp(jb)) {
        fx_arena_destroy(arena);
        fx_arena_destroy(earena);
        return NULL;
    }
    fx_pp_define *defines = fx_alloc(&ctx, (COMPAT_COUNT + desc->define_count + 1) *
                                               sizeof(*defines));
    memcpy(defines, compat_macros, sizeof(compat_macros));
    for (size_t i = 0; i < desc->define_count; i++) {
        defines[COMPAT_COUNT + i] = (fx_pp_define){desc->defines[i].name, desc->defines[i].value};
    }
    fx_pp_desc pd = {
        .path = desc->path,
        .source = desc->source,
        .source_len = desc->source_len,
        .include_paths = desc->include_paths,
        .include_path_count = desc->include_path_count,
        .defines = defines,
        .define_count = COMPAT_COUNT + desc->define_count,
        .output_limit = desc->output_limit,
    };
    fx_pp_result pr = {0};
    fxgl_effect *fx = NULL;
    if (fx_pp_run(&ctx, &pd, &pr) && ctx.errors == 0) {
        fx_ast *ast = fx_parse(&ctx, pr.text, pr.len, desc->path);
        fx_program *prog = ctx.errors == 0 ? fx_check(&ctx, ast) : NULL;
        if (prog && ctx.errors == 0) {
            ectx.errors = 0;
            ectx.error_limit = ctx.error_limit;
            fx = fx_module_build(&ectx, prog);
            fx_glsl_options go = {.target = desc->target,
                                  .performance_mode = desc->performance_mode,
                                  .uniform_value = desc->uniform_value,
                                  .user = desc->user};
            if (fx && desc->target != FXGL_GLSL_NONE &&
                !fx_glsl_generate(&ctx, &ectx, prog, fx, &go)) {
                fx = NULL;
            }
        }
    }
    if (fx) {
        fx->path = fx_strdup(&ectx, desc->path);
        fx->pragmas = copy_strings(&ectx, pr.pragmas, pr.pragma_count);
        fx->pragma_count = pr.pragma_count;
        fx->included_files = copy_strings(&ectx, pr.included_files, pr.included_count);
        fx->included_count = pr.included_count;
        fx->ifdef_names = copy_strings(&ectx, pr.ifdef_names, pr.ifdef_count);
        fx->ifdef_count = pr.ifdef_count;
        fx->internal_ = earena;
    } else {
        fx_arena_destroy(earena);
    }
    fx_arena_destroy(arena);
    return fx;
}

typedef struct compile_job {
    const fxgl_compile_desc *desc;
    fxgl_diags *diags;
    fxgl_effect *effect;         // the result
} compile_job;

static void *compile_thread(void *arg) {
    compile_job *job = arg;
    job->effect = compile_here(job->desc, job->diags);
    return NULL;
}

fxgl_effect *fxgl_effect_compile(const fxgl_compile_desc *desc, fxgl_diags *diags) {
    if (!desc || !diags || !desc->path) {
        return NULL;
    }
    compile_job job = {.desc = desc, .diags = diags};
    if (!fx_run_on_compile_stack(compile_thread, &job)) {
        fxgl_diags_add(diags, FXGL_DIAG_ERROR, "OUT_OF_MEMORY", desc->path, 0, 0, NULL,
                       "gave up: no thread with a %zu MiB stack for the compiler",
                       (size_t)FX_COMPILE_STACK >> 20);
        return NULL;
    }
    return job.effect;
}

void fxgl_effect_destroy(fxgl_effect *effect) {
    if (effect && effect->internal_) {
        // The effect itself lives in its arena.
        fx_arena_destroy(effect->internal_);
    }
}
