/*
 * inspect.c - the inspection layer: the object, the frame
 * wrapper and the control commands.
 *
 * A frame: (screenshot without effects) -> the runtime's frame, with a
 * snapshot of every technique's run count before and after it, so the dump
 * can say what ran in the last frame without a hook in the runtime ->
 * visualised texture -> overlay -> screenshot readback -> collect finished
 * readbacks. The layer's drawing happens inside its own state capture, and
 * only when something is asked for: with nothing on, a frame costs the
 * snapshot loop and no GL call.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gl_inspect.h"

void gl_in_log(fxgl_inspect *in, fxgl_gl_log_level level, const char *fmt, ...) {
    if (!in->desc.log) {
        return;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    in->desc.log(in->desc.log_user, level, buf);
}

// A fullscreen triangle; the fragment shaders work from gl_FragCoord and a
// rectangle, so the vertex shader carries nothing.
const char gl_in_fullscreen_vs[] =
    "void main() {\n"
    "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

GLuint gl_in_program(fxgl_inspect *in, const char *vs, const char *fs, const char *what) {
    // GL 4.3 core and GLES 3.0 are the floors; one body serves both.
    const char *head = in->es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                              : "#version 430 core\n";
    size_t nv = strlen(head) + strlen(vs) + 1, nf = strlen(head) + strlen(fs) + 1;
    char *v = malloc(nv), *f = malloc(nf);
    GLuint prog = 0;
    if (v && f) {
        snprintf(v, nv, "%s%s", head, vs);
        snprintf(f, nf, "%s%s", head, fs);
        const char *sources[2] = {v, f};
        GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
        char reason[512];
        prog = gl_compile_program(in->rt, sources, stages, 2, reason, sizeof(reason));
        if (!prog) {
            gl_in_log(in, FXGL_GL_LOG_ERROR, "%s program: %s", what, reason);
        } else {
            gl_label(in->rt, GL_PROGRAM, prog, what);
        }
    }
    free(v);
    free(f);
    return prog;
}

static char *dup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}

fxgl_inspect *fxgl_inspect_create(fxgl_runtime *rt, const fxgl_inspect_desc *desc) {
    if (!rt) {
        return NULL;
    }
    fxgl_inspect *in = calloc(1, sizeof(*in));
    if (!in) {
        return NULL;
    }
    in->rt = rt;
    in->gl = rt->gl;
    in->es = rt->info.api == FXGL_API_GLES;
    if (desc) {
        in->desc = *desc;
    }
    if (!in->desc.log) {
        in->desc.log = rt->desc.log;
        in->desc.log_user = rt->desc.log_user;
    }
    in->program = strdup(in->desc.program ? in->desc.program : "fxgl");
    in->shot_dir = strdup(in->desc.screenshot_dir ? in->desc.screenshot_dir : ".");
    in->initial_visualise = dup_or_null(in->desc.visualise);
    in->desc.program = in->desc.screenshot_dir = in->desc.visualise = NULL;
    in->overlay = in->desc.overlay;
    in->text_dirty = true;
    // What this layer touches: units 0-1 (2D; 1D and 3D on unit 0 for a
    // visualised texture), one draw buffer, the pack buffer, program, VAO,
    // viewport, blend.
    gl_state_desc sd = {
        .texture_units = 2,
        .texture_targets = GL_STATE_TEX_2D | GL_STATE_TEX_3D | GL_STATE_TEX_1D, // 1D: desktop
        .uniform_buffers = 1,
        .image_units = 1,
        .draw_buffers = 1,
    };
    if (!in->program || !in->shot_dir || (in->desc.visualise && !in->initial_visualise) ||
        pthread_mutex_init(&in->lock, NULL) != 0) {
        goto fail;
    }
    if (pthread_cond_init(&in->cond, NULL) != 0) {
        pthread_mutex_destroy(&in->lock);
        goto fail;
    }
    if (!gl_state_init(&in->st, in->gl, &rt->info, &sd)) {
        pthread_cond_destroy(&in->cond);
        pthread_mutex_destroy(&in->lock);
        goto fail;
    }
    return in;
fail:
    free(in->program);
    free(in->shot_dir);
    free(in->initial_visualise);
    free(in);
    return NULL;
}

// What both ways out share: memory and the worker's lock, no GL.
static void free_cpu(fxgl_inspect *in) {
    pthread_cond_destroy(&in->cond);
    pthread_mutex_destroy(&in->lock);
    free(in->ran);
    free(in->runs_before);
    free(in->control_off);
    free(in->program);
    free(in->shot_dir);
    free(in->initial_visualise);
    free(in);
}

void fxgl_inspect_destroy(fxgl_inspect *in) {
    if (!in) {
        return;
    }
    fxgl_inspect_screenshot_wait(in);
    gl_state_capture(&in->st);
    gl_state_set_runtime_defaults(&in->st);
    gl_vis_release(in);
    gl_ov_release(in);
    gl_ui_release(in, true);
    gl_shot_release(in);
    if (in->vao) {
        in->gl->DeleteVertexArrays(1, &in->vao);
    }
    if (in->sampler) {
        in->gl->DeleteSamplers(1, &in->sampler);
    }
    gl_state_restore(&in->st);
    gl_state_finish(&in->st);
    free_cpu(in);
}

void fxgl_inspect_abandon(fxgl_inspect *in) {
    if (!in) {
        return;
    }
    gl_shot_stop(in); // the worker writes what it was handed first
    gl_ui_release(in, false);
    in->st.gl = NULL; // gl_state_finish then frees memory only
    gl_state_finish(&in->st);
    free_cpu(in);
}

void fxgl_inspect_set_preset(fxgl_inspect *in, const char *name) {
    snprintf(in->preset, sizeof(in->preset), "%s", name ? name : "");
    in->text_dirty = true;
}

void fxgl_inspect_add_failed(fxgl_inspect *in, const char *file, const char *diagnostic) {
    if (!in || !file || in->failed_count == GL_IN_MAX_FAILED) {
        return;
    }
    snprintf(in->failed[in->failed_count].file, sizeof(in->failed[0].file), "%s", file);
    snprintf(in->failed[in->failed_count].diagnostic, sizeof(in->failed[0].diagnostic), "%s",
             diagnostic ? diagnostic : "");
    in->failed_count++;
}

// Per-technique arrays follow the order's length (effects arrive any time).
static bool track(fxgl_inspect *in, size_t n) {
    if (n <= in->track_cap) {
        return true;
    }
    uint8_t *ran = realloc(in->ran, n);
    if (ran) {
        in->ran = ran;
    }
    uint64_t *runs = realloc(in->runs_before, n * sizeof(*runs));
    if (runs) {
        in->runs_before = runs;
    }
    bool *off = realloc(in->control_off, n * sizeof(*off));
    if (off) {
        in->control_off = off;
    }
    if (!ran || !runs || !off) {
        return false;
    }
    memset(in->ran + in->track_cap, 0, n - in->track_cap);
    memset(in->control_off + in->track_cap, 0, (n - in->track_cap) * sizeof(*off));
    in->track_cap = n;
    return true;
}

// control_off is kept per (effect, technique), stored at the effect's
// technique offset, so a new order keeps it.
static size_t tech_slot(fxgl_inspect *in, const gl_technique *t) {
    size_t slot = 0;
    for (size_t e = 0; e < t->effect->index; e++) {
        slot += in->rt->effects[e]->technique_count;
    }
    return slot + t->index;
}

static void bind_target(fxgl_inspect *in, const fxgl_frame_desc *f) {
    struct GladGLContext *gl = in->gl;
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->framebuffer);
    if (f->framebuffer == 0) {
        if (in->es) {
            GLenum back = GL_BACK;
            gl->DrawBuffers(1, &back);
        } else {
            gl->DrawBuffer(GL_BACK);
        }
        gl->ReadBuffer(GL_BACK);
    }
    if (!in->vao) {
        gl->GenVertexArrays(1, &in->vao);
        gl->GenSamplers(1, &in->sampler);
        gl->SamplerParameteri(in->sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
        gl->SamplerParameteri(in->sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    gl->BindVertexArray(in->vao);
}

bool fxgl_inspect_frame(fxgl_inspect *in, const fxgl_frame_desc *f) {
    if (!in || !f || f->width <= 0 || f->height <= 0) {
        return false;
    }
    double t0 = gl_now();
    fxgl_runtime *rt = in->rt;
    size_t n = fxgl_runtime_technique_count(rt); // adopts new effects
    size_t slots = 0;
    for (size_t e = 0; e < rt->effect_count; e++) {
        slots += rt->effects[e]->technique_count;
    }
    track(in, n > slots ? n : slots);
    if (in->initial_visualise) {
        char reason[300];
        if (!fxgl_inspect_visualise(in, in->initial_visualise, reason, sizeof(reason))) {
            gl_in_log(in, FXGL_GL_LOG_WARN, "FXGL_VISUALISE: %s", reason);
        }
        free(in->initial_visualise);
        in->initial_visualise = NULL;
    }
    for (size_t i = 0; i < n && i < in->track_cap; i++) {
        in->runs_before[i] = rt->order[i]->frames_run;
    }
    in->width = f->width;
    in->height = f->height;
    bool shot = in->want_shot;
    in->want_shot = false;
    if (shot && in->want_without) {
        gl_state_capture(&in->st);
        gl_state_set_runtime_defaults(&in->st);
        bind_target(in, f);
        gl_shot_read(in, &in->shot_without, f, "_noeffects");
        gl_state_restore(&in->st);
    }
    in->want_without = false;
    double t1 = gl_now();
    bool ok = true;
    in->last_ran_runtime = !in->bypass;
    in->last_screenshot_frame = f->screenshot;
    if (!in->bypass) {
        ok = fxgl_runtime_frame(rt, f);
    }
    double t2 = gl_now();
    gl_avg_add(&in->runtime_cpu_ms, (t2 - t1) * 1000.0);
    for (size_t i = 0; i < n && i < in->track_cap; i++) {
        in->ran[i] = rt->order[i]->frames_run != in->runs_before[i];
    }
    if (in->frames && f->time > in->last_time) {
        gl_avg_add(&in->frame_ms, (f->time - in->last_time) * 1000.0);
    }
    in->last_time = f->time;
    in->frames++;
    bool busy = in->shot_with.busy || in->shot_without.busy;
    bool ui = gl_ui_pending(in);
    if (!ui) {
        gl_ui_closed_frame(in);
    }
    if (in->vis.on || in->overlay || shot || busy || ui) {
        gl_state_capture(&in->st);
        gl_state_set_runtime_defaults(&in->st);
        bind_target(in, f);
        if (in->vis.on) {
            gl_vis_draw(in, f);
        }
        if (in->overlay) {
            gl_ov_draw(in, f);
        }
        if (shot) {
            gl_shot_read(in, &in->shot_with, f, "");
        }
        if (ui) {
            // After the screenshot's read: screenshots show the effects, not the overlay.
            gl_ui_draw(in, f);
        }
        gl_shot_collect(in, false);
        gl_state_restore(&in->st);
    }
    gl_avg_add(&in->inspect_cpu_ms, ((t1 - t0) + (gl_now() - t2)) * 1000.0);
    return ok;
}

// --- commands ---

static bool word_eq(const char *a, size_t n, const char *b) {
    return strlen(b) == n && strncasecmp(a, b, n) == 0;
}

// Does name (one entry of a list) pick technique t? "File.fx" picks its
// techniques, "Technique" or "File.fx/Technique" one.
static bool picks(const char *name, size_t n, const gl_technique *t) {
    const char *file = t->effect->file;
    const char *tech = t->src->name;
    if (strlen(file) == n && strncmp(file, name, n) == 0) {
        return true;
    }
    if (strlen(tech) == n && strncmp(tech, name, n) == 0) {
        return true;
    }
    size_t fl = strlen(file);
    return n == fl + 1 + strlen(tech) && strncmp(name, file, fl) == 0 && name[fl] == '/' &&
           strncmp(name + fl + 1, tech, n - fl - 1) == 0;
}

// Applies enable/disable to a list; checks every name before changing anything.
static fxgl_command_result set_list(fxgl_inspect *in, const char *list, bool enable, char *reply,
                                    size_t size) {
    fxgl_runtime *rt = in->rt;
    const char *seps = ", \t";
    for (int pass = 0; pass < 2; pass++) {
        int changed = 0;
        const char *p = list;
        while (*p) {
            p += strspn(p, seps);
            size_t len = strcspn(p, seps);
            if (!len) {
                break;
            }
            bool found = false;
            for (size_t i = 0; i < rt->order_count; i++) {
                gl_technique *t = rt->order[i];
                if (!picks(p, len, t)) {
                    continue;
                }
                found = true;
                if (pass == 1) {
                    size_t slot = tech_slot(in, t);
                    if (!enable && t->enabled) {
                        fxgl_runtime_set_enabled(rt, t->effect->index, t->index, false);
                        in->control_off[slot] = !t->enabled;
                        changed++;
                    } else if (enable && !t->enabled) {
                        fxgl_runtime_set_enabled(rt, t->effect->index, t->index, true);
                        in->control_off[slot] = false;
                        changed++;
                    }
                }
            }
            if (!found) {
                snprintf(reply, size, "error: no effect or technique named '%.*s'; nothing changed",
                         (int)len, p);
                return FXGL_COMMAND_ERROR;
            }
            p += len;
        }
        if (pass == 1) {
            snprintf(reply, size, "%s %d technique%s", enable ? "enabled" : "disabled", changed,
                     changed == 1 ? "" : "s");
        }
    }
    in->text_dirty = true;
    return FXGL_COMMAND_DONE;
}

static fxgl_command_result enable_all(fxgl_inspect *in, char *reply, size_t size) {
    fxgl_runtime *rt = in->rt;
    int changed = 0;
    for (size_t i = 0; i < rt->order_count; i++) {
        gl_technique *t = rt->order[i];
        size_t slot = tech_slot(in, t);
        if (slot < in->track_cap && in->control_off[slot]) {
            fxgl_runtime_set_enabled(rt, t->effect->index, t->index, true);
            in->control_off[slot] = false;
            changed++;
        }
    }
    in->bypass = false;
    snprintf(reply, size, "effects on (%d technique%s re-enabled)", changed,
             changed == 1 ? "" : "s");
    return FXGL_COMMAND_DONE;
}

fxgl_command_result fxgl_inspect_command(fxgl_inspect *in, const char *line, char *reply,
                                         size_t size) {
    char dummy[8];
    if (!reply || !size) {
        reply = dummy;
        size = sizeof(dummy);
    }
    reply[0] = 0;
    if (!in || !line) {
        snprintf(reply, size, "error: no command");
        return FXGL_COMMAND_ERROR;
    }
    fxgl_runtime_technique_count(in->rt); // adopt effects added since the last frame
    size_t slots = 0;
    for (size_t e = 0; e < in->rt->effect_count; e++) {
        slots += in->rt->effects[e]->technique_count;
    }
    if (!track(in, slots > in->rt->order_count ? slots : in->rt->order_count)) {
        snprintf(reply, size, "error: out of memory");
        return FXGL_COMMAND_ERROR;
    }
    for (const char *c = line; *c; c++) {
        if ((unsigned char)*c < 32 && *c != '\t' && *c != '\n' && *c != '\r') {
            snprintf(reply, size, "error: control character in command; nothing changed");
            return FXGL_COMMAND_ERROR;
        }
    }
    const char *p = line + strspn(line, " \t");
    size_t len = strcspn(p, " \t\r\n");
    const char *arg = p + len;
    arg += strspn(arg, " \t");
    char rest[512];
    size_t alen = strcspn(arg, "\r\n");
    while (alen && (arg[alen - 1] == ' ' || arg[alen - 1] == '\t')) {
        alen--;
    }
    if (alen >= sizeof(rest)) {
        snprintf(reply, size, "error: argument too long; nothing changed");
        return FXGL_COMMAND_ERROR;
    }
    memcpy(rest, arg, alen);
    rest[alen] = 0;
    bool none = alen == 0;

    if (word_eq(p, len, "disable") || word_eq(p, len, "enable")) {
        bool enable = word_eq(p, len, "enable");
        if (none) {
            snprintf(reply, size, "error: %s needs 'all' or a list of effects; nothing changed",
                     enable ? "enable" : "disable");
            return FXGL_COMMAND_ERROR;
        }
        if (strcasecmp(rest, "all") == 0) {
            if (enable) {
                return enable_all(in, reply, size);
            }
            in->bypass = true;
            snprintf(reply, size, "effects off");
            return FXGL_COMMAND_DONE;
        }
        return set_list(in, rest, enable, reply, size);
    }
    if (word_eq(p, len, "toggle") && none) {
        in->bypass = !in->bypass;
        snprintf(reply, size, "effects %s", in->bypass ? "off" : "on");
        return FXGL_COMMAND_DONE;
    }
    if (word_eq(p, len, "reload") && none) {
        snprintf(reply, size, "reloading");
        return FXGL_COMMAND_RELOAD;
    }
    if (word_eq(p, len, "preset") && (strcasecmp(rest, "next") == 0 ||
                                      strcasecmp(rest, "prev") == 0)) {
        bool next = strcasecmp(rest, "next") == 0;
        snprintf(reply, size, "%s preset", next ? "next" : "previous");
        return next ? FXGL_COMMAND_PRESET_NEXT : FXGL_COMMAND_PRESET_PREV;
    }
    if (word_eq(p, len, "performance") && none) {
        snprintf(reply, size, "performance mode toggled");
        return FXGL_COMMAND_PERFORMANCE;
    }
    if (word_eq(p, len, "visualise") || word_eq(p, len, "visualize")) {
        char reason[300];
        if (none) {
            snprintf(reply, size, "error: visualise needs "
                     "Effect.fx:Texture[@mip,channels,corner,slice=N,scale=X] or 'off'; nothing "
                     "changed");
            return FXGL_COMMAND_ERROR;
        }
        if (!fxgl_inspect_visualise(in, rest, reason, sizeof(reason))) {
            snprintf(reply, size, "error: %s; nothing changed", reason);
            return FXGL_COMMAND_ERROR;
        }
        snprintf(reply, size, "visualise %s", in->vis.on ? in->vis.spec : "off");
        return FXGL_COMMAND_DONE;
    }
    if (word_eq(p, len, "overlay")) {
        bool on;
        if (strcasecmp(rest, "on") == 0) {
            on = true;
        } else if (strcasecmp(rest, "off") == 0) {
            on = false;
        } else if (none || strcasecmp(rest, "toggle") == 0) {
            on = !in->overlay;
        } else {
            snprintf(reply, size, "error: overlay takes on, off or toggle; nothing changed");
            return FXGL_COMMAND_ERROR;
        }
        fxgl_inspect_overlay(in, on);
        snprintf(reply, size, "overlay %s", on ? "on" : "off");
        return FXGL_COMMAND_DONE;
    }
    if (word_eq(p, len, "dump")) {
        char reason[300];
        if (none) {
            size_t need = fxgl_inspect_dump(in, NULL, 0) + 1;
            char *text = malloc(need);
            if (!text) {
                snprintf(reply, size, "error: out of memory");
                return FXGL_COMMAND_ERROR;
            }
            fxgl_inspect_dump(in, text, need);
            for (char *s = text, *e; *s; s = e) {
                e = s + strcspn(s, "\n");
                bool nl = *e == '\n';
                *e = 0;
                gl_in_log(in, FXGL_GL_LOG_INFO, "dump: %s", s);
                e += nl;
            }
            free(text);
            snprintf(reply, size, "dump written to the log");
            return FXGL_COMMAND_DONE;
        }
        if (!fxgl_inspect_dump_file(in, rest, reason, sizeof(reason))) {
            snprintf(reply, size, "error: %s", reason);
            return FXGL_COMMAND_ERROR;
        }
        snprintf(reply, size, "dump written to %s", rest);
        return FXGL_COMMAND_DONE;
    }
    if (word_eq(p, len, "screenshot")) {
        bool both = strcasecmp(rest, "both") == 0;
        if (!none && !both) {
            snprintf(reply, size, "error: screenshot takes nothing or 'both'; nothing changed");
            return FXGL_COMMAND_ERROR;
        }
        if (!fxgl_inspect_screenshot(in, both)) {
            snprintf(reply, size, "error: a screenshot is still being read back");
            return FXGL_COMMAND_ERROR;
        }
        snprintf(reply, size, "screenshot at the next frame");
        return FXGL_COMMAND_DONE;
    }
    if (word_eq(p, len, "status") && none) {
        size_t running = 0;
        for (size_t i = 0; i < in->rt->order_count && i < in->track_cap; i++) {
            running += in->ran[i];
        }
        snprintf(reply, size, "effects %s, %zu of %zu techniques ran last frame, overlay %s, "
                 "visualise %s", in->bypass ? "off" : "on", running, in->rt->order_count,
                 in->overlay ? "on" : "off", in->vis.on ? in->vis.spec : "off");
        return FXGL_COMMAND_DONE;
    }
    if (len == 0) {
        snprintf(reply, size, "error: empty command");
    } else {
        snprintf(reply, size, "error: unknown command '%.*s'%s; nothing changed", (int)(len > 40 ? 40 : len), p,
                 none ? "" : " (or bad argument)");
    }
    return FXGL_COMMAND_ERROR;
}

void fxgl_inspect_stats_get(const fxgl_inspect *in, fxgl_inspect_stats *stats) {
    *stats = (fxgl_inspect_stats){
        .frame_ms = gl_avg_value(&in->frame_ms),
        .runtime_cpu_ms = gl_avg_value(&in->runtime_cpu_ms),
        .layer_cpu_ms = gl_avg_value(&in->inspect_cpu_ms),
        .overlay_cpu_ms = gl_avg_value(&in->overlay_cpu_ms),
        .overlay_gpu_ms = gl_avg_value(&in->overlay_gpu_ms),
    };
}
