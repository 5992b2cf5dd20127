// TestLUT.fx - a LUT effect of the first-hour test: each channel through a 256x1 curve
// image (Textures/luts/strip_lut.png, texel k = 255 - k: an inversion), sampled at texel
// centres with point filtering, so the result is exact. A LUT that is not found reads
// zero: a black frame.
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };
texture2D LutTex < source = "strip_lut.png"; > { Width = 256; Height = 1; Format = RGBA8; };
sampler2D Lut { Texture = LutTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

void LutVS(in uint id : SV_VertexID, out float4 position : SV_Position,
           out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 LutPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float3 c = tex2D(BackBuffer, texcoord).rgb;
    float3 at = (floor(c * 255.0 + 0.5) + 0.5) / 256.0;
    return float4(tex2D(Lut, float2(at.r, 0.5)).r, tex2D(Lut, float2(at.g, 0.5)).g,
                  tex2D(Lut, float2(at.b, 0.5)).b, 1.0);
}

technique TestLUT
{
    pass
    {
        VertexShader = LutVS;
        PixelShader = LutPS;
    }
}
