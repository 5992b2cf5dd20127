/*
 * ctl.c - fxgl-ctl (and `fxgl ctl`): sends one control command to a
 * running program's fxgl and prints the reply.
 *
 *   fxgl-ctl [-p PID | -s SOCKET] COMMAND [ARGS...]
 *
 * Without -p/-s the socket is the only $XDG_RUNTIME_DIR/fxgl-*.sock of a
 * live process; with several, they are listed and nothing is sent. A
 * socket owned by another user is refused before connecting. Exit status:
 * 0 when the reply is not an error, 1 when it is, 2 for usage and
 * connection problems. The reply is waited for 3 seconds at most (the
 * program answers at its next frame).
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_WAIT_MS 3000

static void usage(FILE *f) {
    fprintf(f,
            "usage: fxgl-ctl [-p PID | -s SOCKET] COMMAND [ARGS...]\n"
            "commands: disable all | disable A.fx,B.fx/Technique | enable all | toggle |\n"
            "          reload | preset next | preset prev | preset /PATH.ini | performance |\n"
            "          visualise Effect.fx:Texture[@mip,channels,corner,slice=N,scale=X] |\n"
            "          visualise off |\n"
            "          overlay on|off|toggle | dump [FILE] | screenshot [both] | status |\n"
            "          depth | depth select N|auto | depth by draws|vertices |\n"
            "          depth aspect on|off | depth clear off|N\n");
}

// "  -p PID  NAME  SOCKET": the program's name from /proc, so a player can tell them apart.
static void print_program(long pid, const char *socket_path) {
    char path[64], name[64] = "?";
    snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fgets(name, sizeof(name), f)) {
            name[strcspn(name, "\n")] = 0;
        }
        fclose(f);
    }
    fprintf(stderr, "  -p %ld  %s  %s\n", pid, name, socket_path);
}

// The one live socket in dir; 0 found, 1 none, 2 several (listed).
static int find_socket(const char *dir, char *path, size_t size) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fxgl-ctl: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    int found = 0;
    char first[512] = "";
    long first_pid = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid;
        char tail[16];
        if (sscanf(e->d_name, "fxgl-%ld.%15s", &pid, tail) != 2 || strcmp(tail, "sock") != 0) {
            continue;
        }
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            continue; // left behind by a crash
        }
        if (found == 0) {
            snprintf(first, sizeof(first), "%s/%s", dir, e->d_name);
            first_pid = pid;
        } else {
            if (found == 1) {
                fprintf(stderr, "fxgl-ctl: several programs run fxgl; pick one with -p:\n");
                print_program(first_pid, first);
            }
            char other[512];
            snprintf(other, sizeof(other), "%s/%s", dir, e->d_name);
            print_program(pid, other);
        }
        found++;
    }
    closedir(d);
    if (found == 0) {
        fprintf(stderr, "fxgl-ctl: no program with fxgl's control socket in %s\n", dir);
        return 1;
    }
    if (found > 1) {
        return 2;
    }
    snprintf(path, size, "%s", first);
    return 0;
}

int main(int argc, char **argv) {
    const char *dir = getenv("XDG_RUNTIME_DIR");
    char path[108] = "";
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if ((strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-s") == 0) && i + 1 < argc) {
            if (argv[i][1] == 'p') {
                char *end;
                long pid = strtol(argv[i + 1], &end, 10);
                if (*end || pid <= 0 || !dir) {
                    fprintf(stderr, "fxgl-ctl: -p needs a process id and XDG_RUNTIME_DIR\n");
                    return 2;
                }
                snprintf(path, sizeof(path), "%s/fxgl-%ld.sock", dir, pid);
            } else if (strlen(argv[i + 1]) >= sizeof(path)) {
                fprintf(stderr, "fxgl-ctl: socket path too long\n");
                return 2;
            } else {
                snprintf(path, sizeof(path), "%s", argv[i + 1]);
            }
            i++;
            continue;
        }
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        fprintf(stderr, "fxgl-ctl: unknown option '%s'\n", argv[i]);
        usage(stderr);
        return 2;
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    if (!path[0]) {
        if (!dir) {
            fprintf(stderr, "fxgl-ctl: XDG_RUNTIME_DIR is not set\n");
            return 2;
        }
        if (find_socket(dir, path, sizeof(path)) != 0) {
            return 2;
        }
    }
    char line[512];
    size_t n = 0;
    for (; i < argc; i++) {
        int w = snprintf(line + n, sizeof(line) - n, "%s%s", n ? " " : "", argv[i]);
        if (w < 0 || (size_t)w >= sizeof(line) - n - 1) {
            fprintf(stderr, "fxgl-ctl: command too long\n");
            return 2;
        }
        n += (size_t)w;
    }
    line[n++] = '\n';
    struct stat st;
    if (lstat(path, &st) != 0) {
        fprintf(stderr, "fxgl-ctl: %s: %s\n", path, strerror(errno));
        return 2;
    }
    if (st.st_uid != getuid()) {
        fprintf(stderr, "fxgl-ctl: %s is owned by uid %u, not by you (uid %u): not connecting\n",
                path, (unsigned)st.st_uid, (unsigned)getuid());
        return 2;
    }
    if (!S_ISSOCK(st.st_mode)) {
        fprintf(stderr, "fxgl-ctl: %s is not a socket\n", path);
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, path, strlen(path) + 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
        fprintf(stderr, "fxgl-ctl: %s: %s\n", path, strerror(errno));
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (send(fd, line, n, 0) != (ssize_t)n) {
        fprintf(stderr, "fxgl-ctl: sending: %s\n", strerror(errno));
        return 2;
    }
    shutdown(fd, SHUT_WR);
    char reply[1024];
    size_t got = 0;
    while (got < sizeof(reply) - 1) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, CTL_WAIT_MS);
        if (r == 0) {
            fprintf(stderr, "fxgl-ctl: no reply within %d ms (is the program drawing frames?)\n",
                    CTL_WAIT_MS);
            return 2;
        }
        ssize_t k = r > 0 ? recv(fd, reply + got, sizeof(reply) - 1 - got, 0) : -1;
        if (k <= 0) {
            break;
        }
        got += (size_t)k;
        if (memchr(reply, '\n', got)) {
            break;
        }
    }
    close(fd);
    reply[got] = 0;
    if (got == 0) {
        fprintf(stderr, "fxgl-ctl: the program closed the connection without a reply\n");
        return 2;
    }
    fputs(reply, stdout);
    if (reply[got - 1] != '\n') {
        fputc('\n', stdout);
    }
    return strncmp(reply, "error:", 6) == 0 ? 1 : 0;
}
