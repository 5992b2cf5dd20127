/*
 * preset.c - ReShade presets: which techniques run, their keys, uniform values, definitions.
 *
 * A preset is an INI document (ini.c) read with the reference's rules (runtime.cpp,
 * load_current_preset / save_current_preset). The global section holds `Techniques`
 * (enabled, `Name@File.fx` or legacy `Name`), `TechniqueSorting` (all, in render order),
 * `PreprocessorDefinitions` and `Key<Name@File.fx>=vk,ctrl,shift,alt`; each `[File.fx]`
 * section holds `uniform=v0,v1,...` (row-major components), `Key<uniform>` and its own
 * `PreprocessorDefinitions`.
 *
 * Saving works like the reference: the effects' state is written into the document that was
 * read, so every key and section this module does not understand survives untouched, and
 * the writer sorts like the reference so that a preset it wrote reads and writes back
 * byte-identically. Unlike the reference, a bad value is reported (with its line) and the
 * uniform keeps its value instead of becoming 0, and a file that changed on disk since it
 * was read, or could not be read, is never overwritten.
 */
#include "preset_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct fxgl_preset {
    fxgl_ini *ini;               // owned; the document
    char *path;                  // owned; file it was read from, NULL when made from text
    fxgl_preset_sink sink;       // where diagnostics go
    char *lock_reason;           // owned; non-NULL: saving is refused with this reason
    fxgl_ini_status status;      // how reading path went (OK when made from text)
};

static const char *diag_name(const fxgl_preset *preset) {
    return preset->path != NULL ? preset->path : fxgl_ini_name(preset->ini);
}

// Presets read by the calling thread (fxgl_preset_reads_on_thread): how a host proves
// that its presenting thread reads none once frames run.
static _Thread_local unsigned long reads_on_thread;

unsigned long fxgl_preset_reads_on_thread(void) {
    return reads_on_thread;
}

fxgl_preset *fxgl_preset_create(const fxgl_preset_desc *desc) {
    reads_on_thread++;
    fxgl_preset *preset = calloc(1, sizeof(*preset));
    if (preset == NULL) {
        return NULL;
    }
    preset->sink = desc->sink;
    preset->ini = fxgl_ini_create();
    if (preset->ini == NULL) {
        goto fail;
    }
    if (desc->text != NULL) {
        const char *name = desc->path != NULL ? desc->path : "<preset>";
        if (!fxgl_ini_parse(preset->ini, desc->text, desc->len, name, &preset->sink)) {
            goto fail;
        }
    } else if (desc->path != NULL) {
        preset->path = preset_strdup(desc->path);
        if (preset->path == NULL) {
            goto fail;
        }
        // FXGL_INI_FAILED leaves an empty document that refuses to save: still usable.
        preset->status = fxgl_ini_load(preset->ini, desc->path, &preset->sink);
    }
    return preset;
fail:
    fxgl_preset_destroy(preset);
    return NULL;
}

fxgl_ini_status fxgl_preset_status(const fxgl_preset *preset) {
    return preset->status;
}

void fxgl_preset_destroy(fxgl_preset *preset) {
    if (preset == NULL) {
        return;
    }
    fxgl_ini_destroy(preset->ini);
    free(preset->path);
    free(preset->lock_reason);
    free(preset);
}

bool fxgl_preset_is_preset_path(const char *path) {
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot == NULL || (slash != NULL && dot < slash) ||
        (strcasecmp(dot, ".ini") != 0 && strcasecmp(dot, ".txt") != 0)) {
        return false;
    }
    fxgl_ini *ini = fxgl_ini_create();
    if (ini == NULL) {
        return false;
    }
    fxgl_ini_status status = fxgl_ini_load(ini, path, NULL);
    bool is_preset = status == FXGL_INI_MISSING ||
                     (status == FXGL_INI_OK && fxgl_ini_has(ini, NULL, "Techniques"));
    fxgl_ini_destroy(ini);
    return is_preset;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool fxgl_preset_neighbour(const char *current, int step, char *out, size_t size) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", current);
    char *slash = strrchr(dir, '/');
    const char *name = slash != NULL ? slash + 1 : current;
    if (slash != NULL) {
        *slash = '\0';
    } else {
        snprintf(dir, sizeof(dir), ".");
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        return false;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL && count < FXGL_PRESET_NEIGHBOURS_MAX) {
        char path[PATH_MAX];
        if (ent->d_name[0] == '.' ||
            snprintf(path, sizeof(path), "%s/%s", dir, ent->d_name) >= (int)sizeof(path)) {
            continue;
        }
        struct stat st;
        bool is_current = strcmp(ent->d_name, name) == 0;
        if (!is_current && (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
                            !fxgl_preset_is_preset_path(path))) {
            continue;
        }
        char *copy = preset_strdup(ent->d_name);
        char **grown = copy != NULL ? realloc(names, (count + 1) * sizeof(*names)) : NULL;
        if (grown == NULL) {
            free(copy);
            break;
        }
        names = grown;
        names[count++] = copy;
    }
    closedir(d);
    bool found = false;
    if (count > 1) {
        qsort(names, count, sizeof(*names), compare_names);
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            if (strcmp(names[i], name) == 0) {
                at = i;
            }
        }
        long k = ((long)at + step) % (long)count;
        k += k < 0 ? (long)count : 0;
        found = step != 0 && snprintf(out, size, "%s/%s", dir, names[k]) < (int)size;
    }
    for (size_t i = 0; i < count; i++) {
        free(names[i]);
    }
    free(names);
    return found;
}

fxgl_ini *fxgl_preset_ini(fxgl_preset *preset) {
    return preset->ini;
}

const char *fxgl_preset_path(const fxgl_preset *preset) {
    return preset->path != NULL ? preset->path : "";
}

const char *const *fxgl_preset_techniques(const fxgl_preset *preset, size_t *count) {
    return fxgl_ini_get(preset->ini, NULL, "Techniques", count);
}

const char *const *fxgl_preset_technique_sorting(const fxgl_preset *preset, size_t *count) {
    return fxgl_ini_get(preset->ini, NULL, "TechniqueSorting", count);
}

bool fxgl_preset_wants_effect(const fxgl_preset *preset, const char *file) {
    size_t count;
    const char *const *list = fxgl_preset_techniques(preset, &count);
    if (list == NULL || count == 0) {
        return true; // nothing enabled at all: the reference loads everything
    }
    for (size_t i = 0; i < count; i++) {
        const char *at = strchr(list[i], '@');
        // A bare legacy name could belong to any file.
        if (at == NULL || strcmp(at + 1, file) == 0) {
            return true;
        }
    }
    return false;
}

// --- definitions ---

bool fxgl_preset_defines(const fxgl_preset *preset, const char *file,
                         fxgl_preset_define_list *out) {
    size_t count;
    const char *const *elements =
        fxgl_ini_get(preset->ini, file, "PreprocessorDefinitions", &count);
    return fxgl_preset_parse_defines(elements, elements != NULL ? count : 0, out);
}

// Writes definitions in the reference's form: `NAME=VALUE`, or `NAME` for an empty value.
static bool set_define_elements(fxgl_ini *ini, const char *file, const fxgl_preset_define *defs,
                                size_t count) {
    if (count == 0) {
        fxgl_ini_remove(ini, file, "PreprocessorDefinitions");
        return true;
    }
    char **elements = calloc(count, sizeof(*elements));
    bool ok = elements != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        const char *value = defs[i].value != NULL ? defs[i].value : "";
        size_t len = strlen(defs[i].name) + strlen(value) + 2;
        elements[i] = malloc(len);
        ok = elements[i] != NULL;
        if (ok) {
            snprintf(elements[i], len, value[0] != '\0' ? "%s=%s" : "%s", defs[i].name, value);
        }
    }
    ok = ok && fxgl_ini_set(ini, file, "PreprocessorDefinitions",
                            (const char *const *)elements, count);
    for (size_t i = 0; elements != NULL && i < count; i++) {
        free(elements[i]);
    }
    free(elements);
    return ok;
}

bool fxgl_preset_set_defines(fxgl_preset *preset, const char *file,
                             const fxgl_preset_define *defines, size_t count) {
    return set_define_elements(preset->ini, file, defines, count);
}

bool fxgl_preset_resolve_defines(const fxgl_preset *preset, const char *file,
                                 const fxgl_preset_define *config, size_t config_count,
                                 const fxgl_preset_define *builtins, size_t builtin_count,
                                 const char *const *reserved, size_t reserved_count,
                                 fxgl_preset_define_list *out) {
    fxgl_preset_define_list effect_defs = {0};
    fxgl_preset_define_list preset_defs = {0};
    bool ok = (file == NULL || fxgl_preset_defines(preset, file, &effect_defs)) &&
              fxgl_preset_defines(preset, NULL, &preset_defs);
    if (ok) {
        const fxgl_preset_define *sets[] = {effect_defs.items, preset_defs.items, config,
                                            builtins};
        size_t counts[] = {effect_defs.count, preset_defs.count, config_count, builtin_count};
        ok = fxgl_preset_layer_defines(sets, counts, 4, reserved, reserved_count, out);
    }
    fxgl_preset_define_list_finish(&effect_defs);
    fxgl_preset_define_list_finish(&preset_defs);
    return ok;
}

// The reference reads definitions into pairs and writes them back, which drops a trailing
// '=' and removes a key without elements. Doing the same keeps our output identical.
static bool normalise_defines(fxgl_ini *ini, const char *file) {
    size_t count;
    const char *const *elements = fxgl_ini_get(ini, file, "PreprocessorDefinitions", &count);
    if (elements == NULL) {
        return true;
    }
    if (count == 0) {
        fxgl_ini_remove(ini, file, "PreprocessorDefinitions");
        return true;
    }
    char **copy = calloc(count, sizeof(*copy));
    bool ok = copy != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        copy[i] = preset_strdup(elements[i]);
        ok = copy[i] != NULL;
        char *eq = ok ? strchr(copy[i], '=') : NULL;
        if (eq != NULL && eq[1] == '\0') {
            *eq = '\0';
        }
    }
    ok = ok && fxgl_ini_set(ini, file, "PreprocessorDefinitions", (const char *const *)copy,
                            count);
    for (size_t i = 0; copy != NULL && i < count; i++) {
        free(copy[i]);
    }
    free(copy);
    return ok;
}

// --- order ---

size_t fxgl_preset_order(const fxgl_preset *preset, const char *const *fallback,
                         size_t fallback_count, const fxgl_preset_effect *effects,
                         size_t effect_count, fxgl_preset_technique_ref *out) {
    // As the reference: an empty TechniqueSorting counts as absent.
    size_t count;
    const char *const *list = fxgl_preset_technique_sorting(preset, &count);
    if (list == NULL || count == 0) {
        list = fallback;
        count = fallback != NULL ? fallback_count : 0;
    }
    if (list == NULL || count == 0) {
        list = fxgl_preset_techniques(preset, &count);
    }
    return fxgl_preset_sort_techniques(list, list != NULL ? count : 0, effects, effect_count,
                                       out);
}

// --- applying a preset ---

static size_t components_of(const fxgl_preset_uniform *u) {
    size_t rows = u->rows != 0 ? u->rows : 1;
    size_t cols = u->cols != 0 ? u->cols : 1;
    size_t n = rows * cols;
    return n < FXGL_PRESET_MAX_COMPONENTS ? n : FXGL_PRESET_MAX_COMPONENTS;
}

// Reference supports_toggle_key: bools, and ints whose widget cycles through items.
static bool supports_toggle_key(const fxgl_preset_uniform *u) {
    if (u->type == FXGL_PRESET_BOOL) {
        return true;
    }
    if (u->type != FXGL_PRESET_INT && u->type != FXGL_PRESET_UINT) {
        return false;
    }
    return u->ui_type != NULL && (strcmp(u->ui_type, "list") == 0 ||
                                  strcmp(u->ui_type, "combo") == 0 ||
                                  strcmp(u->ui_type, "radio") == 0);
}

static bool saves(const fxgl_preset_uniform *u) {
    return !u->special && !u->nosave && u->name != NULL;
}

// Reads `Key...` into key; absent or unreadable gives no key (the reference zeroes it).
static bool read_key(const fxgl_preset *preset, const char *section, const char *name,
                     fxgl_preset_key *key) {
    size_t count;
    const char *const *elements = fxgl_ini_get(preset->ini, section, name, &count);
    *key = (fxgl_preset_key){0};
    if (elements == NULL) {
        return false;
    }
    if (!fxgl_preset_key_parse(elements, count, key) || count != 4) {
        preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset),
                     fxgl_ini_line(preset->ini, section, name),
                     "'%s' is not a key binding 'vk,ctrl,shift,alt' (vk 0-255)%s", name,
                     key->vk != 0 ? ": read anyway" : ": ignored");
    }
    return true;
}

static bool parse_component(fxgl_preset_base_type type, const char *text,
                            fxgl_preset_value *value) {
    long l;
    unsigned long u;
    switch (type) {
    case FXGL_PRESET_FLOAT:
        return preset_parse_float(text, &value->f);
    case FXGL_PRESET_INT:
        if (!preset_parse_long(text, &l)) {
            return false;
        }
        value->i = (int32_t)l;
        return true;
    case FXGL_PRESET_UINT:
        if (!preset_parse_ulong(text, &u)) {
            return false;
        }
        value->u = (uint32_t)u;
        return true;
    case FXGL_PRESET_BOOL:
        if (strcmp(text, "true") == 0 || strcmp(text, "True") == 0 ||
            strcmp(text, "TRUE") == 0) {
            value->u = 1;
            return true;
        }
        if (!preset_parse_ulong(text, &u)) {
            return false;
        }
        value->u = u != 0;
        return true;
    }
    return false;
}

static void apply_uniform(const fxgl_preset *preset, const char *file, fxgl_preset_uniform *u) {
    if (supports_toggle_key(u)) {
        size_t len = strlen(u->name) + 4;
        char *key_name = malloc(len);
        if (key_name != NULL) {
            snprintf(key_name, len, "Key%s", u->name);
            read_key(preset, file, key_name, &u->toggle_key);
            free(key_name);
        }
    }
    size_t count;
    const char *const *elements = fxgl_ini_get(preset->ini, file, u->name, &count);
    if (elements == NULL) {
        return;
    }
    unsigned line = fxgl_ini_line(preset->ini, file, u->name);
    size_t components = components_of(u);
    if (count != components) {
        preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset), line,
                     "'%s' has %zu value%s, expected %zu: %s", u->name, count,
                     count == 1 ? "" : "s", components,
                     count < components ? "the others keep their defaults" : "extra ignored");
    }
    for (size_t i = 0; i < components && i < count; i++) {
        fxgl_preset_value value = u->value[i];
        if (parse_component(u->type, elements[i], &value)) {
            u->value[i] = value;
        } else {
            preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset), line,
                         "'%s': '%s' is not a number: value %zu keeps its default", u->name,
                         elements[i], i);
        }
    }
}

bool fxgl_preset_read_uniform(const fxgl_preset *preset, const char *file,
                              fxgl_preset_uniform *u) {
    if (preset == NULL || u == NULL || !saves(u)) {
        return false;
    }
    const char *section = file != NULL ? file : "";
    if (!fxgl_ini_has(preset->ini, section, u->name)) {
        return false;
    }
    apply_uniform(preset, section, u);
    return true;
}

static bool effect_has_technique(const fxgl_preset_effect *effect, const char *name,
                                 size_t name_len) {
    for (size_t t = 0; t < effect->technique_count; t++) {
        const char *tn = effect->techniques[t].name;
        if (tn != NULL && strlen(tn) == name_len && memcmp(tn, name, name_len) == 0) {
            return true;
        }
    }
    return false;
}

// Warns about `Techniques` entries that name no loaded technique; false if there are any.
static bool check_technique_list(const fxgl_preset *preset, const fxgl_preset_effect *effects,
                                 size_t effect_count) {
    size_t count;
    const char *const *list = fxgl_preset_techniques(preset, &count);
    unsigned line = fxgl_ini_line(preset->ini, NULL, "Techniques");
    bool complete = true;
    for (size_t i = 0; list != NULL && i < count; i++) {
        const char *entry = list[i];
        const char *at = strchr(entry, '@');
        size_t name_len = at != NULL ? (size_t)(at - entry) : strlen(entry);
        bool file_found = at == NULL;
        bool found = false;
        for (size_t e = 0; e < effect_count && !found; e++) {
            if (at != NULL && (effects[e].file == NULL || strcmp(effects[e].file, at + 1) != 0)) {
                continue;
            }
            file_found = true;
            found = effect_has_technique(&effects[e], entry, name_len);
        }
        if (found || entry[0] == '\0') {
            continue;
        }
        complete = false;
        if (!file_found) {
            preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset), line,
                         "preset uses technique '%s' of effect file '%s', which is not loaded",
                         entry, at + 1);
        } else {
            preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset), line,
                         "preset uses unknown technique '%s'", entry);
        }
    }
    return complete;
}

static bool in_list(const char *const *list, size_t count, const char *text) {
    for (size_t i = 0; list != NULL && i < count; i++) {
        if (strcmp(list[i], text) == 0) {
            return true;
        }
    }
    return false;
}

static char *key_name_for(const char *name, const char *file) {
    size_t len = strlen(name) + (file != NULL ? strlen(file) + 1 : 0) + 4;
    char *key = malloc(len);
    if (key != NULL) {
        snprintf(key, len, file != NULL ? "Key%s@%s" : "Key%s", name, file != NULL ? file : "");
    }
    return key;
}

// Keys of a loaded effect's section that name no variable of it (a typo, or a variable
// the effect no longer has) are reported; they stay in the document and are saved again.
static void warn_unused_keys(const fxgl_preset *preset, const fxgl_preset_effect *effect) {
    const char *file = effect->file != NULL ? effect->file : "";
    size_t keys = fxgl_ini_key_count(preset->ini, file);
    for (size_t k = 0; k < keys; k++) {
        const char *key = fxgl_ini_key_name(preset->ini, file, k);
        if (key == NULL || strcmp(key, "PreprocessorDefinitions") == 0) {
            continue;
        }
        bool known = false;
        for (size_t u = 0; u < effect->uniform_count && !known; u++) {
            const char *name = effect->uniforms[u].name;
            known = name != NULL && (strcmp(key, name) == 0 ||
                                     (strncmp(key, "Key", 3) == 0 &&
                                      strcmp(key + 3, name) == 0));
        }
        if (!known) {
            preset_diagf(&preset->sink, FXGL_PRESET_WARNING, diag_name(preset),
                         fxgl_ini_line(preset->ini, file, key),
                         "'%s' in [%s] is no variable of the effect: ignored, kept on save",
                         key, file);
        }
    }
}

bool fxgl_preset_apply(const fxgl_preset *preset, fxgl_preset_effect *effects,
                       size_t effect_count) {
    size_t count;
    const char *const *list = fxgl_preset_techniques(preset, &count);
    for (size_t e = 0; e < effect_count; e++) {
        fxgl_preset_effect *effect = &effects[e];
        const char *file = effect->file != NULL ? effect->file : "";
        for (size_t t = 0; t < effect->technique_count; t++) {
            fxgl_preset_technique *tech = &effect->techniques[t];
            if (tech->name == NULL) {
                continue;
            }
            char *unique = key_name_for(tech->name, file); // "KeyName@File.fx"
            char *legacy = key_name_for(tech->name, NULL); // "KeyName"
            if (unique == NULL || legacy == NULL) {
                free(unique);
                free(legacy);
                return false;
            }
            tech->enabled = tech->forced_on || in_list(list, count, unique + 3) ||
                            in_list(list, count, tech->name);
            if (!read_key(preset, NULL, unique, &tech->toggle_key)) {
                read_key(preset, NULL, legacy, &tech->toggle_key);
            }
            free(unique);
            free(legacy);
        }
        for (size_t u = 0; u < effect->uniform_count; u++) {
            if (saves(&effect->uniforms[u])) {
                apply_uniform(preset, file, &effect->uniforms[u]);
            }
        }
        warn_unused_keys(preset, effect);
    }
    return check_technique_list(preset, effects, effect_count);
}

// --- capturing state for a save ---

static bool set_key(fxgl_ini *ini, const char *section, const char *name,
                    const fxgl_preset_key *key) {
    if (key->vk == 0) {
        fxgl_ini_remove(ini, section, name);
        return true;
    }
    uint32_t values[4] = {key->vk, key->ctrl, key->shift, key->alt};
    return fxgl_ini_set_uints(ini, section, name, values, 4);
}

static bool capture_uniform(fxgl_ini *ini, const char *file, const fxgl_preset_uniform *u) {
    if (supports_toggle_key(u)) {
        char *key = key_name_for(u->name, NULL);
        bool ok = key != NULL && set_key(ini, file, key, &u->toggle_key);
        free(key);
        if (!ok) {
            return false;
        }
    }
    size_t n = components_of(u);
    int32_t ints[FXGL_PRESET_MAX_COMPONENTS];
    uint32_t uints[FXGL_PRESET_MAX_COMPONENTS];
    float floats[FXGL_PRESET_MAX_COMPONENTS];
    for (size_t i = 0; i < n; i++) {
        ints[i] = u->value[i].i;
        uints[i] = u->type == FXGL_PRESET_BOOL ? u->value[i].u != 0 : u->value[i].u;
        floats[i] = u->value[i].f;
    }
    switch (u->type) {
    case FXGL_PRESET_INT:
        return fxgl_ini_set_ints(ini, file, u->name, ints, n);
    case FXGL_PRESET_UINT:
    case FXGL_PRESET_BOOL:
        return fxgl_ini_set_uints(ini, file, u->name, uints, n);
    case FXGL_PRESET_FLOAT:
        return fxgl_ini_set_floats(ini, file, u->name, floats, n);
    }
    return false;
}

// Whether a Techniques/TechniqueSorting entry names a technique of the given effects
// (`Name@File.fx`, or a legacy bare `Name` any of them has).
static bool entry_loaded(const char *entry, const fxgl_preset_effect *effects,
                         size_t effect_count) {
    const char *at = strchr(entry, '@');
    size_t name_len = at != NULL ? (size_t)(at - entry) : strlen(entry);
    for (size_t e = 0; e < effect_count; e++) {
        if (at != NULL && (effects[e].file == NULL || strcmp(effects[e].file, at + 1) != 0)) {
            continue;
        }
        if (effect_has_technique(&effects[e], entry, name_len)) {
            return true;
        }
    }
    return false;
}

// The new list with the old list's entries that name nothing loaded (effect files that
// are missing, failed or skipped, techniques that are unknown) put back where they were:
// after the nearest earlier old entry that is still in the list, else first. Without this
// a save would drop them, and a preset used with a partial shader folder would lose its
// other effects. Returns a malloc'd array of borrowed pointers (into new_list and old),
// NULL when out of memory.
static const char **keep_unloaded(const char *const *old, size_t old_count,
                                  char *const *new_list, size_t new_count,
                                  const fxgl_preset_effect *effects, size_t effect_count,
                                  size_t *out_count) {
    const char **out = calloc(old_count + new_count + 1, sizeof(*out));
    if (out == NULL) {
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < new_count; i++) {
        out[n++] = new_list[i];
    }
    size_t insert_at = 0; // after the last kept-or-present old entry seen so far
    for (size_t i = 0; i < old_count; i++) {
        if (old[i][0] == '\0') {
            continue;
        }
        if (entry_loaded(old[i], effects, effect_count)) {
            for (size_t k = 0; k < n; k++) {
                if (strcmp(out[k], old[i]) == 0) {
                    insert_at = k + 1;
                    break;
                }
            }
            continue;
        }
        bool present = false;
        for (size_t k = 0; k < n && !present; k++) {
            present = strcmp(out[k], old[i]) == 0;
        }
        if (present) {
            continue;
        }
        memmove(&out[insert_at + 1], &out[insert_at], (n - insert_at) * sizeof(*out));
        out[insert_at++] = old[i];
        n++;
    }
    *out_count = n;
    return out;
}

bool fxgl_preset_capture(fxgl_preset *preset, const fxgl_preset_effect *effects,
                         size_t effect_count, const fxgl_preset_technique_ref *order,
                         size_t order_count) {
    fxgl_ini *ini = preset->ini;
    char **enabled = calloc(order_count + 1, sizeof(*enabled)); // borrowed from sorted
    char **sorted = calloc(order_count + 1, sizeof(*sorted));   // owned strings
    bool *used = calloc(effect_count + 1, sizeof(*used));       // effect gets its section
    size_t enabled_count = 0;
    size_t sorted_count = 0;
    bool ok = enabled != NULL && sorted != NULL && used != NULL;
    for (size_t i = 0; ok && i < order_count; i++) {
        const fxgl_preset_technique_ref ref = order[i];
        if (ref.effect >= effect_count || ref.technique >= effects[ref.effect].technique_count) {
            continue;
        }
        const fxgl_preset_effect *effect = &effects[ref.effect];
        const fxgl_preset_technique *tech = &effect->techniques[ref.technique];
        if (tech->nosave || tech->name == NULL) {
            continue;
        }
        char *key = key_name_for(tech->name, effect->file != NULL ? effect->file : "");
        ok = key != NULL && set_key(ini, NULL, key, &tech->toggle_key);
        if (!ok) {
            free(key);
            break;
        }
        // The list entry is the key name without "Key".
        memmove(key, key + 3, strlen(key + 3) + 1);
        sorted[sorted_count++] = key;
        if (tech->enabled) {
            enabled[enabled_count++] = key;
        }
        if (tech->enabled || tech->toggle_key.vk != 0) {
            used[ref.effect] = true;
        }
    }
    if (ok) {
        // The reference writes TechniqueSorting when it exists or when Techniques is not
        // simply its beginning (std::equal over the enabled list).
        bool prefix = true;
        for (size_t i = 0; i < enabled_count; i++) {
            prefix = prefix && strcmp(enabled[i], sorted[i]) == 0;
        }
        // Entries naming nothing loaded are kept (copied: setting a key frees the
        // elements the old lists point into).
        size_t old_count = 0, old_sorting_count = 0;
        const char *const *old_list = fxgl_preset_techniques(preset, &old_count);
        const char *const *old_sorting = fxgl_preset_technique_sorting(preset,
                                                                       &old_sorting_count);
        char **old_copy = calloc(old_count + old_sorting_count + 1, sizeof(*old_copy));
        ok = old_copy != NULL;
        for (size_t i = 0; ok && i < old_count + old_sorting_count; i++) {
            old_copy[i] = preset_strdup(i < old_count ? old_list[i]
                                                      : old_sorting[i - old_count]);
            ok = old_copy[i] != NULL;
        }
        size_t list_count = 0, sorting_count = 0;
        const char **list = ok ? keep_unloaded((const char *const *)old_copy, old_count,
                                               enabled, enabled_count, effects, effect_count,
                                               &list_count)
                               : NULL;
        const char **sorting = ok ? keep_unloaded((const char *const *)old_copy + old_count,
                                                  old_sorting_count, sorted, sorted_count,
                                                  effects, effect_count, &sorting_count)
                                  : NULL;
        ok = list != NULL && sorting != NULL;
        if (ok && (fxgl_ini_has(ini, NULL, "TechniqueSorting") || !prefix)) {
            ok = fxgl_ini_set(ini, NULL, "TechniqueSorting", sorting, sorting_count);
        }
        ok = ok && fxgl_ini_set(ini, NULL, "Techniques", list, list_count);
        free(list);
        free(sorting);
        for (size_t i = 0; old_copy != NULL && i < old_count + old_sorting_count; i++) {
            free(old_copy[i]);
        }
        free(old_copy);
        ok = ok && normalise_defines(ini, NULL);
    }
    for (size_t e = 0; ok && e < effect_count; e++) {
        if (!used[e]) {
            continue;
        }
        const char *file = effects[e].file != NULL ? effects[e].file : "";
        ok = normalise_defines(ini, file);
        for (size_t u = 0; ok && u < effects[e].uniform_count; u++) {
            if (saves(&effects[e].uniforms[u])) {
                ok = capture_uniform(ini, file, &effects[e].uniforms[u]);
            }
        }
    }
    for (size_t i = 0; sorted != NULL && i < sorted_count; i++) {
        free(sorted[i]);
    }
    free(sorted);
    free(enabled);
    free(used);
    return ok;
}

// --- saving ---

void fxgl_preset_lock(fxgl_preset *preset, const char *reason) {
    free(preset->lock_reason);
    preset->lock_reason = reason != NULL ? preset_strdup(reason) : NULL;
    if (reason != NULL && preset->lock_reason == NULL) {
        preset->lock_reason = preset_strdup("locked"); // short enough to survive low memory
    }
}

bool fxgl_preset_save(fxgl_preset *preset, const char *path) {
    const char *target = path != NULL ? path : preset->path;
    if (target == NULL) {
        preset_diagf(&preset->sink, FXGL_PRESET_ERROR, diag_name(preset), 0,
                     "not saved: the preset has no file name");
        return false;
    }
    if (preset->lock_reason != NULL) {
        preset_diagf(&preset->sink, FXGL_PRESET_ERROR, target, 0, "not saved: %s",
                     preset->lock_reason);
        return false;
    }
    if (preset->path != NULL && strcmp(target, preset->path) == 0) {
        preset_file_stamp then = preset_ini_stamp(preset->ini);
        preset_file_stamp now = preset_stamp_path(target);
        if (!preset_ini_load_failed(preset->ini) && !preset_stamp_equal(&then, &now)) {
            preset_diagf(&preset->sink, FXGL_PRESET_ERROR, target, 0,
                         "not saved: the file changed on disk since it was read");
            return false;
        }
    }
    return fxgl_ini_save(preset->ini, target, &preset->sink);
}
