/*
 * passes.c - the runtime's per-pass cost, for docs/runtime.md:
 * a 10-pass chain of trivial fullscreen passes at 1280x720 (pass 0 reads
 * COLOR, pass i reads pass i-1's target, the last writes the back buffer).
 *
 * It reports, in the steady state (frames after loading):
 *   - GL calls per pass (the runtime counts every call it issues), split
 *     into binds, the draw, and the optional debug groups and timer query;
 *   - heap allocations per frame made by fxgl's code: malloc/calloc/realloc
 *     are wrapped here and a call counts as ours when its return address
 *     lies in this executable (the runtime is linked in statically; Mesa is
 *     a shared library), so the driver's own allocations are reported apart;
 *   - CPU time per frame of fxgl_runtime_frame, and the wall time of a frame
 *     with glFinish, against a hand-written minimal GL loop that does the
 *     same copy in, the same 10 passes and the same copy out with no state
 *     capture, no cache and no bookkeeping (frames interleaved, medians).
 *
 * `bench/passes [frames] [gl|gles]`; `make check` runs it with a few frames
 * and fails when a bar is missed (allocations > 0; more than 8 calls per
 * one-input pass on GL 4.5 with markers and timers off).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "tfx.h"

#define BW 1280
#define BH 720
#define PASSES 10

// --- allocation counting ---

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define COUNT_ALLOCATIONS 1
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern char __executable_start;
extern char etext;

static int counting;
static unsigned long allocs_ours, allocs_all;

static void note(void *ret) {
    if (__atomic_load_n(&counting, __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&allocs_all, 1, __ATOMIC_RELAXED);
        if ((char *)ret >= &__executable_start && (char *)ret < &etext) {
            __atomic_fetch_add(&allocs_ours, 1, __ATOMIC_RELAXED);
        }
    }
}

void *malloc(size_t size) {
    note(__builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    note(__builtin_return_address(0));
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    note(__builtin_return_address(0));
    return __libc_realloc(p, size);
}
#endif

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// --- the effect ---

static tfx chain;

static void build(bool es) {
    tfx *t = &chain;
    tfx_init(t, "Passes.fx", es);
    int color = tfx_semantic(t, "ReShade::BackBufferTex", "COLOR");
    int tex[2], smp[3];
    tex[0] = tfx_texture(t, "Passes::A", BW, BH, 1, FXGL_FORMAT_RGBA8);
    tex[1] = tfx_texture(t, "Passes::B", BW, BH, 1, FXGL_FORMAT_RGBA8);
    smp[0] = tfx_sampler(t, "Passes::Color", color, false, false);
    smp[1] = tfx_sampler(t, "Passes::SA", tex[0], false, false);
    smp[2] = tfx_sampler(t, "Passes::SB", tex[1], false, false);
    int tech = tfx_technique(t, "Passes");
    for (int i = 0; i < PASSES; i++) {
        int s = tfx_shader(t, FXGL_STAGE_PIXEL, "Copy",
                           "uniform sampler2D S;\nin vec2 uv;\nlayout(location = 0) out vec4 o;\n"
                           "void main() { o = texture(S, uv); }\n");
        // pass 0 reads COLOR; pass i reads the target pass i-1 wrote
        tfx_use_sampler(t, s, i == 0 ? smp[0] : smp[1 + (i - 1) % 2], "S");
        fxgl_pass *p = tfx_pass(t, tech, s);
        if (i + 1 < PASSES) {
            tfx_target(t, p, tex[i % 2]);
        }
    }
    tfx_finish(t);
}

// --- the hand-written loop ---

typedef struct minimal {
    GLuint prog, vao, sampler;
    GLuint bb, bb_fbo, tex[2], fbo[2];
} minimal;

static GLuint compile(GladGLContext *gl, GLenum stage, const char *src) {
    GLuint s = gl->CreateShader(stage);
    gl->ShaderSource(s, 1, &src, NULL);
    gl->CompileShader(s);
    return s;
}

static void minimal_init(GladGLContext *gl, minimal *m, bool es) {
    GLuint vs = compile(gl, GL_VERTEX_SHADER, chain.glsl[chain.vs]);
    char fs_src[512];
    snprintf(fs_src, sizeof(fs_src), "%s%s", es ? "#version 320 es\nprecision highp float;\n"
                                                : "#version 450\n",
             "uniform sampler2D S;\nin vec2 uv;\nlayout(location = 0) out vec4 o;\n"
             "void main() { o = texture(S, uv); }\n");
    GLuint fs = compile(gl, GL_FRAGMENT_SHADER, fs_src);
    m->prog = gl->CreateProgram();
    gl->AttachShader(m->prog, vs);
    gl->AttachShader(m->prog, fs);
    gl->LinkProgram(m->prog);
    gl->GenVertexArrays(1, &m->vao);
    gl->GenSamplers(1, &m->sampler);
    gl->SamplerParameteri(m->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->SamplerParameteri(m->sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint all[3];
    gl->GenTextures(3, all);
    GLuint fbos[3];
    gl->GenFramebuffers(3, fbos);
    for (int i = 0; i < 3; i++) {
        gl->BindTexture(GL_TEXTURE_2D, all[i]);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, BW, BH);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbos[i]);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, all[i], 0);
    }
    m->bb = all[0];
    m->bb_fbo = fbos[0];
    m->tex[0] = all[1];
    m->tex[1] = all[2];
    m->fbo[0] = fbos[1];
    m->fbo[1] = fbos[2];
}

// One frame: flipped copy in, pass 0 reads the copy (COLOR), passes ping-pong,
// the last draws into the copy, flipped copy out.
static void minimal_frame(GladGLContext *gl, const minimal *m, GLuint app_fbo) {
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, app_fbo);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, m->bb_fbo);
    gl->BlitFramebuffer(0, 0, BW, BH, 0, BH, BW, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    gl->UseProgram(m->prog);
    gl->BindVertexArray(m->vao);
    gl->BindSampler(0, m->sampler);
    gl->Viewport(0, 0, BW, BH);
    for (int i = 0; i < PASSES; i++) {
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, i + 1 < PASSES ? m->fbo[i % 2] : m->bb_fbo);
        gl->BindTexture(GL_TEXTURE_2D, i == 0 ? m->bb : m->tex[(i - 1) % 2]);
        gl->DrawArrays(GL_TRIANGLES, 0, 3);
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, m->bb_fbo);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, app_fbo);
    gl->BlitFramebuffer(0, 0, BW, BH, 0, BH, BW, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

// --- runs ---

typedef struct result {
    double calls_per_pass;
    double frame_cpu_ms;         // fxgl_runtime_frame alone
    double frame_wall_ms;        // with glFinish
    unsigned long allocs_ours, allocs_all; // per frame
    fxgl_runtime_stats stats;
} result;

static void run_runtime(GladGLContext *gl, const fxgl_gl_info *info, GLuint app_fbo,
                        bool markers, int frames, result *r) {
    fxgl_runtime_desc desc = {.no_debug_groups = !markers, .no_timer_queries = !markers};
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &desc);
    if (!rt || fxgl_runtime_add_effect(rt, &chain.fx, NULL) != 0) {
        fprintf(stderr, "passes: runtime creation failed\n");
        exit(1);
    }
    fxgl_frame_desc fd = {.width = BW, .height = BH, .framebuffer = app_fbo};
    for (int i = 0; i < 3; i++) { // loading, then warm-up
        fd.time = i / 60.0;
        fxgl_runtime_frame(rt, &fd);
    }
    gl->Finish();
    const char *reason = NULL;
    if (fxgl_runtime_effect_status(rt, 0, &reason) != FXGL_STATUS_READY) {
        fprintf(stderr, "passes: effect failed: %s\n", reason);
        exit(1);
    }
    double cpu = 0, t0 = now();
#ifdef COUNT_ALLOCATIONS
    allocs_ours = allocs_all = 0;
#endif
    for (int i = 0; i < frames; i++) {
        fd.time = (3 + i) / 60.0;
        double c0 = now();
#ifdef COUNT_ALLOCATIONS
        __atomic_store_n(&counting, 1, __ATOMIC_RELAXED);
#endif
        fxgl_runtime_frame(rt, &fd);
#ifdef COUNT_ALLOCATIONS
        __atomic_store_n(&counting, 0, __ATOMIC_RELAXED);
#endif
        cpu += now() - c0;
        gl->Finish();
    }
    double wall = now() - t0;
    r->stats = *fxgl_runtime_stats_get(rt);
    r->calls_per_pass = (double)r->stats.pass_calls / r->stats.passes_run;
    r->frame_cpu_ms = cpu * 1000.0 / frames;
    r->frame_wall_ms = wall * 1000.0 / frames;
#ifdef COUNT_ALLOCATIONS
    r->allocs_ours = allocs_ours / (unsigned long)frames;
    r->allocs_all = allocs_all / (unsigned long)frames;
#endif
    fxgl_runtime_destroy(rt);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Runtime frames and hand-written frames interleaved one by one, each
// finished with glFinish, so that both see the same machine load (the CI
// machines are shared); the medians are compared.
static void interleaved(GladGLContext *gl, const fxgl_gl_info *info, GLuint app_fbo, bool es,
                        int frames, double *runtime_ms, double *minimal_ms) {
    minimal m;
    minimal_init(gl, &m, es);
    fxgl_runtime_desc desc = {.no_debug_groups = true, .no_timer_queries = true};
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &desc);
    fxgl_runtime_add_effect(rt, &chain.fx, NULL);
    fxgl_frame_desc fd = {.width = BW, .height = BH, .framebuffer = app_fbo};
    for (int i = 0; i < 3; i++) {
        fxgl_runtime_frame(rt, &fd);
        minimal_frame(gl, &m, app_fbo);
    }
    gl->Finish();
    double *a = calloc((size_t)frames, sizeof(double));
    double *b = calloc((size_t)frames, sizeof(double));
    if (!a || !b) {
        exit(1);
    }
    for (int i = 0; i < frames; i++) {
        double t0 = now();
        fxgl_runtime_frame(rt, &fd);
        gl->Finish();
        double t1 = now();
        minimal_frame(gl, &m, app_fbo);
        gl->Finish();
        a[i] = (t1 - t0) * 1000.0;
        b[i] = (now() - t1) * 1000.0;
    }
    qsort(a, (size_t)frames, sizeof(double), cmp_double);
    qsort(b, (size_t)frames, sizeof(double), cmp_double);
    *runtime_ms = a[frames / 2];
    *minimal_ms = b[frames / 2];
    free(a);
    free(b);
    fxgl_runtime_destroy(rt);
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 5;
    bool es = argc > 2 && strcmp(argv[2], "gles") == 0;
    frames = frames < 1 ? 1 : frames;
    char reason[256];
    fxgl_test_egl *egl = fxgl_test_egl_create(
        &(fxgl_test_egl_desc){.api = es ? FXGL_API_GLES : FXGL_API_GL}, reason, sizeof(reason));
    if (!egl) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    build(es);
    GLuint color, fbo;
    gl->GenTextures(1, &color);
    gl->BindTexture(GL_TEXTURE_2D, color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, BW, BH);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    gl->ClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);

    result bare, full;
    run_runtime(gl, info, fbo, false, frames, &bare);
    run_runtime(gl, info, fbo, true, frames, &full);
    double runtime_ms = 0, minimal_ms = 0;
    interleaved(gl, info, fbo, es, frames, &runtime_ms, &minimal_ms);
    const fxgl_runtime_stats *s = &bare.stats;
    printf("passes: %s, %s; %d passes at %dx%d, %d steady frames\n", info->renderer,
           info->version, PASSES, BW, BH, frames);
    printf("passes: GL calls per pass: %.1f (binds: %u framebuffer, %u texture, %u sampler, "
           "%u program per frame; %u draws)\n",
           bare.calls_per_pass, s->framebuffer_binds, s->texture_binds, s->sampler_binds,
           s->program_binds, s->draw_calls);
    printf("passes: GL calls per pass with debug groups and timer queries: %.1f\n",
           full.calls_per_pass);
    printf("passes: GL calls per frame: %u (state capture/defaults/restore %u, passes %u, "
           "copies and uniforms %u)\n",
           s->gl_calls, s->state_calls, s->pass_calls,
           s->gl_calls - s->state_calls - s->pass_calls);
#ifdef COUNT_ALLOCATIONS
    printf("passes: heap allocations per frame: fxgl %lu, whole process (driver included) %lu; "
           "with markers/timers: fxgl %lu\n",
           bare.allocs_ours, bare.allocs_all, full.allocs_ours);
#else
    printf("passes: heap allocations: not counted under a sanitizer\n");
#endif
    printf("passes: CPU time of fxgl_runtime_frame: %.3f ms (markers/timers on: %.3f ms)\n",
           bare.frame_cpu_ms, full.frame_cpu_ms);
    printf("passes: frame with glFinish (median of %d, interleaved): runtime %.3f ms (%.3f ms/pass), "
           "minimal loop %.3f ms (%.3f ms/pass), ratio %.3f\n",
           frames, runtime_ms, runtime_ms / PASSES, minimal_ms, minimal_ms / PASSES,
           runtime_ms / minimal_ms);
    int failed = 0;
#ifdef COUNT_ALLOCATIONS
    if (bare.allocs_ours || full.allocs_ours) {
        printf("passes: FAIL: the runtime allocates in the steady state\n");
        failed = 1;
    }
#endif
    if (!es && info->major == 4 && info->minor >= 5 && bare.calls_per_pass > 8.0) {
        printf("passes: FAIL: more than 8 GL calls per one-input pass on GL 4.5\n");
        failed = 1;
    }
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &color);
    fxgl_test_egl_destroy(egl);
    return failed;
}
