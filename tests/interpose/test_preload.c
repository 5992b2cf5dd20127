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

#define CHILD_TIMEOUT_MS 20000
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

// --- programs nobody here wrote ---

typedef struct grab {
    bool presented;              // frames with content seen
    bool marked;                 // the corner was magenta
    int samples;                 // images with content
    int unmarked_after_mark;     // images with content but no mark, after a marked one
    bool hud;                    // MangoHud's HUD (green background, bottom right) seen
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
// mark shows (want_mark) or for 1 s after frames appear (otherwise).
static grab watch(Display *dpy, pid_t pid, bool want_mark, long timeout_ms) {
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
                XDestroyImage(img);
            }
            break;
        }
        XFree(kids);
        if (want_mark && g.marked && g.presented) {
            break;
        }
        if (g.presented && !settle) {
            settle = now_ms() + 1000;
        }
        if (settle && now_ms() > settle) {
            break;
        }
    }
    return g;
}

// Runs an outside program (through fxgl when via_fxgl) and watches it.
static grab run_external(const char *program, bool via_fxgl, const char *const env[],
                         bool want_mark) {
    char *argv_fxgl[] = {"/bin/sh", fxgl_cmd, (char *)program, NULL};
    char *argv_plain[] = {(char *)program, NULL};
    Display *dpy = XOpenDisplay(xvfb.display_name);
    ck_assert(dpy != NULL);
    pid_t pid = spawn(via_fxgl ? argv_fxgl : argv_plain, env);
    grab g = watch(dpy, pid, want_mark, 15000);
    bool exited = waitpid(pid, NULL, WNOHANG) != 0;
    kill(pid, SIGTERM);
    int rc = reap(pid, 5000);
    XCloseDisplay(dpy);
    ck_assert_msg(!exited, "%s exited early (a crash?)", program);
    ck_assert_msg(rc != TIMED_OUT, "%s did not stop on SIGTERM", program);
    return g;
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
        grab g = run_external("/usr/bin/glxgears", true,
                              ENV("FXGL_TEST_MARK=1", "MANGOHUD=1", cfg, orders[i][1]), false);
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
    tcase_set_timeout(tc, 90);
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
    if (!fxgl_test_xvfb_start(&xvfb, 1024, 768, 10000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    Suite *s = suite_create("preload");
    add(s, "glx_linked_marked", glx_linked_marked);
    add(s, "dlopen_caller_kept", dlopen_caller_kept);
    add(s, "glx_linked_without_fxgl", glx_linked_without_fxgl);
    add(s, "glx_exit_code_kept", glx_exit_code_kept);
    add(s, "glx_msc_oml", glx_msc_oml);
    add(s, "glx_two_windows", glx_two_windows);
    add(s, "glx_resize", glx_resize);
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
    add(s, "glxgears_marked", glxgears_marked);
    add(s, "es2gears_marked", es2gears_marked);
    add(s, "mangohud_both_orders", mangohud_both_orders);
    SRunner *sr = srunner_create(s);
    // No fork: Xvfb belongs to this process; every child has its own timeout.
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    fxgl_test_xvfb_stop(&xvfb);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
