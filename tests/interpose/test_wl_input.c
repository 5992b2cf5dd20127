/*
 * test_wl_input.c - wayland.c (through input.c) against a real Wayland
 * compositor fixture.
 *
 * weston's headless backend has no way to inject keys, so the compositor
 * here is a minimal one written with libwayland-server: a wl_compositor
 * (surfaces do nothing) and a wl_seat whose wl_keyboard sends a keymap
 * compiled by xkbcommon from xkeyboard-config's layouts (us, de) and the
 * key, enter and leave events the test asks for, and whose wl_pointer
 * sends enter, motion, buttons and wheel. The "program" is this process: it
 * connects over a socketpair, binds the seat and takes its own wl_keyboard
 * on the default queue, as a real client would. Then ip_input_poll runs on
 * the program's wl_display exactly as the frame hook calls it: fxgl's
 * module makes its own objects on a private queue of that connection.
 *
 * Everything is one thread and deterministic: the server is pumped
 * (dispatch client requests, flush events) between polls, and the sockets
 * deliver at once. Expected virtual keys are written out by hand from the
 * evdev codes (linux/input-event-codes.h) and Windows' VK table, e.g.
 * KEY_F11 (87) -> VK_F11 0x7A, and in the German layout KEY_Y (21), which
 * types 'z', -> 'Z' 0x5A: the keymap is read, not an evdev table.
 */
#include <check.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <wayland-client.h>
#include <wayland-server.h>
#include <xkbcommon/xkbcommon.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_test.h"

// evdev key and button codes (linux/input-event-codes.h), written out.
#define EV_KEY_1 2
#define EV_KEY_I 23
#define EV_KEY_Y 21
#define EV_KEY_Z 44
#define EV_KEY_A 30
#define EV_KEY_LEFTSHIFT 42
#define EV_KEY_SPACE 57
#define EV_KEY_F11 87
#define EV_KEY_RIGHTCTRL 97
#define EV_KEY_HOME 102
#define EV_BTN_LEFT 0x110
#define EV_BTN_RIGHT 0x111
#define EV_BTN_MIDDLE 0x112
#define EV_BTN_SIDE 0x113

// Windows virtual keys.
#define VK_SHIFT 0x10
#define VK_CONTROL 0x11
#define VK_SPACE 0x20
#define VK_HOME 0x24
#define VK_1 0x31
#define VK_A 0x41
#define VK_I 0x49
#define VK_Y 0x59
#define VK_Z 0x5A
#define VK_F11 0x7A
#define VK_LSHIFT 0xA0
#define VK_RCONTROL 0xA3

#define MAX_RES 8

typedef struct fixture {
    // The compositor.
    struct wl_display *server;
    struct wl_event_loop *loop;
    struct wl_resource *keyboards[MAX_RES];
    struct wl_resource *pointers[MAX_RES];
    struct wl_resource *surface;
    int keymap_fd;
    uint32_t keymap_size;
    uint32_t serial;
    // The program.
    struct wl_display *display;
    struct wl_compositor *compositor;
    struct wl_seat *seat;
    struct wl_keyboard *keyboard;
    struct wl_surface *wl_surface;
    uint32_t program_keys[64];   // the key events its own listener saw, in order
    int program_key_count;
    int program_keymaps;
    // fxgl's consumer.
    ip_input *in;
} fixture;

static fixture fx;

// --- the compositor ---

static void resource_destroy(struct wl_client *client, struct wl_resource *resource) {
    wl_resource_destroy(resource);
}

static void forget(struct wl_resource **list, struct wl_resource *resource) {
    for (int i = 0; i < MAX_RES; i++) {
        if (list[i] == resource) {
            list[i] = NULL;
        }
    }
}

static void keyboard_gone(struct wl_resource *resource) {
    forget(fx.keyboards, resource);
}

static void pointer_gone(struct wl_resource *resource) {
    forget(fx.pointers, resource);
}

static void surface_gone(struct wl_resource *resource) {
    if (fx.surface == resource) {
        fx.surface = NULL;
    }
}

static void add(struct wl_resource **list, struct wl_resource *resource) {
    for (int i = 0; i < MAX_RES; i++) {
        if (!list[i]) {
            list[i] = resource;
            return;
        }
    }
    ck_abort_msg("too many resources");
}

static int count(struct wl_resource **list) {
    int n = 0;
    for (int i = 0; i < MAX_RES; i++) {
        n += list[i] != NULL;
    }
    return n;
}

static const struct wl_surface_interface surface_impl = {.destroy = resource_destroy};

static void compositor_create_surface(struct wl_client *client, struct wl_resource *resource,
                                      uint32_t id) {
    struct wl_resource *s =
        wl_resource_create(client, &wl_surface_interface, wl_resource_get_version(resource), id);
    wl_resource_set_implementation(s, &surface_impl, NULL, surface_gone);
    fx.surface = s;
}

static const struct wl_compositor_interface compositor_impl = {
    .create_surface = compositor_create_surface,
};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version,
                            uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wl_compositor_interface, 1, id);
    wl_resource_set_implementation(r, &compositor_impl, NULL, NULL);
}

static const struct wl_keyboard_interface keyboard_impl = {.release = resource_destroy};

static void pointer_set_cursor(struct wl_client *client, struct wl_resource *resource,
                               uint32_t serial, struct wl_resource *surface, int32_t x,
                               int32_t y) {
}

static const struct wl_pointer_interface pointer_impl = {.set_cursor = pointer_set_cursor,
                                                         .release = resource_destroy};

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource,
                              uint32_t id) {
    struct wl_resource *k =
        wl_resource_create(client, &wl_keyboard_interface, wl_resource_get_version(resource), id);
    wl_resource_set_implementation(k, &keyboard_impl, NULL, keyboard_gone);
    add(fx.keyboards, k);
    wl_keyboard_send_keymap(k, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fx.keymap_fd, fx.keymap_size);
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *resource,
                             uint32_t id) {
    struct wl_resource *p =
        wl_resource_create(client, &wl_pointer_interface, wl_resource_get_version(resource), id);
    wl_resource_set_implementation(p, &pointer_impl, NULL, pointer_gone);
    add(fx.pointers, p);
}

static const struct wl_seat_interface seat_impl = {
    .get_pointer = seat_get_pointer,
    .get_keyboard = seat_get_keyboard,
    .release = resource_destroy,
};

static void bind_seat(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wl_seat_interface, (int)version, id);
    wl_resource_set_implementation(r, &seat_impl, NULL, NULL);
    wl_seat_send_capabilities(r, WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_POINTER);
}

// The keymap as a compositor sends it: the text, NUL-terminated, in a file.
static void make_keymap(const char *layout) {
    struct xkb_context *ctx = xkb_context_new(0);
    ck_assert(ctx != NULL);
    struct xkb_rule_names names = {.rules = "evdev", .model = "pc105", .layout = layout};
    struct xkb_keymap *map = xkb_keymap_new_from_names(ctx, &names, 0);
    ck_assert_msg(map != NULL, "xkeyboard-config has no '%s' layout (xkb-data)", layout);
    char *text = xkb_keymap_get_as_string(map, XKB_KEYMAP_FORMAT_TEXT_V1);
    fx.keymap_size = (uint32_t)strlen(text) + 1;
    fx.keymap_fd = memfd_create("keymap", MFD_CLOEXEC);
    ck_assert(fx.keymap_fd >= 0);
    ck_assert(write(fx.keymap_fd, text, fx.keymap_size) == (ssize_t)fx.keymap_size);
    free(text);
    xkb_keymap_unref(map);
    xkb_context_unref(ctx);
}

static void server_pump(void) {
    wl_event_loop_dispatch(fx.loop, 0);
    wl_display_flush_clients(fx.server);
}

static void send_key(uint32_t code, bool down) {
    for (int i = 0; i < MAX_RES; i++) {
        if (fx.keyboards[i]) {
            wl_keyboard_send_key(fx.keyboards[i], ++fx.serial, 0, code,
                                 down ? WL_KEYBOARD_KEY_STATE_PRESSED
                                      : WL_KEYBOARD_KEY_STATE_RELEASED);
        }
    }
    server_pump();
}

static void send_enter(const uint32_t *held, size_t n) {
    struct wl_array keys;
    wl_array_init(&keys);
    for (size_t i = 0; i < n; i++) {
        *(uint32_t *)wl_array_add(&keys, sizeof(uint32_t)) = held[i];
    }
    for (int i = 0; i < MAX_RES; i++) {
        if (fx.keyboards[i]) {
            wl_keyboard_send_enter(fx.keyboards[i], ++fx.serial, fx.surface, &keys);
        }
    }
    wl_array_release(&keys);
    server_pump();
}

static void send_leave(void) {
    for (int i = 0; i < MAX_RES; i++) {
        if (fx.keyboards[i]) {
            wl_keyboard_send_leave(fx.keyboards[i], ++fx.serial, fx.surface);
        }
    }
    server_pump();
}

// --- the program ---

static void program_keymap(void *data, struct wl_keyboard *kb, uint32_t format, int32_t fd,
                           uint32_t size) {
    close(fd);
    fx.program_keymaps++;
}

static void program_enter(void *data, struct wl_keyboard *kb, uint32_t serial,
                          struct wl_surface *surface, struct wl_array *keys) {
}

static void program_leave(void *data, struct wl_keyboard *kb, uint32_t serial,
                          struct wl_surface *surface) {
}

static void program_key(void *data, struct wl_keyboard *kb, uint32_t serial, uint32_t time,
                        uint32_t key, uint32_t state) {
    if (fx.program_key_count < 64) {
        fx.program_keys[fx.program_key_count] = key | (state << 16);
    }
    fx.program_key_count++;
}

static void program_modifiers(void *data, struct wl_keyboard *kb, uint32_t serial,
                              uint32_t depressed, uint32_t latched, uint32_t locked,
                              uint32_t group) {
}

static void program_repeat(void *data, struct wl_keyboard *kb, int32_t rate, int32_t delay) {
}

static const struct wl_keyboard_listener program_keyboard_listener = {
    .keymap = program_keymap,
    .enter = program_enter,
    .leave = program_leave,
    .key = program_key,
    .modifiers = program_modifiers,
    .repeat_info = program_repeat,
};

static void program_global(void *data, struct wl_registry *registry, uint32_t name,
                           const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_compositor") == 0) {
        fx.compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
    } else if (strcmp(interface, "wl_seat") == 0) {
        fx.seat = wl_registry_bind(registry, name, &wl_seat_interface, 5);
    }
}

static void program_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener program_registry_listener = {
    .global = program_global,
    .global_remove = program_global_remove,
};

// The program's own read and dispatch of its default queue (set-up only:
// later the test checks that its events wait there).
static void program_pump(void) {
    wl_display_flush(fx.display);
    server_pump();
    while (wl_display_prepare_read(fx.display) != 0) {
        wl_display_dispatch_pending(fx.display);
    }
    struct pollfd p = {.fd = wl_display_get_fd(fx.display), .events = POLLIN};
    if (poll(&p, 1, 0) > 0) {
        wl_display_read_events(fx.display);
    } else {
        wl_display_cancel_read(fx.display);
    }
    wl_display_dispatch_pending(fx.display);
}

// fxgl's frame: one poll, as the frame hook makes it.
static fxgl_input frame(void) {
    fxgl_input s;
    ck_assert(ip_input_poll(fx.in, NULL, 0, 0, 0, fx.display, &s));
    return s;
}

// Enough frames, with the server answering between them, for fxgl's
// requests to be answered (registry, bind, get_keyboard, keymap).
static fxgl_input settle(void) {
    fxgl_input s;
    for (int i = 0; i < 6; i++) {
        server_pump();
        s = frame();
    }
    return s;
}

static void fixture_start(const char *layout) {
    memset(&fx, 0, sizeof(fx));
    make_keymap(layout);
    fx.server = wl_display_create();
    fx.loop = wl_display_get_event_loop(fx.server);
    wl_global_create(fx.server, &wl_compositor_interface, 1, NULL, bind_compositor);
    wl_global_create(fx.server, &wl_seat_interface, 5, NULL, bind_seat);
    int fds[2];
    ck_assert(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
    ck_assert(wl_client_create(fx.server, fds[0]) != NULL);
    fx.display = wl_display_connect_to_fd(fds[1]);
    ck_assert(fx.display != NULL);
    struct wl_registry *registry = wl_display_get_registry(fx.display);
    wl_registry_add_listener(registry, &program_registry_listener, NULL);
    program_pump(); // globals -> binds
    program_pump(); // the seat's capabilities
    ck_assert(fx.compositor && fx.seat);
    fx.wl_surface = wl_compositor_create_surface(fx.compositor);
    fx.keyboard = wl_seat_get_keyboard(fx.seat);
    wl_keyboard_add_listener(fx.keyboard, &program_keyboard_listener, NULL);
    program_pump(); // the surface, the program's keyboard and its keymap
    program_pump();
    ck_assert(fx.surface != NULL && fx.program_keymaps == 1 && count(fx.keyboards) == 1);
    wl_registry_destroy(registry);
    fx.in = ip_input_create();
}

static void fixture_stop(void) {
    ip_input_destroy(fx.in);
    ip_wayland_display_gone(fx.display);
    wl_keyboard_destroy(fx.keyboard);
    wl_surface_destroy(fx.wl_surface);
    wl_seat_destroy(fx.seat);
    wl_compositor_destroy(fx.compositor);
    wl_display_disconnect(fx.display);
    wl_display_destroy(fx.server);
    close(fx.keymap_fd);
}

// --- the cases ---

START_TEST(keys_us_layout) {
    fixture_start("us");
    fxgl_input s = settle();
    // fxgl's own keyboard and pointer on the same client, beside the program's.
    ck_assert_int_eq(count(fx.keyboards), 2);
    ck_assert_int_eq(count(fx.pointers), 1);
    ck_assert(!s.has_focus);

    // Focus enters with A held: down at once (no key event for it).
    const uint32_t held[] = {EV_KEY_A};
    send_enter(held, 1);
    s = frame();
    ck_assert(s.has_focus);
    ck_assert(s.key_down[VK_A] && s.key_pressed[VK_A]);

    const struct {
        uint32_t code;
        int vk;
        int side;                // the left/right code set too, or 0
    } keys[] = {
        {EV_KEY_F11, VK_F11, 0},         {EV_KEY_HOME, VK_HOME, 0}, {EV_KEY_I, VK_I, 0},
        {EV_KEY_1, VK_1, 0},             {EV_KEY_SPACE, VK_SPACE, 0},
        {EV_KEY_LEFTSHIFT, VK_SHIFT, VK_LSHIFT}, {EV_KEY_RIGHTCTRL, VK_CONTROL, VK_RCONTROL},
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        send_key(keys[i].code, true);
        s = frame();
        ck_assert_msg(s.key_down[keys[i].vk] && s.key_pressed[keys[i].vk],
                      "evdev %u: VK 0x%02X not down/pressed", keys[i].code, keys[i].vk);
        if (keys[i].side) {
            ck_assert_msg(s.key_down[keys[i].side], "evdev %u: VK 0x%02X not down",
                          keys[i].code, keys[i].side);
        }
        s = frame(); // the edge lasts one frame
        ck_assert(s.key_down[keys[i].vk] && !s.key_pressed[keys[i].vk]);
        send_key(keys[i].code, false);
        s = frame();
        ck_assert_msg(!s.key_down[keys[i].vk] && s.key_released[keys[i].vk],
                      "evdev %u: VK 0x%02X not released", keys[i].code, keys[i].vk);
    }
    ck_assert(s.key_down[VK_A]); // still held since the enter
    int down = 0;
    for (int vk = 0; vk < FXGL_INPUT_KEYS; vk++) {
        down += s.key_down[vk];
    }
    ck_assert_int_eq(down, 1);

    // Leaving releases everything; keys then count nothing.
    send_leave();
    s = frame();
    ck_assert(!s.has_focus && !s.key_down[VK_A] && s.key_released[VK_A]);

    // The program's own keyboard saw every key event, in order, but only
    // when it dispatched its queue: fxgl read the socket and dispatched
    // only its own queue, so the program's events waited there.
    ck_assert_int_eq(fx.program_key_count, 0);
    wl_display_dispatch_pending(fx.display);
    size_t n = sizeof(keys) / sizeof(keys[0]);
    ck_assert_int_eq(fx.program_key_count, (int)(2 * n));
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(fx.program_keys[2 * i], keys[i].code | (1u << 16));
        ck_assert_uint_eq(fx.program_keys[2 * i + 1], keys[i].code);
    }

    // Done with the display: fxgl's objects go (the server sees the release).
    ip_wayland_display_gone(fx.display);
    wl_display_flush(fx.display);
    server_pump();
    ck_assert_int_eq(count(fx.keyboards), 1);
    ck_assert_int_eq(count(fx.pointers), 0);
    fixture_stop();
}
END_TEST

START_TEST(keys_follow_the_keymap) {
    // German layout: the key labelled Y on a US keyboard types 'z'.
    fixture_start("de");
    settle();
    send_enter(NULL, 0);
    send_key(EV_KEY_Y, true);
    fxgl_input s = frame();
    ck_assert(s.has_focus && s.key_down[VK_Z] && !s.key_down[VK_Y]);
    send_key(EV_KEY_Y, false);
    send_key(EV_KEY_Z, true);
    s = frame();
    ck_assert(s.key_down[VK_Y] && !s.key_down[VK_Z]);
    fixture_stop();
}
END_TEST

START_TEST(pointer_buttons_wheel) {
    fixture_start("us");
    settle();
    struct wl_resource *p = fx.pointers[0];
    ck_assert(p != NULL);
    wl_pointer_send_enter(p, ++fx.serial, fx.surface, wl_fixed_from_double(10.5),
                          wl_fixed_from_double(20.25));
    wl_pointer_send_frame(p);
    server_pump();
    fxgl_input s = frame();
    ck_assert(s.mouse_x == 10.5f && s.mouse_y == 20.25f);

    wl_pointer_send_motion(p, 0, wl_fixed_from_int(30), wl_fixed_from_int(40));
    const uint32_t buttons[] = {EV_BTN_LEFT, EV_BTN_RIGHT, EV_BTN_MIDDLE, EV_BTN_SIDE};
    for (int i = 0; i < 4; i++) {
        wl_pointer_send_button(p, ++fx.serial, 0, buttons[i], WL_POINTER_BUTTON_STATE_PRESSED);
    }
    // One wheel step up: discrete -1 (the protocol's down is positive).
    wl_pointer_send_axis_discrete(p, WL_POINTER_AXIS_VERTICAL_SCROLL, -1);
    wl_pointer_send_axis(p, 0, WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_int(-10));
    wl_pointer_send_frame(p);
    server_pump();
    s = frame();
    ck_assert(s.mouse_x == 30.0f && s.mouse_y == 40.0f);
    ck_assert(s.mouse_dx == 19.5f && s.mouse_dy == 19.75f);
    // The reference's order: left, right, middle, X1.
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(s.button_down[i] && s.button_pressed[i], "button %d", i);
    }
    ck_assert(s.wheel_delta == 1.0f);
    s = frame();
    ck_assert(s.wheel_delta == 0.0f && s.button_down[0] && !s.button_pressed[0]);

    wl_pointer_send_button(p, ++fx.serial, 0, EV_BTN_RIGHT, WL_POINTER_BUTTON_STATE_RELEASED);
    server_pump();
    s = frame();
    ck_assert(!s.button_down[1] && s.button_released[1] && s.button_down[0]);

    wl_pointer_send_leave(p, ++fx.serial, fx.surface);
    server_pump();
    s = frame();
    ck_assert(!s.button_down[0] && s.button_released[0]);
    fixture_stop();
}
END_TEST

START_TEST(no_display_no_input) {
    ip_input *in = ip_input_create();
    fxgl_input s;
    // No wl_display and no X display to connect to: nothing, never a crash.
    ck_assert(!ip_wayland_poll(NULL, &s));
    ck_assert(!s.has_focus);
    ip_input_destroy(in);
}
END_TEST

int main(void) {
    struct xkb_context *ctx = xkb_context_new(0);
    struct xkb_rule_names names = {.rules = "evdev", .layout = "us"};
    struct xkb_keymap *probe = ctx ? xkb_keymap_new_from_names(ctx, &names, 0) : NULL;
    if (!probe) {
        printf("SKIP: xkbcommon cannot compile a 'us' keymap (apt-get install xkb-data)\n");
        return FXGL_TEST_SKIP;
    }
    xkb_keymap_unref(probe);
    xkb_context_unref(ctx);
    Suite *s = suite_create("wl_input");
    TCase *tc = tcase_create("wayland");
    tcase_add_test(tc, keys_us_layout);
    tcase_add_test(tc, keys_follow_the_keymap);
    tcase_add_test(tc, pointer_buttons_wheel);
    tcase_add_test(tc, no_display_no_input);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
