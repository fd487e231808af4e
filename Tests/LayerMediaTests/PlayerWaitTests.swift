import Foundation
import LayerMedia
import Testing

// A window asks `wouldWait(forFrameAt:)` before its snapshot, and skips the snapshot while it says yes: it must
// say yes only while the decoder is on its way to a frame, never for a seek, a jump or the end (those would
// then never be asked for, and nothing would move).
@Test func playerWouldWaitOnlyWhileDecodingTowardsTheFrame() throws {
    let player = try Player(path: sample("clip.mp4"))   // 2 s at 25 fps
    #expect(player.frame(at: 0.5) != nil)
    #expect(!player.wouldWait(forFrameAt: 0.1), "behind the frames held: a seek, for frame(at:) to do")
    #expect(!player.wouldWait(forFrameAt: 30), "far ahead: a possible jump, for frame(at:) to decide")
    // The decoder runs ahead: a little later, the frame after 0.56 s is decoded and nothing waits.
    var waiting = true
    for _ in 0..<200 where waiting {
        waiting = player.wouldWait(forFrameAt: 0.56)
        if waiting { Thread.sleep(forTimeInterval: 0.01) }
    }
    #expect(!waiting, "the decoder ran ahead of 0.56 s")
    // Past the last frame, once the stream has ended, the last frame answers: no waiting.
    #expect(player.frame(at: 1.99) != nil)
    #expect(player.frame(at: 2.5) != nil)
    #expect(!player.wouldWait(forFrameAt: 2.5), "after the end")
}

@Test func askingWhetherItWouldWaitLetsAFullQueueMoveOn() throws {
    // The decoder stops when its queue is full. Frames the asked time has passed must be let go of by the
    // question itself, or a window that only asks (and skips its snapshot) would wait for ever.
    let player = try Player(path: sample("clip.mp4"))   // 25 fps
    #expect(player.frame(at: 0) != nil)
    Thread.sleep(forTimeInterval: 0.3)                   // the queue fills (a few frames after 0)
    var waiting = true
    let began = Date()
    while waiting && Date().timeIntervalSince(began) < 3 {
        waiting = player.wouldWait(forFrameAt: 0.5)
        if waiting { Thread.sleep(forTimeInterval: 0.005) }
    }
    #expect(!waiting, "the decoder moved on to the frames after 0.5 s")
}
