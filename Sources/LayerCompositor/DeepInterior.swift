/// The part of a draw where every pixel is certainly covered: inside the innermost edge (the border's inner
/// shape, the contents' rect) by half a pixel, and clear of the rounded corners. There the kernels skip
/// coverage entirely, and an opaque draw hides what lies beneath it (occlusion culling).
///
/// It is the inner rect, except in each rounded corner's square, where it is the corner's disk. For a pixel row,
/// "u > k" is `U − k·W > 0`, linear in x under any homography, and "inside a disk" is a quadratic in x, so each
/// row's interval is found by solving a few inequalities: no per-pixel test.
///
/// Half a pixel from an edge u = k, in the same terms: coverage ramps over half a pixel each side of an edge
/// (`edgeCoverage`), and u's gradient in pixels is (a − u·g, b − u·h) / W, so a pixel centre is fully inside when
/// U − k·W ≥ ½·|(a − u·g, b − u·h)|. That length is linear in u, so its largest value on the shape is at one
/// of its two edges: one constant per axis (`halfU`, `halfV`) makes the test linear again, exact for an affine
/// map and tight under perspective (the margin follows the footprint along the row instead of its worst case).
///
/// Mirrored (`init(reachOf:)`), the same rows give a shape's reach: the pixels whose coverage may be above 0, the
/// shape grown by half a pixel (its corners' circles too). Outside it a draw leaves pixels as they are, so the
/// kernels skip them (the corners of a rounded card, the polygon's antialiasing margin) and an opaque border's
/// band is exact: outside the reach of its inner edge and deep inside its outer one.
struct DeepInterior {
    /// The inner shape's edges (minX, minY, maxX, maxY).
    let rect: SIMD4<Double>
    /// Half a pixel, in the homogeneous terms above, along u and v (`halfDisk`: in any direction).
    let halfU, halfV, halfDisk: Double
    /// Centres and radii of the corner circles (top-left, top-right, bottom-left, bottom-right); radius 0: none.
    let diskX, diskY, diskRadius: SIMD4<Double>
    /// A reach (pixels that may be touched) rather than a deep interior (pixels certainly covered).
    let isReach: Bool

    /// - Parameters:
    ///   - inner: the innermost shape whose edge must not be crossed.
    ///   - t: the map from pixels to the shape's plane.
    init?(inner: RoundedRect, toLocal t: PixelToLocal) {
        self.init(inner, t, reach: false)
    }

    /// The pixels whose coverage by `shape` may be above 0 (nil: the shape is empty, or the map not finite).
    init?(reachOf shape: RoundedRect, toLocal t: PixelToLocal) {
        self.init(shape, t, reach: true)
    }

    private init?(_ inner: RoundedRect, _ t: PixelToLocal, reach: Bool) {
        let x0 = Double(inner.minX), y0 = Double(inner.minY), x1 = Double(inner.maxX), y1 = Double(inner.maxY)
        // Not finite when any term is not (or the sum overflows: then nothing is claimed, which is safe).
        let terms = t.a + t.b + t.c + t.d + t.e + t.f + t.g + t.h + t.i
        guard x0 < x1, y0 < y1, terms.isFinite else { return nil }
        rect = SIMD4(x0, y0, x1, y1)
        @inline(__always) func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
        let gu = max(length(t.a - x0 * t.g, t.b - x0 * t.h), length(t.a - x1 * t.g, t.b - x1 * t.h))
        let gv = max(length(t.d - y0 * t.g, t.e - y0 * t.h), length(t.d - y1 * t.g, t.e - y1 * t.h))
        // Affine: exact (a pixel centre half a pixel in is inside, so a canvas's first row is not shaded per
        // pixel; half a pixel out is outside the reach, its coverage 0 or a float's rounding of it); under
        // perspective, a thousandth more for the float coverage that the kernels would compute.
        isReach = reach
        let half = t.g == 0 && t.h == 0 ? 0.5 * (1 - 1e-6) : 0.5 * (1 + 1e-3)
        halfU = half * gu
        halfV = half * gv
        // The distance to a corner's circle has a gradient along its normal n, |n·J|: at most J's largest
        // singular value when J is constant (affine), else at most the norm of (∇u, ∇v).
        if t.g == 0 && t.h == 0 {
            let sum = t.a * t.a + t.b * t.b + t.d * t.d + t.e * t.e, det = t.a * t.e - t.b * t.d
            let largest = (0.5 * (sum + max(0, sum * sum - 4 * det * det).squareRoot())).squareRoot()
            halfDisk = half * largest * (1 + 1e-9)
        } else {
            halfDisk = half * length(gu, gv)
        }
        let radii = SIMD4<Double>(Double(inner.radii.x), Double(inner.radii.y), Double(inner.radii.z), Double(inner.radii.w))
        diskX = SIMD4(x0 + radii[0], x1 - radii[1], x0 + radii[2], x1 - radii[3])
        diskY = SIMD4(y0 + radii[0], y0 + radii[1], y1 - radii[2], y1 - radii[3])
        diskRadius = radii
    }

    /// Columns of row `y` whose pixel centres lie in the deep interior (or the reach), as a half-open interval.
    ///
    /// The shape is convex, so a row meets it in one interval: the rect's (half a pixel in, or out for a reach),
    /// less, at each rounded corner, the part of the row inside the corner's square but not (deep) inside its
    /// circle. Should a cut fall inside the interval (it cannot for a true rounded rect), a deep interior keeps the
    /// longer side (never a pixel that is not fully covered) and a reach keeps both (never a pixel that may be).
    func interval(row y: Int, _ t: PixelToLocal) -> (Int, Int)? {
        let inward: Double = isReach ? -1 : 1
        guard var (lo, hi) = Self.rectInterval(rect, row: y, t, pad: inward * SIMD4(halfU, halfV, halfU, halfV)) else { return nil }
        @inline(__always) func cut(_ a: Int, _ b: Int) {
            if a >= b || b <= lo || a >= hi { return }
            if a <= lo { lo = b } else if b >= hi { hi = a } else if isReach { return } else if a - lo >= hi - b { hi = a } else { lo = b }
        }
        // Most rows meet no corner: the row's points run straight from one end of the interval to the other, so
        // the (u, v) of its two end pixels bound where it goes (a corner square out of that box is not met).
        let py = Double(y) + 0.5
        @inline(__always) func local(_ x: Int) -> (Double, Double) {
            let px = Double(x) + 0.5, rw = 1 / (t.g * px + t.h * py + t.i)
            return ((t.a * px + t.b * py + t.c) * rw, (t.d * px + t.e * py + t.f) * rw)
        }
        let first = local(lo), last = local(hi - 1)
        let uMin = min(first.0, last.0) - 1, uMax = max(first.0, last.0) + 1
        let vMin = min(first.1, last.1) - 1, vMax = max(first.1, last.1) + 1
        for i in 0..<4 where diskRadius[i] > 0 {
            let left = i == 0 || i == 2, top = i < 2
            if left ? uMin > diskX[i] : uMax < diskX[i] { continue }
            if top ? vMin > diskY[i] : vMax < diskY[i] { continue }
            // The corner's square (its quadrant of the shape). For a deep interior, a hair larger so that no pixel
            // centre on its edge escapes; for a reach, a hair smaller on the sides facing the shape (beyond them the
            // straight edges cover) and reaching out as far as the grown rect.
            let r = diskRadius[i], e = 1e-9 * (1 + r)
            let square: SIMD4<Double>, squarePad: SIMD4<Double>
            if isReach {
                square = SIMD4(left ? rect.x : diskX[i] + e, top ? rect.y : diskY[i] + e,
                               left ? diskX[i] - e : rect.z, top ? diskY[i] - e : rect.w)
                squarePad = -SIMD4(left ? halfU : 0, top ? halfV : 0, left ? 0 : halfU, top ? 0 : halfV)
            } else {
                square = SIMD4(left ? rect.x - e : diskX[i] - e, top ? rect.y - e : diskY[i] - e,
                               left ? diskX[i] + e : rect.z + e, top ? diskY[i] + e : rect.w + e)
                squarePad = .zero
            }
            guard let s = Self.rectInterval(square, row: y, t, pad: squarePad) else { continue }
            switch Self.diskInterval(x: diskX[i], y: diskY[i], radius: r, pad: inward * halfDisk, row: y, t) {
            case .some(let d) where d.0 < d.1:
                cut(s.0, min(s.1, d.0))
                cut(max(s.0, d.1), s.1)
            case .none where isReach && Self.diskIsUnbounded(x: diskX[i], y: diskY[i], radius: r, row: y, t):
                continue   // the row runs towards the horizon inside the circle's cone: it may be met anywhere
            default:
                cut(s.0, s.1)
            }
            if lo >= hi { return nil }
        }
        return (lo, hi)
    }

    /// Whether row `y` runs towards the horizon inside the cone of the disk's circle (`diskInterval` then finds
    /// no bounded interval).
    static func diskIsUnbounded(x cx: Double, y cy: Double, radius: Double, row y: Int, _ t: PixelToLocal) -> Bool {
        let p1 = t.a - cx * t.g, q1 = t.d - cy * t.g, s1 = radius * t.g
        return p1 * p1 + q1 * q1 - s1 * s1 <= 0
    }

    /// Columns of row `y` whose pixel centres lie in the disk, in front of the eye, `pad` (homogeneous, as
    /// `halfDisk`; negative: outside) inside its circle: |(U − cx·W, V − cy·W)| < r·W − pad. Rounded inwards for a
    /// positive pad, outwards for a negative one.
    static func diskInterval(x cx: Double, y cy: Double, radius: Double, pad: Double, row y: Int, _ t: PixelToLocal) -> (Int, Int)? {
        let py = Double(y) + 0.5
        // At pixel-centre x = px: (U − cx·W)² + (V − cy·W)² < (r·W)², with each term linear in px.
        let uc = t.b * py + t.c, vc = t.e * py + t.f, wc = t.h * py + t.i
        let p1 = t.a - cx * t.g, p0 = uc - cx * wc
        let q1 = t.d - cy * t.g, q0 = vc - cy * wc
        let s1 = radius * t.g, s0 = radius * wc - pad
        let a = p1 * p1 + q1 * q1 - s1 * s1, b = p1 * p0 + q1 * q0 - s1 * s0, c = p0 * p0 + q0 * q0 - s0 * s0
        // a ≤ 0: the row runs towards the horizon inside the disk's cone; unbounded: claim none of it.
        guard a > 0 else { return nil }
        let discriminant = b * b - a * c
        guard discriminant > 0 else { return nil }
        let root = discriminant.squareRoot()
        var lo = (-b - root) / a, hi = (-b + root) / a
        // The cone's other nappe lies behind the eye: keep r·W − pad > 0 (so W > 0).
        if s1 > 0 { lo = max(lo, -s0 / s1) } else if s1 < 0 { hi = min(hi, -s0 / s1) } else if s0 <= 0 { return nil }
        // Rounding in the roots: a thousandth of a pixel inward (outward for a reach).
        let rounding = pad < 0 ? -1e-3 : 1e-3
        lo += rounding; hi -= rounding
        guard lo < hi else { return nil }
        let x0 = Int(max(-1e7, (lo - 0.5).rounded(.down))) + 1
        let x1 = Int(min(1e7, (hi - 0.5).rounded(.up)))
        return x0 < x1 ? (x0, x1) : nil
    }

    /// Columns of row `y` whose pixel centres lie inside `r` (minX, minY, maxX, maxY), in front of the eye, each
    /// side's `pad` (homogeneous: U − minX·W > pad.x, …) inside it.
    static func rectInterval(_ r: SIMD4<Double>, row y: Int, _ t: PixelToLocal, pad: SIMD4<Double> = .zero) -> (Int, Int)? {
        if r.x >= r.z || r.y >= r.w { return nil }
        let py = Double(y) + 0.5
        // At pixel-centre x = px: U = a·px + uc, V = d·px + vc, W = g·px + wc.
        let uc = t.b * py + t.c, vc = t.e * py + t.f, wc = t.h * py + t.i
        var lo = -Double.infinity, hi = Double.infinity
        // Each constraint: s·px + k > 0.
        func require(_ s: Double, _ k: Double) {
            if s > 0 { lo = max(lo, -k / s) } else if s < 0 { hi = min(hi, -k / s) } else if k <= 0 { lo = .infinity }
        }
        require(t.g, wc)                                   // W > 0
        require(t.a - r.x * t.g, uc - r.x * wc - pad.x)    // u > minX
        require(r.z * t.g - t.a, r.z * wc - uc - pad.z)    // u < maxX
        require(t.d - r.y * t.g, vc - r.y * wc - pad.y)    // v > minY
        require(r.w * t.g - t.d, r.w * wc - vc - pad.w)    // v < maxY
        guard lo < hi else { return nil }
        // Pixel centres px = x + 0.5 strictly inside (lo, hi).
        let x0 = Int(max(-1e7, (lo - 0.5).rounded(.down))) + 1
        let x1 = Int(min(1e7, (hi - 0.5).rounded(.up)))
        return x0 < x1 ? (x0, x1) : nil
    }
}

/// Removes the intervals `holes` (sorted by their start; they may overlap) from [x0, x1), calling `body` for what
/// remains, left to right.
@inline(__always)
func forEachVisibleRun(_ x0: Int, _ x1: Int, excluding holes: [(Int, Int)], _ body: (Int, Int) -> Void) {
    if holes.isEmpty { body(x0, x1); return }
    var start = x0
    for h in holes {
        if h.1 <= start { continue }
        if h.0 >= x1 { break }
        if h.0 > start { body(start, h.0) }
        start = max(start, h.1)
        if start >= x1 { return }
    }
    if start < x1 { body(start, x1) }
}
