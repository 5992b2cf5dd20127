/*
 * search.c - EffectSearchPaths and TextureSearchPaths as ReShade reads them, resolved in one
 * place for every consumer: the preloaded library, fxc, fxgl-render and `fxgl --list-effects`.
 *
 * A path written with a trailing `**` is its folder and every folder below it; without it,
 * the folder alone. The expansion is a plain list of folders (the folder, then each
 * sub-folder sorted by name, depth first, hidden ones skipped), so every lookup after it -
 * an effect file, an #include, a `source=` texture - is "the first folder of the list that
 * has the name", and a message can name exactly the folders it looked in.
 */
#include "preset_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define SEARCH_MAX_DIRS 4096     // folders below one `**` path (the preprocessor's bound)
#define SEARCH_MAX_DEPTH 16      // levels below one `**` path

static char *join(const char *dir, const char *name) {
    size_t a = strlen(dir);
    size_t b = strlen(name);
    bool slash = a > 0 && dir[a - 1] != '/';
    char *out = malloc(a + slash + b + 1);
    if (out != NULL) {
        memcpy(out, dir, a);
        if (slash) {
            out[a] = '/';
        }
        memcpy(out + a + slash, name, b + 1);
    }
    return out;
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool push(fxgl_search *s, size_t *cap, char *dir) {
    if (dir == NULL) {
        return false;
    }
    for (size_t i = 0; i < s->count; i++) {
        if (strcmp(s->dirs[i], dir) == 0) { // listed twice: the first place counts
            free(dir);
            return true;
        }
    }
    if (s->count + 1 >= *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 16;
        char **grown = realloc(s->dirs, grown_cap * sizeof(*grown));
        if (grown == NULL) {
            free(dir);
            return false;
        }
        s->dirs = grown;
        *cap = grown_cap;
    }
    s->dirs[s->count++] = dir;
    s->dirs[s->count] = NULL;
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// The sub-folders of dir, sorted; NULL-terminated, NULL when out of memory.
static char **subfolders(const char *dir, size_t *count) {
    *count = 0;
    size_t cap = 8;
    char **names = malloc(cap * sizeof(*names));
    DIR *d = names != NULL ? opendir(dir) : NULL;
    struct dirent *ent;
    while (d != NULL && (ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.') {
            continue;
        }
        char *path = join(dir, ent->d_name);
        if (path == NULL || !is_dir(path)) {
            free(path);
            continue;
        }
        if (*count + 1 >= cap) {
            char **grown = realloc(names, (cap *= 2) * sizeof(*names));
            if (grown == NULL) {
                free(path);
                break;
            }
            names = grown;
        }
        names[(*count)++] = path;
    }
    if (d != NULL) {
        closedir(d);
    }
    if (names != NULL) {
        qsort(names, *count, sizeof(*names), compare_names);
        names[*count] = NULL;
    }
    return names;
}

static bool add_below(fxgl_search *s, size_t *cap, const char *dir, int depth, size_t *budget) {
    if (depth > SEARCH_MAX_DEPTH) {
        return true;
    }
    size_t n;
    char **subs = subfolders(dir, &n);
    if (subs == NULL) {
        return false;
    }
    bool ok = true;
    size_t i = 0;
    for (; ok && i < n && *budget > 0; i++) {
        (*budget)--;
        char *copy = preset_strdup(subs[i]);
        ok = push(s, cap, copy) && add_below(s, cap, subs[i], depth + 1, budget);
    }
    for (i = 0; i < n; i++) {
        free(subs[i]);
    }
    free(subs);
    return ok;
}

bool fxgl_search_expand(fxgl_search *out, const fxgl_config_path *paths, size_t count) {
    *out = (fxgl_search){0};
    size_t cap = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < count; i++) {
        ok = push(out, &cap, preset_strdup(paths[i].path));
        if (ok && paths[i].recursive) {
            size_t budget = SEARCH_MAX_DIRS;
            ok = add_below(out, &cap, paths[i].path, 0, &budget);
        }
    }
    if (ok && out->dirs == NULL) {
        out->dirs = calloc(1, sizeof(*out->dirs)); // an empty list is still a list
        ok = out->dirs != NULL;
    }
    if (!ok) {
        fxgl_search_finish(out);
    }
    return ok;
}

bool fxgl_search_expand_raw(fxgl_search *out, const char *const *raw, size_t count) {
    fxgl_config_path *paths = calloc(count + 1, sizeof(*paths));
    bool ok = paths != NULL;
    size_t used = 0;
    for (size_t i = 0; ok && i < count; i++) {
        if (raw[i] == NULL || raw[i][0] == '\0') {
            continue;
        }
        ok = fxgl_config_path_parse(raw[i], NULL, &paths[used]);
        used += ok;
    }
    ok = ok && fxgl_search_expand(out, paths, used);
    for (size_t i = 0; paths != NULL && i < used; i++) {
        free(paths[i].path);
    }
    free(paths);
    return ok;
}

void fxgl_search_finish(fxgl_search *s) {
    for (size_t i = 0; s->dirs != NULL && i < s->count; i++) {
        free(s->dirs[i]);
    }
    free(s->dirs);
    *s = (fxgl_search){0};
}

// name in dir: exactly, else ignoring case (presets made on Windows spell names freely);
// name may have folders of its own ("Textures/lut.png"), matched exactly.
static char *in_dir(const char *dir, const char *name) {
    char *path = join(dir, name);
    struct stat st;
    if (path == NULL || (stat(path, &st) == 0 && S_ISREG(st.st_mode))) {
        return path;
    }
    free(path);
    if (strchr(name, '/') != NULL) {
        return NULL;
    }
    DIR *d = opendir(dir);
    struct dirent *ent;
    char *found = NULL;
    while (d != NULL && found == NULL && (ent = readdir(d)) != NULL) {
        if (strcasecmp(ent->d_name, name) == 0) {
            found = join(dir, ent->d_name);
            if (found != NULL && !(stat(found, &st) == 0 && S_ISREG(st.st_mode))) {
                free(found);
                found = NULL;
            }
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    return found;
}

char *fxgl_search_find(const fxgl_search *s, const char *name) {
    char *clean = preset_strdup(name);
    if (clean == NULL) {
        return NULL;
    }
    for (char *c = clean; *c != '\0'; c++) {
        if (*c == '\\') {
            *c = '/';
        }
    }
    char *found = NULL;
    if (clean[0] == '/') {
        struct stat st;
        found = stat(clean, &st) == 0 && S_ISREG(st.st_mode) ? preset_strdup(clean) : NULL;
    }
    const char *rel = clean;
    while (rel[0] == '.' && rel[1] == '/') {
        rel += 2;
    }
    for (size_t i = 0; clean[0] != '/' && found == NULL && i < s->count; i++) {
        found = in_dir(s->dirs[i], rel);
    }
    free(clean);
    return found;
}

static bool seen_name(char **files, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++) {
        const char *slash = strrchr(files[i], '/');
        if (strcmp(slash != NULL ? slash + 1 : files[i], name) == 0) {
            return true;
        }
    }
    return false;
}

size_t fxgl_search_effects(const fxgl_search *s, char ***out) {
    size_t count = 0;
    size_t cap = 16;
    char **files = malloc(cap * sizeof(*files));
    for (size_t i = 0; files != NULL && i < s->count; i++) {
        DIR *d = opendir(s->dirs[i]);
        if (d == NULL) {
            continue;
        }
        size_t first = count;
        struct dirent *ent;
        while ((ent = readdir(d)) != NULL) {
            size_t len = strlen(ent->d_name);
            if (ent->d_name[0] == '.' || len < 4 ||
                strcasecmp(ent->d_name + len - 3, ".fx") != 0 ||
                seen_name(files, count, ent->d_name)) {
                continue;
            }
            char *path = join(s->dirs[i], ent->d_name);
            struct stat st;
            if (path == NULL || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
                free(path);
                continue;
            }
            if (count + 1 >= cap) {
                char **grown = realloc(files, (cap *= 2) * sizeof(*files));
                if (grown == NULL) {
                    free(path);
                    break;
                }
                files = grown;
            }
            files[count++] = path;
        }
        closedir(d);
        qsort(files + first, count - first, sizeof(*files), compare_names);
    }
    if (files != NULL) {
        files[count] = NULL;
    }
    *out = files;
    return count;
}

void fxgl_search_describe(const fxgl_search *s, char *buf, size_t size) {
    size_t used = 0;
    if (size == 0) {
        return;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < s->count; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", s->dirs[i]);
        if (n < 0 || (size_t)n >= size - used) {
            // Cut at a whole entry, and say how many more there were.
            buf[used] = '\0';
            snprintf(buf + used, size - used, "%s... (%zu more)", i ? ", " : "", s->count - i);
            return;
        }
        used += (size_t)n;
    }
    if (s->count == 0) {
        snprintf(buf, size, "(no folders)");
    }
}
