/*
 * glsl_util.h - what the GLSL generator tests share: compiling directive-free
 * FX source through parse, check, module and the generator (no
 * preprocessor), and validating the result with glslang's C interface.
 */
#ifndef GLSL_UTIL_H
#define GLSL_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "fxgl_fx.h"

typedef struct glsl_compiled {
    fxgl_effect *effect;         // NULL after errors
    fxgl_diags diags;
    void *internal_;
} glsl_compiled;

// Compiles src for target (performance_mode off unless perf is set).
// Returns false on errors (the diagnostics stay in c->diags).
bool glsl_compile(glsl_compiled *c, const char *src, fxgl_glsl_target target, bool perf,
                  bool (*uniform_value)(void *, const char *, fxgl_value *));
void glsl_compiled_free(glsl_compiled *c);

// Validates one shader with glslang; log gets the messages on failure.
bool glsl_validate(const char *code, fxgl_stage stage, char *log, size_t log_size);
// Compiles and links a vertex and a pixel shader with glslang.
bool glsl_validate_link(const char *vs, const char *ps, char *log, size_t log_size);

const char *glsl_target_name(fxgl_glsl_target t);

#endif
