/*
 * test_threads.c - compiles on several threads at once, as the reload worker, a
 * prewarm context and the host's own thread may. The GLSL generator keeps process
 * state (the sorted table of GLSL reserved words that FX names must be escaped
 * from); its first use in a process is what races, so every round runs in a fresh
 * process (Check forks each loop iteration) and starts all threads together from a
 * barrier, each compiling an effect whose names are GLSL words before anything
 * else in the process has generated GLSL.
 *
 * The expectation is worked out by hand from the generator's escaping rule: a name
 * GLSL reserves gets the prefix "_k" (mix -> _kmix), a name it does not reserve is
 * kept (mixer). A thread that searched a half-sorted table would miss a word and
 * emit it bare, which the test sees; ThreadSanitizer reports the race itself
 * (a build with -fsanitize=thread of this test and libfxgl_fx).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE // memmem
#endif
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_fx.h"

#define THREADS 8
#define ROUNDS 40

// Locals named with GLSL keywords and built-in function names that are no FX
// keywords, spread over the sorted table (first, middle, last entries among them).
static const char effect_text[] =
    "void VS(in uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)\n"
    "{\n"
    "    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);\n"
    "    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);\n"
    "}\n"
    "float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target\n"
    "{\n"
    "    float active = uv.x;\n"
    "    float fract = uv.y;\n"
    "    float mix = active * fract;\n"
    "    float smooth = mix + 0.25;\n"
    "    float usubBorrow = smooth * 0.5;\n"
    "    float writeonly = usubBorrow + active;\n"
    "    float mixer = writeonly - fract;\n"
    "    return float4(mixer, smooth, writeonly, 1.0);\n"
    "}\n"
    "technique T { pass { VertexShader = VS; PixelShader = PS; } }\n";

static const char *const escaped[] = {"_kactive", "_kfract", "_kmix", "_ksmooth",
                                      "_kusubBorrow", "_kwriteonly"};

typedef struct worker {
    pthread_barrier_t *start;
    char problem[256];           // empty when the thread's output was right
} worker;

// Whether word occurs in text as a whole identifier.
static bool has_identifier(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p += n) {
        bool left = p == text || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                                   (p[-1] >= 'a' && p[-1] <= 'z') ||
                                   (p[-1] >= 'A' && p[-1] <= 'Z'));
        char c = p[n];
        bool right = !(c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                       (c >= 'A' && c <= 'Z'));
        // The compute form's image (glsl.c) is declared writeonly: the
        // keyword itself, not a name.
        const char *line = p;
        while (line > text && line[-1] != '\n') {
            line--;
        }
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        bool image_decl = len >= 11 && memmem(line, len, "_gcs_target", 11) != NULL &&
                          strncmp(line, "layout(", 7) == 0;
        if (left && right && !image_decl) {
            return true;
        }
    }
    return false;
}

static void *compile_one(void *arg) {
    worker *w = arg;
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    pthread_barrier_wait(w->start);
    fxgl_effect *e = fxgl_effect_compile(
        &(fxgl_compile_desc){.path = "threads.fx",
                             .source = effect_text,
                             .source_len = sizeof(effect_text) - 1,
                             .target = FXGL_GLSL_GL450},
        &diags);
    const char *ps = NULL;
    for (size_t i = 0; e != NULL && i < e->shader_count; i++) {
        if (e->shaders[i].stage == FXGL_STAGE_PIXEL) {
            ps = e->shaders[i].glsl;
        }
    }
    if (e == NULL || ps == NULL) {
        snprintf(w->problem, sizeof(w->problem), "no pixel shader (%zu errors)",
                 diags.errors);
    } else {
        for (size_t i = 0; i < sizeof(escaped) / sizeof(escaped[0]); i++) {
            if (!has_identifier(ps, escaped[i]) || has_identifier(ps, escaped[i] + 2)) {
                snprintf(w->problem, sizeof(w->problem), "%s not escaped to %s", escaped[i] + 2,
                         escaped[i]);
            }
        }
        if (!has_identifier(ps, "mixer")) {
            snprintf(w->problem, sizeof(w->problem), "mixer (no GLSL word) was renamed");
        }
    }
    fxgl_effect_destroy(e);
    fxgl_diags_finish(&diags);
    return NULL;
}

START_TEST(test_first_compiles_at_once) {
    (void)_i;
    pthread_barrier_t start;
    ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
    pthread_t threads[THREADS];
    worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (worker){.start = &start};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, compile_one, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
    }
    pthread_barrier_destroy(&start);
    for (int i = 0; i < THREADS; i++) {
        ck_assert_msg(workers[i].problem[0] == '\0', "thread %d: %s", i, workers[i].problem);
    }
}
END_TEST

static Suite *threads_suite(void) {
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("compile");
    tcase_set_timeout(tc, 120);
    // Each iteration in a process of its own (Check's fork mode): a fresh, unsorted table.
    tcase_add_loop_test(tc, test_first_compiles_at_once, 0, ROUNDS);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(threads_suite());
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
