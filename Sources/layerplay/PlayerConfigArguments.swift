import ArgumentParser
import LayerDisplay

/// `~/.config/layerplay/layerplay.conf` (`$XDG_CONFIG_HOME`): mpv's `mpv.conf` for the player, options without
/// their `--`, one a line. They go before the command line's arguments, so the command line overrides them.
enum PlayerConfigArguments {
    /// The file's options as arguments, or nil without a file. A line that is not an option of ours is refused
    /// with one error line naming the file and the line (a typo in a config must not go unnoticed).
    static func load() throws -> [String]? {
        guard let file = PlayerConfig.optionsFile() else { return nil }
        var arguments: [String] = []
        for (line, argument) in PlayerConfig.optionArguments(in: file.text) {
            let expanded = OptionalValueFlags.expand([argument])
            do { _ = try Layerplay.parseAsRoot(expanded + ["input"]) } catch {
                let reason = Layerplay.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
                throw RunError("\(file.path) line \(line): \(reason)")
            }
            arguments += expanded
        }
        return arguments
    }
}
