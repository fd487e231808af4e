import CFFmpeg
import CShims
import Foundation

/// Reads subtitle tracks up front with libavformat and `avcodec_decode_subtitle2`: a subtitle file (one track)
/// or every subtitle stream of a movie. Other streams are discarded unread where the container allows.
public enum SubtitleReader {
    /// The subtitle file extensions `--subtitles FILE` takes.
    public static let fileExtensions = ["srt", "ass", "ssa", "vtt"]

    /// The track of a subtitle file (`.srt .ass .ssa .vtt`).
    public static func track(file path: String) throws -> SubtitleTrack {
        let ext = (path as NSString).pathExtension.lowercased()
        guard fileExtensions.contains(ext) else {
            throw MediaError("cannot read subtitles from '\(path)': use a .srt, .ass, .ssa or .vtt file")
        }
        let format = try FFmpegFormat(path: path)
        let tracks = try read(format, relativeTo: 0)
        guard let first = tracks.first else { throw MediaError("cannot read subtitles from '\(path)': it has no text subtitle stream") }
        return first.track
    }

    /// Every text subtitle stream of a media file, in stream order, with its stream index; times measured from
    /// the start of the file's video (as the player's clock is), or of the file.
    public static func tracks(in path: String) throws -> [SubtitleTrack] {
        let format = try FFmpegFormat(path: path)
        // Subtitles are read whole before playing: a live connection has no whole, and its one reader is shared.
        if format.live != nil { return [] }
        guard format.streams.contains(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE }) else { return [] }
        var origin = 0.0
        if let video = format.bestStream(AVMEDIA_TYPE_VIDEO) {
            origin = Double(format.startPTS(ofStream: video)) * av_q2d(format.streams[video].pointee.time_base)
        }
        return try read(format, relativeTo: origin).map(\.track)
    }

    /// Whether a stream's codec is text (SubRip, ASS, WebVTT, mov_text…) rather than pictures (PGS, DVD).
    static func isText(_ codec: AVCodecID) -> Bool {
        guard let descriptor = avcodec_descriptor_get(codec) else { return false }
        return descriptor.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0
    }

    /// One decoder per text subtitle stream, fed in one pass over the file.
    private final class StreamDecoder {
        let index: Int32
        var context: UnsafeMutablePointer<AVCodecContext>?
        let kind: SubtitleTrack.Kind
        let codec: String
        let language: String?
        var cues: [SubtitleCue] = []
        var skipped = 0
        var bytes = 0

        init?(_ stream: UnsafeMutablePointer<AVStream>) {
            guard let parameters = stream.pointee.codecpar else { return nil }
            let id = parameters.pointee.codec_id
            guard parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE, SubtitleReader.isText(id),
                  let decoder = avcodec_find_decoder(id), let context = avcodec_alloc_context3(decoder) else { return nil }
            self.context = context
            guard avcodec_parameters_to_context(context, parameters) >= 0 else { avcodec_free_context(&self.context); return nil }
            context.pointee.pkt_timebase = stream.pointee.time_base
            guard avcodec_open2(context, decoder, nil) >= 0 else { avcodec_free_context(&self.context); return nil }
            index = stream.pointee.index
            kind = id == AV_CODEC_ID_ASS || id == AV_CODEC_ID_SSA ? .ass : .text
            codec = String(cString: avcodec_get_name(id))
            language = av_dict_get(stream.pointee.metadata, "language", nil, 0).map { String(cString: $0.pointee.value) }
        }

        deinit { avcodec_free_context(&context) }

        var header: String {
            guard let context, let h = context.pointee.subtitle_header, context.pointee.subtitle_header_size > 0 else { return "" }
            return String(decoding: UnsafeBufferPointer(start: h, count: Int(context.pointee.subtitle_header_size)), as: UTF8.self)
        }

        /// Decodes one packet into cues; a packet that fails, or whose cue has no time, is counted as skipped.
        func decode(_ packet: UnsafeMutablePointer<AVPacket>, origin: Double) {
            guard let context else { return }
            guard cues.count < SubtitleTrack.maximumCues, bytes < SubtitleTrack.maximumTextBytes else { skipped += 1; return }
            var subtitle = AVSubtitle()
            var got: Int32 = 0
            let status = avcodec_decode_subtitle2(context, &subtitle, &got, packet)
            guard status >= 0 else { skipped += 1; return }
            guard got != 0 else { return }
            defer { avsubtitle_free(&subtitle) }
            let tb = context.pointee.pkt_timebase
            let base: Double
            if subtitle.pts != lp_av_nopts_value() { base = Double(subtitle.pts) / Double(AV_TIME_BASE) }
            else if packet.pointee.pts != lp_av_nopts_value() { base = Double(packet.pointee.pts) * av_q2d(tb) }
            else { skipped += 1; return }
            // A cue that ends before it starts (SubRip's demuxer passes it on as a negative duration) is malformed.
            guard packet.pointee.duration >= 0, subtitle.end_display_time < 0x8000_0000 || subtitle.end_display_time == UInt32.max else {
                skipped += 1; return
            }
            var endOffset = Double(subtitle.end_display_time) / 1000
            if subtitle.end_display_time == 0 || subtitle.end_display_time == UInt32.max {
                endOffset = packet.pointee.duration > 0 ? Double(packet.pointee.duration) * av_q2d(tb) : .nan
            }
            let startSeconds = base + Double(subtitle.start_display_time) / 1000 - origin
            let start = SubtitleTrack.millisecond(at: startSeconds)
            let end = endOffset.isFinite ? SubtitleTrack.millisecond(at: base + endOffset - origin) : Int64.max / 4 // until the next cue
            for i in 0..<Int(subtitle.num_rects) {
                guard let rect = subtitle.rects[i], let line = rect.pointee.ass else { continue }
                let event = String(cString: line)
                guard start >= -86_400_000, end > start else { skipped += 1; continue }
                bytes += event.utf8.count
                var text = SubtitleTrack.plainText(ofEvent: event)
                if kind == .text, let kept = SubtitleTrack.withoutSwallowedCue(text) { text = kept; skipped += 1 }
                // Styled runs where they spell the same text (a cut malformed cue keeps its text, plain).
                let spans = SubtitleTrack.spans(ofEvent: event)
                cues.append(SubtitleCue(start: start, end: end, text: text, assEvent: event,
                                        spans: spans.map(\.text).joined() == text ? spans : nil))
            }
        }

        /// A cue whose end was unknown lasts until the next one starts (or 5 s).
        func finish() -> [SubtitleCue] {
            var sorted = cues.sorted { $0.start < $1.start }
            var nextStart = Int64.max // the start of the next cue that starts later, walking back
            var i = sorted.count - 1
            while i >= 0 {
                var j = i // cues starting together all end at the next later start
                while j > 0 && sorted[j - 1].start == sorted[i].start { j -= 1 }
                for k in j...i where sorted[k].end == Int64.max / 4 { sorted[k].end = Swift.min(nextStart, sorted[k].start + 5000) }
                nextStart = sorted[i].start
                i = j - 1
            }
            return sorted
        }
    }

    private static func read(_ format: FFmpegFormat, relativeTo origin: Double) throws -> [(index: Int, track: SubtitleTrack)] {
        guard let context = format.context else { return [] }
        var decoders: [Int32: StreamDecoder] = [:]
        var order: [Int32] = []
        for stream in format.streams {
            if let decoder = StreamDecoder(stream) {
                decoders[stream.pointee.index] = decoder
                order.append(stream.pointee.index)
            } else {
                stream.pointee.discard = AVDISCARD_ALL // video and audio are not read here
            }
        }
        guard !decoders.isEmpty else { return [] }
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw MediaError("out of memory") }
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            decoders[packet.pointee.stream_index]?.decode(packet, origin: origin)
        }
        return order.compactMap { index in
            guard let d = decoders[index] else { return nil }
            return (Int(index), SubtitleTrack(kind: d.kind, codec: d.codec, language: d.language, assHeader: d.header,
                                              cues: d.finish(), skippedCues: d.skipped))
        }
    }
}
