// Chain.fx - a two-pass effect for test_runtime, compiled by fxgl's own
// compiler: COLOR * 0.5 into a render target, then that + Offset to the
// back buffer. Self-contained (no includes).
texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };
texture HalfTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };
sampler Half { Texture = HalfTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

uniform float Offset = 0.25;
uniform uint Frame < source = "framecount"; >;

void VS(in uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
	uv.x = (id == 2) ? 2.0 : 0.0;
	uv.y = (id == 1) ? 2.0 : 0.0;
	pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 HalfPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
	return float4(tex2D(BackBuffer, uv).rgb * 0.5, 1.0);
}

float4 AddPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
	// Frame is 0 in the first frame: the test checks frame 1's output too.
	return float4(tex2D(Half, uv).rgb + Offset + (Frame > 100u ? 1.0 : 0.0), 1.0);
}

technique Chain
{
	pass Half { VertexShader = VS; PixelShader = HalfPS; RenderTarget = HalfTex; }
	pass Add { VertexShader = VS; PixelShader = AddPS; }
}
