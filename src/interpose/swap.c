/*
 * swap.c - the frame hook: what runs before the real swap.
 *
 * One record per share group: the glad dispatch table and the context
 * description (fxgl_gl_load), loaded on the group's first swap through the
 * real GetProcAddress, the decision whether this context is one to work
 * on (GL 4.3 / GLES 3.0, not zink), and the group's shared GL objects
 * (fxgl_gl_share: linked programs, image textures). On the first usable
 * frame of each context that presents, an effect runtime (src/gl) is created
 * on it, if the preset enables anything (effect_host.c): a view of the group,
 * with its own container objects (FBOs, VAO, queries), which takes the
 * programs and images another context of the group already made. From then
 * on it runs every frame of that context before the real swap, with the
 * frame's input snapshot (input.c). Anything that fails is logged once and
 * the frame passes through untouched.
 *
 * FXGL_TEST_MARK=1 is a test-only switch: it clears an 8x8 square in the
 * window's top-left corner of the back buffer to magenta (1, 0, 1, 1) with
 * glClearBufferfv, saving and restoring everything that clear depends on
 * (draw framebuffer, draw buffer of framebuffer 0, scissor, colour mask,
 * rasterizer discard). A test that sees the square knows the hook ran on the
 * right context with working GL, and that it left the app's state alone.
 * Components 0 and 1 survive sRGB encoding and dithering unchanged.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

#define IP_TINY 16               // drawables up to this size are skipped (cursors, probes)
#define IP_MARK 8                // the test mark's side in pixels

#define IP_MAX_VIEWS 8           // contexts of one share group that present with effects

// One presenting context of the group and the effect runtime made on it.
typedef struct ip_view {
    void *ctx;                   // the context; NULL: a free record
    bool fx_tried;               // creation attempted (again after a `reload`)
    fxgl_runtime *fx;            // NULL: no effects (none wanted, or creation failed)
    ip_effect_host *effects;         // what fx runs; freed after fx
    ip_variant_ctx *vctx;        // fx's compile context (specialised programs), after fx
    ip_input *input;             // this view's previous input snapshot
    bool input_idle_logged;      // "input not polled" logged once
    bool statuses_logged;        // the first run frame logged what loaded and was skipped
    bool frame_failed_logged;
    ip_inspect *inspect;         // control.c: dump, overlay, control; NULL: none
    ip_overlay *overlay;         // overlay.c: the editing overlay (kept over reloads)
    bool inspect_tried;          // created once the first compiles are in (their failures too)
} ip_view;

struct ip_runtime {
    pthread_mutex_t lock;        // frames of one group on two threads take turns
    bool loaded;                 // load attempted (once per group)
    bool usable;                 // loaded and meets the minimum
    GladGLContext gl;            // the group's dispatch table
    fxgl_gl_info info;           // what the context is
    bool first_frame_logged;
    fxgl_gl_share *share;        // programs and images of the group (src/gl/share.c)
    ip_view views[IP_MAX_VIEWS];
};

ip_runtime *ip_runtime_create(void) {
    ip_runtime *rt = calloc(1, sizeof(*rt));
    if (rt) {
        rt->share = fxgl_gl_share_create();
    }
    if (!rt || !rt->share) {
        free(rt);
        FXGL_LOG_ONCE(FXGL_LOG_ERROR, "out of memory for a share group: frames pass through");
        return NULL;
    }
    pthread_mutex_init(&rt->lock, NULL);
    return rt;
}

// Under rt->lock. Destroys the view's effect runtime on its own context (current), or
// abandons it: its container objects die with that context, what it shares with the
// group stays for the group's other contexts, its CPU memory is leaked (small, once per
// destroyed context; no GL call on a foreign one). The compile worker and compiled
// effects (ip_effect_host) are freed either way.
static void drop_effects(ip_view *v, bool current) {
    if (!v->fx) {
        return;
    }
    if (current) {
        ip_inspect_destroy(v->inspect); // before the runtime it reads
        fxgl_runtime_destroy(v->fx);
    } else {
        // Its compile thread ends (releasing the compile context, which goes below).
        fxgl_runtime_stop_worker(v->fx);
        fxgl_log(FXGL_LOG_DEBUG, "context destroyed while not current: its effect runtime is "
                 "abandoned (its containers die with the context, shared objects stay with "
                 "the group)");
        // The layer reads the effects freed below: its dump is written and it is taken
        // out of the exit handler's list now (no GL call).
        ip_inspect_abandon(v->inspect);
        fxgl_runtime_abandon(v->fx);
    }
    ip_depth_runtime_gone(v->fx); // depth.c: no copy goes to it any more (after the dump)
    // CPU only (the compile worker, the compiled effects): the abandoned runtime
    // borrowing them is never called again, so they go either way.
    ip_effect_host_destroy(v->effects);
    ip_variant_ctx_destroy(v->vctx);
    v->vctx = NULL;
    v->inspect = NULL;
    v->inspect_tried = false;
    v->fx = NULL;
    v->effects = NULL;
    v->fx_tried = false;
    v->statuses_logged = false;
}

void ip_runtime_context_gone(ip_runtime *rt, void *ctx, bool current) {
    pthread_mutex_lock(&rt->lock);
    for (int i = 0; i < IP_MAX_VIEWS; i++) {
        ip_view *v = &rt->views[i];
        if (v->ctx == ctx) {
            drop_effects(v, current);
            ip_input_destroy(v->input);
            if (ip_overlay_is_open(v->overlay)) {
                ip_input_grab_release(); // the overlay that held it goes with the context
            }
            ip_overlay_destroy(v->overlay);
            *v = (ip_view){0};
        }
    }
    pthread_mutex_unlock(&rt->lock);
}

void ip_runtime_destroy(ip_runtime *rt) {
    if (!rt) {
        return;
    }
    // Every context is gone by now (ip_runtime_context_gone ran for each), so the
    // group's GL objects are gone with it: the share table frees CPU memory only.
    for (int i = 0; i < IP_MAX_VIEWS; i++) {
        ip_input_destroy(rt->views[i].input);
        if (ip_overlay_is_open(rt->views[i].overlay)) {
            ip_input_grab_release();
        }
        ip_overlay_destroy(rt->views[i].overlay);
    }
    fxgl_gl_share_unref(rt->share);
    pthread_mutex_destroy(&rt->lock);
    free(rt);
}

// Under rt->lock: the view of ctx, a new one if it has none; NULL when the group has
// IP_MAX_VIEWS presenting contexts already.
static ip_view *view_of(ip_runtime *rt, void *ctx) {
    ip_view *free_view = NULL;
    for (int i = 0; i < IP_MAX_VIEWS; i++) {
        if (rt->views[i].ctx == ctx) {
            return &rt->views[i];
        }
        free_view = !free_view && !rt->views[i].ctx ? &rt->views[i] : free_view;
    }
    if (free_view) {
        *free_view = (ip_view){.ctx = ctx};
    } else {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "more than %d contexts of one share group present: the "
                      "others pass through", IP_MAX_VIEWS);
    }
    return free_view;
}

static void load(ip_runtime *rt, ip_wsi wsi) {
    rt->loaded = true;
    char reason[256];
    fxgl_gl_proc_loader loader = wsi == IP_WSI_GLX ? ip_real_glx_gl_loader
                                                   : ip_real_egl_gl_loader;
    if (!fxgl_gl_load(&rt->gl, &rt->info, loader, NULL, reason, sizeof(reason))) {
        fxgl_log(FXGL_LOG_WARN, "cannot use this context: %s; frames pass through", reason);
        return;
    }
    const fxgl_gl_info *info = &rt->info;
    bool gles = info->api == FXGL_API_GLES;
    if (!info->meets_minimum) {
        fxgl_log(FXGL_LOG_WARN, "%s %d.%d is below the minimum (%s): frames pass through",
                 gles ? "OpenGL ES" : "OpenGL", info->major, info->minor,
                 gles ? "OpenGL ES 3.0" : "OpenGL 4.3");
        return;
    }
    // Under zink a Vulkan layer (vkBasalt, gamescope) sees the frame too:
    // doing it here as well would process it twice.
    if (strstr(info->renderer, "zink")) {
        fxgl_log(FXGL_LOG_WARN, "renderer '%s' is zink: frames pass through", info->renderer);
        return;
    }
    rt->usable = true;
}

static void draw_test_mark(GladGLContext *gl, const fxgl_gl_info *info, int height) {
    bool gles = info->api == FXGL_API_GLES;
    // Indexed colour masks: desktop GL 3.0+, GLES 3.2.
    bool indexed = !gles || info->major > 3 || (info->major == 3 && info->minor >= 2);

    GLint draw_fb = 0, draw_buffer = GL_BACK, box[4];
    GLboolean mask[4];
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    GLboolean scissor = gl->IsEnabled(GL_SCISSOR_TEST);
    GLboolean discard = gl->IsEnabled(GL_RASTERIZER_DISCARD);
    gl->GetIntegerv(GL_SCISSOR_BOX, box);
    if (indexed) {
        gl->GetBooleani_v(GL_COLOR_WRITEMASK, 0, mask);
    } else {
        gl->GetBooleanv(GL_COLOR_WRITEMASK, mask);
    }

    if (draw_fb != 0) {
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    }
    // The draw buffer is framebuffer 0's own state: read it with 0 bound.
    gl->GetIntegerv(gles ? GL_DRAW_BUFFER0 : GL_DRAW_BUFFER, &draw_buffer);
    GLenum back = GL_BACK;
    if (draw_buffer != GL_BACK) {
        if (gles) {
            gl->DrawBuffers(1, &back);
        } else {
            gl->DrawBuffer(GL_BACK);
        }
    }
    if (!scissor) {
        gl->Enable(GL_SCISSOR_TEST);
    }
    if (discard) {
        gl->Disable(GL_RASTERIZER_DISCARD);
    }
    if (indexed) {
        gl->ColorMaski(0, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    } else {
        gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    }
    gl->Scissor(0, height - IP_MARK, IP_MARK, IP_MARK);
    static const GLfloat magenta[4] = {1.0f, 0.0f, 1.0f, 1.0f};
    gl->ClearBufferfv(GL_COLOR, 0, magenta);

    gl->Scissor(box[0], box[1], box[2], box[3]);
    if (indexed) {
        gl->ColorMaski(0, mask[0], mask[1], mask[2], mask[3]);
    } else {
        gl->ColorMask(mask[0], mask[1], mask[2], mask[3]);
    }
    if (discard) {
        gl->Enable(GL_RASTERIZER_DISCARD);
    }
    if (!scissor) {
        gl->Disable(GL_SCISSOR_TEST);
    }
    if (draw_buffer != GL_BACK) {
        GLenum saved = (GLenum)draw_buffer;
        if (gles) {
            gl->DrawBuffers(1, &saved);
        } else {
            gl->DrawBuffer(saved);
        }
    }
    if (draw_fb != 0) {
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    }
}

static void gl_log(void *user, fxgl_gl_log_level level, const char *message) {
    (void)user;
    fxgl_log((fxgl_log_level)level, "%s", message);
}

// Under rt->lock, on the first usable frame of the view's context.
static void create_effects(ip_runtime *rt, ip_view *v, const ip_frame_desc *frame) {
    v->fx_tried = true;
    if (!ip_effect_host_wanted()) {
        return;
    }
    size_t texture_path_count = 0;
    const char *const *texture_paths = ip_effect_host_texture_paths(&texture_path_count);
    fxgl_runtime_desc desc = {
        .share = rt->share,
        .log = gl_log,
        .texture_search_paths = texture_paths,
        .texture_search_path_count = texture_path_count,
        .program_cache = ip_effect_host_program_cache(),
    };
    // Specialised programs are compiled on a second context of the group (variant_ctx.c).
    v->vctx = ip_variant_ctx_create(frame->wsi, &rt->info, frame->drawable.width,
                                    frame->drawable.height);
    ip_variant_ctx_worker(v->vctx, &rt->gl, &desc.worker);
    v->fx = fxgl_runtime_create(&rt->gl, &rt->info, &desc);
    if (!v->fx) {
        ip_variant_ctx_destroy(v->vctx);
        v->vctx = NULL;
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "cannot create the effect runtime: frames pass through");
        return;
    }
    v->effects = ip_effect_host_load(v->fx, &rt->info, frame->drawable.width,
                                     frame->drawable.height);
    if (!v->effects) {
        fxgl_runtime_destroy(v->fx); // the context is current: ours to clean
        v->fx = NULL;
        ip_variant_ctx_destroy(v->vctx);
        v->vctx = NULL;
        return;
    }
    if (!v->input) {
        v->input = ip_input_create();
    }
    if (!v->overlay) {
        v->overlay = ip_overlay_create();
    }
}

// What loaded and what was skipped, once, after the first frame created the
// effects' GL objects.
static void log_statuses(fxgl_runtime *fx, const ip_effect_host *effects) {
    size_t n = fxgl_runtime_technique_count(fx);
    for (size_t i = 0; i < n; i++) {
        fxgl_technique_info t;
        if (!fxgl_runtime_technique(fx, i, &t)) {
            continue;
        }
        if (t.status == FXGL_STATUS_FAILED) {
            fxgl_log(FXGL_LOG_WARN, "technique %s@%s skipped: %s", t.name, t.file, t.reason);
        } else if (t.warning && t.warning[0]) {
            fxgl_log(FXGL_LOG_WARN, "technique %s@%s loaded, %s, but %s", t.name, t.file,
                     t.enabled ? "on" : "off", t.warning);
        } else {
            fxgl_log(FXGL_LOG_INFO, "technique %s@%s loaded, %s", t.name, t.file,
                     t.enabled ? "on" : "off");
        }
    }
    ip_effect_host_log_startup(fx);
    // What this context made itself and what it took from the process and its share
    // group (docs/interpose.md, "Contexts"): counted, for the tests and for a player
    // wondering why a second window starts at once.
    unsigned compiled = 0, reused = 0;
    ip_effect_host_compile_counts(effects, &compiled, &reused);
    const fxgl_runtime_share_stats *s = fxgl_runtime_share_stats_get(fx);
    fxgl_log(FXGL_LOG_INFO, "effects of this context: %u front-end compile(s), %u taken from "
             "another context; %u program(s) linked, %u from the share group; %u texture(s) "
             "created, %u image(s) uploaded, %u from the share group", compiled, reused,
             s->programs_linked, s->programs_shared, s->textures_created, s->images_uploaded,
             s->images_shared);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Under rt->lock: the effects of this frame, before the real swap. True
// when they drew into it (the frame is no longer the program's alone).
static bool run_effects(ip_runtime *rt, ip_view *v, const ip_frame_desc *frame) {
    if (!v->fx_tried) {
        create_effects(rt, v, frame);
    }
    if (!v->fx) {
        return false;
    }
    double now = now_seconds();
    fxgl_input input;
    // Input only for what reads it: a bound key, a key or mouse uniform, the overlay.
    const fxgl_config *config = ip_effect_host_config();
    bool wanted = v->input && ((v->overlay && config && config->key_overlay.vk) ||
                               ip_effect_host_wants_input(v->effects) ||
                               ip_inspect_wants_input(v->inspect) ||
                               fxgl_runtime_reads_input(v->fx));
    if (!wanted && v->input && v->inspect_tried && !v->input_idle_logged) {
        v->input_idle_logged = true;
        fxgl_log(FXGL_LOG_DEBUG, "input not polled: no key bound, no key or mouse uniform, "
                 "no overlay");
    }
    bool have_input = wanted && ip_input_poll(v->input, frame->x_display, frame->x_window,
                                              frame->drawable.width, frame->drawable.height,
                                              frame->wl_display, &input);
    // Keys first, so a preset switch or toggle shows in this very frame.
    // While the overlay is open it has the keyboard: toggle keys, control keys and the
    // key uniforms see no focus (the program itself still gets every event: docs/overlay.md).
    fxgl_input unfocused;
    const fxgl_input *others = have_input ? &input : NULL;
    if (have_input && ip_overlay_is_open(v->overlay)) {
        unfocused = input;
        unfocused.has_focus = false;
        others = &unfocused;
    }
    bool on = !others || ip_effect_host_input(v->effects, others);
    if (!ip_effect_host_frame(v->effects, frame->drawable.width, frame->drawable.height,
                              now) || !on) {
        // First compiles still on the worker, or KeyEffects: passed through.
        ip_inspect_idle(v->inspect, others); // control answers
        return false;
    }
    if (!v->inspect_tried) {
        // After the first compiles: the effects that failed are known now.
        v->inspect_tried = true;
        v->inspect = ip_inspect_create(v->fx, v->effects);
    }
    // The program's depth attachments (unless FXGL_DEPTH=off): choice and end-of-frame copy.
    ip_depth_frame(v->fx, frame->wsi, frame->context, frame->drawable.width,
                   frame->drawable.height);
    bool was_open = ip_overlay_is_open(v->overlay);
    if (ip_overlay_frame(v->overlay, v->effects, v->fx, ip_inspect_ui(v->inspect),
                         have_input ? &input : NULL, frame->drawable.width,
                         frame->drawable.height, now) && others == &input) {
        unfocused = input; // opened this frame: its key is the overlay's
        unfocused.has_focus = false;
        others = &unfocused;
    }
    if (was_open != ip_overlay_is_open(v->overlay) && !frame->wl_display &&
        ip_config_get()->overlay_grab) {
        // X11: the program gets no keys or clicks while the overlay is open (docs/overlay.md).
        ip_input_grab(frame->x_display, frame->x_window, ip_overlay_is_open(v->overlay));
    }
    fxgl_frame_desc desc = {
        .width = frame->drawable.width,
        .height = frame->drawable.height,
        .framebuffer = 0,
        .input = others,
        .time = now,
    };
    // Through the inspection layer: control, overlay, screenshots.
    if (!ip_inspect_frame(v->inspect, v->fx, &desc) && !v->frame_failed_logged) {
        v->frame_failed_logged = true;
        fxgl_log(FXGL_LOG_WARN, "the effect runtime passed a %dx%d frame through",
                 desc.width, desc.height);
    }
    if (!v->statuses_logged) {
        v->statuses_logged = true;
        log_statuses(v->fx, v->effects);
    }
    if (ip_inspect_take_reload(v->inspect)) {
        drop_effects(v, true); // `reload`; rebuilt at the next frame
    }
    return true;
}

bool ip_frame(const ip_frame_desc *frame) {
    ip_runtime *rt = frame->runtime;
    const ip_drawable_state *d = &frame->drawable;
    const ip_config *cfg = ip_config_get();
    bool drawn = false;
    if (!rt) {
        return false;
    }
    if (d->pbuffer) {
        FXGL_LOG_ONCE(FXGL_LOG_DEBUG, "pbuffer or single-buffered surface: passed through");
        return false;
    }
    if (d->width <= 0 || d->height <= 0) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "drawable without a size: passed through");
        return false;
    }
    if (!cfg->allow_tiny && d->width <= IP_TINY && d->height <= IP_TINY) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "drawable of %dx%d (<= %dx%d): passed through "
                      "(FXGL_ALLOW_TINY=1 processes it)", d->width, d->height, IP_TINY, IP_TINY);
        return false;
    }
    pthread_mutex_lock(&rt->lock);
    if (!rt->loaded) {
        load(rt, frame->wsi);
    }
    if (rt->usable) {
        if (!rt->first_frame_logged) {
            rt->first_frame_logged = true;
            fxgl_log(FXGL_LOG_INFO, "first frame: %s, %s %d.%d%s, '%s', %dx%d",
                     frame->wsi == IP_WSI_GLX ? "GLX" : "EGL",
                     rt->info.api == FXGL_API_GLES ? "OpenGL ES" : "OpenGL", rt->info.major,
                     rt->info.minor,
                     rt->info.api == FXGL_API_GL
                         ? (rt->info.core_profile ? " core" : " compatibility")
                         : "",
                     rt->info.renderer, d->width, d->height);
        }
        ip_view *v = view_of(rt, frame->context);
        drawn = v && run_effects(rt, v, frame);
        if (ip_stats_wanted()) { // FXGL_STATS (stats.c), app draws (draws.c)
            uint64_t draws = 0;
            bool counted = cfg->count_app_draws && ip_draws_take(&draws);
            // v->fx exists only when some technique is wanted (create_effects).
            bool ours = v && v->fx;
            ip_stats_frame(ours ? v->fx : NULL, ours, draws, counted);
        }
        if (cfg->test_mark) {
            draw_test_mark(&rt->gl, &rt->info, d->height);
            drawn = true;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return drawn;
}
