/*
 * ip_damage_shim.c - a stand-in for an EGL driver that offers
 * EGL_KHR_swap_buffers_with_damage, for the damage test: Mesa offers it on
 * neither Xvfb nor a software-rendered Wayland surface, so what fxgl hands
 * the driver's damage swap cannot be seen there.
 *
 * Preloaded after libfxgl.so, it is the "next" eglGetProcAddress and
 * eglQueryString fxgl and the program find: it names the extension in the
 * display's extension string and hands out its own
 * eglSwapBuffersWithDamageKHR/EXT, which records the rectangle count it is
 * given and presents through the real eglSwapBuffers. At exit it prints its
 * counts; IP_DAMAGE_EXPECT says what they must be, else it exits 3:
 *   whole  - at least one damage swap, and the last one with no rectangle
 *            (the whole surface: what fxgl must pass once it draws)
 *   kept   - at least one damage swap, every one with the program's rectangles
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <EGL/egl.h>

#define EXPORT __attribute__((visibility("default")))

typedef EGLBoolean (*swap_fn)(EGLDisplay, EGLSurface);
typedef const char *(*query_string_fn)(EGLDisplay, EGLint);
typedef void (*(*gpa_fn)(const char *))(void);

static int swaps, whole;
static EGLint last_count = -1;

static EGLBoolean shim_swap_damage(EGLDisplay dpy, EGLSurface surface, const EGLint *rects,
                                   EGLint n_rects) {
    static swap_fn next;
    if (!next) {
        next = (swap_fn)dlsym(RTLD_NEXT, "eglSwapBuffers");
    }
    (void)rects;
    swaps++;
    whole += n_rects == 0;
    last_count = n_rects;
    return next ? next(dpy, surface) : EGL_FALSE;
}

EXPORT void (*eglGetProcAddress(const char *name))(void) {
    if (strcmp(name, "eglSwapBuffersWithDamageKHR") == 0 ||
        strcmp(name, "eglSwapBuffersWithDamageEXT") == 0) {
        return (void (*)(void))shim_swap_damage;
    }
    static gpa_fn next;
    if (!next) {
        next = (gpa_fn)dlsym(RTLD_NEXT, "eglGetProcAddress");
    }
    return next ? next(name) : NULL;
}

EXPORT const char *eglQueryString(EGLDisplay dpy, EGLint name) {
    static query_string_fn next;
    static char extended[8192];
    if (!next) {
        next = (query_string_fn)dlsym(RTLD_NEXT, "eglQueryString");
    }
    const char *s = next ? next(dpy, name) : NULL;
    if (s && name == EGL_EXTENSIONS && dpy != EGL_NO_DISPLAY) {
        snprintf(extended, sizeof(extended), "%s EGL_KHR_swap_buffers_with_damage", s);
        return extended;
    }
    return s;
}

__attribute__((destructor)) static void check_counts(void) {
    const char *want = getenv("IP_DAMAGE_EXPECT");
    fprintf(stderr, "ip_damage_shim: %d damage swaps, %d of the whole surface, last with %d "
            "rectangle(s)\n", swaps, whole, (int)last_count);
    if (!want) {
        return;
    }
    bool ok = swaps > 0 && (strcmp(want, "whole") == 0 ? last_count == 0 : whole == 0);
    if (!ok) {
        fprintf(stderr, "ip_damage_shim: want %s\n", want);
        _exit(3);
    }
}
