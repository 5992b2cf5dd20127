// expected.fx - the colour zero_locals.fx must give, written as constants.
float4 VS(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
    return float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}
float4 ExpectedPS(float4 p : SV_Position) : SV_Target {
    return float4(51.0, 102.0, 153.0, 255.0) / 255.0;
}
technique Expected {
    pass { VertexShader = VS; PixelShader = ExpectedPS; }
}
