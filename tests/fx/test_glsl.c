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
     "static const float2x2 M = float2x2(1, 2, 3, 4); static const float A[2] = { -0.0, 1e10 };\n" VS_DECL
     "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
     "    float n = 0.0 / 0.0; float3 v = V; float2x2 m = M;\n"
     "    return float4(PosInf + NegInf + Denorm + Small + Big + n, MinInt, MaxU, A[uv.x > 0.5] + v.x + m[1][0]);\n"
     "}\n" TECH("PS"), 0},
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

int main(int argc, char **argv) {
    if (argc == 3) {
        return dump(argv[1], argv[2]);
    }
    Suite *s = suite_create("glsl");
    TCase *tc = tcase_create("validate");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_effect_validates, 0, (int)(EFFECT_COUNT * TARGET_COUNT));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
