/*
 * fxc.c - the offline FX compiler driver: a thin main over src/fx.
 *
 *   fxc check [options] FILE...         compile, print diagnostics
 *   fxc preprocess [options] FILE       print the preprocessed text
 *   fxc dump --json [options] FILE      print the effect module as JSON
 *   fxc techniques [options] FILE...    the techniques of each file, one a
 *                                       line (fxgl --list-effects uses it)
 *   fxc glsl --target T [--pass N] FILE print the generated GLSL
 *   fxc conform [options] DIR|FILE...   every .fx below DIR: status and first
 *                                       error (first warning for a pass), then
 *                                       "N passed, M failed"
 *   fxc stats [options] DIR...          a survey of every .fx below DIR:
 *                                       techniques, passes, pass states, special
 *                                       sources, semantics, formats, includes
 *   fxc bench [options] [-n N] FILE...  front-end speed: each file N times
 *                                       through preprocess, parse, check and
 *                                       module; MB/s of CPU time and arena
 *                                       peak per input byte
 *
 * Options: -I DIR (include path; a DIR ending in a slash and two stars also
 * searches its subdirectories), -D NAME[=VALUE], --width N, --height N,
 * --api gl|gles, --api-version M.N, --app PATH, --performance-mode, -q (errors
 * only). The predefined macros are the runtime's (fxgl_predefined_macros), so
 * fxc sees what the runtime would.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "fx_check.h"

#include "fx_ast.h"
#include "fx_base.h"
#include "fx_pp.h"
#include "fxgl_fx.h"
#include "fxgl_preset.h"

#define MAX_INCLUDES 64
#define MAX_DEFINES 256

typedef struct options {
    const char *includes[MAX_INCLUDES]; // -I, in order
    size_t include_count;
    fxgl_define defines[MAX_DEFINES];   // predefined first, then -D
    size_t define_count;
    char predefined_storage[FXGL_PREDEFINED_STORAGE];
    fxgl_environment env;
    fxgl_glsl_target target;
    int pass;                    // --pass N, -1: all
    int repeat;                  // bench: -n N
    bool json;
    bool quiet;
    const char *files[256];      // positional arguments
    size_t file_count;
    bool default_includes;       // no -I: the configuration's effect search paths
    char include_storage[MAX_INCLUDES][4200];
} options;

static void usage(FILE *out) {
    fprintf(out,
            "usage: fxc check [options] FILE...\n"
            "       fxc preprocess [options] FILE\n"
            "       fxc dump --json [options] FILE\n"
            "       fxc techniques [options] FILE...\n"
            "       fxc glsl --target gl450|gl430|es300|es310|es320|vk450 [--pass N] [options] FILE\n"
            "       fxc conform [options] DIR...\n"
            "       fxc stats [options] DIR...\n"
            "       fxc bench [options] [-n N] FILE...\n"
            "       fxc preset PRESET.ini [--shaders DIR...] [--textures DIR...] "
            "[--config FILE]\n"
            "       fxc config [--list-effects] [--config FILE] [PROGRAM]\n"
            "options: -I DIR  -D NAME[=VALUE]  --width N  --height N  --api gl|gles\n"
            "         --api-version M.N  --app PATH  --performance-mode  -q\n"
            "DIR/** is DIR and every folder below it. Without -I, includes are searched\n"
            "where the library searches effects (the configuration's EffectSearchPaths:\n"
            "your shaders, then the installed ones; see fxc config).\n");
}

static bool parse_target(const char *s, fxgl_glsl_target *t) {
    static const struct {
        const char *name;
        fxgl_glsl_target target;
    } targets[] = {
        {"gl430", FXGL_GLSL_GL430}, {"gl450", FXGL_GLSL_GL450}, {"es300", FXGL_GLSL_ES300},
        {"es310", FXGL_GLSL_ES310}, {"es320", FXGL_GLSL_ES320}, {"vk450", FXGL_GLSL_VK450},
        {"none", FXGL_GLSL_NONE},
    };
    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        if (strcmp(s, targets[i].name) == 0) {
            *t = targets[i].target;
            return true;
        }
    }
    return false;
}

// Splits NAME=VALUE in place; a definition without a value means 1, as in
// the reference's preset definitions.
static fxgl_define split_define(char *arg) {
    char *eq = strchr(arg, '=');
    if (!eq) {
        return (fxgl_define){.name = arg, .value = "1"};
    }
    *eq = '\0';
    return (fxgl_define){.name = arg, .value = eq + 1};
}

static bool parse_options(int argc, char **argv, options *o) {
    memset(o, 0, sizeof(*o));
    o->pass = -1;
    fxgl_define user[MAX_DEFINES];
    size_t user_count = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-I") == 0 && next) {
            if (o->include_count == MAX_INCLUDES) {
                fprintf(stderr, "fxc: too many -I (limit is %d)\n", MAX_INCLUDES);
                return false;
            }
            o->includes[o->include_count++] = next;
            i++;
        } else if (strncmp(a, "-I", 2) == 0 && a[2]) {
            if (o->include_count == MAX_INCLUDES) {
                fprintf(stderr, "fxc: too many -I (limit is %d)\n", MAX_INCLUDES);
                return false;
            }
            o->includes[o->include_count++] = a + 2;
        } else if ((strcmp(a, "-D") == 0 && next) || (strncmp(a, "-D", 2) == 0 && a[2])) {
            if (user_count == MAX_DEFINES - FXGL_PREDEFINED_MAX) {
                fprintf(stderr, "fxc: too many -D\n");
                return false;
            }
            user[user_count++] = split_define(a[2] ? argv[i] + 2 : argv[++i]);
        } else if (strcmp(a, "--width") == 0 && next) {
            o->env.width = atoi(argv[++i]);
        } else if (strcmp(a, "--height") == 0 && next) {
            o->env.height = atoi(argv[++i]);
        } else if (strcmp(a, "--api") == 0 && next) {
            i++;
            if (strcmp(next, "gl") == 0) {
                o->env.api = FXGL_API_KIND_GL;
            } else if (strcmp(next, "gles") == 0) {
                o->env.api = FXGL_API_KIND_GLES;
            } else {
                fprintf(stderr, "fxc: --api takes gl or gles, not '%s'\n", next);
                return false;
            }
        } else if (strcmp(a, "--api-version") == 0 && next) {
            if (sscanf(argv[++i], "%d.%d", &o->env.api_major, &o->env.api_minor) != 2) {
                fprintf(stderr, "fxc: --api-version takes M.N, not '%s'\n", next);
                return false;
            }
        } else if (strcmp(a, "--app") == 0 && next) {
            o->env.application = argv[++i];
        } else if (strcmp(a, "--performance-mode") == 0) {
            o->env.performance_mode = true;
        } else if (strcmp(a, "--target") == 0 && next) {
            if (!parse_target(argv[++i], &o->target)) {
                fprintf(stderr, "fxc: unknown target '%s'\n", next);
                return false;
            }
        } else if (strcmp(a, "-n") == 0 && next) {
            o->repeat = atoi(argv[++i]);
        } else if (strcmp(a, "--pass") == 0 && next) {
            o->pass = atoi(argv[++i]);
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "fxc: unknown option '%s'\n", a);
            return false;
        } else {
            if (o->file_count == sizeof(o->files) / sizeof(o->files[0])) {
                fprintf(stderr, "fxc: too many files\n");
                return false;
            }
            o->files[o->file_count++] = a;
        }
    }
    if (o->target >= FXGL_GLSL_ES300) {
        o->env.api = FXGL_API_KIND_GLES;
    }
    o->define_count = fxgl_predefined_macros(&o->env, o->defines, o->predefined_storage,
                                             sizeof(o->predefined_storage));
    for (size_t i = 0; i < user_count; i++) {
        o->defines[o->define_count++] = user[i];
    }
    return true;
}

static void print_diags(const fxgl_diags *diags, bool quiet) {
    for (size_t i = 0; i < diags->count; i++) {
        const fxgl_diag *d = &diags->items[i];
        if (quiet && d->severity != FXGL_DIAG_ERROR) {
            continue;
        }
        char line[2048];
        fxgl_diag_format(d, line, sizeof(line));
        fprintf(stderr, "%s\n", line);
        if (d->include_chain) {
            fputs(d->include_chain, stderr);
        }
    }
}

// What fxgl_effect_compile gives the preprocessor: its compatibility
// macros, then the predefined and -D ones.
static size_t pp_defines(const options *o, fx_pp_define *out) {
    size_t compat_count;
    const fx_pp_define *compat = fx_pp_compat_macros(&compat_count);
    size_t n = 0;
    for (size_t i = 0; i < compat_count && i < 32; i++) {
        out[n++] = compat[i];
    }
    for (size_t i = 0; i < o->define_count; i++) {
        out[n++] = (fx_pp_define){.name = o->defines[i].name, .value = o->defines[i].value};
    }
    return n;
}

static fxgl_effect *compile(const options *o, const char *path, fxgl_glsl_target target,
                            fxgl_diags *diags) {
    fxgl_compile_desc desc = {
        .path = path,
        .include_paths = o->includes,
        .include_path_count = o->include_count,
        .defines = o->defines,
        .define_count = o->define_count,
        .target = target,
        .performance_mode = o->env.performance_mode,
    };
    return fxgl_effect_compile(&desc, diags);
}

static int cmd_check(const options *o) {
    if (o->file_count == 0) {
        usage(stderr);
        return 2;
    }
    int status = 0;
    for (size_t i = 0; i < o->file_count; i++) {
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *e = compile(o, o->files[i], o->target, &diags);
        print_diags(&diags, o->quiet);
        if (!e) {
            status = 1;
        }
        fxgl_effect_destroy(e);
        fxgl_diags_finish(&diags);
    }
    if (status && o->default_includes && !o->quiet) {
        fprintf(stderr, "fxc: note: no -I: includes were looked for next to the file, then in:");
        for (size_t i = 0; i < o->include_count; i++) {
            fprintf(stderr, "%s %s", i ? "," : "", o->includes[i]);
        }
        fprintf(stderr, "%s\n", o->include_count ? "" : " (no folders)");
    }
    return status;
}

// One technique name a line, in declaration order; 1 when a file does not compile
// (its diagnostics go to stderr, as check's).
static int cmd_techniques(const options *o) {
    if (o->file_count == 0) {
        usage(stderr);
        return 2;
    }
    int status = 0;
    for (size_t i = 0; i < o->file_count; i++) {
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *e = compile(o, o->files[i], FXGL_GLSL_NONE, &diags);
        print_diags(&diags, o->quiet);
        for (size_t t = 0; e && t < e->technique_count; t++) {
            printf("%s\n", e->techniques[t].name);
        }
        status |= e == NULL;
        fxgl_effect_destroy(e);
        fxgl_diags_finish(&diags);
    }
    return status;
}

static int cmd_preprocess(const options *o) {
    if (o->file_count != 1) {
        usage(stderr);
        return 2;
    }
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *arena = fx_arena_create(0);
    if (!arena) {
        fprintf(stderr, "fxc: out of memory\n");
        return 1;
    }
    fx_pp_define defines[MAX_DEFINES + 32];
    size_t define_count = pp_defines(o, defines);
    jmp_buf jb;
    fx_ctx ctx = {.arena = arena, .diags = &diags, .fatal = &jb};
    fx_pp_desc desc = {
        .path = o->files[0],
        .include_paths = o->includes,
        .include_path_count = o->include_count,
        .defines = defines,
        .define_count = define_count,
    };
    fx_pp_result result = {0};
    volatile int status = 1;
    if (setjmp(jb) == 0) {
        if (fx_pp_run(&ctx, &desc, &result)) {
            status = 0;
        }
        fwrite(result.text, 1, result.len, stdout);
    }
    print_diags(&diags, o->quiet);
    fx_arena_destroy(arena);
    fxgl_diags_finish(&diags);
    return status;
}

static int cmd_dump(const options *o) {
    if (o->file_count != 1 || !o->json) {
        usage(stderr);
        return 2;
    }
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = compile(o, o->files[0], o->target, &diags);
    print_diags(&diags, o->quiet);
    int status = 1;
    if (e && fxgl_effect_write_json(e, stdout)) {
        status = 0;
    }
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
    return status;
}

static int cmd_glsl(const options *o) {
    if (o->file_count != 1 || o->target == FXGL_GLSL_NONE) {
        fprintf(stderr, "fxc: glsl needs --target and one FILE\n");
        return 2;
    }
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = compile(o, o->files[0], o->target, &diags);
    print_diags(&diags, o->quiet);
    int status = e ? 0 : 1;
    if (e) {
        // --pass N counts passes across techniques in declaration order.
        int index = 0;
        for (size_t t = 0; t < e->technique_count; t++) {
            const fxgl_technique *tech = &e->techniques[t];
            for (size_t p = 0; p < tech->pass_count; p++, index++) {
                if (o->pass >= 0 && o->pass != index) {
                    continue;
                }
                const fxgl_pass *pass = &tech->passes[p];
                const int stages[3] = {pass->vertex_shader, pass->pixel_shader,
                                       pass->compute_shader};
                static const char *const names[3] = {"vertex", "pixel", "compute"};
                for (int s = 0; s < 3; s++) {
                    if (stages[s] < 0) {
                        continue;
                    }
                    const fxgl_shader *sh = &e->shaders[stages[s]];
                    printf("// technique %s, pass %zu (%s), %s shader %s\n", tech->name, p,
                           pass->name ? pass->name : "unnamed", names[s], sh->entry);
                    if (!sh->glsl) {
                        fprintf(stderr, "fxc: no GLSL was generated for %s\n", sh->entry);
                        status = 1;
                        continue;
                    }
                    fputs(sh->glsl, stdout);
                }
            }
        }
        if (o->pass >= index) {
            fprintf(stderr, "fxc: there is no pass %d (the effect has %d)\n", o->pass, index);
            status = 1;
        }
    }
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
    return status;
}

// --- conform ---

typedef struct conform_totals {
    int passed;
    int failed;
} conform_totals;

static bool has_fx_suffix(const char *name) {
    size_t n = strlen(name);
    return n > 3 && strcasecmp(name + n - 3, ".fx") == 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void conform_file(const options *o, const char *path, conform_totals *totals) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = compile(o, path, o->target, &diags);
    if (e) {
        // The first warning too: what fxgl accepts and the reference rejects
        // is reported as a warning, and the conformance lists show it.
        totals->passed++;
        char line[2048] = "";
        for (size_t i = 0; i < diags.count; i++) {
            if (diags.items[i].severity == FXGL_DIAG_WARNING) {
                fxgl_diag_format(&diags.items[i], line, sizeof(line));
                break;
            }
        }
        printf("PASS %s%s%s\n", path, line[0] ? ": " : "", line);
    } else {
        totals->failed++;
        char line[2048] = "no diagnostic";
        for (size_t i = 0; i < diags.count; i++) {
            if (diags.items[i].severity == FXGL_DIAG_ERROR) {
                fxgl_diag_format(&diags.items[i], line, sizeof(line));
                break;
            }
        }
        printf("FAIL %s: %s\n", path, line);
    }
    fflush(stdout);
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
}

// Visits every .fx file below dir in sorted order, so that runs are
// comparable line by line (conform and stats share it).
typedef void (*fx_visit_fn)(void *ctx, const char *path);

static void walk_fx(const char *dir, int depth, fx_visit_fn visit, void *ctx) {
    if (depth > 32) {
        return;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fxc: cannot open %s: %s\n", dir, strerror(errno));
        return;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.') {
            continue;
        }
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown) {
                break;
            }
            names = grown;
        }
        names[count++] = strdup(ent->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof(*names), compare_names);
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                walk_fx(path, depth + 1, visit, ctx);
            } else if (S_ISREG(st.st_mode) && has_fx_suffix(names[i])) {
                visit(ctx, path);
            }
        }
        free(names[i]);
    }
    free(names);
}

typedef struct {
    const options *o;
    conform_totals *totals;
} conform_walk;

static void conform_visit(void *ctx, const char *path) {
    conform_walk *w = ctx;
    conform_file(w->o, path, w->totals);
}

static int cmd_conform(const options *o) {
    if (o->file_count == 0) {
        usage(stderr);
        return 2;
    }
    conform_totals totals = {0};
    for (size_t i = 0; i < o->file_count; i++) {
        struct stat st;
        if (stat(o->files[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            walk_fx(o->files[i], 0, conform_visit, &(conform_walk){o, &totals});
        } else {
            conform_file(o, o->files[i], &totals);
        }
    }
    printf("conform: %d passed, %d failed\n", totals.passed, totals.failed);
    return totals.failed ? 1 : 0;
}

// --- stats ---

// A count per name, in first-seen order; sorted by count when printed.
typedef struct tally_entry {
    char *name;
    int count;
} tally_entry;

typedef struct tally {
    tally_entry *items;
    size_t count, cap;
} tally;

static void tally_add(tally *t, const char *name, int n) {
    for (size_t i = 0; i < t->count; i++) {
        if (strcmp(t->items[i].name, name) == 0) {
            t->items[i].count += n;
            return;
        }
    }
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        tally_entry *grown = realloc(t->items, cap * sizeof(*grown));
        if (!grown) {
            return;
        }
        t->items = grown;
        t->cap = cap;
    }
    char *copy = strdup(name);
    if (copy) {
        t->items[t->count++] = (tally_entry){copy, n};
    }
}

static int compare_tally(const void *a, const void *b) {
    const tally_entry *x = a, *y = b;
    if (x->count != y->count) {
        return y->count - x->count;
    }
    return strcmp(x->name, y->name);
}

static void tally_print(tally *t, const char *title) {
    qsort(t->items, t->count, sizeof(*t->items), compare_tally);
    printf("%s (%zu distinct)\n", title, t->count);
    for (size_t i = 0; i < t->count; i++) {
        printf("  %-40s %d\n", t->items[i].name, t->items[i].count);
        free(t->items[i].name);
    }
    free(t->items);
    *t = (tally){0};
}

typedef struct stats {
    int effects, compiled, techniques, passes;
    int max_passes;
    int per_technique[33];       // techniques with N passes; the last bucket is 32 or more
    tally states, sources, semantics, formats, includes;
} stats;

static const char *const special_names[] = {
    "(none)", "frametime", "framecount", "random", "pingpong", "date", "timer", "key",
    "mousepoint", "mousedelta", "mousebutton", "mousewheel", "overlay_open",
    "overlay_active", "overlay_hovered", "screenshot", "bufready_depth", "(unknown)",
};

static void stats_states_of(stats *st, const fx_decl *d) {
    for (; d; d = d->next) {
        if (d->kind == FX_DECL_NAMESPACE) {
            stats_states_of(st, d->items);
        } else if (d->kind == FX_DECL_TECHNIQUE && d->tech) {
            for (const fx_pass *p = d->tech->passes; p; p = p->next) {
                for (const fx_state *s = p->states; s; s = s->next) {
                    if (s->name) {
                        tally_add(&st->states, s->name->str, 1);
                    }
                }
            }
        }
    }
}

// Pass states as written come from the syntax tree: the module only keeps
// their resolved values.
static void stats_states(const options *o, const char *path, stats *st) {
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *arena = fx_arena_create(0);
    if (!arena) {
        return;
    }
    fx_pp_define defines[MAX_DEFINES + 32];
    size_t define_count = pp_defines(o, defines);
    jmp_buf jb;
    fx_ctx ctx = {.arena = arena, .diags = &diags, .fatal = &jb};
    fx_pp_desc desc = {
        .path = path,
        .include_paths = o->includes,
        .include_path_count = o->include_count,
        .defines = defines,
        .define_count = define_count,
    };
    fx_pp_result result = {0};
    if (setjmp(jb) == 0 && fx_pp_run(&ctx, &desc, &result)) {
        fx_ast *ast = fx_parse(&ctx, result.text, result.len, path);
        if (ast) {
            stats_states_of(st, ast->decls);
        }
    }
    fx_arena_destroy(arena);
    fxgl_diags_finish(&diags);
}

static const char *base_name(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static void stats_file(const options *o, const char *path, stats *st) {
    st->effects++;
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = compile(o, path, FXGL_GLSL_NONE, &diags);
    fxgl_diags_finish(&diags);
    if (!e) {
        return;
    }
    st->compiled++;
    for (size_t t = 0; t < e->technique_count; t++) {
        size_t n = e->techniques[t].pass_count;
        st->techniques++;
        st->passes += (int)n;
        st->per_technique[n > 32 ? 32 : n]++;
        if ((int)n > st->max_passes) {
            st->max_passes = (int)n;
        }
    }
    for (size_t u = 0; u < e->uniform_count; u++) {
        const fxgl_uniform *un = &e->uniforms[u];
        if (un->special == FXGL_SPECIAL_NONE) {
            continue;
        }
        const char *name = NULL;
        for (size_t a = 0; a < un->annotations.count; a++) {
            const fxgl_annotation *an = &un->annotations.items[a];
            if (strcmp(an->name, "source") == 0 && an->value.string) {
                name = an->value.string;
            }
        }
        if (!name && (size_t)un->special < sizeof(special_names) / sizeof(special_names[0])) {
            name = special_names[un->special];
        }
        tally_add(&st->sources, name ? name : "(unknown)", 1);
    }
    for (size_t x = 0; x < e->texture_count; x++) {
        const fxgl_texture *tx = &e->textures[x];
        if (tx->semantic) {
            tally_add(&st->semantics, tx->semantic, 1);
        } else {
            tally_add(&st->formats, fxgl_format_name(tx->format), 1);
        }
    }
    for (size_t i = 1; i < e->included_count; i++) {
        tally_add(&st->includes, base_name(e->included_files[i]), 1);
    }
    fxgl_effect_destroy(e);
    stats_states(o, path, st);
}

typedef struct {
    const options *o;
    stats *st;
} stats_walk;

static void stats_visit(void *ctx, const char *path) {
    stats_walk *w = ctx;
    stats_file(w->o, path, w->st);
}

static int cmd_stats(const options *o) {
    if (o->file_count == 0) {
        usage(stderr);
        return 2;
    }
    static stats st;
    for (size_t i = 0; i < o->file_count; i++) {
        struct stat sb;
        if (stat(o->files[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            walk_fx(o->files[i], 0, stats_visit, &(stats_walk){o, &st});
        } else {
            stats_file(o, o->files[i], &st);
        }
    }
    printf("effects: %d (%d compiled, %d failed)\n", st.effects, st.compiled,
           st.effects - st.compiled);
    printf("techniques: %d\n", st.techniques);
    printf("passes: %d (%.2f per technique, at most %d)\n", st.passes,
           st.techniques ? (double)st.passes / st.techniques : 0.0, st.max_passes);
    printf("techniques by pass count\n");
    for (int n = 0; n <= 32; n++) {
        if (st.per_technique[n]) {
            printf("  %s%-38d %d\n", n == 32 ? ">=" : "", n, st.per_technique[n]);
        }
    }
    tally_print(&st.states, "pass states (times written)");
    tally_print(&st.sources, "special uniform sources (uniforms)");
    tally_print(&st.semantics, "texture semantics (textures)");
    tally_print(&st.formats, "texture formats (textures without a semantic)");
    tally_print(&st.includes, "included files (effects that read them)");
    return st.compiled == st.effects ? 0 : 1;
}

// --- bench ---

// CPU time of the process: the build machines are shared, and wall time
// there measures the neighbours as much as the compiler.
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct bench_run {
    size_t input;                // bytes of every file the preprocessor read
    size_t peak;                 // arena bytes handed out
    size_t peak_pp, peak_parse, peak_check; // ... after each stage
    size_t pp_work;              // the preprocessor's own arena, freed when it returns
    size_t peak_module;          // the compilation's arena at the end
    size_t output;               // bytes of preprocessed text
    double pp_s, rest_s;         // preprocessing, parse + check + module
    bool ok;
} bench_run;

// The front end the way fxgl_effect_compile runs it, timed by stage, in one
// arena so that its peak counts everything.
static bench_run bench_once(const options *o, const char *path) {
    bench_run r = {0};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fx_arena *arena = fx_arena_create(0);
    if (!arena) {
        return r;
    }
    fx_pp_define defines[MAX_DEFINES + 32];
    size_t define_count = pp_defines(o, defines);
    jmp_buf jb;
    fx_ctx ctx = {.arena = arena, .diags = &diags, .fatal = &jb};
    fx_pp_desc desc = {
        .path = path,
        .include_paths = o->includes,
        .include_path_count = o->include_count,
        .defines = defines,
        .define_count = define_count,
    };
    fx_pp_result pr = {0};
    if (setjmp(jb) == 0) {
        double t0 = now_seconds();
        bool ok = fx_pp_run(&ctx, &desc, &pr);
        double t1 = now_seconds();
        r.pp_s = t1 - t0;
        r.peak_pp = fx_arena_peak(arena);
        r.pp_work = pr.work_peak;
        r.output = pr.len;
        for (size_t i = 0; i < pr.included_count; i++) {
            struct stat sb;
            if (stat(pr.included_files[i], &sb) == 0) {
                r.input += (size_t)sb.st_size;
            }
        }
        if (ok) {
            fx_ast *ast = fx_parse(&ctx, pr.text, pr.len, path);
            r.peak_parse = fx_arena_peak(arena);
            fx_program *prog = ctx.errors == 0 ? fx_check(&ctx, ast) : NULL;
            r.peak_check = fx_arena_peak(arena);
            if (prog && ctx.errors == 0) {
                r.ok = fx_module_build(&ctx, prog) != NULL;
            }
        }
        r.rest_s = now_seconds() - t1;
    }
    // Both arenas are alive while the preprocessor runs; only the
    // compilation's afterwards.
    r.peak = r.peak_module = fx_arena_peak(arena);
    if (r.pp_work + r.peak_pp > r.peak) {
        r.peak = r.pp_work + r.peak_pp;
    }
    fx_arena_destroy(arena);
    fxgl_diags_finish(&diags);
    return r;
}

// On the compiler's own stack, like fxgl_effect_compile: the stages recurse
// as deep as FX_LIMIT_EXPR_DEPTH allows.
typedef struct bench_job {
    const options *o;
    const char *path;
    bench_run run;
} bench_job;

static void *bench_thread(void *arg) {
    bench_job *job = arg;
    job->run = bench_once(job->o, job->path);
    return NULL;
}

static int cmd_bench(const options *o) {
    if (o->file_count == 0) {
        usage(stderr);
        return 2;
    }
    int n = o->repeat > 0 ? o->repeat : 10;
    double input = 0, pp_s = 0, rest_s = 0, worst_ratio = 0;
    size_t worst_peak = 0, failed = 0;
    bench_run worst_run = {0};
    const char *worst = "";
    for (size_t f = 0; f < o->file_count; f++) {
        for (int i = 0; i < n; i++) {
            bench_job job = {.o = o, .path = o->files[f]};
            if (!fx_run_on_compile_stack(bench_thread, &job)) {
                fprintf(stderr, "fxc: no thread for the compiler\n");
                return 1;
            }
            bench_run r = job.run;
            input += (double)r.input;
            pp_s += r.pp_s;
            rest_s += r.rest_s;
            failed += !r.ok;
            double ratio = r.input ? (double)r.peak / (double)r.input : 0;
            if (i == 0 && ratio > worst_ratio) {
                worst_ratio = ratio;
                worst_peak = r.peak;
                worst_run = r;
                worst = o->files[f];
            }
        }
    }
    double mb = input / 1e6;
    printf("files %zu x %d, input %.2f MB, failed runs %zu\n", o->file_count, n, mb, failed);
    printf("CPU time: preprocess %.3f s (%.1f MB/s), parse+check+module %.3f s, total %.3f s: "
           "%.1f MB/s\n",
           pp_s, pp_s > 0 ? mb / pp_s : 0, rest_s, pp_s + rest_s,
           pp_s + rest_s > 0 ? mb / (pp_s + rest_s) : 0);
    printf("arena peak per input byte: worst %.1fx (%zu bytes, %s)\n", worst_ratio, worst_peak,
           worst);
    if (worst_run.input) {
        printf("  its input %zu bytes, preprocessed %zu bytes; preprocessor's arena %zu;"
               " compilation's arena after preprocess %zu, parse %zu, check %zu, module %zu\n",
               worst_run.input, worst_run.output, worst_run.pp_work, worst_run.peak_pp,
               worst_run.peak_parse, worst_run.peak_check, worst_run.peak_module);
    }
    return failed ? 1 : 0;
}

int fxc_preset_main(int argc, char **argv);
int fxc_config_main(int argc, char **argv);

// No -I: the folders the library would search for effects (and so for includes), from
// the configuration, written "dir/**" where recursive. A user's ReShade.fxh comes before
// the installed one, as in the library.
static void add_default_includes(options *o) {
    extern char **environ;
    fxgl_config config;
    fxgl_config_env env = {.envp = (const char *const *)environ};
    if (!fxgl_config_load(&config, &env, NULL)) {
        return;
    }
    for (size_t i = 0; i < config.effect_path_count && o->include_count < MAX_INCLUDES; i++) {
        char *slot = o->include_storage[o->include_count];
        snprintf(slot, sizeof(o->include_storage[0]), "%s%s", config.effect_paths[i].path,
                 config.effect_paths[i].recursive ? "/**" : "");
        o->includes[o->include_count++] = slot;
    }
    o->default_includes = true;
    fxgl_config_finish(&config);
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "preset") == 0) {
        return fxc_preset_main(argc - 2, argv + 2); // tools/fxc_preset.c
    }
    if (strcmp(argv[1], "config") == 0) {
        return fxc_config_main(argc - 2, argv + 2); // tools/fxc_config.c
    }
    static options o;
    if (!parse_options(argc - 2, argv + 2, &o)) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (o.include_count == 0 && strcmp(cmd, "conform") != 0 && strcmp(cmd, "stats") != 0 &&
        strcmp(cmd, "bench") != 0) {
        add_default_includes(&o);
    }
    if (strcmp(cmd, "check") == 0) {
        return cmd_check(&o);
    }
    if (strcmp(cmd, "preprocess") == 0) {
        return cmd_preprocess(&o);
    }
    if (strcmp(cmd, "dump") == 0) {
        return cmd_dump(&o);
    }
    if (strcmp(cmd, "techniques") == 0) {
        return cmd_techniques(&o);
    }
    if (strcmp(cmd, "glsl") == 0) {
        return cmd_glsl(&o);
    }
    if (strcmp(cmd, "conform") == 0) {
        return cmd_conform(&o);
    }
    if (strcmp(cmd, "stats") == 0) {
        return cmd_stats(&o);
    }
    if (strcmp(cmd, "bench") == 0) {
        return cmd_bench(&o);
    }
    fprintf(stderr, "fxc: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
