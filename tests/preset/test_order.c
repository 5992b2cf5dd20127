/*
 * test_order.c - technique order: each rule of the reference's order with its
 * ties, legacy bare names, entries naming nothing, and the list fallback chain.
 */
#include "fxgl_preset.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TECHS 8

typedef struct fixture {
    fxgl_preset_effect effects[4];
    fxgl_preset_technique techs[4][MAX_TECHS];
    size_t count;
} fixture;

// Adds an effect whose techniques are given as "Name" or "Name|Label".
static void add_effect(fixture *f, const char *file, const char *const *names, size_t n) {
    fxgl_preset_effect *e = &f->effects[f->count];
    for (size_t i = 0; i < n; i++) {
        const char *bar = strchr(names[i], '|');
        f->techs[f->count][i] = (fxgl_preset_technique){
            .name = bar != NULL ? strndup(names[i], (size_t)(bar - names[i])) : strdup(names[i]),
            .ui_label = bar != NULL ? bar + 1 : NULL,
        };
    }
    *e = (fxgl_preset_effect){
        .file = file,
        .techniques = f->techs[f->count],
        .technique_count = n,
    };
    f->count++;
}

static void free_fixture(fixture *f) {
    for (size_t e = 0; e < f->count; e++) {
        for (size_t t = 0; t < f->effects[e].technique_count; t++) {
            free((char *)f->techs[e][t].name);
        }
    }
}

// The order as "Name@File,Name@File".
static void order_text(const fixture *f, const char *const *list, size_t n, char *buf) {
    fxgl_preset_technique_ref refs[4 * MAX_TECHS];
    size_t count = fxgl_preset_sort_techniques(list, n, f->effects, f->count, refs);
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        const fxgl_preset_effect *e = &f->effects[refs[i].effect];
        sprintf(buf + strlen(buf), "%s%s@%s", i ? "," : "", e->techniques[refs[i].technique].name,
                e->file);
    }
}

START_TEST(test_declaration_order_within_file) {
    fixture f = {0};
    const char *a[] = {"Zeta", "Alpha", "Mid"};
    add_effect(&f, "A.fx", a, 3);
    char buf[512];
    order_text(&f, NULL, 0, buf);
    ck_assert_str_eq(buf, "Zeta@A.fx,Alpha@A.fx,Mid@A.fx");
    free_fixture(&f);
}
END_TEST

START_TEST(test_list_overrides_then_rest) {
    fixture f = {0};
    const char *a[] = {"A1", "A2", "A3"};
    const char *b[] = {"B1", "B2"};
    add_effect(&f, "A.fx", a, 3);
    add_effect(&f, "B.fx", b, 2);
    const char *list[] = {"B2@B.fx", "A3@A.fx", "A1@A.fx"};
    char buf[512];
    order_text(&f, list, 3, buf);
    // Listed by position; the rest after them, alphabetical across files.
    ck_assert_str_eq(buf, "B2@B.fx,A3@A.fx,A1@A.fx,A2@A.fx,B1@B.fx");
    free_fixture(&f);
}
END_TEST

START_TEST(test_unlisted_alphabetical_by_label_upper_case) {
    fixture f = {0};
    const char *a[] = {"zz|beta"};
    const char *b[] = {"Gamma"};
    const char *c[] = {"yy|Alpha"};
    const char *d[] = {"A_B"}; // '_' (0x5F) sorts after upper-case letters
    add_effect(&f, "A.fx", a, 1);
    add_effect(&f, "B.fx", b, 1);
    add_effect(&f, "C.fx", c, 1);
    add_effect(&f, "D.fx", d, 1);
    char buf[512];
    order_text(&f, NULL, 0, buf);
    // Labels upper-cased: A_B, ALPHA, BETA, GAMMA ('_' 0x5F > 'L' 0x4C: A_B after ALPHA).
    ck_assert_str_eq(buf, "yy@C.fx,A_B@D.fx,zz@A.fx,Gamma@B.fx");
    free_fixture(&f);
}
END_TEST

START_TEST(test_label_ties_keep_input_order) {
    fixture f = {0};
    const char *a[] = {"Same"};
    const char *b[] = {"same"};
    const char *c[] = {"SAME"};
    add_effect(&f, "C.fx", a, 1);
    add_effect(&f, "A.fx", b, 1);
    add_effect(&f, "B.fx", c, 1);
    char buf[512];
    order_text(&f, NULL, 0, buf);
    ck_assert_str_eq(buf, "Same@C.fx,same@A.fx,SAME@B.fx");
    free_fixture(&f);
}
END_TEST

// The reference's comparator is not a strict weak order here; ours keeps both promises.
START_TEST(test_declaration_order_beats_alphabet_within_file) {
    fixture f = {0};
    const char *a[] = {"Zeta", "Alpha"};
    const char *b[] = {"Middle"};
    add_effect(&f, "A.fx", a, 2);
    add_effect(&f, "B.fx", b, 1);
    char buf[512];
    order_text(&f, NULL, 0, buf);
    ck_assert_str_eq(buf, "Middle@B.fx,Zeta@A.fx,Alpha@A.fx");
    free_fixture(&f);
}
END_TEST

START_TEST(test_stable_for_listed_and_unlisted_mix) {
    fixture f = {0};
    const char *a[] = {"A1", "A2", "A3", "A4"};
    add_effect(&f, "A.fx", a, 4);
    const char *list[] = {"A3@A.fx"};
    char buf[512];
    order_text(&f, list, 1, buf);
    ck_assert_str_eq(buf, "A3@A.fx,A1@A.fx,A2@A.fx,A4@A.fx");
    free_fixture(&f);
}
END_TEST

START_TEST(test_legacy_bare_names_and_missing_entries) {
    fixture f = {0};
    const char *a[] = {"Bloom", "Tonemap"};
    const char *b[] = {"Bloom"};
    add_effect(&f, "Z.fx", a, 2);
    add_effect(&f, "Y.fx", b, 1);
    // "Bloom" names both; "Tonemap@Other.fx" and "Nope" name nothing and are ignored.
    const char *list[] = {"Nope", "Tonemap@Other.fx", "Bloom", "Tonemap"};
    char buf[512];
    order_text(&f, list, 4, buf);
    ck_assert_str_eq(buf, "Bloom@Z.fx,Bloom@Y.fx,Tonemap@Z.fx");
    // A qualified entry wins over a bare one for the same technique.
    const char *list2[] = {"Bloom", "Bloom@Y.fx"};
    order_text(&f, list2, 2, buf);
    ck_assert_str_eq(buf, "Bloom@Z.fx,Bloom@Y.fx,Tonemap@Z.fx");
    const char *list3[] = {"Bloom@Y.fx", "Bloom"};
    order_text(&f, list3, 2, buf);
    ck_assert_str_eq(buf, "Bloom@Y.fx,Bloom@Z.fx,Tonemap@Z.fx");
    free_fixture(&f);
}
END_TEST

// TechniqueSorting, else the configuration's list, else Techniques; empty = absent.
START_TEST(test_list_fallback_chain) {
    fixture f = {0};
    const char *a[] = {"A1", "A2"};
    const char *b[] = {"B1"};
    add_effect(&f, "A.fx", a, 2);
    add_effect(&f, "B.fx", b, 1);
    const char *texts[] = {
        "Techniques=B1@B.fx,A2@A.fx\nTechniqueSorting=A2@A.fx,B1@B.fx,A1@A.fx\n",
        "Techniques=B1@B.fx,A2@A.fx\nTechniqueSorting=\n",
        "Techniques=B1@B.fx,A2@A.fx\n",
    };
    const char *fallback[] = {"A2@A.fx"};
    const char *expected_with_fallback[] = {
        "A2@A.fx,B1@B.fx,A1@A.fx",
        "A2@A.fx,A1@A.fx,B1@B.fx",
        "A2@A.fx,A1@A.fx,B1@B.fx",
    };
    const char *expected_without[] = {
        "A2@A.fx,B1@B.fx,A1@A.fx",
        "B1@B.fx,A2@A.fx,A1@A.fx",
        "B1@B.fx,A2@A.fx,A1@A.fx",
    };
    for (int i = 0; i < 3; i++) {
        fxgl_preset *p = fxgl_preset_create(&(fxgl_preset_desc){
            .text = texts[i],
            .len = strlen(texts[i]),
        });
        for (int with = 0; with < 2; with++) {
            fxgl_preset_technique_ref refs[8];
            size_t n = fxgl_preset_order(p, with ? fallback : NULL, with ? 1 : 0, f.effects,
                                         f.count, refs);
            char buf[256] = "";
            for (size_t k = 0; k < n; k++) {
                const fxgl_preset_effect *e = &f.effects[refs[k].effect];
                sprintf(buf + strlen(buf), "%s%s@%s", k ? "," : "",
                        e->techniques[refs[k].technique].name, e->file);
            }
            ck_assert_str_eq(buf, with ? expected_with_fallback[i] : expected_without[i]);
        }
        fxgl_preset_destroy(p);
    }
    free_fixture(&f);
}
END_TEST

static Suite *order_suite(void) {
    Suite *s = suite_create("order");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, test_declaration_order_within_file);
    tcase_add_test(tc, test_list_overrides_then_rest);
    tcase_add_test(tc, test_unlisted_alphabetical_by_label_upper_case);
    tcase_add_test(tc, test_label_ties_keep_input_order);
    tcase_add_test(tc, test_declaration_order_beats_alphabet_within_file);
    tcase_add_test(tc, test_stable_for_listed_and_unlisted_mix);
    tcase_add_test(tc, test_legacy_bare_names_and_missing_entries);
    tcase_add_test(tc, test_list_fallback_chain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(order_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
