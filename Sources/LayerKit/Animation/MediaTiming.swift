/// What an animation shows outside its active time (CAMediaTimingFillMode).
public enum FillMode: Sendable {
    /// Nothing outside the active time (the default).
    case removed
    /// The final value after the end.
    case forwards
    /// The initial value before the beginning.
    case backwards
    case both
}

/// The timing of an animation (CAMediaTiming): when it begins, how long an iteration lasts, how often it
/// repeats, whether it plays back and forth, and what it shows outside its active time.
///
/// Times are seconds on the clock of the layer the animation is attached to. *(ours)* `beginTime` 0 is the
/// clock's zero, not "now": in a window the clock is the player's time and in an export the output's time,
/// so an animation is frame-exact and deterministic (AVFoundation's `AVCoreAnimationBeginTimeAtZero`, built in).
public struct MediaTiming: Sendable, Equatable {
    public var beginTime: Double = 0
    /// Seconds of one iteration; 0 means Core Animation's default, 0.25.
    public var duration: Double = 0
    public var speed: Double = 1
    public var timeOffset: Double = 0
    /// Iterations (fractions allowed, `.infinity` forever); 0 means one.
    public var repeatCount: Double = 0
    /// Seconds of repetition; when set it wins over `repeatCount`.
    public var repeatDuration: Double = 0
    /// Each iteration plays forwards then backwards.
    public var autoreverses = false
    public var fillMode: FillMode = .removed

    public init() {}

    /// The seconds one iteration takes.
    public var effectiveDuration: Double { duration > 0 ? duration : 0.25 }

    /// The seconds the animation is active, from its begin time (may be infinite).
    public var activeDuration: Double {
        let period = effectiveDuration * (autoreverses ? 2 : 1)
        if repeatDuration > 0 { return repeatDuration / max(abs(speed), 1e-12) }
        let count = repeatCount > 0 ? repeatCount : 1
        return count * period / max(abs(speed), 1e-12)
    }

    /// Where the animation is at `time` (its parent's clock): the iteration and the progress in it
    /// (0…1, before the timing function), or nil when it has no effect then.
    public func progress(at time: Double) -> (iteration: Double, progress: Double)? {
        let elapsed = time - beginTime
        let active = activeDuration
        var local: Double
        if elapsed < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            local = 0
        } else if elapsed >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            local = active * speed
        } else {
            local = elapsed * speed
        }
        local += timeOffset
        let d = effectiveDuration
        let period = d * (autoreverses ? 2 : 1)
        var iteration = (local / period).rounded(.down)
        var within = local - iteration * period
        // The very end of an iteration belongs to it, not to the next one (a held final value is the end value).
        if within == 0 && iteration > 0 && elapsed >= active {
            iteration -= 1
            within = period
        }
        if autoreverses && within > d { within = period - within }
        return (iteration, min(max(within / d, 0), 1))
    }
}
