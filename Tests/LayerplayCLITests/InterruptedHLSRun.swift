import Foundation
import Testing
import TestSupport

/// Runs layerplay with `arguments` in `dir` (an HLS output named cut.m3u8 among them), sends it SIGINT once its
/// second segment exists, and returns its stderr lines after checking that it exited 1: the Ctrl-C of an export
/// that writes HLS, as the tests of one and of several outputs need it.
func interruptOnceASegmentIsWritten(_ arguments: [String], in dir: URL,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> [Substring] {
    guard let binary = layerplayBinary else { Issue.record("no layerplay binary", sourceLocation: sourceLocation); return [] }
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = dir
    let err = dir.appendingPathComponent("err.txt")
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < deadline && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("cut_00001.ts").path) {
        usleep(20_000)
    }
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 1, sourceLocation: sourceLocation)
    return try String(contentsOf: err, encoding: .utf8).split(separator: "\n")
}
