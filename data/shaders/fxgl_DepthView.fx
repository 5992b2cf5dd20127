// fxgl_DepthView.fx - shows the depth buffer as greyscale (linearised, raw or beside the image) to check the RESHADE_DEPTH_* settings.
#include "ReShade.fxh"

uniform int Mode <
	ui_type = "combo";
	ui_items = "Linearised depth\0Raw depth\0Image left, depth right\0";
	ui_label = "Show";
	ui_tooltip = "Linearised: what depth effects see (near black, far white). Raw: the depth buffer as stored.";
> = 0;

namespace fxgl_depthview
{
	float4 PS_Depth(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		float4 source = tex2D(ReShade::BackBuffer, uv);
		float linear_depth = ReShade::GetLinearizedDepth(uv);
		if (Mode == 1)
			return float4(tex2Dlod(ReShade::DepthBuffer, float4(uv, 0.0, 0.0)).xxx, source.a);
		if (Mode == 2 && uv.x < 0.5)
			return source;
		return float4(linear_depth.xxx, source.a);
	}
}

technique fxgl_DepthView < ui_label = "Depth view (fxgl)"; ui_tooltip = "Shows the depth buffer (a diagnostic)."; >
{
	pass Depth
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_depthview::PS_Depth;
	}
}
