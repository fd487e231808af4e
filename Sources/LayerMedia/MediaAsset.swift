import CFFmpeg
import CShims
import Foundation
import LayerGraphics

/// A media file opened and described (AVAsset's role): its streams, duration, sizes, colours and rotation.
/// Opening reads only the headers and enough packets to describe the streams.
public struct MediaAsset: Sendable, Codable {
    /// The first video stream as probed: codec, coded and display size, rotation, frame rate, pixel format, colour tags, duration.
    public struct Video: Sendable, Codable {
        /// The stream's index in the container.
        public var index: Int
        /// FFmpeg's name of the codec (`h264`, `hevc`, `vp9`, …).
        public var codec: String
        /// The coded picture's size in pixels, before the sample aspect ratio and rotation.
        public var width: Int
        /// The coded picture's height in pixels.
        public var height: Int
        /// Sample (pixel) aspect ratio, 1 when square or unknown.
        public var sampleAspectRatio: Double
        /// Clockwise rotation to apply for display (from the display matrix), in degrees: 0, 90, 180 or 270.
        public var rotation: Int
        /// Width and height as shown: the sample aspect ratio and the rotation applied.
        public var displayWidth: Int
        /// The height as shown (see `displayWidth`).
        public var displayHeight: Int
        /// Average frame rate, frames per second (0 when unknown), and the same as a fraction.
        public var frameRate: Double
        /// `frameRate`'s numerator (0 when unknown).
        public var frameRateNumerator: Int32
        /// `frameRate`'s denominator (1 when unknown).
        public var frameRateDenominator: Int32
        /// The rate the file claims when it is not believable (`BelievableFrameRate`): then `frameRate` is what its
        /// frame count or timestamps show, or 0. Nil when the claim is believed.
        public var claimedFrameRate: Double?
        /// FFmpeg's name of the decoded pixel format (`yuv420p`, …).
        public var pixelFormat: String
        /// Whether the pictures carry alpha (by the pixel format, or the `alpha_mode` tag of VP8/VP9 in WebM).
        public var hasAlpha: Bool
        /// The colour tags as FFmpeg names them ("unknown" when untagged): matrix, range, primaries and transfer.
        public var colorMatrix: String
        /// The colour range tag (`tv`, `pc` or "unknown").
        public var colorRange: String
        /// The colour primaries tag (`bt709`, … or "unknown").
        public var colorPrimaries: String
        /// The transfer characteristic tag (`bt709`, … or "unknown").
        public var colorTransfer: String
        /// The chroma location tag (`left`, `topleft`, … or "unspecified").
        public var chromaLocation: String = "unspecified"
        /// The first frame's colour as decoding reads it (tags, HDR side data, whether it is converted for
        /// display): filled by `describingFirstFrameColor()` (what `layerplay probe` prints), nil otherwise.
        public var frameColor: FrameColorReport?
        /// Seconds of this stream (0 when unknown).
        public var duration: Double
    }
    /// The first audio stream as probed: codec, sample rate, channel count and layout, duration.
    public struct Audio: Sendable, Codable {
        /// The stream's index in the container.
        public var index: Int
        /// FFmpeg's name of the codec (`aac`, `opus`, …).
        public var codec: String
        /// Samples a second.
        public var sampleRate: Int
        /// How many channels.
        public var channels: Int
        /// The channel layout's name (`mono`, `stereo`, …).
        public var layout: String
        /// Seconds of this stream (0 when unknown).
        public var duration: Double
    }

    /// The file that was opened.
    public var path: String
    /// FFmpeg's name of the container format (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, …).
    public var container: String
    /// Seconds; 0 when unknown (a still image).
    public var duration: Double
    /// The first video stream; nil when there is none.
    public var video: Video?
    /// The first audio stream; nil when there is none.
    public var audio: Audio?
    /// Every stream of the file with its index and its number among those of its kind (`probe` lists them).
    public var streams: [StreamEntry] = []

    /// Opens and describes `path`.
    /// - Throws: `MediaError` naming the file when it cannot be opened or holds no audio or video.
    public init(path: String) throws {
        try self.init(format: FFmpegFormat(path: path))
    }

    /// Describes a container that is already open (a decoder opening it too need not read it twice).
    init(format: FFmpegFormat) throws {
        let path = format.path
        guard let ctx = format.context else { throw MediaError("cannot open '\(path)'") }
        self.path = path
        container = ctx.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        // A source connected to once (`LiveConnection`) is live whatever its header says: an RTMP publisher's
        // metadata gives the length of what it publishes from, but the connection can neither seek nor be read
        // again to its end, so it is shown on its own clock until it stops.
        duration = format.live == nil && ctx.pointee.duration > 0 ? Double(ctx.pointee.duration) / Double(AV_TIME_BASE) : 0
        if let i = format.bestStream(AVMEDIA_TYPE_VIDEO) {
            var v = Self.describeVideo(format.streams[i], index: i)
            if v.frameRate > 0 && !BelievableFrameRate.isBelievable(v.frameRate) {
                let q = BelievableFrameRate.estimate(stream: i, of: format)
                v.claimedFrameRate = v.frameRate
                v.frameRate = q.map { Double($0.num) / Double($0.den) } ?? 0
                v.frameRateNumerator = q?.num ?? 0
                v.frameRateDenominator = q?.den ?? 1
            }
            video = v
        }
        if let i = format.bestStream(AVMEDIA_TYPE_AUDIO) { audio = Self.describeAudio(format.streams[i], index: i) }
        if video == nil && audio == nil { throw MediaError("cannot read '\(path)': it has no audio or video") }
        streams = StreamEntry.all(in: format)
    }

    static func describeVideo(_ st: UnsafeMutablePointer<AVStream>, index: Int) -> Video {
        let par = st.pointee.codecpar.pointee
        let sar = av_guess_sample_aspect_ratio(nil, st, nil)
        let sampleAspect = sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : 1
        var rotation = 0
        var size: Int = 0
        if let matrix = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 {
            let degrees = av_display_rotation_get(UnsafeRawPointer(matrix).assumingMemoryBound(to: Int32.self))
            if degrees.isFinite {
                // FFmpeg gives the counter-clockwise angle of the stored picture; display turns it back.
                rotation = ((Int((-degrees).rounded()) % 360) + 360) % 360
                rotation = (rotation + 45) / 90 * 90 % 360
            }
        }
        let w = Int(par.width), h = Int(par.height)
        var dw = Int((Double(w) * sampleAspect).rounded()), dh = h
        if rotation == 90 || rotation == 270 { swap(&dw, &dh) }
        let q = st.pointee.avg_frame_rate.den > 0 && st.pointee.avg_frame_rate.num > 0 ? st.pointee.avg_frame_rate : st.pointee.r_frame_rate
        let rate = q.den > 0 && q.num > 0 ? av_q2d(q) : 0
        let pixFmt = AVPixelFormat(rawValue: par.format)
        let flags = av_pix_fmt_desc_get(pixFmt)?.pointee.flags ?? 0
        func name(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "unknown" }
        return Video(index: index, codec: name(avcodec_get_name(par.codec_id)), width: w, height: h,
                     sampleAspectRatio: sampleAspect, rotation: rotation, displayWidth: dw, displayHeight: dh,
                     frameRate: rate, frameRateNumerator: rate > 0 ? q.num : 0, frameRateDenominator: rate > 0 ? q.den : 1, claimedFrameRate: nil, pixelFormat: pixelFormatName(pixFmt),
                     hasAlpha: flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
                        || av_dict_get(st.pointee.metadata, "alpha_mode", nil, 0).map { String(cString: $0.pointee.value) == "1" } == true,
                     colorMatrix: name(av_color_space_name(par.color_space)), colorRange: name(av_color_range_name(par.color_range)),
                     colorPrimaries: name(av_color_primaries_name(par.color_primaries)),
                     colorTransfer: name(av_color_transfer_name(par.color_trc)),
                     chromaLocation: name(av_chroma_location_name(par.chroma_location)), duration: streamDuration(st))
    }

    static func describeAudio(_ st: UnsafeMutablePointer<AVStream>, index: Int) -> Audio {
        var par = st.pointee.codecpar.pointee
        var buffer = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&par.ch_layout, &buffer, buffer.count)
        return Audio(index: index, codec: String(cString: avcodec_get_name(par.codec_id)), sampleRate: Int(par.sample_rate),
                     channels: Int(par.ch_layout.nb_channels),
                     layout: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                     duration: streamDuration(st))
    }

    static func streamDuration(_ st: UnsafeMutablePointer<AVStream>) -> Double {
        let d = st.pointee.duration
        return d == lp_av_nopts_value() || d <= 0 ? 0 : Double(d) * av_q2d(st.pointee.time_base)
    }

    /// A single picture (PNG, JPEG, WebP… read by FFmpeg's image demuxers) rather than a moving one.
    public var isStill: Bool {
        if MovieWriter.isImageSequence(path) { return false }  // numbered pictures are a video (`--input-fps`)
        if container == "image2" || container.hasSuffix("_pipe") { return true }
        // A stream without a duration from a pipe or a server is live, not a picture.
        return video != nil && audio == nil && duration == 0 && InputLocation(path).isFile
    }

    /// A stream with no duration (a live server, a pipe still being written): it plays on its own clock, from
    /// its start to wherever it ends, and cannot be started at a later time.
    public var isLive: Bool { !isStill && duration <= 0 }

    /// The description with the first video frame's colour (`Video.frameColor`): FFmpeg 5.1 puts HDR mastering and
    /// light-level data on frames, not streams, so this decodes one frame. Unchanged when there is no video or no
    /// decodable frame.
    public func describingFirstFrameColor() -> MediaAsset {
        guard video != nil, let source = try? VideoFrameSource(path: path), let frame = try? source.frame(at: 0) else { return self }
        var copy = self
        copy.video?.frameColor = FrameColorReport(frame.color)
        return copy
    }

    /// The description as pretty JSON (what `layerplay probe` prints).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
