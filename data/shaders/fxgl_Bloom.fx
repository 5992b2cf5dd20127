// fxgl_Bloom.fx - bloom from a mip chain: bright parts are extracted at half resolution, blurred by the mipmap pyramid, gathered with tent filters and added back in linear light.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float Threshold < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 1.0;
	ui_label = "Threshold";
	ui_tooltip = "Linear brightness above which light blooms.";
> = 0.7;

uniform float Intensity < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 2.0;
	ui_label = "Intensity";
	ui_tooltip = "How much of the glow is added back.";
> = 0.35;

uniform float Spread < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.2; ui_max = 1.0;
	ui_label = "Spread";
	ui_tooltip = "Weight of each coarser mip level relative to the finer one: higher gives a wider glow.";
> = 0.7;

namespace fxgl_bloom
{
	// Half resolution with the whole chain down to about 1/64 of the frame;
	// the runtime generates the mip levels after the extract pass.
	texture BrightTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; MipLevels = 6; };
	sampler Bright { Texture = BrightTex; };
	texture GlowTex { Width = BUFFER_WIDTH / 4; Height = BUFFER_HEIGHT / 4; Format = RGBA16F; };
	sampler Glow { Texture = GlowTex; };

	float3 ToLinear(float3 c) { return pow(max(c, 0.0), 2.2); }
	float3 ToGamma(float3 c) { return pow(max(c, 0.0), 1.0 / 2.2); }

	// The part of a colour above the threshold, scaled down in proportion so
	// that hues survive.
	float3 AboveThreshold(float3 c)
	{
		float brightness = max(max(c.r, c.g), c.b);
		return c * (max(brightness - Threshold, 0.0) / max(brightness, 1e-4));
	}

	float4 PS_Extract(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		// Four bilinear taps one pixel off each diagonal: a 4x4 box around
		// the half-resolution texel, which keeps single bright pixels from
		// flickering as they move. Each tap is thresholded before averaging,
		// so small highlights keep their energy instead of being averaged
		// below the threshold.
		float2 px = BUFFER_PIXEL_SIZE;
		float3 c = AboveThreshold(ToLinear(tex2D(ReShade::BackBuffer, uv + float2(-px.x, -px.y)).rgb))
		         + AboveThreshold(ToLinear(tex2D(ReShade::BackBuffer, uv + float2(px.x, -px.y)).rgb))
		         + AboveThreshold(ToLinear(tex2D(ReShade::BackBuffer, uv + float2(-px.x, px.y)).rgb))
		         + AboveThreshold(ToLinear(tex2D(ReShade::BackBuffer, uv + float2(px.x, px.y)).rgb));
		return float4(c * 0.25, 1.0);
	}

	float4 PS_Gather(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float3 sum = 0.0;
		float total = 0.0;
		float weight = 1.0;
		[unroll]
		for (int level = 1; level < 6; level++)
		{
			// Half a texel of this level in each diagonal: a tent that hides
			// the blockiness of magnified box-filtered mips.
			float2 o = exp2(float(level)) * BUFFER_PIXEL_SIZE;
			float3 t = tex2Dlod(Bright, float4(uv + float2(-o.x, -o.y), 0.0, level)).rgb
			         + tex2Dlod(Bright, float4(uv + float2(o.x, -o.y), 0.0, level)).rgb
			         + tex2Dlod(Bright, float4(uv + float2(-o.x, o.y), 0.0, level)).rgb
			         + tex2Dlod(Bright, float4(uv + float2(o.x, o.y), 0.0, level)).rgb;
			sum += t * (0.25 * weight);
			total += weight;
			weight *= Spread;
		}
		return float4(sum / total, 1.0);
	}

	float4 PS_Combine(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float3 color = ToLinear(source.rgb) + Intensity * tex2D(Glow, uv).rgb;
		return float4(saturate(ToGamma(color)), source.a);
	}
}

technique fxgl_Bloom < ui_label = "Bloom (fxgl)"; ui_tooltip = "Glow around bright light, from a mip chain."; >
{
	pass Extract
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_bloom::PS_Extract;
		RenderTarget = fxgl_bloom::BrightTex;
	}
	pass Gather
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_bloom::PS_Gather;
		RenderTarget = fxgl_bloom::GlowTex;
	}
	pass Combine
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_bloom::PS_Combine;
	}
}
