/*
 * gl_state.h - capture and restore of the application's GL state around the
 * runtime's frame (src/gl/state.c).
 *
 * At swap time the application's context is foreign GL to the runtime: any
 * binding, enable or mode may hold any value (programs leave FBOs,
 * viewports, clip origins, PBOs and sRGB writes set as they please).
 * gl_state_capture reads exactly the state the runtime's frame can change,
 * gl_state_set_runtime_defaults puts the global part of it into the values
 * the runtime's passes assume (sokol's sg_reset_state_cache), and
 * gl_state_restore writes the captured values back. Everything is sized once
 * in gl_state_init from the context's limits; a frame allocates nothing and
 * never calls glGetError (that would swallow the application's errors).
 *
 * The contract with the rest of src/gl (cache.c, frame.c, load.c): a frame
 * only changes state listed in docs/state.md, uses texture, sampler, UBO,
 * SSBO, atomic-counter and image units below the counts given here, touches
 * viewport and scissor index 0 only through the indexed calls where the
 * context has viewport arrays, and never binds the application's objects.
 */
#ifndef GL_STATE_H
#define GL_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glad/gl.h>

#include "fxgl_gl.h"

// Upper bounds of the fixed tables; the context's limits clamp them further.
#define GL_STATE_MAX_TARGETS 11   // texture targets per unit (desktop GL has 11)
#define GL_STATE_MAX_DRAW_BUFFERS 8
#define GL_STATE_MAX_CLIP_DISTANCES 8

// Texture targets, as bits of gl_state_desc.texture_targets.
typedef enum gl_state_target {
    GL_STATE_TEX_2D = 1u << 0,
    GL_STATE_TEX_3D = 1u << 1,
    GL_STATE_TEX_2D_ARRAY = 1u << 2,
    GL_STATE_TEX_CUBE = 1u << 3,
    GL_STATE_TEX_2D_MS = 1u << 4,         // GL 3.2, ES 3.1
    GL_STATE_TEX_2D_MS_ARRAY = 1u << 5,   // GL 3.2, ES 3.2
    GL_STATE_TEX_CUBE_ARRAY = 1u << 6,    // GL 4.0, ES 3.2
    GL_STATE_TEX_BUFFER = 1u << 7,        // GL 3.1, ES 3.2
    GL_STATE_TEX_1D = 1u << 8,            // desktop only
    GL_STATE_TEX_1D_ARRAY = 1u << 9,      // desktop only
    GL_STATE_TEX_RECT = 1u << 10,         // desktop only
} gl_state_target;

// What the runtime's frame uses. Zero means "default" (resolved once in init).
typedef struct gl_state_desc {
    int texture_units;           // units 0..n-1; default min(fragment units, 32)
    unsigned texture_targets;    // gl_state_target bits; default every target the API has
    int uniform_buffers;         // indexed UBO bindings 0..n-1; default 8
    int storage_buffers;         // indexed SSBO bindings 0..n-1; default none
    int atomic_buffers;          // indexed atomic-counter bindings; default none
    int image_units;             // image units 0..n-1; default 8 where compute exists
    int draw_buffers;            // per-buffer blend/mask and draw buffers; default 8
    // Texture units (bindings and sampler) and image units are captured on
    // first use, through gl_state_capture_unit/_image, instead of all of them
    // in gl_state_capture; only unit 0 (the one the defaults select) is
    // captured there. Up to 64 units (init clamps texture_units and image_units).
    bool lazy_units;
} gl_state_desc;

// GL calls issued, for the "GL calls per frame" figures (sokol's frame stats).
typedef struct gl_state_stats {
    uint64_t captures;           // gl_state_capture calls
    uint64_t restores;           // gl_state_restore calls
    uint32_t capture_calls;      // GL calls of the last capture
    uint32_t restore_calls;      // GL calls of the last restore
    uint32_t defaults_calls;     // GL calls of the last gl_state_set_runtime_defaults
} gl_state_stats;

// What a frame changed after gl_state_set_runtime_defaults, for
// gl_state_restore_changed (docs/state.md, "Restoring only what changed").
// State the defaults set is written back only where the captured value is
// not the default, unless its group is marked here; bindings of units are
// written back only for the units marked.
typedef enum gl_state_group {
    GL_STATE_FRAMEBUFFERS = 1u << 0,   // FBO bindings, draw/read buffers, renderbuffer
    GL_STATE_VIEWPORT = 1u << 1,       // viewport, depth range, scissor box and test (index 0)
    GL_STATE_PROGRAM = 1u << 2,        // GL_CURRENT_PROGRAM
    GL_STATE_VAO = 1u << 3,            // VAO binding and its element buffer
    GL_STATE_BUFFERS = 1u << 4,        // generic buffer binding points
    GL_STATE_ACTIVE_TEXTURE = 1u << 5, // the active unit selector
    GL_STATE_BLEND = 1u << 6,          // per-buffer blend and colour masks, blend colour
    GL_STATE_DEPTH = 1u << 7,          // depth test, mask, func
    GL_STATE_STENCIL = 1u << 8,        // stencil test and both faces
    GL_STATE_RASTER = 1u << 9,         // the other enables and modes of the table
    GL_STATE_SRGB = 1u << 10,          // GL_FRAMEBUFFER_SRGB
    GL_STATE_CLIP_CONTROL = 1u << 11,  // clip origin and depth mode
    GL_STATE_PIXEL_STORE = 1u << 12,   // pack and unpack parameters
    GL_STATE_CLEAR = 1u << 13,         // clear colour, depth, stencil
    GL_STATE_ALL = (1u << 14) - 1,
} gl_state_group;

// Unit bindings, marked per unit (units from 63 on share the last bit).
typedef enum gl_state_unit_kind {
    GL_STATE_UNIT_TEXTURE,             // texture bindings of every captured target
    GL_STATE_UNIT_SAMPLER,
    GL_STATE_UNIT_IMAGE,
    GL_STATE_UNIT_UBO,                 // indexed GL_UNIFORM_BUFFER binding
    GL_STATE_UNIT_KINDS,
} gl_state_unit_kind;

// Per texture unit: one binding per captured target, and the sampler object.
typedef struct gl_state_unit {
    GLuint texture[GL_STATE_MAX_TARGETS]; // indexed like gl_state.targets
    GLuint sampler;              // GL_SAMPLER_BINDING
} gl_state_unit;

typedef struct gl_state_range {
    GLuint buffer;               // GL_*_BUFFER_BINDING (indexed)
    GLint64 start;               // GL_*_BUFFER_START
    GLint64 size;                // GL_*_BUFFER_SIZE; 0 after glBindBufferBase
} gl_state_range;

typedef struct gl_state_image {
    GLint texture;               // GL_IMAGE_BINDING_NAME
    GLint level;                 // GL_IMAGE_BINDING_LEVEL
    GLboolean layered;           // GL_IMAGE_BINDING_LAYERED
    GLint layer;                 // GL_IMAGE_BINDING_LAYER
    GLint access;                // GL_IMAGE_BINDING_ACCESS
    GLint format;                // GL_IMAGE_BINDING_FORMAT
} gl_state_image;

typedef struct gl_state_blend {
    GLboolean enabled;           // GL_BLEND for this draw buffer
    GLint src_rgb;               // GL_BLEND_SRC_RGB
    GLint dst_rgb;               // GL_BLEND_DST_RGB
    GLint src_alpha;             // GL_BLEND_SRC_ALPHA
    GLint dst_alpha;             // GL_BLEND_DST_ALPHA
    GLint eq_rgb;                // GL_BLEND_EQUATION_RGB
    GLint eq_alpha;              // GL_BLEND_EQUATION_ALPHA
    GLboolean mask[4];           // GL_COLOR_WRITEMASK
} gl_state_blend;

typedef struct gl_state_face {
    GLint func;                  // GL_STENCIL_[BACK_]FUNC
    GLint ref;                   // GL_STENCIL_[BACK_]REF
    GLint value_mask;            // GL_STENCIL_[BACK_]VALUE_MASK
    GLint fail;                  // GL_STENCIL_[BACK_]FAIL
    GLint zfail;                 // GL_STENCIL_[BACK_]PASS_DEPTH_FAIL
    GLint zpass;                 // GL_STENCIL_[BACK_]PASS_DEPTH_PASS
    GLint write_mask;            // GL_STENCIL_[BACK_]WRITEMASK
} gl_state_face;

// What the context has, decided once in gl_state_init.
typedef struct gl_state_caps {
    bool es;                     // OpenGL ES
    bool compat;                 // desktop compatibility profile
    bool viewport_array;         // GL 4.1: indexed viewport, scissor, depth range
    bool indexed_blend;          // GL 4.0, ES 3.2, OES/EXT_draw_buffers_indexed
    bool multi_bind;             // GL 4.4: glBindSamplers
    bool clip_control;           // GL 4.5, ARB/EXT_clip_control
    bool provoking_vertex;       // GL 3.2 (ES has none: the last vertex)
    bool srgb_control;           // desktop, or EXT_sRGB_write_control
    bool image_units;            // GL 4.2, ES 3.1
    bool storage;                // SSBO and atomic counters: GL 4.3, ES 3.1
    bool indirect;               // draw (GL 4.0, ES 3.1) and dispatch (GL 4.3, ES 3.1) indirect
    bool sample_mask;            // GL 3.2, ES 3.1
    bool texture_buffer;         // GL_TEXTURE_BUFFER generic binding: GL 3.1, ES 3.2
    bool query_buffer;           // GL_QUERY_BUFFER: GL 4.4, ARB_query_buffer_object
    bool primitive_restart;      // desktop GL_PRIMITIVE_RESTART (GL 3.1)
    bool restart_fixed;          // GL_PRIMITIVE_RESTART_FIXED_INDEX (GL 4.3, ES 3.0)
    bool tf_pause;               // transform feedback pause/resume (GL 4.0, ES 3.0)
    int clip_distances;          // GL_CLIP_DISTANCEi disabled by the runtime (desktop)
} gl_state_caps;

typedef struct gl_state {
    struct GladGLContext *gl;    // borrowed: the context's dispatch table
    gl_state_caps caps;          // what is queried at all
    gl_state_desc desc;          // resolved counts (clamped to the context's limits)
    int num_targets;             // entries of targets/bindings used
    GLenum targets[GL_STATE_MAX_TARGETS];  // texture targets captured per unit
    GLenum bindings[GL_STATE_MAX_TARGETS]; // their GL_TEXTURE_BINDING_* queries
    uint32_t calls;              // running GL call counter (stats are taken from it)
    gl_state_stats stats;        // public counters

    // Indexed-blend entry points: core/ES 3.2 names or the OES/EXT ones.
    PFNGLENABLEIPROC enablei;
    PFNGLDISABLEIPROC disablei;
    PFNGLISENABLEDIPROC is_enabledi;
    PFNGLBLENDFUNCSEPARATEIPROC blend_funci;
    PFNGLBLENDEQUATIONSEPARATEIPROC blend_equationi;
    PFNGLCOLORMASKIPROC color_maski;
    PFNGLCLIPCONTROLPROC clip_control;

    // What the frame changed since the capture (gl_state_touch*).
    unsigned dirty;              // gl_state_group bits
    uint64_t dirty_units[GL_STATE_UNIT_KINDS]; // bit u: unit u (63: 63 and above)
    // With desc.lazy_units: the units captured since gl_state_capture.
    uint64_t captured_units;     // texture bindings and sampler
    uint64_t captured_images;

    GLuint stencil_fbo;          // owned: FBO with 8 stencil bits, to read unclamped refs
    GLuint stencil_rb;           // owned: its renderbuffer

    // --- captured values (filled by gl_state_capture) ---
    bool captured;               // a capture is held that restore may apply
    GLint draw_fbo;              // GL_DRAW_FRAMEBUFFER_BINDING
    GLint read_fbo;              // GL_READ_FRAMEBUFFER_BINDING
    GLint fbo_draw_buffers[GL_STATE_MAX_DRAW_BUFFERS];     // of the bound draw FBO
    GLint fbo_read_buffer;       // of the bound read FBO
    GLint default_draw_buffers[GL_STATE_MAX_DRAW_BUFFERS]; // of framebuffer 0
    GLint default_read_buffer;   // of framebuffer 0
    GLint renderbuffer;          // GL_RENDERBUFFER_BINDING
    GLfloat viewport[4];         // index 0
    GLdouble depth_range[2];     // index 0
    GLboolean scissor_test;      // index 0
    GLint scissor_box[4];        // index 0
    GLint program;               // GL_CURRENT_PROGRAM
    GLint vao;                   // GL_VERTEX_ARRAY_BINDING
    GLint array_buffer;          // generic binding points
    GLint element_buffer;        // of the bound VAO
    GLint uniform_buffer;
    GLint copy_read_buffer;
    GLint copy_write_buffer;
    GLint pack_buffer;
    GLint unpack_buffer;
    GLint draw_indirect_buffer;
    GLint dispatch_indirect_buffer;
    GLint storage_buffer;
    GLint atomic_buffer;
    GLint texture_buffer;
    GLint query_buffer;          // unbound for the frame: query results go to memory
    GLint active_texture;        // GL_ACTIVE_TEXTURE
    gl_state_unit *units;        // owned: desc.texture_units entries
    gl_state_range *ubos;        // owned: desc.uniform_buffers entries
    gl_state_range *ssbos;       // owned: desc.storage_buffers entries
    gl_state_range *atomics;     // owned: desc.atomic_buffers entries
    gl_state_image *images;      // owned: desc.image_units entries
    gl_state_blend blend[GL_STATE_MAX_DRAW_BUFFERS]; // per draw buffer (all alike without
                                                     // indexed blend)
    GLfloat blend_color[4];
    GLboolean depth_test;
    GLboolean depth_mask;
    GLint depth_func;
    GLboolean stencil_test;
    gl_state_face front;         // stencil, front face
    gl_state_face back;          // stencil, back face
    GLboolean cull_face;
    GLint cull_mode;
    GLint front_face;
    GLint polygon_mode[2];       // front, back (desktop)
    GLboolean rasterizer_discard;
    GLboolean polygon_offset_fill;
    GLboolean alpha_to_coverage;
    GLboolean sample_coverage;
    GLboolean sample_mask;
    GLboolean multisample;       // desktop
    GLboolean dither;
    GLboolean framebuffer_srgb;
    GLint clip_origin;
    GLint clip_depth_mode;
    GLint provoking_vertex;      // GL 3.2 desktop
    GLboolean primitive_restart;         // desktop
    GLboolean primitive_restart_fixed;   // GL 4.3, ES 3.0
    GLboolean depth_clamp;       // desktop
    GLboolean color_logic_op;    // desktop
    GLboolean polygon_smooth;    // desktop
    GLboolean clip_distance[GL_STATE_MAX_CLIP_DISTANCES]; // desktop
    GLboolean alpha_test;        // compatibility only
    GLboolean polygon_stipple;   // compatibility only
    GLint clamp_fragment_color;  // compatibility only
    GLint clamp_read_color;      // desktop
    GLboolean tf_active;         // transform feedback active ...
    GLboolean tf_paused;         // ... and paused (the runtime pauses an active one)
    GLint pack[8];               // pixel store, see pack_names in state.c
    GLint unpack[8];
    GLfloat clear_color[4];
    GLfloat clear_depth;
    GLint clear_stencil;
} gl_state;

// Sizes st for the context current on this thread (the one gl and info describe):
// allocates its arrays and creates the small stencil FBO, leaving every binding
// of the context as it was. False when memory runs out or the context is below
// GL 3.3 / ES 3.0 (st is then zeroed; gl_state_finish is still safe).
bool gl_state_init(gl_state *st, struct GladGLContext *gl, const fxgl_gl_info *info,
                   const gl_state_desc *desc);
// Frees the arrays and deletes the owned objects. The context st was initialized
// on must be current (its names mean nothing elsewhere). Accepts a zeroed st.
void gl_state_finish(gl_state *st);

// Reads the application's state. Leaves framebuffer 0 bound for draw and read
// and the other state as it was; follow with gl_state_set_runtime_defaults.
void gl_state_capture(gl_state *st);
// Sets the global state the runtime's passes assume (blend, depth, stencil,
// cull, scissor off; masks on; sRGB write off; lower-left -1..1 clip control;
// pixel store defaults and no pixel buffers; paused transform feedback).
// Bindings of units (textures, samplers, UBOs, images) keep the application's
// values, which the state cache seeds from the capture instead of unbinding.
void gl_state_set_runtime_defaults(gl_state *st);
// Writes the captured state back; a no-op without a capture.
void gl_state_restore(gl_state *st);
// Writes back only what the frame changed: the state the defaults moved
// off the application's values, and what gl_state_touch* marked. The same
// result as gl_state_restore when every change after the defaults is
// marked; a no-op without a capture. The calls issued are counted as
// restore_calls like gl_state_restore's.
void gl_state_restore_changed(gl_state *st);

// With desc.lazy_units, captures texture unit `unit` (its bindings and
// sampler) unless this frame's capture has it: true when it did, and the
// unit is then the active one (the selector is marked, so restore puts it
// back). Must come before anything binds on the unit. False otherwise.
bool gl_state_capture_unit(gl_state *st, int unit);
static inline bool gl_state_unit_captured(const gl_state *st, int unit) {
    return !st->desc.lazy_units || (unit < 64 && ((st->captured_units >> unit) & 1u));
}
// The same for image unit `unit`; moves nothing.
void gl_state_capture_image(gl_state *st, int unit);

// Marks state the frame changed after gl_state_set_runtime_defaults and
// does not put back to the default itself (a value set back to the runtime
// default needs no mark). Cheap: the state cache calls these on every set.
static inline void gl_state_touch(gl_state *st, unsigned groups) {
    st->dirty |= groups;
}
static inline void gl_state_touch_unit(gl_state *st, gl_state_unit_kind kind, int unit) {
    st->dirty_units[kind] |= UINT64_C(1) << (unit < 63 ? unit : 63);
}
// Everything: the next restore is gl_state_restore's (a frame that loaded or
// resized bound whatever it needed).
void gl_state_touch_all(gl_state *st);

#endif // GL_STATE_H
