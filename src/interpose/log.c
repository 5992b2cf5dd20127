/*
 * log.c - the preloaded library's log sink.
 *
 * The host owns stderr; fxgl writes one line per notable event with a
 * "fxgl: " prefix, and nothing per frame (FXGL_LOG_ONCE). The configuration
 * is read once, under pthread_once, never in a constructor: reading the
 * environment is safe there, but opening files from a constructor of a
 * preloaded object runs before the host's own setup.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fxgl_interpose.h"

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static fxgl_log_level log_level = FXGL_LOG_WARN;
static FILE *log_file;           // owned when not stderr
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const level_names[] = {"error", "warn", "info", "debug"};

static void log_setup(void) {
    const char *level = getenv("FXGL_LOG");
    if (level && level[0]) {
        for (int i = 0; i < 4; i++) {
            if (strcasecmp(level, level_names[i]) == 0) {
                log_level = (fxgl_log_level)i;
            }
        }
        if (strcasecmp(level, "warning") == 0) {
            log_level = FXGL_LOG_WARN;
        }
    }
    const char *path = getenv("FXGL_LOG_FILE");
    if (path && path[0]) {
        // "a" with O_CLOEXEC: children the host spawns do not inherit it.
        log_file = fopen(path, "ae");
    }
}

void ip_log_init(void) {
    pthread_once(&log_once, log_setup);
}

void ip_log_configure(fxgl_log_level level, const char *file) {
    ip_log_init();
    pthread_mutex_lock(&log_lock);
    __atomic_store_n(&log_level, level, __ATOMIC_RELAXED); // read without the lock
    if (file && file[0] && !log_file) {
        log_file = fopen(file, "ae");
    }
    pthread_mutex_unlock(&log_lock);
}

bool ip_log_enabled(fxgl_log_level level) {
    ip_log_init();
    return level <= __atomic_load_n(&log_level, __ATOMIC_RELAXED);
}

// level < 0: a notice, no level word.
static void log_write(int level, const char *suffix, const char *fmt, va_list ap) {
    char line[2048];
    int n = level < 0 ? snprintf(line, sizeof(line), "fxgl: ")
                      : snprintf(line, sizeof(line), "fxgl: %s: ", level_names[level]);
    if (n < 0) {
        return;
    }
    vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
    pthread_mutex_lock(&log_lock);
    FILE *out = log_file ? log_file : stderr;
    fprintf(out, "%s%s\n", line, suffix ? suffix : "");
    fflush(out);
    pthread_mutex_unlock(&log_lock);
}

void fxgl_log_notice(const char *fmt, ...) {
    if (!ip_log_enabled(FXGL_LOG_WARN)) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    log_write(-1, NULL, fmt, ap);
    va_end(ap);
}

void fxgl_log(fxgl_log_level level, const char *fmt, ...) {
    if (!ip_log_enabled(level)) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    log_write(level, NULL, fmt, ap);
    va_end(ap);
}

void fxgl_log_errno(fxgl_log_level level, const char *fmt, ...) {
    int saved = errno;
    if (!ip_log_enabled(level)) {
        return;
    }
    char suffix[256];
    snprintf(suffix, sizeof(suffix), ": %s", strerror(saved));
    va_list ap;
    va_start(ap, fmt);
    log_write(level, suffix, fmt, ap);
    va_end(ap);
    errno = saved;
}
