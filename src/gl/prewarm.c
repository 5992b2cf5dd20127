/*
 * prewarm.c - compiling an effect's programs ahead of the frame that needs them (live reload).
 *
 * A live reload swaps a recompiled effect in between two frames. Building its GL objects
 * there is cheap; what stalls the frame is the driver's own compile at the first draw of
 * each program: llvmpipe JIT-compiles a fragment shader variant for the state it is drawn
 * with (framebuffer formats, blend, sampler and texture state), 20-150 ms per program on
 * this machine. Those variants belong to the context, so compiling them on another
 * context does not hand them over - but the driver's on-disk shader cache does: Mesa keys
 * llvmpipe's JIT code by shader and variant key, NVIDIA keeps its own cache. So the
 * reload worker builds the new version here, on a private context of its own thread, and
 * runs one frame of it with every draw scissored away: each pass is drawn once with the
 * state it will have on the render thread, which compiles and caches every variant while
 * covering no pixel. The render thread's later build and first draw then load from the
 * cache (about 1 ms instead of a compile).
 *
 * Measured (tests/preset/test_reload.c, llvmpipe): the frame that swaps a version in went
 * from 9.6x the median frame to within 2x. What this cannot help: a driver without a disk
 * cache or with it disabled (MESA_SHADER_CACHE_DISABLE), and passes that sample DEPTH,
 * whose format here is the private context's guess, not the program's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_runtime.h"

bool fxgl_prewarm_effect(struct GladGLContext *gl, const fxgl_gl_info *info,
                         const fxgl_effect *effect, int width, int height, char *reason,
                         size_t reason_size) {
    return fxgl_prewarm_effect_cached(gl, info, effect, width, height, NULL, reason,
                                      reason_size);
}

bool fxgl_prewarm_effect_cached(struct GladGLContext *gl, const fxgl_gl_info *info,
                                const fxgl_effect *effect, int width, int height,
                                const fxgl_program_cache *programs, char *reason,
                                size_t reason_size) {
    if (reason && reason_size) {
        reason[0] = '\0';
    }
    if (!gl || !info || !effect || width <= 0 || height <= 0) {
        if (reason) {
            snprintf(reason, reason_size, "nothing to prewarm");
        }
        return false;
    }
    fxgl_runtime *rt = fxgl_runtime_create(gl, info,
                                           &(fxgl_runtime_desc){
                                               .no_timer_queries = true,
                                               .no_debug_groups = true,
                                               .program_cache = programs,
                                           });
    if (!rt) {
        if (reason) {
            snprintf(reason, reason_size, "no runtime on the private context");
        }
        return false;
    }
    // A stand-in for the program's back buffer: RGBA8, as the runtime's own copies are.
    GLuint color = 0, fbo = 0;
    gl->GenTextures(1, &color);
    gl->BindTexture(GL_TEXTURE_2D, color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);

    bool ok = fxgl_runtime_add_effect(rt, effect, NULL) == 0;
    if (ok) {
        // The effect loads on the frame; then every technique runs, disabled ones too (a
        // key may enable them later), each draw compiled but scissored away.
        rt->warming = true;
        fxgl_frame_desc frame = {.width = width, .height = height, .framebuffer = fbo};
        fxgl_runtime_frame(rt, &frame); // loads
        gl_loaded_effect *e = rt->effects[0];
        ok = e->status == FXGL_STATUS_READY;
        if (ok) {
            for (size_t i = 0; i < e->technique_count; i++) {
                e->techniques[i].enabled = true;
                e->techniques[i].time_left_ms = 0;
            }
            fxgl_runtime_frame(rt, &frame);
            // The compile happens when the driver processes the draws: wait here, on the
            // worker, so that the cache holds them before the render thread looks.
            gl->Finish();
        } else if (reason) {
            snprintf(reason, reason_size, "%s", e->reason);
        }
    } else if (reason) {
        snprintf(reason, reason_size, "out of memory");
    }
    fxgl_runtime_destroy(rt);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &color);
    return ok;
}
