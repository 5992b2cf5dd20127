// broken.fx - fails in the preprocessor (written for fxgl's fxc tests).
#if FXC_TEST_FIX
#else
#error "broken on purpose"
#endif
technique T { }
