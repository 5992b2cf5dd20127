/*
 * test_depth_visual.c - the DEPTH an effect reads from the default
 * framebuffer, for each kind of depth buffer a window's visual can have:
 * 24 bits with 8 of stencil, 24 without stencil, 16, 32 (where offered) and
 * none, on GL 4.5 core and GLES 3.2: GLX windows under a private Xvfb (GLX's
 * ES profile for GLES), and EGL pbuffers (a hardware device's display, else
 * Mesa's surfaceless platform), whose configs are checked where offered;
 * and an FBO as the source, with depth renderbuffers of each format (float
 * ones too).
 *
 * The program draws straight into the window: depth cleared to 0.25, then,
 * in the bottom half (GL rows), an orthographic triangle whose depth ramps
 * along x. The effect writes DEPTH's red channel and bufready_depth to the
 * back buffer, read back before the swap. Expectations come from the ramp's
 * arithmetic here: window depth = 0.5 + 0.4 * x_ndc at a pixel's centre.
 * A visual without depth reads 0 (the reference's empty texture) with
 * bufready_depth false. No case may leave a GL error behind.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "tfx.h"

#define W 64
#define H 32

#ifndef GLX_CONTEXT_ES2_PROFILE_BIT_EXT
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT 0x00000004
#endif

static fxgl_test_xvfb xvfb;

typedef struct visual_kind {
    const char *name;
    int depth, stencil;
} visual_kind;

static const visual_kind kinds[] = {
    {"depth 24 stencil 8", 24, 8},
    {"depth 24 no stencil", 24, 0},
    {"depth 16", 16, 0},
    {"depth 32", 32, 0},
    {"no depth", 0, 0},
};

static void *glx_proc(void *user, const char *name) {
    (void)user;
    void (*f)(void) = glXGetProcAddressARB((const GLubyte *)name);
    void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

static char log_text[4096];

static void on_log(void *user, fxgl_gl_log_level level, const char *message) {
    (void)user, (void)level;
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof(log_text) - n, "%s\n", message);
}

static int attrib(Display *dpy, GLXFBConfig c, int name) {
    int v = 0;
    glXGetFBConfigAttrib(dpy, c, name, &v);
    return v;
}

// A double-buffered RGB(A)8 window config with exactly this depth and
// stencil and no multisampling; NULL when the server offers none.
static GLXFBConfig find_config(Display *dpy, const visual_kind *k) {
    int n = 0;
    GLXFBConfig *all = glXGetFBConfigs(dpy, DefaultScreen(dpy), &n);
    GLXFBConfig found = NULL;
    for (int i = 0; all && i < n && !found; i++) {
        GLXFBConfig c = all[i];
        if ((attrib(dpy, c, GLX_DRAWABLE_TYPE) & GLX_WINDOW_BIT) &&
            (attrib(dpy, c, GLX_RENDER_TYPE) & GLX_RGBA_BIT) &&
            attrib(dpy, c, GLX_X_RENDERABLE) && attrib(dpy, c, GLX_DOUBLEBUFFER) &&
            attrib(dpy, c, GLX_RED_SIZE) == 8 && attrib(dpy, c, GLX_GREEN_SIZE) == 8 &&
            attrib(dpy, c, GLX_BLUE_SIZE) == 8 && attrib(dpy, c, GLX_SAMPLES) == 0 &&
            attrib(dpy, c, GLX_DEPTH_SIZE) == k->depth &&
            attrib(dpy, c, GLX_STENCIL_SIZE) == k->stencil &&
            attrib(dpy, c, GLX_CONFIG_CAVEAT) != GLX_SLOW_CONFIG) {
            XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, c);
            if (vi) {
                found = c;
                XFree(vi);
            }
        }
    }
    XFree(all);
    return found;
}

// The ramp's window depth at pixel column x (its centre).
static double ramp(int x) {
    double ndc = 2.0 * (x + 0.5) / W - 1.0;
    return 0.5 + 0.4 * ndc;
}

// What a depth buffer of `bits` stores for d (unorm), or d itself (float).
static double stored(double d, int bits) {
    if (bits == 0) {
        return 0.0;
    }
    if (bits >= 32) {
        return d;
    }
    double m = ldexp(1.0, bits) - 1.0;
    return floor(d * m + 0.5) / m;
}

// Draws the scene into the default framebuffer (fbo 0) or an FBO.
static void draw_scene(GladGLContext *gl, bool es, GLuint fbo) {
    const char *head = es ? "#version 320 es\nprecision highp float;\n" : "#version 450\n";
    char vs_src[512], fs_src[256];
    // An orthographic triangle over the whole viewport: z = 0.8 * x (NDC),
    // so window depth is 0.5 + 0.4 * x, linear across the screen.
    snprintf(vs_src, sizeof(vs_src),
             "%s"
             "void main() {\n"
             "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
             "    gl_Position = vec4(p, 0.8 * p.x, 1.0);\n"
             "}\n",
             head);
    snprintf(fs_src, sizeof(fs_src),
             "%slayout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.0, 0.0, 1.0, 1.0); }\n",
             head);
    const char *src[2] = {vs_src, fs_src};
    GLenum stage[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    GLuint prog = gl->CreateProgram();
    for (int i = 0; i < 2; i++) {
        GLuint s = gl->CreateShader(stage[i]);
        gl->ShaderSource(s, 1, &src[i], NULL);
        gl->CompileShader(s);
        GLint ok = 0;
        gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
        ck_assert_msg(ok, "scene shader %d does not compile", i);
        gl->AttachShader(prog, s);
        gl->DeleteShader(s);
    }
    gl->LinkProgram(prog);
    GLint ok = 0;
    gl->GetProgramiv(prog, GL_LINK_STATUS, &ok);
    ck_assert(ok);
    GLuint vao = 0;
    gl->GenVertexArrays(1, &vao);
    gl->BindVertexArray(vao);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->Viewport(0, 0, W, H);
    gl->ClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    gl->ClearDepthf(0.25f);
    gl->DepthMask(GL_TRUE);
    gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_ALWAYS);
    gl->Enable(GL_SCISSOR_TEST);
    gl->Scissor(0, 0, W, H / 2);
    gl->UseProgram(prog);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
    gl->Disable(GL_SCISSOR_TEST);
    gl->Disable(GL_DEPTH_TEST);
    gl->UseProgram(0);
    gl->BindVertexArray(0);
    gl->DeleteVertexArrays(1, &vao);
    gl->DeleteProgram(prog);
}

// An effect that shows DEPTH: red = depth, green = bufready_depth.
static const fxgl_effect *depth_effect(tfx *t, bool es) {
    tfx_init(t, "ShowDepth.fx", es);
    int d = tfx_sampler(t, "ShowDepth::D", tfx_semantic(t, "ReShade::DepthBufferTex", "DEPTH"),
                        false, false);
    tfx_uniform(t, "ShowDepth::ready", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_BUFREADY_DEPTH);
    int tech = tfx_technique(t, "ShowDepth");
    int s = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                       "layout(std140) uniform _Globals { bool ready; };\n"
                       "uniform sampler2D D;\nin vec2 uv;\nlayout(location = 0) out vec4 o;\n"
                       "void main() {\n"
                       "    o = vec4(texture(D, uv).r, ready ? 1.0 : 0.0, 0.0, 1.0);\n"
                       "}\n");
    tfx_use_sampler(t, s, d, "D");
    tfx_pass(t, tech, s);
    return tfx_finish(t);
}

static int to_byte(double v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (int)lround(v * 255.0);
}

typedef void (*swap_fn)(void *user);

// The check on the current context, whose default framebuffer has the
// visual (or config) of kind k: two frames, each drawn, run and read back.
static void check_depth(GladGLContext *gl, const fxgl_gl_info *info, const visual_kind *k,
                        bool es, const char *where, swap_fn swap, void *swap_user,
                        GLuint fbo) {
    GLenum depth_attach = fbo ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    // What the driver made of the visual, for the log.
    GLint depth_bits = 0, type = GL_NONE, comp = GL_NONE;
    gl->GetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, depth_attach,
                                            GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_NONE) {
        gl->GetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, depth_attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE,
                                                &depth_bits);
        gl->GetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, depth_attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE,
                                                &comp);
    }
    ck_assert_int_eq(depth_bits, k->depth);
    // 32-bit integer depth has no texture format on GLES a blit accepts:
    // such a window reads as one without depth there (docs/runtime.md).
    bool readable = depth_bits > 0 && !(es && depth_bits == 32 && comp != GL_FLOAT);
    printf("depth_visual: %s %s on %s: %d bits, %s%s\n", where, k->name, es ? "GLES" : "GL",
           depth_bits, comp == GL_FLOAT ? "float" : "unorm",
           readable ? "" : ", DEPTH reads 0");
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    log_text[0] = '\0';
    fxgl_runtime_desc rd = {.log = on_log};
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &rd);
    ck_assert_msg(rt, "runtime: %s", log_text);
    static tfx t;
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, depth_effect(&t, es), NULL), 0);
    // Two frames: the first creates the copy target, the second reuses it.
    for (int frame = 0; frame < 2; frame++) {
        draw_scene(gl, es, fbo);
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = fbo};
        ck_assert(fxgl_runtime_frame(rt, &d));
        GLenum err = gl->GetError();
        ck_assert_msg(err == GL_NO_ERROR, "%s %s, %s, frame %d: GL error 0x%04x left\n%s",
                      where, k->name, es ? "GLES" : "GL", frame, err, log_text);
        const char *why = NULL;
        ck_assert_msg(fxgl_runtime_effect_status(rt, 0, &why) == FXGL_STATUS_READY,
                      "%s\n%s", why, log_text);
        fxgl_image out;
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        ck_assert(fxgl_image_read_gl(&out, gl, W, H));
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                // Top-down rows: the ramp is in the bottom half.
                double want = stored(y >= H / 2 ? ramp(x) : 0.25,
                                     readable ? depth_bits : 0);
                const uint8_t *px = fxgl_image_at(&out, x, y);
                int want_r = to_byte(want), want_g = readable ? 255 : 0;
                if (abs(px[0] - want_r) > 1 || px[1] != want_g) {
                    fxgl_image_free(&out);
                    ck_abort_msg("%s %s, %s, frame %d: pixel (%d,%d): depth %d ready %d, "
                                 "want %d ready %d\n%s",
                                 where, k->name, es ? "GLES" : "GL", frame, x, y, px[0], px[1],
                                 want_r, want_g, log_text);
                }
            }
        }
        fxgl_image_free(&out);
        swap(swap_user);
    }
    // A depth buffer that cannot be copied is said, once.
    if (depth_bits > 0 && !readable) {
        const char *said = strstr(log_text, "cannot be copied");
        ck_assert_msg(said && !strstr(said + 1, "cannot be copied"), "log:\n%s", log_text);
    }
    fxgl_runtime_destroy(rt);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    printf("depth_visual: %s %s on %s %d.%d: ok\n", where, k->name, es ? "GLES" : "GL",
           info->major, info->minor);
}

typedef struct glx_swap_target {
    Display *dpy;
    Window win;
} glx_swap_target;

static void glx_swap(void *user) {
    glx_swap_target *t = user;
    glXSwapBuffers(t->dpy, t->win);
}

// One visual kind on one API; false when the server or driver offers none.
static bool run_case(Display *dpy, const visual_kind *k, bool es) {
    GLXFBConfig config = find_config(dpy, k);
    if (!config) {
        printf("depth_visual: no %s config here, not tested\n", k->name);
        return false;
    }
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, config);
    ck_assert(vi != NULL);
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = {.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone)};
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual,
                               CWColormap, &swa);
    XMapWindow(dpy, win);
    XSync(dpy, False);
    typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool,
                                            const int *);
    create_attribs_fn create = (create_attribs_fn)glXGetProcAddressARB(
        (const GLubyte *)"glXCreateContextAttribsARB");
    ck_assert_msg(create != NULL, "GLX_ARB_create_context missing");
    int attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, es ? 3 : 4,
                     GLX_CONTEXT_MINOR_VERSION_ARB, es ? 2 : 5,
                     GLX_CONTEXT_PROFILE_MASK_ARB,
                     es ? GLX_CONTEXT_ES2_PROFILE_BIT_EXT : GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                     None};
    GLXContext ctx = create(dpy, config, NULL, True, attribs);
    bool ran = false;
    if (!ctx) {
        printf("depth_visual: no %s context, %s not tested\n", es ? "GLES 3.2" : "GL 4.5",
               k->name);
    } else {
        ck_assert(glXMakeCurrent(dpy, win, ctx));
        fxgl_test_pin_drivers();
        GladGLContext gl;
        fxgl_gl_info info;
        char reason[256];
        ck_assert_msg(fxgl_gl_load(&gl, &info, glx_proc, NULL, reason, sizeof(reason)), "%s",
                      reason);
        glx_swap_target target = {dpy, win};
        check_depth(&gl, &info, k, es, "GLX", glx_swap, &target, 0);
        glXMakeCurrent(dpy, None, NULL);
        glXDestroyContext(dpy, ctx);
        ran = true;
    }
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XFree(vi);
    return ran;
}

static void run_kind(int i, bool required) {
    Display *dpy = XOpenDisplay(xvfb.display_name);
    ck_assert_msg(dpy != NULL, "cannot open display %s", xvfb.display_name);
    for (int es = 0; es < 2; es++) {
        bool ran = run_case(dpy, &kinds[i], es);
        // Mesa's Xvfb offers these on GL; the others are checked where offered.
        ck_assert_msg(ran || !required || es, "%s: no such visual on GL", kinds[i].name);
    }
    XCloseDisplay(dpy);
}

START_TEST(depth24_stencil8) { run_kind(0, true); }
END_TEST

START_TEST(depth24_no_stencil) { run_kind(1, true); }
END_TEST

START_TEST(depth16) { run_kind(2, true); }
END_TEST

START_TEST(depth32) { run_kind(3, false); }
END_TEST

START_TEST(no_depth) { run_kind(4, true); }
END_TEST

// --- EGL: pbuffer surfaces (the surfaceless platform has no default
// framebuffer, a pbuffer has one with the config's depth and stencil) ---

static EGLDisplay egl_dpy = EGL_NO_DISPLAY;
static const char *egl_where = "EGL";

static bool has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

// A hardware device's display where there is one (NVIDIA has no other
// headless route), else Mesa's surfaceless platform.
static EGLDisplay egl_open(void) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    if (!get_display) {
        return EGL_NO_DISPLAY;
    }
    if (has_word(client, "EGL_EXT_platform_device") && query_devices && query_string) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (query_devices(16, devices, &count)) {
            for (EGLint i = 0; i < count; i++) {
                const char *ext = query_string(devices[i], EGL_EXTENSIONS);
                if (has_word(ext, "EGL_MESA_device_software")) {
                    continue;
                }
                EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL)) {
                    egl_where = "EGL device";
                    return d;
                }
            }
        }
    }
    if (has_word(client, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL)) {
            egl_where = "EGL surfaceless";
            return d;
        }
    }
    return EGL_NO_DISPLAY;
}

static EGLint egl_attrib(EGLConfig c, EGLint name) {
    EGLint v = 0;
    eglGetConfigAttrib(egl_dpy, c, name, &v);
    return v;
}

static EGLConfig egl_find_config(const visual_kind *k, bool es) {
    EGLConfig all[512];
    EGLint n = 0;
    if (!eglGetConfigs(egl_dpy, all, 512, &n)) {
        return NULL;
    }
    for (EGLint i = 0; i < n; i++) {
        EGLConfig c = all[i];
        if ((egl_attrib(c, EGL_SURFACE_TYPE) & EGL_PBUFFER_BIT) &&
            (egl_attrib(c, EGL_RENDERABLE_TYPE) & (es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT)) &&
            egl_attrib(c, EGL_COLOR_BUFFER_TYPE) == EGL_RGB_BUFFER &&
            egl_attrib(c, EGL_RED_SIZE) == 8 && egl_attrib(c, EGL_GREEN_SIZE) == 8 &&
            egl_attrib(c, EGL_BLUE_SIZE) == 8 && egl_attrib(c, EGL_SAMPLES) == 0 &&
            egl_attrib(c, EGL_DEPTH_SIZE) == k->depth &&
            egl_attrib(c, EGL_STENCIL_SIZE) == k->stencil &&
            egl_attrib(c, EGL_CONFIG_CAVEAT) != EGL_SLOW_CONFIG) {
            return c;
        }
    }
    return NULL;
}

static void egl_swap(void *user) {
    eglSwapBuffers(egl_dpy, (EGLSurface)user);
}

// One config kind on one API through a pbuffer; false when none is offered.
static bool run_egl_case(const visual_kind *k, bool es) {
    EGLConfig config = egl_find_config(k, es);
    if (!config) {
        printf("depth_visual: %s: no %s pbuffer config for %s, not tested\n", egl_where,
               k->name, es ? "GLES" : "GL");
        return false;
    }
    EGLint pb_attribs[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(egl_dpy, config, pb_attribs);
    ck_assert_msg(surface != EGL_NO_SURFACE, "eglCreatePbufferSurface: 0x%x", eglGetError());
    ck_assert(eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API));
    EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, es ? 3 : 4,
                            EGL_CONTEXT_MINOR_VERSION, es ? 2 : 5,
                            es ? EGL_NONE : EGL_CONTEXT_OPENGL_PROFILE_MASK,
                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(egl_dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    bool ran = false;
    if (ctx == EGL_NO_CONTEXT) {
        printf("depth_visual: %s: no %s context, %s not tested\n", egl_where,
               es ? "GLES 3.2" : "GL 4.5", k->name);
    } else {
        ck_assert(eglMakeCurrent(egl_dpy, surface, surface, ctx));
        fxgl_test_pin_drivers();
        GladGLContext gl;
        fxgl_gl_info info;
        char reason[256];
        ck_assert_msg(fxgl_gl_load(&gl, &info, fxgl_test_egl_proc, NULL, reason,
                                   sizeof(reason)),
                      "%s", reason);
        check_depth(&gl, &info, k, es, egl_where, egl_swap, surface, 0);
        eglMakeCurrent(egl_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(egl_dpy, ctx);
        ran = true;
    }
    eglDestroySurface(egl_dpy, surface);
    return ran;
}

// --- an FBO as the source (a host that hands fxgl its own framebuffer):
// the same formats as renderbuffers, float ones too ---

typedef struct fbo_kind {
    const char *name;
    GLenum format;
    int depth, stencil;
    bool gl_only;                // no such renderbuffer format on GLES
} fbo_kind;

static const fbo_kind fbo_kinds[] = {
    {"FBO DEPTH24_STENCIL8", GL_DEPTH24_STENCIL8, 24, 8, false},
    {"FBO DEPTH_COMPONENT24", GL_DEPTH_COMPONENT24, 24, 0, false},
    {"FBO DEPTH_COMPONENT16", GL_DEPTH_COMPONENT16, 16, 0, false},
    {"FBO DEPTH_COMPONENT32F", GL_DEPTH_COMPONENT32F, 32, 0, false},
    {"FBO DEPTH32F_STENCIL8", GL_DEPTH32F_STENCIL8, 32, 8, false},
    {"FBO DEPTH_COMPONENT32", GL_DEPTH_COMPONENT32, 32, 0, true},
};

static void no_swap(void *user) {
    (void)user;
}

static void run_fbo_case(const fbo_kind *fk, bool es) {
    EGLConfig all[512];
    EGLint n = 0;
    EGLConfig config = NULL;
    ck_assert(eglGetConfigs(egl_dpy, all, 512, &n));
    for (EGLint i = 0; i < n && !config; i++) {
        config = (egl_attrib(all[i], EGL_RENDERABLE_TYPE) &
                  (es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT)) ? all[i] : NULL;
    }
    ck_assert(config != NULL);
    ck_assert(eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API));
    EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, es ? 3 : 4,
                            EGL_CONTEXT_MINOR_VERSION, es ? 2 : 5,
                            es ? EGL_NONE : EGL_CONTEXT_OPENGL_PROFILE_MASK,
                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(egl_dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT) {
        printf("depth_visual: %s: no %s context, %s not tested\n", egl_where,
               es ? "GLES 3.2" : "GL 4.5", fk->name);
        return;
    }
    ck_assert(eglMakeCurrent(egl_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    GladGLContext gl;
    fxgl_gl_info info;
    char reason[256];
    ck_assert_msg(fxgl_gl_load(&gl, &info, fxgl_test_egl_proc, NULL, reason, sizeof(reason)),
                  "%s", reason);
    GLuint rb[2], fbo = 0;
    gl.GenRenderbuffers(2, rb);
    gl.BindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    gl.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    gl.BindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    gl.RenderbufferStorage(GL_RENDERBUFFER, fk->format, W, H);
    gl.GenFramebuffers(1, &fbo);
    gl.BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER,
                               fk->stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
                               GL_RENDERBUFFER, rb[1]);
    ck_assert_int_eq(gl.CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    ck_assert_int_eq(gl.GetError(), GL_NO_ERROR);
    visual_kind k = {fk->name, fk->depth, fk->stencil};
    check_depth(&gl, &info, &k, es, egl_where, no_swap, NULL, fbo);
    gl.DeleteFramebuffers(1, &fbo);
    gl.DeleteRenderbuffers(2, rb);
    eglMakeCurrent(egl_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(egl_dpy, ctx);
}

START_TEST(fbo_sources) {
    if (egl_dpy == EGL_NO_DISPLAY) {
        printf("depth_visual: no EGL display, FBO sources not tested\n");
        return;
    }
    for (size_t i = 0; i < sizeof(fbo_kinds) / sizeof(fbo_kinds[0]); i++) {
        for (int es = 0; es < 2; es++) {
            if (!(es && fbo_kinds[i].gl_only)) {
                run_fbo_case(&fbo_kinds[i], es);
            }
        }
    }
}
END_TEST

static void run_egl_kind(int i) {
    if (egl_dpy == EGL_NO_DISPLAY) {
        printf("depth_visual: no EGL display, EGL %s not tested\n", kinds[i].name);
        return;
    }
    for (int es = 0; es < 2; es++) {
        run_egl_case(&kinds[i], es);
    }
}

START_TEST(egl_depth24_stencil8) { run_egl_kind(0); }
END_TEST

START_TEST(egl_depth24_no_stencil) { run_egl_kind(1); }
END_TEST

START_TEST(egl_depth16) { run_egl_kind(2); }
END_TEST

START_TEST(egl_depth32) { run_egl_kind(3); }
END_TEST

START_TEST(egl_no_depth) { run_egl_kind(4); }
END_TEST

int main(void) {
    char reason[256];
    bool have_x = fxgl_test_xvfb_start(&xvfb, 640, 480, 60000, reason, sizeof(reason));
    if (!have_x) {
        printf("depth_visual: GLX not tested: %s\n", reason);
    }
    egl_dpy = egl_open();
    if (!have_x && egl_dpy == EGL_NO_DISPLAY) {
        printf("SKIP: no Xvfb (%s) and no EGL display\n", reason);
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("depth_visual");
    if (have_x) {
        TCase *tc = tcase_create("glx");
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, depth24_stencil8);
        tcase_add_test(tc, depth24_no_stencil);
        tcase_add_test(tc, depth16);
        tcase_add_test(tc, depth32);
        tcase_add_test(tc, no_depth);
        suite_add_tcase(s, tc);
    }
    TCase *te = tcase_create("egl");
    tcase_set_timeout(te, 120);
    tcase_add_test(te, egl_depth24_stencil8);
    tcase_add_test(te, egl_depth24_no_stencil);
    tcase_add_test(te, egl_depth16);
    tcase_add_test(te, egl_depth32);
    tcase_add_test(te, egl_no_depth);
    tcase_add_test(te, fbo_sources);
    suite_add_tcase(s, te);
    SRunner *sr = srunner_create(s);
    // No fork: the X connection and Xvfb belong to this process.
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (egl_dpy != EGL_NO_DISPLAY) {
        eglTerminate(egl_dpy);
    }
    if (have_x) {
        fxgl_test_xvfb_stop(&xvfb);
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
