@testable import LayerDisplay
import Testing

/// The terminal status line while playing (CLI.md: time, A-V difference, dropped frames, as ffplay's; issue 20 item 4).
@Suite("Status line")
struct StatusLineTests {
    private func state(clock: Double, wall: Double, dropped: Int = 0, av: Double = 0, paused: Bool = false) -> PlaybackSession.State {
        PlaybackSession.State(clock: clock, isPaused: paused, presentedTime: nil, framesPresented: 0, wallSeconds: wall, volume: 1,
                              isMuted: false, isFullscreen: false, canvasWidth: 1, canvasHeight: 1, windowWidth: 1, windowHeight: 1,
                              framesDropped: dropped, avDifferenceMilliseconds: av)
    }

    @Test func theLineSaysTimeLengthAVAndDroppedFrames() {
        let text = StatusLine.text(state(clock: 12.345, wall: 1, dropped: 3, av: -4), length: 60)
        #expect(text == "  12.35 / 60.00  A-V: -0.004  dropped:    3        ", "'\(text)'")
        #expect(StatusLine.text(state(clock: 1, wall: 1, paused: true), length: .infinity).hasSuffix("paused"))
    }

    @Test func aLoopShowsTheTimeWithinTheFile() {
        // Issue 30: with --loop the line said "10.39 / 1.00".
        var looped = state(clock: 10.39, wall: 11)
        looped.position = 0.39
        #expect(StatusLine.text(looped, length: 1).hasPrefix("   0.39 / 1.00"), "\(StatusLine.text(looped, length: 1))")
    }

    @Test func theLengthFollowsTheRangeWhenAPlaylistGrows() {
        // Issue 30: after `loadfile … append` the line kept the playlist's first length ("5.00 / 4.00").
        var written: [String] = []
        let line = StatusLine(length: 4) { written.append($0) }
        var grown = state(clock: 5, wall: 1)
        grown.length = 6
        line.update(grown)
        #expect(written.last?.hasPrefix("\r   5.00 / 6.00") == true, "\(written)")
    }

    @Test func itIsRedrawnInPlaceAtMostTenTimesASecondAndEndedOnce() {
        var written: [String] = []
        let line = StatusLine(length: 2) { written.append($0) }
        for i in 0..<50 { line.update(state(clock: Double(i) / 100, wall: Double(i) / 100)) } // half a second, 50 turns
        #expect(written.count == 5 && written.allSatisfy { $0.hasPrefix("\r") && !$0.contains("\n") }, "\(written.count)")
        line.finish()
        line.finish()
        #expect(written.last == "\n" && written.filter { $0 == "\n" }.count == 1)
    }
}
