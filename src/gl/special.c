/*
 * special.c - uniform values: the CPU shadow copy and the 16 special
 * `source` values (reshade_reference.md §1.6), fed from fxgl_input and the
 * frame's time.
 *
 * Every write compares bytes with the shadow copy and widens a dirty range
 * only where something changed; user values and special values keep
 * separate ranges because they change at different rates: a frame uploads the few bytes of `timer`/`framecount`, not the whole
 * block. Values are converted to the declared type the way the reference's
 * typed setters do (int <-> float, bool as 0/1); matrices are row-major
 * with each row 16-byte aligned, as the std140 offsets were laid out.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fxgl_backend.h"
#include "gl_runtime.h"

bool gl_uniform_write(gl_loaded_effect *e, const fxgl_uniform *u, const fxgl_value *v,
                      bool special) {
    uint32_t offsets[16];
    int n = fxgl_uniform_offsets(u, v->count, offsets);
    uint32_t *lo = special ? &e->frame_lo : &e->dirty_lo;
    uint32_t *hi = special ? &e->frame_hi : &e->dirty_hi;
    for (int c = 0; c < n; c++) {
        uint32_t off = offsets[c];
        if (off + 4 > e->size) {
            return false;
        }
        uint32_t bits = fxgl_uniform_bits(v, c, u->scalar);
        if (memcmp(e->shadow + off, &bits, 4) != 0) {
            memcpy(e->shadow + off, &bits, 4);
            *lo = off < *lo ? off : *lo;
            *hi = off + 4 > *hi ? off + 4 : *hi;
        }
    }
    return true;
}

// --- annotations ---

static const char *ann_string(const fxgl_uniform *u, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    return a && a->value.scalar == FXGL_SCALAR_STRING ? a->value.string : NULL;
}

bool gl_specials_init(fxgl_runtime *rt, gl_loaded_effect *e) {
    (void)rt;
    const fxgl_effect *fx = e->fx;
    size_t n = 0;
    for (size_t i = 0; i < fx->uniform_count; i++) {
        n += fx->uniforms[i].special != FXGL_SPECIAL_NONE;
    }
    e->specials = calloc(n ? n : 1, sizeof(*e->specials));
    if (!e->specials) {
        return false;
    }
    for (size_t i = 0; i < fx->uniform_count; i++) {
        const fxgl_uniform *u = &fx->uniforms[i];
        if (u->special == FXGL_SPECIAL_NONE) {
            continue;
        }
        gl_special *s = &e->specials[e->special_count++];
        s->u = u;
        s->keycode = (int)fxgl_annotation_number(u, "keycode", 0, 0);
        const char *mode = ann_string(u, "mode");
        s->mode = mode && strcmp(mode, "press") == 0                ? 1
                  : mode && strcmp(mode, "toggle") == 0             ? 2
                  : fxgl_annotation_number(u, "toggle", 0, 0) != 0 ? 2
                                                                    : 0;
        fxgl_special_params_init(&s->p, u);
    }
    return true;
}

static fxgl_value ints(int count, int32_t a, int32_t b, int32_t c, int32_t d) {
    fxgl_value v = {.scalar = FXGL_SCALAR_INT, .count = count};
    v.i[0] = a;
    v.i[1] = b;
    v.i[2] = c;
    v.i[3] = d;
    return v;
}

static fxgl_value floats(int count, float a, float b) {
    fxgl_value v = {.scalar = FXGL_SCALAR_FLOAT, .count = count};
    v.f[0] = a;
    v.f[1] = b;
    return v;
}

// A key or button with the `mode` annotation's semantics.
static bool key_value(gl_special *s, const uint8_t *down, const uint8_t *pressed, int count) {
    if (s->keycode < 0 || s->keycode >= count) {
        return false;
    }
    if (s->mode == 1) {
        return pressed[s->keycode] != 0;
    }
    if (s->mode == 2) {
        if (pressed[s->keycode]) {
            s->toggled = !s->toggled;
        }
        return s->toggled;
    }
    return down[s->keycode] != 0;
}

void gl_specials_update(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_frame_desc *f) {
    static const fxgl_input none;
    const fxgl_input *in = f->input ? f->input : &none;
    for (size_t i = 0; i < e->special_count; i++) {
        gl_special *s = &e->specials[i];
        const fxgl_uniform *u = s->u;
        fxgl_value v;
        fxgl_special_clock clock = {rt->frame_ms, rt->frame_count, f->time - rt->start_time,
                                    f->date, &rt->rng};
        if (fxgl_special_clock_value(u, &s->p, s->value, &clock, &v)) {
            gl_uniform_write(e, u, &v, true);
            continue;
        }
        switch (u->special) {
        case FXGL_SPECIAL_KEY:
            v = ints(1, key_value(s, in->key_down, in->key_pressed, FXGL_INPUT_KEYS), 0, 0, 0);
            break;
        case FXGL_SPECIAL_MOUSEBUTTON:
            v = ints(1, key_value(s, in->button_down, in->button_pressed, FXGL_INPUT_BUTTONS),
                     0, 0, 0);
            break;
        case FXGL_SPECIAL_MOUSEPOINT:
            v = floats(2, in->mouse_x, in->mouse_y);
            break;
        case FXGL_SPECIAL_MOUSEDELTA:
            v = floats(2, in->mouse_dx, in->mouse_dy);
            break;
        case FXGL_SPECIAL_MOUSEWHEEL:
            s->value[0] += in->wheel_delta * s->p.step[0];
            if (s->p.min != s->p.max) {
                s->value[0] = s->value[0] < s->p.min ? s->p.min : s->value[0];
                s->value[0] = s->value[0] > s->p.max ? s->p.max : s->value[0];
            }
            v = floats(2, s->value[0], in->wheel_delta);
            break;
        case FXGL_SPECIAL_OVERLAY_OPEN:
            v = ints(1, f->overlay_open, 0, 0, 0);
            break;
        case FXGL_SPECIAL_OVERLAY_ACTIVE:
            v = ints(1, f->overlay_active, 0, 0, 0);
            break;
        case FXGL_SPECIAL_OVERLAY_HOVERED:
            v = ints(1, f->overlay_hovered, 0, 0, 0);
            break;
        case FXGL_SPECIAL_SCREENSHOT:
            v = ints(1, f->screenshot, 0, 0, 0);
            break;
        case FXGL_SPECIAL_BUFREADY_DEPTH:
            v = ints(1, rt->depth_ready, 0, 0, 0);
            break;
        default:
            continue; // unknown sources stay zero
        }
        gl_uniform_write(e, u, &v, true);
    }
}
