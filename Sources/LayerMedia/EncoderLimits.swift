import CFFmpeg

/// What an encoder refuses, checked before it is opened: when it refuses itself, it says why only in its log (or,
/// for x264's presets, straight on stderr, before FFmpeg hands it a log callback) and returns "Invalid argument".
enum EncoderLimits {
    /// x264's and x265's presets (`x264_preset_names`, `x265_preset_names` in their headers: the same ten).
    static let x26xPresets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// Refuses a preset the encoder does not have. Only x264 and x265 are checked: other encoders either have no
    /// `preset` option (libvpx ignores it) or name theirs differently.
    static func checkPreset(_ preset: String, encoder: String) throws {
        guard ["libx264", "libx264rgb", "libx265"].contains(encoder), !x26xPresets.contains(preset) else { return }
        throw MediaError("unknown preset '\(preset)' for \(encoder) (\(x26xPresets.joined(separator: ", ")))")
    }

    /// The size of the encoded pictures for a canvas of `width`×`height`, or why it cannot be encoded.
    ///
    /// With chroma subsampling (4:2:0: x264 refuses odd sides, "width not divisible by 2") a side is rounded down
    /// to even and the canvas scaled to it; so a side of 1 has nothing left. (Measured with libavcodec 59: x264 and
    /// x265 refuse odd sides, while mjpeg, libvpx-vp9, libaom-av1 and mpeg4 take them; all are rounded alike.)
    /// Formats without subsampling (GIF's rgb8, PNG's rgb24) keep the canvas as it is, down to 1×1.
    ///
    /// Above, every encoder is bound by libavcodec's own check (`av_image_check_size2`, run by `avcodec_open2`:
    /// "Picture size … is invalid"): (8·width + 1024)·(height + 128) must stay under 2³¹, i.e. (width + 128)·(height + 128)
    /// under 2²⁸. Encoders' own limits lie beyond it for the sizes `--size` takes (x264, VP9 16383, GIF 65535, JPEG
    /// 65500); the few below it (MPEG-4 Part 2: 8191) say why through the captured log.
    static func pictureSize(width: Int, height: Int, pixelFormat: AVPixelFormat, encoder: String,
                            path: String) throws -> (width: Int32, height: Int32) {
        let descriptor = av_pix_fmt_desc_get(pixelFormat)
        let halvesWidth = (descriptor?.pointee.log2_chroma_w ?? 1) > 0, halvesHeight = (descriptor?.pointee.log2_chroma_h ?? 1) > 0
        let w = halvesWidth ? width & ~1 : width, h = halvesHeight ? height & ~1 : height
        let formatName = av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "subsampled"
        guard w > 0, h > 0 else {
            throw MediaError("cannot write '\(path)': \(width)x\(height) is too small for \(encoder): its \(formatName) pictures are"
                             + " written with even sides, 2x2 at least")
        }
        guard w <= Int(Int32.max), h <= Int(Int32.max),
              av_image_check_size2(UInt32(w), UInt32(h), Int64.max, AV_PIX_FMT_NONE, 0, nil) >= 0 else {
            throw MediaError("cannot write '\(path)': \(width)x\(height) is too large for FFmpeg's encoders:"
                             + " (width + 128) × (height + 128) must stay under 2^28 (16254x16254 at most for a square)")
        }
        return (Int32(w), Int32(h))
    }
}
