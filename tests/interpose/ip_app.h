/*
 * ip_app.h - what the small host programs of the interposer tests share.
 *
 * Each program draws a known frame (two scissored clears), leaves GL state
 * behind that a careless hook would trip over (a user FBO bound for
 * drawing, scissor on with an odd box, a 1x1 viewport, a clear colour),
 * swaps, checks that state survived the swap, then reads the presented
 * window back with XGetImage and compares every pixel with the frame it
 * drew, computed here. The 8x8 top-left corner must be fxgl's test mark
 * (magenta) when FXGL_TEST_EXPECT_MARK=1, and the frame itself otherwise,
 * so a run without fxgl and a run with it agree everywhere else.
 * FXGL_TEST_EXPECT_INVERT=1: the test preset's Invert.fx runs, so every
 * pixel but the mark must be 255 minus the frame's.
 *
 * Exit status: 0 (or --exit N) when every check held, 1 on a failure, 77
 * when something the program needs is missing.
 */
#ifndef IP_APP_H
#define IP_APP_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <glad/gl.h>

#define IP_APP_SKIP 77
#define IP_APP_MARK 8

typedef struct ip_app_rgb {
    int r, g, b;
} ip_app_rgb;

typedef struct ip_app_gl {
    GladGLContext gl;
    GLuint fbo;                  // the app's own framebuffer, left bound at swap
    GLuint rbo;
} ip_app_gl;

static int ip_app_failures;
// Frames from this one on are expected without the inversion (a toggle key
// switched Invert.fx off there); -1: never.
static int ip_app_invert_until = -1;
// A frame whose inversion may go either way (the toggle's first frame; see
// ip_app_toggle_setup), or -1.
static int ip_app_either_frame = -1;

#define IP_APP_CHECK(cond, ...)                                                          \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s: FAIL %s:%d: ", program_invocation_short_name, __FILE__, \
                    __LINE__);                                                           \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
            ip_app_failures++;                                                           \
        }                                                                                \
    } while (0)

static inline bool ip_app_expect_mark(void) {
    const char *v = getenv("FXGL_TEST_EXPECT_MARK");
    return v && strcmp(v, "1") == 0;
}

// The left-half colour of frame i (so consecutive frames differ) and the right half.
static inline ip_app_rgb ip_app_left(int frame) {
    return (ip_app_rgb){(frame * 40) % 200 + 20, 60, 100};
}
static inline ip_app_rgb ip_app_right(void) {
    return (ip_app_rgb){30, 200, 90};
}

static inline void ip_app_gl_init(ip_app_gl *a) {
    GladGLContext *gl = &a->gl;
    gl->GenFramebuffers(1, &a->fbo);
    gl->GenRenderbuffers(1, &a->rbo);
    gl->BindRenderbuffer(GL_RENDERBUFFER, a->rbo);
    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
    gl->BindFramebuffer(GL_FRAMEBUFFER, a->fbo);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, a->rbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
}

// Draws frame i into the default framebuffer and leaves the trap state set.
static inline void ip_app_draw(ip_app_gl *a, int frame, int w, int h) {
    GladGLContext *gl = &a->gl;
    ip_app_rgb l = ip_app_left(frame), r = ip_app_right();
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->Viewport(0, 0, w, h);
    gl->Disable(GL_SCISSOR_TEST);
    gl->ClearColor(r.r / 255.0f, r.g / 255.0f, r.b / 255.0f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    gl->Enable(GL_SCISSOR_TEST);
    gl->Scissor(0, 0, w / 2, h);
    gl->ClearColor(l.r / 255.0f, l.g / 255.0f, l.b / 255.0f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    // The traps: state an app may well leave behind at swap time.
    gl->Scissor(1, 2, 3, 4);
    gl->ClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    gl->Viewport(0, 0, 1, 1);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, a->fbo);
}

// After the swap: the trap state is exactly as the app left it.
static inline void ip_app_check_state(ip_app_gl *a) {
    GladGLContext *gl = &a->gl;
    GLint fb = -1, box[4] = {0}, vp[4] = {0};
    GLfloat cc[4] = {0};
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fb);
    gl->GetIntegerv(GL_SCISSOR_BOX, box);
    gl->GetIntegerv(GL_VIEWPORT, vp);
    gl->GetFloatv(GL_COLOR_CLEAR_VALUE, cc);
    GLboolean mask[4] = {0};
    gl->GetBooleanv(GL_COLOR_WRITEMASK, mask);
    IP_APP_CHECK(fb == (GLint)a->fbo, "draw framebuffer %d after swap, app had %u", fb, a->fbo);
    IP_APP_CHECK(gl->IsEnabled(GL_SCISSOR_TEST), "scissor test turned off by the swap");
    IP_APP_CHECK(box[0] == 1 && box[1] == 2 && box[2] == 3 && box[3] == 4,
                 "scissor box %d,%d,%d,%d after swap", box[0], box[1], box[2], box[3]);
    IP_APP_CHECK(vp[2] == 1 && vp[3] == 1, "viewport %dx%d after swap", vp[2], vp[3]);
    IP_APP_CHECK(cc[0] == 0.25f && cc[1] == 0.5f && cc[2] == 0.75f, "clear colour changed");
    IP_APP_CHECK(mask[0] && mask[1] && mask[2] && mask[3], "colour mask changed");
    IP_APP_CHECK(gl->GetError() == GL_NO_ERROR, "a GL error after the swap");
}

// Reads the presented window and compares it with frame i.
static inline void ip_app_check_window(Display *dpy, Window win, int frame, int w, int h,
                                       bool expect_mark) {
    XSync(dpy, False);
    XImage *img = XGetImage(dpy, win, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    IP_APP_CHECK(img != NULL, "XGetImage failed");
    if (!img) {
        return;
    }
    ip_app_rgb l = ip_app_left(frame), r = ip_app_right();
    const char *inv = getenv("FXGL_TEST_EXPECT_INVERT");
    bool inverted = inv && strcmp(inv, "1") == 0 &&
                    (ip_app_invert_until < 0 || frame < ip_app_invert_until);
    if (inv && strcmp(inv, "1") == 0 && frame == ip_app_either_frame) {
        // Either state is right here: take the one the top-right pixel shows.
        unsigned long px = XGetPixel(img, w - 1, 0);
        inverted = abs((int)((px >> 16) & 0xff) - (255 - r.r)) <= 1;
    }
    if (inverted) {
        l = (ip_app_rgb){255 - l.r, 255 - l.g, 255 - l.b};
        r = (ip_app_rgb){255 - r.r, 255 - r.g, 255 - r.b};
    }
    int bad = 0, marked = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned long px = XGetPixel(img, x, y);
            ip_app_rgb got = {(int)((px >> 16) & 0xff), (int)((px >> 8) & 0xff),
                              (int)(px & 0xff)};
            bool in_mark = x < IP_APP_MARK && y < IP_APP_MARK;
            ip_app_rgb want = x < w / 2 ? l : r;
            if (in_mark && expect_mark) {
                want = (ip_app_rgb){255, 0, 255};
            }
            if (got.r == 255 && got.g == 0 && got.b == 255) {
                marked++;
            }
            if (abs(got.r - want.r) > 1 || abs(got.g - want.g) > 1 || abs(got.b - want.b) > 1) {
                if (bad++ == 0) {
                    fprintf(stderr, "%s: frame %d pixel (%d,%d) is %d,%d,%d, want %d,%d,%d\n",
                            program_invocation_short_name, frame, x, y, got.r, got.g, got.b,
                            want.r, want.g, want.b);
                }
            }
        }
    }
    IP_APP_CHECK(bad == 0, "frame %d (%dx%d): %d pixels differ (mark %s, %d magenta)", frame, w,
                 h, bad, expect_mark ? "expected" : "not expected", marked);
    XDestroyImage(img);
}

static inline bool ip_app_expect_invert(void) {
    const char *v = getenv("FXGL_TEST_EXPECT_INVERT");
    return v && strcmp(v, "1") == 0;
}

// How the presented window shows frame i, outside the mark's corner: 0 the
// frame untouched, 1 inverted, 2 pure green (the live-reload test's edited
// effect), -1 anything else.
static inline int ip_app_window_state(Display *dpy, Window win, int frame, int w, int h) {
    XSync(dpy, False);
    XImage *img = XGetImage(dpy, win, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    if (!img) {
        return -1;
    }
    ip_app_rgb l = ip_app_left(frame), r = ip_app_right();
    int plain = 0, inverted = 0, green = 0, total = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            if (x < IP_APP_MARK && y < IP_APP_MARK) {
                continue;
            }
            unsigned long px = XGetPixel(img, x, y);
            ip_app_rgb got = {(int)((px >> 16) & 0xff), (int)((px >> 8) & 0xff),
                              (int)(px & 0xff)};
            ip_app_rgb want = x < w / 2 ? l : r;
            total++;
            plain += abs(got.r - want.r) <= 1 && abs(got.g - want.g) <= 1 &&
                     abs(got.b - want.b) <= 1;
            inverted += abs(got.r - (255 - want.r)) <= 1 && abs(got.g - (255 - want.g)) <= 1 &&
                        abs(got.b - (255 - want.b)) <= 1;
            green += got.r == 0 && got.g == 255 && got.b == 0;
        }
    }
    XDestroyImage(img);
    return plain == total ? 0 : inverted == total ? 1 : green == total ? 2 : -1;
}

// fxgl compiles on a worker thread and shows nothing until the effects are
// ready (the reference's behaviour): with FXGL_TEST_EXPECT_INVERT=1 the
// programs first present frames, 10 ms apart, until the effect appears. The
// first must be passed through untouched, each one untouched or inverted,
// and the effect must appear within IP_APP_WARMUP_MS. The bound is time,
// not frames: on a loaded machine the compile takes longer while each frame
// takes longer too, so a frame count says nothing about the machine's speed.
// IP_APP_WARMUP_FRAMES only bounds the loops (more frames than 60 s hold).
#define IP_APP_WARMUP_MS 60000
#define IP_APP_WARMUP_FRAMES 1000000

static inline long ip_app_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// Milliseconds since warm-up frame 0 (n = 0 starts the clock).
static inline long ip_app_warmup_elapsed(int n) {
    static long start;
    long now = ip_app_now_ms();
    if (n == 0) {
        start = now;
    }
    return now - start;
}

// Called after warm-up frame n (0 = the window's first) was presented;
// true once the effect shows (or the wait is over, failed).
static inline bool ip_app_warmup_check(Display *dpy, Window win, int n, int w, int h) {
    long elapsed = ip_app_warmup_elapsed(n);
    int state = ip_app_window_state(dpy, win, 0, w, h);
    IP_APP_CHECK(state >= 0, "warm-up frame %d is neither the frame nor its inverse", n);
    IP_APP_CHECK(n > 0 || state == 0, "the first frame was not passed through untouched");
    if (state == 1) {
        printf("%s: the effect appeared at frame %d (%ld ms)\n", program_invocation_short_name,
               n, elapsed);
        return true;
    }
    if (elapsed >= IP_APP_WARMUP_MS || n + 1 >= IP_APP_WARMUP_FRAMES) {
        IP_APP_CHECK(false, "the effect did not appear within %d frames (%ld ms)", n + 1,
                     elapsed);
        return true;
    }
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return state < 0; // stop at a wrong frame (reported above)
}

// FXGL_TEST_EXPECT_CHANGE=1: a chain whose output is not known here (the
// installed default preset) must change the presented frame within
// IP_APP_WARMUP_MS; the first frame must be passed through.
static inline bool ip_app_expect_change(void) {
    const char *v = getenv("FXGL_TEST_EXPECT_CHANGE");
    return v && strcmp(v, "1") == 0;
}

// Called after frame n was presented; true once the window is not the
// program's own frame any more (or the wait is over, failed).
static inline bool ip_app_change_check(Display *dpy, Window win, int n, int w, int h) {
    long elapsed = ip_app_warmup_elapsed(n);
    int state = ip_app_window_state(dpy, win, 0, w, h);
    IP_APP_CHECK(n > 0 || state == 0, "the first frame was not passed through untouched");
    if (state != 0) {
        printf("%s: the frame changed at frame %d (%ld ms)\n", program_invocation_short_name, n,
               elapsed);
        return true;
    }
    if (elapsed >= IP_APP_WARMUP_MS || n + 1 >= IP_APP_WARMUP_FRAMES) {
        IP_APP_CHECK(false, "the frame did not change within %d frames (%ld ms)", n + 1,
                     elapsed);
        return true;
    }
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return false;
}

// Replaces path's contents the way editors save: a new file renamed over it.
static inline bool ip_app_write_file(const char *path, const char *text) {
    char tmp[1100];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        return false;
    }
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    return ok && rename(tmp, path) == 0;
}

// Whether the file at path holds needle (its first 64 KiB).
static inline bool ip_app_file_has(const char *path, const char *needle) {
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

// --toggle-at N: the window takes the focus; ip_app_toggle_key holds I
// (XTest) from before frame N's swap to after frame N + 1's, which the test
// preset binds to Invert.fx (KeyInvert@Invert.fx=73): frames from N + 1 on are
// expected without it, frame N either way. fxgl's input requests of one swap
// are answered at the next, and the server orders two connections' requests
// as it likes: the requests sent at swap N - 1 may be answered before or after
// the press (frame N either way), and those sent at swap N are answered before
// swap N + 1 returns, so before the release (frame N + 1 surely).
// With FXGL_TEST_TOGGLE_KEY=Home it holds Home instead (fxgl's effects key).
// False when the server has no XTEST.
static inline bool ip_app_toggle_setup(Display *dpy, Window win, int toggle_at) {
    if (toggle_at < 0) {
        return true;
    }
    int ev, err, major, minor;
    if (!XTestQueryExtension(dpy, &ev, &err, &major, &minor)) {
        return false;
    }
    XSetInputFocus(dpy, win, RevertToParent, CurrentTime);
    XSync(dpy, False);
    ip_app_invert_until = toggle_at + 1;
    ip_app_either_frame = toggle_at;
    return true;
}

// The key is I, or the keysym FXGL_TEST_TOGGLE_KEY names ("Home": fxgl's default
// effects key).
static inline void ip_app_toggle_key(Display *dpy, bool down) {
    const char *name = getenv("FXGL_TEST_TOGGLE_KEY");
    KeySym sym = name && name[0] ? XStringToKeysym(name) : NoSymbol;
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, sym != NoSymbol ? sym : XK_i), down,
                      CurrentTime);
    XSync(dpy, False);
}

// Windows must not overlap: XGetImage returns nothing useful for an
// obscured part of a window without backing store.
static inline Window ip_app_window_at(Display *dpy, XVisualInfo *vi, int x, int w, int h,
                                      Colormap *cmap) {
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = {
        .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone),
        .event_mask = ExposureMask | StructureNotifyMask,
    };
    *cmap = swa.colormap;
    Window win = XCreateWindow(dpy, root, x, 0, (unsigned)w, (unsigned)h, 0, vi->depth,
                               InputOutput, vi->visual, CWColormap | CWEventMask, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    return win;
}

static inline Window ip_app_window(Display *dpy, XVisualInfo *vi, int w, int h,
                                   Colormap *cmap) {
    return ip_app_window_at(dpy, vi, 0, w, h, cmap);
}

static inline int ip_app_exit(int argc, char **argv) {
    int code = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--exit") == 0) {
            code = atoi(argv[i + 1]);
        }
    }
    if (ip_app_failures) {
        fprintf(stderr, "%s: %d checks failed\n", program_invocation_short_name,
                ip_app_failures);
        return 1;
    }
    return code;
}

static inline const char *ip_app_arg(int argc, char **argv, const char *name,
                                     const char *fallback) {
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], name) == 0) {
            return argv[i + 1];
        }
    }
    return fallback;
}

#endif // IP_APP_H
