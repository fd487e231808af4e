import CFFmpeg
import Foundation

/// A chapter of a medium (Matroska's, MP4's chapter lists): where it starts and ends in media seconds, and its title.
public struct Chapter: Sendable, Equatable, Codable {
    /// Where the chapter starts, media seconds.
    public var start: Double
    /// Where it ends, media seconds.
    public var end: Double
    /// Its title (empty when the file gives none).
    public var title: String
    /// A chapter from `start` to `end` named `title`.
    public init(start: Double, end: Double, title: String) { self.start = start; self.end = end; self.title = title }
}

extension MediaAsset {
    /// The chapters of the file at `path`, in order of their starts; empty when it has none.
    public static func chapters(of path: String) throws -> [Chapter] {
        let format = try FFmpegFormat(path: path)
        guard let context = format.context, let list = context.pointee.chapters else { return [] }
        var chapters: [Chapter] = []
        for i in 0..<Int(context.pointee.nb_chapters) {
            guard let chapter = list[i]?.pointee else { continue }
            let base = av_q2d(chapter.time_base)
            guard base > 0 else { continue }
            let title = av_dict_get(chapter.metadata, "title", nil, 0).flatMap { $0.pointee.value.map { String(cString: $0) } }
            chapters.append(Chapter(start: Double(chapter.start) * base, end: Double(chapter.end) * base, title: title ?? "Chapter \(i + 1)"))
        }
        return chapters.sorted { $0.start < $1.start }
    }
}
