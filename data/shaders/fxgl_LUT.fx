// fxgl_LUT.fx - colour grading through a 3D look-up table stored as a horizontal strip of slices (fxgl_lut.png, 32 slices of 32x32, neutral as shipped).
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

// The strip is FXGL_LUT_SIZE * FXGL_LUT_SIZE wide and FXGL_LUT_SIZE high:
// slice b (blue) starts at x = b * SIZE, red runs along x inside a slice and
// green down y. Replace the image, or point these at another strip.
#ifndef FXGL_LUT_TEXTURE
	#define FXGL_LUT_TEXTURE "fxgl_lut.png"
#endif
#ifndef FXGL_LUT_SIZE
	#define FXGL_LUT_SIZE 32
#endif

uniform float Amount < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Amount";
	ui_tooltip = "Mix between the original (0) and the graded colours (1).";
> = 1.0;

namespace fxgl_lut
{
	texture LutTex < source = FXGL_LUT_TEXTURE; > { Width = FXGL_LUT_SIZE * FXGL_LUT_SIZE; Height = FXGL_LUT_SIZE; Format = RGBA8; };
	sampler Lut { Texture = LutTex; };

	float4 PS_LUT(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = saturate(source.rgb);
		const float n = FXGL_LUT_SIZE;
		float3 cell = color * (n - 1.0);
		// Red and green interpolate in the sampler (texel centres at +0.5);
		// blue between two neighbouring slices by hand.
		float slice = floor(cell.b);
		float f = cell.b - slice;
		float2 lutUV = float2((slice * n + cell.r + 0.5) / (n * n), (cell.g + 0.5) / n);
		float3 lo = tex2D(Lut, lutUV).rgb;
		float3 hi = tex2D(Lut, lutUV + float2(1.0 / n, 0.0)).rgb;
		return float4(lerp(color, lerp(lo, hi, f), Amount), source.a);
	}
}

technique fxgl_LUT < ui_label = "3D LUT (fxgl)"; ui_tooltip = "Colour grading through a look-up table."; >
{
	pass LUT
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_lut::PS_LUT;
	}
}
