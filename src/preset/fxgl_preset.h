/*
 * fxgl_preset.h - presets, configuration and technique order (src/preset).
 *
 * This module knows nothing about GL and nothing about the FX compiler. It reads and writes
 * ReShade-format INI files (presets, ReShade.ini, fxgl.ini) byte-compatibly with the
 * reference writer, resolves the render order of techniques, layers preprocessor
 * definitions and maps preset values onto an effect's uniforms. The runtime describes each
 * loaded effect with the plain-data structs below (fxgl_preset_effect and friends), filled
 * from the compiled effect module; this module reads and updates them.
 *
 * Nothing here prints: problems in files arrive through a fxgl_preset_sink as
 * `file(line): warning: message`, and the calls go on with defaults. Every object is owned
 * by the caller and freed with its _destroy (which accepts NULL). No global state.
 */
#ifndef FXGL_PRESET_H
#define FXGL_PRESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// --- diagnostics ---

typedef enum fxgl_preset_severity {
    FXGL_PRESET_WARNING,         // something was ignored or defaulted; work goes on
    FXGL_PRESET_ERROR,           // an operation failed (a file could not be read or written)
} fxgl_preset_severity;

typedef struct fxgl_preset_diag {
    fxgl_preset_severity severity; // warning or error
    const char *file;            // path or name the text came from, "" when none
    unsigned line;               // 1-based, 0 when the message is about the whole file
    const char *message;         // lower case, no final period, source text in '...'
} fxgl_preset_diag;

// Receives each diagnostic; the strings are only valid during the call.
typedef void (*fxgl_preset_diag_fn)(void *user, const fxgl_preset_diag *diag);

typedef struct fxgl_preset_sink {
    fxgl_preset_diag_fn fn;      // NULL: diagnostics are dropped
    void *user;                  // passed back to fn
} fxgl_preset_sink;

// Formats `file(line): warning: message` (no line part when line is 0) into buf, always
// NUL-terminated; returns the length it wanted, like snprintf.
int fxgl_preset_diag_format(const fxgl_preset_diag *diag, char *buf, size_t size);

// --- INI documents with ReShade's rules (ini.c) ---
//
// Sections hold keys, keys hold lists of elements (`a,b,,c` is "a" and "b,c"). The global
// section is named "" (NULL is accepted for it everywhere). Names are case-sensitive, as in
// the reference; only the writer's sort ignores case.

#define FXGL_INI_MAX_FILE_SIZE (16u << 20) // bigger files are refused, not truncated

typedef struct fxgl_ini fxgl_ini;

fxgl_ini *fxgl_ini_create(void);
void fxgl_ini_destroy(fxgl_ini *ini);

// Parses text into ini, on top of what it already holds (repeated keys append). name is
// used in diagnostics. Returns false only when out of memory or the text is too big.
bool fxgl_ini_parse(fxgl_ini *ini, const char *text, size_t len, const char *name,
                    const fxgl_preset_sink *sink);

typedef enum fxgl_ini_status {
    FXGL_INI_OK,                 // read
    FXGL_INI_MISSING,            // no such file: ini stays empty, saving creates it
    FXGL_INI_FAILED,             // unreadable, too big or out of memory (diagnostic sent)
} fxgl_ini_status;

// Reads a file. After FXGL_INI_FAILED the document refuses to be saved at all, so content
// that was never read cannot be destroyed.
fxgl_ini_status fxgl_ini_load(fxgl_ini *ini, const char *path, const fxgl_preset_sink *sink);

bool fxgl_ini_has(const fxgl_ini *ini, const char *section, const char *key);

// The elements of a key, or NULL when it does not exist (a key can exist with 0 elements).
// Borrowed: valid until the key is next changed.
const char *const *fxgl_ini_get(const fxgl_ini *ini, const char *section, const char *key,
                                size_t *count);

// Element index of a key as a string ("" when missing), integer or float, with the
// reference's conversions (strtol/strtoul/strtod in the C locale; missing reads as 0).
const char *fxgl_ini_get_string(const fxgl_ini *ini, const char *section, const char *key,
                                size_t index);
long fxgl_ini_get_int(const fxgl_ini *ini, const char *section, const char *key, size_t index);
// bool = nonzero integer or "true"/"True"/"TRUE"
bool fxgl_ini_get_bool(const fxgl_ini *ini, const char *section, const char *key, size_t index);

// Line where the key was first seen (0 if it was set in memory or does not exist).
unsigned fxgl_ini_line(const fxgl_ini *ini, const char *section, const char *key);
const char *fxgl_ini_name(const fxgl_ini *ini); // name or path last parsed, "" if none

// Setters replace all elements of a key (creating section and key). false = out of memory.
bool fxgl_ini_set(fxgl_ini *ini, const char *section, const char *key,
                  const char *const *elements, size_t count);
bool fxgl_ini_set_string(fxgl_ini *ini, const char *section, const char *key,
                         const char *value);
bool fxgl_ini_set_ints(fxgl_ini *ini, const char *section, const char *key,
                       const int32_t *values, size_t count);
bool fxgl_ini_set_uints(fxgl_ini *ini, const char *section, const char *key,
                        const uint32_t *values, size_t count);
// Floats are written like std::to_string: fixed, 6 decimals ("0.500000").
bool fxgl_ini_set_floats(fxgl_ini *ini, const char *section, const char *key,
                         const float *values, size_t count);
bool fxgl_ini_set_bool(fxgl_ini *ini, const char *section, const char *key, bool value);
void fxgl_ini_remove(fxgl_ini *ini, const char *section, const char *key);

// Iteration in stored (first seen) order, for tools; removed keys are skipped.
size_t fxgl_ini_section_count(const fxgl_ini *ini);
const char *fxgl_ini_section_name(const fxgl_ini *ini, size_t index);
size_t fxgl_ini_key_count(const fxgl_ini *ini, const char *section);
const char *fxgl_ini_key_name(const fxgl_ini *ini, const char *section, size_t index);

// The text the reference writer would produce: sections and keys sorted case-insensitively,
// the global section first without a header, a blank line after each section, empty
// sections and empty elements left out, commas inside elements doubled. malloc'd,
// NUL-terminated; *len (if not NULL) gets its length. NULL only when out of memory.
char *fxgl_ini_write(const fxgl_ini *ini, size_t *len);

// Replaces path atomically with fxgl_ini_write's text: a temporary file in the same
// directory, fsync, rename (a symlink is followed: its target is replaced). On any failure
// the old file is left as it was, an error is sent to sink and false returned.
bool fxgl_ini_save(fxgl_ini *ini, const char *path, const fxgl_preset_sink *sink);

// --- key bindings (keys.c) ---
//
// Presets and ReShade.ini store keys as `vk,ctrl,shift,alt`: a Windows virtual-key code
// (1..254, 0 = unbound) and three modifier flags. X11 delivers keysyms; the maps below
// cover letters, digits, F1-F24, the numeric keypad, arrows and the navigation block,
// modifiers, US-layout punctuation (VK_OEM_*), locks, Pause, PrintScreen and media keys.

typedef struct fxgl_preset_key {
    uint32_t vk;                 // Windows virtual-key code, 0 = no key bound
    bool ctrl;                   // Control must be held
    bool shift;                  // Shift must be held
    bool alt;                    // Alt must be held
} fxgl_preset_key;

// X11 keysym (XK_* value) of a virtual-key code, 0 (NoSymbol) when there is none.
uint32_t fxgl_preset_vk_to_keysym(uint32_t vk);
// Virtual-key code of a keysym, 0 when there is none. Both cases of a letter and the
// shifted US symbols (`!` -> '1', `:` -> VK_OEM_1) map to their key.
uint32_t fxgl_preset_keysym_to_vk(uint32_t keysym);
// A short English name ("F5", "Home", "Num 3"), or NULL for unknown codes.
const char *fxgl_preset_vk_name(uint32_t vk);

// Reads `vk,ctrl,shift,alt` elements (missing ones read as 0). Returns false, leaving key
// zeroed, when vk is not a number in 0..255.
bool fxgl_preset_key_parse(const char *const *elements, size_t count, fxgl_preset_key *key);
// Writes "76,0,1,0" into buf (at least 24 bytes).
void fxgl_preset_key_format(const fxgl_preset_key *key, char *buf, size_t size);
// Human-readable form: "Ctrl + Shift + L", "" for an unbound key.
void fxgl_preset_key_describe(const fxgl_preset_key *key, char *buf, size_t size);

// --- effects as this module sees them (plain data, filled by the runtime) ---

#define FXGL_PRESET_MAX_COMPONENTS 16 // a float4x4

typedef enum fxgl_preset_base_type {
    FXGL_PRESET_FLOAT,
    FXGL_PRESET_INT,
    FXGL_PRESET_UINT,
    FXGL_PRESET_BOOL,
} fxgl_preset_base_type;

typedef union fxgl_preset_value {
    float f;                     // FXGL_PRESET_FLOAT
    int32_t i;                   // FXGL_PRESET_INT
    uint32_t u;                  // FXGL_PRESET_UINT and FXGL_PRESET_BOOL (0 or 1)
} fxgl_preset_value;

typedef struct fxgl_preset_uniform {
    const char *name;            // borrowed; the variable's name in the effect
    fxgl_preset_base_type type;  // base type of the components
    unsigned rows;               // vector size or matrix rows, 1 for scalars (0 reads as 1)
    unsigned cols;               // matrix columns, 1 otherwise (0 reads as 1)
    bool special;                // has a `source` annotation: never read or saved
    bool nosave;                 // `nosave` annotation: never read or saved
    const char *ui_type;         // borrowed, NULL if absent; list/combo/radio allow toggle keys
    fxgl_preset_value value[FXGL_PRESET_MAX_COMPONENTS]; // row-major; in: current, out: preset
    fxgl_preset_key toggle_key;  // in/out: `Key<name>` of the effect's section
} fxgl_preset_uniform;

typedef struct fxgl_preset_technique {
    const char *name;            // borrowed; the technique's name
    const char *ui_label;        // borrowed, NULL or "" if absent; used for ordering
    bool forced_on;              // `enabled = true`: always on, the preset cannot disable it
    bool nosave;                 // `nosave`: not written to the preset
    bool hidden;                 // `hidden`: not listed in a user interface
    bool skip_in_screenshot;     // `enabled_in_screenshot = false`
    uint32_t timeout_ms;         // `timeout`: switch off after this long enabled, 0 = never
    bool enabled;                // in/out: runs this frame
    fxgl_preset_key toggle_key;  // in/out: `Key<Name@File.fx>` (legacy `Key<Name>`)
} fxgl_preset_technique;

typedef struct fxgl_preset_effect {
    const char *file;            // borrowed; file name only ("LUT.fx"), the section name
    fxgl_preset_uniform *uniforms; // borrowed array of uniform_count
    size_t uniform_count;
    fxgl_preset_technique *techniques; // borrowed array of technique_count, declaration order
    size_t technique_count;
} fxgl_preset_effect;

// One technique, by position in the effect array and in that effect's technique array.
typedef struct fxgl_preset_technique_ref {
    uint32_t effect;             // index into the effect array
    uint32_t technique;          // index into that effect's techniques
} fxgl_preset_technique_ref;

// --- technique order (order.c) ---

// The render order, written to out (room for every technique of every effect; returns how
// many). Techniques found in list (entries `Name@File.fx`, else legacy bare `Name`) come
// first, by the position of their first matching entry. The rest follow; among them, and
// among techniques tied on one bare entry, each file keeps its declaration order and files
// are merged alphabetically by upper-cased label (ui_label, else name): repeatedly the
// smallest head wins, ties going to the earlier effect in the array.
size_t fxgl_preset_sort_techniques(const char *const *list, size_t list_count,
                                   const fxgl_preset_effect *effects, size_t effect_count,
                                   fxgl_preset_technique_ref *out);

// --- preprocessor definitions ---

typedef struct fxgl_preset_define {
    const char *name;            // macro name, never empty
    const char *value;           // replacement text; "" in a file means "1" once layered
} fxgl_preset_define;

typedef struct fxgl_preset_define_list {
    fxgl_preset_define *items;   // owned array of count
    size_t count;
    char *storage;               // owned; the strings items point into
} fxgl_preset_define_list;

void fxgl_preset_define_list_finish(fxgl_preset_define_list *list);

// Splits `NAME=VALUE` elements at the first '='. Elements with an empty name are skipped.
bool fxgl_preset_parse_defines(const char *const *elements, size_t count,
                               fxgl_preset_define_list *out);

// Layers definition sets, highest priority first (the first definition of a name wins),
// giving valueless ones the value "1". Names in reserved (the runtime's predefined macros,
// e.g. BUFFER_WIDTH) are dropped: the compiler would reject their redefinition.
bool fxgl_preset_layer_defines(const fxgl_preset_define *const *sets, const size_t *counts,
                               size_t set_count, const char *const *reserved,
                               size_t reserved_count, fxgl_preset_define_list *out);

// One `#ifdef NAME` / `#ifndef NAME` the preprocessor met in an active region.
typedef struct fxgl_preset_macro_test {
    const char *name;            // the tested name
    bool defined_by_source;      // a #define of the effect's own files was in force then
    const char *final_value;     // object-like value at the end, NULL if undefined or
                                 // function-like
} fxgl_preset_macro_test;

// The definitions a user interface offers for editing, by the reference's rule: tested
// names that were undefined or predefined when tested, object-like and defined at the end,
// at least 8 characters, not starting with '_', "BUFFER_" or "RESHADE_", not containing
// "INCLUDE_". Unique, sorted by name.
bool fxgl_preset_editable_defines(const fxgl_preset_macro_test *tests, size_t count,
                                  fxgl_preset_define_list *out);

// --- presets (preset.c) ---

typedef struct fxgl_preset fxgl_preset;

typedef struct fxgl_preset_desc {
    const char *path;            // file to read (missing = new, empty preset); NULL = none
    const char *text;            // or: parse this text instead (len bytes)
    size_t len;
    fxgl_preset_sink sink;       // where warnings go
} fxgl_preset_desc;

// NULL only when out of memory. A file that exists but cannot be read gives an empty preset
// that refuses to be saved over it.
fxgl_preset *fxgl_preset_create(const fxgl_preset_desc *desc);
void fxgl_preset_destroy(fxgl_preset *preset);
// How reading its file went: MISSING (a new, empty preset; nothing said), FAILED (said
// to the sink), OK (also when made from text).
fxgl_ini_status fxgl_preset_status(const fxgl_preset *preset);

// True when path ends in .ini or .txt and the file either does not exist (a new preset)
// or has a global `Techniques` key.
bool fxgl_preset_is_preset_path(const char *path);

// The presets beside current, sorted by name (the reference's next/previous list): the
// files of its directory that fxgl_preset_is_preset_path accepts, current included. Fills
// out with the one step places away (wrapping); false when there is no other (or step is
// 0). Reads the directory and every candidate file: not for a presenting thread.
#define FXGL_PRESET_NEIGHBOURS_MAX 512 // files considered
bool fxgl_preset_neighbour(const char *current, int step, char *out, size_t size);

// How many presets the calling thread has read (fxgl_preset_create) so far.
unsigned long fxgl_preset_reads_on_thread(void);

fxgl_ini *fxgl_preset_ini(fxgl_preset *preset); // the document itself, borrowed
const char *fxgl_preset_path(const fxgl_preset *preset); // "" when created from text

// `Techniques` / `TechniqueSorting` elements (NULL and 0 if absent).
const char *const *fxgl_preset_techniques(const fxgl_preset *preset, size_t *count);
const char *const *fxgl_preset_technique_sorting(const fxgl_preset *preset, size_t *count);

// Whether an effect file must be compiled under SkipLoadingDisabledEffects: true unless
// `Techniques` is non-empty, names no technique of file and has no legacy bare names.
bool fxgl_preset_wants_effect(const fxgl_preset *preset, const char *file);

// The preset's definitions: file's section when file is not NULL, else the global ones.
bool fxgl_preset_defines(const fxgl_preset *preset, const char *file,
                         fxgl_preset_define_list *out);
// Replaces them; an empty list removes the key.
bool fxgl_preset_set_defines(fxgl_preset *preset, const char *file,
                             const fxgl_preset_define *defines, size_t count);
// effect section > preset > config > built-ins, valueless = 1, reserved names dropped.
bool fxgl_preset_resolve_defines(const fxgl_preset *preset, const char *file,
                                 const fxgl_preset_define *config, size_t config_count,
                                 const fxgl_preset_define *builtins, size_t builtin_count,
                                 const char *const *reserved, size_t reserved_count,
                                 fxgl_preset_define_list *out);

// The render order: TechniqueSorting, else fallback (ReShade.ini's [GENERAL]
// TechniqueSorting, may be NULL), else Techniques; see fxgl_preset_sort_techniques.
size_t fxgl_preset_order(const fxgl_preset *preset, const char *const *fallback,
                         size_t fallback_count, const fxgl_preset_effect *effects,
                         size_t effect_count, fxgl_preset_technique_ref *out);

// Applies the preset to the effects: enables techniques listed in `Techniques` (or forced
// on), reads technique and uniform toggle keys, and overwrites uniform values it has (the
// caller resets them to their initial values first, as the reference does). Skips special
// and nosave uniforms. Bad values are reported and leave the value as it was; keys of an
// effect's section that name none of its variables are reported (and kept). Returns false
// when `Techniques` names something no effect has (the preset is incomplete).
bool fxgl_preset_apply(const fxgl_preset *preset, fxgl_preset_effect *effects,
                       size_t effect_count);

// Reads one uniform's value (and toggle key) from file's section, as fxgl_preset_apply
// does, with its warnings. Returns false, leaving u as it was, when the section has no
// value for it or it is special or nosave. Performance mode uses this to turn preset
// values into compile-time constants before any effect exists in the runtime.
bool fxgl_preset_read_uniform(const fxgl_preset *preset, const char *file,
                              fxgl_preset_uniform *u);

// Records the effects' state in the document like the reference's save: Techniques,
// TechniqueSorting (when it existed or differs from Techniques), technique toggle keys,
// and for each effect with an enabled or key-bound technique its uniforms and uniform keys.
// order is the render order (fxgl_preset_order). nosave techniques, special and nosave
// uniforms are skipped; everything else in the document is kept. false = out of memory.
bool fxgl_preset_capture(fxgl_preset *preset, const fxgl_preset_effect *effects,
                         size_t effect_count, const fxgl_preset_technique_ref *order,
                         size_t order_count);

// Refuses later saves with reason (performance mode: values are compile-time constants).
// NULL allows saving again.
void fxgl_preset_lock(fxgl_preset *preset, const char *reason);

// Writes the document atomically to path (NULL: the path it was read from). Refused, with
// an error to the sink, when locked, when no path is known, when the file could not be read
// at load time, or when it changed on disk since it was read.
bool fxgl_preset_save(fxgl_preset *preset, const char *path);

// --- configuration (config.c) ---
//
// fxgl.ini uses ReShade.ini's sections and keys where they exist. Files are looked up in
// this order, and a key is taken from the first file that has it:
//   1. $FXGL_CONFIG
//   2. $XDG_CONFIG_HOME/fxgl/<program name>.conf (the executable's file name; same format)
//   3. <program dir>/fxgl.ini, then <program dir>/ReShade.ini
//   4. $XDG_CONFIG_HOME/fxgl/fxgl.ini (default ~/.config/fxgl/fxgl.ini)
//   5. <each of $XDG_CONFIG_DIRS>/fxgl/fxgl.ini (default /etc/xdg), then /etc/fxgl/fxgl.ini
// Relative paths in a file are relative to that file's directory; `\` reads as `/`.
// Environment variables then override (see fxgl_config_load for the list).

typedef struct fxgl_config_env {
    const char *const *envp;     // "NAME=value" strings, NULL-terminated (like environ)
    const char *program_dir;     // directory of the executable, NULL if unknown
    const char *program_name;    // the executable's file name ("glxgears"), NULL if unknown
} fxgl_config_env;

typedef enum fxgl_config_log_level {
    FXGL_CONFIG_LOG_ERROR,
    FXGL_CONFIG_LOG_WARN,        // default (the library's: a player sees warnings and one notice)
    FXGL_CONFIG_LOG_INFO,
    FXGL_CONFIG_LOG_DEBUG,
} fxgl_config_log_level;

typedef struct fxgl_config_path {
    char *path;                  // owned; a directory
    bool recursive;              // written with a trailing `**`: every sub-directory too
} fxgl_config_path;

typedef struct fxgl_config {
    char **files;                // owned; the files read, highest priority first
    size_t file_count;
    char *save_path;             // owned; where a changed configuration would be written
    fxgl_config_path *effect_paths; // owned; [GENERAL] EffectSearchPaths
    size_t effect_path_count;
    fxgl_config_path *texture_paths; // owned; [GENERAL] TextureSearchPaths
    size_t texture_path_count;
    char *preset_path;           // owned; [GENERAL] PresetPath (StartupPresetPath wins)
    char *preset_origin;         // owned; what chose it: "PresetPath in FILE:LINE",
                                 // "FXGL_PRESET (fxgl --preset)", "the installed default",
                                 // "the default place"; NULL when no preset
    char *cache_path;            // owned; [GENERAL] IntermediateCachePath; NULL: no cache
                                 // (FXGL_CACHE_DIR=off)
    bool performance_mode;       // [GENERAL] PerformanceMode
    bool skip_disabled_effects;  // [GENERAL] SkipLoadingDisabledEffects
    uint32_t transition_ms;      // [GENERAL] PresetTransitionDuration, default 1000
    fxgl_preset_define_list defines; // [GENERAL] PreprocessorDefinitions
    char **technique_sorting;    // owned; [GENERAL] TechniqueSorting (fallback order)
    size_t technique_sorting_count;
    fxgl_preset_key key_effects; // [INPUT] KeyEffects: effects on/off, default Home (0x24)
    fxgl_preset_key key_reload;  // [INPUT] KeyReload
    fxgl_preset_key key_next_preset; // [INPUT] KeyNextPreset
    fxgl_preset_key key_previous_preset; // [INPUT] KeyPreviousPreset
    fxgl_preset_key key_screenshot; // [INPUT] KeyScreenshot, default PrintScreen
    fxgl_preset_key key_performance_mode; // [INPUT] KeyPerformanceMode
    fxgl_preset_key key_overlay; // [INPUT] KeyOverlay: the editing overlay, default Home (0x24)
    float font_scale;            // [OVERLAY] FontScale: the overlay's text size factor, default 1
    char *font_path;             // owned; [STYLE] Font: a TrueType file, NULL: the default face
    bool force_shortcut_modifiers; // [INPUT] ForceShortcutModifiers, default true
    fxgl_config_log_level log_level; // [LOG] Level: error, warn, info, debug (or 0-3)
    char *log_file;              // owned; [LOG] File, NULL = stderr
    // [DEPTH] (then [DEPTH:<program name>] over it): the FBO depth provider's choice
    bool depth_copy_before_clears; // DepthCopyBeforeClears (FXGL_DEPTH_BEFORE_CLEAR=N|off)
    uint32_t depth_clear_index;  // DepthCopyAtClearIndex: before the N-th clear, 0 every one
    bool depth_aspect;           // UseAspectRatioHeuristics, default on (FXGL_DEPTH_ASPECT)
    bool depth_by_vertices;      // SelectByVertices (FXGL_DEPTH_BY_VERTICES)
    char depth_selected[64];     // SelectedBuffer, "" automatic (FXGL_DEPTH_SELECT)
} fxgl_config;

// Writes the [DEPTH:<program>] keys of config (the FBO depth provider's
// options) into config->save_path: read, changed, written to a temporary file
// and renamed, every other key kept. false when it cannot be written.
bool fxgl_config_save_depth(const fxgl_config *config, const char *program,
                            const fxgl_preset_sink *sink);

// Finds, reads and layers the files, then applies the environment:
//   FXGL_CONFIG            the first file looked at
//   FXGL_PRESET            PresetPath; a bare name (no '/', no .ini, no such file here)
//                          is $XDG_DATA_HOME/fxgl/presets/NAME.ini, else the installed
//                          presets/NAME.ini ("default": the installed default preset)
//   FXGL_DATA_DIR          the installed data directory (default: the build's
//                          $(pkgdatadir)); its shaders/ and textures/ end the search paths
//   FXGL_EFFECT_PATHS      EffectSearchPaths, ':'-separated, `dir/**` = recursive
//   FXGL_TEXTURE_PATHS     TextureSearchPaths, likewise
//   FXGL_PERFORMANCE_MODE  PerformanceMode (0/1)
//   FXGL_SKIP_DISABLED     SkipLoadingDisabledEffects (0/1)
//   FXGL_DEFINES           PreprocessorDefinitions, `A=1,B` (replaces the files' list)
//   FXGL_CACHE_DIR         IntermediateCachePath
//   FXGL_LOG               log level;  FXGL_LOG_FILE  log file
// Default search paths: <program dir>, $XDG_DATA_HOME/fxgl/shaders/** (textures/**),
// then the installed shaders/** (textures/**); earlier entries win. With no preset named
// anywhere and no ReShadePreset.ini at the default place, the installed default preset.
// Missing files are not errors; defaults are used. false only when out of memory.
bool fxgl_config_load(fxgl_config *config, const fxgl_config_env *env,
                      const fxgl_preset_sink *sink);
void fxgl_config_finish(fxgl_config *config);

// The candidate files in lookup order (existing or not), for diagnostics and tests.
// Returns how many were written to out (malloc'd strings, freed by the caller).
size_t fxgl_config_candidates(const fxgl_config_env *env, char **out, size_t max);

// One search path as written on a command line or in a file: `\` reads as `/`, a trailing
// `**` sets recursive, relative paths are relative to base (the working directory when
// NULL). out->path is malloc'd. false only when out of memory.
bool fxgl_config_path_parse(const char *raw, const char *base, fxgl_config_path *out);

// --- search paths (search.c) ---
//
// EffectSearchPaths and TextureSearchPaths as ReShade reads them, for every consumer (the
// preloaded library, fxc, fxgl-render, fxgl --list-effects): a path with a trailing `**` is
// its folder and every folder below it (each level sorted by name, depth first, hidden
// folders skipped, at most 16 levels and 4096 folders); without it, the folder alone.
// Lookups take the first folder of the expanded list that has the name.

typedef struct fxgl_search {
    char **dirs;                 // owned, NULL-terminated; in search order, each once
    size_t count;
} fxgl_search;

// Expands paths (fxgl_config's effect_paths or texture_paths). false = out of memory.
bool fxgl_search_expand(fxgl_search *out, const fxgl_config_path *paths, size_t count);
// The same from strings as a tool's options give them ("DIR", "DIR/**", "DIR\**").
bool fxgl_search_expand_raw(fxgl_search *out, const char *const *raw, size_t count);
void fxgl_search_finish(fxgl_search *s);
// The first file called name (which may have folders: "Textures/lut.png"; `\` reads as
// `/`) in the folders, exactly, else ignoring case; an absolute name only itself.
// malloc'd path, or NULL when no folder has it.
char *fxgl_search_find(const fxgl_search *s, const char *name);
// Every *.fx file of the folders, the first of each file name only (the one loaded), each
// folder's files sorted by name. *out is malloc'd and NULL-terminated (free each, then it).
size_t fxgl_search_effects(const fxgl_search *s, char ***out);
// "dir1, dir2, ..." for a message, cut at a whole entry with "... (N more)".
void fxgl_search_describe(const fxgl_search *s, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif // FXGL_PRESET_H
