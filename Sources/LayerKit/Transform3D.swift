import Foundation
import LayerGraphics

/// A 4×4 homogeneous transform in Core Animation's layout (CATransform3D): row vectors, `p' = p · M`,
/// translation in `m41 m42 m43`, perspective through `m34 = -1/d`.
///
/// `a.concatenating(b)` means "a, then b" (`a · b`). `t.rotated(…)`, `translated`, `scaled` apply the new
/// operation *before* `t`, as `CATransform3DRotate` does.
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    /// The first row: x's images in the x, y and z columns, and its perspective term.
    public var m11, m12, m13, m14: Double
    /// The second row: y's images, and its perspective term.
    public var m21, m22, m23, m24: Double
    /// The third row: z's images; `m34 = -1/d` gives perspective from eye distance d.
    public var m31, m32, m33, m34: Double
    /// The fourth row: the translation (`m41 m42 m43`) and the homogeneous term.
    public var m41, m42, m43, m44: Double

    /// A matrix of the sixteen given entries, row by row.
    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The transform that changes nothing (CATransform3DIdentity).
    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
    /// The identity transform.
    public init() { self = .identity }

    // MARK: Makers

    /// A translation by (tx, ty, tz) (CATransform3DMakeTranslation).
    public static func makeTranslation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var t = identity; t.m41 = tx; t.m42 = ty; t.m43 = tz; return t
    }
    /// A scale by (sx, sy, sz) (CATransform3DMakeScale).
    public static func makeScale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        var t = identity; t.m11 = sx; t.m22 = sy; t.m33 = sz; return t
    }
    /// A rotation of `angle` radians about the axis (x, y, z), normalised; a zero or non-finite axis gives the identity.
    /// With y down, a positive angle about z turns clockwise on screen, and about y moves the right edge away.
    public static func makeRotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        // Divided by its largest component first, an axis of 1e-200 or 1e200 is the same direction as one of 1:
        // squaring it directly would underflow to 0 or overflow to infinity and lose the rotation.
        guard x.isFinite && y.isFinite && z.isFinite else { return identity }
        let largest = max(abs(x), abs(y), abs(z))
        guard largest > 0 else { return identity }
        let (sx, sy, sz) = (x / largest, y / largest, z / largest)
        let length = (sx * sx + sy * sy + sz * sz).squareRoot()
        let x = sx / length, y = sy / length, z = sz / length
        let c = cos(angle), s = sin(angle), k = 1 - c
        return Transform3D(
            m11: c + k * x * x, m12: k * x * y + z * s, m13: k * x * z - y * s, m14: 0,
            m21: k * x * y - z * s, m22: c + k * y * y, m23: k * y * z + x * s, m24: 0,
            m31: k * x * z + y * s, m32: k * y * z - x * s, m33: c + k * z * z, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }
    /// A perspective projection for an eye at distance `d` (`m34 = -1/d`); `d <= 0` gives the identity.
    public static func makePerspective(distance d: Double) -> Transform3D {
        var t = identity
        if d > 0 { t.m34 = -1 / d }
        return t
    }

    // MARK: Composition

    /// `self`, then `t` (the matrix product `self · t`).
    public func concatenating(_ t: Transform3D) -> Transform3D {
        // Rows as SIMD values on the stack: this runs for every layer of every frame (and for each additive
        // transform animation), where building arrays of rows cost three heap allocations a product.
        let b0 = SIMD4(t.m11, t.m12, t.m13, t.m14), b1 = SIMD4(t.m21, t.m22, t.m23, t.m24)
        let b2 = SIMD4(t.m31, t.m32, t.m33, t.m34), b3 = SIMD4(t.m41, t.m42, t.m43, t.m44)
        let r0 = m11 * b0 + m12 * b1 + m13 * b2 + m14 * b3
        let r1 = m21 * b0 + m22 * b1 + m23 * b2 + m24 * b3
        let r2 = m31 * b0 + m32 * b1 + m33 * b2 + m34 * b3
        let r3 = m41 * b0 + m42 * b1 + m43 * b2 + m44 * b3
        return Transform3D(m11: r0.x, m12: r0.y, m13: r0.z, m14: r0.w, m21: r1.x, m22: r1.y, m23: r1.z, m24: r1.w,
                           m31: r2.x, m32: r2.y, m33: r2.z, m34: r2.w, m41: r3.x, m42: r3.y, m43: r3.z, m44: r3.w)
    }
    // One labelling scheme for the instance methods: AffineTransform2D's (CGAffineTransform's Swift names) with a
    // `z:` added — `translatedBy(x:y:z:)`, `scaledBy(x:y:z:)`, `rotated(by:x:y:z:)`. Each applies its step
    // before `self`, as CATransform3DTranslate/Scale/Rotate do. The `make…` constructors keep CA's function names.

    /// A translation applied before `self` (CATransform3DTranslate).
    public func translatedBy(x tx: Double, y ty: Double, z tz: Double) -> Transform3D {
        Transform3D.makeTranslation(tx, ty, tz).concatenating(self)
    }
    /// A scale applied before `self` (CATransform3DScale).
    public func scaledBy(x sx: Double, y sy: Double, z sz: Double) -> Transform3D {
        Transform3D.makeScale(sx, sy, sz).concatenating(self)
    }
    /// A rotation by `angle` radians about the axis `(x, y, z)`, applied before `self` (CATransform3DRotate).
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D.makeRotation(angle, x, y, z).concatenating(self)
    }

    // MARK: Queries

    /// Whether this is the identity (CATransform3DIsIdentity).
    public var isIdentity: Bool { self == .identity }
    /// True when the matrix only maps x and y affinely (what `affineTransform` can represent exactly).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 &&
            m43 == 0 && m44 == 1
    }
    /// The 2D part (`a = m11, b = m12, c = m21, d = m22, tx = m41, ty = m42`), as CATransform3DGetAffineTransform.
    public var affineTransform: AffineTransform2D {
        AffineTransform2D(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }
    /// The 3D form of an affine transform (CATransform3DMakeAffineTransform).
    public init(affine t: AffineTransform2D) {
        self = .identity
        m11 = t.a; m12 = t.b; m21 = t.c; m22 = t.d; m41 = t.tx; m42 = t.ty
    }

    /// The inverse, or nil when the matrix is singular. (Core Animation returns the original matrix then;
    /// an optional makes the failure visible.)
    public func inverted() -> Transform3D? {
        let m = [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
        var inv = [Double](repeating: 0, count: 16)
        inv[0] = m[5]*m[10]*m[15] - m[5]*m[11]*m[14] - m[9]*m[6]*m[15] + m[9]*m[7]*m[14] + m[13]*m[6]*m[11] - m[13]*m[7]*m[10]
        inv[4] = -m[4]*m[10]*m[15] + m[4]*m[11]*m[14] + m[8]*m[6]*m[15] - m[8]*m[7]*m[14] - m[12]*m[6]*m[11] + m[12]*m[7]*m[10]
        inv[8] = m[4]*m[9]*m[15] - m[4]*m[11]*m[13] - m[8]*m[5]*m[15] + m[8]*m[7]*m[13] + m[12]*m[5]*m[11] - m[12]*m[7]*m[9]
        inv[12] = -m[4]*m[9]*m[14] + m[4]*m[10]*m[13] + m[8]*m[5]*m[14] - m[8]*m[6]*m[13] - m[12]*m[5]*m[10] + m[12]*m[6]*m[9]
        inv[1] = -m[1]*m[10]*m[15] + m[1]*m[11]*m[14] + m[9]*m[2]*m[15] - m[9]*m[3]*m[14] - m[13]*m[2]*m[11] + m[13]*m[3]*m[10]
        inv[5] = m[0]*m[10]*m[15] - m[0]*m[11]*m[14] - m[8]*m[2]*m[15] + m[8]*m[3]*m[14] + m[12]*m[2]*m[11] - m[12]*m[3]*m[10]
        inv[9] = -m[0]*m[9]*m[15] + m[0]*m[11]*m[13] + m[8]*m[1]*m[15] - m[8]*m[3]*m[13] - m[12]*m[1]*m[11] + m[12]*m[3]*m[9]
        inv[13] = m[0]*m[9]*m[14] - m[0]*m[10]*m[13] - m[8]*m[1]*m[14] + m[8]*m[2]*m[13] + m[12]*m[1]*m[10] - m[12]*m[2]*m[9]
        inv[2] = m[1]*m[6]*m[15] - m[1]*m[7]*m[14] - m[5]*m[2]*m[15] + m[5]*m[3]*m[14] + m[13]*m[2]*m[7] - m[13]*m[3]*m[6]
        inv[6] = -m[0]*m[6]*m[15] + m[0]*m[7]*m[14] + m[4]*m[2]*m[15] - m[4]*m[3]*m[14] - m[12]*m[2]*m[7] + m[12]*m[3]*m[6]
        inv[10] = m[0]*m[5]*m[15] - m[0]*m[7]*m[13] - m[4]*m[1]*m[15] + m[4]*m[3]*m[13] + m[12]*m[1]*m[7] - m[12]*m[3]*m[5]
        inv[14] = -m[0]*m[5]*m[14] + m[0]*m[6]*m[13] + m[4]*m[1]*m[14] - m[4]*m[2]*m[13] - m[12]*m[1]*m[6] + m[12]*m[2]*m[5]
        inv[3] = -m[1]*m[6]*m[11] + m[1]*m[7]*m[10] + m[5]*m[2]*m[11] - m[5]*m[3]*m[10] - m[9]*m[2]*m[7] + m[9]*m[3]*m[6]
        inv[7] = m[0]*m[6]*m[11] - m[0]*m[7]*m[10] - m[4]*m[2]*m[11] + m[4]*m[3]*m[10] + m[8]*m[2]*m[7] - m[8]*m[3]*m[6]
        inv[11] = -m[0]*m[5]*m[11] + m[0]*m[7]*m[9] + m[4]*m[1]*m[11] - m[4]*m[3]*m[9] - m[8]*m[1]*m[7] + m[8]*m[3]*m[5]
        inv[15] = m[0]*m[5]*m[10] - m[0]*m[6]*m[9] - m[4]*m[1]*m[10] + m[4]*m[2]*m[9] + m[8]*m[1]*m[6] - m[8]*m[2]*m[5]
        let det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12]
        guard det != 0, det.isFinite else { return nil }
        let s = 1 / det
        return Transform3D(m11: inv[0]*s, m12: inv[1]*s, m13: inv[2]*s, m14: inv[3]*s,
                           m21: inv[4]*s, m22: inv[5]*s, m23: inv[6]*s, m24: inv[7]*s,
                           m31: inv[8]*s, m32: inv[9]*s, m33: inv[10]*s, m34: inv[11]*s,
                           m41: inv[12]*s, m42: inv[13]*s, m43: inv[14]*s, m44: inv[15]*s)
    }

    /// The homogeneous image of the point (x, y, z, 1): `(x y z 1) · M`.
    public func apply(x: Double, y: Double, z: Double = 0) -> SIMD4<Double> {
        let r = rows
        return x * r[0] + y * r[1] + z * r[2] + r[3]
    }
    /// The projected 2D point of (x, y, 0) (divided by w), or nil when it lies behind the eye (w ≤ 0).
    public func project(_ p: Point) -> Point? {
        let h = apply(x: p.x, y: p.y)
        guard h.w > 1e-12 else { return nil }
        return Point(x: h.x / h.w, y: h.y / h.w)
    }

    /// The four rows as vectors.
    public var rows: [SIMD4<Double>] {
        [SIMD4(m11, m12, m13, m14), SIMD4(m21, m22, m23, m24), SIMD4(m31, m32, m33, m34), SIMD4(m41, m42, m43, m44)]
    }
    /// The matrix of four rows, as `rows` gives them (exactly four are needed).
    public init(rows r: [SIMD4<Double>]) {
        self.init(m11: r[0].x, m12: r[0].y, m13: r[0].z, m14: r[0].w, m21: r[1].x, m22: r[1].y, m23: r[1].z, m24: r[1].w,
                  m31: r[2].x, m32: r[2].y, m33: r[2].z, m34: r[2].w, m41: r[3].x, m42: r[3].y, m43: r[3].z, m44: r[3].w)
    }

    public var description: String {
        rows.map { "[\($0.x) \($0.y) \($0.z) \($0.w)]" }.joined(separator: " ")
    }

    /// Approximate equality, for tests and for deciding that a transform is effectively flat.
    public func isApproximatelyEqual(to other: Transform3D, tolerance: Double = 1e-9) -> Bool {
        zip(rows, other.rows).allSatisfy { a, b in
            let d = a - b
            return abs(d.x) <= tolerance && abs(d.y) <= tolerance && abs(d.z) <= tolerance && abs(d.w) <= tolerance
        }
    }
}
