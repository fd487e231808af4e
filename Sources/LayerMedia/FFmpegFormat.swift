import CFFmpeg
import CShims
import Foundation

/// An opened container (AVFormatContext) that closes itself.
final class FFmpegFormat {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let path: String

    /// Opens and probes `path` (a file or any URL FFmpeg can read).
    init(path: String) throws {
        self.path = path
        FFmpegLogging.quietOnce()
        if !path.contains("://") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MediaError("cannot open '\(path)': No such file or directory")
            }
            if isDirectory.boolValue { throw MediaError("cannot open '\(path)': it is a directory") }
        }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        let status = avformat_open_input(&ctx, path, nil, nil)
        guard status >= 0, ctx != nil else { throw MediaError.ffmpeg("cannot open '\(path)'", status) }
        context = ctx
        // FFmpeg's "tty" demuxer shows any .txt/.ans file as ANSI art; nobody means a text file as media.
        if let name = ctx!.pointee.iformat?.pointee.name, String(cString: name) == "tty" {
            throw MediaError("cannot open '\(path)': a text file, not media")
        }
        let found = avformat_find_stream_info(ctx, nil)
        guard found >= 0 else { throw MediaError.ffmpeg("cannot read the streams of '\(path)'", found) }
    }

    deinit { avformat_close_input(&context) }

    var streams: [UnsafeMutablePointer<AVStream>] {
        guard let c = context else { return [] }
        return (0..<Int(c.pointee.nb_streams)).compactMap { c.pointee.streams[$0] }
    }

    // `bestStream(_:)`, the stream of a kind the run reads, is in StreamChoice.swift.
}

extension FFmpegFormat {
    /// The first timestamp of stream `index` (0 when unknown): media times are measured from it.
    func startPTS(ofStream index: Int) -> Int64 {
        let s = streams[index].pointee.start_time
        return s == lp_av_nopts_value() ? 0 : s
    }

    /// Moves reading back to the keyframe at or before `seconds` (from the stream's start) of stream `index`;
    /// false when the container cannot seek by timestamp.
    @discardableResult
    func seek(stream index: Int, to seconds: Double) -> Bool {
        let tb = streams[index].pointee.time_base
        let target = startPTS(ofStream: index) + Int64(ticks: max(0, seconds), timeBase: tb, rounding: .down)
        return av_seek_frame(context, Int32(index), target, AVSEEK_FLAG_BACKWARD) >= 0
    }
}
