// fxgl_Noise.fxh - integer hashing shared by fxgl's grain and deband effects.
//
// Integer arithmetic gives the same bits on every GPU and in the tests' CPU
// references, unlike the common frac(sin(x) * 43758.5453) hash whose result
// depends on the driver's sin precision.
#pragma once

namespace fxgl_noise
{
	// A well-mixing 32-bit integer hash (xorshift-multiply, two rounds).
	uint Hash(uint x)
	{
		x ^= x >> 16;
		x *= 0x7feb352du;
		x ^= x >> 15;
		x *= 0x846ca68bu;
		x ^= x >> 16;
		return x;
	}

	uint Hash3(uint x, uint y, uint z)
	{
		return Hash(x ^ Hash(y ^ Hash(z)));
	}

	// The top 24 bits as a float in [0, 1): exactly representable, so the
	// conversion has no rounding to disagree about.
	float ToUnit(uint h)
	{
		return float(h >> 8) * (1.0 / 16777216.0);
	}
}
