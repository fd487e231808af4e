// The first, unlabelled spellings of Transform3D's instance methods. They disagreed with `rotated(by:x:y:z:)` and
// with AffineTransform2D; they stay so old code still builds, and the compiler's fix-it offers the new labels.
extension Transform3D {
    /// The old spelling of `translatedBy(x:y:z:)`.
    @available(*, deprecated, renamed: "translatedBy(x:y:z:)")
    public func translated(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        translatedBy(x: tx, y: ty, z: tz)
    }
    /// The old spelling of `scaledBy(x:y:z:)`.
    @available(*, deprecated, renamed: "scaledBy(x:y:z:)")
    public func scaled(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        scaledBy(x: sx, y: sy, z: sz)
    }
}
