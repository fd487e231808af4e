import CSDL2
import Foundation
import LayerKit
import LayerMedia
import Testing
import TestSupport
@testable import LayerDisplay

/// `#` (mpv's `cycle audio`, the `aid` property): the next audio stream plays from the current time, the clock goes
/// on, and the OSD says which track (issue 30 item 3). Headless, with a clip of two audio streams made here; in the
/// serialized playback suite, since SDL's sound device is one per process.
extension PlaybackTests {
    @Test func sharpPlaysTheNextAudioStreamFromTheCurrentTime() throws {
        useDummyDrivers()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-aid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("two.mkv").path
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x36:rate=25:duration=4",
                                            "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-f", "lavfi", "-i", "sine=frequency=880:duration=4",
                                            "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path], in: dir)
        let player = try Player(path: path)
        let scene = SmallScene(player: player)
        let options = PlaybackSession.Options(title: "two.mkv", range: PlaybackRange(start: 0, end: 4, loops: false), frameRate: 25)
        let session = try PlaybackSession(root: scene.root, size: (128, 72), player: player, audioPath: path, options: options) { w, h in scene.layout(w, h) }
        var before: Double = 0, after: Double = 0
        var tracks: [PropertyValue?] = []
        var said: String?
        let script = Script()
        script.when({ $0.clock > 0.6 && !$0.isPaused }) { state in
            tracks.append(try? session.getProperty("aid"))
            before = state.clock
            press("#")
        }
        script.when({ $0.clock > before + 0.3 }) { state in
            tracks.append(try? session.getProperty("aid"))
            said = session.osd?.message
            after = state.clock
            press("#") // after the last, the first again
        }
        script.when({ $0.clock > after + 0.2 }) { _ in
            tracks.append(try? session.getProperty("aid"))
            press(SDLK_q)
        }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        #expect(tracks == [.integer(1), .integer(2), .integer(1)], "\(tracks)")
        #expect(said == "Audio: track 2/2")
        #expect(after > before + 0.3 && after < before + 1.5, "the clock went on: \(before) → \(after)")
        // A track the file does not have is an error, and the sound stays.
        #expect(throws: CommandError.self) { try session.setProperty("aid", .integer(3)) }
        StreamChoice.choose(0, of: .audio, in: path)
    }
}
