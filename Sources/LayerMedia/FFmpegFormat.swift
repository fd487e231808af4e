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

    /// The one connection of a live network input (`LiveConnection`) that this view shares; nil when this
    /// container is its own (files, pipes, HTTP).
    let live: LiveConnection?
    /// The stream this view reads from a shared live connection (`reads(only:)`); nil: every stream.
    private var wantedStream: Int32?
    /// This view's queue in the shared connection, taken at its first read.
    private var subscription: Int?

    /// Opens and probes `path` (a file, `-` or `pipe:N`, or any URL FFmpeg can read), with the run's
    /// `InputSettings`: a network input that does not answer within the timeout fails with one message.
    /// `probing: false` reads only the container's header (no `avformat_find_stream_info`, which decodes frames):
    /// enough to copy packets whose parameters the header states (a join's later segments).
    /// A live network input (`LiveConnection.opensOnce`) is connected to once per run: every later open of the
    /// same URL is a view of that one connection (always probed).
    init(path: String, probing: Bool = true) throws {
        self.path = path
        location = InputLocation(path)
        let settings = InputSettings.current
        watchdog = IOWatchdog(limit: settings.timeout)
        if LiveConnection.opensOnce(location) {
            let connection = try LiveConnection.shared(path)
            live = connection
            context = connection.context
            return
        }
        live = nil
        if case .pipe(let fd) = location {
            pipe = try PipeReader(spool: try PipeSpool.spool(fd), watchdog: watchdog)
        }
        context = try Self.open(path, location, settings: settings, watchdog: watchdog, pipe: pipe, probing: probing)
    }

    /// Opens and probes one container (the body of `init(path:)`, also what a `LiveConnection` connects with).
    static func open(_ path: String, _ location: InputLocation, settings: InputSettings, watchdog: IOWatchdog,
                     pipe: PipeReader?, probing: Bool = true) throws -> UnsafeMutablePointer<AVFormatContext> {
        FFmpegLogging.quietOnce()
        var inputFormat: UnsafePointer<AVInputFormat>?
        if case .file(let file) = location {
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
        guard status >= 0, let opened = ctx else { throw failure("cannot open '\(path)'", status, watchdog: watchdog, pipe: pipe) }
        if let unused = settings.unusedOption(in: options) {
            avformat_close_input(&ctx)
            throw MediaError("cannot open '\(path)': its input does not take the option '\(unused)' (--input-opt)")
        }
        // FFmpeg's "tty" demuxer shows any .txt/.ans file as ANSI art; nobody means a text file as media.
        if let name = opened.pointee.iformat?.pointee.name, String(cString: name) == "tty" {
            avformat_close_input(&ctx)
            throw MediaError("cannot open '\(path)': a text file, not media")
        }
        guard probing else { return opened }
        let found = location.isFile ? avformat_find_stream_info(opened, nil) : watchdog.during { avformat_find_stream_info(opened, nil) }
        guard found >= 0 else {
            let error = failure("cannot read the streams of '\(path)'", found, watchdog: watchdog, pipe: pipe)
            avformat_close_input(&ctx)
            throw error
        }
        return opened
    }

    deinit {
        watchdog.stop()
        if let live {
            // The connection stays open for the run's other readers (and later opens of the same URL).
            if let subscription { live.unsubscribe(subscription) }
        } else {
            avformat_close_input(&context)
        }
    }

    /// The error of a failed open or read: a timeout says so (FFmpeg's own text would be "Immediate exit requested").
    func failure(_ what: String, _ status: Int32) -> MediaError {
        if let live { return live.failure(what, status) }
        return Self.failure(what, status, watchdog: watchdog, pipe: pipe)
    }

    static func failure(_ what: String, _ status: Int32, watchdog: IOWatchdog, pipe: PipeReader?) -> MediaError {
        if watchdog.didExpire { return MediaError("\(what): no data for \(Self.seconds(watchdog.limit)) (timed out)") }
        if let problem = pipe?.spool.problem { return MediaError("\(what): \(problem)") }
        return MediaError.ffmpeg(what, status)
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(s)) s" : "\(s) s" }

    /// `av_read_frame` with the watchdog armed: a network input that stops sending fails after the timeout.
    /// A view of a shared live connection takes the next packet of its own queue instead (waiting for it as
    /// long as the connection's reader is alive; the reader's reads are the ones bounded by the timeout).
    func readFrame(_ packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        if let live {
            let id = subscription ?? live.subscribe(stream: wantedStream)
            subscription = id
            return live.read(id, into: packet, cancelled: { watchdog.isCancelled })
        }
        return location.isFile ? av_read_frame(context, packet) : watchdog.during { av_read_frame(context, packet) }
    }

    /// Says that only stream `index` is read through this container: a shared live connection then routes only
    /// that stream's packets to it (a file reads and skips the others, as before).
    func reads(only index: Int) {
        if subscription == nil { wantedStream = Int32(index) }
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
        // A shared live connection is never moved: it goes on from where it is (the one reader owns it).
        if live != nil { return true }
        let tb = streams[index].pointee.time_base
        let target = startPTS(ofStream: index) + Int64(ticks: max(0, seconds), timeBase: tb, rounding: .down)
        return av_seek_frame(context, Int32(index), target, AVSEEK_FLAG_BACKWARD) >= 0
    }
}
