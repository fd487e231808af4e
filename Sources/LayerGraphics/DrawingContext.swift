import CCairo

/// How the ends of stroked open subpaths look (CGLineCap).
public enum LineCap: Sendable {
    /// The stroke stops square at the end point (`kCGLineCapButt`, `CAShapeLayerLineCap.butt`): the default.
    case butt
    /// A half circle of the line's width caps the end.
    case round
    /// The stroke goes on half the line's width past the end, squared off.
    case square
}
/// How stroked segments meet (CGLineJoin).
public enum LineJoin: Sendable {
    /// The outer edges meet in a point (`kCGLineJoinMiter`), cut to a bevel beyond the miter limit: the default.
    case miter
    /// A circular arc of the line's width joins the segments.
    case round
    /// The outer corners are joined by a straight cut.
    case bevel
}
/// Which points a path encloses: non-zero winding or even-odd.
public enum FillRule: Sendable {
    /// Inside where the path winds around the point a non-zero number of times (`kCAFillRuleNonZero`): the default.
    case nonZero
    /// Inside where a ray from the point crosses the path an odd number of times (`kCAFillRuleEvenOdd`): holes.
    case evenOdd
}

/// A bitmap canvas to draw into with paths, fills, strokes, images and text (CGContext's role), backed by cairo.
/// What a layer's `draw(in:)` receives; `makeImage()` gives the pixels as an `Image`.
///
/// Coordinates are in points, origin top-left, y down; one point is `scale` pixels. The graphics state (transform,
/// colours, line style, clip) is saved and restored with `saveGState()` / `restoreGState()`. As in Core Graphics,
/// `fillPath`, `strokePath`, `clip` and the rect, ellipse and text shortcuts consume the current path.
/// Not thread-safe: one thread draws into a context at a time.
public final class DrawingContext {
    /// The canvas's size in points.
    public let size: Size
    /// Pixels per point.
    public let scale: Double
    /// The canvas's width in pixels: the width in points times `scale`, rounded up (1 … `maxPixelSide`).
    public let pixelWidth: Int
    /// The canvas's height in pixels: the height in points times `scale`, rounded up (1 … `maxPixelSide`).
    public let pixelHeight: Int
    /// Whether the canvas has no alpha channel (`init(size:scale:opaque:)`): it starts opaque black, and every pixel
    /// of `makeImage()` is opaque.
    public let isOpaque: Bool

    private let surface: OpaquePointer
    /// The cairo context (cairo_t *); the text extension draws through it too.
    let cr: OpaquePointer
    // cairo has one source where Core Graphics keeps a fill and a stroke colour: keep them here, saved with the state.
    private var colors = (fill: Color.black, stroke: Color.black)
    private var savedColors: [(fill: Color, stroke: Color)] = []

    /// The most pixels a canvas has on a side: 8192, as a shadow's texture (8192² is 256 MB already; cairo makes
    /// none beyond 32767).
    public static let maxPixelSide = 8192

    /// A transparent canvas of `size` points at `scale` pixels per point: `size × scale` pixels, rounded up
    /// (at least one pixel each way). A canvas that would be wider or taller than `maxPixelSide` pixels gets the
    /// lower scale that fits it, so it is drawn whole, only coarser.
    ///
    /// An `opaque` canvas has no alpha channel, as the backing store Core Animation makes for a layer whose `isOpaque`
    /// is true: it starts black, drawing composites onto it as onto an opaque surface, clearing makes black, and
    /// `makeImage()` gives opaque pixels.
    public init(size: Size, scale: Double = 1, opaque: Bool = false) {
        // Any numbers may come here from a layer's bounds and contentsScale (issue 15): `Int(_:)` trapped on a side
        // of 1e300, cairo failed beyond 32767 pixels, and the scale was a precondition. A side that is not a
        // finite positive number is empty (one pixel); a scale that is not a finite positive number is 1.
        let width = size.width.isFinite ? max(0, size.width) : 0, height = size.height.isFinite ? max(0, size.height) : 0
        var scale = scale.isFinite && scale > 0 ? scale : 1
        let longest = max(width, height), limit = Double(Self.maxPixelSide)
        if longest * scale > limit { scale = limit / longest }
        self.size = Size(width: width, height: height)
        self.scale = scale
        // A hair of tolerance so that 10 points at scale 3 (30.000000000000004) stays 30 pixels.
        pixelWidth = min(Self.maxPixelSide, max(1, Int((width * scale - 1e-9).rounded(.up))))
        pixelHeight = min(Self.maxPixelSide, max(1, Int((height * scale - 1e-9).rounded(.up))))
        isOpaque = opaque
        // RGB24 is cairo's surface without alpha: it starts zeroed (black) and composites as opaque.
        surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))!
        cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    // MARK: Graphics state

    /// Pushes the graphics state — transform, fill and stroke colours, line style, clip — for `restoreGState()`
    /// (`CGContext.saveGState()`).
    public func saveGState() {
        cairo_save(cr)
        savedColors.append(colors)
    }

    /// Restores the state saved by the matching `saveGState()`; does nothing without one.
    public func restoreGState() {
        guard let saved = savedColors.popLast() else { return }
        cairo_restore(cr)
        colors = saved
    }

    /// The colour `fillPath`, `fill(_:)` and `fillEllipse(in:)` paint with (black at first).
    public func setFillColor(_ color: Color) { colors.fill = color }
    /// The colour `strokePath`, `stroke(_:)` and `strokeEllipse(in:)` paint with (black at first).
    public func setStrokeColor(_ color: Color) { colors.stroke = color }
    /// The width of strokes, in points of the current user space.
    public func setLineWidth(_ width: Double) { cairo_set_line_width(cr, width) }
    /// How strokes end at the open ends of subpaths (butt at first).
    public func setLineCap(_ cap: LineCap) {
        cairo_set_line_cap(cr, cap == .butt ? CAIRO_LINE_CAP_BUTT : cap == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
    }
    /// How stroked segments meet at corners (miter at first).
    public func setLineJoin(_ join: LineJoin) {
        cairo_set_line_join(cr, join == .miter ? CAIRO_LINE_JOIN_MITER : join == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL)
    }
    /// The longest a miter join may be, as a multiple of the line width, before it is cut to a bevel (10 at first,
    /// as in Core Graphics).
    public func setMiterLimit(_ limit: Double) { cairo_set_miter_limit(cr, limit) }
    /// Dashes strokes with alternating on and off `lengths`, starting `phase` into the pattern; empty lengths stroke solid.
    public func setLineDash(phase: Double, lengths: [Double]) {
        cairo_set_dash(cr, lengths, Int32(lengths.count), phase)
    }

    // MARK: Transform

    /// Moves user space by `x`, `y` points (`CGContext.translateBy(x:y:)`); later drawing lands shifted.
    public func translateBy(x: Double, y: Double) { cairo_translate(cr, x, y) }
    /// Scales user space by `x` and `y` about its origin (`CGContext.scaleBy(x:y:)`).
    public func scaleBy(x: Double, y: Double) { cairo_scale(cr, x, y) }
    /// Turns the user space by `angle` radians; positive turns clockwise on screen (y down).
    public func rotate(by angle: Double) { cairo_rotate(cr, angle) }
    /// Applies `transform` to user space before the current transform (CGContextConcatCTM).
    public func concatenate(_ transform: AffineTransform2D) {
        var m = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d, x0: transform.tx, y0: transform.ty)
        cairo_transform(cr, &m)
    }
    /// User space to pixels, the context's scale included.
    public var currentTransform: AffineTransform2D {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        return AffineTransform2D(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
    }

    // MARK: Paths

    /// Adds `path` to the current path.
    public func addPath(_ path: Path) { path.append(to: cr) }

    /// Fills the current path with the fill colour, and clears it.
    public func fillPath(using rule: FillRule = .nonZero) {
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        setSource(colors.fill)
        cairo_fill(cr)
    }

    /// Strokes the current path with the stroke colour and line style, and clears it.
    public func strokePath() {
        setSource(colors.stroke)
        cairo_stroke(cr)
    }

    /// Fills `rect` with the fill colour, replacing the current path (`CGContext.fill(_:)`).
    public func fill(_ rect: Rect) { replacePath(with: Path(rect: rect)); fillPath() }
    /// Strokes `rect`'s outline with the stroke colour and line style, replacing the current path.
    public func stroke(_ rect: Rect) { replacePath(with: Path(rect: rect)); strokePath() }
    /// Fills the ellipse inscribed in `rect` with the fill colour, replacing the current path.
    public func fillEllipse(in rect: Rect) { replacePath(with: Path(ellipseIn: rect)); fillPath() }
    /// Strokes the ellipse inscribed in `rect`, replacing the current path.
    public func strokeEllipse(in rect: Rect) { replacePath(with: Path(ellipseIn: rect)); strokePath() }

    /// Makes `rect` transparent (CGContextClearRect), within the clip.
    public func clear(_ rect: Rect) {
        replacePath(with: Path(rect: rect))
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    // MARK: Clipping

    /// Narrows the clip to the inside of `path`; only `restoreGState()` widens it again.
    public func clip(to path: Path, using rule: FillRule = .nonZero) {
        replacePath(with: path)
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
    }

    /// Narrows the clip to `rect` (`CGContext.clip(to:)`); only `restoreGState()` widens it again.
    public func clip(to rect: Rect) { clip(to: Path(rect: rect)) }

    // MARK: Images

    /// Draws `image` stretched over `rect` (its top row at `rect.minY`: y down, no flip), filtered bilinearly with
    /// the edge pixels extended, so the rect is covered edge to edge. Leaves the current path alone.
    public func draw(_ image: Image, in rect: Rect) {
        let r = rect.standardized
        guard r.width > 0, r.height > 0 else { return }
        // Image pixels are premultiplied BGRA words: cairo's ARGB32, read in place (cairo never writes a source).
        let source = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(image.storage).assumingMemoryBound(to: UInt8.self),
                                                         CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
        let path = cairo_copy_path(cr)
        defer {
            cairo_append_path(cr, path)
            cairo_path_destroy(path)
            cairo_surface_destroy(source)
            withExtendedLifetime(image) {}
        }
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_translate(cr, r.minX, r.minY)
        cairo_scale(cr, r.width / Double(image.width), r.height / Double(image.height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Composites `surface` over the canvas pixel for pixel, its top-left pixel on the canvas's, through the clip
    /// and whatever the current transform (what `Layer.render(in:)` does with the compositor's pixels). Leaves the
    /// current path alone.
    package func composite(_ surface: Surface) {
        guard surface.width > 0, surface.height > 0 else { return }
        let source = cairo_image_surface_create_for_data(UnsafeMutableRawPointer(surface.pixels).assumingMemoryBound(to: UInt8.self),
                                                         CAIRO_FORMAT_ARGB32, Int32(surface.width), Int32(surface.height),
                                                         Int32(surface.pixelsPerRow * 4))
        defer {
            cairo_surface_destroy(source)
            withExtendedLifetime(surface) {}
        }
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    // MARK: Result

    /// A copy of the pixels drawn so far (premultiplied BGRA, `pixelWidth × pixelHeight`; opaque for an opaque canvas).
    public func makeImage() -> Image {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        let opaque = isOpaque, width = pixelWidth
        return Image(width: pixelWidth, height: pixelHeight) { out in
            for y in 0..<pixelHeight {
                let row = out.baseAddress! + y * width
                UnsafeMutableRawPointer(row).copyMemory(from: data + y * stride, byteCount: width * 4)
                // RGB24 leaves the alpha byte undefined: it is 255.
                if opaque { for x in 0..<width { row[x] |= 0xFF00_0000 } }
            }
        }
    }

    // MARK: Helpers

    private func setSource(_ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    private func replacePath(with path: Path) {
        cairo_new_path(cr)
        path.append(to: cr)
    }
}
