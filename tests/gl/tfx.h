/*
 * tfx.h - hand-built effect modules for the runtime's tests and benchmark.
 *
 * fxgl_effect is plain data, so a test can write one directly: textures,
 * samplers, uniforms, techniques and passes with every state resolved, and
 * GLSL written by hand against the GLSL contract in fxgl_fx.h (one
 * `_Globals` std140 block, samplers bound by name, no vertex attributes,
 * varyings matched by name, fragment outputs at location n, vertex shaders
 * ending with `gl_Position.y = -gl_Position.y`). The runtime therefore runs
 * under test without the compiler. Everything lives in one tfx struct, no
 * allocation.
 */
#ifndef TFX_H
#define TFX_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"

#define TFX_MAX 32

typedef struct tfx {
    fxgl_effect fx;
    bool es;                     // write GLSL ES 3.20 instead of GLSL 4.50
    fxgl_texture tex[TFX_MAX];
    fxgl_sampler smp[TFX_MAX];
    fxgl_storage sto[TFX_MAX];
    fxgl_uniform uni[TFX_MAX * 2];
    fxgl_annotation ann[TFX_MAX * 2][4];
    fxgl_technique tech[4];
    fxgl_pass pass[4][32];
    fxgl_shader sh[TFX_MAX];
    fxgl_binding sb[TFX_MAX][16];
    fxgl_binding ib[TFX_MAX][4];
    char glsl[TFX_MAX][4096];
    int ntex, nsmp, nsto, nuni, ntech, nsh;
    int vs;                      // the fullscreen-triangle vertex shader
    uint32_t block;              // uniform block size so far
} tfx;

static inline const char *tfx_header(const tfx *t) {
    return t->es ? "#version 320 es\nprecision highp float;\nprecision highp int;\n"
                   "precision highp sampler3D;\nprecision highp image2D;\n"
                 : "#version 450\n";
}

static inline int tfx_shader(tfx *t, fxgl_stage stage, const char *entry, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int tfx_shader(tfx *t, fxgl_stage stage, const char *entry, const char *fmt, ...) {
    int i = t->nsh++;
    fxgl_shader *s = &t->sh[i];
    memset(s, 0, sizeof(*s));
    s->entry = entry;
    s->stage = stage;
    int n = snprintf(t->glsl[i], sizeof(t->glsl[i]), "%s", tfx_header(t));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->glsl[i] + n, sizeof(t->glsl[i]) - (size_t)n, fmt, ap);
    va_end(ap);
    s->glsl = t->glsl[i];
    s->samplers = t->sb[i];
    s->storages = t->ib[i];
    return i;
}

// Adds a sampler binding (by name) to shader s.
static inline void tfx_use_sampler(tfx *t, int s, int sampler, const char *name) {
    if (t->sh[s].sampler_count == sizeof(t->sb[0]) / sizeof(t->sb[0][0])) {
        fprintf(stderr, "tfx: too many samplers in one shader\n");
        abort();
    }
    fxgl_binding *b = &t->sb[s][t->sh[s].sampler_count++];
    b->object = sampler;
    b->unit = (int)t->sh[s].sampler_count - 1;
    b->name = name;
}

static inline void tfx_use_storage(tfx *t, int s, int storage, int unit, const char *name) {
    fxgl_binding *b = &t->ib[s][t->sh[s].storage_count++];
    b->object = storage;
    b->unit = unit;
    b->name = name;
}

static inline void tfx_init(tfx *t, const char *path, bool es) {
    memset(t, 0, sizeof(*t));
    t->es = es;
    t->fx.path = path;
    // ReShade.fxh's PostProcessVS, as the contract has it.
    t->vs = tfx_shader(t, FXGL_STAGE_VERTEX, "PostProcessVS",
                       "out vec2 uv;\n"
                       "void main() {\n"
                       "    vec2 tc = vec2(gl_VertexID == 2 ? 2.0 : 0.0, gl_VertexID == 1 ? 2.0 : 0.0);\n"
                       "    uv = tc;\n"
                       "    gl_Position = vec4(tc * vec2(2.0, -2.0) + vec2(-1.0, 1.0), 0.0, 1.0);\n"
                       "    gl_Position.y = -gl_Position.y;\n"
                       "}\n");
}

static inline int tfx_texture(tfx *t, const char *name, int w, int h, int levels,
                              fxgl_format format) {
    int i = t->ntex++;
    fxgl_texture *x = &t->tex[i];
    memset(x, 0, sizeof(*x));
    x->name = name;
    x->dim = FXGL_TEXTURE_2D;
    x->width = w;
    x->height = h;
    x->depth = 1;
    x->levels = levels;
    x->format = format;
    return i;
}

static inline int tfx_semantic(tfx *t, const char *name, const char *semantic) {
    int i = tfx_texture(t, name, 1, 1, 1, FXGL_FORMAT_UNKNOWN);
    t->tex[i].semantic = semantic;
    return i;
}

static inline int tfx_sampler(tfx *t, const char *name, int texture, bool linear, bool srgb) {
    int i = t->nsmp++;
    fxgl_sampler *s = &t->smp[i];
    memset(s, 0, sizeof(*s));
    s->name = name;
    s->texture = texture;
    s->element = FXGL_SCALAR_FLOAT;
    s->element_count = 4;
    s->address_u = s->address_v = s->address_w = FXGL_ADDRESS_CLAMP;
    s->min_filter = s->mag_filter = s->mip_filter = linear ? FXGL_FILTER_LINEAR
                                                           : FXGL_FILTER_POINT;
    s->min_lod = -3.0e38f;
    s->max_lod = 3.0e38f;
    s->srgb = srgb;
    t->tex[texture].srgb_read |= srgb;
    return i;
}

static inline int tfx_storage(tfx *t, const char *name, int texture, int level) {
    int i = t->nsto++;
    fxgl_storage *s = &t->sto[i];
    memset(s, 0, sizeof(*s));
    s->name = name;
    s->texture = texture;
    s->element = FXGL_SCALAR_FLOAT;
    s->element_count = 4;
    s->level = level;
    t->tex[texture].storage_access = true;
    return i;
}

// A uniform of rows components of scalar, placed at the next std140 offset
// (align 4 for scalars, 8 for 2 components, 16 for 3-4).
static inline fxgl_uniform *tfx_uniform(tfx *t, const char *name, fxgl_scalar scalar, int rows,
                                        fxgl_special special) {
    int i = t->nuni++;
    fxgl_uniform *u = &t->uni[i];
    memset(u, 0, sizeof(*u));
    uint32_t align = rows == 1 ? 4 : rows == 2 ? 8 : 16;
    t->block = (t->block + align - 1) / align * align;
    u->name = name;
    u->scalar = scalar;
    u->rows = rows;
    u->cols = 1;
    u->offset = t->block;
    u->size = 4u * (uint32_t)rows;
    u->special = special;
    u->annotations.items = t->ann[i];
    t->block += u->size;
    return u;
}

static inline void tfx_annotate(tfx *t, fxgl_uniform *u, const char *name, fxgl_scalar scalar,
                                int count, const double *v, const char *string) {
    int i = (int)(u - t->uni);
    fxgl_annotation *a = &t->ann[i][u->annotations.count++];
    memset(a, 0, sizeof(*a));
    a->name = name;
    a->value.scalar = scalar;
    a->value.count = count;
    for (int k = 0; k < count; k++) {
        if (scalar == FXGL_SCALAR_FLOAT) {
            a->value.f[k] = (float)v[k];
        } else {
            a->value.i[k] = (int32_t)v[k];
        }
    }
    if (string) {
        a->value.string = string;
        a->value.string_len = strlen(string);
    }
}

static inline int tfx_technique(tfx *t, const char *name) {
    int i = t->ntech++;
    fxgl_technique *x = &t->tech[i];
    memset(x, 0, sizeof(*x));
    x->name = name;
    x->passes = t->pass[i];
    x->enabled_in_screenshot = true;
    return i;
}

// A graphics pass with the reference's defaults, drawing to the back buffer.
static inline fxgl_pass *tfx_pass(tfx *t, int technique, int ps) {
    fxgl_technique *x = &t->tech[technique];
    if (x->pass_count == sizeof(t->pass[0]) / sizeof(t->pass[0][0])) {
        fprintf(stderr, "tfx: too many passes\n");
        abort();
    }
    fxgl_pass *p = &t->pass[technique][x->pass_count++];
    memset(p, 0, sizeof(*p));
    p->vertex_shader = t->vs;
    p->pixel_shader = ps;
    p->compute_shader = -1;
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        p->render_targets[i] = -1;
        p->blend[i] = (fxgl_target_blend){
            .enable = false, .op = FXGL_BLEND_OP_ADD, .op_alpha = FXGL_BLEND_OP_ADD,
            .src = FXGL_BLEND_ONE, .dst = FXGL_BLEND_ZERO, .src_alpha = FXGL_BLEND_ONE,
            .dst_alpha = FXGL_BLEND_ZERO, .write_mask = 0xF,
        };
    }
    p->generate_mipmaps = true;
    p->stencil_read_mask = 0xFF;
    p->stencil_write_mask = 0xFF;
    p->stencil_func = FXGL_COMPARE_ALWAYS;
    p->stencil_pass = p->stencil_fail = p->stencil_depth_fail = FXGL_STENCIL_KEEP;
    p->topology = FXGL_TOPOLOGY_TRIANGLELIST;
    p->vertex_count = 3;
    p->dispatch[2] = 1;
    return p;
}

static inline void tfx_target(tfx *t, fxgl_pass *p, int texture) {
    p->render_targets[p->render_target_count++] = texture;
    t->tex[texture].render_target = true;
    p->viewport_width = t->tex[texture].width;
    p->viewport_height = t->tex[texture].height;
}

static inline fxgl_pass *tfx_compute(tfx *t, int technique, int cs, int gx, int gy) {
    fxgl_pass *p = tfx_pass(t, technique, -1);
    p->vertex_shader = -1;
    p->compute_shader = cs;
    p->dispatch[0] = (uint32_t)gx;
    p->dispatch[1] = (uint32_t)gy;
    return p;
}

static inline const fxgl_effect *tfx_finish(tfx *t) {
    t->fx.textures = t->tex;
    t->fx.texture_count = (size_t)t->ntex;
    t->fx.samplers = t->smp;
    t->fx.sampler_count = (size_t)t->nsmp;
    t->fx.storages = t->sto;
    t->fx.storage_count = (size_t)t->nsto;
    t->fx.uniforms = t->uni;
    t->fx.uniform_count = (size_t)t->nuni;
    t->fx.uniform_block_size = (t->block + 15) / 16 * 16;
    t->fx.techniques = t->tech;
    t->fx.technique_count = (size_t)t->ntech;
    t->fx.shaders = t->sh;
    t->fx.shader_count = (size_t)t->nsh;
    for (int i = 0; i < t->nsh; i++) {
        t->sh[i].uses_uniforms = strstr(t->glsl[i], "_Globals") != NULL;
    }
    return &t->fx;
}

#endif // TFX_H
