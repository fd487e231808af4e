import CFFmpeg
import Foundation

extension Exporter {
    /// What a segmented export carries besides its picture, in the container `path` names: its sound, and soft
    /// subtitle streams that container holds. These are the track file's (`exportAudio`, `--audio-only`), rendered
    /// once and muxed at the join; a plan lists them so that the farm knows whether to ask for that file.
    public func segmentTracks(for path: String) -> (audio: Bool, subtitles: Bool) {
        guard let format = av_guess_format(nil, path, nil) else { return (false, false) }
        let audio = audioSource != nil && OutputContainer(format).takesAudio
        guard let subtitleSource else { return (audio, false) }
        // Asked of the writer that will carry them, on a container that is never opened: it knows which streams the
        // container takes as they are, which it re-encodes and which it drops.
        var allocated: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&allocated, format, nil, path) >= 0, let oc = allocated else { return (audio, false) }
        defer { avformat_free_context(oc) }
        let rate = Double(settings.frameRate.num) / Double(settings.frameRate.den)
        let range = audioSpan(Double(frameCount) / rate).sourceRange
        let subtitles = SubtitleStreamWriter(source: subtitleSource, range: range, into: oc, name: path, warn: false) != nil
        return (audio, subtitles)
    }
}
