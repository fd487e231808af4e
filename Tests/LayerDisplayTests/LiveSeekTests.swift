import CSDL2
import Foundation
import LayerDisplay
import Testing

/// A live input (no duration, issue 28) cannot seek: the seek keys say so on the on-screen display and leave the
/// clock where it was. In the playback suite: it runs against the real clock.
extension PlaybackTests {
    @Test func aLiveInputsSeekKeysSaySoAndDoNotMoveTheClock() throws {
        let (session, _) = try makeSession("clip.mp4", seekable: false)
        var message: String?
        var before = 0.0, after = 0.0
        let script = Script()
        script.when({ $0.clock >= 0.3 }) { s in before = s.clock; press(SDLK_RIGHT) }
        script.when({ _ in session.osd?.message != nil }) { s in message = session.osd?.message; after = s.clock; press(SDLK_q) }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
        #expect(message == "Live: cannot seek")
        #expect(after < before + 1, "a 10 s seek did not happen: \(before) → \(after)")
    }
}
