import ArgumentParser
import LayerMedia

/// `--video-stream N`, `--audio-stream N`: which of the input's streams a window or an export reads (CLI.md
/// "Stream choice"); N counts the streams of that kind, 0 = the first, as `--subtitles STREAM` does.
struct StreamChoiceOptions: ParsableArguments {
    @Option(name: .customLong("video-stream"), help: ArgumentHelp("The input's video stream to show, 0 = the first (probe lists them).", valueName: "N"))
    var videoStream: Int?
    @Option(name: .customLong("audio-stream"), help: ArgumentHelp("The input's audio stream to play or export, 0 = the first.", valueName: "N"))
    var audioStream: Int?

    func validate() throws {
        for (name, value) in [("--video-stream", videoStream), ("--audio-stream", audioStream)] {
            if let value, value < 0 { throw ValidationError("\(name) counts from 0 (the first stream of its kind)") }
        }
    }

    /// Makes the choice for every reader of `input`; one error line when it has no such stream.
    func choose(in input: String) throws {
        for (kind, value) in [(StreamChoice.Kind.video, videoStream), (.audio, audioStream)] {
            guard let value else { continue }
            let count: Int
            do { count = try StreamChoice.count(kind, in: input) } catch { throw RunError("\(error)") }
            guard value < count else {
                let has = count == 0 ? "no \(kind.rawValue) stream" : "\(count) \(kind.rawValue) stream\(count == 1 ? "" : "s") (0…\(count - 1))"
                throw RunError("--\(kind.rawValue)-stream \(value): '\(input)' has \(has); 'layerplay probe' lists them")
            }
            StreamChoice.choose(value, of: kind, in: input)
        }
    }
}
