/// The stretch of a source's sound an export carries, on the source's own time: `duration` seconds from `from`.
/// Before the source's 0 (a negative `from`) the movie is silent; with `loopLength` the sound wraps to 0 at that
/// media time and repeats to the movie's length (a looping scene input, whose picture wraps there too).
public struct AudioSpan: Sendable, Equatable {
    /// Source seconds at the movie's 0; negative: that much silence first.
    public var from: Double
    /// Seconds of sound the movie holds.
    public var duration: Double
    /// Where the source wraps; nil: it plays once.
    public var loopLength: Double?
    /// Source seconds per movie second (an export at `--speed`): the span reads `duration × tempo` seconds of the
    /// source and time-stretches them to `duration`, the pitch kept (`AudioTempo`). 1: as it is.
    public var tempo = 1.0

    /// A span; non-finite values become 0 (and a loop length that is not a positive finite number plays once).
    public init(from: Double, duration: Double, loopLength: Double? = nil, tempo: Double = 1) {
        self.from = from.isFinite ? from : 0
        self.duration = duration.isFinite ? max(0, duration) : 0
        self.loopLength = loopLength.flatMap { $0.isFinite && $0 > 1e-3 ? $0 : nil }
        self.tempo = tempo.isFinite && tempo > 0 ? tempo : 1
    }

    /// The span of a plain source range (no silence, no loop).
    public init(_ range: ClosedRange<Double>) {
        self.init(from: range.lowerBound, duration: range.upperBound - range.lowerBound)
    }

    /// Whether the source's packets can be copied as they are: it starts within the source, does not wrap and is
    /// not stretched.
    var isPlain: Bool { from >= 0 && loopLength == nil && tempo == 1 }

    /// The source seconds it reads once, from the source's start at the earliest (subtitle streams, copying).
    var sourceRange: ClosedRange<Double> {
        let lower = max(0, from)
        return lower...(lower + duration * tempo)
    }
}
