/*
 * fxgl_fx.h - the public face of the FX compiler (src/fx).
 *
 * src/fx knows nothing about GL. It turns ReShade FX source into plain data:
 * diagnostics (this header, now) and the effect module (textures, samplers,
 * uniforms, techniques, passes, GLSL per entry point), which later stages
 * add here. Everything returned is owned by the caller and freed with the
 * matching _destroy; nothing in here prints.
 */
#ifndef FXGL_FX_H
#define FXGL_FX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// --- diagnostics ---

typedef enum fxgl_diag_severity {
    FXGL_DIAG_ERROR,
    FXGL_DIAG_WARNING,
    FXGL_DIAG_NOTE,
} fxgl_diag_severity;

typedef struct fxgl_diag {
    fxgl_diag_severity severity; // error, warning or note
    const char *id;              // stable identifier ("X3004", "P_UNTERMINATED_COMMENT"), never NULL
    char *file;                  // owned; path as the user wrote it, "" when unknown
    int line;                    // 1-based, 0 when unknown
    int col;                     // 1-based, 0 when unknown
    char *message;               // owned; lower case, no final period
    char *include_chain;         // owned; "  included from a.fx(3)\n" lines, or NULL
} fxgl_diag;

// A growing list of diagnostics. Survives the compilation that filled it.
typedef struct fxgl_diags {
    fxgl_diag *items;            // owned array of count entries
    size_t count;                // entries in use
    size_t capacity;             // entries allocated
    size_t errors;               // how many have FXGL_DIAG_ERROR
    size_t warnings;             // how many have FXGL_DIAG_WARNING
} fxgl_diags;

void fxgl_diags_init(fxgl_diags *diags);
void fxgl_diags_finish(fxgl_diags *diags);

// Appends one diagnostic; copies every string. Returns false only when out of
// memory, in which case the list is unchanged.
bool fxgl_diags_add(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                    const char *file, int line, int col, const char *include_chain,
                    const char *fmt, ...) __attribute__((format(printf, 8, 9)));
bool fxgl_diags_addv(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                     const char *file, int line, int col, const char *include_chain,
                     const char *fmt, va_list ap) __attribute__((format(printf, 8, 0)));

// Writes every diagnostic as `file(line, col): error|warning|note: message`,
// each followed by its include chain.
void fxgl_diags_print(const fxgl_diags *diags, FILE *out);

// Formats one diagnostic into buf (always NUL-terminated); returns the length
// it wanted, like snprintf.
int fxgl_diag_format(const fxgl_diag *diag, char *buf, size_t size);

const char *fxgl_diag_severity_name(fxgl_diag_severity severity);

#ifdef __cplusplus
}
#endif

#endif // FXGL_FX_H
