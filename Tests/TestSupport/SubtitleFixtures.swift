import Foundation

/// Subtitle files and movies with subtitle streams for the subtitle tests, made in a temporary folder: the text
/// files written directly, the movies by the ffmpeg CLI (a Debian package `make deps` installs).
///
/// Every track has two cues, 0.5–1.0 s and 1.0–1.5 s. The movies are 2 s of flat grey at 10 frames/s, 320×240,
/// so that a frame differs from the next only where a subtitle is drawn.
public struct SubtitleFixtures {
    public let directory: URL
    public var srt: String { path("two.srt") }
    /// Style "Red" (DejaVu Sans 40, red, top-left aligned) at \pos(40,30); style "Missing" names a font no machine
    /// has (green, at \pos(40,150)).
    public var ass: String { path("two.ass") }
    /// Cue 2 has a broken timing line (the demuxer folds it into cue 1), cue 3 ends before it starts; cues 1
    /// (0.5–1.0 s, "Good one") and 4 (1.0–1.5 s, "Good two") are fine.
    public var malformedSRT: String { path("bad.srt") }
    /// `grey` with `srt` as a mov_text stream.
    public var movTextMP4: String { path("movtext.mp4") }
    /// `grey` with `ass` as an ASS stream.
    public var assMKV: String { path("ass.mkv") }
    /// The movies' picture without subtitles.
    public var greyMP4: String { path("grey.mp4") }

    public static let srtText = """
    1
    00:00:00,500 --> 00:00:01,000
    First <i>cue</i>

    2
    00:00:01,000 --> 00:00:01,500
    Second cue

    """

    public static let assText = #"""
    [Script Info]
    ScriptType: v4.00+
    PlayResX: 320
    PlayResY: 240

    [V4+ Styles]
    Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
    Style: Red,DejaVu Sans,40,&H000000FF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1
    Style: Missing,No Such Font Family 4711,30,&H0000FF00,&H0000FF00,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1

    [Events]
    Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
    Dialogue: 0,0:00:00.50,0:00:01.00,Red,,0,0,0,,{\pos(40,30)}RED
    Dialogue: 0,0:00:01.00,0:00:01.50,Missing,,0,0,0,,{\pos(40,150)}GREEN

    """#

    public static let malformedSRTText = """
    1
    00:00:00,500 --> 00:00:01,000
    Good one

    2
    00:00:0x,000 --> garbage
    Bad timing

    3
    00:00:03,000 --> 00:00:02,000
    Backwards

    4
    00:00:01,000 --> 00:00:01,500
    Good two

    """

    /// Writes the files into a new temporary folder; throws when the ffmpeg CLI is missing or fails.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("layerplay-subtitles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.srtText.write(toFile: directory.appendingPathComponent("two.srt").path, atomically: true, encoding: .utf8)
        try Self.assText.write(toFile: directory.appendingPathComponent("two.ass").path, atomically: true, encoding: .utf8)
        try Self.malformedSRTText.write(toFile: directory.appendingPathComponent("bad.srt").path, atomically: true, encoding: .utf8)
        let grey = ["-f", "lavfi", "-i", "color=c=gray:size=320x240:rate=10:duration=2"]
        let video = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "1"]
        try ffmpeg(grey + video + ["grey.mp4"])
        try ffmpeg(grey + ["-i", "two.srt"] + video + ["-map", "0", "-map", "1", "-c:s", "mov_text", "movtext.mp4"])
        try ffmpeg(grey + ["-i", "two.ass"] + video + ["-map", "0", "-map", "1", "-c:s", "copy", "ass.mkv"])
    }

    /// Removes the folder.
    public func remove() { try? FileManager.default.removeItem(at: directory) }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs the ffmpeg CLI in the folder.
    public func ffmpeg(_ arguments: [String]) throws {
        try Self.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments, in: directory)
    }

    /// ffprobe's `codec_type:codec_name` of each stream of `file`.
    public func streams(of file: String) throws -> [String] {
        let out = try Self.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0:nk=1", file], in: directory)
        return out.split(separator: "\n").map { $0.split(separator: ",").reversed().joined(separator: ":") }
    }

    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> String {
        guard let executable = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw FixtureError("the \(tool) CLI is missing (make deps installs Debian's ffmpeg)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
