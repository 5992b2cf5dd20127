/*
 * vendor.c - the GLX frame below glvnd: a wrapper around the vendor library.
 *
 * Why this exists. Another interposer preloaded before fxgl (MangoHud, with
 * or without its dlsym library) defines glXSwapBuffers first, so the program
 * calls it, and it calls the libGLX function it got from libGL's real
 * glXGetProcAddress - found through libc's dlsym by reading libc's symbol
 * table, never through a name we could interpose. None of our exported
 * hooks is reached. Every such path still ends in libGLX's dispatch, which
 * calls the vendor's glXSwapBuffers (libGLX_mesa.so.0, libGLX_nvidia.so.0).
 * libGLX got that function when it loaded the vendor, through the vendor's
 * __GLXapiImports.getProcAddress (glvnd's public vendor ABI, libglxabi.h).
 *
 * So: libGLX dlopens "libGLX_<vendor>.so.0" by name. We export dlopen (no
 * other known interposer does); for that one call from libGLX we open the
 * vendor ourselves and return a handle on libfxgl instead, whose exported
 * __glx_Main runs the vendor's own and then puts our getProcAddress into the
 * imports table it filled. Ours hands out the vendor's functions unchanged
 * except glXSwapBuffers and glXSwapBuffersMscOML, which it wraps: the wrapper
 * runs the frame (glx.c decides: only when our exported hook did not run it
 * on this thread) and calls the vendor's function. The vendor stays in
 * charge of everything else; libGLX keeps working with its dispatch.
 *
 * Every other dlopen is a tail call to libc's: libc reads the caller from the
 * return address (RUNPATH, $ORIGIN, namespace), which must stay the
 * program's. The handle swap only happens for libGLX's own vendor load.
 * Up to IP_MAX_VENDORS vendors per process (Mesa and NVIDIA with PRIME);
 * each has its own trampolines, because getProcAddress has no vendor
 * argument. FXGL_GLVND=0 or FXGL_DISABLE=1 leave the vendor alone.
 *
 * Not done for EGL: libEGL treats two vendors with the same handle as one
 * (libeglvendor.c), so one libfxgl handle cannot stand in for several.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "fxgl_interpose.h"

#if defined(HAVE_GLVND_LIBGLXABI_H) && !defined(IP_TEST_NO_EXPORTS)

#include <glvnd/libglxabi.h>

#define IP_MAX_VENDORS 4

typedef void (*swap_fn)(Display *, GLXDrawable);
typedef int64_t (*swap_msc_fn)(Display *, GLXDrawable, int64_t, int64_t, int64_t);
typedef void *(*vendor_gpa_fn)(const GLubyte *);

// One per vendor library: process-wide because libGLX loads each vendor once
// per process. Filled under libGLX's vendor lock (it holds it across dlopen,
// __glx_Main and the lookups), read at every swap; the pointers are written
// and read atomically because a swap on another thread may race a second
// vendor's load.
typedef struct vendor {
    void *handle;                // the vendor library, opened by us
    __PFNGLXMAINPROC main;       // its __glx_Main
    vendor_gpa_fn gpa;           // its getProcAddress
    swap_fn swap;                // its glXSwapBuffers
    swap_msc_fn swap_msc;        // its glXSwapBuffersMscOML
} vendor;

static vendor vendors[IP_MAX_VENDORS];
static pthread_mutex_t vendors_lock = PTHREAD_MUTEX_INITIALIZER;

// The vendor whose __glx_Main is due next on this thread: libGLX calls
// dlopen, dlsym and __glx_Main in a row on one thread.
static _Thread_local int pending = -1;

static void *load_ptr(void *const *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_ptr(void **p, void *v) {
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void vendor_swap(int i, Display *dpy, GLXDrawable drawable) {
    swap_fn swap = IP_FN(swap_fn, load_ptr((void *const *)&vendors[i].swap));
    ip_glx_vendor_swap(dpy, drawable);
    swap(dpy, drawable);
}

static int64_t vendor_swap_msc(int i, Display *dpy, GLXDrawable drawable, int64_t target,
                               int64_t divisor, int64_t remainder) {
    swap_msc_fn swap = IP_FN(swap_msc_fn, load_ptr((void *const *)&vendors[i].swap_msc));
    ip_glx_vendor_swap(dpy, drawable);
    return swap(dpy, drawable, target, divisor, remainder);
}

static void *vendor_gpa(int i, const GLubyte *name, void *swap_hook, void *swap_msc_hook) {
    vendor_gpa_fn gpa = IP_FN(vendor_gpa_fn, load_ptr((void *const *)&vendors[i].gpa));
    void *p = gpa(name);
    // Only names the vendor has: a probe behaves as without fxgl.
    if (!p || strncmp((const char *)name, "glXSwapBuffers", 14) != 0) {
        return p;
    }
    if (strcmp((const char *)name, "glXSwapBuffers") == 0) {
        store_ptr((void **)&vendors[i].swap, p);
        return swap_hook;
    }
    if (strcmp((const char *)name, "glXSwapBuffersMscOML") == 0) {
        store_ptr((void **)&vendors[i].swap_msc, p);
        return swap_msc_hook;
    }
    return p;
}

// The trampolines of one vendor slot.
#define IP_VENDOR_SLOT(i)                                                                 \
    static void slot_swap_##i(Display *dpy, GLXDrawable drawable) {                       \
        vendor_swap(i, dpy, drawable);                                                    \
    }                                                                                     \
    static int64_t slot_swap_msc_##i(Display *dpy, GLXDrawable drawable, int64_t t,       \
                                     int64_t d, int64_t r) {                              \
        return vendor_swap_msc(i, dpy, drawable, t, d, r);                                \
    }                                                                                     \
    static void *slot_gpa_##i(const GLubyte *name) {                                      \
        return vendor_gpa(i, name, IP_PTR(slot_swap_##i), IP_PTR(slot_swap_msc_##i));     \
    }
IP_VENDOR_SLOT(0)
IP_VENDOR_SLOT(1)
IP_VENDOR_SLOT(2)
IP_VENDOR_SLOT(3)
#undef IP_VENDOR_SLOT

static const vendor_gpa_fn slot_gpa[IP_MAX_VENDORS] = {slot_gpa_0, slot_gpa_1, slot_gpa_2,
                                                       slot_gpa_3};

// True for libGLX loading a vendor: "libGLX_<name>.so..." from libGLX.so.
static bool is_vendor_load(const char *file, const void *caller) {
    if (!file) {
        return false;
    }
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (strncmp(base, "libGLX_", 7) != 0 || !strstr(base, ".so")) {
        return false;
    }
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname) {
        return false;
    }
    const char *who = strrchr(info.dli_fname, '/');
    who = who ? who + 1 : info.dli_fname;
    if (strncmp(who, "libGLX.so", 9) != 0) {
        return false;
    }
    const ip_config *cfg = ip_config_get();
    return cfg->glvnd_hook && !cfg->disabled;
}

// A handle on libfxgl itself: dlsym on it finds our __glx_Main.
static void *self_handle(ip_dlopen_fn real) {
    Dl_info info;
    if (!dladdr(IP_PTR(self_handle), &info) || !info.dli_fname) {
        return NULL;
    }
    return real(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

static void *vendor_dlopen(ip_dlopen_fn real, const char *file, int flags) {
    void *handle = real(file, flags);
    if (!handle) {
        return NULL;
    }
    void *main = ip_real_libc_dlsym(handle, "__glx_Main");
    void *self = main ? self_handle(real) : NULL;
    if (!self) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "cannot wrap GLX vendor %s: swaps that bypass fxgl's "
                      "exported hooks are not seen", file);
        return handle;
    }
    pthread_mutex_lock(&vendors_lock);
    int slot = -1;
    for (int i = 0; i < IP_MAX_VENDORS && slot < 0; i++) {
        // A vendor loaded under two names ("mesa", "indirect") is one object.
        if (!vendors[i].handle || vendors[i].handle == handle) {
            slot = i;
        }
    }
    if (slot >= 0 && !vendors[slot].handle) {
        vendors[slot].handle = handle;
        vendors[slot].main = IP_FN(__PFNGLXMAINPROC, main);
    }
    pthread_mutex_unlock(&vendors_lock);
    if (slot < 0) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "more than %d GLX vendors: %s is not wrapped",
                      IP_MAX_VENDORS, file);
        dlclose(self);
        return handle;
    }
    // Our reference to the vendor stays (libGLX closes ours at exit).
    pending = slot;
    fxgl_log(FXGL_LOG_DEBUG, "GLX vendor %s wrapped (slot %d)", file, slot);
    return self;
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int flags) {
    ip_dlopen_fn real = ip_real_libc_dlopen();
    if (!real) {
        return NULL;
    }
    if (!is_vendor_load(file, __builtin_return_address(0))) {
        // A tail call: libc must see the program's return address.
        return real(file, flags);
    }
    return vendor_dlopen(real, file, flags);
}

__attribute__((visibility("default"))) Bool __glx_Main(uint32_t version,
                                                       const __GLXapiExports *exports,
                                                       __GLXvendorInfo *vendor_info,
                                                       __GLXapiImports *imports) {
    int slot = pending;
    pending = -1;
    if (slot < 0) {
        // Somebody looked __glx_Main up on our handle without a vendor load.
        fxgl_log(FXGL_LOG_WARN, "__glx_Main called outside a GLX vendor load: refused");
        return False;
    }
    vendor *v = &vendors[slot];
    if (!v->main(version, exports, vendor_info, imports)) {
        return False;
    }
    if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION ||
        !imports->getProcAddress) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "GLX vendor ABI %u.%u (fxgl knows %u.x): vendor not wrapped",
                      (unsigned)GLX_VENDOR_ABI_GET_MAJOR_VERSION(version),
                      (unsigned)GLX_VENDOR_ABI_GET_MINOR_VERSION(version),
                      (unsigned)GLX_VENDOR_ABI_MAJOR_VERSION);
        return True;
    }
    if (imports->getProcAddress != slot_gpa[slot]) {
        store_ptr((void **)&v->gpa, IP_PTR(imports->getProcAddress));
        imports->getProcAddress = slot_gpa[slot];
    }
    return True;
}

#endif
