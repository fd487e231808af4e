/// Animations attached to a layer by key (CALayer's `add(_:forKey:)` family).
extension Layer {
    /// Attaches a copy of `animation`; an animation already under `key` is replaced. A nil key attaches it
    /// under a key of its own.
    public func add(_ animation: Animation, forKey key: String?) {
        let key = key ?? "animation-\(animationEntries.count)-\(ObjectIdentifier(animation).hashValue)"
        animationEntries.removeAll { $0.key == key }
        animationEntries.append((key, animation.copy()))
    }

    /// The attached animation under `key` (a copy: changing it changes nothing).
    public func animation(forKey key: String) -> Animation? {
        animationEntries.first { $0.key == key }?.animation.copy()
    }

    public func removeAnimation(forKey key: String) { animationEntries.removeAll { $0.key == key } }
    public func removeAllAnimations() { animationEntries.removeAll() }
    /// The keys of the attached animations, in the order they apply; nil when there are none.
    public func animationKeys() -> [String]? { animationEntries.isEmpty ? nil : animationEntries.map(\.key) }

    /// Whether an animation of this layer or of one below it changes anything after `time` (a renderer may
    /// skip frames while the clock stands still and nothing runs).
    public func hasRunningAnimations(at time: Double) -> Bool {
        let local = localTime(fromParentTime: time)
        if animationEntries.contains(where: { !$0.animation.isFinished(at: local) }) { return true }
        return (sublayers ?? []).contains { $0.hasRunningAnimations(at: local) } || (mask?.hasRunningAnimations(at: local) ?? false)
    }

    /// The layer's animatable values at `time` on its own clock (model values with the animations applied).
    public func presentation(at time: Double) -> LayerPresentation {
        var p = LayerPresentation(model: self)
        for entry in animationEntries { entry.animation.apply(to: &p, at: time) }
        return p
    }

    /// The layer's own clock from its parent's (CAMediaTiming on layers): `(t − beginTime) · speed + timeOffset`.
    public func localTime(fromParentTime t: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }
}
