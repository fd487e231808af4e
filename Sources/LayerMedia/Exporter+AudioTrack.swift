import CFFmpeg
import Foundation
import LayerGraphics

extension Exporter {
    /// Writes only the export's streams other than its picture, for the whole timeline (`frameCount` frames long),
    /// into `path`: its sound and its soft subtitle streams (`subtitleSource`), the tracks a segmented export renders
    /// and encodes once and the join muxes in (never per segment: per-segment AAC leaves priming gaps at every seam,
    /// and a cue would be cut at every seam). Chosen as `MovieWriter` chooses for a movie of the same container (the
    /// source's packets copied when the container takes them and nothing is shifted or looped, else re-encoded), so
    /// that a joined movie carries the same sound and subtitles as a single export would. Atomic, as every export.
    /// - Throws: `MediaError` when there is neither sound nor subtitles to write or the container holds none.
    public func exportAudio(to path: String, replacing: Bool = true) throws {
        try checkLimits()
        let rate = Double(settings.frameRate.num) / Double(settings.frameRate.den)
        let span = audioSpan(Double(frameCount) / rate)
        guard audioSource != nil || subtitleSource != nil else { throw MediaError("cannot write the sound of '\(path)': the export has no audio") }
        try Interruption.during {
            PartialFile.sweep(beside: path)
            let temporary = PartialFile.path(for: path)
            do {
                try AudioTrackFile.write(source: audioSource, span: span, subtitles: subtitleSource, to: temporary, name: path)
                try Interruption.check(writing: path)
                try PartialFile.publish(temporary, at: path, replacing: replacing)
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
        }
    }
}

/// A file of one audio stream, an `AudioSpan` of a source copied or re-encoded for the container `name` names, and
/// the subtitle streams of `subtitles` for the span (as `MovieWriter` carries them).
enum AudioTrackFile {
    static func write(source: String?, span: AudioSpan, subtitles: String?, to temporary: String, name: String) throws {
        FFmpegLogging.quietOnce()
        let file = try MuxedFile(name: name, writingTo: temporary)
        let oc = file.context
        guard source == nil || file.container.takesAudio else {
            throw MediaError("cannot write the sound of '\(name)': that container holds no audio")
        }
        // As MovieWriter: packets copied when they can be, else decoded and encoded.
        var track: AudioTrackWriter? = nil
        if let source {
            if span.isPlain, let copier = try? AudioCopier(source: source, range: span.sourceRange, into: oc, name: name) {
                track = copier
            } else {
                track = try AudioTranscoder(source: source, span: span, into: oc, name: name)
            }
        }
        let subtitleTrack = subtitles.flatMap { SubtitleStreamWriter(source: $0, range: span.sourceRange, into: oc, name: name) }
        guard track != nil || subtitleTrack != nil else {
            throw MediaError("cannot write the sound of '\(name)': the export has no audio, and no subtitles \(file.container.name) holds")
        }
        try file.writeHeader()
        try subtitleTrack?.finish()
        try track?.finish()
        try file.finish()
    }
}
