/*
 * test_process_config.c - the interposer's configuration and hook table, linked
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
    ck_assert(cfg.prewarm);
    ck_assert(cfg.control);
    ck_assert(!cfg.overlay);
    ck_assert_str_eq(cfg.keys, "");
    ck_assert_str_eq(cfg.dump, "");
}
END_TEST

// The variables the control socket, the inspection layer and the prewarm read: into the
// one structure, with the spellings they always had (only "0" turns prewarm and the
// control socket off, only "1" turns the overlay on).
START_TEST(inspection_and_worker) {
    const char *env[] = {"FXGL_PREWARM=0", "FXGL_CONTROL=0", "FXGL_OVERLAY=1",
                         "FXGL_KEYS=overlay=F3", "XDG_RUNTIME_DIR=/run/user/7",
                         "FXGL_DUMP=/tmp/d.txt", "FXGL_SCREENSHOT_DIR=/shots",
                         "FXGL_VISUALISE=Tex", "FXGL_LOG_FILE=/l.log", NULL};
    ip_config cfg = parse(env, "game");
    ck_assert(!cfg.prewarm);
    ck_assert(!cfg.control);
    ck_assert(cfg.overlay);
    ck_assert_str_eq(cfg.keys, "overlay=F3");
    ck_assert_str_eq(cfg.runtime_dir, "/run/user/7");
    ck_assert_str_eq(cfg.dump, "/tmp/d.txt");
    ck_assert_str_eq(cfg.screenshot_dir, "/shots");
    ck_assert_str_eq(cfg.visualise, "Tex");
    ck_assert_str_eq(cfg.log_file, "/l.log");
    const char *other[] = {"FXGL_PREWARM=off", "FXGL_CONTROL=no", "FXGL_OVERLAY=yes", NULL};
    cfg = parse(other, "game");
    ck_assert(cfg.prewarm);
    ck_assert(cfg.control);
    ck_assert(!cfg.overlay);
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
    // A name nothing hooks (glClear is the depth provider's: depth_hooks_on).
    ck_assert_ptr_eq(ip_dlsym_substitute("glClearColor", &real, NULL), &real);
}
END_TEST

START_TEST(depth_modes) {
    // Unset: the depth provider's hooks are handed out (counting only while an
    // effect binds DEPTH); off or default: none, DEPTH is the window's.
    ip_config cfg = parse(NULL, "game");
    ck_assert(cfg.depth_fbo);
    ck_assert(!cfg.depth_unknown);
    static const char *const on[] = {"FXGL_DEPTH=auto", "FXGL_DEPTH=fbo", "FXGL_DEPTH=on",
                                     "FXGL_DEPTH=1", "FXGL_DEPTH="};
    for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
        const char *env[] = {on[i], NULL};
        cfg = parse(env, "game");
        ck_assert_msg(cfg.depth_fbo && !cfg.depth_unknown, "%s", on[i]);
    }
    static const char *const off[] = {"FXGL_DEPTH=off", "FXGL_DEPTH=default", "FXGL_DEPTH=0",
                                      "FXGL_DEPTH=no"};
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
        const char *env[] = {off[i], NULL};
        cfg = parse(env, "game");
        ck_assert_msg(!cfg.depth_fbo && !cfg.depth_unknown, "%s", off[i]);
    }
    const char *odd[] = {"FXGL_DEPTH=fbos", NULL};
    cfg = parse(odd, "game");
    ck_assert(cfg.depth_fbo && cfg.depth_unknown); // a warning, and the default
}
END_TEST

static const char *const depth_names[] = {
    "glClear", "glBindFramebuffer", "glFramebufferTexture2D", "glFramebufferTextureLayer",
    "glNamedFramebufferRenderbuffer", "glInvalidateFramebuffer", "glDrawArrays",
    "glMultiDrawElementsIndirect"};

// The configuration of this test's own process (Check forks one per test):
// false when it was read before this test could set its environment.
static bool config_reads(const char *name, const char *value, bool depth_fbo) {
    setenv(name, value, 1);
    if (ip_config_get()->depth_fbo != depth_fbo) {
        printf("note: the configuration was read before this test (CK_FORK=no): skipped\n");
        return false;
    }
    return true;
}

START_TEST(depth_hooks_off) {
    // Other names first: they must not read the configuration (every dlsym comes
    // there, the sanitizer runtime's own before it is initialised). Had they, the
    // FXGL_DEPTH=off set after them would not be seen.
    ck_assert_ptr_null(ip_depth_hook_for("malloc"));
    ck_assert_ptr_null(ip_draws_hook_for("__asan_init"));
    ck_assert_ptr_null(ip_depth_hook_for("glClearColor"));
    ck_assert_ptr_null(ip_draws_hook_for("glDrawBuffer"));
    setenv("FXGL_DEPTH", "off", 1);
    ck_assert_msg(!ip_config_get()->depth_fbo,
                  "a name that is no hook's read the configuration");
    // FXGL_DEPTH=off: not one extra hook, drawing or framebuffer.
    int real;
    for (size_t i = 0; i < sizeof(depth_names) / sizeof(depth_names[0]); i++) {
        ck_assert_msg(ip_dlsym_substitute(depth_names[i], &real, NULL) == &real, "%s hooked",
                      depth_names[i]);
    }
}
END_TEST

START_TEST(depth_hooks_disabled) {
    // A disabled (or blacklisted) process gets none either: nothing would read them.
    if (!config_reads("FXGL_DISABLE", "1", true) || !ip_config_get()->disabled) {
        return;
    }
    int real;
    for (size_t i = 0; i < sizeof(depth_names) / sizeof(depth_names[0]); i++) {
        ck_assert_msg(ip_dlsym_substitute(depth_names[i], &real, NULL) == &real, "%s hooked",
                      depth_names[i]);
    }
}
END_TEST

START_TEST(depth_hooks_on) {
    // FXGL_DEPTH unset (main unsets it): the hooks are handed out.
    if (!config_reads("FXGL_TEST_MARK", "0", true)) {
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
    unsetenv("FXGL_DISABLE");
    Suite *s = suite_create("interpose_config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, inspection_and_worker);
    tcase_add_test(tc, switches);
    tcase_add_test(tc, blacklist);
    tcase_add_test(tc, hook_table);
    tcase_add_test(tc, depth_modes);
    tcase_add_test(tc, depth_hooks_off);
    tcase_add_test(tc, depth_hooks_disabled);
    tcase_add_test(tc, depth_hooks_on);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
