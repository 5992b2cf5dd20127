/*
 * glsl_glslang.c - glslang validation for the GLSL tests (see glsl_util.h);
 * kept apart so that only tests that validate link glslang's C++.
 */
#include <stdio.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "glsl_util.h"

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

