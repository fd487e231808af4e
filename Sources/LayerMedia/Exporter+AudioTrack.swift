import CFFmpeg
import Foundation
import LayerGraphics

extension Exporter {
    /// Writes only the export's sound, for the whole timeline (`frameCount` frames long), into `path`: the track a
    /// segmented export renders and encodes once and the join muxes in (never per segment: per-segment AAC leaves
    /// priming gaps at every seam). Chosen as `MovieWriter` chooses for a movie of the same container (the source's
    /// packets copied when the container takes them and nothing is shifted or looped, else re-encoded), so that a
    /// joined movie carries the same audio as a single export would. Atomic, as every export.
    /// - Throws: `MediaError` when there is no sound to write or the container holds none.
    public func exportAudio(to path: String, replacing: Bool = true) throws {
        try checkLimits()
        guard let audioSource else { throw MediaError("cannot write the sound of '\(path)': the export has no audio") }
        let rate = Double(settings.frameRate.num) / Double(settings.frameRate.den)
        let span = audioSpan(Double(frameCount) / rate)
        try Interruption.during {
            PartialFile.sweep(beside: path)
            let temporary = PartialFile.path(for: path)
            do {
                try AudioTrackFile.write(source: audioSource, span: span, to: temporary, name: path)
                try Interruption.check(writing: path)
                try PartialFile.publish(temporary, at: path, replacing: replacing)
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
        }
    }
}

/// A file of one audio stream: an `AudioSpan` of a source, copied or re-encoded for the container `name` names.
enum AudioTrackFile {
    static func write(source: String, span: AudioSpan, to temporary: String, name: String) throws {
        FFmpegLogging.quietOnce()
        guard let format = av_guess_format(nil, name, nil), OutputContainer(format).takesAudio else {
            throw MediaError("cannot write the sound of '\(name)': that container holds no audio")
        }
        var allocated: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&allocated, format, nil, temporary) >= 0, let oc = allocated else {
            throw MediaError("cannot write '\(name)': the container cannot be set up")
        }
        defer {
            if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&oc.pointee.pb) }
            avformat_free_context(oc)
        }
        // As MovieWriter: packets copied when they can be, else decoded and encoded.
        let track: AudioTrackWriter
        if span.isPlain, let copier = try? AudioCopier(source: source, range: span.sourceRange, into: oc, name: name) {
            track = copier
        } else {
            track = try AudioTranscoder(source: source, span: span, into: oc, name: name)
        }
        if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let status = avio_open(&oc.pointee.pb, temporary, AVIO_FLAG_WRITE)
            guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
        }
        let header = FFmpegLogging.reason { avformat_write_header(oc, nil) }
        guard header.status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", header) }
        try track.finish()
        let status = av_write_trailer(oc)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot finish '\(name)'", status) }
    }
}
