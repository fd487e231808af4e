import CFFmpeg
import CShims

/// The frame rate we believe of a video stream. A damaged or crafted file can claim any rate (a broken `stts` box
/// made an MP4 claim 15,360 frames/s, a crafted one 1,000,000), and an export at the input's rate then renders that
/// many frames a second, without end. A claim above `maximum` is replaced by what the file itself shows: its frame
/// count over the container's duration, else the spacing of its first packets' timestamps; else the rate is
/// unknown (0), and an export uses its default.
enum BelievableFrameRate {
    /// Above any real camera or screen recording a player would show frame by frame.
    static let maximum = 240.0

    static func isBelievable(_ rate: Double) -> Bool { rate > 0 && rate <= maximum }

    /// What stream `index` of `format` shows of its rate, when its claim is not believable; nil when nothing does.
    static func estimate(stream index: Int, of format: FFmpegFormat) -> (num: Int32, den: Int32)? {
        guard let ctx = format.context else { return nil }
        let st = format.streams[index]
        let frames = Double(st.pointee.nb_frames), seconds = Double(ctx.pointee.duration) / Double(AV_TIME_BASE)
        if frames > 0 && seconds > 0 && isBelievable(frames / seconds) { return MovieWriter.rational(frames / seconds) }
        if let spacing = medianPacketSpacing(stream: index, path: format.path), isBelievable(1 / spacing) {
            return MovieWriter.rational(1 / spacing)
        }
        return nil
    }

    /// The median gap between the first few timestamps of the stream, in seconds, read from a second opening of
    /// the file so that the caller's reading position stays where it is.
    private static func medianPacketSpacing(stream index: Int, path: String) -> Double? {
        guard let format = try? FFmpegFormat(path: path), format.context != nil, index < format.streams.count else { return nil }
        let timeBase = av_q2d(format.streams[index].pointee.time_base)
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { return nil }
        var times: [Double] = []
        var reads = 0
        while times.count < 33 && reads < 1000 && format.readFrame(packet) >= 0 {
            reads += 1
            let pts = packet.pointee.pts != lp_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            if Int(packet.pointee.stream_index) == index && pts != lp_av_nopts_value() { times.append(Double(pts) * timeBase) }
            av_packet_unref(packet)
        }
        times.sort()
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return nil }
        return gaps[gaps.count / 2]
    }
}
