/*
 * test_control.c - the control interface (src/interpose/control.c) with
 * the inspection layer behind it, headless (EGL):
 *
 * - the socket: where it is, mode 0600, refusals (no XDG_RUNTIME_DIR, a
 *   directory others can read, a path that belongs to another user or is
 *   not a socket), a peer of another uid (SO_PEERCRED; needs root to
 *   become another user), long and malformed lines;
 * - never blocking: a client that sends half a line and waits costs the
 *   frame nothing;
 * - commands sent by the fxgl-ctl client (and `fxgl ctl`) take effect in
 *   the frame that polls them, checked on the frame's pixels;
 * - key bindings and SIGUSR1.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glad/gl.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_test.h"
#include "tfx.h"

extern char **environ;

#define W 16
#define H 16

static char tmpdir[256];

static void make_tmpdir(void) {
    snprintf(tmpdir, sizeof(tmpdir), "%s/ctl-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                         : "/tmp");
    ck_assert(mkdtemp(tmpdir)); // 0700, as XDG_RUNTIME_DIR is
}

static void remove_tmpdir(void) {
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

// --- the socket ---

START_TEST(socket_place_and_refusals) {
    make_tmpdir();
    char reason[512];
    ck_assert(!ip_control_create(NULL, reason, sizeof(reason)));
    ck_assert_str_eq(reason, "XDG_RUNTIME_DIR is not set: no control socket");

    ip_control *c = ip_control_create(tmpdir, reason, sizeof(reason));
    ck_assert_msg(c, "%s", reason);
    char want[400];
    snprintf(want, sizeof(want), "%s/fxgl-%ld.sock", tmpdir, (long)getpid());
    ck_assert_str_eq(ip_control_path(c), want);
    struct stat st;
    ck_assert_int_eq(lstat(want, &st), 0);
    ck_assert(S_ISSOCK(st.st_mode));
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert_uint_eq(st.st_uid, getuid());
    ip_control_destroy(c);
    ck_assert_int_ne(lstat(want, &st), 0); // removed

    // A path that is not a socket: left alone.
    FILE *f = fopen(want, "w");
    ck_assert(f);
    fclose(f);
    ck_assert(!ip_control_create(tmpdir, reason, sizeof(reason)));
    ck_assert_msg(strstr(reason, "exists and is not a socket: left alone"), "%s", reason);
    ck_assert_int_eq(lstat(want, &st), 0);
    if (getuid() == 0) {
        // Someone else's path: left alone, with their uid in the message.
        ck_assert_int_eq(chown(want, 65534, 65534), 0);
        ck_assert(!ip_control_create(tmpdir, reason, sizeof(reason)));
        ck_assert_msg(strstr(reason, "is owned by uid 65534, not by this user: left alone"), "%s",
                      reason);
        ck_assert_int_eq(lstat(want, &st), 0);
    } else {
        printf("note: not root, the other-owner case is covered by the directory check only\n");
    }
    unlink(want);

    // A directory others can read.
    ck_assert_int_eq(chmod(tmpdir, 0755), 0);
    ck_assert(!ip_control_create(tmpdir, reason, sizeof(reason)));
    ck_assert_msg(strstr(reason, "is accessible to others (mode 755; it must be 0700)"), "%s",
                  reason);
    ck_assert_int_eq(chmod(tmpdir, 0700), 0);
    remove_tmpdir();
}
END_TEST

// --- a raw client ---

static int connect_to(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
    return fd;
}

static void read_line(int fd, char *buf, size_t size) {
    size_t n = 0;
    while (n + 1 < size) {
        ssize_t r = recv(fd, buf + n, 1, 0);
        if (r <= 0 || buf[n] == '\n') {
            break;
        }
        n++;
    }
    buf[n] = 0;
}

typedef struct echo {
    int calls;
    char last[600];
} echo;

static void echo_handler(void *user, const char *line, char *reply, size_t size) {
    echo *e = user;
    e->calls++;
    snprintf(e->last, sizeof(e->last), "%s", line);
    snprintf(reply, size, "got %s", line);
}

// How long a client program may take: a bound on a wait, generous for a loaded machine
// running the sanitizer build.
#define CLIENT_WAIT_MS 60000.0

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

START_TEST(never_blocks_and_bad_lines) {
    make_tmpdir();
    char reason[512];
    ip_control *c = ip_control_create(tmpdir, reason, sizeof(reason));
    ck_assert_msg(c, "%s", reason);
    echo e = {0};
    ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 0); // nobody there

    // Half a line, then silence: the poll returns at once and runs nothing.
    int fd = connect_to(ip_control_path(c));
    ck_assert_int_eq(send(fd, "sta", 3, 0), 3);
    // A poll that waited (for the rest of the line, for a timeout) would sleep: a
    // voluntary context switch each time. Counted, not timed - a loaded machine
    // preempts the thread (involuntary switches), it does not make it sleep. A few are
    // allowed for what is not the poll's (a page fault that reads from disk).
    struct rusage r0, r1;
    ck_assert_int_eq(getrusage(RUSAGE_THREAD, &r0), 0);
    double t0 = now_ms();
    for (int i = 0; i < 100; i++) {
        ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 0);
    }
    double per_poll = (now_ms() - t0) / 100;
    ck_assert_int_eq(getrusage(RUSAGE_THREAD, &r1), 0);
    long slept = r1.ru_nvcsw - r0.ru_nvcsw;
    ck_assert_msg(slept <= 5, "100 polls slept %ld times (%.3f ms a poll)", slept, per_poll);
    ck_assert_int_eq(send(fd, "tus\nsecond\n", 11, 0), 11);
    ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 2);
    char line[600];
    read_line(fd, line, sizeof(line));
    ck_assert_str_eq(line, "got status");
    read_line(fd, line, sizeof(line));
    ck_assert_str_eq(line, "got second");
    close(fd);

    // Too long: an error, the handler never sees it.
    fd = connect_to(ip_control_path(c));
    char big[600];
    memset(big, 'x', sizeof(big));
    ck_assert_int_eq(send(fd, big, sizeof(big), 0), (ssize_t)sizeof(big));
    e.calls = 0;
    ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 0);
    read_line(fd, line, sizeof(line));
    ck_assert_str_eq(line, "error: command longer than 511 bytes; nothing changed");
    ck_assert_int_eq(e.calls, 0);
    close(fd);

    // A NUL byte inside the line.
    fd = connect_to(ip_control_path(c));
    ck_assert_int_eq(send(fd, "dis\0able all\n", 13, 0), 13);
    ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 1);
    read_line(fd, line, sizeof(line));
    ck_assert_str_eq(line, "error: NUL byte in command; nothing changed");
    ck_assert_int_eq(e.calls, 0);
    close(fd);

    // A last line without its newline still counts once the client is done.
    fd = connect_to(ip_control_path(c));
    ck_assert_int_eq(send(fd, "overlay on", 10, 0), 10);
    shutdown(fd, SHUT_WR);
    ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 1);
    ck_assert_str_eq(e.last, "overlay on");
    close(fd);

    // Another user: refused by SO_PEERCRED (the mode keeps them out first,
    // so open it up for the test).
    if (getuid() == 0) {
        ck_assert_int_eq(chmod(tmpdir, 0711), 0);
        ck_assert_int_eq(chmod(ip_control_path(c), 0666), 0);
        int sv[2];
        ck_assert_int_eq(pipe(sv), 0);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) {
                _exit(3);
            }
            int k = socket(AF_UNIX, SOCK_STREAM, 0);
            struct sockaddr_un addr = {.sun_family = AF_UNIX};
            snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", ip_control_path(c));
            if (connect(k, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
                _exit(4);
            }
            ssize_t ignored = send(k, "disable all\n", 12, MSG_NOSIGNAL);
            (void)ignored;
            ignored = write(sv[1], "c", 1);
            char r[200] = "";
            ssize_t n = recv(k, r, sizeof(r) - 1, 0);
            r[n > 0 ? n : 0] = 0;
            _exit(strcmp(r, "error: control is for the same user only\n") == 0 ? 0 : 5);
        }
        char ch;
        ck_assert_int_eq(read(sv[0], &ch, 1), 1); // connected and sent
        e.calls = 0;
        ck_assert_int_eq(ip_control_poll(c, echo_handler, &e), 0);
        ck_assert_int_eq(e.calls, 0);
        int status = 0;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
        close(sv[0]);
        close(sv[1]);
        ck_assert_int_eq(chmod(tmpdir, 0700), 0);
    } else {
        printf("SKIP part: SO_PEERCRED refusal needs root to act as another user\n");
    }
    ip_control_destroy(c);
    remove_tmpdir();
}
END_TEST

// --- keys and signals ---

START_TEST(keys_and_signal) {
    ip_keymap map;
    char reason[512];
    ck_assert(ip_control_keys_parse(&map, NULL, reason, sizeof(reason)));
    fxgl_input in;
    memset(&in, 0, sizeof(in));
    in.has_focus = true;
    in.key_pressed[0x78] = 1; // F9
    in.key_pressed[0x22] = 1; // PageDown: games use it, so no default binding has it
    in.key_pressed[0x21] = 1; // PageUp: likewise
    const char *cmds[8];
    size_t n = ip_control_keys(&map, &in, cmds, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(cmds[0], "dump");
    in.has_focus = false;
    ck_assert_uint_eq(ip_control_keys(&map, &in, cmds, 8), 0); // not ours without focus
    in.has_focus = true;

    ck_assert(ip_control_keys_parse(&map, "dump=F2, next=none,overlay=0x41,toggle=s", reason,
                                    sizeof(reason)));
    ck_assert_int_eq(map.vk[6], 0x71);
    ck_assert_int_eq(map.vk[2], 0);
    ck_assert_int_eq(map.vk[5], 0x41);
    ck_assert_int_eq(map.vk[0], 'S');
    memset(in.key_pressed, 0, sizeof(in.key_pressed));
    in.key_pressed[0x71] = 1;
    in.key_pressed[0x22] = 1;
    n = ip_control_keys(&map, &in, cmds, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(cmds[0], "dump");
    ck_assert(ip_control_keys_parse(&map, "next=PageDown", reason, sizeof(reason)));
    n = ip_control_keys(&map, &in, cmds, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(cmds[0], "preset next"); // still there for who asks

    ip_keymap before = map;
    static const char *const bad[] = {"dump=F99", "jump=F2", "dump", "dump=Hyper"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert(!ip_control_keys_parse(&map, bad[i], reason, sizeof(reason)));
        ck_assert_msg(strstr(reason, "FXGL_KEYS: bad binding"), "%s", reason);
        ck_assert_mem_eq(&map, &before, sizeof(map));
    }

    signal(SIGUSR1, SIG_DFL);
    ck_assert(ip_control_signal_install());
    ck_assert(!ip_control_signal_take());
    raise(SIGUSR1);
    ck_assert(ip_control_signal_take());
    ck_assert(!ip_control_signal_take());
    // A program's own handler is left alone.
    signal(SIGUSR1, SIG_IGN);
    ck_assert(!ip_control_signal_install());
    signal(SIGUSR1, SIG_DFL);
}
END_TEST

// --- commands through fxgl-ctl on a headless runtime ---

typedef struct app {
    fxgl_test_egl *egl;
    GladGLContext *gl;
    fxgl_runtime *rt;
    fxgl_inspect *in;
    GLuint fbo, color;
    fxgl_image input;
    double time;
    int handled;                 // commands run in the current frame's poll
} app;

static void app_handler(void *user, const char *line, char *reply, size_t size) {
    app *a = user;
    fxgl_inspect_command(a->in, line, reply, size);
    a->handled++;
}

static void app_upload(app *a) {
    a->gl->BindTexture(GL_TEXTURE_2D, a->color);
    for (int y = 0; y < H; y++) {
        a->gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, H - 1 - y, W, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                             a->input.pixels + (size_t)y * W * 4);
    }
}

// One frame of the host: poll the socket, then the frame (as the frame hook does).
static void app_frame(app *a, ip_control *c) {
    a->handled = 0;
    ip_control_poll(c, app_handler, a);
    app_upload(a);
    fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = a->fbo, .time = a->time};
    a->time += 0.016;
    ck_assert(fxgl_inspect_frame(a->in, &d));
}

// Is the frame the input (effects off) or its inverse?
static bool frame_is_input(app *a) {
    fxgl_image out;
    a->gl->BindFramebuffer(GL_READ_FRAMEBUFFER, a->fbo);
    ck_assert(fxgl_image_read_gl(&out, a->gl, W, H));
    fxgl_image_diff d;
    bool same = fxgl_image_compare(&out, &a->input, 0, &d);
    for (int i = 0; i < W * H * 4; i++) {
        int want = i % 4 == 3 ? 255 : 255 - a->input.pixels[i];
        ck_assert_msg(same || abs(out.pixels[i] - want) <= 1, "neither input nor inverted at %d",
                      i / 4);
    }
    fxgl_image_free(&out);
    return same;
}

static tfx inv;

// Runs `prog args` while drawing frames; returns the frames from its start
// to the one whose poll ran the command, its exit status and its output.
static int run_client(app *a, ip_control *c, char *const argv[], int *status, char *out,
                      size_t size, bool *effect_in_that_frame, bool want_input) {
    int pipefd[2];
    ck_assert_int_eq(pipe(pipefd), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    int frames = 0, at = -1;
    double end = now_ms() + CLIENT_WAIT_MS;
    *effect_in_that_frame = false;
    for (;;) {
        app_frame(a, c);
        frames++;
        if (a->handled && at < 0) {
            at = frames;
            *effect_in_that_frame = frame_is_input(a) == want_input;
        }
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid) {
            break;
        }
        ck_assert_msg(now_ms() < end, "client not finished after %d frames", frames);
        usleep(2000);
    }
    ssize_t n = read(pipefd[0], out, size - 1);
    out[n > 0 ? n : 0] = 0;
    close(pipefd[0]);
    return at;
}

START_TEST(commands_take_effect) {
    make_tmpdir();
    char reason[512];
    app a;
    memset(&a, 0, sizeof(a));
    fxgl_test_egl_desc desc = {.api = FXGL_API_GL};
    a.egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(a.egl, "%s", reason);
    a.gl = fxgl_test_egl_gl(a.egl);
    a.gl->GenTextures(1, &a.color);
    a.gl->BindTexture(GL_TEXTURE_2D, a.color);
    a.gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    a.gl->GenFramebuffers(1, &a.fbo);
    a.gl->BindFramebuffer(GL_FRAMEBUFFER, a.fbo);
    a.gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a.color, 0);
    ck_assert(fxgl_image_alloc(&a.input, W, H));
    for (int i = 0; i < W * H * 4; i++) {
        a.input.pixels[i] = i % 4 == 3 ? 255 : (uint8_t)(i * 7);
    }
    a.rt = fxgl_runtime_create(a.gl, fxgl_test_egl_info(a.egl), NULL);
    ck_assert(a.rt);
    a.in = fxgl_inspect_create(a.rt, NULL);
    ck_assert(a.in);
    tfx_init(&inv, "Inv.fx", false);
    int tex = tfx_semantic(&inv, "ReShade::BackBufferTex", "COLOR");
    int smp = tfx_sampler(&inv, "ReShade::BackBuffer", tex, false, false);
    int ps = tfx_shader(&inv, FXGL_STAGE_PIXEL, "PS",
                        "uniform sampler2D Color;\nin vec2 uv;\n"
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = vec4(1.0 - texture(Color, uv).rgb, 1.0); }\n");
    tfx_use_sampler(&inv, ps, smp, "Color");
    tfx_pass(&inv, tfx_technique(&inv, "Invert"), ps);
    fxgl_runtime_add_effect(a.rt, tfx_finish(&inv), NULL);

    ip_control *c = ip_control_create(tmpdir, reason, sizeof(reason));
    ck_assert_msg(c, "%s", reason);
    app_frame(&a, c);
    ck_assert(!frame_is_input(&a));

    int status;
    char out[512];
    bool ok;
    char *const off[] = {(char *)FXGL_CTL_PATH, "-s", (char *)ip_control_path(c), "disable",
                         "all", NULL};
    int at = run_client(&a, c, off, &status, out, sizeof(out), &ok, true);
    ck_assert_msg(at >= 1, "the command never arrived");
    ck_assert_msg(ok, "disable all: not in effect in the frame that polled it");
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ck_assert_str_eq(out, "effects off\n");

    // Malformed: exit 1, an error line, nothing changed.
    char *const bad[] = {(char *)FXGL_CTL_PATH, "-s", (char *)ip_control_path(c), "frobnicate",
                         NULL};
    run_client(&a, c, bad, &status, out, sizeof(out), &ok, true);
    ck_assert_int_eq(WEXITSTATUS(status), 1);
    ck_assert_str_eq(out, "error: unknown command 'frobnicate'; nothing changed\n");
    ck_assert(ok && frame_is_input(&a));

    // Through `fxgl ctl`, with the socket found in XDG_RUNTIME_DIR.
    setenv("XDG_RUNTIME_DIR", tmpdir, 1);
    char *const on[] = {(char *)FXGL_SCRIPT_PATH, "ctl", "enable", "all", NULL};
    at = run_client(&a, c, on, &status, out, sizeof(out), &ok, false);
    ck_assert_msg(at >= 1 && ok, "enable all: not in effect in the frame that polled it");
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ck_assert_str_eq(out, "effects on (0 techniques re-enabled)\n");

    // The client refuses a socket of another user before connecting.
    if (getuid() == 0) {
        ck_assert_int_eq(chown(ip_control_path(c), 65534, 65534), 0);
        char *const other[] = {(char *)FXGL_CTL_PATH, "-s", (char *)ip_control_path(c),
                               "status", NULL};
        run_client(&a, c, other, &status, out, sizeof(out), &ok, false);
        ck_assert_int_eq(WEXITSTATUS(status), 2);
        ck_assert(!frame_is_input(&a)); // unchanged
        ck_assert_int_eq(chown(ip_control_path(c), 0, 0), 0);
    }
    ip_control_destroy(c);
    fxgl_inspect_destroy(a.in);
    fxgl_runtime_destroy(a.rt);
    fxgl_image_free(&a.input);
    fxgl_test_egl_destroy(a.egl);
    remove_tmpdir();
}
END_TEST

// KeyEffects (ip_control_toggle_effects, what the key calls) and `fxgl ctl` act on one
// state: after the key, the frame passes through and `status` says "effects off"; after
// `toggle` from the client, both are back on.
static void ip_frame_once(app *a, ip_inspect *i) {
    app_upload(a);
    fxgl_frame_desc d = {.width = W, .height = H, .framebuffer = a->fbo, .time = a->time};
    a->time += 0.016;
    ck_assert(ip_inspect_frame(i, a->rt, &d));
}

static void ip_client(app *a, ip_inspect *i, char *const argv[], char *out, size_t size) {
    int pipefd[2];
    ck_assert_int_eq(pipe(pipefd), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    int status, frames = 0;
    double end = now_ms() + CLIENT_WAIT_MS;
    while (waitpid(pid, &status, WNOHANG) != pid) {
        ip_frame_once(a, i);
        frames++;
        ck_assert_msg(now_ms() < end, "client not finished after %d frames", frames);
        usleep(2000);
    }
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    ssize_t n = read(pipefd[0], out, size - 1);
    out[n > 0 ? n : 0] = 0;
    close(pipefd[0]);
}

START_TEST(key_and_ctl_share_one_state) {
    make_tmpdir();
    setenv("XDG_RUNTIME_DIR", tmpdir, 1);
    char reason[512];
    app a;
    memset(&a, 0, sizeof(a));
    fxgl_test_egl_desc desc = {.api = FXGL_API_GL};
    a.egl = fxgl_test_egl_create(&desc, reason, sizeof(reason));
    ck_assert_msg(a.egl, "%s", reason);
    a.gl = fxgl_test_egl_gl(a.egl);
    a.gl->GenTextures(1, &a.color);
    a.gl->BindTexture(GL_TEXTURE_2D, a.color);
    a.gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, W, H);
    a.gl->GenFramebuffers(1, &a.fbo);
    a.gl->BindFramebuffer(GL_FRAMEBUFFER, a.fbo);
    a.gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a.color, 0);
    ck_assert(fxgl_image_alloc(&a.input, W, H));
    for (int i = 0; i < W * H * 4; i++) {
        a.input.pixels[i] = i % 4 == 3 ? 255 : (uint8_t)(i * 5);
    }
    a.rt = fxgl_runtime_create(a.gl, fxgl_test_egl_info(a.egl), NULL);
    ck_assert(a.rt);
    tfx_init(&inv, "Inv.fx", false);
    int tex = tfx_semantic(&inv, "ReShade::BackBufferTex", "COLOR");
    int smp = tfx_sampler(&inv, "ReShade::BackBuffer", tex, false, false);
    int ps = tfx_shader(&inv, FXGL_STAGE_PIXEL, "PS",
                        "uniform sampler2D Color;\nin vec2 uv;\n"
                        "layout(location = 0) out vec4 o;\n"
                        "void main() { o = vec4(1.0 - texture(Color, uv).rgb, 1.0); }\n");
    tfx_use_sampler(&inv, ps, smp, "Color");
    tfx_pass(&inv, tfx_technique(&inv, "Invert"), ps);
    fxgl_runtime_add_effect(a.rt, tfx_finish(&inv), NULL);
    ip_inspect *i = ip_inspect_create(a.rt, NULL); // opens the process's socket in tmpdir
    ck_assert(i);
    ip_frame_once(&a, i);
    ck_assert(!frame_is_input(&a));

    ip_control_toggle_effects(); // the key
    ip_frame_once(&a, i);
    ck_assert_msg(frame_is_input(&a), "KeyEffects did not turn the effects off in its frame");
    char out[512];
    char *const status[] = {(char *)FXGL_CTL_PATH, "status", NULL};
    ip_client(&a, i, status, out, sizeof(out));
    ck_assert_msg(strncmp(out, "effects off,", 12) == 0, "status after the key: %s", out);

    char *const toggle[] = {(char *)FXGL_CTL_PATH, "toggle", NULL};
    ip_client(&a, i, toggle, out, sizeof(out));
    ck_assert_str_eq(out, "effects on\n");
    ip_frame_once(&a, i);
    ck_assert(!frame_is_input(&a));
    ip_control_toggle_effects();
    ip_control_toggle_effects(); // twice in one frame: back where it was
    ip_frame_once(&a, i);
    ck_assert(!frame_is_input(&a));

    // `dump` without a file goes to the log at the default level, and says so.
    unsetenv("FXGL_LOG_FILE");
    char *const dump[] = {(char *)FXGL_CTL_PATH, "dump", NULL};
    ip_client(&a, i, dump, out, sizeof(out));
    ck_assert_str_eq(out, "dump written to the program's log (its standard error)\n");

    ip_inspect_destroy(i);
    fxgl_runtime_destroy(a.rt);
    fxgl_image_free(&a.input);
    fxgl_test_egl_destroy(a.egl);
    remove_tmpdir();
}
END_TEST

// With several programs, fxgl-ctl sends nothing and lists each with its process id and
// name (from /proc), not only socket paths.
START_TEST(several_programs_listed) {
    make_tmpdir();
    char mine[600], other[600];
    snprintf(mine, sizeof(mine), "%s/fxgl-%ld.sock", tmpdir, (long)getpid());
    snprintf(other, sizeof(other), "%s/fxgl-%ld.sock", tmpdir, (long)getppid());
    FILE *f = fopen(mine, "w");
    ck_assert(f && fclose(f) == 0);
    f = fopen(other, "w");
    ck_assert(f && fclose(f) == 0);
    char comm[64] = "";
    f = fopen("/proc/self/comm", "r");
    ck_assert(f && fgets(comm, sizeof(comm), f));
    fclose(f);
    comm[strcspn(comm, "\n")] = 0;
    char cmd[1200], text[2048] = "";
    snprintf(cmd, sizeof(cmd), "XDG_RUNTIME_DIR='%s' '%s' status 2>&1; echo \"exit $?\"",
             tmpdir, FXGL_CTL_PATH);
    FILE *p = popen(cmd, "r");
    ck_assert(p);
    size_t n = fread(text, 1, sizeof(text) - 1, p);
    text[n] = 0;
    pclose(p);
    char want[800];
    snprintf(want, sizeof(want), "  -p %ld  %s  %s\n", (long)getpid(), comm, mine);
    ck_assert_msg(strstr(text, "fxgl-ctl: several programs run fxgl; pick one with -p:\n"), "%s",
                  text);
    ck_assert_msg(strstr(text, want), "no line '%s' in:\n%s", want, text);
    ck_assert_msg(strstr(text, "exit 2\n"), "%s", text);
    remove(mine);
    remove(other);
    remove_tmpdir();
}
END_TEST

int main(void) {
    Suite *s = suite_create("control");
    TCase *tc = tcase_create("control");
    tcase_set_timeout(tc, 300); // bounds of its own inside: CLIENT_WAIT_MS a client
    tcase_add_test(tc, socket_place_and_refusals);
    tcase_add_test(tc, never_blocks_and_bad_lines);
    tcase_add_test(tc, keys_and_signal);
    tcase_add_test(tc, several_programs_listed);
    char reason[256];
    fxgl_test_egl *probe = fxgl_test_egl_create(&(fxgl_test_egl_desc){.api = FXGL_API_GL},
                                                reason, sizeof(reason));
    if (probe) {
        fxgl_test_egl_destroy(probe);
        tcase_add_test(tc, commands_take_effect);
        tcase_add_test(tc, key_and_ctl_share_one_state);
    } else {
        printf("SKIP part: no EGL context (%s): commands on a runtime not run\n", reason);
    }
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
