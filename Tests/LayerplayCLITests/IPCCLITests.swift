import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `--input-ipc-server PATH`: mpv's JSON IPC on a Unix socket (issue 30, item 4), spoken to over a raw socket and by
/// python-mpv-jsonipc, a real mpv client library from PyPI.
@Suite("JSON IPC", .serialized)
struct IPCCLITests {
    @Test func rawSocketPropertiesCommandsEventsAndMalformedLines() throws {
        try withTemporaryDirectory { dir in
            let socketPath = dir.appendingPathComponent("ipc.sock").path
            let player = try BackgroundPlayer([mediaSample("clip.mp4"), "--size", "64x36", "--loop", "--input-ipc-server", socketPath])
            defer { player.stop() }
            let client = try IPCClient(path: socketPath)
            let name = try client.request(["command": ["get_property", "filename"], "request_id": 1])
            #expect(name["error"] as? String == "success" && name["data"] as? String == "clip.mp4", "\(name)")
            #expect(name["request_id"] as? Int == 1)
            let duration = try client.request(["command": ["get_property", "duration"], "request_id": 2])
            #expect(abs((duration["data"] as? Double ?? 0) - 2) < 0.1, "\(duration)")
            // Observing pause sends its value now, then each change.
            _ = try client.request(["command": ["observe_property", 7, "pause"], "request_id": 3])
            let initial = try client.event { $0["event"] as? String == "property-change" && $0["id"] as? Int == 7 }
            #expect(initial["data"] as? Bool == false, "\(initial)")
            _ = try client.request(["command": ["set_property", "pause", true], "request_id": 4])
            let paused = try client.event { $0["event"] as? String == "property-change" && $0["data"] as? Bool == true }
            #expect(paused["name"] as? String == "pause")
            let seek = try client.request(["command": ["seek", 1.5, "absolute"], "request_id": 5])
            #expect(seek["error"] as? String == "success", "\(seek)")
            let position = try client.request(["command": ["get_property", "time-pos"], "request_id": 6])
            #expect(abs((position["data"] as? Double ?? 0) - 1.5) < 0.05, "\(position)")
            let volume = try client.request(["command": ["add", "volume", -30], "request_id": 7])
            #expect(volume["error"] as? String == "success")
            #expect(try client.request(["command": ["get_property", "volume"], "request_id": 8])["data"] as? Double == 70)
            // Errors are replies in mpv's words, and the player goes on.
            #expect(try client.request(["command": ["get_property", "nonsense"], "request_id": 9])["error"] as? String == "property not found")
            #expect(try client.request(["command": ["jump", 5], "request_id": 10])["error"] as? String == "invalid parameter")
            #expect(try client.request(["command": ["set_property", "duration", 3], "request_id": 11])["error"] as? String
                    == "unsupported format for accessing property")
            for garbage in ["{not json", "{\"command\": 5}", "{\"command\": [], \"request_id\": 12}", "{\"request_id\": \"x\", \"command\": [\"quit\"]}"] {
                try client.send(garbage)
                let reply = try client.event { $0["error"] != nil }
                #expect(reply["error"] as? String == "invalid parameter", "\(garbage) → \(reply)")
            }
            // An input.conf line works too (no reply), then the player still answers.
            try client.send("set volume 20")
            #expect(try client.request(["command": ["get_property", "volume"], "request_id": 13])["data"] as? Double == 20)
            _ = try client.request(["command": ["quit"], "request_id": 14])
            let end = try client.event { $0["event"] as? String == "end-file" }
            #expect(end["reason"] as? String == "quit")
            let result = player.wait()
            #expect(result.status == 0, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket is removed at exit")
        }
    }

    @Test func aPathThatIsNotASocketIsRefusedAndKept() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("notes.txt")
            try Data("mine".utf8).write(to: file)
            let r = runLayerplay([mediaSample("clip.mp4"), "--input-ipc-server", file.path], environment: headless)
            #expect(r.status == 1)
            #expect(r.stderrLines == ["layerplay: error: --input-ipc-server: '\(file.path)' exists and is not a socket; choose another path"], "\(r)")
            #expect((try? String(contentsOf: file, encoding: .utf8)) == "mine")
        }
    }

    @Test func aRealMpvClientLibraryDrivesThePlayer() throws {
        let python = try testVenvPython()
        try withTemporaryDirectory { dir in
            let socketPath = dir.appendingPathComponent("mpv.sock").path
            let player = try BackgroundPlayer([mediaSample("clip.mp4"), "--size", "64x36", "--loop", "--input-ipc-server", socketPath])
            defer { player.stop() }
            let script = packageRoot.appendingPathComponent("Tests/Scripts/mpv_ipc_client.py").path
            let out = try runPython(python, [script, socketPath])
            var values: [String: String] = [:]
            for line in out.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                values[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            #expect(values["filename"] == "clip.mp4", "\(out)")
            #expect(values["duration"].flatMap(Double.init).map { abs($0 - 2) < 0.1 } == true, "\(out)")
            #expect(values["pause"] == "True", "\(out)")
            #expect(values["time-pos"].flatMap(Double.init).map { abs($0 - 1) < 0.05 } == true, "\(out)")
            #expect(values["volume"].flatMap(Double.init) == 50, "\(out)")
            #expect(values["observed-pause"]?.hasSuffix("True") == true, "the observer saw the pause: \(out)")
            #expect(values["done"] != nil, "\(out)")
            let result = player.wait()
            #expect(result.status == 0, "\(result)")
        }
    }
}

let headless: [String: String?] = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

/// `.venv-test/bin/python` with python-mpv-jsonipc, made (once) when missing: `make test` makes it first.
func testVenvPython() throws -> String {
    let venv = packageRoot.appendingPathComponent(".venv-test")
    let python = venv.appendingPathComponent("bin/python").path
    let ready = FileManager.default.fileExists(atPath: python)
        && (try? runPython(python, ["-c", "import python_mpv_jsonipc"])) != nil
    if !ready {
        _ = try runPython("/usr/bin/python3", ["-m", "venv", venv.path])
        _ = try runPython(venv.appendingPathComponent("bin/pip").path, ["install", "-q", "python-mpv-jsonipc==1.5.0"])
    }
    return python
}

struct ProcessFailure: Error, CustomStringConvertible { let description: String }

/// Runs a program to its end (60 s at most); its stdout, or an error with its stderr. Output goes to files, so that a
/// chatty program cannot block on a full pipe.
@discardableResult
func runPython(_ program: String, _ args: [String]) throws -> String {
    let fm = FileManager.default
    let out = fm.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).out")
    let err = fm.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).err")
    _ = fm.createFile(atPath: out.path, contents: nil)
    _ = fm.createFile(atPath: err.path, contents: nil)
    defer { try? fm.removeItem(at: out); try? fm.removeItem(at: err) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = args
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let output = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 else {
        let errors = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        throw ProcessFailure(description: "\(program) \(args.joined(separator: " ")) exited \(process.terminationStatus): \(errors)")
    }
    return output
}

/// `layerplay` playing headless in the background until told to stop (or 60 s pass).
final class BackgroundPlayer {
    let process = Process()
    let errURL: URL

    init(_ args: [String], environment: [String: String?] = headless, waitForSocket: Bool = true) throws {
        guard let binary = layerplayBinary else { throw ProcessFailure(description: "no layerplay binary") }
        process.executableURL = binary
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        errURL = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-bg-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if waitForSocket, let i = args.firstIndex(of: "--input-ipc-server") {
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: args[i + 1]) && Date() < deadline && process.isRunning { usleep(10_000) }
        }
    }

    /// Waits for the exit (killing it after 20 s); its status and stderr.
    func wait() -> (status: Int32, stderr: String) {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: errURL)
    }
}
