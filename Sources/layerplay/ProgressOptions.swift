import ArgumentParser
import LayerMedia

/// `--progress FILE|URL|-`: ffmpeg's `-progress` report of an export (CLI.md "Progress").
struct ProgressOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write ffmpeg's -progress report of an export (key=value blocks, progress=continue|end) to a file, a URL FFmpeg writes to, or - for stdout.", valueName: "FILE|URL|-"))
    var progress: String?

    static let optionNames: Set<String> = ["--progress"]

    func validate() throws {
        if let progress, progress.isEmpty { throw ValidationError("--progress needs a file, a URL or -") }
    }

    /// Refuses `--progress -` (or pipe:1) when an output goes to standard output too: the report's lines would be
    /// mixed into the stream, breaking both (ffmpeg allows it and corrupts the stream).
    func checkStandardOutput(sharedWith outputs: [String]) throws {
        guard let progress, Self.isStandardOutput(progress) else { return }
        if let output = outputs.first(where: Self.isStandardOutput) {
            throw RunError("--progress \(progress) and -o \(output) both write to standard output; send the progress to a file or another pipe (--progress pipe:2)")
        }
    }

    /// Whether a target names standard output (`-`, `pipe:`, `pipe:1`, as FFmpeg reads them).
    static func isStandardOutput(_ target: String) -> Bool {
        if case .pipe(let fd) = InputLocation(target) { return fd == 0 || fd == 1 }  // - and pipe: are stdout when written
        return false
    }

    /// The opened report, or nil without `--progress`; one error line when the target cannot be written.
    func open() throws -> ProgressReport? {
        guard let progress else { return nil }
        do { return try ProgressReport(target: progress) } catch { throw RunError("\(error)") }
    }
}

extension ProgressReport {
    /// An export's progress at `frameRate` as a report block's values.
    static func snapshot(_ p: Exporter.Progress, frameRate: (num: Int32, den: Int32)) -> Snapshot {
        Snapshot(frame: p.frame, framesPerSecond: p.framesPerSecond, bytes: p.bytesWritten,
                 outTimeMicroseconds: Int64(p.frame) * 1_000_000 * Int64(frameRate.den) / Int64(frameRate.num), elapsed: p.elapsed)
    }

    /// The last block: what the finished export wrote.
    func finish(_ s: Exporter.Statistics, frameRate: (num: Int32, den: Int32)) {
        finish(Snapshot(frame: s.frames, framesPerSecond: Double(s.frames) / max(s.seconds, 1e-9), bytes: s.bytesWritten,
                        outTimeMicroseconds: Int64(s.frames) * 1_000_000 * Int64(frameRate.den) / Int64(frameRate.num), elapsed: s.seconds))
    }
}
