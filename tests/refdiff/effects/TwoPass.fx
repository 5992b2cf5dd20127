// TwoPass: pass 1 writes a render target (the input, channels rotated and
// inverted), pass 2 reads it back through a point sampler and writes the
// back buffer. Exercises a named target, its sampler and the pass order.
uniform float Gain < ui_type = "slider"; ui_min = 0.0; ui_max = 1.0; > = 1.0;

texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };
texture StageTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };
sampler Stage { Texture = StageTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv.x = (id == 2) ? 2.0 : 0.0;
    uv.y = (id == 1) ? 2.0 : 0.0;
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 FirstPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return float4(1.0 - tex2D(BackBuffer, uv).gbr, 1.0);
}

float4 SecondPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    // Gain is 1 or a multiple of 1/4: scaling 8-bit values by it rounds the
    // same way everywhere only when it is exact; the perturbed run uses 0.75,
    // whose products k * 0.75 are exact in binary, and ties are avoided by
    // working on the integer value.
    float3 k = floor(tex2D(Stage, uv).rgb * 255.0 + 0.5);
    return float4(floor(k * Gain) / 255.0, 1.0);
}

technique TwoPass
{
    pass ToTarget
    {
        VertexShader = FullscreenVS;
        PixelShader = FirstPS;
        RenderTarget = StageTex;
    }
    pass ToBackBuffer
    {
        VertexShader = FullscreenVS;
        PixelShader = SecondPS;
    }
}
