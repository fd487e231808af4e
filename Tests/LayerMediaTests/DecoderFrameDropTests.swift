import Foundation
import LayerMedia
import Testing
import TestSupport

/// mpv's `--framedrop=decoder` (issue 30): a window's decoder that stays more than two frames behind the times asked
/// for (for four frames of them) skips non-reference frames until it has caught up, then decodes every frame again. Driven without a clock:
/// the times asked for are those of a window whose clock has run a second ahead.
@Suite("Decoder frame dropping")
struct DecoderFrameDropTests {
    /// 2 s at 60 frames/s, one keyframe (no jump helps), every group IBBBP with non-reference B-frames: three
    /// frames in four are ones nothing refers to.
    private func makeClip(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("bframes.mp4").path
        _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=60:duration=2",
                                                "-c:v", "libx264", "-preset", "ultrafast", "-g", "600", "-bf", "3",
                                                "-x264-params", "b-adapt=0:b-pyramid=none", "-pix_fmt", "yuv420p", path], in: dir)
        return path
    }

    /// Asks, as a window does before each frame, whether the frame at `t` would wait, until it would not; the
    /// decoder then holds a frame at or after `t`.
    private func catchUp(_ player: Player, to t: Double) {
        let deadline = Date().addingTimeInterval(20)
        while player.wouldWait(forFrameAt: t) && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }

    private func withClip(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-framedrop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(try makeClip(in: dir))
    }

    @Test func aLateDecoderSkipsNonReferenceFramesUntilItCatchesUp() throws {
        try withClip { path in
            let player = try Player(path: path)
            player.dropsLateFrames = true
            #expect(player.frame(at: 0) != nil)
            // A clock that ran ahead: asked at 0.5 s, then (still behind, four frames later and more) at 1 s.
            _ = player.wouldWait(forFrameAt: 0.5)
            catchUp(player, to: 1.0)
            // 59 frames lay between 0 and 1 s, three in four of them B-frames.
            let skipped = player.framesSkippedByDecoder
            #expect(skipped >= 30 && skipped <= 50, "\(skipped) frames skipped on the way to 1 s")
            #expect((player.newestDecodedTime(atOrBefore: 1.2) ?? 0) >= 1.0 - 1e-6, "caught up with 1 s")
            // Within a frame of the times asked for, every frame is decoded again: the next ones come one by one.
            _ = player.wouldWait(forFrameAt: 1.0)
            Thread.sleep(forTimeInterval: 0.2)
            let settled = player.framesSkippedByDecoder
            var times: [Double] = []
            for k in 1...30 {
                let t = 1.0 + Double(k) / 60
                catchUp(player, to: t)
                if let frame = player.frame(at: t) { times.append(frame.time.seconds) }
            }
            #expect(player.framesSkippedByDecoder == settled, "no frame skipped once caught up")
            // The frames queued while it still skipped come first; after them, every frame.
            let steps = zip(times.dropFirst(), times).map { ($0 - $1) * 60 }.dropFirst(8)
            #expect(steps.count > 10 && steps.allSatisfy { abs($0 - 1) < 0.1 }, "every frame once caught up: \(Array(steps))")
        }
    }

    /// Off (the default, and every export: each frame asked for must be the frame of that time), nothing is skipped.
    @Test func withoutFrameDroppingEveryFrameIsDecoded() throws {
        try withClip { path in
            let player = try Player(path: path)
            #expect(player.frame(at: 0) != nil)
            catchUp(player, to: 1.0)
            #expect(player.framesSkippedByDecoder == 0)
            #expect(abs((player.frame(at: 59.0 / 60)?.time.seconds ?? 0) - 59.0 / 60) < 1e-3, "the B-frame at 59/60 s is there")
        }
    }
}
