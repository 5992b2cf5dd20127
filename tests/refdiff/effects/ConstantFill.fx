// ConstantFill: every pixel one colour made of the uniforms (values k/255,
// so the 8-bit result is exact). The input is read and multiplied by zero:
// vkBasalt 0.3.2.8 crashes on an effect without a sampler.
uniform float Red < ui_type = "slider"; ui_min = 0.0; ui_max = 1.0; > = 0.2;
uniform float Green < ui_type = "slider"; ui_min = 0.0; ui_max = 1.0; > = 0.6;
uniform int Blue < ui_type = "slider"; ui_min = 0; ui_max = 255; > = 40;

texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; };

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv.x = (id == 2) ? 2.0 : 0.0;
    uv.y = (id == 1) ? 2.0 : 0.0;
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 FillPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    // Quantised to k/255 here, so the slider's value never lands on a
    // rounding tie of the 8-bit store.
    float3 c = floor(float3(Red, Green, Blue / 255.0) * 255.0 + 0.5) / 255.0;
    return float4(c, 1.0) + 0.0 * tex2D(BackBuffer, uv);
}

technique ConstantFill
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = FillPS;
    }
}
