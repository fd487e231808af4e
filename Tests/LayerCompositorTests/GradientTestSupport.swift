import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// Shared pieces of the gradient tests: a scene with one gradient layer, and the exact colour SEMANTICS-LAYERS.md §3
// gives at a parameter t (straight interpolation, then premultiplied), to compare pixels with.

/// A `width`×`height` canvas (background `background`) with a gradient layer filling it, configured by `configure`.
func gradientScene(_ width: Int, _ height: Int, background: Color? = nil,
                   _ configure: (GradientLayer) -> Void) -> (root: Layer, gradient: GradientLayer) {
    let root = canvas(width, height, background: background)
    let gradient = GradientLayer()
    gradient.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    configure(gradient)
    root.addSublayer(gradient)
    return (root, gradient)
}

/// The straight colour of the stops at t: the first before the first location, the last from the last on, linear
/// between (§3).
func straightColor(_ colors: [Color], _ locations: [Double], t: Double) -> Color {
    if t < locations[0] { return colors[0] }
    guard let i = locations.firstIndex(where: { $0 > t }) else { return colors[colors.count - 1] }
    let a = colors[i - 1], b = colors[i]
    let f = (t - locations[i - 1]) / (locations[i] - locations[i - 1])
    return Color(red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                 blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
}

/// `straightColor` premultiplied and rounded to 8 bits.
func expectedColor(_ colors: [Color], _ locations: [Double], t: Double) -> PremultipliedColor {
    let c = straightColor(colors, locations, t: t)
    func q(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
    return PremultipliedColor(r: q(c.red * c.alpha), g: q(c.green * c.alpha), b: q(c.blue * c.alpha), a: q(c.alpha))
}

/// The largest channel difference between the surface and `expected(x, y)` over the pixels `where` selects.
func worstDifference(_ s: Surface, where include: (Int, Int) -> Bool = { _, _ in true },
                     _ expected: (Int, Int) -> PremultipliedColor) -> (difference: Int, x: Int, y: Int) {
    var worst = (difference: 0, x: -1, y: -1)
    for y in 0..<s.height {
        for x in 0..<s.width where include(x, y) {
            let d = channelDifference(s.pixel(x: x, y: y), expected(x, y))
            if d > worst.difference { worst = (d, x, y) }
        }
    }
    return worst
}
