/*
 * ip_wl_shot.c - a screenshot of weston's output, for the tests.
 *
 * Debian's weston has no screenshot client, but weston 10 offers its
 * weston_screenshooter global to any client when started with --debug. The
 * protocol is two messages: the request shoot(wl_output, wl_buffer) and
 * the event done, sent once weston has read its output's pixels into the
 * buffer (a wl_shm buffer at least as large as the output's current mode)
 * at its next repaint. Libweston does not install the protocol's XML, so
 * the interface is written out here from that description.
 *
 * weston reads the output in its renderer's read format, a8r8g8b8 for the
 * GL renderer (bytes B, G, R, A in memory), top row first, which is the
 * format of the buffer we give it.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <wayland-client.h>

#include "ip_wl.h"

static const struct wl_interface *shoot_types[] = {&wl_output_interface, &wl_buffer_interface};
static const struct wl_message shooter_requests[] = {{"shoot", "oo", shoot_types}};
static const struct wl_message shooter_events[] = {{"done", "", NULL}};
static const struct wl_interface screenshooter_interface = {
    "weston_screenshooter", 1, 1, shooter_requests, 1, shooter_events,
};
#define SHOOTER_SHOOT 0

typedef struct shot_state {
    struct wl_shm *shm;
    struct wl_output *output;
    struct wl_proxy *shooter;
    int width, height;           // the output's current mode
    bool done;
} shot_state;

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
                            int32_t ph, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t width,
                        int32_t height, int32_t refresh) {
    shot_state *s = data;
    if (flags & WL_OUTPUT_MODE_CURRENT) {
        s->width = width;
        s->height = height;
    }
}

static void output_done(void *data, struct wl_output *o) {
}

static void output_scale(void *data, struct wl_output *o, int32_t factor) {
}

// wl_output version 2: geometry, mode, done, scale.
static const struct wl_output_listener output_listener = {
    .geometry = output_geometry,
    .mode = output_mode,
    .done = output_done,
    .scale = output_scale,
};

static void global(void *data, struct wl_registry *registry, uint32_t name,
                   const char *interface, uint32_t version) {
    shot_state *s = data;
    if (strcmp(interface, "wl_shm") == 0 && !s->shm) {
        s->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, "wl_output") == 0 && !s->output) {
        s->output = wl_registry_bind(registry, name, &wl_output_interface, 2);
        wl_output_add_listener(s->output, &output_listener, s);
    } else if (strcmp(interface, "weston_screenshooter") == 0 && !s->shooter) {
        s->shooter = wl_registry_bind(registry, name, &screenshooter_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void shooter_done(void *data, struct wl_proxy *shooter) {
    ((shot_state *)data)->done = true;
}

static void (*const shooter_listener[])(void *, struct wl_proxy *) = {shooter_done};

bool ip_wl_shot_take(const char *socket_path, ip_wl_shot *out, char *reason, size_t size) {
    memset(out, 0, sizeof(*out));
    struct wl_display *display = wl_display_connect(socket_path);
    if (!display) {
        snprintf(reason, size, "cannot connect to %s: %s", socket_path, strerror(errno));
        return false;
    }
    shot_state s = {0};
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, &s);
    wl_display_roundtrip(display); // the globals
    wl_display_roundtrip(display); // the output's mode
    bool ok = false;
    int fd = -1;
    void *pixels = MAP_FAILED;
    size_t bytes = 0;
    struct wl_buffer *buffer = NULL;
    if (!s.shm || !s.output || !s.shooter || s.width <= 0 || s.height <= 0) {
        snprintf(reason, size, "%s", !s.shooter ? "no weston_screenshooter (weston --debug?)"
                                                : "no wl_shm or no wl_output with a mode");
        goto out;
    }
    bytes = (size_t)s.width * (size_t)s.height * 4;
    fd = memfd_create("ip-wl-shot", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
        snprintf(reason, size, "memfd: %s", strerror(errno));
        goto out;
    }
    pixels = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) {
        snprintf(reason, size, "mmap: %s", strerror(errno));
        goto out;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(s.shm, fd, (int32_t)bytes);
    buffer = wl_shm_pool_create_buffer(pool, 0, s.width, s.height, s.width * 4,
                                       WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    wl_proxy_add_listener(s.shooter, (void (**)(void))shooter_listener, &s);
    wl_proxy_marshal(s.shooter, SHOOTER_SHOOT, s.output, buffer);
    while (!s.done && wl_display_dispatch(display) >= 0) {
    }
    if (!s.done) {
        snprintf(reason, size, "the connection failed before the shot was done");
        goto out;
    }
    out->width = s.width;
    out->height = s.height;
    out->rgb = malloc((size_t)s.width * (size_t)s.height * 3);
    if (!out->rgb) {
        snprintf(reason, size, "out of memory");
        goto out;
    }
    const uint8_t *src = pixels;
    for (size_t i = 0; i < (size_t)s.width * (size_t)s.height; i++) {
        out->rgb[i * 3 + 0] = src[i * 4 + 2];
        out->rgb[i * 3 + 1] = src[i * 4 + 1];
        out->rgb[i * 3 + 2] = src[i * 4 + 0];
    }
    ok = true;
out:
    if (buffer) {
        wl_buffer_destroy(buffer);
    }
    if (pixels != MAP_FAILED) {
        munmap(pixels, bytes);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (s.shooter) {
        wl_proxy_destroy(s.shooter);
    }
    if (s.output) {
        wl_output_destroy(s.output);
    }
    if (s.shm) {
        wl_shm_destroy(s.shm);
    }
    wl_registry_destroy(registry);
    wl_display_disconnect(display);
    return ok;
}

void ip_wl_shot_free(ip_wl_shot *shot) {
    free(shot->rgb);
    shot->rgb = NULL;
}
