import Foundation

/// What a scene may open: local files it names, nothing else (issue 19: a scene file is never trusted to reach
/// outside what it names). FFmpeg opens any string it is given as a URL (`http://…`, `pipe:0`, `concat:a|b`,
/// `subfile:`, `data:`…), so every file a scene names is checked here before it reaches a demuxer or decoder, and
/// opened by an absolute path, which FFmpeg always reads with its `file` protocol.
public enum SceneFileRule {
    /// Why `name` (as written or computed, before it is joined to a folder) cannot be opened, or nil when it is a
    /// plain file name.
    public static func refusal(_ name: String) -> String? {
        if name.isEmpty { return "expected a file name, got an empty string" }
        if name.contains("\0") { return "expected a file name, got a string with a NUL character" }
        if name.hasPrefix("|") || name.hasPrefix("!") {
            return "expected a local file, got \(SceneValue.string(name).shortDescription): a scene runs no commands"
        }
        if let colon = name.firstIndex(of: ":"), let first = name.first, first.isASCII, first.isLetter,
           name[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            return "expected a local file, got \(SceneValue.string(name).shortDescription): a scene reads only files it names, "
                + "no URLs or FFmpeg protocols such as \(name[...colon]) (write ./\(name) for a file whose name has a colon)"
        }
        return nil
    }

    /// `path` made absolute against the working directory: FFmpeg reads an absolute path as a file whatever it
    /// contains, where a relative `a:b.mp4` would name protocol `a`.
    public static func openable(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }
}
