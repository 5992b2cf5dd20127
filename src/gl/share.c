/*
 * share.c - GL objects shared by the runtimes of one share group.
 *
 * GL shares programs, shaders, textures, buffers, samplers and renderbuffers between the
 * contexts of a share group, not container objects (framebuffers, vertex arrays, program
 * pipelines, transform feedback, queries). A program with contexts in one group (two
 * windows, a loader context and a render context) runs one runtime per context that
 * presents, each with its own containers; what is expensive to make and the same for
 * every context is made once per group and kept here:
 *   - linked programs, keyed by their stages' GLSL (and the one context property that
 *     changes the source the driver sees, stand-in image formats): a second context
 *     neither compiles nor links;
 *   - textures filled from `source=` images that nothing writes (no render target, no
 *     storage), keyed by their shape and a hash of their pixels: a second context reads
 *     the file but uploads nothing. A changed image hashes differently, so a live reload
 *     gets its new pixels.
 * Render targets, uniform buffers and samplers stay per context: targets carry one
 * window's frame-to-frame state (and two contexts presenting at once must not write one
 * image), uniform buffers one window's per-frame values; samplers cost nothing.
 *
 * Lifetime: every runtime of the group holds a reference to the table and one to each
 * entry it uses. An entry whose last user lets go on a current context of the group is
 * deleted there; one let go without a current context (its context was destroyed while
 * not current) stays a valid GL object of the group and may be taken again. When the
 * last reference to the table goes (the group's last context is gone), only CPU memory
 * is freed: the GL objects die with the group, and no GL call is made on a context that
 * no longer exists.
 */
#include <stdlib.h>
#include <string.h>

#include "gl_runtime.h"

#define GL_SHARE_STAGES 3

typedef struct share_program {
    uint64_t hash;
    char *glsl[GL_SHARE_STAGES]; // owned copies; NULL for an absent stage
    bool emulate;                // stand-in image formats were defined in the source
    GLuint program;
    int refs;                    // runtimes' passes using it (0: kept for the group)
} share_program;

typedef struct share_image {
    uint64_t hash;               // of the shape and the pixels
    GLenum target, internal;
    int width, height, depth, levels, channels;
    GLuint tex, srgb;
    int refs;
} share_image;

struct fxgl_gl_share {
    pthread_mutex_t lock;
    int refs;                    // runtimes and the owner (fxgl_gl_share_create)
    int runtimes;                // runtimes alive in the group (atomic)
    share_program *programs;
    size_t program_count, program_cap;
    share_image *images;
    size_t image_count, image_cap;
};

fxgl_gl_share *fxgl_gl_share_create(void) {
    fxgl_gl_share *s = calloc(1, sizeof(*s));
    if (s) {
        pthread_mutex_init(&s->lock, NULL);
        s->refs = 1;
    }
    return s;
}

void fxgl_gl_share_ref(fxgl_gl_share *s) {
    if (s) {
        pthread_mutex_lock(&s->lock);
        s->refs++;
        pthread_mutex_unlock(&s->lock);
    }
}

void gl_share_runtime_join(fxgl_gl_share *s, int delta) {
    if (s) {
        __atomic_add_fetch(&s->runtimes, delta, __ATOMIC_RELAXED);
    }
}

bool gl_share_crowded(const fxgl_gl_share *s) {
    return s && __atomic_load_n(&s->runtimes, __ATOMIC_RELAXED) > 1;
}

void fxgl_gl_share_unref(fxgl_gl_share *s) {
    if (!s) {
        return;
    }
    pthread_mutex_lock(&s->lock);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&s->lock);
    if (!last) {
        return;
    }
    // The group is gone: its GL objects with it. CPU memory only.
    for (size_t i = 0; i < s->program_count; i++) {
        for (int k = 0; k < GL_SHARE_STAGES; k++) {
            free(s->programs[i].glsl[k]);
        }
    }
    free(s->programs);
    free(s->images);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static uint64_t hash_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull; // FNV-1a
    }
    return h;
}

static uint64_t program_hash(const char *const glsl[GL_SHARE_STAGES], bool emulate) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < GL_SHARE_STAGES; k++) {
        h = hash_bytes(h, glsl[k] ? glsl[k] : "", glsl[k] ? strlen(glsl[k]) + 1 : 1);
    }
    return hash_bytes(h, &emulate, sizeof(emulate));
}

static bool same_program(const share_program *p, uint64_t hash,
                         const char *const glsl[GL_SHARE_STAGES], bool emulate) {
    if (p->hash != hash || p->emulate != emulate) {
        return false;
    }
    for (int k = 0; k < GL_SHARE_STAGES; k++) {
        if (!p->glsl[k] != !glsl[k] || (glsl[k] && strcmp(p->glsl[k], glsl[k]) != 0)) {
            return false;
        }
    }
    return true;
}

bool gl_share_program_has(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES]) {
    fxgl_gl_share *s = rt->share;
    if (!s) {
        return false;
    }
    uint64_t hash = program_hash(glsl, rt->emulate_image_formats);
    bool found = false;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->program_count && !found; i++) {
        found = same_program(&s->programs[i], hash, glsl, rt->emulate_image_formats);
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

GLuint gl_share_program_take(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES]) {
    fxgl_gl_share *s = rt->share;
    if (!s) {
        return 0;
    }
    uint64_t hash = program_hash(glsl, rt->emulate_image_formats);
    GLuint program = 0;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->program_count && !program; i++) {
        share_program *p = &s->programs[i];
        if (same_program(p, hash, glsl, rt->emulate_image_formats)) {
            p->refs++;
            program = p->program;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return program;
}

void gl_share_program_put(fxgl_runtime *rt, const char *const glsl[GL_SHARE_STAGES],
                          GLuint program) {
    fxgl_gl_share *s = rt->share;
    if (!s || !program) {
        return;
    }
    share_program p = {.hash = program_hash(glsl, rt->emulate_image_formats),
                       .emulate = rt->emulate_image_formats, .program = program, .refs = 1};
    bool ok = true;
    for (int k = 0; k < GL_SHARE_STAGES; k++) {
        p.glsl[k] = glsl[k] ? strdup(glsl[k]) : NULL;
        ok = ok && (!glsl[k] || p.glsl[k]);
    }
    pthread_mutex_lock(&s->lock);
    if (ok && s->program_count == s->program_cap) {
        size_t cap = s->program_cap ? s->program_cap * 2 : 16;
        share_program *grown = realloc(s->programs, cap * sizeof(*grown));
        ok = grown != NULL;
        if (ok) {
            s->programs = grown;
            s->program_cap = cap;
        }
    }
    if (ok) {
        s->programs[s->program_count++] = p;
    }
    pthread_mutex_unlock(&s->lock);
    // Another context sees a new object's contents only after this one flushed (GL 4.6
    // §5.3): its frame may come before this context's next swap.
    GLC(rt, Flush());
    if (!ok) {
        // Not listed: the runtime still owns it, and gl_share_program_drop deletes it.
        for (int k = 0; k < GL_SHARE_STAGES; k++) {
            free(p.glsl[k]);
        }
    }
}

// Lets go of a program of this runtime: deleted when no runtime of the group uses it and
// a context of the group is current (with_gl), else kept for the group.
void gl_share_program_drop(fxgl_runtime *rt, GLuint program, bool with_gl) {
    fxgl_gl_share *s = rt->share;
    bool listed = false, unused = false;
    if (s) {
        pthread_mutex_lock(&s->lock);
        for (size_t i = 0; i < s->program_count; i++) {
            share_program *p = &s->programs[i];
            if (p->program == program) {
                listed = true;
                unused = --p->refs <= 0;
                if (unused && with_gl) {
                    for (int k = 0; k < GL_SHARE_STAGES; k++) {
                        free(p->glsl[k]);
                    }
                    s->programs[i] = s->programs[--s->program_count];
                }
                break;
            }
        }
        pthread_mutex_unlock(&s->lock);
    }
    if (with_gl && (!listed || unused)) {
        GLC(rt, DeleteProgram(program));
    }
}

uint64_t gl_share_image_hash(const gl_tex *t, int channels, const void *data, size_t bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    int shape[8] = {(int)t->target, (int)t->internal, t->width, t->height, t->depth,
                    t->levels, channels, 0};
    h = hash_bytes(h, shape, sizeof(shape));
    return hash_bytes(h, data, bytes);
}

static bool same_image(const share_image *m, uint64_t hash, const gl_tex *t, int channels) {
    return m->hash == hash && m->target == t->target && m->internal == t->internal &&
           m->width == t->width && m->height == t->height && m->depth == t->depth &&
           m->levels == t->levels && m->channels == channels;
}

bool gl_share_image_take(fxgl_runtime *rt, gl_tex *t, int channels, uint64_t hash) {
    fxgl_gl_share *s = rt->share;
    bool found = false;
    if (!s) {
        return false;
    }
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->image_count && !found; i++) {
        share_image *m = &s->images[i];
        if (same_image(m, hash, t, channels)) {
            m->refs++;
            t->tex = m->tex;
            t->srgb = m->srgb;
            found = true;
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (found) {
        t->shared = true;
    }
    return found;
}

void gl_share_image_put(fxgl_runtime *rt, gl_tex *t, int channels, uint64_t hash) {
    fxgl_gl_share *s = rt->share;
    if (!s) {
        return;
    }
    pthread_mutex_lock(&s->lock);
    bool ok = true;
    if (s->image_count == s->image_cap) {
        size_t cap = s->image_cap ? s->image_cap * 2 : 16;
        share_image *grown = realloc(s->images, cap * sizeof(*grown));
        ok = grown != NULL;
        if (ok) {
            s->images = grown;
            s->image_cap = cap;
        }
    }
    if (ok) {
        s->images[s->image_count++] = (share_image){
            .hash = hash, .target = t->target, .internal = t->internal, .width = t->width,
            .height = t->height, .depth = t->depth, .levels = t->levels,
            .channels = channels, .tex = t->tex, .srgb = t->srgb, .refs = 1};
    }
    pthread_mutex_unlock(&s->lock);
    GLC(rt, Flush()); // as for programs: visible to the other contexts

    t->shared = ok;
}

// The texture's GL names as gl_share_program_drop does for programs: true when the caller
// must delete them (not listed, or last user with a current context).
bool gl_share_image_drop(fxgl_runtime *rt, const gl_tex *t, bool with_gl) {
    fxgl_gl_share *s = rt->share;
    if (!s || !t->shared) {
        return with_gl;
    }
    bool listed = false, unused = false;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->image_count; i++) {
        share_image *m = &s->images[i];
        if (m->tex == t->tex) {
            listed = true;
            unused = --m->refs <= 0;
            if (unused && with_gl) {
                s->images[i] = s->images[--s->image_count];
            }
            break;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return with_gl && (!listed || unused);
}
