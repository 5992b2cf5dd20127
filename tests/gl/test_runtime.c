/*
 * test_runtime.c - pixel tests of the effect runtime (src/gl) on GL 4.5 core
 * and GLES 3.2, with hand-built effect modules (tfx.h).
 *
 * The "application" is an FBO of 16x16 RGBA8 filled with a known pattern;
 * each frame copies it in, runs the effects and copies the result back.
 * Every expectation is computed here on the CPU from the pattern and the
 * shader's arithmetic, never read from the runtime.
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "tfx.h"

#define W 16
#define H 16

typedef struct fix {
    fxgl_test_egl *egl;
    GladGLContext *gl;
    bool es;
    fxgl_runtime *rt;
    GLuint fbo, color, depth;
    fxgl_image in;               // what the application drew (top row first)
    double time;
    char log[4096];
} fix;

static void on_log(void *user, fxgl_gl_log_level level, const char *message) {
    fix *f = user;
    (void)level;
    size_t n = strlen(f->log);
    snprintf(f->log + n, sizeof(f->log) - n, "%s\n", message);
}

static uint8_t pattern(int x, int y, int c) {
    switch (c) {
    case 0: return (uint8_t)(x * 16 + 8);
    case 1: return (uint8_t)(y * 16 + 8);
    case 2: return (uint8_t)((x + y) * 7);
    default: return 255;
    }
}

// Uploads img (top row first) into the application's texture (GL: bottom row first).
static void fix_upload(fix *f, const fxgl_image *img) {
    GladGLContext *gl = f->gl;
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    for (int y = 0; y < H; y++) {
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, H - 1 - y, W, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                          img->pixels + (size_t)y * W * 4);
    }
}

static bool fix_no_direct; // the next fix_init's runtime ends every frame with a copy out
// The next fix_init's context joins this one's share group, its runtime this share table
// (both keep the display: the test terminates nothing while the other context lives).
static const fxgl_test_egl *fix_share_with;
static fxgl_gl_share *fix_share;

static bool fix_init(fix *f, bool es, bool depth) {
    memset(f, 0, sizeof(*f));
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL,
                               .share = fix_share_with, .keep_display = fix_share != NULL};
    f->egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(f->egl, "%s", reason);
    f->gl = fxgl_test_egl_gl(f->egl);
    f->es = es;
    GladGLContext *gl = f->gl;
    gl->GenTextures(1, &f->color);
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    gl->GenFramebuffers(1, &f->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->color, 0);
    if (depth) {
        gl->GenTextures(1, &f->depth);
        gl->BindTexture(GL_TEXTURE_2D, f->depth);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, W, H);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
                                 f->depth, 0);
    }
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    ck_assert(fxgl_image_alloc(&f->in, W, H));
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 4; c++) {
                f->in.pixels[((size_t)y * W + (size_t)x) * 4 + (size_t)c] = pattern(x, y, c);
            }
        }
    }
    fix_upload(f, &f->in);
    char data[512];
    snprintf(data, sizeof(data), "%s/gl/data", FXGL_TEST_SRCDIR);
    const char *paths[1] = {data};
    fxgl_runtime_desc rd = {
        .log = on_log, .log_user = f, .texture_search_paths = paths,
        .texture_search_path_count = 1, .no_direct_pass = fix_no_direct, .share = fix_share,
    };
    f->rt = fxgl_runtime_create(gl, fxgl_test_egl_info(f->egl), &rd);
    ck_assert_msg(f->rt, "runtime: %s", f->log);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    return true;
}

static void fix_finish(fix *f) {
    fxgl_runtime_destroy(f->rt);
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    fxgl_image_free(&f->in);
    fxgl_test_egl_destroy(f->egl);
}

static void fix_frame_with(fix *f, fxgl_frame_desc *d) {
    d->width = W;
    d->height = H;
    d->framebuffer = f->fbo;
    d->time = f->time;
    ck_assert(fxgl_runtime_frame(f->rt, d));
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
}

static void fix_frame(fix *f) {
    fxgl_frame_desc d = {0};
    fix_frame_with(f, &d);
}

static void fix_read(fix *f, fxgl_image *out) {
    GladGLContext *gl = f->gl;
    GLint prev = 0;
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &prev);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo);
    ck_assert(fxgl_image_read_gl(out, gl, W, H));
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)prev);
}

static void check_ready(fix *f, int effect) {
    const char *reason = NULL;
    fxgl_status s = fxgl_runtime_effect_status(f->rt, (size_t)effect, &reason);
    ck_assert_msg(s == FXGL_STATUS_READY, "effect %d: status %d: %s\nlog:\n%s", effect, s,
                  reason, f->log);
}

static int to_byte(double v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (int)lround(v * 255.0);
}

typedef double (*pixel_fn)(int x, int y, int c, const fix *f);

// Compares the frame's result with fn(x, y, c) (0..1) within tolerance (bytes).
static void expect(fix *f, pixel_fn fn, int tolerance, const char *what) {
    fxgl_image out;
    fix_read(f, &out);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 4; c++) {
                int want = to_byte(fn(x, y, c, f));
                int got = fxgl_image_at(&out, x, y)[c];
                if (abs(want - got) > tolerance) {
                    fxgl_image_free(&out);
                    ck_abort_msg("%s (%s): pixel (%d,%d) channel %d: got %d, want %d\nlog:\n%s",
                                 what, f->es ? "GLES" : "GL", x, y, c, got, want, f->log);
                }
            }
        }
    }
    fxgl_image_free(&out);
}

static double in_px(const fix *f, int x, int y, int c) {
    return fxgl_image_at(&f->in, x, y)[c] / 255.0;
}

// --- a pixel shader body over COLOR ---

static int ps_color(tfx *t, int sampler, const char *expr) {
    int s = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                       "uniform sampler2D Color;\n"
                       "in vec2 uv;\n"
                       "layout(location = 0) out vec4 o;\n"
                       "void main() { vec4 c = texture(Color, uv); o = %s; }\n",
                       expr);
    tfx_use_sampler(t, s, sampler, "Color");
    return s;
}

static int color_sampler(tfx *t) {
    int tex = tfx_semantic(t, "ReShade::BackBufferTex", "COLOR");
    return tfx_sampler(t, "ReShade::BackBuffer", tex, false, false);
}

// --- tests ---

static double px_identity(int x, int y, int c, const fix *f) {
    return in_px(f, x, y, c);
}

static double px_invert(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : 1.0 - in_px(f, x, y, c);
}

START_TEST(passthrough_and_invert) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Invert.fx", es);
        int smp = color_sampler(&t);
        int ps = ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)");
        int tech = tfx_technique(&t, "Invert");
        tfx_pass(&t, tech, ps);
        ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, tfx_finish(&t), "Invert.fx"), 0);
        // No technique enabled: the frame is left alone, nothing copied.
        fxgl_runtime_set_enabled(f.rt, 0, 0, false);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_identity, 0, "no technique");
        ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->copies, 0);
        fxgl_runtime_set_enabled(f.rt, 0, 0, true);
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_invert, 1, "invert");
        const fxgl_runtime_stats *s = fxgl_runtime_stats_get(f.rt);
        ck_assert_int_eq(s->draw_calls, 1);
        ck_assert_int_eq(s->techniques_run, 1);
        ck_assert_int_eq(s->passes_run, 1);
        // One copy in (into COLOR); the pass draws straight into the frame.
        ck_assert_int_eq(s->copies, 1);
        fix_finish(&f);
    }
}
END_TEST

static double px_invert_half(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : (1.0 - in_px(f, x, y, c)) * 0.5;
}

static double px_row(int x, int y, int c, const fix *f) {
    (void)x;
    (void)f;
    return c == 3 ? 1.0 : c == 0 ? y / 255.0 : 0.0;
}

// The frame's last pass, its only back-buffer pass, draws straight into the
// program's framebuffer (clip origin upper left) instead of into the
// back-buffer copy and a copy out: the same pixels, one copy instead of two.
// A pixel shader that reads gl_FragCoord (its y changes sign upside down)
// keeps the copy out, and so does a chain with two back-buffer passes.
START_TEST(direct_last_pass) {
    for (int es = 0; es < 2; es++) {
        for (int off = 0; off < 2; off++) {
            fix_no_direct = off;
            fix f;
            fix_init(&f, es, false);
            fix_no_direct = false;
            static tfx t;
            tfx_init(&t, "Direct.fx", es);
            int smp = color_sampler(&t);
            int inv = tfx_technique(&t, "Invert");
            tfx_pass(&t, inv, ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)"));
            // Red = the row from the top (D3D's SV_Position.y), as a byte.
            int row = tfx_technique(&t, "Row");
            int rs = tfx_shader(&t, FXGL_STAGE_PIXEL, "RowPS",
                                "layout(location = 0) out vec4 o;\n"
                                "void main() { o = vec4(floor(gl_FragCoord.y) / 255.0, 0.0, "
                                "0.0, 1.0); }\n");
            tfx_pass(&t, row, rs);
            int half = tfx_technique(&t, "Half");
            tfx_pass(&t, half, ps_color(&t, smp, "vec4(c.rgb * 0.5, 1.0)"));
            ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, tfx_finish(&t), "Direct.fx"), 0);
            fxgl_runtime_set_enabled(f.rt, 0, 1, false);
            fxgl_runtime_set_enabled(f.rt, 0, 2, false);
            fix_frame(&f);
            check_ready(&f, 0);
            expect(&f, px_invert, 1, off ? "invert, copy out" : "invert, direct");
            ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->copies, off ? 2 : 1);
            fxgl_runtime_set_enabled(f.rt, 0, 0, false);
            fxgl_runtime_set_enabled(f.rt, 0, 1, true);
            fix_upload(&f, &f.in);
            fix_frame(&f);
            expect(&f, px_row, 1, "gl_FragCoord: never direct");
            ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->copies, 2);
            // Invert then Half: two back-buffer passes, Half not direct (the
            // copy holds Invert's pixels, the program's framebuffer does not).
            fxgl_runtime_set_enabled(f.rt, 0, 1, false);
            fxgl_runtime_set_enabled(f.rt, 0, 0, true);
            fxgl_runtime_set_enabled(f.rt, 0, 2, true);
            fix_upload(&f, &f.in);
            fix_frame(&f);
            expect(&f, px_invert_half, 1, "invert then half");
            ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->copies, 3); // in, COLOR, out
            fix_finish(&f);
        }
    }
}
END_TEST

// Order: technique A (c * 0.5) and B (c + 0.25) in both orders; passes by index.
static double px_half_then_add(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : in_px(f, x, y, c) * 0.5 + 0.25;
}

static double px_add_then_half(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : fmin(in_px(f, x, y, c) + 0.25, 1.0) * 0.5;
}

START_TEST(technique_and_pass_order) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx a, b;
        tfx_init(&a, "A.fx", es);
        int sa = color_sampler(&a);
        int ta = tfx_technique(&a, "Half");
        tfx_pass(&a, ta, ps_color(&a, sa, "vec4(c.rgb * 0.5, 1.0)"));
        tfx_init(&b, "B.fx", es);
        int sb = color_sampler(&b);
        int tb = tfx_technique(&b, "Add");
        tfx_pass(&b, tb, ps_color(&b, sb, "vec4(c.rgb + 0.25, 1.0)"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&a), "A.fx");
        fxgl_runtime_add_effect(f.rt, tfx_finish(&b), "B.fx");
        fix_frame(&f);
        expect(&f, px_half_then_add, 1, "A then B");
        fxgl_technique_ref order[2] = {{1, 0}, {0, 0}};
        ck_assert(fxgl_runtime_set_order(f.rt, order, 2));
        fxgl_technique_info info;
        ck_assert(fxgl_runtime_technique(f.rt, 0, &info));
        ck_assert_str_eq(info.name, "Add");
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_add_then_half, 1, "B then A");
        fix_finish(&f);

        // The same two operations as passes of one technique run by index.
        fix_init(&f, es, false);
        static tfx p;
        tfx_init(&p, "P.fx", es);
        int sp = color_sampler(&p);
        int tp = tfx_technique(&p, "Both");
        tfx_pass(&p, tp, ps_color(&p, sp, "vec4(c.rgb + 0.25, 1.0)"));
        tfx_pass(&p, tp, ps_color(&p, sp, "vec4(c.rgb * 0.5, 1.0)"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&p), NULL);
        fix_frame(&f);
        expect(&f, px_add_then_half, 1, "passes by index");
        fix_finish(&f);
    }
}
END_TEST

// COLOR refresh: two back-buffer passes adding 0.125 each give +0.25; a pass
// writing a render target in between does not lose the refresh.
static double px_plus_quarter(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : fmin(in_px(f, x, y, c) + 0.25, 1.0);
}

START_TEST(color_refresh_rule) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Refresh.fx", es);
        int smp = color_sampler(&t);
        int rt = tfx_texture(&t, "Refresh::Tmp", W, H, 1, FXGL_FORMAT_RGBA8);
        int rs = tfx_sampler(&t, "Refresh::TmpS", rt, false, false);
        int tech = tfx_technique(&t, "Refresh");
        int add = ps_color(&t, smp, "vec4(c.rgb + 0.125, 1.0)");
        tfx_pass(&t, tech, add);
        // RT = COLOR (must already include the first pass)
        fxgl_pass *p = tfx_pass(&t, tech, ps_color(&t, smp, "c"));
        tfx_target(&t, p, rt);
        // back buffer = RT + 0.125
        int s = tfx_shader(&t, FXGL_STAGE_PIXEL, "PS2",
                           "uniform sampler2D Tmp;\nin vec2 uv;\n"
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(texture(Tmp, uv).rgb + 0.125, 1.0); }\n");
        tfx_use_sampler(&t, s, rs, "Tmp");
        tfx_pass(&t, tech, s);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_plus_quarter, 1, "COLOR refreshed after a back-buffer pass");
        fix_finish(&f);
    }
}
END_TEST

// Render targets persist across frames; additive blending into one.
static int frames_for_persist;
static double px_accumulated(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    return c == 3 ? 1.0 : 0.125 * frames_for_persist;
}

START_TEST(persistence_and_blending) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Accum.fx", es);
        int acc = tfx_texture(&t, "Accum::Acc", W, H, 1, FXGL_FORMAT_RGBA8);
        int as = tfx_sampler(&t, "Accum::AccS", acc, false, false);
        int tech = tfx_technique(&t, "Accum");
        int k = tfx_shader(&t, FXGL_STAGE_PIXEL, "Const",
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(0.125); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, k);
        tfx_target(&t, p, acc);
        p->blend[0].enable = true;
        p->blend[0].src = p->blend[0].dst = FXGL_BLEND_ONE;
        p->blend[0].src_alpha = p->blend[0].dst_alpha = FXGL_BLEND_ONE;
        int s = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                           "uniform sampler2D Acc;\nin vec2 uv;\n"
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(texture(Acc, uv).rgb, 1.0); }\n");
        tfx_use_sampler(&t, s, as, "Acc");
        tfx_pass(&t, tech, s);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        for (frames_for_persist = 1; frames_for_persist <= 3; frames_for_persist++) {
            fix_frame(&f);
            check_ready(&f, 0);
            expect(&f, px_accumulated, 1, "accumulated across frames");
        }
        fix_finish(&f);
    }
}
END_TEST

// Alpha blending over the back buffer: white at alpha 0.25 over the input.
static double px_over(int x, int y, int c, const fix *f) {
    if (c == 3) {
        return 0.25 * 0.25 + 1.0 * 0.75; // alpha blends with the same factors
    }
    return 0.25 + in_px(f, x, y, c) * 0.75;
}

// MIN blend op against the input: min(c, 0.5).
static double px_min(int x, int y, int c, const fix *f) {
    return fmin(in_px(f, x, y, c), 0.5);
}

START_TEST(blend_states) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Blend.fx", es);
        int tech = tfx_technique(&t, "Over");
        int k = tfx_shader(&t, FXGL_STAGE_PIXEL, "White",
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(1.0, 1.0, 1.0, 0.25); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, k);
        p->blend[0].enable = true;
        p->blend[0].src = p->blend[0].src_alpha = FXGL_BLEND_SRCALPHA;
        p->blend[0].dst = p->blend[0].dst_alpha = FXGL_BLEND_INVSRCALPHA;
        int tech2 = tfx_technique(&t, "Min");
        int h = tfx_shader(&t, FXGL_STAGE_PIXEL, "Half",
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(0.5); }\n");
        fxgl_pass *q = tfx_pass(&t, tech2, h);
        q->blend[0].enable = true;
        q->blend[0].op = q->blend[0].op_alpha = FXGL_BLEND_OP_MIN;
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fxgl_runtime_set_enabled(f.rt, 0, 1, false);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_over, 1, "SRCALPHA/INVSRCALPHA");
        fxgl_runtime_set_enabled(f.rt, 0, 0, false);
        fxgl_runtime_set_enabled(f.rt, 0, 1, true);
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_min, 1, "MIN");
        fix_finish(&f);
    }
}
END_TEST

// MRT: one pass writes 0.25 to target 0 and 0.75 to target 1 with write
// masks (R only, G only); a second pass shows (t0.r, t1.g, t0.g, 1).
static double px_mrt(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    static const double want[4] = {0.25, 0.75, 0.0, 1.0};
    return want[c];
}

START_TEST(mrt_and_write_masks) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Mrt.fx", es);
        int t0 = tfx_texture(&t, "Mrt::T0", 8, 8, 1, FXGL_FORMAT_RGBA8);
        int t1 = tfx_texture(&t, "Mrt::T1", 8, 8, 1, FXGL_FORMAT_RG16F);
        int s0 = tfx_sampler(&t, "Mrt::S0", t0, false, false);
        int s1 = tfx_sampler(&t, "Mrt::S1", t1, false, false);
        int tech = tfx_technique(&t, "Mrt");
        int w = tfx_shader(&t, FXGL_STAGE_PIXEL, "Write",
                           "layout(location = 0) out vec4 o0;\n"
                           "layout(location = 1) out vec4 o1;\n"
                           "void main() { o0 = vec4(0.25); o1 = vec4(0.75); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, w);
        tfx_target(&t, p, t0);
        tfx_target(&t, p, t1);
        p->blend[0].write_mask = 0x1; // red only: green stays 0
        p->blend[1].write_mask = 0x2; // green only
        int r = tfx_shader(&t, FXGL_STAGE_PIXEL, "Read",
                           "uniform sampler2D S0;\nuniform sampler2D S1;\nin vec2 uv;\n"
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(texture(S0, uv).r, texture(S1, uv).g, "
                           "texture(S0, uv).g, 1.0); }\n");
        tfx_use_sampler(&t, r, s0, "S0");
        tfx_use_sampler(&t, r, s1, "S1");
        tfx_pass(&t, tech, r);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_mrt, 1, "MRT");
        fix_finish(&f);
    }
}
END_TEST

// Stencil: pass 1 writes ref 1 where x < W/2 (discard elsewhere), pass 2
// paints red where the stencil equals 1. A second technique checks that the
// stencil starts at zero again in each technique.
static double px_stencil(int x, int y, int c, const fix *f) {
    if (x < W / 2) {
        static const double red[4] = {1, 0, 0, 1};
        return red[c];
    }
    return in_px(f, x, y, c);
}

START_TEST(stencil) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Stencil.fx", es);
        int smp = color_sampler(&t);
        int tech = tfx_technique(&t, "Stencil");
        int mark = tfx_shader(&t, FXGL_STAGE_PIXEL, "Mark",
                              "uniform sampler2D Color;\nin vec2 uv;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { if (gl_FragCoord.x >= %d.0) discard; "
                              "o = texture(Color, uv); }\n",
                              W / 2);
        tfx_use_sampler(&t, mark, smp, "Color");
        fxgl_pass *p = tfx_pass(&t, tech, mark);
        p->stencil_enable = true;
        p->stencil_ref = 1;
        p->stencil_pass = FXGL_STENCIL_REPLACE;
        int red = tfx_shader(&t, FXGL_STAGE_PIXEL, "Red",
                             "layout(location = 0) out vec4 o;\n"
                             "void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n");
        fxgl_pass *q = tfx_pass(&t, tech, red);
        q->stencil_enable = true;
        q->stencil_ref = 1;
        q->stencil_func = FXGL_COMPARE_EQUAL;
        // A second technique whose only stencil pass tests EQUAL 1: the
        // stencil is cleared at its start, so it paints nothing.
        int tech2 = tfx_technique(&t, "Nothing");
        fxgl_pass *r = tfx_pass(&t, tech2, red);
        r->stencil_enable = true;
        r->stencil_ref = 1;
        r->stencil_func = FXGL_COMPARE_EQUAL;
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_stencil, 1, "stencil");
        fix_finish(&f);
    }
}
END_TEST

// ClearRenderTargets clears to zero even with a zero write mask; without it
// a target keeps its contents.
static double px_cleared(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    return c == 3 ? 1.0 : c == 1 ? 0.5 : 0.0;
}

START_TEST(clears) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Clear.fx", es);
        int a = tfx_texture(&t, "Clear::A", W, H, 1, FXGL_FORMAT_RGBA8);
        int b = tfx_texture(&t, "Clear::B", W, H, 1, FXGL_FORMAT_RGBA8);
        int sa = tfx_sampler(&t, "Clear::SA", a, false, false);
        int sb = tfx_sampler(&t, "Clear::SB", b, false, false);
        int tech = tfx_technique(&t, "Clear");
        int half = tfx_shader(&t, FXGL_STAGE_PIXEL, "Half",
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { o = vec4(0.5); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, half);
        tfx_target(&t, p, a);
        p = tfx_pass(&t, tech, half);
        tfx_target(&t, p, b);
        p = tfx_pass(&t, tech, half); // clears A, writes nothing
        tfx_target(&t, p, a);
        p->clear_render_targets = true;
        p->blend[0].write_mask = 0;
        int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D SA;\nuniform sampler2D SB;\nin vec2 uv;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { o = vec4(texture(SA, uv).r, texture(SB, uv).g, "
                              "0.0, 1.0); }\n");
        tfx_use_sampler(&t, show, sa, "SA");
        tfx_use_sampler(&t, show, sb, "SB");
        tfx_pass(&t, tech, show);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_cleared, 1, "clears");
        fix_finish(&f);
    }
}
END_TEST

// Mipmaps: a 16x16 target filled with a texel pattern; level 2 texels must
// be the 2x2-of-2x2 box average, computed here from the same pattern.
static double level0(int x, int y) {
    return ((x * 3 + y * 5) % 16) / 16.0;
}

static double px_mip(int x, int y, int c, const fix *f) {
    (void)f;
    if (c == 3) {
        return 1.0;
    }
    int l = c == 0 ? 1 : 2;
    int size = W >> l;
    if (x >= size || y >= size) {
        return 0.0;
    }
    int n = 1 << l;
    double sum = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            sum += level0(x * n + i, y * n + j);
        }
    }
    return c == 2 ? 0.0 : sum / (n * n);
}

START_TEST(mip_generation) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Mip.fx", es);
        int m = tfx_texture(&t, "Mip::M", W, H, 5, FXGL_FORMAT_RGBA16F);
        int ms = tfx_sampler(&t, "Mip::MS", m, false, false);
        int tech = tfx_technique(&t, "Mip");
        int fill = tfx_shader(&t, FXGL_STAGE_PIXEL, "Fill",
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                              "  o = vec4(float((p.x * 3 + p.y * 5) %% 16) / 16.0); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, fill);
        tfx_target(&t, p, m);
        int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D MS;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                              "  float a = p.x < 8 && p.y < 8 ? texelFetch(MS, p, 1).r : 0.0;\n"
                              "  float b = p.x < 4 && p.y < 4 ? texelFetch(MS, p, 2).r : 0.0;\n"
                              "  o = vec4(a, b, 0.0, 1.0); }\n");
        tfx_use_sampler(&t, show, ms, "MS");
        tfx_pass(&t, tech, show);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_mip, 1, "box-filtered mips");
        ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->mip_generations, 1);
        fix_finish(&f);
    }
}
END_TEST

// Compute: pass 1 stores (x/16, y/16, 0.5, 1) into a storage; pass 2 (a
// second compute pass) doubles the red of texel (x, y) in place; a pixel
// pass shows the texture. Needs the image-access and texture-fetch barriers.
static double px_compute(int x, int y, int c, const fix *f) {
    (void)f;
    double v[4] = {fmin(2.0 * x / 16.0, 1.0), y / 16.0, 0.5, 1.0};
    return v[c];
}

START_TEST(compute_with_storages) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Compute.fx", es);
        int img = tfx_texture(&t, "Compute::A", W, H, 1, FXGL_FORMAT_RGBA8);
        int img2 = tfx_texture(&t, "Compute::B", W, H, 1, FXGL_FORMAT_RGBA8);
        int st = tfx_storage(&t, "Compute::StoreA", img, 0);
        int st2 = tfx_storage(&t, "Compute::StoreB", img2, 0);
        int smp = tfx_sampler(&t, "Compute::S", img2, false, false);
        int tech = tfx_technique(&t, "Compute");
        int cs = tfx_shader(&t, FXGL_STAGE_COMPUTE, "CS",
                            "layout(local_size_x = 8, local_size_y = 8) in;\n"
                            "layout(binding = 0, rgba8) writeonly uniform highp image2D A;\n"
                            "void main() { ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
                            "  imageStore(A, p, vec4(vec2(p) / 16.0, 0.5, 1.0)); }\n");
        tfx_use_storage(&t, cs, st, 0, "A");
        tfx_compute(&t, tech, cs, W / 8, H / 8);
        // GLSL ES allows no read-write rgba8 image: read A, write B.
        int cs2 = tfx_shader(&t, FXGL_STAGE_COMPUTE, "CS2",
                             "layout(local_size_x = 8, local_size_y = 8) in;\n"
                             "layout(binding = 1, rgba8) readonly uniform highp image2D A;\n"
                             "layout(binding = 2, rgba8) writeonly uniform highp image2D B;\n"
                             "void main() { ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
                             "  vec4 v = imageLoad(A, p); v.r *= 2.0;\n"
                             "  imageStore(B, p, v); }\n");
        tfx_use_storage(&t, cs2, st, 1, "A");
        tfx_use_storage(&t, cs2, st2, 2, "B");
        tfx_compute(&t, tech, cs2, W / 8, H / 8);
        int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D S;\nin vec2 uv;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { o = texture(S, uv); }\n");
        tfx_use_sampler(&t, show, smp, "S");
        tfx_pass(&t, tech, show);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_compute, 1, "compute");
        const fxgl_runtime_stats *s = fxgl_runtime_stats_get(f.rt);
        ck_assert_int_eq(s->dispatches, 2);
        ck_assert_int_eq(s->barriers, 2); // image access, then texture fetch
        fix_finish(&f);
    }
}
END_TEST

// sRGB: a back-buffer pass with SRGBWriteEnable writes linear 0.5 (stored
// as the sRGB encoding, 188); a second technique reads COLOR through an
// sRGB sampler and writes it to the UNORM view: 0.5 again (128).
static double srgb_encode(double v) {
    return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
}

static double px_srgb_write(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    return c == 3 ? 1.0 : srgb_encode(0.5);
}

static double px_srgb_read(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    // 188 decoded is 0.5029 linear.
    double stored = round(srgb_encode(0.5) * 255.0) / 255.0;
    double linear = stored <= 0.04045 ? stored / 12.92 : pow((stored + 0.055) / 1.055, 2.4);
    return c == 3 ? 1.0 : linear;
}

START_TEST(srgb_views) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Srgb.fx", es);
        int color = tfx_semantic(&t, "ReShade::BackBufferTex", "COLOR");
        int lin = tfx_sampler(&t, "Srgb::Linear", color, false, true);
        int tech = tfx_technique(&t, "Write");
        int half = tfx_shader(&t, FXGL_STAGE_PIXEL, "Half",
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { o = vec4(0.5, 0.5, 0.5, 1.0); }\n");
        fxgl_pass *p = tfx_pass(&t, tech, half);
        p->srgb_write = true;
        int tech2 = tfx_technique(&t, "Read");
        tfx_pass(&t, tech2, ps_color(&t, lin, "c"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fxgl_runtime_set_enabled(f.rt, 0, 1, false);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_srgb_write, 1, "sRGB write");
        fxgl_runtime_set_enabled(f.rt, 0, 1, true);
        fix_frame(&f);
        expect(&f, px_srgb_read, 1, "sRGB write then sRGB read");
        fix_finish(&f);
    }
}
END_TEST

// Semantics: DEPTH from the application's depth buffer (flipped like
// colour), an unknown semantic reads zero, a registered one its texture.
static double px_semantics(int x, int y, int c, const fix *f) {
    (void)x, (void)f;
    // The application's depth: 0.25 in GL rows 0..7 (bottom), 0.75 above;
    // top-down that is 0.75 for y < 8.
    double depth = y < H / 2 ? 0.75 : 0.25;
    double v[4] = {depth, 0.0, 0.5, 1.0};
    return v[c];
}

START_TEST(semantics) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, true);
        GladGLContext *gl = f.gl;
        // Depth: clear halves through scissored clears on the app's FBO.
        gl->BindFramebuffer(GL_FRAMEBUFFER, f.fbo);
        gl->Enable(GL_SCISSOR_TEST);
        gl->Scissor(0, 0, W, H / 2);
        gl->ClearDepthf(0.25f);
        gl->Clear(GL_DEPTH_BUFFER_BIT);
        gl->Scissor(0, H / 2, W, H / 2);
        gl->ClearDepthf(0.75f);
        gl->Clear(GL_DEPTH_BUFFER_BIT);
        gl->Disable(GL_SCISSOR_TEST);
        // A registered semantic: 1x1 texture of 0.5.
        GLuint reg = 0;
        gl->GenTextures(1, &reg);
        gl->BindTexture(GL_TEXTURE_2D, reg);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 1, 1);
        uint8_t half[4] = {128, 128, 128, 128};
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, half);
        ck_assert(fxgl_runtime_set_semantic(f.rt, "MYSEM", reg));
        static tfx t;
        tfx_init(&t, "Sem.fx", es);
        int d = tfx_sampler(&t, "Sem::D", tfx_semantic(&t, "ReShade::DepthBufferTex", "DEPTH"),
                            false, false);
        int u = tfx_sampler(&t, "Sem::U", tfx_semantic(&t, "Sem::Unknown", "NOSUCHTHING"),
                            false, false);
        int r = tfx_sampler(&t, "Sem::R", tfx_semantic(&t, "Sem::Mine", "MYSEM"), false, false);
        fxgl_uniform *ready = tfx_uniform(&t, "Sem::ready", FXGL_SCALAR_BOOL, 1,
                                          FXGL_SPECIAL_BUFREADY_DEPTH);
        (void)ready;
        int tech = tfx_technique(&t, "Sem");
        int s = tfx_shader(&t, FXGL_STAGE_PIXEL, "PS",
                           "layout(std140) uniform _Globals { bool ready; };\n"
                           "uniform sampler2D D;\nuniform sampler2D U;\nuniform sampler2D R;\n"
                           "in vec2 uv;\nlayout(location = 0) out vec4 o;\n"
                           "void main() { o = vec4(texture(D, uv).r, texture(U, uv).r, "
                           "texture(R, uv).r * (ready ? 1.0 : 0.0) + texture(U, uv).g, 1.0); }\n");
        tfx_use_sampler(&t, s, d, "D");
        tfx_use_sampler(&t, s, u, "U");
        tfx_use_sampler(&t, s, r, "R");
        tfx_pass(&t, tech, s);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_semantics, 1, "DEPTH, unknown and registered semantics");
        fix_finish(&f);
    }
}
END_TEST

// Special uniforms: each pixel column x shows one value, as bytes.
static const int test_date[4] = {2026, 12, 2, 3723};

typedef struct special_expect {
    int frame;
    double bytes[16][4];         // want, as 0..255
} special_expect;

static special_expect sx;


START_TEST(special_uniforms) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, true);
        static tfx t;
        tfx_init(&t, "Special.fx", es);
        // One technique that binds DEPTH, so bufready_depth is true.
        int d = tfx_sampler(&t, "Sp::D", tfx_semantic(&t, "Sp::DT", "DEPTH"), false, false);
        tfx_uniform(&t, "frametime", FXGL_SCALAR_FLOAT, 1, FXGL_SPECIAL_FRAMETIME);
        tfx_uniform(&t, "framecount", FXGL_SCALAR_UINT, 1, FXGL_SPECIAL_FRAMECOUNT);
        fxgl_uniform *rnd = tfx_uniform(&t, "random", FXGL_SCALAR_INT, 1, FXGL_SPECIAL_RANDOM);
        double five = 5, seven = 7;
        tfx_annotate(&t, rnd, "min", FXGL_SCALAR_INT, 1, &five, NULL);
        tfx_annotate(&t, rnd, "max", FXGL_SCALAR_INT, 1, &seven, NULL);
        fxgl_uniform *pp = tfx_uniform(&t, "pingpong", FXGL_SCALAR_FLOAT, 2,
                                       FXGL_SPECIAL_PINGPONG);
        double two = 2.0;
        tfx_annotate(&t, pp, "step", FXGL_SCALAR_FLOAT, 1, &two, NULL);
        tfx_uniform(&t, "date", FXGL_SCALAR_INT, 4, FXGL_SPECIAL_DATE);
        tfx_uniform(&t, "timer", FXGL_SCALAR_UINT, 1, FXGL_SPECIAL_TIMER);
        fxgl_uniform *key = tfx_uniform(&t, "key", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_KEY);
        double vk_a = 0x41;
        tfx_annotate(&t, key, "keycode", FXGL_SCALAR_INT, 1, &vk_a, NULL);
        fxgl_uniform *tog = tfx_uniform(&t, "toggle", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_KEY);
        tfx_annotate(&t, tog, "keycode", FXGL_SCALAR_INT, 1, &vk_a, NULL);
        tfx_annotate(&t, tog, "mode", FXGL_SCALAR_STRING, 0, NULL, "toggle");
        tfx_uniform(&t, "mousepoint", FXGL_SCALAR_FLOAT, 2, FXGL_SPECIAL_MOUSEPOINT);
        tfx_uniform(&t, "mousedelta", FXGL_SCALAR_FLOAT, 2, FXGL_SPECIAL_MOUSEDELTA);
        fxgl_uniform *btn = tfx_uniform(&t, "button", FXGL_SCALAR_BOOL, 1,
                                        FXGL_SPECIAL_MOUSEBUTTON);
        double one = 1;
        tfx_annotate(&t, btn, "keycode", FXGL_SCALAR_INT, 1, &one, NULL);
        fxgl_uniform *wheel = tfx_uniform(&t, "wheel", FXGL_SCALAR_FLOAT, 2,
                                          FXGL_SPECIAL_MOUSEWHEEL);
        tfx_annotate(&t, wheel, "step", FXGL_SCALAR_FLOAT, 1, &two, NULL);
        tfx_uniform(&t, "overlay_open", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_OVERLAY_OPEN);
        tfx_uniform(&t, "overlay_active", FXGL_SCALAR_INT, 1, FXGL_SPECIAL_OVERLAY_ACTIVE);
        tfx_uniform(&t, "overlay_hovered", FXGL_SCALAR_INT, 1, FXGL_SPECIAL_OVERLAY_HOVERED);
        tfx_uniform(&t, "screenshot", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_SCREENSHOT);
        tfx_uniform(&t, "depth_ready", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_BUFREADY_DEPTH);
        tfx_uniform(&t, "unknown", FXGL_SCALAR_INT, 1, FXGL_SPECIAL_UNKNOWN);
        int tech = tfx_technique(&t, "Special");
        int s = tfx_shader(
            &t, FXGL_STAGE_PIXEL, "PS",
            "layout(std140) uniform _Globals {\n"
            "  float frametime; uint framecount; int random; vec2 pingpong; ivec4 date;\n"
            "  uint timer; bool key; bool toggle; vec2 mousepoint; vec2 mousedelta;\n"
            "  bool button; vec2 wheel; bool overlay_open; int overlay_active;\n"
            "  int overlay_hovered; bool screenshot; bool depth_ready; int unknown; };\n"
            "uniform sampler2D D;\n"
            "layout(location = 0) out vec4 o;\n"
            "vec4 enc(float r, float g, float b, float a) { return vec4(r, g, b, a) / 255.0; }\n"
            "void main() { int x = int(gl_FragCoord.x); float d = texture(D, vec2(0.5)).r * 0.0;\n"
            "  if (x == 0) o = enc(frametime, 0.0, 0.0, 1.0);\n"
            "  else if (x == 1) o = enc(float(framecount), 0.0, 0.0, 1.0);\n"
            "  else if (x == 2) o = enc(float(random), 0.0, 0.0, 1.0);\n"
            "  else if (x == 3) o = enc(pingpong.x * 100.0, pingpong.y + 1.0, 0.0, 1.0);\n"
            "  else if (x == 4) o = enc(float(date.x - 2000), float(date.y), float(date.z), "
            "float(date.w %% 256));\n"
            "  else if (x == 5) o = enc(float(timer & 255u), float(timer >> 8u), 0.0, 1.0);\n"
            "  else if (x == 6) o = enc(key ? 1.0 : 0.0, toggle ? 1.0 : 0.0, 0.0, 1.0);\n"
            "  else if (x == 7) o = enc(mousepoint.x, mousepoint.y, mousedelta.x + 128.0, "
            "mousedelta.y + 128.0);\n"
            "  else if (x == 8) o = enc(button ? 1.0 : 0.0, wheel.x, wheel.y, 1.0);\n"
            "  else if (x == 9) o = enc(overlay_open ? 1.0 : 0.0, float(overlay_active), "
            "float(overlay_hovered), screenshot ? 1.0 : 0.0);\n"
            "  else if (x == 10) o = enc(depth_ready ? 1.0 : 0.0, float(unknown), 0.0, 1.0);\n"
            "  else o = vec4(d);\n"
            "}\n");
        tfx_use_sampler(&t, s, d, "D");
        tfx_pass(&t, tech, s);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        // Frame 0 at t=10 s; frame 1 at t=10.05 s with input; frame 2 at 10.1 s.
        double times[3] = {10.0, 10.05, 10.1};
        double pp_value = 0.0;
        int toggle = 0;
        double wheel_value = 0.0;
        for (int frame = 0; frame < 3; frame++) {
            fxgl_input in = {0};
            fxgl_frame_desc desc = {.date = test_date};
            double frametime_ms = frame ? (times[frame] - times[frame - 1]) * 1000.0 : 0.0;
            if (frame >= 1) {
                in.key_down[0x41] = 1;
                in.key_pressed[0x41] = frame == 1;
                in.button_down[1] = 1;
                in.mouse_x = 10;
                in.mouse_y = 20;
                in.mouse_dx = 3;
                in.mouse_dy = -4;
                in.wheel_delta = 3;
                desc.input = &in;
                desc.overlay_open = true;
                desc.overlay_active = 3;
                desc.overlay_hovered = 4;
                desc.screenshot = frame == 2;
            }
            f.time = times[frame];
            fix_frame_with(&f, &desc);
            check_ready(&f, 0);
            // The expectations, from the reference's rules.
            memset(&sx, 0, sizeof(sx));
            sx.bytes[0][0] = round(frametime_ms);
            sx.bytes[0][3] = 1;
            sx.bytes[1][0] = frame;
            sx.bytes[1][3] = 1;
            sx.bytes[2][0] = -1; // checked separately: 5..7
            // pingpong: increment max(step - max(0, smoothing - (max - v)), 0.05) * seconds
            pp_value = fmin(pp_value + 2.0 * frametime_ms / 1000.0, 1.0);
            sx.bytes[3][0] = round(pp_value * 100.0);
            sx.bytes[3][1] = 1; // direction 0 until the maximum is reached, shown + 1
            sx.bytes[3][3] = 1;
            sx.bytes[4][0] = test_date[0] - 2000;
            sx.bytes[4][1] = test_date[1];
            sx.bytes[4][2] = test_date[2];
            sx.bytes[4][3] = test_date[3] % 256;
            int timer = (int)((times[frame] - times[0]) * 1000.0);
            sx.bytes[5][0] = timer & 255;
            sx.bytes[5][1] = timer >> 8;
            sx.bytes[5][3] = 1;
            toggle ^= frame == 1;
            sx.bytes[6][0] = frame >= 1;
            sx.bytes[6][1] = toggle;
            sx.bytes[6][3] = 1;
            sx.bytes[7][0] = frame ? 10 : 0;
            sx.bytes[7][1] = frame ? 20 : 0;
            sx.bytes[7][2] = frame ? 131 : 128;
            sx.bytes[7][3] = frame ? 124 : 128;
            wheel_value += frame ? 3 * 2.0 : 0.0;
            sx.bytes[8][0] = frame >= 1;
            sx.bytes[8][1] = wheel_value;
            sx.bytes[8][2] = frame ? 3 : 0;
            sx.bytes[8][3] = 1;
            sx.bytes[9][0] = frame >= 1;
            sx.bytes[9][1] = frame ? 3 : 0;
            sx.bytes[9][2] = frame ? 4 : 0;
            sx.bytes[9][3] = frame == 2;
            sx.bytes[10][0] = 1;
            sx.bytes[10][3] = 1;
            fxgl_image out;
            fix_read(&f, &out);
            int rnd_value = fxgl_image_at(&out, 2, 0)[0];
            ck_assert_msg(rnd_value >= 5 && rnd_value <= 7, "random %d outside 5..7",
                          rnd_value);
            sx.bytes[2][0] = rnd_value;
            sx.bytes[2][3] = 1;
            for (int y = 0; y < H; y++) {
                for (int x = 0; x < W; x++) {
                    for (int c = 0; c < 4; c++) {
                        int want = x < 11 ? (int)sx.bytes[x][c] : 0;
                        int got = fxgl_image_at(&out, x, y)[c];
                        ck_assert_msg(abs(got - want) <= 1,
                                      "%s frame %d: special column %d channel %d: got %d, "
                                      "want %d",
                                      es ? "GLES" : "GL", frame, x, c, got, want);
                    }
                }
            }
            fxgl_image_free(&out);
        }
        fix_finish(&f);
    }
}
END_TEST

// Shared textures (same namespaced name) and pooled ones (same shape, other
// effects) are one GL texture: effect B reads what effect A wrote.
static double px_shared(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    double v[4] = {0.5, 0.25, 0.0, 1.0};
    return v[c];
}

START_TEST(shared_and_pooled_textures) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx a, b;
        tfx_init(&a, "SA.fx", es);
        int ash = tfx_texture(&a, "Shared::Tex", 4, 4, 1, FXGL_FORMAT_RGBA8);
        int apo = tfx_texture(&a, "SA::Pooled", 4, 4, 1, FXGL_FORMAT_RGBA8);
        a.tex[apo].pooled = true;
        int ta = tfx_technique(&a, "Write");
        int half = tfx_shader(&a, FXGL_STAGE_PIXEL, "Half",
                              "layout(location = 0) out vec4 o0;\n"
                              "layout(location = 1) out vec4 o1;\n"
                              "void main() { o0 = vec4(0.5); o1 = vec4(0.25); }\n");
        fxgl_pass *p = tfx_pass(&a, ta, half);
        tfx_target(&a, p, ash);
        tfx_target(&a, p, apo);
        tfx_init(&b, "SB.fx", es);
        int bsh = tfx_texture(&b, "Shared::Tex", 4, 4, 1, FXGL_FORMAT_RGBA8);
        int bpo = tfx_texture(&b, "SB::Pooled", 4, 4, 1, FXGL_FORMAT_RGBA8);
        b.tex[bpo].pooled = true;
        b.tex[bpo].render_target = true;
        int s1 = tfx_sampler(&b, "SB::S1", bsh, false, false);
        int s2 = tfx_sampler(&b, "SB::S2", bpo, false, false);
        int tb = tfx_technique(&b, "Read");
        int show = tfx_shader(&b, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D S1;\nuniform sampler2D S2;\nin vec2 uv;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { o = vec4(texture(S1, uv).r, texture(S2, uv).r, "
                              "0.0, 1.0); }\n");
        tfx_use_sampler(&b, show, s1, "S1");
        tfx_use_sampler(&b, show, s2, "S2");
        tfx_pass(&b, tb, show);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&a), NULL);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&b), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        check_ready(&f, 1);
        expect(&f, px_shared, 1, "shared and pooled");
        fix_finish(&f);
    }
}
END_TEST

// Images and LUTs from tests/gl/data: a 4x2 PNG (known bytes, see
// data/README) read at its size and resized to 2x1, and a 2x2x2 .cube.
static const uint8_t png_pixels[2][4][4] = {
    {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}},
    {{0, 0, 0, 255}, {64, 64, 64, 255}, {128, 128, 128, 255}, {192, 192, 192, 255}},
};

static double px_images(int x, int y, int c, const fix *f) {
    (void)f;
    if (y == 0 && x < 4) {
        return png_pixels[0][x][c] / 255.0;
    }
    if (y == 1 && x < 4) {
        return png_pixels[1][x][c] / 255.0;
    }
    if (y == 2 && x < 8) {
        // LUT entry x = r + 2g + 4b of the file: (r, g, b) mapped from the
        // domain 0..2 to 0..1, written as r/2, g/2, b/2.
        int r = x & 1, g = (x >> 1) & 1, b = (x >> 2) & 1;
        double v[4] = {r * 0.5 + 0.25, g * 0.5 + 0.25, b * 0.5 + 0.25, 1.0};
        return v[c];
    }
    return c == 3 ? 1.0 : 0.0;
}

// Objects of a kind in the share group of the current context (names 1..1023).
static int count_objects(GladGLContext *gl, bool programs) {
    int n = 0;
    for (GLuint name = 1; name < 1024; name++) {
        n += programs ? gl->IsProgram(name) == GL_TRUE : gl->IsTexture(name) == GL_TRUE;
    }
    return n;
}

static double px_png(int x, int y, int c, const fix *f) {
    (void)f;
    if (y < 2 && x < 4) {
        return png_pixels[y][x][c] / 255.0;
    }
    return c == 3 ? 1.0 : 0.0;
}

// Two contexts of one share group, a runtime on each with the group's share table: the
// second links no program and uploads no image, and shows the same pixels. Destroying the
// first (on its context) leaves the second working; once the last runtime is destroyed, no
// program or texture of fxgl's is left in the group. A context outside the group with its
// own table links its own programs. (The abandoned runtime - its context destroyed while
// not current - is tested through the interposer: tests/interpose/test_share_group.sh.)
START_TEST(share_group_programs_and_images) {
    {
        fxgl_gl_share *share = fxgl_gl_share_create();
        ck_assert(share);
        static tfx t;
        tfx_init(&t, "data/Images.fx", false);
        int img = tfx_texture(&t, "Img::Png", 4, 2, 1, FXGL_FORMAT_RGBA8);
        t.tex[img].source = "tiny.png";
        int si = tfx_sampler(&t, "Img::SI", img, false, false);
        int tech = tfx_technique(&t, "Show");
        int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D SI;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                              "  o = vec4(0.0, 0.0, 0.0, 1.0);\n"
                              "  if (p.y < 2 && p.x < 4) o = texelFetch(SI, p, 0); }\n");
        tfx_use_sampler(&t, show, si, "SI");
        tfx_pass(&t, tech, show);
        const fxgl_effect *effect = tfx_finish(&t);

        fix a, b;
        fix_share = share;
        fix_init(&a, false, false);
        ck_assert_int_eq(count_objects(a.gl, true), 0);
        fxgl_runtime_add_effect(a.rt, effect, NULL);
        fix_frame(&a);
        check_ready(&a, 0);
        expect(&a, px_png, 1, "first context");
        const fxgl_runtime_share_stats *sa = fxgl_runtime_share_stats_get(a.rt);
        ck_assert_int_eq(sa->programs_linked, 1);
        ck_assert_int_eq(sa->programs_shared, 0);
        ck_assert_int_eq(sa->images_uploaded, 1);
        ck_assert_int_eq(sa->images_shared, 0);

        fix_share_with = a.egl;
        fix_init(&b, false, false);
        fix_share_with = NULL;
        fix_share = NULL;
        fxgl_gl_share_unref(share); // the runtimes hold it now
        fxgl_runtime_add_effect(b.rt, effect, NULL);
        fix_frame(&b);
        check_ready(&b, 0);
        expect(&b, px_png, 1, "second context of the group");
        const fxgl_runtime_share_stats *sb = fxgl_runtime_share_stats_get(b.rt);
        ck_assert_int_eq(sb->programs_linked, 0);
        ck_assert_int_eq(sb->programs_shared, 1);
        ck_assert_int_eq(sb->images_uploaded, 0);
        ck_assert_int_eq(sb->images_shared, 1);
        ck_assert_int_eq(sb->textures_created, 0);

        // The first runtime goes; the second must not lose what it took.
        ck_assert(fxgl_test_egl_make_current(a.egl));
        fxgl_runtime_destroy(a.rt);
        ck_assert(fxgl_test_egl_make_current(b.egl));
        fix_upload(&b, &b.in);
        fix_frame(&b);
        expect(&b, px_png, 1, "second context after the first runtime went");
        fxgl_runtime_destroy(b.rt);
        // The last user deleted the shared ones; each runtime deleted its own.
        ck_assert_int_eq(count_objects(b.gl, true), 0);
        ck_assert_int_eq(count_objects(b.gl, false), 2); // each fixture's colour texture
        ck_assert_int_eq(b.gl->GetError(), GL_NO_ERROR);
        fxgl_image_free(&a.in);
        fxgl_image_free(&b.in);
        fxgl_test_egl_destroy(b.egl);
        fxgl_test_egl_destroy(a.egl);
    }
    // Outside the group, with a table of its own: everything made again.
    fix c, d;
    fix_share = fxgl_gl_share_create();
    fix_init(&c, false, false);
    fxgl_gl_share_unref(fix_share);
    fix_share = fxgl_gl_share_create();
    fix_init(&d, false, false);
    fxgl_gl_share_unref(fix_share);
    fix_share = NULL;
    static tfx t;
    tfx_init(&t, "Plus.fx", false);
    int smp = color_sampler(&t);
    tfx_pass(&t, tfx_technique(&t, "Plus"), ps_color(&t, smp, "vec4(c.rgb + 0.125, 1.0)"));
    const fxgl_effect *effect = tfx_finish(&t);
    ck_assert(fxgl_test_egl_make_current(c.egl));
    fxgl_runtime_add_effect(c.rt, effect, NULL);
    fix_frame(&c);
    ck_assert(fxgl_test_egl_make_current(d.egl));
    fxgl_runtime_add_effect(d.rt, effect, NULL);
    fix_frame(&d);
    ck_assert_int_eq(fxgl_runtime_share_stats_get(d.rt)->programs_linked, 1);
    ck_assert_int_eq(fxgl_runtime_share_stats_get(d.rt)->programs_shared, 0);
    fix_finish(&d);
    ck_assert(fxgl_test_egl_make_current(c.egl));
    fix_finish(&c);
}
END_TEST

START_TEST(image_and_lut_loading) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "data/Images.fx", es);
        int img = tfx_texture(&t, "Img::Png", 4, 2, 1, FXGL_FORMAT_RGBA8);
        t.tex[img].source = "tiny.png";
        int lut = tfx_texture(&t, "Img::Lut", 2, 2, 1, FXGL_FORMAT_RGBA32F);
        t.tex[lut].dim = FXGL_TEXTURE_3D;
        t.tex[lut].depth = 2;
        t.tex[lut].source = "tiny.cube";
        int si = tfx_sampler(&t, "Img::SI", img, false, false);
        int sl = tfx_sampler(&t, "Img::SL", lut, false, false);
        int tech = tfx_technique(&t, "Show");
        int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                              "uniform sampler2D SI;\nuniform sampler3D SL;\n"
                              "layout(location = 0) out vec4 o;\n"
                              "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                              "  o = vec4(0.0, 0.0, 0.0, 1.0);\n"
                              "  if (p.y < 2 && p.x < 4) o = texelFetch(SI, p, 0);\n"
                              "  if (p.y == 2 && p.x < 8) o = vec4(texelFetch(SL, "
                              "ivec3(p.x & 1, (p.x >> 1) & 1, p.x >> 2), 0).rgb, 1.0); }\n");
        tfx_use_sampler(&t, show, si, "SI");
        tfx_use_sampler(&t, show, sl, "SL");
        tfx_pass(&t, tech, show);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_images, 1, "PNG and .cube");
        fix_finish(&f);
    }
}
END_TEST

// Failure isolation: an effect whose shader does not compile, and one whose
// render target format is unknown, are skipped with reasons; the good one runs.
START_TEST(failure_isolation) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx bad, bad2, good;
        tfx_init(&bad, "Bad.fx", es);
        int tb = tfx_technique(&bad, "Bad");
        tfx_pass(&bad, tb, tfx_shader(&bad, FXGL_STAGE_PIXEL, "Broken",
                                      "layout(location = 0) out vec4 o;\n"
                                      "void main() { o = undefined_thing; }\n"));
        tfx_init(&bad2, "Bad2.fx", es);
        int x = tfx_texture(&bad2, "Bad2::T", 4, 4, 1, FXGL_FORMAT_UNKNOWN);
        int tb2 = tfx_technique(&bad2, "Bad2");
        fxgl_pass *p = tfx_pass(&bad2, tb2, tfx_shader(&bad2, FXGL_STAGE_PIXEL, "Ok",
                                                       "layout(location = 0) out vec4 o;\n"
                                                       "void main() { o = vec4(1.0); }\n"));
        tfx_target(&bad2, p, x);
        static tfx huge;
        tfx_init(&huge, "Huge.fx", es);
        int big = tfx_texture(&huge, "Huge::T", 1 << 20, 4, 1, FXGL_FORMAT_RGBA8);
        int th = tfx_technique(&huge, "Huge");
        fxgl_pass *hp = tfx_pass(&huge, th, tfx_shader(&huge, FXGL_STAGE_PIXEL, "Ok",
                                                      "layout(location = 0) out vec4 o;\n"
                                                      "void main() { o = vec4(1.0); }\n"));
        tfx_target(&huge, hp, big);
        tfx_init(&good, "Good.fx", es);
        int sg = color_sampler(&good);
        int tg = tfx_technique(&good, "Invert");
        tfx_pass(&good, tg, ps_color(&good, sg, "vec4(1.0 - c.rgb, 1.0)"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&bad), NULL);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&bad2), NULL);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&good), NULL);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&huge), NULL);
        fix_frame(&f);
        const char *reason = NULL;
        ck_assert_int_eq(fxgl_runtime_effect_status(f.rt, 3, &reason), FXGL_STATUS_FAILED);
        ck_assert_msg(strstr(reason, "the context allows at most"), "reason: %s", reason);
        ck_assert_int_eq(fxgl_runtime_effect_status(f.rt, 0, &reason), FXGL_STATUS_FAILED);
        ck_assert_msg(strstr(reason, "does not compile"), "reason: %s", reason);
        ck_assert_int_eq(fxgl_runtime_effect_status(f.rt, 1, &reason), FXGL_STATUS_FAILED);
        ck_assert_msg(strstr(reason, "no format"), "reason: %s", reason);
        fxgl_technique_info info;
        ck_assert(fxgl_runtime_technique(f.rt, 0, &info));
        ck_assert_int_eq(info.status, FXGL_STATUS_FAILED);
        ck_assert(strlen(info.reason) > 0);
        check_ready(&f, 2);
        expect(&f, px_invert, 1, "the good effect still runs");
        fix_finish(&f);
    }
}
END_TEST

// User uniforms: set through the API, uploaded as dirty ranges only.
static double px_red(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    return c == 0 || c == 3 ? 1.0 : 0.0;
}

static double px_tint(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    double v[4] = {0.25, 0.5, 0.75, 1.0};
    return v[c];
}

START_TEST(user_uniforms) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Tint.fx", es);
        fxgl_uniform *pad = tfx_uniform(&t, "Tint::pad", FXGL_SCALAR_FLOAT, 4, 0);
        (void)pad;
        fxgl_uniform *tint = tfx_uniform(&t, "Tint::tint", FXGL_SCALAR_FLOAT, 3, 0);
        static const float init[4] = {1.0f, 0.0f, 0.0f, 0.0f};
        tint->initial_data = (const uint8_t *)init;
        tint->size = 12;
        int tech = tfx_technique(&t, "Tint");
        tfx_pass(&t, tech, tfx_shader(&t, FXGL_STAGE_PIXEL, "PS",
                                      "layout(std140) uniform _Globals { vec4 pad; vec3 tint; };\n"
                                      "layout(location = 0) out vec4 o;\n"
                                      "void main() { o = vec4(tint, 1.0); }\n"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_red, 1, "initial value");
        const fxgl_runtime_stats *s = fxgl_runtime_stats_get(f.rt);
        fxgl_value v = {.scalar = FXGL_SCALAR_FLOAT, .count = 3, .f = {0.25f, 0.5f, 0.75f}};
        ck_assert(fxgl_runtime_set_uniform(f.rt, 0, "tint", &v));
        fix_frame(&f);
        expect(&f, px_tint, 1, "tint");
        ck_assert_int_eq(s->uniform_uploads, 1);
        ck_assert_int_eq(s->uniform_bytes, 12); // the vec3 at 16..28 only
        fix_frame(&f);
        ck_assert_int_eq(s->uniform_uploads, 0); // nothing changed
        ck_assert(fxgl_runtime_set_uniform(f.rt, 0, "Tint::tint", &v));
        fix_frame(&f);
        ck_assert_int_eq(s->uniform_uploads, 0); // the same bytes: still nothing
        fxgl_value g = {.scalar = FXGL_SCALAR_INT, .count = 2, .i = {0, 1}};
        ck_assert(fxgl_runtime_set_uniform(f.rt, 0, "tint", &g));
        fix_frame(&f);
        ck_assert_int_eq(s->uniform_uploads, 1);
        ck_assert_int_eq(s->uniform_bytes, 8); // red and green changed, blue did not
        fix_finish(&f);
    }
}
END_TEST

// The same runtime fed by fxgl's compiler: a two-pass effect file with a
// render target, a user uniform and a special one, compiled for the
// context's GLSL (4.50 or ES 3.20).
static double px_half(int x, int y, int c, const fix *f) {
    return c == 3 ? 1.0 : in_px(f, x, y, c) * 0.5;
}

START_TEST(compiled_effect) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        fxgl_environment env = {.width = W, .height = H,
                                .api = es ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL};
        fxgl_define defines[FXGL_PREDEFINED_MAX];
        char storage[FXGL_PREDEFINED_STORAGE];
        size_t n = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
        char path[512];
        snprintf(path, sizeof(path), "%s/gl/data/Chain.fx", FXGL_TEST_SRCDIR);
        fxgl_compile_desc cd = {
            .path = path, .defines = defines, .define_count = n,
            .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
        };
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
        if (!fx) {
            fxgl_diags_print(&diags, stderr);
        }
        ck_assert_msg(fx, "Chain.fx does not compile");
        fxgl_diags_finish(&diags);
        ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, fx, "Chain.fx"), 0);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_half_then_add, 1, "compiled chain");
        fxgl_value zero = {.scalar = FXGL_SCALAR_FLOAT, .count = 1};
        ck_assert(fxgl_runtime_set_uniform(f.rt, 0, "Offset", &zero));
        ck_assert(!fxgl_runtime_set_uniform(f.rt, 0, "Frame", &zero)); // special: refused
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_half, 1, "compiled chain, Offset = 0");
        fix_finish(&f);
        fxgl_effect_destroy(fx);
    }
}
END_TEST

// An effect compiled by fxgl reading SV_Position (and pixel centres through
// it) in its only, last back-buffer pass: drawn straight into the program's
// framebuffer, upside down, SV_Position.y still counts rows from the top -
// the same pixels as through the back-buffer copy and a copy out.
START_TEST(direct_pass_sv_position) {
    static const char src[] =
        "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
        "{\n"
        "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
        "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
        "}\n"
        "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return float4(floor(pos.y) / 255.0, 0.0, 0.0, 1.0);\n"
        "}\n"
        "technique Row { pass { VertexShader = VS; PixelShader = PS; } }\n";
    for (int es = 0; es < 2; es++) {
        for (int off = 0; off < 2; off++) {
            fix_no_direct = off;
            fix f;
            fix_init(&f, es, false);
            fix_no_direct = false;
            fxgl_compile_desc cd = {
                .path = "Row.fx", .source = src, .source_len = sizeof(src) - 1,
                .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
            };
            fxgl_diags diags;
            fxgl_diags_init(&diags);
            fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
            if (!fx) {
                fxgl_diags_print(&diags, stderr);
            }
            ck_assert_msg(fx, "Row.fx does not compile");
            fxgl_diags_finish(&diags);
            ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, fx, "Row.fx"), 0);
            fix_frame(&f);
            check_ready(&f, 0);
            expect(&f, px_row, 1, off ? "SV_Position, copy out" : "SV_Position, direct");
            ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->copies, off ? 2 : 1);
            fix_finish(&f);
            fxgl_effect_destroy(fx);
        }
    }
}
END_TEST

// A pixel shader returning float3 leaves alpha undefined in GL (Mesa writes
// 0): the runtime masks the channel, so the program's alpha survives. The
// application's alpha here varies per pixel, so a constant cannot pass.
static uint8_t alpha_pattern(int x, int y) {
    return (uint8_t)(x * 13 + y * 3 + 7);
}

static double px_rgb_invert_keep_alpha(int x, int y, int c, const fix *f) {
    (void)f;
    return c == 3 ? alpha_pattern(x, y) / 255.0 : 1.0 - pattern(x, y, c) / 255.0;
}

START_TEST(float3_output_keeps_alpha) {
    static const char src[] =
        "texture2D BackBufferTex : COLOR;\n"
        "sampler2D BackBuffer { Texture = BackBufferTex; };\n"
        "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
        "{\n"
        "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
        "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
        "}\n"
        "float3 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{\n"
        "    return 1.0 - tex2D(BackBuffer, uv).rgb;\n"
        "}\n"
        "technique Rgb { pass { VertexShader = VS; PixelShader = PS; } }\n";
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                f.in.pixels[((size_t)y * W + (size_t)x) * 4 + 3] = alpha_pattern(x, y);
            }
        }
        fix_upload(&f, &f.in);
        fxgl_compile_desc cd = {
            .path = "Rgb.fx", .source = src, .source_len = sizeof(src) - 1,
            .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
        };
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
        if (!fx) {
            fxgl_diags_print(&diags, stderr);
        }
        ck_assert_msg(fx, "Rgb.fx does not compile");
        fxgl_diags_finish(&diags);
        ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, fx, "Rgb.fx"), 0);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_rgb_invert_keep_alpha, 1, "float3 output keeps alpha");
        fix_finish(&f);
        fxgl_effect_destroy(fx);
    }
}
END_TEST

// A pass that samples its own render target: the compiler only warns
// (X3020, as the reference does) and the runtime binds the empty texture
// (0, 0, 0, 1) there instead of a GL feedback loop. T holds 0.5 from the
// first pass; the second adds 0.25 to what it reads of T: 0.25 with the
// empty texture, 0.75 had it read T, anything with a feedback loop.
static double px_self_sampled(int x, int y, int c, const fix *f) {
    (void)x, (void)y, (void)f;
    return c == 3 ? 1.0 : 0.25;
}

START_TEST(self_sampled_target) {
    static const char src[] =
        "texture2D T { Width = 8; Height = 8; };\n"
        "sampler2D ST { Texture = T; };\n"
        "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
        "{\n"
        "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
        "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
        "}\n"
        "float4 Fill(float4 pos : SV_Position) : SV_Target { return 0.5; }\n"
        "float4 Self(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{ return tex2D(ST, uv) + float4(0.25, 0.25, 0.25, 0.0); }\n"
        "float4 Show(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
        "{ return tex2D(ST, uv); }\n"
        "technique Self {\n"
        "    pass { VertexShader = VS; PixelShader = Fill; RenderTarget = T; }\n"
        "    pass { VertexShader = VS; PixelShader = Self; RenderTarget = T; }\n"
        "    pass { VertexShader = VS; PixelShader = Show; }\n"
        "}\n";
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        fxgl_compile_desc cd = {
            .path = "Self.fx", .source = src, .source_len = sizeof(src) - 1,
            .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
        };
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
        if (!fx) {
            fxgl_diags_print(&diags, stderr);
        }
        ck_assert_msg(fx, "Self.fx does not compile");
        bool warned = false;
        for (size_t i = 0; i < diags.count; i++) {
            warned |= strcmp(diags.items[i].id, "X3020") == 0 &&
                      diags.items[i].severity == FXGL_DIAG_WARNING && diags.items[i].line == 15;
        }
        ck_assert_msg(warned, "no X3020 warning at the second pass");
        fxgl_diags_finish(&diags);
        ck_assert_int_eq(fxgl_runtime_add_effect(f.rt, fx, "Self.fx"), 0);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_self_sampled, 1, "self-sampled target reads the empty texture");
        fix_finish(&f);
        fxgl_effect_destroy(fx);
    }
}
END_TEST

// GPU timer queries (read back without waiting, averaged) and KHR_debug
// groups named after the technique and its passes.
typedef struct groups_seen {
    char names[64][96];
    int count;
} groups_seen;

static void GLAD_API_PTR on_debug(GLenum source, GLenum type, GLuint id, GLenum severity,
                                  GLsizei length, const GLchar *message, const void *user) {
    (void)source, (void)id, (void)severity, (void)length;
    groups_seen *g = (groups_seen *)(uintptr_t)user;
    if (type == GL_DEBUG_TYPE_PUSH_GROUP && g->count < 64) {
        snprintf(g->names[g->count++], sizeof(g->names[0]), "%s", message);
    }
}

static bool seen(const groups_seen *g, const char *name) {
    for (int i = 0; i < g->count; i++) {
        if (strcmp(g->names[i], name) == 0) {
            return true;
        }
    }
    return false;
}

START_TEST(timing_and_debug_groups) {
    fix f;
    fix_init(&f, false, false);
    GladGLContext *gl = f.gl;
    const fxgl_gl_info *info = fxgl_test_egl_info(f.egl);
    static groups_seen groups;
    memset(&groups, 0, sizeof(groups));
    static tfx t;
    tfx_init(&t, "Timed.fx", false);
    int smp = color_sampler(&t);
    int tech = tfx_technique(&t, "Timed");
    fxgl_pass *p = tfx_pass(&t, tech, ps_color(&t, smp, "c * 0.5"));
    p->name = "First";
    p = tfx_pass(&t, tech, ps_color(&t, smp, "c + 0.1"));
    p->name = "Second";
    fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
    // Each frame is finished, as a presenting program's swap would: the ring
    // drops a slot still in flight, and without a wait a loaded machine may
    // still have every one of them in flight when it is read.
    fix_frame(&f); // loads
    gl->Finish();
    if (info->has_debug) {
        gl->Enable(GL_DEBUG_OUTPUT);
        gl->DebugMessageCallback(on_debug, &groups);
    }
    for (int i = 1; i <= 8; i++) {
        f.time = i / 60.0;
        fix_frame(&f);
        gl->Finish();
    }
    if (info->has_debug) {
        gl->Disable(GL_DEBUG_OUTPUT);
        gl->DebugMessageCallback(NULL, NULL);
        ck_assert_msg(seen(&groups, "Timed"), "no debug group 'Timed' (%d seen)", groups.count);
        ck_assert(seen(&groups, "Timed/First"));
        ck_assert(seen(&groups, "Timed/Second"));
    }
    fxgl_technique_info ti;
    ck_assert(fxgl_runtime_technique(f.rt, 0, &ti));
    ck_assert_int_eq(ti.frames_run, 9);
    ck_assert(ti.cpu_ms > 0.0);
    if (info->has_timer_query) {
        // Frames 0..4 are read back in frames 4..8 (a 4-frame ring).
        ck_assert_msg(ti.gpu_ms > 0.0, "no GPU time after 9 frames");
        double a = fxgl_runtime_pass_gpu_ms(f.rt, 0, 0), b = fxgl_runtime_pass_gpu_ms(f.rt, 0, 1);
        ck_assert(a > 0.0 && b > 0.0);
        ck_assert(a + b <= ti.gpu_ms * 1.0001);
    }
    // A fresh runtime, two frames: nothing read back yet; collected after glFinish.
    fxgl_runtime_destroy(f.rt);
    f.rt = fxgl_runtime_create(gl, info, NULL);
    fxgl_runtime_add_effect(f.rt, &t.fx, NULL);
    fix_frame(&f);
    fix_frame(&f);
    ck_assert(fxgl_runtime_technique(f.rt, 0, &ti));
    ck_assert(ti.gpu_ms == 0.0);
    gl->Finish();
    fxgl_runtime_collect_timings(f.rt);
    ck_assert(fxgl_runtime_technique(f.rt, 0, &ti));
    if (info->has_timer_query) {
        ck_assert_msg(ti.gpu_ms > 0.0, "nothing collected");
    }
    fix_finish(&f);
}
END_TEST

// Two passes with the same entry points share one program: the second pass
// issues no glUseProgram, and both still run (COLOR + 0.125 twice).
START_TEST(shared_programs) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Twice.fx", es);
        int smp = color_sampler(&t);
        int tech = tfx_technique(&t, "Twice");
        int add = ps_color(&t, smp, "vec4(c.rgb + 0.125, 1.0)");
        tfx_pass(&t, tech, add);
        tfx_pass(&t, tech, add);
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_plus_quarter, 1, "one program, two passes");
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_plus_quarter, 1, "one program, two passes, steady frame");
        ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->program_binds, 1);
        ck_assert_int_eq(fxgl_runtime_stats_get(f.rt)->draw_calls, 2);
        fix_finish(&f);
    }
}
END_TEST

// enabled_in_screenshot = false skips a technique in screenshot frames; a
// `timeout` switches a technique off once it has run that long.
START_TEST(screenshot_and_timeout) {
    fix f;
    fix_init(&f, false, false);
    static tfx t;
    tfx_init(&t, "Shot.fx", false);
    int smp = color_sampler(&t);
    int a = tfx_technique(&t, "NotInShots");
    tfx_pass(&t, a, ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)"));
    t.tech[a].enabled_in_screenshot = false;
    int b = tfx_technique(&t, "Timed");
    tfx_pass(&t, b, ps_color(&t, smp, "c"));
    t.tech[b].timeout_ms = 20;
    fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
    fxgl_frame_desc shot = {.screenshot = true};
    fix_frame_with(&f, &shot);
    check_ready(&f, 0);
    expect(&f, px_identity, 0, "skipped in a screenshot");
    for (int i = 1; i <= 4; i++) {
        f.time = i / 60.0;
        fix_upload(&f, &f.in);
        fix_frame(&f);
        expect(&f, px_invert, 1, "not a screenshot");
    }
    fxgl_technique_info info;
    ck_assert(fxgl_runtime_technique(f.rt, 0, &info));
    ck_assert_int_eq(info.frames_run, 4);
    ck_assert(fxgl_runtime_technique(f.rt, 1, &info));
    // 20 ms left: frame 0 takes 0 ms, frames 1 and 2 take 16.7 ms each.
    ck_assert_int_eq(info.frames_run, 3);
    ck_assert(!info.enabled);
    fix_finish(&f);
}
END_TEST

// A multisampled application framebuffer: resolved (and flipped) in, and
// written back flipped: by blits on GL, by a draw on GLES (no blit into a
// multisampled framebuffer there). The MSAA buffer is filled by scissored
// clears: 4x4-pixel blocks, block (i, j) = (i/4, j/4, 0.5) top-down.
static double px_msaa(int x, int y, int c, const fix *f) {
    (void)f;
    double v[4] = {(x / 4) / 4.0, (y / 4) / 4.0, 0.5, 1.0};
    return c == 3 ? 1.0 : 1.0 - v[c];
}

START_TEST(multisampled_framebuffer) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        GladGLContext *gl = f.gl;
        GLuint rb, msaa;
        gl->GenRenderbuffers(1, &rb);
        gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, W, H);
        gl->GenFramebuffers(1, &msaa);
        gl->BindFramebuffer(GL_FRAMEBUFFER, msaa);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        gl->Enable(GL_SCISSOR_TEST);
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 4; i++) {
                // top-down block row j is GL rows H - 4(j+1) .. H - 4j - 1
                gl->Scissor(i * 4, H - 4 * (j + 1), 4, 4);
                GLfloat c[4] = {i / 4.0f, j / 4.0f, 0.5f, 1.0f};
                gl->ClearBufferfv(GL_COLOR, 0, c);
            }
        }
        gl->Disable(GL_SCISSOR_TEST);
        static tfx t;
        tfx_init(&t, "Msaa.fx", es);
        int smp = color_sampler(&t);
        int tech = tfx_technique(&t, "Invert");
        tfx_pass(&t, tech, ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)"));
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = msaa};
        ck_assert(fxgl_runtime_frame(f.rt, &d));
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        check_ready(&f, 0);
        // Resolve the application's buffer into the fixture's FBO to read it.
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, msaa);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, f.fbo);
        gl->BlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        expect(&f, px_msaa, 1, "MSAA in and out");
        gl->DeleteFramebuffers(1, &msaa);
        gl->DeleteRenderbuffers(1, &rb);
        fix_finish(&f);
    }
}
END_TEST

// A context without texture views, image copies and compute (an ES 3.0
// driver, simulated by removing the entry points): COLOR refreshes by blit,
// mips come from glGenerateMipmap (the same 2x2 box on power-of-two sizes),
// a compute technique fails alone with a reason, the others run.
START_TEST(fallbacks_without_views_copies_compute) {
    fix f;
    fix_init(&f, false, false);
    static GladGLContext reduced;
    reduced = *f.gl;
    reduced.TextureView = NULL;
    reduced.CopyImageSubData = NULL;
    reduced.DispatchCompute = NULL;
    fxgl_runtime_destroy(f.rt);
    f.rt = fxgl_runtime_create(&reduced, fxgl_test_egl_info(f.egl),
                               &(fxgl_runtime_desc){.log = on_log, .log_user = &f});
    ck_assert(f.rt);
    static tfx t;
    tfx_init(&t, "Fallback.fx", false);
    int smp = color_sampler(&t);
    int m = tfx_texture(&t, "Fb::M", W, H, 5, FXGL_FORMAT_RGBA16F);
    int ms = tfx_sampler(&t, "Fb::MS", m, false, false);
    int img = tfx_texture(&t, "Fb::Img", 8, 8, 1, FXGL_FORMAT_RGBA8);
    int st = tfx_storage(&t, "Fb::St", img, 0);
    // Technique 0: the COLOR refresh rule (two back-buffer passes).
    int t0 = tfx_technique(&t, "Refresh");
    int add = ps_color(&t, smp, "vec4(c.rgb + 0.125, 1.0)");
    tfx_pass(&t, t0, add);
    tfx_pass(&t, t0, add);
    // Technique 1: compute, which this context cannot run.
    int t1 = tfx_technique(&t, "Compute");
    int cs = tfx_shader(&t, FXGL_STAGE_COMPUTE, "CS",
                        "layout(local_size_x = 8, local_size_y = 8) in;\n"
                        "layout(binding = 0, rgba8) writeonly uniform highp image2D St;\n"
                        "void main() { imageStore(St, ivec2(gl_GlobalInvocationID.xy), "
                        "vec4(1.0)); }\n");
    tfx_use_storage(&t, cs, st, 0, "St");
    tfx_compute(&t, t1, cs, 1, 1);
    // Technique 2: mips (after technique 0 the output is checked separately).
    int t2 = tfx_technique(&t, "Mips");
    int fill = tfx_shader(&t, FXGL_STAGE_PIXEL, "Fill",
                          "layout(location = 0) out vec4 o;\n"
                          "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                          "  o = vec4(float((p.x * 3 + p.y * 5) %% 16) / 16.0); }\n");
    fxgl_pass *p = tfx_pass(&t, t2, fill);
    tfx_target(&t, p, m);
    int show = tfx_shader(&t, FXGL_STAGE_PIXEL, "Show",
                          "uniform sampler2D MS;\n"
                          "layout(location = 0) out vec4 o;\n"
                          "void main() { ivec2 p = ivec2(gl_FragCoord.xy);\n"
                          "  float a = p.x < 8 && p.y < 8 ? texelFetch(MS, p, 1).r : 0.0;\n"
                          "  float b = p.x < 4 && p.y < 4 ? texelFetch(MS, p, 2).r : 0.0;\n"
                          "  o = vec4(a, b, 0.0, 1.0); }\n");
    tfx_use_sampler(&t, show, ms, "MS");
    tfx_pass(&t, t2, show);
    fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
    fxgl_runtime_set_enabled(f.rt, 0, 2, false);
    fix_frame(&f);
    check_ready(&f, 0);
    expect(&f, px_plus_quarter, 1, "COLOR refreshed by blit");
    fxgl_technique_info info;
    ck_assert(fxgl_runtime_technique(f.rt, 1, &info));
    ck_assert_int_eq(info.status, FXGL_STATUS_FAILED);
    ck_assert_msg(strstr(info.reason, "no compute"), "reason: %s", info.reason);
    fxgl_runtime_set_enabled(f.rt, 0, 0, false);
    fxgl_runtime_set_enabled(f.rt, 0, 2, true);
    fix_frame(&f);
    expect(&f, px_mip, 1, "glGenerateMipmap fallback");
    fix_finish(&f);
}
END_TEST

// fxgl_runtime_add_effect from a worker thread (where compilation runs)
// while the frame thread keeps rendering: the effect is adopted and loaded
// by a later frame, and nothing renders it half-made.
typedef struct adder {
    fxgl_runtime *rt;
    const fxgl_effect *fx;
    int index;
} adder;

static void *add_later(void *arg) {
    adder *a = arg;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    a->index = fxgl_runtime_add_effect(a->rt, a->fx, "Worker.fx");
    return NULL;
}

START_TEST(add_effect_from_a_worker_thread) {
    fix f;
    fix_init(&f, false, false);
    static tfx t;
    tfx_init(&t, "Worker.fx", false);
    int smp = color_sampler(&t);
    int tech = tfx_technique(&t, "Invert");
    tfx_pass(&t, tech, ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)"));
    adder a = {.rt = f.rt, .fx = tfx_finish(&t), .index = -2};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, add_later, &a), 0);
    int frames = 0;
    while (fxgl_runtime_effect_count(f.rt) == 0 && frames < 2000) {
        fix_upload(&f, &f.in);
        fix_frame(&f);
        // An effect added while the frame ran may have run in it already.
        if (fxgl_runtime_effect_count(f.rt) == 0) {
            expect(&f, px_identity, 0, "before the effect arrives");
        }
        frames++;
    }
    pthread_join(thread, NULL);
    ck_assert_int_eq(a.index, 0);
    fix_upload(&f, &f.in);
    fix_frame(&f);
    check_ready(&f, 0);
    expect(&f, px_invert, 1, "after it arrived");
    fix_finish(&f);
}
END_TEST

// Every FX format: a 4x4 render target of each is written by its own pass
// (vec4(0.5, 0.25, 0.125, 1.0), or ivec4/uvec4(5, 6, 7, 8) for the integer
// formats) and read back by two back-buffer passes into pixel column x.
static const fxgl_format all_formats[] = {
    FXGL_FORMAT_R8,      FXGL_FORMAT_R16,     FXGL_FORMAT_R16F,    FXGL_FORMAT_R32F,
    FXGL_FORMAT_RG8,     FXGL_FORMAT_RG16,    FXGL_FORMAT_RG16F,   FXGL_FORMAT_RG32F,
    FXGL_FORMAT_RGBA8,   FXGL_FORMAT_RGBA16,  FXGL_FORMAT_RGBA16F, FXGL_FORMAT_RGBA32F,
    FXGL_FORMAT_RGB10A2, FXGL_FORMAT_RG11B10F, FXGL_FORMAT_R32I,   FXGL_FORMAT_R32U,
    FXGL_FORMAT_RGBA32I, FXGL_FORMAT_RGBA32U,
};
#define NFORMATS ((int)(sizeof(all_formats) / sizeof(all_formats[0])))

static int format_channels(fxgl_format f) {
    switch (f) {
    case FXGL_FORMAT_R8: case FXGL_FORMAT_R16: case FXGL_FORMAT_R16F: case FXGL_FORMAT_R32F:
    case FXGL_FORMAT_R32I: case FXGL_FORMAT_R32U:
        return 1;
    case FXGL_FORMAT_RG8: case FXGL_FORMAT_RG16: case FXGL_FORMAT_RG16F: case FXGL_FORMAT_RG32F:
        return 2;
    case FXGL_FORMAT_RG11B10F:
        return 3;
    default:
        return 4;
    }
}

static bool format_integer(fxgl_format f) {
    return f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_R32U || f == FXGL_FORMAT_RGBA32I ||
           f == FXGL_FORMAT_RGBA32U;
}

static double px_formats(int x, int y, int c, const fix *f) {
    (void)y, (void)f;
    if (x >= NFORMATS) {
        return c == 3 ? 1.0 : 0.0;
    }
    fxgl_format fmt = all_formats[x];
    int ch = format_channels(fmt);
    if (format_integer(fmt)) {
        double v[4] = {5, 6, 7, 8};
        // texelFetch of a missing integer channel: 0 (alpha 1)
        return c < ch ? v[c] / 255.0 : c == 3 ? 1.0 / 255.0 : 0.0;
    }
    double v[4] = {0.5, 0.25, 0.125, 1.0};
    return c < ch ? v[c] : c == 3 ? 1.0 : 0.0;
}

START_TEST(every_format) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        static tfx t;
        tfx_init(&t, "Formats.fx", es);
        int tech = tfx_technique(&t, "Formats");
        int samplers[NFORMATS];
        static char names[NFORMATS][32];
        int wf = tfx_shader(&t, FXGL_STAGE_PIXEL, "WriteF",
                            "layout(location = 0) out vec4 o;\n"
                            "void main() { o = vec4(0.5, 0.25, 0.125, 1.0); }\n");
        int wi = tfx_shader(&t, FXGL_STAGE_PIXEL, "WriteI",
                            "layout(location = 0) out ivec4 o;\n"
                            "void main() { o = ivec4(5, 6, 7, 8); }\n");
        int wu = tfx_shader(&t, FXGL_STAGE_PIXEL, "WriteU",
                            "layout(location = 0) out uvec4 o;\n"
                            "void main() { o = uvec4(5u, 6u, 7u, 8u); }\n");
        for (int i = 0; i < NFORMATS; i++) {
            fxgl_format fmt = all_formats[i];
            snprintf(names[i], sizeof(names[i]), "Fmt::%s", fxgl_format_name(fmt));
            int tex = tfx_texture(&t, names[i], 4, 4, 1, fmt);
            samplers[i] = tfx_sampler(&t, names[i], tex, false, false);
            bool sint = fmt == FXGL_FORMAT_R32I || fmt == FXGL_FORMAT_RGBA32I;
            bool uint_ = fmt == FXGL_FORMAT_R32U || fmt == FXGL_FORMAT_RGBA32U;
            t.smp[samplers[i]].element = sint ? FXGL_SCALAR_INT
                                         : uint_ ? FXGL_SCALAR_UINT : FXGL_SCALAR_FLOAT;
            fxgl_pass *p = tfx_pass(&t, tech, sint ? wi : uint_ ? wu : wf);
            tfx_target(&t, p, tex);
        }
        // Two readers: columns 0..9 and 10..17 (16 texture units at most per pass).
        for (int half = 0; half < 2; half++) {
            int lo = half ? 10 : 0, hi = half ? NFORMATS : 10;
            char decls[2048] = "", body[4096] = "";
            size_t dn = 0, bn = 0;
            for (int i = lo; i < hi; i++) {
                fxgl_format fmt = all_formats[i];
                bool sint = fmt == FXGL_FORMAT_R32I || fmt == FXGL_FORMAT_RGBA32I;
                bool uint_ = fmt == FXGL_FORMAT_R32U || fmt == FXGL_FORMAT_RGBA32U;
                dn += (size_t)snprintf(decls + dn, sizeof(decls) - dn,
                                       "uniform highp %s S%d;\n",
                                       sint ? "isampler2D" : uint_ ? "usampler2D" : "sampler2D",
                                       i);
                bn += (size_t)snprintf(body + bn, sizeof(body) - bn,
                                       "  if (x == %d) o = vec4(texelFetch(S%d, ivec2(0), 0))%s;\n",
                                       i, i,
                                       sint || uint_ ? " / 255.0" : "");
            }
            int r = tfx_shader(&t, FXGL_STAGE_PIXEL, "Read",
                               "%slayout(location = 0) out vec4 o;\n"
                               "void main() { int x = int(gl_FragCoord.x);\n"
                               "  if (x < %d || x >= %d) { if (%d == 0 || x < %d) discard; "
                               "o = vec4(0.0, 0.0, 0.0, 1.0); return; }\n%s}\n",
                               decls, lo, hi, half, lo, body);
            for (int i = lo; i < hi; i++) {
                static char uniform[NFORMATS][8];
                snprintf(uniform[i], sizeof(uniform[i]), "S%d", i);
                tfx_use_sampler(&t, r, samplers[i], uniform[i]);
            }
            tfx_pass(&t, tech, r);
        }
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        check_ready(&f, 0);
        expect(&f, px_formats, 1, "every format");
        fix_finish(&f);
    }
}
END_TEST

// A resize (another size, another framebuffer): the per-size objects are
// rebuilt, stencil attachments follow, and the frame is still right.
START_TEST(resize) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, false);
        GladGLContext *gl = f.gl;
        static tfx t;
        tfx_init(&t, "Resize.fx", es);
        int smp = color_sampler(&t);
        int tech = tfx_technique(&t, "Invert");
        fxgl_pass *p = tfx_pass(&t, tech, ps_color(&t, smp, "vec4(1.0 - c.rgb, 1.0)"));
        p->stencil_enable = true; // the runtime's stencil must follow the size
        fxgl_runtime_add_effect(f.rt, tfx_finish(&t), NULL);
        fix_frame(&f);
        expect(&f, px_invert, 1, "before the resize");
        // 8x4, filled with 0.25 grey.
        GLuint tex, fbo;
        gl->GenTextures(1, &tex);
        gl->BindTexture(GL_TEXTURE_2D, tex);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 4);
        gl->GenFramebuffers(1, &fbo);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        GLfloat grey[4] = {0.25f, 0.25f, 0.25f, 1.0f};
        gl->ClearBufferfv(GL_COLOR, 0, grey);
        fxgl_frame_desc d = {.width = 8, .height = 4, .framebuffer = fbo};
        ck_assert(fxgl_runtime_frame(f.rt, &d));
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        uint8_t px[8 * 4 * 4];
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        gl->ReadPixels(0, 0, 8, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (int i = 0; i < 8 * 4; i++) {
            ck_assert_int_le(abs(px[i * 4] - 191), 1);
            ck_assert_int_eq(px[i * 4 + 3], 255);
        }
        gl->DeleteFramebuffers(1, &fbo);
        gl->DeleteTextures(1, &tex);
        fix_upload(&f, &f.in);
        fix_frame(&f); // and back
        expect(&f, px_invert, 1, "after resizing back");
        fix_finish(&f);
    }
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GL)) {
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("runtime");
    TCase *tc = tcase_create("runtime");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, passthrough_and_invert);
    tcase_add_test(tc, technique_and_pass_order);
    tcase_add_test(tc, color_refresh_rule);
    tcase_add_test(tc, persistence_and_blending);
    tcase_add_test(tc, blend_states);
    tcase_add_test(tc, mrt_and_write_masks);
    tcase_add_test(tc, stencil);
    tcase_add_test(tc, clears);
    tcase_add_test(tc, mip_generation);
    tcase_add_test(tc, compute_with_storages);
    tcase_add_test(tc, srgb_views);
    tcase_add_test(tc, semantics);
    tcase_add_test(tc, special_uniforms);
    tcase_add_test(tc, shared_and_pooled_textures);
    tcase_add_test(tc, image_and_lut_loading);
    tcase_add_test(tc, failure_isolation);
    tcase_add_test(tc, user_uniforms);
    tcase_add_test(tc, compiled_effect);
    tcase_add_test(tc, timing_and_debug_groups);
    tcase_add_test(tc, shared_programs);
    tcase_add_test(tc, screenshot_and_timeout);
    tcase_add_test(tc, multisampled_framebuffer);
    tcase_add_test(tc, fallbacks_without_views_copies_compute);
    tcase_add_test(tc, direct_last_pass);
    tcase_add_test(tc, direct_pass_sv_position);
    tcase_add_test(tc, add_effect_from_a_worker_thread);
    tcase_add_test(tc, every_format);
    tcase_add_test(tc, resize);
    tcase_add_test(tc, float3_output_keeps_alpha);
    tcase_add_test(tc, self_sampled_target);
    tcase_add_test(tc, share_group_programs_and_images);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
