/*
 * variant_cost.c - what specialised programs (src/gl/variant.c) cost and save, per effect.
 *
 *   bench/variant_cost [--frames N] [--size WxH] [--no-warm-up] DIR EFFECT.fx...
 *
 * Each effect is compiled through src/effects and runs in a runtime whose compile thread
 * has a second context of the share group. Every frame is timed as the frame thread's own
 * CPU time (fxgl_runtime_frame + glFinish): a driver compile at first draw lands there,
 * llvmpipe's rasteriser threads and other programs on the machine do not.
 * Phases: the first frames run the editable programs until the specialised set comes in;
 * N frames specialised; then a value changes (the editable programs at once) and N frames
 * run while it keeps changing; then it settles and the specialised set comes back.
 * Printed per effect: the median frame of each phase, the frames that switched (the one
 * that first ran a new program set: a driver that compiles at first draw stalls here),
 * the frame thread's worst frame after the load frame (max_ms), the worker's time in all
 * and of it the warm-up draws (warm_ms, warms: draws made), the frame thread's
 * compile/link calls after load (0), and the technique's GPU time (timer queries; on
 * llvmpipe the rasterisation) per phase: specialised, editable while changing,
 * specialised again. --no-warm-up: the worker hands new programs over undrawn (the
 * behaviour before the warm-up draws), for a before/after comparison.
 * Without arguments (as `make check` runs it) a short pass over one built-in effect.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_effects.h"
#include "fxgl_gl.h"
#include "fxgl_test.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

// The frame thread's own CPU time: llvmpipe rasterises on threads of its own, but a
// compile at first draw runs on the thread that draws, and the other programs sharing
// the machine do not count.
static double thread_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    if (n <= 0) {
        return 0.0;
    }
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return v[n / 2];
}

static bool worker_current(void *user) {
    return fxgl_test_egl_make_current(user);
}

static void worker_release(void *user) {
    fxgl_test_egl_release(user);
}

// The first user float of the effect (the value the bench changes), or NULL.
static const fxgl_uniform *user_float(const fxgl_effect *e) {
    for (size_t i = 0; i < e->uniform_count; i++) {
        const fxgl_uniform *u = &e->uniforms[i];
        if (u->special == FXGL_SPECIAL_NONE && !u->array_length && u->cols == 1 &&
            u->rows == 1 && u->scalar == FXGL_SCALAR_FLOAT) {
            return u;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int frames = 20, w = 1280, h = 720;
    bool no_warm_up = false;
    const char *dir = NULL;
    const char *files[64];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-warm-up")) {
            no_warm_up = true;
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            sscanf(argv[++i], "%dx%d", &w, &h);
        } else if (!dir) {
            dir = argv[i];
        } else if (nfiles < 64) {
            files[nfiles++] = argv[i];
        }
    }
    if (!dir) {
        dir = FXGL_SHADER_DIR;
        files[nfiles++] = "fxgl_Vibrance.fx";
        frames = 5;
        w = 256;
        h = 144;
    }
    char reason[256];
    fxgl_test_egl *egl = fxgl_test_egl_create(&(fxgl_test_egl_desc){0}, reason, sizeof(reason));
    if (!egl) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    fxgl_test_egl *wctx = fxgl_test_egl_create_shared(egl, reason, sizeof(reason));
    if (!wctx) {
        printf("SKIP: %s\n", reason);
        fxgl_test_egl_destroy(egl);
        return FXGL_TEST_SKIP;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    GLuint tex = 0, fbo = 0;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    unsigned char *px = malloc((size_t)w * (size_t)h * 4);
    for (int y = 0; px && y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned char *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
            p[0] = (unsigned char)(x * 255 / w);
            p[1] = (unsigned char)(y * 255 / h);
            p[2] = (unsigned char)((x ^ y) & 255);
            p[3] = 255;
        }
    }
    const char *paths[1] = {dir};
    fxgl_compiler *fx = fxgl_compiler_create(&(fxgl_compiler_desc){
        .env = {.width = w, .height = h, .api_major = info->major, .api_minor = info->minor},
        .target = FXGL_GLSL_GL450,
        .include_paths = paths,
        .include_path_count = 1,
    });
    double *t = calloc((size_t)frames * 4 + 4096, sizeof(double));
    printf("%-18s %9s %9s %9s %9s | %8s %8s %8s %8s | %9s %7s %5s %6s | %9s %9s %9s\n",
           "effect", "edit_ms", "spec_ms", "chg_ms", "spec2_ms", "sw_spec", "sw_edit",
           "sw_spec2", "max_ms", "worker_ms", "warm_ms", "warms", "fcomp", "gpu_spec",
           "gpu_edit", "gpu_spec2");
    int status = 0;
    for (int f = 0; f < nfiles && fx && px && t; f++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *e = fxgl_compiler_compile(fx, path, &diags);
        if (!e) {
            fxgl_diags_print(&diags, stderr);
        }
        fxgl_diags_finish(&diags);
        const fxgl_uniform *u = e ? user_float(e) : NULL;
        if (!u) {
            printf("%-18s no user float\n", files[f]);
            fxgl_effect_destroy(e);
            continue;
        }
        fxgl_runtime_desc rd = {
            .worker = {.gl = fxgl_test_egl_gl(wctx), .make_current = worker_current,
                       .release = worker_release, .user = wctx},
            .no_warm_up = no_warm_up,
        };
        fxgl_runtime *rt = fxgl_runtime_create(gl, info, &rd);
        fxgl_runtime_add_effect(rt, e, files[f]);
        double clock = 0.0;
        uint64_t load_compiles = 0;
        // phase: 0 editable at load, 1 specialised, 2 changing, 3 settling, 4 specialised
        int phase = 0, in_phase = 0, n = 0;
        double ph[5][4096], gpu[5][4096];
        int phn[5] = {0}, gpn[5] = {0};
        double sw[3] = {0};
        double start = now_ms();
        fxgl_value v = u->initializer;
        v.scalar = FXGL_SCALAR_FLOAT;
        v.count = 1;
        uint64_t last_spec = 0, last_uni = 0;
        double worst = 0.0; // the frame thread's worst frame after the load frame
        while (phase < 5 && n < frames * 4 + 4000 && now_ms() - start < 300000) {
            if (phase == 2) {
                // Two values that differ whatever the default (0 included).
                v.f[0] = u->initializer.f[0] + (in_phase % 2 ? 0.01f : 0.02f);
                fxgl_runtime_set_uniform(rt, 0, u->name, &v);
            }
            gl->BindTexture(GL_TEXTURE_2D, tex);
            gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
            double t0 = thread_ms();
            fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = fbo, .time = clock};
            fxgl_runtime_frame(rt, &d);
            gl->Finish();
            double ms = thread_ms() - t0;
            clock += 0.1;
            n++;
            fxgl_variant_stats st;
            fxgl_runtime_variant_stats(rt, &st);
            if (n == 1) {
                load_compiles = st.frame_compiles;
                continue; // the load frame
            }
            worst = ms > worst ? ms : worst;
            bool swapped_spec = st.specialised != last_spec;
            bool swapped_uni = st.to_uniform != last_uni;
            last_spec = st.specialised;
            last_uni = st.to_uniform;
            if (phase == 0 && swapped_spec) {
                sw[0] = ms;
                phase = 1;
                in_phase = 0;
                continue;
            }
            if (phase == 2 && swapped_uni && in_phase == 0) {
                sw[1] = ms;
                in_phase++;
                continue;
            }
            if (phase == 3 && swapped_spec) {
                sw[2] = ms;
                phase = 4;
                in_phase = 0;
                continue;
            }
            if (phn[phase] < 4096) {
                ph[phase][phn[phase]++] = ms;
            }
            // Timer results come a few frames late: the first 8 of a phase are skipped.
            double g = fxgl_runtime_last_gpu_ms(rt, 0, FXGL_WHOLE_TECHNIQUE);
            if (g >= 0.0 && in_phase >= 8 && gpn[phase] < 4096) {
                gpu[phase][gpn[phase]++] = g;
            }
            in_phase++;
            if ((phase == 1 || phase == 2 || phase == 4) && in_phase >= frames) {
                phase++;
                in_phase = 0;
            }
        }
        fxgl_variant_stats st;
        fxgl_runtime_variant_stats(rt, &st);
        printf("%-18s %9.2f %9.2f %9.2f %9.2f | %8.2f %8.2f %8.2f %8.2f | %9.1f %7.1f %5llu "
               "%6llu | %9.3f %9.3f %9.3f%s\n", files[f], median(ph[0], phn[0]),
               median(ph[1], phn[1]), median(ph[2], phn[2]), median(ph[4], phn[4]), sw[0], sw[1],
               sw[2], worst, st.worker_ms, st.worker_warm_ms,
               (unsigned long long)st.warm_draws,
               (unsigned long long)(st.frame_compiles - load_compiles), median(gpu[1], gpn[1]),
               median(gpu[2], gpn[2]), median(gpu[4], gpn[4]),
               phase < 5 ? " (incomplete)" : "");
        status |= phase < 5 || st.frame_compiles != load_compiles;
        fxgl_runtime_destroy(rt);
        fxgl_effect_destroy(e);
    }
    fxgl_compiler_destroy(fx);
    free(t);
    free(px);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    fxgl_test_egl_destroy(wctx);
    fxgl_test_egl_destroy(egl);
    return status;
}
