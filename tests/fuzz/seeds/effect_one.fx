// one.fx - one technique, two passes (written for fxgl's fxc tests).
#include "sub\common.FXH"
uniform float Timer < source = "timer"; >;
texture HalfTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; };
sampler HalfSamp { Texture = HalfTex; };
float4 DownPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return tex2D(ColorSamp, uv) * frac(Timer);
}
float4 UpPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return tex2D(HalfSamp, uv);
}
technique One
{
    pass Down { VertexShader = FullscreenVS; PixelShader = DownPS; RenderTarget = HalfTex; }
    pass Up { VertexShader = FullscreenVS; PixelShader = UpPS; BlendEnable = true; }
}
