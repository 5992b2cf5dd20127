/*
 * fxgl_diskcache.h - the on-disk cache of compiled effects and GL program binaries
 * (src/effects/diskcache.c).
 *
 * Two kinds of entry share one folder (FXGL_CACHE_DIR, IntermediateCachePath, default
 * $XDG_CACHE_HOME/fxgl):
 *  - modules: the front end's whole output for one compile (the effect module with the
 *    GLSL of every entry point), keyed by this build of fxgl, the compile description
 *    (path, search paths, every definition including the predefined ones, target,
 *    performance mode) and validated like ccache's manifests: the entry lists every file
 *    the compile read with its size and content hash, and a lookup re-hashes them; in
 *    performance mode it also lists each value the preset gave the compiler, and a lookup
 *    asks the preset again. A hit skips preprocessing, parsing, checking and GLSL
 *    generation; what remains is reading and hashing the files and the entry.
 *  - program binaries (glGetProgramBinary): opaque blobs under the key the GL runtime
 *    computes (the GLSL of the stages, GL_VENDOR, GL_RENDERER, GL_VERSION), where the
 *    driver offers binary formats (src/gl/progcache.c).
 *
 * Every entry is one file written to a temporary name in the folder and renamed over the
 * entry, so a reader sees an old entry, a new one or none, never a part; each carries a
 * magic, a format version, its key, its length and a checksum, and anything else is
 * ignored (a miss). A folder that cannot be created or written disables writing with
 * one warning. The folder is bounded (least recently used entries go first). All calls
 * are thread-safe. Modules are read and written where effects compile: in the
 * interposer, on the reload worker, which alone runs eviction scans. Binaries are read
 * and written where the GL runtime builds an effect: in the interposer the worker's
 * prewarm and the presenting thread's load, once per program while the effect loads
 * (instead of the compile it saves), never in steady state.
 */
#ifndef FXGL_DISKCACHE_H
#define FXGL_DISKCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"
#include "fxgl_preset.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fxgl_diskcache fxgl_diskcache;

#define FXGL_DISKCACHE_DEFAULT_LIMIT (256u << 20) // bytes of entries kept by default

typedef struct fxgl_diskcache_desc {
    const char *dir;             // the folder (created with its parents, mode 0700)
    uint64_t limit_bytes;        // 0: FXGL_DISKCACHE_DEFAULT_LIMIT
    fxgl_preset_sink sink;       // the one warning of an unwritable folder goes here
} fxgl_diskcache_desc;

// NULL when dir is NULL, empty or "off" (the cache is disabled) or out of memory. The
// folder is only created at the first write.
fxgl_diskcache *fxgl_diskcache_create(const fxgl_diskcache_desc *desc);
void fxgl_diskcache_destroy(fxgl_diskcache *cache);

// Whether a configured cache path means "no cache" (NULL, "", "off").
bool fxgl_diskcache_disabled(const char *dir);

typedef struct fxgl_diskcache_stats {
    unsigned module_hits;        // compiles answered from the cache (no front end run)
    unsigned module_misses;      // compiles that ran the front end
    unsigned module_stale;       // of the misses: an entry was there but a file or a
                                 // preset value had changed, or it was corrupt
    unsigned writes;             // entries written
    unsigned write_failures;     // entries not written (folder not writable, disk full)
    unsigned evicted;            // entries removed to stay under the limit
} fxgl_diskcache_stats;

// The counters so far (NULL cache: zeros).
fxgl_diskcache_stats fxgl_diskcache_get_stats(const fxgl_diskcache *cache);

// fxgl_effect_compile through the cache: the same result and diagnostics on a miss
// (warnings are not cached: a hit reports none), the stored module on a hit. A NULL cache
// compiles. Failed compiles are not stored.
fxgl_effect *fxgl_diskcache_compile(fxgl_diskcache *cache, const fxgl_compile_desc *desc,
                                    fxgl_diags *diags);

// --- program binaries ---
//
// The two calls of the GL runtime's fxgl_program_cache (fxgl_gl.h), with the cache as
// user: the bytes and binary format stored under key (malloc'd), NULL when none or
// damaged; and storing (or replacing) them. The GL runtime counts hits and refusals.
void *fxgl_diskcache_load_binary(void *cache, uint64_t key, uint32_t *format, size_t *len);
void fxgl_diskcache_store_binary(void *cache, uint64_t key, uint32_t format, const void *data,
                                 size_t len);

#ifdef __cplusplus
}
#endif

#endif // FXGL_DISKCACHE_H
