/*
 * fxgl_effects.h - compiling effects the way the configuration and preset ask, and
 * reloading them when their files change (src/effects).
 *
 * src/preset knows nothing about the compiler and src/fx nothing about presets; this small
 * module joins them so that every consumer (fxgl-render, fxc preset, the interposer)
 * compiles an effect the same way: predefined macros first, then the definitions layered
 * effect section > preset > global (config) > built-ins, performance mode turning the
 * preset's values into constants, SkipLoadingDisabledEffects leaving effects without an
 * enabled technique out. It is GL-free: the reloader hands finished effects to the render
 * thread, which swaps them into the runtime (fxgl_runtime_replace_effect).
 *
 * Nothing here prints; messages go to the fxgl_preset_sink given at create time.
 */
#ifndef FXGL_EFFECTS_H
#define FXGL_EFFECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"
#include "fxgl_preset.h"

#ifdef __cplusplus
extern "C" {
#endif

// --- compiling (compiler.c) ---

typedef struct fxgl_compiler fxgl_compiler;

typedef struct fxgl_compiler_desc {
    fxgl_environment env;        // predefined macros (performance_mode is taken from below)
    fxgl_glsl_target target;     // FXGL_GLSL_NONE: front end only (fxc preset)
    const char *const *include_paths; // effect search paths ("dir/**" recurses), copied
    size_t include_path_count;
    const fxgl_preset_define *defines; // global layer (fxgl.ini PreprocessorDefinitions
    size_t define_count;         // or the command line), copied
    const fxgl_preset_define *builtins; // lowest layer, copied
    size_t builtin_count;
    bool performance_mode;       // constants + __RESHADE_PERFORMANCE_MODE__=1
    bool skip_disabled;          // SkipLoadingDisabledEffects
    fxgl_preset_sink sink;       // warnings (preset values) go here
    struct fxgl_diskcache *cache; // borrowed, NULL: none; compiles go through it
} fxgl_compiler_desc;

// Fills desc's search paths, definitions and modes from a configuration. The pointers
// borrow from config (fxgl_compiler_create copies them); paths is caller storage for the
// "dir/**" spellings (path_count entries, each at least 4096 bytes).
void fxgl_compiler_desc_from_config(fxgl_compiler_desc *desc, const fxgl_config *config,
                                    char (*paths)[4096], const char **path_list,
                                    size_t path_count);

// NULL only when out of memory.
fxgl_compiler *fxgl_compiler_create(const fxgl_compiler_desc *desc);
void fxgl_compiler_destroy(fxgl_compiler *fx);

// The preset whose definitions and (in performance mode) values compile into the effects.
// The object reads the file itself and keeps its own copy, so a compile on another thread
// never sees a preset freed under it; NULL path: no preset. In performance mode the copy
// is locked against saving. false when out of memory (the previous preset stays).
bool fxgl_compiler_set_preset(fxgl_compiler *fx, const char *path);

// The preset compiles use now, shared: a host that applies the same preset to its
// effects takes a reference instead of reading the file again. It is read-only for
// everyone (compiles on other threads read it at the same time); a host that saves
// reads a copy of its own. NULL when there is no preset. Every hold is given back with
// fxgl_compiler_release_preset (the preset lives while one is held, even after a switch).
typedef struct fxgl_held_preset fxgl_held_preset;
fxgl_held_preset *fxgl_compiler_hold_preset(fxgl_compiler *fx);
const fxgl_preset *fxgl_held_preset_get(const fxgl_held_preset *held);
void fxgl_compiler_release_preset(fxgl_compiler *fx, fxgl_held_preset *held);

// fxgl_compiler_set_preset in two steps, so that the reading can run on another thread than
// the switch: read_preset reads the file into a new hold (the caller's; NULL when path is
// NULL or out of memory) without changing what compiles use; use_preset makes a hold the
// preset compiles use (taking a reference of its own, locking it in performance mode)
// and reads no file. NULL: no preset.
fxgl_held_preset *fxgl_compiler_read_preset(fxgl_compiler *fx, const char *path);
void fxgl_compiler_use_preset(fxgl_compiler *fx, fxgl_held_preset *held);

// The message a save is refused with in performance mode.
#define FXGL_EFFECTS_PERFORMANCE_LOCK \
    "performance mode is on: effect variables are compile-time constants and read-only; " \
    "turn performance mode off to change and save them"

// Locks preset against saving when performance mode is on (and unlocks it otherwise), so a
// preset the caller holds refuses saves the same way. Returns whether it is now locked.
bool fxgl_compiler_lock_preset(const fxgl_compiler *fx, fxgl_preset *preset);

bool fxgl_compiler_performance_mode(const fxgl_compiler *fx);

// Turns performance mode on or off for later compiles (the KeyPerformanceMode toggle) and
// locks or unlocks the object's preset copy. Effects compiled before keep their mode: the
// caller recompiles them (fxgl_reloader_request). Thread-safe against compiles.
void fxgl_compiler_set_performance_mode(fxgl_compiler *fx, bool on);

// Replaces the environment fxgl_compiler_compile uses (the drawable was resized: BUFFER_WIDTH
// and BUFFER_HEIGHT change). Thread-safe against compiles on the reload worker; a compile
// in progress keeps the environment it started with.
void fxgl_compiler_set_environment(fxgl_compiler *fx, const fxgl_environment *env);

// Whether file ("LUT.fx") is to be compiled: false only under SkipLoadingDisabledEffects
// when the preset enables no technique of it (fxgl_preset_wants_effect).
bool fxgl_compiler_wanted(const fxgl_compiler *fx, const char *file);

// Whether a uniform of a compiled effect can be changed at run time: false in performance
// mode for the ones that became constants (initialized, not special, not arrays).
bool fxgl_compiler_uniform_editable(const fxgl_compiler *fx, const fxgl_uniform *uniform);

// The layered definitions for file (user layers only; the predefined macros are added by
// fxgl_compiler_compile). false when out of memory.
bool fxgl_compiler_defines(const fxgl_compiler *fx, const char *file,
                           fxgl_preset_define_list *out);

// Definitions edited for file (the editing overlay): the highest layer, above the preset's
// effect section, until another preset replaces it (fxgl_compiler_set_preset with another
// path; the same file read again keeps them). A value "" leaves the name undefined. Replaces file's
// edits; the caller recompiles (fxgl_reloader_request). Thread-safe against compiles.
bool fxgl_compiler_edit_defines(fxgl_compiler *fx, const char *file,
                                const fxgl_preset_define *defines, size_t count);
// A copy of file's edits (empty when none). false when out of memory.
bool fxgl_compiler_edited_defines(const fxgl_compiler *fx, const char *file,
                                  fxgl_preset_define_list *out);

// Compiles path (its preset section is the file name part). NULL on errors (in diags).
// Thread-safe: several threads may compile at once and the preset may change meanwhile.
fxgl_effect *fxgl_compiler_compile(fxgl_compiler *fx, const char *path, fxgl_diags *diags);

// The same for a context of its own: env and target replace the ones given at create time
// (one object serves every context of a process; performance_mode still comes from the
// object).
fxgl_effect *fxgl_compiler_compile_for(fxgl_compiler *fx, const char *path,
                                       const fxgl_environment *env, fxgl_glsl_target target,
                                       fxgl_diags *diags);

// The file name part of a path ("a/b/LUT.fx" -> "LUT.fx").
const char *fxgl_compiler_file_part(const char *path);

// --- the preset's view of a compiled effect (view.c) ---
//
// Every host hands a preset the same view of an effect: one view uniform per uniform of
// the effect, at the same index (so a value the preset gives view uniform k goes to the
// effect's uniform k, by index), and one view technique per technique. Arrays are read
// and saved as the reference does it: the components of their first element; strings
// are left out of presets (nosave).

// The view of effect, with the effect's initial values and every technique off. Its
// names point into effect, file is borrowed. false when out of memory.
bool fxgl_effect_view(const fxgl_effect *effect, const char *file, fxgl_preset_effect *out);
void fxgl_effect_view_finish(fxgl_preset_effect *view);

// The value to write into uniform from its view (the first element of an array); false
// for a uniform the runtime owns (special) or one with no numeric value.
bool fxgl_effect_view_value(const fxgl_uniform *uniform, const fxgl_preset_uniform *view,
                            fxgl_value *out);

// The preset's component type for a scalar type.
fxgl_preset_base_type fxgl_effect_view_type(fxgl_scalar scalar);

// The name a preset knows a uniform by: its short name ("Strength" for "MyFx::Strength").
const char *fxgl_effect_view_name(const char *name);

// --- the effect set of a runtime (set.c) ---
//
// What a runtime runs and how: its effects, the preset applied to them (techniques on or
// off, values, toggle keys, the render order), timed transitions between presets and
// toggle keys. Every host (the interposer's context, fxgl-render, an overlay) drives a
// back end through the set, and the set reaches the back end only through a table of
// operations it fills in (src/gl: fxgl_runtime_effect_ops), so a second back end serves
// the same set. A value goes from the preset's view to the back end by uniform index.
// The set borrows the effects; it never compiles, reads files or prints.

// The back end's side. Every call gets the set's backend pointer; effect indices are
// the back end's own (what add returned).
typedef struct fxgl_effect_ops {
    // Takes effect (borrowed until replaced or the back end is gone) under file, the
    // preset's section name; its techniques run after those known, all enabled. Returns
    // its index, -1 on failure.
    int (*add)(void *backend, const fxgl_effect *effect, const char *file);
    // A new version of an effect in place of the old one; false (with reason) leaves the
    // old one running.
    bool (*replace)(void *backend, size_t effect, const fxgl_effect *next, char *reason,
                    size_t reason_size);
    // The value of uniform (its index in fxgl_effect.uniforms), converted to its type.
    bool (*set_value)(void *backend, size_t effect, size_t uniform, const fxgl_value *value);
    bool (*enable)(void *backend, size_t effect, size_t technique, bool enabled);
    // The render order; techniques not listed go after the listed ones.
    bool (*order)(void *backend, const fxgl_technique_ref *order, size_t count);
} fxgl_effect_ops;

typedef enum fxgl_effect_set_level {
    FXGL_EFFECT_SET_FAILURE,     // something was skipped or kept as it was
    FXGL_EFFECT_SET_NOTE,        // something the player did took effect (a toggle key)
} fxgl_effect_set_level;

typedef struct fxgl_effect_set_desc {
    const fxgl_effect_ops *ops;  // borrowed, required
    void *backend;               // handed to every op (the runtime)
    // TechniqueSorting of the configuration, used where the preset has none (borrowed,
    // must outlive the set; NULL: none).
    const char *const *sorting;
    size_t sorting_count;
    // Failures and notes, one line each without a newline; NULL: dropped.
    void (*report)(void *user, fxgl_effect_set_level level, const char *message);
    void *user;
} fxgl_effect_set_desc;

typedef struct fxgl_effect_set fxgl_effect_set;

// NULL when out of memory.
fxgl_effect_set *fxgl_effect_set_create(const fxgl_effect_set_desc *desc);
// The effects are the caller's; the back end is left as it is.
void fxgl_effect_set_destroy(fxgl_effect_set *set);

// Adds effect (borrowed) to the back end under file ("LUT.fx", copied). Returns its
// member index (0, 1, ... in the order of adding), -1 on failure (reported). Its values
// and techniques are the preset's from the next fxgl_effect_set_apply.
int fxgl_effect_set_add(fxgl_effect_set *set, const fxgl_effect *effect, const char *file);
// A new version of member's effect. true: it runs, the caller may destroy the old one;
// false (reported): the old one runs on and next is not used.
bool fxgl_effect_set_replace(fxgl_effect_set *set, size_t member, const fxgl_effect *next);

// Applies preset to every member: techniques on or off, values (each uniform reset to its
// initial value, then the preset's), toggle keys, the render order. duration > 0 blends
// float values from the running ones over that many seconds from now (the frame clock;
// fxgl_effect_set_step moves them), the rest switch at once. Returns false when the
// preset names techniques no member has.
bool fxgl_effect_set_apply(fxgl_effect_set *set, const fxgl_preset *preset, double now,
                           double duration);
// One frame of running transitions; returns whether any still runs. Allocates nothing.
bool fxgl_effect_set_step(fxgl_effect_set *set, double now);
bool fxgl_effect_set_transitioning(const fxgl_effect_set *set);

// Whether any technique has a toggle key (a host reads input only then).
bool fxgl_effect_set_has_toggle_keys(const fxgl_effect_set *set);
// Flips every technique whose toggle key fired (fired says, per key) and is not forced
// on; each flip is reported as a note. Returns how many flipped.
size_t fxgl_effect_set_toggle(fxgl_effect_set *set,
                              bool (*fired)(void *user, const fxgl_preset_key *key),
                              void *user);

// --- what an overlay reads and changes ---
size_t fxgl_effect_set_count(const fxgl_effect_set *set);
// The preset's view of member as applied and changed since (NULL before the first
// apply after it was added or replaced). Owned by the set.
const fxgl_preset_effect *fxgl_effect_set_view(const fxgl_effect_set *set, size_t member);
const fxgl_effect *fxgl_effect_set_effect(const fxgl_effect_set *set, size_t member);
// member's index in the back end (what ops->add returned), for the back end's own calls.
size_t fxgl_effect_set_backend_index(const fxgl_effect_set *set, size_t member);
// Switches one technique on or off (not a forced-on one).
bool fxgl_effect_set_enable(fxgl_effect_set *set, size_t member, size_t technique, bool on);
// Sets uniform's components (its view's count; the first element of an array) in the
// view and the back end, ending a transition of it.
bool fxgl_effect_set_value(fxgl_effect_set *set, size_t member, size_t uniform,
                           const fxgl_preset_value *components);
// The render order as (member, technique) pairs; techniques not listed go after. The back
// end gets it at once; a capture records it until the next apply brings the preset's.
bool fxgl_effect_set_order(fxgl_effect_set *set, const fxgl_technique_ref *order,
                           size_t count);
// The member whose back-end index is backend_index ((size_t)-1: none).
size_t fxgl_effect_set_member_of(const fxgl_effect_set *set, size_t backend_index);
// Records every member's techniques, keys and values in preset as the reference's save
// does (fxgl_preset_capture, in the order fxgl_effect_set_order set, or else the one the
// preset gives); the caller saves it. false when out of memory.
bool fxgl_effect_set_capture(const fxgl_effect_set *set, fxgl_preset *preset);

// --- live reload (reload.c) ---
//
// A worker thread watches (inotify) the directories of every file an effect was built
// from: the effect, its includes (fxgl_effect.included_files), its `source=` images, and
// the preset. When one changes (written, replaced by rename, created again), the effects
// that use it are recompiled on the worker; results wait in a queue that the render thread
// drains with fxgl_reloader_poll, which never blocks on a compile. A failed compile is
// reported with its diagnostics and the caller keeps the last good effect.

typedef struct fxgl_reloader fxgl_reloader;

typedef struct fxgl_reloader_desc {
    fxgl_compiler *effects;       // borrowed: compiles with it
    const char *const *texture_paths; // where `source=` images are looked for, after the
    size_t texture_path_count;   // effect's own directory (copied)
    uint32_t settle_ms;          // wait this long after the last event of a burst (0: 50)
    bool no_watch;               // compile worker only: files are not watched, effects are
                                 // compiled on fxgl_reloader_request alone
    // Called on the worker after each successful compile, before the result is handed
    // over: the host builds the effect once on a private GL context there
    // (fxgl_prewarm_effect) so that the render thread's build finds the driver's shader
    // cache warm. first: the id's first compile by this reloader (a host whose frames
    // pass through until then may skip it, to show its effects sooner). Its failure is
    // only logged by the host: the result is delivered anyway. NULL: no prewarm.
    void (*prewarm)(void *user, const fxgl_effect *effect, bool first);
    void *prewarm_user;
} fxgl_reloader_desc;

// NULL when out of memory or inotify is unavailable.
fxgl_reloader *fxgl_reloader_create(const fxgl_reloader_desc *desc);
// Stops the worker (waits for a compile in progress) and frees undelivered results.
void fxgl_reloader_destroy(fxgl_reloader *r);

// Watches the files effect was built from under id (the caller's effect index). Calling it
// again for the same id (after a swap) replaces the watched set. false when out of memory.
bool fxgl_reloader_watch(fxgl_reloader *r, int id, const char *path, const fxgl_effect *effect);
// Watches the preset file: a change is reported as a result with preset_changed set and
// a hold on the preset as the worker read it (the host reads no file).
bool fxgl_reloader_watch_preset(fxgl_reloader *r, const char *path);

typedef struct fxgl_reload_result {
    int id;                      // the effect's id; -1 for a preset change
    bool preset_changed;         // the preset file changed (re-read and re-apply it)
    fxgl_effect *effect;         // owned by the caller now; NULL when the compile failed
    char *errors;                // owned; the diagnostics, one per line ("" when none)
    double compile_ms;           // how long the compile took on the worker
    double prewarm_ms;           // how long the prewarm took after it (0: none)
    // With preset_changed: the preset the worker read (fxgl_compiler_hold_preset), owned
    // by the caller: take it (set the field to NULL) or fxgl_reload_result_finish gives
    // it back. NULL when it could not be read (the previous one stays).
    fxgl_held_preset *preset;
    fxgl_compiler *held_by;       // where preset is given back
} fxgl_reload_result;

// Takes one finished result without waiting; false when none is ready.
bool fxgl_reloader_poll(fxgl_reloader *r, fxgl_reload_result *out);
void fxgl_reload_result_finish(fxgl_reload_result *result);

// Recompiles id now (on the worker), as if its file had changed: the reload key.
bool fxgl_reloader_request(fxgl_reloader *r, int id);

// True when nothing is owed: no file changed or requested that is not compiled yet, no
// compile running, no result waiting for fxgl_reloader_poll. A host that swaps a whole
// set of effects at once waits for this (a preset's effects appear together).
bool fxgl_reloader_idle(fxgl_reloader *r);

// Compiles finished since create (successful or not), for tests and statistics.
uint64_t fxgl_reloader_compiles(fxgl_reloader *r);

// Reads the preset at path on the worker and makes it the watched one: reported like an
// edit of the watched preset (a result with preset_changed, after the worker has set it
// on the compile object and asked for the recompiles its definitions need). For a switch
// the read-ahead did not foresee. false when out of memory.
bool fxgl_reloader_read_preset(fxgl_reloader *r, const char *path);

// The read-ahead: the worker reads the presets beside path (fxgl_preset_neighbour, the
// next and the previous), before any compile it owes, and again when a preset of their
// directory is written, created or removed (that directory is watched even with
// no_watch), so that a switch to one of them reads no file on the host's thread. It
// owes the host nothing (fxgl_reloader_idle does not wait for it). Calling it again
// replaces path; NULL stops it. false when out of memory.
bool fxgl_reloader_read_ahead(fxgl_reloader *r, const char *path);
// Bumped by every read-ahead the worker finishes: a host asks for the neighbours again
// when it changed.
unsigned fxgl_reloader_ahead_generation(fxgl_reloader *r);
// The read-ahead's neighbours of path, without waiting: false while the worker has not
// read them for path. next and previous are "" when there is no other preset.
bool fxgl_reloader_neighbours(fxgl_reloader *r, const char *path, char *next, char *previous,
                              size_t size);
// The read-ahead's copy of the preset at path (one of the neighbours, spelt as
// fxgl_reloader_neighbours gives it), handed over: the caller gives it back with
// fxgl_compiler_release_preset on the reloader's compile object. NULL when the read-ahead
// does not hold it (not read yet, taken, unreadable): then fxgl_reloader_read_preset.
fxgl_held_preset *fxgl_reloader_take_ahead(fxgl_reloader *r, const char *path);

// --- timed preset transitions (transition.c) ---
//
// The reference blends from the old preset's values to the new one's over
// PresetTransitionDuration: floats interpolate linearly, everything else (ints, bools)
// switches when the transition starts. A transition is plain data the render thread
// steps once per frame.

typedef struct fxgl_preset_transition {
    double start;                // seconds, the frame clock of fxgl_frame_desc.time
    double duration;             // seconds; 0 switches at once
    size_t count;                // components
    fxgl_preset_base_type type;  // of every component
    fxgl_preset_value from[FXGL_PRESET_MAX_COMPONENTS];
    fxgl_preset_value to[FXGL_PRESET_MAX_COMPONENTS];
} fxgl_preset_transition;

// The value at time now into out; returns true while the transition is still running.
bool fxgl_preset_transition_value(const fxgl_preset_transition *t, double now,
                                  fxgl_preset_value *out);

// Starts a switch for count uniforms of one effect: from[i] holds the value running now,
// to[i] the new preset's (fxgl_preset_apply on uniforms reset to their initial values).
// out[i] gets the transition of uniform i; special and nosave uniforms (which presets do
// not touch) get one that keeps their value.
void fxgl_preset_transition_begin(const fxgl_preset_uniform *from,
                                  const fxgl_preset_uniform *to, size_t count, double now,
                                  double duration, fxgl_preset_transition *out);

#ifdef __cplusplus
}
#endif

#endif // FXGL_EFFECTS_H
