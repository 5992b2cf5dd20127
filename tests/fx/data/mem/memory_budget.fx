/*
 * memory_budget.fx - a synthetic effect for test_memory (tests/fx): about
 * 33 KB of the kind of code real effects hold (colour maths, blur loops,
 * swizzles, intrinsics, structs, namespaces, annotated uniforms, several
 * techniques), written for this test. The front end must compile it in
 * less than 10 bytes of compiler memory per byte of source read.
 */
#include "memory_budget.fxh"

/*
 * Usage
 * -----
 * The effect has two techniques. "Memory budget: blur" builds a chain of
 * four blurred copies of the frame at half, quarter, eighth and sixteenth
 * resolution; "Memory budget: grade" runs the colour grade on the frame and
 * adds the last blurred copy as a soft glow. Enable both, blur first.
 *
 * Every stage of the grade has its own weight (Param00..Param20). A weight of
 * zero leaves the stage out in practice; the stages still run, which keeps
 * the cost of the effect independent of the settings.
 *
 * Notes on the maths
 * ------------------
 * All grading happens on linear colour. The luma weights are the Rec. 709
 * ones. Stages that mix towards a tinted copy use lerp with a weight that is
 * clamped by saturate where it could leave [0, 1]. The glow is added before
 * the grade, so the grade also shapes the glow.
 *
 * The blur is a separable-looking but square Gaussian: a 5-row kernel whose
 * width grows with the level. It samples the previous level with bilinear
 * filtering, so each level costs about the same on screen.
 *
 * Changelog
 * ---------
 * 1.3  stages reordered so that contrast comes after the tint
 * 1.2  glow strength follows Param00
 * 1.1  vignette
 * 1.0  first version
 */

// Stage 0: how strongly the stage acts; 0 turns it off.
uniform float Param00 < ui_type = "slider"; ui_min = 0.0; ui_max = 3.0; ui_label = "Parameter 0"; ui_tooltip = "Scales stage 0 of the grade."; > = 0.610;
// Stage 1: how strongly the stage acts; 0 turns it off.
uniform float3 Param01 < ui_type = "color"; ui_label = "Tint 1"; > = float3(0.01, 0.88, 0.90);
// Stage 2: how strongly the stage acts; 0 turns it off.
uniform int Param02 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 2"; > = 0;
// Stage 3: how strongly the stage acts; 0 turns it off.
uniform float Param03 < ui_type = "slider"; ui_min = 0.0; ui_max = 9.0; ui_label = "Parameter 3"; ui_tooltip = "Scales stage 3 of the grade."; > = 0.236;
// Stage 4: how strongly the stage acts; 0 turns it off.
uniform float3 Param04 < ui_type = "color"; ui_label = "Tint 4"; > = float3(0.30, 0.56, 0.85);
// Stage 5: how strongly the stage acts; 0 turns it off.
uniform int Param05 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 5"; > = 2;
// Stage 6: how strongly the stage acts; 0 turns it off.
uniform float Param06 < ui_type = "slider"; ui_min = 0.0; ui_max = 3.0; ui_label = "Parameter 6"; ui_tooltip = "Scales stage 6 of the grade."; > = 0.155;
// Stage 7: how strongly the stage acts; 0 turns it off.
uniform float3 Param07 < ui_type = "color"; ui_label = "Tint 7"; > = float3(0.56, 0.69, 0.31);
// Stage 8: how strongly the stage acts; 0 turns it off.
uniform int Param08 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 8"; > = 2;
// Stage 9: how strongly the stage acts; 0 turns it off.
uniform float Param09 < ui_type = "slider"; ui_min = 0.0; ui_max = 6.0; ui_label = "Parameter 9"; ui_tooltip = "Scales stage 9 of the grade."; > = 0.498;
// Stage 10: how strongly the stage acts; 0 turns it off.
uniform float3 Param10 < ui_type = "color"; ui_label = "Tint 10"; > = float3(0.22, 0.68, 0.29);
// Stage 11: how strongly the stage acts; 0 turns it off.
uniform int Param11 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 11"; > = 0;
// Stage 12: how strongly the stage acts; 0 turns it off.
uniform float Param12 < ui_type = "slider"; ui_min = 0.0; ui_max = 7.0; ui_label = "Parameter 12"; ui_tooltip = "Scales stage 12 of the grade."; > = 0.546;
// Stage 13: how strongly the stage acts; 0 turns it off.
uniform float3 Param13 < ui_type = "color"; ui_label = "Tint 13"; > = float3(0.64, 0.85, 0.38);
// Stage 14: how strongly the stage acts; 0 turns it off.
uniform int Param14 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 14"; > = 0;
// Stage 15: how strongly the stage acts; 0 turns it off.
uniform float Param15 < ui_type = "slider"; ui_min = 0.0; ui_max = 6.0; ui_label = "Parameter 15"; ui_tooltip = "Scales stage 15 of the grade."; > = 0.200;
// Stage 16: how strongly the stage acts; 0 turns it off.
uniform float3 Param16 < ui_type = "color"; ui_label = "Tint 16"; > = float3(0.79, 0.47, 0.20);
// Stage 17: how strongly the stage acts; 0 turns it off.
uniform int Param17 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 17"; > = 1;
// Stage 18: how strongly the stage acts; 0 turns it off.
uniform float Param18 < ui_type = "slider"; ui_min = 0.0; ui_max = 4.0; ui_label = "Parameter 18"; ui_tooltip = "Scales stage 18 of the grade."; > = 0.949;
// Stage 19: how strongly the stage acts; 0 turns it off.
uniform float3 Param19 < ui_type = "color"; ui_label = "Tint 19"; > = float3(0.10, 0.72, 0.27);
// Stage 20: how strongly the stage acts; 0 turns it off.
uniform int Param20 < ui_type = "combo"; ui_items = "Off\0Soft\0Hard\0"; ui_label = "Mode 20"; > = 1;
// Stage 21: how strongly the stage acts; 0 turns it off.
uniform bool Param21 < ui_label = "Enable stage 21"; > = true;
// Stage 22: how strongly the stage acts; 0 turns it off.
uniform float2 Param22 < ui_type = "drag"; ui_min = -1.0; ui_max = 1.0; ui_label = "Offset 22"; > = float2(0.80, 0.28);
// Stage 23: how strongly the stage acts; 0 turns it off.
uniform bool Param23 < ui_label = "Enable stage 23"; > = true;
uniform float Timer < source = "timer"; >;
uniform int FrameCount < source = "framecount"; >;

texture StageTex0 { Width = BUFFER_WIDTH / 1; Height = BUFFER_HEIGHT / 1; Format = RGBA16F; };
sampler StageSampler0 { Texture = StageTex0; AddressU = CLAMP; AddressV = CLAMP; MinFilter = LINEAR; MagFilter = LINEAR; };
texture StageTex1 { Width = BUFFER_WIDTH / 2; Height = BUFFER_HEIGHT / 2; Format = RGBA16F; };
sampler StageSampler1 { Texture = StageTex1; AddressU = CLAMP; AddressV = CLAMP; MinFilter = LINEAR; MagFilter = LINEAR; };
texture StageTex2 { Width = BUFFER_WIDTH / 4; Height = BUFFER_HEIGHT / 4; Format = RGBA16F; };
sampler StageSampler2 { Texture = StageTex2; AddressU = CLAMP; AddressV = CLAMP; MinFilter = LINEAR; MagFilter = LINEAR; };
texture StageTex3 { Width = BUFFER_WIDTH / 8; Height = BUFFER_HEIGHT / 8; Format = RGBA16F; };
sampler StageSampler3 { Texture = StageTex3; AddressU = CLAMP; AddressV = CLAMP; MinFilter = LINEAR; MagFilter = LINEAR; };

struct GradeState
{
    float3 color;
    float luma;
    float2 uv;
    float weight;
};

namespace Grade
{
static const float3 LumaWeights = float3(0.2126, 0.7152, 0.0722);
// Stage00: the gain step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage00(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.274 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = lerp(tinted, color.zyx * tinted.y, dot(float3(0.425, 0.453, 0.531), Param19.xxx));
    tinted = max(color, 0.11);
    tinted.y += Param00;
    color.x += 0.2659;
    highlights = float3(0.636, 0.405, 0.718) * 0.7033;
    return sqrt(color);
}

// Stage01: the shadow recovery step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage01(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.342 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = tinted;
    tinted.x += dot(color, LumaWeights);
    highlights = max(highlights.xxy, 0.25) * weight;
    highlights = highlights.xxy;
    color = lerp(abs(highlights.xxy), tinted.yzx, cos(0.3672));
    color = highlights.xxy;
    return lerp(color.zyx, lerp(Param10.xxx, tinted.yzx, Param03), state.luma);
}

// Stage02: the shadow recovery step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage02(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.290 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = lerp(color, float3(0.570, 0.769, 0.272), dot(float3(0.167, 0.442, 0.063), highlights));
    if (dot(color, max(Param04.xxx, 0.70)) > 0.06)
        tinted = lerp(tinted, state.color, color.x) * state.weight;
    else
        highlights *= dot(tinted, tinted.yzx);
    color.x += Param00;
    highlights.x += dot(color, LumaWeights);
    [unroll] for (int i = 0; i < 4; i++)
    {
        tinted += lerp(float3(0.824, 0.485, 0.029), tinted.yzx, state.luma) * (i + 1);
        weight = weight * 0.940 + state.luma;
    }
    if (state.luma > 0.94)
        color = Param04.xxx;
    else
        tinted *= dot(state.color, exp2(state.color));
    return state.color;
}

// Stage03: the highlight roll-off step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage03(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 1.000 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = color.zyx;
    if (color.x > 0.62)
        tinted = highlights.xxy;
    else
        highlights *= highlights.z;
    if (highlights.z > 0.64)
        highlights = state.color;
    else
        color *= color.x;
    if (sqrt(tinted.y) > 0.84)
        highlights = highlights.xxy;
    else
        tinted *= weight;
    highlights = highlights;
    highlights = Param10.xxx;
    tinted = saturate(max(tinted.yzx, 0.24));
    return saturate(color) * sin(weight);
}

// Stage04: the gain step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage04(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.632 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = tinted;
    highlights = color;
    if (tinted.y > 0.43)
        color = tinted;
    else
        color *= weight;
    weight = dot(tinted.yzx * color.x, lerp(highlights.xxy, tinted, color.x));
    weight = dot(color.zyx, log2(color));
    return color;
}

// Stage05: the split toning step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage05(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.252 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = highlights;
    color = color.zyx;
    tinted = lerp(state.color, tinted, state.luma);
    highlights = highlights.xxy;
    tinted = tinted.yzx;
    highlights.y += Param00;
    color = color;
    color = lerp(color.zyx, color, Param00);
    return state.color;
}

// Stage06: the hue shift step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage06(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.923 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = saturate(highlights.xxy) * state.luma;
    [unroll] for (int i = 0; i < 3; i++)
    {
        tinted += state.color * (i + 1);
        weight = weight * 0.995 + dot(tinted, tinted.yzx * Param00);
    }
    if (weight > 0.76)
        tinted = lerp(tinted, lerp(state.color, color.zyx, highlights.z), sin(Param00));
    else
        highlights *= tinted.y;
    tinted = Param01.xxx;
    [unroll] for (int i = 0; i < 6; i++)
    {
        tinted += highlights * (i + 1);
        weight = weight * 0.867 + dot(lerp(Param13.xxx, tinted.yzx, state.luma), color.zyx);
    }
    return highlights;
}

// Stage07: the hue shift step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage07(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.540 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = state.color;
    highlights.x += dot(highlights, color);
    tinted = highlights;
    weight = highlights.z;
    highlights = lerp(highlights, tinted, Param03);
    weight = 0.2458;
    highlights.x += Param03;
    weight = dot(tinted, Param19.xxx);
    return state.color;
}

// Stage08: the split toning step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage08(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.654 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = color;
    weight = 0.9259;
    [unroll] for (int i = 0; i < 3; i++)
    {
        tinted += color.zyx * (i + 1);
        weight = weight * 0.783 + state.weight;
    }
    highlights = lerp(lerp(tinted, color, tinted.y), state.color, cos(highlights.z));
    color = color.zyx;
    return tinted.yzx;
}

// Stage09: the split toning step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage09(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.939 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = max(tinted.yzx, 0.03);
    highlights = state.color;
    [unroll] for (int i = 0; i < 4; i++)
    {
        tinted += frac(color.zyx) * (i + 1);
        weight = weight * 0.468 + weight;
    }
    tinted.z += saturate(0.3801);
    tinted = lerp(highlights.xxy, tinted.yzx * Param00, cos(color.x));
    tinted.z += dot(color, LumaWeights);
    tinted = max(tinted, 0.92) * color.x;
    highlights.x += Param03;
    return float3(0.625, 0.223, 0.820);
}

// Stage10: the highlight roll-off step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage10(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.158 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = float3(0.357, 0.914, 0.617);
    tinted = lerp(state.color * state.luma, tinted.yzx, highlights.z);
    color.y += Param00;
    color = float3(0.837, 0.464, 0.689);
    color = lerp(color.zyx, tinted.yzx, weight) * state.weight;
    highlights = color;
    return tinted;
}

// Stage11: the gain step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage11(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.698 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = color;
    weight = state.luma;
    if (tinted.y > 0.09)
        highlights = sqrt(Param13.xxx);
    else
        color *= state.luma;
    if (sqrt(Param00) > 0.54)
        tinted = color;
    else
        highlights *= abs(weight);
    color = float3(0.935, 0.791, 0.333);
    if (Param03 > 0.45)
        color = lerp(tinted, color, dot(color.zyx, highlights));
    else
        highlights *= state.weight;
    highlights = highlights;
    return highlights.xxy * sin(0.2609);
}

// Stage12: the hue shift step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage12(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.161 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = tinted * Param00;
    [unroll] for (int i = 0; i < 4; i++)
    {
        tinted += highlights * (i + 1);
        weight = weight * 0.427 + Param03;
    }
    tinted.x += color.x;
    highlights = float3(0.577, 0.612, 0.607);
    if (dot(color, LumaWeights) > 0.06)
        tinted = max(color * Param00, 0.80);
    else
        tinted *= Param03;
    tinted.y += Param03;
    if (saturate(dot(float3(0.872, 0.127, 0.864), color)) > 0.46)
        color = Param16.xxx;
    else
        tinted *= dot(color, LumaWeights);
    color = float3(0.103, 0.033, 0.578);
    return highlights.xxy;
}

// Stage13: the filmic curve step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage13(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.268 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = Param22.xxx;
    weight = dot(tinted.yzx, color.zyx);
    color = highlights.xxy;
    tinted.y += state.luma;
    highlights = Param10.xxx;
    tinted = color.zyx;
    highlights = state.color;
    return lerp(tinted, tinted, tinted.y);
}

// Stage14: the highlight roll-off step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage14(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.243 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = float3(0.583, 0.009, 0.908);
    highlights = lerp(lerp(color.zyx, highlights, state.weight), max(color, 0.38), state.weight);
    tinted = sqrt(highlights);
    weight = state.weight;
    tinted = color;
    weight = state.luma;
    tinted = tinted.yzx * Param03;
    return Param13.xxx;
}

// Stage15: the highlight roll-off step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage15(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.669 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = tinted.yzx;
    weight = dot(frac(float3(0.125, 0.304, 0.011)), highlights.xxy);
    highlights = tinted;
    color = color.zyx;
    weight = Param00;
    return max(exp2(Param10.xxx), 0.20);
}

// Stage16: the vibrance step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage16(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.548 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = lerp(tinted.yzx, tinted, state.weight);
    tinted = lerp(tinted.yzx, lerp(tinted, color.zyx, highlights.z), dot(state.color, color));
    [unroll] for (int i = 0; i < 2; i++)
    {
        tinted += float3(0.625, 0.099, 0.049) * (i + 1);
        weight = weight * 0.456 + weight;
    }
    if (state.luma > 0.53)
        tinted = lerp(state.color, highlights, dot(highlights.xxy, highlights.xxy));
    else
        color *= Param00;
    if (tinted.y > 0.82)
        tinted = normalize(saturate(color.zyx));
    else
        highlights *= abs(tinted.y);
    if (saturate(highlights.z) > 0.37)
        color = color.zyx;
    else
        highlights *= dot(tinted.yzx, highlights.xxy);
    color = max(color * weight, 0.79);
    [unroll] for (int i = 0; i < 3; i++)
    {
        tinted += max(lerp(state.color, highlights, 0.7155), 0.16) * (i + 1);
        weight = weight * 0.336 + dot(Param04.xxx, color.zyx);
    }
    return color.zyx;
}

// Stage17: the tint step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage17(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.694 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = exp2(color);
    tinted = color;
    color = float3(0.390, 0.912, 0.012);
    color.y += 0.4082;
    weight = dot(Param19.xxx, max(color, 0.46));
    tinted = max(state.color, 0.60);
    weight = dot(color * highlights.z, Param22.xxx);
    weight = abs(Param00);
    return lerp(max(float3(0.715, 0.014, 0.378), 0.17), highlights.xxy * state.luma, saturate(color.x));
}

// Stage18: the highlight roll-off step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage18(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.773 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = max(lerp(Param19.xxx, tinted.yzx, 0.6009), 0.71);
    if (dot(frac(highlights), color.zyx * weight) > 0.38)
        color = max(Param22.xxx, 0.49);
    else
        tinted *= color.x;
    if (dot(tinted, lerp(color.zyx, highlights, Param00)) > 0.10)
        highlights = tinted.yzx;
    else
        highlights *= dot(color, LumaWeights);
    color.z += Param03;
    highlights = Param22.xxx;
    highlights.y += weight;
    highlights.z += dot(lerp(state.color, state.color, color.x), max(color.zyx, 0.13));
    return highlights;
}

// Stage19: the gamma step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage19(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.768 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = highlights;
    highlights = lerp(highlights.xxy, lerp(highlights, Param10.xxx, highlights.z), 0.9095);
    [unroll] for (int i = 0; i < 4; i++)
    {
        tinted += highlights.xxy * (i + 1);
        weight = weight * 0.565 + 0.6009;
    }
    tinted = highlights.xxy;
    color = color;
    color.x += state.weight;
    return float3(0.947, 0.728, 0.302);
}

// Stage20: the gain step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage20(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.461 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = color.zyx;
    weight = sin(state.weight);
    tinted.y += frac(dot(tinted, tinted));
    highlights = color;
    weight = highlights.z;
    tinted = max(tinted, 0.55);
    if (state.luma > 0.42)
        color = state.color;
    else
        tinted *= dot(color * state.luma, state.color);
    return tinted.yzx;
}

// Stage21: the saturation step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage21(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.330 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = Param01.xxx;
    highlights.y += frac(Param00);
    highlights.z += weight;
    weight = sqrt(tinted.y);
    highlights = tinted.yzx;
    tinted = lerp(tinted, color.zyx, abs(weight));
    [unroll] for (int i = 0; i < 2; i++)
    {
        tinted += state.color * (i + 1);
        weight = weight * 0.957 + 0.1146;
    }
    color = tinted;
    return tinted.yzx;
}

// Stage22: the tint step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage22(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.629 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = lerp(max(float3(0.698, 0.599, 0.471), 0.29), Param01.xxx, tinted.y);
    weight = highlights.z;
    weight = dot(float3(0.102, 0.138, 0.150), tinted);
    color = tinted;
    if (tinted.y > 0.78)
        color = frac(tinted) * frac(0.7573);
    else
        highlights *= color.x;
    [unroll] for (int i = 0; i < 4; i++)
    {
        tinted += highlights * (i + 1);
        weight = weight * 0.143 + 0.7956;
    }
    highlights.y += sin(dot(color, LumaWeights));
    return log2(color.zyx) * dot(Param01.xxx, color.zyx);
}

// Stage23: the shadow recovery step of the grade. It works on linear colour,
// blends towards a tinted copy by the stage weight and keeps the result
// in range; the constants were tuned by eye on a test chart. Param
// values come from the user interface, so every term must stay finite
// for the whole slider range (no division by a value that can be zero).
float3 Stage23(float3 color, float weight, GradeState state)
{
    float3 tinted = color * 0.512 + state.color.zxy;
    float3 highlights = color.yzx;
    highlights = color.zyx;
    tinted = color.zyx;
    color = state.color;
    highlights.x += Param03;
    weight = dot(color.zyx, float3(0.381, 0.319, 0.257));
    return max(Param19.xxx, 0.85);
}

}

float3 ApplyGrade(float3 c, float2 uv)
{
    GradeState s;
    s.color = c;
    s.luma = dot(c, Grade::LumaWeights);
    s.uv = uv;
    s.weight = 1.0;
    float w = 0.5;
    c = Grade::Stage00(c, w, s);
    c = Grade::Stage01(c, w, s);
    c = Grade::Stage02(c, w, s);
    c = Grade::Stage03(c, w, s);
    c = Grade::Stage04(c, w, s);
    s.color = lerp(s.color, c, 0.37);
    c = Grade::Stage05(c, w, s);
    c = Grade::Stage06(c, w, s);
    c = Grade::Stage07(c, w, s);
    c = Grade::Stage08(c, w, s);
    c = Grade::Stage09(c, w, s);
    s.color = lerp(s.color, c, 0.51);
    c = Grade::Stage10(c, w, s);
    c = Grade::Stage11(c, w, s);
    c = Grade::Stage12(c, w, s);
    c = Grade::Stage13(c, w, s);
    c = Grade::Stage14(c, w, s);
    s.color = lerp(s.color, c, 0.72);
    c = Grade::Stage15(c, w, s);
    c = Grade::Stage16(c, w, s);
    c = Grade::Stage17(c, w, s);
    c = Grade::Stage18(c, w, s);
    c = Grade::Stage19(c, w, s);
    s.color = lerp(s.color, c, 0.96);
    c = Grade::Stage20(c, w, s);
    c = Grade::Stage21(c, w, s);
    c = Grade::Stage22(c, w, s);
    c = Grade::Stage23(c, w, s);
    return saturate(c);
}

float4 BlurPS0(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 sum = 0.0;
    float total = 0.0;
    [loop] for (int x = -2; x <= 2; x++)
    {
        [unroll] for (int y = -2; y <= 2; y++)
        {
            float2 o = float2(x, y) * BUFFER_PIXEL_SIZE * 1;
            float g = exp(-(x * x + y * y) / (2.0 * Param00 + 1.0));
            sum += tex2Dlod(ReShade::BackBuffer, float4(uv + o, 0, 0)).rgb * g;
            total += g;
        }
    }
    return float4(sum / max(total, 1e-5), 1.0);
}

float4 BlurPS1(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 sum = 0.0;
    float total = 0.0;
    [loop] for (int x = -3; x <= 3; x++)
    {
        [unroll] for (int y = -2; y <= 2; y++)
        {
            float2 o = float2(x, y) * BUFFER_PIXEL_SIZE * 2;
            float g = exp(-(x * x + y * y) / (4.0 * Param00 + 1.0));
            sum += tex2Dlod(StageSampler0, float4(uv + o, 0, 0)).rgb * g;
            total += g;
        }
    }
    return float4(sum / max(total, 1e-5), 1.0);
}

float4 BlurPS2(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 sum = 0.0;
    float total = 0.0;
    [loop] for (int x = -4; x <= 4; x++)
    {
        [unroll] for (int y = -2; y <= 2; y++)
        {
            float2 o = float2(x, y) * BUFFER_PIXEL_SIZE * 4;
            float g = exp(-(x * x + y * y) / (6.0 * Param00 + 1.0));
            sum += tex2Dlod(StageSampler1, float4(uv + o, 0, 0)).rgb * g;
            total += g;
        }
    }
    return float4(sum / max(total, 1e-5), 1.0);
}

float4 BlurPS3(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 sum = 0.0;
    float total = 0.0;
    [loop] for (int x = -5; x <= 5; x++)
    {
        [unroll] for (int y = -2; y <= 2; y++)
        {
            float2 o = float2(x, y) * BUFFER_PIXEL_SIZE * 8;
            float g = exp(-(x * x + y * y) / (8.0 * Param00 + 1.0));
            sum += tex2Dlod(StageSampler2, float4(uv + o, 0, 0)).rgb * g;
            total += g;
        }
    }
    return float4(sum / max(total, 1e-5), 1.0);
}

float4 GradePS(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float3 c = tex2D(ReShade::BackBuffer, uv).rgb;
    float3 bloom = tex2D(StageSampler3, uv).rgb;
    c = ApplyGrade(c + bloom * Param00, uv);
    float vignette = 1.0 - dot(uv - 0.5, uv - 0.5) * Param03 * 2.0;
    return float4(c * vignette, 1.0);
}

technique MemoryBudgetBlur < ui_label = "Memory budget: blur"; >
{
    pass Down0 { VertexShader = PostProcessVS; PixelShader = BlurPS0; RenderTarget = StageTex0; }
    pass Down1 { VertexShader = PostProcessVS; PixelShader = BlurPS1; RenderTarget = StageTex1; }
    pass Down2 { VertexShader = PostProcessVS; PixelShader = BlurPS2; RenderTarget = StageTex2; }
    pass Down3 { VertexShader = PostProcessVS; PixelShader = BlurPS3; RenderTarget = StageTex3; }
}

technique MemoryBudgetGrade < ui_label = "Memory budget: grade"; >
{
    pass Grade { VertexShader = PostProcessVS; PixelShader = GradePS; }
}
