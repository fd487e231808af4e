import CFFmpeg
import CShims
import Foundation

/// FFmpeg prints to stderr unless told not to, and the CLI promises one error line. Its log is kept quiet, but
/// the last error it logged on a thread is kept: an encoder or muxer says why in the log ("width not divisible
/// by 2 (1x1)") and returns only a bare code ("Invalid argument").
enum FFmpegLogging {
    private static let once: Void = {
        lp_av_log_keep_errors()
        // SVT-AV1 (libsvtav1) prints its banner and settings on stderr itself; SVT_LOG=0 leaves only fatal errors.
        // Set before any encoder or thread exists (the first FFmpeg call opens the input), unless the user set it.
        setenv("SVT_LOG", "0", 0)
        // No single allocation above 512 MB: FFmpeg's default limit is 2 GB, and a damaged 396-byte PNG whose
        // chunk claims 2 GB made the demuxer ask for all of it (found by `make fuzz`). Decoded pictures of every
        // size we accept (16384 × 16384 × 4 bytes at most, in planes) stay far below.
        av_max_alloc(Self.maximumAllocation)
    }()

    /// The largest block FFmpeg may allocate at once.
    static let maximumAllocation = 512 << 20
    static func quietOnce() { _ = once }

    /// Runs an FFmpeg call; returns its status and, when it failed, the error FFmpeg logged meanwhile on this
    /// thread (nil when it logged none).
    static func reason(of call: () -> Int32) -> (status: Int32, reason: String?) {
        quietOnce()
        lp_av_clear_error()
        let status = call()
        guard status < 0 else { return (status, nil) }
        return (status, lastError())
    }

    /// The last error FFmpeg logged on this thread, or nil.
    static func lastError() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = lp_av_last_error(&buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
