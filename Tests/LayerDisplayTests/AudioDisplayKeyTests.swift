import CSDL2
import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

/// An audio-only input in a window: its drawn sound moves with the clock although no animation runs, and `w`
/// switches waveform ↔ spectrum, shown at once. In the playback suite: it runs against the real clock.
extension PlaybackTests {
    @Test func wCyclesTheSoundsPictureAndTheSoundKeepsFramesComing() throws {
        let (session, scene) = try makeSession("tone.m4a")
        let visualizer = try AudioVisualizerLayer(path: mediaSample("tone.m4a"))
        visualizer.frame = scene.root.bounds
        scene.root.addSublayer(visualizer)
        var frames: [[UInt32]] = []
        session.onPresent = { _, surface in
            var pixels: [UInt32] = []
            for y in 0..<surface.height { for x in 0..<surface.width { pixels.append(surface.pixel(x: x, y: y).bgra) } }
            frames.append(pixels)
        }
        var modes: [AudioVisualizerLayer.Mode] = []
        var messages: [String?] = []
        var presentedBefore = 0
        let script = Script()
        script.when({ $0.clock >= 0.3 }) { s in modes.append(visualizer.mode); presentedBefore = s.framesPresented; press(SDLK_w) }
        script.when({ $0.framesPresented > presentedBefore }) { s in
            modes.append(visualizer.mode); messages.append(session.osd?.message); presentedBefore = s.framesPresented; press(SDLK_w)
        }
        script.when({ $0.framesPresented > presentedBefore }) { _ in
            modes.append(visualizer.mode); messages.append(session.osd?.message); press(SDLK_q)
        }
        script.attach(to: session)
        let stats = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
        #expect(modes == [.waveform, .spectrum, .waveform])
        #expect(messages == ["Spectrum", "Waveform"], "the on-screen display names the mode")
        // 0.3 s of a 440 Hz tone at the display's rate: many frames, and they differ (an idle canvas shows one).
        #expect(stats.framesPresented >= 5, "\(stats.json)")
        #expect(Set(frames).count >= 3, "the waveform moves from frame to frame")
    }
}
