// fxgl_FilmGrain.fx - animated monochrome film grain with a triangular distribution, strongest in the midtones.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"
#include "fxgl_Noise.fxh"

uniform float Intensity < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 0.5;
	ui_label = "Intensity";
	ui_tooltip = "Largest grain amplitude (the grain spans plus and minus this much).";
> = 0.05;

uniform float Midtones < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Midtone bias";
	ui_tooltip = "0: equal grain everywhere; 1: grain only in the midtones, none in black and white.";
> = 0.6;

uniform uint FrameCount < source = "framecount"; >;

namespace fxgl_grain
{
	float4 PS_Grain(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = source.rgb;
		uint2 p = uint2(pos.xy);
		uint h = fxgl_noise::Hash3(p.x, p.y, FrameCount);
		// Sum of two uniforms minus one: triangular in (-1, 1), mean 0.
		float n = fxgl_noise::ToUnit(h) + fxgl_noise::ToUnit(fxgl_noise::Hash(h)) - 1.0;
		float luma = dot(color, float3(0.2126, 0.7152, 0.0722));
		float weight = lerp(1.0, 4.0 * luma * (1.0 - luma), Midtones);
		return float4(saturate(color + n * Intensity * weight), source.a);
	}
}

technique fxgl_FilmGrain < ui_label = "Film grain (fxgl)"; ui_tooltip = "Animated film grain."; >
{
	pass Grain
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_grain::PS_Grain;
	}
}
