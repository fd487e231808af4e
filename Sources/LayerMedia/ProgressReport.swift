import CFFmpeg
import CShims
import Foundation

/// Machine-readable progress in ffmpeg's `-progress` format, so that the GUIs, queues and CI wrappers that parse
/// ffmpeg's read ours unchanged: blocks of `key=value` lines, each ending with `progress=continue`, about every
/// half second, and a last one with `progress=end`. Written to anything FFmpeg can write to: a file, `pipe:1`
/// (`-` on the command line), `tcp://`, `http://` (a POST, as ffmpeg's).
public final class ProgressReport {
    /// What one block says.
    public struct Snapshot: Sendable, Equatable {
        /// Frames encoded so far.
        public var frame: Int
        /// Frames a second of wall time so far.
        public var framesPerSecond: Double
        /// Bytes of output so far; nil when not known.
        public var bytes: Int64?
        /// The output's time so far, in microseconds (frames · frame duration).
        public var outTimeMicroseconds: Int64
        /// Wall seconds since the export began.
        public var elapsed: Double
        /// A block's values.
        public init(frame: Int, framesPerSecond: Double, bytes: Int64?, outTimeMicroseconds: Int64, elapsed: Double) {
            self.frame = frame; self.framesPerSecond = framesPerSecond; self.bytes = bytes
            self.outTimeMicroseconds = outTimeMicroseconds; self.elapsed = elapsed
        }
    }

    private var io: UnsafeMutablePointer<AVIOContext>?
    private let target: String
    private var lastWrite = -Double.infinity
    /// Seconds between two blocks (ffmpeg's `-stats_period`, 0.5 s by default).
    public var period = 0.5

    /// Opens `target` for writing: a path, `-` (standard output) or any URL FFmpeg writes to.
    public init(target: String) throws {
        self.target = target
        let url = target == "-" ? "pipe:1" : target
        FFmpegLogging.quietOnce()
        var context: UnsafeMutablePointer<AVIOContext>? = nil
        let opened = FFmpegLogging.reason { avio_open2(&context, url, AVIO_FLAG_WRITE, nil, nil) }
        guard opened.status >= 0, let context else { throw MediaError.ffmpeg("cannot write the progress to '\(target)'", opened) }
        io = context
    }

    deinit { close() }

    /// One block in ffmpeg's words and order (`print_report` in ffmpeg 5.1). `out_time_ms` is in microseconds
    /// too, as ffmpeg writes it (a name kept for its parsers).
    public static func block(_ s: Snapshot, end: Bool) -> String {
        let us = max(0, s.outTimeMicroseconds)
        let seconds = Double(us) / 1e6
        let bitrate: String
        if let bytes = s.bytes, seconds > 0 { bitrate = String(format: "%6.1fkbits/s", Double(bytes) * 8 / seconds / 1000) } else { bitrate = "N/A" }
        let speed = s.elapsed > 0 && us > 0 ? String(format: "%4.3gx", seconds / s.elapsed) : "N/A"
        let clock = String(format: "%02lld:%02lld:%02lld.%06lld", us / 3_600_000_000, us / 60_000_000 % 60, us / 1_000_000 % 60, us % 1_000_000)
        return """
        frame=\(s.frame)
        fps=\(String(format: "%.2f", s.framesPerSecond))
        stream_0_0_q=-1.0
        bitrate=\(bitrate)
        total_size=\(s.bytes.map(String.init) ?? "N/A")
        out_time_us=\(us)
        out_time_ms=\(us)
        out_time=\(clock)
        dup_frames=0
        drop_frames=0
        speed=\(speed)
        progress=\(end ? "end" : "continue")

        """
    }

    /// Writes a `continue` block when `period` has passed since the last one. A reader that went away ends the
    /// report, not the export.
    public func update(_ snapshot: Snapshot) {
        guard io != nil, snapshot.elapsed - lastWrite >= period else { return }
        lastWrite = snapshot.elapsed
        write(Self.block(snapshot, end: false))
    }

    /// Writes the `end` block and closes the target.
    public func finish(_ snapshot: Snapshot) {
        write(Self.block(snapshot, end: true))
        close()
    }

    private func write(_ text: String) {
        guard let io else { return }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { avio_write(io, $0.baseAddress, Int32($0.count)) }
        avio_flush(io)
        if io.pointee.error < 0 { close() }
    }

    private func close() {
        guard io != nil else { return }
        avio_closep(&io)
    }
}
