/*
 * effects_render.c - the pixel tests' route into the runtime: one effect,
 * compiled from data/shaders by the compiler, run by the GL runtime on a
 * headless EGL context (GL 4.5 core, or GLES 3.0) over an FBO holding the input image,
 * exactly as the interposer runs it over an application's frame.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "effects_render.h"
#include "fxgl_fx.h"

#define MAX_DEFINES 64

// Fills value from "a,b,c" as floats (the runtime converts components to
// the uniform's type); false when a component is not a number.
static bool parse_value(const char *text, fxgl_value *value) {
    memset(value, 0, sizeof(*value));
    value->scalar = FXGL_SCALAR_FLOAT;
    const char *p = text;
    while (*p && value->count < 16) {
        char *end = NULL;
        double d = strtod(p, &end);
        if (end == p) {
            return false;
        }
        value->f[value->count++] = (float)d;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            return false;
        }
    }
    return value->count > 0;
}

static const fxgl_uniform *find_uniform(const fxgl_effect *e, const char *name) {
    for (size_t i = 0; i < e->uniform_count; i++) {
        if (strcmp(e->uniforms[i].name, name) == 0) {
            return &e->uniforms[i];
        }
    }
    return NULL;
}

// Applies "Name=value" lines; false with reason on an unknown name or a bad value.
static bool apply_values(fxgl_runtime *rt, int index, const fxgl_effect *e, const char *values,
                         char *reason, size_t reason_size) {
    char line[256];
    for (const char *p = values; p && *p;) {
        const char *start = p;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        p = nl ? nl + 1 : p + len;
        if (len == 0 || len >= sizeof(line)) {
            continue;
        }
        memcpy(line, start, len);
        line[len] = '\0';
        char *eq = strchr(line, '=');
        if (!eq) {
            snprintf(reason, reason_size, "bad value line '%s'", line);
            return false;
        }
        *eq = '\0';
        fxgl_value v;
        if (!find_uniform(e, line) || !parse_value(eq + 1, &v) ||
            !fxgl_runtime_set_uniform(rt, (size_t)index, line, &v)) {
            snprintf(reason, reason_size, "%s: cannot set '%s' to '%s'", e->path, line, eq + 1);
            return false;
        }
    }
    return true;
}

// The application "draws" its frame: the input, bottom row first as GL
// framebuffers store it. Every frame, because the previous one was
// post-processed in place.
static void draw_input(struct GladGLContext *gl, GLuint tex, const fxgl_image *input) {
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (int y = 0; y < input->height; y++) {
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, input->height - 1 - y, input->width, 1, GL_RGBA,
                          GL_UNSIGNED_BYTE, fxgl_image_at(input, 0, y));
    }
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

effect_status effect_render(const effect_run *run, const fxgl_image *input, fxgl_image *output,
                            char *reason, size_t reason_size) {
    effect_status status = EFFECT_FAILED;
    int w = input->width, h = input->height;
    fxgl_test_egl_desc desc = {.api = run->gles ? FXGL_API_GLES : FXGL_API_GL,
                               .major = run->gles ? 3 : 4, .minor = run->gles ? 0 : 5};
    fxgl_test_egl *egl = fxgl_test_egl_create(&desc, reason, reason_size);
    if (!egl) {
        return EFFECT_UNAVAILABLE;
    }
    struct GladGLContext *gl = fxgl_test_egl_gl(egl);
    const fxgl_gl_info *info = fxgl_test_egl_info(egl);

    // Compile with the runtime's predefined macros for this size.
    fxgl_environment env = {.width = w, .height = h,
                            .api = run->gles ? FXGL_API_KIND_GLES : FXGL_API_KIND_GL,
                            .api_major = info->major, .api_minor = info->minor};
    fxgl_define defines[FXGL_PREDEFINED_MAX + MAX_DEFINES];
    char storage[FXGL_PREDEFINED_STORAGE];
    size_t ndef = fxgl_predefined_macros(&env, defines, storage, sizeof(storage));
    char *user_defines = run->defines ? strdup(run->defines) : NULL;
    for (char *tok = user_defines ? strtok(user_defines, ",") : NULL; tok && ndef < FXGL_PREDEFINED_MAX + MAX_DEFINES;
         tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (eq) {
            *eq = '\0';
        }
        defines[ndef++] = (fxgl_define){tok, eq ? eq + 1 : "1"};
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", FXGL_DATA_SHADERS, run->effect);
    const char *includes[] = {FXGL_DATA_SHADERS};
    fxgl_compile_desc cdesc = {.path = path, .include_paths = includes, .include_path_count = 1,
                               .defines = defines, .define_count = ndef,
                               .target = run->gles ? FXGL_GLSL_ES300 : FXGL_GLSL_GL450};
    fxgl_diags diags;
    fxgl_diags_init(&diags);
    fxgl_effect *effect = fxgl_effect_compile(&cdesc, &diags);
    free(user_defines);
    if (!effect) {
        char msg[200] = "";
        if (diags.count > 0) {
            fxgl_diag_format(&diags.items[0], msg, sizeof(msg));
        }
        snprintf(reason, reason_size, "does not compile: %s", msg);
        fxgl_diags_finish(&diags);
        fxgl_test_egl_destroy(egl);
        return EFFECT_FAILED;
    }
    fxgl_diags_finish(&diags);

    // The "application's" frame: an FBO whose colour is the input, stored
    // bottom row first as GL framebuffers are.
    GLuint tex, fbo, depth_tex = 0, queries[256];
    gl->GenTextures(1, &tex);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);

    const char *tex_paths[] = {run->texture_dir ? run->texture_dir : FXGL_DATA_TEXTURES,
                               FXGL_DATA_TEXTURES};
    fxgl_runtime_desc rdesc = {.texture_search_paths = tex_paths, .texture_search_path_count = 2,
                               .no_depth_copy = run->depth != NULL};
    fxgl_runtime *rt = fxgl_runtime_create(gl, info, &rdesc);
    int index = rt ? fxgl_runtime_add_effect(rt, effect, run->effect) : -1;
    if (index < 0) {
        snprintf(reason, reason_size, "the runtime does not start on %s", info->renderer);
        goto done;
    }
    if (run->depth) {
        // Effect textures are stored top row first, so the depth image is
        // uploaded as is (no flip), one float per texel from the red byte.
        float *d = malloc((size_t)w * (size_t)h * sizeof(float));
        for (int i = 0; d && i < w * h; i++) {
            d[i] = (float)run->depth->pixels[(size_t)i * 4] / 255.0f;
        }
        gl->GenTextures(1, &depth_tex);
        gl->BindTexture(GL_TEXTURE_2D, depth_tex);
        gl->TexStorage2D(GL_TEXTURE_2D, 1, GL_R32F, w, h);
        gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RED, GL_FLOAT, d);
        free(d);
        fxgl_runtime_set_semantic(rt, "DEPTH", depth_tex);
    }
    if (!apply_values(rt, index, effect, run->values, reason, reason_size)) {
        goto done;
    }
    int frames = run->frames < 1 ? 1 : run->frames > 256 ? 256 : run->frames;
    if (run->gpu_ms) {
        gl->GenQueries(frames, queries);
    }
    for (int f = 0; f < frames; f++) {
        draw_input(gl, tex, input);
        fxgl_frame_desc frame = {.width = w, .height = h, .framebuffer = fbo, .time = f / 60.0};
        if (run->gpu_ms) {
            gl->BeginQuery(GL_TIME_ELAPSED, queries[f]);
        }
        bool ran = fxgl_runtime_frame(rt, &frame);
        if (run->gpu_ms) {
            gl->EndQuery(GL_TIME_ELAPSED);
        }
        if (!ran) {
            snprintf(reason, reason_size, "the runtime passed frame %d through", f);
            goto done;
        }
    }
    const char *why = NULL;
    if (fxgl_runtime_effect_status(rt, (size_t)index, &why) != FXGL_STATUS_READY) {
        snprintf(reason, reason_size, "the runtime skipped it: %s", why ? why : "?");
        goto done;
    }
    if (run->gpu_ms) {
        double times[256];
        int first = frames > 1 ? 1 : 0;
        for (int f = first; f < frames; f++) {
            GLuint64 ns = 0;
            gl->GetQueryObjectui64v(queries[f], GL_QUERY_RESULT, &ns);
            times[f - first] = (double)ns * 1e-6;
        }
        qsort(times, (size_t)(frames - first), sizeof(double), compare_double);
        *run->gpu_ms = times[(frames - first) / 2];
        gl->DeleteQueries(frames, queries);
    }
    if (run->technique_ms) {
        // The runtime takes finished timer results in at its next frame;
        // after the last frame they are still pending until collected.
        fxgl_runtime_collect_timings(rt);
        fxgl_technique_info ti;
        *run->technique_ms = fxgl_runtime_technique(rt, 0, &ti) ? ti.gpu_ms : NAN;
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    if (!fxgl_image_read_gl(output, gl, w, h)) {
        snprintf(reason, reason_size, "cannot read the frame back");
        goto done;
    }
    status = EFFECT_RENDERED;
done:
    fxgl_runtime_destroy(rt);
    fxgl_effect_destroy(effect);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    if (depth_tex) {
        gl->DeleteTextures(1, &depth_tex);
    }
    fxgl_test_egl_destroy(egl);
    return status;
}
