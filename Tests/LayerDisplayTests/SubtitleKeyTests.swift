import CSDL2
import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// `t` in a window: the next subtitle track, then none, then the first again, shown at once (paused too).
/// In the playback suite: it runs against the real clock with the other playback tests.
extension PlaybackTests {
    @Test func tCyclesTheSubtitleTracksAndOffAndTheFrameShowsIt() throws {
        let (session, scene) = try makeSession("clip.mp4")
        func track(_ text: String) -> SubtitleTrack {
            SubtitleTrack(kind: .text, codec: "subrip", assHeader: "",
                          cues: [SubtitleCue(start: 0, end: 60_000, text: text, assEvent: "")])
        }
        let subtitles = SubtitleLayer(tracks: [track("one"), track("two")])
        subtitles.frame = scene.root.bounds
        scene.root.addSublayer(subtitles)
        session.subtitles = subtitles
        // The bottom rows of each presented frame: where text cues are drawn.
        var bottoms: [[UInt32]] = []
        session.onPresent = { _, surface in
            var row: [UInt32] = []
            for y in surface.height * 3 / 4..<surface.height { for x in 0..<surface.width { row.append(surface.pixel(x: x, y: y).bgra) } }
            bottoms.append(row)
        }
        var selections: [Int?] = []
        var presentedBefore = 0
        let script = Script()
        script.when({ $0.clock >= 0.2 }) { _ in press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { s in selections.append(subtitles.selection.current); presentedBefore = s.framesPresented; press(SDLK_t) }
        script.when({ $0.framesPresented > presentedBefore }) { s in
            selections.append(subtitles.selection.current); presentedBefore = s.framesPresented; press(SDLK_t)
        }
        script.when({ $0.framesPresented > presentedBefore }) { s in
            selections.append(subtitles.selection.current); presentedBefore = s.framesPresented; press(SDLK_t)
        }
        script.when({ $0.framesPresented > presentedBefore }) { _ in selections.append(subtitles.selection.current); press(SDLK_q) }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
        #expect(selections == [0, 1, nil, 0])
        // Paused, the picture under the subtitles stays; the last frames show "two", none, "one".
        try #require(bottoms.count >= 3, "a frame after each press")
        let last3 = Array(bottoms.suffix(3))
        #expect(last3[0] != last3[1] && last3[1] != last3[2] && last3[0] != last3[2], "each press changes the bottom rows")
    }
}
