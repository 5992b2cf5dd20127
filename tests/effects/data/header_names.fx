// header_names.fx - uses every name fxgl's ReShade.fxh and ReShadeUI.fxh
// promise, so that a missing or misspelt one fails compilation. Compiled by
// test_headers.sh with each RESHADE_DEPTH_* variant.
#include "ReShade.fxh"
#include "ReShadeUI.fxh"

#if !SUPPORTED_VERSION(4, 0, 0) || RESHADE_VERSION(6, 5, 1) != 60501
	#error "version helpers"
#endif

uniform bool u0 < __UNIFORM_INPUT_BOOL1 ui_label = "INPUT BOOL1"; >;
uniform bool2 u1 < __UNIFORM_INPUT_BOOL2 ui_label = "INPUT BOOL2"; >;
uniform bool3 u2 < __UNIFORM_INPUT_BOOL3 ui_label = "INPUT BOOL3"; >;
uniform bool4 u3 < __UNIFORM_INPUT_BOOL4 ui_label = "INPUT BOOL4"; >;
uniform int u4 < __UNIFORM_INPUT_INT1 ui_label = "INPUT INT1"; >;
uniform int2 u5 < __UNIFORM_INPUT_INT2 ui_label = "INPUT INT2"; >;
uniform int3 u6 < __UNIFORM_INPUT_INT3 ui_label = "INPUT INT3"; >;
uniform int4 u7 < __UNIFORM_INPUT_INT4 ui_label = "INPUT INT4"; >;
uniform float u8 < __UNIFORM_INPUT_FLOAT1 ui_label = "INPUT FLOAT1"; >;
uniform float2 u9 < __UNIFORM_INPUT_FLOAT2 ui_label = "INPUT FLOAT2"; >;
uniform float3 u10 < __UNIFORM_INPUT_FLOAT3 ui_label = "INPUT FLOAT3"; >;
uniform float4 u11 < __UNIFORM_INPUT_FLOAT4 ui_label = "INPUT FLOAT4"; >;
uniform bool u12 < __UNIFORM_DRAG_BOOL1 ui_label = "DRAG BOOL1"; >;
uniform bool2 u13 < __UNIFORM_DRAG_BOOL2 ui_label = "DRAG BOOL2"; >;
uniform bool3 u14 < __UNIFORM_DRAG_BOOL3 ui_label = "DRAG BOOL3"; >;
uniform bool4 u15 < __UNIFORM_DRAG_BOOL4 ui_label = "DRAG BOOL4"; >;
uniform int u16 < __UNIFORM_DRAG_INT1 ui_label = "DRAG INT1"; >;
uniform int2 u17 < __UNIFORM_DRAG_INT2 ui_label = "DRAG INT2"; >;
uniform int3 u18 < __UNIFORM_DRAG_INT3 ui_label = "DRAG INT3"; >;
uniform int4 u19 < __UNIFORM_DRAG_INT4 ui_label = "DRAG INT4"; >;
uniform float u20 < __UNIFORM_DRAG_FLOAT1 ui_label = "DRAG FLOAT1"; >;
uniform float2 u21 < __UNIFORM_DRAG_FLOAT2 ui_label = "DRAG FLOAT2"; >;
uniform float3 u22 < __UNIFORM_DRAG_FLOAT3 ui_label = "DRAG FLOAT3"; >;
uniform float4 u23 < __UNIFORM_DRAG_FLOAT4 ui_label = "DRAG FLOAT4"; >;
uniform bool u24 < __UNIFORM_SLIDER_BOOL1 ui_label = "SLIDER BOOL1"; >;
uniform bool2 u25 < __UNIFORM_SLIDER_BOOL2 ui_label = "SLIDER BOOL2"; >;
uniform bool3 u26 < __UNIFORM_SLIDER_BOOL3 ui_label = "SLIDER BOOL3"; >;
uniform bool4 u27 < __UNIFORM_SLIDER_BOOL4 ui_label = "SLIDER BOOL4"; >;
uniform int u28 < __UNIFORM_SLIDER_INT1 ui_label = "SLIDER INT1"; >;
uniform int2 u29 < __UNIFORM_SLIDER_INT2 ui_label = "SLIDER INT2"; >;
uniform int3 u30 < __UNIFORM_SLIDER_INT3 ui_label = "SLIDER INT3"; >;
uniform int4 u31 < __UNIFORM_SLIDER_INT4 ui_label = "SLIDER INT4"; >;
uniform float u32 < __UNIFORM_SLIDER_FLOAT1 ui_label = "SLIDER FLOAT1"; >;
uniform float2 u33 < __UNIFORM_SLIDER_FLOAT2 ui_label = "SLIDER FLOAT2"; >;
uniform float3 u34 < __UNIFORM_SLIDER_FLOAT3 ui_label = "SLIDER FLOAT3"; >;
uniform float4 u35 < __UNIFORM_SLIDER_FLOAT4 ui_label = "SLIDER FLOAT4"; >;
uniform bool u36 < __UNIFORM_COMBO_BOOL1 ui_label = "COMBO BOOL1"; >;
uniform bool2 u37 < __UNIFORM_COMBO_BOOL2 ui_label = "COMBO BOOL2"; >;
uniform bool3 u38 < __UNIFORM_COMBO_BOOL3 ui_label = "COMBO BOOL3"; >;
uniform bool4 u39 < __UNIFORM_COMBO_BOOL4 ui_label = "COMBO BOOL4"; >;
uniform int u40 < __UNIFORM_COMBO_INT1 ui_label = "COMBO INT1"; >;
uniform int2 u41 < __UNIFORM_COMBO_INT2 ui_label = "COMBO INT2"; >;
uniform int3 u42 < __UNIFORM_COMBO_INT3 ui_label = "COMBO INT3"; >;
uniform int4 u43 < __UNIFORM_COMBO_INT4 ui_label = "COMBO INT4"; >;
uniform float u44 < __UNIFORM_COMBO_FLOAT1 ui_label = "COMBO FLOAT1"; >;
uniform float2 u45 < __UNIFORM_COMBO_FLOAT2 ui_label = "COMBO FLOAT2"; >;
uniform float3 u46 < __UNIFORM_COMBO_FLOAT3 ui_label = "COMBO FLOAT3"; >;
uniform float4 u47 < __UNIFORM_COMBO_FLOAT4 ui_label = "COMBO FLOAT4"; >;
uniform bool u48 < __UNIFORM_RADIO_BOOL1 ui_label = "RADIO BOOL1"; >;
uniform bool2 u49 < __UNIFORM_RADIO_BOOL2 ui_label = "RADIO BOOL2"; >;
uniform bool3 u50 < __UNIFORM_RADIO_BOOL3 ui_label = "RADIO BOOL3"; >;
uniform bool4 u51 < __UNIFORM_RADIO_BOOL4 ui_label = "RADIO BOOL4"; >;
uniform int u52 < __UNIFORM_RADIO_INT1 ui_label = "RADIO INT1"; >;
uniform int2 u53 < __UNIFORM_RADIO_INT2 ui_label = "RADIO INT2"; >;
uniform int3 u54 < __UNIFORM_RADIO_INT3 ui_label = "RADIO INT3"; >;
uniform int4 u55 < __UNIFORM_RADIO_INT4 ui_label = "RADIO INT4"; >;
uniform float u56 < __UNIFORM_RADIO_FLOAT1 ui_label = "RADIO FLOAT1"; >;
uniform float2 u57 < __UNIFORM_RADIO_FLOAT2 ui_label = "RADIO FLOAT2"; >;
uniform float3 u58 < __UNIFORM_RADIO_FLOAT3 ui_label = "RADIO FLOAT3"; >;
uniform float4 u59 < __UNIFORM_RADIO_FLOAT4 ui_label = "RADIO FLOAT4"; >;
uniform bool u60 < __UNIFORM_COLOR_BOOL1 ui_label = "COLOR BOOL1"; >;
uniform bool2 u61 < __UNIFORM_COLOR_BOOL2 ui_label = "COLOR BOOL2"; >;
uniform bool3 u62 < __UNIFORM_COLOR_BOOL3 ui_label = "COLOR BOOL3"; >;
uniform bool4 u63 < __UNIFORM_COLOR_BOOL4 ui_label = "COLOR BOOL4"; >;
uniform int u64 < __UNIFORM_COLOR_INT1 ui_label = "COLOR INT1"; >;
uniform int2 u65 < __UNIFORM_COLOR_INT2 ui_label = "COLOR INT2"; >;
uniform int3 u66 < __UNIFORM_COLOR_INT3 ui_label = "COLOR INT3"; >;
uniform int4 u67 < __UNIFORM_COLOR_INT4 ui_label = "COLOR INT4"; >;
uniform float u68 < __UNIFORM_COLOR_FLOAT1 ui_label = "COLOR FLOAT1"; >;
uniform float2 u69 < __UNIFORM_COLOR_FLOAT2 ui_label = "COLOR FLOAT2"; >;
uniform float3 u70 < __UNIFORM_COLOR_FLOAT3 ui_label = "COLOR FLOAT3"; >;
uniform float4 u71 < __UNIFORM_COLOR_FLOAT4 ui_label = "COLOR FLOAT4"; >;
uniform bool u72 < __UNIFORM_LIST_BOOL1 ui_label = "LIST BOOL1"; >;
uniform bool2 u73 < __UNIFORM_LIST_BOOL2 ui_label = "LIST BOOL2"; >;
uniform bool3 u74 < __UNIFORM_LIST_BOOL3 ui_label = "LIST BOOL3"; >;
uniform bool4 u75 < __UNIFORM_LIST_BOOL4 ui_label = "LIST BOOL4"; >;
uniform int u76 < __UNIFORM_LIST_INT1 ui_label = "LIST INT1"; >;
uniform int2 u77 < __UNIFORM_LIST_INT2 ui_label = "LIST INT2"; >;
uniform int3 u78 < __UNIFORM_LIST_INT3 ui_label = "LIST INT3"; >;
uniform int4 u79 < __UNIFORM_LIST_INT4 ui_label = "LIST INT4"; >;
uniform float u80 < __UNIFORM_LIST_FLOAT1 ui_label = "LIST FLOAT1"; >;
uniform float2 u81 < __UNIFORM_LIST_FLOAT2 ui_label = "LIST FLOAT2"; >;
uniform float3 u82 < __UNIFORM_LIST_FLOAT3 ui_label = "LIST FLOAT3"; >;
uniform float4 u83 < __UNIFORM_LIST_FLOAT4 ui_label = "LIST FLOAT4"; >;

static const float2 Size = BUFFER_SCREEN_SIZE;
static const float2 Pixel = BUFFER_PIXEL_SIZE;
static const float Aspect = BUFFER_ASPECT_RATIO;

float4 PS_Names(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
	float4 c = tex2D(ReShade::BackBuffer, uv);
	float d = ReShade::GetLinearizedDepth(uv) + tex2D(ReShade::DepthBuffer, uv).x;
	float2 k = ReShade::PixelSize * ReShade::ScreenSize * ReShade::AspectRatio + Size * Pixel * Aspect;
	return c + float4(d, k, u83.x);
}

texture Target { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; };

technique HeaderNames
{
	pass { VertexShader = PostProcessVS; PixelShader = PS_Names; RenderTarget = Target; }
	pass { VertexShader = PostProcessVS; PixelShader = PS_Names; }
}
