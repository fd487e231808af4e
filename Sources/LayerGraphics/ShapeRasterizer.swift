import CCairo

/// Fills and strokes a path with a `ShapeStyle` through cairo (grey antialiasing): a shape layer's pixels.
///
/// The fill uses the whole path; the stroke covers `path.strokedPart(…)` (trimmed and dashed here, stroked solid
/// by cairo), over the fill, source-over.
public enum ShapeRasterizer {
    /// The path the stroke of `style` covers, nil when the style strokes nothing.
    public static func strokedPath(_ path: Path, style: ShapeStyle) -> Path? {
        guard style.strokes else { return nil }
        let part = path.strokedPart(from: style.strokeStart, to: style.strokeEnd, dashes: style.effectiveDashes,
                                    phase: style.lineDashPhase)
        return part.isEmpty ? nil : part
    }

    /// The widest path box, in points, whose extents are measured: cairo holds device coordinates in 24.8 fixed
    /// point (±8,388,607), and a stroke adds its width; wider paths draw nothing.
    public static let maxPathSide = 4_000_000.0

    /// The box, in the path's space, of what `style` draws of `path`: the union of cairo's fill extents and stroke
    /// extents (caps, joins and miters included); nil when nothing is drawn or the path is wider than `maxPathSide`.
    public static func extent(of path: Path, style: ShapeStyle) -> Rect? {
        let bounds = path.boundingBox
        guard !bounds.isNull, bounds.width <= maxPathSide, bounds.height <= maxPathSide,
              style.lineWidth <= maxPathSide else { return nil }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        // Measured about the path's centre, so that a small path far from the origin stays within cairo's range.
        cairo_translate(cr, -bounds.midX, -bounds.midY)
        var box = Rect.null
        func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            guard x1 > x0 || y1 > y0 else { return }
            box = box.union(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        if style.fills {
            path.append(to: cr)
            setFill(cr, style)
            cairo_fill_extents(cr, &x0, &y0, &x1, &y1)
            add(x0, y0, x1, y1)
            cairo_new_path(cr)
        }
        if let stroke = strokedPath(path, style: style) {
            stroke.append(to: cr)
            setStroke(cr, style)
            cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
            add(x0, y0, x1, y1)
        }
        return box.isNull ? nil : box
    }

    /// `path` drawn with `style` into a `width × height` image whose top-left pixel corner is the path-space point
    /// `origin`, one point being `scale` pixels. Costs a cairo fill and stroke of that many pixels.
    public static func rasterize(_ path: Path, style: ShapeStyle, origin: Point, scale: Double, width: Int, height: Int) -> Image {
        let w = max(1, width), h = max(1, height)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -origin.x, -origin.y)
        if style.fills, let c = style.fillColor {
            path.append(to: cr)
            setFill(cr, style)
            cairo_set_source_rgba(cr, unit(c.red), unit(c.green), unit(c.blue), unit(c.alpha))
            cairo_fill(cr)
        }
        if let stroke = strokedPath(path, style: style), let c = style.strokeColor {
            stroke.append(to: cr)
            setStroke(cr, style)
            cairo_set_source_rgba(cr, unit(c.red), unit(c.green), unit(c.blue), unit(c.alpha))
            cairo_stroke(cr)
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        return Image(width: w, height: h) { out in
            for y in 0..<h {
                UnsafeMutableRawPointer(out.baseAddress! + y * w).copyMemory(from: data + y * stride, byteCount: w * 4)
            }
        }
    }

    private static func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    private static func setFill(_ cr: OpaquePointer, _ style: ShapeStyle) {
        cairo_set_fill_rule(cr, style.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    private static func setStroke(_ cr: OpaquePointer, _ style: ShapeStyle) {
        cairo_set_line_width(cr, style.lineWidth)
        cairo_set_line_cap(cr, style.lineCap == .butt ? CAIRO_LINE_CAP_BUTT : style.lineCap == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
        cairo_set_line_join(cr, style.lineJoin == .miter ? CAIRO_LINE_JOIN_MITER : style.lineJoin == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL)
        cairo_set_miter_limit(cr, style.miterLimit)
    }
}
