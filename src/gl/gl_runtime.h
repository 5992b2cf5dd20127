/*
 * gl_runtime.h - the effect runtime's internals, shared by runtime.c (API,
 * order, uniforms), load.c (effect -> GL objects), frame.c (the per-frame
 * path), cache.c (the state cache), special.c (special uniforms) and
 * image.c (`source=` images and .cube LUTs).
 *
 * The split follows sokol_gfx: everything a pass needs is baked at load into
 * a gl_pass record (program, FBO, viewport, blend/stencil/mask block, the
 * texture+sampler list, draw or dispatch arguments) and a frame only walks
 * those records through the cache, which compares, calls, records, counts.
 * Arrays are sized at load; a frame allocates nothing.
 */
#ifndef GL_RUNTIME_H
#define GL_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glad/gl.h>

#include "fxgl_backend.h"
#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "gl_state.h"

#define GL_RT_MAX_UNITS 16       // texture units a pass may use (FX passes use few)
#define GL_RT_MAX_IMAGES 8       // image units a compute pass may use
#define GL_RT_MAX_SEMANTICS 16   // registered semantic names (COLOR and DEPTH included)
#define GL_RT_QUERY_RING 4       // frames of timer queries in flight
#define GL_RT_UNKNOWN 0xFFFFFFFFu // a cache entry nobody knows (forces the next call)

// Counts one GL call of the runtime (state.c counts its own).
#define GLC(rt, call) ((rt)->calls++, (rt)->gl->call)
// The same for a call through a function pointer chosen at create time.
#define GLP(rt, expr) ((rt)->calls++, (expr))

// --- formats ---

typedef struct gl_format {
    GLenum internal;             // sized internal format (desktop)
    GLenum internal_es;          // on GLES (0: not available without an extension)
    GLenum format;               // pixel transfer format
    GLenum type;                 // pixel transfer type
    int bpp;                     // bytes per texel in that transfer format
    int channels;
    bool integer;                // isampler/usampler; no filtering, no mips
    bool is_float;               // needs EXT_color_buffer_float to render to on GLES
    const char *image;           // GLSL image format qualifier, NULL if none
    bool image_es;               // the image format exists in GLSL ES 3.1
} gl_format;

const gl_format *gl_format_get(fxgl_format format);

// --- objects ---

// One GL texture. Effects share it by namespaced name; pooled ones also
// across effects with identical shape.
typedef struct gl_tex {
    char *name;                  // owned; namespaced name of the first declaration
    GLuint tex;                  // the texture (UNORM view for RGBA8)
    GLuint srgb;                 // sRGB view of an RGBA8 texture, == tex when none
    GLenum target;               // GL_TEXTURE_2D/3D (1D on desktop)
    GLenum internal;             // internal format actually used
    const gl_format *fmt;
    fxgl_format format;
    fxgl_texture_dim dim;
    int width, height, depth, levels;
    int refs;                    // effects using it
    bool pooled;
    bool shared;                 // tex/srgb are the share group's (share.c), not this runtime's
    uint64_t users;              // bit e%64: effects using it (pooled: never twice in one)
    uint64_t written_at;         // barrier epoch of its last incoherent (image) write
    const char *mip_program_key; // image format for the compute mip path, NULL: glGenerateMipmap
} gl_tex;

typedef enum gl_bind_kind {
    GL_BIND_TEXTURE,             // an effect texture
    GL_BIND_SEMANTIC,            // a semantic slot (COLOR, DEPTH, others)
} gl_bind_kind;

// One texture unit of a pass: sampler object + texture.
typedef struct gl_bind {
    uint8_t unit;
    uint8_t kind;                // gl_bind_kind
    bool srgb;                   // read through the sRGB view
    int8_t slot;                 // GL_BIND_SEMANTIC: semantic slot
    int16_t object;              // the fxgl_sampler it binds (fx->samplers index)
    GLenum target;
    gl_tex *tex;                 // GL_BIND_TEXTURE
    GLuint sampler;
} gl_bind;

typedef struct gl_image_bind {
    uint8_t unit;
    gl_tex *tex;
    int level;
} gl_image_bind;

// Blend and mask of one draw buffer, as GL enums.
typedef struct gl_blend {
    bool enable;
    GLenum src, dst, src_alpha, dst_alpha;
    GLenum op, op_alpha;
    uint8_t mask;                // bit 0 red .. bit 3 alpha
} gl_blend;

typedef struct gl_stencil {
    bool enable;
    GLenum func;
    GLint ref;
    GLuint read_mask, write_mask;
    GLenum fail, zfail, pass;
} gl_stencil;

typedef enum gl_bb_fbo {
    GL_BB_UNORM,                 // the back-buffer copy, UNORM view
    GL_BB_SRGB,                  // its sRGB view (SRGBWriteEnable)
    GL_BB_UNORM_STENCIL,
    GL_BB_SRGB_STENCIL,
    GL_BB_COUNT,
} gl_bb_fbo;

// Whether a pixel pass runs as a compute dispatch (compute.c): the
// measurement of the first frames, decided per pass.
#define GL_CS_WARMUP 1           // first runs of each variant not counted (first-use costs)
#define GL_CS_SAMPLES 5          // samples of each variant the decision takes
#define GL_CS_MAX_RUNS 40        // runs of each variant after which a trial without its
                                 // samples (queries never available) gives up: fragment
enum {
    GL_CS_NONE,                  // no compute form: always fragment
    GL_CS_TRIAL,                 // measuring both
    GL_CS_FRAGMENT,              // decided (or forced) fragment
    GL_CS_COMPUTE,               // decided (or forced) compute
};

typedef struct gl_cs_trial {
    uint8_t state;               // GL_CS_*
    uint8_t runs[2];             // frames run as [0] fragment, [1] compute
    uint8_t n[2];                // samples kept
    double ms[2][GL_CS_SAMPLES];
} gl_cs_trial;

// What the next trial frame runs (true: compute): the variant run less so far.
bool gl_cs_trial_pick(const gl_cs_trial *t);
// Counts a run of a variant (when it is issued; its sample may never come).
void gl_cs_trial_ran(gl_cs_trial *t, bool compute);
// One measurement of a run (ms; the first GL_CS_WARMUP runs of a variant are
// dropped by the caller's count: sample is the k-th run's, k from 0); decides
// when both variants have GL_CS_SAMPLES.
void gl_cs_trial_add(gl_cs_trial *t, bool compute, int run, double ms);
// The decision from samples: compute only when its median is below
// GL_CS_MARGIN times the fragment median (noise never makes it slower).
#define GL_CS_MARGIN 0.9
bool gl_cs_decide(const double *fragment, int nf, const double *compute, int nc);

// How the trial measures a pass on this renderer.
enum {
    GL_CS_CLOCK_NONE,            // nothing honest: auto keeps fragment
    GL_CS_CLOCK_TIMER,           // GL_TIMESTAMP queries around the pass (a GPU)
    GL_CS_CLOCK_FINISH,          // CPU clock between glFinish calls: a software renderer,
                                 // whose timestamps do not see the deferred rasteriser
};
int gl_cs_clock_for(const char *renderer, bool has_timer);
// FXGL_COMPUTE's value: FXGL_COMPUTE_AUTO/OFF/ON (NULL, "", "auto": AUTO).
int gl_cs_mode_parse(const char *value);

typedef struct gl_pass {
    const fxgl_pass *src;
    char label[96];              // "technique/pass" for debug groups
    GLuint program;              // owned unless shares_program
    bool shares_program;         // another pass of the effect owns the program
    bool compute;
    bool to_backbuffer;          // no RenderTarget: draws into the back-buffer copy
    int bb_fbo;                  // gl_bb_fbo variant when to_backbuffer
    GLuint fbo;                  // owned FBO of the render targets (0: back buffer)
    int target_count;
    gl_tex *targets[FXGL_MAX_RENDER_TARGETS];
    int width, height;           // viewport (0: the back buffer's, resolved per frame)
    bool srgb_write;
    bool clear;
    bool stencil_attached;       // the runtime's stencil buffer is attached
    gl_blend blend[FXGL_MAX_RENDER_TARGETS];
    int blend_count;             // draw buffers the blend block covers
    gl_stencil stencil;
    GLenum mode;
    GLsizei vertex_count;
    GLuint groups[3];
    gl_bind *binds;              // owned; bind_count entries
    int bind_count;
    gl_image_bind *images;       // owned
    int image_count;
    bool generate_mips;          // some target/storage has levels > 1 and GenerateMipMaps
    bool flip_safe;              // its pixel shader calls no dFdy: it gives the same pixels
                                 // drawn upside down (clip origin upper left) into the
                                 // program's framebuffer, SV_Position through flip_loc
    GLint flip_loc;              // _fxgl_flip, where the pixel shader reads SV_Position; -1
    bool specialised;            // program/flip_loc are the specialised ones (variant.c)
    // Exact fullscreen varyings (exact.c): the vertex shader was proved to
    // cover the viewport and to give some varying components exactly as
    // pixel position / viewport size; the program's pixel shader is the
    // variant that computes them from gl_FragCoord. NULL/0/-1 otherwise.
    char *exact_defines;         // owned: the variant's #defines
    uint8_t *exact_modes;        // owned: GL_EXACT_* per component of each
                                 // fxgl_shader.exact_varyings entry
    int exact_count;             // entries of exact_varyings (4 modes each)
    GLint view_loc;              // _fxgl_view (size, 1 / size), -1 when not exact
    bool group_shared;           // the program is in the share group's table (share.c)
    int view_set[2];             // the size last written to view_loc (0: none)
    // The pixel shader's compute form (compute.c): one invocation per pixel
    // storing the result into the target as an image. 0: the pass qualifies not.
    GLuint cs_program;           // owned
    GLint cs_view_loc;           // its _fxgl_view
    int cs_view_set[2];
    gl_tex *cs_target;           // the render target, NULL: the back-buffer copy
    gl_cs_trial cs;              // fragment or compute (cs.state)
    bool cs_ran;                 // the last frame it ran, it ran as compute
    uint8_t cs_slot[GL_RT_QUERY_RING]; // per query slot: 0, or 1 + the variant a trial ran
    double cs_t0;                // the finish clock's start of this pass
} gl_pass;

// A 60-frame moving average (sum of the window / its length).
typedef struct gl_avg {
    double samples[FXGL_TIMING_FRAMES];
    double sum;
    int next;
    int count;
} gl_avg;

void gl_avg_add(gl_avg *a, double v);
double gl_avg_value(const gl_avg *a);

struct gl_loaded_effect;

typedef struct gl_technique {
    struct gl_loaded_effect *effect;
    const fxgl_technique *src;
    size_t index;                // in the effect
    gl_pass *passes;             // owned; src->pass_count entries once loaded
    bool enabled;
    fxgl_status status;
    char reason[200];
    uint64_t frames_run;
    double time_left_ms;         // `timeout` countdown, <= 0 when none
    // timing
    GLuint *queries;             // owned: GL_RT_QUERY_RING * (passes + 1)
    bool query_pending[GL_RT_QUERY_RING];
    gl_avg cpu;
    gl_avg gpu;
    gl_avg *pass_gpu;            // owned: one per pass
} gl_technique;

// Runtime state of one special uniform.
typedef struct gl_special {
    const fxgl_uniform *u;
    int keycode;                 // key / mousebutton
    int mode;                    // 0 down, 1 press, 2 toggle
    bool toggled;
    fxgl_special_params p;       // random, pingpong, mousewheel
    float value[2];              // pingpong {value, direction}, mousewheel {value, delta}
} gl_special;

typedef struct gl_loaded_effect {
    const fxgl_effect *fx;
    char *file;                  // owned
    size_t index;
    fxgl_status status;
    char reason[512];
    char warning[256];           // "" or what loaded but is wrong (a missing texture)
    bool loaded;                 // GL objects exist
    // textures: per fx texture, either a gl_tex or a semantic slot
    gl_tex **textures;           // owned array; NULL entries are semantic
    int *slots;                  // owned array; semantic slot or -1
    GLuint *samplers;            // owned array; per fx sampler (objects owned by the cache)
    GLuint *shaders;             // owned array; per fx shader (deleted after linking)
    struct gl_preloaded *preloaded; // owned; programs made from cached binaries, taken by
    size_t preloaded_count;      // the first pass of their stages (progcache.c)
    bool shaders_compiled;       // all compiled at load (false: the group had every program)
    gl_technique *techniques;    // owned
    size_t technique_count;
    // uniforms
    GLuint ubo;
    uint8_t *shadow;             // owned CPU copy of the block
    uint32_t size;
    uint32_t dirty_lo, dirty_hi; // user values changed since the last upload (lo >= hi: none)
    uint32_t frame_lo, frame_hi; // special values changed this frame (uploaded apart: they
                                 // change every frame, the user values rarely)
    gl_special *specials;        // owned
    size_t special_count;
    bool uses_depth;             // binds DEPTH
    bool srgb_color;             // reads COLOR through an sRGB sampler or writes the back
                                 // buffer with SRGBWriteEnable: needs the copy's sRGB view
    struct gl_variants *variants; // owned: specialised programs (variant.c), NULL: none
} gl_loaded_effect;

typedef struct gl_sampler_entry {
    uint32_t key[12];            // the FX sampler description that made it
    GLuint sampler;
} gl_sampler_entry;

typedef struct gl_semantic {
    char name[32];
    GLuint texture;              // registered texture, 0: none
} gl_semantic;

enum {
    GL_SLOT_COLOR,
    GL_SLOT_DEPTH,
};

// --- the state cache ---

typedef struct gl_cache {
    GLuint program;
    GLuint draw_fbo;
    GLuint read_fbo;
    GLuint vao;
    GLint viewport[4];
    GLuint active;               // active unit index
    GLuint tex2d[GL_RT_MAX_UNITS];
    GLuint tex3d[GL_RT_MAX_UNITS];
    GLuint sampler[GL_RT_MAX_UNITS];
    GLuint image[GL_RT_MAX_IMAGES];
    GLint image_level[GL_RT_MAX_IMAGES];
    GLuint ubo;                  // indexed UBO binding 0 (whole buffer)
    gl_blend blend[FXGL_MAX_RENDER_TARGETS];
    bool blend_known;
    gl_stencil stencil;
    bool stencil_known;
    int srgb;                    // -1 unknown
} gl_cache;

typedef struct fxgl_runtime fxgl_runtime;

void gl_cache_reset(fxgl_runtime *rt, bool from_capture);
void gl_cache_program(fxgl_runtime *rt, GLuint program);
void gl_cache_draw_fbo(fxgl_runtime *rt, GLuint fbo);
void gl_cache_read_fbo(fxgl_runtime *rt, GLuint fbo);
void gl_cache_vao(fxgl_runtime *rt, GLuint vao);
void gl_cache_viewport(fxgl_runtime *rt, int w, int h);
void gl_cache_texture(fxgl_runtime *rt, int unit, GLenum target, GLuint tex);
void gl_cache_sampler(fxgl_runtime *rt, int unit, GLuint sampler);
void gl_cache_image(fxgl_runtime *rt, int unit, gl_tex *tex, int level);
void gl_cache_ubo(fxgl_runtime *rt, GLuint ubo);
// blend: FXGL_MAX_RENDER_TARGETS entries (every one is read while the state
// is unknown), count the draw buffers in use.
void gl_cache_blend(fxgl_runtime *rt, const gl_blend *blend, int count);
void gl_cache_stencil(fxgl_runtime *rt, const gl_stencil *s);
// A plain draw of one target: no blend, every channel written, no stencil.
void gl_cache_plain(fxgl_runtime *rt);
void gl_cache_srgb(fxgl_runtime *rt, bool on);

// --- the runtime ---

#define GL_RT_BINARY_FORMATS 16 // program binary formats a driver may list (Mesa: 1)

struct fxgl_runtime {
    struct GladGLContext *gl;
    fxgl_gl_share *share;        // the share group's objects (a reference), NULL: none
    fxgl_runtime_share_stats share_stats; // what this runtime made and took (share.c)
    fxgl_gl_info info;
    fxgl_runtime_desc desc;      // its search paths point into search_paths
    char **search_paths;         // owned copies of desc.texture_search_paths
    gl_state st;
    gl_cache cache;
    uint32_t calls;              // running GL call counter
    fxgl_runtime_stats stats;

    // capabilities decided once
    bool has_views;              // texture views (sRGB views of RGBA8)
    bool has_copy_image;         // glCopyImageSubData
    bool has_compute;
    int cs_mode;                 // FXGL_COMPUTE_*: pixel passes as compute dispatches
    int cs_clock;                // GL_CS_CLOCK_*: how auto measures
    int native_copy;             // GL_NATIVE_COPY_*: FXGL_NATIVE_COPY, read once
    int raster_exact;            // exact.c: 1 where the rasteriser's fullscreen varyings
                                 // are the exact values (probed at the first load that
                                 // needs it), -1 where not, 0 not probed yet
    bool raster_off;             // FXGL_EXACT_RASTER=0: never (read once)
    bool warming;                // prewarm.c: draws scissored away, dispatches one group
    const gl_pass *direct;       // this frame: the pass that draws straight into the
                                 // program's framebuffer (no copy out), or NULL
    bool has_timer;
    bool has_debug;
    bool has_dsa;                // GL 4.5
    bool viewport_array;
    bool indexed_blend;
    bool srgb_control;           // GL_FRAMEBUFFER_SRGB can be toggled
    bool norm16;                 // 16-bit UNORM formats on GLES
    bool emulate_image_formats;  // GLES without GL_NV_image_formats: fxgl_es_storage_format
    bool float_render;           // float render targets on GLES
    bool border_clamp;
    int units;                   // texture units per pass
    int max_texture_size;        // GL_MAX_TEXTURE_SIZE: effects are validated against it
    int max_3d_size;             // GL_MAX_3D_TEXTURE_SIZE
    int max_draw_buffers;        // min(GL_MAX_DRAW_BUFFERS, GL_MAX_COLOR_ATTACHMENTS)
    PFNGLTEXTUREVIEWPROC texture_view;
    PFNGLCOPYIMAGESUBDATAPROC copy_image;
    PFNGLQUERYCOUNTERPROC query_counter;
    PFNGLGETQUERYOBJECTUI64VPROC query_u64;
    PFNGLGETQUERYOBJECTUIVPROC query_uiv;
    PFNGLPUSHDEBUGGROUPPROC push_group;
    PFNGLPOPDEBUGGROUPPROC pop_group;
    PFNGLOBJECTLABELPROC object_label;
    fxgl_program_counts programs; // progcache.c
    GLenum binary_formats[GL_RT_BINARY_FORMATS]; // GL_PROGRAM_BINARY_FORMATS

    // effects; incoming ones are adopted in the frame thread
    pthread_mutex_t lock;
    const fxgl_effect **incoming;
    char **incoming_files;
    size_t incoming_count, incoming_cap;
    gl_loaded_effect **effects;
    size_t effect_count;
    gl_technique **order;        // render order
    size_t order_count;
    gl_tex **textures;           // every texture, shared and pooled included
    size_t texture_count;
    gl_sampler_entry *samplers;
    size_t sampler_count;
    gl_semantic semantics[GL_RT_MAX_SEMANTICS];
    int semantic_count;

    // per-size objects (rebuilt when the frame size changes)
    int width, height;
    GLuint source_fbo;           // framebuffer the size was taken for
    int source_samples;          // its GL_SAMPLES
    bool bb_native;              // the back-buffer copy and COLOR are stored in the
                                 // source's own channel order (BGRA, mutable, no sRGB
                                 // views): the copy in is a plain memory copy where the
                                 // driver copies itself (load.c, native_copy_fits)
    GLuint bb_tex, bb_srgb;      // back-buffer copy (top-down) and its sRGB view
    gl_tex bb_image;             // the back-buffer copy as an image (compute passes): its
                                 // tex, shape and written_at (an image store not yet
                                 // followed by a barrier for the blits and draws)
    GLuint color_tex, color_srgb; // the COLOR texture and its sRGB view
    GLuint stencil_rb;           // the runtime's stencil (DEPTH24_STENCIL8)
    GLuint bb_fbos[GL_BB_COUNT];
    GLuint color_fbo;            // to refresh COLOR by blit where CopyImageSubData is missing
    GLuint in_fbo;               // the back-buffer copy and COLOR as draw buffers 0 and 1:
                                 // the copy in fills both with one blit
    GLuint resolve_rb, resolve_fbo; // MSAA resolve target
    GLuint depth_tex, depth_fbo; // DEPTH copy of the source framebuffer (flipped)
    GLenum depth_format;         // 0: the source has no depth (or none we can copy)
    bool depth_unmatched_logged; // said once that the source's depth has no copy format
    bool depth_ready;            // bufready_depth
    struct gl_fbo_depth *fbo_depth; // fbo_depth.c: the program's depth attachment, when chosen
    GLuint empty_tex;            // 1x1 zero texture for unknown semantics
    GLuint vao;
    GLuint mip_sampler;          // NEAREST, for the mip generator and the copy program
    GLuint copy_program;         // GLES: flipped copy into a multisampled framebuffer
    struct {
        const char *format;      // image format qualifier
        GLuint program;
        GLint lod;               // location of its `lod` uniform
    } mip_programs[16];
    int mip_program_count;

    // frame state
    uint64_t frame_count;
    double start_time;
    double last_time;
    double frame_ms;             // last frame's duration
    uint64_t epoch;              // barrier epochs (see frame.c)
    uint64_t fetch_epoch, image_epoch, fb_epoch;
    uint32_t rng;
    bool bb_dirty;               // the back-buffer copy changed since COLOR was refreshed
    const fxgl_frame_desc *frame;

    // specialised programs (variant.c)
    struct gl_variant_worker *vworker; // the compile thread, NULL until first needed
    uint64_t compile_calls;      // glCompileShader/glLinkProgram issued through this runtime
    fxgl_variant_stats vstats;   // the frame thread's counters
};

void gl_log(fxgl_runtime *rt, fxgl_gl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
double gl_now(void);

// load.c
bool gl_loaded_effect_load(fxgl_runtime *rt, gl_loaded_effect *e);
void gl_loaded_effect_unload(fxgl_runtime *rt, gl_loaded_effect *e);
bool gl_resize(fxgl_runtime *rt, const fxgl_frame_desc *frame);
// FXGL_NATIVE_COPY: 0 never, 1 wherever the source allows it, auto (unset,
// anything else) on software renderers, where it was measured (load.c).
enum { GL_NATIVE_COPY_OFF, GL_NATIVE_COPY_ON, GL_NATIVE_COPY_AUTO };
int gl_native_copy_parse(const char *value);
// Would the per-size objects be made in another layout now that the loaded
// effects changed (an effect needing the copy's sRGB view came in)?
bool gl_native_copy_stale(const fxgl_runtime *rt);
void gl_size_release(fxgl_runtime *rt);
void gl_label(fxgl_runtime *rt, GLenum kind, GLuint name, const char *label);
// --- program binaries (progcache.c) ---

// Programs made from cached binaries before an effect's shaders are compiled: one per
// distinct (vertex, pixel, compute) triple whose binary the cache had and the driver took.
typedef struct gl_preloaded {
    int vertex_shader, pixel_shader, compute_shader; // fxgl_pass's indices
    int topology, vertex_count;  // what the exact-varying analysis depended on
    uint64_t key;
    GLuint program;              // 0 once a pass took it (or none)
    bool loaded;                 // a program was made from the binary
    // The exact-varying analysis made when the binary was stored (exact.c needs the
    // compiled vertex shader, which a binary saves): copied into the pass that takes it.
    char *exact_defines;         // owned; NULL: no exact varyings
    uint8_t *exact_modes;        // owned
    int exact_count;
} gl_preloaded;

// Fills e->preloaded from the cache (nothing without a cache or binary formats); a shader
// every pass of which has a preloaded program need not be compiled (gl_progcache_needs).
void gl_progcache_preload(fxgl_runtime *rt, gl_loaded_effect *e);
bool gl_progcache_needs(const gl_loaded_effect *e, int shader);
// For a pass whose stages had a program made from a cached binary: sets the
// exact-varying analysis it was linked with in pass (pass->exact_*), hands the program
// over to the first such pass (*program; 0 for the others, which share it) and is true.
// False when the cache had nothing for these stages: compile, analyse and link.
bool gl_progcache_take(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_pass *fp, gl_pass *pass,
                       GLuint *program);
// The binary is stored with p's exact-varying analysis (none: a record saying so).
void gl_progcache_store(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_pass *fp,
                        const gl_pass *p,
                        GLuint program);
// Deletes the programs no pass took and frees the list.
void gl_progcache_release(fxgl_runtime *rt, gl_loaded_effect *e);
// The same for gl_compile_program's programs: a program from the cache (0: none; *key
// then names the binary to store after linking, 0 when there is no cache).
GLuint gl_progcache_load_sources(fxgl_runtime *rt, const char *const *sources,
                                 const GLenum *stages, int count, uint64_t *key);
void gl_progcache_store_sources(fxgl_runtime *rt, uint64_t key, GLuint program);
// Called before glLinkProgram: asks the driver to keep the binary retrievable.
void gl_progcache_hint(fxgl_runtime *rt, GLuint program);


// fbo_depth.c: DEPTH from a depth attachment of the program's (the host's choice).
typedef struct gl_fbo_depth gl_fbo_depth;
// The copy DEPTH reads, 0 while the default framebuffer's copy serves (or none yet).
GLuint gl_depth_texture(const fxgl_runtime *rt);
// The host chose an attachment: the default framebuffer's copy stays off.
bool gl_depth_fbo_active(const fxgl_runtime *rt);
// Frees the provider's memory; its GL objects too when delete_objects (context current).
void gl_depth_destroy(fxgl_runtime *rt, bool delete_objects);
GLuint gl_compile_program(fxgl_runtime *rt, const char *const *sources, const GLenum *stages,
                          int count, char *reason, size_t reason_size);
void gl_tex_release(fxgl_runtime *rt, gl_tex *t);

// compute.c: the pass's compute form, where it qualifies (after pass_load).
void gl_cs_load(fxgl_runtime *rt, gl_loaded_effect *e, gl_pass *p);
void gl_cs_unload(fxgl_runtime *rt, gl_pass *p);
// A frame's decision for pass p (true: compute); counts the trial's run.
bool gl_cs_choose(fxgl_runtime *rt, gl_pass *p, size_t slot);
// The measurement of the trial run p made in query slot slot (ms), if any.
void gl_cs_sample(fxgl_runtime *rt, gl_pass *p, size_t slot, double ms);
// variant.c
// After a successful load: the record that lets the effect run specialised programs.
void gl_variants_attach(fxgl_runtime *rt, gl_loaded_effect *e);
// Before unload: the passes get their editable programs back, specialised ones go.
void gl_variants_detach(fxgl_runtime *rt, gl_loaded_effect *e);
// fxgl_runtime_abandon: the passes get their editable programs back, without a GL call.
void gl_variants_abandon(fxgl_runtime *rt);
// Each frame, before uniforms upload: switch programs as values change and settle.
void gl_variants_frame(fxgl_runtime *rt, gl_loaded_effect *e, double now);
// Runtime destroy: the compile thread stops (after every effect is detached).
void gl_variants_shutdown(fxgl_runtime *rt);

// frame.c
void gl_generate_mips(fxgl_runtime *rt, gl_tex *t);
// The compute program that builds mips of an image format (created at load).
GLuint gl_mip_program(fxgl_runtime *rt, const char *format, bool create);

// runtime.c
void gl_adopt(fxgl_runtime *rt);
// A new effect record (PENDING, initial uniform values, all techniques enabled); file is
// adopted. NULL when out of memory (file is then not freed).
gl_loaded_effect *gl_loaded_effect_new(fxgl_runtime *rt, const fxgl_effect *fx, char *file,
                                       size_t index);
void gl_loaded_effect_free(gl_loaded_effect *e); // the record only: unload its GL objects first

// special.c
bool gl_specials_init(fxgl_runtime *rt, gl_loaded_effect *e);
void gl_specials_update(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_frame_desc *frame);
// Writes v into the shadow copy (converted to u's type) and widens the dirty
// range of its update frequency when a byte changed. False if v does not fit.
bool gl_uniform_write(gl_loaded_effect *e, const fxgl_uniform *u, const fxgl_value *v,
                      bool special);

// image.c
// Loads `source` (searched in the effect's directory, then the search paths)
// into data for a texture of the given shape and format: RGBA8 images are
// resized to width x height; .cube LUTs fill float formats. data is malloc'd,
// width*height*depth texels in the format's transfer layout.
bool gl_image_load(fxgl_runtime *rt, const char *effect_path, const fxgl_texture *t,
                   const gl_format *fmt, void **data, char *reason, size_t reason_size);

// --- objects shared by the runtimes of a share group (share.c) ---

// Runtimes entering (+1) and leaving (-1) the group; crowded: more than one, so a
// program's uniforms that one runtime caches may be written by another.
void gl_share_runtime_join(fxgl_gl_share *s, int delta);
bool gl_share_crowded(const fxgl_gl_share *s);
#define GL_SHARE_STAGES 3        // vertex, pixel, compute GLSL of a program's key

// A linked program of the group with these stages (a reference taken), 0: none.
GLuint gl_share_program_take(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES]);
bool gl_share_program_has(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES]);
// Lists a program this runtime linked (its reference is the runtime's).
void gl_share_program_put(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES],
                          GLuint program);
// Lets go of a program: deleted (with_gl: a context of the group is current) when no
// runtime of the group uses it any more, else kept for the group.
void gl_share_program_drop(fxgl_runtime *rt, GLuint program, bool with_gl);
uint64_t gl_share_image_hash(const gl_tex *t, int channels, const void *data, size_t bytes);
// The group's texture of t's shape with these pixels into t->tex/srgb (t->shared), if any.
bool gl_share_image_take(fxgl_runtime *rt, gl_tex *t, int channels, uint64_t hash);
void gl_share_image_put(fxgl_runtime *rt, gl_tex *t, int channels, uint64_t hash);
GLenum gl_shader_stage(fxgl_stage s);
// True when the caller must delete t's GL names now.
bool gl_share_image_drop(fxgl_runtime *rt, const gl_tex *t, bool with_gl);


#endif // GL_RUNTIME_H
