/// Where a sound sits on a timeline: timeline time `t` plays the sound's `t + offset` (a scene input's `start`,
/// SCENES.md §6); before the sound's 0 it is silent (a negative offset starts the sound late), and with a loop
/// length the sound wraps every `loopLength` seconds, as its looping picture does (`PlaybackRange.mediaTime`).
public struct AudioPlacement: Sendable, Equatable {
    /// Seconds of the sound before timeline time 0 (negative: silence first).
    public var offset: Double
    /// The sound wraps to its 0 at this media time; nil: it plays once (then silence).
    public var loopLength: Double?

    /// A placement; a non-finite offset is 0, and a loop length that is not a positive finite number plays once.
    public init(offset: Double, loopLength: Double? = nil) {
        self.offset = offset.isFinite ? max(-Self.limit, min(offset, Self.limit)) : 0
        self.loopLength = loopLength.flatMap { $0.isFinite && $0 > 1e-3 ? $0 : nil }
    }

    /// Offsets beyond a day are clamped (a typo must not ask for years of silence).
    static let limit = 86_400.0

    /// Whether it is the sound as it is, from timeline 0 (no shift, no wrap).
    public var isIdentity: Bool { offset == 0 && loopLength == nil }

    /// The sound's media time at timeline time `t`, or nil while it is silent before its start.
    public func mediaTime(_ t: Double) -> Double? {
        let m = t + offset
        guard m >= 0 else { return nil }
        guard let l = loopLength else { return m }
        return m.truncatingRemainder(dividingBy: l)
    }

    /// Seconds of silence from timeline time `t` until the sound starts (0 once it has).
    public func silence(from t: Double) -> Double { max(0, -(t + offset)) }

    /// Seconds from timeline time `t` (the sound playing) to its next wrap; nil without a loop.
    public func untilWrap(from t: Double) -> Double? {
        guard let l = loopLength, let m = mediaTime(t) else { return nil }
        return l - m
    }
}
