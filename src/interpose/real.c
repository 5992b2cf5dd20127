/*
 * real.c - the real dl, GLX and EGL functions.
 *
 * fxgl exports dlsym and dlvsym, and the dynamic linker binds every call by
 * name - ours included - to the first definition in the global scope, which
 * is ours. So libc's own dlvsym is found by reading libc's dynamic symbol
 * table (dl_iterate_phdr, then DT_SYMTAB/DT_GNU_HASH/DT_VERSYM), taking the
 * default version. The next dlsym in the chain (another interposer's, or
 * libc's) is then dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"), or the arch's
 * base version before glibc 2.34 (__libc_dlsym is gone since 2.34).
 *
 * GLX and EGL functions come in two flavours. "Chain": the next definition
 * after fxgl (RTLD_NEXT), so an interposer preloaded after us still runs,
 * falling back to the library itself. "Terminal": from the library
 * (libGLX.so.0/libGL.so.1, libEGL.so.1) and its real GetProcAddress, used for
 * queries and to break cycles between interposers. Everything is resolved
 * lazily under pthread_once, never in a constructor: the first hook call
 * happens after the host has started, and dlopen from a constructor of a
 * preloaded object runs before the host's own setup.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_interpose.h"

typedef void *(*dlsym_fn)(void *, const char *);
typedef void *(*dlvsym_fn)(void *, const char *, const char *);
typedef void *(*gpa_fn)(const char *);

// Resolved once and never changed: globals because the whole process shares them.
static dlsym_fn libc_dlsym;
static dlvsym_fn libc_dlvsym;
static dlsym_fn next_dlsym;
static dlvsym_fn next_dlvsym;
static void *(*libc_dlopen)(const char *, int);
static pthread_once_t dl_once = PTHREAD_ONCE_INIT;

// The glibc version dlsym had before 2.34 moved it into libc, per arch.
#if defined(__x86_64__)
#define IP_GLIBC_BASE "GLIBC_2.2.5"
#elif defined(__i386__)
#define IP_GLIBC_BASE "GLIBC_2.0"
#elif defined(__aarch64__) || defined(__powerpc64__)
#define IP_GLIBC_BASE "GLIBC_2.17"
#elif defined(__arm__)
#define IP_GLIBC_BASE "GLIBC_2.4"
#elif defined(__riscv)
#define IP_GLIBC_BASE "GLIBC_2.27"
#else
#define IP_GLIBC_BASE "GLIBC_2.2"
#endif

// --- libc's symbol table ---

typedef struct elf_scan {
    const char *want;            // symbol name
    void *found;                 // its address (default version), or NULL
} elf_scan;

// Dynamic-section pointers are relocated in place by glibc on most arches,
// but not on all (read-only .dynamic): accept both.
IP_NO_ASAN static uintptr_t dyn_ptr(uintptr_t base, ElfW(Addr) p) {
    return p < base ? base + p : p;
}

// The number of symbols, which DT_GNU_HASH gives only by walking the chains.
IP_NO_ASAN static size_t gnu_hash_count(const uint32_t *h) {
    uint32_t nbuckets = h[0], symoffset = h[1], bloom = h[2];
    const uint32_t *buckets = h + 4 + bloom * (sizeof(ElfW(Addr)) / 4);
    const uint32_t *chains = buckets + nbuckets;
    uint32_t last = 0;
    for (uint32_t i = 0; i < nbuckets; i++) {
        if (buckets[i] > last) {
            last = buckets[i];
        }
    }
    if (last < symoffset) {
        return symoffset;
    }
    while (!(chains[last - symoffset] & 1)) {
        last++;
    }
    return (size_t)last + 1;
}

// strcmp and strncmp of our own: under ASan the libc ones are interceptors,
// not usable before its initialisation has found the real ones (this code
// runs during it, see IP_NO_ASAN).
IP_NO_ASAN static bool same_prefix(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            return false;
        }
        if (!a[i]) {
            return true;
        }
    }
    return true;
}

IP_NO_ASAN static bool same(const char *a, const char *b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

IP_NO_ASAN static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    elf_scan *scan = data;
    const char *base_name = info->dlpi_name;
    for (const char *c = info->dlpi_name; *c; c++) {
        if (*c == '/') {
            base_name = c + 1;
        }
    }
    if (!same_prefix(base_name, "libc.so", 7)) {
        return 0;
    }
    uintptr_t base = info->dlpi_addr;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) {
            dyn = (const ElfW(Dyn) *)(base + info->dlpi_phdr[i].p_vaddr);
        }
    }
    if (!dyn) {
        return 0;
    }
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Half) *versym = NULL;
    const uint32_t *gnu_hash = NULL, *sysv_hash = NULL;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        uintptr_t p = dyn_ptr(base, dyn->d_un.d_ptr);
        switch (dyn->d_tag) {
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)p; break;
        case DT_STRTAB: strtab = (const char *)p; break;
        case DT_VERSYM: versym = (const ElfW(Half) *)p; break;
        case DT_GNU_HASH: gnu_hash = (const uint32_t *)p; break;
        case DT_HASH: sysv_hash = (const uint32_t *)p; break;
        default: break;
        }
    }
    if (!symtab || !strtab || (!gnu_hash && !sysv_hash)) {
        return 0;
    }
    size_t count = sysv_hash ? sysv_hash[1] : gnu_hash_count(gnu_hash);
    for (size_t i = 0; i < count; i++) {
        const ElfW(Sym) *s = &symtab[i];
        if (s->st_shndx == SHN_UNDEF || ELF64_ST_TYPE(s->st_info) != STT_FUNC ||
            !same(strtab + s->st_name, scan->want)) {
            continue;
        }
        // Hidden (non-default) versions are compatibility symbols.
        if (versym && (versym[i] & 0x8000)) {
            continue;
        }
        scan->found = (void *)(base + s->st_value);
        return 1;
    }
    return 0;
}

IP_NO_ASAN static void *libc_symbol(const char *name) {
    elf_scan scan = {.want = name};
    dl_iterate_phdr(scan_object, &scan);
    return scan.found;
}

IP_NO_ASAN static void dl_setup(void) {
    libc_dlvsym = IP_FN(dlvsym_fn, libc_symbol("dlvsym"));
    libc_dlsym = IP_FN(dlsym_fn, libc_symbol("dlsym"));
    libc_dlopen = IP_FN(void *(*)(const char *, int), libc_symbol("dlopen"));
    if (libc_dlvsym) {
        // Called from here, RTLD_NEXT means "after fxgl".
        void *p = libc_dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        if (!p) {
            p = libc_dlvsym(RTLD_NEXT, "dlsym", IP_GLIBC_BASE);
        }
        next_dlsym = IP_FN(dlsym_fn, p);
        p = libc_dlvsym(RTLD_NEXT, "dlvsym", "GLIBC_2.34");
        if (!p) {
            p = libc_dlvsym(RTLD_NEXT, "dlvsym", IP_GLIBC_BASE);
        }
        next_dlvsym = IP_FN(dlvsym_fn, p);
    }
    if (!next_dlsym) {
        next_dlsym = libc_dlsym;
    }
    if (!next_dlvsym) {
        next_dlvsym = libc_dlvsym;
    }
    if (!libc_dlsym || !libc_dlvsym || !libc_dlopen) {
        fxgl_log(FXGL_LOG_ERROR, "cannot find libc's dlsym/dlvsym/dlopen: lookups will fail");
    }
}

// Stand-ins when libc's could not be found (logged once in dl_setup).
IP_NO_ASAN static void *null_dlsym(void *handle, const char *name) {
    (void)handle;
    (void)name;
    return NULL;
}

IP_NO_ASAN static void *null_dlvsym(void *handle, const char *name, const char *version) {
    (void)handle;
    (void)name;
    (void)version;
    return NULL;
}

void *ip_real_libc_dlsym(void *handle, const char *name) {
    pthread_once(&dl_once, dl_setup);
    return libc_dlsym ? libc_dlsym(handle, name) : NULL;
}

void *ip_real_libc_dlvsym(void *handle, const char *name, const char *version) {
    pthread_once(&dl_once, dl_setup);
    return libc_dlvsym ? libc_dlvsym(handle, name, version) : NULL;
}

IP_NO_ASAN ip_dlsym_fn ip_real_libc_dlsym_fn(void) {
    pthread_once(&dl_once, dl_setup);
    return libc_dlsym ? libc_dlsym : null_dlsym;
}

IP_NO_ASAN ip_dlvsym_fn ip_real_libc_dlvsym_fn(void) {
    pthread_once(&dl_once, dl_setup);
    return libc_dlvsym ? libc_dlvsym : null_dlvsym;
}

ip_dlopen_fn ip_real_libc_dlopen(void) {
    pthread_once(&dl_once, dl_setup);
    return libc_dlopen;
}

IP_NO_ASAN void *ip_real_dlsym(void *handle, const char *name) {
    pthread_once(&dl_once, dl_setup);
    return next_dlsym ? next_dlsym(handle, name) : NULL;
}

IP_NO_ASAN void *ip_real_dlvsym(void *handle, const char *name, const char *version) {
    pthread_once(&dl_once, dl_setup);
    return next_dlvsym ? next_dlvsym(handle, name, version) : NULL;
}

// --- GLX and EGL ---

typedef struct ip_api_lib {
    const char *const *sonames;  // tried in order
    const char *gpa_name;        // the library's GetProcAddress
    pthread_once_t once;
    void *handle;                // our reference to the library (never closed)
    gpa_fn gpa;                  // its real GetProcAddress
} ip_api_lib;

static const char *const glx_sonames[] = {"libGLX.so.0", "libGL.so.1", "libGL.so", NULL};
static const char *const egl_sonames[] = {"libEGL.so.1", "libEGL.so", NULL};

// Filled once each, under their pthread_once: process-wide library handles.
static ip_api_lib glx_lib = {glx_sonames, "glXGetProcAddressARB", PTHREAD_ONCE_INIT, NULL,
                             NULL};
static ip_api_lib egl_lib = {egl_sonames, "eglGetProcAddress", PTHREAD_ONCE_INIT, NULL, NULL};

static void api_setup(ip_api_lib *lib) {
    if (!ip_real_libc_dlopen()) {
        return;
    }
    // RTLD_NOLOAD first: the host has almost always loaded it already, and
    // then we only take a reference to the very same object.
    for (int pass = 0; pass < 2 && !lib->handle; pass++) {
        for (const char *const *so = lib->sonames; *so && !lib->handle; so++) {
            lib->handle = ip_real_libc_dlopen()(*so, RTLD_LAZY | RTLD_LOCAL | (pass == 0 ? RTLD_NOLOAD : 0));
        }
    }
    if (lib->handle) {
        lib->gpa = IP_FN(gpa_fn, ip_real_libc_dlsym(lib->handle, lib->gpa_name));
    }
    if (!lib->gpa) {
        fxgl_log(FXGL_LOG_WARN, "cannot load %s (%s): its hooks pass through", lib->sonames[0],
                 lib->gpa_name);
    }
}

static void glx_setup(void) {
    api_setup(&glx_lib);
}

static void egl_setup(void) {
    api_setup(&egl_lib);
}

static void *terminal(ip_api_lib *lib, void (*setup)(void), const char *name) {
    pthread_once(&lib->once, setup);
    void *p = lib->handle ? ip_real_libc_dlsym(lib->handle, name) : NULL;
    if (!p && lib->gpa) {
        p = lib->gpa(name);
    }
    return p;
}

static void *chain(ip_api_lib *lib, void (*setup)(void), const char *name) {
    void *p = ip_real_libc_dlsym(RTLD_NEXT, name);
    return p ? p : terminal(lib, setup, name);
}

void *ip_real_glx_chain(const char *name) {
    return chain(&glx_lib, glx_setup, name);
}

void *ip_real_glx_terminal(const char *name) {
    return terminal(&glx_lib, glx_setup, name);
}

void *ip_real_egl_chain(const char *name) {
    return chain(&egl_lib, egl_setup, name);
}

void *ip_real_egl_terminal(const char *name) {
    return terminal(&egl_lib, egl_setup, name);
}

void *ip_real_glx_gl_loader(void *user, const char *name) {
    (void)user;
    pthread_once(&glx_lib.once, glx_setup);
    return glx_lib.gpa ? glx_lib.gpa(name) : NULL;
}

void *ip_real_egl_gl_loader(void *user, const char *name) {
    (void)user;
    pthread_once(&egl_lib.once, egl_setup);
    return egl_lib.gpa ? egl_lib.gpa(name) : NULL;
}

bool ip_real_in_gl_library(const void *addr) {
    Dl_info info;
    if (!addr || !dladdr(addr, &info) || !info.dli_fname) {
        return false;
    }
    const char *name = strrchr(info.dli_fname, '/');
    name = name ? name + 1 : info.dli_fname;
    static const char *const prefixes[] = {
        "libGL.", "libGLX", "libEGL", "libGLdispatch", "libGLES", "libOpenGL", "libglapi",
        "libgallium", "libnvidia-", "libvulkan", "libwayland-egl",
    };
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) {
            return true;
        }
    }
    return strstr(name, "_dri.so") != NULL;
}
