import CFFmpeg
import CShims
import Foundation
import LayerGraphics

/// A live network input (`rtmp://`, `rtsp://`, `srt://`, `udp://`, `tcp://`…) connected to once for the whole run.
///
/// Such a source cannot be opened twice as a file or an HTTP URL can: an RTMP server serves its one client, a UDP
/// port is bound once ("Address already in use"). Every `FFmpegFormat` of the URL is therefore a view of this one
/// connection: the probe's streams are everyone's, and one reader thread reads packets (`av_read_frame`, bounded
/// by `--timeout`) and routes each, by stream index, into the bounded queue of each view that reads that stream
/// (the picture's decoder, the sound's). A queue that is full loses its oldest packet: a reader that stalls costs
/// its own packets, never memory without limit, and never the others their picture or sound.
///
/// With `--reconnect`, a stream that breaks or ends is connected to again (`LiveReconnect`): its packets are put on
/// the first connection's timeline, after a gap as long as the wall-clock time without packets, and each view is
/// told of the break first (`StreamBreak`), so that its decoder hands over the pictures it holds back.
final class LiveConnection: @unchecked Sendable { // state guarded by `condition`
    /// The protocols whose inputs are connected to once: live servers and sockets. (HTTP, HLS and files are read
    /// again by each reader; pipes are kept in a `PipeSpool`.)
    static let liveProtocols: Set<String> = [
        "rtmp", "rtmps", "rtmpt", "rtmpe", "rtmpte", "rtmpts", "rtsp", "rtsps", "srt", "srtp", "udp", "rtp", "tcp", "unix", "zmq",
        "mmsh", "mmst",
    ]

    /// Whether `location` is connected to once per run.
    static func opensOnce(_ location: InputLocation) -> Bool {
        if case .url(_, let scheme) = location { return liveProtocols.contains(scheme) }
        return false
    }

    private static let connections = Guarded<[String: LiveConnection]>([:])

    /// The run's connection to `path`, connected (and probed) by the first caller; a failed connection is not
    /// kept, so its error is what each caller sees.
    static func shared(_ path: String) throws -> LiveConnection {
        try connections.withLock { (open: inout [String: LiveConnection]) throws(MediaError) -> LiveConnection in
            if let c = open[path] { return c }
            let c: LiveConnection
            do { c = try LiveConnection(path: path) } catch let e as MediaError { throw e } catch { throw MediaError("\(error)") }
            open[path] = c
            return c
        }
    }

    /// How many packets one view's queue holds (several seconds of a live stream at any usual rate) before it
    /// loses its oldest; and how many packets of streams nobody reads yet are kept for a reader still to come.
    static let queueCapacity = 600
    static let backlogCapacity = 600

    let path: String
    let location: InputLocation
    let settings: InputSettings
    /// Bounds the reader's opens and reads; stopped never (the connection lives as long as the run).
    let watchdog: IOWatchdog
    /// The first connection's container: its streams (time bases, codec parameters) are what every view sees, for
    /// the whole run, whatever later connections bring.
    let context: UnsafeMutablePointer<AVFormatContext>

    private let condition = NSCondition()
    /// Each view's queue of packets (owned), by its id, and the stream it reads (nil: all).
    private var queues: [Int: (stream: Int32?, packets: [UnsafeMutablePointer<AVPacket>])] = [:]
    private var nextID = 0
    /// Packets of streams that no view reads yet, oldest first: the first reader of the sound, which starts a
    /// moment after the picture's, still gets the sound from where the picture starts.
    private var backlog: [UnsafeMutablePointer<AVPacket>] = []
    /// Packets lost to full queues (a view that stopped reading).
    private var droppedCount = 0
    var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }
    private var readerStarted = false
    /// Set when the reader stopped: the status every view gets once its queue is empty.
    private var endStatus: Int32?

    private init(path: String) throws {
        self.path = path
        location = InputLocation(path)
        settings = InputSettings.current
        watchdog = IOWatchdog(limit: settings.timeout)
        context = try FFmpegFormat.open(path, location, settings: settings, watchdog: watchdog, pipe: nil)
    }

    /// A new view's queue, for packets of `stream` (nil: every stream); the reader starts with the first view.
    func subscribe(stream: Int32?) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let id = nextID
        nextID += 1
        var taken: [UnsafeMutablePointer<AVPacket>] = []
        backlog.removeAll { p in
            guard stream == nil || p.pointee.stream_index == stream else { return false }
            taken.append(p)
            return true
        }
        queues[id] = (stream, taken)
        if !readerStarted {
            readerStarted = true
            let thread = Thread { [self] in readLoop() }
            thread.name = "layerplay.live-read"
            thread.start()
        }
        return id
    }

    /// Forgets a view's queue (its `FFmpegFormat` went away).
    func unsubscribe(_ id: Int) {
        condition.lock()
        defer { condition.unlock() }
        for p in queues.removeValue(forKey: id)?.packets ?? [] { var p: UnsafeMutablePointer<AVPacket>? = p; av_packet_free(&p) }
    }

    /// Moves the next packet of view `id` into `packet`: 0, or the status the reader ended with (`AVERROR_EOF`,
    /// an error) once the queue is empty, or `AVERROR_EXIT` when `cancelled` turns true while waiting.
    func read(_ id: Int, into packet: UnsafeMutablePointer<AVPacket>, cancelled: () -> Bool) -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = queues[id]?.packets.first {
                queues[id]?.packets.removeFirst()
                av_packet_move_ref(packet, first)
                var p: UnsafeMutablePointer<AVPacket>? = first
                av_packet_free(&p)
                return 0
            }
            if let endStatus { return endStatus }
            if cancelled() { return lp_averror_exit() }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
    }

    /// The error of a failed read through this connection (timeouts said as such).
    func failure(_ what: String, _ status: Int32) -> MediaError {
        FFmpegFormat.failure(what, status, watchdog: watchdog, pipe: nil)
    }

    // MARK: The reader thread

    private func readLoop() {
        let reconnect = settings.reconnect ? LiveReconnect(connection: self) : nil
        var current = context
        while true {
            let (read, status) = PacketReading.next { packet in watchdog.during { av_read_frame(current, packet) } }
            guard let packet = read else {
                // A silent source: some protocols (udp) give up through the interrupt callback without the
                // watchdog seeing its deadline pass, so "Immediate exit requested" is said as what it is.
                let silent = status == lp_averror_exit() && !Interruption.isPending
                let reason = status == lp_averror_eof() ? nil
                    : silent ? "reading '\(path)' failed: no data for \(FFmpegFormat.seconds(watchdog.limit)) (timed out)"
                    : FFmpegFormat.failure("reading '\(path)' failed", status, watchdog: watchdog, pipe: nil).description
                if reconnect != nil { deliverBreak() }
                if let next = reconnect?.reconnect(after: reason) {
                    current = next
                    continue
                }
                // A live stream has no length to fall short of: where it stops (its publisher left, which RTMP
                // reports as an I/O error, or it fell silent for --timeout) is where it ends, as ffmpeg ends there.
                // One line says why; what came before it is kept (CLI.md "Streams").
                if let why = reconnect?.giveUp(reason) ?? reason, !Interruption.isPending {
                    StandardError.writeLine("layerplay: warning: \(why); the live input ends there")
                }
                finish(status: lp_averror_eof())
                return
            }
            if let r = reconnect, !r.place(packet, from: current) {
                var p: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&p)
                continue
            }
            reconnect?.noteDelivered(packet)
            deliver(packet)
        }
    }

    /// Hands `packet` (owned) to every view that reads its stream (a reference each), or keeps it for one to come.
    private func deliver(_ packet: UnsafeMutablePointer<AVPacket>) {
        condition.lock()
        defer { condition.unlock() }
        let stream = packet.pointee.stream_index
        var given = false
        for id in queues.keys where queues[id]!.stream == nil || queues[id]!.stream == stream {
            guard let copy = av_packet_clone(packet) else { continue }
            enqueue(copy, id)
            given = true
        }
        if given {
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
        } else {
            backlog.append(packet)
            if backlog.count > Self.backlogCapacity {
                var oldest: UnsafeMutablePointer<AVPacket>? = backlog.removeFirst()
                av_packet_free(&oldest)
            }
        }
        condition.broadcast()
    }

    /// Tells every view that the stream broke (`StreamBreak`): a marker of its stream (of each, for a view of all)
    /// after the packets it has. Streams nobody reads yet get none: their first reader starts afresh anyway.
    private func deliverBreak() {
        condition.lock()
        defer { condition.unlock() }
        for id in queues.keys {
            let streams = queues[id]!.stream.map { [$0] } ?? Array(0..<Int32(context.pointee.nb_streams))
            for stream in streams {
                guard let marker = StreamBreak.packet(stream: stream) else { continue }
                enqueue(marker, id)
            }
        }
        condition.broadcast()
    }

    /// Appends `packet` (owned) to view `id`'s queue, which loses its oldest packet when full. Called with
    /// `condition` locked.
    private func enqueue(_ packet: UnsafeMutablePointer<AVPacket>, _ id: Int) {
        if queues[id]!.packets.count >= Self.queueCapacity {
            var oldest: UnsafeMutablePointer<AVPacket>? = queues[id]!.packets.removeFirst()
            av_packet_free(&oldest)
            droppedCount += 1
        }
        queues[id]!.packets.append(packet)
    }

    private func finish(status: Int32) {
        condition.lock()
        endStatus = status
        condition.broadcast()
        condition.unlock()
    }
}
