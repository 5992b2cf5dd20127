// two.fx - two one-pass techniques (written for fxgl's fxc tests).
#include "Sub/Common.fxh"
uniform int Frame < source = "framecount"; >;
float4 InvertPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return 1.0 - tex2D(ColorSamp, uv);
}
technique A { pass { VertexShader = FullscreenVS; PixelShader = InvertPS; } }
technique B { pass { VertexShader = FullscreenVS; PixelShader = InvertPS; SRGBWriteEnable = true; } }
