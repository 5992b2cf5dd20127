/*
 * test_config.c - configuration lookup order, layering, relative paths, defaults and
 * environment overrides, all with a made-up environment and program directory.
 */
#include "fxgl_preset.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct diag_log {
    char text[4096];             // every diagnostic, one per line
    unsigned count;
} diag_log;

static void collect(void *user, const fxgl_preset_diag *diag) {
    diag_log *log = user;
    char line[600];
    fxgl_preset_diag_format(diag, line, sizeof(line));
    size_t len = strlen(log->text);
    snprintf(log->text + len, sizeof(log->text) - len, "%s\n", line);
    log->count++;
}

static char root[] = "/tmp/fxgl-config-XXXXXX";

static void put_file(const char *relative, const char *text) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", root, relative);
    for (char *slash = strchr(path + strlen(root) + 1, '/'); slash != NULL;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0755);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
}

static void setup(void) {
    ck_assert(mkdtemp(root) != NULL);
}

static void teardown(void) {
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    ck_assert(system(cmd) == 0);
    strcpy(root + strlen(root) - 6, "XXXXXX");
}

static char *at(const char *relative) {
    static char buf[4][512]; // test-only convenience; a few paths alive at once
    static int next;
    char *out = buf[next++ % 4];
    snprintf(out, 512, "%s/%s", root, relative);
    return out;
}

START_TEST(test_candidate_order) {
    char config_var[600];
    char home[600];
    char dirs[600];
    snprintf(config_var, sizeof(config_var), "FXGL_CONFIG=%s/explicit.ini", root);
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    snprintf(dirs, sizeof(dirs), "XDG_CONFIG_DIRS=%s/sys1:relative:%s/sys2", root, root);
    const char *envp[] = {config_var, home, dirs, NULL};
    fxgl_config_env env = {.envp = envp, .program_dir = at("game")};
    char *out[16];
    size_t n = fxgl_config_candidates(&env, out, 16);
    const char *expected[] = {"explicit.ini", "game/fxgl.ini", "game/ReShade.ini",
                              "home/.config/fxgl/fxgl.ini", "sys1/fxgl/fxgl.ini",
                              "sys2/fxgl/fxgl.ini"};
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < 6; i++) {
        ck_assert_str_eq(out[i], at(expected[i]));
    }
    ck_assert_str_eq(out[6], "/etc/fxgl/fxgl.ini");
    for (size_t i = 0; i < n; i++) {
        free(out[i]);
    }
    // XDG_CONFIG_HOME wins over HOME; defaults to /etc/xdg.
    char xdg_home[600];
    snprintf(xdg_home, sizeof(xdg_home), "XDG_CONFIG_HOME=%s/xdg", root);
    const char *envp2[] = {home, xdg_home, NULL};
    fxgl_config_env env2 = {.envp = envp2};
    n = fxgl_config_candidates(&env2, out, 16);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(out[0], at("xdg/fxgl/fxgl.ini"));
    ck_assert_str_eq(out[1], "/etc/xdg/fxgl/fxgl.ini");
    for (size_t i = 0; i < n; i++) {
        free(out[i]);
    }
}
END_TEST

START_TEST(test_layering_relative_paths_and_reshade_ini) {
    // ReShade.ini beside the game, as Windows users bring it; the user's fxgl.ini below it.
    put_file("game/ReShade.ini", "[GENERAL]\n"
                                 "EffectSearchPaths=.\\reshade-shaders\\Shaders\\**,C:\\x\n"
                                 "PresetPath=.\\ReShadePreset.ini\n"
                                 "PerformanceMode=1\n"
                                 "PreprocessorDefinitions=A=1,B\n"
                                 "[INPUT]\n"
                                 "KeyEffects=145,0,1,0\n");
    put_file("game/ReShadePreset.ini", "Techniques=X@Y.fx\n");
    put_file("home/.config/fxgl/fxgl.ini", "[GENERAL]\n"
                                           "EffectSearchPaths=/abs/path\n"
                                           "TextureSearchPaths=tex/**\n"
                                           "SkipLoadingDisabledEffects=1\n"
                                           "TechniqueSorting=X@Y.fx\n"
                                           "[INPUT]\n"
                                           "KeyEffects=1,0,0,0\n"
                                           "KeyReload=116,1,0,0\n"
                                           "KeyNextPreset=bad\n"
                                           "[LOG]\n"
                                           "Level=debug\n"
                                           "File=fxgl.log\n"
                                           "[OVERLAY]\n"
                                           "FontScale=1.5\n"
                                           "[STYLE]\n"
                                           "Font=fonts/My.ttf\n"
                                           "[INPUT]\n"
                                           "KeyOverlay=45,1,0,0\n");
    char home[600];
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    const char *envp[] = {home, "XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    fxgl_config_env env = {.envp = envp, .program_dir = at("game")};
    diag_log log = {0};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    ck_assert_uint_eq(config.file_count, 2);
    ck_assert_str_eq(config.files[0], at("game/ReShade.ini"));
    ck_assert_str_eq(config.save_path, at("game/ReShade.ini"));
    // The game's file wins key by key; the user's file fills the rest.
    ck_assert_uint_eq(config.effect_path_count, 2);
    ck_assert_str_eq(config.effect_paths[0].path, at("game/reshade-shaders/Shaders"));
    ck_assert(config.effect_paths[0].recursive);
    ck_assert_str_eq(config.effect_paths[1].path, at("game/C:/x"));
    ck_assert_uint_eq(config.texture_path_count, 1);
    ck_assert_str_eq(config.texture_paths[0].path, at("home/.config/fxgl/tex"));
    ck_assert(config.texture_paths[0].recursive);
    ck_assert_str_eq(config.preset_path, at("game/ReShadePreset.ini"));
    ck_assert(config.performance_mode && config.skip_disabled_effects);
    ck_assert_uint_eq(config.defines.count, 2);
    ck_assert_str_eq(config.defines.items[1].name, "B");
    ck_assert_uint_eq(config.technique_sorting_count, 1);
    ck_assert_uint_eq(config.key_effects.vk, 145);
    ck_assert(config.key_effects.shift);
    ck_assert_uint_eq(config.key_reload.vk, 116);
    ck_assert_uint_eq(config.key_next_preset.vk, 0);
    ck_assert_uint_eq(config.key_screenshot.vk, 0x2C); // default PrintScreen
    ck_assert_uint_eq(config.key_overlay.vk, 45);      // Ctrl+Insert
    ck_assert(config.key_overlay.ctrl && !config.key_overlay.shift);
    ck_assert(config.font_scale == 1.5f);
    ck_assert_str_eq(config.font_path, at("home/.config/fxgl/fonts/My.ttf"));
    ck_assert_int_eq(config.log_level, FXGL_CONFIG_LOG_DEBUG);
    ck_assert_str_eq(config.log_file, at("home/.config/fxgl/fxgl.log"));
    ck_assert_ptr_nonnull(strstr(log.text, "fxgl.ini(9): warning: 'KeyNextPreset'"));
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_defaults_without_files) {
    char home[600];
    char data[600];
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    snprintf(data, sizeof(data), "FXGL_DATA_DIR=%s/data", root);
    const char *envp[] = {home, "XDG_CONFIG_DIRS=/nonexistent-fxgl", data, NULL};
    char game[600];
    snprintf(game, sizeof(game), "%s/game", root); // at() reuses its buffers
    fxgl_config_env env = {.envp = envp, .program_dir = game};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_uint_eq(config.file_count, 0);
    ck_assert_str_eq(config.save_path, at("home/.config/fxgl/fxgl.ini"));
    // The program's directory, the user's data, the installed data: in that order.
    ck_assert_uint_eq(config.effect_path_count, 3);
    ck_assert_str_eq(config.effect_paths[0].path, at("game"));
    ck_assert(!config.effect_paths[0].recursive);
    ck_assert_str_eq(config.effect_paths[1].path, at("home/.local/share/fxgl/shaders"));
    ck_assert(config.effect_paths[1].recursive);
    ck_assert_str_eq(config.effect_paths[2].path, at("data/shaders"));
    ck_assert(config.effect_paths[2].recursive);
    ck_assert_uint_eq(config.texture_path_count, 3);
    ck_assert_str_eq(config.texture_paths[0].path, at("game"));
    ck_assert_str_eq(config.texture_paths[1].path, at("home/.local/share/fxgl/textures"));
    ck_assert_str_eq(config.texture_paths[2].path, at("data/textures"));
    // No installed default preset: the default place, as before.
    ck_assert_str_eq(config.preset_path, at("game/ReShadePreset.ini"));
    ck_assert_str_eq(config.cache_path, at("home/.cache/fxgl"));
    ck_assert(!config.performance_mode && config.force_shortcut_modifiers);
    ck_assert_uint_eq(config.transition_ms, 1000);
    // The overlay on Home (as KeyEffects: the overlay takes the key), text at scale 1, the
    // default face.
    ck_assert_uint_eq(config.key_overlay.vk, 0x24);
    ck_assert_uint_eq(config.key_effects.vk, 0x24);
    ck_assert(config.font_scale == 1.0f);
    ck_assert_ptr_null(config.font_path);
    ck_assert_int_eq(config.log_level, FXGL_CONFIG_LOG_WARN);
    ck_assert_ptr_null(config.log_file);
    fxgl_config_finish(&config);
    fxgl_config_finish(NULL);

    // Installed: with nothing else, the installed default preset is the one used...
    put_file("data/presets/default.ini", "Techniques=A@A.fx\n");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("data/presets/default.ini"));
    fxgl_config_finish(&config);
    // ...but a ReShadePreset.ini at the default place wins,
    put_file("game/ReShadePreset.ini", "Techniques=B@B.fx\n");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("game/ReShadePreset.ini"));
    fxgl_config_finish(&config);
    // and so does a preset named in a file, even one that does not exist yet.
    unlink(at("game/ReShadePreset.ini"));
    put_file("game/fxgl.ini", "[GENERAL]\nPresetPath=New.ini\n");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("game/New.ini"));
    fxgl_config_finish(&config);
}
END_TEST

// Without FXGL_DATA_DIR the installed data directory is the build's (-DFXGL_DATADIR).
START_TEST(test_compiled_in_data_dir) {
    const char *envp[] = {"HOME=/nonexistent-home", "XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    fxgl_config_env env = {.envp = envp, .program_dir = NULL};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_uint_eq(config.effect_path_count, 2);
    ck_assert_str_eq(config.effect_paths[0].path, "/nonexistent-home/.local/share/fxgl/shaders");
    ck_assert_str_eq(config.effect_paths[1].path, FXGL_DATADIR "/shaders");
    ck_assert_str_eq(config.texture_paths[1].path, FXGL_DATADIR "/textures");
    fxgl_config_finish(&config);
}
END_TEST

// FXGL_PRESET=NAME: the user's presets/NAME.ini, else the installed one; paths stay paths.
START_TEST(test_named_presets) {
    char home[600];
    char data[600];
    char preset[600];
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    snprintf(data, sizeof(data), "FXGL_DATA_DIR=%s/data", root);
    const char *envp[] = {home, "XDG_CONFIG_DIRS=/nonexistent-fxgl", data, preset, NULL};
    char game[600];
    snprintf(game, sizeof(game), "%s/game", root); // at() reuses its buffers
    fxgl_config_env env = {.envp = envp, .program_dir = game};
    fxgl_config config;
    strcpy(preset, "FXGL_PRESET=default");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("data/presets/default.ini")); // reported later
    fxgl_config_finish(&config);
    put_file("home/.local/share/fxgl/presets/default.ini", "Techniques=U@U.fx\n");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("home/.local/share/fxgl/presets/default.ini"));
    fxgl_config_finish(&config);
    strcpy(preset, "FXGL_PRESET=sharp");
    put_file("data/presets/sharp.ini", "Techniques=S@S.fx\n");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("data/presets/sharp.ini"));
    fxgl_config_finish(&config);
    // Not names: a .ini file, a path with a directory, an absolute path.
    strcpy(preset, "FXGL_PRESET=sharp.ini");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, "sharp.ini");
    fxgl_config_finish(&config);
    strcpy(preset, "FXGL_PRESET=dir/sharp");
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, "dir/sharp");
    fxgl_config_finish(&config);
    snprintf(preset, sizeof(preset), "FXGL_PRESET=%s/p.ini", root);
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_str_eq(config.preset_path, at("p.ini"));
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_environment_overrides) {
    put_file("cfg/my.ini", "[GENERAL]\nPerformanceMode=1\nPreprocessorDefinitions=FROM_FILE\n"
                           "[LOG]\nLevel=loud\n");
    char cfg[600];
    snprintf(cfg, sizeof(cfg), "FXGL_CONFIG=%s/cfg/my.ini", root);
    const char *envp[] = {
        "HOME=/nonexistent-home",
        "XDG_CONFIG_DIRS=/nonexistent-fxgl",
        cfg,
        "FXGL_PRESET=/presets/Mine.ini",
        "FXGL_EFFECT_PATHS=/a/**:/b",
        "FXGL_TEXTURE_PATHS=/t",
        "FXGL_PERFORMANCE_MODE=off",
        "FXGL_SKIP_DISABLED=yes",
        "FXGL_DEFINES=X=1,,2,Y",
        "FXGL_CACHE_DIR=/cache",
        "FXGL_LOG=warn",
        "FXGL_LOG_FILE=/tmp/f.log",
        NULL,
    };
    fxgl_config_env env = {.envp = envp};
    diag_log log = {0};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    ck_assert_uint_eq(config.file_count, 1);
    ck_assert_str_eq(config.preset_path, "/presets/Mine.ini");
    ck_assert_uint_eq(config.effect_path_count, 2);
    ck_assert_str_eq(config.effect_paths[0].path, "/a");
    ck_assert(config.effect_paths[0].recursive);
    ck_assert_str_eq(config.effect_paths[1].path, "/b");
    ck_assert_str_eq(config.texture_paths[0].path, "/t");
    ck_assert(!config.performance_mode && config.skip_disabled_effects);
    ck_assert_uint_eq(config.defines.count, 2);
    ck_assert_str_eq(config.defines.items[0].value, "1,2"); // ",," is a literal comma
    ck_assert_str_eq(config.defines.items[1].name, "Y");
    ck_assert_str_eq(config.cache_path, "/cache");
    ck_assert_int_eq(config.log_level, FXGL_CONFIG_LOG_WARN);
    ck_assert_str_eq(config.log_file, "/tmp/f.log");
    ck_assert_ptr_nonnull(strstr(log.text, "my.ini(5): warning: 'loud' is not a log level"));
    fxgl_config_finish(&config);

    // A bad variable is reported and ignored; a missing FXGL_CONFIG file too.
    const char *envp2[] = {"FXGL_CONFIG=/nonexistent-fxgl/x.ini", "FXGL_PERFORMANCE_MODE=maybe",
                           "XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    fxgl_config_env env2 = {.envp = envp2};
    log = (diag_log){0};
    ck_assert(fxgl_config_load(&config, &env2, &(fxgl_preset_sink){collect, &log}));
    ck_assert(!config.performance_mode);
    ck_assert_ptr_nonnull(strstr(log.text, "FXGL_PERFORMANCE_MODE='maybe' is not understood"));
    ck_assert_ptr_nonnull(strstr(log.text, "FXGL_CONFIG names a file that does not exist"));
    fxgl_config_finish(&config);

    // FXGL_CACHE_DIR=off: no compile cache at all.
    const char *envp3[] = {"HOME=/nonexistent-home", "XDG_CONFIG_DIRS=/nonexistent-fxgl",
                           "FXGL_CACHE_DIR=off", NULL};
    fxgl_config_env env3 = {.envp = envp3};
    ck_assert(fxgl_config_load(&config, &env3, &(fxgl_preset_sink){collect, &log}));
    ck_assert_ptr_null(config.cache_path);
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_preset_path_must_be_a_preset) {
    put_file("game/fxgl.ini", "[GENERAL]\nStartupPresetPath=notes.txt\nPresetPath=Good.ini\n");
    put_file("game/notes.txt", "just notes\n");
    const char *envp[] = {"XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    fxgl_config_env env = {.envp = envp, .program_dir = at("game")};
    diag_log log = {0};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    ck_assert_str_eq(config.preset_path, at("game/Good.ini")); // new preset: allowed
    ck_assert_ptr_nonnull(strstr(log.text, "fxgl.ini(2): warning:"));
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_program_config) {
    // ~/.config/fxgl/<program>.conf comes before the program's folder and the global file;
    // its relative paths are relative to ~/.config/fxgl.
    put_file("home/.config/fxgl/mygame.conf", "[GENERAL]\r\n"
                                              "TextureSearchPaths=tex\\**\r\n"
                                              "[INPUT]\r\n"
                                              "KeyEffects=145,0,0,0\r\n");
    put_file("game/ReShade.ini", "[GENERAL]\nTextureSearchPaths=.\\gametex\n"
                                 "EffectSearchPaths=.\\fx\n[INPUT]\nKeyEffects=36,0,0,0\n");
    put_file("home/.config/fxgl/fxgl.ini", "[INPUT]\nKeyReload=116,0,0,0\n");
    char home[600];
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    const char *envp[] = {home, "XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    char game[600];
    snprintf(game, sizeof(game), "%s", at("game"));
    fxgl_config_env env = {.envp = envp, .program_dir = game, .program_name = "mygame"};
    char *out[16];
    size_t n = fxgl_config_candidates(&env, out, 16);
    ck_assert_uint_ge(n, 4);
    ck_assert_str_eq(out[0], at("home/.config/fxgl/mygame.conf"));
    ck_assert_str_eq(out[1], at("game/fxgl.ini"));
    ck_assert_str_eq(out[2], at("game/ReShade.ini"));
    ck_assert_str_eq(out[3], at("home/.config/fxgl/fxgl.ini"));
    for (size_t i = 0; i < n; i++) {
        free(out[i]);
    }
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_uint_eq(config.file_count, 3);
    ck_assert_str_eq(config.files[0], at("home/.config/fxgl/mygame.conf"));
    ck_assert_uint_eq(config.texture_path_count, 1);
    ck_assert_str_eq(config.texture_paths[0].path, at("home/.config/fxgl/tex"));
    ck_assert(config.texture_paths[0].recursive);
    ck_assert_str_eq(config.effect_paths[0].path, at("game/fx")); // from the game's file
    ck_assert_uint_eq(config.key_effects.vk, 145);                // the program's file wins
    ck_assert_uint_eq(config.key_reload.vk, 116);                 // the global file fills in
    fxgl_config_finish(&config);
    // Another program does not read it; a name with a slash or a dot first reads none.
    env.program_name = "other";
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert_uint_eq(config.file_count, 2);
    ck_assert_uint_eq(config.key_effects.vk, 36);
    fxgl_config_finish(&config);
    env.program_name = "../mygame";
    n = fxgl_config_candidates(&env, out, 16);
    ck_assert_str_eq(out[0], at("game/fxgl.ini"));
    for (size_t i = 0; i < n; i++) {
        free(out[i]);
    }
}
END_TEST

START_TEST(test_depth_section) {
    // [DEPTH] for every program, [DEPTH:<program>] over it, the environment over both.
    put_file("cfg/my.ini", "[GENERAL]\nUnknownKey=kept\n[DEPTH]\nDepthCopyBeforeClears=1\n"
                           "DepthCopyAtClearIndex=2\nSomethingNew=3\n[DEPTH:mygame]\n"
                           "UseAspectRatioHeuristics=0\nSelectedBuffer=texture:5:0:0\n");
    char cfg[600];
    snprintf(cfg, sizeof(cfg), "FXGL_CONFIG=%s/cfg/my.ini", root);
    const char *envp[] = {"HOME=/nonexistent-home", "XDG_CONFIG_DIRS=/nonexistent-fxgl", cfg,
                          "FXGL_DEPTH_BY_VERTICES=1", NULL};
    fxgl_config_env env = {.envp = envp, .program_name = "mygame"};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, NULL));
    ck_assert(config.depth_copy_before_clears);
    ck_assert_uint_eq(config.depth_clear_index, 2);
    ck_assert(!config.depth_aspect);
    ck_assert(config.depth_by_vertices);
    ck_assert_str_eq(config.depth_selected, "texture:5:0:0");
    ck_assert_str_eq(config.save_path, at("cfg/my.ini"));

    // Saved into [DEPTH:mygame] of the same file, every other key kept.
    config.depth_aspect = true;
    config.depth_copy_before_clears = false;
    snprintf(config.depth_selected, sizeof(config.depth_selected), "renderbuffer:3");
    ck_assert(fxgl_config_save_depth(&config, "mygame", NULL));
    fxgl_config_finish(&config);
    fxgl_ini *ini = fxgl_ini_create();
    ck_assert_int_eq(fxgl_ini_load(ini, at("cfg/my.ini"), NULL), FXGL_INI_OK);
    ck_assert_str_eq(fxgl_ini_get_string(ini, "GENERAL", "UnknownKey", 0), "kept");
    ck_assert_str_eq(fxgl_ini_get_string(ini, "DEPTH", "SomethingNew", 0), "3");
    ck_assert_str_eq(fxgl_ini_get_string(ini, "DEPTH:mygame", "SelectedBuffer", 0),
                     "renderbuffer:3");
    ck_assert(fxgl_ini_get_bool(ini, "DEPTH:mygame", "UseAspectRatioHeuristics", 0));
    ck_assert(!fxgl_ini_get_bool(ini, "DEPTH:mygame", "DepthCopyBeforeClears", 0));
    fxgl_ini_destroy(ini);

    // Another program reads [DEPTH] alone; FXGL_DEPTH_BEFORE_CLEAR=off and =0.
    const char *envp2[] = {"HOME=/nonexistent-home", "XDG_CONFIG_DIRS=/nonexistent-fxgl", cfg,
                           "FXGL_DEPTH_BEFORE_CLEAR=off", NULL};
    fxgl_config_env env2 = {.envp = envp2, .program_name = "other"};
    ck_assert(fxgl_config_load(&config, &env2, NULL));
    ck_assert(!config.depth_copy_before_clears);
    ck_assert(config.depth_aspect);
    ck_assert(!config.depth_by_vertices);
    ck_assert_str_eq(config.depth_selected, "");
    fxgl_config_finish(&config);
    envp2[3] = "FXGL_DEPTH_BEFORE_CLEAR=0";
    ck_assert(fxgl_config_load(&config, &env2, NULL));
    ck_assert(config.depth_copy_before_clears);
    ck_assert_uint_eq(config.depth_clear_index, 0);
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_missing_preset_messages) {
    char home[600], data[600], expected[2048];
    snprintf(home, sizeof(home), "HOME=%s/home", root);
    snprintf(data, sizeof(data), "FXGL_DATA_DIR=%s/data", root);
    put_file("data/presets/default.ini", "Techniques=A@A.fx\n");
    // A file named on the command line (fxgl --preset sets FXGL_PRESET).
    const char *envp[] = {home, data, "FXGL_PRESET=/nonexistent-fxgl/Missing.ini",
                          "XDG_CONFIG_DIRS=/nonexistent-fxgl", NULL};
    fxgl_config_env env = {.envp = envp};
    diag_log log = {0};
    fxgl_config config;
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    ck_assert_str_eq(log.text, "/nonexistent-fxgl/Missing.ini: warning: the preset does not "
                               "exist (named by FXGL_PRESET (fxgl --preset)): no effects run\n");
    ck_assert_str_eq(config.preset_origin, "FXGL_PRESET (fxgl --preset)");
    fxgl_config_finish(&config);
    // A name that matches no preset.
    envp[2] = "FXGL_PRESET=Nope";
    log = (diag_log){0};
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    snprintf(expected, sizeof(expected),
             "FXGL_PRESET: warning: no preset named 'Nope' (looked for Nope.ini in "
             "%s/home/.local/share/fxgl/presets and %s/data/presets): no effects run\n",
             root, root);
    ck_assert_str_eq(log.text, expected);
    fxgl_config_finish(&config);
    // PresetPath of a configuration file.
    put_file("game/fxgl.ini", "[GENERAL]\r\nPresetPath=.\\Gone.ini\r\n");
    envp[2] = "XDG_CONFIG_DIRS=/nonexistent-fxgl";
    envp[3] = NULL;
    char game[600];
    snprintf(game, sizeof(game), "%s", at("game"));
    env.program_dir = game;
    log = (diag_log){0};
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    snprintf(expected, sizeof(expected),
             "%s/game/Gone.ini: warning: the preset does not exist (named by PresetPath in "
             "%s/game/fxgl.ini:2): no effects run\n", root, root);
    ck_assert_str_eq(log.text, expected);
    fxgl_config_finish(&config);
    // Nothing named: the installed default, quietly, and it says where it came from.
    remove(at("game/fxgl.ini"));
    log = (diag_log){0};
    ck_assert(fxgl_config_load(&config, &env, &(fxgl_preset_sink){collect, &log}));
    ck_assert_str_eq(log.text, "");
    ck_assert_str_eq(config.preset_path, at("data/presets/default.ini"));
    ck_assert_str_eq(config.preset_origin, "the installed default");
    fxgl_config_finish(&config);
}
END_TEST

START_TEST(test_search_paths) {
    put_file("rs/Shaders/A.fx", "");
    put_file("rs/Shaders/sub/B.fx", "");
    put_file("rs/Shaders/sub/deep/A.fx", "");   // a second A.fx: the first one wins
    put_file("rs/Shaders/.hidden/C.fx", "");
    put_file("rs/Shaders/z/D.FX", "");
    put_file("rs/Textures/luts/MyLut.png", "");
    // As ReShade.ini writes them: backslashes, a trailing ** means every folder below.
    char shaders[600], textures[600], flat[600];
    snprintf(shaders, sizeof(shaders), "%s\\rs\\Shaders\\**", root);
    snprintf(textures, sizeof(textures), "%s/rs/Textures/**", root);
    snprintf(flat, sizeof(flat), "%s/rs/Textures", root);
    fxgl_search s;
    ck_assert(fxgl_search_expand_raw(&s, (const char *[]){shaders}, 1));
    ck_assert_uint_eq(s.count, 4);
    ck_assert_str_eq(s.dirs[0], at("rs/Shaders"));
    ck_assert_str_eq(s.dirs[1], at("rs/Shaders/sub"));
    ck_assert_str_eq(s.dirs[2], at("rs/Shaders/sub/deep"));
    ck_assert_str_eq(s.dirs[3], at("rs/Shaders/z"));
    ck_assert_ptr_null(s.dirs[4]);
    char **files;
    size_t n = fxgl_search_effects(&s, &files);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(files[0], at("rs/Shaders/A.fx"));
    ck_assert_str_eq(files[1], at("rs/Shaders/sub/B.fx"));
    ck_assert_str_eq(files[2], at("rs/Shaders/z/D.FX"));
    for (size_t i = 0; i < n; i++) {
        free(files[i]);
    }
    free(files);
    fxgl_search_finish(&s);

    ck_assert(fxgl_search_expand_raw(&s, (const char *[]){flat}, 1));
    ck_assert_ptr_null(fxgl_search_find(&s, "MyLut.png")); // no **: the folder alone
    char described[64];
    fxgl_search_describe(&s, described, sizeof(described));
    ck_assert_str_eq(described, flat);
    fxgl_search_finish(&s);
    ck_assert(fxgl_search_expand_raw(&s, (const char *[]){flat, textures}, 2));
    ck_assert_uint_eq(s.count, 2); // the folder once, in its first place
    char *found = fxgl_search_find(&s, "mylut.PNG");
    ck_assert_str_eq(found, at("rs/Textures/luts/MyLut.png"));
    free(found);
    found = fxgl_search_find(&s, "luts\\MyLut.png");
    ck_assert_str_eq(found, at("rs/Textures/luts/MyLut.png"));
    free(found);
    ck_assert_ptr_null(fxgl_search_find(&s, "Other.png"));
    char both[2048];
    fxgl_search_describe(&s, both, sizeof(both));
    char expected[2048];
    snprintf(expected, sizeof(expected), "%s/rs/Textures, %s/rs/Textures/luts", root, root);
    ck_assert_str_eq(both, expected);
    char cut[600];
    fxgl_search_describe(&s, cut, strlen(flat) + 20);
    ck_assert_str_eq(cut + strlen(flat), ", ... (1 more)");
    fxgl_search_finish(&s);
}
END_TEST

static Suite *config_suite(void) {
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_candidate_order);
    tcase_add_test(tc, test_layering_relative_paths_and_reshade_ini);
    tcase_add_test(tc, test_defaults_without_files);
    tcase_add_test(tc, test_compiled_in_data_dir);
    tcase_add_test(tc, test_named_presets);
    tcase_add_test(tc, test_environment_overrides);
    tcase_add_test(tc, test_preset_path_must_be_a_preset);
    tcase_add_test(tc, test_program_config);
    tcase_add_test(tc, test_missing_preset_messages);
    tcase_add_test(tc, test_depth_section);
    tcase_add_test(tc, test_search_paths);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(config_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
