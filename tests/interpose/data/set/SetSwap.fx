// SetSwap.fx - one link of the effect-set test's chain (test_effect_set.sh): red and blue swapped.
// The chain's links do not commute, so the presented colour tells which ran, and in
// which order.
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 SwapPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float3 c = tex2D(BackBuffer, texcoord).rgb;
    return float4(c.bgr, 1.0);
}

technique Swap
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = SwapPS;
    }
}
