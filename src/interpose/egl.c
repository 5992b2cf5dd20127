/*
 * egl.c - the EGL hooks: swaps, lookups, surfaces, contexts and displays.
 *
 * Same shape as glx.c. Under glvnd, eglSwapBuffersWithDamageKHR/EXT are not
 * exported by libEGL.so.1 at all: they exist only through eglGetProcAddress,
 * so they are in the table but never exported (an export would invent a
 * symbol the real library lacks and change what apps probe).
 *
 * Displays are recorded at eglGetDisplay/eglGetPlatformDisplay(EXT): the
 * Wayland input path (issue 7, later) needs the program's wl_display.
 */
#include <pthread.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "fxgl_interpose.h"

typedef EGLBoolean (*swap_fn)(EGLDisplay, EGLSurface);
typedef EGLBoolean (*swap_damage_fn)(EGLDisplay, EGLSurface, const EGLint *, EGLint);
typedef __eglMustCastToProperFunctionPointerType (*gpa_fn)(const char *);
typedef EGLBoolean (*destroy_ctx_fn)(EGLDisplay, EGLContext);
typedef EGLBoolean (*destroy_surface_fn)(EGLDisplay, EGLSurface);
typedef EGLBoolean (*terminate_fn)(EGLDisplay);
typedef EGLContext (*create_ctx_fn)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
typedef EGLDisplay (*get_display_fn)(EGLNativeDisplayType);
typedef EGLDisplay (*get_platform_display_fn)(EGLenum, void *, const EGLAttrib *);
typedef EGLDisplay (*get_platform_display_ext_fn)(EGLenum, void *, const EGLint *);
typedef EGLContext (*get_ctx_fn)(void);
typedef EGLSurface (*get_surface_fn)(EGLint);
typedef EGLBoolean (*query_surface_fn)(EGLDisplay, EGLSurface, EGLint, EGLint *);

// The real functions, resolved once: process-wide, immutable afterwards.
static struct egl_real {
    swap_fn swap;                // chain
    swap_fn swap_terminal;
    swap_damage_fn damage_khr;
    swap_damage_fn damage_khr_terminal;
    swap_damage_fn damage_ext;
    swap_damage_fn damage_ext_terminal;
    gpa_fn gpa;                  // chain
    gpa_fn gpa_terminal;
    destroy_ctx_fn destroy_context;
    destroy_surface_fn destroy_surface;
    terminate_fn terminate;
    create_ctx_fn create_context;
    get_display_fn get_display;
    get_platform_display_fn get_platform_display;
    get_platform_display_ext_fn get_platform_display_ext;
    get_ctx_fn get_current_context;
    get_surface_fn get_current_surface;
    query_surface_fn query_surface;
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static _Thread_local int swap_depth; // see glx.c

static void real_setup(void) {
    real.swap = IP_FN(swap_fn, ip_real_egl_chain("eglSwapBuffers"));
    real.swap_terminal = IP_FN(swap_fn, ip_real_egl_terminal("eglSwapBuffers"));
    real.gpa = IP_FN(gpa_fn, ip_real_egl_chain("eglGetProcAddress"));
    real.gpa_terminal = IP_FN(gpa_fn, ip_real_egl_terminal("eglGetProcAddress"));
    // Extension entry points exist only behind eglGetProcAddress.
    if (real.gpa) {
        real.damage_khr = IP_FN(swap_damage_fn, real.gpa("eglSwapBuffersWithDamageKHR"));
        real.damage_ext = IP_FN(swap_damage_fn, real.gpa("eglSwapBuffersWithDamageEXT"));
        real.get_platform_display_ext =
            IP_FN(get_platform_display_ext_fn, real.gpa("eglGetPlatformDisplayEXT"));
    }
    if (real.gpa_terminal) {
        real.damage_khr_terminal =
            IP_FN(swap_damage_fn, real.gpa_terminal("eglSwapBuffersWithDamageKHR"));
        real.damage_ext_terminal =
            IP_FN(swap_damage_fn, real.gpa_terminal("eglSwapBuffersWithDamageEXT"));
    }
    real.destroy_context = IP_FN(destroy_ctx_fn, ip_real_egl_chain("eglDestroyContext"));
    real.destroy_surface = IP_FN(destroy_surface_fn, ip_real_egl_chain("eglDestroySurface"));
    real.terminate = IP_FN(terminate_fn, ip_real_egl_chain("eglTerminate"));
    real.create_context = IP_FN(create_ctx_fn, ip_real_egl_chain("eglCreateContext"));
    real.get_display = IP_FN(get_display_fn, ip_real_egl_chain("eglGetDisplay"));
    real.get_platform_display =
        IP_FN(get_platform_display_fn, ip_real_egl_chain("eglGetPlatformDisplay"));
    real.get_current_context =
        IP_FN(get_ctx_fn, ip_real_egl_terminal("eglGetCurrentContext"));
    real.get_current_surface =
        IP_FN(get_surface_fn, ip_real_egl_terminal("eglGetCurrentSurface"));
    real.query_surface = IP_FN(query_surface_fn, ip_real_egl_terminal("eglQuerySurface"));
}

static const struct egl_real *egl(void) {
    pthread_once(&real_once, real_setup);
    return &real;
}

// --- the frame ---

static void before_swap(EGLDisplay dpy, EGLSurface surface) {
    if (ip_config_get()->disabled) {
        return;
    }
    const struct egl_real *r = egl();
    if (!r->get_current_context || !r->get_current_surface || !r->query_surface) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "EGL query functions missing: frames pass through");
        return;
    }
    EGLContext ctx = r->get_current_context();
    if (ctx == EGL_NO_CONTEXT) {
        FXGL_LOG_ONCE(FXGL_LOG_DEBUG, "eglSwapBuffers without a current context: passed through");
        return;
    }
    if (r->get_current_surface(EGL_DRAW) != surface) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "swap of a surface that is not current: passed through");
        return;
    }
    // Pbuffers and pixmaps are single-buffered: a swap presents nothing.
    EGLint render_buffer = EGL_BACK_BUFFER;
    r->query_surface(dpy, surface, EGL_RENDER_BUFFER, &render_buffer);
    if (render_buffer == EGL_SINGLE_BUFFER) {
        ip_drawable_set_pbuffer(IP_WSI_EGL, dpy, (uintptr_t)surface);
    }
    EGLint w = 0, h = 0;
    r->query_surface(dpy, surface, EGL_WIDTH, &w);
    r->query_surface(dpy, surface, EGL_HEIGHT, &h);
    ip_drawable_state state = ip_drawable_swap(IP_WSI_EGL, dpy, (uintptr_t)surface, w, h);
    ip_slot *slot = ip_slot_acquire(IP_WSI_EGL, dpy, ctx);
    if (!slot) {
        return;
    }
    ip_frame(&(ip_frame_desc){
        .wsi = IP_WSI_EGL,
        .runtime = ip_slot_runtime(slot),
        .drawable = state,
        .context = ctx,
    });
    ip_slot_release(slot);
}

static EGLBoolean hook_eglSwapBuffers(EGLDisplay dpy, EGLSurface surface) {
    const struct egl_real *r = egl();
    if (swap_depth > 0) {
        return r->swap_terminal ? r->swap_terminal(dpy, surface) : EGL_FALSE;
    }
    if (!r->swap) {
        FXGL_LOG_ONCE(FXGL_LOG_ERROR, "no real eglSwapBuffers: the frame is dropped");
        return EGL_FALSE;
    }
    swap_depth++;
    before_swap(dpy, surface);
    EGLBoolean result = r->swap(dpy, surface);
    swap_depth--;
    return result;
}
IP_EXPORT(eglSwapBuffers, hook_eglSwapBuffers);

static EGLBoolean swap_damage(swap_damage_fn chain, swap_damage_fn terminal, EGLDisplay dpy,
                              EGLSurface surface, const EGLint *rects, EGLint n_rects) {
    if (swap_depth > 0) {
        return terminal ? terminal(dpy, surface, rects, n_rects) : EGL_FALSE;
    }
    if (!chain) {
        FXGL_LOG_ONCE(FXGL_LOG_ERROR, "no real eglSwapBuffersWithDamage: the frame is dropped");
        return EGL_FALSE;
    }
    swap_depth++;
    // The damage rectangles stay the app's: an effect changing the whole
    // frame will have to widen them (FIXME(issue 7): once effects run).
    before_swap(dpy, surface);
    EGLBoolean result = chain(dpy, surface, rects, n_rects);
    swap_depth--;
    return result;
}

static EGLBoolean hook_eglSwapBuffersWithDamageKHR(EGLDisplay dpy, EGLSurface surface,
                                                   const EGLint *rects, EGLint n_rects) {
    const struct egl_real *r = egl();
    return swap_damage(r->damage_khr, r->damage_khr_terminal, dpy, surface, rects, n_rects);
}

static EGLBoolean hook_eglSwapBuffersWithDamageEXT(EGLDisplay dpy, EGLSurface surface,
                                                   const EGLint *rects, EGLint n_rects) {
    const struct egl_real *r = egl();
    return swap_damage(r->damage_ext, r->damage_ext_terminal, dpy, surface, rects, n_rects);
}

// --- lookups ---

static __eglMustCastToProperFunctionPointerType hook_eglGetProcAddress(const char *name) {
    const struct egl_real *r = egl();
    void *p = r->gpa ? IP_PTR(r->gpa(name)) : NULL;
    return IP_FN(__eglMustCastToProperFunctionPointerType,
                 ip_dlsym_substitute(name, p, __builtin_return_address(0)));
}
IP_EXPORT(eglGetProcAddress, hook_eglGetProcAddress);

// --- displays ---

static void display_seen(EGLDisplay dpy, EGLenum platform, void *native) {
    if (dpy != EGL_NO_DISPLAY) {
        fxgl_log(FXGL_LOG_DEBUG, "EGL display %p (platform 0x%x, native %p)", dpy,
                 (unsigned)platform, native);
    }
}

static EGLDisplay hook_eglGetDisplay(EGLNativeDisplayType native) {
    const struct egl_real *r = egl();
    EGLDisplay dpy = r->get_display ? r->get_display(native) : EGL_NO_DISPLAY;
    display_seen(dpy, 0, (void *)native);
    return dpy;
}
IP_EXPORT(eglGetDisplay, hook_eglGetDisplay);

static EGLDisplay hook_eglGetPlatformDisplay(EGLenum platform, void *native,
                                             const EGLAttrib *attribs) {
    const struct egl_real *r = egl();
    EGLDisplay dpy = r->get_platform_display
                         ? r->get_platform_display(platform, native, attribs)
                         : EGL_NO_DISPLAY;
    display_seen(dpy, platform, native);
    return dpy;
}
IP_EXPORT(eglGetPlatformDisplay, hook_eglGetPlatformDisplay);

static EGLDisplay hook_eglGetPlatformDisplayEXT(EGLenum platform, void *native,
                                                const EGLint *attribs) {
    const struct egl_real *r = egl();
    EGLDisplay dpy = r->get_platform_display_ext
                         ? r->get_platform_display_ext(platform, native, attribs)
                         : EGL_NO_DISPLAY;
    display_seen(dpy, platform, native);
    return dpy;
}

// --- contexts and surfaces ---

static EGLContext hook_eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share,
                                        const EGLint *attribs) {
    const struct egl_real *r = egl();
    EGLContext ctx = r->create_context ? r->create_context(dpy, config, share, attribs)
                                       : EGL_NO_CONTEXT;
    if (ctx != EGL_NO_CONTEXT) {
        ip_context_created(IP_WSI_EGL, dpy, ctx, share);
    }
    return ctx;
}
IP_EXPORT(eglCreateContext, hook_eglCreateContext);

static EGLBoolean hook_eglDestroyContext(EGLDisplay dpy, EGLContext ctx) {
    const struct egl_real *r = egl();
    bool current = r->get_current_context && r->get_current_context() == ctx;
    ip_context_destroyed(IP_WSI_EGL, dpy, ctx, current);
    return r->destroy_context ? r->destroy_context(dpy, ctx) : EGL_FALSE;
}
IP_EXPORT(eglDestroyContext, hook_eglDestroyContext);

static EGLBoolean hook_eglDestroySurface(EGLDisplay dpy, EGLSurface surface) {
    const struct egl_real *r = egl();
    ip_drawable_forget(IP_WSI_EGL, dpy, (uintptr_t)surface);
    return r->destroy_surface ? r->destroy_surface(dpy, surface) : EGL_FALSE;
}
IP_EXPORT(eglDestroySurface, hook_eglDestroySurface);

static EGLBoolean hook_eglTerminate(EGLDisplay dpy) {
    const struct egl_real *r = egl();
    ip_context_display_gone(IP_WSI_EGL, dpy);
    return r->terminate ? r->terminate(dpy) : EGL_FALSE;
}
IP_EXPORT(eglTerminate, hook_eglTerminate);

#define IP_HOOK(name) {#name, IP_PTR(hook_##name)}
const ip_hook ip_egl_hooks[] = {
    IP_HOOK(eglSwapBuffers),
    IP_HOOK(eglSwapBuffersWithDamageKHR),
    IP_HOOK(eglSwapBuffersWithDamageEXT),
    IP_HOOK(eglGetProcAddress),
    IP_HOOK(eglGetDisplay),
    IP_HOOK(eglGetPlatformDisplay),
    IP_HOOK(eglGetPlatformDisplayEXT),
    IP_HOOK(eglCreateContext),
    IP_HOOK(eglDestroyContext),
    IP_HOOK(eglDestroySurface),
    IP_HOOK(eglTerminate),
    {NULL, NULL},
};
#undef IP_HOOK
