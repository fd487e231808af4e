/// Animations that run together on one clock (CAAnimationGroup), SEMANTICS-ANIMATION.md §8.
///
/// Each child's time is the group's time into its iteration, after the group's timing function; a child is seen only
/// while the group has an effect, so it is cut at the group's end (a 10 s child in a 5 s group shows its first 5 s).
/// A child's `beginTime` counts from the group's start (0 is 0, never "now"); a child without a duration takes the
/// group's. Children's `isRemovedOnCompletion` and delegates are ignored, as Core Animation ignores them.
open class AnimationGroup: Animation, @unchecked Sendable {
    /// The animations run together on the group's clock.
    public var animations: [Animation]?

    open override func copy() -> Animation {
        let c = AnimationGroup()
        c.copySettings(from: self)
        c.animations = animations?.map { $0.copy() }
        return c
    }

    open override func apply(to presentation: inout LayerPresentation, at time: Double) {
        guard let b = basicTime(at: time), let animations else { return }
        let d = timing.effectiveDuration
        let childTime = d * ease(b.time / d)
        for child in animations {
            // The attached group owns these copies: settle what the group decides about them once.
            if child.duration <= 0 { child.duration = d }
            if child.isRemovedOnCompletion { child.isRemovedOnCompletion = false }
            child.apply(to: &presentation, at: childTime)
        }
    }
}
