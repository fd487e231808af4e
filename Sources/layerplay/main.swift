import ArgumentParser
import CShims
import Foundation
import LayerMedia

// Every frame builds a snapshot of the tree (thousands of small objects) and frees the last one. glibc hands the
// freed top of the heap back to the kernel at once (trim threshold 128 KB), so the next frame faulted the same
// pages in again: 15 % of a snapshot's time in `layerplay bench --snapshot`. Keep up to 64 MB for reuse instead.
lp_keep_freed_heap(64 << 20)

// Entry point: expand bare optional-value flags, parse, run; one error line and exit 1 on failure.
let arguments = OptionalValueFlags.expand(Array(CommandLine.arguments.dropFirst()))
do {
    // Subcommands are dispatched by their first word, so that `layerplay INPUT` needs no subcommand name.
    if arguments.first == "bench" {
        var command = try BenchCommand.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } else if arguments.first == "gallery" {
        var command = try GalleryCommand.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } else if arguments.first == "scene" {
        var command = try SceneCommand.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } else if let first = arguments.first, SceneRunCommand.isScene(first) {
        // A scene file; any other input keeps running the built-in card scene below.
        var command = try SceneRunCommand.parseAsRoot(SceneRunCommand.bindEffectFlags(arguments))
        try command.run()
    } else if arguments.first == "join" {
        var command = try JoinCommand.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } else if arguments.first == "probe" {
        var command = try ProbeCommand.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } else {
        var command = try Layerplay.parseAsRoot(arguments)
        // Playing in a window: the user's layerplay.conf supplies defaults that the command line overrides.
        if (command as? Layerplay)?.output == nil, let configured = try PlayerConfigArguments.load() {
            command = try Layerplay.parseAsRoot(configured + arguments)
        }
        try command.run()
    }
} catch let request as ExitRequest {
    exit(request.code)
} catch let error as RunError {
    StandardError.writeLine("layerplay: error: \(error.description)")
    exit(1)
} catch {
    // Help and version print and exit 0 as argument-parser does; usage errors exit 2 (CLI.md), not EX_USAGE (64).
    if Layerplay.exitCode(for: error) == .success { Layerplay.exit(withError: error) }
    // One line, as every failure (CLI.md): argument-parser's reason, without its usage and help blocks.
    let reason = Layerplay.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    StandardError.writeLine("Error: \(reason) (see 'layerplay --help')")
    exit(2)
}
