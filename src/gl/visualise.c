/*
 * visualise.c - any texture of a loaded effect drawn into a corner of the
 * frame or over all of it.
 *
 * "Effect.fx:Texture@mip,channels,corner,slice=N,scale=X". The texture is
 * read with texelFetch at the chosen level, nearest texel for each pixel,
 * so what shows is exactly what the texture holds divided by the scale
 * (clamped to the framebuffer's range), not a filtered version of it.
 * Channels are a subset of rgba: one channel shows as grey, a missing
 * alpha as opaque. Effect textures are top-down (D3D order); the shader
 * maps the corner's top row to row 0.
 *
 * One fragment shader body serves every kind of texture: float/normalised,
 * signed and unsigned integer (isampler/usampler: the value converted to
 * float, then divided by the scale, 255 by default) in 1D (desktop), 2D
 * and 3D (one slice, `slice=N`). Each of those nine programs is compiled
 * the first time a texture of its kind is drawn and kept; a frame only
 * binds and draws.
 *
 * Names are checked against the effect module (CPU data, there as soon as
 * the effect is recorded); the GL texture is looked up at draw time, so a
 * visualisation asked for before the effect's first frame shows once the
 * effect is loaded.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gl_inspect.h"

// %s: the sampler type, the size of the level as ivec2, the texel coordinate.
static const char vis_fs_fmt[] =
    "uniform highp %s tex;\n"
    "uniform int lod;\n"
    "uniform int slice;          // 3D: the depth index shown\n"
    "uniform vec4 rect;          // x, y (GL, lower left), width, height in pixels\n"
    "uniform mat4 sel;           // channel selection\n"
    "uniform vec4 bias;          // alpha of 1 where alpha is not selected\n"
    "uniform vec4 scale;         // the texel is divided by it\n"
    "layout(location = 0) out vec4 o;\n"
    "void main() {\n"
    "    vec2 f = (gl_FragCoord.xy - rect.xy) / rect.zw;\n"
    "    f.y = 1.0 - f.y;\n"
    "    ivec2 s = %s;\n"
    "    ivec2 p = clamp(ivec2(floor(f * vec2(s))), ivec2(0), s - 1);\n"
    "    o = sel * (vec4(texelFetch(tex, %s, lod)) / scale) + bias;\n"
    "}\n";

static const char *const vis_sampler[GL_VIS_KINDS][GL_VIS_DIMS] = {
    {"sampler1D", "sampler2D", "sampler3D"},
    {"isampler1D", "isampler2D", "isampler3D"},
    {"usampler1D", "usampler2D", "usampler3D"},
};
static const char *const vis_size[GL_VIS_DIMS] = {
    "ivec2(textureSize(tex, lod), 1)", "textureSize(tex, lod)", "textureSize(tex, lod).xy",
};
static const char *const vis_coord[GL_VIS_DIMS] = {"p.x", "p", "ivec3(p, slice)"};

// Last part of a namespaced name ("Ns::Tex" -> "Tex").
static const char *last_part(const char *name) {
    const char *s = strrchr(name, ':');
    return s && s > name && s[-1] == ':' ? s + 1 : name;
}

bool gl_vis_parse(fxgl_inspect *in, const char *spec, gl_visualise *v, char *reason,
                  size_t size) {
    fxgl_runtime *rt = in->rt;
    memset(v, 0, sizeof(*v));
    snprintf(v->channels, sizeof(v->channels), "rgba");
    v->corner = GL_CORNER_TR;
    if (strlen(spec) >= sizeof(v->spec)) {
        snprintf(reason, size, "visualise: specification too long");
        return false;
    }
    snprintf(v->spec, sizeof(v->spec), "%s", spec);
    char *colon = strchr(v->spec, ':');
    if (!colon || colon == v->spec || colon[1] == 0) {
        snprintf(reason, size, "visualise '%s': expected "
                 "Effect.fx:Texture[@mip,channels,corner,slice=N,scale=X]", spec);
        return false;
    }
    size_t flen = (size_t)(colon - v->spec);
    char *at = strchr(colon + 1, '@');
    size_t tlen = at ? (size_t)(at - colon - 1) : strlen(colon + 1);
    // The effect: by its file name, or by the path's last component.
    bool found = false;
    for (size_t e = 0; e < rt->effect_count && !found; e++) {
        const char *file = rt->effects[e]->file;
        const char *base = strrchr(file, '/');
        base = base ? base + 1 : file;
        if ((strlen(file) == flen && strncmp(file, v->spec, flen) == 0) ||
            (strlen(base) == flen && strncmp(base, v->spec, flen) == 0)) {
            v->effect = e;
            found = true;
        }
    }
    if (!found) {
        snprintf(reason, size, "visualise '%s': no effect named '%.*s' is loaded", spec,
                 (int)flen, v->spec);
        return false;
    }
    const fxgl_effect *fx = rt->effects[v->effect]->fx;
    found = false;
    for (size_t k = 0; k < fx->texture_count && !found; k++) {
        const char *name = fx->textures[k].name;
        const char *last = last_part(name);
        if ((strlen(name) == tlen && strncmp(name, colon + 1, tlen) == 0) ||
            (strlen(last) == tlen && strncmp(last, colon + 1, tlen) == 0)) {
            v->texture = k;
            found = true;
        }
    }
    if (!found) {
        snprintf(reason, size, "visualise '%s': effect '%.*s' has no texture named '%.*s'",
                 spec, (int)flen, v->spec, (int)tlen, colon + 1);
        return false;
    }
    const fxgl_texture *t = &fx->textures[v->texture];
    // Semantic textures are 2D with four float channels.
    const gl_format *fmt = t->semantic ? NULL : gl_format_get(t->format);
    bool is_3d = !t->semantic && t->dim == FXGL_TEXTURE_3D;
    v->scale = fmt && fmt->integer ? 255.0f : 1.0f;
    long slice = 0;
    bool slice_given = false;
    for (char *opt = at ? at + 1 : NULL; opt && *opt;) {
        size_t n = strcspn(opt, ",");
        char word[32];
        if (n == 0 || n >= sizeof(word)) {
            snprintf(reason, size, "visualise '%s': bad option '%.*s'", spec, (int)n, opt);
            return false;
        }
        memcpy(word, opt, n);
        word[n] = 0;
        char *end;
        long mip = strtol(word, &end, 10);
        if (*end == 0) {
            int levels = t->semantic ? 1 : t->levels;
            if (mip < 0 || mip >= levels) {
                snprintf(reason, size, "visualise '%s': mip %ld out of range (texture has %d "
                         "level%s)", spec, mip, levels, levels == 1 ? "" : "s");
                return false;
            }
            v->mip = (int)mip;
        } else if (strncasecmp(word, "slice=", 6) == 0) {
            slice = strtol(word + 6, &end, 10);
            if (word[6] == 0 || *end != 0 || slice < 0) {
                snprintf(reason, size, "visualise '%s': bad slice '%s' (a depth index from 0)",
                         spec, word + 6);
                return false;
            }
            slice_given = true;
        } else if (strncasecmp(word, "scale=", 6) == 0) {
            double scale = strtod(word + 6, &end);
            if (word[6] == 0 || *end != 0 || !isfinite(scale) || scale <= 0 || scale > 3e38) {
                snprintf(reason, size, "visualise '%s': bad scale '%s' (a number above 0)", spec,
                         word + 6);
                return false;
            }
            v->scale = (float)scale;
        } else if (strcasecmp(word, "tl") == 0) {
            v->corner = GL_CORNER_TL;
        } else if (strcasecmp(word, "tr") == 0) {
            v->corner = GL_CORNER_TR;
        } else if (strcasecmp(word, "bl") == 0) {
            v->corner = GL_CORNER_BL;
        } else if (strcasecmp(word, "br") == 0) {
            v->corner = GL_CORNER_BR;
        } else if (strcasecmp(word, "full") == 0) {
            v->corner = GL_CORNER_FULL;
        } else if (strspn(word, "rgbaRGBA") == n && n <= 4) {
            // Kept in rgba order, each at most once.
            int k = 0;
            for (const char *c = "rgba"; *c; c++) {
                if (strchr(word, *c) || strchr(word, toupper((unsigned char)*c))) {
                    v->channels[k++] = *c;
                }
            }
            v->channels[k] = 0;
        } else {
            snprintf(reason, size, "visualise '%s': bad option '%s' (a mip level, channels from "
                     "rgba, tl/tr/bl/br/full, slice=N or scale=X)", spec, word);
            return false;
        }
        opt += n + (opt[n] == ',');
    }
    // The slice is checked against the chosen level's depth, whatever the options' order.
    if (slice_given && !is_3d) {
        snprintf(reason, size, "visualise '%s': slice %ld given, but '%s' is not a 3D texture",
                 spec, slice, t->name);
        return false;
    }
    int depth = is_3d ? t->depth >> v->mip : 1;
    depth = depth < 1 ? 1 : depth;
    if (slice >= depth) {
        snprintf(reason, size, "visualise '%s': slice %ld out of range (texture has %d slice%s "
                 "at mip %d)", spec, slice, depth, depth == 1 ? "" : "s", v->mip);
        return false;
    }
    v->slice = (int)slice;
    v->on = true;
    return true;
}

bool fxgl_inspect_visualise(fxgl_inspect *in, const char *spec, char *reason, size_t size) {
    char dummy[8];
    if (!reason || !size) {
        reason = dummy;
        size = sizeof(dummy);
    }
    reason[0] = 0;
    if (!in) {
        return false;
    }
    fxgl_runtime_technique_count(in->rt); // adopt recorded effects
    if (!spec || strcasecmp(spec, "off") == 0 || spec[0] == 0) {
        in->vis.on = false;
        return true;
    }
    gl_visualise v;
    if (!gl_vis_parse(in, spec, &v, reason, size)) {
        gl_in_log(in, FXGL_GL_LOG_WARN, "%s; visualisation unchanged", reason);
        return false;
    }
    in->vis = v;
    in->vis_warned = false;
    gl_in_log(in, FXGL_GL_LOG_INFO, "visualising %s", v.spec);
    return true;
}

// What is drawn: the GL texture and what decides the program.
typedef struct vis_source {
    GLuint tex;                  // 0 while there is none yet
    GLenum target;
    gl_vis_kind kind;
    int w, h;                    // level 0, for the corner's aspect; 0: fill the corner
    int channels;                // the format's; a missing alpha reads as full
} vis_source;

static vis_source vis_texture(fxgl_inspect *in) {
    fxgl_runtime *rt = in->rt;
    vis_source s = {.target = GL_TEXTURE_2D, .kind = GL_VIS_FLOAT, .channels = 4};
    if (in->vis.effect >= rt->effect_count) {
        return s;
    }
    const gl_loaded_effect *e = rt->effects[in->vis.effect];
    const fxgl_texture *t = &e->fx->textures[in->vis.texture];
    if (t->semantic) {
        s.w = rt->width;
        s.h = rt->height;
        if (strcmp(t->semantic, "COLOR") == 0) {
            s.tex = rt->color_tex;
            return s;
        }
        for (int k = 0; k < rt->semantic_count; k++) {
            if (strcmp(rt->semantics[k].name, t->semantic) == 0 && rt->semantics[k].texture) {
                s.w = s.h = 0; // size unknown: fill the corner
                s.tex = rt->semantics[k].texture;
                return s;
            }
        }
        bool depth = strcmp(t->semantic, "DEPTH") == 0;
        if (depth && gl_depth_texture(rt)) {
            s.w = s.h = 0; // the program's depth attachment (fbo_depth.c): its own size
            s.tex = gl_depth_texture(rt);
            return s;
        }
        s.tex = depth && rt->depth_ready ? rt->depth_tex : 0;
        return s;
    }
    if (!e->loaded || !e->textures || !e->textures[in->vis.texture]) {
        return s;
    }
    // The texture as the runtime made it (its target, the format it fell back to).
    const gl_tex *g = e->textures[in->vis.texture];
    s.tex = g->tex;
    s.target = g->target;
    s.kind = !g->fmt->integer ? GL_VIS_FLOAT : g->fmt->type == GL_INT ? GL_VIS_INT : GL_VIS_UINT;
    s.channels = g->fmt->channels;
    // A 1D texture (a row on GLES) fills the corner: one column per texel.
    s.w = t->dim == FXGL_TEXTURE_1D ? 0 : t->width;
    s.h = t->dim == FXGL_TEXTURE_1D ? 0 : t->height;
    return s;
}

// The program for a kind of texture, compiled the first time it is needed.
static gl_vis_prog *vis_program(fxgl_inspect *in, gl_vis_kind kind, gl_vis_dim dim) {
    gl_vis_prog *p = &in->vis_prog[kind][dim];
    if (p->program) {
        return p;
    }
    char fs[sizeof(vis_fs_fmt) + 128], what[64];
    snprintf(fs, sizeof(fs), vis_fs_fmt, vis_sampler[kind][dim], vis_size[dim], vis_coord[dim]);
    snprintf(what, sizeof(what), "fxgl visualise %s", vis_sampler[kind][dim]);
    p->program = gl_in_program(in, gl_in_fullscreen_vs, fs, what);
    if (!p->program) {
        return NULL;
    }
    struct GladGLContext *gl = in->gl;
    p->lod = gl->GetUniformLocation(p->program, "lod");
    p->slice = gl->GetUniformLocation(p->program, "slice");
    p->rect = gl->GetUniformLocation(p->program, "rect");
    p->sel = gl->GetUniformLocation(p->program, "sel");
    p->bias = gl->GetUniformLocation(p->program, "bias");
    p->scale = gl->GetUniformLocation(p->program, "scale");
    GLint unit = gl->GetUniformLocation(p->program, "tex");
    gl->UseProgram(p->program);
    gl->Uniform1i(unit, 0);
    return p;
}

void gl_vis_draw(fxgl_inspect *in, const fxgl_frame_desc *f) {
    struct GladGLContext *gl = in->gl;
    vis_source src = vis_texture(in);
    if (!src.tex) {
        if (!in->vis_warned) {
            in->vis_warned = true;
            gl_in_log(in, FXGL_GL_LOG_INFO, "visualise %s: the texture does not exist yet "
                      "(effect not loaded)", in->vis.spec);
        }
        return;
    }
    gl_vis_dim dim = src.target == GL_TEXTURE_3D   ? GL_VIS_3D
                     : src.target == GL_TEXTURE_1D ? GL_VIS_1D
                                                   : GL_VIS_2D;
    gl_vis_prog *prog = vis_program(in, src.kind, dim);
    if (!prog) {
        in->vis.on = false;
        return;
    }
    int tw = src.w, th = src.h;
    // The corner: half the frame at most, the texture's aspect kept.
    int W = f->width, H = f->height;
    int w = W, h = H;
    if (in->vis.corner != GL_CORNER_FULL) {
        w = W / 2;
        h = H / 2;
        if (tw > 0 && th > 0) {
            if ((long)tw * h > (long)th * w) {
                h = (int)((long)w * th / tw);
            } else {
                w = (int)((long)h * tw / th);
            }
        }
        w = w < 1 ? 1 : w;
        h = h < 1 ? 1 : h;
    }
    int x = 0, y = 0;
    switch (in->vis.corner) {
    case GL_CORNER_TL: y = H - h; break;
    case GL_CORNER_TR: x = W - w; y = H - h; break;
    case GL_CORNER_BL: break;
    case GL_CORNER_BR: x = W - w; break;
    case GL_CORNER_FULL: break;
    }
    // sel is column-major: column j says where input channel j goes.
    GLfloat sel[16] = {0}, bias[4] = {0, 0, 0, 1};
    const char *ch = in->vis.channels;
    if (strlen(ch) == 1) {
        int c = (int)(strchr("rgba", ch[0]) - "rgba");
        sel[c * 4 + 0] = sel[c * 4 + 1] = sel[c * 4 + 2] = 1;
    } else {
        for (int c = 0; c < 4; c++) {
            if (strchr(ch, "rgba"[c])) {
                sel[c * 4 + c] = 1;
            }
        }
        if (strchr(ch, 'a')) {
            bias[3] = 0;
        }
    }
    // A format without alpha reads alpha 1 (1.0, or the integer 1): full either way.
    GLfloat s = in->vis.scale;
    GLfloat scale[4] = {s, s, s, src.channels == 4 ? s : 1.0f};
    gl->Viewport(x, y, w, h);
    gl->UseProgram(prog->program);
    gl->Uniform1i(prog->lod, in->vis.mip);
    gl->Uniform1i(prog->slice, in->vis.slice);
    gl->Uniform4f(prog->rect, (GLfloat)x, (GLfloat)y, (GLfloat)w, (GLfloat)h);
    gl->UniformMatrix4fv(prog->sel, 1, GL_FALSE, sel);
    gl->Uniform4fv(prog->bias, 1, bias);
    gl->Uniform4fv(prog->scale, 1, scale);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(src.target, src.tex);
    gl->BindSampler(0, in->sampler);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
}

void gl_vis_release(fxgl_inspect *in) {
    for (int k = 0; k < GL_VIS_KINDS; k++) {
        for (int d = 0; d < GL_VIS_DIMS; d++) {
            if (in->vis_prog[k][d].program) {
                in->gl->DeleteProgram(in->vis_prog[k][d].program);
                in->vis_prog[k][d].program = 0;
            }
        }
    }
}
