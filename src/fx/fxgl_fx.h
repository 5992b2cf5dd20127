/*
 * fxgl_fx.h - the public face of the FX compiler (src/fx).
 *
 * src/fx knows nothing about GL. It turns ReShade FX source into plain data:
 * diagnostics, and the effect module (textures, samplers, uniforms,
 * techniques, passes, GLSL per entry point). Everything returned is owned by the caller and freed with the
 * matching _destroy; nothing in here prints.
 */
#ifndef FXGL_FX_H
#define FXGL_FX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// --- diagnostics ---

typedef enum fxgl_diag_severity {
    FXGL_DIAG_ERROR,
    FXGL_DIAG_WARNING,
    FXGL_DIAG_NOTE,
} fxgl_diag_severity;

typedef struct fxgl_diag {
    fxgl_diag_severity severity; // error, warning or note
    const char *id;              // stable identifier ("X3004", "P_UNTERMINATED_COMMENT"), never NULL
    char *file;                  // owned; path as the user wrote it, "" when unknown
    int line;                    // 1-based, 0 when unknown
    int col;                     // 1-based, 0 when unknown
    char *message;               // owned; lower case, no final period
    char *include_chain;         // owned; "  included from a.fx(3)\n" lines, or NULL
} fxgl_diag;

// A growing list of diagnostics. Survives the compilation that filled it.
typedef struct fxgl_diags {
    fxgl_diag *items;            // owned array of count entries
    size_t count;                // entries in use
    size_t capacity;             // entries allocated
    size_t errors;               // how many have FXGL_DIAG_ERROR
    size_t warnings;             // how many have FXGL_DIAG_WARNING
} fxgl_diags;

void fxgl_diags_init(fxgl_diags *diags);
void fxgl_diags_finish(fxgl_diags *diags);

// Appends one diagnostic; copies every string. Returns false only when out of
// memory, in which case the list is unchanged.
bool fxgl_diags_add(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                    const char *file, int line, int col, const char *include_chain,
                    const char *fmt, ...) __attribute__((format(printf, 8, 9)));
bool fxgl_diags_addv(fxgl_diags *diags, fxgl_diag_severity severity, const char *id,
                     const char *file, int line, int col, const char *include_chain,
                     const char *fmt, va_list ap) __attribute__((format(printf, 8, 0)));

// Writes every diagnostic as `file(line, col): error|warning|note: message`,
// each followed by its include chain.
void fxgl_diags_print(const fxgl_diags *diags, FILE *out);

// Formats one diagnostic into buf (always NUL-terminated); returns the length
// it wanted, like snprintf.
int fxgl_diag_format(const fxgl_diag *diag, char *buf, size_t size);

const char *fxgl_diag_severity_name(fxgl_diag_severity severity);


// --- the effect module ---
//
// Plain data, immutable once built, documented field by field so that the
// runtime, fxc and tests read it directly. Every pass state is resolved to
// its default (the reference's defaults, reshade_reference.md §1.2-1.8), so
// no consumer needs to know a default. Indices refer into the arrays of the
// same fxgl_effect; -1 means "none". All strings and arrays are owned by the
// effect and freed by fxgl_effect_destroy.

typedef enum fxgl_format {
    FXGL_FORMAT_UNKNOWN,
    FXGL_FORMAT_R8,
    FXGL_FORMAT_R16,
    FXGL_FORMAT_R16F,
    FXGL_FORMAT_R32I,
    FXGL_FORMAT_R32U,
    FXGL_FORMAT_R32F,
    FXGL_FORMAT_RG8,
    FXGL_FORMAT_RG16,
    FXGL_FORMAT_RG16F,
    FXGL_FORMAT_RG32F,
    FXGL_FORMAT_RGBA8,
    FXGL_FORMAT_RGBA16,
    FXGL_FORMAT_RGBA16F,
    FXGL_FORMAT_RGBA32I,
    FXGL_FORMAT_RGBA32U,
    FXGL_FORMAT_RGBA32F,
    FXGL_FORMAT_RGB10A2,
    FXGL_FORMAT_RG11B10F,
    FXGL_FORMAT_COUNT,
} fxgl_format;

// The FX spelling ("RGBA16F") and the DXGI number the reference uses for
// BUFFER_COLOR_FORMAT comparisons (RGBA8 = 28).
const char *fxgl_format_name(fxgl_format format);
int fxgl_format_dxgi(fxgl_format format);
// Channels of a format (1..4), 0 for UNKNOWN.
int fxgl_format_channels(fxgl_format format);
// GLES without GL_NV_image_formats stores only R32F/I/U, RGBA8, RGBA16F,
// RGBA32F/I/U in images: the format a storage texture of this format lives
// in there so that it still reads and renders as the real one (R8, RG8 ->
// RGBA8; R16F, RG16F -> RGBA16F; RG32F -> RGBA32F; missing channels read
// 0, 0, 1), the format itself when GLES stores it, UNKNOWN when no stand-in
// is faithful (16-bit UNORM, RGB10A2, RG11B10F). The GLSL ES back end and
// the runtime both follow it.
fxgl_format fxgl_es_storage_format(fxgl_format format);

typedef enum fxgl_scalar {
    FXGL_SCALAR_BOOL,
    FXGL_SCALAR_INT,
    FXGL_SCALAR_UINT,
    FXGL_SCALAR_FLOAT,
    FXGL_SCALAR_STRING,          // annotations only
} fxgl_scalar;

// A constant value: up to 16 components (a 4x4 matrix, row-major).
typedef struct fxgl_value {
    fxgl_scalar scalar;          // how to read the union
    int count;                   // components in use (1..16); 0 for a string
    union {
        int32_t i[16];           // bool (0/1) and int
        uint32_t u[16];
        float f[16];
    };
    const char *string;          // FXGL_SCALAR_STRING: owned by the effect, NUL-terminated
    size_t string_len;           // FXGL_SCALAR_STRING: bytes in string; ui_items lists are
                                 // several entries each ended by a '\0' inside this length
} fxgl_value;

typedef struct fxgl_annotation {
    const char *name;            // as written ("ui_label", "source", "ui_tooptip")
    fxgl_value value;
} fxgl_annotation;

typedef struct fxgl_annotations {
    const fxgl_annotation *items;
    size_t count;
} fxgl_annotations;

// Finds an annotation by exact name; NULL when absent.
const fxgl_annotation *fxgl_annotation_find(const fxgl_annotations *list, const char *name);

typedef enum fxgl_texture_dim {
    FXGL_TEXTURE_1D = 1,
    FXGL_TEXTURE_2D = 2,
    FXGL_TEXTURE_3D = 3,
} fxgl_texture_dim;

typedef struct fxgl_texture {
    const char *name;            // unique, namespaced ("ReShade::BackBufferTex" -> "ReShade::BackBufferTex")
    const char *semantic;        // "COLOR", "DEPTH", any other upper-case name, or NULL
    fxgl_texture_dim dim;
    int width;                   // >= 1
    int height;                  // >= 1 (1 for 1D)
    int depth;                   // >= 1 (1 unless 3D)
    int levels;                  // mip levels including the base, >= 1
    fxgl_format format;          // FXGL_FORMAT_UNKNOWN only for semantic textures
    bool render_target;          // some pass writes it as a RenderTarget
    bool storage_access;         // some storage object refers to it
    bool srgb_read;              // some sampler reads it with SRGBTexture
    const char *source;          // "source" annotation (an image file), or NULL
    bool pooled;                 // "pooled" annotation
    fxgl_annotations annotations;
    const char *file;            // where it is declared (for messages of the runtime)
    int line, col;               // 1-based
} fxgl_texture;

typedef enum fxgl_address {
    FXGL_ADDRESS_WRAP = 1,
    FXGL_ADDRESS_MIRROR = 2,
    FXGL_ADDRESS_CLAMP = 3,
    FXGL_ADDRESS_BORDER = 4,
} fxgl_address;

typedef enum fxgl_filter {
    FXGL_FILTER_POINT = 0,
    FXGL_FILTER_LINEAR = 1,
    FXGL_FILTER_ANISOTROPIC = 0x55,
} fxgl_filter;

typedef struct fxgl_sampler {
    const char *name;            // unique, namespaced
    int texture;                 // index into textures
    fxgl_scalar element;         // element scalar type of sampler<T>
    int element_count;           // element components (1..4)
    fxgl_address address_u, address_v, address_w;
    fxgl_filter min_filter, mag_filter, mip_filter;
    float min_lod;               // default -FLT_MAX (the reference's code, not its docs)
    float max_lod;               // default +FLT_MAX
    float lod_bias;              // default 0
    bool srgb;                   // SRGBTexture
} fxgl_sampler;

typedef struct fxgl_storage {
    const char *name;            // unique, namespaced
    int texture;                 // index into textures
    fxgl_scalar element;
    int element_count;
    int level;                   // MipLevel, clamped to levels - 1
} fxgl_storage;

typedef enum fxgl_special {
    FXGL_SPECIAL_NONE,           // a user parameter
    FXGL_SPECIAL_FRAMETIME,
    FXGL_SPECIAL_FRAMECOUNT,
    FXGL_SPECIAL_RANDOM,
    FXGL_SPECIAL_PINGPONG,
    FXGL_SPECIAL_DATE,
    FXGL_SPECIAL_TIMER,
    FXGL_SPECIAL_KEY,
    FXGL_SPECIAL_MOUSEPOINT,
    FXGL_SPECIAL_MOUSEDELTA,
    FXGL_SPECIAL_MOUSEBUTTON,
    FXGL_SPECIAL_MOUSEWHEEL,
    FXGL_SPECIAL_OVERLAY_OPEN,
    FXGL_SPECIAL_OVERLAY_ACTIVE,
    FXGL_SPECIAL_OVERLAY_HOVERED,
    FXGL_SPECIAL_SCREENSHOT,
    FXGL_SPECIAL_BUFREADY_DEPTH,
    FXGL_SPECIAL_UNKNOWN,        // a source the runtime does not know: stays zero
} fxgl_special;

typedef struct fxgl_uniform {
    const char *name;            // unique, namespaced
    fxgl_scalar scalar;          // base type
    int rows;                    // vector components, or matrix rows
    int cols;                    // 1, or matrix columns
    int array_length;            // 0 when not an array
    uint32_t offset;             // std140 offset in the effect's uniform block
    uint32_t size;               // bytes it occupies (arrays: stride * length)
    bool has_initializer;
    fxgl_value initializer;      // zero when none (arrays: first element only)
    const uint8_t *initial_data; // size bytes in block layout, or NULL when zero
    fxgl_special special;        // from the "source" annotation
    bool nosave;                 // "nosave" annotation, or special
    fxgl_annotations annotations;
} fxgl_uniform;

typedef enum fxgl_stage {
    FXGL_STAGE_VERTEX,
    FXGL_STAGE_PIXEL,
    FXGL_STAGE_COMPUTE,
} fxgl_stage;

// One entry point as a GLSL program stage for the requested target.
//
// THE GLSL CONTRACT between the code generator and the runtime (src/gl):
//  - Uniforms: one block `layout(std140[, binding = 0]) uniform _Globals`
//    whose members sit exactly at fxgl_uniform.offset. The binding is
//    written where the target allows it (GL 4.2+, ES 3.1+); otherwise the
//    runtime binds the block by name (FXGL_GLSL_UNIFORM_BLOCK) to point 0.
//  - Samplers: `[layout(binding = unit)] uniform sampler2D name;` for each
//    fxgl_binding in samplers; units are compact per shader, in order of
//    first use. The runtime may reassign units per pass by name (for a vertex
//    and a pixel shader whose units collide, or targets without binding).
//    Vertex stages declare their samplers without a binding (a sampler both
//    stages of a pass use would otherwise carry two units and not link): the
//    runtime binds those by name, e.g. at units after the pixel shader's.
//  - Storages: `layout(binding = unit, <format>) uniform [readonly|writeonly]
//    image2D name;`, compute only. GLSL ES: a storage the shader reads and
//    writes is two images, `coherent writeonly` name and `coherent readonly`
//    _gr<name>, each with its fxgl_binding (same object, own unit); formats
//    of GL_NV_image_formats are declared under `#ifdef _gimage_formats`,
//    the fxgl_es_storage_format stand-in otherwise (the runtime defines
//    _gemulated_formats after #version when it allocated the stand-ins).
//  - No vertex attributes: the runtime draws vertex_count vertices with an
//    empty vertex array; SV_VertexID is gl_VertexID.
//  - Varyings carry no location: a vertex output and a pixel input match by
//    a name derived from the semantic alone, so separately generated
//    stages link.
//    They are `[flat] out|in vec4|ivec4|uvec4 _v_<SEMANTIC><n>` (a reader
//    takes the components it needs; integer ones are flat; struct members,
//    array elements and matrix rows each take the next semantic index).
//    A pixel input that no vertex shader of its passes writes is a plain
//    global of zeros instead.
//  - GLSL names are the effect's with "::" as "_" (prefixed where a name is
//    a GLSL word, starts with '_' or "gl_"); fxgl_binding.name has them.
//    int, uint and bool matrix uniforms sit in the block as arrays of
//    integer row vectors (the std140 layout of the module's 32-bit values).
//  - Pixel outputs: `layout(location = n) out` for SV_Target n / COLOR n.
//  - Every vertex stage ends with `gl_Position.y = -gl_Position.y;`: effect
//    textures are top-down, the runtime flips at the back-buffer copies.
//  - Pixel stages read each interpolated float varying under
//    `#ifdef _gx_<SEMANTIC>`: a runtime may compile a variant that computes
//    it exactly from gl_FragCoord (fxgl_shader.exact_varyings).
//
// Vulkan-flavoured GLSL (FXGL_GLSL_VK450, for SPIR-V through glslang) keeps
// the contract above with these differences, so that every vertex and pixel
// shader of an effect fits one pipeline layout:
//  - One descriptor set (set 0) per effect: the uniform block at binding
//    FXGL_VK_UNIFORM_BINDING, sampler i (a combined image sampler) at
//    FXGL_VK_SAMPLER_BINDING(i), storage i (a storage image) at
//    FXGL_VK_STORAGE_BINDING(effect, i); fxgl_binding.unit holds them, and
//    vertex stages declare their samplers' bindings too.
//  - Varyings carry `layout(location = fxgl_varying.location)`; the location
//    is the semantic's, the same in every shader of the effect.
//  - SV_VertexID is gl_VertexIndex, SV_InstanceID gl_InstanceIndex.
//  - No loose uniforms: _fxgl_flip is the constant (0, 0) (every Vulkan
//    image is top-down, gl_FragCoord's origin is its top left), and the exact
//    varyings' _fxgl_view is a push constant (the only one, offset 0).
#define FXGL_GLSL_UNIFORM_BLOCK "_Globals"

#define FXGL_VK_UNIFORM_BINDING 0
#define FXGL_VK_SAMPLER_BINDING(sampler) (1 + (sampler))
#define FXGL_VK_STORAGE_BINDING(effect, storage) (1 + (int)(effect)->sampler_count + (storage))

typedef struct fxgl_binding {
    int object;                  // index into samplers (texture units) or storages (image units)
    int unit;                    // the binding the generated code declares
    const char *name;            // the GLSL uniform's name (binding by name where needed)
} fxgl_binding;

// A varying between a vertex and a pixel stage: a 4-vector (see the contract).
typedef struct fxgl_varying {
    const char *name;            // "_v_TEXCOORD0": derived from the semantic alone
    int location;                // the same for one name in every shader of the effect
    bool flat;                   // integer, or nointerpolation: not interpolated
} fxgl_varying;

typedef struct fxgl_shader {
    const char *entry;           // FX function name
    fxgl_stage stage;
    int threads[3];              // compute: local size x, y, z
    const char *glsl;            // generated code, or NULL when only the front end ran
    const fxgl_binding *samplers; // texture units the code uses
    size_t sampler_count;
    const fxgl_binding *storages; // image units the code uses
    size_t storage_count;
    bool uses_uniforms;          // reads the uniform block (binding 0)
    int uniform_binding;         // the uniform block's binding in the code, -1: no block
    // Vertex shaders: the varyings they write; pixel shaders: those they
    // read that a vertex shader of their passes writes. Locations are
    // assigned over the whole effect (the vertex shaders' outputs in shader
    // order, then first appearance), so any vertex shader matches any pixel
    // shader by location as well as by name. Empty without generated code.
    const fxgl_varying *varyings;
    size_t varying_count;
    // Pixel shaders: components written to render target n (1..4), 0 when
    // the shader writes no output n. A float3 return leaves alpha undefined
    // in GL; the runtime masks the channels a shader never writes so that
    // the target keeps them (a window's alpha stays what the program drew).
    uint8_t target_components[8];
    // Pixel shaders: the interpolated float varyings it reads that a vertex
    // shader of its passes writes ("_v_TEXCOORD0"), each read written as
    // `#ifdef _gx_TEXCOORD0 ... #else <the interpolated value> #endif`. A
    // runtime that proved such a varying to be an exact function of the
    // pixel position (every fullscreen texcoord) compiles a variant that
    // defines _gexact_view and _gx_<SEMANTIC> as the ivec4 of what each
    // component is: 0 the interpolated value, 1 the pixel centre's x times
    // the x gradient, 2 its y (from the top) times the y gradient, as an fp32
    // plane-equation rasteriser computes them; it sets `uniform vec4
    // _fxgl_view` to the viewport size and those gradients (about 1 / size;
    // docs/runtime.md, "Exact fullscreen varyings").
    // A pixel shader's glsl is also its compute form: compiled with
    // `#define _gcompute <image format>` (plus the exact-varying defines and
    // _gexact_pos, the proved SV_Position.zw) it is a compute shader of 8x8
    // invocations, one per pixel of the viewport (_fxgl_view.xy), that
    // declares only the proved varyings, runs the entry point and stores
    // target 0 into `writeonly image2D _gcs_target` (binding 0) with
    // imageStore. A varying that is not proved exact is not declared there,
    // so such a shader does not compile as compute (docs/runtime.md,
    // "Compute passes").
    const char *const *exact_varyings;
    size_t exact_varying_count;
} fxgl_shader;

typedef enum fxgl_blend_op {
    FXGL_BLEND_OP_ADD = 1,
    FXGL_BLEND_OP_SUBTRACT = 2,
    FXGL_BLEND_OP_REVSUBTRACT = 3,
    FXGL_BLEND_OP_MIN = 4,
    FXGL_BLEND_OP_MAX = 5,
} fxgl_blend_op;

typedef enum fxgl_blend_factor {
    FXGL_BLEND_ZERO = 0,
    FXGL_BLEND_ONE = 1,
    FXGL_BLEND_SRCCOLOR = 2,
    FXGL_BLEND_INVSRCCOLOR = 3,
    FXGL_BLEND_DESTCOLOR = 4,
    FXGL_BLEND_INVDESTCOLOR = 5,
    FXGL_BLEND_SRCALPHA = 6,
    FXGL_BLEND_INVSRCALPHA = 7,
    FXGL_BLEND_DESTALPHA = 8,
    FXGL_BLEND_INVDESTALPHA = 9,
} fxgl_blend_factor;

typedef enum fxgl_compare {
    FXGL_COMPARE_NEVER = 0,
    FXGL_COMPARE_LESS = 1,
    FXGL_COMPARE_EQUAL = 2,
    FXGL_COMPARE_LEQUAL = 3,
    FXGL_COMPARE_GREATER = 4,
    FXGL_COMPARE_NOTEQUAL = 5,
    FXGL_COMPARE_GEQUAL = 6,
    FXGL_COMPARE_ALWAYS = 7,
} fxgl_compare;

typedef enum fxgl_stencil_op {
    FXGL_STENCIL_ZERO = 0,
    FXGL_STENCIL_KEEP = 1,
    FXGL_STENCIL_REPLACE = 2,
    FXGL_STENCIL_INCRSAT = 3,
    FXGL_STENCIL_DECRSAT = 4,
    FXGL_STENCIL_INVERT = 5,
    FXGL_STENCIL_INCR = 6,
    FXGL_STENCIL_DECR = 7,
} fxgl_stencil_op;

typedef enum fxgl_topology {
    FXGL_TOPOLOGY_POINTLIST = 1,
    FXGL_TOPOLOGY_LINELIST = 2,
    FXGL_TOPOLOGY_LINESTRIP = 3,
    FXGL_TOPOLOGY_TRIANGLELIST = 4,
    FXGL_TOPOLOGY_TRIANGLESTRIP = 5,
} fxgl_topology;

#define FXGL_MAX_RENDER_TARGETS 8

typedef struct fxgl_target_blend {
    bool enable;                 // BlendEnable[n], default false
    fxgl_blend_op op;            // BlendOp[n], default ADD
    fxgl_blend_op op_alpha;      // BlendOpAlpha[n], default ADD
    fxgl_blend_factor src;       // SrcBlend[n], default ONE
    fxgl_blend_factor dst;       // DestBlend[n], default ZERO
    fxgl_blend_factor src_alpha; // SrcBlendAlpha[n], default ONE
    fxgl_blend_factor dst_alpha; // DestBlendAlpha[n], default ZERO
    uint8_t write_mask;          // RenderTargetWriteMask[n], bit 0 red .. bit 3 alpha, default 0xF
} fxgl_target_blend;

typedef struct fxgl_pass {
    const char *name;            // NULL when unnamed
    int vertex_shader;           // index into shaders, -1 for compute passes
    int pixel_shader;            // index into shaders, -1 when absent
    int compute_shader;          // index into shaders, -1 for graphics passes
    int render_targets[FXGL_MAX_RENDER_TARGETS]; // texture indices, -1 unused; all -1: back buffer
    int render_target_count;     // leading targets in use (0: back buffer)
    bool clear_render_targets;   // default false
    bool generate_mipmaps;       // default true
    bool srgb_write;             // default false
    fxgl_target_blend blend[FXGL_MAX_RENDER_TARGETS];
    bool stencil_enable;         // default false
    uint8_t stencil_read_mask;   // default 0xFF
    uint8_t stencil_write_mask;  // default 0xFF
    uint8_t stencil_ref;         // default 0
    fxgl_compare stencil_func;   // default ALWAYS
    fxgl_stencil_op stencil_pass;       // default KEEP
    fxgl_stencil_op stencil_fail;       // default KEEP
    fxgl_stencil_op stencil_depth_fail; // default KEEP
    fxgl_topology topology;      // default TRIANGLELIST
    uint32_t vertex_count;       // default 3
    uint32_t dispatch[3];        // thread groups x, y, z (compute; z default 1)
    int viewport_width;          // the render targets' size, or 0: the back buffer's
    int viewport_height;
} fxgl_pass;

// One technique of a list of effects: what back ends and hosts order techniques by.
typedef struct fxgl_technique_ref {
    uint32_t effect;             // effect index
    uint32_t technique;          // technique index in that effect
} fxgl_technique_ref;

typedef struct fxgl_technique {
    const char *name;            // unique within the effect
    const char *label;           // ui_label, or NULL
    const fxgl_pass *passes;
    size_t pass_count;           // may be 0 (legal)
    bool enabled;                // "enabled" annotation: forced on
    bool hidden;                 // "hidden"
    bool nosave;                 // "nosave"
    bool enabled_in_screenshot;  // default true
    int timeout_ms;              // "timeout", 0 when none
    fxgl_annotations annotations;
} fxgl_technique;

typedef struct fxgl_effect {
    const char *path;            // the main file as given
    const fxgl_texture *textures;
    size_t texture_count;
    const fxgl_sampler *samplers;
    size_t sampler_count;
    const fxgl_storage *storages;
    size_t storage_count;
    const fxgl_uniform *uniforms;
    size_t uniform_count;
    uint32_t uniform_block_size; // bytes, a multiple of 16 (0: no uniforms)
    const fxgl_technique *techniques;
    size_t technique_count;
    const fxgl_shader *shaders;  // one per entry point used by a pass
    size_t shader_count;
    const char *const *pragmas;  // passed-through "#pragma ..." lines
    size_t pragma_count;
    const char *const *included_files; // every file read, the main file first
    size_t included_count;
    const char *const *ifdef_names;    // macros tested by #ifdef/#ifndef
    size_t ifdef_count;
    void *internal_;             // owned memory; do not touch
} fxgl_effect;

typedef enum fxgl_glsl_target {
    FXGL_GLSL_NONE,              // front end only: no code generated
    FXGL_GLSL_GL430,
    FXGL_GLSL_GL450,
    FXGL_GLSL_ES300,
    FXGL_GLSL_ES310,
    FXGL_GLSL_ES320,
    FXGL_GLSL_VK450,             // GLSL 4.50 with Vulkan semantics (SPIR-V through glslang)
} fxgl_glsl_target;

typedef struct fxgl_define {
    const char *name;
    const char *value;           // NULL or "" means an empty body
} fxgl_define;

// --- predefined macros ---
//
// What the runtime tells an effect about its environment, as the reference
// defines it (reshade_reference.md §1.10): __RESHADE__, __RENDERER__,
// BUFFER_*, __APPLICATION__ and friends. fxc, the runtime and the
// conformance runner all build their definitions here, so they agree.

typedef enum fxgl_api_kind {
    FXGL_API_KIND_GL,            // desktop OpenGL
    FXGL_API_KIND_GLES,          // OpenGL ES
} fxgl_api_kind;

#define FXGL_RESHADE_VERSION 60501   // the reference version whose behaviour fxgl follows

typedef struct fxgl_environment {
    int width;                   // back buffer size; 0 means 1920x1080
    int height;
    fxgl_api_kind api;           // which family __RENDERER__ describes
    int api_major;               // context version; 0 means 4.5 (GL) or 3.2 (GLES)
    int api_minor;
    int color_bit_depth;         // 0 means 8
    fxgl_format color_format;    // FXGL_FORMAT_UNKNOWN means RGBA8
    int color_space;             // 0 unknown (what the reference's GL backend reports)
    bool performance_mode;       // __RESHADE_PERFORMANCE_MODE__
    const char *application;     // executable path for __APPLICATION__, or NULL
    uint32_t vendor;             // PCI ids, 0 when unknown
    uint32_t device;
} fxgl_environment;

#define FXGL_PREDEFINED_MAX 24       // entries fxgl_predefined_macros may write
#define FXGL_PREDEFINED_STORAGE 1024 // bytes of storage it may need

// Writes the predefined macros for env into out (at most FXGL_PREDEFINED_MAX
// entries; names and values point into storage). Returns the count.
size_t fxgl_predefined_macros(const fxgl_environment *env, fxgl_define *out, char *storage,
                              size_t storage_size);

typedef struct fxgl_compile_desc {
    const char *path;            // the effect file (for reading, messages and relative includes)
    const char *source;          // optional: the text of path, already in memory
    size_t source_len;
    const char *const *include_paths; // searched after the file's own directory; "dir/**" recurses
    size_t include_path_count;
    const fxgl_define *defines;  // predefined macros first, user definitions after
    size_t define_count;
    fxgl_glsl_target target;     // FXGL_GLSL_NONE: check only
    bool performance_mode;       // uniforms with initializers become constants
    // Performance mode: the value each uniform gets as a constant; NULL keeps
    // the initializer. Returns false to keep it.
    bool (*uniform_value)(void *user, const char *uniform, fxgl_value *value);
    void *user;
    size_t memory_limit;         // bytes of compiler memory per arena, 0: the default (1 GiB)
    unsigned time_limit_ms;      // wall time before the compilation gives up, 0: the default (20 s)
    size_t output_limit;         // bytes of preprocessed text, 0: the default (256 MiB)
} fxgl_compile_desc;

// Compiles one effect. Returns NULL when it has errors (all in diags);
// warnings may accompany a success. Runs on a thread of its own with a large
// stack (the caller waits), so any thread may call it; input past a limit
// (nesting, size, time, memory) is an error, never a crash.
fxgl_effect *fxgl_effect_compile(const fxgl_compile_desc *desc, fxgl_diags *diags);
void fxgl_effect_destroy(fxgl_effect *effect);

// The module as bytes (malloc'd, *len set) and back, for the on-disk compile cache: the
// bytes belong to this build of fxgl only (FXGL_EFFECT_SERIAL_VERSION). serialize: NULL
// when out of memory. deserialize: NULL for bytes that are truncated, of another version
// or inconsistent (an index outside its array); the effect goes with fxgl_effect_destroy.
#define FXGL_EFFECT_SERIAL_VERSION 3u
void *fxgl_effect_serialize(const fxgl_effect *effect, size_t *len);
fxgl_effect *fxgl_effect_deserialize(const void *data, size_t len);

// Writes the module as JSON (what `fxc dump --json` prints).
bool fxgl_effect_write_json(const fxgl_effect *effect, FILE *out);

#ifdef __cplusplus
}
#endif

#endif // FXGL_FX_H
