import LayerGraphics

/// One animatable property that a layer class adds to `Layer`'s own: its key, how to read the model value, and
/// whether changing it on a hosted layer animates implicitly (SEMANTICS-ANIMATION.md §4's table).
///
/// A subclass lists its properties in `animatableProperties` and reports changes with `didChangeValue(forKey:from:)`;
/// its presentation values then live in `LayerPresentation.extras` (animations read and write them there) and reach
/// the compositor through the payload its `snapshotPayload(_:at:)` makes:
///
/// ```swift
/// final class MeterLayer: Layer {
///     var level = 0.0 { didSet { didChangeValue(forKey: "level", from: oldValue) } }
///     override class var animatableProperties: [AnimatableProperty] {
///         super.animatableProperties + [AnimatableProperty("level") { (layer: MeterLayer) in layer.level }]
///     }
/// }
/// ```
public struct AnimatableProperty {
    /// The property's key (its key path in animations).
    public let key: String
    /// Whether a change runs the default action (an implicit animation) when actions are enabled.
    public let hasDefaultAction: Bool
    /// The model value of a layer of the declaring class.
    let read: (Layer) -> AnimationValue
    /// Sets the model value from an `AnimationValue` (`Layer.setValue(_:forKeyPath:)`); false when the value is not
    /// of the property's type. Nil for a property declared without a setter: it cannot be set by key.
    private(set) var write: ((Layer, AnimationValue) -> Bool)?

    /// - Parameters:
    ///   - key: the name animations use (`BasicAnimation(keyPath: key)`).
    ///   - hasDefaultAction: false for a property that only animates explicitly (as `ShapeLayer.path`).
    ///   - value: the model value of a layer of class `L`.
    public init<L: Layer, V: AnimatableValue>(_ key: String, hasDefaultAction: Bool = true, value: @escaping (L) -> V) {
        self.key = key
        self.hasDefaultAction = hasDefaultAction
        read = { layer in
            // Only the declaring class (or a subclass) lists the property, so the cast holds; a wrong declaration
            // reads as 0 rather than trapping.
            guard let l = layer as? L else { return .number(0) }
            return value(l).animationValue
        }
        write = nil
    }

    /// A property that can also be set by key (`layer.setValue(0.5, forKeyPath: "strokeEnd")`, as Core Animation's
    /// key-value coding): `set` stores a value of the property's type in the model.
    public init<L: Layer, V: AnimatableValue>(_ key: String, hasDefaultAction: Bool = true, value: @escaping (L) -> V,
                                              set: @escaping (L, V) -> Void) {
        self.init(key, hasDefaultAction: hasDefaultAction, value: value)
        write = { layer, newValue in
            guard let l = layer as? L, let v = newValue.decoded(as: V.self) else { return false }
            set(l, v)
            return true
        }
    }
}

extension AnimationValue {
    /// The value as a `V`, when it holds one (a number also as `Float`, or as an `Int` when it is whole); nil otherwise.
    func decoded<V>(as type: V.Type) -> V? {
        if let same = self as? V { return same }
        switch self {
        case .number(let n):
            if let v = n as? V { return v }
            if let v = Float(n) as? V { return v }
            if let whole = Int(exactly: n) { return whole as? V }
            return nil
        case .point(let p): return p as? V
        case .size(let s): return s as? V
        case .rect(let r): return r as? V
        case .color(let c): return c as? V
        case .transform(let t): return t as? V
        case .path(let p): return p as? V
        case .numbers(let a): return a as? V
        case .colors(let a): return a as? V
        case .bool(let b): return b as? V
        case .string(let s): return s as? V
        case .contents(let c): return c as? V
        case .contentsCrossfade: return nil
        }
    }
}

extension Layer {
    /// The keys of `Layer`'s own properties whose change animates implicitly (§4's table); `contents` crossfades.
    static let keysWithDefaultActions: Set<String> = [
        "anchorPoint", "contents", "anchorPointZ", "backgroundColor", "borderColor", "borderWidth", "bounds", "contentsCenter",
        "contentsRect", "cornerRadius", "minificationFilterBias", "opacity", "position", "shadowColor", "shadowOffset",
        "shadowOpacity", "shadowPath", "shadowRadius", "sublayerTransform", "transform", "zPosition",
    ]

    /// The model value under an animatable key (a key of `Layer` or one a subclass declares); nil for other keys.
    public func value(forKey key: String) -> AnimationValue? {
        LayerPresentation(model: self).value(forKeyPath: key)
    }

    /// Whether `key` names an animatable property of this layer's class.
    func isAnimatable(_ key: String) -> Bool {
        PresentationKey.byName[key] != nil || ResolvedKeyPath(key).isComponent
            || type(of: self).animatableProperties.contains { $0.key == key }
    }

    /// Whether a change of `key` runs the default action.
    func hasDefaultAction(forKey key: String) -> Bool {
        if Self.keysWithDefaultActions.contains(key) { return true }
        return type(of: self).animatableProperties.first { $0.key == key }?.hasDefaultAction ?? false
    }
}

extension AnimationValue {
    /// Whether both values are of the same kind (a declared property keeps the type it was declared with).
    func hasSameType(as other: AnimationValue) -> Bool {
        switch (self, other) {
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.color, .color),
             (.transform, .transform), (.path, .path), (.numbers, .numbers), (.colors, .colors), (.bool, .bool),
             (.string, .string), (.contents, .contents), (.contents, .contentsCrossfade), (.contentsCrossfade, .contents),
             (.contentsCrossfade, .contentsCrossfade): return true
        default: return false
        }
    }
}
