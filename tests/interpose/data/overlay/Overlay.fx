// Overlay.fx - the editing overlay's test effect (test_overlay_app): three techniques
// whose result at any pixel is known from the order, the enabled set and Red.
//   Fill:  (Red * FXGL_TEST_GAIN, 0, 0) whatever was there (the definition is edited in
//          the overlay: 1.0 unless the preset defines it)
//   Half:  the colour halved
//   Blue:  blue set to 1
#ifndef FXGL_TEST_GAIN
#define FXGL_TEST_GAIN 1.0
#endif

texture2D BackBufferTex : COLOR;
sampler2D BackBuffer { Texture = BackBufferTex; };

uniform float Red < ui_type = "slider"; ui_min = 0.0; ui_max = 1.0; ui_step = 0.1;
    ui_label = "Red level"; ui_category = "Colour"; ui_tooltip = "The red that Fill writes"; > = 0.5;
uniform int Mode < ui_type = "combo"; ui_items = "First\0Second\0Third\0";
    ui_label = "Mode (unused)"; ui_category = "Colour"; > = 0;
uniform bool Flag < ui_label = "A flag (unused)"; ui_category = "More"; ui_category_closed = true; > = false;
uniform float3 Tint < ui_type = "color"; ui_label = "Tint (unused)"; ui_category = "More"; > = float3(1.0, 0.5, 0.25);
uniform float Hidden < hidden = true; > = 1.0;
uniform float Fixed < ui_type = "drag"; noedit = true; ui_units = " px"; > = 3.0;

void FullscreenVS(in uint id : SV_VertexID, out float4 position : SV_Position,
                  out float2 texcoord : TEXCOORD)
{
    texcoord.x = (id == 2) ? 2.0 : 0.0;
    texcoord.y = (id == 1) ? 2.0 : 0.0;
    position = float4(texcoord * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}

float4 FillPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    return float4(Red * FXGL_TEST_GAIN, 0.0, 0.0, 1.0);
}

float4 HalfPS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    return float4(tex2D(BackBuffer, texcoord).rgb * 0.5, 1.0);
}

float4 BluePS(float4 position : SV_Position, float2 texcoord : TEXCOORD) : SV_Target
{
    return float4(tex2D(BackBuffer, texcoord).rg, 1.0, 1.0);
}

technique Fill < ui_label = "Fill with red"; ui_tooltip = "Writes (Red, 0, 0) everywhere"; >
{
    pass { VertexShader = FullscreenVS; PixelShader = FillPS; }
}

technique Half < ui_tooltip = "Halves the colour"; >
{
    pass { VertexShader = FullscreenVS; PixelShader = HalfPS; }
}

technique Blue
{
    pass { VertexShader = FullscreenVS; PixelShader = BluePS; }
}
