import LayerGraphics

/// The signed distance to Apple's continuous corner (`ContinuousCorner`), tabulated once for a corner of radius 1
/// and scaled by the radius: what `coverage(of:u:v:footprint:)` measures a continuous corner's edge with, as it
/// measures a circular one by its distance to the circle. The curve has no closed-form distance (three Béziers), so
/// the distance is sampled on a grid over the corner's square and interpolated bilinearly: its error is some 10⁻⁴
/// radii, a hundredth of a pixel for a radius of 100 pixels.
final class ContinuousCornerField: Sendable {
    /// The one table every draw shares.
    static let shared = ContinuousCornerField()
    /// How far the corner reaches along each edge, in radii.
    static let extent = Float(ContinuousCorner.extent)
    /// Grid cells per side of the corner's square.
    private static let cells = 64
    /// Distances at (cells + 1)² grid points, row by row (b), in radii: negative inside the shape.
    private let samples: [Float]
    private let step: Float

    private init() {
        let extent = ContinuousCorner.extent
        // The corner as a polyline from (extent, 0) to (0, extent): a falls and b rises along it.
        var curve: [Point] = [Point(x: extent, y: 0)]
        var start = curve[0]
        for (c1, c2, end) in ContinuousCorner.segments {
            for i in 1...256 {
                let t = Double(i) / 256, u = 1 - t
                curve.append(Point(x: u * u * u * start.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * end.x,
                                   y: u * u * u * start.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * end.y))
            }
            start = end
        }
        let n = Self.cells
        let h = extent / Double(n)
        var samples = [Float](repeating: 0, count: (n + 1) * (n + 1))
        for j in 0...n {
            for i in 0...n {
                let p = Point(x: Double(i) * h, y: Double(j) * h)
                var nearest = Double.infinity, curveB = 0.0
                for k in 1..<curve.count {
                    let a = curve[k - 1], b = curve[k]
                    nearest = min(nearest, Self.distance(from: p, toSegment: a, b))
                    // The curve's b above p's a: p is inside when it lies beyond it, away from the corner.
                    if p.x <= a.x && p.x >= b.x {
                        let span = a.x - b.x
                        curveB = span > 0 ? a.y + (b.y - a.y) * (a.x - p.x) / span : max(a.y, b.y)
                    }
                }
                samples[j * (n + 1) + i] = Float(p.y > curveB ? -nearest : nearest)
            }
        }
        self.samples = samples
        step = Float(h)
    }

    private static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2)) : 0
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }

    /// The signed distance (positive outside) from a point to a corner of `radius`, and the unit direction in which
    /// it grows (the outward normal), for a point `a` and `b` in from the corner's vertical and horizontal edges; nil
    /// outside the corner's square (there the straight edges decide). Beyond an edge's line (a or b negative) the
    /// distance is that of the nearest point on the line plus the way out to it: never less than the true one.
    @inline(__always)
    func distance(a: Float, b: Float, radius: Float) -> (Float, Float, Float)? {
        let extent = Self.extent
        guard radius > 0, a < extent * radius, b < extent * radius else { return nil }
        let x = a / radius, y = b / radius
        let beyond = max(0, -x) + max(0, -y)
        let n = Self.cells
        let fx = max(0, x) / step, fy = max(0, y) / step
        let i = min(Int(fx), n - 1), j = min(Int(fy), n - 1)
        let tx = min(fx - Float(i), 1), ty = min(fy - Float(j), 1)
        let row = j * (n + 1) + i
        let s00 = samples[row], s10 = samples[row + 1], s01 = samples[row + n + 1], s11 = samples[row + n + 2]
        let d = (s00 * (1 - tx) + s10 * tx) * (1 - ty) + (s01 * (1 - tx) + s11 * tx) * ty
        var ga = (s10 - s00) * (1 - ty) + (s11 - s01) * ty, gb = (s01 - s00) * (1 - tx) + (s11 - s10) * tx
        let length = (ga * ga + gb * gb).squareRoot()
        if length > 1e-12 { ga /= length; gb /= length } else { ga = -0.7071; gb = -0.7071 }
        return ((d + beyond) * radius, ga, gb)
    }
}
