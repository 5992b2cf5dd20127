/*
 * test_state.c - the "state test": the application's GL state
 * survives a runtime frame, on GL 4.5 core, GL 4.5 compatibility and GLES 3.2.
 *
 * The test plays the application: it sets well over 100 pieces of state to
 * unusual values (its own FBOs with odd draw buffers, many texture units and
 * targets, samplers, image units, UBO/SSBO ranges, per-buffer blend, stencil
 * front != back, clip control, pixel store, ...). It reads every value back
 * with glGet into a table written here, independently of state.c, then runs
 * gl_state_capture, plays the runtime (defaults, own FBO/program/VAO/
 * textures/samplers, a draw, a blit, an upload and a read-back) and calls
 * gl_state_restore. A second read-back must equal the first, value by value;
 * the first mismatch is reported by name. Negative tests show that the
 * comparison does catch a changed value and a missing restore.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_test.h"
#include "gl_state.h"
#include "tfx.h"

#ifndef GL_ALPHA_TEST
#define GL_ALPHA_TEST 0x0BC0
#endif
#ifndef GL_POLYGON_STIPPLE
#define GL_POLYGON_STIPPLE 0x0B42
#endif
#ifndef GL_CLAMP_FRAGMENT_COLOR
#define GL_CLAMP_FRAGMENT_COLOR 0x891B
#endif

#define UNITS 16                 // texture units the runtime uses (desc.texture_units)
#define UBOS 8
#define SSBOS 4
#define ATOMICS 2
#define IMAGES 8
#define MAX_ENTRIES 1024

typedef enum variant {
    GL_CORE,
    GL_COMPAT,
    GLES,
} variant;

// --- the expected-value table (independent of state.c) ---

typedef struct entry {
    char name[48];               // what the value is, for the failure message
    double v[4];                 // up to four components
    int n;
} entry;

typedef struct table {
    entry e[MAX_ENTRIES];
    int count;
} table;

typedef struct app {
    GladGLContext *gl;
    variant var;
    bool es;
    bool srgb_control;           // desktop, or EXT_sRGB_write_control
    bool clip_control;
    int clip_distances;
    int atomics;                 // atomic-counter bindings the context has (up to ATOMICS)
    int targets;                 // entries of target/binding
    GLenum target[11];
    GLenum binding[11];
} app;

static void put(table *t, const double *v, int n, const char *fmt, ...) {
    ck_assert_int_lt(t->count, MAX_ENTRIES);
    entry *e = &t->e[t->count++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->name, sizeof(e->name), fmt, ap);
    va_end(ap);
    e->n = n;
    for (int i = 0; i < n; i++) {
        e->v[i] = v[i];
    }
}

static void put_int(table *t, app *a, GLenum pname, int n, const char *name) {
    GLint v[4] = {0};
    double d[4];
    a->gl->GetIntegerv(pname, v);
    for (int i = 0; i < n; i++) {
        d[i] = v[i];
    }
    put(t, d, n, "%s", name);
}

static void put_float(table *t, app *a, GLenum pname, int n, const char *name) {
    GLfloat v[4] = {0};
    double d[4];
    a->gl->GetFloatv(pname, v);
    for (int i = 0; i < n; i++) {
        d[i] = v[i];
    }
    put(t, d, n, "%s", name);
}

static void put_enabled(table *t, app *a, GLenum cap, const char *name) {
    double d = a->gl->IsEnabled(cap);
    put(t, &d, 1, "%s enabled", name);
}

static void put_inti(table *t, app *a, GLenum pname, GLuint i, const char *name) {
    GLint v = 0;
    a->gl->GetIntegeri_v(pname, i, &v);
    double d = v;
    put(t, &d, 1, "%s[%u]", name, i);
}

static void put_int64i(table *t, app *a, GLenum pname, GLuint i, const char *name) {
    GLint64 v = 0;
    a->gl->GetInteger64i_v(pname, i, &v);
    double d = (double)v;
    put(t, &d, 1, "%s[%u]", name, i);
}

// Reads every value the test sets. Changes nothing: what it binds to ask, it
// puts back from the values it has just read.
static void read_state(app *a, table *t) {
    GladGLContext *gl = a->gl;
    t->count = 0;
    GLint draw_fbo = 0, read_fbo = 0, active = 0;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
    gl->GetIntegerv(GL_ACTIVE_TEXTURE, &active);
    put_int(t, a, GL_DRAW_FRAMEBUFFER_BINDING, 1, "draw framebuffer");
    put_int(t, a, GL_READ_FRAMEBUFFER_BINDING, 1, "read framebuffer");
    char name[48];
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof(name), "app fbo draw buffer %d", i);
        put_int(t, a, GL_DRAW_BUFFER0 + (GLenum)i, 1, name);
    }
    put_int(t, a, GL_READ_BUFFER, 1, "app fbo read buffer");
    // The stencil refs read exactly here: the app's draw FBO has 8 stencil bits.
    put_int(t, a, GL_STENCIL_FUNC, 1, "stencil front func");
    put_int(t, a, GL_STENCIL_REF, 1, "stencil front ref");
    put_int(t, a, GL_STENCIL_VALUE_MASK, 1, "stencil front value mask");
    put_int(t, a, GL_STENCIL_FAIL, 1, "stencil front fail");
    put_int(t, a, GL_STENCIL_PASS_DEPTH_FAIL, 1, "stencil front zfail");
    put_int(t, a, GL_STENCIL_PASS_DEPTH_PASS, 1, "stencil front zpass");
    put_int(t, a, GL_STENCIL_WRITEMASK, 1, "stencil front writemask");
    put_int(t, a, GL_STENCIL_BACK_FUNC, 1, "stencil back func");
    put_int(t, a, GL_STENCIL_BACK_REF, 1, "stencil back ref");
    put_int(t, a, GL_STENCIL_BACK_VALUE_MASK, 1, "stencil back value mask");
    put_int(t, a, GL_STENCIL_BACK_FAIL, 1, "stencil back fail");
    put_int(t, a, GL_STENCIL_BACK_PASS_DEPTH_FAIL, 1, "stencil back zfail");
    put_int(t, a, GL_STENCIL_BACK_PASS_DEPTH_PASS, 1, "stencil back zpass");
    put_int(t, a, GL_STENCIL_BACK_WRITEMASK, 1, "stencil back writemask");
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    put_int(t, a, GL_DRAW_BUFFER0, 1, "default fb draw buffer 0");
    put_int(t, a, GL_READ_BUFFER, 1, "default fb read buffer");
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fbo);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fbo);
    put_int(t, a, GL_RENDERBUFFER_BINDING, 1, "renderbuffer");

    if (!a->es) {
        for (GLuint i = 0; i < 2; i++) {
            GLfloat f[4];
            GLdouble dr[2];
            GLint box[4];
            double d[4];
            gl->GetFloati_v(GL_VIEWPORT, i, f);
            for (int k = 0; k < 4; k++) {
                d[k] = f[k];
            }
            put(t, d, 4, "viewport[%u]", i);
            gl->GetDoublei_v(GL_DEPTH_RANGE, i, dr);
            put(t, dr, 2, "depth range[%u]", i);
            gl->GetIntegeri_v(GL_SCISSOR_BOX, i, box);
            for (int k = 0; k < 4; k++) {
                d[k] = box[k];
            }
            put(t, d, 4, "scissor box[%u]", i);
            d[0] = gl->IsEnabledi(GL_SCISSOR_TEST, i);
            put(t, d, 1, "scissor test[%u]", i);
        }
    } else {
        put_int(t, a, GL_VIEWPORT, 4, "viewport");
        put_float(t, a, GL_DEPTH_RANGE, 2, "depth range");
        put_int(t, a, GL_SCISSOR_BOX, 4, "scissor box");
        put_enabled(t, a, GL_SCISSOR_TEST, "scissor test");
    }

    put_int(t, a, GL_CURRENT_PROGRAM, 1, "program");
    put_int(t, a, GL_VERTEX_ARRAY_BINDING, 1, "vertex array");
    put_int(t, a, GL_ARRAY_BUFFER_BINDING, 1, "array buffer");
    put_int(t, a, GL_ELEMENT_ARRAY_BUFFER_BINDING, 1, "element array buffer");
    put_int(t, a, GL_UNIFORM_BUFFER_BINDING, 1, "uniform buffer");
    put_int(t, a, GL_COPY_READ_BUFFER_BINDING, 1, "copy read buffer");
    put_int(t, a, GL_COPY_WRITE_BUFFER_BINDING, 1, "copy write buffer");
    put_int(t, a, GL_PIXEL_PACK_BUFFER_BINDING, 1, "pixel pack buffer");
    put_int(t, a, GL_PIXEL_UNPACK_BUFFER_BINDING, 1, "pixel unpack buffer");
    put_int(t, a, GL_DRAW_INDIRECT_BUFFER_BINDING, 1, "draw indirect buffer");
    put_int(t, a, GL_DISPATCH_INDIRECT_BUFFER_BINDING, 1, "dispatch indirect buffer");
    put_int(t, a, GL_SHADER_STORAGE_BUFFER_BINDING, 1, "shader storage buffer");
    put_int(t, a, GL_ATOMIC_COUNTER_BUFFER_BINDING, 1, "atomic counter buffer");
    put_int(t, a, GL_TEXTURE_BUFFER_BINDING, 1, "texture buffer");
    for (GLuint i = 0; i < UBOS; i++) {
        put_inti(t, a, GL_UNIFORM_BUFFER_BINDING, i, "ubo binding");
        put_int64i(t, a, GL_UNIFORM_BUFFER_START, i, "ubo start");
        put_int64i(t, a, GL_UNIFORM_BUFFER_SIZE, i, "ubo size");
    }
    for (GLuint i = 0; i < SSBOS; i++) {
        put_inti(t, a, GL_SHADER_STORAGE_BUFFER_BINDING, i, "ssbo binding");
        put_int64i(t, a, GL_SHADER_STORAGE_BUFFER_START, i, "ssbo start");
        put_int64i(t, a, GL_SHADER_STORAGE_BUFFER_SIZE, i, "ssbo size");
    }
    for (GLuint i = 0; i < (GLuint)a->atomics; i++) {
        put_inti(t, a, GL_ATOMIC_COUNTER_BUFFER_BINDING, i, "atomic binding");
        put_int64i(t, a, GL_ATOMIC_COUNTER_BUFFER_START, i, "atomic start");
        put_int64i(t, a, GL_ATOMIC_COUNTER_BUFFER_SIZE, i, "atomic size");
    }

    put_int(t, a, GL_ACTIVE_TEXTURE, 1, "active texture");
    for (int u = 0; u < UNITS; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u);
        for (int k = 0; k < a->targets; k++) {
            GLint v = 0;
            gl->GetIntegerv(a->binding[k], &v);
            double d = v;
            put(t, &d, 1, "unit %d binding 0x%04x", u, a->binding[k]);
        }
        GLint s = 0;
        gl->GetIntegerv(GL_SAMPLER_BINDING, &s);
        double d = s;
        put(t, &d, 1, "unit %d sampler", u);
    }
    gl->ActiveTexture((GLenum)active);
    for (GLuint i = 0; i < IMAGES; i++) {
        put_inti(t, a, GL_IMAGE_BINDING_NAME, i, "image name");
        put_inti(t, a, GL_IMAGE_BINDING_LEVEL, i, "image level");
        put_inti(t, a, GL_IMAGE_BINDING_LAYERED, i, "image layered");
        put_inti(t, a, GL_IMAGE_BINDING_LAYER, i, "image layer");
        put_inti(t, a, GL_IMAGE_BINDING_ACCESS, i, "image access");
        put_inti(t, a, GL_IMAGE_BINDING_FORMAT, i, "image format");
    }

    for (GLuint i = 0; i < 8; i++) {
        double d = gl->IsEnabledi(GL_BLEND, i);
        put(t, &d, 1, "blend[%u]", i);
        put_inti(t, a, GL_BLEND_SRC_RGB, i, "blend src rgb");
        put_inti(t, a, GL_BLEND_DST_RGB, i, "blend dst rgb");
        put_inti(t, a, GL_BLEND_SRC_ALPHA, i, "blend src alpha");
        put_inti(t, a, GL_BLEND_DST_ALPHA, i, "blend dst alpha");
        put_inti(t, a, GL_BLEND_EQUATION_RGB, i, "blend equation rgb");
        put_inti(t, a, GL_BLEND_EQUATION_ALPHA, i, "blend equation alpha");
        GLboolean m[4];
        gl->GetBooleani_v(GL_COLOR_WRITEMASK, i, m);
        double dm[4] = {m[0], m[1], m[2], m[3]};
        put(t, dm, 4, "color mask[%u]", i);
    }
    put_float(t, a, GL_BLEND_COLOR, 4, "blend color");
    put_enabled(t, a, GL_DEPTH_TEST, "depth test");
    put_int(t, a, GL_DEPTH_WRITEMASK, 1, "depth writemask");
    put_int(t, a, GL_DEPTH_FUNC, 1, "depth func");
    put_enabled(t, a, GL_STENCIL_TEST, "stencil test");
    put_enabled(t, a, GL_CULL_FACE, "cull face");
    put_int(t, a, GL_CULL_FACE_MODE, 1, "cull face mode");
    put_int(t, a, GL_FRONT_FACE, 1, "front face");
    put_enabled(t, a, GL_RASTERIZER_DISCARD, "rasterizer discard");
    put_enabled(t, a, GL_POLYGON_OFFSET_FILL, "polygon offset fill");
    put_enabled(t, a, GL_SAMPLE_ALPHA_TO_COVERAGE, "alpha to coverage");
    put_enabled(t, a, GL_SAMPLE_COVERAGE, "sample coverage");
    put_enabled(t, a, GL_SAMPLE_MASK, "sample mask");
    put_enabled(t, a, GL_DITHER, "dither");
    put_enabled(t, a, GL_PRIMITIVE_RESTART_FIXED_INDEX, "primitive restart fixed index");
    if (a->srgb_control) {
        put_enabled(t, a, GL_FRAMEBUFFER_SRGB, "framebuffer srgb");
    }
    if (a->clip_control) {
        put_int(t, a, GL_CLIP_ORIGIN, 1, "clip origin");
        put_int(t, a, GL_CLIP_DEPTH_MODE, 1, "clip depth mode");
    }
    if (!a->es) {
        put_int(t, a, GL_POLYGON_MODE, 2, "polygon mode");
        put_enabled(t, a, GL_MULTISAMPLE, "multisample");
        put_enabled(t, a, GL_DEPTH_CLAMP, "depth clamp");
        put_enabled(t, a, GL_COLOR_LOGIC_OP, "color logic op");
        put_enabled(t, a, GL_POLYGON_SMOOTH, "polygon smooth");
        put_enabled(t, a, GL_PRIMITIVE_RESTART, "primitive restart");
        put_int(t, a, GL_CLAMP_READ_COLOR, 1, "clamp read color");
        put_int(t, a, GL_PROVOKING_VERTEX, 1, "provoking vertex");
        for (int i = 0; i < a->clip_distances; i++) {
            snprintf(name, sizeof(name), "clip distance %d", i);
            put_enabled(t, a, GL_CLIP_DISTANCE0 + (GLenum)i, name);
        }
    }
    if (a->var == GL_COMPAT) {
        put_enabled(t, a, GL_ALPHA_TEST, "alpha test");
        put_enabled(t, a, GL_POLYGON_STIPPLE, "polygon stipple");
        put_int(t, a, GL_CLAMP_FRAGMENT_COLOR, 1, "clamp fragment color");
    }
    static const GLenum pack[] = {
        GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS,
        GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES, GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST,
    };
    static const GLenum unpack[] = {
        GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS,
        GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES, GL_UNPACK_SWAP_BYTES,
        GL_UNPACK_LSB_FIRST,
    };
    for (int i = 0; i < (a->es ? 4 : 8); i++) {
        snprintf(name, sizeof(name), "pack 0x%04x", pack[i]);
        put_int(t, a, pack[i], 1, name);
    }
    for (int i = 0; i < (a->es ? 6 : 8); i++) {
        snprintf(name, sizeof(name), "unpack 0x%04x", unpack[i]);
        put_int(t, a, unpack[i], 1, name);
    }
    put_float(t, a, GL_COLOR_CLEAR_VALUE, 4, "clear color");
    put_float(t, a, GL_DEPTH_CLEAR_VALUE, 1, "clear depth");
    put_int(t, a, GL_STENCIL_CLEAR_VALUE, 1, "clear stencil");
}

// The index of the first differing entry, or -1.
static int first_mismatch(const table *x, const table *y) {
    if (x->count != y->count) {
        return x->count < y->count ? x->count : y->count;
    }
    for (int i = 0; i < x->count; i++) {
        if (x->e[i].n != y->e[i].n || strcmp(x->e[i].name, y->e[i].name) != 0 ||
            memcmp(x->e[i].v, y->e[i].v, sizeof(double) * (size_t)x->e[i].n) != 0) {
            return i;
        }
    }
    return -1;
}

static void assert_same(const table *before, const table *after) {
    int i = first_mismatch(before, after);
    if (i >= 0 && i < before->count) {
        const entry *b = &before->e[i], *c = &after->e[i];
        ck_abort_msg("'%s' changed: %g %g %g %g -> %g %g %g %g", b->name, b->v[0], b->v[1],
                     b->v[2], b->v[3], c->v[0], c->v[1], c->v[2], c->v[3]);
    }
    ck_assert_int_eq(i, -1);
}

// --- the application: unusual values everywhere ---

static bool has_ext(GladGLContext *gl, const char *name) {
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

static GLuint make_program(GladGLContext *gl, bool es, const char *vs_body, const char *fs_body) {
    const char *header = es ? "#version 320 es\nprecision highp float;\n"
                            : "#version 450 core\n";
    GLuint prog = gl->CreateProgram();
    const char *bodies[2] = {vs_body, fs_body};
    GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = gl->CreateShader(stages[i]);
        const char *src[2] = {header, bodies[i]};
        gl->ShaderSource(s, 2, src, NULL);
        gl->CompileShader(s);
        GLint ok = 0;
        gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[1024];
            gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
            ck_abort_msg("shader compile failed: %s", log);
        }
        gl->AttachShader(prog, s);
        gl->DeleteShader(s);
    }
    gl->LinkProgram(prog);
    GLint linked = 0;
    gl->GetProgramiv(prog, GL_LINK_STATUS, &linked);
    ck_assert(linked);
    return prog;
}

static const char *vs_tri =
    "const vec2 pos[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n"
    "void main() { gl_Position = vec4(pos[gl_VertexID], 0.0, 1.0); }\n";
static const char *fs_app = "out vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 1.0, 1.0); }\n";
static const char *fs_runtime =
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std140, binding = 0) uniform U { vec4 scale; };\n"
    "layout(location = 0) out vec4 o0;\n"
    "layout(location = 1) out vec4 o1;\n"
    "void main() { o0 = texture(tex, vec2(0.5)) * scale; o1 = scale; }\n";

static GLuint new_buffer(GladGLContext *gl) {
    GLuint b;
    gl->GenBuffers(1, &b);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, b);
    gl->BufferData(GL_COPY_WRITE_BUFFER, 4096, NULL, GL_STATIC_DRAW);
    return b;
}

static GLuint new_texture(GladGLContext *gl, GLenum target, GLenum format, int levels,
                          int layers) {
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(target, t);
    if (target == GL_TEXTURE_2D_ARRAY) {
        gl->TexStorage3D(target, levels, format, 8, 8, layers);
    } else {
        gl->TexStorage2D(target, levels, format, 8, 8);
    }
    return t;
}

static void set_app_state(app *a) {
    GladGLContext *gl = a->gl;
    bool es = a->es;

    // Objects first: creating them binds, and the final bindings come last.
    GLuint color[4], read_color[2], rb, fbo, read_fbo;
    for (int i = 0; i < 4; i++) {
        color[i] = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    }
    for (int i = 0; i < 2; i++) {
        read_color[i] = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    }
    GLuint image_array = new_texture(gl, GL_TEXTURE_2D_ARRAY, GL_RGBA8, 2, 3);
    GLuint image_2d = new_texture(gl, GL_TEXTURE_2D, GL_R32UI, 1, 1);
    gl->GenRenderbuffers(1, &rb);
    gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 8, 8);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    for (int i = 0; i < 4; i++) {
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i,
                                 GL_TEXTURE_2D, color[i], 0);
    }
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                rb);
    gl->GenFramebuffers(1, &read_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, read_fbo);
    for (int i = 0; i < 2; i++) {
        gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i,
                                 GL_TEXTURE_2D, read_color[i], 0);
    }
    GLuint prog = make_program(gl, es, vs_tri, fs_app);
    GLuint vao;
    gl->GenVertexArrays(1, &vao);
    GLuint bufs[24];
    for (int i = 0; i < 24; i++) {
        bufs[i] = new_buffer(gl);
    }
    GLuint samplers[6];
    gl->GenSamplers(6, samplers);

    // Framebuffer 0: draw and read buffer NONE (valid with or without a surface).
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    GLenum none = GL_NONE;
    gl->DrawBuffers(1, &none);
    gl->ReadBuffer(GL_NONE);
    // The app's FBOs: odd draw buffers (ES allows only ATTACHMENTi at slot i).
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    GLenum draw_es[4] = {GL_NONE, GL_COLOR_ATTACHMENT1, GL_NONE, GL_COLOR_ATTACHMENT3};
    GLenum draw_gl[4] = {GL_NONE, GL_COLOR_ATTACHMENT2, GL_COLOR_ATTACHMENT0,
                         GL_COLOR_ATTACHMENT3};
    gl->DrawBuffers(4, es ? draw_es : draw_gl);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT2);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT1);

    // Viewport, depth range, scissor: index 0 odd, index 1 different again.
    if (!es) {
        gl->ViewportIndexedf(0, 3.5f, 5.25f, 17.0f, 29.75f);
        gl->ViewportIndexedf(1, 1.0f, 2.0f, 3.0f, 4.0f);
        gl->DepthRangeIndexed(0, 0.25, 0.75);
        gl->DepthRangeIndexed(1, 0.125, 0.875);
        gl->ScissorIndexed(0, 1, 2, 33, 44);
        gl->ScissorIndexed(1, 7, 8, 9, 10);
        gl->Enablei(GL_SCISSOR_TEST, 0);
        gl->Disablei(GL_SCISSOR_TEST, 1);
    } else {
        gl->Viewport(3, 5, 17, 29);
        gl->DepthRangef(0.25f, 0.75f);
        gl->Scissor(1, 2, 33, 44);
        gl->Enable(GL_SCISSOR_TEST);
    }

    // Buffers: generic bindings, indexed ranges (offsets at the alignment).
    GLint align = 256, ssbo_align = 256;
    gl->GetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
    gl->GetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &ssbo_align);
    for (GLuint i = 0; i < UBOS; i++) {
        if (i % 3 == 0) {
            gl->BindBufferRange(GL_UNIFORM_BUFFER, i, bufs[i], (GLintptr)align * (i % 4 + 1),
                                64 + 16 * i);
        } else if (i % 3 == 1) {
            gl->BindBufferBase(GL_UNIFORM_BUFFER, i, bufs[i]);
        }
    }
    for (GLuint i = 0; i < SSBOS; i++) {
        if (i != 2) {
            gl->BindBufferRange(GL_SHADER_STORAGE_BUFFER, i, bufs[8 + i],
                                (GLintptr)ssbo_align * i, 128);
        }
    }
    for (GLuint i = 0; i < (GLuint)a->atomics; i++) {
        gl->BindBufferRange(GL_ATOMIC_COUNTER_BUFFER, i, bufs[12 + i], 4 * (i + 1), 8);
    }
    gl->BindVertexArray(vao);
    gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[14]);
    gl->BindBuffer(GL_ARRAY_BUFFER, bufs[15]);
    gl->BindBuffer(GL_UNIFORM_BUFFER, bufs[16]);
    gl->BindBuffer(GL_COPY_READ_BUFFER, bufs[17]);
    gl->BindBuffer(GL_COPY_WRITE_BUFFER, bufs[18]);
    gl->BindBuffer(GL_DRAW_INDIRECT_BUFFER, bufs[19]);
    gl->BindBuffer(GL_DISPATCH_INDIRECT_BUFFER, bufs[20]);
    gl->BindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[21]);
    gl->BindBuffer(GL_ATOMIC_COUNTER_BUFFER, bufs[22]);
    gl->BindBuffer(GL_TEXTURE_BUFFER, bufs[23]);
    gl->UseProgram(prog);

    // Textures on every unit the runtime uses, several targets each, a gap
    // every fifth unit; samplers on most units.
    for (int u = 0; u < UNITS; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u);
        for (int k = 0; k < a->targets; k++) {
            if ((u + k) % 5 == 4) {
                continue;
            }
            GLuint t;
            gl->GenTextures(1, &t);
            gl->BindTexture(a->target[k], t);
        }
        if (u % 4 != 3) {
            gl->BindSampler((GLuint)u, samplers[u % 6]);
        }
    }
    gl->ActiveTexture(GL_TEXTURE0 + 11);
    gl->BindImageTexture(0, image_array, 1, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA8);
    gl->BindImageTexture(1, image_2d, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32UI);
    gl->BindImageTexture(2, image_array, 0, GL_FALSE, 2, GL_READ_WRITE, GL_RGBA8);
    gl->BindImageTexture(5, image_array, 1, GL_FALSE, 1, GL_READ_ONLY, GL_RGBA8);

    // Blend and colour mask, different on every draw buffer.
    static const GLenum funcs[] = {GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA, GL_DST_ALPHA,
                                   GL_CONSTANT_COLOR, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_COLOR,
                                   GL_ZERO, GL_ONE_MINUS_CONSTANT_ALPHA};
    static const GLenum eqs[] = {GL_MIN, GL_FUNC_REVERSE_SUBTRACT, GL_MAX, GL_FUNC_SUBTRACT};
    for (GLuint i = 0; i < 8; i++) {
        if (i % 2 == 0) {
            gl->Enablei(GL_BLEND, i);
        }
        gl->BlendFuncSeparatei(i, funcs[i], funcs[(i + 3) % 8], funcs[(i + 5) % 8],
                               funcs[(i + 1) % 8]);
        gl->BlendEquationSeparatei(i, eqs[i % 4], eqs[(i + 1) % 4]);
        gl->ColorMaski(i, i & 1, (i >> 1) & 1, (i >> 2) & 1, i % 3 == 0);
    }
    gl->BlendColor(0.125f, 0.25f, 0.375f, 0.5f);

    gl->Enable(GL_DEPTH_TEST);
    gl->DepthMask(GL_FALSE);
    gl->DepthFunc(GL_GEQUAL);
    gl->Enable(GL_STENCIL_TEST);
    gl->StencilFuncSeparate(GL_FRONT, GL_LEQUAL, 0x5A, 0x3C);
    gl->StencilOpSeparate(GL_FRONT, GL_INCR, GL_DECR_WRAP, GL_INVERT);
    gl->StencilMaskSeparate(GL_FRONT, 0xA5);
    gl->StencilFuncSeparate(GL_BACK, GL_GREATER, 0x33, 0xF0);
    gl->StencilOpSeparate(GL_BACK, GL_ZERO, GL_REPLACE, GL_INCR_WRAP);
    gl->StencilMaskSeparate(GL_BACK, 0x0F);
    gl->Enable(GL_CULL_FACE);
    gl->CullFace(GL_FRONT_AND_BACK);
    gl->FrontFace(GL_CW);
    gl->Enable(GL_RASTERIZER_DISCARD);
    gl->Enable(GL_POLYGON_OFFSET_FILL);
    gl->Enable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    gl->Enable(GL_SAMPLE_COVERAGE);
    gl->Enable(GL_SAMPLE_MASK);
    gl->Disable(GL_DITHER);
    gl->Enable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    if (a->srgb_control) {
        gl->Enable(GL_FRAMEBUFFER_SRGB);
    }
    if (a->clip_control) {
        if (es) {
            gl->ClipControlEXT(GL_UPPER_LEFT, GL_ZERO_TO_ONE);
        } else {
            gl->ClipControl(GL_UPPER_LEFT, GL_ZERO_TO_ONE);
        }
    }
    if (!es) {
        if (a->var == GL_COMPAT) {
            gl->PolygonMode(GL_FRONT, GL_LINE);
            gl->PolygonMode(GL_BACK, GL_POINT);
        } else {
            gl->PolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        }
        gl->Disable(GL_MULTISAMPLE);
        gl->Enable(GL_DEPTH_CLAMP);
        gl->Enable(GL_COLOR_LOGIC_OP);
        gl->Enable(GL_POLYGON_SMOOTH);
        gl->Enable(GL_PRIMITIVE_RESTART);
        gl->ClampColor(GL_CLAMP_READ_COLOR, GL_TRUE);
        for (int i = 0; i < a->clip_distances; i += 2) {
            gl->Enable(GL_CLIP_DISTANCE0 + (GLenum)i);
        }
    }
    if (a->var == GL_COMPAT) {
        gl->Enable(GL_ALPHA_TEST);
        gl->Enable(GL_POLYGON_STIPPLE);
        gl->ClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_TRUE);
    }

    gl->PixelStorei(GL_PACK_ALIGNMENT, 2);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, 7);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, 3);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, 5);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 8);
    gl->PixelStorei(GL_UNPACK_ROW_LENGTH, 13);
    gl->PixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
    gl->PixelStorei(GL_UNPACK_SKIP_ROWS, 9);
    gl->PixelStorei(GL_UNPACK_IMAGE_HEIGHT, 11);
    gl->PixelStorei(GL_UNPACK_SKIP_IMAGES, 2);
    if (!es) {
        gl->PixelStorei(GL_PACK_IMAGE_HEIGHT, 6);
        gl->PixelStorei(GL_PACK_SKIP_IMAGES, 4);
        gl->PixelStorei(GL_PACK_SWAP_BYTES, GL_TRUE);
        gl->PixelStorei(GL_PACK_LSB_FIRST, GL_TRUE);
        gl->PixelStorei(GL_UNPACK_SWAP_BYTES, GL_TRUE);
        gl->PixelStorei(GL_UNPACK_LSB_FIRST, GL_TRUE);
    }
    gl->ClearColor(0.75f, 0.5f, 0.25f, 0.125f);
    gl->ClearDepthf(0.375f);
    gl->ClearStencil(0x77);

    // Pixel buffers last: every texture creation above had none bound.
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, bufs[6]);
    gl->BindBuffer(GL_PIXEL_UNPACK_BUFFER, bufs[7]);
    gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
}

// --- the runtime: what one frame of fxgl does to the context ---

typedef struct runtime {
    GLuint tex[3];               // two targets and an image
    GLuint fbo[2];
    GLuint prog;
    GLuint vao;
    GLuint ubo;
    GLuint sampler;
} runtime;

static void runtime_create(app *a, runtime *r) {
    GladGLContext *gl = a->gl;
    // Created inside the frame (after the defaults), as a lazy load would.
    for (int i = 0; i < 2; i++) {
        r->tex[i] = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    }
    r->tex[2] = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    gl->GenFramebuffers(2, r->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo[0]);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->tex[0], 0);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, r->tex[2], 0);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo[1]);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->tex[1], 0);
    r->prog = make_program(gl, a->es, vs_tri, fs_runtime);
    gl->GenVertexArrays(1, &r->vao);
    r->ubo = new_buffer(gl);
    gl->GenSamplers(1, &r->sampler);
    gl->SamplerParameteri(r->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
}

static void runtime_destroy(app *a, runtime *r) {
    GladGLContext *gl = a->gl;
    gl->DeleteTextures(3, r->tex);
    gl->DeleteFramebuffers(2, r->fbo);
    gl->DeleteProgram(r->prog);
    gl->DeleteVertexArrays(1, &r->vao);
    gl->DeleteBuffers(1, &r->ubo);
    gl->DeleteSamplers(1, &r->sampler);
}

static void runtime_frame(app *a, gl_state *st, runtime *r) {
    GladGLContext *gl = a->gl;
    gl_state_set_runtime_defaults(st);
    runtime_create(a, r);
    // Framebuffer 0 is addressed explicitly (GL_BACK where it has one).
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    GLenum back = GL_BACK;
    gl->DrawBuffers(1, &back);
    gl->ReadBuffer(GL_BACK);
    // A pass: own FBO with two targets, per-buffer blend, stencil, sRGB write.
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo[0]);
    GLenum two[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    gl->DrawBuffers(2, two);
    if (!a->es) {
        gl->ViewportIndexedf(0, 0, 0, 8, 8);
    } else {
        gl->Viewport(0, 0, 8, 8);
    }
    gl->UseProgram(r->prog);
    gl->BindVertexArray(r->vao);
    for (GLuint u = 0; u < 8; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + u);
        gl->BindTexture(GL_TEXTURE_2D, r->tex[1]);
        gl->BindSampler(u, r->sampler);
    }
    gl->BindBufferRange(GL_UNIFORM_BUFFER, 0, r->ubo, 0, 16);
    gl->BindBufferBase(GL_UNIFORM_BUFFER, 1, r->ubo);
    gl->BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, r->ubo);
    gl->BindImageTexture(0, r->tex[2], 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    gl->BindImageTexture(2, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    float scale[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    gl->BindBuffer(GL_UNIFORM_BUFFER, r->ubo);
    gl->BufferSubData(GL_UNIFORM_BUFFER, 0, sizeof(scale), scale);
    gl->Enablei(GL_BLEND, 1);
    gl->BlendFunci(1, GL_ONE, GL_ONE);
    gl->ColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
    gl->BlendColor(1, 1, 1, 1);
    gl->Enable(GL_STENCIL_TEST);
    gl->StencilFuncSeparate(GL_BACK, GL_NEVER, 1, 2);
    gl->StencilOp(GL_REPLACE, GL_REPLACE, GL_REPLACE);
    gl->Disable(GL_STENCIL_TEST);
    if (a->srgb_control) {
        gl->Enable(GL_FRAMEBUFFER_SRGB);
        gl->Disable(GL_FRAMEBUFFER_SRGB);
    }
    gl->ClearColor(0, 0, 0, 0);
    gl->ClearDepthf(1.0f);
    gl->ClearStencil(0);
    GLfloat black[4] = {0, 0, 0, 0};
    gl->ClearBufferfv(GL_COLOR, 0, black);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
    // Copy out: a blit between the runtime's FBOs, then an upload and a read-back.
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo[0]);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT1);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo[1]);
    gl->BlitFramebuffer(0, 0, 8, 8, 0, 8, 8, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    uint8_t pixels[8 * 8 * 4] = {0};
    gl->BindTexture(GL_TEXTURE_2D, r->tex[0]);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo[1]);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->ReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    gl->BindRenderbuffer(GL_RENDERBUFFER, 0);
    gl->BindBuffer(GL_COPY_READ_BUFFER, r->ubo);
    gl->BindBuffer(GL_ARRAY_BUFFER, r->ubo);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->ActiveTexture(GL_TEXTURE3);
    runtime_destroy(a, r);
}

// --- the test cases ---

typedef struct fixture {
    fxgl_test_egl *egl;
    app a;
    gl_state st;
} fixture;

static bool fixture_init(fixture *f, variant var, char *reason, size_t size) {
    memset(f, 0, sizeof(*f));
    fxgl_test_egl_desc desc = {
        .api = var == GLES ? FXGL_API_GLES : FXGL_API_GL,
        .compatibility = var == GL_COMPAT,
    };
    f->egl = fxgl_test_egl_create(&desc, reason, size);
    if (!f->egl) {
        return false;
    }
    app *a = &f->a;
    a->gl = fxgl_test_egl_gl(f->egl);
    a->var = var;
    a->es = var == GLES;
    GladGLContext *gl = a->gl;
    a->srgb_control = !a->es || has_ext(gl, "GL_EXT_sRGB_write_control");
    a->clip_control = a->es ? has_ext(gl, "GL_EXT_clip_control") : true;
    if (!a->es) {
        gl->GetIntegerv(GL_MAX_CLIP_DISTANCES, &a->clip_distances);
        a->clip_distances = a->clip_distances > 8 ? 8 : a->clip_distances;
    }
    GLint atomics = 0;
    gl->GetIntegerv(GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, &atomics);
    a->atomics = atomics < ATOMICS ? atomics : ATOMICS;
    static const GLenum both[][2] = {
        {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D},
        {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D},
        {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY},
        {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP},
        {GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE},
        {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY},
        {GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY},
        {GL_TEXTURE_BUFFER, GL_TEXTURE_BINDING_BUFFER},
        {GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D},
        {GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY},
        {GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE},
    };
    a->targets = a->es ? 8 : 11; // ES 3.2 has the first eight
    for (int i = 0; i < a->targets; i++) {
        a->target[i] = both[i][0];
        a->binding[i] = both[i][1];
    }
    gl_state_desc sd = {
        .texture_units = UNITS,
        .uniform_buffers = UBOS,
        .storage_buffers = SSBOS,
        .atomic_buffers = ATOMICS,
        .image_units = IMAGES,
    };
    ck_assert(gl_state_init(&f->st, gl, fxgl_test_egl_info(f->egl), &sd));
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    return true;
}

static void fixture_finish(fixture *f) {
    gl_state_finish(&f->st);
    fxgl_test_egl_destroy(f->egl);
}

static const char *variant_name(variant v) {
    return v == GL_CORE ? "GL 4.5 core" : v == GL_COMPAT ? "GL 4.5 compatibility" : "GLES 3.2";
}

static table before, after; // large; one test runs at a time

static void frame_keeps_state(variant var) {
    fixture f;
    char reason[256];
    if (!fixture_init(&f, var, reason, sizeof(reason))) {
        // Core GL and GLES are required wherever EGL works; compatibility may be absent.
        ck_assert_msg(var == GL_COMPAT, "%s context: %s", variant_name(var), reason);
        printf("state: %s not available (%s); skipped\n", variant_name(var), reason);
        return;
    }
    app *a = &f.a;
    GladGLContext *gl = a->gl;
    set_app_state(a);
    read_state(a, &before);
    ck_assert_int_ge(before.count, 100);

    // Two frames: the second proves restore left nothing the next capture misreads.
    for (int frame = 0; frame < 2; frame++) {
        runtime r;
        gl_state_capture(&f.st);
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        runtime_frame(a, &f.st, &r);
        gl_state_restore(&f.st);
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        read_state(a, &after);
        assert_same(&before, &after);
    }
    const gl_state_stats *s = &f.st.stats;
    ck_assert_int_eq(s->captures, 2);
    ck_assert_int_eq(s->restores, 2);
    ck_assert_int_gt(s->capture_calls, 0);
    ck_assert_int_gt(s->restore_calls, 0);
    printf("state: %s: %d values unchanged after a frame; capture %u, defaults %u, "
           "restore %u GL calls\n",
           variant_name(var), before.count, s->capture_calls, s->defaults_calls,
           s->restore_calls);
    fixture_finish(&f);
}

// A frame that changes a few things, on a context with GL's initial values:
// the defaults write only what differs from them (dither, multisample on
// desktop GL and sRGB writes on ES are on initially), and gl_state_restore_changed writes back
// exactly those and what the frame marked - counted call by call.
static void restore_writes_only_changes(variant var) {
    fixture f;
    char reason[256];
    if (!fixture_init(&f, var, reason, sizeof(reason))) {
        ck_assert_msg(var == GL_COMPAT, "%s context: %s", variant_name(var), reason);
        printf("state: %s not available (%s); skipped\n", variant_name(var), reason);
        return;
    }
    app *a = &f.a;
    GladGLContext *gl = a->gl;
    GLuint prog = make_program(gl, a->es, vs_tri, fs_app);
    GLuint tex = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    read_state(a, &before);
    uint32_t full = 0;
    for (int round = 0; round < 2; round++) {
        gl_state_capture(&f.st);
        gl_state_set_runtime_defaults(&f.st);
        // GL_DITHER; GL_MULTISAMPLE and the provoking vertex (the first, where
        // the application's is the initial last) on desktop; sRGB writes on ES
        // (initially on there).
        int defaults = a->es ? 1 + a->srgb_control : 3;
        ck_assert_int_eq(f.st.stats.defaults_calls, defaults);
        // The frame: a program, a texture on unit 3, blending on.
        gl->UseProgram(prog);
        gl->ActiveTexture(GL_TEXTURE3);
        gl->BindTexture(GL_TEXTURE_2D, tex);
        gl->Enable(GL_BLEND);
        gl_state_touch(&f.st, GL_STATE_PROGRAM | GL_STATE_ACTIVE_TEXTURE | GL_STATE_BLEND);
        gl_state_touch_unit(&f.st, GL_STATE_UNIT_TEXTURE, 3);
        if (round == 0) {
            gl_state_restore_changed(&f.st);
            // program 1; unit 3: select + every target + select back; blend:
            // enable, func, equation, mask, colour; the defaults' enables.
            uint32_t want = 1 + (uint32_t)(2 + f.st.num_targets) + 5 + (uint32_t)defaults;
            ck_assert_int_eq(f.st.stats.restore_calls, want);
            printf("state: %s: a frame changing a program, one unit and blending: "
                   "defaults %u, restore %u GL calls",
                   variant_name(var), f.st.stats.defaults_calls, f.st.stats.restore_calls);
        } else {
            gl_state_restore(&f.st);
            full = f.st.stats.restore_calls;
            printf(" (%u for the full restore)\n", full);
            ck_assert_int_gt(full, f.st.num_targets * 16);
        }
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        read_state(a, &after);
        assert_same(&before, &after);
    }
    gl->DeleteProgram(prog);
    gl->DeleteTextures(1, &tex);
    fixture_finish(&f);
}

START_TEST(restore_changed_counts) {
    restore_writes_only_changes(GL_CORE);
    restore_writes_only_changes(GL_COMPAT);
    restore_writes_only_changes(GLES);
}
END_TEST

START_TEST(gl_core_frame_keeps_state) {
    frame_keeps_state(GL_CORE);
}
END_TEST

START_TEST(gl_compat_frame_keeps_state) {
    frame_keeps_state(GL_COMPAT);
}
END_TEST

START_TEST(gles_frame_keeps_state) {
    frame_keeps_state(GLES);
}
END_TEST

// --- the real runtime: a multi-effect chain ---
//
// The same application state, the same read-back, but the frame is
// fxgl_runtime_frame over two effects that use everything a frame can
// touch: MRT with per-target blend and masks, the runtime's stencil, sRGB
// writes and reads, clears, mips (compute), a compute pass with storages,
// DEPTH and COLOR semantics, special and user uniforms.

static tfx chain_a, chain_b;

static void build_chain(bool es, bool compute) {
    tfx *a = &chain_a;
    tfx_init(a, "ChainA.fx", es);
    int color = tfx_semantic(a, "ReShade::BackBufferTex", "COLOR");
    int cs = tfx_sampler(a, "A::Color", color, true, false);
    int csrgb = tfx_sampler(a, "A::ColorSrgb", color, false, true);
    int t0 = tfx_texture(a, "A::T0", 8, 8, 1, FXGL_FORMAT_RGBA8);
    int t1 = tfx_texture(a, "A::T1", 8, 8, 1, FXGL_FORMAT_RGBA16F);
    int s0 = tfx_sampler(a, "A::S0", t0, true, false);
    tfx_uniform(a, "A::timer", FXGL_SCALAR_UINT, 1, FXGL_SPECIAL_TIMER);
    tfx_uniform(a, "A::scale", FXGL_SCALAR_FLOAT, 4, FXGL_SPECIAL_NONE);
    int tech = tfx_technique(a, "ChainA");
    int mrt = tfx_shader(a, FXGL_STAGE_PIXEL, "Mrt",
                         "layout(std140) uniform _Globals { uint timer; vec4 scale; };\n"
                         "uniform sampler2D Color;\nin vec2 uv;\n"
                         "layout(location = 0) out vec4 o0;\nlayout(location = 1) out vec4 o1;\n"
                         "void main() { o0 = texture(Color, uv) + scale; "
                         "o1 = vec4(float(timer & 1u)); }\n");
    tfx_use_sampler(a, mrt, cs, "Color");
    fxgl_pass *p = tfx_pass(a, tech, mrt);
    tfx_target(a, p, t0);
    tfx_target(a, p, t1);
    p->clear_render_targets = true;
    p->blend[1].enable = true;
    p->blend[1].src = FXGL_BLEND_SRCALPHA;
    p->blend[1].dst = FXGL_BLEND_INVSRCALPHA;
    p->blend[1].write_mask = 0x7;
    int show = tfx_shader(a, FXGL_STAGE_PIXEL, "Show",
                          "uniform sampler2D S0;\nin vec2 uv;\nlayout(location = 0) out vec4 o;\n"
                          "void main() { if (uv.x > 0.5) discard; o = texture(S0, uv); }\n");
    tfx_use_sampler(a, show, s0, "S0");
    p = tfx_pass(a, tech, show);
    p->stencil_enable = true;
    p->stencil_pass = FXGL_STENCIL_REPLACE;
    p->stencil_ref = 7;
    int srgb = tfx_shader(a, FXGL_STAGE_PIXEL, "Srgb",
                          "uniform sampler2D ColorSrgb;\nin vec2 uv;\n"
                          "layout(location = 0) out vec4 o;\n"
                          "void main() { o = texture(ColorSrgb, uv) * 0.5; }\n");
    tfx_use_sampler(a, srgb, csrgb, "ColorSrgb");
    p = tfx_pass(a, tech, srgb);
    p->srgb_write = true;
    p->stencil_enable = true;
    p->stencil_func = FXGL_COMPARE_EQUAL;
    p->stencil_ref = 7;
    p->blend[0].enable = true;
    p->blend[0].op = FXGL_BLEND_OP_MAX;
    tfx_finish(a);

    tfx *b = &chain_b;
    tfx_init(b, "ChainB.fx", es);
    int depth = tfx_semantic(b, "ReShade::DepthBufferTex", "DEPTH");
    int ds = tfx_sampler(b, "B::Depth", depth, false, false);
    int mip = tfx_texture(b, "B::Mip", 16, 16, 4, FXGL_FORMAT_RGBA8);
    int ms = tfx_sampler(b, "B::MipS", mip, true, false);
    tfx_uniform(b, "B::count", FXGL_SCALAR_UINT, 1, FXGL_SPECIAL_FRAMECOUNT);
    tfx_uniform(b, "B::ready", FXGL_SCALAR_BOOL, 1, FXGL_SPECIAL_BUFREADY_DEPTH);
    int tb = tfx_technique(b, "ChainB");
    int fill = tfx_shader(b, FXGL_STAGE_PIXEL, "Fill",
                          "layout(std140) uniform _Globals { uint count; bool ready; };\n"
                          "uniform sampler2D Depth;\nin vec2 uv;\n"
                          "layout(location = 0) out vec4 o;\n"
                          "void main() { o = vec4(texture(Depth, uv).r, float(count & 3u) / 4.0, "
                          "ready ? 1.0 : 0.0, 1.0); }\n");
    tfx_use_sampler(b, fill, ds, "Depth");
    p = tfx_pass(b, tb, fill);
    tfx_target(b, p, mip);
    if (compute) {
        int img = tfx_texture(b, "B::Img", 8, 8, 1, FXGL_FORMAT_RGBA8);
        int st = tfx_storage(b, "B::Store", img, 0);
        int cshader = tfx_shader(b, FXGL_STAGE_COMPUTE, "CS",
                                 "layout(local_size_x = 8, local_size_y = 8) in;\n"
                                 "uniform sampler2D MipS;\n"
                                 "layout(binding = 0, rgba8) writeonly uniform highp image2D Store;\n"
                                 "void main() { ivec2 q = ivec2(gl_GlobalInvocationID.xy);\n"
                                 "  imageStore(Store, q, textureLod(MipS, vec2(q) / 8.0, 2.0)); }\n");
        tfx_use_sampler(b, cshader, ms, "MipS");
        tfx_use_storage(b, cshader, st, 0, "Store");
        tfx_compute(b, tb, cshader, 1, 1);
        int is = tfx_sampler(b, "B::ImgS", img, true, false);
        // Two samplers: units 0 and 1 (the state captures units on first use).
        int out = tfx_shader(b, FXGL_STAGE_PIXEL, "Out",
                             "uniform sampler2D ImgS;\nuniform sampler2D MipS;\nin vec2 uv;\n"
                             "layout(location = 0) out vec4 o;\n"
                             "void main() { o = texture(ImgS, uv) + textureLod(MipS, uv, 1.0); }\n");
        tfx_use_sampler(b, out, is, "ImgS");
        tfx_use_sampler(b, out, ms, "MipS");
        tfx_pass(b, tb, out);
    } else {
        int out = tfx_shader(b, FXGL_STAGE_PIXEL, "Out",
                             "uniform sampler2D MipS;\nuniform sampler2D Depth;\nin vec2 uv;\n"
                             "layout(location = 0) out vec4 o;\n"
                             "void main() { o = textureLod(MipS, uv, 1.0) + texture(Depth, uv); }\n");
        tfx_use_sampler(b, out, ms, "MipS");
        tfx_use_sampler(b, out, ds, "Depth");
        tfx_pass(b, tb, out);
    }
    tfx_finish(b);
}

// odd_state: the application's unusual values (set_app_state); without it the
// context keeps GL's initial values, most of which are the runtime's defaults
// too: then nothing the frame changes is restored because the defaults moved
// it, and every change must have been marked (gl_state_restore_changed).
static void runtime_chain_keeps_state(variant var, bool odd_state) {
    fixture f;
    char reason[256];
    if (!fixture_init(&f, var, reason, sizeof(reason))) {
        ck_assert_msg(var == GL_COMPAT, "%s context: %s", variant_name(var), reason);
        printf("state: %s not available (%s); skipped\n", variant_name(var), reason);
        return;
    }
    app *a = &f.a;
    GladGLContext *gl = a->gl;
    const fxgl_gl_info *info = fxgl_test_egl_info(f.egl);
    // The window the runtime works on: an FBO with colour and depth-stencil,
    // made before the application state so that state is what remains bound.
    GLuint src_fbo, src_color, src_depth;
    gl->GenTextures(1, &src_color);
    gl->BindTexture(GL_TEXTURE_2D, src_color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    gl->GenTextures(1, &src_depth);
    gl->BindTexture(GL_TEXTURE_2D, src_depth);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 32, 32);
    gl->GenFramebuffers(1, &src_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, src_fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, src_color, 0);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
                             src_depth, 0);
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    if (odd_state) {
        set_app_state(a);
    }
    read_state(a, &before);

    fxgl_runtime *rt = fxgl_runtime_create(gl, info, NULL);
    ck_assert(rt);
    read_state(a, &after);
    assert_same(&before, &after);
    build_chain(a->es, info->has_compute);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, &chain_a.fx, NULL), 0);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, &chain_b.fx, NULL), 1);
    fxgl_value scale = {.scalar = FXGL_SCALAR_FLOAT, .count = 4, .f = {0.1f, 0.2f, 0.3f, 0.0f}};
    ck_assert(fxgl_runtime_set_uniform(rt, 0, "scale", &scale));
    fxgl_input in = {.mouse_x = 3};
    // Three frames: loading, then the steady path twice (cache seeded from a capture).
    for (int frame = 0; frame < 3; frame++) {
        fxgl_frame_desc fd = {.width = 32, .height = 32, .framebuffer = src_fbo,
                              .input = &in, .time = frame * 0.016};
        ck_assert(fxgl_runtime_frame(rt, &fd));
        ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
        for (size_t e = 0; e < 2; e++) {
            const char *why = NULL;
            ck_assert_msg(fxgl_runtime_effect_status(rt, e, &why) == FXGL_STATUS_READY,
                          "%s: effect %zu: %s", variant_name(var), e, why);
        }
        read_state(a, &after);
        assert_same(&before, &after);
    }
    const fxgl_runtime_stats *s = fxgl_runtime_stats_get(rt);
    ck_assert_int_eq(s->techniques_run, 2);
    printf("state: %s: %d %s values unchanged after 3 runtime frames of a 2-effect chain "
           "(%u GL calls/frame: %u state, %u passes; %u draws, %u dispatches, %u barriers)\n",
           variant_name(var), before.count, odd_state ? "unusual" : "initial", s->gl_calls,
           s->state_calls, s->pass_calls,
           s->draw_calls, s->dispatches, s->barriers);
    fxgl_runtime_destroy(rt);
    read_state(a, &after);
    assert_same(&before, &after);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    fixture_finish(&f);
}

// --- more unusual state, a pending error, an application query ---
//
// What an engine may leave set at its swap beyond the table above: its VAO's
// attribute arrays and current values, units and UBO bindings beyond those
// the runtime uses, a program pipeline, a transform feedback object, patch,
// sample-shading, coverage, offset, point and hint state, debug groups, and
// queries in progress (a GL_TIME_ELAPSED query around the whole frame,
// samples, primitives). Each is set to an odd value, read back into the table
// and must survive fxgl_runtime_frame; and glGetError after the frame must
// return exactly what the application left pending, then GL_NO_ERROR.

#define MORE_UNITS 32            // units 16..31 carry bindings the runtime never uses
#define MORE_UBOS 14
#define ATTRIBS 16

typedef struct more {
    GLuint queries[3];
    GLenum query_target[3];
    int query_count;
    int units;                   // texture units set and read (up to MORE_UNITS)
    int ubos;                    // uniform buffer bindings set and read
    bool pipeline;               // program pipelines (GL 4.1, ES 3.1)
    bool tessellation;           // GL 4.0, ES 3.2
    bool sample_shading;
} more;

#ifndef GL_TIME_ELAPSED_EXT
#define GL_TIME_ELAPSED_EXT 0x88BF
#endif

static void set_more_state(app *a, more *m, bool app_query) {
    GladGLContext *gl = a->gl;
    bool es = a->es;
    memset(m, 0, sizeof(*m));
    GLint v = 0;
    gl->GetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &v);
    m->units = v < MORE_UNITS ? v : MORE_UNITS;
    gl->GetIntegerv(GL_MAX_UNIFORM_BUFFER_BINDINGS, &v);
    m->ubos = v < MORE_UBOS ? v : MORE_UBOS;
    m->pipeline = gl->BindProgramPipeline != NULL;
    m->tessellation = gl->PatchParameteri != NULL;
    m->sample_shading = gl->MinSampleShading != NULL;

    // The app's VAO (bound by set_app_state): attribute arrays from its
    // array buffer, divisors, and current values of every attribute.
    for (GLuint i = 0; i < ATTRIBS; i++) {
        if (i % 3 == 0) {
            gl->EnableVertexAttribArray(i);
        }
        gl->VertexAttribPointer(i, (GLint)(1 + i % 4), i % 2 ? GL_SHORT : GL_FLOAT,
                                (GLboolean)(i % 4 == 1), (GLsizei)(4 * i),
                                (const void *)(uintptr_t)(8 * i));
        gl->VertexAttribDivisor(i, i % 3);
        if (i > 0 || a->var != GL_COMPAT) {
            gl->VertexAttrib4f(i, (float)i, -(float)i, 0.5f, 2.0f);
        }
    }
    GLint active = 0;
    gl->GetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (int u = UNITS; u < m->units; u++) {
        GLuint t, smp;
        gl->GenTextures(1, &t);
        gl->GenSamplers(1, &smp);
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u);
        gl->BindTexture(u % 2 ? GL_TEXTURE_2D : GL_TEXTURE_3D, t);
        gl->BindSampler((GLuint)u, smp);
    }
    gl->ActiveTexture((GLenum)active);
    GLint generic = 0;
    gl->GetIntegerv(GL_UNIFORM_BUFFER_BINDING, &generic);
    for (GLuint i = UBOS; i < (GLuint)m->ubos; i++) {
        gl->BindBufferBase(GL_UNIFORM_BUFFER, i, new_buffer(gl));
    }
    gl->BindBuffer(GL_UNIFORM_BUFFER, (GLuint)generic);
    if (m->pipeline) {
        GLuint pipe;
        gl->GenProgramPipelines(1, &pipe);
        gl->BindProgramPipeline(pipe);
    }
    if (!es) {
        // GL 4.4: with a query buffer bound, a query result is written into it
        // at the offset given in place of the pointer.
        gl->BindBuffer(GL_QUERY_BUFFER, new_buffer(gl));
    }
    GLuint tf;
    gl->GenTransformFeedbacks(1, &tf);
    gl->BindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
    if (m->tessellation) {
        gl->PatchParameteri(GL_PATCH_VERTICES, 7);
    }
    if (m->sample_shading) {
        gl->Enable(GL_SAMPLE_SHADING);
        gl->MinSampleShading(0.375f);
    }
    gl->SampleCoverage(0.625f, GL_TRUE);
    gl->SampleMaski(0, 0xA5A5u);
    gl->PolygonOffset(1.5f, 2.5f);
    gl->Hint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_NICEST);
    if (!es) {
        gl->Hint(GL_LINE_SMOOTH_HINT, GL_NICEST);
        gl->Hint(GL_POLYGON_SMOOTH_HINT, GL_FASTEST);
        gl->Hint(GL_TEXTURE_COMPRESSION_HINT, GL_NICEST);
        gl->PrimitiveRestartIndex(0xABCDu);
        gl->ProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        gl->Enable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
        gl->Enable(GL_PROGRAM_POINT_SIZE);
        gl->PointSize(3.0f);
        gl->LogicOp(GL_XOR);
        gl->Enable(GL_LINE_SMOOTH);
        gl->Enable(GL_POLYGON_OFFSET_LINE);
        gl->Enable(GL_POLYGON_OFFSET_POINT);
        gl->PointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
        gl->PointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, 2.0f);
    } else {
        gl->Hint(GL_GENERATE_MIPMAP_HINT, GL_NICEST);
    }
    gl->PushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "app frame");
    gl->PushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "app pass");
    if (app_query) {
        // Queries in progress across the swap, as a profiling engine has.
        m->query_target[m->query_count++] = es ? GL_ANY_SAMPLES_PASSED : GL_SAMPLES_PASSED;
        if (!es) {
            m->query_target[m->query_count++] = GL_PRIMITIVES_GENERATED;
            m->query_target[m->query_count++] = GL_TIME_ELAPSED;
        } else if (has_ext(gl, "GL_EXT_disjoint_timer_query") && gl->BeginQueryEXT) {
            m->query_target[m->query_count++] = GL_TIME_ELAPSED_EXT;
        }
        gl->GenQueries(m->query_count, m->queries);
        for (int i = 0; i < m->query_count; i++) {
            gl->BeginQuery(m->query_target[i], m->queries[i]);
        }
    }
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
}

static void end_more_state(app *a, more *m) {
    GladGLContext *gl = a->gl;
    for (int i = 0; i < m->query_count; i++) {
        gl->EndQuery(m->query_target[i]);
    }
    gl->PopDebugGroup();
    gl->PopDebugGroup();
}

static void read_more_state(app *a, const more *m, table *t) {
    GladGLContext *gl = a->gl;
    bool es = a->es;
    static const GLenum attrib_names[] = {
        GL_VERTEX_ATTRIB_ARRAY_ENABLED, GL_VERTEX_ATTRIB_ARRAY_SIZE,
        GL_VERTEX_ATTRIB_ARRAY_TYPE, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED,
        GL_VERTEX_ATTRIB_ARRAY_INTEGER, GL_VERTEX_ATTRIB_ARRAY_STRIDE,
        GL_VERTEX_ATTRIB_ARRAY_DIVISOR, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING,
        GL_VERTEX_ATTRIB_RELATIVE_OFFSET, GL_VERTEX_ATTRIB_BINDING,
    };
    for (GLuint i = 0; i < ATTRIBS; i++) {
        for (size_t k = 0; k < sizeof(attrib_names) / sizeof(attrib_names[0]); k++) {
            GLint v = 0;
            gl->GetVertexAttribiv(i, attrib_names[k], &v);
            double d = v;
            put(t, &d, 1, "attrib %u 0x%04x", i, attrib_names[k]);
        }
        void *ptr = NULL;
        gl->GetVertexAttribPointerv(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        double d = (double)(uintptr_t)ptr;
        put(t, &d, 1, "attrib %u pointer", i);
        if (i > 0 || a->var != GL_COMPAT) {
            GLfloat f[4];
            gl->GetVertexAttribfv(i, GL_CURRENT_VERTEX_ATTRIB, f);
            double c[4] = {f[0], f[1], f[2], f[3]};
            put(t, c, 4, "attrib %u current", i);
        }
    }
    GLint active = 0;
    gl->GetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (int u = UNITS; u < m->units; u++) {
        gl->ActiveTexture(GL_TEXTURE0 + (GLenum)u);
        put_int(t, a, GL_TEXTURE_BINDING_2D, 1, "unit 2d (more)");
        put_int(t, a, GL_TEXTURE_BINDING_3D, 1, "unit 3d (more)");
        put_int(t, a, GL_SAMPLER_BINDING, 1, "unit sampler (more)");
    }
    gl->ActiveTexture((GLenum)active);
    for (GLuint i = UBOS; i < (GLuint)m->ubos; i++) {
        put_inti(t, a, GL_UNIFORM_BUFFER_BINDING, i, "ubo binding (more)");
    }
    if (m->pipeline) {
        put_int(t, a, GL_PROGRAM_PIPELINE_BINDING, 1, "program pipeline");
    }
    put_int(t, a, GL_TRANSFORM_FEEDBACK_BINDING, 1, "transform feedback object");
    if (!es) {
        put_int(t, a, GL_QUERY_BUFFER_BINDING, 1, "query buffer");
    }
    if (m->tessellation) {
        put_int(t, a, GL_PATCH_VERTICES, 1, "patch vertices");
    }
    if (m->sample_shading) {
        put_enabled(t, a, GL_SAMPLE_SHADING, "sample shading");
        put_float(t, a, GL_MIN_SAMPLE_SHADING_VALUE, 1, "min sample shading");
    }
    put_float(t, a, GL_SAMPLE_COVERAGE_VALUE, 1, "sample coverage value");
    put_int(t, a, GL_SAMPLE_COVERAGE_INVERT, 1, "sample coverage invert");
    put_inti(t, a, GL_SAMPLE_MASK_VALUE, 0, "sample mask value");
    put_float(t, a, GL_POLYGON_OFFSET_FACTOR, 1, "polygon offset factor");
    put_float(t, a, GL_POLYGON_OFFSET_UNITS, 1, "polygon offset units");
    put_int(t, a, GL_FRAGMENT_SHADER_DERIVATIVE_HINT, 1, "derivative hint");
    if (!es) {
        put_int(t, a, GL_LINE_SMOOTH_HINT, 1, "line smooth hint");
        put_int(t, a, GL_POLYGON_SMOOTH_HINT, 1, "polygon smooth hint");
        put_int(t, a, GL_TEXTURE_COMPRESSION_HINT, 1, "texture compression hint");
        put_int(t, a, GL_PRIMITIVE_RESTART_INDEX, 1, "primitive restart index");
        put_int(t, a, GL_PROVOKING_VERTEX, 1, "provoking vertex");
        put_enabled(t, a, GL_TEXTURE_CUBE_MAP_SEAMLESS, "cube map seamless");
        put_enabled(t, a, GL_PROGRAM_POINT_SIZE, "program point size");
        put_float(t, a, GL_POINT_SIZE, 1, "point size");
        put_int(t, a, GL_LOGIC_OP_MODE, 1, "logic op");
        put_enabled(t, a, GL_LINE_SMOOTH, "line smooth");
        put_enabled(t, a, GL_POLYGON_OFFSET_LINE, "polygon offset line");
        put_enabled(t, a, GL_POLYGON_OFFSET_POINT, "polygon offset point");
        put_int(t, a, GL_POINT_SPRITE_COORD_ORIGIN, 1, "point sprite origin");
        put_float(t, a, GL_POINT_FADE_THRESHOLD_SIZE, 1, "point fade threshold");
    } else {
        put_int(t, a, GL_GENERATE_MIPMAP_HINT, 1, "mipmap hint");
    }
    put_int(t, a, GL_DEBUG_GROUP_STACK_DEPTH, 1, "debug group depth");
    for (int i = 0; i < m->query_count; i++) {
        GLint q = 0;
        gl->GetQueryiv(m->query_target[i], GL_CURRENT_QUERY, &q);
        double d = q;
        put(t, &d, 1, "query in progress 0x%04x", m->query_target[i]);
    }
}

// A harmless invalid call the application made and has not checked yet:
// glLineWidth(-1) raises GL_INVALID_VALUE, an error fxgl's own calls never
// could, so the value read after the frame tells whose error it is.
static void leave_app_error(GladGLContext *gl) {
    gl->LineWidth(-1.0f);
}

static void frame_leaves_no_error(variant var, bool app_query) {
    fixture f;
    char reason[256];
    if (!fixture_init(&f, var, reason, sizeof(reason))) {
        ck_assert_msg(var == GL_COMPAT, "%s context: %s", variant_name(var), reason);
        printf("state: %s not available (%s); skipped\n", variant_name(var), reason);
        return;
    }
    app *a = &f.a;
    GladGLContext *gl = a->gl;
    const fxgl_gl_info *info = fxgl_test_egl_info(f.egl);
    GLuint src_fbo, src_color, src_depth;
    gl->GenTextures(1, &src_color);
    gl->BindTexture(GL_TEXTURE_2D, src_color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    gl->GenTextures(1, &src_depth);
    gl->BindTexture(GL_TEXTURE_2D, src_depth);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 32, 32);
    gl->GenFramebuffers(1, &src_fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, src_fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, src_color, 0);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
                             src_depth, 0);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    set_app_state(a);
    static more m;
    set_more_state(a, &m, app_query);
    read_state(a, &before);
    read_more_state(a, &m, &before);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);

    fxgl_runtime *rt = fxgl_runtime_create(gl, info, NULL);
    ck_assert(rt);
    build_chain(a->es, info->has_compute);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, &chain_a.fx, NULL), 0);
    ck_assert_int_eq(fxgl_runtime_add_effect(rt, &chain_b.fx, NULL), 1);
    fxgl_input in = {.mouse_x = 3};
    // Six frames (loading, then the steady path; past the first timer
    // read-backs), every other one with an application error pending.
    for (int frame = 0; frame < 6; frame++) {
        bool pending = frame % 2 == 1;
        if (pending) {
            leave_app_error(gl);
        }
        fxgl_frame_desc fd = {.width = 32, .height = 32, .framebuffer = src_fbo,
                              .input = &in, .time = frame * 0.016};
        ck_assert(fxgl_runtime_frame(rt, &fd));
        GLenum first = gl->GetError(), second = gl->GetError();
        ck_assert_msg(first == (pending ? GL_INVALID_VALUE : GL_NO_ERROR) &&
                          second == GL_NO_ERROR,
                      "%s%s: frame %d: glGetError after the frame gives 0x%04x then 0x%04x; "
                      "the application left %s",
                      variant_name(var), app_query ? " (application queries active)" : "",
                      frame, first, second, pending ? "GL_INVALID_VALUE" : "none");
        read_state(a, &after);
        read_more_state(a, &m, &after);
        assert_same(&before, &after);
    }
    const fxgl_runtime_stats *s = fxgl_runtime_stats_get(rt);
    ck_assert_int_gt(s->techniques_run, 0);
    printf("state: %s%s: %d values unchanged and the application's error kept after each of "
           "6 frames\n", variant_name(var), app_query ? " with its queries active" : "",
           before.count);
    fxgl_runtime_destroy(rt);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    end_more_state(a, &m);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    fixture_finish(&f);
}

START_TEST(gl_core_frame_leaves_no_error) {
    frame_leaves_no_error(GL_CORE, false);
    frame_leaves_no_error(GL_CORE, true);
}
END_TEST

START_TEST(gl_compat_frame_leaves_no_error) {
    frame_leaves_no_error(GL_COMPAT, false);
    frame_leaves_no_error(GL_COMPAT, true);
}
END_TEST

START_TEST(gles_frame_leaves_no_error) {
    frame_leaves_no_error(GLES, false);
    frame_leaves_no_error(GLES, true);
}
END_TEST

START_TEST(gl_core_runtime_chain_keeps_state) {
    runtime_chain_keeps_state(GL_CORE, true);
    runtime_chain_keeps_state(GL_CORE, false);
}
END_TEST

START_TEST(gl_compat_runtime_chain_keeps_state) {
    runtime_chain_keeps_state(GL_COMPAT, true);
    runtime_chain_keeps_state(GL_COMPAT, false);
}
END_TEST

START_TEST(gles_runtime_chain_keeps_state) {
    runtime_chain_keeps_state(GLES, true);
    runtime_chain_keeps_state(GLES, false);
}
END_TEST

// The comparison catches one changed value, by name, and a skipped restore.
START_TEST(comparison_catches_changes) {
    fixture f;
    char reason[256];
    ck_assert_msg(fixture_init(&f, GL_CORE, reason, sizeof(reason)), "%s", reason);
    app *a = &f.a;
    GladGLContext *gl = a->gl;
    set_app_state(a);
    read_state(a, &before);
    runtime r;
    gl_state_capture(&f.st);
    runtime_frame(a, &f.st, &r);
    gl_state_restore(&f.st);
    gl->StencilMaskSeparate(GL_BACK, 0x0E); // one value corrupted after the restore
    read_state(a, &after);
    int i = first_mismatch(&before, &after);
    ck_assert_int_ge(i, 0);
    ck_assert_str_eq(after.e[i].name, "stencil back writemask");
    ck_assert(after.e[i].v[0] == 0x0E);

    // Without the restore, many values differ (the frame does change state).
    gl->StencilMaskSeparate(GL_BACK, 0x0F);
    read_state(a, &after);
    ck_assert_int_eq(first_mismatch(&before, &after), -1);
    gl_state_capture(&f.st);
    runtime_frame(a, &f.st, &r);
    read_state(a, &after);
    int changed = 0;
    for (int k = 0; k < before.count; k++) {
        changed += memcmp(before.e[k].v, after.e[k].v, sizeof(double) * 4) != 0;
    }
    ck_assert_int_ge(changed, 50);
    gl_state_restore(&f.st);
    read_state(a, &after);
    ck_assert_int_eq(first_mismatch(&before, &after), -1);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    printf("state: negative: corruption caught; %d values differ without a restore\n",
           changed);
    fixture_finish(&f);
}
END_TEST

// GL_STENCIL_REF reads back clamped to the bound draw framebuffer's stencil
// bits on Mesa; an application that set its ref with a colour-only FBO bound
// still finds it unclamped once it binds a stencil FBO again.
START_TEST(stencil_ref_survives_without_stencil_bits) {
    fixture f;
    char reason[256];
    ck_assert_msg(fixture_init(&f, GL_CORE, reason, sizeof(reason)), "%s", reason);
    GladGLContext *gl = f.a.gl;
    GLuint color = new_texture(gl, GL_TEXTURE_2D, GL_RGBA8, 1, 1);
    GLuint rb, fbo[2];
    gl->GenRenderbuffers(1, &rb);
    gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 8, 8);
    gl->GenFramebuffers(2, fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo[1]);
    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                rb);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo[0]);
    gl->StencilFuncSeparate(GL_FRONT, GL_EQUAL, 0x5A, 0xFF);
    gl->StencilFuncSeparate(GL_BACK, GL_EQUAL, 0x33, 0xFF);
    GLint naive = -1;
    gl->GetIntegerv(GL_STENCIL_REF, &naive);
    runtime r;
    gl_state_capture(&f.st);
    runtime_frame(&f.a, &f.st, &r);
    gl_state_restore(&f.st);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo[1]);
    GLint front = 0, back = 0;
    gl->GetIntegerv(GL_STENCIL_REF, &front);
    gl->GetIntegerv(GL_STENCIL_BACK_REF, &back);
    ck_assert_int_eq(front, 0x5A);
    ck_assert_int_eq(back, 0x33);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    printf("state: stencil ref read with a colour-only FBO bound: %d (set: %d)\n", naive, 0x5A);
    fixture_finish(&f);
}
END_TEST

// Missing entry points and odd counts: init falls back or refuses, nothing
// crashes and capture/restore raise no GL error.
START_TEST(odd_contexts_are_safe) {
    fixture f;
    char reason[256];
    ck_assert_msg(fixture_init(&f, GL_CORE, reason, sizeof(reason)), "%s", reason);
    GladGLContext *gl = f.a.gl;
    const fxgl_gl_info *info = fxgl_test_egl_info(f.egl);

    // No indexed queries, no multi-bind, no viewport arrays: fewer caps, no errors.
    GladGLContext reduced = *gl;
    reduced.GetBooleani_v = NULL;
    reduced.BindSamplers = NULL;
    reduced.GetDoublei_v = NULL;
    reduced.BindImageTexture = NULL;
    gl_state st;
    gl_state_desc huge = {.texture_units = 100000, .uniform_buffers = -3,
                          .storage_buffers = 1 << 20, .draw_buffers = 99};
    ck_assert(gl_state_init(&st, &reduced, info, &huge));
    ck_assert(!st.caps.indexed_blend && !st.caps.multi_bind && !st.caps.viewport_array);
    ck_assert(!st.caps.image_units);
    ck_assert_int_le(st.desc.draw_buffers, GL_STATE_MAX_DRAW_BUFFERS);
    ck_assert_int_eq(st.desc.uniform_buffers, 0);
    GLint units = 0;
    gl->GetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &units);
    ck_assert_int_eq(st.desc.texture_units, units);
    gl_state_capture(&st);
    gl_state_set_runtime_defaults(&st);
    gl_state_restore(&st);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    gl_state_finish(&st);

    // A required entry point missing: init refuses; the zeroed state is inert.
    reduced = *gl;
    reduced.StencilOpSeparate = NULL;
    ck_assert(!gl_state_init(&st, &reduced, info, NULL));
    gl_state_capture(&st);
    gl_state_set_runtime_defaults(&st);
    gl_state_restore(&st);
    gl_state_finish(&st);
    gl_state_finish(NULL);

    // Restore without a capture does nothing.
    ck_assert(gl_state_init(&st, gl, info, NULL));
    gl_state_restore(&st);
    ck_assert_int_eq(st.stats.restores, 0);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);
    gl_state_finish(&st);
    fixture_finish(&f);
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GLES)) {
        return FXGL_TEST_SKIP;
    }

    Suite *s = suite_create("state");
    TCase *tc = tcase_create("state");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gl_core_frame_keeps_state);
    tcase_add_test(tc, gl_compat_frame_keeps_state);
    tcase_add_test(tc, gles_frame_keeps_state);
    tcase_add_test(tc, restore_changed_counts);
    tcase_add_test(tc, gl_core_runtime_chain_keeps_state);
    tcase_add_test(tc, gl_compat_runtime_chain_keeps_state);
    tcase_add_test(tc, gles_runtime_chain_keeps_state);
    tcase_add_test(tc, gl_core_frame_leaves_no_error);
    tcase_add_test(tc, gl_compat_frame_leaves_no_error);
    tcase_add_test(tc, gles_frame_leaves_no_error);
    tcase_add_test(tc, comparison_catches_changes);
    tcase_add_test(tc, stencil_ref_survives_without_stencil_bits);
    tcase_add_test(tc, odd_contexts_are_safe);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
