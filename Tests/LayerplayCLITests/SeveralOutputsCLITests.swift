import Foundation
import LayerGraphics
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `-o` more than once (issue 28, CLI.md "Several outputs"): one render encoded into a file, a playlist, a stream and
/// a still, each decoded back; per-output settings; a failing output stops the run and leaves no file anywhere.
@Suite("layerplay several outputs", .serialized)
struct SeveralOutputsCLITests {
    let clip = mediaSample("clip.mp4")

    /// Frame `n` of `file`'s video as an image (ffmpeg decodes it to PNG).
    func frame(_ n: Int, of file: String, in dir: URL) throws -> Image {
        let png = "\(file.replacingOccurrences(of: "/", with: "_"))-\(n).png"
        _ = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-y", "-i", file, "-vf", "select=eq(n\\,\(n))", "-frames:v", "1", png], in: dir)
        return try Image(contentsOfPNG: dir.appendingPathComponent(png).path)
    }

    /// The mean difference of two same-sized pictures per channel (0…255).
    func meanDifference(_ a: Image, _ b: Image) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var sum = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                sum += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(sum) / Double(3 * a.width * a.height)
    }

    /// The video packets' presentation times in seconds, in order (ffprobe).
    func videoTimes(_ file: String, in dir: URL) throws -> [Double] {
        try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file], in: dir)
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) }  // side data adds commas
    }

    @Test func oneRenderGoesToAFileAPlaylistAndAStill() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("hls"), withIntermediateDirectories: true)
            let r = runLayerplay([clip, "--rotate", "15", "--duration", "1", "-o", "master.mp4", "-o", "hls/index.m3u8", "-o", "thumb.png",
                                  "--output-opt", "1:hls-time=0.5", "--output-opt", "1:crf=30", "--at", "0.4"], in: dir)
            expectSuccess(r)
            #expect(try probeVideo("master.mp4", in: dir).frames == 25)
            #expect(try probeVideo("hls/index.m3u8", in: dir).frames == 25)
            #expect(try hasAudio("master.mp4", in: dir) && hasAudio("hls/index.m3u8", in: dir))
            let playlist = try String(contentsOf: dir.appendingPathComponent("hls/index.m3u8"), encoding: .utf8)
            let segments = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            #expect(segments.count == 2, "hls-time 0.5 of output 1: \(playlist)")
            // The same frames at the same times: 0, 0.04, … in both (the playlist's MPEG-TS starts at its own offset).
            let fileTimes = try videoTimes("master.mp4", in: dir), hlsTimes = try videoTimes("hls/index.m3u8", in: dir)
            #expect(fileTimes.count == 25 && hlsTimes.count == 25)
            if let f0 = fileTimes.first, let h0 = hlsTimes.first {
                #expect(zip(fileTimes, hlsTimes).allSatisfy { abs(($0 - f0) - ($1 - h0)) < 0.002 }, "\(fileTimes) \(hlsTimes)")
                #expect(abs(f0) < 0.001 && abs(fileTimes.last! - 0.96) < 0.002, "\(fileTimes)")
            }
            // Equal pictures across the outputs, within the codecs' tolerance (crf 20 and 30; the still is lossless).
            // (The playlist's pictures are copied from the master's planes, converted once: nearer to the same frame
            // than to the one before, so no copy is a frame late.)
            for n in [0, 10, 24] {
                let a = try frame(n, of: "master.mp4", in: dir), b = try frame(n, of: "hls/index.m3u8", in: dir)
                #expect(meanDifference(a, b) < 3, "frame \(n): \(meanDifference(a, b))")
                if n > 0 {
                    let before = try frame(n - 1, of: "hls/index.m3u8", in: dir)
                    #expect(meanDifference(a, b) < meanDifference(a, before), "frame \(n): \(meanDifference(a, b)) vs \(meanDifference(a, before))")
                }
            }
            // The still is frame 10 (--at 0.4 s at 25 frames/s) of the same render: nearer to it than to its neighbours
            // (the still is lossless, the movie's 4:2:0 x264 frame measured 3.2 from it, its neighbours 4.1 and 4.3, frame 0 9.7).
            let still = try #require(readPNG(dir.appendingPathComponent("thumb.png")))
            let distances = try [0, 9, 10, 11].map { meanDifference(still, try frame($0, of: "master.mp4", in: dir)) }
            #expect(distances[2] < 4 && distances[2] < distances[1] && distances[2] < distances[3] && distances[2] < distances[0] / 2, "\(distances)")
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    @Test func aFileAndAnRTMPIngestAtTheirOwnBitrates() throws {
        try withTemporaryDirectory { dir in
            let port = freeLoopbackPort()
            let url = "rtmp://127.0.0.1:\(port)/live/x"
            let ingest = try PeerProcess("ffmpeg", ["-nostdin", "-v", "error", "-listen", "1", "-i", url, "-c", "copy", "-y", "got.flv"],
                                         in: dir, name: "ingest")
            defer { ingest.stop() }
            #expect(StreamOutputCLITests().waitForTCPListener(port: port), "\(ingest.logText)")
            let r = runLayerplay([clip, "--duration", "1", "-o", "master.mkv", "-o", url, "--output-opt", "1:bitrate=200k",
                                  "--output-opt", "1:no-audio", "--stats"], in: dir)
            #expect(r.status == 0, "\(r)")
            // The stream paces the run at real time (its input is a file): the file is written at the same pace.
            let stats = try #require(r.stderrLines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            #expect((stats["duration_s"] as? Double ?? 0) >= 0.9, "\(stats)")
            #expect(ingest.wait(seconds: 20) == 0, "\(ingest.logText)")
            #expect(try probeVideo("got.flv", in: dir).frames == 25)
            #expect(try probeVideo("master.mkv", in: dir).frames == 25)
            #expect(try hasAudio("master.mkv", in: dir))
            #expect(try !hasAudio("got.flv", in: dir), "1:no-audio")
            let a = try frame(12, of: "master.mkv", in: dir), b = try frame(12, of: "got.flv", in: dir)
            #expect(meanDifference(a, b) < 6, "\(meanDifference(a, b))")
        }
    }

    @Test func anOutputThatFailsLeavesNoFileAtTheOthers() throws {
        try withTemporaryDirectory { dir in
            // Refused at the start: nothing is written anywhere.
            let dead = runLayerplay([clip, "--duration", "1", "-o", "a.mp4", "-o", "rtmp://127.0.0.1:\(freeLoopbackPort())/live/x"], in: dir, timeout: 15)
            expectRunFailure(dead, absentOutput: dir.appendingPathComponent("a.mp4"), directory: dir, mentions: ["Connection refused"])
            // Mid-run: the reader of the pipe leaves after 100 bytes; the file and the still are not put in place.
            let r = runShell("\"$LAYERPLAY\" '\(clip)' -o a.mp4 -o - --output-opt 1:format=mpegts -o t.jpg 2>err.txt | head -c 100 >/dev/null; "
                             + "echo \"status=${PIPESTATUS[0]}\"", in: dir)
            #expect(r.stdout.contains("status=1"), "\(r)")
            let lines = try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("layerplay: error:") && lines[0].contains("Broken pipe"), "\(lines)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(!names.contains("a.mp4") && !names.contains("t.jpg") && partialFiles(in: dir).isEmpty, "\(names)")
        }
    }

    @Test func anOutputOfItsOwnSizeIsTheCanvasScaled() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([clip, "--size", "320x240", "--rotate", "15", "--duration", "0.4", "-o", "big.mp4", "-o", "small.mkv",
                                        "-o", "small.png", "--output-opt", "1:size=160x120", "--output-opt", "2:size=80x60"], in: dir))
            let dims = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                            "-of", "csv=p=0", "small.mkv"], in: dir)
            #expect(dims.trimmingCharacters(in: .whitespacesAndNewlines) == "160,120", "\(dims)")
            #expect(try probeVideo("small.mkv", in: dir).frames == 10)
            // The same picture as the big one scaled down (by ffmpeg here), within the codec's and scalers' tolerance.
            _ = try SubtitleFixtures.run("ffmpeg", ["-v", "error", "-y", "-i", "big.mp4", "-vf", "scale=160:120:flags=bicubic", "big-scaled.mkv"], in: dir)
            let a = try frame(5, of: "small.mkv", in: dir), b = try frame(5, of: "big-scaled.mkv", in: dir)
            #expect(meanDifference(a, b) < 4, "\(meanDifference(a, b))")
            let still = try #require(readPNG(dir.appendingPathComponent("small.png")))
            #expect(still.width == 80 && still.height == 60)
            expectRunFailure(runLayerplay([clip, "-o", "a.mp4", "-o", "b.mkv", "--output-opt", "1:size=big"], in: dir), mentions: ["WxH"])
        }
    }

    @Test func ctrlCLeavesNoFileAndTheWholeSegments() throws {
        try withTemporaryDirectory { dir in
            let lines = try interruptOnceASegmentIsWritten([clip, "--realtime", "-o", "a.mp4", "-o", "cut.m3u8", "-o", "t.png", "--hls-time", "0.4"], in: dir)
            #expect(lines.count == 1 && lines[0] == "layerplay: error: interrupted by SIGINT; 'a.mp4', 't.png' were not written; 'cut.m3u8' ends where it was",
                    "\(lines)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "err.txt" }
            let playlist = try String(contentsOf: dir.appendingPathComponent("cut.m3u8"), encoding: .utf8)
            let listed = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            #expect(!listed.isEmpty && Set(names) == Set(listed + ["cut.m3u8"]), "no file, no temporary, nothing unlisted: \(names) vs \(listed)")
        }
    }

    @Test func aSceneRunHasSeveralOutputsToo() throws {
        try withTemporaryDirectory { dir in
            let scene = """
            {"version": "1.0", "canvas": {"size": "160x90", "duration": 0.4},
             "inputs": {"main": {"src": "\(clip)"}},
             "layers": [{"id": "card", "type": "media", "input": "main", "transform": {"rotation": 10}}]}
            """
            try scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            expectSuccess(runLayerplay(["s.json", "--fps", "25", "-o", "a.mp4", "-o", "b.mkv", "-o", "t.jpg",
                                        "--output-opt", "1:crf=35", "--output-opt", "2:size=80x46"], in: dir))
            #expect(try probeVideo("a.mp4", in: dir).frames == 10 && probeVideo("b.mkv", in: dir).frames == 10)
            let a = try frame(5, of: "a.mp4", in: dir), b = try frame(5, of: "b.mkv", in: dir)
            #expect(meanDifference(a, b) < 4, "\(meanDifference(a, b))")
            let still = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", "t.jpg"], in: dir)
            #expect(still.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,80,46", "\(still)")
            // An existing output without -y, and a scene's input as an output, are one line each; nothing is written.
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("c.mkv").path, contents: Data([1]))
            expectRunFailure(runLayerplay(["s.json", "-o", "d.mp4", "-o", "c.mkv"], in: dir), absentOutput: dir.appendingPathComponent("d.mp4"),
                             mentions: ["-y"])
            expectRunFailure(runLayerplay(["s.json", "-o", "d.mp4", "-o", clip, "-y"], in: dir), absentOutput: dir.appendingPathComponent("d.mp4"),
                             mentions: ["the scene's input"])
        }
    }

    @Test func contradictionsAreOneLine() throws {
        try withTemporaryDirectory { dir in
            let two = [clip, "--duration", "1", "-o", "a.mp4", "-o", "b.mkv"]
            expectRunFailure(runLayerplay(two + ["--output-opt", "2:crf=30"], in: dir), mentions: ["2:crf=30", "numbered from 0"])
            expectRunFailure(runLayerplay(two + ["--output-opt", "1:colour=red"], in: dir), mentions: ["colour"])
            expectRunFailure(runLayerplay(two + ["--output-opt", "1:crf=99"], in: dir), mentions: ["crf"])
            expectRunFailure(runLayerplay(two + ["--output-opt", "1:bitrate=fast"], in: dir), mentions: ["bitrate"])
            expectRunFailure(runLayerplay(two + ["--format", "matroska"], in: dir), mentions: ["--output-opt N:format"])
            expectRunFailure(runLayerplay(two + ["--two-pass"], in: dir), mentions: ["--two-pass"])
            expectRunFailure(runLayerplay(two + ["--hls-time", "1"], in: dir), mentions: ["--hls-time"])
            expectRunFailure(runLayerplay(two + ["--output-opt", "0:hls-time=1"], in: dir), mentions: ["hls-time"])
            expectRunFailure(runLayerplay([clip, "-o", "a.mp4", "-o", "./a.mp4"], in: dir), mentions: ["same output"])
            expectRunFailure(runLayerplay([clip, "-o", "a.mp4", "-o", "t.png", "--output-opt", "1:crf=3"], in: dir), mentions: ["still"])
            expectRunFailure(runLayerplay([clip, "-o", "a.mp4", "-o", "f_%03d.png"], in: dir), mentions: ["sequence"])
            // With one output (or none) --output-opt is not silently dropped: a usage error naming the flag to use.
            let one = runLayerplay([clip, "-o", "a.mp4", "--output-opt", "0:crf=30"], in: dir)
            #expect(one.status == 2 && one.stderr.contains("--crf") && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.mp4").path), "\(one)")
            // An existing output without -y is refused before anything is written (here the second).
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("b.mkv").path, contents: Data([1]))
            expectRunFailure(runLayerplay(two, in: dir), absentOutput: dir.appendingPathComponent("a.mp4"), mentions: ["-y"])
            #expect(partialFiles(in: dir).isEmpty)
        }
    }

    @Test func progressOnStandardOutputBesideAStreamThereIsRefused() throws {
        try withTemporaryDirectory { dir in
            expectRunFailure(runLayerplay([clip, "--progress", "-", "-o", "-", "--format", "mpegts"], in: dir), mentions: ["standard output"])
            expectRunFailure(runLayerplay([clip, "--progress", "pipe:1", "-o", "a.mp4", "-o", "pipe:1", "--output-opt", "1:format=nut"], in: dir),
                             mentions: ["standard output"])
        }
    }

    @Test func progressReportsTheRunOnce() throws {
        try withTemporaryDirectory { dir in
            expectSuccess(runLayerplay([clip, "--duration", "1", "--progress", "p.txt", "-o", "a.mp4", "-o", "b.mkv"], in: dir))
            let blocks = progressBlocks(try String(contentsOf: dir.appendingPathComponent("p.txt"), encoding: .utf8))
            let frames = blocks.compactMap { b in b.first { $0.key == "frame" }.flatMap { Int($0.value) } }
            #expect(frames.last == 25 && frames == frames.sorted(), "\(frames)")
            #expect(blocks.filter { $0.last?.value == "end" }.count == 1)
            // total_size is the first output's, as ffmpeg's report.
            let size = (try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("a.mp4").path))[.size] as? Int
            #expect(blocks.last?.first { $0.key == "total_size" }?.value == size.map(String.init))
        }
    }

    @Test func twoPassesReportTheSecondPassOnly() throws {
        try withTemporaryDirectory { dir in
            // Several blocks in each pass, pass 2 slower than pass 1 (x264's fast first pass, preset slower): reporting
            // both, the blocks went 1, 36, 68, then back to 30 when pass 2 caught up with pass 1's clock (seen failing).
            expectSuccess(runLayerplay([mediaSample("ship.mp4"), "--size", "1280x720", "--rotate", "20", "--preset", "slower",
                                        "--two-pass", "--bitrate", "1M",
                                        "--progress", "p.txt", "-o", "out.mp4"], in: dir))
            let blocks = progressBlocks(try String(contentsOf: dir.appendingPathComponent("p.txt"), encoding: .utf8))
            let frames = blocks.compactMap { b in b.first { $0.key == "frame" }.flatMap { Int($0.value) } }
            #expect(frames.count >= 2 && frames.last == 75 && frames == frames.sorted(), "\(frames)")
            #expect(blocks.filter { $0.last?.value == "end" }.count == 1)
        }
    }
}
