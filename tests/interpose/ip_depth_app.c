/*
 * ip_depth_app.c - a host program that draws its scene into a framebuffer
 * object, as games do, for the FBO depth provider (src/interpose/depth.c).
 *
 *   --api core|compat|gles   GL 4.5 core, the compatibility profile, GLES 3.2 (GLX)
 *   --kind texture           a GL_DEPTH_COMPONENT32F texture
 *          renderbuffer      a GL_DEPTH24_STENCIL8 renderbuffer
 *          msaa              4-sample GL_DEPTH_COMPONENT24 renderbuffer (colour too)
 *          mstex             4-sample GL_DEPTH_COMPONENT24 texture (GL 4.3, GLES 3.1)
 *          layer             layer 1 of a GL_DEPTH_COMPONENT16 2D array texture
 *          midclear          texture; the scene, then a depth clear, then a UI pass
 *          dsa               midclear made with GL 4.5 DSA: glCreateFramebuffers,
 *                            glNamedFramebufferTexture, glClearNamedFramebufferfv
 *   --expect scene|ui        what DEPTH must show (ui: the depth after the UI pass)
 *   --run-ms MS              then keep presenting frames for MS milliseconds (for
 *                            `fxgl ctl depth` while it runs)
 *
 * Every frame: a decoy "shadow map" (32x32 depth texture, more draw calls
 * than the scene, the wrong aspect ratio), then the scene into the FBO bound
 * with GL_DRAW_FRAMEBUFFER: a tilted plane whose window depth is
 * d = 0.5 + 0.25 x + 0.125 y (x, y in NDC) and a quad at d = 0.1 in front of
 * it, then the colour is blitted (resolved) to the window. The preset's
 * DepthShow.fx writes DEPTH's red channel as grey; the presented window is
 * read back with XGetImage and every pixel compared with the depth computed
 * here (pixels next to a quad's edge are skipped). Frames repeat until one
 * matches (the effect compiles in the background) or 60 s pass.
 * The program's bindings and scissor must survive the mid-frame clear and the
 * swap, and no GL error may be left behind.
 */
#include <math.h>
#include <stdint.h>

#include "ip_app.h"

#include <GL/glx.h>

#include "fxgl_gl.h"

#define W 64
#define H 48
#define SHADOW 32
#define DECOY_DRAWS 6

#ifndef GLX_CONTEXT_ES2_PROFILE_BIT_EXT
#define GLX_CONTEXT_ES2_PROFILE_BIT_EXT 0x00000004
#endif

typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

static void *gl_loader(void *user, const char *name) {
    (void)user;
    return (void *)(uintptr_t)glXGetProcAddressARB((const GLubyte *)name);
}

// The scene in NDC; window depth = 0.5 z + 0.5.
static const float quad_a[4] = {-0.75f, -0.5f, -0.25f, 0.5f}; // x0 y0 x1 y1, z = -0.8
static const float quad_ui[4] = {0.25f, 0.25f, 0.75f, 0.75f}; // z = 0

static double plane_depth(double x, double y) {
    return 0.5 + 0.5 * (0.5 * x + 0.25 * y);
}

static bool inside(const float *q, double x, double y) {
    return x > q[0] && x < q[2] && y > q[1] && y < q[3];
}

// Within 1.5 pixels of a quad's edge: left out (coverage is the rasterizer's call).
static bool near_edge(const float *q, double x, double y) {
    double px = 3.0 / W, py = 3.0 / H;
    bool in_x = x > q[0] - px && x < q[2] + px, in_y = y > q[1] - py && y < q[3] + py;
    return (in_x && in_y) && !(x > q[0] + px && x < q[2] - px && y > q[1] + py && y < q[3] - py);
}

static void rect(float *v, const float *q, float z) {
    float r[6][3] = {{q[0], q[1], z}, {q[2], q[1], z}, {q[2], q[3], z},
                     {q[0], q[1], z}, {q[2], q[3], z}, {q[0], q[3], z}};
    memcpy(v, r, sizeof(r));
}

static GLuint shader(GladGLContext *gl, GLenum kind, const char *src) {
    GLuint s = gl->CreateShader(kind);
    gl->ShaderSource(s, 1, &src, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512];
        gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
        fprintf(stderr, "shader: %s\n", log);
    }
    return s;
}

int main(int argc, char **argv) {
    const char *api = ip_app_arg(argc, argv, "--api", "core");
    const char *kind = ip_app_arg(argc, argv, "--kind", "texture");
    bool expect_ui = strcmp(ip_app_arg(argc, argv, "--expect", "scene"), "ui") == 0;
    bool gles = strcmp(api, "gles") == 0;
    bool dsa = strcmp(kind, "dsa") == 0;
    bool midclear = strcmp(kind, "midclear") == 0 || dsa;
    bool msaa = strcmp(kind, "msaa") == 0 || strcmp(kind, "mstex") == 0;
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        printf("SKIP: cannot open display\n");
        return IP_APP_SKIP;
    }
    int attribs[] = {GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                     GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8,
                     GLX_BLUE_SIZE, 8, GLX_DOUBLEBUFFER, True, None};
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    if (!configs || n == 0) {
        printf("SKIP: no GLX framebuffer config\n");
        return IP_APP_SKIP;
    }
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, configs[0]);
    Colormap cmap;
    Window win = ip_app_window(dpy, vi, W, H, &cmap);
    create_attribs_fn create = (create_attribs_fn)(uintptr_t)glXGetProcAddressARB(
        (const GLubyte *)"glXCreateContextAttribsARB");
    int profile = gles ? GLX_CONTEXT_ES2_PROFILE_BIT_EXT
                  : strcmp(api, "compat") == 0 ? GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB
                                               : GLX_CONTEXT_CORE_PROFILE_BIT_ARB;
    int ctx_attribs[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, gles ? 3 : 4,
                         GLX_CONTEXT_MINOR_VERSION_ARB, gles ? 2 : 5,
                         GLX_CONTEXT_PROFILE_MASK_ARB, profile, None};
    GLXContext ctx = create ? create(dpy, configs[0], NULL, True, ctx_attribs) : NULL;
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
        printf("SKIP: no %s context\n", api);
        return IP_APP_SKIP;
    }
    GladGLContext glc;
    GladGLContext *gl = &glc;
    fxgl_gl_info info;
    char reason[256];
    if (!fxgl_gl_load(gl, &info, gl_loader, NULL, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return IP_APP_SKIP;
    }

    // Geometry: the plane (two triangles whose z follows 0.5 x + 0.25 y), quad A, the UI quad.
    float verts[18 * 3];
    static const float plane[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 6; i++) {
        verts[i * 3] = plane[i][0];
        verts[i * 3 + 1] = plane[i][1];
        verts[i * 3 + 2] = 0.5f * plane[i][0] + 0.25f * plane[i][1];
    }
    rect(verts + 18, quad_a, -0.8f);
    rect(verts + 36, quad_ui, 0.0f);
    GLuint vao, vbo;
    gl->GenVertexArrays(1, &vao);
    gl->BindVertexArray(vao);
    gl->GenBuffers(1, &vbo);
    gl->BindBuffer(GL_ARRAY_BUFFER, vbo);
    gl->BufferData(GL_ARRAY_BUFFER, sizeof(verts), verts, GL_STATIC_DRAW);
    gl->VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 12, NULL);
    gl->EnableVertexAttribArray(0);
    const char *head = gles ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
    char vs[256], fs[256];
    snprintf(vs, sizeof(vs), "%slayout(location = 0) in vec3 p;\n"
             "void main() { gl_Position = vec4(p, 1.0); }\n", head);
    snprintf(fs, sizeof(fs), "%sout vec4 o;\nuniform vec4 c;\nvoid main() { o = c; }\n", head);
    GLuint prog = gl->CreateProgram();
    gl->AttachShader(prog, shader(gl, GL_VERTEX_SHADER, vs));
    gl->AttachShader(prog, shader(gl, GL_FRAGMENT_SHADER, fs));
    gl->LinkProgram(prog);
    gl->UseProgram(prog);
    GLint color_loc = gl->GetUniformLocation(prog, "c");

    // The decoy: a square depth texture drawn more often than the scene.
    GLuint shadow_tex, shadow_fbo;
    gl->GenTextures(1, &shadow_tex);
    gl->BindTexture(GL_TEXTURE_2D, shadow_tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT24, SHADOW, SHADOW);
    gl->GenFramebuffers(1, &shadow_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, shadow_fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadow_tex, 0);
    GLenum none = GL_NONE;
    gl->DrawBuffers(1, &none);

    if (dsa && (gles || !gl->CreateFramebuffers)) {
        printf("SKIP: DSA needs desktop GL 4.5\n");
        return IP_APP_SKIP;
    }
    // The scene's framebuffer.
    GLuint fbo, color_rb, depth_obj = 0;
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->GenRenderbuffers(1, &color_rb);
    gl->BindRenderbuffer(GL_RENDERBUFFER, color_rb);
    if (msaa) {
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, W, H);
    } else {
        gl->RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    }
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_rb);
    if (strcmp(kind, "renderbuffer") == 0 || strcmp(kind, "msaa") == 0) {
        gl->GenRenderbuffers(1, &depth_obj);
        gl->BindRenderbuffer(GL_RENDERBUFFER, depth_obj);
        if (msaa) {
            gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH_COMPONENT24, W, H);
            gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                                        depth_obj);
        } else {
            gl->RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W, H);
            gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                                        GL_RENDERBUFFER, depth_obj);
        }
    } else if (strcmp(kind, "mstex") == 0) {
        gl->GenTextures(1, &depth_obj);
        gl->BindTexture(GL_TEXTURE_2D_MULTISAMPLE, depth_obj);
        gl->TexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_DEPTH_COMPONENT24, W, H,
                                    GL_TRUE);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D_MULTISAMPLE,
                                 depth_obj, 0);
    } else if (strcmp(kind, "layer") == 0) {
        gl->GenTextures(1, &depth_obj);
        gl->BindTexture(GL_TEXTURE_2D_ARRAY, depth_obj);
        gl->TexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_DEPTH_COMPONENT16, W, H, 2);
        gl->FramebufferTextureLayer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, depth_obj, 0, 1);
    } else if (dsa) {
        // Nothing bound: a framebuffer and a texture made and joined by name only.
        gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
        gl->DeleteFramebuffers(1, &fbo);
        gl->CreateFramebuffers(1, &fbo);
        gl->CreateTextures(GL_TEXTURE_2D, 1, &depth_obj);
        gl->TextureStorage2D(depth_obj, 1, GL_DEPTH_COMPONENT24, W, H);
        gl->NamedFramebufferRenderbuffer(fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_rb);
        gl->NamedFramebufferTexture(fbo, GL_DEPTH_ATTACHMENT, depth_obj, 0);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    } else {
        gl->GenTextures(1, &depth_obj);
        gl->BindTexture(GL_TEXTURE_2D, depth_obj);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, W, H);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_obj, 0);
    }
    // Multisampled colour is resolved into a single-sample framebuffer first:
    // GLES resolves only between identical formats, and the window's is not RGBA8.
    GLuint resolve_fbo = 0, resolve_rb = 0;
    if (msaa) {
        gl->GenRenderbuffers(1, &resolve_rb);
        gl->BindRenderbuffer(GL_RENDERBUFFER, resolve_rb);
        gl->RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
        gl->GenFramebuffers(1, &resolve_fbo);
        gl->BindFramebuffer(GL_FRAMEBUFFER, resolve_fbo);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                    resolve_rb);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    }
    GLenum status = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        printf("SKIP: the %s framebuffer is incomplete here (0x%04x)\n", kind, status);
        return IP_APP_SKIP;
    }
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LESS);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
        printf("SKIP: setting up %s on %s left GL error 0x%04x\n", kind, api, err);
        return IP_APP_SKIP;
    }

    long run_ms = atol(ip_app_arg(argc, argv, "--run-ms", "0"));
    long start = ip_app_now_ms();
    int matched = 0, frame = 0, bad = 0;
    XImage *img = NULL;
    long matched_at = 0;
    for (; (matched < 2 || ip_app_now_ms() - matched_at < run_ms) &&
           ip_app_now_ms() - start < 60000 + run_ms; frame++) {
        // The decoy.
        gl->BindFramebuffer(GL_FRAMEBUFFER, shadow_fbo);
        gl->Viewport(0, 0, SHADOW, SHADOW);
        gl->Clear(GL_DEPTH_BUFFER_BIT);
        for (int i = 0; i < DECOY_DRAWS; i++) {
            gl->DrawArrays(GL_TRIANGLES, 0, 6);
        }
        // The scene, bound for drawing only (the read binding stays the decoy's).
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
        gl->Viewport(0, 0, W, H);
        gl->ClearColor(1.0f, 0.0f, 0.0f, 1.0f);
        gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        gl->Uniform4f(color_loc, 0.0f, 0.0f, 1.0f, 1.0f);
        gl->DrawArrays(GL_TRIANGLES, 0, 6);
        gl->Uniform4f(color_loc, 0.0f, 1.0f, 0.0f, 1.0f);
        gl->DrawArrays(GL_TRIANGLES, 6, 6);
        if (midclear) {
            // The UI pass, after the game has cleared its depth (with a scissor
            // set: the copy before the clear must leave it alone).
            gl->Enable(GL_SCISSOR_TEST);
            gl->Scissor(0, 0, W, H);
            if (dsa) {
                static const GLfloat far_depth = 1.0f;
                gl->ClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &far_depth);
            } else {
                gl->Clear(GL_DEPTH_BUFFER_BIT);
            }
            GLint draw = -1, read = -1;
            gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
            gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
            IP_APP_CHECK(draw == (GLint)fbo && read == (GLint)shadow_fbo &&
                         gl->IsEnabled(GL_SCISSOR_TEST),
                         "frame %d: after the mid-frame clear draw %d read %d scissor %d", frame,
                         draw, read, gl->IsEnabled(GL_SCISSOR_TEST));
            gl->Disable(GL_SCISSOR_TEST);
            gl->Uniform4f(color_loc, 1.0f, 1.0f, 0.0f, 1.0f);
            gl->DrawArrays(GL_TRIANGLES, 12, 6);
        }
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        if (msaa) {
            gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo);
            gl->BlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            gl->BindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo);
        }
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        gl->BlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glXSwapBuffers(dpy, win);
        gl->Finish();
        err = gl->GetError();
        IP_APP_CHECK(err == GL_NO_ERROR, "frame %d: GL error 0x%04x after the swap", frame, err);

        if (img) {
            XDestroyImage(img);
        }
        img = XGetImage(dpy, win, 0, 0, W, H, AllPlanes, ZPixmap);
        if (!img) {
            continue;
        }
        bad = 0;
        int tol = msaa ? 3 : 2;
        for (int yt = 0; yt < H; yt++) {
            for (int x = 0; x < W; x++) {
                double nx = (x + 0.5) * 2.0 / W - 1.0, ny = (H - 1 - yt + 0.5) * 2.0 / H - 1.0;
                double d;
                if (expect_ui) {
                    if (near_edge(quad_ui, nx, ny)) {
                        continue;
                    }
                    d = inside(quad_ui, nx, ny) ? 0.5 : 1.0;
                } else {
                    if (near_edge(quad_a, nx, ny)) {
                        continue;
                    }
                    d = inside(quad_a, nx, ny) ? 0.1 : plane_depth(nx, ny);
                }
                int want = (int)lround(d * 255.0);
                unsigned long p = XGetPixel(img, x, yt);
                int r = (int)((p >> 16) & 0xFF), g = (int)((p >> 8) & 0xFF), b = (int)(p & 0xFF);
                if (abs(r - want) > tol || abs(g - want) > tol || abs(b - want) > tol) {
                    if (bad < 3 && matched > 0) {
                        fprintf(stderr, "pixel %d,%d: %d %d %d, want %d\n", x, yt, r, g, b, want);
                    }
                    bad++;
                }
            }
        }
        if (matched < 2) {
            matched = bad == 0 ? matched + 1 : 0;
            matched_at = ip_app_now_ms();
        }
    }
    IP_APP_CHECK(matched >= 2, "%s on %s: DEPTH never matched the scene's %s depth in 60 s "
                 "(%d frames, %d pixels off in the last)", kind, api, expect_ui ? "UI" : "scene",
                 frame, bad);
    if (img) {
        XDestroyImage(img);
    }
    printf("ip_depth_app: %s on %s (%s %d.%d): %s after %d frames\n", kind, api,
           info.api == FXGL_API_GLES ? "OpenGL ES" : "OpenGL", info.major, info.minor,
           matched >= 2 ? "DEPTH matches" : "no match", frame);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, cmap);
    XFree(vi);
    XFree(configs);
    XCloseDisplay(dpy);
    return ip_app_exit(argc, argv);
}
