import ArgumentParser
import LayerMedia

/// The flags of inputs and outputs that are not one local file (issue 28, CLI.md "Streams"): network timeouts and
/// reconnecting, picture patterns' rate, and how a stream output is muxed and paced. One group, shared by the card
/// and scene commands.
struct StreamOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds an open or read of a network input may wait for data before it fails.", valueName: "SECONDS"))
    var timeout: Double = 10
    @Flag(help: "When an HTTP(S) or HLS input breaks, request it again from where it was (other protocols: a break is an error).")
    var reconnect = false
    @Option(name: .customLong("input-opt"), help: ArgumentHelp("An FFmpeg option for opening the input, as ffmpeg's input options (rtsp_flags=listen, probesize=1M); repeatable.", valueName: "KEY=VALUE"))
    var inputOpt: [String] = []
    @Option(name: .customLong("input-fps"), help: ArgumentHelp("Frame rate of a numbered picture input (frame_%04d.png; default 25).", valueName: "N"))
    var inputFPS: Double?
    @Option(help: ArgumentHelp("The output's container by FFmpeg's name (ffmpeg -f), for -o - or pipe:N, or to override the name's extension.", valueName: "NAME"))
    var format: String?
    @Option(name: .customLong("hls-time"), help: ArgumentHelp("Seconds per segment of an HLS (.m3u8) or DASH (.mpd) output.", valueName: "SECONDS"))
    var hlsTime: Double?
    @Flag(inversion: .prefixedNo, help: "Pace the output at real time (default: on for a network output of a file input, as ffmpeg -re).")
    var realtime: Bool?

    func validate() throws {
        if !(timeout.isFinite && timeout >= 0.1 && timeout <= 3600) { throw ValidationError("--timeout must be between 0.1 and 3600 seconds") }
        if let inputFPS, !(inputFPS.isFinite && inputFPS >= 0.001 && inputFPS <= 1000) {
            throw ValidationError("--input-fps must be between 0.001 and 1000")
        }
        if let hlsTime, !(hlsTime.isFinite && hlsTime >= 0.1 && hlsTime <= 3600) {
            throw ValidationError("--hls-time must be between 0.1 and 3600 seconds")
        }
        for option in inputOpt where Self.keyValue(option) == nil {
            throw ValidationError("--input-opt takes KEY=VALUE (an FFmpeg option of the input, such as rtsp_flags=listen), got '\(option)'")
        }
        if let format, format.isEmpty || format.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw ValidationError("--format takes an FFmpeg muxer name such as mpegts, matroska or flv, got '\(format)'")
        }
    }

    /// How this run opens its inputs.
    var inputSettings: InputSettings {
        var s = InputSettings()
        s.timeout = timeout
        s.reconnect = reconnect
        s.pictureRate = inputFPS
        s.ffmpegOptions = inputOpt.compactMap(Self.keyValue)
        return s
    }

    /// `KEY=VALUE` as `--encoder-opt` takes it (the value may hold `=` and `:`); nil when it is not one.
    static func keyValue(_ option: String) -> (key: String, value: String)? {
        EncoderControl.parseOption(option).map { ($0.key, $0.value) }
    }
}
