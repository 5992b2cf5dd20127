/*
 * state_cost.c - what saving the application's GL state costs per frame,
 * against the alternative DESIGN.md names: an isolated shared context.
 *
 * For GL 4.5 core, GL 4.5 compatibility and GLES 3.2 it times, over many
 * iterations, (a) gl_state_capture + gl_state_set_runtime_defaults +
 * gl_state_restore with the default descriptor (32 units, every target) and
 * with a narrow one (16 units, 2D and 3D targets, what the FX runtime binds),
 * counting the GL calls; and (b) an eglMakeCurrent round trip to a second
 * context that shares objects with the first and back, surfaceless and, where
 * the config allows, on one pbuffer surface (how an isolated context would
 * reach the application's default framebuffer). Each case is also timed with
 * pending work (a clear and a draw into an FBO) queued before it, because a
 * context switch flushes. Medians in microseconds are printed as a table.
 *
 * Usage: state_cost [iterations] [--glthread]. Without arguments (make check)
 * it runs a short pass so the benchmark itself stays working.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include "fxgl_test.h"
#include "gl_state.h"

typedef struct work {
    GLuint fbo;                  // a small FBO the "application" draws into
    GLuint tex;
    GLuint prog;
    GLuint vao;
} work;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static GLuint compile(GladGLContext *gl, bool es) {
    const char *header = es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
    const char *vs = "void main() { vec2 p = vec2(float(gl_VertexID & 1), "
                     "float(gl_VertexID >> 1)) * 4.0 - 1.0; gl_Position = vec4(p, 0.0, 1.0); }\n";
    const char *fs = "out vec4 o; void main() { o = vec4(0.5); }\n";
    GLuint prog = gl->CreateProgram();
    const char *bodies[2] = {vs, fs};
    GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = gl->CreateShader(stages[i]);
        const char *src[2] = {header, bodies[i]};
        gl->ShaderSource(s, 2, src, NULL);
        gl->CompileShader(s);
        gl->AttachShader(prog, s);
        gl->DeleteShader(s);
    }
    gl->LinkProgram(prog);
    return prog;
}

static void work_init(work *w, GladGLContext *gl, bool es) {
    gl->GenTextures(1, &w->tex);
    gl->BindTexture(GL_TEXTURE_2D, w->tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 64, 64);
    gl->GenFramebuffers(1, &w->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, w->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, w->tex, 0);
    gl->Viewport(0, 0, 64, 64);
    w->prog = compile(gl, es);
    gl->GenVertexArrays(1, &w->vao);
    gl->BindVertexArray(w->vao);
    gl->UseProgram(w->prog);
}

// The application's frame: some work queued that a context switch must flush.
static void work_queue(const work *w, GladGLContext *gl) {
    gl->BindFramebuffer(GL_FRAMEBUFFER, w->fbo);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
}

static void work_finish(work *w, GladGLContext *gl) {
    gl->DeleteFramebuffers(1, &w->fbo);
    gl->DeleteTextures(1, &w->tex);
    gl->DeleteProgram(w->prog);
    gl->DeleteVertexArrays(1, &w->vao);
}

typedef struct result {
    double plain_us;             // median, no pending work
    double pending_us;           // median, with work queued before (its cost subtracted)
    unsigned calls;              // GL calls per frame
    char split[24];              // capture+defaults+restore calls (state rows only)
    bool ok;
} result;

static double *samples;          // iterations entries, owned by main

// One frame of the state module. `changed`: as the runtime's frame does it
// (units captured on first use, gl_state_restore_changed) for a frame of one
// fragment pass - what the state cache marks for it: its FBO, viewport,
// program and VAO, a texture and sampler on unit 0, the UBO on binding 0.
// Otherwise capture everything and gl_state_restore.
static void state_frame(gl_state *st, bool changed) {
    gl_state_capture(st);
    gl_state_set_runtime_defaults(st);
    if (!changed) {
        gl_state_restore(st);
        return;
    }
    gl_state_capture_unit(st, 0);
    gl_state_touch(st, GL_STATE_FRAMEBUFFERS | GL_STATE_VIEWPORT | GL_STATE_PROGRAM |
                           GL_STATE_VAO | GL_STATE_BUFFERS);
    gl_state_touch_unit(st, GL_STATE_UNIT_TEXTURE, 0);
    gl_state_touch_unit(st, GL_STATE_UNIT_SAMPLER, 0);
    gl_state_touch_unit(st, GL_STATE_UNIT_UBO, 0);
    gl_state_restore_changed(st);
}

static result time_state(GladGLContext *gl, const fxgl_gl_info *info, const work *w,
                         const gl_state_desc *desc, bool changed, int iterations) {
    result r = {0};
    gl_state st;
    if (!gl_state_init(&st, gl, info, desc)) {
        return r;
    }
    // Warm up, then time capture + defaults + restore.
    for (int i = 0; i < 50; i++) {
        state_frame(&st, changed);
    }
    for (int i = 0; i < iterations; i++) {
        double t0 = now_us();
        state_frame(&st, changed);
        samples[i] = now_us() - t0;
    }
    r.plain_us = median(samples, iterations);
    for (int i = 0; i < iterations; i++) {
        work_queue(w, gl);
        double t0 = now_us();
        state_frame(&st, changed);
        samples[i] = now_us() - t0;
    }
    r.pending_us = median(samples, iterations);
    gl->Finish();
    r.calls = st.stats.capture_calls + st.stats.defaults_calls + st.stats.restore_calls;
    snprintf(r.split, sizeof(r.split), "%u+%u+%u", st.stats.capture_calls,
             st.stats.defaults_calls, st.stats.restore_calls);
    r.ok = true;
    gl_state_finish(&st);
    return r;
}

typedef struct switcher {
    EGLDisplay dpy;
    EGLContext app;              // borrowed: the harness's context
    EGLContext iso;              // owned: the isolated context sharing with app
    EGLSurface pbuffer;          // owned, or EGL_NO_SURFACE
} switcher;

static bool switcher_init(switcher *s, bool es, bool compat) {
    memset(s, 0, sizeof(*s));
    s->dpy = eglGetCurrentDisplay();
    s->app = eglGetCurrentContext();
    EGLint id = 0, n = 0, surface_type = 0;
    EGLConfig cfg;
    eglQueryContext(s->dpy, s->app, EGL_CONFIG_ID, &id);
    const EGLint attribs[] = {EGL_CONFIG_ID, id, EGL_NONE};
    if (!eglChooseConfig(s->dpy, attribs, &cfg, 1, &n) || n < 1) {
        return false;
    }
    // The isolated context asks for what the harness asked for.
    EGLint ctx_attribs[8];
    int k = 0;
    ctx_attribs[k++] = EGL_CONTEXT_MAJOR_VERSION;
    ctx_attribs[k++] = es ? 3 : 4;
    ctx_attribs[k++] = EGL_CONTEXT_MINOR_VERSION;
    ctx_attribs[k++] = es ? 2 : 5;
    if (!es) {
        ctx_attribs[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        ctx_attribs[k++] = compat ? EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
                                  : EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    }
    ctx_attribs[k++] = EGL_NONE;
    eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    s->iso = eglCreateContext(s->dpy, cfg, s->app, ctx_attribs);
    if (s->iso == EGL_NO_CONTEXT) {
        return false;
    }
    eglGetConfigAttrib(s->dpy, cfg, EGL_SURFACE_TYPE, &surface_type);
    if (surface_type & EGL_PBUFFER_BIT) {
        const EGLint pb[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
        s->pbuffer = eglCreatePbufferSurface(s->dpy, cfg, pb);
    }
    return true;
}

static void switcher_finish(switcher *s) {
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, s->app);
    if (s->pbuffer != EGL_NO_SURFACE) {
        eglDestroySurface(s->dpy, s->pbuffer);
    }
    if (s->iso != EGL_NO_CONTEXT) {
        eglDestroyContext(s->dpy, s->iso);
    }
}

// Round trip app -> isolated -> app on surface (EGL_NO_SURFACE or the pbuffer).
static result time_switch(switcher *s, EGLSurface surface, GladGLContext *gl, const work *w,
                          int iterations) {
    result r = {0};
    if (!eglMakeCurrent(s->dpy, surface, surface, s->app)) {
        return r;
    }
    for (int i = 0; i < 50; i++) {
        eglMakeCurrent(s->dpy, surface, surface, s->iso);
        eglMakeCurrent(s->dpy, surface, surface, s->app);
    }
    for (int i = 0; i < iterations; i++) {
        double t0 = now_us();
        eglMakeCurrent(s->dpy, surface, surface, s->iso);
        eglMakeCurrent(s->dpy, surface, surface, s->app);
        samples[i] = now_us() - t0;
    }
    r.plain_us = median(samples, iterations);
    for (int i = 0; i < iterations; i++) {
        work_queue(w, gl);
        double t0 = now_us();
        eglMakeCurrent(s->dpy, surface, surface, s->iso);
        eglMakeCurrent(s->dpy, surface, surface, s->app);
        samples[i] = now_us() - t0;
    }
    r.pending_us = median(samples, iterations);
    gl->Finish();
    r.calls = 2;
    snprintf(r.split, sizeof(r.split), "-");
    r.ok = true;
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, s->app);
    return r;
}

static void row(const char *api, const char *what, result r) {
    if (!r.ok) {
        printf("| %-22s | %-42s | %8s | %12s | %12s | %12s |\n", api, what, "-", "-", "n/a",
               "n/a");
        return;
    }
    printf("| %-22s | %-42s | %8u | %12s | %12.2f | %12.2f |\n", api, what, r.calls, r.split,
           r.plain_us, r.pending_us);
}

int main(int argc, char **argv) {
    int iterations = 300;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--glthread") == 0) {
            // Read by Mesa at context creation (driconf option mesa_glthread).
            setenv("mesa_glthread", "true", 1);
        } else {
            iterations = atoi(argv[i]);
        }
    }
    if (iterations < 10) {
        iterations = 10;
    }
    samples = calloc((size_t)iterations, sizeof(*samples));
    if (!samples) {
        return EXIT_FAILURE;
    }
    struct {
        const char *name;
        fxgl_test_egl_desc desc;
    } apis[] = {
        {"GL 4.5 core", {.api = FXGL_API_GL}},
        {"GL 4.5 compatibility", {.api = FXGL_API_GL, .compatibility = true}},
        {"GLES 3.2", {.api = FXGL_API_GLES}},
    };
    bool any = false;
    printf("state_cost: %d iterations, medians in microseconds%s\n", iterations,
           getenv("mesa_glthread") ? " (mesa_glthread=true)" : "");
    printf("| %-22s | %-42s | %8s | %12s | %12s | %12s |\n", "context", "per frame", "GL calls",
           "c+d+r", "idle (us)", "pending (us)");
    printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------",
           "--------------------------------------------", "----------", "--------------",
           "--------------", "--------------");
    for (size_t a = 0; a < sizeof(apis) / sizeof(apis[0]); a++) {
        char reason[256];
        fxgl_test_egl *egl = fxgl_test_egl_create(&apis[a].desc, reason, sizeof(reason));
        if (!egl) {
            printf("| %-22s | %s |\n", apis[a].name, reason);
            continue;
        }
        any = true;
        GladGLContext *gl = fxgl_test_egl_gl(egl);
        const fxgl_gl_info *info = fxgl_test_egl_info(egl);
        bool es = info->api == FXGL_API_GLES;
        work w;
        work_init(&w, gl, es);
        gl_state_desc narrow = {
            .texture_units = 16,
            .texture_targets = GL_STATE_TEX_2D | GL_STATE_TEX_3D,
            .uniform_buffers = 4,
        };
        // What the runtime's frame uses (src/gl/runtime.c), units captured on use.
        gl_state_desc runtime = {
            .texture_units = 16,
            .texture_targets = GL_STATE_TEX_2D | GL_STATE_TEX_3D | (es ? 0 : GL_STATE_TEX_1D),
            .uniform_buffers = 1,
            .image_units = 8,
            .draw_buffers = 8,
            .lazy_units = true,
        };
        row(apis[a].name, "capture+defaults+restore, default desc",
            time_state(gl, info, &w, NULL, false, iterations));
        row(apis[a].name, "capture+defaults+restore, 16 units 2D+3D",
            time_state(gl, info, &w, &narrow, false, iterations));
        row(apis[a].name, "runtime desc, all restored",
            time_state(gl, info, &w, &runtime, false, iterations));
        row(apis[a].name, "runtime desc, one pass's changes restored",
            time_state(gl, info, &w, &runtime, true, iterations));
        switcher s;
        if (switcher_init(&s, es, apis[a].desc.compatibility)) {
            row(apis[a].name, "eglMakeCurrent round trip, surfaceless",
                time_switch(&s, EGL_NO_SURFACE, gl, &w, iterations));
            if (s.pbuffer != EGL_NO_SURFACE) {
                row(apis[a].name, "eglMakeCurrent round trip, same pbuffer",
                    time_switch(&s, s.pbuffer, gl, &w, iterations));
            } else {
                row(apis[a].name, "eglMakeCurrent round trip, same pbuffer", (result){0});
            }
            switcher_finish(&s);
        } else {
            row(apis[a].name, "eglMakeCurrent round trip (no shared context)", (result){0});
        }
        work_finish(&w, gl);
        fxgl_test_egl_destroy(egl);
    }
    free(samples);
    if (!any) {
        printf("SKIP: no headless EGL context\n");
        return FXGL_TEST_SKIP;
    }
    return EXIT_SUCCESS;
}
