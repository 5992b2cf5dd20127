/*
 * lutgen.c - writes the neutral colour look-up table fxgl_LUT.fx ships with.
 *
 *   fxgl-lutgen [--size N] OUT.png
 *
 * The strip is N*N pixels wide and N high (default N = 32): slice b (blue)
 * occupies columns b*N .. b*N+N-1, red runs along x inside a slice and green
 * down y, each value i stored as round(i * 255 / (N-1)). Sampled as
 * fxgl_LUT.fx samples it, it maps every colour to itself (within half an
 * 8-bit step). Generated at build time so that no binary sits in git.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// stb's implementation is not written for -Wmissing-prototypes; its own
// warnings are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

static unsigned char level(int i, int n) {
    // Round half up; the integer form avoids any float rounding question.
    return (unsigned char)((i * 255 * 2 + (n - 1)) / (2 * (n - 1)));
}

int main(int argc, char **argv) {
    int n = 32;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            char *end = NULL;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (errno != 0 || *end != '\0' || v < 2 || v > 64) {
                fprintf(stderr, "fxgl-lutgen: --size wants 2..64, not '%s'\n", argv[i]);
                return 2;
            }
            n = (int)v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "fxgl-lutgen: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (out == NULL) {
            out = argv[i];
        } else {
            fprintf(stderr, "fxgl-lutgen: more than one output file\n");
            return 2;
        }
    }
    if (out == NULL) {
        fprintf(stderr, "usage: fxgl-lutgen [--size N] OUT.png\n");
        return 2;
    }
    int width = n * n;
    unsigned char *pixels = malloc((size_t)width * (size_t)n * 4);
    if (pixels == NULL) {
        fprintf(stderr, "fxgl-lutgen: out of memory\n");
        return 1;
    }
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < width; x++) {
            unsigned char *p = pixels + ((size_t)y * (size_t)width + (size_t)x) * 4;
            p[0] = level(x % n, n);
            p[1] = level(y, n);
            p[2] = level(x / n, n);
            p[3] = 255;
        }
    }
    int ok = stbi_write_png(out, width, n, 4, pixels, width * 4);
    free(pixels);
    if (!ok) {
        fprintf(stderr, "fxgl-lutgen: cannot write %s\n", out);
        return 1;
    }
    return 0;
}
