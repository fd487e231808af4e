import CFFmpeg
import CShims
import Foundation
import LayerGraphics

/// Joins the segments of a segmented export (`--frames A:B`, `SegmentEncoding`) into one movie without re-encoding:
/// their video packets are copied through libavformat with exact timestamps (frame `i` of the movie at `i` frames
/// of `1/fps`, the rate a fraction read from the segments' tag, never rounded through a 90 kHz clock), the
/// timeline's sound (`Exporter.exportAudio`, encoded once) muxed beside them, and the first segment's metadata
/// copied. Everything is checked before anything is written (`SegmentCheck`); the movie appears atomically.
public enum SegmentJoiner {
    /// What a join wrote.
    public struct Report: Sendable {
        /// Frames of the joined movie.
        public var frames: Int
        /// Segments joined.
        public var segments: Int
        /// Samples of its sound (per channel), nil for a silent movie.
        public var audioSamples: Int64?
    }

    /// Joins `segments` (in timeline order) and, when given, the sound in `audio` into `path`.
    /// - Throws: `MediaError` naming the first check that failed; `FileExistsError` when `path` appeared meanwhile
    ///   and may not be replaced.
    public static func join(segments: [String], audio: String?, to path: String, replacing: Bool = true) throws -> Report {
        FFmpegLogging.quietOnce()
        let check = try SegmentCheck(segments: segments, audio: audio)
        return try Interruption.during {
            PartialFile.sweep(beside: path)
            let temporary = PartialFile.path(for: path)
            do {
                try write(check, temporary: temporary, name: path)
                try Interruption.check(writing: path)
                try PartialFile.publish(temporary, at: path, replacing: replacing)
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
            return Report(frames: check.total, segments: segments.count, audioSamples: check.audioSamples)
        }
    }

    /// Writes the checked segments and sound, interleaved by time.
    private static func write(_ check: SegmentCheck, temporary: String, name: String) throws {
        guard let format = av_guess_format(nil, name, nil) else { throw MediaError("cannot write '\(name)': no container for that file name") }
        var allocated: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&allocated, format, nil, temporary) >= 0, let oc = allocated else {
            throw MediaError("cannot write '\(name)': the container cannot be set up")
        }
        defer {
            if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&oc.pointee.pb) }
            avformat_free_context(oc)
        }
        let first = try FFmpegFormat(path: check.segments[0].path)
        let firstVideo = first.streams[check.segments[0].stream]
        // The sound's container metadata first, the first segment's over it; our segment tag is not the movie's.
        let audioFormat = try check.audio.map { try FFmpegFormat(path: $0.path) }
        if let audioFormat { av_dict_copy(&oc.pointee.metadata, audioFormat.context?.pointee.metadata, 0) }
        av_dict_copy(&oc.pointee.metadata, first.context?.pointee.metadata, 0)
        av_dict_set(&oc.pointee.metadata, SegmentEncoding.metadataKey, nil, 0)

        guard let video = avformat_new_stream(oc, nil) else { throw MediaError("out of memory") }
        avcodec_parameters_copy(video.pointee.codecpar, firstVideo.pointee.codecpar)
        video.pointee.codecpar.pointee.codec_tag = 0
        av_dict_copy(&video.pointee.metadata, firstVideo.pointee.metadata, 0)
        let frameBase = AVRational(num: check.rate.den, den: check.rate.num)
        video.pointee.time_base = frameBase
        video.pointee.avg_frame_rate = AVRational(num: check.rate.num, den: check.rate.den)
        video.pointee.r_frame_rate = video.pointee.avg_frame_rate

        var audioStream: UnsafeMutablePointer<AVStream>? = nil
        if let audioFormat, let info = check.audio {
            let source = audioFormat.streams[info.stream]
            guard let st = avformat_new_stream(oc, nil) else { throw MediaError("out of memory") }
            avcodec_parameters_copy(st.pointee.codecpar, source.pointee.codecpar)
            st.pointee.codecpar.pointee.codec_tag = 0
            st.pointee.time_base = source.pointee.time_base
            av_dict_copy(&st.pointee.metadata, source.pointee.metadata, 0)
            audioStream = st
        }
        if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let status = avio_open(&oc.pointee.pb, temporary, AVIO_FLAG_WRITE)
            guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
        }
        let header = FFmpegLogging.reason { avformat_write_header(oc, nil) }
        guard header.status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", header) }

        // Video packets in frame units on the movie's clock, sound packets in their own time base: whichever is
        // earlier goes first, so the muxer never holds more than a packet of either.
        var videoPackets = SegmentPackets(check.segments)
        let audioReader = try audioFormat.map { _ in try PacketReader(path: check.audio!.path, stream: check.audio!.stream) }
        var nextVideo = try videoPackets.next()
        var nextAudio = try audioReader?.next()
        let audioBase = audioReader?.timeBase ?? AVRational(num: 1, den: 1)
        while nextVideo != nil || nextAudio != nil {
            let takeVideo: Bool
            if let v = nextVideo, let a = nextAudio {
                takeVideo = av_compare_ts(v.pointee.dts, frameBase, a.pointee.dts == lp_av_nopts_value() ? a.pointee.pts : a.pointee.dts, audioBase) <= 0
            } else { takeVideo = nextVideo != nil }
            if takeVideo, let packet = nextVideo {
                av_packet_rescale_ts(packet, frameBase, video.pointee.time_base)
                packet.pointee.stream_index = video.pointee.index
                let status = av_interleaved_write_frame(oc, packet)
                freePacket(packet)
                guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
                nextVideo = try videoPackets.next()
            } else if let packet = nextAudio, let audioStream {
                av_packet_rescale_ts(packet, audioBase, audioStream.pointee.time_base)
                packet.pointee.stream_index = audioStream.pointee.index
                packet.pointee.pos = -1
                let status = av_interleaved_write_frame(oc, packet)
                freePacket(packet)
                guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
                nextAudio = try audioReader?.next()
            }
        }
        let status = av_write_trailer(oc)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot finish '\(name)'", status) }
    }
}

/// Frees a packet `av_packet_alloc` made.
func freePacket(_ packet: UnsafeMutablePointer<AVPacket>) {
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&owned)
}

/// Reads one stream's packets of a file, in order, each a packet of its own (the caller frees it).
final class PacketReader {
    let format: FFmpegFormat
    let stream: Int
    var timeBase: AVRational { format.streams[stream].pointee.time_base }

    init(format: FFmpegFormat, stream: Int) {
        self.format = format
        self.stream = stream
    }

    convenience init(path: String, stream: Int) throws {
        self.init(format: try FFmpegFormat(path: path), stream: stream)
    }

    func next() throws -> UnsafeMutablePointer<AVPacket>? {
        guard let packet = av_packet_alloc() else { throw MediaError("out of memory") }
        while true {
            let status = av_read_frame(format.context, packet)
            if status == lp_averror_eof() { freePacket(packet); return nil }
            guard status >= 0 else {
                freePacket(packet)
                throw MediaError.ffmpeg("cannot read '\(format.path)'", status)
            }
            if packet.pointee.stream_index == Int32(stream) { return packet }
            av_packet_unref(packet)
        }
    }
}

/// The video packets of checked segments one after another, moved onto the movie's clock: a segment of frames
/// [A, B) has its timestamps (exact multiples of a frame, `SegmentCheck` saw to it) shifted by A frames.
struct SegmentPackets {
    private let segments: [SegmentCheck.Segment]
    private var index = 0
    private var reader: PacketReader?

    init(_ segments: [SegmentCheck.Segment]) { self.segments = segments }

    /// The next packet with its timestamps in frames of the movie, or nil after the last segment's last.
    mutating func next() throws -> UnsafeMutablePointer<AVPacket>? {
        while index < segments.count {
            let segment = segments[index]
            if reader == nil { reader = try PacketReader(path: segment.path, stream: segment.stream) }
            if let packet = try reader!.next() {
                let base = reader!.timeBase
                packet.pointee.pts = Int64(segment.frames.lowerBound) + SegmentCheck.frames(packet.pointee.pts, base, segment.rate)
                packet.pointee.dts = Int64(segment.frames.lowerBound) + SegmentCheck.frames(packet.pointee.dts, base, segment.rate)
                packet.pointee.duration = 1
                packet.pointee.pos = -1
                return packet
            }
            reader = nil
            index += 1
        }
        return nil
    }
}
