import Foundation
import LayerMedia

/// What a scene may open: local files it names, nothing else (issue 19: a scene file is never trusted to reach
/// outside what it names). FFmpeg opens any string it is given as a URL (`http://…`, `pipe:0`, `concat:a|b`,
/// `subfile:`, `data:`…), so every file a scene names is checked here before it reaches a demuxer or decoder, and
/// opened by an absolute path, which FFmpeg always reads with its `file` protocol.
public enum SceneFileRule {
    /// Why `name` (as written or computed, before it is joined to a folder) cannot be opened, or nil when it is a
    /// plain file name. With `allowsNetwork` (the command line's own input, or `--allow-network`), a URL of any
    /// FFmpeg protocol and a pipe (`-`, `pipe:N`) are allowed too (`InputLocation`); a command never is. `isInput`:
    /// the name is a media input's, which `--allow-network` would allow (the message says so; for an image,
    /// subtitle file or included scene it would not).
    public static func refusal(_ name: String, allowsNetwork: Bool = false, isInput: Bool = false) -> String? {
        let unless = isInput ? " unless run with --allow-network" : ""
        if name.isEmpty { return "expected a file name, got an empty string" }
        if name.contains("\0") { return "expected a file name, got a string with a NUL character" }
        if name.hasPrefix("|") || name.hasPrefix("!") {
            return "expected a local file, got \(SceneValue.string(name).shortDescription): a scene runs no commands"
        }
        if allowsNetwork && !InputLocation(name).isFile { return nil }
        if name == "-" {
            return "expected a local file, got \"-\": a scene reads no pipes\(unless) (write ./- for a file named -)"
        }
        if let colon = name.firstIndex(of: ":"), let first = name.first, first.isASCII, first.isLetter,
           name[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            return "expected a local file, got \(SceneValue.string(name).shortDescription): a scene reads only files it names, "
                + "no URLs or FFmpeg protocols such as \(name[...colon])\(unless) (write ./\(name) for a file whose name has a colon)"
        }
        return nil
    }

    /// `path` made absolute against the working directory: FFmpeg reads an absolute path as a file whatever it
    /// contains, where a relative `a:b.mp4` would name protocol `a`.
    public static func openable(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    /// A media input's name as FFmpeg is to open it: a file made absolute (`openable`), a URL or pipe as written.
    /// Only an allowed name (`refusal(_:allowsNetwork:)`) reaches here, so a URL or pipe is one the user allowed.
    public static func openableInput(_ src: String) -> String {
        InputLocation(src).isFile ? openable(src) : src
    }
}
