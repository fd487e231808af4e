/// How a movie of `total` frames is cut into at most `count` segments: boundaries on the GOP grid (every segment
/// but the last a whole number of GOPs, so each starts with an IDR and its keyframe interval divides it), as even
/// as the grid allows. `--segments N` and the farm both ask this one plan (the farm through `--plan`), so they
/// render the same segments and join the same bytes.
public struct SegmentPlan: Sendable, Equatable {
    /// Frames of the whole movie.
    public let total: Int
    /// Frames per GOP (`SegmentEncoding.gopLength`).
    public let gop: Int
    /// The segments, in order: frames [A, B) each, from 0 to `total`.
    public let segments: [Range<Int>]

    /// The plan of `total` frames in at most `count` segments of whole GOPs of `gop` frames.
    public init(total: Int, gop: Int, count: Int) {
        let frames = max(0, total), gop = max(1, gop)
        let gops = (frames + gop - 1) / gop
        let perSegment = max(1, (gops + max(1, count) - 1) / max(1, count)) * gop
        self.total = frames; self.gop = gop
        segments = stride(from: 0, to: frames, by: perSegment).map { $0..<min(frames, $0 + perSegment) }
    }

    /// The plan as one line of JSON: what the farm reads. `audio` and `subtitles`: whether the export has sound and
    /// soft subtitle streams, the track file's (`--audio-only`) that the join muxes in.
    public func json(rate: (num: Int32, den: Int32), audio: Bool, subtitles: Bool) -> String {
        let list = segments.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ")
        return "{\"frames\": \(total), \"rate\": [\(rate.num), \(rate.den)], \"gop\": \(gop), \"audio\": \(audio), \"subtitles\": \(subtitles), \"segments\": [\(list)]}"
    }
}
