/*
 * test_preload.c - libfxgl.so preloaded through the `fxgl` command into real
 * programs under a private Xvfb, with FXGL_TEST_MARK=1 (an 8x8 magenta
 * square in the top-left corner of every processed frame).
 *
 * Our own host programs (ip_glx_app, ip_glx_dlopen, ip_egl_app) check the
 * presented pixels and the GL state themselves (ip_app.h) and report through
 * their exit status; this driver runs them with the environment of each
 * case and a timeout. Programs nobody here wrote (glxgears, es2gears_x11,
 * with and without MangoHud) are read from outside: the driver finds their
 * window on the Xvfb root and samples it with XGetImage until the gears are
 * visible, then looks at the corner.
 *
 * Wayland clients (our ip_wl_app, glmark2-es2-wayland) run on a private
 * weston with the headless backend; its output is read back with weston's
 * screenshooter protocol (ip_wl_shot.c).
 *
 * Every child is killed after a timeout, so a hang (say, two interposers
 * recursing into each other) is a failure, never a stuck CI job.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "fxgl_test.h"
#include "ip_wl.h"

#ifdef IP_WINE_ONLY
// This build registers one case; the others are compiled and left unused.
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

#define CHILD_TIMEOUT_MS 120000 // past the programs' own 60 s warm-up bound (ip_app.h)
#define TIMED_OUT -1000

static fxgl_test_xvfb xvfb;
static char builddir[1024];
static char fxgl_cmd[1200];
static char library[1200];

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// Starts argv with the "NAME=value" (or "NAME=" to unset) assignments in env.
static pid_t spawn(char *const argv[], const char *const env[]) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        unsetenv("LD_PRELOAD");
        for (const char *const *e = env; e && *e; e++) {
            char name[128];
            const char *eq = strchr(*e, '=');
            snprintf(name, sizeof(name), "%.*s", (int)(eq - *e), *e);
            if (eq[1]) {
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(name);
            }
        }
        execvp(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

// The exit status, -signal, or TIMED_OUT (the child was killed).
static int reap(pid_t pid, long timeout_ms) {
    long deadline = now_ms() + timeout_ms;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
        }
        if (now_ms() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return TIMED_OUT;
        }
        usleep(10000);
    }
}

static int run(char *const argv[], const char *const env[]) {
    return reap(spawn(argv, env), CHILD_TIMEOUT_MS);
}

static void prog(char *out, size_t size, const char *name) {
    snprintf(out, size, "%s/tests/interpose/%s", builddir, name);
}

// Runs one of our programs through `fxgl`; the program checks itself.
static int run_app(const char *name, const char *const extra_env[], char *const args[]) {
    char path[1200];
    prog(path, sizeof(path), name);
    char *argv[32] = {"/bin/sh", fxgl_cmd, path};
    int n = 3;
    for (char *const *a = args; a && *a && n < 30; a++) {
        argv[n++] = *a;
    }
    argv[n] = NULL;
    const char *env[16];
    int e = 0;
    env[e++] = "FXGL_TEST_MARK=1";
    for (const char *const *x = extra_env; x && *x && e < 15; x++) {
        env[e++] = *x;
    }
    env[e] = NULL;
    return run(argv, env);
}

#define MARK "FXGL_TEST_EXPECT_MARK=1"
#define NO_MARK "FXGL_TEST_EXPECT_MARK=0"
#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})
#define ARGS(...) ((char *const[]){__VA_ARGS__, NULL})

static void expect_app(const char *name, const char *const env[], char *const args[],
                       int want) {
    int rc = run_app(name, env, args);
    if (rc == FXGL_TEST_SKIP) {
        printf("note: %s skipped itself (see its output)\n", name);
        return;
    }
    ck_assert_msg(rc != TIMED_OUT, "%s timed out", name);
    ck_assert_msg(rc == want, "%s exited %d, want %d", name, rc, want);
}

// --- our own programs ---

START_TEST(glx_linked_marked) {
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "one"), 0);
}
END_TEST

START_TEST(dlopen_caller_kept) {
    // Our dlopen export must leave the program as libc's caller ($ORIGIN).
    // The program lives in tests/interpose/, the library in .libs/.
    expect_app("ip_glx_app", ENV(MARK), ARGS("--origin-dlopen", "../../.libs/libfxgl.so"), 0);
    expect_app("ip_glx_dlopen", ENV(MARK),
               ARGS("--path", "glfw", "--origin-dlopen", "../../.libs/libfxgl.so"), 0);
}
END_TEST

START_TEST(glx_linked_without_fxgl) {
    // The same checks with nothing preloaded: the frame is the app's own.
    char path[1200];
    prog(path, sizeof(path), "ip_glx_app");
    int rc = run(ARGS(path), ENV(NO_MARK));
    ck_assert_msg(rc == 0, "ip_glx_app without fxgl exited %d", rc);
}
END_TEST

START_TEST(glx_exit_code_kept) {
    expect_app("ip_glx_app", ENV(MARK), ARGS("--exit", "7"), 7);
}
END_TEST

START_TEST(glx_msc_oml) {
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "msc"), 0);
}
END_TEST

START_TEST(glx_two_windows) {
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "two"), 0);
}
END_TEST

START_TEST(glx_resize) {
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "resize"), 0);
}
END_TEST

START_TEST(glx_tiny_skipped) {
    expect_app("ip_glx_app", ENV(NO_MARK), ARGS("--size", "16x16"), 0);
    expect_app("ip_glx_app", ENV(MARK, "FXGL_ALLOW_TINY=1"), ARGS("--size", "16x16"), 0);
}
END_TEST

START_TEST(glx_disabled) {
    expect_app("ip_glx_app", ENV(NO_MARK, "FXGL_DISABLE=1"), NULL, 0);
}
END_TEST

START_TEST(glx_blacklist_env) {
    expect_app("ip_glx_app", ENV(NO_MARK, "FXGL_BLACKLIST=other:ip_glx_*"), NULL, 0);
}
END_TEST

START_TEST(glx_blacklist_builtin) {
    // A program called "steam" is on the built-in list.
    char dir[] = "/tmp/fxgl-test-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char target[1200], link[1200];
    prog(target, sizeof(target), "ip_glx_app");
    snprintf(link, sizeof(link), "%s/steam", dir);
    ck_assert(symlink(target, link) == 0);
    int rc = run(ARGS("/bin/sh", fxgl_cmd, link), ENV("FXGL_TEST_MARK=1", NO_MARK));
    unlink(link);
    rmdir(dir);
    ck_assert_msg(rc == 0, "'steam' exited %d", rc);
}
END_TEST

START_TEST(glfw_path_dlsym) {
    expect_app("ip_glx_dlopen", ENV(MARK), ARGS("--path", "glfw"), 0);
    expect_app("ip_glx_dlopen", ENV(MARK), ARGS("--path", "glfw", "--mode", "two"), 0);
}
END_TEST

START_TEST(glfw_path_no_dlsym) {
    // Without the dlsym hook the handle lookup gets libGLX's own function;
    // the frame is still caught below glvnd (vendor.c) ...
    expect_app("ip_glx_dlopen", ENV(MARK, "FXGL_DLSYM=0"), ARGS("--path", "glfw"), 0);
    // ... and with that switched off too, nothing sees it.
    expect_app("ip_glx_dlopen", ENV(NO_MARK, "FXGL_DLSYM=0", "FXGL_GLVND=0"),
               ARGS("--path", "glfw"), 0);
}
END_TEST

START_TEST(glvnd_only) {
    // The exported hooks bypassed entirely (the program takes libGLX's
    // glXSwapBuffers through glXGetProcAddressARB with FXGL_DLSYM=0, which
    // hands out the real one): the vendor wrapper runs the frame, once.
    expect_app("ip_glx_dlopen", ENV(MARK, "FXGL_DLSYM=0"), ARGS("--path", "wine"), 0);
    expect_app("ip_glx_dlopen", ENV(MARK, "FXGL_DLSYM=0"), ARGS("--path", "glfw", "--mode",
                                                                  "two"), 0);
}
END_TEST

START_TEST(wine_path) {
    expect_app("ip_glx_dlopen", ENV(MARK), ARGS("--path", "wine"), 0);
    expect_app("ip_glx_dlopen", ENV(MARK), ARGS("--path", "wine", "--mode", "resize"), 0);
}
END_TEST

START_TEST(egl_swap_gles) {
    expect_app("ip_egl_app", ENV(MARK), ARGS("--mode", "swap"), 0);
    expect_app("ip_egl_app", ENV(NO_MARK, "FXGL_DISABLE=1"), ARGS("--mode", "swap"), 0);
}
END_TEST

START_TEST(egl_damage_gl) {
    expect_app("ip_egl_app", ENV(MARK), ARGS("--mode", "damage"), 0);
}
END_TEST

START_TEST(rtld_next_chain) {
    // ip_shim hooks glXSwapBuffers and finds the next with dlsym(RTLD_NEXT),
    // which goes through our dlsym. Both orders: every one of the 6 swaps
    // passes the shim exactly once (else it exits 3 or 4) and fxgl marks it.
    char shim[1200], shim_first[2600];
    snprintf(shim, sizeof(shim), "%s/tests/interpose/.libs/ip_shim.so", builddir);
    ck_assert_msg(access(shim, R_OK) == 0, "%s not built", shim);
    char shim_last[1300];
    snprintf(shim_last, sizeof(shim_last), "LD_PRELOAD=%s", shim); // fxgl prepends itself
    snprintf(shim_first, sizeof(shim_first), "LD_PRELOAD=%s:%s", shim, library);
    expect_app("ip_glx_app", ENV(MARK, "IP_SHIM_EXPECT=6", shim_last), ARGS("--mode", "one"), 0);
    expect_app("ip_glx_app", ENV(MARK, "IP_SHIM_EXPECT=6", shim_first), ARGS("--mode", "one"),
               0);
    // The count is checked: a wrong expectation fails.
    expect_app("ip_glx_app", ENV(MARK, "IP_SHIM_EXPECT=5", shim_first), ARGS("--mode", "one"),
               3);
}
END_TEST

// --- the effect runtime, with the test preset (tests/interpose/data) ---

static char preset_env[1300], paths_env[1300];

static const char *preset(const char *name) {
    snprintf(preset_env, sizeof(preset_env), "FXGL_PRESET=%s/interpose/data/%s",
             FXGL_TEST_SRCDIR, name);
    return preset_env;
}

static const char *effect_paths(void) {
    snprintf(paths_env, sizeof(paths_env), "FXGL_EFFECT_PATHS=%s/interpose/data",
             FXGL_TEST_SRCDIR);
    return paths_env;
}

#define INVERTED "FXGL_TEST_EXPECT_INVERT=1"

START_TEST(effect_inverted_glx) {
    // Invert.fx on every presented pixel; the app's trap state (user FBO
    // bound, scissor, viewport, clear colour) still intact after the swap.
    expect_app("ip_glx_app", ENV(NO_MARK, INVERTED, preset("invert.ini"), effect_paths(),
                                 "FXGL_TEST_MARK="), ARGS("--mode", "one"), 0);
    // With the test mark too: the mark is drawn after the effect.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "one"), 0);
    // A window that grows every 3 frames, and the Wine lookup path.
    expect_app("ip_glx_dlopen", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--path", "wine", "--mode", "resize"), 0);
    // Two windows, two unshared contexts (one core profile): two runtimes.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "two"), 0);
}
END_TEST

START_TEST(glx_depth_visuals) {
    // Windows whose visual has 24-bit depth with and without stencil, 16 and
    // 32 bits, and none, with an effect that binds DEPTH: every frame copies
    // the window's depth, the colour is still inverted, and no GL error of
    // fxgl's is left for the program (its profiler check after each swap);
    // the first frame and the resizes of mode resize read the source's
    // depth and stencil formats. A config the server lacks skips itself.
    static const char *const visuals[] = {"24:8", "24:0", "16:0", "32:0", "0:0"};
    for (size_t i = 0; i < sizeof(visuals) / sizeof(visuals[0]); i++) {
        char depth[16];
        snprintf(depth, sizeof(depth), "%s", visuals[i]);
        expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("depthinvert.ini"), effect_paths()),
                   ARGS("--depth", depth, "--mode", "resize"), 0);
    }
}
END_TEST

// The FBO depth provider (FXGL_DEPTH=fbo, and unset: the default): a program
// drawing its scene into a framebuffer object with each kind of depth
// attachment, on GL 4.5 core, the compatibility profile and GLES 3.2; DepthShow.fx shows DEPTH as grey and
// ip_depth_app compares it with the scene's depth. The mid-frame clear needs
// the copy before clears (0: every clear that follows draws); without it DEPTH
// is the UI pass's, which the last run requires so the option is seen to matter.
START_TEST(glx_depth_fbo) {
    static const char *const apis[] = {"core", "compat", "gles"};
    static const char *const kinds[] = {"texture", "renderbuffer", "msaa", "mstex", "layer",
                                        "midclear"};
    for (size_t a = 0; a < 3; a++) {
        for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
            char api[16], kind[16];
            snprintf(api, sizeof(api), "%s", apis[a]);
            snprintf(kind, sizeof(kind), "%s", kinds[k]);
            printf("depth fbo: %s on %s\n", kind, api);
            expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=fbo",
                                           "FXGL_DEPTH_BEFORE_CLEAR=0", preset("depthshow.ini"),
                                           effect_paths()),
                       ARGS("--api", api, "--kind", kind), 0);
        }
    }
    expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=fbo", preset("depthshow.ini"),
                                   effect_paths()),
               ARGS("--api", "core", "--kind", "midclear", "--expect", "ui"), 0);
    // The named (DSA) attachment and clear entry points, GL 4.5 core.
    expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=fbo",
                                   "FXGL_DEPTH_BEFORE_CLEAR=0", preset("depthshow.ini"),
                                   effect_paths()),
               ARGS("--api", "core", "--kind", "dsa"), 0);
    // The default (FXGL_DEPTH unset): the same tracking, no switch needed.
    expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=", preset("depthshow.ini"),
                                   effect_paths()),
               ARGS("--api", "core", "--kind", "texture"), 0);
    expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=", "FXGL_DEPTH_BEFORE_CLEAR=0",
                                   preset("depthshow.ini"), effect_paths()),
               ARGS("--api", "gles", "--kind", "midclear"), 0);
}
END_TEST

static bool depth_file_has(const char *path, const char *needle) {
    char text[8192];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    text[n] = 0;
    if (!strstr(text, needle)) {
        printf("%s has no '%s':\n%s\n", path, needle, text);
        return false;
    }
    return true;
}

// The choice from the configuration: with the aspect-ratio filter off the
// decoy (32x32, three times the draw calls) would win, so the scene matches
// only because [DEPTH:ip_depth_app] SelectedBuffer names the scene's texture
// (names 1 and 2: the program's first two textures). FXGL_DUMP lists both
// candidates with their figures and which one was chosen.
START_TEST(glx_depth_fbo_config) {
    char dir[] = "/tmp/fxgl-test-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char ini[1100], dump[1100], config_env[1200], dump_env[1200];
    snprintf(ini, sizeof(ini), "%s/fxgl.ini", dir);
    snprintf(dump, sizeof(dump), "%s/dump.txt", dir);
    FILE *f = fopen(ini, "w");
    ck_assert(f != NULL);
    fputs("[DEPTH:ip_depth_app]\nUseAspectRatioHeuristics=0\nSelectedBuffer=texture:2:0:0\n",
          f);
    fclose(f);
    snprintf(config_env, sizeof(config_env), "FXGL_CONFIG=%s", ini);
    snprintf(dump_env, sizeof(dump_env), "FXGL_DUMP=%s", dump);
    expect_app("ip_depth_app", ENV("FXGL_TEST_MARK=", "FXGL_DEPTH=fbo", config_env, dump_env,
                                   preset("depthshow.ini"), effect_paths()),
               ARGS("--api", "core", "--kind", "texture"), 0);
    ck_assert(depth_file_has(dump, "by draws, aspect filter off, copy at frame end, "
                             "selected texture:2:0:0"));
    ck_assert(depth_file_has(dump, "1 texture:1:0:0 32x32 DEPTH_COMPONENT24 samples 0: draws 6, "
                             "vertices 36, clears 1\n"));
    ck_assert(depth_file_has(dump, "2 texture:2:0:0 64x48 DEPTH_COMPONENT32F samples 0: draws 2, "
                             "vertices 12, clears 1 (chosen)"));
    unlink(dump);
    unlink(ini);
    rmdir(dir);
}
END_TEST

START_TEST(glx_resize_every_frame) {
    // A new window size before every frame, checked in that frame: fxgl
    // follows the size without asking the server at each swap (the window's
    // ConfigureNotify on fxgl's own connection), the mark at the new top-left
    // corner and, with Invert.fx, every pixel of the new size inverted.
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "resize-every"), 0);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "resize-every"), 0);
    expect_app("ip_glx_app", ENV(MARK), ARGS("--mode", "resize-every", "--glxwindow", "yes"), 0);
}
END_TEST

START_TEST(glx_no_request_per_swap) {
    // Steady-state swaps send nothing on the program's X connection beyond
    // what the driver's own swap sends (measured with fxgl disabled): no
    // size query, no input poll there - with the mark, and with an effect.
    char path[1100];
    snprintf(path, sizeof(path), "%s/tests/interpose/requests-per-swap.txt", builddir);
    expect_app("ip_glx_app", ENV(NO_MARK, "FXGL_DISABLE=1"),
               ARGS("--requests", path, "--requests-mode", "write"), 0);
    expect_app("ip_glx_app", ENV(MARK), ARGS("--requests", path), 0);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--requests", path), 0);
    // Through a GLXWindow (GLFW's way): its X window is recorded at creation.
    expect_app("ip_glx_app", ENV(NO_MARK, "FXGL_DISABLE=1"),
               ARGS("--glxwindow", "yes", "--requests", path, "--requests-mode", "write"), 0);
    expect_app("ip_glx_app", ENV(MARK), ARGS("--glxwindow", "yes", "--requests", path), 0);
    remove(path);
}
END_TEST

START_TEST(egl_resize_every_frame) {
    // The same on EGL over X11: Mesa answers eglQuerySurface(EGL_WIDTH) with a
    // GetGeometry round trip, so the window surface's size is followed
    // through the window's events too; each frame checks the new size.
    expect_app("ip_egl_app", ENV(MARK), ARGS("--resize-every", "yes"), 0);
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "damage", "--resize-every", "yes"), 0);
}
END_TEST

START_TEST(egl_no_request_per_swap) {
    // EGL over X11: a swap sends on the program's connection what the
    // driver's swap sends alone (1 on Mesa/Xvfb; 3 when fxgl asked
    // eglQuerySurface for the width and height).
    char path[1100];
    snprintf(path, sizeof(path), "%s/tests/interpose/egl-requests-per-swap.txt", builddir);
    expect_app("ip_egl_app", ENV(NO_MARK, "FXGL_DISABLE=1"),
               ARGS("--requests", path, "--requests-mode", "write"), 0);
    expect_app("ip_egl_app", ENV(MARK), ARGS("--requests", path), 0);
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "damage", "--requests", path), 0);
    remove(path);
}
END_TEST

START_TEST(effect_inverted_egl) {
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "swap"), 0);
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "damage"), 0);
}
END_TEST

START_TEST(egl_damage_widened) {
    // ip_damage_shim stands in for a driver that offers the damage swap (Mesa
    // offers it neither on Xvfb nor on software-rendered Wayland) and records
    // what reaches it. The program damages its whole surface as one
    // rectangle; a frame fxgl drew into (the mark, here with Invert.fx) must
    // reach the driver as zero rectangles - the whole surface - or a
    // compositor repaints only what the program damaged and shows stale
    // effect output elsewhere.
    char shim[1300];
    snprintf(shim, sizeof(shim), "LD_PRELOAD=%s/tests/interpose/.libs/ip_damage_shim.so",
             builddir);
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths(), shim,
                                 "IP_DAMAGE_EXPECT=whole"),
               ARGS("--mode", "damage"), 0);
    // fxgl disabled: nothing drawn, the program's rectangles go through as they
    // are; and the same run held to "whole" fails (the shim exits 3).
    expect_app("ip_egl_app", ENV(NO_MARK, "FXGL_DISABLE=1", "IP_APP_EXPECT_HOOK=1", shim,
                                 "IP_DAMAGE_EXPECT=kept"),
               ARGS("--mode", "damage"), 0);
    expect_app("ip_egl_app", ENV(NO_MARK, "FXGL_DISABLE=1", "IP_APP_EXPECT_HOOK=1", shim,
                                 "IP_DAMAGE_EXPECT=whole"),
               ARGS("--mode", "damage"), 3);
}
END_TEST

START_TEST(effect_toggle_key) {
    // KeyInvert@Invert.fx=73 (I): held during frame 3's swap, the effect is
    // off from frame 3 on; the app expects inverted frames 0-2 only.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert_key.ini"), effect_paths()),
               ARGS("--mode", "one", "--toggle-at", "3"), 0);
    // EGL: the X window comes from eglCreateWindowSurface (focus and keys);
    // GLES 3 (eglGetDisplay) and desktop GL (eglGetPlatformDisplay).
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert_key.ini"), effect_paths()),
               ARGS("--mode", "swap", "--toggle-at", "2"), 0);
    expect_app("ip_egl_app", ENV(MARK, INVERTED, preset("invert_key.ini"), effect_paths()),
               ARGS("--mode", "damage", "--toggle-at", "4"), 0);
    // The same run with the key unbound: every frame stays inverted, so the
    // app's expectation fails (exit 1) - the check above can fail.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("invert.ini"), effect_paths()),
               ARGS("--mode", "one", "--toggle-at", "3"), 1);
}
END_TEST

START_TEST(effect_namespaced_preset_value) {
    // NsInvert.fx's Ns::Mix (initial 0: the frame unchanged) is 1 in
    // nsinvert.ini, written by its short name as the reference does: only
    // when the preset value reaches the uniform are the pixels inverted.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("nsinvert.ini"), effect_paths()),
               ARGS("--mode", "one"), 0);
}
END_TEST

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static bool file_has(const char *path, const char *needle) {
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

START_TEST(effect_next_preset_key) {
    // FXGL_CONFIG binds KeyNextPreset to I; cycle/ holds a_invert.ini (Invert
    // on, and NsInvert.fx at Mix 0 so that the switch needs no compile: a set
    // shows only once all its effects are in) and b_plain.ini (NsInvert.fx at
    // Mix 0: the frame unchanged). I held during frame 3's swap switches to
    // b_plain.ini there: the app expects inverted frames 0-2 only.
    char config[1300], cycle[1300];
    snprintf(config, sizeof(config), "FXGL_CONFIG=%s/interpose/data/next_key.ini",
             FXGL_TEST_SRCDIR);
    snprintf(cycle, sizeof(cycle), "FXGL_PRESET=%s/interpose/data/cycle/a_invert.ini",
             FXGL_TEST_SRCDIR);
    // The switch reads no preset on the presenting thread: the worker read b_plain.ini
    // ahead (the library counts the presets each thread reads and logs the presenting
    // thread's count since its first frame with the switch).
    char log[1100], log_var[1200];
    snprintf(log, sizeof(log), "%s/tests/interpose/next-preset-key.log", builddir);
    snprintf(log_var, sizeof(log_var), "FXGL_LOG_FILE=%s", log);
    remove(log);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, cycle, config, effect_paths(), log_var,
                                 "FXGL_LOG=info"),
               ARGS("--mode", "one", "--toggle-at", "3"), 0);
    ck_assert_msg(file_has(log, "b_plain.ini: read ahead on the worker; 0 preset file(s) read "
                                "on this thread since its first frame"),
                  "the switch read a preset on the presenting thread (or not ahead): %s", log);
    remove(log);
    // Without the binding the key does nothing, and the same expectation fails.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, cycle, effect_paths()),
               ARGS("--mode", "one", "--toggle-at", "3"), 1);
}
END_TEST

START_TEST(effect_performance_mode_key) {
    // perf_key.ini binds KeyPerformanceMode to I. PerfMode.fx inverts when
    // compiled with uniforms and paints green when compiled in performance
    // mode: after I, the recompile (off-thread) must turn the window green
    // while every frame in between shows the old version.
    char config[1300];
    snprintf(config, sizeof(config), "FXGL_CONFIG=%s/interpose/data/perf_key.ini",
             FXGL_TEST_SRCDIR);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("perfmode.ini"), config, effect_paths()),
               ARGS("--mode", "one", "--key-then-green", "60000"), 0);
    // Unbound, the key changes nothing: no green within 3 s (exit 1).
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("perfmode.ini"), effect_paths()),
               ARGS("--mode", "one", "--key-then-green", "3000"), 1);
}
END_TEST

START_TEST(effect_preset_transition) {
    // blend/a_inverted.ini has NsInvert.fx's Mix at 1, b_plain.ini at 0;
    // blend_key.ini binds KeyNextPreset to I with PresetTransitionDuration
    // 1000: after I, Mix moves from 1 to 0 over a second, so frames between
    // the inverted and the plain picture are blends. With a duration of 0
    // (blend0_key.ini) the switch is at once: no blended frame.
    char config[1300], start[1300];
    snprintf(config, sizeof(config), "FXGL_CONFIG=%s/interpose/data/blend_key.ini",
             FXGL_TEST_SRCDIR);
    snprintf(start, sizeof(start), "FXGL_PRESET=%s/interpose/data/blend/a_inverted.ini",
             FXGL_TEST_SRCDIR);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, start, config, effect_paths()),
               ARGS("--mode", "one", "--key-then-plain", "60000", "--blend", "yes"), 0);
    snprintf(config, sizeof(config), "FXGL_CONFIG=%s/interpose/data/blend0_key.ini",
             FXGL_TEST_SRCDIR);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, start, config, effect_paths()),
               ARGS("--mode", "one", "--key-then-plain", "60000", "--blend", "no"), 0);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, start, config, effect_paths()),
               ARGS("--mode", "one", "--key-then-plain", "60000", "--blend", "yes"), 1);
}
END_TEST

START_TEST(effect_resize_recompile) {
    // SizeGreen.fx inverts when compiled for BUFFER_WIDTH <= 100 and paints
    // green when wider. The 96x64 window grows to 128x80: the recompile for
    // the new size (off-thread) must turn it green, every frame in between
    // showing the old version at the new size.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("sizegreen.ini"), effect_paths()),
               ARGS("--mode", "one", "--resize-then-green", "60000"), 0);
}
END_TEST

START_TEST(input_polled_only_when_read) {
    // Invert.fx reads no key or mouse uniform and invert.ini binds no key:
    // with every control key unbound too, nothing reads the input and fxgl
    // does not poll it; with the control keys' defaults (F9, F10, ...) it does.
    // KeyEffects and KeyOverlay (both Home by default) are unbound through a configuration
    // file.
    char log[1100], log_var[1200], conf[1100], conf_var[1200];
    snprintf(log, sizeof(log), "%s/tests/interpose/input-polled.log", builddir);
    snprintf(log_var, sizeof(log_var), "FXGL_LOG_FILE=%s", log);
    snprintf(conf, sizeof(conf), "%s/tests/interpose/input-polled.ini", builddir);
    snprintf(conf_var, sizeof(conf_var), "FXGL_CONFIG=%s", conf);
    write_text(conf, "[INPUT]\nKeyEffects=0,0,0,0\nKeyOverlay=0,0,0,0\n");
    remove(log);
    expect_app("ip_glx_app",
               ENV(MARK, INVERTED, preset("invert.ini"), effect_paths(), log_var, "FXGL_LOG=debug",
                   conf_var,
                   "FXGL_KEYS=next=none,prev=none,overlay=none,dump=none,screenshot=none"),
               ARGS("--mode", "one"), 0);
    ck_assert_msg(file_has(log, "input not polled"), "input polled with nothing reading it: %s",
                  log);
    remove(log);
    expect_app("ip_glx_app",
               ENV(MARK, INVERTED, preset("invert.ini"), effect_paths(), log_var, "FXGL_LOG=debug"),
               ARGS("--mode", "one"), 0);
    ck_assert_msg(!file_has(log, "input not polled"), "input not polled with keys bound: %s",
                  log);
    remove(log);
    remove(conf);
}
END_TEST

START_TEST(effect_live_reload) {
    // Live.fx (a copy of Invert.fx) in a scratch directory runs; the program
    // saves a broken version (the inverted frames must stay, the error is
    // logged with file, line and column), then a version that paints green,
    // which must appear while it keeps presenting.
    char dir[] = "/tmp/fxgl-live-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char fx[256], ini[256], log[256], src[1300];
    snprintf(fx, sizeof(fx), "%s/Live.fx", dir);
    snprintf(ini, sizeof(ini), "%s/live.ini", dir);
    snprintf(log, sizeof(log), "%s/fxgl.log", dir);
    snprintf(src, sizeof(src), "%s/interpose/data/Invert.fx", FXGL_TEST_SRCDIR);
    static char text[1 << 14];
    FILE *f = fopen(src, "r");
    ck_assert(f != NULL);
    text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
    fclose(f);
    write_text(fx, text);
    write_text(ini, "Techniques=Invert@Live.fx\n");
    char paths[300], preset_var[300], log_var[300];
    snprintf(paths, sizeof(paths), "FXGL_EFFECT_PATHS=%s", dir);
    snprintf(preset_var, sizeof(preset_var), "FXGL_PRESET=%s", ini);
    snprintf(log_var, sizeof(log_var), "FXGL_LOG_FILE=%s", log);
    expect_app("ip_glx_app", ENV(MARK, INVERTED, paths, preset_var, log_var),
               ARGS("--mode", "one", "--edit", fx), 0);
    // The broken edit's message: Live.fx(11, ...): error ...
    char want[300];
    snprintf(want, sizeof(want), "%s(11, ", fx);
    bool logged = file_has(log, want) && file_has(log, "the running version stays");
    ck_assert_msg(logged, "no 'reload of ... failed' with %s...: error in %s", want, log);
    // FXGL_RELOAD=0: nothing is watched, the edit never appears (exit 1).
    write_text(fx, text);
    // 3 s: many times what the watched run needed here.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, paths, preset_var, "FXGL_RELOAD=0"),
               ARGS("--mode", "one", "--edit", fx, "--wait-ms", "3000"), 1);
    unlink(fx);
    unlink(ini);
    unlink(log);
    rmdir(dir);
}
END_TEST

START_TEST(effect_failures_pass_through) {
    // An effect that does not compile is skipped; the other one runs.
    expect_app("ip_glx_app", ENV(MARK, INVERTED, preset("broken.ini"), effect_paths()),
               ARGS("--mode", "one"), 0);
    // Nothing loadable: every frame passes through untouched.
    expect_app("ip_glx_app", ENV(MARK, preset("missing.ini"), effect_paths()),
               ARGS("--mode", "one"), 0);
    // No preset: nothing compiled, nothing run.
    expect_app("ip_glx_app", ENV(MARK, effect_paths()), ARGS("--mode", "one"), 0);
    // FXGL_DISABLE wins over a preset.
    expect_app("ip_glx_app", ENV(NO_MARK, "FXGL_DISABLE=1", preset("invert.ini"),
                                 effect_paths()), ARGS("--mode", "one"), 0);
}
END_TEST

// --- programs nobody here wrote ---

typedef struct grab {
    bool presented;              // frames with content seen
    bool marked;                 // the corner was magenta
    int samples;                 // images with content
    int unmarked_after_mark;     // images with content but no mark, after a marked one
    bool hud;                    // MangoHud's HUD (green background, bottom right) seen
    bool corner_white;           // the top-left corner was white (an inverted black clear)
} grab;

static bool corner_magenta(XImage *img) {
    for (int y = 1; y < 7; y += 2) {
        for (int x = 1; x < 7; x += 2) {
            if (XGetPixel(img, x, y) != 0xff00ffUL) {
                return false;
            }
        }
    }
    return true;
}

// MangoHud with background_color=00ff00,background_alpha=1 in the
// bottom-right corner: a solid green block there (glxgears draws its gears
// in the middle; its own green is lit, never pure 00ff00).
static bool hud_visible(XImage *img, int w, int h) {
    int green = 0;
    for (int y = h / 2; y < h; y += 2) {
        for (int x = w / 2; x < w; x += 2) {
            green += (XGetPixel(img, x, y) & 0xffffff) == 0x00ff00UL;
        }
    }
    return green > 100;
}

static bool has_content(XImage *img, int w, int h) {
    int lit = 0;
    for (int y = 0; y < h; y += 3) {
        for (int x = 0; x < w; x += 3) {
            lit += (XGetPixel(img, x, y) & 0xffffff) != 0;
        }
    }
    return lit > 50;
}

// Watches the first big mapped window for up to timeout_ms: until the
// mark shows (want_mark), or for 1 s after until(g) first holds (after frames
// appear when until is NULL). A condition waited for, then a second more to
// look at: what comes late on a loaded machine (an effect still compiling, a
// HUD still starting) is waited for, not missed.
// The watcher lists another program's windows and reads them while that
// program (or the one before it, whose windows the server destroys only when
// it gets round to the closed connection) may destroy them: Xlib's default
// handler would exit this test on the BadWindow that follows. A window gone
// between the listing and the query is simply not looked at.
static int tolerate_x_error(Display *dpy, XErrorEvent *ev) {
    (void)dpy;
    (void)ev;
    return 0;
}

static grab watch(Display *dpy, pid_t pid, bool want_mark, bool (*until)(const grab *),
                  long timeout_ms) {
    grab g = {0};
    long deadline = now_ms() + timeout_ms, settle = 0;
    while (now_ms() < deadline && waitpid(pid, NULL, WNOHANG) == 0) {
        usleep(50000);
        Window root_ret, parent, *kids = NULL;
        unsigned int nkids = 0;
        if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root_ret, &parent, &kids, &nkids)) {
            continue;
        }
        for (unsigned int i = 0; i < nkids; i++) {
            XWindowAttributes wa;
            if (!XGetWindowAttributes(dpy, kids[i], &wa) || wa.map_state != IsViewable ||
                wa.width < 100 || wa.height < 100) {
                continue;
            }
            XImage *img = XGetImage(dpy, kids[i], 0, 0, (unsigned)wa.width,
                                    (unsigned)wa.height, AllPlanes, ZPixmap);
            if (img) {
                bool content = has_content(img, wa.width, wa.height);
                bool marked = corner_magenta(img);
                if (content) {
                    g.samples++;
                    g.unmarked_after_mark += g.marked && !marked;
                }
                g.presented |= content;
                g.marked |= marked;
                g.hud |= hud_visible(img, wa.width, wa.height);
                g.corner_white |= content && (XGetPixel(img, 2, 2) & 0xffffff) == 0xffffffUL;
                XDestroyImage(img);
            }
            break;
        }
        XFree(kids);
        if (want_mark && g.marked && g.presented) {
            break;
        }
        if ((until ? until(&g) : g.presented) && !settle) {
            settle = now_ms() + 1000;
        }
        if (settle && now_ms() > settle) {
            break;
        }
    }
    return g;
}

// How long an outside program is watched at most (each watch ends when its condition holds).
#define WATCH_MS 60000

// Runs an outside program (argv; through fxgl when via_fxgl) and watches it.
static grab run_external_until(char *const prog_argv[], bool via_fxgl, const char *const env[],
                               bool want_mark, bool (*until)(const grab *)) {
    char *argv[24] = {"/bin/sh", fxgl_cmd};
    int n = via_fxgl ? 2 : 0;
    for (char *const *a = prog_argv; *a && n < 23; a++) {
        argv[n++] = *a;
    }
    argv[n] = NULL;
    Display *dpy = XOpenDisplay(xvfb.display_name);
    ck_assert(dpy != NULL);
    pid_t pid = spawn(argv, env);
    grab g = watch(dpy, pid, want_mark, until, WATCH_MS);
    bool exited = waitpid(pid, NULL, WNOHANG) != 0;
    kill(pid, SIGTERM);
    int rc = reap(pid, 5000);
    XCloseDisplay(dpy);
    ck_assert_msg(!exited, "%s exited early (a crash?)", prog_argv[0]);
    ck_assert_msg(rc != TIMED_OUT, "%s did not stop on SIGTERM", prog_argv[0]);
    return g;
}

static grab run_external_argv(char *const prog_argv[], bool via_fxgl, const char *const env[],
                              bool want_mark) {
    return run_external_until(prog_argv, via_fxgl, env, want_mark, NULL);
}

static grab run_external(const char *program, bool via_fxgl, const char *const env[],
                         bool want_mark) {
    return run_external_argv(ARGS((char *)program), via_fxgl, env, want_mark);
}

static bool seen_white_corner(const grab *g) {
    return g->corner_white;
}

static bool seen_mark_and_hud(const grab *g) {
    return g->marked && g->hud;
}

// Runs argv to completion with stdout and stderr into out (a file); the exit status.
static int run_capture(char *const argv[], const char *const env[], const char *out) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(out, "w", stdout);
        if (!f || dup2(fileno(stdout), 2) < 0) {
            _exit(126);
        }
        // spawn's environment handling, inline: this child is already forked.
        unsetenv("LD_PRELOAD");
        for (const char *const *e = env; e && *e; e++) {
            char name[128];
            const char *eq = strchr(*e, '=');
            snprintf(name, sizeof(name), "%.*s", (int)(eq - *e), *e);
            if (eq[1]) {
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(name);
            }
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    return reap(pid, 60000);
}

// The lines of a file that contain needle, joined; the count in *count.
static char *lines_with(const char *path, const char *needle, int *count) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    size_t cap = 65536, len = 0;
    char *all = calloc(1, cap);
    char line[1024];
    *count = 0;
    while (fgets(line, sizeof(line), f)) {
        if (strstr(line, needle) && len + strlen(line) + 1 < cap) {
            memcpy(all + len, line, strlen(line) + 1);
            len += strlen(line);
            ++*count;
        }
    }
    fclose(f);
    return all;
}

static bool have(const char *path) {
    return access(path, X_OK) == 0;
}

START_TEST(glxgears_marked) {
    if (!have("/usr/bin/glxgears")) {
        printf("SKIP glxgears_marked: glxgears absent (apt-get install mesa-utils)\n");
        return;
    }
    grab g = run_external("/usr/bin/glxgears", true, ENV("FXGL_TEST_MARK=1"), true);
    ck_assert_msg(g.presented, "glxgears presented nothing");
    ck_assert_msg(g.marked, "no mark on glxgears");
    g = run_external("/usr/bin/glxgears", false, ENV("FXGL_TEST_MARK=1"), false);
    ck_assert_msg(g.presented && !g.marked, "glxgears without fxgl: presented %d marked %d",
                  g.presented, g.marked);
}
END_TEST

START_TEST(glxgears_inverted) {
    if (!have("/usr/bin/glxgears")) {
        printf("SKIP glxgears_inverted: glxgears absent (apt-get install mesa-utils)\n");
        return;
    }
    // glxgears clears to black: with Invert.fx the corner reads white.
    // The effect compiles in the background (frames pass through until then): waited for.
    grab g = run_external_until(ARGS((char *)"/usr/bin/glxgears"), true,
                                ENV(preset("invert.ini"), effect_paths()), false,
                                seen_white_corner);
    ck_assert_msg(g.presented && g.corner_white, "glxgears with Invert.fx: presented %d, "
                  "corner white %d", g.presented, g.corner_white);
    g = run_external("/usr/bin/glxgears", true, ENV(effect_paths()), false);
    ck_assert_msg(g.presented && !g.corner_white, "glxgears without a preset: corner white");
}
END_TEST

// Finds a mapped top-level window of exactly w x h and reads its centre
// pixel (0xRRGGBB) until want shows or timeout_ms pass; -1 when no such window.
static long watch_centre(pid_t pid, int w, int h, unsigned long want, long timeout_ms) {
    Display *dpy = XOpenDisplay(xvfb.display_name);
    ck_assert(dpy != NULL);
    long seen = -1, deadline = now_ms() + timeout_ms;
    while (now_ms() < deadline && waitpid(pid, NULL, WNOHANG) == 0 && seen != (long)want) {
        usleep(100000);
        Window root_ret, parent, *kids = NULL;
        unsigned int nkids = 0;
        if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root_ret, &parent, &kids, &nkids)) {
            continue;
        }
        for (unsigned int i = 0; i < nkids; i++) {
            XWindowAttributes wa;
            if (!XGetWindowAttributes(dpy, kids[i], &wa) || wa.map_state != IsViewable ||
                wa.width != w || wa.height != h) {
                continue;
            }
            XImage *img = XGetImage(dpy, kids[i], w / 2, h / 2, 1, 1, AllPlanes, ZPixmap);
            if (img) {
                seen = (long)(XGetPixel(img, 0, 0) & 0xffffff);
                XDestroyImage(img);
            }
        }
        XFree(kids);
    }
    XCloseDisplay(dpy);
    return seen;
}

START_TEST(wine_wgl_inverted) {
    // A Windows GL program (mingw-w64) under Debian's wine64, fxgl preloaded
    // into the Wine process: Wine's X11 driver takes glXSwapBuffers through
    // the glXGetProcAddressARB it looked up with dlsym (reference §9).
    const char *wine = "/usr/lib/wine/wine64";
    char exe[1200], prefix[1300], prefix_env[1400];
    prog(exe, sizeof(exe), "ip_wgl_app.exe");
    if (!have(wine) || access(exe, R_OK) != 0) {
        printf("SKIP wine_wgl_inverted: needs %s (apt-get install wine64) and %s "
               "(gcc-mingw-w64-x86-64-win32 at configure time)\n", wine, exe);
        return;
    }
    snprintf(prefix, sizeof(prefix), "%s/tests/interpose/wineprefix", builddir);
    snprintf(prefix_env, sizeof(prefix_env), "WINEPREFIX=%s", prefix);
    const char *wine_env[] = {prefix_env, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=",
                              NULL};
    if (access(prefix, F_OK) != 0) {
        // The first run creates the prefix (about 40 s on 2 cores), once per build tree.
        printf("wine_wgl_inverted: creating %s\n", prefix);
        int rc = reap(spawn(ARGS((char *)wine, "wineboot", "-i"), wine_env), 150000);
        if (rc != 0) {
            // Seen once in a fresh-clone CI run ("could not load kernel32.dll", exit 53)
            // and not again by hand: a half-made prefix is removed and made once more, so
            // a second failure is Wine's own, not a leftover of the first.
            printf("wine_wgl_inverted: wineboot exited %d; making the prefix again\n", rc);
            char rm[1400];
            snprintf(rm, sizeof(rm), "rm -rf '%s'", prefix);
            ck_assert_int_eq(system(rm), 0);
            rc = reap(spawn(ARGS((char *)wine, "wineboot", "-i"), wine_env), 150000);
        }
        ck_assert_msg(rc == 0, "wineboot exited %d", rc);
    }
    // (51, 153, 102) cleared; Invert.fx makes it (204, 102, 153).
    long results[2];
    for (int i = 0; i < 2; i++) {
        const char *env[] = {prefix_env, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=",
                             effect_paths(), i == 0 ? preset("invert.ini") : "FXGL_PRESET=",
                             NULL};
        pid_t pid = spawn(ARGS("/bin/sh", fxgl_cmd, (char *)wine, exe, "--seconds", "40"), env);
        results[i] = watch_centre(pid, 160, 120, i == 0 ? 0xcc6699UL : 0x339966UL, 60000);
        kill(pid, SIGTERM);
        int rc = reap(pid, 10000);
        ck_assert_msg(rc != TIMED_OUT, "the Wine program did not stop");
    }
    printf("wine: centre 0x%06lx with Invert.fx, 0x%06lx without\n", results[0], results[1]);
    ck_assert_msg(results[1] == 0x339966L, "the Wine program's own frame: 0x%06lx", results[1]);
    ck_assert_msg(results[0] == 0xcc6699L, "Invert.fx under Wine: 0x%06lx", results[0]);
}
END_TEST

START_TEST(glxgears32_marked) {
    // A 32-bit glxgears through the same command: `make lib32` builds
    // lib32/libfxgl.so, which fxgl-uninstalled preloads beside the 64-bit one.
    const char *gears32 = "/usr/bin/glxgears.i386-linux-gnu";
    char lib32[1200];
    snprintf(lib32, sizeof(lib32), "%s/lib32/libfxgl.so", builddir);
    if (!have(gears32) || access(lib32, R_OK) != 0) {
        printf("SKIP glxgears32_marked: needs %s (dpkg --add-architecture i386; "
               "apt-get install mesa-utils-bin:i386 libgl1-mesa-dri:i386) and %s (make lib32)\n",
               gears32, lib32);
        return;
    }
    grab g = run_external(gears32, true, ENV("FXGL_TEST_MARK=1"), true);
    ck_assert_msg(g.presented && g.marked, "32-bit glxgears: presented %d marked %d",
                  g.presented, g.marked);
}
END_TEST

START_TEST(es2gears_marked) {
    if (!have("/usr/bin/es2gears_x11")) {
        printf("SKIP es2gears_marked: es2gears_x11 absent (apt-get install mesa-utils-bin)\n");
        return;
    }
    grab g = run_external("/usr/bin/es2gears_x11", true, ENV("FXGL_TEST_MARK=1"), true);
    ck_assert_msg(g.presented, "es2gears_x11 presented nothing");
    ck_assert_msg(g.marked, "no mark on es2gears_x11");
}
END_TEST

// glmark2 scenes that validate their output, small and quick on llvmpipe.
#define GLMARK2_SCENES "-s", "200x150", "-b", "build:use-vbo=true:duration=0.3", \
        "-b", "texture:texture-filter=linear:duration=0.3", \
        "-b", "shading:shading=phong:duration=0.3", \
        "-b", "conditionals:fragment-steps=5:vertex-steps=0:duration=0.3", \
        "-b", "function:fragment-complexity=low:fragment-steps=5:duration=0.3", \
        "-b", "loop:fragment-loop=false:fragment-steps=5:vertex-steps=5:duration=0.3"

// glmark2 --validate with fxgl preloaded (no test mark) and without it: the
// same "Validation:" lines. --validate renders each scene once and reads it
// back without presenting it (ltrace: no swap at all), so this shows that
// fxgl's presence - hooks, dlsym, the wrapped vendor - changes nothing; that
// presented frames are processed is glmark2_marked's job. loaded is a line
// fxgl's debug log must show. Returns NULL or what went wrong (static text),
// so a caller can clean up before failing.
static const char *validate_same(const char *program, const char *loaded,
                                 const char *const env_extra[]) {
    static char why[4096];
    char out_plain[64], out_fxgl[64];
    snprintf(out_plain, sizeof(out_plain), "/tmp/fxgl-validate-%d-a.txt", (int)getpid());
    snprintf(out_fxgl, sizeof(out_fxgl), "/tmp/fxgl-validate-%d-b.txt", (int)getpid());
    char *plain_argv[] = {(char *)program, "--validate", GLMARK2_SCENES, NULL};
    char *fxgl_argv[] = {"/bin/sh", fxgl_cmd, "--log", "debug", (char *)program, "--validate",
                         GLMARK2_SCENES, NULL};
    const char *env[8] = {"FXGL_TEST_MARK="};
    int e = 1;
    for (const char *const *x = env_extra; x && *x && e < 7; x++) {
        env[e++] = *x;
    }
    env[e] = NULL;
    int rc_plain = run_capture(plain_argv, env, out_plain);
    int rc_fxgl = run_capture(fxgl_argv, env, out_fxgl);
    int n_plain, n_fxgl, n_loaded, n_success;
    char *v_plain = lines_with(out_plain, "Validation:", &n_plain);
    char *v_fxgl = lines_with(out_fxgl, "Validation:", &n_fxgl);
    free(lines_with(out_fxgl, loaded, &n_loaded));
    free(lines_with(out_plain, "Validation: Success", &n_success));
    printf("%s --validate: exit %d, with fxgl %d; %d results, %d Success; the same with fxgl: "
           "%s\n", program, rc_plain, rc_fxgl, n_plain, n_success,
           strcmp(v_plain, v_fxgl) == 0 ? "yes" : "NO");
    why[0] = 0;
    if (rc_plain != 0 || rc_fxgl != 0) {
        snprintf(why, sizeof(why), "%s exit %d, with fxgl %d", program, rc_plain, rc_fxgl);
    } else if (n_plain != 6 || n_success < 4) {
        snprintf(why, sizeof(why), "%s: %d results, %d Success", program, n_plain, n_success);
    } else if (strcmp(v_plain, v_fxgl) != 0) {
        snprintf(why, sizeof(why), "%s --validate differs with fxgl:\n%s---\n%s", program,
                 v_plain, v_fxgl);
    } else if (n_loaded == 0) {
        snprintf(why, sizeof(why), "%s: fxgl's log lacks '%s' (not loaded?)", program, loaded);
    }
    free(v_plain);
    free(v_fxgl);
    unlink(out_plain);
    unlink(out_fxgl);
    return why[0] ? why : NULL;
}

START_TEST(glmark2_validate) {
    const char *progs[][2] = {{"/usr/bin/glmark2", "fxgl: debug: GLX vendor"},
                              {"/usr/bin/glmark2-es2", "fxgl: debug: EGL display"}};
    for (int i = 0; i < 2; i++) {
        if (!have(progs[i][0])) {
            printf("SKIP glmark2_validate: %s not installed\n", progs[i][0]);
            continue;
        }
        const char *why = validate_same(progs[i][0], progs[i][1], NULL);
        ck_assert_msg(why == NULL, "%s", why);
    }
}
END_TEST

START_TEST(glmark2_marked) {
    // The frames a real benchmark presents carry the mark (the effect slot ran).
    const char *progs[] = {"/usr/bin/glmark2", "/usr/bin/glmark2-es2"};
    for (int i = 0; i < 2; i++) {
        if (!have(progs[i])) {
            printf("SKIP glmark2_marked: %s not installed\n", progs[i]);
            continue;
        }
        grab g = run_external_argv(ARGS((char *)progs[i], "-s", "200x150", "-b",
                                        "build:duration=60"), // ended once the mark shows
                                   true, ENV("FXGL_TEST_MARK=1"), true);
        ck_assert_msg(g.presented && g.marked, "%s: presented %d marked %d", progs[i],
                      g.presented, g.marked);
    }
}
END_TEST

START_TEST(sdl2_dlopen_marked) {
    char path[1200];
    prog(path, sizeof(path), "ip_sdl_app");
    if (!have(path)) {
        printf("SKIP sdl2_dlopen_marked: ip_sdl_app not built (apt-get install libsdl2-dev)\n");
        return;
    }
    // SDL dlopens libGL and looks glXSwapBuffers up on that handle: our dlsym
    // hook hands it ours; with FXGL_GLVND=0 that is the only way in.
    const char *envs[][4] = {{"FXGL_TEST_MARK=1", "SDL_VIDEODRIVER=x11", NULL},
                             {"FXGL_TEST_MARK=1", "SDL_VIDEODRIVER=x11", "FXGL_GLVND=0"}};
    for (int i = 0; i < 2; i++) {
        grab g = run_external_argv(ARGS(path), true, envs[i], true);
        ck_assert_msg(g.presented && g.marked, "ip_sdl_app (%s): presented %d marked %d",
                      envs[i][2] ? envs[i][2] : "default", g.presented, g.marked);
    }
    grab g = run_external_argv(ARGS(path), true,
                               ENV("FXGL_TEST_MARK=1", "FXGL_GLVND=0", "FXGL_DLSYM=0"), false);
    ck_assert_msg(g.presented && !g.marked, "ip_sdl_app with both hooks off: marked");
}
END_TEST

// --- Wayland: weston's headless backend ---
//
// A private weston (own XDG_RUNTIME_DIR and socket) with the headless
// backend and its GL renderer, a 320x240 output, the default desktop shell,
// and --debug, which offers the weston_screenshooter protocol: the test reads
// back the compositor's OUTPUT (ip_wl_shot.c), i.e. what a user would see,
// not the client's buffer. Windows are placed by the shell (at random), so
// the checks count pixels of known colours anywhere on the output. Shots are
// retried every 100 ms until the expected picture is there or a timeout: the
// clients keep presenting meanwhile (ip_wl_app --seconds, glmark2's
// duration), and the first frames through fxgl pass through untouched while
// the effect compiles.

#define WESTON_W 320
#define WESTON_H 240
#define SHOT_TIMEOUT_MS 60000

// What one shot of the output holds: pixels of the colours the cases expect.
typedef struct shot_counts {
    int app_left, app_right;     // ip_wl_app's two halves as drawn
    int inv_left, inv_right;     // the same, inverted (255 - each component)
    int white, black;            // glmark2's black clear, and its inversion
    int magenta;                 // fxgl's test mark
    int mark_x0, mark_y0, mark_x1, mark_y1; // the magenta pixels' bounding box
    bool inv_left_beside_mark;   // the pixels right of and below the mark are inv_left
    bool white_beside_mark;      // ... are white
} shot_counts;

typedef struct weston_run {
    char runtime[32];            // its XDG_RUNTIME_DIR
    char socket_path[128];
    char xdg[64];                // "XDG_RUNTIME_DIR=..." for the clients
    char wl[96];                 // "WAYLAND_DISPLAY=..."
    pid_t pid;
    bool up;                     // its socket is there
    bool ready;                  // a shot showed the desktop, without any window we know
    char why[256];               // why not ready
} weston_run;

static bool shoot_until(const weston_run *w, bool (*done)(const shot_counts *),
                        shot_counts *last, int *shots, char *reason, size_t size);
static bool nothing_known_visible(const shot_counts *c);

static void weston_start(weston_run *w) {
    memset(w, 0, sizeof(*w));
    snprintf(w->runtime, sizeof(w->runtime), "/tmp/fxgl-xdg-XXXXXX");
    ck_assert(mkdtemp(w->runtime) != NULL);
    char socket[64], log[128], sock_opt[96], width[32], height[32];
    snprintf(socket, sizeof(socket), "fxgl-test-%d", (int)getpid());
    snprintf(w->xdg, sizeof(w->xdg), "XDG_RUNTIME_DIR=%s", w->runtime);
    snprintf(w->wl, sizeof(w->wl), "WAYLAND_DISPLAY=%s", socket);
    snprintf(log, sizeof(log), "--log=%s/weston.log", w->runtime);
    snprintf(sock_opt, sizeof(sock_opt), "--socket=%s", socket);
    snprintf(width, sizeof(width), "--width=%d", WESTON_W);
    snprintf(height, sizeof(height), "--height=%d", WESTON_H);
    w->pid = spawn(ARGS("/usr/bin/weston", "--backend=headless-backend.so", "--use-gl",
                        "--debug", width, height, "--idle-time=0", sock_opt, log),
                   ENV(w->xdg, "DISPLAY="));
    snprintf(w->socket_path, sizeof(w->socket_path), "%s/%s", w->runtime, socket);
    long deadline = now_ms() + 60000;
    while (access(w->socket_path, F_OK) != 0 && now_ms() < deadline &&
           waitpid(w->pid, NULL, WNOHANG) == 0) {
        usleep(50000);
    }
    w->up = access(w->socket_path, F_OK) == 0;
    if (w->up) {
        // Until the shell has painted its background the output is black,
        // which would pass for glmark2's black clear colour.
        shot_counts c;
        int shots;
        w->ready = shoot_until(w, nothing_known_visible, &c, &shots, w->why, sizeof(w->why));
    } else {
        snprintf(w->why, sizeof(w->why), "weston did not come up in 60 s");
    }
}

static void weston_stop(weston_run *w) {
    kill(w->pid, SIGTERM);
    reap(w->pid, 5000);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", w->runtime);
    ck_assert(system(cmd) == 0);
}

// False (the case returns) when weston is not there to test with: a skip
// when its screenshooter is missing (an older weston, or no --debug),
// otherwise a failure.
static bool weston_usable(weston_run *w, const char *test) {
    if (w->ready) {
        return true;
    }
    weston_stop(w);
    if (!w->up || strstr(w->why, "no weston_screenshooter")) {
        printf("SKIP %s: %s\n", test, w->why);
        return false;
    }
    ck_abort_msg("%s: weston's output never showed the bare desktop: %s", test, w->why);
    return false;
}

static bool rgb_is(const uint8_t *p, int r, int g, int b) {
    return p[0] == r && p[1] == g && p[2] == b;
}

static shot_counts count_shot(const ip_wl_shot *shot) {
    shot_counts c = {.mark_x0 = shot->width, .mark_y0 = shot->height, .mark_x1 = -1,
                     .mark_y1 = -1};
    for (int y = 0; y < shot->height; y++) {
        for (int x = 0; x < shot->width; x++) {
            const uint8_t *p = shot->rgb + ((size_t)y * shot->width + x) * 3;
            c.app_left += rgb_is(p, IP_WL_LEFT_R, IP_WL_LEFT_G, IP_WL_LEFT_B);
            c.app_right += rgb_is(p, IP_WL_RIGHT_R, IP_WL_RIGHT_G, IP_WL_RIGHT_B);
            c.inv_left += rgb_is(p, 255 - IP_WL_LEFT_R, 255 - IP_WL_LEFT_G, 255 - IP_WL_LEFT_B);
            c.inv_right +=
                rgb_is(p, 255 - IP_WL_RIGHT_R, 255 - IP_WL_RIGHT_G, 255 - IP_WL_RIGHT_B);
            c.white += rgb_is(p, 255, 255, 255);
            c.black += rgb_is(p, 0, 0, 0);
            if (rgb_is(p, 255, 0, 255)) {
                c.magenta++;
                c.mark_x0 = x < c.mark_x0 ? x : c.mark_x0;
                c.mark_y0 = y < c.mark_y0 ? y : c.mark_y0;
                c.mark_x1 = x > c.mark_x1 ? x : c.mark_x1;
                c.mark_y1 = y > c.mark_y1 ? y : c.mark_y1;
            }
        }
    }
    int rx = c.mark_x1 + 1, by = c.mark_y1 + 1;
    if (c.magenta > 0 && rx < shot->width && by < shot->height) {
        const uint8_t *right = shot->rgb + ((size_t)c.mark_y0 * shot->width + rx) * 3;
        const uint8_t *below = shot->rgb + ((size_t)by * shot->width + c.mark_x0) * 3;
        c.inv_left_beside_mark =
            rgb_is(right, 255 - IP_WL_LEFT_R, 255 - IP_WL_LEFT_G, 255 - IP_WL_LEFT_B) &&
            rgb_is(below, 255 - IP_WL_LEFT_R, 255 - IP_WL_LEFT_G, 255 - IP_WL_LEFT_B);
        c.white_beside_mark = rgb_is(right, 255, 255, 255) && rgb_is(below, 255, 255, 255);
    }
    return c;
}

// Shots every 100 ms until done() holds (true) or the timeout; *last is the
// last shot's counts, *shots how many were taken.
static bool shoot_until(const weston_run *w, bool (*done)(const shot_counts *),
                        shot_counts *last, int *shots, char *reason, size_t size) {
    long deadline = now_ms() + SHOT_TIMEOUT_MS;
    *shots = 0;
    memset(last, 0, sizeof(*last));
    snprintf(reason, size, "no shot taken");
    while (now_ms() < deadline) {
        ip_wl_shot shot;
        if (!ip_wl_shot_take(w->socket_path, &shot, reason, size)) {
            return false;
        }
        ++*shots;
        ck_assert_msg(shot.width == WESTON_W && shot.height == WESTON_H, "shot of %dx%d",
                      shot.width, shot.height);
        *last = count_shot(&shot);
        ip_wl_shot_free(&shot);
        if (done(last)) {
            return true;
        }
        usleep(100000);
    }
    snprintf(reason, size, "not there in %d shots over %d s", *shots, SHOT_TIMEOUT_MS / 1000);
    return false;
}

#define APP_PIXELS (IP_WL_W / 2 * IP_WL_H) // one half of ip_wl_app's surface
#define MARK_PIXELS 64

static bool app_plain_visible(const shot_counts *c) {
    return c->app_left == APP_PIXELS && c->app_right == APP_PIXELS;
}

// Inverted, with the mark (drawn after the effect) in the left half's corner.
static bool app_inverted_visible(const shot_counts *c) {
    return c->inv_left == APP_PIXELS - MARK_PIXELS && c->inv_right == APP_PIXELS &&
           c->magenta == MARK_PIXELS;
}

static void print_counts(const char *what, const shot_counts *c, int shots) {
    printf("%s: %d shot(s); drawn %d+%d, inverted %d+%d, white %d, black %d, magenta %d "
           "(box %d,%d-%d,%d)\n", what, shots, c->app_left, c->app_right, c->inv_left,
           c->inv_right, c->white, c->black, c->magenta, c->mark_x0, c->mark_y0, c->mark_x1,
           c->mark_y1);
}

// Starts argv (through fxgl when via_fxgl) as a Wayland client of w;
// fxgl's debug log goes to w's runtime/fxgl.log.
static pid_t spawn_client(const weston_run *w, char *const argv[], bool via_fxgl) {
    char *full[16] = {"/bin/sh", fxgl_cmd};
    int n = via_fxgl ? 2 : 0;
    for (char *const *a = argv; *a && n < 15; a++) {
        full[n++] = *a;
    }
    full[n] = NULL;
    char log[96];
    snprintf(log, sizeof(log), "FXGL_LOG_FILE=%s/fxgl.log", w->runtime);
    return spawn(full, ENV(w->xdg, w->wl, "DISPLAY=", "FXGL_TEST_MARK=1", preset("invert.ini"),
                           effect_paths(), "FXGL_LOG=debug", log));
}

// How many lines of w's fxgl.log contain needle; the log is removed.
static int fxgl_log_lines(const weston_run *w, const char *needle) {
    char path[96];
    snprintf(path, sizeof(path), "%s/fxgl.log", w->runtime);
    if (access(path, R_OK) != 0) {
        return 0;
    }
    int n = 0;
    free(lines_with(path, needle, &n));
    unlink(path);
    return n;
}

static bool nothing_known_visible(const shot_counts *c) {
    return c->app_left + c->app_right + c->inv_left + c->inv_right + c->magenta == 0 &&
           c->black < 200 * 150 / 20 && c->white < 200 * 150 / 20;
}

// Kills the client and waits until weston has taken its window away, so the
// next client's shots cannot show this one's last frame.
// False when it stays (the caller fails after stopping weston).
static bool stop_client(const weston_run *w, pid_t pid) {
    kill(pid, SIGTERM);
    reap(pid, 5000);
    shot_counts c;
    int shots;
    char reason[256];
    return shoot_until(w, nothing_known_visible, &c, &shots, reason, sizeof(reason));
}

START_TEST(weston_wayland_inverted) {
    if (!have("/usr/bin/weston")) {
        printf("SKIP weston_wayland_inverted: needs weston\n");
        return;
    }
    char app[1200];
    prog(app, sizeof(app), "ip_wl_app");
    weston_run w;
    weston_start(&w);
    if (!weston_usable(&w, "weston_wayland_inverted")) {
        return;
    }
    char reason[256];
    shot_counts c;
    int shots = 0;
    // Without fxgl: the picture as drawn, nothing inverted, no mark.
    pid_t pid = spawn_client(&w, ARGS(app, "--seconds", "30"), false);
    bool seen = shoot_until(&w, app_plain_visible, &c, &shots, reason, sizeof(reason));
    bool gone = stop_client(&w, pid);
    print_counts("ip_wl_app without fxgl", &c, shots);
    bool plain_ok = seen && c.inv_left == 0 && c.inv_right == 0 && c.magenta == 0;
    // Through fxgl with Invert.fx, by eglGetPlatformDisplay and by eglGetDisplay.
    const char *modes[] = {"--platform-display", "--get-display"};
    bool fx_seen[2] = {false, false};
    shot_counts fx[2];
    int fx_shots[2], queues[2];
    char fx_reason[2][256];
    for (int i = 0; i < 2; i++) {
        pid = spawn_client(&w, ARGS(app, "--seconds", "30", (char *)modes[i]), true);
        fx_seen[i] = shoot_until(&w, app_inverted_visible, &fx[i], &fx_shots[i], fx_reason[i],
                                 sizeof(fx_reason[i]));
        gone = stop_client(&w, pid) && gone;
        // The frame hook handed the program's wl_display to Wayland input.
        queues[i] = fxgl_log_lines(&w, "Wayland input: private event queue on wl_display");
        print_counts(modes[i], &fx[i], fx_shots[i]);
    }
    weston_stop(&w);
    ck_assert_msg(gone, "a killed client's window stayed on weston's output");
    ck_assert_msg(seen, "ip_wl_app never showed its picture on weston's output: %s", reason);
    ck_assert_msg(plain_ok, "ip_wl_app without fxgl shows inverted pixels or a mark");
    for (int i = 0; i < 2; i++) {
        ck_assert_msg(fx_seen[i], "%s: the inverted picture never appeared: %s", modes[i],
                      fx_reason[i]);
        ck_assert_msg(fx[i].app_left == 0 && fx[i].app_right == 0,
                      "%s: un-inverted pixels beside the inverted ones", modes[i]);
        ck_assert_msg(fx[i].mark_x1 - fx[i].mark_x0 == 7 && fx[i].mark_y1 - fx[i].mark_y0 == 7,
                      "%s: the mark is not one 8x8 square", modes[i]);
        ck_assert_msg(fx[i].inv_left_beside_mark,
                      "%s: the mark is not at the inverted surface's top-left corner", modes[i]);
        ck_assert_msg(queues[i] == 1, "%s: fxgl's log has %d private Wayland queue(s), want 1",
                      modes[i], queues[i]);
    }
}
END_TEST

static bool glmark2_plain_visible(const shot_counts *c) {
    // Most of glmark2's 200x150 surface is its black clear colour.
    return c->black >= 200 * 150 / 2;
}

static bool glmark2_inverted_visible(const shot_counts *c) {
    return c->white >= 200 * 150 / 2 && c->magenta == MARK_PIXELS;
}

// glmark2's Wayland builds (programs nobody here wrote; -es2 on GLES, the
// other on desktop GL through EGL) on weston: their frames, read back from
// the compositor's output, are inverted through fxgl and not without;
// --validate gives the same results with and without fxgl. Returns NULL or
// what went wrong.
static const char *glmark2_on_weston(weston_run *w, const char *glmark2) {
    static char fail[1024];
    const char *why = validate_same(glmark2, "fxgl: debug: EGL display",
                                    ENV(w->xdg, w->wl, "DISPLAY="));
    if (why) {
        return why;
    }
    char reason[2][256];
    shot_counts c[2];
    int shots[2];
    bool seen[2];
    bool gone = true;
    int queues = 0;
    for (int i = 0; i < 2; i++) {
        bool via_fxgl = i == 1;
        pid_t pid = spawn_client(w, ARGS((char *)glmark2, "-s", "200x150", "-b",
                                         "build:duration=30"),
                                 via_fxgl);
        seen[i] = shoot_until(w, via_fxgl ? glmark2_inverted_visible : glmark2_plain_visible,
                              &c[i], &shots[i], reason[i], sizeof(reason[i]));
        gone = stop_client(w, pid) && gone;
        if (via_fxgl) {
            queues = fxgl_log_lines(w, "Wayland input: private event queue on wl_display");
        }
        char label[300];
        snprintf(label, sizeof(label), "%s%s", glmark2, via_fxgl ? " through fxgl" : "");
        print_counts(label, &c[i], shots[i]);
    }
    if (!gone) {
        snprintf(fail, sizeof(fail), "%s: a killed client's window stayed on weston's output",
                 glmark2);
    } else if (!seen[0]) {
        snprintf(fail, sizeof(fail), "%s never visible on weston's output: %s", glmark2,
                 reason[0]);
    } else if (c[0].magenta != 0 || c[0].white >= 200 * 150 / 20) {
        snprintf(fail, sizeof(fail), "%s without fxgl: mark or white (inverted) pixels", glmark2);
    } else if (!seen[1]) {
        snprintf(fail, sizeof(fail), "%s through fxgl: never inverted with the mark: %s", glmark2,
                 reason[1]);
    } else if (c[1].mark_x1 - c[1].mark_x0 != 7 || c[1].mark_y1 - c[1].mark_y0 != 7 ||
               !c[1].white_beside_mark) {
        snprintf(fail, sizeof(fail), "%s through fxgl: the mark is not one 8x8 square at the "
                 "corner of an inverted (white) background", glmark2);
    } else if (queues != 1) {
        // Its wl_display reached Wayland input (captured at its EGL display);
        // the log is per weston run, so this counts the one fxgl client so far.
        snprintf(fail, sizeof(fail), "%s: %d private Wayland queue(s), want 1", glmark2, queues);
    } else {
        return NULL;
    }
    return fail;
}

START_TEST(weston_glmark2_wayland) {
    const char *progs[] = {"/usr/bin/glmark2-es2-wayland", "/usr/bin/glmark2-wayland"};
    if (!have("/usr/bin/weston")) {
        printf("SKIP weston_glmark2_wayland: needs weston\n");
        return;
    }
    for (int i = 0; i < 2; i++) {
        if (!have(progs[i])) {
            printf("SKIP weston_glmark2_wayland: %s not installed (Debian: %s)\n", progs[i],
                   progs[i] + strlen("/usr/bin/"));
            continue;
        }
        weston_run w;
        weston_start(&w);
        if (!weston_usable(&w, "weston_glmark2_wayland")) {
            return;
        }
        const char *why = glmark2_on_weston(&w, progs[i]);
        weston_stop(&w);
        ck_assert_msg(why == NULL, "%s", why);
    }
}
END_TEST

#define MANGOHUD_DIR "/usr/lib/x86_64-linux-gnu/mangohud"

START_TEST(mangohud_both_orders) {
    const char *hud = MANGOHUD_DIR "/libMangoHud.so";
    const char *hud_dlsym = MANGOHUD_DIR "/libMangoHud_dlsym.so";
    if (!have("/usr/bin/glxgears") || access(hud, R_OK) != 0) {
        printf("SKIP mangohud_both_orders: needs glxgears and Debian's mangohud "
               "(apt-get install mangohud)\n");
        return;
    }
    char first[4096], second[4096], plain[4096];
    // fxgl first: `fxgl` prepends itself to the LD_PRELOAD it finds.
    snprintf(first, sizeof(first), "LD_PRELOAD=%s:%s", hud, hud_dlsym);
    // MangoHud first: fxgl already listed, so `fxgl` keeps the order.
    // MangoHud's glXSwapBuffers then calls libGLX's directly; only the
    // vendor wrapper (vendor.c) sees the frame.
    snprintf(second, sizeof(second), "LD_PRELOAD=%s:%s:%s", hud, hud_dlsym, library);
    // MangoHud first without its dlsym library (what `mangohud` does by default).
    snprintf(plain, sizeof(plain), "LD_PRELOAD=%s:%s", hud, library);
    // The HUD: a solid green block in the bottom-right corner, away from the mark.
    const char *cfg = "MANGOHUD_CONFIG=position=bottom-right,background_color=00ff00,"
                      "background_alpha=1";
    const char *orders[][2] = {{"fxgl:mangohud", first}, {"mangohud:fxgl", second},
                               {"mangohud(no dlsym):fxgl", plain}};
    for (int i = 0; i < 3; i++) {
        grab g = run_external_until(ARGS((char *)"/usr/bin/glxgears"), true,
                                    ENV("FXGL_TEST_MARK=1", "MANGOHUD=1", cfg, orders[i][1]),
                                    false, seen_mark_and_hud);
        printf("%s: %d images, mark %s, %d unmarked after the first mark, HUD %s\n",
               orders[i][0], g.samples, g.marked ? "yes" : "no", g.unmarked_after_mark,
               g.hud ? "yes" : "no");
        ck_assert_msg(g.presented, "%s: no frames (hang?)", orders[i][0]);
        ck_assert_msg(g.marked, "%s: fxgl did not see the frames (no mark)", orders[i][0]);
        ck_assert_msg(g.unmarked_after_mark == 0, "%s: %d frames without the mark",
                      orders[i][0], g.unmarked_after_mark);
        ck_assert_msg(g.hud, "%s: MangoHud drew nothing", orders[i][0]);
    }
    // And the HUD detector sees nothing without MangoHud.
    grab none = run_external("/usr/bin/glxgears", true, ENV("FXGL_TEST_MARK=1"), false);
    ck_assert_msg(none.presented && !none.hud, "HUD seen without MangoHud");
}
END_TEST

static void add(Suite *s, const char *name, const TTest *test) {
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
}

int main(void) {
#ifdef FXGL_TEST_SANITIZERS
    // An ASan-built libfxgl.so needs the ASan runtime first in LD_PRELOAD, and
    // the runtime itself calls dlsym (ours) while it initialises; the preload
    // tests run in the plain build. config and table logic still run under
    // the sanitizers in test_config.
    printf("SKIP: preload tests do not run in the sanitizer build (see the comment)\n");
    return FXGL_TEST_SKIP;
#endif
    const char *top = getenv("FXGL_TOP_BUILDDIR");
    snprintf(builddir, sizeof(builddir), "%s", top && top[0] ? top : ".");
    snprintf(fxgl_cmd, sizeof(fxgl_cmd), "%s/tests/interpose/fxgl-uninstalled", builddir);
    snprintf(library, sizeof(library), "%s/.libs/libfxgl.so", builddir);
    if (access(library, R_OK) != 0 || access(fxgl_cmd, R_OK) != 0) {
        printf("FAIL: %s or %s missing\n", library, fxgl_cmd);
        return EXIT_FAILURE;
    }
    char reason[256];
    if (!fxgl_test_xvfb_start(&xvfb, 1024, 768, 60000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    XSetErrorHandler(tolerate_x_error); // process-wide: every watcher's display
    Suite *s = suite_create("preload");
#ifdef IP_WINE_ONLY
    // test_preload_wine: the Wine case alone (its first run creates a Wine
    // prefix, ~40 s), so it runs beside test_preload under make -j.
    add(s, "wine_wgl_inverted", wine_wgl_inverted);
#else
    (void)wine_wgl_inverted; // test_preload_wine's
    add(s, "glx_linked_marked", glx_linked_marked);
    add(s, "dlopen_caller_kept", dlopen_caller_kept);
    add(s, "glx_linked_without_fxgl", glx_linked_without_fxgl);
    add(s, "glx_exit_code_kept", glx_exit_code_kept);
    add(s, "glx_msc_oml", glx_msc_oml);
    add(s, "glx_two_windows", glx_two_windows);
    add(s, "glx_resize", glx_resize);
    add(s, "glx_depth_visuals", glx_depth_visuals);
    add(s, "glx_depth_fbo", glx_depth_fbo);
    add(s, "glx_depth_fbo_config", glx_depth_fbo_config);
    add(s, "glx_tiny_skipped", glx_tiny_skipped);
    add(s, "glx_disabled", glx_disabled);
    add(s, "glx_blacklist_env", glx_blacklist_env);
    add(s, "glx_blacklist_builtin", glx_blacklist_builtin);
    add(s, "glfw_path_dlsym", glfw_path_dlsym);
    add(s, "glfw_path_no_dlsym", glfw_path_no_dlsym);
    add(s, "glvnd_only", glvnd_only);
    add(s, "rtld_next_chain", rtld_next_chain);
    add(s, "wine_path", wine_path);
    add(s, "egl_swap_gles", egl_swap_gles);
    add(s, "egl_damage_gl", egl_damage_gl);
    add(s, "egl_damage_widened", egl_damage_widened);
    add(s, "glxgears_marked", glxgears_marked);
    add(s, "es2gears_marked", es2gears_marked);
    add(s, "glxgears32_marked", glxgears32_marked);
    add(s, "effect_inverted_glx", effect_inverted_glx);
    add(s, "effect_inverted_egl", effect_inverted_egl);
    add(s, "effect_toggle_key", effect_toggle_key);
    add(s, "effect_namespaced_preset_value", effect_namespaced_preset_value);
    add(s, "effect_next_preset_key", effect_next_preset_key);
    add(s, "effect_live_reload", effect_live_reload);
    add(s, "effect_performance_mode_key", effect_performance_mode_key);
    add(s, "effect_preset_transition", effect_preset_transition);
    add(s, "effect_resize_recompile", effect_resize_recompile);
    add(s, "glx_resize_every_frame", glx_resize_every_frame);
    add(s, "glx_no_request_per_swap", glx_no_request_per_swap);
    add(s, "egl_resize_every_frame", egl_resize_every_frame);
    add(s, "egl_no_request_per_swap", egl_no_request_per_swap);
    add(s, "input_polled_only_when_read", input_polled_only_when_read);
    add(s, "effect_failures_pass_through", effect_failures_pass_through);
    add(s, "glxgears_inverted", glxgears_inverted);
    add(s, "mangohud_both_orders", mangohud_both_orders);
    add(s, "glmark2_validate", glmark2_validate);
    add(s, "glmark2_marked", glmark2_marked);
    add(s, "sdl2_dlopen_marked", sdl2_dlopen_marked);
    add(s, "weston_wayland_inverted", weston_wayland_inverted);
    add(s, "weston_glmark2_wayland", weston_glmark2_wayland);
#endif
    SRunner *sr = srunner_create(s);
    // No fork: Xvfb belongs to this process; every child has its own timeout.
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    fxgl_test_xvfb_stop(&xvfb);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
