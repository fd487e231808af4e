import CSDL2
@testable import LayerDisplay
import Testing

/// Clicks as ffplay reads them (CLI.md, "Window"): left or right click seeks to that fraction of the width, a double
/// click toggles fullscreen (issue 20, item 4).
@Suite("Mouse commands")
struct MouseCommandTests {
    @Test func leftAndRightClicksSeekToTheFractionOfTheWidth() {
        let left = PlaybackCommand.from(PlaybackCommand.clickEvent(x: 50), windowWidth: 200)
        let right = PlaybackCommand.from(PlaybackCommand.clickEvent(x: 150, rightButton: true), windowWidth: 200)
        guard case .seekToFraction(let a)? = left, case .seekToFraction(let b)? = right else {
            Issue.record("\(String(describing: left)) \(String(describing: right))"); return
        }
        #expect(a == 0.25 && b == 0.75)
    }

    @Test func aDoubleClickTogglesFullscreen() {
        guard case .toggleFullscreen? = PlaybackCommand.from(PlaybackCommand.clickEvent(x: 10, clicks: 2), windowWidth: 200) else {
            Issue.record("a double click should toggle fullscreen"); return
        }
        // The middle button does nothing.
        var middle = PlaybackCommand.clickEvent(x: 10)
        middle.button.button = UInt8(SDL_BUTTON_MIDDLE)
        #expect(PlaybackCommand.from(middle, windowWidth: 200) == nil)
    }
}
