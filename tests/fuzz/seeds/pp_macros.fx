// Macro features (a seed written for fxgl's fuzzer).
#define CAT(a, b) a##b
#define STR(x) #x
#define V(f, ...) f(0, ## __VA_ARGS__)
#define SELF SELF + 1
#define F(x) x*G
#define G(x) F(x)
#define TINT(id) Tint##id##.rgb
static const float CAT(va, lue) = 1.0;
static const int n = V(max, 3);
#if defined(CAT) && !defined NOPE && (1 << 4) == 16 && -3 / 2 == -1
float4 PS(float4 p : SV_Position) : SV_Target { return CAT(va, lue) * F(2)(3); }
#elif exists "common.fxh"
#error "no"
#else
#warning "else"
#endif
#pragma warning(disable : 3571)
#line 100 "renamed.fx"
static const int line = __LINE__;
