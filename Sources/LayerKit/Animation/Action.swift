import LayerGraphics

/// Something a layer runs when one of its properties changes (CAAction). An `Animation` is an action: running it
/// attaches a copy of it to the layer under the event's key.
public protocol Action: AnyObject {
    /// - Parameters:
    ///   - event: the key of the property that changed.
    ///   - layer: the layer that changed.
    ///   - previousValue: the property's presentation value just before the change (what an implicit animation
    ///     starts from), when there was one.
    func run(forKey event: String, object layer: Layer, previousValue: AnimationValue?)
}

/// "No action" (Core Animation's NSNull): found anywhere in the search, it ends it and nothing runs. Foundation's
/// `NSNull()` is an action that says the same, so `layer.actions = ["position": NSNull()]` ports as written.
public final class NullAction: Action, @unchecked Sendable {
    /// The one null action.
    public static let shared = NullAction()
    private init() {}
    public func run(forKey event: String, object layer: Layer, previousValue: AnimationValue?) {}
}

extension Animation: Action {
    /// Attaches a copy under `event`. A property animation that names neither end (`fromValue`, `toValue`,
    /// `byValue` all nil) goes from the presentation value before the change to the live model value, as Core
    /// Animation's basic animation does.
    public func run(forKey event: String, object layer: Layer, previousValue: AnimationValue?) {
        let copy = copy()
        if let basic = copy as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
            basic.fromValue = previousValue
        }
        layer.add(copy, forKey: event)
    }
}

extension LayerDelegate {
    public func action(for layer: Layer, forKey event: String) -> Action? { nil }
}

extension Layer {
    /// The search `action(forKey:)` does.
    func searchAction(forKey event: String) -> Action? {
        func resolved(_ a: Action) -> Action? { a is NullAction || a.isFoundationNull ? nil : a }
        if let delegate, let a = delegate.action(for: self, forKey: event) { return resolved(a) }
        if let a = actions?[event] { return resolved(a) }
        var style = self.style
        while let s = style {
            if let table = s["actions"] as? [String: Action], let a = table[event] { return resolved(a) }
            style = s["style"] as? [String: Any]
        }
        return type(of: self).defaultAction(forKey: event)
    }

    /// What `defaultAction(forKey:)` gives unless a subclass says otherwise.
    static func standardDefaultAction(forKey event: String, animatableProperties: [AnimatableProperty]) -> Action? {
        let known = Layer.keysWithDefaultActions.contains(event)
            || animatableProperties.contains { $0.key == event && $0.hasDefaultAction }
        guard known else { return nil }
        let animation = BasicAnimation(keyPath: event)
        animation.duration = Transaction.animationDuration
        animation.timingFunction = Transaction.animationTimingFunction ?? .default
        return animation
    }

    /// Tells the layer that the animatable property `key` changed from `old`: on a hosted layer, unless the
    /// transaction disables actions, it runs the key's action (an implicit animation from the value shown before
    /// the change). Layer's own properties call it; a subclass calls it from the `didSet` of the properties it
    /// lists in `animatableProperties`.
    public func didChangeValue<V: AnimatableValue>(forKey key: String, from old: V) {
        guard let host = hostRecord(), wasPresented else { return }
        let stack = TransactionStack.current
        if stack.value(forKey: Transaction.Key.disableActions) as? Bool == true { return }
        guard let action = action(forKey: key) else { return }
        stack.openImplicitIfNeeded()
        // What was shown just before the change: the presentation with the old model value, at the tree's now.
        let now = convertTime(host.now, from: nil)
        var before = LayerPresentation(model: self)
        before.set(old.animationValue, forKeyPath: key)
        applyAnimations(to: &before, at: now)
        action.run(forKey: key, object: self, previousValue: before.value(forKeyPath: key))
    }
}
