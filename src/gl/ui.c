/*
 * ui.c - the editing overlay's renderer (fxgl_ui.h): one vertex buffer of
 * quads, one R8 atlas, one program, one draw call per frame the overlay is
 * open.
 *
 * Why stb_truetype and not Dear ImGui: the overlay's widgets are few and
 * laid out by src/interpose/overlay.c itself, so all this side needs is
 * text and rectangles. stb_truetype is one header already installed with
 * libstb-dev (stb_image is used the same way), compiles to a few tens of
 * kilobytes of code inside libfxgl with its functions static, and adds no
 * shared library to every program fxgl is preloaded into; ImGui would add
 * libimgui.so (a C++ runtime dependency in a C program's address space) and
 * a C shim for its C++ API. The bake is done once at open, not per frame.
 *
 * The atlas is a square R8 texture: the face's printable ASCII glyphs baked
 * at the wanted line height, and a 2x2 white block in its last corner that
 * rectangles sample, so text and rectangles share the one program and draw.
 * The built-in face (font.c's 5x7 glyphs, scaled by whole pixels) fills the
 * same glyph table when no TrueType file can be read.
 *
 * Vertices are built into a buffer allocated at the first list (the
 * overlay's first opening) and uploaded with glBufferData (orphaning, so the
 * driver never waits for the previous frame's draw). Nothing is allocated
 * per frame.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_ui.h"
#include "gl_inspect.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wshadow"
#define STBTT_STATIC
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>
#pragma GCC diagnostic pop

#define UI_FIRST 32
#define UI_GLYPHS 95
#define UI_FONT_MAX (16u << 20) // a font file larger than this is not read

typedef struct ui_vertex {
    float x, y, u, v;
    uint8_t rgba[4];
} ui_vertex;

struct fxgl_ui {
    fxgl_inspect *in;
    char font_path[1024];
    bool font_changed;
    // the baked face
    stbtt_bakedchar glyphs[UI_GLYPHS];
    float baked_px;              // 0: not baked
    float ascent;                // baseline below a line's top
    float line;                  // line height
    bool truetype;
    bool linear;                 // sample the atlas linearly (TrueType) or nearest (built-in)
    uint8_t *atlas;              // CPU copy until uploaded
    int atlas_size;
    bool atlas_dirty;
    // the list
    ui_vertex *verts;            // FXGL_UI_QUADS * 6
    size_t quads;
    size_t dropped;
    int width, height;
    float clip_right;            // glyphs ending right of it are left out, 0: none
    bool building;
    bool ready;                  // ended since the last draw
    // GL
    GLuint program, vao, vbo, tex, sampler;
    GLint loc_size;
    GLuint timer[2][2];
    bool timer_pending[2];
    uint64_t draws;
    gl_avg gpu_ms;
    fxgl_ui_stats stats;
};

fxgl_ui *fxgl_inspect_ui(fxgl_inspect *in) {
    if (!in) {
        return NULL;
    }
    if (!in->ui) {
        fxgl_ui *ui = calloc(1, sizeof(*ui));
        if (!ui) {
            return NULL;
        }
        ui->in = in;
        ui->font_changed = true;
        in->ui = ui;
    }
    return in->ui;
}

void fxgl_ui_set_font(fxgl_ui *ui, const char *path) {
    if (!ui) {
        return;
    }
    const char *p = path ? path : "";
    if (strcmp(ui->font_path, p) != 0) {
        snprintf(ui->font_path, sizeof(ui->font_path), "%s", p);
        ui->font_changed = true;
    }
}

bool fxgl_ui_truetype(const fxgl_ui *ui) {
    return ui && ui->truetype;
}

// The whole file, or NULL (missing, unreadable, too large, out of memory).
static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = path && path[0] ? fopen(path, "rb") : NULL;
    if (!f) {
        return NULL;
    }
    uint8_t *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        n = ftell(f);
    }
    if (n > 0 && (unsigned long)n <= UI_FONT_MAX && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)n);
        if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
    }
    fclose(f);
    *size = data ? (size_t)n : 0;
    return data;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// stb_truetype trusts every offset in the file: a truncated or damaged font would make it
// read past the buffer, in the host's process. So before it reads anything, the table
// directory must lie in the file and every table inside it; after stbtt_InitFont, the
// character map and every glyph the bake will touch too.
static bool font_in_bounds(const uint8_t *data, size_t size) {
    if (size < 12) {
        return false;
    }
    uint32_t tag = be32(data);
    if (tag != 0x00010000u && tag != 0x74727565u /* 'true' */) {
        return false; // not a single TrueType font (collections and CFF are not baked)
    }
    size_t tables = (size_t)data[4] << 8 | data[5];
    if (tables == 0 || 12 + tables * 16 > size) {
        return false;
    }
    for (size_t i = 0; i < tables; i++) {
        const uint8_t *rec = data + 12 + i * 16;
        uint64_t off = be32(rec + 8), len = be32(rec + 12);
        if (off + len > size) {
            return false;
        }
    }
    return true;
}

static bool glyphs_in_bounds(const stbtt_fontinfo *info, size_t size) {
    if (info->index_map <= 0 || (size_t)info->index_map + 8 > size) {
        return false;
    }
    for (int c = UI_FIRST; c < UI_FIRST + UI_GLYPHS; c++) {
        int g = stbtt_FindGlyphIndex(info, c);
        if (g < 0 || g >= info->numGlyphs) {
            return false;
        }
        int off = stbtt__GetGlyfOffset(info, g);
        if (off >= 0 && (size_t)off + 10 > size) {
            return false;
        }
    }
    return true;
}

static int atlas_side(float px) {
    return px <= 24.0f ? 256 : px <= 48.0f ? 512 : 1024;
}

// The TrueType face at line height px; false leaves the built-in one to the caller.
static bool bake_truetype(fxgl_ui *ui, float px) {
    size_t size = 0;
    uint8_t *data = read_file(ui->font_path, &size);
    if (!data) {
        return false;
    }
    bool ok = false;
    stbtt_fontinfo info;
    int side = atlas_side(px);
    uint8_t *atlas = calloc((size_t)side * (size_t)side, 1);
    if (atlas && font_in_bounds(data, size) && stbtt_InitFont(&info, data, 0) &&
        glyphs_in_bounds(&info, size)) {
        int ascent, descent, gap;
        stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
        float scale = stbtt_ScaleForPixelHeight(&info, px);
        // Leave the last 2 rows for the white block.
        int rows = stbtt_BakeFontBitmap(data, 0, px, atlas,
                                        side, side - 2, UI_FIRST, UI_GLYPHS, ui->glyphs);
        if (rows > 0) {
            ui->ascent = roundf((float)ascent * scale);
            ui->line = ceilf((float)(ascent - descent + gap) * scale);
            ok = true;
        }
    }
    free(data);
    if (!ok) {
        free(atlas);
        return false;
    }
    free(ui->atlas);
    ui->atlas = atlas;
    ui->atlas_size = side;
    return true;
}

// fxgl's own 5x7 face, scaled by whole pixels to about px.
static void bake_builtin(fxgl_ui *ui, float px) {
    int s = (int)floorf(px / (float)GL_IN_GLYPH_H + 0.5f);
    s = s < 1 ? 1 : s;
    int cw = GL_IN_GLYPH_W * s, ch = GL_IN_GLYPH_H * s;
    int side = 64;
    while ((side / cw) * ((side - 2) / ch) < UI_GLYPHS) {
        side *= 2;
    }
    uint8_t *atlas = calloc((size_t)side * (size_t)side, 1);
    if (!atlas) {
        return; // keeps what was baked before (or no text at all)
    }
    int per_row = side / cw;
    for (int g = 0; g < UI_GLYPHS; g++) {
        int ox = (g % per_row) * cw, oy = (g / per_row) * ch;
        for (int y = 0; y < 7 * s; y++) {
            for (int x = 0; x < 5 * s; x++) {
                if (gl_in_font[g][(y / s) * 5 + x / s] == '#') {
                    atlas[(size_t)(oy + y) * (size_t)side + (size_t)(ox + x)] = 255;
                }
            }
        }
        ui->glyphs[g] = (stbtt_bakedchar){
            .x0 = (unsigned short)ox, .y0 = (unsigned short)oy,
            .x1 = (unsigned short)(ox + 5 * s), .y1 = (unsigned short)(oy + 7 * s),
            .xoff = 0.0f, .yoff = (float)(-7 * s), .xadvance = (float)cw,
        };
    }
    free(ui->atlas);
    ui->atlas = atlas;
    ui->atlas_size = side;
    ui->ascent = (float)(8 * s);
    ui->line = (float)(ch + s);
}

static void bake(fxgl_ui *ui, float px) {
    bool tt = bake_truetype(ui, px);
    if (!tt) {
        if (ui->font_path[0] && (ui->font_changed || ui->truetype)) {
            gl_in_log(ui->in, FXGL_GL_LOG_INFO, "overlay font %s cannot be read: the built-in "
                      "face is used", ui->font_path);
        }
        bake_builtin(ui, px);
    }
    if (!ui->atlas) {
        return;
    }
    int side = ui->atlas_size;
    for (int y = side - 2; y < side; y++) {
        memset(ui->atlas + (size_t)y * (size_t)side + (size_t)(side - 2), 255, 2);
    }
    ui->truetype = tt;
    ui->linear = tt;
    ui->baked_px = px;
    ui->font_changed = false;
    ui->atlas_dirty = true;
}

void fxgl_ui_begin(fxgl_ui *ui, int width, int height, float px) {
    if (!ui) {
        return;
    }
    if (!ui->verts) {
        ui->verts = malloc(sizeof(ui_vertex) * 6 * FXGL_UI_QUADS);
    }
    px = px < 6.0f ? 6.0f : px > 160.0f ? 160.0f : px;
    if (ui->font_changed || fabsf(px - ui->baked_px) >= 1.0f) {
        bake(ui, px);
    }
    ui->width = width;
    ui->height = height;
    ui->quads = 0;
    ui->dropped = 0;
    ui->clip_right = 0;
    ui->building = ui->verts != NULL && ui->atlas != NULL;
}

static void quad(fxgl_ui *ui, float x0, float y0, float x1, float y1, float u0, float v0,
                 float u1, float v1, uint32_t rgba) {
    if (!ui->building) {
        return;
    }
    if (ui->quads >= FXGL_UI_QUADS) {
        ui->dropped++;
        return;
    }
    ui_vertex c = {.rgba = {(uint8_t)(rgba >> 24), (uint8_t)(rgba >> 16), (uint8_t)(rgba >> 8),
                            (uint8_t)rgba}};
    ui_vertex *v = &ui->verts[ui->quads++ * 6];
    v[0] = c, v[0].x = x0, v[0].y = y0, v[0].u = u0, v[0].v = v0;
    v[1] = c, v[1].x = x1, v[1].y = y0, v[1].u = u1, v[1].v = v0;
    v[2] = c, v[2].x = x1, v[2].y = y1, v[2].u = u1, v[2].v = v1;
    v[3] = v[0];
    v[4] = v[2];
    v[5] = c, v[5].x = x0, v[5].y = y1, v[5].u = u0, v[5].v = v1;
}

void fxgl_ui_rect(fxgl_ui *ui, float x, float y, float w, float h, uint32_t rgba) {
    if (!ui || w <= 0 || h <= 0) {
        return;
    }
    float t = ((float)ui->atlas_size - 1.0f) / (float)ui->atlas_size; // the white block
    quad(ui, x, y, x + w, y + h, t, t, t, t, rgba);
}

static int glyph_of(char c) {
    int g = (unsigned char)c - UI_FIRST;
    return g >= 0 && g < UI_GLYPHS ? g : '?' - UI_FIRST;
}

float fxgl_ui_text(fxgl_ui *ui, float x, float y, const char *s, uint32_t rgba) {
    if (!ui || !s || !ui->atlas) {
        return x;
    }
    float inv = 1.0f / (float)ui->atlas_size;
    float base = floorf(y + ui->ascent);
    for (; *s; s++) {
        const stbtt_bakedchar *b = &ui->glyphs[glyph_of(*s)];
        if (ui->clip_right > 0 && x + b->xadvance > ui->clip_right) {
            break;
        }
        if (*s != ' ') {
            float gx = floorf(x + b->xoff + 0.5f), gy = floorf(base + b->yoff + 0.5f);
            quad(ui, gx, gy, gx + (float)(b->x1 - b->x0), gy + (float)(b->y1 - b->y0),
                 (float)b->x0 * inv, (float)b->y0 * inv, (float)b->x1 * inv, (float)b->y1 * inv,
                 rgba);
        }
        x += b->xadvance;
    }
    return x;
}

float fxgl_ui_text_width(const fxgl_ui *ui, const char *s) {
    float w = 0;
    for (; ui && s && *s; s++) {
        w += ui->glyphs[glyph_of(*s)].xadvance;
    }
    return w;
}

void fxgl_ui_clip_right(fxgl_ui *ui, float x) {
    if (ui) {
        ui->clip_right = x > 0 ? x : 0;
    }
}

float fxgl_ui_line_height(const fxgl_ui *ui) {
    return ui && ui->line > 0 ? ui->line : 12.0f;
}

size_t fxgl_ui_dropped(const fxgl_ui *ui) {
    return ui ? ui->dropped : 0;
}

void fxgl_ui_end(fxgl_ui *ui) {
    if (ui && ui->building) {
        ui->building = false;
        ui->ready = true;
    }
}

void fxgl_ui_stats_get(const fxgl_ui *ui, fxgl_ui_stats *stats) {
    *stats = ui ? ui->stats : (fxgl_ui_stats){0};
    if (ui) {
        stats->gpu_ms = gl_avg_value(&ui->gpu_ms);
    }
}

bool fxgl_ui_failed(const fxgl_ui *ui, size_t i, const char **file, const char **diagnostic) {
    if (!ui || i >= (size_t)ui->in->failed_count) {
        return false;
    }
    *file = ui->in->failed[i].file;
    *diagnostic = ui->in->failed[i].diagnostic;
    return true;
}

const char *fxgl_ui_skip_reason(fxgl_ui *ui, size_t i, char *buf, size_t size) {
    fxgl_inspect *in = ui ? ui->in : NULL;
    if (!in || i >= in->rt->order_count) {
        return NULL;
    }
    if (i < in->track_cap && in->ran[i]) {
        return NULL;
    }
    const char *r = gl_in_skip_reason(in, i, buf, size);
    return r ? r : "did not run";
}

// --- GL, on the layer's context inside its capture (inspect.c) ---

static const char ui_vs[] =
    "layout(location = 0) in vec2 pos;\n"
    "layout(location = 1) in vec2 uv;\n"
    "layout(location = 2) in vec4 col;\n"
    "uniform vec2 size;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_col;\n"
    "void main() {\n"
    "    v_uv = uv;\n"
    "    v_col = col;\n"
    "    gl_Position = vec4(pos.x / size.x * 2.0 - 1.0, 1.0 - pos.y / size.y * 2.0, 0.0, 1.0);\n"
    "}\n";

static const char ui_fs[] =
    "uniform highp sampler2D atlas;\n"
    "in vec2 v_uv;\n"
    "in vec4 v_col;\n"
    "layout(location = 0) out vec4 o;\n"
    "void main() {\n"
    "    o = vec4(v_col.rgb, v_col.a * texture(atlas, v_uv).r);\n"
    "}\n";

static bool ui_init(fxgl_ui *ui) {
    fxgl_inspect *in = ui->in;
    struct GladGLContext *gl = in->gl;
    ui->program = gl_in_program(in, ui_vs, ui_fs, "fxgl editing overlay");
    if (!ui->program) {
        return false;
    }
    ui->loc_size = gl->GetUniformLocation(ui->program, "size");
    gl->UseProgram(ui->program);
    gl->Uniform1i(gl->GetUniformLocation(ui->program, "atlas"), 0);
    gl->GenVertexArrays(1, &ui->vao);
    gl->GenBuffers(1, &ui->vbo);
    gl->BindVertexArray(ui->vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, ui->vbo);
    gl->EnableVertexAttribArray(0);
    gl->EnableVertexAttribArray(1);
    gl->EnableVertexAttribArray(2);
    gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ui_vertex), (void *)0);
    gl->VertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ui_vertex),
                            (void *)offsetof(ui_vertex, u));
    gl->VertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ui_vertex),
                            (void *)offsetof(ui_vertex, rgba));
    gl->GenSamplers(1, &ui->sampler);
    gl->SamplerParameteri(ui->sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->SamplerParameteri(ui->sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    if (in->rt->has_timer) {
        gl->GenQueries(4, &ui->timer[0][0]);
    }
    gl_label(in->rt, GL_BUFFER, ui->vbo, "fxgl editing overlay vertices");
    return true;
}

static void upload_atlas(fxgl_ui *ui) {
    struct GladGLContext *gl = ui->in->gl;
    if (ui->tex) {
        gl->DeleteTextures(1, &ui->tex);
    }
    gl->GenTextures(1, &ui->tex);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(GL_TEXTURE_2D, ui->tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_R8, ui->atlas_size, ui->atlas_size);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1); // restored with the capture
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, ui->atlas_size, ui->atlas_size, GL_RED,
                      GL_UNSIGNED_BYTE, ui->atlas);
    gl_label(ui->in->rt, GL_TEXTURE, ui->tex, "fxgl editing overlay font");
    GLint filter = ui->linear ? GL_LINEAR : GL_NEAREST;
    gl->SamplerParameteri(ui->sampler, GL_TEXTURE_MIN_FILTER, filter);
    gl->SamplerParameteri(ui->sampler, GL_TEXTURE_MAG_FILTER, filter);
    ui->atlas_dirty = false;
}

static void read_timer(fxgl_ui *ui, int slot) {
    fxgl_runtime *rt = ui->in->rt;
    if (!ui->timer_pending[slot]) {
        return;
    }
    GLuint available = 0;
    rt->query_uiv(ui->timer[slot][1], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) {
        return;
    }
    GLuint64 t0 = 0, t1 = 0;
    rt->query_u64(ui->timer[slot][0], GL_QUERY_RESULT, &t0);
    rt->query_u64(ui->timer[slot][1], GL_QUERY_RESULT, &t1);
    gl_avg_add(&ui->gpu_ms, t1 > t0 ? (double)(t1 - t0) * 1e-6 : 0.0);
    ui->timer_pending[slot] = false;
}

bool gl_ui_pending(const fxgl_inspect *in) {
    return in->ui && in->ui->ready;
}

void gl_ui_closed_frame(fxgl_inspect *in) {
    if (in->ui) {
        in->ui->stats.frames_closed++;
    }
}

void gl_ui_draw(fxgl_inspect *in, const fxgl_frame_desc *f) {
    fxgl_ui *ui = in->ui;
    struct GladGLContext *gl = in->gl;
    double t0 = gl_now();
    ui->ready = false;
    if (ui->width != f->width || ui->height != f->height || ui->quads == 0) {
        return; // built for another size: the next frame's list will fit
    }
    if (!ui->program && !ui_init(ui)) {
        ui->quads = 0;
        return;
    }
    if (ui->atlas_dirty) {
        upload_atlas(ui);
    }
    fxgl_runtime *rt = in->rt;
    int slot = (int)(ui->draws & 1);
    if (rt->has_timer) {
        read_timer(ui, slot);
    }
    bool timer = rt->has_timer && !ui->timer_pending[slot];
    if (timer) {
        rt->query_counter(ui->timer[slot][0], GL_TIMESTAMP);
    }
    gl->Viewport(0, 0, f->width, f->height);
    gl->Enable(GL_BLEND);
    gl->BlendEquation(GL_FUNC_ADD);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    gl->UseProgram(ui->program);
    gl->Uniform2f(ui->loc_size, (GLfloat)f->width, (GLfloat)f->height);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(GL_TEXTURE_2D, ui->tex);
    gl->BindSampler(0, ui->sampler);
    gl->BindVertexArray(ui->vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, ui->vbo);
    GLsizeiptr bytes = (GLsizeiptr)(ui->quads * 6 * sizeof(ui_vertex));
    gl->BufferData(GL_ARRAY_BUFFER, bytes, ui->verts, GL_STREAM_DRAW);
    gl->DrawArrays(GL_TRIANGLES, 0, (GLsizei)(ui->quads * 6));
    gl->Disable(GL_BLEND);
    if (timer) {
        rt->query_counter(ui->timer[slot][1], GL_TIMESTAMP);
        ui->timer_pending[slot] = true;
    }
    ui->draws++;
    ui->stats.draws = ui->draws;
    ui->stats.quads = (uint32_t)ui->quads;
    ui->stats.cpu_ms = (gl_now() - t0) * 1000.0;
}

void gl_ui_release(fxgl_inspect *in, bool current) {
    fxgl_ui *ui = in->ui;
    if (!ui) {
        return;
    }
    struct GladGLContext *gl = current ? in->gl : NULL;
    if (gl && ui->program) {
        gl->DeleteProgram(ui->program);
        gl->DeleteVertexArrays(1, &ui->vao);
        gl->DeleteBuffers(1, &ui->vbo);
        gl->DeleteSamplers(1, &ui->sampler);
        if (in->rt->has_timer) {
            gl->DeleteQueries(4, &ui->timer[0][0]);
        }
    }
    if (gl && ui->tex) {
        gl->DeleteTextures(1, &ui->tex);
    }
    free(ui->atlas);
    free(ui->verts);
    free(ui);
    in->ui = NULL;
}
