/*
 * variant_ctx.c - the context the runtime's compile thread builds specialised programs on
 * (src/gl/variant.c).
 *
 * A second context in the program's share group, made on the presenting thread when the
 * effect runtime is created (once: one context creation, a round trip at load, never per
 * frame), made current without a drawable on the runtime's compile thread and destroyed
 * after the runtime. Programs it links are the share group's, so the frame thread runs
 * them without compiling anything. Same config, API, version and profile as the program's
 * context, so sharing is allowed and the GLSL is the same.
 *  - GLX: glXCreateContextAttribsARB with the program's context as share list; current
 *    with no drawable (GLX_ARB_create_context allows it from GL 3.0 / ES 3.0). The compile
 *    thread uses the program's Display: libX11 1.8 and later lock every Display by default,
 *    and the bind sends no request with DRI3; on an older libX11 whose Display is not
 *    thread-initialised (no lock functions), there is no worker.
 *  - EGL: eglCreateContext with the program's context as share context; current
 *    surfaceless (EGL_KHR_surfaceless_context).
 * Every GLX/EGL function is the real library's (ip_real_*_terminal): the context table in
 * context.c never learns this context. FXGL_SPECIALISE=0 turns it all off (the passes
 * then always run their editable programs, as before).
 */
#define _GNU_SOURCE 1 // RTLD_DEFAULT
#include <dlfcn.h>
#include <glad/gl.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glx.h>
#include <X11/Xlibint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"

#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#endif
#ifndef GLX_CONTEXT_PROFILE_MASK_ARB
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#define GLX_CONTEXT_CORE_PROFILE_BIT_ARB 0x00000001
#define GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB 0x00000002
#endif
#ifndef GLX_CONTEXT_ES2_PROFILE_BIT_EXT
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT 0x00000004
#endif

typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

struct ip_variant_ctx {
    ip_wsi wsi;
    // GLX
    Display *dpy;
    GLXContext glx;
    GLXPbuffer pbuffer;          // None: current without a drawable
    Bool (*make_context_current)(Display *, GLXDrawable, GLXDrawable, GLXContext);
    void (*destroy_context)(Display *, GLXContext);
    void (*destroy_pbuffer)(Display *, GLXPbuffer);
    // EGL
    EGLDisplay edpy;
    EGLContext egl;
    EGLSurface surface;          // EGL_NO_SURFACE: surfaceless
    EGLenum api;
    EGLBoolean (*egl_make_current)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*bind_api)(EGLenum);
    EGLBoolean (*release_thread)(void);
    EGLBoolean (*destroy)(EGLDisplay, EGLContext);
    EGLBoolean (*destroy_surface)(EGLDisplay, EGLSurface);
    int width, height;           // of the small drawable
};

#define REAL(kind, type, name) IP_FN(type, ip_real_##kind##_terminal(name))

static bool specialise_wanted(void) {
    if (!ip_config_get()->specialise) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "specialised programs off (FXGL_SPECIALISE=0): passes "
                      "read their values from the uniform block");
        return false;
    }
    return true;
}

// XFree of the libX11 the program loaded (libfxgl does not link libX11).
static void x_free(void *p) {
    int (*f)(void *) = IP_FN(int (*)(void *), ip_real_dlsym(RTLD_DEFAULT, "XFree"));
    if (p && f) {
        f(p);
    }
}

static bool glx_create(ip_variant_ctx *v, const fxgl_gl_info *info) {
    Display *(*get_display)(void) = REAL(glx, Display *(*)(void), "glXGetCurrentDisplay");
    GLXContext (*get_context)(void) = REAL(glx, GLXContext (*)(void), "glXGetCurrentContext");
    int (*query_context)(Display *, GLXContext, int, int *) =
        REAL(glx, int (*)(Display *, GLXContext, int, int *), "glXQueryContext");
    GLXFBConfig *(*choose)(Display *, int, const int *, int *) =
        REAL(glx, GLXFBConfig *(*)(Display *, int, const int *, int *), "glXChooseFBConfig");
    void *(*gpa)(const GLubyte *) = REAL(glx, void *(*)(const GLubyte *), "glXGetProcAddressARB");
    v->make_context_current = REAL(glx, Bool (*)(Display *, GLXDrawable, GLXDrawable, GLXContext),
                                   "glXMakeContextCurrent");
    v->destroy_context = REAL(glx, void (*)(Display *, GLXContext), "glXDestroyContext");
    v->destroy_pbuffer = REAL(glx, void (*)(Display *, GLXPbuffer), "glXDestroyPbuffer");
    GLXPbuffer (*create_pbuffer)(Display *, GLXFBConfig, const int *) =
        REAL(glx, GLXPbuffer (*)(Display *, GLXFBConfig, const int *), "glXCreatePbuffer");
    int (*config_attrib)(Display *, GLXFBConfig, int, int *) =
        REAL(glx, int (*)(Display *, GLXFBConfig, int, int *), "glXGetFBConfigAttrib");
    if (!get_display || !get_context || !query_context || !choose || !gpa ||
        !v->make_context_current || !v->destroy_context) {
        return false;
    }
    create_attribs_fn create = IP_FN(create_attribs_fn,
                                     gpa((const GLubyte *)"glXCreateContextAttribsARB"));
    Display *dpy = get_display();
    GLXContext share = get_context();
    if (!create || !dpy || !share) {
        return false;
    }
    // The compile thread binds on this Display: it must be thread-safe (see the top).
    if (!((struct _XDisplay *)dpy)->lock_fns) {
        fxgl_log(FXGL_LOG_INFO, "the program's X display is not thread-initialised (libX11 "
                 "before 1.8, no XInitThreads): no specialised programs");
        return false;
    }
    int id = 0, screen = 0;
    if (query_context(dpy, share, GLX_FBCONFIG_ID, &id) != Success ||
        query_context(dpy, share, GLX_SCREEN, &screen) != Success) {
        return false;
    }
    const int want[] = {GLX_FBCONFIG_ID, id, None};
    int n = 0;
    GLXFBConfig *configs = choose(dpy, screen, want, &n);
    if (!configs || n < 1) {
        if (configs) {
            x_free(configs);
        }
        return false;
    }
    int profile = info->api == FXGL_API_GLES ? GLX_CONTEXT_ES2_PROFILE_BIT_EXT
                  : info->core_profile       ? GLX_CONTEXT_CORE_PROFILE_BIT_ARB
                                             : GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB;
    const int attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, info->major,
                           GLX_CONTEXT_MINOR_VERSION_ARB, info->minor,
                           GLX_CONTEXT_PROFILE_MASK_ARB, profile, None};
    v->glx = create(dpy, configs[0], share, True, attribs);
    // A small pbuffer of the program's config: the warm-up draws of passes into the
    // program's window go there, in the window's format (src/gl/variant.c). Only where
    // the config allows pbuffers (asked first: a refused request would be an X error).
    int types = 0;
    if (v->glx && create_pbuffer && config_attrib && v->destroy_pbuffer &&
        config_attrib(dpy, configs[0], GLX_DRAWABLE_TYPE, &types) == Success &&
        (types & GLX_PBUFFER_BIT)) {
        const int size[] = {GLX_PBUFFER_WIDTH, v->width, GLX_PBUFFER_HEIGHT, v->height,
                            None};
        v->pbuffer = create_pbuffer(dpy, configs[0], size);
    }
    x_free(configs);
    v->dpy = dpy;
    return v->glx != NULL;
}

static bool egl_create(ip_variant_ctx *v, const fxgl_gl_info *info) {
    EGLDisplay (*get_display)(void) = REAL(egl, EGLDisplay (*)(void), "eglGetCurrentDisplay");
    EGLContext (*get_context)(void) = REAL(egl, EGLContext (*)(void), "eglGetCurrentContext");
    EGLBoolean (*query_context)(EGLDisplay, EGLContext, EGLint, EGLint *) =
        REAL(egl, EGLBoolean (*)(EGLDisplay, EGLContext, EGLint, EGLint *), "eglQueryContext");
    EGLBoolean (*choose)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *) =
        REAL(egl, EGLBoolean (*)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *),
             "eglChooseConfig");
    EGLContext (*create)(EGLDisplay, EGLConfig, EGLContext, const EGLint *) =
        REAL(egl, EGLContext (*)(EGLDisplay, EGLConfig, EGLContext, const EGLint *),
             "eglCreateContext");
    const char *(*query_string)(EGLDisplay, EGLint) =
        REAL(egl, const char *(*)(EGLDisplay, EGLint), "eglQueryString");
    EGLenum (*query_api)(void) = REAL(egl, EGLenum (*)(void), "eglQueryAPI");
    v->egl_make_current = REAL(egl, EGLBoolean (*)(EGLDisplay, EGLSurface, EGLSurface, EGLContext),
                               "eglMakeCurrent");
    v->bind_api = REAL(egl, EGLBoolean (*)(EGLenum), "eglBindAPI");
    v->release_thread = REAL(egl, EGLBoolean (*)(void), "eglReleaseThread");
    v->destroy = REAL(egl, EGLBoolean (*)(EGLDisplay, EGLContext), "eglDestroyContext");
    v->destroy_surface = REAL(egl, EGLBoolean (*)(EGLDisplay, EGLSurface), "eglDestroySurface");
    EGLSurface (*create_pbuffer)(EGLDisplay, EGLConfig, const EGLint *) =
        REAL(egl, EGLSurface (*)(EGLDisplay, EGLConfig, const EGLint *),
             "eglCreatePbufferSurface");
    EGLBoolean (*config_attrib)(EGLDisplay, EGLConfig, EGLint, EGLint *) =
        REAL(egl, EGLBoolean (*)(EGLDisplay, EGLConfig, EGLint, EGLint *), "eglGetConfigAttrib");
    if (!get_display || !get_context || !query_context || !choose || !create || !query_string ||
        !query_api || !v->egl_make_current || !v->bind_api || !v->release_thread ||
        !v->destroy) {
        return false;
    }
    EGLDisplay dpy = get_display();
    EGLContext share = get_context();
    if (dpy == EGL_NO_DISPLAY || share == EGL_NO_CONTEXT) {
        return false;
    }
    const char *ext = query_string(dpy, EGL_EXTENSIONS);
    if (!ext || !strstr(ext, "EGL_KHR_surfaceless_context")) {
        return false;
    }
    EGLint id = 0;
    EGLConfig config = NULL;
    EGLint n = 0;
    if (!query_context(dpy, share, EGL_CONFIG_ID, &id)) {
        return false;
    }
    const EGLint want[] = {EGL_CONFIG_ID, id, EGL_NONE};
    if (!choose(dpy, want, &config, 1, &n) || n < 1) {
        return false;
    }
    v->api = info->api == FXGL_API_GLES ? EGL_OPENGL_ES_API : EGL_OPENGL_API;
    EGLint attribs[8];
    int k = 0;
    attribs[k++] = EGL_CONTEXT_MAJOR_VERSION;
    attribs[k++] = info->major;
    attribs[k++] = EGL_CONTEXT_MINOR_VERSION;
    attribs[k++] = info->minor;
    if (info->api == FXGL_API_GL) {
        attribs[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attribs[k++] = info->core_profile ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                          : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    attribs[k] = EGL_NONE;
    // The bound API is per thread: the program's is put back.
    EGLenum before = query_api();
    v->bind_api(v->api);
    v->egl = create(dpy, config, share, attribs);
    v->bind_api(before);
    v->edpy = dpy;
    // As for GLX: a small pbuffer of the program's config where it allows one.
    EGLint types = 0;
    v->surface = EGL_NO_SURFACE;
    if (v->egl != EGL_NO_CONTEXT && create_pbuffer && config_attrib && v->destroy_surface &&
        config_attrib(dpy, config, EGL_SURFACE_TYPE, &types) && (types & EGL_PBUFFER_BIT)) {
        const EGLint size[] = {EGL_WIDTH, v->width, EGL_HEIGHT, v->height, EGL_NONE};
        v->surface = create_pbuffer(dpy, config, size);
    }
    return v->egl != EGL_NO_CONTEXT;
}

// A side of the same kind as n for the driver: a power of two stays one (at most 4),
// anything else becomes 3 (as variant.c's stand-ins).
static int small_side(int n) {
    return n <= 1 ? 1 : (n & (n - 1)) == 0 ? (n < 4 ? n : 4) : 3;
}

ip_variant_ctx *ip_variant_ctx_create(ip_wsi wsi, const fxgl_gl_info *info, int width,
                                      int height) {
    if (!specialise_wanted()) {
        return NULL;
    }
    ip_variant_ctx *v = calloc(1, sizeof(*v));
    if (!v) {
        return NULL;
    }
    v->wsi = wsi;
    v->width = small_side(width);
    v->height = small_side(height);
    bool ok = wsi == IP_WSI_GLX ? glx_create(v, info) : egl_create(v, info);
    if (!ok) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "no second context in the program's share group: "
                      "passes read their values from the uniform block (no specialised "
                      "programs)");
        free(v);
        return NULL;
    }
    fxgl_log(FXGL_LOG_DEBUG, "compile context made: specialised programs on");
    return v;
}

static bool make_current(void *user) {
    ip_variant_ctx *v = user;
    if (v->wsi == IP_WSI_GLX) {
        return v->make_context_current(v->dpy, v->pbuffer, v->pbuffer, v->glx);
    }
    return v->bind_api(v->api) && v->egl_make_current(v->edpy, v->surface, v->surface, v->egl);
}

static void release(void *user) {
    ip_variant_ctx *v = user;
    if (v->wsi == IP_WSI_GLX) {
        v->make_context_current(v->dpy, None, None, NULL);
    } else {
        v->egl_make_current(v->edpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        v->release_thread();
    }
}

void ip_variant_ctx_worker(ip_variant_ctx *v, struct GladGLContext *gl,
                           fxgl_runtime_worker *out) {
    *out = (fxgl_runtime_worker){0};
    if (v) {
        // The dispatch table of the program's context: GLX and EGL entry points dispatch
        // to whatever context is current on the calling thread, and this one is of the
        // same driver, version and profile.
        *out = (fxgl_runtime_worker){
            .gl = gl, .make_current = make_current, .release = release, .user = v,
            .has_drawable = v->wsi == IP_WSI_GLX ? v->pbuffer != None
                                                 : v->surface != EGL_NO_SURFACE,
        };
    }
}

void ip_variant_ctx_destroy(ip_variant_ctx *v) {
    if (!v) {
        return;
    }
    if (v->wsi == IP_WSI_GLX) {
        v->destroy_context(v->dpy, v->glx);
        if (v->pbuffer != None) {
            v->destroy_pbuffer(v->dpy, v->pbuffer);
        }
    } else {
        v->destroy(v->edpy, v->egl);
        if (v->surface != EGL_NO_SURFACE) {
            v->destroy_surface(v->edpy, v->surface);
        }
    }
    free(v);
}
