import Foundation
import LayerGraphics
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What a single file's window does, on a playlist played in one window on one clock (issue 30): resume with
/// `--save-position-on-quit`, `t` and PgUp/PgDn on the item playing, `loadfile … append` extending the timeline, and
/// `--speed` on a playlist's export.
@Suite("Playlist timeline commands", .serialized)
struct PlaylistTimelineCommandsCLITests {
    /// Two 2 s clips at 20 frames/s, 64×36, lossless: `a.mkv` (a test pattern, a tone, `a.srt` beside it) and
    /// `b.mkv` (colour bars, another tone, chapters at 0 and 0.8 s).
    private func makeClips(in dir: URL) throws -> (a: String, b: String) {
        for (name, picture, tone) in [("a.mkv", "testsrc2=size=64x36:rate=20:duration=2", "440"),
                                      ("b0.mkv", "smptebars=size=64x36:rate=20:duration=2", "660")] {
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", picture,
                "-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=2",
                "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", name], in: dir)
        }
        try "1\n00:00:00,000 --> 00:00:02,000\nbeside\n".write(to: dir.appendingPathComponent("a.srt"), atomically: true, encoding: .utf8)
        try ChapterFixtures.copyWithTwoChapters("b0.mkv", to: "b.mkv", in: dir)
        return (dir.appendingPathComponent("a.mkv").path, dir.appendingPathComponent("b.mkv").path)
    }

    /// A player on `args` with its socket, its config and state directories in `dir`.
    private func play(_ args: [String], in dir: URL) throws -> (BackgroundPlayer, IPCClient) {
        let socketPath = dir.appendingPathComponent("ipc-\(UUID().uuidString.prefix(8)).sock").path
        var environment = headless
        environment["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = dir.appendingPathComponent("state").path
        let player = try BackgroundPlayer(args + ["--input-ipc-server", socketPath], environment: environment)
        return (player, try IPCClient(path: socketPath))
    }

    private func number(_ client: IPCClient, _ property: String) throws -> Double? {
        try client.ask(["get_property", property])["data"] as? Double
    }

    /// Quit on the second item with --save-position-on-quit: the same playlist starts on that item at that position
    /// (its own file's entry, so the file alone resumes there too).
    @Test func aPlaylistQuitOnAnItemResumesThatItemThere() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            var (player, client) = try play([clips.a, clips.b, "--save-position-on-quit"], in: dir)
            _ = try client.ask(["set_property", "pause", true])
            _ = try client.ask(["seek", 2.5, "absolute"]) // b at 0.5 s
            _ = try client.ask(["quit"])
            #expect(player.wait().status == 0)
            player.stop()
            let saved = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("state/layerplay/watch_later").path)
            #expect(saved.count == 2, "b's entry and the playlist's: \(saved)")

            (player, client) = try play([clips.a, clips.b], in: dir)
            _ = try client.ask(["set_property", "pause", true])
            #expect(try client.ask(["get_property", "playlist-pos"])["data"] as? Int == 1, "resumed on b")
            let position = try number(client, "time-pos") ?? 0
            // Paused a moment after it started (the clock runs until the pause arrives): 2.5 s and a little.
            #expect(position >= 2.45 && position < 2.8, "resumed at \(position) on the timeline, not 2.5")
            _ = try client.ask(["quit"])
            _ = player.wait()
            player.stop()

            (player, client) = try play([clips.b, "--keep-open"], in: dir)
            defer { player.stop() }
            _ = try client.ask(["set_property", "pause", true])
            let alone = try number(client, "time-pos") ?? 0
            #expect(alone >= 0.45 && alone < 0.8, "b alone resumed at \(alone), not 0.5")
            _ = try client.ask(["quit"])
        }
    }

    /// `t` cycles the subtitles of the item playing; PgUp/PgDn move between its chapters, past the last to the next
    /// item, before the first to the item's start (mpv's rule: a chapter key never goes to the previous file).
    @Test func subtitlesAndChaptersFollowTheItemPlaying() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            let (player, client) = try play([clips.a, clips.b, clips.b], in: dir)
            defer { player.stop() }
            _ = try client.ask(["set_property", "pause", true])
            #expect(try client.ask(["get_property", "sub"])["data"] as? Int == 1, "a.srt shows on a")
            _ = try client.ask(["keypress", "t"])
            #expect(try client.ask(["get_property", "sub"])["data"] as? Bool == false, "t turns a's subtitles off")
            _ = try client.ask(["set_property", "playlist-pos", 1])
            #expect(try client.ask(["get_property", "chapters"])["data"] as? Int == 2, "b's chapters")
            #expect(try client.ask(["get_property", "chapter"])["data"] as? Int == 0)
            _ = try client.ask(["keypress", "PGUP"])
            #expect(abs((try number(client, "time-pos") ?? 0) - 2.8) < 0.01, "b's second chapter at 2.8 s on the timeline")
            #expect(try client.ask(["get_property", "chapter"])["data"] as? Int == 1)
            _ = try client.ask(["keypress", "PGUP"])
            #expect(try client.ask(["get_property", "playlist-pos"])["data"] as? Int == 2, "past the last chapter: the next item")
            #expect(abs((try number(client, "time-pos") ?? 0) - 4) < 0.01)
            _ = try client.ask(["keypress", "PGUP"])
            #expect(abs((try number(client, "time-pos") ?? 0) - 4.8) < 0.01, "the third item's second chapter")
            _ = try client.ask(["keypress", "PGDWN"])
            #expect(abs((try number(client, "time-pos") ?? 0) - 4) < 0.01, "back to its first chapter")
            _ = try client.ask(["keypress", "PGDWN"])
            #expect(try client.ask(["get_property", "playlist-pos"])["data"] as? Int == 2, "before the first chapter: the same item, as mpv")
            #expect(abs((try number(client, "time-pos") ?? 0) - 4) < 0.01, "at its start")
            _ = try client.ask(["quit"])
            #expect(player.wait().status == 0)
        }
    }

    /// `loadfile PATH append` while playing extends the timeline (count, duration, the new item reachable and
    /// playing); a file that cannot join is refused with an error reply; `replace` plays the file alone.
    @Test func loadfileAppendExtendsTheTimelineWhilePlaying() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            try Data("not a movie".utf8).write(to: dir.appendingPathComponent("broken.mkv"))
            let (player, client) = try play([clips.a, clips.b, "--transition", "fade:0.5"], in: dir)
            defer { player.stop() }
            _ = try client.ask(["set_property", "pause", true])
            #expect(abs((try number(client, "duration") ?? 0) - 3.5) < 1e-3)
            #expect(try client.ask(["loadfile", clips.a, "append"])["error"] as? String == "success")
            #expect(try client.ask(["get_property", "playlist-count"])["data"] as? Int == 3)
            #expect(abs((try number(client, "duration") ?? 0) - 5) < 1e-3, "2 + 2 + 2 s less two 0.5 s fades")
            _ = try client.ask(["set_property", "playlist-pos", 2])
            #expect(try client.ask(["get_property", "playlist-pos"])["data"] as? Int == 2)
            #expect(abs((try number(client, "time-pos") ?? 0) - 3) < 0.01, "the appended item starts at 3 s")
            #expect(try client.ask(["get_property", "filename"])["data"] as? String == "a.mkv")
            // It plays: the clock runs on through it.
            _ = try client.ask(["set_property", "pause", false])
            usleep(600_000)
            #expect((try number(client, "time-pos") ?? 0) > 3.3, "playing the appended item")
            #expect(try client.ask(["loadfile", dir.appendingPathComponent("broken.mkv").path, "append-play"])["error"] as? String == "error running command")
            #expect(try client.ask(["get_property", "playlist-count"])["data"] as? Int == 3, "a file that fails is not added")
            _ = try client.ask(["loadfile", clips.b, "replace"])
            _ = try client.event { $0["event"] as? String == "end-file" }
            _ = try client.event { $0["event"] as? String == "file-loaded" }
            #expect(try client.ask(["get_property", "playlist-count"])["data"] as? Int == 1)
            #expect(try client.ask(["get_property", "filename"])["data"] as? String == "b.mkv")
            _ = try client.ask(["quit"])
            #expect(player.wait().status == 0)
        }
    }

    /// `--speed 2` on a 2-item export with a fade: half the frames and half the sound samples, and output frame i is
    /// the 1× export's frame 2i (the sped-up playlist clock). Tolerance: pixel-identical (lossless inputs, our own
    /// deterministic render); the sound is AAC, within one AAC frame (1024 samples) of the exact count.
    @Test func aPlaylistExportsAtTwiceTheSpeed() throws {
        try withTemporaryDirectory { dir in
            let clips = try makeClips(in: dir)
            expectSuccess(runLayerplay([clips.a, clips.b, "--transition", "fade:0.5", "--speed", "2", "-o", "out.mp4"], in: dir))
            let counted = try SubtitleFixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", "out.mp4"], in: dir)
            #expect(Int(counted.trimmingCharacters(in: .whitespacesAndNewlines)) == 35, "3.5 s / 2 at 20 frames/s: \(counted)")
            _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", "out.mp4", "-vn", "-ac", "1",
                                                    "-f", "f32le", "sound.f32"], in: dir)
            let samples = try Data(contentsOf: dir.appendingPathComponent("sound.f32")).count / 4
            #expect(abs(samples - 84_000) <= 1024, "\(samples) samples of sound, not 1.75 s at 48 kHz")

            expectSuccess(runLayerplay([clips.a, clips.b, "--transition", "fade:0.5", "-o", "one_%03d.png"], in: dir))
            expectSuccess(runLayerplay([clips.a, clips.b, "--transition", "fade:0.5", "--speed", "2", "-o", "two_%03d.png"], in: dir))
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("two_035.png").path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("two_036.png").path))
            for i in [0, 17, 25] { // the start, inside the fade (1.5…2 s at 1×), and after it
                let name = { (prefix: String, k: Int) in dir.appendingPathComponent(String(format: "%@_%03d.png", prefix, k + 1)) }
                guard let fast = readPNG(name("two", i)), let slow = readPNG(name("one", 2 * i)) else { continue }
                #expect(samePixels(fast, slow), "2× frame \(i) is not 1× frame \(2 * i)")
            }
        }
    }
}
