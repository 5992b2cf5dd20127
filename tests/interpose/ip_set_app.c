/*
 * ip_set_app.c - the GLX (or EGL, --api egl) program of test_effect_set.sh: does a preset's set of effects
 * appear whole, in its final order, in one frame?
 *
 * Every frame is one flat colour (--input R,G,B, a glClear), swapped, then read back from
 * the window (XGetImage after the swap: what was presented; glReadPixels of the front
 * buffer reads black on Mesa's software GLX under Xvfb). The chains fxgl may run are
 * given as lists of links (--chain-a swap,half,add): each link is one of our test effects
 * (tests/interpose/data/set), whose composition does not commute, so the presented colour
 * tells which links ran and in which order. The colour each chain must give is computed
 * here, link by link with the 8-bit rounding of the back-buffer copies between them.
 *
 * Phase A: every frame must be the untouched input or chain A, and once chain A showed,
 * every later frame is chain A (a set does not come apart). When chain A has shown on
 * --need frames, --rewrite PATH --with FILE replaces PATH (the preset) with FILE's
 * contents, as an editor saves, and phase B begins: every frame must be chain A or chain
 * B, and once B showed, B. The run ends when B has shown on --need frames (or A, without
 * --rewrite). Nothing waits on time but the overall bound (--seconds, default 240): a
 * slow compile only means more frames of the previous set.
 *
 * --second shared|unshared then runs a second context (second_context below). --api egl
 * uses EGL on the X11 display with OpenGL ES 3 contexts instead of GLX.
 *
 * Prints "input N a N b N" (frames of each) and exits 0 when every check held, 1 on a
 * failure, 77 when GLX is missing.
 */
#include <stdint.h>
#include <time.h>

// glad first: it stands in for GL/gl.h, which GL/glx.h would include.
#include "ip_app.h"

#include <EGL/egl.h>
#include <GL/glx.h>

#include "fxgl_gl.h"

#define SET_SIZE 64              // window side: above fxgl's 16-pixel cut-off for probes
#define SET_TOLERANCE 3          // per channel: rounding of each link's 8-bit copy
#define SET_MAX_LINKS 8

// The window system: GLX, or EGL on the X11 display with an OpenGL ES 3 context (--api
// egl). A window with its drawable and a context, made current, swapped, destroyed.
typedef struct set_ws {
    bool egl;
    Display *x;
    XVisualInfo *vi;
    GLXFBConfig fb;
    EGLDisplay ed;
    EGLConfig ec;
} set_ws;

typedef struct set_win {
    Window win;
    Colormap cmap;
    EGLSurface surface;
    void *ctx;                   // GLXContext or EGLContext; NULL once destroyed
} set_win;

static void *gl_loader(void *user, const char *name) {
    const set_ws *ws = user;
    return ws->egl ? (void *)(uintptr_t)eglGetProcAddress(name)
                   : (void *)(uintptr_t)glXGetProcAddressARB((const GLubyte *)name);
}

static bool ws_make_current(const set_ws *ws, const set_win *w) {
    return ws->egl ? eglMakeCurrent(ws->ed, w->surface, w->surface, w->ctx) == EGL_TRUE
                   : glXMakeCurrent(ws->x, w->win, w->ctx) == True;
}

// A window at x and a context in share's group (NULL: a group of its own), current.
static bool ws_open(const set_ws *ws, set_win *w, int x, void *share) {
    w->win = ip_app_window_at(ws->x, ws->vi, x, SET_SIZE, SET_SIZE, &w->cmap);
    if (ws->egl) {
        static const EGLint es3[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
        w->surface = eglCreateWindowSurface(ws->ed, ws->ec, (EGLNativeWindowType)w->win, NULL);
        w->ctx = eglCreateContext(ws->ed, ws->ec, share ? share : EGL_NO_CONTEXT, es3);
        w->ctx = w->ctx == EGL_NO_CONTEXT ? NULL : w->ctx;
    } else {
        w->ctx = glXCreateNewContext(ws->x, ws->fb, GLX_RGBA_TYPE, share, True);
    }
    return w->ctx && ws_make_current(ws, w);
}

static void ws_release(const set_ws *ws) {
    if (ws->egl) {
        eglMakeCurrent(ws->ed, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    } else {
        glXMakeCurrent(ws->x, None, NULL);
    }
}

static void ws_destroy_context(const set_ws *ws, set_win *w) {
    if (w->ctx) {
        if (ws->egl) {
            eglDestroyContext(ws->ed, w->ctx);
        } else {
            glXDestroyContext(ws->x, w->ctx);
        }
    }
    w->ctx = NULL;
}

static void ws_close(const set_ws *ws, set_win *w) {
    ws_destroy_context(ws, w);
    if (ws->egl && w->surface != EGL_NO_SURFACE) {
        eglDestroySurface(ws->ed, w->surface);
    }
    XDestroyWindow(ws->x, w->win);
    XFreeColormap(ws->x, w->cmap);
}

// One link applied to an 8-bit colour, as the effect computes it in float, stored back
// into an RGBA8 copy (rounded to nearest).
static bool apply_link(const char *link, double c[3]) {
    double out[3];
    for (int i = 0; i < 3; i++) {
        double v = c[i] / 255.0;
        if (strcmp(link, "half") == 0) {
            v = v * 0.5;
        } else if (strcmp(link, "add") == 0) {
            v = v + 0.25 > 1.0 ? 1.0 : v + 0.25;
        } else if (strcmp(link, "invert") == 0) {
            v = 1.0 - v;
        } else if (strcmp(link, "image") == 0) {
            static const int tint[3] = {10, 20, 30}; // data/set/set_tint.png
            v = v + tint[i] / 255.0 > 1.0 ? 1.0 : v + tint[i] / 255.0;
        } else if (strcmp(link, "swap") == 0) {
            v = c[2 - i] / 255.0;
        } else {
            return false;
        }
        out[i] = (double)(long)(v * 255.0 + 0.5);
    }
    memcpy(c, out, sizeof(out));
    return true;
}

static bool chain_colour(const char *chain, const ip_app_rgb *input, ip_app_rgb *out) {
    double c[3] = {input->r, input->g, input->b};
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", chain);
    for (char *save = NULL, *link = strtok_r(buf, ",", &save); link;
         link = strtok_r(NULL, ",", &save)) {
        if (!apply_link(link, c)) {
            fprintf(stderr, "ip_set_app: unknown link '%s'\n", link);
            return false;
        }
    }
    *out = (ip_app_rgb){(int)c[0], (int)c[1], (int)c[2]};
    return true;
}

static bool near(ip_app_rgb a, ip_app_rgb b) {
    return abs(a.r - b.r) <= SET_TOLERANCE && abs(a.g - b.g) <= SET_TOLERANCE &&
           abs(a.b - b.b) <= SET_TOLERANCE;
}

static bool parse_rgb(const char *s, ip_app_rgb *out) {
    return sscanf(s, "%d,%d,%d", &out->r, &out->g, &out->b) == 3;
}

// Which of the expected colours every pixel of the presented frame is: 0 input, 1 A,
// 2 B, -1 none (or not all pixels alike); got receives the first pixel.
static int classify(const uint8_t *px, const ip_app_rgb want[3], int wants,
                    ip_app_rgb *got) {
    *got = (ip_app_rgb){px[0], px[1], px[2]};
    int kind = -1;
    for (int k = 0; k < wants && kind < 0; k++) {
        kind = near(*got, want[k]) ? k : -1;
    }
    for (int i = 1; kind >= 0 && i < SET_SIZE * SET_SIZE; i++) {
        ip_app_rgb p = {px[4 * i], px[4 * i + 1], px[4 * i + 2]};
        if (!near(p, want[kind])) {
            *got = p;
            return -1;
        }
    }
    return kind;
}

// One frame of the flat colour on the current context, swapped, and what the window
// then shows into px. False when the window cannot be read.
static bool present(const set_ws *ws, const set_win *w, GladGLContext *gl, ip_app_rgb input,
                    uint8_t *px) {
    Display *dpy = ws->x;
    Window win = w->win;
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->Viewport(0, 0, SET_SIZE, SET_SIZE);
    gl->ClearColor(input.r / 255.0f, input.g / 255.0f, input.b / 255.0f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    if (ws->egl) {
        eglSwapBuffers(ws->ed, w->surface);
    } else {
        glXSwapBuffers(dpy, win);
    }
    // What the window shows: glReadPixels of GL_FRONT reads nothing on Mesa's
    // software GLX under Xvfb, the window's own pixels are the presented frame.
    XSync(dpy, False);
    XImage *img = XGetImage(dpy, win, 0, 0, SET_SIZE, SET_SIZE, AllPlanes, ZPixmap);
    if (!img) {
        return false;
    }
    for (int y = 0; y < SET_SIZE; y++) {
        for (int x = 0; x < SET_SIZE; x++) {
            unsigned long p = XGetPixel(img, x, y);
            uint8_t *o = &px[4 * (y * SET_SIZE + x)];
            o[0] = (uint8_t)(p >> 16);
            o[1] = (uint8_t)(p >> 8);
            o[2] = (uint8_t)p;
        }
    }
    XDestroyImage(img);
    return true;
}

// The second context (--second shared|unshared): a window and context of its own, in
// the first one's share group or not. Its frames must be the input, then chain A whole
// (the same pixels as the first context's), until need frames of it; then, with
// --destroy-first current|other, the first context is destroyed (made current first,
// or while the second is current) and the second must go on showing chain A for need
// more frames.
static void second_context(const set_ws *ws, set_win *first, GladGLContext *gl,
                           const char *mode, const char *destroy, const ip_app_rgb want[3],
                           int need, long deadline) {
    static uint8_t px[SET_SIZE * SET_SIZE * 4];
    set_win w = {0};
    if (!ws_open(ws, &w, SET_SIZE + 16, strcmp(mode, "shared") == 0 ? first->ctx : NULL)) {
        IP_APP_CHECK(false, "no second context");
        return;
    }
    int counts[2] = {0, 0}, after = 0, shown = 0;
    bool destroyed = false;
    for (int frame = 0; ip_app_failures <= 5; frame++) {
        if (ip_app_now_ms() > deadline) {
            IP_APP_CHECK(false, "second context, %d frames: input %d, a %d, after the first "
                         "context's destruction %d", frame, counts[0], counts[1], after);
            break;
        }
        ip_app_rgb got;
        if (!present(ws, &w, gl, want[0], px)) {
            IP_APP_CHECK(false, "second context, frame %d: XGetImage failed", frame);
            break;
        }
        int kind = classify(px, want, 2, &got);
        if (kind < 0 || kind < shown) {
            IP_APP_CHECK(false, "second context, frame %d%s shows %d,%d,%d: not %s", frame,
                         destroyed ? " (first context destroyed)" : "", got.r, got.g, got.b,
                         kind < 0 ? "the input nor chain a" : "chain a again");
            continue;
        }
        shown = kind;
        after += destroyed;
        counts[kind] += !destroyed;
        if (destroyed && after >= need) {
            break;
        }
        if (counts[1] >= need && !destroyed) {
            if (!destroy) {
                break;
            }
            if (strcmp(destroy, "current") == 0) {
                // Destroyed while current: freed when it is released just below.
                ws_make_current(ws, first);
                ws_destroy_context(ws, first);
                ws_make_current(ws, &w);
            } else {
                ws_destroy_context(ws, first);
            }
            destroyed = true;
        }
    }
    printf("second: input %d a %d after %d\n", counts[0], counts[1], after);
    IP_APP_CHECK(counts[0] > 0, "the second context showed no untouched frame first");
    ws_release(ws);
    ws_close(ws, &w);
}

int main(int argc, char **argv) {
    ip_app_rgb input, want[3];
    if (!parse_rgb(ip_app_arg(argc, argv, "--input", "200,100,40"), &input)) {
        fprintf(stderr, "ip_set_app: bad --input\n");
        return 1;
    }
    const char *chain_a = ip_app_arg(argc, argv, "--chain-a", NULL);
    const char *chain_b = ip_app_arg(argc, argv, "--chain-b", NULL);
    const char *rewrite = ip_app_arg(argc, argv, "--rewrite", NULL);
    const char *with = ip_app_arg(argc, argv, "--with", NULL);
    int need = atoi(ip_app_arg(argc, argv, "--need", "20"));
    long seconds = atol(ip_app_arg(argc, argv, "--seconds", "240"));
    want[0] = input;
    if (!chain_a || !chain_colour(chain_a, &input, &want[1]) ||
        (chain_b && !chain_colour(chain_b, &input, &want[2])) || (rewrite && !chain_b) ||
        (rewrite && !with)) {
        fprintf(stderr, "ip_set_app: --chain-a LINKS [--chain-b LINKS --rewrite PATH "
                        "--with FILE] needed\n");
        return 1;
    }
    int wants = chain_b ? 3 : 2;
    for (int i = 0; i < wants; i++) {
        for (int k = i + 1; k < wants; k++) {
            if (near(want[i], want[k])) {
                fprintf(stderr, "ip_set_app: two expected colours are alike\n");
                return 1;
            }
        }
    }
    char text[4096] = "";
    if (rewrite) {
        FILE *f = fopen(with, "r");
        size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
        if (f) {
            fclose(f);
        }
        text[n] = '\0';
        if (!n) {
            fprintf(stderr, "ip_set_app: cannot read %s\n", with);
            return 1;
        }
    }

    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        printf("SKIP: cannot open display\n");
        return IP_APP_SKIP;
    }
    set_ws ws = {.egl = strcmp(ip_app_arg(argc, argv, "--api", "glx"), "egl") == 0,
                 .x = dpy};
    GLXFBConfig *configs = NULL;
    if (ws.egl) {
        ws.ed = eglGetDisplay((EGLNativeDisplayType)dpy);
        EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
                            EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                            EGL_BLUE_SIZE, 8, EGL_NONE};
        EGLint n = 0, visual_id = 0;
        if (ws.ed == EGL_NO_DISPLAY || !eglInitialize(ws.ed, NULL, NULL) ||
            !eglBindAPI(EGL_OPENGL_ES_API) ||
            !eglChooseConfig(ws.ed, attribs, &ws.ec, 1, &n) || n == 0) {
            printf("SKIP: no EGL display or config on X11\n");
            return IP_APP_SKIP;
        }
        eglGetConfigAttrib(ws.ed, ws.ec, EGL_NATIVE_VISUAL_ID, &visual_id);
        XVisualInfo tmpl = {.visualid = (VisualID)visual_id};
        int nvis = 0;
        ws.vi = XGetVisualInfo(dpy, VisualIDMask, &tmpl, &nvis);
    } else {
        int attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                         GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                         GLX_BLUE_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
        int n = 0;
        configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
        if (!configs || n == 0) {
            printf("SKIP: no GLX framebuffer config\n");
            return IP_APP_SKIP;
        }
        ws.fb = configs[0];
        ws.vi = glXGetVisualFromFBConfig(dpy, configs[0]);
    }
    set_win first = {0};
    if (!ws.vi || !ws_open(&ws, &first, 0, NULL)) {
        printf("SKIP: no %s window and context\n", ws.egl ? "EGL" : "GLX");
        return IP_APP_SKIP;
    }
    GladGLContext gl;
    fxgl_gl_info info;
    char reason[256];
    if (!fxgl_gl_load(&gl, &info, gl_loader, &ws, reason, sizeof(reason))) {
        printf("SKIP: cannot load GL: %s\n", reason);
        return IP_APP_SKIP;
    }
    static uint8_t px[SET_SIZE * SET_SIZE * 4];
    int counts[3] = {0, 0, 0}, shown = 0; // shown: the latest set that appeared
    bool rewritten = false;
    long start = ip_app_now_ms();
    for (int frame = 0;; frame++) {
        if (ip_app_now_ms() - start > seconds * 1000) {
            IP_APP_CHECK(false, "%ld s and %d frames: input %d, a %d, b %d frames; %d "
                         "wanted of the last set", seconds, frame, counts[0], counts[1],
                         counts[2], need);
            break;
        }
        if (!present(&ws, &first, &gl, input, px)) {
            IP_APP_CHECK(false, "frame %d: XGetImage failed", frame);
            break;
        }
        ip_app_rgb got;
        int kind = classify(px, want, wants, &got);
        if (kind < 0 || kind < shown) {
            IP_APP_CHECK(false, "frame %d shows %d,%d,%d: %s (input %d,%d,%d; a %d,%d,%d%s)",
                         frame, got.r, got.g, got.b,
                         kind < 0 ? "neither the input nor a whole set" : "an older set",
                         want[0].r, want[0].g, want[0].b, want[1].r, want[1].g, want[1].b,
                         chain_b ? "; b after the rewrite" : "");
            if (ip_app_failures > 5) {
                break;
            }
            continue;
        }
        if (kind == 2 && !rewritten) {
            IP_APP_CHECK(false, "frame %d shows set b before the rewrite", frame);
            break;
        }
        counts[kind]++;
        shown = kind;
        if (kind == 1 && counts[1] >= need && rewrite && !rewritten) {
            IP_APP_CHECK(ip_app_write_file(rewrite, text), "cannot rewrite %s", rewrite);
            rewritten = true;
        }
        if (counts[wants - 1] >= need) {
            break;
        }
    }
    printf("input %d a %d b %d\n", counts[0], counts[1], counts[2]);
    IP_APP_CHECK(counts[0] > 0, "no untouched frame before the first set");
    const char *second = ip_app_arg(argc, argv, "--second", NULL);
    if (second && !ip_app_failures) {
        second_context(&ws, &first, &gl, second, ip_app_arg(argc, argv, "--destroy-first", NULL),
                       want, need, start + seconds * 1000);
    }
    ws_release(&ws);
    ws_close(&ws, &first);
    XFree(ws.vi);
    if (configs) {
        XFree(configs);
    }
    if (ws.egl) {
        eglTerminate(ws.ed);
    }
    XCloseDisplay(dpy);
    return ip_app_exit(argc, argv);
}
