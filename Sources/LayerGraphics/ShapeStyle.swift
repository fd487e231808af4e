/// How a path is filled and stroked: a shape layer's drawing values (SEMANTICS-LAYERS.md §1), with Core
/// Graphics' meanings, which cairo's equal. A plain value: two equal styles draw the same pixels.
public struct ShapeStyle: Hashable, Sendable {
    /// nil: no fill.
    public var fillColor: Color? = .black
    /// Which points the fill covers where the path crosses itself (non-zero winding by default).
    public var fillRule: FillRule = .nonZero
    /// nil: no stroke.
    public var strokeColor: Color? = nil
    /// Points; 0 or less strokes nothing (ours: Core Graphics would draw a hairline).
    public var lineWidth = 1.0
    /// How open ends of the stroke look (butt by default).
    public var lineCap: LineCap = .butt
    /// How stroked segments meet (miter by default).
    public var lineJoin: LineJoin = .miter
    /// The longest miter, in line widths, before a join is bevelled.
    public var miterLimit = 10.0
    /// Alternating on and off lengths (nil or empty: solid); an odd count is used twice over, a negative entry
    /// or a zero sum strokes solid (ours).
    public var lineDashPattern: [Double]? = nil
    /// How far into the pattern the path's start lies.
    public var lineDashPhase = 0.0
    /// Where along the path's length the stroke begins, a fraction in [0, 1] (0: the start), as `strokeStart` of
    /// CAShapeLayer; the stroke covers `strokeStart…strokeEnd`.
    public var strokeStart = 0.0
    /// Where along the path's length the stroke ends, a fraction in [0, 1] (1: the end), as `strokeEnd` of
    /// CAShapeLayer.
    public var strokeEnd = 1.0

    /// The defaults of CAShapeLayer: a black fill, no stroke, 1-point lines, butt caps, miter joins, no dashes.
    public init() {}

    /// The same style with every number made drawable: NaN fractions 0 and the rest clamped to [0, 1], a width or
    /// miter limit that is NaN or negative 0 (or 1 for the limit), infinite lengths refused (no stroke, no dashes).
    /// Colours keep their values (the rasteriser clamps components).
    public var sanitized: ShapeStyle {
        var s = self
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        s.strokeStart = unit(strokeStart); s.strokeEnd = unit(strokeEnd)
        s.lineWidth = lineWidth.isFinite ? max(lineWidth, 0) : 0
        s.miterLimit = miterLimit.isFinite ? max(miterLimit, 1) : 10
        s.lineDashPhase = lineDashPhase.isFinite ? lineDashPhase : 0
        if let pattern = lineDashPattern, pattern.contains(where: { !$0.isFinite }) { s.lineDashPattern = nil }
        return s
    }

    /// Whether a fill shows: a colour with some alpha.
    public var fills: Bool { (fillColor?.alpha ?? 0) > 0 }

    /// Whether a stroke shows: a colour with some alpha, a positive width and some length to cover.
    public var strokes: Bool { (strokeColor?.alpha ?? 0) > 0 && lineWidth > 0 && strokeEnd > strokeStart }

    /// The dash lengths in effect, nil for a solid stroke: an odd count doubled, a negative entry, a zero sum or a
    /// number that is not finite giving solid.
    public var effectiveDashes: [Double]? {
        guard let pattern = lineDashPattern, !pattern.isEmpty else { return nil }
        guard pattern.allSatisfy({ $0.isFinite && $0 >= 0 }), pattern.reduce(0, +) > 0 else { return nil }
        return pattern.count % 2 == 1 ? pattern + pattern : pattern
    }
}
