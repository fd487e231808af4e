/// Which of a movie's subtitle tracks shows, and what `t` does to it (as ffplay's key): the next track, after the
/// last one none, after none the first again. With no tracks nothing ever shows.
public struct SubtitleSelection: Sendable, Equatable {
    /// How many tracks there are to choose from.
    public let trackCount: Int
    /// The index of the track that shows, or nil for none.
    public private(set) var current: Int?

    /// Starts on `current` (the first track by default; nil for none, as `--no-subtitles`). An index out of range
    /// is none.
    public init(trackCount: Int, current: Int? = 0) {
        self.trackCount = max(0, trackCount)
        if let current, current >= 0, current < self.trackCount { self.current = current } else { self.current = nil }
    }

    /// One press of `t`: 0 → 1 → … → last → none → 0.
    public mutating func cycle() {
        guard trackCount > 0 else { current = nil; return }
        switch current {
        case nil: current = 0
        case let i? where i + 1 < trackCount: current = i + 1
        default: current = nil
        }
    }
}
