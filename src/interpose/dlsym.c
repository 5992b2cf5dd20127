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
 *   return address - which would be ours. So RTLD_NEXT is resolved here for
 *   the caller: the first object after it in load order that defines the
 *   name itself. Nothing is substituted there: another interposer asking for
 *   its next function must get it, or interposers call each other forever.
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

void *ip_dlsym_hook_for(const char *name) {
    // Every hooked name starts with "glX" or "egl": a cheap first test for
    // the thousands of other lookups a program makes.
    const ip_hook *table;
    if (name[0] == 'g' && name[1] == 'l' && name[2] == 'X') {
        table = ip_glx_hooks;
    } else if (name[0] == 'e' && name[1] == 'g' && name[2] == 'l') {
        table = ip_egl_hooks;
    } else {
        return NULL;
    }
    for (const ip_hook *h = table; h->name; h++) {
        if (strcmp(h->name, name) == 0) {
            return h->hook;
        }
    }
    return NULL;
}

void *ip_dlsym_substitute(const char *name, void *real, const void *caller) {
    if (!real || !name) {
        return real;
    }
    void *hook = ip_dlsym_hook_for(name);
    if (!hook || hook == real) {
        return real;
    }
    if (!ip_config_get()->dlsym_hook || ip_real_in_gl_library(caller)) {
        return real;
    }
    return hook;
}

#ifndef IP_TEST_NO_EXPORTS // see fxgl_interpose.h

static void *lookup_in(void *handle, const char *name, const char *version) {
    return version ? ip_real_libc_dlvsym(handle, name, version)
                   : ip_real_libc_dlsym(handle, name);
}

// RTLD_NEXT for the caller: the objects after it in load order, each
// accepted only if it defines the name itself (a handle lookup also
// searches the object's dependencies, which may come before the caller).
static void *lookup_next(const void *caller, const char *name, const char *version) {
    Dl_info info;
    struct link_map *map = NULL;
    if (!dladdr1(caller, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
        return lookup_in(RTLD_NEXT, name, version);
    }
    struct link_map *last = map;
    bool last_failed = false;
    for (struct link_map *m = map->l_next; m; m = m->l_next) {
        last = m;
        void *p = lookup_in(m, name, version);
        last_failed = p == NULL;
        if (!p) {
            continue;
        }
        Dl_info where;
        struct link_map *owner = NULL;
        // dladdr fails for TLS symbols (a thread's address): accept those.
        if (!dladdr1(p, &where, (void **)&owner, RTLD_DL_LINKMAP) || owner == m) {
            return p;
        }
    }
    if (!last_failed) {
        // Leave dlerror() with "undefined symbol", as glibc would.
        (void)lookup_in(last, name, version);
    }
    return NULL;
}

__attribute__((visibility("default"))) void *dlsym(void *restrict handle,
                                                   const char *restrict name) {
    const void *caller = __builtin_return_address(0);
    if (handle == RTLD_NEXT) {
        return lookup_next(caller, name, NULL);
    }
    void *real = ip_real_dlsym(handle, name);
    return ip_dlsym_substitute(name, real, caller);
}

__attribute__((visibility("default"))) void *dlvsym(void *restrict handle,
                                                    const char *restrict name,
                                                    const char *restrict version) {
    const void *caller = __builtin_return_address(0);
    if (handle == RTLD_NEXT) {
        return lookup_next(caller, name, version);
    }
    void *real = ip_real_dlvsym(handle, name, version);
    return ip_dlsym_substitute(name, real, caller);
}
#endif
