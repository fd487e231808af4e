import CFFmpeg
import CShims
import Foundation

/// Everything a join checks, read from the files themselves while `SegmentJoiner` copies them (one pass over every
/// packet; the movie is published only when every check passed):
/// - each segment is ours (`SegmentEncoding`'s tag: its frames [A, B) of a movie of T frames at a rate), the
///   segments follow each other from frame 0 to T without gap or overlap, at one rate;
/// - each holds exactly B − A video packets, the first a keyframe (for H.264, an IDR picture);
/// - every segment's stream has the first's codec, size and extradata (for H.264: SPS and PPS, byte for byte, which
///   also fix the pixel format and bit depth), so a decoder reads the joined stream as one;
/// - timestamps are whole frames (to within one tick of the container's clock), decode times strictly increasing,
///   every frame's presentation time in the segment and each frame shown once;
/// - the track file (`--audio-only`: the sound and the soft subtitles), when given: its timestamps never go back, and
///   its sound lasts as long as the movie: samples = duration × sample rate, to within one of its packets (a copied
///   track ends on a packet boundary; an encoded one pads its last frame).
enum SegmentCheck {
    /// `A:B/TOTAL@NUM/DEN`, as `SegmentEncoding.tag` writes it.
    static func parse(_ tag: String) -> (frames: Range<Int>, total: Int, rate: (num: Int32, den: Int32))? {
        let parts = tag.split(whereSeparator: { ":/@".contains($0) }).map { Int($0) }
        guard parts.count == 5, let a = parts[0], let b = parts[1], let t = parts[2], let num = parts[3], let den = parts[4],
              0 <= a, a < b, b <= t, num > 0, den > 0, let n = Int32(exactly: num), let d = Int32(exactly: den) else { return nil }
        return (a..<b, t, (n, d))
    }

    /// A timestamp in `base` as whole frames at `rate` (the checks have made sure it is whole).
    static func frames(_ ts: Int64, _ base: AVRational, _ rate: AVRational) -> Int64 {
        av_rescale_q(ts, base, AVRational(num: rate.den, den: rate.num))
    }
}

/// One segment opened for a join: its container (opened once; the first fully probed, the others only their header,
/// since probing decodes frames), its video stream and what its tag says.
final class SegmentInput {
    let format: FFmpegFormat
    let stream: Int
    let frames: Range<Int>
    let total: Int
    let rate: (num: Int32, den: Int32)
    var path: String { format.path }
    var video: UnsafeMutablePointer<AVStream> { format.streams[stream] }
    /// The rate as a fraction, and one frame as a time base.
    var rateQ: AVRational { AVRational(num: rate.num, den: rate.den) }
    var frameBase: AVRational { AVRational(num: rate.den, den: rate.num) }

    init(path: String, probing: Bool) throws {
        format = try FFmpegFormat(path: path, probing: probing)
        guard let index = format.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MediaError("'\(path)' has no video") }
        let tag = av_dict_get(format.context?.pointee.metadata, SegmentEncoding.metadataKey, nil, 0).map { String(cString: $0.pointee.value) }
        guard let tag, let parsed = SegmentCheck.parse(tag) else {
            throw MediaError("'\(path)' is not a segment of layerplay (make segments with --frames A:B)")
        }
        stream = index; frames = parsed.frames; total = parsed.total; rate = parsed.rate
    }

    /// Checks that this segment is the one that starts at frame `expectedStart` of the movie `first` begins, encoded
    /// as `first` is.
    func checkFollows(at expectedStart: Int, first: SegmentInput) throws {
        if total != first.total {
            throw MediaError("'\(path)' belongs to a movie of \(total) frames, '\(first.path)' to one of \(first.total)")
        }
        if rate != first.rate {
            throw MediaError("'\(path)' is at \(rate.num)/\(rate.den) frames/s, '\(first.path)' at \(first.rate.num)/\(first.rate.den)")
        }
        guard frames.lowerBound == expectedStart else {
            throw MediaError("'\(path)' holds frames \(frames.lowerBound)..<\(frames.upperBound), but the next segment must start at frame \(expectedStart)")
        }
        guard self !== first else { return }
        let p = video.pointee.codecpar!, r = first.video.pointee.codecpar!
        let codec = { (id: AVCodecID) in String(cString: avcodec_get_name(id)) }
        guard p.pointee.codec_id == r.pointee.codec_id else {
            throw MediaError("'\(path)' is \(codec(p.pointee.codec_id)) video, '\(first.path)' \(codec(r.pointee.codec_id))")
        }
        // A header-only open knows no pixel format (-1): the extradata compared below fixes it for H.264 and FFV1.
        let formatsDiffer = p.pointee.format >= 0 && r.pointee.format >= 0 && p.pointee.format != r.pointee.format
        guard p.pointee.width == r.pointee.width, p.pointee.height == r.pointee.height, !formatsDiffer else {
            throw MediaError("'\(path)' is \(p.pointee.width)x\(p.pointee.height), '\(first.path)' \(r.pointee.width)x\(r.pointee.height) (or another pixel format)")
        }
        let same = p.pointee.extradata_size == r.pointee.extradata_size
            && (p.pointee.extradata_size == 0 || memcmp(p.pointee.extradata, r.pointee.extradata, Int(p.pointee.extradata_size)) == 0)
        guard same else {
            throw MediaError("'\(path)' has other codec headers (SPS/PPS) than '\(first.path)': segments of one plan are encoded alike")
        }
    }
}

/// The per-packet checks of one segment, fed each of its video packets as the join copies it: frames, the first an
/// IDR, whole-frame timestamps, increasing decode times, each frame shown once.
struct SegmentPacketCheck {
    private let path: String
    private let base: AVRational, frameBase: AVRational, rate: AVRational
    private let isH264: Bool
    private let lengthSize: Int
    private let count: Int
    private let frameRange: Range<Int>
    private var shown: [Bool]
    private var seen = 0
    private var lastDTS = Int64.min

    init(_ segment: SegmentInput) {
        let stream = segment.video, parameters = stream.pointee.codecpar!
        path = segment.path
        base = stream.pointee.time_base; frameBase = segment.frameBase; rate = segment.rateQ
        isH264 = parameters.pointee.codec_id == AV_CODEC_ID_H264
        lengthSize = H264.lengthSize(extradata: parameters.pointee.extradata, size: Int(parameters.pointee.extradata_size))
        count = segment.frames.count; frameRange = segment.frames
        shown = [Bool](repeating: false, count: count)
    }

    /// Checks the next packet and returns its frame within the segment (presentation, decode), in frames.
    mutating func check(_ packet: UnsafeMutablePointer<AVPacket>) throws -> (pts: Int64, dts: Int64) {
        seen += 1
        if seen == 1 {
            let key = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            let idr = !isH264 || H264.startsWithIDR(packet.pointee.data, Int(packet.pointee.size), lengthSize: lengthSize)
            guard key && idr else { throw MediaError("'\(path)' does not start with \(isH264 ? "an IDR picture" : "a keyframe")") }
        }
        guard seen <= count else { throw MediaError("'\(path)' holds more than its \(count) frames") }
        let pts = packet.pointee.pts, dts = packet.pointee.dts == lp_av_nopts_value() ? pts : packet.pointee.dts
        guard pts != lp_av_nopts_value() else { throw MediaError("'\(path)' has a frame without a timestamp") }
        // On the grid to within the container's own rounding (one tick: Matroska keeps milliseconds).
        for ts in [pts, dts] where abs(av_rescale_q(SegmentCheck.frames(ts, base, rate), frameBase, base) - ts) > 1 {
            throw MediaError("'\(path)' has a timestamp off the frame grid (\(ts) in \(base.num)/\(base.den) s)")
        }
        guard dts > lastDTS else { throw MediaError("'\(path)' has decode timestamps that do not increase") }
        lastDTS = dts
        let frame = SegmentCheck.frames(pts, base, rate)
        guard frame >= 0, frame < Int64(count), !shown[Int(frame)] else {
            throw MediaError("'\(path)' shows frame \(frame) outside 0..<\(count) or twice")
        }
        shown[Int(frame)] = true
        return (frame, SegmentCheck.frames(dts, base, rate))
    }

    /// After the segment's last packet: it held all its frames.
    func finish() throws {
        guard seen == count else {
            throw MediaError("'\(path)' holds \(seen) frames, not the \(count) of frames \(frameRange.lowerBound)..<\(frameRange.upperBound)")
        }
    }
}

/// The checks of the track file (`--audio-only`: the sound and the soft subtitle streams), fed each of its packets
/// as the join copies it: timestamps that never go back (strictly increasing for sound, as muxers require; subtitle
/// cues may start together), and sound that lasts as long as the movie.
struct TrackCheck {
    private let format: FFmpegFormat
    private var lastDTS: [Int: Int64] = [:]
    /// Per sound stream, in samples: the first packet's start, the last's end and the longest packet.
    private var spans: [Int: (begin: Int64, end: Int64, longest: Int64)] = [:]

    init(_ format: FFmpegFormat) { self.format = format }

    mutating func check(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        let index = Int(packet.pointee.stream_index)
        let stream = format.streams[index], parameters = stream.pointee.codecpar!
        let dts = packet.pointee.dts == lp_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
        let isAudio = parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        if let last = lastDTS[index], isAudio ? dts <= last : dts < last {
            throw MediaError("'\(format.path)' has \(isAudio ? "audio" : "subtitle") timestamps that do not increase")
        }
        lastDTS[index] = dts
        guard isAudio else { return }
        let sampleRate = parameters.pointee.sample_rate
        guard sampleRate > 0 else { throw MediaError("'\(format.path)' has audio without a sample rate") }
        let perSample = AVRational(num: 1, den: sampleRate)
        let pts = av_rescale_q(packet.pointee.pts, stream.pointee.time_base, perSample)
        let duration = av_rescale_q(packet.pointee.duration, stream.pointee.time_base, perSample)
        let span = spans[index] ?? (Int64.max, Int64.min, 0)
        spans[index] = (min(span.begin, pts), max(span.end, pts + duration), max(span.longest, duration))
    }

    /// After the file's last packet: each sound stream's samples per channel, checked against the movie's duration;
    /// the first's (nil without sound).
    func finish(frames: Int, rate: (num: Int32, den: Int32)) throws -> Int64? {
        var first: Int64? = nil
        for (index, stream) in format.streams.enumerated() where stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
            let sampleRate = stream.pointee.codecpar.pointee.sample_rate
            let span = spans[index] ?? (0, 0, 0)
            // The sound spans the movie from its 0 to its last packet's end: encoder priming before 0 (AAC's 1024
            // samples) is not the movie's, and a copied track may start a fraction of a packet after 0.
            let samples = span.end > span.begin ? max(0, span.end) : 0
            let expected = av_rescale(Int64(frames) * Int64(rate.den), Int64(sampleRate), Int64(rate.num))
            guard abs(samples - expected) <= span.longest else {
                throw MediaError("'\(format.path)' holds \(samples) samples of sound, the movie's \(frames) frames \(expected) (at \(sampleRate) Hz)")
            }
            first = first ?? samples
        }
        return first
    }
}

/// Just enough of H.264's bitstream to tell an IDR picture: NAL units of type 5.
enum H264 {
    /// The size of the length before each NAL unit in avcC (MP4, Matroska) extradata; 0 for Annex B start codes.
    static func lengthSize(extradata: UnsafeMutablePointer<UInt8>?, size: Int) -> Int {
        guard let extradata, size >= 5, extradata[0] == 1 else { return 0 }
        return Int(extradata[4] & 3) + 1
    }

    /// Whether the packet holds an IDR slice (NAL type 5) before any other slice (types 1–4).
    static func startsWithIDR(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, lengthSize: Int) -> Bool {
        guard let data else { return false }
        var types: [UInt8] = []
        if lengthSize > 0 {
            var at = 0
            while at + lengthSize < size {
                var length = 0
                for i in 0..<lengthSize { length = length << 8 | Int(data[at + i]) }
                at += lengthSize
                guard length > 0, at + length <= size else { break }
                types.append(data[at] & 0x1f)
                at += length
            }
        } else {
            var at = 0
            while at + 3 < size {
                if data[at] == 0, data[at + 1] == 0, data[at + 2] == 1 { types.append(data[at + 3] & 0x1f); at += 3 } else { at += 1 }
            }
        }
        return types.first { (1...5).contains($0) } == 5
    }
}
