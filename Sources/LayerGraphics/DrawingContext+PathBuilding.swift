import CCairo

// Core Graphics builds the current path on the context itself (`ctx.move(to:)`, `ctx.addLine(to:)`, …, then
// `ctx.fillPath()`): a ported `draw(in:)` does so too (issue 26 item 5). Each call adds to the same current path that
// `addPath(_:)` adds to and `fillPath`, `strokePath` and `clip` consume. Coordinates are the current user space's.
extension DrawingContext {
    /// Starts a new subpath of the current path at `point` (`CGContext.move(to:)`).
    public func move(to point: Point) { cairo_move_to(cr, point.x, point.y) }

    /// Adds a straight line from the current point to `point` (`CGContext.addLine(to:)`); without a current point
    /// it starts the subpath there, as cairo does (Core Graphics leaves that undefined).
    public func addLine(to point: Point) { cairo_line_to(cr, point.x, point.y) }

    /// Adds a cubic Bézier from the current point to `point`, bent towards `control1` then `control2`
    /// (`CGContext.addCurve(to:control1:control2:)`).
    public func addCurve(to point: Point, control1: Point, control2: Point) {
        cairo_curve_to(cr, control1.x, control1.y, control2.x, control2.y, point.x, point.y)
    }

    /// Adds `rect` as a closed subpath, clockwise on screen from its top-left corner (`CGContext.addRect(_:)`).
    public func addRect(_ rect: Rect) { addPath(Path(rect: rect)) }

    /// Adds the ellipse inscribed in `rect` as a closed subpath (`CGContext.addEllipse(in:)`).
    public func addEllipse(in rect: Rect) { addPath(Path(ellipseIn: rect)) }

    /// Closes the current subpath with a line back to its start (`CGContext.closePath()`).
    public func closePath() { cairo_close_path(cr) }

    /// Empties the current path without drawing (`CGContext.beginPath()`).
    public func beginPath() { cairo_new_path(cr) }

    /// Whether the current path has nothing in it (`CGContext.isPathEmpty`).
    public var isPathEmpty: Bool { cairo_has_current_point(cr) == 0 }

    /// The smallest rect, in user space, that holds everything the clip lets through (`CGContext.boundingBoxOfClipPath`,
    /// `CGContextGetClipBoundingBox`): the whole canvas when nothing clips it, the tile in a `TiledLayer`'s
    /// `drawTile`. A `draw(in:)` asks it to draw only what can show (the book's listing 6.11).
    public var boundingBoxOfClipPath: Rect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return Rect(x: x1, y: y1, width: max(0, x2 - x1), height: max(0, y2 - y1))
    }
}
