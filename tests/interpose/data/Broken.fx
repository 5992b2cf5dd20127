// Broken.fx - an effect that does not compile (an undeclared identifier):
// fxgl must log it as skipped and run the preset's other effects.
float4 BrokenPS(float4 position : SV_Position) : SV_Target
{
    return undeclared_value;
}

technique Broken
{
    pass
    {
        PixelShader = BrokenPS;
    }
}
