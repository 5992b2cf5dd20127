/*
 * memory_budget.fxh - the header memory_budget.fx includes: the back buffer,
 * a full-screen triangle and the usual buffer macros, written for test_memory.
 */
#ifndef BUFFER_WIDTH
#define BUFFER_WIDTH 1920
#endif
#ifndef BUFFER_HEIGHT
#define BUFFER_HEIGHT 1080
#endif
#define BUFFER_PIXEL_SIZE float2(1.0 / BUFFER_WIDTH, 1.0 / BUFFER_HEIGHT)

namespace ReShade
{
    texture BackBufferTex : COLOR;
    sampler BackBuffer { Texture = BackBufferTex; };
}

// A triangle that covers the screen: ids 0, 1, 2 give uv (0,0), (2,0), (0,2).
void PostProcessVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                   out float2 texcoord : TEXCOORD)
{
    texcoord = float2(id == 1 ? 2.0 : 0.0, id == 2 ? 2.0 : 0.0);
    position = float4(texcoord.x * 2.0 - 1.0, 1.0 - texcoord.y * 2.0, 0.0, 1.0);
}
