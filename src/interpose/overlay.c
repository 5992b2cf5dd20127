/*
 * overlay.c - the editing overlay: the effect chain seen and changed while
 * the program runs (KeyOverlay, Home by default, as the reference's).
 *
 * This file owns the overlay's state (open, cursor, search text, collapsed
 * categories, the selected effect), reads the frame's input snapshot
 * (input.c / wayland.c) and lays out the panel into the inspection layer's
 * list (src/gl/ui.c), which is drawn after the effects. What it changes goes
 * through the calls everything else uses: technique on/off, values and
 * saving through effect_host.c (the preset's view of each effect, so a save
 * writes what is shown), order through the effect set, presets and
 * performance mode through the same requests as their keys and `fxgl ctl`.
 *
 * Closed, a frame reads one key and returns: no list is built, the layer
 * draws nothing and makes no GL call for it.
 *
 * Keys while open (the rows are one list; the cursor skips what cannot be
 * acted on):
 *   Up/Down            move the cursor (held: repeats after 20 frames)
 *   Space/Enter        tick a technique, open/close a category, flip a bool,
 *                      on the preset row save
 *   Left/Right         change a value by its ui_step (combo/radio/list: the
 *                      previous/next item), on the preset row switch presets
 *   Ctrl+Up/Ctrl+Down  move the technique under the cursor in the order
 *   Delete             reset the variable under the cursor to its default (a
 *                      definition: undefined, the effect's own default)
 *   Enter on a definition: type its value, Enter again applies it (the effect
 *                      recompiles on the reload worker; the running version
 *                      stays until the new one is in, or when it fails)
 *   Enter on a listed preset: switch to it; on Save as: save as the typed name
 *   letters, digits    the row being typed into (a definition, Save as), else
 *                      search (techniques whose label or name contains it)
 *   Backspace          delete the text's last character
 *   Ctrl+S             save the preset          Ctrl+P  performance mode
 *   Tab                the statistics panel and back
 * Mouse: a click on a row moves the cursor there and acts as Space does on
 * its checkbox or header; a click or drag on a slider sets its value; a
 * technique dragged onto another row takes that place in the order.
 *
 * Key repeat counts frames, not time: the same key held the same number of
 * frames does the same thing on a fast and on a loaded machine (the test
 * relies on it).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fxgl_fx.h"
#include "fxgl_gl.h"
#include "fxgl_interpose.h"
#include "fxgl_preset.h"
#include "fxgl_ui.h"

#define OV_ITEMS 64              // effect files listed
#define OV_TECHS 512             // techniques in the order
#define OV_ROWS 1024             // rows laid out
#define OV_CATS 64               // categories remembered open/closed
#define OV_REPEAT_FRAMES 20      // a held key repeats after this many frames
#define OV_SEARCH 48
#define OV_DEFS 64               // definitions listed for the selected effect
#define OV_PRESETS 64            // presets listed beside the current one
#define OV_VALUE 128             // a definition's value or a preset name typed

#define VK_BACK 0x08
#define VK_TAB 0x09
#define VK_RETURN 0x0D
#define VK_SHIFT 0x10
#define VK_CONTROL 0x11
#define VK_MENU 0x12
#define VK_SPACE 0x20
#define VK_LEFT 0x25
#define VK_UP 0x26
#define VK_RIGHT 0x27
#define VK_DOWN 0x28
#define VK_ESCAPE 0x1B
#define VK_DELETE 0x2E
#define VK_OEM_MINUS 0xBD
#define VK_OEM_PERIOD 0xBE

// Colours, 0xRRGGBBAA.
#define C_PANEL 0x101418E0u
#define C_TEXT 0xE8E8E8FFu
#define C_DIM 0x9098A0FFu
#define C_CURSOR 0x3A5A8CFFu
#define C_HEADER 0x26303CFFu
#define C_ERROR 0xFF6060FFu
#define C_ACCENT 0x70A8FFFFu
#define C_BOX 0x2A2F36FFu
#define C_FILL 0x4A78C0FFu

typedef enum ov_kind {
    ROW_TITLE,                   // text only
    ROW_SEARCH,
    ROW_PRESET,
    ROW_PERF,
    ROW_TECH,
    ROW_ERROR,                   // text only
    ROW_CATEGORY,
    ROW_VAR,
    ROW_NOTE,                    // text only
    ROW_DEFINE,                  // a preprocessor definition of the selected effect
    ROW_PRESET_FILE,             // a preset beside the current one
    ROW_SAVE_AS,                 // the name to save the preset as
} ov_kind;

typedef struct ov_row {
    ov_kind kind;
    int item;                    // ROW_TECH, ROW_VAR, ROW_CATEGORY: index in items
    int order;                   // ROW_TECH: position in the runtime's order
    int technique;               // ROW_TECH: index in its effect
    int uniform;                 // ROW_VAR: index in the module's uniforms
    int comp;                    // ROW_VAR: component
    int cat;                     // ROW_CATEGORY: index in cats
    int index;                   // ROW_DEFINE: in defines; ROW_PRESET_FILE: in presets
    char text[160];              // ROW_TITLE, ROW_ERROR, ROW_NOTE, ROW_CATEGORY
} ov_row;

typedef struct ov_cat {
    char key[160];               // "File.fx/Category"
    bool open;
} ov_cat;

struct ip_overlay {
    bool open;
    bool stats;                  // the statistics panel
    int cursor;                  // row index
    int want_cursor_order;       // after a move: the order position to put the cursor on, -1
    int scroll;                  // first row shown
    char search[OV_SEARCH];
    char selected[160];          // the effect whose variables are shown (file name)
    char message[256];           // the last action's outcome
    int held[256];               // frames each key has been down
    bool mouse_slider;           // a slider is being dragged
    int drag_order;              // a technique being dragged, -1 none
    ov_cat cats[OV_CATS];
    size_t cat_count;
    double frame_ms;             // smoothed frame interval
    double last_now;
    float logged_line, logged_width; // the layout last logged (debug)
    int editing;                 // ROW_DEFINE being typed into (its index), -1 none
    char edit[OV_VALUE];         // what is typed there
    char save_as[OV_VALUE];      // the name typed on the save-as row
    unsigned defines_gen;        // bumped by an edit: the definitions are read again
    bool presets_stale;          // the preset list is read again (opening, switch, save)
    char cursor_said[200];       // the cursor's row as last logged (debug)
    struct ov_data *d;           // the rows, made at the first opening (about 200 KiB)
};

// What a frame lays out, rebuilt each frame while open in memory kept from the first.
typedef struct ov_data {
    ip_effect_host_item items[OV_ITEMS];
    size_t item_count;
    fxgl_technique_ref order[OV_TECHS];
    size_t order_count;
    ov_row rows[OV_ROWS];
    size_t row_count;
    float row_y[OV_ROWS];        // where each row was drawn (the mouse hits those), -1e9 not
    // The selected effect's definitions, read when it or an edit changes (they allocate).
    const fxgl_effect *defines_of;
    unsigned defines_gen;
    char define_name[OV_DEFS][64];
    char define_value[OV_DEFS][OV_VALUE];
    size_t define_count;
    // The presets beside the current one, read at the opening and after a switch or save.
    char presets[OV_PRESETS][IP_PRESET_NAME];
    size_t preset_count, preset_current;
    char presets_for[1024];      // the preset path they were read for
} ov_data;

ip_overlay *ip_overlay_create(void) {
    ip_overlay *ov = calloc(1, sizeof(*ov));
    if (ov) {
        ov->want_cursor_order = -1;
        ov->drag_order = -1;
        ov->editing = -1;
    }
    return ov;
}

void ip_overlay_destroy(ip_overlay *ov) {
    if (ov) {
        free(ov->d);
    }
    free(ov);
}

bool ip_overlay_is_open(const ip_overlay *ov) {
    return ov && ov->open;
}

// --- annotations ---

static const fxgl_annotation *ann(const fxgl_annotations *a, const char *name) {
    return fxgl_annotation_find(a, name);
}

static const char *ann_string(const fxgl_annotations *a, const char *name) {
    const fxgl_annotation *x = ann(a, name);
    return x && x->value.scalar == FXGL_SCALAR_STRING ? x->value.string : NULL;
}

static bool ann_number(const fxgl_annotations *a, const char *name, double *out) {
    const fxgl_annotation *x = ann(a, name);
    if (!x || x->value.count < 1) {
        return false;
    }
    switch (x->value.scalar) {
    case FXGL_SCALAR_FLOAT: *out = x->value.f[0]; return true;
    case FXGL_SCALAR_UINT: *out = x->value.u[0]; return true;
    case FXGL_SCALAR_INT:
    case FXGL_SCALAR_BOOL: *out = x->value.i[0]; return true;
    default: return false;
    }
}

static bool ann_true(const fxgl_annotations *a, const char *name) {
    double v = 0;
    return ann_number(a, name, &v) && v != 0;
}

// ui_items: entries each ended by '\0' inside string_len.
static int item_count(const fxgl_annotations *a) {
    const fxgl_annotation *x = ann(a, "ui_items");
    if (!x || x->value.scalar != FXGL_SCALAR_STRING || !x->value.string) {
        return 0;
    }
    int n = 0;
    for (size_t i = 0; i < x->value.string_len; i++) {
        n += x->value.string[i] == '\0';
    }
    if (x->value.string_len && x->value.string[x->value.string_len - 1] != '\0') {
        n++;
    }
    return n;
}

static const char *item_text(const fxgl_annotations *a, int k) {
    const fxgl_annotation *x = ann(a, "ui_items");
    if (!x || k < 0) {
        return "";
    }
    const char *s = x->value.string, *end = s + x->value.string_len;
    for (int i = 0; i < k && s < end; i++) {
        s += strlen(s) + 1;
    }
    return s < end ? s : "";
}

// What a preset holds a value of (src/effects/view.c): an array by its first element,
// a string not at all.
static bool preset_visible(const fxgl_uniform *u) {
    return u->scalar != FXGL_SCALAR_STRING && u->rows * u->cols <= FXGL_PRESET_MAX_COMPONENTS;
}

static bool contains_ci(const char *hay, const char *needle) {
    if (!needle[0]) {
        return true;
    }
    for (; hay && *hay; hay++) {
        size_t i = 0;
        while (needle[i] && hay[i] && tolower((unsigned char)hay[i]) ==
                                          tolower((unsigned char)needle[i])) {
            i++;
        }
        if (!needle[i]) {
            return true;
        }
    }
    return false;
}

// --- rows ---

static ov_row *add_row(ip_overlay *ov, ov_kind kind) {
    if (ov->d->row_count >= OV_ROWS) {
        return NULL;
    }
    ov_row *r = &ov->d->rows[ov->d->row_count++];
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    r->item = r->order = r->technique = r->uniform = r->cat = r->index = -1;
    return r;
}

static int item_of_runtime(const ip_overlay *ov, size_t runtime_index) {
    for (size_t i = 0; i < ov->d->item_count; i++) {
        if (ov->d->items[i].runtime_index == runtime_index) {
            return (int)i;
        }
    }
    return -1;
}

static ov_cat *category(ip_overlay *ov, const char *file, const char *name, bool closed) {
    char key[160];
    snprintf(key, sizeof(key), "%s/%s", file, name);
    for (size_t i = 0; i < ov->cat_count; i++) {
        if (strcmp(ov->cats[i].key, key) == 0) {
            return &ov->cats[i];
        }
    }
    if (ov->cat_count == OV_CATS) {
        return NULL;
    }
    ov_cat *c = &ov->cats[ov->cat_count++];
    snprintf(c->key, sizeof(c->key), "%s", key);
    c->open = !closed;
    return c;
}

static const char *tech_label(const fxgl_technique *t) {
    return t->label && t->label[0] ? t->label : t->name;
}

static void add_variables(ip_overlay *ov, int item) {
    const ip_effect_host_item *it = &ov->d->items[item];
    const fxgl_effect *e = it->effect;
    // Categories in the order they first appear, uncategorised variables first.
    const char *names[OV_CATS];
    size_t n = 0;
    names[n++] = "";
    for (size_t k = 0; k < e->uniform_count; k++) {
        const char *c = ann_string(&e->uniforms[k].annotations, "ui_category");
        bool seen = false;
        for (size_t i = 0; c && i < n; i++) {
            seen = seen || strcmp(names[i], c) == 0;
        }
        if (c && !seen && n < OV_CATS) {
            names[n++] = c;
        }
    }
    bool any = false;
    for (size_t ci = 0; ci < n; ci++) {
        bool header = false, open = true;
        for (size_t k = 0; k < e->uniform_count; k++) {
            const fxgl_uniform *u = &e->uniforms[k];
            if (!preset_visible(u)) {
                continue;
            }
            const char *c = ann_string(&u->annotations, "ui_category");
            if (strcmp(c ? c : "", names[ci]) != 0 || u->special != FXGL_SPECIAL_NONE ||
                ann_true(&u->annotations, "hidden") || k >= it->view->uniform_count ||
                it->view->uniforms[k].nosave) {
                continue;
            }
            if (names[ci][0] && !header) {
                header = true;
                ov_cat *cat = category(ov, it->file, names[ci],
                                       ann_true(&u->annotations, "ui_category_closed"));
                open = !cat || cat->open;
                ov_row *r = add_row(ov, ROW_CATEGORY);
                if (r) {
                    r->item = item;
                    r->cat = cat ? (int)(cat - ov->cats) : -1;
                    snprintf(r->text, sizeof(r->text), "%s %s", open ? "-" : "+", names[ci]);
                }
            }
            if (!open) {
                continue;
            }
            for (int comp = 0; comp < u->rows * u->cols; comp++) {
                ov_row *r = add_row(ov, ROW_VAR);
                if (r) {
                    r->item = item;
                    r->uniform = (int)k;
                    r->comp = comp;
                    any = true;
                }
            }
        }
    }
    if (!any) {
        ov_row *r = add_row(ov, ROW_NOTE);
        if (r) {
            snprintf(r->text, sizeof(r->text), "%s has no variables to edit", it->file);
        }
    }
}

// The selected effect's definitions, read again when its compiled version or an edit
// changes (reading allocates; a frame that changes nothing reads nothing).
static void read_defines(ip_overlay *ov, ip_effect_host *fx, int item) {
    const ip_effect_host_item *it = &ov->d->items[item];
    if (ov->d->defines_of == it->effect && ov->d->defines_gen == ov->defines_gen) {
        return;
    }
    ov->d->defines_of = it->effect;
    ov->d->defines_gen = ov->defines_gen;
    ov->d->define_count = 0;
    fxgl_preset_define_list list;
    if (!ip_effect_host_defines(fx, it->member, &list)) {
        return;
    }
    for (size_t i = 0; i < list.count && ov->d->define_count < OV_DEFS; i++) {
        if (strlen(list.items[i].name) < sizeof(ov->d->define_name[0])) {
            size_t k = ov->d->define_count++;
            snprintf(ov->d->define_name[k], sizeof(ov->d->define_name[k]), "%s",
                     list.items[i].name);
            snprintf(ov->d->define_value[k], sizeof(ov->d->define_value[k]), "%s",
                     list.items[i].value);
        }
    }
    fxgl_preset_define_list_finish(&list);
}

static void add_defines(ip_overlay *ov, ip_effect_host *fx, int item) {
    read_defines(ov, fx, item);
    const ip_effect_host_item *it = &ov->d->items[item];
    ov_cat *cat = category(ov, it->file, "#Preprocessor definitions", false);
    bool open = !cat || cat->open;
    ov_row *h = add_row(ov, ROW_CATEGORY);
    if (h) {
        h->item = item;
        h->cat = cat ? (int)(cat - ov->cats) : -1;
        snprintf(h->text, sizeof(h->text), "%s Preprocessor definitions (%zu)",
                 open ? "-" : "+", ov->d->define_count);
    }
    for (size_t i = 0; open && i < ov->d->define_count; i++) {
        ov_row *r = add_row(ov, ROW_DEFINE);
        if (r) {
            r->item = item;
            r->index = (int)i;
        }
    }
}

// The presets beside the current one, read when the current one changed or after a save.
static void add_presets(ip_overlay *ov) {
    char path[sizeof(ov->d->presets_for)];
    ip_effect_host_preset_path(path, sizeof(path));
    if (ov->presets_stale || strcmp(path, ov->d->presets_for) != 0) {
        ov->presets_stale = false;
        snprintf(ov->d->presets_for, sizeof(ov->d->presets_for), "%s", path);
        ov->d->preset_count = ip_effect_host_presets(ov->d->presets, OV_PRESETS,
                                                     &ov->d->preset_current);
    }
    ov_row *t = add_row(ov, ROW_TITLE);
    if (t) {
        snprintf(t->text, sizeof(t->text), "Presets (Enter: switch)");
    }
    for (size_t i = 0; i < ov->d->preset_count; i++) {
        ov_row *r = add_row(ov, ROW_PRESET_FILE);
        if (r) {
            r->index = (int)i;
        }
    }
    add_row(ov, ROW_SAVE_AS);
}

static bool interactive(const ov_row *r);

// The same row in another build: what it shows, not where it is.
static bool same_row(const ov_row *a, const ov_row *b) {
    return a->kind == b->kind && a->item == b->item && a->technique == b->technique &&
           a->uniform == b->uniform && a->comp == b->comp && a->cat == b->cat &&
           a->index == b->index;
}

static void build_rows(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, fxgl_ui *ui) {
    // The cursor stays on its row when rows appear or go above it (an error listed, a
    // search typed, a recompile's new version), unless a move placed it (want_cursor_order).
    ov_row was = {.kind = ROW_TITLE};
    bool follow = ov->want_cursor_order < 0 && ov->cursor >= 0 &&
                  (size_t)ov->cursor < ov->d->row_count;
    if (follow) {
        was = ov->d->rows[ov->cursor];
    }
    ov->d->row_count = 0;
    ov->d->item_count = ip_effect_host_items(fx, ov->d->items, OV_ITEMS);
    size_t count = fxgl_runtime_technique_count(rt);
    ov->d->order_count = 0;
    add_row(ov, ROW_SEARCH);
    add_row(ov, ROW_PRESET);
    add_row(ov, ROW_PERF);
    int selected_item = -1;
    bool reload_listed[OV_ITEMS] = {false};
    for (size_t i = 0; i < count && ov->d->order_count < OV_TECHS; i++) {
        fxgl_technique_info t;
        if (!fxgl_runtime_technique(rt, i, &t)) {
            continue;
        }
        ov->d->order[ov->d->order_count++] = (fxgl_technique_ref){(uint32_t)t.effect,
                                                            (uint32_t)t.technique};
        int item = item_of_runtime(ov, t.effect);
        if (item < 0 || t.technique >= ov->d->items[item].effect->technique_count) {
            continue;
        }
        const fxgl_technique *tech = &ov->d->items[item].effect->techniques[t.technique];
        if (tech->hidden) {
            continue;
        }
        if (!contains_ci(tech_label(tech), ov->search) && !contains_ci(tech->name, ov->search)) {
            continue;
        }
        ov_row *r = add_row(ov, ROW_TECH);
        if (!r) {
            break;
        }
        r->item = item;
        r->order = (int)i;
        r->technique = (int)t.technique;
        if ((int)i == ov->want_cursor_order) {
            ov->cursor = (int)ov->d->row_count - 1;
            ov->want_cursor_order = -1;
        }
        if (t.status == FXGL_STATUS_FAILED && t.reason && t.reason[0]) {
            ov_row *er = add_row(ov, ROW_ERROR);
            if (er) {
                snprintf(er->text, sizeof(er->text), "  %s", t.reason);
            }
        }
        const char *reload = ov->d->items[item].reload_failure;
        if (reload && reload[0] && !reload_listed[item]) {
            reload_listed[item] = true; // once, under the effect's first technique listed
            // A recompile (a definition edited, the file changed) failed: the old version
            // is what runs.
            const ip_effect_host_item *it = &ov->d->items[item];
            size_t dir = strlen(it->path) - strlen(it->file);
            if (strncmp(reload, it->path, dir) == 0) {
                reload += dir; // "Overlay.fx(33, 25): error: ...": the directory is known
            }
            ov_row *er = add_row(ov, ROW_ERROR);
            if (er) {
                snprintf(er->text, sizeof(er->text), "  recompile failed, the previous "
                         "version runs: %s", reload);
            }
        }
    }
    // Effects that never reached the runtime: their compile errors.
    for (size_t i = 0;; i++) {
        const char *file, *diag;
        if (!fxgl_ui_failed(ui, i, &file, &diag)) {
            break;
        }
        if (ov->search[0] && !contains_ci(file, ov->search)) {
            continue;
        }
        ov_row *r = add_row(ov, ROW_ERROR);
        if (r) {
            snprintf(r->text, sizeof(r->text), "%s failed: %.*s", file,
                     (int)strcspn(diag, "\n"), diag);
        }
    }
    // The selected effect: the one under the cursor's technique, else the remembered one.
    if (ov->cursor >= 0 && (size_t)ov->cursor < ov->d->row_count &&
        ov->d->rows[ov->cursor].kind == ROW_TECH) {
        selected_item = ov->d->rows[ov->cursor].item;
        snprintf(ov->selected, sizeof(ov->selected), "%s", ov->d->items[selected_item].file);
    }
    for (size_t i = 0; selected_item < 0 && i < ov->d->item_count; i++) {
        if (strcmp(ov->d->items[i].file, ov->selected) == 0) {
            selected_item = (int)i;
        }
    }
    if (selected_item < 0 && ov->d->item_count) {
        selected_item = 0;
    }
    if (selected_item >= 0) {
        ov_row *t = add_row(ov, ROW_TITLE);
        if (t) {
            snprintf(t->text, sizeof(t->text), "Variables of %s", ov->d->items[selected_item].file);
        }
        if (ip_effect_host_performance_mode()) {
            ov_row *r = add_row(ov, ROW_NOTE);
            if (r) {
                snprintf(r->text, sizeof(r->text), "performance mode: values are constants");
            }
        } else {
            add_variables(ov, selected_item);
        }
        add_defines(ov, fx, selected_item);
    }
    add_presets(ov);
    for (size_t i = 0; follow && interactive(&was) && i < ov->d->row_count; i++) {
        if (same_row(&ov->d->rows[i], &was)) {
            ov->cursor = (int)i;
            break;
        }
    }
}

static const char *row_desc(const ip_overlay *ov, const ov_row *r, char *buf, size_t size) {
    switch (r->kind) {
    case ROW_DEFINE: snprintf(buf, size, "define %s", ov->d->define_name[r->index]); break;
    case ROW_PRESET_FILE: snprintf(buf, size, "preset %s", ov->d->presets[r->index]); break;
    case ROW_SAVE_AS: snprintf(buf, size, "save as"); break;
    default: snprintf(buf, size, "row kind %d", (int)r->kind); break;
    }
    return buf;
}

static bool interactive(const ov_row *r) {
    return r->kind != ROW_TITLE && r->kind != ROW_ERROR && r->kind != ROW_NOTE;
}

// --- values ---

typedef struct ov_var {
    const fxgl_uniform *u;
    const fxgl_preset_uniform *p; // the set's view of it
    fxgl_preset_value val[FXGL_PRESET_MAX_COMPONENTS]; // its value, changed here first
    const char *type;            // ui_type, "" none
    bool editable;
    double min, max, step;
    bool has_range;
    int items;
} ov_var;

static bool var_of(ip_overlay *ov, const ov_row *r, ov_var *v) {
    if (r->kind != ROW_VAR) {
        return false;
    }
    const ip_effect_host_item *it = &ov->d->items[r->item];
    v->u = &it->effect->uniforms[r->uniform];
    v->p = &it->view->uniforms[r->uniform];
    memcpy(v->val, v->p->value, sizeof(v->val));
    const fxgl_annotations *a = &v->u->annotations;
    v->type = ann_string(a, "ui_type");
    v->type = v->type ? v->type : "";
    v->editable = !ann_true(a, "noedit") && !ip_effect_host_performance_mode();
    double lo = 0, hi = 0;
    bool has_lo = ann_number(a, "ui_min", &lo), has_hi = ann_number(a, "ui_max", &hi);
    v->has_range = has_lo && has_hi && hi > lo;
    v->min = has_lo ? lo : -INFINITY;
    v->max = has_hi ? hi : INFINITY;
    v->items = item_count(a);
    if (!ann_number(a, "ui_step", &v->step) || v->step <= 0) {
        bool integer = v->p->type != FXGL_PRESET_FLOAT;
        v->step = integer ? 1.0 : v->has_range ? (hi - lo) / 100.0 : 0.01;
    }
    if (strcmp(v->type, "color") == 0 && !v->has_range) {
        v->min = 0, v->max = 1, v->has_range = true;
    }
    if (v->items > 0) {
        v->min = 0, v->max = v->items - 1, v->has_range = true;
    }
    return true;
}

static double get_value(const ov_var *v, int c) {
    switch (v->p->type) {
    case FXGL_PRESET_FLOAT: return v->val[c].f;
    case FXGL_PRESET_INT: return v->val[c].i;
    default: return v->val[c].u;
    }
}

static void set_value(ov_var *v, int c, double x) {
    if (x < v->min) {
        x = v->min;
    }
    if (x > v->max) {
        x = v->max;
    }
    switch (v->p->type) {
    case FXGL_PRESET_FLOAT: v->val[c].f = (float)x; break;
    case FXGL_PRESET_INT: v->val[c].i = (int32_t)lround(x); break;
    case FXGL_PRESET_BOOL: v->val[c].u = x != 0; break;
    default: v->val[c].u = x < 0 ? 0 : (uint32_t)lround(x); break;
    }
}

// The edited value into the set (its view, the runtime, a running blend ends).
static void changed(ip_overlay *ov, ip_effect_host *fx, const ov_row *r, const ov_var *v) {
    ip_effect_host_value(fx, ov->d->items[r->item].member, (size_t)r->uniform, v->val);
}

static void adjust(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const ov_row *r, int dir) {
    ov_var v;
    if (!var_of(ov, r, &v) || !v.editable) {
        return;
    }
    if (v.p->type == FXGL_PRESET_BOOL) {
        set_value(&v, r->comp, get_value(&v, r->comp) != 0 ? 0 : 1);
    } else {
        // Whole steps from the current value; a float step lands on the grid it names.
        double x = get_value(&v, r->comp) + dir * v.step;
        if (v.p->type == FXGL_PRESET_FLOAT) {
            x = round(x / v.step) * v.step;
        }
        set_value(&v, r->comp, x);
    }
    changed(ov, fx, r, &v);
}

static void reset(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const ov_row *r) {
    ov_var v;
    if (!var_of(ov, r, &v) || !v.editable) {
        return;
    }
    for (int c = 0; c < v.u->rows * v.u->cols && c < FXGL_PRESET_MAX_COMPONENTS; c++) {
        v.val[c].u = c < v.u->initializer.count ? v.u->initializer.u[c] : 0;
    }
    changed(ov, fx, r, &v);
    snprintf(ov->message, sizeof(ov->message), "%s reset to its default", v.p->name);
}

// --- actions ---

static void toggle_technique(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt,
                             const ov_row *r) {
    fxgl_technique_info t;
    if (!fxgl_runtime_technique(rt, (size_t)r->order, &t)) {
        return;
    }
    ip_effect_host_enable(fx, t.effect, t.technique, !t.enabled);
    snprintf(ov->message, sizeof(ov->message), "%s %s", t.name, t.enabled ? "off" : "on");
}

// Moves the technique at order position from to position to (the others shift).
static void move_technique(ip_overlay *ov, ip_effect_host *fx, int from, int to) {
    int n = (int)ov->d->order_count;
    if (from < 0 || to < 0 || from >= n || to >= n || from == to) {
        return;
    }
    fxgl_technique_ref moved = ov->d->order[from];
    if (from < to) {
        memmove(&ov->d->order[from], &ov->d->order[from + 1], (size_t)(to - from) * sizeof(moved));
    } else {
        memmove(&ov->d->order[to + 1], &ov->d->order[to], (size_t)(from - to) * sizeof(moved));
    }
    ov->d->order[to] = moved;
    ip_effect_host_order(fx, ov->d->order, ov->d->order_count);
    ov->want_cursor_order = to;
    snprintf(ov->message, sizeof(ov->message), "moved to position %d", to + 1);
}

// The order position of the next listed technique row above (dir -1) or below.
static int neighbour_order(const ip_overlay *ov, int row, int dir) {
    for (int i = row + dir; i >= 0 && i < (int)ov->d->row_count; i += dir) {
        if (ov->d->rows[i].kind == ROW_TECH) {
            return ov->d->rows[i].order;
        }
    }
    return -1;
}

static void save(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt) {
    ip_effect_host_save(fx, rt, ov->message, sizeof(ov->message));
    fxgl_log(strncmp(ov->message, "error", 5) == 0 ? FXGL_LOG_WARN : FXGL_LOG_INFO,
             "overlay: %s", ov->message);
}

// Enter on a definition: the first starts typing its value, the second applies it (the
// effect recompiles on the worker; the running version stays until the new one is in).
static void define_enter(ip_overlay *ov, ip_effect_host *fx, const ov_row *r) {
    const char *name = ov->d->define_name[r->index];
    if (ov->editing != r->index) {
        ov->editing = r->index;
        snprintf(ov->edit, sizeof(ov->edit), "%s", ov->d->define_value[r->index]);
        snprintf(ov->message, sizeof(ov->message), "%s: type the value, Enter applies", name);
        return;
    }
    ov->editing = -1;
    if (ip_effect_host_set_define(fx, ov->d->items[r->item].member, name, ov->edit)) {
        ov->defines_gen++;
        snprintf(ov->message, sizeof(ov->message), "%s=%s: recompiling", name,
                 ov->edit[0] ? ov->edit : "(default)");
    } else {
        snprintf(ov->message, sizeof(ov->message), "error: %s was not changed", name);
    }
    fxgl_log(FXGL_LOG_INFO, "overlay: %s", ov->message);
}

static void save_as(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt) {
    ip_effect_host_save_as(fx, rt, ov->save_as, ov->message, sizeof(ov->message));
    bool ok = strncmp(ov->message, "error", 5) != 0;
    fxgl_log(ok ? FXGL_LOG_INFO : FXGL_LOG_WARN, "overlay: %s", ov->message);
    if (ok) {
        ov->save_as[0] = 0;
    }
    ov->presets_stale = true;
}

static void activate(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const ov_row *r) {
    switch (r->kind) {
    case ROW_DEFINE: define_enter(ov, fx, r); break;
    case ROW_PRESET_FILE:
        snprintf(ov->message, sizeof(ov->message), "%s %s",
                 ip_effect_host_open_preset(ov->d->presets[r->index]) ? "switching to"
                                                                 : "error: cannot open",
                 ov->d->presets[r->index]);
        break;
    case ROW_SAVE_AS: save_as(ov, fx, rt); break;
    case ROW_TECH: toggle_technique(ov, fx, rt, r); break;
    case ROW_CATEGORY:
        if (r->cat >= 0) {
            ov->cats[r->cat].open = !ov->cats[r->cat].open;
        }
        break;
    case ROW_VAR: {
        ov_var v;
        if (var_of(ov, r, &v) && v.p->type == FXGL_PRESET_BOOL) {
            adjust(ov, fx, rt, r, 1);
        }
        break;
    }
    case ROW_PRESET: save(ov, fx, rt); ov->presets_stale = true; break;
    case ROW_PERF: {
        // Turning it on folds the preset's values into the code: the values shown are
        // saved first, as the reference does, or the edits since the last save would go.
        bool on = !ip_effect_host_performance_mode();
        char saved[256] = "";
        if (on) {
            save(ov, fx, rt);
            snprintf(saved, sizeof(saved), " (%.200s)", ov->message);
        }
        ip_effect_host_set_performance_mode(on);
        snprintf(ov->message, sizeof(ov->message), "performance mode %s: recompiling%.210s",
                 on ? "on" : "off", saved);
        break;
    }
    default: break;
    }
}

// Pressed this frame, or held long enough to repeat (every other frame after
// OV_REPEAT_FRAMES).
static bool fire(const ip_overlay *ov, const fxgl_input *in, int vk) {
    if (in->key_pressed[vk]) {
        return true;
    }
    int h = ov->held[vk];
    return in->key_down[vk] && h > OV_REPEAT_FRAMES && (h - OV_REPEAT_FRAMES) % 2 == 0;
}

static char typed_char(const fxgl_input *in, int vk) {
    if (!in->key_pressed[vk]) {
        return 0;
    }
    if (vk >= 'A' && vk <= 'Z') {
        return (char)(in->key_down[VK_SHIFT] ? vk : vk - 'A' + 'a');
    }
    if (vk >= '0' && vk <= '9') {
        return (char)vk;
    }
    return vk == VK_SPACE ? ' ' : vk == VK_OEM_MINUS ? '-' : vk == VK_OEM_PERIOD ? '.' : 0;
}

static void move_cursor(ip_overlay *ov, int dir) {
    for (int i = ov->cursor + dir; i >= 0 && i < (int)ov->d->row_count; i += dir) {
        if (interactive(&ov->d->rows[i])) {
            ov->cursor = i;
            return;
        }
    }
}

static void keys(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const fxgl_input *in) {
    bool ctrl = in->key_down[VK_CONTROL], alt = in->key_down[VK_MENU];
    ov_row *r = ov->cursor >= 0 && (size_t)ov->cursor < ov->d->row_count ? &ov->d->rows[ov->cursor]
                                                                       : NULL;
    if (in->key_pressed[VK_TAB]) {
        ov->stats = !ov->stats;
    }
    if (ctrl && in->key_pressed['S']) {
        save(ov, fx, rt);
        return;
    }
    if (ctrl && in->key_pressed['P']) {
        ov_row perf = {.kind = ROW_PERF};
        activate(ov, fx, rt, &perf);
        return;
    }
    if (ov->stats) {
        return;
    }
    if (ctrl && r && r->kind == ROW_TECH && (fire(ov, in, VK_UP) || fire(ov, in, VK_DOWN))) {
        int dir = fire(ov, in, VK_UP) ? -1 : 1;
        move_technique(ov, fx, r->order, neighbour_order(ov, ov->cursor, dir));
        return;
    }
    if (!ctrl && fire(ov, in, VK_UP)) {
        move_cursor(ov, -1);
    }
    if (!ctrl && fire(ov, in, VK_DOWN)) {
        move_cursor(ov, 1);
    }
    // Typing goes to the row under the cursor when it takes text (a definition being
    // edited, the save-as name), else to the search box.
    if (ov->editing >= 0 && (!r || r->kind != ROW_DEFINE || r->index != ov->editing ||
                             in->key_pressed[VK_ESCAPE])) {
        ov->editing = -1; // the cursor left it: nothing applied
    }
    char *text = ov->search;
    size_t text_size = sizeof(ov->search);
    if (r && r->kind == ROW_DEFINE && ov->editing == r->index) {
        text = ov->edit, text_size = sizeof(ov->edit);
    } else if (r && r->kind == ROW_SAVE_AS) {
        text = ov->save_as, text_size = sizeof(ov->save_as);
    }
    bool types_space = r && (r->kind == ROW_SEARCH || text != ov->search);
    if (r && (in->key_pressed[VK_RETURN] || (in->key_pressed[VK_SPACE] && !types_space))) {
        activate(ov, fx, rt, r);
    }
    if (r && (fire(ov, in, VK_LEFT) || fire(ov, in, VK_RIGHT))) {
        int dir = fire(ov, in, VK_LEFT) ? -1 : 1;
        if (r->kind == ROW_VAR) {
            adjust(ov, fx, rt, r, dir);
        } else if (r->kind == ROW_PRESET && in->key_pressed[dir < 0 ? VK_LEFT : VK_RIGHT]) {
            snprintf(ov->message, sizeof(ov->message), "%s",
                     ip_effect_host_switch_preset(dir) ? "switching preset"
                                                   : "no other preset beside this one");
        }
    }
    if (r && in->key_pressed[VK_DELETE]) {
        if (r->kind == ROW_DEFINE) {
            // Back to the effect's own default: the name is left undefined.
            ov->editing = r->index;
            ov->edit[0] = 0;
            define_enter(ov, fx, r);
        } else {
            reset(ov, fx, rt, r);
        }
    }
    if (!ctrl && !alt) {
        size_t len = strlen(text);
        for (int vk = 0; vk < FXGL_INPUT_KEYS; vk++) {
            char c = vk == VK_SPACE && !types_space ? 0 : typed_char(in, vk);
            if (c && len + 1 < text_size) {
                text[len++] = c;
                text[len] = 0;
            }
        }
        if (fire(ov, in, VK_BACK) && len > 0) {
            text[len - 1] = 0;
        }
    }
}

// --- layout and drawing ---

typedef struct ov_layout {
    float x, y, w, h;            // the panel
    float line, pad;
    float col;                   // where widgets start
    float ww;                    // widget width
} ov_layout;

static void format_value(const ov_var *v, int c, char *buf, size_t size) {
    double x = get_value(v, c);
    const char *units = ann_string(&v->u->annotations, "ui_units");
    if (v->items > 0) {
        snprintf(buf, size, "%s", item_text(&v->u->annotations, (int)x));
    } else if (v->p->type == FXGL_PRESET_BOOL) {
        snprintf(buf, size, "%s", x != 0 ? "on" : "off");
    } else if (v->p->type == FXGL_PRESET_FLOAT) {
        snprintf(buf, size, "%.3f%s", x, units ? units : "");
    } else {
        snprintf(buf, size, "%.0f%s", x, units ? units : "");
    }
}

static void draw_var(ip_overlay *ov, fxgl_ui *ui, const ov_layout *L, const ov_row *r, float y,
                     bool cur) {
    ov_var v;
    if (!var_of(ov, r, &v)) {
        return;
    }
    const char *label = ann_string(&v.u->annotations, "ui_label");
    label = label ? label : v.p->name;
    char name[128];
    int n = v.u->rows * v.u->cols;
    static const char comps[] = "xyzw", colour[] = "rgba";
    if (n > 1 && r->comp > 0) {
        snprintf(name, sizeof(name), "   .%c", n <= 4 ? (strcmp(v.type, "color") == 0
                                                           ? colour[r->comp] : comps[r->comp])
                                                     : '0' + r->comp % 10);
    } else {
        snprintf(name, sizeof(name), "   %s", label);
    }
    uint32_t tc = v.editable ? C_TEXT : C_DIM;
    fxgl_ui_text(ui, L->x + L->pad, y, name, tc);
    float x = L->col, w = L->ww, h = L->line - 2;
    char val[96];
    format_value(&v, r->comp, val, sizeof(val));
    double x0 = get_value(&v, r->comp);
    if (v.p->type == FXGL_PRESET_BOOL && v.items == 0) {
        fxgl_ui_rect(ui, x, y + 2, h - 4, h - 4, C_BOX);
        if (x0 != 0) {
            fxgl_ui_rect(ui, x + 3, y + 5, h - 10, h - 10, C_ACCENT);
        }
        return;
    }
    fxgl_ui_rect(ui, x, y + 1, w, h, cur ? 0x34404EFFu : C_BOX);
    bool bar = v.has_range && v.items == 0 &&
               (strcmp(v.type, "slider") == 0 || strcmp(v.type, "color") == 0);
    if (bar) {
        float f = (float)((x0 - v.min) / (v.max - v.min));
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        uint32_t fill = C_FILL;
        if (strcmp(v.type, "color") == 0) {
            uint32_t ch = (uint32_t)(f * 255.0f);
            fill = r->comp == 0 ? ch << 24 | 0xFF : r->comp == 1 ? ch << 16 | 0xFF
                   : r->comp == 2 ? ch << 8 | 0xFF : 0x808080FFu;
        }
        fxgl_ui_rect(ui, x, y + 1, w * f, h, fill);
    } else if (v.editable) {
        fxgl_ui_text(ui, x + 4, y, "<", C_DIM);
        fxgl_ui_text(ui, x + w - 4 - fxgl_ui_text_width(ui, ">"), y, ">", C_DIM);
    }
    if (strcmp(v.type, "radio") == 0 && v.items > 0) {
        // Every item, the chosen one marked.
        float px = x + 4;
        for (int k = 0; k < v.items; k++) {
            char it[64];
            snprintf(it, sizeof(it), "%s%s ", (int)x0 == k ? "(o)" : "( )",
                     item_text(&v.u->annotations, k));
            px = fxgl_ui_text(ui, px, y, it, (int)x0 == k ? C_TEXT : C_DIM);
        }
        return;
    }
    float tw = fxgl_ui_text_width(ui, val);
    fxgl_ui_text(ui, x + (w - tw) / 2, y, val, tc);
}

static void panel_layout(const fxgl_ui *ui, int width, int height, ov_layout *L) {
    L->line = fxgl_ui_line_height(ui) + 4;
    L->pad = floorf(L->line * 0.4f);
    float w = fmaxf((float)width * 0.42f, 30.0f * L->line);
    L->w = fminf(w, (float)width);
    L->x = 0;
    L->y = 0;
    L->h = (float)height;
    L->col = L->x + floorf(L->w * 0.48f);
    L->ww = L->x + L->w - L->pad - L->col;
}

static float text_line(fxgl_ui *ui, const ov_layout *L, float y, const char *s, uint32_t c) {
    fxgl_ui_text(ui, L->x + L->pad, y, s, c);
    return y + L->line;
}

static void draw_stats(ip_overlay *ov, fxgl_ui *ui, const ov_layout *L, fxgl_runtime *rt) {
    float y = L->pad;
    char line[256];
    const fxgl_runtime_stats *s = fxgl_runtime_stats_get(rt);
    snprintf(line, sizeof(line), "Statistics  (Tab: effects)   frame %.2f ms  %.1f fps",
             ov->frame_ms, ov->frame_ms > 0 ? 1000.0 / ov->frame_ms : 0.0);
    y = text_line(ui, L, y, line, C_ACCENT);
    snprintf(line, sizeof(line), "effects cpu %.3f ms  draw calls %u  passes %u  techniques %u",
             s->cpu_ms, s->draw_calls, s->passes_run, s->techniques_run);
    y = text_line(ui, L, y, line, C_TEXT);
    snprintf(line, sizeof(line), "GL calls %u (state %u)  copies %u  uploads %u (%u bytes)",
             s->gl_calls, s->state_calls, s->copies, s->uniform_uploads, s->uniform_bytes);
    y = text_line(ui, L, y, line, C_TEXT);
    fxgl_ui_stats us;
    fxgl_ui_stats_get(ui, &us);
    snprintf(line, sizeof(line), "overlay gpu %.3f ms  cpu %.3f ms  %u quads  font %s",
             us.gpu_ms, us.cpu_ms, us.quads, fxgl_ui_truetype(ui) ? "TrueType" : "built-in");
    y = text_line(ui, L, y, line, C_DIM);
    size_t count = fxgl_runtime_technique_count(rt);
    for (size_t i = 0; i < count && y < L->h - L->line; i++) {
        fxgl_technique_info t;
        if (!fxgl_runtime_technique(rt, i, &t)) {
            continue;
        }
        char why[200];
        const char *skip = fxgl_ui_skip_reason(ui, i, why, sizeof(why));
        if (skip) {
            snprintf(line, sizeof(line), "%s@%s  skipped: %s", t.name, t.file, skip);
            y = text_line(ui, L, y, line, t.status == FXGL_STATUS_FAILED ? C_ERROR : C_DIM);
            continue;
        }
        snprintf(line, sizeof(line), "%s@%s  gpu %.3f ms  cpu %.3f ms", t.name, t.file,
                 t.gpu_ms, t.cpu_ms);
        y = text_line(ui, L, y, line, C_TEXT);
        for (size_t p = 0; p < t.pass_count && y < L->h - L->line; p++) {
            snprintf(line, sizeof(line), "    pass %zu  gpu %.3f ms", p,
                     fxgl_runtime_pass_gpu_ms(rt, i, p));
            y = text_line(ui, L, y, line, C_DIM);
        }
    }
}

static const char *row_tooltip(ip_overlay *ov, const ov_row *r) {
    if (r->kind == ROW_TECH) {
        const fxgl_technique *t = &ov->d->items[r->item].effect->techniques[r->technique];
        return ann_string(&t->annotations, "ui_tooltip");
    }
    if (r->kind == ROW_VAR) {
        return ann_string(&ov->d->items[r->item].effect->uniforms[r->uniform].annotations,
                          "ui_tooltip");
    }
    if (r->kind == ROW_DEFINE) {
        return ov->editing == r->index ? "Enter: apply (recompiles)  Esc: cancel"
                                       : "Enter: edit  Delete: the effect's default";
    }
    return NULL;
}

static void draw_rows(ip_overlay *ov, fxgl_ui *ui, const ov_layout *L, fxgl_runtime *rt) {
    float top = L->pad, bottom = L->h - 3 * L->line;
    int visible = (int)((bottom - top) / L->line);
    visible = visible < 1 ? 1 : visible;
    if (ov->cursor < ov->scroll) {
        ov->scroll = ov->cursor;
    }
    if (ov->cursor >= ov->scroll + visible) {
        ov->scroll = ov->cursor - visible + 1;
    }
    for (size_t i = 0; i < OV_ROWS; i++) {
        ov->d->row_y[i] = -1e9f;
    }
    float y = top;
    char line[256];
    for (int i = ov->scroll; i < (int)ov->d->row_count && i < ov->scroll + visible; i++, y += L->line) {
        ov_row *r = &ov->d->rows[i];
        ov->d->row_y[i] = y;
        bool cur = i == ov->cursor;
        if (cur) {
            fxgl_ui_rect(ui, L->x, y, L->w, L->line, C_CURSOR);
        }
        switch (r->kind) {
        case ROW_SEARCH:
            snprintf(line, sizeof(line), "Search: %s%s", ov->search, cur ? "_" : "");
            text_line(ui, L, y, line, ov->search[0] ? C_TEXT : C_DIM);
            break;
        case ROW_PRESET: {
            char path[1024];
            ip_effect_host_preset_path(path, sizeof(path));
            const char *base = strrchr(path, '/');
            snprintf(line, sizeof(line), "Preset  < %.200s >   [Save: Ctrl+S]",
                     base ? base + 1 : path[0] ? path : "(none)");
            text_line(ui, L, y, line, C_ACCENT);
            break;
        }
        case ROW_PERF:
            snprintf(line, sizeof(line), "[%c] Performance mode (Ctrl+P)    Tab: statistics",
                     ip_effect_host_performance_mode() ? 'x' : ' ');
            text_line(ui, L, y, line, C_TEXT);
            break;
        case ROW_TECH: {
            fxgl_technique_info t;
            if (!fxgl_runtime_technique(rt, (size_t)r->order, &t)) {
                break;
            }
            const fxgl_technique *tech = &ov->d->items[r->item].effect->techniques[r->technique];
            float box = L->line - 6;
            bool drag = ov->drag_order == r->order;
            fxgl_ui_rect(ui, L->x + L->pad, y + 3, box, box, drag ? C_ACCENT : C_BOX);
            if (t.enabled) {
                fxgl_ui_rect(ui, L->x + L->pad + 3, y + 6, box - 6, box - 6, C_ACCENT);
            }
            snprintf(line, sizeof(line), "%s", tech_label(tech));
            float x = fxgl_ui_text(ui, L->x + L->pad + box + L->pad, y, line,
                                   t.status == FXGL_STATUS_FAILED ? C_ERROR : C_TEXT);
            snprintf(line, sizeof(line), "  %s", ov->d->items[r->item].file);
            fxgl_ui_text(ui, x, y, line, C_DIM);
            break;
        }
        case ROW_ERROR: text_line(ui, L, y, r->text, C_ERROR); break;
        case ROW_TITLE:
            fxgl_ui_rect(ui, L->x, y, L->w, L->line, C_HEADER);
            text_line(ui, L, y, r->text, C_ACCENT);
            break;
        case ROW_NOTE: text_line(ui, L, y, r->text, C_DIM); break;
        case ROW_CATEGORY:
            if (!cur) {
                fxgl_ui_rect(ui, L->x, y, L->w, L->line, C_HEADER);
            }
            text_line(ui, L, y, r->text, C_TEXT);
            break;
        case ROW_VAR: draw_var(ov, ui, L, r, y, cur); break;
        case ROW_DEFINE: {
            bool typing = ov->editing == r->index;
            snprintf(line, sizeof(line), "   %s", ov->d->define_name[r->index]);
            fxgl_ui_text(ui, L->x + L->pad, y, line, C_TEXT);
            fxgl_ui_rect(ui, L->col, y + 1, L->ww, L->line - 2, typing ? 0x34404EFFu : C_BOX);
            const char *v = typing ? ov->edit : ov->d->define_value[r->index];
            snprintf(line, sizeof(line), "%s%s", v[0] || typing ? v : "(default)",
                     typing ? "_" : "");
            fxgl_ui_text(ui, L->col + 4, y, line, v[0] || typing ? C_TEXT : C_DIM);
            break;
        }
        case ROW_PRESET_FILE: {
            bool here = (size_t)r->index == ov->d->preset_current;
            snprintf(line, sizeof(line), "%s %s", here ? ">" : " ", ov->d->presets[r->index]);
            text_line(ui, L, y, line, here ? C_ACCENT : C_TEXT);
            break;
        }
        case ROW_SAVE_AS:
            snprintf(line, sizeof(line), "Save as: %s%s%s", ov->save_as, cur ? "_" : "",
                     ov->save_as[0] || cur ? "" : "(type a name, Enter)");
            text_line(ui, L, y, line, ov->save_as[0] ? C_TEXT : C_DIM);
            break;
        }
    }
    // The bottom lines: the row's tooltip, then the last action's outcome.
    const char *tip = ov->cursor >= 0 && ov->cursor < (int)ov->d->row_count
                          ? row_tooltip(ov, &ov->d->rows[ov->cursor])
                          : NULL;
    fxgl_ui_rect(ui, L->x, L->h - 2 * L->line - L->pad, L->w, 1, C_DIM);
    if (tip) {
        snprintf(line, sizeof(line), "%.*s", (int)strcspn(tip, "\n"), tip);
        text_line(ui, L, L->h - 2 * L->line - L->pad / 2, line, C_DIM);
    }
    text_line(ui, L, L->h - L->line - L->pad / 2, ov->message,
              strncmp(ov->message, "error", 5) == 0 ? C_ERROR : C_TEXT);
}

static int row_at(const ip_overlay *ov, const ov_layout *L, float y) {
    for (size_t i = 0; i < ov->d->row_count; i++) {
        if (y >= ov->d->row_y[i] && y < ov->d->row_y[i] + L->line) {
            return (int)i;
        }
    }
    return -1;
}

static void slider_to(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const ov_layout *L,
                      const ov_row *r, float mx) {
    ov_var v;
    if (!var_of(ov, r, &v) || !v.editable || !v.has_range || v.p->type == FXGL_PRESET_BOOL) {
        return;
    }
    double f = (mx - L->col) / L->ww;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double x = v.min + f * (v.max - v.min);
    x = v.min + round((x - v.min) / v.step) * v.step;
    set_value(&v, r->comp, x);
    changed(ov, fx, r, &v);
}

static void mouse(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, const ov_layout *L,
                  const fxgl_input *in) {
    float mx = in->mouse_x, my = in->mouse_y;
    bool inside = mx >= L->x && mx < L->x + L->w && my >= L->y && my < L->y + L->h;
    if (in->button_pressed[0] && inside && !ov->stats) {
        int i = row_at(ov, L, my);
        if (i >= 0 && interactive(&ov->d->rows[i])) {
            ov->cursor = i;
            ov_row *r = &ov->d->rows[i];
            if (r->kind == ROW_TECH) {
                if (mx < L->x + L->pad + L->line) {
                    toggle_technique(ov, fx, rt, r);
                } else {
                    ov->drag_order = r->order;
                }
            } else if (r->kind == ROW_VAR && mx >= L->col) {
                ov_var v;
                if (var_of(ov, r, &v) && v.p->type == FXGL_PRESET_BOOL) {
                    adjust(ov, fx, rt, r, 1);
                } else if (v.items > 0 || !v.has_range) {
                    adjust(ov, fx, rt, r, mx < L->col + L->ww / 2 ? -1 : 1);
                } else {
                    ov->mouse_slider = true;
                    slider_to(ov, fx, rt, L, r, mx);
                }
            } else if (r->kind != ROW_VAR) {
                activate(ov, fx, rt, r);
            }
        }
    } else if (in->button_down[0] && ov->mouse_slider && ov->cursor < (int)ov->d->row_count) {
        slider_to(ov, fx, rt, L, &ov->d->rows[ov->cursor], mx);
    }
    if (in->button_released[0] || !in->button_down[0]) {
        if (ov->drag_order >= 0) {
            int i = row_at(ov, L, my);
            if (i >= 0 && ov->d->rows[i].kind == ROW_TECH) {
                move_technique(ov, fx, ov->drag_order, ov->d->rows[i].order);
            }
        }
        ov->drag_order = -1;
        ov->mouse_slider = false;
    }
}

static float font_px(int height) {
    const fxgl_config *c = ip_effect_host_config();
    float scale = c && c->font_scale > 0 ? c->font_scale : 1.0f;
    float px = roundf(18.0f * (float)height / 1080.0f * scale);
    return px < 12.0f * scale ? 12.0f * scale : px;
}

static const char *font_path(void) {
    const ip_config *ip = ip_config_get();
    if (ip->font_set) {
        return ip->font; // "" : the built-in face
    }
    const fxgl_config *c = ip_effect_host_config();
    return c && c->font_path ? c->font_path
                             : "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
}

bool ip_overlay_frame(ip_overlay *ov, ip_effect_host *fx, fxgl_runtime *rt, fxgl_ui *ui,
                      const fxgl_input *in, int width, int height, double now) {
    if (!ov) {
        return false;
    }
    const fxgl_config *c = ip_effect_host_config();
    const fxgl_preset_key *k = c ? &c->key_overlay : NULL;
    if (in && in->has_focus && k && k->vk > 0 && k->vk < FXGL_INPUT_KEYS &&
        in->key_pressed[k->vk] && (bool)in->key_down[VK_CONTROL] == k->ctrl &&
        (bool)in->key_down[VK_SHIFT] == k->shift && (bool)in->key_down[VK_MENU] == k->alt) {
        ov->open = !ov->open;
        fxgl_log(FXGL_LOG_INFO, "overlay %s", ov->open ? "open" : "closed");
        if (ov->open) {
            ov->cursor = 3; // the first technique
            ov->message[0] = 0;
            ov->editing = -1;
            ov->presets_stale = true;
            memset(ov->held, 0, sizeof(ov->held));
        }
        return ov->open;
    }
    if (ov->open && !ov->d) {
        ov->d = calloc(1, sizeof(*ov->d));
        for (size_t i = 0; ov->d && i < OV_ROWS; i++) {
            ov->d->row_y[i] = -1e9f;
        }
        if (!ov->d) {
            FXGL_LOG_ONCE(FXGL_LOG_WARN, "overlay: out of memory");
            ov->open = false;
        }
    }
    if (!ov->open || !ui) {
        return false;
    }
    if (ov->last_now > 0 && now > ov->last_now) {
        double ms = (now - ov->last_now) * 1000.0;
        ov->frame_ms = ov->frame_ms > 0 ? ov->frame_ms * 0.95 + ms * 0.05 : ms;
    }
    ov->last_now = now;
    fxgl_ui_set_font(ui, font_path());
    fxgl_ui_begin(ui, width, height, font_px(height));
    ov_layout L;
    panel_layout(ui, width, height, &L);
    if ((L.line != ov->logged_line || L.w != ov->logged_width) &&
        ip_log_enabled(FXGL_LOG_DEBUG)) {
        // Where rows and widgets are (row i's top: pad + i * line): for tests and bug reports.
        fxgl_log(FXGL_LOG_DEBUG, "overlay: layout line=%g pad=%g width=%g col=%g widget=%g "
                 "font=%s", (double)L.line, (double)L.pad, (double)L.w, (double)L.col,
                 (double)L.ww, fxgl_ui_truetype(ui) ? "truetype" : "built-in");
        ov->logged_line = L.line;
        ov->logged_width = L.w;
    }
    build_rows(ov, fx, rt, ui);
    if (ov->cursor >= (int)ov->d->row_count) {
        ov->cursor = (int)ov->d->row_count - 1;
    }
    if (ov->cursor < 0 || !interactive(&ov->d->rows[ov->cursor])) {
        move_cursor(ov, 1);
    }
    if (in && in->has_focus) {
        keys(ov, fx, rt, in);
        // The rows as last laid out (their y) take the clicks.
        mouse(ov, fx, rt, &L, in);
        for (int vk = 0; vk < FXGL_INPUT_KEYS; vk++) {
            ov->held[vk] = in->key_down[vk] ? ov->held[vk] + 1 : 0;
            // Edges only (never a line per frame): what a test synchronises on.
            if ((in->key_pressed[vk] || in->key_released[vk]) && ip_log_enabled(FXGL_LOG_DEBUG)) {
                fxgl_log(FXGL_LOG_DEBUG, "overlay: key 0x%02x %s, cursor at row %d", vk,
                         in->key_pressed[vk] ? "down" : "up", ov->cursor);
            }
        }
        for (int b = 0; b < FXGL_INPUT_BUTTONS; b++) {
            if ((in->button_pressed[b] || in->button_released[b]) &&
                ip_log_enabled(FXGL_LOG_DEBUG)) {
                fxgl_log(FXGL_LOG_DEBUG, "overlay: button %d %s at %.0f,%.0f", b,
                         in->button_pressed[b] ? "down" : "up", in->mouse_x, in->mouse_y);
            }
        }
        build_rows(ov, fx, rt, ui); // what the keys changed, shown this frame
        if (ov->cursor >= (int)ov->d->row_count) {
            ov->cursor = (int)ov->d->row_count - 1;
        }
        char said[sizeof(ov->cursor_said)];
        if (ov->cursor >= 0 && ip_log_enabled(FXGL_LOG_DEBUG) &&
            strcmp(row_desc(ov, &ov->d->rows[ov->cursor], said, sizeof(said)),
                   ov->cursor_said) != 0) {
            // Where the cursor is, by what the row holds: a test moves it by this.
            memcpy(ov->cursor_said, said, sizeof(said));
            fxgl_log(FXGL_LOG_DEBUG, "overlay: cursor on %s", said);
        }
    }
    fxgl_ui_rect(ui, L.x, L.y, L.w, L.h, C_PANEL);
    fxgl_ui_clip_right(ui, L.x + L.w - L.pad / 2); // long labels and errors end at the edge
    if (ov->stats) {
        draw_stats(ov, ui, &L, rt);
    } else {
        draw_rows(ov, ui, &L, rt);
    }
    fxgl_ui_end(ui);
    return true;
}
