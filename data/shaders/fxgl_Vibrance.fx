// fxgl_Vibrance.fx - saturation plus vibrance, which boosts dull colours more than already saturated ones (luma preserved).
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float Saturation < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 2.0;
	ui_label = "Saturation";
	ui_tooltip = "Scales every colour's distance from grey: 0 is greyscale, 1 unchanged.";
> = 1.0;

uniform float Vibrance < __UNIFORM_SLIDER_FLOAT1
	ui_min = -1.0; ui_max = 1.0;
	ui_label = "Vibrance";
	ui_tooltip = "Saturates weak colours more than strong ones; negative values mute weak colours.";
> = 0.15;

namespace fxgl_vibrance
{
	// Rec. 709 luma weights.
	static const float3 LumaWeights = float3(0.2126, 0.7152, 0.0722);

	float4 PS_Vibrance(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = source.rgb;
		float luma = dot(color, LumaWeights);
		// Mixing towards or away from luma keeps luma constant.
		color = lerp(luma.xxx, color, Saturation);
		float chroma = max(max(color.r, color.g), color.b) - min(min(color.r, color.g), color.b);
		color = lerp(luma.xxx, color, 1.0 + Vibrance * (1.0 - chroma));
		return float4(saturate(color), source.a);
	}
}

technique fxgl_Vibrance < ui_label = "Vibrance (fxgl)"; ui_tooltip = "Saturation and vibrance."; >
{
	pass Vibrance
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_vibrance::PS_Vibrance;
	}
}
