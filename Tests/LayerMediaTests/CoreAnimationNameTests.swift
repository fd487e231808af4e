import Foundation
import LayerGraphics
import LayerMedia
import Testing

/// Spellings a Core Animation / AVFoundation user types first (issue 20, item 6) that compile and do what they say.
@Suite("Core Animation names")
struct CoreAnimationNameTests {
    @Test func playerOpensAURLAndPlaysAndPauses() throws {
        let player = try Player(url: URL(fileURLWithPath: sample("clip.mp4")))
        #expect(player.rate == 0)
        player.play()
        #expect(player.rate == 1)
        player.pause()
        #expect(player.rate == 0)
        #expect(throws: MediaError.self) { try Player(url: URL(string: "https://example.com/x.mp4")!) }
    }

    @Test func grayIsWhite() {
        #expect(Color(gray: 0.25, alpha: 0.5) == Color(white: 0.25, alpha: 0.5))
    }
}
