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
    /// The timestamp of stream `index` that is media time 0 (0 when unknown): media times are measured from it.
    ///
    /// For every stream of a file with a moving picture, that is the picture's first timestamp (in the stream's
    /// own time base): sound that starts 0.5 s after the picture then starts 0.5 s into the media, where each
    /// stream's own first timestamp had put it at the picture's start, out of sync. Sound before the picture's
    /// start (AAC priming in a transport stream) is before media time 0. Without a picture: the stream's own start.
    func startPTS(ofStream index: Int) -> Int64 {
        let stream = streams[index]
        if let picture = pictureStream, picture != index {
            let st = streams[picture]
            if st.pointee.start_time != lp_av_nopts_value() {
                return av_rescale_q(st.pointee.start_time, st.pointee.time_base, stream.pointee.time_base)
            }
        }
        let s = stream.pointee.start_time
        return s == lp_av_nopts_value() ? 0 : s
    }

    /// The video stream whose frames are the file's picture; nil without one (a cover picture of a sound file is
    /// no moving picture).
    private var pictureStream: Int? {
        guard let i = bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        return streams[i].pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 ? i : nil
    }

    /// Moves reading back to the keyframe at or before media time `seconds` of stream `index`;
    /// false when the container cannot seek by timestamp.
    @discardableResult
    func seek(stream index: Int, to seconds: Double) -> Bool {
        let tb = streams[index].pointee.time_base
        let target = startPTS(ofStream: index) + Int64(ticks: max(0, seconds), timeBase: tb, rounding: .down)
        return av_seek_frame(context, Int32(index), target, AVSEEK_FLAG_BACKWARD) >= 0
    }
}
