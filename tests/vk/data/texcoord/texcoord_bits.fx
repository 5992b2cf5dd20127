// The 32 bits of the fullscreen texcoord's AXIS component (0: x, 1: y), a
// byte per channel (k / 255 is exact in UNORM8), for tests/vk/test_texcoord.sh.
#include "ReShade.fxh"

#ifndef AXIS
#define AXIS 0
#endif

float4 PS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    uint b = asuint(AXIS == 0 ? uv.x : uv.y);
    return float4(b >> 24, (b >> 16) & 255, (b >> 8) & 255, b & 255) / 255.0;
}

technique TexcoordBits { pass { VertexShader = PostProcessVS; PixelShader = PS; } }
