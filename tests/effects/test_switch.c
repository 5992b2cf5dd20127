/*
 * test_switch.c - a preset edited on disk is read once, on the reload worker, and the
 * host applies that very copy (src/effects: fxgl_reload_result.preset, fxgl_effects_hold_
 * preset). The new text has one line without '=', which the reader warns about once per
 * read: so the warnings count the reads, and the thread that reported them is the thread
 * that read it. An effect whose definition the edit changes is recompiled.
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

static void on_diag(void *user, const fxgl_preset_diag *d)
{
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
static const char *put(const char *name, const char *text)
{
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
static fxgl_reload_result wait_result(fxgl_reloader *r)
{
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

START_TEST(test_edit_read_once_on_worker)
{
    main_thread = pthread_self();
    ck_assert_ptr_nonnull(mkdtemp(root));
    const char *fx_path = put("Switch.fx", effect_text);
    const char *a = put("A.ini", "Techniques=Switch@Switch.fx\n");
    fxgl_effects *fx = fxgl_effects_create(&(fxgl_effects_desc){
        .target = FXGL_GLSL_NONE, .sink = {.fn = on_diag}});
    ck_assert_ptr_nonnull(fx);
    ck_assert(fxgl_effects_set_preset(fx, a));
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
    fxgl_held_preset *now = fxgl_effects_hold_preset(fx);
    ck_assert_ptr_eq(fxgl_held_preset_get(now), fxgl_held_preset_get(sw.preset));
    fxgl_effects_release_preset(fx, now);
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
    fxgl_effects_destroy(fx);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *switch_suite(void)
{
    Suite *s = suite_create("switch");
    TCase *tc = tcase_create("switch");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_edit_read_once_on_worker);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(switch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
