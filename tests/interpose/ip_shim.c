/*
 * ip_shim.c - a second interposer for the chaining tests, written the way
 * most are: it defines glXSwapBuffers and finds the next one with
 * dlsym(RTLD_NEXT). Preloaded together with a dlsym-hooking library, that
 * pattern recursed forever in both orders (reference §3.4).
 *
 * It counts the swaps that pass through it; when IP_SHIM_EXPECT is set and
 * the count differs at exit, the process exits 3, so the test driver sees
 * a swap lost or doubled through the exit status alone.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <GL/glx.h>

typedef void (*swap_fn)(Display *, GLXDrawable);

static int swaps;

__attribute__((visibility("default"))) void glXSwapBuffers(Display *dpy, GLXDrawable drawable) {
    static swap_fn next;
    if (!next) {
        next = (swap_fn)dlsym(RTLD_NEXT, "glXSwapBuffers");
    }
    swaps++;
    if (swaps > 1000) {
        fprintf(stderr, "ip_shim: more than 1000 swaps: recursion\n");
        _exit(4);
    }
    next(dpy, drawable);
}

__attribute__((destructor)) static void check_count(void) {
    const char *want = getenv("IP_SHIM_EXPECT");
    if (want && atoi(want) != swaps) {
        fprintf(stderr, "ip_shim: %d swaps, want %s\n", swaps, want);
        _exit(3);
    }
}
