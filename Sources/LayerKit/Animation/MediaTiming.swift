/// What an animation shows outside its active time (CAMediaTimingFillMode).
public enum FillMode: Sendable {
    /// Nothing outside the active time (the default).
    case removed
    /// The final value after the end.
    case forwards
    /// The initial value before the beginning.
    case backwards
    /// Both: the initial value before the beginning and the final one after the end.
    case both
}

/// Where an animation is inside an iteration at some time: SEMANTICS-ANIMATION.md §3's "basic time".
public struct BasicTime: Sendable, Equatable {
    /// `k`: the iteration, 0 for the first. Negative only for an infinite animation whose `timeOffset` or negative
    /// speed takes it before its start (nothing folds an infinite active duration back into range).
    public var iteration: Double
    /// `c`: seconds into the iteration after autoreverse folding, in `[0, d]`.
    public var time: Double
    /// `u = c / d`, in `[0, 1]`, before the timing function.
    public var progress: Double

    /// A basic time of iteration `iteration`, `time` seconds in, at `progress`.
    public init(iteration: Double, time: Double, progress: Double) {
        self.iteration = iteration
        self.time = time
        self.progress = progress
    }
}

/// The timing of an animation (CAMediaTiming): when it begins, how long an iteration lasts, how often it
/// repeats, whether it plays back and forth, and what it shows outside its active time.
///
/// Times are seconds on the animation's parent clock (the layer's local time, or the group's). The mapping from
/// that clock to a place in an iteration is SEMANTICS-ANIMATION.md §3, implemented by `basicTime(at:isRemovedOnCompletion:)`.
public struct MediaTiming: Sendable, Equatable {
    /// When the animation starts on its parent's clock (0: when it is added).
    public var beginTime: Double = 0
    /// Seconds of one iteration; 0 means Core Animation's default, 0.25.
    public var duration: Double = 0
    /// How fast its clock runs relative to its parent's.
    public var speed: Double = 1
    /// Seconds added to its local time.
    public var timeOffset: Double = 0
    /// Iterations (fractions allowed, `.infinity` forever); 0 means one.
    public var repeatCount: Double = 0
    /// Local seconds of repetition, reversed halves included; when set it wins over `repeatCount`.
    public var repeatDuration: Double = 0
    /// Each iteration plays forwards then backwards.
    public var autoreverses = false
    /// What it shows outside its active time.
    public var fillMode: FillMode = .removed

    /// One 0.25 s iteration from time 0, no fill.
    public init() {}

    /// `d`: the seconds one iteration takes (§2: a duration ≤ 0, or NaN, is 0.25).
    public var effectiveDuration: Double { duration > 0 ? duration : 0.25 }

    /// `P = d · (autoreverses ? 2 : 1)`: one forward pass and, with autoreverse, the way back.
    public var period: Double { effectiveDuration * (autoreverses ? 2 : 1) }

    /// `A`: the active duration on the animation's own (local) clock, §3. `repeatDuration` wins over
    /// `repeatCount`; a count may be fractional or infinite. 0 only when `P · n` underflows.
    public var localActiveDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        return period * (repeatCount > 0 ? repeatCount : 1)
    }

    /// The length of the active span on the parent clock, `A / |speed|`: infinite for speed 0 (a frozen animation
    /// never ends) or an infinite `A`; 0 when the speed is not finite (such a timing never has an effect).
    public var activeDuration: Double {
        guard speed.isFinite else { return 0 }
        if speed == 0 { return .infinity }
        return localActiveDuration / abs(speed)
    }

    /// Whether the parameters can be evaluated at all: beginTime, speed and timeOffset finite, `A > 0`.
    /// (Duration, repeatCount and repeatDuration have defaults for NaN and ≤ 0, see above.)
    private var isEvaluable: Bool {
        beginTime.isFinite && speed.isFinite && timeOffset.isFinite && localActiveDuration > 0
    }

    /// The end of the active span on the parent clock, `b + A/|s|`, or nil when the span never ends
    /// (speed 0, infinite `A`, or `A/|s|` beyond the largest double).
    private var activeSpanEnd: Double? {
        guard speed != 0 else { return nil }
        let end = beginTime + localActiveDuration / abs(speed)
        return end.isFinite ? end : nil
    }

    /// Where the animation is at `t` (its parent's clock): §3's mapping, or nil when it has no effect then
    /// (before the span without backwards fill, after it when removed on completion or without forwards fill, or
    /// when the parameters cannot be evaluated: NaN `t`, non-finite beginTime, speed or timeOffset, or `t` = ±∞ inside
    /// a span that never ends).
    public func basicTime(at t: Double, isRemovedOnCompletion: Bool) -> BasicTime? {
        guard !t.isNaN, isEvaluable else { return nil }
        let a = localActiveDuration, s = speed, o = timeOffset, b = beginTime
        let x: Double
        if t < b {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            // The first active time: where the span starts.
            x = a.isFinite ? (s >= 0 ? Self.wrapClosedOpen(o, a) : Self.wrapOpenClosed(o, a)) : o
        } else if let end = activeSpanEnd, t >= end {
            guard !isRemovedOnCompletion && (fillMode == .forwards || fillMode == .both) else { return nil }
            // The limit from inside: s > 0 ends at (A + o) into (0, A]; s < 0 at (o − A) into [0, A). (A is finite here.)
            x = s > 0 ? Self.wrapOpenClosed(o, a) : Self.wrapClosedOpen(o, a)
        } else if s == 0 {
            x = a.isFinite ? Self.wrapClosedOpen(o, a) : o
        } else if a.isFinite {
            // x = (t − b)·s + o reduced modulo A, written as the offset's phase plus the local seconds elapsed so that a
            // huge offset does not swallow the elapsed time. Rounding may put the elapsed time at A although t is
            // before the span's end: it then stays just inside.
            var elapsed = (t - b) * abs(s)
            if !(elapsed < a) { elapsed = a.nextDown }
            x = s > 0 ? Self.wrapClosedOpen(Self.wrapClosedOpen(o, a) + elapsed, a)
                      : Self.wrapOpenClosed(Self.wrapOpenClosed(o, a) - elapsed, a)
        } else {
            x = (t - b) * s + o
        }
        guard x.isFinite else { return nil }
        return basicTime(local: x, activeDuration: a)
    }

    /// §3's "basic time" for an active local time `x` (in `[0, A]` when `A` is finite).
    private func basicTime(local x: Double, activeDuration a: Double) -> BasicTime? {
        let d = effectiveDuration, p = period
        var k: Double, c: Double
        if a.isFinite && x == a {
            // The end of the last iteration: k = ⌈A/P⌉ − 1, c = A − k·P. A/P is the repeat count itself when the count
            // made A; a quotient within rounding of a whole number is that number, so that d = 0.1, n = 3 (A = 0.30000000000000004)
            // ends on iteration 2 at its end, not on iteration 3 at 5e-17 s.
            let q = repeatDuration > 0 ? a / p : (repeatCount > 0 ? repeatCount : 1)
            let whole = q.rounded()
            if whole >= 1 && abs(q - whole) <= max(1e-9, 4 * q.ulp) {
                k = whole - 1
                c = p
            } else {
                k = max(0, q.rounded(.up) - 1)
                c = k == 0 ? a : (q - k) * p
            }
            c = min(max(c, 0), p)
        } else {
            // k = ⌊x/P⌋, c = x − k·P ∈ [0, P); the remainder is exact, the quotient only names the iteration.
            c = x.truncatingRemainder(dividingBy: p)
            if c < 0 {
                c += p
                if c >= p { c = p.nextDown }
            }
            k = ((x - c) / p).rounded()
            if !k.isFinite { k = x < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude }
        }
        if autoreverses && c > d { c = p - c }
        let u = min(max(c / d, 0), 1)
        guard !k.isNaN, !c.isNaN, !u.isNaN else { return nil }
        return BasicTime(iteration: k, time: c, progress: u)
    }

    /// Whether the animation has ended for good at `t` (its parent's clock): past the end of its active span and
    /// either removed on completion or without forwards fill. False for NaN `t`, speed 0 and infinite spans; true for a
    /// timing that can never have an effect (non-finite beginTime, speed or timeOffset).
    public func isFinished(at t: Double, isRemovedOnCompletion: Bool) -> Bool {
        guard !t.isNaN else { return false }
        guard isEvaluable else { return true }
        guard let end = activeSpanEnd, t >= end else { return false }
        return isRemovedOnCompletion || !(fillMode == .forwards || fillMode == .both)
    }

    /// Where the animation is at `time` (its parent's clock): the iteration and the progress in it
    /// (0…1, before the timing function), or nil when it has no effect then. Not removed on completion: the fill
    /// mode alone decides what shows outside the active span.
    public func progress(at time: Double) -> (iteration: Double, progress: Double)? {
        basicTime(at: time, isRemovedOnCompletion: false).map { ($0.iteration, $0.progress) }
    }

    /// `v` reduced modulo `m` (finite, > 0) into `[0, m)`.
    static func wrapClosedOpen(_ v: Double, _ m: Double) -> Double {
        var r = v.truncatingRemainder(dividingBy: m)
        if r < 0 {
            r += m
            // −1e-20 + 1 rounds to 1: the true value is just below m.
            if r >= m { r = m.nextDown }
        }
        return r
    }

    /// `v` reduced modulo `m` (finite, > 0) into `(0, m]`.
    static func wrapOpenClosed(_ v: Double, _ m: Double) -> Double {
        var r = v.truncatingRemainder(dividingBy: m)
        if r <= 0 { r += m }
        return r > 0 ? r : .leastNonzeroMagnitude
    }
}
