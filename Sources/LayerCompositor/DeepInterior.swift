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
///
/// A class: its precomputed rows take a kilobyte, and draws that hold several are copied per band of rows.
///
/// Each row's interval is kept once found: a card's shape is asked for the same row by its own draws and, as an
/// occluder, by every draw beneath it (a frame asked some twenty intervals a row of a dozen shapes). Unchecked
/// Sendable: a row is only ever asked by the band of rows that holds it (one thread), or before the bands start.
final class DeepInterior: @unchecked Sendable {
    /// A reach (pixels that may be touched) rather than a deep interior (pixels certainly covered).
    let isReach: Bool
    /// The rect's rows (half a pixel in, or out for a reach).
    private let rectRows: RectRows
    /// The rounded corners (square ones have none).
    private let corners: [CornerRows]
    /// The pixel rows (py) each corner's square spans, unbounded when unknown: most rows meet no corner, and are
    /// told so without a call.
    private let cornerSpans: [(low: Double, high: Double)]
    /// The intervals of rows firstCachedRow ..< firstCachedRow + cachedRows as found (`RowInterval`), or nil when the
    /// shape's rows are not bounded (a horizon) or too many to keep.
    private let rowCache: UnsafeMutablePointer<Int64>?
    private let firstCachedRow: Int, cachedRows: Int

    /// - Parameters:
    ///   - inner: the innermost shape whose edge must not be crossed.
    ///   - t: the map from pixels to the shape's plane.
    convenience init?(inner: RoundedRect, toLocal t: PixelToLocal) {
        self.init(inner, t, reach: false)
    }

    /// The pixels whose coverage by `shape` may be above 0 (nil: the shape is empty, or the map not finite).
    convenience init?(reachOf shape: RoundedRect, toLocal t: PixelToLocal) {
        self.init(shape, t, reach: true)
    }

    private init?(_ inner: RoundedRect, _ t: PixelToLocal, reach: Bool) {
        let x0 = Double(inner.minX), y0 = Double(inner.minY), x1 = Double(inner.maxX), y1 = Double(inner.maxY)
        // Not finite when any term is not (or the sum overflows: then nothing is claimed, which is safe).
        let terms = t.a + t.b + t.c + t.d + t.e + t.f + t.g + t.h + t.i
        guard x0 < x1, y0 < y1, terms.isFinite else { return nil }
        let rect = SIMD4(x0, y0, x1, y1)
        @inline(__always) func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
        let gu = max(length(t.a - x0 * t.g, t.b - x0 * t.h), length(t.a - x1 * t.g, t.b - x1 * t.h))
        let gv = max(length(t.d - y0 * t.g, t.e - y0 * t.h), length(t.d - y1 * t.g, t.e - y1 * t.h))
        // Affine: exact (a pixel centre half a pixel in is inside, so a canvas's first row is not shaded per
        // pixel; half a pixel out is outside the reach, its coverage 0 or a float's rounding of it); under
        // perspective, a thousandth more for the float coverage that the kernels would compute.
        isReach = reach
        let half = t.g == 0 && t.h == 0 ? 0.5 * (1 - 1e-6) : 0.5 * (1 + 1e-3)
        let halfU = half * gu, halfV = half * gv
        // The distance to a corner's circle has a gradient along its normal n, |n·J|: at most J's largest
        // singular value when J is constant (affine), else at most the norm of (∇u, ∇v).
        let halfDisk: Double
        if t.g == 0 && t.h == 0 {
            let sum = t.a * t.a + t.b * t.b + t.d * t.d + t.e * t.e, det = t.a * t.e - t.b * t.d
            let largest = (0.5 * (sum + max(0, sum * sum - 4 * det * det).squareRoot())).squareRoot()
            halfDisk = half * largest * (1 + 1e-9)
        } else {
            halfDisk = half * length(gu, gv)
        }
        let inward: Double = reach ? -1 : 1
        rectRows = RectRows(rect, t, pad: inward * SIMD4(halfU, halfV, halfU, halfV))
        // A continuous corner is bounded by circles: it lies inside the rect rounded by 0.98 of its radius (at 45° it
        // bulges 0.0014 radii beyond the circle of its own radius) and holds the rect rounded by `extent` radii (where
        // its edges begin); a deep interior takes the latter, a reach the former.
        let curve = inner.continuous ? (reach ? 0.98 : Double(ContinuousCornerField.extent)) : 1
        let radii = SIMD4<Double>(Double(inner.radii.x), Double(inner.radii.y), Double(inner.radii.z), Double(inner.radii.w)) * curve
        func corner(_ i: Int) -> (CornerRows, span: (low: Double, high: Double))? {
            let r = radii[i]
            guard r > 0 else { return nil }
            let left = i == 0 || i == 2, top = i < 2
            let cx = left ? x0 + r : x1 - r, cy = top ? y0 + r : y1 - r
            // The corner's square (its quadrant of the shape). For a deep interior, a hair larger so that no pixel
            // centre on its edge escapes; for a reach, a hair smaller on the sides facing the shape (beyond them the
            // straight edges cover) and reaching out as far as the grown rect.
            let e = 1e-9 * (1 + r)
            let square: SIMD4<Double>, squarePad: SIMD4<Double>
            if reach {
                square = SIMD4(left ? x0 : cx + e, top ? y0 : cy + e, left ? cx - e : x1, top ? cy - e : y1)
                squarePad = -SIMD4(left ? halfU : 0, top ? halfV : 0, left ? 0 : halfU, top ? 0 : halfV)
            } else {
                square = SIMD4(left ? x0 - e : cx - e, top ? y0 - e : cy - e, left ? cx + e : x1 + e, top ? cy + e : y1 + e)
                squarePad = .zero
            }
            let rows = t.rowsSpanned(by: square)
            return (CornerRows(square: RectRows(square, t, pad: squarePad), disk: DiskRows(x: cx, y: cy, radius: r, pad: inward * halfDisk, t)),
                    span: rows.map { (low: $0.0, high: $0.1) } ?? (low: -.infinity, high: .infinity))
        }
        let found = (0..<4).compactMap(corner)
        corners = found.map { $0.0 }
        cornerSpans = found.map { $0.span }
        // The rows the shape (grown by its margin) spans, with a row to spare each side.
        if let (low, high) = t.rowsSpanned(by: rect), low > -1e6, high < 1e6, high - low < 16384 {
            firstCachedRow = Int(low.rounded(.down)) - 1
            cachedRows = Int(high.rounded(.up)) + 2 - firstCachedRow
            let cache = UnsafeMutablePointer<Int64>.allocate(capacity: cachedRows)
            cache.initialize(repeating: RowInterval.unknown, count: cachedRows)
            rowCache = cache
        } else {
            firstCachedRow = 0; cachedRows = 0; rowCache = nil
        }
    }

    deinit { rowCache?.deallocate() }

    /// Columns of row `y` whose pixel centres lie in the deep interior (or the reach), as a half-open interval.
    ///
    /// The shape is convex, so a row meets it in one interval: the rect's (half a pixel in, or out for a reach),
    /// less, at each rounded corner, the part of the row inside the corner's square but not (deep) inside its
    /// circle. Should a cut fall inside the interval (it cannot for a true rounded rect), a deep interior keeps the
    /// longer side (never a pixel that is not fully covered) and a reach keeps both (never a pixel that may be).
    /// Cost: a multiply-add per edge; a corner's square and circle only on the rows it spans; once per row.
    @inline(__always)
    func interval(row y: Int) -> (Int, Int)? {
        let k = y - firstCachedRow
        if let rowCache, k >= 0, k < cachedRows {
            let kept = rowCache[k]
            if kept != RowInterval.unknown { return RowInterval.decode(kept) }
        }
        // Handed over unretained: a caller that read this shape from a draw would otherwise retain and release it
        // around the call, and both cores would do so on the same objects for every row of a frame.
        return Self.findAndKeepInterval(of: .passUnretained(self), row: y)
    }

    /// `findInterval(row:)` of `shape`, kept when the row is one the cache holds. The caller keeps `shape` alive.
    @inline(never)
    private static func findAndKeepInterval(of shape: Unmanaged<DeepInterior>, row y: Int) -> (Int, Int)? {
        shape._withUnsafeGuaranteedRef { shape in
            let found = shape.findInterval(row: y)
            let k = y - shape.firstCachedRow
            if let rowCache = shape.rowCache, k >= 0, k < shape.cachedRows { rowCache[k] = RowInterval.encode(found) }
            return found
        }
    }

    /// `interval(row:)` found afresh, never kept.
    func findInterval(row y: Int) -> (Int, Int)? {
        let py = Double(y) + 0.5
        guard var (lo, hi) = rectRows.interval(py) else { return nil }
        for i in corners.indices where py >= cornerSpans[i].low && py <= cornerSpans[i].high {
            corners[i].narrow(py, &lo, &hi, reach: isReach)
            if lo >= hi { return nil }
        }
        return (lo, hi)
    }
}

/// A row's interval in one word: the first column in the high half, the end in the low half (both within ±10⁷,
/// as `pixelCentres` clamps them), or a word no interval makes for "none" and "not found yet".
private enum RowInterval {
    static let unknown = Int64.min, none = Int64.min + 1

    @inline(__always)
    static func encode(_ i: (Int, Int)?) -> Int64 {
        guard let i else { return none }
        return Int64(i.0) << 32 | Int64(UInt32(truncatingIfNeeded: i.1))
    }

    @inline(__always)
    static func decode(_ word: Int64) -> (Int, Int)? {
        word == none ? nil : (Int(word >> 32), Int(Int32(truncatingIfNeeded: word)))
    }
}

/// The first and last columns whose pixel centres lie strictly inside (lo, hi), or nil.
@inline(__always)
private func pixelCentres(_ lo: Double, _ hi: Double) -> (Int, Int)? {
    guard lo < hi else { return nil }
    let x0 = Int(max(-1e7, (lo - 0.5).rounded(.down))) + 1
    let x1 = Int(min(1e7, (hi - 0.5).rounded(.up)))
    return x0 < x1 ? (x0, x1) : nil
}

/// A constraint s·px + k0 + k1·py > 0 on pixel centres: a bound on px that is linear in the row's py, found with a
/// multiply-add instead of a division per row.
private struct RowConstraint {
    enum Kind { case above, below, rowOnly }
    let kind: Kind
    let c0, c1: Double

    init(s: Double, k0: Double, k1: Double) {
        if s > 0 { kind = .above; c0 = -k0 / s; c1 = -k1 / s }
        else if s < 0 { kind = .below; c0 = -k0 / s; c1 = -k1 / s }
        else { kind = .rowOnly; c0 = k0; c1 = k1 }
    }

    @inline(__always)
    func narrow(_ py: Double, _ lo: inout Double, _ hi: inout Double) {
        let v = c0 + c1 * py
        switch kind {
        case .above: lo = max(lo, v)
        case .below: hi = min(hi, v)
        case .rowOnly: if !(v > 0) { lo = .infinity }
        }
    }
}

/// Pixel rows through a rect (minX, minY, maxX, maxY) of the plane, in front of the eye, each side's `pad`
/// (homogeneous: U − minX·W > pad.x, …) inside it. At pixel centre px of row py, U = a·px + b·py + c and so on,
/// so each side is a `RowConstraint`.
private struct RectRows {
    let w, minU, maxU, minV, maxV: RowConstraint
    let empty: Bool

    init(_ r: SIMD4<Double>, _ t: PixelToLocal, pad: SIMD4<Double>) {
        empty = r.x >= r.z || r.y >= r.w
        w = RowConstraint(s: t.g, k0: t.i, k1: t.h)
        minU = RowConstraint(s: t.a - r.x * t.g, k0: t.c - r.x * t.i - pad.x, k1: t.b - r.x * t.h)
        maxU = RowConstraint(s: r.z * t.g - t.a, k0: r.z * t.i - t.c - pad.z, k1: r.z * t.h - t.b)
        minV = RowConstraint(s: t.d - r.y * t.g, k0: t.f - r.y * t.i - pad.y, k1: t.e - r.y * t.h)
        maxV = RowConstraint(s: r.w * t.g - t.d, k0: r.w * t.i - t.f - pad.w, k1: r.w * t.h - t.e)
    }

    @inline(__always)
    func interval(_ py: Double) -> (Int, Int)? {
        if empty { return nil }
        var lo = -Double.infinity, hi = Double.infinity
        w.narrow(py, &lo, &hi); minU.narrow(py, &lo, &hi); maxU.narrow(py, &lo, &hi)
        minV.narrow(py, &lo, &hi); maxV.narrow(py, &lo, &hi)
        return pixelCentres(lo, hi)
    }
}

/// Pixel rows through a corner's disk, in front of the eye, `pad` (homogeneous; negative: outside) inside its
/// circle: |(U − cx·W, V − cy·W)| < r·W − pad, a quadratic in px whose row-dependent terms are linear in py.
private struct DiskRows {
    enum Meeting { case inside(Int, Int), missed, unbounded }
    let p1, q1, s1, a, p0c0, p0c1, q0c0, q0c1, s0c0, s0c1: Double
    let rounding: Double

    init(x cx: Double, y cy: Double, radius: Double, pad: Double, _ t: PixelToLocal) {
        p1 = t.a - cx * t.g; q1 = t.d - cy * t.g; s1 = radius * t.g
        a = p1 * p1 + q1 * q1 - s1 * s1
        p0c0 = t.c - cx * t.i; p0c1 = t.b - cx * t.h
        q0c0 = t.f - cy * t.i; q0c1 = t.e - cy * t.h
        s0c0 = radius * t.i - pad; s0c1 = radius * t.h
        // Rounding in the roots: a thousandth of a pixel inward (outward for a reach).
        rounding = pad < 0 ? -1e-3 : 1e-3
    }

    @inline(__always)
    func interval(_ py: Double) -> Meeting {
        // a ≤ 0: the row runs towards the horizon inside the disk's cone.
        guard a > 0 else { return .unbounded }
        let p0 = p0c0 + p0c1 * py, q0 = q0c0 + q0c1 * py, s0 = s0c0 + s0c1 * py
        let b = p1 * p0 + q1 * q0 - s1 * s0, c = p0 * p0 + q0 * q0 - s0 * s0
        let discriminant = b * b - a * c
        guard discriminant > 0 else { return .missed }
        let root = discriminant.squareRoot()
        var lo = (-b - root) / a, hi = (-b + root) / a
        // The cone's other nappe lies behind the eye: keep r·W − pad > 0 (so W > 0).
        if s1 > 0 { lo = max(lo, -s0 / s1) } else if s1 < 0 { hi = min(hi, -s0 / s1) } else if s0 <= 0 { return .missed }
        guard let (x0, x1) = pixelCentres(lo + rounding, hi - rounding) else { return .missed }
        return .inside(x0, x1)
    }
}

/// A rounded corner: its square and its disk (the rows its square spans are `DeepInterior.cornerSpans`).
private struct CornerRows {
    let square: RectRows
    let disk: DiskRows

    /// Takes from the row's interval [lo, hi) the part inside the corner's square but not (deep) inside its circle
    /// (on a row the square spans: the caller checks).
    @inline(__always)
    func narrow(_ py: Double, _ lo: inout Int, _ hi: inout Int, reach: Bool) {
        guard let s = square.interval(py) else { return }
        @inline(__always) func cut(_ a: Int, _ b: Int) {
            if a >= b || b <= lo || a >= hi { return }
            if a <= lo { lo = b } else if b >= hi { hi = a } else if reach { return } else if a - lo >= hi - b { hi = a } else { lo = b }
        }
        switch disk.interval(py) {
        case .inside(let d0, let d1):
            cut(s.0, min(s.1, d0))
            cut(max(s.0, d1), s.1)
        case .unbounded where reach:
            return   // the row runs towards the horizon inside the circle's cone: it may be met anywhere
        case .unbounded, .missed:
            cut(s.0, s.1)
        }
    }
}

extension PixelToLocal {
    /// The pixel rows (py) that a rect (minX, minY, maxX, maxY) of the plane spans, with a pixel and a half to spare
    /// (pads of half a pixel, rounding), or nil when a corner of it is behind the eye or the map is singular.
    func rowsSpanned(by r: SIMD4<Double>) -> (Double, Double)? {
        // The adjugate of [[a, b, c], [d, e, f], [g, h, i]] maps a local (u, v, 1) back to pixels, homogeneously.
        let A = e * i - f * h, B = c * h - b * i, C = b * f - c * e
        let D = f * g - d * i, E = a * i - c * g, F = c * d - a * f
        let G = d * h - e * g, H = b * g - a * h, I = a * e - b * d
        var low = Double.infinity, high = -Double.infinity
        for (u, v) in [(r.x, r.y), (r.z, r.y), (r.x, r.w), (r.z, r.w)] {
            let z = G * u + H * v + I
            guard z != 0 else { return nil }
            let px = (A * u + B * v + C) / z, py = (D * u + E * v + F) / z
            guard (g * px + h * py + i) > 0, py.isFinite else { return nil }
            low = min(low, py); high = max(high, py)
        }
        return (low - 1.5, high + 1.5)
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
