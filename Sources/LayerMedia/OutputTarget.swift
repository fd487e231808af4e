import CFFmpeg
import CShims
import Foundation

/// Where an export goes and how it is written: one file (written beside the target and renamed when complete, as
/// always), or one of the documented exceptions to write-then-rename (CLI.md "Streams"), written in place as it
/// goes: a stream to a server or a pipe, or a segmented output (an HLS playlist or a DASH manifest with its segments
/// beside it).
public struct OutputTarget: Sendable {
    /// How an output is written.
    public enum Kind: Sendable, Equatable {
        /// One file, atomic (write-then-rename).
        case file
        /// A live stream: a URL (`rtmp://`, `srt://`, `udp://`…) or a pipe (`-`, `pipe:N`).
        case stream
        /// A playlist or manifest and its segments, beside it and named after it.
        case segmented
    }

    /// The output as the user wrote it (messages name it).
    public let name: String
    /// How it is written: one file renamed into place, a stream, or segments in place.
    public let kind: Kind
    /// FFmpeg's muxer name (`flv`, `mpegts`, `hls`, `dash`, …), when it is not guessed from a file name.
    public let muxer: String?
    /// What FFmpeg opens: the URL, `pipe:N`, or the file's path.
    public let url: String
    /// Seconds per segment of a segmented output.
    public var segmentSeconds: Double?
    /// Bounds how long a network output may block: re-armed for every frame the export hands over, so a server
    /// that stops reading (or never answers the handshake) ends the export after `timeout` seconds.
    let watchdog: IOWatchdog
    /// The segments' and playlist's writes, checked (a segmented output's muxer ignores their failures).
    let segmentWrites = SegmentWrites()

    /// Classifies `name` with the user's `--format` (nil: from the name).
    /// - Throws: `MediaError` when a pipe has no format, or the format is not a muxer FFmpeg has.
    public init(_ name: String, format: String? = nil, timeout: Double = 10) throws {
        self.name = name
        watchdog = IOWatchdog(limit: timeout)
        if let format, av_guess_format(format, nil, nil) == nil {
            throw MediaError("--format \(format): FFmpeg has no such muxer (ffmpeg -muxers lists them)")
        }
        switch InputLocation(name) {
        case .pipe(let fd):
            guard let format else {
                throw MediaError("cannot write '\(name)': a pipe has no file name to choose a container by; give --format (mpegts, matroska, nut, flv…)")
            }
            kind = .stream; muxer = format; url = "pipe:\(fd == 0 ? 1 : fd)"
        case .url(let url, let scheme):
            kind = .stream; self.url = url
            muxer = format ?? Self.streamMuxers[scheme]
            guard muxer != nil else {
                throw MediaError("cannot write '\(name)': give --format for a \(scheme):// output (rtmp takes flv, srt and udp mpegts)")
            }
        case .file(let path):
            url = path
            let guessed = format ?? av_guess_format(nil, path, nil).map { String(cString: $0.pointee.name) }
            muxer = format
            kind = guessed == "hls" || guessed == "dash" ? .segmented : .file
        }
    }

    /// The muxer a stream protocol takes when no `--format` says otherwise.
    static let streamMuxers: [String: String] = [
        "rtmp": "flv", "rtmps": "flv", "rtmpt": "flv", "rtmpe": "flv", "rtmpte": "flv", "rtmpts": "flv",
        "srt": "mpegts", "udp": "mpegts", "tcp": "mpegts", "rtp": "rtp_mpegts", "rtsp": "rtsp", "icecast": "ogg",
        "http": "mpegts", "https": "mpegts", "file": "mpegts",
    ]

    /// Whether it is written beside the target and renamed when complete.
    public var isAtomic: Bool { kind == .file }

    /// Whether it is a network stream (a server sees it as live: pace it at real time when the input is a file).
    public var isNetwork: Bool { kind == .stream && InputLocation(name).isNetwork }

    /// Sets up a container for this target: its blocking I/O bounded by the watchdog, and a segmented output's
    /// files watched (`SegmentWrites`).
    func prepare(_ oc: UnsafeMutablePointer<AVFormatContext>) {
        // A file never waits on anyone; and a write abandoned on Ctrl-C would fail as an I/O error, racing the
        // signal's own InterruptedError (LeftoverTests saw the process die by the signal instead).
        guard kind != .file else { return }
        oc.pointee.interrupt_callback = watchdog.callback
        if kind == .segmented { segmentWrites.watch(oc) }
    }

    /// The first write of a segment or playlist that failed (a full disk), as one error line.
    public var writeFailure: String? { segmentWrites.firstFailure }

    /// The muxer FFmpeg writes with: the named one, or the one guessed from `fileName`.
    func outputFormat(fileName: String) -> UnsafePointer<AVOutputFormat>? {
        if let muxer { return av_guess_format(muxer, nil, nil) }
        return av_guess_format(nil, fileName, nil)
    }

    /// Frames between keyframes: a segment can only start at one, so a segmented output gets one per segment
    /// length, rounded up to whole frames (the muxer cuts at the first keyframe at or past each multiple of the
    /// length: rounded down, every other keyframe just missed it; and x264's own 250 made one long segment); a live stream one every 2 s (what
    /// ingest services ask for, and how soon a viewer joining can start). nil for a file: the encoder's own.
    func keyframeInterval(frameRate: (num: Int32, den: Int32)) -> Int32? {
        let fps = Double(frameRate.num) / Double(max(1, frameRate.den))
        switch kind {
        case .file: return nil
        case .segmented: return Int32(max(1, min(100_000, ((segmentSeconds ?? 2) * fps).rounded(.up))))
        case .stream: return Int32(max(1, min(100_000, (2 * fps).rounded())))
        }
    }

    /// The muxer's options (owned by the caller: `av_dict_free`).
    func muxerOptions(_ format: UnsafePointer<AVOutputFormat>) -> OpaquePointer? {
        var dict: OpaquePointer?
        func set(_ key: String, _ value: String) { av_dict_set(&dict, key, value, 0) }
        let name = String(cString: format.pointee.name)
        let stem = ((url as NSString).lastPathComponent as NSString).deletingPathExtension
        let directory = (url as NSString).deletingLastPathComponent
        if name == "hls" {
            // Every segment is listed (an event playlist, #EXT-X-ENDLIST at the end). temp_file: a segment and the
            // playlist are written under a temporary name and renamed when whole, so the playlist is valid at every
            // moment and lists only whole segments.
            set("hls_time", String(segmentSeconds ?? 2))
            set("hls_list_size", "0")
            set("hls_playlist_type", "event")
            set("hls_flags", "temp_file+independent_segments")
            set("hls_segment_filename", (directory as NSString).appendingPathComponent("\(stem)_%05d.ts"))
        } else if name == "dash" {
            set("seg_duration", String(segmentSeconds ?? 2))
            set("window_size", "0")
            set("init_seg_name", "\(stem)-init-$RepresentationID$.$ext$")
            set("media_seg_name", "\(stem)-$RepresentationID$-$Number%05d$.$ext$")
        } else if name == "flv" || name == "mpegts" {
            // A stream from its first byte: a reader joining late finds headers again (mpegts) and no seeking back
            // to patch the header is attempted on a pipe or a socket.
            if name == "flv" { set("flvflags", "no_duration_filesize") }
        }
        return dict
    }

    /// Options for opening a network output: its writes time out (`rw_timeout`), so a server that stops reading
    /// ends the export with one line.
    func ioOptions() -> OpaquePointer? {
        var dict: OpaquePointer?
        if isNetwork { av_dict_set(&dict, "rw_timeout", String(Int64(watchdog.limit * 1_000_000)), 0) }
        // SRT's live mode drops what is still unsent when the socket closes (linger 0): the encoder's last frames,
        // flushed at the end in one burst, never arrived. Wait for them (unless the URL says otherwise).
        if InputLocation(name) == .url(name, scheme: "srt") && !name.contains("linger=") {
            av_dict_set(&dict, "linger", String(Int(min(5, watchdog.limit).rounded(.up))), 0)
        }
        return dict
    }

    /// The error of a failed open or write: a receiver that stopped reading says so, and so does a pipe whose reader
    /// went away (EPIPE: SIGPIPE is ignored while an export runs, `Interruption`).
    func failure(_ status: Int32) -> MediaError {
        if watchdog.didExpire { return MediaError("cannot write '\(name)': the receiver took no data for \(FFmpegFormat.seconds(watchdog.limit)) (timed out)") }
        if status == lp_averror_epipe() { return MediaError("cannot write '\(name)': its reader went away (Broken pipe)") }
        return MediaError.ffmpeg("cannot write '\(name)'", status)
    }

    /// The files a failed or interrupted segmented output may leave half-written: the segment or playlist being
    /// written under its temporary name (`….tmp`); the whole segments and the playlist stay.
    public func temporaryLeftovers() -> [String] {
        guard kind == .segmented else { return [] }
        let directory = (url as NSString).deletingLastPathComponent
        let stem = ((url as NSString).lastPathComponent as NSString).deletingPathExtension
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        return names.filter { $0.hasPrefix(stem) && $0.hasSuffix(".tmp") }
            .map { ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent($0) }
    }
}
