// zero_locals.fx - locals declared without an initializer read zero
// (tests/vk/test_locals.sh): an array that a helper only adds to through an
// inout parameter, a struct whose member is only added to, and an int and a
// float that are only added to. Each channel is a value worked out by hand:
// red 4 x 0.05 = 0.2 (51), green 0.4 (102), blue 3 x 0.2 = 0.6 (153).
struct Acc { float a; float b; };

void AddAll(inout float3 acc[4], float v) {
    [unroll] for (int i = 0; i < 4; i++)
        acc[i] += v;
}

float4 PostProcessVS_(uint id : SV_VertexID, out float2 uv : TEXCOORD) : SV_Position {
    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
    return float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 ZeroPS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target {
    float3 acc[4];
    AddAll(acc, 0.05);
    Acc st;
    st.a += 0.4;
    int n;
    [loop] for (int i = 0; i < 3; i++)
        n += 1;
    float s;
    s += 0.2 * n;
    return float4(acc[0].x + acc[1].y + acc[2].z + acc[3].x, st.a, s, 1.0);
}

technique ZeroLocals {
    pass { VertexShader = PostProcessVS_; PixelShader = ZeroPS; }
}
