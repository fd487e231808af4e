import CFFmpeg
import CShims
import Foundation

/// Everything a join checks before it writes anything, read from the files themselves:
/// - each segment is ours (`SegmentEncoding`'s tag: its frames [A, B) of a movie of T frames at a rate), the
///   segments follow each other from frame 0 to T without gap or overlap, at one rate;
/// - each holds exactly B − A video packets, the first a keyframe (for H.264, an IDR picture);
/// - every segment's stream has the first's codec, size, pixel format and extradata (for H.264: SPS and PPS, byte
///   for byte), so a decoder reads the joined stream as one;
/// - timestamps are whole frames (to within one tick of the container's clock), decode times strictly increasing, every frame's presentation time in the
///   segment and each frame shown once;
/// - the sound, when given, lasts as long as the movie: its samples are duration × sample rate, to within one of its
///   packets (a copied track ends on a packet boundary; an encoded one pads its last frame).
struct SegmentCheck {
    struct Segment {
        let path: String
        let stream: Int
        let frames: Range<Int>
        let rate: AVRational
    }
    struct Audio {
        let path: String
        let stream: Int
    }

    let segments: [Segment]
    let audio: Audio?
    let total: Int
    let rate: (num: Int32, den: Int32)
    private(set) var audioSamples: Int64?

    init(segments paths: [String], audio audioPath: String?) throws {
        guard !paths.isEmpty else { throw MediaError("join needs at least one segment") }
        var segments: [Segment] = []
        var reference: (codecpar: UnsafeMutablePointer<AVCodecParameters>, path: String)? = nil
        var referenceFormat: FFmpegFormat? = nil // keeps `reference` alive
        var expectedStart = 0, total: Int? = nil, rate: (num: Int32, den: Int32)? = nil
        for path in paths {
            let format = try FFmpegFormat(path: path)
            guard let index = format.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MediaError("'\(path)' has no video") }
            let tag = av_dict_get(format.context?.pointee.metadata, SegmentEncoding.metadataKey, nil, 0).map { String(cString: $0.pointee.value) }
            guard let tag, let parsed = Self.parse(tag) else {
                throw MediaError("'\(path)' is not a segment of layerplay (make segments with --frames A:B)")
            }
            if let total, parsed.total != total {
                throw MediaError("'\(path)' belongs to a movie of \(parsed.total) frames, '\(paths[0])' to one of \(total)")
            }
            if let rate, rate != parsed.rate {
                throw MediaError("'\(path)' is at \(parsed.rate.num)/\(parsed.rate.den) frames/s, '\(paths[0])' at \(rate.num)/\(rate.den)")
            }
            guard parsed.frames.lowerBound == expectedStart else {
                throw MediaError("'\(path)' holds frames \(parsed.frames.lowerBound)..<\(parsed.frames.upperBound), but the next segment must start at frame \(expectedStart)")
            }
            total = parsed.total; rate = parsed.rate; expectedStart = parsed.frames.upperBound
            let stream = format.streams[index]
            if let reference {
                try Self.checkSameStream(stream.pointee.codecpar, path: path, as: reference.codecpar, referencePath: reference.path)
            } else {
                reference = (stream.pointee.codecpar, path); referenceFormat = format
            }
            let segment = Segment(path: path, stream: index, frames: parsed.frames,
                                  rate: AVRational(num: parsed.rate.num, den: parsed.rate.den))
            try Self.checkPackets(of: segment, format: format)
            segments.append(segment)
        }
        _ = referenceFormat
        guard let total, let rate, expectedStart == total else {
            throw MediaError("the segments end at frame \(expectedStart) of \(total ?? 0): the last one is missing")
        }
        self.segments = segments; self.total = total; self.rate = rate
        if let audioPath {
            let format = try FFmpegFormat(path: audioPath)
            guard let index = format.bestStream(AVMEDIA_TYPE_AUDIO) else { throw MediaError("'\(audioPath)' has no audio") }
            audio = Audio(path: audioPath, stream: index)
            audioSamples = try Self.checkAudio(format, stream: index, frames: total, rate: rate)
        } else {
            audio = nil
        }
    }

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

    private static func checkSameStream(_ p: UnsafeMutablePointer<AVCodecParameters>, path: String,
                                        as r: UnsafeMutablePointer<AVCodecParameters>, referencePath: String) throws {
        let codec = { (id: AVCodecID) in String(cString: avcodec_get_name(id)) }
        guard p.pointee.codec_id == r.pointee.codec_id else {
            throw MediaError("'\(path)' is \(codec(p.pointee.codec_id)) video, '\(referencePath)' \(codec(r.pointee.codec_id))")
        }
        guard p.pointee.width == r.pointee.width, p.pointee.height == r.pointee.height, p.pointee.format == r.pointee.format else {
            throw MediaError("'\(path)' is \(p.pointee.width)x\(p.pointee.height), '\(referencePath)' \(r.pointee.width)x\(r.pointee.height) (or another pixel format)")
        }
        let same = p.pointee.extradata_size == r.pointee.extradata_size
            && (p.pointee.extradata_size == 0 || memcmp(p.pointee.extradata, r.pointee.extradata, Int(p.pointee.extradata_size)) == 0)
        guard same else {
            throw MediaError("'\(path)' has other codec headers (SPS/PPS) than '\(referencePath)': segments of one plan are encoded alike")
        }
    }

    /// Frames, the first an IDR, whole-frame timestamps, increasing decode times, each frame shown once.
    private static func checkPackets(of segment: Segment, format: FFmpegFormat) throws {
        let stream = format.streams[segment.stream]
        let base = stream.pointee.time_base
        let frameBase = AVRational(num: segment.rate.den, den: segment.rate.num)
        let isH264 = stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264
        let lengthSize = H264.lengthSize(extradata: stream.pointee.codecpar.pointee.extradata,
                                         size: Int(stream.pointee.codecpar.pointee.extradata_size))
        let reader = PacketReader(format: format, stream: segment.stream)
        let count = segment.frames.count
        var shown = [Bool](repeating: false, count: count)
        var seen = 0
        var lastDTS = Int64.min
        let path = segment.path
        while let packet = try reader.next() {
            defer { freePacket(packet) }
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
            for ts in [pts, dts] where abs(av_rescale_q(frames(ts, base, segment.rate), frameBase, base) - ts) > 1 {
                throw MediaError("'\(path)' has a timestamp off the frame grid (\(ts) in \(base.num)/\(base.den) s)")
            }
            guard dts > lastDTS else { throw MediaError("'\(path)' has decode timestamps that do not increase") }
            lastDTS = dts
            let frame = frames(pts, base, segment.rate)
            guard frame >= 0, frame < Int64(count), !shown[Int(frame)] else {
                throw MediaError("'\(path)' shows frame \(frame) outside 0..<\(count) or twice")
            }
            shown[Int(frame)] = true
        }
        guard seen == count else { throw MediaError("'\(path)' holds \(seen) frames, not the \(count) of frames \(segment.frames.lowerBound)..<\(segment.frames.upperBound)") }
    }

    /// The sound's samples per channel, checked against the movie's duration.
    private static func checkAudio(_ format: FFmpegFormat, stream index: Int, frames: Int, rate: (num: Int32, den: Int32)) throws -> Int64 {
        let stream = format.streams[index]
        let sampleRate = stream.pointee.codecpar.pointee.sample_rate
        guard sampleRate > 0 else { throw MediaError("'\(format.path)' has audio without a sample rate") }
        let perSample = AVRational(num: 1, den: sampleRate)
        let reader = PacketReader(format: format, stream: index)
        var begin = Int64.max, end = Int64.min, longest: Int64 = 0
        var lastDTS = Int64.min
        while let packet = try reader.next() {
            defer { freePacket(packet) }
            let pts = av_rescale_q(packet.pointee.pts, stream.pointee.time_base, perSample)
            let duration = av_rescale_q(packet.pointee.duration, stream.pointee.time_base, perSample)
            let dts = packet.pointee.dts == lp_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            guard dts > lastDTS else { throw MediaError("'\(format.path)' has audio timestamps that do not increase") }
            lastDTS = dts
            begin = min(begin, pts); end = max(end, pts + duration); longest = max(longest, duration)
        }
        // The sound spans the movie from its 0 to its last packet's end: encoder priming before 0 (AAC's 1024 samples)
        // is not the movie's, and a copied track may start a fraction of a packet after 0 (its first whole packet).
        let samples = end > begin ? max(0, end) : 0
        let expected = av_rescale(Int64(frames) * Int64(rate.den), Int64(sampleRate), Int64(rate.num))
        guard abs(samples - expected) <= longest else {
            throw MediaError("'\(format.path)' holds \(samples) samples of sound, the movie's \(frames) frames \(expected) (at \(sampleRate) Hz)")
        }
        return samples
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
