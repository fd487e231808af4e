import CFFmpeg
import LayerGraphics

/// A movie of a transparent canvas: which picture format keeps the alpha, and the straight-alpha pixels it is made of.
///
/// Our surfaces hold premultiplied colour; every codec with alpha that FFmpeg writes (ProRes 4444, VP9's alpha
/// plane, FFV1, QTRLE, PNG, WebP) stores straight colour, as editors read it. Converting premultiplied pixels as
/// they are would darken every half-transparent edge (a white edge at 50 % alpha read back as grey at 50 %): the
/// dark fringe. So each frame is divided by its alpha first (`straighten`), then libswscale converts it.
enum AlphaOutput {
    /// The encoder's format that keeps alpha best for BGRA pictures (`yuva444p10le` for ProRes, `yuva420p` for
    /// VP9, `argb` for QTRLE, `rgba` for PNG), as FFmpeg ranks them for BGRA, or nil when it has none.
    static func pixelFormat(for codec: UnsafePointer<AVCodec>) -> AVPixelFormat? {
        let withAlpha = VideoEncoderSetup.pixelFormats(of: codec).filter { format in
            // Palettes (GIF's pal8) are left to the encoder's opaque format: libswscale does not make them.
            guard let d = av_pix_fmt_desc_get(format), sws_isSupportedOutput(format) != 0 else { return false }
            return d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
                && d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_PAL) == 0
        }
        guard !withAlpha.isEmpty else { return nil }
        var list = withAlpha + [AV_PIX_FMT_NONE]
        let best = avcodec_find_best_pix_fmt_of_list(&list, AV_PIX_FMT_BGRA, 1, nil)
        return best == AV_PIX_FMT_NONE ? withAlpha[0] : best
    }

    /// Whether pictures of `format` carry alpha.
    static func hasAlpha(_ format: AVPixelFormat) -> Bool {
        guard let d = av_pix_fmt_desc_get(format) else { return false }
        return d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }

    /// 255·255/a for every alpha, in 16.16 fixed point: a colour channel c becomes (c·factor + ½) >> 16, i.e.
    /// round(c·255/a), clamped to 255 (a premultiplied channel never exceeds its alpha, but a damaged one may).
    private static let reciprocals: [UInt32] = (0...255).map { a in a == 0 ? 0 : UInt32((255.0 * 65536.0 / Double(a)).rounded()) }

    /// Writes `surface`'s pixels with straight alpha (BGRA, `width` pixels a row, tightly packed) into `into`.
    static func straighten(_ surface: Surface, into out: UnsafeMutablePointer<UInt32>) {
        reciprocals.withUnsafeBufferPointer { table in
            for y in 0..<surface.height {
                let row = surface.pixels + y * surface.pixelsPerRow, target = out + y * surface.width
                for x in 0..<surface.width {
                    let p = row[x]
                    let a = p >> 24
                    if a == 255 { target[x] = p; continue }
                    if a == 0 { target[x] = 0; continue }
                    let f = table[Int(a)]
                    let b = min(255, ((p & 0xFF) * f + 32768) >> 16)
                    let g = min(255, (((p >> 8) & 0xFF) * f + 32768) >> 16)
                    let r = min(255, (((p >> 16) & 0xFF) * f + 32768) >> 16)
                    target[x] = (a << 24) | (r << 16) | (g << 8) | b
                }
            }
        }
    }
}
