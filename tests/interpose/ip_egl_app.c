/*
 * ip_egl_app.c - an EGL-on-X11 host program for the interposer tests.
 *
 *   --mode swap    eglGetDisplay, an OpenGL ES 3 context, eglSwapBuffers
 *   --mode damage  eglGetPlatformDisplay(X11), a desktop GL 4.5 core context,
 *                  eglSwapBuffersWithDamageKHR (or EXT) from eglGetProcAddress:
 *                  under glvnd the only way to reach it. The pointer must be
 *                  fxgl's hook; where the display does not offer the
 *                  extension (Mesa on Xvfb) the frames use eglSwapBuffers.
 *   --resize-every yes   a new window size before every frame, checked in it
 *   --requests FILE --requests-mode write|check   X requests per swap on the
 *                  program's connection (see requests_per_swap)
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

// X requests a swap sends on the program's connection, counted by xcb's
// sequence numbers: a GetInputFocus before and after the swap (its reply
// discarded). xcb numbers every request, Mesa's own through xcb included;
// Xlib's XNextRequest would only catch up when Xlib next sends. libX11-xcb
// and libxcb are opened at run time (no development headers needed).
typedef struct {
    unsigned int sequence;
} seq_cookie;
static void *(*get_xcb)(Display *);
static seq_cookie (*get_focus)(void *);
static void (*discard_reply)(void *, unsigned int);

static bool requests_init(void) {
    void *x11_xcb = dlopen("libX11-xcb.so.1", RTLD_NOW);
    void *xcb = dlopen("libxcb.so.1", RTLD_NOW);
    if (!x11_xcb || !xcb) {
        return false;
    }
    get_xcb = (void *(*)(Display *))(uintptr_t)dlsym(x11_xcb, "XGetXCBConnection");
    get_focus = (seq_cookie(*)(void *))(uintptr_t)dlsym(xcb, "xcb_get_input_focus");
    discard_reply = (void (*)(void *, unsigned int))(uintptr_t)dlsym(xcb, "xcb_discard_reply");
    return get_xcb && get_focus && discard_reply;
}

static unsigned int sequence(Display *x) {
    void *c = get_xcb(x);
    seq_cookie k = get_focus(c);
    discard_reply(c, k.sequence);
    return k.sequence;
}

static void *gl_loader(void *user, const char *name) {
    (void)user;
    return (void *)(uintptr_t)eglGetProcAddress(name);
}

int main(int argc, char **argv) {
    bool damage = strcmp(ip_app_arg(argc, argv, "--mode", "swap"), "damage") == 0;
    bool expect = ip_app_expect_mark();
    bool resize_every = strcmp(ip_app_arg(argc, argv, "--resize-every", "no"), "yes") == 0;
    const char *requests = ip_app_arg(argc, argv, "--requests", NULL);
    if (requests && !requests_init()) {
        printf("SKIP: libX11-xcb.so.1 or libxcb.so.1 not available\n");
        return IP_APP_SKIP;
    }
    unsigned int max_requests = 0;
    int w = W, h = H;
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
    for (int i = 0; i < FRAMES * (resize_every ? 4 : 1); i++) {
        if (resize_every && i > 0) {
            // Every frame a new size, checked in that very frame: growing and
            // shrinking in turn, never back to a size fxgl saw just before.
            w += i % 2 ? 20 : -12;
            h += i % 2 ? 14 : -8;
            XResizeWindow(x, win, (unsigned)w, (unsigned)h);
            XSync(x, False);
        }
        ip_app_draw(&app, i, w, h);
        if (i == toggle_at) {
            ip_app_toggle_key(x, true);
        }
        unsigned int before = requests ? sequence(x) : 0;
        if (swap_damage) {
            EGLint rect[4] = {0, 0, w, h};
            IP_APP_CHECK(swap_damage(dpy, surface, rect, 1), "eglSwapBuffersWithDamage failed");
        } else {
            IP_APP_CHECK(eglSwapBuffers(dpy, surface), "eglSwapBuffers failed");
        }
        if (requests && i >= 2) {
            unsigned int sent = sequence(x) - before - 1;
            max_requests = sent > max_requests ? sent : max_requests;
        }
        if (toggle_at >= 0 && i == toggle_at + 1) { // held across two swaps (ip_app.h)
            ip_app_toggle_key(x, false);
        }
        app.gl.Finish();
        ip_app_check_state(&app);
        ip_app_check_window(x, win, i, w, h, expect);
    }
    if (requests) {
        // write: the most any swap sent (a run with FXGL_DISABLE=1: the
        // driver's own); check: no swap may send more.
        bool write = strcmp(ip_app_arg(argc, argv, "--requests-mode", "check"), "write") == 0;
        printf("ip_egl_app: at most %u X requests per swap\n", max_requests);
        FILE *f = fopen(requests, write ? "w" : "r");
        IP_APP_CHECK(f != NULL, "cannot open %s", requests);
        if (f && write) {
            fprintf(f, "%u\n", max_requests);
        } else if (f) {
            unsigned int allowed = 0;
            IP_APP_CHECK(fscanf(f, "%u", &allowed) == 1, "no count in %s", requests);
            IP_APP_CHECK(max_requests <= allowed, "a swap sent %u X requests on the "
                         "program's connection, the driver alone %u", max_requests, allowed);
        }
        if (f) {
            fclose(f);
        }
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
