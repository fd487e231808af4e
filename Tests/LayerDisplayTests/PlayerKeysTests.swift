import CSDL2
import Foundation
@testable import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// The keys people know (issue 30, item 3), through the same path as a keyboard: `,` steps back exactly, `l` loops
/// between two points, `i` shows the statistics, `t` says which subtitles are on.
extension PlaybackTests {
    @Test func frameBackStepShowsExactlyTheFramesSteppedOver() throws {
        let (session, _) = try makeSession("clip.mp4")
        var frames: [(time: Double, pixels: [UInt32])] = []
        session.onPresent = { t, surface in
            // The bottom rows: the on-screen display (the position after each step) is at the top.
            var pixels: [UInt32] = []
            for y in surface.height - 28..<surface.height { for x in 0..<surface.width { pixels.append(surface.pixel(x: x, y: y).bgra) } }
            frames.append((t, pixels))
        }
        let script = Script()
        var mark = 0
        func next() -> (PlaybackSession.State) -> Bool { { $0.framesPresented > mark } }
        script.when({ $0.clock >= 0.9 }) { s in mark = s.framesPresented; press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { s in mark = s.framesPresented; press(".") }
        for key in [".", ".", ",", ",", ","] {
            script.when(next()) { s in mark = s.framesPresented; press(key) }
        }
        script.when(next()) { _ in press("q") }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished, "stopped at step \(script.log.count)")
        let last = Array(frames.suffix(6)) // f+1, f+2, f+3, then back: f+2, f+1, f
        try #require(last.count == 6)
        let start = last[0].time - frame
        let expected = [1, 2, 3, 2, 1, 0].map { start + Double($0) * frame }
        for (got, want) in zip(last.map(\.time), expected) { #expect(abs(got - want) < 0.002, "\(last.map(\.time)) vs \(expected)") }
        #expect(last[3].pixels == last[1].pixels && last[4].pixels == last[0].pixels, "back shows the very frames forward showed")
        #expect(last[0].pixels != last[2].pixels, "the clip moves from frame to frame")
    }

    @Test func abLoopKeepsPlayingBetweenTheTwoPoints() throws {
        let (session, _) = try makeSession("clip.mp4")
        var positions: [Double] = []
        var message: String?
        let script = Script()
        script.when({ $0.clock >= 0.5 }) { _ in press("l") }
        script.when({ $0.clock >= 0.9 }) { _ in press("l"); }
        script.when({ _ in true }) { _ in message = session.osd?.message }
        script.when({ $0.wallSeconds > 2.6 }) { _ in press("q") }
        script.attach(to: session)
        session.onTick = { [previous = session.onTick] s in
            previous?(s)
            if let p = s.position, s.wallSeconds > 1.5 { positions.append(p) }
        }
        _ = session.run()
        #expect(script.finished)
        #expect(message?.hasPrefix("A-B loop: 0:00 – 0:00") == true, "\(String(describing: message))")
        // After B was set the clip never reaches its end (2 s): it keeps going back to A.
        #expect(!positions.isEmpty && positions.allSatisfy { $0 >= 0.45 && $0 <= 0.98 }, "\(positions.min() ?? -1)…\(positions.max() ?? -1)")
    }

    @Test func statsOverlayAndSubtitleMessageAreDrawnOverTheWindow() throws {
        let (session, scene) = try makeSession("clip.mp4", loops: true)
        var overlay: String?, overWindow = false, afterT: String?
        let script = Script()
        script.when({ $0.clock >= 0.2 }) { _ in press("i") }
        script.when({ $0.wallSeconds > 1.2 }) { _ in
            overlay = session.statsOverlay?.message
            overWindow = session.statsOverlay?.layer.superlayer != nil && scene.root.sublayers?.contains { $0.name == "stats" } != true
            press("t")
        }
        script.when({ _ in true }) { _ in afterT = session.osd?.message; press("q") }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        #expect(overWindow, "over the window at its pixels, not in the played tree")
        let text = try #require(overlay)
        #expect(text.hasPrefix("fps ") && text.contains("dropped 0") && text.contains("render "), "\(text)")
        #expect(afterT == "No subtitles", "\(String(describing: afterT))")
    }
}
