// ReShade.fxh - fxgl's own implementation of the standard ReShade header.
//
// Written for fxgl from the documented interface (the names effects use:
// ReShade::BackBuffer, ReShade::DepthBuffer, ReShade::GetLinearizedDepth,
// PostProcessVS, BUFFER_PIXEL_SIZE ...); it is not a copy of ReShade's file.
// A user's own ReShade.fxh earlier in the effect search path takes precedence.
//
// Depth input is configured with preprocessor definitions that presets set
// (PreprocessorDefinitions=RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN=1,...); every
// one has an #ifndef default below so that a preset value wins.

#pragma once

#ifndef __RESHADE__
	#error "ReShade.fxh needs a ReShade FX compiler (__RESHADE__ is not defined)"
#endif

// --- depth input ------------------------------------------------------------

// 1: the depth image is stored bottom row first (depth taken from an
// application framebuffer object in GL is), so flip v before sampling.
#ifndef RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN
	#define RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN 0
#endif
// 1: near is 1 and far is 0 (reversed Z). GL programs clear depth to 1 and
// keep the conventional range unless they use glClipControl, so fxgl's
// default is 0 (ReShade's own header defaults to 1 for D3D titles).
#ifndef RESHADE_DEPTH_INPUT_IS_REVERSED
	#define RESHADE_DEPTH_INPUT_IS_REVERSED 0
#endif
// 1: the application writes logarithmic depth.
#ifndef RESHADE_DEPTH_INPUT_IS_LOGARITHMIC
	#define RESHADE_DEPTH_INPUT_IS_LOGARITHMIC 0
#endif
// Raw depth is multiplied by this before any other step.
#ifndef RESHADE_DEPTH_MULTIPLIER
	#define RESHADE_DEPTH_MULTIPLIER 1
#endif
// Far plane assumed by the linearisation (near is 1).
#ifndef RESHADE_DEPTH_LINEARIZATION_FAR_PLANE
	#define RESHADE_DEPTH_LINEARIZATION_FAR_PLANE 1000.0
#endif
// Scale of the depth image relative to the screen per axis: above 1 the
// depth image is stretched, below 1 it is shrunk, 1 leaves it as is.
#ifndef RESHADE_DEPTH_INPUT_X_SCALE
	#define RESHADE_DEPTH_INPUT_X_SCALE 1
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_SCALE
	#define RESHADE_DEPTH_INPUT_Y_SCALE 1
#endif
// Shift of the depth image in half-screens: +X moves it right, +Y moves it up.
#ifndef RESHADE_DEPTH_INPUT_X_OFFSET
	#define RESHADE_DEPTH_INPUT_X_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_OFFSET
	#define RESHADE_DEPTH_INPUT_Y_OFFSET 0
#endif
// Shift in whole pixels; integers only, as they are tested with #if. When
// non-zero they replace the half-screen offset of the same axis.
#ifndef RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET
	#define RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET 0
#endif
#ifndef RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET
	#define RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET 0
#endif

// --- buffer helpers ---------------------------------------------------------
//
// BUFFER_WIDTH, BUFFER_HEIGHT, BUFFER_RCP_WIDTH and BUFFER_RCP_HEIGHT are
// predefined by the compiler; these combine them.

#ifndef BUFFER_PIXEL_SIZE
	#define BUFFER_PIXEL_SIZE float2(BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT)
#endif
#ifndef BUFFER_SCREEN_SIZE
	#define BUFFER_SCREEN_SIZE float2(BUFFER_WIDTH, BUFFER_HEIGHT)
#endif
#ifndef BUFFER_ASPECT_RATIO
	#define BUFFER_ASPECT_RATIO (BUFFER_WIDTH * BUFFER_RCP_HEIGHT)
#endif

namespace ReShade
{
	// Named constants rather than uniforms: they fold into the shaders.
	static const float AspectRatio = BUFFER_WIDTH * BUFFER_RCP_HEIGHT;
	static const float2 PixelSize = float2(BUFFER_RCP_WIDTH, BUFFER_RCP_HEIGHT);
	static const float2 ScreenSize = float2(BUFFER_WIDTH, BUFFER_HEIGHT);

	// The runtime's copy of the frame and the depth image the depth provider
	// binds. Every effect that includes this header declares the same
	// namespaced textures, so all of them share one resource each.
	texture BackBufferTex : COLOR;
	texture DepthBufferTex : DEPTH;

	sampler BackBuffer { Texture = BackBufferTex; };
	sampler DepthBuffer { Texture = DepthBufferTex; };

	// Depth at texcoord mapped to [0, 1], 0 at the eye and 1 at the far
	// plane, after the RESHADE_DEPTH_* corrections above.
	float GetLinearizedDepth(float2 texcoord)
	{
		float2 uv = texcoord;
#if RESHADE_DEPTH_INPUT_IS_UPSIDE_DOWN
		uv.y = 1.0 - uv.y;
#endif
		uv /= float2(RESHADE_DEPTH_INPUT_X_SCALE, RESHADE_DEPTH_INPUT_Y_SCALE);
		// The half-screen offsets may be fractional, which #if cannot test,
		// so only the pixel offsets pick the branch.
#if RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET
		uv.x -= float(RESHADE_DEPTH_INPUT_X_PIXEL_OFFSET) * BUFFER_RCP_WIDTH;
#else
		uv.x -= float(RESHADE_DEPTH_INPUT_X_OFFSET) * 0.5;
#endif
#if RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET
		uv.y += float(RESHADE_DEPTH_INPUT_Y_PIXEL_OFFSET) * BUFFER_RCP_HEIGHT;
#else
		uv.y += float(RESHADE_DEPTH_INPUT_Y_OFFSET) * 0.5;
#endif
		float z = tex2Dlod(DepthBuffer, float4(uv, 0.0, 0.0)).x * float(RESHADE_DEPTH_MULTIPLIER);
#if RESHADE_DEPTH_INPUT_IS_LOGARITHMIC
		// Inverse of a logarithmic depth encoding with constant 0.01.
		z = (exp(z * log(1.01)) - 1.0) / 0.01;
#endif
#if RESHADE_DEPTH_INPUT_IS_REVERSED
		z = 1.0 - z;
#endif
		// Perspective depth to linear with near = 1 and far = FAR_PLANE.
		const float far_plane = RESHADE_DEPTH_LINEARIZATION_FAR_PLANE;
		return z / (far_plane - z * (far_plane - 1.0));
	}
}

// Full-screen triangle from three vertices and no vertex input: vertex 0 at
// the top left, 1 two screens below, 2 two screens to the right, so the
// visible quad gets texcoord 0..1 with v = 0 at the top.
void PostProcessVS(in uint id : SV_VertexID, out float4 position : SV_Position, out float2 texcoord : TEXCOORD)
{
	texcoord = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
	position = float4(texcoord.x * 2.0 - 1.0, 1.0 - texcoord.y * 2.0, 0.0, 1.0);
}
