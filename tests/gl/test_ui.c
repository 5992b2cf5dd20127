/*
 * test_ui.c - the editing overlay's renderer (src/gl/ui.c) on GL 4.5 core
 * and GLES 3.2, headless.
 *
 * The application's frame is an FBO of one known colour. Checked against
 * values computed here: an opaque rectangle's pixels, a half-transparent
 * one's blend, a glyph of the built-in face (its rows written out by hand
 * below, scaled by the whole factor the line height asks for), text cut
 * at a clip edge, nothing
 * drawn in a frame with no list or with a list built for another size, and
 * the face chosen: TrueType from DejaVu Sans where installed, the built-in
 * one for a missing file, a truncated font and a file of garbage (none of
 * which may crash).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_test.h"
#include "fxgl_ui.h"

#define W 96
#define H 64
#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

static const uint8_t bg[4] = {10, 20, 30, 255};

typedef struct fix {
    fxgl_test_egl *egl;
    GladGLContext *gl;
    bool es;
    fxgl_runtime *rt;
    fxgl_inspect *in;
    GLuint fbo, color;
    uint8_t fill[W * H * 4];
} fix;

static void upload(fix *f) {
    f->gl->BindTexture(GL_TEXTURE_2D, f->color);
    f->gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, f->fill);
}

static void fix_init(fix *f, bool es) {
    memset(f, 0, sizeof(*f));
    char reason[256];
    fxgl_test_egl_desc desc = {.api = es ? FXGL_API_GLES : FXGL_API_GL};
    f->egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(f->egl, "%s", reason);
    f->gl = fxgl_test_egl_gl(f->egl);
    f->es = es;
    GladGLContext *gl = f->gl;
    for (int i = 0; i < W * H; i++) {
        memcpy(&f->fill[i * 4], bg, 4);
    }
    gl->GenTextures(1, &f->color);
    gl->BindTexture(GL_TEXTURE_2D, f->color);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    upload(f);
    gl->GenFramebuffers(1, &f->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, f->color, 0);
    f->rt = fxgl_runtime_create(gl, fxgl_test_egl_info(f->egl), NULL);
    ck_assert(f->rt);
    f->in = fxgl_inspect_create(f->rt, NULL);
    ck_assert(f->in);
}

static void fix_finish(fix *f) {
    fxgl_inspect_destroy(f->in);
    fxgl_runtime_destroy(f->rt);
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    fxgl_test_egl_destroy(f->egl);
}

// One frame of the application (its colour again), then the layer; out: the frame, top row
// first.
static void frame(fix *f, int w, int h, fxgl_image *out) {
    upload(f);
    fxgl_frame_desc d = {.width = w, .height = h, .framebuffer = f->fbo};
    fxgl_inspect_frame(f->in, &d);
    ck_assert_int_eq(f->gl->GetError(), GL_NO_ERROR);
    f->gl->BindFramebuffer(GL_READ_FRAMEBUFFER, f->fbo);
    ck_assert(fxgl_image_read_gl(out, f->gl, W, H));
}

static void expect_px(const fix *f, const fxgl_image *img, int x, int y, int r, int g, int b,
                      int tol, const char *what) {
    const uint8_t *p = fxgl_image_at(img, x, y);
    int want[4] = {r, g, b, 255};
    for (int c = 0; c < 4; c++) {
        ck_assert_msg(abs(p[c] - want[c]) <= tol, "%s (%s): pixel (%d,%d) channel %d: %d, "
                      "want %d", what, f->es ? "GLES" : "GL", x, y, c, p[c], want[c]);
    }
}

static void expect_untouched(const fix *f, const fxgl_image *img, const char *what) {
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            expect_px(f, img, x, y, bg[0], bg[1], bg[2], 0, what);
        }
    }
}

// The built-in face's 'H', as drawn in font.c: 7 rows of 5.
static const char *const glyph_h[7] = {"#...#", "#...#", "#...#", "#####",
                                       "#...#", "#...#", "#...#"};

static void run_pixels(bool es) {
    fix f;
    fix_init(&f, es);
    fxgl_image img;
    frame(&f, W, H, &img);
    expect_untouched(&f, &img, "no list yet");
    fxgl_image_free(&img);

    fxgl_ui *ui = fxgl_inspect_ui(f.in);
    ck_assert(ui);
    fxgl_ui_set_font(ui, ""); // the built-in face
    // Line height 18: the 9-pixel cell scaled by 2.
    fxgl_ui_begin(ui, W, H, 18.0f);
    ck_assert(!fxgl_ui_truetype(ui));
    fxgl_ui_rect(ui, 4, 6, 10, 5, 0xFF8000FFu);
    fxgl_ui_rect(ui, 20, 20, 8, 8, 0x0000FF80u);
    float end = fxgl_ui_text(ui, 40, 30, "H", 0xFFFFFFFFu);
    ck_assert_msg(end == 40 + 12, "advance %g, want 12 (6 x 2)", (double)end);
    ck_assert(fxgl_ui_text_width(ui, "HH") == 24);
    fxgl_ui_end(ui);
    frame(&f, W, H, &img);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            if (x >= 4 && x < 14 && y >= 6 && y < 11) {
                expect_px(&f, &img, x, y, 255, 128, 0, 0, "opaque rectangle");
            } else if (x >= 20 && x < 28 && y >= 20 && y < 28) {
                double a = 128.0 / 255.0;
                expect_px(&f, &img, x, y, (int)(bg[0] * (1 - a) + 0.5),
                          (int)(bg[1] * (1 - a) + 0.5), (int)(255 * a + bg[2] * (1 - a) + 0.5),
                          1, "rectangle at 50% alpha over the frame");
            } else if (x >= 40 && x < 50 && y >= 32 && y < 46) {
                // Top of the glyph: the line's top + ascent (8 x 2) - its 7 rows x 2.
                int row = (y - 32) / 2, col = (x - 40) / 2;
                bool lit = glyph_h[row][col] == '#';
                expect_px(&f, &img, x, y, lit ? 255 : bg[0], lit ? 255 : bg[1],
                          lit ? 255 : bg[2], 0, "built-in 'H' scaled by 2");
            } else {
                expect_px(&f, &img, x, y, bg[0], bg[1], bg[2], 0, "outside what was drawn");
            }
        }
    }
    fxgl_image_free(&img);

    // The list is drawn once: a frame with none shows nothing (the overlay was closed).
    frame(&f, W, H, &img);
    expect_untouched(&f, &img, "frame after the list, none built");
    fxgl_image_free(&img);
    fxgl_ui_stats st;
    fxgl_ui_stats_get(ui, &st);
    ck_assert_int_eq((int)st.draws, 1);
    ck_assert_int_eq((int)st.quads, 3);
    ck_assert_int_ge((int)st.frames_closed, 1);

    // A glyph that would end right of the clip is left out: "HH" clipped after the first.
    fxgl_ui_begin(ui, W, H, 18.0f);
    fxgl_ui_clip_right(ui, 58);
    fxgl_ui_text(ui, 40, 30, "HH", 0xFFFFFFFFu);
    fxgl_ui_end(ui);
    frame(&f, W, H, &img);
    for (int y = 32; y < 46; y++) {
        for (int x = 40; x < 64; x++) {
            int row = (y - 32) / 2, col = (x - 40) / 2;
            bool lit = x < 50 && glyph_h[row][col] == '#';
            expect_px(&f, &img, x, y, lit ? 255 : bg[0], lit ? 255 : bg[1], lit ? 255 : bg[2],
                      0, "'H' then a clipped 'H'");
        }
    }
    fxgl_image_free(&img);

    // A list built for another size (the window was resized under it) is not drawn.
    fxgl_ui_begin(ui, W / 2, H, 18.0f);
    fxgl_ui_rect(ui, 0, 0, 8, 8, 0xFFFFFFFFu);
    fxgl_ui_end(ui);
    frame(&f, W, H, &img);
    expect_untouched(&f, &img, "a list for another size");
    fxgl_image_free(&img);
    fix_finish(&f);
}

START_TEST(pixels_gl) {
    run_pixels(false);
}
END_TEST

START_TEST(pixels_gles) {
    run_pixels(true);
}
END_TEST

static void write_bytes(const char *path, const void *data, size_t n) {
    FILE *fp = fopen(path, "wb");
    ck_assert(fp);
    ck_assert_int_eq(fwrite(data, 1, n, fp), n);
    fclose(fp);
}

START_TEST(font_choice) {
    fix f;
    fix_init(&f, false);
    fxgl_ui *ui = fxgl_inspect_ui(f.in);
    fxgl_image img;
    char dir[256], bad[300], cut[300];
    snprintf(dir, sizeof(dir), "%s/ui-fonts-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                      : "/tmp");
    ck_assert(mkdtemp(dir));
    snprintf(bad, sizeof(bad), "%s/garbage.ttf", dir);
    snprintf(cut, sizeof(cut), "%s/cut.ttf", dir);
    uint8_t junk[4096];
    for (size_t i = 0; i < sizeof(junk); i++) {
        junk[i] = (uint8_t)(i * 131 + 7);
    }
    write_bytes(bad, junk, sizeof(junk));
    const char *faces[] = {"/nonexistent/fxgl/NoSuchFont.ttf", bad, cut, DEJAVU};
    FILE *dv = fopen(DEJAVU, "rb");
    if (dv) {
        // DejaVu's table directory and the start of its tables, no glyphs.
        uint8_t head[2048];
        size_t n = fread(head, 1, sizeof(head), dv);
        fclose(dv);
        write_bytes(cut, head, n);
    } else {
        printf("DejaVu Sans not installed (fonts-dejavu-core): the TrueType case is not run\n");
        write_bytes(cut, junk, 16);
    }
    for (size_t i = 0; i < 4; i++) {
        if (i == 3 && !dv) {
            break;
        }
        fxgl_ui_set_font(ui, faces[i]);
        fxgl_ui_begin(ui, W, H, 20.0f);
        fxgl_ui_text(ui, 2, 2, "Ag", 0xFFFFFFFFu);
        fxgl_ui_end(ui);
        bool want = i == 3;
        ck_assert_msg(fxgl_ui_truetype(ui) == want, "%s: truetype %d", faces[i],
                      fxgl_ui_truetype(ui));
        ck_assert(fxgl_ui_text_width(ui, "Ag") > 0);
        ck_assert(fxgl_ui_line_height(ui) >= 18 && fxgl_ui_line_height(ui) <= 30);
        frame(&f, W, H, &img);
        // Something was written where the text is, nothing at the far corner.
        bool any = false;
        for (int y = 0; y < 26; y++) {
            for (int x = 0; x < 30; x++) {
                any = any || fxgl_image_at(&img, x, y)[0] > 100;
            }
        }
        ck_assert_msg(any, "%s: no text drawn", faces[i]);
        expect_px(&f, &img, W - 1, H - 1, bg[0], bg[1], bg[2], 0, "far corner");
        fxgl_image_free(&img);
        printf("%s: %s face, line %g px\n", faces[i],
               fxgl_ui_truetype(ui) ? "TrueType" : "built-in", (double)fxgl_ui_line_height(ui));
    }
    fix_finish(&f);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GL)) {
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("ui");
    TCase *tc = tcase_create("ui");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, pixels_gl);
    tcase_add_test(tc, pixels_gles);
    tcase_add_test(tc, font_choice);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
