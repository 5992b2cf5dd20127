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
#include <time.h>
#include <unistd.h>

#include "fxgl_diskcache.h"
#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

#define IP_MAX_PRESET_FILES 512      // presets considered beside the current one
#define IP_SHARED_MAX 64             // compiled effects kept for other contexts

extern char **environ;

// The process's configuration, read once (session_once): every runtime of
// the process shares it, hence globals. Read-only afterwards except the
// requests below (keys, the control socket), which are guarded by lock and
// picked up by each runtime on its own render thread (ip_effects_frame).
static struct session {
    bool ok;                     // config read
    fxgl_config config;
    fxgl_preset *preset;         // the startup preset, NULL: none configured
    fxgl_effects_desc effects_desc; // what each runtime's compile object is made from
    fxgl_diskcache *cache;       // the on-disk compile cache, NULL: off (lives to the exit)
    fxgl_program_cache programs; // its program binaries, for each runtime
    char **files;                // full paths of the .fx files found, first one per name wins
    size_t file_count;
    fxgl_search effect_dirs;     // EffectSearchPaths, `**` expanded (src/preset/search.c)
    fxgl_search texture_dirs;    // TextureSearchPaths, likewise
    char program[PATH_MAX];      // the executable, for __APPLICATION__

    pthread_mutex_t lock;        // guards the requests, never held during I/O or a compile
    char preset_path[PATH_MAX];  // the current preset ("" none); next/previous change it
    unsigned preset_gen;         // bumped by every preset switch
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
    int runtime_index;           // -1 until the runtime has it
    bool pending;                // the first compile is not back yet
    fxgl_effect *reused;         // another context's first compile, to deliver (a reference)
    fxgl_effect *staged;         // a finished compile waiting for the rest of the set (owned)
    bool described;              // preset view below is valid
    fxgl_preset_effect view;     // the preset's view of effect (arrays owned)
    fxgl_preset_transition *transitions; // per view uniform, while a preset switch blends
} ip_entry;

struct ip_effects {
    fxgl_effects *compiler;      // this context's compile object (target, buffer size)
    fxgl_reloader *reloader;     // its worker: first compiles, live reload, recompiles
    fxgl_preset *preset;         // the render thread's copy, for values and techniques
    ip_entry *entries;           // one per wanted file, session.file_count at most
    size_t entry_count;
    fxgl_environment env;        // what compiler compiles for now
    fxgl_glsl_target target;     // and for which GLSL
    bool ready;                  // every first compile is back: frames run effects
    bool first_polled;           // results are taken from the second frame on
    bool transitioning;          // some entry's transitions are running
    bool apply_staged;           // preset holds a switch or an edit not applied yet
    double apply_duration;       // its blend in seconds (0: at once)
    unsigned preset_gen, reload_gen, perf_gen; // the session's, as last acted on
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
    ssize_t n = readlink("/proc/self/exe", session.program, sizeof(session.program) - 1);
    session.program[n > 0 ? n : 0] = '\0';
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", session.program);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
    }
    fxgl_preset_sink sink = {preset_diag, NULL};
    // The name the program was started by (glxgears, not the glxgears.x86_64-linux-gnu
    // that /proc/self/exe resolves to): the one a player writes <name>.conf for.
    const char *name = program_invocation_short_name;
    fxgl_config_env env = {(const char *const *)environ, slash ? dir : NULL,
                           name && name[0] ? name : NULL};
    if (!fxgl_config_load(&session.config, &env, &sink)) {
        fxgl_log(FXGL_LOG_ERROR, "out of memory reading the configuration");
        return;
    }
    session.ok = true;
    const fxgl_config *c = &session.config;
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
    session.effects_desc = (fxgl_effects_desc){
        .cache = session.cache,
        .include_paths = (const char *const *)session.effect_dirs.dirs,
        .include_path_count = session.effect_dirs.count,
        .defines = c->defines.items,
        .define_count = c->defines.count,
        .performance_mode = c->performance_mode,
        .skip_disabled = true, // see the top of this file: nothing enabled, nothing compiled
        .sink = {0},           // its copy of the preset would repeat session.preset's warnings
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

static fxgl_glsl_target glsl_target(const fxgl_gl_info *info) {
    if (info->api == FXGL_API_GLES) {
        return info->minor >= 2 ? FXGL_GLSL_ES320
               : info->minor == 1 ? FXGL_GLSL_ES310 : FXGL_GLSL_ES300;
    }
    return info->major > 4 || info->minor >= 5 ? FXGL_GLSL_GL450 : FXGL_GLSL_GL430;
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

static bool same_key(const ip_shared *s, const ip_effects *fx, int id) {
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
static void share_first_compile(const ip_effects *fx, int id, fxgl_effect *effect) {
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
static fxgl_effect *take_shared(const ip_effects *fx, int id) {
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

static void free_view(ip_entry *e) {
    free(e->view.uniforms);
    free(e->view.techniques);
    free(e->transitions);
    e->view = (fxgl_preset_effect){0};
    e->transitions = NULL;
    e->described = false;
}

void ip_effects_destroy(ip_effects *fx) {
    if (!fx) {
        return;
    }
    // The worker first: it may be compiling with fx->compiler.
    fxgl_reloader_destroy(fx->reloader);
    ip_warm_destroy(fx->warm);
    for (size_t i = 0; i < fx->entry_count; i++) {
        free_view(&fx->entries[i]);
        effect_release(fx->entries[i].effect);
        effect_release(fx->entries[i].reused);
        effect_release(fx->entries[i].staged);
    }
    free(fx->entries);
    fxgl_preset_destroy(fx->preset);
    fxgl_effects_destroy(fx->compiler);
    free(fx);
}

void ip_effects_preset_path(char *out, size_t size) {
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

void ip_effects_log_startup(fxgl_runtime *rt) {
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

const struct fxgl_program_cache *ip_effects_program_cache(void) {
    pthread_once(&session_once, session_setup);
    return session.cache ? &session.programs : NULL;
}

const char *const *ip_effects_texture_paths(size_t *count) {
    pthread_once(&session_once, session_setup);
    *count = session.texture_dirs.count;
    return (const char *const *)session.texture_dirs.dirs;
}

bool ip_effects_save_depth(const ip_depth_options *opt) {
    pthread_once(&session_once, session_setup);
    if (!session.ok) {
        return false;
    }
    fxgl_config c = session.config; // a shallow copy: only read by the save
    c.depth_by_vertices = opt->by_vertices;
    c.depth_aspect = opt->aspect;
    c.depth_copy_before_clears = opt->copy_before_clear;
    c.depth_clear_index = opt->clear_index;
    snprintf(c.depth_selected, sizeof(c.depth_selected), "%s", opt->selected);
    fxgl_preset_sink sink = {preset_diag, NULL};
    const char *name = program_invocation_short_name;
    return fxgl_config_save_depth(&c, name, &sink);
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

// --- requests from keys and the control socket (any thread) ---

void ip_effects_request_reload(void) {
    pthread_mutex_lock(&session.lock);
    session.reload_gen++;
    pthread_mutex_unlock(&session.lock);
    fxgl_log(FXGL_LOG_INFO, "reload requested: effects recompile in the background");
}

void ip_effects_set_performance_mode(bool on) {
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

bool ip_effects_performance_mode(void) {
    pthread_mutex_lock(&session.lock);
    bool on = session.performance_mode;
    pthread_mutex_unlock(&session.lock);
    return on;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

// The presets beside the current one, sorted by name (the reference's
// next/previous list): files of the preset's directory that are presets
// (.ini/.txt with a Techniques key). Fills next with the one step places
// away (wrapping); false when there is no other.
static bool neighbour_preset(const char *current, int step, char *next, size_t size) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", current);
    char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : current;
    if (slash) {
        *slash = '\0';
    } else {
        snprintf(dir, sizeof(dir), ".");
    }
    DIR *d = opendir(dir);
    if (!d) {
        return false;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) && count < IP_MAX_PRESET_FILES) {
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
        char *copy = strdup(ent->d_name);
        char **grown = copy ? realloc(names, (count + 1) * sizeof(*names)) : NULL;
        if (!grown) {
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
        found = snprintf(next, size, "%s/%s", dir, names[k]) < (int)size;
    }
    for (size_t i = 0; i < count; i++) {
        free(names[i]);
    }
    free(names);
    return found;
}

bool ip_effects_switch_preset(int step) {
    pthread_once(&session_once, session_setup);
    char current[PATH_MAX], next[PATH_MAX];
    pthread_mutex_lock(&session.lock);
    snprintf(current, sizeof(current), "%s", session.preset_path);
    pthread_mutex_unlock(&session.lock);
    if (step == 0 || !current[0] || !neighbour_preset(current, step, next, sizeof(next))) {
        fxgl_log(FXGL_LOG_INFO, "no %s preset beside '%s'", step < 0 ? "previous" : "next",
                 current);
        return false;
    }
    pthread_mutex_lock(&session.lock);
    snprintf(session.preset_path, sizeof(session.preset_path), "%s", next);
    session.preset_gen++;
    pthread_mutex_unlock(&session.lock);
    fxgl_log(FXGL_LOG_INFO, "preset %s", next);
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
        .application = session.program,
    };
}

static fxgl_preset *read_preset(const char *path) {
    fxgl_preset_sink sink = {preset_diag, NULL};
    fxgl_preset_desc desc = {.path = path[0] ? path : NULL, .sink = sink};
    return fxgl_preset_create(&desc);
}

// Adds the files the runtime's preset enables that it does not have yet,
// and asks the worker for their first compile.
static void add_wanted(ip_effects *fx) {
    for (size_t i = 0; i < session.file_count; i++) {
        const char *file = base_name(session.files[i]);
        bool have = false;
        for (size_t k = 0; k < fx->entry_count; k++) {
            have = have || fx->entries[k].id == (int)i;
        }
        if (have || !fxgl_preset_wants_effect(fx->preset, file)) {
            continue;
        }
        ip_entry *e = &fx->entries[fx->entry_count];
        *e = (ip_entry){.id = (int)i, .path = session.files[i], .runtime_index = -1};
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

// The preset's view of every loaded effect, the preset applied: techniques
// on or off, values set at once (duration 0) or blended from the running
// ones over duration seconds; then the render order.
static void apply_preset(ip_effects *fx, fxgl_runtime *rt, double now, double duration) {
    fxgl_preset_effect *views = calloc(fx->entry_count + 1, sizeof(*views));
    ip_entry **loaded = calloc(fx->entry_count + 1, sizeof(*loaded));
    fxgl_preset_uniform **before = calloc(fx->entry_count + 1, sizeof(*before));
    size_t n = 0;
    for (size_t i = 0; views && loaded && before && i < fx->entry_count; i++) {
        ip_entry *e = &fx->entries[i];
        if (e->runtime_index < 0) {
            continue;
        }
        // The values running now, where the blend starts.
        if (e->described && duration > 0.0) {
            before[n] = e->view.uniforms;
            e->view.uniforms = NULL;
        }
        free_view(e);
        if (!describe(e->effect, base_name(e->path), &e->view)) {
            free_view(e);
            free(before[n]);
            before[n] = NULL;
            continue;
        }
        e->described = true;
        e->transitions = calloc(e->view.uniform_count + 1, sizeof(*e->transitions));
        views[n] = e->view;
        loaded[n++] = e;
    }
    if (n > 0 && !fxgl_preset_apply(fx->preset, views, n)) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "the preset names techniques no loaded effect has");
    }
    fx->transitioning = false;
    for (size_t k = 0; k < n; k++) {
        ip_entry *e = loaded[k];
        e->view = views[k]; // apply wrote enabled flags and values into the copies
        for (size_t t = 0; t < e->view.technique_count; t++) {
            fxgl_runtime_set_enabled(rt, (size_t)e->runtime_index, t,
                                     e->view.techniques[t].enabled);
        }
        if (before[k] && e->transitions) {
            fxgl_preset_transition_begin(before[k], e->view.uniforms, e->view.uniform_count,
                                         now, duration, e->transitions);
            fx->transitioning = true;
        } else {
            free(e->transitions); // no blend: the new values at once
            e->transitions = NULL;
        }
        push_uniforms(rt, e->runtime_index, e->effect, &e->view);
        free(before[k]);
    }
    // The render order over what is loaded.
    size_t total = 0;
    for (size_t k = 0; k < n; k++) {
        total += views[k].technique_count;
    }
    fxgl_preset_technique_ref *order = n ? calloc(total + 1, sizeof(*order)) : NULL;
    fxgl_technique_ref *refs = order ? calloc(total + 1, sizeof(*refs)) : NULL;
    if (refs) {
        const fxgl_config *c = &session.config;
        size_t m = fxgl_preset_order(fx->preset, (const char *const *)c->technique_sorting,
                                     c->technique_sorting_count, views, n, order);
        for (size_t i = 0; i < m; i++) {
            refs[i] = (fxgl_technique_ref){(uint32_t)loaded[order[i].effect]->runtime_index,
                                           order[i].technique};
        }
        fxgl_runtime_set_order(rt, refs, m);
    }
    free(refs);
    free(order);
    free(views);
    free(loaded);
    free(before);
}

// One frame of running transitions: the blended values into the views and the runtime.
static void step_transitions(ip_effects *fx, fxgl_runtime *rt, double now) {
    bool running = false;
    for (size_t i = 0; i < fx->entry_count; i++) {
        ip_entry *e = &fx->entries[i];
        if (!e->transitions || e->runtime_index < 0) {
            continue;
        }
        bool any = false;
        for (size_t u = 0; u < e->view.uniform_count; u++) {
            any |= fxgl_preset_transition_value(&e->transitions[u], now,
                                                e->view.uniforms[u].value);
        }
        push_uniforms(rt, e->runtime_index, e->effect, &e->view);
        if (!any) {
            free(e->transitions);
            e->transitions = NULL;
        }
        running |= any;
    }
    fx->transitioning = running;
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
// failed, then the whole set in its final order in one frame (ip_effects_frame). A
// failure is logged and left out; it never holds the others back. shared: r->effect is
// another context's compile (a reference), not this worker's.
static void stage(ip_effects *fx, fxgl_reload_result *r, bool shared) {
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
        if (e->runtime_index < 0 && !e->staged) {
            fxgl_log(FXGL_LOG_WARN, "effect %s skipped: %s", e->path, msg);
            ip_inspect_note_failed(base_name(e->path), msg); // for the dump
        } else {
            fxgl_log(FXGL_LOG_WARN, "reload of %s failed, the running version stays: %s",
                     e->path, msg);
        }
        return;
    }
    effect_release(e->staged); // an older result nobody saw: the newest one counts
    e->staged = r->effect;
    r->effect = NULL; // ours now
    if (first && !shared) {
        share_first_compile(fx, e->id, e->staged);
    }
    if (e->runtime_index >= 0) {
        fxgl_log(FXGL_LOG_INFO, "recompiled %s (%.1f ms on the worker); swapped in with the "
                 "rest of the set", e->path, r->compile_ms);
    }
}

// Every staged version into the runtime, in one frame: the first version of a file
// joins it, a later one replaces the running version whole (a version that does not
// load keeps the running one).
static void install_staged(ip_effects *fx, fxgl_runtime *rt) {
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
        if (e->runtime_index < 0) {
            int index = fxgl_runtime_add_effect(rt, effect, base_name(e->path));
            if (index < 0) {
                effect_release(effect);
                continue;
            }
            e->runtime_index = index;
            e->effect = effect;
        } else {
            char reason[256] = "";
            if (!fxgl_runtime_replace_effect(rt, (size_t)e->runtime_index, effect, reason,
                                             sizeof(reason))) {
                fxgl_log(FXGL_LOG_WARN, "reload of %s failed, the running version stays: %s",
                         e->path, reason);
                effect_release(effect);
                continue;
            }
            free_view(e); // it points into the old version
            effect_release(e->effect);
            e->effect = effect;
            fxgl_log(FXGL_LOG_INFO, "reloaded %s", e->path);
        }
        // Includes and images may differ in the new version.
        fxgl_reloader_watch(fx->reloader, e->id, e->path, effect);
    }
}

ip_effects *ip_effects_load(fxgl_runtime *rt, const fxgl_gl_info *info, int width,
                            int height) {
    (void)rt;
    if (!ip_effects_wanted()) {
        return NULL;
    }
    ip_effects *fx = calloc(1, sizeof(*fx));
    if (!fx) {
        return NULL;
    }
    char path[PATH_MAX];
    pthread_mutex_lock(&session.lock);
    snprintf(path, sizeof(path), "%s", session.preset_path);
    fx->preset_gen = session.preset_gen;
    fx->reload_gen = session.reload_gen;
    fx->perf_gen = session.perf_gen;
    bool performance_mode = session.performance_mode;
    pthread_mutex_unlock(&session.lock);

    fxgl_effects_desc desc = session.effects_desc;
    fx->env = environment(info, width, height);
    desc.env = fx->env;
    desc.target = glsl_target(info);
    fx->target = desc.target;
    desc.performance_mode = performance_mode;
    fx->compiler = fxgl_effects_create(&desc);
    clock_gettime(CLOCK_MONOTONIC, &fx->created);
    fx->preset = read_preset(path);
    fx->entries = calloc(session.file_count + 1, sizeof(*fx->entries));
    bool live = ip_config_get()->live_reload;
    if (fx->compiler && fx->preset && fx->entries) {
        fxgl_effects_set_preset(fx->compiler, path[0] ? path : NULL);
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
        ip_effects_destroy(fx);
        return NULL;
    }
    if (live && path[0]) {
        fxgl_reloader_watch_preset(fx->reloader, path);
    }
    fxgl_effects_lock_preset(fx->compiler, fx->preset);
    add_wanted(fx);
    // The preset's Techniques naming files that were not found.
    size_t technique_count = 0;
    const char *const *names = fxgl_preset_techniques(fx->preset, &technique_count);
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
    return fx;
}

void ip_effects_compile_counts(const ip_effects *fx, unsigned *compiled, unsigned *reused) {
    *compiled = fx ? (unsigned)fxgl_reloader_compiles(fx->reloader) : 0;
    *reused = fx ? fx->reused : 0;
}

// Every request from the session since the last frame, acted on without waiting.
static void take_requests(ip_effects *fx) {
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
    if (perf && performance_mode != fxgl_effects_performance_mode(fx->compiler)) {
        fxgl_effects_set_performance_mode(fx->compiler, performance_mode);
        fxgl_effects_lock_preset(fx->compiler, fx->preset);
        recompile = true;
    }
    if (switched) {
        fxgl_preset *next = read_preset(path);
        if (next) {
            // Definitions may differ between presets, and in performance mode the
            // values are the code: recompile (in the background) where they matter.
            fxgl_preset_define_list *before = calloc(fx->entry_count + 1, sizeof(*before));
            for (size_t i = 0; before && i < fx->entry_count; i++) {
                fxgl_effects_defines(fx->compiler, base_name(fx->entries[i].path), &before[i]);
            }
            fxgl_effects_set_preset(fx->compiler, path);
            bool all = fxgl_effects_performance_mode(fx->compiler);
            for (size_t i = 0; i < fx->entry_count; i++) {
                fxgl_preset_define_list after = {0};
                bool same = before && !all &&
                            fxgl_effects_defines(fx->compiler, base_name(fx->entries[i].path),
                                                 &after) &&
                            after.count == before[i].count;
                for (size_t k = 0; same && k < after.count; k++) {
                    same = strcmp(after.items[k].name, before[i].items[k].name) == 0 &&
                           strcmp(after.items[k].value, before[i].items[k].value) == 0;
                }
                fxgl_preset_define_list_finish(&after);
                if (before) {
                    fxgl_preset_define_list_finish(&before[i]);
                }
                if (!same && !recompile) {
                    fxgl_reloader_request(fx->reloader, fx->entries[i].id);
                }
            }
            free(before);
            fxgl_preset_destroy(fx->preset);
            fx->preset = next;
            fxgl_effects_lock_preset(fx->compiler, fx->preset);
            if (ip_config_get()->live_reload) {
                fxgl_reloader_watch_preset(fx->reloader, path);
            }
            add_wanted(fx); // effects only the new preset enables
            // Applied with the recompiles and the new effects, as one set (ip_effects_frame).
            fx->apply_staged = true;
            fx->apply_duration = session.config.transition_ms / 1000.0;
        }
    }
    for (size_t i = 0; recompile && i < fx->entry_count; i++) {
        fxgl_reloader_request(fx->reloader, fx->entries[i].id);
    }
}

bool ip_effects_frame(ip_effects *fx, fxgl_runtime *rt, int width, int height, double now) {
    take_requests(fx);
    if (width != fx->env.width || height != fx->env.height) {
        // BUFFER_WIDTH/HEIGHT are compiled in: recompile for the new size in the
        // background; the running versions go on until the new ones are in.
        fx->env.width = width;
        fx->env.height = height;
        ip_warm_resize(fx->warm, width, height);
        fxgl_effects_set_environment(fx->compiler, &fx->env);
        for (size_t i = 0; i < fx->entry_count; i++) {
            fxgl_reloader_request(fx->reloader, fx->entries[i].id);
        }
    }
    // The frame that asked for the first compiles never waits for them: results
    // are taken from the next frame on, a bounded number per frame (each swap
    // builds GL objects).
    bool preset_file = false;
    bool polled = fx->first_polled;
    if (polled) {
        for (size_t i = 0; i < fx->entry_count; i++) {
            if (fx->entries[i].reused) {
                fxgl_reload_result r = {.id = fx->entries[i].id, .effect = fx->entries[i].reused};
                fx->entries[i].reused = NULL; // stage takes the reference
                stage(fx, &r, true);
            }
        }
        fxgl_reload_result r;
        for (int n = 0; n < 4 && fxgl_reloader_poll(fx->reloader, &r); n++) {
            if (r.preset_changed) {
                preset_file = true;
            } else {
                stage(fx, &r, false);
            }
            fxgl_reload_result_finish(&r);
        }
    }
    fx->first_polled = true;
    if (preset_file) {
        // The preset was edited on disk: the worker has its new definitions (and
        // recompiles what they change); the values and techniques are re-read here.
        char path[PATH_MAX];
        pthread_mutex_lock(&session.lock);
        snprintf(path, sizeof(path), "%s", session.preset_path);
        pthread_mutex_unlock(&session.lock);
        fxgl_preset *next = read_preset(path);
        if (next) {
            fxgl_preset_destroy(fx->preset);
            fx->preset = next;
            fxgl_effects_lock_preset(fx->compiler, fx->preset);
            add_wanted(fx);
            fx->apply_staged = true;
            fxgl_log(FXGL_LOG_INFO, "preset %s changed on disk: applied with its effects", path);
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
        install_staged(fx, rt);
        if (!fx->ready) {
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            double ms = (double)(t.tv_sec - fx->created.tv_sec) * 1e3 +
                        (double)(t.tv_nsec - fx->created.tv_nsec) * 1e-6;
            fxgl_diskcache_stats cs = fxgl_diskcache_get_stats(session.cache);
            fxgl_log(FXGL_LOG_INFO, "effects ready %.1f ms after the context's first frame; "
                     "compile cache %s: %u hit(s), %u miss(es) in this process", ms,
                     session.cache ? session.config.cache_path : "off", cs.module_hits,
                     cs.module_misses);
        }
        fx->ready = true;
        fx->apply_staged = false;
        fx->apply_duration = 0.0;
        apply_preset(fx, rt, now, duration);
    }
    if (fx->transitioning) {
        // From this very frame: a switch's first frame shows the values it starts from.
        step_transitions(fx, rt, now);
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

bool ip_effects_wants_input(const ip_effects *fx) {
    if (!fx) {
        return false;
    }
    const fxgl_config *c = &session.config;
    if (session.ok && (c->key_effects.vk || c->key_reload.vk || c->key_next_preset.vk ||
                       c->key_previous_preset.vk || c->key_performance_mode.vk)) {
        return true;
    }
    for (size_t i = 0; i < fx->entry_count; i++) {
        const ip_entry *e = &fx->entries[i];
        const fxgl_preset_effect *p = &e->view;
        for (size_t t = 0; e->described && t < p->technique_count; t++) {
            if (p->techniques[t].toggle_key.vk) {
                return true;
            }
        }
    }
    return false;
}

bool ip_effects_input(ip_effects *fx, fxgl_runtime *rt, const fxgl_input *in) {
    if (!in->has_focus) {
        return true;
    }
    const fxgl_config *c = &session.config;
    // KeyEffects on KeyOverlay's key (both Home by default): the overlay takes it.
    bool shared = c->key_effects.vk == c->key_overlay.vk &&
                  c->key_effects.ctrl == c->key_overlay.ctrl &&
                  c->key_effects.shift == c->key_overlay.shift &&
                  c->key_effects.alt == c->key_overlay.alt;
    if (session.ok && !shared && key_fired(&c->key_effects, in)) {
        ip_control_toggle_effects();
    }
    if (session.ok && key_fired(&c->key_reload, in)) {
        ip_effects_request_reload();
    }
    if (session.ok && key_fired(&c->key_next_preset, in)) {
        ip_effects_switch_preset(1);
    }
    if (session.ok && key_fired(&c->key_previous_preset, in)) {
        ip_effects_switch_preset(-1);
    }
    if (session.ok && key_fired(&c->key_performance_mode, in)) {
        ip_effects_set_performance_mode(!ip_effects_performance_mode());
    }
    for (size_t i = 0; i < fx->entry_count; i++) {
        ip_entry *e = &fx->entries[i];
        fxgl_preset_effect *p = &e->view;
        for (size_t t = 0; e->described && t < p->technique_count && e->runtime_index >= 0;
             t++) {
            fxgl_preset_technique *tech = &p->techniques[t];
            if (!tech->forced_on && key_fired(&tech->toggle_key, in)) {
                tech->enabled = !tech->enabled;
                fxgl_runtime_set_enabled(rt, (size_t)e->runtime_index, t, tech->enabled);
                fxgl_log(FXGL_LOG_INFO, "%s@%s %s (toggle key)", tech->name, p->file,
                         tech->enabled ? "on" : "off");
            }
        }
    }
    return true;
}

// --- what the editing overlay reads and changes (src/interpose/overlay.c) ---

const fxgl_config *ip_effects_config(void) {
    return session.ok ? &session.config : NULL;
}

size_t ip_effects_items(ip_effects *fx, ip_effects_item *out, size_t max) {
    size_t n = 0;
    for (size_t i = 0; fx && i < fx->entry_count && n < max; i++) {
        ip_entry *e = &fx->entries[i];
        if (e->runtime_index < 0 || !e->described || !e->effect) {
            continue;
        }
        out[n++] = (ip_effects_item){.path = e->path, .file = base_name(e->path),
                                     .effect = e->effect, .view = &e->view,
                                     .runtime_index = (size_t)e->runtime_index};
    }
    return n;
}

static ip_entry *entry_of(ip_effects *fx, size_t runtime_index) {
    for (size_t i = 0; fx && i < fx->entry_count; i++) {
        if (fx->entries[i].runtime_index == (int)runtime_index && fx->entries[i].described) {
            return &fx->entries[i];
        }
    }
    return NULL;
}

void ip_effects_push_values(ip_effects *fx, fxgl_runtime *rt, size_t runtime_index) {
    ip_entry *e = entry_of(fx, runtime_index);
    if (e) {
        free(e->transitions); // an edit ends a preset switch's blend of this effect
        e->transitions = NULL;
        push_uniforms(rt, e->runtime_index, e->effect, &e->view);
    }
}

void ip_effects_set_technique(ip_effects *fx, fxgl_runtime *rt, size_t runtime_index,
                              size_t technique, bool on) {
    ip_entry *e = entry_of(fx, runtime_index);
    if (e && technique < e->view.technique_count) {
        e->view.techniques[technique].enabled = on || e->view.techniques[technique].forced_on;
        fxgl_runtime_set_enabled(rt, runtime_index, technique, on);
    }
}

bool ip_effects_save(ip_effects *fx, fxgl_runtime *rt, char *reply, size_t size) {
    if (!fx || !fx->preset || !fxgl_preset_path(fx->preset)[0]) {
        snprintf(reply, size, "error: no preset file to save to");
        return false;
    }
    size_t n = 0, count = fxgl_runtime_technique_count(rt);
    fxgl_preset_effect *views = calloc(fx->entry_count + 1, sizeof(*views));
    size_t *runtime = calloc(fx->entry_count + 1, sizeof(*runtime));
    fxgl_preset_technique_ref *order = calloc(count + 1, sizeof(*order));
    if (!views || !runtime || !order) {
        free(views);
        free(runtime);
        free(order);
        snprintf(reply, size, "error: out of memory");
        return false;
    }
    for (size_t i = 0; i < fx->entry_count; i++) {
        ip_entry *e = &fx->entries[i];
        if (e->runtime_index >= 0 && e->described) {
            runtime[n] = (size_t)e->runtime_index;
            views[n++] = e->view;
        }
    }
    // The runtime's order and on/off state are what the player sees: `fxgl ctl disable`
    // and toggle keys change the runtime too.
    size_t m = 0;
    for (size_t i = 0; i < count; i++) {
        fxgl_technique_info t;
        if (!fxgl_runtime_technique(rt, i, &t)) {
            continue;
        }
        for (size_t k = 0; k < n; k++) {
            if (runtime[k] == t.effect && t.technique < views[k].technique_count) {
                order[m++] = (fxgl_preset_technique_ref){(uint32_t)k, (uint32_t)t.technique};
                views[k].techniques[t.technique].enabled = t.enabled;
            }
        }
    }
    const char *path = fxgl_preset_path(fx->preset);
    bool ok = fxgl_preset_capture(fx->preset, views, n, order, m) &&
              fxgl_preset_save(fx->preset, NULL);
    if (ok) {
        snprintf(reply, size, "saved %s", path);
    } else {
        snprintf(reply, size, "error: %s was not saved (see the log)", path);
    }
    free(views);
    free(runtime);
    free(order);
    return ok;
}
