import CCairo
import Foundation

/// A vector path (moves, lines, cubic curves, closes), as CGPath: shadow paths, masks and shapes.
///
/// A value, as `CGPath` is, not an object as `UIBezierPath` is: build it in a `var` (`var path = Path()`), since
/// `move(to:)` and the `add…` methods change it in place.
public struct Path: Hashable, Sendable {
    /// One step of a path, as CGPathElement: a move, a line, a cubic Bézier (two control points, then the end) or a close.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at the point (`CGPathElementType.moveToPoint`).
        case move(Point)
        /// A straight line from the current point to this one (`addLineToPoint`).
        case line(Point)
        /// A cubic Bézier from the current point: the first control point, the second, then the end (`addCurveToPoint`).
        case curve(Point, Point, Point)
        /// A line back to the subpath's start, closing it (`closeSubpath`).
        case close
    }
    /// The steps of the path in order; build them with the methods below.
    public private(set) var elements: [Element] = []
    /// An empty path (`CGMutablePath()`).
    public init() {}

    /// Starts a new subpath at `p` (`CGMutablePath.move(to:)`).
    public mutating func move(to p: Point) { elements.append(.move(p)) }
    /// A straight line from the current point to `p` (`addLine(to:)`).
    public mutating func addLine(to p: Point) { elements.append(.line(p)) }
    /// A cubic Bézier from the current point to `p` bent towards `control1` then `control2` (`addCurve(to:control1:control2:)`).
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) { elements.append(.curve(control1, control2, p)) }
    /// Closes the current subpath with a line back to its start (`closeSubpath()`).
    public mutating func closeSubpath() { elements.append(.close) }
    /// Appends every element of `other` (CGPath's `addPath`).
    public mutating func addPath(_ other: Path) { elements += other.elements }

    /// A closed rectangle, clockwise on screen from the top left (`CGPath(rect:transform:)`).
    public init(rect: Rect) {
        self.init()
        let r = rect.standardized
        move(to: Point(r.minX, r.minY)); addLine(to: Point(r.maxX, r.minY))
        addLine(to: Point(r.maxX, r.maxY)); addLine(to: Point(r.minX, r.maxY)); closeSubpath()
    }

    /// A rounded rectangle with circular corners (radius clamped to half the shorter side).
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        let r = rect.standardized
        let radius = max(0, min(cornerRadius, min(r.width, r.height) / 2))
        if radius == 0 { self.init(rect: r); return }
        self.init()
        let k = radius * 0.5522847498 // cubic approximation of a quarter circle
        move(to: Point(r.minX + radius, r.minY))
        addLine(to: Point(r.maxX - radius, r.minY))
        addCurve(to: Point(r.maxX, r.minY + radius), control1: Point(r.maxX - radius + k, r.minY), control2: Point(r.maxX, r.minY + radius - k))
        addLine(to: Point(r.maxX, r.maxY - radius))
        addCurve(to: Point(r.maxX - radius, r.maxY), control1: Point(r.maxX, r.maxY - radius + k), control2: Point(r.maxX - radius + k, r.maxY))
        addLine(to: Point(r.minX + radius, r.maxY))
        addCurve(to: Point(r.minX, r.maxY - radius), control1: Point(r.minX + radius - k, r.maxY), control2: Point(r.minX, r.maxY - radius + k))
        addLine(to: Point(r.minX, r.minY + radius))
        addCurve(to: Point(r.minX + radius, r.minY), control1: Point(r.minX, r.minY + radius - k), control2: Point(r.minX + radius - k, r.minY))
        closeSubpath()
    }

    /// An ellipse inscribed in `rect`.
    public init(ellipseIn rect: Rect) {
        self.init()
        let r = rect.standardized
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = rx * 0.5522847498, ky = ry * 0.5522847498
        move(to: Point(cx + rx, cy))
        addCurve(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry))
        addCurve(to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky))
        addCurve(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry))
        addCurve(to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky))
        closeSubpath()
    }

    /// Whether the path has no elements (`CGPath.isEmpty`).
    public var isEmpty: Bool { elements.isEmpty }

    /// The box of all points, control points included (CGPath's `boundingBox`), or `.null` when empty.
    public var boundingBox: Rect {
        var box = Rect.null
        func add(_ p: Point) { box = box.union(Rect(x: p.x, y: p.y, width: 0, height: 0)) }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .curve(let a, let b, let c): add(a); add(b); add(c)
            case .close: break
            }
        }
        return box
    }

    /// The path with every point transformed.
    public func applying(_ t: AffineTransform2D) -> Path {
        var out = Path()
        out.elements = elements.map {
            switch $0 {
            case .move(let p): .move(p.applying(t))
            case .line(let p): .line(p.applying(t))
            case .curve(let a, let b, let c): .curve(a.applying(t), b.applying(t), c.applying(t))
            case .close: .close
            }
        }
        return out
    }

    /// Fills the path (non-zero or even-odd) into `mask`, antialiased, after mapping it through `transform`.
    public func fill(into mask: AlphaMask, transform: AffineTransform2D = .identity, evenOdd: Bool = false) {
        let surface = cairo_image_surface_create_for_data(mask.bytes, CAIRO_FORMAT_A8, Int32(mask.width), Int32(mask.height), Int32(mask.bytesPerRow))
        let cr = cairo_create(surface)!
        var m = cairo_matrix_t(xx: transform.a, yx: transform.b, xy: transform.c, yy: transform.d, x0: transform.tx, y0: transform.ty)
        cairo_set_matrix(cr, &m)
        append(to: cr)
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }

    /// Adds the path's elements to the current path of the cairo context `cr`, in its user space.
    func append(to cr: OpaquePointer) {
        for e in elements {
            switch e {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .curve(let a, let b, let c): cairo_curve_to(cr, a.x, a.y, b.x, b.y, c.x, c.y)
            case .close: cairo_close_path(cr)
            }
        }
    }
}
