/*
 * egl.c - the EGL hooks: swaps, lookups, surfaces, contexts and displays.
 *
 * Same shape as glx.c. Under glvnd, eglSwapBuffersWithDamageKHR/EXT are not
 * exported by libEGL.so.1 at all: they exist only through eglGetProcAddress,
 * so they are in the table but never exported (an export would invent a
 * symbol the real library lacks and change what apps probe).
 *
 * Displays are recorded at eglGetDisplay/eglGetPlatformDisplay(EXT) with
 * their platform: on X11 the window behind a surface gives input its focus
 * and pointer, and its size: Mesa's X11 platform answers
 * eglQuerySurface(EGL_WIDTH/HEIGHT) with a GetGeometry round trip on the
 * program's connection each time (platform_x11.c, dri2_query_surface), so
 * a window surface's size comes from the window's ConfigureNotify events on
 * fxgl's own connection, as for GLX (input.c ip_x11_window_size); on
 * Wayland the program's wl_display is where wayland.c listens for keys.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <X11/Xlib.h>

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
typedef EGLSurface (*create_window_surface_fn)(EGLDisplay, EGLConfig, EGLNativeWindowType,
                                               const EGLint *);
typedef EGLSurface (*create_platform_surface_fn)(EGLDisplay, EGLConfig, void *,
                                                 const EGLAttrib *);
typedef EGLSurface (*create_platform_surface_ext_fn)(EGLDisplay, EGLConfig, void *,
                                                     const EGLint *);
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
    create_window_surface_fn create_window_surface;
    create_platform_surface_fn create_platform_surface;
    create_platform_surface_ext_fn create_platform_surface_ext;
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
        real.create_platform_surface_ext = IP_FN(
            create_platform_surface_ext_fn, real.gpa("eglCreatePlatformWindowSurfaceEXT"));
    }
    real.create_window_surface =
        IP_FN(create_window_surface_fn, ip_real_egl_chain("eglCreateWindowSurface"));
    real.create_platform_surface =
        IP_FN(create_platform_surface_fn, ip_real_egl_chain("eglCreatePlatformWindowSurface"));
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

static void *display_wayland(EGLDisplay dpy);
static void display_x_name(EGLDisplay dpy, char *name, size_t size);

// --- the frame ---

// True when fxgl drew into the frame (ip_frame).
static bool before_swap(EGLDisplay dpy, EGLSurface surface) {
    if (ip_config_get()->disabled) {
        return false;
    }
    const struct egl_real *r = egl();
    if (!r->get_current_context || !r->get_current_surface || !r->query_surface) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "EGL query functions missing: frames pass through");
        return false;
    }
    EGLContext ctx = r->get_current_context();
    if (ctx == EGL_NO_CONTEXT) {
        FXGL_LOG_ONCE(FXGL_LOG_DEBUG, "eglSwapBuffers without a current context: passed through");
        return false;
    }
    if (r->get_current_surface(EGL_DRAW) != surface) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "swap of a surface that is not current: passed through");
        return false;
    }
    // Pbuffers and pixmaps are single-buffered: a swap presents nothing.
    EGLint render_buffer = EGL_BACK_BUFFER;
    r->query_surface(dpy, surface, EGL_RENDER_BUFFER, &render_buffer);
    if (render_buffer == EGL_SINGLE_BUFFER) {
        ip_drawable_set_pbuffer(IP_WSI_EGL, dpy, (uintptr_t)surface);
    }
    // The X window behind a window surface (recorded at its creation on an
    // X11 display). Destroyed (x11.c): the driver reports the swap as it
    // would without fxgl; no request and no GL call of ours first.
    uintptr_t window = ip_drawable_native(IP_WSI_EGL, dpy, (uintptr_t)surface);
    if (window && ip_x11_window_gone(window)) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "swap of a destroyed window: passed to the driver");
        return false;
    }
    // Its size from its events on fxgl's own connection; only what cannot be
    // watched (pbuffers, other platforms) is asked of EGL, every frame.
    int w = 0, h = 0;
    char x_name[128];
    display_x_name(dpy, x_name, sizeof(x_name));
    if (!window || !ip_x11_window_size(x_name, (uint32_t)window, &w, &h)) {
        EGLint qw = 0, qh = 0;
        r->query_surface(dpy, surface, EGL_WIDTH, &qw);
        r->query_surface(dpy, surface, EGL_HEIGHT, &qh);
        w = qw;
        h = qh;
    }
    ip_drawable_state state = ip_drawable_swap(IP_WSI_EGL, dpy, (uintptr_t)surface, w, h);
    ip_slot *slot = ip_slot_acquire(IP_WSI_EGL, dpy, ctx);
    if (!slot) {
        return false;
    }
    bool drawn = ip_frame(&(ip_frame_desc){
        .wsi = IP_WSI_EGL,
        .runtime = ip_slot_runtime(slot),
        .drawable = state,
        .context = ctx,
        .x_display = x_name[0] ? x_name : NULL,
        .x_window = (uint32_t)state.native_window,
        .wl_display = display_wayland(dpy),
    });
    ip_slot_release(slot);
    return drawn;
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
    // The program's rectangles say what it changed; fxgl's effects change the
    // whole frame, and a compositor repaints only what is damaged (the rest
    // would keep an older picture). A frame fxgl drew into is presented
    // whole: zero rectangles, which EGL defines as the entire surface.
    if (before_swap(dpy, surface) && n_rects > 0) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "damage widened: frames fxgl draws into are presented "
                      "whole (the program's damage rectangles are replaced)");
        rects = NULL;
        n_rects = 0;
    }
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
//
// Input needs the X window behind an EGL surface (focus, pointer): the
// window is given at surface creation, and is an X window id only on an
// X11 display. So displays are recorded with their platform.

#define IP_MAX_DISPLAYS 16
#define IP_PLATFORM_X11 0x31D5     // EGL_PLATFORM_X11_KHR / _EXT
#define IP_PLATFORM_WAYLAND 0x31D8 // EGL_PLATFORM_WAYLAND_KHR / _EXT

// Process-wide, like the displays themselves; under displays_lock.
static struct display_rec {
    EGLDisplay dpy;
    bool x11;                    // native windows are X window ids
    void *wl_display;            // the program's wl_display (Wayland input), else NULL
    char x_name[128];            // the X display's name ("": $DISPLAY)
} displays[IP_MAX_DISPLAYS];
static pthread_mutex_t displays_lock = PTHREAD_MUTEX_INITIALIZER;

// eglGetDisplay's native display is a Display * or a wl_display *: a
// wl_display starts with a pointer to wl_display_interface (the test
// Mesa's platform detection makes too).
static bool native_is_wl_display(void *native) {
    void *wl_interface = ip_real_libc_dlsym(RTLD_DEFAULT, "wl_display_interface");
    return native && wl_interface && *(void **)native == wl_interface;
}

static bool native_is_x11(EGLenum platform, void *native) {
    if (platform != 0) {
        return platform == IP_PLATFORM_X11;
    }
    if (!native) {
        // EGL_DEFAULT_DISPLAY: EGL_PLATFORM, else Mesa's build default (X11 on Debian).
        const char *plat = getenv("EGL_PLATFORM");
        return !plat || strcmp(plat, "x11") == 0;
    }
    return !native_is_wl_display(native);
}

// The program's wl_display, or NULL (EGL_DEFAULT_DISPLAY on Wayland: EGL
// opened a connection of its own, where the program's surfaces get no keys).
static void *native_wl_display(EGLenum platform, void *native) {
    if (platform != 0) {
        return platform == IP_PLATFORM_WAYLAND ? native : NULL;
    }
    return native_is_wl_display(native) ? native : NULL;
}

static void display_seen(EGLDisplay dpy, EGLenum platform, void *native) {
    if (dpy == EGL_NO_DISPLAY) {
        return;
    }
    bool x11 = native_is_x11(platform, native);
    void *wl = native_wl_display(platform, native);
    fxgl_log(FXGL_LOG_DEBUG, "EGL display %p (platform 0x%x, native %p, %s)", dpy,
             (unsigned)platform, native, x11 ? "X11" : wl ? "Wayland" : "not X11");
    pthread_mutex_lock(&displays_lock);
    int slot = -1;
    for (int i = 0; i < IP_MAX_DISPLAYS; i++) {
        if (displays[i].dpy == dpy || (slot < 0 && !displays[i].dpy)) {
            slot = i;
        }
        if (displays[i].dpy == dpy) {
            break;
        }
    }
    if (slot >= 0) {
        displays[slot] = (struct display_rec){dpy, x11, wl, ""};
        // A Display * (the X11 platform's native display) names its server;
        // EGL_DEFAULT_DISPLAY is $DISPLAY's. (An XCB platform display is not x11.)
        const char *name = x11 && native ? DisplayString((Display *)native) : NULL;
        if (name) {
            snprintf(displays[slot].x_name, sizeof(displays[slot].x_name), "%s", name);
        }
    }
    pthread_mutex_unlock(&displays_lock);
}

static bool display_x11(EGLDisplay dpy) {
    bool x11 = false;
    pthread_mutex_lock(&displays_lock);
    for (int i = 0; i < IP_MAX_DISPLAYS; i++) {
        if (displays[i].dpy == dpy) {
            x11 = displays[i].x11;
        }
    }
    pthread_mutex_unlock(&displays_lock);
    return x11;
}

// Copies the X display's name ("" for $DISPLAY) into name.
static void display_x_name(EGLDisplay dpy, char *name, size_t size) {
    name[0] = 0;
    pthread_mutex_lock(&displays_lock);
    for (int i = 0; i < IP_MAX_DISPLAYS; i++) {
        if (displays[i].dpy == dpy) {
            snprintf(name, size, "%s", displays[i].x_name);
        }
    }
    pthread_mutex_unlock(&displays_lock);
}

static void *display_wayland(EGLDisplay dpy) {
    void *wl = NULL;
    pthread_mutex_lock(&displays_lock);
    for (int i = 0; i < IP_MAX_DISPLAYS; i++) {
        if (displays[i].dpy == dpy) {
            wl = displays[i].wl_display;
        }
    }
    pthread_mutex_unlock(&displays_lock);
    return wl;
}

// --- window surfaces: the X window behind a surface, for input ---

static void surface_seen(EGLDisplay dpy, EGLSurface surface, uintptr_t x_window) {
    if (surface != EGL_NO_SURFACE && x_window && display_x11(dpy)) {
        ip_drawable_set_native(IP_WSI_EGL, dpy, (uintptr_t)surface, x_window);
    }
}

static EGLSurface hook_eglCreateWindowSurface(EGLDisplay dpy, EGLConfig config,
                                              EGLNativeWindowType win, const EGLint *attribs) {
    const struct egl_real *r = egl();
    EGLSurface surface = r->create_window_surface
                             ? r->create_window_surface(dpy, config, win, attribs)
                             : EGL_NO_SURFACE;
    surface_seen(dpy, surface, (uintptr_t)win);
    return surface;
}
IP_EXPORT(eglCreateWindowSurface, hook_eglCreateWindowSurface);

// The platform variants take a pointer to the native window (an X11
// Window * on X11).
static uintptr_t platform_window(EGLDisplay dpy, void *native) {
    return native && display_x11(dpy) ? (uintptr_t) * (unsigned long *)native : 0;
}

static EGLSurface hook_eglCreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config,
                                                      void *native, const EGLAttrib *attribs) {
    const struct egl_real *r = egl();
    EGLSurface surface = r->create_platform_surface
                             ? r->create_platform_surface(dpy, config, native, attribs)
                             : EGL_NO_SURFACE;
    surface_seen(dpy, surface, platform_window(dpy, native));
    return surface;
}
IP_EXPORT(eglCreatePlatformWindowSurface, hook_eglCreatePlatformWindowSurface);

static EGLSurface hook_eglCreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config,
                                                         void *native, const EGLint *attribs) {
    const struct egl_real *r = egl();
    EGLSurface surface = r->create_platform_surface_ext
                             ? r->create_platform_surface_ext(dpy, config, native, attribs)
                             : EGL_NO_SURFACE;
    surface_seen(dpy, surface, platform_window(dpy, native));
    return surface;
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
    void *wl = NULL;
    pthread_mutex_lock(&displays_lock);
    for (int i = 0; i < IP_MAX_DISPLAYS; i++) {
        if (displays[i].dpy == dpy) {
            displays[i].dpy = NULL;
            wl = displays[i].wl_display;
        }
    }
    // Another EGL display on the same connection keeps our objects alive.
    for (int i = 0; i < IP_MAX_DISPLAYS && wl; i++) {
        if (displays[i].dpy && displays[i].wl_display == wl) {
            wl = NULL;
        }
    }
    pthread_mutex_unlock(&displays_lock);
    // Before the program's wl_display_disconnect, which usually follows.
    ip_wayland_display_gone(wl);
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
    IP_HOOK(eglCreateWindowSurface),
    IP_HOOK(eglCreatePlatformWindowSurface),
    IP_HOOK(eglCreatePlatformWindowSurfaceEXT),
    IP_HOOK(eglCreateContext),
    IP_HOOK(eglDestroyContext),
    IP_HOOK(eglDestroySurface),
    IP_HOOK(eglTerminate),
    {NULL, NULL},
};
#undef IP_HOOK
