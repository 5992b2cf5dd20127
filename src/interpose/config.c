/*
 * config.c - the environment, read once into one struct.
 *
 * Hooks run on hot paths (dlsym may be called thousands of times at start-up,
 * swap every frame), so nothing there calls getenv: the first hook that needs
 * the configuration reads it under pthread_once and everything after reads
 * the struct. Strings are copied, because the host may setenv() later.
 *
 * The blacklist keeps fxgl out of processes that present frames without
 * being the game: the Steam client and its web helper, launchers,
 * compositors and gamescope (which may run effects of its own).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_interpose.h"

// Process-wide and immutable after config_once: the reason this is a global.
static ip_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static const char builtin_blacklist[] =
    "steam:steamwebhelper:steam-runtime-*:pressure-vessel*:srt-bwrap:reaper:"
    "gamescope:gamescope-wl:gamescopereaper:Xwayland:Xorg:Xvfb:"
    "gnome-shell:mutter:kwin_wayland:kwin_x11:weston:sway:Hyprland:wayfire:labwc:river:"
    "picom:compton:xfwm4:marco:muffin:cinnamon:plasmashell:"
    "lutris:heroic:legendary:bottles:minigalaxy:itch:"
    "EpicGamesLauncher.exe:Battle.net.exe:Battle.net Launcher.exe:UbisoftConnect.exe:"
    "upc.exe:EADesktop.exe:GalaxyClient.exe:RockstarLauncher.exe";

const char *ip_config_builtin_blacklist(void) {
    return builtin_blacklist;
}

bool ip_config_name_listed(const char *name, const char *list) {
    if (!name || !name[0] || !list) {
        return false;
    }
    size_t name_len = strlen(name);
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ":,");
        if (len > 0) {
            bool prefix = p[len - 1] == '*';
            size_t cmp = prefix ? len - 1 : len;
            if (prefix ? (name_len >= cmp && strncmp(name, p, cmp) == 0)
                       : (name_len == cmp && strncmp(name, p, cmp) == 0)) {
                return true;
            }
        }
        p += len;
        if (*p) {
            p++;
        }
    }
    return false;
}

// "1", "yes", "true", "on" are true; "0", "no", "false", "off" false; else the default.
static bool env_bool(ip_getenv_fn get, const char *name, bool fallback) {
    const char *v = get(name);
    if (!v || !v[0]) {
        return fallback;
    }
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0) {
            return true;
        }
        if (strcmp(v, no[i]) == 0) {
            return false;
        }
    }
    return fallback;
}

static void copy_env(char *dst, size_t size, ip_getenv_fn get, const char *name) {
    const char *v = get(name);
    snprintf(dst, size, "%s", v ? v : "");
}

void ip_config_parse(ip_config *cfg, ip_getenv_fn get, const char *process) {
    memset(cfg, 0, sizeof(*cfg));
    snprintf(cfg->process, sizeof(cfg->process), "%s", process ? process : "");
    cfg->dlsym_hook = env_bool(get, "FXGL_DLSYM", true);
    cfg->glvnd_hook = env_bool(get, "FXGL_GLVND", true);
    cfg->test_mark = env_bool(get, "FXGL_TEST_MARK", false);
    cfg->allow_tiny = env_bool(get, "FXGL_ALLOW_TINY", false);
    cfg->live_reload = env_bool(get, "FXGL_RELOAD", true);
    copy_env(cfg->preset, sizeof(cfg->preset), get, "FXGL_PRESET");
    copy_env(cfg->config_file, sizeof(cfg->config_file), get, "FXGL_CONFIG");
    copy_env(cfg->stats, sizeof(cfg->stats), get, "FXGL_STATS");
    cfg->count_app_draws = env_bool(get, "FXGL_COUNT_APP_DRAWS", false);
    const char *depth = get("FXGL_DEPTH");
    cfg->depth_fbo = depth && strcmp(depth, "fbo") == 0;
    cfg->blacklisted = ip_config_name_listed(cfg->process, builtin_blacklist) ||
                       ip_config_name_listed(cfg->process, get("FXGL_BLACKLIST"));
    cfg->disabled = env_bool(get, "FXGL_DISABLE", false) || cfg->blacklisted;
}

static const char *real_getenv(const char *name) {
    return getenv(name);
}

static void config_setup(void) {
    // argv[0]'s base name: what a user sees in ps and writes in a blacklist.
    ip_config_parse(&config, real_getenv, program_invocation_short_name);
    if (config.blacklisted) {
        fxgl_log(FXGL_LOG_INFO, "process '%s' is blacklisted: frames pass through untouched",
                 config.process);
    } else if (config.disabled) {
        fxgl_log(FXGL_LOG_INFO, "FXGL_DISABLE is set: frames pass through untouched");
    }
    fxgl_log(FXGL_LOG_DEBUG, "%s in '%s' (dlsym hook %s, glvnd hook %s%s)", ip_version(),
             config.process, config.dlsym_hook ? "on" : "off", config.glvnd_hook ? "on" : "off",
             config.test_mark ? ", test mark" : "");
}

const ip_config *ip_config_get(void) {
    pthread_once(&config_once, config_setup);
    return &config;
}
