import CFFmpeg
import Foundation
import LayerGraphics

/// How inputs are opened, for the whole run (the command line sets it once, before anything opens): an input is
/// opened several times (probe, picture, sound, subtitles), deep inside the scene's media, and each open must
/// time out, reconnect and pace image sequences alike.
public struct InputSettings: Sendable {
    /// Seconds one open or read of a network input (or a pipe) may block before it fails (`--timeout`).
    public var timeout = 10.0
    /// Whether an HTTP(S) input that breaks is requested again from where it was (`--reconnect`, FFmpeg's http
    /// reconnect options), and a live connection (RTMP, SRT, UDP…) that stops is connected to again, its new
    /// timestamps put on the first connection's timeline (`LiveReconnect`).
    public var reconnect = false
    /// The frame rate of a numbered picture pattern (`frame_%04d.png`, `--input-fps`); nil: FFmpeg's 25.
    public var pictureRate: Double?
    /// FFmpeg's own options for opening every input, as ffmpeg's input options (`--input-opt KEY=VALUE`:
    /// `rtsp_flags=listen`, `probesize=…`), set after layerplay's so that they win; an option that the input's
    /// protocol and demuxer do not take fails the open (`unusedOption`).
    public var ffmpegOptions: [(key: String, value: String)] = []

    /// The defaults: a 10 s network timeout, no reconnecting, FFmpeg's rate for picture patterns.
    public init() {}

    private static let shared = Guarded(InputSettings())
    /// The settings every open uses.
    public static var current: InputSettings {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// FFmpeg's options for opening `location` (owned by the caller: `av_dict_free`).
    func options(for location: InputLocation) -> OpaquePointer? {
        var dict: OpaquePointer?
        func set(_ key: String, _ value: String) { av_dict_set(&dict, key, value, 0) }
        let micros = String(Int64(timeout * 1_000_000))
        switch location {
        case .file(let path):
            if let pictureRate, MovieWriter.isImageSequence(path) { set("framerate", String(pictureRate)) }
        case .pipe: break
        case .url(_, let scheme):
            // Every protocol over a socket honours rw_timeout (the watchdog is the bound when one does not).
            set("rw_timeout", micros)
            if scheme == "rtsp" || scheme == "rtsps" { set("timeout", micros) }
            if (scheme == "http" || scheme == "https" || scheme == "hls") && reconnect {
                set("reconnect", "1")
                set("reconnect_streamed", "1")
                set("reconnect_on_network_error", "1")
                set("reconnect_delay_max", "4")
            }
        }
        for (key, value) in ffmpegOptions { set(key, value) }
        return dict
    }

    /// The first of `ffmpegOptions` that an open left in its options (`dict`, after `avformat_open_input`): no
    /// protocol or demuxer of that input took it (a misspelt name), so ffmpeg would refuse it ("Option not found").
    func unusedOption(in dict: OpaquePointer?) -> String? {
        ffmpegOptions.first { av_dict_get(dict, $0.key, nil, 0) != nil }?.key
    }
}
