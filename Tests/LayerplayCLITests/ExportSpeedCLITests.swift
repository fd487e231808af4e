import Foundation
import Testing
import TestSupport

/// `--speed X` on an export (issue 30 item 2, CLI.md): the movie lasts input / X, its frames sample the sped-up clock
/// and its sound is time-stretched with the pitch kept.
@Suite("Export speed")
struct ExportSpeedCLITests {
    /// Samples of each audio frame of `file`, added up.
    private func audioSamples(_ file: String, in dir: URL) throws -> Int {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "frame=nb_samples",
                                                       "-of", "csv=p=0", file], in: dir)
        return out.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
    }

    private func videoFrames(_ file: String, in dir: URL) throws -> Int {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                       "stream=nb_read_frames", "-of", "csv=p=0", file], in: dir)
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The tone's pitch: zero crossings a second of the first channel, halved (the sound decoded to 16-bit mono).
    private func pitch(_ file: String, in dir: URL) throws -> Double {
        let raw = dir.appendingPathComponent("\(UUID().uuidString).raw")
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:a", "-ac", "1", "-ar", "44100", "-f", "s16le", raw.path], in: dir)
        let data = try Data(contentsOf: raw)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // The middle, away from the fades of the encoder's edges.
        let middle = samples[samples.count / 4 ..< samples.count * 3 / 4]
        var crossings = 0
        for (a, b) in zip(middle, middle.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(middle.count) / 44100)
    }

    @Test(arguments: [2.0, 0.5])
    func theMovieLastsTheInputOverTheSpeedAndKeepsThePitch(speed: Double) throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.mkv").path
            let r = runLayerplay([mediaSample("clip.mp4"), "--speed", "\(speed)", "--audio-codec", "pcm_s16le", "-o", out], in: dir)
            #expect(r.status == 0, "\(r)")
            // clip.mp4: 2 s, 25 frames/s, 44.1 kHz.
            #expect(try videoFrames(out, in: dir) == Int(50 / speed), "frames at \(speed)×")
            #expect(try audioSamples(out, in: dir) == Int(2 * 44100 / speed), "samples at \(speed)×")
            let hz = try pitch(out, in: dir)
            #expect(abs(hz - 440) < 10, "the 440 Hz tone stays 440 Hz at \(speed)×: \(hz)")
        }
    }

    @Test func theFrameAtOutputTimeTIsTheNormalExportsFrameAt2T() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("fast"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("plain"), withIntermediateDirectories: true)
            #expect(runLayerplay([mediaSample("clip.mp4"), "--speed", "2", "--duration", "1", "-o", "fast/f%03d.png"], in: dir).status == 0)
            #expect(runLayerplay([mediaSample("clip.mp4"), "--duration", "1", "-o", "plain/f%03d.png"], in: dir).status == 0)
            let fast = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("fast").path).sorted()
            #expect(fast.count == 13, "1 s of timeline at 2× is 0.5 s: \(fast.count) frames")
            // Output frame k (time k/25) is the timeline's 2k/25: the plain export's frame 2k.
            for k in [0, 3, 7, 12] {
                let a = try Data(contentsOf: dir.appendingPathComponent("fast/f\(String(format: "%03d", k + 1)).png"))
                let b = try Data(contentsOf: dir.appendingPathComponent("plain/f\(String(format: "%03d", 2 * k + 1)).png"))
                #expect(a == b, "frame \(k)")
            }
        }
    }
}
