/*
 * backend.c - the GL-free work both back ends share (fxgl_backend.h):
 * source images through stb_image (PNG, JPEG, BMP, TGA) and
 * stb_image_resize, uniform placement and conversion, and the clock
 * specials. stb is compiled static here, so the test harness's own copy
 * does not clash with it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

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
// Static stb leaves declared-only functions; the warning fires at the end of the file.
#pragma GCC diagnostic ignored "-Wunused-function"

#include "fxgl_backend.h"

// --- source images ---

static bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// source in dir: exactly, else a file whose name matches ignoring case (effects written
// on Windows spell their textures freely); the same rule as src/preset/search.c.
static bool in_dir(const char *dir, const char *source, char *out, size_t size) {
    if (snprintf(out, size, "%s/%s", dir, source) < (int)size && file_exists(out)) {
        return true;
    }
    if (strchr(source, '/')) {
        return false;
    }
    DIR *d = opendir(dir);
    struct dirent *ent;
    bool found = false;
    while (d && !found && (ent = readdir(d))) {
        found = strcasecmp(ent->d_name, source) == 0 &&
                snprintf(out, size, "%s/%s", dir, ent->d_name) < (int)size && file_exists(out);
    }
    if (d) {
        closedir(d);
    }
    return found;
}

bool fxgl_source_find(const char *effect_path, const char *const *dirs, size_t dir_count,
                      const char *source, char *out, size_t size) {
    char name[512];
    snprintf(name, sizeof(name), "%s", source);
    for (char *c = name; *c; c++) {
        *c = *c == '\\' ? '/' : *c;
    }
    if (name[0] == '/') {
        snprintf(out, size, "%s", name);
        return file_exists(out);
    }
    char own[1024];
    const char *slash = effect_path ? strrchr(effect_path, '/') : NULL;
    snprintf(own, sizeof(own), "%.*s", slash ? (int)(slash - effect_path) : 1,
             slash ? effect_path : ".");
    if (effect_path && in_dir(own, name, out, size)) {
        return true;
    }
    for (size_t i = 0; i < dir_count; i++) {
        if (in_dir(dirs[i], name, out, size)) {
            return true;
        }
    }
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i <= dir_count; i++) {
        const char *dir = i == 0 ? (effect_path ? own : NULL) : dirs[i - 1];
        if (!dir) {
            continue;
        }
        int n = snprintf(out + used, size - used, "%s%s", used ? ", " : "", dir);
        if (n < 0 || (size_t)n >= size - used) {
            out[used] = '\0';
            snprintf(out + used, size - used, "%s... (%zu more)", used ? ", " : "",
                     dir_count + 1 - i);
            break;
        }
        used += (size_t)n;
    }
    return false;
}

void *fxgl_source_pixels(const char *path, const char *name, int w, int h, int channels,
                         bool floats, char *reason, size_t reason_size) {
    int iw, ih, ic;
    unsigned char *img = stbi_load(path, &iw, &ih, &ic, 4);
    if (!img) {
        snprintf(reason, reason_size, "'%s': %s", name, stbi_failure_reason());
        return NULL;
    }
    unsigned char *sized = img;
    if (iw != w || ih != h) {
        sized = malloc((size_t)w * (size_t)h * 4);
        if (!sized || !stbir_resize_uint8(img, iw, ih, 0, sized, w, h, 0, 4)) {
            free(sized);
            stbi_image_free(img);
            snprintf(reason, reason_size, "'%s': cannot resize", name);
            return NULL;
        }
        stbi_image_free(img);
        img = NULL;
    }
    size_t texels = (size_t)w * (size_t)h, ch = (size_t)channels;
    void *data = malloc(texels * ch * (floats ? sizeof(float) : 1));
    for (size_t i = 0; data && i < texels; i++) {
        for (size_t c = 0; c < ch; c++) {
            unsigned char b = sized[i * 4 + c];
            if (floats) {
                ((float *)data)[i * ch + c] = (float)b / 255.0f;
            } else {
                ((unsigned char *)data)[i * ch + c] = b;
            }
        }
    }
    if (img) {
        stbi_image_free(img);
    } else {
        free(sized);
    }
    if (!data) {
        snprintf(reason, reason_size, "out of memory");
    }
    return data;
}

// --- the uniform block ---

uint32_t fxgl_uniform_bits(const fxgl_value *v, int i, fxgl_scalar to) {
    double d;
    int64_t n;
    switch (v->scalar) {
    case FXGL_SCALAR_FLOAT:
        d = v->f[i];
        n = (int64_t)d;
        break;
    case FXGL_SCALAR_UINT:
        n = v->u[i];
        d = (double)v->u[i];
        break;
    default:
        n = v->i[i];
        d = v->i[i];
        break;
    }
    uint32_t bits;
    switch (to) {
    case FXGL_SCALAR_FLOAT: {
        float f = (float)d;
        memcpy(&bits, &f, 4);
        return bits;
    }
    case FXGL_SCALAR_BOOL:
        return d != 0.0;
    case FXGL_SCALAR_UINT:
        return (uint32_t)n;
    default:
        return (uint32_t)(int32_t)n;
    }
}

int fxgl_uniform_offsets(const fxgl_uniform *u, int count, uint32_t offsets[16]) {
    int cols = u->cols > 0 ? u->cols : 1;
    int per = u->rows * cols;
    int elements = u->array_length > 0 ? u->array_length : 1;
    uint32_t stride = u->array_length > 0 ? u->size / (uint32_t)u->array_length : 0;
    int n = count < per * elements ? count : per * elements;
    n = n < 16 ? n : 16;
    for (int c = 0; c < n; c++) {
        int el = c / per, k = c % per;
        offsets[c] = u->offset + (uint32_t)el * stride +
                     (uint32_t)(cols > 1 ? (k / cols) * 16 + (k % cols) * 4 : k * 4);
    }
    return n > 0 ? n : 0;
}

double fxgl_annotation_number(const fxgl_uniform *u, const char *name, int index, double def) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    if (!a || a->value.scalar == FXGL_SCALAR_STRING || a->value.count < 1) {
        return def;
    }
    index = index < a->value.count ? index : a->value.count - 1;
    if (index < 0) {
        return def;
    }
    switch (a->value.scalar) {
    case FXGL_SCALAR_FLOAT: return a->value.f[index];
    case FXGL_SCALAR_UINT: return a->value.u[index];
    default: return a->value.i[index];
    }
}

// --- mipmaps ---

const char fxgl_mip_filter_main[] =
    "void main() {\n"
    "    ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "    ivec2 size = imageSize(dst);\n"
    "    if (p.x >= size.x || p.y >= size.y) return;\n"
    "    ivec2 last = textureSize(src, lod) - 1;\n"
    "    ivec2 s = p * 2;\n"
    "    vec4 c = texelFetch(src, min(s, last), lod) +\n"
    "             texelFetch(src, min(s + ivec2(1, 0), last), lod) +\n"
    "             texelFetch(src, min(s + ivec2(0, 1), last), lod) +\n"
    "             texelFetch(src, min(s + ivec2(1, 1), last), lod);\n"
    "    imageStore(dst, p, c * 0.25);\n"
    "}\n";

// --- special uniforms that depend on the clock ---

void fxgl_special_params_init(fxgl_special_params *p, const fxgl_uniform *u) {
    memset(p, 0, sizeof(*p));
    switch (u->special) {
    case FXGL_SPECIAL_RANDOM:
        p->imin = (int)fxgl_annotation_number(u, "min", 0, 0);
        p->imax = (int)fxgl_annotation_number(u, "max", 0, RAND_MAX);
        break;
    case FXGL_SPECIAL_PINGPONG: {
        const fxgl_annotation *st = fxgl_annotation_find(&u->annotations, "step");
        p->min = (float)fxgl_annotation_number(u, "min", 0, 0.0);
        p->max = (float)fxgl_annotation_number(u, "max", 0, 1.0);
        p->step[0] = (float)fxgl_annotation_number(u, "step", 0, 1.0);
        p->step[1] = st && st->value.scalar != FXGL_SCALAR_STRING && st->value.count > 1
                         ? (float)fxgl_annotation_number(u, "step", 1, 0.0)
                         : 0.0f;
        p->smoothing = (float)fxgl_annotation_number(u, "smoothing", 0, 0.0);
        break;
    }
    case FXGL_SPECIAL_MOUSEWHEEL:
        p->min = (float)fxgl_annotation_number(u, "min", 0, 0.0);
        p->max = (float)fxgl_annotation_number(u, "max", 0, 0.0);
        p->step[0] = (float)fxgl_annotation_number(u, "step", 0, 1.0);
        break;
    default:
        break;
    }
}

uint32_t fxgl_xorshift32(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

// The reference's pingpong: up at step per second to max, down to min,
// slowed by smoothing near the ends; a step range draws a random step.
static void pingpong(const fxgl_special_params *p, float state[2], const fxgl_special_clock *c) {
    float increment = p->step[0];
    if (p->step[1] != 0.0f) {
        float span = p->step[1] - p->step[0];
        increment = p->step[0] + span * (float)(fxgl_xorshift32(c->rng) % 10001u) / 10000.0f;
    }
    float seconds = (float)(c->frame_ms * 0.001);
    float *value = &state[0], *dir = &state[1];
    float slow = *dir >= 0.0f ? p->smoothing - (p->max - *value)
                              : p->smoothing - (*value - p->min);
    increment = increment - (slow > 0.0f ? slow : 0.0f);
    increment = (increment > 0.05f ? increment : 0.05f) * seconds;
    if (*dir >= 0.0f) {
        *value += increment;
        if (*value >= p->max) {
            *value = p->max;
            *dir = -1.0f;
        }
    } else {
        *value -= increment;
        if (*value <= p->min) {
            *value = p->min;
            *dir = 1.0f;
        }
    }
}

bool fxgl_special_clock_value(const fxgl_uniform *u, const fxgl_special_params *p,
                              float state[2], const fxgl_special_clock *c, fxgl_value *out) {
    fxgl_value v = {.scalar = FXGL_SCALAR_INT, .count = 1};
    switch (u->special) {
    case FXGL_SPECIAL_FRAMETIME:
        v.scalar = FXGL_SCALAR_FLOAT;
        v.f[0] = (float)c->frame_ms;
        break;
    case FXGL_SPECIAL_FRAMECOUNT:
        if (u->scalar == FXGL_SCALAR_BOOL) {
            v.i[0] = c->frame_count % 2 == 0;
        } else {
            v.scalar = FXGL_SCALAR_UINT;
            v.u[0] = (uint32_t)c->frame_count;
        }
        break;
    case FXGL_SPECIAL_TIMER:
        v.scalar = FXGL_SCALAR_UINT;
        v.u[0] = (uint32_t)(c->elapsed * 1000.0);
        break;
    case FXGL_SPECIAL_RANDOM: {
        int64_t span = (int64_t)p->imax - p->imin;
        span = span < 0 ? -span : span;
        v.i[0] = (int32_t)(p->imin + (int64_t)(fxgl_xorshift32(c->rng) % (uint64_t)(span + 1)));
        break;
    }
    case FXGL_SPECIAL_PINGPONG:
        pingpong(p, state, c);
        v.scalar = FXGL_SCALAR_FLOAT;
        v.count = 2;
        v.f[0] = state[0];
        v.f[1] = state[1];
        break;
    case FXGL_SPECIAL_DATE: {
        v.count = 4;
        if (c->date) {
            memcpy(v.i, c->date, 4 * sizeof(int));
        } else {
            time_t now = time(NULL);
            struct tm tm;
            localtime_r(&now, &tm);
            v.i[0] = tm.tm_year + 1900;
            v.i[1] = tm.tm_mon + 1;
            v.i[2] = tm.tm_mday;
            v.i[3] = tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
        }
        break;
    }
    default:
        return false;
    }
    *out = v;
    return true;
}
