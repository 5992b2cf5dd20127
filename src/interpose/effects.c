/*
 * effects.c - what a runtime runs: configuration, preset, effect files.
 *
 * The configuration (fxgl.ini / ReShade.ini, FXGL_* variables; src/preset)
 * and the preset are read once per process, on the first frame, never in a
 * constructor. Each share group's runtime then compiles the effects the
 * preset uses for its own context (the GLSL target and BUFFER_WIDTH/HEIGHT
 * are the context's), applies the preset to them (enabled techniques,
 * uniform values, toggle keys) and hands them to src/gl.
 *
 * Only effects the preset's Techniques name are compiled: an LD_PRELOAD
 * runtime with no preset, or one that enables nothing, must cost nothing,
 * so then nothing is compiled and every frame passes through (logged once).
 * Every failure (a file that does not compile, a preset that names a missing
 * technique) is logged once and skips only what failed.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

#define IP_MAX_EFFECT_FILES 512      // .fx files considered per process
#define IP_MAX_DEPTH 8               // recursion into `dir/**` search paths

extern char **environ;

// The process's configuration and preset, read once (session_once): every
// runtime of the process shares them, hence globals; read-only afterwards.
static struct session {
    bool ok;                     // config read
    fxgl_config config;
    fxgl_preset *preset;         // NULL: no preset configured
    fxgl_effects *effects;       // the compile path shared with fxc and fxgl-render
    char **files;                // full paths of the .fx files found, first one per name wins
    size_t file_count;
    char **include_paths;        // the effect search paths, "dir/**" when recursive
    size_t include_count;
    char **texture_paths;
    size_t texture_count;
    char program[PATH_MAX];      // the executable, for __APPLICATION__
} session;
static pthread_once_t session_once = PTHREAD_ONCE_INIT;

struct ip_effects {
    fxgl_effect **compiled;      // owned, effect_count
    size_t effect_count;
    fxgl_preset_effect *preset_effects; // owned arrays, the preset's view of them
    int *runtime_index;          // index of each effect in the runtime
    bool all_off;                // KeyEffects toggled everything off
};

static void preset_diag(void *user, const fxgl_preset_diag *diag) {
    (void)user;
    char buf[1024];
    fxgl_preset_diag_format(diag, buf, sizeof(buf));
    fxgl_log(FXGL_LOG_WARN, "%s", buf);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool has_file(const char *name) {
    for (size_t i = 0; i < session.file_count; i++) {
        if (strcmp(base_name(session.files[i]), name) == 0) {
            return true;
        }
    }
    return false;
}

static void add_file(const char *path) {
    const char *dot = strrchr(path, '.');
    if (!dot || strcmp(dot, ".fx") != 0 || session.file_count >= IP_MAX_EFFECT_FILES ||
        has_file(base_name(path))) {
        return;
    }
    char *copy = strdup(path);
    char **grown = copy ? realloc(session.files, (session.file_count + 1) * sizeof(char *))
                        : NULL;
    if (!grown) {
        free(copy);
        return;
    }
    session.files = grown;
    session.files[session.file_count++] = copy;
}

static void scan_dir(const char *dir, bool recursive, int depth) {
    DIR *d = opendir(dir);
    if (!d) {
        return;
    }
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.') {
            continue;
        }
        char path[PATH_MAX];
        if (snprintf(path, sizeof(path), "%s/%s", dir, ent->d_name) >= (int)sizeof(path)) {
            continue;
        }
        struct stat st;
        if (stat(path, &st) != 0) {
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (recursive && depth < IP_MAX_DEPTH) {
                scan_dir(path, true, depth + 1);
            }
        } else if (S_ISREG(st.st_mode)) {
            add_file(path);
        }
    }
    closedir(d);
}

static char **path_list(const fxgl_config_path *paths, size_t count) {
    char **out = calloc(count + 1, sizeof(char *));
    for (size_t i = 0; out && i < count; i++) {
        size_t len = strlen(paths[i].path) + 4;
        out[i] = malloc(len);
        if (out[i]) {
            snprintf(out[i], len, "%s%s", paths[i].path, paths[i].recursive ? "/**" : "");
        }
    }
    return out;
}

static void session_setup(void) {
    ssize_t n = readlink("/proc/self/exe", session.program, sizeof(session.program) - 1);
    session.program[n > 0 ? n : 0] = '\0';
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", session.program);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
    }
    fxgl_preset_sink sink = {preset_diag, NULL};
    fxgl_config_env env = {(const char *const *)environ, slash ? dir : NULL};
    if (!fxgl_config_load(&session.config, &env, &sink)) {
        fxgl_log(FXGL_LOG_ERROR, "out of memory reading the configuration");
        return;
    }
    session.ok = true;
    const fxgl_config *c = &session.config;
    for (size_t i = 0; i < c->effect_path_count; i++) {
        scan_dir(c->effect_paths[i].path, c->effect_paths[i].recursive, 0);
    }
    session.include_paths = path_list(c->effect_paths, c->effect_path_count);
    session.include_count = session.include_paths ? c->effect_path_count : 0;
    session.texture_paths = path_list(c->texture_paths, c->texture_path_count);
    session.texture_count = session.texture_paths ? c->texture_path_count : 0;
    if (c->preset_path && c->preset_path[0]) {
        fxgl_preset_desc desc = {.path = c->preset_path, .sink = sink};
        session.preset = fxgl_preset_create(&desc);
    }
    // Definitions layered effect > preset > fxgl.ini, performance mode, all as src/effects
    // does it for every consumer; the search paths are the session's ("dir/**").
    fxgl_effects_desc ed = {
        .include_paths = (const char *const *)session.include_paths,
        .include_path_count = session.include_count,
        .defines = c->defines.items,
        .define_count = c->defines.count,
        .performance_mode = c->performance_mode,
        .skip_disabled = true, // see the top of this file: nothing enabled, nothing compiled
        .sink = {0},           // its copy of the preset would repeat session.preset's warnings
    };
    session.effects = fxgl_effects_create(&ed);
    if (session.effects && c->preset_path && c->preset_path[0]) {
        fxgl_effects_set_preset(session.effects, c->preset_path);
    }
    if (session.effects && fxgl_effects_lock_preset(session.effects, session.preset)) {
        fxgl_log(FXGL_LOG_INFO, "performance mode: preset values are compiled in as "
                 "constants; variables are read-only and the preset is not saved");
    }
    fxgl_log(FXGL_LOG_DEBUG, "configuration: %zu file(s), preset '%s', %zu effect file(s) in "
             "%zu search path(s)", c->file_count, c->preset_path ? c->preset_path : "",
             session.file_count, c->effect_path_count);
}

static const char *find_file(const char *name) {
    for (size_t i = 0; i < session.file_count; i++) {
        if (strcmp(base_name(session.files[i]), name) == 0) {
            return session.files[i];
        }
    }
    return NULL;
}

static fxgl_glsl_target glsl_target(const fxgl_gl_info *info) {
    if (info->api == FXGL_API_GLES) {
        return info->minor >= 2 ? FXGL_GLSL_ES320
               : info->minor == 1 ? FXGL_GLSL_ES310 : FXGL_GLSL_ES300;
    }
    return info->major > 4 || info->minor >= 5 ? FXGL_GLSL_GL450 : FXGL_GLSL_GL430;
}

// Compiles one file for this context; NULL (logged) when it has errors.
static fxgl_effect *compile(const char *path, const fxgl_gl_info *info, int width, int height) {
    fxgl_environment env = {
        .width = width,
        .height = height,
        .api = info->api == FXGL_API_GLES ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL,
        .api_major = info->major,
        .api_minor = info->minor,
        .application = session.program,
    };
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *effect = session.effects ? fxgl_effects_compile_for(session.effects, path, &env,
                                                                     glsl_target(info), &diags)
                                          : NULL;
    if (!effect) {
        char first[512] = "out of memory";
        for (size_t i = 0; i < diags.count; i++) {
            if (diags.items[i].severity == FXGL_DIAG_ERROR) {
                fxgl_diag_format(&diags.items[i], first, sizeof(first));
                break;
            }
        }
        fxgl_log(FXGL_LOG_WARN, "effect %s skipped: %s", path, first);
    }
    fxgl_diags_finish(&diags);
    return effect;
}

static const char *annotation_string(const fxgl_annotations *list, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(list, name);
    return a && a->value.scalar == FXGL_SCALAR_STRING ? a->value.string : NULL;
}

static fxgl_preset_base_type base_type(fxgl_scalar s) {
    switch (s) {
    case FXGL_SCALAR_INT: return FXGL_PRESET_INT;
    case FXGL_SCALAR_UINT: return FXGL_PRESET_UINT;
    case FXGL_SCALAR_BOOL: return FXGL_PRESET_BOOL;
    default: return FXGL_PRESET_FLOAT;
    }
}

// Whether the preset sees a uniform: describe() and push_uniforms() walk the
// effect's uniforms with this one filter, so the k-th preset uniform is the
// k-th visible uniform of the effect.
static bool preset_visible(const fxgl_uniform *u) {
    return u->array_length == 0 && u->scalar != FXGL_SCALAR_STRING &&
           u->rows * u->cols <= FXGL_PRESET_MAX_COMPONENTS;
}

// Presets name a uniform declared in a namespace by its short name (the
// reference writes "Strength", not "MyFx::Strength"); the module's name is
// qualified. The runtime keeps the qualified one (push_uniforms).
static const char *short_name(const char *name) {
    const char *colon = strrchr(name, ':');
    return colon ? colon + 1 : name;
}

// The preset's view of one compiled effect: its user uniforms (not arrays)
// with their initial values, and its techniques, all off.
static bool describe(const fxgl_effect *e, const char *file, fxgl_preset_effect *out) {
    out->file = file;
    out->uniforms = calloc(e->uniform_count + 1, sizeof(fxgl_preset_uniform));
    out->techniques = calloc(e->technique_count + 1, sizeof(fxgl_preset_technique));
    if (!out->uniforms || !out->techniques) {
        return false;
    }
    for (size_t i = 0; i < e->uniform_count; i++) {
        const fxgl_uniform *u = &e->uniforms[i];
        if (!preset_visible(u)) {
            continue;
        }
        fxgl_preset_uniform *p = &out->uniforms[out->uniform_count++];
        p->name = short_name(u->name);
        p->type = base_type(u->scalar);
        p->rows = (unsigned)u->rows;
        p->cols = (unsigned)u->cols;
        p->special = u->special != FXGL_SPECIAL_NONE;
        p->nosave = u->nosave;
        p->ui_type = annotation_string(&u->annotations, "ui_type");
        for (int c = 0; c < u->rows * u->cols && c < u->initializer.count; c++) {
            p->value[c].u = u->initializer.u[c]; // the same 32 bits in both unions
        }
    }
    for (size_t i = 0; i < e->technique_count; i++) {
        const fxgl_technique *t = &e->techniques[i];
        out->techniques[i] = (fxgl_preset_technique){
            .name = t->name,
            .ui_label = t->label,
            .forced_on = t->enabled,
            .nosave = t->nosave,
            .hidden = t->hidden,
            .skip_in_screenshot = !t->enabled_in_screenshot,
            .timeout_ms = t->timeout_ms > 0 ? (uint32_t)t->timeout_ms : 0,
        };
    }
    out->technique_count = e->technique_count;
    return true;
}

static void push_uniforms(fxgl_runtime *rt, int index, const fxgl_effect *e,
                          const fxgl_preset_effect *p) {
    size_t i = 0;
    for (size_t k = 0; k < e->uniform_count && i < p->uniform_count; k++) {
        if (!preset_visible(&e->uniforms[k])) {
            continue;
        }
        const char *qualified = e->uniforms[k].name; // the runtime's name for it
        const fxgl_preset_uniform *u = &p->uniforms[i++];
        if (u->special) {
            continue;
        }
        fxgl_value v = {.count = (int)(u->rows * u->cols)};
        v.scalar = u->type == FXGL_PRESET_FLOAT  ? FXGL_SCALAR_FLOAT
                   : u->type == FXGL_PRESET_INT  ? FXGL_SCALAR_INT
                   : u->type == FXGL_PRESET_UINT ? FXGL_SCALAR_UINT
                                                 : FXGL_SCALAR_BOOL;
        for (int c = 0; c < v.count; c++) {
            v.u[c] = u->value[c].u;
        }
        fxgl_runtime_set_uniform(rt, (size_t)index, qualified, &v);
    }
}

void ip_effects_destroy(ip_effects *fx) {
    if (!fx) {
        return;
    }
    for (size_t i = 0; i < fx->effect_count; i++) {
        fxgl_effect_destroy(fx->compiled[i]);
        if (fx->preset_effects) {
            free(fx->preset_effects[i].uniforms);
            free(fx->preset_effects[i].techniques);
        }
    }
    free(fx->compiled);
    free(fx->preset_effects);
    free(fx->runtime_index);
    free(fx);
}

const char *const *ip_effects_texture_paths(size_t *count) {
    pthread_once(&session_once, session_setup);
    *count = session.texture_count;
    return (const char *const *)session.texture_paths;
}

bool ip_effects_wanted(void) {
    pthread_once(&session_once, session_setup);
    size_t technique_count = 0;
    if (!session.ok || !session.preset ||
        !fxgl_preset_techniques(session.preset, &technique_count) || technique_count == 0) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "%s: no technique enabled, frames pass through",
                      session.preset ? "the preset's Techniques is empty"
                                     : "no preset (--preset, FXGL_PRESET or fxgl.ini)");
        return false;
    }
    return true;
}

ip_effects *ip_effects_load(fxgl_runtime *rt, const fxgl_gl_info *info, int width,
                            int height) {
    if (!ip_effects_wanted()) {
        return NULL;
    }
    size_t technique_count = 0;
    ip_effects *fx = calloc(1, sizeof(*fx));
    if (!fx) {
        return NULL;
    }
    fx->compiled = calloc(session.file_count + 1, sizeof(fxgl_effect *));
    fx->preset_effects = calloc(session.file_count + 1, sizeof(fxgl_preset_effect));
    fx->runtime_index = calloc(session.file_count + 1, sizeof(int));
    if (!fx->compiled || !fx->preset_effects || !fx->runtime_index) {
        ip_effects_destroy(fx);
        return NULL;
    }
    for (size_t i = 0; i < session.file_count; i++) {
        const char *file = base_name(session.files[i]);
        if (!fxgl_preset_wants_effect(session.preset, file)) {
            continue;
        }
        fxgl_effect *e = compile(session.files[i], info, width, height);
        if (!e) {
            continue;
        }
        size_t k = fx->effect_count;
        fx->compiled[k] = e;
        fx->effect_count++;
        if (!describe(e, file, &fx->preset_effects[k])) {
            ip_effects_destroy(fx);
            return NULL;
        }
    }
    // The preset's Techniques naming files that were not found.
    const char *const *names = fxgl_preset_techniques(session.preset, &technique_count);
    for (size_t i = 0; i < technique_count; i++) {
        const char *at = strchr(names[i], '@');
        if (at && !find_file(at + 1)) {
            fxgl_log(FXGL_LOG_WARN, "technique %s skipped: %s is not in the effect search "
                     "paths", names[i], at + 1);
        }
    }
    if (!fxgl_preset_apply(session.preset, fx->preset_effects, fx->effect_count)) {
        fxgl_log(FXGL_LOG_INFO, "the preset names techniques no loaded effect has");
    }
    for (size_t i = 0; i < fx->effect_count; i++) {
        fxgl_preset_effect *p = &fx->preset_effects[i];
        int index = fxgl_runtime_add_effect(rt, fx->compiled[i], p->file);
        fx->runtime_index[i] = index;
        if (index < 0) {
            continue;
        }
        for (size_t t = 0; t < p->technique_count; t++) {
            fxgl_runtime_set_enabled(rt, (size_t)index, t, p->techniques[t].enabled);
        }
        push_uniforms(rt, index, fx->compiled[i], p);
    }
    size_t total = 0;
    for (size_t i = 0; i < fx->effect_count; i++) {
        total += fx->preset_effects[i].technique_count;
    }
    fxgl_preset_technique_ref *order = calloc(total + 1, sizeof(*order));
    if (order) {
        const fxgl_config *c = &session.config;
        size_t n = fxgl_preset_order(session.preset, (const char *const *)c->technique_sorting,
                                     c->technique_sorting_count, fx->preset_effects,
                                     fx->effect_count, order);
        fxgl_technique_ref *refs = calloc(n + 1, sizeof(*refs));
        size_t m = 0;
        for (size_t i = 0; refs && i < n; i++) {
            int index = fx->runtime_index[order[i].effect];
            if (index >= 0) {
                refs[m++] = (fxgl_technique_ref){(uint32_t)index, order[i].technique};
            }
        }
        if (refs) {
            fxgl_runtime_set_order(rt, refs, m);
        }
        free(refs);
        free(order);
    }
    return fx;
}

// Does the binding fire this frame: its key went down now, modifiers held as written.
static bool key_fired(const fxgl_preset_key *k, const fxgl_input *in) {
    if (k->vk == 0 || k->vk >= FXGL_INPUT_KEYS || !in->key_pressed[k->vk]) {
        return false;
    }
    return (bool)in->key_down[0x11] == k->ctrl && (bool)in->key_down[0x10] == k->shift &&
           (bool)in->key_down[0x12] == k->alt;
}

bool ip_effects_input(ip_effects *fx, fxgl_runtime *rt, const fxgl_input *in) {
    if (!in->has_focus) {
        return !fx->all_off;
    }
    if (session.ok && key_fired(&session.config.key_effects, in)) {
        fx->all_off = !fx->all_off;
        fxgl_log(FXGL_LOG_INFO, "effects %s (KeyEffects)", fx->all_off ? "off" : "on");
    }
    for (size_t i = 0; i < fx->effect_count; i++) {
        fxgl_preset_effect *p = &fx->preset_effects[i];
        for (size_t t = 0; t < p->technique_count && fx->runtime_index[i] >= 0; t++) {
            fxgl_preset_technique *tech = &p->techniques[t];
            if (!tech->forced_on && key_fired(&tech->toggle_key, in)) {
                tech->enabled = !tech->enabled;
                fxgl_runtime_set_enabled(rt, (size_t)fx->runtime_index[i], t, tech->enabled);
                fxgl_log(FXGL_LOG_INFO, "%s@%s %s (toggle key)", tech->name, p->file,
                         tech->enabled ? "on" : "off");
            }
        }
    }
    return !fx->all_off;
}
