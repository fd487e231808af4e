/// Animations attached to a layer by key (CALayer's `add(_:forKey:)` family), SEMANTICS-ANIMATION.md §2.
extension Layer {
    /// Attaches a copy of `animation`; an animation already under `key` is replaced, and the new one applies last.
    /// A nil key attaches it under a key of its own. A duration of 0 becomes the transaction's
    /// `animationDuration`, a nil timing function its `animationTimingFunction` (when set). On a hosted tree, a
    /// `beginTime` of 0 means "now" (`CACurrentMediaTime()` at the commit): the host's time, which is the frame last
    /// built in an export or a still and the clock's time in a window (SEMANTICS-ANIMATION.md §3).
    public func add(_ animation: Animation, forKey key: String?) {
        let copy = animation.copy()
        let key = copy is Transition ? "transition" : key ?? nextGeneratedAnimationKey()
        // A transition starts from what the layer showed last (§9): its node in the last snapshot, frozen.
        if let transition = copy as? Transition { transition.oldState = appearanceShownLast() }
        if copy.duration <= 0 { copy.duration = Transaction.animationDuration }
        if copy.timingFunction == nil, let function = Transaction.animationTimingFunction { copy.timingFunction = function }
        removeAnimation(forKey: key)
        animationEntries.append((key, copy))
        guard let host = hostRecord() else { return }
        let stack = TransactionStack.current
        stack.openImplicitIfNeeded()
        stack.noteStarted(copy, on: self)
        // Resolved now, not at the next snapshot: that frame, and `presentation()` before it, show it already running.
        if copy.beginTime == 0 { copy.beginTime = convertTime(host.now, from: nil) }
        if copy.delegate != nil { host.watched.append(StartedAnimation(layer: self, animation: copy)) }
    }

    private func nextGeneratedAnimationKey() -> String {
        var n = animationEntries.count
        while animationEntries.contains(where: { $0.key == "animation-\(n)" }) { n += 1 }
        return "animation-\(n)"
    }

    /// The attached animation under `key` (a copy: changing it changes nothing).
    public func animation(forKey key: String) -> Animation? {
        animationEntries.first { $0.key == key }?.animation.copy()
    }

    /// Detaches the animation under `key`; its delegate hears it stop unfinished.
    public func removeAnimation(forKey key: String) {
        guard let i = animationEntries.firstIndex(where: { $0.key == key }) else { return }
        let removed = animationEntries.remove(at: i).animation
        if removed.didReportStart, !removed.didReportStop, let delegate = removed.delegate {
            removed.didReportStop = true
            delegate.animationDidStop(removed, finished: false)
        }
    }

    /// Removes every animation of the layer, telling their delegates they did not finish.
    public func removeAllAnimations() {
        for key in animationEntries.map(\.key) { removeAnimation(forKey: key) }
    }

    /// The keys of the attached animations, in the order they apply; nil when there are none.
    public func animationKeys() -> [String]? { animationEntries.isEmpty ? nil : animationEntries.map(\.key) }

    /// Whether an animation of this layer or of one below it changes anything after `time` (a renderer may
    /// skip frames while the clock stands still and nothing runs).
    public func hasRunningAnimations(at time: Double) -> Bool {
        let local = localTime(fromParentTime: time)
        if animationEntries.contains(where: { !$0.animation.isFinished(at: local) }) { return true }
        return storedSublayers.contains { $0.hasRunningAnimations(at: local) } || (mask?.hasRunningAnimations(at: local) ?? false)
    }

    /// Whether the tree's picture at `time` (its superlayer's clock) may differ from the next moment's: an animation
    /// runs, or a layer draws differently over time (`drawsDifferentlyOverTime`). One walk for hosts deciding
    /// whether to keep making frames.
    public func changesOverTime(at time: Double) -> Bool {
        if drawsDifferentlyOverTime { return true }
        let local = localTime(fromParentTime: time)
        if animationEntries.contains(where: { !$0.animation.isFinished(at: local) }) { return true }
        return storedSublayers.contains { $0.changesOverTime(at: local) } || (mask?.changesOverTime(at: local) ?? false)
    }

    /// The layer's animatable values at `time` on its own clock (model values with the animations applied).
    public func presentation(at time: Double) -> LayerPresentation {
        var p = LayerPresentation(model: self)
        applyAnimations(to: &p, at: time)
        return p
    }

    /// The layer as its host last showed it, for a transition added now. A layer that has had a transition keeps its
    /// node of each snapshot, which is exact whatever was changed before the transition was added. For its first
    /// transition the layer is drawn now at the host's last time: exact when the transition is added before the
    /// changes it shows, as Apple's examples add it *(ours)*. Nil (transparent) when the layer was never shown.
    private func appearanceShownLast() -> LayerSnapshot? {
        defer { keepsLastSnapshotNode = true }
        guard wasPresented, let host = hostRecord() else { return nil }
        if keepsLastSnapshotNode { return lastSnapshotNode }
        let parentTime = superlayer?.convertTime(host.time, from: nil) ?? maskedLayer?.convertTime(host.time, from: nil) ?? host.time
        return LayerSnapshot(self, parentTime: parentTime)
    }

    /// The transition running at `time` on this layer's clock, if any.
    func transitionState(at time: Double) -> TransitionState? {
        guard let entry = animationEntries.first(where: { $0.key == "transition" }), let transition = entry.animation as? Transition,
              let p = transition.progress(at: time) else { return nil }
        return TransitionState(old: transition.oldState, progress: p, type: transition.type, subtype: transition.subtype ?? .fromLeft)
    }

    /// Applies the attached animations in order, each to the value the ones before it left (§2).
    func applyAnimations(to p: inout LayerPresentation, at time: Double) {
        // A local copy of the array holds every animation for the whole loop (even if an override of `apply`
        // changed the layer's animations): calling through unretained references then saves a retain and a release
        // per animation per frame (a tenth of a snapshot's time, `layerplay bench --snapshot`).
        let held = animationEntries
        held.withUnsafeBufferPointer { entries in
            for i in entries.indices {
                Unmanaged.passUnretained(entries[i].animation)._withUnsafeGuaranteedRef { $0.apply(to: &p, at: time) }
            }
        }
    }

    /// The layer's own clock from its parent's (CAMediaTiming on layers): `(t − beginTime) · speed + timeOffset`.
    public func localTime(fromParentTime t: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }
}
