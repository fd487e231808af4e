import CFFmpeg
import CShims
import Foundation
import LayerCompositor
import LayerGraphics
import Synchronization

/// Encoder settings for `MovieWriter`.
public struct EncoderSettings: Sendable {
    /// An FFmpeg encoder name; nil picks one the container takes: libx264 wherever it takes H.264, libvpx-vp9
    /// for WebM, else the container's own (gif for GIF).
    public var codec: String?
    /// The constant rate factor: lower is better and bigger (x264's scale, 0–51).
    public var crf: Int = 20
    /// The encoder's speed preset (`ultrafast` … `veryslow` for x264).
    public var preset: String = "veryfast"
    /// Frames per second as a rational `num/den`.
    public var frameRate: (num: Int32, den: Int32) = (30, 1)
    /// Bitrate, keyframes, picture format, the encoder's own options, two passes, the audio encoder (`EncoderControl`).
    public var control = EncoderControl()
    /// Settings with the given codec, quality, preset and frame rate.
    public init(codec: String? = nil, crf: Int = 20, preset: String = "veryfast", frameRate: (num: Int32, den: Int32) = (30, 1)) {
        self.codec = codec; self.crf = crf; self.preset = preset; self.frameRate = frameRate
    }
}

/// Encodes `Surface`s into any container FFmpeg can mux, with audio copied from a source when the container
/// takes its codec (re-encoded when not; none for containers without audio, such as GIF). BGRA → YUV with the matrix the stream is tagged with (BT.709 from 720 lines up, BT.601 below;
/// limited range, full for JPEG stills): into 4:2:0 by `YUV420Conversion`, into any other format by libswscale.
/// Writes to `temporaryPath`; the caller renames it when complete.
public final class MovieWriter: @unchecked Sendable { // used by one thread at a time
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>
    private var sws: OpaquePointer?
    /// The range of the encoder's 8-bit 4:2:0 format when it has one (`YUV420Conversion` writes it), else nil.
    private let yuv420Range: ColorRange?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// What the surface converted into `frame` last showed, when its planes hold exactly that conversion.
    private var planesShow: Backdrop?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let width: Int32, height: Int32
    /// The pictures' size as appended (the canvas) when the encoder's is another (`outputSize`): libswscale scales.
    private let scaledFrom: (width: Int, height: Int)?
    private let path: String
    private var audio: AudioTrackWriter?
    private var subtitles: SubtitleStreamWriter?
    private var finished = false
    private let setup: VideoEncoderSetup
    private var hardwareFrames: HardwareFrames?
    /// The canvas with straight alpha, for an encoder format with alpha; nil for opaque formats.
    private var straight: UnsafeMutablePointer<UInt32>?
    /// Frames encoded so far.
    public private(set) var framesWritten = 0
    /// Bytes of output so far (the file's position; for a sequence, the pictures' bytes), read by any thread (`--progress`).
    public var bytesWritten: Int64 { written.load(ordering: .relaxed) }
    private let written = Atomic<Int64>(0)

    /// Opens the file and its encoder.
    /// - Parameters:
    ///   - finalPath: where the file will end up (its extension chooses the container).
    ///   - temporaryPath: where it is written meanwhile.
    ///   - width: the frames' width in pixels.
    ///   - height: the frames' height in pixels.
    ///   - settings: the encoder's quality, preset and frame rate.
    ///   - source: a media file whose audio is copied; nil for none.
    ///   - audioRange: the source seconds to copy.
    ///   - audioSpan: instead of `audioRange`, the sound on the source's time with silence first or a loop.
    ///   - subtitleSource: a media file whose subtitle streams are carried over for `audioRange` (`SubtitleStreamWriter`).
    ///   - segment: for a segment of a segmented export, how it is encoded so that segments join (`SegmentEncoding`).
    ///   - target: a stream or segmented output (`OutputTarget`), written in place; nil: one file, written to
    ///     `temporaryPath` and renamed.
    ///   - outputSize: the encoded pictures' size when it is not `width`×`height` (one output of several, scaled
    ///     from the canvas by libswscale); nil: the canvas's.
    public init(finalPath: String, temporaryPath: String, width: Int, height: Int, settings: EncoderSettings,
                audioFrom source: String? = nil, audioRange: ClosedRange<Double>? = nil, audioSpan: AudioSpan? = nil,
                subtitlesFrom subtitleSource: String? = nil, segment: SegmentEncoding? = nil, target: OutputTarget? = nil,
                outputSize: (width: Int, height: Int)? = nil) throws {
        let span = audioSpan ?? audioRange.map(AudioSpan.init)
        FFmpegLogging.quietOnce()
        path = finalPath
        // A stream or a segmented output (OutputTarget) is written in place, by its URL or path and its muxer.
        let writePath = target.map { $0.isAtomic ? temporaryPath : $0.url } ?? temporaryPath
        guard let format = target?.outputFormat(fileName: finalPath) ?? av_guess_format(nil, finalPath, nil) else {
            throw MediaError("cannot write '\(finalPath)': no container for that file name")
        }
        let container = OutputContainer(format)
        let isImage = container.name == "image2"
        let guessed = av_guess_codec(format, nil, finalPath, nil, AVMEDIA_TYPE_VIDEO)
        guard let codecName = settings.codec ?? (isImage ? Self.imageEncoder(guessed) : container.defaultVideoEncoder()) else {
            throw MediaError("cannot write '\(finalPath)': this FFmpeg has no encoder for \(container.name) video")
        }
        guard let codec = avcodec_find_encoder_by_name(codecName), codec.pointee.type == AVMEDIA_TYPE_VIDEO else {
            throw MediaError("cannot write '\(finalPath)': no video encoder named '\(codecName)'")
        }
        // The muxer's own codec it takes by definition. What passes here and is still refused (mov lists VP9) is
        // refused by the header, with the muxer's reason.
        if codec.pointee.id != format.pointee.video_codec && !container.mayTakeVideo(codec.pointee.id) {
            let codecs = container.videoEncoderNames(preferred: container.defaultVideoEncoder())
            throw MediaError("cannot write '\(finalPath)': \(container.name) does not take \(String(cString: avcodec_get_name(codec.pointee.id))) video"
                             + (codecs.isEmpty ? "" : "; --codec can be \(codecs.joined(separator: ", "))"))
        }
        try EncoderLimits.checkPreset(settings.preset, encoder: codecName)
        // JPEG stills: full-range BT.601 (the JFIF convention), one picture written over the file.
        let isJPEG = codec.pointee.id == AV_CODEC_ID_MJPEG
        let setup = VideoEncoderSetup(control: settings.control, codecName: codecName, path: finalPath)
        self.setup = setup
        // A hardware encoder of device pictures (VAAPI) is fed NV12 pictures uploaded to its device.
        let hardware = HardwareFrames.needed(by: codec)
        let pixelFormat: AVPixelFormat
        if hardware != nil { pixelFormat = AV_PIX_FMT_NV12 } else {
            pixelFormat = try setup.requestedPixelFormat(codec) ?? setup.transparentFormat(codec)
                ?? (isJPEG ? AV_PIX_FMT_YUVJ420P : Self.pixelFormat(for: codec))
        }
        // Formats with alpha are made from straight-alpha pictures (`AlphaOutput`).
        if AlphaOutput.hasAlpha(pixelFormat) { straight = .allocate(capacity: max(1, width * height)) }
        let encoded = outputSize ?? (width, height)
        scaledFrom = outputSize.map { $0.width == width && $0.height == height } == false ? (width, height) : nil
        (self.width, self.height) = try EncoderLimits.pictureSize(width: encoded.width, height: encoded.height, pixelFormat: pixelFormat,
                                                                   encoder: codecName, path: finalPath)
        var oc: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&oc, format, nil, writePath) >= 0, let oc else {
            throw MediaError("cannot write '\(finalPath)': the container cannot be set up")
        }
        output = oc
        target?.prepare(oc)
        guard let st = avformat_new_stream(oc, nil), let enc = avcodec_alloc_context3(codec) else {
            avformat_free_context(oc); output = nil
            throw MediaError("out of memory")
        }
        videoStream = st
        encoder = enc
        enc.pointee.width = self.width
        enc.pointee.height = self.height
        enc.pointee.time_base = AVRational(num: settings.frameRate.den, den: settings.frameRate.num)
        enc.pointee.framerate = AVRational(num: settings.frameRate.num, den: settings.frameRate.den)
        enc.pointee.pix_fmt = pixelFormat
        if let hardware {
            hardwareFrames = try HardwareFrames(hardware, encoder: enc, codecName: codecName, width: self.width, height: self.height, path: finalPath)
        }
        if let gop = target?.keyframeInterval(frameRate: settings.frameRate) { enc.pointee.gop_size = gop; enc.pointee.keyint_min = gop }
        yuv420Range = enc.pointee.pix_fmt == AV_PIX_FMT_YUV420P ? .limited : enc.pointee.pix_fmt == AV_PIX_FMT_YUVJ420P ? .full : nil
        if isImage && !finalPath.contains("%") {
            av_opt_set(oc.pointee.priv_data, "update", "1", 0) // one picture, written over the one file
        }
        let hd = self.height >= 720 && !isJPEG
        streamMatrix = hd ? .bt709 : .bt601
        enc.pointee.colorspace = hd ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
        enc.pointee.color_primaries = hd ? AVCOL_PRI_BT709 : AVCOL_PRI_SMPTE170M
        enc.pointee.color_trc = hd ? AVCOL_TRC_BT709 : AVCOL_TRC_SMPTE170M
        enc.pointee.color_range = isJPEG ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        if isJPEG { // constant quality 2 (of 31), as `ffmpeg -q:v 2`
            enc.pointee.flags |= AV_CODEC_FLAG_QSCALE
            enc.pointee.global_quality = 2 * 118 // FF_QP2LAMBDA
        }
        enc.pointee.chroma_sample_location = AVCHROMA_LOC_LEFT
        enc.pointee.thread_count = 0
        if oc.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { enc.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if try setup.configure(enc) { av_opt_set(enc.pointee.priv_data, "crf", "\(settings.crf)", 0) }
        av_opt_set(enc.pointee.priv_data, "preset", settings.preset, 0)
        if codecName == "libvpx-vp9" { av_opt_set(enc.pointee.priv_data, "deadline", "realtime", 0); av_opt_set(enc.pointee.priv_data, "cpu-used", "8", 0) }
        // x265 prints its banner and statistics (25 lines) straight on stderr, past FFmpeg's log; its errors still
        // reach FFmpeg's log through libavcodec.
        if codecName == "libx265" { av_opt_set(enc.pointee.priv_data, "x265-params", "log-level=none", 0) }
        if let segment { segment.apply(to: enc, encoderName: codecName); segment.tag(oc) } // segments join without re-encoding
        var encoderOptions = try setup.optionDictionary()
        defer { av_dict_free(&encoderOptions) }
        try segment?.reconcile(&encoderOptions, encoderName: codecName)
        let opened = FFmpegLogging.reason { avcodec_open2(enc, codec, &encoderOptions) }
        guard opened.status >= 0 else { throw MediaError.ffmpeg("cannot open the encoder \(codecName) for '\(finalPath)'", opened) }
        try setup.checkLeftovers(encoderOptions)
        avcodec_parameters_from_context(st.pointee.codecpar, enc)
        st.pointee.time_base = enc.pointee.time_base
        // The rate readers report (`r_frame_rate`): NUT and raw streams have no other way to say it (without it,
        // ffmpeg read a NUT file of ours as 61440 fps and duplicated every frame thousands of times).
        st.pointee.avg_frame_rate = enc.pointee.framerate
        st.pointee.r_frame_rate = enc.pointee.framerate

        if let source, let span, container.takesAudio {
            // Copied when the container takes the codec, else re-encoded (AAC, Opus for WebM, or the container's own);
            // --audio-codec and --audio-bitrate choose otherwise.
            audio = try AudioTrackChoice.writer(source: source, span: span, into: oc, name: finalPath, control: settings.control)
        }
        MetadataCopy.copy(from: settings.control.metadataSource, range: span?.sourceRange, into: oc)

        if let subtitleSource, let range = span?.sourceRange {
            subtitles = SubtitleStreamWriter(source: subtitleSource, range: range, into: oc, name: finalPath)
        }

        if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            var ioOptions = target?.ioOptions()
            defer { av_dict_free(&ioOptions) }
            let status = target.map { t in t.watchdog.during { avio_open2(&oc.pointee.pb, writePath, AVIO_FLAG_WRITE, &oc.pointee.interrupt_callback, &ioOptions) } }
                ?? avio_open(&oc.pointee.pb, writePath, AVIO_FLAG_WRITE)
            guard status >= 0 else { throw target?.failure(status) ?? MediaError.ffmpeg("cannot write '\(finalPath)'", status) }
        }
        var muxerOptions = target?.muxerOptions(format)
        defer { av_dict_free(&muxerOptions) }
        let header = FFmpegLogging.reason { target?.watchdog.during { avformat_write_header(oc, &muxerOptions) } ?? avformat_write_header(oc, nil) }
        guard header.status >= 0 else { throw MediaError.ffmpeg("cannot write '\(finalPath)'", header) }

        let matrix = hd ? SWS_CS_ITU709 : SWS_CS_ITU601
        // Chroma is written where decoders read it by default for MPEG-family video (left, between rows: the
        // stream is tagged so), so that each generation does not shift it by a quarter sample.
        sws = sws_alloc_context()
        guard let sws else { throw MediaError("out of memory") }
        av_opt_set_int(UnsafeMutableRawPointer(sws), "srcw", Int64(width), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "srch", Int64(height), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "src_format", Int64(AV_PIX_FMT_BGRA.rawValue), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "dstw", Int64(self.width), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "dsth", Int64(self.height), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "dst_format", Int64(pixelFormat.rawValue), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "sws_flags", Int64(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP), 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "dst_h_chr_pos", 0, 0)
        av_opt_set_int(UnsafeMutableRawPointer(sws), "dst_v_chr_pos", 128, 0)
        guard sws_init_context(sws, nil, nil) >= 0 else { throw MediaError("cannot convert pictures for '\(finalPath)'") }
        sws_setColorspaceDetails(sws, sws_getCoefficients(SWS_CS_DEFAULT), 1, sws_getCoefficients(matrix), isJPEG ? 1 : 0, 0, 1 << 16, 1 << 16)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil else { throw MediaError("out of memory") }
        frame.pointee.width = self.width
        frame.pointee.height = self.height
        frame.pointee.format = pixelFormat.rawValue
        let status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot allocate frames for '\(finalPath)'", status) }
    }

    deinit {
        straight?.deallocate()
        sws_freeContext(sws)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&encoder)
        if let oc = output {
            if oc.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&oc.pointee.pb) }
            avformat_free_context(oc)
        }
    }

    /// The encoder of pictures of `codec` (a sequence's or a still's): FFmpeg's encoder for it (WebP's is libwebp,
    /// whose codec is named "webp"), else the codec's name.
    static func imageEncoder(_ codec: AVCodecID) -> String {
        if codec == AV_CODEC_ID_WEBP, avcodec_find_encoder_by_name("libwebp") != nil { return "libwebp" }  // one picture a file, not an animation
        return avcodec_find_encoder(codec).map { String(cString: $0.pointee.name) } ?? String(cString: avcodec_get_name(codec))
    }

    /// Whether `path` names a single JPEG picture (written through the image2 muxer with the mjpeg encoder).
    public static func isJPEGStill(_ path: String) -> Bool {
        let lower = path.lowercased()
        return (lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")) && !path.contains("%")
    }

    /// Whether `path` names a numbered image sequence (`f_%04d.png`): one file per frame, numbered from 1.
    public static func isImageSequence(_ path: String) -> Bool {
        guard path.contains("%"), let f = av_guess_format(nil, path, nil) else { return false }
        return String(cString: f.pointee.name) == "image2"
    }

    /// The file name of frame `number` (from 1) of an image sequence pattern, as FFmpeg expands it.
    public static func sequenceFileName(_ pattern: String, number: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard av_get_frame_filename(&buffer, Int32(buffer.count), pattern, Int32(number)) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` names a movie container FFmpeg can write (not a single image).
    public static func canWrite(_ path: String) -> Bool {
        guard let f = av_guess_format(nil, path, nil) else { return false }
        let name = String(cString: f.pointee.name)
        return name != "image2" && !name.hasSuffix("_pipe") && f.pointee.video_codec != AV_CODEC_ID_NONE
    }

    /// A frame rate in frames per second as a fraction (30 → 30/1, 29.97 → 30000/1001).
    public static func rational(_ fps: Double) -> (num: Int32, den: Int32) {
        let q = av_d2q(fps, 100_000)
        return (q.num, q.den)
    }

    /// The encoder's preferred 4:2:0 format (yuv420p when it takes it).
    static func pixelFormat(for codec: UnsafePointer<AVCodec>) -> AVPixelFormat {
        guard var p = codec.pointee.pix_fmts else { return AV_PIX_FMT_YUV420P }
        let first = p.pointee
        while p.pointee != AV_PIX_FMT_NONE {
            if p.pointee == AV_PIX_FMT_YUV420P { return AV_PIX_FMT_YUV420P }
            p += 1
        }
        return first
    }

    /// The colour matrix the stream is tagged with (BT.709 from 720 lines up, else BT.601; limited range).
    private(set) var streamMatrix: ColorMatrix = .bt709

    /// Whether `buffer` can be encoded as it is (`append(_: PixelBuffer)`): 8-bit 4:2:0 of the output's size,
    /// in the stream's matrix and limited range, into an encoder that takes 4:2:0.
    public func canAppendDirectly(_ buffer: PixelBuffer) -> Bool {
        guard let encoder else { return false }
        return encoder.pointee.pix_fmt == AV_PIX_FMT_YUV420P && buffer.format == .yuv420p && buffer.width == width
            && buffer.height == height && buffer.matrix == streamMatrix && buffer.range == .limited && buffer.chromaLocation == .left
    }

    /// Encodes a decoded picture as the next frame without compositing or colour conversion (a plain transcode):
    /// its planes are copied into the encoder's frame. Only when `canAppendDirectly` says so.
    public func append(_ buffer: PixelBuffer) throws {
        guard let frame, canAppendDirectly(buffer) else { throw MediaError("cannot encode '\(path)': wrong picture format") }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        let d = frame.pointee.data, l = frame.pointee.linesize
        for (i, (dst, stride)) in [(d.0, l.0), (d.1, l.1), (d.2, l.2)].enumerated() {
            guard let dst else { continue }
            let plane = buffer.planes[i]
            av_image_copy_plane(dst, stride, plane.base.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow),
                                Int32(min(plane.width, Int(stride))), Int32(plane.height))
        }
        planesShow = nil
        try encodeFrame()
    }

    /// Whether `buffer` can be resampled into the encoder's frame (`append(_: VideoMosaic)`): 8-bit 4:2:0 in the
    /// stream's range (any matrix, any size), into an encoder that takes 4:2:0.
    public func canDrawIntoPlanes(_ buffer: PixelBuffer) -> Bool {
        guard let encoder, let range = yuv420Range, scaledFrom == nil else { return false }
        return encoder.pointee.pix_fmt == AV_PIX_FMT_YUV420P && buffer.format == .yuv420p && buffer.range == range
    }

    /// Encodes a frame of videos over a colour (`Compositor.renderFrame`'s `.mosaic`), drawn straight into the
    /// encoder's planes. Only when `canDrawIntoPlanes` took each of its pictures.
    public func append(_ mosaic: VideoMosaic) throws {
        guard let frame, let range = yuv420Range, mosaic.width == Int(width), mosaic.height == Int(height) else {
            throw MediaError("cannot encode '\(path)': wrong picture format")
        }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        let d = frame.pointee.data, l = frame.pointee.linesize
        guard let y = d.0, let u = d.1, let v = d.2 else { return }
        mosaic.draw(into: WritablePlanes420(y: y, yStride: Int(l.0), u: u, uStride: Int(l.1), v: v, vStride: Int(l.2)),
                    background: mosaic.backgroundCodes(matrix: streamMatrix, range: range), matrix: streamMatrix,
                    scratch: mosaicScratch)
        planesShow = nil
        try encodeFrame()
    }

    private let mosaicScratch = MosaicScratch()

    /// Encodes a picture with a composited rectangle above it (`Compositor.renderFrame`'s `.overVideo`): the
    /// picture's planes are copied as `append(_: PixelBuffer)` copies them, then the rectangle of `surface` is
    /// converted over them. Only when `canAppendDirectly(video.picture)` says so.
    public func append(_ video: OverlaidVideo, surface: Surface) throws {
        guard let frame, let range = yuv420Range, surface.width == Int(width), surface.height == Int(height),
              canAppendDirectly(video.picture) else {
            throw MediaError("cannot encode '\(path)': wrong picture format")
        }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        let d = frame.pointee.data, l = frame.pointee.linesize
        guard let y = d.0, let u = d.1, let v = d.2 else { return }
        for (i, (dst, stride)) in [(y, l.0), (u, l.1), (v, l.2)].enumerated() {
            let plane = video.picture.planes[i]
            av_image_copy_plane(dst, stride, plane.base.assumingMemoryBound(to: UInt8.self), Int32(plane.bytesPerRow),
                                Int32(min(plane.width, Int(stride))), Int32(plane.height))
        }
        YUV420Conversion.convert(surface, columns: video.x0, video.x1, rows: video.y0, video.y1, matrix: streamMatrix, range: range,
                                 y: y, yStride: Int(l.0), u: u, uStride: Int(l.1), v: v, vStride: Int(l.2))
        planesShow = nil
        try encodeFrame()
    }

    /// Encodes `surface` as the next frame (frame index = presentation time in 1/fps units).
    /// - Parameters:
    ///   - surface: the frame's picture, as big as the movie.
    ///   - backdrop: what the surface shows (`Compositor.render(_:into:over:)`), if known. The frame's planes
    ///     keep the last picture between appends (making them writable copies them when the encoder still holds
    ///     them), so after a surface over the same canvas only what either drew on is converted again.
    public func append(_ surface: Surface, backdrop: Backdrop? = nil) throws {
        guard let frame else { return }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        let d = frame.pointee.data, l = frame.pointee.linesize
        // 4:2:0 of the surface's own size (an odd size is scaled to the even one by libswscale).
        if let range = yuv420Range, surface.width == Int(width), surface.height == Int(height), let y = d.0, let u = d.1, let v = d.2 {
            if let previous = planesShow, let backdrop {
                YUV420Conversion.convert(surface, matrix: streamMatrix, range: range, y: y, yStride: Int(l.0),
                                         u: u, uStride: Int(l.1), v: v, vStride: Int(l.2), since: previous, now: backdrop)
            } else {
                YUV420Conversion.convert(surface, matrix: streamMatrix, range: range, y: y, yStride: Int(l.0),
                                         u: u, uStride: Int(l.1), v: v, vStride: Int(l.2))
            }
            planesShow = backdrop
        } else {
            convertWithSwscale(surface, into: frame)
            planesShow = nil
        }
        try encodeFrame()
    }

    private func convertWithSwscale(_ surface: Surface, into frame: UnsafeMutablePointer<AVFrame>) {
        var pixels = surface.pixels, rowBytes = surface.pixelsPerRow * 4
        if let straight {
            AlphaOutput.straighten(surface, into: straight)
            (pixels, rowBytes) = (straight, surface.width * 4)
        }
        var srcData: [UnsafePointer<UInt8>?] = [UnsafePointer(UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self)), nil, nil, nil]
        var srcStride: [Int32] = [Int32(rowBytes), 0, 0, 0]
        withUnsafeMutablePointer(to: &frame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { dstStride in
                        _ = sws_scale(sws, &srcData, &srcStride, 0, Int32(scaledFrom?.height ?? Int(height)), dst, dstStride)
                    }
                }
            }
        }
    }

    /// Whether this writer's pictures are made exactly as `other`'s: the same picture format, size, matrix and range,
    /// from the canvas unscaled, so that its planes after an append are what this writer's would be.
    public func convertsLike(_ other: MovieWriter) -> Bool {
        guard let encoder, let theirs = other.encoder, other !== self else { return false }
        return encoder.pointee.pix_fmt == theirs.pointee.pix_fmt && width == other.width && height == other.height
            && streamMatrix == other.streamMatrix && encoder.pointee.color_range == theirs.pointee.color_range
            && scaledFrom == nil && other.scaledFrom == nil && (straight == nil) == (other.straight == nil)
    }

    /// Encodes as the next frame the picture `other` was just given (`convertsLike(other)`): its planes are copied
    /// instead of converted again, so that outputs of one render that differ only in their encoding (bitrate, codec)
    /// convert each frame once.
    public func appendCopy(of other: MovieWriter) throws {
        guard let frame, let source = other.frame, convertsLike(other) else { throw MediaError("cannot encode '\(path)': wrong picture format") }
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        withUnsafeMutablePointer(to: &frame.pointee.data) { dst in
            dst.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { dstLines in
                    dstLines.withMemoryRebound(to: Int32.self, capacity: 8) { dstLines in
                        withUnsafeMutablePointer(to: &source.pointee.data) { src in
                            src.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                                withUnsafeMutablePointer(to: &source.pointee.linesize) { srcLines in
                                    srcLines.withMemoryRebound(to: Int32.self, capacity: 8) { srcLines in
                                        av_image_copy(dst, dstLines, src, srcLines, AVPixelFormat(rawValue: frame.pointee.format), width, height)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        planesShow = nil
        try encodeFrame()
    }

    /// Sends the filled `frame` as the next picture (frame index = presentation time in 1/fps units), writes the
    /// packets that come out, and keeps the audio interleaved with the video written so far.
    private func encodeFrame() throws {
        guard let frame, let encoder else { return }
        frame.pointee.pts = Int64(framesWritten)
        let status = avcodec_send_frame(encoder, try hardwareFrames?.upload(frame, path: path) ?? frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
        framesWritten += 1
        try drainPackets()
        try audio?.copy(upTo: Double(framesWritten) * av_q2d(encoder.pointee.time_base) + 0.5)
        try subtitles?.write(upTo: Double(framesWritten) * av_q2d(encoder.pointee.time_base) + 0.5)
    }

    private func drainPackets() throws {
        guard let encoder, let packet, let output else { return }
        while true {
            let status = avcodec_receive_packet(encoder, packet)
            if status == lp_averror_eagain() || status == lp_averror_eof() { return }
            guard status >= 0 else { throw MediaError.ffmpeg("cannot encode '\(path)'", status) }
            if packet.pointee.duration == 0 { packet.pointee.duration = 1 } // one frame, so the stream lasts to the end of its last frame
            av_packet_rescale_ts(packet, encoder.pointee.time_base, videoStream.pointee.time_base)
            packet.pointee.stream_index = videoStream.pointee.index
            let size = Int64(packet.pointee.size)
            let wrote = av_interleaved_write_frame(output, packet)
            guard wrote >= 0 else { throw MediaError.ffmpeg("cannot write '\(path)'", wrote) }
            noteBytes(adding: size)
        }
    }

    /// Flushes the encoder, copies the rest of the audio and writes the container's trailer.
    public func finish() throws {
        guard !finished, let output else { return }
        finished = true
        avcodec_send_frame(encoder, nil)
        try drainPackets()
        if let encoder { try PassLog.write(encoder, control: setup.control, codecName: setup.codecName) }
        try audio?.finish()
        try subtitles?.finish()
        let status = av_write_trailer(output)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot finish '\(path)'", status) }
        noteBytes(adding: 0, final: true)
        if output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&output.pointee.pb) }
    }

    /// Records the output's size: where its file stands, or for muxers that write their own files, the packets' bytes.
    /// At the end, the file's whole size (a muxer may have gone back to fill in its header).
    private func noteBytes(adding packetBytes: Int64, final: Bool = false) {
        if let pb = output?.pointee.pb {
            if final { avio_flush(pb) }  // the size on disk counts only what left the buffer
            written.store(final ? max(avio_size(pb), avio_seek(pb, 0, SEEK_CUR)) : avio_seek(pb, 0, SEEK_CUR), ordering: .relaxed)
        } else {
            _ = written.wrappingAdd(packetBytes, ordering: .relaxed)
        }
    }
}
