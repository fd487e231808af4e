import LayerGraphics

/// A layer that draws a path, filled and stroked (CAShapeLayer; SEMANTICS-LAYERS.md §1).
///
/// The path is in the layer's own space and is not clipped to the bounds (only `masksToBounds` and `mask` clip
/// it); the bounds may be empty. The shape is drawn between the contents and the sublayers, the fill first, then
/// the stroke. The compositor rasterises it at a scale taken from where the layer lands on screen, so it stays
/// sharp when a transform enlarges it, and keeps the pixels until a shape value changes.
///
/// Every property but the enums and the dash pattern animates; `path` only explicitly (no implicit action), point
/// by point between paths of the same structure, switching half-way otherwise.
open class ShapeLayer: Layer {
    /// The path to draw; nil draws nothing.
    @exclusivity(unchecked) public var path: Path? = nil {
        didSet { didChangeValue(forKey: "path", from: oldValue ?? Path()) }
    }
    /// The fill's colour; nil fills nothing.
    @exclusivity(unchecked) public var fillColor: Color? = .black {
        didSet { didChangeValue(forKey: "fillColor", from: oldValue ?? .clear) }
    }
    /// How the fill decides what is inside a path that crosses itself (non-zero winding by default).
    public var fillRule: FillRule = .nonZero
    /// The stroke's colour; nil strokes nothing.
    @exclusivity(unchecked) public var strokeColor: Color? = nil {
        didSet { didChangeValue(forKey: "strokeColor", from: oldValue ?? .clear) }
    }
    /// The stroke's width in points; 0 or less strokes nothing.
    @exclusivity(unchecked) public var lineWidth = 1.0 {
        didSet { didChangeValue(forKey: "lineWidth", from: oldValue) }
    }
    /// The shape of the stroke's open ends (butt by default).
    public var lineCap: LineCap = .butt
    /// The shape of the stroke's corners (miter by default).
    public var lineJoin: LineJoin = .miter
    /// The longest miter join, in line widths, before it is bevelled.
    @exclusivity(unchecked) public var miterLimit = 10.0 {
        didSet { didChangeValue(forKey: "miterLimit", from: oldValue) }
    }
    /// Alternating on and off lengths of the stroke, in points; nil strokes solid.
    public var lineDashPattern: [Double]? = nil
    /// How far into the dash pattern the path starts, in points.
    @exclusivity(unchecked) public var lineDashPhase = 0.0 {
        didSet { didChangeValue(forKey: "lineDashPhase", from: oldValue) }
    }
    /// Where along the path's length (0…1) the stroke begins.
    @exclusivity(unchecked) public var strokeStart = 0.0 {
        didSet { didChangeValue(forKey: "strokeStart", from: oldValue) }
    }
    /// Where along the path's length (0…1) the stroke ends.
    @exclusivity(unchecked) public var strokeEnd = 1.0 {
        didSet { didChangeValue(forKey: "strokeEnd", from: oldValue) }
    }

    /// The animatable keys; nil colours and paths are read as clear and empty (they draw the same: nothing).
    override open class var animatableProperties: [AnimatableProperty] {
        super.animatableProperties + [
            AnimatableProperty("path", hasDefaultAction: false, value: { (l: ShapeLayer) in l.path ?? Path() }, set: { l, v in l.path = v }),
            AnimatableProperty("fillColor", value: { (l: ShapeLayer) in l.fillColor ?? .clear }, set: { l, v in l.fillColor = v }),
            AnimatableProperty("strokeColor", value: { (l: ShapeLayer) in l.strokeColor ?? .clear }, set: { l, v in l.strokeColor = v }),
            AnimatableProperty("lineWidth", value: { (l: ShapeLayer) in l.lineWidth }, set: { l, v in l.lineWidth = v }),
            AnimatableProperty("miterLimit", value: { (l: ShapeLayer) in l.miterLimit }, set: { l, v in l.miterLimit = v }),
            AnimatableProperty("lineDashPhase", value: { (l: ShapeLayer) in l.lineDashPhase }, set: { l, v in l.lineDashPhase = v }),
            AnimatableProperty("strokeStart", value: { (l: ShapeLayer) in l.strokeStart }, set: { l, v in l.strokeStart = v }),
            AnimatableProperty("strokeEnd", value: { (l: ShapeLayer) in l.strokeEnd }, set: { l, v in l.strokeEnd = v }),
        ]
    }

    /// The shape at the presentation values: what the compositor draws.
    override open func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        let x = presentation.extras
        func number(_ key: String, _ model: Double) -> Double { if case .number(let v)? = x[key] { v } else { model } }
        func color(_ key: String, _ model: Color?) -> Color? { if case .color(let c)? = x[key] { c } else { model } }
        var style = ShapeStyle()
        style.fillColor = color("fillColor", fillColor)
        style.fillRule = fillRule
        style.strokeColor = color("strokeColor", strokeColor)
        style.lineWidth = number("lineWidth", lineWidth)
        style.lineCap = lineCap
        style.lineJoin = lineJoin
        style.miterLimit = number("miterLimit", miterLimit)
        style.lineDashPattern = lineDashPattern
        style.lineDashPhase = number("lineDashPhase", lineDashPhase)
        style.strokeStart = number("strokeStart", strokeStart)
        style.strokeEnd = number("strokeEnd", strokeEnd)
        let shown: Path? = if case .path(let p)? = x["path"] { p } else { path }
        return ShapePayload(path: shown ?? Path(), style: style)
    }
}

/// What a shape layer's snapshot carries: its path and drawing values at the presentation time, made drawable.
public struct ShapePayload: LayerPayload, Equatable {
    /// Empty when the layer has none, or when a point of it is not finite (such a path is dropped whole).
    public let path: Path
    /// The fill, stroke and dash settings the path is drawn with.
    public let style: ShapeStyle

    /// - Parameters: the values as set or animated; NaN and infinities are clamped or refused (`ShapeStyle.sanitized`),
    ///   colours with no alpha become nil.
    public init(path: Path, style: ShapeStyle) {
        self.path = path.hasOnlyFinitePoints ? path : Path()
        var s = style.sanitized
        // Components clamped to [0, 1] (NaN: 0), so that equal-looking payloads compare equal and keep their raster.
        func clamped(_ c: Color?) -> Color? {
            guard let c else { return nil }
            func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
            let k = Color(red: unit(c.red), green: unit(c.green), blue: unit(c.blue), alpha: unit(c.alpha))
            return k.alpha > 0 ? k : nil
        }
        s.fillColor = clamped(s.fillColor)
        s.strokeColor = clamped(s.strokeColor)
        self.style = s
    }

    /// Whether the payload draws anything at all.
    public var drawsNothing: Bool { path.isEmpty || (!style.fills && !style.strokes) }
}

extension Path {
    /// Whether every point, control points included, is finite.
    var hasOnlyFinitePoints: Bool {
        func ok(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite }
        return elements.allSatisfy {
            switch $0 {
            case .move(let p), .line(let p): ok(p)
            case .curve(let a, let b, let c): ok(a) && ok(b) && ok(c)
            case .close: true
            }
        }
    }
}
