/*
 * ip_wl.h - what the Wayland pieces of the interposer tests share: the
 * picture ip_wl_app presents, and a screenshot of a weston output
 * (ip_wl_shot.c, weston's screenshooter protocol).
 */
#ifndef IP_WL_H_INCLUDED
#define IP_WL_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// ip_wl_app's surface and its two halves (any colours whose inversions
// differ from both, and from weston's background and the test mark).
#define IP_WL_W 160
#define IP_WL_H 120
#define IP_WL_LEFT_R 200
#define IP_WL_LEFT_G 40
#define IP_WL_LEFT_B 90
#define IP_WL_RIGHT_R 30
#define IP_WL_RIGHT_G 200
#define IP_WL_RIGHT_B 120

// One output's pixels, top row first, 3 bytes (R, G, B) per pixel.
typedef struct ip_wl_shot {
    int width;
    int height;
    uint8_t *rgb;
} ip_wl_shot;

// Connects to the compositor at socket_path (an absolute path), asks
// weston_screenshooter (weston --debug) for its first output and waits for
// the picture. False with reason on any failure.
bool ip_wl_shot_take(const char *socket_path, ip_wl_shot *out, char *reason, size_t size);
void ip_wl_shot_free(ip_wl_shot *shot);

#endif // IP_WL_H_INCLUDED
