/// A failure to open, probe or decode media: says what and where, as the CLI prints it.
public struct MediaError: Error, CustomStringConvertible, Sendable {
    /// What failed and where, in one line.
    public let description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }

    /// "cannot open 'x.mp4': Invalid data found when processing input", from an FFmpeg error code.
    static func ffmpeg(_ what: String, _ code: Int32) -> MediaError {
        MediaError("\(what): \(FFmpegLibraries.errorText(code))")
    }

    /// "cannot open the encoder libx264 for 'a.mp4': width not divisible by 2 (1x1)": the reason FFmpeg logged
    /// when there is one (see `FFmpegLogging.reason(of:)`), else the text of the code.
    static func ffmpeg(_ what: String, _ result: (status: Int32, reason: String?)) -> MediaError {
        MediaError("\(what): \(result.reason ?? FFmpegLibraries.errorText(result.status))")
    }
}
