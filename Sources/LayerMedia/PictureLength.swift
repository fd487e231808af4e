import CFFmpeg
import CShims

extension MediaAsset {
    /// Seconds from the first frame of the video stream to the end of its last (that frame's time plus its
    /// duration): the picture's own length, which a transcode keeps frame for frame. nil for a still or without
    /// video, or when its timing cannot be believed.
    ///
    /// Not the container's `duration`, which is its longest stream's: sound often runs past the picture (AAC's
    /// 23 ms of priming at least), and a range that long repeats the last frame. The stream's recorded duration
    /// where the container keeps one (MP4, MOV, AVI; a transport stream's is measured from its timestamps);
    /// Matroska and WebM keep none, and a duration estimated from the bit rate is a guess: then the stream's
    /// last packets are read. A stream whose timing claims an unbelievable frame rate (`BelievableFrameRate`: a
    /// damaged `stts` or `mdhd`) has no believable length either: nil, and the container's duration stands.
    public func pictureLength() -> Double? {
        guard let video, !isStill, video.claimedFrameRate == nil else { return nil }
        // A live connection has no end to read the last frame from (and only its own reader reads it).
        guard let format = try? FFmpegFormat(path: path), format.live == nil, let ctx = format.context, video.index < format.streams.count else {
            return video.duration > 0 ? video.duration : nil
        }
        if video.duration > 0 && ctx.pointee.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE { return video.duration }
        return Self.lastFrameEnd(of: video.index, in: format, from: duration, frameRate: video.frameRate)
    }

    /// The end of the last frame of stream `index`, from its first timestamp, read from its packets after a seek
    /// to a few seconds before `containerEnd` (a keyframe at or before it: the packets after it hold the latest
    /// times, B-frames and all). A packet without a duration lasts one frame at `frameRate`.
    private static func lastFrameEnd(of index: Int, in format: FFmpegFormat, from containerEnd: Double, frameRate: Double) -> Double? {
        guard let ctx = format.context else { return nil }
        let stream = format.streams[index]
        let timeBase = stream.pointee.time_base
        if containerEnd > 5 { format.seek(stream: index, to: containerEnd - 5) }
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { return nil }
        let frameTicks = frameRate > 0 ? Int64(ticks: 1 / frameRate, timeBase: timeBase) : 0
        var end: Int64?
        while av_read_frame(ctx, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard Int(packet.pointee.stream_index) == index else { continue }
            let pts = packet.pointee.pts != lp_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            guard pts != lp_av_nopts_value() else { continue }
            let last = pts + (packet.pointee.duration > 0 ? packet.pointee.duration : frameTicks)
            end = max(end ?? last, last)
        }
        guard let end else { return nil }
        let seconds = Double(end - format.startPTS(ofStream: index)) * av_q2d(timeBase)
        return seconds > 0 ? seconds : nil
    }
}
