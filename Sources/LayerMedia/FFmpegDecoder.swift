import CFFmpeg
import CShims

/// A decoder for one stream (AVCodecContext) that frees itself; `frames` drives send/receive, with flushing.
final class FFmpegDecoder {
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    let streamIndex: Int32

    /// - Parameter onePicture: the stream is a still. It then decodes without frame threads, which gain nothing
    ///   for one picture and which FFmpeg 5.1's WebP decoder gets wrong (see below).
    init(format: FFmpegFormat, stream: Int, onePicture: Bool = false) throws {
        streamIndex = Int32(stream)
        let st = format.streams[stream]
        // FFmpeg's own VP8/VP9 decoders drop the alpha that WebM stores beside the picture; libvpx keeps it.
        let alphaMode = av_dict_get(st.pointee.metadata, "alpha_mode", nil, 0).map { String(cString: $0.pointee.value) }
        let id = st.pointee.codecpar.pointee.codec_id
        let libvpx = alphaMode == "1" ? avcodec_find_decoder_by_name(id == AV_CODEC_ID_VP8 ? "libvpx" : "libvpx-vp9") : nil
        guard let codec = libvpx ?? avcodec_find_decoder(id) else {
            let codecName = String(cString: avcodec_get_name(st.pointee.codecpar.pointee.codec_id))
            throw MediaError("cannot decode '\(format.path)': no decoder for \(codecName)")
        }
        context = avcodec_alloc_context3(codec)
        guard context != nil else { throw MediaError("cannot decode '\(format.path)': out of memory") }
        var status = avcodec_parameters_to_context(context, st.pointee.codecpar)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot decode '\(format.path)'", status) }
        context!.pointee.pkt_timebase = st.pointee.time_base
        // FFmpeg picks (frame and slice threads on all cores), except for pictures up to standard definition: one
        // thread decodes those hundreds of times a second, and frame threads only add pictures in flight and their
        // handovers. A scene that shows nine 640×360 inputs decoded them on 27 threads, with 30 % more page faults.
        let pixels = Int(st.pointee.codecpar.pointee.width) * Int(st.pointee.codecpar.pointee.height)
        context!.pointee.thread_count = pixels > 0 && pixels <= 720 * 576 ? 1 : 0
        // FFmpeg 5.1's WebP decoder with frame threads aborts the process (`Assertion frame->buf[0] failed` in
        // decode.c) when a picture is followed by a few bytes of junk, which its demuxer hands over as a second
        // packet: `ffmpeg -threads 2` does the same; `-threads 1` does not. Found by `make fuzz`.
        if onePicture || id == AV_CODEC_ID_WEBP { context!.pointee.thread_type = FF_THREAD_SLICE }
        status = avcodec_open2(context, codec, nil)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot open the decoder for '\(format.path)'", status) }
    }

    deinit { avcodec_free_context(&context) }

    private var draining = false
    /// Draining at a live stream's break (`StreamBreak`): at the decoder's end it starts afresh, not ends.
    private var drainingAtBreak = false

    /// The next decoded frame of this stream (owned by the caller), or nil at the end, reading the container
    /// directly. Damaged packets are skipped (FFmpeg conceals what it can).
    func nextFrame(from format: FFmpegFormat) throws -> UnsafeMutablePointer<AVFrame>? {
        try nextFrame {
            while let packet = av_packet_alloc() {
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                if format.readFrame(packet) < 0 { av_packet_free(&owned); return nil }
                if packet.pointee.stream_index == streamIndex { return packet }
                av_packet_free(&owned)
            }
            return nil
        }
    }

    /// The next decoded frame, taking packets of this stream (owned, freed here) from `nextPacket` (a
    /// `Demuxer`); nil at the end.
    func nextFrame(reading nextPacket: () -> UnsafeMutablePointer<AVPacket>?) throws -> UnsafeMutablePointer<AVFrame>? {
        while true {
            guard let frame = av_frame_alloc() else { throw MediaError("out of memory") }
            let status = avcodec_receive_frame(context, frame)
            if status >= 0 { return frame }
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            if draining && drainingAtBreak {
                // Every frame held back is out: the packets after the break go to a decoder that starts afresh.
                flush()
                drainingAtBreak = false
                continue
            }
            if status == lp_averror_eof() { return nil }
            if draining { return nil }
            // Needs input: the next packet, or start draining at the end of the stream (or at a live stream's break).
            guard let next = nextPacket() else {
                draining = true
                avcodec_send_packet(context, nil)
                continue
            }
            var owned: UnsafeMutablePointer<AVPacket>? = next
            if StreamBreak.marks(next) {
                av_packet_free(&owned)
                draining = true
                drainingAtBreak = true
                avcodec_send_packet(context, nil)
                continue
            }
            _ = avcodec_send_packet(context, next)
            av_packet_free(&owned)
        }
    }

    /// Forgets buffered frames after a seek (and allows decoding again after the end).
    func flush() {
        avcodec_flush_buffers(context)
        draining = false
    }
}
