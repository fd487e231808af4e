import LayerMedia

/// An item's own time on a playlist's timeline: where to resume it, its chapters and its subtitles (issue 30).
extension PlaylistTree {
    /// The item playing at clock time `t` (the incoming one during a transition) and its media time there.
    public func itemTime(at t: Double) -> (index: Int, media: Double) {
        let k = index(at: t)
        return (k, playlistTime(t) + mediaOffset(k))
    }

    /// The playlist time at which item `k` shows its media time `media` (kept within the item's span).
    public func playlistTime(ofItem k: Int, media: Double) -> Double {
        let time = media - mediaOffset(k)
        return min(max(time, timeline.start(of: k)), max(timeline.start(of: k), timeline.end(of: k) - 1e-3))
    }

    /// Item `k`'s chapters that fall in its span, their starts in playlist time (one that began before the item's
    /// `--start` begins at the item's start).
    public func chapters(of k: Int) -> [Chapter] {
        let start = timeline.start(of: k), end = timeline.end(of: k)
        return items[k].chapters.compactMap { chapter in
            let from = chapter.start - mediaOffset(k), to = chapter.end - mediaOffset(k)
            guard from < end - 1e-6, to > start + 1e-6 || chapter.end <= chapter.start else { return nil }
            return Chapter(start: max(from, start), end: min(to, end), title: chapter.title)
        }
    }

    /// Item `k`'s subtitles.
    public func subtitles(of k: Int) -> SubtitleLayer? { items[k].subtitles }

    /// Every item's subtitles (a subtitle delay applies to all, as mpv's `sub-delay` to every file).
    public var allSubtitles: [SubtitleLayer] { items.compactMap(\.subtitles) }
}
