import ArgumentParser
import Foundation
import LayerGraphics
import LayerMedia

/// `layerplay join SEGMENT… -o OUT [--audio FILE]`: segments made with `--frames A:B` joined without re-encoding,
/// with the timeline's sound (`--audio-only`) muxed in; checked before anything is written (CLI.md).
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join segments made with --frames A:B into one movie, with the sound of --audio-only.")

    @Argument(help: "The segments, in timeline order.")
    var segments: [String]
    @Option(name: [.short, .long], help: ArgumentHelp("The joined movie.", valueName: "PATH"))
    var output: String
    @Option(help: ArgumentHelp("The timeline's sound, written once (layerplay … --audio-only).", valueName: "FILE"))
    var audio: String?
    @Flag(name: .customShort("y"), help: "Overwrite an existing output.")
    var overwrite = false

    func validate() throws {
        if segments.isEmpty { throw ValidationError("join needs at least one segment") }
    }

    func run() throws {
        for input in segments + (audio.map { [$0] } ?? []) where OutputIdentity.writes(output, over: input) {
            throw RunError("the output '\(output)' is one of the join's inputs; choose another path")
        }
        guard MovieWriter.canWrite(output) else { throw RunError("cannot write '\(output)': use a movie container (.mp4 .mov .mkv…)") }
        if !overwrite, (try? FileManager.default.attributesOfItem(atPath: output)) != nil {
            throw RunError("'\(output)' already exists; use -y to overwrite it")
        }
        do { _ = try SegmentJoiner.join(segments: segments, audio: audio, to: output, replacing: overwrite) }
        catch let exists as FileExistsError { throw RunError("'\(exists.path)' already exists; use -y to overwrite it") }
        catch { throw RunError("\(error)") }
    }
}
