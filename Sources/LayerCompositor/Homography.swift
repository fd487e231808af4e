import LayerKit

/// A projective map of a plane, in row-vector form: `(u, v, 1) · H = (X, Y, W)`, the point being `(X/W, Y/W)`.
///
/// It is the part of a layer's 4×4 world matrix that acts on the layer's own plane (z = 0): rows 1, 2 and 4,
/// columns 1, 2 and 4 (z is dropped, w is kept).
struct Homography {
    var m11, m12, m13: Double
    var m21, m22, m23: Double
    var m31, m32, m33: Double

    init(m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double, m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The plane part of a layer's world matrix.
    init(plane t: Transform3D) {
        self.init(m11: t.m11, m12: t.m12, m13: t.m14, m21: t.m21, m22: t.m22, m23: t.m24, m31: t.m41, m32: t.m42, m33: t.m44)
    }


    @inline(__always)
    func apply(_ u: Double, _ v: Double) -> (x: Double, y: Double, w: Double) {
        (u * m11 + v * m21 + m31, u * m12 + v * m22 + m32, u * m13 + v * m23 + m33)
    }

    /// The inverse, or nil when the plane is seen edge-on (singular).
    func inverted() -> Homography? {
        let c11 = m22 * m33 - m23 * m32, c12 = m13 * m32 - m12 * m33, c13 = m12 * m23 - m13 * m22
        let det = m11 * c11 + m21 * c12 + m31 * c13
        guard det.isFinite, abs(det) > 1e-18 else { return nil }
        let s = 1 / det
        return Homography(
            m11: c11 * s, m12: c12 * s, m13: c13 * s,
            m21: (m23 * m31 - m21 * m33) * s, m22: (m11 * m33 - m13 * m31) * s, m23: (m13 * m21 - m11 * m23) * s,
            m31: (m21 * m32 - m22 * m31) * s, m32: (m12 * m31 - m11 * m32) * s, m33: (m11 * m22 - m12 * m21) * s)
    }
}

/// An inverse mapping prepared for the per-pixel loops: from a pixel centre to homogeneous local coordinates,
/// `U = a·x + b·y + c`, `V = d·x + e·y + f`, `W = g·x + h·y + i`, the local point being `(U/W, V/W)`.
struct PixelToLocal {
    let a, b, c, d, e, f, g, h, i: Double

    init(_ inverse: Homography) {
        a = inverse.m11; b = inverse.m21; c = inverse.m31
        d = inverse.m12; e = inverse.m22; f = inverse.m32
        g = inverse.m13; h = inverse.m23; i = inverse.m33
    }

    /// Whether `other` is this map, up to the rounding of the matrix products that made them (a relative 10⁻¹²
    /// per coefficient; a coefficient that is 0 in one must be 0 in the other).
    func isSame(as other: PixelToLocal) -> Bool {
        @inline(__always) func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 1e-12 * max(abs(x), abs(y)) }
        return close(a, other.a) && close(b, other.b) && close(c, other.c) && close(d, other.d) && close(e, other.e)
            && close(f, other.f) && close(g, other.g) && close(h, other.h) && close(i, other.i)
    }

    /// The local point (u, v) and its footprint at a position in pixels; nil behind the eye (W ≤ 0). What every
    /// per-pixel kernel starts with.
    @inline(__always)
    func local(px: Double, py: Double) -> (u: Float, v: Float, footprint: Footprint)? {
        let w = g * px + h * py + i
        if w <= 0 { return nil }
        let rw = 1 / w
        let u = (a * px + b * py + c) * rw, v = (d * px + e * py + f) * rw
        return (Float(u), Float(v), Footprint(dudx: Float((a - u * g) * rw), dudy: Float((b - u * h) * rw),
                                               dvdx: Float((d - v * g) * rw), dvdy: Float((e - v * h) * rw)))
    }

    /// The local point and footprint at a position in pixels (not necessarily a pixel centre); W must be > 0.
    @inline(__always)
    func footprint(px: Double, py: Double) -> Footprint {
        let w = g * px + h * py + i
        let rw = 1 / w
        let u = (a * px + b * py + c) * rw, v = (d * px + e * py + f) * rw
        return Footprint(dudx: Float((a - u * g) * rw), dudy: Float((b - u * h) * rw),
                         dvdx: Float((d - v * g) * rw), dvdy: Float((e - v * h) * rw))
    }
}
