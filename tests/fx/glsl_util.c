/*
 * glsl_util.c - compiling directive-free FX for the GLSL tests (see glsl_util.h).
 */
#include "glsl_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"
#include "fx_glsl.h"

typedef struct arenas {
    fx_arena *work;
    fx_arena *effect;
} arenas;

bool glsl_compile(glsl_compiled *c, const char *src, fxgl_glsl_target target, bool perf,
                  bool (*uniform_value)(void *, const char *, fxgl_value *)) {
    memset(c, 0, sizeof(*c));
    fxgl_diags_init(&c->diags);
    arenas *a = calloc(1, sizeof(*a));
    a->work = fx_arena_create(0);
    a->effect = fx_arena_create(0);
    c->internal_ = a;
    jmp_buf jb;
    fx_ctx ctx = {.arena = a->work, .diags = &c->diags, .fatal = &jb};
    fx_ctx ectx = {.arena = a->effect, .diags = &c->diags, .fatal = &jb};
    if (setjmp(jb)) {
        return false;
    }
    fx_ast *ast = fx_parse(&ctx, src, strlen(src), "t.fx");
    fx_program *prog = ctx.errors ? NULL : fx_check(&ctx, ast);
    if (!prog || ctx.errors) {
        return false;
    }
    fxgl_effect *fx = fx_module_build(&ectx, prog);
    if (!fx) {
        return false;
    }
    fx_glsl_options opt = {.target = target, .performance_mode = perf,
                           .uniform_value = uniform_value};
    if (!fx_glsl_generate(&ctx, &ectx, prog, fx, &opt)) {
        return false;
    }
    c->effect = fx;
    return true;
}

void glsl_compiled_free(glsl_compiled *c) {
    arenas *a = c->internal_;
    if (a) {
        fx_arena_destroy(a->work);
        fx_arena_destroy(a->effect);
        free(a);
    }
    fxgl_diags_finish(&c->diags);
    memset(c, 0, sizeof(*c));
}

const char *glsl_target_name(fxgl_glsl_target t) {
    switch (t) {
    case FXGL_GLSL_GL430:
        return "gl430";
    case FXGL_GLSL_GL450:
        return "gl450";
    case FXGL_GLSL_ES300:
        return "es300";
    case FXGL_GLSL_ES310:
        return "es310";
    case FXGL_GLSL_ES320:
        return "es320";
    default:
        return "none";
    }
}
