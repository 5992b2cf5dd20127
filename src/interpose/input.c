/*
 * input.c - the host's keyboard and mouse, polled once per frame (X11 here;
 * a Wayland program's come from wayland.c, with the same edges and deltas).
 *
 * Toggle keys and the key/mouse special uniforms need the input state at the
 * start of a frame. We never touch the program's own X connection or its
 * event queue: selecting events there would steal or reorder them. Instead
 * fxgl opens a private connection to the same display and asks: the keymap
 * (QueryKeymap), the pointer relative to the presenting window
 * (QueryPointer) and who has the focus (GetInputFocus) - three requests sent
 * together at one frame and answered by the next: the presenting thread never
 * waits for the server (see poll_x11).
 *
 * The connection is XCB, loaded at run time (libxcb.so.1 is there wherever
 * libX11 is, and libfxgl links no window-system library): XCB returns errors
 * as replies, where Xlib would call the process-wide error handler - the
 * program's, or the default one that exits - when a window dies between the
 * swap and our query.
 *
 * The keymap is global to the X server, so keys count only while the
 * presenting window has the focus: the focus window is the window, one of its
 * ancestors (a window manager's frame) or one of its children; with focus
 * PointerRoot, the pointer must be inside the window. Mouse buttons count
 * only then too. Wheel steps and buttons 8/9 (X1/X2) are not observable by
 * polling (the wheel is a press and release of buttons 4/5 between two
 * polls; the pointer mask has no bits for 8/9): they read 0. A keyboard
 * mapping change after the first poll is not seen (no events are selected).
 *
 * One connection per process, under one lock; each consumer keeps its own
 * previous snapshot (ip_input), so the edges (pressed/released) and mouse
 * deltas are per consumer.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

struct ip_input {
    fxgl_input prev;             // the previous snapshot: down states, pointer
    bool have_prev;
};

// The XCB functions we use, resolved once.
typedef struct xcb_api {
    __typeof__(xcb_connect) *connect;
    __typeof__(xcb_connection_has_error) *has_error;
    __typeof__(xcb_get_setup) *get_setup;
    __typeof__(xcb_setup_roots_iterator) *roots;
    __typeof__(xcb_get_keyboard_mapping) *get_keyboard_mapping;
    __typeof__(xcb_get_keyboard_mapping_reply) *get_keyboard_mapping_reply;
    __typeof__(xcb_get_keyboard_mapping_keysyms) *keyboard_mapping_keysyms;
    __typeof__(xcb_query_keymap) *query_keymap;
    __typeof__(xcb_query_keymap_reply) *query_keymap_reply;
    __typeof__(xcb_query_pointer) *query_pointer;
    __typeof__(xcb_query_pointer_reply) *query_pointer_reply;
    __typeof__(xcb_get_input_focus) *get_input_focus;
    __typeof__(xcb_get_input_focus_reply) *get_input_focus_reply;
    __typeof__(xcb_query_tree) *query_tree;
    __typeof__(xcb_query_tree_reply) *query_tree_reply;
    __typeof__(xcb_change_window_attributes) *change_window_attributes;
    __typeof__(xcb_get_geometry) *get_geometry;
    __typeof__(xcb_get_geometry_reply) *get_geometry_reply;
    __typeof__(xcb_poll_for_event) *poll_for_event;
    __typeof__(xcb_poll_for_reply) *poll_for_reply;
    __typeof__(xcb_flush) *flush;
    __typeof__(xcb_grab_keyboard) *grab_keyboard;
    __typeof__(xcb_grab_pointer) *grab_pointer;
    __typeof__(xcb_ungrab_keyboard) *ungrab_keyboard;
    __typeof__(xcb_ungrab_pointer) *ungrab_pointer;
} xcb_api;

// The private connection: one per process (the keyboard and pointer are
// the server's, not a window's), hence globals, all under x_lock.
static pthread_mutex_t x_lock = PTHREAD_MUTEX_INITIALIZER;
static xcb_api xcb;
static bool x_tried;             // the connection was attempted (once)
static xcb_connection_t *x_conn;
static xcb_window_t x_root;
static uint8_t vk_of_keycode[256]; // keycode -> Windows virtual-key code
static uint8_t vk_side_of_keycode[256]; // keycode -> VK_LSHIFT..VK_RMENU, or 0
static char x_name[256];         // the display the connection is to ("": $DISPLAY)
static xcb_window_t focus_cache_focus; // the focus and window the cached answer is for
static xcb_window_t focus_cache_window;
static bool focus_cache_result;

// The display a name means: NULL or "" is $DISPLAY.
static const char *resolved_name(const char *display_name) {
    if (display_name && display_name[0]) {
        return display_name;
    }
    const char *env = getenv("DISPLAY");
    return env ? env : "";
}

static bool load_xcb(void) {
    ip_dlopen_fn real_dlopen = ip_real_libc_dlopen();
    void *h = real_dlopen ? real_dlopen("libxcb.so.1", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD)
                          : NULL;
    if (!h && real_dlopen) {
        h = real_dlopen("libxcb.so.1", RTLD_LAZY | RTLD_LOCAL);
    }
    if (!h) {
        return false;
    }
#define LOAD(field, name)                                                                 \
    do {                                                                                  \
        xcb.field = (__typeof__(xcb.field))(uintptr_t)ip_real_libc_dlsym(h, #name);       \
        if (!xcb.field) {                                                                 \
            return false;                                                                 \
        }                                                                                 \
    } while (0)
    LOAD(connect, xcb_connect);
    LOAD(has_error, xcb_connection_has_error);
    LOAD(get_setup, xcb_get_setup);
    LOAD(roots, xcb_setup_roots_iterator);
    LOAD(get_keyboard_mapping, xcb_get_keyboard_mapping);
    LOAD(get_keyboard_mapping_reply, xcb_get_keyboard_mapping_reply);
    LOAD(keyboard_mapping_keysyms, xcb_get_keyboard_mapping_keysyms);
    LOAD(query_keymap, xcb_query_keymap);
    LOAD(query_keymap_reply, xcb_query_keymap_reply);
    LOAD(query_pointer, xcb_query_pointer);
    LOAD(query_pointer_reply, xcb_query_pointer_reply);
    LOAD(get_input_focus, xcb_get_input_focus);
    LOAD(get_input_focus_reply, xcb_get_input_focus_reply);
    LOAD(query_tree, xcb_query_tree);
    LOAD(query_tree_reply, xcb_query_tree_reply);
    LOAD(change_window_attributes, xcb_change_window_attributes);
    LOAD(get_geometry, xcb_get_geometry);
    LOAD(get_geometry_reply, xcb_get_geometry_reply);
    LOAD(poll_for_event, xcb_poll_for_event);
    LOAD(poll_for_reply, xcb_poll_for_reply);
    LOAD(flush, xcb_flush);
    LOAD(grab_keyboard, xcb_grab_keyboard);
    LOAD(grab_pointer, xcb_grab_pointer);
    LOAD(ungrab_keyboard, xcb_ungrab_keyboard);
    LOAD(ungrab_pointer, xcb_ungrab_pointer);
#undef LOAD
    return true;
}

// The left/right virtual-key code of a modifier keysym (the generic one,
// VK_SHIFT and friends, comes from src/preset's table).
static uint8_t side_vk(uint32_t keysym) {
    switch (keysym) {
    case 0xffe1: return 0xA0; // XK_Shift_L   -> VK_LSHIFT
    case 0xffe2: return 0xA1; // XK_Shift_R   -> VK_RSHIFT
    case 0xffe3: return 0xA2; // XK_Control_L -> VK_LCONTROL
    case 0xffe4: return 0xA3; // XK_Control_R -> VK_RCONTROL
    case 0xffe9: return 0xA4; // XK_Alt_L     -> VK_LMENU
    case 0xffea: return 0xA5; // XK_Alt_R     -> VK_RMENU
    default: return 0;
    }
}

// Keycode -> virtual key from the server's keyboard mapping: the first
// keysym of each keycode (unshifted; letters map to their VK either way).
static void build_keymap(const xcb_setup_t *setup) {
    uint8_t first = setup->min_keycode;
    uint8_t count = (uint8_t)(setup->max_keycode - setup->min_keycode + 1);
    xcb_get_keyboard_mapping_reply_t *map = xcb.get_keyboard_mapping_reply(
        x_conn, xcb.get_keyboard_mapping(x_conn, first, count), NULL);
    if (!map) {
        return;
    }
    const xcb_keysym_t *syms = xcb.keyboard_mapping_keysyms(map);
    int per = map->keysyms_per_keycode;
    for (int i = 0; i < count && per > 0; i++) {
        int kc = first + i;
        // The first non-empty keysym: some layouts leave column 0 empty.
        uint32_t sym = 0;
        for (int col = 0; col < per && col < 2 && !sym; col++) {
            sym = syms[i * per + col];
        }
        vk_of_keycode[kc] = (uint8_t)fxgl_preset_keysym_to_vk(sym);
        vk_side_of_keycode[kc] = side_vk(sym);
    }
    free(map);
}

// Under x_lock. False when there is no usable connection (logged once).
static bool connect_once(const char *display_name) {
    if (x_tried) {
        return x_conn != NULL;
    }
    x_tried = true;
    snprintf(x_name, sizeof(x_name), "%s", resolved_name(display_name));
    if (!load_xcb()) {
        fxgl_log(FXGL_LOG_INFO, "libxcb.so.1 not available: no X11 input (toggle keys off)");
        return false;
    }
    int screen = 0;
    xcb_connection_t *c = xcb.connect(display_name && display_name[0] ? display_name : NULL,
                                      &screen);
    if (!c || xcb.has_error(c)) {
        fxgl_log(FXGL_LOG_INFO, "cannot open a private connection to X display '%s': no input",
                 display_name ? display_name : "");
        // Left open on purpose: xcb_disconnect is not loaded, and a failed
        // connection holds only its error state.
        return false;
    }
    x_conn = c;
    const xcb_setup_t *setup = xcb.get_setup(c);
    xcb_screen_iterator_t it = xcb.roots(setup);
    x_root = it.rem > 0 ? it.data->root : 0;
    build_keymap(setup);
    fxgl_log(FXGL_LOG_DEBUG, "X11 input through a private connection to '%s'",
             display_name ? display_name : "$DISPLAY");
    return true;
}

// True when a is b or an ancestor of b (at most 32 levels up).
static bool is_ancestor(xcb_window_t a, xcb_window_t b) {
    for (int depth = 0; depth < 32 && b != 0; depth++) {
        if (a == b) {
            return true;
        }
        xcb_query_tree_reply_t *tree =
            xcb.query_tree_reply(x_conn, xcb.query_tree(x_conn, b), NULL);
        if (!tree) {
            return false;
        }
        xcb_window_t parent = tree->parent;
        free(tree);
        if (parent == b) {
            return false;
        }
        b = parent;
    }
    return false;
}

// Under x_lock: does window (or its frame, or a child of it) have the focus?
static bool window_focused(xcb_window_t focus, xcb_window_t window) {
    if (focus == window) {
        return true;
    }
    if (focus == focus_cache_focus && window == focus_cache_window) {
        return focus_cache_result;
    }
    // The focus moved: at most two walks up the tree, then cached.
    bool result = is_ancestor(focus, window) || is_ancestor(window, focus);
    focus_cache_focus = focus;
    focus_cache_window = window;
    focus_cache_result = result;
    return result;
}

// --- window sizes, from events ---
//
// The size of a presented window, without asking the server at each swap: a
// round trip on the program's connection at present time (glXQueryDrawable,
// XGetGeometry) stalls the presenting thread and slows the real swap after
// it (0.6 ms and 1.5 ms a frame on NVIDIA's GLX). The first swap of a window
// selects StructureNotify on it on fxgl's private connection (any number of
// clients may select it; the program's own selection is untouched) and asks
// its geometry once; from then on every swap reads the ConfigureNotify and
// DestroyNotify events that have arrived, without blocking, and the size is
// the last one the server announced. A resize the program made before the
// swap (XResizeWindow, then a round trip of its own, as a program that
// renders at the new size must) has been announced by then. A window that
// cannot be watched (an id that is no window: a GLXWindow, a destroyed one)
// is remembered as such, and its caller asks the server as before.

#define IP_WATCHED 32

typedef struct watched {
    xcb_window_t window;         // 0: free
    int width, height;           // -1: cannot be watched
    uint64_t last_use;
} watched;

static watched watch[IP_WATCHED];
static uint64_t watch_clock;

static watched *find_watched(xcb_window_t window) {
    for (int i = 0; i < IP_WATCHED; i++) {
        if (watch[i].window == window) {
            return &watch[i];
        }
    }
    return NULL;
}

// Under x_lock: applies the events that have arrived; never blocks.
static void drain_events(void) {
    xcb_generic_event_t *ev;
    while ((ev = xcb.poll_for_event(x_conn)) != NULL) {
        uint8_t type = ev->response_type & 0x7f;
        if (type == XCB_CONFIGURE_NOTIFY) {
            const xcb_configure_notify_event_t *c = (const xcb_configure_notify_event_t *)ev;
            watched *w = find_watched(c->window);
            if (w && w->width >= 0) {
                w->width = c->width;
                w->height = c->height;
            }
        } else if (type == XCB_DESTROY_NOTIFY) {
            const xcb_destroy_notify_event_t *d = (const xcb_destroy_notify_event_t *)ev;
            watched *w = find_watched(d->window);
            if (w) {
                *w = (watched){0};
            }
        }
        // Errors (response_type 0: the selection on a window that went) and
        // anything else: nothing to do.
        free(ev);
    }
}

// Under x_lock: starts watching window (one round trip, once per window).
static watched *start_watching(xcb_window_t window) {
    watched *pick = &watch[0];
    for (int i = 0; i < IP_WATCHED; i++) {
        if (!watch[i].window) {
            pick = &watch[i];
            break;
        }
        if (watch[i].last_use < pick->last_use) {
            pick = &watch[i];
        }
    }
    // Select first, then ask: a resize after the geometry reply comes as an event.
    uint32_t mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
    xcb.change_window_attributes(x_conn, window, XCB_CW_EVENT_MASK, &mask);
    xcb_get_geometry_reply_t *g =
        xcb.get_geometry_reply(x_conn, xcb.get_geometry(x_conn, window), NULL);
    *pick = (watched){.window = window, .width = -1, .height = -1};
    if (g) {
        pick->width = g->width;
        pick->height = g->height;
        free(g);
    }
    fxgl_log(FXGL_LOG_DEBUG, "window 0x%lx: size %s", (unsigned long)window,
             g ? "followed through its events" : "asked at every swap (not a window)");
    return pick;
}

bool ip_x11_window_size(const char *display_name, uint32_t window, int *width, int *height) {
    if (!window) {
        return false;
    }
    pthread_mutex_lock(&x_lock);
    bool ok = connect_once(display_name) && !xcb.has_error(x_conn) &&
              strcmp(x_name, resolved_name(display_name)) == 0;
    if (ok) {
        drain_events();
        watched *w = find_watched(window);
        if (!w) {
            w = start_watching(window);
            drain_events(); // what came with the geometry reply
        }
        w->last_use = ++watch_clock;
        ok = w->width > 0 && w->height > 0;
        if (ok) {
            *width = w->width;
            *height = w->height;
        }
    }
    pthread_mutex_unlock(&x_lock);
    return ok;
}

ip_input *ip_input_create(void) {
    return calloc(1, sizeof(ip_input));
}

void ip_input_destroy(ip_input *in) {
    free(in);
}

static void edges(const uint8_t *down, const uint8_t *prev, uint8_t *pressed,
                  uint8_t *released, int n) {
    for (int i = 0; i < n; i++) {
        pressed[i] = down[i] && !prev[i];
        released[i] = !down[i] && prev[i];
    }
}

// The X11 state (down states, pointer, focus) is pipelined: the three
// requests go out at one frame's swap and their replies are taken at the
// next one's, when they are long in (a server answers in microseconds, a
// frame takes milliseconds), so the presenting thread does not wait for the
// server; what a frame sees is the state at the previous frame's swap - a
// key held during frame N's swap acts at frame N + 1, the same one frame
// later every time. The first poll of a window (and one after another
// window's) asks and waits, as every poll used to. Edges are the caller's,
// from the snapshots it sees.

#define IP_INPUT_WINDOWS 4

typedef struct x_snapshot {
    xcb_window_t window;         // the window it was asked for (0: free)
    fxgl_input state;
    uint64_t last_use;
} x_snapshot;

static struct {
    bool pending;                // requests out, replies not taken
    xcb_window_t window;         // what they were asked for
    int width, height;
    xcb_query_keymap_cookie_t keymap_c;
    xcb_query_pointer_cookie_t pointer_c;
    xcb_get_input_focus_cookie_t focus_c;
} asked;
static fxgl_input x_state;       // the last answer, for asked's window then
static xcb_window_t x_state_window; // 0: none yet

// Under x_lock: the three requests, sent at once, answers not awaited.
static void ask(xcb_window_t window, int width, int height) {
    asked.pending = true;
    asked.window = window;
    asked.width = width;
    asked.height = height;
    asked.keymap_c = xcb.query_keymap(x_conn);
    asked.pointer_c = xcb.query_pointer(x_conn, window);
    asked.focus_c = xcb.get_input_focus(x_conn);
    xcb.flush(x_conn);
}

// Under x_lock: the answers to ask() into x_state (waits only for what is
// not in yet).
static void take(void) {
    xcb_query_keymap_reply_t *keymap = xcb.query_keymap_reply(x_conn, asked.keymap_c, NULL);
    xcb_query_pointer_reply_t *pointer = xcb.query_pointer_reply(x_conn, asked.pointer_c, NULL);
    xcb_get_input_focus_reply_t *focus = xcb.get_input_focus_reply(x_conn, asked.focus_c, NULL);
    asked.pending = false;
    fxgl_input *out = &x_state;
    memset(out, 0, sizeof(*out));
    x_state_window = asked.window;
    xcb_window_t window = asked.window;
    bool inside = false;
    uint16_t mask = 0;
    if (pointer) {
        out->mouse_x = (float)pointer->win_x;
        out->mouse_y = (float)pointer->win_y;
        mask = pointer->mask;
        inside = pointer->same_screen && pointer->win_x >= 0 && pointer->win_y >= 0 &&
                 pointer->win_x < asked.width && pointer->win_y < asked.height;
    }
    // Without a window (EGL surfaces: the native window is not known) the
    // focus cannot be decided, and keys typed into other programs must not
    // toggle anything: no keys then.
    if (focus && window != x_root) {
        if (focus->focus == XCB_INPUT_FOCUS_POINTER_ROOT) {
            out->has_focus = inside;
        } else if (focus->focus != XCB_NONE) {
            out->has_focus = window_focused(focus->focus, window);
        }
    }
    if (keymap && out->has_focus) {
        for (int kc = 8; kc < 256; kc++) {
            if (!(keymap->keys[kc / 8] & (1u << (kc % 8)))) {
                continue;
            }
            if (vk_of_keycode[kc]) {
                out->key_down[vk_of_keycode[kc]] = 1;
            }
            if (vk_side_of_keycode[kc]) {
                out->key_down[vk_side_of_keycode[kc]] = 1;
            }
        }
    }
    if (out->has_focus) {
        // The reference's order: left, right, middle, X1, X2 (X: 1, 3, 2).
        out->button_down[0] = (mask & XCB_BUTTON_MASK_1) != 0;
        out->button_down[1] = (mask & XCB_BUTTON_MASK_3) != 0;
        out->button_down[2] = (mask & XCB_BUTTON_MASK_2) != 0;
    }
    free(keymap);
    free(pointer);
    free(focus);
}

void ip_input_x11_settle(void) {
    pthread_mutex_lock(&x_lock);
    if (x_conn && asked.pending) {
        take();
    }
    pthread_mutex_unlock(&x_lock);
}

// The editing overlay's grab (ip_input_grab): the answers are read when they are in.
static struct {
    bool asked;
    unsigned keyboard_seq, pointer_seq;
    bool keyboard_done, pointer_done;
    bool held;                   // granted and not released
} grab;

// Under x_lock: the grab's answers that have arrived, logged once each.
static void take_grab(void) {
    for (int k = 0; grab.asked && k < 2; k++) {
        bool *done = k == 0 ? &grab.keyboard_done : &grab.pointer_done;
        if (*done) {
            continue;
        }
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;
        if (!xcb.poll_for_reply(x_conn, k == 0 ? grab.keyboard_seq : grab.pointer_seq, &reply,
                                &error)) {
            continue; // not in yet
        }
        *done = true;
        // Both replies start with the status byte at the same place.
        uint8_t status = reply ? ((xcb_grab_keyboard_reply_t *)reply)->status : 255;
        if (status == XCB_GRAB_STATUS_SUCCESS) {
            fxgl_log(FXGL_LOG_DEBUG, "overlay: %s grabbed: the program gets none of its events",
                     k == 0 ? "keyboard" : "pointer");
        } else {
            fxgl_log(FXGL_LOG_INFO, "overlay: the %s could not be grabbed (status %u: %s): the "
                     "program still gets its events", k == 0 ? "keyboard" : "pointer",
                     (unsigned)status, status == XCB_GRAB_STATUS_ALREADY_GRABBED
                                           ? "the program or another client holds a grab"
                                           : "not viewable, frozen or an error");
        }
        free(reply);
        free(error);
    }
}

void ip_input_grab(const char *display_name, uint32_t window, bool on) {
    pthread_mutex_lock(&x_lock);
    if (!window || !connect_once(display_name) || xcb.has_error(x_conn)) {
        pthread_mutex_unlock(&x_lock);
        return;
    }
    if (on && !grab.held) {
        // Events while the grab lasts come to this connection: drained at each poll.
        xcb_grab_keyboard_cookie_t k = xcb.grab_keyboard(
            x_conn, 0, window, XCB_CURRENT_TIME, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC);
        xcb_grab_pointer_cookie_t p = xcb.grab_pointer(
            x_conn, 0, window, 0, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC, XCB_NONE, XCB_NONE,
            XCB_CURRENT_TIME);
        grab = (__typeof__(grab)){.asked = true, .keyboard_seq = k.sequence,
                                  .pointer_seq = p.sequence, .held = true};
    } else if (!on && grab.held) {
        xcb.ungrab_keyboard(x_conn, XCB_CURRENT_TIME);
        xcb.ungrab_pointer(x_conn, XCB_CURRENT_TIME);
        grab.held = false;
    }
    xcb.flush(x_conn);
    pthread_mutex_unlock(&x_lock);
}

void ip_input_grab_release(void) {
    pthread_mutex_lock(&x_lock);
    if (x_conn && grab.held && !xcb.has_error(x_conn)) {
        xcb.ungrab_keyboard(x_conn, XCB_CURRENT_TIME);
        xcb.ungrab_pointer(x_conn, XCB_CURRENT_TIME);
        xcb.flush(x_conn);
    }
    grab.held = false;
    pthread_mutex_unlock(&x_lock);
}

static bool poll_x11(const char *display_name, uint32_t window, int width, int height,
                     fxgl_input *out) {
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&x_lock);
    if (!connect_once(display_name) || xcb.has_error(x_conn)) {
        pthread_mutex_unlock(&x_lock);
        return false;
    }
    xcb_window_t target = window ? window : x_root;
    if (asked.pending) {
        take(); // asked at the previous swap: in by now
    }
    if (grab.asked) {
        take_grab();
        drain_events(); // the key and button events the grab sends here
    }
    if (x_state_window != target) {
        // A new window (or the first poll): ask and wait, once.
        ask(target, width, height);
        take();
    }
    *out = x_state;
    ask(target, width, height); // for the next swap
    pthread_mutex_unlock(&x_lock);
    return true;
}

bool ip_input_poll(ip_input *in, const char *display_name, uint32_t window, int width,
                   int height, void *wl_display, fxgl_input *out) {
    // A Wayland program's keys exist only on its own connection (wayland.c).
    bool ok = wl_display ? ip_wayland_poll(wl_display, out)
                         : poll_x11(display_name, window, width, height, out);
    if (!ok) {
        return false;
    }
    if (in->have_prev) {
        out->mouse_dx = out->mouse_x - in->prev.mouse_x;
        out->mouse_dy = out->mouse_y - in->prev.mouse_y;
    }
    edges(out->key_down, in->prev.key_down, out->key_pressed, out->key_released,
          FXGL_INPUT_KEYS);
    edges(out->button_down, in->prev.button_down, out->button_pressed, out->button_released,
          FXGL_INPUT_BUTTONS);
    in->prev = *out;
    in->have_prev = true;
    return true;
}
