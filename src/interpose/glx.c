/*
 * glx.c - the GLX hooks: swaps, lookups, and the context lifecycle.
 *
 * Every hook has one shape: find the real function (the chain, so an
 * interposer preloaded after fxgl still runs), do our part, call it. Hooks
 * are static; the exported names are aliases of them (IP_EXPORT), and the
 * table at the end hands out the static addresses, which no other library
 * can interpose. Calling our own export by name would bind to whoever is
 * first in the preload order and could come back here.
 *
 * Swaps re-entered on one thread (two interposers that found each other as
 * "real") go straight to libGLX and skip the frame, so a cycle costs one
 * extra call instead of a hang.
 *
 * A swap that reaches the driver without passing any of these hooks (another
 * interposer preloaded first calls libGLX directly) is caught one level
 * lower, in vendor.c, which calls ip_glx_vendor_swap: the frame runs there
 * exactly when it did not run here.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <GL/glx.h>

#include "fxgl_interpose.h"

typedef void (*swap_fn)(Display *, GLXDrawable);
typedef int64_t (*swap_msc_fn)(Display *, GLXDrawable, int64_t, int64_t, int64_t);
typedef __GLXextFuncPtr (*gpa_fn)(const GLubyte *);
typedef void (*destroy_ctx_fn)(Display *, GLXContext);
typedef GLXContext (*create_ctx_fn)(Display *, XVisualInfo *, GLXContext, Bool);
typedef GLXContext (*create_new_ctx_fn)(Display *, GLXFBConfig, int, GLXContext, Bool);
typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
typedef GLXPbuffer (*create_pbuffer_fn)(Display *, GLXFBConfig, const int *);
typedef void (*destroy_pbuffer_fn)(Display *, GLXPbuffer);
typedef GLXContext (*get_ctx_fn)(void);
typedef GLXDrawable (*get_drawable_fn)(void);
typedef void (*query_drawable_fn)(Display *, GLXDrawable, int, unsigned int *);
typedef GLXWindow (*create_window_fn)(Display *, GLXFBConfig, Window, const int *);
typedef void (*destroy_window_fn)(Display *, GLXWindow);

// The real functions, resolved once: process-wide, immutable afterwards.
static struct glx_real {
    swap_fn swap;                // chain
    swap_fn swap_terminal;
    swap_msc_fn swap_msc;
    swap_msc_fn swap_msc_terminal;
    gpa_fn gpa;
    gpa_fn gpa_arb;
    destroy_ctx_fn destroy_context;
    create_ctx_fn create_context;
    create_new_ctx_fn create_new_context;
    create_attribs_fn create_context_attribs;
    create_pbuffer_fn create_pbuffer;
    destroy_pbuffer_fn destroy_pbuffer;
    get_ctx_fn get_current_context;
    get_drawable_fn get_current_drawable;
    query_drawable_fn query_drawable;
    create_window_fn create_window;
    destroy_window_fn destroy_window;
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

// Depth of swap hooks on this thread (see the file comment).
static _Thread_local int swap_depth;

static void real_setup(void) {
    real.swap = IP_FN(swap_fn, ip_real_glx_chain("glXSwapBuffers"));
    real.swap_terminal = IP_FN(swap_fn, ip_real_glx_terminal("glXSwapBuffers"));
    real.swap_msc = IP_FN(swap_msc_fn, ip_real_glx_chain("glXSwapBuffersMscOML"));
    real.swap_msc_terminal = IP_FN(swap_msc_fn, ip_real_glx_terminal("glXSwapBuffersMscOML"));
    real.gpa = IP_FN(gpa_fn, ip_real_glx_chain("glXGetProcAddress"));
    real.gpa_arb = IP_FN(gpa_fn, ip_real_glx_chain("glXGetProcAddressARB"));
    real.destroy_context = IP_FN(destroy_ctx_fn, ip_real_glx_chain("glXDestroyContext"));
    real.create_context = IP_FN(create_ctx_fn, ip_real_glx_chain("glXCreateContext"));
    real.create_new_context = IP_FN(create_new_ctx_fn, ip_real_glx_chain("glXCreateNewContext"));
    real.create_context_attribs =
        IP_FN(create_attribs_fn, ip_real_glx_chain("glXCreateContextAttribsARB"));
    real.create_pbuffer = IP_FN(create_pbuffer_fn, ip_real_glx_chain("glXCreatePbuffer"));
    real.destroy_pbuffer = IP_FN(destroy_pbuffer_fn, ip_real_glx_chain("glXDestroyPbuffer"));
    real.create_window = IP_FN(create_window_fn, ip_real_glx_chain("glXCreateWindow"));
    real.destroy_window = IP_FN(destroy_window_fn, ip_real_glx_chain("glXDestroyWindow"));
    // Queries never need another interposer: take them from libGLX itself.
    real.get_current_context =
        IP_FN(get_ctx_fn, ip_real_glx_terminal("glXGetCurrentContext"));
    real.get_current_drawable =
        IP_FN(get_drawable_fn, ip_real_glx_terminal("glXGetCurrentDrawable"));
    real.query_drawable = IP_FN(query_drawable_fn, ip_real_glx_terminal("glXQueryDrawable"));
}

static const struct glx_real *glx(void) {
    pthread_once(&real_once, real_setup);
    return &real;
}

// --- the frame ---

static void before_swap(Display *dpy, GLXDrawable drawable) {
    if (ip_config_get()->disabled) {
        return;
    }
    // A window the program destroyed (x11.c): the driver reports the swap as
    // it would without fxgl; no request and no GL call of ours before it.
    if (ip_x11_window_gone((uintptr_t)drawable)) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "swap of a destroyed window: passed to the driver");
        return;
    }
    const struct glx_real *r = glx();
    if (!r->get_current_context || !r->get_current_drawable || !r->query_drawable) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "GLX query functions missing: frames pass through");
        return;
    }
    GLXContext ctx = r->get_current_context();
    if (!ctx) {
        FXGL_LOG_ONCE(FXGL_LOG_DEBUG, "glXSwapBuffers without a current context: passed through");
        return;
    }
    // Only the current drawable can be drawn into with the current context.
    if (r->get_current_drawable() != drawable) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "swap of a drawable that is not current: passed through");
        return;
    }
    // The size from the window's events on fxgl's own connection: no round
    // trip on the program's connection at each swap (input.c). Only what
    // cannot be watched is asked for here, every frame.
    int w = 0, h = 0;
    // A GLXWindow (glXCreateWindow: GLFW's way) is followed through its X window.
    uintptr_t window = ip_drawable_native(IP_WSI_GLX, dpy, drawable);
    if (!ip_x11_window_size(DisplayString(dpy), (uint32_t)(window ? window : drawable), &w,
                            &h)) {
        unsigned int qw = 0, qh = 0;
        r->query_drawable(dpy, drawable, GLX_WIDTH, &qw);
        r->query_drawable(dpy, drawable, GLX_HEIGHT, &qh);
        w = (int)qw;
        h = (int)qh;
    }
    ip_drawable_state state = ip_drawable_swap(IP_WSI_GLX, dpy, drawable, w, h);
    ip_slot *slot = ip_slot_acquire(IP_WSI_GLX, dpy, ctx);
    if (!slot) {
        return;
    }
    ip_frame(&(ip_frame_desc){
        .wsi = IP_WSI_GLX,
        .runtime = ip_slot_runtime(slot),
        .drawable = state,
        .context = ctx,
        .x_display = DisplayString(dpy),
        .x_window = (uint32_t)(window ? window : drawable),
    });
    ip_slot_release(slot);
}

void ip_glx_vendor_swap(void *dpy, unsigned long drawable) {
    // Our exported hook on this thread's stack has run the frame already
    // (or is running it): this is the same frame on its way to the driver.
    if (swap_depth > 0) {
        return;
    }
    swap_depth++;
    before_swap(dpy, drawable);
    swap_depth--;
}

static void hook_glXSwapBuffers(Display *dpy, GLXDrawable drawable) {
    const struct glx_real *r = glx();
    if (swap_depth > 0) {
        if (r->swap_terminal) {
            r->swap_terminal(dpy, drawable);
        }
        return;
    }
    if (!r->swap) {
        FXGL_LOG_ONCE(FXGL_LOG_ERROR, "no real glXSwapBuffers: the frame is dropped");
        return;
    }
    swap_depth++;
    before_swap(dpy, drawable);
    r->swap(dpy, drawable);
    swap_depth--;
}
IP_EXPORT(glXSwapBuffers, hook_glXSwapBuffers);

static int64_t hook_glXSwapBuffersMscOML(Display *dpy, GLXDrawable drawable, int64_t target_msc,
                                         int64_t divisor, int64_t remainder) {
    const struct glx_real *r = glx();
    if (swap_depth > 0) {
        return r->swap_msc_terminal
                   ? r->swap_msc_terminal(dpy, drawable, target_msc, divisor, remainder)
                   : 0;
    }
    if (!r->swap_msc) {
        FXGL_LOG_ONCE(FXGL_LOG_ERROR, "no real glXSwapBuffersMscOML: the frame is dropped");
        return 0;
    }
    swap_depth++;
    before_swap(dpy, drawable);
    int64_t result = r->swap_msc(dpy, drawable, target_msc, divisor, remainder);
    swap_depth--;
    return result;
}
IP_EXPORT(glXSwapBuffersMscOML, hook_glXSwapBuffersMscOML);

// --- lookups ---

static __GLXextFuncPtr lookup(gpa_fn real_gpa, const GLubyte *name, const void *caller) {
    void *p = real_gpa ? IP_PTR(real_gpa(name)) : NULL;
    return IP_FN(__GLXextFuncPtr, ip_dlsym_substitute((const char *)name, p, caller));
}

static __GLXextFuncPtr hook_glXGetProcAddressARB(const GLubyte *name) {
    return lookup(glx()->gpa_arb, name, __builtin_return_address(0));
}
IP_EXPORT(glXGetProcAddressARB, hook_glXGetProcAddressARB);

static __GLXextFuncPtr hook_glXGetProcAddress(const GLubyte *name) {
    const struct glx_real *r = glx();
    return lookup(r->gpa ? r->gpa : r->gpa_arb, name, __builtin_return_address(0));
}
IP_EXPORT(glXGetProcAddress, hook_glXGetProcAddress);

// --- contexts and drawables ---

static GLXContext hook_glXCreateContext(Display *dpy, XVisualInfo *vis, GLXContext share,
                                        Bool direct) {
    const struct glx_real *r = glx();
    GLXContext ctx = r->create_context ? r->create_context(dpy, vis, share, direct) : NULL;
    if (ctx) {
        ip_context_created(IP_WSI_GLX, dpy, ctx, share);
    }
    return ctx;
}
IP_EXPORT(glXCreateContext, hook_glXCreateContext);

static GLXContext hook_glXCreateNewContext(Display *dpy, GLXFBConfig config, int render_type,
                                           GLXContext share, Bool direct) {
    const struct glx_real *r = glx();
    GLXContext ctx = r->create_new_context
                         ? r->create_new_context(dpy, config, render_type, share, direct)
                         : NULL;
    if (ctx) {
        ip_context_created(IP_WSI_GLX, dpy, ctx, share);
    }
    return ctx;
}
IP_EXPORT(glXCreateNewContext, hook_glXCreateNewContext);

static GLXContext hook_glXCreateContextAttribsARB(Display *dpy, GLXFBConfig config,
                                                  GLXContext share, Bool direct,
                                                  const int *attribs) {
    const struct glx_real *r = glx();
    GLXContext ctx = r->create_context_attribs
                         ? r->create_context_attribs(dpy, config, share, direct, attribs)
                         : NULL;
    if (ctx) {
        ip_context_created(IP_WSI_GLX, dpy, ctx, share);
    }
    return ctx;
}
IP_EXPORT(glXCreateContextAttribsARB, hook_glXCreateContextAttribsARB);

static void hook_glXDestroyContext(Display *dpy, GLXContext ctx) {
    const struct glx_real *r = glx();
    if (ctx) {
        bool current = r->get_current_context && r->get_current_context() == ctx;
        ip_context_destroyed(IP_WSI_GLX, dpy, ctx, current);
    }
    if (r->destroy_context) {
        r->destroy_context(dpy, ctx);
    }
}
IP_EXPORT(glXDestroyContext, hook_glXDestroyContext);

// A pbuffer is offscreen: nothing is presented, so its swaps are left alone.
// GLX cannot tell a pbuffer from a window by its id, hence this record.
static GLXPbuffer hook_glXCreatePbuffer(Display *dpy, GLXFBConfig config, const int *attribs) {
    const struct glx_real *r = glx();
    GLXPbuffer pbuffer = r->create_pbuffer ? r->create_pbuffer(dpy, config, attribs) : 0;
    if (pbuffer) {
        ip_drawable_set_pbuffer(IP_WSI_GLX, dpy, pbuffer);
    }
    return pbuffer;
}
IP_EXPORT(glXCreatePbuffer, hook_glXCreatePbuffer);

static void hook_glXDestroyPbuffer(Display *dpy, GLXPbuffer pbuffer) {
    const struct glx_real *r = glx();
    ip_drawable_forget(IP_WSI_GLX, dpy, pbuffer);
    if (r->destroy_pbuffer) {
        r->destroy_pbuffer(dpy, pbuffer);
    }
}
IP_EXPORT(glXDestroyPbuffer, hook_glXDestroyPbuffer);

// A GLXWindow's id is no X window: its size is followed through the X
// window it was made for, recorded here.
static GLXWindow hook_glXCreateWindow(Display *dpy, GLXFBConfig config, Window win,
                                      const int *attribs) {
    const struct glx_real *r = glx();
    GLXWindow window = r->create_window ? r->create_window(dpy, config, win, attribs) : 0;
    if (window) {
        ip_drawable_set_native(IP_WSI_GLX, dpy, window, win);
    }
    return window;
}
IP_EXPORT(glXCreateWindow, hook_glXCreateWindow);

static void hook_glXDestroyWindow(Display *dpy, GLXWindow window) {
    const struct glx_real *r = glx();
    ip_x11_note_gone((uintptr_t)window); // its swaps pass through from now on
    ip_drawable_forget(IP_WSI_GLX, dpy, window);
    if (r->destroy_window) {
        r->destroy_window(dpy, window);
    }
}
IP_EXPORT(glXDestroyWindow, hook_glXDestroyWindow);

#define IP_HOOK(name) {#name, IP_PTR(hook_##name)}
const ip_hook ip_glx_hooks[] = {
    IP_HOOK(glXSwapBuffers),
    IP_HOOK(glXSwapBuffersMscOML),
    IP_HOOK(glXGetProcAddress),
    IP_HOOK(glXGetProcAddressARB),
    IP_HOOK(glXCreateContext),
    IP_HOOK(glXCreateNewContext),
    IP_HOOK(glXCreateContextAttribsARB),
    IP_HOOK(glXDestroyContext),
    IP_HOOK(glXCreatePbuffer),
    IP_HOOK(glXDestroyPbuffer),
    IP_HOOK(glXCreateWindow),
    IP_HOOK(glXDestroyWindow),
    {NULL, NULL},
};
#undef IP_HOOK
