/*
 * state.c - capture and restore of the application's GL state around the
 * runtime's frame.
 *
 * gl_state_init decides once what the context has (version, profile,
 * extensions, and that each needed entry point was loaded) and sizes the
 * tables from its limits; capture and restore then issue only queries and
 * calls the context supports, so they raise no GL error and never need
 * glGetError. Every GL call goes through COUNT so that the per-frame figure
 * in gl_state_stats is exact.
 *
 * Points where a plain glGet/glSet round trip would not be exact, and what is
 * done instead (docs/state.md has the full list):
 * - glViewport, glScissor, glDepthRange and glEnable(GL_SCISSOR_TEST) set every
 *   viewport index; with viewport arrays only index 0 is captured and written
 *   through the indexed calls, so indices 1.. keep the application's values.
 * - glBlendFunc, glColorMask and glEnable(GL_BLEND) set every draw buffer; the
 *   per-buffer values are captured and written back per buffer when they differ.
 * - GL_STENCIL_REF reads back clamped to the stencil bits of the bound draw
 *   framebuffer (Mesa does this); it is read with an owned 8-bit stencil FBO bound.
 * - glDrawBuffers rejects GL_BACK/GL_FRONT on desktop GL; a single default
 *   draw buffer is written back with glDrawBuffer.
 * - glBindBufferBase/Range also set the generic binding point, so the indexed
 *   bindings are restored before the generic ones; ELEMENT_ARRAY_BUFFER is VAO
 *   state and is restored after the VAO.
 */
#include <stdlib.h>
#include <string.h>

#include "gl_state.h"

// Compatibility-profile enums are not in the core+ES glad header.
#ifndef GL_ALPHA_TEST
#define GL_ALPHA_TEST 0x0BC0
#endif
#ifndef GL_POLYGON_STIPPLE
#define GL_POLYGON_STIPPLE 0x0B42
#endif
#ifndef GL_CLAMP_FRAGMENT_COLOR
#define GL_CLAMP_FRAGMENT_COLOR 0x891B
#endif

// Counts one GL call; every call of this file is written COUNT(st, gl->...).
#define COUNT(st, call) ((st)->calls++, (call))

// Pixel store parameters in capture order: the first four exist everywhere,
// ES 3.0 adds the unpack image ones, desktop GL has all eight.
static const GLenum pack_names[8] = {
    GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS,
    GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES, GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST,
};
static const GLenum unpack_names[8] = {
    GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS,
    GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES, GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST,
};

typedef struct target_info {
    unsigned bit;                // gl_state_target
    GLenum target;               // bind target
    GLenum binding;              // its GL_TEXTURE_BINDING_* query
} target_info;

static const target_info all_targets[GL_STATE_MAX_TARGETS] = {
    {GL_STATE_TEX_2D, GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
    {GL_STATE_TEX_3D, GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
    {GL_STATE_TEX_2D_ARRAY, GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY},
    {GL_STATE_TEX_CUBE, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
    {GL_STATE_TEX_2D_MS, GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE},
    {GL_STATE_TEX_2D_MS_ARRAY, GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
     GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY},
    {GL_STATE_TEX_CUBE_ARRAY, GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY},
    {GL_STATE_TEX_BUFFER, GL_TEXTURE_BUFFER, GL_TEXTURE_BINDING_BUFFER},
    {GL_STATE_TEX_1D, GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D},
    {GL_STATE_TEX_1D_ARRAY, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY},
    {GL_STATE_TEX_RECT, GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE},
};

// --- init ---

// Any GL entry point, for presence checks (casts to void (*)(void) are exempt
// from -Wcast-function-type).
typedef void (*any_fn)(void);

static bool has_extension(struct GladGLContext *gl, const char *name) {
    if (!gl->GetIntegerv || !gl->GetStringi) {
        return false;
    }
    GLint n = 0;
    gl->GetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)gl->GetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && strcmp(e, name) == 0) {
            return true;
        }
    }
    return false;
}

static int get_limit(struct GladGLContext *gl, GLenum pname) {
    GLint v = 0;
    gl->GetIntegerv(pname, &v);
    return v > 0 ? v : 0;
}

// A zero request means the default; anything is clamped to [0, limit].
static int resolve_count(int requested, int fallback, int limit) {
    int n = requested ? requested : fallback;
    if (n < 0) {
        n = 0;
    }
    return n < limit ? n : limit;
}

static bool at_least(const fxgl_gl_info *info, int major, int minor) {
    return info->major > major || (info->major == major && info->minor >= minor);
}

// Which texture targets the API has: a binding query of any other one would
// raise GL_INVALID_ENUM.
static unsigned api_targets(const fxgl_gl_info *info) {
    bool es = info->api == FXGL_API_GLES;
    unsigned t = GL_STATE_TEX_2D | GL_STATE_TEX_3D | GL_STATE_TEX_2D_ARRAY | GL_STATE_TEX_CUBE;
    if (es) {
        t |= at_least(info, 3, 1) ? GL_STATE_TEX_2D_MS : 0;
        t |= at_least(info, 3, 2) ? GL_STATE_TEX_2D_MS_ARRAY | GL_STATE_TEX_CUBE_ARRAY |
                                        GL_STATE_TEX_BUFFER
                                  : 0;
        return t;
    }
    t |= GL_STATE_TEX_1D | GL_STATE_TEX_1D_ARRAY;
    t |= at_least(info, 3, 1) ? GL_STATE_TEX_RECT | GL_STATE_TEX_BUFFER : 0;
    t |= at_least(info, 3, 2) ? GL_STATE_TEX_2D_MS | GL_STATE_TEX_2D_MS_ARRAY : 0;
    t |= at_least(info, 4, 0) ? GL_STATE_TEX_CUBE_ARRAY : 0;
    return t;
}

static void init_caps(gl_state *st, struct GladGLContext *gl, const fxgl_gl_info *info) {
    gl_state_caps *c = &st->caps;
    bool es = info->api == FXGL_API_GLES;
    c->es = es;
    c->compat = !es && !info->core_profile;
    c->viewport_array = !es && at_least(info, 4, 1) && gl->ViewportIndexedfv &&
                        gl->GetFloati_v && gl->ScissorIndexedv && gl->DepthRangeIndexed &&
                        gl->GetDoublei_v && gl->Enablei && gl->Disablei && gl->IsEnabledi;
    if ((!es && at_least(info, 4, 0)) || (es && at_least(info, 3, 2))) {
        st->enablei = gl->Enablei;
        st->disablei = gl->Disablei;
        st->is_enabledi = gl->IsEnabledi;
        st->blend_funci = gl->BlendFuncSeparatei;
        st->blend_equationi = gl->BlendEquationSeparatei;
        st->color_maski = gl->ColorMaski;
    } else if (es && has_extension(gl, "GL_OES_draw_buffers_indexed")) {
        st->enablei = gl->EnableiOES;
        st->disablei = gl->DisableiOES;
        st->is_enabledi = gl->IsEnablediOES;
        st->blend_funci = gl->BlendFuncSeparateiOES;
        st->blend_equationi = gl->BlendEquationSeparateiOES;
        st->color_maski = gl->ColorMaskiOES;
    } else if (es && has_extension(gl, "GL_EXT_draw_buffers_indexed")) {
        st->enablei = gl->EnableiEXT;
        st->disablei = gl->DisableiEXT;
        st->is_enabledi = gl->IsEnablediEXT;
        st->blend_funci = gl->BlendFuncSeparateiEXT;
        st->blend_equationi = gl->BlendEquationSeparateiEXT;
        st->color_maski = gl->ColorMaskiEXT;
    }
    // Indexed queries need glGetIntegeri_v and glGetBooleani_v (ES 3.1) as well.
    c->indexed_blend = st->enablei && st->disablei && st->is_enabledi && st->blend_funci &&
                       st->blend_equationi && st->color_maski && gl->GetIntegeri_v &&
                       gl->GetBooleani_v;
    c->multi_bind = !es && at_least(info, 4, 4) && gl->BindSamplers;
    if (info->has_clip_control) {
        st->clip_control = es ? gl->ClipControlEXT : gl->ClipControl;
    }
    c->clip_control = st->clip_control != NULL;
    c->provoking_vertex = !es && at_least(info, 3, 2) && gl->ProvokingVertex;
    c->srgb_control = !es || has_extension(gl, "GL_EXT_sRGB_write_control");
    c->image_units = ((!es && at_least(info, 4, 2)) || (es && at_least(info, 3, 1))) &&
                     gl->BindImageTexture && gl->GetIntegeri_v && gl->GetBooleani_v;
    c->storage = ((!es && at_least(info, 4, 3)) || (es && at_least(info, 3, 1))) &&
                 gl->GetInteger64i_v && gl->BindBufferRange && gl->BindBufferBase;
    c->indirect = (!es && at_least(info, 4, 3)) || (es && at_least(info, 3, 1));
    c->sample_mask = (!es && at_least(info, 3, 2)) || (es && at_least(info, 3, 1));
    c->texture_buffer = (!es && at_least(info, 3, 1)) || (es && at_least(info, 3, 2));
    c->query_buffer = !es && (at_least(info, 4, 4) ||
                               has_extension(gl, "GL_ARB_query_buffer_object"));
    c->primitive_restart = !es && at_least(info, 3, 1);
    c->restart_fixed = es || at_least(info, 4, 3);
    c->tf_pause = gl->PauseTransformFeedback && gl->ResumeTransformFeedback &&
                  ((!es && at_least(info, 4, 0)) || es);
    if (!es) {
        c->clip_distances = get_limit(gl, GL_MAX_CLIP_DISTANCES);
        if (c->clip_distances > GL_STATE_MAX_CLIP_DISTANCES) {
            c->clip_distances = GL_STATE_MAX_CLIP_DISTANCES;
        }
    }
}

// The 8-bit stencil FBO used to read unclamped stencil refs. Created without
// disturbing any binding: DSA where the context has it, else bind and put back.
static bool create_stencil_fbo(gl_state *st, const fxgl_gl_info *info) {
    struct GladGLContext *gl = st->gl;
    bool dsa = info->api == FXGL_API_GL && at_least(info, 4, 5) && gl->CreateFramebuffers &&
               gl->CreateRenderbuffers && gl->NamedRenderbufferStorage &&
               gl->NamedFramebufferRenderbuffer;
    if (dsa) {
        gl->CreateRenderbuffers(1, &st->stencil_rb);
        gl->NamedRenderbufferStorage(st->stencil_rb, GL_STENCIL_INDEX8, 1, 1);
        gl->CreateFramebuffers(1, &st->stencil_fbo);
        gl->NamedFramebufferRenderbuffer(st->stencil_fbo, GL_STENCIL_ATTACHMENT,
                                         GL_RENDERBUFFER, st->stencil_rb);
        return st->stencil_fbo != 0;
    }
    if (!gl->GenRenderbuffers || !gl->GenFramebuffers || !gl->RenderbufferStorage ||
        !gl->FramebufferRenderbuffer) {
        return false;
    }
    GLint old_rb = 0, old_draw = 0;
    gl->GetIntegerv(GL_RENDERBUFFER_BINDING, &old_rb);
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &old_draw);
    gl->GenRenderbuffers(1, &st->stencil_rb);
    gl->BindRenderbuffer(GL_RENDERBUFFER, st->stencil_rb);
    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, 1, 1);
    gl->GenFramebuffers(1, &st->stencil_fbo);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, st->stencil_fbo);
    gl->FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                st->stencil_rb);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)old_draw);
    gl->BindRenderbuffer(GL_RENDERBUFFER, (GLuint)old_rb);
    return st->stencil_fbo != 0;
}

bool gl_state_init(gl_state *st, struct GladGLContext *gl, const fxgl_gl_info *info,
                   const gl_state_desc *desc) {
    memset(st, 0, sizeof(*st));
    const gl_state_desc none = {0};
    desc = desc ? desc : &none;
    // GL 3.0 / ES 3.0 is the floor of every query used unconditionally here
    // (separate read/draw framebuffers, VAOs, UBOs, samplers, glGetIntegeri_v).
    bool es = info->api == FXGL_API_GLES;
    if (!at_least(info, 3, es ? 0 : 3) || !gl->GetIntegerv || !gl->GetIntegeri_v ||
        !gl->GetInteger64i_v || !gl->GetFloatv || !gl->GetBooleanv || !gl->IsEnabled ||
        !gl->BindSampler || !gl->BindVertexArray || !gl->BindFramebuffer ||
        !gl->DrawBuffers || !gl->ReadBuffer || !gl->BindBufferRange || !gl->BindBufferBase) {
        return false;
    }
    // Entry points used without a capability check; a driver that lacks one
    // gets no state module rather than a NULL call at swap time.
    const any_fn required[] = {
        (any_fn)gl->ActiveTexture, (any_fn)gl->BindTexture,
        (any_fn)gl->BindBuffer, (any_fn)gl->UseProgram,
        (any_fn)gl->Enable, (any_fn)gl->Disable, (any_fn)gl->Viewport,
        (any_fn)gl->Scissor, (any_fn)gl->BlendFuncSeparate,
        (any_fn)gl->BlendEquationSeparate, (any_fn)gl->BlendColor,
        (any_fn)gl->ColorMask, (any_fn)gl->DepthMask, (any_fn)gl->DepthFunc,
        (any_fn)gl->StencilFuncSeparate, (any_fn)gl->StencilOpSeparate,
        (any_fn)gl->StencilMaskSeparate, (any_fn)gl->StencilFunc,
        (any_fn)gl->StencilOp, (any_fn)gl->StencilMask, (any_fn)gl->CullFace,
        (any_fn)gl->FrontFace, (any_fn)gl->PixelStorei,
        (any_fn)gl->ClearColor, (any_fn)gl->ClearStencil,
        (any_fn)gl->BindRenderbuffer, (any_fn)gl->DeleteFramebuffers,
        (any_fn)gl->DeleteRenderbuffers, (any_fn)gl->IsFramebuffer,
        (es ? (any_fn)gl->DepthRangef : (any_fn)gl->DepthRange),
        (es ? (any_fn)gl->ClearDepthf : (any_fn)gl->ClearDepth),
        (es ? (any_fn)gl->Viewport : (any_fn)gl->PolygonMode),
        (es ? (any_fn)gl->Viewport : (any_fn)gl->ClampColor),
        (es ? (any_fn)gl->Viewport : (any_fn)gl->DrawBuffer),
    };
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        if (!required[i]) {
            return false;
        }
    }
    st->gl = gl;
    init_caps(st, gl, info);

    unsigned have = api_targets(info);
    unsigned want = desc->texture_targets ? desc->texture_targets & have : have;
    for (int i = 0; i < GL_STATE_MAX_TARGETS; i++) {
        if (want & all_targets[i].bit) {
            st->targets[st->num_targets] = all_targets[i].target;
            st->bindings[st->num_targets] = all_targets[i].binding;
            st->num_targets++;
        }
    }
    st->desc.texture_targets = want;
    st->desc.texture_units = resolve_count(desc->texture_units, 32,
                                           get_limit(gl, GL_MAX_TEXTURE_IMAGE_UNITS));
    st->desc.uniform_buffers = resolve_count(desc->uniform_buffers, 8,
                                             get_limit(gl, GL_MAX_UNIFORM_BUFFER_BINDINGS));
    int limit = GL_STATE_MAX_DRAW_BUFFERS;
    int max_draw = get_limit(gl, GL_MAX_DRAW_BUFFERS);
    st->desc.draw_buffers = resolve_count(desc->draw_buffers, limit,
                                          max_draw < limit ? max_draw : limit);
    if (st->caps.storage) {
        st->desc.storage_buffers = resolve_count(
            desc->storage_buffers, 0, get_limit(gl, GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS));
        st->desc.atomic_buffers = resolve_count(
            desc->atomic_buffers, 0, get_limit(gl, GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS));
    }
    if (st->caps.image_units) {
        st->desc.image_units = resolve_count(desc->image_units, 8,
                                             get_limit(gl, GL_MAX_IMAGE_UNITS));
    }
    st->desc.lazy_units = desc->lazy_units;
    if (st->desc.lazy_units) {
        // The captured-unit masks are 64 bits wide.
        st->desc.texture_units = st->desc.texture_units < 64 ? st->desc.texture_units : 64;
        st->desc.image_units = st->desc.image_units < 64 ? st->desc.image_units : 64;
    }

    // Allocated once; capture and restore only fill them. calloc(0) may return
    // NULL, so only a failed non-empty allocation counts.
    st->units = calloc((size_t)st->desc.texture_units + 1, sizeof(*st->units));
    st->ubos = calloc((size_t)st->desc.uniform_buffers + 1, sizeof(*st->ubos));
    st->ssbos = calloc((size_t)st->desc.storage_buffers + 1, sizeof(*st->ssbos));
    st->atomics = calloc((size_t)st->desc.atomic_buffers + 1, sizeof(*st->atomics));
    st->images = calloc((size_t)st->desc.image_units + 1, sizeof(*st->images));
    if (!st->units || !st->ubos || !st->ssbos || !st->atomics || !st->images) {
        goto error;
    }
    if (!create_stencil_fbo(st, info)) {
        goto error;
    }
    return true;

error:
    gl_state_finish(st);
    return false;
}

void gl_state_finish(gl_state *st) {
    if (!st) {
        return;
    }
    struct GladGLContext *gl = st->gl;
    if (gl && st->stencil_fbo) {
        gl->DeleteFramebuffers(1, &st->stencil_fbo);
    }
    if (gl && st->stencil_rb) {
        gl->DeleteRenderbuffers(1, &st->stencil_rb);
    }
    free(st->units);
    free(st->ubos);
    free(st->ssbos);
    free(st->atomics);
    free(st->images);
    memset(st, 0, sizeof(*st));
}

// --- capture ---

static GLint get_int(gl_state *st, GLenum pname) {
    GLint v = 0;
    COUNT(st, st->gl->GetIntegerv(pname, &v));
    return v;
}

static GLboolean enabled(gl_state *st, GLenum cap) {
    return COUNT(st, st->gl->IsEnabled(cap));
}

static void get_range(gl_state *st, gl_state_range *r, int n, GLenum binding, GLenum start,
                      GLenum size) {
    struct GladGLContext *gl = st->gl;
    for (int i = 0; i < n; i++) {
        GLint b = 0;
        COUNT(st, gl->GetIntegeri_v(binding, (GLuint)i, &b));
        r[i].buffer = (GLuint)b;
        r[i].start = 0;
        r[i].size = 0;
        // An unbound index has no range worth two more queries.
        if (b) {
            COUNT(st, gl->GetInteger64i_v(start, (GLuint)i, &r[i].start));
            COUNT(st, gl->GetInteger64i_v(size, (GLuint)i, &r[i].size));
        }
    }
}

static void get_face(gl_state *st, gl_state_face *f, bool back) {
    f->func = get_int(st, back ? GL_STENCIL_BACK_FUNC : GL_STENCIL_FUNC);
    f->ref = get_int(st, back ? GL_STENCIL_BACK_REF : GL_STENCIL_REF);
    f->value_mask = get_int(st, back ? GL_STENCIL_BACK_VALUE_MASK : GL_STENCIL_VALUE_MASK);
    f->fail = get_int(st, back ? GL_STENCIL_BACK_FAIL : GL_STENCIL_FAIL);
    f->zfail = get_int(st, back ? GL_STENCIL_BACK_PASS_DEPTH_FAIL : GL_STENCIL_PASS_DEPTH_FAIL);
    f->zpass = get_int(st, back ? GL_STENCIL_BACK_PASS_DEPTH_PASS : GL_STENCIL_PASS_DEPTH_PASS);
    f->write_mask = get_int(st, back ? GL_STENCIL_BACK_WRITEMASK : GL_STENCIL_WRITEMASK);
}

static void capture_framebuffers(gl_state *st) {
    struct GladGLContext *gl = st->gl;
    int nd = st->desc.draw_buffers;
    st->draw_fbo = get_int(st, GL_DRAW_FRAMEBUFFER_BINDING);
    st->read_fbo = get_int(st, GL_READ_FRAMEBUFFER_BINDING);
    for (int i = 0; i < nd; i++) {
        st->fbo_draw_buffers[i] = get_int(st, GL_DRAW_BUFFER0 + (GLenum)i);
    }
    st->fbo_read_buffer = get_int(st, GL_READ_BUFFER);

    // The stencil refs, with 8 stencil bits bound so that they read unclamped.
    // Apps that delete fixed name ranges may have deleted the FBO: binding a
    // deleted name would be an error on core, so it is checked first.
    if (COUNT(st, gl->IsFramebuffer(st->stencil_fbo))) {
        COUNT(st, gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, st->stencil_fbo));
    }
    get_face(st, &st->front, false);
    get_face(st, &st->back, true);

    // Framebuffer 0's own draw and read buffers, which the runtime sets to
    // address the back buffer explicitly.
    COUNT(st, gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0));
    if (st->draw_fbo == 0) {
        memcpy(st->default_draw_buffers, st->fbo_draw_buffers, sizeof(st->fbo_draw_buffers));
    } else {
        for (int i = 0; i < nd; i++) {
            st->default_draw_buffers[i] = get_int(st, GL_DRAW_BUFFER0 + (GLenum)i);
        }
    }
    if (st->read_fbo == 0) {
        st->default_read_buffer = st->fbo_read_buffer;
    } else {
        COUNT(st, gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0));
        st->default_read_buffer = get_int(st, GL_READ_BUFFER);
    }
    st->renderbuffer = get_int(st, GL_RENDERBUFFER_BINDING);
}

static void capture_viewport(gl_state *st) {
    struct GladGLContext *gl = st->gl;
    if (st->caps.viewport_array) {
        COUNT(st, gl->GetFloati_v(GL_VIEWPORT, 0, st->viewport));
        COUNT(st, gl->GetDoublei_v(GL_DEPTH_RANGE, 0, st->depth_range));
        COUNT(st, gl->GetIntegeri_v(GL_SCISSOR_BOX, 0, st->scissor_box));
        st->scissor_test = COUNT(st, gl->IsEnabledi(GL_SCISSOR_TEST, 0));
    } else {
        GLint vp[4];
        GLfloat dr[2];
        COUNT(st, gl->GetIntegerv(GL_VIEWPORT, vp));
        COUNT(st, gl->GetFloatv(GL_DEPTH_RANGE, dr));
        COUNT(st, gl->GetIntegerv(GL_SCISSOR_BOX, st->scissor_box));
        st->scissor_test = enabled(st, GL_SCISSOR_TEST);
        for (int i = 0; i < 4; i++) {
            st->viewport[i] = (GLfloat)vp[i];
        }
        st->depth_range[0] = dr[0];
        st->depth_range[1] = dr[1];
    }
}

static void capture_buffers(gl_state *st) {
    const gl_state_caps *c = &st->caps;
    st->program = get_int(st, GL_CURRENT_PROGRAM);
    st->vao = get_int(st, GL_VERTEX_ARRAY_BINDING);
    st->array_buffer = get_int(st, GL_ARRAY_BUFFER_BINDING);
    st->element_buffer = get_int(st, GL_ELEMENT_ARRAY_BUFFER_BINDING);
    st->uniform_buffer = get_int(st, GL_UNIFORM_BUFFER_BINDING);
    st->copy_read_buffer = get_int(st, GL_COPY_READ_BUFFER_BINDING);
    st->copy_write_buffer = get_int(st, GL_COPY_WRITE_BUFFER_BINDING);
    st->pack_buffer = get_int(st, GL_PIXEL_PACK_BUFFER_BINDING);
    st->unpack_buffer = get_int(st, GL_PIXEL_UNPACK_BUFFER_BINDING);
    if (c->indirect) {
        st->draw_indirect_buffer = get_int(st, GL_DRAW_INDIRECT_BUFFER_BINDING);
        st->dispatch_indirect_buffer = get_int(st, GL_DISPATCH_INDIRECT_BUFFER_BINDING);
    }
    if (c->storage) {
        st->storage_buffer = get_int(st, GL_SHADER_STORAGE_BUFFER_BINDING);
        st->atomic_buffer = get_int(st, GL_ATOMIC_COUNTER_BUFFER_BINDING);
    }
    if (c->texture_buffer) {
        st->texture_buffer = get_int(st, GL_TEXTURE_BUFFER_BINDING);
    }
    if (c->query_buffer) {
        st->query_buffer = get_int(st, GL_QUERY_BUFFER_BINDING);
    }
    get_range(st, st->ubos, st->desc.uniform_buffers, GL_UNIFORM_BUFFER_BINDING,
              GL_UNIFORM_BUFFER_START, GL_UNIFORM_BUFFER_SIZE);
    get_range(st, st->ssbos, st->desc.storage_buffers, GL_SHADER_STORAGE_BUFFER_BINDING,
              GL_SHADER_STORAGE_BUFFER_START, GL_SHADER_STORAGE_BUFFER_SIZE);
    get_range(st, st->atomics, st->desc.atomic_buffers, GL_ATOMIC_COUNTER_BUFFER_BINDING,
              GL_ATOMIC_COUNTER_BUFFER_START, GL_ATOMIC_COUNTER_BUFFER_SIZE);
}

// The active unit's bindings and sampler.
static void read_unit(gl_state *st, int u) {
    gl_state_unit *unit = &st->units[u];
    for (int t = 0; t < st->num_targets; t++) {
        unit->texture[t] = (GLuint)get_int(st, st->bindings[t]);
    }
    unit->sampler = (GLuint)get_int(st, GL_SAMPLER_BINDING);
}

static void read_image(gl_state *st, int i) {
    struct GladGLContext *gl = st->gl;
    gl_state_image *im = &st->images[i];
    GLuint u = (GLuint)i;
    COUNT(st, gl->GetIntegeri_v(GL_IMAGE_BINDING_NAME, u, &im->texture));
    COUNT(st, gl->GetIntegeri_v(GL_IMAGE_BINDING_LEVEL, u, &im->level));
    COUNT(st, gl->GetBooleani_v(GL_IMAGE_BINDING_LAYERED, u, &im->layered));
    COUNT(st, gl->GetIntegeri_v(GL_IMAGE_BINDING_LAYER, u, &im->layer));
    COUNT(st, gl->GetIntegeri_v(GL_IMAGE_BINDING_ACCESS, u, &im->access));
    COUNT(st, gl->GetIntegeri_v(GL_IMAGE_BINDING_FORMAT, u, &im->format));
}

static void capture_textures(gl_state *st) {
    struct GladGLContext *gl = st->gl;
    st->active_texture = get_int(st, GL_ACTIVE_TEXTURE);
    // Lazily: unit 0 only, which the defaults select and which loading binds on.
    int units = st->desc.lazy_units && st->desc.texture_units > 0 ? 1 : st->desc.texture_units;
    bool moved = false;
    for (int u = 0; u < units; u++) {
        if (u > 0 || st->active_texture != GL_TEXTURE0) {
            COUNT(st, gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u));
            moved = true;
        }
        read_unit(st, u);
    }
    st->captured_units = units > 0 ? 1u : 0u;
    st->captured_images = 0;
    // Put the selector back: capture changes nothing but framebuffer bindings.
    if (moved) {
        COUNT(st, gl->ActiveTexture((GLenum)st->active_texture));
    }
    if (!st->desc.lazy_units) {
        for (int i = 0; i < st->desc.image_units; i++) {
            read_image(st, i);
        }
    }
}

bool gl_state_capture_unit(gl_state *st, int unit) {
    if (!st->gl || !st->captured || unit < 0 || unit >= st->desc.texture_units ||
        gl_state_unit_captured(st, unit)) {
        return false;
    }
    COUNT(st, st->gl->ActiveTexture(GL_TEXTURE0 + (GLenum)unit));
    read_unit(st, unit);
    st->captured_units |= UINT64_C(1) << unit;
    st->dirty |= GL_STATE_ACTIVE_TEXTURE;
    return true;
}

void gl_state_capture_image(gl_state *st, int unit) {
    if (!st->gl || !st->captured || !st->desc.lazy_units || unit < 0 ||
        unit >= st->desc.image_units || ((st->captured_images >> unit) & 1u)) {
        return;
    }
    read_image(st, unit);
    st->captured_images |= UINT64_C(1) << unit;
}

static void capture_blend(gl_state *st) {
    struct GladGLContext *gl = st->gl;
    int n = st->caps.indexed_blend ? st->desc.draw_buffers : 1;
    for (int i = 0; i < n; i++) {
        gl_state_blend *b = &st->blend[i];
        GLuint u = (GLuint)i;
        if (st->caps.indexed_blend) {
            b->enabled = COUNT(st, st->is_enabledi(GL_BLEND, u));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_SRC_RGB, u, &b->src_rgb));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_DST_RGB, u, &b->dst_rgb));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_SRC_ALPHA, u, &b->src_alpha));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_DST_ALPHA, u, &b->dst_alpha));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_EQUATION_RGB, u, &b->eq_rgb));
            COUNT(st, gl->GetIntegeri_v(GL_BLEND_EQUATION_ALPHA, u, &b->eq_alpha));
            COUNT(st, gl->GetBooleani_v(GL_COLOR_WRITEMASK, u, b->mask));
        } else {
            b->enabled = enabled(st, GL_BLEND);
            b->src_rgb = get_int(st, GL_BLEND_SRC_RGB);
            b->dst_rgb = get_int(st, GL_BLEND_DST_RGB);
            b->src_alpha = get_int(st, GL_BLEND_SRC_ALPHA);
            b->dst_alpha = get_int(st, GL_BLEND_DST_ALPHA);
            b->eq_rgb = get_int(st, GL_BLEND_EQUATION_RGB);
            b->eq_alpha = get_int(st, GL_BLEND_EQUATION_ALPHA);
            COUNT(st, gl->GetBooleanv(GL_COLOR_WRITEMASK, b->mask));
        }
    }
    COUNT(st, gl->GetFloatv(GL_BLEND_COLOR, st->blend_color));
}

static void capture_fixed(gl_state *st) {
    struct GladGLContext *gl = st->gl;
    const gl_state_caps *c = &st->caps;
    st->depth_test = enabled(st, GL_DEPTH_TEST);
    COUNT(st, gl->GetBooleanv(GL_DEPTH_WRITEMASK, &st->depth_mask));
    st->depth_func = get_int(st, GL_DEPTH_FUNC);
    st->stencil_test = enabled(st, GL_STENCIL_TEST);
    st->cull_face = enabled(st, GL_CULL_FACE);
    st->cull_mode = get_int(st, GL_CULL_FACE_MODE);
    st->front_face = get_int(st, GL_FRONT_FACE);
    st->rasterizer_discard = enabled(st, GL_RASTERIZER_DISCARD);
    st->polygon_offset_fill = enabled(st, GL_POLYGON_OFFSET_FILL);
    st->alpha_to_coverage = enabled(st, GL_SAMPLE_ALPHA_TO_COVERAGE);
    st->sample_coverage = enabled(st, GL_SAMPLE_COVERAGE);
    st->dither = enabled(st, GL_DITHER);
    if (c->restart_fixed) {
        st->primitive_restart_fixed = enabled(st, GL_PRIMITIVE_RESTART_FIXED_INDEX);
    }
    if (c->sample_mask) {
        st->sample_mask = enabled(st, GL_SAMPLE_MASK);
    }
    if (c->srgb_control) {
        st->framebuffer_srgb = enabled(st, GL_FRAMEBUFFER_SRGB);
    }
    if (c->clip_control) {
        st->clip_origin = get_int(st, GL_CLIP_ORIGIN);
        st->clip_depth_mode = get_int(st, GL_CLIP_DEPTH_MODE);
    }
    if (c->provoking_vertex) {
        st->provoking_vertex = get_int(st, GL_PROVOKING_VERTEX);
    }
    if (!c->es) {
        COUNT(st, gl->GetIntegerv(GL_POLYGON_MODE, st->polygon_mode));
        st->multisample = enabled(st, GL_MULTISAMPLE);
        st->depth_clamp = enabled(st, GL_DEPTH_CLAMP);
        st->color_logic_op = enabled(st, GL_COLOR_LOGIC_OP);
        st->polygon_smooth = enabled(st, GL_POLYGON_SMOOTH);
        st->clamp_read_color = get_int(st, GL_CLAMP_READ_COLOR);
        for (int i = 0; i < c->clip_distances; i++) {
            st->clip_distance[i] = enabled(st, GL_CLIP_DISTANCE0 + (GLenum)i);
        }
    }
    if (c->primitive_restart) {
        st->primitive_restart = enabled(st, GL_PRIMITIVE_RESTART);
    }
    if (c->compat) {
        st->alpha_test = enabled(st, GL_ALPHA_TEST);
        st->polygon_stipple = enabled(st, GL_POLYGON_STIPPLE);
        st->clamp_fragment_color = get_int(st, GL_CLAMP_FRAGMENT_COLOR);
    }
    if (c->tf_pause) {
        COUNT(st, gl->GetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &st->tf_active));
        COUNT(st, gl->GetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &st->tf_paused));
    }
    int npack = c->es ? 4 : 8, nunpack = c->es ? 6 : 8;
    for (int i = 0; i < npack; i++) {
        st->pack[i] = get_int(st, pack_names[i]);
    }
    for (int i = 0; i < nunpack; i++) {
        st->unpack[i] = get_int(st, unpack_names[i]);
    }
    COUNT(st, gl->GetFloatv(GL_COLOR_CLEAR_VALUE, st->clear_color));
    COUNT(st, gl->GetFloatv(GL_DEPTH_CLEAR_VALUE, &st->clear_depth));
    st->clear_stencil = get_int(st, GL_STENCIL_CLEAR_VALUE);
}

void gl_state_capture(gl_state *st) {
    if (!st->gl) {
        return;
    }
    uint32_t start = st->calls;
    capture_framebuffers(st);
    capture_viewport(st);
    capture_buffers(st);
    capture_textures(st);
    capture_blend(st);
    capture_fixed(st);
    st->dirty = 0;
    memset(st->dirty_units, 0, sizeof(st->dirty_units));
    st->captured = true;
    st->stats.captures++;
    st->stats.capture_calls = st->calls - start;
}

// --- runtime defaults ---
//
// Each default is written only where the captured value differs from it
// (or without a capture), and gl_state_restore_changed writes back exactly
// the values that differ plus what the frame marked: state left at the
// application's value is neither written nor read twice.

static void set_enable(gl_state *st, GLenum cap, bool on) {
    if (on) {
        COUNT(st, st->gl->Enable(cap));
    } else {
        COUNT(st, st->gl->Disable(cap));
    }
}

// glDepthRangef is ES and GL 4.1; glDepthRange (double) is every desktop GL.
static void set_depth_range(gl_state *st, GLdouble n, GLdouble f) {
    if (st->caps.es) {
        COUNT(st, st->gl->DepthRangef((GLfloat)n, (GLfloat)f));
    } else {
        COUNT(st, st->gl->DepthRange(n, f));
    }
}

// The defaults' values, as predicates on the capture: true when the captured
// value is not the default (the defaults then write it, and restore puts it back).
static bool pack_moved(const gl_state *st, const GLint *v, int i) {
    (void)st;
    return v[i] != (i == 0 ? 4 : 0);
}

static bool depth_range_moved(const gl_state *st) {
    return st->depth_range[0] != 0.0 || st->depth_range[1] != 1.0;
}

static int blend_buffers(const gl_state *st) {
    return st->caps.indexed_blend ? st->desc.draw_buffers : 1;
}

static bool blend_enable_moved(const gl_state *st) {
    for (int i = 0; i < blend_buffers(st); i++) {
        if (st->blend[i].enabled) {
            return true;
        }
    }
    return false;
}

static bool blend_func_moved(const gl_state *st) {
    for (int i = 0; i < blend_buffers(st); i++) {
        const gl_state_blend *b = &st->blend[i];
        if (b->src_rgb != GL_ONE || b->dst_rgb != GL_ZERO || b->src_alpha != GL_ONE ||
            b->dst_alpha != GL_ZERO) {
            return true;
        }
    }
    return false;
}

static bool blend_equation_moved(const gl_state *st) {
    for (int i = 0; i < blend_buffers(st); i++) {
        if (st->blend[i].eq_rgb != GL_FUNC_ADD || st->blend[i].eq_alpha != GL_FUNC_ADD) {
            return true;
        }
    }
    return false;
}

static bool color_mask_moved(const gl_state *st) {
    for (int i = 0; i < blend_buffers(st); i++) {
        const GLboolean *m = st->blend[i].mask;
        if (!m[0] || !m[1] || !m[2] || !m[3]) {
            return true;
        }
    }
    return false;
}

// The stencil masks read back clamped to the 8 bits of the FBO bound while
// they are read (Mesa: ~0 reads 0xFF), and no stencil buffer has more: a
// mask with its low 8 bits set acts as the default ~0.
static bool stencil_mask_full(GLint mask) {
    return ((GLuint)mask & 0xFFu) == 0xFFu;
}

static bool stencil_func_moved(const gl_state *st) {
    const gl_state_face *f[2] = {&st->front, &st->back};
    for (int i = 0; i < 2; i++) {
        if (f[i]->func != GL_ALWAYS || f[i]->ref != 0 || !stencil_mask_full(f[i]->value_mask)) {
            return true;
        }
    }
    return false;
}

static bool stencil_op_moved(const gl_state *st) {
    const gl_state_face *f[2] = {&st->front, &st->back};
    for (int i = 0; i < 2; i++) {
        if (f[i]->fail != GL_KEEP || f[i]->zfail != GL_KEEP || f[i]->zpass != GL_KEEP) {
            return true;
        }
    }
    return false;
}

static bool stencil_mask_moved(const gl_state *st) {
    return !stencil_mask_full(st->front.write_mask) || !stencil_mask_full(st->back.write_mask);
}

static bool clip_control_moved(const gl_state *st) {
    return st->clip_origin != GL_LOWER_LEFT || st->clip_depth_mode != GL_NEGATIVE_ONE_TO_ONE;
}

static bool polygon_mode_moved(const gl_state *st) {
    return st->polygon_mode[0] != GL_FILL || st->polygon_mode[1] != GL_FILL;
}

void gl_state_set_runtime_defaults(gl_state *st) {
    if (!st->gl) {
        return;
    }
    struct GladGLContext *gl = st->gl;
    const gl_state_caps *c = &st->caps;
    uint32_t start = st->calls;
    // Without a capture nothing is known: every default is written.
    bool all = !st->captured;
#define MOVED(expr) (all || (expr))
    // Only pixel buffers are used implicitly (by uploads and read-backs); the
    // other generic bindings are set by the runtime before any use.
    if (MOVED(st->pack_buffer != 0)) {
        COUNT(st, gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    }
    if (MOVED(st->unpack_buffer != 0)) {
        COUNT(st, gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    }
    // A bound query buffer turns the runtime's timer read-backs into writes
    // into it, at an offset taken from the pointer: GL_INVALID_OPERATION.
    if (c->query_buffer && MOVED(st->query_buffer != 0)) {
        COUNT(st, gl->BindBuffer(GL_QUERY_BUFFER, 0));
    }
    int npack = c->es ? 4 : 8, nunpack = c->es ? 6 : 8;
    for (int i = 0; i < npack; i++) {
        if (MOVED(pack_moved(st, st->pack, i))) {
            COUNT(st, gl->PixelStorei(pack_names[i], i == 0 ? 4 : 0));
        }
    }
    for (int i = 0; i < nunpack; i++) {
        if (MOVED(pack_moved(st, st->unpack, i))) {
            COUNT(st, gl->PixelStorei(unpack_names[i], i == 0 ? 4 : 0));
        }
    }
    // Without viewport arrays there is one scissor; with them only index 0 is ours.
    if (c->viewport_array) {
        if (MOVED(st->scissor_test)) {
            COUNT(st, gl->Disablei(GL_SCISSOR_TEST, 0));
        }
        if (MOVED(depth_range_moved(st))) {
            COUNT(st, gl->DepthRangeIndexed(0, 0.0, 1.0));
        }
    } else {
        if (MOVED(st->scissor_test)) {
            COUNT(st, gl->Disable(GL_SCISSOR_TEST));
        }
        if (MOVED(depth_range_moved(st))) {
            set_depth_range(st, 0.0, 1.0);
        }
    }
    // glDisable(GL_BLEND) and the non-indexed calls cover every draw buffer.
    if (MOVED(blend_enable_moved(st))) {
        COUNT(st, gl->Disable(GL_BLEND));
    }
    if (MOVED(blend_func_moved(st))) {
        COUNT(st, gl->BlendFuncSeparate(GL_ONE, GL_ZERO, GL_ONE, GL_ZERO));
    }
    if (MOVED(blend_equation_moved(st))) {
        COUNT(st, gl->BlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD));
    }
    if (MOVED(color_mask_moved(st))) {
        COUNT(st, gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE));
    }
    if (MOVED(st->depth_test)) {
        COUNT(st, gl->Disable(GL_DEPTH_TEST));
    }
    if (MOVED(!st->depth_mask)) {
        COUNT(st, gl->DepthMask(GL_TRUE));
    }
    if (MOVED(st->depth_func != GL_LESS)) {
        COUNT(st, gl->DepthFunc(GL_LESS));
    }
    if (MOVED(st->stencil_test)) {
        COUNT(st, gl->Disable(GL_STENCIL_TEST));
    }
    if (MOVED(stencil_func_moved(st))) {
        COUNT(st, gl->StencilFunc(GL_ALWAYS, 0, 0xFFFFFFFFu));
    }
    if (MOVED(stencil_op_moved(st))) {
        COUNT(st, gl->StencilOp(GL_KEEP, GL_KEEP, GL_KEEP));
    }
    if (MOVED(stencil_mask_moved(st))) {
        COUNT(st, gl->StencilMask(0xFFFFFFFFu));
    }
    if (MOVED(st->cull_face)) {
        COUNT(st, gl->Disable(GL_CULL_FACE));
    }
    if (MOVED(st->front_face != GL_CCW)) {
        COUNT(st, gl->FrontFace(GL_CCW));
    }
    // Dithering would make 8-bit results differ from the computed values.
    const struct {
        GLenum cap;
        bool have;
        GLboolean value;
    } off[] = {
        {GL_RASTERIZER_DISCARD, true, st->rasterizer_discard},
        {GL_POLYGON_OFFSET_FILL, true, st->polygon_offset_fill},
        {GL_SAMPLE_ALPHA_TO_COVERAGE, true, st->alpha_to_coverage},
        {GL_SAMPLE_COVERAGE, true, st->sample_coverage},
        {GL_DITHER, true, st->dither},
        {GL_PRIMITIVE_RESTART_FIXED_INDEX, c->restart_fixed, st->primitive_restart_fixed},
        {GL_SAMPLE_MASK, c->sample_mask, st->sample_mask},
        {GL_FRAMEBUFFER_SRGB, c->srgb_control, st->framebuffer_srgb},
    };
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
        if (off[i].have && MOVED(off[i].value)) {
            COUNT(st, gl->Disable(off[i].cap));
        }
    }
    if (c->clip_control && MOVED(clip_control_moved(st))) {
        COUNT(st, st->clip_control(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE));
    }
    // The reference's convention (D3D and Vulkan: the first vertex), for flat
    // varyings; and on llvmpipe the fullscreen triangle's plane equations then
    // start from its vertex at the origin, as lavapipe's do (exact.c).
    if (c->provoking_vertex && MOVED(st->provoking_vertex != GL_FIRST_VERTEX_CONVENTION)) {
        COUNT(st, gl->ProvokingVertex(GL_FIRST_VERTEX_CONVENTION));
    }
    if (!c->es) {
        if (MOVED(polygon_mode_moved(st))) {
            COUNT(st, gl->PolygonMode(GL_FRONT_AND_BACK, GL_FILL));
        }
        if (MOVED(st->multisample)) {
            COUNT(st, gl->Disable(GL_MULTISAMPLE));
        }
        if (MOVED(st->depth_clamp)) {
            COUNT(st, gl->Disable(GL_DEPTH_CLAMP));
        }
        if (MOVED(st->color_logic_op)) {
            COUNT(st, gl->Disable(GL_COLOR_LOGIC_OP));
        }
        if (MOVED(st->polygon_smooth)) {
            COUNT(st, gl->Disable(GL_POLYGON_SMOOTH));
        }
        if (MOVED(st->clamp_read_color != GL_FIXED_ONLY)) {
            COUNT(st, gl->ClampColor(GL_CLAMP_READ_COLOR, GL_FIXED_ONLY));
        }
        // Enabled clip distances that the runtime's shaders do not write give
        // undefined results.
        for (int i = 0; i < c->clip_distances; i++) {
            if (MOVED(st->clip_distance[i])) {
                COUNT(st, gl->Disable(GL_CLIP_DISTANCE0 + (GLenum)i));
            }
        }
    }
    if (c->primitive_restart && MOVED(st->primitive_restart)) {
        COUNT(st, gl->Disable(GL_PRIMITIVE_RESTART));
    }
    if (c->compat) {
        // The compatibility fixed-function steps that still apply after a
        // fragment shader: the alpha test on colour 0, polygon stippling and
        // fragment colour clamping (which would clamp float targets).
        if (MOVED(st->alpha_test)) {
            COUNT(st, gl->Disable(GL_ALPHA_TEST));
        }
        if (MOVED(st->polygon_stipple)) {
            COUNT(st, gl->Disable(GL_POLYGON_STIPPLE));
        }
        if (MOVED(st->clamp_fragment_color != GL_FIXED_ONLY)) {
            COUNT(st, gl->ClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_FIXED_ONLY));
        }
    }
    if (c->tf_pause && st->captured && st->tf_active && !st->tf_paused) {
        // An active transform feedback would record the runtime's draws.
        COUNT(st, gl->PauseTransformFeedback());
    }
    if (MOVED(st->active_texture != GL_TEXTURE0)) {
        COUNT(st, gl->ActiveTexture(GL_TEXTURE0));
    }
    if (MOVED(st->program != 0)) {
        COUNT(st, gl->UseProgram(0));
    }
    if (MOVED(st->vao != 0)) {
        COUNT(st, gl->BindVertexArray(0));
    }
#undef MOVED
    st->stats.defaults_calls = st->calls - start;
}

void gl_state_touch_all(gl_state *st) {
    st->dirty = GL_STATE_ALL;
    memset(st->dirty_units, 0xFF, sizeof(st->dirty_units));
}

// --- restore ---
//
// Every restore_* takes `all` (gl_state_restore: write everything back) and
// otherwise writes an item when its group is marked or the defaults moved it.

#define NEED(group, moved) (all || (st->dirty & (group)) || (moved))

static bool unit_marked(const gl_state *st, gl_state_unit_kind kind, int unit) {
    return (st->dirty_units[kind] >> (unit < 63 ? unit : 63)) & 1u;
}

// glDrawBuffers rejects GL_BACK/GL_FRONT/GL_LEFT.. on desktop GL; one buffer
// goes through glDrawBuffer there, which accepts every value the query returns.
static void restore_draw_buffers(gl_state *st, const GLint *bufs) {
    struct GladGLContext *gl = st->gl;
    int n = st->desc.draw_buffers;
    while (n > 1 && bufs[n - 1] == GL_NONE) {
        n--;
    }
    if (n <= 1 && !st->caps.es && gl->DrawBuffer) {
        COUNT(st, gl->DrawBuffer((GLenum)bufs[0]));
        return;
    }
    GLenum list[GL_STATE_MAX_DRAW_BUFFERS];
    for (int i = 0; i < n; i++) {
        list[i] = (GLenum)bufs[i];
    }
    COUNT(st, gl->DrawBuffers(n > 0 ? n : 1, list));
}

static void restore_framebuffers(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    if (!NEED(GL_STATE_FRAMEBUFFERS, false)) {
        // Only the capture moved them: it leaves framebuffer 0 bound for draw
        // (and for read when the application's was another).
        if (st->draw_fbo) {
            COUNT(st, gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)st->draw_fbo));
        }
        if (st->read_fbo) {
            COUNT(st, gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)st->read_fbo));
        }
        return;
    }
    COUNT(st, gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0));
    restore_draw_buffers(st, st->default_draw_buffers);
    COUNT(st, gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    COUNT(st, gl->ReadBuffer((GLenum)st->default_read_buffer));
    if (st->draw_fbo) {
        COUNT(st, gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)st->draw_fbo));
        restore_draw_buffers(st, st->fbo_draw_buffers);
    }
    if (st->read_fbo) {
        COUNT(st, gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)st->read_fbo));
        COUNT(st, gl->ReadBuffer((GLenum)st->fbo_read_buffer));
    }
    COUNT(st, gl->BindRenderbuffer(GL_RENDERBUFFER, (GLuint)st->renderbuffer));
}

static void restore_viewport(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    bool marked = NEED(GL_STATE_VIEWPORT, false);
    if (st->caps.viewport_array) {
        if (marked) {
            COUNT(st, gl->ViewportIndexedfv(0, st->viewport));
        }
        if (marked || depth_range_moved(st)) {
            COUNT(st, gl->DepthRangeIndexed(0, st->depth_range[0], st->depth_range[1]));
        }
        if (marked) {
            COUNT(st, gl->ScissorIndexedv(0, st->scissor_box));
        }
        if (marked || st->scissor_test) {
            if (st->scissor_test) {
                COUNT(st, gl->Enablei(GL_SCISSOR_TEST, 0));
            } else {
                COUNT(st, gl->Disablei(GL_SCISSOR_TEST, 0));
            }
        }
    } else {
        if (marked) {
            COUNT(st, gl->Viewport((GLint)st->viewport[0], (GLint)st->viewport[1],
                                   (GLsizei)st->viewport[2], (GLsizei)st->viewport[3]));
        }
        if (marked || depth_range_moved(st)) {
            set_depth_range(st, st->depth_range[0], st->depth_range[1]);
        }
        if (marked) {
            COUNT(st, gl->Scissor(st->scissor_box[0], st->scissor_box[1], st->scissor_box[2],
                                  st->scissor_box[3]));
        }
        if (marked || st->scissor_test) {
            set_enable(st, GL_SCISSOR_TEST, st->scissor_test);
        }
    }
}

static void restore_range(gl_state *st, bool all, const gl_state_range *r, int n,
                          GLenum target, gl_state_unit_kind kind) {
    for (int i = 0; i < n; i++) {
        if (!all && (kind == GL_STATE_UNIT_KINDS || !unit_marked(st, kind, i))) {
            continue;
        }
        if (r[i].buffer && r[i].size > 0) {
            COUNT(st, st->gl->BindBufferRange(target, (GLuint)i, r[i].buffer,
                                              (GLintptr)r[i].start, (GLsizeiptr)r[i].size));
        } else {
            COUNT(st, st->gl->BindBufferBase(target, (GLuint)i, r[i].buffer));
        }
    }
}

static void restore_buffers(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    const gl_state_caps *c = &st->caps;
    // Indexed first: glBindBufferBase/Range also set the generic binding.
    // (Only UBOs are marked per index; the runtime binds no SSBO or atomic range.)
    restore_range(st, all, st->ubos, st->desc.uniform_buffers, GL_UNIFORM_BUFFER,
                  GL_STATE_UNIT_UBO);
    restore_range(st, all, st->ssbos, st->desc.storage_buffers, GL_SHADER_STORAGE_BUFFER,
                  GL_STATE_UNIT_KINDS);
    restore_range(st, all, st->atomics, st->desc.atomic_buffers, GL_ATOMIC_COUNTER_BUFFER,
                  GL_STATE_UNIT_KINDS);
    if (NEED(GL_STATE_VAO, st->vao != 0)) {
        COUNT(st, gl->BindVertexArray((GLuint)st->vao));
        // The element binding belongs to the VAO; a core context without one has none.
        if (st->vao || c->es || c->compat) {
            COUNT(st, gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, (GLuint)st->element_buffer));
        }
    }
    // A UBO range written back also moved the generic binding.
    bool generic = NEED(GL_STATE_BUFFERS, st->dirty_units[GL_STATE_UNIT_UBO] != 0);
    if (generic) {
        COUNT(st, gl->BindBuffer(GL_ARRAY_BUFFER, (GLuint)st->array_buffer));
        COUNT(st, gl->BindBuffer(GL_UNIFORM_BUFFER, (GLuint)st->uniform_buffer));
        COUNT(st, gl->BindBuffer(GL_COPY_READ_BUFFER, (GLuint)st->copy_read_buffer));
        COUNT(st, gl->BindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)st->copy_write_buffer));
    }
    if (generic || st->pack_buffer) {
        COUNT(st, gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)st->pack_buffer));
    }
    if (generic || st->unpack_buffer) {
        COUNT(st, gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)st->unpack_buffer));
    }
    if (generic && c->indirect) {
        COUNT(st, gl->BindBuffer(GL_DRAW_INDIRECT_BUFFER, (GLuint)st->draw_indirect_buffer));
        COUNT(st, gl->BindBuffer(GL_DISPATCH_INDIRECT_BUFFER,
                                 (GLuint)st->dispatch_indirect_buffer));
    }
    if (generic && c->storage) {
        COUNT(st, gl->BindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)st->storage_buffer));
        COUNT(st, gl->BindBuffer(GL_ATOMIC_COUNTER_BUFFER, (GLuint)st->atomic_buffer));
    }
    if (generic && c->texture_buffer) {
        COUNT(st, gl->BindBuffer(GL_TEXTURE_BUFFER, (GLuint)st->texture_buffer));
    }
    if (c->query_buffer && st->query_buffer) {
        COUNT(st, gl->BindBuffer(GL_QUERY_BUFFER, (GLuint)st->query_buffer));
    }
    if (NEED(GL_STATE_PROGRAM, st->program != 0)) {
        COUNT(st, gl->UseProgram((GLuint)st->program));
    }
}

static void restore_textures(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    int n = st->desc.texture_units;
    bool selector = NEED(GL_STATE_ACTIVE_TEXTURE, st->active_texture != GL_TEXTURE0);
    for (int u = 0; u < n; u++) {
        if (!gl_state_unit_captured(st, u) ||
            (!all && !unit_marked(st, GL_STATE_UNIT_TEXTURE, u))) {
            continue;
        }
        COUNT(st, gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u));
        selector = true;
        for (int t = 0; t < st->num_targets; t++) {
            COUNT(st, gl->BindTexture(st->targets[t], st->units[u].texture[t]));
        }
    }
    // Samplers: the marked units (all: every captured one).
    uint64_t sampler_mask = all ? ~UINT64_C(0) : st->dirty_units[GL_STATE_UNIT_SAMPLER];
    if (st->desc.lazy_units) {
        sampler_mask &= st->captured_units;
    }
#define SAMPLER_MARKED(u) ((sampler_mask >> ((u) < 63 ? (u) : 63)) & 1u)
    if (st->caps.multi_bind && n > 0 && sampler_mask && !st->desc.lazy_units) {
        // One call over the marked span (unmarked units inside it get their
        // own captured values back, which changes nothing). Lazily captured
        // units go one by one: units between them were never read.
        int lo = 0, hi = n - 1;
        while (lo < n && !SAMPLER_MARKED(lo)) {
            lo++;
        }
        while (hi > lo && !SAMPLER_MARKED(hi)) {
            hi--;
        }
        GLuint samplers[64];
        for (int first = lo; first <= hi; first += 64) {
            int count = hi + 1 - first < 64 ? hi + 1 - first : 64;
            for (int i = 0; i < count; i++) {
                samplers[i] = st->units[first + i].sampler;
            }
            COUNT(st, gl->BindSamplers((GLuint)first, count, samplers));
        }
    } else if (sampler_mask) {
        for (int u = 0; u < n; u++) {
            if (SAMPLER_MARKED(u)) {
                COUNT(st, gl->BindSampler((GLuint)u, st->units[u].sampler));
            }
        }
    }
#undef SAMPLER_MARKED
    if (selector) {
        COUNT(st, gl->ActiveTexture((GLenum)st->active_texture));
    }
    for (int i = 0; i < st->desc.image_units; i++) {
        if ((st->desc.lazy_units && !((st->captured_images >> i) & 1u)) ||
            (!all && !unit_marked(st, GL_STATE_UNIT_IMAGE, i))) {
            continue;
        }
        const gl_state_image *im = &st->images[i];
        COUNT(st, gl->BindImageTexture((GLuint)i, (GLuint)im->texture, im->level, im->layered,
                                       im->layer, (GLenum)im->access, (GLenum)im->format));
    }
}

static bool blend_equal(const gl_state_blend *a, const gl_state_blend *b) {
    return a->enabled == b->enabled && a->src_rgb == b->src_rgb && a->dst_rgb == b->dst_rgb &&
           a->src_alpha == b->src_alpha && a->dst_alpha == b->dst_alpha &&
           a->eq_rgb == b->eq_rgb && a->eq_alpha == b->eq_alpha &&
           memcmp(a->mask, b->mask, sizeof(a->mask)) == 0;
}

static void restore_blend(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    if (NEED(GL_STATE_BLEND, blend_enable_moved(st) || blend_func_moved(st) ||
                                 blend_equation_moved(st) || color_mask_moved(st))) {
        int n = blend_buffers(st);
        bool uniform = true;
        for (int i = 1; i < n; i++) {
            uniform = uniform && blend_equal(&st->blend[0], &st->blend[i]);
        }
        if (uniform) {
            // The common case: the non-indexed calls set every draw buffer at once.
            const gl_state_blend *b = &st->blend[0];
            set_enable(st, GL_BLEND, b->enabled);
            COUNT(st, gl->BlendFuncSeparate((GLenum)b->src_rgb, (GLenum)b->dst_rgb,
                                            (GLenum)b->src_alpha, (GLenum)b->dst_alpha));
            COUNT(st, gl->BlendEquationSeparate((GLenum)b->eq_rgb, (GLenum)b->eq_alpha));
            COUNT(st, gl->ColorMask(b->mask[0], b->mask[1], b->mask[2], b->mask[3]));
        } else {
            for (int i = 0; i < n; i++) {
                const gl_state_blend *b = &st->blend[i];
                GLuint u = (GLuint)i;
                if (b->enabled) {
                    COUNT(st, st->enablei(GL_BLEND, u));
                } else {
                    COUNT(st, st->disablei(GL_BLEND, u));
                }
                COUNT(st, st->blend_funci(u, (GLenum)b->src_rgb, (GLenum)b->dst_rgb,
                                          (GLenum)b->src_alpha, (GLenum)b->dst_alpha));
                COUNT(st, st->blend_equationi(u, (GLenum)b->eq_rgb, (GLenum)b->eq_alpha));
                COUNT(st, st->color_maski(u, b->mask[0], b->mask[1], b->mask[2], b->mask[3]));
            }
        }
    }
    // Neither the defaults nor the runtime's passes set the blend colour.
    if (NEED(GL_STATE_BLEND, false)) {
        COUNT(st, gl->BlendColor(st->blend_color[0], st->blend_color[1], st->blend_color[2],
                                 st->blend_color[3]));
    }
}

static void restore_face(gl_state *st, GLenum face, const gl_state_face *f) {
    struct GladGLContext *gl = st->gl;
    COUNT(st, gl->StencilFuncSeparate(face, (GLenum)f->func, f->ref, (GLuint)f->value_mask));
    COUNT(st, gl->StencilOpSeparate(face, (GLenum)f->fail, (GLenum)f->zfail,
                                    (GLenum)f->zpass));
    COUNT(st, gl->StencilMaskSeparate(face, (GLuint)f->write_mask));
}

// One enable back where its group is marked or the defaults turned it off.
static void restore_enable(gl_state *st, bool all, unsigned group, GLenum cap, GLboolean v) {
    if (NEED(group, v)) {
        set_enable(st, cap, v);
    }
}

static void restore_fixed(gl_state *st, bool all) {
    struct GladGLContext *gl = st->gl;
    const gl_state_caps *c = &st->caps;
    const unsigned R = GL_STATE_RASTER;
    restore_enable(st, all, GL_STATE_DEPTH, GL_DEPTH_TEST, st->depth_test);
    if (NEED(GL_STATE_DEPTH, !st->depth_mask)) {
        COUNT(st, gl->DepthMask(st->depth_mask));
    }
    if (NEED(GL_STATE_DEPTH, st->depth_func != GL_LESS)) {
        COUNT(st, gl->DepthFunc((GLenum)st->depth_func));
    }
    restore_enable(st, all, GL_STATE_STENCIL, GL_STENCIL_TEST, st->stencil_test);
    if (NEED(GL_STATE_STENCIL,
             stencil_func_moved(st) || stencil_op_moved(st) || stencil_mask_moved(st))) {
        restore_face(st, GL_FRONT, &st->front);
        restore_face(st, GL_BACK, &st->back);
    }
    restore_enable(st, all, R, GL_CULL_FACE, st->cull_face);
    if (NEED(R, false)) {
        COUNT(st, gl->CullFace((GLenum)st->cull_mode));
    }
    if (NEED(R, st->front_face != GL_CCW)) {
        COUNT(st, gl->FrontFace((GLenum)st->front_face));
    }
    restore_enable(st, all, R, GL_RASTERIZER_DISCARD, st->rasterizer_discard);
    restore_enable(st, all, R, GL_POLYGON_OFFSET_FILL, st->polygon_offset_fill);
    restore_enable(st, all, R, GL_SAMPLE_ALPHA_TO_COVERAGE, st->alpha_to_coverage);
    restore_enable(st, all, R, GL_SAMPLE_COVERAGE, st->sample_coverage);
    restore_enable(st, all, R, GL_DITHER, st->dither);
    if (c->restart_fixed) {
        restore_enable(st, all, R, GL_PRIMITIVE_RESTART_FIXED_INDEX,
                       st->primitive_restart_fixed);
    }
    if (c->sample_mask) {
        restore_enable(st, all, R, GL_SAMPLE_MASK, st->sample_mask);
    }
    if (c->srgb_control) {
        restore_enable(st, all, GL_STATE_SRGB, GL_FRAMEBUFFER_SRGB, st->framebuffer_srgb);
    }
    if (c->clip_control && NEED(GL_STATE_CLIP_CONTROL, clip_control_moved(st))) {
        COUNT(st, st->clip_control((GLenum)st->clip_origin, (GLenum)st->clip_depth_mode));
    }
    if (c->provoking_vertex && NEED(R, st->provoking_vertex != GL_FIRST_VERTEX_CONVENTION)) {
        COUNT(st, gl->ProvokingVertex((GLenum)st->provoking_vertex));
    }
    if (!c->es) {
        if (NEED(R, polygon_mode_moved(st))) {
            if (c->compat && st->polygon_mode[0] != st->polygon_mode[1]) {
                // Only compatibility contexts keep separate front and back modes.
                COUNT(st, gl->PolygonMode(GL_FRONT, (GLenum)st->polygon_mode[0]));
                COUNT(st, gl->PolygonMode(GL_BACK, (GLenum)st->polygon_mode[1]));
            } else {
                COUNT(st, gl->PolygonMode(GL_FRONT_AND_BACK, (GLenum)st->polygon_mode[0]));
            }
        }
        restore_enable(st, all, R, GL_MULTISAMPLE, st->multisample);
        restore_enable(st, all, R, GL_DEPTH_CLAMP, st->depth_clamp);
        restore_enable(st, all, R, GL_COLOR_LOGIC_OP, st->color_logic_op);
        restore_enable(st, all, R, GL_POLYGON_SMOOTH, st->polygon_smooth);
        if (NEED(R, st->clamp_read_color != GL_FIXED_ONLY)) {
            COUNT(st, gl->ClampColor(GL_CLAMP_READ_COLOR, (GLenum)st->clamp_read_color));
        }
        for (int i = 0; i < c->clip_distances; i++) {
            restore_enable(st, all, R, GL_CLIP_DISTANCE0 + (GLenum)i, st->clip_distance[i]);
        }
    }
    if (c->primitive_restart) {
        restore_enable(st, all, R, GL_PRIMITIVE_RESTART, st->primitive_restart);
    }
    if (c->compat) {
        restore_enable(st, all, R, GL_ALPHA_TEST, st->alpha_test);
        restore_enable(st, all, R, GL_POLYGON_STIPPLE, st->polygon_stipple);
        if (NEED(R, st->clamp_fragment_color != GL_FIXED_ONLY)) {
            COUNT(st, gl->ClampColor(GL_CLAMP_FRAGMENT_COLOR,
                                     (GLenum)st->clamp_fragment_color));
        }
    }
    if (c->tf_pause && st->tf_active && !st->tf_paused) {
        COUNT(st, gl->ResumeTransformFeedback());
    }
    int npack = c->es ? 4 : 8, nunpack = c->es ? 6 : 8;
    for (int i = 0; i < npack; i++) {
        if (NEED(GL_STATE_PIXEL_STORE, pack_moved(st, st->pack, i))) {
            COUNT(st, gl->PixelStorei(pack_names[i], st->pack[i]));
        }
    }
    for (int i = 0; i < nunpack; i++) {
        if (NEED(GL_STATE_PIXEL_STORE, pack_moved(st, st->unpack, i))) {
            COUNT(st, gl->PixelStorei(unpack_names[i], st->unpack[i]));
        }
    }
    // Neither the defaults nor the runtime's passes set the clear values.
    if (NEED(GL_STATE_CLEAR, false)) {
        COUNT(st, gl->ClearColor(st->clear_color[0], st->clear_color[1], st->clear_color[2],
                                 st->clear_color[3]));
        if (c->es) {
            COUNT(st, gl->ClearDepthf(st->clear_depth));
        } else {
            COUNT(st, gl->ClearDepth(st->clear_depth));
        }
        COUNT(st, gl->ClearStencil(st->clear_stencil));
    }
}

static void restore(gl_state *st, bool all) {
    if (!st->gl || !st->captured) {
        return;
    }
    uint32_t start = st->calls;
    restore_framebuffers(st, all);
    restore_viewport(st, all);
    restore_buffers(st, all);
    restore_textures(st, all);
    restore_blend(st, all);
    restore_fixed(st, all);
    st->captured = false;
    st->stats.restores++;
    st->stats.restore_calls = st->calls - start;
}

#undef NEED

void gl_state_restore(gl_state *st) {
    restore(st, true);
}

void gl_state_restore_changed(gl_state *st) {
    restore(st, false);
}
