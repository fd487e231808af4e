import CFFmpeg
import CShims
import LayerGraphics

/// A decoded picture and when it is shown (seconds from the stream's start).
public struct VideoFrame: Sendable {
    /// When the picture is shown, from the stream's start.
    public let time: MediaTime
    /// The decoded picture, as the compositor shows it (HDR and wide gamut already converted to SDR BT.709).
    public let pixelBuffer: PixelBuffer
    /// The colour the frame was decoded with (its tags and HDR metadata), before any conversion.
    public let color: ColorDescription

    /// A frame shown at `time`; `color` defaults to the picture's matrix, range and chroma siting, untagged otherwise.
    public init(time: MediaTime, pixelBuffer: PixelBuffer, color: ColorDescription? = nil) {
        self.time = time
        self.pixelBuffer = pixelBuffer
        self.color = color ?? ColorDescription(matrix: pixelBuffer.matrix, range: pixelBuffer.range, chromaLocation: pixelBuffer.chromaLocation)
    }
}

/// Decodes one video stream in order and answers "which frame is shown at time t", seeking with frame
/// accuracy when t jumps: back to the keyframe before t, then decoding forward (no grey or smeared frames).
///
/// Not thread-safe: one owner calls it (the player, an exporter's decode thread).
public final class VideoFrameSource {
    /// The file's description.
    public let asset: MediaAsset
    private let format: FFmpegFormat
    private let decoder: FFmpegDecoder
    /// Reads packets on its own thread; stopped in deinit, before the container can close.
    private let demuxer: Demuxer
    private let converter = FrameConverter()
    private let stream: UnsafeMutablePointer<AVStream>
    private let startPTS: Int64
    /// The frame shown now, and the one after it (which tells when `current` stops being shown).
    private var current: VideoFrame?
    private var upcoming: VideoFrame?
    private var ended = false
    /// Frames decoded since the last seek: a still (`MediaAsset.isStill`) shows one picture and has no second,
    /// whatever its demuxer would still hand over (a pipe demuxer gives one packet per picture it finds).
    private var framesSinceSeek = 0

    /// Opens `path`'s video stream for decoding; throws `MediaError` when it cannot be opened or has no video.
    public init(path: String) throws {
        format = try FFmpegFormat(path: path)
        asset = try MediaAsset(format: format)
        guard let video = asset.video else { throw MediaError("cannot play '\(path)': it has no video") }
        decoder = try FFmpegDecoder(format: format, stream: video.index, onePicture: asset.isStill)
        stream = format.streams[video.index]
        startPTS = format.startPTS(ofStream: video.index)
        demuxer = Demuxer(format: format, stream: video.index)
    }

    deinit { demuxer.stop() }

    /// What the stream's converted HDR frames share: the level they are converted at (`PictureLevels`).
    var levelStream: PictureLevels.Stream { converter.levelStream }

    /// The frame shown at `seconds`: the last one whose time is at or before it (the first frame before the
    /// first time, the last frame after the end); nil only when the stream has no decodable frame.
    public func frame(at seconds: Double) throws -> VideoFrame? {
        if let c = current {
            // Behind the frame we hold (and not merely before the stream's first frame), or far ahead: seek.
            let behind = seconds < c.time.seconds - slack && c.time.seconds > (firstTime ?? 0) + 1e-9
            if behind || (seconds - c.time.seconds > 2 && keyframeLies(after: c.time.seconds, atOrBefore: seconds)) { try seek(to: seconds) }
        } else {
            try advance()
            firstTime = current?.time.seconds
        }
        try advanceWhileDue(seconds)
        return current
    }

    /// Whether the container's index has a keyframe in (after, atOrBefore]: only then does seeking forward
    /// beat decoding forward (a long GOP would make a seek decode the same frames again). Without an index
    /// (some containers), assume it does.
    /// Whether the frames come from a shared live connection (`LiveConnection`), which cannot seek: a time far ahead
    /// of its frames is reached only by waiting for them.
    var isLiveConnection: Bool { format.live != nil }

    func keyframeLies(after: Double, atOrBefore target: Double) -> Bool {
        let timeBase = stream.pointee.time_base, tb = av_q2d(timeBase)
        let startPTS = self.startPTS, stream = self.stream
        // A shared live connection cannot seek, and its reader thread adds to the index while it reads.
        if isLiveConnection { return false }
        // Some demuxers add index entries while reading: look while the demux thread is not reading.
        return demuxer.withContainerLocked {
            guard tb > 0, avformat_index_get_entry(stream, 0) != nil else { return true }
            let targetPTS = startPTS + Int64(ticks: target, timeBase: timeBase, rounding: .down)
            let i = av_index_search_timestamp(stream, targetPTS, AVSEEK_FLAG_BACKWARD)
            guard i >= 0, let entry = avformat_index_get_entry(stream, i) else { return true }
            return Double(entry.pointee.timestamp - startPTS) * tb > after + 1e-6
        }
    }

    /// The time of the stream's first frame.
    private var firstTime: Double?

    /// Containers round timestamps to their time base (Matroska: milliseconds), so a frame stored up to half a
    /// tick late is still the one due.
    var slack: Double { 0.5 * av_q2d(stream.pointee.time_base) + 1e-9 }

    private func advanceWhileDue(_ seconds: Double) throws {
        while let next = upcoming, next.time.seconds <= seconds + slack {
            current = next
            upcoming = nil
            try fillUpcoming()
        }
    }

    private func advance() throws {
        current = try decodeNext()
        try fillUpcoming()
    }

    private func fillUpcoming() throws {
        if upcoming == nil && !ended { upcoming = try decodeNext() }
    }

    private func seek(to seconds: Double) throws {
        // Some files cannot seek by timestamp: the demuxer then goes back to the start by bytes.
        _ = demuxer.seek(to: seconds)
        decoder.flush()
        current = nil
        upcoming = nil
        ended = false
        framesSinceSeek = 0
        // Decode forward to the frame shown at `seconds`.
        try advance()
        try advanceWhileDue(seconds)
    }

    // MARK: Sequential access (a decode thread's queue)

    /// Moves reading to the keyframe at or before `seconds`; the next `decodeNext()` gives the frames from there.
    func reposition(to seconds: Double) {
        _ = demuxer.seek(to: seconds)
        decoder.flush()
        current = nil
        upcoming = nil
        ended = false
        framesSinceSeek = 0
    }

    /// Whether the decoder skips the frames no other frame refers to (`AVCodecContext.skip_frame`
    /// `AVDISCARD_NONREF`; else `AVDISCARD_DEFAULT`): a window's decoder behind its clock (`DecodeAhead`).
    var skipsNonReferenceFrames = false {
        didSet {
            guard skipsNonReferenceFrames != oldValue, let context = decoder.context else { return }
            context.pointee.skip_frame = skipsNonReferenceFrames ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
        }
    }

    /// The next frame of the stream in order; nil at its end.
    func decodeNext() throws -> VideoFrame? {
        if asset.isStill && framesSinceSeek > 0 { ended = true; return nil }
        framesSinceSeek += 1
        guard let frame = try decoder.nextFrame(reading: demuxer.nextPacket) else { ended = true; return nil }
        var pts = frame.pointee.best_effort_timestamp
        if pts == lp_av_nopts_value() { pts = frame.pointee.pts == lp_av_nopts_value() ? startPTS : frame.pointee.pts }
        let tb = stream.pointee.time_base
        let time = MediaTime(value: (pts - startPTS) * Int64(tb.num), timescale: tb.den)
        let (picture, color) = try converter.picture(from: frame, name: asset.path)
        return VideoFrame(time: time, pixelBuffer: picture, color: color)
    }
}
