/*
 * overlay_cost.c - what the editing overlay's drawing costs per frame
 * (src/gl/ui.c, docs/overlay.md), and that it costs nothing while closed.
 *
 * On GL 4.5 core and GLES 3.2 (headless EGL), at a given size, the application's frame is an FBO and the runtime runs one
 * one-pass effect (an invert), under the inspection layer. Three layers over
 * the one runtime are timed, interleaved frame by frame:
 *   never    the layer, the overlay never opened (no list object at all)
 *   closed   the layer, the overlay opened once and closed (its font baked,
 *            its GL objects made, no list built since)
 *   open     the layer with a full panel built and drawn every frame: 45
 *            rows like the real panel's (a row background, a checkbox or a
 *            slider's two rectangles, about 48 characters of text), the
 *            CPU time of building the list included
 * CPU: wall time of building plus the layer's frame call ("build": building the list
 * alone, "draw cpu": the overlay's own draw calls, last frame); "to finish": the
 * same plus a glFinish (on llvmpipe the meaningful figure: its "GPU" is the
 * CPU); GPU: GL_TIME_ELAPSED around the call, medians. The first bake of
 * DejaVu Sans (the overlay's first opening; FXGL_FONT names another file) is timed
 * once.
 *
 * With --trace N the program runs N frames of each layer in turn (never,
 * closed, open) separated by glFinish, the modes by a glHint, for bench/overlay.sh to count the
 * calls apitrace records per frame (closed must equal never).
 *
 * Usage: overlay_cost [frames] [width height] | overlay_cost --trace N [width height]
 * (bench/overlay.sh passes 1920 1080 and 3840 2160; without arguments 10 frames at 640x360)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "fxgl_ui.h"
#include "tfx.h"

#define FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

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

// A panel like the overlay's at this size (src/interpose/overlay.c's proportions).
static void build_panel(fxgl_ui *ui, int w, int h) {
    float px = (float)h * 18.0f / 1080.0f;
    px = px < 12 ? 12 : px;
    fxgl_ui_begin(ui, w, h, px);
    float line = fxgl_ui_line_height(ui) + 4, pw = (float)w * 0.42f;
    if (pw < 30 * line) {
        pw = 30 * line;
    }
    fxgl_ui_rect(ui, 0, 0, pw, (float)h, 0x101418E0u);
    char text[96];
    for (int r = 0; r < 45 && (r + 1) * line < (float)h; r++) {
        float y = (float)r * line;
        if (r == 5 || r % 12 == 0) { // the cursor's row, category headers
            fxgl_ui_rect(ui, 0, y, pw, line, r == 5 ? 0x3A5A8CFFu : 0x26303CFFu);
        }
        fxgl_ui_rect(ui, 8, y + 3, line - 6, line - 6, 0x2A2F36FFu);
        fxgl_ui_rect(ui, pw * 0.48f, y + 1, pw * 0.5f * (float)(r % 7) / 7.0f, line - 2,
                     0x4A78C0FFu);
        snprintf(text, sizeof(text), "Technique number %02d  Effect%02d.fx  value %.3f", r, r % 9,
                 r * 0.125);
        fxgl_ui_text(ui, 8 + line, y, text, 0xE8E8E8FFu);
    }
    fxgl_ui_end(ui);
}

static int run(bool es, int frames, int w, int h, bool trace) {
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    fxgl_test_egl *egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    if (!egl) {
        printf("| %-8s | %s |\n", es ? "GLES" : "GL", reason);
        return 0;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    GLuint tex, fbo, q = 0;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    bool timer = !trace && info->has_timer_query &&
                 (es ? gl->GetQueryObjectui64vEXT != NULL : gl->GetQueryObjectui64v != NULL);
    if (timer) {
        gl->GenQueries(1, &q);
    }
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, NULL);
    fxgl_inspect *layer[3];
    for (int m = 0; m < 3; m++) {
        layer[m] = rt ? fxgl_inspect_create(rt, NULL) : NULL;
        if (!layer[m]) {
            printf("| %-8s | runtime or inspect not created |\n", es ? "GLES" : "GL");
            return 1;
        }
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

    // "closed": opened once (the bake, timed) and drawn once, then never again.
    const char *font = getenv("FXGL_FONT") ? getenv("FXGL_FONT") : FONT;
    fxgl_ui *closed = fxgl_inspect_ui(layer[1]);
    fxgl_ui_set_font(closed, font);
    double b0 = now_ms();
    build_panel(closed, w, h);
    double bake = now_ms() - b0;
    fxgl_frame_desc d0 = {.width = w, .height = h, .framebuffer = fbo};
    fxgl_inspect_frame(layer[1], &d0);
    fxgl_ui *open = fxgl_inspect_ui(layer[2]);
    fxgl_ui_set_font(open, font);
    build_panel(open, w, h);
    fxgl_inspect_frame(layer[2], &d0);
    gl->Finish();

    if (trace) {
        // Each layer's frames in a row, between glFinish calls (the script's markers).
        for (int m = 0; m < 3; m++) {
            for (int i = 0; i < frames; i++) {
                fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = fbo};
                if (m == 2) {
                    build_panel(open, w, h);
                }
                fxgl_inspect_frame(layer[m], &d);
                gl->Finish();
            }
            gl->Hint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_DONT_CARE); // the marker between the modes
        }
    }
    double *cpu[3], *gpu[3], *fin[3];
    for (int m = 0; m < 3; m++) {
        fin[m] = calloc((size_t)frames, sizeof(double));
        cpu[m] = calloc((size_t)frames, sizeof(double));
        gpu[m] = calloc((size_t)frames, sizeof(double));
    }
    double *build = calloc((size_t)frames, sizeof(double));
    double time = 0;
    int warm = 10;
    for (int i = 0; !trace && i < frames + warm; i++) {
        for (int m = 0; m < 3; m++) {
            fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = fbo, .time = time};
            time += 0.016;
            gl->Finish();
            if (timer) {
                gl->BeginQuery(GL_TIME_ELAPSED, q);
            }
            double t0 = now_ms();
            if (m == 2) {
                build_panel(open, w, h);
                if (i >= warm) {
                    build[i - warm] = now_ms() - t0;
                }
            }
            fxgl_inspect_frame(layer[m], &d);
            double t1 = now_ms();
            if (timer) {
                gl->EndQuery(GL_TIME_ELAPSED);
            }
            gl->Finish();
            double t2 = now_ms();
            GLuint64 ns = 0;
            if (timer) {
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
    if (!trace) {
        double c[3], g[3], e[3];
        for (int m = 0; m < 3; m++) {
            c[m] = median(cpu[m], frames);
            e[m] = median(fin[m], frames);
            g[m] = median(gpu[m], frames);
        }
        fxgl_ui_stats st;
        fxgl_ui_stats_get(open, &st);
        double b = median(build, frames);
        printf("| %-8s | %-30.30s | %4dx%-4d | %8.4f | %8.4f | %8.4f | %8.4f | %8.4f | %8.4f | "
               "%8.4f | %8.4f | %8.4f | %5u | %6.1f | %s |\n",
               es ? "GLES 3.2" : "GL 4.5", info->renderer, w, h, c[0], c[1], c[2],
               e[1] - e[0], e[2] - e[1], timer ? g[1] - g[0] : 0.0, timer ? g[2] - g[1] : 0.0,
               b, st.cpu_ms, st.quads, bake, fxgl_ui_truetype(open) ? "TrueType" : "built-in");
    }
    free(build);
    for (int m = 0; m < 3; m++) {
        free(fin[m]);
        free(cpu[m]);
        free(gpu[m]);
        fxgl_inspect_destroy(layer[m]);
    }
    fxgl_runtime_destroy(rt);
    if (timer) {
        gl->DeleteQueries(1, &q);
    }
    fxgl_test_egl_destroy(egl);
    return 0;
}

int main(int argc, char **argv) {
    bool trace = argc > 1 && strcmp(argv[1], "--trace") == 0;
    int a = trace ? 2 : 1;
    // Without arguments (make check): a short pass that keeps the benchmark working.
    int frames = argc > a ? atoi(argv[a]) : 10;
    int w = argc > a + 2 ? atoi(argv[a + 1]) : 640, h = argc > a + 2 ? atoi(argv[a + 2]) : 360;
    if (frames < 1 || w < 16 || h < 16) {
        fprintf(stderr, "usage: overlay_cost [frames] [width height] | overlay_cost --trace N "
                        "[width height]\n");
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
    if (trace) {
        return run(false, frames, w, h, true);
    }
    printf("overlay_cost: %d frames, medians in ms; cpu: building the list + the layer's "
           "frame; fin: the same to glFinish; gpu: GL_TIME_ELAPSED\n", frames);
    printf("| context  | renderer                       | size      | cpu nevr | cpu clsd | "
           "cpu open | fin clsd-nevr | fin open-clsd | gpu clsd-nevr | gpu open-clsd | "
           "build | draw cpu | quads | bake ms | face |\n");
    printf("|----------|--------------------------------|-----------|----------|----------|"
           "----------|----------|----------|----------|----------|----------|----------|"
           "-------|--------|------|\n");
    int rc = run(false, frames, w, h, false);
    rc |= run(true, frames, w, h, false);
    return rc;
}
