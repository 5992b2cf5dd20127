#if __RESHADE__ >= 50000 && __RENDERER__ >= 0x14300 && BUFFER_COLOR_BIT_DEPTH == 8
#if BUFFER_WIDTH > 1000 ? 1 : 0
#ifdef __FXGL__
#else
#endif
#elif 0x7fffffff + 1 < 0 || 010 == 8 || ~0
#endif
#endif
#if 0
it's skipped "text
#if 1
#endif
#endif
