import CSDL2
import Foundation
import LayerDisplay
import LayerMedia
import Testing

/// `--speed` and the keys that change it (issue 30, item 2): the clock (the sound's) runs that many times as fast, the
/// picture stays in step with it, and `[` `]` `{` `}` Backspace change it as mpv's do.
extension PlaybackTests {
    @Test func doubleSpeedPlaysTheClipInHalfTheTimeInSync() throws {
        let (session, _) = try makeSession("clip.mp4", speed: 2)
        let stats = session.run()
        #expect(stats.audioClock)
        // 2 s of clip in about 1 s of wall time (the end waits for the last frame and the device's buffer).
        #expect(stats.wallSeconds >= 0.9 && stats.wallSeconds < 1.9, "\(stats.json)")
        #expect(stats.maxDriftMilliseconds <= 2 * frame * 1000, "\(stats.json)")
    }

    @Test func speedKeysFollowMpv() throws {
        let (session, _) = try makeSession("clip.mp4", loops: true)
        var speeds: [Double] = []
        var messages: [String?] = []
        func note() {
            if case .number(let s)? = try? session.getProperty("speed") { speeds.append(s) }
            messages.append(session.osd?.message)
        }
        let script = Script()
        script.when({ $0.clock >= 0.2 }) { _ in press("]") }
        script.when({ _ in true }) { _ in note(); press("}") }
        script.when({ _ in true }) { _ in note(); press("[") }
        script.when({ _ in true }) { _ in note(); press("BS") }
        script.when({ _ in true }) { _ in note(); press("{"); press("{"); press("{") }
        script.when({ _ in true }) { _ in note(); press("q") }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        #expect(speeds == [1.1, 2.2, 2.0, 1, 0.25], "\(speeds)")
        #expect(messages.first == "Speed 1.10×", "\(messages)")
    }

    @Test func theClockRunsAtTheSpeed() throws {
        let (session, _) = try makeSession("clip.mp4", loops: true, speed: 0.5)
        var rate: Double?
        var first: (clock: Double, wall: Double)?
        let script = Script()
        script.when({ $0.clock >= 0.1 && !$0.isPaused }) { s in first = (s.clock, s.wallSeconds) }
        script.when({ s in first.map { s.wallSeconds > $0.wall + 1 } ?? false }) { s in
            rate = (s.clock - first!.clock) / (s.wallSeconds - first!.wall)
            press("q")
        }
        script.attach(to: session)
        _ = session.run()
        #expect(rate.map { abs($0 - 0.5) < 0.08 } == true, "timeline seconds per wall second: \(String(describing: rate))")
    }
}
