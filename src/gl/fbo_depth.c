/*
 * fbo_depth.c - DEPTH from one of the program's own depth attachments (the FBO
 * depth provider's GL side; the tracking and the choice are the host's,
 * src/interpose/depth.c).
 *
 * A game draws its scene into a framebuffer object and presents a colour
 * blit, so the default framebuffer's depth (frame.c's copy) is empty at swap
 * time. The host names the texture or renderbuffer it chose; this file
 * copies its depth into a texture of the runtime, top-down like every effect
 * texture, and DEPTH reads that texture until the host goes back to the
 * default framebuffer.
 *
 * The copy is two blits at most, each between depth images of one format (a
 * depth blit accepts nothing else): the program's image is attached to a
 * read framebuffer of ours (its own framebuffer may carry other attachments
 * or be re-attached by then), multisampled images are first resolved by a
 * blit into a single-sample image of the same size (a resolving blit cannot
 * flip), then blitted flipped into the DEPTH texture. The resolving blit
 * takes one sample per pixel (depth values cannot be averaged into a depth
 * that exists; Mesa takes sample 0).
 *
 * It may run in the middle of the program's frame (just before it clears
 * its depth), so it does not go through the runtime's state capture: it
 * saves and restores exactly what it touches - the read and draw framebuffer
 * bindings, the scissor test (the only fragment operation a blit obeys), and
 * where it (re)allocates, the active unit's 2D texture binding, or where it
 * asks a texture's size without DSA, that texture target's binding. It
 * checks names with glIsTexture/glIsRenderbuffer first, so a deleted
 * attachment leaves no GL error behind for the program.
 */
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "gl_runtime.h"

struct gl_fbo_depth {
    GLuint read_fbo;             // the program's image, attached for the copy only
    GLuint resolve_tex, resolve_fbo; // multisampled sources: same format, not flipped
    GLuint tex, fbo;             // what DEPTH reads (top-down)
    GLenum format;               // of tex and resolve_tex
    int width, height;
    bool ready;                  // tex holds a copy
    bool active;                 // the host chose a framebuffer object's depth
};

bool fxgl_runtime_uses_depth(const fxgl_runtime *rt) {
    for (size_t i = 0; rt && i < rt->effect_count; i++) {
        if (rt->effects[i]->loaded && rt->effects[i]->uses_depth) {
            return true;
        }
    }
    return false;
}

static gl_fbo_depth *state(fxgl_runtime *rt) {
    if (!rt->fbo_depth) {
        rt->fbo_depth = calloc(1, sizeof(*rt->fbo_depth));
    }
    return rt->fbo_depth;
}

GLuint gl_depth_texture(const fxgl_runtime *rt) {
    const gl_fbo_depth *d = rt->fbo_depth;
    return d && d->active && d->ready ? d->tex : 0;
}

bool gl_depth_fbo_active(const fxgl_runtime *rt) {
    return rt->fbo_depth && rt->fbo_depth->active;
}

void gl_depth_destroy(fxgl_runtime *rt, bool delete_objects) {
    gl_fbo_depth *d = rt->fbo_depth;
    if (!d) {
        return;
    }
    if (delete_objects) {
        GLuint fbos[3] = {d->read_fbo, d->resolve_fbo, d->fbo};
        GLuint texs[2] = {d->resolve_tex, d->tex};
        GLC(rt, DeleteFramebuffers(3, fbos));
        GLC(rt, DeleteTextures(2, texs));
    }
    free(d);
    rt->fbo_depth = NULL;
}

void fxgl_depth_use_default(fxgl_runtime *rt) {
    if (rt && rt->fbo_depth) {
        rt->fbo_depth->active = false;
    }
}

static bool layered_target(GLenum target) {
    return target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
           target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || target == GL_TEXTURE_1D_ARRAY ||
           target == GL_TEXTURE_3D;
}

static bool cube_face(GLenum target) {
    return target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
}

// The binding query of a texture target (for a face: the cube map's).
static GLenum binding_of(GLenum target) {
    switch (target) {
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    case GL_TEXTURE_RECTANGLE: return GL_TEXTURE_BINDING_RECTANGLE;
    case GL_TEXTURE_1D: return GL_TEXTURE_BINDING_1D;
    case GL_TEXTURE_1D_ARRAY: return GL_TEXTURE_BINDING_1D_ARRAY;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    default:
        return cube_face(target) ? GL_TEXTURE_BINDING_CUBE_MAP : 0;
    }
}

// Attaches the program's image to our read framebuffer, bound for reading.
static void attach(fxgl_runtime *rt, const fxgl_depth_source *src, GLenum target) {
    if (src->renderbuffer) {
        GLC(rt, FramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                        GL_RENDERBUFFER, src->name));
    } else if (layered_target(target)) {
        GLC(rt, FramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, src->name,
                                        src->level, src->layer));
    } else if (target == GL_TEXTURE_CUBE_MAP) {
        // A layered cube attachment: its first face, as a layered one reads layer 0.
        GLenum face = GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)(src->layer % 6);
        GLC(rt, FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, face, src->name,
                                     src->level));
    } else {
        GLC(rt, FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, target, src->name,
                                     src->level));
    }
}

static void detach(fxgl_runtime *rt) {
    GLC(rt, FramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, 0));
}

// The texture's target where the host could not see it (glFramebufferTexture
// names none): asked through DSA where there is one, else a 2D texture.
static GLenum texture_target(fxgl_runtime *rt, const fxgl_depth_source *src) {
    if (src->target) {
        return src->target;
    }
    GLint t = 0;
    if (rt->gl->VERSION_4_5 && rt->gl->GetTextureParameteriv) {
        GLC(rt, GetTextureParameteriv(src->name, GL_TEXTURE_TARGET, &t));
    }
    return t ? (GLenum)t : GL_TEXTURE_2D;
}

// Size and samples of the program's image; false where they cannot be asked.
static bool image_size(fxgl_runtime *rt, const fxgl_depth_source *src, GLenum target,
                       fxgl_depth_desc *out) {
    GladGLContext *gl = rt->gl;
    GLint w = 0, h = 0, s = 0;
    if (src->renderbuffer) {
        GLint saved = 0;
        GLC(rt, GetIntegerv(GL_RENDERBUFFER_BINDING, &saved));
        GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, src->name));
        GLC(rt, GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &w));
        GLC(rt, GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &h));
        GLC(rt, GetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &s));
        GLC(rt, BindRenderbuffer(GL_RENDERBUFFER, (GLuint)saved));
    } else {
        GLenum level_target = target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X
                                                             : target;
        bool multisample = target == GL_TEXTURE_2D_MULTISAMPLE ||
                           target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
        if (gl->VERSION_4_5 && gl->GetTextureLevelParameteriv) {
            GLC(rt, GetTextureLevelParameteriv(src->name, src->level, GL_TEXTURE_WIDTH, &w));
            GLC(rt, GetTextureLevelParameteriv(src->name, src->level, GL_TEXTURE_HEIGHT, &h));
            if (multisample) {
                GLC(rt, GetTextureLevelParameteriv(src->name, src->level, GL_TEXTURE_SAMPLES, &s));
            }
        } else if (gl->GetTexLevelParameteriv && binding_of(target)) {
            // GL below 4.5, GLES 3.1: bind it on the active unit for the question.
            GLenum bind_target = cube_face(target) ? GL_TEXTURE_CUBE_MAP : target;
            GLint saved = 0;
            GLC(rt, GetIntegerv(binding_of(target), &saved));
            GLC(rt, BindTexture(bind_target, src->name));
            GLC(rt, GetTexLevelParameteriv(level_target, src->level, GL_TEXTURE_WIDTH, &w));
            GLC(rt, GetTexLevelParameteriv(level_target, src->level, GL_TEXTURE_HEIGHT, &h));
            if (multisample) {
                GLC(rt, GetTexLevelParameteriv(level_target, src->level, GL_TEXTURE_SAMPLES, &s));
            }
            GLC(rt, BindTexture(bind_target, (GLuint)saved));
        } else {
            return false; // GLES 3.0: no way to ask a texture's size
        }
    }
    out->width = w;
    out->height = h;
    out->samples = s;
    return w > 0 && h > 0;
}

// The copy format from the attached image's depth bits, type and stencil
// (a depth blit needs the same on both sides): load.c's rule for windows.
static GLenum attached_format(fxgl_runtime *rt, bool *stencil_out) {
    GLint type = GL_NONE, bits = 0, comp = 0, stencil = 0;
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                                GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type));
    if (type == GL_NONE) {
        return 0;
    }
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                                GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &bits));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                                GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &comp));
    GLC(rt, GetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                                                GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &stencil));
    *stencil_out = stencil > 0;
    if (bits == 0) {
        return 0;
    }
    if (comp == GL_FLOAT) {
        return stencil ? GL_DEPTH32F_STENCIL8 : GL_DEPTH_COMPONENT32F;
    }
    if (bits <= 16) {
        return GL_DEPTH_COMPONENT16;
    }
    if (bits == 32) {
        return rt->info.api == FXGL_API_GLES ? 0 : GL_DEPTH_COMPONENT32;
    }
    return stencil ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24;
}

static bool still_there(fxgl_runtime *rt, const fxgl_depth_source *src) {
    return src->name && (src->renderbuffer ? GLC(rt, IsRenderbuffer(src->name))
                                           : GLC(rt, IsTexture(src->name)));
}

// Under saved read-framebuffer binding (the caller restores it).
static bool describe(fxgl_runtime *rt, gl_fbo_depth *d, const fxgl_depth_source *src,
                     fxgl_depth_desc *out) {
    memset(out, 0, sizeof(*out));
    if (!still_there(rt, src)) {
        return false;
    }
    GLenum target = src->renderbuffer ? 0 : texture_target(rt, src);
    if (!image_size(rt, src, target, out)) {
        return false;
    }
    if (!d->read_fbo) {
        GLC(rt, GenFramebuffers(1, &d->read_fbo));
    }
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, d->read_fbo));
    attach(rt, src, target);
    bool stencil = false;
    out->format = attached_format(rt, &stencil);
    out->stencil = stencil;
    detach(rt);
    return out->format != 0;
}

bool fxgl_depth_describe(fxgl_runtime *rt, const fxgl_depth_source *src, fxgl_depth_desc *out) {
    gl_fbo_depth *d = rt ? state(rt) : NULL;
    if (!d || !src) {
        return false;
    }
    GLint read = 0;
    GLC(rt, GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read));
    bool ok = describe(rt, d, src, out);
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read));
    return ok;
}

// A depth texture of format and size with a framebuffer that draws to it.
// Under saved draw-framebuffer and 2D texture bindings (the caller restores).
static void make_target(fxgl_runtime *rt, GLuint *tex, GLuint *fbo, GLenum format, int w, int h) {
    if (*tex) {
        GLC(rt, DeleteTextures(1, tex));
    }
    GLC(rt, GenTextures(1, tex));
    GLC(rt, BindTexture(GL_TEXTURE_2D, *tex));
    GLC(rt, TexStorage2D(GL_TEXTURE_2D, 1, format, w, h));
    GLC(rt, TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    GLC(rt, TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    if (!*fbo) {
        GLC(rt, GenFramebuffers(1, fbo));
    }
    GLC(rt, BindFramebuffer(GL_DRAW_FRAMEBUFFER, *fbo));
    GLC(rt, FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, *tex, 0));
    GLenum none = GL_NONE;
    GLC(rt, DrawBuffers(1, &none));
    gl_label(rt, GL_TEXTURE, *tex, "fxgl DEPTH (framebuffer object)");
}

bool fxgl_depth_copy(fxgl_runtime *rt, const fxgl_depth_source *src, const fxgl_depth_desc *desc) {
    gl_fbo_depth *d = rt ? state(rt) : NULL;
    if (!d || !src || !desc || !desc->format || desc->width <= 0 || desc->height <= 0) {
        return false;
    }
    d->active = true;
    if (!still_there(rt, src)) {
        return false;
    }
    GLint read = 0, draw = 0;
    GLC(rt, GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read));
    GLC(rt, GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw));
    GLboolean scissor = GLC(rt, IsEnabled(GL_SCISSOR_TEST));
    int w = desc->width, h = desc->height;
    bool multisample = desc->samples > 0;
    if (!d->tex || d->format != desc->format || d->width != w || d->height != h ||
        (multisample && !d->resolve_tex)) {
        GLint tex2d = 0;
        GLC(rt, GetIntegerv(GL_TEXTURE_BINDING_2D, &tex2d));
        make_target(rt, &d->tex, &d->fbo, desc->format, w, h);
        if (multisample) {
            make_target(rt, &d->resolve_tex, &d->resolve_fbo, desc->format, w, h);
        }
        GLC(rt, BindTexture(GL_TEXTURE_2D, (GLuint)tex2d));
        d->format = desc->format;
        d->width = w;
        d->height = h;
        d->ready = false;
    }
    if (scissor) {
        GLC(rt, Disable(GL_SCISSOR_TEST));
    }
    if (!d->read_fbo) {
        GLC(rt, GenFramebuffers(1, &d->read_fbo));
    }
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, d->read_fbo));
    attach(rt, src, src->renderbuffer ? 0 : texture_target(rt, src));
    if (multisample) {
        GLC(rt, BindFramebuffer(GL_DRAW_FRAMEBUFFER, d->resolve_fbo));
        GLC(rt, BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_DEPTH_BUFFER_BIT, GL_NEAREST));
        detach(rt);
        GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, d->resolve_fbo));
    }
    GLC(rt, BindFramebuffer(GL_DRAW_FRAMEBUFFER, d->fbo));
    GLC(rt, BlitFramebuffer(0, 0, w, h, 0, h, w, 0, GL_DEPTH_BUFFER_BIT, GL_NEAREST));
    if (!multisample) {
        detach(rt);
    }
    GLC(rt, BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read));
    GLC(rt, BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw));
    if (scissor) {
        GLC(rt, Enable(GL_SCISSOR_TEST));
    }
    d->ready = true;
    rt->stats.copies++;
    return true;
}
