/*
 * predefined.c - the macros every effect sees, computed the reference's way
 * (reshade_reference.md §1.10), so fxc, the runtime and the conformance
 * runner give effects one consistent environment.
 *
 * __RENDERER__ for desktop GL is 0x10000 | major << 12 | minor << 8 (4.5 ->
 * 0x14500). The reference has no GLES backend; fxgl reports a GLES context
 * as the desktop version with the same shading features (ES 3.0 -> GL 3.3,
 * ES 3.1 and 3.2 -> GL 4.3, which is where effects test for compute), and
 * adds __FXGL_GLES__ = 1 so an effect can tell. __FXGL__ is fxgl's version.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "fx_pp.h"
#include "fxgl_fx.h"

typedef struct writer {
    fxgl_define *out;            // borrowed: the caller's array
    size_t count;                // entries written
    char *storage;               // borrowed: where names and values go
    size_t size;                 // bytes of storage
    size_t used;                 // bytes used
} writer;

static const char *store(writer *w, const char *s) {
    size_t len = strlen(s) + 1;
    if (w->used + len > w->size) {
        return NULL;
    }
    char *p = w->storage + w->used;
    memcpy(p, s, len);
    w->used += len;
    return p;
}

static void add(writer *w, const char *name, const char *value) {
    if (w->count >= FXGL_PREDEFINED_MAX) {
        return;
    }
    const char *v = store(w, value);
    if (!v) {
        return;
    }
    // Names are string literals of this file: no copy needed.
    w->out[w->count++] = (fxgl_define){.name = name, .value = v};
}

static void addf(writer *w, const char *name, const char *fmt, unsigned long value) {
    char buf[32];
    snprintf(buf, sizeof(buf), fmt, value);
    add(w, name, buf);
}

size_t fxgl_predefined_macros(const fxgl_environment *env, fxgl_define *out, char *storage,
                              size_t storage_size) {
    writer w = {.out = out, .storage = storage, .size = storage_size};
    int width = env->width > 0 ? env->width : 1920;
    int height = env->height > 0 ? env->height : 1080;
    bool gles = env->api == FXGL_API_KIND_GLES;
    int major = env->api_major ? env->api_major : (gles ? 3 : 4);
    int minor = env->api_major ? env->api_minor : (gles ? 2 : 5);
    if (gles) {
        // Map to the desktop version with the same shading features.
        int es = major * 10 + minor;
        major = es >= 31 ? 4 : 3;
        minor = es >= 31 ? 3 : 3;
    }
    fxgl_format format = env->color_format ? env->color_format : FXGL_FORMAT_RGBA8;

    addf(&w, "__RESHADE__", "%lu", FXGL_RESHADE_VERSION);
    addf(&w, "__RESHADE_PERMUTATION__", "%lu", 0);
    addf(&w, "__RESHADE_PERFORMANCE_MODE__", "%lu", env->performance_mode ? 1 : 0);
    addf(&w, "__VENDOR__", "0x%lX", env->vendor);
    addf(&w, "__DEVICE__", "0x%lX", env->device);
    addf(&w, "__RENDERER__", "0x%lX", fx_pp_renderer_gl(major, minor));
    addf(&w, "__APPLICATION__", "0x%lX",
         env->application ? fx_pp_application_hash(env->application) : 0);
    addf(&w, "BUFFER_WIDTH", "%lu", (unsigned long)width);
    addf(&w, "BUFFER_HEIGHT", "%lu", (unsigned long)height);
    // Literally a float expression, as the reference defines them: usable in
    // code, not in #if.
    add(&w, "BUFFER_RCP_WIDTH", "(1.0 / BUFFER_WIDTH)");
    add(&w, "BUFFER_RCP_HEIGHT", "(1.0 / BUFFER_HEIGHT)");
    addf(&w, "BUFFER_COLOR_BIT_DEPTH", "%lu",
         (unsigned long)(env->color_bit_depth ? env->color_bit_depth : 8));
    addf(&w, "BUFFER_COLOR_FORMAT", "%lu", (unsigned long)fxgl_format_dxgi(format));
    addf(&w, "BUFFER_COLOR_SPACE", "%lu", (unsigned long)env->color_space);
    add(&w, "__FXGL__", PACKAGE_VERSION_NUMBER);
    if (gles) {
        add(&w, "__FXGL_GLES__", "1");
    }
    return w.count;
}
