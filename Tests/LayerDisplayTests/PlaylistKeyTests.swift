import CSDL2
@testable import LayerDisplay
import Testing

/// mpv's playlist keys (issue 30, item 1): `>` and Enter go to the next item, `<` to the previous. They were named in
/// CLI.md but missing from the default bindings, so a keyboard could not move through a playlist (seen under Xvfb).
@Suite("Playlist keys")
struct PlaylistKeyTests {
    /// The command the key runs when a US keyboard sends it (`>` is Shift and the period key).
    private func command(sentAs key: String) -> PlayerCommand? {
        guard let event = InputBindings.keyEvent(key), let name = InputBindings.name(of: event) else { return nil }
        return InputBindings.defaults.command(for: name)
    }

    @Test func greaterThanAndEnterGoToTheNextItem() {
        #expect(command(sentAs: ">") == .playlistNext)
        #expect(command(sentAs: "ENTER") == .playlistNext)
    }

    @Test func lessThanGoesToThePreviousItem() {
        #expect(command(sentAs: "<") == .playlistPrev)
    }

    @Test func theUnshiftedKeysStillStepFrames() {
        #expect(command(sentAs: ".") == .frameStep)
        #expect(command(sentAs: ",") == .frameBackStep)
    }
}
