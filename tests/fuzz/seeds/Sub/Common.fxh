// Common.fxh - a shared header of the fxc test effects (written for fxgl).
#pragma once
texture ColorTex : COLOR;
sampler ColorSamp { Texture = ColorTex; };
void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv = float2((id == 2) ? 2.0 : 0.0, (id == 1) ? 2.0 : 0.0);
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}
