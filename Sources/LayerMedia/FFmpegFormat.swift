import CFFmpeg
import CShims
import Foundation

/// An opened container (AVFormatContext) that closes itself.
final class FFmpegFormat {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let path: String
    /// Where `path` points: a file, a pipe or a URL (`InputLocation`).
    let location: InputLocation
    /// Bounds every blocking open and read (`IOWatchdog`); set as the container's interrupt callback.
    let watchdog: IOWatchdog
    /// A pipe's reader: the container's custom I/O, freed after the container.
    private var pipe: PipeReader?

    /// Opens and probes `path` (a file, `-` or `pipe:N`, or any URL FFmpeg can read), with the run's
    /// `InputSettings`: a network input that does not answer within the timeout fails with one message.
    /// `probing: false` reads only the container's header (no `avformat_find_stream_info`, which decodes frames):
    /// enough to copy packets whose parameters the header states (a join's later segments).
    init(path: String, probing: Bool = true) throws {
        self.path = path
        location = InputLocation(path)
        let settings = InputSettings.current
        watchdog = IOWatchdog(limit: settings.timeout)
        FFmpegLogging.quietOnce()
        var inputFormat: UnsafePointer<AVInputFormat>?
        switch location {
        case .file(let file):
            if MovieWriter.isImageSequence(file) {
                // Numbered pictures: the image2 demuxer reads them in order (its `framerate` from --input-fps).
                inputFormat = av_find_input_format("image2")
                let first = (0...5).lazy.compactMap { MovieWriter.sequenceFileName(file, number: $0) }.first { FileManager.default.fileExists(atPath: $0) }
                guard first != nil else { throw MediaError("cannot open '\(path)': no picture numbered 0 to 5 matches the pattern") }
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                    throw MediaError("cannot open '\(path)': No such file or directory")
                }
                if isDirectory.boolValue { throw MediaError("cannot open '\(path)': it is a directory") }
            }
        case .pipe(let fd):
            pipe = try PipeReader(spool: try PipeSpool.spool(fd), watchdog: watchdog)
        case .url: break
        }
        var ctx = avformat_alloc_context()
        guard let allocated = ctx else { throw MediaError("cannot open '\(path)': out of memory") }
        allocated.pointee.interrupt_callback = watchdog.callback
        if let pipe {
            allocated.pointee.pb = pipe.context
            allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var options = settings.options(for: location)
        defer { av_dict_free(&options) }
        let name = location.ffmpegName
        // Armed only for what can block: a local file's open never waits on anyone.
        let status = location.isFile ? avformat_open_input(&ctx, name, inputFormat, &options)
            : watchdog.during { avformat_open_input(&ctx, name, inputFormat, &options) }
        guard status >= 0, ctx != nil else { throw failure("cannot open '\(path)'", status) }
        context = ctx
        // FFmpeg's "tty" demuxer shows any .txt/.ans file as ANSI art; nobody means a text file as media.
        if let name = ctx!.pointee.iformat?.pointee.name, String(cString: name) == "tty" {
            throw MediaError("cannot open '\(path)': a text file, not media")
        }
        guard probing else { return }
        let found = location.isFile ? avformat_find_stream_info(ctx, nil) : watchdog.during { avformat_find_stream_info(ctx, nil) }
        guard found >= 0 else { throw failure("cannot read the streams of '\(path)'", found) }
    }

    deinit {
        watchdog.stop()
        avformat_close_input(&context)
    }

    /// The error of a failed open or read: a timeout says so (FFmpeg's own text would be "Immediate exit requested").
    func failure(_ what: String, _ status: Int32) -> MediaError {
        if watchdog.didExpire { return MediaError("\(what): no data for \(Self.seconds(watchdog.limit)) (timed out)") }
        if let problem = pipe?.spool.problem { return MediaError("\(what): \(problem)") }
        return MediaError.ffmpeg(what, status)
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }

    /// `av_read_frame` with the watchdog armed: a network input that stops sending fails after the timeout.
    func readFrame(_ packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        location.isFile ? av_read_frame(context, packet) : watchdog.during { av_read_frame(context, packet) }
    }

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
