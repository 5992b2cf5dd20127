/*
 * test_switch.c - a preset edited on disk is read once, on the reload worker, and the
 * host applies that very copy (src/effects: fxgl_reload_result.preset, fxgl_compiler_hold_
 * preset). The new text has one line without '=', which the reader warns about once per
 * read: so the warnings count the reads, and the thread that reported them is the thread
 * that read it. An effect whose definition the edit changes is recompiled.
 *
 * The read-ahead (fxgl_reloader_read_ahead): the presets beside the current one are read
 * on the worker, before a switch asks for them, and read again when the folder changes;
 * the thread that takes one reads no file (fxgl_preset_reads_on_thread stays put).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_effects.h"

static char root[] = "/tmp/fxgl-switch-XXXXXX";
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int warnings;
static bool warned_on_main;
static pthread_t main_thread;

static void on_diag(void *user, const fxgl_preset_diag *d) {
    (void)user;
    if (strstr(d->message, "has no '='") == NULL) {
        return;
    }
    pthread_mutex_lock(&lock);
    warnings++;
    warned_on_main |= pthread_equal(pthread_self(), main_thread) != 0;
    pthread_mutex_unlock(&lock);
}

// Written elsewhere and renamed over, the way editors save.
static const char *put(const char *name, const char *text) {
    static char paths[4][600];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 600, "%s/%s", root, name);
    char tmp[700];
    snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", root, name);
    FILE *f = fopen(tmp, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(rename(tmp, p), 0);
    return p;
}

static const char effect_text[] =
    "#ifndef TINT\n#define TINT 0.0\n#endif\n"
    "float4 PS(float4 p : SV_Position) : SV_Target { return TINT; }\n"
    "void VS(in uint id : SV_VertexID, out float4 p : SV_Position)\n"
    "{ p = float4(id == 2 ? 3.0 : -1.0, id == 1 ? 3.0 : -1.0, 0.0, 1.0); }\n"
    "technique Switch { pass { VertexShader = VS; PixelShader = PS; } }\n";

// A result, waiting for it with a generous bound (a loaded two-core machine).
static fxgl_reload_result wait_result(fxgl_reloader *r) {
    fxgl_reload_result res;
    for (int i = 0; i < 60000; i++) {
        if (fxgl_reloader_poll(r, &res)) {
            return res;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    ck_abort_msg("no result from the worker within 60 s");
    return res;
}

START_TEST(test_edit_read_once_on_worker) {
    main_thread = pthread_self();
    ck_assert_ptr_nonnull(mkdtemp(root));
    const char *fx_path = put("Switch.fx", effect_text);
    const char *a = put("A.ini", "Techniques=Switch@Switch.fx\n");
    fxgl_compiler *fx = fxgl_compiler_create(&(fxgl_compiler_desc){
        .target = FXGL_GLSL_NONE, .sink = {.fn = on_diag}});
    ck_assert_ptr_nonnull(fx);
    ck_assert(fxgl_compiler_set_preset(fx, a));
    fxgl_reloader *r = fxgl_reloader_create(&(fxgl_reloader_desc){.effects = fx});
    ck_assert_ptr_nonnull(r);
    ck_assert(fxgl_reloader_watch_preset(r, a));
    ck_assert(fxgl_reloader_watch(r, 7, fx_path, NULL));
    ck_assert(fxgl_reloader_request(r, 7));
    fxgl_reload_result first = wait_result(r);
    ck_assert_int_eq(first.id, 7);
    ck_assert_ptr_nonnull(first.effect);
    fxgl_reload_result_finish(&first);
    ck_assert_uint_eq(fxgl_reloader_compiles(r), 1);

    put("A.ini", "Techniques=Switch@Switch.fx\n"
                 "PreprocessorDefinitions=TINT=1.0\n"
                 "this line has no equals sign\n");
    fxgl_reload_result sw = wait_result(r);
    ck_assert(sw.preset_changed);
    ck_assert_ptr_nonnull(sw.preset);
    // The host's copy is the compile object's: no second read.
    fxgl_held_preset *now = fxgl_compiler_hold_preset(fx);
    ck_assert_ptr_eq(fxgl_held_preset_get(now), fxgl_held_preset_get(sw.preset));
    fxgl_compiler_release_preset(fx, now);
    size_t count = 0;
    const char *const *names = fxgl_preset_techniques(fxgl_held_preset_get(sw.preset), &count);
    ck_assert_uint_eq(count, 1);
    ck_assert_str_eq(names[0], "Switch@Switch.fx");
    pthread_mutex_lock(&lock);
    ck_assert_int_eq(warnings, 1);
    ck_assert(!warned_on_main);
    pthread_mutex_unlock(&lock);
    // TINT changed: the effect is compiled again, with the new value.
    fxgl_reload_result again = wait_result(r);
    ck_assert_int_eq(again.id, 7);
    ck_assert_ptr_nonnull(again.effect);
    ck_assert_uint_eq(fxgl_reloader_compiles(r), 2);
    fxgl_reload_result_finish(&again);
    // The hold outlives a later edit: the copy it holds stays readable.
    put("A.ini", "Techniques=Other@Switch.fx\n");
    fxgl_reload_result back = wait_result(r);
    while (!back.preset_changed) { // a recompile for TINT back at 0.0 may come first
        fxgl_reload_result_finish(&back);
        back = wait_result(r);
    }
    ck_assert(back.preset_changed);
    ck_assert_uint_eq(count, 1);
    ck_assert_str_eq(fxgl_preset_techniques(fxgl_held_preset_get(sw.preset), &count)[0],
                     "Switch@Switch.fx");
    fxgl_reload_result_finish(&sw);
    fxgl_reload_result_finish(&back);
    fxgl_reloader_destroy(r);
    fxgl_compiler_destroy(fx);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

// Waits (bounded) until the read-ahead has read base's neighbours at a generation after
// since; fills next and previous.
static unsigned wait_neighbours(fxgl_reloader *r, const char *base, unsigned since, char *next,
                                char *previous) {
    for (int i = 0; i < 60000; i++) {
        unsigned gen = fxgl_reloader_ahead_generation(r);
        if (gen != since && fxgl_reloader_neighbours(r, base, next, previous, 600)) {
            return gen;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    ck_abort_msg("the read-ahead did not read %s's neighbours within 60 s", base);
    return since;
}

static const char *first_technique(const fxgl_held_preset *held) {
    size_t count = 0;
    const char *const *names = fxgl_preset_techniques(fxgl_held_preset_get(held), &count);
    return count > 0 ? names[0] : "";
}

START_TEST(test_read_ahead) {
    char dir[] = "/tmp/fxgl-ahead-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(root, sizeof(root), "%s", dir); // put() writes here
    char a[600], b[600], c[600], want[600];
    snprintf(a, sizeof(a), "%s", put("A.ini", "Techniques=A@Switch.fx\n"));
    snprintf(b, sizeof(b), "%s", put("B.ini", "Techniques=B@Switch.fx\n"));
    snprintf(c, sizeof(c), "%s", put("C.ini", "Techniques=C@Switch.fx\n"));
    put("notes.ini", "[not a preset]\nx=1\n"); // no Techniques: not in the list
    fxgl_compiler *fx = fxgl_compiler_create(&(fxgl_compiler_desc){.target = FXGL_GLSL_NONE});
    ck_assert_ptr_nonnull(fx);
    // no_watch: files are not watched for reloads, the read-ahead's folder still is.
    fxgl_reloader *r = fxgl_reloader_create(&(fxgl_reloader_desc){.effects = fx,
                                                                  .no_watch = true});
    ck_assert_ptr_nonnull(r);
    unsigned long reads = fxgl_preset_reads_on_thread();
    ck_assert_ptr_null(fxgl_reloader_take_ahead(r, b)); // nothing asked yet
    unsigned gen = fxgl_reloader_ahead_generation(r);
    ck_assert(fxgl_reloader_read_ahead(r, a));
    char next[600], previous[600];
    gen = wait_neighbours(r, a, gen, next, previous);
    ck_assert_str_eq(next, b);
    ck_assert_str_eq(previous, c); // wrapping
    fxgl_held_preset *got = fxgl_reloader_take_ahead(r, b);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(first_technique(got), "B@Switch.fx");
    ck_assert_ptr_null(fxgl_reloader_take_ahead(r, b)); // handed over once
    // Making it the compile object's preset reads no file either.
    fxgl_compiler_use_preset(fx, got);
    fxgl_held_preset *now = fxgl_compiler_hold_preset(fx);
    ck_assert_ptr_eq(fxgl_held_preset_get(now), fxgl_held_preset_get(got));
    fxgl_compiler_release_preset(fx, now);
    fxgl_compiler_release_preset(fx, got);
    ck_assert_uint_eq(fxgl_preset_reads_on_thread(), reads);
    // A preset created in the folder between A and B becomes the next one; C edited is
    // read again.
    put("AB.ini", "Techniques=AB@Switch.fx\n");
    put("C.ini", "Techniques=C2@Switch.fx\n");
    snprintf(want, sizeof(want), "%s/AB.ini", dir);
    for (int i = 0; i < 100 && strcmp(next, want) != 0; i++) {
        gen = wait_neighbours(r, a, gen, next, previous);
    }
    ck_assert_str_eq(next, want);
    for (int i = 0; i < 100; i++) {
        fxgl_held_preset *prev = fxgl_reloader_take_ahead(r, c);
        bool edited = prev != NULL && strcmp(first_technique(prev), "C2@Switch.fx") == 0;
        fxgl_compiler_release_preset(fx, prev);
        if (edited) {
            break;
        }
        ck_assert_int_lt(i, 99);
        gen = wait_neighbours(r, a, gen, next, previous);
    }
    // Another base: the old neighbours are gone until the worker has read the new ones.
    ck_assert(fxgl_reloader_read_ahead(r, c));
    ck_assert(!fxgl_reloader_neighbours(r, a, next, previous, sizeof(next)));
    wait_neighbours(r, c, gen, next, previous);
    ck_assert_str_eq(next, a);
    snprintf(want, sizeof(want), "%s/B.ini", dir);
    ck_assert_str_eq(previous, want);
    ck_assert_uint_eq(fxgl_preset_reads_on_thread(), reads);
    fxgl_reloader_destroy(r);
    fxgl_compiler_destroy(fx);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *switch_suite(void) {
    Suite *s = suite_create("switch");
    TCase *tc = tcase_create("switch");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_edit_read_once_on_worker);
    tcase_add_test(tc, test_read_ahead);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(switch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
