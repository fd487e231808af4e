import Foundation
import LayerMedia

/// Outputs that are not one file written beside the target and renamed (CLI.md "Streams"): streams to a server or
/// a pipe, playlists with segments, and `--format`.
extension StreamOptions {
    /// Where `-o` points, with --format.
    func target(_ output: String) throws -> OutputTarget {
        do { return try OutputTarget(output, format: format, timeout: timeout) } catch { throw RunError("\(error)") }
    }

    /// Whether frames are paced at real time: asked with --realtime/--no-realtime, else for a network stream whose
    /// input is not live already (a file or a scene), as `ffmpeg -re`.
    func paces(_ target: OutputTarget, inputIsLive: Bool) -> Bool {
        realtime ?? (target.isNetwork && !inputIsLive)
    }

    /// Sets the exporter's output and pacing, and refuses --hls-time where nothing is segmented.
    func configure(_ exporter: Exporter, for output: String, inputIsLive: Bool) throws {
        var target = try target(output)
        if let hlsTime {
            guard target.kind == .segmented else { throw RunError("--hls-time sets the segment length of an HLS (.m3u8) or DASH (.mpd) output, not of '\(output)'") }
            target.segmentSeconds = hlsTime
        }
        exporter.target = target
        exporter.realtime = paces(target, inputIsLive: inputIsLive)
    }
}

extension Layerplay {
    /// Whether `-o` is a stream (a URL or a pipe): it has no file to check, and is written as it goes.
    func isStreamOutput(_ output: String) throws -> Bool { try streams.target(output).kind == .stream }
}
