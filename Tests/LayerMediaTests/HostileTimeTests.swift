import LayerMedia
import Testing

// A time is whatever number a caller passes: far past the end (1e15 s, 1e300 s), NaN, negative. Converting such a
// time to a stream's ticks trapped (`Double → Int64` beyond its range) when a player was asked for the frame there:
// `layerplay clip.mp4 --at 1e15 -o x.png` died of SIGILL (issue 15). Past the end is the last frame.

@Suite("Hostile times")
struct HostileTimeTests {
    @Test(arguments: [1e15, 1e300, .infinity, .greatestFiniteMagnitude])
    func aFrameFarPastTheEndIsTheLastFrame(_ seconds: Double) throws {
        // Asked first, so that the player holds only the first frame and looks for a keyframe on the way there.
        let frame = try #require(try Player(path: sample("clip.mp4")).frame(at: seconds))
        let last = try #require(try Player(path: sample("clip.mp4")).frame(at: 1.99))
        #expect(frame.time == last.time && frame.time != .zero)
    }

    /// A time before the start, asked for after a later one, repositioned the decoder again and again: it never
    /// returned (not even for -1).
    @Test(arguments: [-1.0, -1e300, -.infinity])
    func aFrameBeforeTheStartIsTheFirstFrame(_ seconds: Double) throws {
        let player = try Player(path: sample("clip.mp4"))
        _ = player.frame(at: 1.5)
        let frame = try #require(player.frame(at: seconds))
        #expect(frame.time == .zero)
    }

    @Test func aFrameAtNaNIsSomeFrame() throws {
        // No time is meant: any frame will do, but not a trap.
        let player = try Player(path: sample("clip.mp4"))
        #expect(player.frame(at: .nan) != nil)
        _ = player.frame(at: 1.5)
        #expect(player.frame(at: .nan) != nil)
    }
}
