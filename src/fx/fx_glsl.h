/*
 * fx_glsl.h - the GLSL / GLSL ES code generator of the FX compiler (glsl.c).
 *
 * fx_glsl_generate fills fxgl_shader.glsl of every shader of an effect that
 * fx_module_build produced from the same checked program, and names the
 * sampler and storage bindings (fxgl_binding.name). The code follows THE
 * GLSL CONTRACT in fxgl_fx.h; how HLSL semantics are kept is described at
 * the top of glsl.c.
 */
#ifndef FX_GLSL_H
#define FX_GLSL_H

#include <stdbool.h>

#include "fx_check.h"

typedef struct fx_glsl_options {
    fxgl_glsl_target target;     // not FXGL_GLSL_NONE
    bool performance_mode;       // uniforms with initializers become constants
    // Performance mode: the value of a uniform (see fxgl_compile_desc).
    bool (*uniform_value)(void *user, const char *uniform, fxgl_value *value);
    void *user;
} fx_glsl_options;

// ctx: the compilation's context (work memory from its arena, diagnostics:
// features the target lacks are errors naming the feature). ectx: the
// effect's context; the code and the binding names are allocated there.
// prog is the checked program fx was built from. Returns false after
// errors (then some shaders may lack code).
FX_INTERNAL bool fx_glsl_generate(fx_ctx *ctx, fx_ctx *ectx, const fx_program *prog,
                                  fxgl_effect *fx, const fx_glsl_options *opt);

#endif // FX_GLSL_H
