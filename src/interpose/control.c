/*
 * control.c - the control interface of a running program: a
 * UNIX socket in $XDG_RUNTIME_DIR, key bindings and SIGUSR1.
 *
 * The socket ($XDG_RUNTIME_DIR/fxgl-<pid>.sock, mode 0600) is polled once
 * per frame from the frame hook and never blocks it: the listening socket
 * and every connection are non-blocking, at most IP_CTL_LINES commands are
 * taken per frame, and a reply that does not fit the socket's buffer at
 * once ends the connection rather than waiting. A command is one line; the
 * reply is one line. Only the same user may talk to it: the directory must
 * be the user's own and private (as XDG says it is), the socket is 0600,
 * and each connection's peer is checked with SO_PEERCRED. A socket path
 * that exists and belongs to someone else is left alone, with a message.
 *
 * What a command does is not this file's business: ip_control_poll hands
 * each line to the caller (the frame hook gives it to fxgl_inspect_command
 * and does the host's part: reload, presets, performance mode).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_ui.h"

#define IP_CTL_CLIENTS 4         // connections served at once
#define IP_CTL_LINE 512          // longest command
#define IP_CTL_LINES 8           // commands taken per frame (a frame's bound)

typedef struct ip_ctl_client {
    int fd;                      // -1: free
    char buf[IP_CTL_LINE];
    size_t len;
    bool eof;
} ip_ctl_client;

struct ip_control {
    int fd;
    pid_t pid;                   // creator: a forked child must not unlink it
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    ip_ctl_client clients[IP_CTL_CLIENTS];
};

static bool private_dir(const char *dir, char *reason, size_t size) {
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(reason, size, "%s: %s", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(reason, size, "%s is not a directory", dir);
        return false;
    }
    if (st.st_uid != getuid()) {
        snprintf(reason, size, "%s is owned by uid %u, not by this user (uid %u)", dir,
                 (unsigned)st.st_uid, (unsigned)getuid());
        return false;
    }
    if (st.st_mode & 077) {
        snprintf(reason, size, "%s is accessible to others (mode %03o; it must be 0700)", dir,
                 (unsigned)(st.st_mode & 0777));
        return false;
    }
    return true;
}

ip_control *ip_control_create(const char *dir, char *reason, size_t size) {
    if (!dir || !dir[0]) {
        snprintf(reason, size, "XDG_RUNTIME_DIR is not set: no control socket");
        return NULL;
    }
    if (!private_dir(dir, reason, size)) {
        return NULL;
    }
    ip_control *c = calloc(1, sizeof(*c));
    if (!c) {
        snprintf(reason, size, "out of memory");
        return NULL;
    }
    c->pid = getpid();
    for (int i = 0; i < IP_CTL_CLIENTS; i++) {
        c->clients[i].fd = -1;
    }
    int n = snprintf(c->path, sizeof(c->path), "%s/fxgl-%ld.sock", dir, (long)c->pid);
    if (n < 0 || (size_t)n >= sizeof(c->path)) {
        snprintf(reason, size, "%s: path too long for a UNIX socket", dir);
        free(c);
        return NULL;
    }
    struct stat st;
    if (lstat(c->path, &st) == 0) {
        if (st.st_uid != getuid()) {
            snprintf(reason, size, "%s exists and is owned by uid %u, not by this user: left "
                     "alone, no control socket", c->path, (unsigned)st.st_uid);
            free(c);
            return NULL;
        }
        if (!S_ISSOCK(st.st_mode)) {
            snprintf(reason, size, "%s exists and is not a socket: left alone, no control socket",
                     c->path);
            free(c);
            return NULL;
        }
        unlink(c->path); // ours, left by an earlier process with this pid
    }
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        snprintf(reason, size, "socket: %s", strerror(errno));
        free(c);
        return NULL;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, c->path, strlen(c->path) + 1);
    // The directory is private, so the moment between bind and chmod shows
    // the socket to nobody else.
    if (bind(c->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || chmod(c->path, 0600) != 0 ||
        listen(c->fd, IP_CTL_CLIENTS) != 0) {
        snprintf(reason, size, "%s: %s", c->path, strerror(errno));
        close(c->fd);
        unlink(c->path);
        free(c);
        return NULL;
    }
    return c;
}

static void drop(ip_ctl_client *k) {
    if (k->fd >= 0) {
        close(k->fd);
    }
    k->fd = -1;
    k->len = 0;
    k->eof = false;
}

void ip_control_destroy(ip_control *c) {
    if (!c) {
        return;
    }
    for (int i = 0; i < IP_CTL_CLIENTS; i++) {
        drop(&c->clients[i]);
    }
    close(c->fd);
    if (c->pid == getpid()) {
        unlink(c->path);
    }
    free(c);
}

const char *ip_control_path(const ip_control *c) {
    return c ? c->path : "";
}

// A reply that does not go out at once is dropped with the connection:
// the frame never waits for a slow reader.
static bool answer(ip_ctl_client *k, const char *reply) {
    char line[IP_CTL_LINE + 2];
    int n = snprintf(line, sizeof(line), "%s\n", reply);
    if (n <= 0) {
        return false;
    }
    size_t len = (size_t)n >= sizeof(line) ? sizeof(line) - 1 : (size_t)n;
    line[len - 1] = '\n'; // a truncated reply still ends its line
    ssize_t w = send(k->fd, line, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    return w == (ssize_t)len;
}

static void accept_new(ip_control *c) {
    for (;;) {
        int fd = accept4(c->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return; // EAGAIN: nobody waiting
        }
        struct ucred cred;
        socklen_t len = sizeof(cred);
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != getuid()) {
            static const char msg[] = "error: control is for the same user only\n";
            ssize_t ignored = send(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
            (void)ignored;
            close(fd);
            fxgl_log(FXGL_LOG_WARN, "control: refused a connection from uid %u (pid %ld)",
                     (unsigned)cred.uid, (long)cred.pid);
            continue;
        }
        ip_ctl_client *k = NULL;
        for (int i = 0; i < IP_CTL_CLIENTS && !k; i++) {
            k = c->clients[i].fd < 0 ? &c->clients[i] : NULL;
        }
        if (!k) {
            static const char msg[] = "error: busy (too many control connections)\n";
            ssize_t ignored = send(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
            (void)ignored;
            close(fd);
            continue;
        }
        k->fd = fd;
        k->len = 0;
        k->eof = false;
    }
}

int ip_control_poll(ip_control *c, ip_control_handler handler, void *user) {
    if (!c) {
        return 0;
    }
    accept_new(c);
    int taken = 0;
    for (int i = 0; i < IP_CTL_CLIENTS; i++) {
        ip_ctl_client *k = &c->clients[i];
        if (k->fd < 0) {
            continue;
        }
        while (!k->eof && k->len < sizeof(k->buf)) {
            ssize_t r = recv(k->fd, k->buf + k->len, sizeof(k->buf) - k->len, MSG_DONTWAIT);
            if (r > 0) {
                k->len += (size_t)r;
            } else if (r == 0) {
                k->eof = true;
            } else {
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    k->eof = true;
                    k->len = 0;
                }
                break;
            }
        }
        bool keep = true;
        while (keep && taken < IP_CTL_LINES) {
            char *nl = memchr(k->buf, '\n', k->len);
            size_t n;
            if (nl) {
                n = (size_t)(nl - k->buf);
            } else if (k->eof && k->len > 0 && k->len < sizeof(k->buf)) {
                n = k->len; // the last line without its newline
            } else {
                break;
            }
            char line[IP_CTL_LINE + 1];
            memcpy(line, k->buf, n);
            line[n] = 0;
            size_t used = nl ? n + 1 : n;
            memmove(k->buf, k->buf + used, k->len - used);
            k->len -= used;
            char reply[IP_CTL_LINE];
            reply[0] = 0;
            // A NUL inside the line would hide the rest: malformed.
            if (memchr(line, 0, n)) {
                snprintf(reply, sizeof(reply), "error: NUL byte in command; nothing changed");
            } else {
                handler(user, line, reply, sizeof(reply));
            }
            taken++;
            keep = answer(k, reply[0] ? reply : "ok");
        }
        if (keep && !memchr(k->buf, '\n', k->len) && k->len == sizeof(k->buf)) {
            answer(k, "error: command longer than 511 bytes; nothing changed");
            keep = false;
        }
        if (!keep || (k->eof && k->len == 0)) {
            drop(k);
        }
    }
    return taken;
}

// --- keys ---

static const struct {
    const char *name;
    int vk;
} key_names[] = {
    {"Home", 0x24}, {"End", 0x23}, {"PageUp", 0x21}, {"PageDown", 0x22}, {"Insert", 0x2D},
    {"Delete", 0x2E}, {"Print", 0x2C}, {"Pause", 0x13}, {"ScrollLock", 0x91},
};

static const struct {
    const char *action;
    const char *command;
    int vk;                      // default binding, 0: none
} key_actions[IP_CTL_ACTIONS] = {
    {"toggle", "toggle", 0},                 // unbound: KeyEffects (default Home) does it
    {"reload", "reload", 0},
    {"next", "preset next", 0},              // unbound: games use PageUp/PageDown
    {"prev", "preset prev", 0},
    {"performance", "performance", 0},
    {"overlay", "overlay toggle", 0x79},     // F10 (F11 is fullscreen in many programs)
    {"dump", "dump", 0x78},                  // F9
    {"screenshot", "screenshot", 0x2C},      // Print
};

static int parse_key(const char *s, size_t n) {
    char word[16];
    if (n == 0 || n >= sizeof(word)) {
        return -1;
    }
    memcpy(word, s, n);
    word[n] = 0;
    if ((word[0] == 'F' || word[0] == 'f') && word[1]) {
        char *end;
        long f = strtol(word + 1, &end, 10);
        if (*end == 0 && f >= 1 && f <= 24) {
            return 0x70 + (int)f - 1; // VK_F1..VK_F24
        }
    }
    if (n > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        char *end;
        long v = strtol(word + 2, &end, 16);
        return *end == 0 && v > 0 && v < FXGL_INPUT_KEYS ? (int)v : -1;
    }
    for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++) {
        if (strcasecmp(word, key_names[i].name) == 0) {
            return key_names[i].vk;
        }
    }
    if (n == 1 && ((word[0] >= 'A' && word[0] <= 'Z') || (word[0] >= '0' && word[0] <= '9'))) {
        return word[0]; // VK codes of letters and digits are their upper-case ASCII
    }
    if (n == 1 && word[0] >= 'a' && word[0] <= 'z') {
        return word[0] - 'a' + 'A';
    }
    return n == 4 && strcasecmp(word, "none") == 0 ? 0 : -1;
}

bool ip_control_keys_parse(ip_keymap *map, const char *spec, char *reason, size_t size) {
    ip_keymap next;
    for (int i = 0; i < IP_CTL_ACTIONS; i++) {
        next.vk[i] = key_actions[i].vk;
    }
    const char *p = spec ? spec : "";
    while (*p) {
        p += strspn(p, ", ");
        size_t n = strcspn(p, ",");
        if (!n) {
            break;
        }
        const char *eq = memchr(p, '=', n);
        int action = -1;
        for (int i = 0; eq && i < IP_CTL_ACTIONS; i++) {
            if (strlen(key_actions[i].action) == (size_t)(eq - p) &&
                strncasecmp(p, key_actions[i].action, (size_t)(eq - p)) == 0) {
                action = i;
            }
        }
        int vk = eq ? parse_key(eq + 1, n - (size_t)(eq + 1 - p)) : -1;
        if (action < 0 || vk < 0) {
            snprintf(reason, size, "FXGL_KEYS: bad binding '%.*s' (action=key; actions toggle, "
                     "reload, next, prev, performance, overlay, dump, screenshot; keys F1-F24, "
                     "Home, End, PageUp, PageDown, Insert, Delete, Print, Pause, ScrollLock, "
                     "A-Z, 0-9, 0xNN or none)", (int)n, p);
            return false;
        }
        next.vk[action] = vk;
        p += n;
    }
    *map = next;
    return true;
}

size_t ip_control_keys(const ip_keymap *map, const fxgl_input *in, const char **commands,
                       size_t max) {
    size_t n = 0;
    if (!in || !in->has_focus) {
        return 0;
    }
    for (int i = 0; i < IP_CTL_ACTIONS && n < max; i++) {
        int vk = map->vk[i];
        if (vk > 0 && vk < FXGL_INPUT_KEYS && in->key_pressed[vk]) {
            commands[n++] = key_actions[i].command;
        }
    }
    return n;
}

// --- SIGUSR1 ---

static volatile sig_atomic_t dump_requested;

static void on_usr1(int sig) {
    (void)sig;
    dump_requested = 1;
}

bool ip_control_signal_install(void) {
    struct sigaction old;
    if (sigaction(SIGUSR1, NULL, &old) != 0) {
        return false;
    }
    // The program's own handler wins; only the default (terminate) is replaced.
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) {
        fxgl_log(FXGL_LOG_INFO, "SIGUSR1 belongs to the program: no dump on SIGUSR1");
        return false;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(SIGUSR1, &sa, NULL) == 0;
}

bool ip_control_signal_take(void) {
    if (!dump_requested) {
        return false;
    }
    dump_requested = 0;
    return true;
}

// --- the inspection layer of one effect runtime, driven by the above ---
//
// One control socket per process, opened by the first runtime that wants
// it and polled by every runtime's frame (a command goes to the runtime
// whose frame reads it; programs with one presenting context have one).
// A process-wide lock serialises the frames that poll it and the dump at
// exit.

struct ip_inspect {
    fxgl_inspect *in;
    ip_inspect *next;            // registry, for the dump at exit
    bool reload;                 // `reload` asked: the frame hook rebuilds the effects
};

static bool carry_overlay;       // the overlay survives a reload

static pthread_mutex_t control_lock = PTHREAD_MUTEX_INITIALIZER;
static ip_control *control;      // under control_lock
static bool control_tried;
static ip_keymap keymap;
static ip_inspect *registry;
static const char *dump_at_exit; // FXGL_DUMP: a file written at exit (and when a runtime goes)

// when: what made it ("at exit", ...), for the log.
static void dump_to(fxgl_inspect *in, const char *path, const char *when) {
    char reason[300];
    if (fxgl_inspect_dump_file(in, path, reason, sizeof(reason))) {
        fxgl_log(FXGL_LOG_INFO, "dump written to %s %s", path, when);
    } else {
        fxgl_log(FXGL_LOG_WARN, "dump: %s", reason);
    }
}

static void at_exit(void) {
    pthread_mutex_lock(&control_lock);
    for (ip_inspect *i = registry; i; i = i->next) {
        dump_to(i->in, dump_at_exit, "at exit"); // CPU records only: no GL at exit
    }
    ip_control_destroy(control);
    control = NULL;
    pthread_mutex_unlock(&control_lock);
}

static void inspect_log(void *user, fxgl_gl_log_level level, const char *message) {
    (void)user;
    fxgl_log((fxgl_log_level)level, "%s", message);
}

// Under control_lock, once per process, at the first runtime (never in a constructor).
static void control_init(void) {
    control_tried = true;
    char reason[512];
    const ip_config *cfg = ip_config_get();
    if (!ip_control_keys_parse(&keymap, cfg->keys, reason, sizeof(reason))) {
        fxgl_log(FXGL_LOG_WARN, "%s; default keys", reason);
        ip_control_keys_parse(&keymap, NULL, reason, sizeof(reason));
    }
    if (cfg->control) {
        control = ip_control_create(cfg->runtime_dir[0] ? cfg->runtime_dir : NULL, reason,
                                    sizeof(reason));
        if (control) {
            fxgl_log(FXGL_LOG_INFO, "control socket %s (fxgl ctl)", ip_control_path(control));
        } else {
            // No XDG_RUNTIME_DIR is ordinary (a session without a login
            // manager, xvfb-run as root): info, not a warning.
            fxgl_log(cfg->runtime_dir[0] ? FXGL_LOG_WARN : FXGL_LOG_INFO, "control: %s", reason);
        }
    }
    ip_control_signal_install();
    dump_at_exit = cfg->dump[0] ? cfg->dump : NULL; // the configuration lives to the exit
    if (dump_at_exit) {
        atexit(at_exit);
    }
}

ip_inspect *ip_inspect_create(fxgl_runtime *fx, const ip_effect_host *effects) {
    ip_inspect *i = calloc(1, sizeof(*i));
    if (!i) {
        return NULL;
    }
    const ip_config *cfg = ip_config_get();
    fxgl_inspect_desc desc = {
        .log = inspect_log,
        .program = cfg->process[0] ? cfg->process : NULL,
        .screenshot_dir = cfg->screenshot_dir[0] ? cfg->screenshot_dir : NULL,
        .visualise = cfg->visualise[0] ? cfg->visualise : NULL,
        .overlay = cfg->overlay,
        .dump_extra = ip_depth_dump, // depth.c: the depth candidates
    };
    i->in = fxgl_inspect_create(fx, &desc);
    if (!i->in) {
        free(i);
        return NULL;
    }
    // The preset the session uses (FXGL_PRESET, PresetPath, the installed default, a
    // switch since), not only FXGL_PRESET: screenshots and dumps are named after it.
    char preset[4096];
    ip_effect_host_preset_path(preset, sizeof(preset));
    if (preset[0]) {
        fxgl_inspect_set_preset(i->in, preset);
    } else if (cfg->preset[0]) {
        fxgl_inspect_set_preset(i->in, cfg->preset);
    }
    // The effects that failed to compile, asked of this runtime's own effects.
    const char *file, *diagnostic;
    for (size_t k = 0; ip_effect_host_failure(effects, k, &file, &diagnostic); k++) {
        fxgl_inspect_add_failed(i->in, file, diagnostic);
    }
    pthread_mutex_lock(&control_lock);
    if (!control_tried) {
        control_init();
    }
    if (carry_overlay) {
        fxgl_inspect_overlay(i->in, true);
        carry_overlay = false;
    }
    i->next = registry;
    registry = i;
    pthread_mutex_unlock(&control_lock);
    return i;
}

// Under control_lock: out of the registry (the exit handler must not read
// it any more), and FXGL_DUMP written from its last frame's records.
static void unregister(ip_inspect *i, const char *when) {
    for (ip_inspect **p = &registry; *p; p = &(*p)->next) {
        if (*p == i) {
            *p = i->next;
            break;
        }
    }
    if (dump_at_exit) {
        dump_to(i->in, dump_at_exit, when);
    }
}

void ip_inspect_destroy(ip_inspect *i) {
    if (!i) {
        return;
    }
    pthread_mutex_lock(&control_lock);
    unregister(i, i->reload ? "(reload)" : "(context destroyed)");
    carry_overlay = i->reload && fxgl_inspect_overlay_is_on(i->in);
    pthread_mutex_unlock(&control_lock);
    fxgl_inspect_destroy(i->in);
    free(i);
}

void ip_inspect_abandon(ip_inspect *i) {
    if (!i) {
        return;
    }
    pthread_mutex_lock(&control_lock);
    unregister(i, "(context gone while not current)");
    pthread_mutex_unlock(&control_lock);
    fxgl_inspect_abandon(i->in);
    free(i);
}

// `dump` without a file: into the log at the default level (a dump asked for is always
// shown; at info it would be invisible unless FXGL_LOG says so), and the reply says where.
static bool dump_to_log(ip_inspect *i, const char *line, char *reply, size_t size) {
    const char *p = line + strspn(line, " \t");
    if (strncmp(p, "dump", 4) != 0 || p[4 + strspn(p + 4, " \t\r\n")] != '\0') {
        return false;
    }
    size_t need = fxgl_inspect_dump(i->in, NULL, 0) + 1;
    char *text = malloc(need);
    if (!text) {
        snprintf(reply, size, "error: out of memory");
        return true;
    }
    fxgl_inspect_dump(i->in, text, need);
    for (char *s = text, *e; *s; s = e) {
        e = s + strcspn(s, "\n");
        bool nl = *e == '\n';
        *e = 0;
        fxgl_log_notice("dump: %s", s);
        e += nl;
    }
    free(text);
    const char *file = ip_config_get()->log_file;
    snprintf(reply, size, "dump written to the program's log (%s)",
             file[0] ? file : "its standard error");
    return true;
}

static void run_command(void *user, const char *line, char *reply, size_t size) {
    ip_inspect *i = user;
    if (strncmp(line, "preset ", 7) == 0 && strcasecmp(line + 7, "next") != 0 &&
        strcasecmp(line + 7, "prev") != 0) { // a path: next and prev are the inspector's
        ip_effect_host_select_preset(line + 7, reply, size);
        fxgl_log(strncmp(reply, "error", 5) == 0 ? FXGL_LOG_WARN : FXGL_LOG_INFO,
                 "control: %s: %s", line, reply);
        return;
    }
    if (dump_to_log(i, line, reply, size) || ip_depth_command(line, reply, size)) {
        fxgl_log(FXGL_LOG_INFO, "control: %s: %s", line, reply);
        return;
    }
    fxgl_command_result r = fxgl_inspect_command(i->in, line, reply, size);
    switch (r) {
    case FXGL_COMMAND_DONE:
    case FXGL_COMMAND_ERROR:
        break;
    case FXGL_COMMAND_RELOAD:
        i->reload = true;
        snprintf(reply, size, "reloading: the effects recompile from their files at the next "
                 "frame");
        break;
    case FXGL_COMMAND_PRESET_NEXT:
    case FXGL_COMMAND_PRESET_PREV:
        // effect_host.c switches at every runtime's next frame, like the keys.
        if (!ip_effect_host_switch_preset(r == FXGL_COMMAND_PRESET_NEXT ? 1 : -1)) {
            snprintf(reply, size, "error: no other preset beside the current one; nothing "
                     "changed");
        }
        break;
    case FXGL_COMMAND_PERFORMANCE: {
        bool on = !ip_effect_host_performance_mode();
        ip_effect_host_set_performance_mode(on);
        snprintf(reply, size, "performance mode %s: the effects recompile in the background",
                 on ? "on" : "off");
        break;
    }
    }
    fxgl_log(strncmp(reply, "error", 5) == 0 ? FXGL_LOG_WARN : FXGL_LOG_INFO, "control: %s: %s",
             line, reply);
}

// KeyEffects presses not yet applied (guarded by control_lock): the key flips the same
// on/off state as `fxgl ctl toggle` (the inspection layer's), so `fxgl ctl status` and the
// overlay show what the key did.
static unsigned pending_toggles;

void ip_control_toggle_effects(void) {
    pthread_mutex_lock(&control_lock);
    pending_toggles++;
    pthread_mutex_unlock(&control_lock);
}

// Under control_lock: the socket, the keys, SIGUSR1.
static void poll_all(ip_inspect *i, const fxgl_input *input) {
    for (; pending_toggles > 0; pending_toggles--) {
        char reply[512];
        fxgl_inspect_command(i->in, "toggle", reply, sizeof(reply));
        fxgl_log(FXGL_LOG_INFO, "%s (KeyEffects)", reply);
    }
    ip_control_poll(control, run_command, i);
    const char *cmds[IP_CTL_ACTIONS];
    size_t n = ip_control_keys(&keymap, input, cmds, IP_CTL_ACTIONS);
    for (size_t k = 0; k < n; k++) {
        char reply[512];
        run_command(i, cmds[k], reply, sizeof(reply));
    }
    if (ip_control_signal_take()) {
        char reply[512];
        run_command(i, "dump", reply, sizeof(reply));
    }
}

bool ip_inspect_frame(ip_inspect *i, fxgl_runtime *fx, const fxgl_frame_desc *desc) {
    if (!i) {
        return fxgl_runtime_frame(fx, desc);
    }
    pthread_mutex_lock(&control_lock);
    poll_all(i, desc->input);
    bool ok = fxgl_inspect_frame(i->in, desc);
    pthread_mutex_unlock(&control_lock);
    return ok;
}

bool ip_inspect_wants_input(const ip_inspect *i) {
    if (!i) {
        return false;
    }
    pthread_mutex_lock(&control_lock);
    bool bound = false;
    for (int k = 0; k < IP_CTL_ACTIONS && !bound; k++) {
        bound = keymap.vk[k] > 0;
    }
    bool want = bound || fxgl_inspect_overlay_is_on(i->in);
    pthread_mutex_unlock(&control_lock);
    return want;
}

void ip_inspect_idle(ip_inspect *i, const fxgl_input *input) {
    if (!i) {
        return;
    }
    pthread_mutex_lock(&control_lock);
    poll_all(i, input);
    pthread_mutex_unlock(&control_lock);
}

bool ip_inspect_take_reload(ip_inspect *i) {
    if (!i || !i->reload) {
        return false;
    }
    return true; // stays set: ip_inspect_destroy carries the overlay over
}

fxgl_ui *ip_inspect_ui(ip_inspect *i) {
    return i ? fxgl_inspect_ui(i->in) : NULL;
}
