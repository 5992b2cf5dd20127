/*
 * fxgl_gl.h - the public face of the GL runtime (src/gl).
 *
 * src/gl turns effect modules into GL objects and runs them inside whatever
 * GL or GLES context it is given. It reaches GL only through a glad context
 * (glad's multi-context mode) filled from the caller's GetProcAddress, so it
 * never links libGL and never calls a hooked entry point by accident.
 *
 * This first part loads the dispatch table and describes the context: API,
 * version, profile, and whether it meets the runtime's minimum.
 */
#ifndef FXGL_GL_H
#define FXGL_GL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"

#ifdef __cplusplus
extern "C" {
#endif

struct GladGLContext; // glad's dispatch table (generated into the build tree)

typedef enum fxgl_api {
    FXGL_API_GL,                 // desktop OpenGL
    FXGL_API_GLES,               // OpenGL ES
} fxgl_api;

// Minimum versions: compute shaders need GL 4.3; ES 3.0 runs pixel passes.
#define FXGL_GL_MIN_MAJOR 4
#define FXGL_GL_MIN_MINOR 3
#define FXGL_GLES_MIN_MAJOR 3
#define FXGL_GLES_MIN_MINOR 0

typedef struct fxgl_gl_info {
    fxgl_api api;                // what the context is
    int major;                   // context version
    int minor;
    bool core_profile;           // desktop: core profile (false: compatibility)
    bool meets_minimum;          // false: the runtime passes frames through untouched
    int glsl_version;            // e.g. 450 or 320 (ES), from the version numbers
    bool has_debug;              // KHR_debug (groups and labels)
    bool has_timer_query;        // GL 3.3 core, or EXT_disjoint_timer_query on ES
    bool has_clip_control;       // GL 4.5 / ARB_clip_control / EXT_clip_control
    bool has_compute;            // GL 4.3 / ES 3.1
    bool has_anisotropy;         // ARB/EXT_texture_filter_anisotropic
    bool has_image_formats;      // ES: GL_NV_image_formats (R8, RG16F... storages)
    bool is_software;            // llvmpipe/softpipe/swrast: timings are not GPU figures
    char renderer[128];          // GL_RENDERER, truncated
    char version[128];           // GL_VERSION, truncated
} fxgl_gl_info;

// Where GL entry points come from: the real glXGetProcAddress or
// eglGetProcAddress (or dlsym of a loaded libGL), never a hook.
typedef void *(*fxgl_gl_proc_loader)(void *user, const char *name);

// Fills gl for the context current on this thread and describes it in info.
// The API is asked from the context (GL_VERSION), not assumed. Returns false
// with reason filled when the context is unusable (no GL_VERSION, load failed).
bool fxgl_gl_load(struct GladGLContext *gl, fxgl_gl_info *info, fxgl_gl_proc_loader load,
                  void *user, char *reason, size_t reason_size);

// The GLSL target effects are compiled to for a context: the newest one the generator
// writes that the context accepts (GLSL 4.50 from GL 4.5, else 4.30; ES 3.20, 3.10, 3.00).
// Every host asks here, so a context gets the same GLSL whoever compiles for it.
fxgl_glsl_target fxgl_gl_glsl_target(const fxgl_gl_info *info);

// --- input ---
//
// What the host's input looked like at the start of a frame, for toggle keys
// and the key/mouse special uniforms. src/interpose fills it (X11 through a
// private display connection, Wayland through the program's own display);
// tests fill it by hand. Keys are Windows virtual-key codes, as presets and
// `keycode` annotations write them.

#define FXGL_INPUT_KEYS 256
#define FXGL_INPUT_BUTTONS 5         // left, right, middle, X1, X2 (the reference's order)

typedef struct fxgl_input {
    uint8_t key_down[FXGL_INPUT_KEYS];     // 1 while held
    uint8_t key_pressed[FXGL_INPUT_KEYS];  // 1 in the first frame it is seen down
    uint8_t key_released[FXGL_INPUT_KEYS]; // 1 in the first frame it is seen up again
    uint8_t button_down[FXGL_INPUT_BUTTONS];
    uint8_t button_pressed[FXGL_INPUT_BUTTONS];
    uint8_t button_released[FXGL_INPUT_BUTTONS];
    float mouse_x, mouse_y;      // pixels from the drawable's top-left corner
    float mouse_dx, mouse_dy;    // pixels moved since the previous frame
    float wheel_delta;           // wheel steps since the previous frame (up positive)
    bool has_focus;              // the drawable has keyboard focus
} fxgl_input;


// --- the effect runtime ---
//
// One fxgl_runtime per context share group, created and used on the thread
// whose context is current at swap time (sokol: objects baked once, a tiny
// per-frame path). fxgl_runtime_add_effect only records an effect (it may be
// called from a worker thread once compilation, which is GL-free, is done);
// the effect's GL objects are created at the start of the next frame, in the
// frame thread. A frame captures the application's state (gl_state),
// copies the framebuffer in flipped, runs every enabled technique in order,
// copies the result out flipped and restores the state. It allocates
// nothing, compiles nothing and issues no redundant GL call.
//
// Effects that fail to load are skipped with a reason (status per effect
// and technique); the others run.

typedef struct fxgl_runtime fxgl_runtime;

// Same order as the interposer's fxgl_log_level, so the sink can cast.
typedef enum fxgl_gl_log_level {
    FXGL_GL_LOG_ERROR,
    FXGL_GL_LOG_WARN,
    FXGL_GL_LOG_INFO,
    FXGL_GL_LOG_DEBUG,
} fxgl_gl_log_level;

typedef void (*fxgl_runtime_log_fn)(void *user, fxgl_gl_log_level level, const char *message);

// A context in the frame context's share group for the runtime's compile thread: the
// specialised programs are compiled and linked there, so the frame thread never compiles
// after load. make_current is called once on that thread before its first GL call and
// release once when it ends (runtime destroy); both may be NULL when the host makes
// nothing current (the context is then assumed current on no other thread).
typedef struct fxgl_runtime_worker {
    struct GladGLContext *gl;    // the worker context's entry points; NULL: no worker
    bool (*make_current)(void *user);
    void (*release)(void *user);
    void *user;
    bool has_drawable;           // the worker context is current with a drawable of the
                                 // program's framebuffer config (its warm-up draws for
                                 // passes into the program's framebuffer go there)
} fxgl_runtime_worker;

// The objects the runtimes of one GL share group share (src/gl/share.c): linked programs
// and textures filled from images. One per share group, made by whoever knows the groups
// (src/interpose), handed to each runtime of the group in fxgl_runtime_desc.share. Thread-
// safe. Dropping the last reference frees CPU memory only: the GL objects then die with
// the group (call it after the group's last context is gone, or with its runtimes
// destroyed on a current context of the group).
typedef struct fxgl_gl_share fxgl_gl_share;
fxgl_gl_share *fxgl_gl_share_create(void);
void fxgl_gl_share_ref(fxgl_gl_share *share);
void fxgl_gl_share_unref(fxgl_gl_share *share);

// What one runtime made itself and what it took from its share group, since creation.
typedef struct fxgl_runtime_share_stats {
    uint32_t programs_linked;    // programs this runtime compiled and linked
    uint32_t programs_shared;    // programs taken from another runtime of the group
    uint32_t textures_created;   // effect textures this runtime created (targets included)
    uint32_t images_uploaded;    // of those, filled from an image file
    uint32_t images_shared;      // image textures taken from the group: nothing uploaded
} fxgl_runtime_share_stats;

enum {
    FXGL_COMPUTE_ENV = 0,        // FXGL_COMPUTE from the environment
    FXGL_COMPUTE_AUTO,           // measured per pass in the first frames: the faster one
    FXGL_COMPUTE_OFF,            // always fragment
    FXGL_COMPUTE_ON,             // compute wherever it gives the same pixels
};

typedef struct fxgl_runtime_desc {
    fxgl_gl_share *share;        // the share group's objects (a reference is taken); NULL:
                                 // this runtime makes and owns everything
    fxgl_runtime_log_fn log;     // NULL: messages are dropped (src/gl never prints)
    void *log_user;
    const char *const *texture_search_paths; // for `source=` images, after the effect's directory
    size_t texture_search_path_count;
    int texture_units;           // units a pass may use; 0: 16 (clamped to the context)
    bool no_timer_queries;       // leave GPU timing off even where the context has it
    bool no_debug_groups;        // no KHR_debug groups around techniques and passes
    bool no_depth_copy;          // the built-in DEPTH provider stays off
    bool no_image_formats;       // GLES: store as if GL_NV_image_formats were missing (tests)
    bool no_direct_pass;         // the last back-buffer pass never draws straight into the
                                 // program's framebuffer: a copy out ends every frame
    bool interpolated_varyings;  // keep every varying as the rasteriser interpolates it,
                                 // also fullscreen texcoords that fxgl would compute
                                 // exactly (docs/runtime.md, "Exact fullscreen varyings")
    uint32_t random_seed;        // seed of the `random`/`pingpong` generator; 0: 1
    // Pixel passes as compute dispatches where that gives the same pixels
    // (docs/runtime.md, "Compute passes"): FXGL_COMPUTE_ENV reads the
    // environment's FXGL_COMPUTE (0, 1, auto; unset: auto).
    int compute_passes;          // FXGL_COMPUTE_*
    // Specialised programs (src/gl/variant.c): with a worker context, every pass runs a
    // program with the current user values compiled in as constants, and the editable
    // program (values read from the uniform block) only while values change. NULL gl:
    // no worker, passes always run the editable program (the behaviour before).
    fxgl_runtime_worker worker;
    bool no_specialise;          // never specialise (FXGL_SPECIALISE=0 in the hosts)
    double specialise_settle_s;  // no value change for this long re-specialises; 0: 0.5
    bool no_warm_up;             // the worker does not draw new specialised programs once
                                 // before handing them over (bench/variant_cost --no-warm-up)
    // Where linked programs are kept between runs (glGetProgramBinary), used where the
    // driver offers binary formats; borrowed, it must outlive the runtime. NULL: none.
    const struct fxgl_program_cache *program_cache;
} fxgl_runtime_desc;

// A store of program binaries under 64-bit keys (src/effects/diskcache.c has one). The
// runtime computes the key from the GLSL of the program's stages and GL_VENDOR,
// GL_RENDERER and GL_VERSION; a binary the driver refuses is compiled again and replaced.
typedef struct fxgl_program_cache {
    // The bytes (malloc'd; the runtime frees them) and format stored under key, or NULL.
    void *(*load)(void *user, uint64_t key, uint32_t *format, size_t *len);
    void (*store)(void *user, uint64_t key, uint32_t format, const void *data, size_t len);
    void *user;
} fxgl_program_cache;

// How the runtime made its programs so far (src/gl/progcache.c).
typedef struct fxgl_program_counts {
    unsigned shader_compiles;    // glCompileShader calls
    unsigned binary_hits;        // programs made from a cached binary
    unsigned binary_misses;      // programs linked from source with a cache present
    unsigned binary_rejected;    // cached binaries the driver refused (then compiled)
    int binary_formats;          // GL_NUM_PROGRAM_BINARY_FORMATS (-1: not asked yet)
} fxgl_program_counts;
fxgl_program_counts fxgl_runtime_program_counts(const fxgl_runtime *rt);

// NULL when the context is below the minimum or memory runs out (reason in
// the log). gl and info must stay valid for the runtime's lifetime.
fxgl_runtime *fxgl_runtime_create(struct GladGLContext *gl, const fxgl_gl_info *info,
                                  const fxgl_runtime_desc *desc);
// The context the runtime was created on must be current. Accepts NULL.
void fxgl_runtime_destroy(fxgl_runtime *rt);
// For a runtime whose context was destroyed while not current: no GL call. Lets go of
// what it held of its share group (the group's other runtimes keep using it); its own
// GL objects died with its context, its CPU memory is not freed (no GL-free path
// through it). Accepts NULL.
void fxgl_runtime_abandon(fxgl_runtime *rt);
const fxgl_runtime_share_stats *fxgl_runtime_share_stats_get(const fxgl_runtime *rt);

// Records an effect (borrowed: it must outlive the runtime) under a file name
// such as "LUT.fx" (the preset's section name; NULL: the effect's path).
// Its techniques join the order after those already known, all enabled.
// Thread-safe against fxgl_runtime_frame. Returns its index, -1 when out of memory.
int fxgl_runtime_add_effect(fxgl_runtime *rt, const fxgl_effect *effect,
                            const char *file);

// Replaces effect index by a new version of it (a recompile after an edit), in whole.
// Call on the frame thread between frames, with the runtime's context current. The new
// version's GL objects are built first; only if that works does it take the old one's
// place, keeping its index, file name, technique order and enabled flags (by technique
// name) and the values of uniforms that kept their name and type. Returns true when it
// was swapped in: the old fxgl_effect is no longer used and may be destroyed. False (with
// reason) leaves the old version running: effect is not used and may be destroyed.
// (src/gl/replace.c)
bool fxgl_runtime_replace_effect(fxgl_runtime *rt, size_t index, const fxgl_effect *effect,
                                 char *reason, size_t reason_size);

// Builds effect on the CURRENT context - a private one, on a worker thread - and runs every
// technique once with each draw scissored away (a dispatch shrunk to one group), then
// throws it all away. Nothing is drawn, but the driver compiles each program with the
// state its passes draw with, and a driver with an on-disk shader cache (Mesa's, which
// llvmpipe uses for its JIT code; NVIDIA's) keeps the result. The render thread that
// then builds the same effect finds compile, link and first draw in the cache: a live
// reload no longer stalls a frame on llvmpipe's first-draw compile. Sizes are the frame
// the effect was compiled for. false (with reason) when the effect does not load here.
// (src/gl/prewarm.c)
bool fxgl_prewarm_effect(struct GladGLContext *gl, const fxgl_gl_info *info,
                         const fxgl_effect *effect, int width, int height, char *reason,
                         size_t reason_size);
// The same with a program cache (NULL: none): the worker's build then stores the
// programs' binaries, or takes them from the cache, so that the render thread's build
// makes its programs from binaries instead of compiling.
bool fxgl_prewarm_effect_cached(struct GladGLContext *gl, const fxgl_gl_info *info,
                                const fxgl_effect *effect, int width, int height,
                                const struct fxgl_program_cache *programs, char *reason,
                                size_t reason_size);

typedef enum fxgl_status {
    FXGL_STATUS_PENDING,         // recorded, GL objects not created yet
    FXGL_STATUS_READY,           // runs when enabled
    FXGL_STATUS_FAILED,          // skipped; reason says why
} fxgl_status;

size_t fxgl_runtime_effect_count(fxgl_runtime *rt);
// Status of effect e, with its reason ("" when ready); reason may be NULL.
fxgl_status fxgl_runtime_effect_status(fxgl_runtime *rt, size_t e, const char **reason);

#define FXGL_TIMING_FRAMES 60        // moving-average window of the timings

typedef struct fxgl_technique_info {
    size_t effect;               // index of its effect
    size_t technique;            // index in that effect's techniques
    const char *name;            // technique name
    const char *file;            // its effect's file name
    bool enabled;                // set by fxgl_runtime_set_enabled
    fxgl_status status;          // FAILED: effect failed, or the technique needs what the
                                 // context lacks (compute)
    const char *reason;          // "" when fine
    const char *warning;         // "" or what loaded but is wrong: "texture 'T' (t.png) missing"
    uint64_t frames_run;         // frames it ran in
    double cpu_ms;               // 60-frame average CPU time of the technique
    double gpu_ms;               // 60-frame average GPU time, 0 without timer queries
    size_t pass_count;           // passes of the technique
} fxgl_technique_info;

// True when a loaded effect has a uniform fed from the keyboard or mouse
// (source = "key", "mousepoint", "mousedelta", "mousebutton", "mousewheel").
bool fxgl_runtime_reads_input(const fxgl_runtime *rt);
// Techniques of every effect in render order; index i < fxgl_runtime_technique_count.
size_t fxgl_runtime_technique_count(fxgl_runtime *rt);
bool fxgl_runtime_technique(fxgl_runtime *rt, size_t i, fxgl_technique_info *info);
// 60-frame average GPU time of pass p of the technique at order position i (ms).
double fxgl_runtime_pass_gpu_ms(fxgl_runtime *rt, size_t i, size_t p);
// Varying components that pass p of the technique at order position i
// computes exactly from the pixel position instead of interpolating them: a
// loaded graphics pass whose vertex shader was proved to cover the viewport
// with those components equal to pixel position / viewport size (a
// fullscreen texcoord). 0 when none, or not loaded. A compute implementation
// of such a pass would take them from the invocation id.
int fxgl_runtime_pass_exact_varyings(fxgl_runtime *rt, size_t i, size_t p);
// True when those components of pass p are left to the rasteriser because
// its values are the exact ones: the standard fullscreen triangle on
// llvmpipe with the first vertex provoking, which is lavapipe's (the
// reference's) own arithmetic, checked at load (docs/runtime.md). False
// where the pixel shader computes them, or none are exact.
bool fxgl_runtime_pass_exact_rasterised(fxgl_runtime *rt, size_t i, size_t p);
// How pass p of the technique at order position i runs (docs/runtime.md,
// "Compute passes"): FXGL_PASS_* below.
enum {
    FXGL_PASS_FRAGMENT_ONLY = 0, // no compute form (or compute passes are off)
    FXGL_PASS_MEASURING,         // the first frames: both forms, timed (a pass that the
                                 // frame draws straight into the program's framebuffer
                                 // runs fragment and waits here while it is that pass)
    FXGL_PASS_AS_FRAGMENT,       // has a compute form; fragment decided (or forced, or it
                                 // was the direct pass in its last frame)
    FXGL_PASS_AS_COMPUTE,        // ran as a compute dispatch in its last frame
    FXGL_PASS_NATIVE_COMPUTE,    // the effect's own compute pass
};
int fxgl_runtime_pass_compute(fxgl_runtime *rt, size_t i, size_t p);
// The latest GPU time sample (ms) of the technique at order position i
// (p == FXGL_WHOLE_TECHNIQUE) or of its pass p, for per-frame statistics
// (the benchmarks' figures). Timer results arrive a few frames late (a query ring, never
// waited for), so the sample belongs to a recent frame, not this one; -1
// when no sample exists yet or timer queries are off.
#define FXGL_WHOLE_TECHNIQUE ((size_t)-1)
double fxgl_runtime_last_gpu_ms(fxgl_runtime *rt, size_t i, size_t p);
// Frames read their timer queries back 4 frames later, never waiting. A
// host that stops (a headless run, a dump) calls this on the runtime's
// context to take in every result already available (after glFinish: all).
void fxgl_runtime_collect_timings(fxgl_runtime *rt);

// Sets the render order (a preset's TechniqueSorting resolved by src/preset).
// Techniques not listed keep their relative order after the listed ones.
bool fxgl_runtime_set_order(fxgl_runtime *rt, const fxgl_technique_ref *order, size_t count);
// Enables or disables one technique; techniques with an `enabled` annotation stay on.
bool fxgl_runtime_set_enabled(fxgl_runtime *rt, size_t effect, size_t technique, bool enabled);
// Writes a uniform's value (components converted to its type; matrices
// row-major; arrays fill element after element). Special uniforms are the
// runtime's and are refused. Only the changed bytes are uploaded next frame.
bool fxgl_runtime_set_uniform(fxgl_runtime *rt, size_t effect, const char *name,
                              const fxgl_value *value);
// The same for the effect's uniform by its index in fxgl_effect.uniforms: what a host
// that holds the module (the effect set, a preset's view) uses, with no name to look up.
bool fxgl_runtime_set_uniform_at(fxgl_runtime *rt, size_t effect, size_t uniform,
                                 const fxgl_value *value);

// The runtime as an effect set's back end (src/effects: fxgl_effect_ops): add, replace,
// set a value by uniform index, enable, order, each the fxgl_runtime_ call of that name,
// with the runtime as the set's back-end pointer.
struct fxgl_effect_ops;
const struct fxgl_effect_ops *fxgl_runtime_effect_ops(void);

// --- specialised and editable programs (src/gl/variant.c) ---

typedef enum fxgl_pass_variant {
    FXGL_VARIANT_NONE = -1,      // no such pass, or not loaded
    FXGL_VARIANT_UNIFORM = 0,    // the editable program: user values from the uniform block
    FXGL_VARIANT_SPECIALISED = 1, // user values compiled in as constants
} fxgl_pass_variant;

// Which program pass p of technique t of effect e runs next frame.
fxgl_pass_variant fxgl_runtime_pass_variant(fxgl_runtime *rt, size_t e, size_t t, size_t p);

typedef struct fxgl_variant_stats {
    uint64_t frame_compiles;     // glCompileShader + glLinkProgram calls on the frame thread
                                 // (effect loads; a host checks it stays flat afterwards)
    uint64_t worker_compiles;    // the same calls on the worker context
    uint64_t specialised;        // specialised program sets swapped in
    uint64_t to_uniform;         // switches to the editable programs (a value changed)
    uint64_t discarded;          // worker results dropped (values changed meanwhile)
    uint64_t jobs_in_flight;     // effects the worker is compiling for now
    double worker_ms;            // worker time compiling + linking + warming up, in all
    double worker_warm_ms;       // of which the warm-up draws (and their glFinish)
    uint64_t warm_draws;         // warm-up draws and dispatches the worker made
    size_t uniform_programs;     // editable programs kept linked
    size_t specialised_programs; // specialised programs alive
} fxgl_variant_stats;

void fxgl_runtime_variant_stats(fxgl_runtime *rt, fxgl_variant_stats *out);
// Ends the compile thread (it releases the worker context on its own thread; waits for a
// compile in progress). For a host that abandons a runtime whose context is gone and then
// destroys the worker context; fxgl_runtime_destroy does it too. Passes keep running the
// programs they have. Any thread that owns the runtime.
void fxgl_runtime_stop_worker(fxgl_runtime *rt);

// --- texture semantics ---
//
// COLOR is built in. Other semantics are bound to textures registered here
// (a GL texture name of the runtime's share group, TEXTURE_2D); an
// unregistered semantic reads a 1x1 zero texture. DEPTH comes from the depth
// provider: the built-in one copies the source framebuffer's depth with the
// same flip as colour; a registered DEPTH texture replaces it.
bool fxgl_runtime_set_semantic(fxgl_runtime *rt, const char *semantic, uint32_t texture);

// --- DEPTH from the program's own depth attachments (src/gl/fbo_depth.c) ---
//
// The host (src/interpose/depth.c) watches which depth textures and
// renderbuffers the program draws into and names one; the runtime copies its
// depth, top-down, into a texture of its own that DEPTH then reads instead of
// the default framebuffer's copy. Multisampled images are resolved by a blit
// (one sample per pixel: depth is never averaged). Every call here saves and
// restores the GL state it touches, so it may run in the middle of the
// program's frame, on the runtime's context.

typedef struct fxgl_depth_source {
    uint32_t name;               // the program's texture or renderbuffer name
    bool renderbuffer;           // name is a renderbuffer
    uint32_t target;             // textures: the target attached (a cube face, an array
                                 // target, GL_TEXTURE_2D_MULTISAMPLE...), 0 when unknown
    int level;                   // textures: mip level
    int layer;                   // array, 3D and cube-array slice; layered attachments: 0
} fxgl_depth_source;

typedef struct fxgl_depth_desc {
    int width;
    int height;
    int samples;                 // 0: single-sampled
    uint32_t format;             // the sized format the copy takes (GL_DEPTH24_STENCIL8...)
    bool stencil;                // the image carries stencil (not copied)
} fxgl_depth_desc;

// True when a loaded effect binds DEPTH.
bool fxgl_runtime_uses_depth(const fxgl_runtime *rt);
// Size, samples and copy format of src from GL; false when it is gone, not a
// depth image, or cannot be asked (a texture's size on GLES 3.0).
bool fxgl_depth_describe(fxgl_runtime *rt, const fxgl_depth_source *src, fxgl_depth_desc *out);
// Copies src (described by desc) into the runtime's DEPTH; from now on DEPTH
// reads these copies. False when src is gone (DEPTH keeps its last copy).
bool fxgl_depth_copy(fxgl_runtime *rt, const fxgl_depth_source *src, const fxgl_depth_desc *desc);
// DEPTH reads the default framebuffer's copy again.
void fxgl_depth_use_default(fxgl_runtime *rt);

typedef struct fxgl_frame_desc {
    int width;                   // size of the framebuffer the frame reads and writes
    int height;
    uint32_t framebuffer;        // 0: the default framebuffer (GL_BACK); else an FBO
    const fxgl_input *input;     // NULL: no input this frame
    double time;                 // seconds on a monotonic clock (frametime, timer, pingpong)
    bool screenshot;             // `screenshot` uniforms; `enabled_in_screenshot=false` skipped
    bool overlay_open;           // `overlay_open`
    int overlay_active;          // `overlay_active`: 1-based variable index, 0 none
    int overlay_hovered;         // `overlay_hovered`
    const int *date;             // NULL: local time; else year, month, day, seconds of day
} fxgl_frame_desc;

// What the last frame cost (sokol's frame stats; the benchmarks print them).
typedef struct fxgl_runtime_stats {
    uint32_t gl_calls;           // every GL call of the frame, state capture/restore included
    uint32_t pass_calls;         // GL calls issued by passes (bind + draw, markers, queries)
    uint32_t state_calls;        // capture + defaults + restore
    uint32_t draw_calls;
    uint32_t dispatches;
    uint32_t framebuffer_binds;
    uint32_t texture_binds;
    uint32_t sampler_binds;
    uint32_t program_binds;
    uint32_t barriers;           // glMemoryBarrier calls
    uint32_t uniform_uploads;    // buffer updates
    uint32_t uniform_bytes;      // bytes uploaded
    uint32_t copies;             // back-buffer copies (in, COLOR refreshes, out)
    uint32_t mip_generations;    // textures whose mips were rebuilt
    uint32_t techniques_run;
    uint32_t passes_run;
    uint32_t compute_passes;     // pixel passes of passes_run that ran as compute dispatches
    uint32_t effects_loaded;     // effects whose GL objects were created this frame
    double cpu_ms;               // wall time of fxgl_runtime_frame
} fxgl_runtime_stats;

// Runs one frame on the current context. False (frame passed through) when
// the size is unusable or the runtime cannot work on this context.
bool fxgl_runtime_frame(fxgl_runtime *rt, const fxgl_frame_desc *frame);
const fxgl_runtime_stats *fxgl_runtime_stats_get(const fxgl_runtime *rt);

// ======================================================================
// --- inspection: dump, visualise, control, overlay, screenshots ---
// ======================================================================
//
// src/gl/inspect.c (the object, the frame wrapper, commands), dump.c,
// visualise.c, hud.c (+ font.c, the built-in bitmap font) and
// screenshot.c. An fxgl_inspect wraps one runtime: its frame runs the
// runtime's frame, then draws the visualised texture and the statistics
// overlay into the same framebuffer and reads screenshots back. It only
// reads the runtime's records and drives it through the calls above
// (fxgl_runtime_set_enabled), so a host without it is unchanged.
// Everything belongs to the frame thread except the screenshot encoder,
// which runs on a worker of its own.

typedef struct fxgl_inspect fxgl_inspect;

typedef struct fxgl_inspect_desc {
    fxgl_runtime_log_fn log;     // NULL: the runtime's messages go nowhere
    void *log_user;
    const char *program;         // program name for screenshot files; NULL: "fxgl"
    const char *screenshot_dir;  // NULL: the current directory
    const char *visualise;       // initial visualisation (FXGL_VISUALISE), NULL: none
    bool overlay;                // statistics overlay on from the start
    // The host's own lines at the end of the dump and of the overlay
    // (snprintf-like: returns the whole length, writes at most size bytes); NULL: none.
    size_t (*dump_extra)(void *user, char *buf, size_t size);
    void *dump_extra_user;
} fxgl_inspect_desc;

// The runtime's context must be current. NULL when memory runs out.
fxgl_inspect *fxgl_inspect_create(fxgl_runtime *rt, const fxgl_inspect_desc *desc);
// Waits for screenshots being encoded. Its context must be current. Accepts NULL.
void fxgl_inspect_destroy(fxgl_inspect *in);
// For a layer whose context is gone (or will never be current again): frees
// its CPU memory and ends its encoder thread, after the screenshots already
// handed to it are written, without a single GL call (its GL names die with
// the context; a readback still in flight is lost). The runtime must still
// exist while this runs. Accepts NULL.
void fxgl_inspect_abandon(fxgl_inspect *in);
// Runs one frame: the runtime's (unless every effect is disabled), then the
// visualised texture and the overlay; starts and collects screenshots.
bool fxgl_inspect_frame(fxgl_inspect *in, const fxgl_frame_desc *frame);
// The preset's name for screenshot files and the overlay (copied; NULL: none).
void fxgl_inspect_set_preset(fxgl_inspect *in, const char *name);
// Records an effect that never reached the runtime (compile error, file
// missing) with its diagnostic, so the dump lists it.
void fxgl_inspect_add_failed(fxgl_inspect *in, const char *file, const char *diagnostic);

// Dump: what was loaded, what ran last frame, what was skipped and why, with
// per-technique and per-pass GPU times. Returns the length of the whole text
// (snprintf-like: buf may be short or NULL).
size_t fxgl_inspect_dump(fxgl_inspect *in, char *buf, size_t size);
// The same into a file, atomically (a temporary file renamed over path).
bool fxgl_inspect_dump_file(fxgl_inspect *in, const char *path, char *reason, size_t size);
// The dump of a context the runtime cannot use (below the minimum GL).
size_t fxgl_inspect_dump_context(const fxgl_gl_info *info, char *buf, size_t size);

// Visualise "Effect.fx:Texture[@mip,channels,corner]": channels a subset of
// "rgba" (one channel shows as grey), corner tl, tr, bl, br or full.
// NULL or "off" turns it off. Unknown names or options: false with reason,
// and the current visualisation stays as it was.
bool fxgl_inspect_visualise(fxgl_inspect *in, const char *spec, char *reason, size_t size);

void fxgl_inspect_overlay(fxgl_inspect *in, bool on);
bool fxgl_inspect_overlay_is_on(const fxgl_inspect *in);
// Glyph rows of the built-in 5x7 font: bit 4 is the leftmost pixel of row
// 0..6; 0 for characters outside 32..126.
uint8_t fxgl_inspect_font_row(char c, int row);

// Asks for a screenshot of the next frame as presented (and, with
// without_effects, one of the frame before the effects ran). PNG files
// named <program>_<preset>_<date-time>[_noeffects].png, read back through a
// pixel buffer and a fence, encoded on a worker. False while one is in flight.
bool fxgl_inspect_screenshot(fxgl_inspect *in, bool without_effects);
// Blocks until every requested screenshot is written (tests, exit). Its
// context must be current (readbacks still in the GPU are collected).
void fxgl_inspect_screenshot_wait(fxgl_inspect *in);
// Path of the last screenshot written (with effects), "" before the first.
const char *fxgl_inspect_last_screenshot(fxgl_inspect *in);

// 60-frame averages of what the layer itself costs (docs/inspect.md).
typedef struct fxgl_inspect_stats {
    double frame_ms;             // interval between frames (frame times)
    double runtime_cpu_ms;       // fxgl_runtime_frame's wall time
    double layer_cpu_ms;         // this layer's own CPU time per frame, overlay included
    double overlay_cpu_ms;       // the overlay's draw (text refreshes included)
    double overlay_gpu_ms;       // the overlay's draw on the GPU (0 without timer queries)
} fxgl_inspect_stats;
void fxgl_inspect_stats_get(const fxgl_inspect *in, fxgl_inspect_stats *stats);

typedef enum fxgl_command_result {
    FXGL_COMMAND_DONE,           // applied (reply says what changed)
    FXGL_COMMAND_ERROR,          // malformed or unknown: nothing changed (reply says why)
    FXGL_COMMAND_RELOAD,         // the host's: reload the effects
    FXGL_COMMAND_PRESET_NEXT,    // the host's: next preset
    FXGL_COMMAND_PRESET_PREV,    // the host's: previous preset
    FXGL_COMMAND_PERFORMANCE,    // the host's: toggle performance mode
} fxgl_command_result;

// One control command (docs/inspect.md lists them): "disable all",
// "disable A.fx,B.fx", "enable all", "toggle", "reload", "preset next",
// "preset prev", "performance", "visualise SPEC|off", "overlay on|off|toggle",
// "dump [PATH]", "screenshot [both]", "status". Takes effect in the next
// frame. reply gets one line.
fxgl_command_result fxgl_inspect_command(fxgl_inspect *in, const char *line, char *reply,
                                         size_t size);

#ifdef __cplusplus
}
#endif

#endif // FXGL_GL_H
