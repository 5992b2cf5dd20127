/*
 * preset_internal.h - what the files of src/preset share and nobody else sees.
 *
 * One section per file. Names follow the module-plus-file rule (preset_ini_*, preset_keys_*).
 * The I/O table lets tests make an atomic save fail at each step (we run as root in CI,
 * where a read-only directory does not stop anything).
 */
#ifndef FXGL_PRESET_INTERNAL_H
#define FXGL_PRESET_INTERNAL_H

#include "fxgl_preset.h"

#include <stdarg.h>
#include <sys/types.h>

#define FXGL_INTERNAL __attribute__((visibility("hidden")))

// --- ini.c ---

// The system calls an atomic save makes; a test replaces one to fail it.
typedef struct preset_ini_io {
    int (*open)(const char *path, int flags, mode_t mode);
    ssize_t (*write)(int fd, const void *buf, size_t len);
    int (*fsync)(int fd);
    int (*rename)(const char *from, const char *to);
} preset_ini_io;

FXGL_INTERNAL bool preset_ini_save_with(fxgl_ini *ini, const char *path,
                                        const fxgl_preset_sink *sink,
                                        const preset_ini_io *io);

// Sends `message` for file/line to sink (printf-style); does nothing without a sink.
FXGL_INTERNAL void preset_diagf(const fxgl_preset_sink *sink, fxgl_preset_severity severity,
                                const char *file, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

// Locale-independent number conversions: a game may have set LC_NUMERIC to a comma locale.
// The parsers return false when the text is not entirely one number (spaces around it are
// allowed); *out still gets the reference's strtol/strtod reading of the prefix.
FXGL_INTERNAL bool preset_parse_long(const char *text, long *out);
FXGL_INTERNAL bool preset_parse_ulong(const char *text, unsigned long *out);
FXGL_INTERNAL bool preset_parse_float(const char *text, float *out);
FXGL_INTERNAL void preset_format_float(float value, char *buf, size_t size);

// (stat identity of a file: used to refuse saving over a file changed since it was read)
typedef struct preset_file_stamp {
    bool exists;                 // the file existed when stamped
    dev_t dev;
    ino_t ino;
    off_t size;
    long long mtime_ns;
} preset_file_stamp;

FXGL_INTERNAL preset_file_stamp preset_ini_stamp(const fxgl_ini *ini);
FXGL_INTERNAL bool preset_ini_load_failed(const fxgl_ini *ini);
FXGL_INTERNAL preset_file_stamp preset_stamp_path(const char *path);
FXGL_INTERNAL bool preset_stamp_equal(const preset_file_stamp *a, const preset_file_stamp *b);

FXGL_INTERNAL char *preset_strdup(const char *s);
FXGL_INTERNAL char *preset_strndup(const char *s, size_t len);

// --- order.c ---

// "Name@File.fx" into buf; false when it does not fit.
FXGL_INTERNAL bool preset_order_unique_name(const char *name, const char *file, char *buf,
                                            size_t size);

#endif // FXGL_PRESET_INTERNAL_H
