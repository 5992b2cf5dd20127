/*
 * test_keys.c - virtual-key codes <-> keysyms both ways, and `vk,ctrl,shift,alt` bindings.
 * Expected values are written from winuser.h and keysymdef.h by hand.
 */
#include "fxgl_preset.h"

#include <X11/XF86keysym.h>
#include <X11/keysym.h>
#include <check.h>
#include <stdlib.h>

typedef struct pair {
    uint32_t vk;
    uint32_t keysym;
} pair;

// Keys that map both ways.
static const pair both_ways[] = {
    {0x41, XK_a},         {0x5A, XK_z},          {0x30, XK_0},          {0x39, XK_9},
    {0x70, XK_F1},        {0x7B, XK_F12},        {0x87, XK_F24},        {0x60, XK_KP_0},
    {0x69, XK_KP_9},      {0x6A, XK_KP_Multiply}, {0x6B, XK_KP_Add},    {0x6D, XK_KP_Subtract},
    {0x6E, XK_KP_Decimal}, {0x6F, XK_KP_Divide}, {0x25, XK_Left},       {0x26, XK_Up},
    {0x27, XK_Right},     {0x28, XK_Down},       {0x24, XK_Home},       {0x23, XK_End},
    {0x21, XK_Prior},     {0x22, XK_Next},       {0x2D, XK_Insert},     {0x2E, XK_Delete},
    {0x13, XK_Pause},     {0x2C, XK_Print},      {0x91, XK_Scroll_Lock}, {0x90, XK_Num_Lock},
    {0x14, XK_Caps_Lock}, {0x1B, XK_Escape},     {0x20, XK_space},      {0x0D, XK_Return},
    {0x09, XK_Tab},       {0x08, XK_BackSpace},  {0x10, XK_Shift_L},    {0x11, XK_Control_L},
    {0x12, XK_Alt_L},     {0x5B, XK_Super_L},    {0x5C, XK_Super_R},    {0x5D, XK_Menu},
    {0xBA, XK_semicolon}, {0xBB, XK_equal},      {0xBC, XK_comma},      {0xBD, XK_minus},
    {0xBE, XK_period},    {0xBF, XK_slash},      {0xC0, XK_grave},      {0xDB, XK_bracketleft},
    {0xDC, XK_backslash}, {0xDD, XK_bracketright}, {0xDE, XK_apostrophe},
    {0xAD, XF86XK_AudioMute}, {0xB3, XF86XK_AudioPlay},
};

// Keysyms that reach a key but are not its own keysym.
static const pair to_vk_only[] = {
    {0x41, XK_A},        {0x31, XK_exclam},     {0x30, XK_parenright}, {0xBA, XK_colon},
    {0xBB, XK_plus},     {0xBD, XK_underscore}, {0xDE, XK_quotedbl},   {0xC0, XK_asciitilde},
    {0x10, XK_Shift_R},  {0x11, XK_Control_R},  {0x12, XK_Alt_R},      {0x0D, XK_KP_Enter},
    {0x24, XK_KP_Home},  {0x2E, XK_KP_Delete},  {0x09, XK_ISO_Left_Tab},
};

START_TEST(test_both_ways) {
    for (size_t i = 0; i < sizeof(both_ways) / sizeof(both_ways[0]); i++) {
        ck_assert_msg(fxgl_preset_vk_to_keysym(both_ways[i].vk) == both_ways[i].keysym,
                      "vk 0x%02X", both_ways[i].vk);
        ck_assert_msg(fxgl_preset_keysym_to_vk(both_ways[i].keysym) == both_ways[i].vk,
                      "keysym 0x%X", both_ways[i].keysym);
    }
}
END_TEST

START_TEST(test_keysym_to_vk_only) {
    for (size_t i = 0; i < sizeof(to_vk_only) / sizeof(to_vk_only[0]); i++) {
        ck_assert_msg(fxgl_preset_keysym_to_vk(to_vk_only[i].keysym) == to_vk_only[i].vk,
                      "keysym 0x%X", to_vk_only[i].keysym);
    }
    // Sided modifier codes give their own keysyms.
    ck_assert_uint_eq(fxgl_preset_vk_to_keysym(0xA1), XK_Shift_R);
    ck_assert_uint_eq(fxgl_preset_vk_to_keysym(0xA3), XK_Control_R);
    ck_assert_uint_eq(fxgl_preset_vk_to_keysym(0xE2), XK_less);
}
END_TEST

START_TEST(test_every_vk_round_trips_or_is_unmapped) {
    // Whatever maps to a keysym must come back to itself, except the few keys that share
    // one keysym with a generic or US code.
    for (uint32_t vk = 1; vk < 256; vk++) {
        uint32_t sym = fxgl_preset_vk_to_keysym(vk);
        if (sym == 0 || vk == 0xA0 || vk == 0xA1 || vk == 0xA2 || vk == 0xA3 || vk == 0xA4 ||
            vk == 0xA5 || vk == 0xE2) {
            continue;
        }
        ck_assert_msg(fxgl_preset_keysym_to_vk(sym) == vk, "vk 0x%02X", vk);
        ck_assert_ptr_nonnull(fxgl_preset_vk_name(vk));
    }
    ck_assert_uint_eq(fxgl_preset_vk_to_keysym(0), 0);
    ck_assert_uint_eq(fxgl_preset_vk_to_keysym(0xFF), 0);
    ck_assert_uint_eq(fxgl_preset_keysym_to_vk(0x12345678), 0);
}
END_TEST

START_TEST(test_parse_and_format) {
    const char *elements[] = {"76", "0", "1", "0"};
    fxgl_preset_key key;
    ck_assert(fxgl_preset_key_parse(elements, 4, &key));
    ck_assert_uint_eq(key.vk, 76);
    ck_assert(!key.ctrl && key.shift && !key.alt);
    char buf[32];
    fxgl_preset_key_format(&key, buf, sizeof(buf));
    ck_assert_str_eq(buf, "76,0,1,0");
    fxgl_preset_key_describe(&key, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Shift + L");
    const char *short_list[] = {"36"};
    ck_assert(fxgl_preset_key_parse(short_list, 1, &key));
    ck_assert_uint_eq(key.vk, 36);
    ck_assert(!key.shift);
    const char *bad[] = {"x", "1"};
    ck_assert(!fxgl_preset_key_parse(bad, 2, &key));
    ck_assert_uint_eq(key.vk, 0);
    const char *big[] = {"300", "0", "0", "0"};
    ck_assert(!fxgl_preset_key_parse(big, 4, &key));
    fxgl_preset_key ctrl_alt_f5 = {.vk = 0x74, .ctrl = true, .alt = true};
    fxgl_preset_key_describe(&ctrl_alt_f5, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Ctrl + Alt + F5");
}
END_TEST

static Suite *keys_suite(void) {
    Suite *s = suite_create("keys");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, test_both_ways);
    tcase_add_test(tc, test_keysym_to_vk_only);
    tcase_add_test(tc, test_every_vk_round_trips_or_is_unmapped);
    tcase_add_test(tc, test_parse_and_format);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *runner = srunner_create(keys_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
