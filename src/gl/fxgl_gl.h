/*
 * fxgl_gl.h - the public face of the GL runtime (src/gl).
 *
 * src/gl turns effect modules into GL objects and runs them inside whatever
 * GL or GLES context it is given. It reaches GL only through a glad context
 * (glad's multi-context mode) filled from the caller's GetProcAddress, so it
 * never links libGL and never calls a hooked entry point by accident.
 *
 * This first part loads the dispatch table and describes the context: API,
 * version, profile, and whether it meets the runtime's minimum.
 */
#ifndef FXGL_GL_H
#define FXGL_GL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct GladGLContext; // glad's dispatch table (generated into the build tree)

typedef enum fxgl_api {
    FXGL_API_GL,                 // desktop OpenGL
    FXGL_API_GLES,               // OpenGL ES
} fxgl_api;

// Minimum versions: compute shaders need GL 4.3; ES 3.0 runs pixel passes.
#define FXGL_GL_MIN_MAJOR 4
#define FXGL_GL_MIN_MINOR 3
#define FXGL_GLES_MIN_MAJOR 3
#define FXGL_GLES_MIN_MINOR 0

typedef struct fxgl_gl_info {
    fxgl_api api;                // what the context is
    int major;                   // context version
    int minor;
    bool core_profile;           // desktop: core profile (false: compatibility)
    bool meets_minimum;          // false: the runtime passes frames through untouched
    int glsl_version;            // e.g. 450 or 320 (ES), from the version numbers
    bool has_debug;              // KHR_debug (groups and labels)
    bool has_timer_query;        // GL 3.3 core, or EXT_disjoint_timer_query on ES
    bool has_clip_control;       // GL 4.5 / ARB_clip_control / EXT_clip_control
    bool has_compute;            // GL 4.3 / ES 3.1
    bool has_anisotropy;         // ARB/EXT_texture_filter_anisotropic
    bool is_software;            // llvmpipe/softpipe/swrast: timings are not GPU figures
    char renderer[128];          // GL_RENDERER, truncated
    char version[128];           // GL_VERSION, truncated
} fxgl_gl_info;

// Where GL entry points come from: the real glXGetProcAddress or
// eglGetProcAddress (or dlsym of a loaded libGL), never a hook.
typedef void *(*fxgl_gl_proc_loader)(void *user, const char *name);

// Fills gl for the context current on this thread and describes it in info.
// The API is asked from the context (GL_VERSION), not assumed. Returns false
// with reason filled when the context is unusable (no GL_VERSION, load failed).
bool fxgl_gl_load(struct GladGLContext *gl, fxgl_gl_info *info, fxgl_gl_proc_loader load,
                  void *user, char *reason, size_t reason_size);

// --- input ---
//
// What the host's input looked like at the start of a frame, for toggle keys
// and the key/mouse special uniforms. src/interpose fills it (X11 through a
// private display connection, Wayland through the program's own display);
// tests fill it by hand. Keys are Windows virtual-key codes, as presets and
// `keycode` annotations write them.

#define FXGL_INPUT_KEYS 256
#define FXGL_INPUT_BUTTONS 5         // left, right, middle, X1, X2 (the reference's order)

typedef struct fxgl_input {
    uint8_t key_down[FXGL_INPUT_KEYS];     // 1 while held
    uint8_t key_pressed[FXGL_INPUT_KEYS];  // 1 in the first frame it is seen down
    uint8_t key_released[FXGL_INPUT_KEYS]; // 1 in the first frame it is seen up again
    uint8_t button_down[FXGL_INPUT_BUTTONS];
    uint8_t button_pressed[FXGL_INPUT_BUTTONS];
    uint8_t button_released[FXGL_INPUT_BUTTONS];
    float mouse_x, mouse_y;      // pixels from the drawable's top-left corner
    float mouse_dx, mouse_dy;    // pixels moved since the previous frame
    float wheel_delta;           // wheel steps since the previous frame (up positive)
    bool has_focus;              // the drawable has keyboard focus
} fxgl_input;

#ifdef __cplusplus
}
#endif

#endif // FXGL_GL_H
