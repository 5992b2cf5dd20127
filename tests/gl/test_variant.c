/*
 * test_variant.c - specialised programs (src/gl/variant.c).
 *
 *  - builtin_equal: every effect of data/shaders, compiled by fxgl's compiler, runs in two
 *    runtimes on one context over the same input and the same frame times: one that
 *    specialises (a worker on a shared context) and one that never does. Once every pass
 *    of the first runs its specialised program, both frames must be identical (a channel
 *    may be 1 apart on at most 0.5 % of channels: folded constants round on their own), at the
 *    default values and again after every user value changed (the frame of the change runs
 *    the editable programs; after the settle time the specialised ones again).
 *  - next_frame: a small effect writes its user value to red and its `timer` special to
 *    green. A value set through fxgl_runtime_set_uniform shows on the very next frame
 *    (the editable program), then the specialised program comes back with the same pixel;
 *    the timer keeps moving in the specialised program (special values are never baked);
 *    the frame thread compiles and links nothing after the load frame.
 *  - opt_out: no_specialise (FXGL_SPECIALISE=0 in the hosts) and a runtime without worker
 *    never leave the editable programs.
 * Expected pixels in next_frame are computed from the values written (value * 255
 * rounded); the equality tests compare against the editable path, which test_runtime
 * checks against independent values.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glad/gl.h>

#include "fxgl_effects.h"
#include "fxgl_gl.h"
#include "fxgl_test.h"

#define W 64
#define H 48
#define WAIT_S 180.0             // worker compiles on a loaded 2-core machine

typedef struct fix {
    fxgl_test_egl *egl, *worker;
    GladGLContext *gl;
    GLuint tex, fbo;
    uint8_t in[W * H * 4];
    double time;
} fix;

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool worker_current(void *user) {
    return fxgl_test_egl_make_current(user);
}

static void worker_release(void *user) {
    fxgl_test_egl_release(user);
}

static void fix_init(fix *f, bool es) {
    memset(f, 0, sizeof(*f));
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    f->egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(f->egl, "%s", reason);
    f->worker = fxgl_test_egl_create_shared(f->egl, reason, sizeof(reason));
    ck_assert_msg(f->worker, "%s", reason);
    f->gl = fxgl_test_egl_gl(f->egl);
    GladGLContext *gl = f->gl;
    gl->GenTextures(1, &f->tex);
    gl->BindTexture(GL_TEXTURE_2D, f->tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    gl->GenFramebuffers(1, &f->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->tex, 0);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint8_t *p = f->in + ((size_t)y * W + (size_t)x) * 4;
            p[0] = (uint8_t)(x * 255 / W);
            p[1] = (uint8_t)(y * 255 / H);
            p[2] = (uint8_t)((x * 7 + y * 13) & 255);
            p[3] = 255;
        }
    }
}

static void fix_finish(fix *f) {
    f->gl->DeleteFramebuffers(1, &f->fbo);
    f->gl->DeleteTextures(1, &f->tex);
    fxgl_test_egl_destroy(f->worker);
    fxgl_test_egl_destroy(f->egl);
}

static fxgl_runtime *make_runtime(fix *f, bool specialise) {
    fxgl_runtime_desc rd = {.random_seed = 7, .specialise_settle_s = 0.3};
    if (specialise) {
        rd.worker = (fxgl_runtime_worker){.gl = fxgl_test_egl_gl(f->worker),
                                          .make_current = worker_current,
                                          .release = worker_release,
                                          .user = f->worker};
    }
    fxgl_runtime *rt = fxgl_runtime_create(f->gl, fxgl_test_egl_info(f->egl), &rd);
    ck_assert(rt);
    return rt;
}

// The input drawn again, one frame of rt at the fixture's time, the result read back.
static void frame(fix *f, fxgl_runtime *rt, uint8_t *out) {
    GladGLContext *gl = f->gl;
    gl->BindTexture(GL_TEXTURE_2D, f->tex);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, f->in);
    fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = f->fbo, .time = f->time};
    ck_assert(fxgl_runtime_frame(rt, &d));
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo);
    gl->ReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, out);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
}

// Every loaded pass of effect 0 runs variant v.
static bool all_passes(fxgl_runtime *rt, fxgl_pass_variant v, const fxgl_effect *fx) {
    size_t n = 0;
    for (size_t t = 0; t < fx->technique_count; t++) {
        for (size_t p = 0; p < fx->techniques[t].pass_count; p++) {
            fxgl_pass_variant got = fxgl_runtime_pass_variant(rt, 0, t, p);
            if (got != FXGL_VARIANT_NONE) {
                n++;
                if (got != v) {
                    return false;
                }
            }
        }
    }
    return n > 0;
}

static bool has_user_values(const fxgl_effect *fx) {
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (u->special == FXGL_SPECIAL_NONE && !u->array_length && u->cols == 1 &&
            u->scalar != FXGL_SCALAR_STRING) {
            return true;
        }
    }
    return false;
}

static int max_diff(const uint8_t *a, const uint8_t *b, int *at, int *count) {
    int m = 0;
    *count = 0;
    for (int i = 0; i < W * H * 4; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        *count += d != 0;
        if (d > m) {
            m = d;
            *at = i;
        }
    }
    return m;
}

// Frames of both runtimes in step until rt_spec's passes all run variant v (or the wait
// runs out); then one more step whose frames must be identical.
static void step_until(fix *f, fxgl_runtime *spec, fxgl_runtime *plain, const fxgl_effect *fx,
                       fxgl_pass_variant v, const char *what, const char *file) {
    static uint8_t a[W * H * 4], b[W * H * 4];
    double t0 = wall();
    while (!all_passes(spec, v, fx)) {
        ck_assert_msg(wall() - t0 < WAIT_S, "%s: %s: no %s variant after %.0f s", file, what,
                      v == FXGL_VARIANT_SPECIALISED ? "specialised" : "editable", WAIT_S);
        f->time += 0.1;
        frame(f, spec, a);
        frame(f, plain, b);
    }
    f->time += 0.1;
    frame(f, spec, a);
    frame(f, plain, b);
    ck_assert_msg(all_passes(spec, v, fx), "%s: %s: variant changed", file, what);
    // A value folded into the program may round one ulp apart from the same arithmetic on
    // a uniform (the compiler evaluates the constant part itself). A channel whose float
    // lands on a rounding boundary then differs by 1: seen once, in a fresh-clone distcheck, in
    // FilmGrain, whose noise moves with the frame time (and how many frames the worker's
    // wait took). A wrong value, branch or constant differs by more, or on more channels.
    int at = 0, count = 0;
    int d = max_diff(a, b, &at, &count);
    ck_assert_msg(d <= 1 && count * 200 <= W * H * 4,
                  "%s: %s: specialised and editable frames differ by %d at pixel (%d, %d) "
                  "channel %d: %d against %d (%d channel(s) differ)", file, what, d,
                  at / 4 % W, at / 4 / W, at % 4, a[at], b[at], count);
    if (d) {
        printf("%s: %s: %d channel(s) one apart (rounding of folded constants)\n", file, what,
               count);
    }
}

// Every user value changed: floats scaled and shifted, ints and uints moved by one, bools
// flipped (a branch the change takes must give the same pixels in both programs too).
static void change_values(fxgl_runtime *rt, const fxgl_effect *fx) {
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (u->special != FXGL_SPECIAL_NONE || u->array_length || u->cols != 1 ||
            u->scalar == FXGL_SCALAR_STRING) {
            continue;
        }
        fxgl_value v = u->initializer;
        v.scalar = u->scalar;
        v.count = u->rows;
        for (int c = 0; c < u->rows; c++) {
            if (u->scalar == FXGL_SCALAR_FLOAT) {
                v.f[c] = v.f[c] * 0.8f + 0.05f;
            } else if (u->scalar == FXGL_SCALAR_BOOL) {
                v.u[c] = !v.u[c];
            } else if (u->scalar == FXGL_SCALAR_INT) {
                v.i[c] = v.i[c] > 0 ? v.i[c] - 1 : v.i[c] + 1;
            } else {
                v.u[c] = v.u[c] > 0 ? v.u[c] - 1 : v.u[c] + 1;
            }
        }
        ck_assert(fxgl_runtime_set_uniform(rt, 0, u->name, &v));
    }
}

static void builtin(bool es) {
    fix f;
    fix_init(&f, es);
    const fxgl_gl_info *info = fxgl_test_egl_info(f.egl);
    const char *paths[1] = {FXGL_SHADER_DIR};
    fxgl_compiler *fx = fxgl_compiler_create(&(fxgl_compiler_desc){
        .env = {.width = W, .height = H, .api = es ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL, .api_major = info->major,
                .api_minor = info->minor},
        .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
        .include_paths = paths,
        .include_path_count = 1,
    });
    ck_assert(fx);
    DIR *d = opendir(FXGL_SHADER_DIR);
    ck_assert(d);
    struct dirent *ent;
    int tested = 0;
    while ((ent = readdir(d))) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 3, ".fx") != 0) {
            continue;
        }
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", FXGL_SHADER_DIR, ent->d_name);
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *effect = fxgl_compiler_compile(fx, path, &diags);
        fxgl_diags_finish(&diags);
        ck_assert_msg(effect, "%s does not compile", ent->d_name);
        if (!has_user_values(effect)) {
            printf("%s: no user value, nothing to specialise\n", ent->d_name);
            fxgl_effect_destroy(effect);
            continue;
        }
        fxgl_runtime *spec = make_runtime(&f, true);
        fxgl_runtime *plain = make_runtime(&f, false);
        ck_assert_int_eq(fxgl_runtime_add_effect(spec, effect, ent->d_name), 0);
        ck_assert_int_eq(fxgl_runtime_add_effect(plain, effect, ent->d_name), 0);
        f.time = 1.0;
        step_until(&f, spec, plain, effect, FXGL_VARIANT_SPECIALISED, "default values",
                   ent->d_name);
        change_values(spec, effect);
        change_values(plain, effect);
        // The frame right after the change runs the editable programs.
        step_until(&f, spec, plain, effect, FXGL_VARIANT_UNIFORM, "the frame of the change",
                   ent->d_name);
        step_until(&f, spec, plain, effect, FXGL_VARIANT_SPECIALISED, "changed values",
                   ent->d_name);
        fxgl_variant_stats st;
        fxgl_runtime_variant_stats(spec, &st);
        printf("%s (%s): %zu program(s), %llu worker compile/link calls, %.1f ms on the "
               "worker\n", ent->d_name, es ? "GLES" : "GL", st.uniform_programs,
               (unsigned long long)st.worker_compiles, st.worker_ms);
        fxgl_runtime_destroy(spec);
        fxgl_runtime_destroy(plain);
        fxgl_effect_destroy(effect);
        tested++;
    }
    closedir(d);
    ck_assert_int_ge(tested, 8);
    fxgl_compiler_destroy(fx);
    fix_finish(&f);
}

START_TEST(builtin_equal_gl) {
    builtin(false);
}
END_TEST

START_TEST(builtin_equal_gles) {
    builtin(true);
}
END_TEST

static const char value_fx[] =
    "uniform float Value < ui_type = \"slider\"; > = 0.25;\n"
    "uniform float Timer < source = \"timer\"; >;\n"
    "texture2D BackBufferTex : COLOR;\n"
    "sampler2D BackBuffer { Texture = BackBufferTex; };\n"
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "    return float4(Value, saturate(Timer / 10000.0), tex2D(BackBuffer, uv).b, 1.0);\n"
    "}\n"
    "technique ValueTest { pass { VertexShader = VS; PixelShader = PS; } }\n";

// Texcoord x's 32 bits, a byte per channel (k / 255 is exact in UNORM8), times a user
// value: Scale = 1 compiled in must give the very bits the exact-varying variant gives.
static const char bits_fx[] =
    "uniform float Scale < ui_type = \"slider\"; > = 1.0;\n"
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "    uint b = asuint(uv.x * Scale);\n"
    "    return float4(b >> 24, (b >> 16) & 255, (b >> 8) & 255, b & 255) / 255.0;\n"
    "}\n"
    "technique Bits { pass { VertexShader = VS; PixelShader = PS; } }\n";

static fxgl_effect *compile_fx(const char *source, const fxgl_gl_info *info, bool es,
                               fxgl_compiler **out) {
    char dir[] = "/tmp/fxgl-variant-XXXXXX";
    ck_assert(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof(path), "%s/Value.fx", dir);
    FILE *fp = fopen(path, "w");
    ck_assert(fp);
    fputs(source, fp);
    fclose(fp);
    *out = fxgl_compiler_create(&(fxgl_compiler_desc){
        .env = {.width = W, .height = H, .api = es ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL, .api_major = info->major,
                .api_minor = info->minor},
        .target = es ? FXGL_GLSL_ES320 : FXGL_GLSL_GL450,
    });
    ck_assert(*out);
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_compiler_compile(*out, path, &diags);
    if (!e) {
        fxgl_diags_print(&diags, stderr);
    }
    fxgl_diags_finish(&diags);
    unlink(path);
    rmdir(dir);
    ck_assert(e);
    return e;
}

static fxgl_effect *compile_value_fx(const fxgl_gl_info *info, bool es, fxgl_compiler **out) {
    return compile_fx(value_fx, info, es, out);
}

static int expect(double v) {
    return (int)lround(v * 255.0);
}

static void check_pixel(const uint8_t *px, double value, double timer_ms, const char *when) {
    int r = px[0], g = px[1];
    ck_assert_msg(abs(r - expect(value)) <= 1, "%s: red %d, expected %d (value %.3f)", when, r,
                  expect(value), value);
    double gv = timer_ms / 10000.0 > 1.0 ? 1.0 : timer_ms / 10000.0;
    ck_assert_msg(abs(g - expect(gv)) <= 1, "%s: green %d, expected %d (timer %.0f ms)", when,
                  g, expect(gv), timer_ms);
}

static void next_frame(bool es) {
    fix f;
    fix_init(&f, es);
    fxgl_compiler *fxs = NULL;
    fxgl_effect *effect = compile_value_fx(fxgl_test_egl_info(f.egl), es, &fxs);
    fxgl_runtime *rt = make_runtime(&f, true);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, effect, "Value.fx"), 0);
    static uint8_t px[W * H * 4];
    double start = 0.0;
    f.time = start;
    frame(&f, rt, px); // loads
    ck_assert_int_eq(fxgl_runtime_effect_status(rt, 0, NULL), FXGL_STATUS_READY);
    fxgl_variant_stats st;
    fxgl_runtime_variant_stats(rt, &st);
    uint64_t compiles_at_load = st.frame_compiles;
    unsigned shaders_at_load = fxgl_runtime_program_counts(rt).shader_compiles;
    ck_assert_uint_gt(compiles_at_load, 0);
    check_pixel(px, 0.25, 0.0, "load frame");
    double t0 = wall();
    while (fxgl_runtime_pass_variant(rt, 0, 0, 0) != FXGL_VARIANT_SPECIALISED) {
        ck_assert_msg(wall() - t0 < WAIT_S, "no specialised program after %.0f s", WAIT_S);
        f.time += 0.05;
        frame(&f, rt, px);
    }
    f.time += 0.05;
    frame(&f, rt, px);
    check_pixel(px, 0.25, (f.time - start) * 1000.0, "specialised at the default value");
    // The timer moves in the specialised program.
    f.time += 1.0;
    frame(&f, rt, px);
    check_pixel(px, 0.25, (f.time - start) * 1000.0, "specialised, a second later");

    // The change shows on the very next frame, through the editable program.
    fxgl_value v = {.scalar = FXGL_SCALAR_FLOAT, .count = 1, .f = {0.75f}};
    ck_assert(fxgl_runtime_set_uniform(rt, 0, "Value", &v));
    f.time += 0.05;
    frame(&f, rt, px);
    ck_assert_int_eq(fxgl_runtime_pass_variant(rt, 0, 0, 0), FXGL_VARIANT_UNIFORM);
    check_pixel(px, 0.75, (f.time - start) * 1000.0, "the frame after the change");
    // Changing on: each frame shows its value, still editable (no settle yet).
    for (int i = 0; i < 4; i++) {
        v.f[0] = 0.5f + 0.1f * (float)i;
        ck_assert(fxgl_runtime_set_uniform(rt, 0, "Value", &v));
        f.time += 0.05;
        frame(&f, rt, px);
        ck_assert_int_eq(fxgl_runtime_pass_variant(rt, 0, 0, 0), FXGL_VARIANT_UNIFORM);
        check_pixel(px, v.f[0], (f.time - start) * 1000.0, "while changing");
    }
    // Settled: specialised again, with the same pixels.
    t0 = wall();
    while (fxgl_runtime_pass_variant(rt, 0, 0, 0) != FXGL_VARIANT_SPECIALISED) {
        ck_assert_msg(wall() - t0 < WAIT_S, "not specialised again after %.0f s", WAIT_S);
        f.time += 0.05;
        frame(&f, rt, px);
        check_pixel(px, 0.8, (f.time - start) * 1000.0, "settling");
    }
    f.time += 0.05;
    frame(&f, rt, px);
    check_pixel(px, 0.8, (f.time - start) * 1000.0, "specialised at the new value");
    // Back to the value the specialised set has: no new compile needed, but correct.
    fxgl_runtime_variant_stats(rt, &st);
    ck_assert_uint_ge(st.specialised, 2);
    ck_assert_uint_ge(st.to_uniform, 1);
    ck_assert_uint_gt(st.worker_compiles, 0);
    // Every set was drawn once on the worker before it came in (one pass: one draw each).
    ck_assert_uint_ge(st.warm_draws, st.specialised);
    ck_assert_msg(fxgl_runtime_program_counts(rt).shader_compiles == shaders_at_load,
                  "the frame thread compiled %u shader(s) after the load frame",
                  fxgl_runtime_program_counts(rt).shader_compiles - shaders_at_load);
    ck_assert_msg(st.frame_compiles == compiles_at_load,
                  "the frame thread compiled or linked %llu time(s) after the load frame",
                  (unsigned long long)(st.frame_compiles - compiles_at_load));
    ck_assert_uint_eq(st.specialised_programs, 1);
    ck_assert_uint_eq(st.uniform_programs, 1);
    fxgl_runtime_destroy(rt);
    fxgl_effect_destroy(effect);
    fxgl_compiler_destroy(fxs);
    fix_finish(&f);
}

START_TEST(next_frame_gl) {
    next_frame(false);
}
END_TEST

START_TEST(next_frame_gles) {
    next_frame(true);
}
END_TEST

// The bits of (pixel centre x) / width as fp32 computes them: what the exact-varying
// variant gives (tests/gl/test_exact.c checks that against lavapipe's).
static uint32_t texcoord_bits(int x, int width) {
    float t = (float)(x + 0.5) * (float)(1.0 / width);
    uint32_t b;
    memcpy(&b, &t, 4);
    return b;
}

// A specialised pixel shader keeps the exact-varying variant of the editable one: at a
// width where interpolated texcoords miss (1920 on llvmpipe), every pixel of the
// specialised frame has the exact bits, and so has the frame of the editable program.
static void exact_kept(bool es) {
    enum { BW = 1920, BH = 3 };
    fix f;
    fix_init(&f, es);
    GladGLContext *gl = f.gl;
    GLuint tex, fbo;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, BW, BH);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    fxgl_compiler *fxs = NULL;
    fxgl_effect *effect = compile_fx(bits_fx, fxgl_test_egl_info(f.egl), es, &fxs);
    fxgl_runtime *rt = make_runtime(&f, true);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, effect, "Bits.fx"), 0);
    static uint8_t px[BW * BH * 4];
    fxgl_frame_desc d = {.width = BW, .height = BH, .framebuffer = fbo};
    bool specialised = false;
    double t0 = wall();
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            // Load frame done and checked: now the specialised program.
            while (fxgl_runtime_pass_variant(rt, 0, 0, 0) != FXGL_VARIANT_SPECIALISED) {
                ck_assert_msg(wall() - t0 < WAIT_S, "no specialised program after %.0f s",
                              WAIT_S);
                d.time += 0.05;
                ck_assert(fxgl_runtime_frame(rt, &d));
            }
            specialised = true;
        }
        d.time += 0.05;
        ck_assert(fxgl_runtime_frame(rt, &d));
        ck_assert_int_eq(fxgl_runtime_pass_exact_varyings(rt, 0, 0), 2);
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        gl->ReadPixels(0, 0, BW, BH, GL_RGBA, GL_UNSIGNED_BYTE, px);
        int bad = 0;
        for (int y = 0; y < BH; y++) {
            for (int x = 0; x < BW; x++) {
                const uint8_t *p = px + ((size_t)y * BW + (size_t)x) * 4;
                uint32_t got = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                               (uint32_t)p[2] << 8 | p[3];
                if (got != texcoord_bits(x, BW) && bad < 5) {
                    fprintf(stderr, "  %s x %d: got %08x, want %08x\n",
                            specialised ? "specialised" : "editable", x, got,
                            texcoord_bits(x, BW));
                }
                bad += got != texcoord_bits(x, BW);
            }
        }
        ck_assert_msg(bad == 0, "%s program: %d pixels without the exact texcoord",
                      specialised ? "specialised" : "editable", bad);
    }
    fxgl_runtime_destroy(rt);
    fxgl_effect_destroy(effect);
    fxgl_compiler_destroy(fxs);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    fix_finish(&f);
}

START_TEST(exact_kept_gl) {
    exact_kept(false);
}
END_TEST

START_TEST(exact_kept_gles) {
    exact_kept(true);
}
END_TEST

START_TEST(opt_out) {
    fix f;
    fix_init(&f, false);
    fxgl_compiler *fxs = NULL;
    fxgl_effect *effect = compile_value_fx(fxgl_test_egl_info(f.egl), false, &fxs);
    fxgl_runtime_desc rd = {
        .worker = {.gl = fxgl_test_egl_gl(f.worker), .make_current = worker_current,
                   .release = worker_release, .user = f.worker},
        .no_specialise = true,
    };
    fxgl_runtime *off = fxgl_runtime_create(f.gl, fxgl_test_egl_info(f.egl), &rd);
    fxgl_runtime *none = make_runtime(&f, false);
    ck_assert_int_eq(fxgl_runtime_add_effect(off, effect, "Value.fx"), 0);
    ck_assert_int_eq(fxgl_runtime_add_effect(none, effect, "Value.fx"), 0);
    static uint8_t px[W * H * 4];
    for (int i = 0; i < 20; i++) {
        f.time += 0.5;
        frame(&f, off, px);
        frame(&f, none, px);
        ck_assert_int_eq(fxgl_runtime_pass_variant(off, 0, 0, 0), FXGL_VARIANT_UNIFORM);
        ck_assert_int_eq(fxgl_runtime_pass_variant(none, 0, 0, 0), FXGL_VARIANT_UNIFORM);
    }
    fxgl_variant_stats st;
    fxgl_runtime_variant_stats(off, &st);
    ck_assert_uint_eq(st.worker_compiles, 0);
    fxgl_runtime_destroy(off);
    fxgl_runtime_destroy(none);
    fxgl_effect_destroy(effect);
    fxgl_compiler_destroy(fxs);
    fix_finish(&f);
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GL)) {
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("variant");
    TCase *tc = tcase_create("variant");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, next_frame_gl);
    tcase_add_test(tc, next_frame_gles);
    tcase_add_test(tc, opt_out);
    tcase_add_test(tc, exact_kept_gl);
    tcase_add_test(tc, exact_kept_gles);
    tcase_add_test(tc, builtin_equal_gl);
    tcase_add_test(tc, builtin_equal_gles);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
