/*
 * draws.c - counting the host program's own draw calls (issue 9), only with
 * FXGL_COUNT_APP_DRAWS=1; the same hooks also feed the FBO depth provider's
 * per-attachment counts (depth.c) with FXGL_DEPTH=fbo.
 *
 * The glDraw* / glMultiDraw* entry points are handed out through the same
 * lookup paths as the other hooks (dlsym, dlvsym, glXGetProcAddress[ARB],
 * eglGetProcAddress: ip_dlsym_substitute), with the same rules: only when
 * the real lookup succeeded and the caller is not a GL library. Each hook
 * adds one to a process-wide counter and calls the real function; the
 * frame statistics (stats.c) read and reset the counter at every swap.
 *
 * Off (the default), nothing is handed out: the program calls the driver
 * directly and pays nothing per draw; a lookup pays one character test.
 * Not exported by name: an export would sit in front of every program that
 * links libGL/libOpenGL directly, on or off. So draws made through the
 * link-time symbols (glxgears-style programs) are not counted, and the
 * column says so by being empty when no lookup went through us.
 *
 * One real function per entry point: glvnd hands every context the same
 * dispatch stub, so one pointer serves all; a second, different pointer
 * for the same name (two vendors in one process) is passed through
 * uncounted rather than mixed up.
 */
#include <string.h>

#include <glad/gl.h>

#include "fxgl_interpose.h"

static uint64_t app_draws;       // relaxed atomic: draws since the last swap
static bool handed_out;          // some hook was returned to the program
static bool counting_draws;      // FXGL_COUNT_APP_DRAWS=1 (the hooks may serve depth.c alone)

// One draw call of v vertices: the draw counter, and the depth provider's
// per-attachment counts while a loaded effect binds DEPTH (depth.c).
#define IP_DRAW_COUNT(v)                                                                 \
    do {                                                                                 \
        if (__atomic_load_n(&counting_draws, __ATOMIC_RELAXED)) {                        \
            __atomic_fetch_add(&app_draws, 1, __ATOMIC_RELAXED);                         \
        }                                                                                \
        ip_depth_draw(v);                                                                \
    } while (0)

static uint64_t sum_counts(const GLsizei *c, GLsizei n) {
    uint64_t v = 0;
    for (GLsizei i = 0; c && i < n; i++) {
        v += c[i] > 0 ? (uint64_t)c[i] : 0;
    }
    return v;
}
#define VERTS(c, n) ((c) > 0 && (n) > 0 ? (uint64_t)(c) * (uint64_t)(n) : 0)

// One slot per entry point: its name, its real function, our hook.
typedef struct ip_draw_slot {
    const char *name;
    void *real;                  // set once (atomic), then read by the hook
    void *hook;
} ip_draw_slot;

enum {
    D_ARRAYS, D_ELEMENTS, D_RANGE, D_ARRAYS_INST, D_ELEMENTS_INST, D_ELEMENTS_BV,
    D_RANGE_BV, D_ELEMENTS_INST_BV, D_ARRAYS_INST_BI, D_ELEMENTS_INST_BI,
    D_ELEMENTS_INST_BV_BI, D_ARRAYS_INDIRECT, D_ELEMENTS_INDIRECT, D_MULTI_ARRAYS,
    D_MULTI_ELEMENTS, D_MULTI_ARRAYS_INDIRECT, D_MULTI_ELEMENTS_INDIRECT,
    D_MULTI_ELEMENTS_BV, D_COUNT
};

static ip_draw_slot slots[D_COUNT];

#define REAL(i, type) IP_FN(type, __atomic_load_n(&slots[i].real, __ATOMIC_ACQUIRE))

static void hook_DrawArrays(GLenum m, GLint f, GLsizei c) {
    IP_DRAW_COUNT(VERTS(c, 1));
    REAL(D_ARRAYS, PFNGLDRAWARRAYSPROC)(m, f, c);
}
static void hook_DrawElements(GLenum m, GLsizei c, GLenum t, const void *i) {
    IP_DRAW_COUNT(VERTS(c, 1));
    REAL(D_ELEMENTS, PFNGLDRAWELEMENTSPROC)(m, c, t, i);
}
static void hook_DrawRangeElements(GLenum m, GLuint s, GLuint e, GLsizei c, GLenum t,
                                   const void *i) {
    IP_DRAW_COUNT(VERTS(c, 1));
    REAL(D_RANGE, PFNGLDRAWRANGEELEMENTSPROC)(m, s, e, c, t, i);
}
static void hook_DrawArraysInstanced(GLenum m, GLint f, GLsizei c, GLsizei n) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ARRAYS_INST, PFNGLDRAWARRAYSINSTANCEDPROC)(m, f, c, n);
}
static void hook_DrawElementsInstanced(GLenum m, GLsizei c, GLenum t, const void *i, GLsizei n) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ELEMENTS_INST, PFNGLDRAWELEMENTSINSTANCEDPROC)(m, c, t, i, n);
}
static void hook_DrawElementsBaseVertex(GLenum m, GLsizei c, GLenum t, const void *i, GLint b) {
    IP_DRAW_COUNT(VERTS(c, 1));
    REAL(D_ELEMENTS_BV, PFNGLDRAWELEMENTSBASEVERTEXPROC)(m, c, t, i, b);
}
static void hook_DrawRangeElementsBaseVertex(GLenum m, GLuint s, GLuint e, GLsizei c, GLenum t,
                                             const void *i, GLint b) {
    IP_DRAW_COUNT(VERTS(c, 1));
    REAL(D_RANGE_BV, PFNGLDRAWRANGEELEMENTSBASEVERTEXPROC)(m, s, e, c, t, i, b);
}
static void hook_DrawElementsInstancedBaseVertex(GLenum m, GLsizei c, GLenum t, const void *i,
                                                 GLsizei n, GLint b) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ELEMENTS_INST_BV, PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXPROC)(m, c, t, i, n, b);
}
static void hook_DrawArraysInstancedBaseInstance(GLenum m, GLint f, GLsizei c, GLsizei n,
                                                 GLuint bi) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ARRAYS_INST_BI, PFNGLDRAWARRAYSINSTANCEDBASEINSTANCEPROC)(m, f, c, n, bi);
}
static void hook_DrawElementsInstancedBaseInstance(GLenum m, GLsizei c, GLenum t, const void *i,
                                                   GLsizei n, GLuint bi) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ELEMENTS_INST_BI, PFNGLDRAWELEMENTSINSTANCEDBASEINSTANCEPROC)(m, c, t, i, n, bi);
}
static void hook_DrawElementsInstancedBaseVertexBaseInstance(GLenum m, GLsizei c, GLenum t,
                                                             const void *i, GLsizei n, GLint b,
                                                             GLuint bi) {
    IP_DRAW_COUNT(VERTS(c, n));
    REAL(D_ELEMENTS_INST_BV_BI, PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXBASEINSTANCEPROC)(
        m, c, t, i, n, b, bi);
}
static void hook_DrawArraysIndirect(GLenum m, const void *p) {
    IP_DRAW_COUNT(0);
    REAL(D_ARRAYS_INDIRECT, PFNGLDRAWARRAYSINDIRECTPROC)(m, p);
}
static void hook_DrawElementsIndirect(GLenum m, GLenum t, const void *p) {
    IP_DRAW_COUNT(0);
    REAL(D_ELEMENTS_INDIRECT, PFNGLDRAWELEMENTSINDIRECTPROC)(m, t, p);
}
// A multi-draw counts as one call: what the program issued, as apitrace
// counts it (the draws inside are the driver's business).
static void hook_MultiDrawArrays(GLenum m, const GLint *f, const GLsizei *c, GLsizei n) {
    IP_DRAW_COUNT(sum_counts(c, n));
    REAL(D_MULTI_ARRAYS, PFNGLMULTIDRAWARRAYSPROC)(m, f, c, n);
}
static void hook_MultiDrawElements(GLenum m, const GLsizei *c, GLenum t, const void *const *i,
                                   GLsizei n) {
    IP_DRAW_COUNT(sum_counts(c, n));
    REAL(D_MULTI_ELEMENTS, PFNGLMULTIDRAWELEMENTSPROC)(m, c, t, i, n);
}
static void hook_MultiDrawArraysIndirect(GLenum m, const void *p, GLsizei n, GLsizei s) {
    IP_DRAW_COUNT(0);
    REAL(D_MULTI_ARRAYS_INDIRECT, PFNGLMULTIDRAWARRAYSINDIRECTPROC)(m, p, n, s);
}
static void hook_MultiDrawElementsIndirect(GLenum m, GLenum t, const void *p, GLsizei n,
                                           GLsizei s) {
    IP_DRAW_COUNT(0);
    REAL(D_MULTI_ELEMENTS_INDIRECT, PFNGLMULTIDRAWELEMENTSINDIRECTPROC)(m, t, p, n, s);
}
static void hook_MultiDrawElementsBaseVertex(GLenum m, const GLsizei *c, GLenum t,
                                             const void *const *i, GLsizei n, const GLint *b) {
    IP_DRAW_COUNT(sum_counts(c, n));
    REAL(D_MULTI_ELEMENTS_BV, PFNGLMULTIDRAWELEMENTSBASEVERTEXPROC)(m, c, t, i, n, b);
}

static ip_draw_slot slots[D_COUNT] = {
#define SLOT(i, name) [i] = {"gl" #name, NULL, IP_PTR(hook_##name)}
    SLOT(D_ARRAYS, DrawArrays),
    SLOT(D_ELEMENTS, DrawElements),
    SLOT(D_RANGE, DrawRangeElements),
    SLOT(D_ARRAYS_INST, DrawArraysInstanced),
    SLOT(D_ELEMENTS_INST, DrawElementsInstanced),
    SLOT(D_ELEMENTS_BV, DrawElementsBaseVertex),
    SLOT(D_RANGE_BV, DrawRangeElementsBaseVertex),
    SLOT(D_ELEMENTS_INST_BV, DrawElementsInstancedBaseVertex),
    SLOT(D_ARRAYS_INST_BI, DrawArraysInstancedBaseInstance),
    SLOT(D_ELEMENTS_INST_BI, DrawElementsInstancedBaseInstance),
    SLOT(D_ELEMENTS_INST_BV_BI, DrawElementsInstancedBaseVertexBaseInstance),
    SLOT(D_ARRAYS_INDIRECT, DrawArraysIndirect),
    SLOT(D_ELEMENTS_INDIRECT, DrawElementsIndirect),
    SLOT(D_MULTI_ARRAYS, MultiDrawArrays),
    SLOT(D_MULTI_ELEMENTS, MultiDrawElements),
    SLOT(D_MULTI_ARRAYS_INDIRECT, MultiDrawArraysIndirect),
    SLOT(D_MULTI_ELEMENTS_INDIRECT, MultiDrawElementsIndirect),
    SLOT(D_MULTI_ELEMENTS_BV, MultiDrawElementsBaseVertex),
#undef SLOT
};

IP_NO_ASAN static ip_draw_slot *find(const char *name) {
    // The cheap test first: every other lookup of the program leaves here.
    if (name[0] != 'g' || name[1] != 'l' || (name[2] != 'D' && name[2] != 'M')) {
        return NULL;
    }
    // Extension aliases (glDrawArraysEXT, ...) are left alone: their
    // names are not in the table.
    for (int i = 0; i < D_COUNT; i++) {
        if (strcmp(slots[i].name, name) == 0) {
            return &slots[i];
        }
    }
    return NULL;
}

IP_NO_ASAN void *ip_draws_hook_for(const char *name) {
    ip_draw_slot *s = find(name);
    if (!s) {
        // Every dlsym comes here, the sanitizer runtime's own before it is initialised
        // (reading the configuration then allocates and crashes): names first.
        return NULL;
    }
    const ip_config *cfg = ip_config_get();
    return cfg->count_app_draws || cfg->depth_fbo ? s->hook : NULL;
}

IP_NO_ASAN void *ip_draws_bind(const char *name, void *real) {
    ip_draw_slot *s = find(name);
    if (!s || !real) {
        return real;
    }
    void *expected = NULL;
    if (!__atomic_compare_exchange_n(&s->real, &expected, real, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE) &&
        expected != real) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "FXGL_COUNT_APP_DRAWS: a second %s (another vendor) is "
                      "not counted", name);
        return real;
    }
    __atomic_store_n(&counting_draws, ip_config_get()->count_app_draws, __ATOMIC_RELAXED);
    __atomic_store_n(&handed_out, true, __ATOMIC_RELEASE);
    return s->hook;
}

bool ip_draws_take(uint64_t *count) {
    *count = __atomic_exchange_n(&app_draws, 0, __ATOMIC_RELAXED);
    return __atomic_load_n(&handed_out, __ATOMIC_ACQUIRE);
}
