/*
 * xvfb.c - starts and stops a private Xvfb for GLX and X11 tests.
 *
 * Xvfb chooses a free display itself and writes its number to the file
 * descriptor given with -displayfd once it accepts connections, so there is
 * no racing over lock files and no sleeping: the test reads that pipe with a
 * timeout, and a server that never comes up is a skip, not a hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "fxgl_test.h"

static const char *xvfb_path(void) {
    const char *env = getenv("FXGL_XVFB");
    if (env && env[0]) {
        return env;
    }
    return FXGL_XVFB[0] ? FXGL_XVFB : "Xvfb";
}

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

bool fxgl_test_xvfb_start(fxgl_test_xvfb *x, int width, int height, int timeout_ms,
                          char *reason, size_t reason_size) {
    memset(x, 0, sizeof(*x));
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(reason, reason_size, "pipe: %s", strerror(errno));
        return false;
    }
    char fdarg[16], screen[32];
    snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
    snprintf(screen, sizeof(screen), "%dx%dx24", width, height);
    const char *path = xvfb_path();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(reason, reason_size, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        // A test killed before it can stop its server (a timeout, a crash
        // with CK_NOFORK) must not leave it running: an orphaned server holds
        // a display number and memory for every later run on the machine.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) {
            _exit(127);
        }
        // The write end must survive exec; everything else is close-on-exec.
        fcntl(fds[1], F_SETFD, 0);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            if (!getenv("FXGL_TEST_XVFB_VERBOSE")) {
                dup2(devnull, 2);
            }
        }
        execlp(path, path, "-displayfd", fdarg, "-screen", "0", screen, "-nolisten", "tcp",
               "-noreset", "+extension", "GLX", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char buf[32] = {0};
    size_t got = 0;
    long deadline = now_ms() + timeout_ms;
    while (got < sizeof(buf) - 1) {
        long left = deadline - now_ms();
        if (left <= 0) {
            break;
        }
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        ssize_t n = read(fds[0], buf + got, sizeof(buf) - 1 - got);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
        if (memchr(buf, '\n', got)) {
            break;
        }
    }
    close(fds[0]);
    if (!memchr(buf, '\n', got)) {
        int status = 0;
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            snprintf(reason, reason_size, "%s not found (apt-get install xvfb)", path);
        } else {
            snprintf(reason, reason_size, "%s did not report a display within %d ms", path,
                     timeout_ms);
        }
        return false;
    }
    x->pid = (int)pid;
    x->display = atoi(buf);
    snprintf(x->display_name, sizeof(x->display_name), ":%d", x->display);
    setenv("DISPLAY", x->display_name, 1);
    return true;
}

void fxgl_test_xvfb_stop(fxgl_test_xvfb *x) {
    if (x->pid <= 0) {
        return;
    }
    kill(x->pid, SIGTERM);
    int status;
    for (int i = 0; i < 200; i++) {
        if (waitpid(x->pid, &status, WNOHANG) == x->pid) {
            x->pid = 0;
            return;
        }
        usleep(10000);
    }
    kill(x->pid, SIGKILL);
    waitpid(x->pid, &status, 0);
    x->pid = 0;
}
