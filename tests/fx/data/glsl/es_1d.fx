// es_1d.fx - a 1D texture, which GLSL ES lacks: a 2D texture of height 1
// there (fxc glsl tests).
texture1D Tex1 { Width = 16; Format = RGBA8; };
sampler1D Samp1 { Texture = Tex1; };
void VS(uint id : SV_VertexID, out float4 p : SV_Position, out float2 uv : TEXCOORD)
{
    uv = float2(id == 2 ? 2 : 0, id == 1 ? 2 : 0);
    p = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return tex1D(Samp1, uv.x);
}
technique T { pass { VertexShader = VS; PixelShader = PS; } }
