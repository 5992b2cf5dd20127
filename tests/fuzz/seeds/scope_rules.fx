// Names, namespaces and overloads as the reference resolves them.
#define HERE "scope_rules.fx"
#if exists HERE
static const float M = 2.0;
float M(float x) { return x * M; }
static const float c = 1.0;
static const float c = c + 1.0;
uniform float c;
namespace A { namespace B { static const int x = 1; float f(float v) { return v; } } }
namespace X { namespace Y { namespace Z { int g() { return x + (int)B::f(1.0); } } } }
float f(float v) { return -v; }
namespace N { float f(float v) { return v * 10; } float h() { const float k = 1; const float k = 2; return f(k) + M(3.0); } }
#endif
#line 100 "elsewhere.fx"
texture T { Width = clamp; MipLevels = LINEAR; AddressU = WRAP; };
sampler S { Texture = T; MinFilter = ANISOTROPIC; };
static const float w[3] = { 1, 2, 3 };
static const int lm = int(log(8.0) / log(2.0));
void VS(uint id : SV_VertexID, out float4 p : SV_Position, out nointerpolation float q : TEXCOORD1) { p = 0; q = w[1.5]; }
float4 PS(float4 p : SV_Position, float q : TEXCOORD1) : SV_Target { return tex2D(S, q) + N::h(); }
float4 PS(float4 p : SV_Position) : SV_Target { return 1; }
technique T1 { pass { VertexShader = VS; PixelShader = PS; RenderTarget = T; } }
