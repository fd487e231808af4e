import Foundation
import LayerMedia

/// Where the player's files live, as the XDG base directories say (mpv's places, under `layerplay`):
/// `$XDG_CONFIG_HOME/layerplay/` (`~/.config/layerplay/`) holds `input.conf` and `layerplay.conf`;
/// `$XDG_STATE_HOME/layerplay/` (`~/.local/state/layerplay/`) holds what the player remembers (resume positions).
public enum PlayerConfig {
    /// `$XDG_CONFIG_HOME/layerplay`, or `~/.config/layerplay`.
    public static var configDirectory: URL { base("XDG_CONFIG_HOME", fallback: ".config").appendingPathComponent("layerplay") }
    /// `$XDG_STATE_HOME/layerplay`, or `~/.local/state/layerplay`.
    public static var stateDirectory: URL { base("XDG_STATE_HOME", fallback: ".local/state").appendingPathComponent("layerplay") }

    private static func base(_ variable: String, fallback: String) -> URL {
        // The spec: a relative path in the variable is invalid and ignored.
        if let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(fallback)
    }

    /// The default bindings with the user's `input.conf` over them; each line that is not a binding is one warning
    /// line on stderr (naming the file and line), as mpv does, and playback goes on.
    public static func loadBindings() -> InputBindings {
        var bindings = InputBindings.defaults
        let file = configDirectory.appendingPathComponent("input.conf")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return bindings }
        for problem in bindings.apply(conf: text) {
            StandardError.writeLine("layerplay: warning: \(file.path) \(problem)")
        }
        return bindings
    }

    /// The options of `layerplay.conf` as command-line arguments (`name=value` → `--name=value`, a bare `name` →
    /// `--name`, `name=yes` → `--name`, `name=no` → nothing), each with its line number; empty when there is no file.
    /// mpv's syntax: one option a line without the `--`, `#` comments.
    public static func optionArguments(in text: String) -> [(line: Int, argument: String)] {
        var out: [(line: Int, argument: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]).trimmingCharacters(in: .whitespaces) }
            if line.isEmpty { continue }
            if line.hasPrefix("--") { line.removeFirst(2) }
            guard let eq = line.firstIndex(of: "=") else { out.append((index + 1, "--" + line)); continue }
            let name = line[..<eq].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q { value = String(value.dropFirst().dropLast()) }
            switch value {
            case "yes": out.append((index + 1, "--" + name))
            case "no": continue
            default: out.append((index + 1, "--\(name)=\(value)"))
            }
        }
        return out
    }

    /// The text of the user's `layerplay.conf` and its path, or nil when there is none.
    public static func optionsFile() -> (path: String, text: String)? {
        let file = configDirectory.appendingPathComponent("layerplay.conf")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return (file.path, text)
    }
}
