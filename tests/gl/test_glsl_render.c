/*
 * test_glsl_render.c - the semantic suite of the GLSL generator: small FX
 * effects are compiled for GL 4.5 core (gl450) and GLES 3.2 (es320), run on
 * a headless EGL context (llvmpipe in CI) by a minimal loader in this file
 * (not the runtime: textures with known contents, sampler objects, the
 * uniform block from the module's initial data, passes in order), and the
 * pixels of a 4x4 RGBA32F target are compared with values computed here in
 * C, independently of the code under test.
 *
 * Inputs come from uniforms (the generator folds constant expressions
 * itself, so constant inputs would test the folder instead of the GLSL).
 * Pixel (x, y) is D3D's: y grows downwards, like the effect textures that
 * the generated vertex shaders' Y flip keeps top-down; the read-back rows
 * are in that order too (FBO row 0 is the top row).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_test.h"
#include "glsl_util.h"

#define W 4
#define H 4

// --- expectations ---

typedef void (*expect_fn)(int x, int y, float out[4]);

enum {
    GL_ONLY = 1 << 0,            // needs something GLSL ES 3.2 lacks
    SPECIAL = 1 << 1,            // compare inf/NaN exactly
};

typedef struct rcase {
    const char *name;
    const char *src;             // declarations and float4 PS(...) : SV_Target, or a whole effect
    expect_fn fn;                // per-pixel expectation, or NULL for k
    float k[4];                  // the expected colour of every pixel
    float tol;                   // absolute tolerance (0: 1e-5)
    unsigned flags;
} rcase;

#define VS_SRC                                                                                  \
    "void PostProcessVS(in uint id : SV_VertexID, out float4 position : SV_Position, "        \
    "out float2 texcoord : TEXCOORD) {\n"                                                      \
    "    texcoord.x = (id == 2) ? 2.0 : 0.0;\n"                                                \
    "    texcoord.y = (id == 1) ? 2.0 : 0.0;\n"                                                \
    "    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"     \
    "}\n"
#define PS_HEAD "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"

// The contents the loader gives textures: distinct per texel, level and layer.
static void texel_rgba32f(int x, int y, int z, int level, float out[4]) {
    out[0] = (float)x + 1;
    out[1] = (float)y + 1;
    out[2] = (float)z + 1;
    out[3] = (float)level + 1;
}

static uint8_t texel_rgba8(int x, int y, int c) {
    return (uint8_t)(c == 0 ? x * 40 + 10 : c == 1 ? y * 40 + 10 : c == 2 ? 128 : 255);
}

static float texel_r32f(int x, int y, int z, int level) {
    return (float)(x + 10 * y + 100 * z + 1000 * level);
}

static int32_t texel_r32i(int x, int y) {
    return -(x + 10 * y) - 1;
}

static uint32_t texel_r32u(int x, int y) {
    return (uint32_t)(x + 10 * y + 7);
}

// --- expected values of the cases (computed here, not by the shaders) ---

static void e_uv(int x, int y, float o[4]) {
    o[0] = (x + 0.5f) / W;
    o[1] = (y + 0.5f) / H;
    o[2] = 0;
    o[3] = 1;
}

static void e_fragcoord(int x, int y, float o[4]) {
    o[0] = x + 0.5f;
    o[1] = y + 0.5f;
    o[2] = 0;
    o[3] = 1;
}

static void e_deriv(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    o[0] = 1.0f / W; // ddx(uv.x)
    o[1] = 1.0f / H; // ddy(uv.y): positive, y grows downwards like D3D
    o[2] = 1.0f;     // ddy(SV_Position.y)
    o[3] = 0.0f;     // ddx(uv.y)
}

static void e_tex_point(int x, int y, float o[4]) {
    texel_rgba32f(x, y, 0, 0, o);
}

static void e_tex_offset(int x, int y, float o[4]) {
    int tx = x + 1 > W - 1 ? W - 1 : x + 1; // CLAMP addressing
    int ty = y - 1 < 0 ? 0 : y - 1;
    texel_rgba32f(tx, ty, 0, 0, o);
}

static void e_tex_lod1(int x, int y, float o[4]) {
    texel_rgba32f(x / 2, y / 2, 0, 1, o);
}

static void e_tex_lod1_offset(int x, int y, float o[4]) {
    int tx = x / 2 + 1 > 1 ? 1 : x / 2 + 1;
    texel_rgba32f(tx, y / 2, 0, 1, o);
}

static void e_tex_fetch(int x, int y, float o[4]) {
    float a[4], b[4];
    texel_rgba32f(x, y, 0, 0, a);
    texel_rgba32f(x / 2, y / 2, 0, 1, b);
    o[0] = a[0];
    o[1] = a[1];
    o[2] = b[0];
    o[3] = b[3];
}

static void e_tex_wrap(int x, int y, float o[4]) {
    // uv + (1.25, -0.5) with WRAP: texel x + 1 (mod 4), y + 2 (mod 4).
    texel_rgba32f((x + 1) % W, (y + 2) % H, 0, 0, o);
}

static void e_tex_linear(int x, int y, float o[4]) {
    // Halfway between texels x and x + 1 (clamped at the edge).
    float a[4], b[4];
    texel_rgba32f(x, y, 0, 0, a);
    texel_rgba32f(x + 1 > W - 1 ? W - 1 : x + 1, y, 0, 0, b);
    for (int i = 0; i < 4; i++) {
        o[i] = (a[i] + b[i]) / 2;
    }
}

static void e_tex3d(int x, int y, float o[4]) {
    // tex3D at z layer 1, then tex3Dlod with offset (1, 0, 1) at level 0.
    o[0] = texel_r32f(x, y, 1, 0);
    int tx = x + 1 > W - 1 ? W - 1 : x + 1;
    o[1] = texel_r32f(tx, y, 2, 0);
    o[2] = texel_r32f(x / 2, y / 2, 0, 1);
    o[3] = 1;
}

static float srgb_decode(float c) {
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static void e_srgb(int x, int y, float o[4]) {
    o[0] = srgb_decode(texel_rgba8(x, y, 0) / 255.0f);
    o[1] = srgb_decode(texel_rgba8(x, y, 1) / 255.0f);
    o[2] = texel_rgba8(x, y, 0) / 255.0f; // the same texture without SRGBTexture
    o[3] = 1; // alpha is linear
}

// D3D Gather order: (x0, y1), (x1, y1), (x1, y0), (x0, y0) for the 2x2
// footprint whose top-left texel is (x0, y0), y growing downwards.
static void gather_expect(int x0, int y0, int comp, float o[4]) {
    int x1 = x0 + 1 > W - 1 ? W - 1 : x0 + 1, y1 = y0 + 1 > H - 1 ? H - 1 : y0 + 1;
    float t[4];
    texel_rgba32f(x0, y1, 0, 0, t);
    o[0] = t[comp];
    texel_rgba32f(x1, y1, 0, 0, t);
    o[1] = t[comp];
    texel_rgba32f(x1, y0, 0, 0, t);
    o[2] = t[comp];
    texel_rgba32f(x0, y0, 0, 0, t);
    o[3] = t[comp];
}

static void e_gather_r(int x, int y, float o[4]) {
    gather_expect(x, y, 0, o); // uv at the corner between texel (x, y) and (x+1, y+1)
}

static void e_gather_g_offset(int x, int y, float o[4]) {
    int x0 = x + 1 > W - 1 ? W - 1 : x + 1;
    gather_expect(x0, y, 1, o);
}

static void e_gather_offsets(int x, int y, float o[4]) {
    // With four offsets, component i is the top-left texel (x0, y0) of the
    // footprint moved by offset i (GL's i0j0; offsets (0,0) (1,0) (0,1) (1,1)).
    static const int off[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int i = 0; i < 4; i++) {
        int tx = x + off[i][0] > W - 1 ? W - 1 : x + off[i][0];
        int ty = y + off[i][1] > H - 1 ? H - 1 : y + off[i][1];
        float t[4];
        texel_rgba32f(tx, ty, 0, 0, t);
        o[i] = t[0];
    }
}

static void e_vs_sampler(int x, int y, float o[4]) {
    float t[4];
    texel_rgba32f(x, y, 0, 0, t);
    o[0] = t[0];
    o[1] = t[1];
    o[2] = 100 * (W - 1 + 1); // the vertex stage's texel (3, 0): x + 1 = 4
    o[3] = 1;
}

static void e_uv_c5(int x, int y, float o[4]) {
    e_uv(x, y, o);
    o[2] = 5;
}

static void e_fragx_uvy(int x, int y, float o[4]) {
    o[0] = x + 0.5f; // a scalar SV_Position is its x
    o[1] = (y + 0.5f) / H;
    o[2] = 0;
    o[3] = 1;
}

static void e_int_samplers(int x, int y, float o[4]) {
    o[0] = (float)texel_r32i(x, y);
    o[1] = (float)texel_r32u(x, y);
    o[2] = (float)texel_r32i(W - 1 - x, y);
    o[3] = 1;
}

static void e_discard(int x, int y, float o[4]) {
    (void)y;
    if (x >= 2) {
        o[0] = o[1] = o[2] = o[3] = -7; // the clear colour: discarded
    } else {
        o[0] = 1;
        o[1] = 2;
        o[2] = 3;
        o[3] = 4;
    }
}

static void e_mul_vm(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    const float m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}; // HLSL rows
    const float v[3] = {1, -2, 0.5f};
    for (int j = 0; j < 3; j++) {
        o[j] = v[0] * m[0][j] + v[1] * m[1][j] + v[2] * m[2][j]; // row vector on the left
    }
    o[3] = 0;
}

static void e_mul_mv(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    const float m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}};
    const float v[3] = {1, -2, 0.5f};
    for (int i = 0; i < 3; i++) {
        o[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    }
    o[3] = 0;
}

static void e_mul_mm(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    const float a[2][3] = {{1, 2, 3}, {4, 5, 6}};        // float2x3
    const float b[3][2] = {{7, -1}, {0.5f, 2}, {3, 4}}; // float3x2
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
            o[i * 2 + j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        }
    }
}

static void e_refract(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    // refract(i, n, eta) as HLSL defines it (eta really used, not n).
    float i[3] = {0.6f, -0.8f, 0}, n[3] = {0, 1, 0}, eta = 0.5f;
    float d = i[0] * n[0] + i[1] * n[1] + i[2] * n[2];
    float k = 1 - eta * eta * (1 - d * d);
    for (int c = 0; c < 3; c++) {
        o[c] = k < 0 ? 0 : eta * i[c] - (eta * d + sqrtf(k)) * n[c];
    }
    o[3] = 1;
}

static void e_faceforward(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    // faceforward(n, i, ng) = dot(ng, i) < 0 ? n : -n, with ng != i here.
    float n[3] = {1, 2, 3}, i[3] = {0, 1, 0}, ng[3] = {0, -1, 0};
    float d = ng[0] * i[0] + ng[1] * i[1] + ng[2] * i[2];
    for (int c = 0; c < 3; c++) {
        o[c] = d < 0 ? n[c] : -n[c];
    }
    o[3] = 1;
}

static void e_fmod(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    o[0] = fmodf(5.5f, -2.0f);  // 1.5: the sign of x, like C
    o[1] = fmodf(-5.5f, 2.0f);  // -1.5
    o[2] = fmodf(-7.25f, 2.5f); // -2.25
    o[3] = fmodf(7.0f, 7.0f);   // 0
}

static void e_trig(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    o[0] = atan2f(1.0f, -2.0f); // atan2(y, x): y first
    o[1] = log10f(250.0f);
    o[2] = sinf(0.7f) * 10 + cosf(0.7f);
    o[3] = 1.0f / sqrtf(2.0f) + 1.0f / 4.0f;
}

static void e_lerp(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    float t = 0.3f;
    o[0] = 2 + (10 - 2) * t;
    o[1] = 1.0f; // saturate(1.7)
    float s = (0.25f - 0) / (1 - 0);
    o[2] = s * s * (3 - 2 * s);
    o[3] = 0.0f + 1.0f; // step(0.5, 0.2) + step(0.2, 0.5)
}

static void e_compute(int x, int y, float o[4]) {
    // CS (4x4 threads, one group) writes id.x + 10 * id.y + 100 when the
    // groupshared atomic sum of the group indices is 0 + ... + 15 = 120,
    // then the value of the mirror thread read back through groupshared
    // memory after a barrier; 16 storage atomicAdds land in texel (0, 0).
    o[0] = (float)(x + 10 * y + 100);
    o[1] = (float)((W * H - 1) - (y * W + x)); // the mirror thread's value via groupshared
    o[2] = 16;
    o[3] = 1;
}

static void e_compute_params(int x, int y, float o[4]) {
    o[0] = (float)x;
    o[1] = (float)y;
    o[2] = 32; // 16 threads add 2
    o[3] = 1;
}

static void e_image_load(int x, int y, float o[4]) {
    o[0] = (float)((W - 1 - x) + 10 * y); // the mirrored texel of Fill
    o[1] = W;
    o[2] = H;
    o[3] = 1;
}

static void e_cross_reflect(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    const float a[3] = {1, 2, 3}, b[3] = {-2, 0.5f, 4};
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
    // reflect(i, n) = i - 2 * dot(n, i) * n with n = (0, 1, 0): the y flips.
    o[3] = -a[1];
}

static void e_rg11(int x, int y, float o[4]) {
    (void)x;
    (void)y;
    o[0] = 0.5f;
    o[1] = 2.0f;
    o[2] = 0.25f;
    o[3] = 1; // RG11B10F has no alpha
}

static const rcase cases[] = {
    // --- orientation after the Y flip ---
    {"texcoord_orientation", PS_HEAD "return float4(uv, 0, 1); }\n", e_uv, {0}, 1e-6f, 0},
    {"fragcoord_orientation", PS_HEAD "return float4(pos.xy, 0, pos.w); }\n", e_fragcoord, {0},
     1e-6f, 0},
    {"derivative_sign",
     PS_HEAD "return float4(ddx(uv.x), ddy(uv.y), ddy(pos.y), ddx(uv.y)); }\n", e_deriv, {0},
     1e-6f, 0},
    {"derivative_fine_coarse",
     PS_HEAD "return float4(ddx_fine(uv.x) * 4, ddy_coarse(pos.y), ddx_coarse(pos.x), "
             "fwidth(pos.x + pos.y)); }\n",
     NULL, {1, 1, 1, 2}, 1e-6f, 0},
    // --- matrices and mul ---
    {"mul_vector_matrix",
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10); uniform float3 V = float3(1, -2, 0.5);\n"
     PS_HEAD "return float4(mul(V, M), 0); }\n", e_mul_vm, {0}, 1e-5f, 0},
    {"mul_matrix_vector",
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10); uniform float3 V = float3(1, -2, 0.5);\n"
     PS_HEAD "return float4(mul(M, V), 0); }\n", e_mul_mv, {0}, 1e-5f, 0},
    {"mul_matrix_matrix_nonsquare",
     "uniform float2x3 A = float2x3(1, 2, 3, 4, 5, 6); uniform float3x2 B = float3x2(7, -1, 0.5, 2, 3, 4);\n"
     PS_HEAD "float2x2 c = mul(A, B); return float4(c[0], c[1]); }\n", e_mul_mm, {0}, 1e-5f, 0},
    {"matrix_row_index",
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10); uniform int R = 1;\n"
     PS_HEAD "return float4(M[R], M[2][R]); }\n", NULL, {4, 5, 6, 8}, 0, 0},
    {"matrix_element_swizzles",
     // Not the reference's [col][row] defect: _m01 is row 0, column 1.
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10);\n"
     PS_HEAD "return float4(M._m01, M._m12, M._21, M._33); }\n", NULL, {2, 6, 4, 10}, 0, 0},
    {"matrix_multi_swizzle",
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10);\n"
     PS_HEAD "float2 a = M._m00_m11; float2 b = M._13_31; return float4(a, b); }\n", NULL,
     {1, 5, 3, 7}, 0, 0},
    {"matrix_swizzle_assign",
     "uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10);\n"
     PS_HEAD "float3x3 m = M; m._11_22 = float2(-1, -2); m._m20_m02 += float2(100, 200); m._33++;\n"
     "return float4(m[0][0], m[1][1], m[2][0], m[0][2] + m[2][2]); }\n", NULL,
     {-1, -2, 107, 214}, 0, 0},
    {"matrix_componentwise_mul",
     "uniform float2x2 A = float2x2(1, 2, 3, 4); uniform float2x2 B = float2x2(5, 6, 7, 8);\n"
     PS_HEAD "float2x2 c = A * B; c *= A; return float4(c[0], c[1]); }\n", NULL,
     {5, 24, 63, 128}, 0, 0},
    {"matrix_to_vector_cast",
     "uniform float2x2 A = float2x2(1, 2, 3, 4);\n"
     PS_HEAD "float4 v = (float4)A; float2x2 b = (float2x2)v.wzyx; return float4(v.xy, b[0]); }\n",
     NULL, {1, 2, 4, 3}, 0, 0},
    {"matrix_from_rows",
     "uniform float3 V = float3(1, -2, 0.5);\n"
     PS_HEAD "float2x2 m = float2x2(V.xy, V.yz); return float4(mul(float2(1, 0), m), mul(m, float2(0, 1))); }\n",
     NULL, {1, -2, -2, 0.5f}, 0, 0},
    {"matrix_transpose_det",
     "uniform float2x3 A = float2x3(1, 2, 3, 4, 5, 6); uniform float3x3 M = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 10);\n"
     PS_HEAD "float3x2 t = transpose(A); return float4(t[2], determinant(M), t._m10); }\n", NULL,
     {3, 6, -3, 2}, 1e-4f, 0},
    {"matrix_scalar_ops",
     "uniform float2x2 A = float2x2(1, 2, 3, 4); uniform float S = 2;\n"
     PS_HEAD "float2x2 m = A * (float2x2)S + (float2x2)1; m = m / (float2x2)2; m = -m; return float4(m[0], m[1]); }\n", NULL,
     {-1.5f, -2.5f, -3.5f, -4.5f}, 0, 0},
    {"uniform_layout_mixed",
     "uniform float F1 = 1; uniform float3x4 N = float3x4(1,2,3,4, 5,6,7,8, 9,10,11,12);\n"
     "uniform float2 F2 = float2(13, 14); uniform float3 F3 = float3(15, 16, 17); uniform float F4 = 18;\n"
     "uniform float A4[3] = { 19, 20, 21 }; uniform int I1 = 22; uniform bool B1 = true;\n"
     PS_HEAD "return float4(F1 + N[2].w + N._m13, F2.y + F3.z + F4, A4[2] + I1, B1 ? N[1].x : 0); }\n",
     NULL, {1 + 12 + 8, 14 + 17 + 18, 21 + 22, 5}, 0, 0}, // _m13: row 1, column 3
    // --- swizzles, promotions, conversions ---
    {"swizzle_write",
     "uniform float4 A = float4(1, 2, 3, 4); uniform float4 B = float4(5, 6, 7, 8);\n"
     PS_HEAD "float4 v = A; v.wx = B.xy; v.yz = v.zy; return v; }\n", NULL, {6, 3, 2, 5}, 0, 0},
    {"scalar_swizzle",
     "uniform float F = 1.5;\n"
     PS_HEAD "float s = F; float4 v = s.xxxx * float4(1, 2, 3, 4); s.x = 3; return v + s.rrrr * 0; }\n",
     NULL, {1.5f, 3, 4.5f, 6}, 0, 0},
    {"int_float_promotion",
     "uniform int I = 7;\n"
     PS_HEAD "return float4(I / 2, I / 2.0, (float)I % 4, -I / 2); }\n", NULL, {3, 3.5f, 3, -3},
     0, 0},
    {"vector_truncation",
     "uniform float4 A = float4(1, 2, 3, 4);\n"
     PS_HEAD "float2 t = (float2)A; float s = (float)A; return float4(t, s, dot(A.xy, 1)); }\n",
     NULL, {1, 2, 1, 3}, 0, 0},
    {"float_to_int_truncation",
     "uniform float4 A = float4(-2.7, 2.7, 3.9, -0.5);\n"
     PS_HEAD "int4 i = (int4)A; uint u = (uint)A.z; return float4(i.x, i.y, u, i.w); }\n", NULL,
     {-2, 2, 3, 0}, 0, 0},
    {"bool_promotion",
     "uniform float4 A = float4(1, -2, 0, 4);\n"
     PS_HEAD "bool b = A.x > 0; bool4 c = A; return float4(b + 1, !b, c.z, b * 2.5); }\n", NULL,
     {2, 0, 0, 2.5f}, 0, 0},
    {"vector_compare",
     "uniform float4 A = float4(1, 5, 3, 4); uniform float4 B = float4(2, 2, 3, 1);\n"
     PS_HEAD "return float4(A < B) + float4(A == B) * 10 + float4(A >= B) * 100; }\n", NULL,
     {1, 100, 110, 100}, 0, 0},
    {"vector_ternary",
     "uniform float4 A = float4(1, 5, 3, 4); uniform float4 B = float4(2, 2, 3, 1);\n"
     PS_HEAD "return (A < B) ? A : B; }\n", NULL, {1, 2, 3, 1}, 0, 0},
    {"vector_logic",
     "uniform float4 A = float4(1, 0, -1, 0); uniform float4 B = float4(1, 1, 0, 0);\n"
     PS_HEAD "bool4 a = A, b = B; return float4(a && b) + float4(a || b) * 10 + float4(!a) * 100; }\n",
     NULL, {11, 110, 10, 100}, 0, 0},
    // --- integers ---
    {"int_div_mod_negative",
     "uniform int I = -7; uniform int J = 2;\n"
     PS_HEAD "return float4(I / J, I % J, I / -J, -I % -J); }\n", NULL, {-3, -1, 3, 1}, 0, 0},
    {"int_mod_assign",
     "uniform int I = -9;\n"
     PS_HEAD "int a = I; a %= 4; int b = I; b /= 2; int c = 13; c %= I; return float4(a, b, c, 0); }\n",
     NULL, {-1, -4, 4, 0}, 0, 0},
    {"uint_ops",
     "uniform uint U = 0xFFFFFFF0u;\n"
     PS_HEAD "return float4(U % 7u, U >> 28, (U << 2) >> 28, U / 0x10000000u); }\n", NULL,
     {4294967280u % 7u, 15, 15, 15}, 0, 0},
    {"bit_ops",
     "uniform int I = 10;\n"
     PS_HEAD "return float4(I & 12, I | 3, I ^ 5, ~I); }\n", NULL, {8, 11, 15, -11}, 0, 0},
    {"shift_negative",
     "uniform int I = -16;\n"
     PS_HEAD "return float4(I >> 2, -1 << (I + 19), I << 1, (uint)I >> 28); }\n", NULL,
     {-4, -8, -32, 15}, 0, 0},
    {"int_compound_float",
     // The value is converted to the target's type first, as on every
     // ReShade back end: 7 * int(0.5), 7 + int(0.75), 10 - uint(0.5).
     "uniform int I = 7;\n"
     PS_HEAD "int a = I; a *= 0.5; int b = I; b += 0.75; uint c = 10; c -= 0.5; return float4(a, b, c, 0); }\n",
     NULL, {0, 7, 10, 0}, 0, 0},
    // --- float % ---
    {"float_mod_hlsl",
     "uniform float4 A = float4(5.5, -5.5, -7.25, 7); uniform float4 B = float4(-2, 2, 2.5, 7);\n"
     PS_HEAD "return A % B; }\n", e_fmod, {0}, 1e-5f, 0},
    {"float_mod_assign_and_fmod",
     "uniform float4 A = float4(5.5, -5.5, -7.25, 7); uniform float4 B = float4(-2, 2, 2.5, 7);\n"
     PS_HEAD "float4 a = A; a %= B; return float4(a.x, fmod(A.y, B.y), A.z % B.z, fmod(A, B).w); }\n",
     e_fmod, {0}, 1e-5f, 0},
    {"frac_negative",
     "uniform float4 A = float4(-1.25, 1.75, -0.5, 2);\n"
     PS_HEAD "return frac(A); }\n", NULL, {0.75f, 0.75f, 0.5f, 0}, 0, 0},
    // --- out / inout ---
    {"out_param_converts",
     "void f(out float x) { x = 2.7; } void g(out float4 r) { r = 1.5; }\n"
     "uniform float F = 0;\n"
     PS_HEAD "int i; f(i); int4 o; g(o); float y; f(y); return float4(i, o.z, y, F); }\n", NULL,
     {2, 1, 2.7f, 0}, 1e-6f, 0},
    {"inout_param_converts",
     "void twice(inout float x) { x = x * 2 + 0.5; }\n"
     "uniform int I = 3;\n"
     PS_HEAD "int i = I; twice(i); float f = I; twice(f); return float4(i, f, 0, 0); }\n", NULL,
     {6, 6.5f, 0, 0}, 0, 0},
    {"in_param_is_a_copy",
     "float clobber(float x) { x = 100; return x; } uniform float F = 3;\n"
     PS_HEAD "float a = F; float b = clobber(a); return float4(a, b, 0, 0); }\n", NULL,
     {3, 100, 0, 0}, 0, 0},
    {"inout_swizzle_argument",
     "void inc(inout float2 v) { v += float2(1, 10); } uniform float4 A = float4(1, 2, 3, 4);\n"
     PS_HEAD "float4 t = A; inc(t.zx); return t; }\n", NULL, {11, 2, 4, 4}, 0, 0},
    {"out_struct_param",
     "struct S { float a; int b[2]; }; uniform float F = 2.5;\n"
     "void mk(out S s) { s.a = F; s.b[0] = 3; s.b[1] = -4; }\n"
     PS_HEAD "S s; mk(s); return float4(s.a, s.b[0], s.b[1], 0); }\n", NULL, {2.5f, 3, -4, 0}, 0,
     0},
    {"copy_out_on_return",
     // x is written to the caller only when the function returns.
     "static float G = 0; void f(out float x) { x = 5; G = x + 1; } uniform float F = 1;\n"
     PS_HEAD "float a = F; f(a); return float4(a, G, 0, 0); }\n", NULL, {5, 6, 0, 0}, 0, 0},
    // --- control flow ---
    {"for_continue_break",
     "uniform int N = 10;\n"
     PS_HEAD "float s = 0; for (int i = 0; i < N; i++) { if (i == 3) continue; if (i == 7) break; s += i; }\n"
     "return float4(s, 0, 0, 0); }\n", NULL, {18, 0, 0, 0}, 0, 0},
    {"while_do_loops",
     "uniform int N = 5;\n"
     PS_HEAD "int i = 0, a = 0; while (i < N) { a += i; i++; } int b = 0; do { b++; } while (b < 0);\n"
     "return float4(a, i, b, 0); }\n", NULL, {10, 5, 1, 0}, 0, 0},
    {"nested_loops",
     "uniform int N = 4;\n"
     PS_HEAD "int c = 0; [unroll] for (int i = 0; i < 4; i++) { [loop] for (int j = 0; j < N; j++) {\n"
     "if (j > i) break; c++; } } for (int i = 0; i < 2; ++i) c += 100; return float4(c, 0, 0, 0); }\n",
     NULL, {210, 0, 0, 0}, 0, 0},
    {"switch_cases",
     "uniform int N = 5;\n"
     PS_HEAD "float a = 0; for (int i = 0; i < N; i++) { switch (i) { case 0: a += 1; break;\n"
     "case 1: case 2: a += 10; break; default: a += 100; break; } } return float4(a, 0, 0, 0); }\n",
     NULL, {221, 0, 0, 0}, 0, 0},
    {"switch_uint_default_only",
     "uniform uint U = 3u;\n"
     PS_HEAD "float a = 0; switch (U) { case 3u: a = 1; break; case 4u: a = 2; break; }\n"
     "switch (U) { default: a += 10; break; } return float4(a, 0, 0, 0); }\n", NULL,
     {11, 0, 0, 0}, 0, 0},
    {"discard", "uniform float F = 1;\n" PS_HEAD "if (pos.x > 2) discard; return float4(F, 2, 3, 4); }\n",
     e_discard, {0}, 0, 0},
    {"short_circuit_not",
     // HLSL evaluates both sides of && || and ?:.
     "static int Count = 0; bool bump() { Count++; return true; } uniform bool T = true;\n"
     PS_HEAD "bool a = T || bump(); bool b = !T && bump(); float c = T ? 1 : (bump() ? 2 : 3);\n"
     "return float4(Count, a, b, c); }\n", NULL, {3, 1, 0, 1}, 0, 0},
    // --- structs and arrays ---
    {"struct_return",
     "struct S { float4 a; int b[2]; }; uniform float F = 2;\n"
     "S make(float x) { S s; s.a = x; s.b[0] = 1; s.b[1] = 2; return s; }\n"
     PS_HEAD "S s = make(F); S t = s; t.a.x = 9; return float4(s.a.x, t.a.x, s.b[1], t.b[0]); }\n",
     NULL, {2, 9, 2, 1}, 0, 0},
    {"array_param_and_dynamic_index",
     "float sum(float a[3]) { return a[0] + a[1] + a[2]; } uniform int K = 2;\n"
     PS_HEAD "float v[3] = { 1, 2, 4 }; v[K] = 8; return float4(sum(v), v[K - 1], v[K], 0); }\n",
     NULL, {11, 2, 8, 0}, 0, 0},
    {"array_of_structs",
     "struct P { float2 p; float w; }; uniform int K = 1;\n"
     PS_HEAD "P ps[2]; ps[0].p = float2(1, 2); ps[0].w = 3; ps[1] = ps[0]; ps[K].w = 5;\n"
     "return float4(ps[1].p, ps[0].w, ps[K].w); }\n", NULL, {1, 2, 3, 5}, 0, 0},
    {"const_array_global",
     "static const float W5[5] = { 0.1, 0.2, 0.3, 0.4, 0.5 }; static const float2 O[2] = { float2(1, 2), float2(3, 4) };\n"
     "uniform int K = 3;\n"
     PS_HEAD "return float4(W5[K], O[K - 2].y, W5[0] + W5[4], O[1].x); }\n", NULL,
     {0.4f, 4, 0.6f, 3}, 1e-6f, 0},
    {"struct_init_list",
     "struct S { float a; float2 b; }; uniform float F = 1;\n"
     PS_HEAD "S s = { F, float2(2, 3) }; S arr[2] = { { 4, float2(5, 6) }, { 7, float2(8, 9) } };\n"
     "return float4(s.a + s.b.y, arr[1].b.x, arr[0].a, arr[1].a); }\n", NULL, {4, 8, 4, 7}, 0, 0},
    // --- intrinsics ---
    {"refract_args",
     // Not the reference's defect (n passed as eta): eta = 0.5 is used.
     "uniform float3 I3 = float3(0.6, -0.8, 0); uniform float3 N3 = float3(0, 1, 0); uniform float Eta = 0.5;\n"
     PS_HEAD "return float4(refract(I3, N3, Eta), 1); }\n", e_refract, {0}, 1e-5f, 0},
    {"faceforward_args",
     // Not the reference's defect (i passed as ng).
     "uniform float3 N3 = float3(1, 2, 3); uniform float3 I3 = float3(0, 1, 0); uniform float3 G3 = float3(0, -1, 0);\n"
     PS_HEAD "return float4(faceforward(N3, I3, G3), 1); }\n", e_faceforward, {0}, 0, 0},
    {"cross_reflect",
     "uniform float3 A3 = float3(1, 2, 3); uniform float3 B3 = float3(-2, 0.5, 4);\n"
     PS_HEAD "return float4(cross(A3, B3), reflect(A3, float3(0, 1, 0)).y); }\n",
     e_cross_reflect, {0}, 1e-5f, 0},
    {"trig_log",
     "uniform float4 A = float4(1, -2, 250, 0.7);\n"
     PS_HEAD "return float4(atan2(A.x, A.y), log10(A.z), sin(A.w) * 10 + cos(A.w), rsqrt(2.0 * A.x) + rcp(4 * A.x)); }\n",
     e_trig, {0}, 1e-5f, 0},
    {"lerp_saturate_smoothstep",
     "uniform float4 A = float4(0.3, 1.7, 0.25, 0.2);\n"
     PS_HEAD "return float4(lerp(2, 10, A.x), saturate(A.y), smoothstep(0, 1, A.z), step(0.5, A.w) + step(A.w, 0.5)); }\n",
     e_lerp, {0}, 1e-5f, 0},
    {"round_half_even",
     "uniform float4 A = float4(2.5, -2.5, 3.5, 0.5);\n"
     PS_HEAD "return round(A); }\n", NULL, {2, -2, 4, 0}, 0, 0},
    {"bit_intrinsics",
     "uniform uint U = 0xF0u; uniform int I = -1;\n"
     PS_HEAD "return float4(countbits(U), firstbitlow(U), firstbithigh(U), reversebits(U) >> 24); }\n",
     NULL, {4, 4, 7, 15}, 0, 0},
    {"bit_casts",
     "uniform float F = 1.0; uniform uint U = 0x40490FDBu;\n"
     PS_HEAD "return float4(asuint(F) == 0x3F800000u, asfloat(U), asint(-F) < 0, asfloat(asint(2.5))); }\n",
     NULL, {1, 3.14159274f, 1, 2.5f}, 1e-6f, 0},
    {"half_conversion",
     "uniform float F = 1.5; uniform uint H16 = 0xC100u;\n"
     PS_HEAD "return float4(f32tof16(F), f16tof32(H16), f16tof32(f32tof16(F * 3)), 0); }\n", NULL,
     {(float)0x3E00, -2.5f, 4.5f, 0}, 0, 0},
    {"sincos_modf_frexp",
     "uniform float F = 8.75;\n"
     PS_HEAD "float s, c; sincos(F - 8.75, s, c); float ip; float fr = modf(F, ip); int e;\n"
     "float m = frexp(F, e); return float4(s + c, ip + fr * 100, m, e); }\n", NULL,
     {1, 8 + 75, 8.75f / 16, 4}, 1e-5f, 0},
    {"min_max_clamp_abs_sign",
     "uniform float4 A = float4(-3, 2, 0.5, -0.25); uniform int I = -5;\n"
     PS_HEAD "return float4(max(A.x, A.y) + min(A.z, A.w), clamp(A.x, -1, 1) + abs(I), sign(A.w) + sign(I), abs(A.x)); }\n",
     NULL, {1.75f, 4, -2, 3}, 0, 0},
    {"int_matrix_uniform_overloads",
     "uniform int2x2 IM = int2x2(1, -2, 3, 4); uniform float F = 2; static float3 G = F * 2;\n"
     "float f(int2x2 m) { return m[0][1]; } float f(float2x2 m) { return m[1][1] * 10; }\n"
     PS_HEAD "int2x2 im = IM; return float4(f(im), f((float2x2)im), IM._m10, G.y + ldexp(F, 3)); }\n",
     NULL, {-2, 40, 3, 20}, 0, 0},
    {"int_matrix_element_writes",
     "uniform int2x2 IM = int2x2(1, -2, 3, 4);\n"
     PS_HEAD "int2x2 m = IM; m[1] = int2(7, 8); m._m00 = 5; m._m01 += 2; m[1] /= 2;\n"
     "return float4(m[0], m._m10_m11); }\n", NULL, {5, 0, 3, 4}, 0, 0},
    // --- textures ---
#define T4 "texture Tex { Width = 4; Height = 4; Format = RGBA32F; MipLevels = 3; };\n"
#define POINT "MinFilter = POINT; MagFilter = POINT; MipFilter = POINT;"
    {"tex2D_point", T4 "sampler S { Texture = Tex; " POINT " };\n"
     PS_HEAD "return tex2D(S, uv); }\n", e_tex_point, {0}, 0, 0},
    {"tex2D_offset", T4 "sampler S { Texture = Tex; " POINT " };\n"
     PS_HEAD "return tex2D(S, uv, int2(1, -1)); }\n", e_tex_offset, {0}, 0, 0},
    {"tex2Dlod_level", T4 "sampler S { Texture = Tex; " POINT " }; uniform float L = 1;\n"
     PS_HEAD "return tex2Dlod(S, float4(uv, 0, L)); }\n", e_tex_lod1, {0}, 0, 0},
    {"tex2Dlod_offset", T4 "sampler S { Texture = Tex; " POINT " }; uniform float L = 1;\n"
     PS_HEAD "return tex2Dlod(S, float4(uv, 0, L), int2(1, 0)); }\n", e_tex_lod1_offset, {0}, 0, 0},
    {"tex2Dgrad_offset", T4 "sampler S { Texture = Tex; " POINT " }; uniform float G = 0;\n"
     PS_HEAD "return tex2Dgrad(S, uv, float2(G, 0), float2(0, G), int2(1, -1)); }\n",
     e_tex_offset, {0}, 0, 0},
    {"tex2Dgrad_level", T4 "sampler S { Texture = Tex; " POINT " }; uniform float G = 0.5;\n"
     PS_HEAD "return tex2Dgrad(S, uv, float2(G, 0), float2(0, G)); }\n", e_tex_lod1, {0}, 0, 0},
    {"tex2Dfetch_levels", T4 "sampler S { Texture = Tex; }; uniform int L = 1;\n"
     PS_HEAD "int2 p = int2(pos.xy); return float4(tex2Dfetch(S, p).xy, tex2Dfetch(S, p / 2, L).xw); }\n",
     e_tex_fetch, {0}, 0, 0},
    {"tex2Dsize", T4 "sampler S { Texture = Tex; }; uniform int L = 1;\n"
     PS_HEAD "return float4(tex2Dsize(S), tex2Dsize(S, L)); }\n", NULL, {4, 4, 2, 2}, 0, 0},
    {"tex2D_wrap", T4 "sampler S { Texture = Tex; " POINT " AddressU = WRAP; AddressV = WRAP; };\n"
     "uniform float2 D = float2(1.25, -0.5);\n"
     PS_HEAD "return tex2D(S, uv + D); }\n", e_tex_wrap, {0}, 0, 0},
    {"tex2D_linear", T4 "sampler S { Texture = Tex; MipFilter = POINT; };\n"
     PS_HEAD "return tex2D(S, uv + float2(0.125, 0)); }\n", e_tex_linear, {0}, 1e-3f, 0},
    {"tex3D_offsets",
     // Not the reference's defect: 3D offsets are int3.
     "texture3D T3 { Width = 4; Height = 4; Depth = 4; Format = R32F; MipLevels = 2; };\n"
     "sampler3D<float> S3 { Texture = T3; " POINT " }; uniform float Z = 0.375; uniform float L = 1;\n"
     PS_HEAD "float3 c = float3(uv, Z); return float4(tex3D(S3, c), tex3Dlod(S3, float4(c, 0), int3(1, 0, 1)),\n"
     "tex3Dlod(S3, float4(uv, 0.1, L)), 1); }\n", e_tex3d, {0}, 0, 0},
    {"tex3D_size_fetch",
     "texture3D T3 { Width = 4; Height = 4; Depth = 4; Format = R32F; MipLevels = 2; };\n"
     "sampler3D<float> S3 { Texture = T3; }; uniform int3 P = int3(1, 2, 3);\n"
     PS_HEAD "return float4(tex3Dsize(S3), tex3Dfetch(S3, P)); }\n", NULL,
     {4, 4, 4, 1 + 20 + 300}, 0, 0},
    {"srgb_sampling",
     "texture T8 { Width = 4; Height = 4; Format = RGBA8; };\n"
     "sampler Ss { Texture = T8; SRGBTexture = true; " POINT " }; sampler Sl { Texture = T8; " POINT " };\n"
     PS_HEAD "float4 a = tex2D(Ss, uv); float4 b = tex2D(Sl, uv); return float4(a.xy, b.x, a.w); }\n",
     e_srgb, {0}, 2e-3f, 0},
    {"gather_component_order", T4 "sampler S { Texture = Tex; };\n"
     PS_HEAD "return tex2DgatherR(S, (floor(pos.xy) + 1) / 4); }\n", e_gather_r, {0}, 0, 0},
    {"gather_offset", T4 "sampler S { Texture = Tex; };\n"
     PS_HEAD "return tex2DgatherG(S, (floor(pos.xy) + 1) / 4, int2(1, 0)); }\n", e_gather_g_offset,
     {0}, 0, 0},
    {"gather_four_offsets", T4 "sampler S { Texture = Tex; };\n"
     PS_HEAD "float4 r = tex2DgatherR(S, (floor(pos.xy) + 1) / 4, int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1));\n"
     "return r; }\n", e_gather_offsets, {0}, 0, 0},
    {"gather_blue_alpha", T4 "sampler S { Texture = Tex; };\n"
     PS_HEAD "float2 c = (floor(pos.xy) + 1) / 4; return float4(tex2DgatherB(S, c).x, tex2DgatherA(S, c).y, tex2DgatherA(S, c, int2(-1, 0)).z, 0); }\n",
     NULL, {1, 1, 1, 0}, 0, 0},
    {"int_samplers",
     "texture TI { Width = 4; Height = 4; Format = R32I; }; texture TU { Width = 4; Height = 4; Format = R32U; };\n"
     "sampler<int> SI { Texture = TI; }; sampler<uint> SU { Texture = TU; };\n"
     PS_HEAD "int2 p = int2(pos.xy); return float4(tex2Dfetch(SI, p), tex2Dfetch(SU, p), tex2D(SI, float2(1 - uv.x, uv.y)), 1); }\n",
     e_int_samplers, {0}, 0, 0},
    // --- compute ---
    {"compute_storage_atomics_barrier",
     "texture TR { Width = 4; Height = 4; Format = RGBA32F; }; storage SR { Texture = TR; };\n"
     "texture TC { Width = 4; Height = 4; Format = R32U; }; storage<uint> SC { Texture = TC; };\n"
     "sampler<uint> SCs { Texture = TC; }; sampler SRs { Texture = TR; " POINT " };\n"
     "groupshared uint Vals[16]; groupshared uint Sum; uniform uint Base = 0;\n"
     "void Clear(uint3 id : SV_DispatchThreadID) { tex2Dstore(SC, int2(id.xy), Base); }\n"
     "void CS(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {\n"
     "    if (gi == 0) Sum = 0; Vals[gi] = gi; barrier();\n"
     "    atomicAdd(Sum, gi); uint other = Vals[15 - gi]; barrier();\n"
     "    atomicAdd(SC, int2(0, 0), 1u);\n"
     "    tex2Dstore(SR, int2(id.xy), float4(id.x + 10 * id.y + 100 * (Sum == 120), other, 0, 1));\n"
     "}\n" VS_SRC
     PS_HEAD "float4 r = tex2D(SRs, uv); r.x += 20 * 0; r.z = tex2Dfetch(SCs, int2(0, 0)); return r; }\n"
     "technique T { pass { ComputeShader = Clear<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { ComputeShader = CS<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n",
     e_compute, {0}, 0, 0},
    {"compute_storage_parameters",
     // Functions with storage parameters are specialized per storage.
     "texture TR { Width = 4; Height = 4; Format = RGBA32F; }; storage SR { Texture = TR; };\n"
     "texture TC { Width = 4; Height = 4; Format = R32U; }; storage<uint> SC { Texture = TC; };\n"
     "sampler<uint> SCs { Texture = TC; }; sampler SRs { Texture = TR; " POINT " };\n"
     "void put(storage s, int2 p, float4 v) { tex2Dstore(s, p, v); }\n"
     "uint bump(storage<uint> s, uint n) { return atomicAdd(s, int2(0, 0), n); }\n"
     "void Clear(uint3 id : SV_DispatchThreadID) { tex2Dstore(SC, int2(id.xy), 0u); }\n"
     "void CS(uint3 id : SV_DispatchThreadID) { bump(SC, 2u); put(SR, int2(id.xy), float4(id.xy, 0, 1)); }\n" VS_SRC
     PS_HEAD "float4 r = tex2D(SRs, uv); r.z = tex2Dfetch(SCs, int2(0, 0)); return r; }\n"
     "technique T { pass { ComputeShader = Clear<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { ComputeShader = CS<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n",
     e_compute_params, {0}, 0, 0},
    {"compute_image_load_size",
     "texture TF { Width = 4; Height = 4; Format = R32F; }; storage<float> SF { Texture = TF; };\n"
     "texture TR { Width = 4; Height = 4; Format = RGBA32F; }; storage SR { Texture = TR; };\n"
     "sampler SRs { Texture = TR; " POINT " };\n"
     "void Fill(uint3 id : SV_DispatchThreadID) { tex2Dstore(SF, int2(id.xy), id.x + 10.0 * id.y); }\n"
     "void Copy(uint3 id : SV_DispatchThreadID) { int2 s = tex2Dsize(SF);\n"
     "    tex2Dstore(SR, int2(id.xy), float4(tex2Dfetch(SF, int2(s.x - 1 - id.x, id.y)), s, 1)); }\n" VS_SRC
     PS_HEAD "return tex2D(SRs, uv); }\n"
     "technique T { pass { ComputeShader = Fill<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { ComputeShader = Copy<2, 2, 1>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
     "    pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n",
     e_image_load, {0}, 0, 0},
    {"storage_rg11b10f",
     // Not the reference's defect (an assertion): R11G11B10F storage works,
     // on GLES through GL_NV_image_formats (llvmpipe has it).
     "texture TR { Width = 4; Height = 4; Format = RG11B10F; }; storage SR { Texture = TR; };\n"
     "sampler SRs { Texture = TR; }; uniform float3 V = float3(0.5, 2, 0.25);\n"
     "void CS(uint3 id : SV_DispatchThreadID) { tex2Dstore(SR, int2(id.xy), float4(V, 0)); }\n" VS_SRC
     PS_HEAD "return float4(tex2D(SRs, uv).rgb, 1); }\n"
     "technique T { pass { ComputeShader = CS<4, 4, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
     "    pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n",
     e_rg11, {0}, 0, 0},
    // --- varyings between a custom vertex and pixel shader ---
    {"struct_varyings",
     "struct V2P { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation int id : TEXCOORD1;\n"
     "    bool flag : TEXCOORD2; float2 arr[2] : TEXCOORD3; float2x2 m : TEXCOORD5; };\n"
     "V2P VS(uint id : SV_VertexID) { V2P o; o.uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0);\n"
     "    o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1); o.id = 7; o.flag = true;\n"
     "    o.arr[0] = 1; o.arr[1] = float2(2, 3); o.m = float2x2(4, 5, 6, 8); return o; }\n"
     "float4 PS(V2P i) : SV_Target { return float4(i.id, i.flag, i.arr[1].y + i.arr[0].x, i.m[1].y + i.m._m01); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     NULL, {7, 1, 4, 13}, 1e-4f, 0},
    {"fragcoord_w_is_clip_w",
     "void VS(uint id : SV_VertexID, out float4 p : SV_Position) {\n"
     "    float2 uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1) * 4; }\n"
     "float4 PS(float4 p : SV_Position) : SV_Target { return float4(p.w, p.xy - floor(p.xy), 0); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     NULL, {4, 0.5f, 0.5f, 0}, 1e-5f, 0},
    {"varying_prefix_read",
     // The pixel shader reads fewer components than the vertex shader writes.
     "void VS(uint id : SV_VertexID, out float4 p : SV_Position, out float4 t : TEXCOORD0, out float c : COLOR0) {\n"
     "    float2 uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);\n"
     "    t = float4(uv, 3, 4); c = 5; }\n"
     "float4 PS(float4 p : SV_Position, float2 t : TEXCOORD0, float c : COLOR0) : SV_Target { return float4(t, c, 1); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     e_uv_c5, {0}, 1e-5f, 0},
    {"vertex_stage_sampler",
     // Both stages sample B (at different compact units): the program links.
     "texture Tex { Width = 4; Height = 4; Format = RGBA32F; };\n"
     "sampler A { Texture = Tex; " POINT " }; sampler B { Texture = Tex; " POINT " };\n"
     "void VS(uint id : SV_VertexID, out float4 p : SV_Position, out float2 uv : TEXCOORD0, out float4 v : TEXCOORD1) {\n"
     "    uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);\n"
     "    v = tex2Dlod(A, float4(0.875, 0.125, 0, 0)) * tex2Dlod(B, float4(0.125, 0.125, 0, 0)); }\n"
     "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD0, float4 v : TEXCOORD1) : SV_Target {\n"
     "    return float4(tex2D(B, uv).xy, v.x * 100, v.w); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     e_vs_sampler, {0}, 1e-4f, 0},
    // --- names: the reference's lookup (reference_rules_measured.md 1, 5, 9, 10) ---
    {"function_named_like_constant",
     // The body's M is the constant, the call the function: (2,3,4) * (3,1,0).
     "static const float3 M = float3(2, 3, 4); uniform float K = 3;\n"
     "float3 M(float3 x) { return x * M; }\n"
     PS_HEAD "return float4(M(float3(K, 1, 0)), M.x + K); }\n", NULL, {6, 3, 0, 5}, 0, 0},
    {"constant_declared_again",
     // The second c's initializer reads the first (1 + 10); f sees the
     // constant declared before it, PS the uniform declared last.
     "static const float c = 1.0; static const float c = c + 10.0;\n"
     "float f() { return c; }\n"
     "uniform float c = 7;\n"
     // Locals too: a reads the first d (2 * 7), the return the second (3 * 7).
     PS_HEAD "const float d = 2; float a = d * c; const float d = 3;\n"
     "return float4(f(), c, a, d * c); }\n", NULL, {11, 7, 14, 21}, 0, 0},
    {"namespace_depth_lookup",
     // v of S (depth 1) is visible from T::U (depth 2); N::f shadows f.
     "static const float v = 1; namespace S { static const float v = 2; uniform float K = 3; }\n"
     "namespace T { namespace U { float f() { return v * S::K; } } }\n"
     "float f(float x) { return x; }\n"
     "namespace N { float f(float x) { return x * 10; } float g(float y) { return f(y); } }\n"
     PS_HEAD "return float4(T::U::f(), N::g(S::K), f(S::K), 1); }\n", NULL, {6, 30, 3, 1}, 0, 0},
    {"interpolation_mismatch",
     // The reference refuses a pixel input qualified unlike the vertex
     // output (X4568), GLSL ES refuses to link it: fxgl takes the vertex
     // shader's qualifier and warns.
     "void VS(uint id : SV_VertexID, out float4 p : SV_Position, out nointerpolation float k : TEXCOORD1) {\n"
     "    float2 uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);\n"
     "    k = 7; }\n"
     "float4 PS(float4 p : SV_Position, float k : TEXCOORD1) : SV_Target { return float4(k, 0, 0, 1); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     NULL, {7, 0, 0, 1}, 0, 0},
    // --- constants ---
    {"constants_inf_sign",
     // Not the reference's defect (+inf and -inf swapped).
     "static const float PInf = 1.0 / 0.0; static const float NInf = -1.0 / 0.0; uniform float F = 1;\n"
     PS_HEAD "return float4(PInf * F, NInf * F, (PInf * F) > 0, (NInf * F) < 0); }\n", NULL,
     {INFINITY, -INFINITY, 1, 1}, 0, SPECIAL},
    {"constants_nan_denormal",
     "static const float NaNc = 0.0 / 0.0; static const float Den = 1e-40; static const float A[2] = { 1e-40, -0.0 };\n"
     "uniform int K = 0;\n"
     PS_HEAD "return float4(isnan(NaNc + K), asuint(Den) == 0x000116C2u, asuint(A[K]) == 0x000116C2u,\n"
     "asuint(A[K + 1]) == 0x80000000u); }\n",
     NULL, {1, 1, 1, 1}, 0, 0},
    {"constants_int_limits",
     "static const int MinI = -2147483647 - 1; static const uint MaxU = 0xFFFFFFFFu; uniform int K = 1;\n"
     PS_HEAD "return float4(MinI + K == -2147483647, MaxU - K == 0xFFFFFFFEu, (MinI >> 31) == -1, MaxU >> 31); }\n",
     NULL, {1, 1, 1, 1}, 0, 0},
    // --- expression rules of the reference (reference_rules_measured.md) ---
    {"rule4_matrix_scalar_operators",
     // A*S+1 = (3 5; 7 9), / S = (1.5 2.5; 3.5 4.5); S-A = (1 0; -1 -2).
     "uniform float2x2 A = float2x2(1, 2, 3, 4); uniform float S = 2;\n"
     PS_HEAD "float2x2 m = A * S + 1; m = m / S; float2x2 n = S - A; return float4(m[0], n[1]); }\n",
     NULL, {1.5f, 2.5f, -1, -2}, 0, 0},
    {"rule2_assignment_widens_last_component",
     // v = (1, 2, 3, 3); w = 10 + (5, 6, 6, 6).
     "uniform float3 V = float3(1, 2, 3); uniform float2 W = float2(5, 6);\n"
     PS_HEAD "float4 v = 0; v = V; float4 w = 10; w += W; return float4(v.w, w.x, w.z, w.w); }\n",
     NULL, {3, 15, 16, 16}, 0, 0},
    {"compound_assignment_in_target_type",
     // 3 * int(0.5) = 0; 3 + int(2.5) = 5; (7, 9) / int2(2.5, 1.9) = (3, 9).
     "uniform int I = 3; uniform float H = 0.5; uniform float K = 2.5; uniform float2 D = float2(2.5, 1.9);\n"
     PS_HEAD "int i = I; i *= H; int j = I; j += K; int2 k = int2(7, 9); k /= D; return float4(i, j, k); }\n",
     NULL, {0, 5, 3, 9}, 0, 0},
    {"rule3_brace_list_expressions",
     "uniform float S = 2; uniform int I = 1;\n"
     "float pick(float v[3], int i) { return v[i]; }\n"
     PS_HEAD "float a[3]; a = {1, S, 3,}; float4 c[2]; c = {float4(1, 2, 3, 4), S.rrrr};\n"
     "return float4(a[I], c[I].y + c[0].w, pick({S, 5, 6}, I + 1), {0.5, S}[I]); }\n",
     NULL, {2, 6, 6, 2}, 0, 0},
    {"rule8_stpq_swizzles",
     // v.st = v.qp makes v (4, 3, 3, 4); F.s + F.sx.y = 14.
     "uniform float4 V = float4(1, 2, 3, 4); uniform float F = 7;\n"
     PS_HEAD "float4 v = V; v.st = v.qp; return float4(v.stp, F.s + F.sx.y); }\n",
     NULL, {4, 3, 3, 14}, 0, 0},
    {"entry_out_parameters_start_at_zero",
     "void VS(uint id : SV_VertexID, out float4 p : SV_Position, out float3 acc : TEXCOORD0) {\n"
     "    float2 uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);\n"
     "    acc += float3(1, 2, 3); }\n"
     "void PS(float4 p : SV_Position, float3 acc : TEXCOORD0, out float4 c : SV_Target) { c.xyz += acc; c.w += 0.5; }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     NULL, {1, 2, 3, 0.5f}, 0, 0},
    {"static_local_initialized_from_locals",
     // Stored where declared, each call: f(3) = (3 + 1) * 2 + 1, f(1) = 5.
     "uniform float S = 3;\n"
     "float f(float x) { float y = x + 1; static const float z = y * 2; static const float w = z + 1; return w; }\n"
     PS_HEAD "return float4(f(S), f(1), f(S), 0); }\n", NULL, {9, 5, 9, 0}, 0, 0},
    {"static_local_constant_initialized_once",
     // A constant initializer (here +inf, set in main()) runs once: the
     // second call sees the first call's minimum.
     "uniform float S = 3;\n"
     "float f(float x) { static float m = 1.0 / 0.0; m = min(m, x); return m; }\n"
     PS_HEAD "float a = f(S); return float4(a, f(S + 1), 0, 0); }\n", NULL, {3, 3, 0, 0}, 0, 0},
    {"short_sv_position_output",
     // A float2 position gets z = 0, w = 1 (vec4(v2) would not compile).
     "void VS(uint id : SV_VertexID, out float2 p : SV_Position, out float2 uv : TEXCOORD0) {\n"
     "    uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = uv * float2(2, -2) + float2(-1, 1); }\n"
     "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return float4(uv, 0, p.w); }\n"
     "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n",
     e_uv, {0}, 1e-6f, 0},
    {"scalar_sv_position_input",
     "float4 PS(float x : SV_Position, float2 uv : TEXCOORD) : SV_Target { return float4(x, uv.y, 0, 1); }\n",
     e_fragx_uvy, {0}, 1e-6f, 0},
    // Rule 6: texel offsets that are not constant (single-level textures:
    // exact on every function; gathers read level 0 only, so mip levels
    // do not matter there).
#define T1 "texture Tex1 { Width = 4; Height = 4; Format = RGBA32F; };\n"
    {"offset_loop_index", T1 "sampler S { Texture = Tex1; " POINT " };\n"
     PS_HEAD "float4 r = 0; [unroll] for (int i = 0; i < 2; i++) { r += tex2D(S, uv, int2(i, -i)); }\n"
     "return r - tex2D(S, uv); }\n", e_tex_offset, {0}, 0, 0},
    {"offset_function_parameter", T1 "sampler S { Texture = Tex1; " POINT " }; uniform int2 O = int2(1, -1);\n"
     "float4 at(float2 uv, int2 o) { return tex2D(S, uv, o); }\n"
     PS_HEAD "return at(uv, O); }\n", e_tex_offset, {0}, 0, 0},
    {"offset_uniform_lod_grad", T1 "sampler S { Texture = Tex1; " POINT " }; uniform int2 O = int2(1, -1);\n"
     "uniform float L = 0;\n"
     PS_HEAD "return tex2Dlod(S, float4(uv, 0, L), O) * 0.25 + tex2Dgrad(S, uv, 0, 0, O) * 0.75; }\n",
     e_tex_offset, {0}, 1e-5f, 0},
    {"gather_offset_not_constant", T4 "sampler S { Texture = Tex; }; uniform int2 O = int2(1, 0);\n"
     PS_HEAD "return tex2DgatherG(S, (floor(pos.xy) + 1) / 4, O); }\n", e_gather_g_offset,
     {0}, 0, 0},
    {"gather_four_offsets_not_constant", T4 "sampler S { Texture = Tex; }; uniform int K = 1;\n"
     PS_HEAD "return tex2DgatherR(S, (floor(pos.xy) + 1) / 4, int2(0, 0), int2(K, 0), int2(0, K), int2(K, K)); }\n",
     e_gather_offsets, {0}, 0, 0},
};

#define CASE_COUNT (sizeof(cases) / sizeof(cases[0]))

// --- the minimal loader ---

typedef struct loader {
    GladGLContext *gl;
    bool es;
    const fxgl_effect *fx;
    GLuint tex[16], tex_srgb[16]; // per effect texture; the sRGB copy when a sampler wants it
    GLuint sampler[16];
    GLuint result, fbo, vao, ubo;
    char *log;                    // first failure, for the message
} loader;

static GLuint shader(loader *l, GLenum stage, const char *code) {
    GladGLContext *gl = l->gl;
    GLuint s = gl->CreateShader(stage);
    gl->ShaderSource(s, 1, &code, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
        ck_abort_msg("driver rejects the generated code: %s\n%s", log, code);
    }
    return s;
}

static GLuint program(loader *l, const fxgl_shader *a, const fxgl_shader *b) {
    GladGLContext *gl = l->gl;
    GLuint p = gl->CreateProgram();
    GLenum stage = a->stage == FXGL_STAGE_COMPUTE ? GL_COMPUTE_SHADER : GL_VERTEX_SHADER;
    GLuint sa = shader(l, stage, a->glsl), sb = 0;
    gl->AttachShader(p, sa);
    if (b) {
        sb = shader(l, GL_FRAGMENT_SHADER, b->glsl);
        gl->AttachShader(p, sb);
    }
    gl->LinkProgram(p);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        gl->GetProgramInfoLog(p, sizeof(log), NULL, log);
        ck_abort_msg("link failed: %s\n%s\n%s", log, a->glsl, b ? b->glsl : "");
    }
    gl->DeleteShader(sa);
    if (sb) {
        gl->DeleteShader(sb);
    }
    // Bind by name as a runtime must where the target has no binding
    // qualifiers; this also checks fxgl_binding.name against the code.
    gl->UseProgram(p);
    GLuint block = gl->GetUniformBlockIndex(p, FXGL_GLSL_UNIFORM_BLOCK);
    if (block != GL_INVALID_INDEX) {
        gl->UniformBlockBinding(p, block, 0);
    }
    int base = 0;
    const fxgl_shader *stages[2] = {a, b};
    for (int s = 0; s < 2 && stages[s]; s++) {
        for (size_t i = 0; i < stages[s]->sampler_count; i++) {
            const fxgl_binding *bd = &stages[s]->samplers[i];
            GLint loc = gl->GetUniformLocation(p, bd->name);
            ck_assert_msg(loc >= 0, "sampler '%s' not found in the program", bd->name);
            gl->Uniform1i(loc, base + bd->unit);
        }
        base += (int)stages[s]->sampler_count;
    }
    return p;
}

static bool is_int_format(fxgl_format f) {
    return f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_R32U || f == FXGL_FORMAT_RGBA32I ||
           f == FXGL_FORMAT_RGBA32U;
}

static GLenum internal_format(fxgl_format f, bool srgb) {
    switch (f) {
    case FXGL_FORMAT_RGBA8:
        return srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8;
    case FXGL_FORMAT_R32F:
        return GL_R32F;
    case FXGL_FORMAT_R32I:
        return GL_R32I;
    case FXGL_FORMAT_R32U:
        return GL_R32UI;
    case FXGL_FORMAT_RG11B10F:
        return GL_R11F_G11F_B10F;
    default:
        return GL_RGBA32F;
    }
}

// Creates texture i with the pattern of the texel_* functions.
static GLuint make_texture(loader *l, size_t i, bool srgb) {
    GladGLContext *gl = l->gl;
    const fxgl_texture *t = &l->fx->textures[i];
    GLenum target = t->dim == FXGL_TEXTURE_3D ? GL_TEXTURE_3D : GL_TEXTURE_2D;
    GLuint id;
    gl->GenTextures(1, &id);
    gl->BindTexture(target, id);
    GLenum ifmt = internal_format(t->format, srgb);
    if (target == GL_TEXTURE_3D) {
        gl->TexStorage3D(target, t->levels, ifmt, t->width, t->height, t->depth);
    } else {
        gl->TexStorage2D(target, t->levels, ifmt, t->width, t->height);
    }
    for (int lv = 0; lv < t->levels; lv++) {
        int w = t->width >> lv, h = t->height >> lv, d = t->dim == FXGL_TEXTURE_3D ? t->depth >> lv : 1;
        w = w ? w : 1;
        h = h ? h : 1;
        d = d ? d : 1;
        size_t n = (size_t)w * h * d;
        void *data = calloc(n, 16);
        GLenum fmt = GL_RGBA, type = GL_FLOAT;
        for (int z = 0; z < d; z++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    size_t k = ((size_t)z * h + y) * w + x;
                    switch (t->format) {
                    case FXGL_FORMAT_RGBA8:
                        for (int c = 0; c < 4; c++) {
                            ((uint8_t *)data)[k * 4 + c] = texel_rgba8(x, y, c);
                        }
                        fmt = GL_RGBA;
                        type = GL_UNSIGNED_BYTE;
                        break;
                    case FXGL_FORMAT_R32F:
                        ((float *)data)[k] = texel_r32f(x, y, z, lv);
                        fmt = GL_RED;
                        break;
                    case FXGL_FORMAT_R32I:
                        ((int32_t *)data)[k] = texel_r32i(x, y);
                        fmt = GL_RED_INTEGER;
                        type = GL_INT;
                        break;
                    case FXGL_FORMAT_R32U:
                        ((uint32_t *)data)[k] = texel_r32u(x, y);
                        fmt = GL_RED_INTEGER;
                        type = GL_UNSIGNED_INT;
                        break;
                    case FXGL_FORMAT_RG11B10F:
                        fmt = GL_RGBA; // left zero
                        break;
                    default:
                        texel_rgba32f(x, y, z, lv, &((float *)data)[k * 4]);
                        break;
                    }
                }
            }
        }
        if (t->format != FXGL_FORMAT_RG11B10F) {
            if (target == GL_TEXTURE_3D) {
                gl->TexSubImage3D(target, lv, 0, 0, 0, w, h, d, fmt, type, data);
            } else {
                gl->TexSubImage2D(target, lv, 0, 0, w, h, fmt, type, data);
            }
        }
        free(data);
    }
    return id;
}

static GLenum address(fxgl_address a) {
    switch (a) {
    case FXGL_ADDRESS_WRAP:
        return GL_REPEAT;
    case FXGL_ADDRESS_MIRROR:
        return GL_MIRRORED_REPEAT;
    case FXGL_ADDRESS_BORDER:
        return GL_CLAMP_TO_BORDER;
    default:
        return GL_CLAMP_TO_EDGE;
    }
}

static void make_objects(loader *l) {
    GladGLContext *gl = l->gl;
    const fxgl_effect *fx = l->fx;
    ck_assert_int_le((int)fx->texture_count, 16);
    ck_assert_int_le((int)fx->sampler_count, 16);
    for (size_t i = 0; i < fx->texture_count; i++) {
        l->tex[i] = make_texture(l, i, false);
        if (fx->textures[i].srgb_read) {
            l->tex_srgb[i] = make_texture(l, i, true);
        }
    }
    for (size_t i = 0; i < fx->sampler_count; i++) {
        const fxgl_sampler *s = &fx->samplers[i];
        GLuint id;
        gl->GenSamplers(1, &id);
        bool point_only = is_int_format(fx->textures[s->texture].format);
        bool min_lin = s->min_filter != FXGL_FILTER_POINT && !point_only;
        bool mip_lin = s->mip_filter != FXGL_FILTER_POINT && !point_only;
        GLenum min = min_lin ? (mip_lin ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST)
                             : (mip_lin ? GL_NEAREST_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST);
        gl->SamplerParameteri(id, GL_TEXTURE_MIN_FILTER, (GLint)min);
        gl->SamplerParameteri(id, GL_TEXTURE_MAG_FILTER,
                              s->mag_filter != FXGL_FILTER_POINT && !point_only ? GL_LINEAR
                                                                                : GL_NEAREST);
        gl->SamplerParameteri(id, GL_TEXTURE_WRAP_S, (GLint)address(s->address_u));
        gl->SamplerParameteri(id, GL_TEXTURE_WRAP_T, (GLint)address(s->address_v));
        gl->SamplerParameteri(id, GL_TEXTURE_WRAP_R, (GLint)address(s->address_w));
        gl->SamplerParameterf(id, GL_TEXTURE_MIN_LOD, s->min_lod < -1000 ? -1000 : s->min_lod);
        gl->SamplerParameterf(id, GL_TEXTURE_MAX_LOD, s->max_lod > 1000 ? 1000 : s->max_lod);
        l->sampler[i] = id;
    }
    gl->GenTextures(1, &l->result);
    gl->BindTexture(GL_TEXTURE_2D, l->result);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, W, H);
    gl->GenFramebuffers(1, &l->fbo);
    gl->GenVertexArrays(1, &l->vao);
    gl->GenBuffers(1, &l->ubo);
    gl->BindBuffer(GL_UNIFORM_BUFFER, l->ubo);
    size_t size = fx->uniform_block_size ? fx->uniform_block_size : 16;
    uint8_t *block = calloc(1, size);
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (u->initial_data) {
            memcpy(block + u->offset, u->initial_data, u->size);
        }
    }
    gl->BufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)size, block, GL_STATIC_DRAW);
    free(block);
    gl->BindBufferBase(GL_UNIFORM_BUFFER, 0, l->ubo);
}

static void bind_samplers(loader *l, const fxgl_shader *sh, int base) {
    GladGLContext *gl = l->gl;
    for (size_t i = 0; i < sh->sampler_count; i++) {
        const fxgl_sampler *s = &l->fx->samplers[sh->samplers[i].object];
        GLuint t = s->srgb && l->tex_srgb[s->texture] ? l->tex_srgb[s->texture] : l->tex[s->texture];
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)(base + sh->samplers[i].unit));
        gl->BindTexture(l->fx->textures[s->texture].dim == FXGL_TEXTURE_3D ? GL_TEXTURE_3D
                                                                          : GL_TEXTURE_2D, t);
        gl->BindSampler((GLuint)(base + sh->samplers[i].unit), l->sampler[sh->samplers[i].object]);
    }
}

// Runs every pass of the first technique; the back buffer is l->result.
static void run(loader *l) {
    GladGLContext *gl = l->gl;
    const fxgl_technique *t = &l->fx->techniques[0];
    for (size_t p = 0; p < t->pass_count; p++) {
        const fxgl_pass *pass = &t->passes[p];
        if (pass->compute_shader >= 0) {
            const fxgl_shader *cs = &l->fx->shaders[pass->compute_shader];
            GLuint prog = program(l, cs, NULL);
            bind_samplers(l, cs, 0);
            for (size_t i = 0; i < cs->storage_count; i++) {
                const fxgl_storage *st = &l->fx->storages[cs->storages[i].object];
                gl->BindImageTexture((GLuint)cs->storages[i].unit, l->tex[st->texture],
                                     st->level, GL_TRUE, 0, GL_READ_WRITE,
                                     internal_format(l->fx->textures[st->texture].format, false));
            }
            gl->DispatchCompute(pass->dispatch[0], pass->dispatch[1], pass->dispatch[2]);
            gl->MemoryBarrier(GL_ALL_BARRIER_BITS);
            gl->DeleteProgram(prog);
            continue;
        }
        const fxgl_shader *vs = &l->fx->shaders[pass->vertex_shader];
        const fxgl_shader *ps = pass->pixel_shader >= 0 ? &l->fx->shaders[pass->pixel_shader] : NULL;
        GLuint prog = program(l, vs, ps);
        bind_samplers(l, vs, 0);
        if (ps) {
            bind_samplers(l, ps, (int)vs->sampler_count);
        }
        gl->BindFramebuffer(GL_FRAMEBUFFER, l->fbo);
        int vw = W, vh = H;
        if (pass->render_target_count == 0) {
            gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                     l->result, 0);
        } else {
            for (int i = 0; i < pass->render_target_count; i++) {
                gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i,
                                         GL_TEXTURE_2D, l->tex[pass->render_targets[i]], 0);
            }
            vw = l->fx->textures[pass->render_targets[0]].width;
            vh = l->fx->textures[pass->render_targets[0]].height;
        }
        ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        gl->Viewport(0, 0, vw, vh);
        gl->ClearColor(-7, -7, -7, -7);
        gl->Clear(GL_COLOR_BUFFER_BIT);
        gl->BindVertexArray(l->vao);
        gl->DrawArrays(GL_TRIANGLES, 0, (GLsizei)pass->vertex_count);
        gl->DeleteProgram(prog);
    }
}

static void destroy_objects(loader *l) {
    GladGLContext *gl = l->gl;
    for (size_t i = 0; i < 16; i++) {
        if (l->tex[i]) {
            gl->DeleteTextures(1, &l->tex[i]);
        }
        if (l->tex_srgb[i]) {
            gl->DeleteTextures(1, &l->tex_srgb[i]);
        }
        if (l->sampler[i]) {
            gl->DeleteSamplers(1, &l->sampler[i]);
        }
    }
    gl->DeleteTextures(1, &l->result);
    gl->DeleteFramebuffers(1, &l->fbo);
    gl->DeleteVertexArrays(1, &l->vao);
    gl->DeleteBuffers(1, &l->ubo);
}

static bool close_enough(float got, float want, float tol, bool special) {
    if (isnan(want)) {
        return isnan(got);
    }
    if (isinf(want) || special) {
        return got == want;
    }
    return fabsf(got - want) <= (tol > 0 ? tol : 1e-5f) * (fabsf(want) > 1 ? fabsf(want) : 1);
}

static fxgl_test_egl *egl_gl;
static fxgl_test_egl *egl_es;
static char skip_reason[256];

static fxgl_test_egl *context(fxgl_api api) {
    fxgl_test_egl **slot = api == FXGL_API_GL ? &egl_gl : &egl_es;
    fxgl_test_egl **other = api == FXGL_API_GL ? &egl_es : &egl_gl;
    if (*other) {
        // The harness makes a context current only when it creates it.
        fxgl_test_egl_destroy(*other);
        *other = NULL;
    }
    if (!*slot) {
        *slot = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = api}, skip_reason,
                                     sizeof(skip_reason));
    }
    ck_assert_msg(*slot != NULL, "context: %s", skip_reason);
    return *slot;
}

// Compiles and runs src; fills px[H][W][4].
static void render(fxgl_api api, const char *src, bool perf,
                   bool (*uv)(void *, const char *, fxgl_value *), float px[H][W][4],
                   loader *keep) {
    fxgl_test_egl *egl = context(api);
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    glsl_compiled c;
    bool ok = glsl_compile(&c, src, api == FXGL_API_GL ? FXGL_GLSL_GL450 : FXGL_GLSL_ES320,
                           perf, uv);
    if (!ok) {
        char msg[2048] = "";
        for (size_t i = 0; i < c.diags.count; i++) {
            size_t n = strlen(msg);
            fxgl_diag_format(&c.diags.items[i], msg + n, sizeof(msg) - n);
        }
        glsl_compiled_free(&c);
        ck_abort_msg("compile failed: %s", msg);
    }
    loader l = {.gl = gl, .es = api == FXGL_API_GLES, .fx = c.effect};
    make_objects(&l);
    run(&l);
    gl->BindFramebuffer(GL_FRAMEBUFFER, l.fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, l.result, 0);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->ReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, px);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    if (keep) {
        *keep = l;
    } else {
        destroy_objects(&l);
    }
    glsl_compiled_free(&c);
}

static void check_case(const rcase *rc, fxgl_api api) {
    char *src = NULL;
    if (strstr(rc->src, "technique")) {
        src = strdup(rc->src);
    } else {
        size_t n = strlen(rc->src) + strlen(VS_SRC) + 200;
        src = malloc(n);
        snprintf(src, n, "%s%s%s", rc->src, VS_SRC,
                 "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n");
    }
    if (api == FXGL_API_GLES && (rc->flags & GL_ONLY)) {
        // The feature is missing from GLSL ES: a diagnostic must name it.
        glsl_compiled c;
        bool ok = glsl_compile(&c, src, FXGL_GLSL_ES320, false, NULL);
        ck_assert_msg(!ok, "%s: expected an ES diagnostic", rc->name);
        ck_assert_int_ge((int)c.diags.errors, 1);
        glsl_compiled_free(&c);
        free(src);
        return;
    }
    float px[H][W][4];
    render(api, src, false, NULL, px, NULL);
    free(src);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float want[4];
            if (rc->fn) {
                rc->fn(x, y, want);
            } else {
                memcpy(want, rc->k, sizeof(want));
            }
            for (int c = 0; c < 4; c++) {
                ck_assert_msg(close_enough(px[y][x][c], want[c], rc->tol, rc->flags & SPECIAL),
                              "%s (%s): pixel (%d, %d) component %d is %.9g, expected %.9g",
                              rc->name, api == FXGL_API_GL ? "GL 4.5" : "GLES 3.2", x, y, c,
                              (double)px[y][x][c], (double)want[c]);
            }
        }
    }
}

START_TEST(test_case_gl) {
    check_case(&cases[_i], FXGL_API_GL);
}
END_TEST

START_TEST(test_case_es) {
    check_case(&cases[_i], FXGL_API_GLES);
}
END_TEST

// Performance mode: uniforms with initializers become constants with the
// values the callback gives; the block keeps the others at their offsets.
static bool perf_value(void *user, const char *name, fxgl_value *v) {
    (void)user;
    if (strcmp(name, "A") == 0) {
        v->scalar = FXGL_SCALAR_FLOAT;
        v->count = 1;
        v->f[0] = 0.75f;
        return true;
    }
    return false;
}

static void perf_mode(fxgl_api api) {
    const char *src = "uniform float A = 0.25; uniform float B = 2; uniform float C; uniform float4 D;\n"
                      "uniform int Frames < source = \"framecount\"; > = 9;\n"
                      PS_HEAD "return float4(A, B, C + D.x, Frames == 9); }\n" VS_SRC
                      "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n";
    // C has no initializer: it stays in the block, where the loader's zero
    // data plus D's zero give 0; so patch the block through the module's
    // offsets below by rendering twice would be overkill: check 0 here.
    float px[H][W][4];
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, api == FXGL_API_GL ? FXGL_GLSL_GL450 : FXGL_GLSL_ES320, true,
                           perf_value));
    const char *code = c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader].glsl;
    ck_assert_ptr_nonnull(strstr(code, "const float A = 0.75;"));
    ck_assert_ptr_nonnull(strstr(code, "const float B = 2.0;"));
    // A special uniform stays in the block even with an initializer.
    ck_assert_ptr_null(strstr(code, "const int Frames"));
    glsl_compiled_free(&c);
    render(api, src, true, perf_value, px, NULL);
    ck_assert_float_eq(px[0][0][0], 0.75f);
    ck_assert_float_eq(px[0][0][1], 2.0f);
    ck_assert_float_eq(px[0][0][2], 0.0f);
    ck_assert_float_eq(px[0][0][3], 1.0f);
}

START_TEST(test_perf_mode_gl) {
    perf_mode(FXGL_API_GL);
}
END_TEST

START_TEST(test_perf_mode_es) {
    perf_mode(FXGL_API_GLES);
}
END_TEST

// The driver's std140 offsets of the block equal the module's.
static void block_offsets(fxgl_api api, bool perf) {
    const char *src = "uniform float F1 = 1; uniform float3x4 N; uniform float2 F2; uniform float3 F3;\n"
                      "uniform float F4 = 2; uniform float A4[3]; uniform int I1; uniform bool B1;\n"
                      "uniform float2x2 M2; uniform uint U1 = 3; uniform float4 V4;\n"
                      PS_HEAD "return float4(F1 + N[2].w + F2.y + F3.z + F4 + A4[2] + I1 + B1 + M2[1].y + U1, V4.xyz); }\n"
                      VS_SRC "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n";
    fxgl_test_egl *egl = context(api);
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, api == FXGL_API_GL ? FXGL_GLSL_GL450 : FXGL_GLSL_ES320, perf,
                           NULL));
    const fxgl_effect *fx = c.effect;
    loader l = {.gl = gl, .fx = fx};
    const fxgl_shader *vs = &fx->shaders[fx->techniques[0].passes[0].vertex_shader];
    const fxgl_shader *ps = &fx->shaders[fx->techniques[0].passes[0].pixel_shader];
    GLuint prog = program(&l, vs, ps);
    int checked = 0;
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (perf && u->has_initializer) {
            continue;
        }
        char name[64];
        snprintf(name, sizeof(name), "%s%s", u->name, u->array_length ? "[0]" : "");
        const char *names[1] = {name};
        GLuint index = GL_INVALID_INDEX;
        gl->GetUniformIndices(prog, 1, names, &index);
        if (index == GL_INVALID_INDEX) {
            continue; // optimized out
        }
        GLint off = -1;
        gl->GetActiveUniformsiv(prog, 1, &index, GL_UNIFORM_OFFSET, &off);
        ck_assert_msg(off == (GLint)u->offset, "%s: driver offset %d, module offset %u", u->name,
                      off, u->offset);
        checked++;
    }
    ck_assert_int_ge(checked, perf ? 5 : 8);
    gl->DeleteProgram(prog);
    glsl_compiled_free(&c);
}

START_TEST(test_block_offsets_gl) {
    block_offsets(FXGL_API_GL, false);
    block_offsets(FXGL_API_GL, true);
}
END_TEST

START_TEST(test_block_offsets_es) {
    block_offsets(FXGL_API_GLES, false);
    block_offsets(FXGL_API_GLES, true);
}
END_TEST

int main(void) {
    fxgl_test_pin_drivers();
    // Skip (not fail) where no headless context exists at all.
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                                skip_reason, sizeof(skip_reason));
    if (!probe) {
        printf("SKIP: no headless GL 4.5 context: %s\n", skip_reason);
        return FXGL_TEST_SKIP;
    }
    fxgl_test_egl_destroy(probe);
    Suite *s = suite_create("glsl_render");
    TCase *tc = tcase_create("render");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_case_gl, 0, (int)CASE_COUNT);
    tcase_add_test(tc, test_perf_mode_gl);
    tcase_add_test(tc, test_block_offsets_gl);
    tcase_add_loop_test(tc, test_case_es, 0, (int)CASE_COUNT);
    tcase_add_test(tc, test_perf_mode_es);
    tcase_add_test(tc, test_block_offsets_es);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    // One process: the contexts are created once and shared by the cases.
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (egl_gl) {
        fxgl_test_egl_destroy(egl_gl);
    }
    if (egl_es) {
        fxgl_test_egl_destroy(egl_es);
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
