import Foundation
import Testing
import TestSupport

/// The dominant frequency of a file's first audio stream, from its zero crossings (mono, 8 kHz, the first second).
func toneFrequency(_ file: String, in dir: URL) throws -> Double {
    try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", file, "-map", "0:a:0", "-t", "1", "-ac", "1", "-ar", "8000",
                                        "-f", "s16le", "tone.raw"], in: dir)
    let data = try Data(contentsOf: dir.appendingPathComponent("tone.raw"))
    let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    var crossings = 0
    for (a, b) in zip(samples, samples.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
    return Double(crossings) / 2 / (Double(samples.count) / 8000)
}

@Suite("layerplay stream choice")
struct StreamChoiceCLITests {
    /// 1 s: a red and a blue video stream, and a 440 Hz and a 1000 Hz audio stream.
    func makeInput(in dir: URL) throws {
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y",
                                            "-f", "lavfi", "-i", "color=c=red:size=64x48:rate=25:duration=1",
                                            "-f", "lavfi", "-i", "color=c=blue:size=64x48:rate=25:duration=1",
                                            "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                            "-f", "lavfi", "-i", "sine=frequency=1000:duration=1",
                                            "-map", "0", "-map", "1", "-map", "2", "-map", "3",
                                            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "multi.mkv"], in: dir)
    }

    @Test func audioStreamPicksTheToneOfAnExport() throws {
        try withTemporaryDirectory { dir in
            try makeInput(in: dir)
            expectSuccess(runLayerplay(["multi.mkv", "-o", "first.mkv"], in: dir))
            expectSuccess(runLayerplay(["multi.mkv", "--audio-stream", "1", "-o", "second.mkv"], in: dir))
            // Re-encoded too (the transcoder reads the chosen stream, not only the packet copier).
            expectSuccess(runLayerplay(["multi.mkv", "--audio-stream", "1", "--audio-codec", "flac", "-o", "second-flac.mkv"], in: dir))
            let first = try toneFrequency("first.mkv", in: dir), second = try toneFrequency("second.mkv", in: dir)
            #expect(abs(first - 440) < 30, "the default is the first stream: \(first) Hz")
            #expect(abs(second - 1000) < 30, "--audio-stream 1: \(second) Hz")
            #expect(abs(try toneFrequency("second-flac.mkv", in: dir) - 1000) < 30)
        }
    }

    @Test func videoStreamPicksThePicture() throws {
        try withTemporaryDirectory { dir in
            try makeInput(in: dir)
            expectSuccess(runLayerplay(["multi.mkv", "--video-stream", "1", "--at", "0.5", "-o", "blue.png"], in: dir))
            expectSuccess(runLayerplay(["multi.mkv", "--at", "0.5", "-o", "red.png"], in: dir))
            if let blue = readPNG(dir.appendingPathComponent("blue.png")) { expectPixel(blue, 32, 24, is: .blue, tolerance: 12) }
            if let red = readPNG(dir.appendingPathComponent("red.png")) { expectPixel(red, 32, 24, is: .red, tolerance: 12) }
            // In a movie too.
            expectSuccess(runLayerplay(["multi.mkv", "--video-stream", "1", "--duration", "0.4", "-o", "blue.mp4"], in: dir))
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", "blue.mp4", "-frames:v", "1", "frame.png"], in: dir)
            if let frame = readPNG(dir.appendingPathComponent("frame.png")) { expectPixel(frame, 32, 24, is: .blue, tolerance: 16) }
        }
    }

    @Test func aWindowPlaysTheChosenStreams() throws {
        try withTemporaryDirectory { dir in
            try makeInput(in: dir)
            let r = runLayerplay(["multi.mkv", "--video-stream", "1", "--audio-stream", "1", "--duration", "0.3", "--stats"], in: dir,
                                 environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"])
            #expect(r.status == 0, "\(r)")
        }
    }

    @Test func probeListsEveryStreamWithItsIndexAndNumber() throws {
        try withTemporaryDirectory { dir in
            try makeInput(in: dir)
            let r = runLayerplay(["probe", "multi.mkv"], in: dir)
            expectSuccess(r)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let streams = try #require(json["streams"] as? [[String: Any]])
            let listed = streams.map { "\($0["index"] as? Int ?? -1):\($0["type"] as? String ?? "?"):\($0["number"] as? Int ?? -1)" }
            #expect(listed == ["0:video:0", "1:video:1", "2:audio:0", "3:audio:1"], "\(listed)")
        }
    }

    @Test func aStreamThatIsNotThereIsOneErrorLine() throws {
        try withTemporaryDirectory { dir in
            try makeInput(in: dir)
            expectRunFailure(runLayerplay(["multi.mkv", "--audio-stream", "2", "-o", "x.mkv"], in: dir),
                             absentOutput: dir.appendingPathComponent("x.mkv"), directory: dir, mentions: ["--audio-stream 2", "2 audio streams"])
            expectRunFailure(runLayerplay([mediaSample("tone.m4a"), "--video-stream", "0", "-o", "y.mkv"], in: dir),
                             absentOutput: dir.appendingPathComponent("y.mkv"), directory: dir, mentions: ["no video stream"])
            expectUsageError(runLayerplay(["multi.mkv", "--audio-stream", "-1", "-o", "z.mkv"], in: dir))
        }
    }
}
