/// A 3×3 matrix on linear RGB (row-major), for changes of primaries.
public struct ColorMatrix3: Sendable, Equatable {
    /// The rows.
    public var rows: [SIMD3<Double>]

    /// A matrix of three rows.
    public init(_ rows: [SIMD3<Double>]) { precondition(rows.count == 3); self.rows = rows }

    /// The matrix that changes nothing.
    public static let identity = ColorMatrix3([SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])

    /// The matrix times column vector `v`.
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((rows[0] * v).sum(), (rows[1] * v).sum(), (rows[2] * v).sum())
    }

    /// `self · other`.
    public func concatenating(_ other: ColorMatrix3) -> ColorMatrix3 {
        let columns = (0..<3).map { c in SIMD3(other.rows[0][c], other.rows[1][c], other.rows[2][c]) }
        return ColorMatrix3(rows.map { r in SIMD3((r * columns[0]).sum(), (r * columns[1]).sum(), (r * columns[2]).sum()) })
    }

    /// The inverse (by cofactors; the matrices here are far from singular).
    public var inverse: ColorMatrix3 {
        let a = rows[0], b = rows[1], c = rows[2]
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let det = a.x * r0.x + a.y * r1.x + a.z * r2.x
        return ColorMatrix3([r0 / det, r1 / det, r2 / det])
    }
}

extension ColorPrimaries {
    /// CIE xy of red, green, blue and white (D65 for all we convert).
    var chromaticities: [SIMD2<Double>] {
        switch self {
        case .bt2020: [SIMD2(0.708, 0.292), SIMD2(0.170, 0.797), SIMD2(0.131, 0.046), SIMD2(0.3127, 0.3290)]
        case .displayP3: [SIMD2(0.680, 0.320), SIMD2(0.265, 0.690), SIMD2(0.150, 0.060), SIMD2(0.3127, 0.3290)]
        case .bt601PAL: [SIMD2(0.64, 0.33), SIMD2(0.29, 0.60), SIMD2(0.15, 0.06), SIMD2(0.3127, 0.3290)]
        case .bt601NTSC: [SIMD2(0.630, 0.340), SIMD2(0.310, 0.595), SIMD2(0.155, 0.070), SIMD2(0.3127, 0.3290)]
        case .bt709, .unspecified: [SIMD2(0.64, 0.33), SIMD2(0.30, 0.60), SIMD2(0.15, 0.06), SIMD2(0.3127, 0.3290)]
        }
    }

    /// Linear RGB in these primaries → CIE XYZ (Y = luminance, white Y = 1).
    public var toXYZ: ColorMatrix3 {
        let c = chromaticities
        func xyz(_ p: SIMD2<Double>) -> SIMD3<Double> { SIMD3(p.x / p.y, 1, (1 - p.x - p.y) / p.y) }
        let r = xyz(c[0]), g = xyz(c[1]), b = xyz(c[2]), w = xyz(c[3])
        let m = ColorMatrix3([SIMD3(r.x, g.x, b.x), SIMD3(r.y, g.y, b.y), SIMD3(r.z, g.z, b.z)])
        let s = m.inverse.apply(w)
        return ColorMatrix3(m.rows.map { $0 * s })
    }

    /// The weights of R, G and B in luminance (the middle row of `toXYZ`).
    public var luminanceWeights: SIMD3<Double> { toXYZ.rows[1] }

    /// Linear RGB in these primaries → linear BT.709 RGB.
    public var toBT709: ColorMatrix3 { ColorPrimaries.bt709.toXYZ.inverse.concatenating(toXYZ) }
}
