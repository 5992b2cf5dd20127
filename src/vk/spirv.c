/*
 * spirv.c - Vulkan-flavoured GLSL (fxgl_shader.glsl of FXGL_GLSL_VK450) to
 * SPIR-V through glslang's C interface, at load time.
 *
 * glslang is static C++ in Debian, which is why this lives in the Vulkan
 * library and never in the preloaded GL one. glslang keeps process-wide
 * tables: they are set up once (pthread_once) and never torn down, so any
 * thread may compile.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

#include "fxgl_vk.h"

static pthread_once_t spirv_once = PTHREAD_ONCE_INIT;

static void spirv_init(void) {
    glslang_initialize_process();
}

static glslang_stage_t spirv_stage(fxgl_stage stage) {
    return stage == FXGL_STAGE_VERTEX ? GLSLANG_STAGE_VERTEX
           : stage == FXGL_STAGE_PIXEL ? GLSLANG_STAGE_FRAGMENT
                                       : GLSLANG_STAGE_COMPUTE;
}

bool fxgl_vk_spirv(const char *glsl, fxgl_stage stage, const char *preamble, uint32_t **words,
                   size_t *count, char *log, size_t log_size) {
    *words = NULL;
    *count = 0;
    if (log_size) {
        log[0] = '\0';
    }
    pthread_once(&spirv_once, spirv_init);
    glslang_input_t in = {
        .language = GLSLANG_SOURCE_GLSL,
        .stage = spirv_stage(stage),
        .client = GLSLANG_CLIENT_VULKAN,
        .client_version = GLSLANG_TARGET_VULKAN_1_2,
        .target_language = GLSLANG_TARGET_SPV,
        .target_language_version = GLSLANG_TARGET_SPV_1_5,
        .code = glsl,
        .default_version = 450,
        .default_profile = GLSLANG_NO_PROFILE,
        .messages = GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT,
        .resource = glslang_default_resource(),
    };
    glslang_shader_t *sh = glslang_shader_create(&in);
    if (!sh) {
        snprintf(log, log_size, "glslang: out of memory");
        return false;
    }
    if (preamble) {
        // Defines the runtime adds (variants such as _gexact_view).
        glslang_shader_set_preamble(sh, preamble);
    }
    bool ok = glslang_shader_preprocess(sh, &in) && glslang_shader_parse(sh, &in);
    if (!ok) {
        snprintf(log, log_size, "%s", glslang_shader_get_info_log(sh));
        glslang_shader_delete(sh);
        return false;
    }
    glslang_program_t *prog = glslang_program_create();
    glslang_program_add_shader(prog, sh);
    ok = glslang_program_link(prog, GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT);
    if (!ok) {
        snprintf(log, log_size, "%s", glslang_program_get_info_log(prog));
    } else {
        glslang_program_SPIRV_generate(prog, in.stage);
        size_t n = glslang_program_SPIRV_get_size(prog);
        const char *msg = glslang_program_SPIRV_get_messages(prog);
        if (msg && log_size) {
            snprintf(log, log_size, "%s", msg);
        }
        *words = n ? malloc(n * sizeof(**words)) : NULL;
        if (!*words) {
            snprintf(log, log_size, "glslang: no SPIR-V (out of memory)");
            ok = false;
        } else {
            glslang_program_SPIRV_get(prog, *words);
            *count = n;
        }
    }
    glslang_program_delete(prog);
    glslang_shader_delete(sh);
    return ok;
}
