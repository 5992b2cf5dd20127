/*
 * keys.c - Windows virtual-key codes <-> X11 keysyms, and `vk,ctrl,shift,alt` bindings.
 *
 * Presets made on Windows store keys as virtual-key codes (winuser.h VK_*), and the `key`
 * special uniform takes one in its `keycode` annotation; X11 delivers keysyms. One table
 * maps both ways. Letters, digits, F1-F24 and keypad digits are ranges and computed.
 * Several keysyms reach one key (both cases of a letter, the shifted US symbols, keypad
 * keys without NumLock, right-hand modifiers): those rows only map keysym -> vk, so the
 * reverse direction always gives the key's unshifted keysym. The punctuation rows follow
 * the US layout, which is what VK_OEM_* names on Windows too.
 */
#include "preset_internal.h"

#include <X11/XF86keysym.h>
#include <X11/keysym.h>
#include <stdio.h>
#include <string.h>

enum {
    TO_SYM = 1,                  // vk -> keysym uses this row
    TO_VK = 2,                   // keysym -> vk uses this row
    BOTH = TO_SYM | TO_VK,
};

typedef struct key_row {
    uint8_t vk;                  // VK_* code
    uint8_t dir;                 // TO_SYM, TO_VK or BOTH
    uint32_t keysym;             // XK_* value
    const char *name;            // English key name (only needed on TO_SYM rows)
} key_row;

static const key_row key_rows[] = {
    {0x08, BOTH, XK_BackSpace, "Backspace"},
    {0x09, BOTH, XK_Tab, "Tab"},
    {0x09, TO_VK, XK_ISO_Left_Tab, NULL},
    {0x0C, BOTH, XK_Clear, "Clear"},
    {0x0C, TO_VK, XK_KP_Begin, NULL},
    {0x0D, BOTH, XK_Return, "Enter"},
    {0x0D, TO_VK, XK_KP_Enter, NULL}, // Windows has no own code for it, only a flag
    {0x10, BOTH, XK_Shift_L, "Shift"},
    {0x11, BOTH, XK_Control_L, "Ctrl"},
    {0x12, BOTH, XK_Alt_L, "Alt"},
    {0x13, BOTH, XK_Pause, "Pause"},
    {0x14, BOTH, XK_Caps_Lock, "Caps Lock"},
    {0x1B, BOTH, XK_Escape, "Escape"},
    {0x20, BOTH, XK_space, "Space"},
    {0x21, BOTH, XK_Prior, "Page Up"},
    {0x22, BOTH, XK_Next, "Page Down"},
    {0x23, BOTH, XK_End, "End"},
    {0x24, BOTH, XK_Home, "Home"},
    {0x25, BOTH, XK_Left, "Left Arrow"},
    {0x26, BOTH, XK_Up, "Up Arrow"},
    {0x27, BOTH, XK_Right, "Right Arrow"},
    {0x28, BOTH, XK_Down, "Down Arrow"},
    {0x29, BOTH, XK_Select, "Select"},
    {0x2B, BOTH, XK_Execute, "Execute"},
    {0x2C, BOTH, XK_Print, "Print Screen"},
    {0x2C, TO_VK, XK_Sys_Req, NULL},
    {0x2D, BOTH, XK_Insert, "Insert"},
    {0x2E, BOTH, XK_Delete, "Delete"},
    {0x2F, BOTH, XK_Help, "Help"},
    // Shifted digits on the US layout reach the digit's key.
    {'1', TO_VK, XK_exclam, NULL},
    {'2', TO_VK, XK_at, NULL},
    {'3', TO_VK, XK_numbersign, NULL},
    {'4', TO_VK, XK_dollar, NULL},
    {'5', TO_VK, XK_percent, NULL},
    {'6', TO_VK, XK_asciicircum, NULL},
    {'7', TO_VK, XK_ampersand, NULL},
    {'8', TO_VK, XK_asterisk, NULL},
    {'9', TO_VK, XK_parenleft, NULL},
    {'0', TO_VK, XK_parenright, NULL},
    {0x5B, BOTH, XK_Super_L, "Left Windows"},
    {0x5C, BOTH, XK_Super_R, "Right Windows"},
    {0x5D, BOTH, XK_Menu, "Menu"},
    {0x5F, BOTH, XF86XK_Sleep, "Sleep"},
    {0x6A, BOTH, XK_KP_Multiply, "Num *"},
    {0x6B, BOTH, XK_KP_Add, "Num +"},
    {0x6C, BOTH, XK_KP_Separator, "Num Separator"},
    {0x6D, BOTH, XK_KP_Subtract, "Num -"},
    {0x6E, BOTH, XK_KP_Decimal, "Num ."},
    {0x6F, BOTH, XK_KP_Divide, "Num /"},
    // Keypad keys without NumLock send the navigation codes on Windows.
    {0x2D, TO_VK, XK_KP_Insert, NULL},
    {0x2E, TO_VK, XK_KP_Delete, NULL},
    {0x23, TO_VK, XK_KP_End, NULL},
    {0x28, TO_VK, XK_KP_Down, NULL},
    {0x22, TO_VK, XK_KP_Next, NULL},
    {0x25, TO_VK, XK_KP_Left, NULL},
    {0x27, TO_VK, XK_KP_Right, NULL},
    {0x24, TO_VK, XK_KP_Home, NULL},
    {0x26, TO_VK, XK_KP_Up, NULL},
    {0x21, TO_VK, XK_KP_Prior, NULL},
    {0x90, BOTH, XK_Num_Lock, "Num Lock"},
    {0x91, BOTH, XK_Scroll_Lock, "Scroll Lock"},
    // Windows posts the generic VK_SHIFT/VK_CONTROL/VK_MENU for either side, and presets
    // store those; the sided codes only map to their keysym.
    {0x10, TO_VK, XK_Shift_R, NULL},
    {0x11, TO_VK, XK_Control_R, NULL},
    {0x12, TO_VK, XK_Alt_R, NULL},
    {0x12, TO_VK, XK_ISO_Level3_Shift, NULL}, // AltGr
    {0x12, TO_VK, XK_Meta_L, NULL},
    {0x12, TO_VK, XK_Meta_R, NULL},
    {0xA0, TO_SYM, XK_Shift_L, "Left Shift"},
    {0xA1, TO_SYM, XK_Shift_R, "Right Shift"},
    {0xA2, TO_SYM, XK_Control_L, "Left Ctrl"},
    {0xA3, TO_SYM, XK_Control_R, "Right Ctrl"},
    {0xA4, TO_SYM, XK_Alt_L, "Left Alt"},
    {0xA5, TO_SYM, XK_Alt_R, "Right Alt"},
    {0xA6, BOTH, XF86XK_Back, "Browser Back"},
    {0xA7, BOTH, XF86XK_Forward, "Browser Forward"},
    {0xA8, BOTH, XF86XK_Refresh, "Browser Refresh"},
    {0xA9, BOTH, XF86XK_Stop, "Browser Stop"},
    {0xAA, BOTH, XF86XK_Search, "Browser Search"},
    {0xAB, BOTH, XF86XK_Favorites, "Browser Favorites"},
    {0xAC, BOTH, XF86XK_HomePage, "Browser Home"},
    {0xAD, BOTH, XF86XK_AudioMute, "Volume Mute"},
    {0xAE, BOTH, XF86XK_AudioLowerVolume, "Volume Down"},
    {0xAF, BOTH, XF86XK_AudioRaiseVolume, "Volume Up"},
    {0xB0, BOTH, XF86XK_AudioNext, "Next Track"},
    {0xB1, BOTH, XF86XK_AudioPrev, "Previous Track"},
    {0xB2, BOTH, XF86XK_AudioStop, "Stop"},
    {0xB3, BOTH, XF86XK_AudioPlay, "Play/Pause"},
    {0xB3, TO_VK, XF86XK_AudioPause, NULL},
    {0xB4, BOTH, XF86XK_Mail, "Mail"},
    {0xB5, BOTH, XF86XK_AudioMedia, "Media"},
    {0xB6, BOTH, XF86XK_Launch0, "Launch App 1"},
    {0xB7, BOTH, XF86XK_Launch1, "Launch App 2"},
    // VK_OEM_*: the US layout, unshifted keysym both ways, shifted keysym to the key.
    {0xBA, BOTH, XK_semicolon, ";"},
    {0xBA, TO_VK, XK_colon, NULL},
    {0xBB, BOTH, XK_equal, "="},
    {0xBB, TO_VK, XK_plus, NULL},
    {0xBC, BOTH, XK_comma, ","},
    {0xBC, TO_VK, XK_less, NULL},
    {0xBD, BOTH, XK_minus, "-"},
    {0xBD, TO_VK, XK_underscore, NULL},
    {0xBE, BOTH, XK_period, "."},
    {0xBE, TO_VK, XK_greater, NULL},
    {0xBF, BOTH, XK_slash, "/"},
    {0xBF, TO_VK, XK_question, NULL},
    {0xC0, BOTH, XK_grave, "`"},
    {0xC0, TO_VK, XK_asciitilde, NULL},
    {0xDB, BOTH, XK_bracketleft, "["},
    {0xDB, TO_VK, XK_braceleft, NULL},
    {0xDC, BOTH, XK_backslash, "\\"},
    {0xDC, TO_VK, XK_bar, NULL},
    {0xDD, BOTH, XK_bracketright, "]"},
    {0xDD, TO_VK, XK_braceright, NULL},
    {0xDE, BOTH, XK_apostrophe, "'"},
    {0xDE, TO_VK, XK_quotedbl, NULL},
    // The 102nd key of ISO keyboards; its keysym `less` already means Shift+comma (US).
    {0xE2, TO_SYM, XK_less, "OEM 102"},
};

uint32_t fxgl_preset_vk_to_keysym(uint32_t vk) {
    if (vk >= 'A' && vk <= 'Z') {
        return XK_a + (vk - 'A');
    }
    if (vk >= '0' && vk <= '9') {
        return XK_0 + (vk - '0');
    }
    if (vk >= 0x60 && vk <= 0x69) {
        return XK_KP_0 + (vk - 0x60);
    }
    if (vk >= 0x70 && vk <= 0x87) {
        return XK_F1 + (vk - 0x70);
    }
    for (size_t i = 0; i < sizeof(key_rows) / sizeof(key_rows[0]); i++) {
        if (key_rows[i].vk == vk && (key_rows[i].dir & TO_SYM)) {
            return key_rows[i].keysym;
        }
    }
    return 0;
}

uint32_t fxgl_preset_keysym_to_vk(uint32_t keysym) {
    if (keysym >= XK_a && keysym <= XK_z) {
        return 'A' + (keysym - XK_a);
    }
    if (keysym >= XK_A && keysym <= XK_Z) {
        return 'A' + (keysym - XK_A);
    }
    if (keysym >= XK_0 && keysym <= XK_9) {
        return '0' + (keysym - XK_0);
    }
    if (keysym >= XK_KP_0 && keysym <= XK_KP_9) {
        return 0x60 + (keysym - XK_KP_0);
    }
    if (keysym >= XK_F1 && keysym <= XK_F24) {
        return 0x70 + (keysym - XK_F1);
    }
    for (size_t i = 0; i < sizeof(key_rows) / sizeof(key_rows[0]); i++) {
        if (key_rows[i].keysym == keysym && (key_rows[i].dir & TO_VK)) {
            return key_rows[i].vk;
        }
    }
    return 0;
}

const char *fxgl_preset_vk_name(uint32_t vk) {
    // Names of the computed ranges, so the function can return a static string.
    static const char *const letters[] = {
        "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
        "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
    };
    static const char *const digits[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
    static const char *const numpad[] = {
        "Num 0", "Num 1", "Num 2", "Num 3", "Num 4", "Num 5", "Num 6", "Num 7", "Num 8", "Num 9",
    };
    static const char *const fkeys[] = {
        "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
        "F13", "F14", "F15", "F16", "F17", "F18", "F19", "F20", "F21", "F22", "F23", "F24",
    };
    if (vk >= 'A' && vk <= 'Z') {
        return letters[vk - 'A'];
    }
    if (vk >= '0' && vk <= '9') {
        return digits[vk - '0'];
    }
    if (vk >= 0x60 && vk <= 0x69) {
        return numpad[vk - 0x60];
    }
    if (vk >= 0x70 && vk <= 0x87) {
        return fkeys[vk - 0x70];
    }
    for (size_t i = 0; i < sizeof(key_rows) / sizeof(key_rows[0]); i++) {
        if (key_rows[i].vk == vk && (key_rows[i].dir & TO_SYM)) {
            return key_rows[i].name;
        }
    }
    return NULL;
}

bool fxgl_preset_key_parse(const char *const *elements, size_t count, fxgl_preset_key *key) {
    *key = (fxgl_preset_key){0};
    unsigned long values[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < 4 && i < count; i++) {
        if (!preset_parse_ulong(elements[i], &values[i]) && i == 0) {
            return false;
        }
    }
    if (count == 0 || values[0] > 255) {
        return false;
    }
    *key = (fxgl_preset_key){
        .vk = (uint32_t)values[0],
        .ctrl = values[1] != 0,
        .shift = values[2] != 0,
        .alt = values[3] != 0,
    };
    return true;
}

void fxgl_preset_key_format(const fxgl_preset_key *key, char *buf, size_t size) {
    snprintf(buf, size, "%u,%d,%d,%d", (unsigned)key->vk, key->ctrl, key->shift, key->alt);
}

void fxgl_preset_key_describe(const fxgl_preset_key *key, char *buf, size_t size) {
    if (key->vk == 0) {
        snprintf(buf, size, "%s", "");
        return;
    }
    const char *name = fxgl_preset_vk_name(key->vk);
    char unknown[16];
    if (name == NULL) {
        snprintf(unknown, sizeof(unknown), "0x%02X", (unsigned)key->vk);
        name = unknown;
    }
    snprintf(buf, size, "%s%s%s%s", key->ctrl ? "Ctrl + " : "", key->shift ? "Shift + " : "",
             key->alt ? "Alt + " : "", name);
}
