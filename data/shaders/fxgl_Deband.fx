// fxgl_Deband.fx - removes banding in smooth gradients by averaging four random far taps where they agree with the pixel, then dithers.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"
#include "fxgl_Noise.fxh"

uniform float Threshold < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.001; ui_max = 0.05; ui_step = 0.001;
	ui_label = "Threshold";
	ui_tooltip = "Largest difference to the taps that still counts as banding (1/255 is one 8-bit step). Higher smooths more and may blur detail.";
> = 0.012;

uniform int Range < __UNIFORM_SLIDER_INT1
	ui_min = 1; ui_max = 32;
	ui_label = "Range";
	ui_tooltip = "Largest tap distance in pixels; wide bands need a wider range.";
> = 16;

uniform float Dither < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 2.0;
	ui_label = "Dither";
	ui_tooltip = "Amplitude of the triangular dither added afterwards, in 8-bit steps.";
> = 1.0;

namespace fxgl_deband
{
	// Exact texels at texel centres; CLAMP handles taps beyond the border.
	sampler Color { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

	float3 Tap(float2 p)
	{
		return tex2Dlod(Color, float4((p + 0.5) * BUFFER_PIXEL_SIZE, 0.0, 0.0)).rgb;
	}

	float MaxComponent(float3 v)
	{
		return max(max(v.r, v.g), v.b);
	}

	float4 PS_Deband(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float2 p = floor(pos.xy);
		float3 c = Tap(p);

		// A fixed seed: the pattern stays still, so it does not shimmer.
		uint h = fxgl_noise::Hash3(uint(p.x), uint(p.y), 0x5eedu);
		uint h1 = fxgl_noise::Hash(h);
		uint h2 = fxgl_noise::Hash(h1);
		uint h3 = fxgl_noise::Hash(h2);
		// Integer offset in [-Range, Range]^2 and its perpendicular: four taps
		// spread in two directions.
		float span = float(2 * Range + 1);
		float2 o = floor(float2(fxgl_noise::ToUnit(h), fxgl_noise::ToUnit(h1)) * span) - float(Range);
		float3 a = Tap(p + o);
		float3 b = Tap(p - o);
		float3 d = Tap(p + float2(-o.y, o.x));
		float3 e = Tap(p + float2(o.y, -o.x));

		float diff = max(max(MaxComponent(abs(c - a)), MaxComponent(abs(c - b))),
		                 max(MaxComponent(abs(c - d)), MaxComponent(abs(c - e))));
		// Full replacement up to half the threshold, fading out to none at it.
		float w = saturate((Threshold - diff) / (0.5 * Threshold));
		float3 result = lerp(c, (a + b + d + e) * 0.25, w);

		float n = fxgl_noise::ToUnit(h2) + fxgl_noise::ToUnit(h3) - 1.0;
		float alpha = tex2Dlod(Color, float4((p + 0.5) * BUFFER_PIXEL_SIZE, 0.0, 0.0)).a;
		return float4(saturate(result + n * (Dither / 255.0)), alpha);
	}
}

technique fxgl_Deband < ui_label = "Deband (fxgl)"; ui_tooltip = "Smooths banding in gradients."; >
{
	pass Deband
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_deband::PS_Deband;
	}
}
