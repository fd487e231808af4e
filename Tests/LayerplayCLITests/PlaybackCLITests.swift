import Foundation
import Testing
import TestSupport

/// `layerplay FILE` without -o plays in a window (here SDL's dummy drivers: no display, no sound card).
@Suite("Playback from the command line")
struct PlaybackCLITests {
    let headless: [String: String?] = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

    @Test func playsWithEffectsAndPrintsStatistics() throws {
        let r = runLayerplay([mediaSample("clip.mp4"), "--size", "128x72", "--rotate", "--corner-radius", "6", "--border", "2",
                              "--shadow", "4", "--spin", "4", "--duration", "0.5", "--stats"], environment: headless)
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last.map(String.init))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for key in ["frames_rendered", "frames_dropped", "duration_s", "render_ms_p50", "render_ms_p99", "fps", "av_drift_ms_max"] {
            #expect(json[key] != nil, "missing \(key) in \(line)")
        }
        #expect(json["clock"] as? String == "audio")
        #expect((json["frames_rendered"] as? Int ?? 0) > 3) // it played (timing is the playback suite's business)
        // Half a second, not the whole clip.
        #expect((json["duration_s"] as? Double ?? 9) < 1.5)
    }

    @Test func withoutADisplayItSaysSoAndSuggestsAFile() {
        let r = runLayerplay([mediaSample("clip.mp4")],
                             environment: ["SDL_VIDEODRIVER": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("layerplay: error: cannot open a window: no display"), "\(r.stderr)")
        #expect(r.stderr.contains("-o"))
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
    }

    @Test func withoutASoundCardTheVideoStillPlays() {
        // No SDL_AUDIODRIVER: on a machine without a card we warn and play on the host clock; with a sound
        // server or card, it plays with sound. Either way it finishes.
        let r = runLayerplay([mediaSample("clip.mp4"), "--size", "64x36", "--duration", "0.3", "--stats"],
                             environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": nil])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("ALSA lib"), "ALSA's own noise reached the user: \(r.stderr)")
    }

    @Test func soundOnlyPlaysAndStillsAreRefusedForAt() {
        let r = runLayerplay([mediaSample("tone.m4a"), "--size", "64x36", "--duration", "0.3"], environment: headless)
        #expect(r.status == 0, "\(r.stderr)")
        let at = runLayerplay([mediaSample("clip.mp4"), "--at", "1"], environment: headless)
        #expect(at.status == 1)
        #expect(at.stderr.contains("--start"))
    }

    @Test func helpListsTheKeys() {
        let r = runLayerplay(["--help"])
        #expect(r.status == 0)
        for key in ["space, p", "frame forward / back", "seek 10 s", "fullscreen", "mute", "volume", "--loop", "--volume",
                    "speed −/+ 10 %", "screenshot", "A-B loop", "chapter", "--input-ipc-server", "--speed"] {
            #expect(r.stdout.contains(key), "--help lacks \(key)")
        }
    }

    @Test func badVolumeIsAUsageError() {
        let r = runLayerplay([mediaSample("clip.mp4"), "--volume", "150"], environment: headless)
        #expect(r.status == 2)
    }
}
