import Foundation
import LayerGraphics
import LayerMedia

extension Layerplay {
    /// Transcodes the input through the layer tree into a movie: the range of --start/--duration at --fps
    /// (the input's rate by default), with the audio copied unless --no-audio.
    func export(_ card: CardTree, asset: MediaAsset, canvas: PixelSize, to output: String) throws {
        let (begin, rate, frames) = try exportRange(asset, naming: output)
        if speed != 1 && (asset.isLive || segmenting.isActive) {
            throw RunError("--speed does not combine with \(asset.isLive ? "a live input" : "segments") yet: export at speed 1")
        }
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: input, transparentCanvas: !background.isOpaque)
        let exporter = Exporter(root: card.host, width: canvas.width, height: canvas.height, settings: settings, start: begin,
                                frameCount: frames,
                                audioSource: noAudio || asset.audio == nil || MovieWriter.isImageSequence(output) ? nil : input)
        exporter.inputEnded = liveEnd(card, asset)
        exporter.speed = speed
        try streams.configure(exporter, for: output, inputIsLive: asset.isLive)
        // The input's subtitle streams go into the movie unless a track is burnt in or --no-subtitles says none.
        // Not at another speed: copied subtitle packets keep the input's times (burnt-in subtitles follow the clock).
        if subtitles == nil && !noSubtitles && !MovieWriter.isImageSequence(output) && speed == 1 { exporter.subtitleSource = input }
        if segmenting.isActive { // a segment, the sound alone, the plan, or --segments N (SegmentedExport.swift)
            do { try segmenting.run(exporter, to: output, replacing: overwrite, progress: nil) } catch { throw runError(error) }
            return
        }
        try reportingProgress(frameRate: rate) { try exporter.export(to: output, replacing: overwrite, progress: $0) }
    }

    /// Runs an export with its progress shown on a terminal and written to --progress (once for the run, however
    /// many outputs it has), and --stats at the end.
    func reportingProgress(frameRate rate: (num: Int32, den: Int32),
                           _ export: (@escaping (Exporter.Progress) -> Void) throws -> Exporter.Statistics) throws {
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) != 0)
        let report = try reporting.open()
        let statistics: Exporter.Statistics
        // Of two passes, --progress reports the second only (the one that writes the movie): its frames and times
        // rise once to the end, as parsers of ffmpeg's report expect; the terminal shows both.
        do { statistics = try export { bar.show($0); if $0.pass != 1 { report?.update(ProgressReport.snapshot($0, frameRate: rate)) } } } catch {
            bar.finish()
            throw runError(error)
        }
        bar.finish()
        report?.finish(statistics, frameRate: rate)
        if stats { printStatistics(statistics) }
    }

    /// The export's range: its first time, its frame rate (--fps, else the input's) and its frame count, with the
    /// warnings and refusals of a range past the input's end; `output` names the output in messages.
    func exportRange(_ asset: MediaAsset, naming output: String) throws -> (begin: Double, rate: (num: Int32, den: Int32), frames: Int) {
        let begin = start?.seconds ?? 0
        try checkLiveStart(asset)
        // A video ends with its last frame, not with the container (whose sound may run on): a transcode keeps the
        // frames it has and adds none (CLI.md). A sound file ends with its sound; a live input, when it ends.
        let end = asset.isLive ? asset.duration : asset.pictureLength() ?? asset.duration  // live: unknown until it ends
        var length: Double
        if let duration { length = duration.seconds } else {
            guard !asset.isStill else { throw RunError("a still input needs --duration to make a movie of '\(output)'") }
            length = asset.isLive ? Exporter.maximumSeconds : max(0, end - begin)  // live: until it ends
        }
        let knownEnd = !asset.isStill && end > 0
        guard length > 0 && !(knownEnd && begin >= end) else {
            throw RunError("nothing to export: --start \(begin) is past the end of '\(input)' (\(end) s)")
        }
        // A range past the input's end would only repeat its last frame (until the disk fills, for --duration 1e12).
        if knownEnd && begin + length > end + 1e-6 {
            StandardError.writeLine("layerplay: warning: '\(input)' ends at \(end) s; exporting \(begin)…\(end) s")
            length = end - begin
        }
        guard length <= Exporter.maximumSeconds else {
            throw RunError("--duration \(length) s is longer than one export may be (\(Int(Exporter.maximumSeconds / 3600)) hours)")
        }
        let rate: (num: Int32, den: Int32)
        if let fps { rate = MovieWriter.rational(fps) }
        else if let v = asset.video, !asset.isStill, v.frameRateNumerator > 0 { rate = (v.frameRateNumerator, v.frameRateDenominator) }
        else { rate = (30, 1) }
        if fps == nil, let v = asset.video, let claimed = v.claimedFrameRate {
            StandardError.writeLine("layerplay: warning: '\(input)' claims \(claimed) frames/s; exporting at \(Double(rate.num) / Double(rate.den)) (--fps sets the rate)")
        }
        // At --speed X the movie lasts length / X: its frames sample the sped-up clock, its sound is time-stretched (CLI.md's --speed).
        let frames = max(1, Int((length / speed * Double(rate.num) / Double(rate.den)).rounded()))
        return (begin, rate, frames)
    }

    /// One JPEG picture of the tree at --at, written through FFmpeg's mjpeg encoder (atomically, like movies).
    func exportJPEG(_ card: CardTree, canvas: PixelSize, to output: String) throws {
        let time = at?.seconds ?? 0
        let exporter = Exporter(root: card.host, width: canvas.width, height: canvas.height,
                                settings: EncoderSettings(codec: "mjpeg", crf: 0, preset: "", frameRate: (25, 1)),
                                start: time, frameCount: 1, audioSource: nil)
        do { _ = try exporter.export(to: output, replacing: overwrite) } catch { throw runError(error) }
    }

    func printStatistics(_ s: Exporter.Statistics) {
        let sorted = s.renderMilliseconds.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))] }
        let json = String(format: "{\"frames_rendered\": %d, \"frames_dropped\": %d, \"duration_s\": %.3f, \"render_ms_p50\": %.2f, \"render_ms_p99\": %.2f, \"fps\": %.2f}",
                          s.frames, s.lateFrames, s.seconds, percentile(0.5), percentile(0.99), Double(s.frames) / max(s.seconds, 1e-9))
        StandardError.writeLine(json)
    }
}

/// Frames, speed and time left, redrawn in place on a terminal; silent otherwise.
final class ProgressBar {
    let enabled: Bool
    private var lastDraw = 0.0
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ p: Exporter.Progress) {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        if now - lastDraw < 0.1 && p.frame < p.total { return }
        lastDraw = now
        let width = 30
        let done = p.total > 0 ? p.frame * width / p.total : 0
        let eta = p.framesPerSecond > 0 ? Double(p.total - p.frame) / p.framesPerSecond : 0
        let line = (p.pass > 0 ? "\rpass \(p.pass)/2 " : "\r") + String(format: "[%@%@] %d/%d frames  %.1f fps  ETA %.0fs ", String(repeating: "#", count: done),
                          String(repeating: ".", count: width - done), p.frame, p.total, p.framesPerSecond, eta)
        StandardError.write(line)
    }

    func finish() { if enabled && lastDraw > 0 { StandardError.write("\n") } }
}
