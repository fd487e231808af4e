import CFFmpeg
import CShims

/// What an output container (an FFmpeg muxer) takes, asked of FFmpeg rather than guessed.
///
/// `avformat_query_codec` alone does not settle it: it answers "unknown" for muxers without a codec list (MPEG-TS,
/// GIF, Ogg: AAC into .ts is fine, H.264 into .gif is not), and "yes" where the muxer refuses later (the mov muxer
/// lists Opus and VP9 but refuses both: "opus only supported in MP4"). So a "no" is believed, and anything else is
/// tried: a muxer of the same kind is set up in memory with that one stream and writes its header there. The
/// trial is exact for a stream as it will be written (a source's audio to copy, an opened encoder's output);
/// before an encoder exists, `mayTakeVideo` tells what can be told.
struct OutputContainer {
    let format: UnsafePointer<AVOutputFormat>

    init(_ format: UnsafePointer<AVOutputFormat>) { self.format = format }

    /// The muxer's short name (`mp4`, `webm`, `mpegts`, `gif`).
    var name: String { String(cString: format.pointee.name) }

    /// Whether the container holds audio at all (GIF, APNG and raw video streams do not).
    var takesAudio: Bool { format.pointee.audio_codec != AV_CODEC_ID_NONE }

    /// Whether the container takes a stream of these parameters (as an encoder or a source stream has them).
    func takes(_ parameters: UnsafePointer<AVCodecParameters>) -> Bool {
        let answer = avformat_query_codec(format, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL)
        if answer == 0 { return false }
        // Muxers that open their own files (image sequences, segments, playlists) are not tried: a trial would write them.
        if format.pointee.flags & AVFMT_NOFILE != 0 { return true }
        return trial(parameters)
    }

    /// Whether the container may take video of `codec`, before an encoder exists: what FFmpeg answers, and where it
    /// answers "unknown", a trial with a stream of that codec and size. Without the codec's headers (which only an
    /// opened encoder has) a trial can fail where the real stream would pass (Matroska writes H.264's into its
    /// header), so a "yes" from FFmpeg is believed here; the real header tells the rest, with its reason.
    func mayTakeVideo(_ codec: AVCodecID, width: Int32 = 64, height: Int32 = 64) -> Bool {
        let answer = avformat_query_codec(format, codec, FF_COMPLIANCE_NORMAL)
        if answer >= 0 { return answer == 1 }
        if format.pointee.flags & AVFMT_NOFILE != 0 { return true }
        var allocated = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&allocated) }
        guard let parameters = allocated else { return false }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = codec
        parameters.pointee.width = width
        parameters.pointee.height = height
        parameters.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        return trial(parameters)
    }

    /// Sets up a muxer of this kind in memory with one stream of `parameters` and writes its header.
    private func trial(_ parameters: UnsafePointer<AVCodecParameters>) -> Bool {
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&context, format, nil, nil) >= 0, let context else { return false }
        var memory: UnsafeMutablePointer<AVIOContext>? = nil
        defer {
            avformat_free_context(context) // after the muxer's own clean-up, which may still write
            if let memory {
                var bytes: UnsafeMutablePointer<UInt8>? = nil
                _ = avio_close_dyn_buf(memory, &bytes)
                av_free(bytes)
            }
        }
        guard avio_open_dyn_buf(&memory) >= 0 else { return false }
        context.pointee.pb = memory
        guard let stream = avformat_new_stream(context, nil),
              avcodec_parameters_copy(stream.pointee.codecpar, parameters) >= 0 else { return false }
        stream.pointee.codecpar.pointee.codec_tag = 0 // the source container's tag means nothing to this one
        let rate = parameters.pointee.sample_rate
        stream.pointee.time_base = AVRational(num: 1, den: parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO && rate > 0 ? rate : 90_000)
        return avformat_write_header(context, nil) >= 0
    }

    /// The video encoders of this FFmpeg whose codec the container takes, `preferred` first, for a message that
    /// says what `--codec` can be. Hardware encoders (which need a device) are left out.
    func videoEncoderNames(preferred: String?) -> [String] {
        var names: [String] = []
        var verdicts: [UInt32: Bool] = [:]
        var iterator: UnsafeMutableRawPointer? = nil
        while let codec = av_codec_iterate(&iterator) {
            guard av_codec_is_encoder(codec) != 0, codec.pointee.type == AVMEDIA_TYPE_VIDEO,
                  codec.pointee.capabilities & AV_CODEC_CAP_HARDWARE == 0, avcodec_get_hw_config(codec, 0) == nil,
                  codec.pointee.capabilities & AV_CODEC_CAP_EXPERIMENTAL == 0 else { continue }
            let name = String(cString: codec.pointee.name)
            if ["_qsv", "_omx", "_v4l2m2m", "_nvenc", "_amf", "_vaapi", "_mf"].contains(where: { name.hasSuffix($0) }) { continue }
            let id = codec.pointee.id
            if verdicts[id.rawValue] == nil { verdicts[id.rawValue] = id == format.pointee.video_codec || mayTakeVideo(id) }
            if verdicts[id.rawValue] == true { names.append(name) }
        }
        if let preferred, let i = names.firstIndex(of: preferred) { names.insert(names.remove(at: i), at: 0) }
        return names
    }

    /// The encoder a movie in this container gets when none is asked for: H.264 (libx264) wherever the container
    /// takes it, else VP9, else the muxer's own default codec (GIF for .gif). WebM is VP9's.
    func defaultVideoEncoder() -> String? {
        let own = format.pointee.video_codec
        var candidates: [(name: String, codec: AVCodecID)] = [("libx264", AV_CODEC_ID_H264), ("libvpx-vp9", AV_CODEC_ID_VP9)]
        if name == "webm" { candidates.reverse() }
        for candidate in candidates where avcodec_find_encoder_by_name(candidate.name) != nil {
            if candidate.codec == own || mayTakeVideo(candidate.codec) { return candidate.name }
        }
        return avcodec_find_encoder(own).map { String(cString: $0.pointee.name) }
    }
}
