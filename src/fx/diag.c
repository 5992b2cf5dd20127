/*
 * diag.c - the diagnostics list: the one form in which src/fx reports
 * problems (it never prints by itself).
 *
 * The format follows the reference compiler, `file(line, col): error: msg`,
 * because users paste these lines into bug reports and editors parse them.
 * Strings are copied, so a list outlives the arena of the compilation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"

void fxgl_diags_init(fxgl_diags *diags) {
    memset(diags, 0, sizeof(*diags));
}

void fxgl_diags_finish(fxgl_diags *diags) {
    if (!diags) {
        return;
    }
    for (size_t i = 0; i < diags->count; i++) {
        free(diags->items[i].file);
        free(diags->items[i].message);
        free(diags->items[i].include_chain);
    }
    free(diags->items);
    memset(diags, 0, sizeof(*diags));
}

static char *dup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}

bool fxgl_diags_addv(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                     const char *file, int line, int col, const char *include_chain,
                     const char *fmt, va_list ap) {
    if (diags->count == diags->capacity) {
        size_t cap = diags->capacity ? diags->capacity * 2 : 16;
        fxgl_diag *items = realloc(diags->items, cap * sizeof(*items));
        if (!items) {
            return false;
        }
        diags->items = items;
        diags->capacity = cap;
    }
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *message = malloc((size_t)(n < 0 ? 0 : n) + 1);
    char *file_copy = strdup(file ? file : "");
    char *chain = dup_or_null(include_chain);
    if (!message || !file_copy || (include_chain && !chain)) {
        free(message);
        free(file_copy);
        free(chain);
        return false;
    }
    vsnprintf(message, (size_t)n + 1, fmt, ap);
    diags->items[diags->count++] = (fxgl_diag){
        .severity = severity,
        .id = id ? id : "",
        .file = file_copy,
        .line = line,
        .col = col,
        .message = message,
        .include_chain = chain,
    };
    if (severity == FXGL_DIAG_ERROR) {
        diags->errors++;
    } else if (severity == FXGL_DIAG_WARNING) {
        diags->warnings++;
    }
    return true;
}

bool fxgl_diags_add(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                    const char *file, int line, int col, const char *include_chain,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    bool ok = fxgl_diags_addv(diags, severity, id, file, line, col, include_chain, fmt, ap);
    va_end(ap);
    return ok;
}

const char *fxgl_diag_severity_name(fxgl_diag_severity severity) {
    switch (severity) {
    case FXGL_DIAG_ERROR:
        return "error";
    case FXGL_DIAG_WARNING:
        return "warning";
    case FXGL_DIAG_NOTE:
        return "note";
    }
    return "error";
}

int fxgl_diag_format(const fxgl_diag *d, char *buf, size_t size) {
    const char *sev = fxgl_diag_severity_name(d->severity);
    if (d->line > 0) {
        return snprintf(buf, size, "%s(%d, %d): %s: %s", d->file, d->line, d->col, sev,
                        d->message);
    }
    if (d->file[0]) {
        return snprintf(buf, size, "%s: %s: %s", d->file, sev, d->message);
    }
    return snprintf(buf, size, "%s: %s", sev, d->message);
}

void fxgl_diags_print(const fxgl_diags *diags, FILE *out) {
    for (size_t i = 0; i < diags->count; i++) {
        char line[1024];
        const fxgl_diag *d = &diags->items[i];
        int n = fxgl_diag_format(d, line, sizeof(line));
        if (n >= (int)sizeof(line)) {
            // Long messages are rare (macro bodies); print them whole.
            char *big = malloc((size_t)n + 1);
            if (big) {
                fxgl_diag_format(d, big, (size_t)n + 1);
                fprintf(out, "%s\n", big);
                free(big);
            } else {
                fprintf(out, "%s\n", line);
            }
        } else {
            fprintf(out, "%s\n", line);
        }
        if (d->include_chain) {
            fputs(d->include_chain, out);
        }
    }
}
