import Foundation

/// The shape of a rounded corner (CALayerCornerCurve): a quarter circle, or Apple's continuous corner.
public enum CornerCurve: Hashable, Sendable {
    /// A quarter circle of the corner radius (`CALayerCornerCurve.circular`): the default.
    case circular
    /// Apple's continuous corner (`CALayerCornerCurve.continuous`, the corner of iOS 7 and later's icons and
    /// `UIBezierPath(roundedRect:cornerRadius:)`): the curvature grows from zero along the edges to a circular arc
    /// of the corner radius in the middle, so the edge meets the corner without a visible kink. It begins
    /// `ContinuousCorner.extent` (about 1.53) radii from the corner on each edge, where a circular corner begins at 1.
    case continuous
}

/// The geometry of Apple's continuous corner, as reconstructed from the paths UIKit's
/// `UIBezierPath(roundedRect:cornerRadius:)` emits (the reconstruction several open-source ports agree on): three
/// cubic Béziers per corner, symmetric about the corner's diagonal — a lead-in that leaves the edge with zero
/// curvature, a near-circular middle arc of the radius about the point (r, r), and the mirrored lead-out.
///
/// Points are in units of the corner radius, in the corner's own frame: the corner at (0, 0), `u` measured along the
/// edge the path arrives on, `v` along the edge it leaves on (both pointing into the shape's sides).
public enum ContinuousCorner {
    /// How far along each edge the corner begins, in radii: 1.528665 (a circular corner: 1).
    public static let extent = 1.528665

    /// The corner's three cubic segments from (`extent`, 0) to (0, `extent`): each is (control 1, control 2, end).
    public static let segments: [(Point, Point, Point)] = {
        let a1 = 1.088492957618529, a2 = 0.868406944063002, a3 = 0.631493792830993, b3 = 0.074911387847016
        let m1 = 0.372823826625747, m2 = 0.16905955604437
        return [(Point(x: a1, y: 0), Point(x: a2, y: 0), Point(x: a3, y: b3)),
                (Point(x: m1, y: m2), Point(x: m2, y: m1), Point(x: b3, y: a3)),
                (Point(x: 0, y: a2), Point(x: 0, y: a1), Point(x: 0, y: extent))]
    }()

    /// The largest radius whose continuous corner fits a rect with sides `width` and `height`: a corner may reach
    /// half the shorter side, so the radius is at most that over `extent` (ours: UIKit blends towards a capsule
    /// instead; here a continuous corner never becomes a half circle, it stays the same shape, smaller).
    public static func clampedRadius(_ radius: Double, width: Double, height: Double) -> Double {
        guard radius.isFinite, radius > 0 else { return 0 }
        return min(radius, max(0, min(width, height)) / 2 / extent)
    }
}

extension Path {
    /// A rounded rectangle whose corners are `cornerCurve`'s (`CALayer.cornerCurve` applied to `cornerRadius`), the
    /// shape a layer's background, border, clip and shadow take. A circular corner's radius is clamped to half the
    /// shorter side, a continuous one's so that its `ContinuousCorner.extent` fits. One closed subpath, clockwise on
    /// screen from the top edge.
    public init(roundedRect rect: Rect, cornerRadius: Double, cornerCurve: CornerCurve) {
        self.init(roundedRect: rect, cornerRadius: cornerRadius, corners: .allCorners, cornerCurve: cornerCurve)
    }

    /// The same with only `corners` rounded (`CALayer.maskedCorners`), the others square.
    public init(roundedRect rect: Rect, cornerRadius: Double, corners: RectCorner, cornerCurve: CornerCurve) {
        let r = rect.standardized
        guard cornerCurve == .continuous else {
            let radius = cornerRadius.isNaN ? 0 : cornerRadius
            self.init(roundedRect: r, byRoundingCorners: corners, cornerRadii: Size(width: radius, height: radius))
            return
        }
        let radius = ContinuousCorner.clampedRadius(cornerRadius, width: r.width, height: r.height)
        guard radius > 0, !corners.isEmpty else { self.init(rect: r); return }
        self.init()
        let k = ContinuousCorner.extent * radius
        func reach(_ corner: RectCorner) -> Double { corners.contains(corner) ? k : 0 }
        // Clockwise on screen: along the top to the right, down the right side, back along the bottom, up the left.
        move(to: Point(r.minX + reach(.topLeft), r.minY))
        addLine(to: Point(r.maxX - reach(.topRight), r.minY))
        addContinuousCorner(at: Point(r.maxX, r.minY), along: Point(-1, 0), then: Point(0, 1), radius: corners.contains(.topRight) ? radius : 0)
        addLine(to: Point(r.maxX, r.maxY - reach(.bottomRight)))
        addContinuousCorner(at: Point(r.maxX, r.maxY), along: Point(0, -1), then: Point(-1, 0), radius: corners.contains(.bottomRight) ? radius : 0)
        addLine(to: Point(r.minX + reach(.bottomLeft), r.maxY))
        addContinuousCorner(at: Point(r.minX, r.maxY), along: Point(1, 0), then: Point(0, -1), radius: corners.contains(.bottomLeft) ? radius : 0)
        addLine(to: Point(r.minX, r.minY + reach(.topLeft)))
        addContinuousCorner(at: Point(r.minX, r.minY), along: Point(0, 1), then: Point(1, 0), radius: corners.contains(.topLeft) ? radius : 0)
        closeSubpath()
    }

    /// The continuous corner at `corner`, arriving along the edge that runs from the corner in direction `u` and
    /// leaving along the one in direction `v` (unit vectors); nothing for a square corner (radius 0).
    private mutating func addContinuousCorner(at corner: Point, along u: Point, then v: Point, radius: Double) {
        guard radius > 0 else { return }
        func map(_ p: Point) -> Point {
            Point(x: corner.x + radius * (p.x * u.x + p.y * v.x), y: corner.y + radius * (p.x * u.y + p.y * v.y))
        }
        for (c1, c2, end) in ContinuousCorner.segments { addCurve(to: map(end), control1: map(c1), control2: map(c2)) }
    }
}
