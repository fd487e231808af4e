import Foundation
import Testing
import TestSupport

/// The audio input's sound placed like its picture, from the command line (SCENES.md §6): a looping input's sound
/// repeats to the export's length, and a negative `start` gives silence first. clip.mp4's tone lasts its 2 s.
@Suite("layerplay scene audio loop")
struct SceneAudioLoopCLITests {
    /// The silences ffmpeg's silencedetect finds in `file` (below -40 dB for 0.3 s or more), as start…end pairs.
    func silences(_ file: String, in dir: URL) throws -> [(start: Double, end: Double)] {
        let out = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-af",
                                                      "silencedetect=n=-40dB:d=0.3,ametadata=mode=print:file=-", "-f", "null", "-"], in: dir)
        var found: [(Double, Double)] = [], start: Double?
        for line in out.split(separator: "\n") {
            if line.hasPrefix("lavfi.silence_start=") { start = Double(line.split(separator: "=")[1]) }
            if line.hasPrefix("lavfi.silence_end="), let s = start, let e = Double(line.split(separator: "=")[1]) { found.append((s, e)); start = nil }
        }
        if let s = start { found.append((s, .infinity)) }  // silent to the end
        return found
    }

    func audioDuration(_ file: String, in dir: URL) throws -> Double {
        let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=duration",
                                                       "-of", "csv=p=0", file], in: dir)
        return Double(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func export(start: String, loop: Bool, in dir: URL) throws {
        let scene = """
        {"version": "1.0", "canvas": {"size": "64x36", "duration": 5},
         "inputs": {"c": {"src": "\(mediaSample("clip.mp4"))", "loop": \(loop), "start": \(start)}},
         "layers": [{"type": "media", "input": "c", "frame": [0, 0, "100%", "100%"]}]}
        """
        try scene.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        expectSuccess(runLayerplay(["s.json", "-y", "-o", "out.mp4"], in: dir))
    }

    @Test func aLoopingInputsSoundRepeatsToTheExportsLength() throws {
        try withTemporaryDirectory { dir in
            try export(start: "0", loop: true, in: dir)
            #expect(abs(try audioDuration("out.mp4", in: dir) - 5) < 0.1)
            #expect(try silences("out.mp4", in: dir).isEmpty, "the 2 s tone wraps at 2 s and 4 s without a gap")
            // Without loop the tone stops at its end, 2 s in (the movie's sound ends there too).
            try export(start: "0", loop: false, in: dir)
            #expect(try audioDuration("out.mp4", in: dir) < 2.2)
        }
    }

    @Test func aNegativeStartPlaysSilenceFirst() throws {
        try withTemporaryDirectory { dir in
            try export(start: "-1", loop: true, in: dir)
            #expect(abs(try audioDuration("out.mp4", in: dir) - 5) < 0.1)
            let quiet = try silences("out.mp4", in: dir)
            #expect(quiet.count == 1 && quiet.allSatisfy { $0.start < 0.05 && abs($0.end - 1) < 0.05 }, "silent for its first second only: \(quiet)")
        }
    }
}
