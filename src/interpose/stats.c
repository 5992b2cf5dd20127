/*
 * stats.c - per-frame statistics as CSV, on request only:
 * FXGL_STATS=path.csv.
 *
 * One row per processed frame: frame index, CPU time swap-to-swap, the
 * effect runtime's CPU time, its GPU time (sum over techniques) and the
 * counts the runtime keeps (fxgl_runtime_stats), then one GPU time column
 * per technique ("Technique@File") and per pass ("Technique@File/pN"),
 * named in a header written on the first row. Rows start with the first
 * frame that has techniques (effects compile in the background, earlier
 * frames pass through), or with the first frame when no effect is wanted. When the set of techniques changes (a reload), a
 * new header line follows.
 *
 * Cost on the presenting thread: formatting one row into a fixed buffer.
 * Rows go into one of two 16 KiB buffers; a full one is handed to a writer
 * thread, which does the write(2), so no frame waits for the disk and no
 * frame allocates. The buffers are allocated once, at the first row. If the
 * writer falls behind (both buffers full), rows are dropped and counted,
 * never waited for. At exit the rest is written from the exiting thread.
 *
 * GPU times are the runtime's latest timer samples, which arrive a few
 * frames late (fxgl_runtime_last_gpu_ms): a row's GPU columns describe a
 * recent frame, not necessarily the row's own; -1 means no sample yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_gl.h"
#include "fxgl_interpose.h"

#define IP_STATS_BUFFER (16 * 1024)
#define IP_STATS_ROW_MAX (8 * 1024)  // a row never exceeds this (columns are capped)
#define IP_STATS_MAX_TIMERS 128      // technique + pass columns at most

typedef struct ip_stats_buffer {
    char data[IP_STATS_BUFFER];
    size_t used;
} ip_stats_buffer;

static struct {
    pthread_once_t once;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool on;                     // the file opened
    int fd;
    ip_stats_buffer *bufs;       // two: one filled by frames, one being written
    int filling;                 // index of the buffer frames write into
    bool pending;                // the other buffer is full and waits for the writer
    bool writer_started;
    uint64_t frame;              // rows written
    uint64_t dropped;
    double last_swap;            // monotonic seconds of the previous frame, 0: none
    size_t columns_techniques;   // technique count of the current header
    size_t columns_timers;       // timer columns of the current header
    char row[IP_STATS_ROW_MAX];
} st = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER,
        .wake = PTHREAD_COND_INITIALIZER, .fd = -1};

static void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            FXGL_LOG_ONCE(FXGL_LOG_WARN, "FXGL_STATS: write failed: %s", strerror(errno));
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

// The writer: waits for a full buffer, writes it outside the lock.
static void *writer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&st.lock);
    for (;;) {
        while (!st.pending) {
            pthread_cond_wait(&st.wake, &st.lock);
        }
        ip_stats_buffer *b = &st.bufs[1 - st.filling];
        pthread_mutex_unlock(&st.lock);
        write_all(st.fd, b->data, b->used);
        pthread_mutex_lock(&st.lock);
        b->used = 0;
        st.pending = false;
    }
    return NULL;
}

// At exit: what is buffered, from the exiting thread, after the writer
// finished the buffer it holds (waited for at most a second).
static void flush_at_exit(void) {
    pthread_mutex_lock(&st.lock);
    if (st.on) {
        struct timespec ts = {0, 1000000};
        for (int i = 0; i < 1000 && st.pending; i++) {
            pthread_mutex_unlock(&st.lock);
            nanosleep(&ts, NULL);
            pthread_mutex_lock(&st.lock);
        }
        ip_stats_buffer *b = &st.bufs[st.filling];
        write_all(st.fd, b->data, b->used);
        b->used = 0;
        if (st.dropped) {
            char line[96];
            int n = snprintf(line, sizeof(line), "# %llu rows dropped (writer behind)\n",
                             (unsigned long long)st.dropped);
            write_all(st.fd, line, (size_t)n);
        }
        st.on = false;
    }
    pthread_mutex_unlock(&st.lock);
}

static void setup(void) {
    const char *path = ip_config_get()->stats;
    if (!path[0]) {
        return;
    }
    st.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (st.fd < 0) {
        fxgl_log(FXGL_LOG_WARN, "FXGL_STATS: cannot open '%s': %s; no statistics", path,
                 strerror(errno));
        return;
    }
    st.bufs = calloc(2, sizeof(*st.bufs));
    if (!st.bufs) {
        FXGL_LOG_ONCE(FXGL_LOG_WARN, "FXGL_STATS: out of memory; no statistics");
        return;
    }
    st.on = true;
    atexit(flush_at_exit);
    fxgl_log(FXGL_LOG_INFO, "frame statistics to '%s'", path);
}

bool ip_stats_wanted(void) {
    pthread_once(&st.once, setup);
    return st.on;
}

// Appends printf output to the row at *len; false when the row is full.
static bool add(size_t *len, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool add(size_t *len, const char *fmt, ...) {
    if (*len >= sizeof(st.row)) {
        return false;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(st.row + *len, sizeof(st.row) - *len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(st.row) - *len) {
        *len = sizeof(st.row);
        return false;
    }
    *len += (size_t)n;
    return true;
}

// A CSV field: names with commas or quotes are quoted.
static bool add_name(size_t *len, const char *name, const char *file, int pass) {
    bool quote = strpbrk(name, ",\"") || strpbrk(file, ",\"");
    if (!add(len, quote ? ",\"gpu_ms:" : ",gpu_ms:")) {
        return false;
    }
    for (const char *s = name; *s; s++) {
        if (!add(len, *s == '"' ? "\"\"" : "%c", *s)) {
            return false;
        }
    }
    if (!add(len, "@")) {
        return false;
    }
    for (const char *s = file; *s; s++) {
        if (!add(len, *s == '"' ? "\"\"" : "%c", *s)) {
            return false;
        }
    }
    if (pass >= 0 && !add(len, "/p%d", pass)) {
        return false;
    }
    return add(len, quote ? "\"" : "");
}

static const char header_fixed[] =
    "frame,frame_ms,effect_cpu_ms,effect_gpu_ms,draw_calls,dispatches,gl_calls,"
    "framebuffer_binds,texture_binds,barriers,app_draw_calls";

// Queues the row (under st.lock): into the filling buffer, swapping to the
// other when it is full and free.
static void queue(size_t len) {
    ip_stats_buffer *b = &st.bufs[st.filling];
    if (b->used + len > sizeof(b->data)) {
        if (st.pending) {
            st.dropped++; // the writer is behind: never wait on a frame
            return;
        }
        st.pending = true;
        st.filling = 1 - st.filling;
        if (!st.writer_started) {
            pthread_t t;
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            st.writer_started = pthread_create(&t, &attr, writer, NULL) == 0;
            pthread_attr_destroy(&attr);
            if (!st.writer_started) {
                // No thread: write here, once, rather than lose the rows.
                ip_stats_buffer *full = &st.bufs[1 - st.filling];
                write_all(st.fd, full->data, full->used);
                full->used = 0;
                st.pending = false;
            }
        }
        pthread_cond_signal(&st.wake);
        b = &st.bufs[st.filling];
    }
    memcpy(b->data + b->used, st.row, len);
    b->used += len;
}

void ip_stats_frame(struct fxgl_runtime *fx, bool effects_coming, uint64_t app_draws,
                    bool count_app_draws) {
    if (!ip_stats_wanted()) {
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double now = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    pthread_mutex_lock(&st.lock);
    if (!st.on) {
        pthread_mutex_unlock(&st.lock);
        return;
    }
    size_t n = fx ? fxgl_runtime_technique_count(fx) : 0;
    size_t timers = 0;
    for (size_t i = 0; i < n; i++) {
        fxgl_technique_info t;
        if (fxgl_runtime_technique(fx, i, &t)) {
            timers += 1 + t.pass_count;
        }
    }
    if (timers > IP_STATS_MAX_TIMERS) {
        FXGL_LOG_ONCE(FXGL_LOG_INFO, "FXGL_STATS: %zu timer columns, only the first %d written",
                      timers, IP_STATS_MAX_TIMERS);
        timers = IP_STATS_MAX_TIMERS;
    }
    if (st.frame == 0 && n == 0 && effects_coming) {
        // Effects compile in the background and the first frames pass
        // through: the file starts with the first frame that has techniques,
        // so its header names them. A program whose preset enables nothing
        // (effects_coming false) gets rows from its first frame: its frame
        // times are the baseline a benchmark compares with (bench/vs_vulkan.sh).
        st.last_swap = now;
        pthread_mutex_unlock(&st.lock);
        return;
    }
    size_t len = 0;
    if (st.frame == 0 || n != st.columns_techniques || timers != st.columns_timers) {
        st.columns_techniques = n;
        st.columns_timers = timers;
        add(&len, "%s", header_fixed);
        size_t k = 0;
        for (size_t i = 0; i < n && k < timers; i++) {
            fxgl_technique_info t;
            if (!fxgl_runtime_technique(fx, i, &t)) {
                continue;
            }
            add_name(&len, t.name, t.file, -1);
            k++;
            for (size_t p = 0; p < t.pass_count && k < timers; p++, k++) {
                add_name(&len, t.name, t.file, (int)p);
            }
        }
        add(&len, "\n");
        if (len >= sizeof(st.row)) {
            FXGL_LOG_ONCE(FXGL_LOG_WARN, "FXGL_STATS: header too long; no statistics");
            pthread_mutex_unlock(&st.lock);
            return;
        }
        queue(len);
        len = 0;
    }
    const fxgl_runtime_stats *s = fx ? fxgl_runtime_stats_get(fx) : NULL;
    fxgl_runtime_stats zero = {0};
    if (!s) {
        s = &zero;
    }
    double frame_ms = st.last_swap > 0 ? (now - st.last_swap) * 1000.0 : 0.0;
    st.last_swap = now;
    // The technique sum: latest samples of those that ran this frame.
    double gpu = 0;
    for (size_t i = 0; i < n; i++) {
        double g = fxgl_runtime_last_gpu_ms(fx, i, FXGL_WHOLE_TECHNIQUE);
        gpu += g > 0 ? g : 0;
    }
    add(&len, "%llu,%.4f,%.4f,%.4f,%u,%u,%u,%u,%u,%u,", (unsigned long long)st.frame, frame_ms,
        s->cpu_ms, gpu, s->draw_calls, s->dispatches, s->gl_calls, s->framebuffer_binds,
        s->texture_binds, s->barriers);
    if (count_app_draws) {
        add(&len, "%llu", (unsigned long long)app_draws);
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k < timers; i++) {
        fxgl_technique_info t;
        if (!fxgl_runtime_technique(fx, i, &t)) {
            continue;
        }
        add(&len, ",%.4f", fxgl_runtime_last_gpu_ms(fx, i, FXGL_WHOLE_TECHNIQUE));
        k++;
        for (size_t p = 0; p < t.pass_count && k < timers; p++, k++) {
            add(&len, ",%.4f", fxgl_runtime_last_gpu_ms(fx, i, p));
        }
    }
    add(&len, "\n");
    if (len < sizeof(st.row)) {
        queue(len);
    }
    st.frame++;
    pthread_mutex_unlock(&st.lock);
}
