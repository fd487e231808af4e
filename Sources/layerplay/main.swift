import ArgumentParser
import Foundation

// Entry point: expand bare optional-value flags, parse, run; one error line and exit 1 on failure.
let arguments = OptionalValueFlags.expand(Array(CommandLine.arguments.dropFirst()))
do {
    var command = try Layerplay.parseAsRoot(arguments)
    try command.run()
} catch let error as RunError {
    FileHandle.standardError.write(Data("layerplay: error: \(error.description)\n".utf8))
    exit(1)
} catch {
    Layerplay.exit(withError: error)
}
