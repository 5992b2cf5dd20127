/*
 * fxc_preset.c - `fxc preset`: validates a preset against shader folders and prints what
 * would run, in what order, with what values and definitions.
 *
 *   fxc preset PRESET.ini [--shaders DIR...] [--textures DIR...] [--config FILE]
 *              [-D NAME[=VALUE]...] [--performance-mode] [--skip-disabled]
 *
 * The effects are every *.fx file of the folders (a folder with a trailing "**" is itself
 * and every folder below it, as EffectSearchPaths), compiled through src/effects exactly
 * as the runtime compiles them (front end only); their `source=` textures are looked up as
 * the runtime looks them up. Without --shaders (--textures), the folders are the
 * configuration's (fxgl.ini / ReShade.ini, --config FILE, FXGL_* variables: what the
 * library would use). Problems - unknown techniques, effect files the preset names that
 * are not there, values that do not fit, missing textures - are warnings with file and
 * line on stderr. Exit status: 0 valid, 1 warnings, 2 usage or missing/unreadable preset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_preset.h"

int fxc_preset_main(int argc, char **argv);

typedef struct fx_item {
    char *path;
    const char *file;
    fxgl_effect *fx;             // NULL: skipped or failed
    const char *skipped;         // why it was not compiled, NULL when compiled
    fxgl_preset_effect pe;
} fx_item;

static unsigned warnings;

static void on_diag(void *user, const fxgl_preset_diag *d) {
    (void)user;
    char buf[1200];
    fxgl_preset_diag_format(d, buf, sizeof(buf));
    fprintf(stderr, "%s\n", buf);
    warnings++;
}

// Appends the effect files of the folders (src/preset/search.c: every folder below a
// `**` path too, the first file of a name only, as the library loads them).
static bool list_effects(const fxgl_search *dirs, fx_item **items, size_t *count) {
    char **files = NULL;
    size_t n = fxgl_search_effects(dirs, &files);
    if (files == NULL) {
        return false;
    }
    *items = calloc(n + 1, sizeof(**items));
    for (size_t i = 0; i < n; i++) {
        if (*items != NULL) {
            (*items)[i].path = files[i];
        } else {
            free(files[i]);
        }
    }
    free(files);
    *count = *items != NULL ? n : 0;
    return *items != NULL;
}

// Every `source=` texture of an effect that runs must be found as the runtime finds it:
// next to the effect, then in the texture folders; a missing one is a warning naming the
// folders looked in (the runtime would bind a black texture).
static void check_textures(const fx_item *it, const fxgl_search *textures) {
    for (size_t t = 0; t < it->fx->texture_count; t++) {
        const char *source = it->fx->textures[t].source;
        if (source == NULL || source[0] == '\0') {
            continue;
        }
        char own[4096];
        const char *slash = strrchr(it->path, '/');
        snprintf(own, sizeof(own), "%.*s", slash != NULL ? (int)(slash - it->path) : 1,
                 slash != NULL ? it->path : ".");
        fxgl_search here = {.dirs = (char *[]){own, NULL}, .count = 1};
        char *found = fxgl_search_find(&here, source);
        if (found == NULL) {
            found = fxgl_search_find(textures, source);
        }
        if (found != NULL) {
            free(found);
            continue;
        }
        char dirs[2048];
        fxgl_search_describe(textures, dirs, sizeof(dirs));
        fprintf(stderr, "%s: warning: texture '%s': source '%s' not found in: %s%s%s\n",
                it->path, it->fx->textures[t].name, source, own, textures->count ? ", " : "",
                textures->count ? dirs : "");
        warnings++;
    }
}

static void print_value(const fxgl_preset_uniform *u) {
    size_t n = (u->rows ? u->rows : 1) * (u->cols ? u->cols : 1);
    for (size_t k = 0; k < n && k < FXGL_PRESET_MAX_COMPONENTS; k++) {
        fputs(k ? "," : "", stdout);
        switch (u->type) {
        case FXGL_PRESET_FLOAT:
            printf("%f", (double)u->value[k].f);
            break;
        case FXGL_PRESET_INT:
            printf("%d", u->value[k].i);
            break;
        case FXGL_PRESET_UINT:
            printf("%u", u->value[k].u);
            break;
        case FXGL_PRESET_BOOL:
            fputs(u->value[k].u ? "true" : "false", stdout);
            break;
        }
    }
}

extern char **environ;

// The folders: the options', else the configuration's (what the library would search).
static bool search_paths(const char *config_file, const char *const *shaders, size_t nshaders,
                         const char *const *textures, size_t ntextures, fxgl_search *effect_dirs,
                         fxgl_search *texture_dirs) {
    fxgl_config config = {0};
    bool need_config = nshaders == 0 || ntextures == 0;
    bool ok = true;
    if (need_config) {
        size_t n = 0;
        while (environ[n] != NULL) {
            n++;
        }
        const char **envp = calloc(n + 2, sizeof(*envp));
        char *config_var = NULL;
        ok = envp != NULL;
        size_t used = 0;
        for (size_t i = 0; ok && i < n; i++) {
            if (config_file == NULL || strncmp(environ[i], "FXGL_CONFIG=", 12) != 0) {
                envp[used++] = environ[i];
            }
        }
        if (ok && config_file != NULL) {
            config_var = malloc(strlen(config_file) + sizeof("FXGL_CONFIG="));
            ok = config_var != NULL;
            if (ok) {
                sprintf(config_var, "FXGL_CONFIG=%s", config_file);
                envp[used++] = config_var;
            }
        }
        fxgl_config_env env = {.envp = envp, .program_dir = NULL};
        ok = ok && fxgl_config_load(&config, &env, &(fxgl_preset_sink){.fn = on_diag});
        free(envp);
        free(config_var);
    }
    ok = ok &&
         (nshaders > 0 ? fxgl_search_expand_raw(effect_dirs, shaders, nshaders)
                       : fxgl_search_expand(effect_dirs, config.effect_paths,
                                            config.effect_path_count)) &&
         (ntextures > 0 ? fxgl_search_expand_raw(texture_dirs, textures, ntextures)
                        : fxgl_search_expand(texture_dirs, config.texture_paths,
                                             config.texture_path_count));
    fxgl_config_finish(&config);
    if (!ok) {
        fprintf(stderr, "fxc: out of memory\n");
    }
    return ok;
}

static void usage(void) {
    fprintf(stderr, "usage: fxc preset PRESET.ini [--shaders DIR...] [--textures DIR...]\n"
                    "                  [--config FILE] [-D NAME[=VALUE]...] "
                    "[--performance-mode] [--skip-disabled]\n"
                    "  DIR/** is DIR and every folder below it; without --shaders or "
                    "--textures,\n  the configuration's search paths (as the library)\n");
}

int fxc_preset_main(int argc, char **argv) {
    const char *preset_path = NULL;
    const char *dirs[64];
    size_t dir_count = 0;
    const char *texture_args[64];
    size_t texture_arg_count = 0;
    const char *config_file = NULL;
    fxgl_preset_define defs[64];
    size_t def_count = 0;
    bool performance = false, skip = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--shaders") == 0 && next != NULL && dir_count < 64) {
            dirs[dir_count++] = argv[++i];
        } else if (strcmp(a, "--textures") == 0 && next != NULL && texture_arg_count < 64) {
            texture_args[texture_arg_count++] = argv[++i];
        } else if (strcmp(a, "--config") == 0 && next != NULL) {
            config_file = argv[++i];
        } else if (strcmp(a, "-D") == 0 && next != NULL && def_count < 64) {
            char *d = argv[++i];
            char *eq = strchr(d, '=');
            if (eq != NULL) {
                *eq = '\0';
            }
            defs[def_count++] = (fxgl_preset_define){d, eq != NULL ? eq + 1 : ""};
        } else if (strcmp(a, "--performance-mode") == 0) {
            performance = true;
        } else if (strcmp(a, "--skip-disabled") == 0) {
            skip = true;
        } else if (a[0] != '-' && preset_path == NULL) {
            preset_path = a;
        } else {
            usage();
            return 2;
        }
    }
    if (preset_path == NULL) {
        usage();
        return 2;
    }
    fxgl_preset_sink sink = {.fn = on_diag};
    fxgl_search effect_dirs, texture_dirs;
    if (!search_paths(config_file, dirs, dir_count, texture_args, texture_arg_count,
                      &effect_dirs, &texture_dirs)) {
        return 2;
    }
    fxgl_preset *preset = fxgl_preset_create(&(fxgl_preset_desc){.path = preset_path,
                                                                 .sink = sink});
    if (preset != NULL && fxgl_preset_status(preset) != FXGL_INI_OK) {
        if (fxgl_preset_status(preset) == FXGL_INI_MISSING) {
            fprintf(stderr, "%s: error: the preset does not exist\n", preset_path);
        }
        fxgl_preset_destroy(preset);
        fxgl_search_finish(&effect_dirs);
        fxgl_search_finish(&texture_dirs);
        return 2;
    }
    fxgl_compiler *effects = fxgl_compiler_create(&(fxgl_compiler_desc){
        .target = FXGL_GLSL_NONE,
        .include_paths = (const char *const *)effect_dirs.dirs,
        .include_path_count = effect_dirs.count,
        .defines = defs,
        .define_count = def_count,
        .performance_mode = performance,
        .skip_disabled = skip,
        .sink = {0}, // the preset's own warnings come once, from `preset` below
    });
    if (preset == NULL || effects == NULL || !fxgl_compiler_set_preset(effects, preset_path)) {
        fprintf(stderr, "fxc: out of memory\n");
        return 2;
    }
    fx_item *items = NULL;
    size_t count = 0;
    if (!list_effects(&effect_dirs, &items, &count)) {
        fprintf(stderr, "fxc: out of memory\n");
        return 2;
    }
    if (count == 0) {
        char where[2048];
        fxgl_search_describe(&effect_dirs, where, sizeof(where));
        fprintf(stderr, "fxc preset: warning: no .fx files in: %s\n", where);
        warnings++;
    }
    // Compile (front end only) every effect the runtime would compile.
    fxgl_preset_effect *pe = calloc(count + 1, sizeof(*pe));
    size_t *map = calloc(count + 1, sizeof(*map));
    size_t loaded = 0;
    for (size_t i = 0; pe != NULL && map != NULL && i < count; i++) {
        fx_item *it = &items[i];
        it->file = fxgl_compiler_file_part(it->path);
        if (!fxgl_compiler_wanted(effects, it->file)) {
            it->skipped = "no technique enabled (SkipLoadingDisabledEffects)";
            continue;
        }
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        it->fx = fxgl_compiler_compile(effects, it->path, &diags);
        if (it->fx == NULL) {
            it->skipped = "does not compile";
            for (size_t k = 0; k < diags.count; k++) {
                if (diags.items[k].severity == FXGL_DIAG_ERROR) {
                    char buf[1200];
                    fxgl_diag_format(&diags.items[k], buf, sizeof(buf));
                    fprintf(stderr, "%s\n", buf);
                    warnings++;
                    break; // the first error says enough here; fxc check says all
                }
            }
        }
        fxgl_diags_finish(&diags);
        if (it->fx != NULL && fxgl_effect_view(it->fx, it->file, &it->pe)) {
            pe[loaded] = it->pe;
            map[loaded++] = i;
        }
    }
    // Techniques, keys and values as the runtime would apply them (warnings: unknown
    // techniques, missing effect files, bad values, with the preset's file and line).
    fxgl_preset_apply(preset, pe, loaded);
    size_t total = 0;
    for (size_t k = 0; k < loaded; k++) {
        total += pe[k].technique_count;
    }
    fxgl_preset_technique_ref *order = calloc(total + 1, sizeof(*order));
    size_t n = order != NULL ? fxgl_preset_order(preset, NULL, 0, pe, loaded, order) : 0;

    printf("preset: %s%s\n", preset_path, performance ? " (performance mode)" : "");
    printf("effects: %zu found, %zu compiled\n", count, loaded);
    for (size_t i = 0; i < count; i++) {
        if (items[i].skipped != NULL) {
            printf("  skipped %s: %s\n", items[i].file, items[i].skipped);
        }
    }
    printf("runs, in order:\n");
    size_t running = 0;
    for (size_t i = 0; i < n; i++) {
        const fxgl_preset_technique *t = &pe[order[i].effect].techniques[order[i].technique];
        if (t->enabled) {
            printf("  %zu. %s@%s%s%s\n", ++running, t->name, pe[order[i].effect].file,
                   t->forced_on ? " (always on)" : "",
                   t->skip_in_screenshot ? " (not in screenshots)" : "");
        }
    }
    if (running == 0) {
        printf("  (nothing)\n");
    }
    for (size_t k = 0; k < loaded; k++) {
        bool any = false;
        for (size_t t = 0; t < pe[k].technique_count; t++) {
            any |= pe[k].techniques[t].enabled;
        }
        if (any) {
            check_textures(&items[map[k]], &texture_dirs);
        }
    }
    // Values and definitions of the effects with something running.
    for (size_t k = 0; k < loaded; k++) {
        bool any = false;
        for (size_t t = 0; t < pe[k].technique_count; t++) {
            any |= pe[k].techniques[t].enabled;
        }
        if (!any) {
            continue;
        }
        printf("[%s]\n", pe[k].file);
        fxgl_preset_define_list list = {0};
        if (fxgl_compiler_defines(effects, pe[k].file, &list) && list.count > 0) {
            printf("  definitions:");
            for (size_t d = 0; d < list.count; d++) {
                printf(" %s=%s", list.items[d].name, list.items[d].value);
            }
            printf("\n");
        }
        fxgl_preset_define_list_finish(&list);
        for (size_t u = 0; u < pe[k].uniform_count; u++) {
            const fxgl_preset_uniform *pu = &pe[k].uniforms[u];
            if (pu->special || pu->nosave) {
                continue;
            }
            printf("  %s=", pu->name);
            print_value(pu);
            bool from_preset = fxgl_ini_has(fxgl_preset_ini(preset), pe[k].file, pu->name);
            printf("%s\n", from_preset ? "" : "  (default)");
        }
    }
    for (size_t i = 0; i < count; i++) {
        fxgl_effect_view_finish(&items[i].pe);
        fxgl_effect_destroy(items[i].fx);
        free(items[i].path);
    }
    free(items);
    free(pe);
    free(map);
    free(order);
    fxgl_compiler_destroy(effects);
    fxgl_preset_destroy(preset);
    fxgl_search_finish(&effect_dirs);
    fxgl_search_finish(&texture_dirs);
    if (warnings > 0) {
        fprintf(stderr, "fxc preset: %u warning%s\n", warnings, warnings == 1 ? "" : "s");
    }
    return warnings > 0 ? 1 : 0;
}
