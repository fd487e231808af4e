import LayerGraphics
import LayerKit

/// A gradient's colours at evenly spaced t over the range its pixels can take, premultiplied, built once per draw
/// (SEMANTICS-LAYERS.md §0: the table is all a gradient keeps). The range is that of the layer's own bounds, not the
/// stops', so a step is 1/4095 of the layer's extent along t: under a pixel for any layer up to 4096 pixels long, so a
/// hard edge (equal locations) lands within half a pixel; and between two stops a step changes a channel by under
/// 0.07 of an 8-bit level.
struct GradientTable {
    static let size = 4096

    /// Premultiplied B, G, R, A in 0…255 at t = lo + i / scale.
    let entries: [SIMD4<Float>]
    /// The table coordinate of t is (t − lo) · scale (0 when the table has one entry).
    let lo: Double, scale: Double
    /// Every entry has alpha 255.
    let isOpaque: Bool
    /// Every entry is the same colour (one stop, or the bounds all beyond the stops' ends): a solid fill.
    let isUniform: Bool

    /// The colours of `stops` on `range`, the t the layer's bounds take (a t below it, at an antialiased edge pixel,
    /// is drawn with the first entry, above with the last). An infinite end (a radial gradient with a zero semi-axis,
    /// an axial one whose points are equal) is where the last colour shows: it is held at the last location.
    init(_ stops: GradientPayload, range: ClosedRange<Double>) {
        let l = stops.locations, colors = stops.colors
        let lo = range.lowerBound.isFinite ? range.lowerBound : min(max(range.lowerBound, l[0]), l[l.count - 1])
        let hi = max(lo, range.upperBound.isFinite ? range.upperBound : min(max(range.upperBound, l[0]), l[l.count - 1]))
        let count = hi > lo ? Self.size : 1
        self.lo = lo
        scale = count > 1 ? Double(count - 1) / (hi - lo) : 0
        var entries = [SIMD4<Float>](repeating: .zero, count: count)
        // t only grows along the table: the stop segment is found by walking forward, O(entries + stops).
        var i = 0
        for k in 0..<count {
            let t = count > 1 ? lo + Double(k) / scale : lo
            while i < l.count && l[i] <= t { i += 1 }
            // Stops 0..<i lie at or before t: before the first, the first colour; from the last on, the last (equal
            // locations make a hard edge, the later stop from there on); between two, linear in straight components.
            let c: Color
            if i == 0 { c = colors[0] }
            else if i == l.count { c = colors[l.count - 1] }
            else {
                let f = (t - l[i - 1]) / (l[i] - l[i - 1])
                let a = colors[i - 1], b = colors[i]
                c = Color(red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                          blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f)
            }
            entries[k] = Self.premultiplied(c)
        }
        self.entries = entries
        isOpaque = entries.allSatisfy { $0.w >= 255 }
        isUniform = entries.allSatisfy { $0 == entries[0] }
    }

    /// Straight to premultiplied B, G, R, A in 0…255 (§3: interpolation happens before premultiplying).
    static func premultiplied(_ c: Color) -> SIMD4<Float> {
        let a = c.alpha * 255
        return SIMD4(Float(c.blue * a), Float(c.green * a), Float(c.red * a), Float(a))
    }
}
