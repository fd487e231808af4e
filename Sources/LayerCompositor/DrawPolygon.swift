import LayerKit

/// A convex piece of one plane of a 3D rendering context, as the BSP tree sorts it (after Chromium's
/// cc/trees/draw_polygon).
///
/// Points are in the context's space after the perspective divide: there every line of sight is parallel to z
/// and the eye is far along +z (the projection only drops z), so depth order is plain geometry. A piece made by
/// splitting remembers the cuts, as half-planes of its layer's own plane, so that it is drawn as the whole
/// layer clipped by them: exact, and the kernels never see a split.
struct DrawPolygon {
    /// The plane of the context this is a piece of.
    let planeIndex: Int
    var points: [SIMD3<Double>]
    /// Unit normal by Newell's method; its sign follows the winding (it only decides which side the eye is on).
    let normal: SIMD3<Double>
    /// The plane's map from its own (u, v) to the context's homogeneous space: rows 1, 2 and 4 of its matrix.
    let toContext: (u: SIMD4<Double>, v: SIMD4<Double>, one: SIMD4<Double>)
    /// The cuts that made this piece, in the layer's plane: it is the layer where all of them hold.
    var cuts: [HalfPlane] = []

    /// Distance within which a point counts as on a plane (context units, about pixels): planes that only touch
    /// along an edge, as a cube's faces do, are not split.
    static let epsilon = 0.01

    /// Nil when the points do not span an area (fewer than three, or all on a line).
    init?(planeIndex: Int, points: [SIMD3<Double>], toContext: (u: SIMD4<Double>, v: SIMD4<Double>, one: SIMD4<Double>)) {
        guard points.count >= 3 else { return nil }
        var n = SIMD3<Double>.zero
        for i in 0..<points.count {
            let p = points[i], q = points[(i + 1) % points.count]
            n += SIMD3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y))
        }
        let length = (n * n).sum().squareRoot()
        guard length.isFinite, length > 1e-9 else { return nil }
        self.planeIndex = planeIndex
        self.points = points
        self.normal = n / length
        self.toContext = toContext
    }

    private init(_ other: DrawPolygon, points: [SIMD3<Double>], cut: HalfPlane) {
        planeIndex = other.planeIndex
        self.points = points
        normal = other.normal
        toContext = other.toContext
        cuts = other.cuts + [cut]
    }

    /// Signed distance of `p` from this polygon's plane (positive on the side the normal points to).
    func distance(_ p: SIMD3<Double>) -> Double { (normal * (p - points[0])).sum() }

    /// Whether the eye (far along +z) is on the positive side of this polygon's plane.
    var facesEye: Bool { normal.z > 0 }

    enum Side { case front, back, coplanar, straddling }

    /// Where `other` lies relative to this polygon's plane.
    func classify(_ other: DrawPolygon) -> Side {
        var front = false, back = false
        for p in other.points {
            let d = distance(p)
            if d > Self.epsilon { front = true } else if d < -Self.epsilon { back = true }
        }
        switch (front, back) {
        case (true, true): return .straddling
        case (true, false): return .front
        case (false, true): return .back
        case (false, false): return .coplanar
        }
    }

    /// `other` cut in two by this polygon's plane: the pieces in front and behind (nil when a piece has no area).
    /// Points within `epsilon` of the plane go to both pieces, so no sliver is made of rounding.
    func split(_ other: DrawPolygon) -> (front: DrawPolygon?, back: DrawPolygon?) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        let n = other.points.count
        let d = other.points.map(distance)
        for i in 0..<n {
            let p = other.points[i], dp = d[i]
            if dp >= -Self.epsilon { front.append(p) }
            if dp <= Self.epsilon { back.append(p) }
            let q = other.points[(i + 1) % n], dq = d[(i + 1) % n]
            if (dp > Self.epsilon && dq < -Self.epsilon) || (dp < -Self.epsilon && dq > Self.epsilon) {
                let x = p + (q - p) * (dp / (dp - dq))
                front.append(x)
                back.append(x)
            }
        }
        let cut = halfPlane(in: other)
        let f = front.count >= 3 ? DrawPolygon(other, points: front, cut: cut) : nil
        let b = back.count >= 3 ? DrawPolygon(other, points: back, cut: cut.flipped) : nil
        return (f, b)
    }

    /// This polygon's front half-space, stated in the plane of `other`'s layer: n·(X, Y, Z) − (n·p₀)·W > 0 with
    /// (X, Y, Z, W) = (u, v, 0, 1) · M, which is linear in (u, v); W > 0 there, so the sign is the side.
    func halfPlane(in other: DrawPolygon) -> HalfPlane {
        let l = SIMD4(normal.x, normal.y, normal.z, -(normal * points[0]).sum())
        let m = other.toContext
        return HalfPlane(a: (l * m.u).sum(), b: (l * m.v).sum(), c: (l * m.one).sum())
    }
}

extension HalfPlane {
    /// The other side of the same line.
    var flipped: HalfPlane { HalfPlane(a: -a, b: -b, c: -c) }
}
