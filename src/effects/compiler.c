/*
 * compiler.c - one compile description for every consumer: layered definitions, the
 * performance-mode constants from the preset, SkipLoadingDisabledEffects.
 *
 * The preset is held by reference count: a compile on the reload worker takes a reference
 * under a short lock and reads the preset without it, so switching presets on the render
 * thread never waits for a compile to finish.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_diskcache.h"
#include "fxgl_effects.h"

struct fxgl_held_preset {
    fxgl_preset *preset;
    int refs;
};
typedef fxgl_held_preset held_preset;

struct fxgl_compiler {
    fxgl_compiler_desc desc;      // its arrays point into the copies below
    char **include_paths;
    fxgl_preset_define_list defines;
    fxgl_preset_define_list builtins;
    pthread_mutex_t lock;        // guards current (and the refs of every held_preset), edits
    held_preset *current;
    struct edited *edits;        // definitions edited in the overlay, per file (current's)
    size_t edit_count;
};

// One file's edited definitions: above every other layer until the preset is replaced.
typedef struct edited {
    char *file;
    fxgl_preset_define_list defines; // "" value: the name is left undefined
} edited;

// Copies a define array into an owned list (one storage block, like the preset module).
static bool copy_defines(const fxgl_preset_define *items, size_t count,
                         fxgl_preset_define_list *out) {
    *out = (fxgl_preset_define_list){0};
    if (count == 0) {
        return true;
    }
    size_t bytes = 0;
    for (size_t i = 0; i < count; i++) {
        bytes += strlen(items[i].name) + 1 + strlen(items[i].value ? items[i].value : "") + 1;
    }
    out->items = calloc(count, sizeof(*out->items));
    out->storage = malloc(bytes);
    if (out->items == NULL || out->storage == NULL) {
        fxgl_preset_define_list_finish(out);
        return false;
    }
    char *p = out->storage;
    for (size_t i = 0; i < count; i++) {
        const char *v = items[i].value ? items[i].value : "";
        size_t n = strlen(items[i].name) + 1, m = strlen(v) + 1;
        memcpy(p, items[i].name, n);
        out->items[i].name = p;
        p += n;
        memcpy(p, v, m);
        out->items[i].value = p;
        p += m;
    }
    out->count = count;
    return true;
}

void fxgl_compiler_desc_from_config(fxgl_compiler_desc *desc, const fxgl_config *config,
                                    char (*paths)[4096], const char **path_list,
                                    size_t path_count) {
    size_t n = 0;
    for (size_t i = 0; i < config->effect_path_count && n < path_count; i++) {
        const fxgl_config_path *p = &config->effect_paths[i];
        snprintf(paths[n], sizeof(paths[n]), p->recursive ? "%s/**" : "%s", p->path);
        path_list[n] = paths[n];
        n++;
    }
    desc->include_paths = path_list;
    desc->include_path_count = n;
    desc->defines = config->defines.items;
    desc->define_count = config->defines.count;
    desc->performance_mode = config->performance_mode;
    desc->skip_disabled = config->skip_disabled_effects;
}

fxgl_compiler *fxgl_compiler_create(const fxgl_compiler_desc *desc) {
    fxgl_compiler *fx = calloc(1, sizeof(*fx));
    if (fx == NULL) {
        return NULL;
    }
    fx->desc = *desc;
    fx->include_paths = calloc(desc->include_path_count + 1, sizeof(char *));
    bool ok = fx->include_paths != NULL;
    for (size_t i = 0; ok && i < desc->include_path_count; i++) {
        fx->include_paths[i] = strdup(desc->include_paths[i]);
        ok = fx->include_paths[i] != NULL;
    }
    ok = ok && copy_defines(desc->defines, desc->define_count, &fx->defines) &&
         copy_defines(desc->builtins, desc->builtin_count, &fx->builtins);
    if (!ok || pthread_mutex_init(&fx->lock, NULL) != 0) {
        for (size_t i = 0; fx->include_paths != NULL && i < desc->include_path_count; i++) {
            free(fx->include_paths[i]);
        }
        free(fx->include_paths);
        fxgl_preset_define_list_finish(&fx->defines);
        fxgl_preset_define_list_finish(&fx->builtins);
        free(fx);
        return NULL;
    }
    fx->desc.include_paths = (const char *const *)fx->include_paths;
    fx->desc.defines = fx->defines.items;
    fx->desc.builtins = fx->builtins.items;
    fx->desc.env.performance_mode = desc->performance_mode;
    return fx;
}

static void release(fxgl_compiler *fx, held_preset *h) {
    if (h == NULL) {
        return;
    }
    pthread_mutex_lock(&fx->lock);
    bool last = --h->refs == 0;
    pthread_mutex_unlock(&fx->lock);
    if (last) {
        fxgl_preset_destroy(h->preset);
        free(h);
    }
}

static held_preset *acquire(const fxgl_compiler *cfx) {
    fxgl_compiler *fx = (fxgl_compiler *)cfx; // the lock and counts are not the object's value
    pthread_mutex_lock(&fx->lock);
    held_preset *h = fx->current;
    if (h != NULL) {
        h->refs++;
    }
    pthread_mutex_unlock(&fx->lock);
    return h;
}

fxgl_held_preset *fxgl_compiler_hold_preset(fxgl_compiler *fx) {
    return acquire(fx);
}

const fxgl_preset *fxgl_held_preset_get(const fxgl_held_preset *held) {
    return held != NULL ? held->preset : NULL;
}

void fxgl_compiler_release_preset(fxgl_compiler *fx, fxgl_held_preset *held) {
    release(fx, held);
}

// Called with the lock held.
static void clear_edits(fxgl_compiler *fx) {
    for (size_t i = 0; i < fx->edit_count; i++) {
        free(fx->edits[i].file);
        fxgl_preset_define_list_finish(&fx->edits[i].defines);
    }
    free(fx->edits);
    fx->edits = NULL;
    fx->edit_count = 0;
}

void fxgl_compiler_destroy(fxgl_compiler *fx) {
    if (fx == NULL) {
        return;
    }
    release(fx, fx->current);
    clear_edits(fx);
    for (size_t i = 0; i < fx->desc.include_path_count; i++) {
        free(fx->include_paths[i]);
    }
    free(fx->include_paths);
    fxgl_preset_define_list_finish(&fx->defines);
    fxgl_preset_define_list_finish(&fx->builtins);
    pthread_mutex_destroy(&fx->lock);
    free(fx);
}

fxgl_held_preset *fxgl_compiler_read_preset(fxgl_compiler *fx, const char *path) {
    held_preset *h = path != NULL ? calloc(1, sizeof(*h)) : NULL;
    if (h == NULL) {
        return NULL;
    }
    h->preset = fxgl_preset_create(&(fxgl_preset_desc){.path = path, .sink = fx->desc.sink});
    if (h->preset == NULL) {
        free(h);
        return NULL;
    }
    h->refs = 1;
    return h;
}

void fxgl_compiler_use_preset(fxgl_compiler *fx, fxgl_held_preset *held) {
    pthread_mutex_lock(&fx->lock);
    held_preset *old = fx->current;
    fx->current = held;
    if (held != NULL) {
        held->refs++;
        // Under the lock, as fxgl_compiler_set_performance_mode does: a compile holding a
        // reference only reads the values.
        fxgl_preset_lock(held->preset,
                         fx->desc.performance_mode ? FXGL_EFFECTS_PERFORMANCE_LOCK : NULL);
    }
    // Edits belong to the preset they were made in: a switch drops them, the same file
    // read again (a save, an edit on disk) keeps them, or a save racing its own re-read
    // would undo the player's next edit.
    if (old == NULL || held == NULL ||
        strcmp(fxgl_preset_path(old->preset), fxgl_preset_path(held->preset)) != 0) {
        clear_edits(fx);
    }
    pthread_mutex_unlock(&fx->lock);
    release(fx, old);
}

bool fxgl_compiler_set_preset(fxgl_compiler *fx, const char *path) {
    held_preset *h = fxgl_compiler_read_preset(fx, path);
    if (path != NULL && h == NULL) {
        return false;
    }
    fxgl_compiler_use_preset(fx, h);
    release(fx, h); // the compile object holds its own
    return true;
}

bool fxgl_compiler_lock_preset(const fxgl_compiler *fx, fxgl_preset *preset) {
    if (preset == NULL) {
        return false;
    }
    bool on = fxgl_compiler_performance_mode(fx);
    fxgl_preset_lock(preset, on ? FXGL_EFFECTS_PERFORMANCE_LOCK : NULL);
    return on;
}

bool fxgl_compiler_performance_mode(const fxgl_compiler *fx) {
    fxgl_compiler *m = (fxgl_compiler *)fx; // the lock is not the object's value
    pthread_mutex_lock(&m->lock);
    bool on = fx->desc.performance_mode;
    pthread_mutex_unlock(&m->lock);
    return on;
}

const char *fxgl_compiler_file_part(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

bool fxgl_compiler_wanted(const fxgl_compiler *fx, const char *file) {
    if (!fx->desc.skip_disabled) {
        return true;
    }
    held_preset *h = acquire(fx);
    bool wanted = h == NULL || fxgl_preset_wants_effect(h->preset, file);
    release((fxgl_compiler *)fx, h);
    return wanted;
}

bool fxgl_compiler_uniform_editable(const fxgl_compiler *fx, const fxgl_uniform *uniform) {
    if (uniform->special != FXGL_SPECIAL_NONE) {
        return false; // the runtime's
    }
    // The same rule as the GLSL back end's: what it turned into a constant.
    return !(fxgl_compiler_performance_mode(fx) && uniform->has_initializer &&
             uniform->array_length == 0);
}

static bool layered_file(const fxgl_compiler *fx, const fxgl_preset *preset, const char *file,
                    const char *const *reserved, size_t reserved_count,
                    fxgl_preset_define_list *out) {
    if (preset != NULL) {
        return fxgl_preset_resolve_defines(preset, file, fx->defines.items, fx->defines.count,
                                           fx->builtins.items, fx->builtins.count, reserved,
                                           reserved_count, out);
    }
    // No preset: the global and built-in layers alone, by the same rule.
    const fxgl_preset_define *sets[2] = {fx->defines.items, fx->builtins.items};
    size_t counts[2] = {fx->defines.count, fx->builtins.count};
    return fxgl_preset_layer_defines(sets, counts, 2, reserved, reserved_count, out);
}

bool fxgl_compiler_edited_defines(const fxgl_compiler *fx, const char *file,
                                  fxgl_preset_define_list *out) {
    fxgl_compiler *m = (fxgl_compiler *)fx; // the lock is not the object's value
    pthread_mutex_lock(&m->lock);
    bool ok = true;
    *out = (fxgl_preset_define_list){0};
    for (size_t i = 0; i < fx->edit_count; i++) {
        if (strcmp(fx->edits[i].file, file) == 0) {
            ok = copy_defines(fx->edits[i].defines.items, fx->edits[i].defines.count, out);
        }
    }
    pthread_mutex_unlock(&m->lock);
    return ok;
}

bool fxgl_compiler_edit_defines(fxgl_compiler *fx, const char *file,
                                const fxgl_preset_define *defines, size_t count) {
    fxgl_preset_define_list copy;
    char *name = strdup(file);
    if (name == NULL || !copy_defines(defines, count, &copy)) {
        free(name);
        return false;
    }
    pthread_mutex_lock(&fx->lock);
    edited *e = NULL;
    for (size_t i = 0; i < fx->edit_count; i++) {
        e = strcmp(fx->edits[i].file, file) == 0 ? &fx->edits[i] : e;
    }
    if (e == NULL) {
        edited *grown = realloc(fx->edits, (fx->edit_count + 1) * sizeof(*grown));
        if (grown != NULL) {
            fx->edits = grown;
            e = &fx->edits[fx->edit_count++];
            *e = (edited){.file = name};
            name = NULL;
        }
    }
    if (e != NULL) {
        fxgl_preset_define_list_finish(&e->defines);
        e->defines = copy;
    }
    pthread_mutex_unlock(&fx->lock);
    free(name);
    if (e == NULL) {
        fxgl_preset_define_list_finish(&copy);
    }
    return e != NULL;
}

// The preset's layers with the file's edits above them: an edit with a value comes first,
// one without leaves its name undefined.
static bool layered(const fxgl_compiler *fx, const fxgl_preset *preset, const char *file,
                    const char *const *reserved, size_t reserved_count,
                    fxgl_preset_define_list *out) {
    fxgl_preset_define_list below, edits;
    if (!layered_file(fx, preset, file, reserved, reserved_count, &below)) {
        return false;
    }
    if (!fxgl_compiler_edited_defines(fx, file, &edits)) {
        fxgl_preset_define_list_finish(&below);
        return false;
    }
    if (edits.count == 0) {
        *out = below;
        return true;
    }
    fxgl_preset_define *items = calloc(edits.count + below.count + 1, sizeof(*items));
    size_t n = 0, top = 0;
    for (size_t i = 0; items != NULL && i < edits.count; i++) {
        if (edits.items[i].value[0]) {
            items[n++] = edits.items[i];
        }
    }
    top = n;
    for (size_t i = 0; items != NULL && i < below.count; i++) {
        bool edited_name = false;
        for (size_t k = 0; k < edits.count; k++) {
            edited_name = edited_name || strcmp(edits.items[k].name, below.items[i].name) == 0;
        }
        if (!edited_name) {
            items[n++] = below.items[i];
        }
    }
    const fxgl_preset_define *sets[2] = {items, items + top};
    size_t counts[2] = {top, n - top};
    bool ok = items != NULL &&
              fxgl_preset_layer_defines(sets, counts, 2, reserved, reserved_count, out);
    free(items);
    fxgl_preset_define_list_finish(&below);
    fxgl_preset_define_list_finish(&edits);
    return ok;
}

bool fxgl_compiler_defines(const fxgl_compiler *fx, const char *file,
                           fxgl_preset_define_list *out) {
    fxgl_define pre[FXGL_PREDEFINED_MAX];
    char storage[FXGL_PREDEFINED_STORAGE];
    fxgl_compiler *m = (fxgl_compiler *)fx; // the lock is not the object's value
    pthread_mutex_lock(&m->lock);
    fxgl_environment env = fx->desc.env;
    pthread_mutex_unlock(&m->lock);
    size_t n = fxgl_predefined_macros(&env, pre, storage, sizeof(storage));
    const char *reserved[FXGL_PREDEFINED_MAX];
    for (size_t i = 0; i < n; i++) {
        reserved[i] = pre[i].name;
    }
    held_preset *h = acquire(fx);
    bool ok = layered(fx, h != NULL ? h->preset : NULL, file, reserved, n, out);
    release((fxgl_compiler *)fx, h);
    return ok;
}

// --- performance mode: the preset's values as constants ---

typedef struct value_ctx {
    const fxgl_preset *preset;
    const char *file;
} value_ctx;

// The compiler asks for each initialized uniform; value holds the initializer (scalar and
// component count), which stays where the preset has nothing.
static bool uniform_value(void *user, const char *uniform, fxgl_value *value) {
    const value_ctx *ctx = user;
    if (ctx->preset == NULL || value->scalar == FXGL_SCALAR_STRING || value->count < 1 ||
        value->count > FXGL_PRESET_MAX_COMPONENTS) {
        return false;
    }
    fxgl_preset_uniform u = {
        .name = fxgl_effect_view_name(uniform),
        .type = fxgl_effect_view_type(value->scalar),
        .rows = (unsigned)value->count, // the component count is what the preset lists
        .cols = 1,
    };
    for (int i = 0; i < value->count; i++) {
        u.value[i].u = value->u[i];
    }
    if (!fxgl_preset_read_uniform(ctx->preset, ctx->file, &u)) {
        return false;
    }
    for (int i = 0; i < value->count; i++) {
        value->u[i] = u.value[i].u;
    }
    return true;
}

fxgl_effect *fxgl_compiler_compile(fxgl_compiler *fx, const char *path, fxgl_diags *diags) {
    // A copy under the lock: the render thread may change the size meanwhile.
    pthread_mutex_lock(&fx->lock);
    fxgl_environment env = fx->desc.env;
    fxgl_glsl_target target = fx->desc.target;
    pthread_mutex_unlock(&fx->lock);
    return fxgl_compiler_compile_for(fx, path, &env, target, diags);
}

void fxgl_compiler_set_environment(fxgl_compiler *fx, const fxgl_environment *env) {
    pthread_mutex_lock(&fx->lock);
    bool performance_mode = fx->desc.performance_mode;
    fx->desc.env = *env;
    fx->desc.env.performance_mode = performance_mode;
    pthread_mutex_unlock(&fx->lock);
}

void fxgl_compiler_set_performance_mode(fxgl_compiler *fx, bool on) {
    pthread_mutex_lock(&fx->lock);
    fx->desc.performance_mode = on;
    fx->desc.env.performance_mode = on;
    held_preset *h = fx->current;
    if (h != NULL) {
        // Under the lock: a compile holding a reference only reads the values.
        fxgl_preset_lock(h->preset, on ? FXGL_EFFECTS_PERFORMANCE_LOCK : NULL);
    }
    pthread_mutex_unlock(&fx->lock);
}

fxgl_effect *fxgl_compiler_compile_for(fxgl_compiler *fx, const char *path,
                                       const fxgl_environment *environment,
                                       fxgl_glsl_target target, fxgl_diags *diags) {
    const char *file = fxgl_compiler_file_part(path);
    fxgl_environment env = *environment;
    bool performance_mode = fxgl_compiler_performance_mode(fx);
    env.performance_mode = performance_mode;
    fxgl_define pre[FXGL_PREDEFINED_MAX];
    char storage[FXGL_PREDEFINED_STORAGE];
    size_t n = fxgl_predefined_macros(&env, pre, storage, sizeof(storage));
    const char *reserved[FXGL_PREDEFINED_MAX];
    for (size_t i = 0; i < n; i++) {
        reserved[i] = pre[i].name;
    }
    held_preset *h = acquire(fx);
    const fxgl_preset *preset = h != NULL ? h->preset : NULL;
    fxgl_preset_define_list user = {0};
    fxgl_define *defines = NULL;
    fxgl_effect *effect = NULL;
    if (!layered(fx, preset, file, reserved, n, &user) ||
        (defines = calloc(n + user.count + 1, sizeof(*defines))) == NULL) {
        fxgl_diags_add(diags, FXGL_DIAG_ERROR, "OUT_OF_MEMORY", path, 0, 0, NULL,
                       "out of memory");
        goto done;
    }
    memcpy(defines, pre, n * sizeof(*defines));
    for (size_t i = 0; i < user.count; i++) {
        defines[n + i] = (fxgl_define){user.items[i].name, user.items[i].value};
    }
    value_ctx ctx = {.preset = preset, .file = file};
    fxgl_compile_desc cd = {
        .path = path,
        .include_paths = fx->desc.include_paths,
        .include_path_count = fx->desc.include_path_count,
        .defines = defines,
        .define_count = n + user.count,
        .target = target,
        .performance_mode = performance_mode,
        .uniform_value = performance_mode ? uniform_value : NULL,
        .user = &ctx,
        // Inside a game: a hostile effect gives up well before it could
        // crowd the game out (real effects need a few MiB; time: the default).
        .memory_limit = 256u << 20,
    };
    effect = fxgl_diskcache_compile(fx->desc.cache, &cd, diags);
done:
    free(defines);
    fxgl_preset_define_list_finish(&user);
    release(fx, h);
    return effect;
}
