// Invert: 1 - colour, one pass to the back buffer. Self-contained (no
// ReShade.fxh) so that fxgl and vkBasalt compile the same text.
texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; };

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv.x = (id == 2) ? 2.0 : 0.0;
    uv.y = (id == 1) ? 2.0 : 0.0;
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 InvertPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float4 c = tex2D(BackBuffer, uv);
    return float4(1.0 - c.rgb, 1.0);
}

technique Invert
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = InvertPS;
    }
}
