import Foundation

/// The corners of a rectangle a rounded rect rounds (UIRectCorner). With y down, "top" is the `minY` edge.
///
/// LayerKit's `CornerMask` names the same corners for `cornerRadius`; this set lives here because `Path` cannot
/// see LayerKit.
public struct RectCorner: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The corner at (`minX`, `minY`) (`UIRectCorner.topLeft`).
    public static let topLeft = RectCorner(rawValue: 1)
    /// The corner at (`maxX`, `minY`).
    public static let topRight = RectCorner(rawValue: 2)
    /// The corner at (`minX`, `maxY`).
    public static let bottomLeft = RectCorner(rawValue: 4)
    /// The corner at (`maxX`, `maxY`).
    public static let bottomRight = RectCorner(rawValue: 8)
    /// All four corners (`UIRectCorner.allCorners`).
    public static let allCorners: RectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

extension Path {
    /// A rectangle whose `corners` are rounded by elliptical quarter arcs of radii `cornerRadii` (width along x,
    /// height along y), the other corners square: `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)`.
    /// Radii are clamped to half the rect's width and height (negative or NaN: 0). Ours: UIKit draws a
    /// continuous-curvature corner and ignores `cornerRadii.height`; here the arcs are those of `cornerRadius`.
    /// One closed subpath, clockwise on screen from the top edge.
    public init(roundedRect rect: Rect, byRoundingCorners corners: RectCorner, cornerRadii: Size) {
        let r = rect.standardized
        func clamp(_ v: Double, _ limit: Double) -> Double { v.isNaN ? 0 : max(0, min(v, limit)) }
        let rx = clamp(cornerRadii.width, r.width / 2), ry = clamp(cornerRadii.height, r.height / 2)
        guard rx > 0, ry > 0, !corners.isEmpty else { self.init(rect: r); return }
        func radii(_ corner: RectCorner) -> (Double, Double) { corners.contains(corner) ? (rx, ry) : (0, 0) }
        let tl = radii(.topLeft), tr = radii(.topRight), br = radii(.bottomRight), bl = radii(.bottomLeft)
        self.init()
        move(to: Point(r.minX + tl.0, r.minY))
        addLine(to: Point(r.maxX - tr.0, r.minY))
        addCorner(to: Point(r.maxX, r.minY + tr.1), corner: Point(r.maxX, r.minY))
        addLine(to: Point(r.maxX, r.maxY - br.1))
        addCorner(to: Point(r.maxX - br.0, r.maxY), corner: Point(r.maxX, r.maxY))
        addLine(to: Point(r.minX + bl.0, r.maxY))
        addCorner(to: Point(r.minX, r.maxY - bl.1), corner: Point(r.minX, r.maxY))
        addLine(to: Point(r.minX, r.minY + tl.1))
        addCorner(to: Point(r.minX + tl.0, r.minY), corner: Point(r.minX, r.minY))
        closeSubpath()
    }

    /// A quarter ellipse from the current point to `p` around the rect corner `corner` (each end lies on one of
    /// the corner's two edges); nothing when the corner is square (the ends coincide with the corner).
    private mutating func addCorner(to p: Point, corner: Point) {
        guard let start = currentPoint, start != p else { return }
        let k = 0.5522847498 // cubic approximation of a quarter circle, as `init(roundedRect:cornerRadius:)`
        let c1 = Point(x: start.x + k * (corner.x - start.x), y: start.y + k * (corner.y - start.y))
        let c2 = Point(x: p.x + k * (corner.x - p.x), y: p.y + k * (corner.y - p.y))
        addCurve(to: p, control1: c1, control2: c2)
    }

    /// The tight box of the drawn path, curve extrema included and control points not (CGPath's
    /// `boundingBoxOfPath`); `.null` when empty. Moves count as points of the path, as in Core Graphics.
    public var boundingBoxOfPath: Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        var current: Point?
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p); current = p
            case .curve(let c1, let c2, let p):
                let p0 = current ?? c1
                add(p)
                for t in Self.extremaParameters(p0.x, c1.x, c2.x, p.x) + Self.extremaParameters(p0.y, c1.y, c2.y, p.y) {
                    let u = 1 - t
                    add(Point(x: u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                              y: u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y))
                }
                current = p
            case .close: break
            }
        }
        guard minX <= maxX, minY <= maxY else { return .null }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The parameters in (0, 1) where one coordinate of a cubic Bézier has a zero derivative: the roots of
    /// `a·t² + b·t + c` with the derivative's coefficients.
    private static func extremaParameters(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
        let a = 3 * (-p0 + 3 * p1 - 3 * p2 + p3), b = 6 * (p0 - 2 * p1 + p2), c = 3 * (p1 - p0)
        var roots: [Double] = []
        let scale = max(abs(a), abs(b), abs(c))
        guard scale > 0, scale.isFinite else { return [] }
        if abs(a) <= 1e-12 * scale {
            if abs(b) > 0 { roots.append(-c / b) }
        } else {
            let d = b * b - 4 * a * c
            if d >= 0 {
                let s = d.squareRoot()
                roots.append((-b + s) / (2 * a)); roots.append((-b - s) / (2 * a))
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }
}
