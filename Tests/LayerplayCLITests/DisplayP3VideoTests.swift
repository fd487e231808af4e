import Foundation
import LayerGraphics
import Testing
import TestSupport

/// SDR video tagged Display P3 (as `-color_primaries smpte432 -color_trc iec61966-2-1 -colorspace bt709` tags it,
/// the tags of iPhone screen recordings and P3 exports) shown in BT.709: known P3 colours against what SEMANTICS.md
/// §Colour says they become, computed here with the published P3 → BT.709 matrix (not the code under test's).
@Suite("Display P3 video")
struct DisplayP3VideoTests {
    /// The patches, P3 R′G′B′: the primaries (outside BT.709: moved toward their luminance), a colour inside
    /// BT.709, and a grey (unchanged).
    static let colours: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(0.8, 0.6, 0.4), SIMD3(0.5, 0.5, 0.5)]
    static let patch = 16

    /// The P3 → BT.709 matrix in linear light (the published one, D65 both).
    static let p3To709: [SIMD3<Double>] = [SIMD3(1.2249, -0.2247, 0), SIMD3(-0.0420, 1.0419, 0), SIMD3(-0.0197, -0.0786, 1.0979)]

    /// A BT.1886 display of 0.203…203 nits (the compositor's SDR display): code → light above black, in units of white.
    static func light(_ v: Double) -> Double {
        let w = pow(203.0, 1 / 2.4), k = pow(0.203, 1 / 2.4)
        let a = pow(w - k, 2.4), b = k / (w - k)
        return (a * pow(v + b, 2.4) - 0.203) / 203
    }

    /// The 8-bit code a P3 colour shows as: linear P3 → BT.709; a channel below 0 moves the colour toward its own
    /// luminance until it fits, one above 1 scales all three down (SEMANTICS.md §Colour, step 4); BT.1886 again.
    static func expected(_ p3: SIMD3<Double>) -> SIMD3<Double> {
        let l = SIMD3(light(p3.x), light(p3.y), light(p3.z))
        var c = SIMD3((p3To709[0] * l).sum(), (p3To709[1] * l).sum(), (p3To709[2] * l).sum())
        let y = max((c * SIMD3(0.2126, 0.7152, 0.0722)).sum(), 0)
        if c.min() < 0 { c = SIMD3(repeating: y) + y / (y - c.min()) * (c - SIMD3(repeating: y)) }
        if c.max() > 1 { c /= c.max() }
        return SIMD3(255 * HDRPatchClip.bt1886Code(203 * c.x), 255 * HDRPatchClip.bt1886Code(203 * c.y),
                     255 * HDRPatchClip.bt1886Code(203 * c.z))
    }

    /// A one-frame lossless 10-bit 4:4:4 clip of the patches side by side, BT.709 matrix, limited range, tagged P3.
    static func makeClip(in dir: URL) throws -> String {
        let width = patch * colours.count, height = patch
        var planes = [[UInt16]](repeating: [UInt16](repeating: 0, count: width * height), count: 3)
        for (i, c) in colours.enumerated() {
            let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
            let codes = [64 + 876 * y, 512 + 896 * (c.z - y) / 1.8556, 512 + 896 * (c.x - y) / 1.5748].map { UInt16($0.rounded()) }
            for row in 0..<height { for x in (i * patch)..<((i + 1) * patch) { for p in 0..<3 { planes[p][row * width + x] = codes[p] } } }
        }
        try Array(planes.joined()).withUnsafeBytes { Data($0) }.write(to: dir.appendingPathComponent("p3.yuv"))
        try SubtitleFixtures.run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv444p10le",
                                            "-s", "\(width)x\(height)", "-r", "25", "-i", "p3.yuv", "-frames:v", "1",
                                            "-c:v", "libx265", "-x265-params", "lossless=1:log-level=error", "-pix_fmt", "yuv444p10le",
                                            "-color_primaries", "smpte432", "-color_trc", "iec61966-2-1", "-colorspace", "bt709",
                                            "-color_range", "tv", "p3.mp4"], in: dir)
        return dir.appendingPathComponent("p3.mp4").path
    }

    @Test func displayP3ColoursShowAsTheirBT709Values() throws {
        try withTemporaryDirectory { dir in
            let clip = try Self.makeClip(in: dir)
            let probe = runLayerplay(["probe", clip], in: dir)
            expectSuccess(probe)
            #expect(probe.stdout.contains("\"displayP3\""), "probe: \(probe.stdout)")
            expectSuccess(runLayerplay([clip, "-o", "still.png"], in: dir))
            let still = try #require(readPNG(dir.appendingPathComponent("still.png")))
            for (i, colour) in Self.colours.enumerated() {
                let c = still.pixel(x: i * Self.patch + Self.patch / 2, y: Self.patch / 2)
                let ours = SIMD3(Double(c.r), Double(c.g), Double(c.b)), expected = Self.expected(colour)
                for k in 0..<3 {
                    // BT.1886's foot is steep: a channel near 0 takes the 10-bit source's rounding many times over.
                    #expect(abs(ours[k] - expected[k]) <= (expected[k] < 48 ? 8 : 2), "P3 \(colour): ours \(ours), expected \(expected)")
                }
            }
            // Shown as untagged (the P3 codes as BT.709 ones), P3 red would be (255, 0, 0): the conversion made it
            // less saturated in BT.709's terms, as the wider primary is.
            let red = still.pixel(x: Self.patch / 2, y: Self.patch / 2)
            #expect(red.r >= 250 && red.g <= 8 && red.b > 20, "P3 red: \(red)")
        }
    }
}
