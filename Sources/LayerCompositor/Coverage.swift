/// A rounded rectangle in a layer's plane, with one radius per corner (0 for a square corner).
struct RoundedRect: Equatable {
    var minX, minY, maxX, maxY: Float
    /// Radii of the top-left, top-right, bottom-left and bottom-right corners (y down).
    var radii: SIMD4<Float>
    /// Apple's continuous corners (`CornerCurve.continuous`) instead of quarter circles: each corner then reaches
    /// `ContinuousCorner.extent` × its radius along its edges (`ContinuousCornerField`).
    var continuous = false
    /// Pixels are in or out by their centre (`allowsEdgeAntialiasing` false): coverage is 0 or 1.
    var aliased = false

    /// The largest corner radius (written out: SIMD's generic `max()` is not inlined).
    @inline(__always) var maxRadius: Float { max(max(radii.x, radii.y), max(radii.z, radii.w)) }

    /// How far the largest corner reaches along its edges from the rect's corner.
    @inline(__always) var maxCornerReach: Float { continuous ? maxRadius * ContinuousCornerField.extent : maxRadius }

    /// The rect inset by `d` on every side, corner radii reduced by `d` (never below 0), as a border's inner edge.
    func inset(by d: Float) -> RoundedRect {
        RoundedRect(minX: minX + d, minY: minY + d, maxX: max(minX + d, maxX - d), maxY: max(minY + d, maxY - d),
                    radii: (radii - d).replacing(with: 0, where: radii - d .< 0), continuous: continuous, aliased: aliased)
    }

    /// The same corners and rendering on other bounds.
    func with(minX: Float, minY: Float, maxX: Float, maxY: Float) -> RoundedRect {
        var r = self
        r.minX = minX; r.minY = minY; r.maxX = maxX; r.maxY = maxY
        return r
    }
}

/// The screen-space rate of change of the local coordinates at one pixel: how many local units one pixel
/// step moves. It turns a distance measured in the layer's plane into pixels, so that edges are
/// antialiased over one pixel of footprint whatever the transform (analytic coverage, no supersampling).
struct Footprint {
    /// ∂u/∂x, ∂u/∂y, ∂v/∂x, ∂v/∂y.
    let dudx, dudy, dvdx, dvdy: Float
    /// Pixels per local unit along u and v (the inverse length of the gradient of u and v in pixels).
    let uScale, vScale: Float

    @inline(__always)
    init(dudx: Float, dudy: Float, dvdx: Float, dvdy: Float) {
        self.dudx = dudx; self.dudy = dudy; self.dvdx = dvdx; self.dvdy = dvdy
        uScale = 1 / max((dudx * dudx + dudy * dudy).squareRoot(), 1e-12)
        vScale = 1 / max((dvdx * dvdx + dvdy * dvdy).squareRoot(), 1e-12)
    }
}

/// Fraction of a pixel inside a straight edge at signed distance `d` pixels (positive: outside).
@inline(__always)
func edgeCoverage(_ d: Float) -> Float { min(max(0.5 - d, 0), 1) }

/// Analytic coverage of the pixel whose centre maps to (u, v) by a rounded rect.
@inline(__always)
func coverage(of r: RoundedRect, u: Float, v: Float, footprint f: Footprint) -> Float {
    let dx = max(r.minX - u, u - r.maxX)   // > 0 outside the vertical edges
    let dy = max(r.minY - v, v - r.maxY)
    let su = f.uScale, sv = f.vScale
    // Far inside and clear of the corners: fully covered (the common case).
    let rmax = r.maxRadius, reach = r.maxCornerReach
    if dx * su < -1 && dy * sv < -1 && (rmax == 0 || (-dx > reach || -dy > reach)) { return 1 }
    if r.aliased { return isInside(r, u: u, v: v, dx: dx, dy: dy) ? 1 : 0 }
    var cov = edgeCoverage(dx * su) * edgeCoverage(dy * sv)
    if rmax > 0 {
        let left = u < (r.minX + r.maxX) * 0.5, top = v < (r.minY + r.maxY) * 0.5
        let radius = top ? (left ? r.radii[0] : r.radii[1]) : (left ? r.radii[2] : r.radii[3])
        if radius > 0 && r.continuous {
            // In the corner's frame: a and b measured inwards from the vertical and the horizontal edge.
            let a = left ? u - r.minX : r.maxX - u, b = top ? v - r.minY : r.maxY - v
            if let (distance, ga, gb) = ContinuousCornerField.shared.distance(a: a, b: b, radius: radius) {
                let nx = left ? ga : -ga, ny = top ? gb : -gb   // outward normal in (u, v): a grows with u on the left
                let gx = nx * f.dudx + ny * f.dvdx, gy = nx * f.dudy + ny * f.dvdy
                cov = min(cov, edgeCoverage(distance / max((gx * gx + gy * gy).squareRoot(), 1e-12)))
            }
        } else if radius > 0 {
            let cx = left ? r.minX + radius : r.maxX - radius
            let cy = top ? r.minY + radius : r.maxY - radius
            let ox = u - cx, oy = v - cy
            if (left ? ox < 0 : ox > 0) && (top ? oy < 0 : oy > 0) {
                let dist = (ox * ox + oy * oy).squareRoot()
                let nx = ox / max(dist, 1e-12), ny = oy / max(dist, 1e-12)
                // Screen gradient of the distance along the normal: n · J⁻¹.
                let gx = nx * f.dudx + ny * f.dvdx, gy = nx * f.dudy + ny * f.dvdy
                let pixels = (dist - radius) / max((gx * gx + gy * gy).squareRoot(), 1e-12)
                cov = min(cov, edgeCoverage(pixels))
            }
        }
    }
    return cov
}

/// Whether the point (u, v) is inside the rounded rect (its pixel's centre, for aliased coverage); `dx`, `dy` as in
/// `coverage(of:u:v:footprint:)`.
@inline(never)
func isInside(_ r: RoundedRect, u: Float, v: Float, dx: Float, dy: Float) -> Bool {
    guard dx <= 0, dy <= 0 else { return false }
    let left = u < (r.minX + r.maxX) * 0.5, top = v < (r.minY + r.maxY) * 0.5
    let radius = top ? (left ? r.radii[0] : r.radii[1]) : (left ? r.radii[2] : r.radii[3])
    guard radius > 0 else { return true }
    let a = left ? u - r.minX : r.maxX - u, b = top ? v - r.minY : r.maxY - v
    if r.continuous { return (ContinuousCornerField.shared.distance(a: a, b: b, radius: radius)?.0 ?? -1) <= 0 }
    guard a < radius, b < radius else { return true }
    let ox = radius - a, oy = radius - b
    return ox * ox + oy * oy <= radius * radius
}
