// Includes (a seed written for fxgl's fuzzer).
#define HEADER "sub\common.FXH"
#include HEADER
#include "Sub/Common.fxh"
#ifndef GUARD
#define GUARD
#endif
technique T { pass { VertexShader = FullscreenVS; PixelShader = PS; } }
float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D(ColorSamp, uv); }
