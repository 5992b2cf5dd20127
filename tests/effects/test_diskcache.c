/*
 * test_diskcache.c - the on-disk cache's store itself (src/effects/diskcache.c): entries
 * round-trip, damaged or foreign files are misses, the folder stays under its limit by
 * dropping the least recently used entries, "off" and "" disable it. (Compiles through
 * the cache are tested end to end by test_cache.sh.)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_diskcache.h"

static char dir[256];

static void setup(void) {
    snprintf(dir, sizeof(dir), "/tmp/fxgl-diskcache-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void) {
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

// Bytes of the entries in the folder, and their count.
static size_t folder_bytes(const char *path, int *count) {
    DIR *d = opendir(path);
    size_t total = 0;
    *count = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        struct stat st;
        char p[512];
        snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
        if (stat(p, &st) == 0) {
            total += (size_t)st.st_size;
            (*count)++;
        }
    }
    if (d) {
        closedir(d);
    }
    return total;
}

START_TEST(test_round_trip_and_damage) {
    char sub[300];
    snprintf(sub, sizeof(sub), "%s/a/b", dir); // created with its parents
    fxgl_diskcache *c = fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = sub});
    ck_assert_ptr_nonnull(c);
    unsigned char blob[1000];
    for (size_t i = 0; i < sizeof(blob); i++) {
        blob[i] = (unsigned char)(i * 31);
    }
    fxgl_diskcache_store_binary(c, 42, 7, blob, sizeof(blob));
    struct stat st;
    ck_assert_int_eq(stat(sub, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
    uint32_t format = 0;
    size_t len = 0;
    void *back = fxgl_diskcache_load_binary(c, 42, &format, &len);
    ck_assert_ptr_nonnull(back);
    ck_assert_uint_eq(format, 7);
    ck_assert_uint_eq(len, sizeof(blob));
    ck_assert(memcmp(back, blob, len) == 0);
    free(back);
    ck_assert_ptr_null(fxgl_diskcache_load_binary(c, 43, &format, &len)); // another key

    // Every single-byte change of the file, and every truncation, is a miss.
    DIR *d = opendir(sub);
    struct dirent *de;
    char entry[600] = "";
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == 'p') {
            snprintf(entry, sizeof(entry), "%s/%s", sub, de->d_name);
        }
    }
    closedir(d);
    ck_assert(entry[0]);
    FILE *f = fopen(entry, "rb");
    unsigned char whole[2000];
    size_t n = fread(whole, 1, sizeof(whole), f);
    fclose(f);
    for (size_t i = 0; i < n; i += 7) {
        whole[i] ^= 0x10;
        f = fopen(entry, "wb");
        fwrite(whole, 1, n, f);
        fclose(f);
        ck_assert_msg(fxgl_diskcache_load_binary(c, 42, &format, &len) == NULL, "byte %zu", i);
        whole[i] ^= 0x10;
    }
    for (size_t k = 0; k < n; k += 13) {
        f = fopen(entry, "wb");
        fwrite(whole, 1, k, f);
        fclose(f);
        ck_assert_msg(fxgl_diskcache_load_binary(c, 42, &format, &len) == NULL, "%zu bytes", k);
    }
    f = fopen(entry, "wb");
    fwrite(whole, 1, n, f);
    fclose(f);
    back = fxgl_diskcache_load_binary(c, 42, &format, &len);
    ck_assert_ptr_nonnull(back); // restored: whole again
    free(back);
    fxgl_diskcache_destroy(c);
}
END_TEST

START_TEST(test_disabled) {
    ck_assert_ptr_null(fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = "off"}));
    ck_assert_ptr_null(fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = ""}));
    ck_assert_ptr_null(fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = NULL}));
    // A NULL cache is a no-op everywhere.
    fxgl_diskcache_store_binary(NULL, 1, 1, "x", 1);
    uint32_t format;
    size_t len;
    ck_assert_ptr_null(fxgl_diskcache_load_binary(NULL, 1, &format, &len));
    fxgl_diskcache_stats s = fxgl_diskcache_get_stats(NULL);
    ck_assert_uint_eq(s.writes, 0);
}
END_TEST

// Sets an entry's time (the LRU order) without waiting for the clock.
static void age_all(const char *path, time_t when) {
    DIR *d = opendir(path);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == 'p' || de->d_name[0] == 'm') {
            struct timespec t[2] = {{when, 0}, {when, 0}};
            utimensat(dirfd(d), de->d_name, t, 0);
        }
    }
    closedir(d);
}

// Entries newer than `than` get the time `when` (names are hashes of the keys).
static void age_newer(const char *path, time_t than, time_t when) {
    DIR *d = opendir(path);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct stat st;
        if ((de->d_name[0] == 'p' || de->d_name[0] == 'm') &&
            fstatat(dirfd(d), de->d_name, &st, 0) == 0 && st.st_mtime > than) {
            struct timespec t[2] = {{when, 0}, {when, 0}};
            utimensat(dirfd(d), de->d_name, t, 0);
        }
    }
    closedir(d);
}

START_TEST(test_eviction_keeps_recent) {
    // 64 KiB limit, 4 KiB entries: the scan at the first write and after every 8 KiB
    // written keeps the folder under the limit.
    fxgl_diskcache *c =
        fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = dir, .limit_bytes = 64 << 10});
    static unsigned char blob[4096];
    for (uint64_t k = 1; k <= 12; k++) {
        fxgl_diskcache_store_binary(c, k, 1, blob, sizeof(blob));
    }
    // Twelve entries are under the limit; make them old.
    age_all(dir, time(NULL) - 1000);
    uint32_t format;
    size_t len;
    fxgl_diskcache_destroy(c);
    // Binary writes never scan (they may come from a presenting thread); a module write
    // does: a second process writes a compiled effect, over the limit.
    c = fxgl_diskcache_create(&(fxgl_diskcache_desc){.dir = dir, .limit_bytes = 64 << 10});
    for (uint64_t k = 100; k < 120; k++) {
        fxgl_diskcache_store_binary(c, k, 1, blob, sizeof(blob));
    }
    // Younger than the first twelve, older than a hit now: file times are only as fine as
    // the kernel's clock tick, and entries written in the same tick as the hit would tie.
    age_newer(dir, time(NULL) - 900, time(NULL) - 500);
    // Entry 3 is used now (a hit renews its time): the most recent binary.
    void *b = fxgl_diskcache_load_binary(c, 3, &format, &len);
    ck_assert_ptr_nonnull(b);
    free(b);
    int count;
    size_t before = folder_bytes(dir, &count);
    ck_assert_uint_gt(before, 64 << 10);
    char fx[512];
    snprintf(fx, sizeof(fx), "%s/e.fx", dir);
    FILE *f = fopen(fx, "w");
    fputs("float4 PS(float4 p : SV_Position) : SV_Target { return 1; }\n"
          "void VS(uint id : SV_VertexID, out float4 p : SV_Position) { p = 0; }\n"
          "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n", f);
    fclose(f);
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *e = fxgl_diskcache_compile(
        c, &(fxgl_compile_desc){.path = fx, .target = FXGL_GLSL_GL450}, &diags);
    ck_assert_msg(e != NULL, "%s", diags.count ? diags.items[0].message : "");
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
    fxgl_diskcache_stats s = fxgl_diskcache_get_stats(c);
    ck_assert_uint_gt(s.evicted, 0);
    size_t after = folder_bytes(dir, &count);
    ck_assert_uint_le(after, (64 << 10) + 1024); // the e.fx itself is in the folder too
    // The recently used entry 3 is still there; the old ones went first.
    b = fxgl_diskcache_load_binary(c, 3, &format, &len);
    ck_assert_ptr_nonnull(b);
    free(b);
    ck_assert_ptr_null(fxgl_diskcache_load_binary(c, 1, &format, &len));
    fxgl_diskcache_destroy(c);
}
END_TEST

static int warnings;

static void count_warning(void *user, const fxgl_preset_diag *d) {
    (void)user;
    ck_assert_ptr_nonnull(strstr(d->message, "compile cache folder cannot be created"));
    warnings++;
}

START_TEST(test_unwritable_warns_once) {
    char file[300], sub[400];
    snprintf(file, sizeof(file), "%s/file", dir);
    close(open(file, O_CREAT | O_WRONLY, 0600));
    snprintf(sub, sizeof(sub), "%s/cache", file); // a file is in the way
    warnings = 0;
    fxgl_diskcache *c = fxgl_diskcache_create(
        &(fxgl_diskcache_desc){.dir = sub, .sink = {count_warning, NULL}});
    static unsigned char blob[100];
    for (uint64_t k = 1; k <= 5; k++) {
        fxgl_diskcache_store_binary(c, k, 1, blob, sizeof(blob));
    }
    ck_assert_int_eq(warnings, 1);
    fxgl_diskcache_stats s = fxgl_diskcache_get_stats(c);
    ck_assert_uint_eq(s.writes, 0);
    ck_assert_uint_eq(s.write_failures, 1); // then writing is off
    fxgl_diskcache_destroy(c);
}
END_TEST

static Suite *diskcache_suite(void) {
    Suite *s = suite_create("diskcache");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_round_trip_and_damage);
    tcase_add_test(tc, test_disabled);
    tcase_add_test(tc, test_eviction_keeps_recent);
    tcase_add_test(tc, test_unwritable_warns_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(diskcache_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
