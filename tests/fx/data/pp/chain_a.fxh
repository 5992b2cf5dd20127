// chain_a
#include "chain_b.fxh"
