/*
 * set.c - the effect set of a runtime: its effects, a preset applied to them, timed
 * transitions and toggle keys, driving the back end through fxgl_effect_ops alone.
 *
 * Each member keeps the preset's view of its effect (view.c): one view uniform per
 * uniform, at the same index, so every value reaches the back end by index. Applying a
 * preset and adding effects allocate (they happen on a preset switch or a load); a frame
 * (fxgl_effect_set_step, fxgl_effect_set_toggle) allocates nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_effects.h"

typedef struct set_member {
    const fxgl_effect *effect;   // borrowed
    char *file;                  // the preset's section name (owned)
    size_t backend_index;        // what ops->add returned
    bool described;              // view is valid: applied since the effect came in
    fxgl_preset_effect view;     // the preset's view, as applied and changed since
    fxgl_preset_transition *transitions; // per view uniform while a switch blends, or NULL
} set_member;

struct fxgl_effect_set {
    fxgl_effect_set_desc desc;
    set_member *members;
    size_t count;
    size_t capacity;
    bool transitioning;          // some member's transitions are running
    // The render order as a host last set it (member, technique), for the next capture;
    // NULL: the applied preset's order. An apply drops it.
    fxgl_technique_ref *order;
    size_t order_count;
};

static void report(const fxgl_effect_set *set, fxgl_effect_set_level level,
                   const char *format, ...) __attribute__((format(printf, 3, 4)));

static void report(const fxgl_effect_set *set, fxgl_effect_set_level level,
                   const char *format, ...) {
    if (set->desc.report == NULL) {
        return;
    }
    char message[768];
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof(message), format, ap);
    va_end(ap);
    set->desc.report(set->desc.user, level, message);
}

fxgl_effect_set *fxgl_effect_set_create(const fxgl_effect_set_desc *desc) {
    fxgl_effect_set *set = calloc(1, sizeof(*set));
    if (set != NULL) {
        set->desc = *desc;
    }
    return set;
}

static void forget_view(set_member *m) {
    fxgl_effect_view_finish(&m->view);
    free(m->transitions);
    m->transitions = NULL;
    m->described = false;
}

void fxgl_effect_set_destroy(fxgl_effect_set *set) {
    if (set == NULL) {
        return;
    }
    for (size_t i = 0; i < set->count; i++) {
        forget_view(&set->members[i]);
        free(set->members[i].file);
    }
    free(set->members);
    free(set->order);
    free(set);
}

int fxgl_effect_set_add(fxgl_effect_set *set, const fxgl_effect *effect, const char *file) {
    if (set->count == set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 8;
        set_member *grown = realloc(set->members, capacity * sizeof(*grown));
        if (grown == NULL) {
            report(set, FXGL_EFFECT_SET_FAILURE, "effect %s skipped: out of memory", file);
            return -1;
        }
        set->members = grown;
        set->capacity = capacity;
    }
    char *copy = strdup(file);
    int index = copy != NULL ? set->desc.ops->add(set->desc.backend, effect, copy) : -1;
    if (index < 0) {
        report(set, FXGL_EFFECT_SET_FAILURE, "effect %s skipped: the runtime cannot take it",
               file);
        free(copy);
        return -1;
    }
    set->members[set->count] = (set_member){.effect = effect, .file = copy,
                                            .backend_index = (size_t)index};
    return (int)set->count++;
}

bool fxgl_effect_set_replace(fxgl_effect_set *set, size_t member, const fxgl_effect *next) {
    if (member >= set->count) {
        return false;
    }
    set_member *m = &set->members[member];
    char reason[256] = "";
    if (!set->desc.ops->replace(set->desc.backend, m->backend_index, next, reason,
                                sizeof(reason))) {
        report(set, FXGL_EFFECT_SET_FAILURE,
               "reload of %s failed, the running version stays: %s", m->file, reason);
        return false;
    }
    forget_view(m); // it points into the old version
    m->effect = next;
    return true;
}

// The view's values into the back end, each uniform by its index.
static void push_values(const fxgl_effect_set *set, const set_member *m) {
    for (size_t k = 0; k < m->effect->uniform_count && k < m->view.uniform_count; k++) {
        fxgl_value v;
        if (fxgl_effect_view_value(&m->effect->uniforms[k], &m->view.uniforms[k], &v)) {
            set->desc.ops->set_value(set->desc.backend, m->backend_index, k, &v);
        }
    }
}

// The render order the preset gives over the described members, in view indices
// (effect = position in views); returns the count, out has room for every technique.
static size_t preset_order(const fxgl_effect_set *set, const fxgl_preset *preset,
                           const fxgl_preset_effect *views, size_t n,
                           fxgl_preset_technique_ref *out) {
    return fxgl_preset_order(preset, set->desc.sorting, set->desc.sorting_count, views, n,
                             out);
}

bool fxgl_effect_set_apply(fxgl_effect_set *set, const fxgl_preset *preset, double now,
                           double duration) {
    fxgl_preset_effect *views = calloc(set->count + 1, sizeof(*views));
    size_t *members = calloc(set->count + 1, sizeof(*members));
    fxgl_preset_uniform **before = calloc(set->count + 1, sizeof(*before));
    size_t n = 0;
    for (size_t i = 0; views && members && before && i < set->count; i++) {
        set_member *m = &set->members[i];
        // The values running now, where the blend starts.
        if (m->described && duration > 0.0) {
            before[n] = m->view.uniforms;
            m->view.uniforms = NULL;
        }
        forget_view(m);
        if (!fxgl_effect_view(m->effect, m->file, &m->view)) {
            report(set, FXGL_EFFECT_SET_FAILURE, "preset not applied to %s: out of memory",
                   m->file);
            forget_view(m);
            free(before[n]);
            before[n] = NULL;
            continue;
        }
        m->described = true;
        m->transitions = calloc(m->view.uniform_count + 1, sizeof(*m->transitions));
        views[n] = m->view;
        members[n++] = i;
    }
    bool complete = views == NULL || fxgl_preset_apply(preset, views, n);
    set->transitioning = false;
    free(set->order); // the preset's order from now on
    set->order = NULL;
    set->order_count = 0;
    for (size_t k = 0; k < n; k++) {
        set_member *m = &set->members[members[k]];
        m->view = views[k]; // apply wrote enabled flags and values into the copies
        for (size_t t = 0; t < m->view.technique_count; t++) {
            set->desc.ops->enable(set->desc.backend, m->backend_index, t,
                                  m->view.techniques[t].enabled);
        }
        if (before[k] != NULL && m->transitions != NULL) {
            fxgl_preset_transition_begin(before[k], m->view.uniforms, m->view.uniform_count,
                                         now, duration, m->transitions);
            // From this very frame: a switch's first frame shows the values it starts from.
            for (size_t u = 0; u < m->view.uniform_count; u++) {
                fxgl_preset_transition_value(&m->transitions[u], now, m->view.uniforms[u].value);
            }
            set->transitioning = true;
        } else {
            free(m->transitions); // no blend: the new values at once
            m->transitions = NULL;
        }
        push_values(set, m);
        free(before[k]);
    }
    size_t total = 0;
    for (size_t k = 0; k < n; k++) {
        total += views[k].technique_count;
    }
    fxgl_preset_technique_ref *order = n ? calloc(total + 1, sizeof(*order)) : NULL;
    fxgl_technique_ref *refs = order ? calloc(total + 1, sizeof(*refs)) : NULL;
    if (refs != NULL) {
        size_t count = preset_order(set, preset, views, n, order);
        for (size_t i = 0; i < count; i++) {
            refs[i] = (fxgl_technique_ref){
                (uint32_t)set->members[members[order[i].effect]].backend_index,
                order[i].technique};
        }
        set->desc.ops->order(set->desc.backend, refs, count);
    }
    free(refs);
    free(order);
    free(views);
    free(members);
    free(before);
    return complete;
}

bool fxgl_effect_set_step(fxgl_effect_set *set, double now) {
    if (!set->transitioning) {
        return false;
    }
    bool running = false;
    for (size_t i = 0; i < set->count; i++) {
        set_member *m = &set->members[i];
        if (m->transitions == NULL) {
            continue;
        }
        bool any = false;
        for (size_t u = 0; u < m->view.uniform_count; u++) {
            any |= fxgl_preset_transition_value(&m->transitions[u], now,
                                                m->view.uniforms[u].value);
        }
        push_values(set, m);
        if (!any) {
            free(m->transitions); // the end of a switch, not a frame of one
            m->transitions = NULL;
        }
        running |= any;
    }
    set->transitioning = running;
    return running;
}

bool fxgl_effect_set_transitioning(const fxgl_effect_set *set) {
    return set->transitioning;
}

bool fxgl_effect_set_has_toggle_keys(const fxgl_effect_set *set) {
    for (size_t i = 0; i < set->count; i++) {
        const set_member *m = &set->members[i];
        for (size_t t = 0; m->described && t < m->view.technique_count; t++) {
            if (m->view.techniques[t].toggle_key.vk) {
                return true;
            }
        }
    }
    return false;
}

size_t fxgl_effect_set_toggle(fxgl_effect_set *set,
                              bool (*fired)(void *user, const fxgl_preset_key *key),
                              void *user) {
    size_t flipped = 0;
    for (size_t i = 0; i < set->count; i++) {
        set_member *m = &set->members[i];
        for (size_t t = 0; m->described && t < m->view.technique_count; t++) {
            fxgl_preset_technique *tech = &m->view.techniques[t];
            if (!tech->forced_on && fired(user, &tech->toggle_key)) {
                tech->enabled = !tech->enabled;
                set->desc.ops->enable(set->desc.backend, m->backend_index, t, tech->enabled);
                report(set, FXGL_EFFECT_SET_NOTE, "%s@%s %s (toggle key)", tech->name,
                       m->view.file, tech->enabled ? "on" : "off");
                flipped++;
            }
        }
    }
    return flipped;
}

size_t fxgl_effect_set_count(const fxgl_effect_set *set) {
    return set->count;
}

const fxgl_preset_effect *fxgl_effect_set_view(const fxgl_effect_set *set, size_t member) {
    return member < set->count && set->members[member].described ? &set->members[member].view
                                                                   : NULL;
}

const fxgl_effect *fxgl_effect_set_effect(const fxgl_effect_set *set, size_t member) {
    return member < set->count ? set->members[member].effect : NULL;
}

size_t fxgl_effect_set_backend_index(const fxgl_effect_set *set, size_t member) {
    return member < set->count ? set->members[member].backend_index : (size_t)-1;
}

bool fxgl_effect_set_enable(fxgl_effect_set *set, size_t member, size_t technique, bool on) {
    if (member >= set->count || !set->members[member].described ||
        technique >= set->members[member].view.technique_count) {
        return false;
    }
    set_member *m = &set->members[member];
    fxgl_preset_technique *tech = &m->view.techniques[technique];
    if (tech->forced_on) {
        return on;
    }
    tech->enabled = on;
    return set->desc.ops->enable(set->desc.backend, m->backend_index, technique, on);
}

bool fxgl_effect_set_value(fxgl_effect_set *set, size_t member, size_t uniform,
                           const fxgl_preset_value *components) {
    if (member >= set->count || !set->members[member].described ||
        uniform >= set->members[member].view.uniform_count) {
        return false;
    }
    set_member *m = &set->members[member];
    fxgl_preset_uniform *u = &m->view.uniforms[uniform];
    size_t count = (u->rows ? u->rows : 1) * (u->cols ? u->cols : 1);
    for (size_t c = 0; c < count && c < FXGL_PRESET_MAX_COMPONENTS; c++) {
        u->value[c] = components[c];
    }
    if (m->transitions != NULL) {
        // The edit wins over a blend still running: the blend ends on this value.
        fxgl_preset_transition *t = &m->transitions[uniform];
        t->duration = 0.0;
        memcpy(t->to, u->value, sizeof(t->to));
    }
    fxgl_value v;
    return fxgl_effect_view_value(&m->effect->uniforms[uniform], u, &v) &&
           set->desc.ops->set_value(set->desc.backend, m->backend_index, uniform, &v);
}

bool fxgl_effect_set_order(fxgl_effect_set *set, const fxgl_technique_ref *order, size_t count) {
    fxgl_technique_ref *mine = calloc(count + 1, sizeof(*mine));
    fxgl_technique_ref *refs = calloc(count + 1, sizeof(*refs));
    if (mine == NULL || refs == NULL) {
        free(mine);
        free(refs);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (order[i].effect < set->count) {
            mine[n] = order[i];
            refs[n++] = (fxgl_technique_ref){
                (uint32_t)set->members[order[i].effect].backend_index, order[i].technique};
        }
    }
    bool ok = set->desc.ops->order(set->desc.backend, refs, n);
    free(refs);
    free(set->order);
    set->order = mine;
    set->order_count = n;
    return ok;
}

size_t fxgl_effect_set_member_of(const fxgl_effect_set *set, size_t backend_index) {
    for (size_t i = 0; i < set->count; i++) {
        if (set->members[i].backend_index == backend_index) {
            return i;
        }
    }
    return (size_t)-1;
}

bool fxgl_effect_set_capture(const fxgl_effect_set *set, fxgl_preset *preset) {
    fxgl_preset_effect *views = calloc(set->count + 1, sizeof(*views));
    size_t *view_of = calloc(set->count + 1, sizeof(*view_of)); // member -> views index
    size_t n = 0, total = 0;
    for (size_t i = 0; views != NULL && view_of != NULL && i < set->count; i++) {
        view_of[i] = (size_t)-1;
        if (set->members[i].described) {
            view_of[i] = n;
            views[n] = set->members[i].view;
            total += views[n++].technique_count;
        }
    }
    fxgl_preset_technique_ref *order =
        views && view_of ? calloc(total + set->order_count + 1, sizeof(*order)) : NULL;
    bool ok = order != NULL;
    if (ok) {
        size_t count = 0;
        if (set->order != NULL) {
            // The order a host set (an overlay's reordering), over what is described.
            for (size_t i = 0; i < set->order_count; i++) {
                size_t v = view_of[set->order[i].effect];
                if (v != (size_t)-1 && set->order[i].technique < views[v].technique_count) {
                    order[count++] = (fxgl_preset_technique_ref){(uint32_t)v,
                                                                 set->order[i].technique};
                }
            }
        } else {
            count = preset_order(set, preset, views, n, order);
        }
        ok = fxgl_preset_capture(preset, views, n, order, count);
    }
    free(order);
    free(view_of);
    free(views);
    return ok;
}
