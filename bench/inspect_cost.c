/*
 * inspect_cost.c - what the statistics overlay costs per frame,
 * and what the inspection layer costs with nothing on.
 *
 * On GL 4.5 core and GLES 3.2 (headless EGL), at a given size (default
 * 1280x720), the application's frame is an FBO and the runtime runs one
 * one-pass effect (an invert). Three ways to run a frame are timed,
 * interleaved frame by frame so drift hits all alike:
 *   runtime   fxgl_runtime_frame alone
 *   inspect   fxgl_inspect_frame, overlay off (the layer's idle cost)
 *   overlay   fxgl_inspect_frame, overlay on
 * CPU: wall time of the call (the GL work is queued, not waited for),
 * median over the frames. GPU: GL_TIME_ELAPSED around the call, read after
 * a glFinish outside the timed region, median. The overlay's cost is the
 * difference overlay - inspect. A third figure is the wall time from the
 * call to a glFinish after it (the call plus the work it queued): on
 * llvmpipe, whose "GPU" is the CPU and whose TIME_ELAPSED misses work it
 * defers to the flush, that is the meaningful one. The layer's own 60-frame
 * averages (fxgl_inspect_stats) are printed too.
 *
 * Usage: inspect_cost [frames] [width height]. Without arguments (make
 * check) a short pass keeps the benchmark working.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "tfx.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return n ? v[n / 2] : 0.0;
}

static tfx inv;

static int run(bool es, int frames, int w, int h) {
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    fxgl_test_egl *egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    if (!egl) {
        printf("| %-8s | %s |\n", es ? "GLES" : "GL", reason);
        return 0;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    GLuint tex, fbo, q;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    bool timer = info->has_timer_query &&
                 (es ? gl->GetQueryObjectui64vEXT != NULL : gl->GetQueryObjectui64v != NULL);
    if (timer) {
        gl->GenQueries(1, &q);
    }
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, NULL);
    // Two layers over one runtime (they only read it): overlay off and on,
    // so neither is switched per frame (switching on rebuilds the text).
    fxgl_inspect *in = rt ? fxgl_inspect_create(rt, NULL) : NULL;
    fxgl_inspect *ov = rt ? fxgl_inspect_create(rt, &(fxgl_inspect_desc){.overlay = true}) : NULL;
    if (!in || !ov) {
        printf("| %-8s | runtime or inspect not created |\n", es ? "GLES" : "GL");
        return 1;
    }
    tfx_init(&inv, "Inv.fx", es);
    int t = tfx_semantic(&inv, "ReShade::BackBufferTex", "COLOR");
    int s = tfx_sampler(&inv, "ReShade::BackBuffer", t, false, false);
    int ps = tfx_shader(&inv, FXGL_STAGE_PIXEL, "PS",
                        "uniform sampler2D Color;\nin vec2 uv;\n"
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = vec4(1.0 - texture(Color, uv).rgb, 1.0); }\n");
    tfx_use_sampler(&inv, ps, s, "Color");
    tfx_pass(&inv, tfx_technique(&inv, "Invert"), ps);
    fxgl_runtime_add_effect(rt, tfx_finish(&inv), NULL);

    double *cpu[3], *gpu[3], *fin[3];
    for (int m = 0; m < 3; m++) {
        fin[m] = calloc((size_t)frames, sizeof(double));
        cpu[m] = calloc((size_t)frames, sizeof(double));
        gpu[m] = calloc((size_t)frames, sizeof(double));
    }
    double time = 0;
    int warm = 10;
    for (int i = 0; i < frames + warm; i++) {
        for (int m = 0; m < 3; m++) {
            fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = fbo, .time = time};
            time += 0.016;
            gl->Finish();
            if (timer) {
                gl->BeginQuery(GL_TIME_ELAPSED, q);
            }
            double t0 = now_ms();
            if (m == 0) {
                fxgl_runtime_frame(rt, &d);
            } else {
                fxgl_inspect_frame(m == 1 ? in : ov, &d);
            }
            double t1 = now_ms();
            if (timer) {
                gl->EndQuery(GL_TIME_ELAPSED);
            }
            gl->Finish();
            double t2 = now_ms();
            GLuint64 ns = 0;
            if (timer) {
                // ES: EXT_disjoint_timer_query's entry point.
                (es ? gl->GetQueryObjectui64vEXT : gl->GetQueryObjectui64v)(q, GL_QUERY_RESULT,
                                                                            &ns);
            }
            if (i >= warm) {
                cpu[m][i - warm] = t1 - t0;
                fin[m][i - warm] = t2 - t0;
                gpu[m][i - warm] = (double)ns * 1e-6;
            }
        }
    }
    double c[3], g[3], e[3];
    for (int m = 0; m < 3; m++) {
        c[m] = median(cpu[m], frames);
        e[m] = median(fin[m], frames);
        free(fin[m]);
        g[m] = median(gpu[m], frames);
        free(cpu[m]);
        free(gpu[m]);
    }
    fxgl_inspect_stats idle, on;
    fxgl_inspect_stats_get(in, &idle);
    fxgl_inspect_stats_get(ov, &on);
    char gs[3][16];
    for (int m = 0; m < 3; m++) {
        snprintf(gs[m], sizeof(gs[m]), timer ? "%.4f" : "n/a", g[m]);
    }
    printf("| %-8s | %-34.34s | %4dx%-4d | %8.4f | %8.4f | %8.4f | %8.4f | %8s | %8s | %8s | "
           "%8.4f | %8.4f |\n", es ? "GLES 3.2" : "GL 4.5", info->renderer, w, h, c[0], c[1],
           c[2], c[2] - c[1], gs[0], gs[1], gs[2], timer ? g[1] - g[0] : 0.0,
           timer ? g[2] - g[1] : 0.0);
    printf("| %-8s | to glFinish (call + the work it queued): runtime %.4f ms, inspect idle %.4f ms, "
           "overlay on %.4f ms: overlay %.4f ms |\n", es ? "GLES 3.2" : "GL 4.5", e[0], e[1], e[2],
           e[2] - e[1]);
    printf("| %-8s | layer's own timers, last 60 frames: idle layer cpu %.4f ms; overlay on: "
           "layer cpu %.4f ms, overlay draw cpu %.4f ms, overlay draw gpu %.4f ms |\n",
           es ? "GLES 3.2" : "GL 4.5", idle.layer_cpu_ms, on.layer_cpu_ms, on.overlay_cpu_ms,
           on.overlay_gpu_ms);
    fxgl_inspect_destroy(in);
    fxgl_inspect_destroy(ov);
    fxgl_runtime_destroy(rt);
    if (timer) {
        gl->DeleteQueries(1, &q);
    }
    fxgl_test_egl_destroy(egl);
    return 0;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 20;
    int w = argc > 3 ? atoi(argv[2]) : 1280, h = argc > 3 ? atoi(argv[3]) : 720;
    if (frames < 1 || w < 16 || h < 16) {
        fprintf(stderr, "usage: inspect_cost [frames] [width height]\n");
        return 2;
    }
    char reason[256];
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                                reason, sizeof(reason));
    if (!probe) {
        printf("SKIP: no headless EGL context: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    fxgl_test_egl_destroy(probe);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("inspect_cost: %d frames, medians in ms (CPU: the call's wall time; GPU: "
           "GL_TIME_ELAPSED)\n", frames);
    printf("| context  | renderer                           | size      | cpu rt   | cpu insp | "
           "cpu ovl  | ovl cpu  | gpu rt   | gpu insp | gpu ovl  | insp gpu | ovl gpu  |\n");
    printf("|----------|------------------------------------|-----------|----------|----------|"
           "----------|----------|----------|----------|----------|----------|----------|\n");
    int rc = run(false, frames, w, h);
    rc |= run(true, frames, w, h);
    return rc;
}
