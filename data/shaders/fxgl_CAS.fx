// fxgl_CAS.fx - contrast-adaptive sharpening: sharpens detail strongly where local contrast is low and backs off near strong edges, so it neither rings nor clips.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float Sharpness < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Sharpness";
	ui_tooltip = "Strength of the sharpening kernel (0 = gentle, 1 = strong).";
> = 0.4;

uniform float Blend < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Blend";
	ui_tooltip = "Mix between the original (0) and the sharpened image (1).";
> = 1.0;

namespace fxgl_cas
{
	// Point sampling at texel centres: the kernel reads exact texels, and
	// CLAMP repeats the border texel outside the frame.
	sampler Color { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

	float4 PS_Sharpen(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float2 px = BUFFER_PIXEL_SIZE;
		float4 source = tex2D(Color, uv);
		float3 c = source.rgb;
		float3 n = tex2D(Color, uv + float2(0.0, -px.y)).rgb;
		float3 w = tex2D(Color, uv + float2(-px.x, 0.0)).rgb;
		float3 e = tex2D(Color, uv + float2(px.x, 0.0)).rgb;
		float3 s = tex2D(Color, uv + float2(0.0, px.y)).rgb;

		float3 lo = min(c, min(min(n, s), min(w, e)));
		float3 hi = max(c, max(max(n, s), max(w, e)));
		// Headroom to the nearer of 0 and 1 relative to the local maximum:
		// little headroom (an edge, a highlight) means little sharpening.
		float3 amp = sqrt(saturate(min(lo, 1.0 - hi) / max(hi, 1.0 / 1024.0)));
		// Negative lobe weight per channel: -1/8 at Sharpness 0, -1/5 at 1.
		float3 weight = -amp / lerp(8.0, 5.0, Sharpness);
		float3 sharp = (c + (n + w + e + s) * weight) / (1.0 + 4.0 * weight);
		return float4(lerp(c, saturate(sharp), Blend), source.a);
	}
}

technique fxgl_CAS < ui_label = "Contrast-adaptive sharpening (fxgl)"; ui_tooltip = "Sharpens detail without halos."; >
{
	pass Sharpen
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_cas::PS_Sharpen;
	}
}
