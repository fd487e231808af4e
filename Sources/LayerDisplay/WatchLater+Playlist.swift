import Foundation

/// Resuming a playlist played on one timeline (issue 30), as mpv resumes per file: on quit the item playing keeps its
/// position under its own file's key (`WatchLater.save`, so that playing that file alone resumes there too), and the
/// playlist gets an entry of its own, keyed by its items in order, naming that item (mpv's redirect entries name the
/// file a directory or a list was left on). Starting the same playlist without `--start` then begins at that item, at
/// its saved position. A playlist played to its end forgets both.
extension WatchLater {
    /// The key of a playlist: its items' absolute paths in order (the same items in another order are another list).
    static func playlistKey(_ items: [String]) -> String {
        "playlist\n" + items.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.joined(separator: "\n")
    }

    /// Remembers that `items` was quit on item `index`, at media time `seconds` of that item; nil, or one warning line.
    public static func savePlaylist(_ items: [String], index: Int, position seconds: Double) -> String? {
        guard items.indices.contains(index) else { return nil }
        if let problem = save(seconds, for: items[index]) { return problem }
        let url = file(forKey: playlistKey(items))
        let path = URL(fileURLWithPath: items[index]).standardizedFileURL.path
        do {
            let text = "# a playlist of \(items.count)\nplaylist-pos=\(index)\nfilename=\(path)\n"
            try Data(text.utf8).write(to: url, options: .atomic)
            return nil
        } catch {
            return "cannot save the position in \(url.path): \(error.localizedDescription)"
        }
    }

    /// Where `items` was quit: the item (its index, checked against its path: a list edited since resumes nothing) and
    /// its saved media time (nil when the item's own entry is gone: its start).
    public static func playlistPosition(for items: [String]) -> (index: Int, position: Double?)? {
        guard let text = try? String(contentsOf: file(forKey: playlistKey(items)), encoding: .utf8) else { return nil }
        var index: Int?, path: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("playlist-pos=") { index = Int(line.dropFirst(13)) }
            if line.hasPrefix("filename=") { path = String(line.dropFirst(9)) }
        }
        guard let index, items.indices.contains(index),
              URL(fileURLWithPath: items[index]).standardizedFileURL.path == path else { return nil }
        return (index, position(for: items[index]))
    }

    /// Forgets the playlist's entry and every item's position (it played to the end).
    public static func forgetPlaylist(_ items: [String]) {
        try? FileManager.default.removeItem(at: file(forKey: playlistKey(items)))
        for item in items { forget(item) }
    }
}
