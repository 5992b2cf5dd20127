/*
 * dlsym.c - the dlsym and dlvsym hooks, and the one {name, hook} table.
 *
 * Programs that dlopen GL themselves (GLFW 3.4: libGLX.so.0; SDL2; Wine,
 * which takes only glXGetProcAddressARB this way) never reach an exported
 * hook: they look the entry point up on their own handle. So for a name in
 * the table whose real lookup succeeded, on any handle, we return our hook
 * instead. The rules, each from a measured failure (reference §3, §8):
 *
 * - A hook is returned only when the real lookup succeeded, so probing for
 *   an entry point behaves as without fxgl.
 * - Hooks are static functions, handed out by address: no other preloaded
 *   library can interpose them, in either preload order.
 * - RTLD_NEXT means "after the caller", and glibc finds the caller from its
 *   return address - which would be ours. So an RTLD_NEXT lookup is a tail
 *   call to libc's dlsym: the return address libc sees is the caller's, and
 *   the answer is exactly glibc's. Nothing is substituted there: another
 *   interposer asking for its next function must get it, or interposers call
 *   each other forever. (A link-map walk with dlopen(RTLD_NOLOAD) handles,
 *   tried before, ran other objects' constructors out of order when an
 *   interposer asked from a constructor.)
 * - Lookups made by GL libraries themselves (glvnd, drivers) get the real
 *   function, so their own dispatch never loops through us.
 * - dlerror(): the host's lookup is the last dl call we make, so dlerror()
 *   reports what it would without fxgl.
 * FXGL_DLSYM=0 turns the substitution off; RTLD_NEXT is still resolved for
 * the caller, because the exported dlsym is there either way.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "fxgl_interpose.h"

IP_NO_ASAN void *ip_dlsym_hook_for(const char *name) {
    // A cheap first test for the thousands of other lookups a program makes:
    // every hooked name starts with "glX", "egl" or "X" (x11.c).
    const ip_hook *table, *more = NULL;
    if (name[0] == 'g' && name[1] == 'l' && name[2] == 'X') {
        table = ip_glx_hooks;
        more = ip_x11_hooks;
    } else if (name[0] == 'e' && name[1] == 'g' && name[2] == 'l') {
        table = ip_egl_hooks;
    } else if (name[0] == 'X') {
        table = ip_x11_hooks;
    } else {
        return NULL;
    }
    for (; table; table = more, more = NULL) {
        for (const ip_hook *h = table; h->name; h++) {
            if (strcmp(h->name, name) == 0) {
                return h->hook;
            }
        }
    }
    return NULL;
}

IP_NO_ASAN void *ip_dlsym_substitute(const char *name, void *real, const void *caller) {
    if (!real || !name) {
        return real;
    }
    void *hook = ip_dlsym_hook_for(name);
    bool draw = false, depth = false;
    if (!hook) { // the host's draws, with FXGL_COUNT_APP_DRAWS=1 or FXGL_DEPTH=fbo (draws.c)
        hook = ip_draws_hook_for(name);
        draw = hook != NULL;
    }
    if (!hook) { // its framebuffers and clears, with FXGL_DEPTH=fbo only (depth.c)
        hook = ip_depth_hook_for(name);
        depth = hook != NULL;
    }
    if (!hook || hook == real) {
        return real;
    }
    if (!ip_config_get()->dlsym_hook || ip_real_in_gl_library(caller)) {
        return real;
    }
    return draw ? ip_draws_bind(name, real) : depth ? ip_depth_bind(name, real) : hook;
}

#ifndef IP_TEST_NO_EXPORTS // see fxgl_interpose.h

IP_NO_ASAN __attribute__((visibility("default"))) void *dlsym(void *restrict handle,
                                                   const char *restrict name) {
    if (handle == RTLD_NEXT) {
        // A tail call: libc finds the caller from the return address, which
        // is then the program's own, and searches after it - exactly.
        return ip_real_libc_dlsym_fn()(handle, name);
    }
    const void *caller = __builtin_return_address(0);
    void *real = ip_real_dlsym(handle, name);
    return ip_dlsym_substitute(name, real, caller);
}

IP_NO_ASAN __attribute__((visibility("default"))) void *dlvsym(void *restrict handle,
                                                    const char *restrict name,
                                                    const char *restrict version) {
    if (handle == RTLD_NEXT) {
        return ip_real_libc_dlvsym_fn()(handle, name, version); // a tail call, as above
    }
    const void *caller = __builtin_return_address(0);
    void *real = ip_real_dlvsym(handle, name, version);
    return ip_dlsym_substitute(name, real, caller);
}
#endif
