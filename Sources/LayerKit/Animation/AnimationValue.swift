import LayerGraphics

/// A value an animation can interpolate: the types of Core Animation's animatable properties, those of the
/// specialised layers included (paths, number and colour arrays), and the discrete ones (booleans, strings).
///
/// How each type interpolates is SEMANTICS-ANIMATION.md §5: numbers and geometry linearly, colours in straight
/// RGBA, transforms decomposed (quaternion slerp), arrays element-wise when their counts match, paths point-wise
/// when their elements match, and anything that cannot be mixed discretely (the start before half-way, the end
/// from half-way on).
public enum AnimationValue: Sendable, Hashable {
    /// A number: opacity, a coordinate, an angle, a radius…
    case number(Double)
    /// A point: `position`, `anchorPoint`, a gradient's end points.
    case point(Point)
    /// A size: `shadowOffset`, `bounds.size`.
    case size(Size)
    /// A rectangle: `bounds`, `contentsRect`, `contentsCenter`.
    case rect(Rect)
    /// A colour: `backgroundColor`, `borderColor`, a shape's `fillColor`.
    case color(Color)
    /// Boxed: a matrix is 128 bytes, and inline it would make every value (a number too) that large to copy.
    indirect case transform(Transform3D)
    /// A path: a shape layer's `path`, `shadowPath`.
    case path(Path)
    /// Number arrays: a gradient's `locations`, a dash pattern.
    case numbers([Double])
    /// Colour arrays: a gradient's `colors`.
    case colors([Color])
    /// A boolean (discrete): `isHidden`, `masksToBounds`.
    case bool(Bool)
    /// A string (discrete).
    case string(String)
    /// A layer's contents (nil: none).
    case contents(LayerContents?)
    /// Contents part-way through a crossfade: `(1 − fraction)·from + fraction·to` per pixel (§5), what
    /// interpolating two `contents` values gives.
    case contentsCrossfade(from: LayerContents?, to: LayerContents?, fraction: Double)

    /// `self + (other − self) · f` as §5 says; never nil for two values: what cannot be mixed is discrete.
    public func interpolated(to other: AnimationValue, _ f: Double) -> AnimationValue {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        switch (self, other) {
        case let (.number(a), .number(b)): return .number(mix(a, b))
        case let (.point(a), .point(b)): return .point(Point(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case let (.size(a), .size(b)): return .size(Size(width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: mix(a.origin.x, b.origin.x), y: mix(a.origin.y, b.origin.y),
                              width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.color(a), .color(b)): return .color(Self.mixColors(a, b, f))
        case let (.transform(a), .transform(b)):
            if let m = TransformInterpolation.interpolate(a, b, f) { return .transform(m) }
        case let (.numbers(a), .numbers(b)) where a.count == b.count:
            return .numbers(zip(a, b).map { mix($0, $1) })
        case let (.colors(a), .colors(b)) where a.count == b.count:
            return .colors(zip(a, b).map { Self.mixColors($0, $1, f) })
        case let (.path(a), .path(b)):
            if let p = a.interpolatedPointwise(to: b, f) { return .path(p) }
        case let (.contentsCrossfade(a, b, g), .contents(c)):
            // Fading again from part-way through a fade: from the nearer of its two pictures.
            return AnimationValue.contents(g < 0.5 ? a : b).interpolated(to: .contents(c), f)
        case let (.contents(a), .contents(b)):
            if a == b || f <= 0 || f >= 1 { return .contents(f >= 1 ? b : a) }
            return .contentsCrossfade(from: a, to: b, fraction: f)
        default: break
        }
        return f < 0.5 ? self : other
    }

    /// Straight (non-premultiplied) components, alpha too (§5).
    static func mixColors(_ a: Color, _ b: Color, _ f: Double) -> Color {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return Color(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue), alpha: mix(a.alpha, b.alpha))
    }

    /// `self + other` (transforms concatenate: `other` applied first, then `self`); nil for types that do not add.
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
        case let (.numbers(a), .numbers(b)) where a.count == b.count: return .numbers(zip(a, b).map { $0 + $1 })
        case let (.colors(a), .colors(b)) where a.count == b.count:
            return .colors(zip(a, b).map { Color(red: $0.red + $1.red, green: $0.green + $1.green, blue: $0.blue + $1.blue, alpha: $0.alpha + $1.alpha) })
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
        case .numbers(let a): return .numbers(a.map { $0 * k })
        case .colors(let a): return .colors(a.map { Color(red: $0.red * k, green: $0.green * k, blue: $0.blue * k, alpha: $0.alpha * k) })
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
        case .path, .bool, .string, .contents, .contentsCrossfade: return nil
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

    /// The neutral value of this value's type, what an additive animation starts from (0, identity, clear).
    var zero: AnimationValue {
        switch self {
        case .number: return .number(0)
        case .point: return .point(.zero)
        case .size: return .size(.zero)
        case .rect: return .rect(.zero)
        case .color: return .color(.clear)
        case .transform: return .transform(.identity)
        case .numbers(let a): return .numbers(Array(repeating: 0, count: a.count))
        case .colors(let a): return .colors(Array(repeating: .clear, count: a.count))
        case .path, .bool, .string, .contents, .contentsCrossfade: return self
        }
    }

    /// The components a keyframe spline or a paced distance works on; nil for types that have none (§7: such
    /// values fall back to linear or even spacing).
    var components: [Double]? {
        switch self {
        case .number(let a): return [a]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.origin.x, r.origin.y, r.width, r.height]
        case .color(let c): return [c.red, c.green, c.blue, c.alpha]
        case .numbers(let a): return a
        case .colors(let a): return a.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        case .transform, .path, .bool, .string, .contents, .contentsCrossfade: return nil
        }
    }

    /// The value of this type with `components` (the inverse of `components`).
    func withComponents(_ c: [Double]) -> AnimationValue {
        switch self {
        case .number: return .number(c[0])
        case .point: return .point(Point(x: c[0], y: c[1]))
        case .size: return .size(Size(width: c[0], height: c[1]))
        case .rect: return .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .numbers: return .numbers(c)
        case .colors:
            return .colors(stride(from: 0, to: c.count - 3, by: 4).map { Color(red: c[$0], green: c[$0 + 1], blue: c[$0 + 2], alpha: c[$0 + 3]) })
        case .transform, .path, .bool, .string, .contents, .contentsCrossfade: return self
        }
    }
}

/// A Swift value an animation can take as `fromValue`, `toValue`, `byValue` or a keyframe: `anim.toValue = 0.5`,
/// `= Point(x: 10, y: 20)`, `= Color.red`, `= Transform3D.makeScale(2, 2, 1)` need no wrapping.
public protocol AnimatableValue: Sendable {
    /// The value as an animation holds it.
    var animationValue: AnimationValue { get }
}

/// Itself.
extension AnimationValue: AnimatableValue { public var animationValue: AnimationValue { self } }
/// `.number(self)`.
extension Double: AnimatableValue { public var animationValue: AnimationValue { .number(self) } }
/// `.number` of the value as a `Double`.
extension Float: AnimatableValue { public var animationValue: AnimationValue { .number(Double(self)) } }
/// `.number` of the value as a `Double`.
extension Int: AnimatableValue { public var animationValue: AnimationValue { .number(Double(self)) } }
/// `.point(self)`.
extension Point: AnimatableValue { public var animationValue: AnimationValue { .point(self) } }
/// `.size(self)`.
extension Size: AnimatableValue { public var animationValue: AnimationValue { .size(self) } }
/// `.rect(self)`.
extension Rect: AnimatableValue { public var animationValue: AnimationValue { .rect(self) } }
/// `.color(self)`.
extension Color: AnimatableValue { public var animationValue: AnimationValue { .color(self) } }
/// `.transform(self)`.
extension Transform3D: AnimatableValue { public var animationValue: AnimationValue { .transform(self) } }
/// `.path(self)`.
extension Path: AnimatableValue { public var animationValue: AnimationValue { .path(self) } }
/// `.bool(self)`.
extension Bool: AnimatableValue { public var animationValue: AnimationValue { .bool(self) } }
/// `.string(self)`.
extension String: AnimatableValue { public var animationValue: AnimationValue { .string(self) } }
/// `.contents(self)`.
extension LayerContents: AnimatableValue { public var animationValue: AnimationValue { .contents(self) } }
extension Array: AnimatableValue where Element: AnimatableValue {
    /// `[Double]` → `numbers`, `[Color]` → `colors`; other arrays have no interpolation and read as discrete.
    public var animationValue: AnimationValue {
        // By element type, not by cast: an empty array casts to any array type, so `[] as [Color]` read as numbers.
        if Element.self == Color.self, let colors = self as? [Color] { return .colors(colors) }
        if Element.self == Double.self, let numbers = self as? [Double] { return .numbers(numbers) }
        return .numbers(compactMap { if case .number(let n) = $0.animationValue { n } else { nil } })
    }
}

extension AnimationValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Path {
    /// The path with each point mixed with the matching point of `other` at `f`; nil when the two do not have
    /// the same elements in the same order (§5: then a path animation is discrete).
    func interpolatedPointwise(to other: Path, _ f: Double) -> Path? {
        guard elements.count == other.elements.count else { return nil }
        func mix(_ a: Point, _ b: Point) -> Point { Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f) }
        var result = Path()
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case let (.move(p), .move(q)): result.move(to: mix(p, q))
            case let (.line(p), .line(q)): result.addLine(to: mix(p, q))
            case let (.curve(c1, c2, p), .curve(d1, d2, q)): result.addCurve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2))
            case (.close, .close): result.closeSubpath()
            default: return nil
            }
        }
        return result
    }
}
