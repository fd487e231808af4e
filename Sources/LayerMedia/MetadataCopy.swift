import CFFmpeg
import Foundation

/// Carries a source's global metadata (title, artist, comment, …) and its chapters into an output, as ffmpeg does
/// by default from its first input: chapters are cut to the exported range and shifted so that the range starts
/// at 0 (a chapter that ends before the range or starts after it is left out). What only describes the source's
/// own file (`major_brand`, `encoder`, …) is not copied; the muxer writes its own.
enum MetadataCopy {
    private static let fileKeys: Set<String> = ["major_brand", "minor_version", "compatible_brands", "encoder", "creation_time"]

    /// Copies into `output` before its header is written; a source that cannot be opened adds nothing.
    static func copy(from source: String?, range: ClosedRange<Double>?, into output: UnsafeMutablePointer<AVFormatContext>) {
        guard let source, let input = try? FFmpegFormat(path: source), let context = input.context else { return }
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            let key = String(cString: next.pointee.key)
            if fileKeys.contains(key.lowercased()) { continue }
            av_dict_set(&output.pointee.metadata, next.pointee.key, next.pointee.value, 0)
        }
        let from = range?.lowerBound ?? 0, to = range?.upperBound ?? .infinity
        let count = Int(context.pointee.nb_chapters)
        guard count > 0, let chapters = context.pointee.chapters else { return }
        var kept: [UnsafeMutablePointer<AVChapter>] = []
        for i in 0..<count {
            guard let chapter = chapters[i] else { continue }
            let tb = av_q2d(chapter.pointee.time_base)
            let start = Double(chapter.pointee.start) * tb, end = Double(chapter.pointee.end) * tb
            guard end > from, start < to else { continue }
            guard let copy = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self) else { return }
            copy.pointee.id = chapter.pointee.id
            copy.pointee.time_base = AVRational(num: 1, den: 1000)
            copy.pointee.start = Int64(((max(start, from) - from) * 1000).rounded())
            copy.pointee.end = Int64(((min(end, to) - from) * 1000).rounded())
            av_dict_copy(&copy.pointee.metadata, chapter.pointee.metadata, 0)
            kept.append(copy)
        }
        guard !kept.isEmpty,
              let array = av_malloc_array(kept.count, MemoryLayout<UnsafeMutablePointer<AVChapter>?>.size)?
                .assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self) else { return }
        for (i, chapter) in kept.enumerated() { array[i] = chapter }
        // The output had none: `avformat_free_context` frees the array, each chapter and its metadata.
        output.pointee.chapters = array
        output.pointee.nb_chapters = UInt32(kept.count)
    }
}
