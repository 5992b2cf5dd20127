/*
 * runtime.c - the runtime object: creation (capabilities decided once),
 * effects recorded from any thread and adopted in the frame thread, the
 * render order, enable flags, uniform values, semantics and the read-only
 * views (status, timings) that a dump or overlay shows.
 *
 * Everything except fxgl_runtime_add_effect belongs to the frame thread.
 * add_effect only appends to an `incoming` list under a mutex; the frame
 * thread adopts the list (CPU-side structures) the next time it touches the
 * runtime, and creates the GL objects at the start of the next frame.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gl_exact.h"
#include "gl_runtime.h"

void gl_log(fxgl_runtime *rt, fxgl_gl_log_level level, const char *fmt, ...) {
    if (!rt->desc.log) {
        return;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    rt->desc.log(rt->desc.log_user, level, buf);
}

double gl_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gl_avg_add(gl_avg *a, double v) {
    if (a->count == FXGL_TIMING_FRAMES) {
        a->sum -= a->samples[a->next];
    } else {
        a->count++;
    }
    a->samples[a->next] = v;
    a->sum += v;
    a->next = (a->next + 1) % FXGL_TIMING_FRAMES;
}

double gl_avg_value(const gl_avg *a) {
    return a->count ? a->sum / a->count : 0.0;
}

// --- creation ---

static bool version_at_least(const fxgl_gl_info *info, fxgl_api api, int major, int minor) {
    return info->api == api && (info->major > major || (info->major == major &&
                                                        info->minor >= minor));
}

static void decide_caps(fxgl_runtime *rt) {
    struct GladGLContext *gl = rt->gl;
    const fxgl_gl_info *info = &rt->info;
    bool es = info->api == FXGL_API_GLES;
    if (version_at_least(info, FXGL_API_GL, 4, 3)) {
        rt->texture_view = gl->TextureView;
    } else if (es && gl->OES_texture_view) {
        rt->texture_view = gl->TextureViewOES;
    } else if (es && gl->EXT_texture_view) {
        rt->texture_view = gl->TextureViewEXT;
    }
    rt->has_views = rt->texture_view != NULL;
    if (version_at_least(info, FXGL_API_GL, 4, 3) || version_at_least(info, FXGL_API_GLES, 3, 2)) {
        rt->copy_image = gl->CopyImageSubData;
    } else if (es && gl->OES_copy_image) {
        rt->copy_image = gl->CopyImageSubDataOES;
    } else if (es && gl->EXT_copy_image) {
        rt->copy_image = gl->CopyImageSubDataEXT;
    }
    rt->has_copy_image = rt->copy_image != NULL;
    rt->has_compute = info->has_compute && gl->DispatchCompute && gl->MemoryBarrier &&
                      gl->BindImageTexture;
    // Pixel passes as compute: the caller's choice, else FXGL_COMPUTE (read
    // once here, never per frame).
    rt->cs_mode = rt->desc.compute_passes;
    if (rt->cs_mode == FXGL_COMPUTE_ENV) {
        rt->cs_mode = gl_cs_mode_parse(getenv("FXGL_COMPUTE"));
    }
    if (!rt->has_compute) {
        rt->cs_mode = FXGL_COMPUTE_OFF;
    }
    if (info->has_timer_query && !rt->desc.no_timer_queries) {
        rt->query_counter = es ? gl->QueryCounterEXT : gl->QueryCounter;
        rt->query_u64 = es ? gl->GetQueryObjectui64vEXT : gl->GetQueryObjectui64v;
        rt->query_uiv = gl->GetQueryObjectuiv;
        rt->has_timer = rt->query_counter && rt->query_u64 && rt->query_uiv;
    }
    if (info->has_debug) {
        bool core = version_at_least(info, FXGL_API_GL, 4, 3) ||
                    version_at_least(info, FXGL_API_GLES, 3, 2);
        rt->object_label = core ? gl->ObjectLabel : gl->ObjectLabelKHR;
        if (!rt->desc.no_debug_groups) {
            rt->push_group = core ? gl->PushDebugGroup : gl->PushDebugGroupKHR;
            rt->pop_group = core ? gl->PopDebugGroup : gl->PopDebugGroupKHR;
            if (!rt->push_group || !rt->pop_group) {
                rt->push_group = NULL;
                rt->pop_group = NULL;
            }
        }
    }
    rt->has_debug = rt->push_group != NULL;
    rt->has_dsa = version_at_least(info, FXGL_API_GL, 4, 5);
    rt->viewport_array = rt->st.caps.viewport_array;
    rt->indexed_blend = rt->st.caps.indexed_blend;
    rt->srgb_control = rt->st.caps.srgb_control;
    rt->norm16 = !es || gl->EXT_texture_norm16;
    rt->emulate_image_formats = es && (!info->has_image_formats || rt->desc.no_image_formats);
    rt->float_render = !es || gl->EXT_color_buffer_float;
    rt->border_clamp = !es || version_at_least(info, FXGL_API_GLES, 3, 2) ||
                       gl->EXT_texture_border_clamp || gl->OES_texture_border_clamp;
    rt->cs_clock = gl_cs_clock_for(info->renderer, rt->has_timer);
    // The back-buffer copy's layout (load.c, native_copy_fits): read once.
    rt->native_copy = gl_native_copy_parse(getenv("FXGL_NATIVE_COPY"));
    const char *raster = getenv("FXGL_EXACT_RASTER");
    rt->raster_off = raster && (strcmp(raster, "0") == 0 || strcmp(raster, "off") == 0);
}

fxgl_runtime *fxgl_runtime_create(struct GladGLContext *gl, const fxgl_gl_info *info,
                                  const fxgl_runtime_desc *desc) {
    fxgl_runtime *rt = calloc(1, sizeof(*rt));
    if (!rt) {
        return NULL;
    }
    rt->gl = gl;
    rt->info = *info;
    if (desc) {
        rt->desc = *desc;
    }
    rt->programs.binary_formats = -1; // asked at the first effect load (progcache.c)
    // The caller's strings need not outlive this call.
    size_t np = rt->desc.texture_search_path_count;
    rt->search_paths = calloc(np + 1, sizeof(char *));
    if (!rt->search_paths) {
        free(rt);
        return NULL;
    }
    for (size_t i = 0; i < np; i++) {
        rt->search_paths[i] = strdup(rt->desc.texture_search_paths[i]);
        if (!rt->search_paths[i]) {
            rt->desc.texture_search_path_count = i;
            break;
        }
    }
    rt->desc.texture_search_paths = (const char *const *)rt->search_paths;
    rt->share = rt->desc.share;
    fxgl_gl_share_ref(rt->share);
    gl_share_runtime_join(rt->share, 1);
    if (!info->meets_minimum) {
        gl_log(rt, FXGL_GL_LOG_ERROR, "%s %d.%d is below the runtime's minimum (GL %d.%d, GLES %d.%d)",
               info->api == FXGL_API_GLES ? "GLES" : "GL", info->major, info->minor,
               FXGL_GL_MIN_MAJOR, FXGL_GL_MIN_MINOR, FXGL_GLES_MIN_MAJOR, FXGL_GLES_MIN_MINOR);
        goto fail;
    }
    GLint max_units = 0, max_size = 0, max_3d = 0, max_buffers = 0, max_attachments = 0;
    gl->GetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &max_units);
    gl->GetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    gl->GetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max_3d);
    gl->GetIntegerv(GL_MAX_DRAW_BUFFERS, &max_buffers);
    gl->GetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max_attachments);
    rt->max_texture_size = max_size;
    rt->max_3d_size = max_3d;
    rt->max_draw_buffers = max_buffers < max_attachments ? max_buffers : max_attachments;
    rt->units = rt->desc.texture_units > 0 ? rt->desc.texture_units : GL_RT_MAX_UNITS;
    rt->units = rt->units > GL_RT_MAX_UNITS ? GL_RT_MAX_UNITS : rt->units;
    rt->units = rt->units > max_units ? max_units : rt->units;
    // Capture exactly what a frame touches: the units and targets the passes
    // bind, UBO 0, the image units of compute passes (docs/state.md, "narrow").
    gl_state_desc sd = {
        .texture_units = rt->units,
        .texture_targets = GL_STATE_TEX_2D | GL_STATE_TEX_3D |
                           (info->api == FXGL_API_GL ? GL_STATE_TEX_1D : 0),
        .uniform_buffers = 1,
        .image_units = info->has_compute ? GL_RT_MAX_IMAGES : 0,
        .draw_buffers = FXGL_MAX_RENDER_TARGETS,
        // Units are captured when the state cache first binds on them.
        .lazy_units = true,
    };
    if (!gl_state_init(&rt->st, gl, info, &sd)) {
        gl_log(rt, FXGL_GL_LOG_ERROR, "cannot capture this context's state");
        goto fail;
    }
    if (pthread_mutex_init(&rt->lock, NULL) != 0) {
        gl_state_finish(&rt->st);
        goto fail;
    }
    decide_caps(rt);
    rt->rng = rt->desc.random_seed ? rt->desc.random_seed : 1u;
    snprintf(rt->semantics[GL_SLOT_COLOR].name, sizeof(rt->semantics[0].name), "COLOR");
    snprintf(rt->semantics[GL_SLOT_DEPTH].name, sizeof(rt->semantics[0].name), "DEPTH");
    rt->semantic_count = 2;

    // The objects every frame uses, created inside a capture so the
    // application's bindings survive.
    gl_state_capture(&rt->st);
    gl_state_set_runtime_defaults(&rt->st);
    GLC(rt, GenVertexArrays(1, &rt->vao));
    GLC(rt, GenTextures(1, &rt->empty_tex));
    GLC(rt, BindTexture(GL_TEXTURE_2D, rt->empty_tex));
    GLC(rt, TexStorage2D(GL_TEXTURE_2D, 1, GL_R16F, 1, 1));
    static const uint16_t zero_half = 0;
    GLC(rt, TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RED, GL_HALF_FLOAT, &zero_half));
    gl_label(rt, GL_TEXTURE, rt->empty_tex, "fxgl empty");
    GLC(rt, GenSamplers(1, &rt->mip_sampler));
    GLC(rt, SamplerParameteri(rt->mip_sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST));
    GLC(rt, SamplerParameteri(rt->mip_sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    if (info->api == FXGL_API_GLES) {
        // The copy out into a multisampled default framebuffer (GLES has no
        // blit into one): a fullscreen triangle reading the top-down copy.
        static const char *vs =
            "#version 300 es\n"
            "void main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, "
            "gl_VertexID == 2 ? 3.0 : -1.0); gl_Position = vec4(p, 0.0, 1.0); }\n";
        static const char *fs =
            "#version 300 es\n"
            "precision highp float;\n"
            "uniform highp sampler2D src;\n"
            "layout(location = 0) out vec4 o;\n"
            "void main() { ivec2 size = textureSize(src, 0); ivec2 p = ivec2(gl_FragCoord.xy);\n"
            "  o = texelFetch(src, ivec2(p.x, size.y - 1 - p.y), 0); }\n";
        const char *sources[2] = {vs, fs};
        GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
        char reason[300];
        rt->copy_program = gl_compile_program(rt, sources, stages, 2, reason, sizeof(reason));
        if (!rt->copy_program) {
            gl_log(rt, FXGL_GL_LOG_WARN, "copy program: %s", reason);
        }
    }
    gl_state_restore(&rt->st);
    gl_log(rt, FXGL_GL_LOG_INFO,
           "runtime on %s (%s %d.%d%s): views %d, copy image %d, compute %d, timers %d, "
           "debug groups %d, DSA %d",
           info->renderer, info->api == FXGL_API_GLES ? "GLES" : "GL", info->major, info->minor,
           info->api == FXGL_API_GL ? (info->core_profile ? " core" : " compat") : "",
           rt->has_views, rt->has_copy_image, rt->has_compute, rt->has_timer, rt->has_debug,
           rt->has_dsa);
    return rt;
fail:
    for (size_t i = 0; i < rt->desc.texture_search_path_count; i++) {
        free(rt->search_paths[i]);
    }
    free(rt->search_paths);
    free(rt);
    return NULL;
}

void gl_loaded_effect_free(gl_loaded_effect *e) {
    if (!e) {
        return;
    }
    free(e->techniques);
    free(e->shadow);
    free(e->specials);
    free(e->file);
    free(e);
}

void fxgl_runtime_destroy(fxgl_runtime *rt) {
    if (!rt) {
        return;
    }
    gl_adopt(rt);
    gl_state_capture(&rt->st);
    gl_state_set_runtime_defaults(&rt->st);
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect_unload(rt, rt->effects[i]);
        gl_loaded_effect_free(rt->effects[i]);
    }
    gl_variants_shutdown(rt);
    for (size_t i = 0; i < rt->sampler_count; i++) {
        GLC(rt, DeleteSamplers(1, &rt->samplers[i].sampler));
    }
    for (int i = 0; i < rt->mip_program_count; i++) {
        if (rt->mip_programs[i].program) {
            GLC(rt, DeleteProgram(rt->mip_programs[i].program));
        }
    }
    gl_size_release(rt);
    gl_depth_destroy(rt, true);
    GLC(rt, DeleteVertexArrays(1, &rt->vao));
    GLC(rt, DeleteTextures(1, &rt->empty_tex));
    GLC(rt, DeleteSamplers(1, &rt->mip_sampler));
    if (rt->copy_program) {
        GLC(rt, DeleteProgram(rt->copy_program));
    }
    gl_state_restore(&rt->st);
    gl_state_finish(&rt->st);
    for (size_t i = 0; i < rt->texture_count; i++) {
        free(rt->textures[i]->name); // unreachable unless an effect leaked a reference
        free(rt->textures[i]);
    }
    free(rt->textures);
    free(rt->samplers);
    free(rt->effects);
    free(rt->order);
    free(rt->incoming);
    free(rt->incoming_files);
    pthread_mutex_destroy(&rt->lock);
    for (size_t i = 0; i < rt->desc.texture_search_path_count; i++) {
        free(rt->search_paths[i]);
    }
    free(rt->search_paths);
    gl_share_runtime_join(rt->share, -1);
    fxgl_gl_share_unref(rt->share);
    free(rt);
}

void fxgl_runtime_abandon(fxgl_runtime *rt) {
    if (!rt) {
        return;
    }
    gl_variants_abandon(rt);
    // What it took from or gave to the group goes back (kept for the group, no GL call).
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect *e = rt->effects[i];
        for (size_t k = 0; e->loaded && k < e->technique_count; k++) {
            const gl_technique *t = &e->techniques[k];
            for (size_t p = 0; t->passes && p < t->src->pass_count; p++) {
                if (t->passes[p].program && !t->passes[p].shares_program) {
                    gl_share_program_drop(rt, t->passes[p].program, false);
                }
            }
        }
    }
    for (size_t i = 0; i < rt->texture_count; i++) {
        gl_share_image_drop(rt, rt->textures[i], false);
    }
    gl_share_runtime_join(rt->share, -1);
    fxgl_gl_share_unref(rt->share);
    rt->share = NULL;
}

const fxgl_runtime_share_stats *fxgl_runtime_share_stats_get(const fxgl_runtime *rt) {
    return &rt->share_stats;
}

// --- effects ---

int fxgl_runtime_add_effect(fxgl_runtime *rt, const fxgl_effect *effect, const char *file) {
    if (!rt || !effect) {
        return -1;
    }
    const char *name = file ? file : effect->path ? effect->path : "effect";
    char *copy = strdup(name);
    if (!copy) {
        return -1;
    }
    pthread_mutex_lock(&rt->lock);
    int index = -1;
    if (rt->incoming_count == rt->incoming_cap) {
        size_t cap = rt->incoming_cap ? rt->incoming_cap * 2 : 8;
        const fxgl_effect **a = realloc(rt->incoming, cap * sizeof(*a));
        if (a) {
            rt->incoming = a;
        }
        char **b = realloc(rt->incoming_files, cap * sizeof(*b));
        if (b) {
            rt->incoming_files = b;
        }
        if (a && b) {
            rt->incoming_cap = cap;
        }
    }
    if (rt->incoming_count < rt->incoming_cap) {
        rt->incoming[rt->incoming_count] = effect;
        rt->incoming_files[rt->incoming_count] = copy;
        index = (int)(rt->effect_count + rt->incoming_count);
        rt->incoming_count++;
        copy = NULL;
    }
    pthread_mutex_unlock(&rt->lock);
    free(copy);
    return index;
}

gl_loaded_effect *gl_loaded_effect_new(fxgl_runtime *rt, const fxgl_effect *fx, char *file,
                                       size_t index) {
    gl_loaded_effect *e = calloc(1, sizeof(*e));
    if (!e) {
        return NULL;
    }
    e->fx = fx;
    e->file = file;
    e->index = index;
    e->status = FXGL_STATUS_PENDING;
    e->size = fx->uniform_block_size;
    e->shadow = calloc(e->size ? e->size : 16, 1);
    e->technique_count = fx->technique_count;
    e->techniques = calloc(fx->technique_count ? fx->technique_count : 1,
                           sizeof(*e->techniques));
    if (!e->shadow || !e->techniques || !gl_specials_init(rt, e)) {
        e->file = NULL;
        gl_loaded_effect_free(e);
        return NULL;
    }
    // Initial values straight from the module (std140 bytes).
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (u->initial_data && u->offset + u->size <= e->size) {
            memcpy(e->shadow + u->offset, u->initial_data, u->size);
        }
    }
    e->dirty_lo = e->frame_lo = e->size;
    for (size_t i = 0; i < fx->technique_count; i++) {
        gl_technique *t = &e->techniques[i];
        t->effect = e;
        t->src = &fx->techniques[i];
        t->index = i;
        t->enabled = true;
        t->status = FXGL_STATUS_PENDING;
        t->time_left_ms = t->src->timeout_ms;
    }
    return e;
}

void gl_adopt(fxgl_runtime *rt) {
    pthread_mutex_lock(&rt->lock);
    size_t n = rt->incoming_count;
    if (n == 0) {
        pthread_mutex_unlock(&rt->lock);
        return;
    }
    size_t techniques = 0;
    for (size_t i = 0; i < n; i++) {
        techniques += rt->incoming[i]->technique_count;
    }
    gl_loaded_effect **effects = realloc(rt->effects, (rt->effect_count + n) * sizeof(*effects));
    if (effects) {
        rt->effects = effects;
    }
    gl_technique **order = realloc(rt->order,
                                   (rt->order_count + techniques + 1) * sizeof(*order));
    if (order) {
        rt->order = order;
    }
    if (!effects || !order) {
        pthread_mutex_unlock(&rt->lock);
        return; // tried again next time
    }
    for (size_t i = 0; i < n; i++) {
        gl_loaded_effect *e = gl_loaded_effect_new(rt, rt->incoming[i], rt->incoming_files[i],
                                                   rt->effect_count);
        if (!e) {
            gl_log(rt, FXGL_GL_LOG_ERROR, "%s: out of memory", rt->incoming_files[i]);
            free(rt->incoming_files[i]);
            continue;
        }
        rt->effects[rt->effect_count++] = e;
        for (size_t k = 0; k < e->technique_count; k++) {
            rt->order[rt->order_count++] = &e->techniques[k];
        }
    }
    rt->incoming_count = 0;
    pthread_mutex_unlock(&rt->lock);
}

size_t fxgl_runtime_effect_count(fxgl_runtime *rt) {
    gl_adopt(rt);
    return rt->effect_count;
}

fxgl_status fxgl_runtime_effect_status(fxgl_runtime *rt, size_t e, const char **reason) {
    gl_adopt(rt);
    if (e >= rt->effect_count) {
        if (reason) {
            *reason = "no such effect";
        }
        return FXGL_STATUS_FAILED;
    }
    if (reason) {
        *reason = rt->effects[e]->reason;
    }
    return rt->effects[e]->status;
}

bool fxgl_runtime_reads_input(const fxgl_runtime *rt) {
    for (size_t i = 0; rt && i < rt->effect_count; i++) {
        const gl_loaded_effect *e = rt->effects[i];
        for (size_t k = 0; e->loaded && k < e->special_count; k++) {
            switch (e->specials[k].u->special) {
            case FXGL_SPECIAL_KEY:
            case FXGL_SPECIAL_MOUSEPOINT:
            case FXGL_SPECIAL_MOUSEDELTA:
            case FXGL_SPECIAL_MOUSEBUTTON:
            case FXGL_SPECIAL_MOUSEWHEEL:
                return true;
            default:
                break;
            }
        }
    }
    return false;
}

size_t fxgl_runtime_technique_count(fxgl_runtime *rt) {
    gl_adopt(rt);
    return rt->order_count;
}

bool fxgl_runtime_technique(fxgl_runtime *rt, size_t i, fxgl_technique_info *info) {
    gl_adopt(rt);
    if (i >= rt->order_count) {
        return false;
    }
    const gl_technique *t = rt->order[i];
    *info = (fxgl_technique_info){
        .effect = t->effect->index,
        .technique = t->index,
        .name = t->src->name,
        .file = t->effect->file,
        .enabled = t->enabled,
        .status = t->status,
        .reason = t->reason,
        .warning = t->effect->warning,
        .frames_run = t->frames_run,
        .cpu_ms = gl_avg_value(&t->cpu),
        .gpu_ms = gl_avg_value(&t->gpu),
        .pass_count = t->src->pass_count,
    };
    return true;
}

double fxgl_runtime_pass_gpu_ms(fxgl_runtime *rt, size_t i, size_t p) {
    if (i >= rt->order_count || p >= rt->order[i]->src->pass_count || !rt->order[i]->pass_gpu) {
        return 0.0;
    }
    return gl_avg_value(&rt->order[i]->pass_gpu[p]);
}

int fxgl_runtime_pass_exact_varyings(fxgl_runtime *rt, size_t i, size_t p) {
    if (i >= rt->order_count || !rt->order[i]->passes || p >= rt->order[i]->src->pass_count) {
        return 0;
    }
    const gl_pass *pass = &rt->order[i]->passes[p];
    int n = 0;
    for (int k = 0; pass->exact_modes && k < 4 * pass->exact_count; k++) {
        n += pass->exact_modes[k] == GL_EXACT_X || pass->exact_modes[k] == GL_EXACT_Y;
    }
    return n;
}

bool fxgl_runtime_pass_exact_rasterised(fxgl_runtime *rt, size_t i, size_t p) {
    if (i >= rt->order_count || !rt->order[i]->passes || p >= rt->order[i]->src->pass_count) {
        return false;
    }
    return gl_exact_rasterised(&rt->order[i]->passes[p]);
}

int fxgl_runtime_pass_compute(fxgl_runtime *rt, size_t i, size_t p) {
    if (i >= rt->order_count || !rt->order[i]->passes || p >= rt->order[i]->src->pass_count) {
        return FXGL_PASS_FRAGMENT_ONLY;
    }
    const gl_pass *pass = &rt->order[i]->passes[p];
    if (pass->compute) {
        return FXGL_PASS_NATIVE_COMPUTE;
    }
    switch (pass->cs.state) {
    case GL_CS_TRIAL:
        return FXGL_PASS_MEASURING;
    case GL_CS_FRAGMENT:
        return FXGL_PASS_AS_FRAGMENT;
    case GL_CS_COMPUTE:
        // The pass drawn straight into the program's framebuffer runs fragment.
        return pass->cs_ran ? FXGL_PASS_AS_COMPUTE : FXGL_PASS_AS_FRAGMENT;
    default:
        return FXGL_PASS_FRAGMENT_ONLY;
    }
}

static double last_sample(const gl_avg *a) {
    return a->count ? a->samples[(a->next + FXGL_TIMING_FRAMES - 1) % FXGL_TIMING_FRAMES] : -1.0;
}

double fxgl_runtime_last_gpu_ms(fxgl_runtime *rt, size_t i, size_t p) {
    if (i >= rt->order_count || !rt->order[i]->pass_gpu) {
        return -1.0;
    }
    if (p == FXGL_WHOLE_TECHNIQUE) {
        return last_sample(&rt->order[i]->gpu);
    }
    return p < rt->order[i]->src->pass_count ? last_sample(&rt->order[i]->pass_gpu[p]) : -1.0;
}

static gl_technique *find_technique(fxgl_runtime *rt, size_t effect, size_t technique) {
    if (effect >= rt->effect_count || technique >= rt->effects[effect]->technique_count) {
        return NULL;
    }
    return &rt->effects[effect]->techniques[technique];
}

bool fxgl_runtime_set_order(fxgl_runtime *rt, const fxgl_technique_ref *order, size_t count) {
    gl_adopt(rt);
    gl_technique **next = calloc(rt->order_count + 1, sizeof(*next));
    bool *placed = calloc(rt->order_count + 1, sizeof(*placed));
    if (!next || !placed) {
        free(next);
        free(placed);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        gl_technique *t = find_technique(rt, order[i].effect, order[i].technique);
        if (!t) {
            continue;
        }
        for (size_t k = 0; k < rt->order_count; k++) {
            if (rt->order[k] == t && !placed[k]) {
                placed[k] = true;
                next[n++] = t;
            }
        }
    }
    for (size_t k = 0; k < rt->order_count; k++) {
        if (!placed[k]) {
            next[n++] = rt->order[k];
        }
    }
    memcpy(rt->order, next, n * sizeof(*next));
    free(next);
    free(placed);
    return true;
}

bool fxgl_runtime_set_enabled(fxgl_runtime *rt, size_t effect, size_t technique, bool enabled) {
    gl_adopt(rt);
    gl_technique *t = find_technique(rt, effect, technique);
    if (!t) {
        return false;
    }
    enabled = enabled || t->src->enabled; // `enabled = true` is forced on
    if (enabled && !t->enabled) {
        t->time_left_ms = t->src->timeout_ms;
    }
    if (!enabled && t->enabled) {
        // Averages restart when the technique comes back.
        memset(&t->cpu, 0, sizeof(t->cpu));
        memset(&t->gpu, 0, sizeof(t->gpu));
    }
    t->enabled = enabled;
    return true;
}

// Matches a namespaced uniform name ("Ns::name") against name or its last part.
static bool name_matches(const char *full, const char *name) {
    if (strcmp(full, name) == 0) {
        return true;
    }
    const char *last = strrchr(full, ':');
    return last && last > full && last[-1] == ':' && strcmp(last + 1, name) == 0;
}

bool fxgl_runtime_set_uniform(fxgl_runtime *rt, size_t effect, const char *name,
                              const fxgl_value *value) {
    gl_adopt(rt);
    if (effect >= rt->effect_count || !name || !value) {
        return false;
    }
    gl_loaded_effect *e = rt->effects[effect];
    for (size_t i = 0; i < e->fx->uniform_count; i++) {
        const fxgl_uniform *u = &e->fx->uniforms[i];
        if (name_matches(u->name, name)) {
            if (u->special != FXGL_SPECIAL_NONE) {
                return false;
            }
            return gl_uniform_write(e, u, value, false);
        }
    }
    return false;
}

bool fxgl_runtime_set_uniform_at(fxgl_runtime *rt, size_t effect, size_t uniform,
                                 const fxgl_value *value) {
    gl_adopt(rt);
    if (effect >= rt->effect_count || !value || uniform >= rt->effects[effect]->fx->uniform_count) {
        return false;
    }
    gl_loaded_effect *e = rt->effects[effect];
    const fxgl_uniform *u = &e->fx->uniforms[uniform];
    if (u->special != FXGL_SPECIAL_NONE) {
        return false;
    }
    return gl_uniform_write(e, u, value, false);
}

bool fxgl_runtime_set_semantic(fxgl_runtime *rt, const char *semantic, uint32_t texture) {
    if (!rt || !semantic || strcmp(semantic, "COLOR") == 0) {
        return false; // COLOR is the runtime's own
    }
    for (int i = 0; i < rt->semantic_count; i++) {
        if (strcmp(rt->semantics[i].name, semantic) == 0) {
            rt->semantics[i].texture = texture;
            return true;
        }
    }
    if (rt->semantic_count == GL_RT_MAX_SEMANTICS) {
        return false;
    }
    gl_semantic *s = &rt->semantics[rt->semantic_count++];
    snprintf(s->name, sizeof(s->name), "%s", semantic);
    s->texture = texture;
    return true;
}
