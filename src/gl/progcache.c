/*
 * progcache.c - linked programs kept between runs as driver binaries
 * (glGetProgramBinary / glProgramBinary), through the fxgl_program_cache the host gives.
 *
 * Before an effect's shaders are compiled, the program of every distinct stage triple of
 * its passes is looked up: a binary the driver takes (link status true) becomes the
 * program, and a shader whose every pass has one is never compiled. So a warm start with
 * every binary makes no glCompileShader call at all; one missing or refused binary costs
 * exactly the shaders of its passes. A refused binary (a driver update, another GPU
 * under the same key) is counted, logged at debug level, compiled from source and
 * replaced. Compile errors are found as before: a shader that does not compile never
 * linked, so it has no binary and is compiled at load.
 *
 * The key: FNV-1a over GL_VENDOR, GL_RENDERER, GL_VERSION, whether image formats are
 * emulated (a line added to the source), and each stage's kind and GLSL.
 */
#include <stdlib.h>
#include <string.h>

#include "gl_exact.h"
#include "gl_runtime.h"

static uint64_t fnv(uint64_t h, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) {
    return s ? fnv(h, s, strlen(s) + 1) : fnv(h, "\xff", 1);
}

fxgl_program_counts fxgl_runtime_program_counts(const fxgl_runtime *rt) {
    return rt ? rt->programs : (fxgl_program_counts){.binary_formats = -1};
}

static bool cache_on(fxgl_runtime *rt) {
    const fxgl_program_cache *c = rt->desc.program_cache;
    if (c == NULL || c->load == NULL || c->store == NULL) {
        return false;
    }
    if (rt->programs.binary_formats < 0) {
        GLint n = 0;
        GLC(rt, GetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &n));
        n = n < 0 ? 0 : n;
        rt->programs.binary_formats = n;
        GLint formats[GL_RT_BINARY_FORMATS] = {0};
        if (n > 0 && n <= GL_RT_BINARY_FORMATS) {
            GLC(rt, GetIntegerv(GL_PROGRAM_BINARY_FORMATS, formats));
            for (GLint i = 0; i < n; i++) {
                rt->binary_formats[i] = (GLenum)formats[i];
            }
        } else if (n > GL_RT_BINARY_FORMATS) {
            rt->programs.binary_formats = 0; // not seen on any driver: no binaries
        }
        if (n == 0) {
            gl_log(rt, FXGL_GL_LOG_DEBUG, "the driver offers no program binary formats: "
                   "programs are compiled at every start");
        }
    }
    return rt->programs.binary_formats > 0;
}

static const char *glsl_of(const fxgl_effect *fx, int shader) {
    return shader >= 0 && (size_t)shader < fx->shader_count ? fx->shaders[shader].glsl : NULL;
}

static uint64_t driver_key(fxgl_runtime *rt) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv_str(h, (const char *)GLC(rt, GetString(GL_VENDOR)));
    h = fnv_str(h, (const char *)GLC(rt, GetString(GL_RENDERER)));
    h = fnv_str(h, (const char *)GLC(rt, GetString(GL_VERSION)));
    unsigned char emulated = rt->emulate_image_formats;
    return fnv(h, &emulated, 1);
}

static uint64_t key_of(fxgl_runtime *rt, const fxgl_effect *fx, const fxgl_pass *fp) {
    uint64_t h = driver_key(rt);
    const int stages[3] = {fp->vertex_shader, fp->pixel_shader, fp->compute_shader};
    for (int i = 0; i < 3; i++) {
        h = fnv(h, &i, sizeof(i));
        h = fnv_str(h, glsl_of(fx, stages[i]));
    }
    // The exact-varying analysis depends on what the pass draws, and is off with
    // interpolated varyings: a program linked with its variant is another program.
    // GL_EXACT_RULES: binaries stored under older rules are not taken; the
    // analysis depends on the program presenting a window or an FBO and on
    // FXGL_EXACT_RASTER (exact.c).
    const int drawn[6] = {(int)fp->topology, (int)fp->vertex_count,
                          rt->desc.interpolated_varyings ? 1 : 0, GL_EXACT_RULES,
                          rt->frame && rt->frame->framebuffer == 0, rt->raster_off};
    return fnv(h, drawn, sizeof(drawn));
}

// The analysis record beside a binary: its own key, a format no driver uses.
#define EXACT_FORMAT 0x45584354u // "EXCT"
static uint64_t exact_key(uint64_t key) {
    return fnv(key, "exact", 5);
}

// Reads the analysis stored with the binary of key into p; false when the record is
// missing or damaged (then the binary cannot be used: its pixel shader may be a variant).
static bool load_exact(fxgl_runtime *rt, uint64_t key, gl_preloaded *p) {
    const fxgl_program_cache *c = rt->desc.program_cache;
    uint32_t format = 0;
    size_t len = 0;
    unsigned char *data = c->load(c->user, exact_key(key), &format, &len);
    int32_t n = 0;
    bool ok = data != NULL && format == EXACT_FORMAT && len >= sizeof(n);
    if (ok) {
        memcpy(&n, data, sizeof(n));
        size_t modes = (size_t)n * 4;
        ok = n >= 0 && n <= 64 && len >= sizeof(n) + modes;
        if (ok && n > 0) {
            size_t dlen = len - sizeof(n) - modes;
            p->exact_modes = malloc(modes);
            p->exact_defines = malloc(dlen + 1);
            ok = p->exact_modes && p->exact_defines;
            if (ok) {
                memcpy(p->exact_modes, data + sizeof(n), modes);
                memcpy(p->exact_defines, data + sizeof(n) + modes, dlen);
                p->exact_defines[dlen] = '\0';
                p->exact_count = n;
            } else {
                free(p->exact_modes);
                free(p->exact_defines);
                p->exact_modes = NULL;
                p->exact_defines = NULL;
            }
        }
    }
    free(data);
    return ok;
}

static void store_exact(fxgl_runtime *rt, uint64_t key, const gl_pass *p) {
    const fxgl_program_cache *c = rt->desc.program_cache;
    int32_t n = p->exact_defines ? p->exact_count : 0;
    size_t modes = (size_t)n * 4, dlen = n ? strlen(p->exact_defines) : 0;
    size_t len = sizeof(n) + modes + dlen;
    unsigned char *data = malloc(len);
    if (data == NULL) {
        return;
    }
    memcpy(data, &n, sizeof(n));
    if (n) {
        memcpy(data + sizeof(n), p->exact_modes, modes);
        memcpy(data + sizeof(n) + modes, p->exact_defines, dlen);
    }
    c->store(c->user, exact_key(key), EXACT_FORMAT, data, len);
    free(data);
}

static bool same_stages(const gl_preloaded *p, const fxgl_pass *fp) {
    return p->vertex_shader == fp->vertex_shader && p->pixel_shader == fp->pixel_shader &&
           p->compute_shader == fp->compute_shader && p->topology == (int)fp->topology &&
           p->vertex_count == (int)fp->vertex_count;
}

static GLuint from_binary(fxgl_runtime *rt, uint64_t key) {
    const fxgl_program_cache *c = rt->desc.program_cache;
    uint32_t format = 0;
    size_t len = 0;
    void *data = c->load(c->user, key, &format, &len);
    if (data == NULL || len == 0 || len > (size_t)INT32_MAX) {
        free(data);
        return 0;
    }
    // A format the driver does not list would raise GL_INVALID_ENUM, which the program
    // would then read as its own error (fxgl never calls glGetError): such a binary is
    // refused here. Bytes the driver does not accept only leave the link status false.
    bool known = false;
    for (int i = 0; i < rt->programs.binary_formats && !known; i++) {
        known = rt->binary_formats[i] == format;
    }
    GLuint prog = known ? GLC(rt, CreateProgram()) : 0;
    GLint ok = 0;
    if (prog) {
        GLC(rt, ProgramBinary(prog, format, data, (GLsizei)len));
        GLC(rt, GetProgramiv(prog, GL_LINK_STATUS, &ok));
    }
    free(data);
    if (!ok) {
        if (prog) {
            GLC(rt, DeleteProgram(prog));
        }
        rt->programs.binary_rejected++;
        gl_log(rt, FXGL_GL_LOG_DEBUG, "a cached program binary was refused by the driver: "
               "compiling it again");
        return 0;
    }
    return prog;
}

void gl_progcache_preload(fxgl_runtime *rt, gl_loaded_effect *e) {
    e->preloaded = NULL;
    e->preloaded_count = 0;
    if (!cache_on(rt)) {
        return;
    }
    const fxgl_effect *fx = e->fx;
    size_t passes = 0;
    for (size_t t = 0; t < fx->technique_count; t++) {
        passes += fx->techniques[t].pass_count;
    }
    e->preloaded = calloc(passes + 1, sizeof(*e->preloaded));
    if (e->preloaded == NULL) {
        return;
    }
    for (size_t t = 0; t < fx->technique_count; t++) {
        for (size_t k = 0; k < fx->techniques[t].pass_count; k++) {
            const fxgl_pass *fp = &fx->techniques[t].passes[k];
            bool seen = false;
            for (size_t i = 0; i < e->preloaded_count && !seen; i++) {
                seen = same_stages(&e->preloaded[i], fp);
            }
            if (seen || (fp->compute_shader >= 0 && !rt->has_compute)) {
                continue;
            }
            gl_preloaded *p = &e->preloaded[e->preloaded_count++];
            *p = (gl_preloaded){.vertex_shader = fp->vertex_shader,
                                .pixel_shader = fp->pixel_shader,
                                .compute_shader = fp->compute_shader,
                                .topology = (int)fp->topology,
                                .vertex_count = (int)fp->vertex_count,
                                .key = key_of(rt, fx, fp)};
            if (load_exact(rt, p->key, p)) {
                p->program = from_binary(rt, p->key);
            }
            p->loaded = p->program != 0;
        }
    }
}

bool gl_progcache_needs(const gl_loaded_effect *e, int shader) {
    if (e->preloaded == NULL) {
        return true;
    }
    const fxgl_effect *fx = e->fx;
    for (size_t t = 0; t < fx->technique_count; t++) {
        for (size_t k = 0; k < fx->techniques[t].pass_count; k++) {
            const fxgl_pass *fp = &fx->techniques[t].passes[k];
            if (fp->vertex_shader != shader && fp->pixel_shader != shader &&
                fp->compute_shader != shader) {
                continue;
            }
            bool have = false;
            for (size_t i = 0; i < e->preloaded_count && !have; i++) {
                have = same_stages(&e->preloaded[i], fp) && e->preloaded[i].program != 0;
            }
            if (!have) {
                return true;
            }
        }
    }
    return false;
}

static char *dup_bytes(const void *src, size_t n) {
    char *d = src ? malloc(n) : NULL;
    if (d) {
        memcpy(d, src, n);
    }
    return d;
}

bool gl_progcache_take(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_pass *fp, gl_pass *pass,
                       GLuint *program) {
    *program = 0;
    for (size_t i = 0; i < e->preloaded_count; i++) {
        gl_preloaded *p = &e->preloaded[i];
        if (!same_stages(p, fp) || !p->loaded) {
            continue;
        }
        // Every pass of these stages gets the analysis (the first one the program).
        if (p->exact_defines) {
            pass->exact_defines = dup_bytes(p->exact_defines, strlen(p->exact_defines) + 1);
            pass->exact_modes = (uint8_t *)dup_bytes(p->exact_modes, (size_t)p->exact_count * 4);
            if (!pass->exact_defines || !pass->exact_modes) {
                free(pass->exact_defines);
                free(pass->exact_modes);
                pass->exact_defines = NULL;
                pass->exact_modes = NULL;
                return false;
            }
            pass->exact_count = p->exact_count;
        }
        if (p->program) {
            *program = p->program;
            p->program = 0;
            rt->programs.binary_hits++;
        }
        return true;
    }
    return false;
}

void gl_progcache_hint(fxgl_runtime *rt, GLuint program) {
    if (rt->programs.binary_formats > 0 && rt->desc.program_cache != NULL) {
        GLC(rt, ProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE));
    }
}

static void store_binary(fxgl_runtime *rt, uint64_t key, GLuint program) {
    GLint len = 0;
    GLC(rt, GetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &len));
    void *data = len > 0 ? malloc((size_t)len) : NULL;
    if (data == NULL) {
        return;
    }
    GLenum format = 0;
    GLsizei got = 0;
    GLC(rt, GetProgramBinary(program, len, &got, &format, data));
    if (got > 0) {
        const fxgl_program_cache *c = rt->desc.program_cache;
        c->store(c->user, key, format, data, (size_t)got);
    }
    free(data);
}

void gl_progcache_store(fxgl_runtime *rt, gl_loaded_effect *e, const fxgl_pass *fp,
                        const gl_pass *p,
                        GLuint program) {
    if (!cache_on(rt)) {
        return;
    }
    rt->programs.binary_misses++;
    uint64_t key = key_of(rt, e->fx, fp);
    store_exact(rt, key, p); // first: a binary without its record is never used
    store_binary(rt, key, program);
}

void gl_progcache_release(fxgl_runtime *rt, gl_loaded_effect *e) {
    for (size_t i = 0; i < e->preloaded_count; i++) {
        if (e->preloaded[i].program) {
            GLC(rt, DeleteProgram(e->preloaded[i].program));
        }
        free(e->preloaded[i].exact_defines);
        free(e->preloaded[i].exact_modes);
    }
    free(e->preloaded);
    e->preloaded = NULL;
    e->preloaded_count = 0;
}

// --- the runtime's own programs (gl_compile_program: copies, inspection) ---

GLuint gl_progcache_load_sources(fxgl_runtime *rt, const char *const *sources,
                                 const GLenum *stages, int count, uint64_t *key) {
    *key = 0;
    if (!cache_on(rt)) {
        return 0;
    }
    uint64_t h = fnv(driver_key(rt), "own", 3);
    for (int i = 0; i < count; i++) {
        h = fnv(h, &stages[i], sizeof(stages[i]));
        h = fnv_str(h, sources[i]);
    }
    *key = h;
    GLuint prog = from_binary(rt, h);
    rt->programs.binary_hits += prog != 0;
    return prog;
}

void gl_progcache_store_sources(fxgl_runtime *rt, uint64_t key, GLuint program) {
    if (key == 0 || !cache_on(rt)) {
        return;
    }
    rt->programs.binary_misses++;
    store_binary(rt, key, program);
}
