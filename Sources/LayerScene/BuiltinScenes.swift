/// Scenes compiled into the binary, named `builtin:NAME` wherever a scene file is (SCENES.md §5): `builtin:card` is
/// today's command-line flags as a scene, so `layerplay ship.mp4` needs no file on disk. Their single source is
/// `Config/scenes/NAME.json`; `make builtin-scenes` copies it into `BuiltinScenes+Card.swift`, and a test holds
/// the copy to the file byte for byte.
public enum BuiltinScenes {
    /// What a built-in scene's name starts with where a scene file's path would be: `builtin:card`.
    public static let prefix = "builtin:"

    /// The built-in scenes by name (without the prefix).
    public static let all: [String: String] = ["card": card]

    /// Whether `path` names a built-in scene rather than a file.
    public static func isBuiltin(_ path: String) -> Bool { path.hasPrefix(prefix) }

    /// The text of the built-in scene `path` names (`builtin:card`), nil for a file or an unknown name.
    public static func text(of path: String) -> String? {
        guard isBuiltin(path) else { return nil }
        return all[String(path.dropFirst(prefix.count))]
    }
}
