// Listing 6.14 of "iOS Core Animation: Advanced Techniques" in LayerKit: a DrawableLayer (the counterpart of
// CAEAGLLayer) showing one OpenGL ES frame, a triangle with blue, green and red vertices on black. The GL context is
// surfaceless EGL (Mesa's llvmpipe without a GPU); without EGL (or with LAYERPLAY_NO_EGL=1) the same triangle is
// drawn by the CPU callback, after one warning line. Left: GL (or the CPU fallback); right: always the CPU port.
//
//   swift run Drawable [OUT.png]      (default: out/drawable.png)
import Foundation
import LayerCompositor
import LayerGallery
import LayerGL
import LayerGraphics
import LayerKit

final class ViewController {
    /// The book's `glView`: a 200×200 view.
    let glView = Layer()
    let glLayer = DrawableLayer()

    init(render: @escaping @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool) {
        glView.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        // set up layer
        glLayer.frame = glView.bounds
        glView.addSublayer(glLayer)
        // draw frame (pull: called once, at the first snapshot, as the book draws once in viewDidLoad)
        glLayer.render = render
    }
}

let output = CommandLine.arguments.dropFirst().first ?? "out/drawable.png"
do {
    let gl = ViewController(render: TriangleDrawing.best), cpu = ViewController(render: TriangleDrawing.cpu)
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: 420, height: 200)
    root.backgroundColor = .white
    gl.glView.position = Point(x: 100, y: 100)
    cpu.glView.position = Point(x: 320, y: 100)
    root.addSublayer(gl.glView)
    root.addSublayer(cpu.glView)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Compositor().render(root.snapshot(), width: 420, height: 200).writePNG(to: output)
    print("wrote \(output) (left: \(GLDrawable.shared == nil ? "CPU fallback" : "OpenGL ES"))")
} catch {
    FileHandle.standardError.write(Data("Drawable: error: \(error)\n".utf8))
    exit(1)
}
