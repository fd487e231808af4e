import ArgumentParser
import LayerMedia

/// `layerplay probe INPUT`: streams, duration, sizes, colour information and rotation as JSON on stdout.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe", abstract: "Describe a media file as JSON: streams, duration, sizes, colours, rotation.")

    @Argument(help: "A video, audio or image file.")
    var input: String

    func run() throws {
        do { print(try MediaAsset(path: input).describingFirstFrameColor().json()) } catch { throw RunError("\(error)") }
    }
}
