/*
 * gl_inspect.h - internals of the inspection layer, shared by
 * inspect.c (object, frame wrapper, commands), dump.c, visualise.c,
 * hud.c, font.c and screenshot.c.
 *
 * The layer reads the runtime's records (gl_runtime.h) but never writes
 * them: what it changes goes through the public calls. Its own GL objects
 * are drawn inside a capture of its own (gl_state), sized to what it
 * touches, so the application's state survives exactly as with the runtime.
 */
#ifndef GL_INSPECT_H
#define GL_INSPECT_H

#include <pthread.h>

#include "gl_runtime.h"

#define GL_IN_TEXT_COLS 72       // overlay text grid
#define GL_IN_TEXT_ROWS 40
#define GL_IN_GLYPH_W 6          // 5x7 glyph + spacing
#define GL_IN_GLYPH_H 9
#define GL_IN_FONT_FIRST 32
#define GL_IN_FONT_COUNT 95      // ASCII 32..126
#define GL_IN_MAX_FAILED 32
#define GL_IN_OVERLAY_PERIOD 0.25 // seconds between text refreshes (a HUD's pace)

typedef enum gl_corner {
    GL_CORNER_TL,
    GL_CORNER_TR,
    GL_CORNER_BL,
    GL_CORNER_BR,
    GL_CORNER_FULL,
} gl_corner;

typedef struct gl_visualise {
    bool on;
    size_t effect;               // effect index
    size_t texture;              // index in its fx textures
    int mip;
    int slice;                   // 3D: the depth index shown
    float scale;                 // texels are divided by it (integer formats: 255 by default)
    char channels[5];            // subset of "rgba", in that order
    gl_corner corner;
    char spec[256];              // as given, for messages and the dump
} gl_visualise;

// Visualise's programs, one per kind of sampler (visualise.c).
typedef enum gl_vis_kind { GL_VIS_FLOAT, GL_VIS_INT, GL_VIS_UINT, GL_VIS_KINDS } gl_vis_kind;
typedef enum gl_vis_dim { GL_VIS_1D, GL_VIS_2D, GL_VIS_3D, GL_VIS_DIMS } gl_vis_dim;

typedef struct gl_vis_prog {
    GLuint program;              // 0: not compiled yet
    GLint lod, slice, rect, sel, bias, scale;
} gl_vis_prog;

// One screenshot readback in flight.
typedef struct gl_shot {
    bool busy;                   // pixels requested, not handed to the worker yet
    GLuint pbo;
    GLsync fence;
    int width, height;
    size_t pbo_size;
    char path[1024];
} gl_shot;

typedef struct gl_shot_job {
    struct gl_shot_job *next;
    uint8_t *pixels;             // owned, bottom row first
    int width, height;
    char path[1024];
    bool last;                   // with effects: becomes last_screenshot once written
} gl_shot_job;

struct fxgl_inspect {
    fxgl_runtime *rt;
    struct GladGLContext *gl;
    fxgl_inspect_desc desc;
    char *program;               // owned copies of desc strings
    char *shot_dir;
    char *initial_visualise;
    char preset[256];
    gl_state st;                 // own capture: what visualise/overlay/readback touch
    bool es;

    // effects that never reached the runtime
    struct {
        char file[128];
        char diagnostic[512];
    } failed[GL_IN_MAX_FAILED];
    int failed_count;

    // control
    bool bypass;                 // "disable all": runtime frames skipped
    uint8_t *ran;                // per order position: ran in the last frame
    uint64_t *runs_before;       // frames_run snapshot taken before the frame
    size_t track_cap;
    bool *control_off;           // per order position: disabled by a command
    size_t control_cap;

    // frame figures
    uint64_t frames;
    double last_time;
    gl_avg frame_ms;             // presented-frame interval
    gl_avg runtime_cpu_ms;       // fxgl_runtime_frame wall time
    gl_avg inspect_cpu_ms;       // this layer's own CPU time per frame
    bool last_ran_runtime;
    bool last_screenshot_frame;
    int width, height;
    GLuint vao;
    GLuint sampler;              // NEAREST, for texelFetch completeness

    // visualise
    gl_visualise vis;
    gl_vis_prog vis_prog[GL_VIS_KINDS][GL_VIS_DIMS];
    bool vis_warned;

    // overlay
    bool overlay;
    GLuint ov_program;
    GLint ov_rect, ov_scale;
    GLuint font_tex;             // R8 atlas, glyphs side by side, top row first
    GLuint text_tex;             // R8UI grid of character codes
    uint8_t text[GL_IN_TEXT_ROWS][GL_IN_TEXT_COLS];
    int text_rows, text_cols;    // used part
    double text_time;            // when the text was last refreshed
    bool text_dirty;
    GLuint timer_query[2][2];    // the overlay's own GPU time: {start, end}, ring of 2
    bool timer_pending[2];
    gl_avg overlay_gpu_ms;
    gl_avg overlay_cpu_ms;
    struct fxgl_ui *ui;          // the editing overlay's list (ui.c), NULL until first asked for

    // screenshots
    gl_shot shot_with, shot_without;
    GLuint resolve_fbo, resolve_rb; // multisampled frames are resolved here before reading
    int resolve_w, resolve_h;
    bool want_shot, want_without;
    pthread_t worker;
    bool worker_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    gl_shot_job *jobs;           // queue (under lock)
    int jobs_busy;               // queued + being encoded
    bool quit;
    char last_shot[1024];        // under lock
};

void gl_in_log(fxgl_inspect *in, fxgl_gl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
// Compiles vertex + fragment source bodies with the right #version header.
GLuint gl_in_program(fxgl_inspect *in, const char *vs, const char *fs, const char *what);
extern const char gl_in_fullscreen_vs[];

// visualise.c
bool gl_vis_parse(fxgl_inspect *in, const char *spec, gl_visualise *out, char *reason,
                  size_t size);
void gl_vis_draw(fxgl_inspect *in, const fxgl_frame_desc *f);
void gl_vis_release(fxgl_inspect *in);

// hud.c, font.c
extern const char *const gl_in_font[GL_IN_FONT_COUNT];
void gl_ov_draw(fxgl_inspect *in, const fxgl_frame_desc *f);
void gl_ov_release(fxgl_inspect *in);

// ui.c: the editing overlay's list, drawn when one was ended since the last frame.
bool gl_ui_pending(const fxgl_inspect *in);
void gl_ui_closed_frame(fxgl_inspect *in);
void gl_ui_draw(fxgl_inspect *in, const fxgl_frame_desc *f);
void gl_ui_release(fxgl_inspect *in, bool gl); // its GL objects (gl: context current), memory

// screenshot.c
void gl_shot_read(fxgl_inspect *in, gl_shot *s, const fxgl_frame_desc *f, const char *suffix);
void gl_shot_collect(fxgl_inspect *in, bool wait);
void gl_shot_release(fxgl_inspect *in);
// Ends the encoder thread (the queue is written first); no GL call.
void gl_shot_stop(fxgl_inspect *in);

// dump.c
const char *gl_in_skip_reason(fxgl_inspect *in, size_t order, char *buf, size_t size);

#endif // GL_INSPECT_H
