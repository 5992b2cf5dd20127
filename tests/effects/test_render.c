/*
 * test_render.c - every built-in effect rendered through the runtime over
 * the test scene, compared with its CPU reference (effects_ref.c).
 *
 * Tolerances are in 8-bit steps. Bit-exact effects (passthrough) get 0;
 * arithmetic-only effects get 2 (float rounding, pow/exp2 precision);
 * effects that sample bilinearly between texels get 3 and may exceed it on
 * a few pixels, because llvmpipe quantises filter weights to 8 bits, which
 * can also flip FXAA's edge decisions on a handful of pixels. Alpha is
 * compared too: every effect keeps the frame's alpha (the scene's is 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "effects_ref.h"
#include "effects_render.h"

#define SCENE_W 128
#define SCENE_H 64

typedef void (*ref_fn)(const ref_image *in, ref_image *out, const ref_image *aux);

typedef struct effect_case {
    const char *name;
    effect_run run;
    ref_fn reference;
    int tolerance;               // largest channel difference counted as equal
    double max_over;             // share of pixels allowed over the tolerance
} effect_case;

static void r_passthrough(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_passthrough(in, out);
}
static void r_cas(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_cas(in, out, 0.8f, 1.0f);
}
static void r_fxaa(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_fxaa(in, out, 0.125f, 0.0312f, 8.0f);
}
static void r_vibrance(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_vibrance(in, out, 1.2f, 0.4f);
}
static void r_tonemap(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_tonemap_params p = {0.5f, 2, 4.0f, 8.0f, 245.0f, 1.2f, 0.3f};
    ref_tonemap(in, out, &p);
}
static void r_vignette(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_vignette(in, out, 0.6f, 0.3f, 0.5f, true);
}
static void r_grain(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_grain(in, out, 0.0f, 0.6f, 0); // see check_grain for the noise itself
}
static void r_deband(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_deband(in, out, 0.012f, 16, 0.0f);
}
static void r_lut(const ref_image *in, ref_image *out, const ref_image *aux) {
    ref_lut(in, aux, 32, out, 1.0f);
}
static void r_lut_inverted(const ref_image *in, ref_image *out, const ref_image *aux) {
    ref_lut(in, aux, 32, out, 0.75f);
}
static void r_bloom(const ref_image *in, ref_image *out, const ref_image *aux) {
    (void)aux;
    ref_bloom(in, out, 0.6f, 0.8f, 0.7f);
}
static void r_depth(const ref_image *in, ref_image *out, const ref_image *aux) {
    ref_depthview(in, aux, out, 0, 1000.0f, false, false);
}
static void r_depth_flipped(const ref_image *in, ref_image *out, const ref_image *aux) {
    ref_depthview(in, aux, out, 0, 2.0f, true, true);
}
static void r_depth_raw(const ref_image *in, ref_image *out, const ref_image *aux) {
    ref_depthview(in, aux, out, 1, 1000.0f, false, false);
}

static const effect_case cases[] = {
    {"passthrough", {.effect = "fxgl_Passthrough.fx", .frames = 1}, r_passthrough, 0, 0.0},
    {"cas", {.effect = "fxgl_CAS.fx", .values = "Sharpness=0.8\nBlend=1\n", .frames = 1}, r_cas, 2, 0.0},
    {"fxaa", {.effect = "fxgl_FXAA.fx", .values = "EdgeThreshold=0.125\nEdgeThresholdMin=0.0312\nSpanMax=8\n", .frames = 1}, r_fxaa, 3, 0.01},
    {"vibrance", {.effect = "fxgl_Vibrance.fx", .values = "Saturation=1.2\nVibrance=0.4\n", .frames = 1}, r_vibrance,
     2, 0.0},
    {"tonemap", {.effect = "fxgl_Tonemap.fx", .values = "Exposure=0.5\nOperator=2\nWhitePoint=4\nBlackLevel=8\n"
                 "WhiteLevel=245\nGamma=1.2\nContrast=0.3\n", .frames = 1}, r_tonemap, 2, 0.0},
    {"vignette", {.effect = "fxgl_Vignette.fx", .values = "Amount=0.6\nRadius=0.3\nSoftness=0.5\nRound=1\n", .frames = 1}, r_vignette, 2, 0.0},
    {"grain-off", {.effect = "fxgl_FilmGrain.fx", .values = "Intensity=0\nMidtones=0.6\n", .frames = 1}, r_grain, 0, 0.0},
    {"deband", {.effect = "fxgl_Deband.fx", .values = "Threshold=0.012\nRange=16\nDither=0\n", .frames = 1},
     r_deband, 1, 0.0},
    {"lut", {.effect = "fxgl_LUT.fx", .values = "Amount=1\n", .frames = 1}, r_lut, 1, 0.0},
    {"bloom", {.effect = "fxgl_Bloom.fx", .values = "Threshold=0.6\nIntensity=0.8\nSpread=0.7\n", .frames = 2},
     r_bloom, 2, 0.0},
    {"depth", {.effect = "fxgl_DepthView.fx", .values = "Mode=0\n", .frames = 1}, r_depth, 2, 0.0},
    {"depth-flipped", {.effect = "fxgl_DepthView.fx", .values = "Mode=0\n",
                       .defines = "RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN=1,"
                                  "RESHADE_DEPTH_INPUT_IS_REVERSED=1,"
                                  "RESHADE_DEPTH_LINEARIZATION_FAR_PLANE=2.0",
                       .frames = 1}, r_depth_flipped, 2, 0.0},
    {"depth-raw", {.effect = "fxgl_DepthView.fx", .values = "Mode=1\n", .frames = 1}, r_depth_raw,
     2, 0.0},
    // An inverting strip written by the test itself, selected by the effect's
    // FXGL_LUT_TEXTURE definition.
    {"lut-inverted", {.effect = "fxgl_LUT.fx", .values = "Amount=0.75\n",
                      .defines = "FXGL_LUT_TEXTURE=\"test_lut_inverted.png\"", .frames = 1},
     r_lut_inverted, 1, 0.0},
};

// The neutral strip as tools/lutgen.c documents it, computed here rather
// than read from the generated file.
static bool neutral_lut(ref_image *lut, int n, bool inverted) {
    if (!ref_image_alloc(lut, n * n, n)) {
        return false;
    }
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n * n; x++) {
            // round(i * 255 / (n - 1)), halves up, in integers.
            int idx[3] = {x % n, y, x / n};
            float *p = ref_at(lut, x, y);
            for (int i = 0; i < 3; i++) {
                int level = (idx[i] * 510 + (n - 1)) / (2 * (n - 1));
                p[i] = (float)(inverted ? 255 - level : level) / 255.0f;
            }
            p[3] = 1.0f;
        }
    }
    return true;
}

// A depth image: a ramp left to right, a near box in the middle, a near strip at the top.
static bool depth_scene(fxgl_image *img, int w, int h) {
    if (!fxgl_image_alloc(img, w, h)) {
        return false;
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
            // A near strip along the top makes the image asymmetric vertically,
            // so that an upside-down read shows.
            bool box = x > w / 3 && x < 2 * w / 3 && y > h / 3 && y < 2 * h / 3;
            bool strip = y < h / 5;
            p[0] = box ? 40 : strip ? 120 : (uint8_t)(200 + (x * 55) / w);
            p[1] = p[2] = 0;
            p[3] = 255;
        }
    }
    return true;
}

static int compare(const char *name, const fxgl_image *got, const fxgl_image *want, int tolerance,
                   double max_over) {
    fxgl_image_diff diff;
    fxgl_image_compare(got, want, tolerance, &diff);
    double share = (double)diff.pixels_over / ((double)want->width * (double)want->height);
    bool ok = got->width == want->width && got->height == want->height && share <= max_over;
    printf("%s %s: max diff %d, %zu pixels over %d (%.3f%%, allowed %.3f%%)", ok ? "PASS" : "FAIL",
           name, diff.max_diff, diff.pixels_over, tolerance, share * 100.0, max_over * 100.0);
    if (diff.first_x >= 0) {
        const uint8_t *g = fxgl_image_at(got, diff.first_x, diff.first_y);
        const uint8_t *w = fxgl_image_at(want, diff.first_x, diff.first_y);
        printf("; first at (%d,%d): got %d,%d,%d want %d,%d,%d", diff.first_x, diff.first_y, g[0],
               g[1], g[2], w[0], w[1], w[2]);
    }
    printf("\n");
    return ok ? 0 : 1;
}

// Grain on: the noise is an integer hash of pixel and frame counter, so the
// output must match the reference exactly for one frame counter value; which
// one the runtime starts at (0 or 1) is its business, so both are accepted.
static int check_grain(const fxgl_image *scene, const ref_image *in, bool gles) {
    effect_run run = {.effect = "fxgl_FilmGrain.fx", .values = "Intensity=0.1\nMidtones=0.6\n",
                      .frames = 1, .gles = gles};
    fxgl_image got = {0};
    char reason[256] = "";
    effect_status st = effect_render(&run, scene, &got, reason, sizeof(reason));
    if (st != EFFECT_RENDERED) {
        printf("FAIL %s grain: %s\n", gles ? "gles" : "gl", reason);
        return 1;
    }
    int best = -1;
    fxgl_image_diff best_diff = {0};
    for (uint32_t frame = 0; frame < 2; frame++) {
        ref_image out = {0};
        fxgl_image want = {0};
        fxgl_image_diff diff;
        if (!ref_image_alloc(&out, in->w, in->h)) {
            return 1;
        }
        ref_grain(in, &out, 0.1f, 0.6f, frame);
        ref_image_to_rgba8(&out, &want);
        fxgl_image_compare(&got, &want, 2, &diff);
        if (best < 0 || diff.pixels_over < best_diff.pixels_over) {
            best = (int)frame;
            best_diff = diff;
        }
        ref_image_free(&out);
        fxgl_image_free(&want);
    }
    fxgl_image_free(&got);
    bool ok = best_diff.pixels_over == 0;
    printf("%s %s grain: closest frame counter %d, max diff %d, %zu pixels over 2\n",
           ok ? "PASS" : "FAIL", gles ? "gles" : "gl", best, best_diff.max_diff,
           best_diff.pixels_over);
    return ok ? 0 : 1;
}

int main(void) {
    fxgl_image scene = {0}, depth = {0}, inverted_png = {0};
    ref_image in = {0}, lut = {0}, inverted = {0}, depth_ref = {0};
    if (!ref_scene(&scene, SCENE_W, SCENE_H) || !ref_image_from_rgba8(&in, &scene) ||
        !neutral_lut(&lut, 32, false) || !neutral_lut(&inverted, 32, true) ||
        !ref_image_to_rgba8(&inverted, &inverted_png) ||
        !depth_scene(&depth, SCENE_W, SCENE_H) || !ref_image_from_rgba8(&depth_ref, &depth)) {
        fprintf(stderr, "out of memory\n");
        return 99;
    }
    char texture_dir[] = "/tmp/fxgl-effects-XXXXXX", inverted_path[64];
    if (!mkdtemp(texture_dir)) {
        perror("mkdtemp");
        return 99;
    }
    snprintf(inverted_path, sizeof(inverted_path), "%s/test_lut_inverted.png", texture_dir);
    if (!fxgl_image_save_png(&inverted_png, inverted_path)) {
        fprintf(stderr, "cannot write %s\n", inverted_path);
        return 99;
    }
    int failures = 0;
    bool skipped = false;
    // Every effect on GL 4.5 core (GLSL 4.50) and on GLES 3.0 (GLSL ES 3.00).
    for (int api = 0; api < 2 && !skipped; api++) {
        bool gles = api == 1;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]) && !skipped; i++) {
            const effect_case *c = &cases[i];
            effect_run run = c->run;
            run.gles = gles;
            const ref_image *aux = NULL;
            if (strcmp(c->name, "lut") == 0) {
                aux = &lut;
            } else if (strcmp(c->name, "lut-inverted") == 0) {
                run.texture_dir = texture_dir;
                aux = &inverted;
            } else if (strncmp(c->name, "depth", 5) == 0) {
                run.depth = &depth;
                aux = &depth_ref;
            }
            char name[64];
            snprintf(name, sizeof(name), "%s %s", gles ? "gles" : "gl", c->name);
            fxgl_image got = {0}, want = {0};
            char reason[256] = "";
            effect_status st = effect_render(&run, &scene, &got, reason, sizeof(reason));
            if (st == EFFECT_UNAVAILABLE) {
                printf("SKIP: %s\n", reason);
                skipped = true;
                continue;
            }
            if (st == EFFECT_FAILED) {
                printf("FAIL %s: %s\n", name, reason);
                failures++;
                continue;
            }
            ref_image out = {0};
            if (!ref_image_alloc(&out, SCENE_W, SCENE_H)) {
                return 99;
            }
            c->reference(&in, &out, aux);
            ref_image_to_rgba8(&out, &want);
            failures += compare(name, &got, &want, c->tolerance, c->max_over);
            ref_image_free(&out);
            fxgl_image_free(&got);
            fxgl_image_free(&want);
        }
        if (!skipped) {
            failures += check_grain(&scene, &in, gles);
        }
    }
    unlink(inverted_path);
    rmdir(texture_dir);
    ref_image_free(&in);
    ref_image_free(&lut);
    ref_image_free(&inverted);
    fxgl_image_free(&inverted_png);
    ref_image_free(&depth_ref);
    fxgl_image_free(&scene);
    fxgl_image_free(&depth);
    return skipped ? 77 : failures == 0 ? 0 : 1;
}
