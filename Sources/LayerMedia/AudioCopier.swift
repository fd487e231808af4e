import CFFmpeg
import CShims
import Foundation

/// Copies a source's audio packets for a time range into an output container (no re-encoding), shifted
/// so that the range starts at 0. Used when the container takes the source's codec.
final class AudioCopier {
    private let format: FFmpegFormat
    private let inStream: UnsafeMutablePointer<AVStream>
    private let outStream: UnsafeMutablePointer<AVStream>
    private let output: UnsafeMutablePointer<AVFormatContext>
    private let range: ClosedRange<Double>
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    private var done = false
    private let name: String
    private let startPTS: Int64

    /// nil-free: throws when the source has no audio or the container cannot take its codec.
    init(source: String, range: ClosedRange<Double>, into output: UnsafeMutablePointer<AVFormatContext>, name: String) throws {
        format = try FFmpegFormat(path: source)
        guard let index = format.bestStream(AVMEDIA_TYPE_AUDIO) else { throw MediaError("'\(source)' has no audio") }
        inStream = format.streams[index]
        format.reads(only: index)
        let codec = inStream.pointee.codecpar.pointee.codec_id
        guard let muxer = output.pointee.oformat, OutputContainer(muxer).takes(inStream.pointee.codecpar) else {
            throw MediaError("cannot copy \(String(cString: avcodec_get_name(codec))) audio into '\(name)'")
        }
        guard let st = avformat_new_stream(output, nil) else { throw MediaError("out of memory") }
        avcodec_parameters_copy(st.pointee.codecpar, inStream.pointee.codecpar)
        st.pointee.codecpar.pointee.codec_tag = 0
        st.pointee.time_base = inStream.pointee.time_base
        outStream = st
        self.output = output
        self.range = range
        self.name = name
        startPTS = format.startPTS(ofStream: index)
        if range.lowerBound > 0 { format.seek(stream: index, to: range.lowerBound) }
    }

    deinit { av_packet_free(&packet) }

    /// Writes the packets whose output time is before `seconds` (output time 0 = the range's start).
    func copy(upTo seconds: Double) throws {
        guard let packet, !done else { return }
        let tb = inStream.pointee.time_base
        let first = Int64(ticks: range.lowerBound, timeBase: tb) + startPTS
        let last = range.upperBound.isFinite ? Int64(ticks: range.upperBound, timeBase: tb) + startPTS : Int64.max
        while true {
            let read = format.readFrame(packet)
            if read == lp_averror_eagain() { usleep(5_000); continue }
            if read < 0 {
                if read != lp_averror_eof() && !format.location.isFile { InputFailures.record(format.failure("reading '\(format.path)' failed", read).description) }
                done = true
                return
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == inStream.pointee.index, !StreamBreak.marks(packet) else { continue }
            let pts = packet.pointee.pts == lp_av_nopts_value() ? packet.pointee.dts : packet.pointee.pts
            if pts < first { continue }
            if pts >= last { done = true; return }
            packet.pointee.pts = pts - first
            packet.pointee.dts = (packet.pointee.dts == lp_av_nopts_value() ? pts : packet.pointee.dts) - first
            av_packet_rescale_ts(packet, tb, outStream.pointee.time_base)
            packet.pointee.stream_index = outStream.pointee.index
            packet.pointee.pos = -1
            let outSeconds = Double(packet.pointee.pts) * av_q2d(outStream.pointee.time_base)
            let written = av_interleaved_write_frame(output, packet)
            guard written >= 0 else { throw MediaError.ffmpeg("cannot write the audio of '\(name)'", written) }
            if outSeconds >= seconds { return }
        }
    }
}
