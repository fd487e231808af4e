import CFFmpeg
import LayerGraphics

/// Reads a decoded frame's colour: its tags (matrix, range, chroma siting, primaries, transfer) and the HDR side
/// data FFmpeg 5.1 attaches to frames (mastering display, content light level). Untagged values follow today's
/// rules (`FrameConverter.matrix`, `range`, `chroma`).
enum FrameColor {
    static func describe(_ frame: UnsafeMutablePointer<AVFrame>) -> ColorDescription {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        return ColorDescription(matrix: FrameConverter.matrix(frame), range: FrameConverter.range(frame, format),
                                chromaLocation: FrameConverter.chroma(frame, format),
                                primaries: primaries(frame.pointee.color_primaries), transfer: transfer(frame.pointee.color_trc),
                                masteringDisplay: masteringDisplay(frame), contentLightLevel: contentLightLevel(frame))
    }

    static func primaries(_ p: AVColorPrimaries) -> ColorPrimaries {
        switch p {
        case AVCOL_PRI_BT709: .bt709
        case AVCOL_PRI_BT470BG: .bt601PAL
        case AVCOL_PRI_SMPTE170M, AVCOL_PRI_SMPTE240M: .bt601NTSC
        case AVCOL_PRI_BT2020: .bt2020
        case AVCOL_PRI_SMPTE432: .displayP3
        default: .unspecified
        }
    }

    /// Dolby Vision profile 8.4 (iPhone) tags its base layer `arib-std-b67`: it is HLG and decodes as such.
    static func transfer(_ t: AVColorTransferCharacteristic) -> TransferFunction {
        switch t {
        case AVCOL_TRC_SMPTE2084: .pq
        case AVCOL_TRC_ARIB_STD_B67: .hlg
        case AVCOL_TRC_BT709, AVCOL_TRC_SMPTE170M, AVCOL_TRC_SMPTE240M, AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12,
             AVCOL_TRC_GAMMA22, AVCOL_TRC_GAMMA28, AVCOL_TRC_IEC61966_2_1, AVCOL_TRC_IEC61966_2_4: .sdr
        default: .unspecified
        }
    }

    /// Whether a tag is set but names something we do not convert (so today's rules apply, with a warning).
    static func unsupportedTags(_ frame: UnsafeMutablePointer<AVFrame>) -> [String] {
        var names: [String] = []
        let p = frame.pointee.color_primaries, t = frame.pointee.color_trc
        if p != AVCOL_PRI_UNSPECIFIED && p != AVCOL_PRI_RESERVED0 && p != AVCOL_PRI_RESERVED && primaries(p) == .unspecified {
            names.append("primaries \(av_color_primaries_name(p).map { String(cString: $0) } ?? "\(p.rawValue)")")
        }
        if t != AVCOL_TRC_UNSPECIFIED && t != AVCOL_TRC_RESERVED0 && t != AVCOL_TRC_RESERVED && transfer(t) == .unspecified {
            names.append("transfer \(av_color_transfer_name(t).map { String(cString: $0) } ?? "\(t.rawValue)")")
        }
        return names
    }

    static func masteringDisplay(_ frame: UnsafeMutablePointer<AVFrame>) -> MasteringDisplay? {
        guard let side = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
              side.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size else { return nil }
        let m = UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVMasteringDisplayMetadata.self)
        guard m.has_luminance != 0 else { return nil }
        return MasteringDisplay(minLuminance: ratio(m.min_luminance), maxLuminance: ratio(m.max_luminance))
    }

    static func contentLightLevel(_ frame: UnsafeMutablePointer<AVFrame>) -> ContentLightLevel? {
        guard let side = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
              side.pointee.size >= MemoryLayout<AVContentLightMetadata>.size else { return nil }
        let c = UnsafeRawPointer(side.pointee.data).loadUnaligned(as: AVContentLightMetadata.self)
        return ContentLightLevel(maxContentLightLevel: Double(c.MaxCLL), maxFrameAverageLightLevel: Double(c.MaxFALL))
    }

    /// A rational as a number; a zero denominator (a damaged tag) reads as "not a number", which sanitising drops.
    static func ratio(_ r: AVRational) -> Double { r.den == 0 ? .nan : Double(r.num) / Double(r.den) }
}
