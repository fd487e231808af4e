import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// Real peer processes for the stream tests (issue 28): an HTTP server, an RTMP ingest, a server that never answers,
// started on free loopback ports and stopped when the test ends.

/// A loopback TCP port nothing listens on now (the kernel's pick; free again once this returns).
func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts TCP connections on the loopback `port`.
func isListening(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
}

/// A program run beside the test (a server, an ingest), stopped by `stop()` or when the value goes away.
final class PeerProcess {
    let process = Process()
    let log: URL

    /// Starts `tool` with `arguments` in `directory`; its output goes to a log file there (read by `logText`).
    init(_ tool: String, _ arguments: [String], in directory: URL, name: String) throws {
        log = directory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/\(tool)")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// Waits until the peer accepts connections on `port` (at most `seconds`); false when it never did.
    func waitListening(on port: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && process.isRunning {
            if isListening(port) { return true }
            usleep(50_000)
        }
        return false
    }

    /// Waits for the peer to end by itself (at most `seconds`, then it is killed); its exit status.
    @discardableResult
    func wait(seconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { stop() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    deinit { stop() }
}

/// Python's `http.server` serving `directory` on a free loopback port.
func startHTTPServer(serving directory: URL) throws -> (server: PeerProcess, port: Int) {
    let port = freeLoopbackPort()
    let server = try PeerProcess("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path],
                                 in: directory, name: "http-\(port)")
    guard server.waitListening(on: port) else { throw PeerError("python3 -m http.server did not start: \(server.logText)") }
    return (server, port)
}

/// A TCP server on a free loopback port that takes connections and never says a word: a silent server.
/// (Listening is enough: the kernel completes the handshake for the queue, so the client connects and waits.)
final class SilentServer {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw PeerError("cannot listen on the loopback") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}

/// Runs `script` with bash in `directory` (for real pipes: `cat clip | layerplay - …`), killed after `timeout`
/// seconds (recorded as a failure). `LAYERPLAY` in the script is the binary under test.
func runShell(_ script: String, in directory: URL, timeout: TimeInterval = 60,
              sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
    guard let binary = layerplayBinary else {
        Issue.record("cannot find the layerplay binary", sourceLocation: sourceLocation)
        return RunResult(status: -1, stdout: "", stderr: "")
    }
    let out = directory.appendingPathComponent(".shell-stdout-\(UUID().uuidString)"), err = directory.appendingPathComponent(".shell-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["LAYERPLAY"] = binary.path
    process.environment = env
    process.standardInput = FileHandle.nullDevice
    guard let o = try? FileHandle(forWritingTo: out), let e = try? FileHandle(forWritingTo: err) else { return RunResult(status: -1, stdout: "", stderr: "") }
    process.standardOutput = o
    process.standardError = e
    do { try process.run() } catch {
        Issue.record("cannot run bash: \(error)", sourceLocation: sourceLocation)
        return RunResult(status: -1, stdout: "", stderr: "")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while process.isRunning {
        if Date() > deadline { timedOut = true; kill(process.processIdentifier, SIGKILL); break }
        usleep(5_000)
    }
    process.waitUntilExit()
    try? o.close(); try? e.close()
    if timedOut { Issue.record("bash -c \(script) did not finish within \(Int(timeout)) s", sourceLocation: sourceLocation) }
    return RunResult(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                     stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "", timedOut: timedOut)
}

/// What ffprobe counts in `file`'s first video stream: decoded frames, and the stream's duration in seconds.
func probeVideo(_ file: String, in directory: URL) throws -> (frames: Int, duration: Double) {
    let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                   "stream=nb_read_frames,duration:format=duration", "-of", "default=nw=1", file], in: directory)
    var frames = 0, duration = 0.0
    for line in out.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        if parts[0] == "nb_read_frames" { frames = Int(parts[1]) ?? 0 }
        if parts[0] == "duration", let d = Double(parts[1]), duration == 0 { duration = d }
    }
    return (frames, duration)
}

/// Whether `file` has an audio stream (ffprobe).
func hasAudio(_ file: String, in directory: URL) throws -> Bool {
    try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_type", "-of", "csv=p=0", file],
                             in: directory).contains("audio")
}

/// A Python HTTP server on a free loopback port that serves `file` as `/clip` but cuts every request from the start
/// after half of its bytes (the headers promise all of them); a request with a `Range` (a reconnect) gets the rest
/// (206), as a server behind a flaky link.
func startCuttingHTTPServer(file: URL, in directory: URL) throws -> (server: PeerProcess, port: Int) {
    let port = freeLoopbackPort()
    let script = """
        import http.server, os, sys
        path, port = sys.argv[1], int(sys.argv[2])
        data = open(path, 'rb').read()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            def do_GET(self):
                start = 0
                r = self.headers.get('Range')
                if r and r.startswith('bytes='):
                    start = int(r[6:].split('-')[0] or 0)
                self.send_response(206 if start else 200)
                self.send_header('Content-Type', 'video/mp2t')
                self.send_header('Accept-Ranges', 'bytes')
                self.send_header('Content-Length', str(len(data) - start))
                if start:
                    self.send_header('Content-Range', 'bytes %d-%d/%d' % (start, len(data) - 1, len(data)))
                self.end_headers()
                if not start:
                    self.wfile.write(data[:len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.wfile.write(data[start:])
            def log_message(self, *a):
                sys.stderr.write('GET %s\\n' % self.headers.get('Range'))
        http.server.ThreadingHTTPServer(('127.0.0.1', port), H).serve_forever()
        """
    let scriptURL = directory.appendingPathComponent("cutting_server.py")
    try script.write(to: scriptURL, atomically: true, encoding: .utf8)
    let server = try PeerProcess("python3", [scriptURL.path, file.path, String(port)], in: directory, name: "cutting-\(port)")
    guard server.waitListening(on: port) else { throw PeerError("the cutting server did not start: \(server.logText)") }
    return (server, port)
}

/// A peer that could not be started.
struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
