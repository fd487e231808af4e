/// How a transition shows a layer's old appearance turning into its new one (CATransitionType).
public enum TransitionType: String, Sendable, CaseIterable {
    /// The old fades out as the new fades in.
    case fade
    /// The new slides in over the old.
    case moveIn
    /// The new pushes the old out.
    case push
    /// The old slides away, revealing the new.
    case reveal
}

/// The side a transition's movement comes from (CATransitionSubtype); "top" is the visual top (y down).
public enum TransitionSubtype: String, Sendable, CaseIterable {
    /// From the left, right, top or bottom edge.
    case fromLeft, fromRight, fromTop, fromBottom
}

/// An animation of a layer's whole appearance (CATransition), SEMANTICS-ANIMATION.md §9: what the layer showed
/// before the transaction (its node in the last snapshot, frozen) turns into what it shows now (the live subtree).
/// Always attached under the key `"transition"`. Add it in the same transaction as the changes it shows.
open class Transition: Animation, @unchecked Sendable {
    /// How the old appearance turns into the new (a cross-fade by default).
    public var type: TransitionType = .fade
    /// nil is `fromLeft`.
    public var subtype: TransitionSubtype?
    /// Where the transition starts and ends, 0…1 (an end before the start is the start).
    public var startProgress = 0.0
    /// Where the transition ends, 0…1.
    public var endProgress = 1.0

    /// The old appearance, captured when the transition is attached; nil when the layer was in no snapshot
    /// (then the old is transparent).
    var oldState: LayerSnapshot?

    open override func copy() -> Animation {
        let c = Transition()
        c.copySettings(from: self)
        c.type = type; c.subtype = subtype; c.startProgress = startProgress; c.endProgress = endProgress
        c.oldState = oldState
        return c
    }

    /// The progress `p` at `time` on the layer's clock (§9), or nil when the transition has no effect then.
    func progress(at time: Double) -> Double? {
        guard let b = basicTime(at: time) else { return nil }
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        let start = unit(startProgress), end = max(unit(endProgress), start)
        return start + (end - start) * ease(b.progress)
    }
}

/// A transition in progress, as a snapshot carries it to the compositor.
public struct TransitionState: Sendable {
    /// The layer as it was shown before (its own placement, opacity, shadow and mask are the live node's).
    public let old: LayerSnapshot?
    /// 0 shows only the old, 1 only the new.
    public let progress: Double
    /// How the old turns into the new.
    public let type: TransitionType
    /// The side the movement comes from.
    public let subtype: TransitionSubtype
}
