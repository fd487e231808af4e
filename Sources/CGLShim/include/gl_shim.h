// OpenGL ES 2 through EGL without a display (SEMANTICS-LAYERS.md §8): a surfaceless context rendering into a
// framebuffer object, read back as premultiplied BGRA rows from the top. libEGL and libGLESv2 are opened at run
// time (dlopen), so a machine without them still runs everything else: lp_gl_create then reports why and the
// caller falls back to its CPU path.
#ifndef LAYERPLAY_GL_SHIM_H
#define LAYERPLAY_GL_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <GLES2/gl2.h>

#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#else
#define _Nonnull // Swift imports the entries as non-optional; only clang reads the qualifier
#endif

/// The GLES 2 entry points a drawable's callback may call (resolved through eglGetProcAddress / dlsym).
typedef struct LPGLES2 {
    PFNGLCLEARCOLORPROC _Nonnull clearColor;
    PFNGLCLEARPROC _Nonnull clear;
    PFNGLVIEWPORTPROC _Nonnull viewport;
    PFNGLENABLEPROC _Nonnull enable;
    PFNGLDISABLEPROC _Nonnull disable;
    PFNGLBLENDFUNCPROC _Nonnull blendFunc;
    PFNGLCREATESHADERPROC _Nonnull createShader;
    PFNGLSHADERSOURCEPROC _Nonnull shaderSource;
    PFNGLCOMPILESHADERPROC _Nonnull compileShader;
    PFNGLGETSHADERIVPROC _Nonnull getShaderiv;
    PFNGLGETSHADERINFOLOGPROC _Nonnull getShaderInfoLog;
    PFNGLDELETESHADERPROC _Nonnull deleteShader;
    PFNGLCREATEPROGRAMPROC _Nonnull createProgram;
    PFNGLATTACHSHADERPROC _Nonnull attachShader;
    PFNGLBINDATTRIBLOCATIONPROC _Nonnull bindAttribLocation;
    PFNGLLINKPROGRAMPROC _Nonnull linkProgram;
    PFNGLGETPROGRAMIVPROC _Nonnull getProgramiv;
    PFNGLGETPROGRAMINFOLOGPROC _Nonnull getProgramInfoLog;
    PFNGLUSEPROGRAMPROC _Nonnull useProgram;
    PFNGLDELETEPROGRAMPROC _Nonnull deleteProgram;
    PFNGLGETUNIFORMLOCATIONPROC _Nonnull getUniformLocation;
    PFNGLUNIFORM1FPROC _Nonnull uniform1f;
    PFNGLUNIFORM4FPROC _Nonnull uniform4f;
    PFNGLVERTEXATTRIBPOINTERPROC _Nonnull vertexAttribPointer;
    PFNGLENABLEVERTEXATTRIBARRAYPROC _Nonnull enableVertexAttribArray;
    PFNGLDISABLEVERTEXATTRIBARRAYPROC _Nonnull disableVertexAttribArray;
    PFNGLDRAWARRAYSPROC _Nonnull drawArrays;
    PFNGLGETERRORPROC _Nonnull getError;
} LPGLES2;

typedef struct LPGLContext LPGLContext;

/// A surfaceless GLES 2 context, or NULL with the reason in `error` (no libEGL, no display, LAYERPLAY_NO_EGL=1…).
LPGLContext *lp_gl_create(char *error, size_t error_size);
/// The entry points of `context`.
const LPGLES2 *lp_gl_functions(const LPGLContext *context);
/// Makes the context current on this thread with a `width`×`height` RGBA framebuffer bound and the viewport set.
/// Returns 0 on success, else fills `error`.
int lp_gl_begin(LPGLContext *context, int width, int height, char *error, size_t error_size);
/// Reads the framebuffer into `bgra` (width × height words, rows from the top) and releases the context from this
/// thread. Returns 0 on success.
int lp_gl_end(LPGLContext *context, int width, int height, uint32_t *bgra, char *error, size_t error_size);
void lp_gl_destroy(LPGLContext *context);

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#endif
