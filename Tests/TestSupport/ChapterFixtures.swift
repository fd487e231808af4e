import Foundation

/// Chapters for the player's PgUp/PgDn tests, written with ffmpeg's FFMETADATA.
public enum ChapterFixtures {
    /// Copies `source` (streams untouched) to `movie` in `directory` with two chapters: "Opening" from 0 to 0.8 s and
    /// "Middle" from 0.8 to 2 s. Relative paths are taken in `directory`.
    public static func copyWithTwoChapters(_ source: String, to movie: String, in directory: URL) throws {
        let meta = directory.appendingPathComponent("chapters-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: meta) }
        try """
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=800
        title=Opening
        [CHAPTER]
        TIMEBASE=1/1000
        START=800
        END=2000
        title=Middle
        """.write(to: meta, atomically: true, encoding: .utf8)
        _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", source, "-i", meta.path,
                                                "-map_metadata", "1", "-map_chapters", "1", "-c", "copy", movie], in: directory)
    }
}
