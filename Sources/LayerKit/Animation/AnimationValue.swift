import LayerGraphics

/// A value an animation can interpolate: the types of Core Animation's animatable properties.
public enum AnimationValue: Sendable, Equatable {
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case transform(Transform3D)

    /// `self + (other - self) · f`, component-wise; transforms interpolate their decomposed components
    /// (scale, rotation, translation), as Core Animation does, so a half-way rotation is a rotation.
    func interpolated(to other: AnimationValue, _ f: Double) -> AnimationValue? {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(mix(a, b))
        case let (.point(a), .point(b)): return .point(Point(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case let (.size(a), .size(b)): return .size(Size(width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: mix(a.origin.x, b.origin.x), y: mix(a.origin.y, b.origin.y),
                              width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.color(a), .color(b)):
            return .color(Color(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue), alpha: mix(a.alpha, b.alpha)))
        case let (.transform(a), .transform(b)):
            return .transform(DecomposedTransform.interpolate(a, b, f))
        default: return nil
        }
    }

    /// `self + other` (transforms concatenate: `other` applied first, then `self`).
    func adding(_ other: AnimationValue) -> AnimationValue? {
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(a + b)
        case let (.point(a), .point(b)): return .point(Point(x: a.x + b.x, y: a.y + b.y))
        case let (.size(a), .size(b)): return .size(Size(width: a.width + b.width, height: a.height + b.height))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: a.origin.x + b.origin.x, y: a.origin.y + b.origin.y, width: a.width + b.width, height: a.height + b.height))
        case let (.color(a), .color(b)):
            return .color(Color(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha))
        case let (.transform(a), .transform(b)): return .transform(b.concatenating(a))
        default: return nil
        }
    }

    /// `self · k` for the repeated delta of cumulative animations; transforms repeat by concatenation.
    func scaled(by k: Double) -> AnimationValue? {
        switch self {
        case .number(let a): return .number(a * k)
        case .point(let a): return .point(Point(x: a.x * k, y: a.y * k))
        case .size(let a): return .size(Size(width: a.width * k, height: a.height * k))
        case .rect(let a): return .rect(Rect(x: a.origin.x * k, y: a.origin.y * k, width: a.width * k, height: a.height * k))
        case .color(let a): return .color(Color(red: a.red * k, green: a.green * k, blue: a.blue * k, alpha: a.alpha * k))
        case .transform(let a):
            // aⁿ by squaring: the iteration of a repeating animation at time 1e300 is 1e300, which `Int(_:)` trapped
            // on and a loop of n products would never finish (issue 15). n is held below 2⁶², beyond any real count.
            let rounded = k.rounded()
            var n = rounded.isNaN || rounded <= 0 ? 0 : rounded >= 0x1p62 ? 1 << 62 : Int(rounded)
            var power = a, product = Transform3D.identity
            while n > 0 {
                if n & 1 == 1 { product = product.concatenating(power) }
                n >>= 1
                if n > 0 { power = power.concatenating(power) }
            }
            return .transform(product)
        }
    }

    /// `self − other`, the inverse of `adding` (for `by` values and cumulative deltas).
    func subtracting(_ other: AnimationValue) -> AnimationValue? {
        switch (self, other) {
        case let (.transform(a), .transform(b)):
            guard let inverse = b.inverted() else { return nil }
            return .transform(inverse.concatenating(a))
        default:
            return other.scaled(by: -1).flatMap { adding($0) }
        }
    }
}

extension DecomposedTransform {
    /// Component-wise interpolation of two transforms (scale, rotation angles, translation, perspective column).
    static func interpolate(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D {
        let da = DecomposedTransform(a), db = DecomposedTransform(b)
        var d = da
        d.scale = da.scale + (db.scale - da.scale) * f
        d.rotation = da.rotation + (db.rotation - da.rotation) * f
        d.translation = da.translation + (db.translation - da.translation) * f
        d.perspectiveColumn = da.perspectiveColumn + (db.perspectiveColumn - da.perspectiveColumn) * f
        return d.transform
    }
}
