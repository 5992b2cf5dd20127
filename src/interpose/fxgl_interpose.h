/*
 * fxgl_interpose.h - the preloaded library's own module (src/interpose).
 *
 * src/interpose is the only place that knows about processes, GLX, EGL,
 * dlsym and input, and the only place with mutable globals (one table of
 * runtimes per share group, the log sink). It exports nothing but the hook
 * names (exports.map); everything here has hidden visibility.
 *
 * This first part is the log: one line per notable event, a level chosen
 * by FXGL_LOG (error, warn, info, debug), stderr or the file FXGL_LOG_FILE.
 * The environment is read once.
 */
#ifndef FXGL_INTERPOSE_H
#define FXGL_INTERPOSE_H

#include <stdbool.h>

#define FXGL_INTERNAL __attribute__((visibility("hidden")))

typedef enum fxgl_log_level {
    FXGL_LOG_ERROR,
    FXGL_LOG_WARN,
    FXGL_LOG_INFO,
    FXGL_LOG_DEBUG,
} fxgl_log_level;

// The version string of this build ("fxgl 0.1.0").
FXGL_INTERNAL const char *ip_version(void);

// Reads FXGL_LOG and FXGL_LOG_FILE (once; later calls do nothing).
FXGL_INTERNAL void ip_log_init(void);
FXGL_INTERNAL bool ip_log_enabled(fxgl_log_level level);
FXGL_INTERNAL void fxgl_log(fxgl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
// Like fxgl_log with ": strerror(errno)" appended.
FXGL_INTERNAL void fxgl_log_errno(fxgl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Logs at most once per call site: anything that could repeat every frame.
#define FXGL_LOG_ONCE(level, ...)                                                        \
    do {                                                                                 \
        static int fxgl_log_once_done_;                                                  \
        if (!__atomic_exchange_n(&fxgl_log_once_done_, 1, __ATOMIC_RELAXED)) {           \
            fxgl_log(level, __VA_ARGS__);                                                \
        }                                                                                \
    } while (0)

#endif // FXGL_INTERPOSE_H
