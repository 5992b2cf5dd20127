// ChannelSwap: rgb -> brg through a point sampler, one pass to the back
// buffer; a combo and a bool choose among exact permutations, so the
// perturbed run changes the picture and stays exact.
uniform int Order < ui_type = "combo"; ui_items = "brg\0gbr\0"; > = 0;
uniform bool Swap < > = false;

texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv.x = (id == 2) ? 2.0 : 0.0;
    uv.y = (id == 1) ? 2.0 : 0.0;
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 SwapPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 c = tex2D(BackBuffer, uv).rgb;
    c = Order == 0 ? c.brg : c.gbr;
    if (Swap)
        c = c.bgr;
    return float4(c, 1.0);
}

technique ChannelSwap
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = SwapPS;
    }
}
