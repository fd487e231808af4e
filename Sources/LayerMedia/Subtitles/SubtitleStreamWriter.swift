import CFFmpeg
import CShims
import Foundation

/// Carries a source's subtitle streams into an output movie, for the exported range (shifted so that it starts
/// at 0): as they are where the container lists their codec (mov_text into MP4, anything text into Matroska),
/// else re-encoded from their text into the container's own subtitle codec (SubRip or ASS into MP4/MOV become
/// mov_text, into WebM WebVTT). Streams the container cannot hold at all are dropped with one warning line.
/// Subtitle tracks are small: their packets are read up front and written in time order alongside the video.
final class SubtitleStreamWriter {
    /// One packet ready for the muxer, in its output stream's time base after `prepare`.
    private var pending: [UnsafeMutablePointer<AVPacket>] = []
    private var next = 0
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let name: String
    /// Per output stream: the packets' times are kept in ms until the header fixed the stream's time base.
    private var streams: [UnsafeMutablePointer<AVStream>] = []
    private var encoders: [UnsafeMutablePointer<AVCodecContext>?] = []

    /// The most packets carried per source (beyond: the rest of the track is not written).
    static let maximumPackets = SubtitleTrack.maximumCues

    /// Adds the output streams (before the header is written); nil when the source has no subtitle stream to carry.
    /// `warn: false` keeps the line about dropped streams to itself (a question asked before the export that says it).
    init?(source: String, range: ClosedRange<Double>, into output: UnsafeMutablePointer<AVFormatContext>, name: String, warn: Bool = true) {
        self.output = output
        self.name = name
        // Not from a live connection: its packets are read by its one reader, not by a second pass like this one.
        guard let format = try? FFmpegFormat(path: source), format.live == nil, let muxer = output.pointee.oformat else { return nil }
        let container = OutputContainer(muxer)
        let subtitleStreams = format.streams.filter { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE }
        guard !subtitleStreams.isEmpty else { return nil }
        var origin = 0.0
        if let video = format.bestStream(AVMEDIA_TYPE_VIDEO) {
            origin = Double(format.startPTS(ofStream: video)) * av_q2d(format.streams[video].pointee.time_base)
        }
        var copied: [Int32: UnsafeMutablePointer<AVStream>] = [:]
        var transcoded: [Int: (stream: UnsafeMutablePointer<AVStream>, encoder: UnsafeMutablePointer<AVCodecContext>)] = [:]
        var dropped = 0
        var textOrder = 0 // index among the text subtitle streams, as `SubtitleReader.tracks(in:)` lists them
        for stream in subtitleStreams {
            guard let parameters = stream.pointee.codecpar else { continue }
            let isText = SubtitleReader.isText(parameters.pointee.codec_id)
            defer { if isText { textOrder += 1 } }
            // Only a container that names the codec as its own takes it as it is: a trial would pass in MPEG-TS,
            // which writes any codec it does not know as an opaque data stream no player shows.
            if avformat_query_codec(muxer, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL) == 1, container.takes(parameters),
               let out = avformat_new_stream(output, nil) {
                avcodec_parameters_copy(out.pointee.codecpar, parameters)
                out.pointee.codecpar.pointee.codec_tag = 0
                out.pointee.time_base = AVRational(num: 1, den: 1000)
                Self.copyLanguage(from: stream, to: out)
                copied[stream.pointee.index] = out
                streams.append(out)
            } else if isText, let encoder = Self.encoder(for: muxer), let out = avformat_new_stream(output, nil) {
                out.pointee.time_base = AVRational(num: 1, den: 1000)
                Self.copyLanguage(from: stream, to: out)
                transcoded[textOrder] = (out, encoder)
                encoders.append(encoder)
                streams.append(out)
            } else {
                dropped += 1
            }
        }
        if dropped > 0 && warn {
            StandardError.writeLine("layerplay: warning: \(container.name) cannot hold \(dropped == subtitleStreams.count ? "the" : "\(dropped) of the") subtitles of '\(source)'; '\(name)' is written without \(dropped == 1 ? "that stream" : "them")")
        }
        guard !streams.isEmpty else { return nil }
        let startMs = SubtitleTrack.millisecond(at: range.lowerBound)
        let endMs = range.upperBound.isFinite ? SubtitleTrack.millisecond(at: range.upperBound) : Int64.max / 4
        if !copied.isEmpty { readPackets(format, copied: copied, origin: origin, window: startMs..<endMs) }
        if !transcoded.isEmpty, let tracks = try? SubtitleReader.tracks(in: source) {
            for (order, target) in transcoded where order < tracks.count {
                encode(tracks[order], with: target.encoder, into: target.stream, window: startMs..<endMs)
            }
        }
        pending.sort { $0.pointee.pts < $1.pointee.pts }
    }

    deinit {
        for packet in pending { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
        for encoder in encoders { var e: UnsafeMutablePointer<AVCodecContext>? = encoder; avcodec_free_context(&e) }
    }

    private static func copyLanguage(from stream: UnsafeMutablePointer<AVStream>, to out: UnsafeMutablePointer<AVStream>) {
        if let language = av_dict_get(stream.pointee.metadata, "language", nil, 0) {
            av_dict_set(&out.pointee.metadata, "language", language.pointee.value, 0)
        }
    }

    /// The container's own subtitle encoder when it is a text one (mov_text for MP4/MOV, WebVTT for WebM, ASS for
    /// Matroska); nil for containers without one, or whose codec is pictures (DVB in MPEG-TS).
    private static func encoder(for muxer: UnsafePointer<AVOutputFormat>) -> UnsafeMutablePointer<AVCodecContext>? {
        // The MP4 family names no default, but takes mov_text (its 3GPP timed text).
        let movFamily = ["mp4", "mov", "ipod", "3gp", "3g2", "psp", "ismv"].contains(OutputContainer(muxer).name)
        let id = movFamily ? AV_CODEC_ID_MOV_TEXT : muxer.pointee.subtitle_codec
        guard id != AV_CODEC_ID_NONE, SubtitleReader.isText(id), let codec = avcodec_find_encoder(id),
              let context = avcodec_alloc_context3(codec) else { return nil }
        context.pointee.time_base = AVRational(num: 1, den: 1000)
        return context
    }

    /// An empty mov_text sample: what the MOV muxer writes by itself to end a cue that the next does not follow at
    /// once. Read from an MP4 and written again, it would be an ordinary sample to the output's muxer, which ends the
    /// cue again (a second, empty sample at each cue's end); left out, the output's cues end as its muxer ends them.
    static func isMovTextGap(_ packet: UnsafeMutablePointer<AVPacket>, codec: AVCodecID) -> Bool {
        codec == AV_CODEC_ID_MOV_TEXT && packet.pointee.size == 2 && packet.pointee.data[0] == 0 && packet.pointee.data[1] == 0
    }

    /// The source's packets of the copied streams that overlap the window, shifted to start at its beginning (without
    /// the source's empty mov_text samples: `isMovTextGap`).
    private func readPackets(_ format: FFmpegFormat, copied: [Int32: UnsafeMutablePointer<AVStream>], origin: Double, window: Range<Int64>) {
        guard let context = format.context else { return }
        for stream in format.streams where copied[stream.pointee.index] == nil { stream.pointee.discard = AVDISCARD_ALL }
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { return }
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard let out = copied[packet.pointee.stream_index], pending.count < Self.maximumPackets,
                  !Self.isMovTextGap(packet, codec: out.pointee.codecpar.pointee.codec_id) else { continue }
            let tb = format.streams[Int(packet.pointee.stream_index)].pointee.time_base
            let pts = packet.pointee.pts == lp_av_nopts_value() ? packet.pointee.dts : packet.pointee.pts
            guard pts != lp_av_nopts_value() else { continue }
            let start = SubtitleTrack.millisecond(at: Double(pts) * av_q2d(tb) - origin)
            let end = packet.pointee.duration > 0 ? SubtitleTrack.millisecond(at: Double(pts + packet.pointee.duration) * av_q2d(tb) - origin) : start
            guard end > window.lowerBound || (end == start && start >= window.lowerBound), start < window.upperBound,
                  let copy = av_packet_clone(packet) else { continue }
            let shownFrom = max(start, window.lowerBound)
            copy.pointee.pts = shownFrom - window.lowerBound
            copy.pointee.dts = copy.pointee.pts
            copy.pointee.duration = max(0, min(end, window.upperBound) - shownFrom)
            copy.pointee.stream_index = out.pointee.index
            copy.pointee.pos = -1
            pending.append(copy) // times in ms until `prepare`
        }
    }

    /// Each cue of `track` that overlaps the window, encoded by `encoder` (from its ASS event, as FFmpeg's text
    /// decoders give every cue) into packets of `stream`.
    private func encode(_ track: SubtitleTrack, with encoder: UnsafeMutablePointer<AVCodecContext>, into stream: UnsafeMutablePointer<AVStream>,
                        window: Range<Int64>) {
        // The encoder styles its output from the track's ASS header (mov_text writes it into the stream's extradata).
        var header = Array(track.assHeader.utf8)
        if let memory = av_mallocz(header.count + 1) {
            memory.copyMemory(from: &header, byteCount: header.count)
            encoder.pointee.subtitle_header = memory.assumingMemoryBound(to: UInt8.self)
            encoder.pointee.subtitle_header_size = Int32(header.count)
        }
        guard let codec = encoder.pointee.codec, avcodec_open2(encoder, codec, nil) >= 0 else { return }
        avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        let capacity = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        for cue in track.cues where cue.end > window.lowerBound && cue.start < window.upperBound && pending.count < Self.maximumPackets {
            let from = max(cue.start, window.lowerBound), to = min(cue.end, window.upperBound)
            let size = Self.encode(cue.assEvent, from: from - window.lowerBound, duration: to - from, with: encoder,
                                   into: buffer, capacity: capacity)
            guard size > 0, let packet = av_packet_alloc() else { continue }
            guard av_new_packet(packet, size) >= 0 else { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p); continue }
            packet.pointee.data.update(from: buffer, count: Int(size))
            packet.pointee.pts = from - window.lowerBound
            packet.pointee.dts = packet.pointee.pts
            packet.pointee.duration = to - from
            packet.pointee.stream_index = stream.pointee.index
            pending.append(packet)
        }
    }

    /// One cue as an `AVSubtitle` of one ASS rectangle, encoded into `buffer`; the encoded size, or ≤ 0.
    private static func encode(_ event: String, from start: Int64, duration: Int64, with encoder: UnsafeMutablePointer<AVCodecContext>,
                               into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int32 {
        var line = Array(event.utf8CString)
        return line.withUnsafeMutableBufferPointer { text in
            var rect = AVSubtitleRect()
            rect.type = SUBTITLE_ASS
            rect.ass = text.baseAddress
            return withUnsafeMutablePointer(to: &rect) { rectPointer in
                var rects: [UnsafeMutablePointer<AVSubtitleRect>?] = [rectPointer]
                return rects.withUnsafeMutableBufferPointer { list in
                    var subtitle = AVSubtitle()
                    subtitle.num_rects = 1
                    subtitle.rects = list.baseAddress
                    subtitle.pts = start * 1000 // AV_TIME_BASE units
                    subtitle.end_display_time = UInt32(clamping: duration)
                    return avcodec_encode_subtitle(encoder, buffer, Int32(capacity), &subtitle)
                }
            }
        }
    }

    /// Writes the packets that start before `seconds` of output time.
    func write(upTo seconds: Double) throws {
        let limit = seconds.isFinite ? SubtitleTrack.millisecond(at: seconds) : Int64.max
        let milliseconds = AVRational(num: 1, den: 1000)
        while next < pending.count, pending[next].pointee.pts < limit {
            let packet = pending[next]
            next += 1
            let stream = output.pointee.streams[Int(packet.pointee.stream_index)]!
            av_packet_rescale_ts(packet, milliseconds, stream.pointee.time_base)
            let written = av_interleaved_write_frame(output, packet) // takes the packet's data; the shell is freed in deinit
            guard written >= 0 else { throw MediaError.ffmpeg("cannot write the subtitles of '\(name)'", written) }
        }
    }

    /// Writes the rest.
    func finish() throws { try write(upTo: .infinity) }
}
