import LayerGraphics

/// The transform as a map of the plane z = 0 onto a flat picture (z dropped, w divided): what a layer's matrix
/// does to the layer once it is flattened into its superlayer. Rows 1, 2 and 4, columns 1, 2 and 4 of the matrix.
extension Transform3D {
    /// The point (x, y) of the plane z = 0 that this transform shows at `p`: the inverse of `project(_:)`, that is,
    /// where the line of sight through `p` meets the plane.
    ///
    /// Returns nil when the plane is seen edge-on (the map is singular), or when the line of sight meets the
    /// plane behind the eye (the point's w would not be positive), so nothing of the plane is seen at `p`.
    public func unproject(_ p: Point) -> Point? {
        let a = m11, b = m12, c = m14, d = m21, e = m22, f = m24, g = m41, h = m42, i = m44
        guard isPlaneMapInvertible else { return nil }
        // (p.x, p.y, 1) times the adjugate: the inverse up to a scale, which the division cancels.
        let u = p.x * (e * i - f * h) + p.y * (f * g - d * i) + (d * h - e * g)
        let v = p.x * (c * h - b * i) + p.y * (a * i - c * g) + (b * g - a * h)
        let w = p.x * (b * f - c * e) + p.y * (c * d - a * f) + (a * e - b * d)
        guard w != 0 else { return nil }
        let local = Point(x: u / w, y: v / w)
        guard local.x.isFinite, local.y.isFinite, apply(x: local.x, y: local.y).w > 1e-12 else { return nil }
        return local
    }

    /// The determinant of the plane map. Its sign says which way the plane faces: positive when its front
    /// (x right, y down, as drawn) faces the viewer, negative when its back does.
    public var planeDeterminant: Double {
        m11 * (m22 * m44 - m24 * m42) - m12 * (m21 * m44 - m24 * m41) + m14 * (m21 * m42 - m22 * m41)
    }

    /// False when the plane is seen edge-on. The determinant is the plane's area scale (times w³, and w is 1 at
    /// the origin unless a perspective moves it), so an area scaled below 10⁻¹² counts as a line: a layer turned
    /// a right angle about y leaves cos(π/2) ≈ 6·10⁻¹⁷, not an exact zero.
    var isPlaneMapInvertible: Bool {
        let det = planeDeterminant
        return det.isFinite && abs(det) > 1e-12
    }
}
