/*
 * variant.c - specialised programs: performance mode's speed without losing editability.
 *
 * Every pass has two programs. The editable one is what load.c links: user values are
 * read from the uniform block, so a change shows on the next frame. The specialised one
 * has the current user values compiled in as constants (`const float Strength = 0.65;`),
 * which lets the driver fold them: on llvmpipe that is the difference between
 * performance mode and the default mode (bench/RESULTS.md). Passes run the specialised
 * program whenever one exists for the current values, and the editable one while values
 * are changing (overlay, `fxgl ctl set`, a preset switch or transition, replace.c's
 * carried-over values): a frame whose user values differ from the specialised program's
 * switches to the editable programs before it draws, and once no value has changed for
 * the settle time (desc.specialise_settle_s, 0.5 s) the compile thread builds a new
 * specialised set for the values of that moment.
 *
 * The frame thread never compiles or links after load: the editable programs are kept
 * linked, and the specialised ones are compiled, linked and given their sampler units and
 * block binding on a worker thread, on a context of the frame context's share group that
 * the host provides (desc.worker). The worker queries the link status (the link is then
 * complete) and puts a fence behind its work; the frame thread swaps the set in only once
 * that fence has signalled (glClientWaitSync with a zero timeout, never a wait) and only
 * if the values it was built for are still the current ones; otherwise it is dropped and
 * a new one is built after the next settle.
 *
 * The specialised source is the editable one with the block's members that hold user
 * values renamed (`float _gspec0;`, so the block's std140 layout and the uploads stay the
 * same) and a constant of the old name declared after the block. Which members those are
 * is decided from the module's uniform list by std140 offset: special uniforms (timer,
 * framecount, keys, mouse... - values that change by nature every frame) are never baked,
 * nor arrays, matrices or non-finite floats. An effect compiled in performance mode has
 * only those left in its block: it gets no specialised set and keeps running as compiled.
 * The worker's compiles go through load.c's gl_compile_program, like the first build.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gl_runtime.h"

#define VAR_DEFAULT_SETTLE_S 0.5
#define VAR_CACHE_PAUSE_MS 250   // after the warm-up draws (see warm_up)

enum { VJ_IDLE, VJ_QUEUED, VJ_RUNNING, VJ_DONE };

typedef struct vsampler {
    char *name;                  // owned
    int unit;
} vsampler;

// One program of the effect: the passes that share it share its variants.
typedef struct vowner {
    int stage_count;
    GLenum stages[2];
    char *glsl[2];               // owned copies of the editable program's sources
    vsampler *samplers;          // owned
    int sampler_count;
    bool compute;
    char *defines;               // owned: the pixel shader's exact-varying #defines (exact.c)
                                 // or NULL; the specialised program keeps them
    GLuint program;              // the worker's result
    GLuint warm_copy;            // the same sources linked again, for the warm-up draws
    GLint flip_loc;
    GLint view_loc;
} vowner;

// What the block holds at an offset: a user value the worker may bake.
typedef struct vuniform {
    uint32_t offset, size;
    fxgl_scalar scalar;
    int components;
    bool bakeable;               // not special, not an array, not a matrix
} vuniform;

// A texture a pass reads, as the driver's code for the draw depends on it: target,
// format (of the view the pass samples), whether each size is a power of two, whether
// it has mip levels, the swizzle of a stand-in format; and the sampler object (shared by
// the group and kept for the runtime's life, so the worker binds the very same one).
typedef struct vtex {
    int unit;
    GLenum target, internal;
    int width, height, depth, levels;
    int channels, stored_channels; // declared / stored: fewer declared read 0, 0, 1
    GLuint sampler;
} vtex;

typedef struct vimage {
    int unit, level;
    GLenum target, internal;
    int width, height, depth, levels;
} vimage;

// What one pass draws or dispatches with, taken on the frame thread when a job is queued
// (render-target formats, blend, stencil, textures, images, topology): the worker draws
// each new program once with it before handing the set over (see warm_up).
typedef struct vwarm {
    int owner;
    bool compute;
    bool window;                 // into the program's own framebuffer (the direct pass)
    bool flip;                   // with the clip origin upper left (the direct pass)
    bool srgb_write;
    bool stencil;
    int target_count;
    GLenum targets[FXGL_MAX_RENDER_TARGETS]; // attachments' internal formats
    int target_levels[FXGL_MAX_RENDER_TARGETS];
    gl_blend blend[FXGL_MAX_RENDER_TARGETS];
    int blend_count;
    gl_stencil stencil_state;
    GLenum mode;
    GLsizei vertex_count;
    int target_w, target_h;      // the attachments' size (the direct pass: the window's)
    int tex_count;
    vtex tex[GL_RT_MAX_UNITS];
    int image_count;
    vimage images[GL_RT_MAX_IMAGES];
} vwarm;

// Everything the worker needs, self-contained: the effect may be unloaded (and its module
// destroyed) while the worker compiles, and then the worker frees the job.
typedef struct vjob {
    struct vjob *next;           // the worker's queue
    int state;                   // VJ_*, under the worker's lock
    bool orphan;                 // the effect went away while the worker compiled
    vowner *owners;              // owned
    size_t owner_count;
    vuniform *uniforms;          // owned
    size_t uniform_count;
    uint8_t *values;             // the block the worker bakes from (size bytes)
    uint32_t size;
    vwarm *warm;                 // owned: one per distinct pass state (pass_total at most)
    size_t warm_count;
    double warm_ms;              // the worker's warm-up draws and their finish
    GLsync fence;
    bool ok;
    char reason[256];
} vjob;

typedef struct gl_variants {
    vjob *job;                   // owned unless handed to the worker as an orphan
    int *owner_of;               // per pass (techniques in order, passes by index): owner, -1
    size_t pass_total;
    GLuint *uniform_programs;    // per owner: the editable program (load.c's)
    GLint *uniform_flip;
    GLint *uniform_view;
    bool *uniform_shared;        // the editable program is in the share group's table
    GLuint *spec_programs;       // per owner: the specialised program, 0: none yet
    GLint *spec_flip;
    GLint *spec_view;
    uint8_t *spec_values;        // the block values the specialised set was built for
    bool has_spec;
    bool active;                 // the passes run the specialised set
    double changed_at;           // last frame a user value changed
} gl_variants;

typedef struct gl_variant_worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    vjob *head, *tail;
    bool quit, started, failed;
    fxgl_runtime *shell;         // gl_compile_program's runtime on the worker context
    uint64_t compiles;           // under lock
    double ms;
    double warm_ms;              // of ms: the warm-up draws
    uint64_t warm_draws;
    GLuint vao;                  // the worker context's (containers are per context)
    bool no_warm_up;             // desc.no_warm_up
    int in_flight;
} gl_variant_worker;

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

// --- the specialised source ---

typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool oom;
} sbuf;

static void sput(sbuf *b, const char *s, size_t n) {
    if (b->oom) {
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sputs(sbuf *b, const char *s) {
    sput(b, s, strlen(s));
}

static uint32_t round_up(uint32_t v, uint32_t a) {
    return (v + a - 1) / a * a;
}

// std140 size and alignment of a member type as the generator writes it ("float",
// "uvec3", "mat4x3"); false for a type it does not know (the block is then left alone).
static bool type_layout(const char *type, size_t len, uint32_t *size, uint32_t *align,
                        int *components, char *base, bool *matrix) {
    char t[16];
    if (len == 0 || len >= sizeof(t)) {
        return false;
    }
    memcpy(t, type, len);
    t[len] = '\0';
    *matrix = false;
    if (!strcmp(t, "float") || !strcmp(t, "int") || !strcmp(t, "uint") || !strcmp(t, "bool")) {
        *size = *align = 4;
        *components = 1;
        *base = t[0];
        return true;
    }
    const char *v = strstr(t, "vec");
    if (v && (v == t || v == t + 1) && v[3] >= '2' && v[3] <= '4' && v[4] == '\0') {
        int n = v[3] - '0';
        *base = v == t ? 'f' : t[0];
        if (*base != 'f' && *base != 'i' && *base != 'u' && *base != 'b') {
            return false;
        }
        *components = n;
        *size = 4u * (uint32_t)n;
        *align = n == 2 ? 8 : 16;
        return true;
    }
    if (!strncmp(t, "mat", 3) && t[3] >= '2' && t[3] <= '4') {
        int cols = t[3] - '0';
        *matrix = true;
        *base = 'f';
        *components = 0;
        *size = 16u * (uint32_t)cols; // column_major: one vec4-aligned column each
        *align = 16;
        return true;
    }
    return false;
}

static const vuniform *uniform_at(const vjob *j, uint32_t offset) {
    for (size_t i = 0; i < j->uniform_count; i++) {
        if (j->uniforms[i].offset == offset) {
            return &j->uniforms[i];
        }
    }
    return NULL;
}

// A constant's initialiser for the value at values + u->offset; false when it cannot be
// written exactly (a NaN or an infinity stays in the block).
static bool put_value(sbuf *b, const char *type, const vuniform *u, const uint8_t *values) {
    char tmp[64];
    if (u->components > 1) {
        sputs(b, type);
        sputs(b, "(");
    }
    for (int c = 0; c < u->components; c++) {
        uint32_t bits;
        memcpy(&bits, values + u->offset + 4 * c, 4);
        if (u->scalar == FXGL_SCALAR_FLOAT) {
            float f;
            memcpy(&f, &bits, 4);
            if (!isfinite(f)) {
                return false;
            }
            // 9 significant digits give the same float back.
            snprintf(tmp, sizeof(tmp), "%.9g", (double)f);
            if (!strpbrk(tmp, ".e")) {
                strcat(tmp, ".0");
            }
        } else if (u->scalar == FXGL_SCALAR_INT) {
            snprintf(tmp, sizeof(tmp), "%d", (int32_t)bits);
        } else if (u->scalar == FXGL_SCALAR_UINT) {
            snprintf(tmp, sizeof(tmp), "%uu", bits);
        } else {
            snprintf(tmp, sizeof(tmp), "%s", bits ? "true" : "false");
        }
        if (c) {
            sputs(b, ", ");
        }
        sputs(b, tmp);
    }
    if (u->components > 1) {
        sputs(b, ")");
    }
    return true;
}

// The specialised source of one stage (malloc'ed), or NULL when nothing in it can be baked
// (*baked = 0) or memory ran out.
static char *specialise_source(const char *src, const vjob *j, const uint8_t *values,
                               int *baked) {
    *baked = 0;
    const char *decl = strstr(src, "uniform " FXGL_GLSL_UNIFORM_BLOCK " {\n");
    if (!decl) {
        return NULL;
    }
    const char *body = strchr(decl, '\n') + 1;
    const char *end = strstr(body, "\n};\n");
    if (!end) {
        return NULL;
    }
    end += 1; // at "};"
    sbuf out = {0}, consts = {0};
    sput(&out, src, (size_t)(body - src));
    uint32_t cur = 0;
    for (const char *line = body; line < end;) {
        const char *nl = strchr(line, '\n');
        const char *p = line;
        while (*p == ' ') {
            p++;
        }
        const char *type = p;
        while (*p && *p != ' ' && p < nl) {
            p++;
        }
        size_t tlen = (size_t)(p - type);
        while (*p == ' ') {
            p++;
        }
        const char *name = p;
        while (p < nl && *p != ';' && *p != '[') {
            p++;
        }
        size_t nlen = (size_t)(p - name);
        bool array = *p == '[';
        uint32_t size = 0, align = 0;
        int components = 0;
        char base = 0;
        bool matrix = false;
        if (!type_layout(type, tlen, &size, &align, &components, &base, &matrix)) {
            free(out.p);
            free(consts.p);
            return NULL; // a member this does not understand: no specialisation
        }
        uint32_t count = 1;
        if (array) {
            count = (uint32_t)strtoul(p + 1, NULL, 10);
            size = round_up(size, 16) * (count ? count : 1);
            align = 16;
        }
        uint32_t offset = round_up(cur, align);
        cur = offset + size;
        const vuniform *u = array || matrix ? NULL : uniform_at(j, offset);
        bool bake = u && u->bakeable && u->components == components;
        if (bake) {
            sbuf value = {0};
            char tname[16];
            snprintf(tname, sizeof(tname), "%.*s", (int)tlen, type);
            bake = put_value(&value, tname, u, values) && !value.oom;
            if (bake) {
                char member[64];
                snprintf(member, sizeof(member), "    %s _gspec%d;\n", tname, *baked);
                sputs(&out, member);
                sputs(&consts, "const ");
                sputs(&consts, tname);
                sputs(&consts, " ");
                sput(&consts, name, nlen);
                sputs(&consts, " = ");
                sputs(&consts, value.p);
                sputs(&consts, ";\n");
                (*baked)++;
            }
            free(value.p);
        }
        if (!bake) {
            sput(&out, line, (size_t)(nl - line) + 1);
        }
        line = nl + 1;
    }
    sputs(&out, "};\n");
    if (consts.p) {
        sputs(&out, consts.p);
    }
    sputs(&out, end + 3);
    free(consts.p);
    if (out.oom || consts.oom || *baked == 0) {
        free(out.p);
        return NULL;
    }
    return out.p;
}

// src with defines inserted after its first line (#version), malloc'ed; NULL: no memory.
static char *with_defines(const char *src, const char *defines) {
    const char *nl = strchr(src, '\n');
    size_t head = nl ? (size_t)(nl + 1 - src) : strlen(src);
    size_t n = strlen(src) + strlen(defines) + 2;
    char *out = malloc(n);
    if (out) {
        snprintf(out, n, "%.*s%s%s", (int)head, src, defines, src + head);
    }
    return out;
}

// --- the worker ---

static void job_free(vjob *j) {
    if (!j) {
        return;
    }
    for (size_t o = 0; o < j->owner_count; o++) {
        vowner *w = &j->owners[o];
        for (int s = 0; s < w->stage_count; s++) {
            free(w->glsl[s]);
        }
        for (int s = 0; s < w->sampler_count; s++) {
            free(w->samplers[s].name);
        }
        free(w->samplers);
        free(w->defines);
    }
    free(j->owners);
    free(j->uniforms);
    free(j->values);
    free(j->warm);
    free(j);
}

// The programs and fence of a job, deleted through gl (either context of the group).
static void job_release_gl(struct GladGLContext *gl, vjob *j) {
    for (size_t o = 0; o < j->owner_count; o++) {
        if (j->owners[o].program) {
            gl->DeleteProgram(j->owners[o].program);
            j->owners[o].program = 0;
        }
        if (j->owners[o].warm_copy) {
            gl->DeleteProgram(j->owners[o].warm_copy); // never drawn when it gets here
            j->owners[o].warm_copy = 0;
        }
    }
    if (j->fence) {
        gl->DeleteSync(j->fence);
        j->fence = 0;
    }
}

// A size of the same kind as n for the driver: a power of two stays one (at most 4),
// anything else becomes 3.
static int tiny(int n) {
    if (n <= 1) {
        return 1;
    }
    return (n & (n - 1)) == 0 ? (n < 4 ? n : 4) : 3;
}

static int levels_for(int w, int h, int d, int want) {
    int m = w > h ? w : h;
    m = d > m ? d : m;
    int full = 1;
    while ((m >> full) > 0) {
        full++;
    }
    return want < full ? want : full;
}

// A small texture standing in for one the pass reads: same target, format, power-of-two
// kind per side, one level or several, swizzle.
static GLuint stand_in(struct GladGLContext *gl, GLenum target, GLenum internal, int width,
                       int height, int depth, int levels, int channels, int stored) {
    int w = tiny(width), h = tiny(height), d = tiny(depth);
    GLuint t = 0;
    gl->GenTextures(1, &t);
    gl->BindTexture(target, t);
    int l = levels_for(w, target == GL_TEXTURE_1D ? 1 : h, target == GL_TEXTURE_3D ? d : 1,
                       levels > 1 ? levels : 1);
    if (target == GL_TEXTURE_3D) {
        gl->TexStorage3D(target, l, internal, w, h, d);
    } else if (target == GL_TEXTURE_1D) {
        gl->TexStorage1D(target, l, internal, w);
    } else {
        gl->TexStorage2D(target, l, internal, w, h);
    }
    if (channels < stored) {
        gl->TexParameteri(target, GL_TEXTURE_SWIZZLE_G, channels < 2 ? GL_ZERO : GL_GREEN);
        gl->TexParameteri(target, GL_TEXTURE_SWIZZLE_B, channels < 3 ? GL_ZERO : GL_BLUE);
        gl->TexParameteri(target, GL_TEXTURE_SWIZZLE_A, GL_ONE);
    }
    return t;
}

// Draws (dispatches) each new program once with the state of the passes that run it, on
// the worker context, into small stand-in targets, then waits for the driver to finish.
// A driver that compiles its code for a program at the first draw with a given state
// (llvmpipe generates a shader variant per framebuffer format, blend, texture and
// sampler state) does it here instead of in the frame that first runs the program;
// Mesa's shader cache then hands the compiled variant to the frame context. Only the
// worker's own objects are written; the program's framebuffer is never touched.
static void warm_up(gl_variant_worker *w, vjob *j) {
    fxgl_runtime *sh = w->shell;
    struct GladGLContext *gl = sh->gl;
    if (!w->vao) {
        gl->GenVertexArrays(1, &w->vao);
        // The runtime's defaults that differ from a new context's and that the driver
        // compiles into its code (gl_state_set_runtime_defaults): dithering is part of
        // llvmpipe's blend state, the provoking vertex part of its triangle setup.
        gl->Disable(GL_DITHER);
        if (sh->info.api == FXGL_API_GL) {
            gl->Disable(GL_MULTISAMPLE);
        }
        if (sh->st.caps.provoking_vertex) {
            gl->ProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        }
    }
    GLuint ubo = 0;
    gl->GenBuffers(1, &ubo);
    gl->BindBuffer(GL_UNIFORM_BUFFER, ubo);
    gl->BufferData(GL_UNIFORM_BUFFER, j->size, j->values, GL_STATIC_DRAW);
    gl->BindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
    gl->BindVertexArray(w->vao);
    for (size_t k = 0; k < j->warm_count; k++) {
        const vwarm *wm = &j->warm[k];
        GLuint prog = j->owners[wm->owner].warm_copy;
        if (!prog) {
            continue;
        }
        GLuint texs[GL_RT_MAX_UNITS + GL_RT_MAX_IMAGES + FXGL_MAX_RENDER_TARGETS];
        int ntex = 0;
        gl->UseProgram(prog);
        for (int i = 0; i < wm->tex_count; i++) {
            const vtex *t = &wm->tex[i];
            gl->ActiveTexture(GL_TEXTURE0 + (GLenum)t->unit);
            texs[ntex++] = stand_in(gl, t->target, t->internal, t->width, t->height, t->depth,
                                    t->levels, t->channels, t->stored_channels);
            gl->BindSampler((GLuint)t->unit, t->sampler);
        }
        gl->ActiveTexture(GL_TEXTURE0);
        if (wm->compute) {
            for (int i = 0; i < wm->image_count; i++) {
                const vimage *m = &wm->images[i];
                GLuint t = stand_in(gl, m->target, m->internal, m->width, m->height, m->depth,
                                    m->levels, 4, 4);
                texs[ntex++] = t;
                gl->BindImageTexture((GLuint)m->unit, t, m->level < 1 ? 0 : 1,
                                     m->target == GL_TEXTURE_3D, 0, GL_READ_WRITE, m->internal);
            }
            gl->DispatchCompute(1, 1, 1);
        } else {
            GLuint fbo = 0, rb = 0;
            if (wm->window && sh->desc.worker.has_drawable) {
                gl->BindFramebuffer(GL_FRAMEBUFFER, 0); // the worker's drawable: the
                                                        // program's framebuffer config
            } else {
                gl->GenFramebuffers(1, &fbo);
                gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
                GLenum bufs[FXGL_MAX_RENDER_TARGETS];
                for (int i = 0; i < wm->target_count; i++) {
                    // The attachment's size class matters too (llvmpipe: a power of two
                    // or not, per side).
                    GLuint t = stand_in(gl, GL_TEXTURE_2D, wm->targets[i], wm->target_w,
                                        wm->target_h, 1, wm->target_levels[i], 4, 4);
                    texs[ntex++] = t;
                    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i,
                                             GL_TEXTURE_2D, t, 0);
                    bufs[i] = GL_COLOR_ATTACHMENT0 + (GLenum)i;
                }
                gl->DrawBuffers(wm->target_count, bufs);
                // As load.c does for the pass's own framebuffer. Mesa takes what the
                // attachments are (float or fixed point: whether the shader clamps its
                // outputs) from this check; left to the draw, it decides with the
                // framebuffer as it was before the attachments and compiles another
                // shader variant than the frame context's.
                gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
                if (wm->stencil) {
                    gl->GenRenderbuffers(1, &rb);
                    gl->BindRenderbuffer(GL_RENDERBUFFER, rb);
                    gl->RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 4, 4);
                    gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                                                GL_RENDERBUFFER, rb);
                }
            }
            if (wm->flip && sh->st.clip_control) {
                sh->st.clip_control(GL_UPPER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
            }
            if (sh->srgb_control) {
                if (wm->srgb_write) {
                    gl->Enable(GL_FRAMEBUFFER_SRGB);
                } else {
                    gl->Disable(GL_FRAMEBUFFER_SRGB);
                }
            }
            // As gl_cache_blend sets it after a reset: every draw buffer's enable and
            // mask, the factors and equations only where blending is on (Mesa compiles
            // per-buffer blending into the code once an indexed factor was set).
            int n = sh->indexed_blend ? FXGL_MAX_RENDER_TARGETS : 1;
            for (int i = 0; i < n; i++) {
                const gl_blend *b = &wm->blend[i];
                GLboolean m[4] = {(b->mask & 1) != 0, (b->mask & 2) != 0, (b->mask & 4) != 0,
                                  (b->mask & 8) != 0};
                GLuint u = (GLuint)i;
                if (sh->indexed_blend) {
                    if (b->enable) {
                        sh->st.enablei(GL_BLEND, u);
                        sh->st.blend_funci(u, b->src, b->dst, b->src_alpha, b->dst_alpha);
                        sh->st.blend_equationi(u, b->op, b->op_alpha);
                    } else {
                        sh->st.disablei(GL_BLEND, u);
                    }
                    sh->st.color_maski(u, m[0], m[1], m[2], m[3]);
                } else {
                    if (b->enable) {
                        gl->Enable(GL_BLEND);
                        gl->BlendFuncSeparate(b->src, b->dst, b->src_alpha, b->dst_alpha);
                        gl->BlendEquationSeparate(b->op, b->op_alpha);
                    } else {
                        gl->Disable(GL_BLEND);
                    }
                    gl->ColorMask(m[0], m[1], m[2], m[3]);
                }
            }
            const gl_stencil *st = &wm->stencil_state;
            if (wm->stencil) {
                gl->Enable(GL_STENCIL_TEST);
                gl->StencilFunc(st->func, st->ref, st->read_mask);
                gl->StencilOp(st->fail, st->zfail, st->pass);
                gl->StencilMask(st->write_mask);
            } else {
                gl->Disable(GL_STENCIL_TEST);
            }
            gl->Viewport(0, 0, tiny(wm->target_w), tiny(wm->target_h));
            GLint flip = gl->GetUniformLocation(prog, "_fxgl_flip");
            if (flip >= 0) {
                gl->Uniform2f(flip, wm->flip ? 1.0f : 0.0f, 4.0f);
            }
            gl->DrawArrays(wm->mode, 0, wm->vertex_count);
            if (wm->flip && sh->st.clip_control) {
                sh->st.clip_control(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
            }
            gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
            if (fbo) {
                gl->DeleteFramebuffers(1, &fbo);
            }
            if (rb) {
                gl->DeleteRenderbuffers(1, &rb);
            }
        }
        for (int i = 0; i < wm->tex_count; i++) {
            gl->BindSampler((GLuint)wm->tex[i].unit, 0);
        }
        gl->DeleteTextures(ntex, texs);
    }
    gl->UseProgram(0);
    gl->BindVertexArray(0);
    gl->BindBufferBase(GL_UNIFORM_BUFFER, 0, 0);
    gl->DeleteBuffers(1, &ubo);
    for (size_t o = 0; o < j->owner_count; o++) {
        if (j->owners[o].warm_copy) {
            gl->DeleteProgram(j->owners[o].warm_copy); // on the context that drew it
            j->owners[o].warm_copy = 0;
        }
    }
    // The driver compiles as it processes the draws: done before the set is handed over.
    gl->Finish();
    // Mesa writes its shader cache on a thread of its own: a short pause here (on the
    // worker, never the frame thread) lets the entries land before the frame context
    // looks for them. A miss costs the first frame the compile, as without the warm-up.
    struct timespec pause = {0, VAR_CACHE_PAUSE_MS * 1000000L};
    nanosleep(&pause, NULL);
}

// What load.c gives the editable program: sampler units by name, the block at 0.
static void program_setup(struct GladGLContext *gl, const vowner *ow, GLuint program) {
    gl->UseProgram(program);
    for (int s = 0; s < ow->sampler_count; s++) {
        GLint loc = gl->GetUniformLocation(program, ow->samplers[s].name);
        if (loc >= 0) {
            gl->Uniform1i(loc, ow->samplers[s].unit);
        }
    }
    GLuint block = gl->GetUniformBlockIndex(program, FXGL_GLSL_UNIFORM_BLOCK);
    if (block != GL_INVALID_INDEX) {
        gl->UniformBlockBinding(program, block, 0);
    }
    gl->UseProgram(0);
}

// Compiles and links every owner's specialised program on the worker context.
static void job_run(gl_variant_worker *w, vjob *j) {
    fxgl_runtime *sh = w->shell;
    struct GladGLContext *gl = sh->gl;
    uint64_t calls0 = sh->compile_calls;
    double t0 = mono_ms();
    j->ok = true;
    int baked_total = 0;
    for (size_t o = 0; o < j->owner_count && j->ok; o++) {
        vowner *ow = &j->owners[o];
        char *spec[2] = {NULL, NULL};
        const char *sources[2];
        for (int s = 0; s < ow->stage_count; s++) {
            int baked = 0;
            spec[s] = specialise_source(ow->glsl[s], j, j->values, &baked);
            baked_total += baked;
            sources[s] = spec[s] ? spec[s] : ow->glsl[s];
            if (ow->defines && ow->stages[s] == GL_FRAGMENT_SHADER) {
                // The exact-varying variant of the pixel shader, as load.c links it.
                char *d = with_defines(sources[s], ow->defines);
                free(spec[s]);
                spec[s] = d;
                sources[s] = d;
                if (!d) {
                    j->ok = false;
                    snprintf(j->reason, sizeof(j->reason), "out of memory");
                }
            }
        }
        if (!j->ok) {
            free(spec[0]);
            free(spec[1]);
            break;
        }
        ow->program = gl_compile_program(sh, sources, ow->stages, ow->stage_count, j->reason,
                                         sizeof(j->reason));
        // The warm-up draws use a copy: a program drawn on two contexts of the group and
        // deleted on one of them leaves llvmpipe's per-context variant lists inconsistent
        // (Mesa 22: a crash in the frame context's next draw). The copy has the same
        // sources, so the driver's compiled code is found under the same keys.
        char why[64];
        ow->warm_copy = ow->program ? gl_compile_program(sh, sources, ow->stages,
                                                         ow->stage_count, why, sizeof(why))
                                    : 0;
        free(spec[0]);
        free(spec[1]);
        if (!ow->program) {
            j->ok = false;
            break;
        }
        program_setup(gl, ow, ow->program);
        if (ow->warm_copy) {
            program_setup(gl, ow, ow->warm_copy);
        }
        gl->UseProgram(ow->program);
        ow->flip_loc = ow->compute ? -1 : gl->GetUniformLocation(ow->program, "_fxgl_flip");
        ow->view_loc = ow->defines ? gl->GetUniformLocation(ow->program, "_fxgl_view") : -1;
        gl->UseProgram(0);
    }
    if (j->ok && baked_total == 0) {
        j->ok = false; // nothing to fold: the editable programs are as fast
        snprintf(j->reason, sizeof(j->reason), "no user value to compile in");
    }
    if (!j->ok) {
        job_release_gl(gl, j);
    } else {
        double tw = mono_ms();
        if (!w->no_warm_up) {
            warm_up(w, j);
        }
        j->warm_ms = mono_ms() - tw;
        j->fence = gl->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        gl->Flush(); // the fence must reach the driver for the frame thread to see it
    }
    pthread_mutex_lock(&w->lock);
    w->compiles += sh->compile_calls - calls0;
    w->ms += mono_ms() - t0;
    w->warm_ms += j->warm_ms;
    w->warm_draws += w->no_warm_up || !j->ok ? 0 : j->warm_count;
    pthread_mutex_unlock(&w->lock);
}

static void *worker_main(void *arg) {
    fxgl_runtime *rt = arg;
    gl_variant_worker *w = rt->vworker;
    const fxgl_runtime_worker *wc = &rt->desc.worker;
    // Below the frame thread: on a CPU renderer the compile would take the time a frame
    // needs. (Linux nice values are per thread; failing is harmless.)
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    bool current = !wc->make_current || wc->make_current(wc->user);
    pthread_mutex_lock(&w->lock);
    if (!current) {
        w->failed = true;
    }
    for (;;) {
        while (!w->quit && (!w->head || w->failed)) {
            pthread_cond_wait(&w->wake, &w->lock);
        }
        if (w->quit) {
            break;
        }
        vjob *j = w->head;
        w->head = j->next;
        if (!w->head) {
            w->tail = NULL;
        }
        j->next = NULL;
        j->state = VJ_RUNNING;
        pthread_mutex_unlock(&w->lock);
        job_run(w, j);
        pthread_mutex_lock(&w->lock);
        w->in_flight--;
        if (j->orphan) {
            job_release_gl(w->shell->gl, j);
            job_free(j);
        } else {
            j->state = VJ_DONE;
        }
    }
    pthread_mutex_unlock(&w->lock);
    if (current && wc->release) {
        wc->release(wc->user);
    }
    return NULL;
}

static gl_variant_worker *worker_get(fxgl_runtime *rt) {
    if (rt->vworker) {
        return rt->vworker->failed ? NULL : rt->vworker;
    }
    gl_variant_worker *w = calloc(1, sizeof(*w));
    fxgl_runtime *shell = calloc(1, sizeof(*shell));
    if (!w || !shell) {
        free(w);
        free(shell);
        return NULL;
    }
    // The worker's stand-in runtime for gl_compile_program: the worker context's entry
    // points and the frame runtime's decisions that change the source.
    shell->gl = rt->desc.worker.gl;
    shell->info = rt->info;
    shell->emulate_image_formats = rt->emulate_image_formats;
    // What the warm-up draws set as the frame thread does (same driver, API and version:
    // the entry points dispatch to the worker's context there).
    shell->desc.worker = rt->desc.worker;
    w->no_warm_up = rt->desc.no_warm_up;
    shell->indexed_blend = rt->indexed_blend;
    shell->srgb_control = rt->srgb_control;
    shell->st.enablei = rt->st.enablei;
    shell->st.disablei = rt->st.disablei;
    shell->st.blend_funci = rt->st.blend_funci;
    shell->st.blend_equationi = rt->st.blend_equationi;
    shell->st.color_maski = rt->st.color_maski;
    shell->st.clip_control = rt->st.clip_control;
    shell->st.caps.provoking_vertex = rt->st.caps.provoking_vertex;
    w->shell = shell;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    rt->vworker = w;
    if (pthread_create(&w->thread, NULL, worker_main, rt) != 0) {
        w->failed = true;
        gl_log(rt, FXGL_GL_LOG_WARN, "no compile thread: passes run their editable programs");
        return NULL;
    }
    w->started = true;
    return w;
}

void gl_variants_shutdown(fxgl_runtime *rt) {
    gl_variant_worker *w = rt->vworker;
    if (!w) {
        return;
    }
    pthread_mutex_lock(&w->lock);
    w->quit = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    if (w->started) {
        pthread_join(w->thread, NULL);
    }
    // Jobs of detached effects never stay queued (detach takes them out).
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    free(w->shell);
    free(w);
    rt->vworker = NULL;
}

// --- the frame thread ---

static void warm_fill(fxgl_runtime *rt, gl_loaded_effect *e, const gl_variants *v, vjob *j);

static void use_set(gl_loaded_effect *e, bool spec) {
    gl_variants *v = e->variants;
    size_t k = 0;
    for (size_t t = 0; t < e->technique_count; t++) {
        gl_technique *tech = &e->techniques[t];
        for (size_t i = 0; i < tech->src->pass_count; i++, k++) {
            int o = v->owner_of[k];
            if (o < 0 || !tech->passes) {
                continue;
            }
            gl_pass *p = &tech->passes[i];
            p->program = spec ? v->spec_programs[o] : v->uniform_programs[o];
            p->flip_loc = spec ? v->spec_flip[o] : v->uniform_flip[o];
            p->view_loc = spec ? v->spec_view[o] : v->uniform_view[o];
            // Another program: its _fxgl_view is written before its first draw (frame.c).
            p->view_set[0] = p->view_set[1] = 0;
            // A specialised program is this runtime's alone.
            p->group_shared = !spec && v->uniform_shared[o];
            p->specialised = spec;
        }
    }
    v->active = spec;
}

static void variants_free(gl_variants *v) {
    free(v->owner_of);
    free(v->uniform_programs);
    free(v->uniform_flip);
    free(v->uniform_view);
    free(v->uniform_shared);
    free(v->spec_programs);
    free(v->spec_flip);
    free(v->spec_view);
    free(v->spec_values);
    free(v);
}

// Sampler units as load.c assigns them: one per distinct sampler object across the
// stages, in order of first use.
static bool owner_samplers(const fxgl_effect *fx, const fxgl_shader *const *stages, int n,
                           vowner *ow) {
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        total += stages[i]->sampler_count;
    }
    ow->samplers = calloc(total + 1, sizeof(*ow->samplers));
    if (!ow->samplers) {
        return false;
    }
    int objects[GL_RT_MAX_UNITS];
    int units = 0;
    for (int i = 0; i < n; i++) {
        for (size_t b = 0; b < stages[i]->sampler_count; b++) {
            const fxgl_binding *fb = &stages[i]->samplers[b];
            if (fb->object < 0 || (size_t)fb->object >= fx->sampler_count) {
                return false;
            }
            int unit = -1;
            for (int k = 0; k < units; k++) {
                unit = objects[k] == fb->object ? k : unit;
            }
            if (unit < 0) {
                if (units == GL_RT_MAX_UNITS) {
                    return false;
                }
                unit = units;
                objects[units++] = fb->object;
            }
            vsampler *s = &ow->samplers[ow->sampler_count++];
            s->name = strdup(fb->name);
            s->unit = unit;
            if (!s->name) {
                return false;
            }
        }
    }
    return true;
}

void gl_variants_attach(fxgl_runtime *rt, gl_loaded_effect *e) {
    if (!rt->desc.worker.gl || rt->desc.no_specialise || rt->warming || e->variants ||
        !e->shadow || !e->size) {
        return;
    }
    const fxgl_effect *fx = e->fx;
    size_t bakeable = 0;
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        bakeable += u->special == FXGL_SPECIAL_NONE && u->array_length == 0 && u->cols == 1 &&
                    u->scalar != FXGL_SCALAR_STRING && u->size;
    }
    if (!bakeable) {
        return; // no user value (or performance mode compiled them in already)
    }
    size_t passes = 0;
    for (size_t t = 0; t < e->technique_count; t++) {
        passes += e->techniques[t].src->pass_count;
    }
    gl_variants *v = calloc(1, sizeof(*v));
    vjob *j = calloc(1, sizeof(*j));
    if (!v || !j) {
        free(v);
        free(j);
        return;
    }
    v->job = j;
    v->pass_total = passes;
    v->owner_of = malloc((passes + 1) * sizeof(int));
    v->spec_values = calloc(1, e->size);
    j->owners = calloc(passes + 1, sizeof(*j->owners));
    j->uniforms = calloc(fx->uniform_count + 1, sizeof(*j->uniforms));
    j->values = calloc(1, e->size);
    j->size = e->size;
    j->warm = calloc(passes + 1, sizeof(*j->warm)); // NULL: no warm-up draws
    bool ok = v->owner_of && v->spec_values && j->owners && j->uniforms && j->values;
    for (size_t i = 0; ok && i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        j->uniforms[j->uniform_count++] = (vuniform){
            .offset = u->offset,
            .size = u->size,
            .scalar = u->scalar,
            .components = u->rows * u->cols,
            .bakeable = u->special == FXGL_SPECIAL_NONE && u->array_length == 0 && u->cols == 1 &&
                        u->scalar != FXGL_SCALAR_STRING,
        };
    }
    size_t k = 0;
    for (size_t t = 0; ok && t < e->technique_count; t++) {
        gl_technique *tech = &e->techniques[t];
        for (size_t i = 0; ok && i < tech->src->pass_count; i++, k++) {
            v->owner_of[k] = -1;
            if (tech->status != FXGL_STATUS_READY || !tech->passes ||
                !tech->passes[i].program) {
                continue;
            }
            gl_pass *p = &tech->passes[i];
            int owner = -1;
            for (size_t o = 0; o < j->owner_count; o++) {
                owner = v->uniform_programs && v->uniform_programs[o] == p->program ? (int)o
                                                                                     : owner;
            }
            if (owner < 0) {
                size_t o = j->owner_count++;
                GLuint *up = realloc(v->uniform_programs, j->owner_count * sizeof(GLuint));
                v->uniform_programs = up ? up : v->uniform_programs;
                GLint *uf = realloc(v->uniform_flip, j->owner_count * sizeof(GLint));
                v->uniform_flip = uf ? uf : v->uniform_flip;
                GLint *uv = realloc(v->uniform_view, j->owner_count * sizeof(GLint));
                v->uniform_view = uv ? uv : v->uniform_view;
                bool *us = realloc(v->uniform_shared, j->owner_count * sizeof(bool));
                v->uniform_shared = us ? us : v->uniform_shared;
                if (!up || !uf || !uv || !us) {
                    ok = false;
                    break;
                }
                v->uniform_programs[o] = p->program;
                v->uniform_flip[o] = p->flip_loc;
                v->uniform_view[o] = p->view_loc;
                v->uniform_shared[o] = p->group_shared;
                vowner *ow = &j->owners[o];
                if (p->exact_defines) {
                    ow->defines = strdup(p->exact_defines);
                    ok = ok && ow->defines;
                }
                const fxgl_pass *fp = p->src;
                const fxgl_shader *stages[2];
                int idx[2] = {fp->compute_shader >= 0 ? fp->compute_shader : fp->vertex_shader,
                              fp->compute_shader >= 0 ? -1 : fp->pixel_shader};
                ow->compute = fp->compute_shader >= 0;
                for (int s = 0; s < 2; s++) {
                    if (idx[s] < 0) {
                        continue;
                    }
                    const fxgl_shader *sd = &fx->shaders[idx[s]];
                    stages[ow->stage_count] = sd;
                    ow->stages[ow->stage_count] = sd->stage == FXGL_STAGE_VERTEX ? GL_VERTEX_SHADER
                                                  : sd->stage == FXGL_STAGE_PIXEL
                                                      ? GL_FRAGMENT_SHADER
                                                      : GL_COMPUTE_SHADER;
                    ow->glsl[ow->stage_count] = sd->glsl ? strdup(sd->glsl) : NULL;
                    ok = ok && ow->glsl[ow->stage_count];
                    ow->stage_count++;
                }
                ok = ok && owner_samplers(fx, stages, ow->stage_count, ow);
                owner = (int)o;
            }
            v->owner_of[k] = owner;
        }
    }
    if (ok) {
        v->spec_programs = calloc(j->owner_count + 1, sizeof(GLuint));
        v->spec_flip = calloc(j->owner_count + 1, sizeof(GLint));
        v->spec_view = calloc(j->owner_count + 1, sizeof(GLint));
        ok = v->spec_programs && v->spec_flip && v->spec_view && j->owner_count > 0;
    }
    if (!ok) {
        job_free(j);
        variants_free(v);
        return;
    }
    v->changed_at = -1e30; // the first set is asked for at the first frame
    e->variants = v;
}

void gl_variants_abandon(fxgl_runtime *rt) {
    // The passes name their editable programs again, which the share group counts; the
    // specialised ones die with the context (no GL call here).
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect *e = rt->effects[i];
        if (e->variants && e->loaded) {
            use_set(e, false);
        }
    }
}

void gl_variants_detach(fxgl_runtime *rt, gl_loaded_effect *e) {
    gl_variants *v = e->variants;
    if (!v) {
        return;
    }
    use_set(e, false); // load.c's unload deletes the editable programs
    for (size_t o = 0; o < v->job->owner_count; o++) {
        if (v->spec_programs[o]) {
            GLC(rt, DeleteProgram(v->spec_programs[o]));
            rt->vstats.specialised_programs--;
        }
    }
    vjob *j = v->job;
    gl_variant_worker *w = rt->vworker;
    bool handed = false;
    if (w) {
        pthread_mutex_lock(&w->lock);
        if (j->state == VJ_QUEUED) {
            // Out of the queue.
            vjob **at = &w->head;
            vjob *prev = NULL;
            while (*at && *at != j) {
                prev = *at;
                at = &(*at)->next;
            }
            if (*at) {
                *at = j->next;
                if (w->tail == j) {
                    w->tail = prev;
                }
            }
            w->in_flight--;
        } else if (j->state == VJ_RUNNING) {
            j->orphan = true; // the worker deletes its programs and frees it
            handed = true;
        }
        pthread_mutex_unlock(&w->lock);
    }
    if (!handed) {
        if (j->state == VJ_DONE) {
            job_release_gl(rt->gl, j);
        }
        job_free(j);
    }
    variants_free(v);
    e->variants = NULL;
}

// Do the user values of the block differ from those at values (special ones are not
// compared: they are never compiled in)?
static bool user_values_differ(const vjob *j, const uint8_t *a, const uint8_t *b) {
    for (size_t i = 0; i < j->uniform_count; i++) {
        const vuniform *u = &j->uniforms[i];
        if (u->bakeable && u->offset + u->size <= j->size &&
            memcmp(a + u->offset, b + u->offset, u->size) != 0) {
            return true;
        }
    }
    return false;
}

void gl_variants_frame(fxgl_runtime *rt, gl_loaded_effect *e, double now) {
    gl_variants *v = e->variants;
    if (!v) {
        return;
    }
    vjob *j = v->job;
    // A user value written since the last upload: if it is not the specialised set's,
    // this very frame draws with the editable programs.
    if (e->dirty_lo < e->dirty_hi) {
        if (v->active && user_values_differ(j, e->shadow, v->spec_values)) {
            use_set(e, false);
            rt->vstats.to_uniform++;
        }
        if (!v->active) {
            v->changed_at = now;
        }
    }
    gl_variant_worker *w = rt->vworker;
    int state = VJ_IDLE;
    if (w) {
        pthread_mutex_lock(&w->lock);
        state = j->state;
        pthread_mutex_unlock(&w->lock);
    }
    if (state == VJ_DONE) {
        // The worker is done with the job: it is the frame thread's again.
        bool ready = !j->ok;
        if (j->ok && j->fence) {
            GLenum r = GLC(rt, ClientWaitSync(j->fence, 0, 0)); // never waits
            ready = r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
        } else if (j->ok) {
            ready = true;
        }
        if (ready) {
            if (j->ok && !user_values_differ(j, e->shadow, j->values)) {
                for (size_t o = 0; o < j->owner_count; o++) {
                    if (v->spec_programs[o]) {
                        GLC(rt, DeleteProgram(v->spec_programs[o]));
                        rt->vstats.specialised_programs--;
                    }
                    v->spec_programs[o] = j->owners[o].program;
                    v->spec_flip[o] = j->owners[o].flip_loc;
                    v->spec_view[o] = j->owners[o].view_loc;
                    j->owners[o].program = 0;
                    rt->vstats.specialised_programs++;
                }
                if (j->fence) {
                    GLC(rt, DeleteSync(j->fence));
                    j->fence = 0;
                }
                memcpy(v->spec_values, j->values, e->size);
                v->has_spec = true;
                use_set(e, true);
                rt->vstats.specialised++;
                gl_log(rt, FXGL_GL_LOG_DEBUG, "%s: specialised programs in (%zu)", e->file,
                       j->owner_count);
            } else {
                if (j->ok) {
                    rt->vstats.discarded++;
                } else if (strcmp(j->reason, "no user value to compile in") != 0) {
                    gl_log(rt, FXGL_GL_LOG_WARN, "%s: no specialised programs: %s", e->file,
                           j->reason);
                }
                job_release_gl(rt->gl, j);
                if (!j->ok) {
                    // It will not compile with these values either next time: stop asking.
                    v->changed_at = 1e30;
                }
            }
            j->state = VJ_IDLE; // no lock needed: the worker no longer looks at it
            state = VJ_IDLE;
        }
    }
    if (state != VJ_IDLE || v->active || now - v->changed_at < (rt->desc.specialise_settle_s > 0
                                                                    ? rt->desc.specialise_settle_s
                                                                    : VAR_DEFAULT_SETTLE_S)) {
        return;
    }
    // Settled on the editable programs.
    if (v->has_spec && !user_values_differ(j, e->shadow, v->spec_values)) {
        use_set(e, true); // back to values the specialised set already has
        return;
    }
    w = worker_get(rt);
    if (!w) {
        v->changed_at = 1e30;
        return;
    }
    memcpy(j->values, e->shadow, e->size);
    warm_fill(rt, e, v, j);
    j->ok = false;
    j->reason[0] = '\0';
    pthread_mutex_lock(&w->lock);
    j->state = VJ_QUEUED;
    j->next = NULL;
    if (w->tail) {
        w->tail->next = j;
    } else {
        w->head = j;
    }
    w->tail = j;
    w->in_flight++;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

// The state of pass p that a driver compiles for (vwarm), on the frame thread.
static void warm_pass(fxgl_runtime *rt, const gl_pass *p, int owner, vwarm *w) {
    memset(w, 0, sizeof(*w));
    w->owner = owner;
    w->compute = p->compute;
    for (int i = 0; i < p->bind_count && i < GL_RT_MAX_UNITS; i++) {
        const gl_bind *b = &p->binds[i];
        vtex *t = &w->tex[w->tex_count++];
        t->unit = b->unit;
        t->sampler = b->sampler;
        t->target = b->target;
        t->depth = 1;
        t->levels = 1;
        t->channels = t->stored_channels = 4;
        if (b->kind == GL_BIND_TEXTURE) {
            const gl_tex *x = b->tex;
            t->internal = b->srgb && x->srgb != x->tex ? GL_SRGB8_ALPHA8 : x->internal;
            t->width = x->width;
            t->height = x->height;
            t->depth = x->depth;
            t->levels = x->levels;
            const gl_format *declared = gl_format_get(x->format);
            t->channels = declared ? declared->channels : x->fmt->channels;
            t->stored_channels = x->fmt->channels;
        } else if (b->slot == GL_SLOT_COLOR) {
            t->internal = b->srgb && rt->color_srgb != rt->color_tex ? GL_SRGB8_ALPHA8
                                                                      : GL_RGBA8;
            t->width = rt->width;
            t->height = rt->height;
        } else if (b->slot == GL_SLOT_DEPTH && rt->depth_format && rt->depth_ready) {
            t->internal = rt->depth_format;
            t->width = rt->width;
            t->height = rt->height;
        } else if (b->slot >= 0 && rt->semantics[b->slot].texture) {
            t->internal = GL_RGBA8; // the host's texture: its format is not known here
            t->width = rt->width;
            t->height = rt->height;
        } else {
            t->internal = GL_R16F; // the empty texture
            t->width = t->height = 1;
        }
    }
    if (p->compute) {
        for (int i = 0; i < p->image_count && i < GL_RT_MAX_IMAGES; i++) {
            const gl_tex *x = p->images[i].tex;
            w->images[w->image_count++] = (vimage){
                .unit = p->images[i].unit, .level = p->images[i].level,
                .target = x->target, .internal = x->internal,
                .width = x->width, .height = x->height, .depth = x->depth,
                .levels = x->levels,
            };
        }
        return;
    }
    bool direct = p == rt->direct;
    w->window = direct && rt->source_fbo == 0;
    w->flip = direct;
    w->srgb_write = p->srgb_write;
    w->mode = p->mode;
    w->vertex_count = p->vertex_count;
    w->target_w = p->to_backbuffer ? rt->width : p->targets[0]->width;
    w->target_h = p->to_backbuffer ? rt->height : p->targets[0]->height;
    w->blend_count = p->blend_count;
    memcpy(w->blend, p->blend, sizeof(w->blend));
    if (p->to_backbuffer) {
        // The back-buffer copy (RGBA8, or its sRGB view); a direct pass into a host's
        // framebuffer object is taken as RGBA8 as well.
        w->target_count = 1;
        w->targets[0] = p->srgb_write && rt->has_views && !direct ? GL_SRGB8_ALPHA8 : GL_RGBA8;
        w->stencil = p->stencil.enable && !direct;
    } else {
        w->target_count = p->target_count;
        for (int i = 0; i < p->target_count; i++) {
            w->targets[i] = p->srgb_write && rt->has_views ? GL_SRGB8_ALPHA8
                                                           : p->targets[i]->internal;
            w->target_levels[i] = p->targets[i]->levels;
        }
        w->stencil = p->stencil.enable && p->stencil_attached;
    }
    if (w->stencil) {
        w->stencil_state = p->stencil;
    }
}

// Every distinct pass state of the effect's passes, into j->warm.
static void warm_fill(fxgl_runtime *rt, gl_loaded_effect *e, const gl_variants *v, vjob *j) {
    j->warm_count = 0;
    if (!j->warm) {
        return;
    }
    size_t k = 0;
    for (size_t t = 0; t < e->technique_count; t++) {
        gl_technique *tech = &e->techniques[t];
        for (size_t i = 0; i < tech->src->pass_count; i++, k++) {
            int o = k < v->pass_total ? v->owner_of[k] : -1;
            if (o < 0 || !tech->passes) {
                continue;
            }
            vwarm *w = &j->warm[j->warm_count];
            warm_pass(rt, &tech->passes[i], o, w);
            bool seen = false;
            for (size_t q = 0; q < j->warm_count && !seen; q++) {
                seen = memcmp(&j->warm[q], w, sizeof(*w)) == 0;
            }
            j->warm_count += !seen;
        }
    }
}

fxgl_pass_variant fxgl_runtime_pass_variant(fxgl_runtime *rt, size_t e, size_t t, size_t p) {
    gl_adopt(rt);
    if (e >= rt->effect_count) {
        return FXGL_VARIANT_NONE;
    }
    gl_loaded_effect *ef = rt->effects[e];
    if (!ef->loaded || t >= ef->technique_count || !ef->techniques[t].passes ||
        p >= ef->techniques[t].src->pass_count || !ef->techniques[t].passes[p].program) {
        return FXGL_VARIANT_NONE;
    }
    return ef->techniques[t].passes[p].specialised ? FXGL_VARIANT_SPECIALISED
                                                   : FXGL_VARIANT_UNIFORM;
}

void fxgl_runtime_variant_stats(fxgl_runtime *rt, fxgl_variant_stats *out) {
    *out = rt->vstats;
    out->frame_compiles = rt->compile_calls;
    out->uniform_programs = 0;
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_variants *v = rt->effects[i]->variants;
        out->uniform_programs += v ? v->job->owner_count : 0;
    }
    gl_variant_worker *w = rt->vworker;
    if (w) {
        pthread_mutex_lock(&w->lock);
        out->worker_compiles = w->compiles;
        out->worker_ms = w->ms;
        out->worker_warm_ms = w->warm_ms;
        out->warm_draws = w->warm_draws;
        out->jobs_in_flight = (uint64_t)(w->in_flight > 0 ? w->in_flight : 0);
        pthread_mutex_unlock(&w->lock);
    }
}

void fxgl_runtime_stop_worker(fxgl_runtime *rt) {
    if (rt) {
        gl_variants_shutdown(rt);
    }
}
