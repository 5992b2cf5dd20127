// SetBroken.fx - a link of the effect-set test's preset that does not compile (an
// undeclared identifier): it must be reported and left out, never hold the others back.
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
