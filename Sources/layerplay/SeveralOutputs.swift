import Foundation
import LayerGraphics
import LayerMedia

/// `-o` given more than once (CLI.md "Several outputs"): one render of the range, encoded into each output with the
/// run's flags, overridden for one output by `--output-opt N:KEY=VALUE`.
extension Layerplay {
    /// Whether `path` is a single picture (a still among several outputs takes one frame of the export).
    static func isStill(_ path: String, format: String?) -> Bool {
        format == nil && ((path.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(path)) || MovieWriter.isJPEGStill(path))
    }

    /// The flags that cannot go with several outputs, and outputs that contradict each other, each refused with
    /// one line before anything is opened or written.
    func checkSeveralOutputs() throws {
        try outputSettings.check(outputCount: outputs.count)
        guard outputs.count > 1 else { return }
        if streams.format != nil {
            throw RunError("--format with several outputs: give each output's container with --output-opt N:format=NAME")
        }
        if encoding.twoPass || encoding.pass != nil { throw RunError("two passes encode one output; with several -o leave out --two-pass and --pass") }
        if segmenting.isActive { throw RunError("segments (--frames, --segments, --audio-only, --plan) are of one output; with several -o leave them out") }
        var seen: [String: String] = [:]
        for output in outputs {
            if MovieWriter.isImageSequence(output) {
                throw RunError("'\(output)' is a picture sequence: with several outputs, write a movie, a stream or a single .png/.jpg")
            }
            // Two names of one file (or both stdout) would have two writers on one target.
            let key: String
            switch InputLocation(output) {
            case .pipe(let fd): key = "pipe:\(fd == 0 ? 1 : fd)"  // - is stdout
            case .url(let url, _): key = url
            case .file(let path): key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            }
            if let earlier = seen[key] { throw RunError("'\(earlier)' and '\(output)' are the same output; each -o needs its own") }
            seen[key] = output
        }
        for (index, output) in outputs.enumerated() where Self.isStill(output, format: nil) {
            if let s = outputSettings.of(index).first(where: { $0.key != "size" }) {
                throw RunError("--output-opt \(s.text): '\(output)' is a still; it is encoded as a picture and takes only a size")
            }
        }
    }

    /// The run's outputs as the library's, each with the flags and its own overrides, checked like one output's.
    func exportOutputs(rate: (num: Int32, den: Int32), frames: Int, begin: Double, inputIsLive: Bool) throws -> [ExportOutput] {
        let stillFrame = max(0, min(frames - 1, Int((((at?.seconds ?? begin) - begin) * Double(rate.num) / Double(rate.den)).rounded())))
        return try outputs.enumerated().map { index, path in
            let own = outputSettings.of(index)
            let format = own.last { $0.key == "format" }?.value
            let target: OutputTarget
            do { target = try OutputTarget(path, format: format, timeout: streams.timeout) } catch { throw RunError("\(error)") }
            if target.kind != .stream { try checkOutput(path, format: format) }
            let size = try own.last(where: { $0.key == "size" }).map { s -> (width: Int, height: Int) in
                guard let size = PixelSize(argument: try s.requiredValue()) else {
                    throw RunError("--output-opt \(s.text): size takes WxH (1…16384 each), such as 1280x720")
                }
                return (size.width, size.height)
            }
            if Self.isStill(path, format: format) {
                // As `ffmpeg … -frames:v 1 thumb.png`: the first frame of the range, or the one at --at.
                var output = ExportOutput(path: path, settings: EncoderSettings(codec: nil, crf: 0, preset: "", frameRate: rate))
                output.settings.control.transparentCanvas = !background.isOpaque
                output.carriesAudio = false; output.carriesSubtitles = false
                output.stillFrame = stillFrame
                output.size = size
                return output
            }
            var output = ExportOutput(path: path, settings: try settings(of: index, rate: rate), target: target)
            output.size = size
            // --hls-time is of the segmented outputs among them; N:hls-time of output N, which must be one.
            if let own = own.last(where: { $0.key == "hls-time" }) {
                guard target.kind == .segmented else {
                    throw RunError("--output-opt \(own.text): hls-time sets the segment length of an HLS (.m3u8) or DASH (.mpd) output, not of '\(path)'")
                }
                output.target?.segmentSeconds = try segmentSeconds(own)
            } else if target.kind == .segmented, let seconds = streams.hlsTime {
                output.target?.segmentSeconds = seconds
            }
            output.carriesAudio = !noAudio && !own.contains { $0.key == "no-audio" }
            output.carriesSubtitles = subtitles == nil && !noSubtitles
            return output
        }
    }

    private func segmentSeconds(_ s: OutputSetting) throws -> Double {
        guard let seconds = Double(try s.requiredValue()), seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
            throw RunError("--output-opt \(s.text): hls-time must be between 0.1 and 3600 seconds")
        }
        return seconds
    }

    /// The encoder settings of output `index`: the run's flags, then its `--output-opt`s in order.
    private func settings(of index: Int, rate: (num: Int32, den: Int32)) throws -> EncoderSettings {
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: input, transparentCanvas: !background.isOpaque)
        for s in outputSettings.of(index) {
            func bitrate() throws -> Int64 {
                guard let bits = EncoderControl.parseBitrate(try s.requiredValue()) else {
                    throw RunError("--output-opt \(s.text): \(s.key) takes a rate such as 2500k or 4M")
                }
                return bits
            }
            switch s.key {
            case "codec": settings.codec = try s.requiredValue()
            case "crf":
                guard let crf = Int(try s.requiredValue()), (0...63).contains(crf) else { throw RunError("--output-opt \(s.text): crf must be between 0 and 63") }
                settings.crf = crf
            case "preset": settings.preset = try s.requiredValue()
            case "bitrate": settings.control.bitrate = try bitrate()
            case "maxrate": settings.control.maxrate = try bitrate()
            case "bufsize": settings.control.bufsize = try bitrate()
            case "audio-bitrate": settings.control.audioBitrate = try bitrate()
            case "gop":
                guard let gop = Int(try s.requiredValue()), (1...100_000).contains(gop) else { throw RunError("--output-opt \(s.text): gop must be between 1 and 100000") }
                settings.control.gop = gop
            case "pix-fmt": settings.control.pixelFormat = try s.requiredValue()
            case "audio-codec": settings.control.audioCodec = try s.requiredValue()
            case "encoder-opt":
                // The value is the encoder's own KEY=VALUE: 1:encoder-opt=tune=film.
                guard let option = EncoderControl.parseOption(try s.requiredValue()) else {
                    throw RunError("--output-opt \(s.text): encoder-opt takes the encoder's KEY=VALUE (1:encoder-opt=tune=film)")
                }
                settings.control.options.append(option)
            default: break  // size, format, hls-time, no-audio: the output's, not its encoder's
            }
        }
        return settings
    }

    /// Exports the range once into every `-o` (CLI.md "Several outputs").
    func exportSeveral(_ card: CardTree, asset: MediaAsset, canvas: PixelSize) throws {
        let (begin, rate, frames) = try exportRange(asset, naming: outputs[0])
        let list = try exportOutputs(rate: rate, frames: frames, begin: begin, inputIsLive: asset.isLive)
        if streams.hlsTime != nil && !list.contains(where: { $0.target?.kind == .segmented }) {
            throw RunError("--hls-time sets the segment length of an HLS (.m3u8) or DASH (.mpd) output; none of the outputs is one")
        }
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: input, transparentCanvas: !background.isOpaque)
        let exporter = Exporter(root: card.host, width: canvas.width, height: canvas.height, settings: settings, start: begin,
                                frameCount: frames, audioSource: noAudio || asset.audio == nil ? nil : input)
        exporter.inputEnded = liveEnd(card, asset)
        if subtitles == nil && !noSubtitles { exporter.subtitleSource = input }
        // One clock for the run: paced when any output asks for it (a network stream of a file input, as ffmpeg -re).
        exporter.realtime = list.contains { $0.target.map { streams.paces($0, inputIsLive: asset.isLive) } ?? false }
        try reportingProgress(frameRate: rate) { try exporter.export(to: list, replacing: overwrite, progress: $0) }
    }
}
