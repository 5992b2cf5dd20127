// DepthInvert.fx - Invert.fx that also binds DEPTH, so every frame copies the
// window's depth buffer; the copy adds nothing to the inverted colour.
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };
texture2D DepthBufferTex : DEPTH;
sampler2D DepthBuffer { Texture = DepthBufferTex; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 DepthInvertPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float depth = tex2D(DepthBuffer, texcoord).r;
    return float4(1.0 - tex2D(BackBuffer, texcoord).rgb + min(depth, 0.0), 1.0);
}

technique DepthInvert
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = DepthInvertPS;
    }
}
