/*
 * test_gles_emulation.c - what GLES 3.2 lacks and fxgl emulates, through the
 * compiler and the runtime on a GLES context (llvmpipe in CI): storages of
 * formats GLSL ES cannot store (with GL_NV_image_formats, and without it,
 * where R8/RG8/R16F/RG16F/RG32F live in a wider stand-in format), 1D
 * textures, samplers and storages as 2D textures of height 1, and the one
 * reason given where no faithful stand-in exists. Also, on GL and GLES, a
 * pixel shader input that no vertex shader writes.
 *
 * Each effect writes known values from a compute pass and reads them back
 * through a sampler and through a storage load into the application's
 * RGBA8 framebuffer; the expected bytes are computed here.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_test.h"

#define W 16
#define H 16

typedef struct fix {
    fxgl_test_egl *egl;
    GladGLContext *gl;
    fxgl_runtime *rt;
    fxgl_effect *fx;
    GLuint fbo, color;
    bool es;
    char log[4096];
} fix;

static void on_log(void *user, fxgl_gl_log_level level, const char *message) {
    fix *f = user;
    (void)level;
    size_t n = strlen(f->log);
    snprintf(f->log + n, sizeof(f->log) - n, "%s\n", message);
}

// A GLES 3.2 (or GL 4.5 core) context, a W x H RGBA8 framebuffer cleared to
// zero, and a runtime; no_image_formats: as if the context lacked
// GL_NV_image_formats.
static void fix_init_api(fix *f, bool es, bool no_image_formats) {
    memset(f, 0, sizeof(*f));
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    f->es = es;
    f->egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(f->egl, "%s", reason);
    f->gl = fxgl_test_egl_gl(f->egl);
    GladGLContext *gl = f->gl;
    gl->GenTextures(1, &f->color);
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    gl->GenFramebuffers(1, &f->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->color, 0);
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    gl->ClearColor(0, 0, 0, 0);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    fxgl_runtime_desc rd = {.log = on_log, .log_user = f, .no_image_formats = no_image_formats};
    f->rt = fxgl_runtime_create(gl, fxgl_test_egl_info(f->egl), &rd);
    ck_assert_msg(f->rt, "runtime: %s", f->log);
}

static void fix_init(fix *f, bool no_image_formats) {
    fix_init_api(f, true, no_image_formats);
}

static void fix_finish(fix *f) {
    fxgl_runtime_destroy(f->rt);
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    fxgl_effect_destroy(f->fx);
    fxgl_test_egl_destroy(f->egl);
}

// Compiles src for the context's GLSL (it must compile), adds it and runs a
// frame.
static fxgl_status fix_run(fix *f, const char *src, const char **reason) {
    fxgl_compile_desc cd = {
        .path = "Emulated.fx", .source = src, .source_len = strlen(src),
        .target = f->es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
    };
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    f->fx = fxgl_effect_compile(&cd, &diags);
    if (!f->fx) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    ck_assert_msg(f->fx, "the effect does not compile for %s",
                  f->es ? "GLSL ES 3.20" : "GLSL 4.50");
    ck_assert_int_eq(fxgl_runtime_add_effect(f->rt, f->fx, "Emulated.fx"), 0);
    fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = f->fbo};
    ck_assert(fxgl_runtime_frame(f->rt, &d));
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    return fxgl_runtime_effect_status(f->rt, 0, reason);
}

typedef int (*byte_fn)(int x, int y, int c);

static void expect(fix *f, byte_fn fn, const char *what) {
    const char *reason = NULL;
    fxgl_status s = fxgl_runtime_effect_status(f->rt, 0, &reason);
    ck_assert_msg(s == FXGL_STATUS_READY, "%s: status %d: %s\nlog:\n%s", what, s, reason,
                  f->log);
    fxgl_image out;
    f->gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo);
    ck_assert(fxgl_image_read_gl(&out, f->gl, W, H));
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 4; c++) {
                int want = fn(x, y, c);
                int got = fxgl_image_at(&out, x, y)[c];
                if (abs(want - got) > 1) {
                    fxgl_image_free(&out);
                    ck_abort_msg("%s: pixel (%d,%d) channel %d: got %d, want %d\nlog:\n%s", what,
                                 x, y, c, got, want, f->log);
                }
            }
        }
    }
    fxgl_image_free(&out);
}

#define VS_SRC                                                                                  \
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD) {\n" \
    "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"                               \
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"                 \
    "}\n"

// --- R8 and RG16F storages ---

// The compute pass stores (x * 16 + y + 0.3) / 255 in red, 0.7 in every
// other channel of a float4; an R8 texture keeps red alone, rounded to
// x * 16 + y. A sampler reads (r, 0, 0, 1), and so does a storage load
// (copied by a second compute pass into an RGBA8 texture). Output: red the
// sampled value, green the sum of what must be 0 (g, b, 1 - a, sampled and
// loaded), blue the loaded value, alpha 0.5 plus the rounding error of the
// sampled value in steps of 1/255 (0 when R8's rounding happened).
static const char r8_src[] =
    "texture2D Tex8 { Width = 16; Height = 16; Format = " "R8" "; };\n"
    "sampler2D s8 { Texture = Tex8; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage2D w8 { Texture = Tex8; };\n"
    "texture2D Copy { Width = 16; Height = 16; Format = RGBA8; };\n"
    "sampler2D sCopy { Texture = Copy; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage2D wCopy { Texture = Copy; };\n"
    VS_SRC
    "void Store(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(w8, id.xy, float4((id.x * 16 + id.y + 0.3) / 255.0, 0.7, 0.7, 0.7));\n"
    "}\n"
    "void Load(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(wCopy, id.xy, tex2Dfetch(w8, id.xy));\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
    "    float4 s = tex2D(s8, uv);\n"
    "    float4 l = tex2D(sCopy, uv);\n"
    "    float zero = s.g + s.b + (1.0 - s.a) + l.g + l.b + (1.0 - l.a);\n"
    "    return float4(s.r, zero, l.r, 0.5 + (s.r * 255.0 - round(s.r * 255.0)));\n"
    "}\n"
    "technique T {\n"
    "    pass { ComputeShader = Store<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { ComputeShader = Load<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { VertexShader = VS; PixelShader = PS; }\n"
    "}\n";

static int b_r8(int x, int y, int c) {
    switch (c) {
    case 0:
    case 2: return x * 16 + y;
    case 1: return 0;
    default: return 128; // 0.5 * 255 rounded
    }
}

START_TEST(r8_storage) {
    for (int emulate = 0; emulate < 2; emulate++) {
        fix f;
        fix_init(&f, emulate);
        fix_run(&f, r8_src, NULL);
        expect(&f, b_r8, emulate ? "R8 storage in RGBA8" : "R8 storage");
        fix_finish(&f);
    }
}
END_TEST

// RG16F: the compute pass stores (x + 0.375, -(y + 0.625), 5, 5), exact in
// half floats (drivers may round or truncate otherwise). The pixel shader
// turns the sampled red and the loaded green into bytes: red r - x (0.375
// -> 96), green -(g + y) (0.625 -> 159); blue 1 - b sampled - b loaded (the
// missing blue reads 0 both ways: 255), alpha a sampled * a loaded (1: 255).
static const char rg16f_src[] =
    "texture2D TexH { Width = 16; Height = 16; Format = RG16F; };\n"
    "sampler2D sH { Texture = TexH; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage2D wH { Texture = TexH; };\n"
    "texture2D Copy { Width = 16; Height = 16; Format = RGBA32F; };\n"
    "sampler2D sCopy { Texture = Copy; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage2D wCopy { Texture = Copy; };\n"
    VS_SRC
    "void Store(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(wH, id.xy, float4(id.x + 0.375, -(id.y + 0.625), 5.0, 5.0));\n"
    "}\n"
    "void Load(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(wCopy, id.xy, tex2Dfetch(wH, id.xy));\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
    "    float4 s = tex2D(sH, uv);\n"
    "    float4 l = tex2D(sCopy, uv);\n"
    "    float2 p = floor(pos.xy);\n"
    "    return float4(s.r - p.x, -(l.g + p.y), 1.0 - s.b - l.b, l.a * s.a);\n"
    "}\n"
    "technique T {\n"
    "    pass { ComputeShader = Store<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { ComputeShader = Load<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { VertexShader = VS; PixelShader = PS; }\n"
    "}\n";

static int b_rg16f(int x, int y, int c) {
    (void)x, (void)y;
    static const int want[4] = {96, 159, 255, 255}; // 0.375, 0.625 * 255 rounded
    return want[c];
}

START_TEST(rg16f_storage) {
    for (int emulate = 0; emulate < 2; emulate++) {
        fix f;
        fix_init(&f, emulate);
        fix_run(&f, rg16f_src, NULL);
        expect(&f, b_rg16f, emulate ? "RG16F storage in RGBA16F" : "RG16F storage");
        fix_finish(&f);
    }
}
END_TEST

// --- formats without a faithful stand-in ---

// RGB10A2 with GL_NV_image_formats: stored as is (x * 64 / 1023 rounds to
// the 10-bit step x * 64, alpha 2/3 to the 2-bit step 2/3). Without it: the
// effect is refused with a reason naming the extension.
static const char rgb10a2_src[] =
    "texture2D Tex10 { Width = 16; Height = 16; Format = RGB10A2; };\n"
    "sampler2D s10 { Texture = Tex10; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage2D w10 { Texture = Tex10; };\n"
    VS_SRC
    "void Store(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(w10, id.xy, float4(id.x * 64.0 / 1023.0, id.y * 64.0 / 1023.0, 0.25, 0.7));\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
    "    return tex2D(s10, uv);\n"
    "}\n"
    "technique T {\n"
    "    pass { ComputeShader = Store<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { VertexShader = VS; PixelShader = PS; }\n"
    "}\n";

static int b_rgb10a2(int x, int y, int c) {
    switch (c) {
    case 0: return (int)lround(x * 64.0 / 1023.0 * 255.0);
    case 1: return (int)lround(y * 64.0 / 1023.0 * 255.0);
    case 2: return (int)lround(256.0 / 1023.0 * 255.0); // 0.25 -> 256/1023 (255.75 rounds up)
    default: return 170;                                 // 0.7 -> 2/3
    }
}

START_TEST(rgb10a2_storage) {
    fix f;
    fix_init(&f, false);
    fix_run(&f, rgb10a2_src, NULL);
    expect(&f, b_rgb10a2, "RGB10A2 storage");
    fix_finish(&f);

    fix_init(&f, true);
    const char *reason = NULL;
    ck_assert_int_eq(fix_run(&f, rgb10a2_src, &reason), FXGL_STATUS_FAILED);
    ck_assert_msg(reason && strstr(reason, "RGB10A2") && strstr(reason, "GL_NV_image_formats"),
                  "reason: %s", reason ? reason : "(none)");
    fix_finish(&f);
}
END_TEST

// --- 1D textures ---

// A 16-texel RGBA8 1D texture written through a storage1D (texel x holds
// (x * 16 + 3) / 255, then 0.25, 0.5, 1), read back through a sampler1D at
// the pixel's column (tex1D), with tex1Dfetch and tex1Dlod at the same
// texel, tex1Dsize and a storage load; red: the sample, green: the width
// minus 15 (1 / 255), blue: the fetch minus the lod read plus the load
// (the value again), alpha: the sample's alpha.
static const char oned_src[] =
    "texture1D Ramp { Width = 16; Format = RGBA8; };\n"
    "sampler1D sRamp { Texture = Ramp; MagFilter = POINT; MinFilter = POINT; };\n"
    "storage1D wRamp { Texture = Ramp; };\n"
    "texture2D Copy { Width = 16; Height = 1; Format = RGBA8; };\n"
    "storage2D wCopy { Texture = Copy; };\n"
    "sampler2D sCopy { Texture = Copy; MagFilter = POINT; MinFilter = POINT; };\n"
    VS_SRC
    "void Store(uint3 id : SV_DispatchThreadID) {\n"
    "    tex1Dstore(wRamp, id.x, float4((id.x * 16 + 3) / 255.0, 0.25, 0.5, 1.0));\n"
    "}\n"
    "void Load(uint3 id : SV_DispatchThreadID) {\n"
    "    tex2Dstore(wCopy, int2(id.x, 0), tex1Dfetch(wRamp, id.x));\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
    "    int x = int(pos.x);\n"
    "    float4 s = tex1D(sRamp, uv.x);\n"
    "    float4 d = tex1Dfetch(sRamp, x) - tex1Dlod(sRamp, float4(uv.x, 0, 0, 0));\n"
    "    float4 l = tex2Dfetch(sCopy, int2(x, 0));\n"
    "    return float4(s.r, (tex1Dsize(sRamp) - 15) / 255.0, d.r + l.r, s.a);\n"
    "}\n"
    "technique T {\n"
    "    pass { ComputeShader = Store<16, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
    "    pass { ComputeShader = Load<16, 1>; DispatchSizeX = 1; DispatchSizeY = 1; }\n"
    "    pass { VertexShader = VS; PixelShader = PS; }\n"
    "}\n";

static int b_oned(int x, int y, int c) {
    (void)y;
    switch (c) {
    case 0:
    case 2: return x * 16 + 3;
    case 1: return 1;
    default: return 255;
    }
}

START_TEST(one_d_textures) {
    fix f;
    fix_init(&f, false);
    fix_run(&f, oned_src, NULL);
    expect(&f, b_oned, "1D texture, sampler and storage");
    fix_finish(&f);
}
END_TEST

// --- storages read and written in one shader ---

// GLSL ES reads and writes only R32* images through one variable: RGBA8
// and R8 storages are read and written here by the second compute pass,
// each texel plus 16/255. The first pass wrote (x * 8 + y) / 255, green 0.5
// in RGBA8. Red: RGBA8's new value, blue: R8's, green: RGBA8's green +
// 16/255, alpha: R8's alpha (1).
static const char rw_src[] =
    "texture2D T8 { Width = 16; Height = 16; Format = RGBA8; };\n"
    "storage2D w8 { Texture = T8; };\n"
    "sampler2D s8 { Texture = T8; MagFilter = POINT; MinFilter = POINT; };\n"
    "texture2D TR { Width = 16; Height = 16; Format = R8; };\n"
    "storage2D wR { Texture = TR; };\n"
    "sampler2D sR { Texture = TR; MagFilter = POINT; MinFilter = POINT; };\n"
    VS_SRC
    "void Init(uint3 id : SV_DispatchThreadID) {\n"
    "    float v = (id.x * 8 + id.y) / 255.0;\n"
    "    tex2Dstore(w8, id.xy, float4(v, 0.5, 0, 1));\n"
    "    tex2Dstore(wR, id.xy, v);\n"
    "}\n"
    "void Update(uint3 id : SV_DispatchThreadID) {\n"
    "    float4 a = tex2Dfetch(w8, id.xy), b = tex2Dfetch(wR, id.xy);\n"
    "    tex2Dstore(w8, id.xy, a + 16 / 255.0);\n"
    "    tex2Dstore(wR, id.xy, b + 16 / 255.0);\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target {\n"
    "    float4 a = tex2D(s8, uv), b = tex2D(sR, uv);\n"
    "    return float4(a.r, a.g, b.r, b.a);\n"
    "}\n"
    "technique T {\n"
    "    pass { ComputeShader = Init<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { ComputeShader = Update<8, 8>; DispatchSizeX = 2; DispatchSizeY = 2; }\n"
    "    pass { VertexShader = VS; PixelShader = PS; }\n"
    "}\n";

static int b_rw(int x, int y, int c) {
    switch (c) {
    case 0:
    case 2: return x * 8 + y + 16;
    case 1: return 128 + 16; // 0.5 -> 128
    default: return 255;
    }
}

START_TEST(read_write_storages) {
    for (int emulate = 0; emulate < 2; emulate++) {
        fix f;
        fix_init(&f, emulate);
        fix_run(&f, rw_src, NULL);
        expect(&f, b_rw, emulate ? "read-write storages, R8 in RGBA8" : "read-write storages");
        fix_finish(&f);
    }
}
END_TEST

// --- varyings ---

// A pixel shader input that the pass's vertex shader does not write (a
// TEXCOORD2 beside PostProcessVS's TEXCOORD0): GL refuses to link such a
// pair; fxgl gives it zero, as D3D's unwritten registers read. Blue: the
// input plus 0.25 -> 64; red, green: the texture coordinate.
static const char varying_src[] =
    VS_SRC
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD0, float angle : TEXCOORD2)"
    " : SV_Target {\n"
    "    return float4(uv, angle + 0.25, 1.0);\n"
    "}\n"
    "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n";

static int b_varying(int x, int y, int c) {
    switch (c) {
    case 0: return (int)lround((x + 0.5) / W * 255.0);
    case 1: return (int)lround((y + 0.5) / H * 255.0);
    case 2: return 64;
    default: return 255;
    }
}

START_TEST(unwritten_varying_reads_zero) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init_api(&f, es, false);
        fix_run(&f, varying_src, NULL);
        expect(&f, b_varying, es ? "unwritten varying (GLES)" : "unwritten varying (GL)");
        fix_finish(&f);
    }
}
END_TEST

int main(void) {
    char reason[256];
    fxgl_test_egl_desc desc = {.api = FXGL_API_GLES};
    fxgl_test_egl *probe = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    if (!probe) {
        printf("SKIP: no GLES context: %s\n", reason);
        return 77;
    }
    bool compute = fxgl_test_egl_info(probe)->has_compute;
    fxgl_test_egl_destroy(probe);
    if (!compute) {
        printf("SKIP: the GLES context has no compute shaders\n");
        return 77;
    }
    Suite *s = suite_create("gles_emulation");
    TCase *tc = tcase_create("gles");
    tcase_add_test(tc, r8_storage);
    tcase_add_test(tc, rg16f_storage);
    tcase_add_test(tc, rgb10a2_storage);
    tcase_add_test(tc, one_d_textures);
    tcase_add_test(tc, read_write_storages);
    tcase_add_test(tc, unwritten_varying_reads_zero);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
