/*
 * test_overlay_app.c - the editing overlay driven like a player drives it:
 * glxgears under Xvfb, run by `fxgl` with tests/interpose/data/overlay
 * (Overlay.fx: Fill, Half, Blue; Red = 0.5), keys sent through XTest.
 *
 * Steps: open the overlay (Home), untick Blue, move Half above Fill
 * (Ctrl+Up), move the Red slider one step (Right), save (Ctrl+S), open a
 * closed category, search, tick Blue, set Red to 30% and drag Blue to the
 * top with the mouse,
 * performance mode on (saved first; a save then refused) and off, close. The preset also names Broken.fx, which
 * does not compile: the overlay lists its error, and the save keeps it.
 * After each step the window's pixel right of the panel must hold the
 * colour computed here from the order, the enabled set and Red (Fill writes
 * (Red, 0, 0) everywhere, Half halves, Blue sets blue to 1); then the saved
 * preset must hold Red=0.6, Techniques without Blue, TechniqueSorting with
 * Half first and the key fxgl does not know; and glxgears must still be
 * running and presenting. Escape typed while the overlay is open must not
 * reach glxgears (the overlay grabs the keyboard); once it is closed, Escape
 * ends glxgears with its normal status.
 *
 * Synchronisation never sleeps a guessed time: a key goes down, the test
 * waits until the program's log (FXGL_LOG=debug) says the overlay saw it
 * down, releases it and waits until the log says up. The overlay's key
 * repeat counts frames (20), and each key is held only from one log line to
 * the next, so a key acts once however loaded the machine is. Pixels are
 * waited for in the window (the frame after the action shows them), each
 * wait bounded generously.
 *
 * With FXGL_OVERLAY_SHOTS=DIR the window is written as PNGs there at each
 * panel (docs/overlay.md's pictures come from this).
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_test.h"

#define WAIT_MS 60000            // bound on any one wait (a loaded 2-core machine)
#define WIN_W 800
#define WIN_H 600
#define PROBE_X 770              // right of the panel (it is under 600 pixels wide here)
#define PROBE_Y 300

static fxgl_test_xvfb xvfb;
static char dir[256];
static char log_path[400];
static pid_t app;
static Display *dpy;
static Window win;

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int tolerate_x_error(Display *d, XErrorEvent *ev) {
    (void)d;
    (void)ev;
    return 0;
}

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

static int to8(double v) {
    return (int)(v * 255.0 + 0.5);
}

// Pixels of (r, g, b) (within 2) in the window's columns from x0 on.
static int count_colour(int x0, int r, int g, int b) {
    XWindowAttributes wa;
    if (!win || !XGetWindowAttributes(dpy, win, &wa) || wa.width <= x0) {
        return 0;
    }
    XImage *img = XGetImage(dpy, win, x0, 0, (unsigned)(wa.width - x0), (unsigned)wa.height,
                            AllPlanes, ZPixmap);
    int n = 0;
    for (int y = 0; img && y < wa.height; y++) {
        for (int x = 0; x < wa.width - x0; x++) {
            unsigned long p = XGetPixel(img, x, y);
            n += abs((int)(p >> 16 & 0xff) - r) <= 2 && abs((int)(p >> 8 & 0xff) - g) <= 2 &&
                 abs((int)(p & 0xff) - b) <= 2;
        }
    }
    if (img) {
        XDestroyImage(img);
    }
    return n;
}

// Waits until at least min pixels right of x0 are (r, g, b) as computed.
static void wait_area(const char *step, int x0, int min, double r, double g, double b) {
    long end = now_ms() + WAIT_MS;
    int n = 0;
    while (now_ms() < end && (n = count_colour(x0, to8(r), to8(g), to8(b))) < min) {
        usleep(20000);
    }
    ck_assert_msg(n >= min, "%s: %d pixels of (%d, %d, %d), want %d", step, n, to8(r), to8(g),
                  to8(b), min);
    printf("%s: %d pixels of (%d, %d, %d) as computed\n", step, n, to8(r), to8(g), to8(b));
}

static bool probe(int *r, int *g, int *b) {
    XImage *img = win ? XGetImage(dpy, win, PROBE_X, PROBE_Y, 1, 1, AllPlanes, ZPixmap) : NULL;
    if (!img) {
        return false;
    }
    unsigned long p = XGetPixel(img, 0, 0);
    *r = (int)(p >> 16 & 0xff), *g = (int)(p >> 8 & 0xff), *b = (int)(p & 0xff);
    XDestroyImage(img);
    return true;
}

// Waits until the probe shows (r, g, b) within 2 (rounding of the UNORM back buffer).
static void wait_colour(const char *step, double r, double g, double b) {
    int want[3] = {to8(r), to8(g), to8(b)}, got[3] = {-1, -1, -1};
    long end = now_ms() + WAIT_MS;
    int grabs = 0;
    while (now_ms() < end) {
        grabs++;
        if (probe(&got[0], &got[1], &got[2]) && abs(got[0] - want[0]) <= 2 &&
            abs(got[1] - want[1]) <= 2 && abs(got[2] - want[2]) <= 2) {
            printf("%s: pixel (%d, %d, %d) as computed, grab %d\n", step, got[0], got[1],
                   got[2], grabs);
            return;
        }
        usleep(10000);
    }
    ck_abort_msg("%s: pixel (%d, %d, %d), computed (%d, %d, %d)", step, got[0], got[1], got[2],
                 want[0], want[1], want[2]);
}

// How many times the log holds needle.
static int log_count(const char *needle) {
    FILE *f = fopen(log_path, "r");
    if (!f) {
        return 0;
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    int k = 0;
    for (const char *p = buf; (p = strstr(p, needle)) != NULL; p += strlen(needle)) {
        k++;
    }
    return k;
}

static void wait_log(const char *needle, int count) {
    long end = now_ms() + WAIT_MS;
    while (log_count(needle) < count && now_ms() < end) {
        usleep(5000);
    }
    ck_assert_msg(log_count(needle) >= count, "the log never said \"%s\" (%d times)", needle,
                  count);
}

// The Windows virtual-key code the overlay logs for a keysym.
static int vk_of(KeySym sym) {
    switch (sym) {
    case XK_Home: return 0x24;
    case XK_Up: return 0x26;
    case XK_Down: return 0x28;
    case XK_Right: return 0x27;
    case XK_Left: return 0x25;
    case XK_space: return 0x20;
    case XK_Tab: return 0x09;
    case XK_s: return 'S';
    case XK_b: return 'B';
    case XK_p: return 'P';
    case XK_l: return 'L';
    case XK_Return: return 0x0D;
    case XK_BackSpace: return 0x08;
    case XK_Escape: return 0x1B;
    case XK_Control_L: return 0x11;
    default:
        if (sym >= XK_a && sym <= XK_z) {
            return 'A' + (int)(sym - XK_a);
        }
        return sym >= XK_0 && sym <= XK_9 ? '0' + (int)(sym - XK_0) : 0;
    }
}

static void key_edge(KeySym sym, bool down, bool logged) {
    char needle[64];
    snprintf(needle, sizeof(needle), "overlay: key 0x%02x %s", vk_of(sym), down ? "down" : "up");
    int before = log_count(needle);
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, sym), down, 0);
    XSync(dpy, False);
    if (logged) {
        wait_log(needle, before + 1);
    }
}

// One key pressed and released, each edge seen by the open overlay; with ctrl, Control is
// held around it.
static void press(KeySym sym, bool ctrl) {
    if (ctrl) {
        key_edge(XK_Control_L, true, true);
    }
    key_edge(sym, true, true);
    key_edge(sym, false, true);
    if (ctrl) {
        key_edge(XK_Control_L, false, true);
    }
}

// Keys typed as text (letters and digits), each seen by the overlay.
static void type(const char *text) {
    for (; *text; text++) {
        press(*text >= '0' && *text <= '9' ? XK_0 + (*text - '0') : XK_a + (*text - 'a'),
              false);
    }
}

// Moves the cursor (Down, or Up with dir -1) until the overlay says it is on the row
// described as what ("define NAME", "preset FILE", "save as").
static void cursor_to(const char *what, int dir) {
    char needle[200];
    snprintf(needle, sizeof(needle), "overlay: cursor on %s\n", what);
    int before = log_count(needle);
    for (int i = 0; i < 80 && log_count(needle) == before; i++) {
        press(dir < 0 ? XK_Up : XK_Down, false);
    }
    ck_assert_msg(log_count(needle) > before, "the cursor never reached %s", what);
}

typedef struct layout {
    double line, pad, width, col, widget;
} layout;

// The overlay's geometry as it last logged it (FXGL_LOG=debug).
static layout read_layout(void) {
    FILE *f = fopen(log_path, "r");
    ck_assert(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    layout L = {0};
    const char *last = NULL;
    for (const char *p = buf; (p = strstr(p, "overlay: layout line=")) != NULL; p++) {
        last = p;
    }
    ck_assert_msg(last && sscanf(last, "overlay: layout line=%lf pad=%lf width=%lf col=%lf "
                                       "widget=%lf", &L.line, &L.pad, &L.width, &L.col,
                                 &L.widget) == 5, "no layout in the log");
    return L;
}

static void move_to(double x, double y) {
    int rx, ry;
    Window child;
    XTranslateCoordinates(dpy, win, DefaultRootWindow(dpy), (int)x, (int)y, &rx, &ry, &child);
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), rx, ry, 0);
    XSync(dpy, False);
}

static void button(bool down) {
    const char *needle = down ? "overlay: button 0 down" : "overlay: button 0 up";
    int before = log_count(needle);
    XTestFakeButtonEvent(dpy, 1, down, 0);
    XSync(dpy, False);
    wait_log(needle, before + 1);
}

// A left click at (x, y) of the window, each edge seen by the overlay.
static void click(double x, double y) {
    move_to(x, y);
    button(true);
    button(false);
}

static void shot(const char *name) {
    const char *out = getenv("FXGL_OVERLAY_SHOTS");
    if (!out || !out[0]) {
        return;
    }
    XImage *img = XGetImage(dpy, win, 0, 0, WIN_W, WIN_H, AllPlanes, ZPixmap);
    fxgl_image im;
    if (!img || !fxgl_image_alloc(&im, WIN_W, WIN_H)) {
        return;
    }
    for (int y = 0; y < WIN_H; y++) {
        for (int x = 0; x < WIN_W; x++) {
            unsigned long p = XGetPixel(img, x, y);
            uint8_t *d = &im.pixels[((size_t)y * WIN_W + (size_t)x) * 4];
            d[0] = (uint8_t)(p >> 16), d[1] = (uint8_t)(p >> 8), d[2] = (uint8_t)p, d[3] = 255;
        }
    }
    XDestroyImage(img);
    char path[600];
    snprintf(path, sizeof(path), "%s/%s.png", out, name);
    printf("screenshot %s: %s\n", path, fxgl_image_save_png(&im, path) ? "written" : "FAILED");
    fxgl_image_free(&im);
}

// line is one whole line of text.
static bool has_line(const char *text, const char *line) {
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p++) {
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0')) {
            return true;
        }
    }
    return false;
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f, "cannot open %s", path);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

START_TEST(overlay_edit_save) {
    long end = now_ms() + WAIT_MS;
    while (!(win = app_window()) && now_ms() < end) {
        usleep(20000);
    }
    ck_assert_msg(win, "glxgears never mapped its window");
    // The preset as loaded: Fill (0.5) -> Half -> Blue.
    wait_colour("start", 0.25, 0.0, 1.0);
    XSetInputFocus(dpy, win, RevertToParent, CurrentTime);
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), 50, 50, 0); // inside the window
    XSync(dpy, False);

    // Home opens it (and is the overlay's, not KeyEffects': the effects stay on).
    key_edge(XK_Home, true, false);
    wait_log("overlay open", 1);
    key_edge(XK_Home, false, true);
    wait_colour("overlay open, effects unchanged", 0.25, 0.0, 1.0);
    shot("overlay-effects");

    // The cursor starts on the first technique (Fill); two rows down is Blue.
    press(XK_Down, false);
    press(XK_Down, false);
    press(XK_space, false);
    wait_colour("Blue unticked", 0.25, 0.0, 0.0);

    // Half (one row up) above Fill: Half runs on the game's frame, Fill writes over it.
    press(XK_Up, false);
    press(XK_Up, true);
    wait_colour("Half moved above Fill", 0.5, 0.0, 0.0);

    // Down to Red: Fill, Blue, the uncategorised Fixed, the Colour header, Red.
    for (int i = 0; i < 5; i++) {
        press(XK_Down, false);
    }
    press(XK_Right, false);
    wait_colour("Red slider one step (0.1) up", 0.6, 0.0, 0.0);
    shot("overlay-variables");

    press(XK_s, true);
    wait_log("overlay: saved ", 1);
    // The watcher re-applies the saved file: wait for it, or it could undo later edits.
    wait_log("changed on disk: applied", 1);

    char path[400];
    snprintf(path, sizeof(path), "%s/overlay.ini", dir);
    const char *ini = read_all(path);
    printf("saved preset:\n%s", ini);
    ck_assert_msg(has_line(ini, "UnknownKey=kept"), "the save lost what fxgl does not know");
    // Fill and Half, not Blue; Broken@Broken.fx (it never compiled) kept.
    const char *list = strstr(ini, "Techniques=");
    ck_assert(list && (list == ini || list[-1] == '\n'));
    char techniques[256];
    snprintf(techniques, sizeof(techniques), ",%.*s,", (int)strcspn(list + 11, "\n"), list + 11);
    ck_assert_msg(strstr(techniques, ",Fill@Overlay.fx,") && strstr(techniques, ",Half@Overlay.fx,") &&
                      strstr(techniques, ",Broken@Broken.fx,") && !strstr(techniques, "Blue"),
                  "Techniques is not Fill, Half and Broken without Blue: %s", techniques);
    ck_assert_msg(has_line(ini, "TechniqueSorting=Half@Overlay.fx,Fill@Overlay.fx,"
                                "Blue@Overlay.fx"), "TechniqueSorting is not Half, Fill, Blue");
    ck_assert_msg(has_line(ini, "Red=0.600000") || has_line(ini, "Red=0.6"), "Red is not 0.6");
    ck_assert_msg(has_line(ini, "Mode=0") && has_line(ini, "Fixed=3.000000"),
                  "the variables not edited are not at their defaults");


    press(XK_Tab, false);
    shot("overlay-statistics");
    press(XK_Tab, false);

    // The closed category "More" (two rows below Red) opened, then a search: what the
    // documentation shows. Neither changes a value.
    press(XK_Down, false);
    press(XK_Down, false);
    press(XK_Return, false);
    shot("overlay-categories");
    press(XK_b, false);
    press(XK_l, false);
    shot("overlay-search");
    press(XK_BackSpace, false);
    press(XK_BackSpace, false);
    wait_colour("after browsing", 0.6, 0.0, 0.0);

    // The mouse: rows are at pad + row * line (the overlay logs its layout). Blue's
    // checkbox (row 5) ticked again, then Red's slider (row 10) clicked at 30% of its bar.
    layout L = read_layout();
    click(L.pad + 3, L.pad + 5 * L.line + L.line / 2);
    wait_colour("mouse: Blue ticked", 0.6, 0.0, 1.0);
    click(L.col + 0.3 * L.widget, L.pad + 10 * L.line + L.line / 2);
    wait_colour("mouse: Red slider at 30%", 0.3, 0.0, 1.0);
    // Blue (row 5) dragged by its label onto Half (row 3): Blue, Half, Fill - Fill last
    // writes (Red, 0, 0) over everything.
    move_to(L.pad + L.line + 20, L.pad + 5 * L.line + L.line / 2);
    button(true);
    move_to(L.pad + L.line + 20, L.pad + 3 * L.line + L.line / 2);
    button(false);
    wait_colour("mouse: Blue dragged to the top", 0.3, 0.0, 0.0);

    // Performance mode (Ctrl+P): the overlay saves first (the values become the code), so
    // the picture stays; a save in performance mode is refused and leaves the file as it
    // was; Ctrl+P again goes back.
    press(XK_p, true);
    wait_log("overlay: saved ", 2);
    wait_log("performance mode on", 1);
    char saved[65536];
    snprintf(saved, sizeof(saved), "%s", read_all(path));
    const char *enabled = strstr(saved, "Techniques=");
    ck_assert_msg(has_line(saved, "Red=0.300000") && enabled &&
                      memmem(enabled, strcspn(enabled, "\n"), "Blue@Overlay.fx", 15),
                  "performance mode: the values were not saved first:\n%s", saved);
    ck_assert_msg(has_line(saved, "TechniqueSorting=Blue@Overlay.fx,Half@Overlay.fx,"
                                  "Fill@Overlay.fx"), "the dragged order was not saved:\n%s",
                  saved);
    press(XK_Tab, false); // frames: the preset is locked at the next one
    press(XK_Tab, false);
    press(XK_s, true);
    wait_log("overlay: error: ", 1);
    ck_assert_msg(strcmp(saved, read_all(path)) == 0, "saved in performance mode");
    wait_colour("performance mode on", 0.3, 0.0, 0.0);
    press(XK_p, true);
    wait_log("performance mode off", 1);
    wait_colour("performance mode off", 0.3, 0.0, 0.0);

    // A preprocessor definition of Overlay.fx edited: first to something that does not
    // compile (the running version stays, the error is listed), then to 2 (Fill writes
    // 2 * Red). Each recompiles on the worker; the picture changes once the new one is in.
    cursor_to("define FXGL_TEST_GAIN", 1);
    shot("overlay-definitions");
    int failed = log_count("failed, the running version stays");
    press(XK_Return, false);
    type("zz");
    press(XK_Return, false);
    wait_log("failed, the running version stays", failed + 1);
    ck_assert_msg(log_count("overlay: FXGL_TEST_GAIN=zz: recompiling") == 1,
                  "the edit was not applied");
    wait_colour("a definition that does not compile: the old version runs", 0.3, 0.0, 0.0);
    shot("overlay-definition-error");
    press(XK_Return, false);
    press(XK_BackSpace, false);
    press(XK_BackSpace, false);
    type("2");
    press(XK_Return, false);
    wait_colour("FXGL_TEST_GAIN=2 recompiled: Fill writes 2 * Red", 0.6, 0.0, 0.0);
    int applied = log_count("changed on disk: applied");
    press(XK_s, true);
    wait_log("overlay: saved ", 3);
    wait_log("changed on disk: applied", applied + 1);
    snprintf(saved, sizeof(saved), "%s", read_all(path));
    const char *section = strstr(saved, "[Overlay.fx]");
    ck_assert_msg(section && strstr(section, "\nPreprocessorDefinitions=FXGL_TEST_GAIN=2\n") &&
                      has_line(saved, "UnknownKey=kept"),
                  "the definition was not saved in the effect's section:\n%s", saved);
    wait_colour("the saved definition re-read from disk", 0.6, 0.0, 0.0);

    // Save as "mine": a new file with the state, the old one unchanged, then "mine" again
    // is refused.
    cursor_to("save as", 1);
    type("mine");
    shot("overlay-presets");
    press(XK_Return, false);
    wait_log("overlay: saved as ", 1);
    char mine[400];
    snprintf(mine, sizeof(mine), "%s/mine.ini", dir);
    ck_assert_msg(strcmp(saved, read_all(path)) == 0, "save as changed the old preset");
    const char *copy = read_all(mine);
    printf("saved as mine.ini:\n%s", copy);
    ck_assert_msg(has_line(copy, "Red=0.300000") && has_line(copy, "UnknownKey=kept") &&
                      has_line(copy, "PreprocessorDefinitions=FXGL_TEST_GAIN=2") &&
                      has_line(copy, "TechniqueSorting=Blue@Overlay.fx,Half@Overlay.fx,"
                                     "Fill@Overlay.fx"),
                  "mine.ini does not hold the state");
    char mine_text[65536];
    snprintf(mine_text, sizeof(mine_text), "%s", copy);
    char switched[500];
    snprintf(switched, sizeof(switched), "preset %s\n", mine);
    wait_log(switched, 1);
    wait_colour("switched to mine.ini: the same picture", 0.6, 0.0, 0.0);
    type("mine");
    press(XK_Return, false);
    wait_log("overlay: error: mine.ini exists", 1);
    ck_assert_msg(strcmp(mine_text, read_all(mine)) == 0, "save as overwrote mine.ini");
    press(XK_BackSpace, false);
    press(XK_BackSpace, false);
    press(XK_BackSpace, false);
    press(XK_BackSpace, false);

    // second.ini from the list: Fill alone, Red 0.8, no definition (recompiled: 1.0).
    cursor_to("preset second.ini", -1);
    press(XK_Return, false);
    wait_colour("second.ini chosen from the list", 0.8, 0.0, 0.0);

    // Escape quits glxgears, but the overlay holds the keyboard grab: the overlay sees it
    // (by polling the server's key state), the program gets no event. Two more keys seen
    // by the overlay are frames enough for glxgears to have acted on one.
    press(XK_Escape, false);
    press(XK_Tab, false);
    press(XK_Tab, false);
    ck_assert_msg(kill(app, 0) == 0 && waitpid(app, &(int){0}, WNOHANG) == 0,
                  "glxgears got the Escape typed into the overlay");
    printf("Escape typed into the open overlay: glxgears still running\n");

    // Closed again: the same picture (the save was re-read from disk by the watcher), no
    // panel over the left side.
    key_edge(XK_Home, true, false);
    wait_log("overlay closed", 1);
    key_edge(XK_Home, false, false);
    wait_colour("overlay closed, second.ini kept", 0.8, 0.0, 0.0);
    ck_assert_msg(kill(app, 0) == 0, "glxgears is gone");
    int status;
    ck_assert_int_eq(waitpid(app, &status, WNOHANG), 0);

    // Closed, the grab is gone: Escape reaches glxgears, which ends normally.
    key_edge(XK_Escape, true, false);
    key_edge(XK_Escape, false, false);
    end = now_ms() + WAIT_MS;
    pid_t done = 0;
    while ((done = waitpid(app, &status, WNOHANG)) == 0 && now_ms() < end) {
        usleep(10000);
    }
    ck_assert_msg(done == app, "glxgears did not get Escape once the overlay was closed");
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "glxgears ended with %d",
                  status);
    app = 0;
    printf("overlay closed: Escape reached glxgears, which exited with 0\n");
}
END_TEST

// --- Wayland: weston's X11 backend in the same Xvfb ---
//
// weston's headless backend has no input devices, and weston offers no protocol through
// which one client injects input into another (docs/overlay.md). Its X11 backend does:
// weston is an X client in the test's Xvfb, XTest keys sent to its window become
// wl_keyboard events for the focused Wayland client (kiosk shell: the only one), and fxgl
// reads them from its own seat objects (wayland.c). The program gets them too: a Wayland
// client cannot grab the keyboard.

static pid_t weston;

START_TEST(overlay_wayland) {
    long end = now_ms() + WAIT_MS;
    while (!(win = app_window()) && now_ms() < end) {
        usleep(20000);
    }
    ck_assert_msg(win, "weston never mapped its window");
    // glmark2's build scene under Fill -> Half -> Blue: (64, 0, 255) everywhere it draws.
    wait_area("Wayland: start", 0, 20000, 0.25, 0.0, 1.0);
    // fxgl's own keyboard object exists (its keymap came) before any key is sent.
    wait_log("Wayland keymap of", 1);
    XSetInputFocus(dpy, win, RevertToParent, CurrentTime);
    int rx, ry;
    Window child;
    XTranslateCoordinates(dpy, win, DefaultRootWindow(dpy), 700, 300, &rx, &ry, &child);
    XTestFakeMotionEvent(dpy, DefaultScreen(dpy), rx, ry, 0); // weston's pointer focus
    // A click on the client: the shell gives it the keyboard focus (activation by click).
    XTestFakeButtonEvent(dpy, 1, True, 0);
    XTestFakeButtonEvent(dpy, 1, False, 0);
    XSync(dpy, False);
    // weston's X11 backend takes the X focus and passes the keyboard focus to the client
    // on its own time: a Home sent before that is lost. So Home goes again, up to 5
    // times, until the overlay says it opened (each try bounded; the count printed).
    int tries = 0;
    for (; tries < 5 && log_count("overlay open") == 0; tries++) {
        key_edge(XK_Home, true, false);
        long until = now_ms() + WAIT_MS / 5;
        while (log_count("overlay open") == 0 && now_ms() < until) {
            usleep(5000);
        }
        key_edge(XK_Home, false, false);
    }
    wait_log("overlay open", 1);
    printf("Wayland: the overlay opened at Home press %d\n", tries);
    wait_log("overlay: key 0x24 up", 1);
    press(XK_Down, false);
    press(XK_Down, false);
    press(XK_space, false);
    // Right of the panel (under 480 pixels wide on weston's 800x600 output).
    wait_area("Wayland: Blue unticked", 560, 20000, 0.25, 0.0, 0.0);
    shot("overlay-wayland");
    press(XK_s, true);
    wait_log("overlay: saved ", 1);
    char path[400];
    snprintf(path, sizeof(path), "%s/overlay.ini", dir);
    const char *ini = read_all(path);
    const char *list = strstr(ini, "Techniques=");
    ck_assert(list);
    char techniques[256];
    snprintf(techniques, sizeof(techniques), ",%.*s,", (int)strcspn(list + 11, "\n"), list + 11);
    ck_assert_msg(strstr(techniques, ",Fill@Overlay.fx,") && !strstr(techniques, "Blue"),
                  "Wayland: saved Techniques %s", techniques);
    ck_assert_msg(kill(app, 0) == 0 && waitpid(app, &(int){0}, WNOHANG) == 0,
                  "glmark2-es2-wayland is gone");
    printf("Wayland: overlay opened, Blue unticked, saved; glmark2-es2-wayland still running\n");
}
END_TEST

// weston on the test's Xvfb, then glmark2-es2-wayland through fxgl on it. False: skip.
static bool start_wayland(char *why, size_t size) {
    if (access("/usr/bin/weston", X_OK) != 0 || access("/usr/bin/glmark2-es2-wayland", X_OK) != 0) {
        snprintf(why, size, "weston or glmark2-es2-wayland absent (apt-get install weston "
                 "glmark2-es2-wayland)");
        return false;
    }
    char runtime[300], socket_path[400];
    snprintf(runtime, sizeof(runtime), "%s/wl", dir);
    mkdir(runtime, 0700);
    snprintf(socket_path, sizeof(socket_path), "%s/fxgl-overlay-wl", runtime);
    weston = fork();
    if (weston == 0) {
        char log[400];
        snprintf(log, sizeof(log), "--log=%s/weston.log", runtime);
        setenv("XDG_RUNTIME_DIR", runtime, 1);
        unsetenv("WAYLAND_DISPLAY");
        execl("/usr/bin/weston", "weston", "--backend=x11-backend.so", "--width=800",
              "--height=600", "--socket=fxgl-overlay-wl", "--idle-time=0",
              "--shell=kiosk-shell.so", log, (char *)NULL);
        _exit(127);
    }
    long end = now_ms() + WAIT_MS;
    while (access(socket_path, F_OK) != 0 && now_ms() < end &&
           waitpid(weston, NULL, WNOHANG) == 0) {
        usleep(20000);
    }
    if (access(socket_path, F_OK) != 0) {
        snprintf(why, size, "weston's X11 backend did not come up on the Xvfb");
        return false;
    }
    char cmd[900];
    snprintf(cmd, sizeof(cmd), "cp '%s/interpose/data/overlay/overlay.ini' '%s/'",
             FXGL_TEST_SRCDIR, dir);
    if (system(cmd) != 0) {
        snprintf(why, size, "cannot copy the preset again");
        return false;
    }
    snprintf(log_path, sizeof(log_path), "%s/log-wayland.txt", dir);
    app = fork();
    if (app == 0) {
        char env[2][400];
        snprintf(env[0], sizeof(env[0]), "%s/overlay.ini", dir);
        snprintf(env[1], sizeof(env[1]), "%s/cache", dir);
        setenv("FXGL_PRESET", env[0], 1);
        setenv("FXGL_EFFECT_PATHS", dir, 1);
        setenv("FXGL_LOG_FILE", log_path, 1);
        setenv("FXGL_LOG", "debug", 1);
        setenv("XDG_RUNTIME_DIR", runtime, 1);
        setenv("WAYLAND_DISPLAY", "fxgl-overlay-wl", 1);
        setenv("XDG_CACHE_HOME", env[1], 1);
        setenv("XDG_CONFIG_HOME", dir, 1);
        unsetenv("DISPLAY"); // glmark2 must be the Wayland client, not X
        unsetenv("FXGL_CONFIG");
        unsetenv("LD_PRELOAD");
        execl("/bin/sh", "sh", FXGL_SCRIPT_PATH, "/usr/bin/glmark2-es2-wayland", "--run-forever",
              "-b", "build:duration=3600", "-s", "800x600", (char *)NULL);
        _exit(127);
    }
    return true;
}

static void stop(pid_t *pid) {
    if (*pid > 0) {
        kill(*pid, SIGTERM);
        waitpid(*pid, NULL, 0);
        *pid = 0;
    }
}

int main(void) {
#ifdef FXGL_TEST_SANITIZERS
    printf("SKIP: preload tests do not run in the sanitizer build\n");
    return FXGL_TEST_SKIP;
#endif
    if (access("/usr/bin/glxgears", X_OK) != 0) {
        printf("SKIP: glxgears absent (apt-get install mesa-utils)\n");
        return FXGL_TEST_SKIP;
    }
    char reason[256];
    if (!fxgl_test_xvfb_start(&xvfb, 1024, 768, 60000, reason, sizeof(reason))) {
        printf("SKIP: %s\n", reason);
        return FXGL_TEST_SKIP;
    }
    dpy = XOpenDisplay(xvfb.display_name);
    if (!dpy) {
        printf("SKIP: cannot open %s\n", xvfb.display_name);
        return FXGL_TEST_SKIP;
    }
    if (!XTestQueryExtension(dpy, &(int){0}, &(int){0}, &(int){0}, &(int){0})) {
        printf("SKIP: no XTest on the display\n");
        return FXGL_TEST_SKIP;
    }
    XSetErrorHandler(tolerate_x_error);
    snprintf(dir, sizeof(dir), "%s/overlay-app-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                         : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char cmd[900];
    snprintf(cmd, sizeof(cmd), "cp '%s/interpose/data/overlay/Overlay.fx' "
             "'%s/interpose/data/overlay/overlay.ini' '%s/interpose/data/overlay/second.ini' "
             "'%s/interpose/data/Broken.fx' '%s/'",
             FXGL_TEST_SRCDIR, FXGL_TEST_SRCDIR, FXGL_TEST_SRCDIR, FXGL_TEST_SRCDIR, dir);
    if (system(cmd) != 0) {
        printf("cannot copy the test effect\n");
        return 1;
    }
    snprintf(log_path, sizeof(log_path), "%s/log.txt", dir);
    app = fork();
    if (app == 0) {
        char env[3][400];
        snprintf(env[0], sizeof(env[0]), "%s/overlay.ini", dir);
        snprintf(env[1], sizeof(env[1]), "%s/cache", dir);
        setenv("FXGL_PRESET", env[0], 1);
        setenv("FXGL_EFFECT_PATHS", dir, 1);
        setenv("FXGL_LOG_FILE", log_path, 1);
        setenv("FXGL_LOG", "debug", 1);
        setenv("XDG_RUNTIME_DIR", dir, 1);
        setenv("XDG_CACHE_HOME", env[1], 1);
        setenv("XDG_CONFIG_HOME", dir, 1); // no configuration of the user's
        unsetenv("FXGL_CONFIG");
        unsetenv("LD_PRELOAD");
        execl("/bin/sh", "sh", FXGL_SCRIPT_PATH, "/usr/bin/glxgears", "-geometry", "800x600",
              (char *)NULL);
        _exit(127);
    }
    Suite *s = suite_create("overlay_app");
    TCase *tc = tcase_create("overlay_app");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, overlay_edit_save);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK); // app and dpy belong to this process
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    stop(&app);
    if (failed) {
        snprintf(cmd, sizeof(cmd), "tail -n 40 '%s'", log_path);
        if (system(cmd) != 0) {
            printf("(no log)\n");
        }
    }
    // The same on Wayland, as far as input can be injected there.
    char why[300];
    win = 0;
    long gone = now_ms() + WAIT_MS;
    while (app_window() && now_ms() < gone) {
        usleep(20000); // glxgears' window goes with its connection
    }
    if (start_wayland(why, sizeof(why))) {
        s = suite_create("overlay_wayland");
        tc = tcase_create("overlay_wayland");
        tcase_set_timeout(tc, 600);
        tcase_add_test(tc, overlay_wayland);
        suite_add_tcase(s, tc);
        sr = srunner_create(s);
        srunner_set_fork_status(sr, CK_NOFORK);
        srunner_run_all(sr, CK_NORMAL);
        int wl_failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        if (wl_failed) {
            snprintf(cmd, sizeof(cmd), "tail -n 30 '%s'", log_path);
            if (system(cmd) != 0) {
                printf("(no log)\n");
            }
        }
        failed += wl_failed;
    } else {
        printf("Wayland case not run: %s\n", why);
    }
    stop(&app);
    stop(&weston);
    XCloseDisplay(dpy);
    fxgl_test_xvfb_stop(&xvfb);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0) {
        return 1;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
