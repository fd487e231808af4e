import LayerGL
import LayerGraphics
import LayerKit

/// The book's OpenGL triangle (listing 6.14): black clear, then one triangle (−0.5,−0.5), (0,0.5), (0.5,−0.5) in
/// normalised device coordinates (y up) with blue, green and red vertices, its colours interpolated across it.
/// Drawn with OpenGL ES when EGL is there (`gl`), else on the CPU (`cpu`); the two agree within 1 per channel
/// inside the triangle.
public enum TriangleDrawing {
    /// The vertices in normalised device coordinates and their colours (r, g, b, a), as the listing gives them.
    static let vertices: [(x: Double, y: Double)] = [(-0.5, -0.5), (0, 0.5), (0.5, -0.5)]
    static let colors: [(Double, Double, Double, Double)] = [(0, 0, 1, 1), (0, 1, 0, 1), (1, 0, 0, 1)]

    /// The triangle rasterised on the CPU, sampled at pixel centres as GL does, colours interpolated with the
    /// barycentric weights (what GL's varyings do for a flat triangle).
    public static let cpu: @Sendable (inout DrawableTarget, DrawableFrame) -> Bool = { target, frame in
        let w = Double(target.width), h = Double(target.height)
        // NDC to buffer pixels, y down.
        let p = vertices.map { (x: ($0.x + 1) / 2 * w, y: (1 - $0.y) / 2 * h) }
        let area = edge(p[0], p[1], p[2])
        let black = PremultipliedColor(r: 0, g: 0, b: 0, a: 255).bgra
        let width = target.width, height = target.height
        let r = colors.map { $0.0 }, g = colors.map { $0.1 }, b = colors.map { $0.2 }
        target.withUnsafeMutablePixels { pixels in
            pixels.update(repeating: black)
            guard area != 0 else { return }
            for y in 0..<height {
                for x in 0..<width {
                    let c = (x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let w0 = edge(p[1], p[2], c) / area, w1 = edge(p[2], p[0], c) / area, w2 = edge(p[0], p[1], c) / area
                    guard w0 >= 0, w1 >= 0, w2 >= 0 else { continue }
                    // GL's conversion of a colour to 8 bits: round(f · 255).
                    func channel(_ v: [Double]) -> UInt8 { UInt8(min(max((w0 * v[0] + w1 * v[1] + w2 * v[2]) * 255, 0), 255).rounded()) }
                    pixels[y * width + x] = PremultipliedColor(r: channel(r), g: channel(g), b: channel(b), a: 255).bgra
                }
            }
        }
        return true
    }

    /// Twice the signed area of (a, b, c): the edge function of a → b at c.
    private static func edge(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    static let vertexShader = """
        attribute vec2 position;
        attribute vec4 color;
        varying vec4 vColor;
        void main() { vColor = color; gl_Position = vec4(position, 0.0, 1.0); }
        """
    static let fragmentShader = """
        precision mediump float;
        varying vec4 vColor;
        void main() { gl_FragColor = vColor; }
        """

    /// The listing's GL calls, for `GLDrawable.renderCallback`.
    public static let gl: @Sendable (GLDrawable.Functions, DrawableFrame) throws -> Bool = { gl, _ in
        gl.clearColor(0, 0, 0, 1)
        gl.clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let program = try GLDrawable.makeProgram(gl, vertex: vertexShader, fragment: fragmentShader, attributes: ["position", "color"])
        defer { gl.deleteProgram(program) }
        gl.useProgram(program)
        let positions: [GLfloat] = vertices.flatMap { [GLfloat($0.x), GLfloat($0.y)] }
        let rgba: [GLfloat] = colors.flatMap { [GLfloat($0.0), GLfloat($0.1), GLfloat($0.2), GLfloat($0.3)] }
        positions.withUnsafeBufferPointer { pos in
            rgba.withUnsafeBufferPointer { col in
                gl.enableVertexAttribArray(0)
                gl.enableVertexAttribArray(1)
                gl.vertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, pos.baseAddress)
                gl.vertexAttribPointer(1, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, col.baseAddress)
                gl.drawArrays(GLenum(GL_TRIANGLES), 0, 3)
                gl.disableVertexAttribArray(0)
                gl.disableVertexAttribArray(1)
            }
        }
        gl.useProgram(0)
        return true
    }

    /// The GL drawing when OpenGL ES is available (`GLDrawable.shared`), else the CPU one.
    public static var best: @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool {
        if let context = GLDrawable.shared { return context.renderCallback(gl) }
        return cpu
    }
}

/// Figure 6.15: listing 6.14, a CAEAGLLayer showing one OpenGL ES frame: a triangle with blue, green and red
/// vertices on black, drawn once (`isAsynchronous` false). GL where EGL is available, else the CPU port, which the
/// golden's tolerance accepts as the same picture.
let openGLTriangleFigure = Figure(name: "6.15-opengl-triangle", title: "Listing 6.14: a triangle drawn with OpenGL ES into a DrawableLayer",
                                  width: 200, height: 200) { _ in
    let glView = Layer()
    // set up layer
    let glLayer = DrawableLayer()
    glLayer.frame = Rect(x: 0, y: 0, width: 200, height: 200)
    glView.addSublayer(glLayer)
    // draw frame
    glLayer.render = TriangleDrawing.best
    return glView
}
