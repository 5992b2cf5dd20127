// TestSMAA.fx - shaped like SMAA for the first-hour test: three passes, two render
// targets, and two lookup images in a sub-folder of the textures (Textures/smaa:
// TestArea.png all white, TestSearch.png all black). The last pass keeps the frame only
// when both were found (area 1, search 0); a missing one reads zero and the frame turns
// black, so a search path that misses them shows.
texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };
texture2D EdgesTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RG8; };
sampler2D Edges { Texture = EdgesTex; MinFilter = POINT; MagFilter = POINT; };
texture2D BlendTex { Width = BUFFER_WIDTH; Height = BUFFER_HEIGHT; Format = RGBA8; };
sampler2D Blend { Texture = BlendTex; MinFilter = POINT; MagFilter = POINT; };
texture2D AreaTex < source = "TestArea.png"; > { Width = 4; Height = 4; Format = RGBA8; };
sampler2D Area { Texture = AreaTex; MinFilter = POINT; MagFilter = POINT; };
texture2D SearchTex < source = "TestSearch.png"; > { Width = 4; Height = 4; Format = RGBA8; };
sampler2D Search { Texture = SearchTex; MinFilter = POINT; MagFilter = POINT; };

void SmaaVS(in uint id : SV_VertexID, out float4 position : SV_Position,
            out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 EdgesPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float luma = dot(tex2D(BackBuffer, texcoord).rgb, float3(0.299, 0.587, 0.114));
    return float4(abs(ddx(luma)), abs(ddy(luma)), 0.0, 0.0);
}

float4 WeightsPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float2 e = tex2D(Edges, texcoord).rg;
    return float4(tex2D(Area, texcoord).r, tex2D(Search, texcoord).r, min(e.x + e.y, 0.0),
                  1.0);
}

float4 NeighborhoodPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    float4 w = tex2D(Blend, texcoord);
    return float4(tex2D(BackBuffer, texcoord).rgb * (w.r * (1.0 - w.g) + w.b), 1.0);
}

technique TestSMAA
{
    pass EdgeDetection
    {
        VertexShader = SmaaVS;
        PixelShader = EdgesPS;
        RenderTarget = EdgesTex;
    }
    pass BlendWeights
    {
        VertexShader = SmaaVS;
        PixelShader = WeightsPS;
        RenderTarget = BlendTex;
    }
    pass NeighborhoodBlending
    {
        VertexShader = SmaaVS;
        PixelShader = NeighborhoodPS;
    }
}
