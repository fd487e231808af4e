import ArgumentParser
import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import LayerScene

/// The flags of a command that exports to several `-o` (the media command and scene runs).
protocol SeveralOutputsRun {
    var outputs: [String] { get }
    var outputSettings: OutputSettingOptions { get }
    var codec: String? { get }
    var crf: Int { get }
    var preset: String { get }
    var noAudio: Bool { get }
    var at: TimeSpec? { get }
    var overwrite: Bool { get }
    var encoding: EncoderOptions { get }
    var streams: StreamOptions { get }
    var segmenting: SegmentFlags { get }
    /// Refuses a file output that is an input, that exists without -y, or that cannot be written, in one line.
    func checkOutput(_ path: String, format: String?) throws
}

/// Whether `path` is a single picture (a still among several outputs takes one frame of the export).
func isStillOutput(_ path: String, format: String?) -> Bool {
    format == nil && ((path.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(path)) || MovieWriter.isJPEGStill(path))
}

/// `-o` given more than once (CLI.md "Several outputs"): one render of the range, encoded into each output with the
/// run's flags, overridden for one output by `--output-opt N:KEY=VALUE`.
extension SeveralOutputsRun {
    /// With one output (or none) `--output-opt` would do nothing: a usage error naming the flag to use.
    func checkOutputSettingsHaveOutputs() throws {
        if let s = outputSettings.settings.first, outputs.count < 2 {
            throw ValidationError("--output-opt \(s.text) sets one of several outputs (-o given more than once); with \(outputs.isEmpty ? "no -o" : "one -o") use the flag itself (--\(s.key))")
        }
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
        for (index, output) in outputs.enumerated() where isStillOutput(output, format: nil) {
            if let s = outputSettings.of(index).first(where: { $0.key != "size" }) {
                throw RunError("--output-opt \(s.text): '\(output)' is a still; it is encoded as a picture and takes only a size")
            }
        }
    }

    /// The run's outputs as the library's, each with the flags and its own overrides, checked like one output's.
    /// `transparentCanvas`: the canvas has alpha (kept where the encoder can); `metadataSource`: the file whose
    /// metadata and chapters are copied; `carriesSubtitles`: the input's subtitle streams go where they can.
    func exportOutputs(rate: (num: Int32, den: Int32), frames: Int, begin: Double, transparentCanvas: Bool,
                       metadataSource: String?, carriesSubtitles: Bool) throws -> [ExportOutput] {
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
            if isStillOutput(path, format: format) {
                // As `ffmpeg … -frames:v 1 thumb.png`: the first frame of the range, or the one at --at.
                var output = ExportOutput(path: path, settings: EncoderSettings(codec: nil, crf: 0, preset: "", frameRate: rate))
                output.settings.control.transparentCanvas = transparentCanvas
                output.carriesAudio = false; output.carriesSubtitles = false
                output.stillFrame = stillFrame
                output.size = size
                return output
            }
            var output = ExportOutput(path: path, settings: try settings(of: index, rate: rate, transparentCanvas: transparentCanvas,
                                                                         metadataSource: metadataSource), target: target)
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
            output.carriesSubtitles = carriesSubtitles
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
    private func settings(of index: Int, rate: (num: Int32, den: Int32), transparentCanvas: Bool, metadataSource: String?) throws -> EncoderSettings {
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: metadataSource, transparentCanvas: transparentCanvas)
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

    /// The outputs of a run whose range is `frames` frames at `rate` from `begin`, with --hls-time checked.
    func exportList(rate: (num: Int32, den: Int32), frames: Int, begin: Double, transparentCanvas: Bool, metadataSource: String?,
                    carriesSubtitles: Bool) throws -> [ExportOutput] {
        let list = try exportOutputs(rate: rate, frames: frames, begin: begin, transparentCanvas: transparentCanvas,
                                     metadataSource: metadataSource, carriesSubtitles: carriesSubtitles)
        if streams.hlsTime != nil && !list.contains(where: { $0.target?.kind == .segmented }) {
            throw RunError("--hls-time sets the segment length of an HLS (.m3u8) or DASH (.mpd) output; none of the outputs is one")
        }
        return list
    }

    /// One clock for the run: paced when any output asks for it (a network stream of a file input, as ffmpeg -re).
    func paces(_ list: [ExportOutput], inputIsLive: Bool) -> Bool {
        list.contains { $0.target.map { streams.paces($0, inputIsLive: inputIsLive) } ?? false }
    }
}

extension Layerplay: SeveralOutputsRun {
    /// Exports the range once into every `-o` (CLI.md "Several outputs").
    func exportSeveral(_ card: CardTree, asset: MediaAsset, canvas: PixelSize) throws {
        let (begin, rate, frames) = try exportRange(asset, naming: outputs[0])
        if speed != 1 && asset.isLive { throw RunError("--speed does not combine with a live input yet: export at speed 1") }
        // Not at another speed: copied subtitle packets keep the input's times (burnt-in subtitles follow the clock).
        let copiesSubtitles = subtitles == nil && !noSubtitles && speed == 1
        let list = try exportList(rate: rate, frames: frames, begin: begin, transparentCanvas: !background.isOpaque, metadataSource: input,
                                  carriesSubtitles: copiesSubtitles)
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: input, transparentCanvas: !background.isOpaque)
        let exporter = Exporter(root: card.host, width: canvas.width, height: canvas.height, settings: settings, start: begin,
                                frameCount: frames, audioSource: noAudio || asset.audio == nil ? nil : input)
        exporter.inputEnded = liveEnd(card, asset)
        exporter.speed = speed
        if copiesSubtitles { exporter.subtitleSource = input }
        exporter.realtime = paces(list, inputIsLive: asset.isLive)
        try reportingProgress(frameRate: rate) { try exporter.export(to: list, replacing: overwrite, progress: $0) }
    }
}

extension SceneRunCommand: SeveralOutputsRun {
    /// A scene's output may not replace a file without -y (that none is one of its inputs, `exportSeveral` checks).
    func checkOutput(_ path: String, format: String?) throws {
        if !overwrite && (try? FileManager.default.attributesOfItem(atPath: path)) != nil {
            throw RunError("'\(path)' already exists; use -y to overwrite it")
        }
    }

    /// Exports the scene's range once into every `-o` (CLI.md "Several outputs").
    /// `root` is what the outputs show (the scene's root, or a live scene's host when a take is replayed) and
    /// `prepare` sets the exporter up further (the take's controls) before it runs.
    func exportSeveral(_ loaded: LoadedScene, root: Layer, width: Int, height: Int, prepare: (Exporter) -> Void) throws {
        guard let length = duration?.seconds ?? loaded.duration else {
            throw RunError("the scene has no canvas duration: give --duration to export it")
        }
        let rate = MovieWriter.rational(fps ?? loaded.fps)
        // At --speed X the movie lasts length / X; its frames sample the sped-up scene clock.
        let frames = max(1, Int((length / speed * Double(rate.num) / Double(rate.den)).rounded()))
        let begin = start?.seconds ?? 0
        let transparent = !(loaded.root.backgroundColor?.isOpaque ?? false)
        for output in outputs {
            for input in loaded.inputs where OutputIdentity.writes(output, over: input.src) {
                throw RunError("'\(output)' is the scene's input '\(input.id)'; choose another output")
            }
        }
        let list = try exportList(rate: rate, frames: frames, begin: begin, transparentCanvas: transparent, metadataSource: nil, carriesSubtitles: false)
        let audio = noAudio ? nil : loaded.audio  // the scene's `audio` input, from its `start` as its picture
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: nil, transparentCanvas: transparent)
        let exporter = Exporter(root: root, width: width, height: height, settings: settings, start: begin, frameCount: frames,
                                audioSource: audio?.src)
        exporter.speed = speed
        prepare(exporter)
        exporter.audioOffset = audio?.start ?? 0
        exporter.audioLoopLength = audio?.loopLength
        exporter.realtime = paces(list, inputIsLive: false)
        let report = try reporting.open()
        do {
            let statistics = try exporter.export(to: list, replacing: overwrite) { report?.update(ProgressReport.snapshot($0, frameRate: rate)) }
            report?.finish(statistics, frameRate: rate)
        } catch let e as FileExistsError {
            throw RunError("'\(e.path)' already exists; use -y to overwrite it")
        } catch { throw RunError("\(error)") }
    }
}
