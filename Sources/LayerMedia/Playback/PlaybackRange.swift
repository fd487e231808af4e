/// The part of a medium a playback covers, and how a playback timeline maps onto it.
///
/// The timeline starts at `start` and runs on while playing; with `loops`, media time wraps back to `start`
/// each time it reaches `end`, so the timeline (and animations on it) keep going through loops.
public struct PlaybackRange: Sendable, Equatable {
    /// Where the playback starts in the medium, in seconds.
    public var start: Double
    /// The end of the medium or of --duration; infinite when unknown.
    public var end: Double
    /// Whether media time wraps back to `start` at `end`.
    public var loops: Bool

    /// The range from `start` to `end` (an end before the start is taken as the start).
    public init(start: Double, end: Double, loops: Bool) {
        self.start = start
        self.end = max(end, start)
        self.loops = loops
    }

    /// Seconds from `start` to `end`.
    public var length: Double { end - start }

    /// The media time shown at timeline time `t`.
    public func mediaTime(_ t: Double) -> Double {
        guard loops, length > 0, length.isFinite, t >= end else { return min(max(t, start), end.isFinite ? end : t) }
        let into = (t - start).truncatingRemainder(dividingBy: length)
        return start + into
    }

    /// The timeline time of the loop that contains `t`'s start (the timeline time of media time `start`).
    public func loopStart(_ t: Double) -> Double {
        guard loops, length > 0, length.isFinite, t >= end else { return start }
        return t - (t - start).truncatingRemainder(dividingBy: length)
    }
}
