/*
 * test_input.c - input.c's snapshot against a private Xvfb.
 *
 * The test owns windows on the Xvfb, moves the focus with XSetInputFocus and
 * presses keys and buttons and moves the pointer with XTest, then polls
 * ip_input_poll for a window and compares with what it did: virtual-key
 * codes written out by hand ('A' = 0x41, VK_SHIFT = 0x10, VK_LSHIFT = 0xA0),
 * window-relative pointer positions computed from the window's placement.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_test.h"

static fxgl_test_xvfb xvfb;
static Display *dpy;             // the test's own connection (the "program")
static Window win;               // the presenting window: 200x100 at (20, 10)

#define VK_A 0x41
#define VK_SHIFT 0x10
#define VK_LSHIFT 0xA0

// The actions below first settle fxgl's requests still in flight: the server
// answers two connections in any order, and on a loaded machine an answer
// asked before an action could otherwise describe the state after it.
static Window make_window(Window parent, int x, int y, int w, int h) {
    XSetWindowAttributes wa = {.override_redirect = True};
    Window wnd = XCreateWindow(dpy, parent, x, y, (unsigned)w, (unsigned)h, 0, CopyFromParent,
                               InputOutput, CopyFromParent, CWOverrideRedirect, &wa);
    XMapWindow(dpy, wnd);
    XSync(dpy, False);
    return wnd;
}

static void key(KeySym sym, bool down) {
    ip_input_x11_settle(); // fxgl's requests in flight are answered before the action
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, sym), down, CurrentTime);
    XSync(dpy, False);
}

static void button(unsigned int b, bool down) {
    ip_input_x11_settle(); // fxgl's requests in flight are answered before the action
    XTestFakeButtonEvent(dpy, b, down, CurrentTime);
    XSync(dpy, False);
}

static void pointer_to(int x, int y) {
    ip_input_x11_settle(); // fxgl's requests in flight are answered before the action
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), x, y, CurrentTime);
    XSync(dpy, False);
}

static void focus(Window w) {
    ip_input_x11_settle(); // fxgl's requests in flight are answered before the action
    XSetInputFocus(dpy, w, RevertToNone, CurrentTime);
    XSync(dpy, False);
}

// A poll answers with the state at the previous poll of the same window
// (the requests of one frame are answered at the next): the state after the
// actions above is the second poll's.
static fxgl_input poll_for(ip_input *in, Window w) {
    fxgl_input s;
    ck_assert(ip_input_poll(in, xvfb.display_name, (uint32_t)w, 200, 100, NULL, &s));
    ck_assert(ip_input_poll(in, xvfb.display_name, (uint32_t)w, 200, 100, NULL, &s));
    return s;
}

START_TEST(keys_and_edges) {
    ip_input *in = ip_input_create();
    focus(win);
    fxgl_input s = poll_for(in, win);
    ck_assert(s.has_focus);
    ck_assert(!s.key_down[VK_A]);

    key(XK_a, true);
    s = poll_for(in, win);
    ck_assert(s.key_down[VK_A] && s.key_pressed[VK_A] && !s.key_released[VK_A]);
    s = poll_for(in, win);
    ck_assert(s.key_down[VK_A] && !s.key_pressed[VK_A]); // an edge lasts one frame
    key(XK_a, false);
    s = poll_for(in, win);
    ck_assert(!s.key_down[VK_A] && s.key_released[VK_A] && !s.key_pressed[VK_A]);
    s = poll_for(in, win);
    ck_assert(!s.key_released[VK_A]);

    key(XK_Shift_L, true);
    s = poll_for(in, win);
    ck_assert(s.key_down[VK_SHIFT] && s.key_down[VK_LSHIFT] && !s.key_down[0xA1]);
    key(XK_Shift_L, false);
    // Nothing else is down on a fresh Xvfb.
    s = poll_for(in, win);
    for (int k = 0; k < FXGL_INPUT_KEYS; k++) {
        ck_assert_msg(!s.key_down[k], "VK 0x%02x down", k);
    }
    ip_input_destroy(in);
}
END_TEST

START_TEST(pointer_and_buttons) {
    ip_input *in = ip_input_create();
    focus(win);
    pointer_to(50, 30);
    fxgl_input s = poll_for(in, win);
    ck_assert_float_eq(s.mouse_x, 30.0f); // the window is at (20, 10)
    ck_assert_float_eq(s.mouse_y, 20.0f);
    pointer_to(61, 44);
    s = poll_for(in, win);
    ck_assert_float_eq(s.mouse_dx, 11.0f);
    ck_assert_float_eq(s.mouse_dy, 14.0f);

    button(1, true);
    s = poll_for(in, win);
    ck_assert(s.button_down[0] && s.button_pressed[0] && !s.button_down[1]);
    button(3, true);
    s = poll_for(in, win);
    ck_assert(s.button_down[0] && !s.button_pressed[0] && s.button_down[1] &&
              s.button_pressed[1]);
    button(1, false);
    button(3, false);
    s = poll_for(in, win);
    ck_assert(!s.button_down[0] && s.button_released[0] && s.button_released[1]);
    ck_assert_float_eq(s.wheel_delta, 0.0f); // not observable by polling
    ip_input_destroy(in);
}
END_TEST

START_TEST(focus_rules) {
    ip_input *in = ip_input_create();
    Window other = make_window(DefaultRootWindow(dpy), 400, 300, 50, 50);
    focus(win);
    key(XK_a, true);
    fxgl_input s = poll_for(in, win);
    ck_assert(s.has_focus && s.key_down[VK_A]);
    // Focus elsewhere: keys held are released for us, and not seen.
    focus(other);
    s = poll_for(in, win);
    ck_assert(!s.has_focus);
    ck_assert(!s.key_down[VK_A] && s.key_released[VK_A]);
    key(XK_a, false);

    // A window manager's frame holding the focus counts (the window is its child) ...
    Window frame = make_window(DefaultRootWindow(dpy), 300, 0, 120, 120);
    Window inner = make_window(frame, 10, 10, 100, 100);
    focus(frame);
    ck_assert(poll_for(in, inner).has_focus);
    // ... and so does a child of the window.
    Window child = make_window(win, 5, 5, 20, 20);
    focus(child);
    ck_assert(poll_for(in, win).has_focus);
    ck_assert(!poll_for(in, inner).has_focus);

    // PointerRoot: focus follows the pointer.
    focus(PointerRoot);
    pointer_to(25, 15);
    ck_assert(poll_for(in, win).has_focus);
    pointer_to(600, 500);
    ck_assert(!poll_for(in, win).has_focus);

    // A window that is gone: an error reply, no crash, no focus.
    XDestroyWindow(dpy, child);
    Window dead = inner;
    XDestroyWindow(dpy, frame);
    XSync(dpy, False);
    focus(win);
    s = poll_for(in, dead);
    ck_assert(!s.has_focus);
    XDestroyWindow(dpy, other);
    ip_input_destroy(in);
}
END_TEST

START_TEST(no_window_no_keys) {
    // EGL surfaces: the window is unknown, so keys never count.
    ip_input *in = ip_input_create();
    focus(win);
    key(XK_a, true);
    fxgl_input s;
    ck_assert(ip_input_poll(in, xvfb.display_name, 0, 0, 0, NULL, &s));
    ck_assert(!s.has_focus && !s.key_down[VK_A]);
    key(XK_a, false);
    ip_input_destroy(in);
}
END_TEST

START_TEST(pipelined) {
    // A swap does not wait for the server: each poll takes the answers to the
    // previous poll's requests. A key pressed between two polls shows at the
    // poll after the next one - a poll that asked and waited would see it at
    // once.
    ip_input *in = ip_input_create();
    focus(win);
    fxgl_input s;
    ck_assert(ip_input_poll(in, xvfb.display_name, (uint32_t)win, 200, 100, NULL, &s));
    ck_assert(!s.key_down[VK_A]);
    key(XK_a, true);
    ck_assert(ip_input_poll(in, xvfb.display_name, (uint32_t)win, 200, 100, NULL, &s));
    ck_assert_msg(!s.key_down[VK_A], "the poll waited for an answer to its own request");
    ck_assert(ip_input_poll(in, xvfb.display_name, (uint32_t)win, 200, 100, NULL, &s));
    ck_assert(s.key_down[VK_A] && s.key_pressed[VK_A]);
    key(XK_a, false);
    ip_input_destroy(in);
}
END_TEST

int main(void) {
    char reason[256];
    if (!fxgl_test_xvfb_start(&xvfb, 800, 600, 60000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    dpy = XOpenDisplay(xvfb.display_name);
    int ev, err, major, minor;
    if (!dpy || !XTestQueryExtension(dpy, &ev, &err, &major, &minor)) {
        printf("SKIP: no display or no XTEST extension on %s\n", xvfb.display_name);
        fxgl_test_xvfb_stop(&xvfb);
        return FXGL_TEST_SKIP;
    }
    win = make_window(DefaultRootWindow(dpy), 20, 10, 200, 100);
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("x11");
    tcase_add_test(tc, keys_and_edges);
    tcase_add_test(tc, pointer_and_buttons);
    tcase_add_test(tc, focus_rules);
    tcase_add_test(tc, no_window_no_keys);
    tcase_add_test(tc, pipelined);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK); // the X connection and Xvfb are this process's
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    XCloseDisplay(dpy);
    fxgl_test_xvfb_stop(&xvfb);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
