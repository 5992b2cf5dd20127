/*
 * compute.c - pixel passes as compute dispatches (docs/runtime.md,
 * "Compute passes").
 *
 * A pixel shader's generated GLSL has a compute form (glsl.c: compiled with
 * _gcompute defined as the target's image format, one invocation per pixel
 * storing target 0 with imageStore). It gives the fragment pass's pixels
 * exactly when
 *   - every varying the shader reads was proved (exact.c) to be pixel
 *     centre / viewport size or zero, over primitives covering the viewport,
 *     and SV_Position.zw is (0.5, 1) (clip z 0, w 1): the invocation's
 *     centre reproduces gl_FragCoord and the exact texcoords bit for bit;
 *   - nothing depends on the rasteriser or the output merger: no blend, every
 *     channel of the target written (colour mask and the shader's
 *     components), one render target, no stencil, no sRGB write, no clear of
 *     texels the draw would not cover, no discard, depth output, facing,
 *     sample inputs or derivatives;
 *   - implicit-LOD sampling (texture(), tex2D) cannot tell the difference:
 *     compute has no derivatives and samples as if the LOD were 0, so every
 *     texture sampled that way must have one level and the sampler the same
 *     filter for minification as for magnification (then the LOD, whatever
 *     it is, selects nothing); explicit LOD, fetches, gathers and sizes are
 *     the same in both stages. Anisotropic samplers are refused.
 * and the target is an image the context can store: a 2D texture in a
 * format with an image format (GLES: one of GLSL ES's), or the back-buffer
 * copy (RGBA8). The pass the frame draws straight into the program's
 * framebuffer (frame.c, find_direct) stays fragment: that framebuffer is no
 * image. Where anything is unproven the compute form is not built and the
 * pass stays fragment.
 *
 * Whether a qualifying pass runs as compute: FXGL_COMPUTE=1 always, 0 never,
 * auto (the default) by measuring both forms in the pass's first frames
 * (gl_cs_trial_*), with the clock that is honest on the renderer
 * (gl_cs_clock_for).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_exact.h"
#include "gl_runtime.h"

// --- the decision (pure: tests/gl/test_compute.c drives it) ---

int gl_cs_mode_parse(const char *value) {
    if (!value || !*value || strcmp(value, "auto") == 0) {
        return FXGL_COMPUTE_AUTO;
    }
    if (strcmp(value, "0") == 0 || strcmp(value, "off") == 0 || strcmp(value, "no") == 0) {
        return FXGL_COMPUTE_OFF;
    }
    if (strcmp(value, "1") == 0 || strcmp(value, "on") == 0 || strcmp(value, "yes") == 0) {
        return FXGL_COMPUTE_ON;
    }
    return FXGL_COMPUTE_AUTO;
}

// Mesa's llvmpipe and softpipe (also under zink on lavapipe), SwiftShader:
// their GL_TIMESTAMP is the CPU clock when the command is recorded, and
// the rasteriser runs later, at a flush, so a draw times at almost nothing
// while a dispatch, run where it is issued, times at its whole cost.
int gl_cs_clock_for(const char *renderer, bool has_timer) {
    static const char *const software[] = {"llvmpipe", "softpipe", "lavapipe", "SwiftShader",
                                           "swrast"};
    for (size_t i = 0; renderer && i < sizeof(software) / sizeof(software[0]); i++) {
        if (strstr(renderer, software[i])) {
            return GL_CS_CLOCK_FINISH;
        }
    }
    return has_timer ? GL_CS_CLOCK_TIMER : GL_CS_CLOCK_NONE;
}

static int compare_ms(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n) {
    double s[GL_CS_SAMPLES];
    memcpy(s, v, (size_t)n * sizeof(*s));
    qsort(s, (size_t)n, sizeof(*s), compare_ms);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

bool gl_cs_decide(const double *fragment, int nf, const double *compute, int nc) {
    if (nf <= 0 || nc <= 0 || nf > GL_CS_SAMPLES || nc > GL_CS_SAMPLES) {
        return false;
    }
    double f = median(fragment, nf), c = median(compute, nc);
    // A sample that is no time (a clock that saw nothing) proves nothing.
    if (!(f > 0.0) || !(c > 0.0)) {
        return false;
    }
    return c < f * GL_CS_MARGIN;
}

bool gl_cs_trial_pick(const gl_cs_trial *t) {
    return t->runs[1] < t->runs[0];
}

void gl_cs_trial_ran(gl_cs_trial *t, bool compute) {
    if (t->state != GL_CS_TRIAL) {
        return;
    }
    if (t->runs[compute] < 255) {
        t->runs[compute]++;
    }
    if (t->runs[0] >= GL_CS_MAX_RUNS && t->runs[1] >= GL_CS_MAX_RUNS &&
        (t->n[0] < GL_CS_SAMPLES || t->n[1] < GL_CS_SAMPLES)) {
        t->state = GL_CS_FRAGMENT; // no honest samples: never risk a slower pass
    }
}

void gl_cs_trial_add(gl_cs_trial *t, bool compute, int run, double ms) {
    if (t->state != GL_CS_TRIAL || run < GL_CS_WARMUP || t->n[compute] >= GL_CS_SAMPLES) {
        return;
    }
    t->ms[compute][t->n[compute]++] = ms;
    if (t->n[0] == GL_CS_SAMPLES && t->n[1] == GL_CS_SAMPLES) {
        t->state = gl_cs_decide(t->ms[0], GL_CS_SAMPLES, t->ms[1], GL_CS_SAMPLES)
                       ? GL_CS_COMPUTE
                       : GL_CS_FRAGMENT;
    }
}

void gl_cs_sample(fxgl_runtime *rt, gl_pass *p, size_t slot, double ms) {
    int v = p->cs_slot[slot] - 1;
    p->cs_slot[slot] = 0;
    if (v < 0) {
        return;
    }
    gl_cs_trial_add(&p->cs, v & 1, v & 2 ? GL_CS_WARMUP : 0, ms);
    if (p->cs.state != GL_CS_TRIAL) {
        gl_log(rt, FXGL_GL_LOG_INFO,
               "pass '%s' runs as %s: median %.4f ms as fragment, %.4f ms as compute (%s)",
               p->label, p->cs.state == GL_CS_COMPUTE ? "compute" : "fragment",
               median(p->cs.ms[0], p->cs.n[0] ? p->cs.n[0] : 1),
               median(p->cs.ms[1], p->cs.n[1] ? p->cs.n[1] : 1),
               rt->cs_clock == GL_CS_CLOCK_FINISH ? "CPU clock between glFinish calls"
                                                  : "timer queries");
    }
}

bool gl_cs_choose(fxgl_runtime *rt, gl_pass *p, size_t slot) {
    p->cs_slot[slot] = 0;
    // A back-buffer copy in the window's layout (load.c) takes no image store.
    if (!p->cs_program || p == rt->direct || rt->warming || (p->to_backbuffer && rt->bb_native)) {
        return false;
    }
    if (p->cs.state != GL_CS_TRIAL) {
        return p->cs.state == GL_CS_COMPUTE;
    }
    bool compute = gl_cs_trial_pick(&p->cs);
    // The run's index rides in the slot record so the sample, read frames
    // later, knows whether it was a warm-up run.
    p->cs_slot[slot] = (uint8_t)(1 + compute + 2 * (p->cs.runs[compute] < GL_CS_WARMUP ? 0 : 1));
    gl_cs_trial_ran(&p->cs, compute);
    return compute;
}

// --- qualification and the program ---

static bool ident_char(char c) {
    return isalnum((unsigned char)c) || c == '_';
}

// Does glsl sample `name` through a function that derives the LOD itself?
// Every use of the name is looked at: the declaration and the explicit-LOD,
// fetch, gather and size functions are not; anything else (texture(),
// textureOffset(), textureProj(), a helper taking the sampler) is, to be
// safe.
static bool samples_implicitly(const char *glsl, const char *name) {
    static const char *const explicit_fns[] = {
        "textureLod", "textureLodOffset", "texelFetch", "texelFetchOffset", "textureSize",
        "textureGrad", "textureGradOffset", "textureQueryLevels", "textureGather",
        "textureGatherOffset", "textureGatherOffsets", "textureProjLod", "textureProjLodOffset",
        "textureProjGrad", "textureProjGradOffset",
    };
    size_t n = strlen(name);
    for (const char *q = strstr(glsl, name); q; q = strstr(q + n, name)) {
        if ((q > glsl && ident_char(q[-1])) || ident_char(q[n])) {
            continue;
        }
        const char *b = q;
        while (b > glsl && (b[-1] == ' ' || b[-1] == '\n')) {
            b--;
        }
        bool call = b > glsl && b[-1] == '(';
        if (call) {
            b--;
            while (b > glsl && b[-1] == ' ') {
                b--;
            }
        }
        const char *w = b;
        while (w > glsl && ident_char(w[-1])) {
            w--;
        }
        size_t wl = (size_t)(b - w);
        if (!call) {
            // "uniform sampler2D name": its declaration.
            const char *s = w;
            if (*s == 'i' || *s == 'u') {
                s++;
            }
            if (strncmp(s, "sampler", 7) == 0) {
                continue;
            }
            return true;
        }
        bool known = false;
        for (size_t i = 0; i < sizeof(explicit_fns) / sizeof(explicit_fns[0]) && !known; i++) {
            known = strlen(explicit_fns[i]) == wl && strncmp(w, explicit_fns[i], wl) == 0;
        }
        if (!known) {
            return true;
        }
    }
    return false;
}

// True when word appears in glsl as a whole identifier outside #define
// lines (the header's `#define dFdxFine dFdx` fallbacks use nothing).
static bool mentions(const char *glsl, const char *word) {
    size_t n = strlen(word);
    for (const char *q = strstr(glsl, word); q; q = strstr(q + n, word)) {
        if ((q > glsl && ident_char(q[-1])) || ident_char(q[n])) {
            continue;
        }
        const char *line = q;
        while (line > glsl && line[-1] != '\n') {
            line--;
        }
        if (strncmp(line, "#define ", 8) != 0) {
            return true;
        }
    }
    return false;
}

// Why pass p cannot run as compute with the same pixels; NULL: it can.
static const char *refusal(fxgl_runtime *rt, const gl_loaded_effect *e, const gl_pass *p) {
    const fxgl_effect *fx = e->fx;
    const fxgl_pass *fp = p->src;
    if (p->compute || fp->pixel_shader < 0 || !fx->shaders[fp->pixel_shader].glsl) {
        return "not a pixel pass";
    }
    const fxgl_shader *ps = &fx->shaders[fp->pixel_shader];
    const char *glsl = ps->glsl;
    if (!strstr(glsl, "_gcompute")) {
        return "its GLSL has no compute form";
    }
    if (!p->exact_defines || !strstr(p->exact_defines, "_gexact_pos") || !p->exact_modes) {
        return "its vertex shader was not proved fullscreen with SV_Position.zw = (0.5, 1)";
    }
    static const char *const stage_only[] = {
        "discard", "dFdx", "dFdy", "dFdxFine", "dFdyFine", "dFdxCoarse", "dFdyCoarse",
        "fwidth", "fwidthFine", "fwidthCoarse", "gl_FragDepth", "gl_FrontFacing",
        "gl_SampleID", "gl_SamplePosition", "gl_SampleMaskIn", "gl_HelperInvocation",
        "interpolateAtCentroid", "interpolateAtSample", "interpolateAtOffset",
    };
    for (size_t i = 0; i < sizeof(stage_only) / sizeof(stage_only[0]); i++) {
        if (mentions(glsl, stage_only[i])) {
            return "its pixel shader uses what only the fragment stage has (discard, "
                   "derivatives, depth output, facing, samples)";
        }
    }
    if (p->target_count > 1) {
        return "it has more than one render target";
    }
    if (p->srgb_write) {
        return "it writes sRGB (no image format encodes sRGB)";
    }
    if (p->stencil.enable || fp->stencil_enable) {
        return "it uses the stencil";
    }
    if (p->blend[0].enable) {
        return "it blends";
    }
    const gl_format *f = p->to_backbuffer ? gl_format_get(FXGL_FORMAT_RGBA8) : p->targets[0]->fmt;
    unsigned all = (1u << f->channels) - 1u;
    if ((p->blend[0].mask & all) != all || ps->target_components[0] < f->channels) {
        return "it leaves channels of its target unwritten (colour mask or a short output)";
    }
    if (!p->to_backbuffer) {
        const gl_tex *t = p->targets[0];
        bool es = rt->info.api == FXGL_API_GLES;
        GLenum internal = es ? f->internal_es : f->internal;
        if (!f->image || (es && !f->image_es) || t->target != GL_TEXTURE_2D ||
            t->internal != internal) {
            return "its render target's format has no image format here";
        }
        // An image store converts to the format on its own path: 8-bit UNORM,
        // half and full floats and integers store the values a fragment output
        // does (float/integer exactly; 8-bit and half measured equal,
        // tests/gl/test_compute.c); llvmpipe rounds RGB10A2 differently
        // (up to 2 in 1023). 10-bit, 11/10-bit float and 16-bit UNORM targets
        // stay fragment.
        if (t->format == FXGL_FORMAT_RGB10A2 || t->format == FXGL_FORMAT_RG11B10F ||
            t->format == FXGL_FORMAT_R16 || t->format == FXGL_FORMAT_RG16 ||
            t->format == FXGL_FORMAT_RGBA16) {
            return "its render target's format is stored with another rounding by images";
        }
        int w = p->width, h = p->height;
        if (p->clear && (w < t->width || h < t->height)) {
            return "it clears texels its viewport does not cover";
        }
    }
    // Every exact varying all x, y or zero: the compute form has nothing else.
    for (int i = 0; i < 4 * p->exact_count; i++) {
        if (p->exact_modes[i] == GL_EXACT_INTERPOLATED) {
            return "a varying it reads is neither a fullscreen texcoord nor zero";
        }
    }
    for (size_t b = 0; b < ps->sampler_count; b++) {
        const fxgl_binding *fb = &ps->samplers[b];
        if (!samples_implicitly(glsl, fb->name)) {
            continue;
        }
        const fxgl_sampler *s = &fx->samplers[fb->object];
        if (s->min_filter == FXGL_FILTER_ANISOTROPIC || s->mag_filter == FXGL_FILTER_ANISOTROPIC ||
            s->mip_filter == FXGL_FILTER_ANISOTROPIC) {
            return "it samples anisotropically";
        }
        if ((s->min_filter == FXGL_FILTER_POINT) != (s->mag_filter == FXGL_FILTER_POINT)) {
            return "it samples with implicit LOD through a sampler whose minification and "
                   "magnification filters differ";
        }
        const gl_tex *t = e->textures[s->texture];
        int slot = e->slots[s->texture];
        if (t ? t->levels > 1 : slot != GL_SLOT_COLOR && slot != GL_SLOT_DEPTH && slot >= 0) {
            return "it samples a mipmapped (or another provider's) texture with implicit LOD";
        }
    }
    return NULL;
}

void gl_cs_load(fxgl_runtime *rt, gl_loaded_effect *e, gl_pass *p) {
    p->cs_view_loc = -1;
    p->cs.state = GL_CS_NONE;
    if (rt->cs_mode == FXGL_COMPUTE_OFF) {
        return;
    }
    const char *why = refusal(rt, e, p);
    if (why) {
        gl_log(rt, FXGL_GL_LOG_DEBUG, "%s: pass '%s' stays fragment: %s", e->file, p->label,
               why);
        return;
    }
    const fxgl_shader *ps = &e->fx->shaders[p->src->pixel_shader];
    const gl_format *f = p->to_backbuffer ? gl_format_get(FXGL_FORMAT_RGBA8) : p->targets[0]->fmt;
    // The source: #version, then _gcompute (the image format), _gexact_view,
    // _gexact_pos and per varying _gx_<SEMANTIC> with zero as its own mode
    // (the fragment defines say interpolated there), then the rest.
    size_t len = strlen(ps->glsl) + strlen(p->exact_defines) + 64;
    for (int i = 0; i < p->exact_count; i++) {
        len += strlen(ps->exact_varyings[i]) + 48;
    }
    char *src = malloc(len);
    if (!src) {
        return;
    }
    const char *nl = strchr(ps->glsl, '\n');
    size_t at = (size_t)(nl - ps->glsl + 1);
    memcpy(src, ps->glsl, at);
    at += (size_t)snprintf(src + at, len - at, "#define _gcompute %s\n%s", f->image,
                           !f->is_float && !f->integer ? "#define _gcs_unorm 1\n" : "");
    // _gexact_view and _gexact_pos from the fragment defines, the modes from exact_modes.
    for (const char *l = p->exact_defines; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l + 1) : strlen(l);
        if (strncmp(l, "#define _gx_", 12) != 0) {
            memcpy(src + at, l, n);
            at += n;
        }
        l += n;
    }
    for (int i = 0; i < p->exact_count; i++) {
        const uint8_t *m = p->exact_modes + 4 * i;
        at += (size_t)snprintf(src + at, len - at, "#define _gx_%s ivec4(%d, %d, %d, %d)\n",
                               ps->exact_varyings[i] + 3, m[0], m[1], m[2], m[3]);
    }
    snprintf(src + at, len - at, "%s", nl + 1);
    const char *sources[1] = {src};
    GLenum stages[1] = {GL_COMPUTE_SHADER};
    char reason[300];
    GLuint prog = gl_compile_program(rt, sources, stages, 1, reason, sizeof(reason));
    free(src);
    if (!prog) {
        gl_log(rt, FXGL_GL_LOG_DEBUG, "%s: pass '%s' stays fragment: its compute form: %s",
               e->file, p->label, reason);
        return;
    }
    GLC(rt, UseProgram(prog));
    GLuint block = GLC(rt, GetUniformBlockIndex(prog, FXGL_GLSL_UNIFORM_BLOCK));
    if (block != GL_INVALID_INDEX) {
        GLC(rt, UniformBlockBinding(prog, block, 0));
    }
    // The same units as the fragment program's: the pass's binds serve both.
    for (size_t b = 0; b < ps->sampler_count; b++) {
        const fxgl_binding *fb = &ps->samplers[b];
        for (int k = 0; k < p->bind_count; k++) {
            if (p->binds[k].object == fb->object) {
                GLint loc = GLC(rt, GetUniformLocation(prog, fb->name));
                if (loc >= 0) {
                    GLC(rt, Uniform1i(loc, p->binds[k].unit));
                }
            }
        }
    }
    p->cs_program = prog;
    p->cs_view_loc = GLC(rt, GetUniformLocation(prog, "_fxgl_view"));
    p->cs_target = p->to_backbuffer ? NULL : p->targets[0];
    p->cs.state = rt->cs_mode == FXGL_COMPUTE_ON ? GL_CS_COMPUTE
                  : rt->cs_clock == GL_CS_CLOCK_NONE ? GL_CS_FRAGMENT
                                                     : GL_CS_TRIAL;
    gl_label(rt, GL_PROGRAM, prog, p->label);
}

void gl_cs_unload(fxgl_runtime *rt, gl_pass *p) {
    if (p->cs_program) {
        GLC(rt, DeleteProgram(p->cs_program));
        p->cs_program = 0;
    }
}
