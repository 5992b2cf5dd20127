/*
 * test_module.c - unit tests of the effect module builder (src/fx/module.c)
 * and its JSON form (src/fx/json.c).
 *
 * Small hand-written effects go through parse, check and fx_module_build
 * (no preprocessor: the sources spell BUFFER_WIDTH out as 1920). The
 * expected defaults are the reference's (reshade_reference.md §1.2-1.8)
 * and every std140 offset is computed by hand in the comments.
 */
#include <check.h>
#include <float.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx_ast.h"
#include "fx_check.h"

typedef struct module_fixture {
    fx_arena *arena;
    fx_arena *earena;
    fxgl_diags diags;
    jmp_buf jb;
    fx_ctx ctx;
    fx_ctx ectx;
} module_fixture;

static module_fixture fx;

static void setup(void) {
    memset(&fx, 0, sizeof(fx));
    fx.arena = fx_arena_create(0);
    fx.earena = fx_arena_create(0);
    fxgl_diags_init(&fx.diags);
    fx.ctx = (fx_ctx){.arena = fx.arena, .diags = &fx.diags, .fatal = &fx.jb};
    fx.ectx = (fx_ctx){.arena = fx.earena, .diags = &fx.diags, .fatal = &fx.jb};
}

static void teardown(void) {
    fxgl_diags_finish(&fx.diags);
    fx_arena_destroy(fx.arena);
    fx_arena_destroy(fx.earena);
}

static void print_diags(void) {
    for (size_t i = 0; i < fx.diags.count; i++) {
        char buf[512];
        fxgl_diag_format(&fx.diags.items[i], buf, sizeof(buf));
        fprintf(stderr, "  %s\n", buf);
    }
}

// The common vertex shader of the fixtures.
#define VS "void VS(uint id : SV_VertexID, out float4 p : SV_Position, out float2 uv : " \
           "TEXCOORD) { uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0); p = float4(uv, 0, 1); }\n"

static fxgl_effect *build(const char *src) {
    teardown();
    setup();
    if (setjmp(fx.jb)) {
        return NULL;
    }
    fx_ast *ast = fx_parse(&fx.ctx, src, strlen(src), "m.fx");
    fx_program *prog = fx_check(&fx.ctx, ast);
    if (fx.ctx.errors) {
        return NULL;
    }
    return fx_module_build(&fx.ectx, prog);
}

static const fxgl_effect *ok(const char *src) {
    fxgl_effect *e = build(src);
    if (!e || fx.diags.errors) {
        print_diags();
    }
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq((int)fx.diags.errors, 0);
    return e;
}

#define expect_error(src, id_, line_, col_)                                                     \
    do {                                                                                       \
        ck_assert_ptr_null(build(src));                                                        \
        const fxgl_diag *d_ = NULL;                                                            \
        for (size_t i_ = 0; i_ < fx.diags.count && !d_; i_++) {                                \
            if (fx.diags.items[i_].severity == FXGL_DIAG_ERROR) {                              \
                d_ = &fx.diags.items[i_];                                                      \
            }                                                                                  \
        }                                                                                      \
        ck_assert_ptr_nonnull(d_);                                                             \
        if (strcmp(d_->id, id_) || d_->line != (line_) || d_->col != (col_)) {                 \
            print_diags();                                                                     \
        }                                                                                      \
        ck_assert_str_eq(d_->id, id_);                                                         \
        ck_assert_int_eq(d_->line, line_);                                                     \
        ck_assert_int_eq(d_->col, col_);                                                       \
    } while (0)

static const fxgl_texture *texture(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->texture_count; i++) {
        if (strcmp(e->textures[i].name, name) == 0) {
            return &e->textures[i];
        }
    }
    ck_abort_msg("no texture %s", name);
    return NULL;
}

static const fxgl_uniform *uniform(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->uniform_count; i++) {
        if (strcmp(e->uniforms[i].name, name) == 0) {
            return &e->uniforms[i];
        }
    }
    ck_abort_msg("no uniform %s", name);
    return NULL;
}

static float read_float(const uint8_t *data, size_t offset) {
    float f;
    memcpy(&f, data + offset, 4);
    return f;
}

// --- textures ---

START_TEST(test_texture_defaults) {
    const fxgl_effect *e = ok(
        "namespace NS { texture Back : COLOR; }\n"
        "texture T1 { Width = 1920 / 2; Height = 1080 / 4; MipLevels = 3; };\n"
        "texture T2 { };\n"
        "texture3D T3 { Width = 16; Height = 16; Depth = 16; Format = r32f; };\n"
        "texture1D T4 { Width = 256; Height = 8; Format = RGBA16f; };\n"
        "texture T5 < source = \"lut.png\"; pooled = true; > { Width = 0; Format = R8G8; };\n");
    const fxgl_texture *t = texture(e, "NS::Back");
    ck_assert_str_eq(t->semantic, "COLOR");
    ck_assert_int_eq(t->format, FXGL_FORMAT_UNKNOWN);
    ck_assert_int_eq(t->width, 1);
    t = texture(e, "T1");
    ck_assert_int_eq(t->width, 960);
    ck_assert_int_eq(t->height, 270);
    ck_assert_int_eq(t->depth, 1);
    ck_assert_int_eq(t->levels, 3);
    ck_assert_int_eq(t->format, FXGL_FORMAT_RGBA8);
    ck_assert_int_eq(t->dim, FXGL_TEXTURE_2D);
    ck_assert_ptr_null(t->semantic);
    t = texture(e, "T2");
    ck_assert_int_eq(t->width, 1);
    ck_assert_int_eq(t->height, 1);
    ck_assert_int_eq(t->levels, 1);
    ck_assert_int_eq(t->format, FXGL_FORMAT_RGBA8);
    t = texture(e, "T3");
    ck_assert_int_eq(t->depth, 16);
    ck_assert_int_eq(t->format, FXGL_FORMAT_R32F);
    t = texture(e, "T4");
    ck_assert_int_eq(t->height, 1); // 1D textures have no height
    ck_assert_int_eq(t->format, FXGL_FORMAT_RGBA16F);
    t = texture(e, "T5");
    ck_assert_int_eq(t->width, 1); // <= 0 becomes 1
    ck_assert_str_eq(t->source, "lut.png");
    ck_assert(t->pooled);
    ck_assert_int_eq(t->format, FXGL_FORMAT_RG8);
    ck_assert_str_eq(fxgl_format_name(FXGL_FORMAT_RGBA16F), "RGBA16F");
    ck_assert_int_eq(fxgl_format_dxgi(FXGL_FORMAT_RGBA8), 28);
    ck_assert_int_eq(fxgl_format_dxgi(FXGL_FORMAT_R32F), 41);
}
END_TEST

START_TEST(test_texture_errors) {
    // An unknown property is reported and ignored, as the reference does.
    ok("texture T { Widht = 4; };\n");
    ck_assert_int_eq((int)fx.diags.warnings, 1);
    ck_assert_str_eq(fx.diags.items[0].id, "X3004");
    ck_assert_int_eq(fx.diags.items[0].line, 1);
    ck_assert_int_eq(fx.diags.items[0].col, 13);
    expect_error("texture T { Format = RGBA9; };\n", "X3004", 1, 22);
    expect_error("uniform int w;\ntexture T { Width = w; };\n", "X3011", 2, 21);
    expect_error("texture T;\n", "X3012", 1, 9);
}
END_TEST

// --- samplers and storages ---

START_TEST(test_sampler_values) {
    const fxgl_effect *e = ok(
        "texture T { Width = 4; };\n"
        "texture TI { Format = R32I; };\n"
        "texture TU { Width = 2; };\n"
        "sampler A { Texture = T; };\n"
        "sampler B { Texture = T; AddressU = Wrap; AddressV = MIRROR; AddressW = border;\n"
        "  MinFilter = POINT; MagFilter = Anisotropic; MipFilter = NONE;\n"
        "  MipLODBias = -0.5; MaxLOD = 0.5; MinLOD = 2; SRGBTexture = TRUE; };\n"
        "sampler<int> C { Texture = TI; };\n"
        "sampler2D<uint4> D { Texture = TU; };\n");
    ck_assert_int_eq((int)e->sampler_count, 4);
    const fxgl_sampler *s = &e->samplers[0];
    ck_assert_int_eq(s->texture, 0);
    ck_assert_int_eq(s->address_u, FXGL_ADDRESS_CLAMP);
    ck_assert_int_eq(s->address_w, FXGL_ADDRESS_CLAMP);
    ck_assert_int_eq(s->min_filter, FXGL_FILTER_LINEAR);
    ck_assert_int_eq(s->mip_filter, FXGL_FILTER_LINEAR);
    ck_assert(s->min_lod == -FLT_MAX);
    ck_assert(s->max_lod == FLT_MAX);
    ck_assert(s->lod_bias == 0.0f);
    ck_assert(!s->srgb);
    ck_assert_int_eq(s->element, FXGL_SCALAR_FLOAT);
    ck_assert_int_eq(s->element_count, 4);
    s = &e->samplers[1];
    ck_assert_int_eq(s->address_u, FXGL_ADDRESS_WRAP);
    ck_assert_int_eq(s->address_v, FXGL_ADDRESS_MIRROR);
    ck_assert_int_eq(s->address_w, FXGL_ADDRESS_BORDER);
    ck_assert_int_eq(s->min_filter, FXGL_FILTER_POINT);
    ck_assert_int_eq(s->mag_filter, FXGL_FILTER_ANISOTROPIC);
    ck_assert_int_eq(s->mip_filter, FXGL_FILTER_POINT);
    // The reference truncates every sampler value to int.
    ck_assert(s->lod_bias == 0.0f);
    ck_assert(s->max_lod == 0.0f);
    ck_assert(s->min_lod == 2.0f);
    ck_assert(s->srgb);
    ck_assert(e->textures[0].srgb_read);
    s = &e->samplers[2];
    ck_assert_int_eq(s->element, FXGL_SCALAR_INT);
    ck_assert_int_eq(s->element_count, 1);
    ck_assert_int_eq(s->min_filter, FXGL_FILTER_POINT); // integer samplers default to POINT
    // A texture without a Format takes it from an integer sampler.
    ck_assert_int_eq(e->textures[2].format, FXGL_FORMAT_RGBA32U);
}
END_TEST

START_TEST(test_sampler_errors) {
    expect_error("texture T { };\nsampler S { AddressU = CLAMP; };\n", "X3012", 2, 9);
    expect_error("texture3D T { };\nsampler2D S { Texture = T; };\n", "X3521", 2, 15);
    expect_error("texture T { Format = RGBA16F; };\nsampler S { Texture = T; SRGBTexture = true; };\n",
                 "X4582", 2, 9);
    expect_error("texture T { Format = R32F; };\nsampler<int> S { Texture = T; };\n", "X4582", 2, 18);
    expect_error("texture T { };\nsampler S { Texture = T; AddressU = SIDEWAYS; };\n", "X3004", 2,
                 37);
}
END_TEST

START_TEST(test_storage) {
    const fxgl_effect *e = ok(
        "texture T { Width = 64; Height = 64; MipLevels = 2; Format = RGBA16F; };\n"
        "storage S { Texture = T; MipLevel = 5; };\n"
        "storage2D<float4> S0 { Texture = T; };\n");
    ck_assert_int_eq((int)e->storage_count, 2);
    ck_assert_int_eq(e->storages[0].level, 1); // clamped to levels - 1
    ck_assert_int_eq(e->storages[1].level, 0);
    ck_assert(e->textures[0].storage_access);
}
END_TEST

// --- uniforms ---

START_TEST(test_uniform_layout) {
    const fxgl_effect *e = ok(
        "uniform float a = 1.5;\n"            // 0..4
        "uniform float2 b = float2(1, 2);\n"  // align 8: 8..16
        "uniform float3 c;\n"                 // align 16: 16..28
        "uniform float d;\n"                  // 28..32
        "uniform float2x2 m = {1, 2, 3, 4};\n" // align 16: 32, 2 rows of 16: ..64
        "uniform float arr[3] = {5, 6, 7};\n" // align 16: 64, stride 16: ..112
        "uniform bool e = true;\n"            // 112..116
        "uniform int2 f = int2(-1, 3);\n");   // align 8: 120..128
    ck_assert_uint_eq(uniform(e, "a")->offset, 0);
    ck_assert_uint_eq(uniform(e, "b")->offset, 8);
    ck_assert_uint_eq(uniform(e, "c")->offset, 16);
    ck_assert_uint_eq(uniform(e, "d")->offset, 28);
    ck_assert_uint_eq(uniform(e, "m")->offset, 32);
    ck_assert_uint_eq(uniform(e, "m")->size, 32);
    ck_assert_uint_eq(uniform(e, "arr")->offset, 64);
    ck_assert_uint_eq(uniform(e, "arr")->size, 48);
    ck_assert_int_eq(uniform(e, "arr")->array_length, 3);
    ck_assert_uint_eq(uniform(e, "e")->offset, 112);
    ck_assert_uint_eq(uniform(e, "f")->offset, 120);
    ck_assert_uint_eq(e->uniform_block_size, 128);

    const fxgl_uniform *u = uniform(e, "b");
    ck_assert(u->has_initializer);
    ck_assert_int_eq(u->initializer.count, 2);
    ck_assert(read_float(u->initial_data, 4) == 2.0f);
    u = uniform(e, "m");
    ck_assert_int_eq(u->rows, 2);
    ck_assert_int_eq(u->cols, 2);
    ck_assert(read_float(u->initial_data, 0) == 1.0f);
    ck_assert(read_float(u->initial_data, 4) == 2.0f);
    ck_assert(read_float(u->initial_data, 16) == 3.0f); // row 1 in its own slot
    ck_assert(read_float(u->initial_data, 20) == 4.0f);
    u = uniform(e, "arr");
    ck_assert(read_float(u->initial_data, 32) == 7.0f);
    ck_assert(u->initializer.f[0] == 5.0f);
    u = uniform(e, "e");
    ck_assert_int_eq(u->scalar, FXGL_SCALAR_BOOL);
    ck_assert_int_eq(u->initial_data[0], 1);
    ck_assert_ptr_null(uniform(e, "c")->initial_data);
    ck_assert(!uniform(e, "c")->has_initializer);
    u = uniform(e, "f");
    ck_assert_int_eq(u->scalar, FXGL_SCALAR_INT);
    ck_assert_int_eq(u->initializer.i[0], -1);
}
END_TEST

START_TEST(test_uniform_annotations) {
    const fxgl_effect *e = ok(
        "uniform float t < source = \"frametime\"; >;\n"
        "uniform float2 pp < source = \"pingpong\"; min = 0; max = 1; step = float2(1, 2); >;\n"
        "uniform float fp < source = \"freepie\"; >;\n"
        "uniform int mode < ui_type = \"combo\"; ui_items = \"One\\0Two\\0\"; nosave = true;\n"
        "  ui_tooptip = \"typo tolerated\"; ui_label_de = \"Modus\"; > = 1;\n"
        "uniform float plain < ui_min = 0.0; ui_max = 1.0; > = 0.5;\n");
    ck_assert_int_eq(uniform(e, "t")->special, FXGL_SPECIAL_FRAMETIME);
    ck_assert(uniform(e, "t")->nosave);
    ck_assert_int_eq(uniform(e, "pp")->special, FXGL_SPECIAL_PINGPONG);
    const fxgl_annotation *a = fxgl_annotation_find(&uniform(e, "pp")->annotations, "step");
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->value.count, 2);
    ck_assert(a->value.f[1] == 2.0f);
    ck_assert_int_eq(uniform(e, "fp")->special, FXGL_SPECIAL_UNKNOWN);
    const fxgl_uniform *u = uniform(e, "mode");
    ck_assert(u->nosave);
    ck_assert_int_eq(u->special, FXGL_SPECIAL_NONE);
    a = fxgl_annotation_find(&u->annotations, "ui_items");
    ck_assert_int_eq(a->value.scalar, FXGL_SCALAR_STRING);
    ck_assert_uint_eq(a->value.string_len, 8);
    ck_assert(memcmp(a->value.string, "One\0Two\0", 8) == 0);
    ck_assert_ptr_nonnull(fxgl_annotation_find(&u->annotations, "ui_tooptip"));
    ck_assert(!uniform(e, "plain")->nosave);
    ck_assert_int_eq(uniform(e, "plain")->special, FXGL_SPECIAL_NONE);
}
END_TEST

// --- techniques and passes ---

START_TEST(test_pass_defaults) {
    const fxgl_effect *e = ok(
        "texture BB : COLOR;\nsampler S { Texture = BB; };\n" VS
        "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target "
        "{ return tex2D(S, uv); }\n"
        "technique Plain { pass { VertexShader = VS; PixelShader = PS; } }\n");
    ck_assert_int_eq((int)e->technique_count, 1);
    const fxgl_technique *t = &e->techniques[0];
    ck_assert_str_eq(t->name, "Plain");
    ck_assert(t->enabled_in_screenshot);
    ck_assert(!t->enabled && !t->hidden && !t->nosave);
    ck_assert_int_eq(t->timeout_ms, 0);
    ck_assert_int_eq((int)t->pass_count, 1);
    const fxgl_pass *p = &t->passes[0];
    ck_assert_ptr_null(p->name);
    ck_assert_int_eq(p->render_target_count, 0);
    for (int i = 0; i < FXGL_MAX_RENDER_TARGETS; i++) {
        ck_assert_int_eq(p->render_targets[i], -1);
        ck_assert(!p->blend[i].enable);
        ck_assert_int_eq(p->blend[i].op, FXGL_BLEND_OP_ADD);
        ck_assert_int_eq(p->blend[i].op_alpha, FXGL_BLEND_OP_ADD);
        ck_assert_int_eq(p->blend[i].src, FXGL_BLEND_ONE);
        ck_assert_int_eq(p->blend[i].dst, FXGL_BLEND_ZERO);
        ck_assert_int_eq(p->blend[i].src_alpha, FXGL_BLEND_ONE);
        ck_assert_int_eq(p->blend[i].dst_alpha, FXGL_BLEND_ZERO);
        ck_assert_int_eq(p->blend[i].write_mask, 0xF);
    }
    ck_assert(!p->clear_render_targets);
    ck_assert(p->generate_mipmaps);
    ck_assert(!p->srgb_write);
    ck_assert(!p->stencil_enable);
    ck_assert_int_eq(p->stencil_read_mask, 0xFF);
    ck_assert_int_eq(p->stencil_write_mask, 0xFF);
    ck_assert_int_eq(p->stencil_ref, 0);
    ck_assert_int_eq(p->stencil_func, FXGL_COMPARE_ALWAYS);
    ck_assert_int_eq(p->stencil_pass, FXGL_STENCIL_KEEP);
    ck_assert_int_eq(p->stencil_fail, FXGL_STENCIL_KEEP);
    ck_assert_int_eq(p->stencil_depth_fail, FXGL_STENCIL_KEEP);
    ck_assert_int_eq(p->topology, FXGL_TOPOLOGY_TRIANGLELIST);
    ck_assert_uint_eq(p->vertex_count, 3);
    ck_assert_int_eq(p->viewport_width, 0);
    ck_assert_int_eq(p->compute_shader, -1);
    ck_assert_int_eq((int)e->shader_count, 2);
    const fxgl_shader *vs = &e->shaders[p->vertex_shader];
    const fxgl_shader *ps = &e->shaders[p->pixel_shader];
    ck_assert_str_eq(vs->entry, "VS");
    ck_assert_int_eq(vs->stage, FXGL_STAGE_VERTEX);
    ck_assert_int_eq((int)vs->sampler_count, 0);
    ck_assert_int_eq(ps->stage, FXGL_STAGE_PIXEL);
    ck_assert_int_eq((int)ps->sampler_count, 1);
    ck_assert_int_eq(ps->samplers[0].object, 0);
    ck_assert_int_eq(ps->samplers[0].unit, 0);
    ck_assert(!ps->uses_uniforms);
    ck_assert_ptr_null(ps->glsl);
}
END_TEST

START_TEST(test_pass_states) {
    const fxgl_effect *e = ok(
        "texture A { Width = 960; Height = 540; Format = RGBA16F; };\n"
        "texture B { Width = 960; Height = 540; };\n"
        "uniform float gain = 1;\n" VS
        "void PS(float4 p : SV_Position, out float4 a : SV_Target0, out float4 b : SV_Target1)"
        " { a = gain; b = 0; }\n"
        "technique T < ui_label = \"Tee\"; enabled = true; hidden = true; timeout = 1250;"
        " enabled_in_screenshot = false; > {\n"
        "  pass First { VertexShader = VS; PixelShader = PS; RenderTarget0 = A;"
        " RenderTarget1 = B; ClearRenderTargets = TRUE; GenerateMipmaps = false;\n"
        "    BlendEnable1 = true; SrcBlend = srcalpha; DestBlend1 = INVSRCALPHA;"
        " BlendOp = 5; BlendOpAlpha = REVSUBTRACT; RenderTargetWriteMask = int(1 + 2 + 4);\n"
        "    StencilEnable = true; StencilRef = 1; StencilFunc = EQUAL; StencilPass = REPLACE;"
        " StencilZFail = INCR; StencilFailOp = decrsat; StencilMask = 0x0F;\n"
        "    PrimitiveTopology = POINTLIST; VertexCount = 1920 * 2; }\n"
        "  pass { VertexShader = VS; PixelShader = PS; }\n"
        "}\n");
    const fxgl_technique *t = &e->techniques[0];
    ck_assert_str_eq(t->label, "Tee");
    ck_assert(t->enabled && t->hidden && !t->enabled_in_screenshot);
    ck_assert_int_eq(t->timeout_ms, 1250);
    ck_assert_int_eq((int)t->pass_count, 2);
    const fxgl_pass *p = &t->passes[0];
    ck_assert_str_eq(p->name, "First");
    ck_assert_int_eq(p->render_target_count, 2);
    ck_assert_int_eq(p->render_targets[0], 0);
    ck_assert_int_eq(p->render_targets[1], 1);
    ck_assert_int_eq(p->viewport_width, 960);
    ck_assert_int_eq(p->viewport_height, 540);
    ck_assert(p->clear_render_targets);
    ck_assert(!p->generate_mipmaps);
    ck_assert(!p->blend[0].enable);
    ck_assert(p->blend[1].enable);
    ck_assert_int_eq(p->blend[0].src, FXGL_BLEND_SRCALPHA); // unsuffixed: all 8
    ck_assert_int_eq(p->blend[7].src, FXGL_BLEND_SRCALPHA);
    ck_assert_int_eq(p->blend[0].dst, FXGL_BLEND_ZERO);
    ck_assert_int_eq(p->blend[1].dst, FXGL_BLEND_INVSRCALPHA);
    ck_assert_int_eq(p->blend[3].op, FXGL_BLEND_OP_MAX);
    ck_assert_int_eq(p->blend[3].op_alpha, FXGL_BLEND_OP_REVSUBTRACT);
    ck_assert_int_eq(p->blend[2].write_mask, 7);
    ck_assert(p->stencil_enable);
    ck_assert_int_eq(p->stencil_ref, 1);
    ck_assert_int_eq(p->stencil_func, FXGL_COMPARE_EQUAL);
    ck_assert_int_eq(p->stencil_pass, FXGL_STENCIL_REPLACE);
    ck_assert_int_eq(p->stencil_depth_fail, FXGL_STENCIL_INCR);
    ck_assert_int_eq(p->stencil_fail, FXGL_STENCIL_DECRSAT);
    ck_assert_int_eq(p->stencil_read_mask, 0x0F);
    ck_assert_int_eq(p->stencil_write_mask, 0xFF);
    ck_assert_int_eq(p->topology, FXGL_TOPOLOGY_POINTLIST);
    ck_assert_uint_eq(p->vertex_count, 3840);
    ck_assert(e->textures[0].render_target && e->textures[1].render_target);
    // Both passes share the two shaders.
    ck_assert_int_eq((int)e->shader_count, 2);
    ck_assert_int_eq(t->passes[1].pixel_shader, p->pixel_shader);
    ck_assert(e->shaders[p->pixel_shader].uses_uniforms);
}
END_TEST

START_TEST(test_pass_errors) {
    expect_error(VS "technique T { pass { PixelShader = VS; } }\n", "X3012", 2, 15);
    expect_error(VS "technique T { pass { VertexShader = VS; blendenable = true; } }\n", "X3004",
                 2, 41);
    expect_error(VS "technique T { pass { VertexShader = VS; BlendOp = TIMES; } }\n", "X3004",
                 2, 51);
    expect_error(VS "technique T { pass { VertexShader = Nope; } }\n", "X3004", 2, 37);
    expect_error("texture A { Width = 4; };\ntexture B { Width = 8; };\n" VS
                 "technique T { pass { VertexShader = VS; RenderTarget0 = A; RenderTarget1 = B; "
                 "} }\n", "X4545", 4, 15);
    expect_error("texture C : COLOR;\n" VS
                 "technique T { pass { VertexShader = VS; RenderTarget = C; } }\n", "X3020", 3,
                 56);
    expect_error("texture A { Format = RGBA16F; };\n" VS
                 "technique T { pass { VertexShader = VS; RenderTarget = A; SRGBWriteEnable = "
                 "true; } }\n", "X4582", 3, 15);
}
END_TEST

START_TEST(test_rt_sampled_in_same_pass) {
    // The pixel shader reaches the sampler through a helper function. The
    // reference reports it and loads the effect: a warning (the runtime
    // binds an empty texture there).
    ok("texture A { Width = 4; };\nsampler SA { Texture = A; };\n" VS
       "float4 fetch(float2 uv) { return tex2D(SA, uv); }\n"
       "float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target "
       "{ return fetch(uv); }\n"
       "technique T { pass { VertexShader = VS; PixelShader = PS; RenderTarget = A; } }\n");
    const fxgl_diag *d = NULL;
    for (size_t i = 0; i < fx.diags.count && !d; i++) {
        d = strcmp(fx.diags.items[i].id, "X3020") == 0 ? &fx.diags.items[i] : NULL;
    }
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->severity, FXGL_DIAG_WARNING);
    ck_assert_int_eq(d->line, 6);
    ck_assert_int_eq(d->col, 15);
}
END_TEST

START_TEST(test_compute) {
    const fxgl_effect *e = ok(
        "texture T { Width = 64; Height = 64; Format = R32F; };\n"
        "storage2D<float> S { Texture = T; };\n"
        "groupshared float cache[64];\n"
        "void CS(uint3 id : SV_DispatchThreadID) { cache[0] = 1; barrier();"
        " tex2Dstore(S, id.xy, cache[0]); }\n"
        "[numthreads(4, 2, 1)] void CS2(uint3 id : SV_DispatchThreadID) {"
        " tex2Dstore(S, id.xy, 0); }\n"
        "technique C {\n"
        "  pass { ComputeShader = CS<8, 8>; DispatchSizeX = 64 / 8; DispatchSizeY = 8; }\n"
        "  pass { ComputeShader = CS2; DispatchSizeX = 1; DispatchSizeY = 2; DispatchSizeZ = 3; }\n"
        "}\n");
    const fxgl_pass *p = &e->techniques[0].passes[0];
    ck_assert_int_eq(p->vertex_shader, -1);
    ck_assert_int_eq(p->pixel_shader, -1);
    const fxgl_shader *cs = &e->shaders[p->compute_shader];
    ck_assert_int_eq(cs->stage, FXGL_STAGE_COMPUTE);
    ck_assert_int_eq(cs->threads[0], 8);
    ck_assert_int_eq(cs->threads[1], 8);
    ck_assert_int_eq(cs->threads[2], 1);
    ck_assert_int_eq((int)cs->storage_count, 1);
    ck_assert_uint_eq(p->dispatch[0], 8);
    ck_assert_uint_eq(p->dispatch[1], 8);
    ck_assert_uint_eq(p->dispatch[2], 1);
    p = &e->techniques[0].passes[1];
    cs = &e->shaders[p->compute_shader];
    ck_assert_int_eq(cs->threads[0], 4);
    ck_assert_int_eq(cs->threads[1], 2);
    ck_assert_uint_eq(p->dispatch[2], 3);

    expect_error("texture T { Format = R32F; };\nstorage2D<float> S { Texture = T; };\n" VS
                 "float4 PS(float4 p : SV_Position) : SV_Target { tex2Dstore(S, int2(0, 0), 1); "
                 "return 0; }\n"
                 "technique X { pass { VertexShader = VS; PixelShader = PS; } }\n", "X3667", 5,
                 41);
    expect_error("void CS(uint3 id : SV_DispatchThreadID) {}\n"
                 "technique X { pass { ComputeShader = CS<8, 8>; DispatchSizeX = 1; } }\n",
                 "X3012", 2, 15);
}
END_TEST

START_TEST(test_compute_with_graphics_warns) {
    ok(VS "void CS(uint3 id : SV_DispatchThreadID) {}\n"
       "technique X { pass { VertexShader = VS; ComputeShader = CS<1, 1>; DispatchSizeX = 1;"
       " DispatchSizeY = 1; } }\n");
    ck_assert_int_eq((int)fx.diags.warnings, 1);
    ck_assert_str_eq(fx.diags.items[0].id, "X3089");
}
END_TEST

// --- JSON ---

START_TEST(test_json) {
    const fxgl_effect *e = ok(
        "texture T < source = \"a\\\"b\\\\c\"; > { Width = 2; };\n"
        "uniform int m < ui_items = \"x\\0y\\0\"; ui_label = \"tab\\there\\n\"; > = 1;\n"
        VS "technique J { pass { VertexShader = VS; RenderTarget = T; } }\n");
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    ck_assert(fxgl_effect_write_json(e, out));
    fclose(out);
    ck_assert_ptr_nonnull(strstr(buf, "\"source\": \"a\\\"b\\\\c\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"ui_items\": \"x\\u0000y\\u0000\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"ui_label\": \"tab\\there\\n\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"format\": \"RGBA8\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"render_targets\": [0, -1, -1, -1, -1, -1, -1, -1]"));
    ck_assert_ptr_nonnull(strstr(buf, "\"initial_data\": \"01000000\""));
    free(buf);
}
END_TEST

static Suite *module_suite(void) {
    Suite *s = suite_create("module");
    TCase *objects = tcase_create("objects");
    tcase_add_checked_fixture(objects, setup, teardown);
    tcase_add_test(objects, test_texture_defaults);
    tcase_add_test(objects, test_texture_errors);
    tcase_add_test(objects, test_sampler_values);
    tcase_add_test(objects, test_sampler_errors);
    tcase_add_test(objects, test_storage);
    suite_add_tcase(s, objects);

    TCase *uniforms = tcase_create("uniforms");
    tcase_add_checked_fixture(uniforms, setup, teardown);
    tcase_add_test(uniforms, test_uniform_layout);
    tcase_add_test(uniforms, test_uniform_annotations);
    suite_add_tcase(s, uniforms);

    TCase *passes = tcase_create("passes");
    tcase_add_checked_fixture(passes, setup, teardown);
    tcase_add_test(passes, test_pass_defaults);
    tcase_add_test(passes, test_pass_states);
    tcase_add_test(passes, test_pass_errors);
    tcase_add_test(passes, test_rt_sampled_in_same_pass);
    tcase_add_test(passes, test_compute);
    tcase_add_test(passes, test_compute_with_graphics_warns);
    suite_add_tcase(s, passes);

    TCase *json = tcase_create("json");
    tcase_add_checked_fixture(json, setup, teardown);
    tcase_add_test(json, test_json);
    suite_add_tcase(s, json);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(module_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
