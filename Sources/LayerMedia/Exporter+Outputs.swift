import CShims
import Foundation
import LayerGraphics

/// One output of an export of several (`Exporter.export(to:replacing:progress:)` with a list, CLI.md "Several
/// outputs"): where it goes and how it is encoded. Every output is fed the same rendered frames, at the export's
/// frame rate; each has its own encoder, and its own scaler when its size is another.
public struct ExportOutput: Sendable {
    /// The file, pattern-free picture or URL as the user gave it (its extension chooses the container).
    public var path: String
    /// Its encoder: codec, quality, bitrate, picture format… (the frame rate is the export's).
    public var settings: EncoderSettings
    /// A stream or segmented output, written in place; nil: one file, written beside `path` and renamed.
    public var target: OutputTarget?
    /// Whether it carries the export's sound (where its container holds audio) and its subtitle streams.
    public var carriesAudio = true, carriesSubtitles = true
    /// For a still (a `.png` or `.jpg` picture): the one output frame it takes; nil: it takes every frame.
    public var stillFrame: Int?
    /// Its pictures' size when not the canvas's: each frame is scaled to it (libswscale, bicubic); nil: the canvas's.
    public var size: (width: Int, height: Int)?

    /// An output of `path` encoded with `settings`.
    public init(path: String, settings: EncoderSettings, target: OutputTarget? = nil) {
        self.path = path; self.settings = settings; self.target = target
    }

    /// Whether it is written beside its target and renamed when complete (a file, not a stream or a playlist).
    var isAtomic: Bool { target?.isAtomic ?? true }
}

/// An output's writer during a run, and which frames it is fed.
struct OutputSink: Sendable {
    let writer: MovieWriter
    let output: ExportOutput

    /// Whether output frame `index` goes to this output.
    func takes(_ index: Int) -> Bool { output.stillFrame.map { $0 == index } ?? true }

    /// A still whose frame was never rendered (a live input that ended first) is an error, not an empty file.
    func checkFed(framesRendered: Int) throws {
        guard let still = output.stillFrame, writer.framesWritten == 0 else { return }
        throw MediaError("cannot write '\(output.path)': the export ended after \(framesRendered) frames, before its frame \(still + 1)")
    }
}

extension Exporter {
    /// Renders the export once and encodes it into every output (CLI.md "Several outputs"). All or nothing for
    /// files: each is written beside its target and all are put in place only when every output succeeded, so a
    /// failure of any output (a server that went away, a full disk, Ctrl-C) stops them all, as ffmpeg does, and
    /// leaves no file and no temporary at any file target; a stream ends where it was cut and a playlist keeps its
    /// whole segments (as with one output). Two passes and segmented exports take one output.
    /// - Returns: what the export did; `bytesWritten` is the first output's (as ffmpeg's `-progress` reports).
    public func export(to outputs: [ExportOutput], replacing: Bool = true, progress: ((Progress) -> Void)? = nil) throws -> Statistics {
        try checkLimits()
        guard let first = outputs.first else { throw MediaError("an export needs an output") }
        guard !settings.control.twoPass, segment == nil || outputs.count == 1 else {
            throw MediaError("two passes and segments encode one output; '\(first.path)' is one of \(outputs.count)")
        }
        do { return try exportAll(outputs, first: first, replacing: replacing, progress: progress) } catch let stop as InterruptedError {
            // Said outside the signal's scope (inside, any other error makes it raise the signal again): what each kind
            // of output was left as.
            let files = outputs.filter(\.isAtomic).map { "'\($0.path)'" }, streams = outputs.filter { !$0.isAtomic }.map { "'\($0.path)'" }
            throw MediaError("interrupted by \(InterruptedError.name(stop.signal)); "
                             + [files.isEmpty ? nil : "\(files.joined(separator: ", ")) \(files.count == 1 ? "was" : "were") not written",
                                streams.isEmpty ? nil : "\(streams.joined(separator: ", ")) \(streams.count == 1 ? "ends" : "end") where it was"]
                                .compactMap { $0 }.joined(separator: "; "))
        }
    }

    private func exportAll(_ outputs: [ExportOutput], first: ExportOutput, replacing: Bool, progress: ((Progress) -> Void)?) throws -> Statistics {
        try Interruption.during {
            InputFailures.reset()
            let plans = outputs.map { output -> (output: ExportOutput, writePath: String) in
                guard output.isAtomic else { return (output, output.target?.url ?? output.path) }
                PartialFile.sweep(beside: output.path)
                let temporary = PartialFile.path(for: output.path)
                try? FileManager.default.removeItem(atPath: temporary) // an earlier process's, that had our number
                return (output, temporary)
            }
            let temporaries = plans.filter { $0.output.isAtomic }
            do {
                let stats = try run(plans, progress: progress)
                try Interruption.check(writing: first.path)
                if let failed = outputs.lazy.compactMap({ $0.target?.writeFailure }).first { throw MediaError(failed) }
                if let broken = InputFailures.first { throw MediaError(broken) }
                try publish(temporaries, replacing: replacing)
                return stats
            } catch {
                for plan in temporaries { try? FileManager.default.removeItem(atPath: plan.writePath) }
                for output in outputs { for file in output.target?.temporaryLeftovers() ?? [] { unlink(file) } }
                try Interruption.check(writing: first.path)
                if let expired = outputs.lazy.compactMap(\.target).first(where: { $0.watchdog.didExpire }), !(error is InterruptedError) {
                    throw expired.failure(lp_averror_exit())
                }
                throw error
            }
        }
    }

    /// Puts every finished file in place. Without replacing, a file that appeared at one target meanwhile stops it,
    /// and the files already put in place are taken back (none of them replaced anything).
    private func publish(_ files: [(output: ExportOutput, writePath: String)], replacing: Bool) throws {
        var published: [String] = []
        do {
            for file in files {
                try PartialFile.publish(file.writePath, at: file.output.path, replacing: replacing)
                published.append(file.output.path)
            }
        } catch {
            if !replacing { for path in published { unlink(path) } }
            throw error
        }
    }
}
