/*
 * test_compute.c - pixel passes as compute dispatches (src/gl/compute.c,
 * docs/runtime.md "Compute passes") on GL 4.5 core and GLES 3.2.
 *
 * The decision alone, with injected measurements: a GPU's timer figures
 * (compute faster: compute), a software renderer's (compute slower:
 * fragment), ties and noise (fragment: never slower), warm-up runs dropped,
 * a clock that never answers (fragment), and which clock each renderer gets.
 *
 * Through the runtime: effects compiled by fxgl run over the same input
 * with compute passes off, on and auto; every frame's pixels must be the
 * same bytes in all three, and each pass must run the way its semantics
 * allow: back-buffer passes, a pass into a half-size RGBA16F texture, one
 * into a mipmapped RGBA8 texture (mips rebuilt after it, read with
 * tex2Dlod) as compute; a blending pass, one taking a derivative, one
 * sampling the mipmapped texture with implicit LOD, and the pass the frame
 * draws straight into the program's framebuffer as fragment. One effect's
 * pixels are also checked against values computed here (the exact
 * texcoords of exact.c and SV_Position's centre). The program's image unit
 * 0 and program binding are the same after every frame.
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

// --- the decision ---

// Feeds a trial with the k-th samples of each variant, run by run, as the
// frame loop does (the variant of each run is the trial's pick); returns the
// state once decided or after max runs.
static int feed(gl_cs_trial *t, const double *frag, const double *comp, int max) {
    int i[2] = {0, 0};
    for (int r = 0; r < max && t->state == GL_CS_TRIAL; r++) {
        bool c = gl_cs_trial_pick(t);
        int run = t->runs[c];
        gl_cs_trial_ran(t, c);
        double ms = c ? comp[i[1]++ % 8] : frag[i[0]++ % 8];
        gl_cs_trial_add(t, c, run, ms);
    }
    return t->state;
}

START_TEST(decide_gpu_and_software) {
    // The H200's figures for a 1080p copy (bench/RESULTS.md §9): compute 0.024 ms,
    // fragment 0.150 ms; the first run of each pays for first use.
    static const double h200_frag[8] = {2.5, 0.150, 0.151, 0.149, 0.152, 0.150, 0.150, 0.150};
    static const double h200_comp[8] = {9.0, 0.024, 0.025, 0.024, 0.023, 0.024, 0.024, 0.024};
    gl_cs_trial t = {.state = GL_CS_TRIAL};
    ck_assert_int_eq(feed(&t, h200_frag, h200_comp, 100), GL_CS_COMPUTE);
    ck_assert_int_eq(t.runs[0], GL_CS_WARMUP + GL_CS_SAMPLES);
    ck_assert_int_eq(t.runs[1], GL_CS_WARMUP + GL_CS_SAMPLES);
    // llvmpipe, measured between glFinish calls (bench/RESULTS.md §9b):
    // compute a little slower; a warm-up run that happened to be fast on
    // the compute side must not count.
    static const double sw_frag[8] = {90.0, 26.4, 27.0, 26.1, 28.3, 26.9, 26.5, 26.4};
    static const double sw_comp[8] = {0.1, 33.2, 33.0, 32.1, 34.0, 33.5, 33.1, 33.2};
    t = (gl_cs_trial){.state = GL_CS_TRIAL};
    ck_assert_int_eq(feed(&t, sw_frag, sw_comp, 100), GL_CS_FRAGMENT);
    // Equal within noise: fragment (compute must be clearly faster).
    static const double eq_frag[8] = {1.0, 1.00, 1.02, 0.98, 1.01, 0.99, 1.0, 1.0};
    static const double eq_comp[8] = {1.0, 0.97, 0.95, 1.03, 0.96, 0.94, 1.0, 1.0};
    t = (gl_cs_trial){.state = GL_CS_TRIAL};
    ck_assert_int_eq(feed(&t, eq_frag, eq_comp, 100), GL_CS_FRAGMENT);
    // One outlier among the compute samples does not decide (medians).
    static const double out_comp[8] = {1.0, 0.5, 0.5, 50.0, 0.5, 0.5, 0.5, 0.5};
    t = (gl_cs_trial){.state = GL_CS_TRIAL};
    ck_assert_int_eq(feed(&t, eq_frag, out_comp, 100), GL_CS_COMPUTE);
    // A clock that saw nothing (0 ms) proves nothing.
    static const double zero[8] = {0};
    t = (gl_cs_trial){.state = GL_CS_TRIAL};
    ck_assert_int_eq(feed(&t, eq_frag, zero, 100), GL_CS_FRAGMENT);
}
END_TEST

START_TEST(decide_without_samples) {
    // Runs whose samples never come (queries never available): the trial
    // gives up after GL_CS_MAX_RUNS of each, fragment.
    gl_cs_trial t = {.state = GL_CS_TRIAL};
    int runs = 0;
    while (t.state == GL_CS_TRIAL && runs < 1000) {
        gl_cs_trial_ran(&t, gl_cs_trial_pick(&t));
        runs++;
    }
    ck_assert_int_eq(t.state, GL_CS_FRAGMENT);
    ck_assert_int_eq(runs, 2 * GL_CS_MAX_RUNS);
    // Decided passes ignore further samples.
    gl_cs_trial_add(&t, true, 5, 0.001);
    ck_assert_int_eq(t.state, GL_CS_FRAGMENT);
    double f[3] = {1.0, 1.0, 1.0}, c[3] = {0.5, 0.5, 0.5};
    ck_assert(gl_cs_decide(f, 3, c, 3));
    ck_assert(!gl_cs_decide(c, 3, f, 3));
    ck_assert(!gl_cs_decide(f, 0, c, 3));
}
END_TEST

START_TEST(clock_and_mode) {
    ck_assert_int_eq(gl_cs_clock_for("llvmpipe (LLVM 15.0.6, 256 bits)", true),
                     GL_CS_CLOCK_FINISH);
    ck_assert_int_eq(gl_cs_clock_for("zink (llvmpipe (LLVM 15.0.6, 256 bits))", true),
                     GL_CS_CLOCK_FINISH);
    ck_assert_int_eq(gl_cs_clock_for("softpipe", false), GL_CS_CLOCK_FINISH);
    ck_assert_int_eq(gl_cs_clock_for("NVIDIA H200/PCIe/SSE2", true), GL_CS_CLOCK_TIMER);
    ck_assert_int_eq(gl_cs_clock_for("NVIDIA H200/PCIe/SSE2", false), GL_CS_CLOCK_NONE);
    ck_assert_int_eq(gl_cs_mode_parse(NULL), FXGL_COMPUTE_AUTO);
    ck_assert_int_eq(gl_cs_mode_parse("auto"), FXGL_COMPUTE_AUTO);
    ck_assert_int_eq(gl_cs_mode_parse("0"), FXGL_COMPUTE_OFF);
    ck_assert_int_eq(gl_cs_mode_parse("1"), FXGL_COMPUTE_ON);
    ck_assert_int_eq(gl_cs_mode_parse("bogus"), FXGL_COMPUTE_AUTO);
}
END_TEST

// --- through the runtime ---

#define W 64
#define H 49

static const char common[] = FXGL_TEST_FX_COMMON;

// EXACT: values computed here as well. CHAIN: a back-buffer pass, a
// half-size float target, a mipmapped target, a pass reading its mips.
// FRAGMENT: passes that must stay fragment, after a compute one.
enum { EXACT, CHAIN, FRAGMENT, EFFECTS };

static const char *const effects[EFFECTS] = {
    [EXACT] =
        "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    float2 f = frac(uv * float2(2.0 * BUFFER_WIDTH, 2.0 * BUFFER_HEIGHT));\n"
        "    return float4(f, frac(pos.y * 0.25), frac(pos.x * 0.25));\n"
        "}\n"
        "technique Exact { pass { VertexShader = VS; PixelShader = PS; } }\n",
    [CHAIN] =
        "texture Half { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2;\n"
        "               Format = RGBA16F; };\n"
        "sampler sHalf { Texture = Half; };\n"
        "texture Mip { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8;\n"
        "              MipLevels = 4; };\n"
        "sampler sMip { Texture = Mip; };\n"
        "float4 Tint(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    float4 c = tex2D(BackBuffer, uv + float2(0.37, -0.21) * BUFFER_RCP_WIDTH);\n"
        "    return float4(c.rgb * 0.8 + frac(uv.x * 7.0) * 0.2, 1.0);\n"
        "}\n"
        "float4 Down(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(BackBuffer, uv) * float4(1.5, 1.0, 0.5, 1.0) + pos.x * 0.001;\n"
        "}\n"
        "float4 Up(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return float4(tex2D(sHalf, uv).bgr, 1.0) * 0.9 + float4(uv, 0.0, 0.0) * 0.1;\n"
        "}\n"
        "float4 Mix(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2Dlod(sMip, float4(uv, 0.0, 2.0)) * 0.5 + tex2D(BackBuffer, uv) * 0.5;\n"
        "}\n"
        "technique Chain {\n"
        "    pass { VertexShader = VS; PixelShader = Tint; }\n"
        "    pass { VertexShader = VS; PixelShader = Down; RenderTarget = Half; }\n"
        "    pass { VertexShader = VS; PixelShader = Up; RenderTarget = Mip; }\n"
        "    pass { VertexShader = VS; PixelShader = Mix; }\n"
        "}\n",
    [FRAGMENT] =
        "texture Mip { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8;\n"
        "              MipLevels = 3; };\n"
        "sampler sMip { Texture = Mip; };\n"
        "float4 Copy(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(BackBuffer, uv).gbra;\n"
        "}\n"
        "float4 Blend(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return float4(uv, 0.5, frac(pos.x * 0.125));\n"
        "}\n"
        "float4 Slope(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(BackBuffer, uv) * 0.5 + ddx(uv.x) * BUFFER_WIDTH * 0.25;\n"
        "}\n"
        "float4 Implicit(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return tex2D(sMip, uv * 0.5);\n"
        "}\n"
        "technique Fragment {\n"
        "    pass { VertexShader = VS; PixelShader = Copy; RenderTarget = Mip; }\n"
        "    pass { VertexShader = VS; PixelShader = Blend; BlendEnable = true;\n"
        "           SrcBlend = SRCALPHA; DestBlend = INVSRCALPHA; }\n"
        "    pass { VertexShader = VS; PixelShader = Slope; }\n"
        "    pass { VertexShader = VS; PixelShader = Implicit; }\n"
        "}\n",
};

// How each pass must run with compute passes on (FXGL_PASS_*), without a
// direct pass.
static const int expect_on[EFFECTS][4] = {
    [EXACT] = {FXGL_PASS_AS_COMPUTE},
    [CHAIN] = {FXGL_PASS_AS_COMPUTE, FXGL_PASS_AS_COMPUTE, FXGL_PASS_AS_COMPUTE,
               FXGL_PASS_AS_COMPUTE},
    [FRAGMENT] = {FXGL_PASS_AS_COMPUTE, FXGL_PASS_FRAGMENT_ONLY, FXGL_PASS_FRAGMENT_ONLY,
                  FXGL_PASS_FRAGMENT_ONLY},
};
static const int pass_counts[EFFECTS] = {1, 4, 4};

#define FRAMES 16 // auto: 2 x (GL_CS_WARMUP + GL_CS_SAMPLES) trial frames, then decided

typedef struct run {
    uint8_t *pixels[FRAMES];     // each frame's output, top row first, RGBA8
    int how[4];                  // fxgl_runtime_pass_compute after the last frame
    uint32_t compute_passes[FRAMES];
} run;

static fxgl_test_egl *contexts[2];

// The program's frame: a fixed pattern that changes with the frame number.
static void fill(GladGLContext *gl, int frame) {
    static uint8_t px[W * H * 4];
    uint32_t s = 12345u + (uint32_t)frame * 7919u;
    for (size_t i = 0; i < sizeof(px); i++) {
        s = s * 1103515245u + 12345u;
        px[i] = (uint8_t)(s >> 16);
    }
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

static void render(bool es, int effect, int mode, bool direct, int frames, run *r) {
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
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);

    char src[8192];
    snprintf(src, sizeof(src), "%s%s", common, effects[effect]);
    fxgl_effect *fx = fxgl_test_compile("Compute.fx", src, W, H, es);
    ck_assert_msg(fx, "the test effect does not compile");

    fxgl_runtime_desc rd = {.no_direct_pass = !direct, .compute_passes = mode};
    fxgl_runtime *rt = fxgl_runtime_create(gl, fxgl_test_egl_info(egl), &rd);
    ck_assert(rt);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, fx, "Compute.fx"), 0);
    // The program's own image unit 0 (the compute form stores through unit
    // 0): the frame must leave it as it was.
    GLuint app_image;
    gl->GenTextures(1, &app_image);
    gl->BindTexture(GL_TEXTURE_2D, app_image);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
    gl->BindImageTexture(0, app_image, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    uint8_t *rows = malloc((size_t)W * H * 4);
    ck_assert(rows);
    for (int f = 0; f < frames; f++) {
        gl->BindTexture(GL_TEXTURE_2D, tex);
        fill(gl, f);
        fxgl_frame_desc fd = {.width = W, .height = H, .framebuffer = fbo, .time = f / 60.0};
        ck_assert(fxgl_runtime_frame(rt, &fd));
        const char *why = NULL;
        ck_assert_msg(fxgl_runtime_effect_status(rt, 0, &why) == FXGL_STATUS_READY, "%s",
                      why ? why : "");
        r->compute_passes[f] = fxgl_runtime_stats_get(rt)->compute_passes;
        GLint name = -1, access = -1, program = -1;
        gl->GetIntegeri_v(GL_IMAGE_BINDING_NAME, 0, &name);
        gl->GetIntegeri_v(GL_IMAGE_BINDING_ACCESS, 0, &access);
        gl->GetIntegerv(GL_CURRENT_PROGRAM, &program);
        ck_assert_int_eq(name, (GLint)app_image);
        ck_assert_int_eq(access, GL_READ_ONLY);
        ck_assert_int_eq(program, 0);
        r->pixels[f] = malloc((size_t)W * H * 4);
        ck_assert(r->pixels[f]);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
        gl->ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rows);
        for (int y = 0; y < H; y++) {
            memcpy(r->pixels[f] + (size_t)y * W * 4, rows + (size_t)(H - 1 - y) * W * 4,
                   (size_t)W * 4);
        }
    }
    free(rows);
    gl->BindImageTexture(0, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    gl->DeleteTextures(1, &app_image);
    for (int p = 0; p < pass_counts[effect]; p++) {
        r->how[p] = fxgl_runtime_pass_compute(rt, 0, (size_t)p);
        // Every pass reads a fullscreen texcoord the load proved exact.
        ck_assert_int_eq(fxgl_runtime_pass_exact_varyings(rt, 0, (size_t)p), 2);
    }
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    fxgl_runtime_destroy(rt);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    fxgl_effect_destroy(fx);
}

static void run_free(run *r, int frames) {
    for (int f = 0; f < frames; f++) {
        free(r->pixels[f]);
    }
}

static int differing(const uint8_t *a, const uint8_t *b) {
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        if (memcmp(a + 4 * i, b + 4 * i, 4) != 0) {
            if (n < 3) {
                fprintf(stderr, "  (%d, %d): %d %d %d %d against %d %d %d %d\n", i % W, i / W,
                        a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3], b[4 * i],
                        b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]);
            }
            n++;
        }
    }
    return n;
}

static int expected_compute(int effect) {
    int n = 0;
    for (int p = 0; p < pass_counts[effect]; p++) {
        n += expect_on[effect][p] == FXGL_PASS_AS_COMPUTE;
    }
    return n;
}

static void same_pixels(bool es, int effect) {
    run off, on;
    render(es, effect, FXGL_COMPUTE_OFF, false, 2, &off);
    render(es, effect, FXGL_COMPUTE_ON, false, 2, &on);
    for (int p = 0; p < pass_counts[effect]; p++) {
        ck_assert_int_eq(off.how[p], FXGL_PASS_FRAGMENT_ONLY);
        ck_assert_msg(on.how[p] == expect_on[effect][p], "effect %d pass %d: %d, want %d",
                      effect, p, on.how[p], expect_on[effect][p]);
    }
    int want = expected_compute(effect);
    ck_assert_msg(want > 0, "the effect has no compute pass to compare");
    for (int f = 0; f < 2; f++) {
        ck_assert_int_eq(off.compute_passes[f], 0);
        ck_assert_int_eq(on.compute_passes[f], (uint32_t)want);
        int bad = differing(on.pixels[f], off.pixels[f]);
        printf("%s effect %d frame %d: %d of %d passes as compute, %d pixels differ\n",
               es ? "GLES" : "GL", effect, f, want, pass_counts[effect], bad);
        ck_assert_msg(bad == 0, "%d pixels differ between compute and fragment passes", bad);
    }
    run_free(&off, 2);
    run_free(&on, 2);
}

static uint8_t unorm8(float v) {
    return (uint8_t)lrintf(v * 255.0f);
}

// Fractions one step apart, modulo 1: where texcoord * 2 * size lands on
// an integer in real numbers, the shader's fp32 product may round to it or
// just below it (the compiler may order the two products differently).
static bool near(int got, int want) {
    int d = abs(got - want);
    return d <= 1 || 255 - d <= 1;
}

// EXACT against values computed here: frac(texcoord * 2 * size) with the
// texcoord (x + 0.5) * (1 / size) rounded once each to float, and
// SV_Position's centre.
static void exact_values(bool es, int mode) {
    run on;
    render(es, EXACT, mode, false, 1, &on);
    ck_assert_int_eq(on.compute_passes[0], mode == FXGL_COMPUTE_ON);
    int bad = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float tx = (float)(x + 0.5) * (float)(1.0 / W);
            float ty = (float)(y + 0.5) * (float)(1.0 / H);
            float fx = tx * (float)(2 * W), fy = ty * (float)(2 * H);
            float py = (float)(y + 0.5) * 0.25f, pxf = (float)(x + 0.5) * 0.25f;
            uint8_t want[4] = {unorm8(fx - floorf(fx)), unorm8(fy - floorf(fy)),
                               unorm8(py - floorf(py)), unorm8(pxf - floorf(pxf))};
            const uint8_t *p = on.pixels[0] + ((size_t)y * W + (size_t)x) * 4;
            bool ok = near(p[0], want[0]) && near(p[1], want[1]) && p[2] == want[2] &&
                      p[3] == want[3];
            if (!ok && bad < 3) {
                fprintf(stderr, "  (%d, %d): got %d %d %d %d, want %d %d %d %d\n", x, y, p[0],
                        p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
            }
            bad += !ok;
        }
    }
    ck_assert_msg(bad == 0, "%d pixels differ from the computed values", bad);
    run_free(&on, 1);
}

// The pass drawn straight into the program's framebuffer stays fragment.
static void direct_stays_fragment(bool es) {
    run off, on;
    render(es, EXACT, FXGL_COMPUTE_OFF, true, 1, &off);
    render(es, EXACT, FXGL_COMPUTE_ON, true, 1, &on);
    ck_assert_int_eq(on.compute_passes[0], 0);
    ck_assert_int_eq(differing(on.pixels[0], off.pixels[0]), 0);
    run_free(&off, 1);
    run_free(&on, 1);
}

// Auto: whatever the trial decides on this machine, every frame (trial
// frames included, the two forms alternating) gives fragment's pixels, and
// after the trial every qualifying pass is decided.
static void auto_same_pixels(bool es) {
    run off, aut;
    render(es, CHAIN, FXGL_COMPUTE_OFF, false, FRAMES, &off);
    render(es, CHAIN, FXGL_COMPUTE_AUTO, false, FRAMES, &aut);
    int ran = 0;
    for (int f = 0; f < FRAMES; f++) {
        ran += aut.compute_passes[f] > 0;
        ck_assert_msg(differing(aut.pixels[f], off.pixels[f]) == 0, "frame %d differs", f);
    }
    ck_assert_msg(ran > 0, "the trial ran no compute pass");
    for (int p = 0; p < pass_counts[CHAIN]; p++) {
        ck_assert_msg(aut.how[p] == FXGL_PASS_AS_COMPUTE || aut.how[p] == FXGL_PASS_AS_FRAGMENT,
                      "pass %d still measuring after %d frames", p, FRAMES);
        printf("%s auto: pass %d runs as %s\n", es ? "GLES" : "GL", p,
               aut.how[p] == FXGL_PASS_AS_COMPUTE ? "compute" : "fragment");
    }
    run_free(&off, FRAMES);
    run_free(&aut, FRAMES);
}

START_TEST(gl_pixels) {
    exact_values(false, FXGL_COMPUTE_OFF);
    exact_values(false, FXGL_COMPUTE_ON);
    direct_stays_fragment(false);
    for (int e = 0; e < EFFECTS; e++) {
        same_pixels(false, e);
    }
}
END_TEST

START_TEST(gles_pixels) {
    exact_values(true, FXGL_COMPUTE_OFF);
    exact_values(true, FXGL_COMPUTE_ON);
    direct_stays_fragment(true);
    for (int e = 0; e < EFFECTS; e++) {
        same_pixels(true, e);
    }
}
END_TEST

START_TEST(gl_auto) {
    auto_same_pixels(false);
}
END_TEST

START_TEST(gles_auto) {
    auto_same_pixels(true);
}
END_TEST

int main(void) {
    Suite *s = suite_create("compute");
    TCase *tc = tcase_create("decision");
    tcase_add_test(tc, decide_gpu_and_software);
    tcase_add_test(tc, decide_without_samples);
    tcase_add_test(tc, clock_and_mode);
    suite_add_tcase(s, tc);
    char reason[256];
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                                reason, sizeof(reason));
    if (probe) {
        fxgl_test_egl_destroy(probe);
        tc = tcase_create("runtime");
        tcase_set_timeout(tc, 600);
        tcase_add_test(tc, gl_pixels);
        tcase_add_test(tc, gles_pixels);
        tcase_add_test(tc, gl_auto);
        tcase_add_test(tc, gles_auto);
        suite_add_tcase(s, tc);
    }
    int failed = fxgl_test_run_suite(s);
    if (!failed && !probe) {
        printf("SKIP: the pixel cases need an EGL context: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    return failed ? 1 : 0;
}
