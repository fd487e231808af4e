import CFFmpeg
import CShims

/// The audio of an export: packets copied when the container takes the source's codec (`AudioCopier`),
/// else decoded, resampled and re-encoded (`AudioTranscoder`).
protocol AudioTrackWriter: AnyObject {
    /// Writes the audio whose output time is before `seconds` (output time 0 = the range's start).
    func copy(upTo seconds: Double) throws
    /// Writes what is left (and drains an encoder).
    func finish() throws
}

extension AudioCopier: AudioTrackWriter {
    func finish() throws { try copy(upTo: .infinity) }
}

/// Decodes a source's audio over a time range and re-encodes it for a container that cannot take the
/// original codec: AAC for MP4/MOV and most others, Opus (48 kHz) for WebM and Ogg, else the container's own
/// audio codec (MP2 for MPEG program streams). Sample-accurate trimming;
/// the last encoder frame is padded with silence (less than one audio frame). Also what writes an `AudioSpan`
/// that starts with silence or wraps at a loop length (copied packets cannot).
final class AudioTranscoder: AudioTrackWriter {
    private let source: DecodedStream
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let outStream: UnsafeMutablePointer<AVStream>
    private let output: UnsafeMutablePointer<AVFormatContext>
    private var swr: OpaquePointer?
    private var fifo: OpaquePointer?
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    /// Source seconds from which the next samples are taken (the span's start, 0 after a wrap); nil once taken.
    private var trimFrom: Double?
    /// Output samples the range holds.
    private let totalSamples: Int64
    /// Silence still to queue before the source starts (a span from before the source's 0).
    private var leadLeft: Int64 = 0
    /// A looping span: samples per loop, and those left in the current one (counted, so the sound never drifts
    /// from the picture that wraps at the same length).
    private let loopSamples: Int64?
    private var cycleLeft: Int64 = .max
    private var samplesQueued: Int64 = 0
    private var samplesEncoded: Int64 = 0
    private var sourceDone = false
    private let name: String
    /// An export at another speed (`AudioSpan.tempo`): the queued sound (interleaved float, on the source's time)
    /// goes through `AudioTempo`, then `stretchedSwr` turns it into the encoder's format in `stretchedFifo`.
    private var tempo: AudioTempo?
    private var stretchedSwr: OpaquePointer?
    private var stretchedFifo: OpaquePointer?
    /// Samples the movie holds when stretched (`totalSamples` counts the source's), and those queued so far.
    private var stretchedTotal: Int64 = 0
    private var stretchedQueued: Int64 = 0
    /// The sample format queued in `fifo`: the encoder's, or interleaved float before the tempo filter.
    private let queueFormat: AVSampleFormat

    /// - Parameters:
    ///   - codecName: the audio encoder to use (`--audio-codec`), else the container's choice as above.
    ///   - bitRate: the encoder's bitrate in bits a second (`--audio-bitrate`), else 64 kb/s a channel.
    init(source: String, span: AudioSpan, into output: UnsafeMutablePointer<AVFormatContext>, name: String,
         codecName: String? = nil, bitRate: Int64? = nil) throws {
        self.source = try DecodedStream(path: source, type: AVMEDIA_TYPE_AUDIO, missing: "audio")
        self.output = output
        self.name = name
        guard let dec = self.source.decoder.context else { throw MediaError("cannot decode the audio of '\(source)'") }
        let container = OutputContainer(output.pointee.oformat)
        var candidates: [AVCodecID] = container.name == "webm" || container.name == "ogg" ? [AV_CODEC_ID_OPUS] : [AV_CODEC_ID_AAC]
        if container.format.pointee.audio_codec != AV_CODEC_ID_NONE { candidates.append(container.format.pointee.audio_codec) }
        var named: UnsafePointer<AVCodec>? = nil
        if let codecName {
            guard let codec = avcodec_find_encoder_by_name(codecName), codec.pointee.type == AVMEDIA_TYPE_AUDIO else {
                throw MediaError("no audio encoder named '\(codecName)' (--audio-codec: aac, libopus, flac, pcm_s16le, pcm_s24le, copy…)")
            }
            named = codec
            candidates = [codec.pointee.id]
        }
        var refusal: String? = nil
        for id in candidates {
            guard let codec = named ?? (id == AV_CODEC_ID_OPUS ? avcodec_find_encoder_by_name("libopus") ?? avcodec_find_encoder(id) : avcodec_find_encoder(id)) else { continue }
            do {
                let enc = try Self.openEncoder(codec, like: dec, for: output, name: name, bitRate: bitRate)
                if named != nil && !Self.container(container, takes: enc) {
                    var failed: UnsafeMutablePointer<AVCodecContext>? = enc
                    avcodec_free_context(&failed)
                    throw MediaError("cannot write '\(name)': \(container.name) does not take \(String(cString: avcodec_get_name(id))) audio")
                }
                if Self.container(container, takes: enc) { encoder = enc; break }
                var failed: UnsafeMutablePointer<AVCodecContext>? = enc
                avcodec_free_context(&failed)
            } catch { refusal = "\(error)" }
        }
        guard let enc = encoder else {
            let names = Set(candidates).map { String(cString: avcodec_get_name($0)) }.sorted().joined(separator: " nor ")
            throw MediaError(refusal ?? "cannot write audio into '\(name)': \(container.name) takes neither the source's "
                             + "\(String(cString: avcodec_get_name(dec.pointee.codec_id))) nor \(names); use --no-audio")
        }
        let channels = enc.pointee.ch_layout.nb_channels
        guard let st = avformat_new_stream(output, nil) else { throw MediaError("out of memory") }
        avcodec_parameters_from_context(st.pointee.codecpar, enc)
        st.pointee.time_base = enc.pointee.time_base
        outStream = st

        queueFormat = span.tempo == 1 ? enc.pointee.sample_fmt : AV_SAMPLE_FMT_FLT
        let status = swr_alloc_set_opts2(&swr, &enc.pointee.ch_layout, queueFormat, enc.pointee.sample_rate,
                                     &dec.pointee.ch_layout, dec.pointee.sample_fmt, dec.pointee.sample_rate, 0, nil)
        guard status >= 0, swr_init(swr) >= 0 else { throw MediaError("cannot resample the audio of '\(source)'") }
        fifo = av_audio_fifo_alloc(queueFormat, channels, 4096)
        let perSecond = AVRational(num: 1, den: enc.pointee.sample_rate)
        totalSamples = span.duration.isFinite ? Int64(ticks: span.duration * span.tempo, timeBase: perSecond) : Int64.max
        if span.tempo != 1 {
            tempo = try AudioTempo(tempo: span.tempo, sampleRate: Int(enc.pointee.sample_rate), channels: Int(channels))
            let made = swr_alloc_set_opts2(&stretchedSwr, &enc.pointee.ch_layout, enc.pointee.sample_fmt, enc.pointee.sample_rate,
                                           &enc.pointee.ch_layout, AV_SAMPLE_FMT_FLT, enc.pointee.sample_rate, 0, nil)
            guard made >= 0, swr_init(stretchedSwr) >= 0 else { throw MediaError("cannot convert the stretched audio of '\(source)'") }
            stretchedFifo = av_audio_fifo_alloc(enc.pointee.sample_fmt, channels, 4096)
            stretchedTotal = span.duration.isFinite ? Int64(ticks: span.duration, timeBase: perSecond) : Int64.max
        }
        leadLeft = span.from < 0 ? min(totalSamples, Int64(ticks: -span.from, timeBase: perSecond)) : 0
        loopSamples = span.loopLength.map { max(1, Int64(ticks: $0, timeBase: perSecond)) }
        var start = max(0, span.from)
        if let l = span.loopLength, let loopSamples {
            start = start.truncatingRemainder(dividingBy: l)
            cycleLeft = leadLeft > 0 ? loopSamples : max(0, min(loopSamples, Int64(ticks: l - start, timeBase: perSecond)))
        }
        trimFrom = start
        if start > 0 { self.source.seek(to: start) }
    }

    /// An encoder of `codec` opened for audio like `source`'s (at most stereo, its rate where the codec takes it).
    private static func openEncoder(_ codec: UnsafePointer<AVCodec>, like source: UnsafeMutablePointer<AVCodecContext>,
                                    for output: UnsafeMutablePointer<AVFormatContext>, name: String,
                                    bitRate: Int64?) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let enc = avcodec_alloc_context3(codec) else { throw MediaError("out of memory") }
        let channels = min(Int32(2), max(1, source.pointee.ch_layout.nb_channels))
        av_channel_layout_default(&enc.pointee.ch_layout, channels)
        enc.pointee.sample_rate = sampleRate(codec, preferring: codec.pointee.id == AV_CODEC_ID_OPUS ? 48000 : source.pointee.sample_rate)
        enc.pointee.sample_fmt = codec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        enc.pointee.bit_rate = bitRate ?? 64_000 * Int64(channels)
        enc.pointee.time_base = AVRational(num: 1, den: enc.pointee.sample_rate)
        if output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = FFmpegLogging.reason { avcodec_open2(enc, codec, nil) }
        guard opened.status >= 0 else {
            var failed: UnsafeMutablePointer<AVCodecContext>? = enc
            avcodec_free_context(&failed)
            throw MediaError.ffmpeg("cannot open the audio encoder \(String(cString: codec.pointee.name)) for '\(name)'", opened)
        }
        return enc
    }

    /// `preferred` when the codec takes it (or lists no rates), else the rate it takes nearest above, else its highest.
    private static func sampleRate(_ codec: UnsafePointer<AVCodec>, preferring preferred: Int32) -> Int32 {
        let wanted = preferred > 0 ? preferred : 48000
        guard var p = codec.pointee.supported_samplerates else { return wanted }
        var rates: [Int32] = []
        while p.pointee != 0 { rates.append(p.pointee); p += 1 }
        if rates.isEmpty || rates.contains(wanted) { return wanted }
        return rates.filter { $0 > wanted }.min() ?? rates.max()!
    }

    /// Whether the container takes what the opened encoder makes.
    private static func container(_ container: OutputContainer, takes enc: UnsafeMutablePointer<AVCodecContext>) -> Bool {
        var allocated = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&allocated) }
        guard let parameters = allocated else { return false }
        guard avcodec_parameters_from_context(parameters, enc) >= 0 else { return false }
        return container.takes(parameters)
    }

    deinit {
        avcodec_free_context(&encoder)
        swr_free(&swr)
        if let fifo { av_audio_fifo_free(fifo) }
        swr_free(&stretchedSwr)
        if let stretchedFifo { av_audio_fifo_free(stretchedFifo) }
        av_packet_free(&packet)
    }

    private var outputRate: Double { Double(encoder!.pointee.sample_rate) }

    func copy(upTo seconds: Double) throws {
        while !sourceDone && Double(samplesEncoded) / outputRate < seconds {
            try pullSource()
            try encodeFullFrames(final: false)
        }
    }

    func finish() throws {
        while !sourceDone { try pullSource() }
        try encodeFullFrames(final: true)
        avcodec_send_frame(encoder, nil)
        try drainPackets()
    }

    /// Decodes one source frame, resamples it, trims it to the range and queues it (or queues silence before the
    /// source starts, and wraps it at its loop length).
    private func pullSource() throws {
        guard samplesQueued < totalSamples else { sourceDone = true; return }
        if leadLeft > 0 { leadLeft -= try queueSilence(leadLeft); return }
        if cycleLeft == 0, let loopSamples {
            source.seek(to: 0)
            trimFrom = 0
            cycleLeft = loopSamples
        }
        guard var frame = try source.nextFrame() else {
            // A looping source that ends before its loop length (sound shorter than picture): silence to the wrap.
            if loopSamples != nil, cycleLeft > 0 { cycleLeft -= try queueSilence(cycleLeft); return }
            sourceDone = true
            return
        }
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&framePointer) }
        let frameTime = source.seconds(of: frame)
        guard let enc = encoder, let converted = av_frame_alloc() else { throw MediaError("out of memory") }
        var convertedPointer: UnsafeMutablePointer<AVFrame>? = converted
        defer { av_frame_free(&convertedPointer) }
        av_channel_layout_copy(&converted.pointee.ch_layout, &enc.pointee.ch_layout)
        converted.pointee.sample_rate = enc.pointee.sample_rate
        converted.pointee.format = queueFormat.rawValue
        let status = swr_convert_frame(swr, converted, frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot resample the audio for '\(name)'", status) }
        frame = converted
        var first = 0
        if let from = trimFrom {
            let perSecond = AVRational(num: 1, den: encoder!.pointee.sample_rate)
            first = max(0, Int(Int64(ticks: from - frameTime, timeBase: perSecond)))
            // Sound that starts later than the span (later than the picture): silence until it does.
            var gap = min(Int64(ticks: frameTime - from, timeBase: perSecond), cycleLeft)
            while gap > 0 {
                let n = try queueSilence(gap)
                guard n > 0 else { break }
                gap -= n
                if loopSamples != nil { cycleLeft -= n }
            }
        }
        let available = Int(converted.pointee.nb_samples) - first
        guard available > 0 else { return }
        trimFrom = nil
        let keep = Int(min(Int64(available), totalSamples - samplesQueued, cycleLeft))
        if loopSamples != nil { cycleLeft -= Int64(keep) }
        try withSamplePointers(converted, offset: first) { planes in
            _ = av_audio_fifo_write(fifo, planes, Int32(keep))
        }
        samplesQueued += Int64(keep)
        if samplesQueued >= totalSamples { sourceDone = true }
    }

    /// Queues up to `most` samples of silence (at most 4096 at a time, never past the range); returns how many.
    private func queueSilence(_ most: Int64) throws -> Int64 {
        guard let enc = encoder else { return 0 }
        let n = Int32(min(most, 4096, totalSamples - samplesQueued))
        guard n > 0 else { return 0 }
        let channels = enc.pointee.ch_layout.nb_channels
        var allocated: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        guard av_samples_alloc_array_and_samples(&allocated, nil, channels, n, queueFormat, 0) >= 0, let planes = allocated else {
            throw MediaError("out of memory")
        }
        defer {
            av_freep(planes)  // the samples: the first plane pointer owns them all
            av_freep(&allocated)  // the array of plane pointers
        }
        av_samples_set_silence(planes, 0, n, channels, queueFormat)
        let count = av_sample_fmt_is_planar(queueFormat) != 0 ? Int(channels) : 1
        let written = planes.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: count) { av_audio_fifo_write(fifo, $0, n) }
        guard written == n else { throw MediaError("out of memory") }
        samplesQueued += Int64(n)
        if samplesQueued >= totalSamples { sourceDone = true }
        return Int64(n)
    }

    /// Plane pointers of a frame advanced by `offset` samples, for the FIFO.
    private func withSamplePointers(_ f: UnsafeMutablePointer<AVFrame>, offset: Int, _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>) throws -> Void) throws {
        let format = AVSampleFormat(rawValue: f.pointee.format)
        let bytes = Int(av_get_bytes_per_sample(format))
        let planar = av_sample_fmt_is_planar(format) != 0
        let channels = Int(f.pointee.ch_layout.nb_channels)
        let step = planar ? bytes : bytes * channels
        var planes = [UnsafeMutableRawPointer?](repeating: nil, count: 8)
        let d = f.pointee.data
        let bases = [d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7]
        for i in 0..<(planar ? min(channels, 8) : 1) { planes[i] = bases[i].map { UnsafeMutableRawPointer($0 + offset * step) } }
        try planes.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }

    /// Encodes FIFO contents in encoder-sized frames; with `final`, pads the last one with silence.
    private func encodeFullFrames(final: Bool) throws {
        guard let enc = encoder else { return }
        if tempo != nil { try stretch(final: final) }
        let fifo = stretchedFifo ?? fifo
        let fixed = enc.pointee.frame_size > 0
        let size = fixed ? enc.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= size || (final && av_audio_fifo_size(fifo) > 0) {
            guard let frame = av_frame_alloc() else { throw MediaError("out of memory") }
            var framePointer: UnsafeMutablePointer<AVFrame>? = frame
            defer { av_frame_free(&framePointer) }
            // An encoder without a frame size (PCM) takes a short last frame: the sound ends with the range, not
            // up to 1023 samples of padding later (a render farm's PCM stems are laid end to end).
            let count = fixed ? size : min(size, av_audio_fifo_size(fifo))
            frame.pointee.nb_samples = count
            av_channel_layout_copy(&frame.pointee.ch_layout, &enc.pointee.ch_layout)
            frame.pointee.format = enc.pointee.sample_fmt.rawValue
            frame.pointee.sample_rate = enc.pointee.sample_rate
            guard av_frame_get_buffer(frame, 0) >= 0 else { throw MediaError("out of memory") }
            av_samples_set_silence(withUnsafeMutablePointer(to: &frame.pointee.data) {
                $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
            }, 0, count, frame.pointee.ch_layout.nb_channels, enc.pointee.sample_fmt)
            try withSamplePointers(frame, offset: 0) { planes in _ = av_audio_fifo_read(fifo, planes, count) }
            frame.pointee.pts = samplesEncoded
            samplesEncoded += Int64(count)
            let status = avcodec_send_frame(enc, frame)
            guard status >= 0 else { throw MediaError.ffmpeg("cannot encode the audio of '\(name)'", status) }
            try drainPackets()
        }
    }

    /// Moves the queued sound through the tempo filter into `stretchedFifo` in the encoder's format, never past
    /// `stretchedTotal`; with `final`, ends the filter's input and fills the rest of the movie's length with silence
    /// (`atempo` may give a few samples fewer than the exact ratio).
    private func stretch(final: Bool) throws {
        guard let tempo, let enc = encoder else { return }
        let channels = Int(enc.pointee.ch_layout.nb_channels)
        let queued = Int(av_audio_fifo_size(fifo))
        if queued > 0 {
            var samples = [Float](repeating: 0, count: queued * channels)
            samples.withUnsafeMutableBytes { raw in
                var plane: UnsafeMutableRawPointer? = raw.baseAddress
                _ = av_audio_fifo_read(fifo, &plane, Int32(queued))
            }
            try samples.withUnsafeBufferPointer { try tempo.push($0.baseAddress!, frames: queued) }
        }
        if final { try tempo.finish() }
        var out = [Float](repeating: 0, count: 4096 * channels)
        while stretchedQueued < stretchedTotal {
            let n = out.withUnsafeMutableBufferPointer { tempo.pull(into: $0.baseAddress!, frames: 4096) }
            guard n > 0 else { break }
            try queueStretched(out, frames: Int(min(Int64(n), stretchedTotal - stretchedQueued)))
        }
        if final {
            let silence = [Float](repeating: 0, count: 4096 * channels)
            while stretchedQueued < stretchedTotal {
                try queueStretched(silence, frames: Int(min(4096, stretchedTotal - stretchedQueued)))
            }
        }
    }

    /// Converts `frames` interleaved float frames to the encoder's format into `stretchedFifo`.
    private func queueStretched(_ samples: [Float], frames: Int) throws {
        guard let enc = encoder, frames > 0 else { return }
        let channels = enc.pointee.ch_layout.nb_channels
        var allocated: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        guard av_samples_alloc_array_and_samples(&allocated, nil, channels, Int32(frames), enc.pointee.sample_fmt, 0) >= 0,
              let planes = allocated else { throw MediaError("out of memory") }
        defer {
            av_freep(planes)
            av_freep(&allocated)
        }
        let converted = samples.withUnsafeBytes { raw -> Int32 in
            var input: UnsafePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return swr_convert(stretchedSwr, planes, Int32(frames), &input, Int32(frames))
        }
        guard converted >= 0 else { throw MediaError.ffmpeg("cannot convert the stretched audio of '\(name)'", converted) }
        let count = av_sample_fmt_is_planar(enc.pointee.sample_fmt) != 0 ? Int(channels) : 1
        _ = planes.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: count) { av_audio_fifo_write(stretchedFifo, $0, converted) }
        stretchedQueued += Int64(converted)
    }

    private func drainPackets() throws {
        guard let enc = encoder, let packet else { return }
        while true {
            let status = avcodec_receive_packet(enc, packet)
            if status == lp_averror_eagain() || status == lp_averror_eof() { return }
            guard status >= 0 else { throw MediaError.ffmpeg("cannot encode the audio of '\(name)'", status) }
            av_packet_rescale_ts(packet, enc.pointee.time_base, outStream.pointee.time_base)
            packet.pointee.stream_index = outStream.pointee.index
            let written = av_interleaved_write_frame(output, packet)
            guard written >= 0 else { throw MediaError.ffmpeg("cannot write the audio of '\(name)'", written) }
        }
    }
}
