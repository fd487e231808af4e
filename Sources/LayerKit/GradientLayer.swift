import LayerGraphics

/// A layer that fills its shape with a colour gradient (Core Animation's CAGradientLayer; SEMANTICS-LAYERS.md §3):
/// axial, radial or conic, through `colors` at `locations`, from `startPoint` to `endPoint` in unit coordinates of
/// the bounds.
///
/// The gradient lies over `backgroundColor` and below `contents` and sublayers, and fills the layer's rounded
/// shape (`cornerRadius`, `maskedCorners`) even without `masksToBounds`. The compositor evaluates it per pixel
/// every frame (no image is cached), so it stays sharp under any transform. `colors`, `locations`, `startPoint`
/// and `endPoint` animate, implicitly too; arrays element-wise when their counts match, else switching half-way.
open class GradientLayer: Layer {
    /// How the gradient parameter t runs over the layer (§3's formulas).
    public enum GradientType: String, Sendable, Hashable, CaseIterable {
        /// Along the line from `startPoint` to `endPoint`: t is the projection on it.
        case axial
        /// An ellipse centred at `startPoint` whose semi-axes are `endPoint − startPoint` (both points must be set:
        /// with the defaults one semi-axis is 0).
        case radial
        /// Around `startPoint`, clockwise on screen, from the direction of `endPoint`.
        case conic
    }

    /// The stops' colours (straight, sRGB-encoded); nil or empty draws no gradient, one colour a solid fill.
    open var colors: [Color]? {
        didSet { didChangeValue(forKey: "colors", from: oldValue ?? []) }
    }

    /// Each stop's position along t (nil: spread evenly from 0 to 1). A count other than the colours' draws no
    /// gradient, as the book says; values outside 0…1 are valid (a shimmer moves them from −0.4 to 1.4).
    open var locations: [Double]? {
        didSet { didChangeValue(forKey: "locations", from: oldValue ?? []) }
    }

    /// Where t = 0, in unit coordinates of the bounds ((0, 0) top-left).
    open var startPoint = Point(x: 0.5, y: 0) {
        didSet { didChangeValue(forKey: "startPoint", from: oldValue) }
    }

    /// Where t = 1, in unit coordinates of the bounds.
    open var endPoint = Point(x: 0.5, y: 1) {
        didSet { didChangeValue(forKey: "endPoint", from: oldValue) }
    }

    /// Axial (the default), radial or conic; not animatable.
    open var type: GradientType = .axial

    open override class var animatableProperties: [AnimatableProperty] {
        // nil arrays read as empty: an empty `colors` draws the same nothing, and an empty `locations` is told from
        // nil by the model when no animation of it runs (`snapshotPayload`).
        super.animatableProperties + [
            AnimatableProperty("colors", value: { (layer: GradientLayer) in layer.colors ?? [] }, set: { layer, v in layer.colors = v }),
            AnimatableProperty("locations", value: { (layer: GradientLayer) in layer.locations ?? [] }, set: { layer, v in layer.locations = v }),
            AnimatableProperty("startPoint", value: { (layer: GradientLayer) in layer.startPoint }, set: { layer, v in layer.startPoint = v }),
            AnimatableProperty("endPoint", value: { (layer: GradientLayer) in layer.endPoint }, set: { layer, v in layer.endPoint = v }),
        ]
    }

    /// The presentation values of the gradient, sanitised (`GradientPayload`).
    open override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        let extras = presentation.extras
        guard case .colors(let colors)? = extras["colors"] else { return nil }
        var locations: [Double]? = nil
        if case .numbers(let l)? = extras["locations"], !(l.isEmpty && self.locations == nil) { locations = l }
        let start: Point, end: Point
        if case .point(let p)? = extras["startPoint"] { start = p } else { start = startPoint }
        if case .point(let p)? = extras["endPoint"] { end = p } else { end = endPoint }
        return GradientPayload(colors: colors, locations: locations, startPoint: start, endPoint: end, type: type)
    }
}
