// MipLevel: pass 1 writes a render target with three mip levels, each 2x2
// block of level 0 one colour (the input at the block's corner), so that
// level 1 is exact whatever filter builds it (an average of four equal
// values); pass 2 reads level 1 with tex2Dlod through a point sampler.
texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };
texture MipTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; MipLevels = 3; };
sampler Mip { Texture = MipTex; MinFilter = POINT; MagFilter = POINT; MipFilter = POINT; };

void FullscreenVS(uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv.x = (id == 2) ? 2.0 : 0.0;
    uv.y = (id == 1) ? 2.0 : 0.0;
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 BlocksPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    // tex2Dlod at the corner texel's centre: vkBasalt's compiler (ReShade
    // 4) has no two-argument tex2Dfetch.
    float2 corner = floor(pos.xy * 0.5) * 2.0 + 0.5;
    return tex2Dlod(BackBuffer, float4(corner / float2(BUFFER_WIDTH, BUFFER_HEIGHT), 0, 0));
}

float4 ReadPS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    // The centre of the level-1 texel under this pixel.
    float2 texel = floor(pos.xy * 0.5) + 0.5;
    return float4(tex2Dlod(Mip, float4(texel / float2(BUFFER_WIDTH / 2, BUFFER_HEIGHT / 2), 0, 1)).rgb, 1.0);
}

technique MipLevel
{
    pass Blocks
    {
        VertexShader = FullscreenVS;
        PixelShader = BlocksPS;
        RenderTarget = MipTex;
    }
    pass Read
    {
        VertexShader = FullscreenVS;
        PixelShader = ReadPS;
    }
}
