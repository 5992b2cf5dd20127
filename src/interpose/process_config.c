/*
 * process_config.c - the configuration of the process, read once: the environment into one
 * struct at the first hook that needs it, the configuration files (fxgl.ini,
 * ReShade.ini, <program>.conf, with the FXGL_* variables over them; src/preset) at the
 * first frame. Two moments, because dlsym runs before the sanitizer runtimes of an
 * instrumented program are ready and before the program has a window: what a hook
 * needs is small and read without files; what the effects need is read when a frame
 * asks for it (ip_config_files).
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
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxgl_interpose.h"
#include "fxgl_preset.h"

extern char **environ;

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
    // The FBO depth provider's hooks: handed out unless FXGL_DEPTH says
    // otherwise (docs/interpose.md: what they cost while no effect reads DEPTH).
    const char *depth = get("FXGL_DEPTH");
    cfg->depth_fbo = true;
    if (depth && depth[0]) {
        static const char *const on[] = {"auto", "fbo", "on", "1"};
        static const char *const off[] = {"off", "default", "0", "no"};
        cfg->depth_unknown = true;
        for (size_t i = 0; i < 4; i++) {
            if (strcmp(depth, on[i]) == 0) {
                cfg->depth_unknown = false;
            } else if (strcmp(depth, off[i]) == 0) {
                cfg->depth_unknown = cfg->depth_fbo = false;
            }
        }
    }
    cfg->blacklisted = ip_config_name_listed(cfg->process, builtin_blacklist) ||
                       ip_config_name_listed(cfg->process, get("FXGL_BLACKLIST"));
    cfg->disabled = env_bool(get, "FXGL_DISABLE", false) || cfg->blacklisted;
    // Exact spellings, as these were always read: only "0" turns the first two off,
    // only "1" turns the overlay on.
    const char *prewarm = get("FXGL_PREWARM"), *control = get("FXGL_CONTROL");
    const char *overlay = get("FXGL_OVERLAY");
    cfg->prewarm = !prewarm || strcmp(prewarm, "0") != 0;
    cfg->control = !control || strcmp(control, "0") != 0;
    cfg->overlay = overlay && strcmp(overlay, "1") == 0;
    cfg->overlay_grab = !get("FXGL_OVERLAY_NO_GRAB"); // set at all: no grab
    const char *specialise = get("FXGL_SPECIALISE");
    cfg->specialise = !specialise || strcmp(specialise, "0") != 0;
    cfg->font_set = get("FXGL_FONT") != NULL;
    copy_env(cfg->font, sizeof(cfg->font), get, "FXGL_FONT");
    copy_env(cfg->keys, sizeof(cfg->keys), get, "FXGL_KEYS");
    copy_env(cfg->runtime_dir, sizeof(cfg->runtime_dir), get, "XDG_RUNTIME_DIR");
    copy_env(cfg->dump, sizeof(cfg->dump), get, "FXGL_DUMP");
    copy_env(cfg->screenshot_dir, sizeof(cfg->screenshot_dir), get, "FXGL_SCREENSHOT_DIR");
    copy_env(cfg->visualise, sizeof(cfg->visualise), get, "FXGL_VISUALISE");
    copy_env(cfg->log_file, sizeof(cfg->log_file), get, "FXGL_LOG_FILE");
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
    if (config.depth_unknown) {
        fxgl_log(FXGL_LOG_WARN, "FXGL_DEPTH: not auto, fbo, off or default: taken as auto");
    }
    fxgl_log(FXGL_LOG_DEBUG, "%s in '%s' (dlsym hook %s, glvnd hook %s%s)", ip_version(),
             config.process, config.dlsym_hook ? "on" : "off", config.glvnd_hook ? "on" : "off",
             config.test_mark ? ", test mark" : "");
}

const ip_config *ip_config_get(void) {
    pthread_once(&config_once, config_setup);
    return &config;
}

// --- the configuration files, at the first frame ---

// Process-wide and immutable after files_once, like config above.
static struct {
    bool ok;                     // read (false only when out of memory)
    fxgl_config config;
    char program[PATH_MAX];      // the executable, for __APPLICATION__ and beside-it files
} files = {0};
static pthread_once_t files_once = PTHREAD_ONCE_INIT;

static void files_diag(void *user, const fxgl_preset_diag *diag) {
    (void)user;
    char buf[1024];
    fxgl_preset_diag_format(diag, buf, sizeof(buf));
    fxgl_log(FXGL_LOG_WARN, "%s", buf);
}

static void files_setup(void) {
    ssize_t n = readlink("/proc/self/exe", files.program, sizeof(files.program) - 1);
    files.program[n > 0 ? n : 0] = '\0';
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", files.program);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
    }
    fxgl_preset_sink sink = {files_diag, NULL};
    // The name the program was started by (glxgears, not the glxgears.x86_64-linux-gnu
    // that /proc/self/exe resolves to): the one a player writes <name>.conf for.
    const char *name = program_invocation_short_name;
    fxgl_config_env env = {(const char *const *)environ, slash ? dir : NULL,
                           name && name[0] ? name : NULL};
    files.ok = fxgl_config_load(&files.config, &env, &sink);
    if (!files.ok) {
        fxgl_log(FXGL_LOG_ERROR, "out of memory reading the configuration");
    }
}

const fxgl_config *ip_config_files(void) {
    pthread_once(&files_once, files_setup);
    return files.ok ? &files.config : NULL;
}

const char *ip_config_program_path(void) {
    pthread_once(&files_once, files_setup);
    return files.program;
}
