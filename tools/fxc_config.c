/*
 * fxc_config.c - `fxc config`: the configuration the library would use for a program, read
 * by the same code (src/preset/config.c, search.c), so what it prints is what happens.
 * `fxgl --print-config` and `fxgl --list-effects` are this command.
 *
 *   fxc config [--list-effects] [--config FILE] [PROGRAM]
 *
 * PROGRAM (a path, or a name looked up in PATH) gives the program's folder and name, as
 * the library reads them from /proc/self/exe: its fxgl.ini / ReShade.ini and
 * $XDG_CONFIG_HOME/fxgl/<name>.conf. --config FILE is FXGL_CONFIG. Without --list-effects
 * it prints the files looked at and read, the preset and what chose it, the search paths
 * as written and as expanded, and the keys; with it, every effect file of the search paths
 * (the first of a name: the one loaded) with its techniques. Exit status: 0, 1 when no
 * effect file was found (--list-effects) or a file did not compile, 2 usage.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_preset.h"

int fxc_config_main(int argc, char **argv);

extern char **environ;

static void on_diag(void *user, const fxgl_preset_diag *d) {
    (void)user;
    char buf[1200];
    fxgl_preset_diag_format(d, buf, sizeof(buf));
    fprintf(stderr, "%s\n", buf);
}

// The program as the library sees it: its resolved path (symbolic links followed, as
// /proc/self/exe), found in PATH when the name has no '/'.
static bool find_program(const char *name, char *out, size_t size) {
    char candidate[PATH_MAX];
    if (strchr(name, '/') != NULL) {
        return realpath(name, out) != NULL && size >= PATH_MAX;
    }
    const char *path = getenv("PATH");
    for (const char *p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0';) {
        size_t len = strcspn(p, ":");
        if (snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, len ? p : ".", name) <
                (int)sizeof(candidate) &&
            access(candidate, X_OK) == 0 && realpath(candidate, out) != NULL &&
            size >= PATH_MAX) {
            return true;
        }
        p += len + (p[len] == ':');
    }
    return false;
}

static void print_paths(const char *what, const fxgl_config_path *paths, size_t count) {
    printf("%s:", what);
    for (size_t i = 0; i < count; i++) {
        printf("%s %s%s", i ? "," : "", paths[i].path, paths[i].recursive ? "/**" : "");
    }
    printf("%s\n", count ? "" : " (none)");
    fxgl_search s;
    if (fxgl_search_expand(&s, paths, count)) {
        size_t exist = 0;
        for (size_t i = 0; i < s.count; i++) {
            exist += access(s.dirs[i], F_OK) == 0;
        }
        printf("  %zu folder%s searched, %zu of them exist\n", s.count, s.count == 1 ? "" : "s",
               exist);
        fxgl_search_finish(&s);
    }
}

static void print_key(const char *what, const fxgl_preset_key *key, bool first) {
    char buf[64];
    fxgl_preset_key_describe(key, buf, sizeof(buf));
    printf("%s %s=%s", first ? "" : ",", what, buf[0] ? buf : "none");
}

static void print_config(const fxgl_config *c, const fxgl_config_env *env) {
    char *candidates[32];
    size_t n = fxgl_config_candidates(env, candidates, 32);
    printf("program: %s%s%s\n", env->program_dir ? env->program_dir : "(none)",
           env->program_name ? "/" : "", env->program_name ? env->program_name : "");
    printf("configuration files, first wins:\n");
    for (size_t i = 0; i < n; i++) {
        bool read = false;
        for (size_t k = 0; k < c->file_count; k++) {
            read |= strcmp(c->files[k], candidates[i]) == 0;
        }
        printf("  %s %s\n", read ? "read     " : "not found", candidates[i]);
        free(candidates[i]);
    }
    if (c->preset_path != NULL && c->preset_path[0] != '\0') {
        printf("preset: %s (%s)%s\n", c->preset_path,
               c->preset_origin ? c->preset_origin : "configured",
               access(c->preset_path, F_OK) == 0 ? "" : " - does not exist");
    } else {
        printf("preset: none\n");
    }
    print_paths("effect search paths", c->effect_paths, c->effect_path_count);
    print_paths("texture search paths", c->texture_paths, c->texture_path_count);
    printf("keys:");
    print_key("KeyEffects", &c->key_effects, true);
    print_key("KeyReload", &c->key_reload, false);
    print_key("KeyNextPreset", &c->key_next_preset, false);
    print_key("KeyPreviousPreset", &c->key_previous_preset, false);
    print_key("KeyScreenshot", &c->key_screenshot, false);
    print_key("KeyPerformanceMode", &c->key_performance_mode, false);
    print_key("KeyOverlay", &c->key_overlay, false);
    printf("\n");
    printf("cache: %s (IntermediateCachePath, FXGL_CACHE_DIR; compiled effects, "
           "FXGL_CACHE_DIR=off: none)\n", c->cache_path ? c->cache_path : "off");
    static const char *const levels[] = {"error", "warn", "info", "debug"};
    printf("performance mode: %s; skip disabled effects: %s; log: %s to %s\n",
           c->performance_mode ? "on" : "off", c->skip_disabled_effects ? "on" : "off",
           levels[c->log_level], c->log_file ? c->log_file : "stderr");
}

// Every effect file of the search paths with its techniques, compiled against the same
// search paths (front end only), as the library would.
static int list_effects(const fxgl_config *c) {
    fxgl_search dirs;
    if (!fxgl_search_expand(&dirs, c->effect_paths, c->effect_path_count)) {
        fprintf(stderr, "fxc: out of memory\n");
        return 2;
    }
    char **files = NULL;
    size_t n = fxgl_search_effects(&dirs, &files);
    int status = 0;
    fxgl_compiler *compiler = fxgl_compiler_create(&(fxgl_compiler_desc){
        .target = FXGL_GLSL_NONE,
        .include_paths = (const char *const *)dirs.dirs,
        .include_path_count = dirs.count,
        .defines = c->defines.items,
        .define_count = c->defines.count,
    });
    for (size_t i = 0; compiler != NULL && i < n; i++) {
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fxgl_effect *e = fxgl_compiler_compile(compiler, files[i], &diags);
        if (e == NULL) {
            printf("%s: (does not compile; see: fxc check)\n", files[i]);
            status = 1;
        } else {
            printf("%s:", files[i]);
            for (size_t t = 0; t < e->technique_count; t++) {
                printf(" %s", e->techniques[t].name);
            }
            printf("\n");
        }
        fxgl_effect_destroy(e);
        fxgl_diags_finish(&diags);
    }
    if (n == 0) {
        char where[4096];
        fxgl_search_describe(&dirs, where, sizeof(where));
        fprintf(stderr, "fxgl: no .fx files in: %s\n", where);
        status = 1;
    }
    for (size_t i = 0; i < n; i++) {
        free(files[i]);
    }
    free(files);
    fxgl_compiler_destroy(compiler);
    fxgl_search_finish(&dirs);
    return status;
}

int fxc_config_main(int argc, char **argv) {
    bool effects = false;
    const char *config_file = NULL;
    const char *program = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--list-effects") == 0) {
            effects = true;
        } else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            config_file = argv[++i];
        } else if (argv[i][0] != '-' && program == NULL) {
            program = argv[i];
            break; // the rest is the program's own arguments
        } else {
            fprintf(stderr, "usage: fxc config [--list-effects] [--config FILE] [PROGRAM]\n");
            return 2;
        }
    }
    char resolved[PATH_MAX];
    char *dir = NULL;
    const char *name = NULL;
    if (program != NULL) {
        if (!find_program(program, resolved, sizeof(resolved))) {
            fprintf(stderr, "fxgl: program not found: %s\n", program);
            return 2;
        }
        char *slash = strrchr(resolved, '/');
        *slash = '\0';
        dir = resolved[0] ? resolved : "/";
        // The name as started (the library reads program_invocation_short_name), not the
        // file a symbolic link resolves to.
        const char *given = strrchr(program, '/');
        name = given != NULL ? given + 1 : program;
    }
    size_t count = 0;
    while (environ[count] != NULL) {
        count++;
    }
    const char **envp = calloc(count + 2, sizeof(*envp));
    char *config_var = config_file ? malloc(strlen(config_file) + sizeof("FXGL_CONFIG=")) : NULL;
    if (envp == NULL || (config_file != NULL && config_var == NULL)) {
        fprintf(stderr, "fxc: out of memory\n");
        return 2;
    }
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        if (config_file == NULL || strncmp(environ[i], "FXGL_CONFIG=", 12) != 0) {
            envp[used++] = environ[i];
        }
    }
    if (config_var != NULL) {
        sprintf(config_var, "FXGL_CONFIG=%s", config_file);
        envp[used++] = config_var;
    }
    fxgl_config_env env = {.envp = envp, .program_dir = dir, .program_name = name};
    fxgl_config config;
    int status = 2;
    if (fxgl_config_load(&config, &env, &(fxgl_preset_sink){.fn = on_diag})) {
        if (effects) {
            status = list_effects(&config);
        } else {
            print_config(&config, &env);
            status = 0;
        }
    } else {
        fprintf(stderr, "fxc: out of memory\n");
    }
    fxgl_config_finish(&config);
    free(envp);
    free(config_var);
    return status;
}
