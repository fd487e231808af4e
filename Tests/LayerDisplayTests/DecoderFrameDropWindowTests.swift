import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport
@testable import LayerDisplay

/// mpv's `--framedrop=decoder` in a window (issue 30): a decoder slower than the clock skips non-reference frames, so
/// the frames shown stay near the clock instead of drifting further behind until the end (the clip has one keyframe:
/// no jump ever helps). In the serialized playback suite (one SDL).
extension PlaybackTests {
    @Test func aLateDecoderSkipsNonReferenceFramesAndStaysNearTheClock() throws {
        useDummyDrivers()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-framedrop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("1080p120.mp4").path
        // 2 s of 1080p120 played at 4×, IBBBP with non-reference B-frames: 480 frames of 1080p a second to decode,
        // more than a decoder keeps up with here, 360 of them skippable.
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=120:duration=2",
                                            "-c:v", "libx264", "-preset", "ultrafast", "-g", "600", "-bf", "3",
                                            "-x264-params", "b-adapt=0:b-pyramid=none", "-pix_fmt", "yuv420p", path], in: dir)
        let player = try Player(path: path)
        let scene = SmallScene(player: player)
        var options = PlaybackSession.Options(title: "1080p120.mp4", range: PlaybackRange(start: 0, end: 2, loops: false), frameRate: 120)
        options.speed = 4
        let session = try PlaybackSession(root: scene.root, size: (128, 72), player: player, audioPath: nil, options: options) { w, h in scene.layout(w, h) }
        let stats = session.run()
        print("late decoder:", stats.json)
        #expect(stats.decoderDrops > 0, "the decoder skipped frames to catch up: \(stats.json)")
        // Every frame due is shown or counted dropped (the skipped ones among them).
        #expect(stats.framesPresented + stats.framesDropped == 30, "\(stats.json)")
        // The frames shown stay within a few of the clock's frames (4× of 120 frames/s: a frame is 8 ms of
        // timeline); decoding every frame, they were the whole backlog behind.
        #expect(stats.maxDriftMilliseconds < 250, "\(stats.json)")
    }
}
