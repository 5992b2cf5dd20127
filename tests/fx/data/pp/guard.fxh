#ifndef GUARD_FXH
#define GUARD_FXH
guard_token
#endif
