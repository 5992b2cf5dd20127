/*
 * fxgl_test.h - the test harness: headless GL contexts, Xvfb, images.
 *
 * Every helper that cannot get what it needs (no EGL driver, no display,
 * no Xvfb) returns failure with a reason; tests then skip with exit code 77
 * and print that reason, never hang.
 */
#ifndef FXGL_TEST_H
#define FXGL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_gl.h"

struct GladGLContext;

// Exit code that automake's harness reports as SKIP.
#define FXGL_TEST_SKIP 77

// --- headless EGL contexts ---

typedef struct fxgl_test_egl fxgl_test_egl;

typedef struct fxgl_test_egl_desc {
    fxgl_api api;                // FXGL_API_GL (core profile) or FXGL_API_GLES
    int major;                   // requested version; 0 means 4.5 (GL) or 3.2 (GLES)
    int minor;
    bool compatibility;          // GL only: ask for a compatibility profile
    bool debug;                  // ask for a debug context
    const char *platform;        // "device" or "surfaceless"; NULL: as documented below
    bool keep_display;           // destroy leaves the display initialised: for a second
                                 // context on the display another fxgl_test_egl uses
    const struct fxgl_test_egl *share; // join this context's share group (same platform;
                                 // both keep_display)
} fxgl_test_egl_desc;

// Creates a context without any window or surface and makes it current.
// Platform: $FXGL_TEST_EGL_PLATFORM ("device" or "surfaceless") if set;
// otherwise the EGL device platform on a hardware device when one exists
// (NVIDIA offers no other headless route), else Mesa's surfaceless platform.
// NULL with reason filled when no such context can be had.
fxgl_test_egl *fxgl_test_egl_create(const fxgl_test_egl_desc *desc, char *reason,
                                    size_t reason_size);
void fxgl_test_egl_destroy(fxgl_test_egl *egl);
// A second context on base's display sharing base's objects (same config and version),
// for a worker thread; base stays current. Destroy it before base.
fxgl_test_egl *fxgl_test_egl_create_shared(fxgl_test_egl *base, char *reason,
                                           size_t reason_size);
// Makes the context current on the calling thread / releases it from the calling thread
// (a context must not stay current on a thread that exits).
bool fxgl_test_egl_make_current(fxgl_test_egl *egl);
void fxgl_test_egl_release(fxgl_test_egl *egl);
struct GladGLContext *fxgl_test_egl_gl(fxgl_test_egl *egl);
const fxgl_gl_info *fxgl_test_egl_info(const fxgl_test_egl *egl);
const char *fxgl_test_egl_platform(const fxgl_test_egl *egl); // "device" or "surfaceless"
// eglGetProcAddress of the context's display, for code that loads its own table.
void *fxgl_test_egl_proc(void *user, const char *name);

// --- what the GL tests share (helpers.c) ---

// The skip rule: true when a headless context of api can be made here; otherwise prints
// "SKIP: no headless GL|GLES context: <reason>" and false (main returns FXGL_TEST_SKIP).
bool fxgl_test_egl_available(fxgl_api api);

struct Suite;
// Runs s (check's normal output) and frees the runner; the number of failed tests.
int fxgl_test_run_suite(struct Suite *s);

// Compiles source as a host does for a width x height back buffer: the predefined macros,
// GLSL 4.50 (es: GLSL ES 3.20). NULL on errors, which go to stderr.
fxgl_effect *fxgl_test_compile(const char *path, const char *source, int width, int height,
                               bool es);

// For test effects: the fullscreen triangle's vertex shader (what ReShade.fxh's
// PostProcessVS does, written here), and the same after COLOR and its sampler.
#define FXGL_TEST_FX_FULLSCREEN_VS                                                          \
    "void VS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n" \
    "{\n"                                                                                    \
    "    uv.x = (id == 2) ? 2.0 : 0.0;\n"                                                    \
    "    uv.y = (id == 1) ? 2.0 : 0.0;\n"                                                    \
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"              \
    "}\n"
#define FXGL_TEST_FX_COMMON                                                                 \
    "texture BackBufferTex : COLOR;\n"                                                      \
    "sampler BackBuffer { Texture = BackBufferTex; };\n" FXGL_TEST_FX_FULLSCREEN_VS

// Keeps the GL driver libraries the process has loaded (Mesa's *_dri.so,
// libgallium, the vendor EGL/GLX libraries) mapped until exit. Drivers
// dlclose themselves on eglTerminate/XCloseDisplay; LeakSanitizer then sees
// their process-lifetime allocations as "<unknown module>", which no
// suppression can name. Pinned, they are attributed and suppressed by
// library name (tests/lsan.supp), while leaks in fxgl stay visible.
void fxgl_test_pin_drivers(void);

// --- Xvfb ---

typedef struct fxgl_test_xvfb {
    int pid;                     // Xvfb's process id, 0 when not running
    int display;                 // display number (DISPLAY=:N)
    char display_name[32];       // ":N"
} fxgl_test_xvfb;

// Starts Xvfb on a free display (it picks one and reports it through
// -displayfd), waits up to timeout_ms for it, and sets DISPLAY. False with
// reason when Xvfb is missing or does not come up in time.
bool fxgl_test_xvfb_start(fxgl_test_xvfb *x, int width, int height, int timeout_ms,
                          char *reason, size_t reason_size);
void fxgl_test_xvfb_stop(fxgl_test_xvfb *x);

// --- images (RGBA8, rows top to bottom) ---

typedef struct fxgl_image {
    int width;
    int height;
    uint8_t *pixels;             // owned; width * height * 4 bytes
} fxgl_image;

bool fxgl_image_alloc(fxgl_image *img, int width, int height);
void fxgl_image_free(fxgl_image *img);
bool fxgl_image_load_png(fxgl_image *img, const char *path);
bool fxgl_image_save_png(const fxgl_image *img, const char *path);
// Reads the bound read framebuffer (GL rows bottom to top) into img, flipping
// to top-to-bottom order.
bool fxgl_image_read_gl(fxgl_image *img, struct GladGLContext *gl, int width, int height);

typedef struct fxgl_image_diff {
    int max_diff;                // largest absolute channel difference
    size_t pixels_over;          // pixels with any channel over the tolerance
    int first_x;                 // first pixel over the tolerance, -1 if none
    int first_y;
} fxgl_image_diff;

// Compares two images channel by channel. Returns true when the sizes match
// and no channel differs by more than tolerance. diff may be NULL.
bool fxgl_image_compare(const fxgl_image *a, const fxgl_image *b, int tolerance,
                        fxgl_image_diff *diff);

static inline const uint8_t *fxgl_image_at(const fxgl_image *img, int x, int y) {
    return img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
}

#endif // FXGL_TEST_H
