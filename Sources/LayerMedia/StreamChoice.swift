import CFFmpeg
import Foundation
import LayerGraphics

/// Which video and audio stream of a file is read (`--video-stream N`, `--audio-stream N`): N counts the streams
/// of that kind, 0 = the first, as ffmpeg's `v:N` and `a:N` and our `--subtitles STREAM`. Without a choice, the
/// one FFmpeg ranks best (`av_find_best_stream`), as before.
///
/// The choice belongs to the file, for the whole run: every reader of it (the probe, the picture's decoder, the
/// window's sound, an export's copied or re-encoded audio) asks `FFmpegFormat.bestStream`, which asks here, so the
/// command line's choice reaches them all without being handed down through every layer between.
public enum StreamChoice {
    /// The kinds of stream a choice is made for.
    public enum Kind: String, Sendable {
        /// Video streams (`--video-stream`).
        case video
        /// Audio streams (`--audio-stream`).
        case audio
    }

    private static let choices = Guarded<[String: [Kind: Int]]>([:])

    /// The key of a file: its resolved path (a URL as it is), so that each spelling of one file finds the choice.
    static func key(_ path: String) -> String {
        path.contains("://") ? path : URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Reads stream `number` of `kind` of `path` from now on.
    public static func choose(_ number: Int, of kind: Kind, in path: String) {
        let key = key(path)
        choices.withLock { $0[key, default: [:]][kind] = number }
    }

    /// The chosen number of `kind` for `path`, if any.
    static func chosen(_ kind: Kind, in path: String) -> Int? {
        let key = key(path)
        return choices.withLock { $0[key]?[kind] }
    }

    /// The container indices of the streams of one FFmpeg media type, in order.
    static func indices(of type: AVMediaType, in format: FFmpegFormat) -> [Int] {
        format.streams.enumerated().compactMap { $0.element.pointee.codecpar.pointee.codec_type == type ? $0.offset : nil }
    }

    /// How many streams of `kind` the file has; throws when it cannot be opened.
    public static func count(_ kind: Kind, in path: String) throws -> Int {
        indices(of: kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO, in: try FFmpegFormat(path: path)).count
    }
}

extension FFmpegFormat {
    /// The stream of a kind the run reads: the one chosen for this file (`StreamChoice`), else FFmpeg's best; nil
    /// when there is none (or the chosen one does not exist: the command line checks that first, with its own words).
    func bestStream(_ type: AVMediaType) -> Int? {
        let kind: StreamChoice.Kind? = type == AVMEDIA_TYPE_VIDEO ? .video : type == AVMEDIA_TYPE_AUDIO ? .audio : nil
        if let kind, let number = StreamChoice.chosen(kind, in: path) {
            let all = StreamChoice.indices(of: type, in: self)
            return number < all.count ? all[number] : nil
        }
        let i = av_find_best_stream(context, type, -1, -1, nil, 0)
        return i >= 0 ? Int(i) : nil
    }
}

/// One stream of a file as `probe` lists it: its index in the container, and its number among streams of its kind
/// (what `--video-stream`, `--audio-stream` and `--subtitles STREAM` take).
public struct StreamEntry: Sendable, Codable {
    /// The index in the container (ffmpeg's `0:N`).
    public var index: Int
    /// `video`, `audio`, `subtitle`, `data` or `attachment`.
    public var type: String
    /// Its number among the streams of its type, 0 = the first (ffmpeg's `v:N`, `a:N`, `s:N`).
    public var number: Int
    /// The codec's FFmpeg name (`h264`, `aac`, `subrip`…).
    public var codec: String
    /// The `language` and `title` tags, when the file has them.
    public var language: String?
    /// The `title` tag, when the file has one.
    public var title: String?
    /// Marked as the default of its kind.
    public var isDefault: Bool

    /// Every stream of `format`, in container order.
    static func all(in format: FFmpegFormat) -> [StreamEntry] {
        var counts: [String: Int] = [:]
        return format.streams.enumerated().map { index, stream in
            let par = stream.pointee.codecpar.pointee
            let type = av_get_media_type_string(par.codec_type).map { String(cString: $0) } ?? "unknown"
            let number = counts[type, default: 0]
            counts[type] = number + 1
            func tag(_ name: String) -> String? { av_dict_get(stream.pointee.metadata, name, nil, 0).map { String(cString: $0.pointee.value) } }
            return StreamEntry(index: index, type: type, number: number, codec: String(cString: avcodec_get_name(par.codec_id)),
                               language: tag("language"), title: tag("title"),
                               isDefault: stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0)
        }
    }
}
