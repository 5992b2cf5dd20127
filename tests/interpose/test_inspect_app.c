/*
 * test_inspect_app.c - issue 10 through the preloaded library on a real
 * program: glxgears under Xvfb, run by `fxgl` with the Invert.fx test
 * preset, driven by `fxgl ctl` over its control socket.
 *
 * glxgears clears to black, so the window's top-left corner reads white
 * while Invert.fx runs and black while effects are off. Each command's
 * effect is read from the window right after fxgl-ctl got its reply (the
 * reply is sent from the frame that applied it, so the next presented frame
 * shows it); the test allows the frame after that too. Also checked: the
 * dump file (with the preset's Broken.fx listed as a compile error), a
 * malformed command, a screenshot file, `reload` after editing the effect,
 * SIGUSR1's dump in the log.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_test.h"

static fxgl_test_xvfb xvfb;
static char dir[256];
static pid_t app;
static Display *dpy;

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// The top-left corner of the first big mapped window: 1 white, 0 black, 2 red,
// -1 none yet.
static int corner(void) {
    Window root_ret, parent, *kids = NULL;
    unsigned int nkids = 0;
    int result = -1;
    if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root_ret, &parent, &kids, &nkids)) {
        return -1;
    }
    for (unsigned int i = 0; i < nkids && result < 0; i++) {
        XWindowAttributes wa;
        if (!XGetWindowAttributes(dpy, kids[i], &wa) || wa.map_state != IsViewable ||
            wa.width < 100 || wa.height < 100) {
            continue;
        }
        XImage *img = XGetImage(dpy, kids[i], 0, 0, 8, 8, AllPlanes, ZPixmap);
        if (img) {
            unsigned long p = XGetPixel(img, 2, 2) & 0xffffff;
            result = p == 0xffffffUL ? 1 : p == 0 ? 0 : p == 0xff0000UL ? 2 : -1;
            XDestroyImage(img);
        }
    }
    XFree(kids);
    return result;
}

static int wait_corner(int want, long timeout_ms) {
    long end = now_ms() + timeout_ms;
    int grabs = 0;
    while (now_ms() < end) {
        grabs++;
        if (corner() == want) {
            return grabs;
        }
        usleep(10000);
    }
    return -1;
}

// fxgl ctl args...: exit status, output into out.
static int ctl(char *out, size_t size, const char *cmd) {
    char line[1024];
    snprintf(line, sizeof(line), "XDG_RUNTIME_DIR='%s' /bin/sh '%s' ctl -p %ld %s 2>&1", dir,
             FXGL_SCRIPT_PATH, (long)app, cmd);
    FILE *p = popen(line, "r");
    ck_assert(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool file_has(const char *path, const char *needle) {
    FILE *f = fopen(path, "r");
    if (!f) {
        return false;
    }
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    return strstr(buf, needle) != NULL;
}

START_TEST(glxgears_controlled) {
    char path[600], out[1024];
    snprintf(path, sizeof(path), "%s/fxgl-%ld.sock", dir, (long)app);
    long end = now_ms() + 20000;
    struct stat st;
    while (now_ms() < end && stat(path, &st) != 0) {
        usleep(50000);
    }
    ck_assert_msg(stat(path, &st) == 0, "no control socket %s", path);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_msg(wait_corner(1, 15000) > 0, "glxgears never showed inverted");

    ck_assert_int_eq(ctl(out, sizeof(out), "disable all"), 0);
    ck_assert_str_eq(out, "effects off\n");
    int grabs = wait_corner(0, 2000);
    printf("disable all: effects off in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs >= 1 && grabs <= 2, "effects still on %d grabs after the reply", grabs);

    ck_assert_int_eq(ctl(out, sizeof(out), "enable all"), 0);
    grabs = wait_corner(1, 2000);
    printf("enable all: effects on in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs >= 1 && grabs <= 2, "effects still off %d grabs after the reply", grabs);

    ck_assert_int_eq(ctl(out, sizeof(out), "visualise Nope.fx:X"), 1);
    ck_assert_str_eq(out, "error: visualise 'Nope.fx:X': no effect named 'Nope.fx' is loaded; "
                          "nothing changed\n");
    ck_assert_int_eq(wait_corner(1, 500), 1); // nothing changed

    char dump[600];
    snprintf(dump, sizeof(dump), "%s/dump.txt", dir);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "dump %s", dump);
    ck_assert_int_eq(ctl(out, sizeof(out), cmd), 0);
    ck_assert_msg(file_has(dump, "effect 0 Invert.fx: loaded\n"), "dump: %s", dump);
    ck_assert(file_has(dump, "effect - Broken.fx: compile error\n  diagnostic: "));
    ck_assert(file_has(dump, "undeclared_value"));
    ck_assert(file_has(dump, "  technique Invert: ran, gpu "));
    ck_assert(file_has(dump, "fxgl dump: frame "));

    ck_assert_int_eq(ctl(out, sizeof(out), "screenshot"), 0);
    bool found = false;
    end = now_ms() + 5000;
    while (!found && now_ms() < end) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t n = strlen(e->d_name);
            found |= strncmp(e->d_name, "glxgears_broken_", 16) == 0 && n > 4 &&
                     strcmp(e->d_name + n - 4, ".png") == 0;
            if (found) {
                snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
                break;
            }
        }
        if (d) {
            closedir(d);
        }
        usleep(20000);
    }
    ck_assert_msg(found, "no glxgears_broken_*.png in %s", dir);
    usleep(100000); // renamed into place complete: the name only appears then
    fxgl_image shot;
    ck_assert(fxgl_image_load_png(&shot, path));
    ck_assert_int_ge(shot.width, 100);
    const uint8_t *px = fxgl_image_at(&shot, 2, 2);
    ck_assert_msg(px[0] == 255 && px[1] == 255 && px[2] == 255, "screenshot corner %d %d %d",
                  px[0], px[1], px[2]);
    fxgl_image_free(&shot);

    // reload: the edited file is compiled again (Invert.fx now paints red).
    char fx[600];
    snprintf(fx, sizeof(fx), "%s/fx/Invert.fx", dir);
    FILE *f = fopen(fx, "w");
    ck_assert(f);
    fputs("void VS(in uint id : SV_VertexID, out float4 p : SV_Position) {\n"
          "    float2 t = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
          "    p = float4(t * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n}\n"
          "float4 PS(float4 p : SV_Position) : SV_Target { return float4(1.0, 0.0, 0.0, 1.0); }\n"
          "technique Invert { pass { VertexShader = VS; PixelShader = PS; } }\n", f);
    fclose(f);
    ck_assert_int_eq(ctl(out, sizeof(out), "reload"), 0);
    ck_assert_str_eq(out, "reloading: the effects recompile from their files at the next "
                          "frame\n");
    grabs = wait_corner(2, 10000);
    printf("reload: the edited effect shows in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "the reloaded effect never showed");
    ck_assert_int_eq(ctl(out, sizeof(out), cmd), 0); // the new runtime's dump
    ck_assert(file_has(dump, "effect - Broken.fx: compile error\n"));
    ck_assert(file_has(dump, "  technique Invert: ran"));

    // SIGUSR1: a dump in the log.
    char log[600];
    snprintf(log, sizeof(log), "%s/log.txt", dir);
    kill(app, SIGUSR1);
    end = now_ms() + 5000;
    while (now_ms() < end && !file_has(log, "dump: fxgl dump: frame")) {
        usleep(50000);
    }
    ck_assert_msg(file_has(log, "dump: fxgl dump: frame"), "no SIGUSR1 dump in %s", log);
    ck_assert(file_has(log, "dump:   technique Invert: ran"));
}
END_TEST

int main(void) {
#ifdef FXGL_TEST_SANITIZERS
    // As test_preload: an ASan-built libfxgl.so cannot be preloaded into a
    // plain program; control.c runs under the sanitizers in test_control.
    printf("SKIP: preload tests do not run in the sanitizer build\n");
    return FXGL_TEST_SKIP;
#endif
    if (access("/usr/bin/glxgears", X_OK) != 0) {
        printf("SKIP: glxgears absent (apt-get install mesa-utils)\n");
        return FXGL_TEST_SKIP;
    }
    char reason[256];
    if (!fxgl_test_xvfb_start(&xvfb, 640, 480, 10000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    snprintf(dir, sizeof(dir), "%s/inspect-app-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                          : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    dpy = XOpenDisplay(xvfb.display_name);
    if (!dpy) {
        printf("SKIP: cannot open %s\n", xvfb.display_name);
        return FXGL_TEST_SKIP;
    }
    char cmd[900];
    snprintf(cmd, sizeof(cmd), "mkdir '%s/fx' && cp '%s/interpose/data/Invert.fx' "
             "'%s/interpose/data/Broken.fx' '%s/fx/'", dir, FXGL_TEST_SRCDIR, FXGL_TEST_SRCDIR,
             dir);
    if (system(cmd) != 0) {
        printf("cannot copy the test effects\n");
        return 1;
    }
    app = fork();
    if (app == 0) {
        char env[6][700];
        // Invert.fx and Broken.fx copied, so the test can edit one and reload.
        snprintf(env[0], sizeof(env[0]), "%s/interpose/data/broken.ini", FXGL_TEST_SRCDIR);
        snprintf(env[1], sizeof(env[1]), "%s/fx", dir);
        snprintf(env[2], sizeof(env[2]), "%s/log.txt", dir);
        setenv("FXGL_PRESET", env[0], 1);
        setenv("FXGL_EFFECT_PATHS", env[1], 1);
        setenv("FXGL_LOG_FILE", env[2], 1);
        setenv("FXGL_LOG", "info", 1);
        setenv("XDG_RUNTIME_DIR", dir, 1);
        setenv("FXGL_SCREENSHOT_DIR", dir, 1);
        unsetenv("LD_PRELOAD");
        execl("/bin/sh", "sh", FXGL_SCRIPT_PATH, "/usr/bin/glxgears", (char *)NULL);
        _exit(127);
    }
    Suite *s = suite_create("inspect_app");
    TCase *tc = tcase_create("inspect_app");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, glxgears_controlled);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK); // app and dpy belong to this process
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    kill(app, SIGTERM);
    waitpid(app, NULL, 0);
    XCloseDisplay(dpy);
    fxgl_test_xvfb_stop(&xvfb);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        return 1;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
