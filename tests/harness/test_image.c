/*
 * test_image.c - the image helpers the pixel tests rely on: comparison with
 * a tolerance and a PNG round trip.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fxgl_test.h"

static void fill(fxgl_image *img, int w, int h, uint8_t base) {
    ck_assert(fxgl_image_alloc(img, w, h));
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            uint8_t *p = img->pixels + ((size_t)y * (size_t)w + (size_t)x) * 4;
            p[0] = (uint8_t)(base + x);
            p[1] = (uint8_t)(base + y);
            p[2] = (uint8_t)(x * y);
            p[3] = 255;
        }
    }
}

START_TEST(compare_equal_and_tolerance) {
    fxgl_image a, b;
    fill(&a, 8, 4, 10);
    fill(&b, 8, 4, 10);
    fxgl_image_diff d;
    ck_assert(fxgl_image_compare(&a, &b, 0, &d));
    ck_assert_int_eq(d.max_diff, 0);
    ck_assert_int_eq(d.first_x, -1);
    // One channel of pixel (3, 2) off by 3: fails at tolerance 2, passes at 3.
    b.pixels[(2 * 8 + 3) * 4 + 1] += 3;
    ck_assert(!fxgl_image_compare(&a, &b, 2, &d));
    ck_assert_int_eq(d.max_diff, 3);
    ck_assert_uint_eq(d.pixels_over, 1);
    ck_assert_int_eq(d.first_x, 3);
    ck_assert_int_eq(d.first_y, 2);
    ck_assert(fxgl_image_compare(&a, &b, 3, NULL));
    fxgl_image_free(&a);
    fxgl_image_free(&b);
}
END_TEST

START_TEST(compare_size_mismatch) {
    fxgl_image a, b;
    fill(&a, 8, 4, 0);
    fill(&b, 4, 8, 0);
    ck_assert(!fxgl_image_compare(&a, &b, 255, NULL));
    fxgl_image_free(&a);
    fxgl_image_free(&b);
}
END_TEST

START_TEST(png_round_trip) {
    fxgl_image a, b;
    fill(&a, 17, 9, 100);
    char path[] = "/tmp/fxgl-test-image-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    ck_assert(fxgl_image_save_png(&a, path));
    ck_assert(fxgl_image_load_png(&b, path));
    unlink(path);
    ck_assert_int_eq(b.width, 17);
    ck_assert_int_eq(b.height, 9);
    ck_assert(fxgl_image_compare(&a, &b, 0, NULL));
    fxgl_image_free(&a);
    fxgl_image_free(&b);
}
END_TEST

START_TEST(png_missing_file) {
    fxgl_image a;
    ck_assert(!fxgl_image_load_png(&a, "/nonexistent/fxgl.png"));
}
END_TEST

int main(void) {
    Suite *s = suite_create("image");
    TCase *tc = tcase_create("image");
    tcase_add_test(tc, compare_equal_and_tolerance);
    tcase_add_test(tc, compare_size_mismatch);
    tcase_add_test(tc, png_round_trip);
    tcase_add_test(tc, png_missing_file);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
