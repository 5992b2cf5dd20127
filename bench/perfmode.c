/*
 * perfmode.c - GPU time of effects with and without performance mode.
 *
 *   bench/perfmode [--frames N] [--size WxH] [--preset P.ini] DIR EFFECT.fx...
 *
 * Each effect is compiled twice through src/effects (the same path the interposer and
 * fxgl-render take), once normally and once in performance mode with the preset's values
 * as constants, and each version runs alone for N frames over a test image on a headless
 * EGL context. Printed per effect: the runtime's 60-frame average GPU time of the
 * technique (timer queries) and the CPU wall time of a frame including glFinish, for both
 * modes (median of the frames). The two versions run alternately, frame about frame, in
 * one context. Without arguments (as `make check` runs it) it does a short pass over two
 * built-in effects, so the program stays working; bench/perfmode.sh runs the real thing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_effects.h"
#include "fxgl_gl.h"
#include "fxgl_test.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct figures {
    double gpu_ms;               // the runtime's average over its last 60 frames
    double wall_ms;              // median frame + glFinish
    bool ok;
} figures;

// One version of an effect (normal or performance mode) with its own runtime.
typedef struct variant {
    fxgl_compiler *fx;
    fxgl_effect *effect;
    fxgl_runtime *rt;
    double *wall;                // per measured frame
    int measured;
} variant;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool variant_init(variant *v, fxgl_test_egl *egl, const char *dir, const char *file,
                         const char *preset, bool performance, int w, int h, int frames) {
    memset(v, 0, sizeof(*v));
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    const char *paths[1] = {dir};
    v->fx = fxgl_compiler_create(&(fxgl_compiler_desc){
        .env = {.width = w, .height = h, .api_major = info->major, .api_minor = info->minor},
        .target = FXGL_GLSL_GL450,
        .include_paths = paths,
        .include_path_count = 1,
        .performance_mode = performance,
    });
    if (v->fx == NULL || (preset != NULL && !fxgl_compiler_set_preset(v->fx, preset))) {
        return false;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    v->effect = fxgl_compiler_compile(v->fx, path, &diags);
    if (v->effect == NULL) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    v->wall = calloc((size_t)frames + 1, sizeof(*v->wall));
    v->rt = v->effect != NULL ? fxgl_runtime_create(gl, info, &(fxgl_runtime_desc){0}) : NULL;
    return v->rt != NULL && v->wall != NULL && fxgl_runtime_add_effect(v->rt, v->effect, file) == 0;
}

static void variant_finish(variant *v) {
    fxgl_runtime_destroy(v->rt);
    fxgl_effect_destroy(v->effect);
    fxgl_compiler_destroy(v->fx);
    free(v->wall);
}

static figures variant_figures(variant *v) {
    figures out = {0};
    fxgl_technique_info ti;
    out.ok = fxgl_runtime_effect_status(v->rt, 0, NULL) == FXGL_STATUS_READY &&
             fxgl_runtime_technique(v->rt, 0, &ti);
    out.gpu_ms = out.ok ? ti.gpu_ms : 0.0;
    if (v->measured > 0) {
        qsort(v->wall, (size_t)v->measured, sizeof(*v->wall), cmp_double);
        out.wall_ms = v->wall[v->measured / 2];
    }
    return out;
}

// Both versions run in the same context, frame about frame, so a busy moment of the
// machine falls on both alike.
static void run(fxgl_test_egl *egl, const char *dir, const char *file, const char *preset,
                int w, int h, int frames, figures *normal, figures *perf) {
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    variant v[2];
    bool ok = variant_init(&v[0], egl, dir, file, preset, false, w, h, frames);
    ok = variant_init(&v[1], egl, dir, file, preset, true, w, h, frames) && ok;
    GLuint tex = 0, fbo = 0;
    if (ok) {
        gl->GenTextures(1, &tex);
        gl->BindTexture(GL_TEXTURE_2D, tex);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
        gl->GenFramebuffers(1, &fbo);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        // A gradient, so effects that depend on content have some to work on.
        unsigned char *px = malloc((size_t)w * (size_t)h * 4);
        for (int y = 0; px != NULL && y < h; y++) {
            for (int x = 0; x < w; x++) {
                unsigned char *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
                p[0] = (unsigned char)(x * 255 / w);
                p[1] = (unsigned char)(y * 255 / h);
                p[2] = (unsigned char)((x ^ y) & 255);
                p[3] = 255;
            }
        }
        double t = 0.0;
        int warm = 5;
        for (int i = 0; i < warm + frames; i++) {
            for (int k = 0; k < 2; k++) {
                // The same input every frame: each version sees what the other did not.
                gl->BindTexture(GL_TEXTURE_2D, tex);
                if (px != NULL) {
                    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE,
                                      px);
                }
                gl->Finish();
                double t0 = now();
                fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = fbo, .time = t};
                fxgl_runtime_frame(v[k].rt, &d);
                gl->Finish();
                if (i >= warm) {
                    v[k].wall[v[k].measured++] = (now() - t0) * 1000.0;
                }
            }
            t += 1.0 / 60.0;
        }
        free(px);
    }
    *normal = ok ? variant_figures(&v[0]) : (figures){0};
    *perf = ok ? variant_figures(&v[1]) : (figures){0};
    variant_finish(&v[0]);
    variant_finish(&v[1]);
    if (fbo) {
        gl->DeleteFramebuffers(1, &fbo);
        gl->DeleteTextures(1, &tex);
    }
}

int main(int argc, char **argv) {
    int frames = 120, w = 1280, h = 720;
    const char *preset = NULL;
    const char *dir = NULL;
    const char *files[64];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
                fprintf(stderr, "perfmode: bad size\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc) {
            preset = argv[++i];
        } else if (dir == NULL) {
            dir = argv[i];
        } else if (nfiles < 64) {
            files[nfiles++] = argv[i];
        }
    }
    static char default_dir[4096];
    if (dir == NULL) {
        // `make check`: a short pass, just keeping the program working.
        const char *top = getenv("FXGL_TOP_SRCDIR");
        snprintf(default_dir, sizeof(default_dir), "%s/data/shaders", top ? top : ".");
        dir = default_dir;
        files[nfiles++] = "fxgl_Vignette.fx";
        files[nfiles++] = "fxgl_CAS.fx";
        frames = 10;
        w = 128;
        h = 72;
    }
    fxgl_test_pin_drivers();
    char reason[256];
    fxgl_test_egl *egl = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                              reason, sizeof(reason));
    if (egl == NULL) {
        printf("perfmode: skipped: no GL 4.5 EGL context: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    printf("# %s, %dx%d, %d frames%s\n", info->renderer, w, h, frames,
           info->is_software ? " (software renderer: not GPU figures)" : "");
    printf("%-22s %12s %12s %8s %12s %12s\n", "effect", "gpu_ms", "gpu_ms_perf", "ratio",
           "frame_ms", "frame_ms_perf");
    int status = 0;
    for (int i = 0; i < nfiles; i++) {
        figures a, b;
        run(egl, dir, files[i], preset, w, h, frames, &a, &b);
        if (!a.ok || !b.ok) {
            printf("%-22s failed\n", files[i]);
            status = 1;
            continue;
        }
        printf("%-22s %12.4f %12.4f %8.3f %12.4f %12.4f\n", files[i], a.gpu_ms, b.gpu_ms,
               a.gpu_ms > 0 ? b.gpu_ms / a.gpu_ms : 0.0, a.wall_ms, b.wall_ms);
    }
    fxgl_test_egl_destroy(egl);
    return status;
}
