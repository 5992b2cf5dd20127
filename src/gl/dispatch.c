/*
 * dispatch.c - fills a glad dispatch table for the current context and
 * describes the context.
 *
 * The API is read from GL_VERSION before anything else is loaded: GLES
 * versions start with "OpenGL ES" (libepoxy asks the same way, because some
 * drivers misreport the EGL client API). Extensions are then matched as
 * whole words from glGetStringi, which cannot be fooled by a prefix.
 */
#include <stdio.h>
#include <string.h>

#include <glad/gl.h>

#include "fxgl_gl.h"

typedef struct loader_thunk {
    fxgl_gl_proc_loader load;    // the caller's loader
    void *user;                  // its argument
} loader_thunk;

static GLADapiproc thunk_load(void *userptr, const char *name) {
    loader_thunk *t = userptr;
    void *p = t->load(t->user, name);
    GLADapiproc f;
    // Object and function pointers have one size on every platform GL runs on.
    memcpy(&f, &p, sizeof(f));
    return f;
}

static bool has_extension(struct GladGLContext *gl, const char *name) {
    GLint n = 0;
    gl->GetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)gl->GetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && strcmp(e, name) == 0) {
            return true;
        }
    }
    return false;
}

static void copy_string(char *dst, size_t size, const GLubyte *src) {
    snprintf(dst, size, "%s", src ? (const char *)src : "");
}

bool fxgl_gl_load(struct GladGLContext *gl, fxgl_gl_info *info, fxgl_gl_proc_loader load,
                  void *user, char *reason, size_t reason_size) {
    memset(info, 0, sizeof(*info));
    memset(gl, 0, sizeof(*gl));
    loader_thunk thunk = {.load = load, .user = user};

    PFNGLGETSTRINGPROC get_string = (PFNGLGETSTRINGPROC)thunk_load(&thunk, "glGetString");
    if (!get_string) {
        snprintf(reason, reason_size, "glGetString is not available");
        return false;
    }
    const char *version = (const char *)get_string(GL_VERSION);
    if (!version) {
        snprintf(reason, reason_size, "GL_VERSION is NULL (no current context?)");
        return false;
    }
    bool es = strncmp(version, "OpenGL ES", 9) == 0;
    int loaded = es ? gladLoadGLES2ContextUserPtr(gl, thunk_load, &thunk)
                    : gladLoadGLContextUserPtr(gl, thunk_load, &thunk);
    if (!loaded) {
        snprintf(reason, reason_size, "glad could not load the %s entry points (GL_VERSION '%s')",
                 es ? "GLES" : "GL", version);
        return false;
    }

    info->api = es ? FXGL_API_GLES : FXGL_API_GL;
    info->major = GLAD_VERSION_MAJOR(loaded);
    info->minor = GLAD_VERSION_MINOR(loaded);
    copy_string(info->version, sizeof(info->version), gl->GetString(GL_VERSION));
    copy_string(info->renderer, sizeof(info->renderer), gl->GetString(GL_RENDERER));
    if (es) {
        info->meets_minimum = info->major > FXGL_GLES_MIN_MAJOR ||
                              (info->major == FXGL_GLES_MIN_MAJOR &&
                               info->minor >= FXGL_GLES_MIN_MINOR);
        info->glsl_version = info->major * 100 + info->minor * 10;
        info->has_compute = info->major > 3 || (info->major == 3 && info->minor >= 1);
        info->has_timer_query = has_extension(gl, "GL_EXT_disjoint_timer_query");
        info->has_clip_control = has_extension(gl, "GL_EXT_clip_control");
        info->has_image_formats = has_extension(gl, "GL_NV_image_formats");
        info->has_debug = (info->major == 3 && info->minor >= 2) ||
                          has_extension(gl, "GL_KHR_debug");
    } else {
        info->meets_minimum = info->major > FXGL_GL_MIN_MAJOR ||
                              (info->major == FXGL_GL_MIN_MAJOR &&
                               info->minor >= FXGL_GL_MIN_MINOR);
        if (info->major >= 3 && (info->major > 3 || info->minor >= 2)) {
            GLint mask = 0;
            gl->GetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
            info->core_profile = (mask & GL_CONTEXT_CORE_PROFILE_BIT) != 0;
        }
        // GLSL versions track GL versions from 3.3 on (3.3 -> 330, 4.5 -> 450).
        info->glsl_version = info->major * 100 + info->minor * 10;
        info->has_compute = info->major > 4 || (info->major == 4 && info->minor >= 3) ||
                            has_extension(gl, "GL_ARB_compute_shader");
        info->has_timer_query = info->major > 3 || (info->major == 3 && info->minor >= 3);
        info->has_clip_control = info->major > 4 || (info->major == 4 && info->minor >= 5) ||
                                 has_extension(gl, "GL_ARB_clip_control");
        info->has_debug = info->major > 4 || (info->major == 4 && info->minor >= 3) ||
                          has_extension(gl, "GL_KHR_debug");
    }
    info->has_anisotropy = (!es && (info->major > 4 || (info->major == 4 && info->minor >= 6))) ||
                           has_extension(gl, "GL_ARB_texture_filter_anisotropic") ||
                           has_extension(gl, "GL_EXT_texture_filter_anisotropic");
    info->is_software = strstr(info->renderer, "llvmpipe") || strstr(info->renderer, "softpipe") ||
                        strstr(info->renderer, "swrast") || strstr(info->renderer, "lavapipe");
    reason[0] = '\0';
    return true;
}
