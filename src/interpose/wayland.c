/*
 * wayland.c - the keyboard and pointer of a Wayland program (for input.c).
 *
 * A Wayland client sees input only as events on its own connection, for its
 * own surfaces; there is nothing to poll and no second connection that
 * would be told about another client's keys. So fxgl listens on the
 * program's wl_display (captured by egl.c at eglGetDisplay /
 * eglGetPlatformDisplay[EXT]) with objects of its own on a PRIVATE event
 * queue: a registry made through a display wrapper set to that queue, the
 * first wl_seat, its wl_keyboard and wl_pointer (proxies inherit the queue
 * of the proxy that made them). The compositor sends keys to every
 * wl_keyboard of the client that has the focus, ours included, and the
 * program's own objects and default queue are never touched: we dispatch
 * only our queue.
 *
 * Once per frame, never blocking: flush our requests, then the documented
 * non-blocking read (wl_display_prepare_read_queue, poll with timeout 0,
 * wl_display_read_events or wl_display_cancel_read) and
 * wl_display_dispatch_queue_pending on our queue. Events read for the
 * program's objects wait on the program's queues as if the program had read
 * them itself. One caveat of libwayland's read protocol: when another
 * thread of the program has prepared a read and not yet read,
 * wl_display_read_events waits for that thread's read; we only call it when
 * the socket is readable, so that thread is waking up too.
 *
 * Keys are tracked per evdev key code from wl_keyboard.enter (the keys held
 * on entry), key and leave, and mapped to Windows virtual keys through the
 * compositor's keymap (xkbcommon, the first keysym of layout 0, as input.c
 * does for X11), so the rest of fxgl is unchanged. They count only while one
 * of the program's surfaces has the keyboard focus (the compositor sends
 * keys to no other client anyway); leaving releases them all. The pointer
 * gives the position on the surface under it, buttons (left, right, middle,
 * side, extra) and the vertical wheel (discrete steps when the compositor
 * sends them, else 10 units a step).
 *
 * libwayland-client is the program's (dlopen RTLD_NOLOAD: it is loaded
 * wherever there is a wl_display) and libxkbcommon is dlopened on first use,
 * so libfxgl links neither and X11 programs never load them. Missing either:
 * logged once, no Wayland input.
 *
 * Lifetime: the objects and the queue are destroyed at eglTerminate of the
 * EGL display made on the wl_display (egl.c), which a program calls before
 * wl_display_disconnect. A program that disconnects without eglTerminate
 * and connects again at the same address would leave stale objects here
 * (not handled).
 */
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client-protocol.h>
#include <xkbcommon/xkbcommon.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"

#define WL_MAX_DISPLAYS 4
#define WL_SEAT_VERSION 5        // every listener below covers the events up to this version
#define WL_KEYS 256              // evdev key codes tracked (every key of a keyboard)
// evdev BTN_LEFT; then RIGHT, MIDDLE, SIDE, EXTRA (linux/input-event-codes.h)
#define BTN_FIRST 0x110

// The libwayland-client and libxkbcommon functions we use, resolved once.
typedef struct wl_api {
    __typeof__(wl_display_create_queue) *create_queue;
    __typeof__(wl_event_queue_destroy) *queue_destroy;
    __typeof__(wl_proxy_create_wrapper) *create_wrapper;
    __typeof__(wl_proxy_wrapper_destroy) *wrapper_destroy;
    __typeof__(wl_proxy_set_queue) *set_queue;
    __typeof__(wl_proxy_marshal_constructor) *marshal_constructor;
    __typeof__(wl_proxy_marshal_constructor_versioned) *marshal_constructor_versioned;
    __typeof__(wl_proxy_marshal) *marshal;
    __typeof__(wl_proxy_add_listener) *add_listener;
    __typeof__(wl_proxy_destroy) *proxy_destroy;
    __typeof__(wl_proxy_get_version) *get_version;
    __typeof__(wl_display_prepare_read_queue) *prepare_read_queue;
    __typeof__(wl_display_read_events) *read_events;
    __typeof__(wl_display_cancel_read) *cancel_read;
    __typeof__(wl_display_dispatch_queue_pending) *dispatch_queue_pending;
    __typeof__(wl_display_flush) *flush;
    __typeof__(wl_display_get_fd) *get_fd;
    __typeof__(wl_display_get_error) *get_error;
    const struct wl_interface *registry_interface;
    const struct wl_interface *seat_interface;
    const struct wl_interface *keyboard_interface;
    const struct wl_interface *pointer_interface;
    __typeof__(xkb_context_new) *xkb_context_new;
    __typeof__(xkb_context_unref) *xkb_context_unref;
    __typeof__(xkb_keymap_new_from_string) *xkb_keymap_new_from_string;
    __typeof__(xkb_keymap_unref) *xkb_keymap_unref;
    __typeof__(xkb_keymap_key_get_syms_by_level) *xkb_key_get_syms_by_level;
} wl_api;

// fxgl's objects on one of the program's connections.
typedef struct wl_conn {
    struct wl_display *display;  // the program's; NULL: slot free
    struct wl_event_queue *queue; // ours
    struct wl_proxy *registry;
    struct wl_proxy *seat;
    uint32_t seat_name;          // its global name (global_remove)
    struct wl_proxy *keyboard;
    struct wl_proxy *pointer;
    bool broken;                 // the connection failed: never touched again
    bool keyboard_focus;
    bool pointer_focus;
    uint8_t down[WL_KEYS];       // by evdev key code
    uint8_t vk[WL_KEYS];         // evdev key code -> Windows virtual key (from the keymap)
    uint8_t vk_side[WL_KEYS];    // evdev key code -> VK_LSHIFT..VK_RMENU, or 0
    float x, y;                  // surface-local pointer position
    uint8_t buttons[FXGL_INPUT_BUTTONS];
    int wheel_discrete;          // since the last poll, down positive (the protocol's sign)
    double wheel_units;
} wl_conn;

// Process-wide like the connections they listen on; all under wl_lock.
static pthread_mutex_t wl_lock = PTHREAD_MUTEX_INITIALIZER;
static wl_api api;
static bool api_tried;
static bool api_ok;
static struct xkb_context *xkb_ctx;
static wl_conn conns[WL_MAX_DISPLAYS];

static bool load_api(void) {
    ip_dlopen_fn real_dlopen = ip_real_libc_dlopen();
    if (!real_dlopen) {
        return false;
    }
    // The program's own libwayland-client: a second copy could not use its display.
    void *wl = real_dlopen("libwayland-client.so.0", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    void *xkb = real_dlopen("libxkbcommon.so.0", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (!xkb) {
        xkb = real_dlopen("libxkbcommon.so.0", RTLD_LAZY | RTLD_LOCAL);
    }
    if (!wl || !xkb) {
        fxgl_log(FXGL_LOG_INFO, "%s not available: no Wayland input (toggle keys off)",
                 !wl ? "libwayland-client.so.0" : "libxkbcommon.so.0");
        return false;
    }
#define LOAD(h, field, name)                                                              \
    do {                                                                                  \
        api.field = (__typeof__(api.field))(uintptr_t)ip_real_libc_dlsym(h, #name);       \
        if (!api.field) {                                                                 \
            fxgl_log(FXGL_LOG_INFO, "%s missing: no Wayland input", #name);              \
            return false;                                                                 \
        }                                                                                 \
    } while (0)
    LOAD(wl, create_queue, wl_display_create_queue);
    LOAD(wl, queue_destroy, wl_event_queue_destroy);
    LOAD(wl, create_wrapper, wl_proxy_create_wrapper);
    LOAD(wl, wrapper_destroy, wl_proxy_wrapper_destroy);
    LOAD(wl, set_queue, wl_proxy_set_queue);
    LOAD(wl, marshal_constructor, wl_proxy_marshal_constructor);
    LOAD(wl, marshal_constructor_versioned, wl_proxy_marshal_constructor_versioned);
    LOAD(wl, marshal, wl_proxy_marshal);
    LOAD(wl, add_listener, wl_proxy_add_listener);
    LOAD(wl, proxy_destroy, wl_proxy_destroy);
    LOAD(wl, get_version, wl_proxy_get_version);
    LOAD(wl, prepare_read_queue, wl_display_prepare_read_queue);
    LOAD(wl, read_events, wl_display_read_events);
    LOAD(wl, cancel_read, wl_display_cancel_read);
    LOAD(wl, dispatch_queue_pending, wl_display_dispatch_queue_pending);
    LOAD(wl, flush, wl_display_flush);
    LOAD(wl, get_fd, wl_display_get_fd);
    LOAD(wl, get_error, wl_display_get_error);
    LOAD(wl, registry_interface, wl_registry_interface);
    LOAD(wl, seat_interface, wl_seat_interface);
    LOAD(wl, keyboard_interface, wl_keyboard_interface);
    LOAD(wl, pointer_interface, wl_pointer_interface);
    LOAD(xkb, xkb_context_new, xkb_context_new);
    LOAD(xkb, xkb_context_unref, xkb_context_unref);
    LOAD(xkb, xkb_keymap_new_from_string, xkb_keymap_new_from_string);
    LOAD(xkb, xkb_keymap_unref, xkb_keymap_unref);
    LOAD(xkb, xkb_key_get_syms_by_level, xkb_keymap_key_get_syms_by_level);
#undef LOAD
    xkb_ctx = api.xkb_context_new(XKB_CONTEXT_NO_DEFAULT_INCLUDES |
                                  XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
    if (!xkb_ctx) {
        fxgl_log(FXGL_LOG_INFO, "xkb_context_new failed: no Wayland input");
        return false;
    }
    return true;
}

// The left/right virtual key of a modifier keysym (input.c's table).
static uint8_t side_vk(uint32_t keysym) {
    switch (keysym) {
    case XKB_KEY_Shift_L: return 0xA0;   // VK_LSHIFT
    case XKB_KEY_Shift_R: return 0xA1;   // VK_RSHIFT
    case XKB_KEY_Control_L: return 0xA2; // VK_LCONTROL
    case XKB_KEY_Control_R: return 0xA3; // VK_RCONTROL
    case XKB_KEY_Alt_L: return 0xA4;     // VK_LMENU
    case XKB_KEY_Alt_R: return 0xA5;     // VK_RMENU
    default: return 0;
    }
}

static void release_all(wl_conn *c) {
    memset(c->down, 0, sizeof(c->down));
}

// --- wl_keyboard ---

static void keyboard_keymap(void *data, struct wl_keyboard *kb, uint32_t format, int32_t fd,
                            uint32_t size) {
    wl_conn *c = data;
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0) {
        close(fd);
        return;
    }
    char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) {
        fxgl_log_errno(FXGL_LOG_INFO, "cannot map the Wayland keymap");
        return;
    }
    // The text is NUL-terminated within size (the protocol says so).
    struct xkb_keymap *map = text[size - 1] == '\0'
                                 ? api.xkb_keymap_new_from_string(xkb_ctx, text,
                                                                  XKB_KEYMAP_FORMAT_TEXT_V1, 0)
                                 : NULL;
    munmap(text, size);
    if (!map) {
        fxgl_log(FXGL_LOG_INFO, "the compositor's keymap did not compile: no Wayland keys");
        return;
    }
    memset(c->vk, 0, sizeof(c->vk));
    memset(c->vk_side, 0, sizeof(c->vk_side));
    for (uint32_t code = 0; code < WL_KEYS; code++) {
        // xkb key codes are evdev codes + 8. The first keysym of the first
        // two levels, unshifted first (X11 path: the first non-empty column).
        uint32_t sym = 0;
        for (xkb_level_index_t level = 0; level < 2 && !sym; level++) {
            const xkb_keysym_t *syms = NULL;
            if (api.xkb_key_get_syms_by_level(map, code + 8, 0, level, &syms) > 0) {
                sym = syms[0];
            }
        }
        c->vk[code] = (uint8_t)fxgl_preset_keysym_to_vk(sym);
        c->vk_side[code] = side_vk(sym);
    }
    api.xkb_keymap_unref(map);
    fxgl_log(FXGL_LOG_DEBUG, "Wayland keymap of %u bytes read", size);
}

static void keyboard_enter(void *data, struct wl_keyboard *kb, uint32_t serial,
                           struct wl_surface *surface, struct wl_array *keys) {
    wl_conn *c = data;
    c->keyboard_focus = true;
    release_all(c);
    const uint32_t *key = keys->data;
    for (size_t i = 0; keys->data && i < keys->size / sizeof(uint32_t); i++) {
        if (key[i] < WL_KEYS) {
            c->down[key[i]] = 1;
        }
    }
}

static void keyboard_leave(void *data, struct wl_keyboard *kb, uint32_t serial,
                           struct wl_surface *surface) {
    wl_conn *c = data;
    c->keyboard_focus = false;
    release_all(c);
}

static void keyboard_key(void *data, struct wl_keyboard *kb, uint32_t serial, uint32_t time,
                         uint32_t key, uint32_t state) {
    wl_conn *c = data;
    if (key < WL_KEYS) {
        c->down[key] = state == WL_KEYBOARD_KEY_STATE_PRESSED;
    }
}

static void keyboard_modifiers(void *data, struct wl_keyboard *kb, uint32_t serial,
                               uint32_t depressed, uint32_t latched, uint32_t locked,
                               uint32_t group) {
    // The modifier keys arrive as keys; the state itself is not needed.
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *kb, int32_t rate,
                                 int32_t delay) {
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap,
    .enter = keyboard_enter,
    .leave = keyboard_leave,
    .key = keyboard_key,
    .modifiers = keyboard_modifiers,
    .repeat_info = keyboard_repeat_info,
};

// --- wl_pointer ---

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial,
                          struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y) {
    wl_conn *c = data;
    c->pointer_focus = true;
    c->x = (float)wl_fixed_to_double(x);
    c->y = (float)wl_fixed_to_double(y);
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial,
                          struct wl_surface *surface) {
    wl_conn *c = data;
    c->pointer_focus = false;
    memset(c->buttons, 0, sizeof(c->buttons));
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x,
                           wl_fixed_t y) {
    wl_conn *c = data;
    c->x = (float)wl_fixed_to_double(x);
    c->y = (float)wl_fixed_to_double(y);
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
                           uint32_t button, uint32_t state) {
    wl_conn *c = data;
    // evdev's order (left, right, middle, side, extra) is the reference's.
    if (button >= BTN_FIRST && button < BTN_FIRST + FXGL_INPUT_BUTTONS) {
        c->buttons[button - BTN_FIRST] = state == WL_POINTER_BUTTON_STATE_PRESSED;
    }
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
                         wl_fixed_t value) {
    wl_conn *c = data;
    if (axis == WL_POINTER_AXIS_VERTICAL_SCROLL) {
        c->wheel_units += wl_fixed_to_double(value);
    }
}

static void pointer_frame(void *data, struct wl_pointer *p) {
}

static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source) {
}

static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis) {
}

static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis,
                                  int32_t discrete) {
    wl_conn *c = data;
    if (axis == WL_POINTER_AXIS_VERTICAL_SCROLL) {
        c->wheel_discrete += discrete;
    }
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter,
    .leave = pointer_leave,
    .motion = pointer_motion,
    .button = pointer_button,
    .axis = pointer_axis,
    .frame = pointer_frame,
    .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete,
};

// --- wl_seat ---

// Sends the release request where the object's version has one, then
// forgets the proxy (events still in flight for it are dropped by libwayland).
static void release_proxy(struct wl_proxy **p, uint32_t opcode, uint32_t since) {
    if (!*p) {
        return;
    }
    if (api.get_version(*p) >= since) {
        api.marshal(*p, opcode);
    }
    api.proxy_destroy(*p);
    *p = NULL;
}

static void drop_keyboard(wl_conn *c) {
    release_proxy(&c->keyboard, WL_KEYBOARD_RELEASE, WL_KEYBOARD_RELEASE_SINCE_VERSION);
    c->keyboard_focus = false;
    release_all(c);
}

static void drop_pointer(wl_conn *c) {
    release_proxy(&c->pointer, WL_POINTER_RELEASE, WL_POINTER_RELEASE_SINCE_VERSION);
    c->pointer_focus = false;
    memset(c->buttons, 0, sizeof(c->buttons));
}

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps) {
    wl_conn *c = data;
    if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !c->keyboard) {
        c->keyboard = api.marshal_constructor(c->seat, WL_SEAT_GET_KEYBOARD,
                                              api.keyboard_interface, NULL);
        if (c->keyboard) {
            api.add_listener(c->keyboard, (void (**)(void))&keyboard_listener, c);
        }
    } else if (!(caps & WL_SEAT_CAPABILITY_KEYBOARD) && c->keyboard) {
        drop_keyboard(c);
    }
    if ((caps & WL_SEAT_CAPABILITY_POINTER) && !c->pointer) {
        c->pointer = api.marshal_constructor(c->seat, WL_SEAT_GET_POINTER,
                                             api.pointer_interface, NULL);
        if (c->pointer) {
            api.add_listener(c->pointer, (void (**)(void))&pointer_listener, c);
        }
    } else if (!(caps & WL_SEAT_CAPABILITY_POINTER) && c->pointer) {
        drop_pointer(c);
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {
}

static const struct wl_seat_listener seat_listener = {
    .capabilities = seat_capabilities,
    .name = seat_name,
};

static void drop_seat(wl_conn *c) {
    drop_keyboard(c);
    drop_pointer(c);
    release_proxy(&c->seat, WL_SEAT_RELEASE, WL_SEAT_RELEASE_SINCE_VERSION);
}

// --- wl_registry: the first wl_seat ---

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
                            const char *interface, uint32_t version) {
    wl_conn *c = data;
    if (c->seat || strcmp(interface, "wl_seat") != 0) {
        return;
    }
    uint32_t v = version < WL_SEAT_VERSION ? version : WL_SEAT_VERSION;
    c->seat = api.marshal_constructor_versioned(c->registry, WL_REGISTRY_BIND,
                                                api.seat_interface, v, name,
                                                api.seat_interface->name, v, NULL);
    if (c->seat) {
        c->seat_name = name;
        api.add_listener(c->seat, (void (**)(void))&seat_listener, c);
        fxgl_log(FXGL_LOG_DEBUG, "Wayland input: wl_seat %u (version %u) on a private queue",
                 name, v);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    wl_conn *c = data;
    if (c->seat && name == c->seat_name) {
        drop_seat(c);
    }
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

// --- connections ---

// Under wl_lock: our objects on display, created on first use.
static wl_conn *conn_for(struct wl_display *display) {
    wl_conn *free_slot = NULL;
    for (int i = 0; i < WL_MAX_DISPLAYS; i++) {
        if (conns[i].display == display) {
            return &conns[i];
        }
        if (!conns[i].display && !free_slot) {
            free_slot = &conns[i];
        }
    }
    if (!free_slot) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "more than %d Wayland displays: no input on the others",
                      WL_MAX_DISPLAYS);
        return NULL;
    }
    wl_conn *c = free_slot;
    memset(c, 0, sizeof(*c));
    c->display = display;
    c->queue = api.create_queue(display);
    // The registry is made through a wrapper of the display set to our
    // queue: wl_display itself stays on the program's default queue, and
    // no event of ours can land there, even for an instant.
    struct wl_proxy *wrapper = c->queue ? api.create_wrapper(display) : NULL;
    if (wrapper) {
        api.set_queue(wrapper, c->queue);
        c->registry = api.marshal_constructor(wrapper, WL_DISPLAY_GET_REGISTRY,
                                              api.registry_interface, NULL);
        api.wrapper_destroy(wrapper);
    }
    if (!c->registry) {
        fxgl_log(FXGL_LOG_INFO, "cannot make a private Wayland queue and registry: no input");
        c->broken = true;
        return c;
    }
    api.add_listener(c->registry, (void (**)(void))&registry_listener, c);
    fxgl_log(FXGL_LOG_DEBUG, "Wayland input: private event queue on wl_display %p",
             (void *)display);
    return c;
}

// Under wl_lock: reads what has arrived (without blocking) and dispatches
// our queue only.
static void pump(wl_conn *c) {
    struct wl_display *d = c->display;
    if (api.get_error(d)) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "the Wayland connection failed: no more Wayland input");
        c->broken = true;
        return;
    }
    api.flush(d); // our requests; EAGAIN (socket full) leaves them for the next flush
    while (api.prepare_read_queue(d, c->queue) != 0) {
        if (api.dispatch_queue_pending(d, c->queue) < 0) {
            c->broken = true;
            return;
        }
    }
    struct pollfd p = {.fd = api.get_fd(d), .events = POLLIN};
    if (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
        api.read_events(d);
    } else {
        api.cancel_read(d);
    }
    if (api.dispatch_queue_pending(d, c->queue) < 0) {
        c->broken = true;
    }
}

bool ip_wayland_poll(void *display, fxgl_input *out) {
    memset(out, 0, sizeof(*out));
    if (!display) {
        return false;
    }
    pthread_mutex_lock(&wl_lock);
    if (!api_tried) {
        api_tried = true;
        api_ok = load_api();
    }
    wl_conn *c = api_ok ? conn_for(display) : NULL;
    if (!c || c->broken) {
        pthread_mutex_unlock(&wl_lock);
        return false;
    }
    pump(c);
    out->has_focus = c->keyboard_focus;
    if (c->keyboard_focus) {
        for (int code = 0; code < WL_KEYS; code++) {
            if (!c->down[code]) {
                continue;
            }
            if (c->vk[code]) {
                out->key_down[c->vk[code]] = 1;
            }
            if (c->vk_side[code]) {
                out->key_down[c->vk_side[code]] = 1;
            }
        }
    }
    out->mouse_x = c->x;
    out->mouse_y = c->y;
    if (c->pointer_focus) {
        memcpy(out->button_down, c->buttons, sizeof(c->buttons));
    }
    // Up positive (the reference's sign); the protocol's is down positive.
    out->wheel_delta = c->wheel_discrete != 0 ? (float)-c->wheel_discrete
                                              : (float)(-c->wheel_units / 10.0);
    c->wheel_discrete = 0;
    c->wheel_units = 0;
    pthread_mutex_unlock(&wl_lock);
    return true;
}

void ip_wayland_display_gone(void *display) {
    if (!display) {
        return;
    }
    pthread_mutex_lock(&wl_lock);
    for (int i = 0; i < WL_MAX_DISPLAYS && api_ok; i++) {
        wl_conn *c = &conns[i];
        if (c->display != display) {
            continue;
        }
        drop_seat(c);
        if (c->registry) {
            api.proxy_destroy(c->registry);
        }
        if (c->queue) {
            api.queue_destroy(c->queue);
        }
        memset(c, 0, sizeof(*c));
        fxgl_log(FXGL_LOG_DEBUG, "Wayland input on wl_display %p closed", display);
    }
    pthread_mutex_unlock(&wl_lock);
}
