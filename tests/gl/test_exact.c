/*
 * test_exact.c - exact fullscreen varyings (src/gl/exact.c, docs/runtime.md)
 * on GL 4.5 core and GLES 3.2.
 *
 * The analysis alone: captured vertex values written here (the big
 * triangle, a two-triangle quad, a half-screen quad, a scaled texcoord, a
 * line list) and the modes it must give.
 *
 * Through the runtime: effects compiled by fxgl write frac(texcoord * n)
 * and step(0.5, frac(texcoord * n)) at sizes where texcoord * n lands
 * exactly on an integer or a half on whole rows and columns (n = 2 * width,
 * odd heights). Every pixel is compared with the value computed here: the
 * texcoord as a plane-equation rasteriser computes it in fp32 (and Vulkan on
 * lavapipe does, measured bit for bit): the pixel centre x + 0.5 times the
 * gradient of the 2w x 2h triangle's plane equation as its setup rounds it
 * (4h * (1 / 4wh), step by step), times n in float, its fraction. Which
 * passes llvmpipe's own rasteriser was left to (the first vertex
 * provoking) is checked too. Effects whose vertex shader is not a plain
 * fullscreen mapping (a varying that is not pixel / size, a half-screen
 * quad) must give the same pixels as with exact varyings off.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "gl_exact.h"

// --- the analysis ---

// Vertex v of data (stride 8: position, one varying).
static void vert(float *data, int v, float x, float y, float u, float t) {
    float *d = data + v * 8;
    d[0] = x;
    d[1] = y;
    d[2] = 0.0f;
    d[3] = 1.0f;
    d[4] = u;
    d[5] = t;
    d[6] = 0.0f;
    d[7] = 1.0f;
}

START_TEST(analysis) {
    float data[6 * 8];
    uint8_t m[4];
    // PostProcessVS after the generated Y flip: clip y = -(D3D y), so the
    // texcoord's y is (clip y + 1) / 2 as x is.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 3, -1, 2, 0);
    vert(data, 2, -1, 3, 0, 2);
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_X);
    ck_assert_int_eq(m[1], GL_EXACT_Y);
    ck_assert_int_eq(m[2], GL_EXACT_INTERPOLATED); // constant 0
    ck_assert_int_eq(m[3], GL_EXACT_INTERPOLATED); // constant 1
    // The same with w = 2 everywhere.
    for (int v = 0; v < 3; v++) {
        for (int c = 0; c < 4; c++) {
            data[v * 8 + c] *= 2.0f;
        }
    }
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_X);
    // Another w at one vertex: perspective, never exact.
    data[3] = 1.0f;
    ck_assert(!gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0] | m[1] | m[2] | m[3], 0);
    // Texcoord twice as large (0..2 over the viewport): covered, not exact.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 3, -1, 4, 0);
    vert(data, 2, -1, 3, 0, 4);
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0] | m[1], 0);
    // Components swapped: x follows the y axis.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 3, -1, 0, 2);
    vert(data, 2, -1, 3, 2, 0);
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_Y);
    ck_assert_int_eq(m[1], GL_EXACT_X);
    // Two triangles, a full quad.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 1, -1, 1, 0);
    vert(data, 2, -1, 1, 0, 1);
    vert(data, 3, -1, 1, 0, 1);
    vert(data, 4, 1, -1, 1, 0);
    vert(data, 5, 1, 1, 1, 1);
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 6, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_X);
    ck_assert_int_eq(m[1], GL_EXACT_Y);
    // The same quad as a strip of four.
    vert(data, 3, 1, 1, 1, 1);
    ck_assert(gl_exact_analyse(GL_TRIANGLE_STRIP, 4, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_X);
    // Only its first triangle: half the viewport.
    ck_assert(!gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    // A quad over the left half, texcoord still pixel / size there.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 0, -1, 0.5f, 0);
    vert(data, 2, -1, 1, 0, 1);
    vert(data, 3, 0, 1, 0.5f, 1);
    ck_assert(!gl_exact_analyse(GL_TRIANGLE_STRIP, 4, data, 1, m));
    // One vertex off by an ulp: not exact.
    vert(data, 0, -1, -1, 0, 0);
    vert(data, 1, 3, -1, nextafterf(2.0f, 0.0f), 0);
    vert(data, 2, -1, 3, 0, 2);
    ck_assert(gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    ck_assert_int_eq(m[0], GL_EXACT_INTERPOLATED);
    ck_assert_int_eq(m[1], GL_EXACT_Y);
    // Depth outside the clip volume, lines, too few vertices.
    data[2] = 2.0f;
    ck_assert(!gl_exact_analyse(GL_TRIANGLES, 3, data, 1, m));
    data[2] = 0.0f;
    ck_assert(!gl_exact_analyse(GL_LINES, 3, data, 1, m));
    ck_assert(!gl_exact_analyse(GL_TRIANGLES, 2, data, 1, m));
}
END_TEST

// --- through the runtime ---

static const char vs_triangle[] = FXGL_TEST_FX_FULLSCREEN_VS;

// Two triangles (VertexCount = 6).
static const char vs_quad[] =
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    static const float2 c[6] = { float2(0, 0), float2(1, 0), float2(0, 1),\n"
    "                                 float2(0, 1), float2(1, 0), float2(1, 1) };\n"
    "    uv = c[id];\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n";

// A varying that is no pixel / size: x squared, y halved.
static const char vs_other[] =
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    float2 t = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
    "    uv = float2(t.x * t.x, t.y * 0.5);\n"
    "    pos = float4(t * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n";

// The left half (VertexCount = 6), uv still pixel / size there.
static const char vs_half[] =
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    static const float2 c[6] = { float2(0, 0), float2(0.5, 0), float2(0, 1),\n"
    "                                 float2(0, 1), float2(0.5, 0), float2(0.5, 1) };\n"
    "    uv = c[id];\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n";

// BITS_TX/TY: the bits pass into a texture of the back buffer's size, then
// copied to it with texel fetches.
typedef enum shape { TRIANGLE, QUAD, OTHER, HALF, TARGET, BITS_X, BITS_Y, BITS_TX, BITS_TY } shape;

// Writes the effect: the pixel shader's values for a viewport of vw x vh;
// TARGET renders them into a texture of that size and copies it to the
// back buffer's top left corner with exact texel fetches.
static void effect_source(char *out, size_t size, shape s, int vw, int vh) {
    const char *vs = s == QUAD ? vs_quad : s == OTHER ? vs_other : s == HALF ? vs_half
                                                                             : vs_triangle;
    if (s == BITS_X || s == BITS_Y || s == BITS_TX || s == BITS_TY) {
        // The texcoord's 32 bits, a byte per channel (k / 255 is exact in UNORM8).
        int n = snprintf(out, size,
                         "%s"
                         "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
                         "{\n"
                         "    uint b = asuint(uv.%c);\n"
                         "    return float4(b >> 24, (b >> 16) & 255, (b >> 8) & 255, b & 255) / "
                         "255.0;\n"
                         "}\n",
                         vs, s == BITS_X || s == BITS_TX ? 'x' : 'y');
        if (s == BITS_X || s == BITS_Y) {
            snprintf(out + n, size - (size_t)n,
                     "technique Exact { pass { VertexShader = VS; PixelShader = PS; } }\n");
        } else {
            snprintf(out + n, size - (size_t)n,
                     "texture T { Width = %d; Height = %d; Format = RGBA8; };\n"
                     "sampler sT { Texture = T; };\n"
                     "float4 Copy(float4 pos : SV_Position) : SV_Target\n"
                     "{\n"
                     "    return tex2Dfetch(sT, int2(pos.xy));\n"
                     "}\n"
                     "technique Exact {\n"
                     "    pass { VertexShader = VS; PixelShader = PS; RenderTarget = T; }\n"
                     "    pass { VertexShader = VS; PixelShader = Copy; }\n"
                     "}\n",
                     vw, vh);
        }
        return;
    }
    int n = snprintf(out, size,
                     "%s"
                     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
                     "{\n"
                     "    float2 f = frac(uv * float2(%d.0, %d.0));\n"
                     "    return float4(f, step(0.5, frac(uv.y * %d.0)),\n"
                     "                  step(0.5, frac(uv.x * %d.0)));\n"
                     "}\n",
                     vs, 2 * vw, 2 * vh, vh, vw);
    if (s == TARGET) {
        snprintf(out + n, size - (size_t)n,
                 "texture T { Width = %d; Height = %d; Format = RGBA8; };\n"
                 "sampler sT { Texture = T; };\n"
                 "float4 Copy(float4 pos : SV_Position) : SV_Target\n"
                 "{\n"
                 "    int2 p = int2(pos.xy);\n"
                 "    return p.x < %d && p.y < %d ? tex2Dfetch(sT, p) : 0.0;\n"
                 "}\n"
                 "technique Exact {\n"
                 "    pass { VertexShader = VS; PixelShader = PS; RenderTarget = T; }\n"
                 "    pass { VertexShader = VS; PixelShader = Copy; }\n"
                 "}\n",
                 vw, vh, vw, vh);
    } else {
        snprintf(out + n, size - (size_t)n,
                 "technique Exact { pass { VertexShader = VS; PixelShader = PS; %s } }\n",
                 s == QUAD || s == HALF ? "VertexCount = 6;" : "");
    }
}

// The texcoord of pixel x along an axis of `size` pixels, `other` across:
// what lavapipe's rasteriser gives (measured bit for bit, docs/runtime.md).
// The plane equation of the 2size x 2other fullscreen triangle, starting
// from its vertex at the origin (value 0): gradient = 4other * (1 / 4 size
// other), each step rounded to float, times the pixel centre. At many sizes
// the gradient is the correctly rounded 1 / size; see gradient_differs.
static float gradient(int size, int other) {
    volatile float area = (float)(4.0 * size * other);
    volatile float inv = 1.0f / area;
    volatile float g = (float)(4.0 * other) * inv;
    return g;
}

static float texcoord(int x, int size, int other) {
    volatile float g = gradient(size, other);
    volatile float t = (float)(x + 0.5) * g;
    return t;
}

// Whether the size is one where the reference's gradient is not 1 / size
// rounded: there a runtime computing (x + 0.5) / size misses the reference.
static bool gradient_differs(int size, int other) {
    return gradient(size, other) != (float)(1.0 / size);
}

static float exact_frac(int x, int size, int other, int n) {
    float t = texcoord(x, size, other);
    float f = t * (float)n;
    return f - floorf(f);
}

static uint8_t unorm8(float v) {
    return (uint8_t)lrintf(v * 255.0f);
}

typedef struct run {
    int w, h;
    uint8_t *pixels;             // top row first, RGBA8
    int exact;                   // fxgl_runtime_pass_exact_varyings of pass 0
    bool rasterised;             // fxgl_runtime_pass_exact_rasterised of pass 0
    bool llvmpipe;               // the renderer is llvmpipe
} run;

static fxgl_test_egl *contexts[2];

static void render(bool es, shape s, int w, int h, int vw, int vh, bool direct,
                   bool interpolated, run *r) {
    if (!contexts[es]) {
        char reason[256];
        fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
        contexts[es] = fxgl_test_egl_create(&desc, reason, sizeof(reason));
        ck_assert_msg(contexts[es], "%s", reason);
    }
    fxgl_test_egl *egl = contexts[es];
    ck_assert(fxgl_test_egl_make_current(egl));
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    GLuint tex, fbo;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    gl->ClearColor(0, 0, 0, 0);
    gl->Clear(GL_COLOR_BUFFER_BIT);

    char src[4096];
    effect_source(src, sizeof(src), s, vw, vh);
    fxgl_effect *fx = fxgl_test_compile("Exact.fx", src, w, h, es);
    ck_assert_msg(fx, "the test effect does not compile");

    fxgl_runtime_desc rd = {.no_direct_pass = !direct, .interpolated_varyings = interpolated};
    fxgl_runtime *rt = fxgl_runtime_create(gl, fxgl_test_egl_info(egl), &rd);
    ck_assert(rt);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, fx, "Exact.fx"), 0);
    // The load runs the vertex shader with a transform feedback object of
    // its own: the program's objects must be bound again afterwards.
    GLuint app_tf, app_buf, app_vao;
    gl->GenTransformFeedbacks(1, &app_tf);
    gl->BindTransformFeedback(GL_TRANSFORM_FEEDBACK, app_tf);
    gl->GenBuffers(1, &app_buf);
    gl->BindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, app_buf);
    gl->GenVertexArrays(1, &app_vao);
    gl->BindVertexArray(app_vao);
    fxgl_frame_desc fd = {.width = w, .height = h, .framebuffer = fbo};
    ck_assert(fxgl_runtime_frame(rt, &fd));
    GLint got_tf = -1, got_buf = -1, got_vao = -1, got_prog = -1;
    gl->GetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &got_tf);
    gl->GetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &got_buf);
    gl->GetIntegerv(GL_VERTEX_ARRAY_BINDING, &got_vao);
    gl->GetIntegerv(GL_CURRENT_PROGRAM, &got_prog);
    ck_assert_int_eq(got_tf, (GLint)app_tf);
    ck_assert_int_eq(got_buf, (GLint)app_buf);
    ck_assert_int_eq(got_vao, (GLint)app_vao);
    ck_assert_int_eq(got_prog, 0);
    ck_assert(!gl->IsEnabled(GL_RASTERIZER_DISCARD));
    gl->BindVertexArray(0);
    gl->DeleteVertexArrays(1, &app_vao);
    gl->BindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    gl->DeleteTransformFeedbacks(1, &app_tf);
    gl->DeleteBuffers(1, &app_buf);
    ck_assert_int_eq(fxgl_runtime_effect_status(rt, 0, NULL), FXGL_STATUS_READY);
    r->exact = fxgl_runtime_pass_exact_varyings(rt, 0, 0);
    r->rasterised = fxgl_runtime_pass_exact_rasterised(rt, 0, 0);
    r->llvmpipe = strstr(fxgl_test_egl_info(egl)->renderer, "llvmpipe") != NULL;
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);

    r->w = w;
    r->h = h;
    r->pixels = malloc((size_t)w * (size_t)h * 4);
    ck_assert(r->pixels);
    uint8_t *rows = malloc((size_t)w * (size_t)h * 4);
    ck_assert(rows);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rows);
    // The program's framebuffer is bottom-up; the effect's rows top-down.
    for (int y = 0; y < h; y++) {
        memcpy(r->pixels + (size_t)y * (size_t)w * 4, rows + (size_t)(h - 1 - y) * (size_t)w * 4,
               (size_t)w * 4);
    }
    free(rows);
    fxgl_runtime_destroy(rt);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    fxgl_effect_destroy(fx);
}

// Pixels of the vw x vh corner that differ from the exact values (the frac
// channels by more than one step of 255, the step channels at all); ties:
// pixels where a product lands on an integer or a half.
static int compare_exact(const run *r, int vw, int vh, int *ties) {
    int bad = 0;
    *ties = 0;
    for (int y = 0; y < vh; y++) {
        for (int x = 0; x < vw; x++) {
            float fx = exact_frac(x, vw, vh, 2 * vw), fy = exact_frac(y, vh, vw, 2 * vh);
            float sy = exact_frac(y, vh, vw, vh) >= 0.5f ? 1.0f : 0.0f;
            float sx = exact_frac(x, vw, vh, vw) >= 0.5f ? 1.0f : 0.0f;
            *ties += fx == 0.0f || fy == 0.0f || exact_frac(y, vh, vw, vh) == 0.5f ||
                     exact_frac(x, vw, vh, vw) == 0.5f;
            const uint8_t *p = r->pixels + ((size_t)y * (size_t)r->w + (size_t)x) * 4;
            uint8_t want[4] = {unorm8(fx), unorm8(fy), unorm8(sy), unorm8(sx)};
            bool ok = abs(p[0] - want[0]) <= 1 && abs(p[1] - want[1]) <= 1 &&
                      p[2] == want[2] && p[3] == want[3];
            if (!ok && bad < 5) {
                fprintf(stderr, "  (%d, %d): got %d %d %d %d, want %d %d %d %d\n", x, y, p[0],
                        p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
            }
            bad += !ok;
        }
    }
    return bad;
}

// 45x37 and 320x180 give TARGET viewports (23x19, 161x91), 333x197 and
// 854x480 back buffers, where the reference's gradient is not 1 / size.
static const int sizes[][2] = {{45, 37}, {64, 49}, {101, 27}, {320, 180}, {333, 197}, {854, 480}};

static void exact_case(bool es) {
    int differs = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        for (int shape_i = 0; shape_i < 3; shape_i++) {
            shape s = shape_i == 0 ? TRIANGLE : shape_i == 1 ? QUAD : TARGET;
            int w = sizes[i][0], h = sizes[i][1];
            // TARGET: a texture of another odd size than the back buffer.
            int vw = s == TARGET ? w / 2 + 1 : w, vh = s == TARGET ? h / 2 + 1 : h;
            for (int direct = 0; direct < 2; direct++) {
                run on, off;
                render(es, s, w, h, vw, vh, direct, false, &on);
                render(es, s, w, h, vw, vh, direct, true, &off);
                int ties, ties_off;
                int bad = compare_exact(&on, vw, vh, &ties);
                int before = compare_exact(&off, vw, vh, &ties_off);
                printf("%s %dx%d (viewport %dx%d) shape %d direct %d: %d tie pixels, "
                       "%d differ with interpolated varyings, %d with exact ones\n",
                       es ? "GLES" : "GL", w, h, vw, vh, (int)s, direct, ties, before, bad);
                ck_assert_msg(ties > 0, "the size gives no tie to test");
                differs += gradient_differs(vw, vh) || gradient_differs(vh, vw);
                ck_assert_int_eq(on.exact, 2);
                ck_assert_int_eq(off.exact, 0);
                // On llvmpipe's desktop GL the standard triangle's values are the
                // rasteriser's own (the first vertex provoking) in a texture; a
                // back-buffer pass may be drawn upside down into this bottom-up
                // FBO; GLES cannot choose the provoking vertex.
                ck_assert(on.rasterised == (!es && on.llvmpipe && s == TARGET));
                ck_assert(!off.rasterised);
                ck_assert_msg(bad == 0, "%d pixels differ from the exact values", bad);
                free(on.pixels);
                free(off.pixels);
            }
        }
    }
    // Sizes where (k + 0.5) / size is not the reference's value were tested.
    ck_assert_int_gt(differs, 0);
}

// Every texcoord bit for bit, along long rows and columns.
static void bits_case(bool es) {
    // 1006: the gradient is not 1 / 1006 rounded (gradient_differs).
    static const int lengths[] = {1006, 1920, 4093, 16383};
    for (size_t i = 0; i < 2 * sizeof(lengths) / sizeof(lengths[0]); i++) {
        for (int axis = 0; axis < 2; axis++) {
            // First straight into the back buffer, then through a texture.
            int len = lengths[i / 2];
            bool target = i % 2;
            int w = axis ? 3 : len, h = axis ? len : 3;
            shape s = target ? (axis ? BITS_TY : BITS_TX) : (axis ? BITS_Y : BITS_X);
            run on, off;
            render(es, s, w, h, w, h, true, false, &on);
            render(es, s, w, h, w, h, true, true, &off);
            int bad = 0, before = 0;
            for (int k = 0; k < len; k++) {
                float want = texcoord(k, len, 3);
                uint32_t wb;
                memcpy(&wb, &want, 4);
                for (int j = 0; j < 3; j++) {
                    int x = axis ? j : k, y = axis ? k : j;
                    const uint8_t *p = on.pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
                    const uint8_t *q = off.pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
                    uint32_t got = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                                   (uint32_t)p[2] << 8 | p[3];
                    uint32_t was = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
                                   (uint32_t)q[2] << 8 | q[3];
                    if (got != wb && bad < 5) {
                        fprintf(stderr, "  %s %d of %d: got %08x, want %08x\n", axis ? "y" : "x",
                                k, len, got, wb);
                    }
                    bad += got != wb;
                    before += was != wb;
                }
            }
            printf("%s texcoord.%c over %d pixels%s: %d of %d differ "
                   "with interpolated varyings, %d with exact ones%s\n", es ? "GLES" : "GL",
                   axis ? 'y' : 'x', len, target ? " (through a texture)" : "", before,
                   3 * len, bad, on.rasterised ? " (the rasteriser's)" : "");
            ck_assert_int_eq(on.exact, 2);
            ck_assert(on.rasterised == (!es && on.llvmpipe && target));
            ck_assert_int_eq(bad, 0);
            free(on.pixels);
            free(off.pixels);
        }
    }
}

// Vertex shaders that are not a plain fullscreen mapping keep every pixel.
static void unchanged_case(bool es) {
    for (int shape_i = 0; shape_i < 2; shape_i++) {
        shape s = shape_i == 0 ? OTHER : HALF;
        for (int direct = 0; direct < 2; direct++) {
            run on, off;
            render(es, s, 45, 37, 45, 37, direct, false, &on);
            render(es, s, 45, 37, 45, 37, direct, true, &off);
            ck_assert_int_eq(on.exact, 0);
            ck_assert(memcmp(on.pixels, off.pixels, 45 * 37 * 4) == 0);
            free(on.pixels);
            free(off.pixels);
        }
    }
}

static void destroy_contexts(void) {
    for (int i = 0; i < 2; i++) {
        fxgl_test_egl_destroy(contexts[i]);
        contexts[i] = NULL;
    }
}

START_TEST(exact_gl) {
    exact_case(false);
    destroy_contexts();
}
END_TEST

START_TEST(exact_gles) {
    exact_case(true);
    destroy_contexts();
}
END_TEST

START_TEST(bits_gl) {
    bits_case(false);
    destroy_contexts();
}
END_TEST

START_TEST(bits_gles) {
    bits_case(true);
    destroy_contexts();
}
END_TEST

START_TEST(unchanged_gl) {
    unchanged_case(false);
    destroy_contexts();
}
END_TEST

// FXGL_EXACT_RASTER=0: the pixel shader computes the texcoord where the
// rasteriser would have been left to it; the same pixels.
START_TEST(raster_off) {
    run rast, shader;
    render(false, TARGET, 333, 197, 167, 99, false, false, &rast);
    setenv("FXGL_EXACT_RASTER", "0", 1);
    render(false, TARGET, 333, 197, 167, 99, false, false, &shader);
    unsetenv("FXGL_EXACT_RASTER");
    ck_assert(rast.rasterised == rast.llvmpipe);
    ck_assert(!shader.rasterised);
    ck_assert_int_eq(shader.exact, 2);
    int ties;
    ck_assert_int_eq(compare_exact(&shader, 167, 99, &ties), 0);
    ck_assert(memcmp(rast.pixels, shader.pixels, 333 * 197 * 4) == 0);
    free(rast.pixels);
    free(shader.pixels);
    destroy_contexts();
}
END_TEST

START_TEST(unchanged_gles) {
    unchanged_case(true);
    destroy_contexts();
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GL)) {
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("exact");
    TCase *tc = tcase_create("exact");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, analysis);
    tcase_add_test(tc, exact_gl);
    tcase_add_test(tc, exact_gles);
    tcase_add_test(tc, bits_gl);
    tcase_add_test(tc, bits_gles);
    tcase_add_test(tc, unchanged_gl);
    tcase_add_test(tc, unchanged_gles);
    tcase_add_test(tc, raster_off);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
