// NsInvert.fx - a uniform declared inside a namespace, set by the preset: with
// Mix = 1 (nsinvert.ini) every pixel becomes 1 - colour, with its initial 0
// the frame passes unchanged. Presets name it by its short name.
namespace Ns
{
    uniform float Mix < ui_type = "slider"; > = 0.0;
}

texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 NsInvertPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float3 c = tex2D(BackBuffer, texcoord).rgb;
    return float4(lerp(c, 1.0 - c, Ns::Mix), 1.0);
}

technique NsInvert
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = NsInvertPS;
    }
}
