/*
 * ip_glx_app.c - a GLX host program for the interposer tests, built twice.
 *
 * ip_glx_app links libGLX and calls the GLX functions by name (the path a
 * plain preload catches). ip_glx_dlopen (IP_APP_DLOPEN) links no GL
 * library at all and reaches GLX the ways real programs do without linking:
 *   --path glfw  dlopen("libGLX.so.0") and dlsym on that handle (GLFW 3.4)
 *   --path wine  dlopen("libGL.so.1"), dlsym only glXGetProcAddressARB, and
 *                everything else through it (Wine's X11 driver)
 * Modes (--mode): one (a window), msc (glXSwapBuffersMscOML, through
 * glXGetProcAddressARB), two (two windows, two unshared contexts, one of
 * them core profile), resize (the window grows every 3 frames), resize-every
 * (a new size before every frame, checked in that frame).
 * --size WxH sets the first window's size, --size2 WxH the second's (mode two).
 * --depth D:S picks a config with exactly D depth and S stencil bits.
 * --glxwindow yes: draw through a GLXWindow made for each X window (GLFW's
 * way; the linked build only). See ip_app.h for the checks.
 * --toggle-at N: see ip_app.h (the first window takes the focus).
 * --origin-dlopen REL: dlopen("$ORIGIN/REL", RTLD_NOLOAD) must find the
 * (already loaded) library: libc expands $ORIGIN from the caller's return
 * address, so this fails if a preloaded dlopen hides the program as caller.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <time.h>

// glad first: it stands in for GL/gl.h, which GL/glx.h would include.
#include "ip_app.h"

#include <GL/glx.h>

#include "fxgl_gl.h"

#define FRAMES 6

typedef struct glx_api {
    GLXFBConfig *(*ChooseFBConfig)(Display *, int, const int *, int *);
    XVisualInfo *(*GetVisualFromFBConfig)(Display *, GLXFBConfig);
    int (*GetFBConfigAttrib)(Display *, GLXFBConfig, int, int *);
    GLXContext (*CreateNewContext)(Display *, GLXFBConfig, int, GLXContext, Bool);
    Bool (*MakeCurrent)(Display *, GLXDrawable, GLXContext);
    void (*SwapBuffers)(Display *, GLXDrawable);
    void (*DestroyContext)(Display *, GLXContext);
    __GLXextFuncPtr (*GetProcAddressARB)(const GLubyte *);
} glx_api;

static glx_api glx;

static void *gl_loader(void *user, const char *name) {
    (void)user;
    return (void *)(uintptr_t)glx.GetProcAddressARB((const GLubyte *)name);
}

#define LOAD_AS(field, type, expr) (glx.field = (type)(uintptr_t)(expr))

static bool load_glx(const char *path) {
#ifdef IP_APP_DLOPEN
    if (strcmp(path, "glfw") == 0) {
        void *h = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_LOCAL);
        if (!h) {
            printf("SKIP: %s\n", dlerror());
            return false;
        }
        LOAD_AS(ChooseFBConfig, GLXFBConfig *(*)(Display *, int, const int *, int *),
                dlsym(h, "glXChooseFBConfig"));
        LOAD_AS(GetVisualFromFBConfig, XVisualInfo *(*)(Display *, GLXFBConfig),
                dlsym(h, "glXGetVisualFromFBConfig"));
        LOAD_AS(GetFBConfigAttrib, int (*)(Display *, GLXFBConfig, int, int *),
                dlsym(h, "glXGetFBConfigAttrib"));
        LOAD_AS(CreateNewContext, GLXContext(*)(Display *, GLXFBConfig, int, GLXContext, Bool),
                dlsym(h, "glXCreateNewContext"));
        LOAD_AS(MakeCurrent, Bool(*)(Display *, GLXDrawable, GLXContext),
                dlsym(h, "glXMakeCurrent"));
        LOAD_AS(SwapBuffers, void (*)(Display *, GLXDrawable), dlsym(h, "glXSwapBuffers"));
        LOAD_AS(DestroyContext, void (*)(Display *, GLXContext), dlsym(h, "glXDestroyContext"));
        LOAD_AS(GetProcAddressARB, __GLXextFuncPtr(*)(const GLubyte *),
                dlsym(h, "glXGetProcAddressARB"));
    } else {
        void *h = dlopen("libGL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            printf("SKIP: %s\n", dlerror());
            return false;
        }
        LOAD_AS(GetProcAddressARB, __GLXextFuncPtr(*)(const GLubyte *),
                dlsym(h, "glXGetProcAddressARB"));
        if (!glx.GetProcAddressARB) {
            return false;
        }
#define GPA(name) glx.GetProcAddressARB((const GLubyte *)name)
        LOAD_AS(ChooseFBConfig, GLXFBConfig *(*)(Display *, int, const int *, int *),
                GPA("glXChooseFBConfig"));
        LOAD_AS(GetVisualFromFBConfig, XVisualInfo *(*)(Display *, GLXFBConfig),
                GPA("glXGetVisualFromFBConfig"));
        LOAD_AS(GetFBConfigAttrib, int (*)(Display *, GLXFBConfig, int, int *),
                GPA("glXGetFBConfigAttrib"));
        LOAD_AS(CreateNewContext, GLXContext(*)(Display *, GLXFBConfig, int, GLXContext, Bool),
                GPA("glXCreateNewContext"));
        LOAD_AS(MakeCurrent, Bool(*)(Display *, GLXDrawable, GLXContext),
                GPA("glXMakeCurrent"));
        LOAD_AS(SwapBuffers, void (*)(Display *, GLXDrawable), GPA("glXSwapBuffers"));
        LOAD_AS(DestroyContext, void (*)(Display *, GLXContext), GPA("glXDestroyContext"));
#undef GPA
    }
#else
    (void)path;
    glx = (glx_api){glXChooseFBConfig, glXGetVisualFromFBConfig, glXGetFBConfigAttrib,
                    glXCreateNewContext,
                    glXMakeCurrent, glXSwapBuffers, glXDestroyContext, glXGetProcAddressARB};
#endif
    return glx.ChooseFBConfig && glx.GetVisualFromFBConfig && glx.GetFBConfigAttrib &&
           glx.CreateNewContext &&
           glx.MakeCurrent && glx.SwapBuffers && glx.DestroyContext && glx.GetProcAddressARB;
}

typedef struct window {
    Window win;
    GLXDrawable drawable;        // win, or a GLXWindow made for it (--glxwindow)
    Colormap cmap;
    GLXContext ctx;
    ip_app_gl app;
    int w, h;
    bool profiler;               // GL 4.4: the profiler's traps below
    GLuint query_buffer, query;
} window;

typedef int64_t (*swap_msc_fn)(Display *, GLXDrawable, int64_t, int64_t, int64_t);
typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool,
                                        const int *);

static bool use_glx_window; // --glxwindow

static bool open_window(Display *dpy, GLXFBConfig config, XVisualInfo *vi, window *w,
                        bool core) {
    w->win = ip_app_window_at(dpy, vi, core ? 400 : 0, w->w, w->h, &w->cmap);
    w->drawable = w->win;
#ifndef IP_APP_DLOPEN
    if (use_glx_window) {
        // GLFW's way: a GLXWindow, whose id is not the X window's.
        w->drawable = glXCreateWindow(dpy, config, w->win, NULL);
    }
#endif
    if (core) {
        create_attribs_fn create = (create_attribs_fn)(uintptr_t)glx.GetProcAddressARB(
            (const GLubyte *)"glXCreateContextAttribsARB");
        int attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 4, GLX_CONTEXT_MINOR_VERSION_ARB, 5,
                         GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
        w->ctx = create ? create(dpy, config, NULL, True, attribs) : NULL;
    } else {
        w->ctx = glx.CreateNewContext(dpy, config, GLX_RGBA_TYPE, NULL, True);
    }
    if (!w->ctx || !glx.MakeCurrent(dpy, w->drawable, w->ctx)) {
        return false;
    }
    fxgl_gl_info info;
    char reason[256];
    if (!fxgl_gl_load(&w->app.gl, &info, gl_loader, NULL, reason, sizeof(reason))) {
        fprintf(stderr, "%s\n", reason);
        return false;
    }
    ip_app_gl_init(&w->app);
    w->profiler =
        info.api == FXGL_API_GL && (info.major > 4 || (info.major == 4 && info.minor >= 4));
    if (w->profiler) {
        GladGLContext *gl = &w->app.gl;
        gl->GenBuffers(1, &w->query_buffer);
        gl->BindBuffer(GL_QUERY_BUFFER, w->query_buffer);
        gl->BufferData(GL_QUERY_BUFFER, 64, NULL, GL_DYNAMIC_READ);
        gl->GenQueries(1, &w->query);
    }
    return true;
}

// What a profiling engine leaves around its swap on GL 4.4: a query buffer
// bound (query results go there), a GL_TIME_ELAPSED query running across
// the swap, and on odd frames an error of its own not read yet
// (glLineWidth(-1): GL_INVALID_VALUE). After the swap glGetError must give
// exactly that error or none, then none: nothing of fxgl's (which a pending
// error would hide: a context keeps only the first), and the program's own
// not consumed.
static void profiler_before_swap(window *w, int frame) {
    if (w->profiler) {
        w->app.gl.BeginQuery(GL_TIME_ELAPSED, w->query);
        if (frame % 2) {
            w->app.gl.LineWidth(-1.0f);
        }
    }
}

static void profiler_after_swap(window *w, int frame) {
    if (w->profiler) {
        GladGLContext *gl = &w->app.gl;
        GLenum want = frame % 2 ? GL_INVALID_VALUE : GL_NO_ERROR;
        GLenum first = gl->GetError(), second = gl->GetError();
        IP_APP_CHECK(first == want && second == GL_NO_ERROR,
                     "frame %d: glGetError after the swap: 0x%04x then 0x%04x, want 0x%04x "
                     "(the program's) then none", frame, first, second, want);
        gl->EndQuery(GL_TIME_ELAPSED);
        GLint bound = 0;
        gl->GetIntegerv(GL_QUERY_BUFFER_BINDING, &bound);
        IP_APP_CHECK(bound == (GLint)w->query_buffer, "query buffer %d after the swap", bound);
    }
}

// --requests FILE with --requests-mode write|check: X requests the program's
// own connection carries per swap from frame 2 on (XNextRequest before and
// after). write: the most of any frame, into FILE (a run with FXGL_DISABLE=1:
// what the driver's swap sends itself); check: no frame may send more.
static unsigned long max_swap_requests;

static void frame(Display *dpy, window *w, int i, swap_msc_fn msc, bool expect) {
    glx.MakeCurrent(dpy, w->drawable, w->ctx);
    ip_app_draw(&w->app, i, w->w, w->h);
    profiler_before_swap(w, i);
    unsigned long before = XNextRequest(dpy);
    if (msc) {
        msc(dpy, w->drawable, 0, 0, 0);
    } else {
        glx.SwapBuffers(dpy, w->drawable);
    }
    unsigned long sent = XNextRequest(dpy) - before;
    if (i >= 2 && sent > max_swap_requests) {
        max_swap_requests = sent;
    }
    profiler_after_swap(w, i);
    w->app.gl.Finish();
    ip_app_check_state(&w->app);
    ip_app_check_window(dpy, w->win, i, w->w, w->h, expect);
}

// --edit PATH (live reload): PATH is the running Invert effect. A broken
// edit must leave the inverted frames in place; the edit after it, an effect
// that paints everything green, must appear within --wait-ms (60000)
// milliseconds. The waits here are time, not frames: on a loaded machine the
// recompile takes longer while each frame takes longer too.
#define IP_LIVE_VS \
    "texture2D BackBufferTex : COLOR;\n" \
    "sampler2D BackBuffer { Texture = BackBufferTex; };\n" \
    "void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,\n" \
    "                  out float2 texcoord : TEXCOORD)\n" \
    "{\n" \
    "    texcoord.x = (id == 2) ? 2.0 : 0.0;\n" \
    "    texcoord.y = (id == 1) ? 2.0 : 0.0;\n" \
    "    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n" \
    "}\n"
#define IP_LIVE_TECHNIQUE \
    "technique Invert { pass { VertexShader = FullscreenVS; PixelShader = LivePS; } }\n"

static void live_edits(Display *dpy, window *w, const char *path, long wait_ms) {
    // Line 11 refers to something undeclared: an error at a known place.
    static const char broken[] = IP_LIVE_VS
        "float4 LivePS(float4 p : SV_Position, float2 t : TEXCOORD) : SV_Target\n"
        "{ return not_declared_here; }\n" IP_LIVE_TECHNIQUE;
    static const char green[] = IP_LIVE_VS
        "float4 LivePS(float4 p : SV_Position, float2 t : TEXCOORD) : SV_Target\n"
        "{ return float4(0.0, 1.0, 0.0, 1.0); }\n" IP_LIVE_TECHNIQUE;
    struct timespec pause = {0, 10 * 1000 * 1000};
    IP_APP_CHECK(ip_app_write_file(path, broken), "cannot write %s", path);
    // At least 50 frames 10 ms apart (well past the reloader's 50 ms settling), and
    // until fxgl has logged the failed reload (FXGL_LOG_FILE), so that the good edit
    // below is a separate one even on a loaded machine.
    const char *log = getenv("FXGL_LOG_FILE");
    long start = ip_app_now_ms();
    for (int f = 0; f < IP_APP_WARMUP_FRAMES && ip_app_now_ms() - start < IP_APP_WARMUP_MS; f++) {
        if (f >= 50 && (!log || ip_app_file_has(log, "the running version stays"))) {
            break;
        }
        ip_app_draw(&w->app, 0, w->w, w->h);
        glx.SwapBuffers(dpy, w->drawable);
        w->app.gl.Finish();
        int state = ip_app_window_state(dpy, w->win, 0, w->w, w->h);
        IP_APP_CHECK(state == 1, "frame %d after the broken edit: state %d, want the old "
                     "version (inverted)", f, state);
        if (state != 1) {
            return;
        }
        nanosleep(&pause, NULL);
    }
    IP_APP_CHECK(ip_app_write_file(path, green), "cannot write %s", path);
    start = ip_app_now_ms();
    for (int f = 0; f < IP_APP_WARMUP_FRAMES && ip_app_now_ms() - start < wait_ms; f++) {
        ip_app_draw(&w->app, 0, w->w, w->h);
        glx.SwapBuffers(dpy, w->drawable);
        w->app.gl.Finish();
        int state = ip_app_window_state(dpy, w->win, 0, w->w, w->h);
        if (state == 2) {
            printf("ip_glx_app: the edited effect appeared %d frames (%ld ms) after the "
                   "edit\n", f, ip_app_now_ms() - start);
            return;
        }
        IP_APP_CHECK(state == 1, "frame %d after the good edit: state %d, want the old "
                     "version or the new one", f, state);
        if (state != 1) {
            return;
        }
        nanosleep(&pause, NULL);
    }
    IP_APP_CHECK(false, "the edited effect did not appear within %ld ms", wait_ms);
}

// --key-then-green N: I (XTest) is held across the first two swaps after the
// warm-up (fxgl's input is answered one swap late), then frames are presented until the window turns green (state
// 2) within N milliseconds, each one the old (inverted) or the new picture. The
// test binds I to KeyPerformanceMode: PerfMode.fx paints green only when
// compiled with __RESHADE_PERFORMANCE_MODE__=1, which happens off-thread.
// --key-then-plain N --blend yes|no: the same key press, the window must
// turn back to the untouched frame within N milliseconds; in between every frame
// is the inverted one or (a preset transition) a blend of the two, and with
// --blend yes at least one blend must be seen, with no none.
static void key_then_plain(Display *dpy, window *w, long wait_ms, bool want_blend) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    int blends = 0;
    long start = ip_app_now_ms();
    // Frame 0 always runs: it is the one that presses the key.
    for (int f = 0; f == 0 || (f < IP_APP_WARMUP_FRAMES && ip_app_now_ms() - start < wait_ms);
         f++) {
        ip_app_draw(&w->app, 0, w->w, w->h);
        if (f == 0) {
            ip_app_toggle_key(dpy, true);
        }
        glx.SwapBuffers(dpy, w->drawable);
        if (f == 1) { // held across two swaps (see ip_app_toggle_setup)
            ip_app_toggle_key(dpy, false);
        }
        w->app.gl.Finish();
        int state = ip_app_window_state(dpy, w->win, 0, w->w, w->h);
        if (state == 0) {
            if (f == 0) {
                ip_app_toggle_key(dpy, false);
            }
            printf("ip_glx_app: plain %d frames after the key, %d blended frames\n", f, blends);
            IP_APP_CHECK(want_blend ? blends > 0 : blends == 0, "%d blended frames", blends);
            return;
        }
        blends += state != 1;
        nanosleep(&pause, NULL);
    }
    IP_APP_CHECK(false, "not plain within %ld ms of the key", wait_ms);
}

// With resize (--resize-then-green N) the window grows to 128x80 instead of
// the key: SizeGreen.fx paints green only when compiled for BUFFER_WIDTH > 100.
static void key_then_green(Display *dpy, window *w, long wait_ms, bool resize) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    if (resize) {
        w->w = 128;
        w->h = 80;
        XResizeWindow(dpy, w->win, (unsigned)w->w, (unsigned)w->h);
        XSync(dpy, False);
        // The driver sees the new size at the next frame: one unchecked frame first.
        ip_app_draw(&w->app, 0, w->w, w->h);
        glx.SwapBuffers(dpy, w->drawable);
    }
    long start = ip_app_now_ms();
    // Frame 0 always runs: it is the one that presses the key.
    for (int f = 0; f == 0 || (f < IP_APP_WARMUP_FRAMES && ip_app_now_ms() - start < wait_ms);
         f++) {
        ip_app_draw(&w->app, 0, w->w, w->h);
        if (f == 0 && !resize) {
            ip_app_toggle_key(dpy, true);
        }
        glx.SwapBuffers(dpy, w->drawable);
        if (f == 1 && !resize) { // held across two swaps (see ip_app_toggle_setup)
            ip_app_toggle_key(dpy, false);
        }
        w->app.gl.Finish();
        int state = ip_app_window_state(dpy, w->win, 0, w->w, w->h);
        if (f == 0 && !resize && state != 1) {
            ip_app_toggle_key(dpy, false);
        }
        if (state == 2) {
            printf("ip_glx_app: green %d frames (%ld ms) after the %s\n", f,
                   ip_app_now_ms() - start, resize ? "resize" : "key");
            return;
        }
        IP_APP_CHECK(state == 1, "frame %d after the key: state %d", f, state);
        if (state != 1) {
            return;
        }
        nanosleep(&pause, NULL);
    }
    IP_APP_CHECK(false, "not green within %ld ms of the %s", wait_ms, resize ? "resize" : "key");
}

// --x-errors print: every X error the program gets, one line each, and on
// it goes (the test compares the lines with and without fxgl).
static int print_x_error(Display *dpy, XErrorEvent *e) {
    (void)dpy;
    printf("x-error: code %d, request %d.%d\n", e->error_code, e->request_code, e->minor_code);
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = ip_app_arg(argc, argv, "--mode", "one");
    const char *path = ip_app_arg(argc, argv, "--path", "glfw");
    window wins[2] = {{.w = 96, .h = 64}, {.w = 80, .h = 48}};
    sscanf(ip_app_arg(argc, argv, "--size", "96x64"), "%dx%d", &wins[0].w, &wins[0].h);
    sscanf(ip_app_arg(argc, argv, "--size2", "80x48"), "%dx%d", &wins[1].w, &wins[1].h);
    bool expect = ip_app_expect_mark();

    const char *origin = ip_app_arg(argc, argv, "--origin-dlopen", NULL);
    if (origin) {
        char file[512];
        snprintf(file, sizeof(file), "$ORIGIN/%s", origin);
        if (!dlopen(file, RTLD_LAZY | RTLD_NOLOAD)) {
            printf("FAIL: dlopen(\"%s\", RTLD_NOLOAD): %s\n", file, dlerror());
            return 1;
        }
    }
    if (!load_glx(path)) {
        printf("SKIP: GLX entry points not found (path %s)\n", path);
        return IP_APP_SKIP;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        printf("SKIP: cannot open display\n");
        return IP_APP_SKIP;
    }
    int attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                     GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                     GLX_BLUE_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glx.ChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    if (!configs || n == 0) {
        printf("SKIP: no GLX framebuffer config\n");
        return IP_APP_SKIP;
    }
    // --depth D:S: the first config with exactly D depth and S stencil bits
    // (the window's default framebuffer then has that depth buffer).
    GLXFBConfig config = configs[0];
    const char *depth = ip_app_arg(argc, argv, "--depth", NULL);
    if (depth) {
        int want_depth = -1, want_stencil = -1;
        sscanf(depth, "%d:%d", &want_depth, &want_stencil);
        config = NULL;
        for (int i = 0; i < n && !config; i++) {
            int d = -1, st = -1;
            glx.GetFBConfigAttrib(dpy, configs[i], GLX_DEPTH_SIZE, &d);
            glx.GetFBConfigAttrib(dpy, configs[i], GLX_STENCIL_SIZE, &st);
            config = d == want_depth && st == want_stencil ? configs[i] : NULL;
        }
        if (!config) {
            printf("SKIP: no GLX config with depth %d and stencil %d\n", want_depth,
                   want_stencil);
            return IP_APP_SKIP;
        }
    }
    XVisualInfo *vi = glx.GetVisualFromFBConfig(dpy, config);
    bool two = strcmp(mode, "two") == 0;
    use_glx_window = ip_app_arg(argc, argv, "--glxwindow", NULL) != NULL;
    for (int k = 0; k < (two ? 2 : 1); k++) {
        if (!open_window(dpy, config, vi, &wins[k], k == 1)) {
            printf("SKIP: cannot create GLX context %d\n", k);
            return IP_APP_SKIP;
        }
    }
    int toggle_at = atoi(ip_app_arg(argc, argv, "--toggle-at", "-1"));
    if (!ip_app_toggle_setup(dpy, wins[0].win, toggle_at)) {
        printf("SKIP: no XTEST extension\n");
        return IP_APP_SKIP;
    }
    swap_msc_fn msc = NULL;
    if (strcmp(mode, "msc") == 0) {
        msc = (swap_msc_fn)(uintptr_t)glx.GetProcAddressARB(
            (const GLubyte *)"glXSwapBuffersMscOML");
        if (!msc) {
            printf("SKIP: no glXSwapBuffersMscOML\n");
            return IP_APP_SKIP;
        }
    }
    for (int k = 0; ip_app_expect_invert() && k < (two ? 2 : 1); k++) {
        window *w = &wins[k];
        for (int f = 0; f < IP_APP_WARMUP_FRAMES; f++) {
            glx.MakeCurrent(dpy, w->drawable, w->ctx);
            ip_app_draw(&w->app, 0, w->w, w->h);
            glx.SwapBuffers(dpy, w->drawable);
            w->app.gl.Finish();
            if (ip_app_warmup_check(dpy, w->win, f, w->w, w->h)) {
                break;
            }
        }
    }
    if (ip_app_expect_change()) {
        window *w = &wins[0];
        for (int f = 0; f < IP_APP_WARMUP_FRAMES; f++) {
            glx.MakeCurrent(dpy, w->drawable, w->ctx);
            ip_app_draw(&w->app, 0, w->w, w->h);
            glx.SwapBuffers(dpy, w->drawable);
            w->app.gl.Finish();
            if (ip_app_change_check(dpy, w->win, f, w->w, w->h)) {
                break;
            }
        }
        glx.MakeCurrent(dpy, None, NULL);
        glx.DestroyContext(dpy, w->ctx);
        XDestroyWindow(dpy, w->win);
        XFreeColormap(dpy, w->cmap);
        XFree(vi);
        XFree(configs);
        XCloseDisplay(dpy);
        return ip_app_exit(argc, argv);
    }
    const char *gone = ip_app_arg(argc, argv, "--destroy-then-swap", NULL);
    if (gone && strcmp(ip_app_arg(argc, argv, "--x-errors", "exit"), "print") == 0) {
        XSetErrorHandler(print_x_error); // as SDL and GLFW do: report and go on
    }
    if (gone) {
        // The program destroys its window while its context stays current on
        // it, and keeps presenting (after the warm-up, so effects run): what
        // happens then is the driver's and Xlib's business - an X error that
        // ends the program through Xlib's default handler, here - and must be
        // the same with fxgl as without.
        window *w = &wins[0];
        for (int f = 0; f < 3; f++) {
            ip_app_draw(&w->app, f, w->w, w->h);
            glx.SwapBuffers(dpy, w->win);
        }
        XDestroyWindow(dpy, w->win);
        XSync(dpy, False);
        for (int f = 0; f < atoi(gone); f++) {
            glx.SwapBuffers(dpy, w->win); // no drawing of its own: only the swap
        }
        XSync(dpy, False);
        fflush(stdout);
        printf("ip_glx_app: %s frames presented after the window was destroyed\n", gone);
        return 0;
    }
    const char *resize_wait = ip_app_arg(argc, argv, "--resize-then-green", NULL);
    if (resize_wait) {
        key_then_green(dpy, &wins[0], atol(resize_wait), true);
    }
    const char *key_wait = ip_app_arg(argc, argv, "--key-then-green", resize_wait);
    const char *plain_wait = ip_app_arg(argc, argv, "--key-then-plain", NULL);
    if (!resize_wait && (key_wait || plain_wait)) {
        if (!ip_app_toggle_setup(dpy, wins[0].win, 0)) {
            printf("SKIP: no XTEST extension\n");
            return IP_APP_SKIP;
        }
        if (key_wait) {
            key_then_green(dpy, &wins[0], atol(key_wait), false);
        } else {
            key_wait = plain_wait;
            key_then_plain(dpy, &wins[0], atol(plain_wait),
                           strcmp(ip_app_arg(argc, argv, "--blend", "no"), "yes") == 0);
        }
    }
    const char *edit = key_wait ? "" : ip_app_arg(argc, argv, "--edit", NULL);
    if (edit && edit[0]) {
        live_edits(dpy, &wins[0], edit,
                   atol(ip_app_arg(argc, argv, "--wait-ms", "60000")));
    }
    int frames = FRAMES * (strcmp(mode, "resize") == 0 ? 2 : 1);
    if (strcmp(mode, "resize-every") == 0) {
        frames = 4 * FRAMES;
    }
    for (int i = 0; !edit && i < frames; i++) {
        if (strcmp(mode, "resize") == 0 && i > 0 && i % 3 == 0) {
            wins[0].w += 24;
            wins[0].h += 16;
            XResizeWindow(dpy, wins[0].win, (unsigned)wins[0].w, (unsigned)wins[0].h);
            XSync(dpy, False);
            // The driver sees the new size at the next frame; present one
            // unchecked frame at the new size first, as a resizing app does.
            glx.MakeCurrent(dpy, wins[0].drawable, wins[0].ctx);
            ip_app_draw(&wins[0].app, i, wins[0].w, wins[0].h);
            glx.SwapBuffers(dpy, wins[0].drawable);
        }
        if (strcmp(mode, "resize-every") == 0 && i > 0) {
            // Every frame a new size, checked in that very frame: growing and
            // shrinking in turn, never back to a size fxgl saw just before.
            wins[0].w += i % 2 ? 20 : -12;
            wins[0].h += i % 2 ? 14 : -8;
            XResizeWindow(dpy, wins[0].win, (unsigned)wins[0].w, (unsigned)wins[0].h);
            XSync(dpy, False);
        }
        for (int k = 0; k < (two ? 2 : 1); k++) {
            // Held across the swaps of frames N and N + 1 (ip_app_toggle_setup).
            if (toggle_at >= 0 && i == toggle_at && k == 0) {
                ip_app_toggle_key(dpy, true);
            }
            frame(dpy, &wins[k], i, msc, expect);
            if (toggle_at >= 0 && i == toggle_at + 1 && k == 0) {
                ip_app_toggle_key(dpy, false);
            }
        }
    }
    const char *requests = ip_app_arg(argc, argv, "--requests", NULL);
    if (requests) {
        bool write = strcmp(ip_app_arg(argc, argv, "--requests-mode", "check"), "write") == 0;
        printf("ip_glx_app: at most %lu X requests per swap\n", max_swap_requests);
        FILE *f = fopen(requests, write ? "w" : "r");
        unsigned long allowed = 0;
        IP_APP_CHECK(f != NULL, "cannot open %s", requests);
        if (f && write) {
            fprintf(f, "%lu\n", max_swap_requests);
        } else if (f) {
            IP_APP_CHECK(fscanf(f, "%lu", &allowed) == 1, "no count in %s", requests);
            IP_APP_CHECK(max_swap_requests <= allowed, "a swap sent %lu X requests on the "
                         "program's connection, the driver alone %lu", max_swap_requests,
                         allowed);
        }
        if (f) {
            fclose(f);
        }
    }
    for (int k = 0; k < (two ? 2 : 1); k++) {
        glx.MakeCurrent(dpy, None, NULL);
        glx.DestroyContext(dpy, wins[k].ctx);
#ifndef IP_APP_DLOPEN
        if (wins[k].drawable != wins[k].win) {
            glXDestroyWindow(dpy, wins[k].drawable);
        }
#endif
        XDestroyWindow(dpy, wins[k].win);
        XFreeColormap(dpy, wins[k].cmap);
    }
    XFree(vi);
    XFree(configs);
    XCloseDisplay(dpy);
    return ip_app_exit(argc, argv);
}
