/*
 * ip_wgl_app.c - a Windows OpenGL program for the Wine test, built with
 * mingw-w64 (x86_64-w64-mingw32-gcc ... -lopengl32 -lgdi32) and run by
 * Debian's wine64 with fxgl preloaded into the Wine process.
 *
 * A 160x120 window at (0, 0) with a WGL context, cleared to one colour
 * (51, 153, 102) and presented with SwapBuffers every 10 ms for --seconds
 * (default 20) or until closed. Under Wine, the X11 driver reaches
 * glXSwapBuffers only through the glXGetProcAddressARB it looked up with
 * dlsym (reference §9), which is the path fxgl must catch. The test driver
 * reads the X window from outside.
 */
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <GL/gl.h>

static LRESULT CALLBACK wnd_proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp) {
    if (msg == WM_CLOSE || msg == WM_DESTROY) {
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProcA(hwnd, msg, wp, lp);
}

int main(int argc, char **argv) {
    double seconds = argc > 2 && strcmp(argv[1], "--seconds") == 0 ? atof(argv[2]) : 20.0;
    WNDCLASSA wc = {0};
    wc.style = CS_OWNDC;
    wc.lpfnWndProc = wnd_proc;
    wc.hInstance = GetModuleHandleA(NULL);
    wc.lpszClassName = "ip_wgl_app";
    RegisterClassA(&wc);
    // A popup: no frame, so the client area is the whole X window.
    HWND hwnd = CreateWindowExA(0, "ip_wgl_app", "ip_wgl_app", WS_POPUP | WS_VISIBLE, 0, 0,
                                160, 120, NULL, NULL, wc.hInstance, NULL);
    if (!hwnd) {
        return 77;
    }
    HDC hdc = GetDC(hwnd);
    PIXELFORMATDESCRIPTOR pfd = {0};
    pfd.nSize = sizeof(pfd);
    pfd.nVersion = 1;
    pfd.dwFlags = PFD_DRAW_TO_WINDOW | PFD_SUPPORT_OPENGL | PFD_DOUBLEBUFFER;
    pfd.iPixelType = PFD_TYPE_RGBA;
    pfd.cColorBits = 24;
    pfd.cAlphaBits = 8;
    int format = ChoosePixelFormat(hdc, &pfd);
    if (!format || !SetPixelFormat(hdc, format, &pfd)) {
        return 77;
    }
    HGLRC ctx = wglCreateContext(hdc);
    if (!ctx || !wglMakeCurrent(hdc, ctx)) {
        return 77;
    }
    ShowWindow(hwnd, SW_SHOW);
    DWORD end = GetTickCount() + (DWORD)(seconds * 1000);
    MSG msg;
    for (;;) {
        while (PeekMessageA(&msg, NULL, 0, 0, PM_REMOVE)) {
            if (msg.message == WM_QUIT) {
                goto done;
            }
            TranslateMessage(&msg);
            DispatchMessageA(&msg);
        }
        if ((LONG)(GetTickCount() - end) >= 0) {
            break;
        }
        glViewport(0, 0, 160, 120);
        glClearColor(0.2f, 0.6f, 0.4f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        SwapBuffers(hdc);
        Sleep(10);
    }
done:
    wglMakeCurrent(NULL, NULL);
    wglDeleteContext(ctx);
    ReleaseDC(hwnd, hdc);
    DestroyWindow(hwnd);
    return 0;
}
