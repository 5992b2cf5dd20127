/*
 * imgdiff.c - the comparison side of the differential tool
 * (tools/refdiff.sh): compares two PNGs of one size channel by channel and
 * writes a side-by-side picture; also makes the input picture.
 *
 *   fxgl-imgdiff [--side SIDE.png --input IN.png] A.png B.png
 *       Prints one line of tab-separated key=value pairs over R, G and B
 *       (alpha is not compared: a window read back has none):
 *         psnr=DB (inf when equal)  max=N (0..255)  mean=X (mean absolute
 *         difference, in 1/255)  off2=F (share of pixels with some channel
 *         off by more than 2/255)  then max_r= max_g= max_b= mean_r= ...
 *         and b_uniform=1 when every pixel of B has one colour
 *       SIDE.png is IN | A | B | |A - B| x 4, each W x H.
 *       Exit status 0 when compared, 1 when a file is unreadable or the sizes
 *       differ, 2 usage.
 *   fxgl-imgdiff --make-input W H OUT.png
 *       An opaque picture with something for every kind of effect: smooth
 *       gradients in each channel (colour grading, tone curves), hard edges
 *       and thin lines (sharpening, anti-aliasing, edge detection), a
 *       value-noise area (blur, denoise) and pure black, white and primaries.
 *       The same bytes on every machine (integer arithmetic only).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

typedef struct img {
    int w, h;
    unsigned char *p; // RGBA
} img;

static int load(img *im, const char *path) {
    int comp;
    im->p = stbi_load(path, &im->w, &im->h, &comp, 4);
    if (!im->p) {
        fprintf(stderr, "fxgl-imgdiff: cannot read %s: %s\n", path, stbi_failure_reason());
        return 1;
    }
    return 0;
}

static uint32_t hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static int make_input(int w, int h, const char *path) {
    unsigned char *p = malloc((size_t)w * (size_t)h * 4);
    if (!p)
        return 1;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned char *o = p + ((size_t)y * (size_t)w + (size_t)x) * 4;
            int r, g, b;
            int band = y * 4 / h;     // four horizontal bands
            int col = x * 4 / w;      // four columns in each
            if (band == 0) {          // gradients: R across, G down, B diagonal
                r = x * 255 / (w - 1);
                g = (y * 4) * 255 / (h - 1) % 256;
                b = (x + y) * 255 / (w + h - 2);
            } else if (band == 1) {   // hard edges and one-pixel lines
                int check = ((x / 8) + (y / 8)) & 1;
                r = check ? 230 : 25;
                g = (x % 5 == 0) ? 255 : (check ? 140 : 60);
                b = (y % 7 == 0) ? 255 : (check ? 40 : 200);
            } else if (band == 2) {   // value noise on 4x4 cells, smoothed by hand
                uint32_t c = hash((uint32_t)(x / 4) * 73856093U ^ (uint32_t)(y / 4) * 19349663U);
                uint32_t n = hash((uint32_t)x * 2654435761U ^ (uint32_t)y * 40503U);
                r = (int)(c & 0xff) * 3 / 4 + (int)(n & 0x3f);
                g = (int)((c >> 8) & 0xff) * 3 / 4 + (int)((n >> 8) & 0x3f);
                b = (int)((c >> 16) & 0xff) * 3 / 4 + (int)((n >> 16) & 0x3f);
            } else {                  // flat patches: black, white, primaries, grey
                static const int patch[8][3] = {{0, 0, 0},     {255, 255, 255}, {255, 0, 0},
                                                {0, 255, 0},   {0, 0, 255},     {128, 128, 128},
                                                {255, 255, 0}, {64, 0, 128}};
                const int *c = patch[(col * 2 + (x * 8 / w) % 2) % 8];
                r = c[0];
                g = c[1];
                b = c[2];
            }
            o[0] = (unsigned char)(r > 255 ? 255 : r);
            o[1] = (unsigned char)(g > 255 ? 255 : g);
            o[2] = (unsigned char)(b > 255 ? 255 : b);
            o[3] = 255;
        }
    }
    int ok = stbi_write_png(path, w, h, 4, p, w * 4);
    free(p);
    if (!ok) {
        fprintf(stderr, "fxgl-imgdiff: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--make-input") == 0) {
        int w = atoi(argv[2]), h = atoi(argv[3]);
        if (w < 8 || h < 8 || w > 16384 || h > 16384) {
            fprintf(stderr, "fxgl-imgdiff: bad size %s x %s\n", argv[2], argv[3]);
            return 2;
        }
        return make_input(w, h, argv[4]);
    }
    const char *side = NULL, *input = NULL, *a_path = NULL, *b_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--side") == 0 && i + 1 < argc)
            side = argv[++i];
        else if (strcmp(argv[i], "--input") == 0 && i + 1 < argc)
            input = argv[++i];
        else if (!a_path)
            a_path = argv[i];
        else if (!b_path)
            b_path = argv[i];
        else
            a_path = NULL;
    }
    if (!a_path || !b_path || (side && !input)) {
        fprintf(stderr, "usage: fxgl-imgdiff [--side SIDE.png --input IN.png] A.png B.png\n"
                        "       fxgl-imgdiff --make-input W H OUT.png\n");
        return 2;
    }
    img a = {0}, b = {0}, in = {0};
    if (load(&a, a_path) || load(&b, b_path) || (input && load(&in, input)))
        return 1;
    if (a.w != b.w || a.h != b.h || (input && (in.w != a.w || in.h != a.h))) {
        fprintf(stderr, "fxgl-imgdiff: sizes differ: %dx%d, %dx%d%s\n", a.w, a.h, b.w, b.h,
                input ? " (or the input's)" : "");
        return 1;
    }
    size_t n = (size_t)a.w * (size_t)a.h;
    int maxc[3] = {0, 0, 0};
    double sum[3] = {0, 0, 0}, sq = 0;
    size_t off2 = 0;
    int b_uniform = 1; // B is one colour (R, G, B): a black or constant result
    for (size_t i = 0; i < n; i++) {
        if (memcmp(b.p + i * 4, b.p, 3) != 0)
            b_uniform = 0;
        int worst = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)a.p[i * 4 + c] - (int)b.p[i * 4 + c]);
            if (d > maxc[c])
                maxc[c] = d;
            if (d > worst)
                worst = d;
            sum[c] += d;
            sq += (double)d * d;
        }
        if (worst > 2)
            off2++;
    }
    int maxall = maxc[0] > maxc[1] ? maxc[0] : maxc[1];
    if (maxc[2] > maxall)
        maxall = maxc[2];
    double mse = sq / (double)(n * 3);
    char psnr[32];
    if (mse == 0)
        snprintf(psnr, sizeof(psnr), "inf");
    else
        snprintf(psnr, sizeof(psnr), "%.2f", 10.0 * log10(255.0 * 255.0 / mse));
    printf("psnr=%s\tmax=%d\tmean=%.4f\toff2=%.6f\tmax_r=%d\tmax_g=%d\tmax_b=%d\t"
           "mean_r=%.4f\tmean_g=%.4f\tmean_b=%.4f\tb_uniform=%d\n",
           psnr, maxall, (sum[0] + sum[1] + sum[2]) / (double)(n * 3), (double)off2 / (double)n,
           maxc[0], maxc[1], maxc[2], sum[0] / (double)n, sum[1] / (double)n, sum[2] / (double)n,
           b_uniform);
    int rc = 0;
    if (side) {
        int w = a.w, h = a.h;
        unsigned char *s = malloc((size_t)w * 4 * (size_t)h * 4);
        if (!s)
            return 1;
        const img *tiles[3] = {&in, &a, &b};
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                size_t src = ((size_t)y * (size_t)w + (size_t)x) * 4;
                for (int t = 0; t < 4; t++) {
                    unsigned char *o = s + ((size_t)y * (size_t)w * 4 + (size_t)t * (size_t)w +
                                            (size_t)x) * 4;
                    for (int c = 0; c < 3; c++) {
                        int v;
                        if (t < 3) {
                            v = tiles[t]->p[src + c];
                        } else {
                            v = abs((int)a.p[src + c] - (int)b.p[src + c]) * 4;
                            v = v > 255 ? 255 : v;
                        }
                        o[c] = (unsigned char)v;
                    }
                    o[3] = 255;
                }
            }
        }
        if (!stbi_write_png(side, w * 4, h, 4, s, w * 16)) {
            fprintf(stderr, "fxgl-imgdiff: cannot write %s\n", side);
            rc = 1;
        }
        free(s);
    }
    stbi_image_free(a.p);
    stbi_image_free(b.p);
    if (in.p)
        stbi_image_free(in.p);
    return rc;
}
