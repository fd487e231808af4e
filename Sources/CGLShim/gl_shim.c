#include "gl_shim.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The EGL calls we make, resolved from libEGL.so.1 at run time.
typedef struct {
    void *library;
    PFNEGLGETPROCADDRESSPROC getProcAddress;
    PFNEGLGETDISPLAYPROC getDisplay;
    PFNEGLINITIALIZEPROC initialize;
    PFNEGLTERMINATEPROC terminate;
    PFNEGLQUERYSTRINGPROC queryString;
    PFNEGLBINDAPIPROC bindAPI;
    PFNEGLCHOOSECONFIGPROC chooseConfig;
    PFNEGLCREATECONTEXTPROC createContext;
    PFNEGLDESTROYCONTEXTPROC destroyContext;
    PFNEGLMAKECURRENTPROC makeCurrent;
    PFNEGLGETERRORPROC getError;
} EGLCalls;

// The framebuffer calls only this file makes.
typedef struct {
    PFNGLGENFRAMEBUFFERSPROC genFramebuffers;
    PFNGLBINDFRAMEBUFFERPROC bindFramebuffer;
    PFNGLDELETEFRAMEBUFFERSPROC deleteFramebuffers;
    PFNGLFRAMEBUFFERTEXTURE2DPROC framebufferTexture2D;
    PFNGLCHECKFRAMEBUFFERSTATUSPROC checkFramebufferStatus;
    PFNGLGENTEXTURESPROC genTextures;
    PFNGLBINDTEXTUREPROC bindTexture;
    PFNGLDELETETEXTURESPROC deleteTextures;
    PFNGLTEXIMAGE2DPROC texImage2D;
    PFNGLREADPIXELSPROC readPixels;
    PFNGLFINISHPROC finish;
    PFNGLPIXELSTOREIPROC pixelStorei;
} FramebufferCalls;

struct LPGLContext {
    EGLCalls egl;
    void *gles_library;
    EGLDisplay display;
    EGLContext context;
    LPGLES2 gl;
    FramebufferCalls fb;
    GLuint framebuffer, texture;
    int width, height;
};

static void say(char *error, size_t size, const char *message) {
    if (error && size) snprintf(error, size, "%s", message);
}

static void *resolve(LPGLContext *c, const char *name) {
    void *p = c->egl.getProcAddress ? (void *)c->egl.getProcAddress(name) : NULL;
    if (!p && c->gles_library) p = dlsym(c->gles_library, name);
    return p;
}

#define NEED(lib, field, name) \
    if (!((lib).field = (void *)dlsym(c->egl.library, name))) { say(error, error_size, "libEGL lacks " name); goto fail; }
#define GL(table, field, name) \
    if (!(c->table.field = resolve(c, name))) { say(error, error_size, "GLES 2 lacks " name); goto fail; }

LPGLContext *lp_gl_create(char *error, size_t error_size) {
    const char *off = getenv("LAYERPLAY_NO_EGL");
    if (off && *off && strcmp(off, "0") != 0) { say(error, error_size, "EGL disabled by LAYERPLAY_NO_EGL"); return NULL; }
    LPGLContext *c = calloc(1, sizeof *c);
    if (!c) { say(error, error_size, "out of memory"); return NULL; }
    c->display = EGL_NO_DISPLAY;
    c->context = EGL_NO_CONTEXT;
    c->egl.library = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!c->egl.library) { say(error, error_size, "libEGL.so.1 not found"); goto fail; }
    c->gles_library = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    NEED(c->egl, getProcAddress, "eglGetProcAddress")
    NEED(c->egl, getDisplay, "eglGetDisplay")
    NEED(c->egl, initialize, "eglInitialize")
    NEED(c->egl, terminate, "eglTerminate")
    NEED(c->egl, queryString, "eglQueryString")
    NEED(c->egl, bindAPI, "eglBindAPI")
    NEED(c->egl, chooseConfig, "eglChooseConfig")
    NEED(c->egl, createContext, "eglCreateContext")
    NEED(c->egl, destroyContext, "eglDestroyContext")
    NEED(c->egl, makeCurrent, "eglMakeCurrent")
    NEED(c->egl, getError, "eglGetError")

    // Mesa's surfaceless platform needs no X server, Wayland or DRM device (llvmpipe renders).
    const char *clientExtensions = c->egl.queryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    PFNEGLGETPLATFORMDISPLAYEXTPROC getPlatformDisplay =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)c->egl.getProcAddress("eglGetPlatformDisplayEXT");
    if (getPlatformDisplay && clientExtensions && strstr(clientExtensions, "EGL_MESA_platform_surfaceless"))
        c->display = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (c->display == EGL_NO_DISPLAY) c->display = c->egl.getDisplay(EGL_DEFAULT_DISPLAY);
    if (c->display == EGL_NO_DISPLAY) { say(error, error_size, "no EGL display"); goto fail; }
    if (!c->egl.initialize(c->display, NULL, NULL)) { say(error, error_size, "eglInitialize failed"); c->display = EGL_NO_DISPLAY; goto fail; }
    const char *extensions = c->egl.queryString(c->display, EGL_EXTENSIONS);
    if (!extensions || !strstr(extensions, "EGL_KHR_surfaceless_context")) {
        say(error, error_size, "EGL lacks EGL_KHR_surfaceless_context"); goto fail;
    }
    if (!c->egl.bindAPI(EGL_OPENGL_ES_API)) { say(error, error_size, "eglBindAPI(OpenGL ES) failed"); goto fail; }
    // Surface type 0 matches every config: we never make a surface.
    const EGLint configAttributes[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE };
    EGLConfig config;
    EGLint count = 0;
    if (!c->egl.chooseConfig(c->display, configAttributes, &config, 1, &count) || count < 1) {
        say(error, error_size, "no EGL config for OpenGL ES 2"); goto fail;
    }
    const EGLint contextAttributes[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    c->context = c->egl.createContext(c->display, config, EGL_NO_CONTEXT, contextAttributes);
    if (c->context == EGL_NO_CONTEXT) { say(error, error_size, "eglCreateContext failed"); goto fail; }
    if (!c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, c->context)) {
        say(error, error_size, "eglMakeCurrent (surfaceless) failed"); goto fail;
    }
    GL(gl, clearColor, "glClearColor") GL(gl, clear, "glClear") GL(gl, viewport, "glViewport")
    GL(gl, enable, "glEnable") GL(gl, disable, "glDisable") GL(gl, blendFunc, "glBlendFunc")
    GL(gl, createShader, "glCreateShader") GL(gl, shaderSource, "glShaderSource") GL(gl, compileShader, "glCompileShader")
    GL(gl, getShaderiv, "glGetShaderiv") GL(gl, getShaderInfoLog, "glGetShaderInfoLog") GL(gl, deleteShader, "glDeleteShader")
    GL(gl, createProgram, "glCreateProgram") GL(gl, attachShader, "glAttachShader")
    GL(gl, bindAttribLocation, "glBindAttribLocation") GL(gl, linkProgram, "glLinkProgram")
    GL(gl, getProgramiv, "glGetProgramiv") GL(gl, getProgramInfoLog, "glGetProgramInfoLog")
    GL(gl, useProgram, "glUseProgram") GL(gl, deleteProgram, "glDeleteProgram")
    GL(gl, getUniformLocation, "glGetUniformLocation") GL(gl, uniform1f, "glUniform1f") GL(gl, uniform4f, "glUniform4f")
    GL(gl, vertexAttribPointer, "glVertexAttribPointer") GL(gl, enableVertexAttribArray, "glEnableVertexAttribArray")
    GL(gl, disableVertexAttribArray, "glDisableVertexAttribArray")
    GL(gl, drawArrays, "glDrawArrays") GL(gl, getError, "glGetError")
    GL(fb, genFramebuffers, "glGenFramebuffers") GL(fb, bindFramebuffer, "glBindFramebuffer")
    GL(fb, deleteFramebuffers, "glDeleteFramebuffers") GL(fb, framebufferTexture2D, "glFramebufferTexture2D")
    GL(fb, checkFramebufferStatus, "glCheckFramebufferStatus") GL(fb, genTextures, "glGenTextures")
    GL(fb, bindTexture, "glBindTexture") GL(fb, deleteTextures, "glDeleteTextures") GL(fb, texImage2D, "glTexImage2D")
    GL(fb, readPixels, "glReadPixels") GL(fb, finish, "glFinish") GL(fb, pixelStorei, "glPixelStorei")
    c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return c;
fail:
    lp_gl_destroy(c);
    return NULL;
}

const LPGLES2 *lp_gl_functions(const LPGLContext *c) { return &c->gl; }

int lp_gl_begin(LPGLContext *c, int width, int height, char *error, size_t error_size) {
    if (width < 1 || height < 1 || width > 16384 || height > 16384) { say(error, error_size, "framebuffer size out of range"); return -1; }
    if (!c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, c->context)) {
        say(error, error_size, "eglMakeCurrent failed"); return -1;
    }
    if (!c->framebuffer) {
        c->fb.genFramebuffers(1, &c->framebuffer);
        c->fb.genTextures(1, &c->texture);
    }
    c->fb.bindFramebuffer(GL_FRAMEBUFFER, c->framebuffer);
    if (width != c->width || height != c->height) {
        // A texture, not an RGBA8 renderbuffer: GL_RGBA/UNSIGNED_BYTE colour attachments are core in GLES 2.
        c->fb.bindTexture(GL_TEXTURE_2D, c->texture);
        c->fb.texImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        c->fb.framebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, c->texture, 0);
        c->fb.bindTexture(GL_TEXTURE_2D, 0);
        c->width = width;
        c->height = height;
    }
    if (c->fb.checkFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        c->width = c->height = 0;
        c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        say(error, error_size, "framebuffer incomplete"); return -1;
    }
    c->gl.viewport(0, 0, width, height);
    return 0;
}

int lp_gl_end(LPGLContext *c, int width, int height, uint32_t *bgra, char *error, size_t error_size) {
    int status = 0;
    if (width != c->width || height != c->height || !bgra) { say(error, error_size, "read size differs from the framebuffer"); status = -1; }
    else {
        // The callback may have bound its own framebuffer: read ours.
        c->fb.bindFramebuffer(GL_FRAMEBUFFER, c->framebuffer);
        c->fb.pixelStorei(GL_PACK_ALIGNMENT, 4);
        c->fb.readPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bgra);
        if (c->gl.getError() != GL_NO_ERROR) { say(error, error_size, "glReadPixels failed"); status = -1; }
        else {
            // GL's rows go up from the bottom and its bytes are R, G, B, A: flip the rows and swap R and B.
            for (int top = 0, bottom = height - 1; top <= bottom; top++, bottom--) {
                uint32_t *a = bgra + (size_t)top * width, *b = bgra + (size_t)bottom * width;
                for (int x = 0; x < width; x++) {
                    uint32_t p = a[x], q = b[x];
                    p = (p & 0xff00ff00u) | ((p & 0xffu) << 16) | ((p >> 16) & 0xffu);
                    q = (q & 0xff00ff00u) | ((q & 0xffu) << 16) | ((q >> 16) & 0xffu);
                    if (top == bottom) { a[x] = p; } else { a[x] = q; b[x] = p; }
                }
            }
        }
    }
    c->fb.bindFramebuffer(GL_FRAMEBUFFER, 0);
    c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return status;
}

void lp_gl_destroy(LPGLContext *c) {
    if (!c) return;
    if (c->display != EGL_NO_DISPLAY && c->egl.makeCurrent) {
        if (c->context != EGL_NO_CONTEXT) {
            if (c->framebuffer && c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, c->context)) {
                c->fb.deleteFramebuffers(1, &c->framebuffer);
                c->fb.deleteTextures(1, &c->texture);
                c->egl.makeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            }
            c->egl.destroyContext(c->display, c->context);
        }
        // eglTerminate is left out: the display is shared process-wide and other contexts may still use it.
    }
    // libEGL and libGLESv2 stay loaded (a few handles once per process): Mesa keeps thread-local state and
    // atexit handlers that must not outlive the code a dlclose would unmap.
    free(c);
}
