// PerfMode.fx - the performance-mode key test: inverts the frame when compiled with
// uniforms, paints it green when compiled in performance mode.
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 PerfModePS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
#if __RESHADE_PERFORMANCE_MODE__
    return float4(0.0, 1.0, 0.0, 1.0);
#else
    return float4(1.0 - tex2D(BackBuffer, texcoord).rgb, 1.0);
#endif
}

technique PerfMode
{
    pass
    {
        VertexShader = FullscreenVS;
        PixelShader = PerfModePS;
    }
}
