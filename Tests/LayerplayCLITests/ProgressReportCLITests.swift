import Foundation
import Testing
import TestSupport

/// Reads ffmpeg's `-progress` format as its parsers do: `key=value` lines, a block closed by `progress=…`.
func progressBlocks(_ text: String) -> [[(key: String, value: String)]] {
    var blocks: [[(key: String, value: String)]] = [], current: [(key: String, value: String)] = []
    for line in text.split(separator: "\n") {
        guard let eq = line.firstIndex(of: "=") else { continue }
        current.append((String(line[..<eq]), String(line[line.index(after: eq)...])))
        if line.hasPrefix("progress=") { blocks.append(current); current = [] }
    }
    return blocks
}

@Suite("layerplay --progress")
struct ProgressReportCLITests {
    /// ffmpeg 5.1's keys, in its order.
    static let keys = ["frame", "fps", "stream_0_0_q", "bitrate", "total_size", "out_time_us", "out_time_ms", "out_time",
                       "dup_frames", "drop_frames", "speed", "progress"]

    func check(_ text: String, frames: Int, fileSize: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let blocks = progressBlocks(text)
        #expect(!blocks.isEmpty, "no blocks in \(text.debugDescription)", sourceLocation: sourceLocation)
        for block in blocks { #expect(block.map(\.key) == Self.keys, "\(block)", sourceLocation: sourceLocation) }
        #expect(blocks.dropLast().allSatisfy { $0.last?.value == "continue" } && blocks.last?.last?.value == "end", sourceLocation: sourceLocation)
        guard let last = blocks.last.map({ Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) }) else { return }
        #expect(last["frame"] == "\(frames)", "\(last)", sourceLocation: sourceLocation)
        #expect(last["out_time_us"] == "\(frames * 40_000)" && last["out_time"] == String(format: "00:00:%02d.%06d", frames * 40_000 / 1_000_000, frames * 40_000 % 1_000_000),
                "\(last)", sourceLocation: sourceLocation)
        #expect(last["total_size"] == "\(fileSize)", "\(last) for a file of \(fileSize) bytes", sourceLocation: sourceLocation)
        #expect(last["bitrate"]?.hasSuffix("kbits/s") == true && last["speed"]?.hasSuffix("x") == true, "\(last)", sourceLocation: sourceLocation)
        // Frames never go back within one pass.
        let counts = blocks.compactMap { b in b.first { $0.key == "frame" }.flatMap { Int($0.value) } }
        #expect(counts == counts.sorted(), "\(counts)", sourceLocation: sourceLocation)
    }

    func size(_ file: String, in dir: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(file).path))?[.size] as? Int) ?? -1
    }

    @Test func aFileGetsFfmpegsBlocksEndingWithEnd() throws {
        try withTemporaryDirectory { dir in
            // 3 s at 1280x720: long enough on any machine for blocks before the end.
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--size", "1280x720", "--rotate", "20", "--progress", "p.txt", "-o", "out.mp4"], in: dir))
            let text = try String(contentsOf: dir.appendingPathComponent("p.txt"), encoding: .utf8)
            check(text, frames: 75, fileSize: size("out.mp4", in: dir))
        }
    }

    @Test func dashWritesToStandardOutput() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "1", "--progress", "-", "-o", "out.mkv"], in: dir)
            expectSuccess(r)
            check(r.stdout, frames: 25, fileSize: size("out.mkv", in: dir))
        }
    }

    @Test func aTCPListenerReadsTheReport() throws {
        try withTemporaryDirectory { dir in
            // A real peer: a Python listener that saves what it receives.
            let script = """
            import socket, sys
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
            print(s.getsockname()[1], flush=True)
            c, _ = s.accept(); data = b""
            while True:
                b = c.recv(65536)
                if not b: break
                data += b
            open("got.txt", "wb").write(data)
            """
            let listener = Process()
            listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            listener.arguments = ["-c", script]
            listener.currentDirectoryURL = dir
            let out = Pipe()
            listener.standardOutput = out
            try listener.run()
            defer { if listener.isRunning { listener.terminate() } }
            var portText = ""
            while !portText.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                portText += String(decoding: chunk, as: UTF8.self)
            }
            let port = try #require(Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)))
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "1", "--progress", "tcp://127.0.0.1:\(port)", "-o", "out.mp4"], in: dir))
            listener.waitUntilExit()
            check(try String(contentsOf: dir.appendingPathComponent("got.txt"), encoding: .utf8), frames: 25, fileSize: size("out.mp4", in: dir))
        }
    }

    @Test func anUnwritableTargetIsOneErrorLine() throws {
        try withTemporaryDirectory { dir in
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--progress", "nodir/p.txt", "-o", "out.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["nodir/p.txt"])
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "--progress", "tcp://127.0.0.1:1", "-o", "out.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["tcp://127.0.0.1:1"])
        }
    }
}
