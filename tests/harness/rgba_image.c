/*
 * rgba_image.c - RGBA8 images for tests and tools: PNG in and out (stb), GL
 * read-back, and comparison with a tolerance.
 *
 * Images are stored top row first, the way PNG files and people read them;
 * GL returns the bottom row first, so read-back flips.
 */
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

// stb's implementation is not written for -Wmissing-prototypes; its own
// warnings are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include "fxgl_test.h"

bool fxgl_image_alloc(fxgl_image *img, int width, int height) {
    img->width = width;
    img->height = height;
    img->pixels = calloc((size_t)width * (size_t)height, 4);
    return img->pixels != NULL;
}

void fxgl_image_free(fxgl_image *img) {
    free(img->pixels);
    memset(img, 0, sizeof(*img));
}

bool fxgl_image_load_png(fxgl_image *img, const char *path) {
    int w, h, n;
    unsigned char *data = stbi_load(path, &w, &h, &n, 4);
    if (!data) {
        return false;
    }
    if (!fxgl_image_alloc(img, w, h)) {
        stbi_image_free(data);
        return false;
    }
    memcpy(img->pixels, data, (size_t)w * (size_t)h * 4);
    stbi_image_free(data);
    return true;
}

bool fxgl_image_save_png(const fxgl_image *img, const char *path) {
    return stbi_write_png(path, img->width, img->height, 4, img->pixels, img->width * 4) != 0;
}

bool fxgl_image_read_gl(fxgl_image *img, struct GladGLContext *gl, int width, int height) {
    if (!fxgl_image_alloc(img, width, height)) {
        return false;
    }
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->ReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img->pixels);
    size_t row = (size_t)width * 4;
    unsigned char *tmp = malloc(row);
    if (!tmp) {
        fxgl_image_free(img);
        return false;
    }
    for (int y = 0; y < height / 2; y++) {
        unsigned char *a = img->pixels + (size_t)y * row;
        unsigned char *b = img->pixels + (size_t)(height - 1 - y) * row;
        memcpy(tmp, a, row);
        memcpy(a, b, row);
        memcpy(b, tmp, row);
    }
    free(tmp);
    return gl->GetError() == GL_NO_ERROR;
}

bool fxgl_image_compare(const fxgl_image *a, const fxgl_image *b, int tolerance,
                        fxgl_image_diff *diff) {
    fxgl_image_diff d = {.first_x = -1, .first_y = -1};
    if (a->width != b->width || a->height != b->height) {
        d.max_diff = 255;
        if (diff) {
            *diff = d;
        }
        return false;
    }
    for (int y = 0; y < a->height; y++) {
        for (int x = 0; x < a->width; x++) {
            const uint8_t *pa = fxgl_image_at(a, x, y);
            const uint8_t *pb = fxgl_image_at(b, x, y);
            bool over = false;
            for (int c = 0; c < 4; c++) {
                int delta = abs((int)pa[c] - (int)pb[c]);
                if (delta > d.max_diff) {
                    d.max_diff = delta;
                }
                over |= delta > tolerance;
            }
            if (over) {
                if (d.pixels_over == 0) {
                    d.first_x = x;
                    d.first_y = y;
                }
                d.pixels_over++;
            }
        }
    }
    if (diff) {
        *diff = d;
    }
    return d.pixels_over == 0;
}
