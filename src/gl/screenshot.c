/*
 * screenshot.c - PNG screenshots of the presented frame, optionally also
 * of the frame before the effects ran.
 *
 * The render thread never waits: the frame is read into a pixel buffer
 * object and a fence follows it; later frames poll the fence with a zero
 * timeout, and once it has signalled the buffer is mapped, copied out and
 * handed to a worker thread that flips the rows, encodes the PNG (stb) and
 * writes it to a temporary name renamed into place. Alpha is written as
 * opaque: a screenshot shows what the screen showed, whatever the
 * framebuffer's alpha channel held. A multisampled framebuffer is resolved
 * into a buffer of the layer's own first (glReadPixels refuses it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include "gl_inspect.h"

// Characters that are safe in a file name; others become '-' ('_' too: it
// separates the fields of the name).
static void clean_name(char *out, size_t size, const char *in) {
    const char *base = strrchr(in, '/');
    base = base ? base + 1 : in;
    size_t n = 0;
    for (const char *c = base; *c && n + 1 < size; c++) {
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= '0' && *c <= '9') || *c == '.' || *c == '-' || *c == '+';
        out[n++] = ok ? *c : '-';
    }
    out[n] = 0;
    // A preset's ".ini" says nothing in a picture's name.
    if (n > 4 && strcmp(out + n - 4, ".ini") == 0) {
        out[n - 4] = 0;
    }
}

bool fxgl_inspect_screenshot(fxgl_inspect *in, bool without_effects) {
    if (!in || in->want_shot || in->shot_with.busy || in->shot_without.busy) {
        return false;
    }
    in->want_shot = true;
    in->want_without = without_effects;
    return true;
}

void gl_shot_read(fxgl_inspect *in, gl_shot *s, const fxgl_frame_desc *f, const char *suffix) {
    struct GladGLContext *gl = in->gl;
    GLint samples = 0;
    gl->GetIntegerv(GL_SAMPLE_BUFFERS, &samples);
    if (samples > 0) {
        // glReadPixels refuses multisampled framebuffers (GLES, and FBOs on
        // desktop GL): resolve into a single-sampled RGBA8 buffer of our own.
        if (!in->resolve_fbo || in->resolve_w != f->width || in->resolve_h != f->height) {
            if (!in->resolve_fbo) {
                gl->GenFramebuffers(1, &in->resolve_fbo);
                gl->GenRenderbuffers(1, &in->resolve_rb);
            }
            gl->BindRenderbuffer(GL_RENDERBUFFER, in->resolve_rb);
            gl->RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, f->width, f->height);
            gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, in->resolve_fbo);
            gl->FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                        in->resolve_rb);
            in->resolve_w = f->width;
            in->resolve_h = f->height;
        }
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, in->resolve_fbo);
        gl->BlitFramebuffer(0, 0, f->width, f->height, 0, 0, f->width, f->height,
                            GL_COLOR_BUFFER_BIT, GL_NEAREST);
        gl->BindFramebuffer(GL_FRAMEBUFFER, in->resolve_fbo);
    }
    size_t size = (size_t)f->width * (size_t)f->height * 4;
    if (!s->pbo) {
        gl->GenBuffers(1, &s->pbo);
    }
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    if (s->pbo_size != size) {
        gl->BufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)size, NULL, GL_STREAM_READ);
        s->pbo_size = size;
    }
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4); // restored with the capture
    gl->ReadPixels(0, 0, f->width, f->height, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    s->fence = gl->FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    s->width = f->width;
    s->height = f->height;
    s->busy = s->fence != NULL;
    if (samples > 0) {
        gl->BindFramebuffer(GL_FRAMEBUFFER, f->framebuffer); // back to the frame's
    }
    // <program>_<preset>_<date>-<time>-<ms>[suffix].png
    char prog[64], preset[96], stamp[40];
    clean_name(prog, sizeof(prog), in->program);
    clean_name(preset, sizeof(preset), in->preset[0] ? in->preset : "nopreset");
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    localtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
    snprintf(stamp + n, sizeof(stamp) - n, "-%03ld", ts.tv_nsec / 1000000);
    snprintf(s->path, sizeof(s->path), "%s/%s_%s_%s%s.png", in->shot_dir, prog, preset, stamp,
             suffix);
}

static void *worker(void *arg) {
    fxgl_inspect *in = arg;
    pthread_mutex_lock(&in->lock);
    for (;;) {
        while (!in->jobs && !in->quit) {
            pthread_cond_wait(&in->cond, &in->lock);
        }
        gl_shot_job *j = in->jobs;
        if (!j) {
            break; // quit with nothing left
        }
        in->jobs = j->next;
        pthread_mutex_unlock(&in->lock);

        // GL rows come bottom first.
        stbi_flip_vertically_on_write(1);
        char tmp[1100];
        snprintf(tmp, sizeof(tmp), "%s.tmp", j->path);
        bool ok = stbi_write_png(tmp, j->width, j->height, 4, j->pixels, j->width * 4) != 0;
        if (!ok || rename(tmp, j->path) != 0) {
            // The log sink is the host's; it must take messages from any thread.
            gl_in_log(in, FXGL_GL_LOG_ERROR, "screenshot %s: %s", j->path,
                      ok ? strerror(errno) : "cannot write the PNG");
            unlink(tmp);
            ok = false;
        } else {
            gl_in_log(in, FXGL_GL_LOG_INFO, "screenshot %s", j->path);
        }

        pthread_mutex_lock(&in->lock);
        if (ok && j->last) {
            snprintf(in->last_shot, sizeof(in->last_shot), "%s", j->path);
        }
        in->jobs_busy--;
        pthread_cond_broadcast(&in->cond);
        free(j->pixels);
        free(j);
    }
    pthread_mutex_unlock(&in->lock);
    return NULL;
}

static void hand_over(fxgl_inspect *in, gl_shot *s, const uint8_t *pixels) {
    gl_shot_job *j = calloc(1, sizeof(*j));
    size_t size = (size_t)s->width * (size_t)s->height * 4;
    if (j) {
        j->pixels = malloc(size);
    }
    if (!j || !j->pixels) {
        gl_in_log(in, FXGL_GL_LOG_ERROR, "screenshot: out of memory");
        free(j);
        return;
    }
    memcpy(j->pixels, pixels, size);
    for (size_t i = 3; i < size; i += 4) {
        j->pixels[i] = 255;
    }
    j->width = s->width;
    j->height = s->height;
    j->last = s == &in->shot_with;
    snprintf(j->path, sizeof(j->path), "%s", s->path);
    pthread_mutex_lock(&in->lock);
    if (!in->worker_started) {
        in->worker_started = pthread_create(&in->worker, NULL, worker, in) == 0;
    }
    if (!in->worker_started) {
        pthread_mutex_unlock(&in->lock);
        gl_in_log(in, FXGL_GL_LOG_ERROR, "screenshot: cannot start the encoder thread");
        free(j->pixels);
        free(j);
        return;
    }
    gl_shot_job **tail = &in->jobs;
    while (*tail) {
        tail = &(*tail)->next;
    }
    *tail = j;
    in->jobs_busy++;
    pthread_cond_broadcast(&in->cond);
    pthread_mutex_unlock(&in->lock);
}

static void collect_one(fxgl_inspect *in, gl_shot *s, bool wait) {
    struct GladGLContext *gl = in->gl;
    if (!s->busy) {
        return;
    }
    GLenum r = gl->ClientWaitSync(s->fence, wait ? GL_SYNC_FLUSH_COMMANDS_BIT : 0,
                                  wait ? 5000000000ull : 0);
    if (r == GL_TIMEOUT_EXPIRED) {
        return; // next frame
    }
    gl->DeleteSync(s->fence);
    s->fence = NULL;
    s->busy = false;
    if (r == GL_WAIT_FAILED) {
        gl_in_log(in, FXGL_GL_LOG_ERROR, "screenshot %s: fence wait failed", s->path);
        return;
    }
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, s->pbo);
    const uint8_t *p = gl->MapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)s->pbo_size,
                                          GL_MAP_READ_BIT);
    if (p) {
        hand_over(in, s, p);
        gl->UnmapBuffer(GL_PIXEL_PACK_BUFFER);
    } else {
        gl_in_log(in, FXGL_GL_LOG_ERROR, "screenshot %s: cannot map the pixel buffer", s->path);
    }
    gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

void gl_shot_collect(fxgl_inspect *in, bool wait) {
    collect_one(in, &in->shot_without, wait);
    collect_one(in, &in->shot_with, wait);
}

void fxgl_inspect_screenshot_wait(fxgl_inspect *in) {
    if (!in) {
        return;
    }
    if (in->shot_with.busy || in->shot_without.busy) {
        gl_state_capture(&in->st);
        gl_state_set_runtime_defaults(&in->st);
        gl_shot_collect(in, true);
        gl_state_restore(&in->st);
    }
    pthread_mutex_lock(&in->lock);
    while (in->jobs_busy > 0) {
        pthread_cond_wait(&in->cond, &in->lock);
    }
    pthread_mutex_unlock(&in->lock);
}

const char *fxgl_inspect_last_screenshot(fxgl_inspect *in) {
    // The worker writes it under the lock; the caller reads after a wait.
    static const char empty[] = "";
    return in ? in->last_shot : empty;
}

void gl_shot_stop(fxgl_inspect *in) {
    pthread_mutex_lock(&in->lock);
    in->quit = true;
    pthread_cond_broadcast(&in->cond);
    bool started = in->worker_started;
    in->worker_started = false;
    pthread_mutex_unlock(&in->lock);
    if (started) {
        pthread_join(in->worker, NULL);
    }
}

void gl_shot_release(fxgl_inspect *in) {
    struct GladGLContext *gl = in->gl;
    gl_shot_stop(in);
    if (in->resolve_fbo) {
        gl->DeleteFramebuffers(1, &in->resolve_fbo);
        gl->DeleteRenderbuffers(1, &in->resolve_rb);
    }
    gl_shot *shots[2] = {&in->shot_with, &in->shot_without};
    for (int i = 0; i < 2; i++) {
        if (shots[i]->fence) {
            gl->DeleteSync(shots[i]->fence);
        }
        if (shots[i]->pbo) {
            gl->DeleteBuffers(1, &shots[i]->pbo);
        }
    }
}
