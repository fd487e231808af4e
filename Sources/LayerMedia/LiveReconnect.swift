import CFFmpeg
import CShims
import Foundation
import LayerGraphics

/// `--reconnect` for a live network input (`LiveConnection`): when its stream breaks or ends (the publisher
/// stopped), the URL is connected to again, a bounded number of times with growing waits (CLI.md "Streams"), and the
/// new connection's packets are put on the first connection's timeline.
///
/// A source that comes back starts its timestamps anew (an RTMP publisher from 0, a transport stream anywhere): its
/// packets are rescaled to the first connection's time bases and shifted so that they follow the last packet
/// before the break after as long a gap as the wall clock saw without packets. The picture holds its last frame
/// through the gap (a gap is a gap), then goes on; nothing waits for time that will never come.
///
/// Used by the connection's reader thread only.
final class LiveReconnect {
    /// Seconds waited before each attempt: 15 s in all, each attempt's open and probe bounded by `--timeout`.
    static let waits: [Double] = [1, 2, 4, 4, 4]

    private unowned let connection: LiveConnection
    /// The connection after a reconnect (closed when replaced); the first one belongs to `LiveConnection`.
    private var later: UnsafeMutablePointer<AVFormatContext>?
    /// Seconds added to the new connection's times; nil until its first timed packet sets it.
    private var shift: Double?
    /// Streams whose next packet carries the new connection's codec set-up (it differs from the first's).
    private var newSetup: Set<Int32> = []
    /// The end, on the first connection's timeline (seconds of stream time base), of the latest packet delivered,
    /// and when it was delivered.
    private var lastEnd = 0.0
    private var lastDelivery = DispatchTime.now()
    /// Why the last attempt failed.
    private var lastFailure: String?
    /// How many times the stream came back.
    private(set) var reconnects = 0

    init(connection: LiveConnection) { self.connection = connection }

    deinit { if later != nil { avformat_close_input(&later) } }

    /// Connects again after the stream broke (`reason`, nil when it ended): the new container, or nil when every
    /// attempt failed (or the run was interrupted).
    func reconnect(after reason: String?) -> UnsafeMutablePointer<AVFormatContext>? {
        let streamEnds = reason == nil ? "ended" : "broke (\(reason!))"
        StandardError.write("layerplay: warning: '\(connection.path)' \(streamEnds); reconnecting (--reconnect)\n")
        for wait in Self.waits {
            let until = Date(timeIntervalSinceNow: wait)
            while Date() < until {
                if Interruption.isPending { return nil }
                usleep(20_000)
            }
            let watchdog = connection.watchdog
            let opened: UnsafeMutablePointer<AVFormatContext>
            do {
                opened = try FFmpegFormat.open(connection.path, connection.location, settings: connection.settings,
                                               watchdog: watchdog, pipe: nil)
            } catch {
                lastFailure = "\(error)"
                continue
            }
            if let mismatch = differences(opened) {
                var c: UnsafeMutablePointer<AVFormatContext>? = opened
                avformat_close_input(&c)
                lastFailure = mismatch
                return nil
            }
            if later != nil { avformat_close_input(&later) }
            later = opened
            shift = nil
            newSetup = Set((0..<Int32(opened.pointee.nb_streams)).filter { !sameSetup(Int($0), opened) })
            reconnects += 1
            return opened
        }
        return nil
    }

    /// What to say when reconnecting gave up: the break (or the end) and the last attempt's failure.
    func giveUp(_ reason: String?) -> String? {
        "\(reason ?? "'\(connection.path)' ended"); reconnecting failed \(Self.waits.count) times over \(Int(Self.waits.reduce(0, +))) s"
            + (lastFailure.map { " (\($0))" } ?? "")
    }

    /// Puts a packet of `current` on the first connection's timeline; false when it is to be dropped (a packet
    /// without a time before the new connection's shift is known, or of a stream the first connection lacks).
    func place(_ packet: UnsafeMutablePointer<AVPacket>, from current: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard current != connection.context else { return true }
        let index = Int(packet.pointee.stream_index)
        guard index < Int(connection.context.pointee.nb_streams), index < Int(current.pointee.nb_streams),
              let first = connection.context.pointee.streams[index], let now = current.pointee.streams[index] else { return false }
        let timeBase = first.pointee.time_base
        av_packet_rescale_ts(packet, now.pointee.time_base, timeBase)
        let none = lp_av_nopts_value()
        let stamp = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
        if shift == nil {
            guard stamp != none else { return false }
            let gap = Double(DispatchTime.now().uptimeNanoseconds - lastDelivery.uptimeNanoseconds) / 1e9
            shift = lastEnd + gap - Double(stamp) * av_q2d(timeBase)
        }
        let ticks = Int64(ticks: shift!, timeBase: timeBase)
        if packet.pointee.pts != none { packet.pointee.pts += ticks }
        if packet.pointee.dts != none { packet.pointee.dts += ticks }
        packet.pointee.pos = -1
        if newSetup.remove(packet.pointee.stream_index) != nil { attachSetup(of: now, to: packet) }
        return true
    }

    /// Notes a packet handed to the readers (its end is where the timeline stands).
    func noteDelivered(_ packet: UnsafeMutablePointer<AVPacket>) {
        lastDelivery = DispatchTime.now()
        let index = Int(packet.pointee.stream_index)
        guard index < Int(connection.context.pointee.nb_streams), let st = connection.context.pointee.streams[index] else { return }
        let none = lp_av_nopts_value()
        let stamp = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
        guard stamp != none else { return }
        lastEnd = max(lastEnd, Double(stamp + max(0, packet.pointee.duration)) * av_q2d(st.pointee.time_base))
    }

    /// Why the new connection's streams cannot continue the first's (other kinds or codecs), or nil.
    private func differences(_ opened: UnsafeMutablePointer<AVFormatContext>) -> String? {
        let first = connection.context
        for i in 0..<Int(first.pointee.nb_streams) {
            guard let a = first.pointee.streams[i]?.pointee.codecpar.pointee else { continue }
            guard i < Int(opened.pointee.nb_streams), let b = opened.pointee.streams[i]?.pointee.codecpar.pointee,
                  a.codec_type == b.codec_type, a.codec_id == b.codec_id else {
                return "'\(connection.path)' came back with other streams than it had"
            }
        }
        return nil
    }

    /// Whether stream `i` of `opened` has the first connection's codec set-up (extradata).
    private func sameSetup(_ i: Int, _ opened: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard i < Int(connection.context.pointee.nb_streams), let a = connection.context.pointee.streams[i]?.pointee.codecpar.pointee,
              let b = opened.pointee.streams[i]?.pointee.codecpar.pointee else { return true }
        if a.extradata_size != b.extradata_size { return false }
        guard a.extradata_size > 0, let x = a.extradata, let y = b.extradata else { return true }
        return memcmp(x, y, Int(a.extradata_size)) == 0
    }

    /// Gives the decoders the new connection's codec set-up with its first packet (FFmpeg's new-extradata side
    /// data), as a publisher that restarted with other settings needs.
    private func attachSetup(of stream: UnsafeMutablePointer<AVStream>, to packet: UnsafeMutablePointer<AVPacket>) {
        let par = stream.pointee.codecpar.pointee
        guard par.extradata_size > 0, let source = par.extradata,
              let data = av_packet_new_side_data(packet, AV_PKT_DATA_NEW_EXTRADATA, Int(par.extradata_size)) else { return }
        data.update(from: source, count: Int(par.extradata_size))
    }
}
