import Foundation
import LayerGraphics
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// Issue 15, item 4: no temporary is ever left behind (signals, kill -9, crashes), no file is silently replaced
// (two exports to one path), and no input is ever an output.

/// A `layerplay` run in the background: started, then signalled or waited for.
private struct BackgroundRun {
    let process: Process
    let stderrURL: URL

    init(_ args: [String], in directory: URL) throws {
        guard let binary = layerplayBinary else { throw RunFailure("no layerplay binary") }
        stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-bg-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process = Process()
        process.executableURL = binary
        process.arguments = args
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    /// Waits up to `seconds` for the process to end (killing it after that); its exit status, or nil when it was
    /// killed by a signal or had to be killed.
    func wait(seconds: TimeInterval = 120) -> (status: Int32?, stderr: String) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("layerplay \(process.arguments ?? []) did not end within \(Int(seconds)) s")
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: stderrURL)
        return (process.terminationReason == .exit ? process.terminationStatus : nil, stderr)
    }
}

private struct RunFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls until `condition` holds (true) or `seconds` pass (false). Never a fixed sleep standing in for an event.
private func eventually(within seconds: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// A PID that no process has: a child that has ended and been reaped.
private func deadPID() throws -> pid_t {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    #expect(kill(p.processIdentifier, 0) != 0 && errno == ESRCH)
    return p.processIdentifier
}

/// Minutes of output: the export is still running whenever the test signals it.
private let longExport = [mediaSample("card.png"), "--duration", "600", "--size", "640x360", "--rotate"]

@Suite("layerplay leftovers and lost files")
struct LeftoverTests {
    /// SIGTERM (kill, systemd, timeout), SIGHUP (a closed terminal), SIGQUIT and SIGINT during an export: it stops,
    /// removes its temporary, and ends with one error line and status 1.
    @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT, SIGINT])
    func aSignalStopsAnExportAndLeavesNothing(_ signal: Int32) throws {
        try withTemporaryDirectory { dir in
            let run = try BackgroundRun(longExport + ["-o", "out.mp4"], in: dir)
            let started = eventually { !partialFiles(in: dir).isEmpty }
            #expect(started, "the export's temporary never appeared")
            kill(run.process.processIdentifier, signal)
            // A closed terminal sends SIGHUP to the foreground job, and the shell sends it again to its jobs.
            if signal == SIGHUP { kill(run.process.processIdentifier, signal) }
            let (status, stderr) = run.wait()
            #expect(status == 1, "exit status \(String(describing: status)) (nil: killed by the signal); \(stderr)")
            let lines = stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("layerplay: error: interrupted"), "\(stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "left: \(left)")
        }
    }

    /// An image sequence is written into a scratch folder: the signal removes the folder and what is in it.
    @Test func aSignalStopsAnImageSequenceAndLeavesNothing() throws {
        try withTemporaryDirectory { dir in
            let run = try BackgroundRun(longExport + ["-o", "f_%04d.png"], in: dir)
            // Wait for a picture inside the scratch folder, so that there is something to remove.
            let started = eventually {
                partialFiles(in: dir).contains { !((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent($0).path)) ?? []).isEmpty }
            }
            #expect(started, "no picture appeared in the scratch folder")
            kill(run.process.processIdentifier, SIGTERM)
            let (status, stderr) = run.wait()
            #expect(status == 1, "\(stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "left: \(left)")
        }
    }

    /// A PNG still is written to a temporary too (the gallery's figures the same way): a signal while it is
    /// encoded (seconds, at 4000×4000) removes it.
    @Test func aSignalWhileAStillIsWrittenLeavesNothing() throws {
        try withTemporaryDirectory { dir in
            let run = try BackgroundRun([mediaSample("card.png"), "--size", "4000x4000", "--rotate", "20", "-o", "big.png"], in: dir)
            let started = eventually { !partialFiles(in: dir).isEmpty || !run.process.isRunning }
            #expect(started && run.process.isRunning, "the still's temporary never appeared while it ran")
            kill(run.process.processIdentifier, SIGTERM)
            let (status, stderr) = run.wait()
            #expect(status == 1, "\(stderr)")
            #expect(stderr.hasPrefix("layerplay: error: interrupted by SIGTERM; 'big.png' was not written"), "\(stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "left: \(left)")
        }
    }

    /// Leftovers of processes that are gone (kill -9, a crash) are swept by the next write to the same target;
    /// a running process's temporary and anything not named exactly as ours are kept.
    @Test(arguments: ["out.mp4", "out.png", "f_%03d.png"])
    func staleTemporariesAreSweptAndLiveOnesKept(_ output: String) throws {
        try withTemporaryDirectory { dir in
            let fm = FileManager.default
            let stem = output.replacingOccurrences(of: "%", with: "_")
            let dead1 = try deadPID(), dead2 = try deadPID()
            let staleFile = ".\(stem).\(dead1).partial", staleFolder = ".\(stem).\(dead2).partial"
            _ = fm.createFile(atPath: dir.appendingPathComponent(staleFile).path, contents: Data(count: 1000))
            try fm.createDirectory(at: dir.appendingPathComponent(staleFolder), withIntermediateDirectories: false)
            _ = fm.createFile(atPath: dir.appendingPathComponent(staleFolder + "/f_001.png").path, contents: Data(count: 1000))
            let kept = [
                ".\(stem).\(getpid()).partial",       // a live process's (this test's)
                ".\(stem).0\(dead1).partial", ".\(stem).+\(dead1).partial", ".\(stem).0.partial", ".\(stem).-1.partial",
                ".\(stem).partial", ".\(stem).\(dead1).partial.keep", "\(stem).\(dead1).partial", ".other.mp4.\(dead1).partial",
            ]
            for name in kept { _ = fm.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data("mine\n".utf8)) }
            let r = runLayerplay([mediaSample("card.png"), "--duration", "0.1", "-o", output], in: dir)
            expectSuccess(r)
            let left = Set(try fm.contentsOfDirectory(atPath: dir.path))
            #expect(!left.contains(staleFile) && !left.contains(staleFolder), "stale temporaries left: \(left.sorted())")
            for name in kept { #expect(left.contains(name), "\(name) was removed") }
        }
    }

    /// Two exports to one path without -y: both pass the check at the start, but only one may publish; the
    /// other says the file exists, removes its temporary and fails. What is there is one complete movie.
    @Test func twoExportsToOnePathWithoutYesNeverReplaceEachOther() throws {
        try withTemporaryDirectory { dir in
            // Seconds of work each (3 s alone on a quiet machine), so that the second is past its check at the start
            // long before the first is done.
            let args = [mediaSample("card.png"), "--duration", "4", "--size", "1280x720", "--rotate", "-o", "out.mp4"]
            let first = try BackgroundRun(args, in: dir), second = try BackgroundRun(args, in: dir)
            // Both temporaries exist: both runs are past the check at the start.
            let bothStarted = eventually { partialFiles(in: dir).count == 2 || !first.process.isRunning || !second.process.isRunning }
            #expect(bothStarted)
            #expect(partialFiles(in: dir).count == 2, "both exports should be running at once: \(partialFiles(in: dir))")
            let a = first.wait(), b = second.wait()
            let statuses = [a.status, b.status].sorted { ($0 ?? -1) < ($1 ?? -1) }
            #expect(statuses == [0, 1], "one succeeds, one fails: \(a), \(b)")
            let loser = a.status == 1 ? a.stderr : b.stderr
            #expect(loser == "layerplay: error: 'out.mp4' already exists; use -y to overwrite it\n", "\(loser)")
            #expect(partialFiles(in: dir).isEmpty, "\(partialFiles(in: dir))")
            let probe = runLayerplay(["probe", "out.mp4"], in: dir)
            expectSuccess(probe)
            let info = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
            let duration = try #require(info?["duration"] as? Double, "\(probe.stdout)")
            #expect(abs(duration - 4) < 0.1, "a complete 4 s movie: \(probe.stdout)")
        }
    }

    /// Without -y no picture of a sequence replaces a file: one that is in the way (only the first is checked at the
    /// start) stops the export, and the pictures it had put in place are taken back.
    @Test func anImageSequenceWithoutYesReplacesNoPicture() throws {
        try withTemporaryDirectory { dir in
            let mine = dir.appendingPathComponent("f_003.png")
            try Data("not a picture of this export\n".utf8).write(to: mine)
            let r = runLayerplay([mediaSample("card.png"), "--duration", "0.2", "--size", "64x64", "-o", "f_%03d.png"], in: dir)
            expectRunFailure(r, directory: dir, mentions: ["'f_003.png' already exists; use -y to overwrite it"])
            #expect(try String(contentsOf: mine, encoding: .utf8) == "not a picture of this export\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["f_003.png"])
        }
    }

    /// --mask names an input too: it is never the output, however the output is spelled, even with -y.
    @Test(arguments: ["mask.png", "./mask.png", "link.png", "hard.png"])
    func theMaskIsNeverTheOutput(_ output: String) throws {
        try withTemporaryDirectory { dir in
            try writeQuadrantsPNG(in: dir)
            let mask = try writePNG(leftHalfMask(width: 64, height: 48, opaqueColumns: 32), "mask.png", in: dir)
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.png").path, withDestinationPath: "mask.png")
            #expect(link(mask.path, dir.appendingPathComponent("hard.png").path) == 0)
            let before = try Data(contentsOf: mask)
            let r = runLayerplay(["in.png", "--mask", "mask.png", "-o", output, "-y"], in: dir)
            expectRunFailure(r, mentions: ["--mask", output])
            #expect(try Data(contentsOf: mask) == before, "the mask was overwritten")
        }
    }

    /// The same for the main input and an image sequence whose numbered pictures include it.
    @Test func anImageSequenceNeverWritesOverItsInput() throws {
        try withTemporaryDirectory { dir in
            let input = try writeQuadrantsPNG("f_002.png", in: dir)
            let before = try Data(contentsOf: input)
            let r = runLayerplay(["f_002.png", "--duration", "0.2", "-o", "f_%03d.png", "-y"], in: dir)
            expectRunFailure(r, mentions: ["is the input"])
            #expect(try Data(contentsOf: input) == before)
        }
    }

    /// A still on a full disk says why it failed, and leaves no temporary on that disk.
    @Test(.enabled(if: SmallTmpfs.canMount, "mounting a tmpfs is not permitted here (needs CAP_SYS_ADMIN)"))
    func aStillOnAFullDiskSaysWhy() throws {
        try withTemporaryDirectory { dir in
            // Noise does not compress: its PNG is far larger than the 64 KiB disk.
            var g = SplitMix(state: 15)
            let noise = Image(width: 256, height: 256) { px in
                for i in 0..<px.count { px[i] = UInt32(truncatingIfNeeded: g.next()) | 0xff00_0000 }
            }
            try writePNG(noise, "noise.png", in: dir)
            let disk = dir.appendingPathComponent("disk")
            let mount = try SmallTmpfs(at: disk)
            defer { mount.unmount() }
            let r = runLayerplay(["noise.png", "-o", "disk/out.png"], in: dir)
            expectRunFailure(r, absentOutput: disk.appendingPathComponent("out.png"), directory: disk,
                             mentions: ["cannot write 'disk/out.png': No space left on device"])
        }
    }
}

/// A 64 KiB tmpfs: a disk that is full after a few writes.
private struct SmallTmpfs {
    let path: String

    init(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
        guard Self.mount(path) else { throw RunFailure("cannot mount a tmpfs at \(path)") }
    }

    func unmount() { _ = Self.run(["/bin/umount", path]) }

    static let canMount: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-tmpfs-probe-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard mount(probe) else { return false }
        _ = run(["/bin/umount", probe])
        return true
    }()

    private static func mount(_ path: String) -> Bool {
        run(["/bin/mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", path])
    }

    private static func run(_ arguments: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationReason == .exit && p.terminationStatus == 0
    }
}
