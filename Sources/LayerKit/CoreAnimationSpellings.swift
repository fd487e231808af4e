import Foundation
import LayerGraphics

// Core Animation's own spellings, minus the `CA` prefix, for what a user of the book types first (issue 20 item 6).
// Each forwards to the Swift spelling of this API, which stays the documented one; where Core Animation's spelling
// cannot mean the same here, the compiler says what to write instead.

/// `CATransform3DIdentity`: the transform that changes nothing, `Transform3D.identity`.
public let Transform3DIdentity = Transform3D.identity

/// `CATransform3DMakeRotation`: a rotation by `angle` radians about the axis (`x`, `y`, `z`), as
/// `Transform3D.makeRotation(_:_:_:_:)`; a zero axis gives the identity.
public func Transform3DMakeRotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
    .makeRotation(angle, x, y, z)
}

/// `CATransform3DMakeTranslation`: a move by `tx`, `ty`, `tz` points, as `Transform3D.makeTranslation(_:_:_:)`.
public func Transform3DMakeTranslation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
    .makeTranslation(tx, ty, tz)
}

/// `CATransform3DMakeScale`: a scale by `sx`, `sy`, `sz` about the origin, as `Transform3D.makeScale(_:_:_:)`.
public func Transform3DMakeScale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
    .makeScale(sx, sy, sz)
}

/// `CATransform3DRotate`: `t` with a rotation by `angle` radians about (`x`, `y`, `z`) applied first, as
/// `t.rotated(by:x:y:z:)`.
public func Transform3DRotate(_ t: Transform3D, _ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}

/// `CATransform3DTranslate`: `t` with a move by `tx`, `ty`, `tz` points applied first, as `t.translatedBy(x:y:z:)`.
public func Transform3DTranslate(_ t: Transform3D, _ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
    t.translatedBy(x: tx, y: ty, z: tz)
}

/// `CATransform3DScale`: `t` with a scale by `sx`, `sy`, `sz` applied first, as `t.scaledBy(x:y:z:)`.
public func Transform3DScale(_ t: Transform3D, _ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
    t.scaledBy(x: sx, y: sy, z: sz)
}

/// `CATransform3DConcat`: `a` then `b` (a point is transformed by `a` first), as `a.concatenating(b)`.
public func Transform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
    a.concatenating(b)
}

/// `CATransform3DInvert`: the inverse of `t`, or `t` unchanged when it has none (`t.inverted()` is nil then).
public func Transform3DInvert(_ t: Transform3D) -> Transform3D {
    t.inverted() ?? t
}

/// `CATransform3DIsIdentity`: whether `t` is exactly the identity, as `t.isIdentity`.
public func Transform3DIsIdentity(_ t: Transform3D) -> Bool {
    t.isIdentity
}

/// `CAMediaTimingFunction`: the cubic Bézier timing curve, `TimingFunction` (so `MediaTimingFunction(name:
/// .easeInEaseOut)` is `TimingFunction(name: .easeInEaseOut)`).
public typealias MediaTimingFunction = TimingFunction

extension RotationMode {
    /// `CAAnimationRotationMode.rotateAuto`: turned to the path's tangent, `RotationMode.auto`.
    public static let rotateAuto = RotationMode.auto
    /// `CAAnimationRotationMode.rotateAutoReverse`: turned to the tangent plus half a turn, `RotationMode.autoReverse`.
    public static let rotateAutoReverse = RotationMode.autoReverse
}

extension ValueFunction {
    /// `CAValueFunction(name:)`: the value function `name` (`ValueFunction(name: .rotateZ)` is `.rotateZ`); here a
    /// value function is a plain value, so `animation.valueFunction = .rotateZ` says the same.
    public init(name: ValueFunction) { self = name }
}

/// `CACurrentMediaTime()` has no single meaning here: each tree has its host's clock (a window's, an export's, a
/// still's), so "now" is asked of a layer.
@available(*, unavailable, message: "a tree's time is its host's clock: use layer.currentMediaTime() (nil when the tree is not hosted)")
public func CurrentMediaTime() -> Double { fatalError("unavailable") }

extension Layer {
    /// Foundation's `AffineTransform` is not Core Graphics' `CGAffineTransform`, which is `AffineTransform2D` here:
    /// the compiler says so where a ported listing passes one (listing 5.2).
    @available(*, unavailable, message: "CGAffineTransform is AffineTransform2D here: setAffineTransform(AffineTransform2D(…))")
    public func setAffineTransform(_ transform: Foundation.AffineTransform) { fatalError("unavailable") }
}

/// `CAMediaTimingFillMode`: what an animation shows outside its active time, `FillMode` (`.removed`, `.forwards`,
/// `.backwards`, `.both`), so `animation.fillMode = MediaTimingFillMode.forwards` ports as written.
public typealias MediaTimingFillMode = FillMode

/// Foundation's null as Core Animation's "no action": `layer.actions = ["position": NSNull()]` (and a delegate's
/// `action(for:forKey:)` answering `NSNull()`) turns the action off and ends the search, as `NullAction.shared` does.
extension NSNull: Action {
    /// Does nothing: the search never runs a null action (it answers nil instead).
    public func run(forKey event: String, object layer: Layer, previousValue: AnimationValue?) {}
}

extension Action {
    /// Whether this is Foundation's `NSNull` (Action.swift cannot see Foundation).
    var isFoundationNull: Bool { self is NSNull }
}
