// fxgl_Tonemap.fx - exposure and tonemapping (Reinhard or ACES fit), then levels (black/white point, gamma) and an S-curve.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float Exposure < __UNIFORM_SLIDER_FLOAT1
	ui_min = -3.0; ui_max = 3.0; ui_step = 0.05;
	ui_category = "Tonemap";
	ui_label = "Exposure";
	ui_tooltip = "Exposure change in stops, applied in linear light before the tone curve.";
> = 0.0;

uniform int Operator < __UNIFORM_COMBO_INT1
	ui_items = "None (clip)\0Reinhard\0ACES (fitted)\0";
	ui_category = "Tonemap";
	ui_label = "Tone curve";
	ui_tooltip = "How linear light above 1 is brought back into range.";
> = 0;

uniform float WhitePoint < __UNIFORM_SLIDER_FLOAT1
	ui_min = 1.0; ui_max = 16.0;
	ui_category = "Tonemap";
	ui_label = "Reinhard white";
	ui_tooltip = "Linear value that the Reinhard curve maps to white.";
> = 4.0;

uniform float BlackLevel < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 128.0; ui_step = 1.0;
	ui_category = "Levels";
	ui_label = "Input black";
	ui_tooltip = "Input value (0-255) that becomes black.";
> = 0.0;

uniform float WhiteLevel < __UNIFORM_SLIDER_FLOAT1
	ui_min = 128.0; ui_max = 255.0; ui_step = 1.0;
	ui_category = "Levels";
	ui_label = "Input white";
	ui_tooltip = "Input value (0-255) that becomes white.";
> = 255.0;

uniform float Gamma < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.25; ui_max = 4.0;
	ui_category = "Levels";
	ui_label = "Gamma";
	ui_tooltip = "Midtone gamma: above 1 brightens midtones, below 1 darkens them.";
> = 1.0;

uniform float Contrast < __UNIFORM_SLIDER_FLOAT1
	ui_min = -1.0; ui_max = 1.0;
	ui_category = "Curves";
	ui_label = "Contrast curve";
	ui_tooltip = "Blend towards a smooth S-curve (positive) or away from it (negative).";
> = 0.0;

namespace fxgl_tonemap
{
	float3 Reinhard(float3 x)
	{
		// Extended Reinhard: maps WhitePoint to exactly 1.
		return x * (1.0 + x / (WhitePoint * WhitePoint)) / (1.0 + x);
	}

	float3 AcesFit(float3 x)
	{
		// Rational fit of the ACES reference rendering transform.
		return saturate((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
	}

	float4 PS_Tonemap(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = source.rgb;

		// Skipped at the neutral settings so that they leave the frame exact.
		if (Exposure != 0.0 || Operator != 0)
		{
			float3 lin = pow(max(color, 0.0), 2.2) * exp2(Exposure);
			if (Operator == 1)
				lin = Reinhard(lin);
			else if (Operator == 2)
				lin = AcesFit(lin);
			color = pow(saturate(lin), 1.0 / 2.2);
		}

		color = saturate((color - BlackLevel / 255.0) / max((WhiteLevel - BlackLevel) / 255.0, 1.0 / 255.0));
		color = pow(color, 1.0 / Gamma);

		float3 s = color * color * (3.0 - 2.0 * color);
		return float4(saturate(lerp(color, s, Contrast)), source.a);
	}
}

technique fxgl_Tonemap < ui_label = "Tonemap, levels and curves (fxgl)"; ui_tooltip = "Exposure, tone curve, levels and contrast."; >
{
	pass Tonemap
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_tonemap::PS_Tonemap;
	}
}
