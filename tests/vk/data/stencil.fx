// stencil.fx - the runtime's stencil (tests/vk): a first pass marks the
// left half of the screen (discard elsewhere) with stencil 1 while writing a
// back-buffer-size target; a second pass draws only where the stencil is 1
// (the left half turns the target's red), a third only where it is not (the
// right half turns blue). A second technique starts from a cleared stencil:
// its EQUAL 0 pass covers the whole screen at a quarter strength.
#include "ReShade.fxh"

texture MarkTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };
sampler Mark { Texture = MarkTex; };

float4 MarkPS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    if (uv.x > 0.5)
        discard;
    return float4(1.0, 0.0, 0.0, 1.0);
}
float4 RedPS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    return tex2D(Mark, uv);
}
float4 BluePS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    return float4(0.0, 0.0, 1.0, 1.0);
}
float4 DimPS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    return tex2D(ReShade::BackBuffer, uv) * 0.75;
}

technique StencilMark {
    pass Mark { VertexShader = PostProcessVS; PixelShader = MarkPS; RenderTarget = MarkTex;
                ClearRenderTargets = true; StencilEnable = true; StencilPass = REPLACE;
                StencilRef = 1; }
    pass Red { VertexShader = PostProcessVS; PixelShader = RedPS; StencilEnable = true;
               StencilFunc = EQUAL; StencilRef = 1; }
    pass Blue { VertexShader = PostProcessVS; PixelShader = BluePS; StencilEnable = true;
                StencilFunc = NOTEQUAL; StencilRef = 1; }
}
technique StencilAgain {
    pass Dim { VertexShader = PostProcessVS; PixelShader = DimPS; StencilEnable = true;
               StencilFunc = EQUAL; StencilRef = 0; }
}
