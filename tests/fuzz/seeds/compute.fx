// A compute pass with storage (a seed written for fxgl's fuzzer).
texture T { Width = 64; Height = 64; Format = R32F; };
storage S { Texture = T; };
groupshared float cache[64];
void CS(uint3 id : SV_DispatchThreadID, uint3 tid : SV_GroupThreadID)
{
    cache[tid.x] = id.x;
    barrier();
    tex2Dstore(S, id.xy, cache[63 - tid.x].xxxx);
}
technique C { pass { ComputeShader = CS<64, 1, 1>; DispatchSizeX = 1; DispatchSizeY = 64; } }
