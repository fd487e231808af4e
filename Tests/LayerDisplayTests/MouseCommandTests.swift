import CSDL2
@testable import LayerDisplay
import Testing

/// Clicks as ffplay reads them (CLI.md, "Window"): left or right click seeks to that fraction of the width (the
/// session's own, when nothing is bound to them), a double click toggles fullscreen (issue 20, item 4).
@Suite("Mouse commands")
struct MouseCommandTests {
    @Test func clicksAreNamedAsMpvNamesThem() {
        #expect(InputBindings.name(of: InputBindings.clickEvent(x: 50)) == "MBTN_LEFT")
        #expect(InputBindings.name(of: InputBindings.clickEvent(x: 150, rightButton: true)) == "MBTN_RIGHT")
        #expect(InputBindings.name(of: InputBindings.clickEvent(x: 10, clicks: 2)) == "MBTN_LEFT_DBL")
        // A single click is left to the session (it seeks to the fraction of the width): nothing is bound to it.
        #expect(InputBindings.defaults.command(for: "MBTN_LEFT") == nil)
    }

    @Test func aDoubleClickTogglesFullscreen() {
        #expect(InputBindings.defaults.command(for: "MBTN_LEFT_DBL") == .cycle("fullscreen"))
        // The middle button does nothing.
        var middle = InputBindings.clickEvent(x: 10)
        middle.button.button = UInt8(SDL_BUTTON_MIDDLE)
        #expect(InputBindings.defaults.command(for: InputBindings.name(of: middle) ?? "") == nil)
    }
}
