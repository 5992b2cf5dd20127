// DepthShow.fx - DEPTH's red channel, raw (0 near, 1 far), as grey: the FBO
// depth provider's tests compare it with the depth the program computes.
texture2D DepthBufferTex : DEPTH;
sampler2D DepthBuffer { Texture = DepthBufferTex; MinFilter = POINT; MagFilter = POINT; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 DepthShowPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float depth = tex2D(DepthBuffer, texcoord).r;
    return float4(depth, depth, depth, 1.0);
}

technique DepthShow
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = DepthShowPS;
    }
}
