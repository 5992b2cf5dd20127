/*
 * gl_exact.h - exact fullscreen varyings (exact.c).
 *
 * A pass drawn with ReShade.fxh's PostProcessVS (or any vertex shader that
 * maps the viewport onto texcoords 0..1) gets its texcoord interpolated by
 * the rasteriser. Vulkan on lavapipe (the reference) gives the fp32 plane
 * equation's value, pixel centre * gradient (gl_exact_gradient); GL on
 * llvmpipe with the last vertex provoking and GPUs miss it by an ulp or more
 * on many pixels, and `frac(texcoord * lines)` then flips where it lands on
 * an integer. Where the vertex shader is proved to give a
 * varying component that is exactly (pixel position) / (viewport size) over
 * primitives that cover the viewport, the pixel shader computes that value
 * from gl_FragCoord instead (fxgl_shader.exact_varyings).
 *
 * The proof runs once per pass at load time: the vertex shader is run for
 * the pass's vertices with transform feedback (gl_Position and every
 * varying the pixel shader reads), and gl_exact_analyse decides from those
 * values alone. Vertex shaders that read uniforms or textures are not
 * evaluated: their output may change after loading.
 */
#ifndef GL_EXACT_H
#define GL_EXACT_H

#include <stdbool.h>
#include <stdint.h>

#include "gl_runtime.h"

// What a varying component of a fullscreen pass is.
enum {
    GL_EXACT_INTERPOLATED = 0,   // left to the rasteriser
    GL_EXACT_X = 1,              // (pixel centre x) / viewport width
    GL_EXACT_Y = 2,              // (pixel centre y, rows from the top) / viewport height
    // Zero at every vertex, so zero wherever drawn. Kept in gl_pass.exact_modes
    // for the compute form (which has no interpolation to give it); the
    // fragment variant's defines say INTERPOLATED for it, which is zero too.
    GL_EXACT_ZERO = 3,
};

// The version of the rules below, part of the program cache's key: a binary
// linked under other rules may hold another variant (2: the rasteriser's
// values taken where gl_exact_standard and the probe allow).
#define GL_EXACT_RULES 2

// The most varyings a pass's analysis captures (transform feedback
// guarantees 64 interleaved components: gl_Position and 15 vec4s).
#define GL_EXACT_MAX_VARYINGS 15
// The most vertices a fullscreen draw is evaluated for.
#define GL_EXACT_MAX_VERTICES 64

// Decides from captured vertex values. mode: GL_TRIANGLES or
// GL_TRIANGLE_STRIP (anything else: false); count vertices; data holds per
// vertex the clip position (x, y, z, w, after the generated code's Y flip)
// then nvary vec4 varyings. Returns true when the primitives cover the
// whole viewport; modes (4 per varying) is then filled with GL_EXACT_* per
// component: X or Y where the component equals that function at every
// vertex of every non-degenerate triangle (so everywhere it is drawn).
// Returns false, modes all INTERPOLATED, otherwise.
bool gl_exact_analyse(unsigned mode, int count, const float *data, int nvary, uint8_t *modes);

// Marks with GL_EXACT_ZERO the INTERPOLATED components of modes (as
// gl_exact_analyse filled them) that are 0 at each of the count vertices
// of data (same layout). True when every vertex's clip position is
// (x, y, 0, 1): then SV_Position.zw is (0.5, 1) at every pixel (depth range
// 0..1), which the compute form needs (_gexact_pos).
bool gl_exact_zeros(int count, const float *data, int nvary, uint8_t *modes);

// The gradients of the exact fullscreen varyings for a w x h viewport, as
// the reference's rasteriser computes them (lavapipe, Mesa's llvmpipe setup;
// measured bit for bit, docs/runtime.md): the plane equation of the 2w x 2h
// triangle, 4h * (1 / 4wh) for x and 4w * (1 / 4wh) for y, each step rounded
// to float. The exact value of pixel k is then (k + 0.5) * gradient, one
// rounding. Equal to the correctly rounded 1 / w at many sizes (320x180,
// 1280x720, 1920x1080), an ulp off at others (1280x800, 854x480, 23x19).
void gl_exact_gradient(int w, int h, float *gx, float *gy);

// True when the captured vertices (layout as above) are the standard
// fullscreen triangle, PostProcessVS's after the generated code's Y flip:
// clip (-1, -1), (-1, 3), (3, -1) in that order, w = 1. Where the runtime's
// probe found the rasteriser's values for it exact (llvmpipe with the first
// vertex provoking: the reference's own arithmetic, lavapipe being llvmpipe),
// the exact components are left to it and the variant computes none.
bool gl_exact_standard(unsigned mode, int count, const float *data, int nvary);

// True when pass p has exact components and leaves them all to the
// rasteriser (gl_exact_standard and the probe): its fragment program is the
// plain one, and its values are exact only where the image's top row is the
// first in memory (not a pass drawn upside down into a bottom-up FBO).
bool gl_exact_rasterised(const gl_pass *p);

// Loads pass p's exact varyings: runs the analysis for the vertex and
// pixel shader objects of fp and, where some component is exact, sets
// p->exact_modes/p->exact_count (owned) and the preamble of defines
// (p->exact_defines, owned) that the pixel shader's variant is compiled
// with. False when nothing is exact (or the analysis cannot run); the pass
// then keeps the plain pixel shader. Only at load time: it draws (with the
// rasteriser off) and reads a buffer back.
bool gl_exact_load(fxgl_runtime *rt, const fxgl_effect *fx, const fxgl_pass *fp, GLuint vs,
                   GLuint ps, gl_pass *p);

#endif // GL_EXACT_H
