/*
 * image.c - the pixels of a texture's `source` image for the Vulkan path:
 * PNG, JPEG, BMP, TGA through stb_image, resized to the declared size with
 * stb_image_resize, as the GL runtime loads them (src/gl/image.c), into the
 * 8-bit UNORM formats (R8, RG8, RGBA8). .cube LUTs and float formats are
 * left to the GL path for now (the texture stays zero, with a message).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wshadow=local"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#include <stb_image.h>
#define STB_IMAGE_RESIZE_STATIC
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb_image_resize.h>
#pragma GCC diagnostic pop
// stb declares static functions that STBI_ONLY_* leaves undefined; GCC
// reports them at the end of the file, after the pop.
#pragma GCC diagnostic ignored "-Wunused-function"

#include "vk_image.h"

static bool is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// name in dir, exactly or ignoring case (effects written on Windows).
static bool in_dir(const char *dir, const char *name, char *out, size_t size) {
    if (snprintf(out, size, "%s/%s", dir, name) < (int)size && is_file(out)) {
        return true;
    }
    if (strchr(name, '/')) {
        return false;
    }
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *ent; d && !found && (ent = readdir(d));) {
        found = strcasecmp(ent->d_name, name) == 0 &&
                snprintf(out, size, "%s/%s", dir, ent->d_name) < (int)size && is_file(out);
    }
    if (d) {
        closedir(d);
    }
    return found;
}

uint8_t *vk_image_load(const char *effect_path, const char *const *dirs, size_t dir_count,
                       const fxgl_texture *t, char *reason, size_t reason_size) {
    int channels = fxgl_format_channels(t->format);
    if (t->format != FXGL_FORMAT_R8 && t->format != FXGL_FORMAT_RG8 &&
        t->format != FXGL_FORMAT_RGBA8) {
        snprintf(reason, reason_size, "'%s': the Vulkan path loads images only into R8/RG8/RGBA8",
                 t->source);
        return NULL;
    }
    char name[512], path[1024], own[1024];
    snprintf(name, sizeof(name), "%s", t->source);
    for (char *c = name; *c; c++) {
        *c = *c == '\\' ? '/' : *c;
    }
    const char *slash = effect_path ? strrchr(effect_path, '/') : NULL;
    snprintf(own, sizeof(own), "%.*s", slash ? (int)(slash - effect_path) : 1,
             slash ? effect_path : ".");
    bool found = name[0] == '/' ? (snprintf(path, sizeof(path), "%s", name), is_file(path))
                                : in_dir(own, name, path, sizeof(path));
    for (size_t i = 0; i < dir_count && !found && name[0] != '/'; i++) {
        found = in_dir(dirs[i], name, path, sizeof(path));
    }
    if (!found) {
        snprintf(reason, reason_size, "source '%s' not found", t->source);
        return NULL;
    }
    int iw, ih, ic;
    unsigned char *img = stbi_load(path, &iw, &ih, &ic, 4);
    if (!img) {
        snprintf(reason, reason_size, "'%s': %s", t->source, stbi_failure_reason());
        return NULL;
    }
    int w = t->width, h = t->height;
    unsigned char *sized = img;
    if (iw != w || ih != h) {
        sized = malloc((size_t)w * (size_t)h * 4);
        if (!sized || !stbir_resize_uint8(img, iw, ih, 0, sized, w, h, 0, 4)) {
            free(sized);
            stbi_image_free(img);
            snprintf(reason, reason_size, "'%s': cannot resize", t->source);
            return NULL;
        }
    }
    size_t texels = (size_t)w * (size_t)h;
    uint8_t *data = malloc(texels * (size_t)channels);
    for (size_t i = 0; data && i < texels; i++) {
        for (int c = 0; c < channels; c++) {
            data[i * (size_t)channels + (size_t)c] = sized[i * 4 + (size_t)c];
        }
    }
    if (sized != img) {
        free(sized);
    }
    stbi_image_free(img);
    if (!data) {
        snprintf(reason, reason_size, "out of memory");
    }
    return data;
}
