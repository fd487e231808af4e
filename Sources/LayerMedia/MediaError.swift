/// A failure to open, probe or decode media: says what and where, as the CLI prints it.
public struct MediaError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// "cannot open 'x.mp4': Invalid data found when processing input", from an FFmpeg error code.
    static func ffmpeg(_ what: String, _ code: Int32) -> MediaError {
        MediaError("\(what): \(FFmpegLibraries.errorText(code))")
    }
}
