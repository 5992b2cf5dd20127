/*
 * frame.c - one frame of the runtime, in the order below.
 *
 *   capture app state -> defaults -> (resize, load pending effects) ->
 *   special uniforms + dirty uniform ranges -> DEPTH copy -> copy in ->
 *   techniques in order, passes by index -> copy out -> restore
 *
 * The copy in is one blit into two draw buffers, the back-buffer copy and
 * COLOR, so the first technique's COLOR refresh has nothing left to do; a
 * frame in which no technique runs copies nothing. When the frame's last pass
 * is its only back-buffer pass (find_direct), that pass draws straight into
 * the program's framebuffer, upside down through the clip origin, and there
 * is no copy out: one copy in, the passes, nothing else.
 *
 * Effect textures are top-down (D3D order) and every generated vertex
 * shader negates gl_Position.y, so the only flips are the two blits at the
 * back buffer (and the DEPTH copy).
 *
 * COLOR refresh rule: COLOR is a copy of the back-buffer texture, refreshed
 * before the first pass of every technique and before any pass that follows
 * a pass that wrote the back buffer. A refresh is skipped when the back
 * buffer has not changed since the last one: COLOR then already holds the
 * same pixels, so the result is the reference's.
 *
 * Barriers: image stores are the only incoherent writes an effect makes.
 * Each texture records the epoch of its last image store; each barrier bit
 * records the epoch it last covered. A pass issues exactly the bits its
 * inputs need (sampling: TEXTURE_FETCH, image access: SHADER_IMAGE_ACCESS,
 * render target: FRAMEBUFFER), and nothing when no image store is pending.
 */
#include <stdio.h>
#include <string.h>

#include "gl_exact.h"
#include "gl_runtime.h"

// --- barriers ---

static void barrier_for(fxgl_runtime *rt, GLbitfield bits) {
    if (!bits) {
        return;
    }
    GLC(rt, MemoryBarrier(bits));
    rt->stats.barriers++;
    if (bits & GL_TEXTURE_FETCH_BARRIER_BIT) {
        rt->fetch_epoch = rt->epoch;
    }
    if (bits & GL_SHADER_IMAGE_ACCESS_BARRIER_BIT) {
        rt->image_epoch = rt->epoch;
    }
    if (bits & GL_FRAMEBUFFER_BARRIER_BIT) {
        rt->fb_epoch = rt->epoch;
    }
}

// --- mipmaps ---

static const char mip_source_gl[] =
    "#version 430\n"
    "layout(local_size_x = 8, local_size_y = 8) in;\n";
static const char mip_source_es[] =
    "#version 310 es\n"
    "precision highp float;\n"
    "precision highp image2D;\n"
    "layout(local_size_x = 8, local_size_y = 8) in;\n";
// The declarations of the shared box filter (fxgl_backend.h).
static const char mip_source_decls[] =
    "uniform highp sampler2D src;\n"
    "uniform int lod;\n";

GLuint gl_mip_program(fxgl_runtime *rt, const char *format, bool create) {
    for (int i = 0; i < rt->mip_program_count; i++) {
        if (strcmp(rt->mip_programs[i].format, format) == 0) {
            return rt->mip_programs[i].program;
        }
    }
    if (!create || rt->mip_program_count == (int)(sizeof(rt->mip_programs) /
                                                  sizeof(rt->mip_programs[0]))) {
        return 0;
    }
    char src[1400];
    snprintf(src, sizeof(src),
             "%slayout(binding = 0, %s) writeonly uniform highp image2D dst;\n%s%s",
             rt->info.api == FXGL_API_GLES ? mip_source_es : mip_source_gl, format,
             mip_source_decls, fxgl_mip_filter_main);
    const char *sources[1] = {src};
    GLenum stages[1] = {GL_COMPUTE_SHADER};
    char reason[300];
    GLuint prog = gl_compile_program(rt, sources, stages, 1, reason, sizeof(reason));
    if (!prog) {
        gl_log(rt, FXGL_GL_LOG_WARN, "mipmap program for %s: %s; using glGenerateMipmap", format,
               reason);
    }
    GLint lod = -1;
    if (prog) {
        gl_label(rt, GL_PROGRAM, prog, "fxgl mipmaps");
        lod = GLC(rt, GetUniformLocation(prog, "lod"));
    }
    rt->mip_programs[rt->mip_program_count].format = format;
    rt->mip_programs[rt->mip_program_count].lod = lod;
    rt->mip_programs[rt->mip_program_count++].program = prog;
    return prog;
}

void gl_generate_mips(fxgl_runtime *rt, gl_tex *t) {
    rt->stats.mip_generations++;
    GLuint prog = 0;
    GLint lod = -1;
    for (int i = 0; t->mip_program_key && i < rt->mip_program_count; i++) {
        if (strcmp(rt->mip_programs[i].format, t->mip_program_key) == 0) {
            prog = rt->mip_programs[i].program;
            lod = rt->mip_programs[i].lod;
        }
    }
    if (!prog) {
        if (t->written_at > rt->fb_epoch) {
            // An image store (a compute pass) before the driver's own mip pass.
            barrier_for(rt, GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                                GL_TEXTURE_UPDATE_BARRIER_BIT);
        }
        gl_cache_texture(rt, 0, t->target, t->tex);
        if (rt->has_dsa) {
            GLC(rt, GenerateTextureMipmap(t->tex));
        } else {
            if (rt->cache.active != 0) {
                GLC(rt, ActiveTexture(GL_TEXTURE0));
                gl_state_touch(&rt->st, GL_STATE_ACTIVE_TEXTURE);
                rt->cache.active = 0;
            }
            GLC(rt, GenerateMipmap(t->target));
        }
        return;
    }
    if (t->written_at > rt->fetch_epoch) {
        barrier_for(rt, GL_TEXTURE_FETCH_BARRIER_BIT);
    }
    gl_cache_program(rt, prog);
    gl_cache_texture(rt, 0, GL_TEXTURE_2D, t->tex);
    gl_cache_sampler(rt, 0, rt->mip_sampler);
    for (int l = 1; l < t->levels; l++) {
        int w = t->width >> l, h = t->height >> l;
        w = w < 1 ? 1 : w;
        h = h < 1 ? 1 : h;
        // `src` is unit 0 (a sampler uniform's initial value).
        GLC(rt, Uniform1i(lod, l - 1));
        gl_cache_image(rt, 0, t, l);
        GLC(rt, DispatchCompute((GLuint)(w + 7) / 8, (GLuint)(h + 7) / 8, 1));
        rt->stats.dispatches++;
        t->written_at = ++rt->epoch;
        if (l + 1 < t->levels) {
            barrier_for(rt, GL_TEXTURE_FETCH_BARRIER_BIT);
        }
    }
}

// --- helpers ---

static void set_draw_back(fxgl_runtime *rt);

static GLuint semantic_texture(fxgl_runtime *rt, int slot, bool srgb) {
    if (slot == GL_SLOT_COLOR) {
        return srgb ? rt->color_srgb : rt->color_tex;
    }
    if (slot < 0) {
        return rt->empty_tex;
    }
    if (rt->semantics[slot].texture) {
        return rt->semantics[slot].texture;
    }
    if (slot == GL_SLOT_DEPTH && gl_depth_texture(rt)) {
        return gl_depth_texture(rt); // the program's own depth attachment (fbo_depth.c)
    }
    if (slot == GL_SLOT_DEPTH && rt->depth_ready) {
        return rt->depth_tex;
    }
    return rt->empty_tex;
}

static void blit(fxgl_runtime *rt, GLuint read, GLuint draw, bool flip, GLbitfield mask) {
    gl_cache_read_fbo(rt, read);
    gl_cache_draw_fbo(rt, draw);
    int w = rt->width, h = rt->height;
    GLC(rt, BlitFramebuffer(0, 0, w, h, 0, flip ? h : 0, w, flip ? 0 : h, mask, GL_NEAREST));
    rt->stats.copies++;
}

// The back-buffer copy after a compute pass stored into it: blits, copies
// and draws see the stores only after a barrier (once per store).
static void sync_bb(fxgl_runtime *rt) {
    if (rt->bb_image.written_at > rt->fb_epoch) {
        barrier_for(rt, GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    }
}

static void refresh_color(fxgl_runtime *rt) {
    if (!rt->bb_dirty) {
        return;
    }
    sync_bb(rt);
    if (rt->has_copy_image) {
        GLP(rt, rt->copy_image(rt->bb_tex, GL_TEXTURE_2D, 0, 0, 0, 0, rt->color_tex,
                               GL_TEXTURE_2D, 0, 0, 0, 0, rt->width, rt->height, 1));
        rt->stats.copies++;
    } else {
        blit(rt, rt->bb_fbos[GL_BB_UNORM], rt->color_fbo, false, GL_COLOR_BUFFER_BIT);
    }
    rt->bb_dirty = false;
}

static void upload_range(fxgl_runtime *rt, gl_loaded_effect *e, uint32_t lo, uint32_t hi) {
    if (rt->has_dsa) {
        GLC(rt, NamedBufferSubData(e->ubo, lo, hi - lo, e->shadow + lo));
    } else {
        GLC(rt, BindBuffer(GL_UNIFORM_BUFFER, e->ubo));
        gl_state_touch(&rt->st, GL_STATE_BUFFERS);
        GLC(rt, BufferSubData(GL_UNIFORM_BUFFER, lo, hi - lo, e->shadow + lo));
    }
    rt->stats.uniform_uploads++;
    rt->stats.uniform_bytes += hi - lo;
}

static void upload_uniforms(fxgl_runtime *rt, gl_loaded_effect *e) {
    if (!e->ubo) {
        return;
    }
    bool user = e->dirty_lo < e->dirty_hi, frame = e->frame_lo < e->frame_hi;
    if (user && frame && e->dirty_lo <= e->frame_hi && e->frame_lo <= e->dirty_hi) {
        // Overlapping ranges: one upload of their union.
        uint32_t lo = e->dirty_lo < e->frame_lo ? e->dirty_lo : e->frame_lo;
        uint32_t hi = e->dirty_hi > e->frame_hi ? e->dirty_hi : e->frame_hi;
        upload_range(rt, e, lo, hi);
    } else {
        if (user) {
            upload_range(rt, e, e->dirty_lo, e->dirty_hi);
        }
        if (frame) {
            upload_range(rt, e, e->frame_lo, e->frame_hi);
        }
    }
    e->dirty_lo = e->frame_lo = e->size;
    e->dirty_hi = e->frame_hi = 0;
}

static void push_group(fxgl_runtime *rt, const char *label) {
    if (rt->push_group) {
        GLP(rt, rt->push_group(GL_DEBUG_SOURCE_APPLICATION, 0, -1, label));
    }
}

static void pop_group(fxgl_runtime *rt) {
    if (rt->pop_group) {
        GLP(rt, rt->pop_group());
    }
}

// --- passes ---

static const GLfloat zero_f[4] = {0, 0, 0, 0};
static const GLint zero_i[4] = {0, 0, 0, 0};
static const GLuint zero_u[4] = {0, 0, 0, 0};

static void bind_textures(fxgl_runtime *rt, const gl_pass *p, GLbitfield *bits) {
    for (int i = 0; i < p->bind_count; i++) {
        const gl_bind *b = &p->binds[i];
        GLuint name;
        if (b->kind == GL_BIND_TEXTURE) {
            name = b->srgb ? b->tex->srgb : b->tex->tex;
            if (b->tex->written_at > rt->fetch_epoch) {
                *bits |= GL_TEXTURE_FETCH_BARRIER_BIT;
            }
        } else {
            name = semantic_texture(rt, b->slot, b->srgb);
        }
        gl_cache_texture(rt, b->unit, b->target, name);
        gl_cache_sampler(rt, b->unit, b->sampler);
    }
}

static void run_compute(fxgl_runtime *rt, gl_loaded_effect *e, const gl_pass *p) {
    GLbitfield bits = 0;
    for (int i = 0; i < p->bind_count; i++) {
        const gl_bind *b = &p->binds[i];
        if (b->kind == GL_BIND_TEXTURE && b->tex->written_at > rt->fetch_epoch) {
            bits |= GL_TEXTURE_FETCH_BARRIER_BIT;
        }
    }
    for (int i = 0; i < p->image_count; i++) {
        if (p->images[i].tex->written_at > rt->image_epoch) {
            bits |= GL_SHADER_IMAGE_ACCESS_BARRIER_BIT;
        }
    }
    barrier_for(rt, bits);
    gl_cache_program(rt, p->program);
    GLbitfield unused = 0;
    bind_textures(rt, p, &unused);
    for (int i = 0; i < p->image_count; i++) {
        gl_cache_image(rt, p->images[i].unit, p->images[i].tex, p->images[i].level);
    }
    if (e->ubo) {
        gl_cache_ubo(rt, e->ubo);
    }
    if (rt->warming) {
        GLC(rt, DispatchCompute(1, 1, 1));
    } else {
        GLC(rt, DispatchCompute(p->groups[0], p->groups[1], p->groups[2]));
    }
    rt->stats.dispatches++;
    rt->epoch++;
    for (int i = 0; i < p->image_count; i++) {
        p->images[i].tex->written_at = rt->epoch;
    }
    if (p->generate_mips) {
        for (int i = 0; i < p->image_count; i++) {
            gl_tex *t = p->images[i].tex;
            if (t->levels > 1 && p->images[i].level == 0 && !t->fmt->integer) {
                gl_generate_mips(rt, t);
            }
        }
    }
}

// A pixel pass as a compute dispatch (compute.c): the same program inputs,
// one invocation per pixel of the viewport, target 0 stored as an image.
static void run_pixel_compute(fxgl_runtime *rt, gl_loaded_effect *e, gl_pass *p) {
    gl_tex *t = p->cs_target ? p->cs_target : &rt->bb_image;
    int w = p->cs_target ? p->width : rt->width, h = p->cs_target ? p->height : rt->height;
    GLbitfield bits = 0;
    bind_textures(rt, p, &bits);
    if (t->written_at > rt->image_epoch) {
        bits |= GL_SHADER_IMAGE_ACCESS_BARRIER_BIT; // stores after stores, in order
    }
    barrier_for(rt, bits);
    gl_cache_program(rt, p->cs_program);
    if (p->cs_view_loc >= 0 && (p->cs_view_set[0] != w || p->cs_view_set[1] != h)) {
        // The viewport size (the invocations past it store nothing) and the
        // exact texcoords' gradients, written when it changes.
        float gx, gy;
        gl_exact_gradient(w, h, &gx, &gy);
        GLC(rt, Uniform4f(p->cs_view_loc, (float)w, (float)h, gx, gy));
        p->cs_view_set[0] = w;
        p->cs_view_set[1] = h;
    }
    gl_cache_image(rt, 0, t, 0);
    if (e->ubo) {
        gl_cache_ubo(rt, e->ubo);
    }
    GLC(rt, DispatchCompute((GLuint)(w + 7) / 8, (GLuint)(h + 7) / 8, 1));
    rt->stats.dispatches++;
    rt->stats.compute_passes++;
    t->written_at = ++rt->epoch;
    if (!p->cs_target) {
        rt->bb_dirty = true;
    } else if (p->generate_mips && t->levels > 1 && !t->fmt->integer) {
        gl_generate_mips(rt, t);
    }
}

// Prewarming (prewarm.c): the compute form compiled by the driver too, one
// group that stores nothing (a viewport of 0 x 0).
static void warm_pixel_compute(fxgl_runtime *rt, gl_loaded_effect *e, gl_pass *p) {
    GLbitfield unused = 0;
    bind_textures(rt, p, &unused);
    gl_cache_program(rt, p->cs_program);
    if (p->cs_view_loc >= 0) {
        GLC(rt, Uniform4f(p->cs_view_loc, 0.0f, 0.0f, 0.0f, 0.0f));
        p->cs_view_set[0] = p->cs_view_set[1] = 0;
    }
    gl_cache_image(rt, 0, p->cs_target ? p->cs_target : &rt->bb_image, 0);
    if (e->ubo) {
        gl_cache_ubo(rt, e->ubo);
    }
    GLC(rt, DispatchCompute(1, 1, 1));
    rt->stats.dispatches++;
}

static void run_graphics(fxgl_runtime *rt, gl_loaded_effect *e, const gl_pass *p,
                         bool *first_stencil) {
    GLbitfield bits = 0;
    int w = p->width, h = p->height;
    GLuint fbo = p->fbo;
    bool stencil = p->stencil.enable;
    bool direct = p == rt->direct;
    if (direct) {
        w = rt->width;
        h = rt->height;
        fbo = rt->frame->framebuffer;
    } else if (p->to_backbuffer) {
        w = rt->width;
        h = rt->height;
        fbo = rt->bb_fbos[p->bb_fbo + (stencil ? GL_BB_UNORM_STENCIL : 0)];
        sync_bb(rt);
    } else {
        stencil = stencil && p->stencil_attached;
        for (int i = 0; i < p->target_count; i++) {
            if (p->targets[i]->written_at > rt->fb_epoch) {
                bits |= GL_FRAMEBUFFER_BARRIER_BIT;
            }
        }
    }
    gl_cache_draw_fbo(rt, fbo);
    if (direct) {
        if (fbo == 0) {
            set_draw_back(rt);
        }
        // Effect textures are top-down and every vertex stage flips y for
        // them: with the clip origin at the upper left the same draw comes
        // out the right way up in the program's bottom-up framebuffer.
        GLP(rt, rt->st.clip_control(GL_UPPER_LEFT, GL_NEGATIVE_ONE_TO_ONE));
    }
    gl_cache_viewport(rt, w, h);
    gl_cache_srgb(rt, p->srgb_write);
    if (p->clear) {
        // Clears obey the colour masks, the reference's clears do not.
        gl_blend open[FXGL_MAX_RENDER_TARGETS];
        memcpy(open, p->blend, sizeof(open));
        for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
            open[i].mask = 0xF;
        }
        gl_cache_blend(rt, open, p->blend_count);
        int n = p->to_backbuffer ? 1 : p->target_count;
        for (int i = 0; i < n; i++) {
            const gl_format *f = p->to_backbuffer ? NULL : p->targets[i]->fmt;
            if (f && f->integer && f->type == GL_INT) {
                GLC(rt, ClearBufferiv(GL_COLOR, i, zero_i));
            } else if (f && f->integer) {
                GLC(rt, ClearBufferuiv(GL_COLOR, i, zero_u));
            } else {
                GLC(rt, ClearBufferfv(GL_COLOR, i, zero_f));
            }
        }
    }
    gl_cache_blend(rt, p->blend, p->blend_count);
    if (stencil) {
        if (*first_stencil) {
            // The first stencil pass of a technique starts from zero.
            gl_stencil open = p->stencil;
            open.write_mask = 0xFFFFFFFFu;
            gl_cache_stencil(rt, &open);
            GLC(rt, ClearBufferiv(GL_STENCIL, 0, zero_i));
            *first_stencil = false;
        }
        gl_cache_stencil(rt, &p->stencil);
    } else {
        static const gl_stencil off = {
            .enable = false, .func = GL_ALWAYS, .read_mask = 0xFFFFFFFFu,
            .write_mask = 0xFFFFFFFFu, .fail = GL_KEEP, .zfail = GL_KEEP, .pass = GL_KEEP,
        };
        if (!rt->cache.stencil_known || rt->cache.stencil.enable) {
            gl_cache_stencil(rt, &off);
        }
    }
    gl_cache_program(rt, p->program);
    if (direct && p->flip_loc >= 0) {
        // SV_Position.y counts rows from the top, as in the back-buffer copy.
        GLC(rt, Uniform2f(p->flip_loc, 1.0f, (float)h));
    }
    if (p->view_loc >= 0 && (p->view_set[0] != w || p->view_set[1] != h ||
                             (p->group_shared && gl_share_crowded(rt->share)))) {
        // Exact varyings are the pixel position times the rasteriser's
        // gradient (gl_exact_gradient): written when the size changes (a
        // back-buffer pass after a resize),
        // not per frame. Passes sharing the program have the same size
        // (shared_program); a program that another context of the share group
        // also runs may hold that context's size, so it is written per frame
        // while the group has more than one runtime.
        float gx, gy;
        gl_exact_gradient(w, h, &gx, &gy);
        GLC(rt, Uniform4f(p->view_loc, (float)w, (float)h, gx, gy));
        gl_pass *mut = (gl_pass *)p;
        mut->view_set[0] = w;
        mut->view_set[1] = h;
    }
    bind_textures(rt, p, &bits);
    barrier_for(rt, bits);
    if (e->ubo) {
        gl_cache_ubo(rt, e->ubo);
    }
    GLC(rt, DrawArrays(p->mode, 0, p->vertex_count));
    rt->stats.draw_calls++;
    if (direct) {
        if (p->flip_loc >= 0) {
            GLC(rt, Uniform2f(p->flip_loc, 0.0f, 0.0f));
        }
        GLP(rt, rt->st.clip_control(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE));
    } else if (p->to_backbuffer) {
        rt->bb_dirty = true;
    } else if (p->generate_mips) {
        for (int i = 0; i < p->target_count; i++) {
            gl_tex *t = p->targets[i];
            if (t->levels > 1 && !t->fmt->integer) {
                gl_generate_mips(rt, t);
            }
        }
    }
}

static void run_technique(fxgl_runtime *rt, gl_technique *t) {
    gl_loaded_effect *e = t->effect;
    size_t n = t->src->pass_count;
    double t0 = gl_now();
    push_group(rt, t->src->name);
    GLuint *q = t->queries ? t->queries + (rt->frame_count % GL_RT_QUERY_RING) * (n + 1) : NULL;
    bool needs_copy = true;
    bool first_stencil = true;
    size_t slot = rt->frame_count % GL_RT_QUERY_RING;
    for (size_t i = 0; i < n; i++) {
        gl_pass *p = &t->passes[i];
        push_group(rt, p->label);
        bool as_compute = !p->compute && gl_cs_choose(rt, p, slot);
        p->cs_ran = as_compute;
        // A software renderer's trial: the CPU clock between two glFinish
        // (its timestamps do not see the rasteriser; compute.c). Only in the
        // pass's first frames, while it is measured.
        bool finish = p->cs_slot[slot] && rt->cs_clock == GL_CS_CLOCK_FINISH;
        if (finish) {
            GLC(rt, Finish());
            p->cs_t0 = gl_now();
        }
        if (q) {
            GLP(rt, rt->query_counter(q[i], GL_TIMESTAMP));
        }
        if (needs_copy) {
            refresh_color(rt);
            needs_copy = false;
        }
        if (p->compute) {
            run_compute(rt, e, p);
        } else if (as_compute) {
            run_pixel_compute(rt, e, p);
            needs_copy = p->to_backbuffer;
        } else {
            run_graphics(rt, e, p, &first_stencil);
            needs_copy = p->to_backbuffer;
            if (rt->warming && p->cs_program) {
                warm_pixel_compute(rt, e, p);
            }
        }
        if (finish) {
            GLC(rt, Finish());
            gl_cs_sample(rt, p, slot, (gl_now() - p->cs_t0) * 1e3);
        }
        pop_group(rt);
        rt->stats.passes_run++;
    }
    if (q) {
        GLP(rt, rt->query_counter(q[n], GL_TIMESTAMP));
        t->query_pending[rt->frame_count % GL_RT_QUERY_RING] = true;
    }
    pop_group(rt);
    gl_avg_add(&t->cpu, (gl_now() - t0) * 1000.0);
    t->frames_run++;
    rt->stats.techniques_run++;
    if (t->time_left_ms > 0) {
        t->time_left_ms -= rt->frame_ms;
        if (t->time_left_ms <= 0) {
            t->enabled = false;
        }
    }
}

// Reads the timestamps of the ring slot this frame is about to reuse, if
// the GPU is done with them; a slot still in flight is dropped, never
// waited for.
static void read_slot(fxgl_runtime *rt, size_t slot) {
    for (size_t i = 0; i < rt->order_count; i++) {
        gl_technique *t = rt->order[i];
        if (!t->queries || !t->query_pending[slot]) {
            continue;
        }
        t->query_pending[slot] = false;
        size_t n = t->src->pass_count;
        GLuint *q = t->queries + slot * (n + 1);
        GLuint available = 0;
        GLP(rt, rt->query_uiv(q[n], GL_QUERY_RESULT_AVAILABLE, &available));
        if (!available) {
            continue;
        }
        GLuint64 prev = 0, first = 0;
        for (size_t k = 0; k <= n; k++) {
            GLuint64 ts = 0;
            GLP(rt, rt->query_u64(q[k], GL_QUERY_RESULT, &ts));
            if (k == 0) {
                first = ts;
            } else {
                double ms = (double)(ts - prev) * 1e-6;
                gl_avg_add(&t->pass_gpu[k - 1], ms);
                // A trial run of this slot's frame, if any (compute.c).
                gl_cs_sample(rt, &t->passes[k - 1], slot, ms);
            }
            prev = ts;
        }
        gl_avg_add(&t->gpu, (double)(prev - first) * 1e-6);
    }
}

static void read_timings(fxgl_runtime *rt) {
    read_slot(rt, rt->frame_count % GL_RT_QUERY_RING);
}

void fxgl_runtime_collect_timings(fxgl_runtime *rt) {
    // Oldest slot first, so the averages see the frames in order.
    for (size_t i = 0; i < GL_RT_QUERY_RING; i++) {
        read_slot(rt, (rt->frame_count + i) % GL_RT_QUERY_RING);
    }
}

// Framebuffer 0 (bound for drawing) draws into its back buffer.
static void set_draw_back(fxgl_runtime *rt) {
    gl_state_touch(&rt->st, GL_STATE_FRAMEBUFFERS);
    if (rt->info.api == FXGL_API_GL) {
        GLC(rt, DrawBuffer(GL_BACK)); // desktop glDrawBuffers rejects GL_BACK
    } else {
        GLenum back = GL_BACK;
        GLC(rt, DrawBuffers(1, &back));
    }
}

// The pass that can draw straight into the program's framebuffer, sparing
// the copy out: the last pass of the frame and its only back-buffer pass
// (the program's framebuffer then still holds what the back-buffer copy
// would, so blending and partial coverage come out the same), single-
// sampled, no sRGB write, stencil or clear, and flip_safe (SV_Position is
// turned the right way up through the pass's _fxgl_flip uniform).
static const gl_pass *find_direct(fxgl_runtime *rt, const fxgl_frame_desc *f) {
    if (!rt->st.clip_control || rt->source_samples > 0 || rt->desc.no_direct_pass) {
        return NULL;
    }
    const gl_pass *last = NULL;
    int bb_passes = 0;
    for (size_t i = 0; i < rt->order_count; i++) {
        const gl_technique *t = rt->order[i];
        if (!t->enabled || t->status != FXGL_STATUS_READY ||
            (f->screenshot && !t->src->enabled_in_screenshot)) {
            continue;
        }
        for (size_t k = 0; k < t->src->pass_count; k++) {
            last = &t->passes[k];
            bb_passes += !last->compute && last->to_backbuffer;
        }
    }
    if (!last || bb_passes != 1 || last->compute || !last->to_backbuffer || !last->flip_safe ||
        last->srgb_write || last->stencil.enable || last->clear) {
        return NULL;
    }
    // Fullscreen varyings left to the rasteriser are exact where the image's
    // top row is the first in memory, as in the effect's own textures and a
    // window (stored top-down); drawn upside down into a bottom-up FBO they are
    // not. A back-buffer pass is left to it only when it was loaded with a
    // window (exact.c); one whose program then presents into an FBO keeps
    // the copy out.
    if (f->framebuffer != 0 && gl_exact_rasterised(last)) {
        return NULL;
    }
    return last;
}

static void copy_in(fxgl_runtime *rt, const fxgl_frame_desc *f) {
    GLuint src = f->framebuffer;
    gl_cache_srgb(rt, false);
    if (src == 0) {
        // Framebuffer 0 is addressed explicitly; its read buffer is captured.
        gl_cache_read_fbo(rt, 0);
        GLC(rt, ReadBuffer(GL_BACK));
        gl_state_touch(&rt->st, GL_STATE_FRAMEBUFFERS);
    }
    if (rt->source_samples > 0) {
        // Resolve first: a resolving blit must not flip.
        blit(rt, src, rt->resolve_fbo, false, GL_COLOR_BUFFER_BIT);
        src = rt->resolve_fbo;
    }
    // Into the back-buffer copy and COLOR at once: COLOR is current. With a
    // direct pass nothing draws into the back-buffer copy: COLOR alone.
    sync_bb(rt); // last frame's stores, if no copy out came after them
    blit(rt, src, rt->direct ? rt->color_fbo : rt->in_fbo, true, GL_COLOR_BUFFER_BIT);
    rt->bb_dirty = false;
}

static void copy_out(fxgl_runtime *rt, const fxgl_frame_desc *f) {
    GLuint dst = f->framebuffer;
    sync_bb(rt);
    gl_cache_srgb(rt, false);
    if (dst == 0) {
        gl_cache_draw_fbo(rt, 0);
        set_draw_back(rt);
    }
    if (rt->source_samples > 0 && rt->info.api == FXGL_API_GLES) {
        // GLES forbids blits into a multisampled framebuffer: draw instead.
        gl_cache_draw_fbo(rt, dst);
        gl_cache_viewport(rt, rt->width, rt->height);
        gl_cache_plain(rt);
        gl_cache_program(rt, rt->copy_program);
        gl_cache_texture(rt, 0, GL_TEXTURE_2D, rt->bb_tex);
        gl_cache_sampler(rt, 0, rt->mip_sampler);
        GLC(rt, DrawArrays(GL_TRIANGLES, 0, 3));
        rt->stats.copies++;
    } else if (rt->source_samples > 0) {
        blit(rt, rt->bb_fbos[GL_BB_UNORM], rt->resolve_fbo, true, GL_COLOR_BUFFER_BIT);
        blit(rt, rt->resolve_fbo, dst, false, GL_COLOR_BUFFER_BIT);
    } else {
        blit(rt, rt->bb_fbos[GL_BB_UNORM], dst, true, GL_COLOR_BUFFER_BIT);
    }
}

static void copy_depth(fxgl_runtime *rt, const fxgl_frame_desc *f) {
    bool wanted = false;
    for (size_t i = 0; i < rt->effect_count && !wanted; i++) {
        wanted = rt->effects[i]->loaded && rt->effects[i]->uses_depth;
    }
    rt->depth_ready = rt->semantics[GL_SLOT_DEPTH].texture != 0;
    if (gl_depth_fbo_active(rt)) {
        // The host chose a framebuffer object's depth: copied by fbo_depth.c, at the
        // end of the program's frame or before it cleared it.
        rt->depth_ready = gl_depth_texture(rt) != 0;
        return;
    }
    if (!wanted || rt->depth_ready || !rt->depth_format) {
        return;
    }
    bool stencil = rt->depth_format == GL_DEPTH24_STENCIL8 ||
                   rt->depth_format == GL_DEPTH32F_STENCIL8;
    blit(rt, f->framebuffer, rt->depth_fbo, true,
         GL_DEPTH_BUFFER_BIT | (stencil ? GL_STENCIL_BUFFER_BIT : 0));
    rt->depth_ready = true;
}

bool fxgl_runtime_frame(fxgl_runtime *rt, const fxgl_frame_desc *f) {
    if (!rt || !f || f->width <= 0 || f->height <= 0) {
        return false;
    }
    double t0 = gl_now();
    uint32_t calls0 = rt->calls, state0 = rt->st.calls;
    memset(&rt->stats, 0, sizeof(rt->stats));
    rt->frame = f;
    gl_adopt(rt);
    gl_state_capture(&rt->st);
    gl_state_set_runtime_defaults(&rt->st);
    if (rt->warming) {
        // Every draw compiles its program's variant but covers no pixel; the
        // state restore at the end puts the scissor back.
        GLC(rt, Enable(GL_SCISSOR_TEST));
        GLC(rt, Scissor(0, 0, 0, 0));
        gl_state_touch(&rt->st, GL_STATE_VIEWPORT);
    }
    gl_cache_reset(rt, false); // loading and resizing go through the cache too
    bool reset = false;
    if (f->width != rt->width || f->height != rt->height || f->framebuffer != rt->source_fbo ||
        !rt->bb_tex) {
        gl_resize(rt, f);
        reset = true;
    }
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect *e = rt->effects[i];
        if (e->status == FXGL_STATUS_PENDING) {
            gl_loaded_effect_load(rt, e);
            rt->stats.effects_loaded++;
            reset = true;
        }
    }
    if (reset && gl_native_copy_stale(rt)) {
        gl_resize(rt, f); // an effect reading COLOR as sRGB needs the RGBA8 copy's views
    }
    if (reset) {
        // Loading bound whatever it needed: put the frame's starting state
        // back, and let the restore write everything.
        gl_state_touch_all(&rt->st);
        GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, 0));
        GLC(rt, BindTexture(GL_TEXTURE_2D, 0));
        GLC(rt, UseProgram(0));
    }
    gl_cache_reset(rt, !reset);
    gl_cache_vao(rt, rt->vao);
    read_timings(rt);
    rt->frame_ms = rt->frame_count ? (f->time - rt->last_time) * 1000.0 : 0.0;
    if (rt->frame_count == 0) {
        rt->start_time = f->time;
    }
    rt->last_time = f->time;
    // A frame that runs no technique leaves the back buffer alone: no copies.
    size_t runs = 0;
    for (size_t i = 0; i < rt->order_count; i++) {
        const gl_technique *t = rt->order[i];
        runs += t->enabled && t->status == FXGL_STATUS_READY &&
                (!f->screenshot || t->src->enabled_in_screenshot);
    }
    rt->direct = runs ? find_direct(rt, f) : NULL;
    if (runs) {
        copy_depth(rt, f);
    }
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect *e = rt->effects[i];
        if (!e->loaded) {
            continue;
        }
        gl_variants_frame(rt, e, f->time);
        bool active = false;
        for (size_t k = 0; k < e->technique_count && !active; k++) {
            active = e->techniques[k].enabled && e->techniques[k].status == FXGL_STATUS_READY;
        }
        if (active) {
            gl_specials_update(rt, e, f);
            upload_uniforms(rt, e);
        }
    }
    if (runs) {
        copy_in(rt, f);
    }
    uint32_t pass_calls0 = rt->calls;
    for (size_t i = 0; i < rt->order_count; i++) {
        gl_technique *t = rt->order[i];
        if (!t->enabled || t->status != FXGL_STATUS_READY) {
            continue;
        }
        if (f->screenshot && !t->src->enabled_in_screenshot) {
            continue;
        }
        run_technique(rt, t);
    }
    rt->stats.pass_calls = rt->calls - pass_calls0;
    if (runs && !rt->direct) {
        copy_out(rt, f);
    }
    rt->direct = NULL;
    // What the frame changed: every change above goes through the cache or is
    // marked where it is made (gl_state_touch), or is put back to the default.
    gl_state_restore_changed(&rt->st);
    rt->frame_count++;
    rt->frame = NULL;
    rt->stats.state_calls = rt->st.calls - state0;
    rt->stats.gl_calls = rt->calls - calls0 + rt->stats.state_calls;
    rt->stats.cpu_ms = (gl_now() - t0) * 1000.0;
    return true;
}

const fxgl_runtime_stats *fxgl_runtime_stats_get(const fxgl_runtime *rt) {
    return &rt->stats;
}
