import Foundation

/// A transform taken apart as SEMANTICS-ANIMATION.md §5 describes (the "unmatrix" of Graphics Gems II, as CSS
/// Transforms 2 and WebKit's `decompose4`), in row-vector order:
///
///     M = S · K · R · T · P      (scale, skew, rotate, translate, then perspective)
///
/// `S = diag(scale)`; `K` has rows `(1,0,0)`, `(xy,1,0)`, `(xz,yz,1)`; `R` is the rotation of `quaternion`;
/// `T` translates by `translation`; `P` is the identity with its fourth column replaced by `perspective`.
/// The decomposition is of the matrix divided by its `m44`, so `transform` gives back that matrix (the same
/// projective map).
public struct UnmatrixedTransform: Sendable, Equatable {
    /// The scale along x, y and z.
    public var scale: SIMD3<Double>
    /// The skew factors `(xy, xz, yz)`: how much of the first row is in the second, of the first in the third, and of
    /// the second in the third.
    public var skew: SIMD3<Double>
    /// `(x, y, z, w)`; a rotation θ about the unit axis `a` (`Transform3D.makeRotation`) is `(a·sin(θ/2), cos(θ/2))`
    /// (or its negation, the same rotation).
    public var quaternion: SIMD4<Double>
    /// The translation along x, y and z.
    public var translation: SIMD3<Double>
    /// The fourth column of `P`, `(p1, p2, p3, p4)`; `(0, 0, 0, 1)` without perspective.
    public var perspective: SIMD4<Double>

    /// The parts of a transform; the defaults are the identity's.
    public init(scale: SIMD3<Double> = SIMD3(1, 1, 1), skew: SIMD3<Double> = .zero,
                quaternion: SIMD4<Double> = SIMD4(0, 0, 0, 1), translation: SIMD3<Double> = .zero,
                perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1)) {
        self.scale = scale
        self.skew = skew
        self.quaternion = quaternion
        self.translation = translation
        self.perspective = perspective
    }

    /// Decomposes `m`; nil when it cannot be: a non-finite entry, `m44 = 0`, perspective (`m14, m24, m34` not all 0)
    /// with a singular upper 3×3, or a singular upper 3×3 that is not a zero row (two rows parallel). A zero row gets
    /// scale 0 and the identity's row, made orthogonal to the others.
    public init?(_ m: Transform3D) {
        guard let raw = RawUnmatrix(m) else { return nil }
        self = raw.completed(hint: RawUnmatrix.identityRows)
    }

    /// The matrix `S · K · R · T · P` (with the quaternion normalised).
    public var transform: Transform3D {
        let r = Self.rows(of: quaternion)
        let (xy, xz, yz) = (skew.x, skew.y, skew.z)
        let u0 = scale.x * r[0]
        let u1 = scale.y * (xy * r[0] + r[1])
        let u2 = scale.z * (xz * r[0] + yz * r[1] + r[2])
        let t = translation, p = perspective
        let p3 = SIMD3(p.x, p.y, p.z)
        // (S·K·R·T) · P: P keeps the first three columns and makes the fourth the product with p.
        return Transform3D(m11: u0.x, m12: u0.y, m13: u0.z, m14: V3.dot(u0, p3),
                           m21: u1.x, m22: u1.y, m23: u1.z, m24: V3.dot(u1, p3),
                           m31: u2.x, m32: u2.y, m33: u2.z, m34: V3.dot(u2, p3),
                           m41: t.x, m42: t.y, m43: t.z, m44: V3.dot(t, p3) + p.w)
    }

    /// The rows of the rotation matrix of `q` (normalised first; a zero or non-finite quaternion is the identity).
    static func rows(of q: SIMD4<Double>) -> [SIMD3<Double>] {
        let length = (q * q).sum().squareRoot()
        guard length > 0, length.isFinite else { return RawUnmatrix.identityRows }
        let n = q / length
        let (x, y, z, w) = (n.x, n.y, n.z, n.w)
        return [SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))]
    }

    /// The quaternion of orthonormal rows with determinant +1: WebKit's stable form, the trace branch when
    /// `1 + trace > 0.001`, else the branch of the largest diagonal element.
    static func quaternion(rows r: [SIMD3<Double>]) -> SIMD4<Double> {
        let (r0, r1, r2) = (r[0], r[1], r[2])
        let trace = r0.x + r1.y + r2.z
        var q: SIMD4<Double>
        if 1 + trace > 0.001 {
            let w = 0.5 * (1 + trace).squareRoot()
            q = SIMD4((r1.z - r2.y) / (4 * w), (r2.x - r0.z) / (4 * w), (r0.y - r1.x) / (4 * w), w)
        } else if r0.x >= r1.y && r0.x >= r2.z {
            let s = 2 * max(0, 1 + r0.x - r1.y - r2.z).squareRoot()   // 4x
            q = SIMD4(s / 4, (r0.y + r1.x) / s, (r0.z + r2.x) / s, (r1.z - r2.y) / s)
        } else if r1.y >= r2.z {
            let s = 2 * max(0, 1 + r1.y - r0.x - r2.z).squareRoot()   // 4y
            q = SIMD4((r0.y + r1.x) / s, s / 4, (r1.z + r2.y) / s, (r2.x - r0.z) / s)
        } else {
            let s = 2 * max(0, 1 + r2.z - r0.x - r1.y).squareRoot()   // 4z
            q = SIMD4((r0.z + r2.x) / s, (r1.z + r2.y) / s, s / 4, (r0.y - r1.x) / s)
        }
        let length = (q * q).sum().squareRoot()
        return length > 0 && length.isFinite ? q / length : SIMD4(0, 0, 0, 1)
    }
}

/// Interpolation of transforms (SEMANTICS-ANIMATION.md §5).
public enum TransformInterpolation {
    /// The transform a fraction `f` of the way from `a` to `b`: scale, skew, translation and perspective linearly,
    /// the rotation by quaternion slerp along the shorter arc (so a whole-matrix animation to a 2π turn does nothing and
    /// π ± 0.1 turn opposite ways). `f` outside [0, 1] extrapolates. nil when either matrix cannot be decomposed (see
    /// `UnmatrixedTransform.init?`) or `f` is not finite: the caller goes discrete.
    ///
    /// The result is normalised to `m44 = 1` (§5 step 1 divides by `m44`): at `f = 0` it is `a / a.m44`, the same
    /// projective map as `a`, and exactly `a` for the usual `m44 = 1`.
    ///
    /// A zero row (scale 0) borrows its direction from the other endpoint's row (the identity's when that is zero
    /// too), made orthogonal to its own other rows, so scale 0 → 1 grows in place rather than jumping *(ours)*.
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D? {
        guard f.isFinite, let ra = RawUnmatrix(a), let rb = RawUnmatrix(b) else { return nil }
        let da = ra.completed(hint: rb.hintRows), db = rb.completed(hint: ra.hintRows)
        func mix<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar == Double { x + (y - x) * f }
        let mixed = UnmatrixedTransform(scale: mix(da.scale, db.scale), skew: mix(da.skew, db.skew),
                                        quaternion: slerp(da.quaternion, db.quaternion, f),
                                        translation: mix(da.translation, db.translation),
                                        perspective: mix(da.perspective, db.perspective))
        let m = mixed.transform
        let entries = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                       m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
        return entries.allSatisfy(\.isFinite) ? m : nil
    }

    /// Spherical interpolation of unit quaternions along the shorter arc (`b` negated when `a · b < 0`);
    /// normalised linear interpolation when they are within about 3° of each other.
    public static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ f: Double) -> SIMD4<Double> {
        var b = b
        var cosine = (a * b).sum()
        if cosine < 0 { b = -b; cosine = -cosine }
        var q: SIMD4<Double>
        if cosine > 0.9995 {
            q = a + (b - a) * f
        } else {
            let theta = acos(min(cosine, 1))
            let s = sin(theta)
            q = a * (sin((1 - f) * theta) / s) + b * (sin(f * theta) / s)
        }
        let length = (q * q).sum().squareRoot()
        return length > 0 && length.isFinite ? q / length : a
    }
}

// MARK: - The decomposition before its zero rows are filled in

/// Small vector helpers, in a namespace of their own so that they cannot clash with module-level functions.
private enum V3 {
    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// `|v|` without overflow or underflow of the squares (rows of 1e200 or 1e-200).
    static func length(_ v: SIMD3<Double>) -> Double {
        let largest = max(abs(v.x), abs(v.y), abs(v.z))
        guard largest > 0, largest.isFinite else { return largest }
        let s = v / largest
        return largest * dot(s, s).squareRoot()
    }
}

/// Steps 1–4 of §5: perspective, translation, scale and skew, and the unit rows of the rotation — nil for a row of
/// zero length, whose direction step 5 chooses.
fileprivate struct RawUnmatrix {
    static let identityRows: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]

    var scale = SIMD3<Double>(0, 0, 0)
    var skew = SIMD3<Double>(0, 0, 0)
    var rows: [SIMD3<Double>?] = [nil, nil, nil]
    var translation: SIMD3<Double>
    var perspective: SIMD4<Double>

    init?(_ m: Transform3D) {
        // 1. Normalise by m44.
        let all = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
        guard all.allSatisfy(\.isFinite), m.m44 != 0 else { return nil }
        let n = all.map { $0 / m.m44 }
        guard n.allSatisfy(\.isFinite) else { return nil }

        // 2. Perspective: p = A⁻¹ · (m14, m24, m34, m44)ᵀ, A = M with its fourth column (0, 0, 0, 1).
        if n[3] != 0 || n[7] != 0 || n[11] != 0 {
            let a = Transform3D(m11: n[0], m12: n[1], m13: n[2], m14: 0, m21: n[4], m22: n[5], m23: n[6], m24: 0,
                                m31: n[8], m32: n[9], m33: n[10], m34: 0, m41: n[12], m42: n[13], m43: n[14], m44: 1)
            guard let inverse = a.inverted() else { return nil }
            let column = SIMD4(n[3], n[7], n[11], n[15])
            let r = inverse.rows
            perspective = SIMD4((r[0] * column).sum(), (r[1] * column).sum(), (r[2] * column).sum(), (r[3] * column).sum())
            guard perspective.x.isFinite, perspective.y.isFinite, perspective.z.isFinite, perspective.w.isFinite else { return nil }
        } else {
            perspective = SIMD4(0, 0, 0, 1)
        }

        // 3. Translation.
        translation = SIMD3(n[12], n[13], n[14])

        // 4. Scale and skew by Gram–Schmidt on the rows. A row that is zero gets scale 0 (and skew 0 with it); a
        // non-zero row that lies (within 1e-12 of its length) in the span of the ones before cannot be written as
        // S·K·R: not decomposable.
        let u0 = SIMD3(n[0], n[1], n[2]), u1 = SIMD3(n[4], n[5], n[6]), u2 = SIMD3(n[8], n[9], n[10])
        let l0 = V3.length(u0)
        if l0 > 0 {
            scale.x = l0
            rows[0] = u0 / l0
        }

        var w1 = u1
        var xy = 0.0
        if let r0 = rows[0] { xy = V3.dot(r0, u1); w1 -= xy * r0 }
        if V3.length(u1) > 0 {
            let l1 = V3.length(w1)
            guard l1 > 1e-12 * V3.length(u1), l1.isFinite else { return nil }
            scale.y = l1
            rows[1] = w1 / l1
            skew.x = xy / l1
        }

        var w2 = u2
        var xz = 0.0, yz = 0.0
        if let r0 = rows[0] { xz = V3.dot(r0, w2); w2 -= xz * r0 }
        if let r1 = rows[1] { yz = V3.dot(r1, w2); w2 -= yz * r1 }
        if V3.length(u2) > 0 {
            let l2 = V3.length(w2)
            guard l2 > 1e-12 * V3.length(u2), l2.isFinite else { return nil }
            scale.z = l2
            rows[2] = w2 / l2
            skew.y = xz / l2
            skew.z = yz / l2
        }
        guard scale.x.isFinite, skew.x.isFinite, skew.y.isFinite, skew.z.isFinite else { return nil }
    }

    /// The unit rows the other endpoint may borrow: its own where known, the identity's elsewhere.
    var hintRows: [SIMD3<Double>] {
        (0..<3).map { rows[$0] ?? Self.identityRows[$0] }
    }

    /// Step 5 and 6: the missing rows chosen (the hint's row made orthogonal to the known rows; failing that the hint's
    /// other rows, then the identity's), the handedness made positive, and the quaternion taken from the rows.
    func completed(hint: [SIMD3<Double>]) -> UnmatrixedTransform {
        var scale = self.scale
        var basis = rows.compactMap { $0 }
        var out = rows.map { $0 ?? .zero }
        var lastFilled: Int?
        for i in 0..<3 where rows[i] == nil {
            let candidates = [hint[i]] + hint + Self.identityRows
            for candidate in candidates {
                var v = candidate
                for b in basis { v -= V3.dot(v, b) * b }
                let l = V3.length(v)
                if l > 1e-6 {
                    out[i] = v / l
                    basis.append(out[i])
                    lastFilled = i
                    break
                }
            }
        }
        // 5. A mirror: with every row known, negate the three scales and rows; otherwise turn a borrowed row over
        // (its scale is 0, so the matrix does not change).
        if V3.dot(out[0], V3.cross(out[1], out[2])) < 0 {
            if let i = lastFilled {
                out[i] = -out[i]
            } else {
                scale = -scale
                out = out.map { -$0 }
            }
        }
        return UnmatrixedTransform(scale: scale, skew: skew, quaternion: UnmatrixedTransform.quaternion(rows: out),
                                   translation: translation, perspective: perspective)
    }
}
