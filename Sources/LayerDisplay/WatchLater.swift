import Foundation

/// Where playback of a file stopped, to start there next time (mpv's `watch_later`): `--save-position-on-quit`
/// (or `Q`) writes `$XDG_STATE_HOME/layerplay/watch_later/HASH` (`start=SECONDS`, mpv's line); the next playback of
/// that file without `--start` begins there; a playback that reaches the end forgets it.
public enum WatchLater {
    /// The file for `input`: named by a hash of its absolute path (as mpv names its files), so any path can be saved.
    static func file(for input: String) -> URL { file(forKey: URL(fileURLWithPath: input).standardizedFileURL.path) }

    /// The file named by a hash of `key` (a file's absolute path, or a playlist's key).
    static func file(forKey key: String) -> URL {
        // FNV-1a, 64 bits: stable across runs and machines (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return PlayerConfig.stateDirectory.appendingPathComponent("watch_later").appendingPathComponent(String(format: "%016llX", hash))
    }

    /// Remembers `seconds` (media time) for `input`; a failure is one warning line (playback is over anyway).
    public static func save(_ seconds: Double, for input: String) -> String? {
        let url = file(for: input)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = "# \(URL(fileURLWithPath: input).standardizedFileURL.path)\nstart=\(String(format: "%.6f", seconds))\n"
            try Data(text.utf8).write(to: url, options: .atomic)
            return nil
        } catch {
            return "cannot save the position in \(url.path): \(error.localizedDescription)"
        }
    }

    /// The remembered position of `input`, if any.
    public static func position(for input: String) -> Double? {
        guard let text = try? String(contentsOf: file(for: input), encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("start=") {
            if let value = Double(line.dropFirst(6)), value.isFinite, value >= 0 { return value }
        }
        return nil
    }

    /// Forgets `input`'s position (it played to the end).
    public static func forget(_ input: String) {
        try? FileManager.default.removeItem(at: file(for: input))
    }
}
