/*
 * glsl_util.c - see glsl_util.h.
 */
#include "glsl_util.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

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

static glslang_stage_t gstage(fxgl_stage s) {
    return s == FXGL_STAGE_VERTEX ? GLSLANG_STAGE_VERTEX
           : s == FXGL_STAGE_PIXEL ? GLSLANG_STAGE_FRAGMENT
                                   : GLSLANG_STAGE_COMPUTE;
}

static glslang_shader_t *make(const char *code, fxgl_stage stage, char *log, size_t log_size) {
    static bool init;
    if (!init) {
        glslang_initialize_process();
        init = true;
    }
    glslang_input_t in = {
        .language = GLSLANG_SOURCE_GLSL,
        .stage = gstage(stage),
        .client = GLSLANG_CLIENT_NONE,
        .target_language = GLSLANG_TARGET_NONE,
        .code = code,
        .default_version = 100,
        .default_profile = GLSLANG_NO_PROFILE,
        .messages = GLSLANG_MSG_DEFAULT_BIT,
        .resource = glslang_default_resource(),
    };
    glslang_shader_t *sh = glslang_shader_create(&in);
    if (!glslang_shader_preprocess(sh, &in) || !glslang_shader_parse(sh, &in)) {
        snprintf(log, log_size, "%s", glslang_shader_get_info_log(sh));
        glslang_shader_delete(sh);
        return NULL;
    }
    return sh;
}

bool glsl_validate(const char *code, fxgl_stage stage, char *log, size_t log_size) {
    glslang_shader_t *sh = make(code, stage, log, log_size);
    if (!sh) {
        return false;
    }
    glslang_program_t *p = glslang_program_create();
    glslang_program_add_shader(p, sh);
    bool ok = glslang_program_link(p, GLSLANG_MSG_DEFAULT_BIT);
    if (!ok) {
        snprintf(log, log_size, "%s", glslang_program_get_info_log(p));
    }
    glslang_program_delete(p);
    glslang_shader_delete(sh);
    return ok;
}

bool glsl_validate_link(const char *vs, const char *ps, char *log, size_t log_size) {
    glslang_shader_t *a = make(vs, FXGL_STAGE_VERTEX, log, log_size);
    if (!a) {
        return false;
    }
    glslang_shader_t *b = make(ps, FXGL_STAGE_PIXEL, log, log_size);
    if (!b) {
        glslang_shader_delete(a);
        return false;
    }
    glslang_program_t *p = glslang_program_create();
    glslang_program_add_shader(p, a);
    glslang_program_add_shader(p, b);
    bool ok = glslang_program_link(p, GLSLANG_MSG_DEFAULT_BIT);
    if (!ok) {
        snprintf(log, log_size, "%s", glslang_program_get_info_log(p));
    }
    glslang_program_delete(p);
    glslang_shader_delete(a);
    glslang_shader_delete(b);
    return ok;
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
