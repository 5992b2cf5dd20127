/*
 * test_glsl.c - the GLSL / GLSL ES generator (src/fx/glsl.c): generated code
 * for many constructs is validated by glslang for every target, vertex and
 * pixel shaders of a pass are linked, unsupported features on GLSL ES are
 * reported by name, and a few textual properties of the output that the
 * runtime contract fixes (fxgl_fx.h) are checked.
 *
 * `test_glsl FILE.fx TARGET` prints the shaders of a directive-free effect
 * and their glslang verdicts (a development aid).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_typesys.h"
#include "glsl_util.h"

static const fxgl_glsl_target all_targets[] = {FXGL_GLSL_GL430, FXGL_GLSL_GL450,
                                               FXGL_GLSL_ES300, FXGL_GLSL_ES310,
                                               FXGL_GLSL_ES320};

static void print_diags(const fxgl_diags *d) {
    for (size_t i = 0; i < d->count; i++) {
        char buf[1024];
        fxgl_diag_format(&d->items[i], buf, sizeof(buf));
        fprintf(stderr, "  %s\n", buf);
    }
}

// Compiles src for target and validates every shader and every pass link.
// Returns the number of failures (printed).
static int check_effect(const char *name, const char *src, fxgl_glsl_target target,
                        bool verbose) {
    glsl_compiled c;
    int failures = 0;
    if (!glsl_compile(&c, src, target, false, NULL)) {
        fprintf(stderr, "%s/%s: compile failed\n", name, glsl_target_name(target));
        print_diags(&c.diags);
        glsl_compiled_free(&c);
        return 1;
    }
    const fxgl_effect *fx = c.effect;
    char log[8192];
    for (size_t i = 0; i < fx->shader_count; i++) {
        const fxgl_shader *sh = &fx->shaders[i];
        bool ok = sh->glsl && glsl_validate(sh->glsl, sh->stage, log, sizeof(log));
        if (verbose) {
            printf("// ---- %s (%s) ----\n%s", sh->entry,
                   sh->stage == FXGL_STAGE_VERTEX ? "vertex"
                   : sh->stage == FXGL_STAGE_PIXEL ? "pixel" : "compute",
                   sh->glsl ? sh->glsl : "(none)\n");
        }
        if (!ok) {
            fprintf(stderr, "%s/%s: %s does not validate:\n%s\n%s\n", name,
                    glsl_target_name(target), sh->entry, log, verbose ? "" : sh->glsl);
            failures++;
        }
    }
    for (size_t t = 0; t < fx->technique_count && !failures; t++) {
        for (size_t p = 0; p < fx->techniques[t].pass_count; p++) {
            const fxgl_pass *pass = &fx->techniques[t].passes[p];
            if (pass->vertex_shader < 0 || pass->pixel_shader < 0) {
                continue;
            }
            if (!glsl_validate_link(fx->shaders[pass->vertex_shader].glsl,
                                    fx->shaders[pass->pixel_shader].glsl, log, sizeof(log))) {
                fprintf(stderr, "%s/%s: pass %zu does not link:\n%s\n", name,
                        glsl_target_name(target), p, log);
                failures++;
            }
        }
    }
    glsl_compiled_free(&c);
    return failures;
}

static int dump(const char *path, const char *target) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    static char src[1 << 20];
    size_t n = fread(src, 1, sizeof(src) - 1, f);
    fclose(f);
    src[n] = '\0';
    for (size_t i = 0; i < sizeof(all_targets) / sizeof(all_targets[0]); i++) {
        if (strcmp(glsl_target_name(all_targets[i]), target) == 0) {
            return check_effect(path, src, all_targets[i], true) ? 1 : 0;
        }
    }
    fprintf(stderr, "unknown target %s\n", target);
    return 2;
}

// --- effects that must generate valid code for every target ---

#define VS_DECL                                                                                \
    "void PostProcessVS(in uint id : SV_VertexID, out float4 position : SV_Position, "       \
    "out float2 texcoord : TEXCOORD) {\n"                                                     \
    "    texcoord.x = (id == 2) ? 2.0 : 0.0;\n"                                               \
    "    texcoord.y = (id == 1) ? 2.0 : 0.0;\n"                                               \
    "    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"    \
    "}\n"
#define TECH(ps) "technique T { pass { VertexShader = PostProcessVS; PixelShader = " ps "; } }\n"

typedef struct effect_case {
    const char *name;
    const char *src;
    unsigned skip_targets;       // bit per all_targets index: expected not to apply
} effect_case;

static const effect_case effects[] = {
    {"postprocess",
     "texture BackBufferTex : COLOR; sampler BackBuffer { Texture = BackBufferTex; };\n"
     "uniform float Strength < ui_type = \"slider\"; > = 0.5;\n"
     "uniform float3 Tint = float3(1, 0.5, 0.25);\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float4 c = tex2D(BackBuffer, uv);\n"
     "    return float4(lerp(c.rgb, c.rgb * Tint, Strength), 1);\n"
     "}\n" TECH("PS"), 0},
    {"operators",
     "uniform int I = 3; uniform uint U = 5; uniform float F = 1.5;\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    int a = I % 2, b = -I / 2; uint c = U % 3u; float d = F % 0.7;\n"
     "    float2 e = uv % float2(0.3, 0.4); bool2 f = uv < 0.5; bool g = all(f) && any(!f);\n"
     "    int h = (a << 2) | (b & 7) ^ ~a; uint k = c >> 1u; float3x3 m = float3x3(1,2,3,4,5,6,7,8,9);\n"
     "    float3x3 n = m * m; float3 v = mul(float3(1, 2, 3), m); v = mul(m, v);\n"
     "    float3x3 mm = mul(m, n); m *= n; m %= n; a += 0.5; a %= 2; h *= 1.5;\n"
     "    float4 x = uv.xyxy; x.zw = uv.yx; float s = F; float4 t = s.xxxx; s.x = 2;\n"
     "    float q = m._m01 + m._12 + m[1][2]; float2 w = m._m00_m11; \n"
     "    bool3 z = f.xyx == bool3(true, false, true); bool zz = d ? g : !g;\n"
     "    float2 sel = f ? uv : uv.yx; float2 sel2 = g ? uv : e;\n"
     "    return float4(d + e.x + q + w.y + sel.x + sel2.y + v.x + mm[0][0] + t.y + n._22 + x.w, a + b + h, c + k,\n"
     "                  z.x && zz);\n"
     "}\n" TECH("PS"), 0},
    {"functions",
     "struct S { float4 a; int b[2]; };\n"
     "void f1(inout float x, out int y) { x *= 2; y = 3; }\n"
     "float f2(S s, float3 v[2]) { return s.a.x + s.b[1] + v[1].y; }\n"
     "S make(float x) { S s; s.a = x; s.b[0] = 1; s.b[1] = 2; return s; }\n"
     "void g(out float4 r) { r = 1; }\n"
     "static float Counter = 0; static const float K[3] = { 1, 2, 3 };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float x = uv.x; int y; f1(x, y); int iy = 2; float fy; f1(fy, iy); f1(x, fy);\n"
     "    float3 v[2] = { float3(1, 2, 3), float3(4, 5, 6) };\n"
     "    S s = make(x); float r = f2(s, v) + K[y % 3];\n"
     "    float4 o; g(o); float3 o3; int4 o4; g(o4);\n"
     "    static int Calls = 0; Calls++;\n"
     "    Counter += 1; bool t = (Counter > 2) || (Counter++ > 3);\n"
     "    return float4(r, x, y, t) + o + o4;\n"
     "}\n" TECH("PS"), 0},
    {"control_flow",
     "uniform int N = 4;\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float acc = 0;\n"
     "    [unroll] for (int i = 0; i < 4; i++) { if (i == 2) continue; acc += i; }\n"
     "    [loop] for (int i = 0; i < N; ++i) { acc += 0.5; if (acc > 10) break; }\n"
     "    int j = 0; while (j < 3) { j++; } do { j--; } while (j > 0);\n"
     "    [branch] if (uv.x > 0.5) acc += 1; else if (uv.y > 0.5) acc -= 1; else { acc = 0; }\n"
     "    [flatten] switch (N) { case 0: acc = 1; break; case 1: case 2: acc = 2; break;\n"
     "        default: acc += 3; break; }\n"
     "    switch (uint(N)) { case 3u: acc = 5; break; default: break; }\n"
     "    if (acc < 0) discard;\n"
     "    return acc;\n"
     "}\n" TECH("PS"), 0},
    {"intrinsics_math",
     "uniform float4 P = float4(0.1, 0.2, 0.3, 0.4);\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float4 a = abs(P) + acos(P) + asin(P) + atan(P) + atan2(P, P) + ceil(P) + cos(P) + cosh(P);\n"
     "    a += degrees(P) + exp(P) + exp2(P) + floor(P) + frac(P) + log(P) + log10(P) + log2(P);\n"
     "    a += radians(P) + rcp(P) + round(P) + rsqrt(P) + saturate(P) + sign(P) + sin(P) + sinh(P);\n"
     "    a += sqrt(P) + tan(P) + tanh(P) + trunc(P) + fmod(P, 0.3) + pow(P, 2) + step(P, 0.5);\n"
     "    a += max(P, 0) + min(P, 1) + clamp(P, 0, 1) + lerp(P, 1, 0.5) + mad(P, 2, 1) + smoothstep(0, 1, P);\n"
     "    a.xyz += cross(P.xyz, P.zyx) + normalize(P.xyz) + reflect(P.xyz, P.yzx) + refract(P.xyz, P.yzx, 0.5);\n"
     "    a.xyz += faceforward(P.xyz, P.yzx, P.zxy);\n"
     "    a.x += dot(P, P) + distance(P, 1) + length(P) + determinant(float2x2(P)) + dot(P.x, P.y);\n"
     "    float2x2 m = transpose(float2x2(P)); a.xy += m[0] + abs(m)[1] + lerp(m, m, m)[0];\n"
     "    float s, c; sincos(P.x, s, c); float ip; float fr = modf(P.y, ip); int e; float mant = frexp(P.z, e);\n"
     "    a.x += s + c + ip + fr + mant + e + ldexp(P.w, 2);\n"
     "    bool4 n = isnan(P) || isinf(P); a += n;\n"
     "    int4 bi = asint(P); uint4 bu = asuint(P); a += asfloat(bi) + asfloat(bu);\n"
     "    uint4 cb = countbits(bu) + reversebits(bu) + firstbitlow(bu) + firstbithigh(bu);\n"
     "    a += cb + firstbithigh(bi) + f16tof32(f32tof16(P)); a += ddx(P) + ddy(P) + fwidth(P);\n"
     "    a += ddx_fine(P) + ddy_coarse(P) + ddx_coarse(P.x) + ddy_fine(P.y);\n"
     "    return a + any(P) + all(P > 0) + mul(2, P) + mul(P, 2);\n"
     "}\n" TECH("PS"), 1u << 2},
    {"textures",
     "texture T2 { Width = 64; Height = 32; Format = RGBA8; MipLevels = 3; };\n"
     "texture3D T3 { Width = 8; Height = 8; Depth = 8; Format = R32F; };\n"
     "texture TI { Width = 8; Height = 8; Format = R32I; };\n"
     "texture TU { Width = 8; Height = 8; Format = R32U; };\n"
     "sampler S2 { Texture = T2; SRGBTexture = true; }; sampler3D S3 { Texture = T3; };\n"
     "sampler<int> SI { Texture = TI; }; sampler<uint> SU { Texture = TU; };\n"
     "sampler3D<float> S3f { Texture = T3; };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float4 c = tex2D(S2, uv) + tex2D(S2, uv, int2(1, -1)) + tex2Dlod(S2, float4(uv, 0, 1));\n"
     "    c += tex2Dlod(S2, float4(uv, 0, 1), int2(2, 0)) + tex2Dgrad(S2, uv, ddx(uv), ddy(uv));\n"
     "    c += tex2Dgrad(S2, uv, ddx(uv), ddy(uv), int2(0, 1)) + tex2Dfetch(S2, int2(pos.xy));\n"
     "    c += tex2Dfetch(S2, int2(pos.xy), 1) + tex2Dsize(S2).xyxy + tex2Dsize(S2, 1).x;\n"
     "    c += tex3D(S3, uv.xyx) + tex3D(S3, uv.xyx, int3(1, 0, -1)) + tex3Dlod(S3, float4(uv.xyx, 0))\n"
     "       + tex3Dlod(S3, float4(uv.xyx, 0), int3(1, 1, 1)) + tex3Dgrad(S3, uv.xyx, 0, 0, int3(0, 1, 0));\n"
     "    c += tex3Dfetch(S3, int3(1, 2, 3)) + tex3Dsize(S3).x + tex3D(S3f, uv.xyx);\n"
     "    c += tex2Dfetch(SI, int2(0, 0)) + tex2Dfetch(SU, int2(0, 0)) + tex2D(SI, uv) + tex2D(SU, uv);\n"
     "    return c;\n"
     "}\n" TECH("PS"), 0},
    {"gathers",
     "texture T2 { Width = 64; Height = 32; Format = RGBA8; };\n"
     "sampler S2 { Texture = T2; };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    return tex2DgatherR(S2, uv) + tex2DgatherG(S2, uv, int2(1, 0)) + tex2DgatherB(S2, uv)\n"
     "         + tex2DgatherA(S2, uv, int2(0, 1));\n"
     "}\n" TECH("PS"), 1u << 2},
    {"gather_offsets",
     "texture T2 { Width = 64; Height = 32; Format = RGBA8; };\n"
     "sampler S2 { Texture = T2; };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    return tex2DgatherR(S2, uv, int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1));\n"
     "}\n" TECH("PS"), (1u << 2) | (1u << 3)},
    {"compute",
     "texture T { Width = 16; Height = 16; Format = R32U; };\n"
     "texture TF { Width = 16; Height = 16; Format = RGBA8; };\n"
     "storage<uint> St { Texture = T; }; storage SF { Texture = TF; };\n"
     "groupshared uint Shared[64]; groupshared int Count;\n"
     "void CS(uint3 id : SV_DispatchThreadID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex) {\n"
     "    Shared[gi] = id.x; if (gi == 0) Count = 0;\n"
     "    barrier(); groupMemoryBarrier(); memoryBarrier();\n"
     "    int old; old = atomicAdd(Count, 1); atomicMax(Count, 2); atomicExchange(Count, 3);\n"
     "    atomicCompareExchange(Count, 3, 4); atomicOr(Count, 1); atomicAnd(Count, 1); atomicXor(Count, 1);\n"
     "    uint prev = atomicAdd(St, int2(id.xy), 1u); atomicMin(St, int2(0, 0), 0u);\n"
     "    atomicCompareExchange(St, int2(1, 1), 0u, 1u);\n"
     "    tex2Dstore(SF, int2(id.xy), float4(Shared[63 - gi], prev, old, 1));\n"
     "    uint v = tex2Dfetch(St, int2(0, 0)); tex2Dstore(St, int2(id.xy), v + tex2Dsize(St).x);\n"
     "}\n"
     "technique C { pass { ComputeShader = CS<8, 8, 1>; DispatchSizeX = 2; DispatchSizeY = 2; } }\n",
     (1u << 2) | (1u << 3)},
    {"interface",
     "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation int id : TEXCOORD1;\n"
     "    bool flag : TEXCOORD2; float3 arr[2] : TEXCOORD3; float2x2 m : TEXCOORD5; };\n"
     "VSOut VS(uint id : SV_VertexID) { VSOut o; o.uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0);\n"
     "    o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1); o.id = id; o.flag = id > 0;\n"
     "    o.arr[0] = 1; o.arr[1] = 2; o.m = float2x2(1, 2, 3, 4); return o; }\n"
     "void PS(VSOut i, out float4 c0 : SV_Target0, out float4 c1 : SV_Target1, out float d : SV_Depth) {\n"
     "    c0 = float4(i.uv, i.id, i.flag) + i.arr[1].x + i.m[1].y + i.pos.x; c1 = 1; d = 0.5;\n"
     "}\n"
     "texture A { Width = 4; Height = 4; Format = RGBA8; }; texture B { Width = 4; Height = 4; Format = RGBA8; };\n"
     "technique T < ui_label = \"x\"; > { pass { VertexShader = VS; PixelShader = PS; RenderTarget0 = A; RenderTarget1 = B; } }\n",
     0},
    {"names",
     "namespace NS { float filter(float input) { return input * 2; } static const float main = 3; }\n"
     "struct texture2 { float output; };\n"
     "float _under(float gl_x, float a__b) { return gl_x + a__b; }\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float mix = NS::filter(uv.x) + NS::main; float flat = _under(mix, 1); int highp = 1;\n"
     "    return flat + highp;\n"
     "}\n" TECH("PS"), 0},
    {"constants",
     "static const float PosInf = 1.0 / 0.0; static const float NegInf = -1.0 / 0.0;\n"
     "static const float Denorm = 1e-40; static const float Small = 1.17549435e-38;\n"
     "static const float Big = 3.4028235e38; static const int MinInt = -2147483647 - 1;\n"
     "static const uint MaxU = 0xFFFFFFFFu; static const float3 V = float3(1, -2, 0.5);\n"
     "static const float2x2 M = float2x2(1, 2, 3, 4); static const float A[2] = { -0.0, 1e10 };\n"
     "static float SInf = 1.0 / 0.0; static float SArr[2] = { 0.0 / 0.0, 1 };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float n = 0.0 / 0.0; float3 v = V; float2x2 m = M;\n"
     "    return float4(PosInf + NegInf + Denorm + Small + Big + n, MinInt, MaxU, A[uv.x > 0.5] + v.x + m[1][0] + SInf + SArr[0]);\n"
     "}\n" TECH("PS"), 0},
    {"odd_constructs",
     "uniform int2x2 IM = int2x2(1, 2, 3, 4);\n"
     "uniform float F = 2;\n"
     "uniform int I = 1;\n"
     "struct T { float a; float2 b; };\n"
     "float f(float x) { return x; }\n"
     "float f(min16float2 x) { return x.x; }\n"
     "float f(int2x2 m) { return m[0][0]; }\n"
     "float f(float2x2 m) { return m[1][1]; }\n"
     "static float3 G = F * 2;\n"
     "static const float3 LUT[2] = { float3(1, 2, 3), float3(4, 5, 6) };\n"
     "void store(out float a[2]) { a[0] = 1; a[1] = 2; }\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float2x2 s = (float2x2)F;\n"
     "    int2x2 im = IM;\n"
     "    float a = f(im) + f(s) + f(min16float2(1, 2)) + f(F);\n"
     "\n"
     "    float3 v = F;\n"
     "    bool cmp = all(IM[1] == int2(3, 4));\n"
     "    T t1 = { 1, float2(2, 3) }; T t2 = t1; t2.a = 5;\n"
     "    T t = I > 0 ? t1 : t2;\n"
     "    float x = ldexp(F, 3) + ldexp(uv, int2(1, 2)).x;\n"
     "    float arr[2]; store(arr);\n"
     "    int2x2 m2 = IM * IM;\n"
     "    float3 lut = LUT[I];\n"
     "    return float4(a + x + arr[1], v.x + cmp + t.a + G.x, im[1][0] + m2._m11 + lut.z, 1);\n"
     "}\n" TECH("PS"), 0},
    {"stress",
     "uniform float3x3 Ms[2] = { float3x3(1,2,3,4,5,6,7,8,9), float3x3(1,0,0,0,1,0,0,0,1) };\n"
     "uniform bool3 B3 = bool3(true, false, true);\n"
     "uniform float F = 2;\n"
     "uniform int N = 3;\n"
     "static float Arr[3] = { F, F * 2, 3 };\n"
     "static int counter = 0;\n"
     "float side(float x) { counter++; return x; }\n"
     "void two(out float a, inout float2 b) { a = 1; b *= 2; }\n"
     "float4 PostProcessVSx(uint id : SV_VertexID) : SV_Position { return float4(id, 0, 0, 1); }\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float3x3 m = Ms[1];\n"
     "    m._11_22 = float2(5, 6);\n"
     "    m._m20_m02 += float2(1, 2);\n"
     "    m._33++;\n"
     "    m[1] *= 2;\n"
     "    float3 v = 1; v.xy *= 2; v.z += side(1);\n"
     "    int i = 0; while ((i += 1) < 5) { if (i == 2) continue; }\n"
     "    for (int a = 0, b = 5; a < b; a++, b--) { v.x += 1; }\n"
     "    for (;;) { break; }\n"
     "    do { i--; if (i > 2) continue; } while (i > 0);\n"
     "    [loop] for (int k = 0; k < N; k++) { switch (k) { case 0: { for (int q = 0; q < 2; q++) { if (q == 1) break; } break; } default: v.y += k; break; } if (k == 2) return float4(v, 1); }\n"
     "    const float cl[2] = { 1, 2 };\n"
     "    float fm = fmod(side(5), 3) + cl[N - 2];\n"
     "    float s, c; float2 sc; sincos(F, sc.x, sc.y); sincos(side(F), s, c);\n"
     "    float x1; float2 y2 = uv; two(x1, y2); float2 z2; two(z2.x, v.yz);\n"
     "    int2 iv = mul(int2(1, 2), int2x2(1, 2, 3, 4));\n"
     "    bool3 bb = B3 && !B3;\n"
     "    float t = (F > 1 ? side(1) : side(2)) + (v.x > 0 && side(1) > 0);\n"
     "    return float4(m._11 + m[1].y + Arr[2] + fm + s + c + sc.x + x1 + y2.x + iv.y + t, bb.x, counter, Ms[0]._m21);\n"
     "}\n" TECH("PS"), 0},
    {"storage_params_and_semantics",
     "texture T { Width = 16; Height = 16; Format = RGBA8; };\n"
     "texture TU { Width = 16; Height = 16; Format = R32U; };\n"
     "sampler S { Texture = T; };\n"
     "storage St { Texture = T; };\n"
     "storage<uint> SU { Texture = TU; };\n"
     "float4 samp(sampler s, float2 uv) { return tex2D(s, uv); }\n"
     "void put(storage s, int2 p, float4 v) { tex2Dstore(s, p, v); }\n"
     "uint bump(storage<uint> s) { return atomicAdd(s, int2(0, 0), 1u); }\n"
     "void CS(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, int2 lid : SV_GroupThreadID) {\n"
     "    put(St, int2(id.xy), float4(gid, 1) + lid.x);\n"
     "    bump(SU);\n"
     "}\n"
     "void VS(uint id : SV_VertexID, uint iid : SV_InstanceID, out float4 p : POSITION, out float2 uv : TEXCOORD) {\n"
     "    uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv * float2(2, -2) + float2(-1, 1), iid, 1);\n"
     "}\n"
     "void PS(float4 vpos : VPOS, float2 uv : TEXCOORD, bool front : SV_IsFrontFace, out float4 c0 : COLOR0, out float4 c1 : SV_Target1) {\n"
     "    c0 = samp(S, uv) + front + vpos.x; c1 = 1;\n"
     "}\n"
     "technique T2 { pass { VertexShader = VS; PixelShader = PS; } }\n"
     "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; } }\n",
     (1u << 2) | (1u << 3)},
    {"min16_precision",
     "uniform min16float MF = 0.5; uniform min16int MI = 2;\n"
     "struct M16 { min16float2 a; min16uint b; min16float2x2 m; };\n"
     "min16float half_of(min16float x, out min16int y) { y = MI; return x * 0.5; }\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    M16 s; s.a = uv; s.b = 3; s.m = min16float2x2(1, 2, 3, 4); min16int y; int z;\n"
     "    min16float h = half_of(MF, y) + half_of(s.a.x, z); float f = h * s.m[1].x;\n"
     "    return float4(f, y, s.b, z);\n"
     "}\n" TECH("PS"), 0},
    {"reference_expression_rules",
     // Matrix-scalar operators, widening assignment, brace lists as arrays,
     // stpq, static locals initialized from locals, non-constant offsets.
     "texture T1 { Width = 4; Height = 4; Format = RGBA8; };\n"
     "texture TM { Width = 4; Height = 4; Format = RGBA8; MipLevels = 3; };\n"
     "sampler S1 { Texture = T1; }; sampler SM { Texture = TM; };\n"
     "uniform float F = 2; uniform int2 O = int2(1, 0);\n"
     "float pick(float3 v[2], int i) { return v[i].z; }\n"
     "float4 at(sampler s, float2 uv, int2 o) { return tex2D(s, uv, o); }\n"
     "float halves(int n) { static const int h = n / 2; static const int m = h * 2 + 1; return m; }\n"
     VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float3x3 m = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 9) * F + 1; m = m / F - true; bool3 bm = F > m[0];\n"
     "    float4 v = 0; v = uv; v += m[1]; int i = 3; i *= F; uint u = 7; u -= F; bool b = true; b += F;\n"
     "    float a[3]; a = {1, F, i,}; int2 c[2]; c = {O, int2(i, 0)};\n"
     "    float4 t = 0; [unroll] for (int k = -1; k <= 1; k++) { t += tex2D(S1, uv, int2(k, 0)); }\n"
     "    t += at(S1, uv, O) + tex2Dlod(SM, float4(uv, 0, F), O) + tex2Dgrad(SM, uv, uv, uv, O);\n"
     "    t += tex2D(S1, uv, c[1]) + halves(i);\n"
     "    return v.stpq + t + pick({float3(1, 2, 3), F}, i) + a[i] + float4(bm.x, u, b, 0) + F.s;\n"
     "}\n"
     "void PS2(float x : SV_Position, float2 uv : TEXCOORD, out float4 c : SV_Target) { c.x += x; c.yzw += uv.y; }\n"
     "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; }\n"
     "    pass { VertexShader = PostProcessVS; PixelShader = PS2; } }\n", 0},
    {"gather_offsets_not_constant",
     "texture T { Width = 4; Height = 4; Format = RGBA8; MipLevels = 2; }; sampler S { Texture = T; };\n"
     "uniform int K = 1;\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    return tex2DgatherR(S, uv, int2(K, 0)) + tex2DgatherA(S, uv, int2(0, 0), int2(K, 0), int2(0, K), -int2(K, K));\n"
     "}\n" TECH("PS"), 1u << 2},
};

#define EFFECT_COUNT (sizeof(effects) / sizeof(effects[0]))
#define TARGET_COUNT (sizeof(all_targets) / sizeof(all_targets[0]))

START_TEST(test_effect_validates) {
    const effect_case *ec = &effects[_i / TARGET_COUNT];
    size_t t = _i % TARGET_COUNT;
    if (ec->skip_targets & (1u << t)) {
        return; // covered by the negative tests below
    }
    ck_assert_int_eq(check_effect(ec->name, ec->src, all_targets[t], false), 0);
}
END_TEST

// --- GLSL ES: features the target lacks are errors that name them ---

typedef struct es_case {
    const char *name;
    const char *src;
    fxgl_glsl_target target;     // fails here (and on lower ES versions)
    const char *message;         // a substring of the diagnostic
} es_case;

#define PS_SIMPLE(body)                                                                        \
    VS_DECL "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n" body  \
    "}\n" TECH("PS")

static const es_case es_cases[] = {
    {"border_before_32",
     "texture T { Width = 4; Height = 4; Format = RGBA8; };\n"
     "sampler S { Texture = T; AddressU = BORDER; };\n" PS_SIMPLE("return tex2D(S, uv);"),
     FXGL_GLSL_ES310, "BORDER"},
    {"gather_offsets_before_32",
     "texture T { Width = 4; Height = 4; Format = RGBA8; }; sampler S { Texture = T; };\n"
     PS_SIMPLE("return tex2DgatherR(S, uv, int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1));"),
     FXGL_GLSL_ES310, "textureGatherOffsets"},
    {"gather_in_300",
     "texture T { Width = 4; Height = 4; Format = RGBA8; }; sampler S { Texture = T; };\n"
     PS_SIMPLE("return tex2DgatherG(S, uv);"), FXGL_GLSL_ES300, "textureGather"},
    {"bit_counting_in_300",
     "uniform uint U = 3;\n" PS_SIMPLE("return countbits(U);"), FXGL_GLSL_ES300,
     "bit counting"},
    {"compute_in_300",
     "texture T { Width = 4; Height = 4; Format = RGBA8; }; storage St { Texture = T; };\n"
     "void CS(uint3 id : SV_DispatchThreadID) { tex2Dstore(St, int2(id.xy), 1); }\n"
     "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; } }\n",
     FXGL_GLSL_ES300, "compute shaders"},
    {"image_atomics_before_32",
     "texture T { Width = 4; Height = 4; Format = R32U; }; storage<uint> St { Texture = T; };\n"
     "void CS(uint3 id : SV_DispatchThreadID) { atomicAdd(St, int2(0, 0), 1u); }\n"
     "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; } }\n",
     FXGL_GLSL_ES310, "image atomics"},
};

#define ES_COUNT (sizeof(es_cases) / sizeof(es_cases[0]))

static bool has_message(const fxgl_diags *d, const char *what) {
    for (size_t i = 0; i < d->count; i++) {
        if (d->items[i].severity == FXGL_DIAG_ERROR && strstr(d->items[i].message, what) &&
            d->items[i].line > 0) {
            return true;
        }
    }
    return false;
}

START_TEST(test_es_diagnostic) {
    const es_case *ec = &es_cases[_i];
    glsl_compiled c;
    ck_assert_msg(!glsl_compile(&c, ec->src, ec->target, false, NULL), "%s compiled", ec->name);
    if (!has_message(&c.diags, ec->message)) {
        print_diags(&c.diags);
    }
    ck_assert_msg(has_message(&c.diags, ec->message), "%s: no error with a position naming '%s'",
                  ec->name, ec->message);
    glsl_compiled_free(&c);
    // Desktop GL has the feature: the same effect generates valid code.
    ck_assert_int_eq(check_effect(ec->name, ec->src, FXGL_GLSL_GL430, false), 0);
    ck_assert_int_eq(check_effect(ec->name, ec->src, FXGL_GLSL_GL450, false), 0);
}
END_TEST

// What GLSL ES lacks and the back end emulates: 1D objects as 2D of height
// 1, storage formats of GL_NV_image_formats with a stand-in without it (the
// runtime allocates to match; tests/gl/test_gles_emulation runs them).
START_TEST(test_es_emulations) {
    static const char oned[] =
        "texture1D T1 { Width = 16; Format = RGBA8; }; sampler1D S1 { Texture = T1; };\n"
        "storage1D W1 { Texture = T1; };\n"
        "void CS(uint3 id : SV_DispatchThreadID) { tex1Dstore(W1, id.x, tex1Dsize(W1)); }\n"
        VS_DECL "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
        "    return tex1D(S1, uv.x) + tex1Dlod(S1, float4(uv.x, 0, 0, 1)) + tex1Dfetch(S1, 3)\n"
        "        + tex1Dsize(S1) + tex1D(S1, uv.x, 1) + tex1Dgrad(S1, uv.x, 0.1, 0.0);\n"
        "}\n"
        "technique C { pass { ComputeShader = CS<8, 1>; DispatchSizeX = 2; DispatchSizeY = 1; }\n"
        "              pass { VertexShader = PostProcessVS; PixelShader = PS; } }\n";
    ck_assert_int_eq(check_effect("1d", oned, FXGL_GLSL_ES320, false), 0);
    glsl_compiled c;
    ck_assert(glsl_compile(&c, oned, FXGL_GLSL_ES320, false, NULL));
    const char *cs = c.effect->shaders[0].glsl;
    const char *ps = c.effect->shaders[2].glsl;
    ck_assert_ptr_nonnull(strstr(cs, "uniform writeonly image2D W1;"));
    ck_assert_ptr_nonnull(strstr(cs, "imageStore(W1, ivec2(int(id.x), 0), "));
    ck_assert_ptr_nonnull(strstr(cs, "imageSize(W1).x"));
    ck_assert_ptr_nonnull(strstr(ps, "uniform sampler2D S1;"));
    ck_assert_ptr_nonnull(strstr(ps, "texture(S1, vec2(uv.x, 0.5))"));
    ck_assert_ptr_nonnull(strstr(ps, "texelFetch(S1, ivec2(3, 0), 0)"));
    ck_assert_ptr_nonnull(strstr(ps, "textureSize(S1, 0).x"));
    ck_assert_ptr_nonnull(strstr(ps, "textureOffset(S1, vec2(uv.x, 0.5), ivec2(1, 0))"));
    glsl_compiled_free(&c);

    static const char rg8[] =
        "texture T { Width = 4; Height = 4; Format = RG8; }; storage St { Texture = T; };\n"
        "texture U { Width = 4; Height = 4; Format = RGBA8; }; storage Su { Texture = U; };\n"
        "void CS(uint3 id : SV_DispatchThreadID) { tex2Dstore(St, int2(id.xy), 1); }\n"
        "void LD(uint3 id : SV_DispatchThreadID) { tex2Dstore(Su, int2(id.xy), tex2Dfetch(St, id.xy)); }\n"
        "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
        "              pass { ComputeShader = LD<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; } }\n";
    // glslang lacks the extension: the stand-in branch is what it checks.
    ck_assert_int_eq(check_effect("rg8", rg8, FXGL_GLSL_ES320, false), 0);
    ck_assert(glsl_compile(&c, rg8, FXGL_GLSL_ES320, false, NULL));
    const char *st = c.effect->shaders[0].glsl, *ld = c.effect->shaders[1].glsl;
    ck_assert_ptr_nonnull(strstr(st, "#extension GL_NV_image_formats : enable\n"));
    ck_assert_ptr_nonnull(strstr(st, "#ifdef _gimage_formats\n"
                                     "layout(binding = 0, rg8) uniform writeonly image2D St;\n"
                                     "#else\n"
                                     "layout(binding = 0, rgba8) uniform writeonly image2D St;\n"));
    ck_assert_ptr_nonnull(strstr(ld, "_gload2(imageLoad(St, ivec2(id.xy)))"));
    glsl_compiled_free(&c);

    // Read and written: a read-only twin on another unit, through a
    // function's storage parameter too.
    static const char rw[] =
        "texture T { Width = 4; Height = 4; Format = RGBA8; }; storage St { Texture = T; };\n"
        "float4 get(storage s) { return tex2Dfetch(s, int2(0, 0)); }\n"
        "void CS(uint3 id : SV_DispatchThreadID) {\n"
        "    tex2Dstore(St, int2(id.xy), get(St) + tex2Dfetch(St, int2(1, 0)));\n"
        "}\n"
        "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; } }\n";
    ck_assert_int_eq(check_effect("rw", rw, FXGL_GLSL_ES320, false), 0);
    ck_assert_int_eq(check_effect("rw", rw, FXGL_GLSL_ES310, false), 0);
    ck_assert(glsl_compile(&c, rw, FXGL_GLSL_ES320, false, NULL));
    const fxgl_shader *rws = &c.effect->shaders[0];
    ck_assert_ptr_nonnull(strstr(rws->glsl,
                                 "layout(binding = 0, rgba8) uniform coherent writeonly image2D St;\n"
                                 "layout(binding = 1, rgba8) uniform coherent readonly image2D _grSt;\n"));
    ck_assert_ptr_nonnull(strstr(rws->glsl, "imageLoad(_grSt, ivec2(0, 0))"));
    ck_assert_ptr_nonnull(strstr(rws->glsl, "imageLoad(_grSt, ivec2(1, 0))"));
    ck_assert_int_eq(rws->storage_count, 2);
    ck_assert_int_eq(rws->storages[1].object, rws->storages[0].object);
    ck_assert_int_eq(rws->storages[1].unit, 1);
    glsl_compiled_free(&c);

    // No faithful stand-in: the shader says which extension it needs.
    static const char rgb10a2[] =
        "texture T { Width = 4; Height = 4; Format = RGB10A2; }; storage St { Texture = T; };\n"
        "void CS(uint3 id : SV_DispatchThreadID) { tex2Dstore(St, int2(id.xy), 1); }\n"
        "technique C { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; DispatchSizeY = 1; } }\n";
    ck_assert(glsl_compile(&c, rgb10a2, FXGL_GLSL_ES320, false, NULL));
    ck_assert_ptr_nonnull(strstr(c.effect->shaders[0].glsl,
                                 "#error storage 'St': format rgb10_a2 needs GL_NV_image_formats\n"));
    glsl_compiled_free(&c);
}
END_TEST

// --- properties of the text the runtime contract fixes ---

static const char *contract_src =
    "texture T { Width = 4; Height = 4; Format = RGBA8; }; sampler S { Texture = T; };\n"
    "sampler S2 { Texture = T; }; uniform float A = 1; uniform float4 B;\n"
    "struct V { float4 p : SV_Position; float2 uv : TEXCOORD0; int id : TEXCOORD1; };\n"
    "V VS(uint id : SV_VertexID) { V o; o.uv = 0; o.p = 0; o.id = id; return o; }\n"
    "float4 PS(V i) : SV_Target { return tex2D(S2, i.uv) + tex2D(S, i.uv) * A + B + i.id; }\n"
    "technique X { pass { VertexShader = VS; PixelShader = PS; } }\n";

START_TEST(test_contract_text) {
    static const fxgl_glsl_target targets[] = {FXGL_GLSL_GL450, FXGL_GLSL_ES300};
    for (int t = 0; t < 2; t++) {
        glsl_compiled c;
        ck_assert(glsl_compile(&c, contract_src, targets[t], false, NULL));
        const fxgl_effect *fx = c.effect;
        const fxgl_shader *vs = &fx->shaders[fx->techniques[0].passes[0].vertex_shader];
        const fxgl_shader *ps = &fx->shaders[fx->techniques[0].passes[0].pixel_shader];
        bool es = targets[t] == FXGL_GLSL_ES300;
        ck_assert(strstr(vs->glsl, es ? "#version 300 es\n" : "#version 450\n") == vs->glsl);
        // The flip is the last statement of the vertex stage.
        const char *flip = strstr(vs->glsl, "gl_Position.y = -gl_Position.y;\n}\n");
        ck_assert_ptr_nonnull(flip);
        ck_assert_str_eq(flip + strlen("gl_Position.y = -gl_Position.y;\n}\n"), "");
        // No vertex attributes, no locations on varyings.
        ck_assert_ptr_null(strstr(vs->glsl, "\nin "));
        ck_assert_ptr_nonnull(strstr(vs->glsl, "out vec4 _v_TEXCOORD0;"));
        ck_assert_ptr_nonnull(strstr(vs->glsl, "flat out ivec4 _v_TEXCOORD1;"));
        ck_assert_ptr_nonnull(strstr(ps->glsl, "flat in ivec4 _v_TEXCOORD1;"));
        ck_assert_ptr_nonnull(strstr(ps->glsl, "layout(location = 0) out vec4 _gtarget0;"));
        // The block and the samplers, with bindings where the target has them.
        ck_assert_ptr_nonnull(strstr(ps->glsl, es ? "layout(std140, column_major) uniform _Globals {"
                                                  : "layout(std140, column_major, binding = 0) "
                                                    "uniform _Globals {"));
        ck_assert_int_eq((int)ps->sampler_count, 2);
        for (size_t i = 0; i < ps->sampler_count; i++) {
            ck_assert_ptr_nonnull(ps->samplers[i].name);
            char decl[128];
            if (es) {
                snprintf(decl, sizeof(decl), "uniform sampler2D %s;", ps->samplers[i].name);
            } else {
                snprintf(decl, sizeof(decl), "layout(binding = %d) uniform sampler2D %s;",
                         ps->samplers[i].unit, ps->samplers[i].name);
            }
            ck_assert_msg(strstr(ps->glsl, decl) != NULL, "missing '%s'", decl);
        }
        // ES: precision, no scalar swizzles.
        if (es) {
            ck_assert_ptr_nonnull(strstr(ps->glsl, "precision highp float;"));
        }
        glsl_compiled_free(&c);
    }
}
END_TEST

// The entry point's out parameters start at zero (the reference's SPIR-V
// zero-fills them): main() passes zeroed locals, the function takes them inout.
START_TEST(test_entry_out_params_zeroed) {
    const char *src = "struct R { float4 c : SV_Target2; int4 n : SV_Target3; };\n" VS_DECL
                      "void PS(float4 pos : SV_Position, out float4 a : SV_Target0, out uint b : SV_Target1,\n"
                      "        out R r, inout float k : TEXCOORD) { a += 1; b += 1; r.c += 1; }\n"
                      TECH("PS");
    glsl_compiled c;
    bool ok = glsl_compile(&c, src, FXGL_GLSL_GL450, false, NULL);
    if (!ok) {
        print_diags(&c.diags);
    }
    ck_assert(ok);
    const fxgl_shader *ps = &c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader];
    ck_assert_ptr_nonnull(strstr(ps->glsl, "inout vec4 a, inout uint b, inout R r, inout float k)"));
    ck_assert_ptr_nonnull(strstr(ps->glsl, "    vec4 _gp1 = vec4(0.0);\n"));
    ck_assert_ptr_nonnull(strstr(ps->glsl, "    uint _gp2 = uint(0u);\n"));
    ck_assert_ptr_nonnull(strstr(ps->glsl, "    R _gp3 = R(vec4(0.0), ivec4(0));\n"));
    ck_assert_ptr_nonnull(strstr(ps->glsl, "    float _gp4;\n")); // inout: read from the input
    glsl_compiled_free(&c);
}
END_TEST

// A non-constant texel offset is lowered to coordinate arithmetic; where
// mip levels make that inexact a warning says so, gathers never warn.
START_TEST(test_offset_lowering_warns) {
    const char *src = "texture T1 { Width = 4; Height = 4; Format = RGBA8; };\n"
                      "texture TM { Width = 4; Height = 4; Format = RGBA8; MipLevels = 2; };\n"
                      "sampler S1 { Texture = T1; }; sampler SM { Texture = TM; }; uniform int2 O;\n"
                      PS_SIMPLE("return tex2D(S1, uv, O) + tex2DgatherR(SM, uv, O) +\n"
                                "    tex2D(SM, uv, int2(1, 0)) + tex2D(SM, uv, O);");
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, FXGL_GLSL_GL450, false, NULL));
    int warnings = 0;
    for (size_t i = 0; i < c.diags.count; i++) {
        const fxgl_diag *d = &c.diags.items[i];
        if (strcmp(d->id, "G_OFFSET") == 0) {
            warnings++;
            ck_assert_int_eq(d->severity, FXGL_DIAG_WARNING);
            ck_assert_int_eq(d->line, 11); // the last tex2D, on SM
            ck_assert_int_eq(d->col, 33);
        }
    }
    ck_assert_int_eq(warnings, 1);
    const fxgl_shader *ps = &c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader];
    ck_assert_ptr_nonnull(strstr(ps->glsl, "texture(S1, (uv + vec2(O) / vec2(textureSize(S1, 0))))"));
    ck_assert_ptr_nonnull(strstr(ps->glsl, "textureOffset(SM, uv, ivec2(1, 0))"));
    glsl_compiled_free(&c);
}
END_TEST

START_TEST(test_scalar_swizzle_es) {
    const char *src = "uniform float F = 1;\n" PS_SIMPLE("float s = F; return s.xxxx + s.xx.xyxy;");
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, FXGL_GLSL_ES300, false, NULL));
    const fxgl_shader *ps = &c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader];
    ck_assert_ptr_nonnull(strstr(ps->glsl, "vec4(s)"));
    ck_assert_ptr_null(strstr(ps->glsl, "s.xxxx"));
    glsl_compiled_free(&c);
}
END_TEST

START_TEST(test_names_escaped) {
    const char *src = "float mix(float a) { return a; } static float gl_x = 1; static float a__b = 2;\n"
                      "static float _c = 3; namespace gl { static float y = 4; }\n"
                      PS_SIMPLE("return mix(gl_x + a__b + _c + gl::y);");
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, FXGL_GLSL_GL450, false, NULL));
    const fxgl_shader *ps = &c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader];
    ck_assert_ptr_null(strstr(ps->glsl, " gl_x"));
    ck_assert_ptr_null(strstr(ps->glsl, "a__b"));
    ck_assert_ptr_null(strstr(ps->glsl, "float mix("));
    ck_assert_ptr_null(strstr(ps->glsl, " gl_y"));
    char log[4096];
    ck_assert_msg(glsl_validate(ps->glsl, FXGL_STAGE_PIXEL, log, sizeof(log)), "%s", log);
    glsl_compiled_free(&c);
}
END_TEST

static int count_of(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) {
        n++;
    }
    return n;
}

// A 200-term sum: its 199 '+' are split into temporaries at heights 64, 128
// and 192 (the declarations "float _gx"), the rest stays in the statement.
// With a side effect in the statement nothing moves (the order of
// evaluation could change).
START_TEST(test_deep_sum_split) {
    char body[4096] = "float t = 0; float s = ";
    char *p = body + strlen(body);
    for (int i = 0; i < 200; i++) {
        p += sprintf(p, "%sF", i ? " + " : "");
    }
    strcpy(p, "; float u = t++ + s");
    for (int i = 0; i < 200; i++) {
        strcat(p, " + F");
    }
    strcat(p, "; return s + u;");
    char src[8192];
    snprintf(src, sizeof(src), "uniform float F = 1;\n" PS_SIMPLE("%s"), body);
    glsl_compiled c;
    ck_assert(glsl_compile(&c, src, FXGL_GLSL_GL450, false, NULL));
    const fxgl_shader *ps = &c.effect->shaders[c.effect->techniques[0].passes[0].pixel_shader];
    ck_assert_int_eq(count_of(ps->glsl, "float _gx"), 3);
    ck_assert_int_eq(count_of(ps->glsl, "(F + F)"), 1); // where the first sum begins
    char log[4096];
    ck_assert_msg(glsl_validate(ps->glsl, FXGL_STAGE_PIXEL, log, sizeof(log)), "%s", log);
    glsl_compiled_free(&c);
}
END_TEST

// --- every overload of every intrinsic, on every target ---
//
// The intrinsic table is walked: for each overload a call with arguments of
// its parameter types (objects declared to match, texture offsets constant),
// in a pixel shader or, for compute-only intrinsics, a compute shader. The
// generated code of each chunk of overloads must pass glslang. Overloads a
// target lacks are left out for it (their diagnostics are tested above).

static bool target_has(fxgl_glsl_target t, const fx_intrinsic *in) {
    if (t == FXGL_GLSL_ES300 &&
        (in->needs & (FX_INTRINSIC_NEED_IMAGE | FX_INTRINSIC_NEED_GATHER | FX_INTRINSIC_NEED_COMPUTE) ||
         strstr(in->glsl, "bitCount") || strstr(in->glsl, "findLSB") ||
         strstr(in->glsl, "findMSB") || strstr(in->glsl, "bitfieldReverse") ||
         strstr(in->glsl, "frexp"))) {
        return false;
    }
    if (t == FXGL_GLSL_ES300) {
        for (int i = 0; i < in->sig.count; i++) {
            if (fx_type_is_storage(in->sig.params[i]) ||
                (in->sig.params[i].quals & FX_Q_GROUPSHARED)) {
                return false;
            }
        }
    }
    if ((t == FXGL_GLSL_ES300 || t == FXGL_GLSL_ES310) &&
        (in->needs & (FX_INTRINSIC_NEED_IMAGE_ATOMIC | FX_INTRINSIC_NEED_GATHER_OFFSETS))) {
        return false;
    }
    return true;
}

static bool compute_only(const fx_intrinsic *in) {
    if (in->needs & FX_INTRINSIC_NEED_COMPUTE) {
        return true;
    }
    for (int i = 0; i < in->sig.count; i++) {
        if (fx_type_is_storage(in->sig.params[i]) || (in->sig.params[i].quals & FX_Q_GROUPSHARED)) {
            return true;
        }
    }
    return false;
}

static const char *format_for(fx_type t) {
    bool one = t.elem_rows <= 1;
    switch (t.elem_base) {
    case FX_TYPE_INT:
        return one ? "R32I" : "RGBA32I";
    case FX_TYPE_UINT:
        return one ? "R32U" : "RGBA32U";
    default:
        return one ? "R32F" : "RGBA32F";
    }
}

// Appends declarations of the object of type t (once) and returns its name.
static const char *object_for(char *decls, size_t size, fx_type t, int *count) {
    static char name[64];
    char tn[FX_TYPE_NAME_SIZE];
    fx_type_name(t, tn, sizeof(tn));
    int dim = fx_type_object_dim(t);
    snprintf(name, sizeof(name), "O%s%d_%c%d", fx_type_is_storage(t) ? "s" : "t", dim,
             "?bmiiuuff"[t.elem_base < 9 ? t.elem_base : 0], t.elem_rows);
    if (!strstr(decls, name)) {
        size_t n = strlen(decls);
        snprintf(decls + n, size - n,
                 "texture%dD T%s { Width = 4; Height = 4; %s Format = %s; };\n"
                 "%s %s { Texture = T%s; };\n",
                 dim, name, dim == 3 ? "Depth = 4;" : "", format_for(t), tn, name, name);
        ++*count;
    }
    return name;
}

// The call text for overload in, appended to body (with its locals).
static void overload_call(const fx_intrinsic *in, char *decls, size_t dsize, char *body,
                          size_t bsize, int k, int *objects) {
    char args[1024] = "";
    size_t bn = strlen(body);
    bn += (size_t)snprintf(body + bn, bsize - bn, "    {\n");
    for (int i = 0; i < in->sig.count; i++) {
        fx_type pt = in->sig.params[i];
        char tn[FX_TYPE_NAME_SIZE];
        fx_type_name(pt, tn, sizeof(tn));
        char arg[128];
        if (fx_type_is_object(pt)) {
            snprintf(arg, sizeof(arg), "%s", object_for(decls, dsize, pt, objects));
        } else if (pt.quals & FX_Q_GROUPSHARED) {
            snprintf(arg, sizeof(arg), "G%d", k);
            size_t n = strlen(decls);
            snprintf(decls + n, dsize - n, "groupshared %s G%d;\n", tn, k);
        } else if (in->const_from && i >= in->const_from) {
            snprintf(arg, sizeof(arg), "(%s)1", tn); // offsets: constant
        } else {
            snprintf(arg, sizeof(arg), "a%d", i);
            bn += (size_t)snprintf(body + bn, bsize - bn, "        %s a%d = (%s)U;\n", tn, i, tn);
        }
        size_t an = strlen(args);
        snprintf(args + an, sizeof(args) - an, "%s%s", i ? ", " : "", arg);
    }
    bool ret = !fx_type_is_void(in->ret);
    char rn[FX_TYPE_NAME_SIZE];
    fx_type_name(in->ret, rn, sizeof(rn));
    if (ret) {
        bn += (size_t)snprintf(body + bn, bsize - bn, "        %s r = %s(%s); Sink += (float)(%s)r;\n",
                               rn, in->name, args,
                               fx_type_components(in->ret) > 1 && !fx_type_is_matrix(in->ret)
                                   ? "float" : "float");
    } else {
        bn += (size_t)snprintf(body + bn, bsize - bn, "        %s(%s);\n", in->name, args);
    }
    snprintf(body + bn, bsize - bn, "    }\n");
}

START_TEST(test_every_overload) {
    fxgl_glsl_target target = all_targets[_i];
    static char decls[1 << 16], ps_body[1 << 17], cs_body[1 << 17], src[1 << 18];
    int effects = 0, calls = 0, failures = 0;
    for (size_t si = 0; si < fx_intrinsic_count(); si++) {
        const fx_intrinsic_set *set = fx_intrinsic_at(si);
        for (size_t start = 0; start < set->count;) {
            decls[0] = ps_body[0] = cs_body[0] = '\0';
            int objects = 0, in_chunk = 0;
            size_t i = start;
            // Chunks stay under the image and texture unit limits.
            for (; i < set->count && objects < 6 && in_chunk < 24; i++) {
                const fx_intrinsic *in = &set->overloads[i];
                if (!target_has(target, in)) {
                    continue;
                }
                bool cs = compute_only(in);
                if (cs && target == FXGL_GLSL_ES300) {
                    continue;
                }
                overload_call(in, decls, sizeof(decls), cs ? cs_body : ps_body,
                              sizeof(ps_body), (int)i, &objects);
                in_chunk++;
            }
            start = i;
            if (!in_chunk) {
                continue;
            }
            snprintf(src, sizeof(src),
                     "uniform float U = 0.5; static float Sink = 0;\n%s" VS_DECL
                     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n%s"
                     "    return Sink; }\n"
                     "void CS(uint3 id : SV_DispatchThreadID) {\n%s}\n"
                     "technique T { pass { VertexShader = PostProcessVS; PixelShader = PS; } %s }\n",
                     decls, ps_body, cs_body,
                     cs_body[0] ? "pass { ComputeShader = CS<4, 4>; DispatchSizeX = 1; "
                                  "DispatchSizeY = 1; }" : "");
            effects++;
            calls += in_chunk;
            const char *dir = getenv("FXGL_GLSL_OVERLOAD_DIR"); // to run them elsewhere
            if (dir) {
                char path[512];
                snprintf(path, sizeof(path), "%s/%s_%s_%d.fx", dir, glsl_target_name(target),
                         set->name, effects);
                FILE *f = fopen(path, "w");
                if (f) {
                    fputs(src, f);
                    fclose(f);
                }
            }
            if (check_effect(set->name, src, target, false)) {
                if (failures++ < 3) {
                    fprintf(stderr, "%s\n", src);
                }
            }
        }
    }
    ck_assert_msg(failures == 0, "%s: %d of %d effects fail", glsl_target_name(target), failures,
                  effects);
    ck_assert_int_gt(calls, 500); // the walk really covered the table
}
END_TEST

int main(int argc, char **argv) {
    if (argc == 3) {
        return dump(argv[1], argv[2]);
    }
    Suite *s = suite_create("glsl");
    TCase *tc = tcase_create("validate");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_effect_validates, 0, (int)(EFFECT_COUNT * TARGET_COUNT));
    suite_add_tcase(s, tc);
    TCase *es = tcase_create("es");
    tcase_set_timeout(es, 60);
    tcase_add_loop_test(es, test_es_diagnostic, 0, (int)ES_COUNT);
    tcase_add_test(es, test_scalar_swizzle_es);
    tcase_add_test(es, test_entry_out_params_zeroed);
    tcase_add_test(es, test_offset_lowering_warns);
    tcase_add_test(es, test_es_emulations);
    suite_add_tcase(s, es);
    TCase *all = tcase_create("overloads");
    tcase_set_timeout(all, 120);
    tcase_add_loop_test(all, test_every_overload, 0, (int)TARGET_COUNT);
    suite_add_tcase(s, all);
    TCase *text = tcase_create("text");
    tcase_add_test(text, test_contract_text);
    tcase_add_test(text, test_names_escaped);
    tcase_add_test(text, test_deep_sum_split);
    suite_add_tcase(s, text);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
