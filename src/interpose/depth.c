/*
 * depth.c - the FBO depth provider's host side: which depth images the
 * program draws into, which one DEPTH gets, and when it is copied.
 *
 * A game draws its scene into framebuffer objects and presents a colour
 * blit, so at swap time the default framebuffer's depth is empty or the
 * UI's. As ReShade's generic depth add-on does on Windows, we watch the
 * program's depth attachments and count, per frame, the draw calls and
 * vertices drawn while each is bound; the one with the most (or a manual
 * choice) is copied into the effects' DEPTH (src/gl/fbo_depth.c), at the end of
 * the frame or just before the program clears it.
 *
 * Hooks: handed out by default (FXGL_DEPTH=off or default: none), like the
 * draw counter's (draws.c): through the lookups (dlsym, glXGetProcAddress,
 * eglGetProcAddress) when the real lookup succeeded and the caller is not a
 * GL library, never exported by name, never in a disabled or blacklisted
 * process. The decision has to be taken at lookup time, before any effect is
 * compiled, so it cannot wait for an effect that binds DEPTH; instead the
 * hooks cost next to nothing until one does (bench/RESULTS.md §10: a draw
 * pays one relaxed load, a bind two stores). The attachment hooks always
 * keep their small tables (attachments are made once, long before an effect
 * may be loaded); the per-draw, per-bind lookup and per-clear work runs only
 * while a loaded effect binds DEPTH (`counting`, set at every frame).
 *
 * Tables are fixed: IP_DEPTH_FBOS framebuffer names (open addressing) and
 * IP_DEPTH_CANDIDATES depth images; the per-frame path allocates nothing.
 * One process-wide set: GL calls of one context come from one thread at a
 * time, and a program drawing with two contexts on two threads would mix
 * its counts (never out of the tables' bounds). Framebuffer names are per
 * context; two contexts with framebuffers of the same name would share an
 * entry (documented in docs/interpose.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"

#define IP_DEPTH_FBOS 1024       // framebuffer names tracked (power of two)
#define IP_DEPTH_CANDIDATES 64   // depth images tracked, the default framebuffer's first
#define IP_DEPTH_EMPTY 0xFFFFFFFFu
#define IP_DEPTH_REDESCRIBE 300  // frames between two descriptions of the same image

// Extension entry points glad does not generate here.
typedef void (*ip_fb_tex_2d_ms_fn)(GLenum, GLenum, GLenum, GLuint, GLint, GLsizei);
typedef void (*ip_discard_fn)(GLenum, GLsizei, const GLenum *);

bool ip_depth_counting;          // relaxed atomic: a loaded effect binds DEPTH

typedef struct ip_depth_fbo {
    GLuint name;                 // IP_DEPTH_EMPTY: free slot
    int cand;                    // its depth attachment's candidate, -1 none
} ip_depth_fbo;

typedef struct ip_depth_cand {
    bool used;
    fxgl_depth_source src;       // index 0: the default framebuffer (src unused)
    uint64_t draws, vertices;    // this frame so far
    uint32_t clears;             // depth clears (and invalidations) this frame so far
    uint64_t draws_since_clear;  // draws since its last clear or copy
    ip_depth_cand_stats last;    // the last complete frame
    uint64_t last_frame;         // the last frame it was drawn into (eviction)
    bool described;              // desc is valid
    bool undescribable;          // describing failed: not chosen until re-attached
    fxgl_depth_desc desc;
} ip_depth_cand;

static struct {
    GLuint draw_fbo, read_fbo;   // the program's bindings as it made them
    int cur;                     // candidate draws count into, -1 none
    ip_depth_fbo fbos[IP_DEPTH_FBOS];
    ip_depth_cand cands[IP_DEPTH_CANDIDATES];
    uint64_t frame;
    int chosen;                  // -1 none, 0 the default framebuffer
    int copies;                  // copies of the chosen image this frame
    ip_depth_options opt;
    bool have_opt;
    // The runtime the copies go to, recorded at each frame (and forgotten with it).
    fxgl_runtime *fx;
    void *ctx;
    void *(*current_ctx)(void);
    int width, height;           // the back buffer's size
} trk = {.cur = 0, .chosen = -1, .opt = {.aspect = true}};

// --- the tables ---

static void tables_init(void) {
    static bool done;
    if (done) {
        return;
    }
    done = true;
    for (int i = 0; i < IP_DEPTH_FBOS; i++) {
        trk.fbos[i].name = IP_DEPTH_EMPTY;
        trk.fbos[i].cand = -1;
    }
    trk.cands[0].used = true; // the default framebuffer
    trk.cur = 0;
}

static ip_depth_fbo *fbo_find(GLuint name, bool add) {
    tables_init();
    uint32_t h = (name * 2654435761u) & (IP_DEPTH_FBOS - 1);
    for (int i = 0; i < IP_DEPTH_FBOS; i++) {
        ip_depth_fbo *f = &trk.fbos[(h + (uint32_t)i) & (IP_DEPTH_FBOS - 1)];
        if (f->name == name) {
            return f;
        }
        if (f->name == IP_DEPTH_EMPTY) {
            if (!add) {
                return NULL;
            }
            f->name = name;
            f->cand = -1;
            return f;
        }
    }
    FXGL_LOG_ONCE(FXGL_LOG_INFO, "depth: more than %d framebuffers: the others are not "
                  "tracked", IP_DEPTH_FBOS);
    return NULL;
}

// Deleting from open addressing: the run after the slot is re-inserted.
static void fbo_forget(GLuint name) {
    ip_depth_fbo *f = fbo_find(name, false);
    if (!f) {
        return;
    }
    f->name = IP_DEPTH_EMPTY;
    f->cand = -1;
    size_t i = (size_t)(f - trk.fbos);
    for (size_t k = (i + 1) & (IP_DEPTH_FBOS - 1); trk.fbos[k].name != IP_DEPTH_EMPTY;
         k = (k + 1) & (IP_DEPTH_FBOS - 1)) {
        ip_depth_fbo moved = trk.fbos[k];
        trk.fbos[k].name = IP_DEPTH_EMPTY;
        ip_depth_fbo *to = fbo_find(moved.name, true);
        if (to) {
            to->cand = moved.cand;
        }
    }
}

static bool same_source(const fxgl_depth_source *a, const fxgl_depth_source *b) {
    return a->name == b->name && a->renderbuffer == b->renderbuffer && a->level == b->level &&
           a->layer == b->layer && a->target == b->target;
}

// The candidate of an image, added (evicting the longest unused) when new.
static int cand_of(const fxgl_depth_source *src) {
    tables_init();
    int free_slot = -1, oldest = -1;
    for (int i = 1; i < IP_DEPTH_CANDIDATES; i++) {
        ip_depth_cand *c = &trk.cands[i];
        if (!c->used) {
            free_slot = free_slot < 0 ? i : free_slot;
            continue;
        }
        if (same_source(&c->src, src)) {
            // Engines re-attach every frame: the description stays (a failed copy
            // asks again), and one that could not be described is not asked again.
            return i;
        }
        if (i != trk.chosen && (oldest < 0 || c->last_frame < trk.cands[oldest].last_frame)) {
            oldest = i;
        }
    }
    int i = free_slot >= 0 ? free_slot : oldest;
    if (i < 0) {
        return -1;
    }
    if (free_slot < 0) {
        // Framebuffers still pointing at the evicted image lose it.
        for (int k = 0; k < IP_DEPTH_FBOS; k++) {
            if (trk.fbos[k].cand == i) {
                trk.fbos[k].cand = -1;
            }
        }
    }
    memset(&trk.cands[i], 0, sizeof(trk.cands[i]));
    trk.cands[i].used = true;
    trk.cands[i].src = *src;
    trk.cands[i].last_frame = trk.frame;
    return i;
}

static void update_cur(void) {
    if (trk.draw_fbo == 0) {
        trk.cur = 0;
        return;
    }
    ip_depth_fbo *f = fbo_find(trk.draw_fbo, false);
    trk.cur = f ? f->cand : -1;
}

// --- what the hooks record ---

static bool depth_attachment(GLenum attachment) {
    return attachment == GL_DEPTH_ATTACHMENT || attachment == GL_DEPTH_STENCIL_ATTACHMENT;
}

static GLuint bound(GLenum target) {
    return target == GL_READ_FRAMEBUFFER ? trk.read_fbo : trk.draw_fbo;
}

static void note_attach(GLuint fbo, GLenum attachment, const fxgl_depth_source *src) {
    if (fbo == 0 || !depth_attachment(attachment)) {
        return;
    }
    ip_depth_fbo *f = fbo_find(fbo, true);
    if (!f) {
        return;
    }
    f->cand = src->name ? cand_of(src) : -1;
    if (fbo == trk.draw_fbo) {
        update_cur();
    }
}

// While nothing counts, a bind only records the name: the framebuffer's
// candidate is looked up when counting starts (ip_depth_frame), so a program
// whose effects do not read DEPTH pays two stores per bind, not a lookup.
static void note_bind(GLenum target, GLuint fbo) {
    if (target == GL_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER) {
        trk.read_fbo = fbo;
    }
    if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) {
        trk.draw_fbo = fbo;
        if (__atomic_load_n(&ip_depth_counting, __ATOMIC_RELAXED)) {
            update_cur();
        }
    }
}

void ip_depth_count(uint64_t vertices) {
    int c = trk.cur;
    if (c < 0 || c >= IP_DEPTH_CANDIDATES) {
        return;
    }
    trk.cands[c].draws++;
    trk.cands[c].vertices += vertices;
    trk.cands[c].draws_since_clear++;
    trk.cands[c].last_frame = trk.frame;
}

static bool copy_chosen(void);

// Before the program clears (or invalidates) candidate c's depth.
static void before_clear(int c) {
    if (!__atomic_load_n(&ip_depth_counting, __ATOMIC_RELAXED) || c < 0 ||
        c >= IP_DEPTH_CANDIDATES) {
        return;
    }
    ip_depth_cand *k = &trk.cands[c];
    k->clears++;
    bool had_draws = k->draws_since_clear > 0;
    k->draws_since_clear = 0;
    if (c != trk.chosen || c == 0 || !trk.opt.copy_before_clear) {
        return;
    }
    // Index 0: before every clear that follows draws, so the frame keeps the
    // last filled state; N: before the N-th clear of the frame only.
    if (trk.opt.clear_index ? k->clears == trk.opt.clear_index : had_draws) {
        copy_chosen();
    }
}

static int cand_of_named(GLuint fbo) {
    if (fbo == 0) {
        return 0;
    }
    ip_depth_fbo *f = fbo_find(fbo, false);
    return f ? f->cand : -1;
}

static bool lists_depth(GLsizei n, const GLenum *attachments, bool default_fb) {
    for (GLsizei i = 0; attachments && i < n; i++) {
        GLenum a = attachments[i];
        if (default_fb ? a == GL_DEPTH : depth_attachment(a)) {
            return true;
        }
    }
    return false;
}

// --- the hooks ---

typedef struct ip_depth_slot {
    const char *name;
    void *real;                  // set once (atomic), then read by the hook
    void *hook;
} ip_depth_slot;

enum {
    H_BIND, H_BIND_EXT, H_TEX, H_TEX_1D, H_TEX_2D, H_TEX_2D_EXT, H_TEX_3D, H_TEX_LAYER,
    H_TEX_2D_MS_EXT, H_RB, H_RB_EXT, H_NAMED_TEX, H_NAMED_TEX_LAYER, H_NAMED_RB, H_DELETE,
    H_DELETE_EXT, H_CLEAR, H_CLEAR_FV, H_CLEAR_FI, H_CLEAR_NAMED_FV, H_CLEAR_NAMED_FI,
    H_INVALIDATE, H_INVALIDATE_SUB, H_INVALIDATE_NAMED, H_INVALIDATE_NAMED_SUB, H_DISCARD_EXT,
    H_COUNT
};

static ip_depth_slot slots[H_COUNT];

#define REAL(i, type) IP_FN(type, __atomic_load_n(&slots[i].real, __ATOMIC_ACQUIRE))

static void hook_BindFramebuffer(GLenum t, GLuint f) {
    note_bind(t, f);
    REAL(H_BIND, PFNGLBINDFRAMEBUFFERPROC)(t, f);
}
static void hook_BindFramebufferEXT(GLenum t, GLuint f) {
    note_bind(t, f);
    REAL(H_BIND_EXT, PFNGLBINDFRAMEBUFFERPROC)(t, f);
}

static void attach_tex(GLenum fb_target, GLenum a, GLenum tex_target, GLuint tex, GLint level,
                       GLint layer) {
    fxgl_depth_source s = {.name = tex, .target = tex_target, .level = level, .layer = layer};
    note_attach(bound(fb_target), a, &s);
}
static void attach_rb(GLuint fbo, GLenum a, GLuint rb) {
    fxgl_depth_source s = {.name = rb, .renderbuffer = true};
    note_attach(fbo, a, &s);
}

// glFramebufferTexture names no target: layered attachments read layer 0,
// and src/gl asks the texture for its target.
static void hook_FramebufferTexture(GLenum t, GLenum a, GLuint tex, GLint l) {
    attach_tex(t, a, 0, tex, l, 0);
    REAL(H_TEX, PFNGLFRAMEBUFFERTEXTUREPROC)(t, a, tex, l);
}
static void hook_FramebufferTexture1D(GLenum t, GLenum a, GLenum tt, GLuint tex, GLint l) {
    attach_tex(t, a, tt, tex, l, 0);
    REAL(H_TEX_1D, PFNGLFRAMEBUFFERTEXTURE1DPROC)(t, a, tt, tex, l);
}
static void hook_FramebufferTexture2D(GLenum t, GLenum a, GLenum tt, GLuint tex, GLint l) {
    attach_tex(t, a, tt, tex, l, 0);
    REAL(H_TEX_2D, PFNGLFRAMEBUFFERTEXTURE2DPROC)(t, a, tt, tex, l);
}
static void hook_FramebufferTexture2DEXT(GLenum t, GLenum a, GLenum tt, GLuint tex, GLint l) {
    attach_tex(t, a, tt, tex, l, 0);
    REAL(H_TEX_2D_EXT, PFNGLFRAMEBUFFERTEXTURE2DPROC)(t, a, tt, tex, l);
}
static void hook_FramebufferTexture3D(GLenum t, GLenum a, GLenum tt, GLuint tex, GLint l,
                                      GLint z) {
    attach_tex(t, a, tt, tex, l, z);
    REAL(H_TEX_3D, PFNGLFRAMEBUFFERTEXTURE3DPROC)(t, a, tt, tex, l, z);
}
// A slice of an array, cube-array or 3D texture (or of a texture view):
// the target is asked at copy time.
static void hook_FramebufferTextureLayer(GLenum t, GLenum a, GLuint tex, GLint l, GLint layer) {
    attach_tex(t, a, GL_TEXTURE_2D_ARRAY, tex, l, layer);
    REAL(H_TEX_LAYER, PFNGLFRAMEBUFFERTEXTURELAYERPROC)(t, a, tex, l, layer);
}
// GLES's multisampled rendering into a single-sample texture: the texture is what stays.
static void hook_FramebufferTexture2DMultisampleEXT(GLenum t, GLenum a, GLenum tt, GLuint tex,
                                                    GLint l, GLsizei samples) {
    attach_tex(t, a, tt, tex, l, 0);
    REAL(H_TEX_2D_MS_EXT, ip_fb_tex_2d_ms_fn)(t, a, tt, tex, l, samples);
}
static void hook_FramebufferRenderbuffer(GLenum t, GLenum a, GLenum rt, GLuint rb) {
    attach_rb(bound(t), a, rb);
    REAL(H_RB, PFNGLFRAMEBUFFERRENDERBUFFERPROC)(t, a, rt, rb);
}
static void hook_FramebufferRenderbufferEXT(GLenum t, GLenum a, GLenum rt, GLuint rb) {
    attach_rb(bound(t), a, rb);
    REAL(H_RB_EXT, PFNGLFRAMEBUFFERRENDERBUFFERPROC)(t, a, rt, rb);
}
static void hook_NamedFramebufferTexture(GLuint f, GLenum a, GLuint tex, GLint l) {
    fxgl_depth_source s = {.name = tex, .level = l};
    note_attach(f, a, &s);
    REAL(H_NAMED_TEX, PFNGLNAMEDFRAMEBUFFERTEXTUREPROC)(f, a, tex, l);
}
static void hook_NamedFramebufferTextureLayer(GLuint f, GLenum a, GLuint tex, GLint l,
                                              GLint layer) {
    fxgl_depth_source s = {.name = tex, .target = GL_TEXTURE_2D_ARRAY, .level = l,
                           .layer = layer};
    note_attach(f, a, &s);
    REAL(H_NAMED_TEX_LAYER, PFNGLNAMEDFRAMEBUFFERTEXTURELAYERPROC)(f, a, tex, l, layer);
}
static void hook_NamedFramebufferRenderbuffer(GLuint f, GLenum a, GLenum rt, GLuint rb) {
    attach_rb(f, a, rb);
    REAL(H_NAMED_RB, PFNGLNAMEDFRAMEBUFFERRENDERBUFFERPROC)(f, a, rt, rb);
}
static void forget_fbos(GLsizei n, const GLuint *names) {
    for (GLsizei i = 0; names && i < n; i++) {
        if (names[i]) {
            fbo_forget(names[i]);
        }
        if (names[i] && names[i] == trk.draw_fbo) {
            trk.draw_fbo = 0; // deleting a bound framebuffer binds 0
            update_cur();
        }
        if (names[i] && names[i] == trk.read_fbo) {
            trk.read_fbo = 0;
        }
    }
}
static void hook_DeleteFramebuffers(GLsizei n, const GLuint *f) {
    forget_fbos(n, f);
    REAL(H_DELETE, PFNGLDELETEFRAMEBUFFERSPROC)(n, f);
}
static void hook_DeleteFramebuffersEXT(GLsizei n, const GLuint *f) {
    forget_fbos(n, f);
    REAL(H_DELETE_EXT, PFNGLDELETEFRAMEBUFFERSPROC)(n, f);
}
static void hook_Clear(GLbitfield mask) {
    if (mask & GL_DEPTH_BUFFER_BIT) {
        before_clear(trk.cur);
    }
    REAL(H_CLEAR, PFNGLCLEARPROC)(mask);
}
static void hook_ClearBufferfv(GLenum b, GLint i, const GLfloat *v) {
    if (b == GL_DEPTH) {
        before_clear(trk.cur);
    }
    REAL(H_CLEAR_FV, PFNGLCLEARBUFFERFVPROC)(b, i, v);
}
static void hook_ClearBufferfi(GLenum b, GLint i, GLfloat d, GLint s) {
    if (b == GL_DEPTH_STENCIL) {
        before_clear(trk.cur);
    }
    REAL(H_CLEAR_FI, PFNGLCLEARBUFFERFIPROC)(b, i, d, s);
}
static void hook_ClearNamedFramebufferfv(GLuint f, GLenum b, GLint i, const GLfloat *v) {
    if (b == GL_DEPTH) {
        before_clear(cand_of_named(f));
    }
    REAL(H_CLEAR_NAMED_FV, PFNGLCLEARNAMEDFRAMEBUFFERFVPROC)(f, b, i, v);
}
static void hook_ClearNamedFramebufferfi(GLuint f, GLenum b, GLint i, GLfloat d, GLint s) {
    if (b == GL_DEPTH_STENCIL) {
        before_clear(cand_of_named(f));
    }
    REAL(H_CLEAR_NAMED_FI, PFNGLCLEARNAMEDFRAMEBUFFERFIPROC)(f, b, i, d, s);
}
// Invalidating leaves the contents undefined: as much a hazard as a clear.
static void hook_InvalidateFramebuffer(GLenum t, GLsizei n, const GLenum *a) {
    if (lists_depth(n, a, bound(t) == 0)) {
        before_clear(cand_of_named(bound(t)));
    }
    REAL(H_INVALIDATE, PFNGLINVALIDATEFRAMEBUFFERPROC)(t, n, a);
}
static void hook_InvalidateSubFramebuffer(GLenum t, GLsizei n, const GLenum *a, GLint x, GLint y,
                                          GLsizei w, GLsizei h) {
    if (lists_depth(n, a, bound(t) == 0)) {
        before_clear(cand_of_named(bound(t)));
    }
    REAL(H_INVALIDATE_SUB, PFNGLINVALIDATESUBFRAMEBUFFERPROC)(t, n, a, x, y, w, h);
}
static void hook_InvalidateNamedFramebufferData(GLuint f, GLsizei n, const GLenum *a) {
    if (lists_depth(n, a, f == 0)) {
        before_clear(cand_of_named(f));
    }
    REAL(H_INVALIDATE_NAMED, PFNGLINVALIDATENAMEDFRAMEBUFFERDATAPROC)(f, n, a);
}
static void hook_InvalidateNamedFramebufferSubData(GLuint f, GLsizei n, const GLenum *a, GLint x,
                                                   GLint y, GLsizei w, GLsizei h) {
    if (lists_depth(n, a, f == 0)) {
        before_clear(cand_of_named(f));
    }
    REAL(H_INVALIDATE_NAMED_SUB, PFNGLINVALIDATENAMEDFRAMEBUFFERSUBDATAPROC)(f, n, a, x, y, w,
                                                                             h);
}
static void hook_DiscardFramebufferEXT(GLenum t, GLsizei n, const GLenum *a) {
    // EXT_discard_framebuffer names the default framebuffer's depth GL_DEPTH_EXT (= GL_DEPTH).
    if (lists_depth(n, a, bound(t) == 0)) {
        before_clear(cand_of_named(bound(t)));
    }
    REAL(H_DISCARD_EXT, ip_discard_fn)(t, n, a);
}

static ip_depth_slot slots[H_COUNT] = {
#define SLOT(i, name) [i] = {"gl" #name, NULL, IP_PTR(hook_##name)}
    SLOT(H_BIND, BindFramebuffer),
    SLOT(H_BIND_EXT, BindFramebufferEXT),
    SLOT(H_TEX, FramebufferTexture),
    SLOT(H_TEX_1D, FramebufferTexture1D),
    SLOT(H_TEX_2D, FramebufferTexture2D),
    SLOT(H_TEX_2D_EXT, FramebufferTexture2DEXT),
    SLOT(H_TEX_3D, FramebufferTexture3D),
    SLOT(H_TEX_LAYER, FramebufferTextureLayer),
    SLOT(H_TEX_2D_MS_EXT, FramebufferTexture2DMultisampleEXT),
    SLOT(H_RB, FramebufferRenderbuffer),
    SLOT(H_RB_EXT, FramebufferRenderbufferEXT),
    SLOT(H_NAMED_TEX, NamedFramebufferTexture),
    SLOT(H_NAMED_TEX_LAYER, NamedFramebufferTextureLayer),
    SLOT(H_NAMED_RB, NamedFramebufferRenderbuffer),
    SLOT(H_DELETE, DeleteFramebuffers),
    SLOT(H_DELETE_EXT, DeleteFramebuffersEXT),
    SLOT(H_CLEAR, Clear),
    SLOT(H_CLEAR_FV, ClearBufferfv),
    SLOT(H_CLEAR_FI, ClearBufferfi),
    SLOT(H_CLEAR_NAMED_FV, ClearNamedFramebufferfv),
    SLOT(H_CLEAR_NAMED_FI, ClearNamedFramebufferfi),
    SLOT(H_INVALIDATE, InvalidateFramebuffer),
    SLOT(H_INVALIDATE_SUB, InvalidateSubFramebuffer),
    SLOT(H_INVALIDATE_NAMED, InvalidateNamedFramebufferData),
    SLOT(H_INVALIDATE_NAMED_SUB, InvalidateNamedFramebufferSubData),
    SLOT(H_DISCARD_EXT, DiscardFramebufferEXT),
#undef SLOT
};

IP_NO_ASAN static ip_depth_slot *find(const char *name) {
    // The cheap test first: every other lookup of the program leaves here.
    if (name[0] != 'g' || name[1] != 'l') {
        return NULL;
    }
    char c = name[2];
    if (c != 'B' && c != 'F' && c != 'N' && c != 'D' && c != 'C' && c != 'I') {
        return NULL;
    }
    for (int i = 0; i < H_COUNT; i++) {
        if (strcmp(slots[i].name, name) == 0) {
            return &slots[i];
        }
    }
    return NULL;
}

// FXGL_DEPTH unset, auto or fbo, in a process whose frames fxgl processes.
static bool hooks_on(void) {
    const ip_config *cfg = ip_config_get();
    return cfg->depth_fbo && !cfg->disabled;
}

IP_NO_ASAN void *ip_depth_hook_for(const char *name) {
    // Every dlsym comes here, the sanitizer runtime's own before it is initialised
    // (reading the configuration then allocates and crashes): the name first.
    ip_depth_slot *s = find(name);
    return s && hooks_on() ? s->hook : NULL;
}

IP_NO_ASAN void *ip_depth_bind(const char *name, void *real) {
    ip_depth_slot *s = find(name);
    if (!s || !real) {
        return real;
    }
    void *expected = NULL;
    if (!__atomic_compare_exchange_n(&s->real, &expected, real, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE) &&
        expected != real) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "FXGL_DEPTH: a second %s (another vendor) is not tracked",
                      name);
        return real;
    }
    return s->hook;
}

// --- choosing and copying ---

void ip_depth_set_options(const ip_depth_options *opt) {
    trk.opt = *opt;
    trk.have_opt = true;
}

void ip_depth_get_options(ip_depth_options *opt) {
    *opt = trk.opt;
}

static bool copy_chosen(void) {
    int c = trk.chosen;
    if (c <= 0 || !trk.fx || !trk.cands[c].described) {
        return false;
    }
    // Only on the context the runtime lives on (another context's names differ).
    if (trk.current_ctx && trk.current_ctx() != trk.ctx) {
        return false;
    }
    if (!fxgl_depth_copy(trk.fx, &trk.cands[c].src, &trk.cands[c].desc)) {
        trk.cands[c].described = false; // gone or respecified: asked again next frame
        return false;
    }
    trk.copies++;
    return true;
}

// The back buffer's aspect ratio within 5 %, and at least half its width
// (shadow maps and reduced-size passes are not the scene's depth).
static bool matches_back_buffer(const fxgl_depth_desc *d) {
    if (trk.width <= 0 || trk.height <= 0 || d->height <= 0) {
        return true;
    }
    double want = (double)trk.width / trk.height, have = (double)d->width / d->height;
    return have > want * 0.95 && have < want * 1.05 && d->width * 2 >= trk.width;
}

static bool describe(int i) {
    ip_depth_cand *c = &trk.cands[i];
    if (i == 0) {
        return true;
    }
    if (!c->described && !c->undescribable) {
        c->described = fxgl_depth_describe(trk.fx, &c->src, &c->desc);
        c->undescribable = !c->described;
    }
    return c->described;
}

static int choose(void) {
    if (trk.opt.selected[0] && strcmp(trk.opt.selected, "auto") != 0) {
        for (int i = 0; i < IP_DEPTH_CANDIDATES; i++) {
            char key[64];
            if (trk.cands[i].used && ip_depth_key(i, key, sizeof(key)) &&
                strcmp(key, trk.opt.selected) == 0) {
                return describe(i) ? i : -1;
            }
        }
        return -1; // not seen (yet): nothing rather than another
    }
    int best = -1;
    uint64_t best_n = 0;
    for (int i = 0; i < IP_DEPTH_CANDIDATES; i++) {
        ip_depth_cand *c = &trk.cands[i];
        uint64_t n = trk.opt.by_vertices ? c->last.vertices : c->last.draws;
        if (!c->used || n == 0 || n <= best_n || !describe(i)) {
            continue;
        }
        if (i > 0 && trk.opt.aspect && !matches_back_buffer(&c->desc)) {
            continue;
        }
        best = i;
        best_n = n;
    }
    return best;
}

bool ip_depth_key(int i, char *out, size_t size) {
    if (i < 0 || i >= IP_DEPTH_CANDIDATES || !trk.cands[i].used) {
        return false;
    }
    const fxgl_depth_source *s = &trk.cands[i].src;
    if (i == 0) {
        snprintf(out, size, "default");
    } else if (s->renderbuffer) {
        snprintf(out, size, "renderbuffer:%u", s->name);
    } else {
        snprintf(out, size, "texture:%u:%d:%d", s->name, s->level, s->layer);
    }
    return true;
}

void ip_depth_frame(fxgl_runtime *fx, ip_wsi wsi, void *ctx, int width, int height) {
    bool uses = fx && fxgl_runtime_uses_depth(fx) && hooks_on();
    bool was_counting = __atomic_exchange_n(&ip_depth_counting, uses, __ATOMIC_RELAXED);
    if (!uses) {
        return;
    }
    tables_init();
    if (!was_counting) {
        update_cur(); // binds made while nothing counted recorded the name only
    }
    if (trk.fx != fx || trk.ctx != ctx) {
        trk.fx = fx;
        trk.ctx = ctx;
        trk.current_ctx = IP_FN(void *(*)(void),
                                wsi == IP_WSI_GLX ? ip_real_glx_terminal("glXGetCurrentContext")
                                                  : ip_real_egl_terminal("eglGetCurrentContext"));
        for (int i = 1; i < IP_DEPTH_CANDIDATES; i++) {
            trk.cands[i].described = trk.cands[i].undescribable = false;
        }
    }
    // Games recreate their targets when the window's size changes, often under the
    // same names, and may respecify one any time: descriptions are asked again then,
    // and every IP_DEPTH_REDESCRIBE frames (a few GL queries per image).
    // (One that could not be described is asked again only after a resize: asking may
    // have been what failed.)
    bool resized = trk.width != width || trk.height != height;
    if (resized || trk.frame % IP_DEPTH_REDESCRIBE == 0) {
        for (int i = 1; i < IP_DEPTH_CANDIDATES; i++) {
            trk.cands[i].described = false;
            trk.cands[i].undescribable = trk.cands[i].undescribable && !resized;
        }
    }
    trk.width = width;
    trk.height = height;
    for (int i = 0; i < IP_DEPTH_CANDIDATES; i++) {
        ip_depth_cand *c = &trk.cands[i];
        c->last = (ip_depth_cand_stats){c->draws, c->vertices, c->clears};
        c->draws = c->vertices = 0;
        c->clears = 0;
    }
    // Described once each (cached until re-attached): sizes for the aspect
    // filter, and for `fxgl ctl depth` whichever is chosen.
    for (int i = 1; i < IP_DEPTH_CANDIDATES; i++) {
        if (trk.cands[i].used && trk.cands[i].last.draws > 0) {
            describe(i);
        }
    }
    int was = trk.chosen;
    trk.chosen = choose();
    if (trk.chosen != was) {
        char key[64] = "none";
        ip_depth_key(trk.chosen, key, sizeof(key));
        fxgl_log(FXGL_LOG_INFO, "depth: DEPTH now reads %s", key);
    }
    if (trk.chosen <= 0) {
        fxgl_depth_use_default(fx);
    } else if (!trk.opt.copy_before_clear || trk.copies == 0) {
        // The end of the frame (also when no clear came where one was expected).
        copy_chosen();
    }
    trk.copies = 0;
    trk.frame++;
}

void ip_depth_runtime_gone(fxgl_runtime *fx) {
    if (trk.fx == fx) {
        trk.fx = NULL;
        trk.ctx = NULL;
        __atomic_store_n(&ip_depth_counting, false, __ATOMIC_RELAXED);
    }
}

size_t ip_depth_list(ip_depth_row *rows, size_t max, bool *counting) {
    size_t n = 0;
    *counting = __atomic_load_n(&ip_depth_counting, __ATOMIC_RELAXED);
    for (int i = 0; i < IP_DEPTH_CANDIDATES && n < max; i++) {
        const ip_depth_cand *c = &trk.cands[i];
        if (!c->used || (i > 0 && c->last.draws == 0 && i != trk.chosen)) {
            continue;
        }
        ip_depth_row *r = &rows[n++];
        memset(r, 0, sizeof(*r));
        r->index = i;
        ip_depth_key(i, r->key, sizeof(r->key));
        if (c->described) {
            r->width = c->desc.width;
            r->height = c->desc.height;
            r->samples = c->desc.samples;
            r->format = c->desc.format;
        }
        if (i == 0) {
            r->width = trk.width;
            r->height = trk.height;
        }
        r->stats = c->last;
        r->chosen = i == trk.chosen;
        r->renderbuffer = c->src.renderbuffer;
    }
    return n;
}

// --- what `fxgl ctl depth` and FXGL_DUMP show ---

static const char *format_name(uint32_t f) {
    switch (f) {
    case GL_DEPTH_COMPONENT16: return "DEPTH_COMPONENT16";
    case GL_DEPTH_COMPONENT24: return "DEPTH_COMPONENT24";
    case GL_DEPTH_COMPONENT32: return "DEPTH_COMPONENT32";
    case GL_DEPTH_COMPONENT32F: return "DEPTH_COMPONENT32F";
    case GL_DEPTH24_STENCIL8: return "DEPTH24_STENCIL8";
    case GL_DEPTH32F_STENCIL8: return "DEPTH32F_STENCIL8";
    default: return "format unknown";
    }
}

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *at = buf && *len < size ? buf + *len : NULL;
    int n = vsnprintf(at, at ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        *len += (size_t)n;
    }
}

size_t ip_depth_describe(char *buf, size_t size, const char *sep) {
    size_t len = 0;
    if (buf && size) {
        buf[0] = 0;
    }
    if (!hooks_on()) {
        append(buf, size, &len, "depth: the default framebuffer's (FXGL_DEPTH=off: the "
               "program's depth attachments are not tracked)");
        return len;
    }
    ip_depth_row rows[IP_DEPTH_CANDIDATES];
    bool counting = false;
    size_t n = ip_depth_list(rows, IP_DEPTH_CANDIDATES, &counting);
    const ip_depth_options *o = &trk.opt;
    char when[48] = "at frame end";
    if (o->copy_before_clear && o->clear_index) {
        snprintf(when, sizeof(when), "before clear %u", o->clear_index);
    } else if (o->copy_before_clear) {
        snprintf(when, sizeof(when), "before every clear after draws");
    }
    append(buf, size, &len, "depth: %s, by %s, aspect filter %s, copy %s, selected %s",
           counting ? "counting (an effect binds DEPTH)" : "not counting (no effect binds DEPTH)",
           o->by_vertices ? "vertices" : "draws", o->aspect ? "on" : "off", when,
           o->selected[0] ? o->selected : "auto");
    for (size_t i = 0; i < n; i++) {
        const ip_depth_row *r = &rows[i];
        // The chosen one marked at the start too: the overlay cuts long lines.
        append(buf, size, &len, "%s%s%d %s %dx%d %s samples %d: draws %llu, vertices %llu, "
               "clears %u%s", sep, r->chosen ? "* " : "", r->index, r->key, r->width, r->height,
               r->index == 0 ? "window" : format_name(r->format), r->samples,
               (unsigned long long)r->stats.draws, (unsigned long long)r->stats.vertices,
               r->stats.clears, r->chosen ? " (chosen)" : "");
    }
    return len;
}

size_t ip_depth_dump(void *user, char *buf, size_t size) {
    (void)user;
    if (!hooks_on() || !__atomic_load_n(&ip_depth_counting, __ATOMIC_RELAXED)) {
        return 0; // no effect reads DEPTH: the dump stays as it was
    }
    size_t len = ip_depth_describe(buf, size, "\n  ");
    if (buf && len + 1 < size) {
        buf[len] = '\n';
        buf[len + 1] = 0;
    }
    return len + 1;
}

static bool parse_on(const char *v, bool *out) {
    if (strcmp(v, "on") == 0 || strcmp(v, "1") == 0) {
        *out = true;
    } else if (strcmp(v, "off") == 0 || strcmp(v, "0") == 0) {
        *out = false;
    } else {
        return false;
    }
    return true;
}

bool ip_depth_command(const char *line, char *reply, size_t size) {
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "depth", 5) != 0 || (p[5] && p[5] != ' ' && p[5] != '\t')) {
        return false;
    }
    char verb[16] = "", arg[64] = "";
    sscanf(p + 5, "%15s %63s", verb, arg);
    if (!verb[0]) {
        ip_depth_describe(reply, size, " | ");
        return true;
    }
    if (!hooks_on()) {
        snprintf(reply, size, "error: FXGL_DEPTH=off: the program's depth "
                 "attachments are not tracked; nothing changed");
        return true;
    }
    ip_depth_options o = trk.opt;
    bool ok = true;
    if (strcmp(verb, "select") == 0) {
        char *end = NULL;
        long n = strtol(arg, &end, 10);
        if (strcmp(arg, "auto") == 0) {
            o.selected[0] = 0;
        } else if (arg[0] && end && !*end) {
            ok = n >= 0 && n < IP_DEPTH_CANDIDATES &&
                 ip_depth_key((int)n, o.selected, sizeof(o.selected));
        } else {
            ok = false;
        }
    } else if (strcmp(verb, "by") == 0) {
        ok = strcmp(arg, "draws") == 0 || strcmp(arg, "vertices") == 0;
        o.by_vertices = strcmp(arg, "vertices") == 0;
    } else if (strcmp(verb, "aspect") == 0) {
        ok = parse_on(arg, &o.aspect);
    } else if (strcmp(verb, "clear") == 0) {
        char *end = NULL;
        long n = strtol(arg, &end, 10);
        if (strcmp(arg, "off") == 0) {
            o.copy_before_clear = false;
        } else if (arg[0] && end && !*end && n >= 0) {
            o.copy_before_clear = true;
            o.clear_index = (uint32_t)n;
        } else {
            ok = false;
        }
    } else {
        ok = false;
    }
    if (!ok) {
        snprintf(reply, size, "error: depth [select N|auto | by draws|vertices | aspect on|off "
                 "| clear off|N]: '%s %s' not understood; nothing changed", verb, arg);
        return true;
    }
    trk.opt = o;
    bool saved = ip_effect_host_save_depth(&o);
    size_t len = 0;
    append(reply, size, &len, "%s; ", saved ? "saved to the configuration"
                                            : "not saved (no configuration file to write)");
    ip_depth_describe(reply + len, len < size ? size - len : 0, " | ");
    return true;
}
