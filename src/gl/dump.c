/*
 * dump.c - the dump: what was loaded, what ran in the last frame, what was
 * skipped and why, with per-technique and per-pass times.
 *
 * One plain-text format for the log and for files, line-oriented so a
 * script can grep it: "effect N FILE: STATUS", "  technique NAME: ran ..."
 * or "  technique NAME: skipped: REASON", "    pass P NAME: gpu X ms".
 * Files are written to a temporary name in the same directory and renamed,
 * so a reader never sees half a dump.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl_inspect.h"

typedef struct out {
    char *buf;
    size_t size;
    size_t len;                  // the whole text's length, also past size
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *at = o->buf && o->len < o->size ? o->buf + o->len : NULL;
    size_t room = at ? o->size - o->len : 0;
    int n = vsnprintf(at, room, fmt, ap);
    va_end(ap);
    if (n > 0) {
        o->len += (size_t)n;
    }
}

static void put_context(out *o, const fxgl_gl_info *info) {
    bool es = info->api == FXGL_API_GLES;
    put(o, "context: %s %d.%d%s, '%s', timer queries %s%s\n", es ? "OpenGL ES" : "OpenGL",
        info->major, info->minor,
        es ? "" : info->core_profile ? " core" : " compatibility", info->renderer,
        info->has_timer_query ? "yes" : "no",
        info->is_software ? " (software renderer: times are CPU figures)" : "");
    if (!info->meets_minimum) {
        put(o, "skipped: below minimum GL (needs OpenGL %d.%d or OpenGL ES %d.%d): every frame "
            "passes through untouched\n", FXGL_GL_MIN_MAJOR, FXGL_GL_MIN_MINOR,
            FXGL_GLES_MIN_MAJOR, FXGL_GLES_MIN_MINOR);
    }
}

size_t fxgl_inspect_dump_context(const fxgl_gl_info *info, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size) {
        buf[0] = 0;
    }
    put(&o, "fxgl dump\n");
    put_context(&o, info);
    return o.len;
}

// Why technique at order position i did not run in the last frame (NULL: it ran).
const char *gl_in_skip_reason(fxgl_inspect *in, size_t i, char *buf, size_t size) {
    const gl_technique *t = in->rt->order[i];
    const gl_loaded_effect *e = t->effect;
    if (i < in->track_cap && in->ran[i]) {
        return NULL;
    }
    if (e->status == FXGL_STATUS_PENDING || t->status == FXGL_STATUS_PENDING) {
        snprintf(buf, size, "pending load (GL objects are created at the next frame)");
    } else if (e->status == FXGL_STATUS_FAILED) {
        snprintf(buf, size, "effect failed to load: %s", e->reason);
    } else if (t->status == FXGL_STATUS_FAILED) {
        // The only technique-level failure is a feature the context lacks.
        snprintf(buf, size, "below minimum GL for this technique: %s", t->reason);
    } else if (!in->last_ran_runtime) {
        snprintf(buf, size, "disabled (all effects off by control)");
    } else if (!t->enabled && t->src->timeout_ms > 0 && t->time_left_ms <= 0) {
        snprintf(buf, size, "timeout (its %d ms ran out after %llu frames)", t->src->timeout_ms,
                 (unsigned long long)t->frames_run);
    } else if (!t->enabled) {
        size_t slot = 0;
        for (size_t k = 0; k < e->index; k++) {
            slot += in->rt->effects[k]->technique_count;
        }
        slot += t->index;
        bool by_control = slot < in->track_cap && in->control_off[slot];
        snprintf(buf, size, "disabled%s", by_control ? " (by control)" : "");
    } else if (in->last_screenshot_frame && !t->src->enabled_in_screenshot) {
        snprintf(buf, size, "disabled in screenshots (enabled_in_screenshot = false)");
    } else if (in->frames == 0) {
        snprintf(buf, size, "no frame yet");
    } else {
        snprintf(buf, size, "not run (runtime frame passed through)");
    }
    return buf;
}

// Semantic textures an effect reads that nothing provides (they read zero).
static void put_semantics(out *o, fxgl_inspect *in, const gl_loaded_effect *e) {
    fxgl_runtime *rt = in->rt;
    for (size_t k = 0; k < e->fx->texture_count; k++) {
        const char *sem = e->fx->textures[k].semantic;
        if (!sem || strcmp(sem, "COLOR") == 0) {
            continue;
        }
        bool seen = false; // once per semantic
        for (size_t j = 0; j < k && !seen; j++) {
            seen = e->fx->textures[j].semantic && strcmp(e->fx->textures[j].semantic, sem) == 0;
        }
        if (seen) {
            continue;
        }
        bool provided = false;
        for (int s = 0; s < rt->semantic_count; s++) {
            if (strcmp(rt->semantics[s].name, sem) == 0 && rt->semantics[s].texture) {
                provided = true;
            }
        }
        if (strcmp(sem, "DEPTH") == 0 && (rt->depth_format || gl_depth_texture(rt))) {
            provided = true;
        }
        if (!provided) {
            put(o, "  missing semantic %s: nothing provides it, '%s' reads zero\n", sem,
                e->fx->textures[k].name);
        }
    }
}

size_t fxgl_inspect_dump(fxgl_inspect *in, char *buf, size_t size) {
    out o = {buf, size, 0};
    if (buf && size) {
        buf[0] = 0;
    }
    fxgl_runtime *rt = in->rt;
    fxgl_runtime_technique_count(rt);
    put(&o, "fxgl dump: frame %llu, %dx%d, preset '%s', effects %s\n",
        (unsigned long long)in->frames, in->width, in->height, in->preset,
        in->bypass ? "off (disable all)" : "on");
    put_context(&o, &rt->info);
    size_t ready = 0, failed = 0, pending = 0;
    for (size_t e = 0; e < rt->effect_count; e++) {
        fxgl_status s = rt->effects[e]->status;
        ready += s == FXGL_STATUS_READY;
        failed += s == FXGL_STATUS_FAILED;
        pending += s == FXGL_STATUS_PENDING;
    }
    size_t ran = 0;
    for (size_t i = 0; i < rt->order_count && i < in->track_cap; i++) {
        ran += in->ran[i];
    }
    const fxgl_runtime_stats *st = fxgl_runtime_stats_get(rt);
    double gpu = 0;
    for (size_t i = 0; i < rt->order_count; i++) {
        if (i < in->track_cap && in->ran[i]) {
            gpu += gl_avg_value(&rt->order[i]->gpu);
        }
    }
    put(&o, "effects: %zu (%zu ready, %zu failed, %zu pending), %d failed to compile; "
        "techniques: %zu, %zu ran last frame\n", rt->effect_count, ready, failed, pending,
        in->failed_count, rt->order_count, ran);
    put(&o, "last frame: runtime cpu %.3f ms, effects gpu %.3f ms (60-frame averages), "
        "%u passes, %u draws, %u dispatches, %u GL calls\n", gl_avg_value(&in->runtime_cpu_ms),
        gpu, st->passes_run, st->draw_calls, st->dispatches, st->gl_calls);
    // What this context made and what it took from its share group (share.c).
    const fxgl_runtime_share_stats *sh = fxgl_runtime_share_stats_get(rt);
    put(&o, "objects: %u programs linked, %u from the share group; %u textures created, %u "
        "images uploaded, %u from the share group\n", sh->programs_linked, sh->programs_shared,
        sh->textures_created, sh->images_uploaded, sh->images_shared);
    for (int i = 0; i < in->failed_count; i++) {
        put(&o, "effect - %s: compile error\n", in->failed[i].file);
        // Each line of the diagnostic indented, so the dump stays line-oriented.
        const char *d = in->failed[i].diagnostic;
        while (*d) {
            size_t n = strcspn(d, "\n");
            put(&o, "  diagnostic: %.*s\n", (int)n, d);
            d += n + (d[n] == '\n');
        }
    }
    for (size_t e = 0; e < rt->effect_count; e++) {
        const gl_loaded_effect *ge = rt->effects[e];
        put(&o, "effect %zu %s: %s%s%s\n", e, ge->file,
            ge->status == FXGL_STATUS_READY ? "loaded" :
            ge->status == FXGL_STATUS_PENDING ? "pending load" : "failed",
            ge->status == FXGL_STATUS_FAILED ? ": " : "",
            ge->status == FXGL_STATUS_FAILED ? ge->reason : "");
        put_semantics(&o, in, ge);
        // Its textures, by the names `visualise` takes.
        for (size_t k = 0; k < ge->fx->texture_count; k++) {
            const fxgl_texture *t = &ge->fx->textures[k];
            if (t->semantic) {
                put(&o, "  texture %s: semantic %s\n", t->name, t->semantic);
            } else {
                put(&o, "  texture %s: %dx%d%s%.0d, %d level%s, %s%s\n", t->name, t->width,
                    t->height, t->dim == FXGL_TEXTURE_3D ? "x" : "",
                    t->dim == FXGL_TEXTURE_3D ? t->depth : 0, t->levels,
                    t->levels == 1 ? "" : "s", fxgl_format_name(t->format),
                    t->render_target ? ", render target" : "");
            }
        }
        for (size_t i = 0; i < rt->order_count; i++) {
            const gl_technique *t = rt->order[i];
            if (t->effect != ge) {
                continue;
            }
            char why[700];
            const char *skip = gl_in_skip_reason(in, i, why, sizeof(why));
            if (skip) {
                put(&o, "  technique %s: skipped: %s\n", t->src->name, skip);
            } else {
                put(&o, "  technique %s: ran, gpu %.3f ms, cpu %.3f ms, %llu frames\n",
                    t->src->name, gl_avg_value(&t->gpu), gl_avg_value(&t->cpu),
                    (unsigned long long)t->frames_run);
            }
            for (size_t p = 0; p < t->src->pass_count; p++) {
                const char *pname = t->src->passes[p].name;
                put(&o, "    pass %zu%s%s: gpu %.3f ms\n", p, pname ? " " : "",
                    pname ? pname : "", fxgl_runtime_pass_gpu_ms(rt, i, p));
            }
        }
    }
    if (in->vis.on) {
        put(&o, "visualise: %s\n", in->vis.spec);
    }
    put(&o, "overlay: %s\n", in->overlay ? "on" : "off");
    if (in->desc.dump_extra) {
        // The host's own section (the FBO depth provider's candidates).
        char *at = o.buf && o.len < o.size ? o.buf + o.len : NULL;
        o.len += in->desc.dump_extra(in->desc.dump_extra_user, at, at ? o.size - o.len : 0);
    }
    return o.len;
}

bool fxgl_inspect_dump_file(fxgl_inspect *in, const char *path, char *reason, size_t size) {
    size_t need = fxgl_inspect_dump(in, NULL, 0) + 1;
    char *text = malloc(need);
    char tmp[4200];
    if (!text) {
        snprintf(reason, size, "out of memory");
        return false;
    }
    fxgl_inspect_dump(in, text, need);
    // Same directory, so the rename is atomic; pid keeps two processes apart.
    int n = snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof(tmp)) {
        snprintf(reason, size, "%s: path too long", path);
        free(text);
        return false;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(reason, size, "%s: %s", tmp, strerror(errno));
        free(text);
        return false;
    }
    bool ok = fwrite(text, 1, need - 1, f) == need - 1;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    free(text);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(reason, size, "%s: %s", ok ? path : tmp, strerror(ok ? errno : err));
        unlink(tmp);
        return false;
    }
    return true;
}
