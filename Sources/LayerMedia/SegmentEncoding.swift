import CFFmpeg

/// How a segment's video is encoded so that segments join without re-encoding (`SegmentJoiner`) into the same
/// stream wherever each was made: closed GOPs of `gop` frames, each starting with an IDR (so a segment that starts
/// on the GOP grid starts with one), no scene cuts, no open GOPs, x264's `stitchable` (headers that do not depend on
/// the segment), and a fixed encoder thread count, because x264's decisions (frame threads, lookahead) depend on it:
/// with `threads` fixed, the bits are the same on a 2-core laptop and a 64-core node.
public struct SegmentEncoding: Sendable {
    /// Frames per GOP: every segment of a plan uses the same (x264's SPS depends on the keyframe interval, and the
    /// join requires identical SPS/PPS).
    public var gop: Int
    /// The frames of the movie this segment holds, [A, B), and how many the whole movie has: written into the
    /// segment's metadata (`metadataKey`) so that the join can check the segments fit end to end.
    public var frames: Range<Int>
    /// Frames of the whole movie the segment belongs to.
    public var total: Int
    /// The movie's frame rate, a fraction (written with the frames: the join never guesses it from timestamps).
    public var rate: (num: Int32, den: Int32)
    /// The container metadata key that says which frames a segment holds and at what rate: `A:B/TOTAL@NUM/DEN`.
    public static let metadataKey = "layerplay_segment"
    /// The encoder threads of every segment, whatever the machine has.
    public static let threads: Int32 = 4

    /// Frames `frames` of a movie of `total` frames at `rate` frames a second: one-second GOPs (`gopLength(rate:)`).
    public init(frames: Range<Int>, total: Int, rate: (num: Int32, den: Int32)) {
        self.frames = frames; self.total = total; self.rate = rate; gop = Self.gopLength(rate: rate)
    }

    /// One second of frames, rounded, at least 1 and at most 300: short enough that a plan can cut a movie of a few
    /// seconds into several segments, long enough that GOPs cost little.
    public static func gopLength(rate: (num: Int32, den: Int32)) -> Int {
        guard rate.num > 0, rate.den > 0 else { return 30 }
        return min(300, max(1, Int((Double(rate.num) / Double(rate.den)).rounded())))
    }

    /// Tags the segment's container with its frames (mov/mp4 keep only known keys unless told to keep any).
    func tag(_ output: UnsafeMutablePointer<AVFormatContext>) {
        av_dict_set(&output.pointee.metadata, Self.metadataKey, "\(frames.lowerBound):\(frames.upperBound)/\(total)@\(rate.num)/\(rate.den)", 0)
        av_opt_set(output.pointee.priv_data, "movflags", "+use_metadata_tags", 0)
    }

    /// Sets the encoder up before it is opened. x264 gets its own parameters (libavcodec's generic ones do not
    /// reach `stitchable`); other encoders get the generic GOP fields and the same thread count (FFV1 and other
    /// intra-only codecs have nothing else to fix).
    func apply(to encoder: UnsafeMutablePointer<AVCodecContext>, encoderName: String) {
        encoder.pointee.gop_size = Int32(gop)
        encoder.pointee.keyint_min = Int32(gop)
        encoder.pointee.thread_count = Self.threads
        if Self.isX264(encoderName) { av_opt_set(encoder.pointee.priv_data, "x264-params", x264Parameters, 0) }
    }

    /// What x264 must do for segments to join: closed GOPs of `gop` frames from an IDR, no scene cuts, stitchable.
    var x264Parameters: String { "keyint=\(gop):min-keyint=\(gop):scenecut=0:open-gop=0:stitchable=1" }

    static func isX264(_ encoderName: String) -> Bool { encoderName == "libx264" || encoderName == "libx264rgb" }

    /// The encoder options given with `--encoder-opt`, which libavcodec applies when the encoder opens, after
    /// `apply`: an option that would undo what makes segments join (the GOP, the thread count) is refused with one
    /// line, and the user's own x264 parameters are kept with the segment's after them (x264 takes a key's last value).
    func reconcile(_ options: inout OpaquePointer?, encoderName: String) throws {
        for key in ["threads", "g", "keyint_min"] where av_dict_get(options, key, nil, 0) != nil {
            throw MediaError("--encoder-opt \(key) cannot be set for a segment: segments fix it so that they join (CLI.md \"Segments and joins\")")
        }
        if Self.isX264(encoderName), let given = av_dict_get(options, "x264-params", nil, 0) {
            av_dict_set(&options, "x264-params", String(cString: given.pointee.value) + ":" + x264Parameters, 0)
        }
    }
}
