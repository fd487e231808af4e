/// The chromaticities of a picture's red, green and blue (and white), as the stream tags them.
public enum ColorPrimaries: String, Sendable, CaseIterable, Codable {
    /// ITU-R BT.709 / sRGB: HD video, the compositor's own space.
    case bt709
    /// ITU-R BT.601 625-line (EBU, `bt470bg`).
    case bt601PAL
    /// ITU-R BT.601 525-line (SMPTE 170M / 240M).
    case bt601NTSC
    /// ITU-R BT.2020: UHD and HDR video (iPhone HDR, HDR10).
    case bt2020
    /// Display P3 (SMPTE EG 432-1, D65 white): iPhone photos and some phone video.
    case displayP3
    /// Not tagged, or tagged with something we do not convert: today's rules apply (taken to be BT.709).
    case unspecified

    /// Whether pictures in these primaries are shown as they are: the compositor's space and SD video's close
    /// relatives, whose codes have always passed unchanged (and still do).
    public var isCompositorSpace: Bool { self != .bt2020 && self != .displayP3 }
}

/// How a picture's code values relate to light (the transfer characteristic), as the stream tags it.
public enum TransferFunction: String, Sendable, CaseIterable, Codable {
    /// Standard dynamic range (BT.709, BT.601, BT.2020 10/12-bit, sRGB…): shown on a BT.1886 display.
    case sdr
    /// SMPTE ST 2084 perceptual quantiser: absolute light up to 10 000 nits (HDR10, Dolby Vision 8.1).
    case pq
    /// ARIB STD-B67 hybrid log-gamma: scene light, shown by a display's OOTF (phones' HDR, Dolby Vision 8.4).
    case hlg
    /// Not tagged, or tagged with something we do not convert (linear, log…): today's rules (as SDR).
    case unspecified

    /// Whether the codes carry high dynamic range (PQ or HLG).
    public var isHDR: Bool { self == .pq || self == .hlg }
}

/// The display a PQ picture was graded on (SMPTE ST 2086), from the frame's side data: its light range, in nits.
public struct MasteringDisplay: Sendable, Equatable, Codable {
    /// The darkest the display shows, nits.
    public var minLuminance: Double
    /// The brightest the display shows, nits.
    public var maxLuminance: Double

    /// The range as tagged. Use `sanitized` before relying on it.
    public init(minLuminance: Double, maxLuminance: Double) {
        self.minLuminance = minLuminance; self.maxLuminance = maxLuminance
    }

    /// The range with absurd values brought back into what displays do: peak 10 000 nits at most (PQ's ceiling);
    /// nil when the peak is missing, not a number or below 50 nits (no HDR display is that dim: a zero means
    /// "unknown"); black between 0 and a tenth of the peak. So a tag can make tone mapping different, never wrong.
    public var sanitized: MasteringDisplay? {
        guard maxLuminance.isFinite, maxLuminance >= 50 else { return nil }
        let peak = min(maxLuminance, 10_000)
        let black = minLuminance.isFinite ? min(max(minLuminance, 0), peak / 10) : 0
        return MasteringDisplay(minLuminance: black, maxLuminance: peak)
    }
}

/// The content light level (CTA-861.3): the brightest pixel and the brightest frame average of the stream, in nits.
public struct ContentLightLevel: Sendable, Equatable, Codable {
    /// MaxCLL: the brightest pixel of the stream, nits (0 when unknown).
    public var maxContentLightLevel: Double
    /// MaxFALL: the brightest frame-average light level, nits (0 when unknown).
    public var maxFrameAverageLightLevel: Double

    /// A content light level of MaxCLL and MaxFALL, in nits.
    public init(maxContentLightLevel: Double, maxFrameAverageLightLevel: Double) {
        self.maxContentLightLevel = maxContentLightLevel; self.maxFrameAverageLightLevel = maxFrameAverageLightLevel
    }
}

/// Everything needed to turn a decoded picture's codes into the compositor's colours: matrix, range, chroma siting,
/// primaries, transfer and, for HDR, the light range it was made for.
///
/// Built per frame (FFmpeg 5.1 attaches mastering and light-level data to frames, not streams).
public struct ColorDescription: Sendable, Equatable {
    /// The Y′CbCr → R′G′B′ matrix.
    public var matrix: ColorMatrix
    /// Limited or full code range.
    public var range: ColorRange
    /// Where chroma samples sit.
    public var chromaLocation: ChromaLocation
    /// The primaries, `.unspecified` when untagged or not understood.
    public var primaries: ColorPrimaries
    /// The transfer characteristic, `.unspecified` when untagged or not understood.
    public var transfer: TransferFunction
    /// The mastering display's light range, when the frame carries one.
    public var masteringDisplay: MasteringDisplay?
    /// MaxCLL / MaxFALL, when the frame carries them.
    public var contentLightLevel: ContentLightLevel?

    /// A description; the defaults are untagged HD video (BT.709 matrix, limited range, left-sited chroma).
    public init(matrix: ColorMatrix = .bt709, range: ColorRange = .limited, chromaLocation: ChromaLocation = .left,
                primaries: ColorPrimaries = .unspecified, transfer: TransferFunction = .unspecified,
                masteringDisplay: MasteringDisplay? = nil, contentLightLevel: ContentLightLevel? = nil) {
        self.matrix = matrix; self.range = range; self.chromaLocation = chromaLocation
        self.primaries = primaries; self.transfer = transfer
        self.masteringDisplay = masteringDisplay; self.contentLightLevel = contentLightLevel
    }

    /// Whether the codes must be converted before the compositor shows them: HDR, or wide-gamut primaries. Every
    /// other picture (SDR in BT.709 or SD primaries, or untagged) passes as it is, exactly as before.
    public var needsConversion: Bool { transfer.isHDR || !primaries.isCompositorSpace }

    /// The brightest light the picture holds, in nits, for tone mapping: the mastering display's peak, else
    /// MaxCLL, else 1000 nits (what HLG's reference display shows, and what libplacebo assumes for HLG); a
    /// mastering peak below MaxCLL gives way to MaxCLL only when the peak was absurd (see `sanitized`).
    public var sourcePeak: Double {
        if transfer == .hlg { return 1000 }
        if let m = masteringDisplay?.sanitized { return m.maxLuminance }
        if let cll = contentLightLevel?.maxContentLightLevel, cll.isFinite, cll >= 50 { return min(cll, 10_000) }
        return 1000
    }

    /// The darkest light the picture holds, in nits: PQ, the mastering display's black, else 0; HLG, the black of
    /// its 1000-nit reference display.
    public var sourceBlack: Double {
        switch transfer {
        case .pq: masteringDisplay?.sanitized?.minLuminance ?? 0
        case .hlg: TransferCurves.hlgDisplayBlack
        case .sdr, .unspecified: 0
        }
    }
}
