/*
 * serial.c - the effect module as bytes and back, so that an on-disk cache can skip the
 * whole front end (preprocess, parse, check, emit) for an effect it has seen.
 *
 * The format is private to one build of fxgl: little framing (the cache adds magic,
 * version, length and checksum around it), fields in declaration order, integers as
 * 32-bit little-endian, floats by their bits, strings as length + 1 (0 for NULL) then the
 * bytes. The reader checks every length against what is left, so a truncated or hostile
 * buffer gives NULL, never a read past its end. A deserialised effect lives in an arena
 * like a compiled one and goes with fxgl_effect_destroy.
 *
 * When a field is added to the module, the sizes asserted below stop the build so that
 * the field is added here too (a cache that silently drops a field would be a wrong
 * render, not a slow one); FXGL_EFFECT_SERIAL_VERSION then changes.
 */
#include <stdlib.h>
#include <string.h>

#include "fx_base.h"

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(fxgl_value) == 88, "fxgl_value changed: update serial.c");
_Static_assert(sizeof(fxgl_texture) == 96, "fxgl_texture changed: update serial.c");
_Static_assert(sizeof(fxgl_sampler) == 64, "fxgl_sampler changed: update serial.c");
_Static_assert(sizeof(fxgl_storage) == 24, "fxgl_storage changed: update serial.c");
_Static_assert(sizeof(fxgl_uniform) == 160, "fxgl_uniform changed: update serial.c");
_Static_assert(sizeof(fxgl_shader) == 112, "fxgl_shader changed: update serial.c");
_Static_assert(sizeof(fxgl_pass) == 368, "fxgl_pass changed: update serial.c");
_Static_assert(sizeof(fxgl_technique) == 56, "fxgl_technique changed: update serial.c");
_Static_assert(sizeof(fxgl_effect) == 168, "fxgl_effect changed: update serial.c");
#endif

// --- writing ---

typedef struct out_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool failed;                 // out of memory: everything after is dropped
} out_buf;

static void put(out_buf *o, const void *p, size_t n) {
    if (o->failed) {
        return;
    }
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n) {
            cap *= 2;
        }
        uint8_t *d = realloc(o->data, cap);
        if (d == NULL) {
            o->failed = true;
            return;
        }
        o->data = d;
        o->cap = cap;
    }
    memcpy(o->data + o->len, p, n);
    o->len += n;
}

static void put_u32(out_buf *o, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(o, b, 4);
}

static void put_i32(out_buf *o, int64_t v) { put_u32(o, (uint32_t)(int32_t)v); }

static void put_f32(out_buf *o, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(o, u);
}

static void put_bytes(out_buf *o, const void *p, size_t n, bool present) {
    put_u32(o, present ? (uint32_t)n + 1 : 0);
    if (present) {
        put(o, p, n);
    }
}

static void put_str(out_buf *o, const char *s) {
    put_bytes(o, s, s ? strlen(s) : 0, s != NULL);
}

static void put_value(out_buf *o, const fxgl_value *v) {
    put_i32(o, v->scalar);
    put_i32(o, v->count);
    for (int i = 0; i < 16; i++) {
        put_u32(o, v->u[i]);
    }
    put_bytes(o, v->string, v->string_len, v->string != NULL);
}

static void put_annotations(out_buf *o, const fxgl_annotations *a) {
    put_u32(o, (uint32_t)a->count);
    for (size_t i = 0; i < a->count; i++) {
        put_str(o, a->items[i].name);
        put_value(o, &a->items[i].value);
    }
}

static void put_strings(out_buf *o, const char *const *s, size_t n) {
    put_u32(o, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        put_str(o, s[i]);
    }
}

static void put_bindings(out_buf *o, const fxgl_binding *b, size_t n) {
    put_u32(o, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        put_i32(o, b[i].object);
        put_i32(o, b[i].unit);
        put_str(o, b[i].name);
    }
}

static void put_varyings(out_buf *o, const fxgl_varying *v, size_t n) {
    put_u32(o, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        put_str(o, v[i].name);
        put_i32(o, v[i].location);
        put_i32(o, v[i].flat);
    }
}

static void put_pass(out_buf *o, const fxgl_pass *p) {
    put_str(o, p->name);
    put_i32(o, p->vertex_shader);
    put_i32(o, p->pixel_shader);
    put_i32(o, p->compute_shader);
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        put_i32(o, p->render_targets[i]);
    }
    put_i32(o, p->render_target_count);
    put_i32(o, p->clear_render_targets);
    put_i32(o, p->generate_mipmaps);
    put_i32(o, p->srgb_write);
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        const fxgl_target_blend *b = &p->blend[i];
        put_i32(o, b->enable);
        put_i32(o, b->op);
        put_i32(o, b->op_alpha);
        put_i32(o, b->src);
        put_i32(o, b->dst);
        put_i32(o, b->src_alpha);
        put_i32(o, b->dst_alpha);
        put_i32(o, b->write_mask);
    }
    put_i32(o, p->stencil_enable);
    put_i32(o, p->stencil_read_mask);
    put_i32(o, p->stencil_write_mask);
    put_i32(o, p->stencil_ref);
    put_i32(o, p->stencil_func);
    put_i32(o, p->stencil_pass);
    put_i32(o, p->stencil_fail);
    put_i32(o, p->stencil_depth_fail);
    put_i32(o, p->topology);
    put_u32(o, p->vertex_count);
    for (int i = 0; i < 3; i++) {
        put_u32(o, p->dispatch[i]);
    }
    put_i32(o, p->viewport_width);
    put_i32(o, p->viewport_height);
}

void *fxgl_effect_serialize(const fxgl_effect *e, size_t *len) {
    out_buf o = {0};
    put_u32(&o, FXGL_EFFECT_SERIAL_VERSION);
    put_str(&o, e->path);
    put_u32(&o, (uint32_t)e->texture_count);
    for (size_t i = 0; i < e->texture_count; i++) {
        const fxgl_texture *t = &e->textures[i];
        put_str(&o, t->name);
        put_str(&o, t->semantic);
        put_i32(&o, t->dim);
        put_i32(&o, t->width);
        put_i32(&o, t->height);
        put_i32(&o, t->depth);
        put_i32(&o, t->levels);
        put_i32(&o, t->format);
        put_i32(&o, t->render_target);
        put_i32(&o, t->storage_access);
        put_i32(&o, t->srgb_read);
        put_str(&o, t->source);
        put_i32(&o, t->pooled);
        put_annotations(&o, &t->annotations);
        put_str(&o, t->file);
        put_i32(&o, t->line);
        put_i32(&o, t->col);
    }
    put_u32(&o, (uint32_t)e->sampler_count);
    for (size_t i = 0; i < e->sampler_count; i++) {
        const fxgl_sampler *s = &e->samplers[i];
        put_str(&o, s->name);
        put_i32(&o, s->texture);
        put_i32(&o, s->element);
        put_i32(&o, s->element_count);
        put_i32(&o, s->address_u);
        put_i32(&o, s->address_v);
        put_i32(&o, s->address_w);
        put_i32(&o, s->min_filter);
        put_i32(&o, s->mag_filter);
        put_i32(&o, s->mip_filter);
        put_f32(&o, s->min_lod);
        put_f32(&o, s->max_lod);
        put_f32(&o, s->lod_bias);
        put_i32(&o, s->srgb);
    }
    put_u32(&o, (uint32_t)e->storage_count);
    for (size_t i = 0; i < e->storage_count; i++) {
        const fxgl_storage *s = &e->storages[i];
        put_str(&o, s->name);
        put_i32(&o, s->texture);
        put_i32(&o, s->element);
        put_i32(&o, s->element_count);
        put_i32(&o, s->level);
    }
    put_u32(&o, (uint32_t)e->uniform_count);
    for (size_t i = 0; i < e->uniform_count; i++) {
        const fxgl_uniform *u = &e->uniforms[i];
        put_str(&o, u->name);
        put_i32(&o, u->scalar);
        put_i32(&o, u->rows);
        put_i32(&o, u->cols);
        put_i32(&o, u->array_length);
        put_u32(&o, u->offset);
        put_u32(&o, u->size);
        put_i32(&o, u->has_initializer);
        put_value(&o, &u->initializer);
        put_bytes(&o, u->initial_data, u->size, u->initial_data != NULL);
        put_i32(&o, u->special);
        put_i32(&o, u->nosave);
        put_annotations(&o, &u->annotations);
    }
    put_u32(&o, e->uniform_block_size);
    put_u32(&o, (uint32_t)e->technique_count);
    for (size_t i = 0; i < e->technique_count; i++) {
        const fxgl_technique *t = &e->techniques[i];
        put_str(&o, t->name);
        put_str(&o, t->label);
        put_u32(&o, (uint32_t)t->pass_count);
        for (size_t p = 0; p < t->pass_count; p++) {
            put_pass(&o, &t->passes[p]);
        }
        put_i32(&o, t->enabled);
        put_i32(&o, t->hidden);
        put_i32(&o, t->nosave);
        put_i32(&o, t->enabled_in_screenshot);
        put_i32(&o, t->timeout_ms);
        put_annotations(&o, &t->annotations);
    }
    put_u32(&o, (uint32_t)e->shader_count);
    for (size_t i = 0; i < e->shader_count; i++) {
        const fxgl_shader *s = &e->shaders[i];
        put_str(&o, s->entry);
        put_i32(&o, s->stage);
        for (int k = 0; k < 3; k++) {
            put_i32(&o, s->threads[k]);
        }
        put_str(&o, s->glsl);
        put_bindings(&o, s->samplers, s->sampler_count);
        put_bindings(&o, s->storages, s->storage_count);
        put_i32(&o, s->uses_uniforms);
        put_i32(&o, s->uniform_binding);
        put_varyings(&o, s->varyings, s->varying_count);
        put(&o, s->target_components, sizeof(s->target_components));
        put_strings(&o, s->exact_varyings, s->exact_varying_count);
    }
    put_strings(&o, e->pragmas, e->pragma_count);
    put_strings(&o, e->included_files, e->included_count);
    put_strings(&o, e->ifdef_names, e->ifdef_count);
    if (o.failed) {
        free(o.data);
        return NULL;
    }
    *len = o.len;
    return o.data;
}

// --- reading ---

typedef struct in_buf {
    const uint8_t *p;
    size_t left;
    fx_arena *arena;
    bool bad;                    // truncated, inconsistent or out of memory
} in_buf;

static uint32_t get_u32(in_buf *in) {
    if (in->bad || in->left < 4) {
        in->bad = true;
        return 0;
    }
    uint32_t v = (uint32_t)in->p[0] | (uint32_t)in->p[1] << 8 | (uint32_t)in->p[2] << 16 |
                 (uint32_t)in->p[3] << 24;
    in->p += 4;
    in->left -= 4;
    return v;
}

static int32_t get_i32(in_buf *in) { return (int32_t)get_u32(in); }

static float get_f32(in_buf *in) {
    uint32_t u = get_u32(in);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void *alloc(in_buf *in, size_t n) {
    void *p = in->bad ? NULL : fx_arena_alloc(in->arena, n ? n : 1);
    if (p == NULL) {
        in->bad = true;
    }
    return p;
}

// A count of items each at least min_bytes long: more than the rest can hold is corrupt
// (and would otherwise ask the arena for gigabytes).
static size_t get_count(in_buf *in, size_t min_bytes) {
    uint32_t n = get_u32(in);
    if (!in->bad && (uint64_t)n * min_bytes > in->left) {
        in->bad = true;
    }
    return in->bad ? 0 : n;
}

static void get_raw(in_buf *in, void *dst, size_t n) {
    if (in->bad || in->left < n) {
        in->bad = true;
        return;
    }
    memcpy(dst, in->p, n);
    in->p += n;
    in->left -= n;
}

// Bytes with a NUL after them (strings and string values); *len gets the count.
static char *get_bytes(in_buf *in, size_t *len) {
    uint32_t n = get_u32(in);
    if (n == 0 || in->bad) {
        *len = 0;
        return NULL;
    }
    n--;
    if (in->left < n) {
        in->bad = true;
        return NULL;
    }
    char *s = alloc(in, (size_t)n + 1);
    get_raw(in, s, n);
    *len = n;
    return s;
}

static const char *get_str(in_buf *in) {
    size_t len;
    return get_bytes(in, &len);
}

static void get_value(in_buf *in, fxgl_value *v) {
    v->scalar = get_i32(in);
    v->count = get_i32(in);
    for (int i = 0; i < 16; i++) {
        v->u[i] = get_u32(in);
    }
    v->string = get_bytes(in, &v->string_len);
}

static void get_annotations(in_buf *in, fxgl_annotations *a) {
    a->count = get_count(in, 8);
    fxgl_annotation *items = alloc(in, a->count * sizeof(*items));
    for (size_t i = 0; i < a->count && !in->bad; i++) {
        items[i].name = get_str(in);
        get_value(in, &items[i].value);
    }
    a->items = items;
}

static const char *const *get_strings(in_buf *in, size_t *count) {
    *count = get_count(in, 4);
    const char **s = alloc(in, *count * sizeof(*s));
    for (size_t i = 0; i < *count && !in->bad; i++) {
        s[i] = get_str(in);
    }
    return s;
}

static const fxgl_binding *get_bindings(in_buf *in, size_t *count) {
    *count = get_count(in, 12);
    fxgl_binding *b = alloc(in, *count * sizeof(*b));
    for (size_t i = 0; i < *count && !in->bad; i++) {
        b[i].object = get_i32(in);
        b[i].unit = get_i32(in);
        b[i].name = get_str(in);
    }
    return b;
}

static const fxgl_varying *get_varyings(in_buf *in, size_t *count) {
    *count = get_count(in, 12);
    fxgl_varying *v = alloc(in, *count * sizeof(*v));
    for (size_t i = 0; i < *count && !in->bad; i++) {
        v[i].name = get_str(in);
        v[i].location = get_i32(in);
        v[i].flat = get_i32(in);
    }
    return v;
}

static void get_pass(in_buf *in, fxgl_pass *p) {
    p->name = get_str(in);
    p->vertex_shader = get_i32(in);
    p->pixel_shader = get_i32(in);
    p->compute_shader = get_i32(in);
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        p->render_targets[i] = get_i32(in);
    }
    p->render_target_count = get_i32(in);
    p->clear_render_targets = get_i32(in);
    p->generate_mipmaps = get_i32(in);
    p->srgb_write = get_i32(in);
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        fxgl_target_blend *b = &p->blend[i];
        b->enable = get_i32(in);
        b->op = get_i32(in);
        b->op_alpha = get_i32(in);
        b->src = get_i32(in);
        b->dst = get_i32(in);
        b->src_alpha = get_i32(in);
        b->dst_alpha = get_i32(in);
        b->write_mask = (uint8_t)get_i32(in);
    }
    p->stencil_enable = get_i32(in);
    p->stencil_read_mask = (uint8_t)get_i32(in);
    p->stencil_write_mask = (uint8_t)get_i32(in);
    p->stencil_ref = (uint8_t)get_i32(in);
    p->stencil_func = get_i32(in);
    p->stencil_pass = get_i32(in);
    p->stencil_fail = get_i32(in);
    p->stencil_depth_fail = get_i32(in);
    p->topology = get_i32(in);
    p->vertex_count = get_u32(in);
    for (int i = 0; i < 3; i++) {
        p->dispatch[i] = get_u32(in);
    }
    p->viewport_width = get_i32(in);
    p->viewport_height = get_i32(in);
}

// Indices must point into their arrays: the runtime trusts the module.
static bool index_ok(int index, size_t count, bool optional) {
    return (optional && index == -1) || (index >= 0 && (size_t)index < count);
}

static bool consistent(const fxgl_effect *e) {
    for (size_t i = 0; i < e->sampler_count; i++) {
        if (!index_ok(e->samplers[i].texture, e->texture_count, false)) {
            return false;
        }
    }
    for (size_t i = 0; i < e->storage_count; i++) {
        if (!index_ok(e->storages[i].texture, e->texture_count, false)) {
            return false;
        }
    }
    for (size_t i = 0; i < e->uniform_count; i++) {
        const fxgl_uniform *u = &e->uniforms[i];
        if (u->offset > e->uniform_block_size || u->size > e->uniform_block_size - u->offset) {
            return false;
        }
    }
    for (size_t t = 0; t < e->technique_count; t++) {
        for (size_t k = 0; k < e->techniques[t].pass_count; k++) {
            const fxgl_pass *p = &e->techniques[t].passes[k];
            if (!index_ok(p->vertex_shader, e->shader_count, true) ||
                !index_ok(p->pixel_shader, e->shader_count, true) ||
                !index_ok(p->compute_shader, e->shader_count, true) ||
                p->render_target_count < 0 || p->render_target_count > FXGL_MAX_RENDER_TARGETS) {
                return false;
            }
            for (int r = 0; r < FXGL_MAX_RENDER_TARGETS; r++) {
                if (!index_ok(p->render_targets[r], e->texture_count, true)) {
                    return false;
                }
            }
        }
    }
    for (size_t i = 0; i < e->shader_count; i++) {
        const fxgl_shader *s = &e->shaders[i];
        for (size_t k = 0; k < s->sampler_count; k++) {
            if (!index_ok(s->samplers[k].object, e->sampler_count, false)) {
                return false;
            }
        }
        for (size_t k = 0; k < s->storage_count; k++) {
            if (!index_ok(s->storages[k].object, e->storage_count, false)) {
                return false;
            }
        }
    }
    return true;
}

fxgl_effect *fxgl_effect_deserialize(const void *data, size_t len) {
    fx_arena *arena = fx_arena_create(0);
    if (arena == NULL) {
        return NULL;
    }
    in_buf in = {.p = data, .left = len, .arena = arena};
    fxgl_effect *e = alloc(&in, sizeof(*e));
    if (get_u32(&in) != FXGL_EFFECT_SERIAL_VERSION) {
        in.bad = true;
    }
    if (!in.bad) {
        e->path = get_str(&in);
        e->texture_count = get_count(&in, 64);
        fxgl_texture *tex = alloc(&in, e->texture_count * sizeof(*tex));
        for (size_t i = 0; i < e->texture_count && !in.bad; i++) {
            fxgl_texture *t = &tex[i];
            t->name = get_str(&in);
            t->semantic = get_str(&in);
            t->dim = get_i32(&in);
            t->width = get_i32(&in);
            t->height = get_i32(&in);
            t->depth = get_i32(&in);
            t->levels = get_i32(&in);
            t->format = get_i32(&in);
            t->render_target = get_i32(&in);
            t->storage_access = get_i32(&in);
            t->srgb_read = get_i32(&in);
            t->source = get_str(&in);
            t->pooled = get_i32(&in);
            get_annotations(&in, &t->annotations);
            t->file = get_str(&in);
            t->line = get_i32(&in);
            t->col = get_i32(&in);
        }
        e->textures = tex;
        e->sampler_count = get_count(&in, 56);
        fxgl_sampler *smp = alloc(&in, e->sampler_count * sizeof(*smp));
        for (size_t i = 0; i < e->sampler_count && !in.bad; i++) {
            fxgl_sampler *s = &smp[i];
            s->name = get_str(&in);
            s->texture = get_i32(&in);
            s->element = get_i32(&in);
            s->element_count = get_i32(&in);
            s->address_u = get_i32(&in);
            s->address_v = get_i32(&in);
            s->address_w = get_i32(&in);
            s->min_filter = get_i32(&in);
            s->mag_filter = get_i32(&in);
            s->mip_filter = get_i32(&in);
            s->min_lod = get_f32(&in);
            s->max_lod = get_f32(&in);
            s->lod_bias = get_f32(&in);
            s->srgb = get_i32(&in);
        }
        e->samplers = smp;
        e->storage_count = get_count(&in, 20);
        fxgl_storage *sto = alloc(&in, e->storage_count * sizeof(*sto));
        for (size_t i = 0; i < e->storage_count && !in.bad; i++) {
            sto[i].name = get_str(&in);
            sto[i].texture = get_i32(&in);
            sto[i].element = get_i32(&in);
            sto[i].element_count = get_i32(&in);
            sto[i].level = get_i32(&in);
        }
        e->storages = sto;
        e->uniform_count = get_count(&in, 64);
        fxgl_uniform *uni = alloc(&in, e->uniform_count * sizeof(*uni));
        for (size_t i = 0; i < e->uniform_count && !in.bad; i++) {
            fxgl_uniform *u = &uni[i];
            u->name = get_str(&in);
            u->scalar = get_i32(&in);
            u->rows = get_i32(&in);
            u->cols = get_i32(&in);
            u->array_length = get_i32(&in);
            u->offset = get_u32(&in);
            u->size = get_u32(&in);
            u->has_initializer = get_i32(&in);
            get_value(&in, &u->initializer);
            size_t n;
            u->initial_data = (const uint8_t *)get_bytes(&in, &n);
            if (u->initial_data != NULL && n != u->size) {
                in.bad = true;
            }
            u->special = get_i32(&in);
            u->nosave = get_i32(&in);
            get_annotations(&in, &u->annotations);
        }
        e->uniforms = uni;
        e->uniform_block_size = get_u32(&in);
        e->technique_count = get_count(&in, 16);
        fxgl_technique *tq = alloc(&in, e->technique_count * sizeof(*tq));
        for (size_t i = 0; i < e->technique_count && !in.bad; i++) {
            fxgl_technique *t = &tq[i];
            t->name = get_str(&in);
            t->label = get_str(&in);
            t->pass_count = get_count(&in, 64);
            fxgl_pass *passes = alloc(&in, t->pass_count * sizeof(*passes));
            for (size_t p = 0; p < t->pass_count && !in.bad; p++) {
                get_pass(&in, &passes[p]);
            }
            t->passes = passes;
            t->enabled = get_i32(&in);
            t->hidden = get_i32(&in);
            t->nosave = get_i32(&in);
            t->enabled_in_screenshot = get_i32(&in);
            t->timeout_ms = get_i32(&in);
            get_annotations(&in, &t->annotations);
        }
        e->techniques = tq;
        e->shader_count = get_count(&in, 32);
        fxgl_shader *sh = alloc(&in, e->shader_count * sizeof(*sh));
        for (size_t i = 0; i < e->shader_count && !in.bad; i++) {
            fxgl_shader *s = &sh[i];
            s->entry = get_str(&in);
            s->stage = get_i32(&in);
            for (int k = 0; k < 3; k++) {
                s->threads[k] = get_i32(&in);
            }
            s->glsl = get_str(&in);
            s->samplers = get_bindings(&in, &s->sampler_count);
            s->storages = get_bindings(&in, &s->storage_count);
            s->uses_uniforms = get_i32(&in);
            s->uniform_binding = get_i32(&in);
            s->varyings = get_varyings(&in, &s->varying_count);
            get_raw(&in, s->target_components, sizeof(s->target_components));
            s->exact_varyings = get_strings(&in, &s->exact_varying_count);
        }
        e->shaders = sh;
        e->pragmas = get_strings(&in, &e->pragma_count);
        e->included_files = get_strings(&in, &e->included_count);
        e->ifdef_names = get_strings(&in, &e->ifdef_count);
    }
    if (in.bad || in.left != 0 || !consistent(e)) {
        fx_arena_destroy(arena);
        return NULL;
    }
    e->internal_ = arena;
    return e;
}
