import LayerGraphics

/// One affine piece of an axis map: texel = local · scale + offset.
struct AxisPiece: Equatable {
    var scale: Float, offset: Float
}

/// One axis of the map from a layer's plane to texels: up to three affine pieces split at two breaks
/// (`contentsCenter`'s nine-slice: start edge, stretched middle, end edge). Without a nine-slice the three
/// pieces are the same and the breaks are infinite, so the map is the plain `local · scale + offset`.
///
/// The pieces meet at the breaks (the map is continuous), so the image has no seam there.
struct AxisMap {
    /// Local coordinates where the middle piece starts and where the end piece starts.
    var break0: Float, break1: Float
    var start: AxisPiece, middle: AxisPiece, end: AxisPiece

    /// A single affine piece.
    init(_ piece: AxisPiece) {
        break0 = .infinity; break1 = .infinity
        start = piece; middle = piece; end = piece
    }

    init(break0: Float, break1: Float, start: AxisPiece, middle: AxisPiece, end: AxisPiece) {
        self.break0 = break0; self.break1 = break1; self.start = start; self.middle = middle; self.end = end
    }

    var isAffine: Bool { break0 == .infinity }

    @inline(__always)
    func piece(_ u: Float) -> AxisPiece { u < break0 ? start : (u < break1 ? middle : end) }

    @inline(__always)
    func callAsFunction(_ u: Float) -> Float {
        let p = piece(u)
        return u * p.scale + p.offset
    }

    /// The piece with the largest scale: the deep interior measures linearity in its texels.
    var reference: AxisPiece {
        var best = start
        for p in [middle, end] where abs(p.scale) > abs(best.scale) { best = p }
        return best
    }

    /// The nine-slice axis: local [d0, d1] shows source pixels [s0, s1], whose unit part [c0, c1] stretches while
    /// the parts before and after keep their natural length (pixels / contentsScale), scaled down together when
    /// they do not fit in [d0, d1] (Core Animation does the same). `c0 = 0, c1 = 1` gives the plain affine map.
    init(local d0: Double, length: Double, source s0: Double, length sourceLength: Double, center c0: Double, _ c1: Double,
         contentsScale: Double) {
        let scale = sourceLength / length
        let whole = AxisPiece(scale: Float(scale), offset: Float(s0 - d0 * scale))
        let d1 = d0 + length, s1 = s0 + sourceLength
        let lo = min(max(c0, 0), 1), hi = min(max(c1, lo), 1)
        guard lo > 0 || hi < 1, s1 > s0, d1 > d0 else { self.init(whole); return }
        let b0 = s0 + lo * (s1 - s0), b1 = s0 + hi * (s1 - s0)     // source breaks, pixels
        var before = (b0 - s0) / contentsScale, after = (s1 - b1) / contentsScale
        if before + after > d1 - d0 {
            let k = (d1 - d0) / (before + after)
            before *= k; after *= k
        }
        let e0 = d0 + before, e1 = d1 - after                      // local breaks
        func piece(_ a: Double, _ b: Double, _ sa: Double, _ sb: Double) -> AxisPiece? {
            guard b > a else { return nil }
            let scale = (sb - sa) / (b - a)
            return AxisPiece(scale: Float(scale), offset: Float(sa - a * scale))
        }
        let first = piece(d0, e0, s0, b0), middle = piece(e0, e1, b0, b1), last = piece(e1, d1, b1, s1)
        // An empty piece is never reached inside [d0, d1]; beyond the ends (antialiased edges) the neighbour extends.
        let m = middle ?? first ?? last!
        self.init(break0: Float(e0), break1: Float(e1), start: first ?? m, middle: m, end: last ?? m)
    }
}

/// A layer's contents map from its plane to texels, one axis map per direction.
struct ContentsMap {
    var x: AxisMap, y: AxisMap

    /// Contents placed in `rect` (the layer's plane) showing `source` (pixels), stretched per `center`
    /// (unit coordinates of `source`, nine-slice) with corners at `contentsScale`.
    init(rect: Rect, source: Rect, center: Rect, contentsScale: Double) {
        let c = center.standardized, k = contentsScale > 0 ? contentsScale : 1
        x = AxisMap(local: rect.minX, length: rect.width, source: source.minX, length: source.width, center: c.minX, c.maxX, contentsScale: k)
        y = AxisMap(local: rect.minY, length: rect.height, source: source.minY, length: source.height, center: c.minY, c.maxY, contentsScale: k)
    }

    init(x: AxisMap, y: AxisMap) { self.x = x; self.y = y }

    var isAffine: Bool { x.isAffine && y.isAffine }

    /// The level of detail at local (u, v) with footprint `f` (texels of the level-0 image per pixel, log2).
    @inline(__always)
    func levelOfDetail(_ u: Float, _ v: Float, _ f: Footprint) -> Float {
        footprintLevel(dudx: f.dudx, dudy: f.dudy, dvdx: f.dvdx, dvdy: f.dvdy, scaleX: x.piece(u).scale, scaleY: y.piece(v).scale)
    }

    /// Splits a deep-interior segment, given in the reference pieces' texels (`start` at its first pixel, `step`
    /// per pixel), into runs that each lie in one piece per axis, and calls `body(i, n, start, step, scaleX, scaleY)`
    /// for each in that run's own texels. An affine map passes the segment through untouched.
    ///
    /// Exact: along a row the local coordinates are monotone, so a run changes piece only where it crosses a break,
    /// and each run is sampled with its own piece (the pixels beyond a break never borrow the neighbour's scale).
    @inline(__always)
    func forEachPiece(_ n: Int, _ start: (Double, Double), _ step: (Double, Double),
                      _ body: (_ i: Int, _ n: Int, _ start: (Double, Double), _ step: (Double, Double), _ sx: Float, _ sy: Float) -> Void) {
        if isAffine { body(0, n, start, step, x.start.scale, y.start.scale); return }
        let rx = x.reference, ry = y.reference
        let u0 = (start.0 - Double(rx.offset)) / Double(rx.scale), du = step.0 / Double(rx.scale)
        let v0 = (start.1 - Double(ry.offset)) / Double(ry.scale), dv = step.1 / Double(ry.scale)
        var i = 0
        while i < n {
            let u = u0 + Double(i) * du, v = v0 + Double(i) * dv
            let j = min(Self.nextBreak(x, from: i, u0, du, n), Self.nextBreak(y, from: i, v0, dv, n))
            let px = x.piece(Float(u)), py = y.piece(Float(v))
            let sx = Double(px.scale), sy = Double(py.scale)
            body(i, j - i, (u * sx + Double(px.offset), v * sy + Double(py.offset)), (du * sx, dv * sy), px.scale, py.scale)
            i = j
        }
    }

    /// The first pixel index after `i` (at most `n`) whose coordinate `c0 + j·dc` lies in another piece.
    @inline(__always)
    static func nextBreak(_ m: AxisMap, from i: Int, _ c0: Double, _ dc: Double, _ n: Int) -> Int {
        let c = c0 + Double(i) * dc
        let b0 = Double(m.break0), b1 = Double(m.break1)
        let edge: Double
        if dc > 0 {
            guard c < b1 else { return n }
            edge = c < b0 ? b0 : b1
            let j = ((edge - c0) / dc).rounded(.up)
            return j >= Double(n) ? n : max(i + 1, Int(j))
        } else if dc < 0 {
            guard c >= b0 else { return n }
            edge = c >= b1 ? b1 : b0
            let j = ((edge - c0) / dc).rounded(.down) + 1
            return j >= Double(n) ? n : max(i + 1, Int(j))
        }
        return n
    }
}
