/*
 * context.c - one record per context share group, one per drawable.
 *
 * Contexts are learnt at creation (glXCreate*Context*, eglCreateContext),
 * with the context they share objects with; a context first seen at a swap
 * (created before a path we hook) starts its own group. A group's runtime
 * slot is created lazily on its first swap and lives while any of its
 * contexts does.
 *
 * Why a slot is never freed "on" a context: GL names belong to the share
 * group, and the driver deletes them when the group's last context goes.
 * So when the last context is destroyed - current or not - only our CPU
 * memory is freed; nothing is made current and no GL call is issued, and
 * the names die with the group (MangoHud PR #1840 deleted an app's objects
 * by freeing names on the wrong context). Container objects (FBOs, VAOs)
 * are per context and die with theirs, which is the same rule.
 *
 * Drawables: GLX windows die without telling us (XDestroyWindow), so the
 * table is bounded and the least recently swapped record is reused.
 * All tables sit under one mutex; the frame itself runs outside it under
 * the slot's own lock, with a reference held so a concurrent destroy on
 * another thread cannot free it underneath.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_interpose.h"

#define IP_MAX_CONTEXTS 256
#define IP_MAX_DRAWABLES 64

struct ip_slot {
    ip_runtime *runtime;         // owned; NULL until the first swap
    int members;                 // live contexts in the group
    int refs;                    // frames running on the slot now
};
typedef struct ip_slot group;

typedef struct context_rec {
    ip_wsi wsi;
    void *dpy;                   // Display * or EGLDisplay
    void *ctx;                   // GLXContext or EGLContext; NULL: free entry
    group *grp;                  // owned jointly by the group's members
} context_rec;

typedef struct drawable_rec {
    ip_wsi wsi;
    void *dpy;
    uintptr_t id;                // GLXDrawable or EGLSurface; 0: free entry
    int width;
    int height;
    uint64_t swaps;
    uint64_t last_use;           // value of the swap clock at the last swap
    unsigned generation;
    bool pbuffer;
    uintptr_t native_window;
} drawable_rec;

// The process's tables of contexts and drawables: shared by every thread
// that presents, hence global, under table_lock.
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static context_rec contexts[IP_MAX_CONTEXTS];
static drawable_rec drawables[IP_MAX_DRAWABLES];
static uint64_t swap_clock;

static context_rec *find_context(ip_wsi wsi, void *dpy, void *ctx) {
    for (int i = 0; i < IP_MAX_CONTEXTS; i++) {
        context_rec *c = &contexts[i];
        // GLX contexts are process-global pointers; an EGL context is
        // meaningful only with its display.
        if (c->ctx == ctx && c->wsi == wsi && (wsi == IP_WSI_GLX || c->dpy == dpy)) {
            return c;
        }
    }
    return NULL;
}

static void group_unref(group *g) {
    if (g->members == 0 && g->refs == 0) {
        if (g->runtime) {
            fxgl_log(FXGL_LOG_DEBUG, "share group released; its GL objects die with it");
        }
        ip_runtime_destroy(g->runtime);
        free(g);
    }
}

// Under table_lock. NULL when the table is full (logged once) or out of memory.
static context_rec *add_context(ip_wsi wsi, void *dpy, void *ctx, group *g) {
    for (int i = 0; i < IP_MAX_CONTEXTS; i++) {
        context_rec *c = &contexts[i];
        if (!c->ctx) {
            if (!g) {
                g = calloc(1, sizeof(*g));
                if (!g) {
                    return NULL;
                }
            }
            *c = (context_rec){.wsi = wsi, .dpy = dpy, .ctx = ctx, .grp = g};
            g->members++;
            return c;
        }
    }
    FXGL_LOG_ONCE(FXGL_LOG_WARN, "more than %d GL contexts: the rest pass through",
                  IP_MAX_CONTEXTS);
    return NULL;
}

static void remove_context(context_rec *c) {
    group *g = c->grp;
    memset(c, 0, sizeof(*c));
    g->members--;
    group_unref(g);
}

void ip_context_created(ip_wsi wsi, void *dpy, void *ctx, void *share) {
    pthread_mutex_lock(&table_lock);
    // A context id reused after a destroy we did not see starts afresh.
    context_rec *old = find_context(wsi, dpy, ctx);
    if (old) {
        remove_context(old);
    }
    context_rec *s = share ? find_context(wsi, dpy, share) : NULL;
    if (share && !s) {
        // The share context predates us: give it a group now, so both join it.
        s = add_context(wsi, dpy, share, NULL);
    }
    add_context(wsi, dpy, ctx, s ? s->grp : NULL);
    pthread_mutex_unlock(&table_lock);
}

void ip_context_destroyed(ip_wsi wsi, void *dpy, void *ctx, bool current) {
    pthread_mutex_lock(&table_lock);
    context_rec *c = find_context(wsi, dpy, ctx);
    if (c) {
        // The effect runtime's container objects (VAO, FBOs) live on the
        // context that created it: it goes with that context.
        if (c->grp->runtime) {
            ip_runtime_context_gone(c->grp->runtime, ctx, current);
        }
        remove_context(c);
    }
    pthread_mutex_unlock(&table_lock);
}

void ip_context_display_gone(ip_wsi wsi, void *dpy) {
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < IP_MAX_CONTEXTS; i++) {
        if (contexts[i].ctx && contexts[i].wsi == wsi && contexts[i].dpy == dpy) {
            if (contexts[i].grp->runtime) {
                ip_runtime_context_gone(contexts[i].grp->runtime, contexts[i].ctx, false);
            }
            remove_context(&contexts[i]);
        }
    }
    for (int i = 0; i < IP_MAX_DRAWABLES; i++) {
        if (drawables[i].id && drawables[i].wsi == wsi && drawables[i].dpy == dpy) {
            memset(&drawables[i], 0, sizeof(drawables[i]));
        }
    }
    pthread_mutex_unlock(&table_lock);
}

ip_slot *ip_slot_acquire(ip_wsi wsi, void *dpy, void *ctx) {
    pthread_mutex_lock(&table_lock);
    context_rec *c = find_context(wsi, dpy, ctx);
    if (!c) {
        c = add_context(wsi, dpy, ctx, NULL);
    }
    group *g = NULL;
    if (c) {
        if (!c->grp->runtime) {
            c->grp->runtime = ip_runtime_create();
        }
        if (c->grp->runtime) {
            g = c->grp;
            g->refs++;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return g;
}

void ip_slot_release(ip_slot *slot) {
    pthread_mutex_lock(&table_lock);
    slot->refs--;
    // The group's last context may have gone while the frame ran.
    group_unref(slot);
    pthread_mutex_unlock(&table_lock);
}

ip_runtime *ip_slot_runtime(ip_slot *slot) {
    return slot->runtime;
}

// --- drawables ---

static drawable_rec *find_drawable(ip_wsi wsi, void *dpy, uintptr_t id) {
    for (int i = 0; i < IP_MAX_DRAWABLES; i++) {
        drawable_rec *d = &drawables[i];
        if (d->id == id && d->wsi == wsi && d->dpy == dpy) {
            return d;
        }
    }
    return NULL;
}

// Under table_lock: a free record, else the least recently swapped one.
static drawable_rec *new_drawable(ip_wsi wsi, void *dpy, uintptr_t id) {
    drawable_rec *pick = &drawables[0];
    for (int i = 0; i < IP_MAX_DRAWABLES; i++) {
        if (!drawables[i].id) {
            pick = &drawables[i];
            break;
        }
        if (drawables[i].last_use < pick->last_use) {
            pick = &drawables[i];
        }
    }
    *pick = (drawable_rec){.wsi = wsi, .dpy = dpy, .id = id};
    return pick;
}

ip_drawable_state ip_drawable_swap(ip_wsi wsi, void *dpy, uintptr_t id, int width, int height) {
    pthread_mutex_lock(&table_lock);
    drawable_rec *d = find_drawable(wsi, dpy, id);
    bool fresh = d == NULL;
    if (!d) {
        d = new_drawable(wsi, dpy, id);
    }
    bool resized = !fresh && (d->width != width || d->height != height);
    if (fresh || resized) {
        d->generation++;
        d->width = width;
        d->height = height;
    }
    d->swaps++;
    d->last_use = ++swap_clock;
    ip_drawable_state state = {
        .width = d->width,
        .height = d->height,
        .swaps = d->swaps,
        .generation = d->generation,
        .resized = resized,
        .pbuffer = d->pbuffer,
        .native_window = d->native_window,
    };
    pthread_mutex_unlock(&table_lock);
    if (resized) {
        fxgl_log(FXGL_LOG_DEBUG, "drawable 0x%lx resized to %dx%d", (unsigned long)id, width,
                 height);
    }
    return state;
}

void ip_drawable_set_pbuffer(ip_wsi wsi, void *dpy, uintptr_t id) {
    pthread_mutex_lock(&table_lock);
    drawable_rec *d = find_drawable(wsi, dpy, id);
    if (!d) {
        d = new_drawable(wsi, dpy, id);
        d->last_use = ++swap_clock;
    }
    d->pbuffer = true;
    pthread_mutex_unlock(&table_lock);
}

void ip_drawable_set_native(ip_wsi wsi, void *dpy, uintptr_t id, uintptr_t window) {
    pthread_mutex_lock(&table_lock);
    drawable_rec *d = find_drawable(wsi, dpy, id);
    if (!d) {
        d = new_drawable(wsi, dpy, id);
        d->last_use = ++swap_clock;
    }
    d->native_window = window;
    pthread_mutex_unlock(&table_lock);
}

uintptr_t ip_drawable_native(ip_wsi wsi, void *dpy, uintptr_t id) {
    pthread_mutex_lock(&table_lock);
    drawable_rec *d = find_drawable(wsi, dpy, id);
    uintptr_t window = d ? d->native_window : 0;
    pthread_mutex_unlock(&table_lock);
    return window;
}

void ip_drawable_forget(ip_wsi wsi, void *dpy, uintptr_t id) {
    pthread_mutex_lock(&table_lock);
    drawable_rec *d = find_drawable(wsi, dpy, id);
    if (d) {
        memset(d, 0, sizeof(*d));
    }
    pthread_mutex_unlock(&table_lock);
}
