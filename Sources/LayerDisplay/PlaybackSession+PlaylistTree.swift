import Foundation

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
}
