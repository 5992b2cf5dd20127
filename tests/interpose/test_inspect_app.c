/*
 * test_inspect_app.c - the inspection layer through the preloaded library on a real
 * program: glxgears under Xvfb, run by `fxgl` with the Invert.fx test
 * preset, driven by `fxgl ctl` over its control socket.
 *
 * glxgears clears to black, so the window's top-left corner reads white
 * while Invert.fx runs and black while effects are off. Each command's
 * effect is read from the window right after fxgl-ctl got its reply (the
 * reply is sent from the frame that applied it, so the next presented frame
 * shows it). The grab count after the reply is printed (1-3 here: a grab
 * every 10 ms while glxgears draws a frame in a few ms); the assertion is
 * a time bound (REPLY_SHOWN_MS, generous: glxgears' next frame can take long
 * on a loaded machine, and the wait ends as soon as it shows), since grabs
 * are no frame counter under load - the
 * exact bound (the frame that polls a command shows it) is checked
 * headlessly in test_control. Also checked: the
 * dump file (with the preset's Broken.fx listed as a compile error), a
 * malformed command, a screenshot file, `reload` after editing the effect,
 * SIGUSR1's dump in the log.
 *
 * FXGL_DUMP on programs that end normally (the way a user reads it after
 * a run): glmark2 with a short benchmark, which exits with its context
 * still alive (the dump comes from the exit handler), and glxgears ended
 * by an Escape key sent through XTest, which unbinds and destroys its
 * context first (the dump comes from the context's destruction, while the
 * effects it names still exist). Each file must hold the last frame's
 * records - the effect loaded, Invert having run with numeric GPU times
 * per technique and pass, Broken.fx's compile error at the line and
 * column found here in the file - with no temporary file left, and the
 * program's exit status must be the one it has without fxgl.
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_test.h"

// Frames of timer queries fxgl keeps in flight (GL_RT_QUERY_RING in
// src/gl/gl_runtime.h): a technique's GPU time has its first sample once it
// has run more frames than this.
#define QUERY_LAG 4

// How long the window may take to show what a command's reply announced:
// the next frame of glxgears, a few ms on an idle machine.
#define REPLY_SHOWN_MS 15000

static fxgl_test_xvfb xvfb;
static char dir[256];
static pid_t app;
static Display *dpy;

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

// The programs under test destroy their windows while app_window lists and
// reads them (and the server destroys a dead client's windows only when it
// gets round to the closed connection): Xlib's default handler would exit
// this test on the BadWindow that follows. A window gone between the listing
// and the query is simply not looked at.
static int tolerate_x_error(Display *d, XErrorEvent *ev) {
    (void)d;
    (void)ev;
    return 0;
}

// The first big mapped top-level window, 0 when there is none.
static Window app_window(void) {
    Window root_ret, parent, *kids = NULL, found = 0;
    unsigned int nkids = 0;
    if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root_ret, &parent, &kids, &nkids)) {
        return 0;
    }
    for (unsigned int i = 0; i < nkids && !found; i++) {
        XWindowAttributes wa;
        if (XGetWindowAttributes(dpy, kids[i], &wa) && wa.map_state == IsViewable &&
            wa.width >= 100 && wa.height >= 100) {
            found = kids[i];
        }
    }
    XFree(kids);
    return found;
}

// The top-left corner of the first big mapped window: 1 white, 0 black, 2 red,
// 3 the overlay panel over white (60% black: 102), -1 none yet.
static int corner(void) {
    Window w = app_window();
    int result = -1;
    XImage *img = w ? XGetImage(dpy, w, 0, 0, 8, 8, AllPlanes, ZPixmap) : NULL;
    if (img) {
        unsigned long p = XGetPixel(img, 2, 2) & 0xffffff;
        int r = (int)(p >> 16), g = (int)(p >> 8 & 0xff), b = (int)(p & 0xff);
        bool panel = abs(r - 102) <= 2 && abs(g - 102) <= 2 && abs(b - 102) <= 2;
        result = p == 0xffffffUL ? 1 : p == 0 ? 0 : p == 0xff0000UL ? 2 : panel ? 3 : -1;
        XDestroyImage(img);
    }
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

// How many times needle occurs in the file at path.
static int file_count(const char *path, const char *needle) {
    if (!file_has(path, needle)) {
        return 0;
    }
    int n = 0;
    FILE *f = fopen(path, "r");
    static char buf[65536];
    size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    buf[len] = 0;
    if (f) {
        fclose(f);
    }
    for (const char *p = strstr(buf, needle); p; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
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
    ck_assert_msg(wait_corner(1, 60000) > 0, "glxgears never showed inverted");

    ck_assert_int_eq(ctl(out, sizeof(out), "disable all"), 0);
    ck_assert_str_eq(out, "effects off\n");
    int grabs = wait_corner(0, REPLY_SHOWN_MS);
    printf("disable all: effects off in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "effects still on %d ms after the reply", REPLY_SHOWN_MS);

    ck_assert_int_eq(ctl(out, sizeof(out), "enable all"), 0);
    grabs = wait_corner(1, REPLY_SHOWN_MS);
    printf("enable all: effects on in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "effects still off %d ms after the reply", REPLY_SHOWN_MS);

    ck_assert_int_eq(ctl(out, sizeof(out), "visualise Nope.fx:X"), 1);
    ck_assert_str_eq(out, "error: visualise 'Nope.fx:X': no effect named 'Nope.fx' is loaded; "
                          "nothing changed\n");
    ck_assert_int_eq(wait_corner(1, 500), 1); // nothing changed

    // The overlay on the default framebuffer: its panel over the white corner.
    // The first time its program is compiled in that frame (tens of ms on
    // llvmpipe); after that it comes and goes at once.
    ck_assert_int_eq(ctl(out, sizeof(out), "overlay on"), 0);
    grabs = wait_corner(3, 60000);
    printf("overlay on (first, compiles): the panel in window grab %d after the reply\n",
           grabs);
    ck_assert_msg(grabs > 0, "no overlay panel");
    ck_assert_int_eq(ctl(out, sizeof(out), "overlay off"), 0);
    grabs = wait_corner(1, REPLY_SHOWN_MS);
    ck_assert_msg(grabs > 0, "overlay still there %d ms after the reply", REPLY_SHOWN_MS);
    ck_assert_int_eq(ctl(out, sizeof(out), "overlay on"), 0);
    grabs = wait_corner(3, REPLY_SHOWN_MS);
    printf("overlay on (again): the panel in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "no overlay panel %d ms after the reply", REPLY_SHOWN_MS);
    ck_assert_int_eq(ctl(out, sizeof(out), "overlay off"), 0);
    ck_assert_int_gt(wait_corner(1, REPLY_SHOWN_MS), 0);

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
    end = now_ms() + 60000; // a bound on a wait, generous for a loaded machine
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
    grabs = wait_corner(2, 60000);
    printf("reload: the edited effect shows in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "the reloaded effect never showed");
    ck_assert_int_eq(ctl(out, sizeof(out), cmd), 0); // the new runtime's dump
    ck_assert(file_has(dump, "effect - Broken.fx: compile error\n"));
    ck_assert(file_has(dump, "  technique Invert: ran"));

    // SIGUSR1: a dump in the log.
    char log[600];
    snprintf(log, sizeof(log), "%s/log.txt", dir);
    kill(app, SIGUSR1);
    end = now_ms() + 60000; // a bound on a wait, generous for a loaded machine
    while (now_ms() < end && !file_has(log, "dump: fxgl dump: frame")) {
        usleep(50000);
    }
    ck_assert_msg(file_has(log, "dump: fxgl dump: frame"), "no SIGUSR1 dump in %s", log);
    ck_assert(file_has(log, "dump:   technique Invert: ran"));

    // preset next / prev over the socket: broken.ini's neighbours in its folder (sorted by
    // name) are depthinvert.ini, whose DepthInvert.fx is not in this run's search path
    // (nothing runs: the corner goes black), and sizegreen.ini; prev comes back to
    // broken.ini (the red Invert.fx again). Neither switch reads a preset on the
    // presenting thread: the worker read each ahead, and the library logs the presenting
    // thread's count of preset reads since its first frame with the switch.
    ck_assert_int_eq(ctl(out, sizeof(out), "preset next"), 0);
    grabs = wait_corner(0, 60000);
    printf("preset next: effects off in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "preset next: the corner never went black");
    ck_assert_int_eq(ctl(out, sizeof(out), "preset prev"), 0);
    grabs = wait_corner(2, 60000);
    printf("preset prev: the red Invert.fx again in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "preset prev: broken.ini's Invert.fx never came back");
    ck_assert_msg(file_has(log, "depthinvert.ini: read ahead on the worker; 0 preset file(s) "
                                "read on this thread since its first frame"), "%s", log);
    ck_assert_msg(file_has(log, "broken.ini: read ahead on the worker; 0 preset file(s) "
                                "read on this thread since its first frame"), "%s", log);
    // preset PATH: the worker reads it and the switch follows. depthinvert.ini is also
    // broken.ini's neighbour, so the read-ahead may already hold it (it is refreshed on the
    // worker after the last switch): either way nothing is read on this thread.
    const char *ahead = "depthinvert.ini: read ahead on the worker; 0 preset file(s) read on "
                        "this thread since its first frame";
    int ahead_before = file_count(log, ahead);
    char preset_path[PATH_MAX], line[PATH_MAX + 16];
    snprintf(line, sizeof(line), "%s/interpose/data/depthinvert.ini", FXGL_TEST_SRCDIR);
    ck_assert_ptr_nonnull(realpath(line, preset_path));
    snprintf(line, sizeof(line), "preset %s", preset_path);
    ck_assert_int_eq(ctl(out, sizeof(out), line), 0);
    ck_assert_msg(strstr(out, "read on the worker") != NULL, "%s", out);
    grabs = wait_corner(0, 60000);
    printf("preset PATH: effects off in window grab %d after the reply\n", grabs);
    ck_assert_msg(grabs > 0, "preset PATH: the corner never went black");
    ck_assert_msg(file_has(log, "depthinvert.ini: read on the worker, applied with its effects") ||
                      file_count(log, ahead) > ahead_before,
                  "%s", log);
    ck_assert_int_eq(ctl(out, sizeof(out), "preset relative.ini"), 1);
    ck_assert_msg(strstr(out, "error: 'relative.ini' is not an absolute path") != NULL, "%s",
                  out);
}
END_TEST


// --- FXGL_DUMP when the program ends by itself ---

// Waits for pid up to timeout_ms: its exit status, -1 when killed or too slow.
static int reap(pid_t pid, long timeout_ms) {
    long end = now_ms() + timeout_ms;
    int st;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) {
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        if (now_ms() >= end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        usleep(20000);
    }
}

// Starts argv (through fxgl when with_fxgl), output into out_path; the
// environment is the test preset's, with FXGL_DUMP=dump (NULL: unset).
static pid_t spawn(const char *const argv[], bool with_fxgl, const char *dump,
                   const char *out_path) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) {
        return pid;
    }
    if (!freopen(out_path, "w", stdout) || dup2(fileno(stdout), 2) < 0) {
        _exit(126);
    }
    char env[3][700];
    snprintf(env[0], sizeof(env[0]), "%s/interpose/data/broken.ini", FXGL_TEST_SRCDIR);
    snprintf(env[1], sizeof(env[1]), "%s/fx", dir);
    snprintf(env[2], sizeof(env[2]), "%s/exit-log.txt", dir);
    setenv("FXGL_PRESET", env[0], 1);
    setenv("FXGL_EFFECT_PATHS", env[1], 1);
    setenv("FXGL_LOG_FILE", env[2], 1);
    setenv("FXGL_LOG", "info", 1);
    setenv("FXGL_CONTROL", "0", 1);
    if (dump) {
        setenv("FXGL_DUMP", dump, 1);
    } else {
        unsetenv("FXGL_DUMP");
    }
    unsetenv("LD_PRELOAD");
    const char *args[32];
    int n = 0;
    if (with_fxgl) {
        args[n++] = "/bin/sh";
        args[n++] = FXGL_SCRIPT_PATH;
    }
    for (int i = 0; argv[i] && n < 31; i++) {
        args[n++] = argv[i];
    }
    args[n] = NULL;
    execv(args[0], (char *const *)args);
    _exit(127);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ck_assert(buf);
    n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

// Where 'undeclared_value' stands in Broken.fx (1-based line and column),
// read from the file rather than taken from the compiler.
static void broken_position(int *line, int *col) {
    char path[600], text[256];
    snprintf(path, sizeof(path), "%s/fx/Broken.fx", dir);
    FILE *f = fopen(path, "r");
    ck_assert(f);
    *line = *col = 0;
    for (int l = 1; fgets(text, sizeof(text), f); l++) {
        char *at = strstr(text, "undeclared_value");
        if (at && !*line) {
            *line = l;
            *col = (int)(at - text) + 1;
        }
    }
    fclose(f);
    ck_assert_int_gt(*line, 0);
}

// A non-negative finite number right after prefix in text.
static double number_after(const char *text, const char *prefix) {
    const char *at = strstr(text, prefix);
    ck_assert_msg(at, "dump lacks \"%s\":\n%s", prefix, text);
    char *end;
    double v = strtod(at + strlen(prefix), &end);
    ck_assert_msg(end != at + strlen(prefix) && isfinite(v) && v >= 0, "not a number after "
                  "\"%s\":\n%s", prefix, text);
    return v;
}

#define HAS(text, s) ck_assert_msg(strstr((text), (s)), "dump lacks \"%s\":\n%s", (s), (text))

// The dump a run left in sub (a directory of its own): complete, with the
// last frame's records, and alone (no temporary file).
static void check_exit_dump(const char *sub, const char *program) {
    char path[700];
    snprintf(path, sizeof(path), "%s/dump.txt", sub);
    char *t = read_all(path);
    ck_assert_msg(t, "%s: no dump at %s", program, path);
    printf("%s: FXGL_DUMP after exit:\n%s", program, t);
    DIR *d = opendir(sub);
    ck_assert(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            ck_assert_msg(strcmp(e->d_name, "dump.txt") == 0, "%s: %s left in %s", program,
                          e->d_name, sub);
            files++;
        }
    }
    closedir(d);
    ck_assert_int_eq(files, 1);

    double frames = number_after(t, "fxgl dump: frame ");
    ck_assert_msg(frames >= 2, "%s: %g frames", program, frames);
    HAS(t, "effects: 1 (1 ready, 0 failed, 0 pending), 1 failed to compile; techniques: 1, "
           "1 ran last frame\n");
    HAS(t, "effect 0 Invert.fx: loaded\n");
    // What ran last frame, with its times (numbers, not n/a).
    const char *tech = strstr(t, "  technique Invert: ran, gpu ");
    ck_assert_msg(tech, "%s: Invert did not run last frame:\n%s", program, t);
    double gpu = -1, cpu = -1, pass0 = -1;
    unsigned long long ran = 0;
    ck_assert_msg(sscanf(tech, "  technique Invert: ran, gpu %lf ms, cpu %lf ms, %llu frames\n"
                         "    pass 0: gpu %lf ms\n", &gpu, &cpu, &ran, &pass0) == 4,
                  "%s: technique and pass lines:\n%s", program, tech);
    ck_assert_msg(isfinite(gpu) && gpu >= 0 && isfinite(cpu) && cpu >= 0 && isfinite(pass0) &&
                  pass0 >= 0, "%s: times %g %g %g", program, gpu, cpu, pass0);
    ck_assert_msg(ran >= 1 && ran <= frames, "%s: Invert ran %llu of %g frames", program, ran,
                  frames);
    if (strstr(t, "timer queries yes") && ran > QUERY_LAG) {
        // A full-window pass takes time, even on a software renderer.
        ck_assert_msg(gpu > 0 && pass0 > 0, "%s: gpu %g, pass 0 %g ms", program, gpu, pass0);
    } else if (strstr(t, "timer queries yes")) {
        // The program ends on its own clock: on a loaded machine the effect
        // may have run only the frames whose timer results were still to
        // be read (no GL at exit), and then 0 is the right figure.
        printf("%s: Invert ran %llu frames, no more than the %d whose timer results "
               "come back later: GPU time not judged\n", program, ran, QUERY_LAG);
    }
    number_after(t, "last frame: runtime cpu ");
    // The preset's other effect, skipped with the compiler's reason and place.
    int line, col;
    broken_position(&line, &col);
    char want[700];
    snprintf(want, sizeof(want), "effect - Broken.fx: compile error\n  diagnostic: %s/fx/"
             "Broken.fx(%d, %d): error: undeclared identifier 'undeclared_value'\n", dir, line,
             col);
    HAS(t, want);
    size_t n = strlen(t);
    ck_assert_msg(n > 13 && strcmp(t + n - 13, "overlay: off\n") == 0, "%s: dump cut short",
                  program);
    free(t);
}

static char *sub_dir(const char *name) {
    static char path[2][600];
    static int k;
    char *p = path[k++ & 1];
    snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
    ck_assert_int_eq(mkdir(p, 0700), 0);
    return p;
}

START_TEST(glmark2_dump_at_exit) {
    if (access("/usr/bin/glmark2", X_OK) != 0) {
        printf("SKIP glmark2_dump_at_exit: glmark2 absent (apt-get install glmark2)\n");
        return;
    }
    // glmark2 returns from main with its GLX context alive: the exit handler writes it.
    const char *const argv[] = {"/usr/bin/glmark2", "-s", "200x150", "-b", "build:duration=2",
                                NULL};
    char out[600], dump[700];
    snprintf(out, sizeof(out), "%s/glmark2-plain.txt", dir);
    int plain = reap(spawn(argv, false, NULL, out), 60000);
    char *sub = sub_dir("glmark2-dump");
    snprintf(dump, sizeof(dump), "%s/dump.txt", sub);
    snprintf(out, sizeof(out), "%s/glmark2-fxgl.txt", dir);
    long t0 = now_ms();
    int with = reap(spawn(argv, true, dump, out), 60000);
    printf("glmark2: exit %d without fxgl, %d with fxgl and FXGL_DUMP (%ld ms)\n", plain, with,
           now_ms() - t0);
    ck_assert_int_ge(plain, 0);
    ck_assert_int_eq(with, plain);
    check_exit_dump(sub, "glmark2");
    char log[600];
    snprintf(log, sizeof(log), "%s/exit-log.txt", dir);
    char want[800];
    snprintf(want, sizeof(want), "dump written to %s at exit\n", dump);
    ck_assert_msg(file_has(log, want), "the log lacks \"%s\"", want);
}
END_TEST

// glxgears until its window shows the effect, then Escape: its exit status.
static int glxgears_escape(bool with_fxgl, const char *dump, const char *out) {
    const char *const argv[] = {"/usr/bin/glxgears", NULL};
    pid_t pid = spawn(argv, with_fxgl, dump, out);
    // The window must show what glxgears draws (with Invert: the white corner).
    int shown = wait_corner(with_fxgl ? 1 : 0, 60000);
    Window w = app_window();
    ck_assert_msg(shown > 0 && w, "glxgears never showed its frame");
    usleep(1000000); // frames enough for timer results to come back (a few frames late)
    XSetInputFocus(dpy, w, RevertToParent, CurrentTime);
    KeyCode esc = XKeysymToKeycode(dpy, XK_Escape);
    XTestFakeKeyEvent(dpy, esc, True, 0);
    XTestFakeKeyEvent(dpy, esc, False, 0);
    XSync(dpy, False);
    int rc = reap(pid, 60000);
    // Its window goes with its connection; the next run must not see it.
    long end = now_ms() + 60000; // a bound on a wait, generous for a loaded machine
    while (app_window() && now_ms() < end) {
        usleep(20000);
    }
    return rc;
}

START_TEST(glxgears_escape_dump) {
    if (!XTestQueryExtension(dpy, &(int){0}, &(int){0}, &(int){0}, &(int){0})) {
        printf("SKIP glxgears_escape_dump: no XTest on the display\n");
        return;
    }
    // glxgears unbinds its context, destroys it, then returns 0 from main:
    // the dump is written when the (not current) context goes.
    char out[600], dump[700];
    snprintf(out, sizeof(out), "%s/glxgears-plain.txt", dir);
    int plain = glxgears_escape(false, NULL, out);
    char *sub = sub_dir("glxgears-dump");
    snprintf(dump, sizeof(dump), "%s/dump.txt", sub);
    snprintf(out, sizeof(out), "%s/glxgears-fxgl.txt", dir);
    int with = glxgears_escape(true, dump, out);
    printf("glxgears ended by Escape: exit %d without fxgl, %d with fxgl and FXGL_DUMP\n", plain,
           with);
    ck_assert_int_ge(plain, 0);
    ck_assert_int_eq(with, plain);
    check_exit_dump(sub, "glxgears");
    char log[600];
    snprintf(log, sizeof(log), "%s/exit-log.txt", dir);
    char want[800];
    snprintf(want, sizeof(want), "dump written to %s (context gone while not current)\n", dump);
    ck_assert_msg(file_has(log, want), "the log lacks \"%s\"", want);
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
    if (!fxgl_test_xvfb_start(&xvfb, 640, 480, 60000, reason, sizeof(reason))) {
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
    XSetErrorHandler(tolerate_x_error);
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
    long end = now_ms() + 60000; // a bound on a wait, generous for a loaded machine
    while (app_window() && now_ms() < end) {
        usleep(20000); // its window goes with its connection
    }

    // Programs that end by themselves, each alone on the display.
    snprintf(cmd, sizeof(cmd), "cp '%s/interpose/data/Invert.fx' '%s/fx/'", FXGL_TEST_SRCDIR,
             dir); // the controlled run left a red Invert.fx
    if (system(cmd) != 0) {
        printf("cannot copy Invert.fx\n");
        return 1;
    }
    s = suite_create("inspect_exit");
    tc = tcase_create("inspect_exit");
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, glmark2_dump_at_exit);
    tcase_add_test(tc, glxgears_escape_dump);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    failed += srunner_ntests_failed(sr);
    srunner_free(sr);
    XCloseDisplay(dpy);
    fxgl_test_xvfb_stop(&xvfb);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        return 1;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
