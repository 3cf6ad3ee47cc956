#include "textflag.h"

// hidden holds a function value of readEnv: a pointer to its code.
DATA ·readEnvFunc+0(SB)/8, $·readEnv(SB)
GLOBL ·readEnvFunc(SB), RODATA, $8
DATA ·hidden+0(SB)/8, $·readEnvFunc(SB)
GLOBL ·hidden(SB), NOPTR, $8
