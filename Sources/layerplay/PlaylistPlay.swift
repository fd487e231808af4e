import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

extension Layerplay {
    /// What became of a playlist played on one timeline.
    enum TimelineOutcome {
        /// Played to its end, or quit: nothing more to play.
        case done
        /// `loadfile` replaced the list: the host plays the new one.
        case listChanged
        /// An item cannot sit on a timeline (a still, a live stream): the host plays the items one session each.
        case notOnTimeline
    }

    /// Plays every item of `list` in one window on one clock (issue 30): one session, one sound device; the next
    /// item's decoders are open and ahead before the current one ends, the sound runs sample-continuous across items
    /// (crossfaded over a transition), and `>`/`<` seek on the timeline.
    func playTimeline(_ list: Playlist, ipc: PlayerIPC?, bindings: InputBindings) throws -> TimelineOutcome {
        // --loop plays each item again and again: it never ends, so there is no next item to join on a timeline.
        if loop {
            if playlistOptions.transition != nil { StandardError.writeLine("layerplay: warning: no transitions: --loop repeats each item") }
            return .notOnTimeline
        }
        let opened: OpenedPlaylist
        do {
            opened = try openPlaylist(list.items, inWindow: true) { item, error in
                StandardError.writeLine("layerplay: warning: skipping '\(item)': \(error.description)")
            }
        } catch let error as NotOnTimeline {
            if playlistOptions.transition != nil {
                StandardError.writeLine("layerplay: warning: no transitions: \(error.description)")
            }
            return .notOnTimeline
        }
        // The items that failed are gone from the list, as the per-item loop drops them.
        list.replaceItems(opened.items)
        let tree = opened.tree
        let timeline = tree.timeline
        let canvas = tree.size
        let name = URL(fileURLWithPath: opened.items[0]).lastPathComponent
        var frameRate: Double?
        if let r = opened.frameRate { frameRate = Double(r.num) / Double(r.den) }
        var options = windowOptions(title: "\(name) (1/\(opened.items.count))", fileName: name,
                                    range: PlaybackRange(start: 0, end: timeline.duration, loops: loopPlaylist), frameRate: frameRate)
        options.audioMix = opened.mix
        let session: PlaybackSession
        do {
            session = try PlaybackSession(root: tree.root, size: canvas, player: nil, audioPath: nil, options: options) { _, _ in }
        } catch { throw RunError("\(error)") }
        session.willSnapshot = { tree.pose(at: $0) }
        session.videoWouldWait = { tree.videoWouldWait(at: $0) }
        session.playlistTree = tree
        session.playlist = list
        session.bindings = bindings
        session.ipc = ipc
        session.screenshotDirectory = screenshotDir
        let statistics = run(session)
        if stats { StandardError.writeLine(statistics.json) }
        switch session.endReason {
        case .eof: return .done
        case .playlistMove: return .listChanged
        case .quit:
            if session.interruptedBy != nil { try Interruption.check(writing: list.current ?? input) }
            if let code = session.requestedExitCode, code != 0 { throw ExitRequest(code: code) }
            return .done
        }
    }
}
