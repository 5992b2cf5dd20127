// fxgl_FXAA.fx - fast approximate anti-aliasing: finds luma edges from a 2x2-corner gradient and blurs along them (one pass, 9 taps).
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

uniform float EdgeThreshold < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.03; ui_max = 0.5;
	ui_label = "Edge threshold";
	ui_tooltip = "Local contrast, relative to the brightest neighbour, below which a pixel is left alone.";
> = 0.125;

uniform float EdgeThresholdMin < __UNIFORM_SLIDER_FLOAT1
	ui_min = 0.0; ui_max = 0.1;
	ui_label = "Minimum edge contrast";
	ui_tooltip = "Absolute contrast below which a pixel is left alone (keeps dark areas untouched).";
> = 0.0312;

uniform float SpanMax < __UNIFORM_SLIDER_FLOAT1
	ui_min = 1.0; ui_max = 16.0;
	ui_label = "Search span";
	ui_tooltip = "Longest blur along an edge, in pixels.";
> = 8.0;

namespace fxgl_fxaa
{
	// Bilinear: the corner taps land on texel corners and average 2x2 blocks.
	sampler Color { Texture = ReShade::BackBufferTex; MinFilter = LINEAR; MagFilter = LINEAR; };

	float Luma(float3 c)
	{
		return dot(c, float3(0.299, 0.587, 0.114));
	}

	float4 PS_FXAA(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float2 px = BUFFER_PIXEL_SIZE;
		float4 source = tex2D(Color, uv);
		float3 rgbM = source.rgb;
		float lumaNW = Luma(tex2D(Color, uv + float2(-0.5, -0.5) * px).rgb);
		float lumaNE = Luma(tex2D(Color, uv + float2(0.5, -0.5) * px).rgb);
		float lumaSW = Luma(tex2D(Color, uv + float2(-0.5, 0.5) * px).rgb);
		float lumaSE = Luma(tex2D(Color, uv + float2(0.5, 0.5) * px).rgb);
		float lumaM = Luma(rgbM);

		float lumaMin = min(lumaM, min(min(lumaNW, lumaNE), min(lumaSW, lumaSE)));
		float lumaMax = max(lumaM, max(max(lumaNW, lumaNE), max(lumaSW, lumaSE)));
		if (lumaMax - lumaMin < max(EdgeThresholdMin, lumaMax * EdgeThreshold))
			return source;

		// Gradient across the edge, rotated to point along it.
		float2 dir = float2((lumaSW + lumaSE) - (lumaNW + lumaNE), (lumaNW + lumaSW) - (lumaNE + lumaSE));
		// Normalise by the smaller component so short, steep edges still get
		// a usable span; the reduce term keeps flat noise from exploding.
		float reduce = max((lumaNW + lumaNE + lumaSW + lumaSE) * (0.25 / 8.0), 1.0 / 128.0);
		float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
		dir = clamp(dir * scale, -SpanMax, SpanMax) * px;

		float3 inner = 0.5 * (tex2D(Color, uv - dir / 6.0).rgb + tex2D(Color, uv + dir / 6.0).rgb);
		float3 outer = 0.5 * inner + 0.25 * (tex2D(Color, uv - dir * 0.5).rgb + tex2D(Color, uv + dir * 0.5).rgb);
		// The wide blur crossed into another surface when its luma leaves the
		// local range; fall back to the narrow one then.
		float lumaOuter = Luma(outer);
		return float4((lumaOuter < lumaMin || lumaOuter > lumaMax) ? inner : outer, source.a);
	}
}

technique fxgl_FXAA < ui_label = "FXAA (fxgl)"; ui_tooltip = "Fast approximate anti-aliasing."; >
{
	pass AntiAlias
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_fxaa::PS_FXAA;
	}
}
