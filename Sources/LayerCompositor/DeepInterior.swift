/// The part of a draw where every pixel is certainly covered: inside the innermost edge (the border's inner
/// shape, the contents' rect) by more than a pixel, and clear of the rounded corners. There the kernels skip
/// coverage entirely, and an opaque draw hides what lies beneath it (occlusion culling).
///
/// It is the union of two rects of the layer's plane (a cross: the inner rect inset by the corner radius
/// one way and by the margin the other) and four corner disks (each corner's circle shrunk by the margin). For a
/// pixel row, "u > k" is `U − k·W > 0`, linear in x under any homography, and "inside a disk" is a quadratic in
/// x, so each row's interval is found by solving a few inequalities: no per-pixel test.
struct DeepInterior {
    /// (minX, minY, maxX, maxY) of the two rects.
    let wide: SIMD4<Double>
    let tall: SIMD4<Double>
    /// Centres and radii of the corner disks (top-left, top-right, bottom-left, bottom-right); radius ≤ 0: none.
    let diskX, diskY, diskRadius: SIMD4<Double>

    /// - Parameters:
    ///   - inner: the innermost shape whose edge must not be crossed.
    ///   - marginU, marginV: local units that a pixel's footprint can span (with safety), along u and v.
    init?(inner: RoundedRect, marginU: Double, marginV: Double) {
        let r = Double(inner.maxRadius)
        let x0 = Double(inner.minX), y0 = Double(inner.minY), x1 = Double(inner.maxX), y1 = Double(inner.maxY)
        wide = SIMD4(x0 + marginU, y0 + r + marginV, x1 - marginU, y1 - r - marginV)
        tall = SIMD4(x0 + r + marginU, y0 + marginV, x1 - r - marginU, y1 - marginV)
        if wide.x >= wide.z || tall.y >= tall.w { return nil }
        // A corner's coverage ramps over half the distance's screen gradient, which is at most the footprint's
        // norm: √(u² + v²) of the margins bounds it in every direction.
        let radii = SIMD4<Double>(Double(inner.radii.x), Double(inner.radii.y), Double(inner.radii.z), Double(inner.radii.w))
        diskX = SIMD4(x0 + radii[0], x1 - radii[1], x0 + radii[2], x1 - radii[3])
        diskY = SIMD4(y0 + radii[0], y0 + radii[1], y1 - radii[2], y1 - radii[3])
        diskRadius = radii - (marginU * marginU + marginV * marginV).squareRoot()
    }

    /// The margin, in local units, that keeps a pixel centre's coverage exactly 1 inside an edge (and 0 outside
    /// it), given the largest local units one pixel step spans there. Coverage ramps over half a pixel each side
    /// of an edge (`edgeCoverage`): under an affine map the footprint is the same everywhere and half of it is
    /// exact (a canvas's first row is then inside, not shaded pixel by pixel). Under perspective the largest
    /// footprint is estimated at the polygon's corners, which is not a bound: 1.5 of it (0.75 left pixels at a
    /// cube's silhouette 2% short of full coverage).
    @inline(__always)
    static func margin(_ unitsPerPixel: Double, affine: Bool) -> Double {
        affine ? 0.5 * unitsPerPixel * (1 - 1e-6) : 1.5 * unitsPerPixel + 1e-3
    }

    /// Columns of row `y` whose pixel centres lie in the deep interior, as a half-open interval.
    ///
    /// Each part's interval holds only deep pixels, so parts are joined only where their intervals meet: the
    /// result is exact for equal radii (the shape is convex) and never claims a pixel outside for unequal ones.
    func interval(row y: Int, _ t: PixelToLocal) -> (Int, Int)? {
        var best = Self.rectInterval(wide, row: y, t)
        @inline(__always) func join(_ part: (Int, Int)?) {
            guard let part else { return }
            guard let b = best else { best = part; return }
            if part.0 <= b.1 && b.0 <= part.1 { best = (min(part.0, b.0), max(part.1, b.1)) }
            else if part.1 - part.0 > b.1 - b.0 { best = part }
        }
        join(Self.rectInterval(tall, row: y, t))
        // The disks meet the cross in their rows; joined after it so that each extends what the cross found.
        for i in 0..<4 where diskRadius[i] > 0 { join(Self.diskInterval(x: diskX[i], y: diskY[i], radius: diskRadius[i], row: y, t)) }
        return best
    }

    /// Columns of row `y` whose pixel centres lie strictly inside the disk, in front of the eye.
    static func diskInterval(x cx: Double, y cy: Double, radius: Double, row y: Int, _ t: PixelToLocal) -> (Int, Int)? {
        let py = Double(y) + 0.5
        // At pixel-centre x = px: (U − cx·W)² + (V − cy·W)² < (r·W)², with each term linear in px.
        let uc = t.b * py + t.c, vc = t.e * py + t.f, wc = t.h * py + t.i
        let p1 = t.a - cx * t.g, p0 = uc - cx * wc
        let q1 = t.d - cy * t.g, q0 = vc - cy * wc
        let s1 = radius * t.g, s0 = radius * wc
        let a = p1 * p1 + q1 * q1 - s1 * s1, b = p1 * p0 + q1 * q0 - s1 * s0, c = p0 * p0 + q0 * q0 - s0 * s0
        // a ≤ 0: the row runs towards the horizon inside the disk's cone; unbounded, leave it to the cross.
        guard a > 0 else { return nil }
        let discriminant = b * b - a * c
        guard discriminant > 0 else { return nil }
        let root = discriminant.squareRoot()
        var lo = (-b - root) / a, hi = (-b + root) / a
        // The cone's other nappe lies behind the eye (W < 0): keep the part in front.
        if t.g > 0 { lo = max(lo, -wc / t.g) } else if t.g < 0 { hi = min(hi, -wc / t.g) } else if wc <= 0 { return nil }
        // Rounding in the roots: a thousandth of a pixel inward.
        lo += 1e-3; hi -= 1e-3
        guard lo < hi else { return nil }
        let x0 = Int(max(-1e7, (lo - 0.5).rounded(.down))) + 1
        let x1 = Int(min(1e7, (hi - 0.5).rounded(.up)))
        return x0 < x1 ? (x0, x1) : nil
    }

    static func rectInterval(_ r: SIMD4<Double>, row y: Int, _ t: PixelToLocal) -> (Int, Int)? {
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
        require(t.a - r.x * t.g, uc - r.x * wc)            // u > minX
        require(r.z * t.g - t.a, r.z * wc - uc)            // u < maxX
        require(t.d - r.y * t.g, vc - r.y * wc)            // v > minY
        require(r.w * t.g - t.d, r.w * wc - vc)            // v < maxY
        guard lo < hi else { return nil }
        // Pixel centres px = x + 0.5 strictly inside (lo, hi).
        let x0 = Int(max(-1e7, (lo - 0.5).rounded(.down))) + 1
        let x1 = Int(min(1e7, (hi - 0.5).rounded(.up)))
        return x0 < x1 ? (x0, x1) : nil
    }
}

/// Removes the intervals `holes` from [x0, x1), calling `body` for what remains, left to right.
@inline(__always)
func forEachVisibleRun(_ x0: Int, _ x1: Int, excluding holes: [(Int, Int)], _ body: (Int, Int) -> Void) {
    if holes.isEmpty { body(x0, x1); return }
    var start = x0
    for h in holes.sorted(by: { $0.0 < $1.0 }) {
        if h.1 <= start { continue }
        if h.0 >= x1 { break }
        if h.0 > start { body(start, h.0) }
        start = max(start, h.1)
        if start >= x1 { return }
    }
    if start < x1 { body(start, x1) }
}
