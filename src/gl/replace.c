/*
 * replace.c - swapping a recompiled effect in whole (live reload).
 *
 * The new version's GL objects are built while the old version is still in place, so a
 * version that fails to load never takes the old one's place. Only after a successful
 * load does the new record take the old one's index; technique order, enabled flags and
 * the user's uniform values carry over by name, so an edit does not reset what the user
 * set. Textures keep their contents across the swap when the declaration is unchanged
 * (they are shared by name, like textures shared between effects); textures with a
 * `source=` image are read again.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_runtime.h"

// A texture of the new version whose name the runtime already has with another shape, or
// one filled from a `source=` image (the reload may be for a changed image), used by this
// effect alone: sharing it by name would keep the old shape or the old pixels, so the old
// version must let go of it before the new one loads.
static bool needs_fresh_textures(fxgl_runtime *rt, const gl_loaded_effect *old,
                                 const fxgl_effect *fx) {
    for (size_t i = 0; i < fx->texture_count; i++) {
        const fxgl_texture *ft = &fx->textures[i];
        if (ft->semantic) {
            continue;
        }
        for (size_t k = 0; k < rt->texture_count; k++) {
            const gl_tex *t = rt->textures[k];
            if (strcmp(t->name, ft->name) != 0) {
                continue;
            }
            bool same = t->dim == ft->dim && t->width == ft->width && t->height == ft->height &&
                        t->depth == ft->depth && t->levels == ft->levels &&
                        t->format == ft->format;
            bool only_old = t->refs == 1 && old->loaded;
            if ((!same || ft->source) && only_old) {
                return true;
            }
        }
    }
    return false;
}

static const fxgl_uniform *find_uniform(const fxgl_effect *fx, const fxgl_uniform *like) {
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (strcmp(u->name, like->name) == 0 && u->scalar == like->scalar &&
            u->rows == like->rows && u->cols == like->cols &&
            u->array_length == like->array_length && u->size == like->size) {
            return u;
        }
    }
    return NULL;
}

static gl_technique *find_technique(gl_loaded_effect *e, const char *name) {
    for (size_t i = 0; i < e->technique_count; i++) {
        if (strcmp(e->techniques[i].src->name, name) == 0) {
            return &e->techniques[i];
        }
    }
    return NULL;
}

// Loads e's GL objects between frames: the application's state is captured and restored
// around it, as a frame does.
static bool load_between_frames(fxgl_runtime *rt, gl_loaded_effect *e) {
    gl_state_capture(&rt->st);
    gl_state_set_runtime_defaults(&rt->st);
    gl_cache_reset(rt, false);
    gl_loaded_effect_load(rt, e);
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, 0));
    GLC(rt, BindTexture(GL_TEXTURE_2D, 0));
    GLC(rt, UseProgram(0));
    gl_state_restore(&rt->st);
    gl_cache_reset(rt, false);
    return e->status == FXGL_STATUS_READY;
}

bool fxgl_runtime_replace_effect(fxgl_runtime *rt, size_t index, const fxgl_effect *effect,
                                 char *reason, size_t reason_size) {
    if (reason && reason_size) {
        reason[0] = '\0';
    }
    if (!rt || !effect) {
        return false;
    }
    gl_adopt(rt);
    if (index >= rt->effect_count) {
        if (reason) {
            snprintf(reason, reason_size, "no effect %zu", index);
        }
        return false;
    }
    gl_loaded_effect *old = rt->effects[index];
    char *file = strdup(old->file);
    size_t old_order = 0;
    for (size_t i = 0; i < rt->order_count; i++) {
        old_order += rt->order[i]->effect == old;
    }
    gl_technique **order = malloc((rt->order_count - old_order + effect->technique_count + 1) *
                                  sizeof(*order));
    gl_loaded_effect *e = file && order ? gl_loaded_effect_new(rt, effect, file, index) : NULL;
    if (!e) {
        free(file);
        free(order);
        if (reason) {
            snprintf(reason, reason_size, "out of memory");
        }
        return false;
    }

    // Values the user set survive the edit where the variable kept its name and type.
    for (size_t i = 0; i < effect->uniform_count; i++) {
        const fxgl_uniform *u = &effect->uniforms[i];
        const fxgl_uniform *was = u->special == FXGL_SPECIAL_NONE ? find_uniform(old->fx, u)
                                                                  : NULL;
        if (was && was->offset + was->size <= old->size && u->offset + u->size <= e->size) {
            memcpy(e->shadow + u->offset, old->shadow + was->offset, u->size);
        }
    }
    for (size_t i = 0; i < e->technique_count; i++) {
        gl_technique *was = find_technique(old, e->techniques[i].src->name);
        if (was) {
            e->techniques[i].enabled = was->enabled;
        }
    }

    // An effect that never ran has nothing to keep: the next frame loads the new one.
    bool loaded = false;
    if (old->loaded || old->status != FXGL_STATUS_PENDING) {
        bool fresh = needs_fresh_textures(rt, old, effect);
        if (fresh) {
            gl_loaded_effect_unload(rt, old);
        }
        loaded = load_between_frames(rt, e);
        if (!loaded) {
            if (reason) {
                snprintf(reason, reason_size, "%s", e->reason);
            }
            gl_log(rt, FXGL_GL_LOG_WARN, "%s: the new version did not load; %s", e->file,
                   fresh ? "the old one is loaded again" : "the old one keeps running");
            gl_loaded_effect_unload(rt, e);
            gl_loaded_effect_free(e);
            free(order);
            if (fresh) {
                // The old version gave its textures up; it comes back with fresh ones.
                old->status = FXGL_STATUS_PENDING;
                for (size_t i = 0; i < old->technique_count; i++) {
                    old->techniques[i].status = FXGL_STATUS_PENDING;
                }
            }
            return false;
        }
    }

    // The new techniques take the old ones' places in the order; new names go after the
    // position of the effect's last technique (at the end when it had none).
    size_t n = 0, last = SIZE_MAX;
    bool *placed = calloc(e->technique_count + 1, sizeof(*placed));
    for (size_t i = 0; i < rt->order_count; i++) {
        gl_technique *t = rt->order[i];
        if (t->effect != old) {
            order[n++] = t;
            continue;
        }
        gl_technique *now = find_technique(e, t->src->name);
        if (now) {
            order[n++] = now;
            if (placed) {
                placed[now->index] = true;
            }
        }
        last = n;
    }
    if (last == SIZE_MAX) {
        last = n;
    }
    for (size_t i = 0; i < e->technique_count; i++) {
        if (placed && placed[i]) {
            continue;
        }
        memmove(&order[last + 1], &order[last], (n - last) * sizeof(*order));
        order[last++] = &e->techniques[i];
        n++;
    }
    free(placed);
    free(rt->order);
    rt->order = order;
    rt->order_count = n;
    rt->effects[index] = e;
    gl_log(rt, FXGL_GL_LOG_INFO, "%s: replaced by a new version%s", e->file,
           loaded ? "" : " (loads next frame)");
    if (old->loaded) {
        gl_state_capture(&rt->st);
        gl_loaded_effect_unload(rt, old);
        gl_state_restore(&rt->st);
        gl_cache_reset(rt, false);
    }
    gl_loaded_effect_free(old);
    return true;
}
