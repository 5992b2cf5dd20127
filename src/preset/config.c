/*
 * config.c - fxgl.ini / ReShade.ini: where the files are, what they say, what the
 * environment overrides.
 *
 * Lookup is XDG-style and layered: every candidate that exists is read, and each key comes
 * from the first (highest-priority) file that has it, just as the reference lets a
 * per-game ReShade.ini fall back to the global one for missing keys. Keys and sections are
 * ReShade.ini's where ReShade has them ([GENERAL], [INPUT]); logging is ours ([LOG]).
 * Relative paths are relative to the file that holds them (the reference: to the DLL, i.e.
 * the directory of the ReShade.ini beside it), with `\` read as `/`.
 *
 * The environment and the program's directory are inputs (fxgl_config_env), never read
 * here with getenv, so the lookup is testable and the interposer reads environ once.
 */
#include "preset_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CONFIG_MAX_CANDIDATES 32

// The installed data ($(pkgdatadir): shaders/, textures/, presets/) comes from the build,
// so a package built for /usr finds its own files; FXGL_DATA_DIR moves it at run time
// (an install unpacked elsewhere, the install test's DESTDIR).
#ifndef FXGL_DATADIR
#error "FXGL_DATADIR (the installed data directory) must be defined by the build"
#endif

static const char *env_get(const fxgl_config_env *env, const char *name) {
    size_t len = strlen(name);
    for (const char *const *e = env != NULL ? env->envp : NULL; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=') {
            return *e + len + 1;
        }
    }
    return NULL;
}

// A variable that is set and not empty (XDG: an empty value means unset).
static const char *env_value(const fxgl_config_env *env, const char *name) {
    const char *value = env_get(env, name);
    return value != NULL && value[0] != '\0' ? value : NULL;
}

static char *join(const char *a, const char *b) {
    size_t la = strlen(a);
    size_t lb = strlen(b);
    bool slash = la > 0 && a[la - 1] != '/';
    char *out = malloc(la + lb + 2);
    if (out != NULL) {
        memcpy(out, a, la);
        if (slash) {
            out[la++] = '/';
        }
        memcpy(out + la, b, lb + 1);
    }
    return out;
}

static const char *data_dir(const fxgl_config_env *env) {
    const char *value = env_value(env, "FXGL_DATA_DIR");
    return value != NULL ? value : FXGL_DATADIR;
}

// $XDG_<name>_HOME, else $HOME/<fallback>; NULL when neither is known.
static char *xdg_home(const fxgl_config_env *env, const char *variable, const char *fallback) {
    const char *value = env_value(env, variable);
    if (value != NULL && value[0] == '/') {
        return preset_strdup(value);
    }
    const char *home = env_value(env, "HOME");
    return home != NULL ? join(home, fallback) : NULL;
}

size_t fxgl_config_candidates(const fxgl_config_env *env, char **out, size_t max) {
    size_t n = 0;
#define ADD(expr)                                                                          \
    do {                                                                                   \
        char *candidate_ = (expr);                                                         \
        if (candidate_ != NULL && n < max) {                                               \
            out[n++] = candidate_;                                                         \
        } else {                                                                           \
            free(candidate_);                                                              \
        }                                                                                  \
    } while (0)
    const char *explicit_path = env_value(env, "FXGL_CONFIG");
    if (explicit_path != NULL) {
        ADD(preset_strdup(explicit_path));
    }
    char *config_home = xdg_home(env, "XDG_CONFIG_HOME", ".config");
    const char *name = env != NULL ? env->program_name : NULL;
    if (config_home != NULL && name != NULL && name[0] != '\0' && strchr(name, '/') == NULL &&
        name[0] != '.') {
        // One file per program, by executable name, as MangoHud's <name>.conf: writable
        // even when the program's own folder (/usr/games) is not.
        size_t len = strlen(name);
        char *file = malloc(len + sizeof("fxgl/.conf"));
        if (file != NULL) {
            snprintf(file, len + sizeof("fxgl/.conf"), "fxgl/%s.conf", name);
            ADD(join(config_home, file));
            free(file);
        }
    }
    if (env != NULL && env->program_dir != NULL && env->program_dir[0] != '\0') {
        ADD(join(env->program_dir, "fxgl.ini"));
        ADD(join(env->program_dir, "ReShade.ini"));
    }
    if (config_home != NULL) {
        ADD(join(config_home, "fxgl/fxgl.ini"));
        free(config_home);
    }
    const char *dirs = env_value(env, "XDG_CONFIG_DIRS");
    if (dirs == NULL) {
        dirs = "/etc/xdg";
    }
    for (const char *p = dirs; *p != '\0';) {
        const char *colon = strchr(p, ':');
        size_t len = colon != NULL ? (size_t)(colon - p) : strlen(p);
        if (len > 0 && p[0] == '/') { // XDG: relative entries are invalid and ignored
            char *dir = preset_strndup(p, len);
            if (dir != NULL) {
                ADD(join(dir, "fxgl/fxgl.ini"));
                free(dir);
            }
        }
        p += len + (colon != NULL);
    }
    ADD(preset_strdup("/etc/fxgl/fxgl.ini"));
#undef ADD
    return n;
}

// --- layered reading ---

typedef struct config_layer {
    fxgl_ini *ini;               // owned
    char *path;                  // owned
    char *dir;                   // owned; base for relative paths
} config_layer;

typedef struct config_reader {
    config_layer layers[CONFIG_MAX_CANDIDATES];
    size_t count;
    const fxgl_config_env *env;
    const fxgl_preset_sink *sink;
    bool preset_chosen;          // a file key or FXGL_PRESET named the preset
    const char *preset_name;     // FXGL_PRESET's value when it was a name ("default")
    bool oom;
} config_reader;

// Elements of section/key from the first layer that has it; *layer gets its index.
static const char *const *layer_get(const config_reader *r, const char *section,
                                    const char *key, size_t *count, size_t *layer) {
    for (size_t i = 0; i < r->count; i++) {
        const char *const *elements = fxgl_ini_get(r->layers[i].ini, section, key, count);
        if (elements != NULL) {
            *layer = i;
            return elements;
        }
    }
    *count = 0;
    return NULL;
}

static void warn_at(const config_reader *r, size_t layer, const char *section, const char *key,
                    const char *fmt, const char *arg) {
    preset_diagf(r->sink, FXGL_PRESET_WARNING, r->layers[layer].path,
                 fxgl_ini_line(r->layers[layer].ini, section, key), fmt, arg);
}

// Resolves a path as written in a file or the environment: `\` -> `/`, `~/` -> $HOME,
// relative -> base/..., a trailing `**` -> recursive.
static bool make_path(const fxgl_config_env *env, const char *raw, const char *base,
                      fxgl_config_path *out) {
    char *text = preset_strdup(raw);
    if (text == NULL) {
        return false;
    }
    for (char *c = text; *c != '\0'; c++) {
        if (*c == '\\') {
            *c = '/';
        }
    }
    size_t len = strlen(text);
    out->recursive = len >= 2 && strcmp(text + len - 2, "**") == 0;
    if (out->recursive) {
        text[len -= 2] = '\0';
    }
    while (len > 1 && text[len - 1] == '/') {
        text[--len] = '\0';
    }
    const char *rest = text;
    while (rest[0] == '.' && rest[1] == '/') {
        rest += 2;
    }
    if (strcmp(rest, ".") == 0) {
        rest = "";
    }
    const char *home = env_value(env, "HOME");
    if (rest[0] == '/') {
        out->path = preset_strdup(rest);
    } else if (rest[0] == '~' && (rest[1] == '/' || rest[1] == '\0') && home != NULL) {
        out->path = join(home, rest[1] == '/' ? rest + 2 : "");
    } else if (base != NULL && base[0] != '\0') {
        out->path = rest[0] != '\0' ? join(base, rest) : preset_strdup(base);
    } else {
        out->path = preset_strdup(rest[0] != '\0' ? rest : ".");
    }
    free(text);
    return out->path != NULL;
}

bool fxgl_config_path_parse(const char *raw, const char *base, fxgl_config_path *out) {
    return make_path(NULL, raw, base, out);
}

static void free_paths(fxgl_config_path *paths, size_t count) {
    for (size_t i = 0; paths != NULL && i < count; i++) {
        free(paths[i].path);
    }
    free(paths);
}

static bool set_paths(fxgl_config_path **paths, size_t *count, char *const *raw,
                      const char *const *bases, size_t n, const fxgl_config_env *env) {
    fxgl_config_path *fresh = calloc(n + 1, sizeof(*fresh));
    if (fresh == NULL) {
        return false;
    }
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (raw[i][0] == '\0') {
            continue;
        }
        if (!make_path(env, raw[i], bases[i], &fresh[used])) {
            free_paths(fresh, used);
            return false;
        }
        used++;
    }
    free_paths(*paths, *count);
    *paths = fresh;
    *count = used;
    return true;
}

// Search paths from a file key (relative to that file), if any layer has it.
static void read_paths(config_reader *r, const char *key, fxgl_config_path **paths,
                       size_t *count) {
    size_t n;
    size_t layer;
    const char *const *elements = layer_get(r, "GENERAL", key, &n, &layer);
    if (elements == NULL) {
        return;
    }
    const char **bases = calloc(n + 1, sizeof(*bases));
    if (bases == NULL) {
        r->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        bases[i] = r->layers[layer].dir;
    }
    r->oom |= !set_paths(paths, count, (char *const *)elements, bases, n, r->env);
    free(bases);
}

static bool parse_bool_text(const char *text, bool *out) {
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(text, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static void read_bool(config_reader *r, const char *section, const char *key, bool *out) {
    size_t n;
    size_t layer;
    if (layer_get(r, section, key, &n, &layer) != NULL) {
        *out = fxgl_ini_get_bool(r->layers[layer].ini, section, key, 0);
    }
}

static void read_key_binding(config_reader *r, const char *key, fxgl_preset_key *out) {
    size_t n;
    size_t layer;
    const char *const *elements = layer_get(r, "INPUT", key, &n, &layer);
    if (elements == NULL) {
        return;
    }
    if (!fxgl_preset_key_parse(elements, n, out)) {
        warn_at(r, layer, "INPUT", key, "'%s' is not a key binding 'vk,ctrl,shift,alt'", key);
    }
}

static bool replace_string(char **field, const char *value) {
    char *copy = value != NULL ? preset_strdup(value) : NULL;
    if (value != NULL && copy == NULL) {
        return false;
    }
    free(*field);
    *field = copy;
    return true;
}

static bool replace_path(char **field, const fxgl_config_env *env, const char *raw,
                         const char *base) {
    fxgl_config_path path = {0};
    if (!make_path(env, raw, base, &path)) {
        return false;
    }
    free(*field);
    *field = path.path;
    return true;
}

static bool parse_level(const char *text, fxgl_config_log_level *out) {
    static const char *const names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(text, names[i]) == 0 || (text[0] == '0' + i && text[1] == '\0')) {
            *out = (fxgl_config_log_level)i;
            return true;
        }
    }
    if (strcasecmp(text, "warning") == 0) {
        *out = FXGL_CONFIG_LOG_WARN;
        return true;
    }
    return false;
}

// Splits a comma list with the INI rules (",," is a comma) by parsing it as one key.
static bool split_list(const char *text, fxgl_ini **holder, const char *const **elements,
                       size_t *count) {
    size_t len = strlen(text);
    char *line = malloc(len + 3);
    *holder = fxgl_ini_create();
    bool ok = line != NULL && *holder != NULL;
    if (ok) {
        memcpy(line, "v=", 2);
        memcpy(line + 2, text, len + 1);
        ok = fxgl_ini_parse(*holder, line, len + 2, NULL, NULL);
        *elements = fxgl_ini_get(*holder, NULL, "v", count);
    }
    free(line);
    return ok && *elements != NULL;
}

static bool set_strings(char ***field, size_t *field_count, const char *const *elements,
                        size_t count) {
    char **fresh = calloc(count + 1, sizeof(*fresh));
    if (fresh == NULL) {
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        fresh[i] = preset_strdup(elements[i]);
        if (fresh[i] == NULL) {
            for (size_t k = 0; k < i; k++) {
                free(fresh[k]);
            }
            free(fresh);
            return false;
        }
    }
    for (size_t i = 0; *field != NULL && i < *field_count; i++) {
        free((*field)[i]);
    }
    free(*field);
    *field = fresh;
    *field_count = count;
    return true;
}

static void read_files(config_reader *r, fxgl_config *config) {
    char *candidates[CONFIG_MAX_CANDIDATES];
    size_t n = fxgl_config_candidates(r->env, candidates, CONFIG_MAX_CANDIDATES);
    const char *explicit_path = env_value(r->env, "FXGL_CONFIG");
    for (size_t i = 0; i < n; i++) {
        fxgl_ini *ini = fxgl_ini_create();
        fxgl_ini_status status = ini != NULL ? fxgl_ini_load(ini, candidates[i], r->sink)
                                             : FXGL_INI_FAILED;
        if (status != FXGL_INI_OK) {
            if (status == FXGL_INI_MISSING && i == 0 && explicit_path != NULL) {
                preset_diagf(r->sink, FXGL_PRESET_WARNING, candidates[i], 0,
                             "FXGL_CONFIG names a file that does not exist");
            }
            fxgl_ini_destroy(ini);
            free(candidates[i]);
            continue;
        }
        config_layer *layer = &r->layers[r->count++];
        layer->ini = ini;
        layer->path = candidates[i];
        const char *slash = strrchr(candidates[i], '/');
        layer->dir = slash != NULL ? preset_strndup(candidates[i],
                                                    slash != candidates[i]
                                                        ? (size_t)(slash - candidates[i])
                                                        : 1)
                                   : preset_strdup(".");
        r->oom |= layer->dir == NULL;
    }
    config->files = calloc(r->count + 1, sizeof(*config->files));
    r->oom |= config->files == NULL;
    for (size_t i = 0; config->files != NULL && i < r->count; i++) {
        config->files[i] = preset_strdup(r->layers[i].path);
        r->oom |= config->files[i] == NULL;
        config->file_count++;
    }
    // Changes go to the most specific file that exists, else the user's own file.
    if (r->count > 0) {
        r->oom |= !replace_string(&config->save_path, r->layers[0].path);
    } else {
        char *home = xdg_home(r->env, "XDG_CONFIG_HOME", ".config");
        config->save_path = home != NULL ? join(home, "fxgl/fxgl.ini") : NULL;
        free(home);
    }
}

static void set_defaults(config_reader *r, fxgl_config *config) {
    const fxgl_config_env *env = r->env;
    const char *program_dir = env != NULL && env->program_dir != NULL && env->program_dir[0]
                                  ? env->program_dir
                                  : NULL;
    char *data_home = xdg_home(env, "XDG_DATA_HOME", ".local/share");
    char *cache_home = xdg_home(env, "XDG_CACHE_HOME", ".cache");
    char *config_home = xdg_home(env, "XDG_CONFIG_HOME", ".config");
    // The reference searches `.\` (the game's directory); the shared shader folders of
    // a Linux user live under $XDG_DATA_HOME/fxgl, then the installed data. Earlier
    // entries win (the first file of a name is the one used, includes too), so a user's
    // own ReShade.fxh or effect of the same name replaces the installed one.
    char *raw[3];
    const char *bases[3] = {NULL, NULL, NULL};
    size_t n = 0;
    if (program_dir != NULL) {
        raw[n] = ".";
        bases[n++] = program_dir;
    }
    size_t user = n;
    if (data_home != NULL) {
        raw[n] = "fxgl/shaders/**";
        bases[n++] = data_home;
    }
    size_t installed = n;
    raw[n] = "shaders/**";
    bases[n++] = data_dir(env);
    r->oom |= !set_paths(&config->effect_paths, &config->effect_path_count, raw, bases, n, env);
    if (data_home != NULL) {
        raw[user] = "fxgl/textures/**";
    }
    raw[installed] = "textures/**";
    r->oom |= !set_paths(&config->texture_paths, &config->texture_path_count, raw, bases, n,
                         env);
    const char *preset_dir = program_dir != NULL ? program_dir : config_home;
    if (preset_dir != NULL) {
        config->preset_path = join(preset_dir, "ReShadePreset.ini");
        r->oom |= config->preset_path == NULL;
    }
    if (cache_home != NULL) {
        config->cache_path = join(cache_home, "fxgl");
        r->oom |= config->cache_path == NULL;
    }
    config->transition_ms = 1000;
    config->key_screenshot = (fxgl_preset_key){.vk = 0x2C}; // VK_SNAPSHOT, as the reference
    // Effects on/off on Home, as vkBasalt's toggleKey: a key games rarely bind (the
    // reference ships none; its overlay key is Home, which this takes the place of).
    config->key_effects = (fxgl_preset_key){.vk = 0x24};
    // The editing overlay on Home, as the reference's KeyOverlay. Where KeyEffects is the
    // same key (both defaults), the overlay takes it (src/interpose/effect_host.c).
    config->key_overlay = (fxgl_preset_key){.vk = 0x24};
    config->font_scale = 1.0f;
    config->force_shortcut_modifiers = true;
    config->log_level = FXGL_CONFIG_LOG_WARN;
    free(data_home);
    free(cache_home);
    free(config_home);
}

// "PresetPath in FILE:LINE", for the line that says which preset is used.
static void set_origin(config_reader *r, fxgl_config *config, size_t layer, const char *key) {
    char buf[4200];
    snprintf(buf, sizeof(buf), "%s in %s:%u", key, r->layers[layer].path,
             fxgl_ini_line(r->layers[layer].ini, "GENERAL", key));
    r->oom |= !replace_string(&config->preset_origin, buf);
}

static void read_general(config_reader *r, fxgl_config *config) {
    size_t n;
    size_t layer;
    const char *const *elements;
    read_paths(r, "EffectSearchPaths", &config->effect_paths, &config->effect_path_count);
    read_paths(r, "TextureSearchPaths", &config->texture_paths, &config->texture_path_count);
    // StartupPresetPath wins when it names a preset; PresetPath when it does; else default.
    static const char *const preset_keys[] = {"StartupPresetPath", "PresetPath"};
    for (size_t k = 0; k < 2; k++) {
        elements = layer_get(r, "GENERAL", preset_keys[k], &n, &layer);
        if (elements == NULL || n == 0 || elements[0][0] == '\0') {
            continue;
        }
        fxgl_config_path path = {0};
        if (!make_path(r->env, elements[0], r->layers[layer].dir, &path)) {
            r->oom = true;
            return;
        }
        if (fxgl_preset_is_preset_path(path.path)) {
            free(config->preset_path);
            config->preset_path = path.path;
            r->preset_chosen = true;
            set_origin(r, config, layer, preset_keys[k]);
            break;
        }
        warn_at(r, layer, "GENERAL", preset_keys[k], "'%s' is not a preset: not used",
                path.path);
        free(path.path);
    }
    elements = layer_get(r, "GENERAL", "IntermediateCachePath", &n, &layer);
    if (elements != NULL && n > 0 && elements[0][0] != '\0') {
        r->oom |= !replace_path(&config->cache_path, r->env, elements[0], r->layers[layer].dir);
    }
    read_bool(r, "GENERAL", "PerformanceMode", &config->performance_mode);
    read_bool(r, "GENERAL", "SkipLoadingDisabledEffects", &config->skip_disabled_effects);
    elements = layer_get(r, "GENERAL", "PresetTransitionDuration", &n, &layer);
    if (elements != NULL) {
        long ms;
        if (n > 0 && preset_parse_long(elements[0], &ms) && ms >= 0) {
            config->transition_ms = (uint32_t)ms;
        } else {
            warn_at(r, layer, "GENERAL", "PresetTransitionDuration",
                    "'%s' is not a duration in milliseconds", n > 0 ? elements[0] : "");
        }
    }
    elements = layer_get(r, "GENERAL", "PreprocessorDefinitions", &n, &layer);
    if (elements != NULL) {
        fxgl_preset_define_list_finish(&config->defines);
        r->oom |= !fxgl_preset_parse_defines(elements, n, &config->defines);
    }
    elements = layer_get(r, "GENERAL", "TechniqueSorting", &n, &layer);
    if (elements != NULL) {
        r->oom |= !set_strings(&config->technique_sorting, &config->technique_sorting_count,
                               elements, n);
    }
}

static void read_input_and_log(config_reader *r, fxgl_config *config) {
    read_key_binding(r, "KeyEffects", &config->key_effects);
    read_key_binding(r, "KeyReload", &config->key_reload);
    read_key_binding(r, "KeyNextPreset", &config->key_next_preset);
    read_key_binding(r, "KeyPreviousPreset", &config->key_previous_preset);
    read_key_binding(r, "KeyScreenshot", &config->key_screenshot);
    read_key_binding(r, "KeyPerformanceMode", &config->key_performance_mode);
    read_key_binding(r, "KeyOverlay", &config->key_overlay);
    size_t fn;
    size_t flayer;
    const char *const *font = layer_get(r, "OVERLAY", "FontScale", &fn, &flayer);
    if (font != NULL) {
        char *end = NULL;
        float scale = fn > 0 ? strtof(font[0], &end) : 0.0f;
        if (fn > 0 && end != font[0] && *end == '\0' && scale >= 0.25f && scale <= 8.0f) {
            config->font_scale = scale;
        } else {
            warn_at(r, flayer, "OVERLAY", "FontScale", "'%s' is not a scale from 0.25 to 8",
                    fn > 0 ? font[0] : "");
        }
    }
    font = layer_get(r, "STYLE", "Font", &fn, &flayer);
    if (font != NULL && fn > 0 && font[0][0] != '\0') {
        r->oom |= !replace_path(&config->font_path, r->env, font[0], r->layers[flayer].dir);
    }
    read_bool(r, "INPUT", "ForceShortcutModifiers", &config->force_shortcut_modifiers);
    size_t n;
    size_t layer;
    const char *const *elements = layer_get(r, "LOG", "Level", &n, &layer);
    if (elements != NULL && !(n > 0 && parse_level(elements[0], &config->log_level))) {
        warn_at(r, layer, "LOG", "Level", "'%s' is not a log level (error, warn, info, debug)",
                n > 0 ? elements[0] : "");
    }
    elements = layer_get(r, "LOG", "File", &n, &layer);
    if (elements != NULL && n > 0 && elements[0][0] != '\0') {
        r->oom |= !replace_path(&config->log_file, r->env, elements[0], r->layers[layer].dir);
    }
}

// [DEPTH], then [DEPTH:<program>] over it: a configuration shared by several
// programs keeps one choice per program, as the reference's per-game ini does.
static void read_depth(config_reader *r, fxgl_config *config) {
    config->depth_aspect = true;
    char program_section[160];
    const char *name = r->env != NULL && r->env->program_name ? r->env->program_name : "";
    snprintf(program_section, sizeof(program_section), "DEPTH:%s", name);
    const char *sections[2] = {"DEPTH", program_section};
    for (int i = 0; i < (name[0] ? 2 : 1); i++) {
        const char *sec = sections[i];
        size_t n;
        size_t layer;
        read_bool(r, sec, "DepthCopyBeforeClears", &config->depth_copy_before_clears);
        read_bool(r, sec, "UseAspectRatioHeuristics", &config->depth_aspect);
        read_bool(r, sec, "SelectByVertices", &config->depth_by_vertices);
        const char *const *e = layer_get(r, sec, "DepthCopyAtClearIndex", &n, &layer);
        unsigned long index;
        if (e != NULL && n > 0 && preset_parse_ulong(e[0], &index)) {
            config->depth_clear_index = (uint32_t)index;
        }
        e = layer_get(r, sec, "SelectedBuffer", &n, &layer);
        if (e != NULL) {
            snprintf(config->depth_selected, sizeof(config->depth_selected), "%s",
                     n > 0 && strcmp(e[0], "auto") != 0 ? e[0] : "");
        }
    }
}

bool fxgl_config_save_depth(const fxgl_config *config, const char *program,
                            const fxgl_preset_sink *sink) {
    if (config->save_path == NULL) {
        return false;
    }
    fxgl_ini *ini = fxgl_ini_create();
    if (ini == NULL) {
        return false;
    }
    fxgl_ini_status st = fxgl_ini_load(ini, config->save_path, sink);
    char sec[160];
    snprintf(sec, sizeof(sec), "DEPTH:%s", program != NULL && program[0] ? program : "");
    const char *section = program != NULL && program[0] ? sec : "DEPTH";
    bool ok = st != FXGL_INI_FAILED;
    ok = ok && fxgl_ini_set_bool(ini, section, "DepthCopyBeforeClears",
                                 config->depth_copy_before_clears);
    uint32_t index = config->depth_clear_index;
    ok = ok && fxgl_ini_set_uints(ini, section, "DepthCopyAtClearIndex", &index, 1);
    ok = ok && fxgl_ini_set_bool(ini, section, "UseAspectRatioHeuristics", config->depth_aspect);
    ok = ok && fxgl_ini_set_bool(ini, section, "SelectByVertices", config->depth_by_vertices);
    ok = ok && fxgl_ini_set_string(ini, section, "SelectedBuffer",
                                   config->depth_selected[0] ? config->depth_selected : "auto");
    ok = ok && fxgl_ini_save(ini, config->save_path, sink);
    fxgl_ini_destroy(ini);
    return ok;
}

static void env_warn(const config_reader *r, const char *name, const char *value) {
    preset_diagf(r->sink, FXGL_PRESET_WARNING, "environment", 0, "%s='%s' is not understood",
                 name, value);
}

static void env_paths(config_reader *r, const char *name, fxgl_config_path **paths,
                      size_t *count) {
    const char *value = env_value(r->env, name);
    if (value == NULL) {
        return;
    }
    // ':' separates, as in PATH; relative entries stay relative to the working directory.
    size_t n = 1;
    for (const char *c = value; *c != '\0'; c++) {
        n += *c == ':';
    }
    char **raw = calloc(n, sizeof(*raw));
    const char **bases = calloc(n, sizeof(*bases));
    bool ok = raw != NULL && bases != NULL;
    size_t used = 0;
    for (const char *p = value; ok && used < n;) {
        const char *colon = strchr(p, ':');
        size_t len = colon != NULL ? (size_t)(colon - p) : strlen(p);
        raw[used] = preset_strndup(p, len);
        ok = raw[used] != NULL;
        used += ok;
        if (colon == NULL) {
            break;
        }
        p = colon + 1;
    }
    ok = ok && set_paths(paths, count, raw, bases, used, r->env);
    for (size_t i = 0; raw != NULL && i < used; i++) {
        free(raw[i]);
    }
    free(raw);
    free(bases);
    r->oom |= !ok;
}

static void env_bool(config_reader *r, const char *name, bool *out) {
    const char *value = env_value(r->env, name);
    if (value != NULL && !parse_bool_text(value, out)) {
        env_warn(r, name, value);
    }
}

// A preset given by name ("default", "mine"): no directory, no .ini, and no file of that
// name in the working directory (which keeps its meaning of a path).
static bool is_preset_name(const char *value) {
    size_t len = strlen(value);
    return strpbrk(value, "/\\") == NULL && value[0] != '.' && value[0] != '~' &&
           !(len >= 4 && strcasecmp(value + len - 4, ".ini") == 0) && access(value, F_OK) != 0;
}

// NAME -> $XDG_DATA_HOME/fxgl/presets/NAME.ini when that exists, else the installed
// presets/NAME.ini (which the preset loader reports when it is missing too).
static char *named_preset(const fxgl_config_env *env, const char *name) {
    size_t len = strlen(name);
    char *file = malloc(len + sizeof("presets/.ini"));
    if (file == NULL) {
        return NULL;
    }
    memcpy(file, "presets/", 8);
    memcpy(file + 8, name, len);
    memcpy(file + 8 + len, ".ini", 5);
    char *path = NULL;
    char *data_home = xdg_home(env, "XDG_DATA_HOME", ".local/share");
    char *user = data_home != NULL ? join(data_home, "fxgl") : NULL;
    if (user != NULL) {
        path = join(user, file);
        if (path != NULL && access(path, F_OK) != 0) {
            free(path);
            path = NULL;
        }
    }
    if (path == NULL) {
        path = join(data_dir(env), file);
    }
    free(user);
    free(data_home);
    free(file);
    return path;
}

// Nothing named a preset and there is none at the default place: the installed default
// preset, so that `fxgl program` with no configuration at all shows effects. Only when it
// is installed: an uninstalled build keeps passing frames through without a warning.
static void installed_default_preset(config_reader *r, fxgl_config *config) {
    if (r->preset_chosen || (config->preset_path != NULL &&
                             access(config->preset_path, F_OK) == 0)) {
        return;
    }
    char *path = join(data_dir(r->env), "presets/default.ini");
    if (path == NULL) {
        r->oom = true;
    } else if (access(path, F_OK) == 0) {
        free(config->preset_path);
        config->preset_path = path;
        r->oom |= !replace_string(&config->preset_origin, "the installed default");
    } else {
        free(path);
    }
}

// A preset someone named that is not there runs nothing: say so, with the path (the
// reference would create it on the first save, which is no help to a player).
static void check_preset(config_reader *r, const fxgl_config *config) {
    if (!r->preset_chosen || config->preset_path == NULL ||
        access(config->preset_path, F_OK) == 0) {
        return;
    }
    if (r->preset_name != NULL) {
        char *data_home = xdg_home(r->env, "XDG_DATA_HOME", ".local/share");
        char user[4200];
        snprintf(user, sizeof(user), "%s/fxgl/presets", data_home != NULL ? data_home : "~");
        free(data_home);
        char installed[4200];
        snprintf(installed, sizeof(installed), "%s/presets", data_dir(r->env));
        preset_diagf(r->sink, FXGL_PRESET_WARNING, "FXGL_PRESET", 0,
                     "no preset named '%s' (looked for %s.ini in %s and %s): no effects run",
                     r->preset_name, r->preset_name, user, installed);
        return;
    }
    preset_diagf(r->sink, FXGL_PRESET_WARNING, config->preset_path, 0,
                 "the preset does not exist (named by %s): no effects run",
                 config->preset_origin != NULL ? config->preset_origin : "the configuration");
}

static void read_environment(config_reader *r, fxgl_config *config) {
    const char *value = env_value(r->env, "FXGL_PRESET");
    if (value != NULL && is_preset_name(value)) {
        char *path = named_preset(r->env, value);
        r->oom |= path == NULL;
        if (path != NULL) {
            free(config->preset_path);
            config->preset_path = path;
        }
        r->preset_chosen = true;
        r->preset_name = value;
    } else if (value != NULL) {
        r->oom |= !replace_path(&config->preset_path, r->env, value, NULL);
        r->preset_chosen = true;
    }
    if (value != NULL) {
        r->oom |= !replace_string(&config->preset_origin, "FXGL_PRESET (fxgl --preset)");
    }
    env_paths(r, "FXGL_EFFECT_PATHS", &config->effect_paths, &config->effect_path_count);
    env_paths(r, "FXGL_TEXTURE_PATHS", &config->texture_paths, &config->texture_path_count);
    env_bool(r, "FXGL_PERFORMANCE_MODE", &config->performance_mode);
    env_bool(r, "FXGL_SKIP_DISABLED", &config->skip_disabled_effects);
    value = env_value(r->env, "FXGL_DEFINES");
    if (value != NULL) {
        fxgl_ini *holder = NULL;
        const char *const *elements = NULL;
        size_t n = 0;
        bool ok = split_list(value, &holder, &elements, &n);
        if (ok) {
            fxgl_preset_define_list_finish(&config->defines);
            ok = fxgl_preset_parse_defines(elements, n, &config->defines);
        }
        fxgl_ini_destroy(holder);
        r->oom |= !ok;
    }
    value = env_value(r->env, "FXGL_CACHE_DIR");
    if (value != NULL && strcmp(value, "off") == 0) {
        // No compile cache at all (empty means unset, as for every variable).
        free(config->cache_path);
        config->cache_path = NULL;
    } else if (value != NULL) {
        r->oom |= !replace_path(&config->cache_path, r->env, value, NULL);
    }
    value = env_value(r->env, "FXGL_LOG");
    if (value != NULL && !parse_level(value, &config->log_level)) {
        env_warn(r, "FXGL_LOG", value);
    }
    value = env_value(r->env, "FXGL_LOG_FILE");
    if (value != NULL) {
        r->oom |= !replace_path(&config->log_file, r->env, value, NULL);
    }
    value = env_value(r->env, "FXGL_DEPTH_BEFORE_CLEAR");
    if (value != NULL) {
        // A number is the clear index (0: every clear); on/off as words.
        unsigned long index;
        bool on = false;
        if (preset_parse_ulong(value, &index)) {
            config->depth_copy_before_clears = true;
            config->depth_clear_index = (uint32_t)index;
        } else if (parse_bool_text(value, &on)) {
            config->depth_copy_before_clears = on;
        } else {
            env_warn(r, "FXGL_DEPTH_BEFORE_CLEAR", value);
        }
    }
    env_bool(r, "FXGL_DEPTH_ASPECT", &config->depth_aspect);
    env_bool(r, "FXGL_DEPTH_BY_VERTICES", &config->depth_by_vertices);
    value = env_value(r->env, "FXGL_DEPTH_SELECT");
    if (value != NULL) {
        snprintf(config->depth_selected, sizeof(config->depth_selected), "%s",
                 strcmp(value, "auto") != 0 ? value : "");
    }
}

bool fxgl_config_load(fxgl_config *config, const fxgl_config_env *env,
                      const fxgl_preset_sink *sink) {
    *config = (fxgl_config){0};
    config_reader r = {.env = env, .sink = sink};
    read_files(&r, config);
    set_defaults(&r, config);
    read_general(&r, config);
    read_input_and_log(&r, config);
    read_depth(&r, config);
    read_environment(&r, config);
    installed_default_preset(&r, config);
    if (config->preset_origin == NULL && config->preset_path != NULL) {
        r.oom |= !replace_string(&config->preset_origin, "the default place");
    }
    check_preset(&r, config);
    for (size_t i = 0; i < r.count; i++) {
        fxgl_ini_destroy(r.layers[i].ini);
        free(r.layers[i].path);
        free(r.layers[i].dir);
    }
    return !r.oom;
}

void fxgl_config_finish(fxgl_config *config) {
    if (config == NULL) {
        return;
    }
    for (size_t i = 0; config->files != NULL && i < config->file_count; i++) {
        free(config->files[i]);
    }
    free(config->files);
    free(config->save_path);
    free_paths(config->effect_paths, config->effect_path_count);
    free_paths(config->texture_paths, config->texture_path_count);
    free(config->preset_path);
    free(config->preset_origin);
    free(config->cache_path);
    fxgl_preset_define_list_finish(&config->defines);
    for (size_t i = 0; config->technique_sorting != NULL &&
                       i < config->technique_sorting_count; i++) {
        free(config->technique_sorting[i]);
    }
    free(config->technique_sorting);
    free(config->log_file);
    free(config->font_path);
    *config = (fxgl_config){0};
}
