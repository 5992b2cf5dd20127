/*
 * exact.c - exact fullscreen varyings: the analysis of a pass's vertex
 * shader and its transform-feedback capture (gl_exact.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_exact.h"

// Edge function of (a, b) at p: twice the signed area of a, b, p.
static double edge(const double *a, const double *b, double px, double py) {
    return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

static bool inside(const double (*t)[2], double px, double py) {
    double e0 = edge(t[0], t[1], px, py), e1 = edge(t[1], t[2], px, py),
           e2 = edge(t[2], t[0], px, py);
    return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

// Samples per side of the coverage check (edges and corners included).
#define COVER_STEPS 32

bool gl_exact_analyse(unsigned mode, int count, const float *data, int nvary, uint8_t *modes) {
    memset(modes, GL_EXACT_INTERPOLATED, (size_t)(nvary > 0 ? nvary : 0) * 4);
    if ((mode != GL_TRIANGLES && mode != GL_TRIANGLE_STRIP) || count < 3 ||
        count > GL_EXACT_MAX_VERTICES || nvary < 0 || nvary > GL_EXACT_MAX_VARYINGS) {
        return false;
    }
    size_t stride = 4 + 4 * (size_t)nvary;
    // One w for all vertices (then perspective division changes nothing
    // in the interpolation), no clipping against near and far.
    double w = data[3];
    double ndc[GL_EXACT_MAX_VERTICES][2];
    for (int v = 0; v < count; v++) {
        const float *pos = data + (size_t)v * stride;
        if (!(pos[3] > 0.0f) || pos[3] != w || !(fabsf(pos[2]) <= pos[3]) ||
            !isfinite(pos[0]) || !isfinite(pos[1])) {
            return false;
        }
        ndc[v][0] = pos[0] / w;
        ndc[v][1] = pos[1] / w;
    }
    int tris = mode == GL_TRIANGLES ? count / 3 : count - 2;
    double tri[GL_EXACT_MAX_VERTICES][3][2];
    int idx[GL_EXACT_MAX_VERTICES][3];
    int used = 0;
    for (int t = 0; t < tris; t++) {
        int i0 = mode == GL_TRIANGLES ? 3 * t : t;
        int k[3] = {i0, i0 + 1, i0 + 2};
        double (*d)[2] = tri[used];
        for (int j = 0; j < 3; j++) {
            d[j][0] = ndc[k[j]][0];
            d[j][1] = ndc[k[j]][1];
        }
        if (edge(d[0], d[1], d[2][0], d[2][1]) == 0) {
            continue; // degenerate: draws nothing
        }
        memcpy(idx[used], k, sizeof(k));
        used++;
    }
    if (!used) {
        return false;
    }
    // Coverage of [-1, 1]^2, sampled on a grid that includes its edges.
    for (int i = 0; i <= COVER_STEPS; i++) {
        for (int j = 0; j <= COVER_STEPS; j++) {
            double px = -1.0 + 2.0 * i / COVER_STEPS, py = -1.0 + 2.0 * j / COVER_STEPS;
            bool hit = false;
            for (int t = 0; t < used && !hit; t++) {
                hit = inside((const double (*)[2])tri[t], px, py);
            }
            if (!hit) {
                return false;
            }
        }
    }
    // Window position / viewport size is (ndc + 1) / 2 on each axis: a
    // component equal to it at the three vertices of a triangle equals it
    // over the triangle (both are affine there).
    for (int a = 0; a < nvary; a++) {
        for (int c = 0; c < 4; c++) {
            for (int axis = 0; axis < 2; axis++) {
                bool all = true;
                for (int t = 0; t < used && all; t++) {
                    for (int j = 0; j < 3 && all; j++) {
                        int v = idx[t][j];
                        double value = data[(size_t)v * stride + 4 + 4 * (size_t)a + (size_t)c];
                        all = value == (ndc[v][axis] + 1.0) / 2.0;
                    }
                }
                if (all) {
                    modes[a * 4 + c] = (uint8_t)(axis == 0 ? GL_EXACT_X : GL_EXACT_Y);
                }
            }
        }
    }
    return true;
}

bool gl_exact_zeros(int count, const float *data, int nvary, uint8_t *modes) {
    size_t stride = 4 + 4 * (size_t)nvary;
    bool unit = count > 0;
    for (int v = 0; v < count; v++) {
        const float *pos = data + (size_t)v * stride;
        unit = unit && pos[2] == 0.0f && pos[3] == 1.0f;
    }
    for (int c = 0; c < nvary * 4; c++) {
        if (modes[c] != GL_EXACT_INTERPOLATED) {
            continue;
        }
        bool zero = count > 0;
        for (int v = 0; v < count && zero; v++) {
            zero = data[(size_t)v * stride + 4 + (size_t)c] == 0.0f;
        }
        if (zero) {
            modes[c] = GL_EXACT_ZERO;
        }
    }
    return unit;
}

// Runs the vertex shader for the pass's vertices and captures gl_Position
// and the varyings. Its own transform feedback object (an application's may
// be bound, paused by the state capture), the generic buffer binding put
// back; the rasteriser is off and the caller's program binding is reset
// by the load. False when the program does not link with those outputs.
static bool capture(fxgl_runtime *rt, GLuint vs, GLuint ps, const char *const *names, int n,
                    int count, float *out) {
    const char *varyings[GL_EXACT_MAX_VARYINGS + 1];
    varyings[0] = "gl_Position";
    for (int i = 0; i < n; i++) {
        varyings[i + 1] = names[i];
    }
    GLuint prog = GLC(rt, CreateProgram());
    GLC(rt, AttachShader(prog, vs));
    GLC(rt, AttachShader(prog, ps));
    GLC(rt, TransformFeedbackVaryings(prog, n + 1, varyings, GL_INTERLEAVED_ATTRIBS));
    GLC(rt, LinkProgram(prog));
    GLC(rt, DetachShader(prog, vs));
    GLC(rt, DetachShader(prog, ps));
    GLint ok = 0;
    GLC(rt, GetProgramiv(prog, GL_LINK_STATUS, &ok));
    if (!ok) {
        GLC(rt, DeleteProgram(prog));
        return false;
    }
    GLint app_tf = 0, app_buf = 0;
    GLC(rt, GetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &app_tf));
    GLC(rt, GetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &app_buf));
    GLuint tf = 0, buf = 0;
    GLsizeiptr size = (GLsizeiptr)count * (GLsizeiptr)(4 + 4 * n) * (GLsizeiptr)sizeof(float);
    GLC(rt, GenTransformFeedbacks(1, &tf));
    GLC(rt, BindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf));
    GLC(rt, GenBuffers(1, &buf));
    GLC(rt, BindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf));
    GLC(rt, BufferData(GL_TRANSFORM_FEEDBACK_BUFFER, size, NULL, GL_STATIC_READ));
    GLC(rt, BindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf));
    GLC(rt, UseProgram(prog));
    GLC(rt, BindVertexArray(rt->vao));
    // A draw needs a complete framebuffer even with the rasteriser off (a
    // surfaceless context has no default one): COLOR's.
    gl_cache_draw_fbo(rt, rt->color_fbo);
    GLC(rt, Enable(GL_RASTERIZER_DISCARD));
    GLC(rt, BeginTransformFeedback(GL_POINTS));
    GLC(rt, DrawArrays(GL_POINTS, 0, count));
    GLC(rt, EndTransformFeedback());
    GLC(rt, Disable(GL_RASTERIZER_DISCARD));
    GLC(rt, BindVertexArray(0));
    GLC(rt, UseProgram(0));
    rt->cache.program = 0;
    const void *map = GLC(rt, MapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, size,
                                            GL_MAP_READ_BIT));
    bool got = map != NULL;
    if (got) {
        memcpy(out, map, (size_t)size);
        GLC(rt, UnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER));
    }
    GLC(rt, BindTransformFeedback(GL_TRANSFORM_FEEDBACK, (GLuint)app_tf));
    GLC(rt, BindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, (GLuint)app_buf));
    GLC(rt, DeleteTransformFeedbacks(1, &tf));
    GLC(rt, DeleteBuffers(1, &buf));
    GLC(rt, DeleteProgram(prog));
    return got;
}

void gl_exact_gradient(int w, int h, float *gx, float *gy) {
    // Each step rounded to float, in the order the setup computes it: the
    // doubled area of the 2w x 2h triangle, its reciprocal, then the edge
    // term times it. Volatile keeps a compiler from contracting or keeping
    // a wider intermediate.
    volatile float area = (float)(4.0 * (double)w * (double)h);
    volatile float inv = 1.0f / area;
    volatile float x = (float)(4.0 * (double)h) * inv;
    volatile float y = (float)(4.0 * (double)w) * inv;
    *gx = x;
    *gy = y;
}

bool gl_exact_standard(unsigned mode, int count, const float *data, int nvary) {
    static const float at[3][2] = {{-1.0f, -1.0f}, {-1.0f, 3.0f}, {3.0f, -1.0f}};
    if (mode != GL_TRIANGLES || count != 3) {
        return false;
    }
    size_t stride = 4 + 4 * (size_t)nvary;
    for (int v = 0; v < 3; v++) {
        const float *pos = data + (size_t)v * stride;
        if (pos[0] != at[v][0] || pos[1] != at[v][1] || pos[3] != 1.0f) {
            return false;
        }
    }
    return true;
}

// The probe's triangle, as PostProcessVS gives it after the generated code's
// Y flip, and its texcoord; the same vertices as gl_exact_standard requires.
static const char probe_vs[] =
    "#version 150\n"
    "out vec2 t;\n"
    "void main() {\n"
    "    t = vec2(gl_VertexID == 2 ? 2.0 : 0.0, gl_VertexID == 1 ? 2.0 : 0.0);\n"
    "    gl_Position = vec4(t.x * 2.0 - 1.0, t.y * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";
static const char probe_fs[] =
    "#version 150\n"
    "in vec2 t;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(t, 0.0, 1.0); }\n";

static GLuint probe_shader(fxgl_runtime *rt, GLenum kind, const char *src) {
    GLuint s = GLC(rt, CreateShader(kind));
    GLC(rt, ShaderSource(s, 1, &src, NULL));
    GLC(rt, CompileShader(s));
    return s;
}

// Whether the rasteriser interpolates the standard fullscreen triangle's
// texcoord to exactly (k + 0.5) * gl_exact_gradient at every pixel of a w x h
// viewport, with the runtime's state (the first vertex provoking: a
// rasteriser that sets plane equations up from the provoking vertex then
// starts from the one at the origin, whose value is 0). Drawn into a float
// target of its own and read back: at load only.
static bool probe_raster(fxgl_runtime *rt, int w, int h) {
    GLuint vs = probe_shader(rt, GL_VERTEX_SHADER, probe_vs);
    GLuint fs = probe_shader(rt, GL_FRAGMENT_SHADER, probe_fs);
    GLuint prog = GLC(rt, CreateProgram());
    GLC(rt, AttachShader(prog, vs));
    GLC(rt, AttachShader(prog, fs));
    GLC(rt, LinkProgram(prog));
    GLC(rt, DeleteShader(vs));
    GLC(rt, DeleteShader(fs));
    GLint ok = 0;
    GLC(rt, GetProgramiv(prog, GL_LINK_STATUS, &ok));
    float *px = ok ? malloc((size_t)w * (size_t)h * 2 * sizeof(float)) : NULL;
    if (!px) {
        GLC(rt, DeleteProgram(prog));
        return false;
    }
    GLuint rb = 0, fbo = 0;
    GLC(rt, GenRenderbuffers(1, &rb));
    GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, rb));
    GLC(rt, RenderbufferStorage(GL_RENDERBUFFER, GL_RG32F, w, h));
    GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, 0));
    gl_state_touch(&rt->st, GL_STATE_FRAMEBUFFERS);
    GLC(rt, GenFramebuffers(1, &fbo));
    gl_cache_draw_fbo(rt, fbo);
    gl_cache_read_fbo(rt, fbo);
    GLC(rt, FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                    rb));
    bool exact = GLC(rt, CheckFramebufferStatus(GL_DRAW_FRAMEBUFFER)) == GL_FRAMEBUFFER_COMPLETE;
    if (exact) {
        gl_cache_viewport(rt, w, h);
        gl_cache_plain(rt);
        gl_cache_program(rt, prog);
        gl_cache_vao(rt, rt->vao);
        GLC(rt, DrawArrays(GL_TRIANGLES, 0, 3));
        GLC(rt, ReadPixels(0, 0, w, h, GL_RG, GL_FLOAT, px));
        float gx, gy;
        gl_exact_gradient(w, h, &gx, &gy);
        for (int y = 0; y < h && exact; y++) {
            const float *row = px + (size_t)y * (size_t)w * 2;
            for (int x = 0; x < w && exact; x++) {
                exact = row[2 * x] == (float)(x + 0.5) * gx &&
                        row[2 * x + 1] == (float)(y + 0.5) * gy;
            }
        }
    }
    gl_cache_draw_fbo(rt, rt->color_fbo);
    gl_cache_read_fbo(rt, rt->color_fbo);
    gl_cache_program(rt, 0);
    GLC(rt, DeleteFramebuffers(1, &fbo));
    GLC(rt, DeleteRenderbuffers(1, &rb));
    GLC(rt, DeleteProgram(prog));
    free(px);
    return exact;
}

// The rasteriser's values are taken where a pass draws the standard triangle
// and the probe found them exact. Only where the reference's rasteriser is
// this one: lavapipe is llvmpipe, so the same setup arithmetic gives the
// reference's values at every size, not only the probed one.
static bool raster_exact(fxgl_runtime *rt) {
    if (rt->raster_exact == 0 && rt->raster_off) {
        rt->raster_exact = -1;
    } else if (rt->raster_exact == 0) {
        // 161x91: neither gradient is 1 / size rounded there, so a rasteriser
        // computing that passes not; then the back buffer's own size, up to
        // 4 Mpixels (the read-back is 8 bytes a pixel).
        bool llvmpipe = strstr(rt->info.renderer, "llvmpipe");
        long pixels = (long)rt->width * rt->height;
        rt->raster_exact = llvmpipe && rt->st.caps.provoking_vertex && pixels > 0 &&
                                   probe_raster(rt, 161, 91) &&
                                   (pixels > 4L * 1024 * 1024 ||
                                    probe_raster(rt, rt->width, rt->height))
                               ? 1
                               : -1;
        gl_log(rt, FXGL_GL_LOG_DEBUG, "fullscreen varyings %s",
               rt->raster_exact > 0 ? "left to the rasteriser: its values are the exact ones"
                                    : "computed from the pixel position where proved");
    }
    return rt->raster_exact > 0;
}

// Whether every pass drawn with fp's stages writes an image whose top row is
// the first in memory: a render target, or the back buffer of a program that
// presents a window (stored top-down; an FBO is bottom-up). Passes of one
// stage triple share one analysis (the program cache keeps one per triple).
static bool top_down(const fxgl_runtime *rt, const fxgl_effect *fx, const fxgl_pass *fp) {
    if (rt->frame && rt->frame->framebuffer == 0) {
        return true;
    }
    for (size_t t = 0; t < fx->technique_count; t++) {
        for (size_t k = 0; k < fx->techniques[t].pass_count; k++) {
            const fxgl_pass *q = &fx->techniques[t].passes[k];
            if (q->vertex_shader == fp->vertex_shader && q->pixel_shader == fp->pixel_shader &&
                q->topology == fp->topology && q->vertex_count == fp->vertex_count &&
                q->render_target_count == 0) {
                return false;
            }
        }
    }
    return true;
}

bool gl_exact_rasterised(const gl_pass *p) {
    bool any = false;
    for (int k = 0; p->exact_modes && k < 4 * p->exact_count; k++) {
        any |= p->exact_modes[k] == GL_EXACT_X || p->exact_modes[k] == GL_EXACT_Y;
    }
    return any && p->exact_defines && !strstr(p->exact_defines, "#define _gx_");
}

bool gl_exact_load(fxgl_runtime *rt, const fxgl_effect *fx, const fxgl_pass *fp, GLuint vs,
                   GLuint ps, gl_pass *p) {
    // COLOR's framebuffer (made by the resize before any load) is the one
    // the capture draws with.
    if (rt->desc.interpolated_varyings || fp->compute_shader >= 0 || fp->vertex_shader < 0 ||
        fp->pixel_shader < 0 || !vs || !ps || !rt->color_fbo) {
        return false;
    }
    const fxgl_shader *v = &fx->shaders[fp->vertex_shader];
    const fxgl_shader *s = &fx->shaders[fp->pixel_shader];
    GLenum mode = fp->topology == FXGL_TOPOLOGY_TRIANGLELIST    ? GL_TRIANGLES
                  : fp->topology == FXGL_TOPOLOGY_TRIANGLESTRIP ? GL_TRIANGLE_STRIP
                                                                : 0;
    int n = (int)s->exact_varying_count;
    // A vertex shader reading uniforms or textures may give other values
    // after loading; one that no transform feedback can hold is left alone.
    if (!n || n > GL_EXACT_MAX_VARYINGS || v->uses_uniforms || v->sampler_count || !mode ||
        fp->vertex_count < 3 || fp->vertex_count > GL_EXACT_MAX_VERTICES) {
        return false;
    }
    int count = (int)fp->vertex_count;
    float data[GL_EXACT_MAX_VERTICES * (4 + 4 * GL_EXACT_MAX_VARYINGS)];
    uint8_t modes[4 * GL_EXACT_MAX_VARYINGS];
    if (!capture(rt, vs, ps, s->exact_varyings, n, count, data) ||
        !gl_exact_analyse(mode, count, data, n, modes)) {
        return false;
    }
    bool unit = gl_exact_zeros(count, data, n, modes);
    // Left to the rasteriser, the exact components need no variant: the
    // defines below then only give the compute form its values. Its values
    // are exact where the image's top row is the first in memory: the
    // effect's textures, and a window (stored top-down), not a bottom-up FBO
    // that a back-buffer pass may be drawn into upside down (find_direct).
    bool raster = top_down(rt, fx, fp) && gl_exact_standard(mode, count, data, n) &&
                  raster_exact(rt);
    // "#define _gexact_view 1\n", "#define _gexact_pos vec2(0.5, 1.0)\n"
    // when the clip positions are (x, y, 0, 1) (the compute form's
    // SV_Position.zw; the fragment shader ignores it) and per exact varying
    // "#define _gx_<SEMANTIC> ivec4(a, b, c, d)\n" (zero components as
    // interpolated: the fragment variant's program stays the same).
    size_t len = 80;
    bool any = false;
    for (int i = 0; i < 4 * n; i++) {
        len += i % 4 ? 0 : strlen(s->exact_varyings[i / 4]) + 48;
        any |= modes[i] == GL_EXACT_X || modes[i] == GL_EXACT_Y;
    }
    if (!any) {
        return false;
    }
    char *defs = malloc(len);
    uint8_t *keep = malloc((size_t)n * 4);
    if (!defs || !keep) {
        free(defs);
        free(keep);
        return false;
    }
    size_t at = (size_t)snprintf(defs, len, "#define _gexact_view 1\n%s",
                                 unit ? "#define _gexact_pos vec2(0.5, 1.0)\n" : "");
    for (int i = 0; i < n; i++) {
        int m[4];
        for (int c = 0; c < 4; c++) {
            m[c] = modes[i * 4 + c] == GL_EXACT_ZERO || raster ? GL_EXACT_INTERPOLATED
                                                               : modes[i * 4 + c];
        }
        if (!(m[0] | m[1] | m[2] | m[3])) {
            continue;
        }
        // "_v_TEXCOORD0" -> "_gx_TEXCOORD0"
        at += (size_t)snprintf(defs + at, len - at, "#define _gx_%s ivec4(%d, %d, %d, %d)\n",
                               s->exact_varyings[i] + 3, m[0], m[1], m[2], m[3]);
    }
    memcpy(keep, modes, (size_t)n * 4);
    p->exact_defines = defs;
    p->exact_modes = keep;
    p->exact_count = n;
    return true;
}
