/*
 * reload.c - live reload: an inotify watcher and compile worker.
 *
 * Directories are watched, not files: editors save by writing a new file and renaming it
 * over the old one, which a watch on the old inode would miss. An event names a directory
 * and a file; it marks the effects whose file set (kept as real paths) holds that file.
 * Events come in bursts (truncate, write, close; or create, write, rename), so the worker
 * waits until the files have been quiet for settle_ms before compiling.
 *
 * The lock guards the tables and the result queue only; compiles run without it, so the
 * render thread's fxgl_reloader_poll never waits for one.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_effects.h"

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)

typedef struct watched {
    int id;
    char *path;                  // the effect's path as given (compiled again from it)
    char **files;                // real paths (or directory real path + name) it depends on
    size_t file_count;
    bool dirty;                  // a file changed or a reload was requested
    bool compiled;               // compiled at least once (the prewarm is told)
    uint64_t changed_at;         // ms of the last event that marked it
} watched;

typedef struct dir_watch {
    int wd;
    char *dir;                   // real path
} dir_watch;

typedef struct result_node {
    fxgl_reload_result result;
    struct result_node *next;
} result_node;

struct fxgl_reloader {
    fxgl_compiler *effects;
    char **texture_paths;
    size_t texture_path_count;
    uint32_t settle_ms;
    bool no_watch;               // requests only (fxgl_reloader_desc.no_watch)
    void (*prewarm)(void *user, const fxgl_effect *effect, bool first); // after a compile
    void *prewarm_user;
    int ino;                     // inotify descriptor
    int wake;                    // eventfd: stop, request
    pthread_t thread;
    bool started;

    pthread_mutex_t lock;
    bool stop;
    watched *items;
    size_t item_count, item_cap;
    dir_watch *dirs;
    size_t dir_count, dir_cap;
    char *preset_path;           // real path of the watched preset, NULL if none
    char *preset_given;          // as given (re-read from it)
    bool preset_dirty;
    uint64_t preset_changed_at;
    result_node *head, *tail;
    // The read-ahead (fxgl_reloader_read_ahead): the presets beside ahead_base, read on
    // the worker so that a switch to one of them reads nothing on the host's thread.
    char *ahead_base;            // as given, NULL: off
    char *ahead_dir;             // real path of its directory (events there refresh it)
    bool ahead_dirty;            // to be read (again)
    uint64_t ahead_changed_at;
    bool ahead_ready;            // ahead[] holds ahead_base's neighbours
    unsigned ahead_gen;          // bumped by every read the worker finishes
    struct {
        char *path;              // as fxgl_preset_neighbour spells it, NULL: none
        fxgl_held_preset *held;  // read from it; NULL once taken (or unreadable)
    } ahead[2];                  // [0] the next, [1] the previous
    uint64_t compiles;
    bool busy;                   // the worker took an item or the preset and has not
                                 // queued its result yet (fxgl_reloader_idle)
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// The real path of path's directory joined with its name, so that a file that does not
// exist yet (or is being replaced) still compares equal to what inotify reports.
static char *canonical(const char *path) {
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *name = slash != NULL ? slash + 1 : path;
    if (slash == NULL) {
        snprintf(dir, sizeof(dir), ".");
    } else if (slash == path) {
        snprintf(dir, sizeof(dir), "/");
    } else {
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    }
    char real[PATH_MAX];
    if (realpath(dir, real) == NULL) {
        return NULL;
    }
    size_t len = strlen(real) + 1 + strlen(name) + 1;
    char *out = malloc(len);
    if (out != NULL) {
        snprintf(out, len, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", name);
    }
    return out;
}

// Adds an inotify watch on the directory of a canonical path (lock held).
static bool watch_dir_of(fxgl_reloader *r, const char *file) {
    const char *slash = strrchr(file, '/');
    size_t len = slash != NULL && slash != file ? (size_t)(slash - file) : 1;
    char *dir = malloc(len + 1);
    if (dir == NULL) {
        return false;
    }
    memcpy(dir, file, len);
    dir[len] = '\0';
    for (size_t i = 0; i < r->dir_count; i++) {
        if (strcmp(r->dirs[i].dir, dir) == 0) {
            free(dir);
            return true;
        }
    }
    int wd = inotify_add_watch(r->ino, dir, WATCH_MASK);
    if (wd < 0) {
        free(dir); // a directory we cannot watch: its files are simply not reloaded
        return true;
    }
    if (r->dir_count == r->dir_cap) {
        size_t cap = r->dir_cap ? r->dir_cap * 2 : 8;
        dir_watch *d = realloc(r->dirs, cap * sizeof(*d));
        if (d == NULL) {
            free(dir);
            return false;
        }
        r->dirs = d;
        r->dir_cap = cap;
    }
    r->dirs[r->dir_count++] = (dir_watch){.wd = wd, .dir = dir};
    return true;
}

static void wake(fxgl_reloader *r) {
    uint64_t one = 1;
    ssize_t n = write(r->wake, &one, sizeof(one));
    (void)n; // a full counter already means "wake up"
}

static void free_files(watched *w) {
    for (size_t i = 0; i < w->file_count; i++) {
        free(w->files[i]);
    }
    free(w->files);
    w->files = NULL;
    w->file_count = 0;
}

// --- the worker ---

static void push_result(fxgl_reloader *r, result_node *node) {
    pthread_mutex_lock(&r->lock);
    if (r->tail != NULL) {
        r->tail->next = node;
    } else {
        r->head = node;
    }
    r->tail = node;
    r->compiles += node->result.preset_changed ? 0 : 1;
    pthread_mutex_unlock(&r->lock);
}

static char *diags_text(const fxgl_diags *diags) {
    size_t cap = 1, used = 0;
    for (size_t i = 0; i < diags->count; i++) {
        cap += (size_t)fxgl_diag_format(&diags->items[i], NULL, 0) + 1;
    }
    char *text = malloc(cap);
    if (text == NULL) {
        return NULL;
    }
    text[0] = '\0';
    for (size_t i = 0; i < diags->count; i++) {
        int n = fxgl_diag_format(&diags->items[i], text + used, cap - used);
        used += n > 0 ? (size_t)n : 0;
        if (used + 1 < cap) {
            text[used++] = '\n';
            text[used] = '\0';
        }
    }
    return text;
}

static void compile_one(fxgl_reloader *r, int id, const char *path, bool first) {
    result_node *node = calloc(1, sizeof(*node));
    if (node == NULL) {
        return;
    }
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    double start = now_s();
    node->result.id = id;
    node->result.effect = fxgl_compiler_compile(r->effects, path, &diags);
    node->result.compile_ms = (now_s() - start) * 1000.0;
    if (node->result.effect != NULL && r->prewarm != NULL) {
        double warm = now_s();
        r->prewarm(r->prewarm_user, node->result.effect, first);
        node->result.prewarm_ms = (now_s() - warm) * 1000.0;
    }
    node->result.errors = diags_text(&diags);
    fxgl_diags_finish(&diags);
    push_result(r, node);
}

// Effects whose layered definitions differ under the new preset must be rebuilt; in
// performance mode every effect is (its constants are the preset's values).
static void preset_changed(fxgl_reloader *r, const char *path) {
    size_t n;
    pthread_mutex_lock(&r->lock);
    n = r->item_count;
    char **paths = calloc(n + 1, sizeof(*paths));
    for (size_t i = 0; paths != NULL && i < n; i++) {
        paths[i] = strdup(r->items[i].path);
    }
    pthread_mutex_unlock(&r->lock);
    if (paths == NULL) {
        return;
    }
    bool all = fxgl_compiler_performance_mode(r->effects);
    bool *changed = calloc(n + 1, sizeof(*changed));
    fxgl_preset_define_list *before = calloc(n + 1, sizeof(*before));
    for (size_t i = 0; !all && before != NULL && i < n; i++) {
        if (paths[i] != NULL) {
            fxgl_compiler_defines(r->effects, fxgl_compiler_file_part(paths[i]), &before[i]);
        }
    }
    fxgl_compiler_set_preset(r->effects, path);
    for (size_t i = 0; changed != NULL && i < n; i++) {
        if (all || before == NULL || paths[i] == NULL) {
            changed[i] = true;
            continue;
        }
        fxgl_preset_define_list after = {0};
        fxgl_compiler_defines(r->effects, fxgl_compiler_file_part(paths[i]), &after);
        bool same = after.count == before[i].count;
        for (size_t k = 0; same && k < after.count; k++) {
            same = strcmp(after.items[k].name, before[i].items[k].name) == 0 &&
                   strcmp(after.items[k].value, before[i].items[k].value) == 0;
        }
        changed[i] = !same;
        fxgl_preset_define_list_finish(&after);
    }
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < n && i < r->item_count; i++) {
        if (changed == NULL || changed[i]) {
            r->items[i].dirty = true;
            r->items[i].changed_at = 0; // compile right away
        }
    }
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < n; i++) {
        free(paths[i]);
        if (before != NULL) {
            fxgl_preset_define_list_finish(&before[i]);
        }
    }
    free(paths);
    free(before);
    free(changed);
}

static void handle_event(fxgl_reloader *r, const struct inotify_event *ev) {
    if (ev->mask & IN_Q_OVERFLOW) {
        // Events were lost: any file may have changed, so everything is rebuilt.
        pthread_mutex_lock(&r->lock);
        uint64_t t = now_ms();
        for (size_t i = 0; !r->no_watch && i < r->item_count; i++) {
            r->items[i].dirty = true;
            r->items[i].changed_at = t;
        }
        if (!r->no_watch && r->preset_path != NULL) {
            r->preset_dirty = true;
            r->preset_changed_at = t;
        }
        if (r->ahead_base != NULL) {
            r->ahead_dirty = true;
            r->ahead_changed_at = t;
        }
        pthread_mutex_unlock(&r->lock);
        return;
    }
    if (ev->len == 0) {
        return;
    }
    pthread_mutex_lock(&r->lock);
    const char *dir = NULL;
    for (size_t i = 0; i < r->dir_count; i++) {
        if (r->dirs[i].wd == ev->wd) {
            dir = r->dirs[i].dir;
        }
    }
    if (dir != NULL) {
        char full[PATH_MAX + NAME_MAX + 2];
        snprintf(full, sizeof(full), "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/",
                 ev->name);
        uint64_t t = now_ms();
        // The read-ahead's directory is watched even with no_watch: only the read-ahead
        // follows it then.
        for (size_t i = 0; !r->no_watch && i < r->item_count; i++) {
            for (size_t k = 0; k < r->items[i].file_count; k++) {
                if (strcmp(r->items[i].files[k], full) == 0) {
                    r->items[i].dirty = true;
                    r->items[i].changed_at = t;
                }
            }
        }
        if (!r->no_watch && r->preset_path != NULL && strcmp(r->preset_path, full) == 0) {
            r->preset_dirty = true;
            r->preset_changed_at = t;
        }
        const char *dot = strrchr(ev->name, '.');
        if (r->ahead_dir != NULL && strcmp(r->ahead_dir, dir) == 0 && dot != NULL &&
            (strcasecmp(dot, ".ini") == 0 || strcasecmp(dot, ".txt") == 0)) {
            r->ahead_dirty = true; // a preset of the folder came, went or changed
            r->ahead_changed_at = t;
        }
    }
    pthread_mutex_unlock(&r->lock);
}

// Reads base's neighbours (the directory listing and both files, on this thread) and
// hands them to the read-ahead unless it was given another base meanwhile.
static void read_ahead(fxgl_reloader *r, const char *base) {
    // Its directory, watched whatever no_watch says: the folder's presets change under
    // the read-ahead too (handle_event leaves the rest alone with no_watch).
    char *c = canonical(base);
    char *slash = c != NULL ? strrchr(c, '/') : NULL;
    char *dir = slash == NULL ? NULL : slash == c ? strdup("/") : strndup(c, (size_t)(slash - c));
    pthread_mutex_lock(&r->lock);
    if (dir != NULL && r->ahead_base != NULL && strcmp(r->ahead_base, base) == 0 &&
        r->ahead_dir == NULL) {
        watch_dir_of(r, c);
        r->ahead_dir = dir;
        dir = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    free(dir);
    free(c);
    char *paths[2] = {NULL, NULL};
    fxgl_held_preset *held[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        char path[PATH_MAX];
        if (fxgl_preset_neighbour(base, k == 0 ? 1 : -1, path, sizeof(path))) {
            paths[k] = strdup(path);
            held[k] = paths[k] != NULL ? fxgl_compiler_read_preset(r->effects, path) : NULL;
        }
    }
    pthread_mutex_lock(&r->lock);
    bool current = r->ahead_base != NULL && strcmp(r->ahead_base, base) == 0;
    for (int k = 0; current && k < 2; k++) {
        char *p = r->ahead[k].path;
        fxgl_held_preset *h = r->ahead[k].held;
        r->ahead[k].path = paths[k];
        r->ahead[k].held = held[k];
        paths[k] = p;
        held[k] = h;
    }
    if (current) {
        r->ahead_ready = true;
        r->ahead_gen++;
    }
    pthread_mutex_unlock(&r->lock);
    for (int k = 0; k < 2; k++) { // the older copies, or these when base is gone
        free(paths[k]);
        fxgl_compiler_release_preset(r->effects, held[k]);
    }
}

// After a result is queued (or lost to memory): the worker holds nothing back any more.
static void set_idle(fxgl_reloader *r) {
    pthread_mutex_lock(&r->lock);
    r->busy = false;
    pthread_mutex_unlock(&r->lock);
}

static void *worker(void *arg) {
    fxgl_reloader *r = arg;
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    // Below the render thread: on a machine with few cores a compile must not take the
    // time a frame needs. (Linux nice values are per thread; failing is harmless.)
    // Not SCHED_IDLE: the prewarm takes driver locks the render thread also needs, and an
    // idle-class thread holding one stalled frames by 400 ms (measured).
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    for (;;) {
        // How long until the next burst has settled (-1: nothing pending).
        int timeout = -1;
        uint64_t t = now_ms();
        int ready_id = -1;
        char *ready_path = NULL;
        bool ready_first = false;
        bool preset_ready = false;
        char *preset_path = NULL;
        pthread_mutex_lock(&r->lock);
        if (r->stop) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        if (r->preset_dirty) {
            uint64_t due = r->preset_changed_at + r->settle_ms;
            if (due <= t) {
                r->preset_dirty = false;
                r->busy = true;
                preset_ready = true;
                preset_path = strdup(r->preset_given);
            } else {
                timeout = (int)(due - t);
            }
        }
        // The read-ahead comes before the compiles: a switch key pressed once the effects
        // show finds the neighbours read. It owes the host nothing (not busy).
        char *ahead_base = NULL;
        if (!preset_ready && r->ahead_dirty && r->ahead_base != NULL) {
            uint64_t due = r->ahead_changed_at + r->settle_ms;
            if (r->ahead_changed_at == 0 || due <= t) {
                r->ahead_dirty = false;
                ahead_base = strdup(r->ahead_base);
            } else if (timeout < 0 || due - t < (uint64_t)timeout) {
                timeout = (int)(due - t);
            }
        }
        for (size_t i = 0; !preset_ready && ahead_base == NULL && ready_path == NULL &&
                           i < r->item_count; i++) {
            watched *w = &r->items[i];
            if (!w->dirty) {
                continue;
            }
            uint64_t due = w->changed_at + r->settle_ms;
            if (due <= t) {
                w->dirty = false;
                r->busy = true;
                ready_id = w->id;
                ready_path = strdup(w->path);
                ready_first = !w->compiled;
                w->compiled = true;
            } else if (timeout < 0 || due - t < (uint64_t)timeout) {
                timeout = (int)(due - t);
            }
        }
        pthread_mutex_unlock(&r->lock);

        if (preset_ready) {
            if (preset_path != NULL) {
                preset_changed(r, preset_path);
            }
            free(preset_path);
            result_node *node = calloc(1, sizeof(*node));
            if (node != NULL) {
                node->result.id = -1;
                node->result.preset_changed = true;
                node->result.errors = strdup("");
                // The copy just read, for the render thread: it reads no file.
                node->result.preset = fxgl_compiler_hold_preset(r->effects);
                node->result.held_by = r->effects;
                push_result(r, node);
            }
            set_idle(r);
            continue;
        }
        if (ahead_base != NULL) {
            read_ahead(r, ahead_base);
            free(ahead_base);
            continue;
        }
        if (ready_path != NULL) {
            compile_one(r, ready_id, ready_path, ready_first);
            free(ready_path);
            set_idle(r);
            continue;
        }

        struct pollfd fds[2] = {{.fd = r->ino, .events = POLLIN}, {.fd = r->wake, .events = POLLIN}};
        int n = poll(fds, 2, timeout);
        if (n < 0 && errno != EINTR) {
            break;
        }
        if (n > 0 && (fds[1].revents & POLLIN)) {
            uint64_t v;
            ssize_t got = read(r->wake, &v, sizeof(v));
            (void)got;
        }
        if (n > 0 && (fds[0].revents & POLLIN)) {
            ssize_t len = read(r->ino, buf, sizeof(buf));
            for (ssize_t off = 0; len > 0 && off < len;) {
                const struct inotify_event *ev = (const struct inotify_event *)(buf + off);
                handle_event(r, ev);
                off += (ssize_t)(sizeof(*ev) + ev->len);
            }
        }
    }
    return NULL;
}

// --- the API ---

fxgl_reloader *fxgl_reloader_create(const fxgl_reloader_desc *desc) {
    fxgl_reloader *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return NULL;
    }
    r->effects = desc->effects;
    r->settle_ms = desc->settle_ms ? desc->settle_ms : 50;
    r->no_watch = desc->no_watch;
    r->prewarm = desc->prewarm;
    r->prewarm_user = desc->prewarm_user;
    r->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    r->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    r->texture_paths = calloc(desc->texture_path_count + 1, sizeof(char *));
    bool ok = r->ino >= 0 && r->wake >= 0 && r->texture_paths != NULL &&
              pthread_mutex_init(&r->lock, NULL) == 0;
    for (size_t i = 0; ok && i < desc->texture_path_count; i++) {
        r->texture_paths[i] = strdup(desc->texture_paths[i]);
        ok = r->texture_paths[i] != NULL;
        r->texture_path_count = i + 1;
    }
    if (ok && pthread_create(&r->thread, NULL, worker, r) == 0) {
        r->started = true;
        return r;
    }
    fxgl_reloader_destroy(r);
    return NULL;
}

void fxgl_reloader_destroy(fxgl_reloader *r) {
    if (r == NULL) {
        return;
    }
    if (r->started) {
        pthread_mutex_lock(&r->lock);
        r->stop = true;
        pthread_mutex_unlock(&r->lock);
        wake(r);
        pthread_join(r->thread, NULL);
        pthread_mutex_destroy(&r->lock);
    }
    for (result_node *n = r->head; n != NULL;) {
        result_node *next = n->next;
        fxgl_reload_result_finish(&n->result);
        free(n);
        n = next;
    }
    for (size_t i = 0; i < r->item_count; i++) {
        free_files(&r->items[i]);
        free(r->items[i].path);
    }
    free(r->items);
    for (size_t i = 0; i < r->dir_count; i++) {
        free(r->dirs[i].dir);
    }
    free(r->dirs);
    for (size_t i = 0; r->texture_paths != NULL && i < r->texture_path_count; i++) {
        free(r->texture_paths[i]);
    }
    free(r->texture_paths);
    free(r->preset_path);
    free(r->preset_given);
    free(r->ahead_base);
    free(r->ahead_dir);
    for (int k = 0; k < 2; k++) {
        free(r->ahead[k].path);
        fxgl_compiler_release_preset(r->effects, r->ahead[k].held);
    }
    if (r->ino >= 0) {
        close(r->ino);
    }
    if (r->wake >= 0) {
        close(r->wake);
    }
    free(r);
}

static bool add_file(char ***files, size_t *count, const char *path) {
    char *c = canonical(path);
    if (c == NULL) {
        return true; // its directory does not exist: nothing to watch
    }
    char **f = realloc(*files, (*count + 1) * sizeof(*f));
    if (f == NULL) {
        free(c);
        return false;
    }
    *files = f;
    f[(*count)++] = c;
    return true;
}

bool fxgl_reloader_watch(fxgl_reloader *r, int id, const char *path, const fxgl_effect *effect) {
    char **files = NULL;
    size_t count = 0;
    bool ok = add_file(&files, &count, path);
    for (size_t i = 0; ok && effect != NULL && i < effect->included_count; i++) {
        ok = add_file(&files, &count, effect->included_files[i]);
    }
    // `source=` images: the effect's directory first, then the search paths, as the
    // runtime looks them up; every candidate is watched, so creating one is seen too.
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof(dir), "%.*s", slash != NULL ? (int)(slash - path) : 1,
             slash != NULL ? path : ".");
    for (size_t i = 0; ok && effect != NULL && i < effect->texture_count; i++) {
        const char *source = effect->textures[i].source;
        if (source == NULL || source[0] == '\0') {
            continue;
        }
        char candidate[PATH_MAX + 256];
        if (snprintf(candidate, sizeof(candidate), "%s/%s", dir, source) >=
            (int)sizeof(candidate)) {
            continue; // longer than any path the runtime could open
        }
        ok = add_file(&files, &count, candidate);
        for (size_t k = 0; ok && k < r->texture_path_count; k++) {
            if (snprintf(candidate, sizeof(candidate), "%s/%s", r->texture_paths[k], source) >=
                (int)sizeof(candidate)) {
                continue;
            }
            ok = add_file(&files, &count, candidate);
        }
    }
    char *given = strdup(path);
    ok = ok && given != NULL;

    pthread_mutex_lock(&r->lock);
    watched *w = NULL;
    for (size_t i = 0; i < r->item_count; i++) {
        if (r->items[i].id == id) {
            w = &r->items[i];
        }
    }
    if (ok && w == NULL) {
        if (r->item_count == r->item_cap) {
            size_t cap = r->item_cap ? r->item_cap * 2 : 8;
            watched *items = realloc(r->items, cap * sizeof(*items));
            if (items != NULL) {
                r->items = items;
                r->item_cap = cap;
            }
        }
        if (r->item_count < r->item_cap) {
            w = &r->items[r->item_count++];
            *w = (watched){.id = id};
        } else {
            ok = false;
        }
    }
    for (size_t i = 0; ok && !r->no_watch && i < count; i++) {
        ok = watch_dir_of(r, files[i]);
    }
    if (ok) {
        free_files(w);
        free(w->path);
        w->path = given;
        w->files = files;
        w->file_count = count;
        given = NULL;
        files = NULL;
        count = 0;
    }
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < count; i++) {
        free(files[i]);
    }
    free(files);
    free(given);
    return ok;
}

bool fxgl_reloader_watch_preset(fxgl_reloader *r, const char *path) {
    char *c = path != NULL ? canonical(path) : NULL;
    char *given = path != NULL ? strdup(path) : NULL;
    if (path != NULL && (c == NULL || given == NULL)) {
        free(c);
        free(given);
        return false;
    }
    pthread_mutex_lock(&r->lock);
    bool ok = c == NULL || r->no_watch || watch_dir_of(r, c);
    if (ok) {
        free(r->preset_path);
        free(r->preset_given);
        r->preset_path = c;
        r->preset_given = given;
        c = given = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    free(c);
    free(given);
    return ok;
}

bool fxgl_reloader_poll(fxgl_reloader *r, fxgl_reload_result *out) {
    pthread_mutex_lock(&r->lock);
    result_node *node = r->head;
    if (node != NULL) {
        r->head = node->next;
        if (r->head == NULL) {
            r->tail = NULL;
        }
    }
    pthread_mutex_unlock(&r->lock);
    if (node == NULL) {
        return false;
    }
    *out = node->result;
    free(node);
    return true;
}

void fxgl_reload_result_finish(fxgl_reload_result *result) {
    fxgl_effect_destroy(result->effect);
    free(result->errors);
    if (result->preset != NULL) {
        fxgl_compiler_release_preset(result->held_by, result->preset);
    }
    *result = (fxgl_reload_result){0};
}

bool fxgl_reloader_request(fxgl_reloader *r, int id) {
    bool found = false;
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < r->item_count; i++) {
        if (r->items[i].id == id) {
            r->items[i].dirty = true;
            r->items[i].changed_at = 0;
            found = true;
        }
    }
    pthread_mutex_unlock(&r->lock);
    wake(r);
    return found;
}

bool fxgl_reloader_idle(fxgl_reloader *r) {
    pthread_mutex_lock(&r->lock);
    bool idle = !r->busy && r->head == NULL && !r->preset_dirty;
    for (size_t i = 0; idle && i < r->item_count; i++) {
        idle = !r->items[i].dirty;
    }
    pthread_mutex_unlock(&r->lock);
    return idle;
}

uint64_t fxgl_reloader_compiles(fxgl_reloader *r) {
    pthread_mutex_lock(&r->lock);
    uint64_t n = r->compiles;
    pthread_mutex_unlock(&r->lock);
    return n;
}

bool fxgl_reloader_read_preset(fxgl_reloader *r, const char *path) {
    if (path == NULL || !fxgl_reloader_watch_preset(r, path)) {
        return false;
    }
    pthread_mutex_lock(&r->lock);
    r->preset_dirty = true;
    r->preset_changed_at = 0; // read right away
    pthread_mutex_unlock(&r->lock);
    wake(r);
    return true;
}

bool fxgl_reloader_read_ahead(fxgl_reloader *r, const char *path) {
    // Nothing but a copy here (the host calls it on its presenting thread): the worker
    // resolves the directory and watches it (read_ahead).
    char *base = path != NULL ? strdup(path) : NULL;
    if (path != NULL && base == NULL) {
        return false;
    }
    char *old_paths[2];
    fxgl_held_preset *old_held[2];
    pthread_mutex_lock(&r->lock);
    free(r->ahead_base);
    free(r->ahead_dir);
    r->ahead_base = base;
    r->ahead_dir = NULL;
    r->ahead_ready = false;
    r->ahead_dirty = base != NULL;
    r->ahead_changed_at = 0; // read right away
    for (int k = 0; k < 2; k++) {
        old_paths[k] = r->ahead[k].path;
        old_held[k] = r->ahead[k].held;
        r->ahead[k].path = NULL;
        r->ahead[k].held = NULL;
    }
    pthread_mutex_unlock(&r->lock);
    for (int k = 0; k < 2; k++) {
        free(old_paths[k]);
        fxgl_compiler_release_preset(r->effects, old_held[k]);
    }
    wake(r);
    return true;
}

unsigned fxgl_reloader_ahead_generation(fxgl_reloader *r) {
    pthread_mutex_lock(&r->lock);
    unsigned gen = r->ahead_gen;
    pthread_mutex_unlock(&r->lock);
    return gen;
}

bool fxgl_reloader_neighbours(fxgl_reloader *r, const char *path, char *next, char *previous,
                              size_t size) {
    pthread_mutex_lock(&r->lock);
    bool ready = r->ahead_ready && r->ahead_base != NULL && path != NULL &&
                 strcmp(r->ahead_base, path) == 0;
    if (ready) {
        snprintf(next, size, "%s", r->ahead[0].path != NULL ? r->ahead[0].path : "");
        snprintf(previous, size, "%s", r->ahead[1].path != NULL ? r->ahead[1].path : "");
    }
    pthread_mutex_unlock(&r->lock);
    return ready;
}

fxgl_held_preset *fxgl_reloader_take_ahead(fxgl_reloader *r, const char *path) {
    fxgl_held_preset *held = NULL;
    pthread_mutex_lock(&r->lock);
    for (int k = 0; r->ahead_ready && path != NULL && held == NULL && k < 2; k++) {
        if (r->ahead[k].path != NULL && strcmp(r->ahead[k].path, path) == 0) {
            held = r->ahead[k].held;
            r->ahead[k].held = NULL; // the caller's now
        }
    }
    pthread_mutex_unlock(&r->lock);
    return held;
}
