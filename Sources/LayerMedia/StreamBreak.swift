import CFFmpeg

/// A live connection's break (`--reconnect`), handed to its readers in line with the packets: an empty packet of a
/// stream with `flag` set, which no demuxer makes. A decoder that meets it drains (its last pictures, which a
/// decoder with B-frames holds back until more packets come, are delivered now, on time, not after the gap), then
/// starts afresh for the new connection's packets (`FFmpegDecoder`). Without it, the last pictures before a
/// reconnect's gap came out seconds late, once the new connection's packets pushed them out.
enum StreamBreak {
    /// A packet flag of our own (FFmpeg's use the low bits).
    static let flag: Int32 = 1 << 30

    /// A new marker for stream `index` (owned by the caller), or nil when out of memory.
    static func packet(stream index: Int32) -> UnsafeMutablePointer<AVPacket>? {
        guard let packet = av_packet_alloc() else { return nil }
        packet.pointee.stream_index = index
        packet.pointee.flags = flag
        return packet
    }

    /// Whether `packet` is a marker rather than data.
    static func marks(_ packet: UnsafePointer<AVPacket>) -> Bool {
        packet.pointee.size == 0 && packet.pointee.flags & flag != 0
    }
}
