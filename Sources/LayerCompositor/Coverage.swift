/// A rounded rectangle in a layer's plane, with one radius per corner (0 for a square corner).
struct RoundedRect: Equatable {
    var minX, minY, maxX, maxY: Float
    /// Radii of the top-left, top-right, bottom-left and bottom-right corners (y down).
    var radii: SIMD4<Float>

    /// The largest corner radius (written out: SIMD's generic `max()` is not inlined).
    @inline(__always) var maxRadius: Float { max(max(radii.x, radii.y), max(radii.z, radii.w)) }

    /// The rect inset by `d` on every side, corner radii reduced by `d` (never below 0), as a border's inner edge.
    func inset(by d: Float) -> RoundedRect {
        RoundedRect(minX: minX + d, minY: minY + d, maxX: max(minX + d, maxX - d), maxY: max(minY + d, maxY - d),
                    radii: (radii - d).replacing(with: 0, where: radii - d .< 0))
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
    let rmax = r.maxRadius
    if dx * su < -1 && dy * sv < -1 && (rmax == 0 || (-dx > rmax || -dy > rmax)) { return 1 }
    var cov = edgeCoverage(dx * su) * edgeCoverage(dy * sv)
    if rmax > 0 {
        let left = u < (r.minX + r.maxX) * 0.5, top = v < (r.minY + r.maxY) * 0.5
        let radius = top ? (left ? r.radii[0] : r.radii[1]) : (left ? r.radii[2] : r.radii[3])
        if radius > 0 {
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
