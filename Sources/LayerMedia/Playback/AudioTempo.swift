import CFFmpeg

/// Plays interleaved float samples faster or slower with their pitch kept: libavfilter's `atempo` (WSOLA), as mpv's
/// `scaletempo` and ffmpeg's `-af atempo` do. Chosen over librubberband because it is part of FFmpeg, which we link
/// anyway: no extra library to install, and its quality for speech and music at 0.25–4× is what players ship.
/// One `atempo` takes 0.5–2× without artefacts; 0.25× and 4× are two in a row.
///
/// Samples pushed in come out `tempo` times fewer (more when slower); the output of input sample `n` is near output
/// sample `n / tempo`, so time on the input is `output frames × tempo` from where the stream started.
public final class AudioTempo {
    /// Input seconds per output second.
    public let tempo: Double
    /// Samples a second, in and out.
    public let sampleRate: Int
    /// Interleaved channels, in and out.
    public let channels: Int
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let output: UnsafeMutablePointer<AVFrame>
    /// Output samples taken from the sink and not yet pulled.
    private var pending: [Float] = []
    private var pendingStart = 0

    /// The tempos `atempo` is chained for, each within 0.5–2 (its artefact-free range).
    static func stages(_ tempo: Double) -> [Double] {
        var rest = tempo, stages: [Double] = []
        while rest < 0.5 { stages.append(0.5); rest /= 0.5 }
        while rest > 2 { stages.append(2); rest /= 2 }
        return stages + [rest]
    }

    /// A filter for `channels` channels at `sampleRate` whose output lasts 1/`tempo` of its input.
    public init(tempo: Double, sampleRate: Int, channels: Int) throws {
        guard tempo.isFinite, tempo >= 0.0625, tempo <= 16 else { throw MediaError("a tempo of \(tempo) is out of range (0.0625–16)") }
        self.tempo = tempo; self.sampleRate = sampleRate; self.channels = channels
        guard let frame = av_frame_alloc() else { throw MediaError("out of memory making a tempo filter") }
        output = frame
        guard let graph = avfilter_graph_alloc() else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw MediaError("out of memory making a tempo filter") }
        self.graph = graph
        let layout = channels == 2 ? "stereo" : channels == 1 ? "mono" : "\(channels)c"
        func make(_ filter: String, _ name: String, _ args: String?) throws -> UnsafeMutablePointer<AVFilterContext> {
            var context: UnsafeMutablePointer<AVFilterContext>?
            let status = avfilter_graph_create_filter(&context, avfilter_get_by_name(filter), name, args, nil, graph)
            guard status >= 0, let context else { throw MediaError.ffmpeg("cannot make the audio filter \(filter)", status) }
            return context
        }
        do {
            let source = try make("abuffer", "in", "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layout):time_base=1/\(sampleRate)")
            var last = source
            for (i, stage) in Self.stages(tempo).enumerated() {
                let atempo = try make("atempo", "tempo\(i)", "tempo=\(stage)")
                guard avfilter_link(last, 0, atempo, 0) >= 0 else { throw MediaError("cannot link the tempo filters") }
                last = atempo
            }
            // Whatever atempo negotiates, the output is interleaved float in the input's layout.
            let format = try make("aformat", "format", "sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layout)")
            let sink = try make("abuffersink", "out", nil)
            guard avfilter_link(last, 0, format, 0) >= 0, avfilter_link(format, 0, sink, 0) >= 0 else {
                throw MediaError("cannot link the tempo filters")
            }
            let status = avfilter_graph_config(graph, nil)
            guard status >= 0 else { throw MediaError.ffmpeg("cannot configure the tempo filter", status) }
            self.source = source
            self.sink = sink
        } catch {
            var g: UnsafeMutablePointer<AVFilterGraph>? = graph
            avfilter_graph_free(&g)
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw error
        }
    }

    deinit {
        avfilter_graph_free(&graph)
        var f: UnsafeMutablePointer<AVFrame>? = output
        av_frame_free(&f)
    }

    /// Feeds `frames` interleaved frames.
    public func push(_ samples: UnsafePointer<Float>, frames: Int) throws {
        guard frames > 0 else { return }
        guard let frame = av_frame_alloc() else { throw MediaError("out of memory in the tempo filter") }
        defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
        frame.pointee.nb_samples = Int32(frames)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(channels))
        var status = av_frame_get_buffer(frame, 0)
        guard status >= 0, let data = frame.pointee.data.0 else { throw MediaError.ffmpeg("cannot hold samples for the tempo filter", status) }
        UnsafeMutableRawPointer(data).copyMemory(from: samples, byteCount: frames * channels * 4)
        status = av_buffersrc_add_frame(source, frame)
        guard status >= 0 else { throw MediaError.ffmpeg("the tempo filter refused samples", status) }
    }

    /// Ends the input: what the filter still holds comes out (an export's last samples).
    public func finish() throws {
        let status = av_buffersrc_add_frame(source, nil)
        guard status >= 0 else { throw MediaError.ffmpeg("the tempo filter refused the end of the samples", status) }
    }

    /// Output frames ready now (taken from the filter).
    public var available: Int {
        drain()
        return (pending.count - pendingStart) / channels
    }

    /// Moves up to `frames` output frames into `out`; how many it moved.
    public func pull(into out: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        drain()
        let count = min(frames, (pending.count - pendingStart) / channels)
        guard count > 0 else { return 0 }
        pending.withUnsafeBufferPointer { p in out.update(from: p.baseAddress! + pendingStart, count: count * channels) }
        pendingStart += count * channels
        if pendingStart > 1 << 16 { pending.removeFirst(pendingStart); pendingStart = 0 }
        return count
    }

    /// Takes every frame the sink has into `pending`.
    private func drain() {
        while av_buffersink_get_frame(sink, output) >= 0 {
            let n = Int(output.pointee.nb_samples) * channels
            if let data = output.pointee.data.0, n > 0 {
                data.withMemoryRebound(to: Float.self, capacity: n) { pending.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            }
            av_frame_unref(output)
        }
    }
}
