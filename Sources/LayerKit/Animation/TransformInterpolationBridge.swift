// TEMPORARY until the animmath branch lands its TransformInterpolation.swift (quaternion slerp, §5).
enum TransformInterpolation {
    static func interpolate(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D? {
        let da = DecomposedTransform(a), db = DecomposedTransform(b)
        var d = da
        d.scale = da.scale + (db.scale - da.scale) * f
        d.rotation = da.rotation + (db.rotation - da.rotation) * f
        d.translation = da.translation + (db.translation - da.translation) * f
        d.perspectiveColumn = da.perspectiveColumn + (db.perspectiveColumn - da.perspectiveColumn) * f
        return d.transform
    }
}
