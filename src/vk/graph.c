/*
 * graph.c - the render graph: hazards, Kahn's order, barriers (fxgl_graph.h).
 *
 * Edges come from a backwards scan per use: a use of node v meets the uses
 * of earlier nodes on the same resource and an overlapping mip range; a read
 * after a write, a write after a read and a write after a write are edges.
 * The scan for one use stops at an earlier write that covers its whole
 * range: everything before that write is already ordered before it (by the
 * same rules), so the edges stay few without losing an order.
 *
 * The order is Kahn's: the nodes without pending dependencies form a wave
 * (a level), sorted by command type (transfers, draws, compute) and then by
 * record order; the next wave is what they release. Nodes of one level never
 * depend on each other, so a barrier point is needed only between levels,
 * and every barrier of a level goes into one barrier command before it.
 * Without reordering, the record order is cut into the longest runs without
 * a dependency inside, the same rule applied to a fixed order.
 */
#include <stdlib.h>
#include <string.h>

#include "fxgl_graph.h"

typedef struct gr_node {
    fxgl_graph_cmd cmd;
    size_t first_use;            // into uses
    size_t use_count;
    int level;
    int indegree;                // Kahn's work counter
} gr_node;

typedef struct gr_hazard {
    int from, to;                // node ids, from < to
    size_t src_use, dst_use;     // into uses
    fxgl_graph_hazard kind;
} gr_hazard;

struct fxgl_graph {
    gr_node *nodes;
    size_t node_count, node_cap;
    fxgl_graph_use *uses;
    size_t use_count, use_cap;

    // compile's results
    gr_hazard *hazards;          // sorted by .to (the scan appends them so)
    size_t hazard_count, hazard_cap;
    uint8_t *edges;              // node_count x node_count bits: edge (from, to)
    int *order;                  // node ids in run order
    int *position;               // node id -> its index in order
    fxgl_graph_barrier *barriers;
    size_t barrier_count, barrier_cap;
    size_t *barrier_first;       // per position: first barrier before it
    size_t *barrier_n;           // per position: how many
    bool *full;                  // per position: a full barrier before it
    fxgl_graph_counters counters;
};

static bool grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) {
        return true;
    }
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need) {
        n *= 2;
    }
    void *q = realloc(*p, n * size);
    if (!q) {
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

fxgl_graph *fxgl_graph_create(void) {
    return calloc(1, sizeof(fxgl_graph));
}

static void free_results(fxgl_graph *g) {
    free(g->edges);
    free(g->order);
    free(g->position);
    free(g->barrier_first);
    free(g->barrier_n);
    free(g->full);
    g->edges = NULL;
    g->order = g->position = NULL;
    g->barrier_first = g->barrier_n = NULL;
    g->full = NULL;
    g->hazard_count = g->barrier_count = 0;
    memset(&g->counters, 0, sizeof(g->counters));
}

void fxgl_graph_destroy(fxgl_graph *g) {
    if (!g) {
        return;
    }
    free_results(g);
    free(g->hazards);
    free(g->barriers);
    free(g->nodes);
    free(g->uses);
    free(g);
}

void fxgl_graph_reset(fxgl_graph *g) {
    free_results(g);
    g->node_count = g->use_count = 0;
}

int fxgl_graph_add(fxgl_graph *g, fxgl_graph_cmd cmd, const fxgl_graph_use *uses,
                   size_t use_count) {
    for (size_t i = 0; i < use_count; i++) {
        if (!uses[i].mip_count || !(uses[i].access & (FXGL_GRAPH_READ | FXGL_GRAPH_WRITE))) {
            return -1;
        }
    }
    if (g->node_count >= (size_t)INT32_MAX / 2 ||
        !grow((void **)&g->nodes, &g->node_cap, g->node_count + 1, sizeof(*g->nodes)) ||
        !grow((void **)&g->uses, &g->use_cap, g->use_count + use_count, sizeof(*g->uses))) {
        return -1;
    }
    if (use_count) {
        memcpy(g->uses + g->use_count, uses, use_count * sizeof(*uses));
    }
    g->nodes[g->node_count] = (gr_node){.cmd = cmd, .first_use = g->use_count,
                                        .use_count = use_count};
    g->use_count += use_count;
    return (int)g->node_count++;
}

static bool edge_bit(const fxgl_graph *g, int from, int to) {
    size_t bit = (size_t)from * g->node_count + (size_t)to;
    return (g->edges[bit / 8] >> (bit % 8)) & 1;
}

static void set_edge(fxgl_graph *g, int from, int to) {
    size_t bit = (size_t)from * g->node_count + (size_t)to;
    g->edges[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

static bool overlap(const fxgl_graph_use *a, const fxgl_graph_use *b, uint16_t *first,
                    uint16_t *count) {
    if (a->resource != b->resource) {
        return false;
    }
    unsigned lo = a->first_mip > b->first_mip ? a->first_mip : b->first_mip;
    unsigned ae = (unsigned)a->first_mip + a->mip_count, be = (unsigned)b->first_mip + b->mip_count;
    unsigned hi = ae < be ? ae : be;
    if (lo >= hi) {
        return false;
    }
    *first = (uint16_t)lo;
    *count = (uint16_t)(hi - lo);
    return true;
}

static bool covers(const fxgl_graph_use *outer, const fxgl_graph_use *inner) {
    return outer->first_mip <= inner->first_mip &&
           outer->first_mip + outer->mip_count >= inner->first_mip + inner->mip_count;
}

// The hazards of node v against every earlier node (see the top of the file).
static bool scan_node(fxgl_graph *g, int v) {
    const gr_node *nv = &g->nodes[v];
    for (size_t a = nv->first_use; a < nv->first_use + nv->use_count; a++) {
        const fxgl_graph_use *ua = &g->uses[a];
        bool covered = false;
        for (int u = v - 1; u >= 0 && !covered; u--) {
            const gr_node *nu = &g->nodes[u];
            for (size_t b = nu->first_use; b < nu->first_use + nu->use_count; b++) {
                const fxgl_graph_use *ub = &g->uses[b];
                uint16_t first, count;
                if (!overlap(ua, ub, &first, &count)) {
                    continue;
                }
                bool aw = ua->access & FXGL_GRAPH_WRITE, bw = ub->access & FXGL_GRAPH_WRITE;
                bool ar = ua->access & FXGL_GRAPH_READ;
                if (!aw && !bw) {
                    continue; // two reads: no order between them
                }
                fxgl_graph_hazard kind = bw ? (aw && !ar ? FXGL_GRAPH_WAW : FXGL_GRAPH_RAW)
                                            : FXGL_GRAPH_WAR;
                if (!grow((void **)&g->hazards, &g->hazard_cap, g->hazard_count + 1,
                          sizeof(*g->hazards))) {
                    return false;
                }
                g->hazards[g->hazard_count++] =
                    (gr_hazard){.from = u, .to = v, .src_use = b, .dst_use = a, .kind = kind};
                if (!edge_bit(g, u, v)) {
                    set_edge(g, u, v);
                    g->counters.edges++;
                }
                covered |= bw && covers(ub, ua);
            }
        }
    }
    return true;
}

// Kahn's algorithm: waves of released nodes, each sorted by command type and
// record order. Edges only go forward in record order (scan_node), so every
// node is released; the levels are the waves.
static void kahn(fxgl_graph *g) {
    size_t n = g->node_count, done = 0, wave_start = 0;
    for (size_t v = 0; v < n; v++) {
        g->nodes[v].indegree = 0;
    }
    for (size_t h = 0; h < g->hazard_count; h++) {
        const gr_hazard *z = &g->hazards[h];
        // One count per distinct edge: its first hazard.
        bool first = true;
        for (size_t k = h; k-- > 0 && g->hazards[k].to == z->to;) {
            first &= g->hazards[k].from != z->from;
        }
        g->nodes[z->to].indegree += first;
    }
    for (size_t v = 0; v < n; v++) {
        if (g->nodes[v].indegree == 0) {
            g->order[done++] = (int)v;
        }
    }
    int level = 0;
    while (wave_start < done) {
        size_t wave_end = done;
        // Insertion sort of the wave: (command type, record order).
        for (size_t i = wave_start + 1; i < wave_end; i++) {
            int x = g->order[i];
            size_t j = i;
            while (j > wave_start &&
                   (g->nodes[g->order[j - 1]].cmd > g->nodes[x].cmd ||
                    (g->nodes[g->order[j - 1]].cmd == g->nodes[x].cmd && g->order[j - 1] > x))) {
                g->order[j] = g->order[j - 1];
                j--;
            }
            g->order[j] = x;
        }
        for (size_t i = wave_start; i < wave_end; i++) {
            int u = g->order[i];
            g->nodes[u].level = level;
            for (size_t v = (size_t)u + 1; v < n; v++) {
                if (edge_bit(g, u, (int)v) && --g->nodes[v].indegree == 0) {
                    g->order[done++] = (int)v;
                }
            }
        }
        wave_start = wave_end;
        level++;
    }
    g->counters.levels = (size_t)level;
}

static bool add_barrier(fxgl_graph *g, size_t first_at_batch, const gr_hazard *z) {
    const fxgl_graph_use *src = &g->uses[z->src_use], *dst = &g->uses[z->dst_use];
    fxgl_graph_barrier b = {.resource = dst->resource, .hazard = z->kind,
                            .src_cmd = g->nodes[z->from].cmd, .dst_cmd = g->nodes[z->to].cmd,
                            .src = *src, .dst = *dst};
    overlap(src, dst, &b.first_mip, &b.mip_count);
    // One barrier per (range, source use, destination use) in a batch.
    for (size_t i = first_at_batch; i < g->barrier_count; i++) {
        const fxgl_graph_barrier *o = &g->barriers[i];
        if (o->resource == b.resource && o->first_mip == b.first_mip &&
            o->mip_count == b.mip_count && o->src_cmd == b.src_cmd && o->dst_cmd == b.dst_cmd &&
            o->src.usage == b.src.usage && o->src.access == b.src.access &&
            o->dst.usage == b.dst.usage && o->dst.access == b.dst.access) {
            return true;
        }
    }
    if (!grow((void **)&g->barriers, &g->barrier_cap, g->barrier_count + 1,
              sizeof(*g->barriers))) {
        return false;
    }
    g->barriers[g->barrier_count++] = b;
    return true;
}

// The barriers before the batch at positions [start, end): one for every
// hazard into a node of it (all of them come from earlier batches).
static bool close_batch(fxgl_graph *g, size_t start, size_t end, bool full) {
    g->counters.barrier_calls++;
    if (full) {
        g->full[start] = true;
        g->counters.barriers++;
        return true;
    }
    size_t first = g->barrier_count;
    for (size_t h = 0; h < g->hazard_count; h++) {
        size_t at = (size_t)g->position[g->hazards[h].to];
        if (at >= start && at < end && !add_barrier(g, first, &g->hazards[h])) {
            return false;
        }
    }
    g->barrier_first[start] = first;
    g->barrier_n[start] = g->barrier_count - first;
    g->counters.barriers += g->barrier_count - first;
    return true;
}

bool fxgl_graph_compile(fxgl_graph *g, const fxgl_graph_options *opt) {
    free_results(g);
    size_t n = g->node_count;
    g->counters.nodes = n;
    g->counters.naive_barrier_calls = n ? n - 1 : 0;
    size_t alloc = n ? n : 1;
    g->edges = calloc((alloc * alloc + 7) / 8, 1);
    g->order = malloc(alloc * sizeof(*g->order));
    g->position = malloc(alloc * sizeof(*g->position));
    g->barrier_first = calloc(alloc, sizeof(*g->barrier_first));
    g->barrier_n = calloc(alloc, sizeof(*g->barrier_n));
    g->full = calloc(alloc, sizeof(*g->full));
    if (!g->edges || !g->order || !g->position || !g->barrier_first || !g->barrier_n ||
        !g->full) {
        free_results(g);
        return false;
    }
    for (size_t v = 0; v < n; v++) {
        if (!scan_node(g, (int)v)) {
            free_results(g);
            return false;
        }
    }
    kahn(g);
    if (!opt->reorder) {
        for (size_t v = 0; v < n; v++) {
            g->order[v] = (int)v;
        }
    }
    for (size_t i = 0; i < n; i++) {
        g->position[g->order[i]] = (int)i;
    }
    // Batches: cut the order where a node depends on one of the current run;
    // each batch after the first gets its barriers (or a full one) before it.
    size_t batch_start = 0;
    for (size_t i = 1; i <= n; i++) {
        bool cut = i == n;
        for (size_t k = batch_start; k < i && !cut; k++) {
            cut = edge_bit(g, g->order[k], g->order[i]);
        }
        if (!cut) {
            continue;
        }
        if (batch_start > 0 && !close_batch(g, batch_start, i, opt->full_barriers)) {
            free_results(g);
            return false;
        }
        g->counters.batches++;
        batch_start = i;
    }
    return true;
}

const int *fxgl_graph_order(const fxgl_graph *g, size_t *count) {
    *count = g->order ? g->node_count : 0;
    return g->order;
}

const fxgl_graph_barrier *fxgl_graph_barriers_before(const fxgl_graph *g, size_t position,
                                                     size_t *count, bool *full) {
    *count = 0;
    *full = false;
    if (!g->order || position >= g->node_count) {
        return NULL;
    }
    *full = g->full[position];
    *count = g->barrier_n[position];
    return *count ? g->barriers + g->barrier_first[position] : NULL;
}

int fxgl_graph_level(const fxgl_graph *g, int node) {
    return g->order && node >= 0 && (size_t)node < g->node_count ? g->nodes[node].level : -1;
}

bool fxgl_graph_has_edge(const fxgl_graph *g, int earlier, int later) {
    return g->edges && earlier >= 0 && later >= 0 && (size_t)earlier < g->node_count &&
           (size_t)later < g->node_count && edge_bit(g, earlier, later);
}

fxgl_graph_counters fxgl_graph_counts(const fxgl_graph *g) {
    return g->counters;
}

const char *fxgl_graph_cmd_name(fxgl_graph_cmd cmd) {
    switch (cmd) {
    case FXGL_GRAPH_TRANSFER:
        return "transfer";
    case FXGL_GRAPH_DRAW:
        return "draw";
    case FXGL_GRAPH_COMPUTE:
        return "compute";
    }
    return "?";
}
