import Foundation
import LayerMedia
import Testing
import TestSupport

/// `Player.holdsFrames(after:count:)`, which a window asks before it shows the first frame of a position (CLI.md, "The
/// window's clock"): true once the decoder holds the frames, as many as its queue takes, or the rest of the stream.
@Suite("Decoder ahead")
struct DecoderAheadTests {
    @Test func theDecoderComesToHoldTheNextFramesOrTheRestOfTheStream() throws {
        let player = try Player(path: mediaSample("clip.mp4")) // 25 frames/s
        let deadline = Date().addingTimeInterval(5)
        while !player.holdsFrames(after: 0, count: 2) && Date() < deadline { usleep(5_000) }
        #expect(player.holdsFrames(after: 0, count: 2))
        // More than the queue takes: once full, as many as it holds is all there will be until frames are shown.
        while !player.holdsFrames(after: 0, count: 50) && Date() < deadline { usleep(5_000) }
        #expect(player.holdsFrames(after: 0, count: 50))
        #expect(try #require(player.frame(at: 0.04)).time.seconds == 0.04)
        // At the end there is nothing more to wait for.
        _ = player.frame(at: 1.9)
        let end = Date().addingTimeInterval(5)
        while !player.holdsFrames(after: 1.99, count: 2) && Date() < end { usleep(5_000) }
        #expect(player.holdsFrames(after: 1.99, count: 2))
    }
}
