// fxgl_Vignette.fx - darkens the frame towards its corners with a smooth, optionally round (aspect-corrected) falloff.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float Amount < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Amount";
	ui_tooltip = "How dark the corners get: 0 leaves the frame as is, 1 is black.";
> = 0.35;

uniform float Radius < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.5;
	ui_label = "Radius";
	ui_tooltip = "Where darkening starts, as a fraction of the centre-to-corner distance.";
> = 0.55;

uniform float Softness < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.01; ui_max = 1.5;
	ui_label = "Softness";
	ui_tooltip = "Width of the transition from no darkening to full darkening.";
> = 0.6;

uniform bool Round <
	ui_label = "Round";
	ui_tooltip = "Correct for the aspect ratio so that the vignette is a circle, not an ellipse.";
> = true;

namespace fxgl_vignette
{
	float4 PS_Vignette(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = source.rgb;
		float2 p = uv * 2.0 - 1.0;
		float2 extent = float2(Round ? ReShade::AspectRatio : 1.0, 1.0);
		// Normalised so that the corner is at distance 1 whatever the shape.
		float r = length(p * extent) / length(extent);
		float falloff = smoothstep(Radius, Radius + Softness, r);
		return float4(color * (1.0 - Amount * falloff), source.a);
	}
}

technique fxgl_Vignette < ui_label = "Vignette (fxgl)"; ui_tooltip = "Darkens the frame towards its corners."; >
{
	pass Vignette
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_vignette::PS_Vignette;
	}
}
