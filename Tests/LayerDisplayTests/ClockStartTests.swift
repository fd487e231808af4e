import Foundation
import LayerMedia
import Testing
import TestSupport
@testable import LayerDisplay

/// The clock's start rule (issue 30 item 7; CLI.md, "The window's clock"): playing starts the clock on the host clock
/// at once, and the device's first sound is trimmed to that clock, so that a device whose first callback comes late
/// (SDL 2.26 under PulseAudio: 1.3–2.1 s) no longer holds the first frame still. In the serialized playback suite,
/// since SDL's sound device is one per process.
extension PlaybackTests {
    @Test func theClockMovesAtOnceAndTheDeviceTakesOverWithoutAJump() throws {
        useDummyDrivers()
        let output = try AudioOutput(path: mediaSample("clip.mp4"), range: PlaybackRange(start: 0, end: 2, loops: false))
        defer { output.close() }
        output.seek(to: 0)
        Thread.sleep(forTimeInterval: 0.1) // the decoder fills its queue
        let began = hostSeconds()
        output.setPaused(false)
        Thread.sleep(forTimeInterval: 0.01)
        let early = (clock: output.time, wall: hostSeconds() - began)
        // Before: held at the start (minus a device buffer) until the device had played its first buffer (21 ms).
        #expect(early.clock > 0.005 && abs(early.clock - early.wall) < 0.005, "clock \(early.clock) s after \(early.wall) s")
        Thread.sleep(forTimeInterval: 0.4)
        let late = (clock: output.time, wall: hostSeconds() - began)
        #expect(!output.runsOnHostClock, "the device's callbacks drive the clock once it has sound")
        // The sound joined where the host clock was: the device's clock reads the time since the start.
        #expect(abs(late.clock - late.wall) < 0.03, "clock \(late.clock) s after \(late.wall) s")
    }

    @Test func withSoundMotionStartsWithinAFrameAndStaysInSync() throws {
        let (session, _) = try makeSession("clip.mp4")
        let stats = session.run()
        #expect(stats.audioClock)
        // The next frame (40 ms later at 25 frames/s) on time, with a little room for a loaded machine; before: one
        // device buffer later, about 80 ms here.
        #expect((stats.motionStartMilliseconds ?? .infinity) < frame * 1000 + 20, "\(stats.json)")
        #expect(stats.maxDriftMilliseconds <= frame * 1000, "\(stats.json)")
        print("clock start:", stats.json)
    }
}
