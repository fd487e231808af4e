import CCairo

/// Laying out and drawing a `TextLayout` (width, wrapping, alignment, ellipsizing, attribute runs) with pango.
extension DrawingContext {
    /// Draws `text` with its box's top-left corner at `point` (the first line's top, not its baseline: y down), in
    /// user space, so the context's scale sharpens it. Draws nothing when `text.color` is nil. Clears the current
    /// path. Costs one pango layout (shaping the whole text).
    public func draw(_ text: TextLayout, at point: Point) {
        guard let color = text.color else { return }
        let layout = PangoTextLayout(text, cr: cr)
        cairo_save(cr)
        cairo_set_source_rgba(cr, Self.component(color.red), Self.component(color.green), Self.component(color.blue),
                              Self.component(color.alpha))
        layout.draw(cr: cr, at: point)
        cairo_restore(cr)
    }

    /// The extents `draw(_:at:)` would give `text`, relative to the point it is drawn at.
    public func measure(_ text: TextLayout) -> TextMetrics {
        PangoTextLayout(text, cr: cr).metrics()
    }

    /// A colour component cairo gets: in [0, 1], NaN → 0.
    private static func component(_ value: Double) -> Double { value.isFinite ? min(max(value, 0), 1) : 0 }
}

extension TextLayout {
    /// The extents of this text laid out (as `DrawingContext.measure(_:)`, without a canvas of one's own).
    public func measured() -> TextMetrics {
        DrawingContext(size: Size(width: 1, height: 1)).measure(self)
    }
}
