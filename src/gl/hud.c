/*
 * hud.c - the statistics overlay: a HUD panel drawn after the effects
 * with fxgl's own bitmap font (font.c).
 *
 * One program, one draw: the fragment shader finds the character cell
 * under the pixel in a small R8UI texture of character codes (the text
 * grid, GL_IN_TEXT_COLS x GL_IN_TEXT_ROWS) and the glyph's texel in an R8
 * atlas of the 95 glyphs side by side. No vertex data, no per-character
 * geometry, GL 4.3 core and GLES 3.0 alike. The text is rebuilt on the CPU
 * four times a second (a HUD's pace, and the averages move slower than
 * that anyway); frames in between only draw.
 *
 * The panel: top-left corner, black at 60% behind white text, glyph pixels
 * scaled by one per 720 rows of the frame. Its own GPU time is measured
 * with two timestamps a frame and shown on its own line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gl_inspect.h"

static const char ov_fs[] =
    "uniform highp usampler2D text;\n"
    "uniform highp sampler2D font;\n"
    "uniform vec4 rect;          // x, y (GL, lower left), width, height in pixels\n"
    "uniform int scale;\n"
    "layout(location = 0) out vec4 o;\n"
    "void main() {\n"
    "    ivec2 p = ivec2(gl_FragCoord.xy - rect.xy);\n"
    "    p.y = int(rect.w) - 1 - p.y;\n"
    "    p = p / scale - ivec2(2);\n"
    "    vec4 bg = vec4(0.0, 0.0, 0.0, 0.6);\n"
    "    o = bg;\n"
    "    if (p.x < 0 || p.y < 0) return;\n"
    "    ivec2 cell = p / ivec2(6, 9);\n"
    "    ivec2 at = p - cell * ivec2(6, 9);\n"
    "    if (cell.x >= textureSize(text, 0).x || cell.y >= textureSize(text, 0).y) return;\n"
    "    uint code = texelFetch(text, cell, 0).r;\n"
    "    if (code < 32u || code > 126u || at.x >= 5 || at.y >= 7) return;\n"
    "    float lit = texelFetch(font, ivec2(int(code - 32u) * 5 + at.x, at.y), 0).r;\n"
    "    o = mix(bg, vec4(1.0), lit);\n"
    "}\n";

void fxgl_inspect_overlay(fxgl_inspect *in, bool on) {
    if (in) {
        in->overlay = on;
        in->text_dirty = true;
    }
}

bool fxgl_inspect_overlay_is_on(const fxgl_inspect *in) {
    return in && in->overlay;
}

static void line(fxgl_inspect *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(fxgl_inspect *in, const char *fmt, ...) {
    if (in->text_rows == GL_IN_TEXT_ROWS) {
        // Full: the last row says so (the dump has everything).
        static const char more[] = "... more in the dump";
        memset(in->text[GL_IN_TEXT_ROWS - 1], 0, GL_IN_TEXT_COLS);
        memcpy(in->text[GL_IN_TEXT_ROWS - 1], more, sizeof(more) - 1);
        return;
    }
    char buf[GL_IN_TEXT_COLS + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    uint8_t *row = in->text[in->text_rows++];
    memset(row, 0, GL_IN_TEXT_COLS);
    memcpy(row, buf, n);
    if ((int)n > in->text_cols) {
        in->text_cols = (int)n;
    }
}

static void ms(char *buf, size_t size, double v, bool have) {
    if (have) {
        snprintf(buf, size, "%7.3f ms", v);
    } else {
        snprintf(buf, size, "    n/a   ");
    }
}

// The panel's text from the runtime's averages (what the dump shows, shorter).
static void build_text(fxgl_inspect *in) {
    fxgl_runtime *rt = in->rt;
    bool timers = rt->has_timer;
    memset(in->text, 0, sizeof(in->text));
    in->text_rows = 0;
    in->text_cols = 0;
    double frame = gl_avg_value(&in->frame_ms);
    line(in, "fxgl  frame %.2f ms  %.1f fps%s%s", frame, frame > 0 ? 1000.0 / frame : 0.0,
         in->preset[0] ? "  preset " : "", in->preset);
    double gpu = 0;
    for (size_t i = 0; i < rt->order_count && i < in->track_cap; i++) {
        if (in->ran[i]) {
            gpu += gl_avg_value(&rt->order[i]->gpu);
        }
    }
    char g[32], c[32];
    ms(g, sizeof(g), gpu, timers);
    ms(c, sizeof(c), gl_avg_value(&in->runtime_cpu_ms), true);
    line(in, "effects   gpu %s  cpu %s%s", g, c, in->bypass ? "  (off)" : "");
    ms(g, sizeof(g), gl_avg_value(&in->overlay_gpu_ms), timers);
    ms(c, sizeof(c), gl_avg_value(&in->overlay_cpu_ms), true);
    line(in, "overlay   gpu %s  cpu %s", g, c);
    for (size_t i = 0; i < rt->order_count; i++) {
        const gl_technique *t = rt->order[i];
        bool ran = i < in->track_cap && in->ran[i];
        char name[48];
        snprintf(name, sizeof(name), "%s/%s", t->effect->file, t->src->name);
        if (!ran) {
            char why[300];
            const char *r = gl_in_skip_reason(in, i, why, sizeof(why));
            line(in, "%-34.34s %.35s", name, r ? r : "");
            continue;
        }
        ms(g, sizeof(g), gl_avg_value(&t->gpu), timers);
        line(in, "%-34.34s gpu %s", name, g);
        for (size_t p = 0; p < t->src->pass_count; p++) {
            const char *pn = t->src->passes[p].name;
            char pname[48];
            snprintf(pname, sizeof(pname), "  pass %zu %s", p, pn ? pn : "");
            ms(g, sizeof(g), fxgl_runtime_pass_gpu_ms(rt, i, p), timers);
            line(in, "%-34.34s gpu %s", pname, g);
        }
    }
    if (in->vis.on) {
        line(in, "visualise %.60s", in->vis.spec);
    }
    if (in->desc.dump_extra) {
        // The host's own lines (the depth candidates), as the dump ends with them.
        char extra[2048];
        extra[0] = 0;
        in->desc.dump_extra(in->desc.dump_extra_user, extra, sizeof(extra));
        for (char *s = extra, *e; *s; s = e) {
            e = s + strcspn(s, "\n");
            bool nl = *e == '\n';
            *e = 0;
            line(in, "%s", s);
            e += nl;
        }
    }
}

static bool ov_init(fxgl_inspect *in) {
    struct GladGLContext *gl = in->gl;
    in->ov_program = gl_in_program(in, gl_in_fullscreen_vs, ov_fs, "fxgl overlay");
    if (!in->ov_program) {
        return false;
    }
    in->ov_rect = gl->GetUniformLocation(in->ov_program, "rect");
    in->ov_scale = gl->GetUniformLocation(in->ov_program, "scale");
    gl->UseProgram(in->ov_program);
    gl->Uniform1i(gl->GetUniformLocation(in->ov_program, "text"), 0);
    gl->Uniform1i(gl->GetUniformLocation(in->ov_program, "font"), 1);
    // The atlas: 95 glyphs of 5x7 side by side, top row first.
    static uint8_t atlas[7][GL_IN_FONT_COUNT * 5];
    for (int g = 0; g < GL_IN_FONT_COUNT; g++) {
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 5; x++) {
                atlas[y][g * 5 + x] = gl_in_font[g][y * 5 + x] == '#' ? 255 : 0;
            }
        }
    }
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1); // restored with the capture
    gl->ActiveTexture(GL_TEXTURE0);
    gl->GenTextures(1, &in->font_tex);
    gl->BindTexture(GL_TEXTURE_2D, in->font_tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_R8, GL_IN_FONT_COUNT * 5, 7);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GL_IN_FONT_COUNT * 5, 7, GL_RED, GL_UNSIGNED_BYTE,
                      atlas);
    gl_label(in->rt, GL_TEXTURE, in->font_tex, "fxgl overlay font");
    gl->GenTextures(1, &in->text_tex);
    gl->BindTexture(GL_TEXTURE_2D, in->text_tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_R8UI, GL_IN_TEXT_COLS, GL_IN_TEXT_ROWS);
    gl_label(in->rt, GL_TEXTURE, in->text_tex, "fxgl overlay text");
    if (in->rt->has_timer) {
        gl->GenQueries(4, &in->timer_query[0][0]);
    }
    in->text_dirty = true;
    return true;
}

// The overlay's GPU time of two frames ago, when the GPU has it.
static void read_timer(fxgl_inspect *in, int slot) {
    fxgl_runtime *rt = in->rt;
    if (!in->timer_pending[slot]) {
        return;
    }
    GLuint available = 0;
    rt->query_uiv(in->timer_query[slot][1], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) {
        return;
    }
    GLuint64 t0 = 0, t1 = 0;
    rt->query_u64(in->timer_query[slot][0], GL_QUERY_RESULT, &t0);
    rt->query_u64(in->timer_query[slot][1], GL_QUERY_RESULT, &t1);
    gl_avg_add(&in->overlay_gpu_ms, t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0);
    in->timer_pending[slot] = false;
}

void gl_ov_draw(fxgl_inspect *in, const fxgl_frame_desc *f) {
    struct GladGLContext *gl = in->gl;
    double t0 = gl_now();
    if (!in->ov_program && !ov_init(in)) {
        in->overlay = false;
        return;
    }
    int slot = (int)(in->frames & 1);
    bool timer = in->rt->has_timer && !in->timer_pending[slot];
    if (in->rt->has_timer) {
        read_timer(in, slot);
        timer = !in->timer_pending[slot];
    }
    if (in->text_dirty || f->time - in->text_time >= GL_IN_OVERLAY_PERIOD ||
        f->time < in->text_time) {
        build_text(in);
        in->text_time = f->time;
        in->text_dirty = false;
        gl->ActiveTexture(GL_TEXTURE0);
        gl->BindTexture(GL_TEXTURE_2D, in->text_tex);
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GL_IN_TEXT_COLS, GL_IN_TEXT_ROWS,
                          GL_RED_INTEGER, GL_UNSIGNED_BYTE, in->text);
    }
    if (timer) {
        // Timestamps, as the runtime takes them: unlike TIME_ELAPSED they
        // cannot clash with a query the application keeps open over its swap.
        in->rt->query_counter(in->timer_query[slot][0], GL_TIMESTAMP);
    }
    int scale = f->height / 720 > 1 ? f->height / 720 : 1;
    int w = (in->text_cols * GL_IN_GLYPH_W + 4) * scale;
    int h = (in->text_rows * GL_IN_GLYPH_H + 4) * scale;
    w = w > f->width ? f->width : w;
    h = h > f->height ? f->height : h;
    int x = 0, y = f->height - h;
    gl->Viewport(x, y, w, h);
    gl->Enable(GL_BLEND);
    gl->BlendEquation(GL_FUNC_ADD);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    gl->UseProgram(in->ov_program);
    gl->Uniform4f(in->ov_rect, (GLfloat)x, (GLfloat)y, (GLfloat)w, (GLfloat)h);
    gl->Uniform1i(in->ov_scale, scale);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(GL_TEXTURE_2D, in->text_tex);
    gl->BindSampler(0, in->sampler);
    gl->ActiveTexture(GL_TEXTURE1);
    gl->BindTexture(GL_TEXTURE_2D, in->font_tex);
    gl->BindSampler(1, in->sampler);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
    gl->Disable(GL_BLEND);
    if (timer) {
        in->rt->query_counter(in->timer_query[slot][1], GL_TIMESTAMP);
        in->timer_pending[slot] = true;
    }
    gl_avg_add(&in->overlay_cpu_ms, (gl_now() - t0) * 1000.0);
}

void gl_ov_release(fxgl_inspect *in) {
    struct GladGLContext *gl = in->gl;
    if (in->ov_program) {
        gl->DeleteProgram(in->ov_program);
        gl->DeleteTextures(1, &in->font_tex);
        gl->DeleteTextures(1, &in->text_tex);
        if (in->rt->has_timer) {
            gl->DeleteQueries(4, &in->timer_query[0][0]);
        }
        in->ov_program = 0;
    }
}
