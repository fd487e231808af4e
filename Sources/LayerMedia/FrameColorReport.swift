import LayerGraphics

/// A frame's colour as `layerplay probe` reports it: how decoding reads the tags (after today's rules for untagged
/// values) and the HDR side data, and whether the picture is converted before the compositor shows it.
public struct FrameColorReport: Sendable, Codable, Equatable {
    /// The Y′CbCr matrix used: `bt601`, `bt709` or `bt2020`.
    public var matrix: String
    /// `limited` or `full`.
    public var range: String
    /// `left`, `center` or `topLeft`.
    public var chromaLocation: String
    /// `bt709`, `bt601PAL`, `bt601NTSC`, `bt2020`, `displayP3` or `unspecified`.
    public var primaries: String
    /// `sdr`, `pq`, `hlg` or `unspecified`.
    public var transfer: String
    /// The mastering display's light range in nits, as tagged.
    public var masteringDisplay: MasteringDisplay?
    /// MaxCLL and MaxFALL in nits, as tagged.
    public var contentLightLevel: ContentLightLevel?
    /// The light tone mapping takes as the source's peak, nits (HDR only).
    public var toneMappingPeak: Double?
    /// Whether the picture is converted (HDR → SDR, or wide gamut → BT.709) before it is shown.
    public var convertedForDisplay: Bool

    /// The report of a frame's colour description, as `probe` prints it.
    public init(_ c: ColorDescription) {
        matrix = c.matrix.rawValue; range = c.range.rawValue; chromaLocation = c.chromaLocation.rawValue
        primaries = c.primaries.rawValue; transfer = c.transfer.rawValue
        masteringDisplay = c.masteringDisplay; contentLightLevel = c.contentLightLevel
        toneMappingPeak = c.transfer.isHDR ? c.sourcePeak : nil
        convertedForDisplay = c.needsConversion
    }
}
