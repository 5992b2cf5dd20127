// Broken.fx - does not compile (test_render.sh checks that it is reported and skipped).
float4 PS(float4 pos : SV_Position) : SV_Target { return undefined_name; }
technique Broken { pass { VertexShader = PS; PixelShader = PS; } }
