/*
 * ip_sdl_app.c - an SDL2 program that loads GL the way SDL2 games do: SDL
 * dlopens libGL itself (SDL_GL_LoadLibrary) and finds glXSwapBuffers with
 * dlsym on that handle; the program links no GL library. It clears its
 * 160x120 window to a known colour every frame for --seconds (default 60)
 * or until killed; the test driver reads the window from outside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

typedef void (*clear_color_fn)(float, float, float, float);
typedef void (*clear_fn)(unsigned int);

int main(int argc, char **argv) {
    // Long enough for a loaded machine; the watching test ends it once it has seen enough.
    double seconds = argc > 2 && strcmp(argv[1], "--seconds") == 0 ? atof(argv[2]) : 60.0;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        printf("SKIP: SDL_Init: %s\n", SDL_GetError());
        return 77;
    }
    if (SDL_GL_LoadLibrary(NULL) != 0) {
        printf("SKIP: SDL_GL_LoadLibrary: %s\n", SDL_GetError());
        return 77;
    }
    SDL_Window *win = SDL_CreateWindow("ip_sdl_app", 0, 0, 160, 120, SDL_WINDOW_OPENGL);
    SDL_GLContext ctx = win ? SDL_GL_CreateContext(win) : NULL;
    if (!ctx) {
        printf("SKIP: no SDL GL window: %s\n", SDL_GetError());
        return 77;
    }
    clear_color_fn clear_color = (clear_color_fn)SDL_GL_GetProcAddress("glClearColor");
    clear_fn clear = (clear_fn)SDL_GL_GetProcAddress("glClear");
    if (!clear_color || !clear) {
        printf("FAIL: no glClear\n");
        return 1;
    }
    Uint32 end = SDL_GetTicks() + (Uint32)(seconds * 1000);
    while (!SDL_TICKS_PASSED(SDL_GetTicks(), end)) {
        SDL_Event ev;
        while (SDL_PollEvent(&ev)) {
            if (ev.type == SDL_QUIT) {
                end = SDL_GetTicks();
            }
        }
        clear_color(0.2f, 0.6f, 0.4f, 1.0f);
        clear(0x4000); // GL_COLOR_BUFFER_BIT
        SDL_GL_SwapWindow(win);
        SDL_Delay(10);
    }
    SDL_GL_DeleteContext(ctx);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return 0;
}
