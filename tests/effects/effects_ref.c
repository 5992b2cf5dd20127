/*
 * effects_ref.c - CPU references of the built-in effects (see effects_ref.h).
 *
 * Each function restates its effect's formula from the data/shaders effects in
 * plain C, in float like the GPU, so that the pixel tests compare what the
 * compiler and runtime produced against arithmetic nobody generated.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "effects_ref.h"

bool ref_image_alloc(ref_image *img, int w, int h) {
    img->w = w;
    img->h = h;
    img->px = calloc((size_t)w * (size_t)h * 4, sizeof(float));
    return img->px != NULL;
}

void ref_image_free(ref_image *img) {
    free(img->px);
    img->px = NULL;
}

bool ref_image_from_rgba8(ref_image *img, const fxgl_image *src) {
    if (!ref_image_alloc(img, src->width, src->height)) {
        return false;
    }
    size_t n = (size_t)src->width * (size_t)src->height * 4;
    for (size_t i = 0; i < n; i++) {
        img->px[i] = (float)src->pixels[i] / 255.0f;
    }
    return true;
}

static float clamp01(float v) {
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

bool ref_image_to_rgba8(const ref_image *img, fxgl_image *dst) {
    if (!fxgl_image_alloc(dst, img->w, img->h)) {
        return false;
    }
    size_t n = (size_t)img->w * (size_t)img->h * 4;
    for (size_t i = 0; i < n; i++) {
        dst->pixels[i] = (uint8_t)lrintf(clamp01(img->px[i]) * 255.0f);
    }
    return true;
}

float *ref_at(const ref_image *img, int x, int y) {
    x = x < 0 ? 0 : x >= img->w ? img->w - 1 : x;
    y = y < 0 ? 0 : y >= img->h ? img->h - 1 : y;
    return img->px + ((size_t)y * (size_t)img->w + (size_t)x) * 4;
}

void ref_sample_point(const ref_image *img, float u, float v, float out[4]) {
    const float *p = ref_at(img, (int)floorf(u * (float)img->w), (int)floorf(v * (float)img->h));
    memcpy(out, p, 4 * sizeof(float));
}

void ref_sample_linear(const ref_image *img, float u, float v, float out[4]) {
    float x = u * (float)img->w - 0.5f;
    float y = v * (float)img->h - 0.5f;
    int x0 = (int)floorf(x);
    int y0 = (int)floorf(y);
    float fx = x - (float)x0;
    float fy = y - (float)y0;
    const float *a = ref_at(img, x0, y0);
    const float *b = ref_at(img, x0 + 1, y0);
    const float *c = ref_at(img, x0, y0 + 1);
    const float *d = ref_at(img, x0 + 1, y0 + 1);
    for (int i = 0; i < 4; i++) {
        float top = a[i] + (b[i] - a[i]) * fx;
        float bottom = c[i] + (d[i] - c[i]) * fx;
        out[i] = top + (bottom - top) * fy;
    }
}

static void uv_of(const ref_image *img, int x, int y, float *u, float *v) {
    *u = ((float)x + 0.5f) / (float)img->w;
    *v = ((float)y + 0.5f) / (float)img->h;
}

static float smoothstepf(float e0, float e1, float x) {
    float t = clamp01((x - e0) / (e1 - e0));
    return t * t * (3.0f - 2.0f * t);
}

static float lerpf(float a, float b, float t) {
    return a + (b - a) * t;
}

static float maxf(float a, float b) {
    return a > b ? a : b;
}

static float minf(float a, float b) {
    return a < b ? a : b;
}

// --- the scene ---

bool ref_scene(fxgl_image *img, int w, int h) {
    if (!fxgl_image_alloc(img, w, h)) {
        return false;
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
            int r, g, b;
            bool left = x < w / 2;
            bool top = y < h / 2;
            if (top && left) {
                // A dark, slow gradient: steps of one 8-bit level several
                // pixels wide, the banding deband is for.
                int level = 20 + (x * 12) / (w / 2);
                r = level;
                g = level + 2;
                b = level + 6;
            } else if (top) {
                // Colour patches, saturated above, dull below.
                static const int patches[8][3] = {
                    {220, 40, 30}, {40, 200, 60}, {30, 60, 220}, {240, 160, 20},
                    {150, 120, 110}, {110, 140, 120}, {120, 120, 150}, {140, 140, 140},
                };
                int col = ((x - w / 2) * 4) / (w - w / 2);
                int row = (y * 2) / (h / 2);
                const int *c = patches[row * 4 + (col > 3 ? 3 : col)];
                r = c[0];
                g = c[1];
                b = c[2];
            } else if (left) {
                // Hard, aliased edges: a steep and a shallow line and a box.
                int lx = x, ly = y - h / 2, hh = h - h / 2;
                bool steep = abs(lx - ly / 3 - 4) <= 1;
                bool shallow = abs(ly - lx / 3 - hh / 2) <= 0;
                bool box = lx > (w / 2) * 2 / 3 && ly > hh / 4 && ly < hh * 3 / 4;
                int v = (steep || shallow || box) ? 230 : 25;
                r = v;
                g = v;
                b = v;
            } else {
                // Dark ground with bright spots and a vertical grey ramp.
                int lx = x - w / 2, ly = y - h / 2, ww = w - w / 2, hh = h - h / 2;
                bool spot = (abs(lx - ww / 4) <= 1 && abs(ly - hh / 3) <= 1) ||
                            (abs(lx - ww / 2) <= 2 && abs(ly - hh * 2 / 3) <= 2);
                int ramp = lx > ww * 3 / 4 ? 30 + (ly * 200) / hh : 15;
                r = spot ? 255 : ramp;
                g = spot ? 250 : ramp;
                b = spot ? 235 : ramp;
            }
            p[0] = (uint8_t)r;
            p[1] = (uint8_t)g;
            p[2] = (uint8_t)b;
            p[3] = 255;
        }
    }
    return true;
}

// --- effects ---

void ref_passthrough(const ref_image *in, ref_image *out) {
    memcpy(out->px, in->px, (size_t)in->w * (size_t)in->h * 4 * sizeof(float));
}

void ref_cas(const ref_image *in, ref_image *out, float sharpness, float blend) {
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c = ref_at(in, x, y);
            const float *n = ref_at(in, x, y - 1);
            const float *w = ref_at(in, x - 1, y);
            const float *e = ref_at(in, x + 1, y);
            const float *s = ref_at(in, x, y + 1);
            float *o = ref_at(out, x, y);
            for (int i = 0; i < 3; i++) {
                float lo = minf(c[i], minf(minf(n[i], s[i]), minf(w[i], e[i])));
                float hi = maxf(c[i], maxf(maxf(n[i], s[i]), maxf(w[i], e[i])));
                float amp = sqrtf(clamp01(minf(lo, 1.0f - hi) / maxf(hi, 1.0f / 1024.0f)));
                float weight = -amp / lerpf(8.0f, 5.0f, sharpness);
                float sharp = (c[i] + (n[i] + w[i] + e[i] + s[i]) * weight) / (1.0f + 4.0f * weight);
                o[i] = lerpf(c[i], clamp01(sharp), blend);
            }
            o[3] = 1.0f;
        }
    }
}

static float luma601(const float *c) {
    return c[0] * 0.299f + c[1] * 0.587f + c[2] * 0.114f;
}

void ref_fxaa(const ref_image *in, ref_image *out, float edge_threshold, float edge_threshold_min,
              float span_max) {
    float px = 1.0f / (float)in->w, py = 1.0f / (float)in->h;
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            float u, v, m[4], t[4];
            uv_of(in, x, y, &u, &v);
            float *o = ref_at(out, x, y);
            ref_sample_linear(in, u, v, m);
            ref_sample_linear(in, u - 0.5f * px, v - 0.5f * py, t);
            float nw = luma601(t);
            ref_sample_linear(in, u + 0.5f * px, v - 0.5f * py, t);
            float ne = luma601(t);
            ref_sample_linear(in, u - 0.5f * px, v + 0.5f * py, t);
            float sw = luma601(t);
            ref_sample_linear(in, u + 0.5f * px, v + 0.5f * py, t);
            float se = luma601(t);
            float lm = luma601(m);
            float lmin = minf(lm, minf(minf(nw, ne), minf(sw, se)));
            float lmax = maxf(lm, maxf(maxf(nw, ne), maxf(sw, se)));
            o[3] = 1.0f;
            if (lmax - lmin < maxf(edge_threshold_min, lmax * edge_threshold)) {
                memcpy(o, m, 3 * sizeof(float));
                continue;
            }
            float dx = (sw + se) - (nw + ne);
            float dy = (nw + sw) - (ne + se);
            float reduce = maxf((nw + ne + sw + se) * (0.25f / 8.0f), 1.0f / 128.0f);
            float scale = 1.0f / (minf(fabsf(dx), fabsf(dy)) + reduce);
            dx = fminf(fmaxf(dx * scale, -span_max), span_max) * px;
            dy = fminf(fmaxf(dy * scale, -span_max), span_max) * py;
            float a[4], b[4], c[4], d[4], inner[3], outer[3];
            ref_sample_linear(in, u - dx / 6.0f, v - dy / 6.0f, a);
            ref_sample_linear(in, u + dx / 6.0f, v + dy / 6.0f, b);
            ref_sample_linear(in, u - dx * 0.5f, v - dy * 0.5f, c);
            ref_sample_linear(in, u + dx * 0.5f, v + dy * 0.5f, d);
            for (int i = 0; i < 3; i++) {
                inner[i] = 0.5f * (a[i] + b[i]);
                outer[i] = 0.5f * inner[i] + 0.25f * (c[i] + d[i]);
            }
            float lo = luma601(outer);
            memcpy(o, (lo < lmin || lo > lmax) ? inner : outer, 3 * sizeof(float));
        }
    }
}

static float luma709(const float *c) {
    return c[0] * 0.2126f + c[1] * 0.7152f + c[2] * 0.0722f;
}

void ref_vibrance(const ref_image *in, ref_image *out, float saturation, float vibrance) {
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            float l = luma709(c);
            float s[3];
            for (int i = 0; i < 3; i++) {
                s[i] = lerpf(l, c[i], saturation);
            }
            float chroma = maxf(maxf(s[0], s[1]), s[2]) - minf(minf(s[0], s[1]), s[2]);
            for (int i = 0; i < 3; i++) {
                o[i] = clamp01(lerpf(l, s[i], 1.0f + vibrance * (1.0f - chroma)));
            }
            o[3] = 1.0f;
        }
    }
}

void ref_tonemap(const ref_image *in, ref_image *out, const ref_tonemap_params *p) {
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            for (int i = 0; i < 3; i++) {
                float v = c[i];
                if (p->exposure != 0.0f || p->op != 0) {
                    float lin = powf(maxf(v, 0.0f), 2.2f) * exp2f(p->exposure);
                    if (p->op == 1) {
                        lin = lin * (1.0f + lin / (p->white_point * p->white_point)) / (1.0f + lin);
                    } else if (p->op == 2) {
                        lin = clamp01((lin * (2.51f * lin + 0.03f)) /
                                      (lin * (2.43f * lin + 0.59f) + 0.14f));
                    }
                    v = powf(clamp01(lin), 1.0f / 2.2f);
                }
                float range = maxf((p->white_level - p->black_level) / 255.0f, 1.0f / 255.0f);
                v = clamp01((v - p->black_level / 255.0f) / range);
                v = powf(v, 1.0f / p->gamma);
                float s = v * v * (3.0f - 2.0f * v);
                o[i] = clamp01(lerpf(v, s, p->contrast));
            }
            o[3] = 1.0f;
        }
    }
}

void ref_vignette(const ref_image *in, ref_image *out, float amount, float radius, float softness,
                  bool round) {
    float aspect = (float)in->w / (float)in->h;
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            float u, v;
            uv_of(in, x, y, &u, &v);
            float ex = round ? aspect : 1.0f;
            float px = (u * 2.0f - 1.0f) * ex, py = v * 2.0f - 1.0f;
            float r = sqrtf(px * px + py * py) / sqrtf(ex * ex + 1.0f);
            float k = 1.0f - amount * smoothstepf(radius, radius + softness, r);
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            for (int i = 0; i < 3; i++) {
                o[i] = c[i] * k;
            }
            o[3] = 1.0f;
        }
    }
}

uint32_t ref_hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint32_t ref_hash3(uint32_t x, uint32_t y, uint32_t z) {
    return ref_hash(x ^ ref_hash(y ^ ref_hash(z)));
}

float ref_unit(uint32_t h) {
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

void ref_grain(const ref_image *in, ref_image *out, float intensity, float midtones, uint32_t frame) {
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            uint32_t h = ref_hash3((uint32_t)x, (uint32_t)y, frame);
            float n = ref_unit(h) + ref_unit(ref_hash(h)) - 1.0f;
            float l = luma709(c);
            float weight = lerpf(1.0f, 4.0f * l * (1.0f - l), midtones);
            for (int i = 0; i < 3; i++) {
                o[i] = clamp01(c[i] + n * intensity * weight);
            }
            o[3] = 1.0f;
        }
    }
}

static float max3(const float *v) {
    return maxf(maxf(v[0], v[1]), v[2]);
}

void ref_deband(const ref_image *in, ref_image *out, float threshold, int range, float dither) {
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            uint32_t h = ref_hash3((uint32_t)x, (uint32_t)y, 0x5eedu);
            uint32_t h1 = ref_hash(h), h2 = ref_hash(h1), h3 = ref_hash(h2);
            float span = (float)(2 * range + 1);
            int ox = (int)(floorf(ref_unit(h) * span) - (float)range);
            int oy = (int)(floorf(ref_unit(h1) * span) - (float)range);
            const float *taps[4] = {
                ref_at(in, x + ox, y + oy), ref_at(in, x - ox, y - oy),
                ref_at(in, x - oy, y + ox), ref_at(in, x + oy, y - ox),
            };
            float diff = 0.0f;
            for (int t = 0; t < 4; t++) {
                float d[3];
                for (int i = 0; i < 3; i++) {
                    d[i] = fabsf(c[i] - taps[t][i]);
                }
                diff = maxf(diff, max3(d));
            }
            float w = clamp01((threshold - diff) / (0.5f * threshold));
            float n = ref_unit(h2) + ref_unit(h3) - 1.0f;
            for (int i = 0; i < 3; i++) {
                float avg = (taps[0][i] + taps[1][i] + taps[2][i] + taps[3][i]) * 0.25f;
                o[i] = clamp01(lerpf(c[i], avg, w) + n * (dither / 255.0f));
            }
            o[3] = 1.0f;
        }
    }
}

void ref_lut(const ref_image *in, const ref_image *lut, int size, ref_image *out, float amount) {
    float n = (float)size;
    for (int y = 0; y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            const float *c0 = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            float c[3] = {clamp01(c0[0]), clamp01(c0[1]), clamp01(c0[2])};
            float cr = c[0] * (n - 1.0f), cg = c[1] * (n - 1.0f), cb = c[2] * (n - 1.0f);
            float slice = floorf(cb);
            float f = cb - slice;
            float lu = (slice * n + cr + 0.5f) / (n * n);
            float lv = (cg + 0.5f) / n;
            float lo[4], hi[4];
            ref_sample_linear(lut, lu, lv, lo);
            ref_sample_linear(lut, lu + 1.0f / n, lv, hi);
            for (int i = 0; i < 3; i++) {
                o[i] = lerpf(c[i], lerpf(lo[i], hi[i], f), amount);
            }
            o[3] = 1.0f;
        }
    }
}

static float to_linear(float v) {
    return powf(maxf(v, 0.0f), 2.2f);
}

// Level l + 1 of a mip chain: the 2x2 box GL's mipmap generation uses for
// even sizes (the test sizes are powers of two).
static bool box_down(const ref_image *src, ref_image *dst) {
    int w = src->w > 1 ? src->w / 2 : 1, h = src->h > 1 ? src->h / 2 : 1;
    if (!ref_image_alloc(dst, w, h)) {
        return false;
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float *o = ref_at(dst, x, y);
            for (int i = 0; i < 4; i++) {
                o[i] = 0.25f * (ref_at(src, 2 * x, 2 * y)[i] + ref_at(src, 2 * x + 1, 2 * y)[i] +
                                ref_at(src, 2 * x, 2 * y + 1)[i] + ref_at(src, 2 * x + 1, 2 * y + 1)[i]);
            }
        }
    }
    return true;
}

void ref_bloom(const ref_image *in, ref_image *out, float threshold, float intensity, float spread) {
    float px = 1.0f / (float)in->w, py = 1.0f / (float)in->h;
    ref_image mips[6] = {{0}};
    ref_image glow = {0};
    if (!ref_image_alloc(&mips[0], in->w / 2, in->h / 2)) {
        return;
    }
    for (int y = 0; y < mips[0].h; y++) {
        for (int x = 0; x < mips[0].w; x++) {
            float u, v, t[4];
            uv_of(&mips[0], x, y, &u, &v);
            static const float offs[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
            float *o = ref_at(&mips[0], x, y);
            for (int k = 0; k < 4; k++) {
                ref_sample_linear(in, u + offs[k][0] * px, v + offs[k][1] * py, t);
                float c[3] = {to_linear(t[0]), to_linear(t[1]), to_linear(t[2])};
                float brightness = maxf(maxf(c[0], c[1]), c[2]);
                float keep = maxf(brightness - threshold, 0.0f) / maxf(brightness, 1e-4f);
                for (int i = 0; i < 3; i++) {
                    o[i] += 0.25f * c[i] * keep;
                }
            }
            o[3] = 1.0f;
        }
    }
    bool ok = true;
    for (int l = 1; l < 6 && ok; l++) {
        ok = box_down(&mips[l - 1], &mips[l]);
    }
    ok = ok && ref_image_alloc(&glow, in->w / 4, in->h / 4);
    for (int y = 0; ok && y < glow.h; y++) {
        for (int x = 0; x < glow.w; x++) {
            float u, v, t[4], sum[3] = {0, 0, 0}, total = 0.0f, weight = 1.0f;
            uv_of(&glow, x, y, &u, &v);
            for (int l = 1; l < 6; l++) {
                float ox = exp2f((float)l) * px, oy = exp2f((float)l) * py;
                static const float sgn[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
                for (int k = 0; k < 4; k++) {
                    ref_sample_linear(&mips[l], u + sgn[k][0] * ox, v + sgn[k][1] * oy, t);
                    for (int i = 0; i < 3; i++) {
                        sum[i] += t[i] * 0.25f * weight;
                    }
                }
                total += weight;
                weight *= spread;
            }
            float *o = ref_at(&glow, x, y);
            for (int i = 0; i < 3; i++) {
                o[i] = sum[i] / total;
            }
            o[3] = 1.0f;
        }
    }
    for (int y = 0; ok && y < in->h; y++) {
        for (int x = 0; x < in->w; x++) {
            float u, v, g[4];
            uv_of(in, x, y, &u, &v);
            ref_sample_linear(&glow, u, v, g);
            const float *c = ref_at(in, x, y);
            float *o = ref_at(out, x, y);
            for (int i = 0; i < 3; i++) {
                o[i] = clamp01(powf(to_linear(c[i]) + intensity * g[i], 1.0f / 2.2f));
            }
            o[3] = 1.0f;
        }
    }
    for (int l = 0; l < 6; l++) {
        ref_image_free(&mips[l]);
    }
    ref_image_free(&glow);
}

void ref_depthview(const ref_image *color, const ref_image *depth, ref_image *out, int mode,
                   float far_plane, bool upside_down, bool reversed) {
    for (int y = 0; y < color->h; y++) {
        for (int x = 0; x < color->w; x++) {
            float u, v, d[4], raw[4];
            uv_of(color, x, y, &u, &v);
            ref_sample_linear(depth, u, upside_down ? 1.0f - v : v, d);
            float z = reversed ? 1.0f - d[0] : d[0];
            float lin = z / (far_plane - z * (far_plane - 1.0f));
            float *o = ref_at(out, x, y);
            const float *c = ref_at(color, x, y);
            ref_sample_linear(depth, u, v, raw);
            for (int i = 0; i < 3; i++) {
                o[i] = mode == 1 ? raw[0] : (mode == 2 && u < 0.5f) ? c[i] : lin;
            }
            o[3] = 1.0f;
        }
    }
}
