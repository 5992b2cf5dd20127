/*
 * fxgl_interpose.h - the preloaded library's own module (src/interpose).
 *
 * src/interpose is the only place that knows about processes, GLX, EGL,
 * dlsym and input, and the only place with mutable globals (one table of
 * runtimes per share group, the log sink). It exports nothing but the hook
 * names (exports.map); everything here has hidden visibility.
 *
 * Sections follow the files: log.c, version.c, process_config.c (environment, read
 * once), real.c (the real dl, GLX and EGL functions), dlsym.c (the dlsym
 * hooks and the one {name, hook} table), glx.c and egl.c (the hooks),
 * context.c (share groups and drawables), swap.c (the frame hook).
 */
#ifndef FXGL_INTERPOSE_H
#define FXGL_INTERPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FXGL_INTERNAL __attribute__((visibility("hidden")))

// The code an ASan runtime preloaded before us runs while it initialises
// (its interceptors look their real functions up with dlsym(RTLD_NEXT)):
// before its shadow memory exists, instrumented loads would fault.
#define IP_NO_ASAN __attribute__((no_sanitize_address))

// --- log.c ---

typedef enum fxgl_log_level {
    FXGL_LOG_ERROR,
    FXGL_LOG_WARN,
    FXGL_LOG_INFO,
    FXGL_LOG_DEBUG,
} fxgl_log_level;

// The version string of this build ("fxgl 0.1.0").
FXGL_INTERNAL const char *ip_version(void);

// Reads FXGL_LOG and FXGL_LOG_FILE (once; later calls do nothing).
FXGL_INTERNAL void ip_log_init(void);
// The configuration's [LOG] Level and File (the environment already layered over them),
// from the moment the configuration is read; file NULL keeps the current output.
FXGL_INTERNAL void ip_log_configure(fxgl_log_level level, const char *file);
FXGL_INTERNAL bool ip_log_enabled(fxgl_log_level level);
FXGL_INTERNAL void fxgl_log(fxgl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
// What a player should see once per process (which configuration and preset): shown at
// the default level (warn) and above, as "fxgl: ..." without a level word.
FXGL_INTERNAL void fxgl_log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// Like fxgl_log with ": strerror(errno)" appended.
FXGL_INTERNAL void fxgl_log_errno(fxgl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Logs at most once per call site: anything that could repeat every frame.
#define FXGL_LOG_ONCE(level, ...)                                                        \
    do {                                                                                 \
        static int fxgl_log_once_done_;                                                  \
        if (!__atomic_exchange_n(&fxgl_log_once_done_, 1, __ATOMIC_RELAXED)) {           \
            fxgl_log(level, __VA_ARGS__);                                                \
        }                                                                                \
    } while (0)

// --- process_config.c ---

#define IP_CONFIG_PATH_MAX 4096

typedef struct ip_config {
    bool disabled;               // FXGL_DISABLE=1, or a blacklisted process
    bool blacklisted;            // the process name matched a blacklist entry
    bool dlsym_hook;             // FXGL_DLSYM (default 1): substitute hooks in dlsym
    bool glvnd_hook;             // FXGL_GLVND (default 1): wrap the GLX vendor library
    bool test_mark;              // FXGL_TEST_MARK=1: test-only 8x8 frame mark
    bool allow_tiny;             // FXGL_ALLOW_TINY=1: also process drawables <= 16x16
    bool live_reload;            // FXGL_RELOAD (default 1): watch effect files and the preset
    char process[64];            // the name the blacklist was matched against
    char preset[IP_CONFIG_PATH_MAX]; // FXGL_PRESET, "" when unset
    char config_file[IP_CONFIG_PATH_MAX]; // FXGL_CONFIG, "" when unset
    char stats[IP_CONFIG_PATH_MAX]; // FXGL_STATS: per-frame CSV (stats.c), "" when unset
    bool count_app_draws;        // FXGL_COUNT_APP_DRAWS=1: count the host's glDraw* calls
    bool depth_fbo;              // FXGL_DEPTH unset, auto or fbo: the depth hooks handed out
                                 // (off or default: none, DEPTH is the window's)
    bool depth_unknown;          // FXGL_DEPTH had another value (taken as auto)
    bool prewarm;                // not FXGL_PREWARM=0: the compile worker prewarms (warm.c)
    bool control;                // not FXGL_CONTROL=0: the control socket (control.c)
    bool overlay;                // FXGL_OVERLAY=1: the statistics overlay from the start
    bool overlay_grab;           // not FXGL_OVERLAY_NO_GRAB: the open overlay grabs X input
    bool specialise;             // not FXGL_SPECIALISE=0: specialised programs (variant_ctx.c)
    bool font_set;               // FXGL_FONT is set (font: its value, "" the built-in face)
    char font[IP_CONFIG_PATH_MAX];
    char keys[IP_CONFIG_PATH_MAX]; // FXGL_KEYS: control key bindings, "" for the defaults
    char runtime_dir[IP_CONFIG_PATH_MAX]; // XDG_RUNTIME_DIR: where the control socket goes
    char dump[IP_CONFIG_PATH_MAX]; // FXGL_DUMP: dump file written at exit, "" when unset
    char screenshot_dir[IP_CONFIG_PATH_MAX]; // FXGL_SCREENSHOT_DIR, "" when unset
    char visualise[IP_CONFIG_PATH_MAX]; // FXGL_VISUALISE, "" when unset
    // FXGL_LOG_FILE as set (log.c reads FXGL_LOG and FXGL_LOG_FILE itself: it logs
    // before and while this structure is filled).
    char log_file[IP_CONFIG_PATH_MAX];
} ip_config;

typedef const char *(*ip_getenv_fn)(const char *name);

// The configuration of this process, read on first use (never in a constructor).
FXGL_INTERNAL const ip_config *ip_config_get(void);
// The configuration files with the FXGL_* variables over them (src/preset's
// fxgl_config), read once at the first call: only from a frame, never from dlsym.
// NULL when out of memory.
struct fxgl_config;
FXGL_INTERNAL const struct fxgl_config *ip_config_files(void);
// The executable's path (/proc/self/exe), read with the files; "" when unknown.
FXGL_INTERNAL const char *ip_config_program_path(void);
// Fills cfg from an environment and a process name; pure, for tests.
FXGL_INTERNAL void ip_config_parse(ip_config *cfg, ip_getenv_fn get, const char *process);
// True when name matches an entry of a ':' or ',' separated list; an entry
// ending in '*' matches by prefix.
FXGL_INTERNAL bool ip_config_name_listed(const char *name, const char *list);
// The built-in blacklist (launchers, Steam helpers, compositors).
FXGL_INTERNAL const char *ip_config_builtin_blacklist(void);

// --- real.c ---

// libc's own dlsym/dlvsym, found without calling either by name (we export
// both names, so a call by name would come back to us).
FXGL_INTERNAL void *ip_real_libc_dlsym(void *handle, const char *name);
FXGL_INTERNAL void *ip_real_libc_dlvsym(void *handle, const char *name, const char *version);
// The same two as function pointers, for tail calls that must leave the
// caller's return address for libc (RTLD_NEXT). Never NULL.
typedef void *(*ip_dlsym_fn)(void *handle, const char *name);
typedef void *(*ip_dlvsym_fn)(void *handle, const char *name, const char *version);
FXGL_INTERNAL ip_dlsym_fn ip_real_libc_dlsym_fn(void);
FXGL_INTERNAL ip_dlvsym_fn ip_real_libc_dlvsym_fn(void);
// libc's own dlopen (we export dlopen too: vendor.c). Returned rather than
// called, so our dlopen can tail-call it and libc still sees the program as
// the caller (RUNPATH, $ORIGIN and the namespace are the caller's).
typedef void *(*ip_dlopen_fn)(const char *file, int flags);
FXGL_INTERNAL ip_dlopen_fn ip_real_libc_dlopen(void);
// The next dlsym/dlvsym after fxgl in the preload chain (another
// interposer's, or libc's): host lookups are forwarded there.
FXGL_INTERNAL void *ip_real_dlsym(void *handle, const char *name);
FXGL_INTERNAL void *ip_real_dlvsym(void *handle, const char *name, const char *version);

// A real GLX or EGL entry point. The chain variant is the next
// implementation after fxgl (another interposer's hook may sit there); the
// terminal variant comes from the GL library itself, for queries and for
// breaking a cycle between interposers.
FXGL_INTERNAL void *ip_real_glx_chain(const char *name);
FXGL_INTERNAL void *ip_real_glx_terminal(const char *name);
FXGL_INTERNAL void *ip_real_egl_chain(const char *name);
FXGL_INTERNAL void *ip_real_egl_terminal(const char *name);
// GetProcAddress-shaped loaders for fxgl_gl_load (the real, terminal ones).
FXGL_INTERNAL void *ip_real_glx_gl_loader(void *user, const char *name);
FXGL_INTERNAL void *ip_real_egl_gl_loader(void *user, const char *name);
// True when addr lies in a GL loader or driver library (glvnd, Mesa, NVIDIA):
// their own lookups must see the real functions.
FXGL_INTERNAL bool ip_real_in_gl_library(const void *addr);

// Converts between object and function pointers (one size on every GL platform).
#define IP_FN(type, ptr) ((type)(uintptr_t)(ptr))
#define IP_PTR(fn) ((void *)(uintptr_t)(fn))

// --- dlsym.c, glx.c, egl.c: the one {name, hook} table ---

typedef struct ip_hook {
    const char *name;            // the entry point's name
    void *hook;                  // our function: a static, non-interposable address
} ip_hook;

// Terminated by {NULL, NULL}; defined next to the hooks they list.
FXGL_INTERNAL extern const ip_hook ip_glx_hooks[];
FXGL_INTERNAL extern const ip_hook ip_egl_hooks[];
FXGL_INTERNAL extern const ip_hook ip_x11_hooks[]; // x11.c: XDestroyWindow, glXDestroyWindow

// --- x11.c ---

// True when the program destroyed this window (or GLX window) with
// XDestroyWindow/glXDestroyWindow: its swaps go to the driver untouched.
// No request to the server.
FXGL_INTERNAL bool ip_x11_window_gone(uintptr_t id);
FXGL_INTERNAL void ip_x11_note_gone(uintptr_t id);

// Our hook for name, or NULL. Callers return it only where the real
// lookup of the same name succeeded.
FXGL_INTERNAL void *ip_dlsym_hook_for(const char *name);
// The hook for name when real is non-NULL and the caller is not a GL
// library itself (glvnd and drivers must see the real functions); else real.
FXGL_INTERNAL void *ip_dlsym_substitute(const char *name, void *real, const void *caller);

// Exports name as an alias of the static hook target; __typeof__ makes the
// compiler check the hook against the prototype in the system header.
// IP_TEST_NO_EXPORTS builds the sources into a unit test without any hook
// names, which would otherwise interpose the test process itself.
#ifdef IP_TEST_NO_EXPORTS
#define IP_EXPORT(name, target) extern int ip_test_no_export_##name
#else
#define IP_EXPORT(name, target)                                                          \
    extern __typeof__(target) name __attribute__((alias(#target), visibility("default")))
#endif

// --- glx.c, vendor.c: the frame below glvnd ---

// Called by vendor.c's wrapper of the GLX vendor's glXSwapBuffers (and
// MscOML) before the vendor's own: runs the frame unless one of our exported
// swap hooks is already on this thread's stack (then it ran there).
FXGL_INTERNAL void ip_glx_vendor_swap(void *dpy, unsigned long drawable);

// --- input.c ---

struct fxgl_input;
typedef struct ip_input ip_input; // one consumer's previous snapshot (edges, deltas)

FXGL_INTERNAL ip_input *ip_input_create(void);
FXGL_INTERNAL void ip_input_destroy(ip_input *in);
// Fills out with the keyboard and mouse now. With wl_display (a Wayland
// program's connection, egl.c) from fxgl's private queue on it (wayland.c);
// otherwise as seen from the X window (0: unknown - pointer relative to the
// root, no focus, no keys) of the given size on display_name (NULL:
// $DISPLAY), through fxgl's private X connection. False, with out zeroed,
// when there is no connection.
// Waits for the answers to the X11 requests a poll left in flight. The
// server handles the requests of different connections in any order, so a
// test that acts on its own connection right after a poll calls this first
// to know which side of its action the in-flight answers describe.
FXGL_INTERNAL void ip_input_x11_settle(void);
FXGL_INTERNAL bool ip_input_poll(ip_input *in, const char *display_name, uint32_t window,
                                 int width, int height, void *wl_display,
                                 struct fxgl_input *out);

// While the editing overlay is open (on): the keyboard and pointer grabbed for fxgl's
// private connection on the program's window, so the X server sends the program none of
// their events (its window keeps the focus; fxgl still reads the state by polling). The
// answers are read without waiting, at later polls; a refusal (the program holds a grab
// itself) is logged and leaves the program its events. off releases it. No-op without a
// window (EGL surfaces whose X window is unknown) or a connection.
FXGL_INTERNAL void ip_input_grab(const char *display_name, uint32_t window, bool on);
// Releases the grab if one is held (the context of an open overlay went: glmark2 makes a
// context per scene). No request otherwise.
FXGL_INTERNAL void ip_input_grab_release(void);

// The size of X window `window` on display_name (NULL: $DISPLAY) as the
// server last announced it to fxgl's private connection (StructureNotify,
// read without blocking; one round trip on a window's first call). False
// when it cannot be known so (no connection, another display, not a
// window): the caller then asks the server itself.
FXGL_INTERNAL bool ip_x11_window_size(const char *display_name, uint32_t window, int *width,
                                      int *height);

// --- wayland.c ---

// The state of the keys (Windows virtual keys), buttons, pointer (surface
// coordinates), wheel steps since the last call and keyboard focus of the
// program's wl_display, from fxgl's own seat objects on a private event
// queue (created on first use; never blocks, never dispatches the
// program's queues). Edges are input.c's. False, out zeroed, when
// libwayland-client or libxkbcommon is missing (logged once) or the
// connection failed.
FXGL_INTERNAL bool ip_wayland_poll(void *wl_display, struct fxgl_input *out);
// The program is done with wl_display (eglTerminate of its EGL display):
// our objects and queue on it are destroyed while it is still alive.
FXGL_INTERNAL void ip_wayland_display_gone(void *wl_display);

// --- effect_host.c: configuration, preset and effects (read once per process) ---

struct fxgl_runtime;
struct fxgl_gl_info;
struct fxgl_effect;
// one runtime's compiled effects and their preset state
typedef struct ip_effect_host ip_effect_host;

// True when the preset enables at least one technique (reads the
// configuration and preset on first use); false: nothing to run, logged once.
FXGL_INTERNAL bool ip_effect_host_wanted(void);
// --- warm.c: the compile worker's private context (fxgl_prewarm_effect) ---
typedef struct ip_warm ip_warm;
// NULL when FXGL_PREWARM=0 or out of memory. app describes the program's context; the
// EGL context itself is made on the worker at its first prewarm.
FXGL_INTERNAL ip_warm *ip_warm_create(const struct fxgl_gl_info *app, int width, int height);
FXGL_INTERNAL void ip_warm_resize(ip_warm *w, int width, int height); // render thread
FXGL_INTERNAL void ip_warm_effect(void *user, const struct fxgl_effect *effect, bool first);
// After the worker has ended (fxgl_reloader_destroy).
FXGL_INTERNAL void ip_warm_destroy(ip_warm *w);

// One info line when a runtime's effects first reach the screen: the time since the
// process started and how its programs were made (compiled, cached binaries).
FXGL_INTERNAL void ip_effect_host_log_startup(struct fxgl_runtime *rt);
// The on-disk cache's program binaries for a runtime's desc (NULL: the cache is off).
FXGL_INTERNAL const struct fxgl_program_cache *ip_effect_host_program_cache(void);
// Front-end compiles this runtime's worker finished (failed ones too) and first compiles
// it took from another context of the process instead.
// The k-th effect of fx whose first compile failed: its file name and first error
// (both fx's); false past the last.
FXGL_INTERNAL bool ip_effect_host_failure(const ip_effect_host *fx, size_t k, const char **file,
                                          const char **diagnostic);
FXGL_INTERNAL void ip_effect_host_compile_counts(const ip_effect_host *fx, unsigned *compiled,
                                                 unsigned *reused);
// Starts compiling the effects the preset uses for this context (GLSL
// target, buffer size) on a worker thread (src/effects' reloader, which also
// watches the files unless FXGL_RELOAD=0) and returns at once; nothing
// reaches rt until ip_effect_host_frame delivers it, through the runtime's effect
// set (src/effects; rt is its back end from here on). NULL when nothing is wanted
// or the worker cannot start (logged).
FXGL_INTERNAL ip_effect_host *ip_effect_host_load(struct fxgl_runtime *rt,
                                                  const struct fxgl_gl_info *info, int width,
                                                  int height);
// Once per frame on the render thread, context current, before the frame
// runs: acts on the requests below, notices a new drawable size (recompiles
// in the background), and changes the set as a whole: finished compiles wait
// until the worker owes nothing (every compile asked for is back, each
// failure logged with file(line, col) and left out), then in one frame the
// first versions are added, later ones swapped in whole (the effect set:
// fxgl_effect_set_replace), and the preset applied in its final order
// (with the PresetTransitionDuration blend after a switch). Never waits for
// a compile. False until the first set is in: the frame then passes through
// untouched, as the reference shows nothing while loading.
FXGL_INTERNAL bool ip_effect_host_frame(ip_effect_host *fx, int width, int height, double now);
// Frees the compiled effects: only after the runtime that borrows them is gone.
FXGL_INTERNAL void ip_effect_host_destroy(ip_effect_host *fx);
// Applies this frame's keys: technique toggles and KeyEffects here, and
// KeyReload, KeyNextPreset, KeyPreviousPreset, KeyPerformanceMode through
// the requests below (acted on by ip_effect_host_frame, this frame). Call it
// before ip_effect_host_frame. False when KeyEffects has switched every effect off.
FXGL_INTERNAL bool ip_effect_host_input(ip_effect_host *fx, const struct fxgl_input *in);
// True when a key is bound: KeyEffects, KeyReload, KeyNextPreset,
// KeyPreviousPreset, KeyPerformanceMode or a technique's toggle key.
FXGL_INTERNAL bool ip_effect_host_wants_input(const ip_effect_host *fx);
// Requests, callable from any thread (toggle keys, the control socket). They
// return at once; every runtime acts on them at its next frame
// (ip_effect_host_frame), recompiling on its worker while the running versions
// go on.
// Recompiles every effect in use (KeyReload).
FXGL_INTERNAL void ip_effect_host_request_reload(void);
// Switches to the preset step places away (+1 next, -1 previous) in the
// current preset's directory: its .ini/.txt files that are presets (have a
// Techniques key), sorted by name, wrapping around (KeyNextPreset,
// KeyPreviousPreset). Floats blend over PresetTransitionDuration. False
// (logged) when there is no other preset there. Reads no file: the list is the
// one the runtimes' reload workers read ahead (a switch asked before they have
// read it waits for it), and every runtime swaps in its worker's copy of the
// new preset in the frame that acts on the switch.
FXGL_INTERNAL bool ip_effect_host_switch_preset(int step);
// Switches to the preset at path (absolute, .ini or .txt; `fxgl ctl preset
// PATH`). Nothing read it ahead: each runtime's worker reads it and the switch
// shows a frame or a few later. False (reply says why) when path is not one.
FXGL_INTERNAL bool ip_effect_host_select_preset(const char *path, char *reply, size_t size);
// Performance mode on or off (KeyPerformanceMode toggles it): effects are
// recompiled with the preset's values as constants
// (__RESHADE_PERFORMANCE_MODE__=1) or back with uniforms.
FXGL_INTERNAL void ip_effect_host_set_performance_mode(bool on);
FXGL_INTERNAL bool ip_effect_host_performance_mode(void);
// The preset in use now, whatever chose it ("" none): for screenshot names and dumps.
FXGL_INTERNAL void ip_effect_host_preset_path(char *out, size_t size);
// [GENERAL] TextureSearchPaths as given to the runtime.
FXGL_INTERNAL const char *const *ip_effect_host_texture_paths(size_t *count);

// What the editing overlay (overlay.c) reads and changes, on the render thread, all
// through the runtime's effect set (src/effects). One loaded effect of a runtime: its
// module (annotations, initial values) and the set's view of it (values and techniques as
// applied and edited; view uniform k is the effect's uniform k).
struct fxgl_preset_effect;
union fxgl_preset_value;
struct fxgl_config;
struct fxgl_technique_ref;
typedef struct ip_effect_host_item {
    const char *path;            // the effect file
    const char *file;            // its name, the preset's section ("LUT.fx")
    const struct fxgl_effect *effect;
    const struct fxgl_preset_effect *view; // owned by the set; changed through the calls below
    size_t member;               // the effect's index in the set
    size_t runtime_index;        // and in the runtime
    const char *reload_failure;  // the last recompile's error, the old version runs ("")
} ip_effect_host_item;
// The configuration read at the first frame (keys, font), NULL before.
FXGL_INTERNAL const struct fxgl_config *ip_effect_host_config(void);
FXGL_INTERNAL size_t ip_effect_host_items(ip_effect_host *fx, ip_effect_host_item *out, size_t max);
// A new value of a member's uniform (its view's component count), into the runtime; it
// ends a preset switch's blend of that uniform.
FXGL_INTERNAL bool ip_effect_host_value(ip_effect_host *fx, size_t member, size_t uniform,
                                        const union fxgl_preset_value *components);
FXGL_INTERNAL bool ip_effect_host_enable(ip_effect_host *fx, size_t runtime_index, size_t technique,
                                         bool on);
// The render order, in the runtime's effect indices (fxgl_technique_info.effect).
FXGL_INTERNAL bool ip_effect_host_order(ip_effect_host *fx, const struct fxgl_technique_ref *order,
                                        size_t count);
// Records the running state (values, enabled techniques, render order) in the current
// preset file and writes it atomically (src/preset keeps what it does not understand).
// reply says what happened; false when nothing was written (performance mode, no file).
FXGL_INTERNAL bool ip_effect_host_save(ip_effect_host *fx, struct fxgl_runtime *rt, char *reply,
                                       size_t size);
// The preprocessor definitions a member's effect can take (the names it tests, by the
// reference's rule, and those defined for it), each with the value in force ("": the
// effect's own default). Allocates: not for every frame.
struct fxgl_preset_define_list;
FXGL_INTERNAL bool ip_effect_host_defines(ip_effect_host *fx, size_t member,
                                          struct fxgl_preset_define_list *out);
// Sets one definition of a member's effect ("" leaves it undefined) above the preset's and
// recompiles the effect on the worker; the running version stays until the new one is in,
// and stays when it fails (the error in the item's reload_failure). A save writes it into
// the preset's section of the effect; a preset switch drops an unsaved one.
FXGL_INTERNAL bool ip_effect_host_set_define(ip_effect_host *fx, size_t member, const char *name,
                                             const char *value);
// The presets beside the current one (its directory's files ip_effect_host_switch_preset steps
// through), sorted, as file names; current: the current one's index.
#define IP_PRESET_NAME 128
FXGL_INTERNAL size_t ip_effect_host_presets(char (*names)[IP_PRESET_NAME], size_t max,
                                            size_t *current);
// Switches to the preset name (a file name of the current preset's directory).
FXGL_INTERNAL bool ip_effect_host_open_preset(const char *name);
// Saves the running state as a new preset name (".ini" added without .ini/.txt) in the
// current preset's directory, atomically, never over an existing file, and switches to it.
FXGL_INTERNAL bool ip_effect_host_save_as(ip_effect_host *fx, struct fxgl_runtime *rt,
                                          const char *name, char *reply, size_t size);

// --- overlay.c: the editing overlay (KeyOverlay) ---

typedef struct ip_inspect ip_inspect;

typedef struct ip_overlay ip_overlay;
struct fxgl_ui;
FXGL_INTERNAL ip_overlay *ip_overlay_create(void);
FXGL_INTERNAL void ip_overlay_destroy(ip_overlay *ov);
// Once per frame before the effects' own input: opens or closes on KeyOverlay and, while
// open, acts on the input and builds the frame's list into ui. Returns true while open:
// the caller then gives the effects' keys and the control keys no focus (the overlay has
// it). Closed, it reads one key and touches nothing else.
FXGL_INTERNAL bool ip_overlay_frame(ip_overlay *ov, ip_effect_host *fx, struct fxgl_runtime *rt,
                                    struct fxgl_ui *ui, const struct fxgl_input *in,
                                    int width, int height, double now);
FXGL_INTERNAL bool ip_overlay_is_open(const ip_overlay *ov);
// control.c: the inspection layer's list for the overlay (NULL: no layer).
FXGL_INTERNAL struct fxgl_ui *ip_inspect_ui(ip_inspect *in);

// --- context.c ---

typedef enum ip_wsi {
    IP_WSI_GLX,
    IP_WSI_EGL,
} ip_wsi;

typedef struct ip_slot ip_slot;       // context.c: one per share group
typedef struct ip_runtime ip_runtime; // swap.c: the group's GL side

// What one drawable looked like at this swap (a copy; the record stays in context.c).
typedef struct ip_drawable_state {
    int width;                   // from glXQueryDrawable / eglQuerySurface
    int height;
    uint64_t swaps;              // swaps seen on this drawable, this one included
    unsigned generation;         // bumped on every size change (resources are rebuilt)
    bool resized;                // the size changed since the previous swap
    bool pbuffer;                // a pbuffer (GLX: created through our hook)
    uintptr_t native_window;     // EGL on X11: the X window behind the surface, else 0
} ip_drawable_state;

// A context was created; share is the context it shares objects with (or NULL).
FXGL_INTERNAL void ip_context_created(ip_wsi wsi, void *dpy, void *ctx, void *share);
// A context is being destroyed; current: it is current on this thread (GL
// objects of ours that live on it can still be deleted).
FXGL_INTERNAL void ip_context_destroyed(ip_wsi wsi, void *dpy, void *ctx, bool current);
// An EGL display was terminated: all its contexts and surfaces are gone.
FXGL_INTERNAL void ip_context_display_gone(ip_wsi wsi, void *dpy);
// The share group of ctx, created on first use, with a reference held;
// give it back with ip_slot_release. NULL when out of memory or records.
FXGL_INTERNAL ip_slot *ip_slot_acquire(ip_wsi wsi, void *dpy, void *ctx);
FXGL_INTERNAL void ip_slot_release(ip_slot *slot);
// The group's runtime, created with the slot; valid while a reference is held.
FXGL_INTERNAL ip_runtime *ip_slot_runtime(ip_slot *slot);
// Records a swap of a drawable of the given size and describes it.
FXGL_INTERNAL ip_drawable_state ip_drawable_swap(ip_wsi wsi, void *dpy, uintptr_t id, int width,
                                                 int height);
FXGL_INTERNAL void ip_drawable_set_pbuffer(ip_wsi wsi, void *dpy, uintptr_t id);
// Records the X window behind an EGL window surface (for input) or a
// GLXWindow (for its size).
FXGL_INTERNAL void ip_drawable_set_native(ip_wsi wsi, void *dpy, uintptr_t id,
                                          uintptr_t window);
// The native X window recorded for a drawable (an EGL surface, a GLXWindow), or 0.
FXGL_INTERNAL uintptr_t ip_drawable_native(ip_wsi wsi, void *dpy, uintptr_t id);
FXGL_INTERNAL void ip_drawable_forget(ip_wsi wsi, void *dpy, uintptr_t id);

// --- swap.c ---

// --- the compile context of specialised programs (variant_ctx.c) ---
// A context in the current context's share group for the runtime's compile thread (made
// on the presenting thread, with the program's context current); NULL when
// FXGL_SPECIALISE=0 or none can be made (logged). worker() fills the runtime descriptor's
// worker from it (all zero for NULL); destroy it after the runtime.
typedef struct ip_variant_ctx ip_variant_ctx;
struct fxgl_runtime_worker;
struct GladGLContext;
// width, height: the program's drawable now (the compile context's own small drawable
// gets the same kind of size: power of two or not, per side).
FXGL_INTERNAL ip_variant_ctx *ip_variant_ctx_create(ip_wsi wsi, const struct fxgl_gl_info *info,
                                                    int width, int height);
FXGL_INTERNAL void ip_variant_ctx_worker(ip_variant_ctx *v, struct GladGLContext *gl,
                                         struct fxgl_runtime_worker *out);
FXGL_INTERNAL void ip_variant_ctx_destroy(ip_variant_ctx *v);

typedef struct ip_frame_desc {
    ip_wsi wsi;                  // which window system presented it
    ip_runtime *runtime;         // the share group's runtime (its slot acquired)
    ip_drawable_state drawable;  // the drawable being presented
    void *context;               // the current context (GLXContext / EGLContext)
    const char *x_display;       // X display name for input, NULL: $DISPLAY
    uint32_t x_window;           // the X window presented, 0 when unknown (EGL)
    void *wl_display;            // EGL on Wayland: the program's wl_display, else NULL
} ip_frame_desc;

// Runs before the real swap, on the presenting thread with the context
// current. Passes the frame through untouched unless the context is usable.
// True when fxgl drew into the frame (effects, overlay, test mark): a swap
// that carries damage must then present the whole surface.
FXGL_INTERNAL bool ip_frame(const ip_frame_desc *frame);

// A share group's runtime: CPU memory only until the first frame loads GL.
// Destroying it issues no GL call (see context.c for why that is right).
FXGL_INTERNAL ip_runtime *ip_runtime_create(void);
FXGL_INTERNAL void ip_runtime_destroy(ip_runtime *runtime);
// The context ctx of the runtime's group is being destroyed: when the
// effect runtime lives on it, it is destroyed (ctx current) or abandoned
// (its GL objects die with the context; its CPU memory is leaked, logged).
FXGL_INTERNAL void ip_runtime_context_gone(ip_runtime *runtime, void *ctx, bool current);

// --- draws.c: the host's glDraw* calls, FXGL_COUNT_APP_DRAWS=1 ---

// Our counting hook for a glDraw*/glMultiDraw* name when counting is on, else NULL.
FXGL_INTERNAL void *ip_draws_hook_for(const char *name);
// Records real as name's real function and returns the hook (or real when
// that entry point already has a different real function).
FXGL_INTERNAL void *ip_draws_bind(const char *name, void *real);
// The host's draws since the last call; false when no hook was handed out
// (nothing counted: the program reaches its draws some other way).
FXGL_INTERNAL bool ip_draws_take(uint64_t *count);

// --- depth.c: the FBO depth provider (on unless FXGL_DEPTH=off) ---

struct fxgl_runtime;
typedef struct ip_depth_options {
    bool by_vertices;            // the most vertices wins, not the most draw calls
    bool aspect;                 // only sizes matching the back buffer's aspect ratio
    bool copy_before_clear;      // copy before the program clears it (else at frame end)
    uint32_t clear_index;        // with copy_before_clear: before the N-th clear, 0: every
                                 // clear that follows draws
    char selected[64];           // a candidate's key ("texture:5:0:0"), "" or "auto": chosen
} ip_depth_options;

typedef struct ip_depth_cand_stats {
    uint64_t draws;              // draw calls with it bound as the depth buffer
    uint64_t vertices;           // vertices they drew (indirect draws count none)
    uint32_t clears;             // depth clears and invalidations
} ip_depth_cand_stats;

typedef struct ip_depth_row {
    int index;                   // `fxgl ctl depth select N`
    char key[64];                // "default", "texture:NAME:LEVEL:LAYER", "renderbuffer:NAME"
    bool renderbuffer;
    int width, height, samples;  // 0 while not yet described
    uint32_t format;             // GL sized format, 0 unknown
    ip_depth_cand_stats stats;   // the last complete frame
    bool chosen;
} ip_depth_row;

// Relaxed atomic: a loaded effect binds DEPTH, so draws and clears are counted.
FXGL_INTERNAL extern bool ip_depth_counting;
FXGL_INTERNAL void ip_depth_count(uint64_t vertices);
// Called by every draw hook (draws.c) with the vertices it draws.
static inline void ip_depth_draw(uint64_t vertices) {
    if (__atomic_load_n(&ip_depth_counting, __ATOMIC_RELAXED)) {
        ip_depth_count(vertices);
    }
}
// Our hook for a framebuffer, attachment, clear or invalidation entry point
// unless FXGL_DEPTH=off (or the process is disabled), else NULL; the name is
// tested before the configuration is read. ip_depth_bind as ip_draws_bind.
FXGL_INTERNAL void *ip_depth_hook_for(const char *name);
FXGL_INTERNAL void *ip_depth_bind(const char *name, void *real);
// At the end of each frame of fx's context, before the effects run: counting
// on or off, the choice from this frame's counts, the end-of-frame copy.
FXGL_INTERNAL void ip_depth_frame(struct fxgl_runtime *fx, ip_wsi wsi, void *ctx, int width,
                                  int height);
// fx is being destroyed: no copy goes to it any more.
FXGL_INTERNAL void ip_depth_runtime_gone(struct fxgl_runtime *fx);
FXGL_INTERNAL void ip_depth_set_options(const ip_depth_options *opt);
FXGL_INTERNAL void ip_depth_get_options(ip_depth_options *opt);
// Writes opt as this program's [DEPTH:<program>] into the configuration file
// (effect_host.c: the configuration is read there); false when it cannot.
FXGL_INTERNAL bool ip_effect_host_save_depth(const ip_depth_options *opt);
// The candidates drawn into in the last frame (and the chosen one), up to max.
FXGL_INTERNAL size_t ip_depth_list(ip_depth_row *rows, size_t max, bool *counting);
// The options and the candidates as text, rows separated by sep (snprintf-like).
FXGL_INTERNAL size_t ip_depth_describe(char *buf, size_t size, const char *sep);
// The same as a dump section (fxgl_inspect_desc's dump_extra); nothing while
// no loaded effect binds DEPTH (or with FXGL_DEPTH=off).
FXGL_INTERNAL size_t ip_depth_dump(void *user, char *buf, size_t size);
// `depth`, `depth select N|auto`, `depth by draws|vertices`, `depth aspect on|off`,
// `depth clear off|N`: false when line is no depth command. Changes are saved.
FXGL_INTERNAL bool ip_depth_command(const char *line, char *reply, size_t size);
// The persistent key of candidate i; false when there is none.
FXGL_INTERNAL bool ip_depth_key(int i, char *out, size_t size);

// --- stats.c: per-frame statistics ---

// True when FXGL_STATS names a file that opened (checked once).
FXGL_INTERNAL bool ip_stats_wanted(void);
// One CSV row for the frame just processed (fx: its effect runtime, NULL
// when the frame passed through); app_draws is written when counted.
// effects_coming: techniques are wanted, so rows wait for the first frame
// that has them (false: nothing is enabled, rows start at once).
FXGL_INTERNAL void ip_stats_frame(struct fxgl_runtime *fx, bool effects_coming,
                                  uint64_t app_draws, bool count_app_draws);

// --- control.c: control socket, key bindings, SIGUSR1 ---

typedef struct ip_control ip_control;
struct fxgl_input;

// Listens on <dir>/fxgl-<pid>.sock (dir: $XDG_RUNTIME_DIR; it must be this
// user's and private), mode 0600. NULL with reason otherwise, or when the
// path exists and is someone else's (left alone).
FXGL_INTERNAL ip_control *ip_control_create(const char *dir, char *reason, size_t size);
// Closes it and removes the socket (only in the process that made it).
FXGL_INTERNAL void ip_control_destroy(ip_control *c);
FXGL_INTERNAL const char *ip_control_path(const ip_control *c);
// Runs one command line; reply (one line) goes back to the client.
typedef void (*ip_control_handler)(void *user, const char *line, char *reply, size_t size);
// Once per frame: accepts same-user connections, reads what has arrived and
// runs complete lines (8 at most), all without blocking. Returns the
// number of commands run.
FXGL_INTERNAL int ip_control_poll(ip_control *c, ip_control_handler handler, void *user);

#define IP_CTL_ACTIONS 8         // toggle reload next prev performance overlay dump screenshot
typedef struct ip_keymap {
    int vk[IP_CTL_ACTIONS];      // Windows virtual-key code per action, 0: unbound
} ip_keymap;
// FXGL_KEYS ("dump=F9,overlay=F10,next=PageDown,...") over the defaults
// (next PageDown, prev PageUp, overlay F10, dump F9, screenshot Print;
// toggle, reload and performance unbound). False with reason, map untouched, on a bad binding.
FXGL_INTERNAL bool ip_control_keys_parse(ip_keymap *map, const char *spec, char *reason,
                                         size_t size);
// The commands of the keys pressed this frame (only with focus).
FXGL_INTERNAL size_t ip_control_keys(const ip_keymap *map, const struct fxgl_input *in,
                                     const char **commands, size_t max);
// The inspection layer (src/gl, fxgl_inspect) of one effect runtime, with
// the process's control socket, FXGL_KEYS, SIGUSR1, FXGL_VISUALISE,
// FXGL_OVERLAY=1, FXGL_SCREENSHOT_DIR and FXGL_DUMP (a file written when a
// runtime goes and at exit). Created on the runtime's context; NULL: none.
typedef struct ip_inspect ip_inspect;
struct fxgl_frame_desc;
// effects: the runtime's effects, whose failed compiles the dump lists (NULL: none).
FXGL_INTERNAL ip_inspect *ip_inspect_create(struct fxgl_runtime *fx, const ip_effect_host *effects);
// On the runtime's context, before the runtime is destroyed. Accepts NULL.
FXGL_INTERNAL void ip_inspect_destroy(ip_inspect *in);
// Its context is gone without being current: FXGL_DUMP is written from the
// last frame's records and the layer's CPU memory freed, with no GL call.
// Before the effects the runtime borrows are freed (the dump reads them).
// Accepts NULL.
FXGL_INTERNAL void ip_inspect_abandon(ip_inspect *in);
// Polls control (socket, keys, signal), then runs the frame through the
// layer; with in NULL just fxgl_runtime_frame.
FXGL_INTERNAL bool ip_inspect_frame(ip_inspect *in, struct fxgl_runtime *fx,
                                    const struct fxgl_frame_desc *desc);
// True after a `reload` command: the frame hook then destroys the runtime
// and its effects (on their context), which are rebuilt from the files at
// the next frame.
FXGL_INTERNAL bool ip_inspect_take_reload(ip_inspect *in);
// The same polling on a frame that runs no effects (KeyEffects off), so
// control still answers. Accepts NULL.
FXGL_INTERNAL void ip_inspect_idle(ip_inspect *in, const struct fxgl_input *input);
// True when a control key is bound (FXGL_KEYS) or the overlay is open.
FXGL_INTERNAL bool ip_inspect_wants_input(const ip_inspect *in);
// SIGUSR1 asks for a dump, where the program left SIGUSR1 at its default.
// KeyEffects: flips the one effects on/off state (`fxgl ctl toggle`'s) at the next frame.
FXGL_INTERNAL void ip_control_toggle_effects(void);
FXGL_INTERNAL bool ip_control_signal_install(void);
// True once per SIGUSR1 received (the frame hook then dumps).
FXGL_INTERNAL bool ip_control_signal_take(void);

#endif // FXGL_INTERPOSE_H
