import Foundation
import Testing
import TestSupport

/// A scene's `audio` (SCENES.md §3): the input whose sound plays and drives a window's clock, and that an export
/// carries; `"none"` plays on the host clock and exports a silent movie. Several inputs play on that one clock.
@Suite("layerplay scene audio")
struct SceneAudioCLITests {
    let headless: [String: String?] = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

    /// Two inputs with sound, side by side; `audio` is the given field ("" for the default: the first with sound).
    func scene(_ audio: String) -> String {
        """
        {"version": "1.0", "canvas": {"size": "128x48", "fps": 25}, \(audio)
         "inputs": {"a": {"src": "\(mediaSample("clip.mp4"))"}, "b": {"src": "\(mediaSample("ship.mp4"))", "start": "1s"}},
         "layers": [{"type": "media", "input": "a", "frame": [0, 0, 64, 48]}, {"type": "media", "input": "b", "frame": [64, 0, 64, 48]}]}
        """
    }

    func playStatistics(_ audio: String, in dir: URL) throws -> [String: Any] {
        try scene(audio).write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let r = runLayerplay(["s.json", "--duration", "0.6", "--no-watch", "--stats"], in: dir, environment: headless)
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func theAudioInputDrivesTheWindowsClockAndNoneLeavesTheHostClock() throws {
        try withTemporaryDirectory { dir in
            for audio in ["", "\"audio\": \"a\",", "\"audio\": \"b\","] {
                let json = try playStatistics(audio, in: dir)
                #expect(json["clock"] as? String == "audio", "\(audio): \(json)")
                // Both inputs advance on that clock: frames keep coming though nothing animates.
                #expect((json["frames_presented"] as? Int ?? 0) > 3, "\(audio): \(json)")
            }
            let none = try playStatistics("\"audio\": \"none\",", in: dir)
            #expect(none["clock"] as? String == "monotonic", "\(none)")
            #expect((none["frames_presented"] as? Int ?? 0) > 3, "\(none)")
        }
    }

    @Test func anExportCarriesTheAudioInputsSoundOrNone() throws {
        try withTemporaryDirectory { dir in
            func streams(_ audio: String) throws -> [String] {
                try scene(audio).write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
                expectSuccess(runLayerplay(["s.json", "--duration", "0.4", "-y", "-o", "out.mp4"], in: dir))
                let out = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type",
                                                               "-of", "csv=p=0", "out.mp4"], in: dir)
                return out.split(separator: "\n").map(String.init)
            }
            #expect(try streams("\"audio\": \"b\",") == ["video", "audio"])
            #expect(try streams("\"audio\": \"none\",") == ["video"])
            // --no-audio wins over the scene's choice.
            try scene("\"audio\": \"a\",").write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
            expectSuccess(runLayerplay(["s.json", "--duration", "0.4", "--no-audio", "-y", "-o", "quiet.mp4"], in: dir))
            let quiet = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", "quiet.mp4"], in: dir)
            #expect(quiet.split(separator: "\n") == ["video"])
        }
    }
}
