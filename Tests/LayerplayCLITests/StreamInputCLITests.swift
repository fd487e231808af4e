import Foundation
import Testing
import TestSupport

/// Inputs that are not one local file (issue 28, CLI.md "Streams"): URLs read from a real HTTP server, standard input
/// through a real pipe, numbered pictures; dead and silent servers end in one line, never a hang.
@Suite("layerplay stream inputs", .serialized)
struct StreamInputCLITests {
    /// The sample (2 s, 25 frames/s, with sound) copied into `dir`.
    func copyClip(into dir: URL) throws {
        try FileManager.default.copyItem(atPath: mediaSample("clip.mp4"), toPath: dir.appendingPathComponent("clip.mp4").path)
    }

    @Test func anHTTPURLIsReadLikeAFile() throws {
        try withTemporaryDirectory { dir in
            try copyClip(into: dir)
            let (server, port) = try startHTTPServer(serving: dir)
            defer { server.stop() }
            let url = "http://127.0.0.1:\(port)/clip.mp4"
            let r = runLayerplay([url, "--rotate", "20", "-o", "out.mp4"], in: dir)
            expectSuccess(r)
            let video = try probeVideo("out.mp4", in: dir)
            #expect(video.frames == 50, "\(video)")
            #expect(try hasAudio("out.mp4", in: dir))
            // probe takes the URL too
            let probe = runLayerplay(["probe", url], in: dir)
            expectSuccess(probe)
            #expect(probe.stdout.contains("\"codec\" : \"h264\""))
        }
    }

    @Test func standardInputIsReadThroughAPipe() throws {
        try withTemporaryDirectory { dir in
            try copyClip(into: dir)
            // An MP4 (its index may come last: the pipe is kept, so it can seek) and an MPEG-TS, whose length is
            // unknown while the pipe is open: both whole, with their sound.
            let mp4 = runShell("cat clip.mp4 | \"$LAYERPLAY\" - -o out.mp4", in: dir)
            expectSuccess(mp4)
            #expect(try probeVideo("out.mp4", in: dir).frames == 50)
            #expect(try hasAudio("out.mp4", in: dir))
            let ts = runShell("ffmpeg -nostdin -v error -i clip.mp4 -c copy -f mpegts - | \"$LAYERPLAY\" pipe:0 -o ts.mp4", in: dir)
            expectSuccess(ts)
            // Probed once the pipe ended, the TS's length counts from its first stream (the sound starts 0.023 s
            // before the picture): 2.023 s, 51 frames, as `layerplay clip.ts` makes; probed while it still flows, it
            // is live and the export stops with its last picture: 50. Which one depends on the machine's timing.
            let frames = try probeVideo("ts.mp4", in: dir).frames
            #expect((50...51).contains(frames), "\(frames)")
            #expect(try hasAudio("ts.mp4", in: dir))
        }
    }

    @Test func aLivePipeEndsWhereItsStreamEnds() throws {
        try withTemporaryDirectory { dir in
            // Real time and no duration anywhere: the export follows the stream's own clock to its end. (7 s: longer
            // than probing reads, 5 s, so the length is still unknown when the export starts.)
            let live = runShell("ffmpeg -nostdin -v error -re -f lavfi -i testsrc2=size=160x120:rate=10 -t 7 -c:v mpeg2video -f mpegts - "
                                + "| \"$LAYERPLAY\" - -o live.mp4", in: dir)
            expectSuccess(live)
            let frames = try probeVideo("live.mp4", in: dir).frames
            #expect(frames == 70)
            // It cannot be started later: no seeking in a live stream.
            let start = runShell("ffmpeg -nostdin -v error -re -f lavfi -i testsrc2=size=160x120:rate=10 -t 7 -c:v mpeg2video -f mpegts - 2>/dev/null "
                                 + "| \"$LAYERPLAY\" - --start 0.5 -o late.mp4", in: dir)
            expectRunFailure(start, absentOutput: dir.appendingPathComponent("late.mp4"), directory: dir, mentions: ["live", "--start"])
        }
    }

    @Test func aRefusedConnectionIsOneLine() throws {
        try withTemporaryDirectory { dir in
            let port = freeLoopbackPort()
            let r = runLayerplay(["http://127.0.0.1:\(port)/clip.mp4", "-o", "out.mp4"], in: dir, timeout: 15)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["Connection refused"])
            let rtmp = runLayerplay(["rtmp://127.0.0.1:\(port)/live/x", "-o", "out.mp4"], in: dir, timeout: 15)
            expectRunFailure(rtmp, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["rtmp://127.0.0.1"])
        }
    }

    @Test func aSilentServerTimesOutWithOneLine() throws {
        try withTemporaryDirectory { dir in
            let silent = try SilentServer()
            // The default timeout (10 s) ends it well inside 15 s; the harness kills and fails a hang.
            let r = runLayerplay(["http://127.0.0.1:\(silent.port)/clip.mp4", "-o", "out.mp4"], in: dir, timeout: 15)
            expectRunFailure(r, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["timed out"])
            let tcp = runLayerplay(["tcp://127.0.0.1:\(silent.port)", "--timeout", "1", "-o", "out.mp4"], in: dir, timeout: 15)
            expectRunFailure(tcp, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["timed out"])
        }
    }

    @Test func aStreamCutMidWayIsOneLineOrReconnects() throws {
        try withTemporaryDirectory { dir in
            // 20 s: probing reads its first 5 s, the cut comes at 10 s, mid-way through the decode.
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi",
                                                    "-i", "sine", "-t", "20", "-c:v", "mpeg2video", "-c:a", "mp2", "-f", "mpegts", "clip.ts"], in: dir)
            do {
                let (server, port) = try startCuttingHTTPServer(file: dir.appendingPathComponent("clip.ts"), in: dir)
                defer { server.stop() }
                let r = runLayerplay(["http://127.0.0.1:\(port)/clip", "-o", "cut.mp4"], in: dir, timeout: 30)
                expectRunFailure(r, absentOutput: dir.appendingPathComponent("cut.mp4"), directory: dir, mentions: ["http://127.0.0.1"])
            }
            let (server, port) = try startCuttingHTTPServer(file: dir.appendingPathComponent("clip.ts"), in: dir)
            defer { server.stop() }
            expectSuccess(runLayerplay(["http://127.0.0.1:\(port)/clip", "--reconnect", "-o", "whole.mp4"], in: dir, timeout: 30))
            #expect(try probeVideo("whole.mp4", in: dir).frames == 500)
            #expect(server.logText.contains("GET bytes="), "no ranged request again: \(server.logText)")
        }
    }

    @Test func numberedPicturesAreAVideoAtTheInputRate() throws {
        try withTemporaryDirectory { dir in
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10",
                                                    "-frames:v", "12", "frame_%04d.png"], in: dir)
            expectSuccess(runLayerplay(["frame_%04d.png", "--input-fps", "12", "-o", "out.mp4"], in: dir))
            let video = try probeVideo("out.mp4", in: dir)
            #expect(video.frames == 12, "\(video)")
            #expect(abs(video.duration - 1.0) < 0.05, "\(video)")
            // --input-fps belongs to a pattern; a missing pattern says so.
            expectRunFailure(runLayerplay([mediaSample("clip.mp4"), "--input-fps", "5", "-o", "x.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("x.mp4"), directory: dir, mentions: ["--input-fps"])
            expectRunFailure(runLayerplay(["none_%04d.png", "-o", "y.mp4"], in: dir),
                             absentOutput: dir.appendingPathComponent("y.mp4"), directory: dir, mentions: ["none_%04d.png"])
        }
    }

    @Test func aSceneOpensURLsOnlyWhenAllowed() throws {
        try withTemporaryDirectory { dir in
            try copyClip(into: dir)
            let (server, port) = try startHTTPServer(serving: dir)
            defer { server.stop() }
            let scene = """
                {"version": "1.0", "canvas": {"size": [320, 180], "duration": 0.4},
                 "inputs": {"main": {"src": "http://127.0.0.1:\(port)/clip.mp4"}},
                 "layers": [{"type": "media", "input": "main", "frame": [0, 0, 320, 180]}]}
                """
            try scene.write(to: dir.appendingPathComponent("net.json"), atomically: true, encoding: .utf8)
            let refused = runLayerplay(["net.json", "-o", "out.mp4"], in: dir)
            expectRunFailure(refused, absentOutput: dir.appendingPathComponent("out.mp4"), directory: dir, mentions: ["--allow-network"])
            // The refusal came before any request: the server saw none.
            #expect(!server.logText.contains("GET /clip.mp4"), "\(server.logText)")
            expectSuccess(runLayerplay(["net.json", "--allow-network", "-o", "out.mp4"], in: dir))
            #expect(try probeVideo("out.mp4", in: dir).frames == 10)
            // A pipe is refused the same way.
            try scene.replacingOccurrences(of: "http://127.0.0.1:\(port)/clip.mp4", with: "-")
                .write(to: dir.appendingPathComponent("pipe.json"), atomically: true, encoding: .utf8)
            expectRunFailure(runLayerplay(["pipe.json", "-o", "p.mp4"], in: dir), directory: dir, mentions: ["pipe"])
        }
    }

    @Test func newInputFlagsAreChecked() throws {
        try withTemporaryDirectory { dir in
            for args in [["--timeout", "0"], ["--timeout", "nan"], ["--input-fps", "-1"], ["--hls-time", "0"], ["--format", "a b"]] {
                let r = runLayerplay([mediaSample("clip.mp4")] + args + ["-o", "out.mp4"], in: dir)
                #expect(r.status == 2, "\(args): \(r)")
                #expect(r.stderrLines.count == 1, "\(args): \(r)")
            }
        }
    }
}
