import CFFmpeg
import CShims
import Foundation

/// The one way packets are read from a container, for a demuxer of one stream and a live connection alike.
enum PacketReading {
    /// The next packet `read` (an `av_read_frame` of some container) gives, waiting out EAGAIN: a live input with
    /// nothing yet (some demuxers say so rather than wait). On failure the packet is freed and the status returned;
    /// a packet that cannot be allocated counts as the end.
    static func next(_ read: (UnsafeMutablePointer<AVPacket>) -> Int32) -> (packet: UnsafeMutablePointer<AVPacket>?, status: Int32) {
        while true {
            guard let packet = av_packet_alloc() else { return (nil, lp_averror_eof()) }
            let status = read(packet)
            if status >= 0 { return (packet, status) }
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
            if status != lp_averror_eagain() { return (nil, status) }
            usleep(5_000)
        }
    }
}
