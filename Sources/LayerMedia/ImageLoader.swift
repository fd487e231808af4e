import CFFmpeg
import CShims
import LayerGraphics

/// Loads still images of any format FFmpeg reads (PNG, JPEG, WebP, GIF, TIFF, BMP…; or a video's first frame)
/// into premultiplied BGRA `Image`s, converting with libswscale.
public enum ImageLoader {
    /// The first frame of `path` as an image.
    /// - Throws: `MediaError` naming the file: missing, not media, no picture in it, or undecodable.
    public static func load(path: String) throws -> Image {
        let format = try FFmpegFormat(path: path)
        guard let stream = format.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw MediaError("cannot read '\(path)' as an image: it has no picture")
        }
        let decoder = try FFmpegDecoder(format: format, stream: stream, onePicture: true)
        guard let frame = try decoder.nextFrame(from: format) else {
            throw MediaError("cannot read '\(path)' as an image: no frame could be decoded")
        }
        let owner = FrameOwner(frame) // frees the frame when done
        return try withExtendedLifetime(owner) { try convert(frame, name: path) }
    }

    /// A decoded frame → premultiplied BGRA, honouring the frame's colour matrix and range.
    static func convert(_ frame: UnsafeMutablePointer<AVFrame>, name: String) throws -> Image {
        let w = frame.pointee.width, h = frame.pointee.height
        guard w > 0, h > 0, w <= 32768, h <= 32768 else { throw MediaError("cannot read '\(name)': bad picture size \(w)x\(h)") }
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        guard let sws = sws_getContext(w, h, source, w, h, AV_PIX_FMT_BGRA,
                                       Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil) else {
            throw MediaError("cannot convert the picture of '\(name)' (pixel format \(pixelFormatName(source)))")
        }
        defer { sws_freeContext(sws) }
        guard var out = av_frame_alloc() else { throw MediaError("out of memory") }
        var outPointer: UnsafeMutablePointer<AVFrame>? = out
        defer { av_frame_free(&outPointer) }
        out.pointee.width = w
        out.pointee.height = h
        out.pointee.format = AV_PIX_FMT_BGRA.rawValue
        let status = sws_scale_frame(sws, out, frame)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot convert the picture of '\(name)'", status) }
        out = outPointer!
        let stride = Int(out.pointee.linesize.0)
        guard let base = out.pointee.data.0 else { throw MediaError("cannot convert the picture of '\(name)'") }
        let hasAlpha = (av_pix_fmt_desc_get(source)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        // An embedded ICC profile (a Display P3 photo): into sRGB, the compositor's space, while alpha is straight.
        if let profile = ICCConversion.profile(of: frame),
           let problem = ICCConversion.convertToSRGB(base, width: Int(w), height: Int(h), bytesPerRow: stride, profile: UnsafeRawBufferPointer(profile)) {
            StandardError.writeLine("layerplay: warning: '\(name)' is shown without colour management: \(problem)")
        }
        return Image(width: Int(w), height: Int(h)) { px in
            for y in 0..<Int(h) {
                let row = UnsafeRawPointer(base + y * stride)
                for x in 0..<Int(w) {
                    let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    px[y * Int(w) + x] = hasAlpha ? premultiply(word) : word | 0xff00_0000
                }
            }
        }
    }

    /// Straight BGRA (what libswscale gives) → premultiplied.
    @inline(__always)
    static func premultiply(_ w: UInt32) -> UInt32 {
        let a = w >> 24
        if a == 255 { return w }
        @inline(__always) func m(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }
        return m(w & 0xff) | m((w >> 8) & 0xff) << 8 | m((w >> 16) & 0xff) << 16 | a << 24
    }
}

func pixelFormatName(_ f: AVPixelFormat) -> String {
    av_get_pix_fmt_name(f).map { String(cString: $0) } ?? "unknown"
}
