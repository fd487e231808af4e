import ArgumentParser
import Foundation
import LayerMedia

/// `layerplay probe INPUT`: streams, duration, sizes, colour information, rotation and chapters as JSON on stdout.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe", abstract: "Describe a media file as JSON: streams, duration, sizes, colours, rotation, chapters.")

    @Argument(help: "A video, audio or image file.")
    var input: String

    /// The asset's own keys and its chapters (`[]` when it has none), in one object.
    private struct Probe: Encodable {
        let asset: MediaAsset
        let chapters: [Chapter]
        enum Key: String, CodingKey { case chapters }
        func encode(to encoder: any Encoder) throws {
            try asset.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(chapters, forKey: .chapters)
        }
    }

    func run() throws {
        let probe: Probe
        do { probe = Probe(asset: try MediaAsset(path: input).describingFirstFrameColor(), chapters: try MediaAsset.chapters(of: input)) } catch { throw RunError("\(error)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard let data = try? encoder.encode(probe) else { throw RunError("cannot describe '\(input)' as JSON") }
        print(String(decoding: data, as: UTF8.self))
    }
}
