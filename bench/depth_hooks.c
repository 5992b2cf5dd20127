/*
 * depth_hooks.c - what the FBO depth provider's hooks add to each of the
 * program's calls, without a GPU in the figure: the library's sources built
 * in (no hook names exported), FXGL_DEPTH=fbo, and stand-in "real" functions
 * that do nothing. Times glDrawElements called directly, through the hook
 * while no effect binds DEPTH (one relaxed load), and through it while
 * counting (a framebuffer with a depth texture bound through the hooked
 * glBindFramebuffer/glFramebufferTexture2D, so every draw is counted for it);
 * and glBindFramebuffer, whose hook looks the framebuffer up. Prints
 * nanoseconds per call (best of 5 rounds); `make check` runs it small and
 * requires only that the hooks were handed out.
 *
 *   bench/depth_hooks [CALLS]     (default 5000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_interpose.h"

static volatile unsigned sink;

__attribute__((noinline)) static void fake_draw(GLenum m, GLsizei c, GLenum t, const void *i) {
    (void)t;
    (void)i;
    sink += m + (unsigned)c;
}
__attribute__((noinline)) static void fake_bind(GLenum t, GLuint f) {
    sink += t + f;
}
__attribute__((noinline)) static void fake_attach(GLenum t, GLenum a, GLenum tt, GLuint tex,
                                                  GLint l) {
    sink += t + a + tt + tex + (unsigned)l;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double per_call_draw(PFNGLDRAWELEMENTSPROC f, long calls) {
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) {
            f(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, NULL);
        }
        double ns = (now_ns() - t0) / (double)calls;
        best = ns < best ? ns : best;
    }
    return best;
}

static double per_call_bind(PFNGLBINDFRAMEBUFFERPROC f, long calls) {
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) {
            f(GL_DRAW_FRAMEBUFFER, (GLuint)(1 + (i & 7)));
        }
        double ns = (now_ns() - t0) / (double)calls;
        best = ns < best ? ns : best;
    }
    return best;
}

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 5000000;
    setenv("FXGL_DEPTH", "fbo", 1);
    setenv("FXGL_LOG", "error", 1);
    int dummy = 0;
    (void)dummy;
    PFNGLDRAWELEMENTSPROC draw = (PFNGLDRAWELEMENTSPROC)(uintptr_t)ip_dlsym_substitute(
        "glDrawElements", IP_PTR(fake_draw), NULL);
    PFNGLBINDFRAMEBUFFERPROC bind = (PFNGLBINDFRAMEBUFFERPROC)(uintptr_t)ip_dlsym_substitute(
        "glBindFramebuffer", IP_PTR(fake_bind), NULL);
    PFNGLFRAMEBUFFERTEXTURE2DPROC attach =
        (PFNGLFRAMEBUFFERTEXTURE2DPROC)(uintptr_t)ip_dlsym_substitute(
            "glFramebufferTexture2D", IP_PTR(fake_attach), NULL);
    if ((void *)(uintptr_t)draw == IP_PTR(fake_draw) ||
        (void *)(uintptr_t)bind == IP_PTR(fake_bind) ||
        (void *)(uintptr_t)attach == IP_PTR(fake_attach)) {
        printf("FAIL: FXGL_DEPTH=fbo handed out no hook\n");
        return 1;
    }
    // Eight framebuffers with a depth texture each, the last one bound for drawing.
    for (GLuint f = 1; f <= 8; f++) {
        bind(GL_FRAMEBUFFER, f);
        attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, 100 + f, 0);
    }
    double direct = per_call_draw(fake_draw, calls);
    double idle = per_call_draw(draw, calls);
    __atomic_store_n(&ip_depth_counting, true, __ATOMIC_RELAXED);
    double counting = per_call_draw(draw, calls);
    double bind_direct = per_call_bind(fake_bind, calls / 4);
    double bind_hooked = per_call_bind(bind, calls / 4);
    printf("%-44s %8.2f ns\n", "glDrawElements, direct", direct);
    printf("%-44s %8.2f ns (+%.2f)\n", "glDrawElements, hook, no effect binds DEPTH", idle,
           idle - direct);
    printf("%-44s %8.2f ns (+%.2f)\n", "glDrawElements, hook, counting", counting,
           counting - direct);
    printf("%-44s %8.2f ns\n", "glBindFramebuffer, direct", bind_direct);
    printf("%-44s %8.2f ns (+%.2f)\n", "glBindFramebuffer, hook (8 framebuffers)", bind_hooked,
           bind_hooked - bind_direct);
    return 0;
}
