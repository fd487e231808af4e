import LayerGraphics
import LayerKit

// Shared by the conversion, hit-testing, autoresizing, layout and display tests.

func isNear(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

func isNear(_ p: Point?, _ q: Point, _ tolerance: Double = 1e-9) -> Bool {
    guard let p else { return false }
    return isNear(p.x, q.x, tolerance) && isNear(p.y, q.y, tolerance)
}

func isNear(_ r: Rect?, _ s: Rect, _ tolerance: Double = 1e-9) -> Bool {
    guard let r else { return false }
    return isNear(r.origin.x, s.origin.x, tolerance) && isNear(r.origin.y, s.origin.y, tolerance)
        && isNear(r.width, s.width, tolerance) && isNear(r.height, s.height, tolerance)
}

/// A root whose space is its superlayer's: bounds (0,0,w,h) at position (w/2,h/2), like a render target.
func rootLayer(_ width: Double, _ height: Double, name: String = "root") -> Layer {
    let root = Layer()
    root.name = name
    root.bounds = Rect(x: 0, y: 0, width: width, height: height)
    root.position = Point(x: width / 2, y: height / 2)
    return root
}

/// A layer with `frame` (set with an identity transform, then `transform`) added to `parent`.
@discardableResult
func sublayer(of parent: Layer, frame: Rect, name: String, transform: Transform3D = .identity) -> Layer {
    let layer = Layer()
    layer.name = name
    layer.frame = frame
    layer.transform = transform
    parent.addSublayer(layer)
    return layer
}
