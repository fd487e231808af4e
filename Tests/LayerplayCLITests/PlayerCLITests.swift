import Foundation
import LayerGraphics
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The player people switch to (issue 30), driven headless through its JSON IPC: input.conf and layerplay.conf,
/// screenshots, playlists, resume, chapters, signals, the subtitle file beside the video.
@Suite("Player", .serialized)
struct PlayerCLITests {
    /// A player on `args` with its socket and a client connected, the config and state directories in `dir`.
    private func play(_ args: [String], in dir: URL, extraEnvironment: [String: String?] = [:]) throws -> (BackgroundPlayer, IPCClient) {
        let socketPath = dir.appendingPathComponent("ipc-\(UUID().uuidString.prefix(8)).sock").path
        var environment = headless
        environment["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = dir.appendingPathComponent("state").path
        for (k, v) in extraEnvironment { environment[k] = v }
        let player = try BackgroundPlayer(args + ["--input-ipc-server", socketPath], environment: environment)
        return (player, try IPCClient(path: socketPath))
    }

    private func ask(_ client: IPCClient, _ command: [Any]) throws -> [String: Any] { try client.ask(command) }

    private func writeConfig(_ name: String, _ text: String, in dir: URL) throws {
        let folder = dir.appendingPathComponent("config/layerplay")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func inputConfAndLayerplayConfAreHonoured() throws {
        try withTemporaryDirectory { dir in
            try writeConfig("input.conf", "# mine\nx quit 7\nk add volume -25\n", in: dir)
            try writeConfig("layerplay.conf", "# defaults\nvolume=40\nloop\n", in: dir)
            let (player, client) = try play([mediaSample("clip.mp4"), "--size", "64x36"], in: dir)
            defer { player.stop() }
            #expect(try ask(client, ["get_property", "volume"])["data"] as? Double == 40, "layerplay.conf's volume")
            _ = try ask(client, ["keypress", "k"])
            #expect(try ask(client, ["get_property", "volume"])["data"] as? Double == 15, "input.conf's k")
            // --loop from the conf: still playing after the 2 s clip's end.
            usleep(2_300_000)
            #expect(try ask(client, ["get_property", "filename"])["data"] as? String == "clip.mp4")
            try client.send(#"{"command": ["keypress", "x"]}"#)
            let result = player.wait()
            #expect(result.status == 7, "input.conf's 'x quit 7': \(result)")
        }
    }

    @Test func theCommandLineOverridesTheConfAndABadConfLineIsOneError() throws {
        try withTemporaryDirectory { dir in
            try writeConfig("layerplay.conf", "volume=40\nfrobnicate=3\n", in: dir)
            let env: [String: String?] = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                                          "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path]
            let r = runLayerplay([mediaSample("clip.mp4"), "--duration", "0.2"], environment: env)
            #expect(r.status == 1)
            #expect(r.stderrLines.count == 1 && r.stderr.contains("layerplay.conf line 2") && r.stderr.contains("frobnicate"), "\(r)")
            // An export ignores the player's conf.
            let out = dir.appendingPathComponent("o.png").path
            expectSuccess(runLayerplay([mediaSample("clip.mp4"), "-o", out, "--at", "0.5"], environment: env))
        }
    }

    @Test func aScreenshotIsTheSamePixelsAsAStillExport() throws {
        try withTemporaryDirectory { dir in
            let shots = dir.appendingPathComponent("shots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let effects = ["--size", "96x54", "--rotate", "20", "--corner-radius", "6", "--border", "2:yellow"]
            let (player, client) = try play([mediaSample("clip.mp4")] + effects + ["--loop", "--screenshot-dir", shots.path], in: dir)
            defer { player.stop() }
            _ = try ask(client, ["set_property", "pause", true])
            _ = try ask(client, ["seek", 1.24, "absolute"])
            let file = dir.appendingPathComponent("shot.png").path
            #expect(try ask(client, ["screenshot-to-file", file])["error"] as? String == "success")
            let time = try #require(try ask(client, ["get_property", "time-pos"])["data"] as? Double)
            // S: a file in --screenshot-dir named after the input and the time.
            _ = try ask(client, ["keypress", "S"])
            let named = try FileManager.default.contentsOfDirectory(atPath: shots.path)
            #expect(named == ["clip_\(String(format: "%.3f", time)).png"], "\(named)")
            _ = try ask(client, ["quit"])
            _ = player.wait()
            let still = dir.appendingPathComponent("still.png").path
            expectSuccess(runLayerplay([mediaSample("clip.mp4")] + effects + ["-o", still, "--at", String(time)]))
            let a = try Image(contentsOfPNG: file), b = try Image(contentsOfPNG: still)
            #expect(a.width == 96 && a.height == 54)
            let differing = zip(a.withUnsafePixels(Array.init), b.withUnsafePixels(Array.init)).filter { $0 != $1 }.count
            #expect(differing == 0, "\(differing) pixels of the screenshot at \(time) s differ from -o x.png --at \(time)")
            let c = try Image(contentsOfPNG: shots.appendingPathComponent(named.first ?? "").path)
            #expect(c.withUnsafePixels(Array.init) == a.withUnsafePixels(Array.init), "S writes the same picture")
        }
    }

    @Test func aPlaylistPlaysInTurnSkipsWhatFailsAndMovesOnCommand() throws {
        try withTemporaryDirectory { dir in
            let broken = dir.appendingPathComponent("broken.mp4")
            try Data("not a movie".utf8).write(to: broken)
            let list = dir.appendingPathComponent("list.m3u")
            try "#EXTM3U\n\(mediaSample("clip.mp4"))\nbroken.mp4\n\(mediaSample("tone.m4a"))\n".write(to: list, atomically: true, encoding: .utf8)
            let (player, client) = try play([list.path, "--size", "64x36", "--loop"], in: dir)
            defer { player.stop() }
            _ = try client.event { $0["event"] as? String == "file-loaded" }
            #expect(try ask(client, ["get_property", "playlist-count"])["data"] as? Int == 3)
            #expect(try ask(client, ["get_property", "filename"])["data"] as? String == "clip.mp4")
            _ = try ask(client, ["playlist-next"])
            let ended = try client.event { $0["event"] as? String == "end-file" }
            #expect(ended["reason"] as? String == "stop")
            _ = try client.event { $0["event"] as? String == "file-loaded" }
            // The broken item was skipped: the third plays, now second of two.
            #expect(try ask(client, ["get_property", "filename"])["data"] as? String == "tone.m4a")
            #expect(try ask(client, ["get_property", "playlist-pos"])["data"] as? Int == 1)
            #expect(try ask(client, ["playlist-next"])["error"] as? String == "error running command", "no item after the last")
            _ = try ask(client, ["playlist-prev"])
            _ = try client.event { $0["event"] as? String == "end-file" }
            _ = try client.event { $0["event"] as? String == "file-loaded" }
            #expect(try ask(client, ["get_property", "filename"])["data"] as? String == "clip.mp4")
            // loadfile: append adds to the list; replace plays the file alone.
            _ = try ask(client, ["loadfile", mediaSample("clip.mp4"), "append"])
            #expect(try ask(client, ["get_property", "playlist-count"])["data"] as? Int == 3)
            _ = try ask(client, ["loadfile", mediaSample("tone.m4a")])
            _ = try client.event { $0["event"] as? String == "end-file" }
            _ = try client.event { $0["event"] as? String == "file-loaded" }
            #expect(try ask(client, ["get_property", "playlist-count"])["data"] as? Int == 1)
            #expect(try ask(client, ["get_property", "filename"])["data"] as? String == "tone.m4a")
            _ = try ask(client, ["quit"])
            let result = player.wait()
            #expect(result.status == 0)
            let skipped = result.stderr.split(separator: "\n").filter { $0.contains("skipping") }
            #expect(skipped.count == 1 && skipped[0].hasPrefix("layerplay: warning: skipping '"), "\(result.stderr)")
        }
    }

    @Test func quitWatchLaterResumesThereNextTime() throws {
        try withTemporaryDirectory { dir in
            var (player, client) = try play([mediaSample("clip.mp4"), "--size", "64x36"], in: dir)
            _ = try ask(client, ["set_property", "pause", true])
            _ = try ask(client, ["seek", 1.2, "absolute"])
            try client.send(#"{"command": ["keypress", "Q"]}"#)
            #expect(player.wait().status == 0)
            player.stop()
            let saved = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("state/layerplay/watch_later").path)
            #expect(saved.count == 1)
            (player, client) = try play([mediaSample("clip.mp4"), "--size", "64x36", "--keep-open"], in: dir)
            defer { player.stop() }
            _ = try ask(client, ["set_property", "pause", true])
            let position = try ask(client, ["get_property", "time-pos"])["data"] as? Double ?? 0
            #expect(position >= 1.15 && position < 1.6, "resumed at \(position)")
            _ = try ask(client, ["quit"])
        }
    }

    @Test func chaptersAreProbedAndPageKeysMoveBetweenThem() throws {
        try withTemporaryDirectory { dir in
            let movie = dir.appendingPathComponent("chaptered.mkv").path
            try ChapterFixtures.copyWithTwoChapters(mediaSample("clip.mp4"), to: movie, in: dir)
            let probe = runLayerplay(["probe", movie])
            expectSuccess(probe)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
            let chapters = try #require(json["chapters"] as? [[String: Any]])
            #expect(chapters.map { $0["title"] as? String } == ["Opening", "Middle"])
            #expect(abs((chapters.last?["start"] as? Double ?? 0) - 0.8) < 1e-6)
            let (player, client) = try play([movie, "--size", "64x36", "--loop"], in: dir)
            defer { player.stop() }
            _ = try ask(client, ["set_property", "pause", true])
            _ = try ask(client, ["keypress", "PGUP"])
            #expect(abs((try ask(client, ["get_property", "time-pos"])["data"] as? Double ?? 0) - 0.8) < 0.01)
            #expect(try ask(client, ["get_property", "chapter"])["data"] as? Int == 1)
            _ = try ask(client, ["keypress", "PGDWN"])
            #expect(abs(try ask(client, ["get_property", "time-pos"])["data"] as? Double ?? 1) < 0.01)
            _ = try ask(client, ["quit"])
        }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalEndsPlaybackWithTheShellsStatus(_ signal: Int32, _ status: Int32) throws {
        try withTemporaryDirectory { dir in
            let socketPath = dir.appendingPathComponent("s.sock").path
            let player = try BackgroundPlayer([mediaSample("clip.mp4"), "--size", "64x36", "--loop", "--input-ipc-server", socketPath])
            defer { player.stop() }
            usleep(300_000)
            kill(player.process.processIdentifier, signal)
            let result = player.wait()
            #expect(player.process.terminationReason == .exit && result.status == status, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: socketPath), "the socket is removed")
            // A scene's playback too.
            let scene = try BackgroundPlayer(["builtin:card", mediaSample("clip.mp4"), "--size", "64x36"], waitForSocket: false)
            defer { scene.stop() }
            usleep(1_200_000) // playing (the clip lasts 2 s)
            kill(scene.process.processIdentifier, signal)
            let ended = scene.wait()
            #expect(scene.process.terminationReason == .exit && ended.status == status, "\(ended)")
        }
    }

    @Test func geometryAndAutofitSizeTheWindow() throws {
        try withTemporaryDirectory { dir in
            var (player, client) = try play([mediaSample("clip.mp4"), "--size", "128x72", "--loop", "--geometry", "300x150+20+30", "--ontop", "--no-border"], in: dir)
            #expect(try ask(client, ["get_property", "osd-width"])["data"] as? Int == 300)
            #expect(try ask(client, ["get_property", "osd-height"])["data"] as? Int == 150)
            _ = try ask(client, ["quit"])
            _ = player.wait()
            player.stop()
            (player, client) = try play([mediaSample("clip.mp4"), "--size", "640x360", "--loop", "--autofit", "320x320"], in: dir)
            defer { player.stop() }
            #expect(try ask(client, ["get_property", "osd-width"])["data"] as? Int == 320)
            #expect(try ask(client, ["get_property", "osd-height"])["data"] as? Int == 180)
            _ = try ask(client, ["quit"])
        }
        let bad = runLayerplay([mediaSample("clip.mp4"), "--geometry", "huge"], environment: headless)
        #expect(bad.status == 2 && bad.stderr.contains("--geometry"), "\(bad)")
    }

    @Test func aSubtitleFileBesideTheVideoShowsAndDelaysMove() throws {
        try withTemporaryDirectory { dir in
            let movie = dir.appendingPathComponent("film.mp4")
            try FileManager.default.copyItem(atPath: mediaSample("clip.mp4"), toPath: movie.path)
            try "1\n00:00:00,000 --> 00:00:02,000\nbeside\n".write(to: dir.appendingPathComponent("film.srt"), atomically: true, encoding: .utf8)
            let (player, client) = try play([movie.path, "--size", "64x36", "--loop"], in: dir)
            defer { player.stop() }
            #expect(try ask(client, ["get_property", "sub"])["data"] as? Int == 1, "film.srt shows")
            _ = try ask(client, ["keypress", "x"])
            _ = try ask(client, ["keypress", "x"])
            #expect(try ask(client, ["get_property", "sub-delay"])["data"] as? Double == 0.2)
            _ = try ask(client, ["keypress", "Ctrl+="])
            #expect(try ask(client, ["get_property", "audio-delay"])["data"] as? Double == 0.1)
            _ = try ask(client, ["keypress", "i"])
            #expect(try ask(client, ["get_property", "stats"])["data"] as? Bool == true)
            _ = try ask(client, ["quit"])
        }
    }
}
