/*
 * image.c - `source=` textures: images through stb_image (PNG, JPG, BMP,
 * TGA) resized to the declared size, and .cube LUTs (1D or 3D, into float
 * formats, DOMAIN_MIN/MAX mapped to 0..1), as the reference loads them.
 *
 * Images are stored top row first, like every effect texture, so nothing
 * is flipped. The path is tried next to the effect, then in each search
 * path; finding and decoding are the back ends' shared code (fxgl_backend.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_backend.h"
#include "gl_runtime.h"

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) {
        return false;
    }
    for (size_t i = 0; i < m; i++) {
        if (tolower((unsigned char)s[n - m + i]) != suffix[i]) {
            return false;
        }
    }
    return true;
}

// Reads a .cube file into RGB floats; *size is the edge, *dims 1 or 3.
static float *load_cube(const char *path, int *size, int *dims, char *reason, size_t rsize) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(reason, rsize, "cannot open '%s'", path);
        return NULL;
    }
    char line[512];
    float dmin[3] = {0, 0, 0}, dmax[3] = {1, 1, 1};
    float *data = NULL;
    size_t count = 0, total = 0;
    int lineno = 0;
    *size = 0;
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        char *p = line;
        while (isspace((unsigned char)*p)) {
            p++;
        }
        if (*p == '#' || *p == '\0') {
            continue;
        }
        if (strncmp(p, "TITLE", 5) == 0) {
            continue;
        }
        if (sscanf(p, "LUT_3D_SIZE %d", size) == 1) {
            *dims = 3;
        } else if (sscanf(p, "LUT_1D_SIZE %d", size) == 1) {
            *dims = 1;
        } else if (sscanf(p, "DOMAIN_MIN %f %f %f", &dmin[0], &dmin[1], &dmin[2]) == 3 ||
                   sscanf(p, "DOMAIN_MAX %f %f %f", &dmax[0], &dmax[1], &dmax[2]) == 3) {
            continue;
        } else {
            float rgb[3];
            if (sscanf(p, "%f %f %f", &rgb[0], &rgb[1], &rgb[2]) != 3) {
                snprintf(reason, rsize, "%s:%d: not a .cube line", path, lineno);
                goto bad;
            }
            if (!data) {
                if (*size < 2 || *size > 256) {
                    snprintf(reason, rsize, "%s:%d: data before a valid LUT size", path,
                             lineno);
                    goto bad;
                }
                total = (size_t)*size * (*dims == 3 ? (size_t)*size * (size_t)*size : 1);
                data = malloc(total * 3 * sizeof(float));
                if (!data) {
                    snprintf(reason, rsize, "out of memory");
                    goto bad;
                }
            }
            if (count == total) {
                snprintf(reason, rsize, "%s:%d: more entries than the LUT size", path, lineno);
                goto bad;
            }
            for (int c = 0; c < 3; c++) {
                float span = dmax[c] - dmin[c];
                data[count * 3 + (size_t)c] = span != 0.0f ? (rgb[c] - dmin[c]) / span : rgb[c];
            }
            count++;
        }
    }
    fclose(f);
    if (!data || count != total) {
        snprintf(reason, rsize, "%s: %zu entries, expected %zu", path, count, total);
        free(data);
        return NULL;
    }
    return data;
bad:
    fclose(f);
    free(data);
    return NULL;
}

bool gl_image_load(fxgl_runtime *rt, const char *effect_path, const fxgl_texture *t,
                   const gl_format *fmt, void **out, char *reason, size_t reason_size) {
    char path[1024];
    *out = NULL;
    if (!fxgl_source_find(effect_path, rt->desc.texture_search_paths,
                          rt->desc.texture_search_path_count, t->source, path, sizeof(path))) {
        snprintf(reason, reason_size, "source '%s' not found in: %s", t->source,
                 path[0] ? path : "(no folders)");
        return false;
    }
    int w = t->width, h = t->dim == FXGL_TEXTURE_1D ? 1 : t->height;
    int d = t->dim == FXGL_TEXTURE_3D ? t->depth : 1;
    size_t texels = (size_t)w * (size_t)h * (size_t)d;
    if (ends_with(path, ".cube")) {
        if (fmt->type != GL_FLOAT) {
            snprintf(reason, reason_size, "'%s': .cube LUTs load only into R32F/RG32F/RGBA32F",
                     t->source);
            return false;
        }
        int size = 0, dims = 3;
        float *lut = load_cube(path, &size, &dims, reason, reason_size);
        if (!lut) {
            return false;
        }
        size_t n = (size_t)size * (dims == 3 ? (size_t)size * (size_t)size : 1);
        // A 3D LUT fills a 3D texture of its size, or a 2D strip of N slices
        // side by side (N*N x N), the layout 2D LUT effects sample.
        bool fits = (dims == 3 && t->dim == FXGL_TEXTURE_3D && w == size && h == size &&
                     d == size) ||
                    (dims == 3 && t->dim == FXGL_TEXTURE_2D && w == size * size && h == size) ||
                    (dims == 1 && w == size && h == 1);
        if (!fits) {
            snprintf(reason, reason_size, "'%s': a %dD LUT of size %d does not fit %dx%dx%d",
                     t->source, dims, size, w, h, d);
            free(lut);
            return false;
        }
        float *data = calloc(texels, (size_t)fmt->channels * sizeof(float));
        if (!data) {
            free(lut);
            snprintf(reason, reason_size, "out of memory");
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            size_t dst = i;
            if (dims == 3 && t->dim == FXGL_TEXTURE_2D) {
                // entry (r, g, b) -> pixel (b * size + r, g)
                size_t r = i % (size_t)size, g = (i / (size_t)size) % (size_t)size,
                       b = i / ((size_t)size * (size_t)size);
                dst = g * (size_t)w + b * (size_t)size + r;
            }
            for (int c = 0; c < fmt->channels; c++) {
                data[dst * (size_t)fmt->channels + (size_t)c] = c < 3 ? lut[i * 3 + (size_t)c]
                                                                      : 1.0f;
            }
        }
        free(lut);
        *out = data;
        return true;
    }
    if (t->dim == FXGL_TEXTURE_3D) {
        snprintf(reason, reason_size, "'%s': images load only into 1D and 2D textures",
                 t->source);
        return false;
    }
    bool bytes = fmt->type == GL_UNSIGNED_BYTE && !fmt->integer;
    bool flt = fmt->type == GL_FLOAT && !fmt->integer;
    if (!bytes && !flt) {
        snprintf(reason, reason_size, "'%s': images load only into R8/RG8/RGBA8/R32F/RG32F/RGBA32F",
                 t->source);
        return false;
    }
    void *data = fxgl_source_pixels(path, t->source, w, h, fmt->channels, flt, reason,
                                    reason_size);
    if (!data) {
        return false;
    }
    *out = data;
    return true;
}
