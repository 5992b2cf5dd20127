/*
 * test_smoke_egl.c - a headless GL 4.5 core and a GLES 3.2 context each
 * render and read back pixels.
 *
 * Expected values are computed here in C from the same formulas the shaders
 * use, not taken from a previous run: a clear colour, then a full-screen
 * triangle whose colour is a function of gl_FragCoord.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "fxgl_test.h"

#define W 64
#define H 32

static const char *vs_body =
    "const vec2 pos[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n"
    "void main() { gl_Position = vec4(pos[gl_VertexID], 0.0, 1.0); }\n";
static const char *fs_body =
    "out vec4 color;\n"
    "void main() {\n"
    "    color = vec4(gl_FragCoord.x / 64.0, gl_FragCoord.y / 32.0, 0.25, 1.0);\n"
    "}\n";

static GLuint compile(GladGLContext *gl, GLenum stage, const char *header, const char *body) {
    GLuint s = gl->CreateShader(stage);
    const char *src[2] = {header, body};
    gl->ShaderSource(s, 2, src, NULL);
    gl->CompileShader(s);
    GLint ok = 0;
    gl->GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        gl->GetShaderInfoLog(s, sizeof(log), NULL, log);
        ck_abort_msg("shader compile failed: %s", log);
    }
    return s;
}

// 8-bit UNORM conversion as GL specifies it: round(c * 255).
static int unorm8(double c) {
    if (c < 0.0) {
        c = 0.0;
    }
    if (c > 1.0) {
        c = 1.0;
    }
    return (int)floor(c * 255.0 + 0.5);
}

static void render_and_check(fxgl_api api) {
    char reason[256];
    fxgl_test_egl *egl = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = api}, reason,
                                              sizeof(reason));
    ck_assert_msg(egl != NULL, "context: %s", reason);
    GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);
    ck_assert_int_eq(info->api, api);
    ck_assert(info->meets_minimum);
    if (api == FXGL_API_GL) {
        ck_assert(info->core_profile);
        ck_assert_int_ge(info->major * 10 + info->minor, 45);
    } else {
        ck_assert_int_ge(info->major * 10 + info->minor, 32);
    }

    GLuint tex, fbo, vao;
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    ck_assert_int_eq(gl->CheckFramebufferStatus(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    gl->Viewport(0, 0, W, H);

    // 1. A clear: every pixel is the clear colour.
    gl->ClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    fxgl_image img;
    ck_assert(fxgl_image_read_gl(&img, gl, W, H));
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const uint8_t *p = fxgl_image_at(&img, x, y);
            ck_assert_int_eq(p[0], unorm8(0.25));
            ck_assert_int_eq(p[1], unorm8(0.5));
            ck_assert_int_eq(p[2], unorm8(0.75));
            ck_assert_int_eq(p[3], 255);
        }
    }
    fxgl_image_free(&img);

    // 2. A draw whose colour depends on the fragment position.
    const char *header = api == FXGL_API_GL ? "#version 450 core\n"
                                            : "#version 320 es\nprecision highp float;\n";
    GLuint vs = compile(gl, GL_VERTEX_SHADER, header, vs_body);
    GLuint fs = compile(gl, GL_FRAGMENT_SHADER, header, fs_body);
    GLuint prog = gl->CreateProgram();
    gl->AttachShader(prog, vs);
    gl->AttachShader(prog, fs);
    gl->LinkProgram(prog);
    GLint linked = 0;
    gl->GetProgramiv(prog, GL_LINK_STATUS, &linked);
    ck_assert(linked);
    gl->GenVertexArrays(1, &vao);
    gl->BindVertexArray(vao);
    gl->UseProgram(prog);
    gl->DrawArrays(GL_TRIANGLES, 0, 3);
    ck_assert(fxgl_image_read_gl(&img, gl, W, H));
    int worst = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            // Image row y (top first) is GL row H-1-y; fragment centres sit at +0.5.
            double fx = (x + 0.5) / 64.0, fy = ((H - 1 - y) + 0.5) / 32.0;
            const uint8_t *p = fxgl_image_at(&img, x, y);
            int d0 = abs(p[0] - unorm8(fx)), d1 = abs(p[1] - unorm8(fy));
            int d2 = abs(p[2] - unorm8(0.25));
            worst = d0 > worst ? d0 : worst;
            worst = d1 > worst ? d1 : worst;
            worst = d2 > worst ? d2 : worst;
            ck_assert_int_eq(p[3], 255);
        }
    }
    // One step of rounding slack: drivers may round the last bit differently.
    ck_assert_int_le(worst, 1);
    fxgl_image_free(&img);
    ck_assert_int_eq(gl->GetError(), GL_NO_ERROR);

    gl->DeleteProgram(prog);
    gl->DeleteShader(vs);
    gl->DeleteShader(fs);
    gl->DeleteVertexArrays(1, &vao);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    printf("smoke: %s %d.%d on %s (%s platform)\n", api == FXGL_API_GL ? "GL" : "GLES",
           info->major, info->minor, info->renderer, fxgl_test_egl_platform(egl));
    fxgl_test_egl_destroy(egl);
}

START_TEST(gl_core_renders) {
    render_and_check(FXGL_API_GL);
}
END_TEST

START_TEST(gles_renders) {
    render_and_check(FXGL_API_GLES);
}
END_TEST

int main(void) {
    if (!fxgl_test_egl_available(FXGL_API_GLES)) {
        return FXGL_TEST_SKIP;
    }

    Suite *s = suite_create("smoke_egl");
    TCase *tc = tcase_create("render");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gl_core_renders);
    tcase_add_test(tc, gles_renders);
    suite_add_tcase(s, tc);
    return fxgl_test_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
