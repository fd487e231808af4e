import Foundation
import LayerMedia

/// The segmented forms of an export (CLI.md, "Segments and joins"): one segment (`--frames A:B`), the sound alone
/// (`--audio-only`), the plan (`--plan`), or all of it in one process (`--segments N`: the farm's local twin, the
/// same segments, sound and join, so the same bytes).
extension SegmentFlags {
    /// Runs the export `base` describes (the whole timeline, as a plain export would) in the form these flags ask.
    func run(_ base: Exporter, to output: String, replacing: Bool, progress: ((Exporter.Progress) -> Void)?) throws {
        guard !MovieWriter.isImageSequence(output) else {
            throw RunError("segments are movies: '\(output)' is a picture sequence")
        }
        let rate = base.settings.frameRate
        let plan = SegmentPlan(total: base.frameCount, gop: SegmentEncoding.gopLength(rate: rate), count: segments ?? 1)
        // Sound and soft subtitles: rendered once into the track file and muxed at the join, never per segment (a
        // segment's render does not ask which there are).
        if self.plan {
            let tracks = base.segmentTracks(for: output)
            print(plan.json(rate: rate, audio: tracks.audio, subtitles: tracks.subtitles))
            return
        }
        if audioOnly {
            let tracks = base.segmentTracks(for: output)
            guard tracks.audio || tracks.subtitles else { throw RunError("the export has no sound or subtitles to write into '\(output)'") }
            try base.exportAudio(to: output, replacing: replacing)
            return
        }
        if let frames {
            guard frames.frames.upperBound <= base.frameCount else {
                throw RunError("--frames \(frames.frames.lowerBound):\(frames.frames.upperBound) ends past the export's \(base.frameCount) frames")
            }
            _ = try Self.segment(of: base, frames: frames.frames).export(to: output, replacing: replacing, progress: progress)
            return
        }
        let tracks = base.segmentTracks(for: output)
        try renderAndJoin(base, plan: plan, tracks: tracks.audio || tracks.subtitles, to: output, replacing: replacing, progress: progress)
    }

    /// Every segment of the plan, then the track file (sound and soft subtitles), each into a scratch folder, then the join.
    private func renderAndJoin(_ base: Exporter, plan: SegmentPlan, tracks: Bool, to output: String, replacing: Bool,
                               progress: ((Exporter.Progress) -> Void)?) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-segments-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let ext = (output as NSString).pathExtension
        var files: [String] = []
        for (k, frames) in plan.segments.enumerated() {
            let file = (scratch as NSString).appendingPathComponent("segment-\(k).\(ext)")
            _ = try Self.segment(of: base, frames: frames).export(to: file, replacing: true, progress: progress)
            files.append(file)
        }
        var audio: String? = nil
        if tracks {
            audio = (scratch as NSString).appendingPathComponent("audio.\(ext)")
            try base.exportAudio(to: audio!, replacing: true)
        }
        _ = try SegmentJoiner.join(segments: files, audio: audio, to: output, replacing: replacing)
    }

    /// The export of frames `frames` of `base`'s timeline, without sound or subtitle streams (the join adds them).
    static func segment(of base: Exporter, frames: Range<Int>) -> Exporter {
        let exporter = Exporter(root: base.root, width: base.width, height: base.height, settings: base.settings,
                                start: base.start, frameCount: frames.count, audioSource: nil)
        exporter.segment = SegmentEncoding(frames: frames, total: base.frameCount, rate: base.settings.frameRate)
        return exporter
    }
}
