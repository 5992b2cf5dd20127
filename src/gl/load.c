/*
 * load.c - turns an effect module into GL objects, once, in the frame
 * thread (the loading half of sokol's two phases).
 *
 * Textures are immutable storage (glTexStorage*) zero-filled or filled from
 * a `source=` image; RGBA8 textures get an SRGB8_ALPHA8 texture view where
 * the context has views (GL 4.3, OES/EXT_texture_view), which is how sRGB
 * reads (SRGBTexture) and writes (SRGBWriteEnable) work without copies.
 * Textures are shared across effects by namespaced name and `pooled` ones
 * by shape. Samplers are deduplicated by description. Each pass gets one
 * program (VS+PS or CS), its sampler units assigned by name (the contract
 * lets the runtime do this, so VS/PS collisions and targets without binding
 * qualifiers need no special case), and an immutable gl_pass record.
 *
 * Errors are never taken from glGetError (that would swallow the
 * application's errors): compile and link status, framebuffer completeness
 * and the format table decide. A failure unwinds the effect's objects and
 * leaves a reason; the frame goes on with the other effects.
 */
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_exact.h"
#include "gl_runtime.h"

// --- formats ---

#define F(internal, es, format, type, bpp, ch, integer, flt, image, image_es) \
    {internal, es, format, type, bpp, ch, integer, flt, image, image_es}
static const gl_format formats[FXGL_FORMAT_COUNT] = {
    [FXGL_FORMAT_R8] = F(GL_R8, GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, 1, false, false, "r8", false),
    [FXGL_FORMAT_R16] = F(GL_R16, 0, GL_RED, GL_UNSIGNED_SHORT, 2, 1, false, false, "r16", false),
    [FXGL_FORMAT_R16F] = F(GL_R16F, GL_R16F, GL_RED, GL_HALF_FLOAT, 2, 1, false, true, "r16f",
                           false),
    [FXGL_FORMAT_R32I] = F(GL_R32I, GL_R32I, GL_RED_INTEGER, GL_INT, 4, 1, true, false, "r32i",
                           true),
    [FXGL_FORMAT_R32U] = F(GL_R32UI, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4, 1, true, false,
                           "r32ui", true),
    [FXGL_FORMAT_R32F] = F(GL_R32F, GL_R32F, GL_RED, GL_FLOAT, 4, 1, false, true, "r32f", true),
    [FXGL_FORMAT_RG8] = F(GL_RG8, GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, 2, false, false, "rg8",
                          false),
    [FXGL_FORMAT_RG16] = F(GL_RG16, 0, GL_RG, GL_UNSIGNED_SHORT, 4, 2, false, false, "rg16",
                           false),
    [FXGL_FORMAT_RG16F] = F(GL_RG16F, GL_RG16F, GL_RG, GL_HALF_FLOAT, 4, 2, false, true, "rg16f",
                            false),
    [FXGL_FORMAT_RG32F] = F(GL_RG32F, GL_RG32F, GL_RG, GL_FLOAT, 8, 2, false, true, "rg32f",
                            false),
    [FXGL_FORMAT_RGBA8] = F(GL_RGBA8, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4, false, false,
                            "rgba8", true),
    [FXGL_FORMAT_RGBA16] = F(GL_RGBA16, 0, GL_RGBA, GL_UNSIGNED_SHORT, 8, 4, false, false,
                             "rgba16", false),
    [FXGL_FORMAT_RGBA16F] = F(GL_RGBA16F, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, 4, false, true,
                              "rgba16f", true),
    [FXGL_FORMAT_RGBA32I] = F(GL_RGBA32I, GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, 16, 4, true, false,
                              "rgba32i", true),
    [FXGL_FORMAT_RGBA32U] = F(GL_RGBA32UI, GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16, 4,
                              true, false, "rgba32ui", true),
    [FXGL_FORMAT_RGBA32F] = F(GL_RGBA32F, GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, 4, false, true,
                              "rgba32f", true),
    [FXGL_FORMAT_RGB10A2] = F(GL_RGB10_A2, GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4,
                              4, false, false, "rgb10_a2", false),
    [FXGL_FORMAT_RG11B10F] = F(GL_R11F_G11F_B10F, GL_R11F_G11F_B10F, GL_RGB,
                               GL_UNSIGNED_INT_10F_11F_11F_REV, 4, 3, false, true,
                               "r11f_g11f_b10f", false),
};
#undef F

const gl_format *gl_format_get(fxgl_format format) {
    if (format <= FXGL_FORMAT_UNKNOWN || format >= FXGL_FORMAT_COUNT) {
        return NULL;
    }
    return &formats[format];
}

// --- helpers ---

static void fail(char *reason, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(char *reason, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, size, fmt, ap);
    va_end(ap);
}

void gl_label(fxgl_runtime *rt, GLenum kind, GLuint name, const char *label) {
    if (rt->object_label && name && label) {
        GLP(rt, rt->object_label(kind, name, -1, label));
    }
}

// The first line of a driver log, for a reason string.
static void first_lines(char *dst, size_t size, const char *log) {
    size_t n = 0;
    for (const char *p = log; *p && n + 1 < size; p++) {
        dst[n++] = *p == '\n' ? ' ' : *p;
    }
    dst[n] = '\0';
}

// defines: more #define lines after #version (a pixel shader's exact
// varyings), or NULL.
static GLuint compile_shader_with(fxgl_runtime *rt, GLenum stage, const char *source,
                                  const char *defines, char *reason, size_t size) {
    GLuint sh = GLC(rt, CreateShader(stage));
    rt->programs.shader_compiles++;
    // Storages in stand-in formats: the code declares them so when this is
    // defined (after #version, which must come first).
    const char *nl = strchr(source, '\n');
    bool emulated = rt->emulate_image_formats && nl && strstr(source, "_gemulated_formats");
    if (nl && (emulated || defines)) {
        const char *parts[4] = {source, emulated ? "#define _gemulated_formats 1\n" : "",
                                defines ? defines : "", nl + 1};
        GLint lengths[4] = {(GLint)(nl + 1 - source), -1, -1, -1};
        GLC(rt, ShaderSource(sh, 4, parts, lengths));
    } else {
        GLC(rt, ShaderSource(sh, 1, &source, NULL));
    }
    GLC(rt, CompileShader(sh));
    rt->compile_calls++;
    GLint ok = 0;
    GLC(rt, GetShaderiv(sh, GL_COMPILE_STATUS, &ok));
    if (!ok) {
        char log[1024] = "";
        GLC(rt, GetShaderInfoLog(sh, sizeof(log), NULL, log));
        char line[400];
        first_lines(line, sizeof(line), log);
        fail(reason, size, "%s shader does not compile: %s",
             stage == GL_VERTEX_SHADER ? "vertex" : stage == GL_FRAGMENT_SHADER ? "pixel"
                                                                                : "compute",
             line);
        GLC(rt, DeleteShader(sh));
        return 0;
    }
    return sh;
}

static GLuint compile_shader(fxgl_runtime *rt, GLenum stage, const char *source, char *reason,
                             size_t size) {
    return compile_shader_with(rt, stage, source, NULL, reason, size);
}

static GLuint link_program(fxgl_runtime *rt, const GLuint *shaders, int count, char *reason,
                           size_t size) {
    GLuint prog = GLC(rt, CreateProgram());
    for (int i = 0; i < count; i++) {
        GLC(rt, AttachShader(prog, shaders[i]));
    }
    gl_progcache_hint(rt, prog);
    GLC(rt, LinkProgram(prog));
    rt->compile_calls++;
    for (int i = 0; i < count; i++) {
        GLC(rt, DetachShader(prog, shaders[i]));
    }
    GLint ok = 0;
    GLC(rt, GetProgramiv(prog, GL_LINK_STATUS, &ok));
    if (!ok) {
        char log[1024] = "";
        GLC(rt, GetProgramInfoLog(prog, sizeof(log), NULL, log));
        char line[400];
        first_lines(line, sizeof(line), log);
        fail(reason, size, "program does not link: %s", line);
        GLC(rt, DeleteProgram(prog));
        return 0;
    }
    return prog;
}

GLuint gl_compile_program(fxgl_runtime *rt, const char *const *sources, const GLenum *stages,
                          int count, char *reason, size_t reason_size) {
    uint64_t key;
    GLuint cached = gl_progcache_load_sources(rt, sources, stages, count, &key);
    if (cached) {
        return cached;
    }
    GLuint sh[3] = {0};
    for (int i = 0; i < count; i++) {
        sh[i] = compile_shader(rt, stages[i], sources[i], reason, reason_size);
        if (!sh[i]) {
            for (int j = 0; j < i; j++) {
                GLC(rt, DeleteShader(sh[j]));
            }
            return 0;
        }
    }
    GLuint prog = link_program(rt, sh, count, reason, reason_size);
    for (int i = 0; i < count; i++) {
        GLC(rt, DeleteShader(sh[i]));
    }
    if (prog) {
        gl_progcache_store_sources(rt, key, prog);
    }
    return prog;
}

// --- textures ---

static GLenum tex_target(fxgl_runtime *rt, fxgl_texture_dim dim) {
    if (dim == FXGL_TEXTURE_3D) {
        return GL_TEXTURE_3D;
    }
    if (dim == FXGL_TEXTURE_1D && rt->info.api == FXGL_API_GL) {
        return GL_TEXTURE_1D;
    }
    return GL_TEXTURE_2D; // GLES has no 1D textures: a 2D texture of height 1
}

static void tex_destroy(fxgl_runtime *rt, gl_tex *t) {
    // A texture of the share group is deleted only by its last user (share.c).
    if (gl_share_image_drop(rt, t, true)) {
        if (t->srgb && t->srgb != t->tex) {
            GLC(rt, DeleteTextures(1, &t->srgb));
        }
        GLC(rt, DeleteTextures(1, &t->tex));
    }
    free(t->name);
    free(t);
}

void gl_tex_release(fxgl_runtime *rt, gl_tex *t) {
    if (!t || --t->refs > 0) {
        return;
    }
    for (size_t i = 0; i < rt->texture_count; i++) {
        if (rt->textures[i] == t) {
            rt->textures[i] = rt->textures[--rt->texture_count];
            break;
        }
    }
    tex_destroy(rt, t);
}

// Uploads level 0 (data) or zeros into every level.
static void tex_fill(fxgl_runtime *rt, gl_tex *t, const void *data) {
    const gl_format *f = t->fmt;
    size_t bytes = (size_t)t->width * (size_t)t->height * (size_t)t->depth * (size_t)f->bpp;
    void *zeros = data ? NULL : calloc(1, bytes);
    if (!data && !zeros) {
        return;
    }
    GLC(rt, PixelStorei(GL_UNPACK_ALIGNMENT, 1));
    for (int l = 0; l < t->levels; l++) {
        int w = t->width >> l, h = t->height >> l, d = t->depth >> l;
        w = w < 1 ? 1 : w;
        h = h < 1 ? 1 : h;
        d = d < 1 ? 1 : d;
        const void *src = l == 0 && data ? data : zeros;
        if (!src) {
            break; // an image fills level 0; mips are generated from it
        }
        if (t->target == GL_TEXTURE_3D) {
            GLC(rt, TexSubImage3D(t->target, l, 0, 0, 0, w, h, d, f->format, f->type, src));
        } else if (t->target == GL_TEXTURE_1D) {
            GLC(rt, TexSubImage1D(t->target, l, 0, w, f->format, f->type, src));
        } else {
            GLC(rt, TexSubImage2D(t->target, l, 0, 0, w, h, f->format, f->type, src));
        }
    }
    GLC(rt, PixelStorei(GL_UNPACK_ALIGNMENT, 4));
    free(zeros);
}

static gl_tex *tex_create(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_texture *ft,
                          char *reason,
                          size_t size) {
    const gl_format *f = gl_format_get(ft->format);
    if (!f) {
        fail(reason, size, "texture '%s' has no format", ft->name);
        return NULL;
    }
    GLenum internal = f->internal;
    int channels = f->channels;      // the declared format's: a stand-in reads as it
    if (rt->info.api == FXGL_API_GLES && ft->storage_access && !f->image_es) {
        // GLSL ES stores only a few formats (the back end's es_fallback_format).
        fxgl_format alt = fxgl_es_storage_format(ft->format);
        if (!rt->emulate_image_formats) {
            if (!f->internal_es && !rt->norm16) {
                fail(reason, size, "texture '%s': %s storages on GLES need EXT_texture_norm16",
                     ft->name, fxgl_format_name(ft->format));
                return NULL;
            }
        } else if (alt == FXGL_FORMAT_UNKNOWN) {
            fail(reason, size, "texture '%s': %s storages on GLES need GL_NV_image_formats",
                 ft->name, fxgl_format_name(ft->format));
            return NULL;
        } else {
            f = gl_format_get(alt);
        }
    }
    if (rt->info.api == FXGL_API_GLES) {
        internal = f->internal_es;
        if (!internal && rt->norm16) {
            internal = f->internal; // EXT_texture_norm16 uses the same enums
        }
        if (!internal) {
            // 16-bit UNORM without EXT_texture_norm16: half floats keep the
            // range and more than 10 bits of precision.
            fxgl_format alt = ft->format == FXGL_FORMAT_R16    ? FXGL_FORMAT_R16F
                              : ft->format == FXGL_FORMAT_RG16 ? FXGL_FORMAT_RG16F
                                                               : FXGL_FORMAT_RGBA16F;
            gl_log(rt, FXGL_GL_LOG_WARN, "%s: texture '%s': %s is not available, using %s",
                   e->file, ft->name, fxgl_format_name(ft->format), fxgl_format_name(alt));
            f = gl_format_get(alt);
            internal = f->internal_es;
        }
        if (f->is_float && ft->render_target && !rt->float_render) {
            fail(reason, size, "texture '%s': %s render targets need EXT_color_buffer_float",
                 ft->name, fxgl_format_name(ft->format));
            return NULL;
        }
    }
    int limit = ft->dim == FXGL_TEXTURE_3D ? rt->max_3d_size : rt->max_texture_size;
    if (ft->width > limit || ft->height > limit ||
        (ft->dim == FXGL_TEXTURE_3D && ft->depth > limit)) {
        fail(reason, size,
             "%s(%d, %d): texture '%s' is %dx%dx%d; the context allows at most %d (%s)",
             ft->file ? ft->file : e->file, ft->line, ft->col, ft->name, ft->width, ft->height,
             ft->depth, limit,
             ft->dim == FXGL_TEXTURE_3D ? "GL_MAX_3D_TEXTURE_SIZE" : "GL_MAX_TEXTURE_SIZE");
        return NULL;
    }
    if (ft->storage_access && !f->image) {
        fail(reason, size, "texture '%s': %s has no image format for a storage", ft->name,
             fxgl_format_name(ft->format));
        return NULL;
    }
    gl_tex *t = calloc(1, sizeof(*t));
    if (!t || !(t->name = strdup(ft->name))) {
        free(t);
        fail(reason, size, "out of memory");
        return NULL;
    }
    t->fmt = f;
    t->format = ft->format;
    t->internal = internal;
    t->dim = ft->dim;
    t->target = tex_target(rt, ft->dim);
    t->width = ft->width;
    t->height = ft->dim == FXGL_TEXTURE_1D ? 1 : ft->height;
    t->depth = ft->dim == FXGL_TEXTURE_3D ? ft->depth : 1;
    t->levels = ft->levels;
    t->pooled = ft->pooled;
    // A full chain is at most floor(log2(max)) + 1 levels.
    int maxdim = t->width > t->height ? t->width : t->height;
    maxdim = t->depth > maxdim ? t->depth : maxdim;
    int full = 1;
    while ((maxdim >> full) > 0) {
        full++;
    }
    if (t->levels > full) {
        t->levels = full;
    }
    void *data = NULL;
    if (ft->source) {
        char why[1400];
        if (!gl_image_load(rt, e->fx->path, ft, f, &data, why, sizeof(why))) {
            // The reference's behaviour: the texture stays zero, the effect runs; the
            // technique's "loaded" line says so too (fxgl_technique_info.warning).
            gl_log(rt, FXGL_GL_LOG_ERROR, "%s: texture '%s': %s", e->file, ft->name, why);
            size_t used = strlen(e->warning);
            snprintf(e->warning + used, sizeof(e->warning) - used, "%stexture '%s' (%s) missing",
                     used ? ", " : "", ft->name, ft->source);
        }
    }
    // An image nothing writes is the same in every context of the share group: the
    // group's copy when it has one (share.c), else made here and offered to the group.
    bool shareable = data && rt->share && !ft->render_target && !ft->storage_access;
    uint64_t hash = 0;
    if (shareable) {
        hash = gl_share_image_hash(t, channels, data,
                                   (size_t)t->width * (size_t)t->height * (size_t)t->depth *
                                       (size_t)f->bpp);
        if (gl_share_image_take(rt, t, channels, hash)) {
            free(data);
            rt->share_stats.images_shared++;
            t->mip_program_key = NULL; // mips were made with the pixels, by the maker
            t->refs = 1;
            return t;
        }
    }
    rt->share_stats.textures_created++;
    rt->share_stats.images_uploaded += data != NULL;
    GLC(rt, GenTextures(1, &t->tex));
    GLC(rt, BindTexture(t->target, t->tex));
    if (channels < f->channels) {
        // A stand-in with more channels: samplers see the missing ones as
        // the real format gives them (0, 0, 1), whatever was written there.
        GLC(rt, TexParameteri(t->target, GL_TEXTURE_SWIZZLE_G, channels < 2 ? GL_ZERO : GL_GREEN));
        GLC(rt, TexParameteri(t->target, GL_TEXTURE_SWIZZLE_B, channels < 3 ? GL_ZERO : GL_BLUE));
        GLC(rt, TexParameteri(t->target, GL_TEXTURE_SWIZZLE_A, GL_ONE));
    }
    if (t->target == GL_TEXTURE_3D) {
        GLC(rt, TexStorage3D(t->target, t->levels, internal, t->width, t->height, t->depth));
    } else if (t->target == GL_TEXTURE_1D) {
        GLC(rt, TexStorage1D(t->target, t->levels, internal, t->width));
    } else {
        GLC(rt, TexStorage2D(t->target, t->levels, internal, t->width, t->height));
    }
    tex_fill(rt, t, data);
    free(data);
    t->srgb = t->tex;
    if (ft->format == FXGL_FORMAT_RGBA8 && rt->has_views && t->target == GL_TEXTURE_2D) {
        GLC(rt, GenTextures(1, &t->srgb));
        GLP(rt, rt->texture_view(t->srgb, GL_TEXTURE_2D, t->tex, GL_SRGB8_ALPHA8, 0,
                                 (GLuint)t->levels, 0, 1));
    }
    if (t->levels > 1 && !f->integer) {
        bool image_ok = rt->has_compute && t->target == GL_TEXTURE_2D &&
                        (rt->info.api == FXGL_API_GL || f->image_es);
        t->mip_program_key = image_ok ? f->image : NULL;
        if (t->mip_program_key && !gl_mip_program(rt, t->mip_program_key, true)) {
            t->mip_program_key = NULL;
        }
        if (data) {
            gl_generate_mips(rt, t);
        }
    }
    gl_label(rt, GL_TEXTURE, t->tex, t->name);
    if (shareable) {
        gl_share_image_put(rt, t, channels, hash);
    }
    t->refs = 1;
    return t;
}

// Finds the texture an effect texture maps to: shared by name, pooled by
// shape (never twice within one effect), or new.
static gl_tex *tex_acquire(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_texture *ft,
                           char *reason,
                           size_t size) {
    uint64_t bit = 1ull << (e->index % 64);
    for (size_t i = 0; i < rt->texture_count; i++) {
        gl_tex *t = rt->textures[i];
        if (strcmp(t->name, ft->name) == 0) {
            if (t->width != ft->width || t->format != ft->format || t->levels > ft->levels) {
                gl_log(rt, FXGL_GL_LOG_WARN,
                       "%s: texture '%s' is shared with a different declaration; the first "
                       "one (%dx%d %s) is used",
                       e->file, ft->name, t->width, t->height, fxgl_format_name(t->format));
            }
            t->refs++;
            t->users |= bit;
            return t;
        }
    }
    if (ft->pooled) {
        for (size_t i = 0; i < rt->texture_count; i++) {
            gl_tex *t = rt->textures[i];
            if (t->pooled && !(t->users & bit) && t->dim == ft->dim && t->width == ft->width &&
                t->height == ft->height && t->depth == ft->depth && t->levels == ft->levels &&
                t->format == ft->format) {
                t->refs++;
                t->users |= bit;
                return t;
            }
        }
    }
    gl_tex **grown = realloc(rt->textures, (rt->texture_count + 1) * sizeof(*grown));
    if (!grown) {
        fail(reason, size, "out of memory");
        return NULL;
    }
    rt->textures = grown;
    gl_tex *t = tex_create(rt, e, ft, reason, size);
    if (!t) {
        return NULL;
    }
    t->users = bit;
    rt->textures[rt->texture_count++] = t;
    return t;
}

static int semantic_slot(fxgl_runtime *rt, const char *semantic) {
    for (int i = 0; i < rt->semantic_count; i++) {
        if (strcmp(rt->semantics[i].name, semantic) == 0) {
            return i;
        }
    }
    if (rt->semantic_count == GL_RT_MAX_SEMANTICS) {
        return -1; // reads the empty texture
    }
    gl_semantic *s = &rt->semantics[rt->semantic_count];
    snprintf(s->name, sizeof(s->name), "%s", semantic);
    s->texture = 0;
    return rt->semantic_count++;
}

// --- samplers ---

static GLenum address(fxgl_runtime *rt, fxgl_address a) {
    switch (a) {
    case FXGL_ADDRESS_WRAP: return GL_REPEAT;
    case FXGL_ADDRESS_MIRROR: return GL_MIRRORED_REPEAT;
    case FXGL_ADDRESS_BORDER: return rt->border_clamp ? GL_CLAMP_TO_BORDER : GL_CLAMP_TO_EDGE;
    case FXGL_ADDRESS_CLAMP:
    default: return GL_CLAMP_TO_EDGE;
    }
}

static GLuint sampler_get(fxgl_runtime *rt, const fxgl_sampler *s) {
    uint32_t key[12] = {
        s->address_u, s->address_v, s->address_w, s->min_filter, s->mag_filter, s->mip_filter,
    };
    memcpy(&key[6], &s->min_lod, 4);
    memcpy(&key[7], &s->max_lod, 4);
    memcpy(&key[8], &s->lod_bias, 4);
    for (size_t i = 0; i < rt->sampler_count; i++) {
        if (memcmp(rt->samplers[i].key, key, sizeof(key)) == 0) {
            return rt->samplers[i].sampler;
        }
    }
    gl_sampler_entry *grown = realloc(rt->samplers, (rt->sampler_count + 1) * sizeof(*grown));
    if (!grown) {
        return 0;
    }
    rt->samplers = grown;
    GLuint smp = 0;
    GLC(rt, GenSamplers(1, &smp));
    bool aniso = s->min_filter == FXGL_FILTER_ANISOTROPIC ||
                 s->mag_filter == FXGL_FILTER_ANISOTROPIC ||
                 s->mip_filter == FXGL_FILTER_ANISOTROPIC;
    bool min_lin = s->min_filter != FXGL_FILTER_POINT;
    bool mag_lin = s->mag_filter != FXGL_FILTER_POINT;
    bool mip_lin = s->mip_filter != FXGL_FILTER_POINT;
    GLenum min = min_lin ? (mip_lin ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST)
                         : (mip_lin ? GL_NEAREST_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST);
    GLC(rt, SamplerParameteri(smp, GL_TEXTURE_MIN_FILTER, (GLint)min));
    GLC(rt, SamplerParameteri(smp, GL_TEXTURE_MAG_FILTER, mag_lin ? GL_LINEAR : GL_NEAREST));
    GLC(rt, SamplerParameteri(smp, GL_TEXTURE_WRAP_S, (GLint)address(rt, s->address_u)));
    GLC(rt, SamplerParameteri(smp, GL_TEXTURE_WRAP_T, (GLint)address(rt, s->address_v)));
    GLC(rt, SamplerParameteri(smp, GL_TEXTURE_WRAP_R, (GLint)address(rt, s->address_w)));
    // GL clamps LODs itself; +-FLT_MAX (the reference's defaults) are legal.
    GLC(rt, SamplerParameterf(smp, GL_TEXTURE_MIN_LOD, s->min_lod));
    GLC(rt, SamplerParameterf(smp, GL_TEXTURE_MAX_LOD, s->max_lod));
    if (rt->info.api == FXGL_API_GL && s->lod_bias != 0.0f) {
        GLC(rt, SamplerParameterf(smp, GL_TEXTURE_LOD_BIAS, s->lod_bias));
    }
    if (aniso && rt->info.has_anisotropy) {
        GLC(rt, SamplerParameterf(smp, GL_TEXTURE_MAX_ANISOTROPY, 16.0f));
    }
    gl_sampler_entry *entry = &rt->samplers[rt->sampler_count++];
    memcpy(entry->key, key, sizeof(key));
    entry->sampler = smp;
    return smp;
}

// --- passes ---

static GLenum blend_factor(fxgl_blend_factor f) {
    switch (f) {
    case FXGL_BLEND_ZERO: return GL_ZERO;
    case FXGL_BLEND_ONE: return GL_ONE;
    case FXGL_BLEND_SRCCOLOR: return GL_SRC_COLOR;
    case FXGL_BLEND_INVSRCCOLOR: return GL_ONE_MINUS_SRC_COLOR;
    case FXGL_BLEND_DESTCOLOR: return GL_DST_COLOR;
    case FXGL_BLEND_INVDESTCOLOR: return GL_ONE_MINUS_DST_COLOR;
    case FXGL_BLEND_SRCALPHA: return GL_SRC_ALPHA;
    case FXGL_BLEND_INVSRCALPHA: return GL_ONE_MINUS_SRC_ALPHA;
    case FXGL_BLEND_DESTALPHA: return GL_DST_ALPHA;
    case FXGL_BLEND_INVDESTALPHA: return GL_ONE_MINUS_DST_ALPHA;
    }
    return GL_ONE;
}

static GLenum blend_op(fxgl_blend_op op) {
    switch (op) {
    case FXGL_BLEND_OP_SUBTRACT: return GL_FUNC_SUBTRACT;
    case FXGL_BLEND_OP_REVSUBTRACT: return GL_FUNC_REVERSE_SUBTRACT;
    case FXGL_BLEND_OP_MIN: return GL_MIN;
    case FXGL_BLEND_OP_MAX: return GL_MAX;
    case FXGL_BLEND_OP_ADD:
    default: return GL_FUNC_ADD;
    }
}

static GLenum compare(fxgl_compare c) {
    static const GLenum map[] = {GL_NEVER,   GL_LESS,     GL_EQUAL,  GL_LEQUAL,
                                 GL_GREATER, GL_NOTEQUAL, GL_GEQUAL, GL_ALWAYS};
    return (unsigned)c < 8 ? map[c] : GL_ALWAYS;
}

static GLenum stencil_op(fxgl_stencil_op o) {
    static const GLenum map[] = {GL_ZERO,   GL_KEEP,      GL_REPLACE, GL_INCR,
                                 GL_DECR,   GL_INVERT,    GL_INCR_WRAP, GL_DECR_WRAP};
    return (unsigned)o < 8 ? map[o] : GL_KEEP;
}

static GLenum topology(fxgl_topology t) {
    switch (t) {
    case FXGL_TOPOLOGY_POINTLIST: return GL_POINTS;
    case FXGL_TOPOLOGY_LINELIST: return GL_LINES;
    case FXGL_TOPOLOGY_LINESTRIP: return GL_LINE_STRIP;
    case FXGL_TOPOLOGY_TRIANGLESTRIP: return GL_TRIANGLE_STRIP;
    case FXGL_TOPOLOGY_TRIANGLELIST:
    default: return GL_TRIANGLES;
    }
}

// Attaches (or detaches) the runtime's stencil to an RT pass's FBO: only when
// the pass enables stencil and its viewport equals the back buffer's size.
static void pass_attach_stencil(fxgl_runtime *rt, gl_pass *p) {
    if (p->to_backbuffer || !p->fbo || !p->src->stencil_enable) {
        return;
    }
    bool want = p->width == rt->width && p->height == rt->height && rt->stencil_rb;
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, p->fbo));
    GLC(rt, FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                    want ? rt->stencil_rb : 0));
    p->stencil_attached = want;
}

static bool uniform_unit(fxgl_runtime *rt, GLuint prog, const char *name, int unit) {
    GLint loc = GLC(rt, GetUniformLocation(prog, name));
    if (loc < 0) {
        return false; // optimised away: nothing reads it
    }
    GLC(rt, Uniform1i(loc, unit));
    return true;
}

// A program an already loaded pass of the effect linked from the same stages
// (and the same exact-varying variant; a variant's _fxgl_view is the
// viewport size, so only passes of one size share it).
static GLuint shared_program(const gl_loaded_effect *e, const fxgl_pass *fp, const gl_pass *p) {
    for (size_t k = 0; k < e->technique_count; k++) {
        const gl_technique *t = &e->techniques[k];
        for (size_t i = 0; t->passes && i < t->src->pass_count; i++) {
            const gl_pass *q = &t->passes[i];
            if (q == p || !q->program || q->shares_program ||
                q->src->vertex_shader != fp->vertex_shader ||
                q->src->pixel_shader != fp->pixel_shader ||
                q->src->compute_shader != fp->compute_shader ||
                !q->exact_defines != !p->exact_defines) {
                continue;
            }
            if (p->exact_defines && (strcmp(q->exact_defines, p->exact_defines) != 0 ||
                                     q->src->viewport_width != fp->viewport_width ||
                                     q->src->viewport_height != fp->viewport_height)) {
                continue;
            }
            return q->program;
        }
    }
    return 0;
}

// True when GLSL calls dFdy, dFdyFine or dFdyCoarse (a `#define dFdyFine
// dFdy` of the header is no call).
static bool calls_ddy(const char *glsl) {
    for (const char *q = glsl ? strstr(glsl, "dFdy") : NULL; q; q = strstr(q + 4, "dFdy")) {
        const char *r = q + 4;
        if (strncmp(r, "Fine", 4) == 0) {
            r += 4;
        } else if (strncmp(r, "Coarse", 6) == 0) {
            r += 6;
        }
        while (*r == ' ') {
            r++;
        }
        if (*r == '(') {
            return true;
        }
    }
    return !glsl;
}

static bool pass_load(fxgl_runtime *rt, gl_loaded_effect *e, gl_technique *t, gl_pass *p,
                      const fxgl_pass *fp, size_t index, char *reason, size_t size) {
    const fxgl_effect *fx = e->fx;
    p->src = fp;
    snprintf(p->label, sizeof(p->label), "%s/%s", t->src->name,
             fp->name ? fp->name : "pass");
    if (!fp->name) {
        snprintf(p->label, sizeof(p->label), "%s/pass%zu", t->src->name, index);
    }
    p->compute = fp->compute_shader >= 0;
    const fxgl_shader *stages[2] = {NULL, NULL};
    GLuint sh[2];
    int nsh = 0;
    if (p->compute) {
        if (!rt->has_compute) {
            fail(reason, size, "pass '%s' is a compute pass; the context has no compute shaders",
                 p->label);
            return false;
        }
        stages[nsh] = &fx->shaders[fp->compute_shader];
        sh[nsh++] = e->shaders[fp->compute_shader];
    } else {
        if (fp->vertex_shader < 0) {
            fail(reason, size, "pass '%s' has no vertex shader", p->label);
            return false;
        }
        stages[nsh] = &fx->shaders[fp->vertex_shader];
        sh[nsh++] = e->shaders[fp->vertex_shader];
        p->flip_safe = true;
        if (fp->pixel_shader >= 0) {
            stages[nsh] = &fx->shaders[fp->pixel_shader];
            sh[nsh++] = e->shaders[fp->pixel_shader];
            // The derivative along y changes sign when the pass is drawn
            // upside down (SV_Position follows _fxgl_flip; sampling,
            // texcoords and facing do not change).
            // GLSL not from fxgl's generator (no _fxgl_flip) that reads
            // gl_FragCoord cannot be turned: it keeps the copy out.
            const char *glsl = fx->shaders[fp->pixel_shader].glsl;
            p->flip_safe = !calls_ddy(glsl) &&
                           (!strstr(glsl, "gl_FragCoord") || strstr(glsl, "_fxgl_flip"));
        }
    }
    // Passes with the same entry points share one program (its unit and
    // block assignments depend only on the stages): a chain that repeats a
    // shader then skips glUseProgram between its passes.
    // Exact fullscreen varyings: the pixel shader's variant, where the
    // vertex shader was proved fullscreen (exact.c). A program from a cached
    // binary brings the analysis it was linked with (its shaders may not have
    // been compiled: the analysis could not run).
    GLuint variant = 0;
    GLuint program = 0;
    bool cached = gl_progcache_take(rt, e, fp, p, &program);
    if (!cached && !p->compute && nsh == 2 && gl_exact_load(rt, fx, fp, sh[0], sh[1], p)) {
        char why[300];
        variant = compile_shader_with(rt, GL_FRAGMENT_SHADER, stages[1]->glsl, p->exact_defines,
                                      why, sizeof(why));
        if (!variant) {
            gl_log(rt, FXGL_GL_LOG_WARN, "%s: pass '%s': the exact-varying variant: %s; "
                   "the pass keeps interpolated varyings", e->file, p->label, why);
            free(p->exact_defines);
            free(p->exact_modes);
            p->exact_defines = NULL;
            p->exact_modes = NULL;
            p->exact_count = 0;
        }
    }
    p->program = shared_program(e, fp, p);
    p->shares_program = p->program != 0;
    // Another context of the share group linked the same stages: its program (share.c).
    // A pass with exact varyings is keyed by its variant's defines as well.
    char *keyed = NULL;
    const char *pixel = fp->pixel_shader >= 0 && !p->compute ? fx->shaders[fp->pixel_shader].glsl
                                                             : NULL;
    if (pixel && p->exact_defines) {
        size_t n = strlen(p->exact_defines) + strlen(pixel) + 1;
        keyed = malloc(n);
        if (keyed) {
            snprintf(keyed, n, "%s%s", p->exact_defines, pixel);
        }
    }
    const char *glsl[GL_SHARE_STAGES] = {
        fp->vertex_shader >= 0 && !p->compute ? fx->shaders[fp->vertex_shader].glsl : NULL,
        keyed ? keyed : pixel,
        p->compute ? fx->shaders[fp->compute_shader].glsl : NULL,
    };
    bool shareable = !p->exact_defines || keyed;
    if (!p->program && shareable) {
        p->program = gl_share_program_take(rt, glsl);
        rt->share_stats.programs_shared += p->program != 0;
        p->group_shared = p->program != 0;
    }
    // A program from the on-disk cache, when neither this effect nor the group had one.
    if (p->program && program) {
        GLC(rt, DeleteProgram(program));
    } else if (!p->program) {
        p->program = program;
    }
    if (!p->program) {
        const int entry[2] = {p->compute ? fp->compute_shader : fp->vertex_shader,
                              fp->pixel_shader};
        for (int i = 0; i < nsh; i++) {
            if (!sh[i] && (!e->shaders_compiled || !gl_progcache_needs(e, entry[i]))) {
                // Skipped at load because the group or the cache had every program:
                // compiled now.
                const fxgl_shader *st = stages[i];
                sh[i] = e->shaders[entry[i]] =
                    compile_shader(rt, gl_shader_stage(st->stage), st->glsl, reason, size);
            }
            if (!sh[i]) {
                fail(reason, size, "pass '%s': shader '%s' did not compile", p->label,
                     stages[i]->entry);
                if (variant) {
                    GLC(rt, DeleteShader(variant));
                }
                free(keyed);
                return false;
            }
        }
        if (cached && p->exact_defines && !variant) {
            // The cache had the analysis but no program for this pass: its variant.
            variant = compile_shader_with(rt, GL_FRAGMENT_SHADER, stages[1]->glsl,
                                          p->exact_defines, reason, size);
            if (!variant) {
                free(keyed);
                return false;
            }
        }
        GLuint linked[2] = {sh[0], variant ? variant : sh[nsh - 1]};
        p->program = link_program(rt, variant ? linked : sh, nsh, reason, size);
        if (p->program) {
            rt->share_stats.programs_linked++;
            gl_progcache_store(rt, e, fp, p, p->program);
            if (shareable) {
                gl_share_program_put(rt, glsl, p->program);
                p->group_shared = rt->share != NULL;
            }
        }
    }
    free(keyed);
    if (variant) {
        GLC(rt, DeleteShader(variant));
    }
    if (!p->program) {
        char why[300];
        snprintf(why, sizeof(why), "%s", reason);
        fail(reason, size, "pass '%s': %s", p->label, why);
        return false;
    }
    if (!p->shares_program) {
        gl_label(rt, GL_PROGRAM, p->program, p->label);
    }
    GLC(rt, UseProgram(p->program));
    p->flip_loc = p->compute ? -1 : GLC(rt, GetUniformLocation(p->program, "_fxgl_flip"));
    p->view_loc = p->exact_defines ? GLC(rt, GetUniformLocation(p->program, "_fxgl_view")) : -1;
    GLuint block = GLC(rt, GetUniformBlockIndex(p->program, FXGL_GLSL_UNIFORM_BLOCK));
    if (block != GL_INVALID_INDEX) {
        GLC(rt, UniformBlockBinding(p->program, block, 0));
    }
    // Sampler units: one per distinct sampler object across the stages, in
    // order of first use, set by name (overrides any binding qualifier).
    size_t nb = 0;
    for (int i = 0; i < nsh; i++) {
        nb += stages[i]->sampler_count;
    }
    int object_of_unit[GL_RT_MAX_UNITS];
    p->binds = calloc(nb ? nb : 1, sizeof(*p->binds));
    if (!p->binds) {
        fail(reason, size, "out of memory");
        return false;
    }
    for (int i = 0; i < nsh; i++) {
        for (size_t b = 0; b < stages[i]->sampler_count; b++) {
            const fxgl_binding *fb = &stages[i]->samplers[b];
            if (fb->object < 0 || (size_t)fb->object >= fx->sampler_count) {
                fail(reason, size, "pass '%s': sampler binding %zu is out of range", p->label, b);
                return false;
            }
            int unit = -1;
            for (int k = 0; k < p->bind_count; k++) {
                if (object_of_unit[k] == fb->object) {
                    unit = k;
                }
            }
            if (unit < 0) {
                if (p->bind_count >= rt->units) {
                    fail(reason, size, "pass '%s' uses more than %d samplers", p->label,
                         rt->units);
                    return false;
                }
                unit = p->bind_count++;
                object_of_unit[unit] = fb->object;
                gl_bind *bd = &p->binds[unit];
                const fxgl_sampler *fs = &fx->samplers[fb->object];
                bd->unit = (uint8_t)unit;
                bd->object = (int16_t)fb->object;
                bd->sampler = e->samplers[fb->object];
                bd->srgb = fs->srgb;
                bool own_target = false;
                for (int k = 0; !p->compute && k < FXGL_MAX_RENDER_TARGETS; k++) {
                    own_target |= p->src->render_targets[k] == fs->texture;
                }
                if (own_target) {
                    // A pass sampling its own render target (the compiler
                    // warned, X3020) reads the empty texture, as on D3D11,
                    // instead of an undefined GL feedback loop.
                    bd->kind = GL_BIND_SEMANTIC;
                    bd->slot = -1;
                    bd->target = GL_TEXTURE_2D;
                } else if (e->textures[fs->texture]) {
                    bd->kind = GL_BIND_TEXTURE;
                    bd->tex = e->textures[fs->texture];
                    bd->target = bd->tex->target;
                } else {
                    bd->kind = GL_BIND_SEMANTIC;
                    bd->slot = (int8_t)e->slots[fs->texture];
                    bd->target = GL_TEXTURE_2D;
                    if (e->slots[fs->texture] == GL_SLOT_DEPTH) {
                        e->uses_depth = true;
                    }
                    e->srgb_color |= bd->slot == GL_SLOT_COLOR && bd->srgb;
                }
            }
            uniform_unit(rt, p->program, fb->name, unit);
        }
    }
    // Storages (compute only) keep the units the code declares: GLSL ES
    // cannot move an image uniform.
    if (p->compute) {
        const fxgl_shader *cs = stages[0];
        p->images = calloc(cs->storage_count ? cs->storage_count : 1, sizeof(*p->images));
        if (!p->images) {
            fail(reason, size, "out of memory");
            return false;
        }
        for (size_t b = 0; b < cs->storage_count; b++) {
            const fxgl_binding *fb = &cs->storages[b];
            if (fb->object < 0 || (size_t)fb->object >= fx->storage_count ||
                fb->unit < 0 || fb->unit >= GL_RT_MAX_IMAGES) {
                fail(reason, size, "pass '%s': storage binding %zu is out of range", p->label,
                     b);
                return false;
            }
            const fxgl_storage *fs = &fx->storages[fb->object];
            gl_tex *tex = e->textures[fs->texture];
            if (!tex) {
                fail(reason, size, "pass '%s': storage '%s' names a semantic texture", p->label,
                     fs->name);
                return false;
            }
            p->images[p->image_count++] = (gl_image_bind){
                .unit = (uint8_t)fb->unit, .tex = tex, .level = fs->level,
            };
            if (tex->levels > 1 && fp->generate_mipmaps && fs->level == 0) {
                p->generate_mips = true;
            }
        }
        for (int i = 0; i < 3; i++) {
            p->groups[i] = fp->dispatch[i] ? fp->dispatch[i] : 1;
        }
        if (fp->dispatch[0] == 0) {
            fail(reason, size, "pass '%s': compute pass without DispatchSizeX", p->label);
            return false;
        }
        return true;
    }
    // Render targets.
    p->target_count = fp->render_target_count;
    if (p->target_count > rt->max_draw_buffers) {
        fail(reason, size, "pass '%s' has %d render targets; the context allows %d", p->label,
             p->target_count, rt->max_draw_buffers);
        return false;
    }
    p->to_backbuffer = p->target_count == 0;
    p->srgb_write = fp->srgb_write;
    e->srgb_color |= p->srgb_write && p->to_backbuffer;
    if (p->srgb_write && !rt->has_views) {
        gl_log(rt, FXGL_GL_LOG_WARN,
               "pass '%s' writes sRGB, but the context has no texture views: it writes the "
               "values unencoded",
               p->label);
    }
    p->clear = fp->clear_render_targets;
    p->mode = topology(fp->topology);
    p->vertex_count = (GLsizei)fp->vertex_count;
    p->blend_count = p->to_backbuffer ? 1 : p->target_count;
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        const fxgl_target_blend *b = &fp->blend[i];
        p->blend[i] = (gl_blend){
            .enable = b->enable,
            .src = blend_factor(b->src), .dst = blend_factor(b->dst),
            .src_alpha = blend_factor(b->src_alpha), .dst_alpha = blend_factor(b->dst_alpha),
            .op = blend_op(b->op), .op_alpha = blend_op(b->op_alpha),
            .mask = b->write_mask & 0xF,
        };
        // A pixel shader that writes fewer than four components leaves the
        // rest undefined in GL (0 on Mesa): keep what the target holds.
        if (fp->pixel_shader >= 0) {
            int n = fx->shaders[fp->pixel_shader].target_components[i];
            if (n > 0 && n < 4) {
                p->blend[i].mask &= (uint8_t)((1u << n) - 1u);
            }
        }
        if (i >= p->blend_count) {
            p->blend[i] = p->blend[0];
        }
    }
    if (!rt->indexed_blend) {
        for (int i = 1; i < p->blend_count; i++) {
            if (memcmp(&p->blend[i], &p->blend[0], sizeof(gl_blend)) != 0) {
                fail(reason, size,
                     "pass '%s' blends render targets differently; the context has no "
                     "per-buffer blend state",
                     p->label);
                return false;
            }
        }
    }
    p->stencil = (gl_stencil){
        .enable = fp->stencil_enable,
        .func = compare(fp->stencil_func),
        .ref = fp->stencil_ref,
        .read_mask = fp->stencil_read_mask,
        .write_mask = fp->stencil_write_mask,
        .fail = stencil_op(fp->stencil_fail),
        .zfail = stencil_op(fp->stencil_depth_fail),
        .pass = stencil_op(fp->stencil_pass),
    };
    if (!fp->stencil_enable) {
        // The write mask still applies to the once-per-technique stencil clear,
        // which sets its own; keep the test's default.
        p->stencil.write_mask = 0xFFFFFFFFu;
        p->stencil.read_mask = 0xFFFFFFFFu;
    }
    if (p->to_backbuffer) {
        p->width = 0;
        p->height = 0;
        p->bb_fbo = p->srgb_write ? GL_BB_SRGB : GL_BB_UNORM;
        return true;
    }
    GLC(rt, GenFramebuffers(1, &p->fbo));
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, p->fbo));
    GLenum bufs[FXGL_MAX_RENDER_TARGETS];
    for (int i = 0; i < p->target_count; i++) {
        int ti = fp->render_targets[i];
        gl_tex *tex = ti >= 0 ? e->textures[ti] : NULL;
        if (!tex || tex->target != GL_TEXTURE_2D) {
            fail(reason, size, "pass '%s': render target %d is not a 2D texture", p->label, i);
            return false;
        }
        if (p->srgb_write && tex->format != FXGL_FORMAT_RGBA8) {
            fail(reason, size, "pass '%s': SRGBWriteEnable needs RGBA8 render targets",
                 p->label);
            return false;
        }
        p->targets[i] = tex;
        GLuint view = p->srgb_write ? tex->srgb : tex->tex;
        GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i,
                                     GL_TEXTURE_2D, view, 0));
        bufs[i] = GL_COLOR_ATTACHMENT0 + (GLenum)i;
        if (tex->levels > 1 && fp->generate_mipmaps) {
            p->generate_mips = true;
        }
    }
    GLC(rt, DrawBuffers(p->target_count, bufs));
    p->width = fp->viewport_width ? fp->viewport_width : p->targets[0]->width;
    p->height = fp->viewport_height ? fp->viewport_height : p->targets[0]->height;
    pass_attach_stencil(rt, p);
    GLenum status = GLC(rt, CheckFramebufferStatus(GL_FRAMEBUFFER));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        fail(reason, size, "pass '%s': framebuffer incomplete (0x%04x)", p->label, status);
        return false;
    }
    gl_label(rt, GL_FRAMEBUFFER, p->fbo, p->label);
    return true;
}

static void pass_unload(fxgl_runtime *rt, gl_pass *p) {
    gl_cs_unload(rt, p);
    if (p->program && !p->shares_program) {
        gl_share_program_drop(rt, p->program, true); // deleted unless the group uses it
    }
    if (p->fbo) {
        GLC(rt, DeleteFramebuffers(1, &p->fbo));
    }
    free(p->binds);
    free(p->images);
    free(p->exact_defines);
    free(p->exact_modes);
    memset(p, 0, sizeof(*p));
}

static void technique_unload(fxgl_runtime *rt, gl_technique *t) {
    if (t->passes) {
        for (size_t i = 0; i < t->src->pass_count; i++) {
            pass_unload(rt, &t->passes[i]);
        }
    }
    free(t->passes);
    t->passes = NULL;
    if (t->queries) {
        GLC(rt, DeleteQueries(GL_RT_QUERY_RING * (GLsizei)(t->src->pass_count + 1), t->queries));
    }
    free(t->queries);
    t->queries = NULL;
    free(t->pass_gpu);
    t->pass_gpu = NULL;
}

static bool technique_load(fxgl_runtime *rt, gl_loaded_effect *e, gl_technique *t) {
    size_t n = t->src->pass_count;
    t->passes = calloc(n ? n : 1, sizeof(*t->passes));
    t->pass_gpu = calloc(n ? n : 1, sizeof(*t->pass_gpu));
    if (!t->passes || !t->pass_gpu) {
        snprintf(t->reason, sizeof(t->reason), "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!pass_load(rt, e, t, &t->passes[i], &t->src->passes[i], i, t->reason,
                       sizeof(t->reason))) {
            return false;
        }
        gl_cs_load(rt, e, &t->passes[i]); // its compute form, where it qualifies
    }
    if (rt->has_timer) {
        size_t q = GL_RT_QUERY_RING * (n + 1);
        t->queries = calloc(q, sizeof(GLuint));
        if (t->queries) {
            GLC(rt, GenQueries((GLsizei)q, t->queries));
        }
    }
    return true;
}

// --- effects ---

void gl_loaded_effect_unload(fxgl_runtime *rt, gl_loaded_effect *e) {
    gl_variants_detach(rt, e);
    gl_progcache_release(rt, e);
    for (size_t i = 0; i < e->technique_count; i++) {
        technique_unload(rt, &e->techniques[i]);
    }
    if (e->shaders) {
        for (size_t i = 0; i < e->fx->shader_count; i++) {
            if (e->shaders[i]) {
                GLC(rt, DeleteShader(e->shaders[i]));
            }
        }
    }
    free(e->shaders);
    e->shaders = NULL;
    if (e->textures) {
        for (size_t i = 0; i < e->fx->texture_count; i++) {
            gl_tex_release(rt, e->textures[i]);
        }
    }
    free(e->textures);
    e->textures = NULL;
    free(e->slots);
    e->slots = NULL;
    free(e->samplers); // the objects belong to the runtime's sampler cache
    e->samplers = NULL;
    if (e->ubo) {
        GLC(rt, DeleteBuffers(1, &e->ubo));
        e->ubo = 0;
    }
    e->loaded = false;
    e->uses_depth = false; // what the next load binds decides again
    e->srgb_color = false;
}

GLenum gl_shader_stage(fxgl_stage s) {
    return s == FXGL_STAGE_VERTEX ? GL_VERTEX_SHADER
           : s == FXGL_STAGE_PIXEL ? GL_FRAGMENT_SHADER
                                   : GL_COMPUTE_SHADER;
}

// Whether the share group has a linked program for every pass of the effect.
static bool all_programs_shared(fxgl_runtime *rt, const gl_loaded_effect *e) {
    if (!rt->share) {
        return false;
    }
    const fxgl_effect *fx = e->fx;
    for (size_t k = 0; k < fx->technique_count; k++) {
        for (size_t i = 0; i < fx->techniques[k].pass_count; i++) {
            const fxgl_pass *fp = &fx->techniques[k].passes[i];
            bool compute = fp->compute_shader >= 0;
            const char *glsl[GL_SHARE_STAGES] = {
                fp->vertex_shader >= 0 && !compute ? fx->shaders[fp->vertex_shader].glsl : NULL,
                fp->pixel_shader >= 0 && !compute ? fx->shaders[fp->pixel_shader].glsl : NULL,
                compute ? fx->shaders[fp->compute_shader].glsl : NULL,
            };
            if ((compute && !rt->has_compute) || (!compute && fp->vertex_shader < 0) ||
                !gl_share_program_has(rt, glsl)) {
                return false;
            }
        }
    }
    return true;
}

bool gl_loaded_effect_load(fxgl_runtime *rt, gl_loaded_effect *e) {
    const fxgl_effect *fx = e->fx;
    char *reason = e->reason;
    size_t size = sizeof(e->reason);
    e->textures = calloc(fx->texture_count + 1, sizeof(*e->textures));
    e->slots = calloc(fx->texture_count + 1, sizeof(*e->slots));
    e->samplers = calloc(fx->sampler_count + 1, sizeof(*e->samplers));
    e->shaders = calloc(fx->shader_count + 1, sizeof(*e->shaders));
    if (!e->textures || !e->slots || !e->samplers || !e->shaders) {
        fail(reason, size, "out of memory");
        goto failed;
    }
    for (size_t i = 0; i < fx->texture_count; i++) {
        const fxgl_texture *ft = &fx->textures[i];
        e->slots[i] = -1;
        if (ft->semantic) {
            e->slots[i] = semantic_slot(rt, ft->semantic);
            continue;
        }
        e->textures[i] = tex_acquire(rt, e, ft, reason, size);
        if (!e->textures[i]) {
            goto failed;
        }
    }
    for (size_t i = 0; i < fx->sampler_count; i++) {
        if (fx->samplers[i].srgb && !rt->has_views) {
            gl_log(rt, FXGL_GL_LOG_WARN,
                   "%s: sampler '%s' reads sRGB, but the context has no texture views: it "
                   "reads the stored values",
                   e->file, fx->samplers[i].name);
        }
        e->samplers[i] = sampler_get(rt, &fx->samplers[i]);
        if (!e->samplers[i]) {
            fail(reason, size, "out of memory");
            goto failed;
        }
    }
    // Shaders: compiled once per entry point, linked per pass. A compute
    // shader on a context without compute only fails its technique. Passes whose
    // program the cache has as a binary need no shader compiled; when the share
    // group has every program of the effect, nothing is compiled (pass_load compiles
    // what it still needs, should the group lose one meanwhile).
    for (size_t i = 0; i < fx->shader_count; i++) {
        if (!fx->shaders[i].glsl) {
            fail(reason, size, "shader '%s' has no GLSL (compiled without a target)",
                 fx->shaders[i].entry);
            goto failed;
        }
    }
    e->shaders_compiled = !all_programs_shared(rt, e);
    gl_progcache_preload(rt, e);
    for (size_t i = 0; e->shaders_compiled && i < fx->shader_count; i++) {
        const fxgl_shader *s = &fx->shaders[i];
        if ((s->stage == FXGL_STAGE_COMPUTE && !rt->has_compute) ||
            !gl_progcache_needs(e, (int)i)) {
            continue;
        }
        e->shaders[i] = compile_shader(rt, gl_shader_stage(s->stage), s->glsl, reason, size);
        if (!e->shaders[i]) {
            char why[512];
            memcpy(why, reason, sizeof(why));
            why[sizeof(why) - 1] = '\0';
            fail(reason, size, "entry point '%s': %.400s", s->entry, why);
            goto failed;
        }
    }
    if (fx->uniform_block_size) {
        GLC(rt, GenBuffers(1, &e->ubo));
        GLC(rt, BindBuffer(GL_UNIFORM_BUFFER, e->ubo));
        GLC(rt, BufferData(GL_UNIFORM_BUFFER, fx->uniform_block_size, e->shadow,
                           GL_DYNAMIC_DRAW));
        GLC(rt, BindBuffer(GL_UNIFORM_BUFFER, 0));
        e->dirty_lo = e->size;
        e->dirty_hi = 0;
    }
    size_t ready = 0;
    for (size_t i = 0; i < e->technique_count; i++) {
        gl_technique *t = &e->techniques[i];
        if (technique_load(rt, e, t)) {
            t->status = FXGL_STATUS_READY;
            ready++;
        } else {
            t->status = FXGL_STATUS_FAILED;
            gl_log(rt, FXGL_GL_LOG_ERROR, "%s: technique '%s' skipped: %s", e->file, t->src->name,
                   t->reason);
            technique_unload(rt, t);
        }
    }
    // The shader objects are no longer needed once every pass is linked, nor the cached
    // programs no pass took (their technique failed otherwise).
    gl_progcache_release(rt, e);
    for (size_t i = 0; i < fx->shader_count; i++) {
        if (e->shaders[i]) {
            GLC(rt, DeleteShader(e->shaders[i]));
            e->shaders[i] = 0;
        }
    }
    if (e->technique_count && !ready) {
        fail(reason, size, "no technique could be loaded (first: %s)",
             e->techniques[0].reason);
        goto failed;
    }
    e->loaded = true;
    e->status = FXGL_STATUS_READY;
    reason[0] = '\0';
    gl_variants_attach(rt, e);
    return true;
failed:
    gl_loaded_effect_unload(rt, e);
    e->status = FXGL_STATUS_FAILED;
    for (size_t i = 0; i < e->technique_count; i++) {
        gl_technique *t = &e->techniques[i];
        if (t->status != FXGL_STATUS_FAILED) {
            t->status = FXGL_STATUS_FAILED;
            snprintf(t->reason, sizeof(t->reason), "effect failed to load");
        }
    }
    gl_log(rt, FXGL_GL_LOG_ERROR, "%s: effect skipped: %s", e->file, reason);
    return false;
}

// --- per-size objects ---

// native: stored as the source stores its pixels (BGRA), which only a
// mutable texture can ask for (the unsized format with a BGRA hint; Mesa
// picks the matching layout), so without an sRGB view.
static GLuint make_rgba8(fxgl_runtime *rt, int w, int h, bool native, GLuint *srgb,
                         const char *label) {
    GLuint t = 0;
    GLC(rt, GenTextures(1, &t));
    GLC(rt, BindTexture(GL_TEXTURE_2D, t));
    if (native) {
        GLC(rt, TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0));
        GLC(rt, TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_BGRA, GL_UNSIGNED_BYTE, NULL));
    } else {
        GLC(rt, TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h));
    }
    *srgb = t;
    if (rt->has_views && !native) {
        GLC(rt, GenTextures(1, srgb));
        GLP(rt, rt->texture_view(*srgb, GL_TEXTURE_2D, t, GL_SRGB8_ALPHA8, 0, 1, 0, 1));
    }
    gl_label(rt, GL_TEXTURE, t, label);
    return t;
}

void gl_size_release(fxgl_runtime *rt) {
    GLuint tex[] = {rt->bb_tex, rt->bb_srgb != rt->bb_tex ? rt->bb_srgb : 0, rt->color_tex,
                    rt->color_srgb != rt->color_tex ? rt->color_srgb : 0, rt->depth_tex};
    for (size_t i = 0; i < sizeof(tex) / sizeof(tex[0]); i++) {
        if (tex[i]) {
            GLC(rt, DeleteTextures(1, &tex[i]));
        }
    }
    GLuint fbo[GL_BB_COUNT + 4];
    int n = 0;
    for (int i = 0; i < GL_BB_COUNT; i++) {
        fbo[n++] = rt->bb_fbos[i];
    }
    fbo[n++] = rt->color_fbo;
    fbo[n++] = rt->in_fbo;
    fbo[n++] = rt->resolve_fbo;
    fbo[n++] = rt->depth_fbo;
    for (int i = 0; i < n; i++) {
        if (fbo[i]) {
            GLC(rt, DeleteFramebuffers(1, &fbo[i]));
        }
    }
    GLuint rb[] = {rt->stencil_rb, rt->resolve_rb};
    for (int i = 0; i < 2; i++) {
        if (rb[i]) {
            GLC(rt, DeleteRenderbuffers(1, &rb[i]));
        }
    }
    rt->bb_tex = rt->bb_srgb = rt->color_tex = rt->color_srgb = rt->depth_tex = 0;
    memset(rt->bb_fbos, 0, sizeof(rt->bb_fbos));
    rt->color_fbo = rt->in_fbo = rt->resolve_fbo = rt->depth_fbo = 0;
    rt->stencil_rb = rt->resolve_rb = 0;
    rt->depth_format = 0;
    rt->width = rt->height = 0;
}

// What the source framebuffer's depth is, to make a copy target the blit
// accepts (a depth blit needs identical formats).
static GLenum source_depth_format(fxgl_runtime *rt, GLuint fbo) {
    GLenum attach = fbo ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
    GLint type = GL_NONE, bits = 0, stencil = 0, comp = 0;
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type));
    if (type == GL_NONE) {
        return 0;
    }
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &bits));
    GLC(rt, GetFramebufferAttachmentParameteriv(
                GL_READ_FRAMEBUFFER, attach, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &comp));
    // Without a stencil buffer its attachment reads GL_NONE, and every other
    // query of it is GL_INVALID_OPERATION (left behind for the program).
    GLenum stencil_attach = fbo ? GL_STENCIL_ATTACHMENT : GL_STENCIL;
    GLint stencil_type = GL_NONE;
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, stencil_attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                                &stencil_type));
    if (stencil_type != GL_NONE) {
        GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, stencil_attach,
                                                    GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE,
                                                    &stencil));
    }
    if (bits == 0) {
        return 0;
    }
    // A depth blit needs the same depth bits and type on both sides (and
    // the same stencil bits where both have stencil), so the copy takes the
    // source's own format. Formats with no depth-stencil twin (16 or 32
    // unorm bits with stencil) copy the depth alone.
    if (comp == GL_FLOAT) {
        return stencil ? GL_DEPTH32F_STENCIL8 : GL_DEPTH_COMPONENT32F;
    }
    if (bits <= 16) {
        return GL_DEPTH_COMPONENT16;
    }
    if (bits == 32) {
        // 32-bit unorm depth (Mesa's Z32 visuals) has a texture format on
        // desktop GL only; GLES has no texture a blit from it accepts and no
        // other way to read a window's depth.
        if (rt->info.api != FXGL_API_GLES) {
            return GL_DEPTH_COMPONENT32;
        }
        if (!rt->depth_unmatched_logged) {
            rt->depth_unmatched_logged = true;
            gl_log(rt, FXGL_GL_LOG_WARN,
                   "DEPTH: the window's 32-bit integer depth buffer cannot be copied on "
                   "GLES; effects read no depth");
        }
        return 0;
    }
    return stencil ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24;
}

// The sized format of the source's colour buffer, from its component sizes
// and encoding (the default framebuffer has no internal-format query).
static GLenum source_color_format(fxgl_runtime *rt, GLuint fbo) {
    // Desktop names the default framebuffer's buffers with their side.
    GLenum attach = fbo ? GL_COLOR_ATTACHMENT0
                        : rt->info.api == FXGL_API_GLES ? GL_BACK : GL_BACK_LEFT;
    GLint r = 0, a = 0, type = 0, enc = 0;
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &r));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE, &a));
    GLC(rt, GetFramebufferAttachmentParameteriv(
                GL_READ_FRAMEBUFFER, attach, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &type));
    GLC(rt, GetFramebufferAttachmentParameteriv(
                GL_READ_FRAMEBUFFER, attach, GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &enc));
    if (type == GL_FLOAT) {
        return r > 16 ? GL_RGBA32F : GL_RGBA16F;
    }
    if (r == 10) {
        return GL_RGB10_A2;
    }
    if (enc == GL_SRGB) {
        return GL_SRGB8_ALPHA8;
    }
    return a ? GL_RGBA8 : GL_RGB8;
}

int gl_native_copy_parse(const char *value) {
    if (value && (strcmp(value, "0") == 0 || strcmp(value, "off") == 0)) {
        return GL_NATIVE_COPY_OFF;
    }
    if (value && (strcmp(value, "1") == 0 || strcmp(value, "on") == 0)) {
        return GL_NATIVE_COPY_ON;
    }
    return GL_NATIVE_COPY_AUTO;
}

static bool effects_need_srgb_color(const fxgl_runtime *rt) {
    for (size_t i = 0; i < rt->effect_count; i++) {
        if (rt->effects[i]->loaded && rt->effects[i]->srgb_color) {
            return true;
        }
    }
    return false;
}

// The copy in reads the program's 8-bit framebuffer into the back-buffer
// copy, turned top-down. Mesa stores a window top-down already, so the
// flipping blit is an unflipped copy underneath, and where both sides also
// share one layout its drivers copy memory instead of drawing: on llvmpipe
// at 1280x720 the copy in takes 0.34 ms instead of 4.8 ms of CPU
// (docs/runtime.md, "The copy in"). Mesa's windows are BGRA (X11's 24- and
// 32-bit visuals, Wayland's ARGB8888), an RGBA8 texture is not, and a BGRA
// texture can only be mutable: no sRGB view, and no pixel pass storing into
// it as an image (compute.c keeps passes into the back buffer fragment).
// A window's layout is not asked of the driver: the read format says
// GL_BGRA only for a linear BGRA buffer, not for the sRGB-capable window a
// core context gets, and a wrong guess costs speed only, as the copy stays a
// blit the driver converts. A framebuffer object's read format does tell
// (its attachment is the program's texture): BGRA is required there. Hence:
// desktop GL (ES has no BGRA render target without an extension), a
// single-sampled 8-bit unorm source, no loaded effect reading COLOR as sRGB
// or writing the back buffer sRGB, and by default only on software
// renderers, where the copy is CPU time, and not with FXGL_COMPUTE=1 (the
// passes into the back buffer would have to stay fragment); a GPU's blit is
// cheap and the RGBA8 copy keeps views and compute passes there.
static bool native_copy_fits(fxgl_runtime *rt, GLuint fbo, int samples) {
    if (rt->native_copy == GL_NATIVE_COPY_OFF || rt->info.api != FXGL_API_GL || samples > 0 ||
        (rt->native_copy == GL_NATIVE_COPY_AUTO &&
         (rt->cs_clock != GL_CS_CLOCK_FINISH || rt->cs_mode == FXGL_COMPUTE_ON)) ||
        effects_need_srgb_color(rt)) {
        return false;
    }
    GLint r = 0, comp = 0, format = 0;
    GLenum attach = fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK_LEFT;
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, fbo));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, attach,
                                                GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &r));
    GLC(rt, GetFramebufferAttachmentParameteriv(
                GL_READ_FRAMEBUFFER, attach, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &comp));
    if (fbo) {
        GLC(rt, GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format));
    }
    return r == 8 && comp == GL_UNSIGNED_NORMALIZED && (!fbo || format == GL_BGRA);
}

bool gl_native_copy_stale(const fxgl_runtime *rt) {
    return rt->bb_native && effects_need_srgb_color(rt);
}

bool gl_resize(fxgl_runtime *rt, const fxgl_frame_desc *frame) {
    gl_size_release(rt);
    int w = frame->width, h = frame->height;
    rt->width = w;
    rt->height = h;
    rt->source_fbo = frame->framebuffer;
    // The source: its sample count (a multisampled one is resolved first,
    // because a resolving blit cannot flip), its layout and its depth format.
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, frame->framebuffer));
    GLint samples = 0;
    GLC(rt, GetIntegerv(GL_SAMPLES, &samples));
    rt->source_samples = samples;
    bool native = native_copy_fits(rt, frame->framebuffer, samples);
    if (native != rt->bb_native) {
        gl_log(rt, FXGL_GL_LOG_DEBUG, "back-buffer copy and COLOR stored %s",
               native ? "in the window's BGRA layout (the copy in copies memory)"
                      : "as RGBA8 with sRGB views");
    }
    rt->bb_native = native;
    rt->bb_tex = make_rgba8(rt, w, h, native, &rt->bb_srgb, "fxgl back buffer");
    rt->bb_image = (gl_tex){
        .tex = rt->bb_tex, .srgb = rt->bb_srgb, .target = GL_TEXTURE_2D, .internal = GL_RGBA8,
        .fmt = gl_format_get(FXGL_FORMAT_RGBA8), .format = FXGL_FORMAT_RGBA8,
        .dim = FXGL_TEXTURE_2D, .width = w, .height = h, .depth = 1, .levels = 1,
    };
    rt->color_tex = make_rgba8(rt, w, h, native, &rt->color_srgb, "fxgl COLOR");
    GLC(rt, GenRenderbuffers(1, &rt->stencil_rb));
    GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, rt->stencil_rb));
    GLC(rt, RenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h));
    GLC(rt, GenFramebuffers(GL_BB_COUNT, rt->bb_fbos));
    for (int i = 0; i < GL_BB_COUNT; i++) {
        bool srgb = i == GL_BB_SRGB || i == GL_BB_SRGB_STENCIL;
        bool stencil = i >= GL_BB_UNORM_STENCIL;
        GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, rt->bb_fbos[i]));
        GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                     srgb ? rt->bb_srgb : rt->bb_tex, 0));
        if (stencil) {
            GLC(rt, FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
                                            GL_RENDERBUFFER, rt->stencil_rb));
        }
    }
    gl_label(rt, GL_FRAMEBUFFER, rt->bb_fbos[GL_BB_UNORM], "fxgl back buffer");
    GLC(rt, GenFramebuffers(1, &rt->color_fbo));
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, rt->color_fbo));
    GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                 rt->color_tex, 0));
    // One blit writes every draw buffer of its draw framebuffer: the copy in
    // fills the back-buffer copy and COLOR at once, where a COLOR refresh
    // after it would read the back-buffer copy back in a second full-screen
    // pass.
    GLC(rt, GenFramebuffers(1, &rt->in_fbo));
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, rt->in_fbo));
    GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                 rt->bb_tex, 0));
    GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D,
                                 rt->color_tex, 0));
    static const GLenum both[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    GLC(rt, DrawBuffers(2, both));
    gl_label(rt, GL_FRAMEBUFFER, rt->in_fbo, "fxgl copy in");
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, frame->framebuffer));
    if (samples > 0) {
        // A resolving blit needs identical formats on both sides.
        GLC(rt, GenRenderbuffers(1, &rt->resolve_rb));
        GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, rt->resolve_rb));
        GLC(rt, RenderbufferStorage(GL_RENDERBUFFER, source_color_format(rt, frame->framebuffer),
                                    w, h));
        GLC(rt, GenFramebuffers(1, &rt->resolve_fbo));
        GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, rt->resolve_fbo));
        GLC(rt, FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                        rt->resolve_rb));
    }
    GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, 0));
    if (!rt->desc.no_depth_copy && samples == 0) {
        rt->depth_format = source_depth_format(rt, frame->framebuffer);
    }
    if (rt->depth_format) {
        GLC(rt, GenTextures(1, &rt->depth_tex));
        GLC(rt, BindTexture(GL_TEXTURE_2D, rt->depth_tex));
        GLC(rt, TexStorage2D(GL_TEXTURE_2D, 1, rt->depth_format, w, h));
        GLC(rt, GenFramebuffers(1, &rt->depth_fbo));
        GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, rt->depth_fbo));
        bool stencil = rt->depth_format == GL_DEPTH24_STENCIL8 ||
                       rt->depth_format == GL_DEPTH32F_STENCIL8;
        GLC(rt, FramebufferTexture2D(GL_FRAMEBUFFER,
                                     stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
                                     GL_TEXTURE_2D, rt->depth_tex, 0));
        GLenum none = GL_NONE;
        GLC(rt, DrawBuffers(1, &none));
        GLC(rt, ReadBuffer(GL_NONE));
        gl_label(rt, GL_TEXTURE, rt->depth_tex, "fxgl DEPTH");
    }
    // Passes whose stencil attachment depends on the size.
    for (size_t i = 0; i < rt->effect_count; i++) {
        gl_loaded_effect *e = rt->effects[i];
        for (size_t k = 0; e->loaded && k < e->technique_count; k++) {
            gl_technique *t = &e->techniques[k];
            for (size_t p = 0; t->passes && p < t->src->pass_count; p++) {
                pass_attach_stencil(rt, &t->passes[p]);
            }
        }
    }
    GLC(rt, BindFramebuffer(GL_FRAMEBUFFER, 0));
    rt->bb_dirty = true;
    return true;
}

fxgl_glsl_target fxgl_gl_glsl_target(const fxgl_gl_info *info) {
    if (info->api == FXGL_API_GLES) {
        return info->minor >= 2 ? FXGL_GLSL_ES320
               : info->minor == 1 ? FXGL_GLSL_ES310 : FXGL_GLSL_ES300;
    }
    return info->major > 4 || info->minor >= 5 ? FXGL_GLSL_GL450 : FXGL_GLSL_GL430;
}
