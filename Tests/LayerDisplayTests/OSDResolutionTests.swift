import CSDL2
import Foundation
@testable import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// Issue 30 item 7: the on-screen display is drawn at the WINDOW's pixels. A 320×180 canvas in a 1280×720 window
/// used to show its 8-canvas-pixel text scaled up 4×, every anti-aliased edge pixel a 4-pixel block or ramp; drawn
/// at the window's resolution, the glyphs' edges are one or two pixels wide.
extension PlaybackTests {
    @Test func onScreenDisplayTextIsSharpInAWindowLargerThanTheCanvas() throws {
        useDummyDrivers()
        let root = Layer()
        root.backgroundColor = .black
        var options = PlaybackSession.Options(title: "still", range: PlaybackRange(start: 0, end: .infinity, loops: false), frameRate: 30)
        options.placement.size = .init(width: 1280, height: 720)
        let session = try PlaybackSession(root: root, size: (320, 180), player: nil, audioPath: nil, options: options) { w, h in
            root.frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        }
        var shown: Surface?, mark = 0
        let script = Script()
        script.when({ $0.clock >= 0.2 }) { _ in press(SDLK_SPACE) } // "Paused", shown until playing again
        script.when({ $0.isPaused && session.osd?.message == "Paused" }) { s in mark = s.framesPresented; session.setNeedsFrame() }
        script.when({ $0.framesPresented > mark }) { _ in shown = session.window.readBack(); press(SDLK_q) }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        let window = try #require(shown)
        try #require(window.width == 1280 && window.height == 720, "\(window.width)×\(window.height)")

        // White text on a black plate over black: along each row of the top left corner, the runs of pixels
        // between dark (< 20 %) and bright (> 80 %) are the glyphs' edges.
        var ramps: [Int] = [], bright = 0
        for y in 0..<120 {
            var run = 0
            for x in 0..<640 {
                let level = Int(window.pixel(x: x, y: y).g)
                if level > 204 { bright += 1 }
                if level >= 51 && level <= 204 { run += 1 } else if run > 0 { ramps.append(run); run = 0 }
            }
        }
        try #require(ramps.count > 40, "the message is drawn: \(ramps.count) edges")
        let mean = Double(ramps.reduce(0, +)) / Double(ramps.count)
        let wide = Double(ramps.filter { $0 >= 4 }.count) / Double(ramps.count)
        // Measured: 1.5 px on average, 7 % of 368 edges ≥ 4 px, 544 bright pixels. Main's canvas-scale OSD: 17 px
        // on average over 108 edges, and not one pixel above 80 % (the stems blurred to grey).
        #expect(bright > 200, "the stems reach white: \(bright) bright pixels")
        #expect(mean <= 2, "edges \(mean) px wide on average (a 4× upscale of canvas-sized text: ≥ 4)")
        #expect(wide < 0.1, "\(Int(wide * 100)) % of the edges are 4 px or wider")
    }
}
