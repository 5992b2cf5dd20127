// The reference's expression rules: matrix-scalar operators, widening
// assignment, compound assignment in the target's type, brace lists,
// stpq, non-constant texel offsets, static locals from locals, out params.
texture T1 { Width = 4; Height = 4; Format = RGBA8; };
texture TM { Width = 4; Height = 4; Format = RGBA8; MipLevels = 3; };
sampler S1 { Texture = T1; };
sampler SM { Texture = TM; };
uniform float F = 2;
uniform int2 O = int2(1, -1);
float pick(float3 v[2], int i) { return v[i].z; }
float4 at(sampler s, float2 uv, int2 o) { return tex2D(s, uv, o); }
float halves(int n) { static const int h = n / 2; static const int m = h * 2 + 1; return m; }
void VS(in uint id : SV_VertexID, out float4 p : SV_Position, out float2 uv : TEXCOORD, out float3 acc : TEXCOORD1)
{
    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
    p = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
    acc += 1;
}
void PS(float4 pos : SV_Position, float2 uv : TEXCOORD, float3 acc : TEXCOORD1, out float4 o : SV_Target)
{
    float3x3 m = float3x3(1, 2, 3, 4, 5, 6, 7, 8, 9) * F + 1;
    m = m / F - true;
    float4 v = 0; v = acc; v += uv;
    int i = 3; i *= 0.5; bool b = true; b += F;
    float a[3]; a = { 1, F, i, };
    float4 t = 0;
    [unroll] for (int k = -1; k <= 1; k++) { t += tex2D(S1, uv, int2(k, 0)); }
    t += at(SM, uv, O) + tex2Dlod(SM, float4(uv, 0, F), O) + tex2DgatherR(S1, uv, O, -O, O.yx, int2(0, 0));
    o += v.stpq + t + pick({ float3(1, 2, 3), F }, i) + a[i] + { 0.5, F }[i] + halves(i) + m[1].x + b + F.s;
}
technique T { pass { VertexShader = VS; PixelShader = PS; } }
