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

#ifdef __cplusplus
}
#endif

#endif // FXGL_GL_H
