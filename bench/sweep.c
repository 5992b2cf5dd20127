/*
 * sweep.c - the pass-count sweep (bench/sweep.sh drives it):
 * chains of N trivial fullscreen copy passes through the real compiler and
 * runtime, beside two hand-written floors doing the same N copies with
 * nothing else: fragment passes (bind target, bind source, draw) and
 * compute dispatches (bind image, bind source, dispatch, barrier). Both
 * floors, because on a compute-class GPU a fragment copy is raster
 * bound and a compute copy runs near memory bandwidth.
 *
 * Every path does the same frame: copy the "application's" framebuffer in
 * (flipped blit, as the runtime does), N passes ping-ponging between two
 * RGBA8 textures (pass 0 reads the copy, the last writes it), copy out.
 * Frames of the modes are interleaved one by one, each closed by glFinish,
 * so all see the same machine load; per frame the GPU time comes from two
 * GL_TIMESTAMP queries (they nest with the runtime's own timers, unlike
 * GL_TIME_ELAPSED), the wall time from the CPU clock around frame+finish.
 * Medians per (mode, N) are printed as CSV on stdout:
 *   mode,width,height,passes,frames,gpu_ms,wall_ms,gl_calls,draws,
 *   dispatches,framebuffer_binds,texture_binds,uniform_bytes,cpu_ms,renderer
 * The slope over N (least squares, sweep.sh) is the fixed cost per pass.
 *
 *   bench/sweep [--size WxH] [--frames F] [--passes 1,2,4] [--modes runtime,...]
 *               [--api gl|gles]
 * Modes: runtime (as the preloaded library creates it: timers and debug
 * groups on), runtime-lean (both off), runtime-uniform (every pass also
 * reads a `timer` uniform, so the uniform block is uploaded every frame),
 * frag, compute (the floors), copies (the floor's copy in and out alone).
 * cpu_ms is the median CPU time of fxgl_runtime_frame (runtime modes).
 * With no argument (make check) it runs a small sweep of every mode and
 * checks what the runtime reports against what the chain must cost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_test.h"

#define MAX_PASSES 64
#define MAX_COUNTS 16

// The runtime modes come first (index < MODE_FLOORS): each has a runtime.
enum { MODE_RUNTIME, MODE_LEAN, MODE_UNIFORM, MODE_FLOORS, MODE_FRAG = MODE_FLOORS,
       MODE_COMPUTE, MODE_COPIES, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"runtime", "runtime-lean", "runtime-uniform",
                                                   "frag", "compute", "copies"};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// --- the chain as ReShade FX, compiled by fxgl's own compiler ---

// uniform: every pass also reads a uniform that changes every frame (the
// `timer` source), so each frame uploads the uniform block (breakdown.sh).
static char *chain_source(int passes, int w, int h, bool uniform) {
    size_t size = 4096 + (size_t)passes * 160;
    char *s = malloc(size);
    if (!s) {
        exit(1);
    }
    int n = snprintf(s, size,
        "texture2D BackTex : COLOR;\n"
        "sampler2D Back { Texture = BackTex; MinFilter = POINT; MagFilter = POINT; };\n"
        "texture2D TA { Width = %d; Height = %d; Format = RGBA8; };\n"
        "texture2D TB { Width = %d; Height = %d; Format = RGBA8; };\n"
        "sampler2D SA { Texture = TA; MinFilter = POINT; MagFilter = POINT; };\n"
        "sampler2D SB { Texture = TB; MinFilter = POINT; MagFilter = POINT; };\n"
        "%s"
        "void VS(in uint id : SV_VertexID, out float4 pos : SV_Position,\n"
        "        out float2 uv : TEXCOORD) {\n"
        "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
        "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
        "}\n"
        "float4 P0(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target"
        " { return tex2D(Back, uv)%s; }\n"
        "float4 PA(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target"
        " { return tex2D(SA, uv)%s; }\n"
        "float4 PB(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target"
        " { return tex2D(SB, uv)%s; }\n"
        "technique Sweep {\n", w, h, w, h,
        uniform ? "uniform float Timer < source = \"timer\"; >;\n" : "",
        uniform ? " + Timer * 1e-30" : "", uniform ? " + Timer * 1e-30" : "",
        uniform ? " + Timer * 1e-30" : "");
    for (int i = 0; i < passes; i++) {
        // pass 0 reads COLOR; pass i reads what pass i-1 wrote (TA when i-1 even)
        const char *ps = i == 0 ? "P0" : (i - 1) % 2 == 0 ? "PA" : "PB";
        char target[32] = "";
        if (i + 1 < passes) {
            snprintf(target, sizeof(target), " RenderTarget = %s;", i % 2 == 0 ? "TA" : "TB");
        }
        n += snprintf(s + n, size - (size_t)n, "    pass { VertexShader = VS; PixelShader = %s;%s }\n",
                      ps, target);
    }
    snprintf(s + n, size - (size_t)n, "}\n");
    return s;
}

static fxgl_effect *chain_compile(const fxgl_gl_info *info, int passes, int w, int h,
                                  bool uniform) {
    char *src = chain_source(passes, w, h, uniform);
    fxgl_compile_desc cd = {.path = "Sweep.fx", .source = src, .source_len = strlen(src),
                            .target = fxgl_gl_glsl_target(info)};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *fx = fxgl_effect_compile(&cd, &diags);
    if (!fx) {
        fxgl_diags_print(&diags, stderr);
        fprintf(stderr, "sweep: the chain does not compile\n");
        exit(1);
    }
    fxgl_diags_finish(&diags);
    free(src);
    return fx;
}

// --- the floors ---

typedef struct floor_gl {
    GLuint frag_prog, comp_prog, vao, sampler;
    GLuint tex[3], fbo[3];       // 0: the back-buffer copy, 1 and 2: ping-pong
    int w, h;
} floor_gl;

static GLuint shader(GladGLContext *gl, GLenum stage, const char *src) {
    GLuint s = gl->CreateShader(stage);
    gl->ShaderSource(s, 1, &src, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
        fprintf(stderr, "sweep: floor shader: %s\n", log);
        exit(1);
    }
    return s;
}

static GLuint program(GladGLContext *gl, GLuint a, GLuint b) {
    GLuint p = gl->CreateProgram();
    gl->AttachShader(p, a);
    if (b) {
        gl->AttachShader(p, b);
    }
    gl->LinkProgram(p);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "sweep: floor program does not link\n");
        exit(1);
    }
    return p;
}

static void floor_init(GladGLContext *gl, floor_gl *f, bool es, int w, int h) {
    const char *head = es ? "#version 320 es\nprecision highp float;\nprecision highp image2D;\n"
                          : "#version 450\n";
    char vs[512], fs[512], cs[768];
    snprintf(vs, sizeof(vs), "%s%s", head,
             "out vec2 uv;\nvoid main() {\n"
             "    uv = vec2(gl_VertexID == 2 ? 2.0 : 0.0, gl_VertexID == 1 ? 2.0 : 0.0);\n"
             "    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);\n}\n");
    snprintf(fs, sizeof(fs), "%s%s", head,
             "uniform sampler2D S;\nin vec2 uv;\nlayout(location = 0) out vec4 o;\n"
             "void main() { o = texture(S, uv); }\n");
    snprintf(cs, sizeof(cs), "%s%s", head,
             "layout(local_size_x = 8, local_size_y = 8) in;\n"
             "layout(binding = 0) uniform highp sampler2D S;\n"
             "layout(binding = 0, rgba8) writeonly uniform highp image2D D;\n"
             "void main() {\n"
             "    ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
             "    if (p.x < textureSize(S, 0).x && p.y < textureSize(S, 0).y)\n"
             "        imageStore(D, p, texelFetch(S, p, 0));\n}\n");
    f->frag_prog = program(gl, shader(gl, GL_VERTEX_SHADER, vs),
                           shader(gl, GL_FRAGMENT_SHADER, fs));
    f->comp_prog = program(gl, shader(gl, GL_COMPUTE_SHADER, cs), 0);
    gl->GenVertexArrays(1, &f->vao);
    gl->GenSamplers(1, &f->sampler);
    gl->SamplerParameteri(f->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->SamplerParameteri(f->sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->GenTextures(3, f->tex);
    gl->GenFramebuffers(3, f->fbo);
    for (int i = 0; i < 3; i++) {
        gl->BindTexture(GL_TEXTURE_2D, f->tex[i]);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
        gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo[i]);
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->tex[i], 0);
    }
    f->w = w;
    f->h = h;
}

static void floor_destroy(GladGLContext *gl, floor_gl *f) {
    gl->DeleteFramebuffers(3, f->fbo);
    gl->DeleteTextures(3, f->tex);
    gl->DeleteSamplers(1, &f->sampler);
    gl->DeleteVertexArrays(1, &f->vao);
    gl->DeleteProgram(f->frag_prog);
    gl->DeleteProgram(f->comp_prog);
}

// Source and destination of pass i of n (indices into f->tex / f->fbo).
static int pass_src(int i) {
    return i == 0 ? 0 : 1 + (i - 1) % 2;
}
static int pass_dst(int i, int n) {
    return i + 1 < n ? 1 + i % 2 : 0;
}

static void floor_frame(GladGLContext *gl, const floor_gl *f, GLuint app_fbo, int n,
                        bool compute) {
    int w = f->w, h = f->h;
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, app_fbo);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, f->fbo[0]);
    gl->BlitFramebuffer(0, 0, w, h, 0, h, w, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    gl->BindSampler(0, f->sampler);
    gl->ActiveTexture(GL_TEXTURE0);
    if (compute) {
        gl->UseProgram(f->comp_prog);
        for (int i = 0; i < n; i++) {
            gl->BindImageTexture(0, f->tex[pass_dst(i, n)], 0, GL_FALSE, 0, GL_WRITE_ONLY,
                                 GL_RGBA8);
            gl->BindTexture(GL_TEXTURE_2D, f->tex[pass_src(i)]);
            gl->DispatchCompute((GLuint)(w + 7) / 8, (GLuint)(h + 7) / 8, 1);
            gl->MemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                              GL_FRAMEBUFFER_BARRIER_BIT);
        }
    } else {
        gl->UseProgram(f->frag_prog);
        gl->BindVertexArray(f->vao);
        gl->Viewport(0, 0, w, h);
        for (int i = 0; i < n; i++) {
            gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, f->fbo[pass_dst(i, n)]);
            gl->BindTexture(GL_TEXTURE_2D, f->tex[pass_src(i)]);
            gl->DrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo[0]);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, app_fbo);
    gl->BlitFramebuffer(0, 0, w, h, 0, h, w, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

// --- the sweep ---

typedef struct options {
    int w, h, frames;
    int counts[MAX_COUNTS], count_n;
    bool modes[MODE_COUNT];
    bool es;
    bool check;
} options;

static void parse_list(const char *s, options *o) {
    o->count_n = 0;
    while (*s && o->count_n < MAX_COUNTS) {
        int v = atoi(s);
        if (v < 1 || v > MAX_PASSES) {
            fprintf(stderr, "sweep: pass counts are 1..%d\n", MAX_PASSES);
            exit(2);
        }
        o->counts[o->count_n++] = v;
        s = strchr(s, ',');
        if (!s) {
            break;
        }
        s++;
    }
}

static void parse_modes(const char *s, options *o) {
    memset(o->modes, 0, sizeof(o->modes));
    for (int m = 0; m < MODE_COUNT; m++) {
        const char *p = s;
        size_t len = strlen(mode_names[m]);
        while ((p = strstr(p, mode_names[m]))) {
            if ((p == s || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) {
                o->modes[m] = true;
            }
            p += len;
        }
    }
}

typedef struct measured {
    double gpu_ms, wall_ms, cpu_ms;
    fxgl_runtime_stats stats;
} measured;

// One (N) point: every requested mode, frames interleaved.
static void run_point(GladGLContext *gl, const fxgl_gl_info *info, const options *o,
                      floor_gl *fl, GLuint app_fbo, int n, measured out[MODE_COUNT]) {
    fxgl_effect *fx = chain_compile(info, n, o->w, o->h, false);
    fxgl_effect *fxu = o->modes[MODE_UNIFORM] ? chain_compile(info, n, o->w, o->h, true) : NULL;
    fxgl_runtime *rt[MODE_FLOORS] = {NULL};
    for (int k = 0; k < MODE_FLOORS; k++) {
        if (!o->modes[k]) {
            continue;
        }
        // The runtime's rows are its fragment passes against the floors
        // (frag, compute): compute passes stay off, whatever FXGL_COMPUTE says.
        fxgl_runtime_desc desc = {.no_timer_queries = k == MODE_LEAN,
                                  .no_debug_groups = k == MODE_LEAN,
                                  .compute_passes = FXGL_COMPUTE_OFF};
        rt[k] = fxgl_runtime_create(gl, info, &desc);
        if (!rt[k] || fxgl_runtime_add_effect(rt[k], k == MODE_UNIFORM ? fxu : fx,
                                              "Sweep.fx") != 0) {
            fprintf(stderr, "sweep: runtime creation failed\n");
            exit(1);
        }
    }
    fxgl_frame_desc fd = {.width = o->w, .height = o->h, .framebuffer = app_fbo};
    GLuint q[2];
    gl->GenQueries(2, q);
    double *gpu[MODE_COUNT], *wall[MODE_COUNT], *cpu[MODE_COUNT];
    for (int m = 0; m < MODE_COUNT; m++) {
        gpu[m] = calloc((size_t)o->frames, sizeof(double));
        wall[m] = calloc((size_t)o->frames, sizeof(double));
        cpu[m] = calloc((size_t)o->frames, sizeof(double));
        if (!gpu[m] || !wall[m] || !cpu[m]) {
            exit(1);
        }
    }
    const int warm = 3;          // loading (first runtime frame), then warm-up
    for (int i = -warm; i < o->frames; i++) {
        for (int m = 0; m < MODE_COUNT; m++) {
            if (!o->modes[m]) {
                continue;
            }
            fd.time = (i + warm) / 60.0;
            double t0 = now();
            gl->QueryCounter(q[0], GL_TIMESTAMP);
            if (m < MODE_FLOORS) {
                fxgl_runtime_frame(rt[m], &fd);
            } else {
                floor_frame(gl, fl, app_fbo, m == MODE_COPIES ? 0 : n, m == MODE_COMPUTE);
            }
            gl->QueryCounter(q[1], GL_TIMESTAMP);
            gl->Finish();
            double t1 = now();
            GLuint64 a = 0, b = 0;
            gl->GetQueryObjectui64v(q[0], GL_QUERY_RESULT, &a);
            gl->GetQueryObjectui64v(q[1], GL_QUERY_RESULT, &b);
            if (i >= 0) {
                gpu[m][i] = (double)(b - a) * 1e-6;
                wall[m][i] = (t1 - t0) * 1000.0;
                cpu[m][i] = m < MODE_FLOORS ? fxgl_runtime_stats_get(rt[m])->cpu_ms : 0.0;
            }
        }
    }
    for (int m = 0; m < MODE_COUNT; m++) {
        if (o->modes[m]) {
            out[m].gpu_ms = median(gpu[m], o->frames);
            out[m].wall_ms = median(wall[m], o->frames);
            out[m].cpu_ms = median(cpu[m], o->frames);
            memset(&out[m].stats, 0, sizeof(out[m].stats));
            if (m < MODE_FLOORS) {
                const char *reason = NULL;
                if (fxgl_runtime_effect_status(rt[m], 0, &reason) != FXGL_STATUS_READY) {
                    fprintf(stderr, "sweep: the chain failed in the runtime: %s\n", reason);
                    exit(1);
                }
                out[m].stats = *fxgl_runtime_stats_get(rt[m]);
            } else {
                // The floors count by construction (see floor_frame).
                uint32_t k = m == MODE_COPIES ? 0 : (uint32_t)n;
                out[m].stats.draw_calls = m == MODE_FRAG ? k : 0;
                out[m].stats.dispatches = m == MODE_COMPUTE ? k : 0;
                out[m].stats.framebuffer_binds = m == MODE_FRAG ? 4 + k : 4;
                out[m].stats.texture_binds = k;
                out[m].stats.gl_calls = m == MODE_FRAG ? 14 + 3 * k : 11 + 4 * k;
                out[m].stats.uniform_bytes = 0;
            }
        }
        free(gpu[m]);
        free(wall[m]);
        free(cpu[m]);
    }
    gl->DeleteQueries(2, q);
    for (int k = 0; k < MODE_FLOORS; k++) {
        fxgl_runtime_destroy(rt[k]);
    }
    fxgl_effect_destroy(fx);
    fxgl_effect_destroy(fxu);
}

int main(int argc, char **argv) {
    options o = {.w = 1280, .h = 720, .frames = 30};
    parse_list("1,2,4,8,16,32", &o);
    parse_modes("runtime,runtime-lean,frag,compute", &o); // the sweep's default
    o.check = argc == 1;
    if (o.check) { // make check: small, quick, and the counts checked
        o.w = 64;
        o.h = 36;
        o.frames = 3;
        parse_list("1,2,5", &o);
        parse_modes("runtime,runtime-lean,runtime-uniform,frag,compute,copies", &o);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--size") && v && sscanf(v, "%dx%d", &o.w, &o.h) == 2) {
            i++;
        } else if (!strcmp(a, "--frames") && v) {
            o.frames = atoi(v);
            i++;
        } else if (!strcmp(a, "--passes") && v) {
            parse_list(v, &o);
            i++;
        } else if (!strcmp(a, "--modes") && v) {
            parse_modes(v, &o);
            i++;
        } else if (!strcmp(a, "--api") && v) {
            o.es = !strcmp(v, "gles");
            i++;
        } else {
            fprintf(stderr, "usage: sweep [--size WxH] [--frames F] [--passes 1,2,4] "
                    "[--modes runtime,runtime-lean,runtime-uniform,frag,compute,copies] "
                    "[--api gl|gles]\n");
            return 2;
        }
    }
    if (o.frames < 1 || o.w < 1 || o.h < 1) {
        fprintf(stderr, "sweep: bad size or frame count\n");
        return 2;
    }
    char reason[256];
    fxgl_test_egl *egl = fxgl_test_egl_create(
        &(fxgl_test_egl_desc){.api = o.es ? FXGL_API_GLES : FXGL_API_GL}, reason,
        sizeof(reason));
    if (!egl) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    if (!info->has_timer_query || !gl->QueryCounter) {
        printf("SKIP: no timer queries on this context\n");
        fxgl_test_egl_destroy(egl);
        return FXGL_TEST_SKIP;
    }
    GLuint color, app_fbo;
    gl->GenTextures(1, &color);
    gl->BindTexture(GL_TEXTURE_2D, color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, o.w, o.h);
    gl->GenFramebuffers(1, &app_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, app_fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    gl->ClearColor(0.2f, 0.4f, 0.6f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    floor_gl fl;
    floor_init(gl, &fl, o.es, o.w, o.h);

    char renderer[128];
    snprintf(renderer, sizeof(renderer), "%s", info->renderer);
    for (char *p = renderer; *p; p++) {
        *p = *p == ',' ? ';' : *p;
    }
    printf("mode,width,height,passes,frames,gpu_ms,wall_ms,gl_calls,draws,dispatches,"
           "framebuffer_binds,texture_binds,uniform_bytes,cpu_ms,renderer\n");
    int failed = 0;
    for (int c = 0; c < o.count_n; c++) {
        int n = o.counts[c];
        measured res[MODE_COUNT];
        run_point(gl, info, &o, &fl, app_fbo, n, res);
        for (int m = 0; m < MODE_COUNT; m++) {
            if (!o.modes[m]) {
                continue;
            }
            const fxgl_runtime_stats *s = &res[m].stats;
            printf("%s,%d,%d,%d,%d,%.4f,%.4f,%u,%u,%u,%u,%u,%u,%.4f,%s\n", mode_names[m], o.w,
                   o.h, m == MODE_COPIES ? 0 : n, o.frames, res[m].gpu_ms, res[m].wall_ms,
                   s->gl_calls, s->draw_calls, s->dispatches, s->framebuffer_binds,
                   s->texture_binds, s->uniform_bytes, res[m].cpu_ms, renderer);
            fflush(stdout);
            if (o.check && m < MODE_FLOORS) {
                // What the chain must cost, counted from its shape: one draw
                // per pass, every pass run, no dispatch; at least one
                // framebuffer bind and one texture bind per pass (target and
                // source change every pass), and times that are times.
                if (s->draw_calls != (uint32_t)n || s->passes_run != (uint32_t)n ||
                    s->dispatches != 0 || s->framebuffer_binds < (uint32_t)n ||
                    s->texture_binds < (uint32_t)n || !(res[m].gpu_ms > 0) ||
                    !(res[m].wall_ms > 0) || !(res[m].cpu_ms > 0) ||
                    // one float uniform: uploaded every frame only when it is read
                    (m == MODE_UNIFORM) != (s->uniform_bytes >= 4)) {
                    printf("sweep: FAIL: %s at %d passes: draws %u, passes %u, dispatches %u, "
                           "framebuffer binds %u, texture binds %u, uniform bytes %u, "
                           "gpu %.4f ms, cpu %.4f ms\n",
                           mode_names[m], n, s->draw_calls, s->passes_run, s->dispatches,
                           s->framebuffer_binds, s->texture_binds, s->uniform_bytes,
                           res[m].gpu_ms, res[m].cpu_ms);
                    failed = 1;
                }
            }
        }
    }
    floor_destroy(gl, &fl);
    gl->DeleteFramebuffers(1, &app_fbo);
    gl->DeleteTextures(1, &color);
    fxgl_test_egl_destroy(egl);
    return failed;
}
