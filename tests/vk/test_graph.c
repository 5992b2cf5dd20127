/*
 * test_graph.c - the render graph (src/vk/graph.c): edges, Kahn's order with
 * level and command-type priority, barriers merged per level, the two
 * switches, the counters. Expected orders and counts are worked out by hand
 * in the comments; a randomised check compares every order with a brute
 * force list of conflicting pairs.
 */
#include <check.h>
#include <stdlib.h>

#include "fxgl_graph.h"

enum { BUF = 100, TEX = 1, TEX2 = 2, BUF2 = 101 };

static fxgl_graph_use use(int resource, unsigned access, fxgl_graph_usage usage) {
    return (fxgl_graph_use){.resource = resource, .mip_count = 1, .access = (uint8_t)access,
                            .usage = (uint8_t)usage};
}

static fxgl_graph_use mips(int resource, unsigned first, unsigned count, unsigned access,
                           fxgl_graph_usage usage) {
    fxgl_graph_use u = use(resource, access, usage);
    u.first_mip = (uint16_t)first;
    u.mip_count = (uint16_t)count;
    return u;
}

static void expect_order(const fxgl_graph *g, const int *want, size_t n) {
    size_t count;
    const int *order = fxgl_graph_order(g, &count);
    ck_assert_uint_eq(count, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(order[i] == want[i], "position %zu: node %d, expected %d", i, order[i],
                      want[i]);
    }
}

static size_t barriers_at(const fxgl_graph *g, size_t position, bool *full) {
    size_t count;
    fxgl_graph_barriers_before(g, position, &count, full);
    return count;
}

// update B, draw reading B, update B, draw reading B (both draws into TEX):
// the source material's example of what a reordering must not break.
static fxgl_graph *update_draw_twice(void) {
    fxgl_graph *g = fxgl_graph_create();
    fxgl_graph_use upd = use(BUF, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY);
    fxgl_graph_use draw[] = {use(BUF, FXGL_GRAPH_READ, FXGL_GRAPH_UNIFORM),
                             use(TEX, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT)};
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, &upd, 1), 0);
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_DRAW, draw, 2), 1);
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, &upd, 1), 2);
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_DRAW, draw, 2), 3);
    return g;
}

START_TEST(test_update_draw_update_draw) {
    for (int reorder = 0; reorder < 2; reorder++) {
        fxgl_graph *g = update_draw_twice();
        ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = reorder}));
        // Edges: 0->1 RAW(B), 1->2 WAR(B), 0->2 WAW(B), 2->3 RAW(B), 1->3 WAW(TEX).
        ck_assert(fxgl_graph_has_edge(g, 0, 1));
        ck_assert(fxgl_graph_has_edge(g, 1, 2));
        ck_assert(fxgl_graph_has_edge(g, 0, 2));
        ck_assert(fxgl_graph_has_edge(g, 2, 3));
        ck_assert(fxgl_graph_has_edge(g, 1, 3));
        ck_assert(!fxgl_graph_has_edge(g, 0, 3)); // ordered through 2 (the scan stops there)
        // A sort by command type alone would run 0, 2, 1, 3: both draws
        // would read the second update. The hazards keep the record order.
        expect_order(g, (int[]){0, 1, 2, 3}, 4);
        for (int v = 0; v < 4; v++) {
            ck_assert_int_eq(fxgl_graph_level(g, v), v);
        }
        fxgl_graph_counters c = fxgl_graph_counts(g);
        ck_assert_uint_eq(c.nodes, 4);
        ck_assert_uint_eq(c.edges, 5);
        ck_assert_uint_eq(c.levels, 4);
        ck_assert_uint_eq(c.batches, 4);
        ck_assert_uint_eq(c.barrier_calls, 3);
        // Before 1: copy-write -> uniform-read of B. Before 2: the WAR from
        // the draw and the WAW from the first update (two source uses).
        // Before 3: RAW of B, WAW of TEX.
        bool full;
        ck_assert_uint_eq(barriers_at(g, 0, &full), 0);
        ck_assert_uint_eq(barriers_at(g, 1, &full), 1);
        ck_assert_uint_eq(barriers_at(g, 2, &full), 2);
        ck_assert_uint_eq(barriers_at(g, 3, &full), 2);
        ck_assert(!full);
        ck_assert_uint_eq(c.barriers, 5);
        ck_assert_uint_eq(c.naive_barrier_calls, 3);
        size_t n;
        const fxgl_graph_barrier *b = fxgl_graph_barriers_before(g, 1, &n, &full);
        ck_assert_int_eq(b[0].hazard, FXGL_GRAPH_RAW);
        ck_assert_int_eq(b[0].resource, BUF);
        ck_assert_int_eq(b[0].src_cmd, FXGL_GRAPH_TRANSFER);
        ck_assert_int_eq(b[0].dst_cmd, FXGL_GRAPH_DRAW);
        b = fxgl_graph_barriers_before(g, 2, &n, &full);
        ck_assert_int_eq(b[0].hazard, FXGL_GRAPH_WAR);
        ck_assert_int_eq(b[1].hazard, FXGL_GRAPH_WAW);
        fxgl_graph_destroy(g);
    }
}
END_TEST

// Two independent update/draw chains: reordering puts both updates first and
// both draws in one batch, one barrier command for the two buffers.
START_TEST(test_independent_chains) {
    fxgl_graph *g = fxgl_graph_create();
    fxgl_graph_use u1 = use(BUF, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY);
    fxgl_graph_use u2 = use(BUF2, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY);
    fxgl_graph_use d1[] = {use(BUF, FXGL_GRAPH_READ, FXGL_GRAPH_UNIFORM),
                           use(TEX, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT)};
    fxgl_graph_use d2[] = {use(BUF2, FXGL_GRAPH_READ, FXGL_GRAPH_UNIFORM),
                           use(TEX2, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT)};
    fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, &u1, 1);
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, d1, 2);
    fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, &u2, 1);
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, d2, 2);

    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = true}));
    // Levels: 0 and 2 at level 0, 1 and 3 at level 1.
    expect_order(g, (int[]){0, 2, 1, 3}, 4);
    fxgl_graph_counters c = fxgl_graph_counts(g);
    ck_assert_uint_eq(c.edges, 2);
    ck_assert_uint_eq(c.levels, 2);
    ck_assert_uint_eq(c.batches, 2);
    ck_assert_uint_eq(c.barrier_calls, 1);
    ck_assert_uint_eq(c.barriers, 2);
    bool full;
    ck_assert_uint_eq(barriers_at(g, 2, &full), 2);

    // Record order: batches [0], [1 2], [3]: two barrier commands.
    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = false}));
    expect_order(g, (int[]){0, 1, 2, 3}, 4);
    c = fxgl_graph_counts(g);
    ck_assert_uint_eq(c.levels, 2);
    ck_assert_uint_eq(c.batches, 3);
    ck_assert_uint_eq(c.barrier_calls, 2);
    ck_assert_uint_eq(c.barriers, 2);
    ck_assert_uint_eq(barriers_at(g, 1, &full), 1);
    ck_assert_uint_eq(barriers_at(g, 2, &full), 0);
    ck_assert_uint_eq(barriers_at(g, 3, &full), 1);

    // Full barriers: one full barrier per batch boundary, no precise ones.
    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = true, .full_barriers = true}));
    c = fxgl_graph_counts(g);
    ck_assert_uint_eq(c.barrier_calls, 1);
    ck_assert_uint_eq(c.barriers, 1);
    ck_assert_uint_eq(barriers_at(g, 2, &full), 0);
    ck_assert(full);
    ck_assert_uint_eq(barriers_at(g, 1, &full), 0);
    ck_assert(!full);
    fxgl_graph_destroy(g);
}
END_TEST

// Within a level: transfers, then draws, then compute, then record order.
START_TEST(test_priority) {
    fxgl_graph *g = fxgl_graph_create();
    fxgl_graph_use cs = use(10, FXGL_GRAPH_WRITE, FXGL_GRAPH_STORAGE);
    fxgl_graph_use d[] = {use(11, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED),
                          use(12, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT)};
    fxgl_graph_use t = use(13, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY);
    fxgl_graph_add(g, FXGL_GRAPH_COMPUTE, &cs, 1); // 0
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, d, 2);      // 1
    fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, &t, 1); // 2
    fxgl_graph_add(g, FXGL_GRAPH_COMPUTE, &cs, 1); // 3: WAW on 10 after 0
    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = true}));
    expect_order(g, (int[]){2, 1, 0, 3}, 4);
    ck_assert_uint_eq(fxgl_graph_counts(g).levels, 2);
    ck_assert_uint_eq(fxgl_graph_counts(g).barriers, 1);
    fxgl_graph_destroy(g);
}
END_TEST

// Mip ranges: writes of different levels do not conflict; a read of both
// levels waits for each, with one barrier per level range.
START_TEST(test_mip_ranges) {
    fxgl_graph *g = fxgl_graph_create();
    fxgl_graph_use w0 = mips(TEX, 0, 1, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT);
    fxgl_graph_use w1 = mips(TEX, 1, 1, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT);
    fxgl_graph_use r[] = {mips(TEX, 0, 2, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED),
                          use(TEX2, FXGL_GRAPH_WRITE, FXGL_GRAPH_ATTACHMENT)};
    // Mip generation: reads level 0, writes 1..3 in one transfer node.
    fxgl_graph_use gen[] = {mips(TEX2, 0, 1, FXGL_GRAPH_READ, FXGL_GRAPH_COPY),
                            mips(TEX2, 1, 3, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY)};
    fxgl_graph_use all = mips(TEX2, 0, 4, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED);
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, &w0, 1);       // 0
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, &w1, 1);       // 1
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, r, 2);         // 2
    fxgl_graph_add(g, FXGL_GRAPH_TRANSFER, gen, 2);   // 3
    fxgl_graph_add(g, FXGL_GRAPH_DRAW, &all, 1);      // 4
    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = true}));
    ck_assert(!fxgl_graph_has_edge(g, 0, 1));
    ck_assert(fxgl_graph_has_edge(g, 0, 2) && fxgl_graph_has_edge(g, 1, 2));
    // 3 reads level 0 of TEX2 that 2 wrote (RAW); 4 reads level 0 from 2
    // and levels 1..3 from 3.
    ck_assert(fxgl_graph_has_edge(g, 2, 3));
    ck_assert(fxgl_graph_has_edge(g, 3, 4) && fxgl_graph_has_edge(g, 2, 4));
    expect_order(g, (int[]){0, 1, 2, 3, 4}, 5);
    fxgl_graph_counters c = fxgl_graph_counts(g);
    ck_assert_uint_eq(c.levels, 4);
    bool full;
    size_t n;
    ck_assert_uint_eq(barriers_at(g, 2, &full), 2); // mip 0 from 0, mip 1 from 1
    const fxgl_graph_barrier *b = fxgl_graph_barriers_before(g, 2, &n, &full);
    ck_assert_uint_eq(b[0].first_mip + b[1].first_mip, 1);
    ck_assert_uint_eq(b[0].mip_count, 1);
    ck_assert_uint_eq(barriers_at(g, 4, &full), 2); // levels 1..3 from 3, level 0 from 2
    b = fxgl_graph_barriers_before(g, 4, &n, &full);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(b[i].mip_count, b[i].first_mip == 0 ? 1 : 3);
    }
    ck_assert_uint_eq(c.barriers, 2 + 1 + 2); // before 2, 3 and 4 (0 and 1 share a batch)
    ck_assert_uint_eq(c.naive_barrier_calls, 4);
    ck_assert_uint_eq(c.barrier_calls, 3);
    fxgl_graph_destroy(g);
}
END_TEST

START_TEST(test_malformed_and_empty) {
    fxgl_graph *g = fxgl_graph_create();
    fxgl_graph_use bad = use(1, 0, FXGL_GRAPH_SAMPLED);
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_DRAW, &bad, 1), -1);
    bad = mips(1, 0, 0, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED);
    ck_assert_int_eq(fxgl_graph_add(g, FXGL_GRAPH_DRAW, &bad, 1), -1);
    ck_assert(fxgl_graph_compile(g, &(fxgl_graph_options){.reorder = true}));
    size_t n;
    fxgl_graph_order(g, &n);
    ck_assert_uint_eq(n, 0);
    ck_assert_uint_eq(fxgl_graph_counts(g).batches, 0);
    ck_assert_uint_eq(fxgl_graph_counts(g).naive_barrier_calls, 0);
    fxgl_graph_destroy(g);
}
END_TEST

// Random graphs: every pair of conflicting uses (overlapping mips of one
// resource, one of them a write), found by brute force, runs in record
// order and has a barrier point between the two nodes, in every mode.
START_TEST(test_random_orders_keep_every_conflict) {
    srand(12345);
    for (int round = 0; round < 300; round++) {
        fxgl_graph *g = fxgl_graph_create();
        int n = 2 + rand() % 14;
        fxgl_graph_use uses[64][4];
        int counts[64];
        for (int v = 0; v < n; v++) {
            counts[v] = 1 + rand() % 3;
            for (int k = 0; k < counts[v]; k++) {
                unsigned first = (unsigned)(rand() % 3);
                uses[v][k] = mips(rand() % 4, first, 1 + (unsigned)(rand() % (4 - (int)first)),
                                  1u + (unsigned)(rand() % 3), FXGL_GRAPH_SAMPLED);
            }
            ck_assert_int_eq(fxgl_graph_add(g, (fxgl_graph_cmd)(rand() % 3), uses[v],
                                            (size_t)counts[v]), v);
        }
        for (int mode = 0; mode < 4; mode++) {
            fxgl_graph_options o = {.reorder = mode & 1, .full_barriers = mode & 2};
            ck_assert(fxgl_graph_compile(g, &o));
            size_t count;
            const int *order = fxgl_graph_order(g, &count);
            ck_assert_uint_eq(count, (size_t)n);
            int pos[64], batch[64], b = -1;
            for (size_t i = 0; i < count; i++) {
                bool full;
                size_t nb = barriers_at(g, i, &full);
                b += i == 0 || full || nb;
                pos[order[i]] = (int)i;
                batch[order[i]] = b;
            }
            for (int u = 0; u < n; u++) {
                for (int v = u + 1; v < n; v++) {
                    for (int i = 0; i < counts[u]; i++) {
                        for (int k = 0; k < counts[v]; k++) {
                            const fxgl_graph_use *x = &uses[u][i], *y = &uses[v][k];
                            bool same = x->resource == y->resource &&
                                        x->first_mip < y->first_mip + y->mip_count &&
                                        y->first_mip < x->first_mip + x->mip_count;
                            bool write = (x->access | y->access) & FXGL_GRAPH_WRITE;
                            if (same && write) {
                                ck_assert_msg(pos[u] < pos[v], "round %d: %d after %d", round,
                                              u, v);
                                ck_assert_msg(batch[u] < batch[v], "round %d: %d and %d share "
                                              "a batch", round, u, v);
                            }
                        }
                    }
                }
            }
            fxgl_graph_counters c = fxgl_graph_counts(g);
            ck_assert_uint_le(c.barrier_calls, c.naive_barrier_calls);
            ck_assert_uint_eq(c.barrier_calls + 1, c.batches);
            if (o.reorder) {
                ck_assert_uint_eq(c.batches, c.levels); // merged per level
            }
        }
        fxgl_graph_destroy(g);
    }
}
END_TEST

static Suite *graph_suite(void) {
    Suite *s = suite_create("graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_update_draw_update_draw);
    tcase_add_test(tc, test_independent_chains);
    tcase_add_test(tc, test_priority);
    tcase_add_test(tc, test_mip_ranges);
    tcase_add_test(tc, test_malformed_and_empty);
    tcase_add_test(tc, test_random_orders_keep_every_conflict);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(graph_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
