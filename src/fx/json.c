/*
 * json.c - fxgl_effect_write_json: the whole effect module as one JSON
 * object (what `fxc dump --json` prints), for tests, tools and people.
 *
 * Field names follow fxgl_fx.h. Enums are written as their FX spelling
 * ("RGBA16F", "CLAMP", "SRCALPHA"), indices as numbers (-1: none), floats
 * with 9 significant digits (exact for float; infinities and NaN, which JSON
 * lacks, as null). Strings are escaped per RFC 8259: quote, backslash and
 * every control character.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fxgl_fx.h"

typedef struct json {
    FILE *out;
    bool ok;
} json;

static void put(json *j, const char *s) {
    if (fputs(s, j->out) < 0) {
        j->ok = false;
    }
}

static void str_n(json *j, const char *s, size_t len) {
    fputc('"', j->out);
    const unsigned char *end = (const unsigned char *)s + len;
    for (const unsigned char *p = (const unsigned char *)s; p < end; p++) {
        switch (*p) {
        case '"': put(j, "\\\""); break;
        case '\\': put(j, "\\\\"); break;
        case '\n': put(j, "\\n"); break;
        case '\r': put(j, "\\r"); break;
        case '\t': put(j, "\\t"); break;
        case '\b': put(j, "\\b"); break;
        case '\f': put(j, "\\f"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) {
                fprintf(j->out, "\\u%04x", *p);
            } else {
                fputc(*p, j->out);
            }
        }
    }
    fputc('"', j->out);
}

static void str(json *j, const char *s) {
    if (!s) {
        put(j, "null");
        return;
    }
    str_n(j, s, strlen(s));
}

static void key(json *j, const char *k) {
    str(j, k);
    put(j, ": ");
}

static void num(json *j, long long v) {
    fprintf(j->out, "%lld", v);
}

static void flt(json *j, double v) {
    if (isinf(v) || isnan(v)) {
        put(j, "null");
    } else {
        fprintf(j->out, "%.9g", v);
    }
}

static void boolean(json *j, bool v) {
    put(j, v ? "true" : "false");
}

static const char *scalar_name(fxgl_scalar s) {
    static const char *const names[] = {"bool", "int", "uint", "float", "string"};
    return (unsigned)s < 5 ? names[s] : "?";
}

static void value(json *j, const fxgl_value *v) {
    if (v->scalar == FXGL_SCALAR_STRING) {
        str_n(j, v->string ? v->string : "", v->string ? v->string_len : 0);
        return;
    }
    put(j, "[");
    for (int i = 0; i < v->count && i < 16; i++) {
        put(j, i ? ", " : "");
        switch (v->scalar) {
        case FXGL_SCALAR_BOOL: boolean(j, v->i[i] != 0); break;
        case FXGL_SCALAR_INT: num(j, v->i[i]); break;
        case FXGL_SCALAR_UINT: num(j, v->u[i]); break;
        default: flt(j, v->f[i]); break;
        }
    }
    put(j, "]");
}

static void annotations(json *j, const fxgl_annotations *a) {
    put(j, "{");
    for (size_t i = 0; i < a->count; i++) {
        put(j, i ? ", " : "");
        key(j, a->items[i].name);
        value(j, &a->items[i].value);
    }
    put(j, "}");
}

static void strings(json *j, const char *const *list, size_t n) {
    put(j, "[");
    for (size_t i = 0; i < n; i++) {
        put(j, i ? ", " : "");
        str(j, list[i]);
    }
    put(j, "]");
}

static void ints(json *j, const int *v, size_t n) {
    put(j, "[");
    for (size_t i = 0; i < n; i++) {
        put(j, i ? ", " : "");
        num(j, v[i]);
    }
    put(j, "]");
}

static const char *address_name(fxgl_address a) {
    switch (a) {
    case FXGL_ADDRESS_WRAP: return "WRAP";
    case FXGL_ADDRESS_MIRROR: return "MIRROR";
    case FXGL_ADDRESS_CLAMP: return "CLAMP";
    case FXGL_ADDRESS_BORDER: return "BORDER";
    }
    return "?";
}

static const char *filter_name(fxgl_filter f) {
    return f == FXGL_FILTER_POINT ? "POINT" : f == FXGL_FILTER_LINEAR ? "LINEAR" : "ANISOTROPIC";
}

static const char *blend_op_name(fxgl_blend_op op) {
    static const char *const names[] = {"?", "ADD", "SUBTRACT", "REVSUBTRACT", "MIN", "MAX"};
    return (unsigned)op < 6 ? names[op] : "?";
}

static const char *blend_name(fxgl_blend_factor f) {
    static const char *const names[] = {"ZERO", "ONE", "SRCCOLOR", "INVSRCCOLOR", "DESTCOLOR",
                                        "INVDESTCOLOR", "SRCALPHA", "INVSRCALPHA", "DESTALPHA",
                                        "INVDESTALPHA"};
    return (unsigned)f < 10 ? names[f] : "?";
}

static const char *compare_name(fxgl_compare c) {
    static const char *const names[] = {"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER",
                                        "NOTEQUAL", "GEQUAL", "ALWAYS"};
    return (unsigned)c < 8 ? names[c] : "?";
}

static const char *stencil_name(fxgl_stencil_op op) {
    static const char *const names[] = {"ZERO", "KEEP", "REPLACE", "INCRSAT", "DECRSAT",
                                        "INVERT", "INCR", "DECR"};
    return (unsigned)op < 8 ? names[op] : "?";
}

static const char *topology_name(fxgl_topology t) {
    static const char *const names[] = {"?", "POINTLIST", "LINELIST", "LINESTRIP",
                                        "TRIANGLELIST", "TRIANGLESTRIP"};
    return (unsigned)t < 6 ? names[t] : "?";
}

static const char *special_name(fxgl_special s) {
    static const char *const names[] = {
        "none", "frametime", "framecount", "random", "pingpong", "date", "timer", "key",
        "mousepoint", "mousedelta", "mousebutton", "mousewheel", "overlay_open",
        "overlay_active", "overlay_hovered", "screenshot", "bufready_depth", "unknown"};
    return (unsigned)s <= FXGL_SPECIAL_UNKNOWN ? names[s] : "?";
}

static const char *stage_name(fxgl_stage s) {
    return s == FXGL_STAGE_VERTEX ? "vertex" : s == FXGL_STAGE_PIXEL ? "pixel" : "compute";
}

static void texture(json *j, const fxgl_texture *t) {
    put(j, "{");
    key(j, "name"); str(j, t->name);
    put(j, ", "); key(j, "semantic"); str(j, t->semantic);
    put(j, ", "); key(j, "dim"); num(j, t->dim);
    put(j, ", "); key(j, "width"); num(j, t->width);
    put(j, ", "); key(j, "height"); num(j, t->height);
    put(j, ", "); key(j, "depth"); num(j, t->depth);
    put(j, ", "); key(j, "levels"); num(j, t->levels);
    put(j, ", "); key(j, "format"); str(j, fxgl_format_name(t->format));
    put(j, ", "); key(j, "render_target"); boolean(j, t->render_target);
    put(j, ", "); key(j, "storage_access"); boolean(j, t->storage_access);
    put(j, ", "); key(j, "srgb_read"); boolean(j, t->srgb_read);
    put(j, ", "); key(j, "source"); str(j, t->source);
    put(j, ", "); key(j, "pooled"); boolean(j, t->pooled);
    put(j, ", "); key(j, "annotations"); annotations(j, &t->annotations);
    put(j, "}");
}

static void sampler(json *j, const fxgl_sampler *s) {
    put(j, "{");
    key(j, "name"); str(j, s->name);
    put(j, ", "); key(j, "texture"); num(j, s->texture);
    put(j, ", "); key(j, "element"); str(j, scalar_name(s->element));
    put(j, ", "); key(j, "element_count"); num(j, s->element_count);
    put(j, ", "); key(j, "address_u"); str(j, address_name(s->address_u));
    put(j, ", "); key(j, "address_v"); str(j, address_name(s->address_v));
    put(j, ", "); key(j, "address_w"); str(j, address_name(s->address_w));
    put(j, ", "); key(j, "min_filter"); str(j, filter_name(s->min_filter));
    put(j, ", "); key(j, "mag_filter"); str(j, filter_name(s->mag_filter));
    put(j, ", "); key(j, "mip_filter"); str(j, filter_name(s->mip_filter));
    put(j, ", "); key(j, "min_lod"); flt(j, s->min_lod);
    put(j, ", "); key(j, "max_lod"); flt(j, s->max_lod);
    put(j, ", "); key(j, "lod_bias"); flt(j, s->lod_bias);
    put(j, ", "); key(j, "srgb"); boolean(j, s->srgb);
    put(j, "}");
}

static void storage(json *j, const fxgl_storage *s) {
    put(j, "{");
    key(j, "name"); str(j, s->name);
    put(j, ", "); key(j, "texture"); num(j, s->texture);
    put(j, ", "); key(j, "element"); str(j, scalar_name(s->element));
    put(j, ", "); key(j, "element_count"); num(j, s->element_count);
    put(j, ", "); key(j, "level"); num(j, s->level);
    put(j, "}");
}

static void uniform(json *j, const fxgl_uniform *u) {
    put(j, "{");
    key(j, "name"); str(j, u->name);
    put(j, ", "); key(j, "scalar"); str(j, scalar_name(u->scalar));
    put(j, ", "); key(j, "rows"); num(j, u->rows);
    put(j, ", "); key(j, "cols"); num(j, u->cols);
    put(j, ", "); key(j, "array_length"); num(j, u->array_length);
    put(j, ", "); key(j, "offset"); num(j, u->offset);
    put(j, ", "); key(j, "size"); num(j, u->size);
    put(j, ", "); key(j, "has_initializer"); boolean(j, u->has_initializer);
    if (u->has_initializer) {
        put(j, ", "); key(j, "initializer"); value(j, &u->initializer);
    }
    put(j, ", "); key(j, "initial_data");
    if (u->initial_data) {
        put(j, "\"");
        for (uint32_t i = 0; i < u->size; i++) {
            fprintf(j->out, "%02x", u->initial_data[i]);
        }
        put(j, "\"");
    } else {
        put(j, "null");
    }
    put(j, ", "); key(j, "special"); str(j, special_name(u->special));
    put(j, ", "); key(j, "nosave"); boolean(j, u->nosave);
    put(j, ", "); key(j, "annotations"); annotations(j, &u->annotations);
    put(j, "}");
}

static void bindings(json *j, const fxgl_binding *b, size_t n) {
    put(j, "[");
    for (size_t i = 0; i < n; i++) {
        put(j, i ? ", " : "");
        fprintf(j->out, "{\"object\": %d, \"unit\": %d}", b[i].object, b[i].unit);
    }
    put(j, "]");
}

static void varyings(json *j, const fxgl_varying *v, size_t n) {
    put(j, "[");
    for (size_t i = 0; i < n; i++) {
        put(j, i ? ", {" : "{");
        key(j, "name"); str(j, v[i].name);
        put(j, ", "); key(j, "location"); num(j, v[i].location);
        put(j, ", "); key(j, "flat"); boolean(j, v[i].flat);
        put(j, "}");
    }
    put(j, "]");
}

static void shader(json *j, const fxgl_shader *s) {
    put(j, "{");
    key(j, "entry"); str(j, s->entry);
    put(j, ", "); key(j, "stage"); str(j, stage_name(s->stage));
    if (s->stage == FXGL_STAGE_COMPUTE) {
        put(j, ", "); key(j, "threads"); ints(j, s->threads, 3);
    }
    put(j, ", "); key(j, "samplers"); bindings(j, s->samplers, s->sampler_count);
    put(j, ", "); key(j, "storages"); bindings(j, s->storages, s->storage_count);
    put(j, ", "); key(j, "uses_uniforms"); boolean(j, s->uses_uniforms);
    put(j, ", "); key(j, "uniform_binding"); num(j, s->uniform_binding);
    put(j, ", "); key(j, "varyings"); varyings(j, s->varyings, s->varying_count);
    put(j, ", "); key(j, "glsl"); str(j, s->glsl);
    put(j, "}");
}

static void pass(json *j, const fxgl_pass *p) {
    put(j, "{");
    key(j, "name"); str(j, p->name);
    put(j, ", "); key(j, "vertex_shader"); num(j, p->vertex_shader);
    put(j, ", "); key(j, "pixel_shader"); num(j, p->pixel_shader);
    put(j, ", "); key(j, "compute_shader"); num(j, p->compute_shader);
    put(j, ", "); key(j, "render_targets"); ints(j, p->render_targets, FXGL_MAX_RENDER_TARGETS);
    put(j, ", "); key(j, "render_target_count"); num(j, p->render_target_count);
    put(j, ", "); key(j, "clear_render_targets"); boolean(j, p->clear_render_targets);
    put(j, ", "); key(j, "generate_mipmaps"); boolean(j, p->generate_mipmaps);
    put(j, ", "); key(j, "srgb_write"); boolean(j, p->srgb_write);
    put(j, ", "); key(j, "blend"); put(j, "[");
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        const fxgl_target_blend *b = &p->blend[i];
        put(j, i ? ", {" : "{");
        key(j, "enable"); boolean(j, b->enable);
        put(j, ", "); key(j, "op"); str(j, blend_op_name(b->op));
        put(j, ", "); key(j, "op_alpha"); str(j, blend_op_name(b->op_alpha));
        put(j, ", "); key(j, "src"); str(j, blend_name(b->src));
        put(j, ", "); key(j, "dst"); str(j, blend_name(b->dst));
        put(j, ", "); key(j, "src_alpha"); str(j, blend_name(b->src_alpha));
        put(j, ", "); key(j, "dst_alpha"); str(j, blend_name(b->dst_alpha));
        put(j, ", "); key(j, "write_mask"); num(j, b->write_mask);
        put(j, "}");
    }
    put(j, "]");
    put(j, ", "); key(j, "stencil_enable"); boolean(j, p->stencil_enable);
    put(j, ", "); key(j, "stencil_read_mask"); num(j, p->stencil_read_mask);
    put(j, ", "); key(j, "stencil_write_mask"); num(j, p->stencil_write_mask);
    put(j, ", "); key(j, "stencil_ref"); num(j, p->stencil_ref);
    put(j, ", "); key(j, "stencil_func"); str(j, compare_name(p->stencil_func));
    put(j, ", "); key(j, "stencil_pass"); str(j, stencil_name(p->stencil_pass));
    put(j, ", "); key(j, "stencil_fail"); str(j, stencil_name(p->stencil_fail));
    put(j, ", "); key(j, "stencil_depth_fail"); str(j, stencil_name(p->stencil_depth_fail));
    put(j, ", "); key(j, "topology"); str(j, topology_name(p->topology));
    put(j, ", "); key(j, "vertex_count"); num(j, p->vertex_count);
    put(j, ", "); key(j, "dispatch");
    fprintf(j->out, "[%u, %u, %u]", p->dispatch[0], p->dispatch[1], p->dispatch[2]);
    put(j, ", "); key(j, "viewport_width"); num(j, p->viewport_width);
    put(j, ", "); key(j, "viewport_height"); num(j, p->viewport_height);
    put(j, "}");
}

static void technique(json *j, const fxgl_technique *t) {
    put(j, "{");
    key(j, "name"); str(j, t->name);
    put(j, ", "); key(j, "label"); str(j, t->label);
    put(j, ", "); key(j, "enabled"); boolean(j, t->enabled);
    put(j, ", "); key(j, "hidden"); boolean(j, t->hidden);
    put(j, ", "); key(j, "nosave"); boolean(j, t->nosave);
    put(j, ", "); key(j, "enabled_in_screenshot"); boolean(j, t->enabled_in_screenshot);
    put(j, ", "); key(j, "timeout_ms"); num(j, t->timeout_ms);
    put(j, ", "); key(j, "annotations"); annotations(j, &t->annotations);
    put(j, ", "); key(j, "passes"); put(j, "[");
    for (size_t i = 0; i < t->pass_count; i++) {
        put(j, i ? ",\n      " : "\n      ");
        pass(j, &t->passes[i]);
    }
    put(j, "]}");
}

// `"name": [ item, ... ]` with one item per line.
#define LIST(j, name, items, count, fn)                                                       \
    do {                                                                                       \
        put(j, ",\n  ");                                                                       \
        key(j, name);                                                                          \
        put(j, "[");                                                                           \
        for (size_t i_ = 0; i_ < (count); i_++) {                                              \
            put(j, i_ ? ",\n    " : "\n    ");                                                 \
            fn(j, &(items)[i_]);                                                               \
        }                                                                                      \
        put(j, "]");                                                                           \
    } while (0)

bool fxgl_effect_write_json(const fxgl_effect *effect, FILE *out) {
    if (!effect || !out) {
        return false;
    }
    json jv = {.out = out, .ok = true};
    json *j = &jv;
    put(j, "{\n  ");
    key(j, "path"); str(j, effect->path);
    put(j, ",\n  "); key(j, "uniform_block_size"); num(j, effect->uniform_block_size);
    LIST(j, "textures", effect->textures, effect->texture_count, texture);
    LIST(j, "samplers", effect->samplers, effect->sampler_count, sampler);
    LIST(j, "storages", effect->storages, effect->storage_count, storage);
    LIST(j, "uniforms", effect->uniforms, effect->uniform_count, uniform);
    LIST(j, "techniques", effect->techniques, effect->technique_count, technique);
    LIST(j, "shaders", effect->shaders, effect->shader_count, shader);
    put(j, ",\n  "); key(j, "pragmas"); strings(j, effect->pragmas, effect->pragma_count);
    put(j, ",\n  "); key(j, "included_files");
    strings(j, effect->included_files, effect->included_count);
    put(j, ",\n  "); key(j, "ifdef_names"); strings(j, effect->ifdef_names, effect->ifdef_count);
    put(j, "\n}\n");
    return j->ok && !ferror(out);
}
