/*
 * test_glsl_conform.c - the GLSL conformance figure: every .fx below the
 * given directories is compiled with fxgl_effect_compile for a target, every
 * generated shader is validated by glslang, the vertex and pixel shader of
 * every pass are linked by glslang, and (when a headless context of the
 * target's API exists) compiled and linked by the driver (llvmpipe in CI).
 *
 *   test_glsl_conform [--target gl450|es320|...] [--no-driver] [--perf] [-I DIR]... [-D N[=V]]...
 *                     DIR|FILE...
 *
 * Prints PASS/FAIL per effect (the first failure's reason) and a total. An
 * effect the front end rejects is counted apart: the figure is over effects
 * the front end accepts. Run without arguments (as `make check` does) it
 * uses $FXGL_CORPUS, with the include layout of tools/conformance.sh, and
 * skips when there is no corpus: the public shader repositories are never
 * part of this repository.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <glad/gl.h>

#include "fxgl_test.h"
#include "glsl_util.h"

typedef struct totals {
    int passed, failed, rejected;
} totals;

typedef struct options {
    fxgl_glsl_target target;
    const char *includes[64];
    size_t include_count;
    fxgl_define defines[FXGL_PREDEFINED_MAX + 64];
    size_t define_count;
    fxgl_define user[64];        // -D NAME[=VALUE], after the predefined ones
    size_t user_count;
    char storage[FXGL_PREDEFINED_STORAGE];
    fxgl_test_egl *egl;           // NULL: no driver check
    bool perf;                    // performance mode (uniforms with initializers constant)
} options;

static GLuint driver_shader(GladGLContext *gl, GLenum stage, const char *code, char *log,
                            size_t size) {
    GLuint s = gl->CreateShader(stage);
    gl->ShaderSource(s, 1, &code, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        gl->GetShaderInfoLog(s, (GLsizei)size, NULL, log);
        gl->DeleteShader(s);
        return 0;
    }
    return s;
}

// Compiles and links with the driver; false with the log on failure.
static bool driver_link(GladGLContext *gl, const fxgl_shader *a, const fxgl_shader *b, char *log,
                        size_t size) {
    GLuint p = gl->CreateProgram();
    GLuint sa = driver_shader(gl, a->stage == FXGL_STAGE_COMPUTE ? GL_COMPUTE_SHADER
                                                                 : GL_VERTEX_SHADER,
                              a->glsl, log, size);
    GLuint sb = b ? driver_shader(gl, GL_FRAGMENT_SHADER, b->glsl, log, size) : 0;
    bool ok = sa && (!b || sb);
    if (ok) {
        gl->AttachShader(p, sa);
        if (sb) {
            gl->AttachShader(p, sb);
        }
        gl->LinkProgram(p);
        GLint linked = 0;
        gl->GetProgramiv(p, GL_LINK_STATUS, &linked);
        if (!linked) {
            gl->GetProgramInfoLog(p, (GLsizei)size, NULL, log);
            ok = false;
        }
    }
    if (sa) {
        gl->DeleteShader(sa);
    }
    if (sb) {
        gl->DeleteShader(sb);
    }
    gl->DeleteProgram(p);
    return ok;
}

static void first_line(char *s) {
    for (char *p = s; *p; p++) {
        if (*p == '\n') {
            *p = *(p + 1) ? ' ' : '\0';
        }
    }
    if (strlen(s) > 300) {
        s[300] = '\0';
    }
}

static void check_file(options *o, const char *path, totals *t) {
    fxgl_compile_desc desc = {
        .path = path,
        .include_paths = o->includes,
        .include_path_count = o->include_count,
        .defines = o->defines,
        .define_count = o->define_count,
        .target = o->target,
        .performance_mode = o->perf,
    };
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    // The front end alone first: effects it rejects are not the generator's.
    desc.target = FXGL_GLSL_NONE;
    fxgl_effect *fe = fxgl_effect_compile(&desc, &diags);
    if (!fe) {
        t->rejected++;
        printf("REJECTED %s\n", path);
        fxgl_diags_finish(&diags);
        return;
    }
    fxgl_effect_destroy(fe);
    fxgl_diags_finish(&diags);
    fxgl_diags_init(&diags);
    desc.target = o->target;
    fxgl_effect *e = fxgl_effect_compile(&desc, &diags);
    char why[4096] = "";
    if (!e) {
        for (size_t i = 0; i < diags.count; i++) {
            if (diags.items[i].severity == FXGL_DIAG_ERROR) {
                fxgl_diag_format(&diags.items[i], why, sizeof(why));
                break;
            }
        }
    }
    for (size_t i = 0; e && !why[0] && i < e->shader_count; i++) {
        char log[4096];
        if (!glsl_validate(e->shaders[i].glsl, e->shaders[i].stage, log, sizeof(log))) {
            first_line(log);
            snprintf(why, sizeof(why), "glslang: %.200s: %.1000s", e->shaders[i].entry, log);
        }
    }
    for (size_t ti = 0; e && !why[0] && ti < e->technique_count; ti++) {
        for (size_t p = 0; !why[0] && p < e->techniques[ti].pass_count; p++) {
            const fxgl_pass *pass = &e->techniques[ti].passes[p];
            const fxgl_shader *a = pass->compute_shader >= 0 ? &e->shaders[pass->compute_shader]
                                                              : &e->shaders[pass->vertex_shader];
            const fxgl_shader *b = pass->compute_shader < 0 && pass->pixel_shader >= 0
                                       ? &e->shaders[pass->pixel_shader]
                                       : NULL;
            char log[4096];
            if (b && !glsl_validate_link(a->glsl, b->glsl, log, sizeof(log))) {
                first_line(log);
                snprintf(why, sizeof(why), "glslang link: %.200s pass %zu: %.1000s",
                         e->techniques[ti].name, p, log);
            } else if (o->egl && !driver_link(fxgl_test_egl_gl(o->egl), a, b, log, sizeof(log))) {
                first_line(log);
                snprintf(why, sizeof(why), "driver: %.200s pass %zu: %.1000s", e->techniques[ti].name, p,
                         log);
            }
        }
    }
    if (why[0]) {
        t->failed++;
        printf("FAIL %s: %s\n", path, why);
    } else {
        t->passed++;
        printf("PASS %s\n", path);
    }
    fflush(stdout);
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_dir(options *o, const char *dir, totals *t, int depth) {
    DIR *d = depth < 32 ? opendir(dir) : NULL;
    if (!d) {
        return;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] != '.') {
            names = realloc(names, (count + 1) * sizeof(*names));
            names[count++] = strdup(ent->d_name);
        }
    }
    closedir(d);
    qsort(names, count, sizeof(*names), compare_names);
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        struct stat st;
        size_t n = strlen(names[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            check_dir(o, path, t, depth + 1);
        } else if (n > 3 && strcasecmp(names[i] + n - 3, ".fx") == 0) {
            check_file(o, path, t);
        }
        free(names[i]);
    }
    free(names);
}

static void setup(options *o, fxgl_glsl_target target, bool driver) {
    o->target = target;
    bool es = target >= FXGL_GLSL_ES300;
    fxgl_environment env = {.api = es ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL};
    o->define_count = fxgl_predefined_macros(&env, o->defines, o->storage, sizeof(o->storage));
    for (size_t i = 0; i < o->user_count; i++) {
        o->defines[o->define_count++] = o->user[i];
    }
    if (driver) {
        char reason[256];
        o->egl = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = es ? FXGL_API_GLES
                                                                       : FXGL_API_GL},
                                      reason, sizeof(reason));
        if (!o->egl) {
            fprintf(stderr, "no driver check: %s\n", reason);
        }
    }
}

static int parse_target(const char *s, fxgl_glsl_target *t) {
    static const char *const names[] = {"gl430", "gl450", "es300", "es310", "es320"};
    static const fxgl_glsl_target values[] = {FXGL_GLSL_GL430, FXGL_GLSL_GL450, FXGL_GLSL_ES300,
                                              FXGL_GLSL_ES310, FXGL_GLSL_ES320};
    for (int i = 0; i < 5; i++) {
        if (strcmp(s, names[i]) == 0) {
            *t = values[i];
            return 1;
        }
    }
    return 0;
}

// The corpus with tools/conformance.sh's include layout, for both targets.
static int corpus_run(const char *corpus) {
    static const fxgl_glsl_target targets[] = {FXGL_GLSL_GL450, FXGL_GLSL_ES320};
    static const int bars[] = {95, 90};
    int status = 0;
    for (int k = 0; k < 2; k++) {
        options o = {0};
        setup(&o, targets[k], true);
        totals t = {0};
        DIR *d = opendir(corpus);
        char **repos = NULL;
        size_t count = 0;
        struct dirent *ent;
        while (d && (ent = readdir(d))) {
            if (ent->d_name[0] != '.') {
                repos = realloc(repos, (count + 1) * sizeof(*repos));
                repos[count++] = strdup(ent->d_name);
            }
        }
        if (d) {
            closedir(d);
        }
        qsort(repos, count, sizeof(*repos), compare_names);
        char slim[4096];
        snprintf(slim, sizeof(slim), "%s/reshade-shaders-slim/Shaders", corpus);
        for (size_t i = 0; i < count; i++) {
            char shaders[4096], rec[4200];
            snprintf(shaders, sizeof(shaders), "%s/%s/Shaders", corpus, repos[i]);
            snprintf(rec, sizeof(rec), "%s/**", shaders);
            o.include_count = 0;
            o.includes[o.include_count++] = rec;
            o.includes[o.include_count++] = slim;
            check_dir(&o, shaders, &t, 0);
            free(repos[i]);
        }
        free(repos);
        int total = t.passed + t.failed;
        int pct = total ? t.passed * 100 / total : 0;
        printf("glsl conformance %s: %d passed, %d failed (%d%%), %d rejected by the front end\n",
               glsl_target_name(targets[k]), t.passed, t.failed, pct, t.rejected);
        if (total && t.passed * 100 < bars[k] * total) {
            status = 1;
        }
        if (o.egl) {
            fxgl_test_egl_destroy(o.egl);
        }
    }
    return status;
}

int main(int argc, char **argv) {
    fxgl_test_pin_drivers();
    if (argc == 1) {
        const char *corpus = getenv("FXGL_CORPUS");
        struct stat st;
        if (!corpus || stat(corpus, &st) != 0 || !S_ISDIR(st.st_mode)) {
            printf("SKIP: set FXGL_CORPUS to the public shader repositories to measure\n");
            return FXGL_TEST_SKIP;
        }
        return corpus_run(corpus);
    }
    options o = {0};
    fxgl_glsl_target target = FXGL_GLSL_GL450;
    bool driver = true;
    const char *paths[256];
    size_t path_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) {
            if (!parse_target(argv[++i], &target)) {
                fprintf(stderr, "unknown target %s\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--perf") == 0) {
            o.perf = true;
        } else if (strcmp(argv[i], "--no-driver") == 0) {
            driver = false;
        } else if (strcmp(argv[i], "-D") == 0 && i + 1 < argc && o.user_count < 64) {
            char *d = argv[++i], *eq = strchr(d, '=');
            if (eq) {
                *eq = '\0';
            }
            o.user[o.user_count++] = (fxgl_define){d, eq ? eq + 1 : "1"};
        } else if (strcmp(argv[i], "-I") == 0 && i + 1 < argc && o.include_count < 64) {
            o.includes[o.include_count++] = argv[++i];
        } else if (path_count < 256) {
            paths[path_count++] = argv[i];
        }
    }
    setup(&o, target, driver);
    totals t = {0};
    for (size_t i = 0; i < path_count; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            check_dir(&o, paths[i], &t, 0);
        } else {
            check_file(&o, paths[i], &t);
        }
    }
    printf("glsl conform %s: %d passed, %d failed, %d rejected by the front end\n",
           glsl_target_name(target), t.passed, t.failed, t.rejected);
    if (o.egl) {
        fxgl_test_egl_destroy(o.egl);
    }
    return t.failed ? 1 : 0;
}
