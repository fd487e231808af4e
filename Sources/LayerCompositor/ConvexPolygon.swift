/// A half-plane `a·u + b·v + c > 0` of a layer's plane: what stays in front of the eye at one stage of the
/// transform chain (SEMANTICS.md: clip against w > ε before dividing).
struct HalfPlane {
    var a, b, c: Double

    /// This half-plane (stated in a parent's plane) pulled back into a child's plane through the child's
    /// 4×4 map to the parent (`Transform3D` restricted to z = 0): a·X + b·Y + c·W > 0 with (X, Y, W) linear in (u, v).
    func pulledBack(through h: Homography) -> HalfPlane {
        HalfPlane(a: a * h.m11 + b * h.m12 + c * h.m13,
                  b: a * h.m21 + b * h.m22 + c * h.m23,
                  c: a * h.m31 + b * h.m32 + c * h.m33)
    }

    /// The half-plane where a homography's W stays positive (with a small margin).
    static func inFront(of h: Homography) -> HalfPlane {
        HalfPlane(a: h.m13, b: h.m23, c: h.m33 - 1e-6)
    }
}

/// A convex polygon; the shape that limits a draw's work to the pixels it can touch.
struct ConvexPolygon {
    var points: [(x: Double, y: Double)]

    init(points: [(x: Double, y: Double)]) { self.points = points }

    init(rect minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) {
        points = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]
    }

    var isEmpty: Bool { points.count < 3 }

    /// Sutherland–Hodgman against one half-plane.
    func clipped(by p: HalfPlane) -> ConvexPolygon {
        guard !points.isEmpty else { return self }
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(points.count + 2)
        for i in 0..<points.count {
            let s = points[i], e = points[(i + 1) % points.count]
            let ds = p.a * s.x + p.b * s.y + p.c, de = p.a * e.x + p.b * e.y + p.c
            if ds > 0 { out.append(s) }
            if (ds > 0) != (de > 0) {
                let t = ds / (ds - de)
                out.append((s.x + (e.x - s.x) * t, s.y + (e.y - s.y) * t))
            }
        }
        return ConvexPolygon(points: out)
    }

    /// The polygon's image under a homography; every point must be in front (W > 0).
    func projected(by h: Homography) -> ConvexPolygon {
        ConvexPolygon(points: points.map { p in
            let q = h.apply(p.x, p.y)
            return (q.x / q.w, q.y / q.w)
        })
    }

    /// Twice the signed area (positive when the points turn clockwise on a y-down screen).
    var signedArea2: Double {
        var s = 0.0
        for i in 0..<points.count {
            let p = points[i], q = points[(i + 1) % points.count]
            s += p.x * q.y - q.x * p.y
        }
        return s
    }

    var boundingBox: PixelRect {
        guard !isEmpty else { return .empty }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        // One pixel of margin for antialiased edges; clamp far-away points (near the horizon) to a sane range.
        func clamp(_ v: Double) -> Int { Int(max(-1e7, min(1e7, v))) }
        return PixelRect(x0: clamp(x0.rounded(.down)) - 1, y0: clamp(y0.rounded(.down)) - 1,
                         x1: clamp(x1.rounded(.up)) + 1, y1: clamp(y1.rounded(.up)) + 1)
    }

    /// The columns a pixel row `y` (the strip y…y+1) may touch, with one pixel of margin; nil when none.
    func span(row y: Int) -> (x0: Int, x1: Int)? {
        let top = Double(y) - 1, bottom = Double(y) + 2
        var lo = Double.infinity, hi = -Double.infinity
        let n = points.count
        for i in 0..<n {
            let p = points[i], q = points[(i + 1) % n]
            if p.y >= top && p.y <= bottom { lo = min(lo, p.x); hi = max(hi, p.x) }
            // Where the edge crosses the strip's top and bottom lines.
            for line in [top, bottom] where (p.y - line) * (q.y - line) < 0 {
                let x = p.x + (q.x - p.x) * (line - p.y) / (q.y - p.y)
                lo = min(lo, x); hi = max(hi, x)
            }
        }
        guard lo <= hi else { return nil }
        let x0 = Int(max(-1e7, lo.rounded(.down))) - 1, x1 = Int(min(1e7, hi.rounded(.up))) + 1
        return (x0, x1)
    }
}

/// An integer pixel rectangle, half-open: x0 ≤ x < x1, y0 ≤ y < y1.
struct PixelRect: Equatable {
    var x0, y0, x1, y1: Int
    static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    func intersection(_ o: PixelRect) -> PixelRect {
        let r = PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }
    func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
}
