/*
 * test_smoke_glx.c - GLX under a private Xvfb: a window, a GL context, a
 * clear and a scissored clear, then the presented window contents read back
 * with XGetImage, the way integration tests will read what a program showed.
 *
 * Expected pixels are the clear colours, converted to 8 bits here.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "fxgl_test.h"

#define W 96
#define H 64

static fxgl_test_xvfb xvfb;

static void *glx_proc(void *user, const char *name) {
    (void)user;
    void (*f)(void) = glXGetProcAddressARB((const GLubyte *)name);
    void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

static int unorm8(double c) {
    return (int)floor(c * 255.0 + 0.5);
}

START_TEST(glx_window_presents) {
    Display *dpy = XOpenDisplay(xvfb.display_name);
    ck_assert_msg(dpy != NULL, "cannot open display %s", xvfb.display_name);
    int attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                     GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                     GLX_BLUE_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    ck_assert_msg(configs && n > 0, "no GLX framebuffer config");
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, configs[0]);
    ck_assert(vi != NULL);
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = {
        .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone),
        .event_mask = ExposureMask,
    };
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap | CWEventMask, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);

    typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool,
                                            const int *);
    create_attribs_fn create = (create_attribs_fn)glXGetProcAddressARB(
        (const GLubyte *)"glXCreateContextAttribsARB");
    ck_assert_msg(create != NULL, "GLX_ARB_create_context missing");
    int ctx_attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
                         GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    GLXContext ctx = create(dpy, configs[0], NULL, True, ctx_attribs);
    ck_assert_msg(ctx != NULL, "glXCreateContextAttribsARB(4.5 core) failed");
    ck_assert(glXMakeCurrent(dpy, win, ctx));
    fxgl_test_pin_drivers();

    GladGLContext gl;
    fxgl_gl_info info;
    char reason[256];
    ck_assert_msg(fxgl_gl_load(&gl, &info, glx_proc, NULL, reason, sizeof(reason)), "%s",
                  reason);
    ck_assert_int_eq(info.api, FXGL_API_GL);
    ck_assert(info.core_profile);

    gl.Viewport(0, 0, W, H);
    gl.ClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    // The left half (GL x < W/2) gets a second colour through the scissor.
    gl.Enable(GL_SCISSOR_TEST);
    gl.Scissor(0, 0, W / 2, H);
    gl.ClearColor(1.0f, 0.0f, 0.5f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Disable(GL_SCISSOR_TEST);
    ck_assert_int_eq(gl.GetError(), GL_NO_ERROR);
    glXSwapBuffers(dpy, win);
    gl.Finish();

    XImage *ximg = XGetImage(dpy, win, 0, 0, W, H, AllPlanes, ZPixmap);
    ck_assert(ximg != NULL);
    for (int y = 0; y < H; y += 7) {
        for (int x = 0; x < W; x += 5) {
            unsigned long px = XGetPixel(ximg, x, y);
            int r = (int)((px & ximg->red_mask) >> 16);
            int g = (int)((px & ximg->green_mask) >> 8);
            int b = (int)(px & ximg->blue_mask);
            bool left = x < W / 2;
            ck_assert_int_eq(r, unorm8(left ? 1.0 : 0.2));
            ck_assert_int_eq(g, unorm8(left ? 0.0 : 0.4));
            ck_assert_int_eq(b, unorm8(left ? 0.5 : 0.6));
        }
    }
    XDestroyImage(ximg);
    printf("smoke: GLX %d.%d on %s under Xvfb %s\n", info.major, info.minor, info.renderer,
           xvfb.display_name);

    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vi);
    XFree(configs);
    XCloseDisplay(dpy);
}
END_TEST

int main(void) {
    char reason[256];
    if (!fxgl_test_xvfb_start(&xvfb, 640, 480, 60000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("smoke_glx");
    TCase *tc = tcase_create("glx");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, glx_window_presents);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    // No fork: the X connection and Xvfb belong to this process.
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    fxgl_test_xvfb_stop(&xvfb);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
