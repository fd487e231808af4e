import Foundation

/// A 2D affine transform in Core Graphics' convention (row vectors):
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. It is LayerKit's `CGAffineTransform`, with the same
/// initialisers and methods (`init(rotationAngle:)`, `scaledBy(x:y:)`, `rotated(by:)`, `translatedBy(x:y:)`,
/// `concatenating(_:)`, `inverted()`, `.identity`).
///
/// Named `AffineTransform2D` (the partner of `Transform3D`) because Foundation already has a type called
/// `AffineTransform`: two imported types of one name make every unqualified use ambiguous, so the plain name
/// failed to compile in any file that imports Foundation. For the same reason there is no `AffineTransform`
/// typealias — it would bring the clash back.
public struct AffineTransform2D: Hashable, Sendable {
    /// The linear part's first row: how x maps (`x' = a·x + c·y + tx`); 1 in the identity.
    public var a: Double
    /// The linear part's first row, second column: how x feeds y' (`y' = b·x + d·y + ty`); 0 in the identity.
    public var b: Double
    /// The linear part's second row, first column: how y feeds x'; 0 in the identity.
    public var c: Double
    /// The linear part's second row: how y maps; 1 in the identity.
    public var d: Double
    /// The translation along x, in points, added after the linear part.
    public var tx: Double
    /// The translation along y, in points (down), added after the linear part.
    public var ty: Double
    /// The transform with these six entries (`CGAffineTransform(a:b:c:d:tx:ty:)`).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The transform that changes nothing (`CGAffineTransformIdentity`).
    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A translation by `x` and `y` points (`CGAffineTransform(translationX:y:)`).
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale by `sx` along x and `sy` along y about the origin (`CGAffineTransform(scaleX:y:)`).
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians; positive turns clockwise on screen (y down), as in Core Graphics.
    public init(rotationAngle angle: Double) {
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }
    /// Whether every entry equals the identity's.
    public var isIdentity: Bool { self == .identity }

    /// `self` then `t`.
    public func concatenating(_ t: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    /// A translation applied before `self`.
    public func translatedBy(x: Double, y: Double) -> AffineTransform2D { AffineTransform2D(translationX: x, y: y).concatenating(self) }
    /// A scale by `x` and `y` applied before `self` (`CGAffineTransform.scaledBy(x:y:)`).
    public func scaledBy(x: Double, y: Double) -> AffineTransform2D { AffineTransform2D(scaleX: x, y: y).concatenating(self) }
    /// A rotation by `angle` radians (clockwise on screen) applied before `self` (`CGAffineTransform.rotated(by:)`).
    public func rotated(by angle: Double) -> AffineTransform2D { AffineTransform2D(rotationAngle: angle).concatenating(self) }
    /// The inverse, or `self` unchanged when singular (Core Graphics' rule).
    public func inverted() -> AffineTransform2D {
        let det = a * d - b * c
        if det == 0 || !det.isFinite { return self }
        return AffineTransform2D(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
}
