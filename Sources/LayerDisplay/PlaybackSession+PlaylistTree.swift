import Foundation
import LayerMedia

/// A playlist on one timeline in one window (issue 30): moving between items is a seek on the session's clock, so
/// the window, the sound device and the clock stay; the title, the OSD and the IPC follow the item playing.
extension PlaybackSession {
    /// `playlist-next` (`>`, Enter) and `playlist-prev` (`<`) on the timeline: next goes to where the next item
    /// plays alone (during a transition, that finishes it); previous to the start of the item before. At the ends of
    /// a looping playlist, the other end; of one that does not loop, an error as mpv's.
    func movePlaylist(on tree: PlaylistTree, next: Bool) throws(CommandError) -> OSDMessage? {
        let now = tree.playlistTime(clock.time)
        let round = clock.time - now // the clock time of this round's 0 (a looping playlist's clock runs on)
        let timeline = tree.timeline
        var target = next ? timeline.nextStop(after: now) : timeline.previousStop(before: now)
        if target == nil && tree.loops {
            target = next ? 0 : timeline.start(of: timeline.items.count - 1)
        }
        guard let target else {
            throw CommandError("error running command", next ? "the last item is playing" : "the first item is playing")
        }
        seek(to: round + target)
        return nil
    }

    /// `set playlist-pos K` on the timeline: the start of item `k`.
    func seekToPlaylistItem(_ k: Int) {
        guard let tree = playlistTree, tree.timeline.items.indices.contains(k) else { return }
        seek(to: clock.time - tree.playlistTime(clock.time) + tree.timeline.start(of: k))
    }

    /// Each turn of the loop: when the item shown changed, the playlist's index, the title and the OSD say so, and
    /// the IPC hears mpv's `start-file` and `file-loaded` for it.
    func followPlaylistTree() {
        guard let tree = playlistTree, let playlist else { return }
        let k = tree.index(at: presentedTime ?? clock.time)
        let previous = playlist.index
        guard k != previous, playlist.jump(to: k), let item = playlist.current else { return }
        let name = URL(fileURLWithPath: item).lastPathComponent
        window.setTitle("\(name) (\(k + 1)/\(playlist.items.count))")
        osd?.show(name, at: hostSeconds())
        ipc?.event("end-file", ["reason": k == previous + 1 ? "eof" : EndReason.playlistMove.rawValue, "playlist_entry_id": previous + 1])
        ipc?.event("start-file", ["playlist_entry_id": k + 1])
        ipc?.event("file-loaded")
    }

    /// The chapters PgUp/PgDn and `chapter` move between: the input's, or on a playlist's timeline the chapters of the
    /// item playing, in playlist time (the range's media time).
    var chapters: [Chapter] {
        guard let tree = playlistTree else { return options.chapters }
        return tree.chapters(of: tree.index(at: clock.time))
    }

    /// The subtitles `t` and `sub` act on: the tree's, or on a playlist's timeline those of the item playing.
    var playingSubtitles: SubtitleLayer? {
        guard let tree = playlistTree else { return subtitles }
        return tree.subtitles(of: tree.index(at: clock.time))
    }

    /// The subtitles a delay moves: every item's on a playlist's timeline (mpv's `sub-delay` holds for every file).
    var everySubtitles: [SubtitleLayer] { playlistTree?.allSubtitles ?? (subtitles.map { [$0] } ?? []) }

    /// `loadfile PATH append` on the timeline: the host opens the item ahead, as the others were, and appends it; the
    /// range then reaches the new end (`playlist-count`, `duration` and `>` see it at once).
    func appendItem(_ path: String) throws(CommandError) {
        guard let append = appendToTimeline, let tree = playlistTree else {
            throw CommandError("error running command", "this window cannot add to its playlist")
        }
        do { try append(path) } catch { throw CommandError("error running command", "loadfile: \(error)") }
        options.range.end = tree.timeline.duration
        letDecodersDropLateFrames()
    }
}
