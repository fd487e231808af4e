import Foundation

/// The inputs a player plays in turn, and which one is playing: shared by the host, which opens each item in a
/// session, and the session, whose commands (`playlist-next`, `playlist-prev`, `loadfile`, `set playlist-pos`) and
/// properties (`playlist-pos`, `playlist-count`, `filename`) read and move it. A move ends the session; the host then
/// opens `current`.
public final class Playlist {
    /// The inputs, in order.
    public private(set) var items: [String]
    /// The index of the item playing (or to play next); `items.count` when the list has run out.
    public private(set) var index = 0
    /// `--loop-playlist`: after the last item, the first again.
    public var loops = false

    /// A playlist of `items` (inputs as typed), from the first; `loops` as `--loop-playlist`.
    public init(_ items: [String], loops: Bool = false) { self.items = items; self.loops = loops }

    /// The item to play, or nil when the list has run out.
    public var current: String? { items.indices.contains(index) ? items[index] : nil }

    /// Moves to the next item (the first again when looping). False at the end of a list that does not loop (mpv's
    /// `playlist-next` then does nothing).
    @discardableResult
    public func next() -> Bool {
        if index + 1 < items.count { index += 1; return true }
        guard loops, !items.isEmpty else { return false }
        index = 0
        return true
    }

    /// Moves to the previous item (the last when looping). False at the start of a list that does not loop.
    @discardableResult
    public func previous() -> Bool {
        if index > 0 { index -= 1; return true }
        guard loops, !items.isEmpty else { return false }
        index = items.count - 1
        return true
    }

    /// Moves to item `i`; false when there is none.
    @discardableResult
    public func jump(to i: Int) -> Bool {
        guard items.indices.contains(i) else { return false }
        index = i
        return true
    }

    /// The item after the one that ended by itself: the next, the first again when looping, else none.
    public func advanceAtEnd() {
        if !next() { index = items.count }
    }

    /// `loadfile PATH` (replace): the list becomes PATH alone.
    public func replace(with path: String) { items = [path]; index = 0 }

    /// The list becomes `items`, from the first (a playlist on one timeline drops the items that failed to open).
    public func replaceItems(_ items: [String]) { self.items = items; index = 0 }

    /// `loadfile PATH append`.
    public func append(_ path: String) { items.append(path) }

    /// Drops the item that failed to open (the rest plays); `index` then names the item after it.
    public func removeCurrent() {
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
        if index >= items.count && loops && !items.isEmpty { index = 0 }
    }
}
