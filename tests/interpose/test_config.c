/*
 * test_config.c - the interposer's configuration and hook table, linked
 * directly (no preload), so they also run under the sanitizers.
 *
 * Expected values are written out by hand from the documented rules
 * (docs/interpose.md): defaults, switches, the blacklist syntax.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_interpose.h"

static const char *const *test_env;

static const char *fake_getenv(const char *name) {
    size_t len = strlen(name);
    for (const char *const *e = test_env; e && *e; e++) {
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=') {
            return *e + len + 1;
        }
    }
    return NULL;
}

static ip_config parse(const char *const *env, const char *process) {
    ip_config cfg;
    test_env = env;
    ip_config_parse(&cfg, fake_getenv, process);
    return cfg;
}

START_TEST(defaults) {
    ip_config cfg = parse(NULL, "game");
    ck_assert(!cfg.disabled);
    ck_assert(!cfg.blacklisted);
    ck_assert(cfg.dlsym_hook);
    ck_assert(cfg.glvnd_hook);
    ck_assert(!cfg.test_mark);
    ck_assert(!cfg.allow_tiny);
    ck_assert_str_eq(cfg.process, "game");
    ck_assert_str_eq(cfg.preset, "");
}
END_TEST

START_TEST(switches) {
    const char *env[] = {"FXGL_DLSYM=0", "FXGL_GLVND=off", "FXGL_TEST_MARK=1", "FXGL_ALLOW_TINY=yes",
                         "FXGL_PRESET=/p/My Preset.ini", "FXGL_CONFIG=/c.ini", NULL};
    ip_config cfg = parse(env, "game");
    ck_assert(!cfg.dlsym_hook);
    ck_assert(!cfg.glvnd_hook);
    ck_assert(cfg.test_mark);
    ck_assert(cfg.allow_tiny);
    ck_assert_str_eq(cfg.preset, "/p/My Preset.ini");
    ck_assert_str_eq(cfg.config_file, "/c.ini");
    const char *off[] = {"FXGL_DISABLE=1", NULL};
    ck_assert(parse(off, "game").disabled);
    // A value that is neither true nor false keeps the default.
    const char *odd[] = {"FXGL_DLSYM=maybe", "FXGL_DISABLE=", NULL};
    ck_assert(parse(odd, "game").dlsym_hook);
    ck_assert(!parse(odd, "game").disabled);
}
END_TEST

START_TEST(blacklist) {
    ck_assert(parse(NULL, "steam").blacklisted);
    ck_assert(parse(NULL, "steam").disabled);
    ck_assert(parse(NULL, "steamwebhelper").blacklisted);
    ck_assert(parse(NULL, "gamescope").blacklisted);
    ck_assert(parse(NULL, "steam-runtime-launcher-service").blacklisted); // "steam-runtime-*"
    ck_assert(!parse(NULL, "steamgame").blacklisted);
    ck_assert(!parse(NULL, "glxgears").blacklisted);
    const char *env[] = {"FXGL_BLACKLIST=foo,bar*:baz", NULL};
    ck_assert(parse(env, "foo").blacklisted);
    ck_assert(parse(env, "barrel").blacklisted);
    ck_assert(parse(env, "baz").blacklisted);
    ck_assert(!parse(env, "fo").blacklisted);
    ck_assert(!parse(env, "bazz").blacklisted);
    ck_assert(!ip_config_name_listed("", "a:b"));
    ck_assert(!ip_config_name_listed("a", "::,"));
    ck_assert(ip_config_name_listed("anything", "*"));
}
END_TEST

START_TEST(hook_table) {
    // Every hooked name maps to a hook; others, and prefixes, do not.
    static const char *const hooked[] = {
        "glXSwapBuffers", "glXSwapBuffersMscOML", "glXGetProcAddress", "glXGetProcAddressARB",
        "glXDestroyContext", "eglSwapBuffers", "eglSwapBuffersWithDamageKHR",
        "eglSwapBuffersWithDamageEXT", "eglGetProcAddress", "eglDestroyContext",
        "eglDestroySurface", "eglTerminate", "eglGetDisplay", "eglGetPlatformDisplay",
        "eglGetPlatformDisplayEXT"};
    for (size_t i = 0; i < sizeof(hooked) / sizeof(hooked[0]); i++) {
        ck_assert_msg(ip_dlsym_hook_for(hooked[i]) != NULL, "%s not hooked", hooked[i]);
    }
    ck_assert_ptr_null(ip_dlsym_hook_for("glXSwapBuffer"));
    ck_assert_ptr_null(ip_dlsym_hook_for("glClear"));
    ck_assert_ptr_null(ip_dlsym_hook_for("eglSwapInterval"));
    ck_assert_ptr_null(ip_dlsym_hook_for("malloc"));
    ck_assert_ptr_null(ip_dlsym_hook_for(""));
    // A hook only replaces a symbol that exists.
    int real;
    ck_assert_ptr_null(ip_dlsym_substitute("glXSwapBuffers", NULL, NULL));
    ck_assert_ptr_eq(ip_dlsym_substitute("glXSwapBuffers", &real, NULL),
                     ip_dlsym_hook_for("glXSwapBuffers"));
    ck_assert_ptr_eq(ip_dlsym_substitute("glClear", &real, NULL), &real);
}
END_TEST

START_TEST(depth_hooks) {
    // FXGL_DEPTH unset (main unsets it): not one extra hook, drawing or framebuffer.
    ck_assert(!parse(NULL, "game").depth_fbo);
    const char *fbo[] = {"FXGL_DEPTH=fbo", NULL};
    ck_assert(parse(fbo, "game").depth_fbo);
    const char *other[] = {"FXGL_DEPTH=1", NULL};
    ck_assert(!parse(other, "game").depth_fbo);
    int real;
    static const char *const names[] = {
        "glClear", "glBindFramebuffer", "glFramebufferTexture2D", "glFramebufferTextureLayer",
        "glNamedFramebufferRenderbuffer", "glInvalidateFramebuffer", "glDrawArrays",
        "glMultiDrawElementsIndirect"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        ck_assert_msg(ip_dlsym_substitute(names[i], &real, NULL) == &real, "%s hooked",
                      names[i]);
    }
}
END_TEST

START_TEST(depth_hooks_on) {
    // This test's own process (Check forks one per test) reads FXGL_DEPTH=fbo.
    setenv("FXGL_DEPTH", "fbo", 1);
    if (!ip_config_get()->depth_fbo) {
        printf("note: the configuration was read before this test (CK_FORK=no): skipped\n");
        return;
    }
    int real;
    ck_assert_ptr_nonnull(ip_depth_hook_for("glClear"));
    ck_assert_ptr_nonnull(ip_depth_hook_for("glBindFramebufferEXT"));
    ck_assert_ptr_nonnull(ip_depth_hook_for("glClearNamedFramebufferfi"));
    ck_assert_ptr_nonnull(ip_draws_hook_for("glDrawElementsInstanced"));
    ck_assert_ptr_null(ip_depth_hook_for("glClearColor"));
    ck_assert_ptr_null(ip_depth_hook_for("glBindTexture"));
    // Handed out only where the real lookup succeeded.
    ck_assert_ptr_null(ip_dlsym_substitute("glClear", NULL, NULL));
    void *hook = ip_dlsym_substitute("glClear", &real, NULL);
    ck_assert_ptr_eq(hook, ip_depth_hook_for("glClear"));
    void *draw = ip_dlsym_substitute("glDrawArrays", &real, NULL);
    ck_assert_ptr_eq(draw, ip_draws_hook_for("glDrawArrays"));
}
END_TEST

int main(void) {
    // The process's own configuration is read from the real environment.
    unsetenv("FXGL_DLSYM");
    unsetenv("FXGL_DEPTH");
    unsetenv("FXGL_COUNT_APP_DRAWS");
    Suite *s = suite_create("interpose_config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, switches);
    tcase_add_test(tc, blacklist);
    tcase_add_test(tc, hook_table);
    tcase_add_test(tc, depth_hooks);
    tcase_add_test(tc, depth_hooks_on);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
