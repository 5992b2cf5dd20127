// bindings.fx - every kind of resource the Vulkan layout carries, with
// bindings and locations known by hand (tests/vk/test_spirv.c):
// ReShade.fxh declares two samplers (BackBuffer, DepthBuffer: bindings 1, 2),
// so Grid is at 3, Half at 4 and the storage after the four samplers at 5;
// the uniform block at 0; the varyings TEXCOORD0, TEXCOORD1 and the flat
// TEXCOORD2 at locations 0, 1, 2.
#include "ReShade.fxh"

uniform float Gain < ui_type = "slider"; > = 0.5;
uniform float Timer < source = "timer"; >;

texture2D GridTex { Width = 64; Height = 32; Format = RGBA8; MipLevels = 3; };
sampler2D Grid { Texture = GridTex; };
storage2D<float4> GridStore { Texture = GridTex; MipLevel = 0; };

texture2D HalfTex { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; };
sampler2D Half { Texture = HalfTex; };

struct V { float4 pos : SV_Position; float2 uv : TEXCOORD0; float2 uv2 : TEXCOORD1;
           nointerpolation int which : TEXCOORD2; };

V TwoVS(uint id : SV_VertexID) {
    V v;
    v.uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
    v.pos = float4(v.uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
    v.uv2 = v.uv * 0.5;
    v.which = int(id);
    return v;
}

[numthreads(8, 8, 1)]
void FillCS(uint3 id : SV_DispatchThreadID) {
    tex2Dstore(GridStore, id.xy, float4(id.xy / float2(64.0, 32.0), Gain, 1.0));
}

float4 HalfPS(V v) : SV_Target {
    return tex2D(Grid, v.uv2) * Gain + frac(Timer * 0.001) * 0.0;
}

float4 ShowPS(V v) : SV_Target {
    return tex2D(Half, v.uv) + tex2D(ReShade::BackBuffer, v.uv) * 0.0 + v.which * 0.0;
}

technique Bindings {
    pass Fill { ComputeShader = FillCS<8, 8>; DispatchSizeX = 8; DispatchSizeY = 4; }
    pass ToHalf { VertexShader = TwoVS; PixelShader = HalfPS; RenderTarget = HalfTex; }
    pass Show { VertexShader = TwoVS; PixelShader = ShowPS; }
}
