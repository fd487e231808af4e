import Foundation

// Core Graphics' `CGAffineTransform` is `AffineTransform2D` here: the plain name is Foundation's own type, and two
// imported types of one name would make every unqualified use ambiguous. A Core Animation user still types
// `AffineTransform(rotationAngle:)` first; these make the compiler name the right type instead of "no exact
// matches in call to initializer".
extension Foundation.AffineTransform {
    /// Not Foundation's: Core Graphics' rotation is `AffineTransform2D(rotationAngle:)`.
    @available(*, unavailable, message: "CGAffineTransform is AffineTransform2D here: AffineTransform2D(rotationAngle:)")
    public init(rotationAngle angle: Double) { fatalError("unavailable") }
    /// Not Foundation's: Core Graphics' scale is `AffineTransform2D(scaleX:y:)`.
    @available(*, unavailable, message: "CGAffineTransform is AffineTransform2D here: AffineTransform2D(scaleX:y:)")
    public init(scaleX sx: Double, y sy: Double) { fatalError("unavailable") }
    /// Not Foundation's: Core Graphics' translation is `AffineTransform2D(translationX:y:)`.
    @available(*, unavailable, message: "CGAffineTransform is AffineTransform2D here: AffineTransform2D(translationX:y:)")
    public init(translationX tx: Double, y ty: Double) { fatalError("unavailable") }
}
