import Foundation
import LayerGraphics
import Testing
import TestSupport

/// Playlists on one clock (issue 30): several inputs export into one movie with `--transition`, the window plays them
/// in one session, and both show the same pixels at the same playlist time.
@Suite("Playlist transitions", .serialized)
struct PlaylistTransitionCLITests {
    /// Two 1 s clips at 20 frames/s, 64×36, lossless (FFV1) so that the goldens do not depend on an encoder: a test
    /// pattern with a tone and colour bars with another tone.
    private func makeClips(in dir: URL) throws -> (a: String, b: String) {
        for (name, picture, tone) in [("a.mkv", "testsrc2=size=64x36:rate=20:duration=1", "440"),
                                      ("b.mkv", "smptebars=size=64x36:rate=20:duration=1", "660")] {
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", picture,
                "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=1",
                "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", name], in: dir)
        }
        return (dir.appendingPathComponent("a.mkv").path, dir.appendingPathComponent("b.mkv").path)
    }

    /// The midpoint of each transition (0.75 s: the 0.5 s overlap runs from 0.5 to 1), from the export path.
    /// Tolerance: 2 levels a channel on every pixel (our own deterministic render of lossless inputs).
    @Test(arguments: ["fade", "push", "moveIn", "reveal", "cube"])
    func theMidpointOfEachTransitionIsItsGolden(_ type: String) throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            expectSuccess(runLayerplay([clips.a, clips.b, "--transition", "\(type):0.5", "--fps", "20", "-o", "f_%03d.png"], in: dir))
            // 1 + 1 − 0.5 s at 20 frames/s: 30 pictures.
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f_030.png").path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("f_031.png").path))
            guard let mid = readPNG(dir.appendingPathComponent("f_016.png")) else { return }
            if let problem = GoldenImage.compare(Surface(image: mid), area: "playlist-transitions", name: type) { Issue.record("\(problem)") }
        }
    }

    /// A 2-item export: frames and sound samples are the sum of the items less the overlap (ffprobe and ffmpeg decode
    /// it back). The sound is AAC: within one AAC frame (1024 samples) of the exact count.
    @Test(arguments: [(nil, 40, 96_000), ("fade:0.5", 30, 72_000)] as [(String?, Int, Int)])
    func anExportOfTwoItemsLastsTheSumLessTheOverlap(_ transition: String?, _ frames: Int, _ samples: Int) throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            let args = [clips.a, clips.b] + (transition.map { ["--transition", $0] } ?? []) + ["-o", "out.mp4"]
            expectSuccess(runLayerplay(args, in: dir))
            let counted = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", "out.mp4"], in: dir)
            #expect(Int(counted.trimmingCharacters(in: .whitespacesAndNewlines)) == frames, "\(counted)")
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", "out.mp4", "-vn", "-ac", "1",
                                                    "-f", "f32le", "sound.f32"], in: dir)
            let bytes = try Data(contentsOf: dir.appendingPathComponent("sound.f32")).count
            #expect(abs(bytes / 4 - samples) <= 1024, "\(bytes / 4) samples of sound, not \(samples)")
        }
    }

    /// The window and the export show the same pixels at the same playlist time: a screenshot of the window paused in
    /// the middle of a push is the export's frame at that time.
    @Test func theWindowShowsTheExportsPixels() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            expectSuccess(runLayerplay([clips.a, clips.b, "--transition", "push:0.5", "--fps", "20", "-o", "f_%03d.png"], in: dir))
            let socket = dir.appendingPathComponent("ipc.sock").path
            let player = try BackgroundPlayer([clips.a, clips.b, "--transition", "push:0.5", "--input-ipc-server", socket])
            defer { player.stop() }
            let client = try IPCClient(path: socket)
            _ = try client.ask(["set_property", "pause", true])
            _ = try client.ask(["seek", 0.75, "absolute"])
            let shot = dir.appendingPathComponent("shot.png").path
            #expect(try client.ask(["screenshot-to-file", shot])["error"] as? String == "success")
            #expect(try client.ask(["get_property", "playlist-pos"])["data"] as? Int == 1, "the incoming item during its way in")
            // > during the transition finishes it: the clock goes to its end, 1 s, in the same window.
            _ = try client.ask(["playlist-next"])
            let after = try client.ask(["get_property", "time-pos"])["data"] as? Double ?? -1
            #expect(abs(after - 1) < 0.01, "time-pos \(after) after playlist-next during the transition")
            _ = try client.ask(["quit"])
            _ = player.wait()
            guard let window = readPNG(URL(fileURLWithPath: shot)), let export = readPNG(dir.appendingPathComponent("f_016.png")) else { return }
            #expect(samePixels(window, export), "the window's frame at 0.75 s differs from the export's")
        }
    }

    /// Played in a window to the end, a 2-item playlist with a transition is one session: one window, one statistics
    /// line (the per-item sessions printed one each), lasting the timeline's 1.5 s.
    @Test func aWindowPlaysTheWholePlaylistInOneSession() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            let r = runLayerplay([clips.a, clips.b, "--transition", "cube:0.5", "--stats"], in: dir, environment: headless)
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stderrLines.filter { $0.hasPrefix("{") }
            #expect(lines.count == 1, "one session for the whole playlist: \(r.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "{}").utf8)) as? [String: Any])
            let seconds = json["duration_s"] as? Double ?? 0
            #expect(seconds > 1.3 && seconds < 4, "played the 1.5 s timeline: \(seconds) s")
            #expect(json["clock"] as? String == "audio", "the mixed sound is the clock")
        }
    }

    @Test func aBadTransitionIsOneUsageLine() {
        let r = runLayerplay([mediaSample("clip.mp4"), mediaSample("clip.mp4"), "--transition", "spin:1", "-o", "x.mp4"])
        expectUsageError(r)
        #expect(r.stderr.contains("unknown transition 'spin'"), "\(r.stderr)")
    }
}
