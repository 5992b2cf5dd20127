/*
 * test_reference.c - checks the CPU references of the built-in effects
 * (effects_ref.c) against values worked out by hand, so that the pixel
 * tests compare the renderer with arithmetic known to be right.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "effects_ref.h"

#define W 32
#define H 16

static ref_image in, out;

static void fill(ref_image *img, float r, float g, float b) {
    for (int y = 0; y < img->h; y++) {
        for (int x = 0; x < img->w; x++) {
            float *p = ref_at(img, x, y);
            p[0] = r;
            p[1] = g;
            p[2] = b;
            p[3] = 1.0f;
        }
    }
}

static void setup(void) {
    ck_assert(ref_image_alloc(&in, W, H));
    ck_assert(ref_image_alloc(&out, W, H));
}

static void teardown(void) {
    ref_image_free(&in);
    ref_image_free(&out);
}

#define ck_near(a, b, eps) ck_assert_msg(fabsf((float)(a) - (float)(b)) <= (eps), \
                                         "%s = %.6f, expected %.6f", #a, (double)(a), (double)(b))

START_TEST(test_sampling) {
    // Texel (1, 0) = 1, everything else 0: bilinear halfway between texel
    // centres 0 and 1 of row 0 is 0.5; on the centre of texel 1 it is 1.
    fill(&in, 0, 0, 0);
    ref_at(&in, 1, 0)[0] = 1.0f;
    float t[4];
    ref_sample_linear(&in, 1.0f / W, 0.5f / H, t);
    ck_near(t[0], 0.5f, 1e-6f);
    ref_sample_linear(&in, 1.5f / W, 0.5f / H, t);
    ck_near(t[0], 1.0f, 1e-6f);
    ref_sample_point(&in, 1.9f / W, 0.2f / H, t);
    ck_near(t[0], 1.0f, 0.0f);
    // CLAMP: beyond the left edge repeats texel 0.
    ref_sample_linear(&in, -3.0f / W, 0.5f / H, t);
    ck_near(t[0], 0.0f, 0.0f);
}
END_TEST

START_TEST(test_passthrough) {
    fill(&in, 0.1f, 0.2f, 0.3f);
    ref_at(&in, 3, 4)[1] = 0.9f;
    ref_passthrough(&in, &out);
    ck_near(ref_at(&out, 3, 4)[1], 0.9f, 0.0f);
    ck_near(ref_at(&out, 0, 0)[2], 0.3f, 0.0f);
}
END_TEST

START_TEST(test_cas) {
    // Flat input: the kernel's weights sum to one, nothing changes.
    fill(&in, 0.4f, 0.4f, 0.4f);
    ref_cas(&in, &out, 1.0f, 1.0f);
    ck_near(ref_at(&out, 5, 5)[0], 0.4f, 1e-6f);
    // Centre 0.5 among 0.25: lo 0.25, hi 0.5, amp sqrt(0.25/0.5) = 0.70711;
    // sharpness 0: weight -0.70711/8 = -0.088388;
    // (0.5 - 4*0.25*0.088388) / (1 - 4*0.088388) = 0.411612/0.646447 = 0.636729.
    fill(&in, 0.25f, 0.25f, 0.25f);
    ref_at(&in, 5, 5)[0] = 0.5f;
    ref_cas(&in, &out, 0.0f, 1.0f);
    ck_near(ref_at(&out, 5, 5)[0], 0.636729f, 1e-5f);
    ref_cas(&in, &out, 0.0f, 0.5f);
    ck_near(ref_at(&out, 5, 5)[0], 0.5f + 0.5f * 0.136729f, 1e-5f);
}
END_TEST

START_TEST(test_fxaa) {
    fill(&in, 0.3f, 0.3f, 0.3f);
    ref_fxaa(&in, &out, 0.125f, 0.0312f, 8.0f);
    ck_near(ref_at(&out, 7, 7)[0], 0.3f, 1e-6f);
    // A hard vertical edge: far pixels are untouched, pixels at the edge
    // are softened but stay within the two sides.
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float v = x < W / 2 ? 0.0f : 1.0f;
            float *p = ref_at(&in, x, y);
            p[0] = p[1] = p[2] = v;
        }
    }
    // A one-pixel step in the edge makes it aliased, not straight.
    for (int y = H / 2; y < H; y++) {
        float *p = ref_at(&in, W / 2, y);
        p[0] = p[1] = p[2] = 0.0f;
    }
    ref_fxaa(&in, &out, 0.125f, 0.0312f, 8.0f);
    ck_near(ref_at(&out, 2, 2)[0], 0.0f, 0.0f);
    ck_near(ref_at(&out, W - 3, 2)[0], 1.0f, 0.0f);
    int changed = 0;
    for (int y = 0; y < H; y++) {
        for (int x = W / 2 - 2; x <= W / 2 + 2; x++) {
            float v = ref_at(&out, x, y)[0];
            ck_assert(v >= 0.0f && v <= 1.0f);
            changed += v != ref_at(&in, x, y)[0];
        }
    }
    ck_assert_int_gt(changed, 0);
}
END_TEST

START_TEST(test_vibrance) {
    // Grey has no chroma: nothing to do.
    fill(&in, 0.5f, 0.5f, 0.5f);
    ref_vibrance(&in, &out, 1.5f, 0.5f);
    ck_near(ref_at(&out, 0, 0)[0], 0.5f, 1e-6f);
    // Saturation 0 gives luma: 0.2126*0.8 + 0.7152*0.4 + 0.0722*0.2 = 0.4706.
    fill(&in, 0.8f, 0.4f, 0.2f);
    ref_vibrance(&in, &out, 0.0f, 0.0f);
    ck_near(ref_at(&out, 0, 0)[0], 0.4706f, 1e-5f);
    ck_near(ref_at(&out, 0, 0)[2], 0.4706f, 1e-5f);
    // Vibrance 0.5 on chroma 0.6: factor 1 + 0.5*0.4 = 1.2;
    // r = 0.4706 + 1.2*(0.8 - 0.4706) = 0.86588.
    ref_vibrance(&in, &out, 1.0f, 0.5f);
    ck_near(ref_at(&out, 0, 0)[0], 0.86588f, 1e-5f);
}
END_TEST

START_TEST(test_tonemap) {
    ref_tonemap_params neutral = {0.0f, 0, 4.0f, 0.0f, 255.0f, 1.0f, 0.0f};
    fill(&in, 0.2f, 0.5f, 0.9f);
    ref_tonemap(&in, &out, &neutral);
    ck_near(ref_at(&out, 1, 1)[0], 0.2f, 1e-6f);
    ck_near(ref_at(&out, 1, 1)[2], 0.9f, 1e-6f);
    // Levels 64..191: 64/255 -> 0, 191/255 -> 1, 127.5/255 -> 0.5.
    ref_tonemap_params levels = neutral;
    levels.black_level = 64.0f;
    levels.white_level = 191.0f;
    fill(&in, 64.0f / 255, 191.0f / 255, 127.5f / 255);
    ref_tonemap(&in, &out, &levels);
    ck_near(ref_at(&out, 1, 1)[0], 0.0f, 1e-6f);
    ck_near(ref_at(&out, 1, 1)[1], 1.0f, 1e-6f);
    ck_near(ref_at(&out, 1, 1)[2], 0.5f, 1e-5f);
    // Contrast 1 is the smoothstep: 0.25 -> 0.15625.
    ref_tonemap_params curve = neutral;
    curve.contrast = 1.0f;
    fill(&in, 0.25f, 0.5f, 0.75f);
    ref_tonemap(&in, &out, &curve);
    ck_near(ref_at(&out, 1, 1)[0], 0.15625f, 1e-6f);
    ck_near(ref_at(&out, 1, 1)[1], 0.5f, 1e-6f);
    // ACES fit of linear 1: 2.54 / 3.16 = 0.803797; encoded ^(1/2.2) = 0.905480.
    ref_tonemap_params aces = neutral;
    aces.op = 2;
    fill(&in, 1.0f, 1.0f, 1.0f);
    ref_tonemap(&in, &out, &aces);
    ck_near(ref_at(&out, 1, 1)[0], 0.905480f, 3e-5f);
    // Extended Reinhard with white 4 on linear 1: 1 * (1 + 1/16) / 2 = 0.53125.
    ref_tonemap_params reinhard = neutral;
    reinhard.op = 1;
    ref_tonemap(&in, &out, &reinhard);
    ck_near(ref_at(&out, 1, 1)[0], powf(0.53125f, 1.0f / 2.2f), 1e-5f);
}
END_TEST

START_TEST(test_vignette) {
    ref_image odd;
    ck_assert(ref_image_alloc(&odd, 33, 17));
    fill(&odd, 0.8f, 0.8f, 0.8f);
    ref_image o2;
    ck_assert(ref_image_alloc(&o2, 33, 17));
    // The centre pixel is at r = 0: untouched. The corner pixel centre is
    // at r just under 1, beyond radius + softness = 0.9: fully darkened.
    ref_vignette(&odd, &o2, 0.5f, 0.3f, 0.6f, true);
    ck_near(ref_at(&o2, 16, 8)[0], 0.8f, 1e-6f);
    ck_near(ref_at(&o2, 0, 0)[0], 0.4f, 1e-6f);
    ck_near(ref_at(&o2, 32, 16)[1], 0.4f, 1e-6f);
    ref_image_free(&odd);
    ref_image_free(&o2);
}
END_TEST

START_TEST(test_noise) {
    // lowbias32 keeps 0 at 0 (every step is xor-shift or multiply).
    ck_assert_uint_eq(ref_hash(0), 0);
    ck_assert_uint_ne(ref_hash(1), ref_hash(2));
    ck_near(ref_unit(0xffffffffu), 16777215.0f / 16777216.0f, 0.0f);
    ck_near(ref_unit(0x000000ffu), 0.0f, 0.0f);
}
END_TEST

START_TEST(test_grain) {
    ref_image big, o;
    ck_assert(ref_image_alloc(&big, 256, 256));
    ck_assert(ref_image_alloc(&o, 256, 256));
    fill(&big, 0.5f, 0.5f, 0.5f);
    ref_grain(&big, &o, 0.0f, 0.6f, 7);
    ck_near(ref_at(&o, 9, 9)[0], 0.5f, 0.0f);
    // Mid-grey: the midtone weight is 4*0.5*0.5 = 1, so the added noise is
    // triangular on (-0.1, 0.1): mean 0, variance 0.1^2/6.
    ref_grain(&big, &o, 0.1f, 0.6f, 7);
    double sum = 0, sum2 = 0;
    int n = 256 * 256;
    for (int y = 0; y < 256; y++) {
        for (int x = 0; x < 256; x++) {
            double d = ref_at(&o, x, y)[0] - 0.5;
            sum += d;
            sum2 += d * d;
        }
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    ck_assert_msg(fabs(mean) < 0.001, "grain mean %g", mean);
    ck_assert_msg(fabs(var - 0.01 / 6.0) < 0.0002, "grain variance %g", var);
    // Another frame gives another pattern.
    ref_image o8;
    ck_assert(ref_image_alloc(&o8, 256, 256));
    ref_grain(&big, &o8, 0.1f, 0.6f, 8);
    ck_assert(ref_at(&o8, 3, 3)[0] != ref_at(&o, 3, 3)[0] || ref_at(&o8, 4, 3)[0] != ref_at(&o, 4, 3)[0]);
    ref_image_free(&o8);
    ref_image_free(&big);
    ref_image_free(&o);
}
END_TEST

START_TEST(test_deband) {
    // Bands one 8-bit step high and four pixels wide; without dither the
    // output must have no step as large as a band edge in most places.
    ref_image g, o;
    ck_assert(ref_image_alloc(&g, 128, 8));
    ck_assert(ref_image_alloc(&o, 128, 8));
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 128; x++) {
            float v = (float)(40 + x / 4) / 255.0f;
            float *p = ref_at(&g, x, y);
            p[0] = p[1] = p[2] = v;
        }
    }
    ref_deband(&g, &o, 0.012f, 8, 0.0f);
    int full_steps_in = 0, full_steps_out = 0;
    for (int x = 1; x < 128; x++) {
        full_steps_in += ref_at(&g, x, 4)[0] - ref_at(&g, x - 1, 4)[0] > 0.9f / 255.0f;
        full_steps_out += fabsf(ref_at(&o, x, 4)[0] - ref_at(&o, x - 1, 4)[0]) > 0.9f / 255.0f;
    }
    ck_assert_int_eq(full_steps_in, 31);
    ck_assert_msg(full_steps_out < full_steps_in / 2, "%d steps left", full_steps_out);
    // A hard edge far above the threshold survives exactly.
    fill(&g, 0.1f, 0.1f, 0.1f);
    for (int y = 0; y < 8; y++) {
        for (int x = 64; x < 128; x++) {
            ref_at(&g, x, y)[0] = 0.9f;
        }
    }
    ref_deband(&g, &o, 0.012f, 8, 0.0f);
    for (int x = 60; x < 68; x++) {
        ck_near(ref_at(&o, x, 4)[0], ref_at(&g, x, 4)[0], x == 63 || x == 64 ? 1.0f : 1e-6f);
    }
    // Dither alone stays within one 8-bit step.
    fill(&g, 0.5f, 0.5f, 0.5f);
    ref_deband(&g, &o, 0.012f, 8, 1.0f);
    for (int x = 0; x < 128; x++) {
        ck_assert(fabsf(ref_at(&o, x, 3)[0] - 0.5f) < 1.0f / 255.0f);
    }
    ref_image_free(&g);
    ref_image_free(&o);
}
END_TEST

// The neutral strip as tools/lutgen.c documents it.
static void neutral_lut(ref_image *lut, int n) {
    ck_assert(ref_image_alloc(lut, n * n, n));
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n * n; x++) {
            float *p = ref_at(lut, x, y);
            p[0] = (float)lrintf((float)(x % n) * 255.0f / (float)(n - 1)) / 255.0f;
            p[1] = (float)lrintf((float)y * 255.0f / (float)(n - 1)) / 255.0f;
            p[2] = (float)lrintf((float)(x / n) * 255.0f / (float)(n - 1)) / 255.0f;
            p[3] = 1.0f;
        }
    }
}

START_TEST(test_lut) {
    ref_image lut;
    neutral_lut(&lut, 32);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float *p = ref_at(&in, x, y);
            p[0] = (float)(x * 8) / 255.0f;
            p[1] = (float)(y * 16) / 255.0f;
            p[2] = (float)((x * y) % 256) / 255.0f;
        }
    }
    ref_lut(&in, &lut, 32, &out, 1.0f);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int i = 0; i < 3; i++) {
                ck_near(ref_at(&out, x, y)[i], ref_at(&in, x, y)[i], 0.5f / 255.0f);
            }
        }
    }
    // An inverting strip inverts.
    for (size_t i = 0; i < (size_t)lut.w * (size_t)lut.h * 4; i++) {
        if (i % 4 != 3) {
            lut.px[i] = 1.0f - lut.px[i];
        }
    }
    ref_lut(&in, &lut, 32, &out, 1.0f);
    ck_near(ref_at(&out, 5, 3)[0], 1.0f - ref_at(&in, 5, 3)[0], 0.5f / 255.0f);
    ref_image_free(&lut);
}
END_TEST

START_TEST(test_bloom) {
    ref_image img, o;
    ck_assert(ref_image_alloc(&img, 128, 64));
    ck_assert(ref_image_alloc(&o, 128, 64));
    fill(&img, 0.1f, 0.1f, 0.1f);
    // Nothing above the threshold: only the 2.2 round trip remains.
    ref_bloom(&img, &o, 0.7f, 1.0f, 0.7f);
    ck_near(ref_at(&o, 10, 10)[0], 0.1f, 1e-5f);
    // One bright block: its surroundings brighten, symmetrically, and
    // less with distance.
    for (int y = 30; y < 34; y++) {
        for (int x = 62; x < 66; x++) {
            float *p = ref_at(&img, x, y);
            p[0] = p[1] = p[2] = 1.0f;
        }
    }
    ref_bloom(&img, &o, 0.7f, 1.0f, 0.7f);
    float near = ref_at(&o, 58, 32)[0], far = ref_at(&o, 48, 32)[0];
    ck_assert_msg(near > far && far > 0.1f + 1e-4f, "near %f far %f", (double)near, (double)far);
    ck_near(ref_at(&o, 58, 31)[0], ref_at(&o, 69, 32)[0], 2e-3f);
    ref_image_free(&img);
    ref_image_free(&o);
}
END_TEST

START_TEST(test_depth) {
    ref_image depth;
    ck_assert(ref_image_alloc(&depth, W, H));
    fill(&in, 0.2f, 0.3f, 0.4f);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            ref_at(&depth, x, y)[0] = y < H / 2 ? 0.0f : 0.999f;
        }
    }
    // z/(F - z(F-1)), F = 1000: 0 -> 0, 0.999 -> 0.999/1.999 = 0.49975.
    ref_depthview(&in, &depth, &out, 0, 1000.0f, false, false);
    ck_near(ref_at(&out, 3, 1)[0], 0.0f, 0.0f);
    ck_near(ref_at(&out, 3, H - 2)[0], 0.49975f, 1e-4f);
    // Upside down swaps the halves; reversed maps 0 to the far plane.
    ref_depthview(&in, &depth, &out, 0, 1000.0f, true, false);
    ck_near(ref_at(&out, 3, 1)[0], 0.49975f, 1e-4f);
    ref_depthview(&in, &depth, &out, 0, 1000.0f, false, true);
    ck_near(ref_at(&out, 3, 1)[0], 1.0f, 1e-6f);
    // Mode 2: image on the left half.
    ref_depthview(&in, &depth, &out, 2, 1000.0f, false, false);
    ck_near(ref_at(&out, 1, 1)[2], 0.4f, 0.0f);
    ck_near(ref_at(&out, W - 2, 1)[2], 0.0f, 0.0f);
    ref_image_free(&depth);
}
END_TEST

static Suite *reference_suite(void) {
    Suite *s = suite_create("effects_ref");
    TCase *tc = tcase_create("reference");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sampling);
    tcase_add_test(tc, test_passthrough);
    tcase_add_test(tc, test_cas);
    tcase_add_test(tc, test_fxaa);
    tcase_add_test(tc, test_vibrance);
    tcase_add_test(tc, test_tonemap);
    tcase_add_test(tc, test_vignette);
    tcase_add_test(tc, test_noise);
    tcase_add_test(tc, test_grain);
    tcase_add_test(tc, test_deband);
    tcase_add_test(tc, test_lut);
    tcase_add_test(tc, test_bloom);
    tcase_add_test(tc, test_depth);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(reference_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
