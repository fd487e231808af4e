import CGLShim

extension GLDrawable {
    /// Compiles a vertex and a fragment shader and links them, binding `attributes` to locations 0, 1, 2… in order.
    /// Call it inside a `draw` callback (the context must be current).
    /// - Throws: `GLError.shader` with the GL info log when a shader does not compile or the program does not link.
    public static func makeProgram(_ gl: Functions, vertex: String, fragment: String, attributes: [String]) throws(GLError) -> GLuint {
        let vs = try compile(gl, GLenum(GL_VERTEX_SHADER), vertex)
        defer { gl.deleteShader(vs) }
        let fs = try compile(gl, GLenum(GL_FRAGMENT_SHADER), fragment)
        defer { gl.deleteShader(fs) }
        let program = gl.createProgram()
        gl.attachShader(program, vs)
        gl.attachShader(program, fs)
        for (i, name) in attributes.enumerated() { gl.bindAttribLocation(program, GLuint(i), name) }
        gl.linkProgram(program)
        var ok: GLint = 0
        gl.getProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        guard ok != 0 else {
            defer { gl.deleteProgram(program) }
            throw failure { gl.getProgramInfoLog(program, $0, nil, $1) }
        }
        return program
    }

    private static func compile(_ gl: Functions, _ kind: GLenum, _ source: String) throws(GLError) -> GLuint {
        let shader = gl.createShader(kind)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            gl.shaderSource(shader, 1, &pointer, nil)
        }
        gl.compileShader(shader)
        var ok: GLint = 0
        gl.getShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        guard ok != 0 else {
            defer { gl.deleteShader(shader) }
            throw failure { gl.getShaderInfoLog(shader, $0, nil, $1) }
        }
        return shader
    }

    /// `GLError.shader` with the info log that `read` (GL's `get…InfoLog`, given the buffer's size and start) writes.
    private static func failure(_ read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> GLError {
        var log = [GLchar](repeating: 0, count: 1024)
        log.withUnsafeMutableBufferPointer { read(GLsizei($0.count), $0.baseAddress!) }
        return .shader(text(log))
    }
}
