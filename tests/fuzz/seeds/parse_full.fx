#line 1 "full_effect.fx"
#pragma warning(disable : 3571)
// A hand-written effect touching every top-level construct.
namespace Common
{
    texture BackBufferTex : COLOR;
    texture DepthTex : DEPTH;
    sampler BackBuffer { Texture = BackBufferTex; SRGBTexture = true; };
    namespace Inner { float Half(float x) { return x * 0.5; } }
}

uniform float Strength <
    ui_type = "slider"; ui_min = -1.0; ui_max = 1.0;
    ui_label = "Strength"; ui_tooltip = "How much " "of it";
> = 0.5;
uniform int Mode < ui_type = "combo"; ui_items = "Off\0On\0"; > = 1;
uniform float Timer < source = "timer"; >;
static const float Weights[] = { 0.25, 0.5, 0.25, };
static const int2 Offsets[2] = { int2(1, 0), int2(0, 1) };
groupshared uint Shared[64];

texture2D HalfTex < pooled = true; > { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2;
                                      Format = RGBA16F; MipLevels = 3; };
sampler2D HalfSampler { Texture = HalfTex; AddressU = MIRROR; MinFilter = POINT; MipLODBias = -0.5; };
storage2D<float4> HalfStorage { Texture = HalfTex; MipLevel = 0; };

struct VSOut
{
    float4 pos : SV_Position;
    nointerpolation uint id : TEXCOORD1;
    float2 uv : TEXCOORD0;
};

VSOut MainVS(in uint id : SV_VertexID)
{
    VSOut o;
    o.uv.x = (id == 2) ? 2.0 : 0.0;
    o.uv.y = (id == 1) ? 2.0 : 0.0;
    o.pos = float4(o.uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
    o.id = id;
    return o;
}

float3 Blur(sampler2D s, float2 uv, int taps = 3)
{
    float3 sum = 0;
    [unroll]
    for (int i = 0; i < 3; i++)
        sum += tex2Dlod(s, float4(uv + Offsets[i % 2] * BUFFER_RCP_WIDTH, 0, 0)).rgb * Weights[i];
    return sum;
}

float4 MainPS(VSOut i) : SV_Target
{
    float3 c = tex2D(Common::BackBuffer, i.uv).rgb;
    switch (Mode)
    {
    case 0:
        break;
    default:
        c = lerp(c, Blur(HalfSampler, i.uv), Strength);
        break;
    }
    [branch] if (c.r > 1.0) discard;
    return float4(Common::Inner::Half(c.x).xxx, 1.0);
}

[numthreads(8, 8, 1)]
void MainCS(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    Shared[gi] = id.x;
    barrier();
    tex2Dstore(HalfStorage, id.xy, float4(Shared[gi] / 64.0, 0, 0, 1));
}

technique Example < ui_label = "Example"; enabled = true; timeout = 1000; >
{
    pass Prepare { ComputeShader = MainCS<8, 8>; DispatchSizeX = BUFFER_WIDTH / 16;
                   DispatchSizeY = BUFFER_HEIGHT / 16; }
    pass
    {
        VertexShader = MainVS;
        PixelShader = MainPS;
        RenderTarget0 = HalfTex;
        ClearRenderTargets = FALSE;
        BlendEnable = true; SrcBlend = SRCALPHA; DestBlend = INVSRCALPHA; BlendOp = ADD;
        RenderTargetWriteMask = int(1 + 2 + 4 + 8);
        StencilEnable = true; StencilFunc = EQUAL; StencilPass = REPLACE; StencilRef = 1;
    }
};
