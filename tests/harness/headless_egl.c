/*
 * headless_egl.c - headless GL and GLES contexts through EGL, for tests.
 *
 * No window, no surface: the context is made current with EGL_NO_SURFACE
 * (EGL_KHR_surfaceless_context) and tests render into their own FBOs. Two
 * platforms give such a display: the device platform (EGL_EXT_platform_device),
 * the only headless route on NVIDIA's driver, and Mesa's surfaceless platform,
 * which is what CI (llvmpipe) has. Mesa also lists a software "device"; it is
 * only picked when asked for, so the default on a machine without a GPU is the
 * surfaceless platform.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include "fxgl_test.h"

struct fxgl_test_egl {
    EGLDisplay display;          // owned (initialized here, terminated on destroy)
    EGLContext context;          // owned
    GladGLContext gl;            // dispatch table for the context
    fxgl_gl_info info;           // what the context turned out to be
    const char *platform;        // "device" or "surfaceless"
    bool keep_display;           // not terminated on destroy (fxgl_test_egl_desc)
    EGLConfig config;            // what the context was made with, for a shared one
    EGLint attribs[16];
};

static bool has_word(const char *list, const char *word) {
    size_t len = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)); p += len) {
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) {
            return true;
        }
    }
    return false;
}

static EGLDisplay open_device_display(bool allow_software) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    // NVIDIA's glvnd vendor advertises EGL_EXT_device_base, which is
    // device_enumeration and device_query together.
    if (!has_word(client, "EGL_EXT_platform_device") ||
        !(has_word(client, "EGL_EXT_device_enumeration") ||
          has_word(client, "EGL_EXT_device_base"))) {
        return EGL_NO_DISPLAY;
    }
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC query_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!query_devices || !query_string || !get_display) {
        return EGL_NO_DISPLAY;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count)) {
        return EGL_NO_DISPLAY;
    }
    for (EGLint i = 0; i < count; i++) {
        const char *ext = query_string(devices[i], EGL_EXTENSIONS);
        bool software = has_word(ext, "EGL_MESA_device_software");
        if (software && !allow_software) {
            continue;
        }
        EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL)) {
            return d;
        }
    }
    return EGL_NO_DISPLAY;
}

static EGLDisplay open_surfaceless_display(void) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_word(client, "EGL_MESA_platform_surfaceless")) {
        return EGL_NO_DISPLAY;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) {
        return EGL_NO_DISPLAY;
    }
    EGLDisplay d = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (d != EGL_NO_DISPLAY && eglInitialize(d, NULL, NULL)) {
        return d;
    }
    return EGL_NO_DISPLAY;
}

static int pin_one(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    if (name && name[0] &&
        (strstr(name, "_dri.so") || strstr(name, "libgallium") || strstr(name, "_mesa.so") ||
         strstr(name, "libglapi") || strstr(name, "libLLVM"))) {
        // RTLD_NOLOAD: only libraries already loaded; NODELETE: never unmapped.
        void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
        (void)h; // the reference is deliberately kept for the life of the process
    }
    return 0;
}

void fxgl_test_pin_drivers(void) {
    dl_iterate_phdr(pin_one, NULL);
}

void *fxgl_test_egl_proc(void *user, const char *name) {
    (void)user;
    void (*f)(void) = eglGetProcAddress(name);
    void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

fxgl_test_egl *fxgl_test_egl_create(const fxgl_test_egl_desc *desc, char *reason,
                                    size_t reason_size) {
    fxgl_test_egl *t = calloc(1, sizeof(*t));
    if (!t) {
        snprintf(reason, reason_size, "out of memory");
        return NULL;
    }
    const char *want = desc->platform ? desc->platform : getenv("FXGL_TEST_EGL_PLATFORM");
    t->display = EGL_NO_DISPLAY;
    if (want && strcmp(want, "device") == 0) {
        t->display = open_device_display(true);
        t->platform = "device";
    } else if (want && strcmp(want, "surfaceless") == 0) {
        t->display = open_surfaceless_display();
        t->platform = "surfaceless";
    } else {
        t->display = open_device_display(false);
        t->platform = "device";
        if (t->display == EGL_NO_DISPLAY) {
            t->display = open_surfaceless_display();
            t->platform = "surfaceless";
        }
    }
    if (t->display == EGL_NO_DISPLAY) {
        snprintf(reason, reason_size,
                 "no headless EGL display (device or surfaceless platform); is an EGL driver "
                 "installed (apt-get install libegl1-mesa libgl1-mesa-dri)?");
        free(t);
        return NULL;
    }
    if (!has_word(eglQueryString(t->display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
        snprintf(reason, reason_size, "EGL display lacks EGL_KHR_surfaceless_context");
        goto error_display;
    }

    bool gles = desc->api == FXGL_API_GLES;
    int major = desc->major ? desc->major : (gles ? 3 : 4);
    int minor = desc->major ? desc->minor : (gles ? 2 : 5);
    EGLint renderable = gles ? (major >= 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT)
                             : EGL_OPENGL_BIT;
    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, 0,
        EGL_RENDERABLE_TYPE, renderable,
        EGL_NONE,
    };
    EGLConfig config;
    EGLint nconfig = 0;
    if (!eglChooseConfig(t->display, config_attribs, &config, 1, &nconfig) || nconfig < 1) {
        // Some drivers only list configs with surface bits; take any that renders the API.
        const EGLint any_attribs[] = {EGL_RENDERABLE_TYPE, renderable, EGL_NONE};
        if (!eglChooseConfig(t->display, any_attribs, &config, 1, &nconfig) || nconfig < 1) {
            snprintf(reason, reason_size, "no EGL config renders %s", gles ? "GLES" : "GL");
            goto error_display;
        }
    }
    if (!eglBindAPI(gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        snprintf(reason, reason_size, "eglBindAPI(%s) failed", gles ? "GLES" : "GL");
        goto error_display;
    }
    EGLint attribs[16];
    int n = 0;
    attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
    attribs[n++] = major;
    attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
    attribs[n++] = minor;
    if (!gles) {
        attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attribs[n++] = desc->compatibility ? EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT
                                           : EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    }
    if (desc->debug) {
        attribs[n++] = EGL_CONTEXT_OPENGL_DEBUG;
        attribs[n++] = EGL_TRUE;
    }
    attribs[n++] = EGL_NONE;
    t->config = config;
    memcpy(t->attribs, attribs, sizeof(attribs));
    t->context = eglCreateContext(t->display, config,
                                  desc->share ? desc->share->context : EGL_NO_CONTEXT, attribs);
    if (t->context == EGL_NO_CONTEXT) {
        snprintf(reason, reason_size, "eglCreateContext(%s %d.%d%s) failed: 0x%x",
                 gles ? "GLES" : "GL", major, minor,
                 gles ? "" : (desc->compatibility ? " compatibility" : " core"), eglGetError());
        goto error_display;
    }
    if (!eglMakeCurrent(t->display, EGL_NO_SURFACE, EGL_NO_SURFACE, t->context)) {
        snprintf(reason, reason_size, "eglMakeCurrent without surface failed: 0x%x",
                 eglGetError());
        goto error_context;
    }
    if (!fxgl_gl_load(&t->gl, &t->info, fxgl_test_egl_proc, NULL, reason, reason_size)) {
        goto error_current;
    }
    fxgl_test_pin_drivers();
    t->keep_display = desc->keep_display;
    return t;

error_current:
    eglMakeCurrent(t->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
error_context:
    eglDestroyContext(t->display, t->context);
error_display:
    if (!desc->keep_display) {
        eglTerminate(t->display);
    }
    free(t);
    return NULL;
}

fxgl_test_egl *fxgl_test_egl_create_shared(fxgl_test_egl *base, char *reason,
                                           size_t reason_size) {
    reason[0] = '\0';
    fxgl_test_egl *t = calloc(1, sizeof(*t));
    if (!t) {
        snprintf(reason, reason_size, "out of memory");
        return NULL;
    }
    *t = *base;
    t->keep_display = true; // base's display: base terminates it
    t->context = eglCreateContext(base->display, base->config, base->context, base->attribs);
    if (t->context == EGL_NO_CONTEXT) {
        snprintf(reason, reason_size, "eglCreateContext sharing with another failed: 0x%x",
                 eglGetError());
        free(t);
        return NULL;
    }
    bool ok = fxgl_test_egl_make_current(t) &&
              fxgl_gl_load(&t->gl, &t->info, fxgl_test_egl_proc, NULL, reason, reason_size);
    if (!ok && !reason[0]) {
        snprintf(reason, reason_size, "eglMakeCurrent of the shared context failed");
    }
    fxgl_test_egl_make_current(base);
    if (!ok) {
        eglDestroyContext(t->display, t->context);
        free(t);
        return NULL;
    }
    return t;
}

bool fxgl_test_egl_make_current(fxgl_test_egl *t) {
    return eglMakeCurrent(t->display, EGL_NO_SURFACE, EGL_NO_SURFACE, t->context);
}

void fxgl_test_egl_release(fxgl_test_egl *t) {
    eglMakeCurrent(t->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglReleaseThread();
}

void fxgl_test_egl_destroy(fxgl_test_egl *t) {
    if (!t) {
        return;
    }
    eglMakeCurrent(t->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(t->display, t->context);
    if (!t->keep_display) {
        eglTerminate(t->display);
    }
    eglReleaseThread();
    free(t);
}

struct GladGLContext *fxgl_test_egl_gl(fxgl_test_egl *t) {
    return &t->gl;
}

const fxgl_gl_info *fxgl_test_egl_info(const fxgl_test_egl *t) {
    return &t->info;
}

const char *fxgl_test_egl_platform(const fxgl_test_egl *t) {
    return t->platform;
}
