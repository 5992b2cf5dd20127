// float_source.fx - a `source` image loaded into a float texture (tests/vk):
// the shipped LUT strip (fxgl_lut.png, 1024x32, from the textures folder)
// into RGBA32F, which both runtimes fill with the image's bytes / 255, shown
// stretched over the screen with a gain so that a float texture read as
// zero, or as bytes, shows.
#include "ReShade.fxh"

texture StripTex < source = "fxgl_lut.png"; > { Width = 1024; Height = 32; Format = RGBA32F; };
sampler Strip { Texture = StripTex; MinFilter = POINT; MagFilter = POINT; };

float4 ShowPS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    return float4(tex2D(Strip, uv).rgb * 0.75 + 0.125, 1.0);
}

technique FloatSource {
    pass { VertexShader = PostProcessVS; PixelShader = ShowPS; }
}
