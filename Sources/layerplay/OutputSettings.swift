import ArgumentParser
import LayerMedia

/// `N:KEY[=VALUE]` for `--output-opt`: a setting of output N alone (the Nth `-o`, 0 = the first, as ffmpeg numbers
/// its outputs), overriding the flag of the same name for that output (CLI.md "Several outputs").
struct OutputSetting: ExpressibleByArgument {
    var output: Int
    var key: String
    var value: String?

    /// The keys an output takes: its pictures' size (scaled from the canvas), the encoder flags of the same name,
    /// its container, its segment length, and no-audio (ffmpeg's per-output -an).
    static let keys = ["size", "codec", "crf", "preset", "bitrate", "maxrate", "bufsize", "gop", "pix-fmt", "encoder-opt",
                       "audio-codec", "audio-bitrate", "format", "hls-time", "no-audio"]

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"), let n = Int(argument[..<colon]), n >= 0 else { return nil }
        let setting = argument[argument.index(after: colon)...]
        output = n
        if let eq = setting.firstIndex(of: "=") {
            key = String(setting[..<eq]); value = String(setting[setting.index(after: eq)...])
        } else {
            key = String(setting); value = nil
        }
        guard !key.isEmpty else { return nil }
    }

    var text: String { "\(output):\(key)" + (value.map { "=\($0)" } ?? "") }

    /// The value, required for every key but no-audio (which takes none).
    func requiredValue() throws -> String {
        guard let value, !value.isEmpty else { throw RunError("--output-opt \(text): \(key) needs a value (\(output):\(key)=VALUE)") }
        return value
    }
}

/// The per-output flags of a run with several `-o`.
struct OutputSettingOptions: ParsableArguments {
    @Option(name: .customLong("output-opt"), help: ArgumentHelp("A setting of output N only (0 = the first -o), repeatable: size, codec, crf, preset, bitrate, maxrate, bufsize, gop, pix-fmt, encoder-opt, audio-codec, audio-bitrate, format, hls-time, or no-audio; e.g. 1:bitrate=3M, 2:size=320x180.", valueName: "N:KEY=VALUE"))
    var settings: [OutputSetting] = []

    /// The settings of output `index`, in the order given.
    func of(_ index: Int) -> [OutputSetting] { settings.filter { $0.output == index } }

    /// Refuses settings of an output that is not there and keys no output has, with one line each.
    func check(outputCount: Int) throws {
        for s in settings {
            guard s.output < outputCount else {
                throw RunError("--output-opt \(s.text): there \(outputCount == 1 ? "is 1 output" : "are \(outputCount) outputs") (-o), numbered from 0")
            }
            guard OutputSetting.keys.contains(s.key) else {
                throw RunError("--output-opt \(s.text): no setting '\(s.key)'; an output takes \(OutputSetting.keys.joined(separator: ", "))")
            }
            if s.key == "no-audio" && s.value != nil { throw RunError("--output-opt \(s.text): no-audio takes no value") }
        }
    }
}
