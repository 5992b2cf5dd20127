// SetImage.fx - a link of the effect-set test's chain that reads an image
// (set_tint.png: every pixel 10, 20, 30): that colour added to every pixel. It gives
// the share-group test an image texture to share (test_share_group.sh).
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };
texture2D TintTex < source = "set_tint.png"; > { Width = 4; Height = 4; Format = RGBA8; };
sampler2D Tint { Texture = TintTex; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 ImagePS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float3 c = tex2D(BackBuffer, texcoord).rgb;
    return float4(saturate(c + tex2D(Tint, float2(0.5, 0.5)).rgb), 1.0);
}

technique Image
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = ImagePS;
    }
}
