/*
 * render.c - fxgl-render: runs effects over an image on a headless EGL
 * context (GL or GLES) through the real runtime, writes the result as a PNG
 * and a JSON report (effects and techniques run or skipped and why, per-pass
 * GPU times, draw and GL call counts).
 *
 *   fxgl-render [options] [EFFECT.fx...]
 *     --input IN.png | --test-image   what the "application" drew (default: test image)
 *     --size WxH                      size of the test image (default 256x144)
 *     --output OUT.png                result (default out.png)
 *     --report REPORT.json            the report (default: none)
 *     --timings T.csv                 per-frame GPU times: each frame waited for
 *                                     (glFinish), the whole runtime frame timed
 *                                     with GL_TIMESTAMP queries around it, each
 *                                     technique and pass by the runtime's own
 *                                     timers; rows frame,what,technique,pass,gpu_ms
 *     --frames N                      frames to run (default 3)
 *     --api gl|gl-compat|gles         context (default gl: 4.5 core)
 *     --preset PRESET.ini             techniques, order, values, definitions
 *     --performance-mode              the preset's values as constants (src/effects)
 *     --skip-disabled                 SkipLoadingDisabledEffects
 *     --interpolated-varyings         keep fullscreen texcoords as interpolated
 *                                     (fxgl computes them exactly otherwise)
 *     --no-direct-pass                the last back-buffer pass never draws straight into
 *                                     the output (a copy out ends each frame; it may then
 *                                     run as compute, FXGL_COMPUTE)
 *     --no-specialise                 passes always read their values from the uniform
 *                                     block (also FXGL_SPECIALISE=0); by default, as in
 *                                     the interposer, a compile thread on a second context
 *                                     builds programs with the values compiled in, which
 *                                     passes run once values have not changed for 0.5 s
 *                                     of frame time (`time` advances 1/60 s a frame)
 *     --cache DIR|off                 the on-disk compile cache (default: $FXGL_CACHE_DIR,
 *                                     none when unset); the report counts its hits
 *     -I DIR                          include and effect search path (repeatable;
 *                                     "DIR" followed by slash-star-star is DIR and
 *                                     every folder below it)
 *     -D NAME[=VALUE]                 preprocessor definition (repeatable)
 *     --textures DIR                  `source=` search path (repeatable; likewise)
 *
 * With a preset and no effect on the command line, the effects are the
 * files its Techniques/TechniqueSorting entries name, looked up in -I dirs.
 * Exit status: 0 when every effect loaded and some technique ran; 1 when an
 * effect failed, a texture or an effect file was missing or nothing ran; 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_diskcache.h"
#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_preset.h"
#include "fxgl_test.h"

#define MAX_ITEMS 64

typedef struct options {
    const char *input;
    const char *output;
    const char *report;
    const char *timings;
    const char *preset;
    bool performance;            // --performance-mode: preset values compiled in
    bool skip_disabled;          // --skip-disabled: SkipLoadingDisabledEffects
    bool interpolated;           // --interpolated-varyings: no exact fullscreen texcoords
    bool no_direct;              // --no-direct-pass
    bool no_specialise;          // --no-specialise / FXGL_SPECIALISE=0
    const char *cache;           // --cache DIR, or $FXGL_CACHE_DIR; NULL/"off": none
    int width, height;
    int frames;
    fxgl_api api;
    bool compat;
    const char *effects[MAX_ITEMS];
    size_t effect_count;
    const char *includes[MAX_ITEMS];
    size_t include_count;
    const char *textures[MAX_ITEMS];
    size_t texture_count;
    fxgl_define defines[MAX_ITEMS];
    size_t define_count;
    // the inspection layer (src/gl)
    const char *dump;            // --dump FILE
    const char *visualise;       // --visualise Effect.fx:Texture[@mip,channels,corner,...]
    bool overlay;                // --overlay
} options;

typedef struct loaded {
    char path[1024];
    const char *file;            // file name part of path
    fxgl_effect *fx;             // NULL when it did not compile
    char error[2048];            // compile errors
    int runtime_index;           // -1 when not added
} loaded;

// One frame's rows of --timings: the frame waited for, then every result
// taken in, so each sample is this frame's. cpu_ms: the frame call's wall time.
static void write_timings(FILE *tf, GladGLContext *gl, fxgl_runtime *rt, int frame,
                          const GLuint tq[2], double cpu_s) {
    gl->Finish();
    fxgl_runtime_collect_timings(rt);
    fprintf(tf, "%d,cpu,,,%.4f\n", frame, cpu_s * 1000.0);
    if (tq[0]) {
        GLuint64 a = 0, b = 0;
        gl->GetQueryObjectui64v(tq[0], GL_QUERY_RESULT, &a);
        gl->GetQueryObjectui64v(tq[1], GL_QUERY_RESULT, &b);
        fprintf(tf, "%d,frame,,,%.4f\n", frame, (double)(b - a) * 1e-6);
    }
    size_t tcount = fxgl_runtime_technique_count(rt);
    for (size_t i = 0; i < tcount; i++) {
        fxgl_technique_info ti;
        if (!fxgl_runtime_technique(rt, i, &ti) || !ti.enabled ||
            ti.status != FXGL_STATUS_READY) {
            continue;
        }
        double ms = fxgl_runtime_last_gpu_ms(rt, i, FXGL_WHOLE_TECHNIQUE);
        if (ms < 0) {
            continue; // no timer queries, or no sample yet
        }
        fprintf(tf, "%d,technique,%s@%s,,%.4f\n", frame, ti.name, ti.file, ms);
        for (size_t p = 0; p < ti.pass_count; p++) {
            fprintf(tf, "%d,pass,%s@%s,%zu,%.4f\n", frame, ti.name, ti.file, p,
                    fxgl_runtime_last_gpu_ms(rt, i, p));
        }
    }
}

static bool worker_current(void *user) {
    return fxgl_test_egl_make_current(user);
}

static void worker_release(void *user) {
    fxgl_test_egl_release(user);
}

static void usage(void) {
    fprintf(stderr,
            "usage: fxgl-render [--input IN.png | --test-image] [--size WxH] [--output OUT.png]\n"
            "                   [--report R.json] [--timings T.csv] [--frames N]\n"
            "                   [--api gl|gl-compat|gles]\n"
            "                   [--preset P.ini] [--performance-mode] [--skip-disabled]\n"
            "                   [--interpolated-varyings] [--no-direct-pass]\n"
            "                   [--no-specialise]\n"
            "                   [--cache DIR|off]\n"
            "                   [-I DIR] [-D NAME[=VALUE]] [--textures DIR]\n"
            "                   [--dump FILE]\n"
            "                   [--visualise Effect.fx:Tex[@mip,rgba,corner,slice=N,scale=X]]\n"
            "                   [--overlay] [EFFECT.fx...]\n");
}

static bool parse(int argc, char **argv, options *o) {
    memset(o, 0, sizeof(*o));
    o->output = "out.png";
    o->width = 256;
    o->height = 144;
    o->frames = 3;
    o->api = FXGL_API_GL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--input") == 0 && next) {
            o->input = argv[++i];
        } else if (strcmp(a, "--test-image") == 0) {
            o->input = NULL;
        } else if (strcmp(a, "--size") == 0 && next) {
            if (sscanf(argv[++i], "%dx%d", &o->width, &o->height) != 2 || o->width < 1 ||
                o->height < 1 || o->width > 16384 || o->height > 16384) {
                fprintf(stderr, "fxgl-render: bad size '%s'\n", argv[i]);
                return false;
            }
        } else if (strcmp(a, "--output") == 0 && next) {
            o->output = argv[++i];
        } else if (strcmp(a, "--cache") == 0 && next) {
            o->cache = argv[++i];
        } else if (strcmp(a, "--report") == 0 && next) {
            o->report = argv[++i];
        } else if (strcmp(a, "--timings") == 0 && next) {
            o->timings = argv[++i];
        } else if (strcmp(a, "--frames") == 0 && next) {
            o->frames = atoi(argv[++i]);
            if (o->frames < 1) {
                fprintf(stderr, "fxgl-render: --frames needs a positive number\n");
                return false;
            }
        } else if (strcmp(a, "--api") == 0 && next) {
            const char *v = argv[++i];
            if (strcmp(v, "gl") == 0) {
                o->api = FXGL_API_GL;
            } else if (strcmp(v, "gl-compat") == 0) {
                o->api = FXGL_API_GL;
                o->compat = true;
            } else if (strcmp(v, "gles") == 0) {
                o->api = FXGL_API_GLES;
            } else {
                fprintf(stderr, "fxgl-render: unknown api '%s'\n", v);
                return false;
            }
        } else if (strcmp(a, "--performance-mode") == 0) {
            o->performance = true;
        } else if (strcmp(a, "--interpolated-varyings") == 0) {
            o->interpolated = true;
        } else if (strcmp(a, "--no-direct-pass") == 0) {
            o->no_direct = true;
        } else if (strcmp(a, "--no-specialise") == 0) {
            o->no_specialise = true;
        } else if (strcmp(a, "--skip-disabled") == 0) {
            o->skip_disabled = true;
        } else if (strcmp(a, "--preset") == 0 && next) {
            o->preset = argv[++i];
        } else if (strcmp(a, "-I") == 0 && next && o->include_count < MAX_ITEMS) {
            o->includes[o->include_count++] = argv[++i];
        } else if (strcmp(a, "--textures") == 0 && next && o->texture_count < MAX_ITEMS) {
            o->textures[o->texture_count++] = argv[++i];
        } else if (strcmp(a, "-D") == 0 && next && o->define_count < MAX_ITEMS) {
            char *d = argv[++i];
            char *eq = strchr(d, '=');
            if (eq) {
                *eq = '\0';
            }
            o->defines[o->define_count++] = (fxgl_define){d, eq ? eq + 1 : "1"};
        } else if (strcmp(a, "--dump") == 0 && next) {
            o->dump = argv[++i];
        } else if (strcmp(a, "--visualise") == 0 && next) {
            o->visualise = argv[++i];
        } else if (strcmp(a, "--overlay") == 0) {
            o->overlay = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            exit(0);
        } else if (a[0] == '-') {
            fprintf(stderr, "fxgl-render: unknown option '%s'\n", a);
            return false;
        } else if (o->effect_count < MAX_ITEMS) {
            o->effects[o->effect_count++] = a;
        }
    }
    return true;
}

// A test image: colour bars on top, a grey ramp, and a hue/brightness field.
static bool test_image(fxgl_image *img, int w, int h) {
    if (!fxgl_image_alloc(img, w, h)) {
        return false;
    }
    static const uint8_t bars[8][3] = {{255, 255, 255}, {255, 255, 0}, {0, 255, 255},
                                       {0, 255, 0},     {255, 0, 255}, {255, 0, 0},
                                       {0, 0, 255},     {0, 0, 0}};
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
            if (y < h / 3) {
                const uint8_t *b = bars[x * 8 / w];
                p[0] = b[0], p[1] = b[1], p[2] = b[2];
            } else if (y < h / 2) {
                uint8_t g = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1));
                p[0] = p[1] = p[2] = g;
            } else {
                p[0] = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1));
                p[1] = (uint8_t)((y - h / 2) * 255 / (h - h / 2 > 1 ? h - h / 2 - 1 : 1));
                p[2] = (uint8_t)(((x / 8 + y / 8) & 1) ? 200 : 40);
            }
            p[3] = 255;
        }
    }
    return true;
}

static const char *file_part(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

// The effect and texture folders: -I and --textures as the library reads EffectSearchPaths
// and TextureSearchPaths (a trailing `**` is the folder and every folder below it).
static fxgl_search effect_dirs, texture_dirs;

static bool find_effect(const char *file, char *out, size_t size) {
    char *found = fxgl_search_find(&effect_dirs, file);
    bool ok = found && snprintf(out, size, "%s", found) < (int)size;
    free(found);
    return ok;
}

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

static const char *status_name(fxgl_status s) {
    return s == FXGL_STATUS_READY ? "ready" : s == FXGL_STATUS_FAILED ? "failed" : "pending";
}

// --- preset ---

static void on_set_report(void *user, fxgl_effect_set_level level, const char *message) {
    (void)user, (void)level;
    fprintf(stderr, "fxgl-render: %s\n", message);
}

static void on_preset_diag(void *user, const fxgl_preset_diag *d) {
    (void)user;
    char buf[1024];
    fxgl_preset_diag_format(d, buf, sizeof(buf));
    fprintf(stderr, "%s\n", buf);
}

static void on_log(void *user, fxgl_gl_log_level level, const char *message) {
    (void)user;
    static int verbose = -1; // FXGL_LOG=debug: the runtime's reasons too
    if (verbose < 0) {
        const char *l = getenv("FXGL_LOG");
        verbose = l && strcmp(l, "debug") == 0;
    }
    if (level <= FXGL_GL_LOG_WARN || verbose) {
        fprintf(stderr, "fxgl-render: %s\n", message);
    }
}

// --- main ---

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    if (!fxgl_search_expand_raw(&effect_dirs, o.includes, o.include_count) ||
        !fxgl_search_expand_raw(&texture_dirs, o.textures, o.texture_count)) {
        fprintf(stderr, "fxgl-render: out of memory\n");
        return 1;
    }
    size_t missing_files = 0;
    fxgl_preset *preset = NULL;
    if (o.preset) {
        preset = fxgl_preset_create(&(fxgl_preset_desc){
            .path = o.preset, .sink = {.fn = on_preset_diag}});
        if (!preset) {
            fprintf(stderr, "fxgl-render: cannot read preset '%s'\n", o.preset);
            return 1;
        }
    }
    static loaded fx[MAX_ITEMS];
    size_t n = 0;
    for (size_t i = 0; i < o.effect_count; i++) {
        snprintf(fx[n].path, sizeof(fx[n].path), "%s", o.effects[i]);
        fx[n].file = file_part(fx[n].path);
        n++;
    }
    if (preset && n == 0) {
        // The files the preset's technique lists name.
        for (int list = 0; list < 2; list++) {
            size_t count = 0;
            const char *const *items = list == 0 ? fxgl_preset_technique_sorting(preset, &count)
                                                 : fxgl_preset_techniques(preset, &count);
            for (size_t i = 0; i < count && n < MAX_ITEMS; i++) {
                const char *at = strchr(items[i], '@');
                if (!at) {
                    continue;
                }
                bool seen = false;
                for (size_t k = 0; k < n; k++) {
                    seen |= strcmp(fx[k].file, at + 1) == 0;
                }
                if (!seen && find_effect(at + 1, fx[n].path, sizeof(fx[n].path))) {
                    fx[n].file = file_part(fx[n].path);
                    n++;
                } else if (!seen) {
                    char dirs[1024];
                    fxgl_search_describe(&effect_dirs, dirs, sizeof(dirs));
                    fprintf(stderr, "fxgl-render: %s not found in: %s\n", at + 1, dirs);
                    missing_files++;
                }
            }
        }
    }

    fxgl_image input;
    if (o.input) {
        if (!fxgl_image_load_png(&input, o.input)) {
            fprintf(stderr, "fxgl-render: cannot read '%s'\n", o.input);
            return 1;
        }
    } else if (!test_image(&input, o.width, o.height)) {
        fprintf(stderr, "fxgl-render: out of memory\n");
        return 1;
    }
    int w = input.width, h = input.height;

    char reason[256];
    fxgl_test_egl_desc ed = {.api = o.api, .compatibility = o.compat};
    fxgl_test_egl *egl = fxgl_test_egl_create(&ed, reason, sizeof(reason));
    if (!egl) {
        fprintf(stderr, "fxgl-render: no EGL context: %s\n", reason);
        return 1;
    }
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    // The compile thread's context of specialised programs (docs/runtime.md), the
    // interposer's default; without one the passes run their editable programs.
    const char *spec_env = getenv("FXGL_SPECIALISE");
    fxgl_test_egl *worker = NULL;
    if (!o.no_specialise && !(spec_env && strcmp(spec_env, "0") == 0)) {
        worker = fxgl_test_egl_create_shared(egl, reason, sizeof(reason));
        if (!worker) {
            fprintf(stderr, "fxgl-render: no compile context (%s): no specialised programs\n",
                    reason);
        }
    }

    // Compile through src/effects, as the interposer and fxc do: predefined macros for
    // this context, then definitions layered effect section > preset > -D, and in
    // performance mode the preset's values as constants.
    fxgl_environment env = {
        .width = w, .height = h,
        .api = info->api == FXGL_API_GLES ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL,
        .api_major = info->major, .api_minor = info->minor,
    };
    fxgl_preset_define cl[MAX_ITEMS];
    for (size_t k = 0; k < o.define_count; k++) {
        cl[k] = (fxgl_preset_define){o.defines[k].name, o.defines[k].value};
    }
    // The compile cache: a tool run is a fresh process, so it is what makes a second
    // render of the same effects skip the front end.
    fxgl_diskcache *cache = fxgl_diskcache_create(&(fxgl_diskcache_desc){
        .dir = o.cache ? o.cache : getenv("FXGL_CACHE_DIR"),
        .sink = {.fn = on_preset_diag},
    });
    fxgl_compiler *effects = fxgl_compiler_create(&(fxgl_compiler_desc){
        .cache = cache,
        .env = env,
        .target = fxgl_gl_glsl_target(info),
        .include_paths = (const char *const *)effect_dirs.dirs,
        .include_path_count = effect_dirs.count,
        .defines = cl,
        .define_count = o.define_count,
        .performance_mode = o.performance,
        .skip_disabled = o.skip_disabled,
    });
    if (!effects || (o.preset && !fxgl_compiler_set_preset(effects, o.preset))) {
        fprintf(stderr, "fxgl-render: out of memory\n");
        return 1;
    }
    fxgl_compiler_lock_preset(effects, preset);
    double compile_t0 = now();
    for (size_t i = 0; i < n; i++) {
        fx[i].runtime_index = -1;
        if (!fxgl_compiler_wanted(effects, fx[i].file)) {
            snprintf(fx[i].error, sizeof(fx[i].error),
                     "not compiled: the preset enables none of its techniques "
                     "(SkipLoadingDisabledEffects)");
            continue;
        }
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fx[i].fx = fxgl_compiler_compile(effects, fx[i].path, &diags);
        size_t used = 0;
        for (size_t k = 0; k < diags.count && used + 1 < sizeof(fx[i].error); k++) {
            if (diags.items[k].severity != FXGL_DIAG_ERROR) {
                continue;
            }
            int len = fxgl_diag_format(&diags.items[k], fx[i].error + used,
                                       sizeof(fx[i].error) - used);
            used += len > 0 ? (size_t)len : 0;
            if (used + 1 < sizeof(fx[i].error)) {
                fx[i].error[used++] = '\n';
                fx[i].error[used] = '\0';
            } else {
                used = sizeof(fx[i].error) - 1;
            }
        }
        if (!fx[i].fx) {
            fprintf(stderr, "fxgl-render: %s does not compile:\n%s", fx[i].path, fx[i].error);
        }
        // Warnings too (what the reference would reject is one).
        for (size_t k = 0; fx[i].fx && k < diags.count; k++) {
            if (diags.items[k].severity == FXGL_DIAG_WARNING) {
                char line[1024];
                fxgl_diag_format(&diags.items[k], line, sizeof(line));
                fprintf(stderr, "%s\n", line);
            }
        }
        fxgl_diags_finish(&diags);
    }
    double compile_ms = (now() - compile_t0) * 1000.0;
    fxgl_compiler_destroy(effects);

    fxgl_program_cache programs = {fxgl_diskcache_load_binary, fxgl_diskcache_store_binary,
                                   cache};
    fxgl_runtime_desc rd = {
        .program_cache = cache ? &programs : NULL,
        .log = on_log,
        .interpolated_varyings = o.interpolated,
        .no_direct_pass = o.no_direct,
        .worker = {.gl = worker ? fxgl_test_egl_gl(worker) : NULL,
                   .make_current = worker_current, .release = worker_release, .user = worker},
        .texture_search_paths = (const char *const *)texture_dirs.dirs,
        .texture_search_path_count = texture_dirs.count,
    };
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &rd);
    if (!rt) {
        fprintf(stderr, "fxgl-render: the runtime cannot work on %s\n", info->version);
        return 1;
    }
    // The effects and the preset through the effect set, as the preloaded library does.
    fxgl_effect_set *set = fxgl_effect_set_create(&(fxgl_effect_set_desc){
        .ops = fxgl_runtime_effect_ops(), .backend = rt, .report = on_set_report});
    if (!set) {
        fprintf(stderr, "fxgl-render: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (fx[i].fx) {
            int member = fxgl_effect_set_add(set, fx[i].fx, fx[i].file);
            fx[i].runtime_index =
                member < 0 ? -1 : (int)fxgl_effect_set_backend_index(set, (size_t)member);
        }
    }
    if (preset && !fxgl_effect_set_apply(set, preset, 0.0, 0.0)) {
        fprintf(stderr, "fxgl-render: the preset names techniques no effect has\n");
        missing_files++;
    }
    // Frames run through the inspection layer (dump, visualise, overlay).
    fxgl_inspect *in = fxgl_inspect_create(rt, &(fxgl_inspect_desc){
                                                   .log = on_log, .overlay = o.overlay});
    if (!in) {
        fprintf(stderr, "fxgl-render: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (!fx[i].fx) {
            fxgl_inspect_add_failed(in, fx[i].file, fx[i].error);
        }
    }
    if (o.visualise) {
        char why[300];
        if (!fxgl_inspect_visualise(in, o.visualise, why, sizeof(why))) {
            fprintf(stderr, "fxgl-render: %s\n", why);
            fxgl_inspect_destroy(in);
            fxgl_effect_set_destroy(set);
            fxgl_runtime_destroy(rt);
            fxgl_test_egl_destroy(worker);
            fxgl_test_egl_destroy(egl);
            for (size_t i = 0; i < n; i++) {
                fxgl_effect_destroy(fx[i].fx);
            }
            fxgl_preset_destroy(preset);
            fxgl_image_free(&input);
            return 2;
        }
    }

    // The application: a scene texture it "draws" (copies) into its
    // framebuffer at the start of every frame, as a game redraws its scene;
    // the effects then see the same input each frame, not their own output.
    GLuint color, fbo, scene, scene_fbo;
    gl->GenTextures(1, &scene);
    gl->BindTexture(GL_TEXTURE_2D, scene);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    for (int y = 0; y < h; y++) {
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, h - 1 - y, w, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                          input.pixels + (size_t)y * (size_t)w * 4);
    }
    gl->GenFramebuffers(1, &scene_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, scene_fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, scene, 0);
    gl->GenTextures(1, &color);
    gl->BindTexture(GL_TEXTURE_2D, color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);

    double cpu_total = 0;
    fxgl_runtime_stats last = {0};
    FILE *tf = NULL;
    GLuint tq[2] = {0, 0};
    if (o.timings) {
        tf = fopen(o.timings, "w");
        if (!tf) {
            fprintf(stderr, "fxgl-render: cannot write '%s': %s\n", o.timings, strerror(errno));
            return 1;
        }
        fprintf(tf, "frame,what,technique,pass,gpu_ms\n");
        // GLES has the timestamp queries as EXT_disjoint_timer_query only.
        if (gl->QueryCounter && gl->GetQueryObjectui64v && gl->GenQueries) {
            gl->GenQueries(2, tq);
        }
    }
    for (int frame = 0; frame < o.frames; frame++) {
        fxgl_frame_desc fd = {.width = w, .height = h, .framebuffer = fbo,
                              .time = frame / 60.0};
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, scene_fbo);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
        gl->BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        double t0 = now();
        if (tq[0]) {
            gl->QueryCounter(tq[0], GL_TIMESTAMP);
        }
        fxgl_inspect_frame(in, &fd); // the runtime's frame, then visualise/overlay
        if (tq[0]) {
            gl->QueryCounter(tq[1], GL_TIMESTAMP);
        }
        cpu_total += now() - t0;
        last = *fxgl_runtime_stats_get(rt);
        if (tf) {
            write_timings(tf, gl, rt, frame, tq, now() - t0);
        }
    }
    if (tf) {
        if (tq[0]) {
            gl->DeleteQueries(2, tq);
        }
        fclose(tf);
    }
    gl->Finish();
    fxgl_runtime_collect_timings(rt);
    GLenum err = gl->GetError();
    fxgl_image out;
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    bool ok = fxgl_image_read_gl(&out, gl, w, h);
    if (ok) {
        // Alpha cleared, as the reference's screenshots do by default
        // (ClearAlpha=1): a window's alpha is not shown, a PNG's would be.
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
            out.pixels[i * 4 + 3] = 255;
        }
        ok = fxgl_image_save_png(&out, o.output);
    }
    if (!ok) {
        fprintf(stderr, "fxgl-render: cannot write '%s'\n", o.output);
    }

    size_t failed = 0, ran = 0, incomplete = 0;
    for (size_t i = 0; i < n; i++) {
        // Not compiled because the preset enables nothing in it is what was asked.
        bool skipped = !fx[i].fx && fx[i].error[0] && strncmp(fx[i].error, "not compiled:", 13) == 0;
        failed += !skipped && (!fx[i].fx || fxgl_runtime_effect_status(
                                               rt, (size_t)fx[i].runtime_index, NULL) !=
                                               FXGL_STATUS_READY);
    }
    size_t tcount = fxgl_runtime_technique_count(rt);
    for (size_t i = 0; i < tcount; i++) {
        fxgl_technique_info ti;
        fxgl_runtime_technique(rt, i, &ti);
        ran += ti.frames_run > 0;
        if (ti.warning && ti.warning[0] && ti.enabled) {
            fprintf(stderr, "fxgl-render: technique %s@%s loaded, but %s\n", ti.name, ti.file,
                    ti.warning);
            incomplete++;
        }
    }
    if (o.report) {
        FILE *f = fopen(o.report, "w");
        if (!f) {
            fprintf(stderr, "fxgl-render: cannot write '%s': %s\n", o.report, strerror(errno));
        } else {
            fprintf(f, "{\n  \"context\": {\"api\": \"%s\", \"version\": ",
                    info->api == FXGL_API_GLES ? "gles" : o.compat ? "gl-compat" : "gl");
            json_string(f, info->version);
            fprintf(f, ", \"renderer\": ");
            json_string(f, info->renderer);
            fprintf(f, "},\n  \"size\": [%d, %d],\n  \"frames\": %d,\n", w, h, o.frames);
            fprintf(f, "  \"gl_error\": %u,\n  \"cpu_ms_per_frame\": %.4f,\n", err,
                    cpu_total * 1000.0 / o.frames);
            fprintf(f, "  \"last_frame\": {\"gl_calls\": %u, \"pass_calls\": %u, "
                       "\"state_calls\": %u, \"draw_calls\": %u, \"dispatches\": %u, "
                       "\"framebuffer_binds\": %u, \"texture_binds\": %u, \"barriers\": %u, "
                       "\"uniform_uploads\": %u, \"uniform_bytes\": %u, \"copies\": %u, "
                       "\"techniques_run\": %u, \"passes_run\": %u, \"compute_passes\": %u, "
                       "\"cpu_ms\": %.4f},\n",
                    last.gl_calls, last.pass_calls, last.state_calls, last.draw_calls,
                    last.dispatches, last.framebuffer_binds, last.texture_binds, last.barriers,
                    last.uniform_uploads, last.uniform_bytes, last.copies, last.techniques_run,
                    last.passes_run, last.compute_passes, last.cpu_ms);
            fxgl_diskcache_stats cstats = fxgl_diskcache_get_stats(cache);
            bool cache_on = cache != NULL;
            fxgl_program_counts pc = fxgl_runtime_program_counts(rt);
            fprintf(f, "  \"gl_programs\": {\"shader_compiles\": %u, \"binary_formats\": %d, "
                       "\"binary_hits\": %u, \"binary_misses\": %u, \"binary_rejected\": %u},\n",
                    pc.shader_compiles, pc.binary_formats, pc.binary_hits, pc.binary_misses,
                    pc.binary_rejected);
            // Specialised programs: sets swapped in, switches back to the editable ones.
            fxgl_variant_stats vs;
            fxgl_runtime_variant_stats(rt, &vs);
            fprintf(f, "  \"specialised\": {\"worker\": %s, \"sets_in\": %llu, "
                       "\"to_editable\": %llu, \"warm_draws\": %llu},\n",
                    worker ? "true" : "false", (unsigned long long)vs.specialised,
                    (unsigned long long)vs.to_uniform, (unsigned long long)vs.warm_draws);
            // Front end (preprocess .. GLSL) of every effect, or its cache lookups.
            fprintf(f, "  \"compile_ms\": %.3f,\n  \"compile_cache\": {\"enabled\": %s, "
                       "\"hits\": %u, \"misses\": %u, \"stale\": %u, \"writes\": %u, "
                       "\"write_failures\": %u, \"evicted\": %u},\n",
                    compile_ms, cache_on ? "true" : "false", cstats.module_hits,
                    cstats.module_misses, cstats.module_stale, cstats.writes,
                    cstats.write_failures, cstats.evicted);
            fprintf(f, "  \"effects\": [\n");
            for (size_t i = 0; i < n; i++) {
                const char *why = "";
                fxgl_status st = FXGL_STATUS_FAILED;
                if (fx[i].fx) {
                    st = fxgl_runtime_effect_status(rt, (size_t)fx[i].runtime_index, &why);
                } else {
                    why = fx[i].error;
                }
                fprintf(f, "    {\"file\": ");
                json_string(f, fx[i].path);
                fprintf(f, ", \"compiled\": %s, \"status\": \"%s\", \"reason\": ",
                        fx[i].fx ? "true" : "false", status_name(st));
                json_string(f, why);
                fprintf(f, "}%s\n", i + 1 < n ? "," : "");
            }
            fprintf(f, "  ],\n  \"techniques\": [\n");
            for (size_t i = 0; i < tcount; i++) {
                fxgl_technique_info ti;
                fxgl_runtime_technique(rt, i, &ti);
                fprintf(f, "    {\"name\": ");
                json_string(f, ti.name);
                fprintf(f, ", \"file\": ");
                json_string(f, ti.file);
                const char *why = ti.reason && ti.reason[0] ? ti.reason
                                  : !ti.enabled             ? "disabled"
                                                            : "";
                fprintf(f, ", \"enabled\": %s, \"status\": \"%s\", \"ran\": %s, "
                           "\"frames_run\": %llu, \"reason\": ",
                        ti.enabled ? "true" : "false", status_name(ti.status),
                        ti.frames_run ? "true" : "false", (unsigned long long)ti.frames_run);
                json_string(f, why);
                fprintf(f, ", \"cpu_ms\": %.4f, \"gpu_ms\": %.4f, \"pass_gpu_ms\": [", ti.cpu_ms,
                        ti.gpu_ms);
                const fxgl_effect *e = NULL;
                for (size_t k = 0; k < n; k++) {
                    if (fx[k].runtime_index == (int)ti.effect) {
                        e = fx[k].fx;
                    }
                }
                size_t passes = e ? e->techniques[ti.technique].pass_count : 0;
                for (size_t p = 0; p < passes; p++) {
                    fprintf(f, "%s%.4f", p ? ", " : "", fxgl_runtime_pass_gpu_ms(rt, i, p));
                }
                fprintf(f, "], \"pass_exact_varyings\": [");
                for (size_t p = 0; p < passes; p++) {
                    fprintf(f, "%s%d", p ? ", " : "", fxgl_runtime_pass_exact_varyings(rt, i, p));
                }
                fprintf(f, "], \"pass_exact_rasterised\": [");
                for (size_t p = 0; p < passes; p++) {
                    fprintf(f, "%s%s", p ? ", " : "",
                            fxgl_runtime_pass_exact_rasterised(rt, i, p) ? "true" : "false");
                }
                // How each pass ran at the end (docs/runtime.md, "Compute passes").
                static const char *const how[] = {"fragment-only", "measuring", "fragment",
                                                  "compute", "native-compute"};
                fprintf(f, "], \"pass_compute\": [");
                for (size_t p = 0; p < passes; p++) {
                    fprintf(f, "%s\"%s\"", p ? ", " : "", how[fxgl_runtime_pass_compute(rt, i, p)]);
                }
                fprintf(f, "]}%s\n", i + 1 < tcount ? "," : "");
            }
            fprintf(f, "  ]\n}\n");
            fclose(f);
        }
    }
    printf("fxgl-render: %zu effect(s), %zu failed, %zu of %zu technique(s) ran, %d frame(s) "
           "%dx%d on %s; last frame %u GL calls, %u draws; %s\n",
           n, failed, ran, tcount, o.frames, w, h, info->version, last.gl_calls,
           last.draw_calls, ok ? o.output : "no output");

    if (o.dump) {
        char why[300];
        if (!fxgl_inspect_dump_file(in, o.dump, why, sizeof(why))) {
            fprintf(stderr, "fxgl-render: %s\n", why);
            ok = false;
        }
    }
    if (ok) {
        fxgl_image_free(&out);
    }
    fxgl_inspect_destroy(in);
    fxgl_effect_set_destroy(set);
    fxgl_runtime_destroy(rt);
    GLuint fbos[2] = {fbo, scene_fbo}, texs[2] = {color, scene};
    gl->DeleteFramebuffers(2, fbos);
    gl->DeleteTextures(2, texs);
    fxgl_test_egl_destroy(worker); // after the runtime, whose thread released it
    fxgl_test_egl_destroy(egl);
    for (size_t i = 0; i < n; i++) {
        fxgl_effect_destroy(fx[i].fx);
    }
    fxgl_diskcache_destroy(cache);
    fxgl_preset_destroy(preset);
    fxgl_image_free(&input);
    fxgl_search_finish(&effect_dirs);
    fxgl_search_finish(&texture_dirs);
    // Asked for effects and got less: say so in the status too (scripts and CI read it).
    if (ok && ran == 0) {
        fprintf(stderr, "fxgl-render: no technique ran%s\n",
                n == 0 ? " (no effect given, or none of the preset's found)" : "");
    }
    return ok && err == GL_NO_ERROR && failed == 0 && missing_files == 0 && incomplete == 0 &&
                   ran > 0
               ? 0
               : 1;
}
