/*
 * ip_egl_app.c - an EGL-on-X11 host program for the interposer tests.
 *
 *   --mode swap    eglGetDisplay, an OpenGL ES 3 context, eglSwapBuffers
 *   --mode damage  eglGetPlatformDisplay(X11), a desktop GL 4.5 core context,
 *                  eglSwapBuffersWithDamageKHR (or EXT) from eglGetProcAddress:
 *                  under glvnd the only way to reach it. The pointer must be
 *                  fxgl's hook; where the display does not offer the
 *                  extension (Mesa on Xvfb) the frames use eglSwapBuffers.
 * See ip_app.h for the checks.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "ip_app.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "fxgl_gl.h"

#define FRAMES 6
#define W 96
#define H 64

static void *gl_loader(void *user, const char *name) {
    (void)user;
    return (void *)(uintptr_t)eglGetProcAddress(name);
}

int main(int argc, char **argv) {
    bool damage = strcmp(ip_app_arg(argc, argv, "--mode", "swap"), "damage") == 0;
    bool expect = ip_app_expect_mark();
    Display *x = XOpenDisplay(NULL);
    if (!x) {
        printf("SKIP: cannot open display\n");
        return IP_APP_SKIP;
    }
    EGLDisplay dpy = damage ? eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, NULL)
                            : eglGetDisplay((EGLNativeDisplayType)x);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        printf("SKIP: no EGL display on X11\n");
        return IP_APP_SKIP;
    }
    PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC swap_damage = NULL;
    if (damage) {
        swap_damage = (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)eglGetProcAddress(
            "eglSwapBuffersWithDamageKHR");
        if (!swap_damage) {
            swap_damage = (PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC)eglGetProcAddress(
                "eglSwapBuffersWithDamageEXT");
        }
        // Under glvnd only eglGetProcAddress hands it out, so fxgl's hook
        // must come from there.
        Dl_info where;
        bool ours = swap_damage && dladdr((void *)(uintptr_t)swap_damage, &where) &&
                    where.dli_fname && strstr(where.dli_fname, "libfxgl");
        // fxgl hands out its hook whenever it is loaded, drawing or not:
        // IP_APP_EXPECT_HOOK says so for runs where it draws nothing.
        const char *hook_env = getenv("IP_APP_EXPECT_HOOK");
        bool expect_hook = hook_env && hook_env[0] ? hook_env[0] == '1' : expect;
        IP_APP_CHECK(ours == expect_hook, "eglSwapBuffersWithDamageKHR %s fxgl's hook",
                     ours ? "is" : "is not");
        const char *ext = eglQueryString(dpy, EGL_EXTENSIONS);
        if (!ext || !strstr(ext, "_swap_buffers_with_damage")) {
            // Mesa's X11 platform without DRI3 (Xvfb) does not offer it; the
            // frames then go through eglSwapBuffers, still on a GL context.
            printf("note: EGL_KHR/EXT_swap_buffers_with_damage not offered on this display: "
                   "frames use eglSwapBuffers\n");
            swap_damage = NULL;
        }
    }
    if (!eglBindAPI(damage ? EGL_OPENGL_API : EGL_OPENGL_ES_API)) {
        printf("SKIP: eglBindAPI failed\n");
        return IP_APP_SKIP;
    }
    EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
                        damage ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8,
                        EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, attribs, &config, 1, &n) || n == 0) {
        printf("SKIP: no EGL config\n");
        return IP_APP_SKIP;
    }
    EGLint visual_id = 0;
    eglGetConfigAttrib(dpy, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo tmpl = {.visualid = (VisualID)visual_id};
    int nvis = 0;
    XVisualInfo *vi = XGetVisualInfo(x, VisualIDMask, &tmpl, &nvis);
    if (!vi) {
        printf("SKIP: no X visual for the EGL config\n");
        return IP_APP_SKIP;
    }
    Colormap cmap;
    Window win = ip_app_window(x, vi, W, H, &cmap);
    EGLSurface surface = eglCreateWindowSurface(dpy, config, (EGLNativeWindowType)win, NULL);
    EGLint ctx_attribs_gl[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLint ctx_attribs_es[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT,
                                      damage ? ctx_attribs_gl : ctx_attribs_es);
    if (surface == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(dpy, surface, surface, ctx)) {
        printf("SKIP: cannot create an EGL window surface and context\n");
        return IP_APP_SKIP;
    }
    ip_app_gl app;
    fxgl_gl_info info;
    char reason[256];
    if (!fxgl_gl_load(&app.gl, &info, gl_loader, NULL, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return IP_APP_SKIP;
    }
    ip_app_gl_init(&app);
    int toggle_at = atoi(ip_app_arg(argc, argv, "--toggle-at", "-1"));
    if (!ip_app_toggle_setup(x, win, toggle_at)) {
        printf("SKIP: no XTEST extension\n");
        return IP_APP_SKIP;
    }
    for (int f = 0; ip_app_expect_invert() && f < IP_APP_WARMUP_FRAMES; f++) {
        ip_app_draw(&app, 0, W, H);
        eglSwapBuffers(dpy, surface);
        app.gl.Finish();
        if (ip_app_warmup_check(x, win, f, W, H)) {
            break;
        }
    }
    for (int i = 0; i < FRAMES; i++) {
        ip_app_draw(&app, i, W, H);
        if (i == toggle_at) {
            ip_app_toggle_key(x, true);
        }
        if (swap_damage) {
            EGLint rect[4] = {0, 0, W, H};
            IP_APP_CHECK(swap_damage(dpy, surface, rect, 1), "eglSwapBuffersWithDamage failed");
        } else {
            IP_APP_CHECK(eglSwapBuffers(dpy, surface), "eglSwapBuffers failed");
        }
        if (toggle_at >= 0 && i == toggle_at + 1) { // held across two swaps (ip_app.h)
            ip_app_toggle_key(x, false);
        }
        app.gl.Finish();
        ip_app_check_state(&app);
        ip_app_check_window(x, win, i, W, H, expect);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surface);
    eglTerminate(dpy);
    XDestroyWindow(x, win);
    XFreeColormap(x, cmap);
    XFree(vi);
    XCloseDisplay(x);
    return ip_app_exit(argc, argv);
}
