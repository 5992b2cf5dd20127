/*
 * fxgl_diskcache.h - the on-disk cache of compiled effects and GL program binaries
 * (src/effects/diskcache.c).
 *
 * The folder is FXGL_CACHE_DIR, IntermediateCachePath, default $XDG_CACHE_HOME/fxgl.
 * What it holds: modules, the front end's whole output for one compile (the effect module with the
 *    GLSL of every entry point), keyed by this build of fxgl, the compile description
 *    (path, search paths, every definition including the predefined ones, target,
 *    performance mode) and validated like ccache's manifests: the entry lists every file
 *    the compile read with its size and content hash, and a lookup re-hashes them; in
 *    performance mode it also lists each value the preset gave the compiler, and a lookup
 *    asks the preset again. A hit skips preprocessing, parsing, checking and GLSL
 *    generation; what remains is reading and hashing the files and the entry. GL program
 *    binaries are not stored yet: the driver's own shader cache (Mesa's, NVIDIA's) is what
 *    makes the GL compile of a warm start cheap.
 *
 * Every entry is one file written to a temporary name in the folder and renamed over the
 * entry, so a reader sees an old entry, a new one or none, never a part; each carries a
 * magic, a format version, its key, its length and a checksum, and anything else is
 * ignored (a miss). A folder that cannot be created or written disables writing with
 * one warning. The folder is bounded (least recently used entries go first). All calls
 * are thread-safe; none is made on a presenting thread by fxgl (compiles run on the
 * reload worker).
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

#ifdef __cplusplus
}
#endif

#endif // FXGL_DISKCACHE_H
