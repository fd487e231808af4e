import CSDL2
import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing

/// `t` and PgUp/PgDn on a playlist played on one timeline (issue 30): the subtitles and chapters of the item playing,
/// with the OSD saying so as for a single file. In the serialized playback suite (one SDL).
extension PlaybackTests {
    @Test func tAndTheChapterKeysSpeakOfTheItemPlaying() throws {
        useDummyDrivers()
        func item(_ colour: Color) -> Layer {
            let layer = Layer()
            layer.bounds = Rect(x: 0, y: 0, width: 64, height: 36)
            layer.anchorPoint = Point(x: 0, y: 0)
            layer.backgroundColor = colour
            return layer
        }
        let first = item(.red), second = item(.blue)
        let track = SubtitleTrack(kind: .text, codec: "subrip", assHeader: "",
                                  cues: [SubtitleCue(start: 0, end: 60_000, text: "one", assEvent: "")])
        let subtitles = SubtitleLayer(tracks: [track])
        subtitles.frame = first.bounds
        first.addSublayer(subtitles)
        let chapters = [Chapter(start: 0, end: 0.8, title: "Opening"), Chapter(start: 0.8, end: 2, title: "Middle")]
        let tree = PlaylistTree(items: [PlaylistTree.Item(layer: first, size: (64, 36), subtitles: subtitles),
                                        PlaylistTree.Item(layer: second, size: (64, 36), chapters: chapters)],
                                timeline: PlaylistTimeline(lengths: [2, 2], transition: 0), transition: nil, size: (64, 36))
        var options = PlaybackSession.Options(title: "a (1/2)", range: PlaybackRange(start: 0, end: 4, loops: false), frameRate: 20)
        options.keepOpen = true
        let session = try PlaybackSession(root: tree.root, size: (64, 36), player: nil, audioPath: nil, options: options) { _, _ in }
        session.willSnapshot = { tree.pose(at: $0) }
        session.playlistTree = tree
        session.playlist = Playlist(["a", "b"])
        var said: [String?] = []
        func run(_ command: PlayerCommand, noting: Bool = true) {
            do { try session.execute(command) } catch { said.append("error: \(error.detail)"); return }
            if noting { said.append(session.osd?.message) }
        }
        let script = Script()
        script.when({ $0.framesPresented >= 1 }) { _ in
            run(.set("pause", "yes"))
            run(.cycle("sub"))                 // a's subtitles off
            run(.set("playlist-pos", "1"), noting: false) // says nothing of its own
            run(.add("chapter", 1))            // b's second chapter
            run(.add("chapter", -1))           // back to its first
            run(.add("chapter", -1))           // before the first: its start, still b (as mpv: never the previous file)
            run(.set("playlist-pos", "0"), noting: false) // back to a
            run(.cycle("sub"))                 // a's subtitles on again
            press(SDLK_q)
        }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        #expect(said == ["Paused", "Subtitles: off", "Chapter 2/2: Middle", "Chapter 1/2: Opening", "Chapter 1/2: Opening", "Subtitles: track 1"],
                "\(said)")
        #expect(subtitles.selection.current == 0)
    }
}
