/*
 * warm.c - the compile worker's private GL context, for fxgl_prewarm_effect.
 *
 * Every effect the worker compiles again (live reloads, preset and performance-mode
 * switches, resizes; not the first load, see ip_warm_effect) is built once more on the
 * worker, on a context of its own, before the render thread gets it: the driver's compile then lands in its on-disk shader cache, and the
 * render thread's build and first draw load from there instead of stalling a frame
 * (src/gl/prewarm.c says why that is the mechanism that works on llvmpipe).
 *
 * The context is headless EGL, whatever API the program uses: Mesa's surfaceless platform,
 * else the first EGL device (NVIDIA). It is made on the worker thread on first use, made
 * current only while a prewarm runs and released after it, so it is never current on a
 * thread that ends. Its display is never terminated: it may be the very display the
 * program uses (eglGetPlatformDisplay hands the same one out), and terminating it would
 * pull the program's contexts away. A prewarm helps only when the private context renders
 * on the program's driver (the caches are per driver): when the renderer strings differ,
 * prewarming is off for the run, logged once. FXGL_PREWARM=0 turns it off.
 *
 * Every EGL function comes from the real libEGL (ip_real_egl_terminal), never our hooks.
 */
#include <glad/gl.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_interpose.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

typedef struct warm_egl {
    PFNEGLQUERYSTRINGPROC QueryString;
    PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT;
    PFNEGLQUERYDEVICESEXTPROC QueryDevicesEXT;
    PFNEGLINITIALIZEPROC Initialize;
    PFNEGLCHOOSECONFIGPROC ChooseConfig;
    PFNEGLBINDAPIPROC BindAPI;
    PFNEGLCREATECONTEXTPROC CreateContext;
    PFNEGLDESTROYCONTEXTPROC DestroyContext;
    PFNEGLMAKECURRENTPROC MakeCurrent;
    PFNEGLRELEASETHREADPROC ReleaseThread;
    PFNEGLGETERRORPROC GetError;
} warm_egl;

struct ip_warm {
    fxgl_gl_info app;            // the program's context: API, version, renderer to match
    _Atomic int width, height;   // the frame the effects are compiled for (render thread)
    // The worker's alone from here on.
    bool tried, off;
    warm_egl egl;
    EGLDisplay display;
    EGLContext context;
    struct GladGLContext gl;
    fxgl_gl_info info;
};

static bool has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)); p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

ip_warm *ip_warm_create(const fxgl_gl_info *app, int width, int height) {
    if (!ip_config_get()->prewarm) {
        static atomic_flag said = ATOMIC_FLAG_INIT;
        if (!atomic_flag_test_and_set(&said)) {
            fxgl_log(FXGL_LOG_INFO, "prewarm off (FXGL_PREWARM=0): a reload's first frame "
                     "compiles its programs");
        }
        return NULL;
    }
    ip_warm *w = calloc(1, sizeof(*w));
    if (w) {
        w->app = *app;
        atomic_store(&w->width, width);
        atomic_store(&w->height, height);
        w->display = EGL_NO_DISPLAY;
        w->context = EGL_NO_CONTEXT;
    }
    return w;
}

void ip_warm_resize(ip_warm *w, int width, int height) {
    if (w) {
        atomic_store(&w->width, width);
        atomic_store(&w->height, height);
    }
}

#define LOAD(w, field, name) ((w)->egl.field = IP_FN(__typeof__((w)->egl.field), \
                                                     ip_real_egl_terminal(name)))

static EGLDisplay open_display(ip_warm *w) {
    const char *client = w->egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!w->egl.GetPlatformDisplayEXT) {
        return EGL_NO_DISPLAY;
    }
    if (has_word(client, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = w->egl.GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                                    EGL_DEFAULT_DISPLAY, NULL);
        if (d != EGL_NO_DISPLAY && w->egl.Initialize(d, NULL, NULL)) {
            return d;
        }
    }
    if (has_word(client, "EGL_EXT_platform_device") && w->egl.QueryDevicesEXT) {
        EGLDeviceEXT devices[8];
        EGLint n = 0;
        if (w->egl.QueryDevicesEXT(8, devices, &n) && n > 0) {
            EGLDisplay d = w->egl.GetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[0],
                                                        NULL);
            if (d != EGL_NO_DISPLAY && w->egl.Initialize(d, NULL, NULL)) {
                return d;
            }
        }
    }
    return EGL_NO_DISPLAY;
}

// Makes the private context on the worker thread; false (logged once) when it cannot be
// had or renders elsewhere than the program.
static bool make_context(ip_warm *w) {
    LOAD(w, QueryString, "eglQueryString");
    LOAD(w, GetPlatformDisplayEXT, "eglGetPlatformDisplayEXT");
    LOAD(w, QueryDevicesEXT, "eglQueryDevicesEXT");
    LOAD(w, Initialize, "eglInitialize");
    LOAD(w, ChooseConfig, "eglChooseConfig");
    LOAD(w, BindAPI, "eglBindAPI");
    LOAD(w, CreateContext, "eglCreateContext");
    LOAD(w, DestroyContext, "eglDestroyContext");
    LOAD(w, MakeCurrent, "eglMakeCurrent");
    LOAD(w, ReleaseThread, "eglReleaseThread");
    LOAD(w, GetError, "eglGetError");
    if (!w->egl.QueryString || !w->egl.Initialize || !w->egl.ChooseConfig ||
        !w->egl.BindAPI || !w->egl.CreateContext || !w->egl.DestroyContext ||
        !w->egl.MakeCurrent || !w->egl.ReleaseThread || !w->egl.GetError) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: no libEGL");
        return false;
    }
    w->display = open_display(w);
    if (w->display == EGL_NO_DISPLAY) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: no headless EGL display (surfaceless or device)");
        return false;
    }
    bool gles = w->app.api == FXGL_API_GLES;
    EGLint renderable = gles ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT;
    // No surface type asked (the default asks for windows, which a headless display
    // may not list); some drivers list only configs with surface bits: then any.
    const EGLint attribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, renderable, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!w->egl.ChooseConfig(w->display, attribs, &config, 1, &n) || n < 1) {
        n = 0;
        w->egl.ChooseConfig(w->display, attribs + 2, &config, 1, &n);
    }
    if (n < 1 || !w->egl.BindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: no EGL config renders %s", gles ? "GLES" : "GL");
        return false;
    }
    // The program's API, version and profile: the shader caches key on what the compiler
    // sees, and a context unlike the program's may compile differently.
    EGLint ctx[8] = {EGL_CONTEXT_MAJOR_VERSION, w->app.major, EGL_CONTEXT_MINOR_VERSION,
                     w->app.minor, EGL_NONE, EGL_NONE, EGL_NONE, EGL_NONE};
    if (!gles && (w->app.major > 3 || (w->app.major == 3 && w->app.minor >= 2))) {
        ctx[4] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        ctx[5] = w->app.core_profile ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                     : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    w->context = w->egl.CreateContext(w->display, config, EGL_NO_CONTEXT, ctx);
    if (w->context == EGL_NO_CONTEXT) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: no private %s %d.%d context (0x%x)",
                 gles ? "GLES" : "GL", w->app.major, w->app.minor, w->egl.GetError());
        return false;
    }
    if (!w->egl.MakeCurrent(w->display, EGL_NO_SURFACE, EGL_NO_SURFACE, w->context)) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: the private context cannot be made current "
                 "without a surface");
        return false;
    }
    char reason[256];
    bool ok = fxgl_gl_load(&w->gl, &w->info, ip_real_egl_gl_loader, NULL, reason,
                           sizeof(reason));
    if (!ok) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: %s", reason);
    } else if (strcmp(w->info.renderer, w->app.renderer) != 0) {
        fxgl_log(FXGL_LOG_INFO, "prewarm off: the private context renders on %s, the program "
                 "on %s (their shader caches are not shared)", w->info.renderer,
                 w->app.renderer);
        ok = false;
    } else {
        fxgl_log(FXGL_LOG_DEBUG, "prewarm: private %s context on %s", w->info.version,
                 w->info.renderer);
    }
    w->egl.MakeCurrent(w->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return ok;
}

void ip_warm_effect(void *user, const fxgl_effect *effect, bool first) {
    ip_warm *w = user;
    // A first compile is not prewarmed: until it is in, frames pass through, and a
    // prewarm would only keep the effects off screen longer (its one hitch, the first
    // frame's driver compile, happens once at start, where ReShade shows a loading bar).
    if (!w || w->off || first) {
        return;
    }
    if (!w->tried) {
        w->tried = true;
        w->off = !make_context(w);
        if (w->off) {
            w->egl.ReleaseThread ? (void)w->egl.ReleaseThread() : (void)0;
            return;
        }
    }
    bool gles = w->app.api == FXGL_API_GLES;
    if (!w->egl.BindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API) ||
        !w->egl.MakeCurrent(w->display, EGL_NO_SURFACE, EGL_NO_SURFACE, w->context)) {
        w->egl.ReleaseThread();
        return;
    }
    char reason[256];
    if (!fxgl_prewarm_effect_cached(&w->gl, &w->info, effect, atomic_load(&w->width),
                                    atomic_load(&w->height), ip_effect_host_program_cache(),
                                    reason, sizeof(reason))) {
        fxgl_log(FXGL_LOG_DEBUG, "prewarm skipped: %s", reason);
    }
    w->egl.MakeCurrent(w->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    w->egl.ReleaseThread(); // the worker may end; its EGL thread state goes now
}

void ip_warm_destroy(ip_warm *w) {
    if (!w) {
        return;
    }
    if (w->context != EGL_NO_CONTEXT && w->egl.DestroyContext) {
        w->egl.DestroyContext(w->display, w->context); // current nowhere: released after use
    }
    free(w);
}
