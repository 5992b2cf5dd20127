/*
 * demo.c - fxgl-demo, a small real GL program: an animated scene in a GLFW
 * window (a sky, a perspective checker floor, shaded spheres and thin lines,
 * so that sharpening, anti-aliasing and colour effects all have something to
 * act on). It is the host program for the main job and for integration
 * tests; fxgl is preloaded into it like into any game.
 *
 *   fxgl-demo [--frames N] [--size WxH] [--screenshot out.png] [--presented out.png]
 *             [--stats out.txt]
 *
 * --screenshot is read from the back buffer after the frame is drawn and
 * before the swap, i.e. what the program itself produced; with fxgl preloaded
 * the swap hook runs after that. --presented reads the front buffer after the
 * last swap instead, i.e. what reached the window: with fxgl preloaded, the
 * post-processed frame. It is read from the X window (XGetImage), because
 * the GL front buffer of a double-buffered window is undefined after a swap.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>
#include <X11/Xutil.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"

static const char *vs_src =
    "#version 330 core\n"
    "out vec2 uv;\n"
    "void main() {\n"
    "    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
    "    uv = p;\n"
    "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";

static const char *fs_src =
    "#version 330 core\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "uniform float time;\n"
    "uniform vec2 size;\n"
    "float sphere(vec3 ro, vec3 rd, vec3 c, float r) {\n"
    "    vec3 oc = ro - c; float b = dot(oc, rd); float h = b * b - dot(oc, oc) + r * r;\n"
    "    return h < 0.0 ? -1.0 : -b - sqrt(h);\n"
    "}\n"
    "void main() {\n"
    "    vec2 p = (uv * 2.0 - 1.0) * vec2(size.x / size.y, 1.0);\n"
    "    vec3 ro = vec3(0.0, 1.0, -4.0), rd = normalize(vec3(p, 1.8));\n"
    "    vec3 sky = mix(vec3(0.85, 0.9, 1.0), vec3(0.2, 0.4, 0.8), clamp(rd.y * 2.0, 0.0, 1.0));\n"
    "    vec3 col = sky; float best = 1e9;\n"
    "    if (rd.y < 0.0) {\n"
    "        float t = -ro.y / rd.y; vec3 q = ro + rd * t;\n"
    "        float c = mod(floor(q.x) + floor(q.z + time * 0.5), 2.0);\n"
    "        col = mix(vec3(0.15), vec3(0.8, 0.75, 0.6), c) * exp(-0.02 * t * t * 0.1);\n"
    "        col = mix(col, sky, 1.0 - exp(-0.004 * t * t));\n"
    "        best = t;\n"
    "    }\n"
    "    for (int i = 0; i < 3; i++) {\n"
    "        float a = time * 0.7 + float(i) * 2.094;\n"
    "        vec3 c = vec3(1.6 * cos(a), 0.6 + 0.3 * sin(a * 1.3), 1.0 + 1.6 * sin(a));\n"
    "        float t = sphere(ro, rd, c, 0.6);\n"
    "        if (t > 0.0 && t < best) {\n"
    "            best = t; vec3 n = normalize(ro + rd * t - c);\n"
    "            vec3 base = vec3(i == 0 ? 0.9 : 0.2, i == 1 ? 0.8 : 0.25, i == 2 ? 0.9 : 0.2);\n"
    "            float d = max(dot(n, normalize(vec3(0.5, 0.8, -0.4))), 0.0);\n"
    "            float s = pow(max(dot(reflect(rd, n), normalize(vec3(0.5, 0.8, -0.4))), 0.0), 40.0);\n"
    "            col = base * (0.15 + 0.85 * d) + s;\n"
    "        }\n"
    "    }\n"
    "    float lines = step(0.98, fract(uv.x * 24.0 + time * 0.1)) * step(uv.y, 0.08);\n"
    "    col = mix(col, vec3(1.0), lines);\n"
    "    color = vec4(col, 1.0);\n"
    "}\n";

static void *glfw_proc(void *user, const char *name) {
    (void)user;
    GLFWglproc f = glfwGetProcAddress(name);
    void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

static GLuint shader(GladGLContext *gl, GLenum stage, const char *src) {
    GLuint s = gl->CreateShader(stage);
    gl->ShaderSource(s, 1, &src, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
        fprintf(stderr, "fxgl-demo: shader: %s\n", log);
        exit(1);
    }
    return s;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The window's pixels as the X server holds them, i.e. the presented frame.
static bool save_window(GLFWwindow *win, int width, int height, const char *path) {
    Display *dpy = glfwGetX11Display();
    Window w = glfwGetX11Window(win);
    if (!dpy || !w) {
        return false;
    }
    XSync(dpy, False);
    XImage *xi = XGetImage(dpy, w, 0, 0, (unsigned)width, (unsigned)height, AllPlanes, ZPixmap);
    if (!xi) {
        return false;
    }
    fxgl_image img;
    bool ok = fxgl_image_alloc(&img, width, height);
    // Each mask's lowest set bit gives its shift; 8-bit channels assumed (Xvfb's depth 24).
    int rs = __builtin_ctzl(xi->red_mask), gs = __builtin_ctzl(xi->green_mask),
        bs = __builtin_ctzl(xi->blue_mask);
    for (int y = 0; ok && y < height; y++) {
        for (int x = 0; x < width; x++) {
            unsigned long p = XGetPixel(xi, x, y);
            uint8_t *o = img.pixels + ((size_t)y * (size_t)width + (size_t)x) * 4;
            o[0] = (uint8_t)((p & xi->red_mask) >> rs);
            o[1] = (uint8_t)((p & xi->green_mask) >> gs);
            o[2] = (uint8_t)((p & xi->blue_mask) >> bs);
            o[3] = 255;
        }
    }
    XDestroyImage(xi);
    ok = ok && fxgl_image_save_png(&img, path);
    fxgl_image_free(&img);
    return ok;
}

static void usage(void) {
    fprintf(stderr, "usage: fxgl-demo [--frames N] [--size WxH] [--screenshot out.png] "
                    "[--presented out.png] [--stats out.txt]\n");
}

int main(int argc, char **argv) {
    int frames = 120, width = 1280, height = 720;
    const char *screenshot = NULL, *presented = NULL, *stats = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2) {
                usage();
                return 2;
            }
        } else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) {
            screenshot = argv[++i];
        } else if (strcmp(argv[i], "--presented") == 0 && i + 1 < argc) {
            presented = argv[++i];
        } else if (strcmp(argv[i], "--stats") == 0 && i + 1 < argc) {
            stats = argv[++i];
        } else {
            usage();
            return 2;
        }
    }
    if (frames < 1 || width < 1 || height < 1) {
        usage();
        return 2;
    }
    if (!glfwInit()) {
        fprintf(stderr, "fxgl-demo: cannot initialise GLFW (no display? run under Xvfb)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow *win = glfwCreateWindow(width, height, "fxgl-demo", NULL, NULL);
    if (!win) {
        fprintf(stderr, "fxgl-demo: cannot create a GL 3.3 core window\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(win);
    glfwSwapInterval(0);
    GladGLContext gl;
    fxgl_gl_info info;
    char reason[256];
    if (!fxgl_gl_load(&gl, &info, glfw_proc, NULL, reason, sizeof(reason))) {
        fprintf(stderr, "fxgl-demo: %s\n", reason);
        return 1;
    }
    GLuint prog = gl.CreateProgram();
    GLuint vs = shader(&gl, GL_VERTEX_SHADER, vs_src), fs = shader(&gl, GL_FRAGMENT_SHADER, fs_src);
    gl.AttachShader(prog, vs);
    gl.AttachShader(prog, fs);
    gl.LinkProgram(prog);
    GLuint vao;
    gl.GenVertexArrays(1, &vao);
    GLint u_time = gl.GetUniformLocation(prog, "time"), u_size = gl.GetUniformLocation(prog, "size");

    double *times = calloc((size_t)frames, sizeof(double));
    double last = now_s(), start = last;
    for (int f = 0; f < frames && !glfwWindowShouldClose(win); f++) {
        int fbw, fbh;
        glfwGetFramebufferSize(win, &fbw, &fbh);
        gl.Viewport(0, 0, fbw, fbh);
        gl.UseProgram(prog);
        gl.BindVertexArray(vao);
        // Time advances by a fixed step so runs (and screenshots) are repeatable.
        gl.Uniform1f(u_time, (float)f / 60.0f);
        gl.Uniform2f(u_size, (float)fbw, (float)fbh);
        gl.DrawArrays(GL_TRIANGLES, 0, 3);
        if (screenshot && f == frames - 1) {
            fxgl_image img;
            if (!fxgl_image_read_gl(&img, &gl, fbw, fbh) || !fxgl_image_save_png(&img, screenshot)) {
                fprintf(stderr, "fxgl-demo: cannot write %s\n", screenshot);
            }
            fxgl_image_free(&img);
        }
        glfwSwapBuffers(win);
        if (presented && f == frames - 1) {
            gl.Finish();
            if (!save_window(win, fbw, fbh, presented)) {
                fprintf(stderr, "fxgl-demo: cannot read the window into %s\n", presented);
            }
        }
        glfwPollEvents();
        double t = now_s();
        times[f] = (t - last) * 1000.0;
        last = t;
    }
    double total = last - start;
    qsort(times, (size_t)frames, sizeof(double), compare_double);
    FILE *out = stats ? fopen(stats, "w") : stdout;
    if (out) {
        fprintf(out, "program: fxgl-demo\nrenderer: %s\nversion: %s\nsize: %dx%d\nframes: %d\n"
                     "frame_time_median_ms: %.3f\nframe_time_min_ms: %.3f\n"
                     "frame_time_max_ms: %.3f\nfps_mean: %.1f\n",
                info.renderer, info.version, width, height, frames, times[frames / 2], times[0],
                times[frames - 1], frames / total);
        if (stats) {
            fclose(out);
        }
    }
    free(times);
    gl.DeleteProgram(prog);
    gl.DeleteShader(vs);
    gl.DeleteShader(fs);
    gl.DeleteVertexArrays(1, &vao);
    glfwDestroyWindow(win);
    glfwTerminate();
    return 0;
}
