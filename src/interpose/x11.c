/*
 * x11.c - windows the program destroys while it keeps presenting into them.
 *
 * Without fxgl such a program gets the driver's X error at its next swap
 * (Xlib's default handler ends it; a handler of its own lets it go on). With
 * fxgl the frame must not turn that into anything else: not an error of
 * fxgl's own request (glXQueryDrawable) instead of the program's, and never
 * a GL call of ours on a context whose drawable is gone - drivers crash
 * there (NVIDIA inside a timer query). So XDestroyWindow (here) and
 * glXDestroyWindow (glx.c) are hooked: no request of ours, just the XID noted, and
 * glx.c hands the swap of a noted drawable to the driver untouched. The
 * effect runtime stays with its context (still alive) and is released with
 * it, on glXDestroyContext.
 *
 * The last IP_GONE_MAX destroyed XIDs are remembered (a ring): X servers hand
 * out an XID again only after a client has used up its range, long after.
 * Not seen here: a window destroyed with its parent, through xcb, or by
 * another client; those still get fxgl's frame.
 */
#include <X11/Xlib.h>
#include <GL/glx.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

#include "fxgl_interpose.h"

#define IP_GONE_MAX 64

static pthread_mutex_t gone_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t gone[IP_GONE_MAX]; // under gone_lock
static unsigned gone_next;          // under gone_lock
static atomic_uint gone_count;      // a swap checks nothing until one is noted

void ip_x11_note_gone(uintptr_t id) {
    if (!id) {
        return;
    }
    pthread_mutex_lock(&gone_lock);
    gone[gone_next++ % IP_GONE_MAX] = id;
    pthread_mutex_unlock(&gone_lock);
    atomic_fetch_add(&gone_count, 1);
    fxgl_log(FXGL_LOG_DEBUG, "window 0x%lx destroyed: its swaps pass through",
             (unsigned long)id);
}

bool ip_x11_window_gone(uintptr_t id) {
    if (atomic_load_explicit(&gone_count, memory_order_relaxed) == 0) {
        return false;
    }
    bool found = false;
    pthread_mutex_lock(&gone_lock);
    for (int i = 0; i < IP_GONE_MAX && !found; i++) {
        found = gone[i] == id;
    }
    pthread_mutex_unlock(&gone_lock);
    return found;
}

typedef int (*destroy_window_fn)(Display *, Window);

// The real XDestroyWindow: after fxgl in the search order, else in a libX11
// the program opened itself (GLFW 3.4 and SDL2 dlopen it with RTLD_LOCAL
// and reach our hook through dlsym).
static destroy_window_fn real_x_destroy_window;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void real_setup(void) {
    void *p = ip_real_libc_dlsym(RTLD_NEXT, "XDestroyWindow");
    if (!p) {
        ip_dlopen_fn real_dlopen = ip_real_libc_dlopen();
        void *lib = real_dlopen ? real_dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD) : NULL;
        p = lib ? ip_real_libc_dlsym(lib, "XDestroyWindow") : NULL;
    }
    real_x_destroy_window = IP_FN(destroy_window_fn, p);
}

static int hook_XDestroyWindow(Display *dpy, Window window) {
    pthread_once(&real_once, real_setup);
    destroy_window_fn real = real_x_destroy_window;
    ip_x11_note_gone((uintptr_t)window);
    return real ? real(dpy, window) : 0;
}
IP_EXPORT(XDestroyWindow, hook_XDestroyWindow);

#define IP_HOOK(name) {#name, IP_PTR(hook_##name)}
const ip_hook ip_x11_hooks[] = {
    IP_HOOK(XDestroyWindow),
    {NULL, NULL},
};
#undef IP_HOOK
