/*
 * test_ini.c - the INI layer: ReShade's reading rules, the reference writer's exact output,
 * round trips of the fixtures, the size cap and the atomic save (with injected failures,
 * since tests may run as root where a read-only directory stops nothing).
 */
#include "fxgl_preset.h"
#include "preset_internal.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PRESET_DATA_DIR
#define PRESET_DATA_DIR "tests/preset/data"
#endif

typedef struct diag_log {
    char text[8192];             // every diagnostic, one per line
    unsigned count;
    unsigned errors;
} diag_log;

static void collect(void *user, const fxgl_preset_diag *diag) {
    diag_log *log = user;
    char line[600];
    fxgl_preset_diag_format(diag, line, sizeof(line));
    size_t len = strlen(log->text);
    snprintf(log->text + len, sizeof(log->text) - len, "%s\n", line);
    log->count++;
    log->errors += diag->severity == FXGL_PRESET_ERROR;
}

static fxgl_ini *parse(const char *text, diag_log *log) {
    fxgl_ini *ini = fxgl_ini_create();
    fxgl_preset_sink sink = {collect, log};
    ck_assert(fxgl_ini_parse(ini, text, strlen(text), "t.ini", &sink));
    return ini;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    ck_assert(fread(text, 1, (size_t)size, f) == (size_t)size);
    text[size] = '\0';
    fclose(f);
    if (len != NULL) {
        *len = (size_t)size;
    }
    return text;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

static char *make_tmpdir(void) {
    char *dir = strdup("/tmp/fxgl-ini-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
    return dir;
}

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.' || strstr(e->d_name, ".tmp") != NULL;
    }
    closedir(d);
    return n;
}

// --- reading rules ---

START_TEST(test_lines_comments_sections) {
    diag_log log = {0};
    fxgl_ini *ini = parse("\xEF\xBB\xBF" "Global=1\n"
                          "  ; comment\n"
                          "# hash\n"
                          "/ slash\n"
                          "\n"
                          "  [ Sec.fx ]  \n"
                          "  key  =  v a l  \r\n"
                          "[[Other]]\n"
                          "x=1\n"
                          "[]\n"
                          "Back=2\n",
                          &log);
    ck_assert_str_eq(fxgl_ini_get_string(ini, NULL, "Global", 0), "1");
    ck_assert_str_eq(fxgl_ini_get_string(ini, "Sec.fx", "key", 0), "v a l");
    ck_assert_uint_eq(fxgl_ini_line(ini, "Sec.fx", "key"), 7);
    ck_assert(fxgl_ini_has(ini, "Other", "x"));
    ck_assert_str_eq(fxgl_ini_get_string(ini, "", "Back", 0), "2");
    ck_assert(!fxgl_ini_has(ini, NULL, "; comment"));
    ck_assert_uint_eq(log.count, 0);
    fxgl_ini_destroy(ini);
}
END_TEST

START_TEST(test_lists_and_repeats) {
    diag_log log = {0};
    fxgl_ini *ini = parse("a=x,,y,z\n"
                          "b=p,,,q\n"
                          "c=one,\n"
                          "d=1\n"
                          "d=2,3\n"
                          "d=\n"
                          "e\n"
                          "f=\n"
                          "g=x\n"
                          "g\n",
                          &log);
    size_t n;
    const char *const *a = fxgl_ini_get(ini, NULL, "a", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(a[0], "x,y");
    ck_assert_str_eq(a[1], "z");
    const char *const *b = fxgl_ini_get(ini, NULL, "b", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(b[0], "p,");
    ck_assert_str_eq(b[1], "q");
    const char *const *c = fxgl_ini_get(ini, NULL, "c", &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(c[1], "");
    // Repeated keys append; an empty value never clears what is there.
    const char *const *d = fxgl_ini_get(ini, NULL, "d", &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(d[2], "3");
    ck_assert(fxgl_ini_get(ini, NULL, "e", &n) != NULL);
    ck_assert_uint_eq(n, 0);
    ck_assert(fxgl_ini_get(ini, NULL, "f", &n) != NULL);
    ck_assert_uint_eq(n, 0);
    ck_assert_uint_eq(fxgl_ini_get_int(ini, NULL, "g", 0) == 0, 1); // "x" reads as 0
    ck_assert(fxgl_ini_get(ini, NULL, "missing", &n) == NULL);
    // The two lines without '=' are reported with their line numbers.
    ck_assert_uint_eq(log.count, 2);
    ck_assert_ptr_nonnull(strstr(log.text, "t.ini(7): warning: line has no '='"));
    ck_assert_ptr_nonnull(strstr(log.text, "t.ini(10): warning"));
    fxgl_ini_destroy(ini);
}
END_TEST

// Lines inih would alter (':' splits, ';' comments, its 200-byte buffer) come through intact.
START_TEST(test_lines_inih_would_alter) {
    size_t long_len = 5000;
    char *text = malloc(long_len + 64);
    strcpy(text, "Long=");
    for (size_t i = 0; i < long_len; i++) {
        text[5 + i] = i % 10 == 9 ? ',' : 'a' + (char)(i % 9);
    }
    strcpy(text + 5 + long_len, "\nk:ey=v:al ; not a comment # nor this\n"
                                "\xC3\xA9t\xC3\xA9=\xE2\x82\xAC\n");
    diag_log log = {0};
    fxgl_ini *ini = parse(text, &log);
    size_t n;
    fxgl_ini_get(ini, NULL, "Long", &n);
    ck_assert_uint_eq(n, long_len / 10 + 1); // the last character is a comma
    ck_assert_uint_eq(strlen(fxgl_ini_get_string(ini, NULL, "Long", 499)), 9);
    ck_assert_str_eq(fxgl_ini_get_string(ini, NULL, "k:ey", 0), "v:al ; not a comment # nor this");
    ck_assert_str_eq(fxgl_ini_get_string(ini, NULL, "\xC3\xA9t\xC3\xA9", 0), "\xE2\x82\xAC");
    ck_assert_uint_eq(log.count, 0);
    fxgl_ini_destroy(ini);
    free(text);
}
END_TEST

// A last line without '=' or newline: the reader looks at no byte past the
// text (found by tests/fuzz/fuzz_preset). The text ends where an unmapped
// page begins, so an over-read faults in any build.
START_TEST(test_last_key_without_value_ends_the_text) {
    long page = sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(map, MAP_FAILED);
    ck_assert_int_eq(mprotect(map + page, (size_t)page, PROT_NONE), 0);
    static const char tail[] = "a=1\nLonely";
    char *text = map + page - (sizeof(tail) - 1);
    memcpy(text, tail, sizeof(tail) - 1);
    fxgl_ini *ini = fxgl_ini_create();
    ck_assert(fxgl_ini_parse(ini, text, sizeof(tail) - 1, "t.ini", NULL));
    ck_assert(fxgl_ini_has(ini, NULL, "Lonely"));
    ck_assert_str_eq(fxgl_ini_get_string(ini, NULL, "a", 0), "1");
    fxgl_ini_destroy(ini);
    munmap(map, (size_t)page * 2);
}
END_TEST

START_TEST(test_bad_utf8_kept_and_reported) {
    diag_log log = {0};
    fxgl_ini *ini = parse("ok=1\nbad=\xFF\xFE\n", &log);
    ck_assert_str_eq(fxgl_ini_get_string(ini, NULL, "bad", 0), "\xFF\xFE");
    ck_assert_ptr_nonnull(strstr(log.text, "t.ini(2): warning: line is not valid UTF-8"));
    char *out = fxgl_ini_write(ini, NULL);
    ck_assert_str_eq(out, "bad=\xFF\xFE\nok=1\n\n");
    free(out);
    fxgl_ini_destroy(ini);
}
END_TEST

START_TEST(test_warning_cap) {
    size_t lines = 1000;
    char *text = malloc(lines * 3 + 1);
    for (size_t i = 0; i < lines; i++) {
        memcpy(text + i * 3, "x\xFF\n", 3);
    }
    text[lines * 3] = '\0';
    diag_log log = {0};
    fxgl_ini *ini = parse(text, &log);
    ck_assert_uint_le(log.count, 102);
    ck_assert_ptr_nonnull(strstr(log.text, "too many warnings (limit is 100)"));
    fxgl_ini_destroy(ini);
    free(text);
}
END_TEST

// --- writer ---

START_TEST(test_writer_rules) {
    fxgl_ini *ini = fxgl_ini_create();
    // Upper-casing sorts '_' after letters: FLUTAMOUNT < FLUT_TINT (lower-casing would not).
    fxgl_ini_set_string(ini, "b.fx", "fLUT_Tint", "1");
    fxgl_ini_set_string(ini, "b.fx", "fLUTAmount", "2");
    fxgl_ini_set_string(ini, "A.fx", "z", "1");
    fxgl_ini_set_string(ini, "Empty.fx", "gone", "1");
    fxgl_ini_remove(ini, "Empty.fx", "gone");
    const char *elements[] = {"a,b", "", "c"};
    fxgl_ini_set(ini, NULL, "List", elements, 3);
    float floats[] = {0.5f, -1.0f, 100.0f / 3.0f};
    fxgl_ini_set_floats(ini, NULL, "Floats", floats, 3);
    int32_t ints[] = {-3, 7};
    fxgl_ini_set_ints(ini, NULL, "ints", ints, 2);
    fxgl_ini_set_bool(ini, NULL, "Bool", true);
    fxgl_ini_set(ini, NULL, "NoValue", NULL, 0);
    size_t len;
    char *out = fxgl_ini_write(ini, &len);
    ck_assert_str_eq(out, "Bool=1\n"
                          "Floats=0.500000,-1.000000,33.333332\n"
                          "ints=-3,7\n"
                          "List=a,,b,c\n"
                          "NoValue=\n"
                          "\n"
                          "[A.fx]\n"
                          "z=1\n"
                          "\n"
                          "[b.fx]\n"
                          "fLUTAmount=2\n"
                          "fLUT_Tint=1\n"
                          "\n");
    ck_assert_uint_eq(len, strlen(out));
    free(out);
    fxgl_ini_destroy(ini);
}
END_TEST

START_TEST(test_numbers_ignore_locale) {
    // A game may run with a comma decimal separator; presets must not notice.
    const char *locales[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "C.UTF-8"};
    for (size_t i = 0; i < 4 && setlocale(LC_ALL, locales[i]) == NULL; i++) {
    }
    char buf[64];
    preset_format_float(0.25f, buf, sizeof(buf));
    ck_assert_str_eq(buf, "0.250000");
    float f;
    ck_assert(preset_parse_float(" 1.5 ", &f));
    ck_assert(f == 1.5f);
    ck_assert(!preset_parse_float("1,5", &f));
    setlocale(LC_ALL, "C");
}
END_TEST

START_TEST(test_fixture_reference_round_trip) {
    size_t len;
    char *text = read_file(PRESET_DATA_DIR "/reference.ini", &len);
    diag_log log = {0};
    fxgl_ini *ini = parse(text, &log);
    size_t out_len;
    char *out = fxgl_ini_write(ini, &out_len);
    ck_assert_uint_eq(out_len, len);
    ck_assert_str_eq(out, text);
    ck_assert_uint_eq(log.count, 0);
    free(out);
    free(text);
    fxgl_ini_destroy(ini);
}
END_TEST

START_TEST(test_fixture_messy_normalised) {
    char *text = read_file(PRESET_DATA_DIR "/messy.ini", NULL);
    char *expected = read_file(PRESET_DATA_DIR "/messy.expected.ini", NULL);
    diag_log log = {0};
    fxgl_ini *ini = parse(text, &log);
    char *out = fxgl_ini_write(ini, NULL);
    ck_assert_str_eq(out, expected);
    ck_assert_uint_eq(log.count, 1); // `UseGamma` has no '='
    // Written form is a fixed point.
    fxgl_ini *again = parse(out, &log);
    char *out2 = fxgl_ini_write(again, NULL);
    ck_assert_str_eq(out2, out);
    free(out2);
    fxgl_ini_destroy(again);
    free(out);
    free(expected);
    free(text);
    fxgl_ini_destroy(ini);
}
END_TEST

// --- files ---

START_TEST(test_load_missing_and_too_big) {
    char *dir = make_tmpdir();
    char path[512];
    snprintf(path, sizeof(path), "%s/none.ini", dir);
    diag_log log = {0};
    fxgl_preset_sink sink = {collect, &log};
    fxgl_ini *ini = fxgl_ini_create();
    ck_assert_int_eq(fxgl_ini_load(ini, path, &sink), FXGL_INI_MISSING);
    fxgl_ini_destroy(ini);

    snprintf(path, sizeof(path), "%s/big.ini", dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    ck_assert(write(fd, "a=1\n", 4) == 4);
    ck_assert(ftruncate(fd, FXGL_INI_MAX_FILE_SIZE + 1) == 0);
    close(fd);
    ini = fxgl_ini_create();
    ck_assert_int_eq(fxgl_ini_load(ini, path, &sink), FXGL_INI_FAILED);
    ck_assert_ptr_nonnull(strstr(log.text, "too big"));
    // Saving over a file that was never read would lose it.
    ck_assert(!fxgl_ini_save(ini, path, &sink));
    struct stat st;
    ck_assert(stat(path, &st) == 0 && st.st_size == FXGL_INI_MAX_FILE_SIZE + 1);
    fxgl_ini_destroy(ini);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

START_TEST(test_save_atomic_success_keeps_mode_and_follows_symlink) {
    char *dir = make_tmpdir();
    char path[512];
    char link_path[512];
    snprintf(path, sizeof(path), "%s/p.ini", dir);
    snprintf(link_path, sizeof(link_path), "%s/link.ini", dir);
    write_text(path, "old=1\n");
    chmod(path, 0640);
    ck_assert(symlink("p.ini", link_path) == 0);
    fxgl_ini *ini = fxgl_ini_create();
    fxgl_ini_set_string(ini, NULL, "new", "2");
    diag_log log = {0};
    fxgl_preset_sink sink = {collect, &log};
    ck_assert(fxgl_ini_save(ini, link_path, &sink));
    char *text = read_file(path, NULL);
    ck_assert_str_eq(text, "new=2\n\n");
    free(text);
    struct stat st;
    ck_assert(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert(stat(path, &st) == 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0640);
    ck_assert_int_eq(count_entries(dir), 2); // no temporary left behind
    fxgl_ini_destroy(ini);
    unlink(link_path);
    unlink(path);
    rmdir(dir);
    free(dir);
}
END_TEST

static int fail_open(const char *path, int flags, mode_t mode) {
    (void)path, (void)flags, (void)mode;
    errno = EACCES;
    return -1;
}

static ssize_t fail_write(int fd, const void *buf, size_t len) {
    // Half the data, then the disk is full: a partial temporary must not replace anything.
    static const size_t first = 3;
    (void)buf;
    if (len > first) {
        return write(fd, buf, first);
    }
    errno = ENOSPC;
    return -1;
}

static int fail_fsync(int fd) {
    (void)fd;
    errno = EIO;
    return -1;
}

static int fail_rename(const char *from, const char *to) {
    (void)from, (void)to;
    errno = EXDEV;
    return -1;
}

static int real_open_for_test(const char *path, int flags, mode_t mode) {
    return open(path, flags, mode);
}

START_TEST(test_save_failures_leave_old_file) {
    const preset_ini_io base = {real_open_for_test, write, fsync, rename};
    preset_ini_io cases[4] = {base, base, base, base};
    cases[0].open = fail_open;
    cases[1].write = fail_write;
    cases[2].fsync = fail_fsync;
    cases[3].rename = fail_rename;
    const char *expect[4] = {"cannot create", "cannot write", "cannot write", "cannot replace"};
    for (int i = 0; i < 4; i++) {
        char *dir = make_tmpdir();
        char path[512];
        snprintf(path, sizeof(path), "%s/p.ini", dir);
        write_text(path, "precious=1\n");
        fxgl_ini *ini = fxgl_ini_create();
        fxgl_ini_set_string(ini, NULL, "replacement", "1");
        diag_log log = {0};
        fxgl_preset_sink sink = {collect, &log};
        ck_assert(!preset_ini_save_with(ini, path, &sink, &cases[i]));
        ck_assert_uint_eq(log.errors, 1);
        ck_assert_msg(strstr(log.text, expect[i]) != NULL, "case %d: %s", i, log.text);
        char *text = read_file(path, NULL);
        ck_assert_str_eq(text, "precious=1\n");
        free(text);
        ck_assert_int_eq(count_entries(dir), 1);
        fxgl_ini_destroy(ini);
        unlink(path);
        rmdir(dir);
        free(dir);
    }
}
END_TEST

START_TEST(test_save_into_missing_directory_fails) {
    fxgl_ini *ini = fxgl_ini_create();
    fxgl_ini_set_string(ini, NULL, "a", "1");
    diag_log log = {0};
    fxgl_preset_sink sink = {collect, &log};
    ck_assert(!fxgl_ini_save(ini, "/nonexistent-fxgl-dir/p.ini", &sink));
    ck_assert_uint_eq(log.errors, 1);
    fxgl_ini_destroy(ini);
}
END_TEST

static Suite *ini_suite(void) {
    Suite *s = suite_create("ini");
    TCase *read = tcase_create("read");
    tcase_add_test(read, test_lines_comments_sections);
    tcase_add_test(read, test_lists_and_repeats);
    tcase_add_test(read, test_lines_inih_would_alter);
    tcase_add_test(read, test_last_key_without_value_ends_the_text);
    tcase_add_test(read, test_bad_utf8_kept_and_reported);
    tcase_add_test(read, test_warning_cap);
    suite_add_tcase(s, read);
    TCase *write_case = tcase_create("write");
    tcase_add_test(write_case, test_writer_rules);
    tcase_add_test(write_case, test_numbers_ignore_locale);
    tcase_add_test(write_case, test_fixture_reference_round_trip);
    tcase_add_test(write_case, test_fixture_messy_normalised);
    suite_add_tcase(s, write_case);
    TCase *files = tcase_create("files");
    tcase_set_timeout(files, 30);
    tcase_add_test(files, test_load_missing_and_too_big);
    tcase_add_test(files, test_save_atomic_success_keeps_mode_and_follows_symlink);
    tcase_add_test(files, test_save_failures_leave_old_file);
    tcase_add_test(files, test_save_into_missing_directory_fails);
    suite_add_tcase(s, files);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(ini_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
