// fxgl_Passthrough.fx - copies the frame unchanged; the smallest complete effect, used by tests.
#include "ReShade.fxh"

namespace fxgl_passthrough
{
	// Point sampling so that every output pixel is exactly its input texel.
	sampler Color { Texture = ReShade::BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

	float4 PS_Copy(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
	{
		return tex2D(Color, uv);
	}
}

technique fxgl_Passthrough < ui_label = "Passthrough (fxgl)"; ui_tooltip = "Copies the frame unchanged (a test effect)."; >
{
	pass Copy
	{
		VertexShader = PostProcessVS;
		PixelShader = fxgl_passthrough::PS_Copy;
	}
}
