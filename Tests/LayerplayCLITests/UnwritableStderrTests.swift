import Foundation
import Testing

// stderr that cannot be written (`2>/dev/full`, a full disk, a closed pipe) must not change how layerplay ends:
// Foundation's `FileHandle.write(_:)` trapped there (SIGILL) on every message, after a finished export too
// (issue 15). Each run must end with its usual status, never a signal.

/// Runs layerplay with stderr on /dev/full (every write fails with ENOSPC); the exit and how it ended.
private func runWithFullStderr(_ args: [String], in dir: URL) throws -> (status: Int32, signalled: Bool) {
    let binary = try #require(layerplayBinary, "cannot find the layerplay binary")
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"), "/dev/full cannot be opened here")
    let process = Process()
    process.executableURL = binary
    process.arguments = args
    process.currentDirectoryURL = dir
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = full
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
}

@Suite struct UnwritableStderrTests {
    /// A usage error, a runtime error, a still (nothing to say) and an export followed by its statistics.
    static let runs: [(args: [String], status: Int32)] = [
        (["in.png", "--no-such-flag"], 2),
        (["missing.png", "-o", "out.png"], 1),
        (["in.png", "-o", "out.png"], 0),
        (["in.png", "--duration", "0.2", "--stats", "-o", "out.mp4"], 0),
    ]

    @Test(arguments: runs.indices)
    func endsAsUsual(_ index: Int) throws {
        let (args, expected) = Self.runs[index]
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir)
            let run = try runWithFullStderr(args, in: dir)
            #expect(!run.signalled, "layerplay \(args.joined(separator: " ")) died of signal \(run.status)")
            #expect(run.status == expected, "layerplay \(args.joined(separator: " ")) exited \(run.status)")
        }
    }
}
