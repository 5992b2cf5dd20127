/*
 * vkrender.c - fxgl-vkrender: effects over an image through the Vulkan path
 * (src/vk), the sibling of fxgl-render's GL path, for pixel comparisons and
 * benchmarks of the two.
 *
 *   fxgl-vkrender --input IN.png [--output OUT.png] [--frames N] [-I DIR]...
 *                 [-D NAME=VALUE]... [--no-reorder] [--full-barriers]
 *                 [--timestamps] [--stats S.csv] [--timings T.csv] [--textures DIR]...
 *                 EFFECT.fx...
 *
 * Effects are compiled for FXGL_GLSL_VK450 with the predefined macros of a
 * GL 4.5 context of the image's size (what fxgl-render gives on llvmpipe),
 * so both paths compile the same effect. Frame f runs at time f / 60 s, as
 * in fxgl-render. --stats writes one CSV row per frame: the graph's
 * counters, the recorded commands, CPU ms and GPU ms. --timings (implies
 * --timestamps) writes fxgl-render's rows: frame,what,technique,pass,gpu_ms
 * with what = frame or pass (technique as Name@File.fx).
 * Exit: 0 done, 1 an effect or a frame failed, 2 usage, 3 no Vulkan device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_fx.h"
#include "fxgl_test.h"
#include "fxgl_vk.h"

#define MAX_ITEMS 64

typedef struct options {
    const char *input, *output, *stats, *timings;
    int frames;
    const char *includes[MAX_ITEMS];
    size_t include_count;
    fxgl_define defines[MAX_ITEMS];
    size_t define_count;
    const char *textures[MAX_ITEMS];
    size_t texture_count;
    const char *effects[MAX_ITEMS];
    size_t effect_count;
    bool reorder, full_barriers, timestamps;
} options;

static void usage(void) {
    fprintf(stderr, "usage: fxgl-vkrender --input IN.png [--output OUT.png] [--frames N] "
                    "[-I DIR]... [-D NAME=VALUE]...\n"
                    "                     [--no-reorder] [--full-barriers] [--timestamps] "
                    "[--stats S.csv] [--timings T.csv]\n"
                    "                     [--textures DIR]... EFFECT.fx...\n");
}

static bool parse(int argc, char **argv, options *o) {
    memset(o, 0, sizeof(*o));
    o->frames = 3;
    o->reorder = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool next = i + 1 < argc;
        if (strcmp(a, "--input") == 0 && next) {
            o->input = argv[++i];
        } else if (strcmp(a, "--output") == 0 && next) {
            o->output = argv[++i];
        } else if (strcmp(a, "--stats") == 0 && next) {
            o->stats = argv[++i];
        } else if (strcmp(a, "--timings") == 0 && next) {
            o->timings = argv[++i];
            o->timestamps = true;
        } else if (strcmp(a, "--frames") == 0 && next) {
            o->frames = atoi(argv[++i]);
            if (o->frames < 1) {
                return false;
            }
        } else if (strcmp(a, "-I") == 0 && next && o->include_count < MAX_ITEMS) {
            o->includes[o->include_count++] = argv[++i];
        } else if (strcmp(a, "-D") == 0 && next && o->define_count < MAX_ITEMS) {
            char *d = argv[++i], *eq = strchr(d, '=');
            if (eq) {
                *eq = '\0';
            }
            o->defines[o->define_count++] = (fxgl_define){d, eq ? eq + 1 : "1"};
        } else if (strcmp(a, "--textures") == 0 && next && o->texture_count < MAX_ITEMS) {
            o->textures[o->texture_count++] = argv[++i];
        } else if (strcmp(a, "--no-reorder") == 0) {
            o->reorder = false;
        } else if (strcmp(a, "--full-barriers") == 0) {
            o->full_barriers = true;
        } else if (strcmp(a, "--timestamps") == 0) {
            o->timestamps = true;
        } else if (a[0] == '-') {
            fprintf(stderr, "fxgl-vkrender: unknown option '%s'\n", a);
            return false;
        } else if (o->effect_count < MAX_ITEMS) {
            o->effects[o->effect_count++] = a;
        }
    }
    return o->input != NULL;
}

static void on_log(void *user, const char *message) {
    (void)user;
    fprintf(stderr, "fxgl-vkrender: %s\n", message);
}

int main(int argc, char **argv) {
    options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    fxgl_image input;
    if (!fxgl_image_load_png(&input, o.input)) {
        fprintf(stderr, "fxgl-vkrender: cannot read '%s'\n", o.input);
        return 1;
    }
    int w = input.width, h = input.height;
    char why[512] = "";
    fxgl_vk_runtime *rt = fxgl_vk_create(&(fxgl_vk_desc){.width = w, .height = h,
                                                        .reorder = o.reorder,
                                                        .full_barriers = o.full_barriers,
                                                        .timestamps = o.timestamps,
                                                        .texture_dirs = o.textures,
                                                        .texture_dir_count = o.texture_count,
                                                        .log = on_log},
                                         why, sizeof(why));
    if (!rt) {
        fprintf(stderr, "fxgl-vkrender: %s\n", why);
        fxgl_image_free(&input);
        return 3;
    }
    fprintf(stderr, "fxgl-vkrender: device %s\n", fxgl_vk_device_name(rt));

    // The macros of a GL 4.5 context of this size, then -D.
    fxgl_environment env = {.width = w, .height = h, .api = FXGL_API_KIND_GL, .api_major = 4,
                            .api_minor = 5};
    fxgl_define defs[FXGL_PREDEFINED_MAX + MAX_ITEMS];
    char storage[FXGL_PREDEFINED_STORAGE];
    size_t nd = fxgl_predefined_macros(&env, defs, storage, sizeof(storage));
    for (size_t i = 0; i < o.define_count; i++) {
        defs[nd++] = o.defines[i];
    }
    fxgl_effect *fx[MAX_ITEMS] = {0};
    int index[MAX_ITEMS];
    int failures = 0;
    for (size_t i = 0; i < o.effect_count; i++) {
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        fx[i] = fxgl_effect_compile(&(fxgl_compile_desc){.path = o.effects[i],
                                                          .include_paths = o.includes,
                                                          .include_path_count = o.include_count,
                                                          .defines = defs, .define_count = nd,
                                                          .target = FXGL_GLSL_VK450},
                                    &diags);
        if (!fx[i]) {
            fxgl_diags_print(&diags, stderr);
            failures++;
        } else if ((index[i] = fxgl_vk_add_effect(rt, fx[i], why, sizeof(why))) < 0) {
            fprintf(stderr, "fxgl-vkrender: %s: %s\n", o.effects[i], why);
            failures++;
        }
        fxgl_diags_finish(&diags);
    }
    FILE *sf = NULL;
    if (o.stats) {
        sf = fopen(o.stats, "w");
        if (!sf) {
            fprintf(stderr, "fxgl-vkrender: cannot write '%s'\n", o.stats);
            return 1;
        }
        fprintf(sf, "frame,reorder,full_barriers,nodes,edges,levels,batches,barrier_calls,"
                    "barriers,naive_barrier_calls,draws,dispatches,pipeline_binds,"
                    "descriptor_binds,copies,updates,mip_levels,color_refreshes,cpu_ms,gpu_ms\n");
    }
    FILE *tf = NULL;
    if (o.timings) {
        tf = fopen(o.timings, "w");
        if (!tf) {
            fprintf(stderr, "fxgl-vkrender: cannot write '%s'\n", o.timings);
            return 1;
        }
        fprintf(tf, "frame,what,technique,pass,gpu_ms\n");
    }
    fxgl_image out;
    if (!fxgl_image_alloc(&out, w, h)) {
        fprintf(stderr, "fxgl-vkrender: out of memory\n");
        return 1;
    }
    for (int f = 0; f < o.frames; f++) {
        if (!fxgl_vk_frame(rt, input.pixels, out.pixels, f / 60.0, why, sizeof(why))) {
            fprintf(stderr, "fxgl-vkrender: frame %d: %s\n", f, why);
            failures++;
            break;
        }
        const fxgl_vk_stats *s = fxgl_vk_stats_get(rt);
        if (sf) {
            fprintf(sf, "%d,%d,%d,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,"
                        "%.4f,%.4f\n",
                    f, o.reorder, o.full_barriers, s->nodes, s->edges, s->levels, s->batches,
                    s->barrier_calls, s->barriers, s->naive_barrier_calls, s->draws,
                    s->dispatches, s->pipeline_binds, s->descriptor_binds, s->copies, s->updates,
                    s->mip_levels, s->color_refreshes, s->cpu_ms, s->gpu_ms);
        }
        if (tf) {
            fprintf(tf, "%d,frame,,,%.4f\n", f, s->gpu_ms);
            for (size_t i = 0; i < o.effect_count; i++) {
                if (!fx[i] || index[i] < 0) {
                    continue;
                }
                const char *file = strrchr(o.effects[i], '/');
                file = file ? file + 1 : o.effects[i];
                for (size_t t = 0; t < fx[i]->technique_count; t++) {
                    for (size_t p = 0; p < fx[i]->techniques[t].pass_count; p++) {
                        fprintf(tf, "%d,pass,%s@%s,%zu,%.4f\n", f, fx[i]->techniques[t].name,
                                file, p, fxgl_vk_pass_gpu_ms(rt, index[i], t, p));
                    }
                }
            }
        }
    }
    if (sf) {
        fclose(sf);
    }
    if (tf) {
        fclose(tf);
    }
    if (o.output && !fxgl_image_save_png(&out, o.output)) {
        fprintf(stderr, "fxgl-vkrender: cannot write '%s'\n", o.output);
        failures++;
    }
    fxgl_image_free(&out);
    fxgl_vk_destroy(rt);
    for (size_t i = 0; i < o.effect_count; i++) {
        fxgl_effect_destroy(fx[i]);
    }
    fxgl_image_free(&input);
    return failures ? 1 : 0;
}
