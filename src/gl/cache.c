/*
 * cache.c - the state cache: compare, call, record, count.
 *
 * A frame starts the way sokol's sg_reset_state_cache does: gl_state has
 * captured what the application left and set the global defaults, so the
 * cache is seeded with those values (the unit bindings keep the
 * application's objects, whose names are public fields of the capture).
 * After that every bind goes through here and a value already in place is
 * never set again. Frames that loaded effects or resized reset the cache to
 * "unknown" instead, because loading binds whatever it needs.
 *
 * Every call made here is marked in gl_state (gl_state_touch*), so that the
 * restore at the end of the frame writes back only what the frame changed.
 *
 * Viewport and scissor index 0 go through the indexed calls where the
 * context has viewport arrays (the gl_state contract: the plain calls would
 * change every index, which restore does not put back).
 */
#include <string.h>

#include "gl_runtime.h"

void gl_cache_reset(fxgl_runtime *rt, bool from_capture) {
    gl_cache *c = &rt->cache;
    memset(c, 0xFF, sizeof(*c)); // GL_RT_UNKNOWN everywhere
    // Booleans must hold 0 or 1; the *_known flags say whether they mean anything.
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        c->blend[i].enable = false;
    }
    c->stencil.enable = false;
    c->blend_known = false;
    c->stencil_known = false;
    c->srgb = -1;
    if (!from_capture) {
        return;
    }
    const gl_state *st = &rt->st;
    // gl_state_set_runtime_defaults left these.
    c->program = 0;
    c->vao = 0;
    c->active = 0;
    c->draw_fbo = 0;
    c->read_fbo = 0;
    c->srgb = 0;
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        c->blend[i] = (gl_blend){
            .enable = false, .src = GL_ONE, .dst = GL_ZERO, .src_alpha = GL_ONE,
            .dst_alpha = GL_ZERO, .op = GL_FUNC_ADD, .op_alpha = GL_FUNC_ADD, .mask = 0xF,
        };
    }
    c->blend_known = true;
    c->stencil = (gl_stencil){
        .enable = false, .func = GL_ALWAYS, .ref = 0, .read_mask = 0xFFFFFFFFu,
        .write_mask = 0xFFFFFFFFu, .fail = GL_KEEP, .zfail = GL_KEEP, .pass = GL_KEEP,
    };
    c->stencil_known = true;
    // Unit bindings: the application's, as captured (2D is target 0, 3D target
    // 1); units not captured yet stay unknown and are captured on first use.
    int units = st->desc.texture_units < rt->units ? st->desc.texture_units : rt->units;
    for (int u = 0; u < units; u++) {
        if (!gl_state_unit_captured(st, u)) {
            continue;
        }
        c->tex2d[u] = st->units[u].texture[0];
        c->tex3d[u] = st->num_targets > 1 ? st->units[u].texture[1] : GL_RT_UNKNOWN;
        c->sampler[u] = st->units[u].sampler;
    }
    if (st->desc.uniform_buffers > 0 && st->ubos[0].size == 0) {
        c->ubo = st->ubos[0].buffer;
    }
}

void gl_cache_program(fxgl_runtime *rt, GLuint program) {
    if (rt->cache.program != program) {
        GLC(rt, UseProgram(program));
        gl_state_touch(&rt->st, GL_STATE_PROGRAM);
        rt->cache.program = program;
        rt->stats.program_binds++;
    }
}

void gl_cache_draw_fbo(fxgl_runtime *rt, GLuint fbo) {
    if (rt->cache.draw_fbo != fbo) {
        GLC(rt, BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo));
        gl_state_touch(&rt->st, GL_STATE_FRAMEBUFFERS);
        rt->cache.draw_fbo = fbo;
        rt->stats.framebuffer_binds++;
    }
}

void gl_cache_read_fbo(fxgl_runtime *rt, GLuint fbo) {
    if (rt->cache.read_fbo != fbo) {
        GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
        gl_state_touch(&rt->st, GL_STATE_FRAMEBUFFERS);
        rt->cache.read_fbo = fbo;
        rt->stats.framebuffer_binds++;
    }
}

void gl_cache_vao(fxgl_runtime *rt, GLuint vao) {
    if (rt->cache.vao != vao) {
        GLC(rt, BindVertexArray(vao));
        gl_state_touch(&rt->st, GL_STATE_VAO);
        rt->cache.vao = vao;
    }
}

void gl_cache_viewport(fxgl_runtime *rt, int w, int h) {
    GLint *v = rt->cache.viewport;
    if (v[0] == 0 && v[1] == 0 && v[2] == w && v[3] == h) {
        return;
    }
    if (rt->viewport_array) {
        GLC(rt, ViewportIndexedf(0, 0.0f, 0.0f, (GLfloat)w, (GLfloat)h));
    } else {
        GLC(rt, Viewport(0, 0, w, h));
    }
    gl_state_touch(&rt->st, GL_STATE_VIEWPORT);
    v[0] = 0;
    v[1] = 0;
    v[2] = w;
    v[3] = h;
}

// The application's bindings of a unit are captured before its first bind
// of the frame (gl_state lazy_units); that selects the unit.
static void capture_unit(fxgl_runtime *rt, int unit) {
    const gl_state *st = &rt->st;
    if (gl_state_unit_captured(st, unit) || !gl_state_capture_unit(&rt->st, unit)) {
        return;
    }
    rt->cache.active = (GLuint)unit;
    rt->cache.tex2d[unit] = st->units[unit].texture[0];
    rt->cache.tex3d[unit] = st->num_targets > 1 ? st->units[unit].texture[1] : GL_RT_UNKNOWN;
    rt->cache.sampler[unit] = st->units[unit].sampler;
}

static void set_active(fxgl_runtime *rt, int unit) {
    if (rt->cache.active != (GLuint)unit) {
        GLC(rt, ActiveTexture(GL_TEXTURE0 + (GLenum)unit));
        gl_state_touch(&rt->st, GL_STATE_ACTIVE_TEXTURE);
        rt->cache.active = (GLuint)unit;
    }
}

void gl_cache_texture(fxgl_runtime *rt, int unit, GLenum target, GLuint tex) {
    capture_unit(rt, unit);
    GLuint *slot = target == GL_TEXTURE_3D ? &rt->cache.tex3d[unit] : &rt->cache.tex2d[unit];
    if (target != GL_TEXTURE_2D && target != GL_TEXTURE_3D) {
        // 1D textures (desktop only) are rare: bind without caching.
        set_active(rt, unit);
        GLC(rt, BindTexture(target, tex));
        gl_state_touch_unit(&rt->st, GL_STATE_UNIT_TEXTURE, unit);
        rt->stats.texture_binds++;
        return;
    }
    if (*slot == tex) {
        return;
    }
    if (rt->has_dsa) {
        // glBindTextureUnit binds to the texture's own target: one call, and
        // the active unit stays as it is.
        GLC(rt, BindTextureUnit((GLuint)unit, tex));
    } else {
        set_active(rt, unit);
        GLC(rt, BindTexture(target, tex));
    }
    gl_state_touch_unit(&rt->st, GL_STATE_UNIT_TEXTURE, unit);
    *slot = tex;
    rt->stats.texture_binds++;
}

void gl_cache_sampler(fxgl_runtime *rt, int unit, GLuint sampler) {
    capture_unit(rt, unit);
    if (rt->cache.sampler[unit] != sampler) {
        GLC(rt, BindSampler((GLuint)unit, sampler));
        gl_state_touch_unit(&rt->st, GL_STATE_UNIT_SAMPLER, unit);
        rt->cache.sampler[unit] = sampler;
        rt->stats.sampler_binds++;
    }
}

void gl_cache_image(fxgl_runtime *rt, int unit, gl_tex *tex, int level) {
    gl_cache *c = &rt->cache;
    gl_state_capture_image(&rt->st, unit);
    if (c->image[unit] == tex->tex && c->image_level[unit] == level) {
        return;
    }
    // The UNORM texture itself, never the sRGB view: sRGB formats have no image format.
    // A 3D texture is bound layered: an image3D (storage3D) reaches every slice; not
    // layered, GL would bind slice 0 alone as a 2D image.
    GLboolean layered = tex->target == GL_TEXTURE_3D ? GL_TRUE : GL_FALSE;
    GLC(rt, BindImageTexture((GLuint)unit, tex->tex, level, layered, 0, GL_READ_WRITE,
                             tex->internal));
    gl_state_touch_unit(&rt->st, GL_STATE_UNIT_IMAGE, unit);
    c->image[unit] = tex->tex;
    c->image_level[unit] = level;
}

void gl_cache_ubo(fxgl_runtime *rt, GLuint ubo) {
    if (rt->cache.ubo != ubo) {
        GLC(rt, BindBufferBase(GL_UNIFORM_BUFFER, 0, ubo));
        // Base binding also sets the generic GL_UNIFORM_BUFFER binding.
        gl_state_touch_unit(&rt->st, GL_STATE_UNIT_UBO, 0);
        gl_state_touch(&rt->st, GL_STATE_BUFFERS);
        rt->cache.ubo = ubo;
    }
}

static bool blend_equal(const gl_blend *a, const gl_blend *b) {
    if (a->mask != b->mask || a->enable != b->enable) {
        return false;
    }
    // Factors do not matter while blending is off.
    return !a->enable || (a->src == b->src && a->dst == b->dst &&
                          a->src_alpha == b->src_alpha && a->dst_alpha == b->dst_alpha &&
                          a->op == b->op && a->op_alpha == b->op_alpha);
}

// The indexed calls go through gl_state's pointers (core, OES or EXT names).
static void mask_call(fxgl_runtime *rt, int i, uint8_t m, bool indexed) {
    GLboolean r = (m & 1) != 0, g = (m & 2) != 0, b = (m & 4) != 0, a = (m & 8) != 0;
    if (indexed) {
        GLP(rt, rt->st.color_maski((GLuint)i, r, g, b, a));
    } else {
        GLC(rt, ColorMask(r, g, b, a));
    }
}

void gl_cache_blend(fxgl_runtime *rt, const gl_blend *blend, int count) {
    gl_cache *c = &rt->cache;
    if (!rt->indexed_blend) {
        // One state for every draw buffer: the pass's first target decides
        // (load refuses passes whose targets would need different blends).
        count = 1;
    } else if (!c->blend_known) {
        // After a reset nothing is known about any buffer: set all of them.
        count = FXGL_MAX_RENDER_TARGETS;
    }
    uint32_t calls0 = rt->calls;
    for (int i = 0; i < count; i++) {
        const gl_blend *want = &blend[i];
        gl_blend *have = &c->blend[i];
        if (c->blend_known && blend_equal(want, have)) {
            continue;
        }
        bool indexed = rt->indexed_blend;
        bool unknown = !c->blend_known;
        if (unknown || want->enable != have->enable) {
            if (indexed) {
                if (want->enable) {
                    GLP(rt, rt->st.enablei(GL_BLEND, (GLuint)i));
                } else {
                    GLP(rt, rt->st.disablei(GL_BLEND, (GLuint)i));
                }
            } else if (want->enable) {
                GLC(rt, Enable(GL_BLEND));
            } else {
                GLC(rt, Disable(GL_BLEND));
            }
        }
        if (want->enable &&
            (unknown || want->src != have->src || want->dst != have->dst ||
             want->src_alpha != have->src_alpha || want->dst_alpha != have->dst_alpha)) {
            if (indexed) {
                GLP(rt, rt->st.blend_funci((GLuint)i, want->src, want->dst, want->src_alpha,
                                       want->dst_alpha));
            } else {
                GLC(rt, BlendFuncSeparate(want->src, want->dst, want->src_alpha,
                                              want->dst_alpha));
            }
        }
        if (want->enable &&
            (unknown || want->op != have->op || want->op_alpha != have->op_alpha)) {
            if (indexed) {
                GLP(rt, rt->st.blend_equationi((GLuint)i, want->op, want->op_alpha));
            } else {
                GLC(rt, BlendEquationSeparate(want->op, want->op_alpha));
            }
        }
        if (unknown || want->mask != have->mask) {
            mask_call(rt, i, want->mask, indexed);
        }
        if (want->enable) {
            *have = *want;
        } else {
            // Factors stay whatever they were; only enable and mask changed.
            have->enable = false;
            have->mask = want->mask;
        }
    }
    if (rt->calls != calls0) {
        gl_state_touch(&rt->st, GL_STATE_BLEND);
    }
    c->blend_known = true;
}

static void set_stencil(fxgl_runtime *rt, const gl_stencil *s) {
    gl_cache *c = &rt->cache;
    gl_stencil *h = &c->stencil;
    bool unknown = !c->stencil_known;
    if (unknown || s->enable != h->enable) {
        if (s->enable) {
            GLC(rt, Enable(GL_STENCIL_TEST));
        } else {
            GLC(rt, Disable(GL_STENCIL_TEST));
        }
        h->enable = s->enable;
    }
    if (!s->enable && !unknown) {
        // Only the write mask matters without the test (clears use it).
        if (s->write_mask != h->write_mask) {
            GLC(rt, StencilMask(s->write_mask));
            h->write_mask = s->write_mask;
        }
        return;
    }
    if (unknown || s->func != h->func || s->ref != h->ref || s->read_mask != h->read_mask) {
        GLC(rt, StencilFunc(s->func, s->ref, s->read_mask));
    }
    if (unknown || s->fail != h->fail || s->zfail != h->zfail || s->pass != h->pass) {
        GLC(rt, StencilOp(s->fail, s->zfail, s->pass));
    }
    if (unknown || s->write_mask != h->write_mask) {
        GLC(rt, StencilMask(s->write_mask));
    }
    *h = *s;
    c->stencil_known = true;
}

void gl_cache_stencil(fxgl_runtime *rt, const gl_stencil *s) {
    uint32_t calls0 = rt->calls;
    set_stencil(rt, s);
    if (rt->calls != calls0) {
        gl_state_touch(&rt->st, GL_STATE_STENCIL);
    }
}

void gl_cache_plain(fxgl_runtime *rt) {
    gl_blend open[FXGL_MAX_RENDER_TARGETS];
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        open[i] = (gl_blend){.enable = false, .mask = 0xF};
    }
    static const gl_stencil off = {
        .enable = false, .func = GL_ALWAYS, .read_mask = 0xFFFFFFFFu,
        .write_mask = 0xFFFFFFFFu, .fail = GL_KEEP, .zfail = GL_KEEP, .pass = GL_KEEP,
    };
    gl_cache_blend(rt, open, 1);
    gl_cache_stencil(rt, &off);
}

void gl_cache_srgb(fxgl_runtime *rt, bool on) {
    if (!rt->srgb_control || rt->cache.srgb == (int)on) {
        return;
    }
    if (on) {
        GLC(rt, Enable(GL_FRAMEBUFFER_SRGB));
    } else {
        GLC(rt, Disable(GL_FRAMEBUFFER_SRGB));
    }
    gl_state_touch(&rt->st, GL_STATE_SRGB);
    rt->cache.srgb = on;
}
