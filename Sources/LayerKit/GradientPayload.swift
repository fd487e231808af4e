import LayerGraphics

/// A gradient layer's presentation values as the compositor draws them (SEMANTICS-LAYERS.md §3), sanitised once
/// here so the per-pixel code can trust them: the stops are resolved and `colors` is empty when nothing is drawn.
public struct GradientPayload: LayerPayload, Equatable {
    /// The stops' colours, each channel within 0…1 (NaN is 0); empty: no gradient (only the background shows).
    public let colors: [Color]
    /// One location per colour, never decreasing, within ±10⁹ (§3: nil spreads them evenly, a NaN or a value below
    /// its predecessor is raised to it).
    public let locations: [Double]
    /// The start and end in unit coordinates of the bounds.
    public let startPoint: Point
    /// The end, in unit coordinates of the bounds.
    public let endPoint: Point
    /// Axial, radial or conic.
    public let type: GradientLayer.GradientType

    /// Beyond a billion points the gradient is flat over any canvas: locations are held there, so differences of
    /// them stay finite (`Drawable.limit`'s reasoning).
    static let limit = 1e9

    /// The gradient a layer's properties describe, its colours clamped to 0…1, or no gradient when they cannot make one.
    /// - Parameters:
    ///   - colors: the stops' colours; none draws no gradient.
    ///   - locations: nil spreads the stops evenly; a count other than the colours' draws no gradient [book].
    ///   - startPoint: where the first colour is, in unit coordinates; a point that is not finite (or beyond ±10⁹)
    ///     draws no gradient.
    ///   - endPoint: where the last colour is; the same limits as `startPoint`.
    ///   - type: axial, radial or conic.
    public init(colors: [Color], locations: [Double]?, startPoint: Point, endPoint: Point, type: GradientLayer.GradientType) {
        self.startPoint = startPoint
        self.endPoint = endPoint
        self.type = type
        func placeable(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite && abs(p.x) <= Self.limit && abs(p.y) <= Self.limit }
        guard !colors.isEmpty, locations.map({ $0.count == colors.count }) ?? true, placeable(startPoint), placeable(endPoint) else {
            self.colors = []
            self.locations = []
            return
        }
        func fraction(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        self.colors = colors.map { Color(red: fraction($0.red), green: fraction($0.green), blue: fraction($0.blue), alpha: fraction($0.alpha)) }
        let n = colors.count
        var resolved = locations ?? (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        var previous = -Double.infinity
        for i in resolved.indices {
            var l = resolved[i]
            l = l.isNaN ? (i == 0 ? 0 : previous) : min(max(l, -Self.limit), Self.limit)
            l = max(l, previous)
            resolved[i] = l
            previous = l
        }
        self.locations = resolved
    }

    /// Whether anything is drawn (false for nil or empty colours, mismatched counts, unplaceable points).
    public var drawsGradient: Bool { !colors.isEmpty }
}
