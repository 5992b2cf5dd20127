/*
 * fxgl_ui.h - the editing overlay's drawing: a list of coloured rectangles
 * and text built on the CPU, drawn by the inspection layer after the effects
 * (src/gl/ui.c).
 *
 * The caller (src/interpose/overlay.c) builds the list once per frame while
 * the overlay is open: fxgl_ui_begin, rectangles and text in pixels from the
 * frame's top-left corner, fxgl_ui_end. fxgl_inspect_frame draws a list that
 * was ended since its last frame, inside its own state capture, after the
 * statistics overlay and the screenshot read (screenshots show the effects,
 * not the overlay, as the reference's do). A frame with no list ended costs
 * nothing: no GL call, no allocation.
 *
 * Text: a TrueType face baked into one R8 atlas with stb_truetype at the
 * first list (and again when the wanted pixel size changes); where the font
 * file is missing or unreadable, fxgl's own 5x7 face scaled by whole pixels
 * takes its place - never a failure.
 */
#ifndef FXGL_UI_H
#define FXGL_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_gl.h"

typedef struct fxgl_ui fxgl_ui;

// The layer's list, made at the first call (CPU memory only; its GL objects at its first
// draw). NULL when out of memory. Owned by the layer: freed with it.
fxgl_ui *fxgl_inspect_ui(fxgl_inspect *in);

// A TrueType (or OpenType with TrueType outlines) file to read at the next bake; NULL or ""
// or a file that cannot be read: the built-in face.
void fxgl_ui_set_font(fxgl_ui *ui, const char *path);
// Starts a list for a frame of width x height; px is the text's line height in pixels
// (rebaked when it changes by a pixel or more).
void fxgl_ui_begin(fxgl_ui *ui, int width, int height, float px);
// rgba: 0xRRGGBBAA, straight alpha.
void fxgl_ui_rect(fxgl_ui *ui, float x, float y, float w, float h, uint32_t rgba);
// Draws s (ASCII; other bytes show as '?') with its top at y; returns the pen's x after it.
float fxgl_ui_text(fxgl_ui *ui, float x, float y, const char *s, uint32_t rgba);
float fxgl_ui_text_width(const fxgl_ui *ui, const char *s);
// Glyphs that would end right of x are left out until the next begin (x <= 0: no limit).
void fxgl_ui_clip_right(fxgl_ui *ui, float x);
float fxgl_ui_line_height(const fxgl_ui *ui);
// Quads that did not fit the list this frame (it holds FXGL_UI_QUADS).
size_t fxgl_ui_dropped(const fxgl_ui *ui);
void fxgl_ui_end(fxgl_ui *ui);
// Which face the last bake used: true TrueType, false the built-in one.
bool fxgl_ui_truetype(const fxgl_ui *ui);
// GL calls the last draw issued, the list's and the capture's apart (bench/overlay_cost.sh).
typedef struct fxgl_ui_stats {
    uint64_t draws;              // lists drawn
    uint64_t frames_closed;      // layer frames without a list
    uint32_t quads;              // of the last list
    double cpu_ms;               // last draw's CPU time (upload and draw calls)
    double gpu_ms;               // GPU time of the list (timer queries, 0 without)
} fxgl_ui_stats;
void fxgl_ui_stats_get(const fxgl_ui *ui, fxgl_ui_stats *stats);

// What the inspection layer knows that the overlay shows: an effect that failed to compile
// and never reached the runtime (i-th; false past the last), and why the technique at
// order position i did not run in the last frame (NULL: it ran).
bool fxgl_ui_failed(const fxgl_ui *ui, size_t i, const char **file, const char **diagnostic);
const char *fxgl_ui_skip_reason(fxgl_ui *ui, size_t i, char *buf, size_t size);

#define FXGL_UI_QUADS 12288      // rectangles and glyphs a frame's list holds

#endif // FXGL_UI_H
