import Foundation
import LayerGraphics
import Testing
import TestSupport

@Suite("layerplay export")
struct ExportCLITests {
    @Test func aTranscodeWithEffectsWritesAMovieAndStatistics() throws {
        try withTemporaryDirectory { dir in
            let r = runLayerplay([mediaSample("clip.mp4"), "--rotate", "20", "--corner-radius", "10", "--shadow", "--spin", "4",
                                  "--duration", "0.4", "--stats", "-o", "out.mp4"], in: dir)
            #expect(r.status == 0, "\(r)")
            let line = try #require(r.stderr.split(separator: "\n").last)
            let stats = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(stats["frames_rendered"] as? Int == 10)
            for key in ["frames_dropped", "duration_s", "render_ms_p50", "render_ms_p99", "fps"] { #expect(stats[key] != nil, "\(key)") }
            let probe = runLayerplay(["probe", "out.mp4"], in: dir)
            expectSuccess(probe)
            #expect(probe.stdout.contains("\"codec\" : \"h264\"") && probe.stdout.contains("\"codec\" : \"aac\""))
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    @Test func webmReencodesTheAudioAsOpus() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.4", "-o", "out.webm"], in: dir))
            let probe = runLayerplay(["probe", "out.webm"], in: dir)
            expectSuccess(probe)
            #expect(probe.stdout.contains("\"codec\" : \"vp9\"") && probe.stdout.contains("\"codec\" : \"opus\""), "\(probe.stdout)")
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2", "--no-audio", "-o", "silent.webm"], in: dir))
            let silent = runLayerplay(["probe", "silent.webm"], in: dir)
            #expect(!silent.stdout.contains("\"audio\""))
        }
    }

    @Test func aStillInputNeedsADuration() throws {
        try withTemporaryDirectory { dir in
            _ = try writeQuadrantsPNG(in: dir)
            expectRunFailure(runLayerplay(["in.png", "-o", "out.mp4"], in: dir), absentOutput: dir.appendingPathComponent("out.mp4"),
                             directory: dir, mentions: ["--duration"])
            expectSuccess(runLayerplay(["in.png", "--duration", "0.2", "-o", "out.mp4"], in: dir))
        }
    }

    @Test func ctrlCStopsAnExportAndLeavesNothing() throws {
        try withTemporaryDirectory { dir in
            guard let binary = layerplayBinary else { Issue.record("no layerplay binary"); return }
            let process = Process()
            process.executableURL = binary
            // Minutes of output: still running when the signal comes however fast the machine (the 2 s clip was
            // done before it on a quiet one).
            process.arguments = [mediaSample("card.png"), "--duration", "600", "--size", "1280x720", "--shadow", "--rotate",
                                 "-o", "out.mp4"]
            process.currentDirectoryURL = dir
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(700_000)
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { process.terminate(); Issue.record("the export did not stop after SIGINT") }
            #expect(process.terminationStatus != 0)
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "left: \(left)")
        }
    }
}

@Suite("layerplay with damaged input")
struct DamagedInputTests {
    /// clip.mp4 with bytes of its media data overwritten (the index, stored first, stays readable),
    /// or cut at 60 %: what can be decoded is exported; the process never crashes or hangs.
    @Test(arguments: ["corrupted", "truncated"])
    func damagedVideoExportsWhatCanBeDecoded(_ kind: String) throws {
        try withTemporaryDirectory { dir in
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mediaSample("clip.mp4"))))
            let mdat = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == [0x6d, 0x64, 0x61, 0x74] })
            if kind == "corrupted" {
                var g = SplitMix(state: 3)
                for _ in 0..<300 { bytes[Int(g.next() % UInt64(bytes.count - mdat - 64)) + mdat + 64] = UInt8(truncatingIfNeeded: g.next()) }
            } else {
                bytes = Array(bytes.prefix(bytes.count * 6 / 10))
            }
            try Data(bytes).write(to: dir.appendingPathComponent("damaged.mp4"))
            let r = runLayerplay(["damaged.mp4", "--rotate", "10", "-o", "out.mp4"], in: dir, timeout: 120)
            #expect(!r.timedOut)
            if r.status == 0 {
                let probe = runLayerplay(["probe", "out.mp4"], in: dir)
                expectSuccess(probe)
            } else {
                expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir)
            }
            #expect(partialFiles(in: dir).isEmpty)
        }
    }
}


@Suite("layerplay image sequences")
struct ImageSequenceTests {
    @Test func aPatternWritesOnePicturePerFrameAndNothingElse() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2", "--rotate", "10", "-o", "f_%03d.png"], in: dir))
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            #expect(files == ["f_001.png", "f_002.png", "f_003.png", "f_004.png", "f_005.png"])
            let first = try #require(readPNG(dir.appendingPathComponent("f_001.png")))
            #expect(first.width == 320 && first.height == 180)
            let again = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2", "-o", "f_%03d.png"], in: dir)
            #expect(again.status == 1 && again.stderr.contains("f_001.png"))
        }
    }
}
