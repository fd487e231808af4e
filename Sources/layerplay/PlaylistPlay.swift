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
        // The list as given keys its resume entry (the items that fail to open are dropped below).
        let asGiven = list.items
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
        options.startPosition = resumePosition(asGiven, on: tree, opened: opened.items)
        let session: PlaybackSession
        do {
            session = try PlaybackSession(root: tree.root, size: canvas, player: nil, audioPath: nil, options: options) { _, _ in }
        } catch { throw RunError("\(error)") }
        session.willSnapshot = { tree.pose(at: $0) }
        session.videoWouldWait = { tree.videoWouldWait(at: $0) }
        session.playlistTree = tree
        session.appendToTimeline = appender(tree: tree, mix: opened.mix)
        session.playlist = list
        session.bindings = bindings
        session.ipc = ipc
        session.screenshotDirectory = screenshotDir
        let statistics = run(session)
        if stats { StandardError.writeLine(statistics.json) }
        switch session.endReason {
        case .eof:
            WatchLater.forgetPlaylist(asGiven)
            return .done
        case .playlistMove: return .listChanged
        case .quit:
            if savePositionOnQuit || session.quitWatchLater { savePosition(asGiven, of: session, on: tree) }
            if session.interruptedBy != nil { try Interruption.check(writing: list.current ?? input) }
            if let code = session.requestedExitCode, code != 0 { throw ExitRequest(code: code) }
            return .done
        }
    }

    /// Without --start, where this playlist was quit with its position saved: the clock time of that item at that
    /// item's saved position (its start when the item's own entry is gone); nil: from the start.
    private func resumePosition(_ asGiven: [String], on tree: PlaylistTree, opened: [String]) -> Double? {
        guard start == nil, let saved = WatchLater.playlistPosition(for: asGiven),
              let k = opened.indices.contains(saved.index) && opened[saved.index] == asGiven[saved.index]
                ? saved.index : opened.firstIndex(of: asGiven[saved.index]) else { return nil }
        return tree.playlistTime(ofItem: k, media: saved.position ?? -.infinity)
    }

    /// On quit (--save-position-on-quit, Q): the item playing and its position, under that file's key, and the
    /// playlist's entry naming it.
    private func savePosition(_ asGiven: [String], of session: PlaybackSession, on tree: PlaylistTree) {
        let (k, media) = tree.itemTime(at: session.position)
        guard let list = session.playlist, list.items.indices.contains(k),
              let index = asGiven.indices.contains(k) && asGiven[k] == list.items[k] ? k : asGiven.firstIndex(of: list.items[k]) else { return }
        if let problem = WatchLater.savePlaylist(asGiven, index: index, position: media) {
            StandardError.writeLine("layerplay: warning: \(problem)")
        }
    }

    /// `loadfile PATH append` while the timeline plays: the input is opened as the others were (its card, its
    /// decoders ahead from its start) and joins the timeline's end with the transition; its sound joins the mix (a
    /// playlist opened without sound stays silent). A still, a live stream or a file that fails is refused, one line.
    private func appender(tree: PlaylistTree, mix: PlaylistAudioMix?) -> (String) throws -> Void {
        var cards: [CardTree] = [] // the appended items' cards live as long as the session
        return { path in
            let item: OpenedItem
            do { item = try openPlaylistItem(path, inWindow: true) } catch let error as NotOnTimeline { throw RunError(error.description) }
            let longer = tree.timeline.appending(item.length, transition: tree.transition?.seconds ?? 0)
            if let mix { try mix.append(item.soundItem, timeline: longer) }
            tree.append(item.treeItem(inWindow: true), timeline: longer)
            cards.append(item.card)
        }
    }
}
