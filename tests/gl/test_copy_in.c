/*
 * test_copy_in.c - the back-buffer copy stored in the source's own layout
 * (src/gl/load.c, native_copy_fits; docs/runtime.md "The copy in").
 *
 * The source is a framebuffer whose colour is stored BGRA (a mutable
 * texture asked for with a BGRA hint, as Mesa stores a window), filled with
 * a pattern. Effects compiled by fxgl invert it (one pass, drawn straight
 * into the source or copied out), invert and swizzle it in two back-buffer
 * passes (the copy, COLOR refreshed from it, the copy out), and read it
 * through an sRGB sampler (which needs the RGBA8 copy's sRGB view). Every
 * frame's pixels are checked against values computed here from the
 * pattern, with FXGL_NATIVE_COPY unset (auto), 0 and 1, and with compute
 * passes forced on. The layout the runtime chose is checked against the
 * rule restated here: an 8-bit single-sampled source on desktop GL whose
 * read format is BGRA (a framebuffer object), no effect needing COLOR as
 * sRGB, and auto only on a software renderer without FXGL_COMPUTE=1 (on
 * llvmpipe the BGRA copy runs in 8 of the 21 runs).
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
#include "gl_runtime.h"

#define W 40
#define H 27
#define FRAMES 3

static const char common[] = FXGL_TEST_FX_COMMON;

enum { INVERT, TWO, SRGB, EFFECTS };

static const char *const effects[EFFECTS] = {
    [INVERT] =
        "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    float4 c = tex2D(BackBuffer, uv);\n"
        "    return float4(1.0 - c.rgb, c.a);\n"
        "}\n"
        "technique Invert { pass { VertexShader = VS; PixelShader = PS; } }\n",
    [TWO] =
        "float4 Inv(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    float4 c = tex2D(BackBuffer, uv);\n"
        "    return float4(1.0 - c.rgb, c.a);\n"
        "}\n"
        "float4 Swz(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(BackBuffer, uv).gbra;\n"
        "}\n"
        "technique Two {\n"
        "    pass { VertexShader = VS; PixelShader = Inv; }\n"
        "    pass { VertexShader = VS; PixelShader = Swz; }\n"
        "}\n",
    [SRGB] =
        "sampler Linear { Texture = BackBufferTex; SRGBTexture = true; };\n"
        "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(Linear, uv);\n"
        "}\n"
        "technique Decode { pass { VertexShader = VS; PixelShader = PS; } }\n",
};

// The pattern, RGBA per pixel, row 0 at the bottom (GL's order).
static uint8_t pattern[H][W][4];

static void make_pattern(void) {
    uint32_t s = 2463534242u;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 4; c++) {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                pattern[y][x][c] = (uint8_t)(s >> 11);
            }
        }
    }
    // Rows that tell top from bottom at a glance in a failure message.
    memcpy(pattern[0][0], (uint8_t[]){250, 10, 10, 255}, 4);
    memcpy(pattern[H - 1][0], (uint8_t[]){10, 10, 250, 255}, 4);
}

static double srgb_to_linear(double c) {
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

// What effect e makes of one RGBA pixel, computed without the runtime.
static void expected(int e, const uint8_t *in, uint8_t *out) {
    uint8_t inv[4] = {(uint8_t)(255 - in[0]), (uint8_t)(255 - in[1]), (uint8_t)(255 - in[2]),
                      in[3]};
    switch (e) {
    case INVERT:
        memcpy(out, inv, 4);
        break;
    case TWO:
        out[0] = inv[1];
        out[1] = inv[2];
        out[2] = inv[0];
        out[3] = inv[3];
        break;
    default:
        for (int c = 0; c < 3; c++) {
            out[c] = (uint8_t)floor(srgb_to_linear(in[c] / 255.0) * 255.0 + 0.5);
        }
        out[3] = in[3];
        break;
    }
}

static fxgl_test_egl *context;

typedef struct config {
    const char *native;          // FXGL_NATIVE_COPY, NULL: unset
    const char *compute;         // FXGL_COMPUTE
    bool direct;
} config;

// Runs effect e over the BGRA-stored source for FRAMES frames and checks
// every frame's pixels and the layout chosen; returns whether it was the
// source's own.
static bool run(int e, const config *c) {
    if (!context) {
        char reason[256];
        context = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL}, reason,
                                       sizeof(reason));
        ck_assert_msg(context, "%s", reason);
    }
    ck_assert(fxgl_test_egl_make_current(context));
    GladGLContext *gl = fxgl_test_egl_gl(context);
    const fxgl_gl_info *info = fxgl_test_egl_info(context);

    // BGRA bytes of the pattern, uploaded as BGRA into a texture asked to
    // keep that layout.
    static uint8_t bgra[H][W][4];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const uint8_t *p = pattern[y][x];
            uint8_t *q = bgra[y][x];
            q[0] = p[2];
            q[1] = p[1];
            q[2] = p[0];
            q[3] = p[3];
        }
    }
    GLuint tex, fbo;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_BGRA, GL_UNSIGNED_BYTE, NULL);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    bool software = strstr(info->renderer, "llvmpipe") || strstr(info->renderer, "softpipe");
    // A framebuffer object's layout is its read format (a window's is not
    // asked); on llvmpipe it must say BGRA, or the BGRA copy never ran here.
    GLint read_format = 0;
    gl->GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &read_format);
    if (strstr(info->renderer, "llvmpipe")) {
        ck_assert_msg(read_format == GL_BGRA, "llvmpipe reads the BGRA source as 0x%x",
                      read_format);
    }

    char src[4096];
    snprintf(src, sizeof(src), "%s%s", common, effects[e]);
    fxgl_effect *fx = fxgl_test_compile("CopyIn.fx", src, W, H, false);
    ck_assert_msg(fx, "the test effect does not compile");
    if (c->native) {
        setenv("FXGL_NATIVE_COPY", c->native, 1);
    } else {
        unsetenv("FXGL_NATIVE_COPY");
    }
    setenv("FXGL_COMPUTE", c->compute ? c->compute : "0", 1);
    fxgl_runtime_desc rd = {.no_direct_pass = !c->direct, .compute_passes = FXGL_COMPUTE_ENV};
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &rd);
    unsetenv("FXGL_NATIVE_COPY");
    unsetenv("FXGL_COMPUTE");
    ck_assert(rt);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, fx, "CopyIn.fx"), 0);

    bool compute_on = c->compute && strcmp(c->compute, "1") == 0;
    bool want = e != SRGB && read_format == GL_BGRA &&
                (c->native ? strcmp(c->native, "1") == 0 : software && !compute_on);
    static uint8_t got[H][W][4];
    for (int f = 0; f < FRAMES; f++) {
        gl->BindTexture(GL_TEXTURE_2D, tex);
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_BGRA, GL_UNSIGNED_BYTE, bgra);
        fxgl_frame_desc fd = {.width = W, .height = H, .framebuffer = fbo, .time = f / 60.0};
        ck_assert(fxgl_runtime_frame(rt, &fd));
        const char *why = NULL;
        ck_assert_msg(fxgl_runtime_effect_status(rt, 0, &why) == FXGL_STATUS_READY, "%s",
                      why ? why : "");
        ck_assert_msg(rt->bb_native == want, "effect %d, FXGL_NATIVE_COPY=%s: layout %s",
                      e, c->native ? c->native : "(unset)",
                      rt->bb_native ? "BGRA" : "RGBA8");
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
        gl->ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, got);
        int bad = 0;
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                uint8_t want_px[4];
                expected(e, pattern[y][x], want_px);
                for (int k = 0; k < 4; k++) {
                    if (abs(got[y][x][k] - want_px[k]) > 1 && bad++ < 3) {
                        fprintf(stderr, "effect %d frame %d (%d, %d): %d %d %d %d, expected "
                                "%d %d %d %d\n", e, f, x, y, got[y][x][0], got[y][x][1],
                                got[y][x][2], got[y][x][3], want_px[0], want_px[1],
                                want_px[2], want_px[3]);
                    }
                }
            }
        }
        ck_assert_msg(bad == 0, "effect %d, frame %d: %d channel(s) differ (%s layout)", e, f,
                      bad, rt->bb_native ? "BGRA" : "RGBA8");
    }
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    fxgl_runtime_destroy(rt);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    fxgl_effect_destroy(fx);
    return want;
}

START_TEST(each_layout_same_pixels) {
    static const config configs[] = {
        {NULL, NULL, true}, {NULL, NULL, false}, {"0", NULL, true},
        {"0", NULL, false}, {"1", NULL, true},   {"1", "1", false},
        {NULL, "1", false},
    };
    int native_runs = 0;
    for (int e = 0; e < EFFECTS; e++) {
        for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
            native_runs += run(e, &configs[i]);
        }
    }
    const fxgl_gl_info *info = fxgl_test_egl_info(context);
    if (strstr(info->renderer, "llvmpipe")) {
        // INVERT and TWO in auto (two), and with 1 (two): eight runs.
        ck_assert_int_eq(native_runs, 8);
    }
}
END_TEST

START_TEST(parse) {
    ck_assert_int_eq(gl_native_copy_parse(NULL), GL_NATIVE_COPY_AUTO);
    ck_assert_int_eq(gl_native_copy_parse("auto"), GL_NATIVE_COPY_AUTO);
    ck_assert_int_eq(gl_native_copy_parse("0"), GL_NATIVE_COPY_OFF);
    ck_assert_int_eq(gl_native_copy_parse("off"), GL_NATIVE_COPY_OFF);
    ck_assert_int_eq(gl_native_copy_parse("1"), GL_NATIVE_COPY_ON);
    ck_assert_int_eq(gl_native_copy_parse("on"), GL_NATIVE_COPY_ON);
    ck_assert_int_eq(gl_native_copy_parse("bogus"), GL_NATIVE_COPY_AUTO);
}
END_TEST

int main(void) {
    make_pattern();
    Suite *s = suite_create("copy_in");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, parse);
    suite_add_tcase(s, tc);
    char reason[256];
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                                reason, sizeof(reason));
    if (probe) {
        fxgl_test_egl_destroy(probe);
        tc = tcase_create("runtime");
        tcase_set_timeout(tc, 600);
        tcase_add_test(tc, each_layout_same_pixels);
        suite_add_tcase(s, tc);
    }
    int failed = fxgl_test_run_suite(s);
    if (!failed && !probe) {
        printf("SKIP: the pixel cases need an EGL context: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    return failed ? 1 : 0;
}
