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

#include "gl_runtime.h"

static uint32_t convert(const fxgl_value *v, int i, fxgl_scalar to) {
    double d;
    int64_t n;
    switch (v->scalar) {
    case FXGL_SCALAR_FLOAT:
        d = v->f[i];
        n = (int64_t)d;
        break;
    case FXGL_SCALAR_UINT:
        n = v->u[i];
        d = (double)v->u[i];
        break;
    default:
        n = v->i[i];
        d = v->i[i];
        break;
    }
    uint32_t bits;
    switch (to) {
    case FXGL_SCALAR_FLOAT: {
        float f = (float)d;
        memcpy(&bits, &f, 4);
        return bits;
    }
    case FXGL_SCALAR_BOOL:
        return d != 0.0;
    case FXGL_SCALAR_UINT:
        return (uint32_t)n;
    default:
        return (uint32_t)(int32_t)n;
    }
}

bool gl_uniform_write(gl_effect *e, const fxgl_uniform *u, const fxgl_value *v, bool special) {
    int cols = u->cols > 0 ? u->cols : 1;
    int per = u->rows * cols;
    int elements = u->array_length > 0 ? u->array_length : 1;
    uint32_t stride = u->array_length > 0 ? u->size / (uint32_t)u->array_length : 0;
    int n = v->count < per * elements ? v->count : per * elements;
    uint32_t *lo = special ? &e->frame_lo : &e->dirty_lo;
    uint32_t *hi = special ? &e->frame_hi : &e->dirty_hi;
    for (int c = 0; c < n && c < 16; c++) {
        int el = c / per, k = c % per;
        uint32_t off = u->offset + (uint32_t)el * stride +
                       (uint32_t)(cols > 1 ? (k / cols) * 16 + (k % cols) * 4 : k * 4);
        if (off + 4 > e->size) {
            return false;
        }
        uint32_t bits = convert(v, c, u->scalar);
        if (memcmp(e->shadow + off, &bits, 4) != 0) {
            memcpy(e->shadow + off, &bits, 4);
            *lo = off < *lo ? off : *lo;
            *hi = off + 4 > *hi ? off + 4 : *hi;
        }
    }
    return true;
}

// --- annotations ---

static double ann_num(const fxgl_uniform *u, const char *name, int index, double def) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    if (!a || a->value.scalar == FXGL_SCALAR_STRING) {
        return def;
    }
    if (index >= a->value.count) {
        index = a->value.count - 1;
    }
    if (index < 0) {
        return def;
    }
    switch (a->value.scalar) {
    case FXGL_SCALAR_FLOAT: return a->value.f[index];
    case FXGL_SCALAR_UINT: return a->value.u[index];
    default: return a->value.i[index];
    }
}

static int ann_count(const fxgl_uniform *u, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    return a && a->value.scalar != FXGL_SCALAR_STRING ? a->value.count : 0;
}

static const char *ann_string(const fxgl_uniform *u, const char *name) {
    const fxgl_annotation *a = fxgl_annotation_find(&u->annotations, name);
    return a && a->value.scalar == FXGL_SCALAR_STRING ? a->value.string : NULL;
}

bool gl_specials_init(fxgl_runtime *rt, gl_effect *e) {
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
        s->keycode = (int)ann_num(u, "keycode", 0, 0);
        const char *mode = ann_string(u, "mode");
        s->mode = mode && strcmp(mode, "press") == 0    ? 1
                  : mode && strcmp(mode, "toggle") == 0 ? 2
                  : ann_num(u, "toggle", 0, 0) != 0     ? 2
                                                        : 0;
        switch (u->special) {
        case FXGL_SPECIAL_RANDOM:
            s->imin = (int)ann_num(u, "min", 0, 0);
            s->imax = (int)ann_num(u, "max", 0, RAND_MAX);
            break;
        case FXGL_SPECIAL_PINGPONG:
            s->min = (float)ann_num(u, "min", 0, 0.0);
            s->max = (float)ann_num(u, "max", 0, 1.0);
            s->step[0] = (float)ann_num(u, "step", 0, 1.0);
            s->step[1] = ann_count(u, "step") > 1 ? (float)ann_num(u, "step", 1, 0.0) : 0.0f;
            s->smoothing = (float)ann_num(u, "smoothing", 0, 0.0);
            break;
        case FXGL_SPECIAL_MOUSEWHEEL:
            s->min = (float)ann_num(u, "min", 0, 0.0);
            s->max = (float)ann_num(u, "max", 0, 0.0);
            s->step[0] = (float)ann_num(u, "step", 0, 1.0);
            break;
        default:
            break;
        }
    }
    return true;
}

// xorshift32: a private generator, so the host's rand() sequence is untouched.
static uint32_t next_random(fxgl_runtime *rt) {
    uint32_t x = rt->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rt->rng = x;
    return x;
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

static void pingpong(fxgl_runtime *rt, gl_special *s) {
    float increment = s->step[0];
    if (s->step[1] != 0.0f) {
        // A random increment in [step.x, step.y].
        float span = s->step[1] - s->step[0];
        increment = s->step[0] + span * (float)(next_random(rt) % 10001u) / 10000.0f;
    }
    float seconds = (float)(rt->frame_ms * 0.001);
    float *value = &s->value[0], *dir = &s->value[1];
    if (*dir >= 0.0f) {
        float slow = s->smoothing - (s->max - *value);
        increment = increment - (slow > 0.0f ? slow : 0.0f);
        increment = (increment > 0.05f ? increment : 0.05f) * seconds;
        *value += increment;
        if (*value >= s->max) {
            *value = s->max;
            *dir = -1.0f;
        }
    } else {
        float slow = s->smoothing - (*value - s->min);
        increment = increment - (slow > 0.0f ? slow : 0.0f);
        increment = (increment > 0.05f ? increment : 0.05f) * seconds;
        *value -= increment;
        if (*value <= s->min) {
            *value = s->min;
            *dir = 1.0f;
        }
    }
}

void gl_specials_update(fxgl_runtime *rt, gl_effect *e, const fxgl_frame_desc *f) {
    static const fxgl_input none;
    const fxgl_input *in = f->input ? f->input : &none;
    for (size_t i = 0; i < e->special_count; i++) {
        gl_special *s = &e->specials[i];
        const fxgl_uniform *u = s->u;
        fxgl_value v;
        switch (u->special) {
        case FXGL_SPECIAL_FRAMETIME:
            v = floats(1, (float)rt->frame_ms, 0);
            break;
        case FXGL_SPECIAL_FRAMECOUNT:
            if (u->scalar == FXGL_SCALAR_BOOL) {
                v = ints(1, rt->frame_count % 2 == 0, 0, 0, 0);
            } else {
                v = (fxgl_value){.scalar = FXGL_SCALAR_UINT, .count = 1};
                v.u[0] = (uint32_t)rt->frame_count;
            }
            break;
        case FXGL_SPECIAL_RANDOM: {
            int64_t span = (int64_t)s->imax - s->imin;
            span = span < 0 ? -span : span;
            v = ints(1, (int32_t)(s->imin + (int64_t)(next_random(rt) % (uint64_t)(span + 1))),
                     0, 0, 0);
            break;
        }
        case FXGL_SPECIAL_PINGPONG:
            pingpong(rt, s);
            v = floats(2, s->value[0], s->value[1]);
            break;
        case FXGL_SPECIAL_DATE: {
            int d[4];
            if (f->date) {
                memcpy(d, f->date, sizeof(d));
            } else {
                time_t now = time(NULL);
                struct tm tm;
                localtime_r(&now, &tm);
                d[0] = tm.tm_year + 1900;
                d[1] = tm.tm_mon + 1;
                d[2] = tm.tm_mday;
                d[3] = tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
            }
            v = ints(4, d[0], d[1], d[2], d[3]);
            break;
        }
        case FXGL_SPECIAL_TIMER:
            v = (fxgl_value){.scalar = FXGL_SCALAR_UINT, .count = 1};
            v.u[0] = (uint32_t)((f->time - rt->start_time) * 1000.0);
            break;
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
            s->value[0] += in->wheel_delta * s->step[0];
            if (s->min != s->max) {
                s->value[0] = s->value[0] < s->min ? s->min : s->value[0];
                s->value[0] = s->value[0] > s->max ? s->max : s->value[0];
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
