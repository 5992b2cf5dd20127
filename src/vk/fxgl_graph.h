/*
 * fxgl_graph.h - the render graph of the Vulkan path (src/vk/graph.c).
 *
 * Pure C, no Vulkan: nodes (one per command a frame records: a transfer, a
 * draw, a dispatch) list how they use resources; the graph derives the
 * hazard edges (read after write, write after read, write after write, on
 * overlapping mip ranges of one resource), sorts the nodes (Kahn, by level,
 * then by command type: transfers, draws, compute, then record order) and
 * says which barriers go before which node. Built once at load (it
 * allocates); a frame replays the order it computed. docs/vulkan.md has the
 * design and why reordering never changes an effect's result.
 */
#ifndef FXGL_GRAPH_H
#define FXGL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The command types, in the order the sort prefers within a level.
typedef enum fxgl_graph_cmd {
    FXGL_GRAPH_TRANSFER,         // copies, buffer updates, blits (mip generation)
    FXGL_GRAPH_DRAW,             // a render pass
    FXGL_GRAPH_COMPUTE,          // a dispatch
} fxgl_graph_cmd;

#define FXGL_GRAPH_READ 1u
#define FXGL_GRAPH_WRITE 2u

// How a node touches a resource (what a back end maps to stages and access).
typedef enum fxgl_graph_usage {
    FXGL_GRAPH_SAMPLED,          // read through a sampler
    FXGL_GRAPH_ATTACHMENT,       // a colour attachment (written; blending also reads)
    FXGL_GRAPH_STORAGE,          // a storage image (load, store, atomics)
    FXGL_GRAPH_COPY,             // source or destination of a transfer
    FXGL_GRAPH_UNIFORM,          // a uniform buffer
    FXGL_GRAPH_DEPTH_STENCIL,    // a depth/stencil attachment (tests read, ops write)
} fxgl_graph_usage;

typedef struct fxgl_graph_use {
    int resource;                // the caller's id (a texture, a buffer)
    uint16_t first_mip;          // mip range the use covers
    uint16_t mip_count;          // >= 1
    uint8_t access;              // FXGL_GRAPH_READ | FXGL_GRAPH_WRITE
    uint8_t usage;               // fxgl_graph_usage
} fxgl_graph_use;

typedef enum fxgl_graph_hazard {
    FXGL_GRAPH_RAW,              // read after write
    FXGL_GRAPH_WAR,              // write after read
    FXGL_GRAPH_WAW,              // write after write
} fxgl_graph_hazard;

// One barrier: the later node's use of a range waits for the earlier node's.
typedef struct fxgl_graph_barrier {
    int resource;
    uint16_t first_mip, mip_count; // the overlap of the two uses
    fxgl_graph_hazard hazard;
    fxgl_graph_cmd src_cmd, dst_cmd;
    fxgl_graph_use src, dst;     // the two uses
} fxgl_graph_barrier;

typedef struct fxgl_graph_options {
    bool reorder;                // false: record order (barriers still only where needed)
    bool full_barriers;          // true: a full barrier between every two batches instead
} fxgl_graph_options;

typedef struct fxgl_graph_counters {
    size_t nodes;
    size_t edges;                // distinct (earlier, later) node pairs with a hazard
    size_t levels;               // Kahn waves (the longest dependency chain)
    size_t batches;              // runs of nodes between two barrier points in the order run
    size_t barrier_calls;        // barrier commands (one per batch that needs any)
    size_t barriers;             // barriers in them (full barriers count one each)
    size_t naive_barrier_calls;  // a full barrier before every node but the first
} fxgl_graph_counters;

typedef struct fxgl_graph fxgl_graph;

fxgl_graph *fxgl_graph_create(void);
void fxgl_graph_destroy(fxgl_graph *graph);
// Forgets every node (keeps the memory).
void fxgl_graph_reset(fxgl_graph *graph);

// Adds a node in record order; returns its id (0, 1, ...) or -1 when out of
// memory or a use is malformed (mip_count 0, no access).
int fxgl_graph_add(fxgl_graph *graph, fxgl_graph_cmd cmd, const fxgl_graph_use *uses,
                   size_t use_count);

// Derives the edges, the order and the barriers. False when out of memory.
bool fxgl_graph_compile(fxgl_graph *graph, const fxgl_graph_options *options);

// After compile: the nodes in the order to run (count = nodes).
const int *fxgl_graph_order(const fxgl_graph *graph, size_t *count);
// After compile: the barriers to issue before running order[position]
// (one barrier command for all of them; none when *count is 0). With
// full_barriers, *full says that a full barrier goes there instead (count 0).
const fxgl_graph_barrier *fxgl_graph_barriers_before(const fxgl_graph *graph, size_t position,
                                                     size_t *count, bool *full);
// After compile: the level of a node (0 for nodes without dependencies).
int fxgl_graph_level(const fxgl_graph *graph, int node);
// After compile: whether node later depends on node earlier directly.
bool fxgl_graph_has_edge(const fxgl_graph *graph, int earlier, int later);
fxgl_graph_counters fxgl_graph_counts(const fxgl_graph *graph);

const char *fxgl_graph_cmd_name(fxgl_graph_cmd cmd);

#ifdef __cplusplus
}
#endif

#endif // FXGL_GRAPH_H
