/*
 * diskcache.c - the on-disk cache of compiled effects and program binaries (see
 * fxgl_diskcache.h for what is stored and how it is validated).
 *
 * An entry file: a 40-byte header (magic, format version, kind, key, payload length,
 * payload checksum) and the payload. Module payloads start with their manifest (the files
 * read with size and content hash, then the preset values performance mode baked in) and
 * end with fxgl_effect_serialize's bytes. Hashes are 64-bit FNV-1a: this is a cache on the
 * user's own disk, guarding against staleness and damage, not against an adversary (who
 * could write the user's effect files as easily).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE // dladdr
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fxgl_diskcache.h"

#define ENTRY_MAGIC "FXGLCach"
#define ENTRY_FORMAT 1u
#define HEADER_SIZE 40u
#define KIND_MODULE 1u
#define KIND_BINARY 2u

struct fxgl_diskcache {
    char *dir;
    uint64_t limit;
    fxgl_preset_sink sink;
    pthread_mutex_t lock;        // guards the fields below
    bool dir_made;               // mkdir -p done
    bool write_off;              // a write failed: no more (warned once)
    uint64_t written_since_scan; // bytes written since the last eviction scan
    bool scanned;                // one scan per process at the first write at least
    unsigned tmp_serial;         // temporary names unique within the process
    atomic_uint module_hits, module_misses, module_stale;
    atomic_uint writes, write_failures, evicted;
};

#define FNV_SEED 0xcbf29ce484222325ull // FNV-1a's offset basis

static uint64_t fnv1a(uint64_t hash, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

static uint64_t hash_str(uint64_t h, const char *s) {
    // With its NUL, so that ("ab", "c") and ("a", "bc") differ.
    return s ? fnv1a(h, s, strlen(s) + 1) : fnv1a(h, "\xff", 1);
}

static uint64_t hash_u64(uint64_t h, uint64_t v) { return fnv1a(h, &v, sizeof(v)); }

// --- this build's identity ---
//
// The version number alone would let a development build read modules an older emitter
// wrote; the size and time of the object this code lives in change with every rebuild.

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static uint64_t identity;

static void make_identity(void) {
    uint64_t h = hash_str(FNV_SEED, PACKAGE_VERSION);
    h = hash_u64(h, FXGL_EFFECT_SERIAL_VERSION);
    h = hash_u64(h, ENTRY_FORMAT);
    Dl_info info;
    struct stat st;
    if (dladdr((void *)&make_identity, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0) {
        h = hash_str(h, info.dli_fname);
        h = hash_u64(h, (uint64_t)st.st_size);
        h = hash_u64(h, (uint64_t)st.st_mtim.tv_sec);
        h = hash_u64(h, (uint64_t)st.st_mtim.tv_nsec);
    }
    identity = h;
}

static uint64_t build_identity(void) {
    pthread_once(&identity_once, make_identity);
    return identity;
}

// --- create / destroy / stats ---

bool fxgl_diskcache_disabled(const char *dir) {
    return dir == NULL || dir[0] == '\0' || strcmp(dir, "off") == 0;
}

fxgl_diskcache *fxgl_diskcache_create(const fxgl_diskcache_desc *desc) {
    if (desc == NULL || fxgl_diskcache_disabled(desc->dir)) {
        return NULL;
    }
    fxgl_diskcache *c = calloc(1, sizeof(*c));
    if (c == NULL || (c->dir = strdup(desc->dir)) == NULL || pthread_mutex_init(&c->lock, NULL)) {
        if (c != NULL) {
            free(c->dir);
        }
        free(c);
        return NULL;
    }
    c->limit = desc->limit_bytes ? desc->limit_bytes : FXGL_DISKCACHE_DEFAULT_LIMIT;
    c->sink = desc->sink;
    return c;
}

void fxgl_diskcache_destroy(fxgl_diskcache *c) {
    if (c == NULL) {
        return;
    }
    pthread_mutex_destroy(&c->lock);
    free(c->dir);
    free(c);
}

fxgl_diskcache_stats fxgl_diskcache_get_stats(const fxgl_diskcache *cc) {
    fxgl_diskcache_stats s = {0};
    fxgl_diskcache *c = (fxgl_diskcache *)cc; // atomics are read, not changed
    if (c != NULL) {
        s.module_hits = atomic_load(&c->module_hits);
        s.module_misses = atomic_load(&c->module_misses);
        s.module_stale = atomic_load(&c->module_stale);
        s.writes = atomic_load(&c->writes);
        s.write_failures = atomic_load(&c->write_failures);
        s.evicted = atomic_load(&c->evicted);
    }
    return s;
}

// --- files ---

static void entry_path(const fxgl_diskcache *c, unsigned kind, uint64_t key, char *out,
                       size_t size) {
    snprintf(out, size, "%s/%c-%016llx", c->dir, kind == KIND_MODULE ? 'm' : 'p',
             (unsigned long long)key);
}

static bool read_all(const char *path, uint8_t **data, size_t *len, size_t limit) {
    *data = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= limit;
    uint8_t *buf = ok ? malloc((size_t)st.st_size + 1) : NULL;
    size_t got = 0;
    while (buf != NULL && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    if (buf == NULL || got != (size_t)st.st_size) {
        free(buf);
        return false;
    }
    *data = buf;
    *len = got;
    return true;
}

static uint64_t get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static void set_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

// Reads an entry and checks its frame; *payload points into *file (free that).
static bool load_entry(fxgl_diskcache *c, unsigned kind, uint64_t key, uint8_t **file,
                       const uint8_t **payload, size_t *payload_len, bool *present) {
    char path[4096];
    entry_path(c, kind, key, path, sizeof(path));
    size_t len;
    *present = false;
    if (!read_all(path, file, &len, c->limit)) {
        return false;
    }
    *present = true;
    const uint8_t *f = *file;
    if (len < HEADER_SIZE || memcmp(f, ENTRY_MAGIC, 8) != 0 || get_u32(f + 8) != ENTRY_FORMAT ||
        get_u32(f + 12) != kind || get_u64(f + 16) != key ||
        get_u64(f + 24) != len - HEADER_SIZE ||
        get_u64(f + 32) != fnv1a(FNV_SEED, f + HEADER_SIZE,
                                               len - HEADER_SIZE)) {
        free(*file);
        *file = NULL;
        return false;
    }
    // Least recently used is least recently touched: a hit renews the entry's time.
    utimensat(AT_FDCWD, path, NULL, 0);
    *payload = f + HEADER_SIZE;
    *payload_len = len - HEADER_SIZE;
    return true;
}

static bool mkdir_p(const char *dir) {
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof(path)) {
        return false;
    }
    memcpy(path, dir, n + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0700) != 0 && errno != EEXIST) {
                return false;
            }
            *p = '/';
        }
    }
    struct stat st;
    return (mkdir(path, 0700) == 0 || errno == EEXIST) && stat(path, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

typedef struct aged_file {
    char name[64];
    off_t size;
    struct timespec mtime;
} aged_file;

static int older_first(const void *a, const void *b) {
    const aged_file *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec) {
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    }
    return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec > y->mtime.tv_nsec;
}

// Removes the least recently used entries until the folder is back under three quarters
// of the limit (so that the next scan is some writes away), and temporary files an
// interrupted writer left over an hour ago. Runs on the writing thread: the reload worker.
static void evict(fxgl_diskcache *c) {
    DIR *d = opendir(c->dir);
    if (d == NULL) {
        return;
    }
    aged_file *files = NULL;
    size_t count = 0, cap = 0;
    uint64_t total = 0;
    time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *n = de->d_name;
        bool entry = (n[0] == 'm' || n[0] == 'p') && n[1] == '-' && strlen(n) == 18;
        bool tmp = strncmp(n, ".tmp-", 5) == 0;
        struct stat st;
        if ((!entry && !tmp) || strlen(n) >= sizeof(files->name) ||
            fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
            continue;
        }
        if (tmp) {
            if (now - st.st_mtim.tv_sec > 3600) {
                unlinkat(dirfd(d), n, 0);
            }
            continue;
        }
        if (count == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            aged_file *nf = realloc(files, ncap * sizeof(*nf));
            if (nf == NULL) {
                break;
            }
            files = nf;
            cap = ncap;
        }
        snprintf(files[count].name, sizeof(files[count].name), "%s", n);
        files[count].size = st.st_size;
        files[count].mtime = st.st_mtim;
        total += (uint64_t)st.st_size;
        count++;
    }
    if (total > c->limit) {
        qsort(files, count, sizeof(*files), older_first);
        for (size_t i = 0; i < count && total > c->limit / 4 * 3; i++) {
            if (unlinkat(dirfd(d), files[i].name, 0) == 0) {
                total -= (uint64_t)files[i].size;
                atomic_fetch_add(&c->evicted, 1);
            }
        }
    }
    closedir(d);
    free(files);
}

static void write_failed(fxgl_diskcache *c, const char *what, int err) {
    atomic_fetch_add(&c->write_failures, 1);
    pthread_mutex_lock(&c->lock);
    bool first = !c->write_off;
    c->write_off = true;
    pthread_mutex_unlock(&c->lock);
    if (first && c->sink.fn != NULL) {
        char msg[4400];
        snprintf(msg, sizeof(msg), "the compile cache %s: %s (%s); compiles are not cached "
                 "in this process", what, c->dir, strerror(err));
        c->sink.fn(c->sink.user, &(fxgl_preset_diag){.severity = FXGL_PRESET_WARNING,
                                                     .file = "",
                                                     .message = msg});
    }
}

// Writes header + the parts as one entry: a temporary file in the folder, renamed over
// the entry (atomic on a POSIX file system: readers see the old file or the new one).
static void store_entry(fxgl_diskcache *c, unsigned kind, uint64_t key, const void *const *parts,
                        const size_t *sizes, int nparts) {
    // Only module writes (the compile worker's) scan for eviction: binaries may be
    // written where a program is built, the presenting thread included.
    bool may_scan = kind == KIND_MODULE;
    pthread_mutex_lock(&c->lock);
    bool off = c->write_off;
    bool made = c->dir_made;
    unsigned serial = ++c->tmp_serial;
    pthread_mutex_unlock(&c->lock);
    if (off) {
        return;
    }
    if (!made) {
        if (!mkdir_p(c->dir)) {
            write_failed(c, "folder cannot be created", errno);
            return;
        }
        pthread_mutex_lock(&c->lock);
        c->dir_made = true;
        pthread_mutex_unlock(&c->lock);
    }
    uint64_t total = 0, sum = FNV_SEED;
    for (int i = 0; i < nparts; i++) {
        sum = fnv1a(sum, parts[i], sizes[i]);
        total += sizes[i];
    }
    if (total + HEADER_SIZE > c->limit) {
        return; // never kept: not worth the write
    }
    uint8_t header[HEADER_SIZE];
    memcpy(header, ENTRY_MAGIC, 8);
    set_u32(header + 8, ENTRY_FORMAT);
    set_u32(header + 12, kind);
    set_u64(header + 16, key);
    set_u64(header + 24, total);
    set_u64(header + 32, sum);
    char tmp[4200], path[4096];
    entry_path(c, kind, key, path, sizeof(path));
    snprintf(tmp, sizeof(tmp), "%s/.tmp-%ld-%u-%016llx", c->dir, (long)getpid(), serial,
             (unsigned long long)key);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        write_failed(c, "folder is not writable", errno);
        return;
    }
    bool ok = true;
    for (int i = -1; i < nparts && ok; i++) {
        const uint8_t *p = i < 0 ? header : parts[i];
        size_t left = i < 0 ? HEADER_SIZE : sizes[i];
        while (left > 0) {
            ssize_t n = write(fd, p, left);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                ok = false;
                break;
            }
            p += n;
            left -= (size_t)n;
        }
    }
    int err = errno;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        err = ok ? errno : err;
        unlink(tmp);
        write_failed(c, "entry cannot be written", err);
        return;
    }
    atomic_fetch_add(&c->writes, 1);
    pthread_mutex_lock(&c->lock);
    c->written_since_scan += total + HEADER_SIZE;
    bool scan = may_scan && (!c->scanned || c->written_since_scan > c->limit / 8);
    if (scan) {
        c->scanned = true;
        c->written_since_scan = 0;
        evict(c); // under the lock: one scan at a time in this process
    }
    pthread_mutex_unlock(&c->lock);
}

// --- modules ---

// One value performance mode asked the preset for: what it asked with and what it got.
typedef struct baked_value {
    char *uniform;
    fxgl_value asked;
    bool taken;                  // the callback's result
    fxgl_value got;
} baked_value;

typedef struct recorder {
    const fxgl_compile_desc *desc;
    baked_value *items;
    size_t count, cap;
    bool failed;                 // out of memory: the result is not stored
} recorder;

static bool record_value(void *user, const char *uniform, fxgl_value *value) {
    recorder *r = user;
    fxgl_value asked = *value;
    bool taken = r->desc->uniform_value(r->desc->user, uniform, value);
    if (r->count == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 16;
        baked_value *n = realloc(r->items, ncap * sizeof(*n));
        if (n == NULL) {
            r->failed = true;
            return taken;
        }
        r->items = n;
        r->cap = ncap;
    }
    baked_value *b = &r->items[r->count];
    b->uniform = strdup(uniform);
    if (b->uniform == NULL) {
        r->failed = true;
        return taken;
    }
    b->asked = asked;
    b->taken = taken;
    b->got = *value;
    r->count++;
    return taken;
}

static uint64_t module_key(const fxgl_compile_desc *d) {
    uint64_t h = hash_u64(FNV_SEED, build_identity());
    h = hash_str(h, "module");
    h = hash_str(h, d->path);
    bool relative = d->path[0] != '/';
    h = hash_u64(h, d->include_path_count);
    for (size_t i = 0; i < d->include_path_count; i++) {
        h = hash_str(h, d->include_paths[i]);
        relative |= d->include_paths[i][0] != '/';
    }
    if (relative) {
        // Relative paths resolve against the working folder.
        char cwd[4096];
        h = hash_str(h, getcwd(cwd, sizeof(cwd)) ? cwd : "?");
    }
    h = hash_u64(h, d->define_count);
    for (size_t i = 0; i < d->define_count; i++) {
        h = hash_str(h, d->defines[i].name);
        h = hash_str(h, d->defines[i].value ? d->defines[i].value : "");
    }
    h = hash_u64(h, (uint64_t)d->target);
    h = hash_u64(h, d->performance_mode);
    h = hash_u64(h, d->uniform_value != NULL);
    return h;
}

// The content hash of a file (and its size), false when it cannot be read.
static bool hash_file(const char *path, uint64_t *size, uint64_t *hash) {
    uint8_t *data;
    size_t len;
    if (!read_all(path, &data, &len, 1u << 30)) {
        return false;
    }
    *size = len;
    *hash = fnv1a(FNV_SEED, data, len);
    free(data);
    return true;
}

// A bounds-checked reader of the manifest.
typedef struct cursor {
    const uint8_t *p;
    size_t left;
    bool bad;
} cursor;

static const uint8_t *take(cursor *c, size_t n) {
    if (c->bad || c->left < n) {
        c->bad = true;
        return NULL;
    }
    const uint8_t *p = c->p;
    c->p += n;
    c->left -= n;
    return p;
}

static uint32_t take_u32(cursor *c) {
    const uint8_t *p = take(c, 4);
    return p ? get_u32(p) : 0;
}

static uint64_t take_u64(cursor *c) {
    const uint8_t *p = take(c, 8);
    return p ? get_u64(p) : 0;
}

static void take_value(cursor *c, fxgl_value *v) {
    *v = (fxgl_value){0};
    v->scalar = (fxgl_scalar)take_u32(c);
    v->count = (int)take_u32(c);
    for (int i = 0; i < 16; i++) {
        v->u[i] = take_u32(c);
    }
}

// Whether every file listed still has its content and every baked value is still what
// the preset gives; *module is what follows the manifest.
static bool manifest_holds(const fxgl_compile_desc *d, const uint8_t *payload, size_t len,
                           const uint8_t **module, size_t *module_len) {
    cursor c = {payload, len, false};
    uint32_t files = take_u32(&c);
    for (uint32_t i = 0; i < files && !c.bad; i++) {
        uint32_t n = take_u32(&c);
        const uint8_t *name = take(&c, n);
        uint64_t size = take_u64(&c), hash = take_u64(&c);
        if (c.bad || n == 0 || n >= 4096) {
            return false;
        }
        char path[4096];
        memcpy(path, name, n);
        path[n] = '\0';
        uint64_t now_size, now_hash;
        if (!hash_file(path, &now_size, &now_hash) || now_size != size || now_hash != hash) {
            return false;
        }
    }
    uint32_t values = take_u32(&c);
    for (uint32_t i = 0; i < values && !c.bad; i++) {
        uint32_t n = take_u32(&c);
        const uint8_t *name = take(&c, n);
        fxgl_value asked, got, now;
        take_value(&c, &asked);
        bool taken = take_u32(&c) != 0;
        take_value(&c, &got);
        if (c.bad || n == 0 || n >= 1024 || d->uniform_value == NULL) {
            return false;
        }
        char uniform[1024];
        memcpy(uniform, name, n);
        uniform[n] = '\0';
        now = asked;
        bool now_taken = d->uniform_value(d->user, uniform, &now);
        if (now_taken != taken ||
            (taken && (now.count != got.count || memcmp(now.u, got.u, sizeof(now.u)) != 0))) {
            return false;
        }
    }
    if (c.bad) {
        return false;
    }
    *module = c.p;
    *module_len = c.left;
    return true;
}

typedef struct grow {
    uint8_t *data;
    size_t len, cap;
    bool failed;
} grow;

static void add(grow *g, const void *p, size_t n) {
    if (g->failed) {
        return;
    }
    if (g->len + n > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        while (cap < g->len + n) {
            cap *= 2;
        }
        uint8_t *d = realloc(g->data, cap);
        if (d == NULL) {
            g->failed = true;
            return;
        }
        g->data = d;
        g->cap = cap;
    }
    memcpy(g->data + g->len, p, n);
    g->len += n;
}

static void add_u32(grow *g, uint32_t v) {
    uint8_t b[4];
    set_u32(b, v);
    add(g, b, 4);
}

static void add_u64(grow *g, uint64_t v) {
    uint8_t b[8];
    set_u64(b, v);
    add(g, b, 8);
}

static void add_value(grow *g, const fxgl_value *v) {
    add_u32(g, (uint32_t)v->scalar);
    add_u32(g, (uint32_t)v->count);
    for (int i = 0; i < 16; i++) {
        add_u32(g, v->u[i]);
    }
}

static void store_module(fxgl_diskcache *c, uint64_t key, const fxgl_effect *e,
                         const recorder *rec) {
    grow m = {0};
    add_u32(&m, (uint32_t)e->included_count);
    for (size_t i = 0; i < e->included_count; i++) {
        uint64_t size, hash;
        if (!hash_file(e->included_files[i], &size, &hash)) {
            free(m.data);
            return; // a file gone already: nothing to validate against
        }
        uint32_t n = (uint32_t)strlen(e->included_files[i]);
        add_u32(&m, n);
        add(&m, e->included_files[i], n);
        add_u64(&m, size);
        add_u64(&m, hash);
    }
    add_u32(&m, (uint32_t)rec->count);
    for (size_t i = 0; i < rec->count; i++) {
        const baked_value *b = &rec->items[i];
        uint32_t n = (uint32_t)strlen(b->uniform);
        add_u32(&m, n);
        add(&m, b->uniform, n);
        add_value(&m, &b->asked);
        add_u32(&m, b->taken);
        add_value(&m, &b->got);
    }
    size_t module_len = 0;
    void *module = m.failed ? NULL : fxgl_effect_serialize(e, &module_len);
    if (module != NULL) {
        const void *parts[2] = {m.data, module};
        size_t sizes[2] = {m.len, module_len};
        store_entry(c, KIND_MODULE, key, parts, sizes, 2);
    }
    free(module);
    free(m.data);
}

fxgl_effect *fxgl_diskcache_compile(fxgl_diskcache *c, const fxgl_compile_desc *desc,
                                    fxgl_diags *diags) {
    if (c == NULL || desc == NULL || desc->path == NULL || desc->source != NULL) {
        // Text in memory has no file to validate against.
        return fxgl_effect_compile(desc, diags);
    }
    uint64_t key = module_key(desc);
    uint8_t *file = NULL;
    const uint8_t *payload, *module;
    size_t payload_len, module_len;
    bool present;
    if (load_entry(c, KIND_MODULE, key, &file, &payload, &payload_len, &present) &&
        manifest_holds(desc, payload, payload_len, &module, &module_len)) {
        fxgl_effect *e = fxgl_effect_deserialize(module, module_len);
        free(file);
        if (e != NULL) {
            atomic_fetch_add(&c->module_hits, 1);
            return e;
        }
    } else {
        free(file);
    }
    atomic_fetch_add(&c->module_misses, 1);
    if (present) {
        atomic_fetch_add(&c->module_stale, 1);
    }
    recorder rec = {.desc = desc};
    fxgl_compile_desc d = *desc;
    if (desc->uniform_value != NULL) {
        d.uniform_value = record_value;
        d.user = &rec;
    }
    fxgl_effect *e = fxgl_effect_compile(&d, diags);
    if (e != NULL && !rec.failed) {
        store_module(c, key, e, &rec);
    }
    for (size_t i = 0; i < rec.count; i++) {
        free(rec.items[i].uniform);
    }
    free(rec.items);
    return e;
}

// --- program binaries (the GL runtime's fxgl_program_cache) ---

void *fxgl_diskcache_load_binary(void *cache, uint64_t key, uint32_t *format, size_t *len) {
    fxgl_diskcache *c = cache;
    if (c == NULL) {
        return NULL;
    }
    uint8_t *file;
    const uint8_t *payload;
    size_t payload_len;
    bool present;
    // The key is the runtime's (GLSL and driver strings); this build's identity is mixed
    // in so that an entry of another fxgl never answers.
    key = hash_u64(key, build_identity());
    if (!load_entry(c, KIND_BINARY, key, &file, &payload, &payload_len, &present) ||
        payload_len < 5) {
        free(file);
        return NULL;
    }
    void *out = malloc(payload_len - 4);
    if (out != NULL) {
        *format = get_u32(payload);
        *len = payload_len - 4;
        memcpy(out, payload + 4, payload_len - 4);
    }
    free(file);
    return out;
}

void fxgl_diskcache_store_binary(void *cache, uint64_t key, uint32_t format, const void *data,
                                 size_t len) {
    fxgl_diskcache *c = cache;
    if (c == NULL || data == NULL || len == 0) {
        return;
    }
    key = hash_u64(key, build_identity());
    uint8_t f[4];
    set_u32(f, format);
    const void *parts[2] = {f, data};
    size_t sizes[2] = {4, len};
    store_entry(c, KIND_BINARY, key, parts, sizes, 2);
}
