/*
 * visualise.c - any texture of a loaded effect drawn into a corner of the
 * frame or over all of it (issue 10).
 *
 * "Effect.fx:Texture@mip,channels,corner". The texture is read with
 * texelFetch at the chosen level, nearest texel for each pixel, so what
 * shows is exactly what the texture holds (clamped to the framebuffer's
 * range), not a filtered version of it. Channels are a subset of rgba: one
 * channel shows as grey, a missing alpha as opaque. Effect textures are
 * top-down (D3D order); the shader maps the corner's top row to row 0.
 *
 * Names are checked against the effect module (CPU data, there as soon as
 * the effect is recorded); the GL texture is looked up at draw time, so a
 * visualisation asked for before the effect's first frame shows once the
 * effect is loaded.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gl_inspect.h"

static const char vis_fs[] =
    "uniform highp sampler2D tex;\n"
    "uniform int lod;\n"
    "uniform vec4 rect;          // x, y (GL, lower left), width, height in pixels\n"
    "uniform mat4 sel;           // channel selection\n"
    "uniform vec4 bias;          // alpha of 1 where alpha is not selected\n"
    "layout(location = 0) out vec4 o;\n"
    "void main() {\n"
    "    vec2 f = (gl_FragCoord.xy - rect.xy) / rect.zw;\n"
    "    f.y = 1.0 - f.y;\n"
    "    ivec2 s = textureSize(tex, lod);\n"
    "    ivec2 p = clamp(ivec2(floor(f * vec2(s))), ivec2(0), s - 1);\n"
    "    o = sel * texelFetch(tex, p, lod) + bias;\n"
    "}\n";

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
        snprintf(reason, size, "visualise '%s': expected Effect.fx:Texture[@mip,channels,corner]",
                 spec);
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
    if (t->dim != FXGL_TEXTURE_2D && !t->semantic) {
        snprintf(reason, size, "visualise '%s': only 2D textures can be shown", spec);
        return false;
    }
    const gl_format *fmt = t->semantic ? NULL : gl_format_get(t->format);
    if (fmt && fmt->integer) {
        snprintf(reason, size, "visualise '%s': integer formats cannot be shown", spec);
        return false;
    }
    for (char *opt = at ? at + 1 : NULL; opt && *opt;) {
        size_t n = strcspn(opt, ",");
        char word[16];
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
                     "rgba, or tl/tr/bl/br/full)", spec, word);
            return false;
        }
        opt += n + (opt[n] == ',');
    }
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

// The GL texture behind the visualised one, 0 while there is none yet.
static GLuint vis_texture(fxgl_inspect *in, int *w, int *h) {
    fxgl_runtime *rt = in->rt;
    if (in->vis.effect >= rt->effect_count) {
        return 0;
    }
    const gl_effect *e = rt->effects[in->vis.effect];
    const fxgl_texture *t = &e->fx->textures[in->vis.texture];
    if (t->semantic) {
        *w = rt->width;
        *h = rt->height;
        if (strcmp(t->semantic, "COLOR") == 0) {
            return rt->color_tex;
        }
        for (int s = 0; s < rt->semantic_count; s++) {
            if (strcmp(rt->semantics[s].name, t->semantic) == 0 && rt->semantics[s].texture) {
                *w = *h = 0; // size unknown: fill the corner
                return rt->semantics[s].texture;
            }
        }
        return strcmp(t->semantic, "DEPTH") == 0 && rt->depth_ready ? rt->depth_tex : 0;
    }
    if (!e->loaded || !e->textures || !e->textures[in->vis.texture]) {
        return 0;
    }
    *w = t->width;
    *h = t->height;
    return e->textures[in->vis.texture]->tex;
}

void gl_vis_draw(fxgl_inspect *in, const fxgl_frame_desc *f) {
    struct GladGLContext *gl = in->gl;
    int tw = 0, th = 0;
    GLuint tex = vis_texture(in, &tw, &th);
    if (!tex) {
        if (!in->vis_warned) {
            in->vis_warned = true;
            gl_in_log(in, FXGL_GL_LOG_INFO, "visualise %s: the texture does not exist yet "
                      "(effect not loaded)", in->vis.spec);
        }
        return;
    }
    if (!in->vis_program) {
        in->vis_program = gl_in_program(in, gl_in_fullscreen_vs, vis_fs, "fxgl visualise");
        if (!in->vis_program) {
            in->vis.on = false;
            return;
        }
        in->vis_lod = gl->GetUniformLocation(in->vis_program, "lod");
        in->vis_rect = gl->GetUniformLocation(in->vis_program, "rect");
        in->vis_sel = gl->GetUniformLocation(in->vis_program, "sel");
        in->vis_bias = gl->GetUniformLocation(in->vis_program, "bias");
        GLint unit = gl->GetUniformLocation(in->vis_program, "tex");
        gl->UseProgram(in->vis_program);
        gl->Uniform1i(unit, 0);
    }
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
    gl->Viewport(x, y, w, h);
    gl->UseProgram(in->vis_program);
    gl->Uniform1i(in->vis_lod, in->vis.mip);
    gl->Uniform4f(in->vis_rect, (GLfloat)x, (GLfloat)y, (GLfloat)w, (GLfloat)h);
    gl->UniformMatrix4fv(in->vis_sel, 1, GL_FALSE, sel);
    gl->Uniform4fv(in->vis_bias, 1, bias);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->BindSampler(0, in->sampler);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
}

void gl_vis_release(fxgl_inspect *in) {
    if (in->vis_program) {
        in->gl->DeleteProgram(in->vis_program);
        in->vis_program = 0;
    }
}
