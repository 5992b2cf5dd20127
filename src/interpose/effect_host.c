/*
 * effect_host.c - what a runtime runs: configuration, preset, effect files.
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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_diskcache.h"
#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

#define IP_SHARED_MAX 64             // compiled effects kept for other contexts


// The process's configuration, read once (session_once): every runtime of
// the process shares it, hence globals. Read-only afterwards except the
// requests below (keys, the control socket), which are guarded by lock and
// picked up by each runtime on its own render thread (ip_effect_host_frame).
static struct session {
    bool ok;                     // config read
    const fxgl_config *config;   // the configuration files (process_config.c), lives to the exit
    fxgl_preset *preset;         // the startup preset, NULL: none configured
    fxgl_compiler_desc effects_desc; // what each runtime's compile object is made from
    fxgl_diskcache *cache;       // the on-disk compile cache, NULL: off (lives to the exit)
    fxgl_program_cache programs; // its program binaries, for each runtime
    char **files;                // full paths of the .fx files found, first one per name wins
    size_t file_count;
    fxgl_search effect_dirs;     // EffectSearchPaths, `**` expanded (src/preset/search.c)
    fxgl_search texture_dirs;    // TextureSearchPaths, likewise

    pthread_mutex_t lock;        // guards the requests, never held during I/O or a compile
    char preset_path[PATH_MAX];  // the current preset ("" none); next/previous change it
    unsigned preset_gen;         // bumped by every preset switch
    // The presets beside preset_path, as a runtime's read-ahead found them on its worker
    // (take_requests publishes them): a switch picks its path here and reads no file.
    bool neighbours_known;       // next/previous are preset_path's
    char next[PATH_MAX], previous[PATH_MAX]; // "" when there is none
    int pending_step;            // a switch asked before they were known (the last wins)
    unsigned reload_gen;         // bumped by every reload request
    unsigned perf_gen;           // bumped by every performance-mode change
    bool performance_mode;       // the mode now asked for
    struct ip_shared *shared;    // first compiles, for the other contexts (IP_SHARED_MAX)
    size_t shared_count;
    unsigned shared_reuses;      // first compiles a context took from another
} session = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t session_once = PTHREAD_ONCE_INIT;

// One effect file a runtime uses; id (its index in session.files) names it
// to the reloader.
typedef struct ip_entry {
    int id;
    const char *path;            // session.files[id]
    fxgl_effect *effect;         // owned; the version the runtime runs (NULL: none yet)
    int member;                  // in the runtime's effect set, -1 until it has it
    bool pending;                // the first compile is not back yet
    fxgl_effect *reused;         // another context's first compile, to deliver (a reference)
    fxgl_effect *staged;         // a finished compile waiting for the rest of the set (owned)
    char failure[512];           // its first compile's first error ("" when none), for the dump
    char reload_failure[512];    // the last recompile's first error while the old version
                                 // runs ("" when none), for the overlay
} ip_entry;

struct ip_effect_host {
    fxgl_effect_set *set;        // what the runtime runs: members, preset, transitions, keys
    fxgl_compiler *compiler;      // this context's compile object (target, buffer size)
    fxgl_reloader *reloader;     // its worker: first compiles, live reload, recompiles
    fxgl_held_preset *preset;    // the compile object's preset, shared read-only: values,
                                 // techniques (read once a switch or an edit on disk)
    ip_entry *entries;           // one per wanted file, session.file_count at most
    size_t entry_count;
    fxgl_environment env;        // what compiler compiles for now
    fxgl_glsl_target target;     // and for which GLSL
    bool ready;                  // every first compile is back: frames run effects
    bool first_polled;           // results are taken from the second frame on
    bool apply_staged;           // preset holds a switch or an edit not applied yet
    double apply_duration;       // its blend in seconds (0: at once)
    unsigned preset_gen, reload_gen, perf_gen; // the session's, as last acted on
    unsigned ahead_gen;          // the reloader's read-ahead, as last published
    bool switch_read;            // a switch the read-ahead did not hold: read on the worker
    unsigned long reads_at_load; // presets this thread had read when its first frame ended
    ip_warm *warm;               // the worker's private context for prewarms (NULL: none)
    struct timespec created;     // for the "effects ready after" line
    unsigned reused;             // first compiles taken from another context
};

static void preset_diag(void *user, const fxgl_preset_diag *diag) {
    (void)user;
    char buf[1024];
    fxgl_preset_diag_format(diag, buf, sizeof(buf));
    fxgl_log(FXGL_LOG_WARN, "%s", buf);
}

// The effect set's failures are warnings, its notes (toggle keys) information.
static void set_report(void *user, fxgl_effect_set_level level, const char *message) {
    (void)user;
    fxgl_log(level == FXGL_EFFECT_SET_FAILURE ? FXGL_LOG_WARN : FXGL_LOG_INFO, "%s", message);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

// One line at the default level: which files configured this process and which preset
// it runs, so a player knows what fxgl did without raising the log level.
static void log_choice(const fxgl_config *c) {
    char files[2048] = "none";
    size_t used = 0;
    for (size_t i = 0; i < c->file_count && used < sizeof(files); i++) {
        int n = snprintf(files + used, sizeof(files) - used, "%s%s", i ? ", " : "", c->files[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (c->preset_path && c->preset_path[0]) {
        fxgl_log_notice("configuration %s; preset %s (%s)", files, c->preset_path,
                        c->preset_origin ? c->preset_origin : "configured");
    } else {
        fxgl_log_notice("configuration %s; no preset: frames pass through", files);
    }
}

static void session_setup(void) {
    fxgl_preset_sink sink = {preset_diag, NULL};
    session.config = ip_config_files();
    if (!session.config) {
        return;
    }
    session.ok = true;
    const fxgl_config *c = session.config;
    // [DEPTH] (depth.c): how the FBO depth provider chooses and when it copies.
    ip_depth_options depth = {
        .by_vertices = c->depth_by_vertices,
        .aspect = c->depth_aspect,
        .copy_before_clear = c->depth_copy_before_clears,
        .clear_index = c->depth_clear_index,
    };
    snprintf(depth.selected, sizeof(depth.selected), "%s", c->depth_selected);
    ip_depth_set_options(&depth);
    // [LOG] of ReShade.ini / fxgl.ini (FXGL_LOG and FXGL_LOG_FILE are already over it).
    ip_log_configure((fxgl_log_level)c->log_level, c->log_file);
    if (!fxgl_search_expand(&session.effect_dirs, c->effect_paths, c->effect_path_count) ||
        !fxgl_search_expand(&session.texture_dirs, c->texture_paths, c->texture_path_count)) {
        fxgl_log(FXGL_LOG_ERROR, "out of memory reading the search paths");
        session.ok = false;
        return;
    }
    session.file_count = fxgl_search_effects(&session.effect_dirs, &session.files);
    if (c->preset_path && c->preset_path[0]) {
        fxgl_preset_desc desc = {.path = c->preset_path, .sink = sink};
        session.preset = fxgl_preset_create(&desc);
    }
    // Definitions layered effect > preset > fxgl.ini, performance mode, all as src/effects
    // does it for every consumer; the search paths are the session's ("dir/**"). Each
    // runtime makes its own compile object from this (its target and buffer size).
    // Compiles run on the reload worker, so the cache's reads and writes never happen on
    // a presenting thread.
    session.cache = fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = c->cache_path,
                                                                 .sink = sink});
    session.programs = (fxgl_program_cache){fxgl_diskcache_load_binary,
                                            fxgl_diskcache_store_binary, session.cache};
    session.effects_desc = (fxgl_compiler_desc){
        .cache = session.cache,
        .include_paths = (const char *const *)session.effect_dirs.dirs,
        .include_path_count = session.effect_dirs.count,
        .defines = c->defines.items,
        .define_count = c->defines.count,
        .performance_mode = c->performance_mode,
        .skip_disabled = true, // see the top of this file: nothing enabled, nothing compiled
        .sink = {preset_diag, NULL}, // its preset is the one every runtime applies
    };
    snprintf(session.preset_path, sizeof(session.preset_path), "%s",
             c->preset_path ? c->preset_path : "");
    session.performance_mode = c->performance_mode;
    if (c->performance_mode) {
        if (session.preset) {
            fxgl_preset_lock(session.preset, FXGL_EFFECTS_PERFORMANCE_LOCK);
        }
        fxgl_log(FXGL_LOG_INFO, "performance mode: preset values are compiled in as "
                 "constants; variables are read-only and the preset is not saved");
    }
    log_choice(c);
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

// --- compiled effects shared by the runtimes of the process ---
//
// A second context of the process (two windows, or glmark2's context per scene) compiles
// nothing the first already compiled for the same file, target, size and API, preset,
// reload and performance-mode state: the module and its GLSL (read-only to every user) are
// shared and counted. The table keeps a reference of its own, so a later context finds
// them after the first one is gone; a reload or preset switch changes the generations,
// and entries no runtime uses are dropped when the table is full. An effect whose files
// changed since it was compiled is not reused.

typedef struct ip_shared {
    int id;                      // session.files index
    fxgl_environment env;        // application not compared (one process, one program)
    fxgl_glsl_target target;
    unsigned preset_gen, reload_gen, perf_gen;
    struct timespec compiled;    // when it was registered (after its files were read)
    fxgl_effect *effect;
    int refs;                    // users, the table's own reference included
} ip_shared;

static bool same_env(const fxgl_environment *a, const fxgl_environment *b) {
    return a->width == b->width && a->height == b->height && a->api == b->api &&
           a->api_major == b->api_major && a->api_minor == b->api_minor &&
           a->performance_mode == b->performance_mode;
}

static bool same_key(const ip_shared *s, const ip_effect_host *fx, int id) {
    return s->id == id && same_env(&s->env, &fx->env) && s->target == fx->target &&
           s->preset_gen == fx->preset_gen && s->reload_gen == fx->reload_gen &&
           s->perf_gen == fx->perf_gen;
}

// Drops one reference to an effect an entry held; the last one destroys it.
static void effect_release(fxgl_effect *effect) {
    if (!effect) {
        return;
    }
    bool listed = false, last = false;
    pthread_mutex_lock(&session.lock);
    for (size_t i = 0; i < session.shared_count; i++) {
        if (session.shared[i].effect == effect) {
            listed = true;
            last = --session.shared[i].refs == 0;
            if (last) {
                session.shared[i] = session.shared[--session.shared_count];
            }
            break;
        }
    }
    pthread_mutex_unlock(&session.lock);
    if (!listed || last) {
        fxgl_effect_destroy(effect);
    }
}

// Lists a first compile for the other contexts (the entry keeps its own reference).
static void share_first_compile(const ip_effect_host *fx, int id, fxgl_effect *effect) {
    fxgl_effect *dropped = NULL;
    pthread_mutex_lock(&session.lock);
    bool current = fx->preset_gen == session.preset_gen && fx->reload_gen == session.reload_gen &&
                   fx->perf_gen == session.perf_gen;
    if (!session.shared) {
        session.shared = calloc(IP_SHARED_MAX, sizeof(*session.shared));
    }
    for (size_t i = 0; current && session.shared && i < session.shared_count; i++) {
        current = !same_key(&session.shared[i], fx, id); // one of a key is enough
    }
    if (current && session.shared && session.shared_count == IP_SHARED_MAX) {
        // Full: drop one that only the table holds.
        for (size_t i = 0; i < session.shared_count; i++) {
            if (session.shared[i].refs == 1) {
                dropped = session.shared[i].effect;
                session.shared[i] = session.shared[--session.shared_count];
                break;
            }
        }
    }
    if (current && session.shared && session.shared_count < IP_SHARED_MAX) {
        ip_shared *sh = &session.shared[session.shared_count++];
        *sh = (ip_shared){.id = id, .env = fx->env, .target = fx->target,
                          .preset_gen = fx->preset_gen, .reload_gen = fx->reload_gen,
                          .perf_gen = fx->perf_gen, .effect = effect, .refs = 2};
        clock_gettime(CLOCK_REALTIME, &sh->compiled);
    }
    pthread_mutex_unlock(&session.lock);
    if (dropped) {
        fxgl_effect_destroy(dropped);
    }
}

static bool newer_than(const struct stat *st, const struct timespec *t) {
    return st->st_mtim.tv_sec > t->tv_sec ||
           (st->st_mtim.tv_sec == t->tv_sec && st->st_mtim.tv_nsec >= t->tv_nsec);
}

// Another context's first compile of file id for this context's key, with a reference
// taken; NULL when there is none or its files changed since.
static fxgl_effect *take_shared(const ip_effect_host *fx, int id) {
    fxgl_effect *effect = NULL;
    struct timespec compiled = {0};
    pthread_mutex_lock(&session.lock);
    for (size_t i = 0; i < session.shared_count && !effect; i++) {
        if (same_key(&session.shared[i], fx, id)) {
            effect = session.shared[i].effect;
            compiled = session.shared[i].compiled;
            session.shared[i].refs++;
        }
    }
    pthread_mutex_unlock(&session.lock);
    // Out of the lock: stat is I/O.
    for (size_t i = 0; effect && i < effect->included_count; i++) {
        struct stat st;
        if (stat(effect->included_files[i], &st) != 0 || newer_than(&st, &compiled)) {
            effect_release(effect);
            effect = NULL;
        }
    }
    if (effect) {
        pthread_mutex_lock(&session.lock);
        unsigned n = ++session.shared_reuses;
        pthread_mutex_unlock(&session.lock);
        fxgl_log(FXGL_LOG_INFO, "%s: reused the compile of another context (%u reuse%s in "
                 "this process)", base_name(effect->path), n, n == 1 ? "" : "s");
    }
    return effect;
}

// --- one runtime's effects ---

void ip_effect_host_destroy(ip_effect_host *fx) {
    if (!fx) {
        return;
    }
    // The worker first: it may be compiling with fx->compiler.
    fxgl_reloader_destroy(fx->reloader);
    ip_warm_destroy(fx->warm);
    for (size_t i = 0; i < fx->entry_count; i++) {
        effect_release(fx->entries[i].effect);
        effect_release(fx->entries[i].reused);
        effect_release(fx->entries[i].staged);
    }
    free(fx->entries);
    fxgl_effect_set_destroy(fx->set);
    fxgl_compiler_release_preset(fx->compiler, fx->preset);
    fxgl_compiler_destroy(fx->compiler);
    free(fx);
}

void ip_effect_host_preset_path(char *out, size_t size) {
    pthread_once(&session_once, session_setup);
    pthread_mutex_lock(&session.lock);
    snprintf(out, size, "%s", session.preset_path);
    pthread_mutex_unlock(&session.lock);
}

// Milliseconds since the process started: its start time in clock ticks after boot
// (/proc/self/stat, field 22) against CLOCK_BOOTTIME; -1 when unknown. Ticks are
// 10 ms on Linux, fine for startup times.
static double ms_since_start(void) {
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) {
        return -1;
    }
    char buf[1024];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); // the command name may hold spaces
    unsigned long long start = 0;
    for (int field = 2; p && field < 22; field++) {
        p = strchr(p + 1, ' ');
    }
    long hz = sysconf(_SC_CLK_TCK);
    struct timespec t;
    if (!p || sscanf(p + 1, "%llu", &start) != 1 || hz <= 0 ||
        clock_gettime(CLOCK_BOOTTIME, &t) != 0) {
        return -1;
    }
    return ((double)t.tv_sec + (double)t.tv_nsec * 1e-9 - (double)start / (double)hz) * 1e3;
}

void ip_effect_host_log_startup(fxgl_runtime *rt) {
    fxgl_program_counts pc = fxgl_runtime_program_counts(rt);
    fxgl_diskcache_stats cs = fxgl_diskcache_get_stats(session.cache);
    char compiles[96] = "effect compile cache off";
    if (session.cache) {
        snprintf(compiles, sizeof(compiles), "effect compiles: %u from the cache, %u run",
                 cs.module_hits, cs.module_misses);
    }
    fxgl_log(FXGL_LOG_INFO, "effects on screen %.0f ms after the process started; %s; "
             "programs: %u shader compile(s), %u from cached binaries (%u refused)",
             ms_since_start(), compiles, pc.shader_compiles, pc.binary_hits,
             pc.binary_rejected);
}

const struct fxgl_program_cache *ip_effect_host_program_cache(void) {
    pthread_once(&session_once, session_setup);
    return session.cache ? &session.programs : NULL;
}

const char *const *ip_effect_host_texture_paths(size_t *count) {
    pthread_once(&session_once, session_setup);
    *count = session.texture_dirs.count;
    return (const char *const *)session.texture_dirs.dirs;
}

bool ip_effect_host_save_depth(const ip_depth_options *opt) {
    pthread_once(&session_once, session_setup);
    if (!session.ok) {
        return false;
    }
    fxgl_config c = *session.config; // a shallow copy: only read by the save
    c.depth_by_vertices = opt->by_vertices;
    c.depth_aspect = opt->aspect;
    c.depth_copy_before_clears = opt->copy_before_clear;
    c.depth_clear_index = opt->clear_index;
    snprintf(c.depth_selected, sizeof(c.depth_selected), "%s", opt->selected);
    fxgl_preset_sink sink = {preset_diag, NULL};
    const char *name = program_invocation_short_name;
    return fxgl_config_save_depth(&c, name, &sink);
}

bool ip_effect_host_wanted(void) {
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

// --- requests from keys and the control socket (any thread) ---

void ip_effect_host_request_reload(void) {
    pthread_mutex_lock(&session.lock);
    session.reload_gen++;
    pthread_mutex_unlock(&session.lock);
    fxgl_log(FXGL_LOG_INFO, "reload requested: effects recompile in the background");
}

void ip_effect_host_set_performance_mode(bool on) {
    pthread_mutex_lock(&session.lock);
    bool changed = session.performance_mode != on;
    session.performance_mode = on;
    session.perf_gen += changed;
    pthread_mutex_unlock(&session.lock);
    if (changed) {
        fxgl_log(FXGL_LOG_INFO, "performance mode %s: effects recompile in the background",
                 on ? "on" : "off");
    }
}

bool ip_effect_host_performance_mode(void) {
    pthread_mutex_lock(&session.lock);
    bool on = session.performance_mode;
    pthread_mutex_unlock(&session.lock);
    return on;
}

// Under session.lock: preset_path becomes path, and every runtime switches at its next
// frame (take_requests).
static void switch_to_locked(const char *path) {
    snprintf(session.preset_path, sizeof(session.preset_path), "%s", path);
    session.preset_gen++;
    session.neighbours_known = false;
    session.pending_step = 0;
}

// Reads no file (a key and the control socket call it on the presenting thread): the path
// comes from the read-ahead's list (session.next/previous). Before a runtime's worker has
// read that list, the switch waits for it (pending_step, acted on in take_requests).
bool ip_effect_host_switch_preset(int step) {
    pthread_once(&session_once, session_setup);
    char current[PATH_MAX], next[PATH_MAX] = "";
    bool known = false;
    pthread_mutex_lock(&session.lock);
    snprintf(current, sizeof(current), "%s", session.preset_path);
    if (step != 0 && current[0] && session.neighbours_known) {
        known = true;
        snprintf(next, sizeof(next), "%s", step > 0 ? session.next : session.previous);
        if (next[0]) {
            switch_to_locked(next);
        }
    } else if (step != 0 && current[0]) {
        session.pending_step = step;
    }
    pthread_mutex_unlock(&session.lock);
    if (step == 0 || !current[0] || (known && !next[0])) {
        fxgl_log(FXGL_LOG_INFO, "no %s preset beside '%s'", step < 0 ? "previous" : "next",
                 current);
        return false;
    }
    if (known) {
        fxgl_log(FXGL_LOG_INFO, "preset %s", next);
    } else {
        fxgl_log(FXGL_LOG_INFO, "%s preset: switching once the presets beside '%s' are read",
                 step < 0 ? "previous" : "next", current);
    }
    return true;
}

bool ip_effect_host_select_preset(const char *path, char *reply, size_t size) {
    pthread_once(&session_once, session_setup);
    const char *dot = strrchr(path, '.');
    if (path[0] != '/' || strlen(path) >= PATH_MAX || !dot || strchr(dot, '/') ||
        (strcasecmp(dot, ".ini") != 0 && strcasecmp(dot, ".txt") != 0)) {
        snprintf(reply, size, "error: '%s' is not an absolute path to a .ini or .txt preset; "
                 "nothing changed", path);
        return false;
    }
    pthread_mutex_lock(&session.lock);
    bool running = session.preset_path[0] != '\0';
    if (running) {
        switch_to_locked(path);
    }
    pthread_mutex_unlock(&session.lock);
    if (!running) {
        snprintf(reply, size, "error: no preset runs in this program; nothing changed");
        return false;
    }
    snprintf(reply, size, "preset %s: read on the worker, shown a few frames from now", path);
    return true;
}

// --- the render thread's side ---

static fxgl_environment environment(const fxgl_gl_info *info, int width, int height) {
    return (fxgl_environment){
        .width = width,
        .height = height,
        .api = info->api == FXGL_API_GLES ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL,
        .api_major = info->major,
        .api_minor = info->minor,
        .application = ip_config_program_path(),
    };
}

// Adds the files the runtime's preset enables that it does not have yet,
// and asks the worker for their first compile.
static void add_wanted(ip_effect_host *fx) {
    for (size_t i = 0; i < session.file_count; i++) {
        const char *file = base_name(session.files[i]);
        bool have = false;
        for (size_t k = 0; k < fx->entry_count; k++) {
            have = have || fx->entries[k].id == (int)i;
        }
        if (have || !fxgl_preset_wants_effect(fxgl_held_preset_get(fx->preset), file)) {
            continue;
        }
        ip_entry *e = &fx->entries[fx->entry_count];
        *e = (ip_entry){.id = (int)i, .path = session.files[i], .member = -1};
        e->reused = take_shared(fx, e->id);
        fx->reused += e->reused != NULL;
        if (!fxgl_reloader_watch(fx->reloader, e->id, e->path, NULL) ||
            (!e->reused && !fxgl_reloader_request(fx->reloader, e->id))) {
            effect_release(e->reused);
            fxgl_log(FXGL_LOG_WARN, "effect %s skipped: out of memory", e->path);
            continue;
        }
        e->pending = true;
        fx->entry_count++;
    }
}

// The first error line of a worker's diagnostics ("file(line, col): error: ...").
static void first_error(const char *errors, char *out, size_t size) {
    const char *line = errors ? strstr(errors, ": error") : NULL;
    while (line && line > errors && line[-1] != '\n') {
        line--;
    }
    const char *from = line ? line : errors ? errors : "";
    size_t len = strcspn(from, "\n");
    snprintf(out, size, "%.*s", (int)len, from[0] ? from : "unknown error");
}

// One finished compile, held back (entry->staged) until the rest of the set is in:
// a player sees the previous set until every effect of the new one has compiled or
// failed, then the whole set in its final order in one frame (ip_effect_host_frame). A
// failure is logged and left out; it never holds the others back. shared: r->effect is
// another context's compile (a reference), not this worker's.
static void stage(ip_effect_host *fx, fxgl_reload_result *r, bool shared) {
    ip_entry *e = NULL;
    for (size_t i = 0; i < fx->entry_count; i++) {
        e = fx->entries[i].id == r->id ? &fx->entries[i] : e;
    }
    if (!e) {
        return;
    }
    bool first = e->pending;
    e->pending = false;
    if (!r->effect) {
        char msg[512];
        first_error(r->errors, msg, sizeof(msg));
        if (e->member < 0 && !e->staged) {
            fxgl_log(FXGL_LOG_WARN, "effect %s skipped: %s", e->path, msg);
            snprintf(e->failure, sizeof(e->failure), "%s", msg); // for the dump
        } else {
            fxgl_log(FXGL_LOG_WARN, "reload of %s failed, the running version stays: %s",
                     e->path, msg);
            snprintf(e->reload_failure, sizeof(e->reload_failure), "%s", msg);
        }
        return;
    }
    e->failure[0] = '\0';
    e->reload_failure[0] = '\0';
    effect_release(e->staged); // an older result nobody saw: the newest one counts
    e->staged = r->effect;
    r->effect = NULL; // ours now
    if (first && !shared) {
        share_first_compile(fx, e->id, e->staged);
    }
    if (e->member >= 0) {
        fxgl_log(FXGL_LOG_INFO, "recompiled %s (%.1f ms on the worker); swapped in with the "
                 "rest of the set", e->path, r->compile_ms);
    }
}

// Every staged version into the runtime, in one frame: the first version of a file
// joins it, a later one replaces the running version whole (a version that does not
// load keeps the running one).
static void install_staged(ip_effect_host *fx) {
    for (size_t i = 0; i < fx->entry_count; i++) {
        ip_entry *e = &fx->entries[i];
        fxgl_effect *effect = e->staged;
        if (e->pending) {
            // The reloader is idle and owes nothing, so this result was lost (out of
            // memory on the worker): reported, left out, never waited for again.
            e->pending = false;
            fxgl_log(FXGL_LOG_WARN, "effect %s skipped: its compile gave no result", e->path);
        }
        if (!effect) {
            continue;
        }
        e->staged = NULL;
        if (e->member < 0) {
            e->member = fxgl_effect_set_add(fx->set, effect, base_name(e->path));
            if (e->member < 0) {
                effect_release(effect);
                continue;
            }
            e->effect = effect;
        } else {
            if (!fxgl_effect_set_replace(fx->set, (size_t)e->member, effect)) {
                effect_release(effect);
                continue;
            }
            effect_release(e->effect);
            e->effect = effect;
            fxgl_log(FXGL_LOG_INFO, "reloaded %s", e->path);
        }
        // Includes and images may differ in the new version.
        fxgl_reloader_watch(fx->reloader, e->id, e->path, effect);
    }
}

ip_effect_host *ip_effect_host_load(fxgl_runtime *rt, const fxgl_gl_info *info, int width,
                                    int height) {
    if (!ip_effect_host_wanted()) {
        return NULL;
    }
    ip_effect_host *fx = calloc(1, sizeof(*fx));
    if (!fx) {
        return NULL;
    }
    const fxgl_config *c = session.config;
    fx->set = fxgl_effect_set_create(&(fxgl_effect_set_desc){
        .ops = fxgl_runtime_effect_ops(),
        .backend = rt,
        .sorting = (const char *const *)c->technique_sorting,
        .sorting_count = c->technique_sorting_count,
        .report = set_report,
    });
    char path[PATH_MAX];
    pthread_mutex_lock(&session.lock);
    snprintf(path, sizeof(path), "%s", session.preset_path);
    fx->preset_gen = session.preset_gen;
    fx->reload_gen = session.reload_gen;
    fx->perf_gen = session.perf_gen;
    bool performance_mode = session.performance_mode;
    pthread_mutex_unlock(&session.lock);

    fxgl_compiler_desc desc = session.effects_desc;
    fx->env = environment(info, width, height);
    desc.env = fx->env;
    desc.target = fxgl_gl_glsl_target(info);
    fx->target = desc.target;
    desc.performance_mode = performance_mode;
    fx->compiler = fxgl_compiler_create(&desc);
    clock_gettime(CLOCK_MONOTONIC, &fx->created);
    fx->entries = calloc(session.file_count + 1, sizeof(*fx->entries));
    bool live = ip_config_get()->live_reload;
    // The preset is read once for this runtime, into the compile object, and applied
    // from there (a hold on it).
    if (fx->compiler && fxgl_compiler_set_preset(fx->compiler, path[0] ? path : NULL)) {
        fx->preset = fxgl_compiler_hold_preset(fx->compiler);
    }
    if (fx->set && fx->preset && fx->entries) {
        fx->warm = ip_warm_create(info, width, height);
        fxgl_reloader_desc rd = {
            .effects = fx->compiler,
            .texture_paths = (const char *const *)session.texture_dirs.dirs,
            .texture_path_count = session.texture_dirs.count,
            .no_watch = !live,
            .prewarm = fx->warm ? ip_warm_effect : NULL,
            .prewarm_user = fx->warm,
        };
        fx->reloader = fxgl_reloader_create(&rd);
    }
    if (!fx->reloader) {
        fxgl_log(FXGL_LOG_WARN, "cannot start the effect compiler thread: frames pass through");
        ip_effect_host_destroy(fx);
        return NULL;
    }
    if (live && path[0]) {
        fxgl_reloader_watch_preset(fx->reloader, path);
    }
    if (path[0]) {
        fxgl_reloader_read_ahead(fx->reloader, path); // before add_wanted: read first
    }
    add_wanted(fx);
    // The preset's Techniques naming files that were not found.
    size_t technique_count = 0;
    const char *const *names =
        fxgl_preset_techniques(fxgl_held_preset_get(fx->preset), &technique_count);
    for (size_t i = 0; i < technique_count; i++) {
        const char *at = strchr(names[i], '@');
        if (at && !find_file(at + 1)) {
            fxgl_log(FXGL_LOG_WARN, "technique %s skipped: %s is not in the effect search "
                     "paths", names[i], at + 1);
        }
    }
    size_t reused = 0;
    for (size_t i = 0; i < fx->entry_count; i++) {
        reused += fx->entries[i].reused != NULL;
    }
    fxgl_log(FXGL_LOG_INFO, "compiling %zu effect file(s) on a worker thread (%zu more "
             "compiled by another context)%s; frames pass through until they are ready",
             fx->entry_count - reused, reused,
             live ? ", live reload on (FXGL_RELOAD=0 turns it off)" : "");
    fx->reads_at_load = fxgl_preset_reads_on_thread();
    return fx;
}

bool ip_effect_host_failure(const ip_effect_host *fx, size_t k, const char **file,
                            const char **diagnostic) {
    for (size_t i = 0; fx && i < fx->entry_count; i++) {
        const ip_entry *e = &fx->entries[i];
        if (e->failure[0] && k-- == 0) {
            *file = base_name(e->path);
            *diagnostic = e->failure;
            return true;
        }
    }
    return false;
}

void ip_effect_host_compile_counts(const ip_effect_host *fx, unsigned *compiled, unsigned *reused) {
    *compiled = fx ? (unsigned)fxgl_reloader_compiles(fx->reloader) : 0;
    *reused = fx ? fx->reused : 0;
}

// The read-ahead's list of the presets beside the current one, for the session (any
// runtime's will do: they read the same folder); a switch asked before it was known
// happens now.
static void publish_neighbours(ip_effect_host *fx, const char *current) {
    unsigned gen = fxgl_reloader_ahead_generation(fx->reloader);
    char next[PATH_MAX], previous[PATH_MAX];
    if (gen == fx->ahead_gen ||
        !fxgl_reloader_neighbours(fx->reloader, current, next, previous, sizeof(next))) {
        return;
    }
    fx->ahead_gen = gen;
    char to[PATH_MAX] = "";
    pthread_mutex_lock(&session.lock);
    if (strcmp(session.preset_path, current) == 0) {
        snprintf(session.next, sizeof(session.next), "%s", next);
        snprintf(session.previous, sizeof(session.previous), "%s", previous);
        session.neighbours_known = true;
        if (session.pending_step != 0) {
            snprintf(to, sizeof(to), "%s", session.pending_step > 0 ? next : previous);
            session.pending_step = 0;
            if (to[0]) {
                switch_to_locked(to);
            }
        }
    }
    pthread_mutex_unlock(&session.lock);
    if (to[0]) {
        fxgl_log(FXGL_LOG_INFO, "preset %s", to);
    }
}

// A switch to path: the read-ahead's copy when it holds it (read on the worker already:
// the switch shows in this frame when it needs no compile), or else read on the worker
// and applied when it is back (ip_effect_host_frame). Definitions may differ between
// presets, and in performance mode the values are the code: what they change recompiles
// in the background.
static void switch_preset(ip_effect_host *fx, const char *path, bool recompile) {
    bool live = ip_config_get()->live_reload;
    fxgl_held_preset *next = fx->switch_read ? NULL : fxgl_reloader_take_ahead(fx->reloader,
                                                                                path);
    fxgl_reloader_read_ahead(fx->reloader, path); // the new neighbours, on the worker
    if (!next) {
        // An older read on the worker may still be owed: this one comes after it, and
        // only the result for the current path is applied.
        fx->switch_read = fxgl_reloader_read_preset(fx->reloader, path);
        fxgl_log(FXGL_LOG_INFO, "preset %s: read on the worker, applied when it is in", path);
        return;
    }
    fxgl_preset_define_list *before = calloc(fx->entry_count + 1, sizeof(*before));
    for (size_t i = 0; before && i < fx->entry_count; i++) {
        fxgl_compiler_defines(fx->compiler, base_name(fx->entries[i].path), &before[i]);
    }
    fxgl_compiler_use_preset(fx->compiler, next); // reads no file
    bool all = fxgl_compiler_performance_mode(fx->compiler);
    for (size_t i = 0; i < fx->entry_count; i++) {
        fxgl_preset_define_list after = {0};
        bool same = before && !all &&
                    fxgl_compiler_defines(fx->compiler, base_name(fx->entries[i].path),
                                          &after) &&
                    after.count == before[i].count;
        for (size_t k = 0; same && k < after.count; k++) {
            same = strcmp(after.items[k].name, before[i].items[k].name) == 0 &&
                   strcmp(after.items[k].value, before[i].items[k].value) == 0;
        }
        fxgl_preset_define_list_finish(&after);
        if (!same && !recompile) {
            fxgl_reloader_request(fx->reloader, fx->entries[i].id);
        }
    }
    for (size_t i = 0; before && i < fx->entry_count; i++) {
        fxgl_preset_define_list_finish(&before[i]);
    }
    free(before);
    fxgl_compiler_release_preset(fx->compiler, fx->preset);
    fx->preset = next;
    if (live) {
        fxgl_reloader_watch_preset(fx->reloader, path);
    }
    add_wanted(fx); // effects only the new preset enables
    // Applied with the recompiles and the new effects, as one set (ip_effect_host_frame).
    fx->apply_staged = true;
    fx->apply_duration = session.config->transition_ms / 1000.0;
    fxgl_log(FXGL_LOG_INFO, "preset %s: read ahead on the worker; %lu preset file(s) read "
             "on this thread since its first frame", path,
             fxgl_preset_reads_on_thread() - fx->reads_at_load);
}

// Every request from the session since the last frame, acted on without waiting.
static void take_requests(ip_effect_host *fx) {
    char path[PATH_MAX];
    pthread_mutex_lock(&session.lock);
    bool switched = fx->preset_gen != session.preset_gen;
    bool reload = fx->reload_gen != session.reload_gen;
    bool perf = fx->perf_gen != session.perf_gen;
    bool performance_mode = session.performance_mode;
    snprintf(path, sizeof(path), "%s", session.preset_path);
    fx->preset_gen = session.preset_gen;
    fx->reload_gen = session.reload_gen;
    fx->perf_gen = session.perf_gen;
    pthread_mutex_unlock(&session.lock);
    bool recompile = reload;
    if (perf && performance_mode != fxgl_compiler_performance_mode(fx->compiler)) {
        fxgl_compiler_set_performance_mode(fx->compiler, performance_mode); // locks its preset
        recompile = true;
    }
    if (switched && path[0]) {
        switch_preset(fx, path, recompile);
    } else if (!switched) {
        publish_neighbours(fx, path);
    }
    for (size_t i = 0; recompile && i < fx->entry_count; i++) {
        fxgl_reloader_request(fx->reloader, fx->entries[i].id);
    }
}

bool ip_effect_host_frame(ip_effect_host *fx, int width, int height, double now) {
    take_requests(fx);
    if (width != fx->env.width || height != fx->env.height) {
        // BUFFER_WIDTH/HEIGHT are compiled in: recompile for the new size in the
        // background; the running versions go on until the new ones are in.
        fx->env.width = width;
        fx->env.height = height;
        ip_warm_resize(fx->warm, width, height);
        fxgl_compiler_set_environment(fx->compiler, &fx->env);
        for (size_t i = 0; i < fx->entry_count; i++) {
            fxgl_reloader_request(fx->reloader, fx->entries[i].id);
        }
    }
    // The frame that asked for the first compiles never waits for them: results
    // are taken from the next frame on, a bounded number per frame (each swap
    // builds GL objects).
    fxgl_held_preset *next_preset = NULL; // the preset edited on disk, read on the worker
    bool polled = fx->first_polled;
    if (polled) {
        for (size_t i = 0; i < fx->entry_count; i++) {
            if (fx->entries[i].reused) {
                fxgl_reload_result r = {.id = fx->entries[i].id, .effect = fx->entries[i].reused};
                fx->entries[i].reused = NULL; // stage takes the reference
                stage(fx, &r, true);
            }
        }
        char current[PATH_MAX];
        pthread_mutex_lock(&session.lock);
        snprintf(current, sizeof(current), "%s", session.preset_path);
        pthread_mutex_unlock(&session.lock);
        fxgl_reload_result r;
        for (int n = 0; n < 4 && fxgl_reloader_poll(fx->reloader, &r); n++) {
            const char *read = r.preset ? fxgl_preset_path(fxgl_held_preset_get(r.preset)) : "";
            if (r.preset_changed && strcmp(read, current) != 0) {
                // A preset switched away from since: an older read on the worker, or an
                // edit of the old file, which set the worker's definitions back to it;
                // they are the current preset's again once it is read there.
                if (!fx->switch_read && r.preset) {
                    fx->switch_read = fxgl_reloader_read_preset(fx->reloader, current);
                } else if (!r.preset) {
                    fx->switch_read = false; // unreadable: the previous preset stays
                }
            } else if (r.preset_changed) {
                if (r.preset) {
                    fxgl_compiler_release_preset(fx->compiler, next_preset); // the newest wins
                    next_preset = r.preset;
                    r.preset = NULL; // ours now
                }
            } else {
                stage(fx, &r, false);
            }
            fxgl_reload_result_finish(&r);
        }
    }
    fx->first_polled = true;
    if (next_preset) {
        // The worker has its new definitions (and recompiles what they change); the
        // values and techniques are applied from the same copy, with the new effects.
        fxgl_compiler_release_preset(fx->compiler, fx->preset);
        fx->preset = next_preset;
        add_wanted(fx); // effects only the new preset enables
        fx->apply_staged = true;
        if (fx->switch_read) {
            fx->switch_read = false;
            fx->apply_duration = session.config->transition_ms / 1000.0;
            fxgl_log(FXGL_LOG_INFO, "preset %s: read on the worker, applied with its effects",
                     fxgl_preset_path(fxgl_held_preset_get(next_preset)));
        } else {
            fxgl_log(FXGL_LOG_INFO, "preset %s changed on disk: applied with its effects",
                     fxgl_preset_path(fxgl_held_preset_get(next_preset)));
        }
    }
    // The set changes as a whole: only once the worker owes nothing (every compile asked
    // for, by this frame's requests or a file's change, is back and taken; each failure
    // logged and left out) does what waits go in, all in this frame, before it runs.
    bool staged = fx->apply_staged || !fx->ready, waiting = !polled;
    for (size_t i = 0; i < fx->entry_count; i++) {
        staged |= fx->entries[i].staged != NULL || fx->entries[i].pending;
        waiting |= fx->entries[i].reused != NULL; // another context's, taken next frame
    }
    if (staged && !waiting && fxgl_reloader_idle(fx->reloader)) {
        double duration = fx->apply_staged ? fx->apply_duration : 0.0;
        install_staged(fx);
        if (!fx->ready) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            double ms = (double)(t.tv_sec - fx->created.tv_sec) * 1e3 +
                        (double)(t.tv_nsec - fx->created.tv_nsec) * 1e-6;
            fxgl_diskcache_stats cs = fxgl_diskcache_get_stats(session.cache);
            fxgl_log(FXGL_LOG_INFO, "effects ready %.1f ms after the context's first frame; "
                     "compile cache %s: %u hit(s), %u miss(es) in this process", ms,
                     session.cache ? session.config->cache_path : "off", cs.module_hits,
                     cs.module_misses);
        }
        fx->ready = true;
        fx->apply_staged = false;
        fx->apply_duration = 0.0;
        if (!fxgl_effect_set_apply(fx->set, fxgl_held_preset_get(fx->preset), now, duration) &&
            fxgl_effect_set_count(fx->set) > 0) {
            FXGL_LOG_ONCE(FXGL_LOG_INFO, "the preset names techniques no loaded effect has");
        }
    } else {
        fxgl_effect_set_step(fx->set, now);
    }
    return fx->ready;
}

// Does the binding fire this frame: its key went down now, modifiers held as written.
static bool key_fired(const fxgl_preset_key *k, const fxgl_input *in) {
    if (k->vk == 0 || k->vk >= FXGL_INPUT_KEYS || !in->key_pressed[k->vk]) {
        return false;
    }
    return (bool)in->key_down[0x11] == k->ctrl && (bool)in->key_down[0x10] == k->shift &&
           (bool)in->key_down[0x12] == k->alt;
}

static bool toggle_fired(void *user, const fxgl_preset_key *key) {
    return key_fired(key, user);
}

bool ip_effect_host_wants_input(const ip_effect_host *fx) {
    if (!fx) {
        return false;
    }
    const fxgl_config *c = session.config;
    if (session.ok && (c->key_effects.vk || c->key_reload.vk || c->key_next_preset.vk ||
                       c->key_previous_preset.vk || c->key_performance_mode.vk)) {
        return true;
    }
    return fxgl_effect_set_has_toggle_keys(fx->set);
}

bool ip_effect_host_input(ip_effect_host *fx, const fxgl_input *in) {
    if (!in->has_focus) {
        return true;
    }
    const fxgl_config *c = session.config;
    // KeyEffects on KeyOverlay's key (both Home by default): the overlay takes it.
    bool shared = c->key_effects.vk == c->key_overlay.vk &&
                  c->key_effects.ctrl == c->key_overlay.ctrl &&
                  c->key_effects.shift == c->key_overlay.shift &&
                  c->key_effects.alt == c->key_overlay.alt;
    if (session.ok && !shared && key_fired(&c->key_effects, in)) {
        ip_control_toggle_effects();
    }
    if (session.ok && key_fired(&c->key_reload, in)) {
        ip_effect_host_request_reload();
    }
    if (session.ok && key_fired(&c->key_next_preset, in)) {
        ip_effect_host_switch_preset(1);
    }
    if (session.ok && key_fired(&c->key_previous_preset, in)) {
        ip_effect_host_switch_preset(-1);
    }
    if (session.ok && key_fired(&c->key_performance_mode, in)) {
        ip_effect_host_set_performance_mode(!ip_effect_host_performance_mode());
    }
    fxgl_effect_set_toggle(fx->set, toggle_fired, (void *)in);
    return true;
}

// --- what the editing overlay reads and changes (src/interpose/overlay.c) ---

const fxgl_config *ip_effect_host_config(void) {
    return session.ok ? session.config : NULL;
}

size_t ip_effect_host_items(ip_effect_host *fx, ip_effect_host_item *out, size_t max) {
    size_t n = 0;
    size_t count = fx ? fxgl_effect_set_count(fx->set) : 0;
    for (size_t i = 0; fx && i < fx->entry_count && n < max; i++) {
        ip_entry *e = &fx->entries[i];
        const fxgl_preset_effect *view =
            e->member >= 0 && (size_t)e->member < count ? fxgl_effect_set_view(fx->set,
                                                                              (size_t)e->member)
                                                        : NULL;
        if (!view || !e->effect) {
            continue;
        }
        out[n++] = (ip_effect_host_item){
            .path = e->path, .file = base_name(e->path), .effect = e->effect, .view = view,
            .member = (size_t)e->member,
            .runtime_index = fxgl_effect_set_backend_index(fx->set, (size_t)e->member),
            .reload_failure = e->reload_failure};
    }
    return n;
}

bool ip_effect_host_value(ip_effect_host *fx, size_t member, size_t uniform,
                          const fxgl_preset_value *components) {
    return fx && fxgl_effect_set_value(fx->set, member, uniform, components);
}

bool ip_effect_host_enable(ip_effect_host *fx, size_t runtime_index, size_t technique, bool on) {
    size_t member = fx ? fxgl_effect_set_member_of(fx->set, runtime_index) : (size_t)-1;
    return member != (size_t)-1 && fxgl_effect_set_enable(fx->set, member, technique, on);
}

bool ip_effect_host_order(ip_effect_host *fx, const fxgl_technique_ref *order, size_t count) {
    fxgl_technique_ref *members = fx ? calloc(count + 1, sizeof(*members)) : NULL;
    if (!members) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        size_t m = fxgl_effect_set_member_of(fx->set, order[i].effect);
        if (m != (size_t)-1) {
            members[n++] = (fxgl_technique_ref){(uint32_t)m, order[i].technique};
        }
    }
    bool ok = fxgl_effect_set_order(fx->set, members, n);
    free(members);
    return ok;
}

// The entry of a member (NULL: none).
static ip_entry *entry_of(ip_effect_host *fx, size_t member) {
    for (size_t i = 0; fx && i < fx->entry_count; i++) {
        if (fx->entries[i].member >= 0 && (size_t)fx->entries[i].member == member) {
            return &fx->entries[i];
        }
    }
    return NULL;
}

bool ip_effect_host_defines(ip_effect_host *fx, size_t member, fxgl_preset_define_list *out) {
    *out = (fxgl_preset_define_list){0};
    ip_entry *e = entry_of(fx, member);
    if (!e || !e->effect) {
        return false;
    }
    const char *file = base_name(e->path);
    fxgl_preset_define_list now = {0};
    if (!fxgl_compiler_defines(fx->compiler, file, &now)) {
        return false;
    }
    // What the effect tests, by the reference's rule, and what is defined for it already:
    // each with the value in force ("" where the effect's own default applies).
    size_t n = e->effect->ifdef_count + now.count;
    fxgl_preset_macro_test *tests = calloc(n + 1, sizeof(*tests));
    for (size_t i = 0; tests && i < e->effect->ifdef_count; i++) {
        const char *v = "";
        for (size_t k = 0; k < now.count; k++) {
            v = strcmp(now.items[k].name, e->effect->ifdef_names[i]) == 0 ? now.items[k].value
                                                                           : v;
        }
        tests[i] = (fxgl_preset_macro_test){.name = e->effect->ifdef_names[i], .final_value = v};
    }
    for (size_t k = 0; tests && k < now.count; k++) {
        tests[e->effect->ifdef_count + k] =
            (fxgl_preset_macro_test){.name = now.items[k].name, .final_value = now.items[k].value};
    }
    bool ok = tests && fxgl_preset_editable_defines(tests, n, out);
    free(tests);
    fxgl_preset_define_list_finish(&now);
    return ok;
}

bool ip_effect_host_set_define(ip_effect_host *fx, size_t member, const char *name,
                               const char *value) {
    ip_entry *e = entry_of(fx, member);
    fxgl_preset_define_list edits;
    if (!e || !name[0] || !fxgl_compiler_edited_defines(fx->compiler, base_name(e->path), &edits)) {
        return false;
    }
    fxgl_preset_define *items = calloc(edits.count + 1, sizeof(*items));
    size_t n = 0;
    for (size_t i = 0; items && i < edits.count; i++) {
        if (strcmp(edits.items[i].name, name) != 0) {
            items[n++] = edits.items[i];
        }
    }
    bool ok = false;
    if (items) {
        items[n++] = (fxgl_preset_define){name, value};
        // The running version stays until the worker's compile is in (ip_effect_host_frame).
        ok = fxgl_compiler_edit_defines(fx->compiler, base_name(e->path), items, n) &&
             fxgl_reloader_request(fx->reloader, e->id);
    }
    free(items);
    fxgl_preset_define_list_finish(&edits);
    if (ok) {
        fxgl_log(FXGL_LOG_INFO, "%s: %s=%s, recompiling in the background", e->path, name,
                 value[0] ? value : "(undefined)");
    }
    return ok;
}

// The overlay's edited definitions of every effect into the file's effect sections: an
// edit with a value replaces or adds the name, one without removes it.
static bool capture_defines(ip_effect_host *fx, fxgl_preset *preset) {
    bool ok = true;
    for (size_t i = 0; ok && i < fx->entry_count; i++) {
        const char *file = base_name(fx->entries[i].path);
        fxgl_preset_define_list edits, had;
        if (!fxgl_compiler_edited_defines(fx->compiler, file, &edits)) {
            return false;
        }
        if (edits.count == 0 || !fxgl_preset_defines(preset, file, &had)) {
            fxgl_preset_define_list_finish(&edits);
            continue;
        }
        fxgl_preset_define *items = calloc(edits.count + had.count + 1, sizeof(*items));
        size_t n = 0;
        for (size_t k = 0; items && k < had.count; k++) {
            bool edited = false;
            for (size_t j = 0; j < edits.count; j++) {
                edited = edited || strcmp(edits.items[j].name, had.items[k].name) == 0;
            }
            if (!edited) {
                items[n++] = had.items[k];
            }
        }
        for (size_t j = 0; items && j < edits.count; j++) {
            if (edits.items[j].value[0]) {
                items[n++] = edits.items[j];
            }
        }
        ok = items && fxgl_preset_set_defines(preset, file, items, n);
        free(items);
        fxgl_preset_define_list_finish(&had);
        fxgl_preset_define_list_finish(&edits);
    }
    return ok;
}

// The running state into the preset file from (read now, so what fxgl does not understand
// is kept as written), written atomically to to (NULL: from itself).
static bool save_state(ip_effect_host *fx, fxgl_runtime *rt, const char *from, const char *to) {
    // The runtime's order and on/off state are what the player sees: `fxgl ctl disable`
    // changes the runtime alone, so the set takes them over before it records itself.
    size_t count = fxgl_runtime_technique_count(rt), m = 0;
    fxgl_technique_ref *order = calloc(count + 1, sizeof(*order));
    for (size_t i = 0; order && i < count; i++) {
        fxgl_technique_info t;
        size_t member;
        if (fxgl_runtime_technique(rt, i, &t) &&
            (member = fxgl_effect_set_member_of(fx->set, t.effect)) != (size_t)-1) {
            const fxgl_preset_effect *view = fxgl_effect_set_view(fx->set, member);
            if (view && t.technique < view->technique_count &&
                view->techniques[t.technique].enabled != t.enabled) {
                fxgl_effect_set_enable(fx->set, member, t.technique, t.enabled);
            }
            order[m++] = (fxgl_technique_ref){(uint32_t)member, (uint32_t)t.technique};
        }
    }
    if (order) {
        fxgl_effect_set_order(fx->set, order, m);
    }
    free(order);
    fxgl_preset *preset = fxgl_preset_create(&(fxgl_preset_desc){.path = from,
                                                                  .sink = {preset_diag, NULL}});
    bool ok = preset && fxgl_preset_status(preset) != FXGL_INI_FAILED &&
              fxgl_effect_set_capture(fx->set, preset) && capture_defines(fx, preset) &&
              fxgl_preset_save(preset, to);
    fxgl_preset_destroy(preset);
    return ok;
}

bool ip_effect_host_save(ip_effect_host *fx, fxgl_runtime *rt, char *reply, size_t size) {
    char path[PATH_MAX];
    ip_effect_host_preset_path(path, sizeof(path));
    if (!fx || !path[0]) {
        snprintf(reply, size, "error: no preset file to save to");
        return false;
    }
    if (ip_effect_host_performance_mode()) {
        snprintf(reply, size, "error: performance mode: the preset is not saved");
        return false;
    }
    if (save_state(fx, rt, path, NULL)) {
        snprintf(reply, size, "saved %s", path);
        return true;
    }
    snprintf(reply, size, "error: %s was not saved (see the log)", path);
    return false;
}

// The current preset's directory into dir ("." when it has none); its file name returned.
static const char *preset_dir(const char *current, char *dir, size_t size) {
    snprintf(dir, size, "%s", current);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        snprintf(dir, size, ".");
        return current;
    }
    *slash = '\0';
    return strrchr(current, '/') + 1;
}

static int compare_preset_names(const void *a, const void *b) {
    return strcmp(a, b); // rows of char[IP_PRESET_NAME]
}

size_t ip_effect_host_presets(char (*names)[IP_PRESET_NAME], size_t max, size_t *current) {
    pthread_once(&session_once, session_setup);
    char path[PATH_MAX], dir[PATH_MAX];
    ip_effect_host_preset_path(path, sizeof(path));
    *current = (size_t)-1;
    if (!path[0]) {
        return 0;
    }
    const char *name = preset_dir(path, dir, sizeof(dir));
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *ent;
    // The same files neighbour_preset steps through (the current one even when new).
    while (d && (ent = readdir(d)) && n < max) {
        char file[PATH_MAX];
        struct stat st;
        if (ent->d_name[0] == '.' || strlen(ent->d_name) >= IP_PRESET_NAME ||
            snprintf(file, sizeof(file), "%s/%s", dir, ent->d_name) >= (int)sizeof(file) ||
            (strcmp(ent->d_name, name) != 0 &&
             (stat(file, &st) != 0 || !S_ISREG(st.st_mode) || !fxgl_preset_is_preset_path(file)))) {
            continue;
        }
        snprintf(names[n++], IP_PRESET_NAME, "%s", ent->d_name);
    }
    if (d) {
        closedir(d);
    }
    qsort(names, n, sizeof(*names), compare_preset_names);
    for (size_t i = 0; i < n; i++) {
        *current = strcmp(names[i], name) == 0 ? i : *current;
    }
    return n;
}

bool ip_effect_host_open_preset(const char *name) {
    char path[PATH_MAX], dir[PATH_MAX], next[PATH_MAX];
    ip_effect_host_preset_path(path, sizeof(path));
    if (!path[0] || strchr(name, '/') || name[0] == '.') {
        return false;
    }
    preset_dir(path, dir, sizeof(dir));
    if (snprintf(next, sizeof(next), "%s/%s", dir, name) >= (int)sizeof(next) ||
        !fxgl_preset_is_preset_path(next)) {
        return false;
    }
    pthread_mutex_lock(&session.lock);
    switch_to_locked(next); // each runtime's worker reads it; shown a few frames later
    pthread_mutex_unlock(&session.lock);
    fxgl_log(FXGL_LOG_INFO, "preset %s", next);
    return true;
}

bool ip_effect_host_save_as(ip_effect_host *fx, fxgl_runtime *rt, const char *name, char *reply,
                            size_t size) {
    char path[PATH_MAX], dir[PATH_MAX], file[IP_PRESET_NAME], target[PATH_MAX],
        temp[PATH_MAX];
    ip_effect_host_preset_path(path, sizeof(path));
    size_t len = strlen(name);
    bool plain = len > 0 && name[0] != '.';
    for (size_t i = 0; i < len; i++) {
        plain = plain && (isalnum((unsigned char)name[i]) || strchr(" ._-", name[i]));
    }
    if (!fx || !path[0] || !plain || len + 5 > sizeof(file)) {
        snprintf(reply, size, "error: '%.100s' is not a preset name (letters, digits, "
                 "space . _ -)", name);
        return false;
    }
    if (ip_effect_host_performance_mode()) {
        snprintf(reply, size, "error: performance mode: the preset is not saved");
        return false;
    }
    bool has_ext = len > 4 && (strcasecmp(name + len - 4, ".ini") == 0 ||
                               strcasecmp(name + len - 4, ".txt") == 0);
    snprintf(file, sizeof(file), "%s%s", name, has_ext ? "" : ".ini");
    preset_dir(path, dir, sizeof(dir));
    if (snprintf(target, sizeof(target), "%s/%s", dir, file) >= (int)sizeof(target) ||
        snprintf(temp, sizeof(temp), "%s/.%s.new-%d", dir, file, (int)getpid()) >=
            (int)sizeof(temp)) {
        snprintf(reply, size, "error: the path is too long");
        return false;
    }
    if (access(target, F_OK) == 0) {
        snprintf(reply, size, "error: %s exists: not overwritten", file);
        return false;
    }
    // Written whole under a temporary name, then linked to the new name, which fails
    // rather than replace a file made meanwhile.
    unlink(temp);
    bool ok = save_state(fx, rt, path, temp);
    bool linked = ok && link(temp, target) == 0;
    int err = errno;
    unlink(temp);
    if (!linked) {
        snprintf(reply, size, ok && err == EEXIST ? "error: %s exists: not overwritten"
                                                  : "error: %s was not saved (see the log)",
                 file);
        return false;
    }
    ip_effect_host_open_preset(file);
    snprintf(reply, size, "saved as %s", target);
    return true;
}
