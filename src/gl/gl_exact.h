/*
 * gl_exact.h - exact fullscreen varyings (exact.c).
 *
 * A pass drawn with ReShade.fxh's PostProcessVS (or any vertex shader that
 * maps the viewport onto texcoords 0..1) gets its texcoord interpolated by
 * the rasteriser. Vulkan on lavapipe (the reference) gives the fp32 plane
 * equation's value, pixel centre * (1 / size); GL on llvmpipe misses it by
 * an ulp or more on many pixels, and `frac(texcoord * lines)` then flips
 * where it lands on an integer. Where the vertex shader is proved to give a
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
};

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
