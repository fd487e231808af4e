import Foundation
import LayerCompositor
import LayerGallery
import LayerGL
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §8, "later, EGL/OpenGL ES": the book's triangle through surfaceless EGL (Mesa's llvmpipe here),
// its pixels, its agreement with the CPU port, and what happens without EGL. Serialized: one test sets
// LAYERPLAY_NO_EGL for the process while it runs. The Makefile installs EGL, so these fail (not skip) without it,
// unless LAYERPLAY_NO_EGL is set for the whole run.

/// The triangle of `render` in a `size`×`size` drawable, as the snapshot carries it.
private func triangle(_ size: Double, _ render: @escaping @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool) -> Image? {
    let root = Layer()
    root.frame = Rect(x: 0, y: 0, width: size, height: size)
    let layer = DrawableLayer()
    layer.frame = root.bounds
    layer.render = render
    root.addSublayer(layer)
    guard case .image(let image)? = root.snapshot(at: 0).sublayers.first?.contents else { return nil }
    return image
}

/// How far (in pixels) the pixel centre (x, y) lies inside the triangle of a `w`×`h` buffer (negative: outside).
private func depthInside(x: Int, y: Int, w: Double, h: Double) -> Double {
    let p = [(0.25 * w, 0.75 * h), (0.5 * w, 0.25 * h), (0.75 * w, 0.75 * h)] // the listing's NDC vertices, y down
    let c = (Double(x) + 0.5, Double(y) + 0.5)
    var depth = Double.infinity
    for i in 0..<3 {
        let a = p[i], b = p[(i + 1) % 3]
        let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
        // The vertices run clockwise on screen (y down), so inside is where this is positive.
        depth = min(depth, ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)) / length)
    }
    return depth
}

private let eglExpected = ProcessInfo.processInfo.environment["LAYERPLAY_NO_EGL"] == nil

@Suite("GL drawable", .serialized)
struct DrawableGLTests {
    @Test(.enabled(if: eglExpected)) func glTriangleHasTheMixedCentreAndEmptyCorners() throws {
        let gl = try GLDrawable()
        let image = try #require(triangle(200, gl.renderCallback(TriangleDrawing.gl)))
        #expect(image.width == 200 && image.height == 200)
        let centroid = image.pixel(x: 100, y: 116) // (50,150), (100,50), (150,150): a third of each colour
        for channel in [centroid.r, centroid.g, centroid.b] { #expect(abs(Int(channel) - 85) <= 2, "\(centroid)") }
        for (x, y) in [(0, 0), (199, 0), (0, 199), (199, 199), (100, 20)] {
            #expect(image.pixel(x: x, y: y) == PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "(\(x), \(y))")
        }
        // Rows are flipped to top-down: the green vertex is at the top, blue bottom-left, red bottom-right.
        let top = image.pixel(x: 100, y: 52), left = image.pixel(x: 52, y: 148), right = image.pixel(x: 147, y: 148)
        #expect(top.g > 200 && top.r < 40 && top.b < 40, "\(top)")
        #expect(left.b > 200 && left.r < 40 && left.g < 40, "\(left)")
        #expect(right.r > 200 && right.g < 40 && right.b < 40, "\(right)")
    }

    @Test(.enabled(if: eglExpected), arguments: [200, 61])
    func cpuAndGLAgreeWithinOne(size: Int) throws {
        let gl = try GLDrawable()
        let a = try #require(triangle(Double(size), gl.renderCallback(TriangleDrawing.gl)))
        let b = try #require(triangle(Double(size), TriangleDrawing.cpu))
        var compared = 0
        for y in 0..<size {
            for x in 0..<size {
                // Pixels whose centre is within half a pixel of an edge may fall either way: GL's fill rule is not ours.
                guard abs(depthInside(x: x, y: y, w: Double(size), h: Double(size))) > 0.5 else { continue }
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                if d > 1 { Issue.record("(\(x), \(y)): GL \(p), CPU \(q)"); return }
                compared += 1
            }
        }
        #expect(compared > size * size * 9 / 10)
    }

    @Test(.enabled(if: eglExpected)) func aGLContextFollowsTheDrawableSize() throws {
        let gl = try GLDrawable()
        let callback = gl.renderCallback { gl, frame in
            gl.clearColor(0, 0, 1, 1)
            gl.clear(GLbitfield(GL_COLOR_BUFFER_BIT))
            return true
        }
        for (w, h) in [(3, 5), (64, 2), (3, 5)] {
            let target = try #require({ () -> DrawableTarget? in
                var t = DrawableTarget(width: w, height: h)
                let frame = DrawableFrame(layerTime: 0, outputTime: 0, frameIndex: nil, width: w, height: h)
                return (try? callback(&t, frame)) == true ? t : nil
            }())
            #expect(target.width == w && target.height == h)
            #expect(target[w - 1, h - 1] == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        }
    }

    @Test(.enabled(if: eglExpected)) func aFailingShaderThrowsAndTheLayerDrawsNothing() throws {
        let gl = try GLDrawable()
        let image = triangle(20, gl.renderCallback { gl, _ in
            _ = try GLDrawable.makeProgram(gl, vertex: "not glsl", fragment: "nor this", attributes: [])
            return true
        })
        #expect(image == nil)
    }

    @Test func withoutEGLTheContextIsRefusedAndTheCPUPathStillDraws() throws {
        setenv("LAYERPLAY_NO_EGL", "1", 1)
        defer { if eglExpected { unsetenv("LAYERPLAY_NO_EGL") } }
        #expect(throws: GLError.unavailable("EGL disabled by LAYERPLAY_NO_EGL")) { try GLDrawable() }
        let image = try #require(triangle(200, TriangleDrawing.cpu))
        let centroid = image.pixel(x: 100, y: 116)
        for channel in [centroid.r, centroid.g, centroid.b] { #expect(abs(Int(channel) - 85) <= 2, "\(centroid)") }
    }
}
