import Foundation

/// A test's temporary folder of media, removed when the test lets go of it: the ffmpeg CLI makes clips in it
/// (`ffmpeg(_:)`) and decodes what the code under test wrote (`monoSamples(of:filter:)`). Sound tests subclass it for
/// the clip they need.
open class MediaScratch {
    public let folder: URL

    /// Creates `<temporary>/<prefix>-<UUID>`.
    public init(_ prefix: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs the ffmpeg CLI quietly in the folder (`-nostdin -loglevel error -y`, then `arguments`).
    public func ffmpeg(_ arguments: [String]) throws {
        _ = try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments, in: folder)
    }

    /// The mono 48 kHz samples of `file`, decoded by the ffmpeg CLI through `filter` (an `-af` chain) when given.
    public func monoSamples(of file: String, filter: String? = nil) throws -> [Float] {
        let raw = path("decoded-\(UUID().uuidString).f32")
        try ffmpeg(["-i", file, "-vn", "-ac", "1", "-ar", "48000"] + (filter.map { ["-af", $0] } ?? []) + ["-f", "f32le", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
