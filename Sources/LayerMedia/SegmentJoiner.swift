import CFFmpeg
import CShims
import Foundation
import LayerGraphics

/// Joins the segments of a segmented export (`--frames A:B`, `SegmentEncoding`) into one movie without re-encoding:
/// their video packets are copied through libavformat with exact timestamps (frame `i` of the movie at `i` frames
/// of `1/fps`, the rate a fraction read from the segments' tag, never rounded through a 90 kHz clock), the streams of
/// the timeline's track file (`Exporter.exportAudio`: the sound, encoded once, and the soft subtitles) muxed beside
/// them, and the first segment's metadata copied.
///
/// One pass: each file is opened once and each packet read once, checked (`SegmentCheck`) as it is copied into a
/// temporary file; the movie appears at its path only when every check passed, and a failed check removes the
/// temporary (a join's fixed cost is what makes it a share of a farm's job: a second reading pass and probing every
/// segment, which decodes frames, cost more than the copy).
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

    /// Joins `segments` (in timeline order) and, when given, the streams of the track file `audio` into `path`.
    /// - Throws: `MediaError` naming the first check that failed; `FileExistsError` when `path` appeared meanwhile
    ///   and may not be replaced.
    public static func join(segments: [String], audio: String?, to path: String, replacing: Bool = true) throws -> Report {
        FFmpegLogging.quietOnce()
        guard !segments.isEmpty else { throw MediaError("join needs at least one segment") }
        // The first segment (probed: its stream parameters are the movie's) and the track file are opened before
        // anything is created, so that most bad input fails before any write.
        let first = try SegmentInput(path: segments[0], probing: true)
        try first.checkFollows(at: 0, first: first)
        let tracks = try audio.map { try FFmpegFormat(path: $0) }
        return try Interruption.during {
            PartialFile.sweep(beside: path)
            let temporary = PartialFile.path(for: path)
            do {
                let report = try write(first: first, rest: Array(segments.dropFirst()), tracks: tracks, temporary: temporary, name: path)
                try Interruption.check(writing: path)
                try PartialFile.publish(temporary, at: path, replacing: replacing)
                return report
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
        }
    }

    /// Copies the segments and the track file's streams, interleaved by time, checking every packet on the way.
    private static func write(first: SegmentInput, rest: [String], tracks: FFmpegFormat?, temporary: String, name: String) throws -> Report {
        let file = try MuxedFile(name: name, writingTo: temporary)
        let oc = file.context
        // The track file's container metadata first, the first segment's over it; our segment tag is not the movie's.
        if let tracks { av_dict_copy(&oc.pointee.metadata, tracks.context?.pointee.metadata, 0) }
        av_dict_copy(&oc.pointee.metadata, first.format.context?.pointee.metadata, 0)
        av_dict_set(&oc.pointee.metadata, SegmentEncoding.metadataKey, nil, 0)

        guard let video = avformat_new_stream(oc, nil) else { throw MediaError("out of memory") }
        avcodec_parameters_copy(video.pointee.codecpar, first.video.pointee.codecpar)
        video.pointee.codecpar.pointee.codec_tag = 0
        av_dict_copy(&video.pointee.metadata, first.video.pointee.metadata, 0)
        let frameBase = first.frameBase
        video.pointee.time_base = frameBase
        video.pointee.avg_frame_rate = first.rateQ
        video.pointee.r_frame_rate = first.rateQ

        // Every sound and subtitle stream of the track file, in its order (as a single export lists them: sound, then
        // subtitles), in its own time base.
        var carried: [Int32: UnsafeMutablePointer<AVStream>] = [:]
        for source in tracks?.streams ?? [] {
            let kind = source.pointee.codecpar.pointee.codec_type
            guard kind == AVMEDIA_TYPE_AUDIO || kind == AVMEDIA_TYPE_SUBTITLE else { source.pointee.discard = AVDISCARD_ALL; continue }
            guard let st = avformat_new_stream(oc, nil) else { throw MediaError("out of memory") }
            avcodec_parameters_copy(st.pointee.codecpar, source.pointee.codecpar)
            st.pointee.codecpar.pointee.codec_tag = 0
            st.pointee.time_base = source.pointee.time_base
            av_dict_copy(&st.pointee.metadata, source.pointee.metadata, 0)
            carried[source.pointee.index] = st
        }
        if let tracks, carried.isEmpty { throw MediaError("'\(tracks.path)' has no sound or subtitles") }
        try file.writeHeader()

        // Video packets in frame units on the movie's clock, track packets in their own time base: whichever is
        // earlier goes first, so the muxer never holds more than a packet of either.
        var videoPackets = SegmentPackets(first: first, rest: rest)
        var trackCheck = tracks.map { TrackCheck($0) }
        let trackReader = tracks.map { PacketReader(format: $0, stream: nil) }
        var nextVideo = try videoPackets.next()
        var nextTrack = try trackReader?.next()
        while nextVideo != nil || nextTrack != nil {
            let takeVideo: Bool
            if let v = nextVideo, let t = nextTrack, let tracks {
                let base = tracks.streams[Int(t.pointee.stream_index)].pointee.time_base
                takeVideo = av_compare_ts(v.pointee.dts, frameBase, t.pointee.dts == lp_av_nopts_value() ? t.pointee.pts : t.pointee.dts, base) <= 0
            } else { takeVideo = nextVideo != nil }
            if takeVideo, let packet = nextVideo {
                defer { freePacket(packet) }
                av_packet_rescale_ts(packet, frameBase, video.pointee.time_base)
                packet.pointee.stream_index = video.pointee.index
                try file.write(packet)
                nextVideo = try videoPackets.next()
            } else if let packet = nextTrack, let tracks {
                defer { freePacket(packet) }
                if let out = carried[packet.pointee.stream_index] {
                    try trackCheck?.check(packet)
                    // The track file's own cue ends (an MP4's): the join's muxer writes its own, as a single export's did.
                    if SubtitleStreamWriter.isMovTextGap(packet, codec: out.pointee.codecpar.pointee.codec_id) {
                        nextTrack = try trackReader?.next()
                        continue
                    }
                    av_packet_rescale_ts(packet, tracks.streams[Int(packet.pointee.stream_index)].pointee.time_base, out.pointee.time_base)
                    packet.pointee.stream_index = out.pointee.index
                    packet.pointee.pos = -1
                    try file.write(packet)
                }
                nextTrack = try trackReader?.next()
            }
        }
        try videoPackets.finish()
        let samples = try trackCheck?.finish(frames: first.total, rate: first.rate)
        try file.finish()
        return Report(frames: first.total, segments: rest.count + 1, audioSamples: samples)
    }
}

/// Frees a packet `av_packet_alloc` made.
func freePacket(_ packet: UnsafeMutablePointer<AVPacket>) {
    var owned: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&owned)
}

/// Reads a file's packets in order, of one stream or (`stream` nil) of every stream not discarded, each a packet of
/// its own (the caller frees it).
final class PacketReader {
    let format: FFmpegFormat
    let stream: Int?

    init(format: FFmpegFormat, stream: Int?) {
        self.format = format
        self.stream = stream
        if let stream { for other in format.streams where other.pointee.index != Int32(stream) { other.pointee.discard = AVDISCARD_ALL } }
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
            if stream.map({ packet.pointee.stream_index == Int32($0) }) ?? true { return packet }
            av_packet_unref(packet)
        }
    }
}

/// The video packets of the segments one after another, each checked (`SegmentPacketCheck`) and moved onto the
/// movie's clock: a segment of frames [A, B) has its timestamps (exact multiples of a frame, as the check makes
/// sure) shifted by A frames. Each segment is opened when the one before it is done (its header only), and checked
/// to follow it.
struct SegmentPackets {
    private let first: SegmentInput
    private var rest: ArraySlice<String>
    private var current: SegmentInput?
    /// The frame after the last segment done.
    private var end = 0
    private var reader: PacketReader?
    private var check: SegmentPacketCheck?

    init(first: SegmentInput, rest: [String]) {
        self.first = first
        self.rest = rest[...]
        start(first)
    }

    private mutating func start(_ segment: SegmentInput) {
        current = segment
        reader = PacketReader(format: segment.format, stream: segment.stream)
        check = SegmentPacketCheck(segment)
    }

    /// The next packet with its timestamps in frames of the movie, or nil after the last segment's last.
    mutating func next() throws -> UnsafeMutablePointer<AVPacket>? {
        while let segment = current {
            if let packet = try reader!.next() {
                do {
                    let (pts, dts) = try check!.check(packet)
                    packet.pointee.pts = Int64(segment.frames.lowerBound) + pts
                    packet.pointee.dts = Int64(segment.frames.lowerBound) + dts
                } catch {
                    freePacket(packet)
                    throw error
                }
                packet.pointee.duration = 1
                packet.pointee.pos = -1
                return packet
            }
            try check!.finish()
            end = segment.frames.upperBound
            reader = nil; check = nil; current = nil // closes the file (but the first's) before the next opens
            guard let path = rest.popFirst() else { break }
            let next = try SegmentInput(path: path, probing: false)
            try next.checkFollows(at: end, first: first)
            start(next)
        }
        return nil
    }

    /// After the last packet: the segments reached the movie's last frame.
    func finish() throws {
        guard end == first.total else {
            throw MediaError("the segments end at frame \(end) of \(first.total): the last one is missing")
        }
    }
}
