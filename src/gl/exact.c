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
    // "#define _gexact_view 1\n" and per exact varying
    // "#define _gx_<SEMANTIC> ivec4(a, b, c, d)\n".
    size_t len = 32;
    bool any = false;
    for (int i = 0; i < n; i++) {
        len += strlen(s->exact_varyings[i]) + 48;
        any |= modes[i * 4] | modes[i * 4 + 1] | modes[i * 4 + 2] | modes[i * 4 + 3];
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
    size_t at = (size_t)snprintf(defs, len, "#define _gexact_view 1\n");
    for (int i = 0; i < n; i++) {
        const uint8_t *m = modes + i * 4;
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
