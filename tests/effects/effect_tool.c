/*
 * effect_tool.c - fxgl-effect: one built-in effect over one PNG through the
 * runtime, on a headless context; the screenshot and benchmark scripts'
 * renderer (tools/effect-shots.sh, bench/effects.sh).
 *
 *   fxgl-effect [--values 'A=1;B=2'] [--defines 'X=1,Y=2'] [--frames N] [--time]
 *               EFFECT.fx IN.png OUT.png
 *
 * --time prints "gpu_ms: M" (the median GPU time of one runtime frame with
 * the effect, copies in and out included) and "technique_ms: T" (the
 * runtime's own GPU time of the technique alone). Exit status 77 with a reason when there is nothing to render
 * with, like the tests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effects_render.h"

static void usage(void) {
    fprintf(stderr, "usage: fxgl-effect [--values 'A=1;B=2'] [--defines 'X=1,Y=2'] [--frames N] "
                    "[--time] EFFECT.fx IN.png OUT.png\n");
}

int main(int argc, char **argv) {
    effect_run run = {.frames = 1};
    const char *files[3];
    int nfiles = 0;
    bool timed = false;
    char *values = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--values") == 0 && i + 1 < argc) {
            // ';' separates on the command line; the preset section wants lines.
            free(values);
            values = strdup(argv[++i]);
            for (char *p = values; p && *p; p++) {
                *p = *p == ';' ? '\n' : *p;
            }
            run.values = values;
        } else if (strcmp(argv[i], "--defines") == 0 && i + 1 < argc) {
            run.defines = argv[++i];
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            run.frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--time") == 0) {
            timed = true;
        } else if (argv[i][0] != '-' && nfiles < 3) {
            files[nfiles++] = argv[i];
        } else {
            usage();
            return 2;
        }
    }
    if (nfiles != 3 || run.frames < 1) {
        usage();
        return 2;
    }
    run.effect = files[0];
    double gpu_ms = NAN, technique_ms = NAN;
    run.gpu_ms = timed ? &gpu_ms : NULL;
    run.technique_ms = timed ? &technique_ms : NULL;
    fxgl_image in = {0}, out = {0};
    if (!fxgl_image_load_png(&in, files[1])) {
        fprintf(stderr, "fxgl-effect: cannot read %s\n", files[1]);
        return 1;
    }
    char reason[256] = "";
    effect_status st = effect_render(&run, &in, &out, reason, sizeof(reason));
    int rc = 0;
    if (st == EFFECT_UNAVAILABLE) {
        fprintf(stderr, "fxgl-effect: %s\n", reason);
        rc = 77;
    } else if (st == EFFECT_FAILED) {
        fprintf(stderr, "fxgl-effect: %s: %s\n", run.effect, reason);
        rc = 1;
    } else if (!fxgl_image_save_png(&out, files[2])) {
        fprintf(stderr, "fxgl-effect: cannot write %s\n", files[2]);
        rc = 1;
    } else if (timed) {
        printf("gpu_ms: %.4f\ntechnique_ms: %.4f\n", gpu_ms, technique_ms);
    }
    fxgl_image_free(&in);
    fxgl_image_free(&out);
    free(values);
    return rc;
}
