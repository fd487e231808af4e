import Foundation

/// Where an input comes from, as the user typed it: a local file, a pipe (`-` is standard input, `pipe:N` file
/// descriptor N, as ffmpeg) or a URL of any FFmpeg protocol (`http://…`, `rtmp://…`, `srt://…`, `udp://…`).
///
/// The command line opens any of them; a scene file opens only `.file` unless the user allows the network
/// (SCENES.md §2, `SceneFileRule`).
public enum InputLocation: Equatable, Sendable {
    /// A file on this machine (possibly a numbered pattern such as `frame_%04d.png`).
    case file(String)
    /// A pipe: the file descriptor (0 for `-`).
    case pipe(Int32)
    /// Anything FFmpeg opens by protocol; `scheme` is the part before the first colon, lowercased.
    case url(String, scheme: String)

    /// Classifies `name`: `-` and `pipe:N` are pipes, `scheme:…` with a known FFmpeg protocol is a URL, anything
    /// else a file (so `./a:b.mp4` and a Windows-less `clip:1.mp4` that names no protocol stay files).
    public init(_ name: String) {
        if name == "-" || name == "pipe:" { self = .pipe(0); return }
        if name.hasPrefix("pipe:"), let fd = Int32(name.dropFirst(5)), fd >= 0 { self = .pipe(fd); return }
        if let scheme = Self.scheme(of: name), Self.protocols.contains(scheme) {
            self = scheme == "file" ? .file(String(name.dropFirst(5))) : .url(name, scheme: scheme)
            return
        }
        self = .file(name)
    }

    /// The protocols FFmpeg reads that a user means when typing `name:`; `file:` is a file.
    static let protocols: Set<String> = [
        "file", "http", "https", "hls", "rtmp", "rtmps", "rtmpt", "rtmpe", "rtmpte", "rtmpts", "rtsp", "rtsps", "srt",
        "udp", "tcp", "tls", "rtp", "mmsh", "mmst", "ftp", "sftp", "gopher", "gophers", "icecast", "data",
        "concat", "subfile", "crypto", "async", "cache", "srtp", "unix", "zmq",
    ]

    /// The letters before the first colon when they form a URL scheme, lowercased.
    static func scheme(of name: String) -> String? {
        guard let colon = name.firstIndex(of: ":"), colon != name.startIndex, let first = name.first, first.isASCII, first.isLetter,
              name[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return name[..<colon].lowercased()
    }

    /// Whether reading it talks to another machine (or a local server) through a socket: these reads time out.
    public var isNetwork: Bool {
        if case .url(_, let scheme) = self { return !["data", "concat", "subfile", "crypto", "cache", "async"].contains(scheme) }
        return false
    }

    /// Whether it is a local file.
    public var isFile: Bool { if case .file = self { return true }; return false }

    /// A name FFmpeg's `avformat_open_input` reads as meant: a file by its absolute path (a relative `a:b.mp4` would
    /// name protocol `a`), a URL as typed. A pipe is not opened by name (`PipeSpool` reads it once for every opener).
    public var ffmpegName: String {
        switch self {
        case .file(let path): return path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        case .pipe(let fd): return "pipe:\(fd)"
        case .url(let url, _): return url
        }
    }

    /// Whether a file name is a numbered picture pattern (`frame_%04d.png`, `%d.jpg`): FFmpeg's image2 demuxer
    /// reads the pictures in order as a video.
    public var isPicturePattern: Bool {
        guard case .file(let path) = self else { return false }
        return MovieWriter.isImageSequence(path)
    }
}
