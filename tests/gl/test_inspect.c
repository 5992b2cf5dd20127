/*
 * test_inspect.c - the inspection layer on GL 4.5 core and
 * GLES 3.2, headless: dump content, visualised texture pixels, control
 * commands, the overlay's glyphs, and screenshots against the presented
 * frame.
 *
 * The application is an FBO filled with a known pattern, as in
 * test_runtime.c; effects are hand-built (tfx.h). Every expected pixel is
 * computed here from the pattern, the effect's arithmetic or glyph rows
 * written out by hand below, never read from the layer under test.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "tfx.h"

typedef struct fix {
    fxgl_test_egl *egl;
    GladGLContext *gl;
    bool es;
    int w, h;
    fxgl_runtime *rt;
    fxgl_inspect *in;
    GLuint fbo, color;
    fxgl_image input;            // what the application drew (top row first)
    double time;
    char log[8192];
    char dir[256];               // screenshots go here
} fix;

static void on_log(void *user, fxgl_gl_log_level level, const char *message) {
    fix *f = user;
    (void)level;
    size_t n = strlen(f->log);
    snprintf(f->log + n, sizeof(f->log) - n, "%s\n", message);
}

static uint8_t pattern(int x, int y, int c) {
    switch (c) {
    case 0: return (uint8_t)(x * 4 + 8);
    case 1: return (uint8_t)(y * 4 + 8);
    case 2: return (uint8_t)((x + y) * 3);
    default: return 255;
    }
}

static void fix_upload(fix *f) {
    GladGLContext *gl = f->gl;
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    for (int y = 0; y < f->h; y++) {
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, f->h - 1 - y, f->w, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                          f->input.pixels + (size_t)y * (size_t)f->w * 4);
    }
}

static void fix_init(fix *f, bool es, int w, int h) {
    memset(f, 0, sizeof(*f));
    f->w = w;
    f->h = h;
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    f->egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(f->egl, "%s", reason);
    f->gl = fxgl_test_egl_gl(f->egl);
    f->es = es;
    GladGLContext *gl = f->gl;
    gl->GenTextures(1, &f->color);
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &f->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->color, 0);
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    ck_assert(fxgl_image_alloc(&f->input, w, h));
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < 4; c++) {
                f->input.pixels[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c] =
                    pattern(x, y, c);
            }
        }
    }
    fix_upload(f);
    fxgl_runtime_desc rd = {.log = on_log, .log_user = f};
    f->rt = fxgl_runtime_create(gl, fxgl_test_egl_info(f->egl), &rd);
    ck_assert_msg(f->rt, "runtime: %s", f->log);
    snprintf(f->dir, sizeof(f->dir), "%s/inspect-shots-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert(mkdtemp(f->dir));
    fxgl_inspect_desc id = {.program = "test_inspect", .screenshot_dir = f->dir};
    f->in = fxgl_inspect_create(f->rt, &id);
    ck_assert(f->in);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
}

static void fix_finish(fix *f) {
    fxgl_inspect_destroy(f->in);
    fxgl_runtime_destroy(f->rt);
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    fxgl_image_free(&f->input);
    fxgl_test_egl_destroy(f->egl);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void fix_frame(fix *f) {
    fix_upload(f); // the application draws its frame again
    fxgl_frame_desc d = {.width = f->w, .height = f->h, .framebuffer = f->fbo, .time = f->time};
    f->time += 0.016;
    ck_assert(fxgl_inspect_frame(f->in, &d));
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
}

static void fix_read(fix *f, fxgl_image *out) {
    GladGLContext *gl = f->gl;
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo);
    ck_assert(fxgl_image_read_gl(out, gl, f->w, f->h));
}

static int to_byte(double v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (int)lround(v * 255.0);
}

typedef int (*want_fn)(const fix *f, int x, int y, int c); // byte, -1: don't care

static void expect(fix *f, want_fn fn, int tolerance, const char *what) {
    fxgl_image out;
    fix_read(f, &out);
    for (int y = 0; y < f->h; y++) {
        for (int x = 0; x < f->w; x++) {
            for (int c = 0; c < 4; c++) {
                int want = fn(f, x, y, c);
                int got = fxgl_image_at(&out, x, y)[c];
                if (want >= 0 && abs(want - got) > tolerance) {
                    fxgl_image_free(&out);
                    ck_abort_msg("%s (%s): pixel (%d,%d) channel %d: got %d, want %d\nlog:\n%s",
                                 what, f->es ? "GLES" : "GL", x, y, c, got, want, f->log);
                }
            }
        }
    }
    fxgl_image_free(&out);
}

static int px_input(const fix *f, int x, int y, int c) {
    return fxgl_image_at(&f->input, x, y)[c];
}

static int px_inverted(const fix *f, int x, int y, int c) {
    return c == 3 ? 255 : 255 - px_input(f, x, y, c);
}

// --- effects ---

static tfx inv_fx, vis_fx, broken_fx, sem_fx, time_fx, late_fx;

static int color_sampler(tfx *t) {
    int tex = tfx_semantic(t, "ReShade::BackBufferTex", "COLOR");
    return tfx_sampler(t, "ReShade::BackBuffer", tex, false, false);
}

// Inv.fx: technique Invert (back buffer = 1 - colour), technique Two (adds, disabled).
static const fxgl_effect *make_inv(bool es) {
    tfx *t = &inv_fx;
    tfx_init(t, "Inv.fx", es);
    int smp = color_sampler(t);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "uniform sampler2D Color;\nin vec2 uv;\n"
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = vec4(1.0 - texture(Color, uv).rgb, 1.0); }\n");
    tfx_use_sampler(t, ps, smp, "Color");
    tfx_pass(t, tfx_technique(t, "Invert"), ps);
    int two = tfx_shader(t, FXGL_STAGE_PIXEL, "PS2",
                         "uniform sampler2D Color;\nin vec2 uv;\n"
                         "layout(location = 0) out vec4 o;\n"
                         "void main() { o = vec4(texture(Color, uv).rgb + 0.5, 1.0); }\n");
    tfx_use_sampler(t, two, smp, "Color");
    tfx_pass(t, tfx_technique(t, "Two"), two);
    return tfx_finish(t);
}

// Vis.fx: technique Fill writes Grad (8x8, 2 levels) = (u, v, 0.25, 1) at texel centres.
static const fxgl_effect *make_vis(bool es) {
    tfx *t = &vis_fx;
    tfx_init(t, "Vis.fx", es);
    int grad = tfx_texture(t, "Vis::Grad", 8, 8, 2, FXGL_FORMAT_RGBA8);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "in vec2 uv;\nlayout(location = 0) out vec4 o;\n"
                        "void main() { o = vec4(uv, 0.25, 1.0); }\n");
    fxgl_pass *p = tfx_pass(t, tfx_technique(t, "Fill"), ps);
    tfx_target(t, p, grad);
    return tfx_finish(t);
}

static const fxgl_effect *make_broken(bool es) {
    tfx *t = &broken_fx;
    tfx_init(t, "Broken.fx", es);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = no_such_function(); }\n");
    tfx_pass(t, tfx_technique(t, "Bad"), ps);
    return tfx_finish(t);
}

static const fxgl_effect *make_sem(bool es) {
    tfx *t = &sem_fx;
    tfx_init(t, "Sem.fx", es);
    int tex = tfx_semantic(t, "Sem::NormalsTex", "NORMALS");
    int smp = tfx_sampler(t, "Sem::Normals", tex, false, false);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "uniform sampler2D Normals;\nin vec2 uv;\n"
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = texture(Normals, uv); }\n");
    tfx_use_sampler(t, ps, smp, "Normals");
    fxgl_pass *p = tfx_pass(t, tfx_technique(t, "UseNormals"), ps);
    int rt = tfx_texture(t, "Sem::Out", 4, 4, 1, FXGL_FORMAT_RGBA8);
    tfx_target(t, p, rt);
    return tfx_finish(t);
}

static const fxgl_effect *make_time(bool es) {
    tfx *t = &time_fx;
    tfx_init(t, "Time.fx", es);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.5); }\n");
    int tech = tfx_technique(t, "Once");
    t->tech[tech].timeout_ms = 20;
    fxgl_pass *p = tfx_pass(t, tech, ps);
    tfx_target(t, p, tfx_texture(t, "Time::Out", 4, 4, 1, FXGL_FORMAT_RGBA8));
    return tfx_finish(t);
}

static const fxgl_effect *make_late(bool es) {
    tfx *t = &late_fx;
    tfx_init(t, "Late.fx", es);
    int ps = tfx_shader(t, FXGL_STAGE_PIXEL, "PS",
                        "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(0.5); }\n");
    fxgl_pass *p = tfx_pass(t, tfx_technique(t, "Later"), ps);
    tfx_target(t, p, tfx_texture(t, "Late::Out", 4, 4, 1, FXGL_FORMAT_RGBA8));
    return tfx_finish(t);
}

static char *dump(fix *f) {
    size_t n = fxgl_inspect_dump(f->in, NULL, 0);
    char *text = malloc(n + 1);
    ck_assert(text);
    ck_assert_uint_eq(fxgl_inspect_dump(f->in, text, n + 1), n);
    ck_assert_uint_eq(strlen(text), n);
    return text;
}

#define HAS(text, s) ck_assert_msg(strstr((text), (s)), "dump lacks \"%s\":\n%s", (s), (text))
#define LACKS(text, s) ck_assert_msg(!strstr((text), (s)), "dump has \"%s\":\n%s", (s), (text))

// --- dump ---

START_TEST(dump_content) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 16, 16);
        fxgl_runtime_add_effect(f.rt, make_inv(es), NULL);      // 0
        fxgl_runtime_add_effect(f.rt, make_broken(es), NULL);   // 1
        fxgl_runtime_add_effect(f.rt, make_sem(es), NULL);      // 2
        fxgl_runtime_add_effect(f.rt, make_time(es), NULL);     // 3
        fxgl_inspect_add_failed(f.in, "Missing.fx", "Missing.fx(3,7): error: undeclared "
                                "identifier 'foo'\nMissing.fx(4,1): note: here");
        fxgl_inspect_set_preset(f.in, "My.ini");
        ck_assert(fxgl_runtime_set_enabled(f.rt, 0, 1, false)); // Inv.fx/Two off
        for (int i = 0; i < 4; i++) {
            fix_frame(&f); // Time.fx/Once: 20 ms - 0 (first frame) - 16 - 16 < 0: 3 frames
        }
        expect(&f, px_inverted, 1, "Invert ran");
        fxgl_runtime_add_effect(f.rt, make_late(es), NULL);     // 4, pending
        char *t = dump(&f);
        HAS(t, "fxgl dump: frame 4, 16x16, preset 'My.ini', effects on\n");
        HAS(t, f.es ? "context: OpenGL ES 3." : "context: OpenGL 4.");
        HAS(t, "  technique Invert: ran, gpu ");
        HAS(t, "ms, 4 frames\n    pass 0: gpu ");
        HAS(t, "  technique Two: skipped: disabled\n");
        HAS(t, "effect 1 Broken.fx: failed: ");
        HAS(t, "  technique Bad: skipped: effect failed to load: ");
        HAS(t, "no_such_function"); // the driver's diagnostic, as the runtime kept it
        HAS(t, "effect 2 Sem.fx: loaded\n  missing semantic NORMALS: nothing provides it, "
               "'Sem::NormalsTex' reads zero\n  texture Sem::NormalsTex: semantic NORMALS\n"
               "  texture Sem::Out: 4x4, 1 level, RGBA8, render target\n"
               "  technique UseNormals: ran");
        HAS(t, "effect 0 Inv.fx: loaded\n  texture ReShade::BackBufferTex: semantic COLOR\n");
        HAS(t, "  technique Once: skipped: timeout (its 20 ms ran out after 3 frames)\n");
        HAS(t, "effect 4 Late.fx: pending load\n  texture Late::Out: 4x4, 1 level, RGBA8, "
               "render target\n  technique Later: skipped: pending load");
        HAS(t, "effect - Missing.fx: compile error\n"
               "  diagnostic: Missing.fx(3,7): error: undeclared identifier 'foo'\n"
               "  diagnostic: Missing.fx(4,1): note: here\n");
        HAS(t, "effects: 5 (3 ready, 1 failed, 1 pending), 1 failed to compile; techniques: 6, "
               "2 ran last frame\n");
        // No share group here: everything made by this runtime.
        HAS(t, " programs linked, 0 from the share group; ");
        HAS(t, " images uploaded, 0 from the share group\n");
        HAS(t, "overlay: off\n");

        // Control shows in the dump; the file is written atomically.
        char reply[256];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "disable Inv.fx/Invert", reply,
                                              sizeof(reply)), FXGL_COMMAND_DONE);
        ck_assert_str_eq(reply, "disabled 1 technique");
        fix_frame(&f);
        expect(&f, px_input, 0, "Invert disabled by control");
        free(t);
        t = dump(&f);
        HAS(t, "  technique Invert: skipped: disabled (by control)\n");
        char path[400], reason[300];
        snprintf(path, sizeof(path), "%s/dump.txt", f.dir);
        ck_assert_msg(fxgl_inspect_dump_file(f.in, path, reason, sizeof(reason)), "%s", reason);
        FILE *file = fopen(path, "r");
        ck_assert(file);
        char *back = calloc(1, strlen(t) + 16);
        size_t got = fread(back, 1, strlen(t) + 15, file);
        fclose(file);
        ck_assert_uint_eq(got, strlen(t));
        ck_assert_str_eq(back, t);
        char tmp[500];
        snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
        ck_assert_int_ne(access(tmp, F_OK), 0);
        // An unwritable place: a reason, no file.
        snprintf(path, sizeof(path), "%s/no/such/dir/dump.txt", f.dir);
        ck_assert(!fxgl_inspect_dump_file(f.in, path, reason, sizeof(reason)));
        ck_assert_msg(strstr(reason, "No such file"), "%s", reason);
        free(back);
        free(t);
        fix_finish(&f);
    }
}
END_TEST

START_TEST(dump_below_minimum) {
    fxgl_gl_info info = {.api = FXGL_API_GL, .major = 3, .minor = 3, .core_profile = true,
                         .meets_minimum = false};
    snprintf(info.renderer, sizeof(info.renderer), "old card");
    char buf[512];
    size_t n = fxgl_inspect_dump_context(&info, buf, sizeof(buf));
    ck_assert_uint_eq(n, strlen(buf));
    HAS(buf, "context: OpenGL 3.3 core, 'old card', timer queries no\n");
    HAS(buf, "skipped: below minimum GL (needs OpenGL 4.3 or OpenGL ES 3.0): every frame "
             "passes through untouched\n");
    // Truncation keeps the length of the whole.
    char small[8];
    ck_assert_uint_eq(fxgl_inspect_dump_context(&info, small, sizeof(small)), n);
    ck_assert_uint_eq(strlen(small), 7);
}
END_TEST

// --- visualise ---

// Grad's level 0 at texel (tx, ty), top-down: (tx + 0.5) / 8, (ty + 0.5) / 8.
static double grad0(int tx, int ty, int c) {
    return c == 0 ? (tx + 0.5) / 8 : c == 1 ? (ty + 0.5) / 8 : c == 2 ? 0.25 : 1.0;
}

// Level 1 (4x4): the 2x2 box average of level 0, each texel stored as a byte first.
static double grad1(int tx, int ty, int c) {
    int sum = 0;
    for (int k = 0; k < 4; k++) {
        sum += to_byte(grad0(tx * 2 + (k & 1), ty * 2 + (k >> 1), c));
    }
    return sum / 4.0 / 255.0;
}

static int px_full_mip0(const fix *f, int x, int y, int c) {
    // 16x16 frame over 8x8 texels: pixel x covers texel x / 2.
    (void)f;
    return to_byte(grad0(x / 2, y / 2, c));
}

static int px_full_mip1_green(const fix *f, int x, int y, int c) {
    (void)f;
    return c == 3 ? 255 : to_byte(grad1(x / 4, y / 4, 1)); // g as grey, opaque
}

static int px_corner_tl_rb(const fix *f, int x, int y, int c) {
    // Top-left 8x8 at 1:1; red and blue kept, green 0, alpha opaque.
    if (x >= 8 || y >= 8) {
        return px_input(f, x, y, c);
    }
    return c == 1 ? 0 : c == 3 ? 255 : to_byte(grad0(x, y, c));
}

START_TEST(visualise_pixels) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 16, 16);
        fxgl_runtime_add_effect(f.rt, make_vis(es), NULL);
        char reason[300];
        ck_assert_msg(fxgl_inspect_visualise(f.in, "Vis.fx:Grad@0,full", reason, sizeof(reason)),
                      "%s", reason);
        fix_frame(&f);
        expect(&f, px_full_mip0, 1, "Grad level 0 full-screen");
        ck_assert(fxgl_inspect_visualise(f.in, "Vis.fx:Vis::Grad@1,g,full", reason,
                                         sizeof(reason)));
        fix_frame(&f);
        expect(&f, px_full_mip1_green, 2, "Grad level 1, green as grey");
        ck_assert(fxgl_inspect_visualise(f.in, "Vis.fx:Grad@rb,tl", reason, sizeof(reason)));
        fix_frame(&f);
        expect(&f, px_corner_tl_rb, 1, "Grad in the top-left corner, red and blue");

        // Bad specifications: a clear reason, the visualisation unchanged.
        static const struct {
            const char *spec, *reason;
        } bad[] = {
            {"Nope.fx:Grad", "no effect named 'Nope.fx' is loaded"},
            {"Vis.fx:Nope", "effect 'Vis.fx' has no texture named 'Nope'"},
            {"Vis.fx:Grad@2", "mip 2 out of range (texture has 2 levels)"},
            {"Vis.fx:Grad@xyz", "bad option 'xyz'"},
            {"Vis.fx", "expected Effect.fx:Texture[@mip,channels,corner,slice=N,scale=X]"},
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            ck_assert(!fxgl_inspect_visualise(f.in, bad[i].spec, reason, sizeof(reason)));
            ck_assert_msg(strstr(reason, bad[i].reason), "%s: %s", bad[i].spec, reason);
        }
        char reply[300];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "visualise Vis.fx:Bad", reply,
                                              sizeof(reply)), FXGL_COMMAND_ERROR);
        ck_assert_msg(strstr(reply, "nothing changed"), "%s", reply);
        fix_frame(&f);
        expect(&f, px_corner_tl_rb, 1, "unchanged after bad names");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "visualise off", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        fix_frame(&f);
        expect(&f, px_input, 0, "visualisation off");
        fix_finish(&f);
    }
}
END_TEST

// --- visualise: integer and 3D textures ---
//
// Num.fx: U (R32U, 8x4) and I (RGBA32I, 8x4) written by pixel passes from
// their texel coordinates; V (R32U, 4x4x3) written by a compute pass with
// a 3D image; L (RGBA32F, 4x4x4) loaded from a .cube written here; D (1D,
// RGBA32F, 4) from a 1D .cube. The values are functions of the texel
// coordinates, computed again below; the expected bytes follow the
// documented mapping: value / scale (255 by default for integers, 1 for
// floats), clamped to 0..1, times 255; a channel the format lacks reads 0,
// a missing alpha full.

static tfx num_fx;
static char num_cube3[400], num_cube1[400];

static long num_u(int x, int y) {
    return x * 40L + y * 7L + 3; // 3..304: clamps past 255
}

static long num_i(int x, int y, int c) {
    long v[4] = {x * 30L - 50, y * 60L + 10, 90 - x * 25L, 200};
    return v[c];
}

static long num_v(int x, int y, int z) {
    return x * 20L + y * 50L + z * 70L; // 0..350
}

static double num_l(int x, int y, int z, int c) {
    double v[4] = {x / 3.0, y / 3.0, (z + 0.5) / 4.0, 1.0};
    return v[c];
}

static double num_d(int x, int c) {
    double v[4] = {x / 3.0, 1.0 - x / 3.0, 0.5, 1.0};
    return v[c];
}

static void write_cubes(const char *dir) {
    snprintf(num_cube3, sizeof(num_cube3), "%s/num3.cube", dir);
    snprintf(num_cube1, sizeof(num_cube1), "%s/num1.cube", dir);
    FILE *f = fopen(num_cube3, "w");
    ck_assert(f);
    fprintf(f, "LUT_3D_SIZE 4\n");
    for (int z = 0; z < 4; z++) {
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) { // red changes fastest
                fprintf(f, "%.9f %.9f %.9f\n", num_l(x, y, z, 0), num_l(x, y, z, 1),
                        num_l(x, y, z, 2));
            }
        }
    }
    ck_assert_int_eq(fclose(f), 0);
    f = fopen(num_cube1, "w");
    ck_assert(f);
    fprintf(f, "LUT_1D_SIZE 4\n");
    for (int x = 0; x < 4; x++) {
        fprintf(f, "%.9f %.9f %.9f\n", num_d(x, 0), num_d(x, 1), num_d(x, 2));
    }
    ck_assert_int_eq(fclose(f), 0);
}

static const fxgl_effect *make_num(bool es) {
    tfx *t = &num_fx;
    tfx_init(t, "Num.fx", es);
    int u = tfx_texture(t, "Num::U", 8, 4, 1, FXGL_FORMAT_R32U);
    int i = tfx_texture(t, "Num::I", 8, 4, 1, FXGL_FORMAT_RGBA32I);
    int v = tfx_texture(t, "Num::V", 4, 4, 1, FXGL_FORMAT_R32U);
    t->tex[v].dim = FXGL_TEXTURE_3D;
    t->tex[v].depth = 3;
    int l = tfx_texture(t, "Num::L", 4, 4, 1, FXGL_FORMAT_RGBA32F);
    t->tex[l].dim = FXGL_TEXTURE_3D;
    t->tex[l].depth = 4;
    t->tex[l].source = num_cube3;
    int d = tfx_texture(t, "Num::D", 4, 1, 1, FXGL_FORMAT_RGBA32F);
    t->tex[d].dim = FXGL_TEXTURE_1D;
    t->tex[d].source = num_cube1;
    int tech = tfx_technique(t, "Fill");
    int wu = tfx_shader(t, FXGL_STAGE_PIXEL, "WriteU",
                        "layout(location = 0) out uvec4 o;\n"
                        "void main() { ivec2 q = ivec2(gl_FragCoord.xy);\n"
                        "  o = uvec4(uint(q.x * 40 + q.y * 7 + 3), 0u, 0u, 0u); }\n");
    tfx_target(t, tfx_pass(t, tech, wu), u);
    int wi = tfx_shader(t, FXGL_STAGE_PIXEL, "WriteI",
                        "layout(location = 0) out ivec4 o;\n"
                        "void main() { ivec2 q = ivec2(gl_FragCoord.xy);\n"
                        "  o = ivec4(q.x * 30 - 50, q.y * 60 + 10, 90 - q.x * 25, 200); }\n");
    tfx_target(t, tfx_pass(t, tech, wi), i);
    int vs = tfx_storage(t, "Num::VS", v, 0);
    t->sto[vs].element = FXGL_SCALAR_UINT;
    t->sto[vs].element_count = 1;
    int cs = tfx_shader(t, FXGL_STAGE_COMPUTE, "WriteV",
                        "%slayout(local_size_x = 4, local_size_y = 4, local_size_z = 3) in;\n"
                        "layout(r32ui, binding = 0) uniform writeonly highp uimage3D VS;\n"
                        "void main() { ivec3 p = ivec3(gl_GlobalInvocationID);\n"
                        "  imageStore(VS, p, uvec4(uint(p.x * 20 + p.y * 50 + p.z * 70))); }\n",
                        es ? "precision highp uimage3D;\n" : "");
    tfx_use_storage(t, cs, vs, 0, "VS");
    tfx_compute(t, tech, cs, 1, 1);
    return tfx_finish(t);
}

static int byte_of(double v, double scale) {
    return to_byte(v / scale);
}

// The frame is 16x16; full-screen, pixel (x, y) shows texel (x * w / 16, y * h / 16).
static int px_u_full(const fix *f, int x, int y, int c) {
    (void)f;
    long v[4] = {num_u(x / 2, y / 4), 0, 0, 0};
    return c == 3 ? 255 : byte_of((double)v[c], 255.0); // R32U: alpha reads full
}

static int px_i_rb_scale(const fix *f, int x, int y, int c) {
    (void)f;
    // "rb,scale=100": red and blue kept, green 0, alpha opaque.
    return c == 1 ? 0 : c == 3 ? 255 : byte_of((double)num_i(x / 2, y / 4, c), 100.0);
}

static int px_i_g(const fix *f, int x, int y, int c) {
    (void)f;
    return c == 3 ? 255 : byte_of((double)num_i(x / 2, y / 4, 1), 255.0); // grey
}

static int px_v_slice2(const fix *f, int x, int y, int c) {
    (void)f;
    return c == 3 ? 255 : c == 0 ? byte_of((double)num_v(x / 4, y / 4, 2), 255.0) : 0;
}

static int px_v_slice1_tl(const fix *f, int x, int y, int c) {
    // Top-left corner: 8x8 (half the frame, square like the texture), grey of r / 350.
    if (x >= 8 || y >= 8) {
        return px_input(f, x, y, c);
    }
    return c == 3 ? 255 : byte_of((double)num_v(x / 2, y / 2, 1), 350.0);
}

static int px_l_slice3(const fix *f, int x, int y, int c) {
    (void)f;
    return c == 3 ? 255 : to_byte(num_l(x / 4, y / 4, 3, c));
}

static int px_d_br(const fix *f, int x, int y, int c) {
    // Bottom-right corner, 8x8 filled by the 4 texels, one per 2 columns.
    if (x < 8 || y < 8) {
        return px_input(f, x, y, c);
    }
    return c == 3 ? 255 : to_byte(num_d((x - 8) / 2, c));
}

START_TEST(visualise_integer_and_3d) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 16, 16);
        write_cubes(f.dir);
        fxgl_runtime_add_effect(f.rt, make_num(es), NULL);
        char reason[300];
        // Tolerance 0 where value / 255 * 255 is the integer itself (a default
        // scale of 256 would be off by one there); 1 where the product ends in .5.
        static const struct {
            const char *spec;
            want_fn want;
            int tolerance;
            const char *what;
        } good[] = {
            {"Num.fx:U@full", px_u_full, 0, "R32U, default scale 255"},
            {"Num.fx:Num::I@full,rb,scale=100", px_i_rb_scale, 1, "RGBA32I red and blue / 100"},
            {"Num.fx:I@g,full", px_i_g, 0, "RGBA32I green as grey"},
            {"Num.fx:V@slice=2,full", px_v_slice2, 0, "3D R32U, slice 2"},
            {"Num.fx:V@r,tl,scale=350,slice=1", px_v_slice1_tl, 1,
             "3D R32U slice 1 / 350, top left"},
            {"Num.fx:L@full,slice=3,rgb", px_l_slice3, 1, "3D RGBA32F, slice 3"},
            {"Num.fx:D@br,rgb", px_d_br, 1, "1D RGBA32F, bottom right"},
        };
        for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
            ck_assert_msg(fxgl_inspect_visualise(f.in, good[k].spec, reason, sizeof(reason)),
                          "%s: %s", good[k].spec, reason);
            fix_frame(&f);
            expect(&f, good[k].want, good[k].tolerance, good[k].what);
        }

        // Bad specifications: a reason naming the bad part, the visualisation unchanged.
        static const struct {
            const char *spec, *reason;
        } bad[] = {
            {"Num.fx:Nope@slice=1", "effect 'Num.fx' has no texture named 'Nope'"},
            {"Num.fx:V@slice=3", "slice 3 out of range (texture has 3 slices at mip 0)"},
            {"Num.fx:U@slice=1", "slice 1 given, but 'Num::U' is not a 3D texture"},
            {"Num.fx:V@slice=-1", "bad slice '-1'"},
            {"Num.fx:U@scale=0", "bad scale '0'"},
            {"Num.fx:U@scale=x", "bad scale 'x'"},
            {"Num.fx:U@1", "mip 1 out of range (texture has 1 level)"},
        };
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
            ck_assert(!fxgl_inspect_visualise(f.in, bad[k].spec, reason, sizeof(reason)));
            ck_assert_msg(strstr(reason, bad[k].reason), "%s: %s", bad[k].spec, reason);
        }
        char reply[300];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "visualise Num.fx:Nope@scale=2", reply,
                                              sizeof(reply)), FXGL_COMMAND_ERROR);
        ck_assert_str_eq(reply, "error: visualise 'Num.fx:Nope@scale=2': effect 'Num.fx' has no "
                                "texture named 'Nope'; nothing changed");
        fix_frame(&f);
        expect(&f, px_d_br, 1, "unchanged after bad specifications");
        char *t = dump(&f);
        HAS(t, "  texture Num::V: 4x4x3, 1 level, R32U\n");
        HAS(t, "visualise: Num.fx:D@br,rgb\n");
        free(t);
        fix_finish(&f);
    }
}
END_TEST

// The environment's form is applied at the first frame (effects known by then).
START_TEST(visualise_from_desc) {
    fix f;
    fix_init(&f, false, 16, 16);
    fxgl_inspect_destroy(f.in);
    fxgl_inspect_desc id = {.visualise = "Vis.fx:Grad@full"};
    f.in = fxgl_inspect_create(f.rt, &id);
    fxgl_runtime_add_effect(f.rt, make_vis(false), NULL);
    fix_frame(&f);
    expect(&f, px_full_mip0, 1, "FXGL_VISUALISE form");
    fix_finish(&f);
}
END_TEST

// --- control ---

START_TEST(control_commands) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 16, 16);
        fxgl_runtime_add_effect(f.rt, make_inv(es), NULL);
        ck_assert(fxgl_runtime_set_enabled(f.rt, 0, 1, false));
        fix_frame(&f);
        expect(&f, px_inverted, 1, "before");
        char reply[300];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "disable all", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        fix_frame(&f); // the next frame already
        expect(&f, px_input, 0, "disable all");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "enable all", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        fix_frame(&f);
        expect(&f, px_inverted, 1, "enable all");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "  toggle\n", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_str_eq(reply, "effects off");
        fix_frame(&f);
        expect(&f, px_input, 0, "toggle off");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "toggle", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "disable Inv.fx", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_str_eq(reply, "disabled 1 technique"); // Two was off already
        fix_frame(&f);
        expect(&f, px_input, 0, "disable Inv.fx");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "enable all", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_str_eq(reply, "effects on (1 technique re-enabled)");
        fix_frame(&f);
        expect(&f, px_inverted, 1, "enable all after a list");

        // Malformed: an error, nothing changed (a good name before a bad one included).
        static const char *const bad[] = {
            "disable Invert,Nope.fx", "disable", "frobnicate", "overlay maybe",
            "screenshot twice", "preset sideways", "reload now", "", "dis\001able all",
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            ck_assert_int_eq(fxgl_inspect_command(f.in, bad[i], reply, sizeof(reply)),
                             FXGL_COMMAND_ERROR);
            ck_assert_msg(strncmp(reply, "error: ", 7) == 0, "%s: %s", bad[i], reply);
        }
        fix_frame(&f);
        expect(&f, px_inverted, 1, "malformed commands changed nothing");
        ck_assert_int_eq(fxgl_inspect_command(f.in, "reload", reply, sizeof(reply)),
                         FXGL_COMMAND_RELOAD);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "preset next", reply, sizeof(reply)),
                         FXGL_COMMAND_PRESET_NEXT);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "PRESET prev", reply, sizeof(reply)),
                         FXGL_COMMAND_PRESET_PREV);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "performance", reply, sizeof(reply)),
                         FXGL_COMMAND_PERFORMANCE);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "status", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_str_eq(reply, "effects on, 1 of 2 techniques ran last frame, overlay off, "
                                "visualise off");
        fix_finish(&f);
    }
}
END_TEST

// --- overlay ---

// The first three characters of the panel, "fxg", written out by hand.
static const char *const glyph_f[7] = {"..##.", ".#..#", ".#...", "###..", ".#...", ".#...",
                                       ".#..."};
static const char *const glyph_x[7] = {".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.",
                                       "#...#"};
static const char *const glyph_g[7] = {".....", ".####", "#...#", "#...#", ".####", "....#",
                                       ".###."};

static int px_panel_start(const fix *f, int x, int y, int c) {
    // Padding 2, cells 6x9: glyph pixels lit white, the rest 40% of the frame.
    const char *const *glyphs[3] = {glyph_f, glyph_x, glyph_g};
    int gx = x - 2, gy = y - 2;
    if (gx >= 0 && gx < 18 && gy >= 0 && gy < 7 && gx % 6 < 5 &&
        glyphs[gx / 6][gy][gx % 6] == '#') {
        return c == 3 ? -1 : 255;
    }
    if (y >= 11 || x >= 20) {
        return -1; // past "fxg": statistics change from run to run
    }
    return c == 3 ? -1 : (int)lround(px_input(f, x, y, c) * 0.4);
}

START_TEST(overlay_glyphs) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 64, 48);
        fxgl_runtime_add_effect(f.rt, make_vis(es), NULL);
        char reply[200];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "overlay on", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert(fxgl_inspect_overlay_is_on(f.in));
        fix_frame(&f);
        fix_frame(&f);
        expect(&f, px_panel_start, 1, "overlay: \"fxg\" over a 60% black panel");
        // The font accessor agrees with the hand-written rows.
        for (int r = 0; r < 7; r++) {
            uint8_t want = 0;
            for (int x = 0; x < 5; x++) {
                want = (uint8_t)(want << 1 | (glyph_g[r][x] == '#'));
            }
            ck_assert_uint_eq(fxgl_inspect_font_row('g', r), want);
        }
        ck_assert_uint_eq(fxgl_inspect_font_row('\x7f', 0), 0);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "overlay toggle", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        fix_frame(&f);
        expect(&f, px_input, 0, "overlay off");
        fix_finish(&f);
    }
}
END_TEST

// --- screenshots ---

static void find_shot(const fix *f, const char *suffix, char *path, size_t size) {
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "ls '%s' | grep -e '^test-inspect_Shot_[0-9]\\{8\\}-[0-9]\\{6\\}-"
             "[0-9]\\{3\\}%s\\.png$'", f->dir, suffix);
    FILE *p = popen(cmd, "r");
    ck_assert(p);
    char name[300] = "";
    ck_assert_msg(fgets(name, sizeof(name), p), "no screenshot%s in %s\nlog:\n%s", suffix, f->dir,
                  f->log);
    pclose(p);
    name[strcspn(name, "\n")] = 0;
    snprintf(path, size, "%s/%s", f->dir, name);
}

START_TEST(screenshot_matches_frame) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 40, 24);
        fxgl_runtime_add_effect(f.rt, make_inv(es), NULL);
        ck_assert(fxgl_runtime_set_enabled(f.rt, 0, 1, false));
        fxgl_inspect_set_preset(f.in, "/some/where/Shot.ini");
        fix_frame(&f);
        char reply[200];
        ck_assert_int_eq(fxgl_inspect_command(f.in, "screenshot both", reply, sizeof(reply)),
                         FXGL_COMMAND_DONE);
        ck_assert_int_eq(fxgl_inspect_command(f.in, "screenshot", reply, sizeof(reply)),
                         FXGL_COMMAND_ERROR); // one at a time
        fix_frame(&f);
        fxgl_image presented;
        fix_read(&f, &presented);
        fix_frame(&f); // a later frame collects the readback if the fence has signalled
        fxgl_inspect_screenshot_wait(f.in);
        char with[700], without[700];
        find_shot(&f, "", with, sizeof(with));
        find_shot(&f, "_noeffects", without, sizeof(without));
        ck_assert_str_eq(fxgl_inspect_last_screenshot(f.in), with);
        fxgl_image a, b;
        ck_assert(fxgl_image_load_png(&a, with));
        ck_assert(fxgl_image_load_png(&b, without));
        ck_assert_int_eq(a.width, f.w);
        ck_assert_int_eq(a.height, f.h);
        fxgl_image_diff d;
        ck_assert_msg(fxgl_image_compare(&a, &presented, 0, &d), "screenshot differs from the "
                      "presented frame: max %d at (%d,%d)", d.max_diff, d.first_x, d.first_y);
        ck_assert_msg(fxgl_image_compare(&b, &f.input, 0, &d), "screenshot without effects "
                      "differs from the input: max %d at (%d,%d)", d.max_diff, d.first_x,
                      d.first_y);
        // And the presented frame is the inverted one (the effect did run).
        expect(&f, px_inverted, 1, "inverted");
        char cmd[400];
        snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c tmp", f.dir);
        FILE *p = popen(cmd, "r");
        char count[16] = "";
        ck_assert(fgets(count, sizeof(count), p));
        pclose(p);
        ck_assert_str_eq(count, "0\n"); // no temporary files left
        fxgl_image_free(&a);
        fxgl_image_free(&b);
        fxgl_image_free(&presented);
        fix_finish(&f);
    }
}
END_TEST

// A multisampled application framebuffer: the screenshot is the resolved,
// inverted clear colour everywhere.
START_TEST(screenshot_multisampled) {
    for (int es = 0; es < 2; es++) {
        fix f;
        fix_init(&f, es, 24, 16);
        GladGLContext *gl = f.gl;
        GLuint fbo, rb;
        gl->GenRenderbuffers(1, &rb);
        gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, f.w, f.h);
        gl->GenFramebuffers(1, &fbo);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        fxgl_runtime_add_effect(f.rt, make_inv(es), NULL);
        ck_assert(fxgl_runtime_set_enabled(f.rt, 0, 1, false));
        fxgl_inspect_set_preset(f.in, "Shot");
        ck_assert(fxgl_inspect_screenshot(f.in, true));
        for (int i = 0; i < 2; i++) {
            gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
            gl->ClearColor(0.25f, 0.5f, 0.75f, 1.0f); // bytes 64, 128, 191
            gl->Clear(GL_COLOR_BUFFER_BIT);
            fxgl_frame_desc d = {.width = f.w, .height = f.h, .framebuffer = fbo, .time = f.time};
            f.time += 0.016;
            ck_assert(fxgl_inspect_frame(f.in, &d));
            ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        }
        fxgl_inspect_screenshot_wait(f.in);
        char with[700], without[700];
        find_shot(&f, "", with, sizeof(with));
        find_shot(&f, "_noeffects", without, sizeof(without));
        fxgl_image a, b;
        ck_assert(fxgl_image_load_png(&a, with));
        ck_assert(fxgl_image_load_png(&b, without));
        static const int clear[3] = {64, 128, 191};
        for (int y = 0; y < f.h; y++) {
            for (int x = 0; x < f.w; x++) {
                for (int c = 0; c < 3; c++) {
                    ck_assert_msg(abs(fxgl_image_at(&a, x, y)[c] - (255 - clear[c])) <= 1,
                                  "%s: (%d,%d) %d", with, x, y, fxgl_image_at(&a, x, y)[c]);
                    ck_assert_msg(abs(fxgl_image_at(&b, x, y)[c] - clear[c]) <= 1,
                                  "%s: (%d,%d) %d", without, x, y, fxgl_image_at(&b, x, y)[c]);
                }
            }
        }
        fxgl_image_free(&a);
        fxgl_image_free(&b);
        gl->DeleteFramebuffers(1, &fbo);
        gl->DeleteRenderbuffers(1, &rb);
        fix_finish(&f);
    }
}
END_TEST

// --- a layer abandoned with its context ---

// fxgl_inspect_abandon must not make a single GL call (the interposer calls
// it when the context is gone): with every entry point of the GL table
// zeroed, one call would crash the test. Visualise's program, the overlay's
// and a screenshot readback in flight all exist at that point.
START_TEST(abandon_without_gl) {
    fix f;
    fix_init(&f, false, 16, 16);
    fxgl_runtime_add_effect(f.rt, make_vis(false), NULL);
    char reason[300];
    ck_assert_msg(fxgl_inspect_visualise(f.in, "Vis.fx:Grad@tl", reason, sizeof(reason)), "%s",
                  reason);
    fxgl_inspect_overlay(f.in, true);
    fix_frame(&f);
    ck_assert(fxgl_inspect_screenshot(f.in, true));
    fix_frame(&f); // the readbacks start: PBOs and fences in flight
    GladGLContext saved = *f.gl;
    memset(f.gl, 0, sizeof(*f.gl));
    fxgl_inspect_abandon(f.in);
    *f.gl = saved;
    f.in = NULL;
    ck_assert_int_eq(f.gl->GetError(), GL_NO_ERROR);
    fix_finish(&f); // the runtime still works on its context
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GL)) {
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("inspect");
    TCase *tc = tcase_create("inspect");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dump_content);
    tcase_add_test(tc, dump_below_minimum);
    tcase_add_test(tc, visualise_pixels);
    tcase_add_test(tc, visualise_from_desc);
    tcase_add_test(tc, visualise_integer_and_3d);
    tcase_add_test(tc, control_commands);
    tcase_add_test(tc, overlay_glyphs);
    tcase_add_test(tc, screenshot_matches_frame);
    tcase_add_test(tc, screenshot_multisampled);
    tcase_add_test(tc, abandon_without_gl);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
