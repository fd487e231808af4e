import Foundation

/// HDR patch clips and their reference rendering, for the tone-mapping tests.
///
/// A clip is 256×64, 10-bit 4:2:0, BT.2020, PQ or HLG, one lossless x265 frame made by the ffmpeg CLI from codes
/// written here (with the standards' formulas, independently of the code under test). Top row: eight 32×32 greys
/// of `greyNits`; bottom row: the BT.709 colours of `colours` at SDR white (203 nits), carried in BT.2020. The PQ
/// clip is tagged with a 1000-nit mastering display (so both renderers take 1000 nits as the peak).
///
/// The reference is FFmpeg's `libplacebo` filter (mpv's renderer) on Mesa's software Vulkan device (Debian's
/// mesa-vulkan-drivers, which `make deps` installs): BT.2390 tone mapping, no peak detection, BT.709 output.
public struct HDRPatchClip {
    public enum Kind: String, CaseIterable, Sendable {
        case pq, hlg
        /// SDR in BT.2020 primaries (transfer bt2020-10, a BT.1886 display, 203-nit white, 1000:1): wide-gamut SDR.
        case sdr2020
        /// The HDR kinds, which the libplacebo reference renders.
        public static var hdr: [Kind] { [.pq, .hlg] }
    }

    public static let width = 256, height = 64, patch = 32
    public static let greyNits: [Double] = [1, 10, 26, 100, 203, 400, 1000, 0]
    public static let colours: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1),
                                                  SIMD3(1, 0, 1), SIMD3(0.5, 0.25, 0.1), SIMD3(0.2, 0.5, 0.8)]

    public let kind: Kind
    /// The clip's path.
    public let path: String

    /// Makes the clip in `directory` (as `pq.mp4` or `hlg.mp4`).
    public init(_ kind: Kind, in directory: URL) throws {
        self.kind = kind
        let raw = directory.appendingPathComponent("\(kind).yuv")
        try Self.codes(kind).write(to: raw)
        let name = "\(kind).mp4"
        let hdr10 = kind == .pq ? ":hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):max-cll=1000,400" : ""
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p10le",
                                            "-s", "\(Self.width)x\(Self.height)", "-r", "25", "-i", raw.lastPathComponent,
                                            "-frames:v", "1", "-c:v", "libx265", "-x265-params", "lossless=1:log-level=error" + hdr10,
                                            "-pix_fmt", "yuv420p10le", "-color_primaries", "bt2020",
                                            "-color_trc", kind == .pq ? "smpte2084" : kind == .hlg ? "arib-std-b67" : "bt2020-10",
                                            "-colorspace", "bt2020nc", "-color_range", "tv", name], in: directory)
        path = directory.appendingPathComponent(name).path
    }

    /// The reference rendering, 8-bit RGB rows (width × height × 3), or an error that says why it cannot run.
    public func reference(in directory: URL) throws -> [UInt8] {
        let out = "\(kind)-reference.rgb"
        do {
            try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-init_hw_device", "vulkan=vk:0",
                                                "-filter_hw_device", "vk", "-i", path, "-frames:v", "1", "-vf",
                                                "hwupload,libplacebo=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=pc"
                                                    + ":tonemapping=bt.2390:peak_detect=0:format=yuv444p16le,hwdownload,format=yuv444p16le,format=rgb24",
                                                "-f", "rawvideo", out], in: directory)
        } catch {
            throw FixtureError("the reference renderer (ffmpeg's libplacebo filter on Mesa's software Vulkan: `make deps` installs mesa-vulkan-drivers) cannot run: \(error)")
        }
        return try Self.rgb(directory.appendingPathComponent(out))
    }

    /// Decodes the first frame of a movie to 8-bit RGB rows with the ffmpeg CLI (as a player would, by its tags).
    public static func firstFrameRGB(of movie: String, in directory: URL) throws -> [UInt8] {
        let out = "\(UUID().uuidString).rgb"
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", movie, "-frames:v", "1",
                                            "-vf", "scale=in_color_matrix=auto:in_range=auto:flags=accurate_rnd+full_chroma_int,format=rgb24",
                                            "-f", "rawvideo", out], in: directory)
        return try rgb(directory.appendingPathComponent(out))
    }

    static func rgb(_ url: URL) throws -> [UInt8] {
        let data = try Data(contentsOf: url)
        guard data.count == width * height * 3 else { throw FixtureError("\(url.lastPathComponent) holds \(data.count) bytes, not one \(width)×\(height) RGB frame") }
        return [UInt8](data)
    }

    /// How RGB rows of ours (`width` × `height` × 3) disagree with the reference beyond the tolerance the HDR tests
    /// state (8-bit codes, 8×8 means at the patch centres; `slack` more for a path with one more rounding): greys
    /// ±2; colours ±6 on every channel the reference shows above 48; below that (libplacebo's hybrid mode lifts the
    /// zero channels of saturated colours) ours at most 2 higher and 40 lower. Returns one line per disagreement,
    /// and the worst grey and colour differences.
    public static func disagreements(_ ours: [UInt8], with reference: [UInt8], slack: Double = 0, what: String)
        -> (problems: [String], worstGrey: Double, worstColour: Double) {
        var problems: [String] = [], worstGrey = 0.0, worstColour = 0.0
        for (i, centre) in patchCentres.enumerated() {
            let a = mean(ours, x: centre.x, y: centre.y), b = mean(reference, x: centre.x, y: centre.y)
            for c in 0..<3 {
                let difference = abs(a[c] - b[c])
                if i < 8 {
                    worstGrey = max(worstGrey, difference)
                    if difference > 2 + slack { problems.append("\(what): grey \(greyNits[i]) nits, ours \(a), libplacebo \(b)") }
                } else if b[c] > 48 {
                    worstColour = max(worstColour, difference)
                    if difference > 6 + slack { problems.append("\(what): colour \(i - 8), ours \(a), libplacebo \(b)") }
                } else if !(a[c] <= b[c] + 2 + slack && b[c] - a[c] <= 40) {
                    problems.append("\(what): colour \(i - 8) channel \(c), ours \(a), libplacebo \(b)")
                }
            }
        }
        return (problems, worstGrey, worstColour)
    }

    /// The centres of the 16 patches: greys first (left to right), then colours.
    public static var patchCentres: [(x: Int, y: Int)] {
        (0..<16).map { i in (x: (i % 8) * patch + patch / 2, y: (i / 8) * patch + patch / 2) }
    }

    /// The mean RGB of the 8×8 pixels around (x, y) of RGB rows.
    public static func mean(_ rgb: [UInt8], x: Int, y: Int) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for yy in (y - 4)..<(y + 4) { for xx in (x - 4)..<(x + 4) {
            let i = (yy * width + xx) * 3
            sum += SIMD3(Double(rgb[i]), Double(rgb[i + 1]), Double(rgb[i + 2]))
        } }
        return sum / 64
    }

    // MARK: The codes

    /// Linear BT.709 light (nits) → the BT.2020 light of the same colour.
    static func bt709ToBT2020(_ c: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(0.6274 * c.x + 0.3293 * c.y + 0.0433 * c.z, 0.0691 * c.x + 0.9195 * c.y + 0.0114 * c.z,
              0.0164 * c.x + 0.0880 * c.y + 0.8956 * c.z)
    }

    /// Display light in BT.2020 (nits) → R′G′B′ in the clip's transfer.
    static func encode(_ light: SIMD3<Double>, _ kind: Kind) -> SIMD3<Double> {
        switch kind {
        case .pq:
            func pq(_ nits: Double) -> Double {
                let y = pow(max(nits, 0) / 10_000, 2610.0 / 16384)
                return pow((0.8359375 + 18.8515625 * y) / (1 + 18.6875 * y), 78.84375)
            }
            return SIMD3(pq(light.x), pq(light.y), pq(light.z))
        case .hlg:
            // Undo the 1000-nit display's OOTF (γ 1.2) on luminance, then the OETF.
            let yd = (0.2627 * light.x + 0.6780 * light.y + 0.0593 * light.z) / 1000
            let ys = pow(max(yd, 1e-12), 1 / 1.2)
            func oetf(_ e: Double) -> Double {
                e <= 1.0 / 12 ? (3 * max(e, 0)).squareRoot() : 0.17883277 * log(12 * e - 0.28466892) + 0.55991073
            }
            let scene = light / 1000 / pow(ys, 0.2)
            return yd <= 0 ? .zero : SIMD3(oetf(scene.x), oetf(scene.y), oetf(scene.z))
        case .sdr2020:
            return SIMD3(bt1886Code(light.x), bt1886Code(light.y), bt1886Code(light.z))
        }
    }

    /// The code (0…1) of `nits` on a BT.1886 display of 0.203…203 nits (γ 2.4).
    public static func bt1886Code(_ nits: Double) -> Double {
        let w = pow(203.0, 1 / 2.4), k = pow(0.203, 1 / 2.4)
        let a = pow(w - k, 2.4), b = k / (w - k)
        return min(max(pow(max(nits + 0.203, 0) / a, 1 / 2.4) - b, 0), 1)
    }

    /// The clip's yuv420p10le frame.
    static func codes(_ kind: Kind) -> Data {
        var yPlane = [UInt16](repeating: 0, count: width * height)
        var uPlane = [UInt16](repeating: 0, count: width * height / 4), vPlane = uPlane
        for i in 0..<16 {
            let light = i < 8 ? SIMD3(repeating: greyNits[i]) : bt709ToBT2020(colours[i - 8] * 203)
            let e = encode(light, kind)
            let y = 0.2627 * e.x + 0.6780 * e.y + 0.0593 * e.z
            let codes = (UInt16((64 + 876 * y).rounded()), UInt16((512 + 896 * (e.z - y) / 1.8814).rounded()),
                         UInt16((512 + 896 * (e.x - y) / 1.4746).rounded()))
            let x0 = (i % 8) * patch, y0 = (i / 8) * patch
            for yy in y0..<(y0 + patch) { for xx in x0..<(x0 + patch) { yPlane[yy * width + xx] = codes.0 } }
            for yy in (y0 / 2)..<((y0 + patch) / 2) { for xx in (x0 / 2)..<((x0 + patch) / 2) {
                uPlane[yy * width / 2 + xx] = codes.1; vPlane[yy * width / 2 + xx] = codes.2
            } }
        }
        return (yPlane + uPlane + vPlane).withUnsafeBytes { Data($0) }
    }
}
