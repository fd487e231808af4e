import CFFmpeg
import LayerGraphics

/// Owns one decoded AVFrame; a `PixelBuffer` that borrows its planes keeps it alive (the release handle).
final class FrameOwner: @unchecked Sendable {
    private var frame: UnsafeMutablePointer<AVFrame>?
    init(_ frame: UnsafeMutablePointer<AVFrame>) { self.frame = frame }
    deinit { av_frame_free(&frame) }
}

/// Decoded video frames → `PixelBuffer`s the compositor samples directly (no copy), or, for formats it cannot
/// sample (RGB, 12-bit, 4:1:1, paletted, Bayer…), converted once with libswscale.
final class FrameConverter {
    private var sws: OpaquePointer?
    private var swsKey: (Int32, Int32, Int32) = (0, 0, 0)
    private var swsTarget = AV_PIX_FMT_NONE

    deinit { sws_freeContext(sws) }

    /// The colour converter of the last HDR or wide-gamut description seen (a stream keeps one, or changes rarely).
    private var colorConverter: VideoColorConverter?
    /// What this stream's converted frames share: the level they were last drawn at.
    let levelStream = PictureLevels.Stream()
    /// Whether this stream has had its one colour warning.
    private var warned = false
    /// The stream's last HDR metadata: a frame without it (an encoder that repeats it only at keyframes) keeps
    /// the light range it was graded for, so tone mapping does not change from frame to frame.
    private var lastMastering: MasteringDisplay?
    private var lastLightLevel: ContentLightLevel?

    /// `frame` (owned from here) as a picture the compositor shows as it is, and its colour as decoded: HDR and
    /// wide-gamut pictures are converted to SDR BT.709 here, the one place every consumer (window, still,
    /// export) takes frames from, so a frame gives the same pixels everywhere.
    func picture(from frame: UnsafeMutablePointer<AVFrame>, name: String) throws -> (PixelBuffer, ColorDescription) {
        var color = FrameColor.describe(frame)
        if color.transfer.isHDR {
            if color.masteringDisplay == nil { color.masteringDisplay = lastMastering } else { lastMastering = color.masteringDisplay }
            if color.contentLightLevel == nil { color.contentLightLevel = lastLightLevel } else { lastLightLevel = color.contentLightLevel }
        }
        let unsupported = FrameColor.unsupportedTags(frame)
        let buffer = try pixelBuffer(from: frame, name: name)
        guard color.needsConversion else {
            if !unsupported.isEmpty {
                warnOnce("'\(name)' is tagged with \(unsupported.joined(separator: " and ")), which layerplay does not convert: shown as untagged video")
            }
            return (TenBitReduction.reduce(buffer), color)
        }
        guard VideoColorConverter.canConvert(buffer.format) else {
            warnOnce("'\(name)' is \(color.transfer.isHDR ? "HDR" : "wide-gamut") in a pixel format layerplay cannot convert (\(buffer.format)): shown without conversion")
            return (TenBitReduction.reduce(buffer), color)
        }
        if colorConverter?.source != color { colorConverter = VideoColorConverter(source: color) }
        // The converter writes 8 bits, as `TenBitReduction` gives the others: the compositor's 8-bit paths are
        // several times faster than its wide ones, and its surfaces are 8-bit anyway. It converts at the size the
        // stream was last drawn at (`PictureLevels`); a draw that needs another size converts that one itself.
        let levels = PictureLevels(source: buffer, converter: colorConverter!, stream: levelStream)
        return (levels.contentsPicture(), color)
    }

    private func warnOnce(_ message: String) {
        guard !warned else { return }
        warned = true
        StandardError.writeLine("layerplay: warning: \(message)")
    }

    /// Wraps or converts `frame` (taking ownership of it).
    func pixelBuffer(from frame: UnsafeMutablePointer<AVFrame>, name: String) throws -> PixelBuffer {
        let owner = FrameOwner(frame)
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        let profile = ICCConversion.profile(of: frame)
        if let format = Self.directFormat(source), profile == nil {
            return PixelBuffer(format: format, width: w, height: h, planes: Self.planes(of: frame, format: format, width: w, height: h),
                               matrix: Self.matrix(frame), range: Self.range(frame, source), chromaLocation: Self.chroma(frame, source),
                               owner: owner)
        }
        // Convert once: RGB-like formats (and those with alpha) to BGRA, the rest to 4:4:4 8-bit YUV.
        let flags = av_pix_fmt_desc_get(source)?.pointee.flags ?? 0
        let isRGB = flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 || flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
            || flags & UInt64(AV_PIX_FMT_FLAG_BAYER) != 0
        let hasAlpha = flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        // A picture with an ICC profile becomes RGB, where lcms2 converts it to sRGB.
        let target: AVPixelFormat = isRGB || hasAlpha || profile != nil ? AV_PIX_FMT_BGRA : AV_PIX_FMT_YUV444P
        if sws == nil || swsKey != (frame.pointee.width, frame.pointee.height, frame.pointee.format) || swsTarget != target {
            sws_freeContext(sws)
            sws = sws_getContext(frame.pointee.width, frame.pointee.height, source, frame.pointee.width, frame.pointee.height, target,
                                 Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
            swsKey = (frame.pointee.width, frame.pointee.height, frame.pointee.format)
            swsTarget = target
        }
        guard let sws, let out = av_frame_alloc() else {
            throw MediaError("cannot convert the pictures of '\(name)' (pixel format \(pixelFormatName(source)))")
        }
        let outOwner = FrameOwner(out)
        out.pointee.width = frame.pointee.width
        out.pointee.height = frame.pointee.height
        out.pointee.format = target.rawValue
        out.pointee.colorspace = frame.pointee.colorspace
        out.pointee.color_range = frame.pointee.color_range
        let status = sws_scale_frame(sws, out, frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot convert the pictures of '\(name)'", status) }
        if target == AV_PIX_FMT_BGRA {
            let stride = Int(out.pointee.linesize.0)
            if let profile, let base = out.pointee.data.0,
               let problem = ICCConversion.convertToSRGB(base, width: w, height: h, bytesPerRow: stride, profile: UnsafeRawBufferPointer(profile)) {
                warnOnce("'\(name)' is shown without colour management: \(problem)")
            }
            // libswscale gives straight alpha; the compositor samples premultiplied BGRA.
            if hasAlpha, let base = out.pointee.data.0 {
                for y in 0..<h {
                    let row = UnsafeMutableRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<w { row[x] = ImageLoader.premultiply(row[x]) }
                }
            }
            return PixelBuffer(format: .bgra, width: w, height: h, planes: Self.planes(of: out, format: .bgra, width: w, height: h),
                               matrix: .bt709, range: .full, owner: outOwner)
        }
        return PixelBuffer(format: .yuv444p, width: w, height: h, planes: Self.planes(of: out, format: .yuv444p, width: w, height: h),
                           matrix: Self.matrix(frame), range: Self.range(frame, source), chromaLocation: .center, owner: outOwner)
    }

    /// The formats the compositor samples as they are.
    static func directFormat(_ f: AVPixelFormat) -> PixelFormat? {
        switch f {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: return .yuv420p
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: return .yuv422p
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: return .yuv444p
        case AV_PIX_FMT_YUV420P10LE: return .yuv420p10
        case AV_PIX_FMT_YUV422P10LE: return .yuv422p10
        case AV_PIX_FMT_YUV444P10LE: return .yuv444p10
        case AV_PIX_FMT_YUVA420P: return .yuva420p
        case AV_PIX_FMT_NV12: return .nv12
        default: return nil
        }
    }

    static func planes(of frame: UnsafeMutablePointer<AVFrame>, format: PixelFormat, width: Int, height: Int) -> [PixelPlane] {
        let shift = format.chromaShift
        let cw = (width + (1 << shift.x) - 1) >> shift.x, ch = (height + (1 << shift.y) - 1) >> shift.y
        let data = frame.pointee.data, lines = frame.pointee.linesize
        let bases = [data.0, data.1, data.2, data.3]
        let strides = [lines.0, lines.1, lines.2, lines.3]
        return (0..<format.planeCount).map { p in
            let chroma = format.isYUV && (p == 1 || p == 2) || (format == .nv12 && p == 1)
            return PixelPlane(base: UnsafeRawPointer(bases[p]!), bytesPerRow: Int(strides[p]),
                              width: chroma ? cw : width, height: chroma ? ch : height)
        }
    }

    /// The stream's matrix; unspecified means BT.601 below 720 lines, BT.709 from there (what players assume).
    static func matrix(_ frame: UnsafeMutablePointer<AVFrame>) -> ColorMatrix {
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: return .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return .bt2020
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_FCC: return .bt601
        default: return frame.pointee.height >= 720 ? .bt709 : .bt601
        }
    }

    static func range(_ frame: UnsafeMutablePointer<AVFrame>, _ f: AVPixelFormat) -> ColorRange {
        if frame.pointee.color_range == AVCOL_RANGE_JPEG { return .full }
        switch f {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P: return .full
        default: return .limited
        }
    }

    static func chroma(_ frame: UnsafeMutablePointer<AVFrame>, _ f: AVPixelFormat) -> ChromaLocation {
        switch frame.pointee.chroma_location {
        case AVCHROMA_LOC_LEFT: return .left
        case AVCHROMA_LOC_CENTER: return .center
        case AVCHROMA_LOC_TOPLEFT: return .topLeft
        default:
            // JPEG-family formats centre their chroma; MPEG-2 and later default to the left.
            switch f {
            case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P: return .center
            default: return .left
            }
        }
    }
}
