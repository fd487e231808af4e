import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Shared building blocks of the compositor tests: procedurally generated images, a root canvas layer,
// rendering, golden comparison and pixel assertions.

// MARK: - Colours

enum Palette {
    /// The canvas behind every scene (premultiplied 235,235,235).
    static let canvas = Color(white: 0.92)
    static let teal = Color(red: 0.1, green: 0.55, blue: 0.6)
    static let orange = Color(red: 1, green: 0.55, blue: 0.1)
    static let navy = Color(red: 0.1, green: 0.15, blue: 0.45)
    static let yellow = Color(red: 0.95, green: 0.85, blue: 0.2)
    /// The four quadrants of `testImage` (the bottom-right one is a gradient).
    static let quadrantTopLeft = Color(red: 0.9, green: 0.15, blue: 0.1)
    static let quadrantTopRight = Color(red: 0.1, green: 0.7, blue: 0.2)
    static let quadrantBottomLeft = Color(red: 0.15, green: 0.3, blue: 0.9)
}

// MARK: - Images

/// An opaque test picture: quadrants red (top-left), green (top-right), blue (bottom-left), and at the
/// bottom-right a gradient (red rising to the right, green rising downwards, blue falling to the right).
/// Every orientation mistake (flip, mirror, turn) shows.
func testImage(width: Int = 64, height: Int = 48) -> Image {
    Image(width: width, height: height) { px in
        let hw = width / 2, hh = height / 2
        for y in 0..<height {
            for x in 0..<width {
                let c: Color
                switch (x < hw, y < hh) {
                case (true, true): c = Palette.quadrantTopLeft
                case (false, true): c = Palette.quadrantTopRight
                case (true, false): c = Palette.quadrantBottomLeft
                case (false, false):
                    let t = (Double(x - hw) + 0.5) / Double(width - hw)
                    let s = (Double(y - hh) + 0.5) / Double(height - hh)
                    c = Color(red: t, green: s, blue: 1 - t)
                }
                px[y * width + x] = c.premultiplied.bgra
            }
        }
    }
}

/// A `size`×`size` image that is `color` inside the inscribed circle and transparent outside, with a one-pixel
/// antialiased rim (coverage from the distance of each pixel centre to the circle).
func circleImage(size: Int, color: Color) -> Image {
    Image(width: size, height: size) { px in
        let c = Double(size) / 2, r = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - c, dy = Double(y) + 0.5 - c
                let coverage = min(max(r - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
                px[y * size + x] = color.withAlpha(coverage).premultiplied.bgra
            }
        }
    }
}

/// The 12 colours of `blocksImage`, row by row (4 per row).
let blockColors: [Color] = [
    Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1), Color(red: 1, green: 1, blue: 0),
    Color(red: 0, green: 1, blue: 1), Color(red: 1, green: 0, blue: 1), Color(white: 1), Color(white: 0.25),
    Color(red: 1, green: 0.55, blue: 0.1), Color(red: 0.5, green: 0.2, blue: 0.7), Color(white: 0.6), Color(red: 0.1, green: 0.55, blue: 0.6),
]

/// 64×48: a 4×3 grid of 16×16 solid blocks in `blockColors` (block edges fall on 4:2:0 chroma sample edges).
func blocksImage() -> Image {
    Image(width: 64, height: 48) { px in
        for y in 0..<48 {
            for x in 0..<64 { px[y * 64 + x] = blockColors[(y / 16) * 4 + x / 16].premultiplied.bgra }
        }
    }
}

// MARK: - Layers

/// The root of a scene: bounds (0,0,w,h) at position (w/2,h/2), so its space is the surface's pixel space.
func canvas(_ width: Int, _ height: Int, background: Color? = Palette.canvas) -> Layer {
    let root = Layer()
    root.name = "canvas"
    root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    root.position = Point(x: Double(width) / 2, y: Double(height) / 2)
    root.backgroundColor = background
    return root
}

/// A layer with the given frame (in its superlayer's space) and background.
func makeLayer(_ frame: Rect, background: Color? = nil, name: String? = nil) -> Layer {
    let layer = Layer()
    layer.frame = frame
    layer.backgroundColor = background
    layer.name = name
    return layer
}

// MARK: - Rendering

/// The compositor used by the goldens: all cores (two here). `determinismAcrossThreadCounts` checks that
/// one thread gives the very same pixels.
let sharedCompositor = Compositor()

/// Renders `root` into a surface the size of its bounds.
func render(_ root: Layer, compositor: Compositor = sharedCompositor) -> Surface {
    compositor.render(root.snapshot(), width: Int(root.bounds.width), height: Int(root.bounds.height))
}

// MARK: - Assertions

/// Compares with `References/<area>/<name>.png` (this file sits directly in Tests/LayerCompositorTests, so the
/// helper's #filePath resolves there) and records an issue at the caller on failure.
func expectGolden(_ surface: Surface, area: String, name: String, tolerance: GoldenTolerance,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    if let message = GoldenImage.compare(surface, area: area, name: name, tolerance: tolerance) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// The largest difference of any channel between two premultiplied pixels.
func channelDifference(_ a: PremultipliedColor, _ b: PremultipliedColor) -> Int {
    max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
}

/// Expects the surface pixel at (x, y) to be within `tolerance` of `expected` in every channel.
func expectPixel(_ surface: Surface, _ x: Int, _ y: Int, _ expected: PremultipliedColor, tolerance: Int = 0,
                 _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = surface.pixel(x: x, y: y)
    #expect(channelDifference(actual, expected) <= tolerance,
            "\(what): pixel (\(x), \(y)) is \(actual), expected \(expected) ± \(tolerance)", sourceLocation: sourceLocation)
}

/// Straight-alpha `top` at `alpha` over an opaque `bottom`, as 8-bit premultiplied (opaque) channels.
func over(_ top: Color, alpha: Double, _ bottom: Color) -> PremultipliedColor {
    func mix(_ t: Double, _ b: Double) -> UInt8 { UInt8(((t * alpha + b * (1 - alpha)) * 255).rounded()) }
    return PremultipliedColor(r: mix(top.red, bottom.red), g: mix(top.green, bottom.green), b: mix(top.blue, bottom.blue), a: 255)
}
