/*
 * ip_wl_app.c - an EGL-on-Wayland host program for the interposer tests.
 *
 * An xdg-shell toplevel of W x H whose every frame is the same known
 * picture: the left half IP_WL_LEFT, the right half IP_WL_RIGHT (ip_wl.h),
 * drawn with two scissored clears into an opaque (alpha 0) EGL surface, so
 * whatever the compositor shows is exactly what was presented. It keeps
 * presenting until --seconds have passed (or it is killed): the test takes
 * screenshots of the compositor's output meanwhile and never has to race a
 * short-lived client.
 *
 *   --seconds S     how long to keep presenting (default 10)
 *   --get-display   eglGetDisplay(wl_display) instead of (the default,
 *                   also spelt --platform-display)
 *                   eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, ...)
 *   --damage        present with eglSwapBuffersWithDamageKHR/EXT (the whole
 *                   surface as damage) from eglGetProcAddress, and say
 *                   whether that pointer is fxgl's hook
 *
 * Prints "presenting WxH" after the first swap. Exit status 0, or 77 when
 * something it needs is missing (no compositor, no xdg_wm_base, no EGL).
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <wayland-client.h>
#include <wayland-egl.h>

#include "ip_wl.h"
#include "xdg-shell-client-protocol.h"

#define SKIP 77

static struct wl_compositor *compositor;
static struct xdg_wm_base *wm_base;
static bool configured;

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
                            const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_compositor_interface.name) == 0) {
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
    } else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
        wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
    }
    (void)version;
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

static void wm_base_ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
    (void)data;
    xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void xdg_surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
    (void)data;
    xdg_surface_ack_configure(surface, serial);
    configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

// The size the shell asks for is ignored: the picture stays W x H (a
// fullscreen shell centres a smaller surface).
static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width,
                               int32_t height, struct wl_array *states) {
    (void)data;
    (void)toplevel;
    (void)width;
    (void)height;
    (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
    (void)data;
    (void)toplevel;
}

static const struct xdg_toplevel_listener toplevel_listener = {
    .configure = toplevel_configure,
    .close = toplevel_close,
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool has_arg(int argc, char **argv, const char *name) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], name) == 0) {
            return true;
        }
    }
    return false;
}

// An opaque RGB888 config: with alpha the compositor would blend.
static bool choose_config(EGLDisplay dpy, EGLConfig *out) {
    EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
                        EGL_OPENGL_ES2_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                        EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig configs[64];
    EGLint n = 0;
    if (!eglChooseConfig(dpy, attribs, configs, 64, &n) || n == 0) {
        return false;
    }
    for (EGLint i = 0; i < n; i++) {
        EGLint alpha = -1;
        eglGetConfigAttrib(dpy, configs[i], EGL_ALPHA_SIZE, &alpha);
        if (alpha == 0) {
            *out = configs[i];
            return true;
        }
    }
    *out = configs[0]; // alpha then stays 1.0 in every pixel we draw
    return true;
}

static void draw(void) {
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, IP_WL_W, IP_WL_H);
    glClearColor(IP_WL_RIGHT_R / 255.0f, IP_WL_RIGHT_G / 255.0f, IP_WL_RIGHT_B / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, IP_WL_W / 2, IP_WL_H);
    glClearColor(IP_WL_LEFT_R / 255.0f, IP_WL_LEFT_G / 255.0f, IP_WL_LEFT_B / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    // A trap for the hook: scissor left on with an odd box.
    glScissor(1, 2, 3, 4);
}

int main(int argc, char **argv) {
    double seconds = 10;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0) {
            seconds = atof(argv[i + 1]);
        }
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        printf("SKIP: no Wayland compositor ($WAYLAND_DISPLAY)\n");
        return SKIP;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!compositor || !wm_base) {
        printf("SKIP: the compositor offers no wl_compositor or xdg_wm_base\n");
        return SKIP;
    }
    xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
    struct wl_surface *surface = wl_compositor_create_surface(compositor);
    struct xdg_surface *xsurface = xdg_wm_base_get_xdg_surface(wm_base, surface);
    xdg_surface_add_listener(xsurface, &xdg_surface_listener, NULL);
    struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xsurface);
    xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
    xdg_toplevel_set_title(toplevel, "ip_wl_app");
    wl_surface_commit(surface);
    while (!configured && wl_display_dispatch(display) >= 0) {
    }

    EGLDisplay dpy = has_arg(argc, argv, "--get-display")
                         ? eglGetDisplay((EGLNativeDisplayType)display)
                         : eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, display, NULL);
    EGLConfig config;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) ||
        !eglBindAPI(EGL_OPENGL_ES_API) || !choose_config(dpy, &config)) {
        printf("SKIP: no EGL on this Wayland display\n");
        return SKIP;
    }
    struct wl_egl_window *native = wl_egl_window_create(surface, IP_WL_W, IP_WL_H);
    EGLSurface esurf = eglCreateWindowSurface(dpy, config, (EGLNativeWindowType)native, NULL);
    // GLES 3: fxgl's minimum for running effects.
    EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (esurf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, esurf, esurf, ctx)) {
        printf("SKIP: cannot create an EGL window surface and a GLES 3 context\n");
        return SKIP;
    }
    PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC swap_damage = NULL;
    if (has_arg(argc, argv, "--damage")) {
        swap_damage = (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)eglGetProcAddress(
            "eglSwapBuffersWithDamageKHR");
        if (!swap_damage) {
            swap_damage = (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)eglGetProcAddress(
                "eglSwapBuffersWithDamageEXT");
        }
        Dl_info where;
        bool ours = swap_damage && dladdr((void *)(uintptr_t)swap_damage, &where) &&
                    where.dli_fname && strstr(where.dli_fname, "libfxgl");
        const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
        bool offered = ext && strstr(ext, "_swap_buffers_with_damage");
        printf("damage swap: offered %s, pointer is fxgl's hook: %s\n", offered ? "yes" : "no",
               ours ? "yes" : "no");
        if (!offered) {
            swap_damage = NULL;
        }
    }
    double end = now_s() + seconds;
    for (int frame = 0; now_s() < end; frame++) {
        draw();
        EGLBoolean ok;
        if (swap_damage) {
            EGLint rect[4] = {0, 0, IP_WL_W, IP_WL_H};
            ok = swap_damage(dpy, esurf, rect, 1);
        } else {
            ok = eglSwapBuffers(dpy, esurf);
        }
        if (!ok) {
            fprintf(stderr, "ip_wl_app: swap failed (0x%x)\n", (unsigned)eglGetError());
            return 1;
        }
        if (frame == 0) {
            printf("presenting %dx%d\n", IP_WL_W, IP_WL_H);
            fflush(stdout);
        }
        // Pings and configures; the swap (interval 1) already waits for the
        // compositor's frame callback.
        wl_display_dispatch_pending(display);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, esurf);
    eglTerminate(dpy);
    wl_egl_window_destroy(native);
    xdg_toplevel_destroy(toplevel);
    xdg_surface_destroy(xsurface);
    wl_surface_destroy(surface);
    wl_display_disconnect(display);
    return 0;
}
